"""Corpus sources: read the documents declared under ``corpus.sources`` in the config.

Every source is a dict with ``name``, ``type`` and ``domain`` plus type-specific keys:

==============  =====================================================================
type            keys
==============  =====================================================================
``demo``        ``files`` (optional list of file names), ``dir`` (optional; defaults to
                the bundled ``resources/demo_corpus/``). ``domain`` is not needed: each
                document takes its domain from its file name (``news.txt`` → ``news``).
``text``        ``path`` (a ``.txt`` file or a directory searched recursively for
                ``*.txt``), ``layout``: ``lines`` (default, one document per line) or
                ``paragraphs`` (documents separated by blank lines).
``conllu``      ``path``: an already parsed CoNLL-U file. Its trees go to parsing
                untouched; the corpus stage validates it and reads its sentences with
                :func:`read_conllu_source` (no segmentation, no filters) so that they
                join deduplication. :func:`iter_documents` refuses it.
``wikimedia``   ``url`` (a ``pages-articles.xml.bz2`` dump), ``sha1`` (optional),
                ``max_pages`` (optional).
``librusec``    ``path``: a Librusec ``lib.rus.ec.gz`` archive, read with
                :func:`corus.load_librusec`; each book is one document.
==============  =====================================================================

``text``, ``demo`` and ``librusec`` also accept ``max_documents``.

Unreadable input is skipped and counted, up to a share (:class:`BadInput`, config key
``corpus.max_bad_share``): a line of a ``text``/``demo`` file that is not UTF-8, a tree of a
``conllu`` file that is malformed (bad columns, not one tree, not UTF-8, a control
character). Beyond the share the source is an error naming the file and the first bad lines.

A :class:`Document`'s text is made of blocks separated by ``"\\n"`` (lines of the demo
files, paragraphs of an article or a book); sentence segmentation never crosses a block.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from rublimp.io import InputError

from . import wikimedia

__all__ = [
    "BadInput",
    "DEFAULT_MAX_BAD_SHARE",
    "DEMO_CORPUS_DIR",
    "Document",
    "SOURCE_TYPES",
    "iter_documents",
    "conllu_sent_id",
    "read_conllu_source",
    "source_key",
    "validate_source",
]

#: The bundled demo corpus (repository root ``resources/demo_corpus``).
DEMO_CORPUS_DIR = Path(__file__).resolve().parents[3] / "resources" / "demo_corpus"

_COMMON_KEYS = {"name", "type", "domain"}
_TYPE_KEYS: dict[str, set[str]] = {
    "demo": {"files", "dir", "max_documents"},
    "text": {"path", "layout", "max_documents"},
    "conllu": {"path"},
    "wikimedia": {"url", "sha1", "max_pages"},
    "librusec": {"path", "max_documents"},
}
_REQUIRED_KEYS: dict[str, set[str]] = {
    "demo": set(),
    "text": {"path", "domain"},
    "conllu": {"path", "domain"},
    "wikimedia": {"url", "domain"},
    "librusec": {"path", "domain"},
}
SOURCE_TYPES = tuple(_TYPE_KEYS)
_ALL_TYPE_KEYS = set().union(*_TYPE_KEYS.values())
_SCHEMA_DEFAULTS = {"layout": "lines"}
_NO_DEFAULT = object()
_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


#: Default of ``corpus.max_bad_share``: the share of a source's lines (trees for ``conllu``)
#: that may be unreadable and are skipped; beyond it the source is an error.
DEFAULT_MAX_BAD_SHARE = 0.01


class BadInput:
    """Unreadable lines (or trees) of one source: skipped, counted, and limited to a share.

    ``read`` counts every line (tree) looked at, ``bad`` the skipped ones; ``first`` keeps the
    first ``keep`` as ``"file:line: reason"``. :meth:`check` raises
    :class:`~rublimp.io.InputError` when ``bad / read`` exceeds ``max_share``.
    """

    def __init__(self, key: str, max_share: float = DEFAULT_MAX_BAD_SHARE, *, unit: str = "lines", keep: int = 5):
        if isinstance(max_share, bool) or not isinstance(max_share, (int, float)) or not 0 <= max_share <= 1:
            raise InputError(f"corpus.max_bad_share: must be a number between 0 and 1, got {max_share!r}")
        self.key, self.max_share, self.unit, self.keep = key, float(max_share), unit, keep
        self.read = 0
        self.bad = 0
        self.first: list[str] = []
        self.first_error: InputError | None = None

    def add(self, err: InputError) -> None:
        """Count one skipped line/tree; ``err`` names its file and line."""
        self.bad += 1
        if self.first_error is None:
            self.first_error = err
        if len(self.first) < self.keep:
            self.first.append(str(err))

    def check(self) -> None:
        """Raise when more than ``max_share`` of what was read is unreadable."""
        if self.bad and self.bad > self.max_share * self.read:
            first = self.first_error
            raise InputError(
                f"{self.key}: {self.bad} of {self.read} {self.unit} unreadable, more than "
                f"corpus.max_bad_share={self.max_share:g} allows; first: " + "; ".join(self.first),
                first.path if first is not None else None,
                first.line if first is not None else None,
            )

    def as_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "read": self.read, "skipped": self.bad, "first_skipped": list(self.first)}


@dataclass(frozen=True)
class Document:
    """One document of a corpus source.

    ``text`` holds blocks (lines/paragraphs) separated by ``"\\n"``; ``doc_id`` names
    where it came from (file and line, page id, book id) for provenance.
    """

    doc_id: str
    text: str
    domain: str
    source: str


def source_key(source: Mapping[str, Any], index: int | None = None) -> str:
    """How errors name a source: ``corpus.sources[0] ('mytext')``."""
    name = source.get("name") if isinstance(source, Mapping) else None
    where = f"corpus.sources[{index}]" if index is not None else "corpus source"
    return f"{where} ({name!r})" if name is not None else where


def validate_source(source: Any, key: str | None = None) -> dict[str, Any]:
    """Check a source declaration (keys, types, values) and return it as a plain dict.

    Raises :class:`~rublimp.io.InputError` naming ``key`` (see :func:`source_key`).
    """
    key = key or source_key(source if isinstance(source, Mapping) else {})
    if not isinstance(source, Mapping):
        raise InputError(f"{key}: a source must be a mapping with `name`, `type` and `domain`, got {source!r}")
    src = dict(source)
    for required in ("name", "type"):
        if required not in src:
            raise InputError(f"{key}: missing key `{required}`")
    name, kind = src["name"], src["type"]
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise InputError(f"{key}.name: must be a non-empty string of ASCII letters, digits, '_', '.' or '-', got {name!r}")
    if kind not in _TYPE_KEYS:
        raise InputError(f"{key}.type: unknown source type {kind!r}; expected one of {', '.join(SOURCE_TYPES)}")
    # A key of another source type is tolerated when it is unset or holds the config
    # schema's default (the schema fills `layout: lines` into every source).
    unknown = {
        k
        for k in set(src) - _COMMON_KEYS - _TYPE_KEYS[kind]
        if k not in _ALL_TYPE_KEYS or (src[k] is not None and _SCHEMA_DEFAULTS.get(k, _NO_DEFAULT) != src[k])
    }
    for k in set(src) - _COMMON_KEYS - _TYPE_KEYS[kind] - unknown:
        del src[k]
    if unknown:
        allowed = ", ".join(sorted(_COMMON_KEYS | _TYPE_KEYS[kind]))
        raise InputError(f"{key}: unknown key(s) {', '.join(sorted(unknown))} for type {kind!r} (allowed: {allowed})")
    for required in sorted(_REQUIRED_KEYS[kind]):
        if required not in src:
            raise InputError(f"{key}: missing key `{required}` (required for type {kind!r})")
    if "domain" in src and (not isinstance(src["domain"], str) or not src["domain"].strip()):
        raise InputError(f"{key}.domain: must be a non-empty string, got {src['domain']!r}")
    for int_key in ("max_pages", "max_documents"):
        value = src.get(int_key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InputError(f"{key}.{int_key}: must be a positive integer, got {value!r}")
    if kind == "text":
        layout = src.setdefault("layout", "lines")
        if layout not in ("lines", "paragraphs"):
            raise InputError(f"{key}.layout: must be 'lines' or 'paragraphs', got {layout!r}")
    if kind == "demo" and "files" in src:
        files = src["files"]
        if not isinstance(files, list) or not files or not all(isinstance(f, str) and f for f in files):
            raise InputError(f"{key}.files: must be a non-empty list of file names, got {files!r}")
    if kind == "wikimedia":
        if not isinstance(src["url"], str) or not src["url"].startswith(("http://", "https://")):
            raise InputError(f"{key}.url: must be an http(s) URL, got {src['url']!r}")
        sha1 = src.get("sha1")
        if sha1 is not None:
            if not isinstance(sha1, str) or not re.fullmatch(r"[0-9a-fA-F]{40}", sha1.strip()):
                raise InputError(f"{key}.sha1: must be 40 hexadecimal characters, got {sha1!r}")
            src["sha1"] = sha1.strip().lower()
    return src


def iter_documents(
    source: Mapping[str, Any],
    *,
    cache_dir: str | os.PathLike,
    key: str | None = None,
    bad: BadInput | None = None,
) -> Iterator[Document]:
    """Yield the documents of one source (see the module docstring for the source types).

    ``cache_dir`` holds downloads (``wikimedia``); ``key`` names the source in errors
    (default: ``corpus source ('<name>')``). Missing files raise
    :class:`~rublimp.io.InputError` with the path. Lines that are not UTF-8 are skipped
    and counted in ``bad``; the caller then calls ``bad.check()``. Without ``bad``, a
    :class:`BadInput` with the default share is checked once the source is read.
    """
    key = key or source_key(source if isinstance(source, Mapping) else {})
    src = validate_source(source, key)
    own = bad is None
    if bad is None:
        bad = BadInput(key)
    yield from _limited_documents(src, key, Path(cache_dir), bad)
    if own:
        bad.check()


def _limited_documents(src: dict[str, Any], key: str, cache_dir: Path, bad: BadInput) -> Iterator[Document]:
    kind = src["type"]
    limit = src.get("max_documents")
    if kind == "demo":
        docs: Iterable[Document] = _iter_demo(src, key, bad)
    elif kind == "text":
        docs = _iter_text(src, key, bad)
    elif kind == "wikimedia":
        docs = _iter_wikimedia(src, cache_dir, key)
    elif kind == "librusec":
        docs = _iter_librusec(src, key)
    else:  # conllu
        raise InputError(
            f"{key}: a 'conllu' source is already parsed and has no raw documents; "
            "read its sentences with read_conllu_source()"
        )
    for count, doc in enumerate(docs, start=1):
        yield doc
        if limit is not None and count >= limit:
            return


# --------------------------------------------------------------------------- demo & text


def _existing_path(value: Any, key: str, field: str = "path") -> Path:
    if not isinstance(value, (str, os.PathLike)) or not str(value):
        raise InputError(f"{key}.{field}: must be a path, got {value!r}")
    path = Path(value).expanduser()
    if not path.exists():
        raise InputError(f"file or directory not found (config key {key}.{field})", path)
    return path


def _read_lines(path: Path, bad: BadInput | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` of a UTF-8 text file (BOM and CRLF tolerated).

    Lines are decoded one by one (not through a buffered text stream) so that a decoding
    error names the exact line. Such a line raises :class:`~rublimp.io.InputError`, or,
    with ``bad``, is skipped and counted there (``bad.read`` counts every line).
    """
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if bad is not None:
                bad.read += 1
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as err:
                error = InputError(f"not valid UTF-8 ({err.reason} at byte {err.start})", path, lineno)
                if bad is None:
                    raise error from err
                bad.add(error)
                continue
            yield lineno, line.rstrip("\r\n")


