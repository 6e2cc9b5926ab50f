"""The backend-independent scorer interface and the scores table it returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from rublimp.io import InputError
from rublimp.scoring.mink import min_k_prob, minkpp_token_scores

__all__ = ["DEFAULT_KS", "SentenceScores", "Scorer", "unique_sorted", "validate_ks"]

DEFAULT_KS: tuple[int, ...] = (30, 40, 50, 60)


@dataclass(frozen=True)
class SentenceScores:
    """Raw per-token output of a backend for one sentence.

    ``logprobs[t]`` is the natural-log probability of ``tokens[t]`` given the
    prepended first token and ``tokens[:t]``; the first real token is scored.
    ``mu``/``sigma`` are the mean and standard deviation of ``log p(z)`` under
    the model's next-token distribution at each position (only needed for
    Min-K%++; ``None`` when not computed).
    """

    tokens: list[str]
    logprobs: np.ndarray
    mu: np.ndarray | None = None
    sigma: np.ndarray | None = None


def unique_sorted(sentences: Sequence[str]) -> list[str]:
    """Deduplicate and sort sentences lexicographically (by code point).

    Raises ``InputError`` for a non-string or blank item, naming its index.
    """
    if isinstance(sentences, str):
        raise InputError("expected a sequence of sentences, got a single string")
    for i, s in enumerate(sentences):
        if not isinstance(s, str):
            raise InputError(f"sentence #{i} is {type(s).__name__}, not str: {s!r}")
        if not s.strip():
            raise InputError(f"sentence #{i} is empty or whitespace only; nothing to score")
    return sorted(set(sentences))


def validate_ks(ks: Sequence[float]) -> list[int]:
    """Check the Min-K% percentages: integers in ``[1, 100]`` (column names use them), no duplicates."""
    out: list[int] = []
    for k in ks:
        if isinstance(k, bool) or not float(k).is_integer() or not 1 <= k <= 100:
            raise InputError(f"Min-K% percentage must be an integer in [1, 100], got {k!r}")
        out.append(int(k))
    if not out:
        raise InputError("at least one Min-K% percentage is needed (ks is empty)")
    if len(set(out)) != len(out):
        raise InputError(f"duplicate Min-K% percentages in ks={list(ks)!r}")
    return out


class Scorer(ABC):
    """Scores sentences with a causal language model.

    Subclasses implement :meth:`_score_unique`; :meth:`score` takes care of
    deduplication, ordering and the Min-K% columns, so every backend returns
    the same table.
    """

    #: Human-readable name of the model (used in messages and metadata).
    name: str

    @property
    @abstractmethod
    def first_token(self) -> str:
        """Token string prepended to every sentence so that its first token is scored."""

    @abstractmethod
    def _score_unique(
        self, sentences: list[str], *, minkpp: bool, progress: bool
    ) -> list[SentenceScores]:
        """Score distinct sentences; return one :class:`SentenceScores` per input, same order."""

    def score(
        self,
        sentences: Sequence[str],
        *,
        ks: Sequence[int] = DEFAULT_KS,
        per_token: bool = False,
        minkpp: bool = False,
        progress: bool = True,
    ) -> pl.DataFrame:
        """Score sentences; one row per *distinct* sentence, sorted lexicographically.

        Columns: ``sentence`` (str), ``sum_logprob`` (f64, natural log, all
        sentence tokens including the first), ``n_tokens`` (i64), ``mink_<K>``
        for each ``K`` in ``ks`` (f64), ``minkpp_<K>`` when ``minkpp=True``,
        ``first_token`` (str) and, when ``per_token=True``, ``tokens``
        (list[str]) and ``token_logprobs`` (list[f64]).
        """
        k_list = validate_ks(ks)
        uniq = unique_sorted(sentences)
        results = self._score_unique(uniq, minkpp=minkpp, progress=progress) if uniq else []
        if len(results) != len(uniq):
            raise RuntimeError(f"{type(self).__name__} returned {len(results)} results for {len(uniq)} sentences")
        return build_scores_frame(uniq, results, ks=k_list, first_token=self.first_token,
                                  per_token=per_token, minkpp=minkpp)


def build_scores_frame(
    sentences: list[str],
    results: list[SentenceScores],
    *,
    ks: list[int],
    first_token: str,
    per_token: bool,
    minkpp: bool,
) -> pl.DataFrame:
    """Assemble the scores table from per-sentence backend output (row order kept)."""
    cols: dict[str, list] = {"sentence": sentences, "sum_logprob": [], "n_tokens": []}
    for k in ks:
        cols[f"mink_{k}"] = []
    if minkpp:
        for k in ks:
            cols[f"minkpp_{k}"] = []
    for sent, res in zip(sentences, results):
        lp = np.asarray(res.logprobs, dtype=np.float64)
        if lp.size == 0:
            raise InputError(f"sentence tokenised to zero tokens, nothing to score: {sent!r}")
        cols["sum_logprob"].append(float(lp.sum()))
        cols["n_tokens"].append(int(lp.size))
        for k in ks:
            cols[f"mink_{k}"].append(min_k_prob(lp, k))
        if minkpp:
            if res.mu is None or res.sigma is None:
                raise RuntimeError("minkpp=True but the backend returned no distribution moments")
            z = minkpp_token_scores(lp, res.mu, res.sigma)
            for k in ks:
                cols[f"minkpp_{k}"].append(min_k_prob(z, k))
    schema: dict[str, pl.DataType] = {"sentence": pl.String, "sum_logprob": pl.Float64, "n_tokens": pl.Int64}
    schema |= {name: pl.Float64 for name in cols if name.startswith("mink")}
    df = pl.DataFrame(cols, schema=schema)
    df = df.with_columns(pl.lit(first_token, dtype=pl.String).alias("first_token"))
    if per_token:
        df = df.with_columns(
            pl.Series("tokens", [r.tokens for r in results], dtype=pl.List(pl.String)),
            pl.Series("token_logprobs", [np.asarray(r.logprobs, dtype=np.float64).tolist() for r in results],
                      dtype=pl.List(pl.Float64)),
        )
    return df
