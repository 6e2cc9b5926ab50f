# Stage 9: publish the benchmark where people evaluate: a Hugging Face dataset folder
# (datasets.load_dataset) and lm-evaluation-harness tasks that read its Parquet files.


rule export:
    input:
        benchmarks=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        curation=expand(f"{OUT}/curation/{{paradigm}}.json", paradigm=PARADIGMS),
        code=stage_code("export"),
    output:
        hf=directory(f"{OUT}/export/hf"),
        lm_eval=directory(f"{OUT}/export/lm_eval"),
    params:
        paradigms=PARADIGMS,
        # what the dataset card says about how the benchmark was built (rublimp.export.BuildInfo)
        card={key: config[key] for key in ("export", "seed", "corpus", "parse", "models", "curation")},
    log:
        f"{OUT}/logs/export.log",
    benchmark:
        f"{OUT}/benchmarks/export.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/export.py"