def _blocks(lines: Iterable[tuple[int, str]], *, skip_comments: bool) -> Iterator[tuple[int, list[str]]]:
    """Group lines into blank-line separated blocks: ``(first_line_number, stripped_lines)``."""
    start, current = 0, []
    for lineno, line in lines:
        stripped = line.strip()
        if skip_comments and stripped.startswith("#"):
            continue
        if not stripped:
            if current:
                yield start, current
            current = []
            continue
        if not current:
            start = lineno
        current.append(stripped)
    if current:
        yield start, current


def _demo_dir(src: Mapping[str, Any], key: str) -> Path:
    if "dir" in src:
        return _existing_path(src["dir"], key, "dir")
    for candidate in (DEMO_CORPUS_DIR, Path.cwd() / "resources" / "demo_corpus"):
        if candidate.is_dir():
            return candidate
    raise InputError(f"bundled demo corpus not found (config key {key}; set `dir`)", DEMO_CORPUS_DIR)


def _iter_demo(src: Mapping[str, Any], key: str, bad: BadInput) -> Iterator[Document]:
    root = _demo_dir(src, key)
    if "files" in src:
        files = []
        for name in src["files"]:
            path = root / name
            if not path.is_file():
                raise InputError(f"demo corpus file not found (config key {key}.files)", path)
            files.append(path)
    else:
        files = sorted(root.glob("*.txt"))
        if not files:
            raise InputError(f"no *.txt files in the demo corpus directory (config key {key})", root)
    for path in files:
        domain = _demo_domain(path)
        # Demo files: '#' comment lines, one sentence per line, documents separated by blank lines.
        for start, lines in _blocks(_read_lines(path, bad), skip_comments=True):
            yield Document(f"{path.name}:{start}", "\n".join(lines), domain, src["name"])



