"""REFLEXIVES: the external-possessor paradigm (RuBLiMP Appendix B.2.6).

In the Russian *be*-possessive («У брата есть машина», «У неё была корова»)
the possessor is a *у*-phrase that takes a noun phrase or a personal pronoun
but cannot be the reflexive *себя*: nothing in the clause can bind it (the
possessum is the grammatical subject, and a reflexive is bound inside its own
clause). Replacing the possessor by *себя* makes the sentence ungrammatical:
«У себя есть машина».

Contexts, after the paper: a form of *быть* (*есть*, *был*, *будет*, …) and a
*у*-phrase before it. The parser gives two tree shapes for the construction
and both are accepted:

* *быть* heads the clause and the possessor is its ``obl`` (or ``nmod``)
  dependent: «У брата есть машина»;
* the possessor heads the clause and *быть* is its ``cop`` dependent, the
  shape slovnet prefers for «У моего дяди была коллекция».

The *у*-phrase must precede *быть*: after it, «был у брата» is usually a
locative («he was at his brother's»), where *у себя* is grammatical. The clause
must have a subject other than a personal pronoun (the possessum), so that the
*у*-phrase is a possessor rather than a location of a pronominal subject
(«он был у брата»). Replaced: a personal pronoun, an animate noun or a name without dependents of its own
phrase, before or after it — except a name written right after it
(:func:`~rublimp.trees.names.name_chain`), which goes with it: «У Кен Арока было восемь детей» →
«У себя было восемь детей», «У отца Матвея Степовича было …» → «У себя было …» (the name's words
deleted; RuBLiMP's «У себя Арока» is a half-edit)
(«у моего дяди», «у тёти Маши», «у участников которой» are
skipped, though RuBLiMP keeps words after the possessor: a name or relative left behind
would carry the possessor; a sentence adverb or punctuation the parser hung on it does
not count: «Также у него была сестра»). An inanimate noun is taken only with «есть»
(«у задачи есть решение»): with «был»/«будет» «у окна», «у вертолётов» reads as a location,
where «у себя» is grammatical — except a noun of a group of people or an organisation
(:data:`COLLECTIVE_POSSESSORS`: «У семьи был сын»). A conjunct joined by «и» after the
possessor is a phrase of its own and does not block it («У брата и сестры» → «У себя и
сестры»), nor does a prepositional phrase the parser hung on it across punctuation
(:func:`_outside_phrase`). The possessum must follow the у-phrase: before it, it can bind
«себя» as a location («Сын у брата был» → «Сын у себя был» is grammatical: at his own place). A third tree shape is accepted too: the
possessor as the root with *быть* as its conjunct («У них всегда броня есть»).

Parser repairs: a *у*-phrase the parser attached to some other word takes the finite
«быть» that follows it within a few words, with no punctuation or other verb between
(:func:`_following_be`); a nominative possessum hung on «быть» as ``conj``/``parataxis``
counts as its subject, and so does one the parser hung on the possessor as its ``nsubj`` («У Ильи
были дети»); a sentence-initial «У» tagged PROPN with the relation ``case`` is the preposition; a
«быть» with several subjects keeps those after the possessor (:func:`_later_subjects`).
"""

from __future__ import annotations

import functools
from typing import Callable, ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..trees.lexical import PERSONAL_PRONOUNS
from ..trees.names import name_chain
from ..trees.roles import name_cases
from .base import Edit, Paradigm, Perturbation, register

__all__ = ["ExternalPossessor", "PERSONAL_PRONOUNS", "possessor_contexts"]

