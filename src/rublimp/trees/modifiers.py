"""The modifier repairs: adjectives and determiners the parser attached elsewhere, or tagged as
something else, are read as the agreeing modifiers of the noun next to them (the noun-phrase
agreement paradigms read the repaired tree).

Every repair is decided by the parser's own features agreeing, or by pymorphy3 leaving no doubt,
and returns a copy of the sentence with the same token ids, offsets and forms.
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..morph import Morph
from .memo import sentence_memo
from .features import agrees
from .nominal import CYRILLIC_WORD, agr_from_tag, norm

__all__ = ["modifiers_reattached", "modifier_retags", "modifier_after", "conjunct_before", "adjective_reading",
           "adjective_heading_clause"]


def _same_agreement(a: Token, b: Token) -> bool:
    """Whether the parser gave ``a`` and ``b`` the same case and number (and gender in the singular)."""
    fa, fb = a.feats, b.feats
    if not fa.get("Case") or fa.get("Case") != fb.get("Case") or not fa.get("Number") or fa.get("Number") != fb.get("Number"):
        return False
    return fa["Number"] != "Sing" or (fa.get("Gender") is not None and fa.get("Gender") == fb.get("Gender"))


def _agrees_in_dictionary(morph: Morph, mod: Token, noun: Token) -> bool:
    """Whether a full adjective or participle reading of ``mod`` agrees with a noun reading of ``noun`` (pymorphy3; the
    parser's case and number when pymorphy3 has no noun reading of it, e.g. an unknown name)."""
    nouns = {agr_from_tag(p.tag) for p in morph.parses(noun.form) if p.tag.POS == "NOUN"}
    if not nouns:
        case, number = mod.feats.get("Case"), mod.feats.get("Number")
        return case is not None and (case, number) == (noun.feats.get("Case"), noun.feats.get("Number"))
    return any(agrees(agr_from_tag(p.tag), n) for p in morph.parses(mod.form) if p.tag.POS in ("ADJF", "PRTF")
               for n in nouns)


#: endings only adjectives have (a cheap filter before the dictionary is asked)
_ADJECTIVE_ENDINGS = ("ый", "ий", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему", "ую", "юю",
                      "ых", "их", "ыми", "ими", "ной", "ном", "ным")


def _retagged(tok: Token, morph: Morph | None) -> Token:
    """Parser repairs of one token's tags, decided by pymorphy3 (``tok`` itself when none applies):

    * a word tagged NOUN that the dictionary knows only as a full adjective («хитрый[NOUN] тиун»)
      is an ``ADJ``;
    * the numeral «один/одна/одно» left without a number is singular («Один[NUM] июнь»);
    * the pronoun «это» right after a neuter singular noun in its case is the determiner of it
      («Дело это продолжал …»), tagged ``DET``.
    """
    if morph is None or tok.upos not in ("NOUN", "NUM"):
        return tok
    if tok.upos == "NOUN" and norm(tok.form).endswith(_ADJECTIVE_ENDINGS) and CYRILLIC_WORD.fullmatch(tok.form) \
            and morph.word_is_known(tok.form):
        parses = morph.parses(tok.form)
        if parses and all(p.tag.POS == "ADJF" for p in parses):
            feats = {k: v for k, v in tok.feats.items() if k != "Animacy"}
            return dataclasses.replace(tok, upos="ADJ", feats=feats)
    if tok.upos == "NUM" and norm(tok.form) in ("один", "одна", "одно", "одного", "одной", "одному", "одним", "одном", "одну") \
            and "Number" not in tok.feats:
        return dataclasses.replace(tok, feats={**tok.feats, "Number": "Sing"})
    return tok


#: relations under which a word stands as the modifier of the noun it depends on
_MODIFIER_RELATIONS = frozenset({"amod", "det"})
#: relations the parser gives an agreeing modifier right next to its noun instead of ``amod``
_OTHER_RELATIONS = frozenset({"nmod", "appos", "nsubj", "acl"})


def _in_noun_phrase(sent: Sentence, tok: Token, morph: Morph) -> bool:
    """Whether ``tok`` stands as a modifier: the ``amod``/``det`` of a noun that one of its readings
    agrees with in pymorphy3 (or its ``nmod``/``appos``/``nsubj``/``acl`` right before it), or right
    before a noun that agrees with it in the parser's features and in pymorphy3, when it has no
    dependents but a preposition, or the noun is its dependent and it hangs on no noun itself."""
    head = sent.head_of(tok)
    if head is not None and head.upos in ("NOUN", "PROPN") and _agrees_in_dictionary(morph, tok, head) and (
            tok.base_deprel in _MODIFIER_RELATIONS or (tok.base_deprel in _OTHER_RELATIONS and tok.id == head.id - 1)):
        return True
    if tok.id >= len(sent.tokens):
        return False
    noun = sent.token(tok.id + 1)
    if noun.upos != "NOUN" or not _same_agreement(tok, noun) or not _agrees_in_dictionary(morph, tok, noun):
        return False
    # the parser made the noun its dependent and hung the word on no noun («противного[NOUN]
    # синха[nmod]»: modifier_clause re-hangs it), or the word has no dependents but a preposition
    # (modifier_attach hangs it on the noun)
    if noun.head == tok.id:
        return head is None or head.upos not in ("NOUN", "PROPN")
    return all(k.base_deprel == "case" for k in sent.children(tok))


def modifier_retags(sent: Sentence, morph: Morph) -> Sentence:
    """The tags pymorphy3 settles inside a noun phrase (``sent`` itself when none applies):

    * a word tagged NOUN that pymorphy3 knows only as a full adjective, standing as a noun's modifier
      (:func:`_in_noun_phrase`: the ``amod``/``det`` of a noun whose form agrees with it in pymorphy3,
      whatever features the parser gave, «в безветренную[NOUN.Loc.Plur] погоду», or right before a
      noun agreeing with it, «хитрый[NOUN] тиун»), is an ``ADJ`` (without Animacy); a substantivised
      adjective standing alone («Русские[NOUN] пришли») or before a noun it cannot agree with
      («знакомые[NOUN] офицера», the officer's acquaintances) keeps the parser's NOUN, as UD tags it;
    * the numeral «один/одна/одно» left without a number is singular («Один[NUM] июнь»);
    * the pronoun «это» without dependents right after a neuter singular noun in its case is the
      determiner of it («Дело это[PRON] продолжал»): ``DET``, ``det`` of the noun.
    """
    moved: dict[int, Token] = {}
    for t in sent.tokens:
        fixed = _retagged(t, morph)
        if fixed is not t and (t.upos != "NOUN" or _in_noun_phrase(sent, fixed, morph)):
            moved[t.id] = fixed
    for t in sent.tokens:
        if t.id in moved or t.upos != "PRON" or norm(t.form) != "это" or t.id == 1 or sent.children(t):
            continue
        noun = sent.token(t.id - 1)
        if noun.upos == "NOUN" and noun.feats.get("Gender") == "Neut" and noun.feats.get("Number") == "Sing" \
                and noun.feats.get("Case") == t.feats.get("Case") and noun.head != t.id:
            moved[t.id] = dataclasses.replace(t, upos="DET", head=noun.id, deprel="det")
    if not moved:
        return sent
    return dataclasses.replace(sent, tokens=[moved.get(t.id, t) for t in sent.tokens])


def adjective_reading(tok: Token, morph: Morph) -> Token | None:
    """``tok`` read as the adjective it is when the parser tagged it NOUN but pymorphy3 knows the form
    only as a full adjective («колдовская[NOUN]»): a copy tagged ``ADJ`` without Animacy (the tree
    keeps the NOUN: a substantivised adjective is one in UD); None for any other token."""
    if tok.upos != "NOUN":
        return None
    fixed = _retagged(tok, morph)
    return fixed if fixed.upos == "ADJ" else None


def modifier_after(sent: Sentence, noun: Token, morph: Morph | None = None) -> Token | None:
    """The adjective, determiner or participle right after ``noun`` that agrees with it (the parser's
    case, number and singular gender) and has no dependents, but which the tree does not make its
    modifier: hung on a word that is no noun («люк открытый[advcl] находился»; unless the noun right
    after it agrees too: that one is its noun), or on ``noun`` itself under another relation («на
    улице Лесной[appos]»); None otherwise. A query, not a repair: the tree keeps the parser's
    attachment (on GSD, attaching these lowers LAS), and a rule that takes such a word for the
    noun's modifier asks this (an adjective after its noun may be a depictive: «сундук стоял
    пустым»). With ``morph`` a word tagged NOUN that pymorphy3 knows only as a full adjective counts,
    returned as its :func:`adjective_reading`."""
    if noun.upos != "NOUN" or noun.id >= len(sent.tokens):
        return None
    mod = sent.token(noun.id + 1)
    if morph is not None:
        mod = adjective_reading(mod, morph) or mod  # its adjective reading: «сила колдовская[NOUN]»
    if (mod.upos not in ("ADJ", "DET") and mod.feats.get("VerbForm") != "Part") or mod.feats.get("Variant") == "Short":
        return None
    if sent.children(mod) or noun.head == mod.id or not _same_agreement(mod, noun):
        return None
    head = sent.head_of(mod)
    if head is not None and head.upos in ("NOUN", "PROPN"):
        return mod if head.id == noun.id and mod.base_deprel in _OTHER_RELATIONS else None
    if mod.upos == "DET":
        return None  # a determiner off a noun is often a pronoun of its own («это»)
    if mod.id < len(sent.tokens):
        after = sent.token(mod.id + 1)
        if after.upos == "NOUN" and after.head != mod.id and _same_agreement(mod, after):
            return None
    return mod


def _coordinated_modifier(sent: Sentence, mod: Token) -> bool:
    """Whether ``mod`` is the ``conj`` of an adjective, determiner or participle, or of a word that is a
    noun's ``amod``/``det`` (the second of two coordinated modifiers: «скромном и упорном[conj]»,
    «одно-[ADV amod] и двузначные[conj]»), not of a verb or noun."""
    if mod.base_deprel != "conj":
        return False
    first = sent.head_of(mod)
    return first is not None and (first.upos in ("ADJ", "DET") or first.feats.get("VerbForm") == "Part"
                                  or first.base_deprel in ("amod", "det"))


def conjunct_before(sent: Sentence, noun: Token, morph: Morph) -> Token | None:
    """The adjective or participle right before ``noun`` that is the ``conj`` of another adjective,
    determiner or participle («о скромном и упорном[conj of скромном] человеке», «сигнальный,
    предупреждающий[conj] цвет»), agrees with ``noun`` (the parser's case, number and singular gender,
    and pymorphy3) and has a dependent besides degree adverbs (the coordinator, the comma before it); None otherwise. A query,
    not a repair: UD makes the second of coordinated adjectives the first's conjunct, and the tree
    keeps that; a rule that takes each of them for the noun's modifier asks this. Not for a
    conjunct with a preposition or other punctuation of its own, on a noun, on the root, or over
    the noun itself."""
    if noun.upos != "NOUN" or noun.id == 1:
        return None
    mod = sent.token(noun.id - 1)
    if not _coordinated_modifier(sent, mod) or (mod.upos != "ADJ" and mod.feats.get("VerbForm") != "Part") \
            or mod.feats.get("Variant") == "Short":
        return None
    kids = sent.children(mod)
    if not any(k.base_deprel not in _ADJECTIVE_OWN for k in kids) or any(k.base_deprel == "case" for k in kids):
        return None
    if any(k.upos == "PUNCT" and not (k.form == "," and k.id == mod.id - 1) for k in kids):
        return None
    head = sent.head_of(mod)
    if head is None or head.upos in ("NOUN", "PROPN") or noun.head == mod.id or sent.descends_from(noun, mod):
        return None
    if not _same_agreement(mod, noun) or not _agrees_in_dictionary(morph, mod, noun):
        return None
    return mod


def adjective_heading_clause(sent: Sentence, *, conjuncts: bool = True, morph: Morph | None = None) -> Sentence:
    """An adjective right before its agreeing noun that the parser made head clause material or the
    noun itself, made the noun's ``amod`` (see :func:`_adjective_heading_clause`); ``sent`` itself
    when nothing changes. Without ``conjuncts`` an adjective that is the ``conj`` of another adjective,
    determiner or participle («о скромном и упорном[conj] человеке») stays: UD makes the second of two
    coordinated adjectives the conjunct of the first, so re-hanging it is no parser repair (the
    noun-phrase paradigms read it as the noun's modifier all the same); the conjunct of a verb is
    («Лазурин стоял, курсовой[conj of стоял] педагог[nsubj of курсовой]»). With ``morph`` pymorphy3
    must read the adjective as a full adjective or participle that can agree with the noun («Крылья[ADJ]
    мельницы» is no adjective)."""
    return _adjective_heading_clause(sent, conjuncts, morph)


def modifiers_reattached(sent: Sentence) -> Sentence:
    """``sent`` with stray adjectives attached to the noun right after them.

    The parser sometimes hangs an adjective or participle on a verb or leaves it the root («Норманское
    имя … дает»). An adjective (``ADJ``, or a participle; a determiner only under a noun) whose head is
    not a noun is made the ``amod`` of the noun right after it when the parser gave both the same case,
    number and (singular) gender. A preposition the parser hung on such an adjective moves with it to a
    noun after it that has none («в Илукстский[obl] уезд»); an adjective with any other dependent
    stays. An adjective right before the noun it depends on under another relation (``nsubj``,
    ``appos``, ``nmod``, ``acl``) that agrees with it becomes its ``amod`` («твой друг» as nsubj). Only
    the noun after the adjective: an adjective after its noun on a verb may be a depictive, whose
    instrumental is grammatical («сундук стоял пустым»; :func:`modifier_after` is the query for it). A
    copy sharing the other tokens (ids unchanged); ``sent`` itself when nothing changes. Memoised per
    sentence.
    """
    return sentence_memo(sent, ("modifiers_reattached",), lambda: _modifiers_reattached(sent))


def _modifiers_reattached(sent: Sentence) -> Sentence:
    moved: dict[int, Token] = {}
    n = len(sent.tokens)
    for mod in sent.tokens:
        if mod.upos not in ("ADJ", "DET") and mod.feats.get("VerbForm") != "Part":
            continue
        kids = sent.children(mod)
        if mod.feats.get("Variant") == "Short" or any(k.base_deprel != "case" for k in kids):
            continue
        # (a preposition hung on the adjective, «в Илукстский[obl] уезд», goes with it to the noun)
        head = sent.head_of(mod)
        if mod.upos == "DET" and (head is None or head.upos not in ("NOUN", "PROPN")):
            continue  # a determiner off a noun is often a pronoun of its own («это»)
        if head is not None and head.upos in ("NOUN", "PROPN"):
            if not kids and mod.base_deprel in _OTHER_RELATIONS and mod.id == head.id - 1 and _same_agreement(mod, head):
                # on its noun but under another relation («твой друг» as nsubj)
                moved[mod.id] = dataclasses.replace(mod, deprel="amod")
            continue
        if mod.id == n:
            continue
        noun = sent.token(mod.id + 1)
        if kids and any(k.base_deprel == "case" for k in sent.children(noun)):
            continue  # the preposition goes to a noun after the adjective that has none of its own
        if noun.upos == "NOUN" and noun.head != mod.id and _same_agreement(mod, noun):
            moved[mod.id] = dataclasses.replace(mod, head=noun.id, deprel="amod")
            for k in kids:
                moved[k.id] = dataclasses.replace(k, head=noun.id)
    if not moved:
        return sent
    return dataclasses.replace(sent, tokens=[moved.get(t.id, t) for t in sent.tokens])


#: dependents that stay on an adjective re-attached to its noun (its own degree words: «совсем»)
_ADJECTIVE_OWN = frozenset({"advmod", "case"})


def _adjective_heading_clause(sent: Sentence, conjuncts: bool = True, morph: Morph | None = None) -> Sentence:
    """An adjective or participle right before a noun that agrees with it (the parser's case, number
    and singular gender) but hung elsewhere WITH dependents of its own, which the simple repair
    leaves: the parser made the adjective head clause material («почесал лохматую[amod of the verb]
    голову и согласился[conj of лохматую]»), or the noun itself («совсем перетрусившей[conj]
    собакой[obl of the adjective]»). The adjective becomes the noun's ``amod``; its dependents other
    than degree adverbs go to the noun when the noun was its dependent (the noun takes the
    adjective's place and relation), else to the adjective's own head. Not for an adjective with
    punctuation of its own (quotes of a title, a detached phrase; the comma before a conjunct
    adjective is no such mark: «голый, серый бетон»), nor for a root adjective
    over a noun outside its subtree, nor for a noun deeper in it (no safe place for the clause),
    nor with punctuation between them. ``sent`` itself when nothing changes."""
    moved: dict[int, Token] = {}
    n = len(sent.tokens)
    for mod in sent.tokens:
        if mod.upos != "ADJ" and mod.feats.get("VerbForm") != "Part":
            continue
        if mod.feats.get("Variant") == "Short" or mod.id >= n or mod.id in moved:
            continue
        if not conjuncts and _coordinated_modifier(sent, mod):
            continue
        kids = sent.children(mod)
        others = [k for k in kids if k.base_deprel not in _ADJECTIVE_OWN]
        head = sent.head_of(mod)
        if not others or (head is not None and head.upos in ("NOUN", "PROPN")):
            continue  # (no other dependents: the simple repair's case)
        if any(k.upos == "PUNCT" and not (k.form == "," and k.id == mod.id - 1 and mod.base_deprel == "conj")
               for k in kids):
            # a quote or comma on the adjective: a title («``Фабианское общество''») or a detached
            # phrase; only the comma of a coordination of adjectives may stay («голый, серый бетон»)
            continue
        noun = sent.token(mod.id + 1)
        if noun.upos != "NOUN" or noun.id in moved or not _same_agreement(mod, noun):
            continue
        if morph is not None and not _agrees_in_dictionary(morph, mod, noun):
            continue
        if any(k.base_deprel == "case" for k in kids):
            continue  # a preposition on the adjective: its phrase is the adjective's own
        if noun.head == mod.id:
            moved[noun.id] = dataclasses.replace(noun, head=mod.head, deprel=mod.deprel)
            target = noun.id
        elif mod.head == 0 or sent.descends_from(noun, mod):
            continue
        else:
            target = mod.head
        moved[mod.id] = dataclasses.replace(mod, head=noun.id, deprel="amod")
        for k in others:
            if k.id != noun.id:
                moved[k.id] = dataclasses.replace(k, head=target)
    if not moved:
        return sent
    return dataclasses.replace(sent, tokens=[moved.get(t.id, t) for t in sent.tokens])
