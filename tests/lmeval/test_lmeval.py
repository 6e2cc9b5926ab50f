"""Opt-in: the exported benchmark scored by lm-evaluation-harness and by minicons agrees with rublimp.

Not run by the default suite (it needs lm-eval and minicons, installed in their own
virtualenv ``.venv-lmeval``): skipped unless ``RUBLIMP_TEST_LMEVAL=1``. ``make test-lmeval``
builds the demo benchmark of ``tests/lmeval/config.yaml`` (a few paradigms of the offline
demo, written to ``work/lmeval-demo``) with the main virtualenv, then runs::

    RUBLIMP_TEST_LMEVAL=1 .venv-lmeval/bin/python -m pytest -q -s tests/lmeval

* lm-eval runs offline from a temporary directory (not the repository root: the tasks find their
  data relative to their own folder), exactly as a user would:
  ``lm_eval --model hf --model_args pretrained=<demo LM> --include_path <outdir>/export/lm_eval
  --tasks <name>_generated``; the per-paradigm ``acc`` of each task ``<name>_<paradigm>`` must
  equal ``results/eval``'s ``accuracy_sum``.
  lm-eval scores a sentence after an empty context with the model's prefix token (BOS,
  else EOS), as rublimp's ``hf`` backend does.  The one difference: lm-eval's ``argmax``
  counts an exact tie as correct (the grammatical sentence is choice 0), rublimp counts it
  wrong, so lm-eval's accuracy must be ours plus ties/n; the per-pair log-probabilities are
  compared too.
* minicons' ``IncrementalLMScorer`` with ``bos_token=True`` (the README's recipe) must
  give the same per-pair decisions, hence the same accuracy.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

if os.environ.get("RUBLIMP_TEST_LMEVAL") != "1":
    pytest.skip("lm-eval/minicons test is opt-in: set RUBLIMP_TEST_LMEVAL=1 (make test-lmeval)",
                allow_module_level=True)
pytest.importorskip("lm_eval")
pq = pytest.importorskip("pyarrow.parquet")
yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[2]
OUTDIR = os.environ.get("RUBLIMP_LMEVAL_OUTDIR", "work/lmeval-demo")
MODEL = os.environ.get("RUBLIMP_LMEVAL_MODEL", "demo-gpt2")
MODEL_DIR = f"{OUTDIR}/models/{MODEL}"
LM_EVAL_DIR = f"{OUTDIR}/export/lm_eval"
HF_DIR = f"{OUTDIR}/export/hf"
#: per-pair log-probabilities may differ by float32 rounding (other batch shapes), no more
LOGPROB_TOL = 1e-3


def _env(tmp: Path) -> dict:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
        HF_DATASETS_CACHE=str(tmp / "datasets"), HF_HOME=str(tmp / "hf_home"), OMP_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
    )
    return env


def _read_parquet(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


@pytest.fixture(scope="module")
def ours() -> dict:
    """rublimp's evaluation of MODEL: results.csv rows and per-pair log-probabilities, by paradigm."""
    results = REPO / OUTDIR / "eval" / "results.csv"
    if not results.is_file():
        pytest.fail(f"{results} not found: build the demo benchmark first (make test-lmeval does)")
    with results.open(encoding="utf-8") as f:
        rows = {r["PID"]: r for r in csv.DictReader(f) if r["model"] == MODEL}
    assert rows, f"no results of model {MODEL!r} in {results}"
    pairs = {}
    for pid in rows:
        table = _read_parquet(REPO / OUTDIR / "eval" / "pairs" / MODEL / f"{pid}.parquet")
        pairs[pid] = {r["id"]: r for r in table}
    return {"results": rows, "pairs": pairs}


@pytest.fixture(scope="module")
def task_of() -> dict[str, str]:
    """Exported paradigm -> its lm-eval task (``<name>_<paradigm>``), from the task files."""
    task_files = sorted((REPO / LM_EVAL_DIR).glob("[!_]*.yaml"))
    assert task_files, f"no task files in {LM_EVAL_DIR}"
    out = {}
    for p in task_files:
        # lm-eval's `!function` tag: read as plain text here
        text = p.read_text(encoding="utf-8").replace("!function ", "")
        task = yaml.safe_load(text)
        out[task["dataset_kwargs"]["paradigm"]] = task["task"]
    return out


@pytest.fixture(scope="module")
def exported_paradigms(task_of) -> list[str]:
    return sorted(task_of)


@pytest.fixture(scope="module")
def group_name() -> str:
    groups = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in (REPO / LM_EVAL_DIR).glob("_*.yaml")]
    members = {m for g in groups for m in g["task"]}
    (top,) = [g["group"] for g in groups if g["group"] not in members]
    return top


