"""What ``dtype: auto`` costs in precision and gains in speed: a trained LM on real minimal pairs.

Scores the pairs of the pool files (``results/pools/*.parquet``: ``source_sentence`` is the good
sentence, ``target_sentence`` the bad one) with :class:`rublimp.scoring.hf.HFCausalScorer` in float32
and in each other dtype, and prints per dtype: CPU seconds and tokens/s, the summed log-prob's
distance from float32 (mean and max, nats), and how many pair decisions (good > bad) flip.

    make run        # trains the demo LM and writes the pools
    OMP_NUM_THREADS=1 python bench/bench_dtype.py --model results/models/demo-gpt2 --n-pairs 4000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import polars as pl
import torch

from rublimp.scoring.dtypes import resolve_dtype
from rublimp.scoring.hf import HFCausalScorer


def load_pairs(pools: Path, n: int, seed: int) -> list[tuple[str, str]]:
    files = sorted(pools.glob("*.parquet"))
    if not files:
        raise SystemExit(f"no pool files under {pools} (run `make run` first, or pass --pools)")
    pairs: list[tuple[str, str]] = []
    for f in files:
        pairs += pl.read_parquet(f, columns=["source_sentence", "target_sentence"]).rows()
    pairs = sorted(set(pairs))
    random.Random(seed).shuffle(pairs)
    return pairs[:n] if n else pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=Path("results/models/demo-gpt2"))
    ap.add_argument("--pools", type=Path, default=Path("results/pools"))
    ap.add_argument("--n-pairs", type=int, default=4000, help="0: every pair")
    ap.add_argument("--dtypes", nargs="+", default=["bfloat16"])
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    pairs = load_pairs(args.pools, args.n_pairs, args.seed)
    sentences = sorted({s for p in pairs for s in p})
    print(f"{len(pairs)} pairs, {len(sentences)} distinct sentences; model {args.model}; "
          f"auto on cpu here: {resolve_dtype('auto', 'cpu')}; torch threads {torch.get_num_threads()}")

    def run(dtype: str) -> tuple[dict[str, float], float, int]:
        scorer = HFCausalScorer(args.model, dtype=dtype)
        scorer.score(sentences[:16], progress=False)  # warm-up
        t0 = time.process_time()
        df = scorer.score(sentences, progress=False)
        return dict(zip(df["sentence"], df["sum_logprob"])), time.process_time() - t0, int(df["n_tokens"].sum())

    ref, ref_cpu, n_tok = run("float32")
    d_ref = [ref[g] - ref[b] for g, b in pairs]
    near = sum(abs(d) < 0.1 for d in d_ref)
    print(f"\nfloat32: CPU {ref_cpu:.2f} s, {n_tok / ref_cpu:.0f} tok/s; accuracy {sum(d > 0 for d in d_ref)}/"
          f"{len(pairs)}; pairs with |good - bad| < 0.1 nats: {near}")
    print(f"{'dtype':<10} {'CPU s':>7} {'tok/s':>8} {'speed-up':>9} {'mean|err|':>10} {'max|err|':>9} "
          f"{'flips':>12} {'accuracy':>10}")
    for dtype in args.dtypes:
        got, cpu, _ = run(dtype)
        err = [abs(got[s] - ref[s]) for s in sentences]
        d = [got[g] - got[b] for g, b in pairs]
        flips = sum((x > 0) != (y > 0) for x, y in zip(d, d_ref))
        print(f"{dtype:<10} {cpu:>7.2f} {n_tok / cpu:>8.0f} {ref_cpu / cpu:>8.2f}x {sum(err) / len(err):>10.4f} "
              f"{max(err):>9.4f} {flips:>5} ({100 * flips / len(pairs):.2f}%) {sum(x > 0 for x in d):>6}/{len(pairs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
