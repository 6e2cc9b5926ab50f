"""Snakemake runs at most ``--cores`` one-thread jobs at once, also after rounds that start a single job
(rublimp.snakemake_compat guards a scheduler flaw of Snakemake 9.15)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

SNAKEFILE = """
import sys
sys.path.insert(0, {src!r})
if {guard}:
    from rublimp.snakemake_compat import guard_scheduler
    guard_scheduler()

rule all:
    input: expand("out/{{i}}.txt", i=range(6))

# two rounds that start one job each (the rounds that leaked a core), then six ready jobs
rule first:
    output: "first.txt"
    shell: "touch {{output}}"

rule second:
    input: "first.txt"
    output: "second.txt"
    shell: "touch {{output}}"

rule job:
    input: "second.txt"
    output: "out/{{i}}.txt"
    shell: "date +%s.%N > {{output}}; sleep 2; date +%s.%N >> {{output}}"
"""


def _most_at_once(workdir: Path, *, guard: bool) -> int:
    workdir.mkdir()
    (workdir / "Snakefile").write_text(textwrap.dedent(SNAKEFILE.format(src=str(SRC), guard=guard)))
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2", "--quiet", "all"], cwd=workdir,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    spans = [tuple(map(float, p.read_text().split())) for p in sorted((workdir / "out").glob("*.txt"))]
    assert len(spans) == 6
    # the most jobs running at one job's start
    return max(sum(1 for s, e in spans if s <= start < e) for start, _ in spans)


def test_snakemake_runs_at_most_cores_jobs_at_once(tmp_path):
    from snakemake.scheduling.job_scheduler import JobScheduler

    from rublimp.snakemake_compat import has_single_job_leak

    assert _most_at_once(tmp_path / "guarded", guard=True) <= 2
    if has_single_job_leak(JobScheduler):  # the installed Snakemake has the flaw: unguarded, it shows
        assert _most_at_once(tmp_path / "unguarded", guard=False) > 2
    else:
        pytest.skip("the installed Snakemake books one-job rounds itself")


def test_the_guard_recognises_the_flawed_branch_only():
    from rublimp.snakemake_compat import has_single_job_leak

    class Flawed:
        def job_selector(self, jobs):
            def run_selector(job_selector):
                if len(jobs) == 1:
                    return self.job_selector_greedy(jobs)
                selected = job_selector(jobs)
                self.update_available_resources(selected)
                return selected

            return run_selector(None)

    class Fixed:
        def job_selector(self, jobs):
            selected = self.job_selector_greedy(jobs)
            self.update_available_resources(selected)
            return selected

    assert has_single_job_leak(Flawed) and not has_single_job_leak(Fixed)
