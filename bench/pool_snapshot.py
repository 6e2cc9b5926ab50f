"""Pool snapshots: digests of all paradigms' pools on four fixed inputs, to prove a refactor changes no output.

    OPENBLAS_NUM_THREADS=1 python bench/pool_snapshot.py --work work/snapshot --write bench/pool_digests.tsv
    OPENBLAS_NUM_THREADS=1 python bench/pool_snapshot.py --work work/snapshot --check bench/pool_digests.tsv

The four inputs (prepared once under ``--work`` and reused; delete the folder to re-prepare):

* ``demo``: the bundled demo corpus (``resources/demo_corpus/*.txt``) parsed with slovnet;
* ``gsd_gold``: UD Russian-GSD dev+test gold trees (``../shared/data/ud_russian_gsd``);
* ``gsd_reparsed``: the same sentences' ``# text`` parsed with slovnet;
* ``rublimp_dev``: the unique source sentences of ``../shared/data/rublimp_dev/*.csv`` parsed with slovnet.

An input whose data is absent is skipped and named. For each input the agreement verdicts are computed
from the input itself (as the workflow does), then every paradigm's pool is built in one in-process pass
(``rublimp.perturb.build_pools``, seed 0, no cap); each pool is written sorted by id as Parquet under
``--work/pools/<input>/`` and its SHA-256 goes into the digest table (input, paradigm, pairs, sha256).
No sentence text is written outside ``--work``; the digest table holds hashes and counts only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
INPUTS = ("demo", "gsd_gold", "gsd_reparsed", "rublimp_dev")


def _demo_items() -> list[tuple[str, str, str]]:
    items = []
    for path in sorted((ROOT / "resources" / "demo_corpus").glob("*.txt")):
        domain = path.stem
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if line.lower().startswith("# domain:"):
                domain = line.split(":", 1)[1].strip()
            if line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, domain))
    return items


def _gsd_files() -> list[Path]:
    return sorted((SHARED / "ud_russian_gsd").glob("*.conllu"))


def _gsd_items() -> list[tuple[str, str, str]]:
    from rublimp.conllu_doc import read_conllu

    return [(s.sent_id, s.text, "encyclopedic") for p in _gsd_files() for s in read_conllu(p)]


def _rublimp_items() -> list[tuple[str, str, str]]:
    import polars as pl

    seen: dict[str, str] = {}
    for path in sorted((SHARED / "rublimp_dev").glob("*.csv")):
        for text in pl.read_csv(path)["source_sentence"].to_list():
            if text and text not in seen:
                seen[text] = f"rublimp_dev:{len(seen) + 1}"
    return [(sid, text, "mixed") for text, sid in seen.items()]


def prepare(work: Path) -> dict[str, Path]:
    """Write each available input as CoNLL-U under ``work/inputs`` (once); returns name -> path."""
    from rublimp.conllu_doc import read_conllu, write_conllu
    from rublimp.parse import parse_texts

    out = work / "inputs"
    out.mkdir(parents=True, exist_ok=True)
    makers = {
        "demo": lambda: parse_texts(_demo_items(), max_chars=None, max_tokens=None),
        "gsd_gold": lambda: (s for p in _gsd_files() for s in read_conllu(p)),
        "gsd_reparsed": lambda: parse_texts(_gsd_items(), max_chars=None, max_tokens=None),
        "rublimp_dev": lambda: parse_texts(_rublimp_items(), max_chars=None, max_tokens=None),
    }
    available = {
        "demo": True,
        "gsd_gold": bool(_gsd_files()),
        "gsd_reparsed": bool(_gsd_files()),
        "rublimp_dev": (SHARED / "rublimp_dev").is_dir(),
    }
    paths = {}
    for name in INPUTS:
        path = out / f"{name}.conllu"
        if not path.exists():
            if not available[name]:
                print(f"{name}: data absent, skipped", file=sys.stderr)
                continue
            t0 = time.time()
            tmp = path.with_suffix(".tmp")
            write_conllu(list(makers[name]()), tmp)
            tmp.rename(path)
            print(f"{name}: prepared in {time.time() - t0:.0f}s", file=sys.stderr)
        paths[name] = path
    return paths


def snapshot(work: Path, paths: dict[str, Path]) -> list[tuple[str, str, int, str]]:
    """Build every paradigm's pool on every input; returns (input, paradigm, pairs, sha256) rows."""
    from rublimp.conllu_doc import read_conllu
    from rublimp.paradigms import ParadigmContext, paradigm_names
    from rublimp.perturb import build_pools

    from rublimp.agreement_validation import validate_agreement

    names = paradigm_names()
    rows = []
    for name, path in paths.items():
        t0 = time.time()
        sents = list(read_conllu(path))
        table = validate_agreement(sents)
        verdicts = _verdicts_from_table(table)
        pools = build_pools(
            sents, names, ctx=ParadigmContext(seed=0, agreement=verdicts), cap=0, seed=0, progress=False
        )
        pool_dir = work / "pools" / name
        pool_dir.mkdir(parents=True, exist_ok=True)
        for paradigm in names:
            df = pools[paradigm].sort("id")
            target = pool_dir / f"{paradigm}.parquet"
            df.write_parquet(target, statistics=False)
            digest = hashlib.sha256(df.write_ndjson().encode("utf-8")).hexdigest()
            rows.append((name, paradigm, df.height, digest))
        print(f"{name}: {len(sents)} sentences, {sum(p.height for p in pools.values())} pairs, "
              f"{time.time() - t0:.0f}s", file=sys.stderr)
    return rows


def verdicts_for(sents):
    """The agreement verdicts the workflow would compute from these sentences (``load_verdicts`` mapping)."""
    from rublimp.agreement_validation import validate_agreement

    return _verdicts_from_table(validate_agreement(sents))


def _verdicts_from_table(table):
    """The ``load_verdicts`` mapping from an in-memory verdict table (written and read back as the stage does)."""
    import tempfile

    from rublimp.agreement_validation import load_verdicts, write_agreement_table

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "v.parquet"
        write_agreement_table(table, p)
        return load_verdicts(p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default=str(ROOT / "work" / "snapshot"), help="inputs and pools (not committed)")
    ap.add_argument("--inputs", default=",".join(INPUTS), help="comma-separated subset of " + ",".join(INPUTS))
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", help="write the digest table (TSV) here")
    g.add_argument("--check", help="compare against this digest table; exit 1 on any difference")
    args = ap.parse_args(argv)

    work = Path(args.work)
    wanted = [x for x in args.inputs.split(",") if x]
    paths = {k: v for k, v in prepare(work).items() if k in wanted}
    rows = snapshot(work, paths)
    lines = ["input\tparadigm\tpairs\tsha256"] + [f"{a}\t{b}\t{c}\t{d}" for a, b, c, d in rows]
    if args.write:
        Path(args.write).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{len(rows)} digests -> {args.write}")
        return 0
    want = {}
    for line in Path(args.check).read_text(encoding="utf-8").splitlines()[1:]:
        a, b, c, d = line.split("\t")
        if a in paths:
            want[(a, b)] = (int(c), d)
    got = {(a, b): (c, d) for a, b, c, d in rows}
    diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    for k in diff:
        print(f"DIFF {k[0]} {k[1]}: expected {want.get(k)}, got {got.get(k)}")
    print(f"{len(got) - len(diff)} of {len(set(want) | set(got))} pools identical")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
