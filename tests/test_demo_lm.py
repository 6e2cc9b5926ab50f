"""Tests for rublimp.demo_lm: the hash split, the tiny offline LM and the memorisation self-check."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import polars as pl
import pytest
import torch

from rublimp.demo_lm import (
    DEMO_SPECIAL_TOKEN,
    _atomic_dir,
    cap_sentences,
    causal_lm_loss,
    demo_sets,
    split_demo_train,
    train_demo_lm,
    training_set_sha256,
)
from rublimp.io import InputError
from rublimp.scoring import HFCausalScorer, mink_auroc

torch.set_num_threads(1)

# Forty short sentences on unrelated topics, so that a held-out sentence is
# full of words the demo LM has never seen.
SENTENCES = [
    "Рыбаки вернулись в гавань ещё до рассвета.",
    "На чердаке нашли сундук со старыми письмами.",
    "Лисица осторожно подкралась к курятнику.",
    "Библиотекарь расставил новые книги по алфавиту.",
    "Весной в саду зацвели вишни и яблони.",
    "Трамвай сломался прямо на перекрёстке.",
    "Мальчик впервые поймал большую щуку.",
    "Почтальон принёс телеграмму от дяди.",
    "Художник рисовал закат над заливом.",
    "В горах выпал первый снег.",
    "Повар добавил в суп слишком много соли.",
    "Студенты готовились к экзамену всю ночь.",
    "Кузнец выковал для коня новые подковы.",
    "Туристы заблудились в густом тумане.",
    "Сестра подарила мне вязаный шарф.",
    "Археологи раскопали древнюю глиняную вазу.",
    "Часы на башне пробили полночь.",
    "Пчёлы собирали нектар с клевера.",
    "Шахматист долго обдумывал следующий ход.",
    "Ветер сорвал с веревки чистое бельё.",
    "Пекарня на углу открывается в шесть утра.",
    "Журналист взял интервью у известного хирурга.",
    "Котёнок запутался в клубке ниток.",
    "Геологи обнаружили в пещере подземное озеро.",
    "Водитель такси включил громкую музыку.",
    "Садовник подстриг кусты у ворот.",
    "Скрипач настраивал инструмент перед выступлением.",
    "Паром отправился к острову с опозданием.",
    "Дедушка рассказывал внукам о своей молодости.",
    "Метель замела все тропинки в лесу.",
    "Программист нашёл ошибку в старом коде.",
    "Аист свил гнездо на крыше амбара.",
    "Медсестра измерила пациенту температуру.",
    "Гроза оборвала провода на окраине посёлка.",
    "Ювелир оценил кольцо с изумрудом.",
    "Школьники посадили во дворе молодые берёзы.",
    "Моряк выучил азбуку Морзе за неделю.",
    "Белка спрятала орехи в дупле.",
    "Оркестр репетировал симфонию до позднего вечера.",
    "Фонарщик зажигал огни на набережной.",
]


def _tiny_kwargs(**over):
    kw = dict(vocab_size=400, n_layer=1, n_embd=32, n_head=2, n_positions=64, batch_size=8, lr=5e-3,
              warmup_steps=2, num_threads=1, progress=False)
    kw.update(over)
    return kw


# --------------------------------------------------------------------------- split


def test_split_follows_documented_hash_rule():
    df = pl.DataFrame({"sent_id": [f"s{i}" for i in range(len(SENTENCES))], "text": SENTENCES})
    train, held = split_demo_train(df, 0.5, seed=0)
    assert train.height + held.height == df.height
    assert set(train["text"]).isdisjoint(held["text"])
    assert train.columns == df.columns
    for text in SENTENCES:
        bucket = int(hashlib.sha1(f"0:{text}".encode("utf-8")).hexdigest(), 16) % 1000
        assert (text in set(train["text"])) == (bucket < 500)
    # row order is kept on both sides
    assert train["sent_id"].to_list() == [s for s in df["sent_id"] if s in set(train["sent_id"])]


def test_split_is_stable_per_sentence():
    df = pl.DataFrame({"text": SENTENCES})
    train_all, _ = split_demo_train(df, 0.5)
    train_part, held_part = split_demo_train(df.slice(10, 15).reverse(), 0.5)
    assert set(train_part["text"]) == set(train_all["text"]) & set(SENTENCES[10:25])
    assert set(held_part["text"]).isdisjoint(train_all["text"])
    other_seed, _ = split_demo_train(df, 0.5, seed=1)
    assert set(other_seed["text"]) != set(train_all["text"])


def test_split_fractions():
    df = pl.DataFrame({"text": [f"Предложение номер {i}." for i in range(2000)]})
    train, held = split_demo_train(df, 0.3, seed=7)
    assert 0.26 < train.height / 2000 < 0.34
    assert split_demo_train(df, 0.0)[0].height == 0
    assert split_demo_train(df, 1.0)[1].height == 0
    with pytest.raises(InputError, match="fraction"):
        split_demo_train(df, 1.5)
    with pytest.raises(InputError, match="no column 'sentence'"):
        split_demo_train(df, column="sentence")


def test_cap_sentences_is_a_seeded_uniform_sample_in_table_order():
    df = pl.DataFrame({"sent_id": [f"s{i}" for i in range(4000)], "text": [f"Предложение номер {i}." for i in range(4000)]})
    assert cap_sentences(df, None).equals(df) and cap_sentences(df, 4000).equals(df)
    kept = cap_sentences(df, 400, seed=0)
    assert kept.height == 400 and kept.columns == df.columns
    pos = [int(s[1:]) for s in kept["sent_id"]]
    assert pos == sorted(pos)  # table order
    for lo in range(0, 4000, 1000):  # about 100 from each quarter of the table
        assert 60 <= sum(lo <= i < lo + 1000 for i in pos) <= 140
    # the same texts whatever the table's order; another seed, another sample
    assert set(cap_sentences(df.reverse(), 400, seed=0)["text"]) == set(kept["text"])
    assert set(cap_sentences(df, 400, seed=1)["text"]) != set(kept["text"])


def test_demo_sets_cap_both_halves_and_stay_disjoint():
    df = pl.DataFrame({"text": [f"Предложение номер {i}." for i in range(3000)]})
    train, held = demo_sets(df, fraction=0.5, max_sentences=200, seed=0)
    assert train.height == held.height == 200
    full_train, full_held = split_demo_train(df, 0.5, seed=0)
    assert set(train["text"]) <= set(full_train["text"]) and set(held["text"]) <= set(full_held["text"])
    uncapped = demo_sets(df, fraction=0.5, max_sentences=None, seed=0)
    assert uncapped[0].equals(full_train) and uncapped[1].equals(full_held)


@pytest.mark.parametrize("cap", [None, 0, 7, 200, 5000])
def test_demo_texts_stream_the_same_sets_as_demo_sets(tmp_path, cap):
    """Read a record batch at a time, the sides are those of demo_sets on the whole table (table order)."""
    from rublimp.demo_lm import demo_texts

    texts = [f"Предложение номер {i}." for i in range(3000)] + ["Предложение номер 5."]  # a duplicate too
    table = tmp_path / "sentences.parquet"
    pl.DataFrame({"text": texts}).write_parquet(table, row_group_size=256)
    train, held = demo_sets(pl.DataFrame({"text": texts}), fraction=0.3, max_sentences=cap, seed=4)
    got = demo_texts(table, fraction=0.3, max_sentences=cap, seed=4, batch_rows=100)
    assert got == (train["text"].to_list(), held["text"].to_list())


def test_demo_lm_stage_trains_on_the_capped_set(tmp_path):
    from rublimp.stages import train_demo_lm_stage

    df = pl.DataFrame({"sent_id": [f"s{i}" for i in range(600)],
                       "text": [f"{SENTENCES[i % len(SENTENCES)][:-1]} номер {i}." for i in range(600)]})
    df.write_parquet(tmp_path / "sentences.parquet")
    lm = {"max_train_sentences": 25, "epochs": 1, **_tiny_kwargs()}
    info = train_demo_lm_stage(tmp_path / "sentences.parquet", tmp_path / "lm", lm=lm, seed=0)
    want, _ = demo_sets(df, fraction=0.5, max_sentences=25, seed=0)
    assert info["n_sentences"] == 25
    assert info["training_set_sha256"] == training_set_sha256(want["text"].to_list())


# --------------------------------------------------------------------------- training


def test_tiny_training_run_gives_loadable_deterministic_model(tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    a, b = tmp_path / "a", tmp_path / "b"
    info = train_demo_lm(SENTENCES[:12], a, seed=3, max_steps=3, **_tiny_kwargs())
    train_demo_lm(list(reversed(SENTENCES[:12])) + SENTENCES[:2], b, seed=3, max_steps=3, **_tiny_kwargs())

    saved = json.loads((a / "training.json").read_text(encoding="utf-8"))
    assert saved == info
    assert info["seed"] == 3 and info["steps"] == 3 and info["n_sentences"] == 12
    assert info["training_set_sha256"] == training_set_sha256(SENTENCES[:12])
    assert info["hyperparameters"]["n_embd"] == 32 and info["hyperparameters"]["lr"] == 5e-3
    assert info["final_loss"] > 0 and info["wall_time_s"] >= 0

    tok = AutoTokenizer.from_pretrained(a)
    assert tok.bos_token == tok.eos_token == tok.pad_token == DEMO_SPECIAL_TOKEN
    model = AutoModelForCausalLM.from_pretrained(a)
    assert model.config.n_embd == 32 and model.config.vocab_size == len(tok)
    assert tok.decode(tok("Белка спрятала орехи.", add_special_tokens=False)["input_ids"]) == "Белка спрятала орехи."

    # Same distinct sentences + seed -> byte-identical weights and tokenizer, whatever the input order.
    for name in ("model.safetensors", "tokenizer.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "temporary dirs left behind"


def test_causal_lm_loss_is_the_models_own_loss_on_a_padded_batch():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=50, n_positions=16, n_embd=16, n_layer=1, n_head=2, bos_token_id=0,
                                       eos_token_id=0, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0))
    lengths = [9, 4, 12, 2]
    ids = torch.randint(1, 50, (len(lengths), max(lengths)))
    mask = torch.zeros_like(ids)
    labels = torch.full_like(ids, -100)
    for r, n in enumerate(lengths):
        mask[r, :n] = 1
        labels[r, :n] = ids[r, :n]
        ids[r, n:] = 0  # padding: its logits must not count
    ours = causal_lm_loss(model, ids, mask, labels)
    theirs = model(input_ids=ids, attention_mask=mask, labels=labels).loss
    assert ours.item() == pytest.approx(theirs.item(), rel=1e-5)
    # and the gradients agree: the padding positions contribute nothing to either
    ours.backward()
    g_ours = model.transformer.wte.weight.grad.clone()
    model.zero_grad()
    theirs.backward()
    assert torch.allclose(g_ours, model.transformer.wte.weight.grad, atol=1e-6)


def test_training_replaces_existing_dir(tmp_path):
    out = tmp_path / "lm"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    train_demo_lm(SENTENCES[:6], out, max_steps=1, **_tiny_kwargs())
    assert not (out / "stale.txt").exists() and (out / "training.json").exists()


def test_atomic_dir_keeps_old_output_on_failure(tmp_path):
    out = tmp_path / "lm"
    out.mkdir()
    (out / "keep.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with _atomic_dir(out) as tmp:
            (tmp / "new.txt").write_text("half")
            raise RuntimeError("boom")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["lm"]


@pytest.mark.parametrize(
    ("sentences", "kwargs", "match"),
    [
        ([], {}, "at least 2 distinct"),
        (["Одно и то же.", "Одно и то же."], {}, "at least 2 distinct"),
        (["Кот спит.", ""], {}, "#1 is empty"),
        (SENTENCES[:4], {"n_embd": 30, "n_head": 4}, "not divisible"),
        (SENTENCES[:4], {"epochs": 0}, "epochs must be positive"),
    ],
)
def test_bad_training_input(tmp_path, sentences, kwargs, match):
    with pytest.raises(InputError, match=match):
        train_demo_lm(sentences, tmp_path / "x", **_tiny_kwargs(**kwargs))
    assert not (tmp_path / "x").exists()


def _auroc_after_training(sentences: list[str], out: Path, **kwargs) -> tuple[float, dict]:
    df = pl.DataFrame({"text": sentences})
    train, held = split_demo_train(df, 0.5)
    info = train_demo_lm(train["text"].to_list(), out, **kwargs)
    scores = HFCausalScorer(out, num_threads=1).score(sentences, ks=(60,), progress=False)
    is_train = pl.col("sentence").is_in(train["text"].implode())
    return mink_auroc(scores.filter(is_train)["mink_60"], scores.filter(~is_train)["mink_60"]), info


def test_memorisation_makes_training_sentences_detectable(tmp_path):
    auroc, info = _auroc_after_training(SENTENCES, tmp_path / "lm", epochs=25, **_tiny_kwargs(n_embd=64))
    assert info["epoch_losses"][-1] < info["epoch_losses"][0] - 1.0  # it did learn
    assert auroc > 0.8


@pytest.mark.slow
def test_default_settings_on_bundled_demo_corpus(tmp_path):
    """Default hyper-parameters on the repository's demo corpus (a few CPU minutes)."""
    corpus = sorted((Path(__file__).resolve().parents[1] / "resources" / "demo_corpus").glob("*.txt"))
    lines = [ln.strip() for f in corpus for ln in f.read_text(encoding="utf-8").splitlines()]
    sentences = sorted({ln for ln in lines if ln and not ln.startswith("#")})
    if len(sentences) < 100:
        pytest.skip("bundled demo corpus not available")
    auroc, info = _auroc_after_training(sentences, tmp_path / "lm", num_threads=2, progress=False)
    assert auroc > 0.9, info
