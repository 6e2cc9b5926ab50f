"""trees/nominal.py: agreement readings, re-inflection, the number-blocking check and the
common-gender list shared by the noun-phrase, anaphor and floating-quantifier paradigms."""

from __future__ import annotations

import pytest

from rublimp.io import InputError
from rublimp.morph import get_morph
from rublimp.paradigms.base import RESOURCES_DIR
from rublimp.trees.nominal import (
    COMMON_GENDER_FILE,
    Agr,
    agrees,
    gender_targets,
    head_number_blocked,
    load_common_gender_nouns,
    norm,
    renumber_noun,
    spell_yo,
)
from tests.trees import tree


def test_common_gender_list_and_its_errors(tmp_path):
    nouns = load_common_gender_nouns(RESOURCES_DIR / COMMON_GENDER_FILE)
    assert "врач" in nouns and all(n == norm(n) for n in nouns)
    with pytest.raises(InputError, match="not found"):
        load_common_gender_nouns(tmp_path / "missing.tsv")
    bad = tmp_path / "c.tsv"
    bad.write_text("# c\nlemma\tnote\nврач\t-\n\tjob\n", encoding="utf-8")
    with pytest.raises(InputError, match="empty lemma") as err:
        load_common_gender_nouns(bad)
    assert err.value.line == 4


def test_norm_and_spell_yo():
    assert norm("Ёлка") == "елка"
    sent = tree([("Ёж", "ёж", "NOUN", "Case=Nom|Gender=Masc|Number=Sing", 0, "root")])
    assert spell_yo(sent, "её") == "её"
    plain = tree([("Дом", "дом", "NOUN", "Case=Nom|Gender=Masc|Number=Sing", 0, "root")])
    assert spell_yo(plain, "её") == "ее"


def test_gender_targets_follow_rublimps_order():
    masc = Agr("Nom", "Sing", frozenset({"Masc"}), "Inan")
    assert [g for g, _ in gender_targets(masc)] == ["Fem", "Neut"]
    assert agrees(Agr("Nom", "Sing", frozenset({"Masc"})), masc)
    assert not agrees(Agr("Nom", "Sing", frozenset({"Fem"})), masc)


def test_renumber_noun_and_the_blocking_check():
    morph = get_morph()
    sent = tree([
        ("Ефим", "ефим", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
        ("припал", "припасть", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
        ("к", "к", "ADP", "", 5, "case"),
        ("холодному", "холодный", "ADJ", "Case=Dat|Gender=Masc|Number=Sing", 5, "amod"),
        ("металлу", "металл", "NOUN", "Animacy=Inan|Case=Dat|Gender=Masc|Number=Sing", 2, "obl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    head = sent.token(5)
    assert not head_number_blocked(sent, head)
    assert head_number_blocked(sent, sent.token(1))  # a subject whose verb shows its number
    analysis = morph.analyse(head.form, head.upos, head.feats)
    assert renumber_noun(morph, head, analysis, [("холодному", "холодный")]) == ("Plur", "металлам")
