"""Scoring stage: sentence log-probabilities and Min-K% / Min-K%++ detection scores.

>>> from rublimp.scoring import make_scorer
>>> scorer = make_scorer("hf", "path/to/model", batch_tokens=2048)   # doctest: +SKIP
>>> df = scorer.score(sentences, ks=(30, 60))                       # doctest: +SKIP

The heavy backend (``torch``/``transformers``) is imported lazily, so importing
this package for :func:`min_k_prob` or :func:`mink_auroc` stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rublimp.io import InputError
from rublimp.scoring.base import DEFAULT_KS, Scorer, SentenceScores
from rublimp.scoring.dtypes import resolve_dtype
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
    from rublimp.scoring.mlm import HFMaskedScorer
    from rublimp.scoring.vllm import VLLMScorer

__all__ = [
    "BACKENDS",
    "DEFAULT_KS",
    "HFCausalScorer",
    "HFMaskedScorer",
    "VLLMScorer",
    "Scorer",
    "SentenceScores",
    "check_model_loadable",
    "distribution_moments",
    "make_scorer",
    "scorer_from_spec",
    "min_k_plus_plus",
    "min_k_prob",
    "mink_auroc",
    "minkpp_token_scores",
    "n_lowest",
    "resolve_dtype",
]

#: Backend names accepted by :func:`make_scorer`: ``hf`` (decoder LMs, transformers),
#: ``hf-mlm`` (encoder LMs, pseudo-log-likelihood) and ``vllm`` (decoder LMs, vLLM).
BACKENDS: tuple[str, ...] = ("hf", "hf-mlm", "vllm")


def make_scorer(backend: str, model_name_or_path: str, **kwargs: Any) -> Scorer:
    """Build a scorer for ``model_name_or_path`` with the named backend (one of :data:`BACKENDS`).

    Keyword arguments go to the backend's constructor: :class:`HFCausalScorer`
    (``"hf"``), :class:`HFMaskedScorer` (``"hf-mlm"``) or :class:`VLLMScorer`
    (``"vllm"``; vLLM is imported only then).  An unknown backend raises
    :class:`InputError`.
    """
    if backend == "hf":
        from rublimp.scoring.hf import HFCausalScorer

        return HFCausalScorer(model_name_or_path, **kwargs)
    if backend == "hf-mlm":
        from rublimp.scoring.mlm import HFMaskedScorer

        return HFMaskedScorer(model_name_or_path, **kwargs)
    if backend == "vllm":
        from rublimp.scoring.vllm import VLLMScorer

        return VLLMScorer(model_name_or_path, **kwargs)
    raise InputError(
        f"unknown scoring backend {backend!r} for model {model_name_or_path!r}; expected one of {BACKENDS}"
    )


def scorer_from_spec(spec: Mapping[str, Any], *, num_threads: int | None = None) -> Scorer:
    """Build the scorer a workflow model spec describes (``models[i]`` of the config, resolved).

    ``spec`` has ``backend`` and ``path``, optionally ``device``, ``dtype``,
    ``batch_tokens``, ``trust_remote_code``, ``max_length`` and, for ``vllm``, a
    ``vllm`` mapping (``tensor_parallel_size``, ``gpu_memory_utilization``,
    ``max_model_len``, ``enforce_eager``…; unknown keys go to ``vllm.LLM``).
    """
    backend = spec["backend"]
    kwargs: dict[str, Any] = {
        "device": spec.get("device") or ("cuda" if backend == "vllm" else "cpu"),
        # auto: the device's fast choice (rublimp.scoring.dtypes.resolve_dtype)
        "dtype": spec.get("dtype") or "auto",
        # None: the device's default (rublimp.scoring.hf.default_batch_tokens; vLLM's own)
        "batch_tokens": int(spec["batch_tokens"]) if spec.get("batch_tokens") else None,
        "trust_remote_code": bool(spec.get("trust_remote_code", False)),
        "num_threads": num_threads,
    }
    if spec.get("max_length") is not None:
        kwargs["max_length"] = int(spec["max_length"])
    if backend == "vllm":
        opts = dict(spec.get("vllm") or {})
        if "max_model_len" in opts:
            kwargs["max_length"] = int(opts.pop("max_model_len"))
        for key in ("tensor_parallel_size", "gpu_memory_utilization"):
            if key in opts:
                kwargs[key] = opts.pop(key)
        kwargs["engine_kwargs"] = opts
        if kwargs["batch_tokens"] is None:
            del kwargs["batch_tokens"]
    return make_scorer(backend, spec["path"], **kwargs)


def check_model_loadable(name_or_path: str, **kwargs: Any) -> None:
    """Cheap pre-flight check that a model can be loaded, for every backend.

    The same local-directory / Hub checks serve ``hf``, ``hf-mlm`` and ``vllm``
    (config, tokenizer and weight files; vLLM itself is not imported).  See
    :func:`rublimp.scoring.hf.check_model_loadable`.
    """
    from rublimp.scoring.hf import check_model_loadable as _check

    _check(name_or_path, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "HFCausalScorer":
        from rublimp.scoring.hf import HFCausalScorer

        return HFCausalScorer
    if name == "HFMaskedScorer":
        from rublimp.scoring.mlm import HFMaskedScorer

        return HFMaskedScorer
    if name == "VLLMScorer":
        from rublimp.scoring.vllm import VLLMScorer

        return VLLMScorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
