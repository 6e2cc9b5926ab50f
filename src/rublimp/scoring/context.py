"""How many positions a sentence takes in a scoring model, and which pool pairs do not fit.

Each backend scores a sentence in a fixed number of model positions:

* ``hf`` (causal LM): the first token (BOS, else EOS) and all sentence tokens but the
  last, i.e. as many positions as the sentence has tokens (no special tokens);
* ``vllm``: the first token and every sentence token (the prompt), one more;
* ``hf-mlm`` (masked LM): the sentence with the tokenizer's special tokens.

:func:`positions_needed` counts them with the model's tokenizer alone, so the check runs
before any weights are loaded: :func:`model_context` reads a model's tokenizer and its
position limit (``max_length`` of the model entry, else vLLM's ``max_model_len``, else
the model config's), and :func:`too_long_pairs` lists the pool pairs with a sentence
longer than that.  The pipeline drops those pairs from the pool for *every* model
(rules/score.smk, rule ``context_check``, which runs :func:`context_stage`;
:func:`rublimp.stages.curate_stage` counts them), so all models see the same benchmark and no
scoring job dies on one long sentence. :func:`too_long_in_files` reads the pools' id and
sentence columns only, ``batch_rows`` rows at a time, so the check's memory does not grow
with the pools.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import polars as pl

from rublimp.io import InputError, write_parquet_atomic
from rublimp.pool_exclusions import TOO_LONG_SCHEMA, too_long_ids

log = logging.getLogger("rublimp")

__all__ = [
    "TOO_LONG_SCHEMA",
    "ModelContext",
    "model_context",
    "positions_needed",
    "too_long_ids",
    "too_long_pairs",
    "too_long_in_files",
    "context_stage",
]

#: Pool rows whose sentences are tokenized at once by :func:`too_long_in_files`.
BATCH_ROWS = 20_000

def positions_needed(backend: str, tokenizer: Any, sentences: Sequence[str]) -> list[int]:
    """Model positions each sentence takes when scored with ``backend`` (see the module docstring)."""
    if not sentences:
        return []
    if backend == "hf-mlm":
        enc = tokenizer(list(sentences), add_special_tokens=True, verbose=False)["input_ids"]
        return [len(ids) for ids in enc]
    enc = tokenizer(list(sentences), add_special_tokens=False, verbose=False)["input_ids"]
    extra = 1 if backend == "vllm" else 0
    return [len(ids) + extra for ids in enc]


@dataclass
class ModelContext:
    """A model's tokenizer and position limit (no weights loaded)."""

    name: str
    backend: str
    tokenizer: Any
    limit: int | None

    def too_long(self, sentences: Sequence[str]) -> list[int | None]:
        """Per sentence: its positions when they exceed :attr:`limit`, else None."""
        if self.limit is None:
            return [None] * len(sentences)
        need = positions_needed(self.backend, self.tokenizer, sentences)
        return [n if n > self.limit else None for n in need]


def model_context(spec: Mapping[str, Any]) -> ModelContext:
    """Load the tokenizer and the position limit of the model a config entry describes.

    The same checks as the scorer runs before it loads the weights (the causal backends
    need a BOS or EOS token, the masked one a mask token), so a tokenizer that cannot
    score fails here, before any scoring job.
    """
    from transformers import AutoConfig, AutoTokenizer

    from .hf import choose_first_token, hub_offline, position_limit

    name, backend = str(spec["name"]), str(spec["backend"])
    path = os.fspath(spec["path"])
    trust = bool(spec.get("trust_remote_code", False))
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=trust, local_files_only=hub_offline())
    except Exception as exc:
        raise InputError(f"model {name!r} ({path}): cannot load its tokenizer: {exc}") from exc
    if backend == "hf-mlm":
        if getattr(tokenizer, "mask_token_id", None) is None:
            raise InputError(f"model {name!r}: tokenizer has no mask token; it is not a masked LM")
    else:
        choose_first_token(tokenizer, model_name=name)
    limit = spec.get("max_length")
    if limit is None and backend == "vllm":
        limit = (spec.get("vllm") or {}).get("max_model_len")
    if limit is None:
        try:
            config = AutoConfig.from_pretrained(path, trust_remote_code=trust, local_files_only=hub_offline())
        except Exception as exc:
            raise InputError(f"model {name!r} ({path}): cannot read its config: {exc}") from exc
        limit = position_limit(config)
    return ModelContext(name=name, backend=backend, tokenizer=tokenizer, limit=None if limit is None else int(limit))


