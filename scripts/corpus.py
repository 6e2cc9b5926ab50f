"""Rule `corpus` (rules/corpus.smk): sources -> segmented, filtered, deduplicated sentences."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import corpus_stage

    p = snakemake.params
    corpus_stage(
        p.sources, snakemake.output.sentences, snakemake.output.stats,
        cache_dir=p.cache_dir, min_tokens=p.min_tokens, max_tokens=p.max_tokens,
        max_sentences=p.max_sentences, seed=p.seed, max_bad_share=p.max_bad_share,
    )
