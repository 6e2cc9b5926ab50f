"""Metalinguistic prompting (RuParam) and PenLP/SLOR acceptability (RuCoLA) on a tiny random GPT-2."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
import torch

from rublimp.acceptability import (
    bootstrap_mcc,
    count_unigrams,
    read_items_csv,
    slor,
    threshold_eval,
    unigram_logprobs,
)
from rublimp.io import InputError
from rublimp.metaling import OptionScorer, build_prompts, metalinguistic_eval, summarise
from rublimp.scoring.hf import HFCausalScorer

TEXTS = [
    "Кошка спит на диване.", "Кошки спят на диване.", "Мальчик читает книгу.", "Мальчики читают книги.",
    "Какое из двух предложений грамматически правильно?", "Ответ: 1", "Ответ: 2",
    "Старая учительница вошла в класс.", "Мы долго говорили о новом проекте.",
]


@pytest.fixture(scope="module")
def tiny():
    """A random 2-layer GPT-2 and a byte-level BPE tokenizer trained on a few sentences."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(TEXTS * 3, trainer=trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<s>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="<s>", pad_token="<s>")
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=len(tok), n_positions=256, n_embd=32, n_layer=2, n_head=2, initializer_range=0.3)
    model = GPT2LMHeadModel(cfg).eval()
    return model, tok


@pytest.fixture(scope="module")
def scorer(tiny):
    model, tok = tiny
    return HFCausalScorer.from_model(model, tok, name="tiny", device="cpu", batch_tokens=256)


PAIRS = pl.DataFrame({
    "id": ["a1", "a2", "b1"], "PID": ["pa", "pa", "pb"],
    "source_sentence": ["Кошка спит на диване.", "Мальчик читает книгу.", "Мы долго говорили о новом проекте."],
    "target_sentence": ["Кошка спят на диване.", "Мальчик читают книгу.", "Мы долго говорили о новым проекте."],
    "correct_sum": [True, False, True],
})


def _reference(model, ids: list[int], label_ids: list[int]) -> float:
    """log P(label | prompt), one sequence at a time, no padding."""
    seq = torch.tensor([ids + label_ids])
    with torch.no_grad():
        logp = torch.log_softmax(model(seq).logits[0].float(), dim=-1)
    return float(sum(logp[len(ids) - 1 + t, tid] for t, tid in enumerate(label_ids)))


def test_prompts_in_both_orders():
    p = build_prompts(PAIRS.head(1), "1) {first} 2) {second} ?")
    assert p["order"].to_list() == ["good_first", "bad_first"]
    assert p["prompt"].to_list() == ["1) Кошка спит на диване. 2) Кошка спят на диване. ?",
                                     "1) Кошка спят на диване. 2) Кошка спит на диване. ?"]
    assert p["correct_option"].to_list() == [0, 1]
    with pytest.raises(InputError, match="metalinguistic.template must contain {second}"):
        build_prompts(PAIRS, "Which? {first}")


@pytest.mark.parametrize("labels", [(" 1", " 2"), (" первое", " второе")])
def test_option_logprobs_match_one_by_one_reference(tiny, scorer, labels):
    model, tok = tiny
    opt = OptionScorer(scorer, labels=labels)
    prompts = build_prompts(PAIRS)["prompt"].to_list()
    ids = [opt.prompt_ids(p) for p in prompts]
    assert all(x[0] == tok.bos_token_id for x in ids)
    got = opt.score(ids)
    for i, x in enumerate(ids):
        for j, lab in enumerate(opt.label_ids):
            assert got[i, j] == pytest.approx(_reference(model, x, lab), abs=1e-4)
    if any(len(x) > 1 for x in opt.label_ids):
        assert opt.label_ids != [[t] for t in (opt.label_ids[0][0], opt.label_ids[1][0])]


