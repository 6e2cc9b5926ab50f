"""Measure the six morphology paradigms on UD Russian-GSD: yield, speed, and a sample to read.

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_morphology.py \\
        [--gsd /work/shared/data/ud_russian_gsd] [--sample 20] [--seed 0] [--json out.json]

For the gold trees of the GSD dev and test files (``read_conllu``) and for the
same sentences re-parsed from their ``# text`` by the default parser
(``parse_texts``) it prints, per paradigm: pairs per 1,000 sentences (all
pairs the paradigm proposes, and sentences with at least one pair — the pool
keeps one pair per sentence), and perturb speed in sentences/s (process CPU
time, best of ``--repeat`` runs). It then prints ``--sample`` pairs per
paradigm drawn with ``--seed`` from the re-parsed pool (one pair per sentence,
as the pool stage keeps them) for reading by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from rublimp.conllu_doc import Sentence
from rublimp.paradigms import get_paradigm
from rublimp.perturb import pair_rows

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, reparse  # noqa: E402
from _common import read_gold as load_gsd  # noqa: E402

NAMES = [
    "add_new_suffix",
    "add_verb_prefix",
    "change_verb_prefixes_order",
    "change_declension_ending",
    "change_declension_ending_has_dep",
    "change_verb_conjugation",
]


def measure(sents: list[Sentence], repeat: int) -> dict[str, dict]:
    out = {}
    for name in NAMES:
        p = get_paradigm(name)
        best = float("inf")
        pairs: list = []
        for _ in range(repeat):
            t0 = time.process_time()
            pairs = [(s, bad, pert) for s in sents for bad, pert in p.pairs(s)]
            best = min(best, time.process_time() - t0)
        n_sent = len({s.sent_id for s, _, _ in pairs})
        out[name] = {
            "pairs": len(pairs),
            "sentences_with_pair": n_sent,
            "pairs_per_1000": round(1000 * len(pairs) / len(sents), 1),
            "sentences_per_1000": round(1000 * n_sent / len(sents), 1),
            "sent_per_s": round(len(sents) / best, 1) if best > 0 else float("inf"),
        }
    return out


def sample(sents: list[Sentence], k: int, seed: int) -> dict[str, list[dict]]:
    out = {}
    for name in NAMES:
        p = get_paradigm(name)
        rows = [r for s in sents for r in pair_rows(p, s, seed=seed)]
        rng = random.Random(f"{seed}:{name}")
        chosen = sorted(rng.sample(range(len(rows)), min(k, len(rows))))
        out[name] = [rows[i] for i in chosen]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsd", type=Path, default=GSD_DIR)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    gold = load_gsd(args.gsd)
    t0 = time.perf_counter()
    parsed = reparse(gold)
    print(f"{len(gold)} GSD sentences (dev+test); re-parsed in {time.perf_counter() - t0:.1f}s", file=sys.stderr)

    results = {"n_sentences": len(gold), "gold": measure(gold, args.repeat), "reparsed": measure(parsed, args.repeat)}
    print(f"{'paradigm':36} {'gold pairs/1k':>14} {'sent/1k':>8} {'parsed pairs/1k':>16} {'sent/1k':>8} {'sent/s':>8}")
    for name in NAMES:
        g, r = results["gold"][name], results["reparsed"][name]
        print(f"{name:36} {g['pairs_per_1000']:>14} {g['sentences_per_1000']:>8} {r['pairs_per_1000']:>16}"
              f" {r['sentences_per_1000']:>8} {r['sent_per_s']:>8}")

    if args.sample:
        results["sample"] = sample(parsed, args.sample, args.seed)
        for name, rows in results["sample"].items():
            print(f"\n== {name} ({len(rows)} sampled pairs, seed {args.seed})")
            for i, row in enumerate(rows, 1):
                print(f"{i:2}. {row['source_word']} → {row['target_word']}  "
                      f"[{row['feature']} {row['source_value']}→{row['target_value']} {row['subtype']}]")
                print(f"    {row['source_sentence']}")
                print(f"    {row['target_sentence']}")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
