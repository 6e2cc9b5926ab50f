"""Seeded validity samples: N pairs per paradigm from text the team did not write, for a blind read.

    OPENBLAS_NUM_THREADS=1 python bench/validity/sample_pairs.py --name gsd_r1 [--per-paradigm 20] [--seed 0]

Pairs come from UD Russian-GSD dev+test *re-parsed* with the default parser (``../shared/data``); a
paradigm with fewer than N pairs there is topped up from the parsed demo corpus. The inputs are the
ones ``bench/pool_snapshot.py`` prepares (shared under ``--work``). Agreement verdicts are computed from
each input, as the workflow does, and every paradigm runs with its default options.

Within each paradigm the pairs are ordered by SHA-256 of ``<seed>:<pair id>`` and the first N taken, so
a rule change that removes pairs changes only the sample slots those pairs held (re-read just those).

Writes
* ``work/validity/<name>/pairs.tsv``: id, paradigm, source, grammatical, ungrammatical, words — the text
  the reader reads (not committed: it holds corpus text);
* ``bench/validity/<name>.tsv`` (if absent): the verdict sheet to fill, one row per pair id with empty
  ``verdict`` (valid/invalid), ``kind`` and ``reason`` columns and no sentence text. Existing verdicts
  for ids still in the sample are kept; ids that left the sample are dropped and counted.

``--score`` prints valid/total per paradigm and overall from the filled sheet, and the invalid kinds.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[2]
SHEET_COLS = ["id", "paradigm", "origin", "verdict", "kind", "reason"]


def _order(seed: int, pair_id: str) -> str:
    return hashlib.sha256(f"{seed}:{pair_id}".encode("utf-8")).hexdigest()


def sample(work: Path, per_paradigm: int, seed: int) -> list[dict]:
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT / "src"))
    import pool_snapshot as ps
    from rublimp.conllu_doc import read_conllu
    from rublimp.paradigms import ParadigmContext, paradigm_names
    from rublimp.perturb import build_pools

    paths = ps.prepare(work)
    names = paradigm_names()
    by_origin = {}
    for origin in ("gsd_reparsed", "demo"):
        if origin not in paths:
            continue
        sents = list(read_conllu(paths[origin]))
        verdicts = ps.verdicts_for(sents)
        by_origin[origin] = build_pools(
            sents, names, ctx=ParadigmContext(seed=seed, agreement=verdicts), cap=0, seed=seed, progress=False
        )
    rows = []
    for name in names:
        taken: list[dict] = []
        for origin, pools in by_origin.items():
            pool = pools[name].to_dicts()
            pool.sort(key=lambda r: _order(seed, r["id"]))
            for r in pool[: per_paradigm - len(taken)]:
                r["origin"] = origin
                taken.append(r)
            if len(taken) >= per_paradigm:
                break
        rows.extend(taken)
    return rows


def write(rows: list[dict], name: str, work: Path) -> None:
    out = work / "validity" / name
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "pairs.tsv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["id", "paradigm", "origin", "grammatical", "ungrammatical", "source_word", "target_word"])
        for r in rows:
            w.writerow([r["id"], r["PID"], r["origin"], r["source_sentence"], r["target_sentence"],
                        r["source_word"], r["target_word"]])
    sheet = ROOT / "bench" / "validity" / f"{name}.tsv"
    old = {}
    if sheet.exists():
        with open(sheet, encoding="utf-8") as fh:
            old = {r["id"]: r for r in csv.DictReader(fh, delimiter="\t")}
    kept = 0
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=SHEET_COLS, delimiter="\t", lineterminator="\n")
        w.writeheader()
        for r in rows:
            prev = old.get(r["id"], {})
            kept += bool(prev.get("verdict"))
            w.writerow({"id": r["id"], "paradigm": r["PID"], "origin": r["origin"],
                        "verdict": prev.get("verdict", ""), "kind": prev.get("kind", ""),
                        "reason": prev.get("reason", "")})
    dropped = sum(1 for k, v in old.items() if v.get("verdict") and k not in {r["id"] for r in rows})
    print(f"{len(rows)} pairs -> {out / 'pairs.tsv'}; sheet {sheet} ({kept} verdicts kept, "
          f"{dropped} for pairs no longer sampled dropped)")


def score(name: str) -> int:
    sheet = ROOT / "bench" / "validity" / f"{name}.tsv"
    with open(sheet, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    per = defaultdict(Counter)
    kinds = Counter()
    for r in rows:
        per[r["paradigm"]][r["verdict"] or "unread"] += 1
        if r["verdict"] == "invalid":
            kinds[r["kind"]] += 1
    tot = Counter()
    for p in sorted(per):
        c = per[p]
        tot.update(c)
        read = c["valid"] + c["invalid"]
        print(f"{p:50s} {c['valid']:3d}/{read:<3d} {c['valid'] / read if read else float('nan'):.2f}"
              + (f"  unread {c['unread']}" if c["unread"] else ""))
    read = tot["valid"] + tot["invalid"]
    print(f"{'overall':50s} {tot['valid']}/{read} {tot['valid'] / read if read else float('nan'):.4f}")
    for k, n in kinds.most_common():
        print(f"  invalid kind {k}: {n}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True, help="sample name: the sheet is bench/validity/<name>.tsv")
    ap.add_argument("--per-paradigm", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default=str(ROOT / "work" / "snapshot"))
    ap.add_argument("--score", action="store_true", help="only print the scores of the filled sheet")
    args = ap.parse_args(argv)
    if args.score:
        return score(args.name)
    write(sample(Path(args.work), args.per_paradigm, args.seed), args.name, Path(args.work))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
