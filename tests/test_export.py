"""The export stage: a Hugging Face dataset folder that `datasets` loads offline, lm-eval task files,
clear errors for empty input, and no half-written folders."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import yaml

from rublimp.export import RUBLIMP_COLUMNS, BuildInfo, export_benchmark, size_category
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
        entry = {"paradigm": p, "threshold": -8.5, "pool": 40, "message": "pool too small" if p in empty else ""}
        cur[p].write_text(json.dumps({"paradigms": [entry]}), encoding="utf-8")
    return bench, cur


INFO = BuildInfo(
    name="rublimp", pretty_name="test set", license="cc-by-4.0", seed=7, parser="slovnet",
    sources=[{"name": "demo", "type": "demo"}],
    decontamination_models=[{"name": "demo-gpt2", "backend": "hf", "path": "the demo LM trained by the pipeline"}],
    curation={"k": 30, "n": 1000, "grid_step": 0.05, "t_max": -8.0},
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
    assert template["dataset_path"] == "parquet"
    assert [m["metric"] for m in template["metric_list"]] == ["acc"]
    for p in PARADIGMS:
        task = yaml.safe_load((lm / f"{p}.yaml").read_text(encoding="utf-8"))
        assert task["task"] == p and task["include"] == "_template_yaml"
        path = task["dataset_kwargs"]["data_files"][template["test_split"]]
        assert path == f"out/hf/data/{p}/test.parquet"
        assert (root / path).is_file()  # relative to the directory lm_eval runs in
    groups = {
        g["group"]: g["task"]
        for g in (yaml.safe_load(f.read_text(encoding="utf-8")) for f in sorted(lm.glob("_*.yaml")))
    }
    assert groups == {
        "rublimp": ["rublimp_government", "rublimp_noun_phrase_agreement"],
        "rublimp_government": ["verb_acc_object"],
        "rublimp_noun_phrase_agreement": ["np_agreement_case", "np_agreement_number"],
    }
    assert res.groups == groups


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
