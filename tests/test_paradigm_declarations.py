"""Every paradigm declares what it reads: the resource files it opens and the options it looks up.

The workflow makes exactly those files inputs, and exactly those options parameters, of the
paradigm's perturb job (rublimp.workflow), so an undeclared read would be a stale result after
an edit. Here every paradigm runs over the demo corpus with its resources behind a fresh
directory of links (so no cached table hides a read) while an audit hook records every file
opened, and with an options mapping that records every key asked for.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from rublimp.paradigms import REGISTRY, ParadigmContext
from rublimp.paradigms.base import RESOURCES_DIR
from rublimp.trees.normalise import RESOURCES as NORMALISE_RESOURCES

REPO = Path(__file__).resolve().parents[1]

_ACTIVE: dict[str, set[str]] = {}  # "dirs": watched directories -> files opened under them


def _audit(event: str, args: tuple) -> None:
    if event != "open" or not _ACTIVE:
        return
    path = args[0]
    if isinstance(path, (str, bytes, os.PathLike)):
        p = os.path.abspath(os.fsdecode(path))
        for d, seen in _ACTIVE.items():
            if p.startswith(d + os.sep):
                seen.add(os.path.relpath(p, d))


sys.addaudithook(_audit)


class RecordingOptions(dict):
    """An empty options mapping (every paradigm keeps its defaults) that records what was asked."""

    def __init__(self):
        super().__init__()
        self.asked: set[str] = set()

    def get(self, key, default=None):
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.asked.add(key)
        return super().__contains__(key)


def _bundled() -> list[Path]:
    return sorted(p for p in RESOURCES_DIR.iterdir() if p.is_file())


@pytest.fixture(scope="module")
def reads(demo_sentences, tmp_path_factory):
    """paradigm -> (resource files opened, option keys asked for) over the demo corpus."""
    out = {}
    for name in sorted(REGISTRY):
        links = tmp_path_factory.mktemp(f"res_{name}")
        for p in _bundled():
            (links / p.name).symlink_to(p)
        opts = RecordingOptions()
        opened: set[str] = set()
        direct: set[str] = set()
        _ACTIVE[str(links)] = opened
        _ACTIVE[str(RESOURCES_DIR)] = direct  # a read that bypasses ctx.resources_dir
        try:
            paradigm = REGISTRY[name](ParadigmContext(resources_dir=links, options=opts))
            for sent in demo_sentences:
                for _ in paradigm.pairs(sent):
                    pass
        finally:
            _ACTIVE.clear()
        out[name] = (opened | {d for d in direct if "/" not in d}, opts.asked)
    return out


def test_every_resource_a_paradigm_opens_is_declared(reads):
    # what the workflow makes inputs of its perturb job: the class's resources and the normalisation pass's
    missing = {n: sorted(opened - set(REGISTRY[n].read_resources())) for n, (opened, _) in reads.items()}
    missing = {n: m for n, m in missing.items() if m}
    assert not missing, f"undeclared resources (add them to the class's `resources`): {missing}"
    # the normalisation pass reads its lists from the paradigm's resource folder: every paradigm opens them
    assert all(set(NORMALISE_RESOURCES) <= opened for opened, _ in reads.values())
    # the hook really sees the reads: most paradigms read some list
    assert sum(bool(opened) for opened, _ in reads.values()) >= 30


def test_every_option_a_paradigm_reads_is_declared(reads):
    missing = {n: sorted(asked - set(REGISTRY[n].options)) for n, (_, asked) in reads.items()}
    missing = {n: m for n, m in missing.items() if m}
    assert not missing, f"undeclared options (add them to the class's `options`): {missing}"
    assert reads["tense_marker"][1] == {"temporal_markers"}


def test_declared_resources_exist_and_declared_options_are_in_the_schema():
    schema = yaml.safe_load((REPO / "config" / "schema.yaml").read_text(encoding="utf-8"))
    known = set(schema["properties"]["perturb"]["properties"]["options"]["properties"])
    declared_options: set[str] = set()
    for name, cls in REGISTRY.items():
        for r in cls.resources:
            assert (RESOURCES_DIR / r).is_file(), (name, r)
        assert isinstance(cls.resources, tuple) and isinstance(cls.options, tuple), name
        declared_options |= set(cls.options)
    # every schema option is read by some paradigm, and every read option is validated by the schema
    assert declared_options == known


def test_the_normalisation_pass_resources_are_inputs_of_every_consumer():
    """An edit of a list the normalisation pass reads reruns every perturb job, the perturb shard pass
    (whose cache keys hold each paradigm's resources) and agreement validation."""
    from rublimp.workflow import WorkflowConfig

    assert NORMALISE_RESOURCES, "the pass reads word lists (trees/normalise.RESOURCES)"
    wanted = {str(RESOURCES_DIR / r) for r in NORMALISE_RESOURCES}
    for r in NORMALISE_RESOURCES:
        assert (RESOURCES_DIR / r).is_file(), r
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    wf = WorkflowConfig(cfg, basedir=str(REPO), check_models=False)
    for name in REGISTRY:
        assert wanted <= set(wf.paradigm_resources(name)), name
        assert wanted <= set(wf.paradigm_inputs(name)["resources"]), name  # the perturb cache key's files
    assert set(wf.normalise_resources()) == wanted
    # the rules: validate_agreement names them; the shard pass and perturb jobs take each paradigm's resources
    agreement = (REPO / "rules" / "agreement.smk").read_text(encoding="utf-8")
    assert "word_lists=WF.normalise_resources()" in agreement
    perturb = (REPO / "rules" / "perturb.smk").read_text(encoding="utf-8")
    assert 'word_lists=all_paradigm_files("resources")' in perturb and "word_lists=paradigm_resources" in perturb
