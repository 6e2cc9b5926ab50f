"""Rule `context_check` (rules/score.smk): the pool pairs too long for one model, before any scoring."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.scoring.context import context_stage

    context_stage(dict(zip(snakemake.params.paradigms, snakemake.input.pools)), snakemake.params.spec,
                  snakemake.output[0])
