"""ANAPHOR AGREEMENT: the two RuBLiMP paradigms (Appendix B.2.3).

The relative pronoun «который» agrees with its antecedent — the noun that the
relative clause (``acl:relcl``) modifies — in number and, in the singular, in
gender; its case comes from its role inside the relative clause. The pronoun
is re-inflected for one feature, keeping its case:

* ``anaphor_agreement_number``: «растения, которые можно найти» → «растения, которое можно найти»;
* ``anaphor_agreement_gender``: «Техника, которую он изобрёл» → «Техника, который он изобрёл».

The antecedent is the head of the ``acl:relcl`` above the pronoun; when the
parser attached the clause otherwise (``conj``, ``ccomp``, ``parataxis`` — a
frequent error), the noun right before the comma that opens the relative
phrase («…, в котором», «…, курс которого») is taken instead.

Only pronouns that are *not* the subject of their clause are edited (a
nominative «который» also agrees with the verb, so changing it would break
two agreement relations at once; for gender even a subject whose verb shows no gender is
left out, as RuBLiMP's rule says); the number paradigm may edit the antecedent of a subject
«который» instead. Safeguards: pronoun and antecedent agree
in the parser's features and in pymorphy3's analyses; the antecedent is a
single (not coordinated) noun or demonstrative «тот» that precedes the
pronoun; a pronoun that looks like a misparsed subject (it can be nominative
and the clause verb agrees with it and has no other subject) is skipped; the
new form has no reading with the original number (and gender), and no other
noun between the antecedent and the pronoun, nor inside the antecedent's
phrase, has the new number/gender (the relative clause could then be read as
attached to it: «книга друзей, которую» → «которых»). No gender change with
common-gender antecedents (врач, коллега, Саша) or indeclinable ones, unless the antecedent is the
only subject of a past verb or short form in its own gender («Тренер, которого ждали, приехал»).

Parser repairs, each decided where the tree and pymorphy3 leave no doubt: an object «который»
labelled subject or nominative (:func:`_object_misread_as_subject`, :func:`_postverbal_subject`), an
antecedent whose number or gender the parser misread (:func:`_agreeing_antecedent`), a
masculine/neuter form that takes the antecedent's gender (:func:`_syncretic_gender`). The number
paradigm makes one edit per relative clause by RuBLiMP's rule (:meth:`AnaphorAgreementNumber.perturb`);
an antecedent noun with an agreeing modifier is never changed (it enters two agreement relations).
The pronoun is re-inflected in the case :func:`~rublimp.trees.nominal.settled_case` finds: a form
whose case the preposition or relation leaves open («с которой» after a thing: gen. or ins.) is
not changed. No gender change on a person's noun in apposition with a name («персонаж Мэри, который»).
A new pronoun form must fit no other earlier antecedent either — a noun whose phrase reaches the
relative clause, a coordination, a group noun (:func:`~rublimp.trees.relative_hosts.earlier_host`)
— and the antecedent noun keeps its number when it is a copular predicate or an unlabelled subject
(:func:`~rublimp.trees.relative_hosts.number_controls_outside`).
Design history and dev-split figures: ``docs/phenomena/anaphor_agreement.md``.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from ..morph import Analysis, Morph
from ..trees.nominal import (
    COMMON_GENDER_FILE,
    DOMINANT_CASE,
    GENDER_ORDER,
    GENDERS,
    adjective_readings,
    agr_from_tag,
    case_settled,
    has_common_gender,
    head_number_blocked,
    inflect_agreeing,
    load_common_gender_nouns,
    norm,
    noun_readings,
    renumber_noun,
    settled_case,
    spell_yo,
)
from ..trees.relative_hosts import (
    clause_plural_host,
    earlier_host,
    group_noun,
    number_controls_outside,
    plural_coordination,
    possible_subject,
)
from ..trees.roles import preposition_of, read_case_table, tag_case
from .base import Edit, Paradigm, Perturbation, register

__all__ = ["RelativeClause", "relative_clauses", "AnaphorAgreementNumber", "AnaphorAgreementGender"]

PHENOMENON = "anaphor_agreement"
RELATIVE_LEMMA = "который"
SUBJECT_RELS = frozenset({"nsubj", "csubj"})
#: possessive determiners that do not inflect (his, her, their): no agreement to keep
INVARIABLE_POSSESSIVES = frozenset({"его", "ее", "её", "их"})
#: the preposition → governed cases table under ``resources/``
PREPOSITIONS_FILE = "prepositions.tsv"
# how far up from the pronoun the relative clause head may be («книга, конец которой мы знаем»)
MAX_CLIMB = 4
# words that can host a relative clause: nouns, pronouns and substantivised
# determiners/numerals/adjectives («каждому из специалистов, анкеты которого …»)
_HOSTS = frozenset({"NOUN", "PROPN", "PRON", "DET", "NUM", "ADJ"})


@dataclass(frozen=True)
class RelativeClause:
    """A «который» pronoun, the head of its relative clause and the antecedent it agrees with."""

    pronoun: Token
    clause: Token  # the acl:relcl head (surface fallback: the predicate the relative phrase depends on)
    antecedent: Token
    pronoun_analysis: Analysis
    antecedent_analysis: Analysis
    number: str
    gender: str | None  # singular antecedents only
    animacy: str | None
    #: «который» is the clause's subject (only the antecedent noun may then be changed)
    subject: bool = False
    #: the nominals the antecedent is coordinated with (gender paradigm only)
    conjuncts: tuple[Token, ...] = ()


def _relative_clause_head(sent: Sentence, pron: Token) -> Token | None:
    """The first ``acl:relcl``/``acl`` node on the way up from the pronoun (at most MAX_CLIMB steps)."""
    node = pron
    for _ in range(MAX_CLIMB):
        if node.head == 0:
            return None
        if node is not pron and node.base_deprel == "acl":
            return node
        node = sent.head_of(node)
    return node if node.base_deprel == "acl" and node is not pron else None


def _phrase_start(sent: Sentence, pron: Token) -> int:
    """Id of the first word of the relative phrase: «который», «в котором», «курс которого», «в составе которой»."""
    ids = {pron.id} | {k.id for k in sent.children(pron) if k.base_deprel == "case"}
    head = sent.head_of(pron)
    if pron.base_deprel == "nmod" and head is not None and pron.id - 3 <= head.id < pron.id:
        ids |= {head.id} | {k.id for k in sent.children(head) if k.base_deprel in ("case", "amod", "det") and k.id < head.id}
    start = min(ids)
    # the phrase must be contiguous
    return start if all(i in ids for i in range(start, pron.id + 1)) else pron.id


def _tree_antecedent(sent: Sentence, pron: Token) -> tuple[Token, Token] | None:
    """(relative clause head, antecedent) when the parser attached the clause as ``acl:relcl``."""
    clause = _relative_clause_head(sent, pron)
    if clause is None or clause.head == 0:
        return None
    return clause, sent.head_of(clause)


def _comma_antecedent(sent: Sentence, pron: Token) -> tuple[Token, Token] | None:
    """(clause predicate, antecedent) read off the surface: «<noun>, <relative phrase> …».

    The parser often attaches a relative clause as ``conj``, ``ccomp`` or
    ``parataxis``; a relative phrase right after a comma that follows a noun
    still identifies the antecedent (checked for agreement like any other).
    """
    start = _phrase_start(sent, pron)
    if start < 3 or sent.token(start - 1).form != ",":
        return None
    ante = sent.token(start - 2)
    head = sent.head_of(pron)
    clause = head if pron.base_deprel != "nmod" or head is None else sent.head_of(head)
    if any(k.base_deprel in ("cop", "nsubj") for k in sent.children(pron)):
        # the pronoun heads a copular clause itself («лодки, в которой был наш тренер»: the
        # parser hangs «был» and «тренер» on «которой» and «которой» on some earlier word)
        clause = pron
    if clause is not None and clause.id < start:
        # the parser hung the relative phrase on a word before it («поняла замечание, которое Зенчер
        # пробормотал» with «которое» on «поняла»): the clause is the first verb after the phrase,
        # when no comma or other punctuation comes first, and only for a noun before the comma that
        # agrees with the pronoun itself (not through a noun it depends on: «искра длиной в несколько
        # километров, которую»)
        clause = None
        if not _agrees_with_pronoun(ante, pron):
            return None
        for t in sent.tokens[pron.id:]:
            if t.upos == "PUNCT":
                break
            if t.upos in ("VERB", "AUX"):
                clause = t
                break
    if clause is None or clause.id < start:
        return None
    return clause, ante


def _looks_like_subject(sent: Sentence, pron: Token, clause: Token, morph: Morph) -> bool:
    """A «который» that may be the clause's subject although the parser says otherwise.

    True when the form can be nominative, it depends on the clause head,
    the clause has no other subject and the clause predicate agrees with it
    in number («растения, которые растут» with «которые» misparsed as obj).
    """
    if pron.head != clause.id or any(k.base_deprel == "case" for k in sent.children(pron)):
        return False  # («на который надеялся»: a pronoun after a preposition is no subject)
    if not any(p.tag.case == "nomn" for p in morph.readings(pron.form, RELATIVE_LEMMA)):
        return False
    if any(k.base_deprel in SUBJECT_RELS and k.id != pron.id for k in sent.children(clause)):
        return False
    verbs = [clause] + [k for k in sent.children(clause) if k.base_deprel in ("aux", "cop")]
    verbs = [v for v in verbs if "Number" in v.feats]
    if any(v.feats.get("Gender") and pron.feats.get("Gender") and v.feats["Number"] == "Sing"
           and v.feats["Gender"] != pron.feats["Gender"] for v in verbs):
        # a past singular predicate of another gender cannot agree with it
        # («впечатление, которое произвёл кроверн»: not the subject)
        return False
    return any(v.feats.get("Number") == pron.feats.get("Number") for v in verbs)


def _object_misread_as_subject(sent: Sentence, pron: Token, morph: Morph) -> Token | None:
    """The parser's repair for an object «который» read as the subject (or as nominative), or None.

    «список, который составил Древнир»: «который» is the object when its form
    can be accusative and one of these holds —

    * the clause has another subject candidate: a noun or pronoun after the pronoun that cannot
      be accusative (so it is the nominative subject) and agrees with the
      predicate in number (and gender in the past singular);
    * the parser itself made it the object (``obj``, only its case says
      nominative) and the clause — or, for an infinitive, the verb it
      depends on («кастет, который противник готовился выхватить») — has
      another subject;
    * the finite predicate cannot agree with it: another number («посёлок,
      который сожгли»), or a past singular of another gender («название,
      которое получил вуз»).

    Returned as a copy of ``pron`` with ``Case=Acc`` and relation ``obj``.
    """
    if pron.feats.get("Case") not in (None, "Nom", "Acc", "Gen"):
        return None
    clause = sent.head_of(pron)
    if clause is None or clause.upos not in ("VERB", "AUX"):
        return None
    readings = morph.readings(pron.form, RELATIVE_LEMMA)
    case = pron.feats.get("Case")
    if pron.base_deprel in SUBJECT_RELS and case in ("Acc", "Gen") and readings \
            and not any(p.tag.case == "nomn" for p in readings):
        # labelled subject, but the form cannot be nominative («которого … проходили»): the parser's own case stands
        return dataclasses.replace(pron, deprel="obj")
    if not any(p.tag.case == "accs" for p in readings):
        return None
    feats = dict(pron.feats)
    feats["Case"] = "Acc"
    if any(k.base_deprel == "case" for k in sent.children(pron)):
        # «совета, на который надеялся»: a pronoun after a preposition is no subject; of its
        # nominative and accusative readings only the accusative takes a preposition
        return dataclasses.replace(pron, feats=feats, deprel="obl")
    repaired = dataclasses.replace(pron, feats=feats, deprel="obj")
    # the two structural repairs trust the clause only where the parser built a relative clause
    # around the pronoun (its predicate is an ``acl`` of a preceding noun)
    antecedent = sent.head_of(clause) if clause.base_deprel == "acl" else None
    if antecedent is not None and antecedent.id < pron.id:
        if pron.base_deprel == "obj" and _has_other_subject(sent, pron, clause):
            return repaired
        if _predicate_disagrees(sent, pron, clause):
            return repaired
    if pron.base_deprel not in SUBJECT_RELS:
        return None
    if antecedent is not None and antecedent.id < pron.id and _postverbal_subject(sent, pron, clause, morph):
        return repaired
    inanimate_object = antecedent is not None and antecedent.feats.get("Animacy") != "Anim" \
        and any(p.tag.case == "accs" and "inan" in p.tag.grammemes for p in readings)
    for k in sent.children(clause):
        if k.id <= pron.id or k.upos not in ("NOUN", "PROPN", "PRON") or k.feats.get("Case") != "Nom":
            # (a nominal before the relative phrase is outside its clause: «Мальчишки, которые
            # смеялись» with the antecedent hung on «смеялись» as a second subject)
            continue
        if any(c.base_deprel == "case" for c in sent.children(k)):
            continue
        if any(p.tag.case == "accs" for p in morph.parses(k.form) if p.tag.POS in ("NOUN", "NPRO")) \
                and not (inanimate_object and k.base_deprel in SUBJECT_RELS and k.feats.get("Animacy") == "Anim") \
                and k.id < clause.id:
            # a form that can be accusative may be the object — unless the parser made both words
            # subjects and only it is animate: an animate agent and an inanimate «который»
            # («багор, который Хахана придерживал»), or it follows the verb: a nominative after
            # the verb that agrees with it is the subject of the inverted order of relative clauses
            # («настрой, который показал весь стадион»). Either way the accusative new form
            # («которую показал») is an error: for the object, of agreement; for a subject, of case.
            continue
        if clause.feats.get("Number") and k.feats.get("Number") and clause.feats.get("Number") != k.feats.get("Number"):
            continue
        if clause.feats.get("Gender") and k.feats.get("Gender") and clause.feats["Gender"] != k.feats["Gender"]:
            continue
        return repaired
    return None


def _postverbal_subject(sent: Sentence, pron: Token, clause: Token, morph: Morph) -> bool:
    """Whether a nominal after the finite predicate of the relative clause can be its subject.

    The inverted order «осмотра, который учинил ему Граис»: a nominal after the verb that the
    parser made a subject too, or an animate noun, name or pronoun after it (any relation, no
    preposition), with a nominative reading that agrees with the verb in number (and gender in
    the past singular) makes «который» the object. (An inanimate object after the verb is the
    ordinary order of a subject relative — «пожар, который уничтожил центр» — and is left alone.) (If it still were the subject, the new
    accusative form — «которую показал» — would be wrong in case: the pair stays an error.)
    """
    if clause.feats.get("VerbForm") != "Fin" or clause.feats.get("Person") in ("1", "2"):
        return False
    number, gender = clause.feats.get("Number"), clause.feats.get("Gender")
    if number is None:
        return False
    for k in sent.children(clause):
        if k.id < clause.id or k.upos not in ("NOUN", "PROPN", "PRON") or k.base_deprel not in ("nsubj", "obj", "iobj", "obl"):
            continue
        if any(c.base_deprel == "case" for c in sent.children(k)):
            continue
        if k.base_deprel != "nsubj" and k.upos != "PROPN" and k.feats.get("Animacy") != "Anim":
            continue  # an inanimate object after the verb is the usual order («пожар, который уничтожил центр»)
        for p in morph.parses(k.form):
            if p.tag.POS not in ("NOUN", "NPRO") or p.tag.case != "nomn":
                continue
            if k.base_deprel != "nsubj" and "inan" in p.tag.grammemes:
                continue
            a = agr_from_tag(p.tag)
            if a.number == number and (number != "Sing" or gender is None or not a.genders or gender in a.genders):
                return True
    return False


def _has_other_subject(sent: Sentence, pron: Token, clause: Token) -> bool:
    """Whether the clause (or the verb an infinitive clause depends on) has a subject other than ``pron``."""
    verbs = [clause]
    if clause.feats.get("VerbForm") == "Inf" and clause.base_deprel in ("xcomp", "csubj", "ccomp", "acl"):
        head = sent.head_of(clause)
        if head is not None and head.upos in ("VERB", "AUX"):
            verbs.append(head)
        prev = sent.token(clause.id - 1) if clause.id > 1 else None
        if prev is not None and prev.upos == "VERB" and prev.feats.get("VerbForm") == "Fin" \
                and prev.head == clause.head and prev.base_deprel == clause.base_deprel == "acl":
            # the parser split «готовился выхватить» into two clauses on the antecedent: the finite
            # verb right before the infinitive is the one it depends on
            verbs.append(prev)
    return any(k.base_deprel in SUBJECT_RELS and k.id != pron.id for v in verbs for k in sent.children(v))


def _predicate_disagrees(sent: Sentence, pron: Token, clause: Token) -> bool:
    """Whether the finite predicate of ``clause`` cannot agree with ``pron`` (so ``pron`` is not its subject)."""
    verbs = [clause] + [k for k in sent.children(clause) if k.base_deprel in ("aux", "cop")]
    for v in verbs:
        if v.feats.get("VerbForm") != "Fin" or "Number" not in v.feats or "Number" not in pron.feats:
            continue
        if v.feats.get("Person") in ("1", "2"):
            return True  # «который» is third person
        if v.feats["Number"] != pron.feats["Number"]:
            return True
        if v.feats["Number"] == "Sing" and v.feats.get("Gender") and pron.feats.get("Gender") \
                and v.feats["Gender"] != pron.feats["Gender"]:
            return True
    return False


# relations that stay inside a noun phrase (a predicate noun's subject, copula,
# obliques and adverbials are the clause's, not the phrase's)
_NP_RELS = frozenset({"nmod", "amod", "det", "appos", "nummod", "flat", "case", "fixed", "compound"})


def _noun_phrase(sent: Sentence, head: Token) -> list[Token]:
    """``head`` and the words below it through noun-phrase relations only.

    When the antecedent is the predicate of its clause («Это была борьба, к
    которой …») its tree also holds the clause's subject, which cannot host
    the relative clause.
    """
    out, todo = [], [head]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(k for k in sent.children(node) if k.base_deprel in _NP_RELS)
    return out


def _syncretic_gender(pron: Token, ante: Token, morph: Morph) -> Token:
    """Parser repair: «котором», «которому», «которым», «которого» are masculine AND neuter; when
    the parser chose the other one of the two than the antecedent's, the pronoun takes the
    antecedent's («голосования[Neut], в котором[Masc]»). Otherwise ``pron`` as it is."""
    g, ag = pron.feats.get("Gender"), ante.feats.get("Gender")
    if pron.feats.get("Number") != "Sing" or g == ag or {g, ag} != {"Masc", "Neut"}:
        return pron
    case = pron.feats.get("Case")
    if any(a.case == case and a.number == "Sing" and ag in a.genders
           for a in adjective_readings(morph, pron.form, RELATIVE_LEMMA)):
        return dataclasses.replace(pron, feats={**pron.feats, "Gender": ag})
    return pron