@pytest.fixture(scope="module")
def lm_eval_run(tmp_path_factory, group_name) -> dict:
    """Run the lm_eval command line on the whole benchmark's group, from a directory other than the
    repository root (absolute paths to the tasks and the model: the tasks find their data themselves)."""
    tmp = tmp_path_factory.mktemp("lmeval")
    lm_eval = Path(sys.executable).with_name("lm_eval")
    cmd = [
        str(lm_eval), "--model", "hf", "--model_args", f"pretrained={REPO / MODEL_DIR},dtype=float32",
        "--include_path", str(REPO / LM_EVAL_DIR), "--tasks", group_name, "--device", "cpu", "--batch_size", "16",
        "--output_path", str(tmp / "out"), "--log_samples",
    ]
    proc = subprocess.run(cmd, cwd=tmp, env=_env(tmp), capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, f"lm_eval failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    (results_file,) = sorted((tmp / "out").rglob("results_*.json"))
    results = json.loads(results_file.read_text(encoding="utf-8"))
    samples = {}
    for f in (tmp / "out").rglob("samples_*.jsonl"):
        task = f.name[len("samples_"):].rsplit("_", 1)[0]
        samples[task] = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {"results": results["results"], "samples": samples, "cmd": " ".join(cmd)}


def test_task_and_group_names_are_not_bundled_with_lm_eval(task_of):
    """The exported tasks (``<name>_<paradigm>``) and groups (``<name>_generated…``) are none of the pinned
    lm-eval's own tasks, groups or tags, and the whole benchmark's group is not ``rublimp``, the group of
    lm-eval's proposed port of the published RuBLiMP."""
    from lm_eval.tasks import TaskManager

    groups = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in (REPO / LM_EVAL_DIR).glob("_*.yaml")]
    ours = set(task_of.values()) | {g["group"] for g in groups}
    bundled = set(TaskManager().all_tasks)
    assert len(bundled) > 1000 and "blimp" in bundled
    assert not ours & bundled, sorted(ours & bundled)
    assert "rublimp" not in ours


def _table(rows: list[tuple], title: str) -> str:
    head = ("paradigm", "n", title, "rublimp", "ties", "|Δ|")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for pid, n, theirs, mine, ties, delta in rows:
        lines.append(f"| {pid} | {n} | {theirs:.4f} | {mine:.4f} | {ties} | {delta:.4f} |")
    return "\n".join(lines)


def test_lm_eval_accuracy_equals_ours(lm_eval_run, ours, exported_paradigms, task_of, capsys):
    res = lm_eval_run["results"]
    rows, problems = [], []
    for pid in exported_paradigms:
        mine = ours["results"][pid]
        n, correct, ties = int(mine["n"]), int(mine["n_correct_sum"]), int(mine["n_ties_sum"])
        acc_ours = float(mine["accuracy_sum"])
        acc_lm = float(res[task_of[pid]]["acc,none"])
        assert len(lm_eval_run["samples"][task_of[pid]]) == n, pid
        # lm-eval's argmax credits a tie to choice 0, the grammatical sentence; rublimp does not
        if abs(acc_lm - (correct + ties) / n) > 1e-12:
            problems.append(f"{pid}: lm-eval acc {acc_lm} != ({correct} + {ties} ties) / {n}")
        rows.append((pid, n, acc_lm, acc_ours, ties, abs(acc_lm - acc_ours)))
    with capsys.disabled():
        print(f"\n\n{lm_eval_run['cmd']}\n\nlm-eval acc vs rublimp accuracy_sum ({MODEL}):\n")
        print(_table(rows, "lm-eval acc"))
    assert not problems, problems
    # the demo benchmark has no exact ties, so the accuracies are equal
    assert all(delta == 0 for *_, delta in rows), rows


def test_lm_eval_pairs_match_ours(lm_eval_run, ours, exported_paradigms, task_of):
    """Per pair: the same two log-probabilities (up to float32 rounding) and the same decision."""
    for pid in exported_paradigms:
        mine = ours["pairs"][pid]
        for s in lm_eval_run["samples"][task_of[pid]]:
            doc = s["doc"]
            # one (log-likelihood, is_greedy) per choice; the samples file stores them as strings
            (good, _), (bad, _) = s["filtered_resps"]
            good, bad = float(good), float(bad)
            row = mine[doc["id"]]
            assert abs(good - row["good_logprob"]) < LOGPROB_TOL, (pid, doc["id"], good, row["good_logprob"])
            assert abs(bad - row["bad_logprob"]) < LOGPROB_TOL, (pid, doc["id"], bad, row["bad_logprob"])
            assert bool(s["acc"]) == (bool(row["correct_sum"]) or bool(row["tie_sum"])), (pid, doc["id"])


def test_lm_eval_groups_are_macro_averages(lm_eval_run, ours, group_name):
    """A phenomenon group is the mean of its paradigms; the whole benchmark's group the mean of all
    paradigms (lm-eval aggregates a nested group over its leaf tasks), which is rublimp's overall score."""
    res = lm_eval_run["results"]
    groups = {g["group"]: g["task"] for g in
              (yaml.safe_load(p.read_text(encoding="utf-8")) for p in (REPO / LM_EVAL_DIR).glob("_*.yaml"))}
    for g, members in groups.items():
        if g == group_name:
            continue
        want = sum(float(res[m]["acc,none"]) for m in members) / len(members)
        assert float(res[g]["acc,none"]) == pytest.approx(want, abs=1e-12), g
    overall = sum(float(r["accuracy_sum"]) for r in ours["results"].values()) / len(ours["results"])
    assert float(res[group_name]["acc,none"]) == pytest.approx(overall, abs=1e-12)


