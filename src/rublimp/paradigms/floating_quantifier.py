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

* ``floating_quantifier_agreement_number``: «в самом клубе» → «в самом клубах» (the noun «сам» stands
  on, as RuBLiMP; «сам» where the noun cannot change — a subject, whose verb would disagree too:
  «Дворники сами расчищали» → «Дворники сам расчищали», «Она сама испекла» → «Она сами испекла»);
* ``floating_quantifier_agreement_gender``: «Художница сама подготовила выставку» → «Художница сам подготовила выставку»;
* ``floating_quantifier_agreement_case``: «Его самого мало кто признаёт» → «Его самому мало кто признаёт».

Safeguards: antecedent and «сам» agree in the parser's features and in
pymorphy3's analyses (for a proper name pymorphy3 does not know, «сам
Продинов», the parser's features of the name, which «сам» confirms); «сам» is told apart from the homonymous superlative
«самый» (shared forms самого/самой/самому/самом count only when they do not
precede an adjective and do not modify a noun of the «самый» idioms: в самом
деле, с самого начала, до самого утра, …); «само собой» is skipped; the new
form has no reading with the original value, agrees with no reading of the
antecedent and with no other argument of the clause (it could float to that
one instead: «Он сам их видел» ↛ «Он самих их видел»), and a new form that
can be nominative needs an overt subject in the clause (a dropped subject
could host it). No gender change with 1st/2nd person pronouns (the gender is
the speaker's), «кто», «каждый» and the like, or common-gender nouns — unless
the subject's predicate shows the gender («Ты сам почувствовал», «Мэр сам
открыл»: «сама» then contradicts the verb); no number change with «вы»
(polite «Вы сами/сам»).

RuBLiMP's choices, measured on its dev pairs: the number paradigm changes the
NOUN «сам» stands on (see :class:`FloatingQuantifierNumber`); gender goes
masculine/neuter → feminine, feminine → masculine; case goes nominative →
genitive (сам → самого), other cases → nominative. Each of gender and case
makes one deterministic edit. In the gender paradigm a form of «самый» is never
made («самое существование» is grammatical); the case paradigm makes RuBLiMP's
«самый» nominative from a shared form (:class:`FloatingQuantifierCase`).

A gender or number change keeps the case: where the form of «сам» has several (самого: gen. or
acc.) the antecedent's preposition or relation must settle it (:meth:`_FloatingQuantifier._case_unsettled`).
Gender and case leave a shared form on a THING inside a prepositional phrase alone («до самого леса»
is «самый»); on a person («к самому князю») it is «сам».

Parser repairs: «сам» in another case than the nominal it is attached to takes that nominal's
case (:func:`_adnominal_case_repair`); a nominative right before a floating «сам» is its antecedent
where the clause has no other (:func:`_preceding_nominative`); a name pymorphy3 misreads takes the
parser's features where a past verb confirms them. Design history and dev-split figures:
``docs/phenomena/floating_quantifier_agreement.md``.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from ..morph import Analysis, Morph
from ..trees.nominal import (
    ADJ_POS,
    CASES,
    COMMON_GENDER_FILE,
    Agr,
    adjective_readings,
    agr_from_tag,
    agrees,
    case_settled,
    case_targets,
    gender_targets,
    has_common_gender,
    head_number_blocked,
    inflect_agreeing,
    load_common_gender_nouns,
    norm,
    noun_readings,
    number_targets,
    renumber_noun,
    spell_yo,
    ud_agr,
)
from ..trees.roles import preposition_of, read_case_table
from .base import Edit, Paradigm, Perturbation, register

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
#: the preposition → governed cases table under ``resources/``
PREPOSITIONS_FILE = "prepositions.tsv"
SAM = "сам"
#: the superlative whose forms самого/самой/самому/самом share
SAMYJ = "самый"
#: its nominatives: the case paradigm makes them from a shared form (самого → самый), whichever lexeme it is
SAMYJ_NOMINATIVES = frozenset({"самый", "самая", "самое", "самые"})
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
_PERSONAL = frozenset({"я", "ты", "он", "она", "оно", "мы", "вы", "они"})
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
    #: the antecedent is a proper name unknown to pymorphy3 («сам Продинов»): its features are the
    #: parser's (confirmed by «сам» itself), not pymorphy3's guess
    guessed: bool = False
    #: a form shared with «самый» on a noun inside a prepositional phrase («к самому князю»), found
    #: only with ``shared_in_pp`` (see :func:`_is_sam`): it may be «самый»
    in_pp_only: bool = False

    @property
    def subtype(self) -> str:
        return f"{'adnominal' if self.adnominal else 'floating'}:{self.antecedent.base_deprel}"


