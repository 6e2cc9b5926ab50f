"""A score cache per (model settings, sentence): immutable Parquet shards keyed by sha1(sentence).

Layout: ``{root}/{model}/{fingerprint}/part-<uuid>.parquet``.  The fingerprint
hashes everything that changes a score (model path and weights identity,
backend, dtype, Min-K% percentages, per-token and Min-K%++ columns), so a new
model or new settings never reuse stale scores.  A writer only ever *adds*
a new part, renamed into place atomically, so concurrent Snakemake jobs
never see a half-written file and never rewrite a shared one; the same
sentence in several parts (two jobs that scored it at the same time) is
deduplicated on read.  Values are stored as computed (float64, unrounded),
so a cached score is bit-for-bit the score computed the first time.

>>> cache = ScoreCache.for_model("results/cache/scores", "demo-gpt2", spec, ks=(30, 60))   # doctest: +SKIP
>>> have = cache.lookup(sentences)                 # rows already scored                    # doctest: +SKIP
>>> cache.store(new_scores)                        # add a part                             # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from rublimp.io import write_parquet_atomic
from rublimp.scoring.dtypes import resolve_dtype

__all__ = ["ScoreCache", "model_fingerprint", "sentence_hash"]

HASH = "sentence_sha1"
_PART_GLOB = "part-*.parquet"
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".gguf")
_EDGE = 1 << 20  # bytes hashed at each end of a weights file


def _partition_of(part: Path) -> tuple[int, int] | None:
    """``(n, b)`` of a part stored for hash bucket ``b`` of ``n`` (``part-<n>x<b>-<uuid>.parquet``), else None."""
    tag = part.name.removeprefix("part-").split("-", 1)
    if len(tag) == 2 and "x" in tag[0]:
        n, _, b = tag[0].partition("x")
        if n.isdigit() and b.isdigit():
            return int(n), int(b)
    return None


def sentence_hash(sentence: str) -> str:
    """Hex sha1 of the UTF-8 sentence: the cache key."""
    return hashlib.sha1(sentence.encode("utf-8")).hexdigest()


def _weights_identity(path: Path) -> list[Any]:
    """Cheap identity of a local model directory: config bytes + each weights file's size and end bytes.

    Hashing multi-GB weights in full would cost minutes per job; size plus the first
    and last MiB changes whenever a model is retrained or replaced (the demo LMs
    included) and stays equal for identical files.
    """
    ident: list[Any] = []
    cfg = path / "config.json"
    if cfg.is_file():
        ident.append(["config.json", hashlib.sha1(cfg.read_bytes()).hexdigest()])
    for f in sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(_WEIGHT_SUFFIXES)):
        size = f.stat().st_size
        with f.open("rb") as fh:
            head = fh.read(_EDGE)
            fh.seek(max(0, size - _EDGE))
            tail = fh.read(_EDGE)
        ident.append([f.name, size, hashlib.sha1(head + tail).hexdigest()])
    return ident


def model_fingerprint(
    spec: Mapping[str, Any], *, ks: Sequence[int], per_token: bool = False, minkpp: bool = False
) -> str:
    """Hash of the settings that determine a model's scores (16 hex digits).

    ``spec`` needs ``path`` and ``backend``; the resolved ``dtype`` (see
    :func:`rublimp.scoring.dtypes.resolve_dtype`), ``revision`` and ``vllm``
    options are included when present.  A local model directory also
    contributes :func:`_weights_identity`; a Hub id contributes its name (and
    ``revision``) only.
    """
    path = str(spec["path"])
    local = Path(path).expanduser()
    payload = {
        "path": path,
        "backend": spec["backend"],
        # the dtype the scores come from: ``auto`` resolved on this machine and device
        "dtype": resolve_dtype(spec.get("dtype"), spec.get("device") or "cpu", backend=str(spec["backend"])),
        "revision": spec.get("revision"),
        "vllm": spec.get("vllm") or None,
        "ks": sorted(int(k) for k in ks),
        "per_token": bool(per_token),
        "minkpp": bool(minkpp),
        "weights": _weights_identity(local) if local.is_dir() else None,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha1(blob).hexdigest()[:16]


class ScoreCache:
    """The cached scores of one model under one fingerprint (a directory of Parquet parts)."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)

    @classmethod
    def for_model(
        cls,
        root: str | os.PathLike,
        model: str,
        spec: Mapping[str, Any],
        *,
        ks: Sequence[int],
        per_token: bool = False,
        minkpp: bool = False,
    ) -> ScoreCache:
        """The cache of ``model`` under ``root`` for these settings (see :func:`model_fingerprint`)."""
        fp = model_fingerprint(spec, ks=ks, per_token=per_token, minkpp=minkpp)
        return cls(Path(root) / model / fp)

    def parts(self, partition: tuple[int, int] | None = None) -> list[Path]:
        """The finished parts, sorted by name (temporary files of running writers are not matched).

        With ``partition`` ``(n, b)``: without the parts stored for another bucket ``b' != b`` of the same
        ``n`` (see :meth:`store`), which cannot hold a sentence of bucket ``b``.
        """
        parts = sorted(self.directory.glob(_PART_GLOB)) if self.directory.is_dir() else []
        if partition is None:
            return parts
        n, b = partition

        def may_hold(part: Path) -> bool:
            tag = _partition_of(part)
            return tag is None or tag[0] != n or tag[1] == b

        return [p for p in parts if may_hold(p)]

    def lookup(self, sentences: Iterable[str], partition: tuple[int, int] | None = None) -> pl.DataFrame | None:
        """Cached score rows for ``sentences`` (one per distinct sentence found), sorted by sentence.

        ``None`` when nothing is cached.  Of duplicate rows of one sentence the
        one from the first part in name order is kept; duplicates come from jobs
        that scored the same sentence concurrently.  ``partition`` ``(n, b)``: the
        sentences all lie in hash bucket ``b`` of ``n`` (:func:`rublimp.scoring.buckets.bucket_of`),
        so the parts stored for the other buckets of ``n`` are not read: a scoring job of
        ``n`` buckets reads each part once, not once per bucket.
        """
        parts = self.parts(partition)
        wanted = sorted(set(sentences))
        if not parts or not wanted:
            return None
        keys = pl.DataFrame({HASH: [sentence_hash(s) for s in wanted], "sentence": wanted})
        hashes = keys[HASH].implode()
        frames = []
        for i, part in enumerate(parts):
            # a filter on the hash, which the reader applies batch by batch, so memory follows the rows
            # found, not the part; then the sentences themselves must match too
            found = (
                pl.scan_parquet(part)
                .filter(pl.col(HASH).is_in(hashes))
                .collect(engine="streaming")
                .join(keys, on=[HASH, "sentence"], how="semi")
                .with_columns(pl.lit(i, pl.UInt32).alias("__part"))
            )
            if found.height:
                frames.append(found)
        if not frames:
            return None
        rows = pl.concat(frames, how="vertical_relaxed").sort(["sentence", "__part"])
        return rows.unique("sentence", keep="first", maintain_order=True).drop(HASH, "__part")

    def store(self, scores: pl.DataFrame, partition: tuple[int, int] | None = None) -> Path | None:
        """Add ``scores`` (a scores table with a ``sentence`` column) as a new part; ``None`` if empty.

        ``partition`` ``(n, b)``: every sentence lies in hash bucket ``b`` of ``n``; recorded in the
        part's name (``part-<n>x<b>-<uuid>.parquet``) so that :meth:`lookup` for another bucket skips it.
        """
        if scores.height == 0:
            return None
        tag = f"{int(partition[0])}x{int(partition[1])}-" if partition is not None else ""
        part = self.directory / f"part-{tag}{uuid.uuid4().hex}.parquet"
        table = scores.with_columns(
            pl.col("sentence").map_elements(sentence_hash, return_dtype=pl.String).alias(HASH)
        )
        write_parquet_atomic(table, part)
        return part
