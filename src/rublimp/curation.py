"""Minimal-pair curation: Min-K% decontamination threshold search and stratified sampling.

RuBLiMP §2.4: every grammatical sentence of a paradigm's pool is scored with
Min-K% Prob by every LM (higher = more likely seen in pretraining).  Per paradigm
we search the threshold ``t`` such that at least ``N`` pairs have a grammatical
sentence with Min-K% ≤ t for *all* models, i.e. the pair's score is the maximum
over models and ``t`` is the N-th smallest of these maxima.  When more than N
pairs survive (ties at ``t``), they are downsampled to N in a stratified way over
domain × sentence length × paradigm-specific feature values (footnote 8).

Typical use::

    benchmark, report = curate(pool, {"gpt-a": scores_a, "gpt-b": scores_b}, k=60, n=1000, seed=0)
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import polars as pl
from tqdm.auto import tqdm

from rublimp.io import InputError

log = logging.getLogger("rublimp")

__all__ = [
    "DEFAULT_LENGTH_BINS",
    "DEFAULT_STRATA",
    "ThresholdResult",
    "assign_length_bins",
    "compact_pool",
    "curate",
    "decontamination_status",
    "replace_invalid",
    "search_threshold",
    "stratified_sample",
]

#: Edges over ``n_tokens`` (words): bins are [6,10), [10,15), [15,20), [20,30), [30,51).
#: Values outside the edges fall into the open bins "<6" and ">=51" and are kept.
DEFAULT_LENGTH_BINS: tuple[int, ...] = (6, 10, 15, 20, 30, 51)

#: Non-length stratification columns (those absent from a frame are skipped).
DEFAULT_STRATA: tuple[str, ...] = ("domain", "feature", "source_value", "target_value")

MINK_MAX = "mink_max"
LENGTH_BIN = "length_bin"

FrameOrPath = pl.DataFrame | str | os.PathLike


# --------------------------------------------------------------------------- helpers


def _load(frame: FrameOrPath, what: str) -> tuple[pl.DataFrame, str | None]:
    """Return ``(df, path)``; a path is read as Parquet (the path is kept for error messages)."""
    if isinstance(frame, pl.DataFrame):
        return frame, None
    path = str(frame)
    try:
        return pl.read_parquet(path), path
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {what} as Parquet: {exc}", path) from exc


def _load_rows(frame: FrameOrPath, what: str, column: str, sentences: pl.Series) -> tuple[pl.DataFrame, str | None]:
    """The ``sentence`` and ``column`` values of a scores table for ``sentences``; ``(df, path)``.

    A path is scanned, not loaded: a model's table holds every paradigm's sentences (rules/score.smk),
    and only the rows of ``sentences`` (one pool's) and these two columns are read, through Polars'
    streaming engine, so the memory follows the pool, not the table.  A frame is checked the same way.
    """
    if isinstance(frame, pl.DataFrame):
        _require_columns(frame, ["sentence", column], what, None)
        return frame, None
    path = str(frame)
    file_schema(path, ["sentence", column], what)
    try:
        df = (
            pl.scan_parquet(path)
            .select(pl.col("sentence").cast(pl.String), column)
            .filter(pl.col("sentence").is_in(sentences.implode()))
            .collect(engine="streaming")
        )
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {what} as Parquet: {exc}", path) from exc
    return df, path


def sentence_key(col: pl.Expr) -> pl.Expr:
    """A sentence's short stand-in: its 64-bit Polars hash (null stays null)."""
    return col.cast(pl.String).hash(seed=0)


def file_schema(path: str, required: Sequence[str], what: str) -> dict[str, pl.DataType]:
    """The schema (column -> dtype) of the Parquet file ``path``, after checking it has ``required``
    (errors name the file)."""
    try:
        have = dict(pl.read_parquet_schema(path))
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {what} as Parquet: {exc}", path) from exc
    missing = [c for c in required if c not in have]
    if missing:
        raise InputError(f"{what} lacks column(s) {missing}; it has {list(have)}", path)
    return have


def compact_pool(
    pool: str | os.PathLike,
    scores_by_model: Mapping[str, FrameOrPath],
    k: int,
    *,
    columns: Sequence[str],
) -> tuple[pl.DataFrame, dict[str, pl.DataFrame]]:
    """What :func:`curate` needs of a pool of any size, without the text: ``(pool, scores_by_model)``.

    The pool's ``columns`` are read with each grammatical sentence replaced by a 64-bit hash of it
    (computed as the column is read); then each model's scores table is scanned with Polars'
    streaming engine (its ``sentence`` and ``mink_<k>`` columns) and only the rows whose sentence
    hash is one of the pool's are kept, under that hash.  So the job holds the pool's ids, paradigm
    and stratification columns and one number per model and sentence, never a pool's or a scores
    table's text: memory follows the pool's row count (bounded by ``perturb.pool_cap``), not the
    corpus or the scores tables (every paradigm's sentences).  :func:`curate` gives the same
    selection and report on the result as on the pool itself (the threshold search and the sampling
    read only ids, keys and scores; tested); its messages then name a sentence by its hash, next to
    the pair's id.  Two distinct sentences sharing a hash (odds about ``sentences**2 / 2**65``)
    would be reported as conflicting scores, or share one score where a table holds only one.
    """
    column = f"mink_{k}"
    path = str(pool)
    have = file_schema(path, ["source_sentence"], "pool")
    read = [c for c in dict.fromkeys(["source_sentence", *columns]) if c in have]
    try:
        compact = pl.scan_parquet(path).select(read).with_columns(sentence_key(pl.col("source_sentence"))).collect()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read pool as Parquet: {exc}", path) from exc
    wanted = compact.get_column("source_sentence").drop_nulls().unique().implode()
    scores: dict[str, pl.DataFrame] = {}
    for model, table in scores_by_model.items():
        what = f"scores of model {model!r}"
        if isinstance(table, pl.DataFrame):
            _require_columns(table, ["sentence", column], what, None)
            frame, where = table.lazy(), None
        else:
            where = str(table)
            file_schema(where, ["sentence", column], what)
            frame = pl.scan_parquet(where)
        try:
            scores[model] = (
                frame.select(sentence_key(pl.col("sentence")), column)
                .filter(pl.col("sentence").is_in(wanted))
                .collect(engine="streaming")
            )
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise InputError(f"cannot read {what} as Parquet: {exc}", where) from exc
    return compact, scores


def _require_columns(df: pl.DataFrame, columns: Sequence[str], what: str, path: str | None) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise InputError(f"{what} lacks column(s) {missing}; it has {df.columns}", path)


def check_k_n(k: int, n: int) -> None:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 < k <= 100:
        raise InputError(f"config key 'k' (Min-K% percentage) must be an integer in 1..100, got {k!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise InputError(f"config key 'n' (pairs per paradigm) must be a positive integer, got {n!r}")


def check_cascade(t_max: float | None, cascaded: Sequence[str]) -> None:
    if t_max is not None and (isinstance(t_max, bool) or not math.isfinite(float(t_max))):
        raise InputError(f"config key 'curation.t_max' must be a finite number or null, got {t_max!r}")
    if cascaded and t_max is None:
        raise InputError("config key 'curation.t_max' is needed when models are cascaded (a model with tier >= 1)")


def _check_pool(pool: pl.DataFrame, path: str | None, extra: Sequence[str] = ()) -> None:
    _require_columns(pool, ["id", "source_sentence", "PID", *extra], "pool", path)
    for col in ("id", "source_sentence", "PID"):
        nulls = pool.with_row_index("_row").filter(pl.col(col).is_null())
        if nulls.height:
            row = int(nulls["_row"][0])
            raise InputError(f"pool has {nulls.height} null value(s) in column {col!r} (first at row {row})", path, row + 1)
    dup = pool.group_by("id").len().filter(pl.col("len") > 1).sort("id")
    if dup.height:
        raise InputError(f"pool has {dup.height} duplicated id(s), e.g. {dup['id'][0]!r}", path)


@dataclass(frozen=True)
class _Scores:
    """All models' Min-K% values in one long table ``(model_idx, sid, mink)``.

    ``sentences`` maps each distinct grammatical sentence of the pool to an integer
    ``sid`` (integer keys make the joins and group-bys below several times faster
    than string keys); ``long`` has one row per model and sentence, ``mink`` null
    where a model gave NaN/null.
    """

    models: tuple[str, ...]
    paths: tuple[str | None, ...]
    sentences: pl.DataFrame
    long: pl.DataFrame


def _prepare_scores(scores_by_model: Mapping[str, FrameOrPath], k: int, sentences: pl.Series) -> _Scores:
    if not scores_by_model:
        raise InputError("scores_by_model is empty: at least one model's scores are needed")
    column = f"mink_{k}"
    key = pl.UInt64 if sentences.dtype == pl.UInt64 else pl.String  # the hashes of compact_pool, or text
    wanted = (
        pl.DataFrame({"sentence": sentences.cast(key)})
        .unique()
        .sort("sentence")
        .with_row_index("sid")
    )
    models, paths, parts = [], [], []
    for i, model in enumerate(sorted(scores_by_model)):
        what = f"scores of model {model!r}"
        df, path = _load_rows(scores_by_model[model], what, column, wanted["sentence"])
        part = (
            df.select(
                pl.col("sentence").cast(key),
                pl.col(column).cast(pl.Float64).fill_nan(None).alias("mink"),
            )
            .join(wanted, on="sentence", how="inner")
            .select("sid", "mink")
        )
        if part["sid"].n_unique() != part.height:  # repeated sentences: identical values are fine
            part = part.group_by("sid").agg(pl.col("mink").n_unique().alias("__values"), pl.col("mink").first())
            conflict = part.filter(pl.col("__values") > 1).join(wanted, on="sid").sort("sentence")
            if conflict.height:
                raise InputError(
                    f"{what}: {conflict.height} sentence(s) have conflicting {column} values, "
                    f"e.g. {conflict['sentence'][0]!r}",
                    path,
                )
        models.append(model)
        paths.append(path)
        parts.append(part.select(pl.lit(i, pl.UInt32).alias("model_idx"), "sid", "mink"))
    return _Scores(tuple(models), tuple(paths), wanted, pl.concat(parts, how="vertical"))


def _attach_mink_max(
    pool: pl.DataFrame,
    scores: _Scores,
    paradigm: str,
    k: int,
    *,
    cascaded: frozenset[str] = frozenset(),
    t_max: float | None = None,
) -> pl.DataFrame:
    """Add ``mink_max``: the max over models of Min-K% of the source sentence (null if any model gave null).

    A sentence a model in ``cascaded`` did not score is accepted only when the
    models that did score it already put it above ``t_max`` (or gave null): the
    cascade (:mod:`rublimp.cascade`) dropped it, and it fails whatever the
    missing score would have been.  Any other missing score is an error.
    """
    n_models = len(scores.models)
    optional = [i for i, m in enumerate(scores.models) if m in cascaded] if t_max is not None else []
    with_sid = pool.join(scores.sentences, left_on="source_sentence", right_on="sentence", how="left")
    per_sentence = (
        scores.long.join(with_sid.select("sid").unique(), on="sid", how="semi")
        .group_by("sid")
        .agg(
            pl.len().alias("__n"),
            (~pl.col("model_idx").is_in(optional)).sum().alias("__n_req"),
            pl.col("mink").null_count().alias("__nulls"),
            pl.col("mink").max().alias(MINK_MAX),
        )
    )
    joined = with_sid.join(per_sentence, on="sid", how="left")
    n_req = n_models - len(optional)
    dropped_ok = (pl.col("__n_req") == n_req) & ((pl.col("__nulls") > 0) | (pl.col(MINK_MAX) > (t_max or 0.0)))
    complete = pl.col("__n") == n_models
    if optional:
        complete = complete | dropped_ok
    absent = joined.filter(pl.col("__n").is_null() | ~complete.fill_null(False)).sort("id")
    if absent.height:
        sid = absent["sid"][0]
        present = set(scores.long.filter(pl.col("sid") == sid)["model_idx"].to_list())
        idx = min(set(range(n_models)) - present)
        lacking = with_sid.join(scores.long.filter(pl.col("model_idx") == idx), on="sid", how="anti")
        why = (
            f" (the cascade may skip it only when the other models put it above t_max={t_max})"
            if idx in optional else ""
        )
        raise InputError(
            f"model {scores.models[idx]!r} has no mink_{k} score for {lacking.height} grammatical sentence(s) "
            f"of paradigm {paradigm!r}, e.g. id={absent['id'][0]!r}: {absent['source_sentence'][0]!r}{why}",
            scores.paths[idx],
        )
    return joined.with_columns(
        pl.when(pl.col("__nulls") == 0).then(pl.col(MINK_MAX)).otherwise(None).alias(MINK_MAX)
    ).drop("sid", "__n", "__n_req", "__nulls")


# --------------------------------------------------------------------------- threshold search


@dataclass(frozen=True, eq=False)
class ThresholdResult:
    """Outcome of the per-paradigm threshold search.

    Attributes:
        paradigm: the ``PID`` of the pool.
        k: the Min-K% percentage used (column ``mink_<k>``).
        n: the requested number of pairs.
        models: the models whose scores were intersected (sorted).
        threshold: ``t``; pairs with ``mink_max <= t`` survive. ``None`` if nothing is scored.
        pool_size: number of pairs in the pool.
        scored: pairs whose grammatical sentence has a Min-K% value for every model.
        survivors: pairs with ``mink_max <= threshold`` (≥ n unless ``short_pool``; > n only on ties).
        short_pool: the scored pool had fewer than ``n`` pairs, so all scored pairs are kept.
        message: a human-readable note (empty when nothing is remarkable).
        pairs: the pool with an added ``mink_max`` column (null for unscored pairs), sorted by id.
    """

    paradigm: str
    k: int
    n: int
    models: tuple[str, ...]
    threshold: float | None
    pool_size: int
    scored: int
    survivors: int
    short_pool: bool
    message: str
    pairs: pl.DataFrame

    @property
    def kept(self) -> pl.DataFrame:
        """The surviving pairs (``mink_max <= threshold``), sorted by id."""
        if self.threshold is None:
            return self.pairs.clear()
        return self.pairs.filter(pl.col(MINK_MAX) <= self.threshold)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary (without the pair table)."""
        return {
            "paradigm": self.paradigm,
            "k": int(self.k),
            "n": int(self.n),
            "models": list(self.models),
            "threshold": self.threshold,
            "pool": self.pool_size,
            "scored": self.scored,
            "survivors": self.survivors,
            "short_pool": self.short_pool,
            "message": self.message,
        }


def _on_grid(value: float, step: float | None) -> float:
    """The smallest multiple of ``step`` that is >= ``value`` (``value`` itself without a grid)."""
    if not step:
        return value
    q = math.ceil(value / step - 1e-9)
    return round(q * step, 10)


def search_sorted(
    values: np.ndarray,
    pool_size: int,
    *,
    n: int,
    grid_step: float | None = None,
    t_max: float | None = None,
) -> tuple[float | None, int, bool, str]:
    """The threshold search on a paradigm's sorted ``mink_max`` values (nulls left out).

    ``pool_size`` counts the paradigm's pairs, scored or not.  Returns ``(threshold,
    survivors, short_pool, message)`` as :class:`ThresholdResult` holds them.
    """
    scored = int(values.size)
    unscored = pool_size - scored
    notes = [f"{unscored} pair(s) without a Min-K% value for some model were dropped"] if unscored else []
    if t_max is not None:
        # Only pairs at or below t_max can ever be kept: the threshold never exceeds it.
        eligible = int(np.searchsorted(values, t_max, side="right"))
        if eligible < n:
            threshold_short = float(values[eligible - 1]) if eligible else None
            message = "; ".join(
                [f"short pool: only {eligible} pair(s) of {pool_size} have Min-K% <= t_max={t_max} for every "
                 f"model, fewer than n={n}; all of them are kept"] + notes
            )
            return threshold_short, eligible, True, message
    if scored >= n:
        # The number of pairs with mink_max <= t is a step function of t that only jumps
        # at the candidate values, so the smallest t reaching n pairs (the exact grid
        # search over the sorted distinct candidates) is the n-th smallest value.
        # On a grid of step ``grid_step`` (the paper's grid search) t is rounded up to the
        # next grid point, so more than n pairs may survive and are then downsampled.
        threshold: float | None = _on_grid(float(values[n - 1]), grid_step)
        if t_max is not None:
            threshold = min(threshold, float(t_max))
        survivors = int(np.searchsorted(values, threshold, side="right"))
        extra = "at or below the grid threshold" if grid_step else "tie at the threshold"
        ties = [f"{survivors - n} pair(s) more than n {extra}"] if survivors > n else []
        return threshold, survivors, False, "; ".join(ties + notes)
    message = "; ".join(
        [f"short pool: only {scored} scored pair(s) of {pool_size} for n={n}; all scored pairs are kept (t = max)"]
        + notes
    )
    return (float(values[-1]) if scored else None), scored, True, message


def _search(
    pool: pl.DataFrame,
    scores: _Scores,
    *,
    paradigm: str,
    k: int,
    n: int,
    grid_step: float | None = None,
    t_max: float | None = None,
    cascaded: frozenset[str] = frozenset(),
) -> ThresholdResult:
    pairs = _attach_mink_max(pool, scores, paradigm, k, cascaded=cascaded, t_max=t_max).sort("id")
    values = np.sort(pairs[MINK_MAX].drop_nulls().to_numpy())
    threshold, survivors, short, message = search_sorted(values, pairs.height, n=n, grid_step=grid_step, t_max=t_max)
    return ThresholdResult(
        paradigm=paradigm,
        k=int(k),
        n=int(n),
        models=scores.models,
        threshold=threshold,
        pool_size=pairs.height,
        scored=int(values.size),
        survivors=survivors,
        short_pool=short,
        message=message,
        pairs=pairs,
    )


def search_threshold(
    pool: FrameOrPath,
    scores_by_model: Mapping[str, FrameOrPath],
    *,
    k: int,
    n: int,
    grid_step: float | None = None,
    t_max: float | None = None,
    cascaded: Sequence[str] = (),
) -> ThresholdResult:
    """Find the smallest Min-K% threshold leaving at least ``n`` pairs uncontaminated for every model.

    Args:
        pool: one paradigm's pairs (a DataFrame or a Parquet path) with at least
            ``id``, ``source_sentence`` and ``PID``.
        scores_by_model: model name -> its scores (DataFrame or Parquet path) with
            ``sentence`` and ``mink_<k>`` columns.
        k: the Min-K% percentage (selects the ``mink_<k>`` column).
        n: the number of pairs wanted.
        grid_step: search t on the grid of multiples of this step (None: exactly,
            over the distinct candidate values, so ties aside exactly n survive).
        t_max: the loosest threshold the search may choose (None: no limit).  With
            fewer than ``n`` pairs at or below it, the pool is short and keeps exactly
            the pairs with ``mink_max <= t_max``.
        cascaded: models that the cascade (:mod:`rublimp.cascade`) let skip sentences
            already above ``t_max`` under the other models; such a missing score
            counts as failing (needs ``t_max``).

    Returns:
        A :class:`ThresholdResult`; ``result.kept`` holds the surviving pairs.

    Raises:
        InputError: bad ``k``/``n``, missing columns, several paradigms in ``pool``,
            or a grammatical sentence absent from some model's scores (the error names the model).
    """
    check_k_n(k, n)
    df, path = _load(pool, "pool")
    _check_pool(df, path)
    pids = df["PID"].unique().sort().to_list()
    if len(pids) != 1:
        raise InputError(f"search_threshold expects one paradigm per pool, got PIDs {pids}; use curate()", path)
    check_cascade(t_max, cascaded)
    scores = _prepare_scores(scores_by_model, k, df["source_sentence"])
    return _search(df, scores, paradigm=str(pids[0]), k=k, n=n, grid_step=grid_step, t_max=t_max,
                   cascaded=frozenset(cascaded))


# --------------------------------------------------------------------------- stratified sampling


def bin_labels(edges: Sequence[int | float]) -> list[str]:
    labels = [f"<{edges[0]}"]
    labels += [f"[{lo},{hi})" for lo, hi in zip(edges[:-1], edges[1:])]
    labels.append(f">={edges[-1]}")
    return labels


def assign_length_bins(
    pairs: pl.DataFrame,
    length_bins: Sequence[int | float] = DEFAULT_LENGTH_BINS,
    *,
    column: str = "n_tokens",
) -> pl.DataFrame:
    """Add a string ``length_bin`` column: left-closed bins over ``column`` delimited by ``length_bins``.

    Values below the first edge get ``"<first"``, values at or above the last edge ``">=last"``.
    """
    edges = list(length_bins)
    if len(edges) < 2 or any(b <= a for a, b in zip(edges[:-1], edges[1:])):
        raise InputError(f"config key 'length_bins' must be ≥ 2 strictly increasing edges, got {edges}")
    _require_columns(pairs, [column], "pairs", None)
    # numpy.searchsorted rather than polars' cut: ``cut`` is deprecated in polars 2 and
    # its replacement ``bin_intervals`` is experimental; this keeps labels stable across versions.
    values = pairs[column].cast(pl.Float64).to_numpy()
    if np.isnan(values).any():
        raise InputError(f"pairs have null/NaN values in {column!r}; cannot assign length bins")
    idx = np.searchsorted(np.asarray(edges, dtype=float), values, side="right")
    labels = np.asarray(bin_labels(edges), dtype=object)
    return pairs.with_columns(pl.Series(LENGTH_BIN, labels[idx].tolist(), dtype=pl.String))


def seeded_order(ids: Sequence[str], seed: int) -> np.ndarray:
    """A stable pseudo-random key per id (blake2b of seed and id).

    Hash-based rather than ``DataFrame.sample``: the order does not depend on row
    order, pool size or the polars version, so outputs are reproducible everywhere.
    """
    prefix = f"{int(seed)}\x1f".encode()
    return np.fromiter(
        (int.from_bytes(hashlib.blake2b(prefix + i.encode(), digest_size=8).digest(), "big") for i in ids),
        dtype=np.uint64,
        count=len(ids),
    )


def largest_remainder(sizes: Sequence[int], n: int, tiebreak: Sequence[int] | None = None) -> list[int]:
    """Proportional allocation of ``n`` over strata with Hamilton's largest-remainder rounding.

    Exact integer arithmetic.  Equal remainders are broken by ``tiebreak`` (smaller
    first; e.g. a seeded hash of the stratum key), then by position.  Hand-written:
    neither polars nor scipy offers apportionment.
    """
    total = sum(sizes)
    floors = [n * s // total for s in sizes]
    rems = [n * s % total for s in sizes]
    ties = list(tiebreak) if tiebreak is not None else [0] * len(sizes)
    left = n - sum(floors)
    for i in sorted(range(len(sizes)), key=lambda j: (-rems[j], ties[j], j))[:left]:
        floors[i] += 1
    return floors


def stratum_quotas(strata: Sequence[tuple[str, ...]], sizes: Sequence[int], n: int, seed: int) -> list[int]:
    """How many of ``n`` rows each stratum gets: ``strata`` (their key values as strings, sorted) of ``sizes``
    rows, by :func:`largest_remainder` with equal remainders broken by a seeded hash of the stratum key."""
    names = ["\x1e".join(key) for key in strata]
    return largest_remainder(sizes, n, seeded_order(names, seed).tolist())


def stratified_sample(
    pairs: pl.DataFrame,
    *,
    n: int,
    seed: int,
    length_bins: Sequence[int | float] | None = DEFAULT_LENGTH_BINS,
    strata: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Downsample ``pairs`` to ``n`` rows stratified by domain × length bin × feature values.

    Each stratum gets ``n · size / total`` rows rounded by largest remainder (equal
    remainders broken by a seeded hash of the stratum key); inside a stratum the rows
    with the smallest seeded hash of their ``id`` are taken.

    Args:
        pairs: candidate pairs with a unique ``id``, ``n_tokens`` (if binning) and the strata columns.
        n: rows wanted; if ``n >= len(pairs)`` all rows are returned.
        seed: sampling seed (same inputs and seed -> identical output).
        length_bins: edges over ``n_tokens`` (see :func:`assign_length_bins`); ``None`` disables length strata.
        strata: other stratification columns; default :data:`DEFAULT_STRATA`, skipping absent ones
            (explicitly named columns must exist).

    Returns:
        The sample (input columns plus ``length_bin`` when binning), sorted by ``id``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise InputError(f"config key 'n' (pairs per paradigm) must be a positive integer, got {n!r}")
    _require_columns(pairs, ["id"], "pairs", None)
    if pairs["id"].null_count() or pairs["id"].n_unique() != pairs.height:
        raise InputError("pairs must have unique, non-null ids for stratified sampling")
    if strata is None:
        keys = [c for c in DEFAULT_STRATA if c in pairs.columns]
    else:
        keys = list(strata)
        _require_columns(pairs, keys, "pairs", None)
    df = pairs
    if length_bins is not None:
        df = assign_length_bins(df, length_bins)
        keys.append(LENGTH_BIN)
    if n >= df.height:
        return df.sort("id")

    # Strata keys as strings (null -> "") so grouping and ordering are total and stable.
    key_cols = [f"__k{i}" for i in range(len(keys))] or ["__k0"]
    exprs = [pl.col(c).cast(pl.String).fill_null("").alias(kc) for c, kc in zip(keys, key_cols)]
    work = df.with_columns(exprs or [pl.lit("").alias("__k0")])  # no strata: one stratum
    sizes = work.group_by(key_cols).len().sort(key_cols)
    quotas = stratum_quotas(list(sizes.select(key_cols).iter_rows()), sizes["len"].to_list(), n, seed)
    sizes = sizes.with_columns(pl.Series("__quota", quotas, dtype=pl.Int64))
    work = (
        work.with_columns(pl.Series("__h", seeded_order(work["id"].cast(pl.String).to_list(), seed)))
        .sort([*key_cols, "__h", "id"])
        .with_columns(pl.int_range(pl.len()).over(key_cols).alias("__rank"))
        .join(sizes.select([*key_cols, "__quota"]), on=key_cols, how="left")
        .filter(pl.col("__rank") < pl.col("__quota"))
    )
    return work.drop([*key_cols, "__h", "__rank", "__quota"]).sort("id")


# --------------------------------------------------------------------------- curate


def curate(
    pool: FrameOrPath,
    scores_by_model: Mapping[str, FrameOrPath],
    *,
    k: int,
    n: int,
    seed: int,
    length_bins: Sequence[int | float] | None = DEFAULT_LENGTH_BINS,
    strata: Sequence[str] | None = None,
    progress: bool | None = None,
    grid_step: float | None = None,
    t_max: float | None = None,
    cascaded: Sequence[str] = (),
    drop_invalid: Sequence[str] | None = None,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Decontaminate and downsample a pool of one or more paradigms.

    Per paradigm (``PID``): :func:`search_threshold`, then :func:`stratified_sample`
    of the survivors down to ``n``.

    Args:
        pool: pairs of one or more paradigms (DataFrame or Parquet path).
        scores_by_model: model name -> scores with ``sentence`` and ``mink_<k>``.
        k, n, seed, length_bins, strata, grid_step, t_max, cascaded: see :func:`search_threshold`
            and :func:`stratified_sample`.
        progress: show a progress bar (``None``: only on a terminal).
        drop_invalid: pair ids judged invalid by human validation (``curation.drop_invalid``):
            they are removed from the selection and replaced by :func:`replace_invalid`.

    Returns:
        ``(benchmark, report)``: the selected pairs (pool columns + ``mink_max`` +
        ``length_bin``) sorted by id, and a JSON-friendly report with one entry per
        paradigm under ``"paradigms"`` (paradigm, pool, scored, threshold, survivors,
        selected, short_pool, message).
    """
    check_k_n(k, n)
    df, path = _load(pool, "pool")
    _check_pool(df, path, extra=["n_tokens"] if length_bins is not None else [])
    check_cascade(t_max, cascaded)
    scores = _prepare_scores(scores_by_model, k, df["source_sentence"])
    pids = sorted(df["PID"].unique().cast(pl.String).to_list())
    parts: list[pl.DataFrame] = []
    entries: list[dict[str, Any]] = []
    for pid in tqdm(pids, desc="curate", unit="paradigm", disable=None if progress is None else not progress):
        rows = df if len(pids) == 1 else df.filter(pl.col("PID") == pid)  # (one paradigm: no copy)
        result = _search(rows, scores, paradigm=pid, k=k, n=n, grid_step=grid_step,
                         t_max=t_max, cascaded=frozenset(cascaded))
        chosen = stratified_sample(result.kept, n=n, seed=seed, length_bins=length_bins, strata=strata)
        entry = {**result.to_dict(), "selected": chosen.height}
        if drop_invalid is not None:
            chosen, replaced = replace_invalid(result, chosen, set(drop_invalid), seed=seed, length_bins=length_bins,
                                               strata=strata, t_max=t_max)
            entry.update(replaced)
            entry["selected"] = chosen.height
        parts.append(chosen)
        entries.append(entry)
        if entry["message"]:
            short = entry["short_pool"] or entry.get("replacements", 0) < entry.get("dropped_invalid", 0)
            (log.warning if short else log.info)("curate %s: %d of n=%d pairs selected; %s", pid, entry["selected"],
                                                  n, entry["message"])
    if parts:
        benchmark = pl.concat(parts, how="vertical").sort("id")
    else:
        benchmark = df.clear().with_columns(pl.lit(None, pl.Float64).alias(MINK_MAX))
        if length_bins is not None:
            benchmark = benchmark.with_columns(pl.lit(None, pl.String).alias(LENGTH_BIN))
    report = {
        "k": int(k),
        "n": int(n),
        "seed": int(seed),
        "grid_step": grid_step,
        **({"t_max": t_max, "cascaded": sorted(cascaded)} if t_max is not None else {}),
        "length_bins": None if length_bins is None else list(length_bins),
        "models": list(scores.models),
        "selected": benchmark.height,
        "paradigms": entries,
    }
    return benchmark, report


# --------------------------------------------------------------------------- human validation


def replace_invalid(
    result: ThresholdResult,
    chosen: pl.DataFrame,
    invalid: set[str],
    *,
    seed: int,
    length_bins: Sequence[int | float] | None = DEFAULT_LENGTH_BINS,
    strata: Sequence[str] | None = None,
    t_max: float | None = None,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Drop the pairs of ``chosen`` judged invalid and refill from the pool so the size is kept.

    The other selected pairs stay.  Each dropped pair is replaced, in id order, by the
    unselected, not-invalid pair with the smallest seeded hash among the threshold's
    survivors of the same stratum (domain × length bin × feature values), else of any
    stratum; when the survivors run out, by the pairs with the next smallest Min-K%
    (the threshold rises to the last one taken, never beyond ``t_max``).  Returns the
    new selection and report fields ``dropped_invalid``, ``replacements``,
    ``threshold`` and ``message``.
    """
    dropped = chosen.filter(pl.col("id").is_in(list(invalid)))
    if dropped.height == 0:
        return chosen, {"dropped_invalid": 0, "replacements": 0}
    kept = chosen.filter(~pl.col("id").is_in(list(invalid)))
    taken = set(chosen["id"].to_list())
    cands = result.pairs.filter(
        ~pl.col("id").is_in(list(taken | invalid)) & pl.col(MINK_MAX).is_not_null()
    )
    if t_max is not None:
        cands = cands.filter(pl.col(MINK_MAX) <= t_max)
    if length_bins is not None:
        cands = assign_length_bins(cands, length_bins)
    keys = [c for c in DEFAULT_STRATA if c in cands.columns] if strata is None else list(strata)
    if length_bins is not None:
        keys.append(LENGTH_BIN)
    cands = cands.with_columns(
        pl.Series("__h", seeded_order(cands["id"].cast(pl.String).to_list(), seed)),
        (pl.col(MINK_MAX) <= (result.threshold if result.threshold is not None else -math.inf)).alias("__in"),
    ).sort([pl.col("__in").not_(), MINK_MAX, "__h", "id"])
    rows = cands.to_dicts()
    within = [r for r in rows if r["__in"]]
    within.sort(key=lambda r: (r["__h"], r["id"]))
    above = [r for r in rows if not r["__in"]]  # already sorted by Min-K%
    used: set[str] = set()
    picks: list[dict[str, Any]] = []

    def stratum(r: Mapping[str, Any]) -> tuple:
        return tuple("" if r.get(k) is None else str(r.get(k)) for k in keys)

    for d in dropped.sort("id").to_dicts():
        pick = next((r for r in within if r["id"] not in used and stratum(r) == stratum(d)), None)
        if pick is None:
            pick = next((r for r in within if r["id"] not in used), None)
        if pick is None:
            pick = next((r for r in above if r["id"] not in used), None)
        if pick is None:
            break
        used.add(pick["id"])
        picks.append(pick)
    threshold = result.threshold
    raised = [p[MINK_MAX] for p in picks if not p["__in"]]
    if raised:
        threshold = float(max(raised))
    cols = chosen.columns
    new = pl.DataFrame([{c: p.get(c) for c in cols} for p in picks], schema=chosen.schema) if picks else chosen.clear()
    out = pl.concat([kept, new], how="vertical").sort("id")
    short = dropped.height - len(picks)
    message = f"{dropped.height} pair(s) judged invalid by human validation replaced by {len(picks)}"
    if raised:
        message += f"; threshold raised to {threshold} to find them"
    if short:
        message += f"; {short} could not be replaced (pool exhausted)"
    info = {"dropped_invalid": dropped.height, "replacements": len(picks), "threshold": threshold,
            "message": "; ".join(m for m in (result.message, message) if m)}
    return out, info


# --------------------------------------------------------------------------- decontamination status

#: The report fields written by :func:`decontamination_status` (the export's dataset card reads them).
DECONTAMINATION_FIELDS = ("decontaminated", "decontamination_reason", "decontamination_check")


def decontamination_status(models: Sequence[str], check: Mapping[str, Any] | None,
                           source: str = "eval/demo_lm_check.json") -> dict[str, Any]:
    """Whether the benchmark curated with ``models`` may be called decontaminated.

    ``check`` is the demo-LM detection check (``demo_lm_check.json``: per model ``auroc``
    and ``detection_works``, whether Min-K% tells the model's training sentences from
    held-out ones).  Returns the report fields ``decontaminated`` (false when the check
    failed for any of ``models``: the threshold search then filtered on a score that does
    not detect training data), ``decontamination_reason`` (why not, else None) and
    ``decontamination_check`` (per checked model: ``detection_works`` and its AUROCs;
    models without a check, such as pretrained LMs whose training data is unknown, are
    listed under ``unchecked``).
    """
    checked = dict((check or {}).get("models") or {})
    per_model = {m: {"detection_works": bool(checked[m].get("detection_works")), "auroc": checked[m].get("auroc")}
                 for m in models if m in checked}
    failed = [m for m, c in per_model.items() if not c["detection_works"]]
    reason = None
    if failed:
        details = []
        for m in failed:
            auroc = per_model[m]["auroc"] or {}
            first = next((k for k in auroc if k.startswith("mink_")), None)
            details.append(f"{m!r} (AUROC {auroc.get(first)} for {first})" if first else repr(m))
        reason = (f"the demo-LM detection check failed for {', '.join(details)}: Min-K% does not tell the model's "
                  f"training sentences from held-out ones, so the threshold did not remove seen sentences ({source})")
    return {
        "decontaminated": not failed,
        "decontamination_reason": reason,
        "decontamination_check": {"models": per_model, "unchecked": [m for m in models if m not in per_model],
                                  "source": source if per_model else None},
    }
