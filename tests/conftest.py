"""Shared fixtures: the demo corpus parsed once per test session."""

from __future__ import annotations

import gc
import hashlib
import os
from pathlib import Path

import pytest

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
DEMO_DIR = REPO / "resources" / "demo_corpus"


# -- garbage collection: a full collection walks every object the session holds --------------------
# The suite imports torch, transformers, polars and every test module into one process and keeps
# session fixtures (the parsed demo corpus) alive, so each full collection (``gc.collect()``, which
# rublimp.runtime.release_memory calls once per scoring bucket) walks millions of objects that no
# test will free. Before each test module's first test, the garbage so far is collected and what is
# still alive is frozen (``gc.freeze()``: left out of later collections, never freed); objects a
# test makes are collected as usual. No test inspects the collector.
_FROZEN_AT: list[object] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item) -> None:
    module = getattr(item, "module", None)
    if module is not _FROZEN_AT[0]:
        _FROZEN_AT[0] = module
        gc.collect()
        gc.freeze()


def demo_items() -> list[tuple[str, str, str]]:
    """(sent_id, text, domain) for every sentence line of the bundled demo corpus files."""
    items = []
    for path in sorted(DEMO_DIR.glob("*.txt")):
        domain = path.stem
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if line.lower().startswith("# domain:"):
                domain = line.split(":", 1)[1].strip()
            if line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, domain))
    return items


def _parser_digest() -> "hashlib._Hash":
    """A sha1 seeded with the code a parse depends on: the parser package, morphology and the CoNLL-U model."""
    h = hashlib.sha1()
    code = sorted((REPO / "src" / "rublimp" / "parse").glob("*.py"))
    for p in code + [REPO / "src" / "rublimp" / "morph.py", REPO / "src" / "rublimp" / "conllu_doc.py"]:
        h.update(p.read_bytes())
    return h


def _cached_parse(request, items: list[tuple[str, str, str]], name: str) -> list:
    """``parse_texts(items)``, kept in pytest's cache dir as CoNLL-U keyed by the items and the parser's code
    (a CoNLL-U round trip gives back equal sentences: ids, text, domain, tokens with offsets)."""
    from rublimp.conllu_doc import read_conllu, write_conllu
    from rublimp.parse import parse_texts

    h = _parser_digest()
    for i in items:
        h.update("\t".join(i).encode("utf-8") + b"\n")
    cache = Path(request.config.cache.mkdir("rublimp_demo")) / f"{name}_{h.hexdigest()[:16]}.conllu"
    if cache.exists():
        return list(read_conllu(cache))
    sents = list(parse_texts(items))
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    write_conllu(sents, tmp)
    tmp.replace(cache)
    return sents


@pytest.fixture(scope="session")
def demo_sentences(request):
    """Every demo-corpus sentence parsed by the default parser; cached in pytest's cache dir by content."""
    items = demo_items()
    if not items:
        pytest.skip("the demo corpus is empty")
    return _cached_parse(request, items, "demo")


@pytest.fixture(scope="session")
def parse_cases(request):
    """Parse a paradigm suite's hand-written sentences once: ``(positive, negative, extra, prefix) -> {text: Sentence}``.

    ``positive`` maps paradigm -> [(sentence, bad sentence)], ``negative`` paradigm -> [sentence];
    sent_ids are ``f"{prefix}{i}"`` over the sorted texts (some paradigms seed choices by sent_id).
    The parses are cached in pytest's cache dir by content, as for :func:`demo_sentences`.
    """

    def parse(positive, negative, extra=(), prefix="t"):
        texts = sorted({g for cases in positive.values() for g, _ in cases} | {t for ts in negative.values() for t in ts} | set(extra))
        items = [(f"{prefix}{i}", t, "test") for i, t in enumerate(texts)]
        return {s.text: s for s in _cached_parse(request, items, "cases")}

    return parse