def _is_sam(sent: Sentence, tok: Token, morph: Morph, *, shared_in_pp: bool = False) -> bool:
    """Whether ``tok`` is the intensifier «сам» (not the superlative «самый», not «само собой»).

    A shared form counts only when the next word cannot be an adjective
    («самого рыжего»), and its head is neither an adjective nor a noun of the
    «самый» idioms nor a noun inside a prepositional phrase («над самой
    рекой», «до самой зимы»: 'right above', 'until the very'), unless
    ``shared_in_pp`` (RuBLiMP counts those as «сам»; a number change of the
    noun breaks its agreement with either lexeme).
    """
    form = norm(tok.form)
    if tok.upos not in ("ADJ", "DET", "PRON"):
        return False
    nxt = sent.token(tok.id + 1) if tok.id < len(sent.tokens) else None
    if form == "само" and nxt is not None and norm(nxt.form) in ("собой", "собою"):
        return False
    if form in SAM_ONLY_FORMS:
        return True
    if form not in SHARED_FORMS:
        return False
    if nxt is not None and _superlative_partner(tok, nxt, morph):
        return False
    prev = sent.token(tok.id - 1) if tok.id > 1 else None
    if prev is not None and prev.upos == "PRON" and norm(prev.lemma) in _PERSONAL \
            and prev.feats.get("Case") == tok.feats.get("Case"):
        return True  # right after a personal pronoun in its case: «ему самому», «Ей самой в куклы играть»
    head = sent.head_of(tok)
    if head is None or head.upos == "ADJ" or norm(head.lemma) in SAMYJ_NOUNS:
        return False
    if not shared_in_pp and head.upos in ("NOUN", "PROPN") and any(k.base_deprel == "case" for k in sent.children(head)):
        return False
    return True


def _superlative_partner(tok: Token, nxt: Token, morph: Morph) -> bool:
    """Whether the word after a shared form can be the adjective of a superlative «самый»: a full
    adjective or participle reading in a case and number of the form («самого рыжего»); an adjective
    in another case («ему самому ужасным»: dat. vs ins.) or a short form («мне самому нужен») is none."""
    own = {(a.case, a.number) for p in morph.parses(tok.form) if p.tag.POS in ADJ_POS for a in [agr_from_tag(p.tag)]}
    return any(p.tag.POS in ADJ_POS and (agr_from_tag(p.tag).case, agr_from_tag(p.tag).number) in own
               for p in morph.parses(nxt.form)) or (nxt.upos == "ADJ" and nxt.feats.get("Case") == tok.feats.get("Case"))


def _adnominal_case_repair(sent: Sentence, sam: Token, morph: Morph) -> Token:
    """Parser repair: «сам» right next to the nominal it is attached to, tagged in another case
    than that nominal, is read in the nominal's case, number and gender when one of its own
    readings has them and the nominal's form cannot be in the case the parser gave «сам»
    («к нему самого[Gen]»: нему is only dative); otherwise returned as it is."""
    head = sent.head_of(sam)
    if head is None or head.upos not in ARG_UPOS or abs(head.id - sam.id) != 1:
        return sam
    h = ud_agr(head)
    if h.case is None or h.case == sam.feats.get("Case") or h.case not in CASES or h.number is None:
        return sam
    if any(r.case == sam.feats.get("Case") for r in noun_readings(morph, head.form, head.lemma, ("NOUN", "NPRO"))):
        return sam  # the nominal may be in the case of «сам» (the parser misread the nominal, not «сам»)
    if not any(a.case == h.case and a.number == h.number and (h.number != "Sing" or not h.genders or a.genders >= h.genders)
               for a in adjective_readings(morph, sam.form, SAM)):
        return sam
    feats = {**sam.feats, "Case": h.case, "Number": h.number}
    if h.number == "Sing" and len(h.genders) == 1:
        feats["Gender"] = next(iter(h.genders))
    return dataclasses.replace(sam, feats=feats)


