"""Evaluation of language models on minimal pairs.

Three evaluation styles, all computed from per-sentence LM scores (``sentence``,
``sum_logprob``, ``n_tokens``):

* **Minimal pairs** (RuBLiMP §3, MultiBLiMP §6.1): a pair is correct when the
  grammatical sentence gets the higher summed log-probability (``correct_sum``) or
  the lower per-token perplexity (``correct_ppl``); Δ = ln P(s⁺) − ln P(s⁻).
  :func:`evaluate` gives per-pair results, :func:`aggregate` per model × paradigm
  statistics (accuracy, Δ, one-sided binomial test, Wilson CI), and
  :func:`phenomenon_summary` / :func:`model_summary` macro averages.
* **RuCoLA-style acceptability** (:func:`acceptability_eval`): every sentence is an
  item labelled 1 (grammatical) or 0, scored by PenLP = log P / ((5+|s|)/6)^α and
  classified with a threshold chosen on a dev split; MCC and accuracy are reported.
* **RuParam-style breakdown** (:func:`accuracy_by_tag`): accuracy per fine tag
  (e.g. ``subtype`` or ``feature``) and each model's most error-prone tags.
* **Pairwise model comparison** (:func:`pairwise_mcnemar`, as MultiBLiMP reports it):
  McNemar's exact test on the pairs two models disagree on, per paradigm and overall,
  with Holm's correction (:func:`holm`).
"""

from __future__ import annotations

import hashlib
from typing import Mapping, Sequence

import numpy as np
import polars as pl
from scipy.stats import binomtest

from rublimp.io import InputError

__all__ = [
    "acceptability_eval",
    "acceptability_items",
    "accuracy_by_tag",
    "aggregate",
    "best_threshold",
    "evaluate",
    "evaluate_models",
    "holm",
    "mcnemar_exact",
    "pairwise_mcnemar",
    "matthews_corrcoef",
    "model_summary",
    "penlp",
    "phenomenon_summary",
]

#: Columns of the per-pair result added by :func:`evaluate`.
PAIR_COLUMNS = (
    "model",
    "good_logprob",
    "bad_logprob",
    "good_lm_tokens",
    "bad_lm_tokens",
    "good_mean_logprob",
    "bad_mean_logprob",
    "delta",
    "correct_sum",
    "tie_sum",
    "correct_ppl",
    "tie_ppl",
)

#: Paradigm-level metadata carried into aggregated results when present.
_META = ("level", "phenomenon")


# --------------------------------------------------------------------------- minimal pairs


def _prepare_scores(scores: pl.DataFrame, model: str, sentences: pl.DataFrame) -> pl.DataFrame:
    """The model's scores of ``sentences`` (one column ``sentence``), validated and deduplicated."""
    what = f"scores of model {model!r}"
    missing = [c for c in ("sentence", "sum_logprob", "n_tokens") if c not in scores.columns]
    if missing:
        raise InputError(f"{what} lack column(s) {missing}; they have {scores.columns}")
    table = (
        scores.select(
            pl.col("sentence").cast(pl.String),
            pl.col("sum_logprob").cast(pl.Float64),
            pl.col("n_tokens").cast(pl.Int64),
        )
        .join(sentences, on="sentence", how="semi")
        .unique()
    )
    bad = table.filter(
        pl.col("sum_logprob").is_null()
        | pl.col("sum_logprob").is_nan()
        | pl.col("n_tokens").is_null()
        | (pl.col("n_tokens") <= 0)
    )
    if bad.height:
        raise InputError(
            f"{what}: {bad.height} benchmark sentence(s) with a null/NaN sum_logprob or n_tokens <= 0, "
            f"e.g. {bad.sort('sentence').row(0, named=True)}"
        )
    conflict = table.group_by("sentence").len().filter(pl.col("len") > 1).sort("sentence")
    if conflict.height:
        raise InputError(
            f"{what}: {conflict.height} sentence(s) have conflicting scores, e.g. {conflict['sentence'][0]!r}"
        )
    return table


