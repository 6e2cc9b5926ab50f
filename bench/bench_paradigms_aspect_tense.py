"""Measure the ASPECT and TENSE paradigms on UD Russian-GSD and the demo corpus.

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_aspect_tense.py \\
        [--gsd-dir DIR] [--cache-dir DIR] [--sample 20] [--sample-from all] [--seed 0] \\
        [--pairs-sample 50] [--json out.json]

Printed:

* per paradigm, pairs per 1,000 sentences on the GSD dev+test gold trees
  (``read_conllu``), on the same sentences re-parsed from their ``# text`` by
  the default parser (``rublimp.parse.parse_texts``), and on the demo corpus
  (parsed), plus the number of demo pairs;
* perturbation speed in sentences/s (``Paradigm.pairs`` over the re-parsed GSD
  and the demo corpus, best of ``--repeat`` runs);
* ``--sample`` pairs per paradigm drawn with ``random.Random("<seed>:<paradigm>")``
  from the ``--sample-from`` set, to be read by hand;
* the size of the aspect pair table by pattern and ``--pairs-sample`` random
  pairs from it (``random.Random("<seed>:aspect_pairs")``), for a hand check.

``--cache-dir`` keeps the parsed sentences (``gsd.conllu``, ``demo.conllu``).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

from rublimp.aspect_pairs import ASPECT_PAIRS_FILE, load_aspect_pairs
from rublimp.conllu_doc import Sentence, read_conllu, write_conllu
from rublimp.io import write_json_atomic
from rublimp.paradigms import Paradigm, get_paradigm
from rublimp.paradigms.base import RESOURCES_DIR
from rublimp.parse import parse_texts

NAMES = (
    "change_duration_aspect",
    "change_repetition_aspect",
    "deontic_imperative_aspect",
    "single_verb_tense",
    "conj_verb_tense",
    "tense_marker",
)
GSD_DIR = Path("/work/shared/data/ud_russian_gsd")
GSD_FILES = ("ru_gsd-ud-dev.conllu", "ru_gsd-ud-test.conllu")
DEMO_DIR = RESOURCES_DIR / "demo_corpus"


def demo_items(demo_dir: Path = DEMO_DIR) -> list[tuple[str, str, str]]:
    """``(sent_id, text, domain)`` for every sentence line of the demo corpus files."""
    items = []
    for path in sorted(demo_dir.glob("*.txt")):
        domain = path.stem
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if line.startswith("# domain:"):
                domain = line.split(":", 1)[1].strip()
            elif line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, domain))
    return items


def parse_cached(items: list[tuple[str, str, str]], cache: Path | None) -> list[Sentence]:
    """Parse the items, reusing ``cache`` when it holds exactly these sentences."""
    if cache is not None and cache.exists():
        sents = list(read_conllu(cache))
        if [(s.sent_id, s.text) for s in sents] == [(i[0], i[1]) for i in items]:
            return sents
    sents = list(parse_texts(items, progress=sys.stderr.isatty()))
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        write_conllu(sents, cache)
    return sents


def all_pairs(paradigm: Paradigm, sents: list[Sentence]) -> list[tuple[Sentence, str, object]]:
    return [(s, bad, pert) for s in sents for bad, pert in paradigm.pairs(s)]


def speed(paradigm: Paradigm, sents: list[Sentence], repeat: int) -> float:
    """Sentences per second through ``paradigm.pairs`` (best of ``repeat``; the machine may be shared)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for s in sents:
            for _ in paradigm.pairs(s):
                pass
        best = min(best, time.perf_counter() - t0)
    return len(sents) / best if best > 0 else float("inf")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo", "all"), default="all")
    ap.add_argument("--pairs-sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(NAMES))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    gold: list[Sentence] = []
    for name in GSD_FILES:
        gold.extend(read_conllu(args.gsd_dir / name))
    cache = args.cache_dir
    parsed = parse_cached([(s.sent_id, s.text, "gsd") for s in gold], None if cache is None else cache / "gsd.conllu")
    demo = parse_cached(demo_items(), None if cache is None else cache / "demo.conllu")
    sets = {"gold": gold, "parsed": parsed, "demo": demo, "all": parsed + demo}

    print(f"GSD dev+test: {len(gold)} sentences; demo corpus: {len(demo)} sentences")
    print(f"{'paradigm':<28} {'gold/1k':>8} {'parsed/1k':>9} {'demo/1k':>8} {'demo pairs':>10} {'sent/s':>8}")
    results: dict[str, dict] = {}
    found: dict[str, dict[str, list]] = {}
    for name in args.paradigms:
        p = get_paradigm(name)
        found[name] = {k: all_pairs(p, v) for k, v in sets.items() if k != "all"}
        found[name]["all"] = found[name]["parsed"] + found[name]["demo"]
        r = {
            "gold_pairs": len(found[name]["gold"]),
            "parsed_pairs": len(found[name]["parsed"]),
            "gold_pairs_per_1k": round(1000 * len(found[name]["gold"]) / len(gold), 2),
            "parsed_pairs_per_1k": round(1000 * len(found[name]["parsed"]) / len(parsed), 2),
            "demo_pairs_per_1k": round(1000 * len(found[name]["demo"]) / len(demo), 2),
            "demo_pairs": len(found[name]["demo"]),
            "sentences_per_s": round(speed(p, sets["all"], args.repeat), 1),
        }
        results[name] = r
        print(f"{name:<28} {r['gold_pairs_per_1k']:>8} {r['parsed_pairs_per_1k']:>9} {r['demo_pairs_per_1k']:>8} "
              f"{r['demo_pairs']:>10} {r['sentences_per_s']:>8}")

    if args.sample:
        for name in args.paradigms:
            pool = found[name][args.sample_from]
            rng = random.Random(f"{args.seed}:{name}")
            picked = rng.sample(pool, min(args.sample, len(pool)))
            print(f"\n== {name}: {len(picked)} of {len(pool)} pairs ({args.sample_from})")
            for k, (s, bad, pert) in enumerate(picked, start=1):
                print(f"{k:>2}. [{pert.subtype}] {pert.feature}: {pert.source_value} → {pert.target_value}  ({s.sent_id})")
                print(f"    + {s.text}")
                print(f"    - {bad}")
            results[name]["sample"] = [
                {"sent_id": s.sent_id, "good": s.text, "bad": bad, "subtype": pert.subtype} for s, bad, pert in picked
            ]

    table = load_aspect_pairs(RESOURCES_DIR / ASPECT_PAIRS_FILE)
    kinds = collections.Counter(table.pattern(i).split(":")[0] for i in table)
    print(f"\naspect pairs: {len(table)} ({', '.join(f'{k} {n}' for k, n in kinds.most_common())})")
    if args.pairs_sample:
        rng = random.Random(f"{args.seed}:aspect_pairs")
        picked = rng.sample(sorted(table), min(args.pairs_sample, len(table)))
        for k, impf in enumerate(picked, start=1):
            print(f"{k:>2}. {impf} → {table.perfective(impf)}  ({table.pattern(impf)})")
        results["aspect_pairs"] = {"size": len(table), "by_pattern": dict(kinds), "sample": picked}
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
