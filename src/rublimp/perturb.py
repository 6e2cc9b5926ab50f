"""The perturb stage: run paradigms over parsed sentences and build the pair pools."""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Iterable, Sequence

import polars as pl

from .conllu_doc import Sentence, read_conllu
from .io import write_parquet_atomic
from .paradigms.base import Paradigm, ParadigmContext, get_paradigm, paradigm_names

__all__ = ["POOL_SCHEMA", "pair_rows", "build_pools", "perturb_files", "resolve_paradigms", "ipm"]

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


def _word_ipm(word: str) -> float:
    return _frequencies().get(word, 0.0) * 1e6


def ipm(sent: Sentence) -> float:
    """Mean frequency per million (wordfreq, Russian) of the sentence's word tokens."""
    vals = [_word_ipm(t.form.lower()) for t in sent.tokens if t.upos != "PUNCT" and any(c.isalpha() for c in t.form)]
    return round(sum(vals) / len(vals), 4) if vals else 0.0


def _stable_key(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()


def pair_rows(paradigm: Paradigm, sent: Sentence, *, pairs_per_sentence: int = 1, seed: int = 0) -> list[dict]:
    """Pool rows for one sentence (at most ``pairs_per_sentence``, chosen deterministically)."""
    found = list(paradigm.pairs(sent))
    if not found:
        return []
    if pairs_per_sentence and len(found) > pairs_per_sentence:
        order = sorted(range(len(found)), key=lambda i: _stable_key(seed, paradigm.name, sent.sent_id, i))
        found = [found[i] for i in sorted(order[:pairs_per_sentence])]
    n_words = sum(1 for t in sent.tokens if t.upos != "PUNCT")
    rows = []
    depth = sent.depth()
    freq = ipm(sent)
    for k, (bad, pert) in enumerate(found):
        src_word = pert.source_word if pert.source_word is not None else " ".join(sent.token(e.token_id).form for e in pert.edits)
        tgt_word = pert.target_word if pert.target_word is not None else " ".join(e.new_form for e in pert.edits if e.new_form)
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
    """Run the named paradigms over the sentences; returns one pool DataFrame per paradigm."""
    ctx = ctx or ParadigmContext(seed=seed)
    paradigms = [get_paradigm(n, ctx) for n in names]
    rows: dict[str, list[dict]] = {p.name: [] for p in paradigms}
    it: Iterable[Sentence] = sentences
    if progress:
        from .runtime import progress as progress_bar

        it = progress_bar(it, desc="perturb", unit="sent")
    for sent in it:
        for p in paradigms:
            rows[p.name].extend(pair_rows(p, sent, pairs_per_sentence=pairs_per_sentence, seed=seed))
    pools = {}
    for name, rs in rows.items():
        df = pl.DataFrame(rs, schema=POOL_SCHEMA) if rs else pl.DataFrame(schema=POOL_SCHEMA)
        if cap and df.height > cap:
            df = (
                df.with_columns(pl.col("id").map_elements(lambda x: _stable_key(seed, x), return_dtype=pl.String).alias("_k"))
                .sort("_k")
                .head(cap)
                .drop("_k")
            )
        pools[name] = df.sort("id")
    return pools


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
