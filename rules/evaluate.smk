# Stage 8: evaluate every model on every paradigm's benchmark; one report over all.


rule evaluate:
    input:
        benchmark=f"{OUT}/benchmark/{{paradigm}}.parquet",
        scores=f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet",
    output:
        f"{OUT}/eval/pairs/{{model}}/{{paradigm}}.parquet",
    log:
        f"{OUT}/logs/evaluate/{{model}}/{{paradigm}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/evaluate.py"


rule report:
    input:
        pairs=expand(f"{OUT}/eval/pairs/{{model}}/{{paradigm}}.parquet", model=WF.evaluation_models, paradigm=PARADIGMS),
        curation=expand(f"{OUT}/curation/{{paradigm}}.json", paradigm=PARADIGMS),
        sections=extra_report_sections(),
    output:
        summary=report(f"{OUT}/eval/summary.md", caption="../report/summary.rst", category="Results"),
        results=f"{OUT}/eval/results.csv",
    params:
        outdir=lambda wildcards, output: os.path.dirname(output.summary),
        alpha=config.get("evaluation", {}).get("alpha", 0.05),
    log:
        f"{OUT}/logs/report.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/report.py"
