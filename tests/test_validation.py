"""Human validation: simulated annotators, malformed annotation files, export -> import -> curation."""

from __future__ import annotations

import json
import random

import polars as pl
import pytest

from rublimp.curation import curate
from rublimp.io import InputError
from rublimp.validation import (
    aggregate_annotations,
    export_validation,
    item_id,
    item_key,
    load_controls,
    read_annotations,
    simulate_annotations,
    validation_import_stage,
    write_annotations_tsv,
)

SEED = 3


def _pool(n_per=60, pids=("par_a", "par_b")) -> pl.DataFrame:
    rows = []
    for pid in pids:
        for i in range(n_per):
            rows.append({
                "id": f"{pid}_{i:03d}", "PID": pid, "phenomenon": "demo", "domain": ("news", "fiction")[i % 2],
                "source_sentence": f"Хорошее предложение {pid} {i}.", "target_sentence": f"Плохое предложение {pid} {i}.",
                "source_word": "Хорошее", "target_word": "Плохое", "n_tokens": 6 + i % 12,
            })
    return pl.DataFrame(rows)


def _scores(pool: pl.DataFrame) -> pl.DataFrame:
    # Min-K% rising with the pair index: the threshold keeps the lowest ones
    vals = [-(10.0 - 0.1 * int(i.split("_")[-1])) for i in pool["id"].to_list()]
    return pl.DataFrame({"sentence": pool["source_sentence"], "mink_30": vals})


# --------------------------------------------------------------------------- aggregation


WORKERS = [
    {"worker_id": "good1", "kind": "accurate", "accuracy": 0.85},
    {"worker_id": "good2", "kind": "accurate", "accuracy": 0.8},
    {"worker_id": "good3", "kind": "accurate", "accuracy": 0.75},
    {"worker_id": "adv1", "kind": "adversarial", "accuracy": 0.9},
    {"worker_id": "adv2", "kind": "adversarial", "accuracy": 0.8},
    {"worker_id": "rand1", "kind": "random"},
    {"worker_id": "rand2", "kind": "random"},
]


def _accuracy(pairs: pl.DataFrame, column: str, truth: dict[str, str]) -> float:
    return sum(lab == truth[p] for p, lab in zip(pairs["pair_id"], pairs[column])) / pairs.height


@pytest.mark.parametrize("seed", [0, 1])
def test_dawid_skene_beats_majority_vote_with_adversarial_and_random_workers(seed):
    pool = _pool(100)
    key = item_key(pool, seed=SEED).filter(pl.col("kind") != "duplicate")
    rng = random.Random(seed)
    truth = {p: ("yes" if rng.random() < 0.75 else "no") for p in pool["id"].to_list()}
    ann = simulate_annotations(key, truth, WORKERS, seed=seed)
    res = aggregate_annotations(ann, key, exclude_flagged=False)
    ds, mv = _accuracy(res["pairs"], "label_ds", truth), _accuracy(res["pairs"], "label_mv", truth)
    assert ds >= mv
    assert ds > 0.9 and ds - mv > 0.2  # the adversaries are inverted, not just outvoted
    skills = dict(zip(res["workers"]["worker_id"], res["workers"]["ds_skill"]))
    assert min(skills["good1"], skills["good2"]) > max(skills["adv1"], skills["adv2"], skills["rand1"])


@pytest.mark.parametrize("seed", [0])
def test_dawid_skene_at_least_majority_vote_with_mostly_honest_workers(seed):
    pool = _pool(60)
    key = item_key(pool, seed=SEED).filter(pl.col("kind") != "duplicate")
    rng = random.Random(100 + seed)
    truth = {p: ("yes" if rng.random() < 0.8 else "no") for p in pool["id"].to_list()}
    workers = [{"worker_id": f"w{i}", "kind": "accurate", "accuracy": a} for i, a in enumerate([0.9, 0.8, 0.7, 0.65])]
    workers.append({"worker_id": "noise", "kind": "random"})
    res = aggregate_annotations(simulate_annotations(key, truth, workers, seed=seed), key, exclude_flagged=False)
    assert _accuracy(res["pairs"], "label_ds", truth) >= _accuracy(res["pairs"], "label_mv", truth)


