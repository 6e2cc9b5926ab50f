# Stage 1-2: read every configured source, segment with razdel, filter, deduplicate.


rule corpus:
    input:
        code=stage_code("corpus"),
    output:
        sentences=f"{OUT}/corpus/sentences.parquet",
        stats=report(
            f"{OUT}/corpus/filter_stats.json",
            caption="../report/filter_stats.rst",
            category="1. Corpus",
            labels={"table": "filter statistics"},
        ),
    params:
        sources=config["corpus"]["sources"],
        min_tokens=config["corpus"]["min_tokens"],
        max_tokens=config["corpus"]["max_tokens"],
        max_sentences=config["corpus"]["max_sentences_per_source"],
        max_bad_share=config["corpus"]["max_bad_share"],
        cache_dir=f"{OUT}/downloads",
        seed=WF.seed,
    log:
        f"{OUT}/logs/corpus.log",
    benchmark:
        f"{OUT}/benchmarks/corpus.tsv"
    conda:
        "../envs/corpus.yaml"
    script:
        "../scripts/corpus.py"
