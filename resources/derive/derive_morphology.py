"""Derive the letter-trigram set and the suffix-pair counts from pymorphy3's dictionary.

Writes two resources used by rublimp.lexicon:

* ``letter_trigrams.txt`` — every letter trigram (``_`` = word boundary, ё folded
  to е) that occurs in at least ``--min-lemmas`` different lemmas of the
  dictionary. Proper names, abbreviations, initials and misspelled/distorted
  entries are left out, and only words written in Cyrillic letters count
  (hyphenated words are split at the hyphen).
* ``suffix_pairs.tsv`` — for each inserted suffix × host suffix of
  ``affixes.tsv``, how many noun and adjective lemmas contain the sequence
  "inserted spelling + host spelling" (e.g. ост+н in радостный): the
  ``add_new_suffix`` paradigm only inserts where the sequence is (nearly)
  unattested.

``affixes.tsv``, ``declension_swaps.tsv`` and
``conjugation_swaps.tsv`` are written by hand.

Usage (takes a few minutes: it reads all ~5 million word forms)::

    python resources/derive/derive_morphology.py [--resources resources] [--min-lemmas 2]

Deterministic: the outputs are sorted and depend only on the installed
pymorphy3 dictionary (its version is written into the headers).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import pymorphy3
from tqdm import tqdm

from rublimp.io import write_text_atomic
from rublimp.lexicon import AFFIXES_FILE, SUFFIX_PAIRS_FILE, TRIGRAMS_FILE, load_affixes, word_trigrams

EXCLUDED_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init", "Erro", "Dist", "LATN", "UNKN"})
_PART = re.compile(r"^[а-яё]+$")


def dictionary_version(morph: pymorphy3.MorphAnalyzer) -> str:
    meta = dict(morph.dictionary.meta)
    return f"pymorphy3 {pymorphy3.__version__}, dictionary {meta.get('source', '?')} {meta.get('source_revision', '')}".strip()


def derive(resources: Path, min_lemmas: int) -> None:
    affixes = load_affixes(resources / AFFIXES_FILE)
    inserts = [a for a in affixes.affixes if a.kind == "suffix" and a.role == "insert"]
    hosts = [a for a in affixes.affixes if a.kind == "suffix" and a.role == "host"]
    pairs = sorted({(i.spelling, h.spelling) for i in inserts for h in hosts if i.spelling != h.spelling})
    pair_counts = {p: 0 for p in pairs}
    pair_strings = {p: p[0] + p[1] for p in pairs}

    morph = pymorphy3.MorphAnalyzer()
    d = morph.dictionary
    para_cache: dict[int, list] = {}
    # trigram -> up to min_lemmas lemma keys (enough to decide the threshold)
    seen: dict[str, set[tuple[int, str]]] = defaultdict(set)
    lemmas_done: set[tuple[int, str]] = set()

    for word, (para_id, idx) in tqdm(d.words.iteritems(), desc="dictionary words", unit="w", mininterval=5,
                                     disable=not sys.stderr.isatty()):
        info = para_cache.get(para_id)
        if info is None:
            info = para_cache[para_id] = d.build_paradigm_info(para_id)
        pre, tag, suf = info[idx]
        if EXCLUDED_TAGS & tag.grammemes:
            continue
        stem = word[len(pre) : len(word) - len(suf)] if suf else word[len(pre) :]
        lemma = info[0][0] + stem + info[0][2]
        key = (para_id, lemma)
        for part in word.split("-"):
            if not _PART.match(part):
                continue
            for t in word_trigrams(part):
                s = seen[t]
                if len(s) < min_lemmas:
                    s.add(key)
        if key not in lemmas_done and tag.POS in ("NOUN", "ADJF"):
            lemmas_done.add(key)
            norm = lemma.replace("ё", "е")
            for p, s in pair_strings.items():
                if s in norm:
                    pair_counts[p] += 1

    version = dictionary_version(morph)
    trigrams = sorted(t for t, s in seen.items() if len(s) >= min_lemmas)
    header = [
        "# Letter trigrams that occur in Russian words ('_' marks the word boundary; ё is written е).",
        "# Derived by resources/derive/derive_morphology.py from the word forms of " + version + ":",
        f"# a trigram is listed when it occurs in at least {min_lemmas} different lemmas; proper names,",
        "# abbreviations, initials and misspelled or distorted entries are not counted, and words are",
        "# split at hyphens. Used by rublimp.lexicon.LetterSequences to reject perturbed words that",
        "# contain a letter sequence that never occurs in Russian (RuBLiMP, Appendix B.1.2).",
    ]
    write_text_atomic(resources / TRIGRAMS_FILE, "\n".join(header + trigrams) + "\n")

    lines = [
        "# How many noun and adjective lemmas contain each 'inserted suffix + host suffix' letter sequence",
        "# (spellings from affixes.tsv). Derived by resources/derive/derive_morphology.py from the lemmas of",
        "# " + version + " (proper names and abbreviations excluded).",
        "# rublimp.paradigms.word_formation (add_new_suffix) inserts a suffix before a host suffix only",
        "# when the sequence is (nearly) unattested - in at most AddNewSuffix.MAX_PAIR_LEMMAS lemmas, as a",
        "# few hits are root-internal (прост-еньк-ий) - so that the combination is uninterpretable.",
        "insert\thost\tlemmas",
    ]
    lines += [f"{i}\t{h}\t{pair_counts[(i, h)]}" for i, h in pairs]
    write_text_atomic(resources / SUFFIX_PAIRS_FILE, "\n".join(lines) + "\n")
    print(f"{len(trigrams)} trigrams, {len(pairs)} suffix pairs ({sum(v == 0 for v in pair_counts.values())} unattested)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--resources", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--min-lemmas", type=int, default=2)
    args = ap.parse_args(argv)
    derive(args.resources, args.min_lemmas)


if __name__ == "__main__":
    main()
