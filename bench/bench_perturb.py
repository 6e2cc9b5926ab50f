"""Perturb throughput: sentences/s of every registered paradigm on the parsed demo corpus.

    OPENBLAS_NUM_THREADS=1 python bench/bench_perturb.py [--repeat 3] [--paradigms a,b] [--conllu parsed.conllu] [--cpu-time]

The demo corpus is parsed once (or read from ``--conllu``, e.g. a shard from a
pipeline run); each paradigm then runs over all sentences in its own timed loop,
with warm pymorphy3 caches after the first repeat. Prints pairs found and
sentences/s per paradigm, and the total over all paradigms. ``--cpu-time`` times the
loops in this process's CPU time instead of wall-clock time: on a machine shared with
other work, wall-clock rates fall with the load, CPU-time rates much less.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]


def demo_items():
    items = []
    for path in sorted((ROOT / "resources" / "demo_corpus").glob("*.txt")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, path.stem))
    return items


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conllu", nargs="*", help="parsed CoNLL-U files (default: parse the demo corpus)")
    ap.add_argument("--paradigms", default="all")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--cpu-time", action="store_true", help="time in process CPU time (time.process_time)")
    args = ap.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter

    from rublimp.conllu_doc import read_conllu
    from rublimp.paradigms import ParadigmContext, get_paradigm
    from rublimp.perturb import resolve_paradigms

    if args.conllu:
        sents = [s for p in args.conllu for s in read_conllu(p)]
    else:
        from rublimp.parse import parse_texts

        t0 = time.perf_counter()
        sents = list(parse_texts(demo_items()))
        dt = time.perf_counter() - t0
        n_tok = sum(len(s.tokens) for s in sents)
        print(f"parse (slovnet+MST+pymorphy3): {len(sents)} sentences in {dt:.1f}s = {len(sents)/dt:.0f} sent/s, {n_tok/dt:.0f} tok/s")

    names = resolve_paradigms(args.paradigms.split(","))
    ctx = ParadigmContext()
    print(f"{'paradigm':45s} {'pairs':>7s} {'sent/s':>9s}")
    total_time = 0.0
    for name in names:
        p = get_paradigm(name, ctx)
        best = None
        n_pairs = 0
        for _ in range(max(1, args.repeat)):
            t0 = clock()
            n_pairs = sum(1 for s in sents for _ in p.pairs(s))
            dt = clock() - t0
            best = dt if best is None else min(best, dt)
        total_time += best
        print(f"{name:45s} {n_pairs:7d} {len(sents)/best:9.0f}")
    print(f"{'all paradigms, one pass each':45s} {'':7s} {len(sents)/total_time:9.1f}  (sentences/s through all {len(names)})")


if __name__ == "__main__":
    main()
