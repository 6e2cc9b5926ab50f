"""Peak memory and throughput of the scoring and curation jobs on large pools (issue 20, "bounded memory").

Builds ``--paradigms`` pools of ``--rows`` pairs each from the real pools of a finished run (each pool's
pairs repeated with new ids, the copies' sentences numbered so that every copy is a new sentence, as on a
larger corpus), fills a score cache for the demo model with made-up Min-K% values for every grammatical
sentence (so the scoring job reads the cache and loads no model: what is measured is reading the pools,
deduplicating their sentences, the cache look-up and writing the table), then runs, each in its own
process under ``/usr/bin/time -v``:

- ``score_pools``: :func:`rublimp.stages.score_stage` over all pools into the model's table;
- ``cut`` (only where ``--src`` still has ``pool_scores_stage``, the per-paradigm cut the workflow ran
  before curation read the table itself): one pool's rows of the table;
- ``curate``: :func:`rublimp.stages.curate_stage` of one pool (the largest), reading the cut where there is
  one, else the model's table.

It prints, per job, wall seconds, rows per second and peak RSS (MB).  ``--src`` picks the package
source (default: this checkout's ``src``), so the same case measures an older tree, e.g.
``git archive <commit> src | tar -x -C /tmp/before`` and ``--src /tmp/before/src``::

    python bench/bench_score_memory.py --results results --rows 20000 --json out.json
    python bench/bench_score_memory.py --results results --rows 20000 --src /tmp/before/src
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import polars as pl

REPO = Path(__file__).resolve().parent.parent


def build_pools(results: Path, out: Path, *, paradigms: int, rows: int) -> list[Path]:
    """``paradigms`` pools of ``rows`` pairs, cycling over the run's pools; copy j of a pair gets id
    ``<id>~j`` and its sentences end in `` (j)``."""
    real = sorted((results / "pools").glob("*.parquet"))
    real = [p for p in real if pl.scan_parquet(p).select(pl.len()).collect().item()]
    if not real:
        raise SystemExit(f"no non-empty pools under {results / 'pools'}")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(paradigms):
        src = pl.read_parquet(real[i % len(real)])
        copies = -(-rows // src.height)
        df = pl.concat([src.with_columns(pl.lit(j).alias("__copy")) for j in range(copies)]).head(rows)
        suffix = pl.when(pl.col("__copy") == 0).then(pl.lit("")).otherwise(
            pl.lit(f" ({i}.") + pl.col("__copy").cast(pl.String) + pl.lit(")"))
        df = df.with_columns(
            (pl.col("id") + pl.lit("~") + pl.col("__copy").cast(pl.String)).alias("id"),
            (pl.col("source_sentence") + suffix).alias("source_sentence"),
            (pl.col("target_sentence") + suffix).alias("target_sentence"),
            pl.lit(f"P{i:02d}").alias("PID"),
        ).drop("__copy")
        paths.append(out / f"P{i:02d}.parquet")
        df.write_parquet(paths[-1])
    return paths


def fill_cache(pools: list[Path], cache_root: Path, spec: dict, ks: list[int], part_rows: int = 200_000) -> int:
    """Made-up scores of every grammatical sentence, stored as the score cache stores them."""
    sys.path.insert(0, str(REPO / "src"))
    from rublimp.scoring.cache import HASH, ScoreCache

    cache = ScoreCache.for_model(cache_root, spec["name"], spec, ks=ks)
    sentences = pl.concat([pl.read_parquet(p, columns=["source_sentence"])["source_sentence"] for p in pools])
    sentences = sentences.unique().sort()
    cache.directory.mkdir(parents=True, exist_ok=True)
    for start in range(0, sentences.len(), part_rows):
        chunk = sentences.slice(start, part_rows).to_list()
        digests = [hashlib.sha1(s.encode("utf-8")).digest() for s in chunk]
        value = [-1.0 - d[0] / 16.0 for d in digests]  # in (-17, -1]
        df = pl.DataFrame({"sentence": chunk, "sum_logprob": [v * 10 for v in value],
                           "n_tokens": [len(s.split()) for s in chunk],
                           **{f"mink_{k}": [v + k / 100 for v in value] for k in ks},
                           "first_token": [s.split()[0] for s in chunk],
                           HASH: [d.hex() for d in digests]})
        df.write_parquet(cache.directory / f"part-{start // part_rows:06d}.parquet")
    return sentences.len()


def timed(code: str, src: Path, rows: int) -> dict:
    """Run ``code`` in a fresh interpreter with ``src`` on the path; wall, rows/s and peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(src), "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1", "POLARS_MAX_THREADS": "1"}
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"job failed:\n{code}\n{proc.stderr[-3000:]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)) / 1024
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", proc.stderr))
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "rows_per_s": round(rows / wall), "max_rss_mb": round(rss, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", type=Path, required=True, help="a finished run's results directory")
    ap.add_argument("--model", default="demo-gpt2", help="the demo model under <results>/models")
    ap.add_argument("--paradigms", type=int, default=45)
    ap.add_argument("--rows", type=int, default=20_000, help="pairs per pool")
    ap.add_argument("--src", type=Path, default=REPO / "src", help="package source to measure")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/bench_score_memory"))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)

    work = args.workdir / f"{args.paradigms}x{args.rows}"
    ks = [30, 40, 50, 60]
    # a copy of the model: the cache's key holds the model's path and weights, which a later run may replace
    spec = {"name": args.model, "backend": "hf", "path": str((work / "model").resolve()), "device": "cpu",
            "dtype": "auto"}
    pools = sorted((work / "pools").glob("*.parquet"))
    if len(pools) != args.paradigms:
        t0 = time.perf_counter()
        shutil.rmtree(work / "model", ignore_errors=True)
        shutil.copytree(args.results / "models" / args.model, work / "model")
        pools = build_pools(args.results, work / "pools", paradigms=args.paradigms, rows=args.rows)
        n = fill_cache(pools, work / "cache", spec, ks)
        print(f"built {len(pools)} pools x {args.rows} rows, {n} distinct grammatical sentences cached "
              f"({time.perf_counter() - t0:.0f} s)")
    out = work / f"out-{hashlib.sha1(str(args.src.resolve()).encode()).hexdigest()[:8]}"
    out.mkdir(exist_ok=True)
    table = out / "grammatical.parquet"
    total = args.paradigms * args.rows
    common = f"import json; from pathlib import Path; from rublimp import stages; spec = {json.dumps(spec)}\n"
    res: dict[str, dict] = {}
    res["score_pools"] = timed(
        common + f"stages.score_stage({json.dumps([str(p) for p in pools])}, {str(table)!r}, spec=spec, "
                 f"ks={ks}, cache_dir={str(work / 'cache')!r})", args.src, total)
    pool = str(pools[0])
    scores = str(table)
    has_cut = "def pool_scores_stage(" in (args.src / "rublimp" / "stages.py").read_text(encoding="utf-8")
    if has_cut:
        scores = str(out / "cut.parquet")
        res["cut"] = timed(common + f"stages.pool_scores_stage({pool!r}, {str(table)!r}, {scores!r})", args.src,
                           args.rows)
    res["curate"] = timed(
        common + f"stages.curate_stage({pool!r}, {{{args.model!r}: {scores!r}}}, {str(out / 'b.csv')!r}, "
                 f"{str(out / 'b.parquet')!r}, {str(out / 'b.json')!r}, k=30, n=1000, seed=0, grid_step=0.05)",
        args.src, args.rows)
    print(f"{args.paradigms} pools x {args.rows} rows ({total} rows), source {args.src}")
    print(f"{'job':12s} {'wall s':>8s} {'cpu s':>8s} {'rows/s':>10s} {'peak RSS MB':>12s}")
    for job, r in res.items():
        print(f"{job:12s} {r['wall_s']:8.2f} {r['cpu_s']:8.2f} {r['rows_per_s']:10d} {r['max_rss_mb']:12.1f}")
    if args.json:
        args.json.write_text(json.dumps({"paradigms": args.paradigms, "rows": args.rows, "src": str(args.src),
                                         "jobs": res}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
