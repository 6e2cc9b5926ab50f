"""The export stage: a Hugging Face dataset folder that `datasets` loads offline, lm-eval task files,
clear errors for empty input, and no half-written folders."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import yaml

from rublimp.export import RUBLIMP_COLUMNS, BuildInfo, export_benchmark, export_folder, size_category
from rublimp.io import InputError
from rublimp.perturb import POOL_SCHEMA

REPO = Path(__file__).resolve().parents[1]

# (paradigm, phenomenon, level, [(grammatical, ungrammatical, source_word, target_word)])
PARADIGMS = {
    "np_agreement_number": ("noun_phrase_agreement", "Syntax", [
        ("Старый дом стоит на холме.", "Старые дом стоит на холме.", "Старый", "Старые"),
        ("Мы купили новую лампу.", "Мы купили новые лампу.", "новую", "новые"),
        ("Тёплый ветер дул с моря.", "Тёплые ветер дул с моря.", "Тёплый", "Тёплые"),
    ]),
    "np_agreement_case": ("noun_phrase_agreement", "Syntax", [
        ("Он читал интересную книгу.", "Он читал интересной книгу.", "интересную", "интересной"),
        ("Дети гуляли в большом парке.", "Дети гуляли в большого парке.", "большом", "большого"),
    ]),
    "verb_acc_object": ("government", "Syntax", [
        ("Мама варит суп.", "Мама варит супа.", "суп", "супа"),
    ]),
}


def _benchmark(paradigm: str) -> pl.DataFrame:
    phen, level, rows = PARADIGMS[paradigm]
    records = []
    for i, (good, bad, sw, tw) in enumerate(rows):
        records.append({
            "id": f"{paradigm}_{i:03d}", "source_sentence": good, "target_sentence": bad, "source_word": sw,
            "target_word": tw, "level": level, "phenomenon": phen, "PID": paradigm, "subtype": "",
            "domain": "news", "tree_depth": 3, "sent_id": f"demo:{i}", "feature": "Number",
            "source_value": "Sing", "target_value": "Plur", "n_tokens": len(good.split()), "ipm": 12.5,
        })
    df = pl.DataFrame(records, schema=POOL_SCHEMA)
    return df.with_columns(pl.lit(-9.5).alias("mink_max"), pl.lit("[6,10)").alias("length_bin"))


def _write_inputs(root: Path, paradigms=tuple(PARADIGMS), empty=()) -> tuple[dict, dict]:
    bench, cur = {}, {}
    (root / "benchmark").mkdir(parents=True, exist_ok=True)
    (root / "curation").mkdir(parents=True, exist_ok=True)
    for p in paradigms:
        df = _benchmark(p)
        if p in empty:
            df = df.clear()
        bench[p] = root / "benchmark" / f"{p}.parquet"
        df.write_parquet(bench[p])
        cur[p] = root / "curation" / f"{p}.json"
        # the thresholds the curation chose: one above the config's t_max of INFO (-8.0), under the
        # t_max the curation reports record (-7.0): the card must state the curation's facts
        threshold = -7.5 if p == "verb_acc_object" else -8.5
        entry = {"paradigm": p, "threshold": threshold, "pool": 40, "message": "pool too small" if p in empty else ""}
        report = {"k": 30, "n": 1000, "seed": 7, "grid_step": 0.05, "t_max": -7.0, "paradigms": [entry]}
        cur[p].write_text(json.dumps(report), encoding="utf-8")
    return bench, cur


INFO = BuildInfo(
    name="rublimp", pretty_name="test set", license="cc-by-4.0", seed=7, parser="slovnet",
    sources=[{"name": "demo", "type": "demo"}],
    decontamination_models=[{"name": "demo-gpt2", "backend": "hf", "path": "the demo LM trained by the pipeline"}],
    curation={"k": 30, "n": 1000, "grid_step": 0.05, "t_max": -8.0},
    generation={"min_tokens": 6, "max_tokens": 50, "pool_cap": 350_000, "pairs_per_sentence": 1},
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    bench, cur = _write_inputs(root)
    res = _export_in(root, bench, cur)
    return root, bench, res


def _export_in(root: Path, bench: dict, cur: dict):
    """Export to out/hf and out/lm_eval, named relative to ``root`` as the pipeline names them."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        res = export_benchmark(bench, Path("out/hf"), Path("out/lm_eval"), info=INFO, curation=cur)
    finally:
        os.chdir(cwd)
    res.hf_dir, res.lm_eval_dir = root / res.hf_dir, root / res.lm_eval_dir
    return res


