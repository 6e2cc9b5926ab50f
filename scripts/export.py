"""Rule `export` (rules/export.smk): the Hugging Face dataset folder and the lm-eval tasks."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp.stages import export_stage  # noqa: E402

p = snakemake.params
export_stage(
    dict(zip(p.paradigms, snakemake.input.benchmarks)), dict(zip(p.paradigms, snakemake.input.curation)),
    snakemake.output.hf, snakemake.output.lm_eval, config=p.card,
)
