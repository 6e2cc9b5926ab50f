"""Tests for the parse stage: MST decoding, the slovnet backend, files and shards, evaluation, stanza errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rublimp.conllu_doc import read_conllu, read_conllu_string
from rublimp.io import InputError
from rublimp.parse import get_parser, parse_file, parse_shard, parse_texts, parse_to_shards, parse_tokens
from rublimp.parse.evaluate import attachment_scores, invalid_tree_share
from rublimp.parse.mst import is_valid_tree, mst_heads, tree_score


# -- MST ------------------------------------------------------------------
def _brute_force(scores: np.ndarray) -> tuple[float, tuple[int, ...]]:
    n = scores.shape[0]
    best = None
    for heads in itertools.product(range(n + 1), repeat=n):
        if is_valid_tree(heads):
            s = tree_score(scores, heads)
            if best is None or s > best[0]:
                best = (s, heads)
    assert best is not None
    return best


def test_is_valid_tree():
    assert is_valid_tree([2, 0, 2])
    assert not is_valid_tree([2, 1, 0])  # 1 <-> 2 cycle
    assert not is_valid_tree([0, 0, 2])  # two roots
    assert not is_valid_tree([2, 3, 1])  # no root, cycle
    assert not is_valid_tree([1, 0])  # self-loop
    assert not is_valid_tree([4, 0, 1])  # head out of range
    assert is_valid_tree([0])


def test_mst_breaks_cycle():
    # rows: tokens 1..3, columns: heads ROOT,1,2,3. Argmax: 1->2, 2->1 (cycle), 3->2.
    scores = np.array(
        [
            [1.0, 0.0, 9.0, 0.0],
            [2.0, 8.0, 0.0, 1.0],
            [0.0, 0.0, 5.0, 0.0],
        ]
    )
    argmax = scores.argmax(axis=1)
    assert not is_valid_tree(argmax)
    heads = mst_heads(scores)
    assert is_valid_tree(heads)
    # best repair: keep 1->2 (9) and 3->2 (5), attach 2 to ROOT (2) = 16; 2->1 & 1->ROOT = 8+1+5 = 14
    assert heads.tolist() == [2, 0, 2]


def test_mst_single_root():
    # every token prefers ROOT
    scores = np.array(
        [
            [5.0, 0.0, 1.0, 0.0],
            [6.0, 2.0, 0.0, 0.5],
            [4.0, 0.0, 3.0, 0.0],
        ]
    )
    assert (scores.argmax(axis=1) == 0).all()
    heads = mst_heads(scores)
    assert is_valid_tree(heads)
    assert sum(h == 0 for h in heads) == 1
    assert tuple(heads) == _brute_force(scores)[1]
    # without the constraint the three roots are kept
    assert mst_heads(scores, single_root=False).tolist() == [0, 0, 0]


def test_mst_keeps_valid_argmax():
    scores = np.array([[0.0, 0.0, 3.0], [3.0, 1.0, 0.0]])
    assert mst_heads(scores).tolist() == [2, 0]


def test_mst_equals_brute_force():
    rng = np.random.default_rng(12345)
    for _ in range(150):
        n = int(rng.integers(1, 6))
        scores = rng.normal(scale=3.0, size=(n, n + 1))
        heads = mst_heads(scores)
        best_score, best_heads = _brute_force(scores)
        assert is_valid_tree(heads)
        assert tree_score(scores, heads) == pytest.approx(best_score)
        assert tuple(heads) == best_heads


def test_mst_bad_input():
    with pytest.raises(ValueError):
        mst_heads(np.zeros((3, 3)))
    assert mst_heads(np.zeros((0, 1))).tolist() == []


def test_mst_long_sentence_valid():
    rng = np.random.default_rng(7)
    scores = rng.normal(size=(120, 121))
    heads = mst_heads(scores)
    assert is_valid_tree(heads)
    # never worse than any tree we can build by hand: the chain 1 <- 2 <- ... and the star on token 1
    chain = [i + 2 for i in range(119)] + [0]
    star = [0] + [1] * 119
    assert tree_score(scores, heads) >= max(tree_score(scores, chain), tree_score(scores, star))


def test_mst_matches_networkx_on_longer_sentences():
    """Independent check of the contraction code for n > 5 (networkx, unconstrained and root-penalised)."""
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(99)
    for n in (8, 15, 30):
        for _ in range(5):
            scores = rng.normal(scale=2.0, size=(n, n + 1))
            scores[:, 0] += rng.normal() * 3  # vary how attractive ROOT is
            for single_root in (False, True):
                penalty = (scores.max() - scores.min() + 1.0) * (n + 1) if single_root else 0.0
                g = nx.DiGraph()
                for d in range(1, n + 1):
                    for h in range(n + 1):
                        if h != d:
                            g.add_edge(h, d, weight=scores[d - 1, h] - (penalty if h == 0 else 0.0))
                ref = [0] * n
                for h, d in nx.maximum_spanning_arborescence(g).edges:
                    ref[d - 1] = h
                heads = mst_heads(scores, single_root=single_root)
                assert tree_score(scores, heads) == pytest.approx(tree_score(scores, ref))
                if single_root:
                    assert is_valid_tree(heads)


def test_head_confidence_is_softmax_without_self_loop():
    from rublimp.parse.slovnet_backend import _head_confidence

    # token 1: ROOT 0, self (ignored) 50, token 2 ln 3 -> P(ROOT) = 1/4, P(2) = 3/4
    scores = np.array([[0.0, 50.0, np.log(3.0)], [np.log(4.0), 0.0, -50.0]])
    conf = _head_confidence(scores, np.array([2, 1]))
    assert conf[0] == pytest.approx(0.75)
    assert conf[1] == pytest.approx(1.0 / 5.0)


# -- evaluation -----------------------------------------------------------
GOLD = """# sent_id = g1
# text = Кошки спали на диване.
1\tКошки\tкошка\tNOUN\t_\t_\t2\tnsubj\t_\t_
2\tспали\tспать\tVERB\t_\t_\t0\troot\t_\t_
3\tна\tна\tADP\t_\t_\t4\tcase\t_\t_
4\tдиване\tдиван\tNOUN\t_\t_\t2\tobl\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_
"""


def test_attachment_scores():
    gold = read_conllu_string(GOLD)
    pred = read_conllu_string(
        GOLD.replace("2\tobl\t", "2\tobl:tmod\t").replace("4\tcase", "2\tcase").replace("2\tpunct", "4\tpunct")
    )
    sc = attachment_scores(gold, pred)
    assert sc["tokens"] == 5 and sc["tokens_nopunct"] == 4
    assert sc["uas"] == pytest.approx(60.0)  # на and . wrong
    assert sc["las"] == pytest.approx(40.0)  # + obl:tmod wrong in full
    assert sc["las_base"] == pytest.approx(60.0)
    assert sc["uas_nopunct"] == pytest.approx(75.0)
    assert sc["las_nopunct"] == pytest.approx(50.0)
    with pytest.raises(ValueError):
        attachment_scores(gold, [])


def test_invalid_tree_share():
    assert invalid_tree_share([[2, 0], [0, 0], [2, 1], [0]]) == pytest.approx(0.5)
    assert invalid_tree_share([]) == 0.0


# -- slovnet backend ------------------------------------------------------
@pytest.fixture(scope="module")
def cats():
    return next(parse_texts([("s1", "Кошки спали на диване.", "fiction")]))


@pytest.fixture(scope="module")
def parser():
    return get_parser("slovnet")


def test_parse_texts_tree_and_lemmas(cats):
    s = cats
    assert s.sent_id == "s1" and s.domain == "fiction" and s.text == "Кошки спали на диване."
    assert s.words() == ["Кошки", "спали", "на", "диване", "."]
    assert is_valid_tree([t.head for t in s.tokens])
    lemmas = {t.form: t.lemma for t in s.tokens}
    assert lemmas["Кошки"] == "кошка"
    assert lemmas["спали"] == "спать"
    assert lemmas["диване"] == "диван"
    assert lemmas["."] == "."
    by_form = {t.form: t for t in s.tokens}
    assert by_form["спали"].head == 0 and by_form["спали"].deprel == "root"
    assert by_form["Кошки"].upos == "NOUN" and by_form["Кошки"].feats.get("Case") == "Nom"
    assert by_form["Кошки"].head == by_form["спали"].id
    # alignment and SpaceAfter
    for t in s.tokens:
        assert s.text[t.start : t.end] == t.form
    assert by_form["диване"].misc.get("SpaceAfter") == "No"
    assert "SpaceAfter" not in by_form["Кошки"].misc
    assert "SpaceAfter" not in by_form["."].misc
    for t in s.tokens:
        conf = float(t.misc["HeadConf"])
        assert 0.0 < conf <= 1.0
        assert len(t.misc["HeadConf"].split(".")[1]) == 3


def test_parse_texts_many_valid_trees_and_order():
    texts = [
        "Мальчик, которого я встретил вчера у школы, оказался братом моего друга.",
        "Он сказал, что придёт завтра, но так и не пришёл.",
        "В 2019 году компания «Ромашка» открыла три новых магазина в Москве и Санкт-Петербурге.",
        "Ой!",
        "Если бы не дождь, мы бы пошли гулять в парк, а потом — в кино.",
        "Книги, журналы, газеты: всё лежало на полу вперемешку.",
    ]
    items = [(f"t{i}", t, "news") for i, t in enumerate(texts)]
    out = list(parse_texts(items, batch_size=2))
    assert [s.sent_id for s in out] == [f"t{i}" for i in range(len(texts))]
    for s, text in zip(out, texts):
        assert s.text == text
        assert s.is_aligned()
        heads = [t.head for t in s.tokens]
        assert is_valid_tree(heads)
        roots = s.roots()
        assert len(roots) == 1 and roots[0].deprel == "root"
        assert all(t.deprel != "root" for t in s.tokens if t.head != 0)
    # output does not depend on the batch size used to get it
    again = list(parse_texts(items, batch_size=64))
    assert [s.to_conllu() for s in again] == [s.to_conllu() for s in out]


def test_argmax_decoder_matches_slovnet(parser):
    """The 'argmax' decoder reproduces natasha's own parser (same heads and relations)."""
    from natasha import NewsEmbedding, NewsSyntaxParser

    words = [
        ["Мальчик", ",", "которого", "я", "встретил", "вчера", ",", "оказался", "братом", "друга", "."],
        ["Кошки", "спали", "на", "диване", "."],
    ]
    reference = list(NewsSyntaxParser(NewsEmbedding()).map(words))
    ours = get_parser("slovnet", decoder="argmax").parse(words)
    for ref, got in zip(reference, ours):
        assert [int(t.head_id) for t in ref.tokens] == got.heads
        assert [t.rel for t in ref.tokens] == got.deprels


