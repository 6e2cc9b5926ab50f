"""Measure the five GOVERNMENT paradigms on UD Russian-GSD (gold trees and re-parsed text).

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_government.py \
        [--gsd-dir DIR] [--cache parsed.conllu] [--sample 20] [--sample-from parsed] [--seed 0] [--json out.json]

For every paradigm it prints

* pairs per 1,000 sentences and pool rows per 1,000 sentences (a pool keeps at
  most one pair per sentence) on the GSD gold trees (dev + test, read with
  ``read_conllu``) and on the same sentences re-parsed from their ``# text``
  by the default parser (``rublimp.parse.parse_texts``);
* perturbation speed in sentences/s (``Paradigm.pairs`` over all re-parsed
  sentences, best of ``--repeat`` runs, each from empty pymorphy3 caches);
* ``--sample`` pairs drawn with ``random.Random(seed)`` from the ``--sample-from``
  set (``gold``, ``parsed`` or ``demo`` — the bundled demo corpus, parsed on the fly),
  printed for reading by hand.

``--cache`` keeps the re-parsed GSD trees (and ``<cache>.demo.conllu`` the parsed
demo corpus) so that later runs skip parsing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rublimp.io import write_json_atomic
from rublimp.morph import get_morph
from rublimp.paradigms import get_paradigm, government

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, all_pairs, count, demo_items, edit_forms, parse_cached, read_gold, seeded_sample  # noqa: E402
from _common import speed as _speed  # noqa: E402

NAMES = ("adposition_government", "verb_acc_object", "verb_gen_object", "verb_ins_object", "nominalization_case")


def _clear_caches() -> None:
    """Start a timed run with empty pymorphy3 parse and inflection caches (as on unseen text)."""
    get_morph()._parse.cache_clear()
    government._INFLECT_CACHE.clear()


def speed(paradigm, sents, repeat: int) -> float:
    """Sentences/s of ``paradigm.pairs`` from cold caches, best of ``repeat`` runs (the machine may be shared)."""
    return _speed(paradigm, sents, repeat, before=_clear_caches)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache", type=Path, default=None, help="CoNLL-U file caching the re-parsed GSD sentences")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo"), default="parsed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(NAMES))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    gold = read_gold(args.gsd_dir)
    parsed = parse_cached([(s.sent_id, s.text, "gsd") for s in gold], args.cache, match_text=False, make_parent=False)
    sets = {"gold": gold, "parsed": parsed}
    if args.sample and args.sample_from == "demo":
        demo_cache = None if args.cache is None else args.cache.with_suffix(".demo.conllu")
        sets["demo"] = parse_cached(demo_items(domain_comments=False), demo_cache, match_text=False, make_parent=False)

    results: dict[str, dict] = {}
    print(f"GSD dev+test: {len(gold)} sentences")
    print(f"{'paradigm':<24} {'gold pairs/1k':>13} {'gold rows/1k':>12} {'parsed pairs/1k':>15} "
          f"{'parsed rows/1k':>14} {'sent/s':>8}")
    for name in args.paradigms:
        p = get_paradigm(name)
        g_pairs, g_rows = count(p, gold)
        p_pairs, p_rows = count(p, parsed)
        sps = speed(p, parsed, args.repeat)
        r = {
            "gold_pairs_per_1k": round(1000 * g_pairs / len(gold), 1),
            "gold_rows_per_1k": round(1000 * g_rows / len(gold), 1),
            "parsed_pairs_per_1k": round(1000 * p_pairs / len(parsed), 1),
            "parsed_rows_per_1k": round(1000 * p_rows / len(parsed), 1),
            "sentences_per_s": round(sps, 1),
        }
        results[name] = r
        print(f"{name:<24} {r['gold_pairs_per_1k']:>13} {r['gold_rows_per_1k']:>12} {r['parsed_pairs_per_1k']:>15} "
              f"{r['parsed_rows_per_1k']:>14} {r['sentences_per_s']:>8}")

    if args.sample:
        pool = sets[args.sample_from]
        for name in args.paradigms:
            p = get_paradigm(name)
            found = all_pairs(p, pool)
            picked = seeded_sample(found, args.sample, args.seed, name)
            print(f"\n== {name}: {len(picked)} of {len(found)} pairs ({args.sample_from})")
            for k, (s, bad, pert) in enumerate(picked, start=1):
                src, tgt = edit_forms(s, pert)
                print(f"{k:>2}. [{pert.subtype}] {src} → {tgt} ({pert.source_value}→{pert.target_value})")
                print(f"    + {s.text}")
                print(f"    - {bad}")
            results[name]["sample"] = [
                {"sent_id": s.sent_id, "good": s.text, "bad": bad, "target_value": pert.target_value}
                for s, bad, pert in picked
            ]
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