_BE_LEMMAS = frozenset({"быть", "есть"})
_POSSESSOR_UPOS = frozenset({"NOUN", "PROPN", "PRON"})
# subjects that can be a possessum: a noun phrase, a numeral phrase («двое сыновей»),
# a quantity adverb («много работы»), a substantivised adjective or a non-personal pronoun («всё»)
_POSSESSUM_UPOS = frozenset({"NOUN", "PROPN", "NUM", "ADV", "ADJ", "PRON", "DET"})
# dependents that belong to the possessor's noun phrase: replacing the possessor would strand them
# (sentence adverbs, punctuation, the copula and the subject attached to it do not)
_NP_INTERNAL = frozenset({"amod", "det", "nmod", "appos", "nummod", "flat", "acl", "compound", "fixed", "conj"})


def _is_be(tok: Token) -> bool:
    return tok.upos in ("VERB", "AUX") and (normalize(tok.lemma) in _BE_LEMMAS or normalize(tok.form) == "есть")


def _is_u(tok: Token) -> bool:
    # (the parser's relation counts too: a sentence-initial «У» is sometimes tagged PROPN, ``case``)
    return (tok.upos == "ADP" or tok.base_deprel == "case") and normalize(tok.form) == "у"


def _later_subjects(sent: Sentence, subjects: list[Token], poss: Token) -> list[Token]:
    """Parser repair for a «быть» given several subjects: the possessum follows the *у*-phrase
    («Впрочем, у него есть и другие аргументы» with «Впрочем» read as a name and subject), so
    the subjects after the possessor are kept (the nominative ones, if several are). None are
    kept when a subject before it could make the *у*-phrase a location instead («Иван у брата
    был»: «у себя» is grammatical there): a personal pronoun or an animate noun with no
    punctuation between it and the possessor."""
    for s in subjects:
        if s.id > poss.id:
            continue
        locative = (s.upos == "PRON" and normalize(s.lemma) in PERSONAL_PRONOUNS) or s.feats.get("Animacy") == "Anim"
        if locative and not any(sent.token(i).upos == "PUNCT" for i in range(s.id + 1, poss.id)):
            return []
    later = [s for s in subjects if s.id > poss.id]
    if len(later) > 1:
        later = [s for s in later if s.feats.get("Case") == "Nom"]
    return later


def _possessum(sent: Sentence, heads: list[Token], poss: Token | None = None) -> Token | None:
    """The nominal subject among the dependents of ``heads`` (None when absent or pronominal)."""
    subjects = [k for h in heads for k in sent.children(h) if k.base_deprel == "nsubj"]
    if len(subjects) > 1 and poss is not None:
        subjects = _later_subjects(sent, subjects, poss)
        if not subjects:
            return None
    if not subjects:
        # parser repair: the nominative possessum hung on «быть» as a conjunct or parataxis
        # («У меня будет к вам одна просьба»: просьба = conj of будет)
        subjects = [
            k for h in heads for k in sent.children(h)
            if k.base_deprel in ("conj", "parataxis") and _is_be(h) and k.id > h.id
            and k.upos in ("NOUN", "PROPN") and k.feats.get("Case") == "Nom" and not sent.children(k, "case")
        ]
    if not subjects and any(normalize(k.form) == "не" for h in heads for k in sent.children(h)):
        # «У меня не было денег»: the possessum is a genitive of negation, often parsed obj/obl
        subjects = [
            k for h in heads for k in sent.children(h)
            if k.base_deprel in ("obj", "obl", "nsubj") and k.feats.get("Case") == "Gen"
            and k.upos in ("NOUN", "PROPN", "PRON", "DET") and not sent.children(k, "case")
        ]
    if len(subjects) != 1:
        return None
    subj = subjects[0]
    if subj.upos not in _POSSESSUM_UPOS:
        return None
    if subj.upos == "PRON" and normalize(subj.lemma) in PERSONAL_PRONOUNS | {"себя"}:
        return None
    return subj


