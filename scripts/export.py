"""Rule `export` (rules/export.smk): the Hugging Face dataset folder and the lm-eval tasks."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import export_stage

    p = snakemake.params
    export_stage(
        dict(zip(p.paradigms, snakemake.input.benchmarks)), dict(zip(p.paradigms, snakemake.input.curation)),
        snakemake.output.hf, snakemake.output.lm_eval, config=p.card,
    )
