"""Rules `validation_export`, `validation_simulate`, `validation_import`, `validation_report` (rules/validation.smk)."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from pathlib import Path

    from rublimp import validation

    rule, inp, out, p = snakemake.rule, snakemake.input, snakemake.output, snakemake.params
    if rule == "validation_export":
        validation.export_stage(inp.benchmark, Path(out.tsv).parent, per_paradigm=p.per_paradigm,
                                duplicate_fraction=p.duplicate_fraction, seed=p.seed)
    elif rule == "validation_simulate":
        validation.simulate_stage(inp.key, out[0], seed=p.seed)
    elif rule == "validation_import":
        validation.validation_import_stage(
            inp.annotations, inp.pools, Path(out.summary).parent, seed=p.seed,
            min_control_accuracy=p.min_control_accuracy, exclude_flagged=p.exclude_flagged,
            exclusion_alpha=p.exclusion_alpha, allow_single_annotator=p.allow_single_annotator,
            n_boot=p.alpha_bootstrap, simulated=p.simulated,
        )
    elif rule == "validation_report":
        validation.section_stage(inp.key, out[0], summary=(inp.summary or [None])[0])
    else:
        raise ValueError(f"scripts/validation.py does not handle rule {rule!r}")
