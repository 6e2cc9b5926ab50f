"""SUBJECT-PREDICATE AGREEMENT, the nominal, genitive and clausal subject paradigms (RuBLiMP Appendix B.2.2).

RuBLiMP changes the number, gender or person of the word that agrees with the subject and never the
subject. Nine paradigms, by subject kind (the machinery they share is
:class:`~rublimp.paradigms.agreement.SubjectPredicateAgreement`):

* ``noun_subj_predicate_agreement_*``: a nominative noun phrase or pronoun; the predicate moves away
  from the subject's value (number: plural → singular in the subject's own gender; person: 3→1,
  1→2, 2→1, :data:`PERSON_TARGET`; gender: see :class:`NounSubjGender`).
* ``genitive_subj_predicate_agreement_*``: a genitive subject of negation with default 3sg.N
  agreement (for number also a quantified phrase in the genitive of negation).
* ``clause_subj_predicate_agreement_*``: a clausal subject with default 3sg.N agreement; gender goes
  to the masculine, person to the 1st or 2nd.
"""

from __future__ import annotations

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import get_morph
from ..trees.edges import AgreementEdge
from ..trees.lexical import KTO_PRONOUNS, QUANT_WORDS, WH_WORDS, is_known
from ..trees.subject_contexts import genitive_of_negation, indefinite_personal_risk, unknown_name_as_nominative
from .agreement import GENDERS, SubjectPredicateAgreement, comitative_beside, number_ok
from .base import register

__all__ = [
    "FLOATING_QUANTIFIERS",
    "PERSON_TARGET",
    "NounSubjNumber",
    "NounSubjGender",
    "NounSubjPerson",
    "GenitiveSubjNumber",
    "GenitiveSubjGender",
    "GenitiveSubjPerson",
    "ClauseSubjNumber",
    "ClauseSubjGender",
    "ClauseSubjPerson",
]


def _genitive_quantifier(sent: Sentence, subj: Token) -> bool:
    """Whether the quantifier of a quantified subject (the numeral itself, or its nummod/quantity-word dependent) is genitive only.

    «трёх рублей», «двух», «пяти минут», «ста лянов»: no reading of the
    quantifier is a nominative. «три рубля», «много», «несколько», «сколько»
    have one and are left out (plural agreement is possible with them).
    """
    if subj.upos == "NUM" or normalize(subj.lemma) in QUANT_WORDS:
        quants = [subj]
    else:
        quants = [
            k for k in sent.children(subj)
            if k.base_deprel == "nummod" or (k.deprel in ("det", "advmod", "amod") and normalize(k.lemma) in QUANT_WORDS)
        ]
    if len(quants) != 1 or not is_known(quants[0].form.lower()):
        return False
    parses = get_morph().parses(quants[0].form)
    return any("gent" in p.tag.grammemes for p in parses) and not any("nomn" in p.tag.grammemes for p in parses)


def _relative_kto(sent: Sentence, edge: AgreementEdge) -> bool:
    """«кто» where plural agreement is heard too: a relative clause («те, кто пришёл / пришли») or a multiple question.

    A relative clause: the predicate is attached as ``acl``, or a form of
    «тот»/«весь» stands just before «кто» (commas aside). A multiple
    question: another question word among the predicate's dependents («кто
    какие книги брал / брали»).
    """
    lemma = normalize(edge.subject.lemma)
    if lemma not in KTO_PRONOUNS:
        return False
    if edge.predicate.base_deprel == "acl":
        return True
    if lemma == "кто" and any(
        normalize(t.lemma) in WH_WORDS for k in sent.children(edge.predicate) for t in [k, *sent.children(k)] if t.id != edge.subject.id
    ):
        # «помнила, кто что покупает / покупают»: with a second question word plural is heard too
        return True
    before = [t for t in sent.tokens[: edge.subject.id - 1] if t.upos != "PUNCT"][-2:]
    return any(normalize(t.lemma) in ("тот", "весь", "все", "те") for t in before)


def _other(values: tuple[str, ...], value: str) -> list[str]:
    return [v for v in values if v != value]


