# Stage 3: UD parsing into CoNLL-U shards (slovnet on CPU by default, stanza on GPU).


rule parse:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        code=WF.parse_code(),
    output:
        f"{OUT}/parsed/shard_{{shard}}.conllu",
    params:
        backend=config["parse"]["backend"],
        n_shards=WF.n_shards,
        batch_size=config["parse"]["batch_size"],
        stanza=config["parse"]["stanza"],
        sources=config["corpus"]["sources"],
        max_chars=config["parse"]["max_chars"],
        max_tokens=config["parse"]["max_tokens"],
    resources:
        # one GPU only for stanza with use_gpu (SLURM: --gpus, partition chosen by the profile)
        gpu=WF.parse_gpus,
    log:
        f"{OUT}/logs/parse/shard_{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/parse/shard_{{shard}}.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/parse.py"