def evaluate(benchmark: pl.DataFrame, scores: pl.DataFrame, *, model: str) -> pl.DataFrame:
    """Score every minimal pair of ``benchmark`` with one model's sentence scores.

    Args:
        benchmark: pairs with ``id``, ``source_sentence`` (grammatical), ``target_sentence``
            (ungrammatical) and ``PID``; other columns are carried through.
        scores: the model's scores covering both sentences of every pair, with
            ``sentence``, ``sum_logprob`` (natural log) and ``n_tokens`` (LM tokens).
        model: the model name (stored in the ``model`` column and used in errors).

    Returns:
        One row per pair, sorted by ``id``: the benchmark columns plus ``model``,
        ``good_logprob``/``bad_logprob``, ``good_lm_tokens``/``bad_lm_tokens``,
        ``good_mean_logprob``/``bad_mean_logprob`` (per token), ``delta`` (good − bad),
        ``correct_sum``/``tie_sum`` (by summed log-prob) and ``correct_ppl``/``tie_ppl``
        (by per-token perplexity).  A tie is never correct.

    Raises:
        InputError: missing columns, or a benchmark sentence without a score (names the model).
    """
    missing = [c for c in ("id", "source_sentence", "target_sentence", "PID") if c not in benchmark.columns]
    if missing:
        raise InputError(f"benchmark lacks column(s) {missing}; it has {benchmark.columns}")
    clash = [c for c in PAIR_COLUMNS if c in benchmark.columns]
    if clash:
        raise InputError(f"benchmark already has evaluation column(s) {clash}; pass the curated benchmark")
    for col in ("id", "source_sentence", "target_sentence"):
        nulls = benchmark.with_row_index("_row").filter(pl.col(col).is_null())
        if nulls.height:
            row = int(nulls["_row"][0])
            raise InputError(f"benchmark has {nulls.height} null value(s) in {col!r} (first at row {row})", None, row + 1)
    if benchmark["id"].n_unique() != benchmark.height:
        raise InputError("benchmark ids are not unique")
    sentences = pl.concat(
        [
            benchmark.select(pl.col("id"), pl.col("source_sentence").cast(pl.String).alias("sentence")),
            benchmark.select(pl.col("id"), pl.col("target_sentence").cast(pl.String).alias("sentence")),
        ]
    )
    table = _prepare_scores(scores, model, sentences.select("sentence").unique())
    absent = sentences.join(table, on="sentence", how="anti").sort("id", "sentence")
    if absent.height:
        raise InputError(
            f"model {model!r} has no score for {absent['sentence'].n_unique()} benchmark sentence(s), "
            f"e.g. id={absent['id'][0]!r}: {absent['sentence'][0]!r}"
        )
    good = table.rename({"sentence": "source_sentence", "sum_logprob": "good_logprob", "n_tokens": "good_lm_tokens"})
    bad = table.rename({"sentence": "target_sentence", "sum_logprob": "bad_logprob", "n_tokens": "bad_lm_tokens"})
    out = (
        benchmark.join(good, on="source_sentence", how="left")
        .join(bad, on="target_sentence", how="left")
        .with_columns(
            pl.lit(model, pl.String).alias("model"),
            (pl.col("good_logprob") / pl.col("good_lm_tokens")).alias("good_mean_logprob"),
            (pl.col("bad_logprob") / pl.col("bad_lm_tokens")).alias("bad_mean_logprob"),
        )
        .with_columns(
            (pl.col("good_logprob") - pl.col("bad_logprob")).alias("delta"),
            (pl.col("good_logprob") > pl.col("bad_logprob")).alias("correct_sum"),
            (pl.col("good_logprob") == pl.col("bad_logprob")).alias("tie_sum"),
            (pl.col("good_mean_logprob") > pl.col("bad_mean_logprob")).alias("correct_ppl"),
            (pl.col("good_mean_logprob") == pl.col("bad_mean_logprob")).alias("tie_ppl"),
        )
    )
    return out.select([*benchmark.columns, *PAIR_COLUMNS]).sort("id")


