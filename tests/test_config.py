"""The config schema and the workflow's view of a config."""

from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

from rublimp.io import InputError
from rublimp.workflow import WorkflowConfig

REPO = Path(__file__).resolve().parents[1]
SCHEMA = str(REPO / "config" / "schema.yaml")


def _merge(base: dict, over: dict) -> dict:
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            _merge(base[k], v)
        else:
            base[k] = v
    return base


def load_default() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "example",
    sorted((REPO / "config" / "examples").glob("*.yaml")) + sorted((REPO / "config" / "models").glob("*.yaml")),
    ids=lambda p: p.name,
)
def test_examples_validate(example):
    cfg = _merge(load_default(), yaml.safe_load(example.read_text(encoding="utf-8")))
    validate(cfg, SCHEMA)


def test_default_config_resolves():
    cfg = load_default()
    validate(cfg, SCHEMA)
    wf = WorkflowConfig(cfg, basedir=REPO)
    assert wf.demo_models == ["demo-gpt2"]
    assert len(wf.paradigms) >= 11
    assert Path(wf.paradigm_source("noun_subj_predicate_agreement_number")).name == "subject_agreement.py"


def test_schema_rejects_unknown_key():
    cfg = load_default()
    cfg["curation"]["nn"] = 5
    with pytest.raises(Exception, match="nn"):
        validate(cfg, SCHEMA)


def test_curation_k_must_be_scored():
    cfg = load_default()
    cfg["curation"]["k"] = 20
    with pytest.raises(InputError, match="curation.k"):
        WorkflowConfig(cfg, basedir=REPO)


def test_model_without_path_is_named():
    cfg = load_default()
    cfg["models"].append({"name": "x", "backend": "hf"})
    with pytest.raises(InputError, match=r"models\[1\]"):
        WorkflowConfig(cfg, basedir=REPO)


def _dry_run(tmp_path, cfg: dict):
    import os
    import subprocess
    import sys

    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "-d", str(tmp_path / "work"), "-n",
         "--configfile", str(config)],
        capture_output=True, text=True, env=env, timeout=300,
    )


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c.update(bogus_key=1), "config key bogus_key: unknown key; known keys here: acceptability, "),
        (lambda c: c["scoring"].update(thread=2), "config key scoring.thread: unknown key; known keys here: "),
        (lambda c: c["models"][0].update(devce="cpu"), "config key models[0].devce: unknown key"),
        (lambda c: c["scoring"].update(batch_tokens=-5), "config key scoring.batch_tokens: -5 is less than the minimum of 1"),
        (lambda c: c["perturb"].update(paradigms=["tense_marker", "np_agreement_number", "tense_marker"]),
         "config key perturb.paradigms[2]: paradigm 'tense_marker' is listed twice (also perturb.paradigms[0])"),
    ],
    ids=["unknown-top-level", "unknown-nested", "unknown-in-list", "bad-value", "duplicated-paradigm"],
)
def test_config_error_names_the_key_in_one_line_without_the_schema(tmp_path, edit, message):
    cfg = yaml.safe_load((REPO / ".test" / "config.yaml").read_text(encoding="utf-8"))
    edit(cfg)
    proc = _dry_run(tmp_path, cfg)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert message in out, out[-3000:]
    # the message and Snakemake's own two lines of where: no schema dump, no traceback
    assert len(out.splitlines()) <= 6 and "Failed validating" not in out and "$schema" not in out, out[-3000:]
    # the same one line from the package's own validation
    with pytest.raises(InputError) as err:
        WorkflowConfig(_merge(load_default(), cfg), basedir=REPO, check_models=False)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_option_defaults_are_the_schemas():
    """Every perturb option's default lives in paradigms.base.OPTION_DEFAULTS and the schema states
    the same value (``x-default``); no paradigm reads an option with another literal default."""
    import ast

    from rublimp.paradigms.base import OPTION_DEFAULTS

    schema = yaml.safe_load(Path(SCHEMA).read_text(encoding="utf-8"))
    options = schema["properties"]["perturb"]["properties"]["options"]["properties"]
    assert {k: v.get("x-default", "<none>") for k, v in options.items()} == OPTION_DEFAULTS
    assert not any("default" in v for v in options.values())  # a filled default would reach every job's params
    mismatched = []
    for path in sorted((REPO / "src" / "rublimp" / "paradigms").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "options"):
                continue
            key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            if key is None or len(node.args) < 2:
                continue  # a named key is checked by value at run time; no default means None
            default = node.args[1]
            if isinstance(default, ast.Constant) and default.value != OPTION_DEFAULTS[key]:
                mismatched.append(f"{path.name}:{node.lineno}: {key} defaults to {default.value!r}")
    assert not mismatched, mismatched
