"""Run the throughput benchmarks that `make bench` reports: parse, perturb, scoring.

Each benchmark is its own script (see bench/*.py); this runs the quick default
settings of each one after another so one command prints the headline numbers.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = [
    ["bench_corpus.py"],
    ["bench_perturb.py", "--repeat", "1"],
    ["bench_score.py"],
]

if __name__ == "__main__":
    rc = 0
    for cmd in RUNS:
        print(f"\n=== {' '.join(cmd)} ===", flush=True)
        rc |= subprocess.call([sys.executable, str(HERE / cmd[0]), *cmd[1:]])
    sys.exit(rc)
