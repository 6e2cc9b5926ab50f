"""The shared pair machinery: span edits, capitalisation, invariants, registry errors."""

import pytest

from rublimp.conllu_doc import read_conllu_string
from rublimp.io import InputError
from rublimp.paradigms.base import Edit, InvariantError, Perturbation, apply_edits, check_pair, get_paradigm

TREE = """# sent_id = t1
# text = Кошки  спали на «диване».
1\tКошки\tкошка\tNOUN\t_\tCase=Nom|Number=Plur\t2\tnsubj\t_\t_
2\tспали\tспать\tVERB\t_\tNumber=Plur|Tense=Past\t0\troot\t_\t_
3\tна\tна\tADP\t_\t_\t5\tcase\t_\t_
4\t«\t«\tPUNCT\t_\t_\t5\tpunct\t_\tSpaceAfter=No
5\tдиване\tдиван\tNOUN\t_\tCase=Loc|Number=Sing\t2\tobl\t_\tSpaceAfter=No
6\t»\t»\tPUNCT\t_\t_\t5\tpunct\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


@pytest.fixture
def sent():
    return read_conllu_string(TREE)[0]


def test_edit_keeps_spacing_punctuation_and_case(sent):
    assert apply_edits(sent, [Edit(2, "спала")]) == "Кошки  спала на «диване»."
    assert apply_edits(sent, [Edit(1, "кошка")]) == "Кошка  спали на «диване»."
    assert apply_edits(sent, [Edit(5, "диван")]) == "Кошки  спали на «диван»."
    assert apply_edits(sent, [Edit(1, "кошка"), Edit(2, "спала")]) == "Кошка  спала на «диване»."


def test_overlapping_edits_rejected(sent):
    with pytest.raises(InvariantError):
        apply_edits(sent, [Edit(2, "спала"), Edit(2, "спало")])


def test_check_pair_invariants(sent):
    pert = Perturbation((Edit(2, "спала"),), "Number", "Plur", "Sing")
    good = sent.text
    check_pair(good, "Кошки  спала на «диване».", pert, sent=sent)
    with pytest.raises(InvariantError, match="equals"):
        check_pair(good, good, pert, sent=sent)
    with pytest.raises(InvariantError, match="word count"):
        check_pair(good, "Кошки спала на диване очень.", pert, sent=sent)
    with pytest.raises(InvariantError, match="other than the edited"):
        check_pair(good, "Кошки  спала на «дивана».", pert, sent=sent)


def test_moving_word_invariant(sent):
    pert = Perturbation((Edit(2, "спали"),), "Neg", "verb", "noun")
    check_pair("Никто не пришёл вовремя.", "Никто пришёл не вовремя.", pert, moves_words=True)
    with pytest.raises(InvariantError):
        check_pair("Никто не пришёл вовремя.", "Никто пришёл ни вовремя.", pert, moves_words=True)


def test_unknown_paradigm_names_config_key():
    with pytest.raises(InputError) as err:
        get_paradigm("no_such_paradigm", config_key="perturb.paradigms[3]")
    assert "perturb.paradigms[3]" in str(err.value) and "no_such_paradigm" in str(err.value)
