"""Cascaded decontamination: cheap models first, expensive models only on the survivors.

RuBLiMP's Limitations ("Computational Costs"): pairs are first filtered with
Min-K% of the fast decoder LMs, and only the remaining ones are scored by the
encoder LMs, whose pseudo-log-likelihood costs one forward pass per token.

The cascade here is *exact*: with ``curation.t_max`` (the loosest threshold the
search may choose, see :func:`rublimp.curation.search_threshold`) a sentence
whose Min-K% under some tier-0 model is above ``t_max`` (or NaN) can never be
kept, whatever the tier-1 models say, because a pair's score is the *maximum*
over models.  So tier-1 models (``models[i].tier: 1``) score only the
:func:`survivors`, and curation treats a sentence they skipped as failing
(``curate(..., t_max=..., cascaded=[tier-1 models])``): the benchmark is
identical to scoring everything with every model (``tests/test_cascade.py``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import polars as pl

from rublimp.io import InputError

__all__ = ["CascadeStats", "survivors"]

FrameOrPath = pl.DataFrame | str | os.PathLike


@dataclass(frozen=True)
class CascadeStats:
    """How many sentences the cascade passed on to the tier-1 models."""

    sentences: int
    survivors: int

    @property
    def dropped(self) -> int:
        return self.sentences - self.survivors


def _load(frame: FrameOrPath, model: str, column: str) -> pl.DataFrame:
    if isinstance(frame, pl.DataFrame):
        df, path = frame, None
    else:
        path = str(frame)
        try:
            df = pl.read_parquet(path)
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise InputError(f"cannot read the tier-0 scores of model {model!r}: {exc}", path) from exc
    for col in ("sentence", column):
        if col not in df.columns:
            raise InputError(f"tier-0 scores of model {model!r} lack column {col!r}", path)
    return df


def survivors(
    sentences: Iterable[str],
    tier0_scores: Mapping[str, FrameOrPath],
    *,
    k: int,
    t_max: float,
) -> tuple[list[str], CascadeStats]:
    """The sentences whose ``mink_<k>`` is ``<= t_max`` under *every* tier-0 model (sorted, distinct).

    A sentence missing from a tier-0 model's scores is an error (that model
    should have scored the whole pool); a NaN/null value fails, as it does in
    curation.
    """
    if not tier0_scores:
        raise InputError("the cascade needs at least one tier-0 model (models[i].tier: 0) with decontaminate: true")
    if isinstance(t_max, bool) or not math.isfinite(float(t_max)):
        raise InputError(f"config key curation.t_max must be a finite number for the cascade, got {t_max!r}")
    wanted = sorted(set(sentences))
    column = f"mink_{int(k)}"
    keep = pl.DataFrame({"sentence": wanted}, schema={"sentence": pl.String})
    for model in sorted(tier0_scores):
        df = _load(tier0_scores[model], model, column)
        values = df.select("sentence", pl.col(column).cast(pl.Float64).fill_nan(None).alias("v")).unique("sentence")
        missing = keep.join(values, on="sentence", how="anti")
        if missing.height:
            raise InputError(
                f"tier-0 model {model!r} has no {column} score for {missing.height} sentence(s), "
                f"e.g. {missing['sentence'][0]!r}"
            )
        passed = values.filter(pl.col("v") <= float(t_max)).select("sentence")
        keep = keep.join(passed, on="sentence", how="semi")
    kept = sorted(keep["sentence"].to_list())
    return kept, CascadeStats(sentences=len(wanted), survivors=len(kept))
