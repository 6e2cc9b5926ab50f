"""Perturb jobs as the pipeline runs them, each in a fresh process.

    OPENBLAS_NUM_THREADS=1 python bench/bench_perturb_job.py --conllu results/parsed/shard_*.conllu \
        [--verdicts results/agreement/verdicts.parquet] [--paradigms a,b | all] [--out DIR] \
        [--mode sharded | per-paradigm]

``--mode sharded`` (the workflow's, rules/perturb.smk): one `perturb_shard` job per shard
(rublimp.stages.perturb_shard_stage: one pass of every paradigm over the shard's trees, partial
pools cached under ``--out``/cache), then one `perturb` job per paradigm merging its partial
pools (rublimp.stages.pool_stage). ``--mode per-paradigm``: one job per paradigm reading every
shard (rublimp.stages.perturb_stage: what the workflow ran before the shard passes). The fixed
costs every job pays again (imports, word lists, analyser) are counted as in a `make run`. Prints
each job's wall-clock and CPU time (user + system, from the child's resource usage) and the sums:
the sum of CPU times is what the stage costs a run, whatever the machine's load. Pools are
written under ``--out`` (a temporary directory by default), e.g. to compare two checkouts.
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

SHARD_JOB = """
import sys
from rublimp.stages import perturb_shard_stage
from rublimp.workflow import WorkflowConfig
shard, verdicts, names, cache, manifest = sys.argv[1], sys.argv[2] or None, sys.argv[3].split(","), sys.argv[4], sys.argv[5]
wf = WorkflowConfig({"corpus": {"sources": [{"name": "demo", "type": "demo"}]}, "models": [{"name": "m", "backend": "hf", "demo": True}],
                     "perturb": {"paradigms": names}}, basedir=sys.argv[6], check_models=False)
perturb_shard_stage(shard, {n: wf.paradigm_inputs(n) for n in names}, cache, manifest, verdicts=verdicts,
                    pool_cap=350_000, pairs_per_sentence=1, seed=0)
"""

MERGE_JOB = """
import json, sys
from rublimp.stages import pool_stage
shards, verdicts, name, inputs, cache, out = sys.argv[1].split("\\x1f"), sys.argv[2] or None, sys.argv[3], json.loads(sys.argv[4]), sys.argv[5], sys.argv[6]
pool_stage(shards, name, inputs, cache, out, verdicts=verdicts, pool_cap=350_000, pairs_per_sentence=1, seed=0)
"""


def _timed(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conllu", nargs="+", required=True, help="the parsed shards every job reads")
    ap.add_argument("--verdicts", default="", help="agreement verdicts (results/agreement/verdicts.parquet)")
    ap.add_argument("--paradigms", default="all")
    ap.add_argument("--out", help="directory for the pools (default: a temporary one)")
    ap.add_argument("--mode", choices=["sharded", "per-paradigm"], default="sharded")
    args = ap.parse_args()

    from rublimp.perturb import resolve_paradigms

    names = resolve_paradigms(args.paradigms.split(","))
    out_dir = Path(args.out or tempfile.mkdtemp(prefix="bench_perturb_job_"))
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.mode == "sharded":
        sharded(args, names, out_dir)
        return
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


def sharded(args, names: list[str], out_dir: Path) -> None:
    import json

    from rublimp.workflow import WorkflowConfig

    repo = Path(__file__).resolve().parents[1]
    wf = WorkflowConfig({"corpus": {"sources": [{"name": "demo", "type": "demo"}]},
                         "models": [{"name": "m", "backend": "hf", "demo": True}], "perturb": {"paradigms": names}},
                        basedir=repo, check_models=False)
    cache = out_dir / "cache"
    print(f"{'job':45s} {'wall s':>7s} {'cpu s':>7s}")
    totals = {"perturb_shard": [0.0, 0.0], "perturb": [0.0, 0.0]}
    for i, shard in enumerate(args.conllu):
        wall, cpu = _timed([sys.executable, "-c", SHARD_JOB, shard, args.verdicts, ",".join(names), str(cache),
                            str(out_dir / f"shard_{i}.json"), str(repo)])
        totals["perturb_shard"][0] += wall
        totals["perturb_shard"][1] += cpu
        print(f"{'perturb_shard ' + Path(shard).name:45s} {wall:7.2f} {cpu:7.2f}")
    for name in names:
        wall, cpu = _timed([sys.executable, "-c", MERGE_JOB, "\x1f".join(args.conllu), args.verdicts, name,
                            json.dumps(wf.paradigm_inputs(name)), str(cache), str(out_dir / f"{name}.parquet")])
        totals["perturb"][0] += wall
        totals["perturb"][1] += cpu
        print(f"{'perturb ' + name:45s} {wall:7.2f} {cpu:7.2f}")
    for rule, (wall, cpu) in totals.items():
        print(f"{'all ' + rule + ' jobs':45s} {wall:7.1f} {cpu:7.1f}")
    print(f"{'the stage':45s} {sum(w for w, _ in totals.values()):7.1f} {sum(c for _, c in totals.values()):7.1f}"
          f"  (pools in {out_dir})")


if __name__ == "__main__":
    main()
