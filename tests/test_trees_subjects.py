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
