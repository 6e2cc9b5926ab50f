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
(«он был у брата»). To keep the word count, only single-word possessors are
replaced: a personal pronoun, or a noun whose only dependent is *у*
(«у моего дяди» is skipped).
"""

from __future__ import annotations

from typing import ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from .base import Edit, Paradigm, Perturbation, register

__all__ = ["ExternalPossessor", "PERSONAL_PRONOUNS", "possessor_contexts"]

PERSONAL_PRONOUNS = frozenset({"я", "ты", "он", "она", "оно", "мы", "вы", "они"})
_BE_LEMMAS = frozenset({"быть", "есть"})
_POSSESSOR_UPOS = frozenset({"NOUN", "PROPN", "PRON"})
# subjects that can be a possessum: a noun phrase, a numeral phrase («двое сыновей»),
# a quantity adverb («много работы»), a substantivised adjective or a non-personal pronoun («всё»)
_POSSESSUM_UPOS = frozenset({"NOUN", "PROPN", "NUM", "ADV", "ADJ", "PRON", "DET"})


def _norm(s: str) -> str:
    return s.lower().replace("ё", "е")


def _is_be(tok: Token) -> bool:
    return tok.upos in ("VERB", "AUX") and (_norm(tok.lemma) in _BE_LEMMAS or _norm(tok.form) == "есть")


def _is_u(tok: Token) -> bool:
    return tok.upos == "ADP" and _norm(tok.form) == "у"


def _possessum(sent: Sentence, heads: list[Token]) -> Token | None:
    """The nominal subject among the dependents of ``heads`` (None when absent or pronominal)."""
    subjects = [k for h in heads for k in sent.children(h) if k.base_deprel == "nsubj"]
    if len(subjects) != 1:
        return None
    subj = subjects[0]
    if subj.upos not in _POSSESSUM_UPOS:
        return None
    if subj.upos == "PRON" and _norm(subj.lemma) in PERSONAL_PRONOUNS | {"себя"}:
        return None
    return subj


def possessor_contexts(sent: Sentence) -> Iterator[tuple[Token, Token, Token]]:
    """``(possessor, быть token, possessum)`` for every *у*-possessive with a single-word possessor."""
    for poss in sent.tokens:
        if poss.upos not in _POSSESSOR_UPOS:
            continue
        kids = sent.children(poss)
        case = [k for k in kids if k.deprel == "case"]
        if len(case) != 1 or not _is_u(case[0]) or case[0].id != poss.id - 1:
            continue
        if len(kids) != 1:  # dependents other than у would be stranded by the replacement
            continue
        if poss.upos == "PRON" and _norm(poss.lemma) not in PERSONAL_PRONOUNS:
            continue  # себя itself, relatives (у которого), interrogatives, quantifiers
        head = sent.head_of(poss)
        be: Token | None = None
        subj_heads: list[Token] = []
        if head is not None and _is_be(head) and poss.base_deprel in ("obl", "nmod", "iobj"):
            be, subj_heads = head, [head]
        else:
            cops = [k for k in sent.children(poss, "cop") if _is_be(k)]
            if len(cops) == 1:
                be, subj_heads = cops[0], [poss, cops[0]]
        if be is None or be.id < poss.id:
            continue
        subj = _possessum(sent, subj_heads)
        if subj is None:
            continue
        yield poss, be, subj


@register
class ExternalPossessor(Paradigm):
    """«У брата есть машина» → «У себя есть машина»: the possessor replaced by *себя*."""

    name: ClassVar[str] = "external_possessor"
    phenomenon: ClassVar[str] = "reflexives"
    level: ClassVar[str] = "Syntax"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for poss, be, _subj in possessor_contexts(sent):
            # keep_case=False: «у Кости» must become «у себя», not «у Себя»
            yield Perturbation(
                edits=(Edit(poss.id, "себя", keep_case=False),),
                feature="possessor",
                source_value=poss.upos,
                target_value="себя",
                subtype="есть" if _norm(be.form) == "есть" else "быть",
            )