def _demo_domain(path: Path) -> str:
    """A demo file's domain: its ``# domain: X`` header line, else its file name (``news.txt``)."""
    for _, line in _read_lines(path, BadInput("demo header", 1.0)):  # the documents' read counts bad lines
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        if stripped.lower().startswith("# domain:"):
            return stripped.split(":", 1)[1].strip()
    return path.stem


def _text_files(path: Path, key: str) -> list[Path]:
    if path.is_file():
        return [path]
    files = sorted(p for p in path.rglob("*.txt") if p.is_file())
    if not files:
        raise InputError(f"no .txt files found (config key {key}.path)", path)
    return files


def _iter_text(src: Mapping[str, Any], key: str, bad: BadInput) -> Iterator[Document]:
    root = _existing_path(src["path"], key)
    files = _text_files(root, key)
    domain, name = src["domain"], src["name"]
    for path in files:
        label = path.name if path == root else path.relative_to(root).as_posix()
        if src["layout"] == "lines":
            for lineno, line in _read_lines(path, bad):
                if line.strip():
                    yield Document(f"{label}:{lineno}", line.strip(), domain, name)
        else:
            # A paragraph may be hard-wrapped over several lines: its lines are one block.
            for start, lines in _blocks(_read_lines(path, bad), skip_comments=False):
                yield Document(f"{label}:{start}", " ".join(lines), domain, name)