# -- nominal subjects ---------------------------------------------------------------
#: plural pronouns that float off a dropped 1st/2nd person subject («(мы) все знаем», «(вы) оба правы»)
FLOATING_QUANTIFIERS = frozenset({"весь", "все", "оба", "обе", "сам", "сами"})


#: RuBLiMP's person alternation (its most frequent choice for each person)
PERSON_TARGET = {"3": "1", "1": "2", "2": "1"}


@register
class NounSubjNumber(SubjectPredicateAgreement):
    """«Дети пришли домой.» → «Дети пришёл домой.»

    No plural edit where the plural verb makes an indefinite-personal clause with the subject as
    its object («Поезд перевозят» = "they transport the train"; see
    :func:`~rublimp.trees.subject_contexts.indefinite_personal_risk`).
    """

    word_order_subjects = True

    name = "noun_subj_predicate_agreement_number"
    feature = "Number"

    def targets(self, sent, edge):
        if not self._nominal_ok(sent, edge) or not number_ok(sent, edge.subject):
            return
        if _relative_kto(sent, edge):
            return
        src = edge.predicate_value("Number")
        if src == "Sing":
            if indefinite_personal_risk(sent, edge):
                return  # «Поезд перевозят»: "they transport the train", no agreement error
            if comitative_beside(sent, edge):
                return  # «Ты небось с Нинкой говорили»: the comitative plural
            yield "Plur", None
        else:
            yield "Sing", self._singular_gender(edge.subject)


@register
class NounSubjGender(SubjectPredicateAgreement):
    """«Книга лежала на столе.» → «Книга лежал на столе.»

    Subjects whose gender is their referent's (names, unknown words, «я»,
    «ты», job and common-gender nouns, «кто») are perturbed too, but only to
    the neuter, and only from a masculine or feminine predicate: «Акан
    сообщил» → «Акан сообщило». RuBLiMP also swaps masculine and feminine with
    them («Станко услышал» → «Станко услышала», «я отказался» → «я
    отказалась»); such pairs are grammatical for a referent of the other sex,
    so they are not made here. RuBLiMP's choice of the new gender is no
    function of the old value (with subjects of fixed gender mostly the other
    of masculine/feminine, with referent-gender subjects mostly the neuter), so
    both other genders are made for subjects of fixed gender, and the neuter
    alone for the others.

    The three noun-subject paradigms also read the careful subset of the
    attractor paradigms' word-order repairs
    (:func:`~rublimp.trees.subjects.noun_subject_edges`).
    """

    name = "noun_subj_predicate_agreement_gender"
    word_order_subjects = True
    feature = "Gender"

    def targets(self, sent, edge):
        if self._nominal_ok(sent, edge) and self._gender_fixed(sent, edge.subject):
            for g in _other(GENDERS, edge.predicate_value("Gender")):
                yield g, None
        elif (
            edge.predicate_value("Gender") in ("Masc", "Fem")
            and self._referent_gender(sent, edge.subject)
            and self._nominal_ok(sent, unknown_name_as_nominative(sent, edge), referent=True)
        ):
            yield "Neut", None


@register
class NounSubjPerson(SubjectPredicateAgreement):
    """«Мы живём в городе.» → «Мы живу в городе.»

    RuBLiMP's alternation: 3rd → 1st, 1st → 2nd, 2nd → 1st person (:data:`PERSON_TARGET`).
    A coordinated subject is used too when the predicate is in the 3rd person
    («Приём, выезд и заезд проводится» → «… провожусь»): no conjunct is then
    a 1st- or 2nd-person pronoun, and the number is left as it is.
    """

    name = "noun_subj_predicate_agreement_person"
    word_order_subjects = True
    feature = "Person"
    coordination_ok = True

    def targets(self, sent, edge):
        if not self._nominal_ok(sent, edge):
            return
        if normalize(edge.subject.lemma) in FLOATING_QUANTIFIERS and edge.subject.feats.get("Number") == "Plur":
            return  # «все знают» → «все знаем» is grammatical: «(мы) все знаем»
        if edge.coordinated and edge.predicate_value("Person") != "3":
            return
        target = PERSON_TARGET.get(edge.predicate_value("Person") or "")
        if target is not None:
            yield target, None


