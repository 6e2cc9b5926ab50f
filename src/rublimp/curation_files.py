"""Curating a pool file in memory that does not grow with the pool (the ``curate`` rule).

:func:`rublimp.curation.curate` takes the pool as a DataFrame.  :func:`curate_file` takes the pool's
Parquet file and gives the same benchmark and report (tested against :func:`~rublimp.curation.curate`),
while the job holds only numbers per pair: 64-bit keys of its grammatical sentence and of its id, small
integer codes of its paradigm, stratum and length bin, its ``mink_max``, and its seeded sampling hash
(:func:`~rublimp.curation.seeded_order`), computed only for the pairs the sampling orders.  The pool and
every model's scores table are read :data:`SLICE_ROWS` rows at a time; ids and full rows are read back
only for the pairs that need them.  So the job holds the interpreter, one slice of a file and under 100
bytes per pool pair (35 MB at ``perturb.pool_cap`` = 350,000 pairs), never the pool's text.

The arithmetic is the reference's: the threshold from :func:`~rublimp.curation.search_sorted`, the
quotas per stratum from :func:`~rublimp.curation.stratum_quotas`, then inside a stratum the rows with
the smallest seeded hash, the replacements of pairs judged invalid in the order of
:func:`~rublimp.curation.replace_invalid`.  Where that order would need the ids themselves (two ids
with the same 64-bit hash, so also a duplicated id), and for any input the reference rejects (a null
id, sentence or paradigm, a sentence without a score, conflicting scores, a null ``n_tokens`` to bin,
ids or a stratification column that are not text), the pool is handed to the reference instead
(:func:`~rublimp.curation.compact_pool` and :func:`~rublimp.curation.curate`), which then gives its
usual result or error; the log says so.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
import polars as pl

from rublimp.curation import (
    DEFAULT_STRATA,
    LENGTH_BIN,
    MINK_MAX,
    bin_labels,
    check_cascade,
    check_k_n,
    compact_pool,
    curate,
    file_schema,
    search_sorted,
    seeded_order,
    sentence_key,
    stratum_quotas,
)
from rublimp.io import InputError

log = logging.getLogger("rublimp")

__all__ = ["SLICE_ROWS", "curate_file", "file_slices"]

#: Rows read at a time from a pool or scores file.
SLICE_ROWS = 20_000
_TEXT = (pl.String, pl.Categorical, pl.Enum)


class _Reference(Exception):
    """The pool needs the reference path (see the module docstring); the message says why."""


def file_slices(path: str, columns: Sequence[str | pl.Expr], what: str,
                rows: int | None = None) -> Iterator[pl.DataFrame]:
    """``columns`` (names or expressions over the file's columns) of the Parquet file ``path``, ``rows``
    (default :data:`SLICE_ROWS`) rows at a time, in file order."""
    rows = rows or SLICE_ROWS
    try:
        total = _row_count(path, what)
        frame = pl.scan_parquet(path).select(list(columns))
        for start in range(0, total, rows):
            yield frame.slice(start, rows).collect()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {what} as Parquet: {exc}", path) from exc


def _row_count(path: str, what: str = "pool") -> int:
    try:
        return int(pl.scan_parquet(path).select(pl.len()).collect().item())
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read {what} as Parquet: {exc}", path) from exc


@dataclass
class _Pairs:
    """One number per pair and column, pairs in file order (excluded ones left out).

    ``row``: the pair's row in the pool file; ``pid``/``group``: codes into ``pids`` (paradigms) and
    ``groups`` (stratification values); ``lbin``: length bin (-1: null ``n_tokens``); ``key``: a 64-bit
    hash of the grammatical sentence; ``invalid``: judged invalid by human validation; ``order``: the
    seeded sampling hashes computed so far, by position; ``excluded``: per paradigm the count of pairs
    left out and the models named.
    """

    row: np.ndarray
    pid: np.ndarray
    key: np.ndarray
    group: np.ndarray
    lbin: np.ndarray
    invalid: np.ndarray
    pids: list[str]
    groups: list[tuple[str, ...]]
    excluded: dict[str, tuple[int, set[str]]] = field(default_factory=dict)
    order: dict[int, int] = field(default_factory=dict)


def _codes(df: pl.DataFrame, columns: Sequence[str], table: dict[tuple[str, ...], int]) -> np.ndarray:
    """A code per row of ``df`` for its values of ``columns`` (text, null as ""), from and into ``table``."""
    if not columns:
        return np.full(df.height, table.setdefault((), len(table)), dtype=np.int32)
    keys = df.select([pl.col(c).cast(pl.String).fill_null("") for c in columns])
    distinct = keys.unique(maintain_order=True)
    codes = [table.setdefault(tuple(row), len(table)) for row in distinct.iter_rows()]
    coded = distinct.with_columns(pl.Series("__code", codes, dtype=pl.Int32))
    return keys.join(coded, on=list(columns), how="left", maintain_order="left")["__code"].to_numpy()


def _read_pairs(path: str, schema: Mapping[str, Any], *, seed: int, strata: Sequence[str], edges: np.ndarray | None,
                exclude: pl.DataFrame | None, invalid: set[str]) -> _Pairs:
    for col in strata:
        if not isinstance(schema[col], _TEXT):
            raise _Reference(f"stratification column {col!r} is {schema[col]}, not text")
    need_ids = bool(invalid) or (exclude is not None and exclude.height > 0)
    # the text is hashed inside the query: a slice's sentences never reach a DataFrame (reading them kept
    # fragments of every slice's text buffers and grew the job's memory with the number of slices)
    read = [sentence_key(pl.col("source_sentence")).alias("__key"), sentence_key(pl.col("id")).alias("__idkey"),
            pl.col("PID").cast(pl.String), *([pl.col("id").cast(pl.String)] if need_ids else []),
            *(["n_tokens"] if edges is not None else []), *strata]
    total = _row_count(path)
    out = {k: np.zeros(total, dtype=t) for k, t in (("row", np.int32), ("pid", np.int32), ("key", np.uint64),
                                                    ("group", np.int32), ("lbin", np.int16), ("invalid", bool))}
    idkey = np.zeros(total, dtype=np.uint64)  # for the duplicate check only
    filled = 0
    pid_codes: dict[tuple[str, ...], int] = {}
    group_codes: dict[tuple[str, ...], int] = {}
    excluded: dict[str, tuple[int, set[str]]] = {}
    offset = 0
    for df in file_slices(path, read, "pool"):
        height = df.height
        df = df.with_columns(pl.int_range(offset, offset + height, dtype=pl.Int64).alias("__row"))
        offset += height
        if exclude is not None and exclude.height:
            hit = df.select("PID", "id", "__row").join(exclude, on=["PID", "id"], how="inner")
            for (pid,), g in hit.group_by(["PID"], maintain_order=True):
                count, models = excluded.get(str(pid), (0, set()))
                excluded[str(pid)] = (count + g.height, models | {m for ms in g["models"] for m in ms.split(", ")})
            df = df.join(hit.select("__row"), on="__row", how="anti", maintain_order="left")
        for col, name in (("__idkey", "id"), ("__key", "source_sentence"), ("PID", "PID")):
            if df[col].null_count():
                raise _Reference(f"null values in column {name!r}")
        part = slice(filled, filled + df.height)
        filled += df.height
        out["row"][part] = df["__row"].to_numpy()
        out["pid"][part] = _codes(df, ["PID"], pid_codes)
        out["key"][part] = df["__key"].to_numpy()
        idkey[part] = df["__idkey"].to_numpy()
        out["group"][part] = _codes(df, strata, group_codes)
        if edges is not None:
            tokens = df["n_tokens"].cast(pl.Float64).to_numpy()
            lbin = np.searchsorted(edges, tokens, side="right").astype(np.int16)
            lbin[np.isnan(tokens)] = -1
            out["lbin"][part] = lbin
        if invalid:
            out["invalid"][part] = df["id"].is_in(pl.Series(sorted(invalid), dtype=pl.String).implode()).to_numpy()
    if not _distinct(idkey[:filled]):
        raise _Reference("two ids share a hash (or an id is duplicated)")
    del idkey
    arrays = {k: v[:filled] for k, v in out.items()}
    return _Pairs(**arrays, pids=[p for (p,) in pid_codes], groups=list(group_codes), excluded=excluded)


def _distinct(values: np.ndarray) -> bool:
    ordered = np.sort(values)
    return not bool((ordered[1:] == ordered[:-1]).any())


def _known_order(path: str, pairs: _Pairs, positions: np.ndarray, seed: int) -> np.ndarray:
    """The seeded sampling hash of the pairs at ``positions`` (their ids read back from the pool file once)."""
    todo = [int(i) for i in positions if int(i) not in pairs.order]
    if todo:
        rows = pairs.row[todo]
        ids = _ids_of(path, rows)
        pairs.order.update(zip(todo, seeded_order([ids[int(r)] for r in rows], seed).tolist()))
    order = np.fromiter((pairs.order[int(i)] for i in positions), dtype=np.uint64, count=positions.size)
    if not _distinct(order):
        raise _Reference("two ids share a sampling hash")
    return order


def _model_scores(table: str | os.PathLike | pl.DataFrame, column: str, what: str,
                  keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the sorted unique sentence ``keys``: (present, value) arrays of one model (NaN: a null score)."""
    if isinstance(table, pl.DataFrame):
        missing = [c for c in ("sentence", column) if c not in table.columns]
        if missing:
            raise InputError(f"{what} lacks column(s) {missing}; it has {table.columns}")
        frames: Iterator[pl.DataFrame] = iter(table.select(sentence_key(pl.col("sentence")), column)
                                              .iter_slices(SLICE_ROWS))
    else:
        path = str(table)
        file_schema(path, ["sentence", column], what)
        frames = file_slices(path, [sentence_key(pl.col("sentence")), column], what)
    present = np.zeros(keys.size, dtype=bool)
    values = np.full(keys.size, np.nan)

    def same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return (a == b) | (np.isnan(a) & np.isnan(b))

    for df in frames:
        part = df.select("sentence", pl.col(column).cast(pl.Float64)).drop_nulls("sentence")
        by_key = np.argsort(k := part["sentence"].to_numpy(), kind="stable")  # sorted queries search fast
        k = k[by_key]
        pos = np.minimum(np.searchsorted(keys, k), max(keys.size - 1, 0))
        hit = keys[pos] == k if keys.size else np.zeros(k.size, dtype=bool)
        if not hit.any():
            continue
        pos = pos[hit]  # sorted, so a sentence's repeats in this slice are neighbours
        v = part[column].fill_null(np.nan).to_numpy()[by_key][hit]
        repeat = pos[1:] == pos[:-1]
        seen = present[pos]
        if not (same(v[1:][repeat], v[:-1][repeat]).all() and same(v[seen], values[pos[seen]]).all()):
            raise _Reference(f"{what}: conflicting {column} values for one sentence")
        present[pos] = True
        values[pos] = v
    return present, values


def _mink_max(pairs: _Pairs, models: Sequence[str], scores: Mapping[str, Any], column: str,
              optional: set[int], t_max: float | None) -> np.ndarray:
    """Per pair: the max over models of Min-K% (NaN: a model gave null), as ``curation._attach_mink_max``.

    Computed once per distinct sentence, then spread to its pairs."""
    keys = np.sort(pairs.key)
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])] if keys.size else keys
    if len(models) == 1:
        # one model (the common case): its score is the max, and every sentence needs one; no
        # per-key counters (they would add ~30 bytes per sentence to the job's peak)
        present, per_key = _model_scores(scores[models[0]], column, f"scores of model {models[0]!r}", keys)
        if not present.all():
            raise _Reference("a grammatical sentence has no score")
        del present
        return per_key[np.searchsorted(keys, pairs.key)]
    count = np.zeros(keys.size, dtype=np.int16)  # (models per run: a handful)
    required = np.zeros(keys.size, dtype=np.int16)
    nulls = np.zeros(keys.size, dtype=np.int16)
    top = np.full(keys.size, -np.inf)
    for i, model in enumerate(models):
        p, v = _model_scores(scores[model], column, f"scores of model {model!r}", keys)
        count += p
        if i not in optional:
            required += p
        nulls += p & np.isnan(v)
        top = np.where(p & ~np.isnan(v), np.fmax(top, v), top)
        del p, v
    complete = count == len(models)
    if optional:
        top_or_null = np.where(np.isinf(top), np.nan, top)
        complete |= (count > 0) & (required == len(models) - len(optional)) & (
            (nulls > 0) | (top_or_null > (t_max or 0.0)))
    if not complete.all():
        raise _Reference("a grammatical sentence has no score")
    per_key = np.where(nulls == 0, top, np.nan)
    del count, required, nulls, top, complete
    return per_key[np.searchsorted(keys, pairs.key)]


