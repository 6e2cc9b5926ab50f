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