def _syncretic_number(sent: Sentence, pron: Token, ante: Token, morph: Morph) -> Token:
    """Parser repair: a form of «который» that is also a form in the antecedent's number
    («которым»: masc./neut. sg. instrumental AND pl. dative) takes that reading when the parser
    gave it the other number and its one case in the antecedent's number is unique
    («департаменты, которым[Sing,Ins] они интересны» → pl. dative), and no preposition governs it.
    Otherwise ``pron`` as it is."""
    number, p_number = ante.feats.get("Number"), pron.feats.get("Number")
    if number is None or p_number is None or number == p_number:
        return pron
    if sent.children(pron, "case"):
        return pron  # the preposition settles the case, and a form it does not take is a broken source («о которым»)
    gender = ante.feats.get("Gender")
    fits = [a for a in adjective_readings(morph, pron.form, RELATIVE_LEMMA) if a.number == number
            and (number == "Plur" or gender in a.genders)]
    cases = {a.case for a in fits}
    if len(cases) != 1:
        return pron
    feats = {**pron.feats, "Number": number, "Case": next(iter(cases))}
    feats.pop("Gender", None)
    if number == "Sing":
        feats["Gender"] = gender
    return dataclasses.replace(pron, feats=feats)


def _agrees_with_pronoun(t: Token, pron: Token, morph: Morph | None = None) -> bool:
    """The parser's features of ``t`` agree with «который»; with ``morph``, a common noun with no
    dictionary reading in that number (and singular gender) does not, whatever the parser says
    («для единорогов[Sing], который»: only plural)."""
    if t.feats.get("Number") != pron.feats.get("Number"):
        return False
    if pron.feats.get("Number") == "Sing" and t.feats.get("Gender") != pron.feats.get("Gender"):
        return False
    agrs = [agr_from_tag(p.tag) for p in morph.parses(t.form) if p.tag.POS == "NOUN"] if morph and t.upos == "NOUN" else []
    return not agrs or any(a.number == pron.feats["Number"] and (a.number != "Sing" or pron.feats.get("Gender") in a.genders)
                           for a in agrs)