def _card_yaml(hf: Path) -> dict:
    text = (hf / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n", 2)[1])


def test_load_dataset_offline_every_config(exported, monkeypatch, tmp_path, caplog):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    root, bench, res = exported
    hf = str(res.hf_dir)
    assert sorted(datasets.get_dataset_config_names(hf)) == sorted(["all", *PARADIGMS])
    total = 0
    for p, path in bench.items():
        want = pl.read_parquet(path)
        ds = datasets.load_dataset(hf, p, split="test", cache_dir=str(tmp_path / "cache"))
        assert ds.num_rows == want.height
        assert ds.column_names[: len(RUBLIMP_COLUMNS)] == list(RUBLIMP_COLUMNS)
        assert sorted(ds.column_names) == sorted(want.columns)
        got = pl.from_arrow(ds.data.table).select(want.columns).sort("id")
        assert got.equals(want.sort("id"))
        total += want.height
    everything = datasets.load_dataset(hf, split="test", cache_dir=str(tmp_path / "cache"))  # the default config
    assert everything.num_rows == total
    # the card's dataset_info is complete: datasets uses it instead of ignoring part of it
    assert "malformed" not in caplog.text


def test_card(exported):
    _, bench, res = exported
    meta = _card_yaml(res.hf_dir)
    assert meta["license"] == "cc-by-4.0" and meta["language"] == ["ru"]
    assert meta["size_categories"] == ["n<1K"]
    names = [c["config_name"] for c in meta["configs"]]
    assert names == ["all", *sorted(PARADIGMS)]
    for c in meta["configs"][1:]:
        (path,) = [d["path"] for d in c["data_files"]]
        assert (res.hf_dir / path).is_file()
    info = {d["config_name"]: d for d in meta["dataset_info"]}
    (split,) = info["np_agreement_case"]["splits"]
    assert split["name"] == "test" and split["num_examples"] == 2 and split["num_bytes"] > 0
    assert info["np_agreement_case"]["download_size"] == (res.hf_dir / "data/np_agreement_case/test.parquet").stat().st_size
    assert info["all"]["dataset_size"] == sum(info[p]["dataset_size"] for p in PARADIGMS)
    assert [f["name"] for f in info["verb_acc_object"]["features"]][:11] == list(RUBLIMP_COLUMNS)
    assert {"name": "tree_depth", "dtype": "int64"} in info["all"]["features"]
    body = (res.hf_dir / "README.md").read_text(encoding="utf-8")
    for fact in ("slovnet", "demo-gpt2", "K = 30%", "Seed:** 7", "-8.50", "| Syntax | government | 1 | 1 |",
                 "| Syntax | noun_phrase_agreement | 2 | 5 |", "acc_norm", "characters"):
        assert fact in body, fact


def test_card_is_complete(exported):
    """Defect 5 (issue 19): citations, limitations, sources with licences, generation settings, validation
    status, and the thresholds the curation chose (never the config's t_max beside thresholds above it)."""
    _, _, res = exported
    body = (res.hf_dir / "README.md").read_text(encoding="utf-8")
    for fact in ("## Citation", "taktasheva-etal-2024-rublimp", "Empirical Methods in Natural Language Processing",
                 "jumelet-etal-2025-multiblimp", "MultiBLiMP", "## Limitations", "## Validation",
                 "Human validation:** none recorded", "licence CC0", "sentences of 6–50 tokens",
                 "pools capped at 350,000 pairs", "thresholds chosen: t from -8.50 to -7.50 over 3 paradigms",
                 "bounded by t_max = -7.0", "differs from the curation reports in `t_max`"):
        assert fact in body, fact
    assert "t_max = -8.0" not in body  # the config's bound, which the curation did not use
    assert "not decontaminated" not in body.lower() and res.decontaminated


def test_card_reports_validation_and_a_failed_detection_check(tmp_path, caplog):
    """Defect 5 (issue 19): validation figures when present; a failed demo-LM check or a curation report
    saying so puts a 'not decontaminated' banner on the card and a warning in the log."""
    bench, cur = _write_inputs(tmp_path)
    data = json.loads(cur["np_agreement_case"].read_text(encoding="utf-8"))
    data["decontaminated"] = False
    data["decontamination_reason"] = "the demo-LM detection check failed"
    cur["np_agreement_case"].write_text(json.dumps(data), encoding="utf-8")
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"pairs": 40, "valid": 34, "validity_ci": [0.71, 0.93], "workers": 3,
                                   "flagged_workers": ["w3"], "krippendorff_alpha": 0.512, "drop": 6,
                                   "simulated": False}), encoding="utf-8")
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text("feature,pred_type,subject_value,order,verdict\nNumber,VERB,Sing,SV,certain\n"
                        "Number,VERB,Plur,SV,certain\nGender,ADJ,Fem,VS,absent\n", encoding="utf-8")
    check = tmp_path / "demo_lm_check.json"
    check.write_text(json.dumps({"models": {"demo-gpt2": {"auroc": {"mink_30": 0.43}, "detection_works": False}}}),
                     encoding="utf-8")
    with caplog.at_level("WARNING", logger="rublimp"):
        res = export_benchmark(bench, tmp_path / "hf", tmp_path / "lm", info=INFO, curation=cur,
                               validation=summary, agreement=verdicts, demo_check=check)
    body = (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    assert not res.decontaminated
    banner = body.split("\n# test set\n", 1)[1].lstrip().split("\n", 1)[0]
    assert banner.startswith("> **Warning: this benchmark is not decontaminated.**")
    assert "the demo-LM detection check failed" in banner and "AUROC mink_30 0.43" in banner
    assert "not-decontaminated" in _card_yaml(tmp_path / "hf")["tags"]
    assert "NOT decontaminated" in caplog.text
    for fact in ("34 of 40 annotated pairs judged valid (85.0%, 95% CI 71.0–93.0%)", "3 annotator(s), 1 flagged",
                 "Krippendorff's α = 0.512", "6 pair(s) judged invalid", "1 absent, 2 certain",
                 "detection of `demo-gpt2`'s training sentences does NOT work (AUROC 0.43 for mink_30)"):
        assert fact in body, fact


def test_size_category():
    assert [size_category(n) for n in (0, 999, 1000, 45_000, 999_999, 10**6)] == [
        "n<1K", "n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M"]


def test_lm_eval_tasks(exported):
    root, bench, res = exported
    lm = res.lm_eval_dir
    template = yaml.safe_load((lm / "_template_yaml").read_text(encoding="utf-8"))
    assert template["output_type"] == "multiple_choice"
    assert template["doc_to_text"] == "" and template["target_delimiter"] == ""
    assert template["doc_to_target"] == 0
    assert template["doc_to_choice"] == "{{[source_sentence, target_sentence]}}"
    assert [m["metric"] for m in template["metric_list"]] == ["acc"]
    for p in PARADIGMS:
        task = yaml.load((lm / f"{p}.yaml").read_text(encoding="utf-8"), Loader=_FunctionLoader)
        # defect 5 (issue 19): tasks are namespaced, never bare paradigm names
        assert task["task"] == f"rublimp_{p}" and task["include"] == "_template_yaml"
        assert task["custom_dataset"] == "!function rublimp_data.load"
        assert task["dataset_kwargs"] == {"paradigm": p}
    groups = {
        g["group"]: g["task"]
        for g in (yaml.safe_load(f.read_text(encoding="utf-8")) for f in sorted(lm.glob("_*.yaml")))
    }
    assert groups == {
        "rublimp_generated": ["rublimp_generated_government", "rublimp_generated_noun_phrase_agreement"],
        "rublimp_generated_government": ["rublimp_verb_acc_object"],
        "rublimp_generated_noun_phrase_agreement": ["rublimp_np_agreement_case", "rublimp_np_agreement_number"],
    }
    assert res.groups == groups
    # lm-eval's proposed port of the published RuBLiMP uses the group `rublimp`: never ours
    assert "rublimp" not in groups


class _FunctionLoader(yaml.SafeLoader):
    """Reads lm-eval's `!function` tag as the text `!function <name>`."""


_FunctionLoader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


def _load_task_data(lm_dir: Path, paradigm: str):
    """What lm-eval does for a task: import the task folder's rublimp_data.py by path and call load."""
    spec = importlib.util.spec_from_file_location(f"_rublimp_data_{id(lm_dir)}", lm_dir / "rublimp_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.load(paradigm, version=1.0)


def test_lm_eval_data_loads_from_any_directory_and_after_a_move(exported, tmp_path, monkeypatch):
    """Defect 5 (issue 19): the tasks' data path does not depend on the directory lm-eval runs in,
    nor on where the export folder lies (both folders moved together)."""
    pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    root, bench, res = exported
    moved = tmp_path / "elsewhere" / "export"
    shutil.copytree(root / "out", moved)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for lm_dir in (res.lm_eval_dir, moved / "lm_eval"):
        for p in PARADIGMS:
            ds = _load_task_data(lm_dir, p)
            got = pl.from_arrow(ds["test"].data.table).sort("id")
            assert got["id"].to_list() == pl.read_parquet(bench[p]).sort("id")["id"].to_list()
    shutil.rmtree(moved.parent / "export" / "hf")
    with pytest.raises(FileNotFoundError, match="no Parquet file for paradigm 'verb_acc_object'"):
        _load_task_data(moved / "lm_eval", "verb_acc_object")


def test_task_names_do_not_collide_with_lm_eval_tasks(exported):
    """Defect 5 (issue 19): no task or group name of the export is a task, group or tag of the
    lm-eval version `make test-lmeval` pins (skipped where lm-eval is not installed: .venv-lmeval)."""
    tasks_mod = pytest.importorskip("lm_eval.tasks")
    _, _, res = exported
    ours = set(res.groups) | {m for members in res.groups.values() for m in members}
    bundled = set(tasks_mod.TaskManager().all_tasks)
    assert len(bundled) > 1000  # the registry was read
    assert not ours & bundled, sorted(ours & bundled)
    assert {"blimp", "multiblimp"} <= bundled
    # and lm-eval indexes the exported folder with exactly our names
    manager = tasks_mod.TaskManager(include_path=str(res.lm_eval_dir), include_defaults=False)
    assert set(manager.all_tasks) == ours


def test_lm_eval_builds_the_tasks_from_another_directory(exported, tmp_path, monkeypatch):
    """Defect 5 (issue 19): lm-eval itself (the pinned version, where installed) builds every task with its
    documents from a working directory other than the one the export was written from."""
    tasks_mod = pytest.importorskip("lm_eval.tasks")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    _, bench, res = exported
    monkeypatch.chdir(tmp_path)
    manager = tasks_mod.TaskManager(include_path=str(res.lm_eval_dir), include_defaults=False)
    tree = tasks_mod.get_task_dict(["rublimp_generated"], manager)
    leaves = {}

    def walk(node):
        for key, value in node.items():
            if isinstance(value, dict):
                walk(value)
            else:
                leaves[value.config.task] = len(list(value.test_docs()))

    walk(tree)
    assert leaves == {f"rublimp_{p}": pl.read_parquet(path).height for p, path in bench.items()}


def test_export_folders_hold_no_hidden_files(exported):
    """Defect 5 (issue 19): nothing hidden (Snakemake's .snakemake_timestamp, temporary files) is published."""
    _, _, res = exported
    for folder in (res.hf_dir, res.lm_eval_dir):
        assert not [p for p in folder.rglob(".*")], folder
    # Snakemake writes .snakemake_timestamp into directory() outputs: the export rule declares files
    rule = (REPO / "rules" / "export.smk").read_text(encoding="utf-8")
    outputs = rule.split("output:", 1)[1].split("params:", 1)[0]
    assert "directory(" not in outputs
    assert 'f"{OUT}/export/hf/README.md"' in outputs and 'f"{OUT}/export/lm_eval/README.md"' in outputs


def test_deterministic(exported, tmp_path):
    root, bench, res = exported
    again = _export_in(tmp_path, bench, {p: root / "curation" / f"{p}.json" for p in bench})
    for d_old, d_new in ((res.hf_dir, again.hf_dir), (res.lm_eval_dir, again.lm_eval_dir)):
        old = {p.relative_to(d_old): p.read_bytes() for p in d_old.rglob("*") if p.is_file()}
        new = {p.relative_to(d_new): p.read_bytes() for p in d_new.rglob("*") if p.is_file()}
        assert old and old == new


def test_empty_benchmark_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="no paradigms"):
        export_benchmark({}, tmp_path / "hf", tmp_path / "lm")
    bench, cur = _write_inputs(tmp_path, empty=tuple(PARADIGMS))
    with pytest.raises(InputError, match=r"all 3 paradigm\(s\) have 0 pairs.*np_agreement_case: pool too small"):
        export_benchmark(bench, tmp_path / "hf", tmp_path / "lm", curation=cur)
    assert not (tmp_path / "hf").exists() and not (tmp_path / "lm").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_paradigm_with_no_pairs_is_left_out_with_a_message(tmp_path, caplog):
    bench, cur = _write_inputs(tmp_path, empty=("verb_acc_object",))
    with caplog.at_level("WARNING", logger="rublimp"):
        res = export_benchmark(bench, tmp_path / "hf", tmp_path / "lm", curation=cur)
    assert res.skipped == {"verb_acc_object": "pool too small"}
    assert "verb_acc_object" in caplog.text and "0 pairs" in caplog.text
    assert not (tmp_path / "hf" / "data" / "verb_acc_object").exists()
    assert not (tmp_path / "lm" / "verb_acc_object.yaml").exists()
    assert "`verb_acc_object`: pool too small" in (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    assert "rublimp_government" not in res.groups


def test_bad_input_names_the_file(tmp_path):
    bench, _ = _write_inputs(tmp_path)
    pl.read_parquet(bench["verb_acc_object"]).drop("tree_depth").write_parquet(bench["verb_acc_object"])
    with pytest.raises(InputError, match=r"verb_acc_object.parquet: .*lacks RuBLiMP column\(s\) \['tree_depth'\]"):
        export_benchmark(bench, tmp_path / "hf", tmp_path / "lm")
    bench["np_agreement_case"] = tmp_path / "missing.parquet"
    with pytest.raises(InputError, match="missing.parquet: benchmark file of paradigm 'np_agreement_case' not found"):
        export_benchmark(bench, tmp_path / "hf", tmp_path / "lm")


def test_failure_keeps_the_old_export_and_leaves_no_temp_dirs(tmp_path, monkeypatch):
    from rublimp import export as export_mod

    bench, cur = _write_inputs(tmp_path)
    first = export_benchmark(bench, tmp_path / "out" / "hf", tmp_path / "out" / "lm", curation=cur)
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "out").rglob("*"))

    calls = []

    def broken(path, text):
        calls.append(path)
        if len(calls) == 3:  # fail in the middle of writing the task files
            raise OSError("disk full")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    monkeypatch.setattr(export_mod, "_write", broken)
    with pytest.raises(OSError, match="disk full"):
        export_benchmark(bench, tmp_path / "out" / "hf", tmp_path / "out" / "lm", curation=cur)
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "out").rglob("*")) == before
    assert first.pairs == {"np_agreement_case": 2, "np_agreement_number": 3, "verb_acc_object": 1}


def test_cli(tmp_path):
    from rublimp.__main__ import main

    _write_inputs(tmp_path)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump({"seed": 3, "export": {"license": "cc-by-sa-4.0"}, "parse": {"backend": "stanza"}}))
    rc = main(["export", "--benchmark", str(tmp_path / "benchmark"), "--curation", str(tmp_path / "curation"),
               "--config", str(cfg), "--hf", str(tmp_path / "hf"), "--lm-eval", str(tmp_path / "lm")])
    assert rc == 0
    assert _card_yaml(tmp_path / "hf")["license"] == "cc-by-sa-4.0"
    assert "stanza" in (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    (tmp_path / "none").mkdir()
    assert main(["export", "--benchmark", str(tmp_path / "none"), "--hf", str(tmp_path / "h2"),
                 "--lm-eval", str(tmp_path / "l2")]) == 2


def test_export_is_part_of_the_default_target():
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--quiet", "rules", "--cores", "1", "--snakefile",
         str(REPO / "Snakefile"), "--directory", str(REPO), "--config", "outdir=work/export-dry-run"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the dry run's job stats: one export job, planned by the default target `all`
    assert re.search(r"^export\s+1$", proc.stdout + proc.stderr, flags=re.M), proc.stdout[-3000:]
