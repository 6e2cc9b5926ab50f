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
    assert ":15:" in str(err.value) and "outside the sentence" in str(err.value)
