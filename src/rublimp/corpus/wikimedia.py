"""Wikimedia dumps: resumable download, sha1 check, streamed page extraction, wikitext → text.

The three steps are separate so that each can be used (and tested) on its own::

    path = download("https://dumps.wikimedia.org/ruwikinews/latest/ruwikinews-latest-pages-articles.xml.bz2",
                    cache_dir, sha1="…")
    for page in iter_pages(path, max_pages=1000):
        text = wikitext_to_text(page.wikitext)

Downloads use the standard library (``urllib.request``): a dump is fetched into
``<name>.part`` and renamed to ``<name>`` only once it is complete and, when a sha1
is given, verified. An interrupted or truncated transfer raises :class:`DownloadError`
and keeps the ``.part`` file; running again resumes it with an HTTP ``Range`` request.
"""

from __future__ import annotations

import bz2
import hashlib
import http.client
import os
import re
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

import mwparserfromhell
from mwparserfromhell.nodes import Comment, Heading, Tag, Template, Text, Wikilink

from rublimp import __version__
from rublimp.io import InputError
from rublimp.runtime import progress

__all__ = [
    "DownloadError",
    "TEMPLATE_MARKER",
    "USER_AGENT",
    "WikiPage",
    "download",
    "file_sha1",
    "iter_pages",
    "wikitext_to_text",
]

USER_AGENT = f"rublimp/{__version__} (research benchmark builder; Python urllib)"

_SHA1_RE = re.compile(r"^[0-9a-f]{40}$")
_CONTENT_RANGE_RE = re.compile(r"^bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)$")


class DownloadError(OSError):
    """A transfer failed or was truncated; the partial file is kept for a resumed rerun."""


# --------------------------------------------------------------------------- download


def file_sha1(path: str | os.PathLike, *, chunk_size: int = 1 << 20) -> str:
    """Hex sha1 of a file, read in chunks."""
    digest = hashlib.sha1()
    with open(path, "rb") as fh:
        while chunk := fh.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def _check_sha1_value(sha1: str | None) -> str | None:
    if sha1 is None:
        return None
    value = str(sha1).strip().lower()
    if not _SHA1_RE.match(value):
        raise InputError(f"`sha1` must be 40 hexadecimal characters, got {sha1!r}")
    return value


def download(
    url: str,
    cache_dir: str | os.PathLike,
    *,
    sha1: str | None = None,
    timeout: float = 60.0,
    chunk_size: int = 1 << 20,
) -> Path:
    """Download ``url`` into ``cache_dir`` (resuming a ``.part`` file) and return the local path.

    * An existing complete file is reused (re-verified when ``sha1`` is given).
    * A ``.part`` file left by an earlier attempt is resumed with ``Range: bytes=N-`` and
      ``If-Range`` (the ETag/Last-Modified of the first response); a server that ignores
      the range or reports a changed file (``200``) restarts the file from scratch.
    * The body length is checked against ``Content-Length``: a short body raises
      :class:`DownloadError` and keeps the ``.part`` file so a rerun resumes it.
    * With ``sha1``, the finished file must match it or :class:`~rublimp.io.InputError`
      is raised and the data stays in ``.part`` (delete it to download again).
    """
    expected = _check_sha1_value(sha1)
    name = Path(urllib.parse.urlparse(url).path).name
    if not name:
        raise InputError(f"cannot derive a file name from the dump URL {url!r}")
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    dest = cache_dir / name
    part = dest.with_name(dest.name + ".part")

    if dest.exists():
        if expected is not None:
            _verify(dest, expected, url, keep_hint="delete it to download again")
        return dest

    _fetch(url, part, timeout=timeout, chunk_size=chunk_size)
    if expected is not None:
        _verify(part, expected, url, keep_hint="delete it to download again, or fix the `sha1` key")
    os.replace(part, dest)
    _validator_path(part).unlink(missing_ok=True)
    return dest


def _verify(path: Path, expected: str, url: str, *, keep_hint: str) -> None:
    actual = file_sha1(path)
    if actual != expected:
        raise InputError(
            f"sha1 mismatch for {url}: expected {expected}, got {actual}; the data is kept here ({keep_hint})",
            path,
        )