# --------------------------------------------------------------------------- wikimedia & librusec


def _iter_wikimedia(src: Mapping[str, Any], cache_dir: Path, key: str) -> Iterator[Document]:
    try:
        dump = wikimedia.download(src["url"], cache_dir / "wikimedia", sha1=src.get("sha1"))
    except InputError as err:
        wrapped = InputError(f"{key}: {err}")
        wrapped.path, wrapped.line = err.path, err.line
        raise wrapped from err
    except wikimedia.DownloadError as err:
        raise wikimedia.DownloadError(f"{key}: {err}") from err
    for page in wikimedia.iter_pages(dump, max_pages=src.get("max_pages")):
        text = wikimedia.wikitext_to_text(page.wikitext)
        if text:
            yield Document(f"{page.page_id}:{page.title}", text, src["domain"], src["name"])


def _iter_librusec(src: Mapping[str, Any], key: str) -> Iterator[Document]:
    with warnings.catch_warnings():  # corus imports the deprecated `cgi` module
        warnings.simplefilter("ignore", DeprecationWarning)
        from corus import load_librusec  # imported lazily: corus pulls in many corpus loaders

    path = _existing_path(src["path"], key)
    try:
        # corus reads a gzip file in which a line "<id>.fb2 <text>" starts a new book.
        for record in load_librusec(str(path)):
            if record.id is None:
                continue  # text before the first "<id>.fb2" marker (or an empty archive)
            text = "\n".join(line.strip() for line in record.text.split("\n") if line.strip())
            if text:
                yield Document(f"{record.id}.fb2", text, src["domain"], src["name"])
    except (OSError, EOFError, gzip.BadGzipFile) as err:
        raise InputError(f"cannot read Librusec archive (expected gzip): {err} (config key {key}.path)", path) from err
    except UnicodeDecodeError as err:
        raise InputError(f"Librusec archive is not UTF-8 ({err.reason}) (config key {key}.path)", path) from err


