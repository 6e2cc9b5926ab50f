"""Rule `evaluate` (rules/evaluate.smk): per-pair results of one model on one paradigm."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import evaluate_stage

    evaluate_stage(snakemake.input.benchmark, snakemake.input.scores, snakemake.output[0], model=snakemake.wildcards.model)
