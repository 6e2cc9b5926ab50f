"""CoNLL-U reading/writing: line numbers in errors, text alignment, round trips."""

import pytest

from rublimp.conllu_doc import read_conllu, read_conllu_string, write_conllu
from rublimp.io import InputError

GOOD = """# sent_id = s1
# text = Кошка спит, а «мы» — нет.
# domain = fiction
1\tКошка\tкошка\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Fem|Number=Sing\t2\tnsubj\t_\t_
2\tспит\tспать\tVERB\t_\tNumber=Sing|Person=3|Tense=Pres\t0\troot\t_\tSpaceAfter=No
3\t,\t,\tPUNCT\t_\t_\t7\tpunct\t_\t_
4\tа\tа\tCCONJ\t_\t_\t7\tcc\t_\t_
5\t«\t«\tPUNCT\t_\t_\t6\tpunct\t_\tSpaceAfter=No
6\tмы\tмы\tPRON\t_\tCase=Nom|Number=Plur|Person=1\t7\tnsubj\t_\tSpaceAfter=No
7\t»\t»\tPUNCT\t_\t_\t2\tconj\t_\t_
8\t—\t—\tPUNCT\t_\t_\t9\tpunct\t_\t_
9\tнет\tнет\tPART\t_\t_\t7\tconj\t_\tSpaceAfter=No
10\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def test_read_and_align():
    (s,) = read_conllu_string(GOOD)
    assert s.sent_id == "s1" and s.domain == "fiction"
    assert s.text == "Кошка спит, а «мы» — нет."
    assert s.is_aligned()
    for t in s.tokens:
        assert s.text[t.start : t.end] == t.form
    assert s.token(1).feats["Gender"] == "Fem"
    assert [c.id for c in s.children(2)] == [1, 7, 10]
    assert [t.id for t in s.subtree(7)] == [3, 4, 5, 6, 7, 8, 9]
    assert s.depth() == 4  # root -> conj » -> nsubj мы -> punct «


def test_round_trip(tmp_path):
    (s,) = read_conllu_string(GOOD)
    out = tmp_path / "x.conllu"
    assert write_conllu([s, s], out) == 2
    again = list(read_conllu(out))
    assert len(again) == 2 and again[0].to_conllu() == s.to_conllu()


@pytest.mark.parametrize(
    "mutate, line, fragment",
    [
        (lambda t: t.replace("2\tnsubj\t_\t_\n2\tспит", "2\tnsubj\t_\n2\tспит"), 4, "10 tab-separated"),
        (lambda t: t.replace("\t0\troot", "\tx\troot"), 5, "head"),
        (lambda t: t.replace("4\tа\t", "x\tа\t"), 7, "token id"),
    ],
)
def test_malformed_lines_are_named(tmp_path, mutate, line, fragment):
    p = tmp_path / "bad.conllu"
    p.write_text(mutate(GOOD), encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_conllu(p))
    assert f"bad.conllu:{line}:" in str(err.value)
    assert fragment in str(err.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        list(read_conllu(tmp_path / "nope.conllu"))


def test_head_out_of_range(tmp_path):
    p = tmp_path / "bad.conllu"
    p.write_text(GOOD + GOOD.replace("s1", "s2").replace("\t0\troot", "\t42\troot"), encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_conllu(p))
    # the error names the offending token's own line (line 19: token 2 of the second sentence)
    assert ":19:" in str(err.value) and "outside the sentence" in str(err.value)


# -- tree validation: every case names the file and the offending line ---------------
SIMPLE = """# sent_id = t
# text = Кошка спит.
1\tКошка\tкошка\tNOUN\t_\t_\t{h1}\tnsubj\t_\t_
2\tспит\tспать\tVERB\t_\t_\t{h2}\troot\t_\tSpaceAfter=No
{id3}\t.\t.\tPUNCT\t_\t_\t{h3}\tpunct\t_\t_

"""


@pytest.mark.parametrize(
    "heads, line, fragment",
    [
        ({"h1": 2, "h2": 3, "h3": 1, "id3": 3}, 3, "dependency cycle through tokens 1 -> 2 -> 3 -> 1 and no root"),
        ({"h1": 2, "h2": 0, "h3": 3, "id3": 3}, 5, "token 3 is its own head"),
        ({"h1": 0, "h2": 0, "h3": 2, "id3": 3}, 4, "second root: token 2 has head 0, as does the token on line 3"),
        ({"h1": 2, "h2": 0, "h3": 4, "id3": 3}, 5, "token 3 has head 4 outside the sentence"),
        ({"h1": 2, "h2": 0, "h3": 2, "id3": 4}, 5, "ids must run 1..n without gaps: expected 3, found 4"),
        ({"h1": 3, "h2": 0, "h3": 1, "id3": 3}, 3, "dependency cycle through tokens 1 -> 3 -> 1"),
    ],
    ids=["cycle_without_root", "self_loop", "two_roots", "head_out_of_range", "id_gap", "cycle_beside_root"],
)
def test_invalid_trees_are_rejected_with_file_and_line(tmp_path, heads, line, fragment):
    p = tmp_path / "bad.conllu"
    p.write_text(SIMPLE.format(**heads), encoding="utf-8")
    with pytest.raises(InputError) as err:
        list(read_conllu(p))
    assert str(err.value).startswith(f"{p}:{line}: "), str(err.value)
    assert fragment in str(err.value)


def test_valid_tree_passes_validation():
    (s,) = read_conllu_string(SIMPLE.format(h1=2, h2=0, h3=2, id3=3))
    assert [t.head for t in s.tokens] == [2, 0, 2]


def test_invalid_utf8_names_file_and_line(tmp_path):
    p = tmp_path / "latin1.conllu"
    p.write_bytes(GOOD.encode("utf-8") + GOOD.replace("Кошка спит", "Caf\u00e9 spit").encode("latin-1", "replace"))
    with pytest.raises(InputError) as err:
        list(read_conllu(p))
    assert str(err.value).startswith(f"{p}:16: not valid UTF-8"), str(err.value)


def test_bom_is_tolerated(tmp_path):
    p = tmp_path / "bom.conllu"
    p.write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    (s,) = list(read_conllu(p))
    assert s.sent_id == "s1"


def test_descends_from_climbs_the_heads():
    from tests.trees import tree

    # «Дверь старого сарая скрипнула»: «скрипнула» hung below «сарая», which hangs on «Дверь»
    sent = tree([
        ("Дверь", "дверь", "NOUN", "Case=Nom", 0, "root"),
        ("старого", "старый", "ADJ", "Case=Gen", 3, "amod"),
        ("сарая", "сарай", "NOUN", "Case=Gen", 1, "nmod"),
        ("скрипнула", "скрипнуть", "VERB", "", 3, "nmod"),
    ])
    assert sent.descends_from(sent.token(4), sent.token(1)) and sent.descends_from(4, 3)
    assert not sent.descends_from(1, 4) and not sent.descends_from(2, 4) and not sent.descends_from(1, 1)
