"""Rule `perturb` (rules/perturb.smk): one paradigm's pool, merged from its cached partial pools."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.pool_merge import pool_stage

    p = snakemake.params
    pool_stage(
        snakemake.input.shards, snakemake.wildcards.paradigm, p.inputs, p.cache_dir, snakemake.output[0],
        verdicts=snakemake.input.verdicts, pool_cap=p.pool_cap,
        pairs_per_sentence=p.pairs_per_sentence, seed=p.seed,
    )