def _fetch(url: str, part: Path, *, timeout: float, chunk_size: int) -> None:
    offset = part.stat().st_size if part.exists() else 0
    validator_file = _validator_path(part)
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
        if validator_file.exists():
            # If-Range: the server sends the whole (new) file instead of a range when the
            # dump changed since the .part file was started (e.g. a "latest" URL moved on).
            headers["If-Range"] = validator_file.read_text(encoding="utf-8").strip()
    request = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        if err.code == 416 and offset:
            # "Range Not Satisfiable": fine only if the .part file already holds the whole body.
            total = _parse_content_range(err.headers.get("Content-Range"))[2]
            if total == offset:
                return
            raise DownloadError(
                f"server refused to resume {url} at byte {offset} (HTTP 416, size {total}); "
                f"delete {part} to download again"
            ) from err
        raise DownloadError(f"HTTP {err.code} {err.reason} for {url}") from err
    except (urllib.error.URLError, OSError) as err:
        raise DownloadError(f"cannot reach {url}: {err}; rerun to retry") from err

    with response:
        status = response.status
        if offset and status == 206:
            start, _, total = _parse_content_range(response.headers.get("Content-Range"))
            if start != offset:
                raise DownloadError(
                    f"server resumed {url} at byte {start}, not at {offset}; delete {part} to download again"
                )
            mode = "ab"
        elif status in (200, 206):
            # No resume, the server ignored the Range header, or If-Range failed: start over.
            offset, mode = 0, "wb"
            total = None
            validator = _strong_validator(response.headers)
            if validator:
                validator_file.write_text(validator + "\n", encoding="utf-8")
            else:
                validator_file.unlink(missing_ok=True)
        else:
            raise DownloadError(f"unexpected HTTP status {status} for {url}")
        length_header = response.headers.get("Content-Length")
        body_length = int(length_header) if length_header is not None else None
        if total is None and body_length is not None:
            total = offset + body_length

        received = 0
        with open(part, mode) as out, progress(
            total=total, initial=offset, unit="B", unit_scale=True, desc=part.name
        ) as bar:
            try:
                while True:
                    if body_length is not None:
                        if received >= body_length:
                            break
                        chunk = response.read(min(chunk_size, body_length - received))
                    else:
                        chunk = response.read(chunk_size)
                    if not chunk:
                        break
                    out.write(chunk)
                    received += len(chunk)
                    bar.update(len(chunk))
            except (http.client.IncompleteRead, OSError) as err:
                out.flush()
                raise DownloadError(
                    f"download of {url} interrupted after {offset + received} of "
                    f"{total if total is not None else '?'} bytes ({err!r}); partial data kept in {part}; "
                    f"rerun to resume"
                ) from err
        if body_length is not None and received != body_length:
            raise DownloadError(
                f"download of {url} truncated: the server announced {body_length} bytes but sent {received} "
                f"(file now {offset + received} of {total} bytes); partial data kept in {part}; rerun to resume"
            )


def _validator_path(part: Path) -> Path:
    return part.with_name(part.name + ".validator")


def _strong_validator(headers: Any) -> str | None:
    """The response's strong ETag, else its Last-Modified date (what ``If-Range`` accepts)."""
    etag = (headers.get("ETag") or "").strip()
    if etag and not etag.startswith("W/"):
        return etag
    return (headers.get("Last-Modified") or "").strip() or None


def _parse_content_range(value: str | None) -> tuple[int | None, int | None, int | None]:
    """Parse ``bytes START-END/TOTAL`` (or ``bytes */TOTAL``) into integers (``None`` where absent)."""
    match = _CONTENT_RANGE_RE.match((value or "").strip())
    if not match:
        raise DownloadError(f"malformed or missing Content-Range header: {value!r}")
    start, end, total = match.groups()
    return (
        int(start) if start is not None else None,
        int(end) if end is not None else None,
        int(total) if total not in (None, "*") else None,
    )


# --------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class WikiPage:
    """One article of a ``pages-articles`` dump (main namespace, not a redirect)."""

    page_id: str
    title: str
    wikitext: str


def _local(tag: str) -> str:
    """Element name without its ``{namespace}`` (dumps change the export schema version)."""
    return tag.rsplit("}", 1)[-1]


def _child(elem: ET.Element, name: str) -> ET.Element | None:
    for sub in elem:
        if _local(sub.tag) == name:
            return sub
    return None


def _open_dump(path: Path) -> IO[bytes]:
    return bz2.open(path, "rb") if path.suffix == ".bz2" else open(path, "rb")


