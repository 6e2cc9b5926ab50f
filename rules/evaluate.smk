# Stage 8: evaluate every model on every paradigm's benchmark (one job per model); one report over all.


rule evaluate:
    input:
        benchmarks=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        scores=expand(f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS, allow_missing=True),
        code=stage_code("evaluate"),
    output:
        expand(f"{OUT}/eval/pairs/{{model}}/{{paradigm}}.parquet", paradigm=PARADIGMS, allow_missing=True),
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/evaluate/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/evaluate/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/evaluate.py"


rule report:
    input:
        pairs=expand(f"{OUT}/eval/pairs/{{model}}/{{paradigm}}.parquet", model=WF.evaluation_models, paradigm=PARADIGMS),
        curation=expand(f"{OUT}/curation/{{paradigm}}.json", paradigm=PARADIGMS),
        sections=extra_report_sections(),
        code=stage_code("report"),
    output:
        summary=report(f"{OUT}/eval/summary.md", caption="../report/summary.rst", category="6. Results"),
        results=report(f"{OUT}/eval/results.csv", caption="../report/results.rst", category="6. Results"),
        phenomena=report(f"{OUT}/eval/phenomena.csv", caption="../report/phenomena.rst", category="6. Results"),
        curation=report(f"{OUT}/eval/curation.csv", caption="../report/curation_table.rst", category="3. Decontamination"),
        acceptability=report(f"{OUT}/eval/acceptability.csv", caption="../report/acceptability.rst", category="6. Results"),
        tags=report(f"{OUT}/eval/tags.csv", caption="../report/tags.rst", category="6. Results"),
        accuracy_plot=report(f"{OUT}/eval/accuracy_by_phenomenon.png", caption="../report/accuracy_plot.rst", category="6. Results"),
        delta_plot=report(f"{OUT}/eval/delta_hist.png", caption="../report/delta_plot.rst", category="6. Results"),
    params:
        outdir=lambda wildcards, output: os.path.dirname(output.summary),
        alpha=config["evaluation"]["alpha"],
    log:
        f"{OUT}/logs/report.log",
    benchmark:
        f"{OUT}/benchmarks/report.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/report.py"
