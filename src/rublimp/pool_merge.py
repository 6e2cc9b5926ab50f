"""A paradigm's pool merged from its partial pools with memory bounded independently of the pool size.

The rule ``perturb`` (rules/perturb.smk) runs :func:`pool_stage`: it finds (or computes) the
paradigm's partial pool of every shard in the cache (:func:`rublimp.pools.perturb_shard`), then
writes the pool with :func:`merge_partials_to`, which never holds the pool in memory:

1. The cut-off sampling key is found from the ``_k`` columns alone (:func:`cutoff`: a running
   set of at most ``2 * pool_cap`` keys plus one partial pool's keys).
2. The partial pools are read one at a time, filtered to the rows kept, and gathered into *runs*
   of about ``run_rows`` rows; each run is sorted by id and spilled to a temporary Parquet file
   in row groups of ``row_group_rows`` rows.
3. The runs are merged by id a batch at a time (each run read back with
   :meth:`pyarrow.parquet.ParquetFile.iter_batches`), and the pool is written by a
   :class:`pyarrow.parquet.ParquetWriter` in row groups of exactly ``row_group_rows`` rows (the
   last one shorter). A pool that fits in one run skips the spill.

Peak memory: one partial pool (bounded by the shard size), one run, and one batch per run.
The rows and their order are those of :func:`rublimp.pools.merge_partials` (the in-memory
reference, still used for a shard pass's own batches): the ``pool_cap`` rows of smallest key,
sorted by id. Where rows tie at the cut-off key (only rows with the same id share a key), the
tied rows of the earliest partial pools in ``paths`` order are kept, and rows with one id keep
that order too. The file layout (row groups) depends only on the rows and ``row_group_rows``,
never on ``run_rows``, so the same config and seed give the same bytes.

This module is not imported by the shard pass (rublimp.stages.perturb_shard_stage), so it is
not part of the partial pools' cache keys: editing it reruns the merges only.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl

from .io import atomic_path
from .pools import ParadigmInputs, partial_path, partial_schema, perturb_shard, prune_partials

log = logging.getLogger("rublimp")

__all__ = ["cutoff", "merge_partials_to", "merge_pool", "pool_stage", "RUN_ROWS", "ROW_GROUP_ROWS"]

#: Rows gathered and sorted in memory at once before they are spilled as a sorted run.
RUN_ROWS = 50_000
#: Rows per row group of a merged pool, and per batch read back from a run.
ROW_GROUP_ROWS = 10_000


def cutoff(paths: Sequence[str | os.PathLike], pool_cap: int) -> tuple[str | None, int]:
    """``(key, below)``: the ``pool_cap``-th smallest sampling key ``_k`` over the partial pools
    ``paths`` and how many rows have a key strictly below it; ``(None, 0)`` when every row is kept
    (``pool_cap`` 0, or ``pool_cap`` rows or fewer in all).

    Reads only the ``_k`` column, one partial pool at a time.
    """
    if not pool_cap:
        return None, 0
    keys = pl.Series("_k", [], dtype=pl.String)
    total = 0
    for p in paths:
        part = pl.read_parquet(p, columns=["_k"])["_k"]
        total += part.len()
        keys = pl.concat([keys, part])
        if keys.len() > 2 * pool_cap:
            keys = keys.sort().head(pool_cap)
    if total <= pool_cap:
        return None, 0
    # every key below the cut-off is among the pool_cap smallest, so they are counted here
    smallest = keys.sort().head(pool_cap)
    key = smallest[pool_cap - 1]
    return key, int((smallest < key).sum())


def _arrow_schema(keep_key: bool):
    schema = dict(partial_schema())
    if not keep_key:
        schema.pop("_k")
    return pl.DataFrame(schema=schema).to_arrow().schema


class _RowGroupWriter:
    """Writes sorted frames to a ParquetWriter in row groups of exactly ``rows`` rows."""

    def __init__(self, path: Path, schema, rows: int):
        import pyarrow.parquet as pq

        self.schema, self.rows = schema, rows
        self.writer = pq.ParquetWriter(str(path), schema, compression="zstd", write_statistics=False)
        self.pending: list[pl.DataFrame] = []
        self.n_pending = 0
        self.written = 0

    def add(self, df: pl.DataFrame) -> None:
        if df.height:
            self.pending.append(df)
            self.n_pending += df.height
        while self.n_pending >= self.rows:
            self._flush(self.rows)

    def _flush(self, n: int) -> None:
        buf = pl.concat(self.pending, how="vertical", rechunk=False) if len(self.pending) > 1 else self.pending[0]
        head, rest = buf.head(n), buf.slice(n)
        self.writer.write_table(head.to_arrow().cast(self.schema), row_group_size=n)
        self.written += head.height
        self.pending = [rest] if rest.height else []
        self.n_pending = rest.height

    def close(self) -> int:
        if self.n_pending:
            self._flush(self.n_pending)
        if not self.written:  # an empty pool still has the pool's columns
            self.writer.write_table(self.schema.empty_table())
        self.writer.close()
        return self.written


def _kept_rows(path, key: str | None, quota: list[int]) -> pl.DataFrame:
    """One partial pool's rows at or below the cut-off ``key``; ``quota[0]``: tied rows still to keep."""
    df = pl.read_parquet(path)
    if key is None:
        return df
    below = df.filter(pl.col("_k") < key)
    tied = df.filter(pl.col("_k") == key).head(quota[0])
    quota[0] -= tied.height
    return pl.concat([below, tied], how="vertical") if tied.height else below