def _reflexive_host(head: Token | None, sam: Agr) -> Token | None:
    """«себя» in the case of «сам» («самим собой», «перед самой собой»), given the features
    «сам» shows for the binder; None for any other head."""
    if head is None or head.upos != "PRON" or norm(head.lemma) != "себя" or head.feats.get("Case") != sam.case:
        return None
    feats = {"Case": sam.case or "", "Number": sam.number or ""}
    if sam.number == "Sing" and len(sam.genders) == 1:
        feats["Gender"] = next(iter(sam.genders))
    return dataclasses.replace(head, feats=feats)


def _verb_confirms(sent: Sentence, subj: Token, sam: Agr) -> bool:
    """Whether ``subj`` is the nominative subject of a past-tense verb that shows the number and
    (singular) gender of «сам» («Матату всё увидел сам»): the name's features are then settled by
    two agreeing words, not by the parser's guess alone."""
    if subj.base_deprel != "nsubj" or sam.case != "Nom":
        return False
    verb = sent.head_of(subj)
    return verb is not None and verb.upos in ("VERB", "AUX") and _past_agrees(verb, sam)


def _preceding_nominative(sent: Sentence, sam: Token, ud: Agr) -> Token | None:
    """Parser repair: a nominative noun or pronoun right before a floating nominative «сам» (only
    «и» may stand between) that agrees with it, when the parser gave the clause no argument that
    does («жених сам невесту высватал» with «жених» attached elsewhere, «он и сам рад»): the
    subject «сам» floats off. None when there is no such word."""
    if ud.case != "Nom" or sam.id < 2:
        return None
    prev = sent.token(sam.id - 1)
    if norm(prev.form) == "и" and sam.id > 2:
        prev = sent.token(sam.id - 2)
    # «Тилод ухаживал сам» (the name hung on a noun before it): the nominative right before the
    # past verb «сам» floats after, when that verb shows the number and gender of «сам»
    after_verb = prev.id == sam.head and prev.id > 1 and prev.upos == "VERB" \
        and prev.feats.get("VerbForm") == "Fin" and _past_agrees(prev, ud)
    if after_verb:
        prev = sent.token(prev.id - 1)
    if prev.upos not in ("NOUN", "PROPN", "PRON") or prev.feats.get("Case") != "Nom":
        return None
    if sent.children(prev, "case") or prev.base_deprel in (("appos", "flat", "conj") if after_verb
                                                          else ("nmod", "appos", "flat", "conj")):
        return None
    if not _ud_match(ud, ud_agr(prev)):
        return None
    # the clause's finite verb must be able to agree with it («таке-ир сам делаю»: «делаю» is 1st
    # person, so the noun is an object and «сам» the speaker's)
    pred = _predicate(sent, sent.head_of(sam))
    if pred is not None and pred.upos in ("VERB", "AUX") and pred.feats.get("VerbForm") == "Fin":
        f = pred.feats
        if f.get("Person") in ("1", "2") or f.get("Number") not in (None, ud.number):
            return None
        if f.get("Number") == "Sing" and f.get("Gender") and ud.genders and f["Gender"] not in ud.genders:
            return None
    if after_verb:  # the verb's subject, whatever the parser hung it on
        return dataclasses.replace(prev, head=sam.head, deprel="nsubj")
    return prev


def _past_agrees(verb: Token, sam: Agr) -> bool:
    """Whether ``verb`` is a past form (any verb form) showing the number and (singular) gender of «сам»."""
    f = verb.feats
    if f.get("Tense") != "Past" or f.get("Number") != sam.number:
        return False
    return sam.number != "Sing" or (len(sam.genders) == 1 and f.get("Gender") in sam.genders)


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


