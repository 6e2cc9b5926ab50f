"""Rule `corpus` (rules/corpus.smk): sources -> segmented, filtered, deduplicated sentences."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp.stages import corpus_stage  # noqa: E402

p = snakemake.params
corpus_stage(
    p.sources, snakemake.output.sentences, snakemake.output.stats,
    cache_dir=p.cache_dir, min_tokens=p.min_tokens, max_tokens=p.max_tokens,
    max_sentences=p.max_sentences, seed=p.seed,
)