#: nouns of a group of people or an organisation: with «был»/«будет» their у-phrase is a possessor,
#: not a place («У семьи был сын», «у партии было три портфеля»)
COLLECTIVE_POSSESSORS = frozenset({
    "семья", "семейство", "пара", "чета", "партия", "компания", "команда", "фирма", "организация",
    "правительство", "государство", "армия", "общество", "союз", "движение", "корпорация", "концерн",
    "ассоциация", "федерация", "династия", "род", "племя", "народ", "коллектив", "оркестр", "группа",
    "труппа", "дуэт", "трио", "квартет", "бригада", "клан", "орден", "братство", "супруг", "супруга",
})


def _outside_phrase(sent: Sentence, poss: Token, dep: Token) -> bool:
    """Whether the dependent ``dep`` of the possessor is outside its noun phrase although the parser
    hung it there: a conjunct joined by «и»/«или» (replacing one conjunct strands nothing: «У себя
    и Томрис был сын»), or a prepositional phrase after punctuation («У меня, вообще, со сборной
    … выезд был»: «со сборной» goes with the possessum)."""
    if dep.id < poss.id:
        return False
    kids = sent.children(dep)
    if dep.base_deprel == "conj":
        return any(k.base_deprel == "cc" and normalize(k.form) in ("и", "или") for k in kids)
    if dep.base_deprel == "nmod" and any(k.base_deprel == "case" for k in kids):
        return any(sent.token(i).upos == "PUNCT" for i in range(poss.id + 1, dep.id))
    return False


#: relative pronoun forms that may follow a possessor noun («у участников которой»)
_RELATIVE_FORMS = frozenset({"которого", "которой", "которых", "чьей", "чьего", "чьих", "чей"})

#: how far (in words) a finite «быть» may follow a possessor the parser attached elsewhere
_MAX_BE_DISTANCE = 4


def _following_be(sent: Sentence, poss: Token) -> Token | None:
    """Parser repair: a finite «быть» shortly after a *у*-phrase that the parser attached to some
    other word («Дома у соседей были гости»: у соседей → Дома; «у неё как раз есть пара» → a
    later verb). Only with no punctuation and no other verb between them; the caller still
    requires a nominal possessum subject of that «быть»."""
    for i in range(poss.id + 1, min(poss.id + _MAX_BE_DISTANCE + 1, len(sent.tokens) + 1)):
        tok = sent.token(i)
        if tok.upos == "PUNCT":
            return None
        if _is_be(tok):
            return tok if tok.feats.get("VerbForm", "Fin") == "Fin" else None
        if tok.upos in ("VERB", "AUX"):
            return None
    return None