def sam_antecedents(sent: Sentence, morph: Morph, *, shared_in_pp: bool = False) -> Iterator[SamAntecedent]:
    """Every «сам» of ``sent`` whose antecedent can be identified (see the module docstring).

    ``shared_in_pp``: also «самого/самой/самому/самом» on a noun inside a
    prepositional phrase (see :func:`_is_sam`); such an occurrence is
    yielded only when it is adnominal.
    """
    for sam in sent.tokens:
        in_pp_only = not _is_sam(sent, sam, morph)
        if in_pp_only:
            if not (shared_in_pp and _is_sam(sent, sam, morph, shared_in_pp=True)):
                continue
            head = sent.head_of(sam)
            if head is None or not _ud_match(ud_agr(sam), ud_agr(head)):
                continue
        sam = _adnominal_case_repair(sent, sam, morph)
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
        prev = sent.token(sam.id - 1) if sam.id > 1 else None
        if prev is not None and prev is not head and prev.upos == "PRON" and norm(prev.lemma) in _PERSONAL \
                and _ud_match(ud, ud_agr(prev)):
            # parser repair: «сам» right after a personal pronoun in its case and number is that
            # pronoun's, wherever the parser hung either («так ему самому[acl] сказали», «Ей самой играть»)
            head = prev
        args, has_subject = clause_arguments(sent, head, exclude=sam)
        reflexive = _reflexive_host(head, ud)
        adnominal = head is not None and head.upos in ARG_UPOS and (reflexive is not None or _ud_match(ud, ud_agr(head)))
        if reflexive is not None:
            # «сам собой»: «себя» has no number or gender; «сам» shows its binder's, and a
            # changed number or case breaks that agreement (gender is the referent's: not changed)
            aa = morph.analyse(head.form, head.upos, head.feats)
            if aa is None:
                continue
            others = tuple(a for a in args if a.id != head.id)
            yield SamAntecedent(sam, parse, Agr(ud.case, ud.number, ud.genders, "Anim"), reflexive, aa, True,
                                others, has_subject, True, in_pp_only)
            continue
        if adnominal:
            ante = head
        else:
            matches = [a for a in args if _ud_match(ud, ud_agr(a))]
            near = _preceding_nominative(sent, sam, ud) if len(matches) != 1 else None
            if near is not None and not matches:
                ante, has_subject = near, True  # the subject the parser attached elsewhere
            elif len(matches) != 1:
                continue
            else:
                ante = matches[0]
        if any(k.base_deprel == "conj" for k in sent.children(ante)):
            continue  # «сам» may scope over the whole coordination
        if ante.base_deprel == "conj" and not (adnominal and sam.id < ante.id):
            continue  # a floating «сам» with a conjunct antecedent (an adnominal one agrees with its own noun)
        aa = morph.analyse(ante.form, ante.upos, ante.feats)
        confirmed = _verb_confirms(sent, ante, ud)
        if aa is None and confirmed and ante.upos == "PROPN" and not morph.word_is_known(ante.form):
            # a name pymorphy3 cannot analyse at all («сам Бад не выжил»): the past verb settles
            # its number and gender, as for the names it only guesses
            unknown = morph.parses(ante.form)
            aa = Analysis(unknown[0], 0.0) if unknown else None
        misread_name = (
            # a name the dictionary takes for another word («Казуаров сам пришёл»: казуаров = gen.pl,
            # «Дебри поднялся сам»: дебри = plural): «сам» and the past verb agree with each other and
            # with the parser's features of the name, so those settle it, as for unknown names
            confirmed and ante.upos == "PROPN" and ante.id > 0 and ante.form[:1].isupper()
            and not ante.form.isupper() and morph.word_is_known(ante.form)
            and (aa is None or not agrees(agr_from_tag(parse.tag), agr_from_tag(aa.tag)))
        )
        if misread_name and aa is None:
            known = morph.parses(ante.form)
            aa = Analysis(known[0], 0.0) if known else None
        guessed = (misread_name and aa is not None) or (
            (adnominal or confirmed)
            and ante.upos == "PROPN" and aa is not None and not morph.word_is_known(ante.form)
        ) or (
            # an indeclinable name («сам Ли следовал»): its number and gender are the past verb's
            confirmed and ante.upos == "PROPN" and aa is not None and "Fixd" in aa.tag.grammemes
            and aa.tag.POS == "NOUN" and "Abbr" not in aa.tag.grammemes
        )
        if guessed:
            a_agr = ud_agr(ante)
            if not agrees(agr_from_tag(parse.tag), a_agr):
                continue
        else:
            if aa is None or aa.tag.POS not in ANTECEDENT_POS or {"Fixd", "Abbr", "Init"} & aa.tag.grammemes:
                continue
            a_agr = agr_from_tag(aa.tag)
            if not agrees(agr_from_tag(parse.tag), a_agr):
                continue
        animacy = a_agr.animacy or ante.feats.get("Animacy")
        if animacy is None and aa.tag.POS == "NPRO" and norm(aa.lemma) != "оно":
            animacy = "Anim"  # personal pronouns take animate agreement: «его самого», «их самих»
        genders = ud.genders if ud.number == "Sing" else (a_agr.genders or ud_agr(ante).genders)
        others = tuple(a for a in args if a.id != ante.id)
        yield SamAntecedent(
            sam, parse, Agr(ud.case, ud.number, genders, animacy), ante, aa, adnominal, others, has_subject, guessed,
            in_pp_only,
        )


