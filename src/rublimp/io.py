"""Small I/O helpers shared by every stage: atomic writes and clear input errors."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterator


class InputError(ValueError):
    """Bad user input: the message names the file (and line) or the config key."""

    def __init__(self, message: str, path: str | os.PathLike | None = None, line: int | None = None):
        where = ""
        if path is not None:
            where = f"{path}"
            if line is not None:
                where += f":{line}"
            where += ": "
        super().__init__(where + message)
        self.path = None if path is None else str(path)
        self.line = line


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it over ``path`` only on success.

    A failing stage therefore never leaves a half-written output behind, and an
    output that existed before the failure is kept untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        # mkstemp creates 0600 files: give the output the usual permissions under the umask
        umask = os.umask(0)
        os.umask(umask)
        if tmp_path.exists():
            os.chmod(tmp_path, 0o666 & ~umask)
        os.replace(tmp_path, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json_atomic(path: str | os.PathLike, obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def write_parquet_atomic(df, path: str | os.PathLike) -> None:
    """Write a polars DataFrame to Parquet atomically (deterministic: no statistics timestamps)."""
    with atomic_path(path) as tmp:
        df.write_parquet(tmp, compression="zstd", statistics=False)


def write_csv_atomic(df, path: str | os.PathLike) -> None:
    with atomic_path(path) as tmp:
        df.write_csv(tmp)