def _merge_runs(runs: Sequence[Path], out: _RowGroupWriter, batch_rows: int) -> None:
    """K-way merge by id of sorted runs, one batch of each in memory; equal ids keep run order."""
    import pyarrow.parquet as pq

    sources = [pq.ParquetFile(str(r)).iter_batches(batch_size=batch_rows) for r in runs]
    buffers: list[pl.DataFrame | None] = [None] * len(runs)

    def refill(i: int) -> None:
        while buffers[i] is None or not buffers[i].height:
            batch = next(sources[i], None)
            if batch is None:
                buffers[i] = None
                return
            buffers[i] = pl.from_arrow(batch)

    for i in range(len(runs)):
        refill(i)
    while True:
        active = [i for i in range(len(runs)) if buffers[i] is not None]
        if not active:
            return
        # every row up to the smallest last id of the buffers can be written: no run holds a
        # smaller id further on
        bound = min(buffers[i]["id"][-1] for i in active)
        pieces = []
        for i in active:
            n = int(buffers[i]["id"].search_sorted(bound, side="right"))
            if n:
                pieces.append(buffers[i].head(n))
                buffers[i] = buffers[i].slice(n)
                if not buffers[i].height:
                    refill(i)
        chunk = pl.concat(pieces, how="vertical") if len(pieces) > 1 else pieces[0]
        out.add(chunk.sort("id", maintain_order=True))