class _FloatingQuantifier(Paradigm):
    # the self-check: the quantifier's agreement is the point; a subject noun re-numbered next to
    # «сам» also disagrees with its verb, as in RuBLiMP's pairs («Мэры сам открыл»)
    breaks_agreement = frozenset({"modifier", "predicate"})
    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv", PREPOSITIONS_FILE)
    #: make only the first target with a safe form (RuBLiMP's edit is deterministic)
    first_only: ClassVar[bool] = False

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        self.common_gender = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)

    def targets(self, sa: SamAntecedent) -> Iterator[tuple[str, str, Agr]]:
        """(source value, target value, features of the new form) for one «сам»."""
        raise NotImplementedError

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        yield from self._all_sam_edits(sent)

    def _all_sam_edits(self, sent: Sentence) -> Iterator[Perturbation]:
        """Edits of every «сам», including a shared form on a noun inside a prepositional phrase
        («к самому князю», which may be «самый»): there only a new form that both lexemes share
        (самого, самому, самом, самой) is made, so the edit is the same whichever it is."""
        for sa in sam_antecedents(sent, self.morph, shared_in_pp=True):
            yield from self._sam_edits(sent, sa)

    def _sam_edits(self, sent: Sentence, sa: SamAntecedent) -> Iterator[Perturbation]:
        """«сам» re-inflected for each target of :meth:`targets` (for ``sa.in_pp_only``, only to a
        form «самый» shares)."""
        seen: set[str] = set()
        if self.feature != "Case" and self._case_unsettled(sent, sa):
            return
        for source, target, agr in self.targets(sa):
            if seen and self.first_only:
                break
            word = self._new_form(sa, source, agr)
            if word is not None and sa.in_pp_only and norm(word) not in SHARED_FORMS | SAMYJ_NOMINATIVES:
                word = None
            if word is None or word in seen:
                continue
            seen.add(word)
            word = spell_yo(sent, word)
            yield Perturbation(
                edits=(Edit(sa.sam.id, word),),
                feature=self.feature,
                source_value=source,
                target_value=target,
                subtype=sa.subtype,
            )

    def _case_unsettled(self, sent: Sentence, sa: SamAntecedent) -> bool:
        """Whether the case of «сам» is open where its form has several (самого: gen. or acc.) —
        a gender or number change «in the same case» could then change the case too («самого» →
        «саму» for a genitive). Read off the antecedent's preposition or relation
        (:func:`~rublimp.trees.nominal.case_settled`)."""
        if sa.guessed:
            return False
        cases = {a.case for a in adjective_readings(self.morph, sa.sam.form, SAM) if a.number == sa.agr.number}
        found = preposition_of(sent, sa.antecedent)
        return not case_settled(sent, sa.antecedent, sa.agr.case or "", cases, found[1] if found else None,
                                self.prepositions)

    @functools.cached_property
    def prepositions(self) -> dict[str, frozenset[str]]:
        """Preposition → the UD cases it governs (``resources/prepositions.tsv``)."""
        return read_case_table(self.ctx.resources_dir / PREPOSITIONS_FILE, "preposition", "cases")

    def _new_form(self, sa: SamAntecedent, source: str, agr: Agr) -> str | None:
        word = inflect_agreeing(self.morph, sa.parse, agr.case or "", agr.number or "", agr.gender, agr.animacy)
        if word is None or norm(word) == norm(sa.sam.form):
            return None
        forbidden = {self.feature: source}
        if self.feature == "Gender":
            forbidden["Number"] = "Sing"
        if self.morph.is_ambiguous(word, SAM, ADJ_POS, forbidden):
            return None
        readings = adjective_readings(self.morph, word, SAM)
        if sa.guessed:
            ante = {ud_agr(sa.antecedent)}
        else:
            ante = noun_readings(self.morph, sa.antecedent.form, sa.antecedent_analysis.lemma)
        if self.feature == "Gender" and not any(a.genders for a in ante):
            pass  # я/ты/вы carry no gender: the predicate settled it (see _gender_fixed)
        elif any(agrees(r, a) for r in readings for a in ante):
            return None
        if any(agrees(r, ud_agr(o)) for r in readings for o in sa.others):
            return None
        if not sa.has_subject and not self._nominative_antecedent(sa) and any(r.case == "Nom" for r in readings):
            return None
        return word

    @staticmethod
    def _nominative_antecedent(sa: SamAntecedent) -> bool:
        """«сам» stands on a nominative antecedent («убил сам Том»): that nominal is the clause's
        subject whatever relation the parser gave it, so no dropped subject can host a nominative «сам»."""
        return sa.adnominal and sa.antecedent.feats.get("Case") == "Nom" and sa.agr.case == "Nom"

    def _gender_fixed(self, sa: SamAntecedent, sent: Sentence | None = None) -> bool:
        """Whether the antecedent's gender is settled: by the word itself, or — for names, job
        nouns and я/ты — by a predicate that agrees with it in gender («Сигвард сам понимал»,
        «ты сам почувствовал»: a feminine «сама» contradicts the verb)."""
        ante = sa.antecedent
        if ante.upos in ("PRON", "DET") or sa.antecedent_analysis.tag.POS == "NPRO":
            if norm(sa.antecedent_analysis.lemma) in GENDERED_PRONOUNS:
                return True
        elif not has_common_gender(self.morph, ante, sa.antecedent_analysis, self.common_gender):
            return True
        return sent is not None and self._predicate_gender(sent, ante) == sa.agr.gender

    @staticmethod
    def _predicate_gender(sent: Sentence, subj: Token) -> str | None:
        """The singular gender shown by the predicate of the subject ``subj`` (past verb, short
        adjective or participle, or their copula/auxiliary), or None."""
        if subj.base_deprel != "nsubj":
            return None
        pred = sent.head_of(subj)
        if pred is None:
            return None
        for t in [pred] + [k for k in sent.children(pred) if k.base_deprel in ("cop", "aux")]:
            if t.feats.get("Number") == "Sing" and t.feats.get("Gender") in ("Masc", "Fem", "Neut"):
                if t.upos in ("VERB", "AUX") or t.feats.get("Variant") == "Short":
                    return t.feats["Gender"]
        return None


