"""Pools built shard by shard: one pass over each shard's trees for every paradigm, cached per paradigm.

The perturb stage is split in two so that each tree is read and analysed once while an edit to
one paradigm still recomputes only that paradigm's work:

- :func:`perturb_shard` runs, in one pass over one parsed shard, every paradigm whose *partial
  pool* for that shard is not in the cache yet, and stores each paradigm's partial pool under a
  key (:func:`partial_key`) made of everything that determines it: the contents of the
  paradigm's code closure, word lists and option files, its option values, the shard's and the
  agreement verdicts' contents, the seed, ``pairs_per_sentence`` and the pool cap. Partial
  pools of unchanged paradigms are reused (the log counts them).
- :func:`merge_pool` builds one paradigm's pool from its partial pools of every shard (computing
  any partial pool missing from the cache), so the result never depends on the cache's state.
  It then prunes the paradigm's cache entries it did not read (stale keys after an edit or a
  change of sharding or settings; :func:`prune_partials`), and the shard passes delete the
  folders of paradigms no longer configured (:func:`prune_paradigms`); both are counted in the log.

A partial pool holds the pool rows of one shard, cut to the ``pool_cap`` rows of smallest
sampling key (:func:`rublimp.perturb.sample_key`, a seeded hash of the row id) and carrying that
key as column ``_k``; the merged pool keeps the ``pool_cap`` rows of smallest key over all
shards. The rows kept are therefore the same whatever the number and order of shards: a uniform
sample of the corpus, identical to :func:`rublimp.perturb.build_pools` over all the sentences.

Memory: sentences are streamed and rows are held as Python objects for one batch of
``batch_size`` sentences only; batches are spilled to Parquet and merged by polars.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl

from .io import write_json_atomic, write_parquet_atomic

log = logging.getLogger("rublimp")

__all__ = ["partial_schema", "ParadigmInputs", "partial_key", "perturb_shard", "merge_pool", "merge_partials", "key_threshold",
           "prune_partials", "prune_paradigms"]


def partial_schema() -> dict[str, pl.DataType]:
    """A partial pool's columns: the pool's (rublimp.perturb.POOL_SCHEMA) plus the sampling key ``_k``."""
    # imported here: a merge whose partial pools are all cached never loads the paradigms (0.4 s a job)
    from .perturb import POOL_SCHEMA

    return {**POOL_SCHEMA, "_k": pl.String}

#: Bumped when the partial pools' layout or meaning changes (old cache entries are then ignored).
CACHE_FORMAT = 1

#: Sentences whose rows are held in memory at once (then spilled to Parquet).
BATCH_SIZE = 5_000

#: Prefix of a shard pass's temporary spill folder in the cache folder (never pruned: another
#: shard pass may be writing to it).
SPILL_PREFIX = "perturb_shard_"


@dataclass(frozen=True)
class ParadigmInputs:
    """What one paradigm's pool depends on besides the trees: the files and options its job reads.

    ``code``: the package files its perturb job may run (rublimp.workflow.WorkflowConfig.perturb_code);
    ``resources``: its word lists; ``option_files``: files its options name; ``options``: the
    ``perturb.options`` it reads.
    """

    name: str
    code: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    option_files: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, name: str, spec: Mapping[str, Any]) -> "ParadigmInputs":
        return cls(
            name=name,
            code=tuple(spec.get("code", ())),
            resources=tuple(spec.get("resources", ())),
            option_files=tuple(spec.get("option_files", ())),
            options=dict(spec.get("options", {})),
        )


_DIGESTS: dict[tuple[str, int, int], str] = {}


def file_digest(path: str | os.PathLike) -> str:
    """BLAKE2b of a file's bytes (memoised per path, size and mtime within the process)."""
    st = os.stat(path)
    memo = (str(path), st.st_size, st.st_mtime_ns)
    if memo not in _DIGESTS:
        h = hashlib.blake2b(digest_size=20)
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        _DIGESTS[memo] = h.hexdigest()
    return _DIGESTS[memo]


