"""The corpus stage's build in bounded memory: sources -> filtered, deduplicated sentence table on disk.

:func:`build_sentences_file` gives the table and stats that :func:`rublimp.corpus.build_sentences`
describes (that function is a wrapper reading the file back), in three passes over a spill
folder, so that no per-sentence Python object or text outlives its batch:

1. Each source is read, segmented and filtered (CoNLL-U sources first, then config order); the
   survivors of the filters go to Parquet batches of :data:`BATCH_ROWS` rows, with their position
   in that reading order, and each one's 16-byte dedupe digest (with the position) is appended to
   one of :data:`N_BUCKETS` binary bucket files chosen by the digest's first byte.
2. Each bucket file is read on its own and sorted by (digest, position): every row after the first
   of its digest is a duplicate, marked in a bit array over positions (one bit per sentence read:
   125 KB per million sentences, the only state that grows with the corpus besides the buckets,
   which are on disk and read one at a time).
3. Each source's batches are read again in order: duplicates are counted and dropped, the
   survivors counted per domain, and, with ``max_sentences_per_source``, the same reservoir sample
   as a one-pass Algorithm R is drawn over the survivors' ordinals (the ordinals are held, at most
   the cap of them, and the rows fetched by a last read). The kept rows of every source are then
   streamed into the output table in config order.

The kept rows and every count are those of a single pass holding a set of digests; only the
Parquet row-group layout of the output differs from one written from a DataFrame.
"""

from __future__ import annotations

import hashlib
import logging
import os
import random
import shutil
import tempfile
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
import polars as pl

from rublimp.io import ROW_GROUP_ROWS, InputError, atomic_path, find_control_char

from rublimp.runtime import progress

from .dedupe import DigestBuckets
from .segment import (
    FILTER_NAMES,
    SENTENCES_SCHEMA,
    FilterConfig,
    evaluate_sentence,
    normalize_for_dedupe,
    split_sentences,
    tokenize_sentence,
)
from .sources import (
    DEFAULT_MAX_BAD_SHARE,
    BadInput,
    Document,
    conllu_sent_id,
    iter_documents,
    read_conllu_source,
    source_key,
    validate_source,
)

log = logging.getLogger("rublimp")

__all__ = ["build_sentences_file", "BATCH_ROWS", "N_BUCKETS"]

#: Rows per spilled batch (the rows held as Python objects at once).
BATCH_ROWS = 50_000
#: Dedupe bucket files (one is in memory at a time: 24 bytes per sentence / N_BUCKETS).
N_BUCKETS = 256

#: How many dropped sentences with control characters are logged (with file:line) per source.
_LOG_FIRST = 5

_SPILL_SCHEMA = {"_pos": pl.Int64, "sent_id": pl.String, "text": pl.String, "domain": pl.String, "n_tokens": pl.Int32}


def _digest(text: str) -> bytes:
    # 16-byte digests keep the "seen" set small on multi-million-sentence corpora.
    return hashlib.blake2b(normalize_for_dedupe(text).encode("utf-8"), digest_size=16).digest()


def _counters() -> dict[str, Any]:
    return {
        "documents": 0,
        "sentences_seen": 0,
        "dropped": {name: 0 for name in FILTER_NAMES},
        "duplicates": 0,
        "sampled_out": 0,
        "kept": 0,
    }


class _Stats:
    """Counters per source, per domain and in total."""

    def __init__(self) -> None:
        self.sources: dict[str, dict[str, Any]] = {}
        self.domains: dict[str, dict[str, Any]] = {}
        self.total = _counters()

    def _targets(self, source: str, domain: str) -> list[dict[str, Any]]:
        return [self.sources[source], self.domains.setdefault(domain, _counters()), self.total]

    def add(self, source: str, domain: str, field: str, n: int = 1) -> None:
        for counters in self._targets(source, domain):
            counters[field] += n

    def drop(self, source: str, domain: str, reason: str) -> None:
        for counters in self._targets(source, domain):
            counters["dropped"][reason] += 1


