"""The roles fix's guards inside the normalisation pass (issue 17 step 2), on hand-written wrong or
right parses, each with a case the guard leaves to the repair; and the two paradigm rules that a
reading the fix gets right would otherwise feed (adposition_government's nominative of an
inanimate name, the genitive of negation under a negated predicate of an infinitive)."""

from __future__ import annotations

import pytest

from rublimp.paradigms import get_paradigm
from rublimp.paradigms.base import RESOURCES_DIR, ParadigmContext
from rublimp.trees.normalise import RESOURCES, norm_marks, norm_resources, normalise
from rublimp.trees.roles import VERB_GOVERNMENT_FILE
from tests.trees import tree

_PRES_3PL = "Aspect=Imp|Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin|Voice={}"
_PAST_M = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
_NOM_PL = "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur"


def _object_of(verb_form: str, verb_lemma: str, obj: str, obj_lemma: str, obj_feats: str,
               voice: str = "Act", negated: bool = False):
    # «Люди [не] <verb> <obj>.» with the object as given
    rows = [("Люди", "человек", "NOUN", _NOM_PL, 3 if negated else 2, "nsubj")]
    if negated:
        rows.append(("не", "не", "PART", "Polarity=Neg", 3, "advmod"))
    v = len(rows) + 1
    rows += [(verb_form, verb_lemma, "VERB", _PRES_3PL.format(voice), 0, "root"),
             (obj, obj_lemma, "NOUN", obj_feats, v, "obj"),
             (".", ".", "PUNCT", "", v, "punct")]
    return tree(rows), v + 1


def test_the_pass_reads_the_verb_government_table():
    assert VERB_GOVERNMENT_FILE in RESOURCES
    res = norm_resources()
    assert {"бояться", "избегать", "ждать"} <= res.genitive_verbs
    assert "ловить" not in res.genitive_verbs and "встретить" not in res.genitive_verbs


_ANIM_GEN_PL = "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur"


def test_an_animate_genitive_object_of_a_genitive_verb_stays_genitive():
    # «Люди боятся волков.»: «бояться» governs the genitive
    sent, oid = _object_of("боятся", "бояться", "волков", "волк", _ANIM_GEN_PL, voice="Mid")
    assert normalise(sent).token(oid).feats["Case"] == "Gen"
    # «Люди ловят волков.»: an animate genitive-accusative form of an accusative verb is made accusative
    sent, oid = _object_of("ловят", "ловить", "волков", "волк", _ANIM_GEN_PL)
    out = normalise(sent).token(oid)
    assert out.feats["Case"] == "Acc" and norm_marks(out) == ["roles"]


def test_an_object_of_a_negated_verb_keeps_its_genitive():
    # «Люди не встречают родителей.»: the genitive of negation
    sent, oid = _object_of("встречают", "встречать", "родителей", "родитель", _ANIM_GEN_PL, negated=True)
    assert normalise(sent).token(oid).feats["Case"] == "Gen"
    sent, oid = _object_of("встречают", "встречать", "родителей", "родитель", _ANIM_GEN_PL)
    assert normalise(sent).token(oid).feats["Case"] == "Acc"


def test_a_case_the_form_cannot_have_is_not_made_accusative_after_a_genitive_verb():
    # «Люди боятся грома.» with «грома» parsed instrumental: it can be genitive, which «бояться» governs
    ins = "Animacy=Inan|Case=Ins|Gender=Masc|Number=Sing"
    sent, oid = _object_of("боятся", "бояться", "грома", "гром", ins, voice="Mid")
    assert normalise(sent).token(oid).feats["Case"] == "Ins"
    # «Люди слушают грома.»: an accusative verb's object in a case its form cannot have is repaired
    sent, oid = _object_of("слушают", "слушать", "грома", "гром", ins)
    assert normalise(sent).token(oid).feats["Case"] == "Acc"


def test_the_genitive_verbs_come_from_the_given_resource_folder(tmp_path):
    lines = (RESOURCES_DIR / VERB_GOVERNMENT_FILE).read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / VERB_GOVERNMENT_FILE).write_text("".join(x for x in lines if not x.startswith("бояться\t")),
                                                 encoding="utf-8")
    (tmp_path / "control_verbs.tsv").write_text((RESOURCES_DIR / "control_verbs.tsv").read_text(encoding="utf-8"),
                                                encoding="utf-8")
    sent, oid = _object_of("боятся", "бояться", "волков", "волк", _ANIM_GEN_PL, voice="Mid")
    assert normalise(sent, resources_dir=tmp_path).token(oid).feats["Case"] == "Acc"
    assert normalise(sent).token(oid).feats["Case"] == "Gen"  # the bundled table, on the same sentence