def test_lm_eval_counts_an_exact_tie_as_correct(tmp_path, exported_paradigms):
    """The one documented difference, shown on lm-eval itself: a pair whose two sentences get the same
    log-probability (here: the same sentence twice) is correct for lm-eval (argmax picks choice 0),
    while rublimp's evaluation counts a tie as wrong (rublimp.evaluation.evaluate)."""
    import pyarrow as pa

    rows = pq.read_table(REPO / HF_DIR / "data" / exported_paradigms[0] / "test.parquet").slice(0, 2).to_pylist()
    rows[0]["target_sentence"] = rows[0]["source_sentence"]  # a tie
    rows[1]["source_sentence"], rows[1]["target_sentence"] = rows[1]["target_sentence"], rows[1]["source_sentence"]
    data = tmp_path / "tie.parquet"
    pq.write_table(pa.Table.from_pylist(rows), data)
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "_template_yaml").write_text((REPO / LM_EVAL_DIR / "_template_yaml").read_text(encoding="utf-8"))
    # the template names dataset_path: parquet; this task gives the file itself (no custom_dataset)
    (tasks / "tie_check.yaml").write_text(yaml.safe_dump(
        {"include": "_template_yaml", "task": "tie_check", "dataset_kwargs": {"data_files": {"test": str(data)}}}))
    cmd = [str(Path(sys.executable).with_name("lm_eval")), "--model", "hf", "--model_args",
           f"pretrained={MODEL_DIR},dtype=float32", "--include_path", str(tasks), "--tasks", "tie_check",
           "--device", "cpu", "--output_path", str(tmp_path / "out"), "--log_samples"]
    proc = subprocess.run(cmd, cwd=REPO, env=_env(tmp_path), capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-6000:]
    (samples,) = (tmp_path / "out").rglob("samples_tie_check_*.jsonl")
    by_doc = {json.loads(l)["doc_id"]: json.loads(l) for l in samples.read_text(encoding="utf-8").splitlines()}
    (g, _), (b, _) = by_doc[0]["filtered_resps"]
    assert float(g) == float(b) and by_doc[0]["acc"] == 1.0  # the tie: credited by lm-eval
    (g, _), (b, _) = by_doc[1]["filtered_resps"]
    assert by_doc[1]["acc"] == float(float(g) > float(b))  # a swapped pair: decided by the log-probs


def test_minicons_accuracy_equals_ours(ours, exported_paradigms, capsys):
    """The README's minicons recipe: IncrementalLMScorer, summed log-probs, bos_token=True."""
    scorer_mod = pytest.importorskip("minicons.scorer")
    lm = scorer_mod.IncrementalLMScorer(str(REPO / MODEL_DIR), device="cpu")
    if lm.tokenizer.bos_token is None:  # rublimp and lm-eval fall back to EOS; so must minicons
        lm.tokenizer.bos_token = lm.tokenizer.eos_token
    rows = []
    for pid in exported_paradigms:
        pairs = _read_parquet(REPO / HF_DIR / "data" / pid / "test.parquet")
        good = [p["source_sentence"] for p in pairs]
        bad = [p["target_sentence"] for p in pairs]
        lp_good, lp_bad = [], []
        for i in range(0, len(pairs), 16):
            lp_good += lm.sequence_score(good[i:i + 16], reduction=lambda x: x.sum(0).item(), bos_token=True)
            lp_bad += lm.sequence_score(bad[i:i + 16], reduction=lambda x: x.sum(0).item(), bos_token=True)
        mine = ours["pairs"][pid]
        for p, g, b in zip(pairs, lp_good, lp_bad):
            row = mine[p["id"]]
            assert abs(g - row["good_logprob"]) < LOGPROB_TOL, (pid, p["id"], g, row["good_logprob"])
            assert abs(b - row["bad_logprob"]) < LOGPROB_TOL, (pid, p["id"], b, row["bad_logprob"])
        acc_mc = sum(g > b for g, b in zip(lp_good, lp_bad)) / len(pairs)  # a tie is wrong, as in rublimp
        r = ours["results"][pid]
        rows.append((pid, len(pairs), acc_mc, float(r["accuracy_sum"]), int(r["n_ties_sum"]),
                     abs(acc_mc - float(r["accuracy_sum"]))))
    with capsys.disabled():
        print(f"\n\nminicons IncrementalLMScorer (bos_token=True) vs rublimp accuracy_sum ({MODEL}):\n")
        print(_table(rows, "minicons acc"))
    assert all(delta == 0 for *_, delta in rows), rows
