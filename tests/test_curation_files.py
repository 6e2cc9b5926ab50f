"""rublimp.curation_files: curate_file gives curate()'s benchmark and report from a pool file, a slice at a time."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import rublimp.curation_files as cf
from rublimp.curation import curate
from rublimp.curation_files import curate_file, file_slices
from rublimp.io import InputError


def _pool(n: int, pid: str, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    domains = np.array(["wiki", "news", "fiction", None], dtype=object)
    return pl.DataFrame({
        "ipm": rng.random(n).tolist(),
        "id": [f"{pid}:{i:04d}" for i in range(n)],
        "source_sentence": [f"{pid} хорошее предложение {i % (n - 3)}" for i in range(n)],  # some repeated
        "target_sentence": [f"{pid} плохое предложение {i}" for i in range(n)],
        "PID": [pid] * n,
        "domain": domains[rng.integers(0, 4, n)].tolist(),
        "n_tokens": rng.integers(3, 60, n).tolist(),
        "feature": ["Number"] * n,
        "source_value": np.array(["Sing", "Plur"])[rng.integers(0, 2, n)].tolist(),
    })


def _scores(sentences: list[str], seed: int, *, nulls: int = 0, k: int = 30) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(-4, 1, len(sentences)), 1)  # rounded: ties at the threshold
    values[:nulls] = np.nan
    extra = [f"чужое предложение {i}" for i in range(40)]  # other paradigms' sentences
    return pl.DataFrame({"sentence": sentences + extra, f"mink_{k}": values.tolist() + [-1.0] * 40})


@pytest.fixture()
def files(tmp_path, monkeypatch):
    """Two paradigms in one pool file, two models (one with null scores), slices of 7 rows."""
    monkeypatch.setattr(cf, "SLICE_ROWS", 7)
    pool = pl.concat([_pool(90, "P_a", 1), _pool(60, "P_b", 2)])
    pool = pool.sample(fraction=1.0, shuffle=True, seed=3)  # file order is not id order
    pool.write_parquet(tmp_path / "pool.parquet", row_group_size=20)
    sents = pool["source_sentence"].unique(maintain_order=True).to_list()
    _scores(sents, 4, nulls=3).sample(fraction=1.0, shuffle=True, seed=5).write_parquet(tmp_path / "m1.parquet")
    _scores(sents, 6).write_parquet(tmp_path / "m2.parquet")
    return pool, tmp_path / "pool.parquet", {"m1": tmp_path / "m1.parquet", "m2": tmp_path / "m2.parquet"}


CASES = {
    "exact": dict(n=20),
    "grid": dict(n=25, grid_step=0.5),
    "short pool": dict(n=500),
    "t_max": dict(n=30, t_max=-3.5),
    "no length bins": dict(n=20, length_bins=None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_curate_file_equals_curate(files, case):
    pool, path, scores = files
    options = {"k": 30, "seed": 7, "length_bins": (6, 10, 15, 20, 30, 51), **CASES[case]}
    want, want_report = curate(pool, scores, **options)
    got, report, excluded = curate_file(path, scores, **options)
    assert got.equals(want) and got.columns == want.columns
    assert report == want_report and excluded == {}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_model_equals_curate(files, case):
    # one model takes a path of its own (no per-sentence counters); m1 has null scores
    pool, path, scores = files
    one = {"m1": scores["m1"]}
    options = {"k": 30, "seed": 7, "length_bins": (6, 10, 15, 20, 30, 51), **CASES[case]}
    want, want_report = curate(pool, one, **options)
    got, report, _ = curate_file(path, one, **options)
    assert got.equals(want) and got.columns == want.columns
    assert report == want_report


def test_replacements_of_invalid_pairs_equal_curate(files):
    """Dropped pairs are refilled in the reference's order, from the survivors and then above the threshold."""
    pool, path, scores = files
    base = dict(k=30, n=20, seed=1, length_bins=(6, 10, 15, 20, 30, 51))
    first, _ = curate(pool, scores, **base)
    drop = first["id"].to_list()[::2] + ["P_b:0001", "no such id"]
    want, want_report = curate(pool, scores, **base, drop_invalid=drop)
    got, report, _ = curate_file(path, scores, **base, drop_invalid=drop)
    assert got.equals(want) and report == want_report
    assert any(e.get("replacements") for e in report["paradigms"])
    # so many dropped that the threshold has to rise
    everything = pool["id"].to_list()[:120]
    want, want_report = curate(pool, scores, **base, drop_invalid=everything)
    got, report, _ = curate_file(path, scores, **base, drop_invalid=everything)
    assert got.equals(want) and report == want_report
    assert any("raised" in e["message"] or "exhausted" in e["message"] for e in report["paradigms"])