def test_parse_tokens_pretokenized():
    toks = [["Я", "читаю", "книгу", "."], ["Дети", "играли", "во", "дворе", "."]]
    out = list(parse_tokens(toks, sent_ids=["a", "b"]))
    assert [s.sent_id for s in out] == ["a", "b"]
    assert [s.words() for s in out] == toks
    assert out[0].text == "Я читаю книгу ."
    assert out[1].token(2).lemma == "играть"
    with pytest.raises(InputError):
        list(parse_tokens([[]]))


def test_empty_text_is_an_error():
    with pytest.raises(InputError, match="no tokens"):
        list(parse_texts([("e1", "   ", "")]))


def test_unknown_backend():
    with pytest.raises(InputError, match="unknown parser backend"):
        list(parse_texts([("1", "Текст.", "")], backend="udpipe"))


def test_parse_file_line_numbers(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("Собака лает.\n\nПтицы поют весной.\nСолнце светит ярко.\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    n = parse_file(src, out, backend="slovnet", domain="test")
    sents = list(read_conllu(out))
    assert n == 3
    assert [s.sent_id for s in sents] == ["1", "3", "4"]
    assert sents[1].text == "Птицы поют весной."
    assert all(s.domain == "test" for s in sents)
    assert sents[0].token(1).misc["HeadConf"]
    with pytest.raises(InputError, match="not found"):
        parse_file(tmp_path / "missing.txt", tmp_path / "x.conllu")


def test_shards_round_robin_and_deterministic(tmp_path):
    import polars as pl

    texts = ["Первое предложение.", "Второе предложение.", "Третье.", "Четвёртое предложение тут.", "Пятое!"]
    df = pl.DataFrame({"sent_id": [f"s{i}" for i in range(5)], "text": texts, "domain": ["news"] * 5})
    paths = [tmp_path / "p0.conllu", tmp_path / "p1.conllu"]
    counts = parse_to_shards(df, paths)
    assert counts == [3, 2]
    ids = [[s.sent_id for s in read_conllu(p)] for p in paths]
    assert ids == [["s0", "s2", "s4"], ["s1", "s3"]]
    single = tmp_path / "single1.conllu"
    parse_shard(list(zip(df["sent_id"], df["text"], df["domain"])), 1, 2, single)
    assert single.read_bytes() == paths[1].read_bytes()
    with pytest.raises(InputError):
        parse_shard(df, 2, 2, tmp_path / "bad.conllu")
    with pytest.raises(InputError, match="column"):
        parse_to_shards(df.drop("text"), paths)


# -- stanza ---------------------------------------------------------------
def test_stanza_missing_model_is_clear(tmp_path, monkeypatch):
    import importlib.util

    if importlib.util.find_spec("stanza") is None:
        pytest.skip("stanza not installed")
    with pytest.raises(InputError) as err:
        get_parser("stanza", model_dir=str(tmp_path / "nowhere"))
    msg = str(err.value)
    assert "stanza.download('ru'" in msg
    assert str(tmp_path / "nowhere") in msg
    assert "parse.stanza.model_dir" in msg
    # the default folder comes from $STANZA_RESOURCES_DIR
    empty = tmp_path / "stanza_resources"
    empty.mkdir()
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(empty))
    with pytest.raises(InputError, match="not found in .*stanza_resources"):
        list(parse_texts([("1", "Текст.", "")], backend="stanza"))


def test_stanza_document_conversion():
    """A real stanza Document built by hand converts into an aligned Sentence."""
    stanza_doc = pytest.importorskip("stanza.models.common.doc")
    from rublimp.parse import to_sentence
    from rublimp.parse.stanza_backend import document_to_parsed

    rows = [
        {"id": 1, "text": "Кошки", "lemma": "кошка", "upos": "NOUN", "feats": "Case=Nom|Number=Plur", "head": 2, "deprel": "nsubj"},
        {"id": 2, "text": "спали", "lemma": "спать", "upos": "VERB", "feats": "Number=Plur|Tense=Past", "head": 0, "deprel": "root"},
        {"id": 3, "text": ".", "lemma": ".", "upos": "PUNCT", "head": 2, "deprel": "punct"},
    ]
    doc = stanza_doc.Document([rows])
    [parsed] = document_to_parsed(doc)
    assert parsed.heads == [2, 0, 2] and parsed.deprels == ["nsubj", "root", "punct"]
    assert parsed.feats[0] == {"Case": "Nom", "Number": "Plur"} and parsed.feats[2] == {}
    assert parsed.head_conf is None
    s = to_sentence(parsed, sent_id="x", text="Кошки спали.", lemmas="backend")
    assert [t.lemma for t in s.tokens] == ["кошка", "спать", "."]
    assert s.token(2).misc == {"SpaceAfter": "No"}
    assert s.is_aligned()
    s2 = to_sentence(parsed, sent_id="x", text="Кошки спали.")  # pymorphy3 lemmas
    assert s2.token(1).lemma == "кошка"


# -- bounded input ------------------------------------------------------------
def test_overlong_sentences_are_skipped_and_counted():
    from rublimp.parse import SkipReport

    items = [
        ("a", "Кошка спит.", ""),
        ("b", "Очень " * 500 + "длинно.", ""),  # 3,007 characters
        ("c", "Кот " * 30 + "спит.", ""),  # 32 tokens, 125 characters
        ("d", "Собака лает.", ""),
    ]
    skipped = SkipReport()
    out = list(parse_texts(items, max_chars=2000, max_tokens=20, skipped=skipped))
    assert [s.sent_id for s in out] == ["a", "d"]
    assert skipped.as_dict() == {"max_chars": 1, "max_tokens": 1}
    assert skipped.summary() == "2 skipped: max_chars: 1 (sentence b); max_tokens: 1 (sentence c)"
    # None disables a bound; the defaults (2000 characters, 250 tokens) keep both short ones
    assert [s.sent_id for s in parse_texts(items[2:], max_tokens=None)] == ["c", "d"]
    toks = [["Я", "читаю", "."], ["слово"] * 300 + ["."]]
    skipped = SkipReport()
    assert [s.sent_id for s in parse_tokens(toks, skipped=skipped)] == ["1"]
    assert skipped.as_dict() == {"max_tokens": 1}


@pytest.mark.parametrize("key, value", [("max_chars", 0), ("max_tokens", -3), ("max_chars", "10")])
def test_bad_bounds_name_the_config_key(key, value):
    with pytest.raises(InputError, match=rf"config: parse\.{key}: must be a positive integer"):
        list(parse_texts([("1", "Текст.", "")], **{key: value}))


def test_parse_stage_logs_what_it_skipped(tmp_path, caplog):
    import logging

    import polars as pl

    from rublimp.stages import parse_stage

    df = pl.DataFrame({
        "sent_id": ["s0", "s1", "s2"],
        "text": ["Кошка спит.", "Слово " * 400 + "конец.", "Собака лает."],
        "domain": ["news"] * 3,
        "source": ["t"] * 3,
    })
    df.write_parquet(tmp_path / "s.parquet")
    with caplog.at_level(logging.INFO, logger="rublimp"):
        n = parse_stage(tmp_path / "s.parquet", tmp_path / "o.conllu", shard=0, n_shards=1, max_chars=1000)
    assert n == 2 and [s.sent_id for s in read_conllu(tmp_path / "o.conllu")] == ["s0", "s2"]
    assert "skipped sentence s1: 2406 characters > max_chars=1000" in caplog.text
    assert "1 skipped: max_chars: 1 (sentence s1)" in caplog.text


def test_parse_file_utf8_error_keeps_previous_output(tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes("Кошка спит.\n".encode() + b"caf\xe9\n")
    out = tmp_path / "out.conllu"
    out.write_text("old\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"in\.txt:2: not valid UTF-8"):
        parse_file(src, out)
    assert out.read_text(encoding="utf-8") == "old\n"
    assert not list(tmp_path.glob(".*.tmp"))
