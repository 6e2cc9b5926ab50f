# Stage 4: subject-predicate agreement validation (MultiBLiMP section 4.2).


rule validate_agreement:
    input:
        shards=shard_paths(),
    output:
        parquet=f"{OUT}/agreement/verdicts.parquet",
        csv=f"{OUT}/agreement/verdicts.csv",
    params:
        min_conf=config.get("agreement", {}).get("min_conf", 0.5),
        p0=config.get("agreement", {}).get("p0", 0.9),
        alpha=config.get("agreement", {}).get("alpha", 0.1),
    log:
        f"{OUT}/logs/agreement.log",
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/validate_agreement.py"
