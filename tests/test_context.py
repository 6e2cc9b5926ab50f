"""Defect 6 of issue 19: a sentence longer than a scoring model's context never stops the run.

The pairs with such a sentence leave the pool for every model, counted per paradigm (rule
``context_check`` before any scoring job; ``score_pools`` and the curation skip them), and the
demo LM gets positions for every corpus sentence."""

from __future__ import annotations

import json

import polars as pl
import pytest

from rublimp.io import InputError
from rublimp.scoring.context import (context_stage, model_context, positions_needed, too_long_ids, too_long_in_files,
                                     too_long_pairs)
from rublimp.stages import curate_stage, score_stage

SHORT = ["Кошка спит на диване.", "Мальчик читает книгу.", "Мы долго говорили о новом проекте.",
         "Старая учительница вошла в класс.", "Дети гуляли в большом парке."]
LONG = " ".join(["Мы долго говорили о новом проекте и о старом доме у реки."] * 6)


def _tokenizer(texts):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(texts * 3, trainer=trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<s>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    return PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="<s>", pad_token="<s>")


@pytest.fixture(scope="module")
def small_lm(tmp_path_factory):
    """A random GPT-2 with 48 positions, saved as a model directory: too short for LONG."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    tok = _tokenizer(SHORT + [LONG])
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=48, n_embd=16, n_layer=1, n_head=2,
                                                bos_token_id=0, eos_token_id=0)).eval()
    path = tmp_path_factory.mktemp("lm") / "small"
    model.save_pretrained(path)
    tok.save_pretrained(path)
    assert max(positions_needed("hf", tok, SHORT)) <= 48 < positions_needed("hf", tok, [LONG])[0]
    return {"name": "small", "backend": "hf", "path": str(path), "device": "cpu", "dtype": "float32",
            "batch_tokens": 256}


def _pool(pid: str, pairs: list[tuple[str, str]]) -> pl.DataFrame:
    return pl.DataFrame({
        "id": [f"{pid}_{i}" for i in range(len(pairs))], "PID": [pid] * len(pairs),
        "source_sentence": [g for g, _ in pairs], "target_sentence": [b for _, b in pairs],
    })


@pytest.fixture()
def pools(tmp_path):
    """Paradigm `pa`: a long grammatical sentence (pair pa_1); `pb`: a long ungrammatical one (pb_2)."""
    frames = {
        "pa": _pool("pa", [(SHORT[0], SHORT[1]), (LONG, SHORT[2]), (SHORT[3], SHORT[4])]),
        "pb": _pool("pb", [(SHORT[1], SHORT[0]), (SHORT[2], SHORT[3]), (SHORT[4], LONG)]),
    }
    paths = {}
    for pid, df in frames.items():
        paths[pid] = tmp_path / f"{pid}.parquet"
        df.write_parquet(paths[pid])
    return frames, paths


def test_model_context_reads_the_limit_without_weights(small_lm):
    ctx = model_context(small_lm)
    assert ctx.limit == 48
    assert model_context({**small_lm, "max_length": 20}).limit == 20  # the config entry's max_length wins
    assert model_context({**small_lm, "backend": "vllm", "vllm": {"max_model_len": 24}}).limit == 24
    # vLLM scores the first token too: one position more than hf
    tok = ctx.tokenizer
    assert positions_needed("vllm", tok, SHORT) == [n + 1 for n in positions_needed("hf", tok, SHORT)]
    with pytest.raises(InputError, match="no mask token"):
        model_context({**small_lm, "backend": "hf-mlm"})


def test_too_long_pairs_are_listed_per_paradigm(small_lm, pools):
    frames, _ = pools
    df = too_long_pairs(frames, model_context(small_lm))
    assert df.select("PID", "id", "column").rows() == [("pa", "pa_1", "source_sentence"),
                                                       ("pb", "pb_2", "target_sentence")]
    assert (df["positions"] > 48).all() and df["limit"].to_list() == [48, 48]
    union = too_long_ids([df, df.with_columns(pl.lit("other").alias("model"))])
    assert union.rows() == [("pa", "pa_1", "other, small"), ("pb", "pb_2", "other, small")]


def test_the_context_check_reads_the_pools_a_batch_at_a_time(small_lm, pools, tmp_path):
    # pools of 300 pairs in row groups of 64 rows: batches of 1, 7 and 1,000 rows give the table
    # of the whole-pool check, and the rule's stage writes the bytes the former in-memory stage wrote
    from rublimp.stages import context_stage as in_memory_stage

    frames, _ = pools
    ctx = model_context(small_lm)
    big = {}
    for pid, df in frames.items():
        rows = pl.concat([df.with_columns((pl.col("id") + f"_{r:03d}").alias("id")) for r in range(100)])
        big[pid] = tmp_path / f"big_{pid}.parquet"
        rows.write_parquet(big[pid], row_group_size=64)
    want = too_long_pairs({pid: pl.read_parquet(p) for pid, p in big.items()}, ctx)
    assert want.height == 200
    for batch_rows in (1, 7, 1_000):
        assert too_long_in_files(big, ctx, batch_rows=batch_rows).equals(want)
    assert context_stage(big, small_lm, tmp_path / "a.parquet", batch_rows=7) == {"pa": 100, "pb": 100}
    in_memory_stage(big, small_lm, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    empty = tmp_path / "empty.parquet"
    frames["pa"].head(0).write_parquet(empty)
    assert too_long_in_files({"pa": empty}, ctx).height == 0
    with pytest.raises(ValueError, match="batch_rows"):
        too_long_in_files(big, ctx, batch_rows=0)


def test_scoring_skips_the_pairs_too_long_for_any_model_instead_of_dying(small_lm, pools, tmp_path, caplog):
    """The failure the issue reports: one sentence longer than the model's positions stopped score_pools
    (after the demo LM had trained).  Now the context check runs first and the pair is scored by no model."""
    _, paths = pools
    out = tmp_path / "scores.parquet"
    with pytest.raises(InputError, match="more than max_length=48"):  # what happened before
        score_stage(list(paths.values()), out, spec=small_lm, ks=(30,))
    ctx_file = tmp_path / "context" / "small.parquet"
    with caplog.at_level("WARNING", logger="rublimp"):
        counts = context_stage(paths, small_lm, ctx_file)
    assert counts == {"pa": 1, "pb": 1}
    assert "paradigm pa: 1 pair(s)" in caplog.text and "leave the pool for every model" in caplog.text
    info = score_stage(list(paths.values()), out, spec=small_lm, ks=(30,), exclude=[ctx_file])
    scored = set(pl.read_parquet(out)["sentence"].to_list())
    assert LONG not in scored
    # the whole pair leaves: pb_2's short grammatical sentence is not scored either
    assert scored == {SHORT[0], SHORT[1], SHORT[2], SHORT[3]} and info["sentences"] == 4


def test_curation_drops_and_counts_the_too_long_pairs(small_lm, pools, tmp_path, caplog):
    frames, paths = pools
    ctx_file = tmp_path / "context" / "small.parquet"
    context_stage(paths, small_lm, ctx_file)
    pool = pl.concat([frames["pa"], frames["pb"]]).filter(pl.col("PID") == "pa")
    pool = pool.with_columns(pl.lit(8).alias("n_tokens"), pl.lit("news").alias("domain"))
    pool_path = tmp_path / "pool_pa.parquet"
    pool.write_parquet(pool_path)
    scores = pl.DataFrame({"sentence": SHORT, "mink_30": [-9.0, -9.5, -10.0, -9.2, -9.8]})
    scores_path = tmp_path / "scores_pa.parquet"
    scores.write_parquet(scores_path)
    with caplog.at_level("WARNING", logger="rublimp"):
        report = curate_stage(pool_path, {"small": scores_path}, tmp_path / "b.csv", tmp_path / "b.parquet",
                              tmp_path / "c.json", k=30, n=10, too_long=[ctx_file])
    (entry,) = report["paradigms"]
    assert entry["too_long"] == 1 and entry["pool"] == 2
    assert "1 pair(s) left out before scoring: a sentence is longer than the context of model(s) small" in entry["message"]
    assert "pa_1" not in pl.read_parquet(tmp_path / "b.parquet")["id"].to_list()
    assert json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["paradigms"][0]["too_long"] == 1
    assert "paradigm pa: 1 pair(s) left out" in caplog.text


def test_demo_lm_has_room_for_every_corpus_sentence(tmp_path):
    """The default demo LM (n_positions null) is sized to the corpus: a sentence of more tokens than the
    old fixed 128 positions, in the held-out half or not, fits; the context check then drops nothing."""
    from rublimp.demo_lm import fit_positions
    from rublimp.stages import train_demo_lm_stage

    very_long = " ".join(["Старая учительница долго рассказывала детям о далёких северных странах."] * 12)
    texts = SHORT * 4 + [very_long]
    sentences = tmp_path / "sentences.parquet"
    pl.DataFrame({"text": texts}).write_parquet(sentences)
    lm = {"train_fraction": 0.5, "vocab_size": 300, "n_layer": 1, "n_embd": 16, "n_head": 2, "epochs": 1,
          "batch_size": 8, "lr": 0.002, "max_train_sentences": None, "n_positions": None, "mlm": {}}
    info = train_demo_lm_stage(sentences, tmp_path / "demo", lm=lm, seed=0)
    n_pos = info["hyperparameters"]["n_positions"]
    assert info["longest_sequence"] > 128 and n_pos >= info["longest_sequence"] + 16 and n_pos % 32 == 0
    spec = {"name": "demo", "backend": "hf", "path": str(tmp_path / "demo")}
    ctx = model_context(spec)
    assert ctx.limit == n_pos and ctx.too_long([very_long]) == [None]
    assert fit_positions([61]) == 128 and fit_positions([131]) == 160  # the demo corpus keeps 128
    # an explicit n_positions is kept (the context check then drops what does not fit)
    fixed = train_demo_lm_stage(sentences, tmp_path / "demo128", lm={**lm, "n_positions": 128}, seed=0)
    assert fixed["hyperparameters"]["n_positions"] == 128
