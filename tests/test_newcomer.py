"""The newcomer path of README.md "Getting started": `make setup` and its PyTorch choice, how to use
the environment, the small example config, and what to do after an interrupted run."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workflow_run import env_for, planned

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _make_n(*args: str) -> str:
    """The commands `make setup` would run (-n: print only; -B: as on a fresh checkout)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    proc = subprocess.run(["make", "-n", "-B", "setup", *args], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _torch_install(commands: str) -> str:
    lines = [l for l in commands.splitlines() if re.search(r"pip install .*torch==", l)]
    assert len(lines) == 1, commands
    return lines[0]


def test_make_setup_installs_pinned_torch_from_the_index_given():
    # default: pip's own index (here and on PyPI), the pinned version
    default = _torch_install(_make_n())
    assert default.split()[-1] == "torch==2.13.0" and "--index-url" not in default
    cpu = _torch_install(_make_n("TORCH_INDEX=https://download.pytorch.org/whl/cpu"))
    assert cpu.split()[-3:] == ["--index-url", "https://download.pytorch.org/whl/cpu", "torch==2.13.0"]
    other = _torch_install(_make_n("TORCH_SPEC=torch==2.12.0"))
    assert other.split()[-1] == "torch==2.12.0"


def test_readme_shows_setup_the_environment_the_torch_choice_and_rerun_incomplete():
    start = README.index("## Getting started")
    getting_started = README[start:README.index("\n## ", start + 1)]
    for needed in ("make setup", "source .venv/bin/activate", ".venv/bin/snakemake", ".venv/bin/python -m rublimp",
                   "TORCH_INDEX=https://download.pytorch.org/whl/cpu", "config/examples/small.yaml"):
        assert needed in getting_started, needed
    # the claim that `make run` always installs the CPU build is gone
    assert "installs the\nCPU build" not in README and "installs the CPU build" not in README
    interrupted = README[README.index("### If a run is interrupted"):]
    assert "IncompleteFilesException" in interrupted and "--rerun-incomplete" in interrupted
    # every config file the README runs exists
    for path in set(re.findall(r"--configfile ([^\s`]+)", README)):
        assert (REPO / path).is_file(), path


def test_small_example_config_plans_a_run(tmp_path):
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(tmp_path),
           "--profile", str(REPO / "profiles" / "local"), "--configfile", str(REPO / "config" / "examples" / "small.yaml"),
           "-n"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env_for(REPO), timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    jobs = planned(proc)
    assert {p for (rule, p) in jobs if rule == "perturb"} == {"tense_marker", "np_agreement_number",
                                                               "anaphor_agreement_number"}
    assert jobs[("train_demo_lm", "")] == 1 and jobs[("report", "")] == 1
    assert "results-small/eval/summary.md" in proc.stdout + proc.stderr
