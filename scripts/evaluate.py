"""Rule `evaluate` (rules/evaluate.smk): per-pair results of one model on every paradigm."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import evaluate_stage

    evaluate_stage(
        list(snakemake.input.benchmarks), list(snakemake.input.scores), list(snakemake.output),
        model=snakemake.wildcards.model,
    )
