# Stage 4: subject-predicate agreement validation (MultiBLiMP section 4.2).


rule validate_agreement:
    input:
        shards=shard_paths,
        code=stage_code("validate_agreement"),
        # the word lists of the normalisation pass (rublimp.trees.normalise.RESOURCES): the counted trees are normalised
        word_lists=WF.normalise_resources(),
    output:
        parquet=f"{OUT}/agreement/verdicts.parquet",
        csv=report(
            f"{OUT}/agreement/verdicts.csv",
            caption="../report/verdicts.rst",
            category="2. Agreement validation",
            labels={"table": "agreement verdicts"},
        ),
    params:
        min_conf=config["agreement"]["min_conf"],
        p0=config["agreement"]["p0"],
        alpha=config["agreement"]["alpha"],
    log:
        f"{OUT}/logs/agreement.log",
    benchmark:
        f"{OUT}/benchmarks/validate_agreement.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/validate_agreement.py"
