"""How many sentences each corpus filter drops: demo corpus, UD Russian-GSD texts, hand-written noise.

Usage (repository root, virtualenv active)::

    python bench/bench_quality_filters.py [--gsd DIR] [--show N]

* demo: the bundled demo corpus through the corpus stage itself (``build_sentences``
  on a ``demo`` source: segmentation, filters, dedupe), as in ``filter_stats.json``;
* gsd: the ``# text`` of every sentence in ``DIR/*.conllu`` (default
  ``../shared/data/ud_russian_gsd``) as a ``text`` source, one document per line;
* noise: ``tests/data/noisy_lines.txt`` (hand-written garbage, one per line) through
  :func:`rublimp.corpus.check_sentence`: lines that pass are the filters' gaps.

The script only reads :data:`rublimp.corpus.FILTER_NAMES`, so the same command
measures the filters before and after a change. ``--show N`` prints N sentences
dropped by each filter (demo and GSD) to read.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from rublimp.conllu_doc import read_conllu
from rublimp.corpus import FILTER_NAMES, build_sentences, check_sentence, split_sentences
from rublimp.corpus.sources import iter_documents

ROOT = Path(__file__).resolve().parents[1]


def _dropped_examples(docs_texts, n: int, seed: int = 0) -> dict[str, list[str]]:
    by_filter: dict[str, list[str]] = defaultdict(list)
    for text in docs_texts:
        for sent in split_sentences(text):
            reason = check_sentence(sent)
            if reason:
                by_filter[reason].append(sent)
    rng = random.Random(seed)
    return {k: rng.sample(v, min(n, len(v))) for k, v in sorted(by_filter.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd", default=str(ROOT.parent / "shared" / "data" / "ud_russian_gsd"))
    ap.add_argument("--noise", default=str(ROOT / "tests" / "data" / "noisy_lines.txt"))
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args()

    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        demo = {"name": "demo", "type": "demo"}
        df, stats = build_sentences([demo], cache_dir=tmp)
        rows["demo"] = stats["total"]
        gsd_files = sorted(Path(args.gsd).glob("*.conllu"))
        if not gsd_files:
            raise SystemExit(f"no *.conllu files in {args.gsd} (pass --gsd DIR)")
        gsd_texts = [s.text for f in gsd_files for s in read_conllu(f)]
        gsd_txt = Path(tmp) / "gsd.txt"
        gsd_txt.write_text("\n".join(gsd_texts) + "\n", encoding="utf-8")
        gsd = {"name": "gsd", "type": "text", "domain": "gsd", "path": str(gsd_txt)}
        _, stats = build_sentences([gsd], cache_dir=tmp)
        rows["gsd"] = stats["total"]

    print(f"{'filter':<22}" + "".join(f"{k:>10}" for k in rows))
    for key in ("sentences_seen",):
        print(f"{key:<22}" + "".join(f"{rows[k][key]:>10}" for k in rows))
    for name in FILTER_NAMES:
        print(f"{'  ' + name:<22}" + "".join(f"{rows[k]['dropped'][name]:>10}" for k in rows))
    for key in ("duplicates", "kept"):
        print(f"{key:<22}" + "".join(f"{rows[k][key]:>10}" for k in rows))

    noise = [l.strip() for l in Path(args.noise).read_text(encoding="utf-8").splitlines()]
    noise = [l for l in noise if l and not l.startswith("#")]
    verdicts = Counter(check_sentence(l) or "PASSES" for l in noise)
    print(f"\nhand-written noisy lines ({len(noise)}): " + json.dumps(dict(sorted(verdicts.items())), ensure_ascii=False))
    for l in noise:
        if check_sentence(l) is None:
            print(f"  passes: {l}")

    if args.show:
        texts = [d.text for d in iter_documents({"name": "demo", "type": "demo"}, cache_dir=".")]
        for label, src in (("demo", texts), ("gsd", gsd_texts)):
            for name, ex in _dropped_examples(src, args.show).items():
                for e in ex:
                    print(f"[{label}] {name}: {e}")


if __name__ == "__main__":
    main()
