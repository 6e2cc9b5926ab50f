"""trees/subject_repairs.py :func:`misread_subject`: subjects whose tagged case the normalisation keeps
(issues 17/18, the pairs the subject-edge normalisation brought).

Two ``nsubj`` of one predicate, or an accusative noun whose determiner is accusative too, are a misparse
rather than a nominative the tagger missed: the subject is not re-read (so no paradigm reads «каждый год»
as the nominative subject of «становится»). The same subjects with one ``nsubj``, or with a nominative
determiner, are still re-read.
"""

from __future__ import annotations

from rublimp.paradigms import get_paradigm
from rublimp.trees.normalise import NORM_KEY, normalise
from tests.trees import tree

_PRES_3SG = "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Mid"
_PAST_PLUR_MID = "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Mid"


def _year_becomes(det_case: str):
    # «Каждый год мусора становится меньше.» with «год» the nsubj, tagged accusative
    return tree([
        ("Каждый", "каждый", "DET", f"Case={det_case}|Gender=Masc|Number=Sing", 2, "det"),
        ("год", "год", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 4, "nsubj"),
        ("мусора", "мусор", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 2, "nmod"),
        ("становится", "становиться", "VERB", _PRES_3SG, 0, "root"),
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
