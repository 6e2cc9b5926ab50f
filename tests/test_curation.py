"""Tests for rublimp.curation: Min-K% threshold search and stratified sampling."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from rublimp.curation import (
    DEFAULT_LENGTH_BINS,
    assign_length_bins,
    curate,
    search_threshold,
    stratified_sample,
)
from rublimp.io import InputError


def make_pool(n: int, *, pid: str = "PID_A", seed: int = 0) -> pl.DataFrame:
    """A synthetic pool: pairs with ids, sentences, domains, lengths and feature values."""
    rng = np.random.default_rng(seed)
    domains = np.array(["wiki", "news", "fiction"])
    values = np.array(["Sing", "Plur"])
    return pl.DataFrame(
        {
            "id": [f"{pid}-{i:05d}" for i in range(n)],
            "source_sentence": [f"{pid} хорошее предложение {i}" for i in range(n)],
            "target_sentence": [f"{pid} плохое предложение {i}" for i in range(n)],
            "PID": [pid] * n,
            "phenomenon": ["agreement"] * n,
            "domain": domains[rng.integers(0, 3, n)].tolist(),
            "n_tokens": rng.integers(6, 51, n).tolist(),
            "feature": ["Number"] * n,
            "source_value": values[rng.integers(0, 2, n)].tolist(),
            "target_value": ["x"] * n,
        }
    ).with_columns(
        pl.when(pl.col("source_value") == "Sing").then(pl.lit("Plur")).otherwise(pl.lit("Sing")).alias("target_value")
    )


def make_scores(sentences: list[str], values: list[float], k: int = 60) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "sentence": sentences,
            "sum_logprob": [-10.0] * len(sentences),
            "n_tokens": [5] * len(sentences),
            f"mink_{k}": values,
            "first_token": ["<s>"] * len(sentences),
        }
    )


# --------------------------------------------------------------------------- threshold search


def hand_case() -> tuple[pl.DataFrame, dict[str, pl.DataFrame]]:
    """Six pairs, two models.  Per-pair max over models: p0 -1, p1 -4, p2 -2, p3 -2.5, p4 -1.5, p5 -3."""
    pool = pl.DataFrame(
        {
            "id": [f"p{i}" for i in range(6)],
            "source_sentence": [f"s{i}" for i in range(6)],
            "target_sentence": [f"t{i}" for i in range(6)],
            "PID": ["X"] * 6,
            "domain": ["wiki"] * 6,
            "n_tokens": [8] * 6,
        }
    )
    a = make_scores([f"s{i}" for i in range(6)], [-5.0, -4.0, -2.0, -3.0, -1.5, -3.0])
    b = make_scores([f"s{i}" for i in range(6)], [-1.0, -6.0, -7.0, -2.5, -2.0, -4.0])
    return pool, {"model_a": a, "model_b": b}


def test_threshold_hand_checked_two_models():
    pool, scores = hand_case()
    # sorted maxima: -4 (p1), -3 (p5), -2.5 (p3), -2 (p2), -1.5 (p4), -1 (p0)
    res = search_threshold(pool, scores, k=60, n=3)
    assert res.threshold == -2.5
    assert res.survivors == 3
    assert res.kept["id"].to_list() == ["p1", "p3", "p5"]
    assert (res.pool_size, res.scored, res.short_pool) == (6, 6, False)
    assert res.models == ("model_a", "model_b")
    assert res.kept["mink_max"].to_list() == [-4.0, -2.5, -3.0]
    res4 = search_threshold(pool, scores, k=60, n=4)
    assert res4.threshold == -2.0 and res4.kept["id"].to_list() == ["p1", "p2", "p3", "p5"]


def brute_force_threshold(maxima: np.ndarray, n: int) -> float:
    """Reference: scan the sorted distinct candidates for the first t with ≥ n pairs at or below it."""
    for t in np.unique(maxima):
        if np.sum(maxima <= t) >= n:
            return float(t)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_threshold_matches_exact_grid_search(seed):
    rng = np.random.default_rng(seed)
    pool = make_pool(200, seed=seed)
    sents = pool["source_sentence"].to_list()
    # rounded values create many ties
    per_model = {f"m{j}": np.round(rng.normal(-4, 1, 200), 1) for j in range(3)}
    scores = {m: make_scores(sents, v.tolist()) for m, v in per_model.items()}
    maxima = np.max(np.stack(list(per_model.values())), axis=0)
    for n in (1, 17, 100, 200):
        res = search_threshold(pool, scores, k=60, n=n)
        assert res.threshold == brute_force_threshold(maxima, n)
        assert res.survivors == int(np.sum(maxima <= res.threshold)) >= n
        # one candidate lower would leave fewer than n pairs
        lower = np.unique(maxima)[np.unique(maxima) < res.threshold]
        if lower.size:
            assert np.sum(maxima <= lower[-1]) < n


def test_ties_then_curate_downsamples_to_n():
    pool, scores = hand_case()
    scores["model_a"] = scores["model_a"].with_columns(pl.lit(-3.0).alias("mink_60"))
    scores["model_b"] = scores["model_b"].with_columns(pl.lit(-3.0).alias("mink_60"))
    res = search_threshold(pool, scores, k=60, n=2)
    assert res.threshold == -3.0 and res.survivors == 6 and not res.short_pool
    assert "tie" in res.message
    bench, report = curate(pool, scores, k=60, n=2, seed=0)
    assert bench.height == 2
    assert report["paradigms"][0]["survivors"] == 6 and report["paradigms"][0]["selected"] == 2


def test_short_pool_keeps_everything():
    pool, scores = hand_case()
    res = search_threshold(pool, scores, k=60, n=10)
    assert res.short_pool
    assert res.threshold == -1.0  # the max over all pairs
    assert res.survivors == 6 and res.kept.height == 6
    assert "short pool" in res.message
    bench, report = curate(pool, scores, k=60, n=10, seed=0)
    assert bench["id"].to_list() == [f"p{i}" for i in range(6)]
    entry = report["paradigms"][0]
    assert entry["short_pool"] is True and entry["selected"] == 6 and entry["threshold"] == -1.0


def test_nan_scores_are_unscored_and_can_make_pool_short():
    pool, scores = hand_case()
    scores["model_b"] = scores["model_b"].with_columns(
        pl.when(pl.col("sentence").is_in(["s1", "s5"])).then(float("nan")).otherwise(pl.col("mink_60")).alias("mink_60")
    )
    res = search_threshold(pool, scores, k=60, n=3)
    # remaining maxima: p0 -1, p2 -2, p3 -2.5, p4 -1.5 -> third smallest -1.5
    assert res.scored == 4 and res.threshold == -1.5
    assert res.kept["id"].to_list() == ["p2", "p3", "p4"]
    assert "without a Min-K% value" in res.message
    short = search_threshold(pool, scores, k=60, n=5)
    assert short.short_pool and short.survivors == 4 and short.threshold == -1.0


def test_missing_score_names_the_model():
    pool, scores = hand_case()
    scores["model_b"] = scores["model_b"].filter(pl.col("sentence") != "s4")
    with pytest.raises(InputError, match=r"model 'model_b'.*id='p4'"):
        search_threshold(pool, scores, k=60, n=3)
    with pytest.raises(InputError, match="model_b"):
        curate(pool, scores, k=60, n=3, seed=0)


def test_missing_column_and_bad_config():
    pool, scores = hand_case()
    with pytest.raises(InputError, match=r"mink_30"):
        search_threshold(pool, scores, k=30, n=3)
    with pytest.raises(InputError, match="'n'"):
        search_threshold(pool, scores, k=60, n=0)
    with pytest.raises(InputError, match="'k'"):
        search_threshold(pool, scores, k=0, n=3)
    with pytest.raises(InputError, match="empty"):
        search_threshold(pool, {}, k=60, n=3)
    with pytest.raises(InputError, match="duplicated id"):
        search_threshold(pl.concat([pool, pool.head(1)]), scores, k=60, n=3)


def test_conflicting_duplicate_scores_rejected():
    pool, scores = hand_case()
    # identical repeats and a second pair sharing a grammatical sentence are fine
    repeated = {m: pl.concat([df, df.head(2)]) for m, df in scores.items()}
    shared = pl.concat([pool, pool.head(1).with_columns(pl.lit("p6").alias("id"), pl.lit("t6").alias("target_sentence"))])
    res = search_threshold(shared, repeated, k=60, n=3)
    assert res.pairs.filter(pl.col("id").is_in(["p0", "p6"]))["mink_max"].to_list() == [-1.0, -1.0]
    assert res.threshold == -2.5
    scores["model_a"] = pl.concat([scores["model_a"], make_scores(["s0"], [0.5])])
    with pytest.raises(InputError, match=r"model_a.*conflicting"):
        search_threshold(pool, scores, k=60, n=3)


def test_parquet_paths_are_named_in_errors(tmp_path):
    pool, scores = hand_case()
    pool_path = tmp_path / "pool.parquet"
    pool.write_parquet(pool_path)
    paths = {}
    for model, df in scores.items():
        paths[model] = tmp_path / f"{model}.parquet"
        df.write_parquet(paths[model])
    res = search_threshold(pool_path, paths, k=60, n=3)
    assert res.threshold == -2.5
    scores["model_a"].filter(pl.col("sentence") != "s0").write_parquet(paths["model_a"])
    with pytest.raises(InputError) as err:
        search_threshold(pool_path, paths, k=60, n=3)
    assert str(paths["model_a"]) in str(err.value) and "model_a" in str(err.value)


def test_search_threshold_rejects_mixed_paradigms():
    pool = pl.concat([make_pool(5, pid="A"), make_pool(5, pid="B")])
    scores = {"m": make_scores(pool["source_sentence"].to_list(), [-1.0] * 10)}
    with pytest.raises(InputError, match="one paradigm"):
        search_threshold(pool, scores, k=60, n=3)


# --------------------------------------------------------------------------- length bins and sampling


def test_length_bins_edges():
    df = pl.DataFrame({"n_tokens": [3, 5, 6, 9, 10, 29, 30, 50, 51, 80]})
    out = assign_length_bins(df)
    assert out["length_bin"].to_list() == [
        "<6", "<6", "[6,10)", "[6,10)", "[10,15)", "[20,30)", "[30,51)", "[30,51)", ">=51", ">=51",
    ]
    assert DEFAULT_LENGTH_BINS == (6, 10, 15, 20, 30, 51)
    with pytest.raises(InputError, match="length_bins"):
        assign_length_bins(df, (10, 6))


def strata_counts(df: pl.DataFrame, keys: list[str]) -> dict[tuple, int]:
    return {tuple(r[:-1]): r[-1] for r in df.group_by(keys).len().iter_rows()}


def test_stratified_sample_proportions():
    # 600 wiki / 300 news / 100 fiction with two length classes each: exact quotas for n = 100
    rows = []
    for dom, size in (("wiki", 600), ("news", 300), ("fiction", 100)):
        for i in range(size):
            rows.append({"id": f"{dom}-{i:04d}", "domain": dom, "n_tokens": 8 if i % 2 else 25})
    pairs = pl.DataFrame(rows)
    sample = stratified_sample(pairs, n=100, seed=7)
    assert sample.height == 100
    counts = strata_counts(sample, ["domain", "length_bin"])
    assert counts == {
        ("wiki", "[6,10)"): 30, ("wiki", "[20,30)"): 30,
        ("news", "[6,10)"): 15, ("news", "[20,30)"): 15,
        ("fiction", "[6,10)"): 5, ("fiction", "[20,30)"): 5,
    }
    assert sample["id"].to_list() == sorted(sample["id"].to_list())


def test_stratified_sample_largest_remainder_hand_case():
    # strata of 5, 3 and 2 pairs, n = 4: exact quotas 2.0, 1.2, 0.8 -> floors 2, 1, 0;
    # the one remaining pair goes to the largest remainder (0.8), i.e. the smallest stratum
    sizes = {"wiki": 5, "news": 3, "fiction": 2}
    pairs = pl.DataFrame(
        [{"id": f"{d}{i}", "domain": d, "n_tokens": 12} for d, size in sizes.items() for i in range(size)]
    )
    for seed in range(5):
        got = strata_counts(stratified_sample(pairs, n=4, seed=seed), ["domain"])
        assert got == {("wiki",): 2, ("news",): 1, ("fiction",): 1}


def test_stratified_sample_largest_remainder_on_uneven_pool():
    pool = make_pool(997, seed=5)
    keys = ["domain", "source_value", "target_value", "length_bin"]
    binned = assign_length_bins(pool)
    full = strata_counts(binned, keys)
    for n, seed in ((100, 0), (333, 1), (50, 2)):
        sample = stratified_sample(pool, n=n, seed=seed)
        assert sample.height == n
        got = strata_counts(sample, keys)
        for key, size in full.items():
            exact = n * size / pool.height
            assert abs(got.get(key, 0) - exact) < 1.0, (key, got.get(key, 0), exact)


def test_stratified_sample_determinism_and_seed_sensitivity():
    pool = make_pool(500, seed=3)
    a = stratified_sample(pool, n=120, seed=11)
    b = stratified_sample(pool.sample(fraction=1.0, shuffle=True, seed=99), n=120, seed=11)
    assert a.equals(b)  # same seed, independent of input row order
    c = stratified_sample(pool, n=120, seed=12)
    assert c.height == 120 and set(c["id"]) != set(a["id"])


def test_stratified_sample_returns_all_when_n_large_and_validates():
    pool = make_pool(20)
    out = stratified_sample(pool.reverse(), n=50, seed=0)
    assert out["id"].to_list() == sorted(pool["id"].to_list())
    with pytest.raises(InputError, match="unique"):
        stratified_sample(pl.concat([pool, pool.head(2)]), n=5, seed=0)
    with pytest.raises(InputError, match="nonexistent"):
        stratified_sample(pool, n=5, seed=0, strata=["nonexistent"])
    # explicit strata and no length binning
    only_domain = stratified_sample(pool, n=5, seed=0, strata=["domain"], length_bins=None)
    assert "length_bin" not in only_domain.columns and only_domain.height == 5
    unstratified = stratified_sample(pool, n=5, seed=0, strata=[], length_bins=None)
    assert unstratified.height == 5 and unstratified.columns == pool.columns


# --------------------------------------------------------------------------- curate end to end


def test_curate_multi_paradigm_deterministic():
    pools = [make_pool(300, pid="P1", seed=1), make_pool(40, pid="P2", seed=2)]
    pool = pl.concat(pools)
    rng = np.random.default_rng(0)
    sents = pool["source_sentence"].to_list()
    # integer-valued scores: many ties at the threshold, so more than n pairs survive
    scores = {m: make_scores(sents, np.round(rng.normal(-4, 1, len(sents))).tolist()) for m in ("gpt", "bert", "llama")}
    bench, report = curate(pool, scores, k=60, n=100, seed=3)
    bench2, report2 = curate(pool.reverse(), scores, k=60, n=100, seed=3)
    assert bench.equals(bench2) and report == report2
    json.dumps(report)  # JSON-serialisable
    assert bench.height == 140
    by_pid = {e["paradigm"]: e for e in report["paradigms"]}
    assert by_pid["P1"]["selected"] == 100 and not by_pid["P1"]["short_pool"]
    assert by_pid["P1"]["survivors"] > 100
    assert by_pid["P2"]["selected"] == 40 and by_pid["P2"]["short_pool"]
    assert report["models"] == ["bert", "gpt", "llama"]
    # every selected P1 pair is below the threshold for every model
    t = by_pid["P1"]["threshold"]
    p1 = bench.filter(pl.col("PID") == "P1")
    for df in scores.values():
        vals = p1.join(df, left_on="source_sentence", right_on="sentence")["mink_60"]
        assert vals.max() <= t
    assert bench["id"].to_list() == sorted(bench["id"].to_list())
    other, _ = curate(pool, scores, k=60, n=100, seed=4)
    assert not other.equals(bench)


def test_curate_reads_its_pools_rows_of_an_all_pools_table(tmp_path):
    """A model's table of every paradigm's sentences (rules/score.smk) curates a pool exactly as its cut does."""
    pool, other = make_pool(300, pid="P1", seed=1), make_pool(200, pid="P2", seed=2)
    rng = np.random.default_rng(5)
    both = sorted(pool["source_sentence"].to_list() + other["source_sentence"].to_list())
    paths, cuts = {}, {}
    for m in ("gpt", "bert"):
        table = make_scores(both, np.round(rng.normal(-4, 1, len(both))).tolist())
        paths[m] = tmp_path / f"{m}.parquet"
        table.write_parquet(paths[m])
        cuts[m] = table.join(pool.select(pl.col("source_sentence").alias("sentence")), on="sentence", how="semi")
    assert all(0 < c.height < len(both) for c in cuts.values())
    bench, report = curate(pool, paths, k=60, n=100, seed=3)
    bench_cut, report_cut = curate(pool, cuts, k=60, n=100, seed=3)
    assert bench.equals(bench_cut) and report == report_cut
    # the table's other paradigm stays out, and a missing column still names the file
    assert set(bench["PID"].to_list()) == {"P1"}
    with pytest.raises(InputError) as err:
        curate(pool, paths, k=30, n=100, seed=3)
    assert "mink_30" in str(err.value) and str(paths["bert"]) in str(err.value)


def test_curate_stage_reads_full_rows_only_for_the_selection(tmp_path):
    """The stage reads the ids, sentences and strata of the pool, then the full rows of the pairs it selected:
    the benchmark equals curate() on the whole pool in memory, columns and order included."""
    from rublimp.stages import curate_stage

    pool = make_pool(400, pid="P1", seed=4).with_columns(
        pl.col("source_sentence").str.len_chars().alias("ipm").cast(pl.Float64),
        pl.lit("слово").alias("source_word"),
    ).select("ipm", "id", "target_sentence", "source_word", "source_sentence", "PID", "domain", "n_tokens",
             "feature", "source_value", "target_value", "phenomenon")
    pool.write_parquet(tmp_path / "pool.parquet")
    rng = np.random.default_rng(9)
    sents = pool["source_sentence"].to_list()
    paths = {}
    for m in ("gpt", "bert"):
        paths[m] = tmp_path / f"{m}.parquet"
        make_scores(sents, np.round(rng.normal(-4, 1, len(sents))).tolist(), k=30).write_parquet(paths[m])
    want, want_report = curate(pool, paths, k=30, n=100, seed=2)
    report = curate_stage(tmp_path / "pool.parquet", paths, tmp_path / "b.csv", tmp_path / "b.parquet",
                          tmp_path / "b.json", k=30, n=100, seed=2)
    got = pl.read_parquet(tmp_path / "b.parquet")
    assert got.equals(want) and got.columns == [*pool.columns, "mink_max", "length_bin"]
    assert report["paradigms"] == want_report["paradigms"] and got.height == 100


def test_grid_step_rounds_threshold_up_and_sampling_downsamples():
    pool = pl.DataFrame(
        {
            "id": [f"p{i}" for i in range(6)],
            "source_sentence": [f"s{i}" for i in range(6)],
            "target_sentence": [f"t{i}" for i in range(6)],
            "PID": ["x"] * 6,
            "domain": ["news"] * 6,
            "feature": ["Number"] * 6,
            "source_value": ["Sing"] * 6,
            "target_value": ["Plur"] * 6,
            "n_tokens": [8] * 6,
        }
    )
    scores = {"m": pl.DataFrame({"sentence": [f"s{i}" for i in range(6)], "mink_30": [-5.0, -4.93, -4.91, -4.2, -4.15, -3.0]})}
    exact = search_threshold(pool, scores, k=30, n=2)
    assert exact.threshold == -4.93 and exact.survivors == 2
    grid = search_threshold(pool, scores, k=30, n=2, grid_step=0.1)
    # the 2nd smallest value -4.93 rounds up to the grid point -4.9: three pairs survive
    assert grid.threshold == -4.9 and grid.survivors == 3
    bench, report = curate(pool, scores, k=30, n=2, seed=0, grid_step=0.1)
    assert bench.height == 2 and set(bench["id"]) <= {"p0", "p1", "p2"}
    assert report["grid_step"] == 0.1


# --------------------------------------------------------------------------- decontamination status (issue 19)


def _demo_check(works: bool, auroc: float) -> dict:
    return {"n_train": 100, "n_heldout": 100,
            "models": {"demo": {"backend": "hf", "auroc": {"mink_60": auroc, "mean_logprob_per_token": auroc},
                                "detection_works": works}}}


def test_decontamination_status_from_the_demo_lm_check():
    from rublimp.curation import decontamination_status

    bad = decontamination_status(["demo", "real"], _demo_check(False, 0.43))
    assert bad["decontaminated"] is False
    assert "demo" in bad["decontamination_reason"] and "0.43" in bad["decontamination_reason"]
    assert bad["decontamination_check"]["models"]["demo"]["detection_works"] is False
    assert bad["decontamination_check"]["unchecked"] == ["real"]
    good = decontamination_status(["demo"], _demo_check(True, 0.9))
    assert good["decontaminated"] is True and good["decontamination_reason"] is None
    none = decontamination_status(["real"], None)
    assert none["decontaminated"] is True and none["decontamination_check"]["unchecked"] == ["real"]


def test_failed_detection_check_is_recorded_warned_and_bannered(tmp_path, caplog):
    """Issue 19: `detection_works: false` let curation go on with no warning anywhere."""
    from rublimp.evaluation import aggregate
    from rublimp.report import write_report
    from rublimp.stages import curate_stage

    pool = make_pool(30)
    pool.write_parquet(tmp_path / "pool.parquet")
    make_scores(pool["source_sentence"].to_list(), [-float(i) for i in range(30)]).write_parquet(tmp_path / "s.parquet")
    (tmp_path / "check.json").write_text(json.dumps(_demo_check(False, 0.43)), encoding="utf-8")
    with caplog.at_level("WARNING", logger="rublimp"):
        report = curate_stage(tmp_path / "pool.parquet", {"demo": tmp_path / "s.parquet"}, tmp_path / "b.csv",
                              tmp_path / "b.parquet", tmp_path / "cur.json", k=60, n=10,
                              detection_check=tmp_path / "check.json")
    saved = json.loads((tmp_path / "cur.json").read_text(encoding="utf-8"))
    assert saved["decontaminated"] is False and saved == json.loads(json.dumps(report))
    assert "NOT decontaminated" in caplog.text
    # the evaluation summary carries a banner
    pairs = pl.DataFrame({"model": ["m"] * 2, "id": ["a", "b"], "PID": ["PID_A"] * 2, "correct_sum": [True, False],
                          "correct_ppl": [True, False], "tie_sum": [False] * 2, "tie_ppl": [False] * 2,
                          "delta": [1.0, -1.0]})
    caplog.clear()
    with caplog.at_level("WARNING", logger="rublimp"):
        write_report(aggregate(pairs),
                     [saved], tmp_path / "rep")
    summary = (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    head = summary.split("## ")[0]
    assert "**WARNING:** **this benchmark is NOT decontaminated**" in head and "0.43" in head
    assert "NOT decontaminated" in caplog.text
    # a passing check: no banner, decontaminated true
    (tmp_path / "check.json").write_text(json.dumps(_demo_check(True, 0.91)), encoding="utf-8")
    report = curate_stage(tmp_path / "pool.parquet", {"demo": tmp_path / "s.parquet"}, tmp_path / "b.csv",
                          tmp_path / "b.parquet", tmp_path / "cur.json", k=60, n=10,
                          detection_check=tmp_path / "check.json")
    assert report["decontaminated"] is True


def test_compact_pool_holds_no_text_and_only_the_pools_scores(tmp_path):
    """compact_pool: the pool's sentences become hash keys, each model keeps only the rows of the pool's
    sentences (its table holds every paradigm's), and curate() selects the same pairs from it."""
    from rublimp.curation import compact_pool

    pool = make_pool(300, pid="P2", seed=5)
    pool.write_parquet(tmp_path / "pool.parquet")
    other = [f"другое предложение {i}" for i in range(500)]
    rng = np.random.default_rng(3)
    sents = pool["source_sentence"].to_list()
    table = make_scores(sents + other, rng.normal(-4, 1, len(sents) + len(other)).tolist(), k=30)
    table.sample(fraction=1.0, seed=1, shuffle=True).write_parquet(tmp_path / "m.parquet")
    small, scores = compact_pool(tmp_path / "pool.parquet", {"m": tmp_path / "m.parquet"}, 30,
                                 columns=["id", "source_sentence", "PID", "domain", "n_tokens", "source_value"])
    assert small.columns == ["source_sentence", "id", "PID", "domain", "n_tokens", "source_value"]
    assert not set(small["source_sentence"]) & set(sents) and small["source_sentence"].n_unique() == 300
    assert scores["m"].height == 300 and set(scores["m"]["sentence"]) == set(small["source_sentence"])
    want, want_report = curate(pool, {"m": table}, k=30, n=50, seed=1)
    got, report = curate(small, scores, k=30, n=50, seed=1)
    assert got["id"].to_list() == want["id"].to_list() and got["mink_max"].equals(want["mink_max"])
    assert report["paradigms"] == want_report["paradigms"]


def test_compact_pool_names_the_table_without_the_score_column(tmp_path):
    from rublimp.curation import compact_pool

    make_pool(5).write_parquet(tmp_path / "pool.parquet")
    make_scores(["a"], [-1.0], k=60).write_parquet(tmp_path / "m.parquet")
    with pytest.raises(InputError, match=r"mink_30.*m\.parquet|m\.parquet.*mink_30"):
        compact_pool(tmp_path / "pool.parquet", {"m": tmp_path / "m.parquet"}, 30, columns=["id", "PID"])
