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


# --------------------------------------------------------------------------- annotator exclusion, agreement (issue 19)


def _three_annotators(n_pairs=40, wrong_controls=(4, 2)):
    """Two ~80% annotators (wrong on every 5th pair; ``wrong_controls`` wrong controls each) and one who
    always answers "yes", over the 12 golden controls (8 "yes", 4 "no")."""
    pool = _pool(n_pairs, pids=("par",))
    key = item_key(pool, seed=SEED).filter(pl.col("kind") != "duplicate")
    ids = pool["id"].to_list()
    truth = {p: ("no" if i % 4 == 0 else "yes") for i, p in enumerate(ids)}
    flip = {"yes": "no", "no": "yes"}
    item_of = {r["pair_id"]: r["item_id"] for r in key.filter(pl.col("kind") == "pair").iter_rows(named=True)}
    controls = key.filter(pl.col("kind") == "control").sort("pair_id")
    rows = []
    for w, offset, n_wrong in (("real_a", 0, wrong_controls[0]), ("real_b", 1, wrong_controls[1])):
        for i, p in enumerate(ids):
            rows.append((item_of[p], w, flip[truth[p]] if i % 5 == offset else truth[p]))
        for j, c in enumerate(controls.iter_rows(named=True)):
            rows.append((c["item_id"], w, flip[c["gold"]] if j < n_wrong else c["gold"]))
    rows += [(r["item_id"], "always_valid", "yes") for r in key.iter_rows(named=True)]
    ann = pl.DataFrame([{"item_id": a, "worker_id": w, "label": lab, "line": i + 2} for i, (a, w, lab) in enumerate(rows)])
    return ann, key


def test_three_annotator_scenario_keeps_both_real_annotators_and_shows_the_uninformative_one():
    from rublimp.report import validation_section

    ann, key = _three_annotators()
    assert key.filter(pl.col("kind") == "control").height == 12
    res = aggregate_annotations(ann, key, min_control_accuracy=0.7)
    s = res["summary"]
    w = {r["worker_id"]: r for r in res["workers"].iter_rows(named=True)}
    # real_a has 8/12 = 67% < 0.7 on the controls: not evidence of being below the bar (p = P(X <= 8 | 12, 0.7))
    assert not w["real_a"]["flagged"] and w["real_a"]["control_accuracy"] == pytest.approx(8 / 12)
    assert w["real_a"]["p_below_threshold"] == pytest.approx(0.5075, abs=1e-4)
    assert {"real_a", "real_b"} <= set(s["included_workers"]) and s["excluded_workers"] == []
    # alpha always comes with its bootstrap interval
    assert s["krippendorff_alpha"] is not None
    lo, hi = s["krippendorff_alpha_ci"]
    assert lo is not None and lo <= s["krippendorff_alpha"] <= hi
    # the always-"valid" annotator: high DS skill, zero information, identical rows in its confusion matrix
    assert w["always_valid"]["constant_answers"] and w["always_valid"]["ds_skill"] > 0.7
    assert w["always_valid"]["ds_information_bits"] == pytest.approx(0.0, abs=1e-9)
    assert w["real_a"]["ds_information_bits"] > 0.05
    conf = res["confusion"].filter(pl.col("worker_id") == "always_valid")
    p = {(r["true_label"], r["label"]): r["probability"] for r in conf.iter_rows(named=True)}
    assert p[("yes", "yes")] == pytest.approx(1.0) and p[("no", "yes")] == pytest.approx(1.0)
    assert any("always_valid" in m and "0.000 bits" in m and "skill" in m for m in s["warnings"])
    # low power of the test with 12 controls is stated
    assert s["exclusion_test"]["power_at_guessing"] == pytest.approx(1586 / 4096)
    assert any("power 0.39" in m for m in s["warnings"])
    text = validation_section(key, s, res["paradigms"], res["workers"], res["confusion"])
    assert "95% bootstrap CI" in text and "**WARNING:**" in text
    assert "| always_valid | no | 1.00 | 0.00 |" in text  # its answer does not depend on the truth
    assert "power against an annotator guessing yes/no" in text