def possessor_contexts(
    sent: Sentence, cases_of: Callable[[str], frozenset[str]] | None = None
) -> Iterator[tuple[Token, tuple[Token, ...], Token, Token]]:
    """``(possessor, name, быть token, possessum)`` for every *у*-possessive whose possessor is one
    word, or (with ``cases_of``, the noun cases of a form, for :func:`~rublimp.trees.names.name_chain`)
    a noun and the name written right after it («у Кен Арока»: name = (Арока,); «у отца Матвея
    Степовича»: name = (Матвея, Степовича)); ``name`` is () for a single word."""
    for poss in sent.tokens:
        if poss.upos not in _POSSESSOR_UPOS:
            continue
        kids = sent.children(poss)
        case = [k for k in kids if k.deprel == "case"]
        if len(case) != 1 or not _is_u(case[0]) or case[0].id != poss.id - 1:
            continue
        name: tuple[Token, ...] = ()
        if cases_of is not None and poss.upos in ("NOUN", "PROPN"):
            name = name_chain(sent, poss, cases_of)
        in_name = {t.id for t in name}
        kids = [k for k in kids if k.id not in in_name]
        last = name[-1] if name else poss
        if any(k.base_deprel in _NP_INTERNAL and not _is_be(k) and not _outside_phrase(sent, poss, k) for k in kids):
            # a modifier before the possessor would be stranded inside «у … себя» («у моего дяди»);
            # a name part, conjunct, genitive or relative after it would be left to carry the
            # possessor («у тёти Маши» → «у себя Маши», «у участников которой» → «у себя которой»;
            # RuBLiMP keeps these)
            continue
        if last.id < len(sent.tokens) and poss.upos in ("NOUN", "PROPN"):
            nxt = sent.token(last.id + 1)
            if nxt.upos in ("PROPN", "NOUN", "PRON", "DET") and (
                nxt.form[:1].isupper() or normalize(nxt.form) in _RELATIVE_FORMS
                or (nxt.upos in ("NOUN", "PROPN") and nxt.feats.get("Case") == "Gen")
            ) and sent.text[last.end:nxt.start].isspace():
                continue  # a name, genitive or relative the parser hung elsewhere («у соседки тёти Маши»)
        if poss.upos == "PRON" and normalize(poss.lemma) not in PERSONAL_PRONOUNS:
            continue  # себя itself, relatives (у которого), interrogatives, quantifiers
        inanimate = poss.upos == "NOUN" and poss.feats.get("Animacy") != "Anim"
        head = sent.head_of(poss)
        be: Token | None = None
        subj_heads: list[Token] = []
        if head is not None and _is_be(head) and poss.base_deprel in ("obl", "nmod", "iobj"):
            # (a possessum the parser hung on the possessor as its ``nsubj`` — «У Ильи были дети» with
            # дети → Ильи — is still the possessum)
            be, subj_heads = head, [head, poss]
        else:
            cops = [k for k in sent.children(poss, "cop") if _is_be(k)]
            # a third shape: the possessor heads the sentence and быть hangs off it as a conjunct
            # («У них всегда броня есть»: есть = conj of них)
            loose = [k for k in kids if k.base_deprel in ("conj", "parataxis") and _is_be(k)]
            if len(cops) == 1:
                be, subj_heads = cops[0], [poss, cops[0]]
            elif poss.head == 0 and len(loose) == 1:
                be, subj_heads = loose[0], [loose[0]]
            else:
                near = _following_be(sent, poss)
                if near is not None:
                    be, subj_heads = near, [near]
        if be is None or be.id < poss.id:
            continue
        if inanimate and normalize(be.form) != "есть" and normalize(poss.lemma) not in COLLECTIVE_POSSESSORS:
            # «у вертолётов были люди», «у окна стоял стол»: with «был»/«будет» an inanimate у-phrase
            # often reads as a location (where «у себя» is grammatical); «у задачи есть решение» does not
            continue
        subj = _possessum(sent, subj_heads, poss)
        if subj is None:
            continue
        if subj.id < poss.id:
            # «Сын у него был»: a possessum before the у-phrase can bind «себя» as a location («сын
            # был у себя», at his place), and a reader takes the order «у X … possessum» as the
            # construction's (RuBLiMP's examples; no dev pair has the other order): no pair
            continue
        yield poss, name, be, subj


@register
class ExternalPossessor(Paradigm):
    """«У брата есть машина» → «У себя есть машина»: the possessor replaced by *себя*."""
    new_words = "word"  # the self-check: «себя» replaces the possessor

    name: ClassVar[str] = "external_possessor"
    phenomenon: ClassVar[str] = "reflexives"
    level: ClassVar[str] = "Syntax"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        cases_of = functools.partial(name_cases, self.morph)
        for poss, name, be, _subj in possessor_contexts(sent, cases_of):
            # keep_case=False: «у Кости» must become «у себя», not «у Себя»; a name of several words
            # goes as a whole («у Кен Арока» → «у себя»): the first replaced, the rest deleted
            last = name[-1] if name else poss
            yield Perturbation(
                edits=(Edit(poss.id, "себя", keep_case=False),) + tuple(Edit(t.id, "") for t in name),
                feature="possessor",
                source_value=poss.upos,
                target_value="себя",
                subtype="есть" if normalize(be.form) == "есть" else "быть",
                source_word=sent.text[poss.start:last.end] if name else None,
                target_word="себя" if name else None,
            )