def test_chat_template_is_applied_when_the_tokenizer_has_one(tiny):
    model, tok = tiny
    chat_tok = tok.__class__(tokenizer_object=tok.backend_tokenizer, bos_token="<s>", eos_token="<s>",
                             pad_token="<s>")
    chat_tok.chat_template = ("{% for m in messages %}<s>user: {{ m['content'] }}\n{% endfor %}"
                              "{% if add_generation_prompt %}assistant:{% endif %}")
    sc = HFCausalScorer.from_model(model, chat_tok, name="chat", device="cpu")
    opt = OptionScorer(sc)
    assert opt.use_chat and opt.labels == ["1", "2"]
    text = chat_tok.decode(opt.prompt_ids("Вопрос"))
    assert text.startswith("<s>user: Вопрос") and text.endswith("assistant:")
    assert not OptionScorer(sc, chat_template="never").use_chat
    with pytest.raises(InputError, match="has no chat template"):
        OptionScorer(HFCausalScorer.from_model(model, tok, name="plain", device="cpu"), chat_template="always")


def test_metalinguistic_eval_and_summary(scorer):
    opt = OptionScorer(scorer)
    res = metalinguistic_eval(PAIRS, opt, model="tiny", pairs_per_paradigm=5)
    assert res.height == 6 and set(res["order"]) == {"good_first", "bad_first"}
    chosen = np.where(res["lp_option1"].to_numpy() >= res["lp_option2"].to_numpy(), 0, 1)
    assert res["answer"].to_list() == chosen.tolist()
    assert res["correct"].to_list() == (chosen == res["correct_option"].to_numpy()).tolist()
    s = summarise(res).row(0, named=True)
    assert s["n_pairs"] == 3
    gf = res.filter(pl.col("order") == "good_first")["correct"].mean()
    assert s["acc_good_first"] == pytest.approx(gf)
    assert s["position_bias"] == pytest.approx(float(np.mean(chosen == 0)) - 0.5)


def test_summary_arithmetic_of_an_always_first_answerer():
    # answers "1" whatever the order: right when the grammatical sentence is first, wrong otherwise
    rows = []
    for pid, verdict in (("x", True), ("y", False)):
        rows += [{"model": "m", "PID": "p", "id": pid, "order": "good_first", "correct_option": 0, "answer": 0,
                  "correct": True, "margin": 2.0, "correct_sum": verdict},
                 {"model": "m", "PID": "p", "id": pid, "order": "bad_first", "correct_option": 1, "answer": 0,
                  "correct": False, "margin": -1.0, "correct_sum": verdict}]
    s = summarise(pl.DataFrame(rows)).row(0, named=True)
    assert (s["acc_good_first"], s["acc_bad_first"], s["acc_both"]) == (1.0, 0.0, 0.0)
    assert s["position_bias"] == 0.5
    assert s["acc_debiased"] == 1.0  # mean margin +0.5 > 0
    assert s["agree_prob"] == 0.5


def test_prompts_longer_than_the_context_are_skipped(tiny, scorer):
    model, tok = tiny
    template = "{first} / {second}:"
    full = OptionScorer(scorer)
    need = {}
    for r in build_prompts(PAIRS, template).iter_rows(named=True):
        need[r["id"]] = max(need.get(r["id"], 0), len(full.prompt_ids(r["prompt"])) + 1)
    longest = max(need, key=need.get)
    sc = HFCausalScorer.from_model(model, tok, name="short", device="cpu", max_length=need[longest] - 1)
    res = metalinguistic_eval(PAIRS, OptionScorer(sc), model="short", template=template)
    assert set(res["id"]) == set(need) - {longest}


def test_pairs_too_long_for_the_context_are_counted_in_the_log_and_the_report(tiny, scorer, caplog):
    """Issue 19: summary.md said "Pairs 39" when 19 of 58 pairs were skipped as too long."""
    from rublimp.metaling import summary_record
    from rublimp.report import metalinguistic_section

    model, tok = tiny
    template = "{first} / {second}:"
    full = OptionScorer(scorer)
    need = {}
    for r in build_prompts(PAIRS, template).iter_rows(named=True):
        need[r["id"]] = max(need.get(r["id"], 0), len(full.prompt_ids(r["prompt"])) + 1)
    longest = max(need, key=need.get)
    sc = HFCausalScorer.from_model(model, tok, name="short", device="cpu", max_length=need[longest] - 1)
    with caplog.at_level("WARNING", logger="rublimp"):
        res, counts = metalinguistic_eval(PAIRS, OptionScorer(sc), model="short", template=template,
                                          return_counts=True)
    assert (counts["candidates"], counts["too_long"], counts["asked"]) == (3, 1, 2)
    pid = PAIRS.filter(pl.col("id") == longest)["PID"][0]
    assert counts["paradigms"][pid]["too_long"] == 1
    assert "1 of 3 candidate pairs skipped: prompt longer than the model's context" in caplog.text
    info = summary_record(res, counts, model="short", chat_template=False, labels=[" 1", " 2"], template=template,
                          pairs_in_benchmark=3, pairs_per_paradigm=50)
    assert info["skipped_by_paradigm"] == {pid: 1}
    text = metalinguistic_section([info])
    assert "| short | 2 of 3 |" in text
    assert "Pairs 2 of 3; 1 skipped: longer than the model's context" in text