def iter_pages(path: str | os.PathLike, *, max_pages: int | None = None) -> Iterator[WikiPage]:
    """Stream main-namespace, non-redirect pages from a MediaWiki XML export (``.xml`` or ``.xml.bz2``).

    The XML is parsed incrementally (``iterparse`` over the decompressed stream) and
    processed pages are cleared, so memory stays flat on a full Wikipedia dump. Element
    names are matched without their XML namespace, so any export schema version works.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("dump file not found", path)
    yielded = 0
    with _open_dump(path) as stream:
        root: ET.Element | None = None
        try:
            for event, elem in ET.iterparse(stream, events=("start", "end")):
                if root is None:
                    root = elem
                    continue
                if event != "end" or _local(elem.tag) != "page":
                    continue
                page = _page_from_element(elem)
                root.clear()  # drop the processed page (and everything before it)
                if page is None:
                    continue
                yield page
                yielded += 1
                if max_pages is not None and yielded >= max_pages:
                    return
        except ET.ParseError as err:
            raise InputError(f"malformed dump XML: {err}", path, err.position[0]) from err
        except (EOFError, OSError) as err:
            raise InputError(f"corrupt or truncated dump: {err}", path) from err


def _page_from_element(page: ET.Element) -> WikiPage | None:
    ns = _child(page, "ns")
    if ns is None or (ns.text or "").strip() != "0":
        return None
    if _child(page, "redirect") is not None:
        return None
    revision = _child(page, "revision")
    text = _child(revision, "text") if revision is not None else None
    wikitext = (text.text or "") if text is not None else ""
    if wikitext.lstrip().upper().startswith(("#REDIRECT", "#ПЕРЕНАПРАВЛЕНИЕ")):
        return None  # old dumps mark redirects only in the text
    title_elem, id_elem = _child(page, "title"), _child(page, "id")
    return WikiPage(
        page_id=(id_elem.text or "").strip() if id_elem is not None else "",
        title=(title_elem.text or "").strip() if title_elem is not None else "",
        wikitext=wikitext,
    )


# --------------------------------------------------------------------------- wikitext → text

#: Tags whose whole content is dropped (not prose, or prose that would break sentences).
DROP_TAGS = frozenset(
    {
        "ref", "references", "table", "gallery", "math", "chem", "code", "pre", "source",
        "syntaxhighlight", "score", "timeline", "graph", "mapframe", "imagemap", "poem",
        "templatedata", "div", "blockquote", "sup", "sub", "small", "hiero", "categorytree",
        "inputbox", "noinclude", "includeonly", "onlyinclude", "hr",
    }
)

#: Link namespaces (lower-case, Russian and English names) whose links are not article text.
DROP_LINK_NAMESPACES = frozenset(
    {
        "файл", "file", "изображение", "image", "медиа", "media", "категория", "category",
        "шаблон", "template", "википедия", "wikipedia", "вп", "wp", "портал", "portal",
        "проект", "project", "участник", "user", "викиновости", "wikinews", "викитека",
        "викисловарь", "wiktionary", "викицитатник", "wikiquote", "commons", "викисклад",
        "s", "q", "n", "wikt", "b", "v", "d", "m", "mw", "meta", "special", "служебная",
    }
)

#: Templates (lower-case name prefixes) that carry no prose: footnotes, citations, language labels.
SILENT_TEMPLATE_PREFIXES = (
    "sfn", "ref", "cite", "citation", "cref", "efn", "note", "lang-", "lang ", "нет аи",
    "нет ссылок", "нет источников", "источник", "уточнить", "прояснить", "чего?", "кто?",
    "где?", "когда?", "какой?", "переведено", "примечание", "rp", "аи", "сноска",
)

#: Inline templates whose first positional parameter is the text shown to the reader.
FIRST_PARAM_TEMPLATES = frozenset(
    {"nobr", "nowrap", "num", "число", "s", "comment", "abbr", "iw", "не переведено", "нп", "нп3", "нп5"}
)

#: Stand-in for a template we cannot render; the ``markup`` sentence filter rejects it.
TEMPLATE_MARKER = "{{…}}"

_EDGE_MARKERS_RE = re.compile(r"^(?:\s*\{\{…\}\})+|(?:\{\{…\}\}\s*)+$")
_STRESS_RE = re.compile("[\u0300\u0301]")  # stress marks of Russian article leads ("Моско́вский")
_INTERWIKI_RE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]+)*$")
_MAGIC_WORD_RE = re.compile(r"__[A-ZА-ЯЁ_]+__")
_TABLE_LINE_RE = re.compile(r"^\s*(?:\{\||\|\}|\|-|\||!)")
_SPACE_BEFORE_RE = re.compile(r"\s+([,.;:!?)\]»])")
_SPACE_AFTER_RE = re.compile(r"([(\[«])\s+")
_DANGLING_SEP_RE = re.compile(r"\(\s*[,;:]\s*")  # "({{lang-en|…}}; род. …)" → "(род. …)"
_EMPTY_PARENS_RE = re.compile(r"\(\s*[,;:]?\s*\)")
_WS_RE = re.compile(r"[ \t\u00a0\u2009\u202f]+")


def _drop_link(link: Wikilink) -> bool:
    title = str(link.title).strip().lstrip(":")
    if ":" not in title:
        return False
    prefix = title.split(":", 1)[0].strip().lower()
    return prefix in DROP_LINK_NAMESPACES or bool(_INTERWIKI_RE.match(prefix))


def _drop_node(node: object) -> bool:
    if isinstance(node, (Heading, Comment)):
        return True
    if isinstance(node, Tag):
        return str(node.tag).strip().lower() in DROP_TAGS
    if isinstance(node, Wikilink):
        return _drop_link(node)
    return False


def _template_replacement(template: Template) -> str:
    """What an (inline) template becomes in the plain text; see :func:`wikitext_to_text`."""
    name = str(template.name).strip().lower().replace("_", " ")
    if name.startswith(SILENT_TEMPLATE_PREFIXES):
        return ""
    if name in FIRST_PARAM_TEMPLATES and template.has("1"):
        return mwparserfromhell.parse(str(template.get("1").value)).strip_code(normalize=True).strip()
    return TEMPLATE_MARKER


def wikitext_to_text(wikitext: str) -> str:
    """Plain prose from wikitext: one paragraph per line, separated by ``"\\n"``.

    ``mwparserfromhell`` parses the markup; headings, comments, references, tables,
    galleries and other non-prose tags, and file/category/interwiki links are removed
    from the tree, then ``strip_code()`` renders the rest (link labels, bold and italics
    become plain text, HTML entities are decoded). Templates are handled so that no
    sentence silently loses words:

    * footnote-like and language-label templates (``SILENT_TEMPLATE_PREFIXES``) vanish;
    * a few inline templates whose first parameter is the visible text
      (``FIRST_PARAM_TEMPLATES``: ``nobr``, ``num``, …) are replaced by that text;
    * any other template becomes :data:`TEMPLATE_MARKER`. Markers at the start or end of a
      paragraph (infoboxes, navigation boxes, hatnotes) are removed; a marker left inside
      a paragraph stands for words we cannot render, and the ``markup`` sentence filter
      rejects the sentence that contains it.

    Leftovers that the parser keeps as text (magic words such as ``__TOC__``, stray
    table rows) and combining stress marks are removed, and whitespace/punctuation
    spacing is tidied.
    """
    code = mwparserfromhell.parse(wikitext)
    # filter() walks parents before children; a child of an already-removed node is gone.
    for node in code.filter(recursive=True, matches=_drop_node):
        try:
            code.remove(node)
        except ValueError:
            pass
    for node in code.filter_tags(recursive=True, matches=lambda n: str(n.tag).strip().lower() == "br"):
        try:
            code.replace(node, Text("\n"))  # a line break separates blocks; never glue words together
        except ValueError:
            pass
    for template in code.filter_templates(recursive=True):
        try:
            code.replace(template, Text(_template_replacement(template)))  # Text: not re-parsed
        except ValueError:
            pass
    text = code.strip_code(normalize=True, collapse=True)
    text = _MAGIC_WORD_RE.sub(" ", text)
    text = _STRESS_RE.sub("", text)
    paragraphs: list[str] = []
    for line in text.split("\n"):
        if _TABLE_LINE_RE.match(line):
            continue
        line = _EDGE_MARKERS_RE.sub("", line)
        line = _WS_RE.sub(" ", line)
        line = _EMPTY_PARENS_RE.sub("", line)
        line = _DANGLING_SEP_RE.sub("(", line)
        line = _SPACE_BEFORE_RE.sub(r"\1", line)
        line = _SPACE_AFTER_RE.sub(r"\1", line)
        line = _WS_RE.sub(" ", line).strip()
        if line:
            paragraphs.append(line)
    return "\n".join(paragraphs)
