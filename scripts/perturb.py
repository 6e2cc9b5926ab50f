"""Rule `perturb` (rules/perturb.smk): one paradigm's pool of minimal pairs."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import perturb_stage

    p = snakemake.params
    perturb_stage(
        snakemake.input.shards, [snakemake.wildcards.paradigm], [snakemake.output[0]],
        verdicts=snakemake.input.verdicts, pool_cap=p.pool_cap,
        pairs_per_sentence=p.pairs_per_sentence, seed=p.seed, options=p.options,
    )
