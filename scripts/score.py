"""Rules `score_pools` / `score_benchmark` (rules/score.smk): one model, every paradigm, via the score cache."""
from rublimp.runtime import rule_log

with rule_log(snakemake, threads=snakemake.threads):
    from rublimp.stages import score_stage

    p = snakemake.params
    score_stage(
        list(snakemake.input.pools), list(snakemake.output), spec=p.spec, columns=p.column,
        ks=p.ks, per_token=p.per_token, cache_dir=p.cache_dir, threads=snakemake.threads, cascade=p.cascade,
        # score_pools: the pairs too long for any model are scored by none (rule context_check)
        exclude=list(snakemake.input.get("too_long", [])),
    )
