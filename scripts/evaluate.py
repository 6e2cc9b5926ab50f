"""Rule `evaluate` (rules/evaluate.smk): per-pair results of one model on every paradigm."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp.stages import evaluate_stage  # noqa: E402

evaluate_stage(
    list(snakemake.input.benchmarks), list(snakemake.input.scores), list(snakemake.output),
    model=snakemake.wildcards.model,
)
