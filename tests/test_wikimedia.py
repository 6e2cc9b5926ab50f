"""Tests for Wikimedia dumps: resumable download over a local HTTP server, sha1, extraction."""

from __future__ import annotations

import bz2
import hashlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape

import pytest

from rublimp.corpus import (
    DownloadError,
    build_sentences,
    download,
    iter_documents,
    iter_pages,
    wikitext_to_text,
)
from rublimp.corpus.wikimedia import TEMPLATE_MARKER, USER_AGENT
from rublimp.io import InputError

# --------------------------------------------------------------------------- a tiny dump

VILLAGE = """{{Карточка населённого пункта
|название = Тихоречье
|статус = село
}}
'''Тихоре́чье''' — [[село]] в [[Вологодская область|Вологодской области]] России.<ref>{{cite web|url=https://example.org/|title=Перепись}}</ref> Село стоит на правом берегу [[река|реки]] Сухоны.

== История ==
Первые упоминания о селе относятся к концу XVI века.{{sfn|Петров|1999|с=12}} В 1930-х годах здесь был организован крупный [[колхоз]].
[[Файл:Tikhorechye church.jpg|thumb|Церковь в селе, построенная в 1820 году.]]
{| class="wikitable"
! Год !! Жители
|-
| 1926 || 840
|}
Сейчас население села составляет {{num|1200}} человек.<!-- по данным 2010 года -->
__NOTOC__
[[Категория:Населённые пункты Вологодской области]]
"""

BRIDGE = """{{дата|15 марта 2021}}
В пятницу в [[Архангельск]]е открыли новый мост через реку.<ref name="src"/> Движение по нему начнётся уже на следующей неделе.

{{Навигация по новостям}}
Мост строили {{неизвестный шаблон|три года}} почти без перерывов.
* Смотрите также [https://example.com/bridge официальный сайт]
[[en:New bridge]]
"""

# A redirect marked by the <redirect> element (its text is a plain sentence here, so only
# the element can exclude it), and an old-style one marked only by its text.
REDIRECT = "Это перенаправление на статью о селе в области."
OLD_REDIRECT = "#REDIRECT [[Мост через Северную Двину]]\nСтарое перенаправление на статью о мосте."
PROJECT_PAGE = "Эта страница описывает правила оформления статей о населённых пунктах."

EXPECTED_SENTENCES = [
    "Тихоречье — село в Вологодской области России.",
    "Село стоит на правом берегу реки Сухоны.",
    "Первые упоминания о селе относятся к концу XVI века.",
    "В 1930-х годах здесь был организован крупный колхоз.",
    "Сейчас население села составляет 1200 человек.",
    "В пятницу в Архангельске открыли новый мост через реку.",
    "Движение по нему начнётся уже на следующей неделе.",
]


def page_xml(title: str, ns: int, page_id: int, text: str, redirect: str | None = None) -> str:
    redirect_xml = f'    <redirect title="{escape(redirect)}" />\n' if redirect else ""
    return (
        f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n    <id>{page_id}</id>\n{redirect_xml}"
        f"    <revision>\n      <id>{page_id * 10}</id>\n      <model>wikitext</model>\n"
        f'      <text bytes="{len(text.encode())}" xml:space="preserve">{escape(text)}</text>\n'
        f"    </revision>\n  </page>\n"
    )


def make_dump(extra_title: str | None = None) -> bytes:
    xml = (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="ru">\n'
        "  <siteinfo>\n    <sitename>Википедия</sitename>\n    <dbname>ruwiki</dbname>\n  </siteinfo>\n"
        + page_xml("Тихоречье", 0, 11, VILLAGE)
        + page_xml("Тихоречье (село)", 0, 12, REDIRECT, redirect="Тихоречье")
        + page_xml("Википедия:Населённые пункты", 4, 13, PROJECT_PAGE)
        + page_xml("Мост через Северную Двину", 0, 14, BRIDGE)
        + page_xml("Мост (Архангельск)", 0, 15, OLD_REDIRECT)
        + (page_xml(extra_title, 0, 16, "Эта статья есть только в старой версии дампа.") if extra_title else "")
        + "</mediawiki>\n"
    )
    return bz2.compress(xml.encode("utf-8"))


DUMP = make_dump()
DUMP_SHA1 = hashlib.sha1(DUMP).hexdigest()


# --------------------------------------------------------------------------- a local dump server


class DumpHandler(BaseHTTPRequestHandler):
    """Serves ``server.body`` at any path; honours ``Range: bytes=N-`` unless told not to.

    ``server.truncate_at``: send the full ``Content-Length`` but only that many body
    bytes, then close the connection (a dropped transfer).
    """

    server: "DumpServer"

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        self.server.requests.append(dict(self.headers.items()))
        body, start = self.server.body, 0
        etag = f'"{hashlib.sha1(body).hexdigest()[:16]}"'
        range_header = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if range_header and self.server.honour_range and if_range in (None, etag):
            match = re.fullmatch(r"bytes=(\d+)-", range_header.strip())
            assert match, range_header
            start = int(match.group(1))
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        payload = body[start:]
        self.send_header("ETag", etag)
        self.send_header("Content-Type", "application/x-bzip2")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.server.truncate_at is not None:
            self.wfile.write(payload[: self.server.truncate_at])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass


class DumpServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), DumpHandler)
        self.body = DUMP
        self.requests: list[dict[str, str]] = []
        self.honour_range = True
        self.truncate_at: int | None = None

    def url(self, name: str = "ruwiki-20240101-pages-articles.xml.bz2") -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/ruwiki/20240101/{name}"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[DumpServer]:
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    srv = DumpServer()
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(timeout=5)


# --------------------------------------------------------------------------- download


def test_download_verifies_sha1_and_reuses_cache(server: DumpServer, tmp_path: Path) -> None:
    path = download(server.url(), tmp_path, sha1=DUMP_SHA1.upper())
    assert path == tmp_path / "ruwiki-20240101-pages-articles.xml.bz2"
    assert path.read_bytes() == DUMP
    assert not path.with_name(path.name + ".part").exists()
    assert len(server.requests) == 1
    assert server.requests[0]["User-Agent"] == USER_AGENT and "Range" not in server.requests[0]
    assert download(server.url(), tmp_path, sha1=DUMP_SHA1) == path
    assert len(server.requests) == 1  # served from the cache


def test_wrong_sha1_fails_clearly_and_keeps_data_out_of_place(server: DumpServer, tmp_path: Path) -> None:
    wrong = "0" * 40
    with pytest.raises(InputError, match=f"sha1 mismatch .*expected {wrong}, got {DUMP_SHA1}") as err:
        download(server.url(), tmp_path, sha1=wrong)
    part = tmp_path / "ruwiki-20240101-pages-articles.xml.bz2.part"
    assert err.value.path == str(part)
    assert part.read_bytes() == DUMP
    assert not (tmp_path / "ruwiki-20240101-pages-articles.xml.bz2").exists()
    # Fixing the sha1 verifies the kept data without downloading it again (HTTP 416).
    assert download(server.url(), tmp_path, sha1=DUMP_SHA1).read_bytes() == DUMP
    assert server.requests[-1]["Range"] == f"bytes={len(DUMP)}-"


def test_truncated_download_fails_loudly_and_resumes(server: DumpServer, tmp_path: Path) -> None:
    half = len(DUMP) // 2
    server.truncate_at = half
    with pytest.raises(DownloadError, match=r"truncated|interrupted") as err:
        download(server.url(), tmp_path, sha1=DUMP_SHA1)
    assert "rerun to resume" in str(err.value)
    part = tmp_path / "ruwiki-20240101-pages-articles.xml.bz2.part"
    assert part.stat().st_size == half
    assert not (tmp_path / "ruwiki-20240101-pages-articles.xml.bz2").exists()

    server.truncate_at = None
    path = download(server.url(), tmp_path, sha1=DUMP_SHA1)
    assert len(server.requests) == 2
    assert server.requests[1]["Range"] == f"bytes={half}-"
    assert hashlib.sha1(path.read_bytes()).hexdigest() == DUMP_SHA1
    assert not part.exists()


def test_resume_restarts_when_server_ignores_range(server: DumpServer, tmp_path: Path) -> None:
    part = tmp_path / "ruwiki-20240101-pages-articles.xml.bz2.part"
    part.write_bytes(b"stale bytes from another file")
    server.honour_range = False
    path = download(server.url(), tmp_path, sha1=DUMP_SHA1)
    assert server.requests[0]["Range"] == f"bytes={len(b'stale bytes from another file')}-"
    assert path.read_bytes() == DUMP


def test_resume_restarts_when_the_dump_changed(server: DumpServer, tmp_path: Path) -> None:
    old = make_dump(extra_title="Старая версия")
    server.body, server.truncate_at = old, len(old) // 2
    with pytest.raises(DownloadError):
        download(server.url(), tmp_path)
    server.body, server.truncate_at = DUMP, None  # the "latest" dump moved on meanwhile
    path = download(server.url(), tmp_path, sha1=DUMP_SHA1)
    assert server.requests[1]["If-Range"] == f'"{hashlib.sha1(old).hexdigest()[:16]}"'
    assert path.read_bytes() == DUMP
    assert not (tmp_path / "ruwiki-20240101-pages-articles.xml.bz2.part.validator").exists()


def test_http_error_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="cannot reach"):
        download("http://127.0.0.1:9/none.xml.bz2", tmp_path, timeout=5)


# --------------------------------------------------------------------------- extraction


