"""Forward passes the decontamination cascade saves on a finished run.

Reads the pools and tier-0 scores of a results directory
(``{results}/pools/*.parquet``, ``{results}/scores/<model>/grammatical.parquet``)
and, for several ``t_max`` values, counts the pool sentences that survive every
tier-0 model (:func:`rublimp.cascade.survivors`) and the forward passes a masked
tier-1 model would run on them: one masked copy per scored token (its own
tokenizer, ``--tier1-model``).

    python bench/bench_cascade.py --results /tmp/wf/results --tier0 demo-gpt2 \\
        --tier1-model /tmp/wf/results/models/demo-bert --t-max -6 -5 -4 -3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from rublimp.cascade import survivors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", type=Path, required=True)
    ap.add_argument("--tier0", nargs="+", required=True, help="tier-0 model names (their scores must exist)")
    ap.add_argument("--tier1-model", required=True, help="directory or hub id of the masked LM (its tokenizer)")
    ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--t-max", type=float, nargs="+", default=[-6.0, -5.0, -4.0, -3.0])
    args = ap.parse_args(argv)

    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(args.tier1_model)
    pools = sorted((args.results / "pools").glob("*.parquet"))
    sentences: dict[str, list[str]] = {}
    for p in pools:
        sentences[p.stem] = sorted(set(pl.read_parquet(p)["source_sentence"].to_list()))
    everything = sorted({s for v in sentences.values() for s in v})
    enc = tok(everything, add_special_tokens=True, return_special_tokens_mask=True)
    rows_of = {s: len(m) - sum(m) for s, m in zip(everything, enc["special_tokens_mask"])}
    total_rows = sum(rows_of[s] for v in sentences.values() for s in v)
    n_sent = sum(len(v) for v in sentences.values())
    print(f"{len(pools)} paradigm pool(s), {n_sent} grammatical sentences, {total_rows} masked forward rows "
          f"to score them all with {args.tier1_model}")
    print(f"\n{'t_max':>7} {'survivors':>10} {'forward rows':>13} {'saved':>9} {'saved %':>8}")
    for t in args.t_max:
        kept_rows = kept = 0
        tier0 = {m: pl.read_parquet(args.results / "scores" / m / "grammatical.parquet") for m in args.tier0}
        for name, sents in sentences.items():
            surv, stats = survivors(sents, tier0, k=args.k, t_max=t)
            kept += stats.survivors
            kept_rows += sum(rows_of[s] for s in surv)
        saved = total_rows - kept_rows
        print(f"{t:>7.2f} {kept:>10} {kept_rows:>13} {saved:>9} {100 * saved / max(total_rows, 1):>7.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
