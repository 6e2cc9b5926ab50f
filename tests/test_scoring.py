"""Tests for rublimp.scoring: Min-K% arithmetic, the batched HF scorer and its reference."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import polars as pl
import pytest
import torch

from rublimp.io import InputError
from rublimp.scoring import (
    Scorer,
    check_model_loadable,
    distribution_moments,
    make_scorer,
    min_k_plus_plus,
    min_k_prob,
    mink_auroc,
    minkpp_token_scores,
    n_lowest,
)
from rublimp.scoring.hf import HFCausalScorer, choose_first_token, make_batches, score_one_by_one

torch.set_num_threads(1)

# Thirty-odd sentences of very different lengths (one word up to a long compound
# sentence), so the batched scorer has to pad heavily.
SENTENCES = [
    "Да.",
    "Кот спит.",
    "Завтра будет холодно.",
    "Окно было открыто.",
    "Собака радостно залаяла.",
    "Ключи лежат на столе.",
    "Ёжик свернулся в клубок.",
    "Над рекой кружили чайки.",
    "Почему ты не позвонил?",
    "Поезд опоздал на сорок минут.",
    "Капитан приказал поднять паруса.",
    "Ты уже прочитал эту книгу?",
    "Она никогда не видела моря.",
    "Этот мост построили ещё до войны.",
    "Врач посоветовал ему больше отдыхать.",
    "Фермер продал на рынке всю картошку.",
    "Дождь идёт с самого утра.",
    "В музее открылась выставка старинных карт.",
    "Бабушка испекла пирог с яблоками и корицей.",
    "Каждый студент должен сдать работу до пятницы.",
    "Дети построили на берегу высокий песчаный замок.",
    "Никто не знал, куда ведёт эта узкая тропинка.",
    "Мы долго ждали автобус на пустой остановке.",
    "В 2019 году компания выпустила модель X-200.",
    "Соседи снова спорили о том, кто должен чинить крышу.",
    "Старый мельник каждое утро проверял, не поднялась ли вода в запруде за ночь.",
    "Вчера вечером в библиотеке выключили свет, и читатели разошлись по домам раньше обычного.",
    "Учёные из небольшой лаборатории три года изучали, как растения реагируют на шум проезжающих поездов.",
    "Когда начался концерт, в зале стало так тихо, что было слышно, как скрипит кресло в последнем ряду.",
    "Зимой дорогу к деревне заметает так сильно, что добраться туда можно только на тракторе или на лыжах.",
    "Мне нравится гулять по городу ранней весной, когда на деревьях только появляются первые листья, "
    "а воздух пахнет талым снегом.",
    "Несмотря на то что прогноз обещал ясную погоду, к полудню небо затянули тяжёлые тучи, поднялся "
    "сильный ветер, и организаторам пришлось перенести праздник из парка в школьный спортивный зал.",
]


# --------------------------------------------------------------------------- fixtures


def _bpe_tokenizer(texts: list[str], vocab_size: int, special: list[str], **special_kwargs):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, **special_kwargs)


def _random_gpt2(vocab_size: int, *, bos: int, eos: int, seed: int = 0):
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    # A large init range makes the next-token distributions far from uniform,
    # so misaligned or mis-masked log-probs would show up clearly.
    cfg = GPT2Config(vocab_size=vocab_size, n_positions=512, n_embd=32, n_layer=2, n_head=2,
                     initializer_range=0.3, bos_token_id=bos, eos_token_id=eos)
    return GPT2LMHeadModel(cfg).eval()


@pytest.fixture(scope="module")
def tiny():
    """(model, tokenizer) of a random tiny GPT-2 with a byte-level BPE tokenizer."""
    tok = _bpe_tokenizer(SENTENCES, 500, ["<|endoftext|>"], bos_token="<|endoftext|>",
                         eos_token="<|endoftext|>", pad_token="<|endoftext|>")
    eot = tok.convert_tokens_to_ids("<|endoftext|>")
    return _random_gpt2(len(tok), bos=eot, eos=eot), tok


@pytest.fixture(scope="module")
def tiny_dir(tiny, tmp_path_factory):
    model, tok = tiny
    path = tmp_path_factory.mktemp("tiny_lm")
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


# --------------------------------------------------------------------------- Min-K% arithmetic


@pytest.mark.parametrize(
    ("n", "k", "expected"),
    [(7, 30, 2), (3, 30, 1), (5, 50, 2), (10, 30, 3), (1, 60, 1), (10, 100, 10), (9, 60, 5), (10, 33.3, 3)],
)
def test_n_lowest_rounding(n, k, expected):
    assert n_lowest(n, k) == expected


def test_min_k_prob_hand_computed():
    lp = [-1.0, -5.0, -2.0, -0.5, -3.0, -0.1, -4.0]  # n=7, K=30 -> 2 lowest: -5, -4
    assert min_k_prob(lp, 30) == pytest.approx(-4.5)
    assert min_k_prob(np.array(lp), 60) == pytest.approx((-5 - 4 - 3 - 2) / 4)  # ⌊4.2⌋ = 4
    assert min_k_prob([-0.2, -0.7, -0.3], 30) == pytest.approx(-0.7)  # max(1, ⌊0.9⌋) = 1
    assert min_k_prob([-1.0, -2.0, -3.0, -4.0, -5.0], 50) == pytest.approx(-4.5)  # ⌊2.5⌋ = 2
    assert min_k_prob([-1.0, -2.0], 100) == pytest.approx(-1.5)


@pytest.mark.parametrize("bad", [[], [[-1.0, -2.0]], [float("nan")]])
def test_min_k_prob_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        min_k_prob(bad, 30)


@pytest.mark.parametrize("k", [0, -5, 101])
def test_min_k_prob_rejects_bad_k(k):
    with pytest.raises(ValueError):
        min_k_prob([-1.0, -2.0], k)


def test_minkpp_on_hand_made_distribution():
    # Three positions over a 3-token vocabulary.
    #  p1 = (1/2, 1/4, 1/4), token 1: μ = -1.5 ln2, σ = 0.5 ln2, z = (-2 ln2 + 1.5 ln2) / (0.5 ln2) = -1
    #  p2 = (0.8, 0.2, 0),   token 0: Bernoulli, σ = sqrt(.8·.2)·ln4 = 0.4 ln4, z = 0.2 ln4 / (0.4 ln4) = 0.5
    #  p3 = uniform,         token 2: σ = 0, z defined as 0
    with np.errstate(divide="ignore"):
        dist = np.log(np.array([[0.5, 0.25, 0.25], [0.8, 0.2, 0.0], [1 / 3, 1 / 3, 1 / 3]]))
    tokens = [1, 0, 2]
    lp = dist[np.arange(3), tokens]
    mu, sigma = distribution_moments(dist)
    ln2 = math.log(2)
    assert mu == pytest.approx([-1.5 * ln2, 0.8 * math.log(0.8) + 0.2 * math.log(0.2), -math.log(3)])
    assert sigma == pytest.approx([0.5 * ln2, 0.4 * math.log(4), 0.0], abs=1e-12)
    assert minkpp_token_scores(lp, mu, sigma) == pytest.approx([-1.0, 0.5, 0.0])
    assert min_k_plus_plus(lp, mu, sigma, 100) == pytest.approx(-1 / 6)
    assert min_k_plus_plus(lp, mu, sigma, 70) == pytest.approx(-0.5)  # ⌊2.1⌋ = 2 lowest: -1, 0
    assert min_k_plus_plus(lp, mu, sigma, 30) == pytest.approx(-1.0)


def test_minkpp_shape_mismatch():
    with pytest.raises(ValueError, match="same shape"):
        minkpp_token_scores([-1.0, -2.0], [0.0], [1.0, 1.0])


def test_mink_auroc():
    # train > heldout in 8 of the 9 pairs (3 < 3.5 is the exception)
    assert mink_auroc([3.0, 4.0, 5.0], [1.0, 2.0, 3.5]) == pytest.approx(8 / 9)
    assert mink_auroc([5.0, 6.0], [1.0, 2.0, 3.0]) == 1.0
    assert mink_auroc([1.0, 2.0], [5.0, 6.0]) == 0.0
    assert mink_auroc([1.0, 1.0], [1.0]) == 0.5  # ties count one half


# --------------------------------------------------------------------------- batching


def test_make_batches_hand_checked():
    assert make_batches([5, 1, 3, 3, 8], 9) == [[4], [0], [2, 3, 1]]


def test_make_batches_budget_and_cover():
    rng = random.Random(3)
    lengths = [rng.randint(1, 60) for _ in range(200)]
    batches = make_batches(lengths, 256)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(200))
    for b in batches:
        assert len(b) == 1 or len(b) * max(lengths[i] for i in b) <= 256
    with pytest.raises(ValueError):
        make_batches([1, 2], 0)


# --------------------------------------------------------------------------- HF scorer


def test_scorer_matches_reference(tiny):
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok, batch_tokens=200)  # many padded batches
    df = scorer.score(SENTENCES, ks=(30, 60), per_token=True, minkpp=True, progress=False)
    assert df.height == len(SENTENCES)
    lengths = sorted(df["n_tokens"].to_list())
    assert lengths[0] < 10 < 60 < lengths[-1], "the fixture should give varied token lengths"
    worst = 0.0
    for row in df.iter_rows(named=True):
        ref = score_one_by_one(model, tok, row["sentence"])
        assert row["tokens"] == ref.tokens
        assert row["n_tokens"] == len(ref.tokens)
        got = np.array(row["token_logprobs"])
        worst = max(worst, float(np.abs(got - ref.logprobs).max()))
        assert row["sum_logprob"] == pytest.approx(ref.logprobs.sum(), abs=1e-4)
        for k in (30, 60):
            assert row[f"mink_{k}"] == pytest.approx(min_k_prob(ref.logprobs, k), abs=1e-4)
            assert row[f"minkpp_{k}"] == pytest.approx(min_k_plus_plus(ref.logprobs, ref.mu, ref.sigma, k), abs=1e-4)
    assert worst <= 1e-4
    # The random model is far from uniform, so a shift-by-one bug could not hide in the tolerance.
    all_lp = np.concatenate([np.array(x) for x in df["token_logprobs"]])
    assert all_lp.std() > 0.5


def test_batch_size_does_not_change_scores(tiny):
    model, tok = tiny
    small = HFCausalScorer.from_model(model, tok, batch_tokens=16).score(SENTENCES, progress=False)
    large = HFCausalScorer.from_model(model, tok, batch_tokens=100_000).score(SENTENCES, progress=False)
    assert small["sentence"].to_list() == large["sentence"].to_list()
    for col in ("sum_logprob", "mink_30", "mink_60"):
        assert np.abs(small[col].to_numpy() - large[col].to_numpy()).max() <= 1e-4


def test_scores_do_not_depend_on_the_other_sentences(tiny):
    """Equal-length unpadded batches: a sentence scored alone or among others gives bit-identical values."""
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok, batch_tokens=256)
    everything = scorer.score(SENTENCES, ks=(30, 60), progress=False)
    for subset in (SENTENCES[:1], SENTENCES[5:9], SENTENCES[::3]):
        part = scorer.score(subset, ks=(30, 60), progress=False)
        ref = everything.filter(pl.col("sentence").is_in(subset)).sort("sentence")
        assert part.equals(ref)


def test_length_batches_cover_and_shape():
    from rublimp.scoring.hf import make_length_batches

    lengths = [3, 9, 17, 8, 16, 1, 30, 9, 9]
    assert make_length_batches(lengths, 20) == [
        ([6], 30, 1), ([2], 17, 1), ([4], 16, 1), ([1, 7], 9, 2), ([8], 9, 1), ([3], 8, 1), ([0], 3, 1), ([5], 1, 1),
    ]
    # fixed rows (GPU): the last batch of a length runs with the same row count as the others
    assert make_length_batches(lengths, 20, fixed_rows=True)[3:5] == [([1, 7], 9, 2), ([8], 9, 2)]
    for idx, width, rows in make_length_batches(lengths, 40):
        assert all(lengths[i] == width for i in idx) and rows == len(idx) <= max(1, 40 // width)
    with pytest.raises(ValueError):
        make_length_batches([1, 2], 0)


@pytest.mark.parametrize("budget", [None, 100_000])
def test_no_filler_positions_on_small_and_large_inputs(tiny, budget):
    """The model runs over the real tokens only (within 1.3x), for 3 sentences as for all of them."""
    model, tok = tiny
    for subset in (SENTENCES[:3], SENTENCES):
        scorer = HFCausalScorer.from_model(model, tok, batch_tokens=budget)
        df = scorer.score(subset, progress=False)
        assert scorer.real_positions == int(df["n_tokens"].sum())
        assert scorer.positions_run <= 1.3 * scorer.real_positions


def test_scores_are_bit_identical_whatever_the_budget(tiny):
    """On CPU a row's result does not depend on its batch's row count, so any budget gives the same bits."""
    model, tok = tiny
    a = HFCausalScorer.from_model(model, tok, batch_tokens=16).score(SENTENCES, ks=(30, 60), progress=False)
    b = HFCausalScorer.from_model(model, tok, batch_tokens=100_000).score(SENTENCES, ks=(30, 60), progress=False)
    assert a.equals(b)


def test_default_budget_per_device_and_gpu_probe(tmp_path, monkeypatch):
    from rublimp.scoring import hf

    assert hf.default_batch_tokens("cpu") == hf.CPU_BATCH_TOKENS
    tried = []

    def fits(budget):  # a fake device on which 8192 tokens are the most that fit
        tried.append(budget)
        return budget <= 8192

    assert hf.probe_batch_tokens(fits) == 8192
    assert tried == [b for b in hf.PROBE_BUDGETS if b >= 8192]
    assert hf.probe_batch_tokens(lambda b: False) == min(hf.PROBE_BUDGETS)
    # remembered per model: a second scorer of the same model does not probe again
    monkeypatch.setenv("RUBLIMP_CACHE", str(tmp_path))
    monkeypatch.setattr(hf.torch, "device", lambda d: type("D", (), {"type": "cuda"})())
    tried.clear()
    assert hf.default_batch_tokens("cuda", fits, key="m") == 8192 and tried
    tried.clear()
    assert hf.default_batch_tokens("cuda", fits, key="m") == 8192 and not tried
    assert hf.budget_memo_path().parent == tmp_path


def test_dedupe_and_sorted_order(tiny):
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok, batch_tokens=128)
    picked = SENTENCES[:12]
    messy = picked[::-1] + picked[3:7] + [picked[0]] * 3
    random.Random(0).shuffle(messy)
    df = scorer.score(messy, progress=False)
    assert df["sentence"].to_list() == sorted(set(picked))
    assert df["sentence"].is_unique().all()
    alone = scorer.score([picked[5]], progress=False)
    row = df.filter(pl.col("sentence") == picked[5])
    assert row["sum_logprob"][0] == pytest.approx(alone["sum_logprob"][0], abs=1e-4)
    # Same input again: identical frame.
    assert df.equals(scorer.score(messy, progress=False))


def test_output_schema(tiny):
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok)
    df = scorer.score(SENTENCES[:4], ks=(25, 75), progress=False)
    assert df.schema == pl.Schema({
        "sentence": pl.String, "sum_logprob": pl.Float64, "n_tokens": pl.Int64,
        "mink_25": pl.Float64, "mink_75": pl.Float64, "first_token": pl.String,
    })
    full = scorer.score(SENTENCES[:4], ks=(30,), per_token=True, minkpp=True, progress=False)
    assert full.columns == ["sentence", "sum_logprob", "n_tokens", "mink_30", "minkpp_30", "first_token",
                            "tokens", "token_logprobs"]
    assert full.schema["tokens"] == pl.List(pl.String)
    assert full.schema["token_logprobs"] == pl.List(pl.Float64)
    assert (full["mink_30"] <= full["sum_logprob"] / full["n_tokens"] + 1e-9).all()
    empty = scorer.score([], progress=False)
    assert empty.height == 0 and "mink_60" in empty.columns


def test_first_token_recorded_and_scored(tiny):
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok)
    a, b = "Кот спит на тёплом диване.", "Пёс спит на тёплом диване."
    df = scorer.score([a, b], per_token=True, progress=False)
    assert scorer.first_token == "<|endoftext|>"
    assert df["first_token"].to_list() == ["<|endoftext|>"] * 2
    ids_a = tok(a, add_special_tokens=False)["input_ids"]
    row_a = df.filter(pl.col("sentence") == a).row(0, named=True)
    row_b = df.filter(pl.col("sentence") == b).row(0, named=True)
    assert row_a["n_tokens"] == len(ids_a)  # the first token is counted ...
    with torch.inference_mode():
        first = torch.log_softmax(model(input_ids=torch.tensor([[tok.bos_token_id]])).logits[0, 0].double(), -1)
    assert row_a["token_logprobs"][0] == pytest.approx(float(first[ids_a[0]]), abs=1e-5)  # ... and scored
    assert row_a["sum_logprob"] != pytest.approx(row_b["sum_logprob"], abs=1e-3)


def test_bos_preferred_then_eos_then_error():
    texts = SENTENCES[:10]
    both = _bpe_tokenizer(texts, 300, ["<s>", "</s>"], bos_token="<s>", eos_token="</s>")
    assert choose_first_token(both) == (both.convert_tokens_to_ids("<s>"), "<s>")
    eos_only = _bpe_tokenizer(texts, 300, ["</s>"], eos_token="</s>")
    assert choose_first_token(eos_only)[1] == "</s>"
    neither = _bpe_tokenizer(texts, 300, [])
    with pytest.raises(InputError, match="neither a BOS nor an EOS"):
        choose_first_token(neither, model_name="nobos")

    model = _random_gpt2(len(both), bos=both.bos_token_id, eos=both.eos_token_id)
    df = HFCausalScorer.from_model(model, both).score(texts[:3], progress=False)
    assert set(df["first_token"]) == {"<s>"}


def test_load_from_directory_matches_in_memory(tiny, tiny_dir):
    model, tok = tiny
    check_model_loadable(tiny_dir)
    from_disk = make_scorer("hf", str(tiny_dir), batch_tokens=512, num_threads=1, dtype="float32")
    assert isinstance(from_disk, Scorer)
    assert from_disk.dtype == "float32"
    assert from_disk.max_length == 512
    a = from_disk.score(SENTENCES, progress=False)
    b = HFCausalScorer.from_model(model, tok, batch_tokens=512).score(SENTENCES, progress=False)
    assert a.equals(b)


def test_too_long_sentence_is_an_input_error(tiny):
    model, tok = tiny
    scorer = HFCausalScorer.from_model(model, tok, max_length=8)
    with pytest.raises(InputError, match="max_length=8"):
        scorer.score([SENTENCES[-1]], progress=False)


@pytest.mark.parametrize(
    ("sentences", "match"),
    [(["Кот спит.", "   "], "#1 is empty"), (["Кот спит.", None], "#1 is NoneType"), ("Кот спит.", "single string")],
)
def test_bad_sentences(tiny, sentences, match):
    scorer = HFCausalScorer.from_model(*tiny)
    with pytest.raises(InputError, match=match):
        scorer.score(sentences, progress=False)


@pytest.mark.parametrize("ks", [(), (0,), (30, 30), (12.5,), (101,)])
def test_bad_ks(tiny, ks):
    with pytest.raises(InputError):
        HFCausalScorer.from_model(*tiny).score(SENTENCES[:2], ks=ks, progress=False)


# --------------------------------------------------------------------------- model checks


def test_missing_local_model_names_it(tmp_path):
    missing = tmp_path / "no_such_model"
    with pytest.raises(InputError, match="no_such_model.*does not exist"):
        HFCausalScorer(missing)
    with pytest.raises(InputError, match="config key models\\[2\\]"):
        check_model_loadable(str(missing), config_key="models[2]")


def test_incomplete_model_dir(tiny_dir, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    with pytest.raises(InputError, match="no config.json"):
        check_model_loadable(broken)
    (broken / "config.json").write_text((tiny_dir / "config.json").read_text())
    with pytest.raises(InputError, match="no tokenizer file"):
        check_model_loadable(broken)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        (broken / name).write_text((tiny_dir / name).read_text())
    with pytest.raises(InputError, match="no weights file"):
        HFCausalScorer(broken)
    (broken / "config.json").write_text(json.dumps({"model_type": "no-such-architecture"}))
    with pytest.raises(InputError, match="cannot read its config"):
        check_model_loadable(broken)


def test_offline_hub_id_not_cached(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf_home"))
    with pytest.raises(InputError, match="rublimp-test/no-such-model.*HF_HUB_OFFLINE"):
        check_model_loadable("rublimp-test/no-such-model")


def test_unknown_backend_and_dtype(tiny_dir):
    with pytest.raises(InputError, match="unknown scoring backend 'vllm-x'"):
        make_scorer("vllm-x", "some/model")
    with pytest.raises(InputError, match="unknown dtype 'float8'"):
        HFCausalScorer(tiny_dir, dtype="float8")


def test_kernel_cache_bound_keeps_the_users_setting(monkeypatch):
    import os

    from rublimp.runtime import IDEEP_OP_CACHE, ONEDNN_KERNEL_CACHE, bound_kernel_cache, release_memory

    monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", raising=False)
    monkeypatch.delenv("LRU_CACHE_CAPACITY", raising=False)
    bound_kernel_cache()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == str(ONEDNN_KERNEL_CACHE)
    assert os.environ["LRU_CACHE_CAPACITY"] == str(IDEEP_OP_CACHE)  # PyTorch's per-shape operation cache
    monkeypatch.setenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "7")
    monkeypatch.setenv("LRU_CACHE_CAPACITY", "3")
    bound_kernel_cache()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "7"
    assert os.environ["LRU_CACHE_CAPACITY"] == "3"
    release_memory()  # callable anywhere: glibc trims, other libcs do nothing


def test_mmap_threshold_is_fixed_unless_the_user_set_it(monkeypatch):
    import sys

    from rublimp.runtime import fixed_mmap_threshold

    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert fixed_mmap_threshold() is sys.platform.startswith("linux")  # glibc here; False elsewhere
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "65536")
    assert fixed_mmap_threshold() is False


def test_row_ladder_bounds_the_shapes_of_a_length_without_filler():
    from rublimp.scoring.hf import make_length_batches

    lengths = [10] * 37 + [20] * 12 + [7] * 64
    batches = make_length_batches(lengths, 160, row_ladder=True)  # 16 rows of 10, 8 of 20, 22 of 7
    assert sorted(i for b, _, _ in batches for i in b) == list(range(len(lengths)))
    assert all(rows == len(b) and len({lengths[i] for i in b}) == 1 for b, _, rows in batches)
    by_width = {}
    for b, width, rows in batches:
        by_width.setdefault(width, []).append(rows)
    assert by_width == {20: [8, 4], 10: [16, 16, 4, 1], 7: [22, 22, 16, 4]}
    # any number of sentences of one length runs with at most log2(rows) + 2 distinct shapes
    shapes = {rows for n in range(1, 200) for _, _, rows in make_length_batches([10] * n, 160, row_ladder=True)}
    assert shapes <= {16, 8, 4, 2, 1}
    # fixed_rows (CUDA) wins: one shape per length, the rest filler
    assert {r for _, _, r in make_length_batches([10] * 37, 160, fixed_rows=True, row_ladder=True)} == {16}
