"""The perturb stage: run paradigms over parsed sentences and build the pair pools."""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import sys
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import polars as pl

from .conllu_doc import Sentence, read_conllu
from .io import write_parquet_atomic
from .paradigms.base import Paradigm, ParadigmContext, get_paradigm, paradigm_names, written_form
from .trees.normalise import normalise

__all__ = ["POOL_SCHEMA", "pair_rows", "build_pools", "pool_batches", "cap_pool", "sample_key", "perturb_files", "resolve_paradigms", "ipm"]

POOL_SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String,
    "source_sentence": pl.String,
    "target_sentence": pl.String,
    "source_word": pl.String,
    "target_word": pl.String,
    "level": pl.String,
    "phenomenon": pl.String,
    "PID": pl.String,
    "subtype": pl.String,
    "domain": pl.String,
    "tree_depth": pl.Int64,
    "sent_id": pl.String,
    "feature": pl.String,
    "source_value": pl.String,
    "target_value": pl.String,
    "n_tokens": pl.Int64,
    "ipm": pl.Float64,
}


@functools.lru_cache(maxsize=1)
def _frequencies() -> dict[str, float]:
    # one dictionary load (about a second) instead of wordfreq.word_frequency per word,
    # which re-tokenises every lookup (measured: 15% of an agreement paradigm's job)
    from wordfreq import get_frequency_dict

    return get_frequency_dict("ru", wordlist="best")


def _frequencies_of(words: set[str]) -> dict[str, float]:
    """wordfreq's frequency of each of ``words`` that it lists (the values of :func:`_frequencies`).

    A perturb job needs a few thousand words: picking them out of wordfreq's buckets costs a
    tenth of building the 700,000-word dictionary (measured: 0.03 s against 0.3 s a job).
    """
    wf = sys.modules.get("wordfreq")
    if _frequencies.cache_info().currsize or (wf is not None and wf.get_frequency_dict.cache_info().currsize):
        # the whole dictionary is loaded already (ipm() was called, or lexicon.zipf loaded it)
        full = _frequencies() if _frequencies.cache_info().currsize else wf.get_frequency_dict("ru", "best")
        return {w: full[w] for w in words if w in full}
    out: dict[str, float] = {}
    # bucket i holds the words of frequency 10 ** (-i / 100) (wordfreq.cB_to_freq(-i)); a word
    # in two buckets gets the later one, as in wordfreq.get_frequency_dict
    for index, bucket in enumerate(_frequency_buckets()):
        hits = words.intersection(bucket)
        if hits:
            freq = 10 ** (-index / 100)
            for w in hits:
                out[w] = freq
    return out


def _frequency_buckets() -> list[list[str]]:
    """``wordfreq.get_frequency_list("ru", "best")``, read without importing wordfreq where possible.

    Importing wordfreq (langcodes, ftfy, its tokenisers) costs more than reading the list itself
    (measured: 0.27 s against 0.17 s, in every perturb job). Its "best" Russian list is the
    ``large`` one, else the ``small`` one, a gzipped msgpack list after a {"format": "cB",
    "version": 1} header; anything else falls back to wordfreq itself (tests/test_perturb_ipm.py
    checks both give the same list).
    """
    import importlib.util

    spec = importlib.util.find_spec("wordfreq")
    if spec is not None and spec.submodule_search_locations:
        data_dir = Path(list(spec.submodule_search_locations)[0]) / "data"
        for name in ("large_ru.msgpack.gz", "small_ru.msgpack.gz"):
            path = data_dir / name
            if path.is_file():
                import gzip

                import msgpack

                with gzip.open(path, "rb") as fh:
                    data = msgpack.load(fh, raw=False)
                header = data[0] if data else None
                if isinstance(header, dict) and header.get("format") == "cB" and header.get("version") == 1:
                    return data[1:]
                break
    from wordfreq import get_frequency_list

    return get_frequency_list("ru", "best")


def _ipm_words(sent: Sentence) -> list[str]:
    return [t.form.lower() for t in sent.tokens if t.upos != "PUNCT" and any(c.isalpha() for c in t.form)]


def _mean_ipm(words: list[str], freqs: dict[str, float]) -> float:
    vals = [freqs.get(w, 0.0) * 1e6 for w in words]
    return round(sum(vals) / len(vals), 4) if vals else 0.0


def ipm(sent: Sentence) -> float:
    """Mean frequency per million (wordfreq, Russian) of the sentence's word tokens."""
    return _mean_ipm(_ipm_words(sent), _frequencies())


