"""Audit the government tables against pymorphy3's dictionary.

Usage (from the repository root, with the virtualenv active)::

    python resources/derive/derive_government.py [--min-zipf 0]

Prints, as TSV on stdout:

* every preposition (``PREP``) in pymorphy3's dictionary that
  ``resources/prepositions.tsv`` does not list, with its wordfreq Zipf
  frequency, most frequent first — the candidates to add by hand (the cases a
  preposition governs are not in the dictionary, so they are assigned by hand);
* every lemma of ``resources/verb_government.tsv`` that pymorphy3 does not know
  as an infinitive (a typo, or a verb the paradigms would never match).

Nothing is written: the tables stay hand-curated; this script shows what they
miss. Walking the whole dictionary takes about a minute.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wordfreq import zipf_frequency

from rublimp.morph import get_morph
from rublimp.paradigms.government import (
    PREPOSITIONS_FILE,
    VERB_GOVERNMENT_FILE,
    load_prepositions,
    load_verb_government,
    normalize,
)

RESOURCES = Path(__file__).resolve().parents[1]


def missing_prepositions(min_zipf: float = 0.0) -> list[tuple[str, float]]:
    """pymorphy3 prepositions absent from the table, as (word, Zipf frequency), most frequent first."""
    table = load_prepositions(RESOURCES / PREPOSITIONS_FILE)
    analyzer = get_morph().analyzer
    words = {w for w, tag, *_ in analyzer.dictionary.iter_known_words() if tag.POS == "PREP"}
    out = [(w, zipf_frequency(w, "ru")) for w in words if normalize(w) not in table]
    return sorted((x for x in out if x[1] >= min_zipf), key=lambda x: (-x[1], x[0]))


def unknown_verbs() -> list[str]:
    """Lemmas of the verb table without an infinitive reading in pymorphy3."""
    morph = get_morph()
    table = load_verb_government(RESOURCES / VERB_GOVERNMENT_FILE)
    return sorted(v for v in table if not any(p.tag.POS == "INFN" for p in morph.parses(v)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min-zipf", type=float, default=0.0, help="hide prepositions rarer than this")
    args = ap.parse_args(argv)
    print("# prepositions in pymorphy3 missing from prepositions.tsv\nword\tzipf")
    for word, zipf in missing_prepositions(args.min_zipf):
        print(f"{word}\t{zipf:.2f}")
    print("# verb_government.tsv lemmas that pymorphy3 does not know as infinitives\nlemma")
    for lemma in unknown_verbs():
        print(lemma)
    return 0


if __name__ == "__main__":
    sys.exit(main())
