"""Control characters and unreadable lines at every text entry point.

A NUL byte, an ESC sequence or another control character (C0 but tab, DEL, C1) never
reaches a pair: the corpus drops the sentence (``control_chars`` filter, file:line in the
stats), the parse stage skips it, the CoNLL-U reader rejects the tree, the CSV and line
readers of the other commands name the file and line. Unreadable lines (not UTF-8) and
malformed trees of a corpus source are skipped and counted up to ``corpus.max_bad_share``.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from rublimp.conllu_doc import read_conllu, read_conllu_string
from rublimp.corpus import BadInput, build_sentences, check_sentence, iter_documents, read_conllu_source
from rublimp.io import CONTROL_CHARS_RE, InputError, find_control_char

GOOD = [
    "Мама долго мыла старую раму на кухне.",
    "Старые друзья часто вспоминали школьные годы.",
    "Маленькие дети играли во дворе до вечера.",
    "Новый директор подписал важный приказ утром.",
]
# each with a control character inside a word, as a broken export or a binary file would leave it
NOISY = [
    "Мама долго мыла\x00\x00 старую раму на кухне вчера.",
    "Старый учитель \x1b[31mчитал\x1b[0m интересную книгу детям.",
    "Большие собаки громко\x07 лаяли за высоким забором.",
    "Молодые врачи\x1e спасли жизнь пожилому пациенту.",
    "Красивые птицы\x0b пели в густом зелёном саду.",
    "Дети весело\x7f играли в снежки после уроков.",
    "Соседи\x85 помогали друг другу во время ремонта.",
]


def _free_of_controls(text: str) -> bool:
    return CONTROL_CHARS_RE.search(text) is None


def test_find_control_char_names_the_character_and_column() -> None:
    assert find_control_char("Обычное предложение\tс табуляцией.") is None
    assert find_control_char("мыла\x00") == "control character U+0000 at column 5"
    assert find_control_char("\x1b[0m") == "control character U+001B at column 1"
    assert find_control_char("a\x9fb") == "control character U+009F at column 2"
    for ch in map(chr, [*range(0, 9), *range(10, 32), 127, *range(128, 160)]):
        assert find_control_char(f"слово{ch}слово") is not None, repr(ch)


@pytest.mark.parametrize("line", NOISY)
def test_control_chars_filter_drops_the_sentence(line: str) -> None:
    assert check_sentence(line) == "control_chars"
    assert check_sentence(line.replace("\x00", "").replace("\x1b[31m", "").replace("\x1b[0m", "")
                          .replace("\x07", "").replace("\x1e", "").replace("\x0b", "").replace("\x7f", "")
                          .replace("\x85", "")) is None


def test_corpus_text_source_drops_control_chars_with_file_and_line(tmp_path: Path, caplog) -> None:
    path = tmp_path / "in.txt"
    path.write_text("\n".join([GOOD[0], NOISY[0], GOOD[1], NOISY[1], *NOISY[2:], *GOOD[2:]]) + "\n", encoding="utf-8")
    src = {"name": "t", "type": "text", "domain": "news", "path": str(path)}
    with caplog.at_level(logging.WARNING, logger="rublimp"):
        df, stats = build_sentences([src], cache_dir=tmp_path)
    assert df["text"].to_list() == GOOD
    assert all(_free_of_controls(t) for t in df["text"])
    assert stats["sources"]["t"]["dropped"]["control_chars"] == len(NOISY)
    assert stats["total"]["dropped"]["control_chars"] == len(NOISY)
    first = stats["input"]["t"]["control_chars_first"]
    assert len(first) == 5
    assert first[0].startswith("in.txt:2 ") and "U+0000 at column 16" in first[0]
    assert first[1].startswith("in.txt:4 ") and "U+001B" in first[1]
    assert f"dropped {len(NOISY)} sentence(s) with control characters (first at in.txt:2" in caplog.text


def test_corpus_paragraph_and_demo_sources_drop_control_chars(tmp_path: Path) -> None:
    para = tmp_path / "para.txt"
    para.write_text(f"{GOOD[0]}\n{NOISY[0]}\n\n{GOOD[1]}\n", encoding="utf-8")
    df, stats = build_sentences(
        [{"name": "p", "type": "text", "domain": "news", "path": str(para), "layout": "paragraphs"}],
        cache_dir=tmp_path,
    )
    assert df["text"].to_list() == GOOD[:2]
    assert stats["input"]["p"]["control_chars_first"][0].startswith("para.txt:1 ")
    demo = tmp_path / "demo"
    demo.mkdir()
    (demo / "news.txt").write_text(f"# domain: news\n{GOOD[2]}\n{NOISY[3]}\n", encoding="utf-8")
    df, stats = build_sentences([{"name": "d", "type": "demo", "dir": str(demo)}], cache_dir=tmp_path)
    assert df["text"].to_list() == [GOOD[2]]
    assert stats["sources"]["d"]["dropped"]["control_chars"] == 1


CONLLU = """# sent_id = a
# text = Мама мыла раму.
1\tМама\tмама\tNOUN\t_\tCase=Nom|Gender=Fem|Number=Sing\t2\tnsubj\t_\t_
2\tмыла\tмыть\tVERB\t_\tGender=Fem|Number=Sing|Tense=Past\t0\troot\t_\t_
3\tраму\tрама\tNOUN\t_\tCase=Acc|Gender=Fem|Number=Sing\t2\tobj\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def _conllu(n: int, bad: dict[int, str] | None = None) -> str:
    """``n`` copies of :data:`CONLLU` with ids s0…; ``bad`` maps an index to a replacement of «мыла»."""
    blocks = []
    for i in range(n):
        block = CONLLU.replace("sent_id = a", f"sent_id = s{i}")
        if bad and i in bad:
            block = block.replace("2\tмыла", "2\t" + bad[i])
        blocks.append(block)
    return "".join(blocks)


