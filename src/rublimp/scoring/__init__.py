"""Scoring stage: sentence log-probabilities and Min-K% / Min-K%++ detection scores.

>>> from rublimp.scoring import make_scorer
>>> scorer = make_scorer("hf", "path/to/model", batch_tokens=2048)   # doctest: +SKIP
>>> df = scorer.score(sentences, ks=(30, 60))                       # doctest: +SKIP

The heavy backend (``torch``/``transformers``) is imported lazily, so importing
this package for :func:`min_k_prob` or :func:`mink_auroc` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rublimp.io import InputError
from rublimp.scoring.base import DEFAULT_KS, Scorer, SentenceScores
from rublimp.scoring.mink import (
    distribution_moments,
    min_k_plus_plus,
    min_k_prob,
    minkpp_token_scores,
    mink_auroc,
    n_lowest,
)

if TYPE_CHECKING:  # pragma: no cover
    from rublimp.scoring.hf import HFCausalScorer

__all__ = [
    "BACKENDS",
    "DEFAULT_KS",
    "HFCausalScorer",
    "Scorer",
    "SentenceScores",
    "check_model_loadable",
    "distribution_moments",
    "make_scorer",
    "min_k_plus_plus",
    "min_k_prob",
    "mink_auroc",
    "minkpp_token_scores",
    "n_lowest",
]

#: Backend names accepted by :func:`make_scorer`.
BACKENDS: tuple[str, ...] = ("hf",)


def make_scorer(backend: str, model_name_or_path: str, **kwargs: Any) -> Scorer:
    """Build a scorer for ``model_name_or_path`` with the named backend (``"hf"``).

    Keyword arguments go to the backend's constructor (for ``"hf"``: see
    :class:`HFCausalScorer`).  An unknown backend raises :class:`InputError`.
    """
    if backend == "hf":
        from rublimp.scoring.hf import HFCausalScorer

        return HFCausalScorer(model_name_or_path, **kwargs)
    raise InputError(
        f"unknown scoring backend {backend!r} for model {model_name_or_path!r}; expected one of {BACKENDS}"
    )


def check_model_loadable(name_or_path: str, **kwargs: Any) -> None:
    """Cheap pre-flight check that a model can be loaded (see :func:`rublimp.scoring.hf.check_model_loadable`)."""
    from rublimp.scoring.hf import check_model_loadable as _check

    _check(name_or_path, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "HFCausalScorer":
        from rublimp.scoring.hf import HFCausalScorer

        return HFCausalScorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
