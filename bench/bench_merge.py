"""Peak memory and throughput of one pool merge: the in-memory merge against the streaming one.

    nice python bench/bench_merge.py [--partials 45] [--rows 1000000] [--cap 350000] [--workdir work/bench_merge]

Writes ``--partials`` synthetic partial pools (rows dealt round-robin, as shards deal sentences;
each sorted by id and carrying its sampling key ``_k``, as rublimp.pools writes them) holding
``--rows`` rows in all, with sentence-sized text columns, then merges them to a pool of at most
``--cap`` rows twice, each time in a fresh process: ``memory`` (rublimp.pools.merge_partials and
one Parquet write, the rule's merge before rublimp.pool_merge) and ``streaming``
(rublimp.pool_merge.merge_partials_to). Prints per method the wall and CPU seconds, rows per
second and the process's peak RSS (from the child's rusage), and checks that both pools hold the
same rows in the same order.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = ("дом", "книга", "читал", "новые", "города", "вчера", "быстро", "учителя", "пришли", "собака")


def make_partials(workdir: Path, n_partials: int, n_rows: int, seed: int = 0) -> list[Path]:
    import polars as pl

    from rublimp.perturb import POOL_SCHEMA, cap_pool

    folder = workdir / f"partials_{n_partials}_{n_rows}"
    paths = [folder / f"part_{j:03d}.parquet" for j in range(n_partials)]
    if all(p.is_file() for p in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    for j in range(n_partials):
        idx = range(j, n_rows, n_partials)
        text = [" ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(12 + i % 9)) for i in idx]
        cols = {c: [None] * len(idx) for c in POOL_SCHEMA}
        cols.update(id=[f"add_new_suffix:c{i:08d}:0" for i in idx], source_sentence=text,
                    target_sentence=[t + "ость" for t in text], source_word=["дом"] * len(idx),
                    target_word=["домость"] * len(idx), sent_id=[f"c{i:08d}" for i in idx],
                    n_tokens=[12 + i % 9 for i in idx], domain=["wiki"] * len(idx))
        df = cap_pool(pl.DataFrame(cols, schema=POOL_SCHEMA), 0, seed, keep_key=True)
        df.write_parquet(paths[j], compression="zstd", statistics=False)
    return paths


def run_one(method: str, paths: list[Path], cap: int, out: Path) -> int:
    if method == "memory":
        from rublimp.io import write_parquet_atomic
        from rublimp.pools import merge_partials

        df = merge_partials(paths, cap)
        write_parquet_atomic(df, out)
        return df.height
    from rublimp.pool_merge import merge_partials_to

    return merge_partials_to(paths, cap, out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--partials", type=int, default=45)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cap", type=int, default=350_000)
    ap.add_argument("--workdir", type=Path, default=REPO / "work" / "bench_merge")
    ap.add_argument("--methods", default="memory,streaming")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    paths = make_partials(args.workdir, args.partials, args.rows)
    if args.child:
        n = run_one(args.child, paths, args.cap, args.workdir / f"pool_{args.child}.parquet")
        print(n)
        return 0
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    print(f"{args.partials} partial pools, {args.rows} rows, cap {args.cap}")
    print(f"{'method':<10} {'rows':>8} {'wall_s':>7} {'cpu_s':>7} {'rows/s':>9} {'peak_rss_mb':>11}")
    for method in args.methods.split(","):
        t0 = time.time()
        log = args.workdir / f"child_{method}.out"
        with open(log, "w") as fh:  # the child is reaped with wait4 for its own rusage
            proc = subprocess.Popen([sys.executable, __file__, "--partials", str(args.partials), "--rows",
                                     str(args.rows), "--cap", str(args.cap), "--workdir", str(args.workdir),
                                     "--child", method], stdout=fh, env=env)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.time() - t0
        if proc.returncode:
            print(f"{method}: failed (exit {proc.returncode})", file=sys.stderr)
            return 1
        stdout = log.read_text()
        n = int(stdout.strip().splitlines()[-1])
        cpu = usage.ru_utime + usage.ru_stime
        print(f"{method:<10} {n:>8} {wall:>7.1f} {cpu:>7.1f} {n / wall:>9.0f} {usage.ru_maxrss / 1024:>11.0f}")
    if set(args.methods.split(",")) >= {"memory", "streaming"}:
        import polars as pl

        same = pl.read_parquet(args.workdir / "pool_memory.parquet").equals(
            pl.read_parquet(args.workdir / "pool_streaming.parquet"))
        print(f"same rows in the same order: {same}")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