# --------------------------------------------------------------------------- conllu


def conllu_sent_id(source_name: str, sent_id: str) -> str:
    """The ``sent_id`` a CoNLL-U source's sentence gets in the sentence table: ``"{source}:{sent_id}"``.

    Source names cannot contain ``":"``, so these never collide with the
    ``"{source}-{doc}-{sent}"`` ids of raw-text sources or with another source's ids.
    """
    return f"{source_name}:{sent_id}"


def read_conllu_source(
    path: str | os.PathLike, *, domain: str, bad: BadInput | None = None
) -> Iterator[tuple[str, str, str]]:
    """Validate a CoNLL-U file and yield ``(sent_id, text, domain)`` for each sentence.

    Reading goes through :func:`rublimp.conllu_doc.read_conllu` (the parse stage's own
    reader), so ``sent_id`` is the file's ``# sent_id`` (or that reader's
    ``"{file}:{line}"`` fallback), ``text`` its ``# text`` (or the tokens joined with
    ``SpaceAfter``), and a ``# domain`` comment overrides ``domain``. Malformed input raises
    :class:`~rublimp.io.InputError` with the file and line, and so does a duplicate ``sent_id``
    (the first one, with both sentence numbers) once the file has been read;
    with ``bad``, a malformed tree (or one with a line that is not UTF-8) is skipped and
    counted there instead (``bad.read`` counts every tree; the caller calls ``bad.check()``).
    """
    from rublimp.conllu_doc import read_conllu

    from .dedupe import DigestBuckets

    path = Path(path)
    on_error = None
    if bad is not None:
        bad.unit = "trees"

        def on_error(err: InputError) -> None:
            bad.read += 1
            bad.add(err)

    # duplicate sent_ids are found from digests in buckets on disk once the file is read (memory
    # does not grow with the file); the first duplicate is reported as a one-pass check would
    n = 0
    with DigestBuckets() as seen:
        for index, sentence in enumerate(read_conllu(path, on_error=on_error)):
            if bad is not None:
                bad.read += 1
            seen.add(hashlib.blake2b(sentence.sent_id.encode("utf-8"), digest_size=16).digest(), index)
            n += 1
            yield sentence.sent_id, sentence.text.strip(), sentence.domain or domain
        pairs = [(int(later.min()), int(first[later.argmin()])) for first, later in seen.duplicates()]
    if pairs:
        later, first = min(pairs)
        sent_id = next(s.sent_id for i, s in enumerate(read_conllu(path, on_error=lambda err: None)) if i == later)
        raise InputError(f"duplicate sent_id {sent_id!r} (sentences {first + 1} and {later + 1})", path)
    if not n:
        if bad is not None:
            bad.check()
        raise InputError("CoNLL-U file has no sentences", path)
