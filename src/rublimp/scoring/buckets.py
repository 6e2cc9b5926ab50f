"""The distinct sentences of many tables, split into hash buckets on disk, for scoring with bounded memory.

A model's pool job (rules/score.smk, ``score_pools``) scores the union of every paradigm's grammatical
sentences: up to ``perturb.pool_cap`` rows per paradigm, so about a million strings on a large corpus.
Rather than holding that union, :class:`SentenceBuckets` reads the tables in record batches (only the
columns to score, and ``PID``/``id`` where pairs are dropped), sends each sentence to one of ``n``
buckets by a stable hash of its text (sha1, so a sentence lands in the same bucket in every run and on
every machine) and appends each bucket's sentences to Parquet parts in a work directory.  A bucket is
then read back, deduplicated and sorted on its own; the scoring job handles one bucket at a time.

The number of buckets follows the input (:func:`bucket_count`: one per ``rows_per_bucket`` table rows),
so memory per bucket does not grow with the corpus; with one bucket the sentences are exactly the sorted
union of all tables, and no hash is computed.

>>> with SentenceBuckets(["a.parquet", "b.parquet"], ["source_sentence"], 2, "/tmp/work") as buckets:  # doctest: +SKIP
...     for b in range(buckets.n):
...         sentences = buckets.sentences(b)   # sorted, distinct
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from rublimp.io import InputError

__all__ = ["ROWS_PER_BUCKET", "ScoreBuckets", "SentenceBuckets", "bucket_count", "bucket_of", "rows_for"]

#: Table rows per bucket: the most distinct sentences (and their scores) a scoring job holds at once.
ROWS_PER_BUCKET = 100_000
#: Rows read from a table at a time, and rows buffered before they are written to the buckets' parts;
#: also the row groups of the scores table, so that its readers (curation) stream it in batches this size.
BATCH_ROWS = 65_536


def bucket_count(tables: Sequence[str | os.PathLike], rows_per_bucket: int = ROWS_PER_BUCKET) -> int:
    """Buckets for ``tables``: one per ``rows_per_bucket`` rows in all of them (from the Parquet metadata), at least one."""
    if rows_per_bucket <= 0:
        raise ValueError(f"rows_per_bucket must be positive, got {rows_per_bucket}")
    rows = sum(pl.scan_parquet(t).select(pl.len()).collect().item() for t in tables)
    return max(1, -(-rows // rows_per_bucket))


def bucket_of(sentences: Sequence[str], n: int) -> list[int]:
    """Each sentence's bucket among ``n``: the first 8 bytes of sha1(UTF-8 text), modulo ``n``."""
    if n == 1:
        return [0] * len(sentences)
    return [int.from_bytes(hashlib.sha1(s.encode("utf-8")).digest()[:8], "big") % n for s in sentences]


def _require_score_columns(table: str | os.PathLike, columns: Sequence[str]) -> None:
    """A scores table without ``sentence`` or one of ``columns`` is an error naming the table."""
    have = list(pl.read_parquet_schema(table))
    missing = [c for c in ("sentence", *columns) if c not in have]
    if missing:
        raise InputError(f"scores table lacks column(s) {missing}; it has {have}", table)


def rows_for(table: str | os.PathLike, sentences: Sequence[str], columns: Sequence[str]) -> pl.DataFrame:
    """The rows of a scores table (``sentence`` and ``columns``) whose sentence is one of ``sentences``.

    Scanned with Polars' streaming engine: only those columns are read and only the matching rows are kept.
    """
    _require_score_columns(table, columns)
    wanted = pl.Series("sentence", list(sentences), dtype=pl.String)
    return (
        pl.scan_parquet(table)
        .select(pl.col("sentence").cast(pl.String), *[c for c in columns if c != "sentence"])
        .filter(pl.col("sentence").is_in(wanted.implode()))
        .collect(engine="streaming")
    )


