"""Perturb jobs as the pipeline runs them: one fresh process per paradigm, each reading every shard.

    OPENBLAS_NUM_THREADS=1 python bench/bench_perturb_job.py --conllu results/parsed/shard_*.conllu \
        [--verdicts results/agreement/verdicts.parquet] [--paradigms a,b | all] [--out DIR]

Each paradigm's job is the `perturb` rule's work (rublimp.stages.perturb_stage: imports, word
lists and analyser, reading the CoNLL-U shards, the pass, the Parquet pool) in its own Python
process, so the fixed costs every job pays again are counted as in a `make run`. Prints each
job's wall-clock and CPU time (user + system, from the child's resource usage) and the sums:
the sum of CPU times is what the `perturb` rule costs a run, whatever the machine's load.
Pools are written under ``--out`` (a temporary directory by default), e.g. to compare two checkouts.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

JOB = """
import sys
from rublimp.stages import perturb_stage
shards, verdicts, name, out = sys.argv[1].split("\\x1f"), sys.argv[2] or None, sys.argv[3], sys.argv[4]
perturb_stage(shards, [name], [out], verdicts=verdicts, pool_cap=350_000, pairs_per_sentence=1, seed=0, options={})
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conllu", nargs="+", required=True, help="the parsed shards every job reads")
    ap.add_argument("--verdicts", default="", help="agreement verdicts (results/agreement/verdicts.parquet)")
    ap.add_argument("--paradigms", default="all")
    ap.add_argument("--out", help="directory for the pools (default: a temporary one)")
    args = ap.parse_args()

    from rublimp.perturb import resolve_paradigms

    names = resolve_paradigms(args.paradigms.split(","))
    out_dir = Path(args.out or tempfile.mkdtemp(prefix="bench_perturb_job_"))
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{'paradigm':45s} {'wall s':>7s} {'cpu s':>7s}")
    tot_wall = tot_cpu = 0.0
    for name in names:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", JOB, "\x1f".join(args.conllu), args.verdicts, name, str(out_dir / f"{name}.parquet")],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        tot_wall += wall
        tot_cpu += cpu
        print(f"{name:45s} {wall:7.2f} {cpu:7.2f}")
    print(f"{f'all {len(names)} jobs':45s} {tot_wall:7.1f} {tot_cpu:7.1f}  (pools in {out_dir})")


if __name__ == "__main__":
    main()
