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
    assert Path(wf.paradigm_source("noun_subj_predicate_agreement_number")).name == "agreement.py"


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