def _stray_modifier_before(sent: Sentence, noun: Token, morph: Morph) -> bool:
    """Whether a word within three before ``noun`` (no punctuation or nominal between) has a pymorphy3
    adjective or participle reading (not an invariable «его/её/их») in its case, number (and singular
    gender): its modifier, whatever the parser made of it («малознакомого[VERB] мне игрока»; not
    «доверившись[ADJ] человеку», a converb), so the noun's number is not changed alone."""
    feats = noun.feats
    cases = {feats.get("Case")} | ({"Gen", "Acc"} if feats.get("Case") in ("Gen", "Acc") else set())
    number = (feats.get("Number") or "").lower()[:4]
    gender = {"Masc": "masc", "Fem": "femn", "Neut": "neut"}.get(feats.get("Gender") or "")
    for i in range(noun.id - 1, max(0, noun.id - 4), -1):
        t = sent.token(i)
        if t.upos in ("PUNCT", "NOUN", "PROPN"):
            return False
        for p in morph.parses(t.form):
            if p.tag.POS in ("ADJF", "PRTF") and "Fixd" not in p.tag and p.tag.number == number and tag_case(p.tag) in cases \
                    and (number != "sing" or p.tag.gender in (None, gender)):
                return True
    return False


def _agreeing_antecedent(sent: Sentence, ante: Token, pron: Token, morph: Morph) -> Token:
    """The parser's antecedent, or — when it disagrees with «который» in number or gender — a repair:

    * the noun it depends on as a genitive, when that one agrees («ствол дерева, который»: ствол);
    * the noun right before the comma that opens the relative phrase, when it is a genitive
      dependent of the parser's antecedent and agrees («персонажи сериала, который»: сериала), or
      when the parser's antecedent comes after the pronoun;
    * the parser's antecedent itself with the dictionary's features, when the parser misread
      its number or gender and one of its readings agrees («Могилы, в которой …»: gen. sing.;
      after a preposition only a reading in the parser's case).
    """
    if _agrees_with_pronoun(ante, pron, morph):
        return ante
    head = sent.head_of(ante)
    if ante.base_deprel == "nmod" and ante.feats.get("Case") == "Gen" and head is not None \
            and head.upos in ("NOUN", "PROPN") and head.id < ante.id and _agrees_with_pronoun(head, pron):
        return head
    start = _phrase_start(sent, pron)
    if start >= 3 and sent.token(start - 1).form == ",":
        near = sent.token(start - 2)
        if near.id != ante.id and near.upos in ("NOUN", "PROPN") and (
                ante.id > pron.id or (near.base_deprel == "nmod" and near.head == ante.id
                                      and near.feats.get("Case") == "Gen")) and _agrees_with_pronoun(near, pron):
            # (a parser's "antecedent" after the pronoun is none: «часть головы, в которой находится
            # центр» with the clause hung on «центр»; the agreeing noun before the comma is)
            return near
    if ante.upos != "NOUN" or pron.feats.get("Number") is None:
        return ante
    want_number, want_gender = pron.feats["Number"], pron.feats.get("Gender")
    prepositional = any(k.base_deprel == "case" for k in sent.children(ante))
    fits = []
    for p in morph.parses(ante.form):
        if p.tag.POS != "NOUN":
            continue
        agr = agr_from_tag(p.tag)
        if agr.number != want_number or (want_number == "Sing" and want_gender not in agr.genders):
            continue
        if prepositional and agr.case != ante.feats.get("Case"):
            continue  # a preposition fixes the case («о любви, которые»: not the plural «любви»)
        fits.append(agr)
    if not fits:
        return ante
    agr = next((a for a in fits if a.case == ante.feats.get("Case")), fits[0])
    feats = dict(ante.feats)
    feats["Number"] = want_number
    if want_number == "Sing":
        feats["Gender"] = want_gender
    if agr.case:
        feats["Case"] = agr.case
    return dataclasses.replace(ante, feats=feats)