# --------------------------------------------------------------------------- acceptability


def test_slor_and_unigram_logprob_by_hand(tiny):
    _, tok = tiny
    counts = count_unigrams(["Кошка спит.", "Кошка спит."], tok)
    ids = tok("Кошка спит.", add_special_tokens=False)["input_ids"]
    assert dict(zip(counts["token_id"], counts["count"])) == {t: 2 * ids.count(t) for t in set(ids)}
    total, vocab = 2 * len(ids), len(tok)
    expected = sum(math.log((2 * ids.count(t) + 1) / (total + vocab)) for t in ids)
    assert unigram_logprobs(["Кошка спит."], tok, counts)[0] == pytest.approx(expected)
    assert slor(-10.0, -14.0, 4) == pytest.approx(1.0)


def test_unigram_stage_streams_the_sentence_table(tiny, tmp_path):
    """The corpus is read a record batch at a time: same counts as counting the whole column at once."""
    from rublimp.acceptability import _texts, unigram_stage

    _, tok = tiny
    tok.save_pretrained(tmp_path / "tok")
    texts = [f"{t} {i}" for i, t in enumerate(TEXTS * 5)]
    table = tmp_path / "sentences.parquet"
    pl.DataFrame({"sent_id": list(range(len(texts))), "text": texts}).write_parquet(table, row_group_size=3)
    assert list(_texts(table, batch_rows=2)) == texts
    out = tmp_path / "counts.parquet"
    assert unigram_stage(table, {"name": "tiny", "path": str(tmp_path / "tok")}, out) > 0
    assert pl.read_parquet(out).equals(count_unigrams(texts, tok))


def test_threshold_eval_and_bootstrap():
    rng = np.random.default_rng(0)
    n = 400
    label = rng.integers(0, 2, n)
    score = label + rng.normal(0, 0.6, n)
    items = pl.DataFrame({"label": label, "penlp": score, "slor": rng.normal(size=n), "dev": np.arange(n) % 2 == 0})
    t = threshold_eval(items, n_boot=300, seed=1)
    pen, sl = t.row(0, named=True), t.row(1, named=True)
    assert pen["measure"] == "penlp" and pen["test_mcc"] > 0.5 and abs(sl["test_mcc"]) < 0.2
    assert pen["mcc_ci_low"] < pen["test_mcc"] < pen["mcc_ci_high"]
    assert t.equals(threshold_eval(items, n_boot=300, seed=1))  # seeded
    assert bootstrap_mcc(np.array([1, 0, 1, 0]), np.array([1, 0, 1, 0]), n_boot=50) == (1.0, 1.0)


