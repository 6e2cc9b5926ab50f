"""The subject queries of the tree layer (rublimp.trees.subjects, rublimp.trees.verbs) on hand-written wrong parses."""

from __future__ import annotations

from rublimp.trees.memo import sentence_memo_get
from rublimp.trees.subjects import (
    attractor_subject_edges,
    noun_subject_edges,
    repaired_edges,
    repaired_sentence,
    word_order_edges,
)
from rublimp.trees.verbs import retag_verbs
from tests.trees import tree

_PAST_PLUR = "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act"


def _indefinite_personal():
    # «Подачу тока в дома восстановили.»: no subject; «тока» is the genitive of the object «Подачу»
    return tree([
        ("Подачу", "подача", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", 5, "obj"),
        ("тока", "ток", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 1, "nmod"),
        ("в", "в", "ADP", "", 4, "case"),
        ("дома", "дом", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Plur", 5, "obl"),
        ("восстановили", "восстановить", "VERB", _PAST_PLUR, 0, "root"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ])


def test_the_word_order_policy_reads_a_subject_the_careful_policy_refuses():
    rs = repaired_sentence(_indefinite_personal())
    assert repaired_edges(rs) == []
    # the attractors' policy takes «тока» from «subject + phrase + verb» word order …
    assert [e.subject.form for e in word_order_edges(rs)] == ["тока"]
    assert [e.subject.form for e in attractor_subject_edges(rs)] == ["тока"]
    # … the noun-subject paradigms' careful policy only a clause-initial nominal
    assert noun_subject_edges(rs) == []


def test_edges_are_computed_once_per_sentence_in_its_memo():
    sent = _indefinite_personal()
    assert sentence_memo_get(sent, "agreement_edges") is None
    rs = repaired_sentence(sent)
    first = word_order_edges(rs)
    assert word_order_edges(rs) is first
    assert sentence_memo_get(rs, "word_order_edges") is first
    assert sentence_memo_get(sent, "agreement_edges") is not None


def test_retag_verbs_makes_a_verb_of_a_form_that_reads_only_as_one():
    # «Лодка покачивалась.» with «покачивалась» tagged NOUN
    sent = tree([
        ("Лодка", "лодка", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("покачивалась", "покачивалась", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 0, "root"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    fixed = retag_verbs(sent)
    verb = fixed.token(2)
    assert (verb.upos, verb.lemma, verb.feats["VerbForm"], verb.feats["Gender"]) == ("VERB", "покачиваться", "Fin", "Fem")
    assert (verb.head, verb.deprel) == (0, "root")
    assert sent.token(2).upos == "NOUN"  # the input is left alone
    assert [(e.subject.form, e.agreeing.form) for e in repaired_edges(sent)] == [("Лодка", "покачивалась")]


def test_a_conjoined_verb_with_its_own_subject_does_not_share_the_first():
    # «Полки установлены, а внизу располагались восемь отделений.» with «Полки» hung on the second verb
    # as a second nsubj beside its own
    rows = [
        ("Полки", "полка", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Plur", 6, "nsubj"),
        ("установлены", "установить", "VERB", "Aspect=Perf|Number=Plur|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass", 0, "root"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("а", "а", "CCONJ", "", 6, "cc"),
        ("внизу", "внизу", "ADV", "Degree=Pos", 6, "advmod"),
        ("располагались", "располагаться", "VERB", _PAST_PLUR.replace("Act", "Mid"), 2, "conj"),
        ("восемь", "восемь", "NUM", "Case=Nom", 8, "nummod:gov"),
        ("отделений", "отделение", "NOUN", "Animacy=Inan|Case=Gen|Gender=Neut|Number=Plur", 6, "nsubj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]
    rs = repaired_sentence(tree(rows))
    by_pred = {(e.predicate.form, e.subject.form) for e in noun_subject_edges(rs)}
    assert ("располагались", "отделений") in by_pred
    assert ("располагались", "Полки") not in by_pred
    assert ("располагались", "Полки") not in {(e.predicate.form, e.subject.form) for e in attractor_subject_edges(rs)}


_PAST_MASC = "Aspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin"


def _verb_object_noun(noun: tuple, tail: list[tuple] = ()) -> "Sentence":
    """«Понимал это и сам <noun><tail>.» with the noun hung as a conjunct of the verb (a VS parse error)."""
    return tree([
        ("Понимал", "понимать", "VERB", _PAST_MASC, 0, "root"),
        ("это", "это", "PRON", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 1, "obj"),
        ("и", "и", "PART", "", 5, "advmod"),
        ("сам", "сам", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 5, "amod"),
        (*noun, 1, "conj"),
        *tail,
        (".", ".", "PUNCT", "", 1, "punct"),
    ])


def test_subject_after_the_verb_and_its_object_is_read_from_word_order():
    # «Понимал это и сам Игорь.»: the clause-final name is the subject, «это» between is the object
    rs = repaired_sentence(_verb_object_noun(("Игорь", "игорь", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing")))
    edges = attractor_subject_edges(rs)
    assert [(e.subject.form, e.agreeing.form, e.order) for e in edges] == [("Игорь", "Понимал", "VS")]
    # the careful policy of the noun-subject paradigms does not take it
    assert noun_subject_edges(rs) == []
    # «… и сам город.»: a noun that reads as an accusative too may be the object: none
    rs = repaired_sentence(_verb_object_noun(("город", "город", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing")))
    assert attractor_subject_edges(rs) == []
    # the clause goes on after the noun («…, когда …»): the subject may be elsewhere: none
    rs = repaired_sentence(_verb_object_noun(
        ("Игорь", "игорь", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing"),
        [(",", ",", "PUNCT", "", 8, "punct"), ("когда", "когда", "SCONJ", "", 8, "mark"),
         ("ушёл", "уйти", "VERB", "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 1, "advcl")],
    ))
    assert [e.order for e in attractor_subject_edges(rs)] == []


def test_vs_subject_is_no_genitive_of_the_noun_before_it():
    # «Нашёл дом Петров.»: «Петров» is as well the genitive of the Petrovs after «дом»: no subject
    rs = repaired_sentence(tree([
        ("Нашёл", "найти", "VERB", "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
        ("дом", "дом", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 1, "obj"),
        ("Петров", "петров", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "appos"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]))
    assert attractor_subject_edges(rs) == []


_PAST_FEM = "Aspect=Perf|Gender=Fem|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"


def test_a_word_with_no_verb_reading_tagged_as_a_verb_gives_its_subject_to_the_verb():
    # «Соседка мигом закрыла окно.» with «мигом» tagged a finite verb holding the subject
    rs = repaired_sentence(tree([
        ("Соседка", "соседка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("мигом", "мигом", "VERB", _PAST_FEM, 3, "advmod"),
        ("закрыла", "закрыть", "VERB", _PAST_FEM, 0, "root"),
        ("окно", "окно", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 3, "obj"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]))
    assert rs.token(2).upos == "ADV" and rs.token(1).head == 3
    assert [(e.subject.form, e.agreeing.form) for e in repaired_edges(rs)] == [("Соседка", "закрыла")]
    # a «subject» after the retagged word, beyond a comma, stays where it is («Закрыла, небось, окно соседка»)
    rs = repaired_sentence(tree([
        ("Закрыла", "закрыть", "VERB", _PAST_FEM, 0, "root"),
        (",", ",", "PUNCT", "", 3, "punct"),
        ("небось", "небось", "VERB", _PAST_FEM, 1, "parataxis"),
        (",", ",", "PUNCT", "", 5, "punct"),
        ("окно", "окно", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 1, "obj"),
        ("соседка", "соседка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]))
    assert rs.token(3).upos == "PART" and rs.token(6).head == 3
    # a real verb keeps its tag
    rs = repaired_sentence(tree([
        ("Соседка", "соседка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("закрыла", "закрыть", "VERB", _PAST_FEM, 0, "root"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]))
    assert rs.token(2).upos == "VERB"


def test_subject_before_a_subordinator_of_its_verb_is_no_attractor_edge():
    # «Сад – пустырь, хотя в книгах часто описан …» with «Сад» parsed as the subject of «описан»
    def sent(conj: bool):
        rows = [
            ("Сад", "сад", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 7 if conj else 6, "nsubj"),
            ("–", "–", "PUNCT", "", 3, "punct"),
            ("пустырь", "пустырь", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 1, "appos"),
        ]
        if conj:
            rows.append(("хотя", "хотя", "SCONJ", "", 7, "mark"))
        n = len(rows)
        rows += [
            ("в", "в", "ADP", "", n + 2, "case"),
            ("книгах", "книга", "NOUN", "Animacy=Inan|Case=Loc|Gender=Fem|Number=Plur", n + 3, "obl"),
            ("описан", "описать", "VERB", "Aspect=Perf|Gender=Masc|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass", 0, "root"),
            (".", ".", "PUNCT", "", n + 3, "punct"),
        ]
        return repaired_sentence(tree(rows))

    assert [e.subject.form for e in attractor_subject_edges(sent(False))] == ["Сад"]
    assert attractor_subject_edges(sent(True)) == []
    # «Сад, как обычно, описан»: a comma after the subordinator closes its clause before the verb: kept
    rows = [
        ("Сад", "сад", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 6, "nsubj"),
        (",", ",", "PUNCT", "", 4, "punct"),
        ("как", "как", "SCONJ", "", 4, "mark"),
        ("обычно", "обычно", "ADV", "Degree=Pos", 6, "advmod"),
        (",", ",", "PUNCT", "", 4, "punct"),
        ("описан", "описать", "VERB", "Aspect=Perf|Gender=Masc|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass", 0, "root"),
        (".", ".", "PUNCT", "", 6, "punct"),
    ]
    assert [e.subject.form for e in attractor_subject_edges(repaired_sentence(tree(rows)))] == ["Сад"]


def test_nominative_subject_buried_below_a_nominal_of_its_clause():
    past = "Aspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"

    def sent(rel: str, case: str, punct: bool = False):
        # «К Риге Петров подходил.» with «Петров» hung (``rel``) on «Риге» (tagged ``case``)
        rows = [
            ("К", "к", "ADP", "", 2, "case"),
            ("Риге", "рига", "PROPN", f"Animacy=Inan|Case={case}|Gender=Fem|Number=Sing", 5 if punct else 4, "obl"),
        ]
        if punct:
            rows.append((",", ",", "PUNCT", "", 4, "punct"))
        n = len(rows)
        rows += [
            ("Петров", "петров", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, rel),
            ("подходил", "подходить", "VERB", past, 0, "root"),
            (".", ".", "PUNCT", "", n + 2, "punct"),
        ]
        return repaired_sentence(tree(rows))

    assert [(e.subject.form, e.agreeing.form) for e in repaired_edges(sent("nmod", "Dat"))] == [("Петров", "подходил")]
    # a nominative cannot be an apposition of a dative: taken as well
    assert [e.subject.form for e in repaired_edges(sent("appos", "Dat"))] == ["Петров"]
    # beside an accusative it may be one («носит название Хусейни»): none
    assert repaired_edges(sent("appos", "Acc")) == []
    # punctuation between the noun and the verb: none
    assert repaired_edges(sent("nmod", "Dat", punct=True)) == []


def test_no_buried_subject_that_may_be_a_genitive_a_place_name_or_follow_the_verb():
    past_plur = "Aspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act"
    # «Рецепт супруги подбирали.»: «супруги» is as well the genitive of «Рецепт» ("they chose the wife's recipe")
    rs = repaired_sentence(tree([
        ("Рецепт", "рецепт", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 3, "obj"),
        ("супруги", "супруг", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 1, "nmod"),
        ("подбирали", "подбирать", "VERB", past_plur, 0, "root"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]))
    assert repaired_edges(rs) == []
    pres = "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act"
    # «В состав округа Альбула входит.»: a place keeps its nominative name after a generic noun
    rs = repaired_sentence(tree([
        ("В", "в", "ADP", "", 2, "case"),
        ("состав", "состав", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 5, "obl"),
        ("округа", "округ", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 2, "nmod"),
        ("Альбула", "альбула", "PROPN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 3, "appos"),
        ("входит", "входить", "VERB", pres, 0, "root"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ]))
    assert repaired_edges(rs) == []
    # «Входит в состав округа Альбула.»: after the verb a dropped subject competes
    rs = repaired_sentence(tree([
        ("Входит", "входить", "VERB", pres, 0, "root"),
        ("в", "в", "ADP", "", 3, "case"),
        ("состав", "состав", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 1, "obl"),
        ("округа", "округ", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 3, "nmod"),
        ("Альбула", "альбула", "PROPN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 4, "appos"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]))
    assert repaired_edges(rs) == []


def test_vs_subject_of_an_intransitive_verb_may_read_as_an_accusative():
    # «Упало на дорогу яблоко.»: «яблоко» is also an accusative, but «упасть» takes no object
    neut = "Aspect=Perf|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
    rs = repaired_sentence(tree([
        ("Упало", "упасть", "VERB", neut, 0, "root"),
        ("на", "на", "ADP", "", 3, "case"),
        ("дорогу", "дорога", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", 1, "obl"),
        ("яблоко", "яблоко", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 3, "nmod"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]))
    assert [(e.subject.form, e.order) for e in attractor_subject_edges(rs)] == [("яблоко", "VS")]
    # a transitive verb («Увидело на дороге яблоко»): the noun may be its object, none
    rs = repaired_sentence(tree([
        ("Увидело", "увидеть", "VERB", neut, 0, "root"),
        ("на", "на", "ADP", "", 3, "case"),
        ("дороге", "дорога", "NOUN", "Animacy=Inan|Case=Loc|Gender=Fem|Number=Sing", 1, "obl"),
        ("яблоко", "яблоко", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 3, "nmod"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]))
    assert attractor_subject_edges(rs) == []


def test_vs_subject_is_no_place_name_after_a_generic_noun():
    # «Лежит к северу от острова Лусон.»: the subject is dropped; «Лусон» names the island
    def sent(animacy: str):
        return repaired_sentence(tree([
            ("Лежит", "лежать", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
            ("к", "к", "ADP", "", 3, "case"),
            ("северу", "север", "NOUN", "Animacy=Inan|Case=Dat|Gender=Masc|Number=Sing", 1, "obl"),
            ("от", "от", "ADP", "", 5, "case"),
            ("острова", "остров", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 3, "nmod"),
            ("Лусон", "лусон", "PROPN", f"Animacy={animacy}|Case=Nom|Gender=Masc|Number=Sing", 5, "appos"),
            (".", ".", "PUNCT", "", 1, "punct"),
        ]))

    assert attractor_subject_edges(sent("Inan")) == []
    # an animate name right after a genitive it may name is no subject either
    assert attractor_subject_edges(sent("Anim")) == []