def test_controls_flag_adversarial_worker_and_duplicates_measure_consistency():
    pool = _pool(30)
    key = item_key(pool, seed=SEED)  # duplicates included: every pair is seen twice
    truth = dict.fromkeys(pool["id"].to_list(), "yes")
    workers = [{"worker_id": "honest", "accuracy": 1.0}, {"worker_id": "liar", "kind": "adversarial", "accuracy": 1.0}]
    res = aggregate_annotations(simulate_annotations(key, truth, workers, seed=0), key)
    w = {r["worker_id"]: r for r in res["workers"].iter_rows(named=True)}
    assert w["honest"]["control_accuracy"] == 1.0 and not w["honest"]["flagged"]
    assert w["liar"]["control_accuracy"] == 0.0 and w["liar"]["flagged"]
    assert w["honest"]["consistency"] == 1.0 and w["honest"]["n_duplicates"] == 60
    assert res["summary"]["flagged_workers"] == ["liar"]
    # the liar is left out: every pair valid, validity 100% with a Wilson interval below 1
    par = res["paradigms"].row(0, named=True)
    assert par["validity"] == 1.0 and 0.85 < par["ci_low"] < 1.0 and par["ci_high"] == pytest.approx(1.0)


def test_krippendorff_alpha_perfect_and_chance():
    pool = _pool(40, pids=("p",))
    key = item_key(pool, seed=SEED).filter(pl.col("kind") == "pair")
    rng = random.Random(0)
    truth = {p: rng.choice(["yes", "no"]) for p in pool["id"].to_list()}
    perfect = [{"worker_id": f"w{i}", "accuracy": 1.0} for i in range(3)]
    res = aggregate_annotations(simulate_annotations(key, truth, perfect, seed=0), key, exclude_flagged=False)
    assert res["summary"]["krippendorff_alpha"] == pytest.approx(1.0)
    noise = [{"worker_id": f"r{i}", "kind": "random"} for i in range(3)]
    res = aggregate_annotations(simulate_annotations(key, truth, noise, seed=0), key, exclude_flagged=False)
    assert abs(res["summary"]["krippendorff_alpha"]) < 0.25


# --------------------------------------------------------------------------- malformed files


@pytest.fixture(scope="module")
def key():
    return item_key(_pool(5), seed=SEED)


def _first_ids(key, n=2):
    return key.filter(pl.col("kind") == "pair")["item_id"].to_list()[:n]


def test_missing_column_names_file_and_line(tmp_path, key):
    f = tmp_path / "a.tsv"
    f.write_text("INPUT:item_id\tOUTPUT:label\nvabc\tyes\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.tsv:1: header lacks column\(s\) worker_id"):
        read_annotations(f, key)


def test_unknown_item_id_names_line(tmp_path, key):
    a, _ = _first_ids(key)
    f = tmp_path / "a.tsv"
    f.write_text(f"item_id\tworker_id\tlabel\n{a}\tw1\tyes\nvdeadbeef0000\tw1\tno\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.tsv:3: unknown item id 'vdeadbeef0000'"):
        read_annotations(f, key)


def test_duplicate_row_names_both_lines(tmp_path, key):
    a, b = _first_ids(key)
    f = tmp_path / "a.tsv"
    f.write_text(f"item_id\tworker_id\tlabel\n{a}\tw1\tyes\n{b}\tw1\tyes\n{a}\tw1\tno\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.tsv:4: duplicate row: .*already at line 2"):
        read_annotations(f, key)


def test_non_utf8_names_line(tmp_path, key):
    a, _ = _first_ids(key)
    f = tmp_path / "a.tsv"
    f.write_bytes(f"item_id\tworker_id\tlabel\n{a}\tw1\tyes\n{a}\t".encode() + "Вася\tда\n".encode("cp1251"))
    with pytest.raises(InputError, match=r"a\.tsv:3: not valid UTF-8"):
        read_annotations(f, key)


