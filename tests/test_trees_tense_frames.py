"""trees.tense_frames: whose time a marker dates, and a past verb tagged as its noun homonym."""

from __future__ import annotations

from rublimp.morph import get_morph
from rublimp.trees.tense_frames import dates_the_frame, past_verb_with_pronoun_subject, quantity_phrase, same_time_infinitives
from tests.trees import tree

_PAST_M = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
_INF = "Aspect=Perf|VerbForm=Inf|Voice=Act"


def _sentence(verb_lemma: str, verb_form: str, extra=()):
    rows = [
        ("Вчера", "вчера", "ADV", "Degree=Pos", 3, "advmod"),
        ("он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 3, "nsubj"),
        (verb_form, verb_lemma, "VERB", _PAST_M, 0, "root"),
        ("уйти", "уйти", "VERB", _INF, 3, "xcomp"),
        *extra,
        (".", ".", "PUNCT", "", 3, "punct"),
    ]
    return tree(rows, text=" ".join(r[0] for r in rows[:-1]) + ".")


def test_same_time_infinitives():
    sent = _sentence("успеть", "успел")
    verb, inf = sent.token(3), sent.token(4)
    assert same_time_infinitives(sent, verb, "успеть") == (inf,)
    assert same_time_infinitives(sent, verb, "решить") is None  # an intention verb: the infinitive's time is open
    with_by = _sentence("успеть", "успел", extra=[("бы", "бы", "PART", "Mood=Cnd", 3, "aux")])
    assert same_time_infinitives(with_by, with_by.token(3), "успеть") is None  # «бы»: any time
    # the marker before both words dates the frame; after the verb it may be the infinitive's
    assert dates_the_frame([sent.token(1)], verb, (inf,))
    assert not dates_the_frame([inf], verb, (inf,))
    assert dates_the_frame([inf], verb, ())  # no infinitive: anywhere


def test_past_verb_with_pronoun_subject():
    morph = get_morph()
    rows = [
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 2, "nsubj"),
        ("села", "село", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Plur", 0, "root"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]
    sent = tree(rows, text="Она села.")
    assert past_verb_with_pronoun_subject(morph, sent, sent.token(2))
    # «он» needs a masculine past form: «села» has none
    he = [("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj")] + rows[1:]
    sent = tree(he, text="Он села.")
    assert not past_verb_with_pronoun_subject(morph, sent, sent.token(2))


def test_quantity_phrase():
    """A numeric marker's quantity: numerals, nouns and modifiers, and «с» only between a numeral and
    «половиной»/«лишним» («два с половиной года», «тридцать с лишним лет»); «с» before anything else
    («с друзьями»), «с» with no numeral before it, or another preposition is no quantity."""
    rows = [
        ("два", "два", "NUM", "Case=Acc", 4, "nummod:gov"),
        ("с", "с", "ADP", "", 3, "case"),
        ("половиной", "половина", "NOUN", "Animacy=Inan|Case=Ins|Gender=Fem|Number=Sing", 1, "nmod"),
        ("года", "год", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 0, "root"),
    ]
    sent = tree(rows, text="два с половиной года")
    assert quantity_phrase(list(sent.tokens))
    other = rows[:2] + [("друзьями", "друг", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 1, "nmod")] + rows[3:]
    assert not quantity_phrase(list(tree(other, text="два с друзьями года").tokens))
    no_numeral = [("много", "много", "ADV", "Degree=Pos", 4, "advmod")] + rows[1:]
    assert not quantity_phrase(list(tree(no_numeral, text="много с половиной года").tokens))
    before = [
        ("за", "за", "ADP", "", 3, "case"),
        ("два", "два", "NUM", "Case=Acc", 3, "nummod:gov"),
        ("года", "год", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 0, "root"),
    ]
    assert not quantity_phrase(list(tree(before, text="за два года").tokens))


def test_same_clause_level():
    """Conjuncts at the verb's clause level only: a subordinate clause's verb is no partner of a
    main-clause verb, nor the other way round; two main-clause verbs (or two subordinate ones) are."""
    from rublimp.trees.tense_frames import same_clause_level

    rows = [
        ("ждал", "ждать", "VERB", _PAST_M, 0, "root"),
        ("отправил", "отправить", "VERB", _PAST_M, 1, "conj"),
        ("купил", "купить", "VERB", _PAST_M, 1, "conj"),
    ]
    sent = tree(rows, text="ждал отправил купил")
    main, sub, other = sent.token(1), sent.token(2), sent.token(3)
    subordinate = {main.id: False, sub.id: True, other.id: False}.__getitem__
    by_id = lambda toks: [t.id for t in toks]  # noqa: E731
    assert by_id(same_clause_level([sub, other], main, lambda t: subordinate(t.id))) == [other.id]
    assert by_id(same_clause_level([main, other], sub, lambda t: subordinate(t.id))) == []
    assert by_id(same_clause_level([main], other, lambda t: subordinate(t.id))) == [main.id]
