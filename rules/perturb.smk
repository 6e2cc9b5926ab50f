# Stage 5: one pool of minimal pairs per paradigm. The paradigm's own module is an
# input, so editing one paradigm's rule reruns that paradigm (and what follows) only.


rule perturb:
    input:
        shards=shard_paths(),
        verdicts=f"{OUT}/agreement/verdicts.parquet",
        code=paradigm_code,
    output:
        f"{OUT}/pools/{{paradigm}}.parquet",
    params:
        pool_cap=config.get("perturb", {}).get("pool_cap", 350000),
        pairs_per_sentence=config.get("perturb", {}).get("pairs_per_sentence", 1),
        options=config.get("perturb", {}).get("options", {}),
        seed=WF.seed,
    log:
        f"{OUT}/logs/perturb/{{paradigm}}.log",
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/perturb.py"