def test_bad_label_and_short_row(tmp_path, key):
    a, _ = _first_ids(key)
    f = tmp_path / "a.tsv"
    f.write_text(f"item_id\tworker_id\tlabel\n{a}\tw1\tmaybe\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.tsv:2: unknown label 'maybe'"):
        read_annotations(f, key)
    f.write_text(f"item_id\tworker_id\tlabel\n{a}\tw1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a\.tsv:2: expected 3 tab-separated columns"):
        read_annotations(f, key)


def test_label_studio_export_is_read_and_unknown_id_has_a_line(tmp_path, key):
    a, b = _first_ids(key)
    tasks = [
        {"id": 1, "data": {"item_id": a}, "annotations": [
            {"completed_by": 7, "result": [{"from_name": "label", "to_name": "bad", "type": "choices",
                                            "value": {"choices": ["yes"]}}]},
            {"completed_by": {"id": 8, "email": "x@y"}, "result": [{"from_name": "label", "type": "choices",
                                                                     "value": {"choices": ["no"]}}]},
            {"completed_by": 9, "was_cancelled": True, "result": []}]},
        {"id": 2, "data": {"item_id": b}, "annotations": [
            {"completed_by": 7, "result": [{"from_name": "label", "type": "choices", "value": {"choices": ["na"]}}]}]},
    ]
    f = tmp_path / "ls.json"
    f.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    df = read_annotations(f, key)
    assert sorted(zip(df["item_id"], df["worker_id"], df["label"])) == sorted(
        [(a, "7", "yes"), (a, "x@y", "no"), (b, "7", "na")])
    tasks[1]["data"]["item_id"] = "vnope"
    f.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    line = json.dumps(tasks, indent=2).splitlines().index('      "item_id": "vnope"') + 1
    with pytest.raises(InputError, match=rf"ls\.json:{line}: unknown item id 'vnope'"):
        read_annotations(f, key)
    f.write_text('[{"data": {"item_id": "x"}', encoding="utf-8")
    with pytest.raises(InputError, match=r"ls\.json:1: not valid JSON"):
        read_annotations(f, key)


# --------------------------------------------------------------------------- export -> import -> curation


def test_export_files(tmp_path):
    pool = _pool(40)
    info = export_validation(pool, tmp_path, per_paradigm=10, duplicate_fraction=0.2, seed=SEED)
    assert info["per_paradigm"] == {"par_a": 10, "par_b": 10}
    assert info["duplicates"] == 4 and info["controls"] == len(load_controls())
    lines = (tmp_path / "tasks.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["INPUT:item_id", "INPUT:task", "INPUT:phenomenon", "INPUT:good", "INPUT:bad",
                                    "INPUT:change", "GOLDEN:label"]
    assert len(lines) == 1 + info["items"]
    golden = [l.split("\t")[-1] for l in lines[1:]]
    assert sum(g in ("yes", "no") for g in golden) == info["controls"]
    project = json.loads((tmp_path / "label_studio_project.json").read_text(encoding="utf-8"))
    assert "<Choices name=\"label\"" in project["label_config"] and "$good" in project["label_config"]
    ls_tasks = json.loads((tmp_path / "label_studio_tasks.json").read_text(encoding="utf-8"))
    assert len(ls_tasks) == info["items"] and set(ls_tasks[0]["data"]) >= {"item_id", "good", "bad", "task"}
    # ids are opaque and reproducible
    key = pl.read_csv(tmp_path / "items.csv")
    row = key.filter(pl.col("kind") == "duplicate").row(0, named=True)
    assert row["item_id"] == item_id(row["pair_id"], 1, SEED)
    export_validation(pool, tmp_path / "again", per_paradigm=10, duplicate_fraction=0.2, seed=SEED)
    assert (tmp_path / "again" / "tasks.tsv").read_bytes() == (tmp_path / "tasks.tsv").read_bytes()


