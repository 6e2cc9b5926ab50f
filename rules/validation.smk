# Human validation of the benchmark (RuBLiMP §2.5): export a stratified sample with golden controls
# for crowdsourcing / Label Studio, import the labels, aggregate (crowd-kit), report validity.
# `curation.drop_invalid: <annotations>` makes curation replace the pairs judged invalid
# (rules/curate.smk reads validation/drop.csv).

VAL_CFG = config.get("validation", {})


rule validation_export:
    input:
        benchmark=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
    output:
        tsv=f"{OUT}/validation/tasks.tsv",
        project=f"{OUT}/validation/label_studio_project.json",
        tasks=f"{OUT}/validation/label_studio_tasks.json",
        key=f"{OUT}/validation/items.csv",
    params:
        per_paradigm=VAL_CFG.get("per_paradigm", 50),
        duplicate_fraction=VAL_CFG.get("duplicate_fraction", 0.1),
        seed=WF.seed,
    log:
        f"{OUT}/logs/validation/export.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/validation.py"


rule validation_simulate:
    input:
        key=f"{OUT}/validation/items.csv",
    output:
        f"{OUT}/validation/simulated_annotations.tsv",
    params:
        seed=WF.seed,
    log:
        f"{OUT}/logs/validation/simulate.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/validation.py"


rule validation_import:
    input:
        annotations=validation_annotations() or [],
        pools=expand(f"{OUT}/pools/{{paradigm}}.parquet", paradigm=PARADIGMS),
    output:
        pairs=f"{OUT}/validation/pairs.csv",
        workers=f"{OUT}/validation/workers.csv",
        paradigms=f"{OUT}/validation/paradigms.csv",
        drop=f"{OUT}/validation/drop.csv",
        summary=f"{OUT}/validation/summary.json",
    params:
        seed=WF.seed,
        min_control_accuracy=VAL_CFG.get("min_control_accuracy", 0.7),
        exclude_flagged=VAL_CFG.get("exclude_flagged", True),
        simulated=not (config.get("curation", {}).get("drop_invalid") or VAL_CFG.get("annotations")),
    log:
        f"{OUT}/logs/validation/import.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/validation.py"


rule validation_report:
    input:
        key=f"{OUT}/validation/items.csv",
        summary=[f"{OUT}/validation/summary.json"] if validation_annotations() else [],
    output:
        f"{OUT}/validation/section.md",
    log:
        f"{OUT}/logs/validation/report.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/validation.py"
