"""Shared fixtures: the demo corpus parsed once per test session."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def demo_sentences(request):
    """Every demo-corpus sentence parsed by the default parser; cached in pytest's cache dir by content."""
    from rublimp.conllu_doc import read_conllu, write_conllu
    from rublimp.parse import parse_texts

    items = demo_items()
    if not items:
        pytest.skip("the demo corpus is empty")
    parser_files = sorted((REPO / "src" / "rublimp" / "parse").glob("*.py")) + [REPO / "src" / "rublimp" / "morph.py"]
    h = hashlib.sha1()
    for i in items:
        h.update("\t".join(i).encode("utf-8") + b"\n")
    for p in parser_files:
        h.update(p.read_bytes())
    cache = Path(request.config.cache.mkdir("rublimp_demo")) / f"demo_{h.hexdigest()[:16]}.conllu"
    if cache.exists():
        return list(read_conllu(cache))
    sents = list(parse_texts(items))
    write_conllu(sents, cache)
    return sents


@pytest.fixture(scope="session")
def parse_cases():
    """Parse a paradigm suite's hand-written sentences once: ``(positive, negative, extra, prefix) -> {text: Sentence}``.

    ``positive`` maps paradigm -> [(sentence, bad sentence)], ``negative`` paradigm -> [sentence];
    sent_ids are ``f"{prefix}{i}"`` over the sorted texts (some paradigms seed choices by sent_id).
    """
    from rublimp.parse import parse_texts

    def parse(positive, negative, extra=(), prefix="t"):
        texts = sorted({g for cases in positive.values() for g, _ in cases} | {t for ts in negative.values() for t in ts} | set(extra))
        return {s.text: s for s in parse_texts([(f"{prefix}{i}", t, "test") for i, t in enumerate(texts)])}

    return parse
