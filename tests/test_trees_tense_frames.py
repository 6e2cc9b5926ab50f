"""trees.tense_frames: whose time a marker dates, and a past verb tagged as its noun homonym."""

from __future__ import annotations

from rublimp.morph import get_morph
from rublimp.trees.tense_frames import dates_the_frame, past_verb_with_pronoun_subject, same_time_infinitives
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
