"""Rules `score_pool` / `score_benchmark` (rules/score.smk): LM scores of unique sentences, via the score cache."""
from rublimp.runtime import rule_log

with rule_log(snakemake, threads=snakemake.params.threads):
    from rublimp.stages import score_stage

    p = snakemake.params
    score_stage(
        snakemake.input.pool, snakemake.output[0], spec=p.spec, columns=p.column,
        ks=p.ks, per_token=p.per_token, cache_dir=p.cache_dir, threads=p.threads, cascade=p.cascade,
    )
