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
from pathlib import Path

from rublimp.aspect_pairs import ASPECT_PAIRS_FILE, load_aspect_pairs
from rublimp.io import write_json_atomic
from rublimp.paradigms import get_paradigm
from rublimp.paradigms.base import RESOURCES_DIR

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, load_sets, measure_sets, print_samples, sets_header, sets_row  # noqa: E402

NAMES = (
    "change_duration_aspect",
    "change_repetition_aspect",
    "deontic_imperative_aspect",
    "single_verb_tense",
    "conj_verb_tense",
    "tense_marker",
)


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

    sets = load_sets(args.gsd_dir, args.cache_dir)
    gold, demo = sets["gold"], sets["demo"]

    print(f"GSD dev+test: {len(gold)} sentences; demo corpus: {len(demo)} sentences")
    print(sets_header(28))
    results: dict[str, dict] = {}
    found: dict[str, dict[str, list]] = {}
    for name in args.paradigms:
        p = get_paradigm(name)
        found[name], core = measure_sets(p, sets, args.repeat)
        r = {
            "gold_pairs": len(found[name]["gold"]),
            "parsed_pairs": len(found[name]["parsed"]),
            **core,
        }
        results[name] = r
        print(sets_row(name, r, 28))

    if args.sample:
        print_samples(found, args.paradigms, args.sample_from, args.sample, args.seed, results)

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