def test_items_csv_errors_name_file_and_line(tmp_path):
    f = tmp_path / "items.csv"
    f.write_text("id,sentence\n1,Кошка спит.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"items\.csv:1: header lacks column\(s\) acceptable \(a labelled file"):
        read_items_csv(f, labelled=True)
    assert read_items_csv(f)["label"].to_list() == [None]  # unlabelled: RuCoLA's test set
    f.write_text("id,text\n1,Кошка спит.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"items\.csv:1: header lacks column\(s\) sentence"):
        read_items_csv(f)
    f.write_text("sentence,acceptable\nКошка спит.,1\nКошка спят.,yes\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"items\.csv:3: acceptable must be 0 or 1"):
        read_items_csv(f)
    f.write_bytes("sentence,acceptable\n".encode() + "Кошка спят.,0\n".encode("cp1251"))
    with pytest.raises(InputError, match=r"items\.csv:2: not valid UTF-8"):
        read_items_csv(f)


def test_cli_scores_a_rucola_style_csv(tiny, tmp_path):
    from rublimp.__main__ import main

    model, tok = tiny
    model.save_pretrained(tmp_path / "lm")
    tok.save_pretrained(tmp_path / "lm")
    f = tmp_path / "items.csv"
    lines = ["id,sentence,acceptable,source"]
    for i, (g, b) in enumerate(zip(PAIRS["source_sentence"], PAIRS["target_sentence"])):
        lines += [f"{2 * i},{g},1,x", f"{2 * i + 1},{b},0,x"]
    f.write_text("\n".join(lines * 1) + "\n", encoding="utf-8")
    (tmp_path / "corpus.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    rc = main(["acceptability", "--model", str(tmp_path / "lm"), "--input", str(f), "--dev", str(f),
               "--corpus", str(tmp_path / "corpus.txt"), "--output", str(tmp_path / "out.csv"),
               "--items-output", str(tmp_path / "items_out.csv"), "--bootstrap", "100"])
    assert rc == 0
    out = pl.read_csv(tmp_path / "out.csv")
    assert out["measure"].to_list() == ["penlp", "slor"] and out["n_test"].to_list() == [6, 6]
    items = pl.read_csv(tmp_path / "items_out.csv")
    row = items.row(0, named=True)
    assert row["slor"] == pytest.approx((row["logprob"] - row["unigram_logprob"]) / row["lm_tokens"])
    assert main(["acceptability", "--model", str(tmp_path / "lm"), "--input", str(tmp_path / "nope.csv")]) == 2


def test_cli_scores_an_unlabelled_file_and_skips_over_long_items(tiny, tmp_path, capsys):
    """Defect 6 (issue 19): an unlabelled file (RuCoLA's test.csv: no `acceptable`) gets predictions from
    the dev thresholds, and an item longer than the model's context is skipped with a count instead of
    rejecting the whole file."""
    from rublimp.__main__ import main

    model, tok = tiny
    model.save_pretrained(tmp_path / "lm")
    tok.save_pretrained(tmp_path / "lm")
    long_sentence = " ".join(["Мы долго говорили о новом проекте и о старом доме."] * 30)
    assert len(tok(long_sentence, add_special_tokens=False)["input_ids"]) > model.config.n_positions
    dev = tmp_path / "dev.csv"
    lines = ["id,sentence,acceptable,source"]
    for i, (g, b) in enumerate(zip(PAIRS["source_sentence"], PAIRS["target_sentence"])):
        lines += [f"{2 * i},{g},1,x", f"{2 * i + 1},{b},0,x"]
    lines.append(f"99,{long_sentence},1,x")  # over-long in the labelled file too
    dev.write_text("\n".join(lines) + "\n", encoding="utf-8")
    test = tmp_path / "test.csv"
    test.write_text("id,sentence,source\n0,Кошка спит на диване.,x\n1,Кошки спят на диване.,x\n"
                    f"2,{long_sentence},x\n3,Мальчики читают книги.,x\n", encoding="utf-8")
    (tmp_path / "corpus.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    rc = main(["acceptability", "--model", str(tmp_path / "lm"), "--input", str(test), "--dev", str(dev),
               "--corpus", str(tmp_path / "corpus.txt"), "--output", str(tmp_path / "out.csv"),
               "--items-output", str(tmp_path / "items_out.csv"), "--bootstrap", "50"])
    assert rc == 0
    err = capsys.readouterr().err
    assert "2 of 11 item(s) skipped" in err and "(dev line(s) 8; input line(s) 4;" in err
    out = pl.read_csv(tmp_path / "out.csv")
    assert out["n_dev"].to_list() == [6, 6] and out["n_unlabelled"].to_list() == [3, 3]
    assert out["n_test"].to_list() == [0, 0] and out["threshold"].null_count() == 0
    assert out["test_mcc"].null_count() == 2  # no labels, no MCC
    items = pl.read_csv(tmp_path / "items_out.csv", infer_schema_length=None)
    test_items = items.filter(~pl.col("dev")).sort("line")
    assert test_items["line"].to_list() == [2, 3, 4, 5]
    assert test_items["pred_penlp"].to_list()[:2] + test_items["pred_penlp"].to_list()[3:] != [None] * 3
    assert test_items["pred_penlp"].null_count() == 1 and test_items["skipped"].null_count() == 3
    (reason,) = test_items["skipped"].drop_nulls().to_list()
    assert reason.startswith("longer than the model's context:") and reason.endswith("> 256 positions")
    t = out.filter(pl.col("measure") == "penlp")["threshold"][0]
    scored = test_items.filter(pl.col("skipped").is_null())
    assert scored["pred_penlp"].to_list() == [int(v > t) for v in scored["penlp"].to_list()]
    # without a dev file an unlabelled file is scored without predictions
    rc = main(["acceptability", "--model", str(tmp_path / "lm"), "--input", str(test),
               "--items-output", str(tmp_path / "items2.csv"), "--bootstrap", "50"])
    assert rc == 0
    items2 = pl.read_csv(tmp_path / "items2.csv", infer_schema_length=None)
    assert items2.height == 4 and items2["penlp"].null_count() == 1 and "pred_penlp" not in items2.columns


def test_pipeline_stage_skips_and_counts_items_without_a_score(tiny, tmp_path):
    """Defect 6 (issue 19): an item the model did not score is skipped with a count (summary, section),
    never scored as NaN nor allowed to stop the stage."""
    from rublimp.acceptability import acceptability_stage
    from rublimp.report import acceptability_section

    model, tok = tiny
    model.save_pretrained(tmp_path / "lm")
    tok.save_pretrained(tmp_path / "lm")
    n = 12
    good = [TEXTS[i % 4] for i in range(n)]
    bad = [TEXTS[(i + 1) % 4] for i in range(n)]
    pairs = pl.DataFrame({
        "id": [f"p{i}" for i in range(n)], "PID": ["pa"] * n, "source_sentence": good, "target_sentence": bad,
        "good_logprob": [-10.0 - i % 3 for i in range(n)], "bad_logprob": [-12.0 - i % 2 for i in range(n - 1)] + [None],
        "good_lm_tokens": [5] * n, "bad_lm_tokens": [6] * n,
    })
    pairs.write_parquet(tmp_path / "pairs.parquet")
    count_unigrams(TEXTS, tok).write_parquet(tmp_path / "counts.parquet")
    info = acceptability_stage([tmp_path / "pairs.parquet"], tmp_path / "counts.parquet",
                               {"name": "tiny", "path": str(tmp_path / "lm")}, tmp_path / "acc.csv",
                               tmp_path / "acc.json", n_boot=50)
    assert info["skipped_items"] == 1 and info["items"] == 2 * n - 1
    assert all(r["n_dev"] + r["n_test"] == 2 * n - 1 for r in info["rows"])
    assert "- tiny: 1 item(s) skipped" in acceptability_section([info])


def test_prompt_job_then_summary_equals_the_one_call_stage(tiny, tmp_path):
    """The workflow splits prompting (reads only the benchmark, so it runs beside the benchmark's
    scoring) from the summary (adds the evaluation's verdicts): same table and JSON as one call."""
    import json

    from rublimp.metaling import metaling_stage, prompt_stage, summary_stage

    model, tok = tiny
    model.save_pretrained(tmp_path / "lm")
    tok.save_pretrained(tmp_path / "lm")
    PAIRS.drop("correct_sum").write_parquet(tmp_path / "bench.parquet")
    PAIRS.select("id", "correct_sum").write_parquet(tmp_path / "pairs.parquet")
    spec = {"name": "tiny", "path": str(tmp_path / "lm"), "backend": "hf"}
    opts = dict(pairs_per_paradigm=2, seed=3, threads=1)
    one = metaling_stage([tmp_path / "bench.parquet"], [tmp_path / "pairs.parquet"], spec,
                         tmp_path / "one.parquet", tmp_path / "one.json", **opts)
    meta = prompt_stage([tmp_path / "bench.parquet"], spec, tmp_path / "prompts.parquet", tmp_path / "meta.json",
                        **opts)
    assert "correct_sum" not in pl.read_parquet(tmp_path / "prompts.parquet").columns
    assert meta["counts"]["asked"] == 3
    two = summary_stage(tmp_path / "prompts.parquet", tmp_path / "meta.json", [tmp_path / "pairs.parquet"],
                        tmp_path / "two.parquet", tmp_path / "two.json")
    assert two == one and "agree_prob" in two["overall"]
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()
    assert json.loads((tmp_path / "two.json").read_text()) == json.loads((tmp_path / "one.json").read_text())
    assert pl.read_parquet(tmp_path / "two.parquet")["correct_sum"].to_list().count(None) == 0