def test_exclusion_test_critical_value_and_power_by_hand():
    from rublimp.validation import controls_for_power, exclusion_critical, exclusion_power

    # P(X <= 5 | 12, 0.7) = 0.0386 <= 0.05 < P(X <= 6 | 12, 0.7) = 0.1178
    assert exclusion_critical(12, threshold=0.7, alpha=0.05) == 5
    # power against a guesser: P(X <= 5 | 12, 0.5) = (1 + 12 + 66 + 220 + 495 + 792) / 4096
    assert exclusion_power(12, threshold=0.7, alpha=0.05) == pytest.approx(1586 / 4096)
    assert exclusion_critical(3, threshold=0.7, alpha=0.05) == 0  # 0.3^3 = 0.027
    assert exclusion_critical(2, threshold=0.7, alpha=0.05) == -1  # 0.3^2 = 0.09: never rejects
    assert exclusion_power(2, threshold=0.7, alpha=0.05) == 0.0
    n = controls_for_power(threshold=0.7, alpha=0.05, power=0.8)
    assert exclusion_power(n, threshold=0.7, alpha=0.05) >= 0.8
    assert all(exclusion_power(m, threshold=0.7, alpha=0.05) < 0.8 for m in range(1, n))


def test_dropping_on_one_annotators_word_is_refused_unless_allowed(tmp_path):
    # real_b is excluded (0/12 controls right), the always-"valid" one never says "no": real_a alone decides drops
    ann, key = _three_annotators(wrong_controls=(2, 12))
    ann = ann.filter(pl.col("worker_id") != "always_valid")
    with pytest.raises(InputError, match=r"fewer than two included annotators.*validation\.allow_single_annotator"):
        aggregate_annotations(ann, key, seed=0)
    res = aggregate_annotations(ann, key, seed=0, allow_single_annotator=True)
    s = res["summary"]
    assert s["excluded_workers"] == ["real_b"] and s["included_workers"] == ["real_a"]
    assert s["drop"] > 0 and s["drop_single_annotator"] == s["drop"]
    assert any("only 1 annotator" in m for m in s["warnings"])
    assert s["krippendorff_alpha"] is None and "at least two" in s["krippendorff_alpha_bootstrap"]["reason"]
    assert any("alpha is undefined" in m for m in s["warnings"])


def test_alpha_bootstrap_matches_the_package_and_is_seeded():
    import numpy as np

    from rublimp.validation import (_alpha_from_coincidences, _alpha_of, _unit_coincidences,
                                    krippendorff_alpha_ci)

    rng = np.random.default_rng(1)
    for _ in range(5):
        data = rng.integers(0, 3, (4, 30)).astype(float)
        data[rng.random(data.shape) < 0.3] = np.nan
        ours = _alpha_from_coincidences(_unit_coincidences(data).sum(axis=0).reshape(1, -1))[0]
        assert ours == pytest.approx(_alpha_of(data))
    ann, key = _three_annotators()
    votes = (ann.join(key, on="item_id").filter(pl.col("kind") == "pair")
             .select(pl.col("pair_id").alias("task"), pl.col("worker_id").alias("worker"), "label"))
    a = krippendorff_alpha_ci(votes, n_boot=300, seed=4)
    assert a == krippendorff_alpha_ci(votes, n_boot=300, seed=4)
    assert a["ci_low"] < a["alpha"] < a["ci_high"] and a["n_undefined"] == 0
    assert krippendorff_alpha_ci(votes, n_boot=300, seed=5)["ci_low"] != a["ci_low"]


def test_import_stage_writes_confusion_and_warnings(tmp_path):
    pool = _pool(40, pids=("par",))
    pool.write_parquet(tmp_path / "pool.parquet")
    ann, _ = _three_annotators()
    write_annotations_tsv(ann, tmp_path / "labels.tsv")
    summary = validation_import_stage(tmp_path / "labels.tsv", [tmp_path / "pool.parquet"], tmp_path / "imp",
                                      seed=SEED, n_boot=200)
    conf = pl.read_csv(tmp_path / "imp" / "confusion.csv")
    assert set(conf["worker_id"]) == {"real_a", "real_b", "always_valid"}
    saved = json.loads((tmp_path / "imp" / "summary.json").read_text(encoding="utf-8"))
    assert saved["warnings"] == summary["warnings"] and saved["krippendorff_alpha_ci"][0] is not None
