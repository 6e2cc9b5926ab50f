"""Workflow runs for tests/test_slurm.py and tests/test_invalidation.py, each in a copy of the
checkout (so tests may edit its code and word lists), with the copy's package first on PYTHONPATH
for the jobs as well as for Snakemake.

- :func:`slurm_run`: a real run of a one-paradigm cut of .test/config.yaml through the SLURM
  plugin with stand-in commands (tests/fake_slurm.py), once per session.
- :func:`touched_checkout`: .test/config.yaml "completed" without running anything: every output
  created empty and ``snakemake --touch`` recording every job's metadata (params, code, inputs),
  which is all that planning looks at, so dry runs after an edit plan what a real run would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
COPIED = ("Snakefile", "rules", "scripts", "src", "config", "resources", "report", "envs", "profiles", ".test")
ACCOUNT = "rublimp"

_RUN: dict[str, object] = {}


def copy_checkout(dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "derive"))
        else:
            shutil.copy2(src, dest / name)
    return dest


def env_for(checkout: Path, fake_bin: Path | None = None, state: Path | None = None) -> dict:
    env = dict(os.environ)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    env["PYTHONPATH"] = str(checkout / "src")
    path = [str(Path(sys.executable).parent), env.get("PATH", "")]
    if fake_bin is not None:
        path.insert(0, str(fake_bin))
        env["FAKE_SLURM_DIR"] = str(state)
        env["FAKE_SLURM_ACCOUNTS"] = ACCOUNT
        env["FAKE_SLURM_RECENT_ACCOUNT"] = ACCOUNT  # the profile sets no account: the plugin guesses it
    env["PATH"] = os.pathsep.join(path)
    return env


def snakemake(checkout: Path, *args: str, env: dict | None = None, check: bool = True, timeout: int = 1500):
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(checkout / "Snakefile"),
           "--directory", str(checkout), "--configfile", str(checkout / ".test" / "config.yaml"), *args]
    proc = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, env=env or env_for(checkout), timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-5000:]}\n{proc.stderr[-8000:]}")
    return proc


#: the SLURM end-to-end run: .test/config.yaml cut to one paradigm, one shard, 300 sentences
SLURM_PARADIGM = "np_agreement_number"


def slurm_run(tmp_path_factory) -> dict:
    """The completed run (once per test session): ``{"dir", "state", "proc", "env", "config"}``."""
    if not _RUN:
        sys.path.insert(0, str(Path(__file__).parent))
        import fake_slurm

        base = tmp_path_factory.mktemp("slurm_run")
        checkout = copy_checkout(base / "checkout")
        cfg = yaml.safe_load((checkout / ".test" / "config.yaml").read_text(encoding="utf-8"))
        cfg["corpus"]["max_sentences_per_source"] = 300
        cfg["parse"]["shards"] = 1
        cfg["perturb"]["paradigms"] = [SLURM_PARADIGM]
        cfg["demo_lm"]["epochs"] = 1
        cfg["scoring"]["threads"] = 2  # the jobs that run a model ask for 2 CPUs, the others for 1
        config = base / "config.yaml"
        config.write_text(yaml.safe_dump(cfg), encoding="utf-8")
        fake_bin, state = base / "bin", base / "slurm_state"
        fake_slurm.install(fake_bin)
        env = env_for(checkout, fake_bin, state)
        proc = snakemake(
            checkout, "--configfile", str(config), "--profile", str(checkout / "profiles" / "slurm"),
            "--jobs", "2", "--slurm-init-seconds-before-status-checks", "1", "--latency-wait", "5", env=env,
        )
        _RUN.update(dir=checkout, state=state, proc=proc, env=env, config=config)
    return _RUN


def slurm_run_made() -> dict:
    """The run :func:`slurm_run` made if this session has made it already, else ``{}`` (makes nothing)."""
    return _RUN


def touched_checkout(dest: Path) -> Path:
    """A copy of the checkout whose .test/config.yaml run is complete as far as planning can tell."""
    checkout = copy_checkout(dest)
    plan = snakemake(checkout, "-n")
    for line in (plan.stdout + plan.stderr).splitlines():
        line = line.strip()
        if line.startswith("output:"):
            for out in line[len("output:"):].split(","):
                path = checkout / out.strip()
                path.parent.mkdir(parents=True, exist_ok=True)
                path.touch()
    snakemake(checkout, "--touch", "--cores", "1")
    return checkout


def planned(proc: subprocess.CompletedProcess) -> Counter:
    """(rule, paradigm or '') -> count of the jobs a dry run plans."""
    out: Counter = Counter()
    for block in re.split(r"\n(?=(?:local)?rule \w+:)", proc.stdout + "\n" + proc.stderr):
        m = re.match(r"(?:local)?rule (\w+):", block.strip())
        if not m:
            continue
        wc = re.search(r"wildcards:.*?paradigm=([\w]+)", block)
        out[(m.group(1), wc.group(1) if wc else "")] += 1
    return out
