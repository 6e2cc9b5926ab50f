"""Rule `report` (rules/evaluate.smk): summary tables, per-paradigm CSVs and plots."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import report_stage

    report_stage(snakemake.input.pairs, snakemake.input.curation, snakemake.params.outdir,
                 alpha=snakemake.params.alpha, sections=snakemake.input.get("sections", []))