# -- genitive subjects ----------------------------------------------------------------
class _GenitiveSubj(SubjectPredicateAgreement):
    """A genitive of negation as the subject (RuBLiMP: every one of its pairs has «не»).

    The genitive must depend on the negation of its predicate
    (:func:`~rublimp.trees.subject_contexts.genitive_of_negation`): not a quantified phrase
    («пять студентов пришло», «больше ста человек», «до пяти лет»: the numeral governs the
    genitive, negated or not), not a nominative that only looks like a genitive, not the object of
    an infinitive beside the predicate («не следует сообщать подробностей»).
    """

    default_contexts = True

    def _genitive_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        return genitive_of_negation(sent, edge) and self._default_ok(sent, edge)


@register
class GenitiveSubjNumber(_GenitiveSubj):
    """«Детей в школе не было.» → «Детей в школе не были.»

    Also a quantified phrase in the genitive of negation whose quantifier has no nominative
    reading («трёх рублей не было», «двух не хватает»): plural agreement is then no option.
    """

    name = "genitive_subj_predicate_agreement_number"
    feature = "Number"

    def _genitive_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        if edge.subject_kind == "quantified":
            return edge.negated and _genitive_quantifier(sent, edge.subject) and self._default_ok(sent, edge)
        return super()._genitive_ok(sent, edge)

    def targets(self, sent, edge):
        if self._genitive_ok(sent, edge) and not self._nominative_reading(sent, edge.subject, "Plur"):
            yield "Plur", None


@register
class GenitiveSubjGender(_GenitiveSubj):
    """«Детей в школе не было.» → «Детей в школе не была.»

    Both masculine and feminine are made, as in RuBLiMP (mostly masculine).
    """

    name = "genitive_subj_predicate_agreement_gender"
    feature = "Gender"

    def targets(self, sent, edge):
        if self._genitive_ok(sent, edge):
            for g in ("Masc", "Fem"):
                if not self._nominative_reading(sent, edge.subject, g):
                    yield g, None


@register
class GenitiveSubjPerson(_GenitiveSubj):
    """«Денег у нас не остаётся.» → «Денег у нас не остаюсь.»

    3rd → 1st and 2nd person: RuBLiMP's definition («to first or second
    person», mostly the 1st). Both are kept because the demo corpus has few present-tense genitive subjects.
    A nominative subject that pymorphy3 also reads as a genitive («Мартина не останется») is not
    taken: RuBLiMP has such pairs, but the clause then has an overt nominative subject.
    """

    name = "genitive_subj_predicate_agreement_person"
    feature = "Person"

    def targets(self, sent, edge):
        # «Денег не хватаешь / хватаю»: a dropped "you"/"I" grabbing money, not an agreement error; the
        # 1st person stays where the genitive is nothing one grabs, an abstract noun («Времени не
        # хватаю»), not a thing, a person or a pronoun («людей не хватаю», «его не хватаю»)
        if not self._genitive_ok(sent, edge):
            return
        grab = _grab_reading(sent, edge)
        # the perfective «хватить» ("hit", "drink") hardly means "grab": any inanimate noun («книги не хвачу»)
        perfective = normalize(edge.agreeing.lemma) == "хватить"
        ungrabbable = _abstract_noun(edge.subject) or (perfective and _inanimate_noun(edge.subject))
        if not grab or (ungrabbable and not _grab_source(sent, edge)):
            yield "1", None
        if not grab:
            yield "2", None


#: prepositions of what one grabs from or by («звёзд с неба не хватаю», «за руку хватаю»)
_GRAB_PREPOSITIONS = frozenset({"с", "со", "за", "из", "изо"})