@register
class FloatingQuantifierNumber(_FloatingQuantifier):
    """«Дворники сами расчищали тротуары.» → «Дворник сами расчищали тротуары.»"""

    name = "floating_quantifier_agreement_number"
    feature = "Number"
    #: only the agreement with «сам» may break (a noun edit never touches a subject with an agreeing predicate)
    breaks_agreement = frozenset({"modifier"})

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """RuBLiMP changes the NOUN when «сам» stands on it («в самом клубе» → «в самом клубах»,
        143 of its 200 dev pairs), else «сам» («Им самим» → «Им самому»).

        The noun is changed only where nothing else agrees with its number
        (:func:`~rublimp.trees.nominal.head_number_blocked`: not a subject whose predicate shows
        number, which would then disagree too) and its new form agrees with no reading of «сам» or
        of its other modifiers and has no reading in the old number
        (:func:`~rublimp.trees.nominal.renumber_noun`); otherwise «сам» is changed as for a
        floating «сам».
        """
        for sa in sam_antecedents(sent, self.morph, shared_in_pp=True):
            pert = self._noun_edit(sent, sa) if sa.adnominal else None
            if pert is not None:
                yield pert
            elif not sa.in_pp_only:  # a PP-internal shared form may be «самый»: only its noun is changed
                yield from self._sam_edits(sent, sa)

    def _noun_edit(self, sent: Sentence, sa: SamAntecedent) -> Perturbation | None:
        ante = sa.antecedent
        if sa.guessed or ante.upos not in ("NOUN", "PROPN") or sa.antecedent_analysis.tag.POS != "NOUN":
            return None
        if not self.morph.word_is_known(ante.form) or head_number_blocked(sent, ante, later_conjunct=True, linked=True,
                                                                       morph=self.morph):
            return None
        # (a subject whose predicate agrees with it is not changed — «сам хан был» → «сам ханы был»
        # would break subject–predicate agreement as well: «сам» is changed instead)
        mods = [(sa.sam.form, SAM)]
        for kid in sent.children(ante):
            if kid.id == sa.sam.id or kid.base_deprel not in ("amod", "det"):
                continue
            ka = self.morph.analyse(kid.form, kid.upos, kid.feats)
            if ka is None or ka.tag.POS not in ADJ_POS:
                return None
            mods.append((kid.form, ka.lemma))
        found = renumber_noun(self.morph, ante, sa.antecedent_analysis, mods)
        if found is None:
            return None
        target, word = found
        return Perturbation(
            edits=(Edit(ante.id, spell_yo(sent, word)),),
            feature=self.feature,
            source_value=sa.agr.number or "",
            target_value=target,
            subtype=f"noun:{sa.subtype}",
        )

    def targets(self, sa):
        a = sa.agr
        if norm(sa.antecedent_analysis.lemma) == "вы":
            return
        if a.number == "Plur" and a.gender is None:
            # a plural of unknown gender («нам самим»): the masculine singular, RuBLiMP's choice
            # («нам самому»); any singular disagrees with a plural antecedent
            a = Agr(a.case, a.number, frozenset({"Masc"}), a.animacy)
        for target, agr in number_targets(a):
            yield ("Sing" if target == "Plur" else "Plur"), target, agr


