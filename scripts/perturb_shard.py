"""Rule `perturb_shard` (rules/perturb.smk): every paradigm's partial pool of one shard, one pass."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import perturb_shard_stage

    p = snakemake.params
    perturb_shard_stage(
        snakemake.input.shard, p.paradigms, p.cache_dir, snakemake.output[0],
        verdicts=snakemake.input.verdicts, pool_cap=p.pool_cap,
        pairs_per_sentence=p.pairs_per_sentence, seed=p.seed,
    )