def test_conllu_reader_rejects_control_chars_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_text(_conllu(2, {1: "мыла\x00\x00"}), encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_conllu(path))
    assert err.value.path == str(path) and err.value.line == 11
    assert "control character U+0000 at column 7" in str(err.value)
    with pytest.raises(InputError, match=r"<string>:2: control character U\+001B"):
        read_conllu_string(CONLLU.replace("# text = Мама мыла", "# text = Мама \x1b[1mмыла"))
    # with on_error the tree is skipped and its error handed over
    errors: list[InputError] = []
    sents = list(read_conllu(path, on_error=errors.append))
    assert [s.sent_id for s in sents] == ["s0"] and [e.line for e in errors] == [11]


def test_conllu_reader_skips_non_utf8_tree_on_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.conllu"
    path.write_bytes(_conllu(3).encode("utf-8").replace("s1\n# text = Мама мыла".encode(), b"s1\n# text = Mama \xe9"))
    errors: list[InputError] = []
    assert [s.sent_id for s in read_conllu(path, on_error=errors.append)] == ["s0", "s2"]
    assert len(errors) == 1 and errors[0].line == 9 and "not valid UTF-8" in str(errors[0])
    with pytest.raises(InputError, match=r"latin\.conllu:9: not valid UTF-8"):
        list(read_conllu(path))


# ------------------------------------------------------------------ unreadable input up to a share


def _text_with_bad_lines(path: Path, n: int, bad_lines: set[int]) -> None:
    lines = []
    for i in range(1, n + 1):
        line = f"Строка номер {i} вполне нормальная и длинная.".encode()
        lines.append(b"\xff\xfe broken" if i in bad_lines else line)
    path.write_bytes(b"\n".join(lines) + b"\n")


def test_one_bad_line_in_a_large_text_source_is_skipped_and_counted(tmp_path: Path, caplog) -> None:
    path = tmp_path / "big.txt"
    _text_with_bad_lines(path, 300, {7})
    src = {"name": "big", "type": "text", "domain": "news", "path": str(path)}
    with caplog.at_level(logging.WARNING, logger="rublimp"):
        df, stats = build_sentences([src], cache_dir=tmp_path)
    assert df.height == 299
    info = stats["input"]["big"]
    assert info["read"] == 300 and info["skipped"] == 1 and info["unit"] == "lines"
    assert info["first_skipped"] == [f"{path}:7: not valid UTF-8 (invalid start byte at byte 0)"]
    assert stats["settings"]["max_bad_share"] == 0.01
    assert "skipped 1 of 300 lines as unreadable" in caplog.text