def _stable_key(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()


def pair_rows(paradigm: Paradigm, sent: Sentence, *, pairs_per_sentence: int = 1, seed: int = 0) -> list[dict]:
    """Pool rows for one sentence (at most ``pairs_per_sentence``, chosen deterministically)."""
    return _pair_rows(paradigm, sent, pairs_per_sentence, seed, ipm)


def _pair_rows(paradigm: Paradigm, sent: Sentence, pairs_per_sentence: int, seed: int, sent_ipm) -> list[dict]:
    # pair_rows with the "ipm" value computed by ``sent_ipm(sent)``, or left None when it is None
    sent = normalise(sent, paradigm.morph, paradigm.ctx.resources_dir)  # the tree every paradigm reads (tree_depth included)
    found = list(paradigm.pairs(sent))
    if not found:
        return []
    if pairs_per_sentence and len(found) > pairs_per_sentence:
        order = sorted(range(len(found)), key=lambda i: _stable_key(seed, paradigm.name, sent.sent_id, i))
        found = [found[i] for i in sorted(order[:pairs_per_sentence])]
    n_words = sum(1 for t in sent.tokens if t.upos != "PUNCT")
    rows = []
    depth = sent.depth()
    freq = sent_ipm(sent) if sent_ipm is not None else None
    for k, (bad, pert) in enumerate(found):
        src_word = pert.source_word if pert.source_word is not None else " ".join(sent.token(e.token_id).form for e in pert.edits)
        tgt_word = (pert.target_word if pert.target_word is not None
                    else " ".join(written_form(sent, e) for e in pert.edits if e.new_form))
        rows.append(
            {
                "id": f"{paradigm.name}:{sent.sent_id}:{k}",
                "source_sentence": sent.text,
                "target_sentence": bad,
                "source_word": src_word,
                "target_word": tgt_word,
                "level": paradigm.level,
                "phenomenon": paradigm.phenomenon,
                "PID": paradigm.name,
                "subtype": pert.subtype,
                "domain": sent.domain,
                "tree_depth": depth,
                "sent_id": sent.sent_id,
                "feature": pert.feature,
                "source_value": pert.source_value,
                "target_value": pert.target_value,
                "n_tokens": n_words,
                "ipm": freq,
            }
        )
    return rows


def resolve_paradigms(names: Sequence[str] | str, *, config_key: str = "paradigms") -> list[str]:
    """Expand ``"all"`` and validate names (unknown names raise InputError naming the key)."""
    if isinstance(names, str):
        names = [names]
    known = paradigm_names()
    if list(names) == ["all"] or "all" in names:
        return known
    for i, n in enumerate(names):
        get_paradigm(n, config_key=f"{config_key}[{i}]")
    return list(names)


#: Sentences between two gc.freeze() calls in build_pools (rows and caches grow along the pass).
_FREEZE_EVERY = 2000
#: Allocations between two young-generation collections during the pass (Python's default: 700).
_YOUNG_GC_THRESHOLD = 10_000


@contextlib.contextmanager
def _fewer_young_collections():
    # The pass allocates millions of short-lived objects (parses, candidate lists, rows), nearly
    # all freed by reference counting; at the default threshold the collector still ran 690
    # young and 4 full collections in an np_agreement_case job, 0.31 s of its 2.8 s (measured
    # with gc.callbacks), against 0.14 s with this threshold. Restored afterwards.
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], _YOUNG_GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def build_pools(
    sentences: Iterable[Sentence],
    names: Sequence[str],
    *,
    ctx: ParadigmContext | None = None,
    cap: int = 350_000,
    seed: int = 0,
    pairs_per_sentence: int = 1,
    progress: bool = True,
) -> dict[str, pl.DataFrame]:
    """Run the named paradigms over the sentences; returns one pool DataFrame per paradigm.

    A pool over ``cap`` rows keeps the ``cap`` rows of smallest :func:`sample_key` (a seeded
    hash of the row id), so a capped pool is a uniform sample of the corpus whatever its order.
    """
    batches = list(pool_batches(sentences, names, ctx=ctx, seed=seed, pairs_per_sentence=pairs_per_sentence,
                                progress=progress, batch_size=0))
    return {name: cap_pool(batches[0][name] if batches else pl.DataFrame(schema=POOL_SCHEMA), cap, seed)
            for name in names}


def sample_key(ids: Iterable[str], seed: int) -> pl.Series:
    """The sampling key of pool rows (hex SHA-1 of the seed and the row id): a capped pool keeps
    the rows of smallest key, a seeded uniform sample independent of corpus order and sharding."""
    return pl.Series("_k", [_stable_key(seed, x) for x in ids], dtype=pl.String)


