"""Benchmark the corpus stage: segmentation + filtering throughput, and the whole build.

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_corpus.py [--repeat N] [--generated]

Reads the bundled demo corpus (``resources/demo_corpus``) if present, otherwise a text
generated from small hand-written word lists. It times (a) razdel segmentation plus all
sentence filters over the documents, repeated ``--repeat`` times, and (b) one full
``build_sentences`` run (reading, segmentation, filters, dedupe, stats), and prints a
one-line summary with sentences/s and documents/s, plus how many sentences each filter
dropped.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

from rublimp.corpus import FilterConfig, build_sentences, check_sentence, iter_documents, split_sentences
from rublimp.corpus.sources import DEMO_CORPUS_DIR, Document

_SUBJECTS = ["Старый рыбак", "Молодая учительница", "Наш сосед", "Известный художник", "Городской врач"]
_VERBS = ["долго смотрел на", "внимательно читал", "неожиданно вспомнил", "с радостью показал нам"]
_OBJECTS = ["спокойное вечернее море", "письмо от брата", "старую карту области", "новую картину"]
_TAILS = [".", " прошлой осенью.", " у окна.", ", и все молчали.", "", " в тот вечер!"]


def generated_documents(n_docs: int = 400, seed: int = 0) -> list[Document]:
    """Documents of 3–12 sentences built from the word lists above (some end without a stop)."""
    rng = random.Random(seed)
    docs = []
    for i in range(n_docs):
        sentences = [
            f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}{rng.choice(_TAILS)}"
            for _ in range(rng.randint(3, 12))
        ]
        docs.append(Document(f"gen:{i}", " ".join(sentences), "fiction", "generated"))
    return docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="passes over the documents for timing (a)")
    parser.add_argument("--generated", action="store_true", help="use generated text even if the demo corpus exists")
    args = parser.parse_args()

    use_demo = not args.generated and any(DEMO_CORPUS_DIR.glob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        if use_demo:
            source = {"name": "demo", "type": "demo"}
            label = "demo corpus"
        else:
            path = Path(tmp) / "generated.txt"
            path.write_text("\n".join(d.text for d in generated_documents()) + "\n", encoding="utf-8")
            source = {"name": "generated", "type": "text", "domain": "fiction", "path": str(path)}
            label = "generated text"
        docs = list(iter_documents(source, cache_dir=tmp))

        cfg = FilterConfig()
        reasons: Counter[str] = Counter()
        n_sent = 0
        t0 = time.perf_counter()
        for _ in range(args.repeat):
            for doc in docs:
                for sentence in split_sentences(doc.text):
                    reasons[check_sentence(sentence, cfg) or "kept"] += 1
                    n_sent += 1
        t_seg = time.perf_counter() - t0

        t0 = time.perf_counter()
        df, stats = build_sentences([source], cache_dir=tmp)
        t_build = time.perf_counter() - t0

    per_pass = {k: v // args.repeat for k, v in reasons.most_common()}
    print(
        f"bench_corpus [{label}]: segment+filter {n_sent / t_seg:,.0f} sentences/s, "
        f"{len(docs) * args.repeat / t_seg:,.0f} documents/s ({len(docs)} docs, {n_sent // args.repeat} sentences "
        f"per pass, {args.repeat} passes, {t_seg:.2f}s); full build_sentences {stats['total']['sentences_seen'] / t_build:,.0f} "
        f"sentences/s ({t_build:.2f}s, kept {df.height}, duplicates {stats['total']['duplicates']}); "
        f"per pass: {per_pass}"
    )


if __name__ == "__main__":
    main()
