"""Small I/O helpers shared by every stage: atomic writes and clear input errors."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import re
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


#: Control characters no text input may carry: C0 (U+0000–U+001F) except tab, DEL (U+007F) and
#: C1 (U+0080–U+009F, which in Russian text only ever comes from a wrong decoding). Line breaks
#: are included: inside one sentence, field or line they are as foreign as a NUL byte.
CONTROL_CHARS_RE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def find_control_char(text: str) -> str | None:
    """``None`` when ``text`` has no control character (:data:`CONTROL_CHARS_RE`), else a
    description of the first one: ``"control character U+0000 at column 5"`` (1-based)."""
    match = CONTROL_CHARS_RE.search(text)
    if match is None:
        return None
    return f"control character U+{ord(match.group()):04X} at column {match.start() + 1}"


def utf8_error(path: str | os.PathLike, err: UnicodeDecodeError | None = None) -> InputError:
    """An :class:`InputError` naming the first line of ``path`` that is not valid UTF-8.

    Text-mode reading decodes in chunks, so the exception itself knows neither the
    file nor the line; the file is scanned again in binary to find the line.
    """
    path = Path(path)
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as line_err:
                return InputError(
                    f"not valid UTF-8 ({line_err.reason} at byte {line_err.start} of the line, "
                    f"{raw[max(line_err.start - 8, 0):line_err.end + 8]!r})",
                    path,
                    lineno,
                )
    return InputError(f"not valid UTF-8 ({err.reason if err else 'undecodable'})", path)


def iter_text_lines(path: str | os.PathLike) -> Iterator[str]:
    """The lines of a UTF-8 text file (a BOM is dropped; line ends kept), streamed.

    Raises :class:`InputError` naming the file for a missing file and the file and
    line for bytes that are not UTF-8 (instead of a bare ``UnicodeDecodeError``).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("input file not found" if not path.exists() else "not a file", path)
    try:
        with open(path, encoding="utf-8-sig") as fh:
            yield from fh
    except UnicodeDecodeError as err:
        raise utf8_error(path, err) from err


def _stale_tmp_owner_dead(tmp: Path) -> bool:
    # temporary names are ".<name>.<pid>.<random>.tmp" (see atomic_path)
    parts = tmp.name.rsplit(".", 3)
    if len(parts) != 4 or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists but belongs to someone else
        return False
    return False


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it over ``path`` only on success.

    A failing stage therefore never leaves a half-written output behind, and an
    output that existed before the failure is kept untouched. A process killed
    outright (SIGKILL, the out-of-memory killer) cannot clean up: its temporary
    file carries its pid, and the next write of the same output removes it.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if _stale_tmp_owner_dead(stale):
            with contextlib.suppress(OSError):
                stale.unlink()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
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


#: rows per Parquet row group of the tables a later job reads a slice of (the sentence table): a
#: reader of one slice decodes the row groups it overlaps only
ROW_GROUP_ROWS = 50_000


def write_parquet_atomic(df, path: str | os.PathLike, *, row_group_size: int | None = None) -> None:
    """Write a polars DataFrame to Parquet atomically (deterministic: no statistics timestamps)."""
    with atomic_path(path) as tmp:
        df.write_parquet(tmp, compression="zstd", statistics=False, row_group_size=row_group_size)


def write_csv_atomic(df, path: str | os.PathLike) -> None:
    with atomic_path(path) as tmp:
        df.write_csv(tmp)
