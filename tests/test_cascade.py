"""The cascade (cheap models first, expensive ones on survivors) selects exactly the benchmark of scoring everything."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from rublimp.cascade import survivors
from rublimp.curation import curate, search_threshold
from rublimp.io import InputError

K = 30
COL = f"mink_{K}"


def _world(seed: int, n_pairs: int = 400):
    """A synthetic pool (some sentences shared by several pairs) and Min-K% of three models.

    Tier 0: ``gpt-a``, ``gpt-b`` (decoders); tier 1: ``bert`` (the expensive masked LM).
    The models' values are correlated, as real models' are, with a few NaNs.
    """
    rng = np.random.default_rng(seed)
    n_sent = int(n_pairs * 0.8)
    sents = [f"Предложение номер {i} из мира {seed}." for i in range(n_sent)]
    src = [sents[i] for i in rng.integers(0, n_sent, n_pairs)]
    pool = pl.DataFrame({
        "id": [f"p{seed}_{i:05d}" for i in range(n_pairs)],
        "PID": ["para_a" if i % 3 else "para_b" for i in range(n_pairs)],
        "source_sentence": src,
        "target_sentence": [s.replace("номер", "номера") for s in src],
        "n_tokens": rng.integers(6, 40, n_pairs).tolist(),
        "domain": rng.choice(["news", "fiction", "wiki"], n_pairs).tolist(),
    })
    base = rng.normal(-4.0, 1.0, n_sent)
    scores = {}
    for j, model in enumerate(("gpt-a", "gpt-b", "bert")):
        vals = base + rng.normal(0.0, 0.5 + 0.2 * j, n_sent)
        vals[rng.random(n_sent) < 0.01] = np.nan
        scores[model] = pl.DataFrame({"sentence": sents, COL: vals, "n_tokens": rng.integers(5, 30, n_sent)})
    return pool, scores


def _cascade_scores(scores, t_max):
    tier0 = {m: scores[m] for m in ("gpt-a", "gpt-b")}
    kept, stats = survivors(scores["bert"]["sentence"].to_list(), tier0, k=K, t_max=t_max)
    bert = scores["bert"].filter(pl.col("sentence").is_in(kept))
    return {**tier0, "bert": bert}, stats


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("t_max", [-6.0, -4.5, -3.5, -2.0, 0.0])
@pytest.mark.parametrize("grid_step", [None, 0.05])
def test_cascade_selects_the_same_benchmark(seed, t_max, grid_step):
    pool, scores = _world(seed)
    full_bench, full_report = curate(pool, scores, k=K, n=60, seed=seed, grid_step=grid_step, t_max=t_max)
    casc, stats = _cascade_scores(scores, t_max)
    bench, report = curate(pool, casc, k=K, n=60, seed=seed, grid_step=grid_step, t_max=t_max, cascaded=["bert"])
    assert bench.equals(full_bench)
    for a, b in zip(report["paradigms"], full_report["paradigms"]):
        # ("scored" may differ: a sentence the cascade dropped counts as scored-and-failing even
        # where the skipped model would have given NaN; it fails either way)
        for key in ("threshold", "survivors", "selected", "short_pool", "pool"):
            assert a[key] == b[key], key
    # the cascade really skipped work, except when t_max lets everything through
    if t_max <= -3.5:
        assert stats.dropped > 0
    # every kept pair obeys t_max
    assert bench.height == 0 or bench["mink_max"].max() <= t_max


def test_short_pool_keeps_exactly_the_pairs_below_t_max():
    pool, scores = _world(7)
    t_max = -5.0
    res = search_threshold(pool.filter(pl.col("PID") == "para_a"), scores, k=K, n=1000, t_max=t_max)
    assert res.short_pool
    values = res.pairs["mink_max"].drop_nulls()
    assert res.survivors == int((values <= t_max).sum()) == res.kept.height
    assert res.kept["mink_max"].max() <= t_max


def test_threshold_never_exceeds_t_max_even_on_the_grid():
    pool, scores = _world(3)
    one = pool.filter(pl.col("PID") == "para_a")
    free = search_threshold(one, scores, k=K, n=40, grid_step=0.5)
    capped = search_threshold(one, scores, k=K, n=40, grid_step=0.5, t_max=free.threshold - 0.01)
    assert capped.threshold <= free.threshold - 0.01
    assert capped.kept.height >= 40 or capped.short_pool


def test_forward_passes_saved_are_counted():
    """On a synthetic pool, the masked LM's forward passes (one per token) saved by the cascade."""
    pool, scores = _world(11)
    casc, stats = _cascade_scores(scores, -4.0)
    tokens = scores["bert"]["n_tokens"]
    saved = int(tokens.sum() - casc["bert"]["n_tokens"].sum())
    assert stats.dropped > 0 and saved > 0
    assert saved == int(scores["bert"].filter(~pl.col("sentence").is_in(casc["bert"]["sentence"].to_list()))
                        ["n_tokens"].sum())


def test_missing_tier1_score_that_the_cascade_would_keep_is_an_error():
    pool, scores = _world(5)
    casc, _ = _cascade_scores(scores, -3.0)
    # remove a sentence the cascade kept: that is a real gap, not a cascade drop
    kept_sentence = casc["bert"]["sentence"][0]
    casc["bert"] = casc["bert"].filter(pl.col("sentence") != kept_sentence)
    with pytest.raises(InputError, match="model 'bert' has no mink_30 score"):
        curate(pool, casc, k=K, n=60, seed=0, t_max=-3.0, cascaded=["bert"])
    # without declaring the cascade, the dropped sentences are errors too
    casc2, _ = _cascade_scores(scores, -3.0)
    with pytest.raises(InputError, match="no mink_30 score"):
        curate(pool, casc2, k=K, n=60, seed=0, t_max=-3.0)


def test_cascade_needs_t_max_and_tier0():
    pool, scores = _world(1)
    with pytest.raises(InputError, match="t_max"):
        curate(pool, scores, k=K, n=10, seed=0, cascaded=["bert"])
    with pytest.raises(InputError, match="tier-0"):
        survivors(["a"], {}, k=K, t_max=-3.0)
    with pytest.raises(InputError, match="t_max"):
        survivors(["a"], {"gpt-a": scores["gpt-a"]}, k=K, t_max=float("nan"))
    with pytest.raises(InputError, match="no mink_30 score for 1 sentence"):
        survivors(["not in the scores"], {"gpt-a": scores["gpt-a"]}, k=K, t_max=-3.0)


def test_survivors_rule():
    a = pl.DataFrame({"sentence": ["x", "y", "z", "w"], COL: [-5.0, -2.0, float("nan"), -3.0]})
    b = pl.DataFrame({"sentence": ["x", "y", "z", "w"], COL: [-4.0, -6.0, -6.0, -3.1]})
    kept, stats = survivors(["w", "x", "y", "z", "x"], {"a": a, "b": b}, k=K, t_max=-3.0)
    assert kept == ["w", "x"]  # y fails under a, z is NaN under a
    assert (stats.sentences, stats.survivors, stats.dropped) == (4, 2, 2)