@register
class FloatingQuantifierGender(_FloatingQuantifier):
    """«Художница сама подготовила выставку.» → «Художница сам подготовила выставку.»"""

    name = "floating_quantifier_agreement_gender"
    feature = "Gender"
    first_only = True  # RuBLiMP: сам/само → сама, самой → самому

    _sent: Sentence | None = None  # the sentence being perturbed (its predicate may settle the gender)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """As for case: a shared form on an inanimate noun in a prepositional phrase is «самый»
        («до самой зимы» → «до самого зимы» would be the superlative's error), left alone."""
        self._sent = sent
        for sa in sam_antecedents(sent, self.morph, shared_in_pp=True):
            if not (sa.in_pp_only and not _animate(sa)):
                yield from self._sam_edits(sent, sa)

    def targets(self, sa):
        a = sa.agr
        if a.number != "Sing" or a.gender is None or not self._gender_fixed(sa, self._sent):
            return
        for g, agr in gender_targets(a):
            yield a.gender, g, agr


@register
class FloatingQuantifierCase(_FloatingQuantifier):
    """«Его самого уже мало кто признаёт.» → «Его самому уже мало кто признаёт.»"""

    name = "floating_quantifier_agreement_case"
    feature = "Case"
    first_only = True
    #: RuBLiMP's choice: a nominative «сам» → genitive (сам → самого, сама → самой, сами → самих),
    #: any other case → nominative (самому → сам); then the remaining cases in order
    CASE_ORDER: ClassVar[dict[str, tuple[str, ...]]] = {
        "Nom": ("Gen", "Dat", "Ins", "Loc", "Acc"),
    }
    OTHER_ORDER: ClassVar[tuple[str, ...]] = ("Nom", "Gen", "Dat", "Ins", "Loc", "Acc")
    NEUTER_NOM_ORDER: ClassVar[tuple[str, ...]] = ("Dat", "Gen", "Ins", "Loc", "Acc")
    INANIMATE_PLURAL_NOM_ORDER: ClassVar[tuple[str, ...]] = ("Ins", "Gen", "Dat", "Loc", "Acc")

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """A shared form on a noun inside a prepositional phrase only where the noun is animate:
        «к самому князю» is «сам» ('to the prince himself'), «до самого леса», «над самой головой»
        the superlative «самый» ('right up to', 'right above'), whose case error is no
        floating-quantifier error."""
        for sa in sam_antecedents(sent, self.morph, shared_in_pp=True):
            if sa.in_pp_only and not _animate(sa):
                continue
            yield from self._sam_edits(sent, sa)

    def targets(self, sa):
        a = sa.agr
        options = dict(case_targets(a))
        order = self.CASE_ORDER.get(a.case or "", self.OTHER_ORDER)
        if a.case == "Nom" and a.number == "Sing" and a.gender == "Neut":
            order = self.NEUTER_NOM_ORDER  # RuBLiMP: само → самому (6 of 6 dev pairs)
        elif a.case == "Nom" and a.number == "Plur" and _inanimate(sa):
            order = self.INANIMATE_PLURAL_NOM_ORDER  # RuBLiMP: «сами границы» → «самими» (6 of 7)
        # «нам самим играть» → «нам сами играть» is colloquial Russian: a dative pronoun's «сам» is not made
        # nominative (a shared form becomes «самый», which does not float: «ему самый сказали»)
        no_nom = a.case == "Dat" and sa.antecedent.upos == "PRON" and norm(sa.sam.form) not in SHARED_FORMS
        for c in order:
            if c in options and not (no_nom and c == "Nom"):
                yield a.case, c, options[c]

    def _new_form(self, sa: SamAntecedent, source: str, agr: Agr) -> str | None:
        """As for the other features; but a form shared with «самый» (самого, самой, самому, самом)
        made nominative becomes that of «самый», as in RuBLiMP (самого → самый, самой → самая:
        43 of its 200 dev pairs): «возле самого КПП» → «возле самый КПП». The form must still agree
        with no reading of the antecedent («самое» with a nominative neuter noun is not made)."""
        if agr.case != "Nom" or norm(sa.sam.form) not in SHARED_FORMS:
            return super()._new_form(sa, source, agr)
        for p in self.morph.readings(sa.sam.form, SAMYJ, ADJ_POS):
            a = agr_from_tag(p.tag)
            if a.case != source or a.number != sa.agr.number or (a.number == "Sing" and sa.agr.gender not in a.genders):
                continue
            word = inflect_agreeing(self.morph, p, "Nom", agr.number or "", agr.gender, agr.animacy)
            if word is None or self.morph.is_ambiguous(word, SAMYJ, ADJ_POS, {"Case": source}):
                return None
            readings = adjective_readings(self.morph, word, SAMYJ)
            ante = {ud_agr(sa.antecedent)} if sa.guessed else \
                noun_readings(self.morph, sa.antecedent.form, sa.antecedent_analysis.lemma)
            if any(agrees(r, x) for r in readings for x in ante):
                return None
            return word  # («самый» does not float: the clause's other arguments cannot host it)
        return None


def _inanimate(sa: SamAntecedent) -> bool:
    """Whether the antecedent of «сам» is an inanimate noun (pronouns count as animate)."""
    if sa.antecedent.upos not in ("NOUN", "PROPN") or sa.antecedent_analysis.tag.POS != "NOUN":
        return False
    return "inan" in sa.antecedent_analysis.tag.grammemes


def _animate(sa: SamAntecedent) -> bool:
    """Whether the antecedent of «сам» denotes a person or animal (parser or dictionary)."""
    return sa.antecedent.feats.get("Animacy") == "Anim" or "anim" in sa.antecedent_analysis.tag.grammemes
