"""Readings of one token, and its linear neighbours, that the subject repairs and queries share.

Each function answers a question about a token as the tagger left it and as pymorphy3 reads its
form: can it be a nominative that agrees with this predicate (:func:`agrees_as_nominative`), could it
be an object (:func:`object_like`), does it read as a genitive or dative, is it a noun the tagger
called an adjective (:func:`nominal_like`); and which word precedes it, ignoring modifiers
(:func:`word_before`, :func:`after_preposition`, :func:`after_nominal`).
"""

from __future__ import annotations

import functools

from ..conllu_doc import Sentence, Token
from ..morph import OC2UD, UD2OC, get_morph
from .lexical import is_common_gender_tag, noun_only_guessing

__all__ = [
    "object_like",
    "no_accusative_reading",
    "other_object",
    "agrees_as_nominative",
    "nominative_feats",
    "dative_reading",
    "has_grammeme",
    "genitive_reading",
    "has_nominative",
    "nominal_like",
    "word_before",
    "after_preposition",
    "after_nominal",
]


def object_like(tok: Token) -> bool:
    """A «nominative» that reads as accusative too («предложение», «мир», «это»).

    Next to an infinitival subject it is the infinitive's object misattached
    by the parser («наше предложение следует принять»): a predicate with a
    clausal subject has no nominative argument.
    """
    number = UD2OC["Number"].get(tok.feats.get("Number", ""))
    return any(
        "accs" in p.tag.grammemes and (number is None or number in p.tag.grammemes)
        for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")
    )


def no_accusative_reading(tok: Token) -> bool:
    number = UD2OC["Number"].get(tok.feats.get("Number", ""))
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS == "NOUN"]
    return bool(parses) and not any("accs" in p.tag.grammemes and (number is None or number in p.tag.grammemes) for p in parses)


def other_object(sent: Sentence, pred: Token, tok: Token) -> bool:
    """Whether ``pred`` has another object, a noun or pronoun that cannot be a nominative («пугал его»)."""
    for kid in sent.children(pred):
        if kid.id == tok.id or kid.base_deprel != "obj" or kid.upos not in ("NOUN", "PROPN", "PRON"):
            continue
        if any(k.deprel == "case" for k in sent.children(kid)):
            continue
        parses = [p for p in get_morph().parses(kid.form) if p.tag.POS in ("NOUN", "NPRO")]
        if parses and not any("nomn" in p.tag.grammemes for p in parses):
            return True
    return False


def agrees_as_nominative(tok: Token, agreeing: Token):
    """pymorphy3's reading of ``tok`` as a nominative noun/pronoun that the agreeing word agrees with, or None.

    Agreement: number; gender with a past-tense or short singular; person.
    """
    number = UD2OC["Number"].get(agreeing.feats.get("Number", ""))
    if number is None:
        return None
    want = {"nomn", number}
    gender = agreeing.feats.get("Gender") if number == "sing" else None
    if gender in UD2OC["Gender"] and (agreeing.feats.get("Tense") == "Past" or agreeing.feats.get("Variant") == "Short"):
        want.add(UD2OC["Gender"][gender])
    person = agreeing.feats.get("Person")
    for p in get_morph().parses(tok.form):
        if p.tag.POS not in ("NOUN", "NPRO"):
            continue
        have = set(p.tag.grammemes)
        if is_common_gender_tag(p.tag):
            have |= {"masc", "femn"}
        p_person = OC2UD[p.tag.person][1] if p.tag.person in OC2UD else "3"
        if want <= have and (person is None or person == p_person):
            return p
    return None


def nominative_feats(tok: Token, agreeing: Token) -> dict[str, str] | None:
    """The features of ``tok`` read as its pymorphy3 nominative (known, or guessed for an unknown word
    such as «Смеагорл» tagged dative) that agrees with ``agreeing`` (:func:`agrees_as_nominative`), or None."""
    reading = agrees_as_nominative(tok, agreeing)
    if reading is None:
        return None
    feats = dict(tok.feats, Case="Nom", Number=OC2UD[reading.tag.number][1])
    if reading.tag.number == "sing" and reading.tag.gender in ("masc", "femn", "neut"):
        feats["Gender"] = OC2UD[reading.tag.gender][1]
    return feats


@functools.lru_cache(maxsize=100_000)
def _dative_form(form: str) -> bool:
    return any("datv" in p.tag.grammemes for p in get_morph().parses(form) if p.tag.POS in ("NOUN", "NPRO"))


def dative_reading(tok: Token) -> bool:
    return tok.upos in ("NOUN", "PROPN", "PRON") and _dative_form(tok.form)


def has_grammeme(tag, grammeme: str) -> bool:
    return grammeme in tag.grammemes


# -- attractors --------------------------------------------------------------------------
_ATTRACTOR_UPOS = frozenset({"NOUN", "PROPN", "PRON"})


#: relations only a nominal can have: a word tagged ADJ with one of them is a noun the tagger missed
_NOMINAL_ONLY_RELS = frozenset({"nmod", "appos", "obl", "obj", "iobj"})


def genitive_reading(tok: Token) -> bool:
    return any("gent" in p.tag.grammemes for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO"))


def has_nominative(tok: Token) -> bool:
    return any("nomn" in p.tag.grammemes for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO"))


def nominal_like(tok: Token) -> bool:
    """A noun or pronoun, or a word tagged ADJ in a nominal-only relation («стены Бархана», «Бархана» tagged ADJ nmod)
    or that pymorphy3 reads only as a noun («лицо урнгурца», «урнгурца» tagged ADJ amod)."""
    if tok.upos in _ATTRACTOR_UPOS:
        return True
    return tok.upos == "ADJ" and "Case" in tok.feats and (tok.base_deprel in _NOMINAL_ONLY_RELS or noun_only_guessing(tok.form))


_MODIFIER_UPOS = frozenset({"ADJ", "DET", "NUM"})


def word_before(sent: Sentence, tok: Token) -> Token | None:
    """The nearest word before ``tok`` that is not a modifier (:data:`_MODIFIER_UPOS`), or None at the sentence start."""
    i = tok.id - 2
    while i >= 0 and sent.tokens[i].upos in _MODIFIER_UPOS:
        i -= 1
    return sent.tokens[i] if i >= 0 else None


def after_preposition(sent: Sentence, tok: Token) -> bool:
    """``tok`` has a «case» child or follows a preposition with only modifiers between («в синем картузе»)."""
    if any(k.deprel == "case" for k in sent.children(tok)):
        return True
    before = word_before(sent, tok)
    return before is not None and before.upos == "ADP"


def after_nominal(sent: Sentence, tok: Token) -> bool:
    """The word before ``tok`` (modifiers skipped) is a noun or pronoun: ``tok`` may be its genitive («руки Рахели»)."""
    before = word_before(sent, tok)
    return before is not None and before.upos in ("NOUN", "PROPN", "PRON")