def _name_object(verb_form: str, verb_lemma: str, voice: str = "Act"):
    # «Рефери <verb> Мегатрона.» with the name parsed as an animate accusative; pymorphy3 knows
    # «Мегатрона» only as the genitive of an inanimate word
    return tree([
        ("Рефери", "рефери", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
        (verb_form, verb_lemma, "VERB", _PAST_M.replace("Act", voice), 0, "root"),
        ("Мегатрона", "мегатрон", "PROPN", "Animacy=Anim|Case=Acc|Gender=Masc|Number=Sing", 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])


def test_an_animate_accusative_name_of_an_accusative_verb_is_not_made_genitive():
    out = normalise(_name_object("предупредил", "предупредить")).token(3)
    assert (out.feats["Case"], out.feats["Animacy"]) == ("Acc", "Anim")
    # the object of a genitive verb may be: «бояться» takes no accusative
    out = normalise(_name_object("боялся", "бояться", voice="Mid")).token(3)
    assert out.feats["Case"] == "Gen" and norm_marks(out) == ["roles"]


def _flight(upos: str, animacy: str = "Inan", case: str = "Acc"):
    # «Он решил лететь на Ястребе.» (the aircraft), the noun parsed in the accusative
    return tree([
        ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
        ("решил", "решить", "VERB", _PAST_M, 0, "root"),
        ("лететь", "лететь", "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 2, "xcomp"),
        ("на", "на", "ADP", "", 5, "case"),
        ("Ястребе", "ястреб", upos, f"Animacy={animacy}|Case={case}|Gender=Masc|Number=Sing", 3, "obl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])


def test_a_name_keeps_the_parsers_animacy_when_it_takes_a_common_nouns_case():
    out = normalise(_flight("PROPN")).token(5)
    assert (out.feats["Case"], out.feats["Animacy"]) == ("Loc", "Inan")
    # a common noun takes the animacy of its one reading as well
    out = normalise(_flight("NOUN")).token(5)
    assert (out.feats["Case"], out.feats["Animacy"]) == ("Loc", "Anim")


def _adposition_targets(sent) -> set[str]:
    p = get_paradigm("adposition_government", ParadigmContext())
    return {pert.edits[0].new_form for _, pert in p.pairs(sent)}


def test_adposition_government_makes_no_nominative_of_an_inanimate_name_after_an_accusative_preposition():
    # «на Ястреб» is the aircraft's accusative (a goal), no error
    forms = _adposition_targets(_flight("PROPN", "Inan", "Loc"))
    assert "ястреб" not in forms and "ястребом" in forms
    # an animate hawk's accusative is «ястреба»: «на ястреб» is made
    assert "ястреб" in _adposition_targets(_flight("NOUN", "Anim", "Loc"))


def _manure(negated: bool):
    # «Навоз применять [не] рекомендуется.»: the object of an infinitive that is the clausal subject
    rows = [("Навоз", "навоз", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 2, "obj"),
            ("применять", "применять", "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 4 if negated else 3, "csubj")]
    if negated:
        rows.append(("не", "не", "PART", "Polarity=Neg", 4, "advmod"))
    h = len(rows) + 1
    rows += [("рекомендуется", "рекомендоваться", "VERB",
              "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Mid", 0, "root"),
             (".", ".", "PUNCT", "", h, "punct")]
    return tree(rows)


@pytest.mark.parametrize("negated", [False, True])
def test_the_genitive_of_negation_reaches_the_object_of_a_negated_predicates_clausal_subject(negated):
    p = get_paradigm("verb_acc_object", ParadigmContext())
    forms = {pert.edits[0].new_form for _, pert in p.pairs(_manure(negated))}
    # «Навоза применять не рекомендуется» is grammatical; without «не» the genitive is the error
    assert ("навоза" in forms) is not negated


def _library(about: bool):
    # «Фонд насчитывал [около] трёх тысяч томов.»: the object quantity, under «около» or bare
    rows = [("Фонд", "фонд", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
            ("насчитывал", "насчитывать", "VERB",
             "Aspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root")]
    if about:
        rows.append(("около", "около", "ADP", "", 5, "case"))
    t = len(rows) + 2  # тысяч
    rows += [("трёх", "три", "NUM", "Case=Gen", t, "nummod"),
             ("тысяч", "тысяча", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Plur", t + 1, "nummod"),
             ("томов", "том", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Plur", 2, "obj"),
             (".", ".", "PUNCT", "", 2, "punct")]
    return tree(rows)


def test_transitive_verb_takes_no_object_quantity_under_a_preposition():
    p = get_paradigm("transitive_verb", ParadigmContext())
    # «плыл около трёх тысяч томов» reads as "swam near …": no pair
    assert not list(p.pairs(_library(about=True)))
    # the bare genitive quantity stays an orphaned object after an intransitive verb
    assert list(p.pairs(_library(about=False)))


def _pairs(name: str, sent) -> list[str]:
    return [bad for bad, _ in get_paradigm(name, ParadigmContext()).pairs(sent)]


_PAST_PL = "Aspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice={}"
_WINGS = "Animacy=Inan|Case=Nom|Gender=Neut|Number=Plur"


def test_no_number_pair_for_an_inanimate_plural_subject_of_a_transitive_verb_without_an_object():
    # «Крылья обтягивали парусиной.»: indefinite-personal ("they covered the wings"); «обтягивало» reads so too
    sent = tree([("Крылья", "крыло", "NOUN", _WINGS, 2, "nsubj"),
                 ("обтягивали", "обтягивать", "VERB", _PAST_PL.format("Act"), 0, "root"),
                 ("парусиной", "парусина", "NOUN", "Animacy=Inan|Case=Ins|Gender=Fem|Number=Sing", 2, "obl"),
                 (".", ".", "PUNCT", "", 2, "punct")])
    assert _pairs("noun_subj_predicate_agreement_number", sent) == []
    # an intransitive verb has no such reading: «Крылья вращались медленно» → «вращалось»
    sent = tree([("Крылья", "крыло", "NOUN", _WINGS, 2, "nsubj"),
                 ("вращались", "вращаться", "VERB", _PAST_PL.format("Mid"), 0, "root"),
                 ("медленно", "медленно", "ADV", "Degree=Pos", 2, "advmod"),
                 (".", ".", "PUNCT", "", 2, "punct")])
    assert _pairs("noun_subj_predicate_agreement_number", sent)
    # a time in the instrumental is no instrument: «Летом дуют ветры» → «дует»
    sent = tree([("Летом", "лето", "NOUN", "Animacy=Inan|Case=Ins|Gender=Neut|Number=Sing", 2, "obl"),
                 ("дуют", "дуть", "VERB", "Aspect=Imp|Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
                 ("ветры", "ветер", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Plur", 2, "nsubj"),
                 (".", ".", "PUNCT", "", 2, "punct")])
    assert "Летом дует ветры." in _pairs("noun_subj_predicate_agreement_number", sent)


def _stove(verb: str, lemma: str, case: str):
    # «Не <verb> утром топить печь.» with «печь» hung on the finite verb as its nsubj
    return tree([("Не", "не", "PART", "Polarity=Neg", 2, "advmod"),
                 (verb, lemma, "VERB", "Aspect=Perf|Mood=Ind|Number=Sing|Person=3|Tense=Fut|VerbForm=Fin|Voice=Mid", 0, "root"),
                 ("утром", "утро", "NOUN", "Animacy=Inan|Case=Ins|Gender=Neut|Number=Sing", 4, "obl"),
                 ("топить", "топить", "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 2, "xcomp"),
                 ("печь", "печь", "NOUN", f"Animacy=Inan|Case={case}|Gender=Fem|Number=Sing", 2, "nsubj"),
                 (".", ".", "PUNCT", "", 2, "punct")])


@pytest.mark.parametrize("case", ["Acc", "Nom"])
def test_no_person_pair_for_an_object_like_noun_beside_an_impersonal_modal(case):
    # whatever case the tree gives «печь» (the pass may re-read it as the verb's nominative)
    assert _pairs("noun_subj_predicate_agreement_person", _stove("придётся", "прийтись", case)) == []
    # a verb that takes a subject: the parser's nsubj is taken («Не сумеет … печь» → «сумею»)
    assert _pairs("noun_subj_predicate_agreement_person", _stove("сумеет", "суметь", case))


def test_an_impersonal_modal_whose_infinitive_is_in_another_clause_keeps_its_subject():
    # «Сыр получился, и его пришлось выбросить.»: «получиться» with a subject; the infinitive is the
    # conjoined clause's
    sent = tree([("Сыр", "сыр", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
                 ("получился", "получиться", "VERB", _PAST_M.replace("Act", "Mid"), 0, "root"),
                 (",", ",", "PUNCT", "", 6, "punct"),
                 ("и", "и", "CCONJ", "", 6, "cc"),
                 ("его", "он", "PRON", "Case=Acc|Gender=Masc|Number=Sing|Person=3", 7, "obj"),
                 ("пришлось", "прийтись", "VERB", _PAST_M.replace("Masc", "Neut").replace("Act", "Mid"), 2, "conj"),
                 ("выбросить", "выбросить", "VERB", "Aspect=Perf|VerbForm=Inf|Voice=Act", 6, "csubj"),
                 (".", ".", "PUNCT", "", 2, "punct")])
    assert "Сыр получилась, и его пришлось выбросить." in _pairs("noun_subj_predicate_agreement_gender", sent)


def test_an_impersonal_modal_with_no_infinitive_keeps_its_subject():
    # «Удар пришёлся по голове.»: «прийтись» with a nominative subject and no infinitive
    sent = tree([("Удар", "удар", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
                 ("пришёлся", "прийтись", "VERB", _PAST_M.replace("Act", "Mid"), 0, "root"),
                 ("по", "по", "ADP", "", 4, "case"),
                 ("голове", "голова", "NOUN", "Animacy=Inan|Case=Dat|Gender=Fem|Number=Sing", 2, "obl"),
                 (".", ".", "PUNCT", "", 2, "punct")])
    assert _pairs("noun_subj_predicate_agreement_gender", sent)


def _place(conjoined: bool):
    # «Указывают место нахождения [и целенаправленность] продукта.»
    rows = [("Указывают", "указывать", "VERB", "Aspect=Imp|Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
            ("место", "место", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 1, "obj"),
            ("нахождения", "нахождение", "NOUN", "Animacy=Inan|Case=Gen|Gender=Neut|Number=Sing", 2, "nmod")]
    if conjoined:
        rows += [("и", "и", "CCONJ", "", 5, "cc"),
                 ("целенаправленность", "целенаправленность", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Sing", 3, "conj")]
    rows += [("продукта", "продукт", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 3, "nmod"),
             (".", ".", "PUNCT", "", 1, "punct")]
    return tree(rows)


def test_nominalization_case_skips_a_genitive_after_a_noun_conjoined_to_the_nominalization():
    assert not any("продукт." in bad for bad in _pairs("nominalization_case", _place(conjoined=True)))
    assert any("нахождения продукт." in bad for bad in _pairs("nominalization_case", _place(conjoined=False)))


def _gifts(deprel: str):
    # «Подарков в зале не просит.» with «Подарков» tagged a nominative singular ``deprel``
    return tree([("Подарков", "подарок", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 5, deprel),
                 ("в", "в", "ADP", "", 3, "case"),
                 ("зале", "зал", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Sing", 5, "obl"),
                 ("не", "не", "PART", "Polarity=Neg", 5, "advmod"),
                 ("просит", "просить", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
                 (".", ".", "PUNCT", "", 5, "punct")])


def test_a_subject_is_not_made_genitive_by_the_roles_fix():
    # whether it is a genitive subject or a dropped subject's object is the subject paradigms' call
    assert normalise(_gifts("nsubj")).token(1).feats["Case"] == "Nom"
    # an object takes the one case of its form
    out = normalise(_gifts("obj")).token(1)
    assert (out.feats["Case"], out.feats["Number"]) == ("Gen", "Plur") and norm_marks(out) == ["roles"]


def _firefly(deprel: str):
    # «Светлячок приходится извиниться.» (an odd source sentence: the dative slot holds a nominative form)
    return tree([("Светлячок", "светлячок", "PROPN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 2, deprel),
                 ("приходится", "приходиться", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Mid", 0, "root"),
                 ("извиниться", "извиниться", "VERB", "Aspect=Perf|VerbForm=Inf|Voice=Mid", 2, "csubj"),
                 (".", ".", "PUNCT", "", 2, "punct")])


def test_an_iobj_is_not_made_nominative():
    assert normalise(_firefly("iobj")).token(1).feats["Case"] == "Gen"
    # under another relation the form's one case is read
    assert normalise(_firefly("obl")).token(1).feats["Case"] == "Nom"


def test_a_genitive_subject_beside_a_nominative_one_is_read():
    # «Лейку мы забыли.» with «Лейку» tagged a genitive nsubj: beside «мы» it becomes the accusative object
    sent = tree([("Лейку", "лейку", "PROPN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Sing", 3, "nsubj"),
                 ("мы", "мы", "PRON", "Case=Nom|Number=Plur|Person=1", 3, "nsubj"),
                 ("забыли", "забыть", "VERB", "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
                 (".", ".", "PUNCT", "", 3, "punct")])
    out = normalise(sent).token(1)
    assert (out.deprel, out.feats["Case"]) == ("obj", "Acc")
    # alone, it stays the genitive subject the parser saw (the subject paradigms decide)
    alone = tree([("Лейку", "лейку", "PROPN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Sing", 2, "nsubj"),
                  ("забыли", "забыть", "VERB", "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
                  (".", ".", "PUNCT", "", 2, "punct")])
    assert normalise(alone).token(1).feats["Case"] == "Gen"
