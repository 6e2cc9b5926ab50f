"""Snakemake hygiene: `snakemake --lint` is clean, and config defaults live only in the schema."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def test_snakemake_lint_is_clean():
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--lint", "--snakefile", str(REPO / "Snakefile"),
         "--configfile", str(REPO / ".test" / "config.yaml")],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "Congratulations, your workflow is in a good condition!" in out, out[-4000:]


def test_rules_take_config_defaults_from_the_schema_only():
    # `config.get(key, default)` in a rule file would define a default a second time
    for smk in [REPO / "Snakefile", *sorted((REPO / "rules").glob("*.smk"))]:
        text = smk.read_text(encoding="utf-8")
        assert not re.search(r"config(\[[^\]]+\])*\.get\(", text), smk.name


def test_the_test_config_validates_and_is_small():
    from rublimp.workflow import WorkflowConfig

    cfg = yaml.safe_load((REPO / ".test" / "config.yaml").read_text(encoding="utf-8"))
    wf = WorkflowConfig(cfg, basedir=REPO)
    assert len(wf.paradigms) <= 3 and wf.n_shards <= 2 and wf.demo_models == ["demo-gpt2"]
    # the schema filled in what the file leaves out
    assert wf.config["perturb"]["pool_cap"] == 350000 and wf.config["evaluation"]["alpha"] == 0.05


def _rule_blocks():
    for smk in sorted((REPO / "rules").glob("*.smk")):
        text = smk.read_text(encoding="utf-8")
        for m in re.finditer(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", text, flags=re.M | re.S):
            yield smk.name, m.group(1), m.group(2)


def test_every_rule_declares_its_code_and_a_log():
    # the conventions of the workflow: a `code` input from the import graph (exact invalidation)
    # and a log file that the rule script writes through rublimp.runtime.rule_log
    blocks = list(_rule_blocks())
    assert len(blocks) >= 20
    for name, rule, body in blocks:
        assert re.search(r"^\s+code=", body, flags=re.M), f"{name}: rule {rule} has no code= input"
        assert re.search(r"^\s+log:", body, flags=re.M), f"{name}: rule {rule} has no log"


def test_every_rule_script_runs_inside_rule_log():
    for script in sorted((REPO / "scripts").glob("*.py")):
        text = script.read_text(encoding="utf-8")
        assert re.search(r"^with rule_log\(snakemake", text, flags=re.M), script.name