def test_iter_pages_keeps_main_namespace_articles_only(tmp_path: Path) -> None:
    dump = tmp_path / "dump.xml.bz2"
    dump.write_bytes(DUMP)
    pages = list(iter_pages(dump))
    assert [(p.page_id, p.title) for p in pages] == [("11", "Тихоречье"), ("14", "Мост через Северную Двину")]
    assert pages[0].wikitext == VILLAGE
    assert [p.title for p in iter_pages(dump, max_pages=1)] == ["Тихоречье"]


def test_iter_pages_is_namespace_agnostic_and_reports_bad_xml(tmp_path: Path) -> None:
    plain = tmp_path / "old.xml"
    plain.write_text(
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">'
        + page_xml("Старая статья", 0, 1, "Текст статьи из старого дампа написан здесь.")
        + "</mediawiki>",
        encoding="utf-8",
    )
    assert [p.title for p in iter_pages(plain)] == ["Старая статья"]
    broken = tmp_path / "broken.xml"
    broken.write_text("<mediawiki>\n<page><title>Обрыв</title>\n</mediawiki>", encoding="utf-8")
    with pytest.raises(InputError, match="malformed dump XML") as err:
        list(iter_pages(broken))
    assert err.value.path == str(broken) and err.value.line == 3
    corrupt = tmp_path / "corrupt.xml.bz2"
    corrupt.write_bytes(DUMP[: len(DUMP) // 2])
    with pytest.raises(InputError, match="corrupt or truncated"):
        list(iter_pages(corrupt))


def test_wikitext_to_text_removes_markup() -> None:
    text = wikitext_to_text(VILLAGE)
    assert text.split("\n") == [
        "Тихоречье — село в Вологодской области России. Село стоит на правом берегу реки Сухоны.",
        "Первые упоминания о селе относятся к концу XVI века. В 1930-х годах здесь был организован крупный колхоз.",
        "Сейчас население села составляет 1200 человек.",
    ]
    bridge = wikitext_to_text(BRIDGE).split("\n")
    assert bridge[1] == f"Мост строили {TEMPLATE_MARKER} почти без перерывов."
    assert bridge[2] == "Смотрите также официальный сайт"
    for leftover in ("[[", "{{дата", "Категория", "thumb", "NOTOC", "1926", "en:", "<ref", "Навигация"):
        assert leftover not in text + "\n".join(bridge)


@pytest.mark.parametrize(
    ("wikitext", "text"),
    [
        (
            "'''Пётр Ива́нов''' ({{lang-en|Peter Ivanov}}; род. [[1 января]] [[1950]], [[Москва]]) — советский [[актёр]].",
            "Пётр Иванов (род. 1 января 1950, Москва) — советский актёр.",
        ),
        ('Река длиной {{s|120 км}} впадает в озеро<ref group="прим">Примечание.</ref>.', "Река длиной 120 км впадает в озеро."),
        ("Он учился в ''Московском'' университете<sup>[1]</sup>, затем работал.", "Он учился в Московском университете, затем работал."),
        ("Это &laquo;известный&raquo; пример&nbsp;текста.", "Это «известный» пример текста."),
        ("Первая строка<br />вторая строка.", "Первая строка\nвторая строка."),
    ],
)
def test_wikitext_inline_constructs(wikitext: str, text: str) -> None:
    assert wikitext_to_text(wikitext) == text


def test_wikimedia_source_end_to_end(server: DumpServer, tmp_path: Path) -> None:
    src = {"name": "ruwiki", "type": "wikimedia", "domain": "encyclopedic", "url": server.url(), "sha1": DUMP_SHA1}
    docs = list(iter_documents(src, cache_dir=tmp_path))
    assert [d.doc_id for d in docs] == ["11:Тихоречье", "14:Мост через Северную Двину"]
    assert (tmp_path / "wikimedia" / "ruwiki-20240101-pages-articles.xml.bz2").exists()
    df, stats = build_sentences([src], cache_dir=tmp_path)
    assert df["text"].to_list() == EXPECTED_SENTENCES
    assert set(df["domain"]) == {"encyclopedic"}
    assert stats["sources"]["ruwiki"]["documents"] == 2
    assert stats["sources"]["ruwiki"]["dropped"]["markup"] == 1  # the unrendered template
    assert len(server.requests) == 1
    limited, _ = build_sentences([{**src, "max_pages": 1}], cache_dir=tmp_path)
    assert limited["text"].to_list() == EXPECTED_SENTENCES[:5]


def test_wikimedia_source_wrong_sha1_names_source(server: DumpServer, tmp_path: Path) -> None:
    src = {"name": "news", "type": "wikimedia", "domain": "news", "url": server.url(), "sha1": "1" * 40}
    with pytest.raises(InputError, match=r"corpus\.sources\[0\] \('news'\): .*sha1 mismatch"):
        build_sentences([src], cache_dir=tmp_path)