def _conjuncts(sent: Sentence, ante: Token, pron: Token) -> list[Token]:
    """The nominals ``ante`` is coordinated with (empty when it is not coordinated).

    A ``conj`` whose head is a verb or a clause («Говорили по-чадорийски, но на
    жаргоне, которого …») is a parser attachment, not a coordination of nouns;
    nor is a short adjective («ясно», a predicate) or a conjunct after the
    relative pronoun (the clause stands between them: «княжича, которого … Смерть»).
    """
    def nominal(t: Token) -> bool:
        return t.upos in ("NOUN", "PROPN", "PRON", "DET", "NUM", "ADJ") and t.feats.get("Variant") != "Short"

    out = []
    if ante.base_deprel == "conj":
        head = sent.head_of(ante)
        if head is not None and nominal(head):
            out.append(head)
            out += [k for k in sent.children(head) if k.base_deprel == "conj" and k.id != ante.id
                    and nominal(k) and k.id < pron.id]
    out += [k for k in sent.children(ante) if k.base_deprel == "conj" and nominal(k) and k.id < pron.id]
    return out


def relative_clauses(sent: Sentence, morph: Morph, *, subjects: bool = False, coordinated: bool = False,
                     plural_conjuncts: bool = False) -> Iterator[RelativeClause]:
    """Every non-subject «который» of ``sent`` that agrees with a single nominal antecedent
    (with ``subjects``, also a subject «который», marked ``subject=True``; with ``coordinated``,
    also a singular one whose antecedent is a conjunct, its conjuncts kept in ``conjuncts``; with
    ``plural_conjuncts``, also a plural one on a coordination of plain plural nouns, :func:`plural_coordination`)."""
    for pron in sent.tokens:
        if pron.upos not in ("PRON", "DET", "ADJ") or not norm(pron.form).startswith("котор"):
            continue
        is_subject = repaired = False
        if pron.base_deprel in SUBJECT_RELS or pron.feats.get("Case") == "Nom":
            fixed = _object_misread_as_subject(sent, pron, morph)
            if fixed is not None:
                pron, repaired = fixed, True
            elif subjects and pron.feats.get("Case") == "Nom":
                is_subject = True
            elif subjects and pron.base_deprel in SUBJECT_RELS and pron.feats.get("Case") in ("Acc", "Gen") \
                    and any(p.tag.case == "nomn" and p.tag.number == (pron.feats.get("Number") or "").lower()[:4]
                            for p in morph.readings(pron.form, RELATIVE_LEMMA)):
                # a subject the parser gave an accusative case («впечатления, которое[nsubj:pass,
                # Acc] будет предложено»): the form can be nominative, the relation says subject
                pron = dataclasses.replace(pron, feats={**pron.feats, "Case": "Nom"})
                is_subject = True
            else:
                continue
        if pron.feats.get("Case") is None:
            continue
        pa = morph.analyse(pron.form, pron.upos, pron.feats)
        if pa is None or norm(pa.lemma) != RELATIVE_LEMMA:
            continue
        found = _tree_antecedent(sent, pron) or _comma_antecedent(sent, pron)
        if found is None:
            continue
        clause, ante = found
        synced = _syncretic_gender(pron, ante, morph)
        if synced is not pron:
            pron = synced
            pa = morph.analyse(pron.form, pron.upos, pron.feats) or pa
        ante = _agreeing_antecedent(sent, ante, pron, morph)
        renumbered = _syncretic_number(sent, pron, ante, morph)
        if renumbered is not pron:
            pron = renumbered
            pa = morph.analyse(pron.form, pron.upos, pron.feats) or pa
        if ante.id >= pron.id:
            continue
        if not (ante.upos in ("NOUN", "PROPN") or (ante.upos in ("DET", "PRON") and norm(ante.lemma) == "тот")
                or (ante.upos == "ADJ" and ante.base_deprel not in ("amod", "det", "conj"))):
            # (a substantivised adjective heads its own phrase: «оставался первым, которого …»)
            continue
        conjuncts = _conjuncts(sent, ante, pron)
        if conjuncts and not (coordinated and pron.feats.get("Number") == "Sing") and not (
                plural_conjuncts and pron.feats.get("Number") == "Plur" and plural_coordination([ante, *conjuncts], morph)):
            # «мыс, пролив и остров, которые он открыл»: the clause may belong to the whole
            # coordination, or to a noun of another conjunct («очки в оправе и журнал, который»);
            # a singular pronoun belongs to one conjunct, and the new form must fit none of the
            # others (checked as other hosts)
            continue
        aa = morph.analyse(ante.form, ante.upos, ante.feats)
        if aa is None or aa.tag.POS not in ("NOUN", "ADJF", "NPRO") or {"Fixd", "Abbr", "Init"} & aa.tag.grammemes:
            continue
        number = ante.feats.get("Number")
        if number is None or pron.feats.get("Number") != number:
            continue
        p_agr, a_agr = agr_from_tag(pa.tag), agr_from_tag(aa.tag)
        if p_agr.number != number or a_agr.number != number or p_agr.case != pron.feats.get("Case"):
            continue
        gender = None
        if number == "Sing":
            gender = ante.feats.get("Gender")
            if a_agr.gender is not None and a_agr.gender != gender and "ms-f" not in aa.tag.grammemes:
                gender = a_agr.gender  # the dictionary's gender over the parser's («жилищем»: neuter)
            if gender is None or pron.feats.get("Gender") != gender:
                continue
            if gender not in p_agr.genders or (a_agr.genders and gender not in a_agr.genders):
                continue
        elif "Pltm" not in aa.tag.grammemes:
            gender = a_agr.gender or ante.feats.get("Gender")
        if not is_subject and not repaired and _looks_like_subject(sent, pron, clause, morph):
            # (a repaired object stays one: the repair found the clause's subject elsewhere)
            if not subjects:
                continue
            is_subject = True
        animacy = a_agr.animacy or ante.feats.get("Animacy")
        yield RelativeClause(pron, clause, ante, pa, aa, number, gender, animacy, is_subject, tuple(conjuncts))


