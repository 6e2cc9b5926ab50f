"""Corpus stage: sources → segmented, filtered, deduplicated sentences.

Typical use (from a Snakemake rule script)::

    from rublimp.corpus import build_sentences, write_sentences

    df, stats = build_sentences(config["corpus"]["sources"], cache_dir="work/cache", seed=0)
    write_sentences(df, stats, "work/corpus/sentences.parquet", "work/corpus/stats.json")
"""

from .segment import (
    FILTER_NAMES,
    FILTERS,
    SENTENCES_SCHEMA,
    FilterConfig,
    build_sentences,
    check_sentence,
    normalize_for_dedupe,
    split_sentences,
    tokenize_sentence,
    write_sentences,
)
from .sources import (
    DEFAULT_MAX_BAD_SHARE,
    SOURCE_TYPES,
    BadInput,
    Document,
    conllu_sent_id,
    iter_documents,
    read_conllu_source,
    source_key,
    validate_source,
)
from .wikimedia import DownloadError, WikiPage, download, file_sha1, iter_pages, wikitext_to_text

__all__ = [
    "BadInput",
    "DEFAULT_MAX_BAD_SHARE",
    "FILTERS",
    "FILTER_NAMES",
    "SENTENCES_SCHEMA",
    "SOURCE_TYPES",
    "Document",
    "DownloadError",
    "FilterConfig",
    "WikiPage",
    "build_sentences",
    "check_sentence",
    "conllu_sent_id",
    "download",
    "file_sha1",
    "iter_documents",
    "iter_pages",
    "normalize_for_dedupe",
    "read_conllu_source",
    "source_key",
    "split_sentences",
    "tokenize_sentence",
    "validate_source",
    "wikitext_to_text",
    "write_sentences",
]
