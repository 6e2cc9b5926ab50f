"""Rule `export` (rules/export.smk): the Hugging Face dataset folder and the lm-eval tasks."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import export_stage

    from pathlib import Path

    p, inp = snakemake.params, snakemake.input

    def one(files):
        return files[0] if files else None

    export_stage(
        dict(zip(p.paradigms, inp.benchmarks)), dict(zip(p.paradigms, inp.curation)),
        Path(snakemake.output.hf).parent, Path(snakemake.output.lm_eval).parent, config=p.card,
        validation=one(inp.validation), agreement=inp.agreement, demo_check=one(inp.demo_check),
    )
