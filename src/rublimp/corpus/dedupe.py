"""Duplicate detection over a stream in bounded memory: digests in hash buckets on disk.

:class:`DigestBuckets` takes ``(digest, position)`` pairs as a stream is read (a digest is 16
bytes, e.g. BLAKE2b of a normalised sentence or of a sent_id) and appends them, buffered, to one
of ``n_buckets`` binary files chosen by the digest's first byte. :meth:`DigestBuckets.duplicates`
then reads one bucket at a time and yields, for every digest seen more than once, each later
occurrence with the position of the first. Memory: the buffer (``flush_at`` records) and one
bucket (24 bytes per record / ``n_buckets``), whatever the length of the stream.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import numpy as np

__all__ = ["RECORD", "DigestBuckets", "duplicate_pairs"]

#: One record: the digest's two 64-bit halves and the position.
RECORD = np.dtype([("a", "<u8"), ("b", "<u8"), ("pos", "<i8")])


def duplicate_pairs(records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, later)``: for each record of ``records`` whose digest occurs at a smaller position
    too, its position (``later``) and the smallest position of its digest (``first``)."""
    if not len(records):
        empty = np.empty(0, dtype=np.int64)
        return empty, empty
    r = records[np.lexsort((records["pos"], records["b"], records["a"]))]
    same = np.zeros(len(r), dtype=bool)
    same[1:] = (r["a"][1:] == r["a"][:-1]) & (r["b"][1:] == r["b"][:-1])
    start = np.maximum.accumulate(np.where(same, 0, np.arange(len(r))))
    return r["pos"][start[same]], r["pos"][same]


class DigestBuckets:
    """Digest records appended to hash-partitioned files (in ``folder``, a temporary one by default,
    removed by :meth:`close` or at the end of a ``with`` block)."""

    def __init__(self, folder: str | Path | None = None, *, n_buckets: int = 256, flush_at: int = 50_000) -> None:
        if not 1 <= n_buckets <= 256:
            raise ValueError(f"n_buckets must be between 1 and 256, got {n_buckets}")
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="rublimp_dedupe_"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.n, self.flush_at = n_buckets, flush_at
        self._buf: list[list[tuple[int, int, int]]] = [[] for _ in range(n_buckets)]
        self._pending = 0

    def add(self, digest: bytes, pos: int) -> None:
        self._buf[digest[0] % self.n].append(
            (int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:16], "little"), pos))
        self._pending += 1
        if self._pending >= self.flush_at:
            self.flush()

    def flush(self) -> None:
        for i, rows in enumerate(self._buf):
            if rows:
                with open(self.folder / f"{i:03d}.bin", "ab") as fh:
                    np.array(rows, dtype=RECORD).tofile(fh)
                rows.clear()
        self._pending = 0

    def duplicates(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Per bucket, :func:`duplicate_pairs` of its records (buckets with none are skipped)."""
        self.flush()
        for path in sorted(self.folder.glob("*.bin")):
            first, later = duplicate_pairs(np.fromfile(path, dtype=RECORD))
            if len(later):
                yield first, later

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "DigestBuckets":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
