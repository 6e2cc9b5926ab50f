# Stage 3: UD parsing into CoNLL-U shards (slovnet on CPU by default, stanza on GPU).


rule parse:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
    output:
        f"{OUT}/parsed/shard_{{shard}}.conllu",
    params:
        backend=config.get("parse", {}).get("backend", "slovnet"),
        n_shards=WF.n_shards,
        batch_size=config.get("parse", {}).get("batch_size", 64),
        stanza=config.get("parse", {}).get("stanza", {}),
        sources=config["corpus"]["sources"],
        max_chars=config["parse"]["max_chars"],
        max_tokens=config["parse"]["max_tokens"],
    resources:
        gpu=1 if config.get("parse", {}).get("backend") == "stanza" and config.get("parse", {}).get("stanza", {}).get("use_gpu", True) else 0,
    log:
        f"{OUT}/logs/parse/shard_{{shard}}.log",
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/parse.py"
