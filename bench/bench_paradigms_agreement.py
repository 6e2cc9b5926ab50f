"""Measure the eleven SUBJECT-PREDICATE AGREEMENT paradigms on UD Russian-GSD and the demo corpus.

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_agreement.py \
        [--gsd-dir DIR] [--cache-dir DIR] [--sample 20] [--sample-from all] [--seed 0] [--json out.json]

Printed per paradigm:

* pairs per 1,000 sentences on the GSD dev+test gold trees (``read_conllu``),
  on the same sentences re-parsed from their ``# text`` by the default parser
  (``rublimp.parse.parse_texts``), and on the bundled demo corpus (parsed);
* perturbation speed in sentences/s (``Paradigm.pairs`` over the re-parsed GSD
  sentences plus the demo corpus, best of ``--repeat`` runs);
* ``--sample`` pairs drawn with ``random.Random("<seed>:<paradigm>")`` from the
  ``--sample-from`` set (``gold``, ``parsed``, ``demo`` or ``all`` = parsed GSD +
  demo), to be read by hand.

``--cache-dir`` keeps the parsed sentences (``gsd.conllu``, ``demo.conllu``) so
that later runs skip parsing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rublimp.io import write_json_atomic
from rublimp.paradigms import get_paradigm

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, load_sets, measure_sets, print_samples, sets_header, sets_row  # noqa: E402

NAMES = (
    "noun_subj_predicate_agreement_number", "noun_subj_predicate_agreement_gender", "noun_subj_predicate_agreement_person",
    "genitive_subj_predicate_agreement_number", "genitive_subj_predicate_agreement_gender",
    "genitive_subj_predicate_agreement_person", "clause_subj_predicate_agreement_number",
    "clause_subj_predicate_agreement_gender", "clause_subj_predicate_agreement_person",
    "subj_predicate_agreement_number_attractor", "subj_predicate_agreement_gender_attractor",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo", "all"), default="all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(NAMES))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    sets = load_sets(args.gsd_dir, args.cache_dir)
    gold, demo = sets["gold"], sets["demo"]

    print(f"GSD dev+test: {len(gold)} sentences; demo corpus: {len(demo)} sentences")
    print(sets_header(42))
    results: dict[str, dict] = {}
    found: dict[str, dict[str, list]] = {}
    for name in args.paradigms:
        p = get_paradigm(name)
        found[name], core = measure_sets(p, sets, args.repeat)
        results[name] = r = core
        print(sets_row(name, r, 42))

    if args.sample:
        print_samples(found, args.paradigms, args.sample_from, args.sample, args.seed, results)
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