def _grab_source(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the verb or its genitive has a PP of :data:`_GRAB_PREPOSITIONS` ("grab from/by")."""
    return any(
        normalize(c.form) in _GRAB_PREPOSITIONS
        for k in (*sent.children(edge.agreeing), *sent.children(edge.subject))
        for c in sent.children(k) if c.base_deprel == "case"
    )


#: abstract nouns that name nothing one could grab («времени не хватает», «сил не хватит»)
_ABSTRACT_LEMMAS = frozenset({
    "время", "сила", "энергия", "терпение", "внимание", "опыт", "смелость", "мужество", "ум", "разум",
    "память", "здоровье", "воздух", "место", "простор", "свобода", "дыхание", "решимость", "сноровка",
    "фантазия", "вдохновение", "мотивация", "дух", "отвага", "воля",
})
#: endings of abstract nouns of action and quality («голосования», «подготовки» is not one)
_ABSTRACT_ENDINGS = ("ость", "ние", "ение", "ание", "ство", "ция", "изм", "тие")


def _inanimate_noun(tok: Token) -> bool:
    """A common noun tagged inanimate, known to pymorphy3 with inanimate noun readings only (not
    «людей», not a pronoun or a name)."""
    if tok.upos != "NOUN" or tok.feats.get("Animacy") != "Inan" or not is_known(tok.form.lower()):
        return False
    nouns = [p for p in get_morph().parses(tok.form) if p.tag.POS == "NOUN"]
    return bool(nouns) and not any("anim" in p.tag.grammemes for p in nouns)


def _abstract_noun(tok: Token) -> bool:
    """An :func:`_inanimate_noun` naming nothing one could grab: a lemma of :data:`_ABSTRACT_LEMMAS` or one
    ending as :data:`_ABSTRACT_ENDINGS` («времени», «сил», «голосования»; not «денег», «людей», «его»)."""
    if not _inanimate_noun(tok):
        return False
    lemma = normalize(tok.lemma)
    return lemma in _ABSTRACT_LEMMAS or lemma.endswith(_ABSTRACT_ENDINGS)


#: verbs of sufficiency whose 1st/2nd person is also a transitive verb of grabbing («хватаю»,
#: «хвачу»): «Денег не хватаешь / хватаю» reads "you/I don't grab money" with a dropped subject
_GRAB_HOMONYMS = frozenset({"хватать", "хватить"})


def _grab_reading(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether a 2nd-person form (a 1st-person one too, with a genitive that is no abstract noun:
    :func:`_abstract_noun`) of the predicate reads as «хватать» "grab" with the genitive as
    its object and a dropped "I"/"you" as the subject («звёзд с неба не хватаю»): the verb is one of
    :data:`_GRAB_HOMONYMS` and has no bare dative experiencer («Мне денег не хватаешь» has no such
    reading: "grab" takes no dative), on the verb or, misattached, before the genitive and on it."""
    if normalize(edge.agreeing.lemma) not in _GRAB_HOMONYMS:
        return False
    # the experiencer hangs on the verb, or the parser hung it on the genitive («Нам же подготовки не
    # хватает» with «Нам» a ``det`` of «подготовки»)
    kids = [*sent.children(edge.agreeing), *(k for k in sent.children(edge.subject) if k.id < edge.subject.id)]
    return not any(
        k.feats.get("Case") == "Dat" and k.upos in ("PRON", "NOUN", "PROPN")
        and not any(c.base_deprel == "case" for c in sent.children(k))
        for k in kids
    )


# -- clausal subjects -------------------------------------------------------------------
class _ClauseSubj(SubjectPredicateAgreement):
    default_contexts = True

    def _clause_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        return edge.subject_kind == "clausal" and self._default_ok(sent, edge)


@register
class ClauseSubjNumber(_ClauseSubj):
    """«Нам пришлось уйти рано.» → «Нам пришлись уйти рано.»"""

    name = "clause_subj_predicate_agreement_number"
    feature = "Number"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "Plur", None


@register
class ClauseSubjGender(_ClauseSubj):
    """«Необходимо сделать замену.» → «Необходим сделать замену.»

    Neuter → masculine only, as RuBLiMP (almost always masculine).
    """

    name = "clause_subj_predicate_agreement_gender"
    feature = "Gender"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "Masc", None


@register
class ClauseSubjPerson(_ClauseSubj):
    """«Остаётся только ждать.» → «Остаюсь только ждать.»

    3rd → 1st and 2nd person: RuBLiMP's definition («to first or second
    person»; almost always the 1st).
    """

    name = "clause_subj_predicate_agreement_person"
    feature = "Person"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "1", None
            yield "2", None
