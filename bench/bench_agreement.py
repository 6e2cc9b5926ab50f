"""Agreement validation and agreement paradigms on UD Russian-GSD: gold trees vs the default parser.

Usage::

    OPENBLAS_NUM_THREADS=1 python bench/bench_agreement.py [--gsd DIR] [--limit N] [--sample K] [--conf 0.9]

Prints

1. the MultiBLiMP verdict table (§4.2) computed from the gold trees, from the
   parser's trees (gold tokens re-parsed with ``rublimp.parse.parse_tokens``)
   and from the parser's trees keeping only subject edges with HeadConf ≥
   ``--conf``, side by side, and how many verdicts differ;
2. pairs per 1,000 sentences for each agreement paradigm on gold and re-parsed
   trees (sentences with at least one pair, and all pairs);
3. ``--sample`` random pairs per paradigm from the re-parsed trees (seeded), for reading.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import polars as pl  # noqa: E402

from rublimp.agreement_validation import validate_agreement  # noqa: E402
from rublimp.conllu_doc import Sentence, read_conllu  # noqa: E402
from rublimp.paradigms import REGISTRY, get_paradigm  # noqa: E402
from rublimp.paradigms.agreement import PHENOMENON  # noqa: E402

GSD = Path("/work/shared/data/ud_russian_gsd")
KEY = ["feature", "pred_type", "subject_value", "order"]


def load_gold(gsd: Path, limit: int | None) -> list[Sentence]:
    sents: list[Sentence] = []
    for name in ("ru_gsd-ud-dev.conllu", "ru_gsd-ud-test.conllu"):
        sents.extend(read_conllu(gsd / name))
    return sents[:limit] if limit else sents


def reparse(gold: list[Sentence]) -> list[Sentence]:
    from rublimp.parse import parse_tokens

    return list(
        parse_tokens(
            [[t.form for t in s.tokens] for s in gold],
            sent_ids=[s.sent_id for s in gold],
            texts=[s.text for s in gold],
            progress=sys.stderr.isatty(),
        )
    )


def side_by_side(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per condition, ``n`` and ``verdict`` of every table as columns (missing = not observed)."""
    out = None
    for label, df in tables.items():
        part = df.select(*KEY, pl.col("n").alias(f"n_{label}"), pl.col("share").round(3).alias(f"share_{label}"), pl.col("verdict").alias(label))
        out = part if out is None else out.join(part, on=KEY, how="full", coalesce=True)
    assert out is not None
    return out.sort(KEY)


def differing(table: pl.DataFrame, a: str, b: str) -> int:
    """Conditions whose verdicts differ (a condition seen on one side only counts as different)."""
    return table.filter(pl.col(a).fill_null("-") != pl.col(b).fill_null("-")).height


def pair_stats(sents: list[Sentence], names: list[str]) -> tuple[dict[str, tuple[int, int]], dict[str, list]]:
    paradigms = {n: get_paradigm(n) for n in names}
    stats = {n: [0, 0] for n in names}
    found: dict[str, list] = {n: [] for n in names}
    for sent in sents:  # sentence-major: the paradigms share one edge extraction per sentence
        for n, p in paradigms.items():
            pairs = list(p.pairs(sent))
            if pairs:
                stats[n][0] += 1
                stats[n][1] += len(pairs)
                found[n].append((sent, pairs))
    return {n: (v[0], v[1]) for n, v in stats.items()}, found


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gsd", type=Path, default=GSD, help="directory with ru_gsd-ud-{dev,test}.conllu")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N sentences")
    ap.add_argument("--conf", type=float, default=0.9, help="HeadConf threshold for the filtered parser table")
    ap.add_argument("--sample", type=int, default=10, help="random pairs to print per paradigm (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    pl.Config.set_tbl_rows(200)
    pl.Config.set_tbl_cols(20)
    pl.Config.set_tbl_width_chars(220)
    pl.Config.set_fmt_str_lengths(40)

    gold = load_gold(args.gsd, args.limit)
    t0 = time.perf_counter()
    parsed = reparse(gold)
    t_parse = time.perf_counter() - t0
    print(f"GSD dev+test: {len(gold)} sentences ({sum(len(s) for s in gold)} tokens); re-parsed in {t_parse:.1f}s")

    tables = {
        "gold": validate_agreement(gold),
        "parsed": validate_agreement(parsed),
        f"parsed@{args.conf:g}": validate_agreement(parsed, min_conf=args.conf),
    }
    labels = list(tables)
    table = side_by_side(tables)
    print("\n== Agreement verdicts (MultiBLiMP §4.2: binomial tests vs p0=0.9, alpha=0.1, Bonferroni)")
    print(table)
    for label, df in tables.items():
        counts = df.group_by("verdict").len().sort("verdict")
        print(f"  {label:>12}: {df.height} conditions, " + ", ".join(f"{v}={c}" for v, c in counts.iter_rows()))
    print(f"  verdicts differing gold vs {labels[1]}: {differing(table, labels[0], labels[1])} of {table.height}")
    print(f"  verdicts differing gold vs {labels[2]}: {differing(table, labels[0], labels[2])} of {table.height}")
    print(f"  verdicts differing {labels[1]} vs {labels[2]}: {differing(table, labels[1], labels[2])} of {table.height}")

    names = sorted(n for n, cls in REGISTRY.items() if cls.phenomenon == PHENOMENON)
    g_stats, _ = pair_stats(gold, names)
    p_stats, p_found = pair_stats(parsed, names)
    rows = []
    for n in names:
        rows.append(
            {
                "paradigm": n,
                "gold_sents_per_1k": round(1000 * g_stats[n][0] / len(gold), 1),
                "gold_pairs_per_1k": round(1000 * g_stats[n][1] / len(gold), 1),
                "parsed_sents_per_1k": round(1000 * p_stats[n][0] / len(parsed), 1),
                "parsed_pairs_per_1k": round(1000 * p_stats[n][1] / len(parsed), 1),
            }
        )
    print("\n== Pairs per 1,000 sentences (sentences with ≥1 pair / all pairs)")
    print(pl.DataFrame(rows))

    if args.sample:
        rng = random.Random(args.seed)
        print(f"\n== {args.sample} random pairs per paradigm (re-parsed trees, seed {args.seed})")
        for n in names:
            items = p_found[n]
            print(f"-- {n} ({len(items)} sentences)")
            for sent, pairs in rng.sample(items, min(args.sample, len(items))):
                bad, pert = rng.choice(pairs)
                print(f"   [{pert.subtype} {pert.feature} {pert.source_value}->{pert.target_value}] {pert.source_word} -> {pert.target_word}")
                print(f"      + {sent.text}")
                print(f"      - {bad}")


if __name__ == "__main__":
    main()
