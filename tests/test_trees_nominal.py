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
    case_settled,
    gender_targets,
    head_number_blocked,
    load_common_gender_nouns,
    mass_noun,
    norm,
    partitive_plural,
    renumber_noun,
    spell_yo,
    unlabelled_subject,
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


def _noun(morph, form, feats, deprel="root", head=0):
    sent = tree([(form, form, "NOUN", feats, head, deprel)])
    tok = sent.tokens[0]
    return tok, morph.analyse(tok.form, tok.upos, tok.feats)


def test_renumber_noun_refuses_forms_of_the_old_number_unused_plurals_and_two_plurals():
    morph = get_morph()
    # «области»: nom. pl. but also gen./dat./loc. sg. — read as a case error
    assert renumber_noun(morph, *_noun(morph, "область", "Case=Nom|Gender=Fem|Number=Sing"), []) is None
    assert renumber_noun(morph, *_noun(morph, "бабушка", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing"), []) is None
    # a genitive singular «области» → «областей» is unambiguous
    assert renumber_noun(morph, *_noun(morph, "области", "Case=Gen|Gender=Fem|Number=Sing"), []) == ("Plur", "областей")
    # mass nouns and «-изм» abstracts have no plural in use; стул has two plurals (стулья / стулы)
    assert renumber_noun(morph, *_noun(morph, "пехота", "Case=Nom|Gender=Fem|Number=Sing"), []) is None
    assert renumber_noun(morph, *_noun(morph, "каннибализм", "Case=Nom|Gender=Masc|Number=Sing"), []) is None
    assert renumber_noun(morph, *_noun(morph, "стул", "Case=Nom|Gender=Masc|Number=Sing"), []) is None
    assert renumber_noun(morph, *_noun(morph, "домом", "Case=Ins|Gender=Masc|Number=Sing"), []) == ("Plur", "домами")
    assert mass_noun("молодёжь") and mass_noun("героизм") and not mass_noun("дом") and not mass_noun("изм")
    # «деньги» → «деньга» is another word: plural-only nouns keep their number
    assert renumber_noun(morph, *_noun(morph, "деньги", "Case=Acc|Number=Plur"), []) is None
    assert renumber_noun(morph, *_noun(morph, "пищи", "Case=Gen|Gender=Fem|Number=Sing"), []) is None


def test_partitive_plural():
    rows = [("Каждый", "каждый", "DET", "Case=Nom|Gender=Masc|Number=Sing", 0, "root"),
            ("из", "из", "ADP", "", 3, "case"),
            ("участников", "участник", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", 1, "nmod")]
    sent = tree(rows)
    assert partitive_plural(sent, sent.tokens[2])
    assert head_number_blocked(sent, sent.tokens[2])
    rows[0] = ("Дом", "дом", "NOUN", "Case=Nom|Gender=Masc|Number=Sing", 0, "root")
    sent = tree(rows)
    assert not partitive_plural(sent, sent.tokens[2])


def test_case_settled():
    preps = {"с": frozenset({"Gen", "Acc", "Ins"}), "о": frozenset({"Acc", "Loc"})}
    sent = tree([("с", "с", "ADP", "", 2, "case"),
                 ("которой", "который", "PRON", "Case=Gen|Gender=Fem|Number=Sing", 0, "root")])
    tok = sent.tokens[1]
    # «с которой»: genitive or instrumental — the instrumental the parser gives is taken, a genitive stays open
    preps["с"] = frozenset({"Gen", "Acc", "Ins"})
    assert not case_settled(sent, tok, "Gen", {"Gen", "Dat", "Ins", "Loc"}, "с", preps)
    assert case_settled(sent, tok, "Ins", {"Gen", "Dat", "Ins", "Loc"}, "с", preps)
    assert not case_settled(sent, tok, "Ins", {"Gen", "Dat", "Ins", "Loc"}, "с", preps, dominant={})
    # «с которым» (ins. sg. or dat. pl.): only the instrumental is governed
    assert case_settled(sent, tok, "Ins", {"Ins", "Dat"}, "с", preps)
    assert not case_settled(sent, tok, "Gen", {"Ins", "Dat"}, "с", preps)
    assert case_settled(sent, tok, "Gen", {"Gen"}, None, preps)
    # «о которых» (acc. or loc.): «о» governs the locative in all but rare uses
    assert case_settled(sent, tok, "Loc", {"Gen", "Acc", "Loc"}, "о", preps)
    assert not case_settled(sent, tok, "Acc", {"Gen", "Acc", "Loc"}, "о", preps)
    # a word the table does not list is no preposition; one that governs none of the form's cases is
    # the parser's attachment: both read as bare (only the gen./acc. syncretism is then resolved)
    assert case_settled(sent, tok, "Ins", {"Gen", "Ins"}, "как", preps)
    assert case_settled(sent, tok, "Nom", {"Nom", "Acc"}, "от", {"от": frozenset({"Gen"})})
    # bare gen./acc. syncretism: an object of a plain verb is accusative, of a negated verb either
    sent = tree([("видел", "видеть", "VERB", "", 0, "root"),
                 ("директора", "директор", "NOUN", "Case=Acc|Number=Sing", 1, "obj")])
    assert case_settled(sent, sent.tokens[1], "Acc", {"Gen", "Acc"}, None, preps)
    assert not case_settled(sent, sent.tokens[1], "Gen", {"Gen", "Acc"}, None, preps)
    sent = tree([("не", "не", "PART", "", 2, "advmod"), ("видел", "видеть", "VERB", "", 0, "root"),
                 ("директора", "директор", "NOUN", "Case=Acc|Number=Sing", 2, "obj")])
    assert case_settled(sent, sent.tokens[2], "Acc", {"Gen", "Acc"}, None, preps)  # both cases fit


def test_subjects_predicate_nominals_and_unlinked_conjuncts_block_the_number():
    morph = get_morph()
    obj = tree([("Таяние", "таяние", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 2, "obj"),
                ("измеряют", "измерять", "VERB", "Number=Plur|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
                ("гляциологи", "гляциолог", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Plur", 2, "obj")])
    # «гляциологи» cannot be an (animate) accusative: the subject; «таяние» can be one
    assert unlabelled_subject(obj, obj.token(3), morph) and head_number_blocked(obj, obj.token(3), morph=morph)
    assert not unlabelled_subject(obj, obj.token(1), morph)
    assert not head_number_blocked(obj, obj.token(3))  # (only with the dictionary)
    pred = tree([("Пчела", "пчела", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj"),
                 ("—", "—", "PUNCT", "", 3, "punct"),
                 ("насекомое", "насекомое", "NOUN", "Animacy=Anim|Case=Nom|Gender=Neut|Number=Sing", 0, "root")])
    assert head_number_blocked(pred, pred.token(3), relative_host=True) and not head_number_blocked(pred, pred.token(3))
    rows = [("лесами", "лес", "NOUN", "Animacy=Inan|Case=Ins|Gender=Masc|Number=Plur", 0, "root"),
            ("и", "и", "CCONJ", "", 3, "cc"),
            ("болотами", "болото", "NOUN", "Animacy=Inan|Case=Ins|Gender=Neut|Number=Plur", 1, "nmod")]
    conj = tree(rows)
    assert head_number_blocked(conj, conj.token(3), relative_host=True)
    assert not head_number_blocked(conj, conj.token(3))
    rows[0] = ("по-русски", "по-русски", "ADV", "", 0, "root")
    adv = tree(rows)
    assert not head_number_blocked(adv, adv.token(3), relative_host=True)
