"""Regenerate ``resources/aspect_pairs.tsv`` from pymorphy3's dictionary and wordfreq.

Every imperfective infinitive of pymorphy3's (OpenCorpora) dictionary gets its
perfective partner by the word-formation patterns of Russian aspect pairs
(``rublimp.aspect_pairs.suffix_candidates`` / ``prefix_candidates``, plus the
hand-written ``HAND_PAIRS``); a candidate counts only if the dictionary has it
as a perfective-only infinitive, and among several the most specific pattern,
then the most frequent by wordfreq wins (see ``rublimp.aspect_pairs.derive_pairs``).
Imperfectives listed in ``NOT_PAIRS`` were rejected when reading the result.

Walking the dictionary takes a few minutes (about five million word forms).

Usage: python resources/derive/derive_aspect_pairs.py [OUT.tsv] [--min-ipm X]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from rublimp.aspect_pairs import ASPECT_PAIRS_FILE, derive_pairs, dictionary_infinitives
from rublimp.io import write_text_atomic

HEADER = """\
# Aspect pairs: an imperfective verb and its perfective partner, for the ASPECT paradigms
# (rublimp.paradigms.aspect; RuBLiMP Appendix B.3.2, where the pairs come from Zaliznyak's dictionary).
# Provenance: derived from pymorphy3's dictionary (OpenCorpora) by
# resources/derive/derive_aspect_pairs.py with the word-formation patterns of Russian aspect
# pairs (grammar facts: secondary imperfectives in -ыва-/-ива-, -ва-, -а-/-я- against -ить/-еть,
# -нуть and -чь, root families such as -йти/-ходить; perfectivising prefixes on unprefixed verbs;
# a few suppletive pairs written by hand). Every partner is a perfective-only dictionary
# infinitive; among several candidates the most specific pattern, then the fewest stem
# alternations, then the most frequent one by wordfreq (Russian) wins; prefixed partners only for
# imperfectives of at least 0.5 ipm. ipm_* = frequency per million of the infinitive plus its
# past m.sg, past pl. and 3sg forms (wordfreq). Verbs the patterns pair wrongly are excluded
# (rublimp.aspect_pairs.NOT_PAIRS). Details: rublimp.aspect_pairs.derive_pairs.
# pattern: hand | family:<ending> | -ва- | -ыва- | -а- | -нуть | prefix:<prefix>
# Generated — do not edit by hand; an external list with at least the columns imperfective and
# perfective can be given instead with the config key perturb.options.aspect_pairs.
imperfective\tperfective\tpattern\tipm_imperfective\tipm_perfective
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_out = Path(__file__).resolve().parents[1] / ASPECT_PAIRS_FILE
    ap.add_argument("out", nargs="?", type=Path, default=default_out)
    ap.add_argument("--min-ipm", type=float, default=0.0, help="leave out imperfectives rarer than this")
    args = ap.parse_args(argv)

    infinitives = dictionary_infinitives(progress=sys.stderr.isatty())
    pairs = derive_pairs(infinitives, min_ipm=args.min_ipm, progress=sys.stderr.isatty())
    lines = [HEADER]
    for p in pairs:
        lines.append(f"{p.imperfective}\t{p.perfective}\t{p.pattern}\t{p.ipm_imperfective:g}\t{p.ipm_perfective:g}\n")
    write_text_atomic(args.out, "".join(lines))
    args.out.chmod(0o644)  # a resource file, readable like the others (the atomic write makes it 0600)
    kinds = collections.Counter(p.pattern.split(":")[0] for p in pairs)
    impf = sum(1 for a in infinitives.values() if a == frozenset({"impf"}))
    print(f"{len(pairs)} pairs for {impf} imperfective infinitives → {args.out}", file=sys.stderr)
    print("by pattern: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
