"""Exact invalidation: after a complete run, an edit makes `snakemake -n` plan exactly the jobs
that read what was edited (and what depends on their outputs), no more and no fewer.

The completed run is .test/config.yaml (tense_marker, np_agreement_number,
anaphor_agreement_number; one demo model) in a copy of the checkout, with every output in place and
every job's metadata recorded by `snakemake --touch` (tests/workflow_run.py; planning depends on
nothing else). Each test edits a file of the copy, dry-runs, and puts the file back byte for byte
with its old mtime.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from workflow_run import env_for, planned, snakemake, touched_checkout

pytestmark = pytest.mark.slow

TENSE, NP, ANAPHOR = "tense_marker", "np_agreement_number", "anaphor_agreement_number"
ALL = (TENSE, NP, ANAPHOR)
N_SHARDS = 2  # parse.shards of .test/config.yaml


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    return touched_checkout(tmp_path_factory.mktemp("invalidation") / "checkout")


def plan_after_edit(run_dir: Path, rel: str, *args: str) -> Counter:
    """Append a comment line to ``rel`` in the run's checkout, dry-run, restore the file."""
    path = run_dir / rel
    old = path.read_bytes()
    st = path.stat()
    try:
        comment = b"\n# an edit\n" if path.suffix in (".py", ".tsv", ".txt") else b"\n"
        path.write_bytes(old + comment)
        return planned(snakemake(run_dir, "-n", *args))
    finally:
        path.write_bytes(old)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def downstream(paradigms, *, pool=True, score_pool=True) -> Counter:
    """The jobs that follow a changed pool of each of ``paradigms``.

    A changed pool reruns the shard passes (one per shard, rules/perturb.smk), which recompute
    only the changed paradigms' partial pools and reuse the others' from the cache
    (tests/test_pools.py), and so every paradigm's `perturb` job (the cheap merge of its partial
    pools; unchanged paradigms write the same bytes).
    Scoring and evaluation are one job per model: a changed pool reruns the model's scoring job
    (which scores only the sentences its cache lacks), so every paradigm's curation, which reads its
    rows of the model's table, reruns too (to the same bytes where nothing changed for them).
    """
    out = Counter()
    if pool and paradigms:
        out[("perturb_shard", "")] += N_SHARDS
        for p in ALL:
            out[("perturb", p)] += 1
    if score_pool:
        out[("context_check", "")] += 1  # the model's list of pool pairs too long for it
        out[("score_pools", "")] += 1
    for p in (ALL if score_pool else paradigms):
        out[("curate", p)] += 1
    out[("score_benchmark", "")] += 1
    out[("evaluate", "")] += 1
    # the stages over every paradigm's benchmark (and pool): export, human validation,
    # metalinguistic prompting and acceptability, each with what follows it
    for job in ("report", "export", "validation_export", "validation_simulate", "validation_import",
                "validation_report", "metalinguistic", "metalinguistic_summary", "metalinguistic_section", "acceptability",
                "acceptability_section", "all"):
        out[(job, "")] += 1
    return out


def test_nothing_planned_after_the_run(run_dir):
    assert planned(snakemake(run_dir, "-n")) == Counter()


def test_shared_paradigm_code_base_py_reruns_every_perturb_job(run_dir):
    assert plan_after_edit(run_dir, "src/rublimp/paradigms/base.py") == downstream(ALL)


def test_a_tree_layer_module_reruns_the_paradigms_that_import_it(run_dir):
    # np_agreement.py and anaphor_agreement.py share the nominal morphology of trees/nominal.py; agreement
    # validation reads the normalised trees (trees/normalise.py), whose modifier fix reads it too
    want = downstream([NP, ANAPHOR]) + Counter({("validate_agreement", ""): 1})
    assert plan_after_edit(run_dir, "src/rublimp/trees/nominal.py") == want


def test_a_paradigm_module_reruns_only_its_own_paradigms(run_dir):
    # no paradigm module imports another
    assert plan_after_edit(run_dir, "src/rublimp/paradigms/np_agreement.py") == downstream([NP])


def test_the_pool_merge_module_reruns_the_merges_but_no_shard_pass(run_dir):
    # rublimp.pool_merge is the merges' code only: the partial pools' cache keys do not read it,
    # so the shard passes (the costly per-shard work) are not planned
    want = downstream(ALL) - Counter({("perturb_shard", ""): N_SHARDS})
    assert plan_after_edit(run_dir, "src/rublimp/pool_merge.py") == want


def test_morph_py_reruns_every_job_that_analyses_words(run_dir):
    # the corpus filters (rublimp.corpus.segment) analyse words with it too, so everything reruns
    want = downstream(ALL) + Counter({("corpus", ""): 1, ("parse", ""): 2, ("validate_agreement", ""): 1,
                                      ("train_demo_lm", ""): 1, ("demo_lm_check", ""): 1, ("unigram_counts", ""): 1})
    assert plan_after_edit(run_dir, "src/rublimp/morph.py") == want


def test_a_word_list_reruns_the_paradigms_that_declare_it(run_dir):
    assert plan_after_edit(run_dir, "resources/temporal_markers.tsv") == downstream([TENSE])
    assert plan_after_edit(run_dir, "resources/common_gender_nouns.tsv") == downstream([NP, ANAPHOR])
    # read by no configured paradigm
    assert plan_after_edit(run_dir, "resources/aspect_pairs.tsv") == Counter()


def test_a_list_of_the_normalisation_pass_reruns_every_paradigm_and_validation(run_dir):
    # every paradigm and agreement validation read the normalised tree, whose roles fix reads it
    want = downstream(ALL) + Counter({("validate_agreement", ""): 1})
    assert plan_after_edit(run_dir, "resources/control_verbs.tsv") == want