def test_cascade_lets_a_model_skip_sentences_above_t_max(files, tmp_path):
    pool, path, scores = files
    full = pl.read_parquet(scores["m2"])
    m1 = pl.read_parquet(scores["m1"])
    high = m1.filter(pl.col("mink_30") > -3.0)["sentence"]
    full.filter(~pl.col("sentence").is_in(high.implode())).write_parquet(tmp_path / "m2_cascade.parquet")
    cascade = {"m1": scores["m1"], "m2": tmp_path / "m2_cascade.parquet"}
    options = dict(k=30, n=15, seed=2, length_bins=(6, 10, 15, 20, 30, 51), t_max=-3.0, cascaded=["m2"])
    want, want_report = curate(pool, cascade, **options)
    got, report, _ = curate_file(path, cascade, **options)
    assert got.equals(want) and report == want_report


def test_excluded_pairs_leave_the_pool_first(files):
    pool, path, scores = files
    gone = ["P_a:0003", "P_a:0010", "P_b:0007"]
    exclude = pl.DataFrame({"PID": [g.split(":")[0] for g in gone], "id": gone, "models": ["m1", "m1, m2", "m2"]})
    options = dict(k=30, n=20, seed=3, length_bins=(6, 10, 15, 20, 30, 51))
    want, want_report = curate(pool.filter(~pl.col("id").is_in(gone)), scores, **options)
    got, report, excluded = curate_file(path, scores, **options, exclude=exclude)
    assert got.equals(want) and report == want_report
    assert excluded == {"P_a": (2, {"m1", "m2"}), "P_b": (1, {"m2"})}


def test_what_the_reference_rejects_is_rejected_the_same_way(files, tmp_path, caplog):
    pool, path, scores = files
    options = dict(k=30, n=20, seed=3, length_bins=(6, 10, 15, 20, 30, 51))
    twice = pl.concat([pool, pool.head(1)])
    twice.write_parquet(tmp_path / "twice.parquet")
    with caplog.at_level("INFO", logger="rublimp"), pytest.raises(InputError, match="duplicated id"):
        curate_file(tmp_path / "twice.parquet", scores, **options)
    assert "reference curation" in caplog.text
    short = pl.read_parquet(scores["m2"]).slice(5)
    short.write_parquet(tmp_path / "short.parquet")
    with pytest.raises(InputError, match=r"model 'm2' has no mink_30 score"):
        curate_file(path, {"m1": scores["m1"], "m2": tmp_path / "short.parquet"}, **options)
    pool.with_columns(pl.when(pl.col("id") == "P_a:0005").then(None).otherwise(pl.col("PID")).alias("PID")) \
        .write_parquet(tmp_path / "null.parquet")
    with pytest.raises(InputError, match=r"null value\(s\) in column 'PID'"):
        curate_file(tmp_path / "null.parquet", scores, **options)
    with pytest.raises(InputError, match="lacks column"):
        curate_file(path, {"m1": scores["m1"]}, **{**options, "k": 60})


def test_bad_files_name_the_file(tmp_path):
    (tmp_path / "broken.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(InputError, match="broken.parquet"):
        list(file_slices(str(tmp_path / "broken.parquet"), ["id"], "pool"))
    with pytest.raises(InputError, match="broken.parquet"):
        curate_file(tmp_path / "broken.parquet", {"m": tmp_path / "broken.parquet"}, k=30, n=5, seed=0,
                    length_bins=None)


def test_file_slices_cover_the_file_in_order(tmp_path):
    df = pl.DataFrame({"id": [f"x{i}" for i in range(23)], "v": list(range(23))})
    df.write_parquet(tmp_path / "t.parquet", row_group_size=10)
    parts = list(file_slices(str(tmp_path / "t.parquet"), ["v"], "table", rows=6))
    assert [p.height for p in parts] == [6, 6, 6, 5] and pl.concat(parts)["v"].to_list() == list(range(23))
