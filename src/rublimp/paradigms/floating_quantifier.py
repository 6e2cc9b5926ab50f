"""FLOATING QUANTIFIER AGREEMENT: the three RuBLiMP paradigms for «сам» (Appendix B.2.5).

The intensifier «сам» agrees with its antecedent in number, gender and case,
whether it stands next to it («Ждали самого босса») or floats away from it
(«Мэр сам перерезал ленту»). The parser does not link a floating «сам» to its
antecedent, so, as in the paper, the antecedent is found heuristically: the
single verbal argument of the clause (subject, direct, indirect or oblique
object; nouns and pronouns) that shares the number, case and — in the
singular — gender of «сам». None or several → the sentence is skipped. When
«сам» is attached to a nominal that agrees with it, that nominal is the
antecedent. «сам» is then re-inflected for one feature:

* ``floating_quantifier_agreement_number``: «Дворники сами расчищали тротуары» → «Дворники сам расчищали тротуары»;
* ``floating_quantifier_agreement_gender``: «Художница сама подготовила выставку» → «Художница сам подготовила выставку»;
* ``floating_quantifier_agreement_case``: «Его самого мало кто признаёт» → «Его самому мало кто признаёт».

Safeguards: antecedent and «сам» agree in the parser's features and in
pymorphy3's analyses; «сам» is told apart from the homonymous superlative
«самый» (shared forms самого/самой/самому/самом count only when they do not
precede an adjective and do not modify a noun of the «самый» idioms: в самом
деле, с самого начала, до самого утра, …); «само собой» is skipped; the new
form has no reading with the original value, agrees with no reading of the
antecedent and with no other argument of the clause (it could float to that
one instead: «Он сам их видел» ↛ «Он самих их видел»), and a new form that
can be nominative needs an overt subject in the clause (a dropped subject
could host it). No gender change with 1st/2nd person pronouns (the gender is
the speaker's), «кто», «каждый» and the like, or common-gender nouns; no
number change with «вы» (polite «Вы сами/сам»).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from ..morph import Analysis, Morph
from .agreement import COMMON_GENDER_FILE, load_common_gender_nouns
from .base import Edit, Paradigm, Perturbation, register
from .np_agreement import (
    ADJ_POS,
    CASES,
    Agr,
    _norm,
    _yo,
    adjective_readings,
    agr_from_tag,
    agrees,
    case_targets,
    gender_targets,
    has_common_gender,
    inflect_agreeing,
    noun_readings,
    number_targets,
    ud_agr,
)

__all__ = [
    "SAM_ONLY_FORMS",
    "SHARED_FORMS",
    "SamAntecedent",
    "sam_antecedents",
    "clause_arguments",
    "FloatingQuantifierNumber",
    "FloatingQuantifierGender",
    "FloatingQuantifierCase",
]

PHENOMENON = "floating_quantifier_agreement"
SAM = "сам"
#: forms that only «сам» has (the superlative «самый» has самая, самое, самые, самую, самым, самых, самыми);
#: the bookish accusative «самоё» is left out: with ё written as е it is «самое»
SAM_ONLY_FORMS = frozenset({"сам", "сама", "само", "сами", "саму", "самим", "самих", "самими"})
#: forms shared with «самый»
SHARED_FORMS = frozenset({"самого", "самой", "самому", "самом"})
#: nouns with which a shared form is the superlative «самый» ('the very …'), from the set phrases
#: в самом деле, на самом деле, с самого начала, до самого конца/утра/вечера, у самого края, …
SAMYJ_NOUNS = frozenset(
    {
        "дело", "начало", "конец", "край", "верх", "низ", "дно", "центр", "середина", "вершина", "основание",
        "утро", "вечер", "ночь", "рассвет", "закат", "горизонт", "порог", "подножие", "кромка", "граница",
        "последний", "момент", "детство",
    }
)
ARG_RELS = frozenset({"nsubj", "obj", "iobj", "obl"})
# arguments: nouns, pronouns, and substantivised adjectives/determiners («Заречный», «некоторые»)
ARG_UPOS = frozenset({"NOUN", "PROPN", "PRON", "DET", "ADJ"})
ANTECEDENT_POS = frozenset({"NOUN", "NPRO", "ADJF", "PRTF"})
# antecedents whose grammatical gender is fixed by the word itself (3rd-person pronouns); for
# я/ты/мы/вы, кто, каждый, … the gender of «сам» is the referent's
GENDERED_PRONOUNS = frozenset({"он", "она", "оно", "который"})
# predicates: where the search for a clause's arguments starts
_PRED_UPOS = frozenset({"VERB", "AUX"})


@dataclass(frozen=True)
class SamAntecedent:
    """An occurrence of «сам», its reading, its antecedent and the other arguments of the clause."""

    sam: Token
    parse: object  # the pymorphy3 parse of «сам» that matches the parser's features
    agr: Agr
    antecedent: Token
    antecedent_analysis: Analysis
    adnominal: bool  # «сам» is attached to its antecedent
    others: tuple[Token, ...]  # the other verbal arguments of the clause
    has_subject: bool  # the clause has an overt nominal subject

    @property
    def subtype(self) -> str:
        return f"{'adnominal' if self.adnominal else 'floating'}:{self.antecedent.base_deprel}"


def _is_sam(sent: Sentence, tok: Token, morph: Morph) -> bool:
    """Whether ``tok`` is the intensifier «сам» (not the superlative «самый», not «само собой»).

    A shared form counts only when the next word cannot be an adjective
    («самого рыжего»), and its head is neither an adjective nor a noun of the
    «самый» idioms nor a noun inside a prepositional phrase («над самой
    рекой», «до самой зимы»: 'right above', 'until the very').
    """
    form = _norm(tok.form)
    if tok.upos not in ("ADJ", "DET", "PRON"):
        return False
    nxt = sent.token(tok.id + 1) if tok.id < len(sent.tokens) else None
    if form == "само" and nxt is not None and _norm(nxt.form) in ("собой", "собою"):
        return False
    if form in SAM_ONLY_FORMS:
        return True
    if form not in SHARED_FORMS:
        return False
    if nxt is not None and (nxt.upos == "ADJ" or any(p.tag.POS in ADJ_POS for p in morph.parses(nxt.form))):
        return False
    head = sent.head_of(tok)
    if head is None or head.upos == "ADJ" or _norm(head.lemma) in SAMYJ_NOUNS:
        return False
    if head.upos in ("NOUN", "PROPN") and any(k.base_deprel == "case" for k in sent.children(head)):
        return False
    return True


def _ud_match(sam: Agr, arg: Agr) -> bool:
    """Parser features of an argument equal those of «сам» (gender only where both have one)."""
    if arg.case != sam.case or arg.number != sam.number:
        return False
    return sam.number != "Sing" or not arg.genders or not sam.genders or bool(arg.genders & sam.genders)


def _predicate(sent: Sentence, start: Token | None) -> Token | None:
    """The head of the clause that ``start`` belongs to (a verb, a copular predicate or the root)."""
    node = start
    while node is not None and not (
        node.upos in _PRED_UPOS
        or node.head == 0
        or any(k.base_deprel in ("cop", "nsubj") for k in sent.children(node))
    ):
        node = sent.head_of(node)
    return node


def clause_arguments(sent: Sentence, start: Token | None, exclude: Token | None = None) -> tuple[list[Token], bool]:
    """The verbal arguments of the clause above ``start`` and whether it has an overt subject.

    Arguments are the nominal ``nsubj``/``obj``/``iobj``/``obl`` dependents of
    the clause predicate and of the predicates that control it (a controlled
    infinitive, ``xcomp``/``csubj``, shares its controller: «Катя решила сама
    приготовить»). A conjoined predicate without a subject of its own shares
    the subject of the first conjunct («Грушин делился опытом и сам рассылал
    черенки»), but not its objects. ``exclude`` (the «сам» itself) is never an argument.
    """
    node = _predicate(sent, start)
    if node is None:
        return [], False
    preds = [node]
    while node.base_deprel in ("xcomp", "csubj") and node.head != 0:
        node = sent.head_of(node)
        preds.append(node)
    skip = exclude.id if exclude is not None else -1
    args = [
        k for p in preds for k in sent.children(p)
        if k.base_deprel in ARG_RELS and k.upos in ARG_UPOS and k.id != skip
    ]
    subjects = [a for a in args if a.base_deprel == "nsubj"]
    node = preds[-1]
    while not subjects and node.base_deprel == "conj" and node.head != 0:
        node = sent.head_of(node)
        subjects = [k for k in sent.children(node) if k.base_deprel == "nsubj" and k.upos in ARG_UPOS and k.id != skip]
        args.extend(subjects)
    return args, bool(subjects)


def sam_antecedents(sent: Sentence, morph: Morph) -> Iterator[SamAntecedent]:
    """Every «сам» of ``sent`` whose antecedent can be identified (see the module docstring)."""
    for sam in sent.tokens:
        if not _is_sam(sent, sam, morph):
            continue
        ud = ud_agr(sam)
        if ud.case not in CASES or ud.number is None or (ud.number == "Sing" and not ud.genders):
            continue
        parse = next(
            (p for p in morph.readings(sam.form, SAM, ADJ_POS) if agrees(agr_from_tag(p.tag), ud) and agr_from_tag(p.tag).genders >= ud.genders),
            None,
        )
        if parse is None:
            continue
        head = sent.head_of(sam)
        args, has_subject = clause_arguments(sent, head, exclude=sam)
        adnominal = head is not None and head.upos in ARG_UPOS and _ud_match(ud, ud_agr(head))
        if adnominal:
            ante = head
        else:
            matches = [a for a in args if _ud_match(ud, ud_agr(a))]
            if len(matches) != 1:
                continue
            ante = matches[0]
        if any(k.base_deprel == "conj" for k in sent.children(ante)) or ante.base_deprel == "conj":
            continue
        aa = morph.analyse(ante.form, ante.upos, ante.feats)
        if aa is None or aa.tag.POS not in ANTECEDENT_POS or {"Fixd", "Abbr", "Init"} & aa.tag.grammemes:
            continue
        a_agr = agr_from_tag(aa.tag)
        if not agrees(agr_from_tag(parse.tag), a_agr):
            continue
        animacy = a_agr.animacy or ante.feats.get("Animacy")
        if animacy is None and aa.tag.POS == "NPRO" and _norm(aa.lemma) != "оно":
            animacy = "Anim"  # personal pronouns take animate agreement: «его самого», «их самих»
        genders = ud.genders if ud.number == "Sing" else (a_agr.genders or ud_agr(ante).genders)
        others = tuple(a for a in args if a.id != ante.id)
        yield SamAntecedent(sam, parse, Agr(ud.case, ud.number, genders, animacy), ante, aa, adnominal, others, has_subject)


class _FloatingQuantifier(Paradigm):
    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv",)

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        self.common_gender = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)

    def targets(self, sa: SamAntecedent) -> Iterator[tuple[str, str, Agr]]:
        """(source value, target value, features of the new form) for one «сам»."""
        raise NotImplementedError

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for sa in sam_antecedents(sent, self.morph):
            seen: set[str] = set()
            for source, target, agr in self.targets(sa):
                word = self._new_form(sa, source, agr)
                if word is None or word in seen:
                    continue
                seen.add(word)
                word = _yo(sent, word)
                yield Perturbation(
                    edits=(Edit(sa.sam.id, word),),
                    feature=self.feature,
                    source_value=source,
                    target_value=target,
                    subtype=sa.subtype,
                )

    def _new_form(self, sa: SamAntecedent, source: str, agr: Agr) -> str | None:
        word = inflect_agreeing(self.morph, sa.parse, agr.case or "", agr.number or "", agr.gender, agr.animacy)
        if word is None or _norm(word) == _norm(sa.sam.form):
            return None
        forbidden = {self.feature: source}
        if self.feature == "Gender":
            forbidden["Number"] = "Sing"
        if self.morph.is_ambiguous(word, SAM, ADJ_POS, forbidden):
            return None
        readings = adjective_readings(self.morph, word, SAM)
        ante = noun_readings(self.morph, sa.antecedent.form, sa.antecedent_analysis.lemma)
        if any(agrees(r, a) for r in readings for a in ante):
            return None
        if any(agrees(r, ud_agr(o)) for r in readings for o in sa.others):
            return None
        if not sa.has_subject and any(r.case == "Nom" for r in readings):
            return None
        return word

    def _gender_fixed(self, sa: SamAntecedent) -> bool:
        ante = sa.antecedent
        if ante.upos in ("PRON", "DET") or sa.antecedent_analysis.tag.POS == "NPRO":
            return _norm(sa.antecedent_analysis.lemma) in GENDERED_PRONOUNS
        return not has_common_gender(self.morph, ante, sa.antecedent_analysis, self.common_gender)


@register
class FloatingQuantifierNumber(_FloatingQuantifier):
    """«Дворники сами расчищали тротуары.» → «Дворники сам расчищали тротуары.»"""

    name = "floating_quantifier_agreement_number"
    feature = "Number"

    def targets(self, sa):
        a = sa.agr
        if _norm(sa.antecedent_analysis.lemma) == "вы":
            return
        for target, agr in number_targets(a):
            yield ("Sing" if target == "Plur" else "Plur"), target, agr


@register
class FloatingQuantifierGender(_FloatingQuantifier):
    """«Художница сама подготовила выставку.» → «Художница сам подготовила выставку.»"""

    name = "floating_quantifier_agreement_gender"
    feature = "Gender"

    def targets(self, sa):
        a = sa.agr
        if a.number != "Sing" or a.gender is None or not self._gender_fixed(sa):
            return
        for g, agr in gender_targets(a):
            yield a.gender, g, agr


@register
class FloatingQuantifierCase(_FloatingQuantifier):
    """«Его самого уже мало кто признаёт.» → «Его самому уже мало кто признаёт.»"""

    name = "floating_quantifier_agreement_case"
    feature = "Case"

    def targets(self, sa):
        a = sa.agr
        for c, agr in case_targets(a):
            yield a.case, c, agr
