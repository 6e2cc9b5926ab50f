"""Pairs the self-check rejects, per paradigm and reason, and what each paradigm loses to it.

    OPENBLAS_NUM_THREADS=1 python bench/bench_selfcheck.py --conllu parsed.conllu [more.conllu ...]
        [--paradigms all] [--examples 8 --examples-out rejected.tsv] [--no-verdicts]

The parsed sentences are perturbed twice with :func:`rublimp.perturb.build_pools` (one pair per
sentence, seed 0): once with the pair self-check and the source self-check off, once with both on
(:mod:`rublimp.paradigms.selfcheck`). The agreement verdicts the source check consults are
computed from the same sentences (:func:`rublimp.agreement_validation.validate_agreement`, default
thresholds) unless ``--no-verdicts``. Prints a Markdown table: pairs without / with the check, the
share lost, the candidate perturbations rejected per reason, and the source sentences rejected per
reason. ``--examples-out`` writes up to ``--examples`` rejected sentences per paradigm and reason
(for reading; keep it outside the repository when the text is not ours).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conllu", nargs="+", required=True, help="parsed CoNLL-U files")
    ap.add_argument("--paradigms", default="all")
    ap.add_argument("--no-verdicts", action="store_true", help="run the source check without a verdicts table")
    ap.add_argument("--examples", type=int, default=0)
    ap.add_argument("--examples-out", type=Path)
    args = ap.parse_args()

    from rublimp.agreement_validation import validate_agreement
    from rublimp.conllu_doc import read_conllu
    from rublimp.paradigms import ParadigmContext
    from rublimp.paradigms.selfcheck import SelfCheckStats
    from rublimp.perturb import build_pools, resolve_paradigms

    sents = [s for p in args.conllu for s in read_conllu(p)]
    names = resolve_paradigms(args.paradigms.split(","))
    verdicts = None
    if not args.no_verdicts:
        table = validate_agreement(sents)
        verdicts = {tuple(r[:4]): r[-1] for r in table.select("feature", "pred_type", "subject_value", "order", "verdict").iter_rows()}
    off = ParadigmContext(agreement=verdicts, self_check=False, source_check=False)
    on = ParadigmContext(agreement=verdicts, self_check_stats=SelfCheckStats(keep_examples=args.examples))
    pools_off = build_pools(sents, names, ctx=off, progress=False)
    pools_on = build_pools(sents, names, ctx=on, progress=False)
    stats = on.self_check_stats
    print(f"{len(sents)} sentences; source sentences rejected: "
          + (", ".join(f"{r} {n}" for r, n in sorted(stats.sources.items())) or "none"))
    print()
    print("| paradigm | pairs off | pairs on | lost | rejected candidates by reason |")
    print("|---|---:|---:|---:|---|")
    tot_off = tot_on = 0
    for n in names:
        a, b = pools_off[n].height, pools_on[n].height
        tot_off, tot_on = tot_off + a, tot_on + b
        lost = f"{(a - b) / a:.1%}" if a else "-"
        reasons = ", ".join(f"{r} {c}" for r, c in sorted(stats.pairs.get(n, {}).items())) or ""
        print(f"| {n} | {a} | {b} | {lost} | {reasons} |")
    print(f"| **total** | {tot_off} | {tot_on} | {(tot_off - tot_on) / max(tot_off, 1):.1%} | |")
    if args.examples_out:
        with open(args.examples_out, "w", encoding="utf-8") as fh:
            for (who, reason), rows in sorted(stats.examples.items()):
                for sid, text in rows:
                    fh.write(f"{who}\t{reason}\t{sid}\t{text}\n")
        print(f"examples -> {args.examples_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
