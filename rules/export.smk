# Stage 9: publish the benchmark where people evaluate: a Hugging Face dataset folder
# (datasets.load_dataset) and lm-evaluation-harness tasks that read its Parquet files. Each folder
# is replaced as a whole (rublimp.export); its README.md stands for it as the rule's output.


rule export:
    input:
        benchmarks=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        curation=expand(f"{OUT}/curation/{{paradigm}}.json", paradigm=PARADIGMS),
        # the checks the dataset card reports (human validation only when annotations are imported)
        validation=[f"{OUT}/validation/summary.json"] if validation_annotations() else [],
        agreement=f"{OUT}/agreement/verdicts.csv",
        demo_check=[f"{OUT}/eval/demo_lm_check.json"] if WF.demo_models else [],
        code=stage_code("export"),
    output:
        # the folders' README files, not the folders: Snakemake would put a hidden
        # .snakemake_timestamp into each folder, which an upload would publish
        hf=f"{OUT}/export/hf/README.md",
        lm_eval=f"{OUT}/export/lm_eval/README.md",
    params:
        paradigms=PARADIGMS,
        # what the dataset card says about how the benchmark was built (rublimp.export.BuildInfo)
        card={key: config[key] for key in ("export", "seed", "corpus", "parse", "perturb", "models", "curation")},
    log:
        f"{OUT}/logs/export.log",
    benchmark:
        f"{OUT}/benchmarks/export.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/export.py"