class _AnaphorAgreement(Paradigm):
    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv", PREPOSITIONS_FILE)

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        self.common_gender = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)

    @functools.cached_property
    def prepositions(self) -> dict[str, frozenset[str]]:
        """Preposition → the UD cases it governs (``resources/prepositions.tsv``)."""
        return read_case_table(self.ctx.resources_dir / PREPOSITIONS_FILE, "preposition", "cases")

    @staticmethod
    def _dominant(rc: RelativeClause) -> dict[str, str]:
        """The prepositions whose usual case the parser's case is trusted for (see
        :data:`~rublimp.trees.nominal.DOMINANT_CASE`): «с» + instrumental only with an animate
        antecedent («та, с которой он жил»); with a thing «с которой» is as often 'from which'
        («гора, с которой мы спускались»), and the parser does not tell them apart."""
        if rc.animacy == "Anim" or rc.antecedent.upos in ("PRON", "DET"):
            return DOMINANT_CASE  # (a bare «та, с которой» is a person)
        return {p: c for p, c in DOMINANT_CASE.items() if p not in ("с", "со")}

    @staticmethod
    def _preposition(sent: Sentence, tok: Token) -> str | None:
        """The preposition of ``tok`` (or of the noun «который» is the genitive of: «в составе
        которой» has none of its own), as :func:`~rublimp.trees.roles.preposition_of` spells it."""
        found = preposition_of(sent, tok)
        return found[1] if found else None

    def targets(self, rc: RelativeClause) -> Iterator[tuple[str, str, str, str | None]]:
        """(source value, target value, target number, target gender) for one relative clause."""
        raise NotImplementedError

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for rc in relative_clauses(sent, self.morph):
            yield from self._pronoun_edits(sent, rc)

    def _pronoun_edits(self, sent: Sentence, rc: RelativeClause) -> Iterator[Perturbation]:
        """«который» re-inflected for each target of :meth:`targets`."""
        seen: set[str] = set()
        for i, (source, target, number, gender) in enumerate(self.targets(rc)):
            if (seen or (i and rc.conjuncts)) and self.feature == "Gender":
                break  # gender: RuBLiMP's one deterministic edit (with conjuncts, only its first choice)
            word = self._new_form(sent, rc, number, gender)
            if word is None or word in seen:
                continue
            seen.add(word)
            if "ё" not in sent.text.lower():
                word = word.replace("ё", "е")
            yield Perturbation(
                edits=(Edit(rc.pronoun.id, word),),
                feature=self.feature,
                source_value=source,
                target_value=target,
                subtype=rc.pronoun.base_deprel,
            )

    def _new_form(self, sent: Sentence, rc: RelativeClause, number: str, gender: str | None) -> str | None:
        # (an accusative reading of the other animacy is no reading here: «в которых» with an
        # inanimate antecedent is locative, not the animate accusative)
        form_cases = {a.case for a in adjective_readings(self.morph, rc.pronoun.form, RELATIVE_LEMMA)
                      if a.number == rc.number
                      and not (a.case == "Acc" and a.animacy and rc.animacy and a.animacy != rc.animacy)}
        case = settled_case(sent, rc.pronoun, rc.pronoun.feats["Case"], form_cases,
                            self._preposition(sent, rc.pronoun), self.prepositions, self._dominant(rc))
        if case is None:
            return None  # «с которой» (gen. or ins.): the new form could change the case as well
        if rc.conjuncts and case != rc.pronoun.feats["Case"]:
            return None  # (in a coordination the conjuncts' animacy may differ: no case change)
        word = inflect_agreeing(self.morph, rc.pronoun_analysis.parse, case, number, gender, rc.animacy)
        if word is None or norm(word) == norm(rc.pronoun.form):
            return None
        # no reading of the new form may keep the original value: a number change must
        # leave no reading of the original number («которой» → «которым», also m.sg.ins),
        # a gender change none of the original gender (in any case)
        forbidden = {"Number": rc.number}
        if self.feature == "Gender" and rc.gender:
            forbidden["Gender"] = rc.gender
        if self.morph.is_ambiguous(word, RELATIVE_LEMMA, None, forbidden):
            return None
        readings = {(a.number, g) for a in adjective_readings(self.morph, word, RELATIVE_LEMMA) for g in a.genders or {None}}
        if number == "Plur" and group_noun(rc.antecedent):
            return None  # «пара, которые»: the members of the group may be meant
        common = self._common_gender_nouns(sent)
        if self._other_host(sent, rc, readings, common):
            return None
        if earlier_host(sent, _phrase_start(sent, rc.pronoun), rc.antecedent, readings, self.morph, common):
            return None  # «X и Y, которые», «пара, которые», «соли алкалоидов, …, которые»: another antecedent fits
        possessive = rc.pronoun.base_deprel == "nmod" and rc.pronoun.feats.get("Case") == "Gen"
        if number == "Plur" and clause_plural_host(sent, _phrase_start(sent, rc.pronoun), rc.antecedent, self.morph,
                                                   possessive=possessive):
            return None  # a plural noun phrase, coordination or a couple of persons earlier in the clause
        return word

    def _common_gender_nouns(self, sent: Sentence) -> set[int]:
        """Ids of the nouns of ``sent`` whose gender is the referent's («председатель», «врач»)."""
        out = set()
        for t in sent.tokens:
            if t.upos in ("NOUN", "PROPN"):
                a = self.morph.analyse(t.form, t.upos, t.feats)
                if has_common_gender(self.morph, t, a, self.common_gender):
                    out.add(t.id)
        return out

    @staticmethod
    def _other_host(sent: Sentence, rc: RelativeClause, readings: set[tuple[str | None, str | None]],
                    any_gender: set[int] = frozenset()) -> bool:
        """Whether another nominal could host the relative clause with a reading of the new form.

        Candidates: the nouns inside the antecedent's phrase, the nouns between
        it and the pronoun, and the nouns the antecedent depends on through a
        genitive chain («цветение сирени, коллекция которого»). A noun in
        ``any_gender`` (common gender: «председатель товарищества, которой …»
        may refer to a woman chair) hosts a singular of any gender.
        """
        start = _phrase_start(sent, rc.pronoun)
        hosts = [t for t in _noun_phrase(sent, rc.antecedent) if t.id < start] + list(rc.conjuncts)
        # (with conjuncts, every nominal before the relative phrase: the parser's attachments
        # inside a coordination are unreliable — «снеговик с морковкой, …, с метлой, который»)
        # (a plural coordination of plural nouns: every nominal from its first conjunct on)
        first = (min(c.id for c in rc.conjuncts) - 1 if rc.number == "Plur" else 0) if rc.conjuncts else rc.antecedent.id
        hosts += [sent.token(i) for i in range(first + 1, start) if i != rc.antecedent.id]
        node = rc.antecedent
        if rc.conjuncts and node.base_deprel == "conj" and node.head != 0:
            node = sent.head_of(node)  # the coordination's nouns hang off the first conjunct's head
        while node.base_deprel == "nmod" and node.head != 0:
            head = sent.head_of(node)
            if head.id > node.id:
                break  # a genitive follows its head: a later "head" is a parser attachment
            node = head
            hosts.append(node)
        for t in hosts:
            if t.id == rc.antecedent.id or t.upos not in _HOSTS or t.base_deprel == "fixed":
                continue  # (a word of a multiword preposition hosts nothing: «во главе солдат, которым»)
            if t.head == rc.antecedent.id and t.base_deprel in ("amod", "det", "nummod") \
                    and t.upos not in ("NOUN", "PROPN", "PRON"):
                continue  # the antecedent's own modifier agrees with it, it hosts nothing (a noun
                # labelled amod — «воззрения[amod] апологетов» — is the parser's error and may host)
            number, gender = t.feats.get("Number"), t.feats.get("Gender")
            for r_number, r_gender in readings:
                if r_number != number:
                    continue
                if number == "Plur" or r_gender is None or gender in (None, r_gender) or t.id in any_gender:
                    return True
        return False


