# Stage 1-2: read every configured source, segment with razdel, filter, deduplicate.


rule corpus:
    output:
        sentences=f"{OUT}/corpus/sentences.parquet",
        stats=f"{OUT}/corpus/filter_stats.json",
    params:
        sources=config["corpus"]["sources"],
        min_tokens=config["corpus"].get("min_tokens", 6),
        max_tokens=config["corpus"].get("max_tokens", 50),
        max_sentences=config["corpus"].get("max_sentences_per_source"),
        cache_dir=f"{OUT}/downloads",
        seed=WF.seed,
    log:
        f"{OUT}/logs/corpus.log",
    conda:
        "../envs/corpus.yaml"
    script:
        "../scripts/corpus.py"
