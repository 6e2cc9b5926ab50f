# Human validation of the benchmark (RuBLiMP §2.5): export a stratified sample with golden controls
# for crowdsourcing / Label Studio, import the labels, aggregate (crowd-kit), report validity.
# `curation.drop_invalid: <annotations>` makes curation replace the pairs judged invalid
# (rules/curate.smk reads validation/drop.csv). Defaults of `validation.*`: config/schema.yaml.

VAL_CFG = config["validation"]
# the golden control items both the export and the import build the item key from
VALIDATION_CONTROLS = str(Path(workflow.basedir) / "resources" / "validation_controls.tsv")


rule validation_export:
    input:
        benchmark=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        controls=VALIDATION_CONTROLS,
        code=stage_code("validation"),
    output:
        tsv=report(
            f"{OUT}/validation/tasks.tsv",
            caption="../report/validation_tasks.rst",
            category="7. Human validation",
            labels={"table": "tasks for annotators"},
        ),
        project=f"{OUT}/validation/label_studio_project.json",
        tasks=f"{OUT}/validation/label_studio_tasks.json",
        key=f"{OUT}/validation/items.csv",
    params:
        per_paradigm=VAL_CFG["per_paradigm"],
        duplicate_fraction=VAL_CFG["duplicate_fraction"],
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
        code=stage_code("validation"),
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
        controls=VALIDATION_CONTROLS,
        code=stage_code("validation"),
    output:
        pairs=f"{OUT}/validation/pairs.csv",
        confusion=f"{OUT}/validation/confusion.csv",
        workers=report(
            f"{OUT}/validation/workers.csv",
            caption="../report/validation_workers.rst",
            category="7. Human validation",
            labels={"table": "annotators"},
        ),
        paradigms=report(
            f"{OUT}/validation/paradigms.csv",
            caption="../report/validation_paradigms.rst",
            category="7. Human validation",
            labels={"table": "validity per paradigm"},
        ),
        drop=f"{OUT}/validation/drop.csv",
        summary=report(
            f"{OUT}/validation/summary.json",
            caption="../report/validation_summary.rst",
            category="7. Human validation",
            labels={"table": "summary"},
        ),
    params:
        seed=WF.seed,
        min_control_accuracy=VAL_CFG["min_control_accuracy"],
        exclude_flagged=VAL_CFG["exclude_flagged"],
        exclusion_alpha=VAL_CFG["exclusion_alpha"],
        allow_single_annotator=VAL_CFG["allow_single_annotator"],
        alpha_bootstrap=VAL_CFG["alpha_bootstrap"],
        simulated=validation_simulated(),
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
        code=stage_code("validation_report"),
    output:
        f"{OUT}/validation/section.md",
    log:
        f"{OUT}/logs/validation/report.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/validation.py"