@register
class AnaphorAgreementNumber(_AnaphorAgreement):
    """«Есть несколько растений, которые можно найти только здесь.» → «…, которое можно найти только здесь.»"""

    name = "anaphor_agreement_number"
    feature = "Number"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """One edit per relative clause, the pronoun or the antecedent noun, by RuBLiMP's rule.

        RuBLiMP edits the pronoun where its new form has a single case reading (которой →
        которыми, которые → которую, которых → котором, которым → которому/которыми) and the
        antecedent noun otherwise (который → которые is nominative or accusative: «майки, которые»
        → «майку, которые»), and always the noun when «который» is the subject of its clause
        («модига, который убил» → «модиг, который убил»: it also agrees with its verb). This
        rule predicts 148 of its 161 dev pairs that our parses give a relative clause for.
        When the preferred edit cannot be made safely, the other one is made instead.

        The noun is changed only when nothing else agrees with its number
        (:func:`~rublimp.trees.nominal.head_number_blocked`; another «который» clause on
        it may), it has no agreeing modifier (:meth:`_noun_edit`), and «который» has no reading in
        the new number.
        """
        for rc in relative_clauses(sent, self.morph, subjects=True, plural_conjuncts=True):
            pronoun = [] if rc.subject else list(self._pronoun_edits(sent, rc))
            noun = None if rc.conjuncts else self._noun_edit(sent, rc)  # (one conjunct's number: no error)
            if pronoun and (noun is None or self._pronoun_preferred(pronoun[0], rc)):
                yield pronoun[0]
            elif noun is not None:
                yield noun

    def _pronoun_preferred(self, pert: Perturbation, rc: RelativeClause) -> bool:
        """RuBLiMP's choice: the pronoun when its new form has one case only."""
        new = pert.edits[0].new_form or ""
        return len({a.case for a in adjective_readings(self.morph, new, RELATIVE_LEMMA)}) == 1

    def _noun_edit(self, sent: Sentence, rc: RelativeClause) -> Perturbation | None:
        """The antecedent noun put in the other number («решение, которое» → «решения, которое»), so
        that the only broken relation is the one with «который»; None when the noun has an agreeing
        modifier (RuBLiMP edits no word in two agreement relations), when the noun's case is not
        settled (:func:`~rublimp.trees.nominal.case_settled`), or when the unchanged pronoun
        would find another host among the nouns before it."""
        ante, aa = rc.antecedent, rc.antecedent_analysis
        if ante.upos != "NOUN" or aa.tag.POS != "NOUN" or not self.morph.word_is_known(ante.form):
            return None
        if head_number_blocked(sent, ante, relative_clause=rc.clause, other_relatives=True, morph=self.morph,
                               relative_host=True):
            return None
        if self._root_subject(sent, rc):
            return None
        if number_controls_outside(sent, ante, self.morph):
            return None  # «является квазаром», «требуется специалист[obj]»: a second relation would break
        if possible_subject(sent, ante, self.morph, skip=rc.clause):
            return None  # «Требуется[root] специалист, который»: the verb of its clause agrees with it
        if self._agreeing_modifier(sent, ante, rc) or _stray_modifier_before(sent, ante, self.morph):
            # RuBLiMP's rule (Appendix B.2.3): no edit of a word that enters several agreement
            # relations. A noun with an agreeing modifier agrees with it as well as with «который»:
            # changing the noun alone breaks the NP, changing both is a two-word edit a reader takes
            # for another pair. The pronoun is edited instead where it can be
            return None
        found = renumber_noun(self.morph, ante, aa, [])
        if found is None:
            return None
        target, word = found
        if target == "Sing" and group_noun(ante):
            return None  # «пары, которые» → «пара, которые» is still grammatical (its members)
        a = agr_from_tag(aa.tag)
        noun_cases = {r.case for r in noun_readings(self.morph, ante.form, aa.lemma, ("NOUN",)) if r.number == a.number}
        if not case_settled(sent, ante, a.case or "", noun_cases, self._preposition(sent, ante), self.prepositions,
                            self._dominant(rc)):
            return None  # «с женой» vs «с крыши»: a plural in the wrong case would be a second error
        gender = None
        if target == "Sing":
            gender = next(iter(agr_from_tag(p.tag).gender for p in self.morph.readings(word, aa.lemma, ("NOUN",))
                               if agr_from_tag(p.tag).gender), None)
        new_genders = {gender} if gender else set()
        pronoun_readings = adjective_readings(self.morph, rc.pronoun.form, RELATIVE_LEMMA)
        if any(r.number == target and (target == "Plur" or not r.genders or not new_genders or r.genders & new_genders)
               for r in pronoun_readings):
            return None  # «который» could agree with the new noun («князю, которым» → «князьям»: dat. pl.)
        current = {(r.number, g) for r in pronoun_readings for g in r.genders or {None}}
        common = self._common_gender_nouns(sent)
        if self._other_host(sent, rc, current, common) or \
                earlier_host(sent, _phrase_start(sent, rc.pronoun), ante, current, self.morph, common):
            # «Председатель клубов, которому …»: the unchanged pronoun finds another host and the
            # sentence is grammatical
            return None
        if rc.number == "Plur" and clause_plural_host(sent, _phrase_start(sent, rc.pronoun), ante, self.morph):
            return None  # the unchanged plural «которые» takes another plural of the clause
        return Perturbation(
            edits=(Edit(ante.id, spell_yo(sent, word)),),
            feature=self.feature,
            source_value=rc.number,
            target_value=target,
            subtype="antecedent",
        )

    @staticmethod
    def _agreeing_modifier(sent: Sentence, ante: Token, rc: RelativeClause) -> bool:
        """Whether the antecedent noun has a dependent that agrees with it: an adjective,
        determiner, numeral or participle (not the relative clause itself, not a short form read as
        a predicate, not a noun the parser labelled amod, not the invariable «его/её/их»)."""
        for kid in sent.children(ante):
            if kid.id == rc.clause.id or kid.feats.get("Variant") == "Short" or kid.upos in ("NOUN", "PROPN", "PRON"):
                continue
            if kid.base_deprel == "det" and norm(kid.form) in INVARIABLE_POSSESSIVES:
                continue
            if kid.base_deprel in ("amod", "det", "nummod") or (kid.base_deprel == "acl" and kid.feats.get("VerbForm") == "Part"):
                return True
        return False

    def _root_subject(self, sent: Sentence, rc: RelativeClause) -> bool:
        """Parser repair: a root antecedent that can be nominative, followed (after the relative
        clause) by a finite verb in its number, is that verb's subject the parser missed
        («Письма[root], которые бабушка хранила, пожелтели[acl]»): its number is not changed."""
        ante = rc.antecedent
        if ante.head != 0:
            return False
        number = "sing" if rc.number == "Sing" else "plur"
        if not any(p.tag.case == "nomn" and number in p.tag.grammemes
                   for p in self.morph.parses(ante.form) if p.tag.POS == "NOUN"):
            return False
        for t in sent.tokens[rc.pronoun.id:]:
            if t.id == rc.clause.id or t.head == rc.clause.id:
                continue
            if any(p.tag.POS == "VERB" and number in p.tag.grammemes and "1per" not in p.tag.grammemes
                   and "2per" not in p.tag.grammemes for p in self.morph.parses(t.form)):
                return True
        return False

    def targets(self, rc):
        if rc.number == "Sing":
            yield "Sing", "Plur", "Plur", None
        elif rc.gender is not None:
            yield "Plur", "Sing", "Sing", rc.gender