def evaluate_models(benchmark: pl.DataFrame, scores_by_model: Mapping[str, pl.DataFrame]) -> pl.DataFrame:
    """:func:`evaluate` for several models, concatenated and sorted by ``model`` and ``id``."""
    if not scores_by_model:
        raise InputError("scores_by_model is empty: at least one model's scores are needed")
    parts = [evaluate(benchmark, scores_by_model[m], model=m) for m in sorted(scores_by_model)]
    return pl.concat(parts, how="vertical").sort("model", "id")


def _wilson_ci(k: int, n: int, confidence: float) -> tuple[float, float]:
    ci = binomtest(k, n, 0.5).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def aggregate(pair_results: pl.DataFrame, *, confidence: float = 0.95) -> pl.DataFrame:
    """Per model × paradigm statistics of :func:`evaluate` output.

    Columns: ``model``, ``level``/``phenomenon`` (when present), ``PID``, ``n``,
    ``n_correct_sum``, ``n_correct_ppl``, ``n_ties_sum``, ``n_ties_ppl``,
    ``accuracy_sum``, ``accuracy_ppl`` (fractions), ``delta_mean``, ``delta_std``
    (sample std; null for n = 1), ``p_value`` (one-sided exact binomial test of
    ``n_correct_sum`` against chance 0.5, ``scipy.stats.binomtest``), and ``ci_low``/``ci_high``
    (Wilson interval for ``accuracy_sum``).  Sorted by model, level, phenomenon, PID.
    """
    need = ["model", "PID", "correct_sum", "correct_ppl", "tie_sum", "tie_ppl", "delta"]
    missing = [c for c in need if c not in pair_results.columns]
    if missing:
        raise InputError(f"pair results lack column(s) {missing}; pass the output of evaluate()")
    meta = [c for c in _META if c in pair_results.columns]
    inconsistent = (
        pair_results.group_by("model", "PID").agg([pl.col(c).n_unique().alias(c) for c in meta])
        .filter(pl.any_horizontal([pl.col(c) > 1 for c in meta]) if meta else pl.lit(False))
    )
    if inconsistent.height:
        raise InputError(f"paradigm {inconsistent['PID'][0]!r} has several values of {meta} in the pair results")
    agg = (
        pair_results.group_by("model", "PID")
        .agg(
            *[pl.col(c).first() for c in meta],
            pl.len().alias("n"),
            pl.col("correct_sum").sum().alias("n_correct_sum"),
            pl.col("correct_ppl").sum().alias("n_correct_ppl"),
            pl.col("tie_sum").sum().alias("n_ties_sum"),
            pl.col("tie_ppl").sum().alias("n_ties_ppl"),
            pl.col("delta").mean().alias("delta_mean"),
            pl.col("delta").std(ddof=1).alias("delta_std"),
        )
        .with_columns(
            pl.col("n").cast(pl.Int64),
            *[pl.col(c).cast(pl.Int64) for c in ("n_correct_sum", "n_correct_ppl", "n_ties_sum", "n_ties_ppl")],
        )
        .with_columns(
            (pl.col("n_correct_sum") / pl.col("n")).alias("accuracy_sum"),
            (pl.col("n_correct_ppl") / pl.col("n")).alias("accuracy_ppl"),
        )
        .sort("model", *meta, "PID")
    )
    p_values, lows, highs = [], [], []
    for k, n in zip(agg["n_correct_sum"].to_list(), agg["n"].to_list()):
        p_values.append(float(binomtest(k, n, 0.5, alternative="greater").pvalue))
        lo, hi = _wilson_ci(k, n, confidence)
        lows.append(lo)
        highs.append(hi)
    agg = agg.with_columns(
        pl.Series("p_value", p_values, dtype=pl.Float64),
        pl.Series("ci_low", lows, dtype=pl.Float64),
        pl.Series("ci_high", highs, dtype=pl.Float64),
    )
    order = [
        "model", *meta, "PID", "n", "n_correct_sum", "n_correct_ppl", "n_ties_sum", "n_ties_ppl",
        "accuracy_sum", "accuracy_ppl", "delta_mean", "delta_std", "p_value", "ci_low", "ci_high",
    ]
    return agg.select(order)