def merge_partials_to(
    paths: Sequence[str | os.PathLike],
    pool_cap: int,
    out_parquet: str | os.PathLike,
    *,
    keep_key: bool = False,
    run_rows: int = RUN_ROWS,
    row_group_rows: int = ROW_GROUP_ROWS,
) -> int:
    """Write the rows of smallest ``_k`` (at most ``pool_cap``; 0: all) of the partial pools
    ``paths``, sorted by id, to ``out_parquet`` (atomically); returns the number of rows written.

    Memory is bounded by one partial pool, ``run_rows`` rows and one batch of ``row_group_rows``
    rows per spilled run, whatever the pool's size (see the module's docstring).
    """
    if run_rows < 1 or row_group_rows < 1:
        raise ValueError(f"merge_partials_to: run_rows ({run_rows}) and row_group_rows ({row_group_rows}) must be >= 1")
    key, below = cutoff(paths, pool_cap)
    quota = [pool_cap - below if key is not None else 0]
    schema = _arrow_schema(keep_key)
    out_path = Path(out_parquet)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    spill = Path(tempfile.mkdtemp(prefix=".merge_", dir=out_path.parent))
    try:
        runs: list[Path] = []
        gathered: list[pl.DataFrame] = []
        n_gathered = 0

        def sorted_run() -> pl.DataFrame:
            df = pl.concat(gathered, how="vertical") if len(gathered) > 1 else gathered[0]
            df = df.sort("id", maintain_order=True)
            return df if keep_key else df.drop("_k")

        for p in paths:
            part = _kept_rows(p, key, quota)
            if part.height:
                gathered.append(part)
                n_gathered += part.height
            if n_gathered >= run_rows:
                run = spill / f"run_{len(runs):05d}.parquet"
                sorted_run().write_parquet(run, compression="lz4", statistics=False, row_group_size=row_group_rows)
                runs.append(run)
                gathered, n_gathered = [], 0
        with atomic_path(out_path) as tmp:
            writer = _RowGroupWriter(Path(tmp), schema, row_group_rows)
            try:
                if not runs:  # the whole pool fits in one run: no spill
                    if gathered:
                        writer.add(sorted_run())
                else:
                    if gathered:
                        run = spill / f"run_{len(runs):05d}.parquet"
                        sorted_run().write_parquet(run, compression="lz4", statistics=False,
                                                   row_group_size=row_group_rows)
                        runs.append(run)
                    gathered = []
                    _merge_runs(runs, writer, row_group_rows)
            finally:
                n = writer.close()
        return n
    finally:
        shutil.rmtree(spill, ignore_errors=True)


def merge_pool(
    paradigm: ParadigmInputs,
    shards: Sequence[str | os.PathLike],
    cache_dir: str | os.PathLike,
    out_parquet: str | os.PathLike,
    *,
    verdicts: str | os.PathLike | None = None,
    seed: int = 0,
    pairs_per_sentence: int = 1,
    pool_cap: int = 350_000,
    prune: bool = True,
    run_rows: int = RUN_ROWS,
    row_group_rows: int = ROW_GROUP_ROWS,
) -> dict[str, int]:
    """Write ``paradigm``'s pool from its partial pools of all ``shards`` (computing any missing
    from the cache, one shard at a time) with :func:`merge_partials_to`; with ``prune``, then
    delete the paradigm's cached partial pools this merge did not read (counted in the log).
    Same contract and return value as :func:`rublimp.pools.merge_pool`, which holds the pool in
    memory: ``{"pairs", "reused", "computed", "pruned"}``."""
    paths, computed = [], 0
    for shard in shards:
        info = perturb_shard(shard, [paradigm], cache_dir, verdicts=verdicts, seed=seed,
                             pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap, quiet=True)
        computed += info["computed"]
        paths.append(partial_path(cache_dir, paradigm.name, info["keys"][paradigm.name]))
    pairs = merge_partials_to(paths, pool_cap, out_parquet, run_rows=run_rows, row_group_rows=row_group_rows)
    out = {"pairs": pairs, "reused": len(shards) - computed, "computed": computed, "pruned": 0}
    log.info("perturb: %s: %d pairs from %d shards (%d partial pools cached, %d computed here)",
             paradigm.name, pairs, len(shards), out["reused"], computed)
    if prune:
        out["pruned"], size = prune_partials(cache_dir, paradigm.name, {Path(p).stem for p in paths})
        log.info("perturb: %s: pruned %d stale partial pool(s) from the cache (%.1f MB)",
                 paradigm.name, out["pruned"], size / 1e6)
    return out


def pool_stage(
    shards: Sequence[str | os.PathLike],
    paradigm: str,
    inputs: Mapping[str, Any],
    cache_dir: str | os.PathLike,
    out_parquet: str | os.PathLike,
    *,
    verdicts: str | os.PathLike | None = None,
    pool_cap: int = 350_000,
    pairs_per_sentence: int = 1,
    seed: int = 0,
) -> dict:
    """Rule ``perturb``: one paradigm's pool from its cached partial pools of every shard (:func:`merge_pool`)."""
    return merge_pool(ParadigmInputs.from_mapping(paradigm, inputs), shards, cache_dir, out_parquet,
                      verdicts=verdicts, seed=seed, pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap)
