"""Seeded validity samples: N pairs per paradigm from text the team did not write, for a blind read.

    OPENBLAS_NUM_THREADS=1 python bench/validity/sample_pairs.py --name gsd_r1 [--per-paradigm 20] [--seed 0]

Pairs come from UD Russian-GSD dev+test *re-parsed* with the default parser (``../shared/data``), kept
only where the corpus stage's sentence filter (:func:`rublimp.corpus.check_sentence`, default settings)
keeps the text, as a user's run would; a paradigm with fewer than N pairs there is topped up from the
parsed demo corpus (``--no-filter`` reads every GSD sentence). The inputs are the
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

``--score`` prints valid/total per paradigm and overall from the filled sheet, and the invalid kinds;
``--compare SECOND.tsv`` prints the agreement (raw and Cohen's kappa) between the sheet and an
independent second reader on the pairs both read.
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
SHEET_COLS = ["id", "paradigm", "origin", "pair_sha", "verdict", "kind", "reason"]


def _order(seed: int, pair_id: str) -> str:
    return hashlib.sha256(f"{seed}:{pair_id}".encode("utf-8")).hexdigest()


def pair_sha(row: dict) -> str:
    """A short digest of the pair's two sentences: a verdict applies only while the pair text is the same."""
    text = f"{row['source_sentence']}\t{row['target_sentence']}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def sample(work: Path, per_paradigm: int, seed: int, use_filter: bool = True) -> list[dict]:
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
        if use_filter and origin == "gsd_reparsed":
            from rublimp.corpus import check_sentence

            n = len(sents)
            sents = [s for s in sents if check_sentence(s.text) is None]
            print(f"{origin}: the corpus filter keeps {len(sents)} of {n} sentences", file=sys.stderr)
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
            if prev.get("pair_sha") != pair_sha(r):
                prev = {}  # the pair's text changed: its old verdict does not apply
            kept += bool(prev.get("verdict"))
            w.writerow({"id": r["id"], "paradigm": r["PID"], "origin": r["origin"], "pair_sha": pair_sha(r),
                        "verdict": prev.get("verdict", ""), "kind": prev.get("kind", ""),
                        "reason": prev.get("reason", "")})
    dropped = sum(1 for k, v in old.items() if v.get("verdict") and k not in {r["id"] for r in rows})
    print(f"{len(rows)} pairs -> {out / 'pairs.tsv'}; sheet {sheet} ({kept} verdicts kept, "
          f"{dropped} for pairs no longer sampled dropped)")


def _read_sheet(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def _write_sheet(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=SHEET_COLS, delimiter="\t", lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def carry(name: str, sources: list[Path]) -> None:
    """Fill empty verdicts of sheet ``name`` from other sheets (same id and pair_sha) or from a reader's
    TSV (``id, verdict, kind, reason``, read against the pairs of this very sample)."""
    sheet = ROOT / "bench" / "validity" / f"{name}.tsv"
    rows = _read_sheet(sheet)
    n = 0
    for src in sources:
        found = {}
        for r in _read_sheet(src):
            if r.get("verdict"):
                found[(r["id"], r["pair_sha"]) if "pair_sha" in r else r["id"]] = r
        for row in rows:
            if row["verdict"]:
                continue
            hit = found.get((row["id"], row["pair_sha"])) or found.get(row["id"])
            if hit:
                row.update({k: hit.get(k, "") for k in ("verdict", "kind", "reason")})
                n += 1
    _write_sheet(sheet, rows)
    print(f"{n} verdicts filled in {sheet}; {sum(not r['verdict'] for r in rows)} still unread")


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


def compare(name: str, second: Path) -> int:
    """Agreement between the sheet's verdicts and a second reader's (``id, verdict, kind, reason``) on
    the pairs both read: raw agreement, Cohen's kappa, and the pairs they disagree on (ids only)."""
    sheet = {r["id"]: r for r in _read_sheet(ROOT / "bench" / "validity" / f"{name}.tsv") if r["verdict"]}
    other = {r["id"]: r for r in _read_sheet(second) if r.get("verdict")}
    both = sorted(i for i in set(sheet) & set(other)
                  if "pair_sha" not in other[i] or other[i]["pair_sha"] == sheet[i]["pair_sha"])
    if not both:
        print("no pair read by both")
        return 1
    a = [sheet[i]["verdict"] == "valid" for i in both]
    b = [other[i]["verdict"] == "valid" for i in both]
    n = len(both)
    agree = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    kappa = (agree - chance) / (1 - chance) if chance < 1 else float("nan")
    print(f"{n} pairs read by both: agreement {agree:.3f}, Cohen's kappa {kappa:.3f}; "
          f"valid share {pa:.3f} (sheet) vs {pb:.3f} (second reader)")
    for i, x, y in zip(both, a, b):
        if x != y:
            print(f"  {i}: sheet {sheet[i]['verdict']} ({sheet[i]['kind']}), second {other[i]['verdict']} "
                  f"({other[i].get('kind', '')}: {other[i].get('reason', '')})")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True, help="sample name: the sheet is bench/validity/<name>.tsv")
    ap.add_argument("--per-paradigm", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default=str(ROOT / "work" / "snapshot"))
    ap.add_argument("--score", action="store_true", help="only print the scores of the filled sheet")
    ap.add_argument("--compare", help="a second reader's TSV: agreement and kappa with the sheet")
    ap.add_argument("--carry", nargs="+", help="fill verdicts from these sheets / reader TSVs, then score")
    ap.add_argument("--no-filter", action="store_true", help="read every GSD sentence, not only those the corpus filter keeps")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(args.name, Path(args.compare))
    if args.carry:
        carry(args.name, [Path(p) for p in args.carry])
        return score(args.name)
    if args.score:
        return score(args.name)
    write(sample(Path(args.work), args.per_paradigm, args.seed, not args.no_filter), args.name, Path(args.work))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