def cap_pool(df: pl.DataFrame, cap: int, seed: int, *, keep_key: bool = False) -> pl.DataFrame:
    """``df`` cut to the ``cap`` rows of smallest :func:`sample_key` (``cap`` 0: no cut), sorted by id.

    ``keep_key`` keeps the key as column ``_k`` (partial pools, merged by rublimp.pools).
    """
    if keep_key or (cap and df.height > cap):
        df = df.with_columns(sample_key(df["id"], seed))
        if cap and df.height > cap:
            df = df.sort("_k").head(cap)
        if not keep_key:
            df = df.drop("_k")
    return df.sort("id")


def pool_batches(
    sentences: Iterable[Sentence],
    names: Sequence[str],
    *,
    ctx: ParadigmContext | None = None,
    seed: int = 0,
    pairs_per_sentence: int = 1,
    progress: bool = True,
    batch_size: int = 20_000,
) -> Iterator[dict[str, pl.DataFrame]]:
    """Every paradigm's rows (uncapped, in corpus order) of each batch of ``batch_size`` sentences.

    The paradigms are built once and each sentence is read once for all of them; only one batch's
    rows are held as Python objects (``batch_size`` 0: one batch of everything).
    """
    ctx = ctx or ParadigmContext(seed=seed)
    paradigms = [get_paradigm(n, ctx) for n in names]
    # The word lists, lexicons and dictionaries just loaded live until the end: move them out of
    # the collector's sight, or every full collection walks them again (measured in a pass over
    # all 45 paradigms: 0.12 s per full collection at the start, 0.51 s by the 38th paradigm).
    gc.collect()
    gc.freeze()
    it: Iterable[Sentence] = sentences
    if progress:
        from .runtime import progress as progress_bar

        it = progress_bar(it, desc="perturb", unit="sent")
    try:
        rows: dict[str, list[dict]] = {p.name: [] for p in paradigms}
        # the "ipm" of rows is filled in per batch, from the frequencies of just the words needed
        needs_ipm: list[tuple[list[dict], list[str]]] = []
        n_batch = 0
        with _fewer_young_collections():
            for i, sent in enumerate(it, start=1):
                sent = normalise(sent, ctx.morph, ctx.resources_dir)  # once, for the source check and every paradigm
                if ctx.source_check and _source_rejected(sent, ctx):
                    continue
                sent_rows: list[dict] = []
                for p in paradigms:
                    rs = _pair_rows(p, sent, pairs_per_sentence, seed, None)
                    rows[p.name].extend(rs)
                    sent_rows.extend(rs)
                if sent_rows:
                    needs_ipm.append((sent_rows, _ipm_words(sent)))
                n_batch += 1
                if batch_size and n_batch >= batch_size:
                    yield _batch_frames(rows, needs_ipm)
                    rows, needs_ipm, n_batch = {p.name: [] for p in paradigms}, [], 0
                elif i % _FREEZE_EVERY == 0:
                    gc.freeze()  # the rows and memoised lookups so far stay to the end of the batch as well
        if n_batch or not batch_size:
            yield _batch_frames(rows, needs_ipm)
    finally:
        gc.unfreeze()


def _batch_frames(rows: dict[str, list[dict]], needs_ipm: list[tuple[list[dict], list[str]]]) -> dict[str, pl.DataFrame]:
    if needs_ipm:
        freqs = _frequencies_of({w for _, words in needs_ipm for w in words})
        for sent_rows, words in needs_ipm:
            value = _mean_ipm(words, freqs)
            for r in sent_rows:
                r["ipm"] = value
    return {name: pl.DataFrame(rs, schema=POOL_SCHEMA) if rs else pl.DataFrame(schema=POOL_SCHEMA)
            for name, rs in rows.items()}


def _source_rejected(sent: Sentence, ctx: ParadigmContext) -> bool:
    """The source self-check (:func:`rublimp.paradigms.selfcheck.source_problem`), counted in
    ``ctx.self_check_stats``: a sentence that breaks its own agreement gives no pairs."""
    from .paradigms.selfcheck import source_problem

    reason = source_problem(sent, ctx.morph, ctx.agreement)
    if reason is None:
        return False
    ctx.self_check_stats.reject_source(reason, sent.sent_id, sent.text)
    return True


def perturb_files(
    conllu_paths: Sequence[str | os.PathLike],
    names: Sequence[str],
    out_paths: Sequence[str | os.PathLike],
    **kwargs,
) -> dict[str, int]:
    """Read CoNLL-U shards, build pools and write one Parquet file per paradigm (atomically)."""
    if len(names) != len(out_paths):
        raise ValueError("one output path per paradigm")

    def sents() -> Iterable[Sentence]:
        for p in conllu_paths:
            yield from read_conllu(p)

    pools = build_pools(sents(), names, **kwargs)
    counts = {}
    for name, out in zip(names, out_paths):
        write_parquet_atomic(pools[name], Path(out))
        counts[name] = pools[name].height
    return counts
