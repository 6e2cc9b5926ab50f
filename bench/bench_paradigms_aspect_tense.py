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
from rublimp.paradigms.base import RESOURCES_DIR

sys.path.insert(0, str(Path(__file__).parent))
from _common import sets_bench_main  # noqa: E402

NAMES = (
    "change_duration_aspect",
    "change_repetition_aspect",
    "deontic_imperative_aspect",
    "single_verb_tense",
    "conj_verb_tense",
    "tense_marker",
)


def _add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--pairs-sample", type=int, default=50)


def _pair_counts(found_sets: dict[str, list]) -> dict[str, int]:
    return {"gold_pairs": len(found_sets["gold"]), "parsed_pairs": len(found_sets["parsed"])}


def _aspect_pairs_report(args: argparse.Namespace, results: dict[str, dict]) -> None:
    """The aspect pair table's size by pattern and ``--pairs-sample`` of its pairs."""
    table = load_aspect_pairs(RESOURCES_DIR / ASPECT_PAIRS_FILE)
    kinds = collections.Counter(table.pattern(i).split(":")[0] for i in table)
    print(f"\naspect pairs: {len(table)} ({', '.join(f'{k} {n}' for k, n in kinds.most_common())})")
    if args.pairs_sample:
        rng = random.Random(f"{args.seed}:aspect_pairs")
        picked = rng.sample(sorted(table), min(args.pairs_sample, len(table)))
        for k, impf in enumerate(picked, start=1):
            print(f"{k:>2}. {impf} → {table.perfective(impf)}  ({table.pattern(impf)})")
        results["aspect_pairs"] = {"size": len(table), "by_pattern": dict(kinds), "sample": picked}


def main(argv: list[str] | None = None) -> int:
    return sets_bench_main(NAMES, __doc__.split("\n")[0], 28, argv, add_arguments=_add_arguments,
                           row_extra=_pair_counts, after=_aspect_pairs_report)


if __name__ == "__main__":
    sys.exit(main())
