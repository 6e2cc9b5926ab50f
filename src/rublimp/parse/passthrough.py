"""Where each tree of a CoNLL-U source lies in its file, so that a parse shard reads only its own trees.

Sentences of ``conllu`` sources are passed through by the parse stage, not parsed. Without an
index every parse shard scans each such source from the start to find its trees (a line scan of
the whole file per shard: the corpus read once per shard). :func:`build_index` scans each source
once, in step with the sentence table (whose rows of a CoNLL-U source are in file order, some
trees left out by the corpus stage), and writes, per table row, the byte offset and first line
of its tree (``-1``: not from a CoNLL-U source, or not found) to a ``.npy`` file of shape
``(rows, 2)``, written through a memory map: memory does not grow with the corpus.
:func:`read_tree` reads one tree back from its offset.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

__all__ = ["iter_block_offsets", "build_index", "read_tree"]

_SENT_ID = b"# sent_id"


def iter_block_offsets(path: str | os.PathLike) -> Iterator[tuple[str | None, int, int]]:
    """``(raw # sent_id value or None, byte offset, first line)`` of every tree block of a CoNLL-U
    file (blocks of comments only are skipped), as :func:`rublimp.conllu_doc.iter_sentence_blocks`
    delimits them."""
    offset = 0
    start = start_line = -1
    raw: str | None = None
    has_token = False
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            stripped = line.strip()
            if not stripped:
                if start >= 0 and has_token:
                    yield raw, start, start_line
                start, raw, has_token = -1, None, False
            else:
                if start < 0:
                    start, start_line = offset, lineno
                if stripped.startswith(b"#"):
                    if raw is None and line.startswith(_SENT_ID) and b"=" in line:
                        raw = line.split(b"=", 1)[1].strip().decode("utf-8", "replace")
                else:
                    has_token = True
            offset += len(line)
    if start >= 0 and has_token:
        yield raw, start, start_line


def build_index(sentences_parquet: str | os.PathLike, sources: Mapping[str, Mapping[str, Any]],
                out_npy: str | os.PathLike, *, batch_rows: int = 100_000) -> dict[str, int]:
    """Write the offsets index of the sentence table's rows (module docstring); returns per source
    the number of rows found in its file (a row not found is read by a scan in the parse job)."""
    import pyarrow.parquet as pq

    from rublimp.corpus import conllu_sent_id

    table = pq.ParquetFile(str(sentences_parquet))
    n = table.metadata.num_rows
    out_npy = Path(out_npy)
    tmp = out_npy.with_name(f".{out_npy.name}.{os.getpid()}.tmp.npy")
    index = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.int64, shape=(n, 2))
    index[:] = -1
    blocks = {name: iter_block_offsets(src["path"]) for name, src in sources.items()}
    found = {name: 0 for name in sources}
    row = 0
    for batch in table.iter_batches(batch_size=batch_rows, columns=["sent_id", "source"]):
        for sid, name in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()):
            if name in blocks:
                for raw, offset, line in blocks[name]:
                    if raw is not None and conllu_sent_id(name, raw) == sid:
                        index[row] = (offset, line)
                        found[name] += 1
                        break
                else:  # the file ended: the rest of this source's rows are looked up by scanning
                    blocks[name] = iter(())
            row += 1
    index.flush()
    del index
    os.replace(tmp, out_npy)
    return found


def read_tree(fh, path: str, offset: int, first_line: int):
    """The tree whose block starts at byte ``offset`` (line ``first_line``) of the open binary file
    ``fh`` of ``path``, parsed (:func:`rublimp.conllu_doc.parse_block`)."""
    from rublimp.conllu_doc import parse_block

    fh.seek(offset)
    lines = []
    for raw in fh:
        line = raw.decode("utf-8-sig" if offset == 0 and not lines else "utf-8").rstrip("\n").rstrip("\r")
        if not line.strip():
            break
        lines.append(line)
    return parse_block(lines, first_line, path)
