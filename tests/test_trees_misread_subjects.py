"""trees/subject_repairs.py :func:`misread_subject`: subjects whose tagged case the normalisation keeps
(issues 17/18, the pairs the subject-edge normalisation brought).

A second ``nsubj`` of the predicate that can itself be its nominative subject, or an accusative noun whose
determiner is accusative too beside a predicate that does not show the noun's gender, is a misparse rather
than a nominative the tagger missed: the subject is not re-read (so no paradigm reads «каждый год» as the
nominative subject of «становится»). A second ``nsubj`` that cannot be a nominative, an accusative
adjective, a nominative determiner, or a past predicate of the noun's gender leave the repair as it was.
"""

from __future__ import annotations

from rublimp.paradigms import get_paradigm
from rublimp.trees.normalise import NORM_KEY, norm_marks, normalise
from tests.trees import tree

_PRES_3SG = "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Mid"
_PAST_PLUR_MID = "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Mid"


def _year_becomes(det_case: str, det=("Каждый", "каждый", "DET", "det"), verb=("становится", "становиться", _PRES_3SG)):
    # «Каждый год мусора становится меньше.» with «год» the nsubj, tagged accusative
    form, lemma, upos, rel = det
    return tree([
        (form, lemma, upos, f"Case={det_case}|Gender=Masc|Number=Sing", 2, rel),
        ("год", "год", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 4, "nsubj"),
        ("мусора", "мусор", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 2, "nmod"),
        (*verb[:2], "VERB", verb[2], 0, "root"),
        ("меньше", "мало", "ADV", "Degree=Cmp", 4, "advmod"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])


def test_an_accusative_noun_with_an_accusative_determiner_keeps_its_case():
    year = normalise(_year_becomes("Acc")).token(2)
    assert year.feats["Case"] == "Acc" and NORM_KEY not in year.misc
    # and the noun-phrase paradigm keeps the accusative: «каждую год», never the nominative «каждая год»
    bads = [b for b, _ in get_paradigm("np_agreement_gender").pairs(_year_becomes("Acc"))]
    assert not any(b.startswith("Каждая ") for b in bads)


def test_an_accusative_noun_with_a_nominative_determiner_is_read_as_the_nominative():
    # the tagger's accusative of «год» alone, its determiner nominative: the noun is re-read
    year = normalise(_year_becomes("Nom")).token(2)
    assert year.feats["Case"] == "Nom" and year.misc[NORM_KEY] == "subject_features(Feats)"


def test_an_accusative_adjective_or_a_past_predicate_of_the_nouns_gender_leaves_the_repair_alone():
    # «Новый[ADJ, Acc] год мусора становится»: an adjective's accusative is the tagger's guess of a form
    # both cases share; «Каждый[Acc] год мусора стал»: the masculine past shows the noun is its subject
    adjective = normalise(_year_becomes("Acc", det=("Новый", "новый", "ADJ", "amod"))).token(2)
    assert adjective.feats["Case"] == "Nom"
    past = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Mid"
    masculine = normalise(_year_becomes("Acc", verb=("стал", "стать", past))).token(2)
    assert masculine.feats["Case"] == "Nom"


def _girls_rushed(second_subject: bool):
    # «Девочки, (которые) кинулись.» with «Девочки» tagged genitive singular; with ``second_subject`` the
    # parser also hangs the nominative «которые» on «кинулись» as nsubj
    rows = [
        ("Девочки", "девочка", "NOUN", "Animacy=Anim|Case=Gen|Gender=Fem|Number=Sing", 4, "nsubj"),
        (",", ",", "PUNCT", "", 3, "punct"),
        ("которые", "который", "PRON", "Case=Nom|Number=Plur", 4, "nsubj" if second_subject else "obl"),
        ("кинулись", "кинуться", "VERB", _PAST_PLUR_MID, 0, "root"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ]
    return tree(rows)


def test_a_predicate_with_two_subjects_has_none_re_read():
    girls = normalise(_girls_rushed(True)).token(1)
    assert (girls.feats["Case"], girls.feats["Number"]) == ("Gen", "Sing") and NORM_KEY not in girls.misc


def test_the_only_subject_of_a_predicate_is_re_read():
    girls = normalise(_girls_rushed(False)).token(1)
    assert (girls.feats["Case"], girls.feats["Number"]) == ("Nom", "Plur")


def test_a_second_subject_that_cannot_be_a_nominative_of_the_predicates_number_competes_with_none():
    # «Девочки[Gen] сотрудников[nsubj, Gen] кинулись.»: «сотрудников» has no nominative plural reading
    sent = tree([
        ("Девочки", "девочка", "NOUN", "Animacy=Anim|Case=Gen|Gender=Fem|Number=Sing", 3, "nsubj"),
        ("сотрудников", "сотрудник", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", 3, "nsubj"),
        ("кинулись", "кинуться", "VERB", _PAST_PLUR_MID, 0, "root"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ])
    girls = normalise(sent).token(1)
    assert (girls.feats["Case"], girls.feats["Number"]) == ("Nom", "Plur")


def test_a_second_nominative_of_another_gender_than_the_past_predicate_competes_with_none():
    # «Однако Девочка[Dat] была само смирение[nsubj, Nom, Neut].»: the feminine «была» is not the neuter
    # noun's predicate, so the first subject is still re-read; with a feminine second nominative
    # («Девочка была сама Ирина») neither is
    def sent(second: tuple):
        return tree([
            ("Девочка", "девочка", "NOUN", "Animacy=Anim|Case=Dat|Gender=Fem|Number=Sing", 2, "nsubj"),
            ("была", "быть", "AUX", "Aspect=Imp|Gender=Fem|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
            second,
            (".", ".", "PUNCT", "", 2, "punct"),
        ])
    neuter = normalise(sent(("смирение", "смирение", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 2, "nsubj")))
    assert neuter.token(1).feats["Case"] == "Nom"
    feminine = normalise(sent(("Ирина", "Ирина", "PROPN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj")))
    # subject_features leaves it alone (the roles fix reads «Девочка», nominative only, as one)
    assert "subject_features" not in norm_marks(feminine.token(1))


def test_a_second_pronoun_of_another_number_competes_with_none():
    # «Девочки[Gen Sing] он[nsubj, Sing] кинулись.»: the plural predicate is not «он»'s; with
    # «они[Plur]» it could be, and «Девочки» keeps its tag
    def sent(form: str, number: str):
        return tree([
            ("Девочки", "девочка", "NOUN", "Animacy=Anim|Case=Gen|Gender=Fem|Number=Sing", 3, "nsubj"),
            (form, "он", "PRON", f"Case=Nom|Number={number}|Person=3", 3, "nsubj"),
            ("кинулись", "кинуться", "VERB", _PAST_PLUR_MID, 0, "root"),
            (".", ".", "PUNCT", "", 3, "punct"),
        ])
    assert normalise(sent("он", "Sing")).token(1).feats["Case"] == "Nom"
    assert normalise(sent("они", "Plur")).token(1).feats["Case"] == "Gen"


def test_a_second_subject_joined_by_i_is_a_conjunct_not_a_rival():
    # «Девочки[Gen] кинулись и мальчики[nsubj].»: «и мальчики» joins the subject; without «и»
    # («…, мальчики») it is a rival and «Девочки» keeps its tag
    def sent(joined: bool):
        rows = [
            ("Девочки", "девочка", "NOUN", "Animacy=Anim|Case=Gen|Gender=Fem|Number=Sing", 2, "nsubj"),
            ("кинулись", "кинуться", "VERB", _PAST_PLUR_MID, 0, "root"),
            ("и" if joined else ",", "и" if joined else ",", "PART" if joined else "PUNCT", "", 4, "advmod" if joined else "punct"),
            ("мальчики", "мальчик", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 2, "nsubj"),
            (".", ".", "PUNCT", "", 2, "punct"),
        ]
        return tree(rows)
    assert normalise(sent(True)).token(1).feats["Case"] == "Nom"
    assert normalise(sent(False)).token(1).feats["Case"] == "Gen"