def partial_key(
    paradigm: ParadigmInputs,
    *,
    shard: str | os.PathLike,
    verdicts: str | os.PathLike | None,
    seed: int,
    pairs_per_sentence: int,
    pool_cap: int,
) -> str:
    """The cache key of ``paradigm``'s partial pool of ``shard``: a hash of everything it depends on.

    Files count by content (so a copied or touched checkout reuses its cache); package code by
    the sorted contents of the paradigm's code closure.
    """
    material = {
        "format": CACHE_FORMAT,
        "paradigm": paradigm.name,
        "code": sorted(file_digest(p) for p in paradigm.code),
        "resources": sorted(file_digest(p) for p in paradigm.resources),
        "option_files": sorted(file_digest(p) for p in paradigm.option_files),
        "options": paradigm.options,
        "shard": file_digest(shard),
        "verdicts": file_digest(verdicts) if verdicts else None,
        "seed": int(seed),
        "pairs_per_sentence": int(pairs_per_sentence),
        "pool_cap": int(pool_cap),
    }
    blob = json.dumps(material, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(blob.encode("utf-8"), digest_size=20).hexdigest()


def partial_path(cache_dir: str | os.PathLike, name: str, key: str) -> Path:
    return Path(cache_dir) / name / f"{key}.parquet"


def key_threshold(paths: Sequence[str | os.PathLike], pool_cap: int) -> str | None:
    """The ``pool_cap``-th smallest sampling key ``_k`` over the partial pools ``paths`` (``None``
    when they hold ``pool_cap`` rows or fewer, or ``pool_cap`` is 0: every row is kept).

    Reads only the ``_k`` column, one partial pool at a time, keeping a running set of the
    smallest keys (at most ``2 * pool_cap`` plus one partial pool's keys in memory).
    """
    if not pool_cap:
        return None
    keys = pl.Series("_k", [], dtype=pl.String)
    total = 0
    for p in paths:
        part = pl.read_parquet(p, columns=["_k"])["_k"]
        total += part.len()
        keys = pl.concat([keys, part])
        if keys.len() > 2 * pool_cap:
            keys = keys.sort().head(pool_cap)
    if total <= pool_cap:
        return None
    return keys.sort()[pool_cap - 1]


def merge_partials(paths: Sequence[str | os.PathLike], pool_cap: int, *, keep_key: bool = False) -> pl.DataFrame:
    """The rows of smallest ``_k`` (at most ``pool_cap``; 0: all) of partial pools, sorted by id.

    Memory: the rows kept (at most ``pool_cap``) plus one partial pool, whatever the number of
    partial pools: the cut-off key is found first from the keys alone (:func:`key_threshold`),
    then each partial pool is read on its own, filtered to the rows at or below it.
    """
    if not paths:
        df = pl.DataFrame(schema=partial_schema())
    else:
        threshold = key_threshold(paths, pool_cap)
        parts = []
        for p in paths:
            lf = pl.scan_parquet(str(p))
            if threshold is not None:
                lf = lf.filter(pl.col("_k") <= threshold)
            parts.append(lf.collect())
        df = pl.concat(parts, how="vertical", rechunk=False)
        del parts
        if pool_cap and df.height > pool_cap:  # only if two rows share a key (ids are unique)
            df = df.sort("_k").head(pool_cap)
    df = df.sort("id")
    return df if keep_key else df.drop("_k")


def _context(paradigms: Sequence[ParadigmInputs], verdicts, seed: int):
    from .paradigms import ParadigmContext

    agreement = None
    if verdicts is not None:
        from .agreement_validation import load_verdicts

        agreement = load_verdicts(verdicts)
    # each paradigm reads only the options its class declares, and one option has one value in a
    # config: the union is what each of them would get alone
    options: dict[str, Any] = {}
    for p in paradigms:
        options.update(p.options)
    return ParadigmContext(seed=seed, agreement=agreement, options=options)


def _compute_partials(
    shard: str | os.PathLike,
    paradigms: Sequence[ParadigmInputs],
    out_paths: Sequence[Path],
    *,
    verdicts,
    seed: int,
    pairs_per_sentence: int,
    pool_cap: int,
    batch_size: int,
) -> dict[str, int]:
    """One pass over ``shard`` for all ``paradigms``; writes each one's partial pool; returns row counts."""
    from .conllu_doc import read_conllu
    from .perturb import cap_pool, pool_batches

    ctx = _context(paradigms, verdicts, seed)
    names = [p.name for p in paradigms]
    spill = Path(tempfile.mkdtemp(prefix=SPILL_PREFIX, dir=Path(out_paths[0]).parent.parent))
    try:
        parts: dict[str, list[Path]] = {n: [] for n in names}
        for b, frames in enumerate(pool_batches(read_conllu(shard), names, ctx=ctx, seed=seed,
                                                pairs_per_sentence=pairs_per_sentence, batch_size=batch_size)):
            for n in names:
                if frames[n].height:
                    path = spill / f"{n}.{b}.parquet"
                    cap_pool(frames[n], pool_cap, seed, keep_key=True).write_parquet(path)
                    parts[n].append(path)
        counts = {}
        for n, out in zip(names, out_paths):
            df = merge_partials(parts[n], pool_cap, keep_key=True)
            write_parquet_atomic(df, out)
            counts[n] = df.height
        for line in ctx.self_check_stats.lines():  # the self-check's rejections per paradigm and reason
            log.info("perturb_shard %s: %s", Path(shard).name, line)
        return counts
    finally:
        shutil.rmtree(spill, ignore_errors=True)


def perturb_shard(
    shard: str | os.PathLike,
    paradigms: Sequence[ParadigmInputs],
    cache_dir: str | os.PathLike,
    *,
    verdicts: str | os.PathLike | None = None,
    seed: int = 0,
    pairs_per_sentence: int = 1,
    pool_cap: int = 350_000,
    manifest: str | os.PathLike | None = None,
    batch_size: int = BATCH_SIZE,
    quiet: bool = False,
) -> dict[str, Any]:
    """Fill the cache with every paradigm's partial pool of ``shard``, in one pass over its trees.

    Paradigms whose partial pool is cached already are not run. ``manifest`` (optional) receives
    the shard's cache keys as JSON. Returns ``{"reused": n, "computed": n, "keys": {paradigm: key}}``.
    """
    keys = {
        p.name: partial_key(p, shard=shard, verdicts=verdicts, seed=seed,
                            pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap)
        for p in paradigms
    }
    missing = [p for p in paradigms if not partial_path(cache_dir, p.name, keys[p.name]).is_file()]
    reused = len(paradigms) - len(missing)
    if not quiet or missing:
        log.info("perturb_shard %s: reused %d of %d cached paradigm pools; computing %d%s", shard, reused,
                 len(paradigms), len(missing), f" ({', '.join(p.name for p in missing)})" if 0 < len(missing) <= 5 else "")
    if missing:
        outs = [partial_path(cache_dir, p.name, keys[p.name]) for p in missing]
        for o in outs:
            o.parent.mkdir(parents=True, exist_ok=True)
        counts = _compute_partials(shard, missing, outs, verdicts=verdicts, seed=seed,
                                   pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap, batch_size=batch_size)
        log.info("perturb_shard %s: %d pairs in %d computed partial pools", shard, sum(counts.values()), len(counts))
    info = {"reused": reused, "computed": len(missing), "keys": keys}
    if manifest is not None:
        write_json_atomic(manifest, {"shard": Path(shard).name, "paradigms": keys})
    return info


def prune_partials(cache_dir: str | os.PathLike, name: str, keep: set[str] | frozenset[str]) -> tuple[int, int]:
    """Delete ``name``'s cached partial pools whose key is not in ``keep``; returns (files, bytes) removed."""
    folder = Path(cache_dir) / name
    n = size = 0
    if folder.is_dir():
        for p in folder.glob("*.parquet"):
            if p.stem not in keep:
                try:
                    st = p.stat()
                    p.unlink()
                except FileNotFoundError:
                    continue
                n, size = n + 1, size + st.st_size
    return n, size


def prune_paradigms(cache_dir: str | os.PathLike, names: Sequence[str]) -> tuple[int, int]:
    """Delete the cache folders of paradigms not in ``names`` (dropped from the config); returns
    (partial pools, bytes) removed. The spill folders of running shard passes are left alone."""
    root = Path(cache_dir)
    n = size = 0
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            if folder.is_dir() and folder.name not in set(names) and not folder.name.startswith(SPILL_PREFIX):
                files = list(folder.glob("*.parquet"))
                n += len(files)
                size += sum(f.stat().st_size for f in files if f.exists())
                shutil.rmtree(folder, ignore_errors=True)
    return n, size


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
    batch_size: int = BATCH_SIZE,
    prune: bool = True,
) -> dict[str, int]:
    """Write ``paradigm``'s pool: its partial pools of all ``shards`` merged (the ``pool_cap`` rows of
    smallest sampling key, sorted by id). Partial pools missing from the cache are computed here
    (one shard at a time). With ``prune``, the paradigm's cached partial pools that this merge did
    not read (other shards, inputs or settings than the current ones) are then deleted
    (:func:`prune_partials`) and counted in the log. Returns ``{"pairs", "reused", "computed",
    "pruned"}``."""
    paths, computed = [], 0
    for shard in shards:
        info = perturb_shard(shard, [paradigm], cache_dir, verdicts=verdicts, seed=seed,
                             pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap, batch_size=batch_size, quiet=True)
        computed += info["computed"]
        paths.append(partial_path(cache_dir, paradigm.name, info["keys"][paradigm.name]))
    df = merge_partials(paths, pool_cap)
    write_parquet_atomic(df, out_parquet)
    out = {"pairs": df.height, "reused": len(shards) - computed, "computed": computed, "pruned": 0}
    log.info("perturb: %s: %d pairs from %d shards (%d partial pools cached, %d computed here)",
             paradigm.name, df.height, len(shards), out["reused"], computed)
    if prune:
        out["pruned"], size = prune_partials(cache_dir, paradigm.name, {Path(p).stem for p in paths})
        log.info("perturb: %s: pruned %d stale partial pool(s) from the cache (%.1f MB)",
                 paradigm.name, out["pruned"], size / 1e6)
    return out
