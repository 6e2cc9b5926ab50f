"""Measure the ARGUMENT STRUCTURE paradigms on UD Russian-GSD (gold trees and re-parsed).

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_argument_structure.py \
        [--gsd-dir DIR] [--sample 20] [--seed 0] [--json out.json] [--samples-csv out.csv]

For each of the five paradigms it reports, on the GSD dev+test sentences read
with ``read_conllu`` (gold trees) and on the same sentences re-parsed from
their ``# text`` by the default parser (``parse_texts``):

* sentences with at least one pair per 1,000 sentences (what the pool gets with
  ``pairs_per_sentence: 1``) and all pairs per 1,000 sentences;
* perturb speed in sentences/s (process CPU time): the first run, with cold
  pymorphy3 caches, and the best of ``--repeat`` runs;
* ``--sample`` pairs drawn at random (seeded) from the re-parsed pairs; where
  GSD has too few, gold-tree pairs and then pairs from the bundled demo corpus
  (parsed) fill up — printed, and written to ``--samples-csv`` for reading by hand.

``--no-person-names`` runs the paradigms without personal names as animate
arguments (``ctx.options["argument_structure_person_names"] = False``; names are
admitted by default, as in RuBLiMP).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import polars as pl

from rublimp.conllu_doc import Sentence, read_conllu
from rublimp.io import InputError, write_csv_atomic, write_json_atomic
from rublimp.paradigms import ParadigmContext, get_paradigm
from rublimp.paradigms.argument_structure import PERSON_NAMES_OPTION, PHENOMENON
from rublimp.paradigms.base import REGISTRY, RESOURCES_DIR

sys.path.insert(0, str(Path(__file__).parent))
from _common import GSD_DIR, reparse  # noqa: E402

NAMES = sorted(n for n, cls in REGISTRY.items() if cls.phenomenon == PHENOMENON)


def load_gold(gsd_dir: Path) -> list[Sentence]:
    files = sorted(gsd_dir.glob("*.conllu"))
    if not files:
        raise InputError("no *.conllu files", gsd_dir)
    return [s for f in files for s in read_conllu(f)]


def demo_sentences() -> list[Sentence]:
    """The bundled demo corpus, parsed (one sentence per non-comment line)."""
    from rublimp.parse import parse_texts

    items = []
    for path in sorted((RESOURCES_DIR / "demo_corpus").glob("*.txt")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip() and not line.startswith("#"):
                items.append((f"{path.stem}:{lineno}", line.strip(), path.stem))
    return list(parse_texts(items))


def run(paradigm, sents: list[Sentence], repeat: int) -> tuple[list[tuple[Sentence, str, object]], float, float]:
    """All pairs of ``paradigm`` on ``sents``; CPU time of the first run and the best of ``repeat``."""
    times, pairs = [], []
    for _ in range(max(1, repeat)):
        t0 = time.process_time()
        pairs = [(s, bad, pert) for s in sents for bad, pert in paradigm.pairs(s)]
        times.append(time.process_time() - t0)
    return pairs, times[0], min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", type=Path, help="write the numbers here")
    ap.add_argument("--samples-csv", type=Path, help="write the sampled pairs here")
    ap.add_argument("--no-person-names", action="store_true", help="do not admit personal names as animate arguments")
    args = ap.parse_args(argv)
    ctx = ParadigmContext(seed=args.seed, options={PERSON_NAMES_OPTION: not args.no_person_names})

    gold = load_gold(args.gsd_dir)
    t0 = time.perf_counter()
    parsed = reparse(gold)
    print(f"GSD: {len(gold)} sentences; re-parsed in {time.perf_counter() - t0:.1f} s", file=sys.stderr)

    demo: list[Sentence] | None = None
    results: dict[str, dict] = {}
    samples = []
    print(f"{'paradigm':26s} {'trees':7s} {'sent/1k':>8s} {'pairs/1k':>9s} {'sent/s cold':>12s} {'sent/s warm':>12s}")
    for name in NAMES:
        p = get_paradigm(name, ctx)
        results[name] = {}
        found = {}
        for label, sents in (("gold", gold), ("parsed", parsed)):
            pairs, cold, warm = run(p, sents, args.repeat)
            with_pair = len({s.sent_id for s, _, _ in pairs})
            results[name][label] = {
                "sentences": len(sents),
                "sentences_with_pair_per_1k": round(1000 * with_pair / len(sents), 2),
                "pairs_per_1k": round(1000 * len(pairs) / len(sents), 2),
                "sentences_per_s_cold": round(len(sents) / cold, 1) if cold > 0 else None,
                "sentences_per_s_warm": round(len(sents) / warm, 1) if warm > 0 else None,
            }
            found[label] = pairs
            r = results[name][label]
            print(
                f"{name:26s} {label:7s} {r['sentences_with_pair_per_1k']:8.2f} {r['pairs_per_1k']:9.2f} "
                f"{r['sentences_per_s_cold']:12.1f} {r['sentences_per_s_warm']:12.1f}"
            )
        rng = random.Random(f"{args.seed}:{name}")
        pick = rng.sample(found["parsed"], min(args.sample, len(found["parsed"])))
        seen = {s.sent_id for s, _, _ in pick}
        rest = [x for x in found["gold"] if x[0].sent_id not in seen]
        pick += [(*x, "gold") for x in rng.sample(rest, min(args.sample - len(pick), len(rest)))]
        if len(pick) < args.sample:
            if demo is None:
                demo = demo_sentences()
            extra = [(s, bad, pert, "demo") for s in demo for bad, pert in p.pairs(s)]
            pick += rng.sample(extra, min(args.sample - len(pick), len(extra)))
        for i, item in enumerate(pick):
            s, bad, pert = item[:3]
            trees = item[3] if len(item) > 3 else "parsed"
            samples.append(
                {
                    "paradigm": name,
                    "n": i + 1,
                    "trees": trees,
                    "sent_id": s.sent_id,
                    "subtype": pert.subtype,
                    "source": s.text,
                    "target": bad,
                }
            )
    print()
    for row in samples:
        print(f"[{row['paradigm']} #{row['n']} {row['subtype']} {row['trees']}] {row['source']}\n    -> {row['target']}")
    if args.json:
        write_json_atomic(args.json, results)
    if args.samples_csv:
        write_csv_atomic(pl.DataFrame(samples), args.samples_csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