def too_long_pairs(
    pools: Mapping[str, pl.DataFrame],
    context: ModelContext,
    *,
    columns: Sequence[str] = ("source_sentence", "target_sentence"),
) -> pl.DataFrame:
    """The pairs of ``pools`` (paradigm -> pairs with ``id``) whose sentence in a ``columns`` column
    takes more positions than ``context.limit`` (:data:`TOO_LONG_SCHEMA`, sorted by PID, id, column)."""
    rows: list[dict[str, Any]] = []
    for pid, pool in sorted(pools.items()):
        for col in columns:
            if pool.height == 0:
                continue
            sents = pool[col].to_list()
            uniq = sorted({s for s in sents if s is not None})
            over = dict(zip(uniq, context.too_long(uniq)))
            for pair_id, sent in zip(pool["id"].cast(pl.String).to_list(), sents):
                n = over.get(sent)
                if n is not None:
                    rows.append({"PID": pid, "id": pair_id, "column": col, "positions": n, "limit": context.limit,
                                 "model": context.name})
    df = pl.DataFrame(rows, schema=TOO_LONG_SCHEMA)
    return df.sort("PID", "id", "column")


def _batches(path: str | os.PathLike, columns: Sequence[str], batch_rows: int) -> Iterator[pl.DataFrame]:
    """``columns`` of the Parquet file ``path``, ``batch_rows`` rows at a time (at most one row group
    is decoded at once: the merged pools are written in row groups of 10,000 rows)."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(os.fspath(path)) as pf:
        for batch in pf.iter_batches(batch_size=batch_rows, columns=list(columns)):
            yield pl.from_arrow(batch)


def too_long_in_files(
    pools: Mapping[str, str | os.PathLike],
    context: ModelContext,
    *,
    columns: Sequence[str] = ("source_sentence", "target_sentence"),
    batch_rows: int = BATCH_ROWS,
) -> pl.DataFrame:
    """:func:`too_long_pairs` of the pool files ``pools`` (paradigm -> Parquet path), read a batch of
    ``batch_rows`` rows at a time (only ``id`` and ``columns``): the same table, while memory holds
    one batch and the too-long rows found so far."""
    if batch_rows < 1:
        raise ValueError(f"too_long_in_files: batch_rows must be >= 1, got {batch_rows}")
    parts = []
    for pid, path in sorted(pools.items()):
        for batch in _batches(path, ("id", *columns), batch_rows):
            found = too_long_pairs({pid: batch}, context, columns=columns)
            if found.height:
                parts.append(found)
    if not parts:
        return too_long_pairs({}, context, columns=columns)
    return pl.concat(parts, how="vertical").sort("PID", "id", "column")


def context_stage(
    pools: Mapping[str, str | os.PathLike], spec: Mapping[str, Any], out_parquet: str | os.PathLike,
    *, batch_rows: int = BATCH_ROWS,
) -> dict[str, int]:
    """Rule ``context_check``: the pool pairs with a sentence longer than the model ``spec`` takes,
    written to ``out_parquet`` (``context/<model>.parquet``, :data:`TOO_LONG_SCHEMA`).

    Loads only the model's tokenizer and config, so it runs, and a tokenizer that cannot score
    fails, before any scoring job; reads the pools a batch at a time (:func:`too_long_in_files`).
    Returns, per paradigm, the number of such pairs (each paradigm with any is a warning in the log).
    """
    ctx = model_context(spec)
    df = too_long_in_files(pools, ctx, batch_rows=batch_rows)
    write_parquet_atomic(df, out_parquet)
    counts = {p: 0 for p in sorted(pools)}
    for (pid,), g in df.group_by(["PID"], maintain_order=True):
        counts[pid] = g["id"].n_unique()
        longest = g.sort("positions", descending=True).row(0, named=True)
        log.warning("context %s: paradigm %s: %d pair(s) have a sentence longer than the model's %d positions "
                    "(longest %d, pair %s): they leave the pool for every model", spec["name"], pid, counts[pid],
                    ctx.limit, longest["positions"], longest["id"])
    log.info("context %s: limit %s positions; %d pair(s) in %d paradigm(s) do not fit", spec["name"], ctx.limit,
             sum(counts.values()), len(pools))
    return counts
