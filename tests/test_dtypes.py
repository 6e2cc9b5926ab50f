"""``dtype: auto``: the per-device choice, and what bfloat16 scoring keeps (batch independence, closeness)."""

from __future__ import annotations

import pytest
import torch

from rublimp.io import InputError
from rublimp.scoring import dtypes, make_scorer, resolve_dtype
from rublimp.scoring.cache import model_fingerprint
from rublimp.scoring.hf import HFCausalScorer
from tests.test_scoring import _bpe_tokenizer, _random_gpt2

torch.set_num_threads(1)

SENTENCES = [
    "Кот спит на тёплой печке.",
    "Вчера весь день шёл мелкий дождь.",
    "Мальчик нашёл в траве ржавый ключ.",
    "Почтальон принёс нам два письма и газету.",
    "Весной в нашем дворе посадили липы.",
    "Сестра обещала позвонить после обеда.",
    "Туман рассеялся только к полудню.",
    "На полке стояли старые книги в кожаных переплётах.",
]

FLAGS_WITH = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni\n"
FLAGS_WITHOUT = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n"


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    """A random tiny GPT-2 saved to disk (as the pipeline loads models: by path, default settings)."""
    tok = _bpe_tokenizer(SENTENCES, 400, ["<|endoftext|>"], bos_token="<|endoftext|>", eos_token="<|endoftext|>")
    eot = tok.convert_tokens_to_ids("<|endoftext|>")
    path = tmp_path_factory.mktemp("tiny_dtype_lm")
    _random_gpt2(len(tok), bos=eot, eos=eot, seed=1).save_pretrained(path)
    tok.save_pretrained(path)
    return path


# --------------------------------------------------------------------------- the choice


@pytest.mark.parametrize(("text", "expected"), [
    (FLAGS_WITH, True),
    (FLAGS_WITHOUT, False),
    ("processor\t: 0\nflags\t\t: fpu amx_bf16 amx_tile\n", True),
    ("processor\t: 0\nmodel name\t: some ARM core\n", False),  # no flags line at all
])
def test_cpu_flags_are_read_from_cpuinfo(tmp_path, text, expected):
    path = tmp_path / "cpuinfo"
    path.write_text(text, encoding="ascii")
    assert dtypes.cpu_has_native_bf16(str(path)) is expected


def test_missing_cpuinfo_means_no_bf16(tmp_path):
    assert dtypes.cpu_has_native_bf16(str(tmp_path / "absent")) is False


@pytest.mark.parametrize(("native", "expected"), [(True, "bfloat16"), (False, "float32")])
def test_auto_on_cpu_follows_the_cpu(monkeypatch, native, expected):
    monkeypatch.setattr(dtypes, "cpu_has_native_bf16", lambda: native)
    assert resolve_dtype("auto", "cpu") == expected
    assert resolve_dtype(None, "cpu") == expected  # no dtype in the spec: auto


def test_explicit_dtypes_and_aliases_pass_through(monkeypatch):
    monkeypatch.setattr(dtypes, "cpu_has_native_bf16", lambda: True)
    assert resolve_dtype("float32", "cpu") == "float32"
    assert resolve_dtype("fp16", "cpu") == "float16"
    assert resolve_dtype("bf16", "cuda:1") == "bfloat16"
    assert resolve_dtype("auto", "mps") == "float32"
    assert resolve_dtype("auto", "cuda", backend="vllm") == "auto"  # vLLM keeps its own auto
    with pytest.raises(ValueError, match="unknown dtype 'float8'"):
        resolve_dtype("float8", "cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the answer on a machine without CUDA")
def test_auto_on_cuda_without_bf16_is_float16():
    assert resolve_dtype("auto", "cuda") == "float16"


def test_fingerprint_uses_the_resolved_dtype(monkeypatch, tiny_dir):
    spec = {"name": "tiny", "backend": "hf", "path": str(tiny_dir), "device": "cpu"}
    monkeypatch.setattr(dtypes, "cpu_has_native_bf16", lambda: True)
    on_bf16_cpu = model_fingerprint(spec, ks=(30,))
    assert on_bf16_cpu == model_fingerprint({**spec, "dtype": "bfloat16"}, ks=(30,))
    monkeypatch.setattr(dtypes, "cpu_has_native_bf16", lambda: False)
    # the same config on a CPU without bfloat16 scores in float32: another cache
    assert model_fingerprint(spec, ks=(30,)) == model_fingerprint({**spec, "dtype": "float32"}, ks=(30,))
    assert model_fingerprint(spec, ks=(30,)) != on_bf16_cpu


@pytest.mark.parametrize(("native", "expected"), [(True, "bfloat16"), (False, "float32")])
def test_scorer_loads_in_the_resolved_dtype(monkeypatch, tiny_dir, native, expected):
    monkeypatch.setattr(dtypes, "cpu_has_native_bf16", lambda: native)
    scorer = make_scorer("hf", str(tiny_dir), num_threads=1)  # no dtype: auto
    assert scorer.dtype == expected
    assert next(scorer.model.parameters()).dtype == getattr(torch, expected)


def test_unknown_dtype_names_the_model(tiny_dir):
    with pytest.raises(InputError, match=r"model '.*tiny_dtype_lm.*': unknown dtype 'half-ish'"):
        HFCausalScorer(tiny_dir, dtype="half-ish")


# --------------------------------------------------------------------------- bfloat16 scores


@pytest.fixture(scope="module")
def bf16_and_fp32(tiny_dir):
    bf16 = HFCausalScorer(tiny_dir, dtype="bfloat16", batch_tokens=256)
    fp32 = HFCausalScorer(tiny_dir, dtype="float32", batch_tokens=256)
    return bf16, fp32


def test_bf16_score_does_not_depend_on_batch_mates(bf16_and_fp32):
    """The cache guarantee holds in bfloat16: a sentence scored alone, or with others, gives the same bits."""
    bf16, _ = bf16_and_fp32
    together = bf16.score(SENTENCES, ks=(30, 60), per_token=True, progress=False)
    alone = HFCausalScorer.from_model(bf16.model, bf16.tokenizer, batch_tokens=1)
    for i, sent in enumerate(SENTENCES):
        one = alone.score([sent], ks=(30, 60), per_token=True, progress=False)
        assert one.row(0) == together.filter(together["sentence"] == sent).row(0), i


def test_bf16_scores_stay_close_to_float32(bf16_and_fp32):
    bf16, fp32 = bf16_and_fp32
    a = bf16.score(SENTENCES, progress=False).sort("sentence")
    b = fp32.score(SENTENCES, progress=False).sort("sentence")
    assert a["n_tokens"].to_list() == b["n_tokens"].to_list()
    per_token = ((a["sum_logprob"] - b["sum_logprob"]).abs() / a["n_tokens"]).to_list()
    # bfloat16 keeps 8 significant bits: per-token log-probs move by hundredths of a nat, not more
    assert max(per_token) < 0.05, per_token
    assert a["sum_logprob"].to_list() != b["sum_logprob"].to_list()  # it did run in another precision