def test_too_many_bad_lines_name_the_file_and_first_lines(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    _text_with_bad_lines(path, 100, {3, 10, 11, 50})
    src = {"name": "bad", "type": "text", "domain": "news", "path": str(path)}
    with pytest.raises(InputError) as err:
        build_sentences([src], cache_dir=tmp_path)
    msg = str(err.value)
    assert err.value.path == str(path) and err.value.line == 3
    assert "4 of 100 lines unreadable, more than corpus.max_bad_share=0.01 allows" in msg
    assert f"{path}:3:" in msg and f"{path}:10:" in msg and f"{path}:50:" in msg
    # a larger share admits them
    df, stats = build_sentences([src], cache_dir=tmp_path, max_bad_share=0.05)
    assert df.height == 96 and stats["input"]["bad"]["skipped"] == 4
    with pytest.raises(InputError, match=r"corpus\.max_bad_share: must be a number between 0 and 1"):
        build_sentences([src], cache_dir=tmp_path, max_bad_share=1.5)
    # iter_documents on its own applies the default share
    with pytest.raises(InputError, match="4 of 100 lines unreadable"):
        list(iter_documents(src, cache_dir=tmp_path))
    docs = list(iter_documents(src, cache_dir=tmp_path, bad=BadInput("x", 0.1)))
    assert len(docs) == 96


def test_one_bad_tree_in_a_large_conllu_source_is_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "gold.conllu"
    text = _conllu(200)
    # tree s5: a head outside the sentence
    text = text.replace("# sent_id = s5\n# text = Мама мыла раму.\n1\tМама\tмама\tNOUN\t_\tCase=Nom|Gender=Fem|Number=Sing\t2",
                        "# sent_id = s5\n# text = Мама мыла раму.\n1\tМама\tмама\tNOUN\t_\tCase=Nom|Gender=Fem|Number=Sing\t9")
    path.write_text(text, encoding="utf-8")
    src = {"name": "gold", "type": "conllu", "domain": "news", "path": str(path)}
    rows = list(read_conllu_source(path, domain="news", bad=(bad := BadInput("gold"))))
    assert len(rows) == 199 and bad.read == 200 and bad.bad == 1
    assert "head 9 outside the sentence" in bad.first[0] and f"{path}:" in bad.first[0]
    # the corpus stage dedupes the identical texts, but the tree count is what is limited
    df, stats = build_sentences([src], cache_dir=tmp_path)
    assert stats["input"]["gold"] == {
        "unit": "trees", "read": 200, "skipped": 1, "first_skipped": bad.first, "control_chars_first": [],
    }
    # a tree with a NUL byte is a bad tree too
    nul = tmp_path / "nul.conllu"
    nul.write_text(_conllu(20, {4: "мыла\x00", 9: "мы\x1bла"}), encoding="utf-8")
    with pytest.raises(InputError) as err:
        build_sentences([{**src, "path": str(nul)}], cache_dir=tmp_path)
    assert "2 of 20 trees unreadable" in str(err.value) and err.value.line == 4 * 7 + 4
    df, stats = build_sentences([{**src, "path": str(nul)}], cache_dir=tmp_path, max_bad_share=0.1)
    assert stats["input"]["gold"]["skipped"] == 2 and all(_free_of_controls(t) for t in df["text"])


def test_acceptability_csv_and_score_lines_reject_control_chars(tmp_path: Path) -> None:
    from rublimp.__main__ import _read_lines
    from rublimp.acceptability import read_items_csv

    csv = tmp_path / "items.csv"
    csv.write_text(f"sentence,acceptable\n{GOOD[0]},1\n{NOISY[0]},0\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"items\.csv:3: sentence has a control character U\+0000"):
        read_items_csv(csv)
    lines = tmp_path / "s.txt"
    lines.write_text(f"{GOOD[0]}\n\n{NOISY[1]}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"s\.txt:3: control character U\+001B"):
        _read_lines(str(lines))


# ------------------------------------------------------------------ parse and perturb


def test_parse_skips_control_chars(tmp_path: Path) -> None:
    from rublimp.parse import SkipReport, parse_file, parse_texts, parse_tokens

    skipped = SkipReport()
    out = list(parse_texts([("1", GOOD[0], ""), ("2", NOISY[0], ""), ("3", NOISY[1], "")], skipped=skipped))
    assert [s.sent_id for s in out] == ["1"] and skipped.as_dict() == {"control_chars": 2}
    src = tmp_path / "in.txt"
    src.write_text(f"{GOOD[1]}\n{NOISY[2]}\n", encoding="utf-8")
    skipped = SkipReport()
    assert parse_file(src, tmp_path / "out.conllu", skipped=skipped) == 1
    assert skipped.as_dict() == {"control_chars": 1} and skipped.examples["control_chars"] == ["2"]
    assert "\x07" not in (tmp_path / "out.conllu").read_text(encoding="utf-8")
    skipped = SkipReport()
    out = list(parse_tokens([["Мама", "мыла\x00", "раму", "."], ["Мама", "мыла", "раму", "."]], skipped=skipped))
    assert [s.sent_id for s in out] == ["2"] and skipped.as_dict() == {"control_chars": 1}


def test_control_chars_never_reach_a_pair(tmp_path: Path) -> None:
    """Corpus from a text file with NUL/ESC characters -> parse -> perturb, in process."""
    from rublimp.conllu_doc import read_conllu
    from rublimp.parse import SkipReport, parse_texts
    from rublimp.perturb import build_pools

    path = tmp_path / "raw.txt"
    path.write_text("\n".join([GOOD[0], NOISY[0], GOOD[1], NOISY[1], NOISY[3], GOOD[2], GOOD[3]]) + "\n",
                    encoding="utf-8")
    df, stats = build_sentences([{"name": "raw", "type": "text", "domain": "news", "path": str(path)}],
                                cache_dir=tmp_path)
    assert stats["total"]["dropped"]["control_chars"] == 3
    items = list(zip(df["sent_id"], df["text"], df["domain"]))
    # also hand the parse stage the noisy lines directly, as `python -m rublimp parse` would get them
    items += [(f"direct-{i}", line, "news") for i, line in enumerate(NOISY)]
    skipped = SkipReport()
    sents = list(parse_texts(items, skipped=skipped))
    assert skipped.as_dict() == {"control_chars": len(NOISY)}
    assert len(sents) == len(GOOD)
    names = ["noun_subj_predicate_agreement_number", "np_agreement_gender", "np_agreement_number"]
    pools = build_pools(sents, names, progress=False)
    assert sum(p.height for p in pools.values()) > 0  # the clean sentences do give pairs
    for pool in pools.values():
        for column in ("source_sentence", "target_sentence", "source_word", "target_word"):
            assert all(_free_of_controls(t) for t in pool[column]), pool[column].to_list()
    # the same sentence given to perturb as a tree with a NUL byte is rejected with file:line
    conllu = tmp_path / "nul.conllu"
    conllu.write_text(sents[0].to_conllu().replace("мыла", "мыла\x00\x00", 1), encoding="utf-8")
    with pytest.raises(InputError, match=r"nul\.conllu:\d+: control character U\+0000"):
        build_pools(read_conllu(conllu), names, progress=False)


def test_parse_stage_passes_through_a_conllu_source_with_a_skipped_tree(tmp_path: Path) -> None:
    """The corpus stage skips a malformed tree of a large gold CoNLL-U source; the parse stage,
    which takes that source's trees from the file, skips it too instead of stopping the run."""
    from rublimp.stages import corpus_stage, parse_stage

    gold = tmp_path / "gold.conllu"
    blocks = _conllu(150).split("\n\n")
    blocks = [b.replace("Мама мыла раму", f"Мама мыла раму {i} раз") for i, b in enumerate(blocks)]
    text = "\n\n".join(blocks).replace("# sent_id = s7\n", "# sent_id = s7\n# broken\n1\tx\n", 1)
    gold.write_text(text, encoding="utf-8")
    src = {"name": "gold", "type": "conllu", "domain": "news", "path": str(gold)}
    n = corpus_stage([src], tmp_path / "s.parquet", tmp_path / "filter_stats.json", cache_dir=tmp_path)
    assert n == 149
    stats = __import__("json").loads((tmp_path / "filter_stats.json").read_text(encoding="utf-8"))
    assert stats["input"]["gold"]["skipped"] == 1 and "expected 10 tab-separated fields" in stats["input"]["gold"]["first_skipped"][0]
    out = tmp_path / "shard0.conllu"
    assert parse_stage(tmp_path / "s.parquet", out, shard=0, n_shards=1, sources=[src]) == 149
    assert "sent_id = gold:s7\n" not in out.read_text(encoding="utf-8")