class SentenceBuckets:
    """The distinct non-null values of ``columns`` over ``tables``, in ``n`` buckets spilled under ``workdir``.

    ``drop`` (``PID``, ``id``; e.g. the pairs too long for some model, :func:`rublimp.pool_exclusions.too_long_ids`)
    removes those pairs' rows first, in tables that have both columns.  A table without one of ``columns``
    is an error naming the table.  Use as a context manager: the spilled parts are removed on exit.
    """

    def __init__(
        self,
        tables: Sequence[str | os.PathLike],
        columns: Sequence[str],
        n: int,
        workdir: str | os.PathLike,
        *,
        drop: pl.DataFrame | None = None,
        batch_rows: int = BATCH_ROWS,
    ) -> None:
        if n <= 0:
            raise ValueError(f"the number of buckets must be positive, got {n}")
        self.tables = [str(t) for t in tables]
        self.columns = list(columns)
        self.n = n
        self.drop = drop if drop is not None and drop.height else None
        self.batch_rows = batch_rows
        Path(workdir).mkdir(parents=True, exist_ok=True)
        self.directory = Path(tempfile.mkdtemp(prefix=".sentence-buckets-", dir=workdir))
        self._parts: list[list[Path]] = [[] for _ in range(n)]
        self._buffer: list[list[pl.Series]] = [[] for _ in range(n)]
        self._buffered = 0
        self.rows = 0  # table rows read (after the dropped pairs)

    def __enter__(self) -> SentenceBuckets:
        for table in self.tables:
            self._spill(table)
        self._flush()
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def _spill(self, table: str) -> None:
        import pyarrow.parquet as pq

        have = list(pl.read_parquet_schema(table))
        for c in self.columns:
            if c not in have:
                raise InputError(f"table has no column {c!r} to score (columns: {', '.join(have)})", table)
        keys = ["PID", "id"] if self.drop is not None and {"PID", "id"} <= set(have) else []
        for batch in pq.ParquetFile(table).iter_batches(batch_size=self.batch_rows,
                                                        columns=list(dict.fromkeys([*self.columns, *keys]))):
            df = pl.from_arrow(batch)
            assert isinstance(df, pl.DataFrame)
            if keys:
                df = df.with_columns(pl.col("id").cast(pl.String)).join(self.drop.select(keys), on=keys, how="anti")
            self.rows += df.height
            values = pl.concat([df[c].cast(pl.String).drop_nulls() for c in self.columns]).unique(maintain_order=True)
            if self.n == 1:
                self._buffer[0].append(values)
            else:
                frame = pl.DataFrame({"s": values, "b": pl.Series(bucket_of(values.to_list(), self.n), dtype=pl.UInt32)})
                for (b,), g in frame.group_by("b"):
                    self._buffer[int(b)].append(g["s"])
            self._buffered += values.len()
            if self._buffered >= self.batch_rows:
                self._flush()

    def _flush(self) -> None:
        for b, series in enumerate(self._buffer):
            if not series:
                continue
            part = self.directory / f"bucket-{b:05d}-{len(self._parts[b]):06d}.parquet"
            pl.DataFrame({"sentence": pl.concat(series).unique()}).write_parquet(part, compression="lz4")
            self._parts[b].append(part)
        self._buffer = [[] for _ in range(self.n)]
        self._buffered = 0

    def sentences(self, b: int) -> list[str]:
        """Bucket ``b``'s distinct sentences, sorted."""
        if not self._parts[b]:
            return []
        return pl.read_parquet(self._parts[b]).get_column("sentence").unique().sort().to_list()


class ScoreBuckets:
    """A scores table's rows (``sentence`` and ``columns``) split into ``n`` hash buckets on disk.

    The buckets are :func:`bucket_of`'s, as :class:`SentenceBuckets` makes them, so bucket ``b``'s
    sentences find their rows in this table's bucket ``b`` alone: the scoring job's cascade
    (:func:`rublimp.cascade.survivors`) looks up the tier-0 scores of each bucket of sentences in one
    bucket of the tier-0 table, and the table is read once, not once per bucket (which grew as the
    square of the corpus).  Use as a context manager: the spilled parts are removed on exit.
    """

    def __init__(self, table: str | os.PathLike, columns: Sequence[str], n: int, workdir: str | os.PathLike,
                 *, batch_rows: int = BATCH_ROWS) -> None:
        if n <= 0:
            raise ValueError(f"the number of buckets must be positive, got {n}")
        self.table = str(table)
        self.columns = [c for c in dict.fromkeys(columns) if c != "sentence"]
        self.n = n
        self.batch_rows = batch_rows
        Path(workdir).mkdir(parents=True, exist_ok=True)
        self.directory = Path(tempfile.mkdtemp(prefix=".score-buckets-", dir=workdir))
        self._parts: list[list[Path]] = [[] for _ in range(n)]

    def __enter__(self) -> ScoreBuckets:
        import pyarrow.parquet as pq

        _require_score_columns(self.table, self.columns)
        try:
            for batch in pq.ParquetFile(self.table).iter_batches(batch_size=self.batch_rows,
                                                                 columns=["sentence", *self.columns]):
                df = pl.from_arrow(batch)
                assert isinstance(df, pl.DataFrame)
                df = df.with_columns(pl.col("sentence").cast(pl.String)).drop_nulls("sentence")
                df = df.with_columns(pl.Series("__b", bucket_of(df["sentence"].to_list(), self.n), dtype=pl.UInt32))
                for (b,), g in df.group_by("__b"):
                    part = self.directory / f"bucket-{int(b):05d}-{len(self._parts[int(b)]):06d}.parquet"
                    g.drop("__b").write_parquet(part, compression="lz4")
                    self._parts[int(b)].append(part)
        except BaseException:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def rows(self, b: int, sentences: Sequence[str]) -> pl.DataFrame:
        """The rows of bucket ``b`` whose sentence is one of ``sentences`` (:func:`rows_for`'s columns)."""
        schema = {"sentence": pl.String}
        if not self._parts[b]:
            return pl.read_parquet(self.table, n_rows=0, columns=["sentence", *self.columns]).cast(schema)
        wanted = pl.Series("sentence", list(sentences), dtype=pl.String)
        return pl.read_parquet(self._parts[b]).filter(pl.col("sentence").is_in(wanted.implode()))
