"""The lexical tests of the tree layer (rublimp.trees.lexical) on words whose readings are known.

Each pair of named variants is checked on a word where they answer differently: that difference is
what the paradigms choose between.
"""

from __future__ import annotations

import pytest

from rublimp.morph import get_morph
from rublimp.trees import lexical as L


@pytest.fixture(scope="module")
def morph():
    return get_morph()


def test_finite_verb_only_needs_every_reading_to_be_a_finite_verb(morph):
    assert L.finite_verb_only(morph, "покачивалась").normal_form == "покачиваться"
    # «обману» is also обман.Dat
    assert L.finite_verb_only(morph, "обману") is None
    assert L.finite_verb_only(morph, "читать") is None


def test_known_and_guessing_variants_differ_on_an_unknown_verb(morph):
    # pymorphy3 guesses a verb for a made-up word: the guessing test accepts it, the known-only ones do not
    form = "выкукарекнулась"
    assert not L.is_known(form)
    assert L.verb_only_guessing(morph, form)
    assert L.finite_verb_only(morph, form) is None
    assert L.verbal_only_reading(form) is None


def test_noun_only_guessing_accepts_an_unknown_noun_that_common_noun_only_refuses():
    form = "бегемотовидность"
    assert L.noun_only_guessing(form)
    assert not L.common_noun_only(form)


def test_verbal_only_reading_gives_the_features_of_a_finite_verb_or_short_form():
    upos, lemma, feats = L.verbal_only_reading("покачивалась")
    assert (upos, lemma) == ("VERB", "покачиваться")
    assert feats["VerbForm"] == "Fin" and feats["Gender"] == "Fem" and feats["Tense"] == "Past"
    upos, lemma, feats = L.verbal_only_reading("закрыта")
    assert upos in ("ADJ", "VERB") and feats["Variant"] == "Short" and feats["Number"] == "Sing"
    assert L.verbal_only_reading("обману") is None


def test_present_verb_only_reads_person_and_number(morph):
    assert L.present_verb_only(morph, "примешь") == {
        "VerbForm": "Fin", "Mood": "Ind", "Tense": "Fut", "Person": "2", "Number": "Sing",
    }
    # a past form has no person
    assert L.present_verb_only(morph, "покачивалась") is None


def test_infinitive_only_and_reads_only_as(morph):
    assert L.infinitive_only("читать") == "impf"
    assert L.infinitive_only("покачивалась") is None
    assert L.reads_only_as(morph, "читать", "INFN")
    assert not L.reads_only_as(morph, "обману", "VERB")


def test_one_number_and_one_gender_of_nominal_forms():
    assert L.one_number("друидов") == "plur"
    assert L.one_gender("друидов") is None
    assert (L.one_number("Креза"), L.one_gender("Креза")) == ("sing", "Masc")
    # a subject's gender by its form: the dictionary's, or masculine for an unknown zero-ending noun
    assert L.common_noun_gender("книга") == "Fem" and L.common_noun_gender("гравилёт") == "Masc"
    assert L.common_noun_gender("Гравилёт") is None and L.common_noun_gender("гравилётка") is None


def test_long_form_only():
    assert L.long_form_only("успевшая")
    assert not L.long_form_only("закрыта")


def test_closed_class_sets_are_normalised():
    for words in (L.GENITIVE_PERSONAL_FORMS, L.PERSONAL_PRONOUNS, L.KTO_PRONOUNS, L.WH_WORDS, L.QUANT_WORDS, L.QUANTITY_NOUNS):
        assert all(w == L.normalize(w) for w in words)
    assert L.GENITIVE_PERSONAL_FORMS == {"его", "ее", "их"}
    assert L.PROPER_TAGS - L.NAME_TAGS == {"Fixd"}