def _sample(path: str, idx: np.ndarray, pairs: _Pairs, n: int, seed: int, labels: list[str] | None) -> np.ndarray:
    """The rows of ``idx`` (pair positions) that :func:`~rublimp.curation.stratified_sample` keeps."""
    if n >= idx.size:
        return idx
    order = _known_order(path, pairs, idx, seed)
    nb = len(labels) if labels is not None else 1
    code = pairs.group[idx].astype(np.int64) * (nb + 1) + pairs.lbin[idx]
    uniq, inverse, sizes = np.unique(code, return_inverse=True, return_counts=True)
    names = [pairs.groups[int(c) // (nb + 1)] + ((labels[int(c) % (nb + 1)],) if labels is not None else ())
             for c in uniq]
    by_name = sorted(range(uniq.size), key=lambda j: names[j])
    quotas = np.zeros(uniq.size, dtype=np.int64)
    quotas[by_name] = stratum_quotas([names[j] for j in by_name], [int(sizes[j]) for j in by_name], n, seed)
    ranked = idx[np.lexsort((order, inverse))]
    stratum = np.sort(inverse)
    starts = np.searchsorted(stratum, np.arange(uniq.size))
    rank = np.arange(ranked.size) - starts[stratum]
    return ranked[rank < quotas[stratum]]


def _replace(path: str, chosen: np.ndarray, idx: np.ndarray, pairs: _Pairs, mink: np.ndarray, seed: int,
             threshold: float | None, t_max: float | None, message: str) -> tuple[np.ndarray, dict[str, Any]]:
    """:func:`~rublimp.curation.replace_invalid` on positions."""
    bad = chosen[pairs.invalid[chosen]]
    if bad.size == 0:
        return chosen, {"dropped_invalid": 0, "replacements": 0}
    bad_ids = _ids_of(path, pairs.row[bad])
    taken = np.zeros(pairs.row.size, dtype=bool)
    taken[chosen] = True
    cands = idx[~taken[idx] & ~pairs.invalid[idx] & ~np.isnan(mink[idx])]
    if t_max is not None:
        cands = cands[mink[cands] <= t_max]
    if (pairs.lbin[cands] < 0).any():
        raise _Reference("null n_tokens among the replacement candidates")
    order = _known_order(path, pairs, cands, seed)
    inside = mink[cands] <= (threshold if threshold is not None else -np.inf)
    within = cands[inside][np.argsort(order[inside], kind="stable")]
    outside = cands[~inside]
    above = outside[np.lexsort((order[~inside], mink[outside]))]
    used_w = np.zeros(within.size, dtype=bool)
    used_a = np.zeros(above.size, dtype=bool)
    picks: list[int] = []
    raised: list[float] = []
    for d in sorted(bad.tolist(), key=lambda i: bad_ids[int(pairs.row[i])]):
        same = (pairs.group[within] == pairs.group[d]) & (pairs.lbin[within] == pairs.lbin[d]) & ~used_w
        hit = np.flatnonzero(same)
        if not hit.size:
            hit = np.flatnonzero(~used_w)
        if hit.size:
            used_w[hit[0]] = True
            picks.append(int(within[hit[0]]))
            continue
        hit = np.flatnonzero(~used_a)
        if not hit.size:
            break
        used_a[hit[0]] = True
        picks.append(int(above[hit[0]]))
        raised.append(float(mink[above[hit[0]]]))
    if raised:
        threshold = max(raised)
    kept = chosen[~pairs.invalid[chosen]]
    note = f"{bad.size} pair(s) judged invalid by human validation replaced by {len(picks)}"
    if raised:
        note += f"; threshold raised to {threshold} to find them"
    if bad.size - len(picks):
        note += f"; {bad.size - len(picks)} could not be replaced (pool exhausted)"
    info = {"dropped_invalid": int(bad.size), "replacements": len(picks), "threshold": threshold,
            "message": "; ".join(m for m in (message, note) if m)}
    return np.concatenate([kept, np.asarray(picks, dtype=np.int64)]), info


def _ids_of(path: str, rows: np.ndarray) -> dict[int, str]:
    """The ids of the pool file's ``rows``, by row (the id column read a slice at a time)."""
    wanted = np.unique(rows)
    out: dict[int, str] = {}
    offset = 0
    for df in file_slices(path, ["id"], "pool"):
        lo, hi = np.searchsorted(wanted, [offset, offset + df.height])
        if hi > lo:
            got = df["id"].cast(pl.String).gather((wanted[lo:hi] - offset).tolist()).to_list()
            out.update(zip(wanted[lo:hi].tolist(), got))
        offset += df.height
    return out


def _full_rows(path: str, schema: Mapping[str, Any], rows: np.ndarray, mink: np.ndarray,
               labels: np.ndarray | None) -> pl.DataFrame:
    """The pool file's ``rows`` with every column, then ``mink_max`` (and ``length_bin``), sorted by id.

    The rows' ids are read back (:func:`_ids_of`), then :func:`_with_pool_rows` reads the rows."""
    ids = _ids_of(path, rows)
    added = pl.DataFrame({"__id": [ids[int(r)] for r in rows], MINK_MAX: pl.Series(mink, dtype=pl.Float64)},
                         schema={"__id": pl.String, MINK_MAX: pl.Float64})
    if labels is not None:
        added = added.with_columns(pl.Series(LENGTH_BIN, labels, dtype=pl.String))
    return _with_pool_rows(path, schema, added.with_columns(pl.col(MINK_MAX).fill_nan(None)))


def _with_pool_rows(path: str, schema: Mapping[str, Any], added: pl.DataFrame) -> pl.DataFrame:
    """The pool rows whose id (as text) is one of ``added["__id"]`` (distinct), every column in the pool's
    order, then ``added``'s other columns; sorted by id.  One query filters the file on the ids, so
    Polars decodes the other columns only for the matching rows."""
    try:
        full = pl.scan_parquet(path).filter(pl.col("id").cast(pl.String).is_in(added["__id"].implode())).collect()
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputError(f"cannot read pool as Parquet: {exc}", path) from exc
    if full.height != added.height:
        raise InputError(f"{added.height} pairs selected but {full.height} found in the pool again", path)
    full = full.with_columns(pl.col("id").cast(pl.String).alias("__id"))
    return full.join(added, on="__id", how="inner").drop("__id").sort("id").select(*schema, *added.columns[1:])


def _exclude(df: pl.DataFrame, exclude: pl.DataFrame | None) -> tuple[pl.DataFrame, dict[str, tuple[int, set[str]]]]:
    """The reference's exclusion of too-long pairs on a compact pool."""
    gone: dict[str, tuple[int, set[str]]] = {}
    if exclude is None or not exclude.height or not df.height:
        return df, gone
    keyed = df.with_columns(pl.col("id").cast(pl.String).alias("__id"))
    hit = keyed.join(exclude.rename({"id": "__id"}), on=["PID", "__id"], how="inner")
    for (pid,), g in hit.group_by(["PID"], maintain_order=True):
        gone[str(pid)] = (g.height, {m for ms in g["models"].to_list() for m in ms.split(", ")})
    return keyed.join(exclude.rename({"id": "__id"}), on=["PID", "__id"], how="anti").drop("__id"), gone


def _reference(path: str, schema: Mapping[str, Any], scores: Mapping[str, Any], k: int, strata_cols: Sequence[str],
               exclude: pl.DataFrame | None, options: dict[str, Any]) -> tuple[pl.DataFrame, dict, dict]:
    """:func:`~rublimp.curation.curate` on the compact pool, the full rows of its selection."""
    df, scores_by_model = compact_pool(path, scores, k, columns=["id", "source_sentence", "PID", "n_tokens",
                                                                 *strata_cols])
    df, gone = _exclude(df, exclude)
    bench, report = curate(df, scores_by_model, k=k, **options)
    added = bench.select(pl.col("id").cast(pl.String).alias("__id"), *[c for c in bench.columns if c not in schema])
    return _with_pool_rows(path, schema, added), report, gone


def curate_file(
    pool: str | os.PathLike,
    scores_by_model: Mapping[str, str | os.PathLike | pl.DataFrame],
    *,
    k: int,
    n: int,
    seed: int,
    length_bins: Sequence[int | float] | None,
    grid_step: float | None = None,
    t_max: float | None = None,
    cascaded: Sequence[str] = (),
    drop_invalid: Sequence[str] | None = None,
    exclude: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, dict[str, Any], dict[str, tuple[int, set[str]]]]:
    """:func:`rublimp.curation.curate` of the pool file ``pool``, in memory bounded by the pool's row count.

    ``exclude`` (``PID``, ``id``, ``models``: :func:`rublimp.pool_exclusions.too_long_ids`) lists pairs that
    leave the pool first.  Returns ``(benchmark, report, excluded)``: the benchmark with every pool
    column of the selected pairs, then ``mink_max`` and ``length_bin``, sorted by id; the report of
    :func:`~rublimp.curation.curate`; and per paradigm the number of pairs excluded and the models named.
    """
    check_k_n(k, n)
    check_cascade(t_max, cascaded)
    if not scores_by_model:
        raise InputError("scores_by_model is empty: at least one model's scores are needed")
    path = str(pool)
    schema = file_schema(path, ["id", "source_sentence", "PID", *(["n_tokens"] if length_bins is not None else [])],
                         "pool")
    edges = None
    if length_bins is not None:
        edges = np.asarray(list(length_bins), dtype=float)
        if edges.size < 2 or (np.diff(edges) <= 0).any():
            raise InputError(f"config key 'length_bins' must be ≥ 2 strictly increasing edges, got {list(length_bins)}")
    strata = [c for c in DEFAULT_STRATA if c in schema]
    models = sorted(scores_by_model)
    options = dict(n=n, seed=seed, length_bins=length_bins, grid_step=grid_step, t_max=t_max,
                   cascaded=tuple(cascaded), drop_invalid=drop_invalid)
    try:
        if schema["id"] != pl.String:
            raise _Reference(f"ids are {schema['id']}, not text")
        if MINK_MAX in schema or LENGTH_BIN in schema:
            raise _Reference(f"the pool has a column named {MINK_MAX!r} or {LENGTH_BIN!r}")
        pairs = _read_pairs(path, schema, seed=seed, strata=strata, edges=edges, exclude=exclude,
                            invalid=set(drop_invalid or ()))
        optional = {i for i, m in enumerate(models) if m in set(cascaded)} if t_max is not None else set()
        mink = _mink_max(pairs, models, scores_by_model, f"mink_{k}", optional, t_max)
        labels = bin_labels(list(length_bins)) if length_bins is not None else None
        parts: list[np.ndarray] = []
        entries: list[dict[str, Any]] = []
        for pid in sorted(pairs.pids):
            idx = np.flatnonzero(pairs.pid == pairs.pids.index(pid))
            values = np.sort(mink[idx][~np.isnan(mink[idx])])
            threshold, survivors, short, message = search_sorted(values, idx.size, n=n, grid_step=grid_step,
                                                                 t_max=t_max)
            kept = idx[mink[idx] <= threshold] if threshold is not None else idx[:0]
            if labels is not None and (pairs.lbin[kept] < 0).any():
                raise _Reference("null n_tokens among the survivors")
            chosen = _sample(path, kept, pairs, n, seed, labels)
            entry = {"paradigm": pid, "k": int(k), "n": int(n), "models": list(models), "threshold": threshold,
                     "pool": int(idx.size), "scored": int(values.size), "survivors": survivors, "short_pool": short,
                     "message": message, "selected": int(chosen.size)}
            if drop_invalid is not None:
                chosen, replaced = _replace(path, chosen, idx, pairs, mink, seed, threshold, t_max, message)
                entry.update(replaced)
                entry["selected"] = int(chosen.size)
            parts.append(chosen)
            entries.append(entry)
            if entry["message"]:
                short_now = entry["short_pool"] or entry.get("replacements", 0) < entry.get("dropped_invalid", 0)
                (log.warning if short_now else log.info)("curate %s: %d of n=%d pairs selected; %s", pid,
                                                         entry["selected"], n, entry["message"])
    except _Reference as why:
        log.info("curate %s: the reference curation reads this pool (%s)", path, why)
        return _reference(path, schema, scores_by_model, k, strata, exclude, options)
    chosen = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    lab = np.asarray(labels, dtype=object)[pairs.lbin[chosen]] if labels is not None else None
    bench = _full_rows(path, schema, pairs.row[chosen], mink[chosen], lab)
    report = {
        "k": int(k), "n": int(n), "seed": int(seed), "grid_step": grid_step,
        **({"t_max": t_max, "cascaded": sorted(cascaded)} if t_max is not None else {}),
        "length_bins": None if length_bins is None else list(length_bins),
        "models": list(models), "selected": bench.height, "paradigms": entries,
    }
    return bench, report, pairs.excluded