def phenomenon_summary(results: pl.DataFrame) -> pl.DataFrame:
    """Per model × phenomenon macro averages over paradigms of :func:`aggregate` output.

    Columns: ``model``, ``level`` (when present), ``phenomenon``, ``n_paradigms``,
    ``n_pairs``, ``accuracy_sum``, ``accuracy_ppl``, ``delta_mean``.
    """
    if "phenomenon" not in results.columns:
        raise InputError("results lack a 'phenomenon' column; cannot summarise by phenomenon")
    keys = ["model", *[c for c in _META if c in results.columns]]
    return (
        results.group_by(keys)
        .agg(
            pl.len().alias("n_paradigms"),
            pl.col("n").sum().alias("n_pairs"),
            pl.col("accuracy_sum").mean(),
            pl.col("accuracy_ppl").mean(),
            pl.col("delta_mean").mean(),
        )
        .with_columns(pl.col("n_paradigms").cast(pl.Int64), pl.col("n_pairs").cast(pl.Int64))
        .sort(keys)
    )


def model_summary(results: pl.DataFrame) -> pl.DataFrame:
    """Per model macro averages over all paradigms of :func:`aggregate` output (the "overall" score)."""
    return (
        results.group_by("model")
        .agg(
            pl.len().alias("n_paradigms"),
            pl.col("n").sum().alias("n_pairs"),
            pl.col("accuracy_sum").mean(),
            pl.col("accuracy_ppl").mean(),
            pl.col("delta_mean").mean(),
        )
        .with_columns(pl.col("n_paradigms").cast(pl.Int64), pl.col("n_pairs").cast(pl.Int64))
        .sort("model")
    )


# --------------------------------------------------------------------------- RuCoLA-style acceptability


def penlp(logprob: np.ndarray | float, length: np.ndarray | int, alpha: float = 1.0) -> np.ndarray | float:
    """PenLP acceptability (RuCoLA §4, after Lau et al. 2020): ``logprob / ((5 + length) / 6) ** alpha``."""
    return np.asarray(logprob, dtype=float) / ((5.0 + np.asarray(length, dtype=float)) / 6.0) ** alpha


def acceptability_items(pair_results: pl.DataFrame, *, alpha: float = 1.0) -> pl.DataFrame:
    """Split each evaluated pair into two single-sentence items labelled 1 (grammatical) / 0.

    Columns: ``model``, ``id`` (the pair id), ``PID``, ``label``, ``logprob``,
    ``lm_tokens``, ``penlp``; sorted by model, id, descending label.
    """
    need = ["model", "id", "PID", "good_logprob", "bad_logprob", "good_lm_tokens", "bad_lm_tokens"]
    missing = [c for c in need if c not in pair_results.columns]
    if missing:
        raise InputError(f"pair results lack column(s) {missing}; pass the output of evaluate()")
    items = pl.concat(
        [
            pair_results.select(
                "model", "id", "PID", pl.lit(label, pl.Int8).alias("label"),
                pl.col(f"{side}_logprob").alias("logprob"), pl.col(f"{side}_lm_tokens").alias("lm_tokens"),
            )
            for side, label in (("good", 1), ("bad", 0))
        ]
    )
    score = penlp(items["logprob"].to_numpy(), items["lm_tokens"].to_numpy(), alpha)
    return items.with_columns(pl.Series("penlp", score, dtype=pl.Float64)).sort(
        ["model", "id", "label"], descending=[False, False, True]
    )


