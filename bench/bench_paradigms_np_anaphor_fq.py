"""Measure the anaphor, noun-phrase and floating-quantifier agreement paradigms (8 paradigms).

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_np_anaphor_fq.py \\
        [--gsd-dir DIR] [--cache DIR] [--sample 20] [--sample-from parsed+demo] [--seed 0] [--json out.json]

Per paradigm it prints

* pairs per 1,000 sentences, and sentences with at least one pair per 1,000
  (a pool keeps one pair per sentence), on UD Russian-GSD dev+test gold trees
  (``read_conllu``) and on the same sentences re-parsed from their ``# text``
  with the default parser (``rublimp.parse.parse_texts``), and on the bundled
  demo corpus (parsed);
* perturbation speed: sentences/s of ``Paradigm.pairs`` over the re-parsed GSD
  sentences (best of ``--repeat`` runs, warm pymorphy3 caches);
* ``--sample`` pairs per paradigm drawn with ``random.Random(f"{seed}:{name}")``
  from ``--sample-from`` (``gold``, ``parsed``, ``demo`` or ``parsed+demo``), for
  reading by hand.

``--cache DIR`` keeps the parsed GSD and demo sentences as CoNLL-U files there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rublimp.io import write_json_atomic
from rublimp.paradigms import get_paradigm

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, all_pairs, count, demo_items, edit_forms, parse_cached, read_gold, seeded_sample, speed  # noqa: E402
from _common import per_1k as _per_1k  # noqa: E402

NAMES = (
    "anaphor_agreement_number",
    "anaphor_agreement_gender",
    "np_agreement_number",
    "np_agreement_gender",
    "np_agreement_case",
    "floating_quantifier_agreement_number",
    "floating_quantifier_agreement_gender",
    "floating_quantifier_agreement_case",
)


def per_1k(n: int, total: int) -> float:
    return _per_1k(n, total) if total else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache", type=Path, default=None, help="directory for the parsed GSD/demo CoNLL-U files")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo", "parsed+demo"), default="parsed+demo")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(NAMES))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    gold = read_gold(args.gsd_dir)
    parsed = parse_cached([(s.sent_id, s.text, "gsd") for s in gold], args.cache and args.cache / "gsd_parsed.conllu",
                          make_parent=False)
    demo = parse_cached(demo_items(domain_comments=False), args.cache and args.cache / "demo_parsed.conllu",
                        make_parent=False)
    sets = {"gold": gold, "parsed": parsed, "demo": demo, "parsed+demo": parsed + demo}

    results: dict[str, dict] = {}
    print(f"GSD dev+test: {len(gold)} sentences; demo corpus: {len(demo)} sentences")
    header = f"{'paradigm':<38} {'gold p/1k':>9} {'gold s/1k':>9} {'parsed p/1k':>11} {'parsed s/1k':>11} {'demo pairs':>10} {'sent/s':>8}"
    print(header)
    for name in args.paradigms:
        p = get_paradigm(name)
        g_pairs, g_rows = count(p, gold)
        p_pairs, p_rows = count(p, parsed)
        d_pairs, d_rows = count(p, demo)
        r = {
            "gold_pairs_per_1k": per_1k(g_pairs, len(gold)),
            "gold_sentences_per_1k": per_1k(g_rows, len(gold)),
            "parsed_pairs_per_1k": per_1k(p_pairs, len(parsed)),
            "parsed_sentences_per_1k": per_1k(p_rows, len(parsed)),
            "demo_pairs": d_pairs,
            "demo_sentences": d_rows,
            "sentences_per_s": round(speed(p, parsed, args.repeat), 1),
        }
        results[name] = r
        print(f"{name:<38} {r['gold_pairs_per_1k']:>9} {r['gold_sentences_per_1k']:>9} {r['parsed_pairs_per_1k']:>11} "
              f"{r['parsed_sentences_per_1k']:>11} {d_pairs:>10} {r['sentences_per_s']:>8}")

    if args.sample:
        pool = sets[args.sample_from]
        for name in args.paradigms:
            p = get_paradigm(name)
            found = all_pairs(p, pool)
            picked = seeded_sample(found, args.sample, args.seed, name)
            print(f"\n== {name}: {len(picked)} of {len(found)} pairs ({args.sample_from})")
            for k, (s, bad, pert) in enumerate(picked, start=1):
                src, tgt = edit_forms(s, pert)
                print(f"{k:>2}. [{pert.subtype}] {src} → {tgt} ({pert.feature}: {pert.source_value}→{pert.target_value}) {s.sent_id}")
                print(f"    + {s.text}")
                print(f"    - {bad}")
            results[name]["sample"] = [
                {"sent_id": s.sent_id, "good": s.text, "bad": bad, "subtype": pert.subtype,
                 "source_value": pert.source_value, "target_value": pert.target_value}
                for s, bad, pert in picked
            ]
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
