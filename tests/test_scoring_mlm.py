"""Tests for the ``hf-mlm`` backend (pseudo-log-likelihood) and the demo masked LM."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import torch

from rublimp.demo_lm import split_demo_train
from rublimp.demo_mlm import _train_tokenizer, train_demo_mlm
from rublimp.io import InputError
from rublimp.scoring import BACKENDS, check_model_loadable, make_scorer, min_k_plus_plus, min_k_prob, mink_auroc
from rublimp.scoring.mlm import HFMaskedScorer, pll_one_by_one

torch.set_num_threads(1)

SENTENCES = [
    "Кот спит.",
    "Дождь шёл всю ночь, и к утру река вышла из берегов.",
    "На старой мельнице до сих пор живут совы.",
    "Мы долго спорили о том, кто первым заметил комету над лесом.",
    "Бабушка испекла пирог с капустой и позвала соседей.",
    "Весной на площади поставили новый фонтан.",
    "Поезд опоздал на сорок минут из-за снегопада.",
    "Учительница попросила детей нарисовать свой дом.",
    "В музее открылась выставка старинных карт и глобусов, привезённых из трёх разных стран.",
    "Рыбак поймал огромного сома.",
    "Сосед чинил забор, пока его собака гонялась за бабочками.",
    "Ночью в горах стало очень холодно.",
]


@pytest.fixture(scope="module")
def tiny_mlm():
    """(model, tokenizer) of a random tiny BERT with a byte-level BPE tokenizer."""
    from transformers import BertConfig, BertForMaskedLM

    tok = _train_tokenizer(SENTENCES, 300, 128)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=128, type_vocab_size=1,
                     initializer_range=0.3, pad_token_id=tok.pad_token_id)
    return BertForMaskedLM(cfg).eval(), tok


def test_mlm_backend_registered():
    assert "hf-mlm" in BACKENDS and "vllm" in BACKENDS


def test_pll_matches_one_at_a_time_reference(tiny_mlm):
    model, tok = tiny_mlm
    scorer = HFMaskedScorer.from_model(model, tok, batch_tokens=150)  # many mixed batches
    df = scorer.score(SENTENCES, ks=(30, 60), per_token=True, minkpp=True, progress=False)
    assert df.height == len(SENTENCES)
    assert set(df["first_token"]) == {"[CLS]…[SEP]"}
    worst = 0.0
    for row in df.iter_rows(named=True):
        ref = pll_one_by_one(model, tok, row["sentence"])
        assert row["tokens"] == ref.tokens
        assert "[CLS]" not in row["tokens"] and "[SEP]" not in row["tokens"]
        assert row["n_tokens"] == len(ref.tokens)
        got = np.array(row["token_logprobs"])
        worst = max(worst, float(np.abs(got - ref.logprobs).max()))
        assert row["sum_logprob"] == pytest.approx(ref.logprobs.sum(), abs=1e-4)
        for k in (30, 60):
            assert row[f"mink_{k}"] == pytest.approx(min_k_prob(ref.logprobs, k), abs=1e-4)
            assert row[f"minkpp_{k}"] == pytest.approx(min_k_plus_plus(ref.logprobs, ref.mu, ref.sigma, k), abs=1e-4)
    assert worst <= 1e-4
    # a random model far from uniform: a wrong mask position would not hide in the tolerance
    all_lp = np.concatenate([np.array(x) for x in df["token_logprobs"]])
    assert all_lp.std() > 0.5
    # one masked forward row per scored token, no more
    assert scorer.forward_rows == int(df["n_tokens"].sum())


def test_head_only_path_equals_full_logits(tiny_mlm):
    model, tok = tiny_mlm
    fast = HFMaskedScorer.from_model(model, tok, batch_tokens=400)
    assert fast._head is model.cls
    full = HFMaskedScorer.from_model(model, tok, batch_tokens=400)
    full._head = None
    a = fast.score(SENTENCES, per_token=True, progress=False)
    b = full.score(SENTENCES, per_token=True, progress=False)
    diff = np.abs(np.concatenate(a["token_logprobs"].to_list()) - np.concatenate(b["token_logprobs"].to_list()))
    assert diff.max() <= 1e-5


def test_batch_budget_does_not_change_scores(tiny_mlm):
    """Masked copies of one length, unpadded: any budget, any batch-mates give bit-identical scores."""
    model, tok = tiny_mlm
    small_scorer = HFMaskedScorer.from_model(model, tok, batch_tokens=20)
    small = small_scorer.score(SENTENCES, progress=False)
    large_scorer = HFMaskedScorer.from_model(model, tok, batch_tokens=100_000)
    large = large_scorer.score(SENTENCES, progress=False)
    assert small.equals(large)
    alone = HFMaskedScorer.from_model(model, tok, batch_tokens=100_000).score(SENTENCES[3:5], progress=False)
    assert alone.equals(large.filter(pl.col("sentence").is_in(SENTENCES[3:5])))
    # (almost) no filler: at the default budget the model runs over the real tokens, on small and large inputs
    for subset in (SENTENCES[:3], SENTENCES):
        scorer = HFMaskedScorer.from_model(model, tok)
        scorer.score(subset, progress=False)
        assert scorer.real_positions <= scorer.positions_run <= 1.3 * scorer.real_positions


def test_load_from_directory_and_checks(tiny_mlm, tmp_path):
    model, tok = tiny_mlm
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    check_model_loadable(str(tmp_path))
    scorer = make_scorer("hf-mlm", str(tmp_path), batch_tokens=512, num_threads=1, dtype="float32")
    assert scorer.dtype == "float32"
    a = scorer.score(SENTENCES[:4], progress=False)
    b = HFMaskedScorer.from_model(model, tok).score(SENTENCES[:4], progress=False)
    assert np.abs(a["sum_logprob"].to_numpy() - b["sum_logprob"].to_numpy()).max() <= 1e-5


def test_causal_tokenizer_without_mask_is_rejected(tiny_mlm):
    from transformers import PreTrainedTokenizerFast

    model, tok = tiny_mlm
    plain = PreTrainedTokenizerFast(tokenizer_object=tok.backend_tokenizer, unk_token="[UNK]")
    with pytest.raises(InputError, match="no mask token"):
        HFMaskedScorer.from_model(model, plain)


def test_too_long_sentence_is_an_input_error(tiny_mlm):
    model, tok = tiny_mlm
    scorer = HFMaskedScorer.from_model(model, tok, max_length=6)
    with pytest.raises(InputError, match="max_length=6"):
        scorer.score([SENTENCES[1]], progress=False)


def test_demo_mlm_memorises_its_training_half(tmp_path):
    """A tiny demo MLM, trained briefly: PLL Min-K% separates its training sentences from held-out ones."""
    from tests.test_demo_lm import SENTENCES as DEMO

    df = pl.DataFrame({"text": DEMO})
    train, held = split_demo_train(df, 0.5, seed=0)
    info = train_demo_mlm(train["text"].to_list(), tmp_path / "mlm", seed=0, vocab_size=400, n_layer=1,
                          n_embd=32, n_head=2, n_positions=64, epochs=60, batch_size=8, lr=5e-3, warmup_steps=2,
                          mask_prob=0.3, num_threads=1, progress=False)
    assert info["epoch_losses"][-1] < info["epoch_losses"][0]
    scorer = make_scorer("hf-mlm", str(tmp_path / "mlm"), num_threads=1)
    s_train = scorer.score(train["text"].to_list(), ks=(30,), progress=False)
    s_held = scorer.score(held["text"].to_list(), ks=(30,), progress=False)
    assert mink_auroc(s_train["mink_30"].to_numpy(), s_held["mink_30"].to_numpy()) > 0.8
    # deterministic: same data and seed, same weights
    again = train_demo_mlm(train["text"].to_list(), tmp_path / "mlm2", seed=0, vocab_size=400, n_layer=1,
                           n_embd=32, n_head=2, n_positions=64, epochs=60, batch_size=8, lr=5e-3,
                           warmup_steps=2, mask_prob=0.3, num_threads=1, progress=False)
    assert again["epoch_losses"] == info["epoch_losses"]
    assert (tmp_path / "mlm" / "model.safetensors").read_bytes() == (tmp_path / "mlm2" / "model.safetensors").read_bytes()