# (sent_id, text, domain, apply_filters, where: the document's id, "file:line" for files)
_Item = tuple[str, str, str, bool, str]


def _source_items(
    src: Mapping[str, Any], key: str, cache_dir: Path, stats: _Stats, bad: BadInput
) -> Iterator[_Item]:
    """The candidate sentences of one source, counting its documents on the way."""
    name = src["name"]
    if src["type"] == "conllu":
        path = Path(src["path"]).expanduser()
        if not path.exists():
            raise InputError(f"CoNLL-U file not found (config key {key}.path)", path)
        for sent_id, text, domain in read_conllu_source(path, domain=src["domain"], bad=bad):
            yield conllu_sent_id(name, sent_id), text, domain, False, sent_id
        return
    docs: Iterator[Document] = iter_documents(src, cache_dir=cache_dir, key=key, bad=bad)
    for doc_index, doc in enumerate(progress(docs, desc=f"corpus:{name}", unit="doc")):
        stats.add(name, doc.domain, "documents")
        for sent_index, sentence in enumerate(split_sentences(doc.text)):
            yield f"{name}-{doc_index}-{sent_index}", sentence, doc.domain, True, doc.doc_id


class _Bits:
    """A growable bit array over positions."""

    def __init__(self) -> None:
        self.bits = np.zeros(1 << 14, dtype=np.uint8)

    def set(self, positions: np.ndarray) -> None:
        if not len(positions):
            return
        need = int(positions.max()) // 8 + 1
        if need > len(self.bits):
            self.bits = np.concatenate([self.bits, np.zeros(max(need, 2 * len(self.bits)) - len(self.bits), np.uint8)])
        np.bitwise_or.at(self.bits, positions // 8, (1 << (positions % 8)).astype(np.uint8))

    def get(self, positions: np.ndarray) -> np.ndarray:
        idx = positions // 8
        out = np.zeros(len(positions), dtype=bool)
        inside = idx < len(self.bits)
        out[inside] = (self.bits[idx[inside]] >> (positions[inside] % 8).astype(np.uint8)) & 1 == 1
        return out


def _check_settings(sources, max_sentences_per_source, cfg: FilterConfig, max_bad_share) -> list[tuple[str, dict]]:
    cfg.validate()
    BadInput("corpus", max_bad_share)  # validates the share (corpus.max_bad_share)
    if max_sentences_per_source is not None and (
        isinstance(max_sentences_per_source, bool)
        or not isinstance(max_sentences_per_source, int)
        or max_sentences_per_source < 1
    ):
        raise InputError(f"corpus.max_sentences_per_source: must be a positive integer, got {max_sentences_per_source!r}")
    if not sources:
        raise InputError("corpus.sources: no sources configured")
    checked: list[tuple[str, dict[str, Any]]] = []
    names: dict[str, str] = {}
    for index, source in enumerate(sources):
        key = source_key(source if isinstance(source, Mapping) else {}, index)
        src = validate_source(source, key)
        if src["name"] in names:
            raise InputError(f"{key}.name: duplicate source name (also used by {names[src['name']]})")
        names[src["name"]] = key
        checked.append((key, src))
    return checked


def _read_source(src, key, cache_dir: Path, cfg: FilterConfig, stats: _Stats, bad: BadInput, controls: list[str],
                 buckets: DigestBuckets, spill: Path, start: int) -> int:
    """Pass 1 for one source: filter, spill the survivors, bucket their digests. Returns the next position."""
    name = src["name"]
    rows: list[tuple[int, str, str, str, int]] = []
    n_batches = 0

    def flush() -> None:
        nonlocal n_batches
        if rows:
            pl.DataFrame(rows, schema=_SPILL_SCHEMA, orient="row").write_parquet(spill / f"{n_batches:06d}.parquet")
            n_batches += 1
            rows.clear()

    spill.mkdir(parents=True, exist_ok=True)
    pos = start
    for sent_id, sentence, domain, apply_filters, where in _source_items(src, key, cache_dir, stats, bad):
        pos += 1
        stats.add(name, domain, "sentences_seen")
        if apply_filters:
            reason, n_tokens = evaluate_sentence(sentence, cfg)
            if reason is not None:
                stats.drop(name, domain, reason)
                if reason == "control_chars" and len(controls) < _LOG_FIRST:
                    controls.append(f"{where} (sentence {sent_id}: {find_control_char(sentence)})")
                continue
        else:
            n_tokens = len(tokenize_sentence(sentence))
        buckets.add(_digest(sentence), pos)
        rows.append((pos, sent_id, sentence, domain, n_tokens))
        if len(rows) >= BATCH_ROWS:
            flush()
    flush()
    return pos


def _batches(spill: Path):
    for p in sorted(spill.glob("*.parquet")):
        yield pl.read_parquet(p)


def _keep_source(src, spill: Path, dups: _Bits, stats: _Stats, cap: int | None, seed: int, out_dir: Path) -> int:
    """Pass 3 for one source: drop duplicates, sample, write the kept rows. Returns how many were kept."""
    name = src["name"]
    rng = random.Random(f"{seed}:{name}")  # str seeds are hashed deterministically (sha512)
    survivors: Counter[str] = Counter()
    reservoir: list[int] = []  # survivor ordinals (Algorithm R over the survivors, as in one pass)
    n_survivors = 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for b, df in enumerate(_batches(spill)):
        is_dup = dups.get(df["_pos"].to_numpy())
        for domain, n in Counter(df.filter(pl.Series(is_dup))["domain"].to_list()).items():
            stats.add(name, domain, "duplicates", n)
        kept = df.filter(pl.Series(~is_dup))
        for domain, n in Counter(kept["domain"].to_list()).items():
            stats.add(name, domain, "kept", n)
            survivors[domain] += n
        if cap is None:
            kept.drop("_pos").with_columns(pl.lit(name).alias("source")).select(list(SENTENCES_SCHEMA)) \
                .write_parquet(out_dir / f"{b:06d}.parquet")
        else:
            for i in range(n_survivors, n_survivors + kept.height):
                if len(reservoir) < cap:
                    reservoir.append(i)
                else:
                    slot = rng.randrange(i + 1)
                    if slot < cap:
                        reservoir[slot] = i
        n_survivors += kept.height
    if cap is not None:
        wanted = np.array(sorted(reservoir), dtype=np.int64)
        seen = 0
        final: Counter[str] = Counter()
        for b, df in enumerate(_batches(spill)):
            kept = df.filter(pl.Series(~dups.get(df["_pos"].to_numpy())))
            local = wanted[(wanted >= seen) & (wanted < seen + kept.height)] - seen
            seen += kept.height
            if len(local):
                part = kept[local.tolist()]
                final.update(part["domain"].to_list())
                part.drop("_pos").with_columns(pl.lit(name).alias("source")).select(list(SENTENCES_SCHEMA)) \
                    .write_parquet(out_dir / f"{b:06d}.parquet")
        if n_survivors > cap:
            for domain, n in sorted(survivors.items()):
                removed = n - final.get(domain, 0)
                if removed:
                    stats.add(name, domain, "sampled_out", removed)
                    stats.add(name, domain, "kept", -removed)
    return stats.sources[name]["kept"]


def build_sentences_file(
    sources: Sequence[Mapping[str, Any]],
    out_parquet: str | os.PathLike,
    *,
    cache_dir: str | os.PathLike,
    min_tokens: int = 6,
    max_tokens: int = 50,
    max_sentences_per_source: int | None = None,
    seed: int = 0,
    min_cyrillic_share: float = 0.5,
    max_nonword_share: float = 0.5,
    max_bad_share: float = DEFAULT_MAX_BAD_SHARE,
    spill_dir: str | os.PathLike | None = None,
) -> dict[str, Any]:
    """Write the sentence table of :func:`rublimp.corpus.build_sentences` to ``out_parquet``
    (atomically) and return its stats; the same contract, in bounded memory (module docstring).

    ``spill_dir``: where the temporary spill folder goes (default: next to ``out_parquet``); it is
    removed at the end.
    """
    cfg = FilterConfig(min_tokens, max_tokens, min_cyrillic_share, max_nonword_share)
    checked = _check_settings(sources, max_sentences_per_source, cfg, max_bad_share)
    stats = _Stats()
    for _, src in checked:  # stats keys in config order
        stats.sources[src["name"]] = _counters()
    out_parquet = Path(out_parquet)
    parent = Path(spill_dir) if spill_dir is not None else out_parquet.parent
    parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".corpus_spill_", dir=parent))
    try:
        buckets = DigestBuckets(work / "buckets", n_buckets=N_BUCKETS, flush_at=BATCH_ROWS)
        inputs: dict[str, dict[str, Any]] = {}
        order = sorted(range(len(checked)), key=lambda i: checked[i][1]["type"] != "conllu")
        pos = -1
        # pass 1: CoNLL-U sources first, so that they win every duplicate
        for i in order:
            key, src = checked[i]
            bad = BadInput(key, max_bad_share)
            controls: list[str] = []
            pos = _read_source(src, key, Path(cache_dir), cfg, stats, bad, controls, buckets, work / f"in_{i}", pos)
            bad.check()
            counts = stats.sources[src["name"]]
            if bad.bad:
                log.warning("corpus: %s: skipped %d of %d %s as unreadable (first: %s)",
                            key, bad.bad, bad.read, bad.unit, "; ".join(bad.first))
            if counts["dropped"]["control_chars"]:
                log.warning("corpus: %s: dropped %d sentence(s) with control characters (first at %s)",
                            key, counts["dropped"]["control_chars"], "; ".join(controls))
            inputs[src["name"]] = {**bad.as_dict(), "control_chars_first": controls}
        # pass 2: duplicates, one bucket at a time
        dups = _Bits()
        n_dups = 0
        for _, later in buckets.duplicates():
            dups.set(later)
            n_dups += len(later)
        buckets.close()
        # pass 3: counts, sampling and the kept rows, source by source
        for i in order:
            key, src = checked[i]
            kept = _keep_source(src, work / f"in_{i}", dups, stats, max_sentences_per_source, seed, work / f"out_{i}")
            if kept == 0:
                counts = stats.sources[src["name"]]
                dropped = {k: v for k, v in counts["dropped"].items() if v}
                raise InputError(
                    f"{key}: no sentences survived (documents: {counts['documents']}, sentences seen: "
                    f"{counts['sentences_seen']}, dropped: {dropped or 'none'}, duplicates: {counts['duplicates']})"
                )
            shutil.rmtree(work / f"in_{i}")
        parts = [p for i in range(len(checked)) for p in sorted((work / f"out_{i}").glob("*.parquet"))]
        with atomic_path(out_parquet) as tmp:
            pl.scan_parquet(parts, schema=SENTENCES_SCHEMA).sink_parquet(
                tmp, compression="zstd", statistics=False, row_group_size=ROW_GROUP_ROWS)
        log.info("corpus: %d duplicate(s) found over %d dedupe buckets", n_dups, N_BUCKETS)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "settings": {
            **asdict(cfg),
            "max_sentences_per_source": max_sentences_per_source,
            "seed": seed,
            "max_bad_share": max_bad_share,
        },
        "total": stats.total,
        "sources": stats.sources,
        "domains": dict(sorted(stats.domains.items())),
        "input": {src["name"]: inputs[src["name"]] for _, src in checked},
    }