def matthews_corrcoef(y_true: Sequence[int] | np.ndarray, y_pred: Sequence[int] | np.ndarray) -> float:
    """Matthews correlation coefficient of binary labels; 0 when undefined (a constant row or column).

    Hand-written from the confusion matrix to avoid a scikit-learn dependency for one formula.
    """
    t = np.asarray(y_true, dtype=bool)
    p = np.asarray(y_pred, dtype=bool)
    return matthews_cc(
        np.array([np.sum(t & p)]), np.array([np.sum(~t & p)]), np.array([np.sum(~t & ~p)]), np.array([np.sum(t & ~p)])
    )[0].item()


def matthews_cc(tp: np.ndarray, fp: np.ndarray, tn: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Element-wise Matthews correlation from confusion counts (0 where undefined)."""
    tp, fp, tn, fn = (x.astype(float) for x in (tp, fp, tn, fn))
    denom = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    with np.errstate(invalid="ignore", divide="ignore"):
        mcc = (tp * tn - fp * fn) / denom
    return np.where(denom > 0, mcc, 0.0)


def best_threshold(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The threshold maximising MCC of ``score > threshold`` against ``labels``.

    Exact search over every cut between consecutive distinct scores (midpoints), plus
    the two constant predictions; among equal MCCs the highest threshold wins.
    Returns ``(threshold, mcc)``.
    """
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    if s.size == 0:
        raise InputError("cannot choose an acceptability threshold on an empty dev split")
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    # Cut j predicts the top j items positive; valid where s[j-1] > s[j] (and j = 0, n).
    tp = np.concatenate([[0], np.cumsum(y)])
    j = np.arange(s.size + 1)
    fp = j - tp
    pos, neg = int(y.sum()), int((~y).sum())
    valid = np.ones(s.size + 1, dtype=bool)
    valid[1:-1] = s[:-1] > s[1:]
    mcc = matthews_cc(tp, fp, neg - fp, pos - tp)
    mcc = np.where(valid, mcc, -np.inf)
    best = int(np.argmax(mcc))  # first maximum = fewest positives = highest threshold
    if best == 0:
        threshold = float(s[0])
    elif best == s.size:
        threshold = float(np.nextafter(s[-1], -np.inf))
    else:
        threshold = float((s[best - 1] + s[best]) / 2.0)
    return threshold, float(mcc[best])


def dev_mask(ids: Sequence[str], dev_fraction: float, seed: int) -> np.ndarray:
    """Stable pair-level split: a pair is in dev when its seeded blake2b hash falls below the fraction."""
    prefix = f"{int(seed)}\x1fdev\x1f".encode()
    buckets = np.fromiter(
        (int.from_bytes(hashlib.blake2b(prefix + i.encode(), digest_size=8).digest(), "big") % 1_000_000 for i in ids),
        dtype=np.int64,
        count=len(ids),
    )
    return buckets < round(dev_fraction * 1_000_000)


def acceptability_eval(
    pair_results: pl.DataFrame,
    *,
    alpha: float = 1.0,
    dev_fraction: float = 0.5,
    seed: int = 0,
    by: Sequence[str] = ("model",),
) -> pl.DataFrame:
    """RuCoLA-style single-sentence acceptability classification from minimal pairs.

    Each sentence becomes an item (label 1 = grammatical, 0 = ungrammatical) scored by
    PenLP; pairs are split into dev/test by a seeded hash of the pair id (both sentences
    of a pair fall on the same side); the PenLP threshold maximising MCC on dev is
    applied to test.

    Returns one row per ``by`` group: ``n_dev``/``n_test`` (items), ``alpha``,
    ``threshold``, ``dev_mcc``, ``test_mcc``, ``test_accuracy`` (null when a split is
    empty); sorted by ``by``.
    """
    if not 0.0 < dev_fraction < 1.0:
        raise InputError(f"config key 'dev_fraction' must be in (0, 1), got {dev_fraction!r}")
    items = acceptability_items(pair_results, alpha=alpha)
    missing = [c for c in by if c not in items.columns]
    if missing:
        raise InputError(f"acceptability items lack grouping column(s) {missing}")
    items = items.with_columns(pl.Series("dev", dev_mask(items["id"].cast(pl.String).to_list(), dev_fraction, seed)))
    rows = []
    for key, group in sorted(items.group_by(list(by), maintain_order=True), key=lambda kg: tuple(map(str, kg[0]))):
        dev, test = group.filter(pl.col("dev")), group.filter(~pl.col("dev"))
        if dev.height == 0 or test.height == 0:  # too few pairs to split: report the sizes only
            rows.append(
                {**dict(zip(by, key)), "n_dev": dev.height, "n_test": test.height, "alpha": float(alpha),
                 "threshold": None, "dev_mcc": None, "test_mcc": None, "test_accuracy": None}
            )
            continue
        threshold, dev_mcc = best_threshold(dev["penlp"].to_numpy(), dev["label"].to_numpy())
        pred = test["penlp"].to_numpy() > threshold
        truth = test["label"].to_numpy().astype(bool)
        rows.append(
            {
                **dict(zip(by, key)),
                "n_dev": dev.height,
                "n_test": test.height,
                "alpha": float(alpha),
                "threshold": threshold,
                "dev_mcc": dev_mcc,
                "test_mcc": matthews_corrcoef(truth, pred),
                "test_accuracy": float(np.mean(pred == truth)),
            }
        )
    schema = {**{c: items.schema[c] for c in by}, "n_dev": pl.Int64, "n_test": pl.Int64, "alpha": pl.Float64,
              "threshold": pl.Float64, "dev_mcc": pl.Float64, "test_mcc": pl.Float64, "test_accuracy": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort(list(by))


# --------------------------------------------------------------------------- RuParam-style tags


def accuracy_by_tag(
    pair_results: pl.DataFrame,
    *,
    tags: str | Sequence[str] = "subtype",
    top: int = 10,
) -> pl.DataFrame:
    """Accuracy (by summed log-prob) per model and fine tag, with each model's error ranking.

    RuParam §3 reports accuracy per fine category and marks each model's ``top``
    most error-prone categories.  Columns: ``model``, the tag columns, ``n``,
    ``n_correct``, ``accuracy``, ``error_rank`` (1 = lowest accuracy for that model;
    ties broken by tag values) and ``top_error`` (``error_rank <= top``).
    """
    tag_cols = [tags] if isinstance(tags, str) else list(tags)
    missing = [c for c in ["model", "correct_sum", *tag_cols] if c not in pair_results.columns]
    if missing:
        raise InputError(f"pair results lack column(s) {missing}; cannot break accuracy down by tag")
    keys = ["model", *tag_cols]
    table = (
        pair_results.with_columns([pl.col(c).cast(pl.String).fill_null("") for c in tag_cols])
        .group_by(keys)
        .agg(pl.len().cast(pl.Int64).alias("n"), pl.col("correct_sum").sum().cast(pl.Int64).alias("n_correct"))
        .with_columns((pl.col("n_correct") / pl.col("n")).alias("accuracy"))
        .sort(["model", "accuracy", *tag_cols])
        .with_columns((pl.int_range(pl.len()).over("model") + 1).cast(pl.Int64).alias("error_rank"))
        .with_columns((pl.col("error_rank") <= top).alias("top_error"))
    )
    return table.sort(keys)


# --------------------------------------------------------------------------- pairwise model comparison


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` and ``c`` discordant pairs.

    Under H0 (both models equally accurate) each discordant pair is won by either model
    with probability 1/2, so ``b`` ~ Binomial(b + c, 1/2): the p-value is the two-sided
    exact binomial test (``scipy.stats.binomtest``), min(1, 2·P(X ≤ min(b, c))); 1 when
    there are no discordant pairs.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got {b}, {c}")
    if b + c == 0:
        return 1.0
    return float(binomtest(int(b), int(b + c), 0.5, alternative="two-sided").pvalue)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input order.

    The i-th smallest of m p-values becomes max over j ≤ i of (m − j + 1)·p_(j), capped at 1.
    """
    p = np.asarray(p_values, dtype=float)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out.tolist()


def pairwise_mcnemar(pair_results: pl.DataFrame, *, column: str = "correct_sum") -> pl.DataFrame:
    """McNemar's exact test for every pair of models, per paradigm and overall.

    Two models are compared on the pairs (``id``) both were evaluated on; a pair counts
    as right for a model when ``column`` is true (ties count as errors, as in
    :func:`evaluate`).  ``b``: pairs only model A gets right, ``c``: only model B.
    Holm's correction runs over two families: the per-paradigm tests (all model pairs ×
    paradigms) and the overall tests (all model pairs).

    Returns one row per scope (``PID``, ``"(overall)"`` first) × model pair (A < B
    alphabetically): ``scope``, ``model_a``, ``model_b``, ``n``, ``accuracy_a``,
    ``accuracy_b``, ``b``, ``c``, ``p_value``, ``p_holm``.  Empty with fewer than two models.
    """
    need = ["model", "id", "PID", column]
    missing = [c for c in need if c not in pair_results.columns]
    if missing:
        raise InputError(f"pair results lack column(s) {missing}; pass the output of evaluate()")
    schema = {"scope": pl.String, "model_a": pl.String, "model_b": pl.String, "n": pl.Int64,
              "accuracy_a": pl.Float64, "accuracy_b": pl.Float64, "b": pl.Int64, "c": pl.Int64,
              "p_value": pl.Float64, "p_holm": pl.Float64}
    table = pair_results.select("model", pl.col("id").cast(pl.String), pl.col("PID").cast(pl.String),
                                pl.col(column).fill_null(False).alias("right"))
    dup = table.group_by("model", "id").len().filter(pl.col("len") > 1)
    if dup.height:
        raise InputError(f"model {dup['model'][0]!r} has pair id {dup['id'][0]!r} more than once in the pair results")
    models = sorted(table["model"].unique().to_list())
    rows: list[dict] = []
    for i, a in enumerate(models):
        for b_model in models[i + 1:]:
            joined = (table.filter(pl.col("model") == a).select("id", "PID", pl.col("right").alias("ra"))
                      .join(table.filter(pl.col("model") == b_model).select("id", pl.col("right").alias("rb")),
                            on="id", how="inner"))
            scopes = [("(overall)", joined)] + [
                (pid, joined.filter(pl.col("PID") == pid)) for pid in sorted(joined["PID"].unique().to_list())]
            for scope, g in scopes:
                n = g.height
                b = int((g["ra"] & ~g["rb"]).sum())
                c = int((~g["ra"] & g["rb"]).sum())
                rows.append({"scope": scope, "model_a": a, "model_b": b_model, "n": n,
                             "accuracy_a": float(g["ra"].mean()) if n else None,
                             "accuracy_b": float(g["rb"].mean()) if n else None,
                             "b": b, "c": c, "p_value": mcnemar_exact(b, c), "p_holm": None})
    for overall in (True, False):
        idx = [k for k, r in enumerate(rows) if (r["scope"] == "(overall)") == overall]
        for k, adj in zip(idx, holm([rows[k]["p_value"] for k in idx])):
            rows[k]["p_holm"] = adj
    out = pl.DataFrame(rows, schema=schema)
    return out.sort(pl.col("scope") != "(overall)", "scope", "model_a", "model_b")
