"""Peak memory and CPU of the ``curate`` job on the pools of finished runs, for one or two package sources.

For every ``<results>`` directory given (e.g. the scale bench's ``<workdir>/100000/results`` and
``<workdir>/1000000/results``) and every source (``--src``, and ``--baseline`` if given, run one after
the other per pool so load affects both alike), each paradigm's pool is curated by
:func:`rublimp.stages.curate_stage` the way the rule calls it (demo model's table, its context tables,
``POLARS_MAX_THREADS=1``), in its own process under ``/usr/bin/time``.  Prints per results directory and
source: the pools' largest row count, the largest peak RSS over the pools (and which), total user CPU
and CPU per corpus sentence; with ``--baseline``, whether every benchmark, CSV and report is
byte-identical between the two sources::

    python bench/bench_curate_memory.py /work/b/100000/results /work/b/1000000/results \\
        --baseline /tmp/before/src --json out.json
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

JOB = """
import glob, sys
sys.path.insert(0, {src!r})
from rublimp.stages import curate_stage
base, p, out = {base!r}, {pool!r}, {out!r}
curate_stage(f"{{base}}/pools/{{p}}.parquet", {{"demo-gpt2": f"{{base}}/scores/demo-gpt2/grammatical.parquet"}},
             f"{{out}}/{{p}}.csv", f"{{out}}/{{p}}.parquet", f"{{out}}/{{p}}.json", k=30, n=1000, seed=0,
             length_bins=(6, 10, 15, 20, 30, 51), grid_step=0.05,
             detection_check=f"{{base}}/eval/demo_lm_check.json",
             too_long=sorted(glob.glob(f"{{base}}/context/*.parquet")))
"""


def run_one(src: Path, base: Path, pool: str, out: Path) -> tuple[float, float]:
    """(peak RSS MB, user CPU s) of one curate job."""
    env = {**os.environ, "POLARS_MAX_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    code = JOB.format(src=str(src), base=str(base), pool=pool, out=str(out))
    proc = subprocess.run(["/usr/bin/time", "-f", "@@ %M %U", sys.executable, "-c", code], env=env,
                          capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"curate {pool} with {src} failed:\n{proc.stderr[-2000:]}")
    kb, user = re.findall(r"@@ (\d+) ([\d.]+)", proc.stderr)[-1]
    return int(kb) / 1024, float(user)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", type=Path, help="finished runs' results directories")
    ap.add_argument("--src", type=Path, default=REPO / "src")
    ap.add_argument("--baseline", type=Path, help="another package source to compare with")
    ap.add_argument("--sentences", type=str, help="corpus sentences per results directory, comma-separated")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    import polars as pl

    srcs = {"src": args.src, **({"baseline": args.baseline} if args.baseline else {})}
    sizes = [int(s) for s in args.sentences.split(",")] if args.sentences else [None] * len(args.results)
    report: dict = {}
    for base, sentences in zip(args.results, sizes):
        pools = sorted(p.stem for p in (base / "pools").glob("*.parquet"))
        rows = {p: pl.scan_parquet(base / "pools" / f"{p}.parquet").select(pl.len()).collect().item() for p in pools}
        entry: dict = {"pools": len(pools), "largest_pool": max(rows.values()), "sentences": sentences}
        with tempfile.TemporaryDirectory() as tmp:
            outs = {name: Path(tmp) / name for name in srcs}
            peaks: dict = {name: {} for name in srcs}
            cpu = {name: 0.0 for name in srcs}
            for p in pools:
                for name, src in srcs.items():
                    outs[name].mkdir(exist_ok=True)
                    peak, user = run_one(src, base, p, outs[name])
                    peaks[name][p] = peak
                    cpu[name] += user
            for name in srcs:
                worst = max(peaks[name], key=peaks[name].get)
                entry[name] = {"max_rss_mb": round(peaks[name][worst], 1), "worst_pool": worst,
                               "cpu_s": round(cpu[name], 2),
                               "cpu_ms_per_sentence": round(1000 * cpu[name] / sentences, 4) if sentences else None}
                print(f"{base}: {name}: largest pool {entry['largest_pool']:,} rows; peak {peaks[name][worst]:.0f} MB "
                      f"({worst}); CPU {cpu[name]:.1f} s", flush=True)
            if args.baseline:
                names = sorted(f.name for f in outs["src"].iterdir())
                same = [n for n in names if filecmp.cmp(outs["src"] / n, outs["baseline"] / n, shallow=False)]
                entry["identical_files"] = f"{len(same)}/{len(names)}"
                print(f"{base}: {len(same)} of {len(names)} output files byte-identical", flush=True)
        report[str(base)] = entry
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
