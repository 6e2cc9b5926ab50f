"""The lists of pool pairs that leave the pool before scoring, and their union.

:func:`rublimp.scoring.context.too_long_pairs` writes one list per model (the pairs with a
sentence longer than the model takes); :func:`too_long_ids` joins them.  Kept apart from
:mod:`rublimp.scoring` (polars only) so that the curation, which reads the lists, does not
depend on the scoring backends' code.
"""

from __future__ import annotations

import os
from typing import Iterable

import polars as pl

__all__ = ["TOO_LONG_SCHEMA", "too_long_ids"]

#: One row per (pair, side) that does not fit a model: what :func:`rublimp.scoring.context.too_long_pairs` returns.
TOO_LONG_SCHEMA = {
    "PID": pl.String,
    "id": pl.String,
    "column": pl.String,
    "positions": pl.Int64,
    "limit": pl.Int64,
    "model": pl.String,
}


def too_long_ids(tables: Iterable[str | os.PathLike | pl.DataFrame]) -> pl.DataFrame:
    """The union of :func:`rublimp.scoring.context.too_long_pairs` tables (files or frames): one row per pair (``PID``, ``id``)
    with the models it does not fit (``models``, sorted, comma-separated), sorted by PID and id."""
    frames = [t if isinstance(t, pl.DataFrame) else pl.read_parquet(t) for t in tables]
    frames = [f.select(list(TOO_LONG_SCHEMA)).cast(TOO_LONG_SCHEMA) for f in frames]  # type: ignore[arg-type]
    if not frames:
        return pl.DataFrame(schema={"PID": pl.String, "id": pl.String, "models": pl.String})
    df = pl.concat(frames)
    return (
        df.group_by("PID", "id")
        .agg(pl.col("model").unique().sort().str.join(", ").alias("models"))
        .sort("PID", "id")
    )
