"""Min-K% Prob and Min-K%++ pretraining-data detection scores.

Min-K% Prob (Shi et al., 2023), as used by RuBLiMP §2.4: the mean of the lowest
K% token log-probabilities of a sentence.  A *higher* value means the sentence
has no low-probability outlier tokens, i.e. it looks more like a pretraining
example.

Min-K%++ (Zhang et al., 2024) first standardises each token's log-probability
by the mean and standard deviation of ``log p(z)`` under the model's own
next-token distribution at that position, then takes the same lowest-K% mean.

All functions are pure numpy and work on one sentence at a time; the scorers
call them once per sentence after the batched forward passes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import mannwhitneyu

__all__ = [
    "n_lowest",
    "min_k_prob",
    "distribution_moments",
    "minkpp_token_scores",
    "min_k_plus_plus",
    "mink_auroc",
]

ArrayLike1D = Sequence[float] | np.ndarray

#: Standard deviations at or below this are treated as zero by Min-K%++.
SIGMA_EPS = 1e-6


def n_lowest(n: int, k: float) -> int:
    """Number of tokens averaged by Min-K% for ``n`` scored tokens: ``max(1, ⌊K·n/100⌋)``.

    ``k`` is a percentage in ``(0, 100]``.  Integer ``k`` uses exact integer
    arithmetic; a fractional ``k`` is rounded to 9 decimals before the floor so
    that, e.g., ``k=33.3, n=10`` gives 3 and not a float-noise 2.
    """
    if n < 1:
        raise ValueError(f"Min-K% needs at least one token, got n={n}")
    if not (0 < k <= 100):
        raise ValueError(f"K must be a percentage in (0, 100], got {k!r}")
    if float(k).is_integer():
        m = (int(k) * n) // 100
    else:
        m = math.floor(round(k * n / 100, 9))
    return max(1, m)


def _as_1d(values: ArrayLike1D, what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{what} is empty: Min-K% needs at least one token")
    if np.isnan(arr).any():
        raise ValueError(f"{what} contains NaN")
    return arr


def min_k_prob(logprobs: ArrayLike1D, k: float) -> float:
    """Min-K% Prob: mean of the lowest ``max(1, ⌊K·n/100⌋)`` of ``n`` token log-probs.

    >>> min_k_prob([-1.0, -5.0, -2.0, -0.5, -3.0, -0.1, -4.0], 30)  # n=7 → 2 lowest
    -4.5
    """
    arr = _as_1d(logprobs, "logprobs")
    m = n_lowest(arr.size, k)
    # A full sort (not np.partition) keeps the summation order fixed and the
    # result bit-for-bit reproducible; sentences are short, so the cost is nil.
    return float(np.sort(arr)[:m].mean())


def distribution_moments(log_probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of ``log p(z)`` for ``z ~ p``, along the last axis.

    ``log_probs`` holds normalised log-probabilities over the vocabulary (e.g. a
    ``log_softmax`` output of shape ``(n_positions, vocab)``).  Returns
    ``μ = Σ_z p(z) log p(z)`` and ``σ = sqrt(Σ_z p(z) (log p(z) − μ)²)``.
    Zero-probability entries (``-inf``) contribute nothing.
    """
    lp = np.asarray(log_probs, dtype=np.float64)
    p = np.exp(lp)
    finite_lp = np.where(np.isfinite(lp), lp, 0.0)
    mu = (p * finite_lp).sum(axis=-1)
    var = (p * (finite_lp - mu[..., None]) ** 2).sum(axis=-1)
    return mu, np.sqrt(var)


def minkpp_token_scores(logprobs: ArrayLike1D, mu: ArrayLike1D, sigma: ArrayLike1D) -> np.ndarray:
    """Per-token Min-K%++ scores ``(log p(x_t) − μ_t) / σ_t``.

    A position whose next-token distribution is (numerically) degenerate,
    ``σ_t ≤ 1e-6`` (a uniform or one-hot distribution, up to float round-off),
    gets score 0: every likely token's log-probability equals the expectation
    there, and dividing round-off noise by round-off noise would give an
    arbitrary value.
    """
    lp = _as_1d(logprobs, "logprobs")
    mu_arr = np.asarray(mu, dtype=np.float64)
    sd = np.asarray(sigma, dtype=np.float64)
    if mu_arr.shape != lp.shape or sd.shape != lp.shape:
        raise ValueError(
            f"logprobs, mu and sigma must have the same shape, got {lp.shape}, {mu_arr.shape}, {sd.shape}"
        )
    out = np.zeros_like(lp)
    ok = sd > SIGMA_EPS
    out[ok] = (lp[ok] - mu_arr[ok]) / sd[ok]
    return out


def min_k_plus_plus(logprobs: ArrayLike1D, mu: ArrayLike1D, sigma: ArrayLike1D, k: float) -> float:
    """Min-K%++: the Min-K% lowest-``K%`` mean of the standardised token scores."""
    return min_k_prob(minkpp_token_scores(logprobs, mu, sigma), k)


def mink_auroc(scores_train: ArrayLike1D, scores_heldout: ArrayLike1D) -> float:
    """AUROC of Min-K% as a membership detector.

    The probability that a random training sentence has a *higher* score than a
    random held-out sentence (ties count one half): the Mann–Whitney U statistic
    of the training scores divided by ``n_train · n_heldout``.  0.5 is chance.
    """
    train = _as_1d(scores_train, "scores_train")
    heldout = _as_1d(scores_heldout, "scores_heldout")
    u = mannwhitneyu(train, heldout, alternative="two-sided").statistic
    return float(u) / (train.size * heldout.size)