def test_scoring_hf_py_reruns_scoring_and_the_demo_check(run_dir):
    # the acceptability stage reads the tokenizer through scoring/hf.py, so the unigram counts rerun too
    want = downstream(ALL, pool=False) + Counter({("demo_lm_check", ""): 1, ("unigram_counts", ""): 1})
    assert plan_after_edit(run_dir, "src/rublimp/scoring/hf.py") == want
    # another backend's module is not run by the hf model's jobs
    assert plan_after_edit(run_dir, "src/rublimp/scoring/vllm.py") == Counter()


def test_curation_py_reruns_curation_and_what_follows(run_dir):
    # the acceptability module imports rublimp.report (its section), which imports curation.py
    want = downstream(ALL, pool=False, score_pool=False) + Counter({("unigram_counts", ""): 1})
    assert plan_after_edit(run_dir, "src/rublimp/curation.py") == want


def _with_options(run_dir: Path, tmp_path: Path, **options) -> str:
    cfg = yaml.safe_load((run_dir / ".test" / "config.yaml").read_text(encoding="utf-8"))
    cfg["perturb"]["options"].update(options)
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    return str(path)


def test_one_paradigm_option_reruns_the_paradigms_that_read_it(run_dir, tmp_path):
    markers = tmp_path / "markers.tsv"
    markers.write_bytes((run_dir / "resources" / "temporal_markers.tsv").read_bytes())
    cfg = _with_options(run_dir, tmp_path, temporal_markers=str(markers))
    assert planned(snakemake(run_dir, "-n", "--configfile", cfg)) == downstream([TENSE])
    # an option only the (unconfigured) subject-predicate paradigms read: nothing to do
    cfg = _with_options(run_dir, tmp_path, agreement_min_conf=0.5)
    assert planned(snakemake(run_dir, "-n", "--configfile", cfg)) == Counter()


def test_an_unknown_option_is_an_error_naming_it(run_dir, tmp_path):
    cfg = _with_options(run_dir, tmp_path, temporal_marker="x.tsv")
    proc = snakemake(run_dir, "-n", "--configfile", cfg, check=False)
    assert proc.returncode != 0
    assert "config key perturb.options.temporal_marker: unknown key" in proc.stdout + proc.stderr


# -- the shard passes' cache: an edit changes the cache keys of exactly the paradigms that read it --
#: (edited file, the paradigms whose keys it must change)
KEY_CASES = [
    ("src/rublimp/paradigms/base.py", set(ALL)),
    ("src/rublimp/paradigms/np_agreement.py", {NP}),
    # every paradigm reads the normalised tree (trees/normalise.py), whose modifier fix imports trees/nominal.py
    ("src/rublimp/trees/nominal.py", set(ALL)),
    ("src/rublimp/paradigms/tense.py", {TENSE}),
    ("src/rublimp/morph.py", set(ALL)),
    ("src/rublimp/pools.py", set(ALL)),
    ("resources/temporal_markers.tsv", {TENSE}),
    ("resources/common_gender_nouns.tsv", {NP, ANAPHOR}),
    ("resources/aspect_pairs.tsv", set()),
    # the normalisation pass's list (trees/normalise.RESOURCES): every paradigm reads the normalised tree
    ("resources/control_verbs.tsv", set(ALL)),
    ("src/rublimp/curation.py", set()),
    ("src/rublimp/scoring/hf.py", set()),
]

# One process for every case (each process costs a second or two of imports): for each file, the
# keys before the edit, after appending a line, and after putting the file back byte for byte with
# its old mtime. Digests are memoised by path, size and mtime (rublimp.pools.file_digest) and the
# import graph by mtime, so an edit is seen within the process as in a fresh one.
KEYS = """
import json, os, sys, yaml
from rublimp.pools import ParadigmInputs, partial_key
from rublimp.workflow import WorkflowConfig

def keys():
    wf = WorkflowConfig(yaml.safe_load(open(sys.argv[1], encoding="utf-8")), basedir=".", check_models=False)
    return {p: partial_key(ParadigmInputs.from_mapping(p, wf.paradigm_inputs(p)), shard=sys.argv[2],
                           verdicts=None, seed=0, pairs_per_sentence=1, pool_cap=1) for p in wf.paradigms}

out = {}
for rel in sys.argv[3:]:
    old, st = open(rel, "rb").read(), os.stat(rel)
    before = keys()
    try:
        with open(rel, "wb") as fh:
            fh.write(old + (b"\\n# an edit\\n" if rel.endswith((".py", ".tsv", ".txt")) else b"\\n"))
        after = keys()
    finally:
        with open(rel, "wb") as fh:
            fh.write(old)
        os.utime(rel, ns=(st.st_atime_ns, st.st_mtime_ns))
    out[rel] = {"before": before, "after": after, "restored": keys()}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def key_edits(run_dir: Path) -> dict[str, dict]:
    """``{file: {"before", "after", "restored"}}``: every paradigm's cache key around an edit of each file."""
    proc = subprocess.run([sys.executable, "-c", KEYS, ".test/config.yaml", "results/parsed/shard_0.conllu",
                           *[rel for rel, _ in KEY_CASES]],
                          cwd=run_dir, env=env_for(run_dir), capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("rel,changed", KEY_CASES)
def test_an_edit_changes_the_cache_keys_of_exactly_the_paradigms_that_read_it(key_edits, rel, changed):
    keys = key_edits[rel]
    assert keys["restored"] == keys["before"]
    assert set(keys["before"]) == set(ALL)
    assert {p for p in keys["before"] if keys["before"][p] != keys["after"][p]} == changed