def test_round_trip_keeps_n_and_replaces_dropped_pairs(tmp_path):
    pool = _pool(60)
    pool.write_parquet(tmp_path / "pool.parquet")
    scores = {"lm": _scores(pool)}
    n = 20
    bench, _ = curate(pool, scores, k=30, n=n, seed=SEED, grid_step=None)
    assert bench.group_by("PID").len().sort("PID")["len"].to_list() == [n, n]
    export_validation(bench, tmp_path / "val", per_paradigm=8, seed=SEED)
    key = pl.read_csv(tmp_path / "val" / "items.csv", schema_overrides={"gold": pl.String})
    exported = key.filter(pl.col("kind") == "pair")["pair_id"].to_list()
    bad = set(exported[::3])  # a third of the exported pairs are truly invalid
    truth = {p: ("no" if p in bad else "yes") for p in exported}
    workers = [{"worker_id": f"w{i}", "accuracy": 0.95} for i in range(5)]
    ann = simulate_annotations(key, truth, workers, seed=1)
    write_annotations_tsv(ann, tmp_path / "labels.tsv")
    summary = validation_import_stage(tmp_path / "labels.tsv", [tmp_path / "pool.parquet"], tmp_path / "imp", seed=SEED)
    drop = set(pl.read_csv(tmp_path / "imp" / "drop.csv")["pair_id"].to_list())
    assert drop == bad and summary["drop"] == len(bad)

    from rublimp.validation import read_drop_list

    new, report = curate(pool, scores, k=30, n=n, seed=SEED, grid_step=None,
                         drop_invalid=read_drop_list(tmp_path / "imp" / "drop.csv"))
    assert new.group_by("PID").len().sort("PID")["len"].to_list() == [n, n]
    old_ids, new_ids = set(bench["id"].to_list()), set(new["id"].to_list())
    assert not (new_ids & bad)
    assert old_ids - new_ids == bad  # only the invalid pairs left
    assert len(new_ids - old_ids) == len(bad)  # each replaced by a new pair
    assert sum(e["dropped_invalid"] for e in report["paradigms"]) == len(bad)
    # the replacements come from above the old threshold here (the exact search kept exactly n)
    for e in report["paradigms"]:
        assert e["replacements"] == e["dropped_invalid"]
    # the same inputs give the same benchmark
    again, _ = curate(pool, scores, k=30, n=n, seed=SEED, grid_step=None, drop_invalid=drop)
    assert again.equals(new)


def test_cli_export_then_import(tmp_path, capsys):
    from rublimp.__main__ import main

    pool = _pool(20)
    pool.write_parquet(tmp_path / "pool.parquet")
    assert main(["validation", "export", "--benchmark", str(tmp_path / "pool.parquet"), "--output-dir",
                 str(tmp_path / "val"), "--per-paradigm", "5", "--seed", str(SEED)]) == 0
    key = pl.read_csv(tmp_path / "val" / "items.csv", schema_overrides={"gold": pl.String})
    truth = dict.fromkeys(key["pair_id"].to_list(), "yes")
    ann = simulate_annotations(key, truth, [{"worker_id": f"w{i}", "accuracy": 1.0} for i in range(3)], seed=0)
    write_annotations_tsv(ann, tmp_path / "labels.tsv")
    assert main(["validation", "import", "--annotations", str(tmp_path / "labels.tsv"), "--pools",
                 str(tmp_path / "pool.parquet"), "--output-dir", str(tmp_path / "imp"), "--seed", str(SEED)]) == 0
    summary = json.loads((tmp_path / "imp" / "summary.json").read_text(encoding="utf-8"))
    assert summary["pairs"] == 10 and summary["valid"] == 10 and summary["flagged_workers"] == []
    # the same labels under another seed's item ids: a clear error, exit status 2
    assert main(["validation", "import", "--annotations", str(tmp_path / "labels.tsv"), "--pools",
                 str(tmp_path / "pool.parquet"), "--output-dir", str(tmp_path / "imp2"), "--seed", "99"]) == 2
    assert "labels.tsv:2: unknown item id" in capsys.readouterr().err
