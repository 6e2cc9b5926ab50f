"""A paradigm's pool merged from its partial pools with memory bounded independently of the pool size.

The rule ``perturb`` (rules/perturb.smk) runs :func:`pool_stage`: it finds (or computes) the
paradigm's partial pool of every shard in the cache (:func:`rublimp.pools.perturb_shard`), then
writes the pool with :func:`merge_partials_to`, which never holds the pool in memory:

1. The cut-off sampling key is found from the ``_k`` columns alone (:func:`cutoff`: a running
   set of at most ``2 * pool_cap`` 64-bit key prefixes plus one partial pool's).
2. The partial pools are read one at a time, filtered to the rows kept, and gathered into *runs*
   of about ``run_rows`` rows; each run is sorted by id and spilled to temporary Parquet files
   (chunks) of ``run_rows / number of runs`` rows each (at least :data:`MIN_CHUNK_ROWS`).
3. The runs are merged by id one such file of each run at a time (a pyarrow reader of one file
   per run held more than that: measured, its memory grew with the number of runs), and the
   pool is written by a
   :class:`pyarrow.parquet.ParquetWriter` in row groups of exactly ``row_group_rows`` rows (the
   last one shorter). A pool that fits in one run skips the spill.

Peak memory: one partial pool (bounded by the shard size), one run of ``run_rows`` rows, one
chunk of each run (about ``run_rows`` rows together) and the 64-bit key prefixes of step 1
(8 bytes a row, at most ``2 * pool_cap``).
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
#: Rows per row group of a merged pool.
ROW_GROUP_ROWS = 10_000
#: The fewest rows of a chunk of a spilled run (read back one chunk of each run at a time).
MIN_CHUNK_ROWS = 1_000


#: Hex digits of a sampling key compared as an integer in the first pass of :func:`cutoff` (64 bits).
PREFIX_CHARS = 16


def _prefix(keys: pl.Series) -> pl.Series:
    """The first :data:`PREFIX_CHARS` hex digits of sampling keys (hex SHA-1) as integers, in key order."""
    return keys.str.slice(0, PREFIX_CHARS).str.to_integer(base=16, dtype=pl.UInt64)


def cutoff(paths: Sequence[str | os.PathLike], pool_cap: int) -> tuple[str | None, int, int]:
    """``(key, below, total)``: the ``pool_cap``-th smallest sampling key ``_k`` over the partial
    pools ``paths``, how many rows have a key strictly below it, and how many rows there are;
    ``key`` is ``None`` (and ``below`` 0) when every row is kept (``pool_cap`` 0, or ``pool_cap``
    rows or fewer in all).

    Reads only the ``_k`` column, one partial pool at a time, and holds 64-bit key prefixes
    (at most ``2 * pool_cap`` of them plus one partial pool's): the ``pool_cap``-th smallest
    prefix first, then, in a second pass over ``_k``, the full keys that share it.
    """
    total = 0
    smallest = pl.Series("_p", [], dtype=pl.UInt64)
    for p in paths:
        part = _prefix(pl.read_parquet(p, columns=["_k"])["_k"])
        total += part.len()
        if pool_cap:
            smallest = pl.concat([smallest, part])
            if smallest.len() > 2 * pool_cap:
                smallest = smallest.sort().head(pool_cap)
    if not pool_cap or total <= pool_cap:
        return None, 0, total
    smallest = smallest.sort().head(pool_cap)
    prefix = smallest[pool_cap - 1]
    below_prefix = int((smallest < prefix).sum())  # every smaller prefix is among the pool_cap smallest
    sharing = []
    for p in paths:
        keys = pl.read_parquet(p, columns=["_k"])["_k"]
        sharing.append(keys.filter(_prefix(keys) == prefix))
    sharing = pl.concat(sharing).sort()
    key = sharing[pool_cap - below_prefix - 1]
    return key, below_prefix + int((sharing < key).sum()), total


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
        # zstd level 3, as polars' write_parquet (pyarrow's default level 1 wrote pools 30% larger)
        self.writer = pq.ParquetWriter(str(path), schema, compression="zstd", compression_level=3,
                                       write_statistics=False)
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


def _write_run(df: pl.DataFrame, folder: Path, run: int, chunk_rows: int) -> list[Path]:
    """Spill one sorted run as files of ``chunk_rows`` rows each (read back one at a time)."""
    paths = []
    for c, start in enumerate(range(0, df.height, chunk_rows)):
        path = folder / f"run_{run:05d}_{c:05d}.parquet"
        df.slice(start, chunk_rows).write_parquet(path, compression="lz4", statistics=False)
        paths.append(path)
    return paths


def _merge_runs(runs: Sequence[Sequence[Path]], out: _RowGroupWriter) -> None:
    """K-way merge by id of sorted runs, one chunk of each in memory; equal ids keep run order."""
    pending = [list(chunks)[::-1] for chunks in runs]  # each run's chunks still to read, last first
    buffers: list[pl.DataFrame | None] = [None] * len(runs)

    def refill(i: int) -> None:
        buffers[i] = pl.read_parquet(pending[i].pop()) if pending[i] else None

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

    Memory is bounded by one partial pool, about ``2 * run_rows`` rows (one run being gathered,
    or one chunk of every spilled run) and ``row_group_rows`` rows being written, whatever the
    pool's size (see the module's docstring).
    """
    if run_rows < 1 or row_group_rows < 1:
        raise ValueError(f"merge_partials_to: run_rows ({run_rows}) and row_group_rows ({row_group_rows}) must be >= 1")
    key, below, total = cutoff(paths, pool_cap)
    quota = [pool_cap - below if key is not None else 0]
    # the spilled runs are read back in chunks small enough that one chunk of every run holds
    # about run_rows rows, however many runs the pool needs
    n_runs = max(1, -(-(pool_cap if key is not None else total) // run_rows))
    chunk_rows = max(MIN_CHUNK_ROWS, run_rows // n_runs)
    schema = _arrow_schema(keep_key)
    out_path = Path(out_parquet)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    spill = Path(tempfile.mkdtemp(prefix=".merge_", dir=out_path.parent))
    try:
        runs: list[list[Path]] = []
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
                runs.append(_write_run(sorted_run(), spill, len(runs), chunk_rows))
                gathered, n_gathered = [], 0
        with atomic_path(out_path) as tmp:
            writer = _RowGroupWriter(Path(tmp), schema, row_group_rows)
            try:
                if not runs:  # the whole pool fits in one run: no spill
                    if gathered:
                        writer.add(sorted_run())
                else:
                    if gathered:
                        runs.append(_write_run(sorted_run(), spill, len(runs), chunk_rows))
                    gathered = []
                    _merge_runs(runs, writer)
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
