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


NAMED = """# sent_id = t2
# text = Проект разработан архитектором Юрием Стравинским.
1\tПроект\tпроект\tNOUN\t_\tCase=Nom|Number=Sing\t2\tnsubj:pass\t_\t_
2\tразработан\tразработать\tVERB\t_\tVoice=Pass\t0\troot\t_\t_
3\tархитектором\tархитектор\tNOUN\t_\tCase=Ins|Number=Sing\t2\tobl\t_\t_
4\tЮрием\tЮрий\tPROPN\t_\tCase=Ins|Number=Sing\t3\tappos\t_\t_
5\tСтравинским\tСтравинский\tPROPN\t_\tCase=Ins|Number=Sing\t4\tflat:name\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

# sent_id = t3
# text = Проект разработан архитектором Юрием Стравинским в Москве.
1\tПроект\tпроект\tNOUN\t_\tCase=Nom|Number=Sing\t2\tnsubj:pass\t_\t_
2\tразработан\tразработать\tVERB\t_\tVoice=Pass\t0\troot\t_\t_
3\tархитектором\tархитектор\tNOUN\t_\tCase=Ins|Number=Sing\t2\tobl\t_\t_
4\tЮрием\tЮрий\tPROPN\t_\tCase=Ins|Number=Sing\t3\tappos\t_\t_
5\tСтравинским\tСтравинский\tPROPN\t_\tCase=Ins|Number=Sing\t4\tflat:name\t_\t_
6\tв\tв\tADP\t_\t_\t7\tcase\t_\t_
7\tМоскве\tМосква\tPROPN\t_\tCase=Loc|Number=Sing\t2\tobl\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


@pytest.fixture
def named():
    return read_conllu_string(NAMED)


def _phrase_to_noun(first_deleted=4, last_deleted=5):
    edits = (Edit(3, "камнем"),) + tuple(Edit(i, "") for i in range(first_deleted, last_deleted + 1))
    return Perturbation(edits, "Animacy", "Anim", "Inan")


def test_deleting_a_name_with_the_noun_it_names(named):
    """A noun and its name → one noun: the deleted words go with one space, punctuation stays glued."""
    end, middle = named
    pert = _phrase_to_noun()
    assert apply_edits(end, pert.edits) == "Проект разработан камнем."
    assert apply_edits(middle, pert.edits) == "Проект разработан камнем в Москве."
    check_pair(end.text, "Проект разработан камнем.", pert, sent=end)
    check_pair(middle.text, "Проект разработан камнем в Москве.", pert, sent=middle)
    # the deletion is exact: another word changed, a word left behind, a space lost, no sentence
    with pytest.raises(InvariantError, match="other than the edited and deleted"):
        check_pair(middle.text, "Проект разработан камнем на Москве.", pert, sent=middle)
    with pytest.raises(InvariantError, match="other than the edited and deleted"):
        check_pair(middle.text, "Проект разработан камнем Стравинским в Москве.", pert, sent=middle)
    with pytest.raises(InvariantError, match="other than the edited and deleted"):
        check_pair(middle.text, "Проект разработан камнемв Москве.", pert, sent=middle)
    with pytest.raises(InvariantError, match="other than the edited and deleted"):
        check_pair(end.text, "Проект разработан камнем .", pert, sent=end)
    with pytest.raises(InvariantError, match="against its sentence"):
        check_pair(end.text, "Проект разработан камнем.", pert)
    # deleting alone makes no replacement pair
    only = Perturbation((Edit(4, ""), Edit(5, "")), "Animacy", "Anim", "Inan")
    with pytest.raises(InvariantError, match="not only delete"):
        check_pair(end.text, apply_edits(end, only.edits), only, sent=end)


def test_deleting_the_same_token_twice_is_an_overlap(named):
    with pytest.raises(InvariantError, match="overlapping"):
        apply_edits(named[0], (Edit(3, "камнем"), Edit(4, ""), Edit(4, "")))


def test_deleted_name_before_a_comma():
    """Punctuation right after the deleted stretch stays glued to the new word: «Стравинским, который» → «камнем, который»."""
    sent = read_conllu_string(
        "# sent_id = t4\n# text = Дом построен архитектором Юрием Стравинским, который жил здесь.\n"
        "1\tДом\tдом\tNOUN\t_\tCase=Nom\t2\tnsubj:pass\t_\t_\n"
        "2\tпостроен\tпостроить\tVERB\t_\tVoice=Pass\t0\troot\t_\t_\n"
        "3\tархитектором\tархитектор\tNOUN\t_\tCase=Ins\t2\tobl\t_\t_\n"
        "4\tЮрием\tЮрий\tPROPN\t_\tCase=Ins\t3\tappos\t_\t_\n"
        "5\tСтравинским\tСтравинский\tPROPN\t_\tCase=Ins\t4\tflat:name\t_\tSpaceAfter=No\n"
        "6\t,\t,\tPUNCT\t_\t_\t8\tpunct\t_\t_\n"
        "7\tкоторый\tкоторый\tPRON\t_\tCase=Nom\t8\tnsubj\t_\t_\n"
        "8\tжил\tжить\tVERB\t_\t_\t3\tacl:relcl\t_\t_\n"
        "9\tздесь\tздесь\tADV\t_\t_\t8\tadvmod\t_\tSpaceAfter=No\n"
        "10\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n"
    )[0]
    pert = Perturbation((Edit(3, "камнем"), Edit(4, ""), Edit(5, "")), "Animacy", "Anim", "Inan")
    bad = apply_edits(sent, pert.edits)
    assert bad == "Дом построен камнем, который жил здесь."
    check_pair(sent.text, bad, pert, sent=sent)
    with pytest.raises(InvariantError, match="other than the edited and deleted"):
        check_pair(sent.text, "Дом построен камнем , который жил здесь.", pert, sent=sent)


INSERT = """# sent_id = t5
# text = В какой-то момент он ушёл в «какую-то» комнату.
1\tВ\tв\tADP\t_\t_\t3\tcase\t_\t_
2\tкакой-то\tкакой-то\tDET\t_\tCase=Acc\t3\tdet\t_\t_
3\tмомент\tмомент\tNOUN\t_\tCase=Acc\t5\tobl\t_\t_
4\tон\tон\tPRON\t_\tCase=Nom\t5\tnsubj\t_\t_
5\tушёл\tуйти\tVERB\t_\t_\t0\troot\t_\t_
6\tв\tв\tADP\t_\t_\t10\tcase\t_\t_
7\t«\t«\tPUNCT\t_\t_\t8\tpunct\t_\tSpaceAfter=No
8\tкакую-то\tкакой-то\tDET\t_\tCase=Acc\t10\tdet\t_\tSpaceAfter=No
9\t»\t»\tPUNCT\t_\t_\t8\tpunct\t_\t_
10\tкомнату\tкомната\tNOUN\t_\tCase=Acc\t5\tobl\t_\tSpaceAfter=No
11\t.\t.\tPUNCT\t_\t_\t5\tpunct\t_\t_

