# Stage 8: evaluate every model on every paradigm's benchmark (one job per model); one report over all.


rule evaluate:
    input:
        benchmarks=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        scores=expand(f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS, allow_missing=True),
    output:
        expand(f"{OUT}/eval/pairs/{{model}}/{{paradigm}}.parquet", paradigm=PARADIGMS, allow_missing=True),
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
    output:
        summary=report(f"{OUT}/eval/summary.md", caption="../report/summary.rst", category="Results"),
        results=f"{OUT}/eval/results.csv",
    params:
        outdir=lambda wildcards, output: os.path.dirname(output.summary),
        alpha=config.get("evaluation", {}).get("alpha", 0.05),
    log:
        f"{OUT}/logs/report.log",
    benchmark:
        f"{OUT}/benchmarks/report/all.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/report.py"
