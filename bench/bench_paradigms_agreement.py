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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import sets_bench_main  # noqa: E402

NAMES = (
    "noun_subj_predicate_agreement_number", "noun_subj_predicate_agreement_gender", "noun_subj_predicate_agreement_person",
    "genitive_subj_predicate_agreement_number", "genitive_subj_predicate_agreement_gender",
    "genitive_subj_predicate_agreement_person", "clause_subj_predicate_agreement_number",
    "clause_subj_predicate_agreement_gender", "clause_subj_predicate_agreement_person",
    "subj_predicate_agreement_number_attractor", "subj_predicate_agreement_gender_attractor",
)


def main(argv: list[str] | None = None) -> int:
    return sets_bench_main(NAMES, __doc__.split("\n")[0], 42, argv)


if __name__ == "__main__":
    sys.exit(main())