"""


def _split_preposition(prep: int, det: int, det_form: str) -> Perturbation:
    return Perturbation((Edit(prep, "ни в"), Edit(det, det_form)), "PronType", "Ind", "Neg")


def test_inserting_a_word_before_a_preposition():
    """«в какой-то» → «ни в какой»: the preposition's edit writes two words; the check is exact."""
    sent = read_conllu_string(INSERT)[0]
    first = _split_preposition(1, 2, "какой")
    assert apply_edits(sent, first.edits) == "Ни в какой момент он ушёл в «какую-то» комнату."
    check_pair(sent.text, "Ни в какой момент он ушёл в «какую-то» комнату.", first, sent=sent)
    later = _split_preposition(6, 8, "какую")
    assert apply_edits(sent, later.edits) == "В какой-то момент он ушёл ни в «какую» комнату."
    check_pair(sent.text, "В какой-то момент он ушёл ни в «какую» комнату.", later, sent=sent)
    # exact: the inserted word elsewhere, missing, doubled, another word changed, no sentence
    for wrong in (
        "В какой-то момент ни он ушёл в «какую» комнату.",
        "В какой-то момент он ушёл в «какую» комнату.",
        "В какой-то момент он ушёл ни ни в «какую» комнату.",
        "В какой-то момент он ушёл ни в «какую» комнаты.",
        "В какой-то момент он ушёл нив «какую» комнату.",
    ):
        with pytest.raises(InvariantError, match="other than the edited and deleted"):
            check_pair(sent.text, wrong, later, sent=sent)
    with pytest.raises(InvariantError, match="against its sentence"):
        check_pair(sent.text, "В какой-то момент он ушёл ни в «какую» комнату.", later)


def test_an_inserting_form_is_words_one_space_apart():
    sent = read_conllu_string(INSERT)[0]
    for form in ("ни  в", " в", "в ", "ни\tв"):
        pert = Perturbation((Edit(6, form), Edit(8, "какую")), "PronType", "Ind", "Neg")
        with pytest.raises(InvariantError, match="one space apart"):
            check_pair(sent.text, apply_edits(sent, pert.edits), pert, sent=sent)