@register
class AnaphorAgreementGender(_AnaphorAgreement):
    """«Техника, которую он изобрёл, получила название.» → «Техника, который он изобрёл, получила название.»"""

    name = "anaphor_agreement_gender"
    feature = "Gender"
    _sent: Sentence | None = None  # the sentence being perturbed (its names may fix the referent's sex)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """Only a «который» that is not the subject of its clause, as RuBLiMP's rule says (round 3 of
        issue 18: a blind reader marks a subject relative ``not_paradigm`` even where its present-tense
        verb shows no gender, «мальчик, который читает» → «которая читает»; 4 dev pairs lost). An
        object the parser misread as the subject is repaired first (:func:`_object_misread_as_subject`)."""
        self._sent = sent
        for rc in relative_clauses(sent, self.morph, coordinated=True):
            yield from self._pronoun_edits(sent, rc)
        for rc in relative_clauses(sent, self.morph, subjects=True):
            if rc.subject:
                edit = self._demonstrative_edit(sent, rc)
                if edit is not None:
                    yield edit

    def _demonstrative_edit(self, sent: Sentence, rc: RelativeClause) -> Perturbation | None:
        """A subject «который» whose antecedent is the demonstrative «тот»: the demonstrative takes
        the other gender, as in RuBLiMP («А тот, который поёт, …» → «А та, который поёт, …»); the
        relative clause itself stays intact (its verb agrees with «который», so the pronoun is not
        edited). Not where the demonstrative agrees with anything else — an agreeing dependent, or a
        predicate showing gender (past singular verb, short form, adjective or participle, or their
        copula) whose subject it is — nor where the unchanged pronoun finds another host before it."""
        ante = rc.antecedent
        if norm(ante.lemma) != "тот" or ante.upos not in ("DET", "PRON") or rc.number != "Sing" or rc.gender is None:
            return None
        if any(k.id != rc.clause.id and k.base_deprel not in ("punct", "case", "cc", "advmod") for k in sent.children(ante)):
            return None
        head = sent.head_of(ante)
        if head is not None and ante.base_deprel in SUBJECT_RELS:
            predicate = [head] + [k for k in sent.children(head) if k.base_deprel in ("cop", "aux", "aux:pass")]
            if any(t.feats.get("Gender") and t.upos in ("VERB", "AUX", "ADJ", "DET", "PRON", "NUM") for t in predicate):
                return None  # «Тот, который пришёл, ушёл» → «Та …, ушёл» would break a second agreement
        case = ante.feats.get("Case")
        parse = rc.antecedent_analysis.parse
        current = {(r.number, g) for r in adjective_readings(self.morph, rc.pronoun.form, RELATIVE_LEMMA)
                   for g in r.genders or {None}}
        common = self._common_gender_nouns(sent)
        if case is None or self._other_host(sent, rc, current, common) or \
                earlier_host(sent, _phrase_start(sent, rc.pronoun), ante, current, self.morph, common):
            return None
        for gender in GENDER_ORDER.get(rc.gender, ()):
            word = inflect_agreeing(self.morph, parse, case, "Sing", gender, rc.animacy)
            if word is None or norm(word) == norm(ante.form):
                continue
            if self.morph.is_ambiguous(word, "тот", None, {"Gender": rc.gender}) or \
                    self.morph.is_ambiguous(word, "тот", None, {"Number": "Plur"}):
                continue  # («те» is plural too; a form of the old gender keeps the agreement)
            return Perturbation(
                edits=(Edit(ante.id, spell_yo(sent, word[0].upper() + word[1:] if ante.form[0].isupper() else word)),),
                feature=self.feature,
                source_value=rc.gender,
                target_value=gender,
                subtype="antecedent",
            )
        return None

    def targets(self, rc):
        if rc.number != "Sing" or rc.gender is None:
            return
        if has_common_gender(self.morph, rc.antecedent, rc.antecedent_analysis, self.common_gender) \
                and not self._predicate_settles(rc):
            return
        if self._sent is not None and _names_a_person(self._sent, rc.antecedent):
            return
        # RuBLiMP: который/которое → которую…, которой → которому (one deterministic edit)
        for g in GENDER_ORDER.get(rc.gender, GENDERS):
            if g != rc.gender:
                yield rc.gender, g, "Sing", g


    def _predicate_settles(self, rc: RelativeClause) -> bool:
        """Whether a common-gender antecedent («тренер», «врач») is the only subject of a singular past
        verb or short form in its own grammatical gender, which settles the referent's sex («нужен
        тренер, которого» → «которую»); a verb of the other gender settles nothing."""
        sent, ante = self._sent, rc.antecedent
        if sent is None or ante.base_deprel != "nsubj" or rc.gender is None:
            return False
        verb = sent.head_of(ante)
        if verb is None or [k.id for k in sent.children(verb) if k.base_deprel in ("nsubj", "csubj")] != [ante.id]:
            return False
        return verb.feats.get("Number") == "Sing" and verb.feats.get("Gender") == rc.gender and (
            verb.feats.get("Tense") == "Past" or verb.feats.get("Variant") == "Short")


def _names_a_person(sent: Sentence, noun: Token) -> bool:
    """Whether the animate noun ``noun`` stands in apposition with a proper name («героиня Анна»,
    «Анна, наш лидер, которая …», «персонаж Мэри»): a relative pronoun may then take the person's
    sex instead of the noun's gender («персонаж Мэри, которая …»), so a gender change can be
    acceptable. Only animate nouns; the name hangs on the noun (``appos``, ``flat``, ``nmod``
    without preposition) or the noun on the name (``appos``)."""
    if noun.feats.get("Animacy") != "Anim":
        return False
    linked = [k for k in sent.children(noun) if k.base_deprel in ("appos", "flat", "nmod")
              and not sent.children(k, "case")]
    head = sent.head_of(noun)
    if head is not None and noun.base_deprel == "appos":
        linked.append(head)
    return any(t.upos == "PROPN" and t.feats.get("Animacy", "Anim") == "Anim" for t in linked)
