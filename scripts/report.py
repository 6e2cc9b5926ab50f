"""Rule `report` (rules/evaluate.smk): summary tables, per-paradigm CSVs and plots."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp.stages import report_stage  # noqa: E402

report_stage(snakemake.input.pairs, snakemake.input.curation, snakemake.params.outdir, alpha=snakemake.params.alpha,
             sections=snakemake.input.get("sections", []))
