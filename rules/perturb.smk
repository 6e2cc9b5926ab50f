# Stage 5: one pool of minimal pairs per paradigm. A perturb job's inputs are exactly what it
# reads: the code it runs (the paradigm's module and every package module imported from there,
# e.g. paradigms/base.py, morph.py), the word lists its class declares (`resources`) and the files
# named by the options it reads; its `options` parameter holds only the options its class
# declares. So an edit reruns exactly the paradigms that read what was edited.


rule perturb:
    input:
        shards=shard_paths(),
        verdicts=f"{OUT}/agreement/verdicts.parquet",
        code=paradigm_code,
        word_lists=paradigm_resources,
        option_files=paradigm_option_files,
    output:
        f"{OUT}/pools/{{paradigm}}.parquet",
    params:
        pool_cap=config["perturb"]["pool_cap"],
        pairs_per_sentence=config["perturb"]["pairs_per_sentence"],
        options=paradigm_options,
        seed=WF.seed,
    log:
        f"{OUT}/logs/perturb/{{paradigm}}.log",
    benchmark:
        f"{OUT}/benchmarks/perturb/{{paradigm}}.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/perturb.py"
