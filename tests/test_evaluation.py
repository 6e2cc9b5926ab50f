"""Tests for rublimp.evaluation (pair scoring, statistics, RuCoLA/RuParam views) and rublimp.report."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest, norm, pearsonr

from rublimp.evaluation import (
    acceptability_eval,
    acceptability_items,
    accuracy_by_tag,
    aggregate,
    best_threshold,
    evaluate,
    evaluate_models,
    matthews_corrcoef,
    model_summary,
    penlp,
    phenomenon_summary,
)
from rublimp.io import InputError
from rublimp.report import curation_table, paradigm_filename, write_report


def hand_benchmark() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "id": ["a1", "a2", "a3", "a4", "b1", "b2"],
            "source_sentence": ["Кошка спит.", "Дети играют.", "Он пришёл домой.", "Мы читали книгу.",
                                "Я не видел никого.", "Она купила хлеб."],
            "target_sentence": ["Кошка спят.", "Дети играет.", "Он пришла домой.", "Мы читал книгу.",
                                "Я не видел кого-то.", "Она купил хлеб."],
            "PID": ["agr_num", "agr_num", "agr_gen", "agr_gen", "neg_pron", "agr_gen"],
            "phenomenon": ["AGREEMENT", "AGREEMENT", "AGREEMENT", "AGREEMENT", "NEGATION", "AGREEMENT"],
            "level": ["syntax"] * 4 + ["semantics", "syntax"],
            "subtype": ["verb", "verb", "past", "past", "pron", "past"],
            "n_tokens": [3, 3, 4, 4, 5, 4],
        }
    )


def hand_scores() -> pl.DataFrame:
    rows = [
        # a1: correct by both criteria, Δ = 2
        ("Кошка спит.", -10.0, 4), ("Кошка спят.", -12.0, 4),
        # a2: tie by sum (both -15), per-token: good -15/5 = -3 > bad -15/6 = -2.5? no: -3 < -2.5 -> wrong
        ("Дети играют.", -15.0, 5), ("Дети играет.", -15.0, 6),
        # a3: wrong by sum (Δ = -1) but right per token: -21/7 = -3 > -20/5 = -4
        ("Он пришёл домой.", -21.0, 7), ("Он пришла домой.", -20.0, 5),
        # a4: correct by sum (Δ = 4), per-token tie: -16/4 = -4 = -20/5
        ("Мы читали книгу.", -16.0, 4), ("Мы читал книгу.", -20.0, 5),
        # b1: correct both, Δ = 3
        ("Я не видел никого.", -18.0, 6), ("Я не видел кого-то.", -21.0, 6),
        # b2: wrong both, Δ = -0.5
        ("Она купила хлеб.", -13.0, 5), ("Она купил хлеб.", -12.5, 5),
        # an unrelated sentence is allowed
        ("Лишнее предложение.", -9.0, 3),
    ]
    return pl.DataFrame(rows, schema=["sentence", "sum_logprob", "n_tokens"], orient="row").with_columns(
        pl.lit(-2.0).alias("mink_60"), pl.lit("<s>").alias("first_token")
    )


# --------------------------------------------------------------------------- per-pair evaluation


def test_evaluate_hand_case():
    res = evaluate(hand_benchmark(), hand_scores(), model="toy")
    assert res["id"].to_list() == ["a1", "a2", "a3", "a4", "b1", "b2"]
    assert res["model"].unique().to_list() == ["toy"]
    assert res["delta"].to_list() == [2.0, 0.0, -1.0, 4.0, 3.0, -0.5]
    assert res["correct_sum"].to_list() == [True, False, False, True, True, False]
    assert res["tie_sum"].to_list() == [False, True, False, False, False, False]
    assert res["correct_ppl"].to_list() == [True, False, True, False, True, False]
    assert res["tie_ppl"].to_list() == [False, False, False, True, False, False]
    assert res["good_lm_tokens"].to_list() == [4, 5, 7, 4, 6, 5]
    assert res["bad_lm_tokens"].to_list() == [4, 6, 5, 5, 6, 5]
    assert res["n_tokens"].to_list() == [3, 3, 4, 4, 5, 4]  # the benchmark's word count is kept
    assert res["good_mean_logprob"][2] == pytest.approx(-3.0)


def test_evaluate_missing_score_names_model():
    scores = hand_scores().filter(pl.col("sentence") != "Он пришла домой.")
    with pytest.raises(InputError, match=r"model 'ruGPT'.*1 benchmark sentence.*a3"):
        evaluate(hand_benchmark(), scores, model="ruGPT")
    with pytest.raises(InputError, match="sum_logprob"):
        evaluate(hand_benchmark(), hand_scores().drop("sum_logprob"), model="m")
    with pytest.raises(InputError, match="target_sentence"):
        evaluate(hand_benchmark().drop("target_sentence"), hand_scores(), model="m")
    bad = hand_scores().with_columns(
        pl.when(pl.col("sentence") == "Кошка спит.").then(float("nan")).otherwise(pl.col("sum_logprob")).alias("sum_logprob")
    )
    with pytest.raises(InputError, match="NaN"):
        evaluate(hand_benchmark(), bad, model="m")
    with pytest.raises(InputError, match="not unique"):
        evaluate(pl.concat([hand_benchmark(), hand_benchmark().head(1)]), hand_scores(), model="m")
    # a broken score for a sentence outside the benchmark is irrelevant
    extra = pl.concat([hand_scores(), hand_scores().head(1).with_columns(
        pl.lit("Посторонняя строка.").alias("sentence"), pl.lit(None, pl.Float64).alias("sum_logprob"))])
    assert evaluate(hand_benchmark(), extra, model="m").height == 6


def test_aggregate_statistics_match_scipy_and_hand_values():
    res = evaluate(hand_benchmark(), hand_scores(), model="toy")
    agg = aggregate(res)
    assert agg["PID"].to_list() == ["neg_pron", "agr_gen", "agr_num"]  # sorted by level, phenomenon, PID
    gen = agg.filter(pl.col("PID") == "agr_gen").row(0, named=True)
    # agr_gen = a3 (wrong, ppl right), a4 (right, ppl tie), b2 (wrong both)
    assert (gen["n"], gen["n_correct_sum"], gen["n_correct_ppl"], gen["n_ties_sum"], gen["n_ties_ppl"]) == (3, 1, 1, 0, 1)
    assert gen["accuracy_sum"] == pytest.approx(1 / 3)
    assert gen["delta_mean"] == pytest.approx((-1.0 + 4.0 - 0.5) / 3)
    assert gen["delta_std"] == pytest.approx(float(np.std([-1.0, 4.0, -0.5], ddof=1)))
    assert gen["p_value"] == pytest.approx(binomtest(1, 3, 0.5, alternative="greater").pvalue)
    assert gen["p_value"] == pytest.approx(7 / 8)  # P(X >= 1), X ~ Bin(3, 1/2)
    num = agg.filter(pl.col("PID") == "agr_num").row(0, named=True)
    assert (num["n_correct_sum"], num["n_ties_sum"], num["accuracy_sum"]) == (1, 1, 0.5)  # tie is an error
    neg = agg.filter(pl.col("PID") == "neg_pron").row(0, named=True)
    assert neg["n"] == 1 and neg["delta_std"] is None and neg["p_value"] == pytest.approx(0.5)


@pytest.mark.parametrize("k,n", [(0, 10), (7, 10), (10, 10), (612, 1000)])
def test_wilson_interval_matches_formula(k, n):
    res = pl.DataFrame(
        {"model": ["m"] * n, "PID": ["p"] * n, "correct_sum": [i < k for i in range(n)],
         "correct_ppl": [False] * n, "tie_sum": [False] * n, "tie_ppl": [False] * n, "delta": [0.0] * n}
    )
    row = aggregate(res).row(0, named=True)
    z = norm.ppf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert row["ci_low"] == pytest.approx(max(0.0, centre - half), abs=1e-9)
    assert row["ci_high"] == pytest.approx(min(1.0, centre + half), abs=1e-9)
    assert row["p_value"] == pytest.approx(binomtest(k, n, 0.5, alternative="greater").pvalue)


def test_phenomenon_and_model_summaries_are_macro_averages():
    res = evaluate(hand_benchmark(), hand_scores(), model="toy")
    agg = aggregate(res)
    phen = phenomenon_summary(agg)
    agreement = phen.filter(pl.col("phenomenon") == "AGREEMENT").row(0, named=True)
    # macro over agr_gen (1/3) and agr_num (1/2), not the micro 2/5
    assert agreement["accuracy_sum"] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert (agreement["n_paradigms"], agreement["n_pairs"]) == (2, 5)
    overall = model_summary(agg).row(0, named=True)
    assert overall["accuracy_sum"] == pytest.approx((1 / 3 + 1 / 2 + 1.0) / 3)


def test_evaluate_models_concatenates_sorted():
    scores_b = hand_scores().with_columns(pl.col("sum_logprob") * 2)
    res = evaluate_models(hand_benchmark(), {"zeta": hand_scores(), "alpha": scores_b})
    assert res["model"].to_list() == ["alpha"] * 6 + ["zeta"] * 6
    assert res.filter(pl.col("model") == "alpha")["delta"].to_list() == [4.0, 0.0, -2.0, 8.0, 6.0, -1.0]


# --------------------------------------------------------------------------- RuCoLA-style


def test_penlp_formula():
    assert penlp(-12.0, 7) == pytest.approx(-6.0)
    assert penlp(-12.0, 7, alpha=2.0) == pytest.approx(-3.0)
    assert penlp(-12.0, 1, alpha=0.0) == pytest.approx(-12.0)
    np.testing.assert_allclose(penlp(np.array([-6.0, -22.0]), np.array([1, 6])), [-6.0, -12.0])


def test_mcc_matches_phi_coefficient():
    rng = np.random.default_rng(0)
    for _ in range(5):
        t = rng.integers(0, 2, 50)
        p = rng.integers(0, 2, 50)
        assert matthews_corrcoef(t, p) == pytest.approx(pearsonr(t, p).statistic)
    assert matthews_corrcoef([1, 1, 0], [1, 1, 1]) == 0.0  # undefined -> 0


def test_best_threshold_exact():
    scores = np.array([-1.0, -2.0, -3.0, -4.0, -5.0, -6.0])
    labels = np.array([1, 1, 0, 1, 0, 0])
    thr, mcc = best_threshold(scores, labels)
    # cuts: top-2 -> MCC 0.707, top-4 -> 0.5; best is between -2 and -3
    assert thr == pytest.approx(-2.5)
    assert mcc == pytest.approx(matthews_corrcoef(labels, scores > thr))
    assert mcc == pytest.approx(1 / math.sqrt(2))
    thr_sep, mcc_sep = best_threshold(np.array([5.0, 4.0, 1.0, 0.0]), np.array([1, 1, 0, 0]))
    assert (thr_sep, mcc_sep) == (2.5, 1.0)


def test_best_threshold_never_cuts_between_equal_scores():
    scores = np.array([-1.0, -2.0, -2.0, -3.0])
    labels = np.array([1, 1, 0, 0])
    thr, mcc = best_threshold(scores, labels)
    # splitting the two -2.0 items is impossible; both valid cuts give MCC 2/sqrt(12), the higher wins
    assert thr == pytest.approx(-1.5)
    assert mcc == pytest.approx(2 / math.sqrt(12))
    assert mcc == pytest.approx(matthews_corrcoef(labels, scores > thr))


def separable_results(n_pairs: int = 200) -> pl.DataFrame:
    """Pairs where every grammatical sentence is far more probable than every ungrammatical one."""
    rng = np.random.default_rng(1)
    ids = [f"x{i:04d}" for i in range(n_pairs)]
    bench = pl.DataFrame(
        {"id": ids, "source_sentence": [f"хорошо {i}" for i in ids], "target_sentence": [f"плохо {i}" for i in ids],
         "PID": ["p"] * n_pairs, "phenomenon": ["X"] * n_pairs, "subtype": ["s"] * n_pairs}
    )
    lengths = rng.integers(4, 20, n_pairs)
    good = pl.DataFrame({"sentence": bench["source_sentence"], "sum_logprob": -1.0 * lengths, "n_tokens": lengths})
    bad = pl.DataFrame({"sentence": bench["target_sentence"], "sum_logprob": -5.0 * lengths, "n_tokens": lengths})
    return evaluate(bench, pl.concat([good, bad]), model="sep")


def test_acceptability_eval_separable_and_split_by_pair():
    res = separable_results()
    items = acceptability_items(res)
    assert items.height == 400 and items["label"].sum() == 200
    out = acceptability_eval(res, dev_fraction=0.3, seed=5)
    row = out.row(0, named=True)
    assert row["test_mcc"] == pytest.approx(1.0) and row["test_accuracy"] == pytest.approx(1.0)
    assert row["dev_mcc"] == pytest.approx(1.0)
    assert row["n_dev"] % 2 == 0 and row["n_dev"] + row["n_test"] == 400  # both sentences of a pair together
    assert 0.2 < row["n_dev"] / 400 < 0.4
    assert out.equals(acceptability_eval(res, dev_fraction=0.3, seed=5))
    with pytest.raises(InputError, match="dev_fraction"):
        acceptability_eval(res, dev_fraction=1.5)


def test_acceptability_eval_on_chance_level_data_is_near_zero():
    rng = np.random.default_rng(2)
    res = separable_results(400)
    noisy = res.with_columns(
        pl.Series("good_logprob", rng.normal(-30, 5, res.height)),
        pl.Series("bad_logprob", rng.normal(-30, 5, res.height)),
    )
    row = acceptability_eval(noisy, seed=0).row(0, named=True)
    assert abs(row["test_mcc"]) < 0.2


# --------------------------------------------------------------------------- RuParam-style


def test_accuracy_by_tag_ranks_errors():
    res = evaluate(hand_benchmark(), hand_scores(), model="toy")
    tags = accuracy_by_tag(res, tags="subtype", top=1)
    got = {r["subtype"]: (r["n"], r["n_correct"], r["error_rank"], r["top_error"]) for r in tags.iter_rows(named=True)}
    # past: a3 no, a4 yes, b2 no -> 1/3; verb: a1 yes, a2 tie -> 1/2; pron: 1/1
    assert got == {"past": (3, 1, 1, True), "verb": (2, 1, 2, False), "pron": (1, 1, 3, False)}
    with pytest.raises(InputError, match="feature"):
        accuracy_by_tag(res, tags=["feature"])


# --------------------------------------------------------------------------- report


def two_model_results() -> pl.DataFrame:
    stronger = hand_scores().with_columns(
        pl.when(pl.col("sentence").is_in(["Он пришла домой.", "Она купил хлеб.", "Дети играет."]))
        .then(pl.col("sum_logprob") - 10.0)
        .otherwise(pl.col("sum_logprob"))
        .alias("sum_logprob")
    )
    return evaluate_models(hand_benchmark(), {"toy": hand_scores(), "big": stronger})


def curation_report() -> dict:
    return {
        "k": 60, "n": 1000, "seed": 0, "models": ["big", "toy"],
        "paradigms": [
            {"paradigm": "neg_pron", "pool": 12, "scored": 12, "threshold": -1.25, "survivors": 12,
             "selected": 12, "short_pool": True, "message": "short pool: only 12 scored pair(s)"},
            {"paradigm": "agr_gen", "pool": 52000, "scored": 51990, "threshold": -3.456789, "survivors": 1003,
             "selected": 1000, "short_pool": False, "message": ""},
        ],
    }


def test_write_report_files_and_numbers(tmp_path):
    out = tmp_path / "report"
    written = write_report(two_model_results(), curation_report(), out)
    for name in ("summary.md", "results.csv", "results.parquet", "phenomena.csv", "curation.csv",
                 "accuracy_by_phenomenon.png", "delta_hist.png", "acceptability.csv", "tags.csv",
                 "paradigms/agr_gen.csv", "paradigms/agr_num.csv", "paradigms/neg_pron.csv"):
        assert (out / name).is_file(), name
        assert written[name] == out / name
    assert (out / "accuracy_by_phenomenon.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in out.rglob("*.tmp")]

    summary = (out / "summary.md").read_text(encoding="utf-8")
    # toy: AGREEMENT = mean(1/3, 1/2) = 41.67, NEGATION = 100, overall = mean(1/3, 1/2, 1) = 61.11
    # big: every pair correct -> 100 everywhere
    assert "| Model | NEGATION | AGREEMENT | Overall |" in summary  # ordered by level, then phenomenon
    assert "| toy | 100.00 | 41.67 | 61.11 |" in summary
    assert "| big | 100.00 | 100.00 | 100.00 |" in summary
    assert "| syntax | AGREEMENT | agr_gen | 3 | 100.00† | 33.33† |" in summary  # n=3 is never significant
    assert "| agr_gen | 52000 | 51990 | -3.4568 | 1003 | 1000 | no |" in summary
    assert "| neg_pron | 12 | 12 | -1.2500 | 12 | 12 | yes |" in summary
    assert "RuCoLA-style" in summary and "RuParam-style" in summary
    assert "| past | 100.00 + | 33.33 + | 2 |" in summary and "| verb | 100.00 + | 50.00 + | 2 |" in summary

    per_paradigm = pl.read_csv(out / "paradigms" / "agr_gen.csv")
    assert per_paradigm["model"].to_list() == ["big", "toy"]
    assert per_paradigm["accuracy_sum"].to_list() == pytest.approx([1.0, 1 / 3])
    results = pl.read_parquet(out / "results.parquet")
    assert results.height == 6 and results.equals(aggregate(two_model_results()).sort(["model", "level", "phenomenon", "PID"]))


def test_write_report_is_deterministic_and_accepts_aggregates(tmp_path):
    res = two_model_results()
    write_report(res, curation_report(), tmp_path / "a")
    write_report(res.sample(fraction=1.0, shuffle=True, seed=3), [curation_report()], tmp_path / "b")
    for name in ("summary.md", "results.csv", "phenomena.csv", "curation.csv", "tags.csv",
                 "acceptability.csv", "paradigms/agr_num.csv", "accuracy_by_phenomenon.png", "delta_hist.png"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    # a looser significance level drops the † on 3/3 (p = 0.125)
    loose = write_report(res, None, tmp_path / "loose", alpha=0.2)["summary.md"].read_text(encoding="utf-8")
    assert "| syntax | AGREEMENT | agr_gen | 3 | 100.00 | 33.33† |" in loose
    with pytest.raises(InputError, match="evaluation.alpha"):
        write_report(res, None, tmp_path / "bad", alpha=1.5)
    assert not (tmp_path / "bad").exists()
    # aggregated input (no per-pair views) and no curation reports
    written = write_report(aggregate(res), None, tmp_path / "c")
    assert "acceptability.csv" not in written and "curation.csv" not in written
    summary = (tmp_path / "c" / "summary.md").read_text(encoding="utf-8")
    assert "| toy | 100.00 | 41.67 | 61.11 |" in summary and "Curation" not in summary
    with pytest.raises(InputError, match="accuracy_sum"):
        write_report(aggregate(res).drop("accuracy_sum"), None, tmp_path / "d")


def test_curation_table_and_filenames():
    table = curation_table(curation_report())
    assert table["paradigm"].to_list() == ["agr_gen", "neg_pron"]
    with pytest.raises(InputError, match="more than once"):
        curation_table([curation_report(), curation_report()])
    assert paradigm_filename("agr/num gen") == "agr_num_gen.csv"
    assert paradigm_filename("согласование") == "согласование.csv"


# --------------------------------------------------------------------------- McNemar's exact test (issue 19)


def _right(model: str, pid: str, rights: list[bool]) -> list[dict]:
    return [{"model": model, "id": f"{pid}_{i}", "PID": pid, "correct_sum": r} for i, r in enumerate(rights)]


def mcnemar_fixture() -> pl.DataFrame:
    rows = []
    # p1 (10 pairs): A right on all, B on the first 2, C on all but the last
    rows += _right("A", "p1", [True] * 10) + _right("B", "p1", [True] * 2 + [False] * 8)
    rows += _right("C", "p1", [True] * 9 + [False])
    # p2 (6 pairs): A right on the first half, B on the second, C on all
    rows += _right("A", "p2", [True] * 3 + [False] * 3) + _right("B", "p2", [False] * 3 + [True] * 3)
    rows += _right("C", "p2", [True] * 6)
    return pl.DataFrame(rows)


def test_mcnemar_exact_and_holm_by_hand():
    from rublimp.evaluation import holm, mcnemar_exact

    assert mcnemar_exact(8, 0) == pytest.approx(2 / 2**8)
    assert mcnemar_exact(11, 3) == pytest.approx(2 * (1 + 14 + 91 + 364) / 2**14)
    assert mcnemar_exact(3, 3) == 1.0 and mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(1, 0) == 1.0
    # sorted 0.01, 0.02, 0.04 -> 3*0.01, max(0.03, 2*0.02), max(0.04, 0.04); order kept; capped at 1
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])


def test_pairwise_mcnemar_per_paradigm_and_overall_by_hand():
    from rublimp.evaluation import pairwise_mcnemar

    comp = pairwise_mcnemar(mcnemar_fixture())
    got = {(r["scope"], r["model_a"], r["model_b"]): r for r in comp.iter_rows(named=True)}
    assert comp["scope"].to_list()[:3] == ["(overall)"] * 3 and comp.height == 9
    expect = {  # (b, c, p, Holm p): b = only A right, c = only B right
        ("(overall)", "A", "B"): (11, 3, 940 / 2**14, 2 * 940 / 2**14),
        ("(overall)", "A", "C"): (1, 3, 10 / 16, 10 / 16),
        ("(overall)", "B", "C"): (0, 10, 2 / 2**10, 3 * 2 / 2**10),
        ("p1", "A", "B"): (8, 0, 2 / 2**8, 6 * 2 / 2**8),
        ("p1", "A", "C"): (1, 0, 1.0, 1.0),
        ("p1", "B", "C"): (0, 7, 2 / 2**7, 5 * 2 / 2**7),
        ("p2", "A", "B"): (3, 3, 1.0, 1.0),
        ("p2", "A", "C"): (0, 3, 0.25, 1.0),
        ("p2", "B", "C"): (0, 3, 0.25, 1.0),
    }
    for k, (b, c, p, p_holm) in expect.items():
        r = got[k]
        assert (r["b"], r["c"]) == (b, c), k
        assert r["p_value"] == pytest.approx(p) and r["p_holm"] == pytest.approx(p_holm), k
    assert got[("(overall)", "A", "B")]["n"] == 16
    assert got[("p1", "A", "B")]["accuracy_a"] == 1.0 and got[("p1", "A", "B")]["accuracy_b"] == pytest.approx(0.2)


def test_report_has_the_mcnemar_section(tmp_path):
    res = two_model_results()
    write_report(res, None, tmp_path)
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "## Pairwise model comparison (McNemar's exact test)" in summary
    comp = pl.read_csv(tmp_path / "comparisons.csv")
    overall = comp.filter(pl.col("scope") == "(overall)").row(0, named=True)
    # big is right on all 6 pairs, toy on a1, a4, b1 only (a2 tie, a3 and b2 wrong): 3 discordant, p = 2/8
    assert (overall["model_a"], overall["model_b"], overall["b"], overall["c"]) == ("big", "toy", 3, 0)
    assert overall["p_value"] == pytest.approx(0.25)
    assert "| big | toy | 6 | 100.00 | 50.00 | 3 | 0 | 0.25 | 0.25 |" in summary
