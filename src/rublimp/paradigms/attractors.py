"""SUBJECT-PREDICATE AGREEMENT with an attractor: the two RuBLiMP attractor paradigms (Appendix B.2.2).

``subj_predicate_agreement_{number,gender}_attractor``: the predicate takes the value of a nominal
near it whose form has another value of the feature in every reading of its case («Мнение экспертов
совпадало» → «*Мнение экспертов совпадали»). Subjects come from the word-order policy of
:mod:`rublimp.trees.subjects` (:func:`~rublimp.trees.subjects.attractor_subject_edges`).

Where the attractor may stand is the option ``attractor_scope`` (``perturb.options``; the default,
``clause``, is :data:`OPTION_DEFAULTS`'s):

* ``subject``: Slioussar & Malko's attractor, a genitive or prepositional dependent of the subject
  (along ``nmod`` links only) placed before the agreeing word
  (:func:`~rublimp.trees.subject_contexts.attractor_in_subject`). Adjuncts, agents and objects of
  the verb, nouns of participial or relative clauses, conjuncts, apposed names (:func:`_apposed`),
  a name beside a noun for a person that may be that person's own (:func:`_name_beside_person`) and
  a PP the verb typically takes or governs
  (:func:`~rublimp.trees.subject_contexts.noun_attached_pp`) are not attractors; a genitive the
  parser labelled ``appos`` is one (:func:`~rublimp.trees.subject_contexts.genitive_labelled_appos`).
* ``clause`` (as RuBLiMP's released pairs: «Он даже ей не кивнул» → «кивнула»): the subject scope's
  attractors, and besides them a nominal of the predicate's own clause placed between subject and
  agreeing word in either order: an object or oblique of the predicate, a noun inside one, or a
  verb's adjunct the parser hung on the subject
  (:func:`~rublimp.trees.subject_contexts.attractor_in_clause`); not the subject, a conjunct or
  apposition of it, a noun of a subordinate clause, an adverbial noun («зимой», a bare accusative of
  time) or a word inside quotation marks.

In both scopes only a form every reading of which (in its case) has the target value attracts
(:func:`_number_in_case`, :func:`_gender_in_case`: a genitive singular that only looks plural,
«группы», does not). No pair is made with a numeral subject (:func:`_numeral_subject`), a personal
name as the subject of a gender pair other than with a neuter attractor (:func:`_personal_name`), or an adjectival predicate that a
conjunct or a set-off adjective or participle would leave half-edited (:func:`_half_edited`); a
past singular made by the number paradigm takes the attractor's gender. The pool schema has no
column for the attractor itself (a pair records the edited predicate only).
The fidelity cost of each scope is in ``docs/phenomena/subject_predicate_agreement.md``.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..lexicon import normalize
from ..morph import OC2UD, UD2OC, get_morph
from ..trees.edges import AgreementEdge
from ..trees.lexical import QUANT_WORDS, is_common_gender_tag, is_known, name_gender_of_form, one_gender, one_number
from ..trees.memo import sentence_memo, token_memo
from ..trees.readings import (
    after_nominal,
    after_preposition,
    agrees_as_nominative,
    has_grammeme,
    has_nominative,
    nominal_like,
)
from ..trees.subject_contexts import (
    attractor_in_clause,
    attractor_in_subject,
    clause_edge_reliable,
    clause_phrase_top,
    indefinite_personal_risk,
    genitive_labelled_appos,
    unknown_name_as_nominative,
)
from ..trees.subject_repairs import object_reading
from ..trees.subjects import attractor_subject_edges, misparsed_second_subject
from .agreement import SubjectPredicateAgreement, comitative_beside, number_ok
from .base import OPTION_DEFAULTS, register

__all__ = [
    "ATTRACTOR_PATH_RELS",
    "ATTRACTOR_SCOPES",
    "SCOPE_OPTION",
    "AttractorNumber",
    "AttractorGender",
]




#: the ``perturb.options`` key that sets where an attractor may stand, and its values
SCOPE_OPTION = "attractor_scope"
ATTRACTOR_SCOPES = ("clause", "subject")


# relations along which an attractor is searched inside the subject tree
ATTRACTOR_PATH_RELS = frozenset({"nmod", "obj", "obl", "iobj"})


#: pronominal determiners that stand for a noun («таких», «этих», «всех»); not the reflexive possessive
_SUBSTANTIVE_DET_EXCLUDED = frozenset({"свой"})


def _attractor_like(tok: Token, sent: Sentence | None = None) -> bool:
    """:func:`nominal_like`, or a pronominal determiner standing alone as an object, oblique or
    noun dependent («Я больше таких не имел», «Он этих не помнил»): tagged DET with an oblique case, in a
    relation only a nominal has (:data:`ATTRACTOR_PATH_RELS`), with no noun right after it that it
    could modify (checked where the sentence is given: the candidates), and read by pymorphy3 as a
    pronominal adjective (Apro)."""
    if nominal_like(tok):
        return True
    if tok.upos != "DET" or tok.feats.get("Case", "Nom") == "Nom" or tok.base_deprel not in ATTRACTOR_PATH_RELS:
        return False
    if normalize(tok.lemma) in _SUBSTANTIVE_DET_EXCLUDED:
        return False
    nxt = sent.tokens[tok.id] if sent is not None and tok.id < len(sent.tokens) else None
    if nxt is not None and nxt.upos in ("NOUN", "PROPN", "ADJ", "NUM"):
        return False  # «этих людей»: a modifier the parser misattached
    return any("Apro" in p.tag.grammemes for p in get_morph().parses(tok.form))


def _name_gender(tok: Token) -> str | None:
    """The sex a capitalised personal name fixes: every nominative singular noun reading pymorphy3
    has for the (known) form is a first name, surname or patronymic of one gender, declinable and
    not of common gender («Вадим», «Поленов», «Ивановна»; not «Саша», «Шевченко», nor «Роза»,
    also a common noun). None otherwise, and for words tagged other than PROPN."""
    if tok.upos != "PROPN" or not tok.form[:1].isupper():
        return None
    return name_gender_of_form(tok.form)


def _postnominal_genitive_gender(sent: Sentence, tok: Token) -> str | None:
    """The gender of ``tok`` read as a singular genitive right after a noun, without a preposition
    («племянница Гарста»): the one gender of its singular genitive noun readings (guesses
    included), or None when there is none or several, or when it also reads as a nominative
    (an apposition: «кошка Мурка»)."""
    if tok.upos not in ("NOUN", "PROPN", "ADJ") or not after_nominal(sent, tok) or after_preposition(sent, tok):
        return None
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS == "NOUN"]
    if any("nomn" in p.tag.grammemes for p in parses):
        return None  # «кошка Мурка»: as well an apposition in the nominative
    genders = {p.tag.gender for p in parses if {"gent", "sing"} <= set(p.tag.grammemes)}
    if len(genders) != 1:
        return None
    g = next(iter(genders))
    return OC2UD[g][1] if g in ("masc", "femn", "neut") else None


_CASE_VARIANTS = {"gent": ("gent", "gen2"), "loct": ("loct", "loc2"), "accs": ("accs", "acc2")}


def _attractor_case(sent: Sentence, tok: Token) -> str:
    """The UD case an attractor is read in: the tagged one, except that a dependent without a
    preposition tagged nominative or accusative (or untagged) inside a noun phrase is a genitive
    («мнение группы» with «группы» tagged as a nominative plural: a genitive singular); a verb's own
    object or oblique keeps its tagged case («конь ноги передвигал»: an accusative plural)."""
    case = tok.feats.get("Case", "")
    head = sent.token(tok.head) if tok.head else None
    verb_argument = tok.base_deprel in ("obj", "iobj", "obl") and head is not None and head.upos in ("VERB", "AUX")
    if case in ("", "Nom", "Acc") and not verb_argument and not any(k.base_deprel == "case" for k in sent.children(tok)):
        return "Gen"
    if genitive_labelled_appos(sent, tok):
        return "Gen"  # «Хогры Урнгура» with «Урнгура» tagged dative: a genitive only
    return case


def _readings_in_case(tok: Token, guesses: bool = False, case_ud: str | None = None) -> list:
    """pymorphy3's noun/pronoun readings of ``tok`` in ``case_ud`` (default: its tagged case; all
    readings when there is none or no reading has it); none for a word pymorphy3 does not know,
    unless ``guesses``. A pronoun pymorphy3 reads only as a substantive pronominal adjective
    («всех», «тех») has those readings."""
    if not guesses and not is_known(tok.form.lower()):
        return []
    lower = tok.form[:1].islower()
    parses = [
        p for p in get_morph().parses(tok.form)
        if (p.tag.POS in ("NOUN", "NPRO") or (tok.upos == "DET" and "Apro" in p.tag.grammemes))
        # a lower-case form is no personal name («за славой»: not the man's name «Слава»)
        and not (lower and {"Name", "Surn", "Patr"} & set(p.tag.grammemes))
    ]
    if not parses and tok.upos == "PRON":
        # a pronoun pymorphy3 has only as a substantive pronominal adjective («всех», «тех»)
        parses = [p for p in get_morph().parses(tok.form) if {"Apro", "Subx"} <= set(p.tag.grammemes)]
    case = UD2OC["Case"].get(case_ud if case_ud is not None else tok.feats.get("Case", ""))
    in_case = [p for p in parses if case is not None and set(_CASE_VARIANTS.get(case, (case,))) & set(p.tag.grammemes)]
    return in_case or parses


#: the 3rd-person pronouns whose oblique forms are masculine and neuter alike («его», «нему», «нём»)
_HE_IT_LEMMAS = frozenset({"он", "оно"})


def _he_or_it(tok: Token, case_ud: str | None = None) -> bool:
    """A singular 3rd-person pronoun whose readings in ``case_ud`` (default: its tagged case) are «он»
    and «оно» only, masculine and neuter («его», «него», «ему», «нём»): it attracts a masculine as
    readily as a neuter; its number is singular in any reading."""
    if tok.upos != "PRON" or normalize(tok.lemma) not in _HE_IT_LEMMAS:
        return False
    readings = _readings_in_case(tok, False, case_ud)
    return bool(readings) and {p.tag.gender for p in readings} == {"masc", "neut"} and all(
        p.tag.number == "sing" for p in readings
    )


#: words after «все» that make it part of an adverbial («всё равно», «всё же», «всё ещё», «всё-таки»)
_VSYO_ADVERBIALS = frozenset({"равно", "же", "ещё", "еще", "таки", "-таки", "время", "больше", "меньше"})


def _everything(sent: Sentence, tok: Token) -> bool:
    """«Всё» written «все»: a bare object of the verb that the tagger reads as a neuter singular, with no
    word after it that it modifies or makes an adverbial with («посол все понял»; not «все равно», «все
    книги»). A singular subject does not agree with the plural «все» (all of them), so the form
    stands for «всё», neuter."""
    if normalize(tok.form) not in ("все", "всё") or tok.base_deprel != "obj" or not _bare(sent, tok):
        return False
    if tok.feats.get("Number") != "Sing" or tok.feats.get("Gender", "Neut") != "Neut":
        return False
    nxt = sent.tokens[tok.id] if tok.id < len(sent.tokens) else None
    return nxt is None or (
        normalize(nxt.form) not in _VSYO_ADVERBIALS and nxt.upos not in ("NOUN", "PROPN", "ADJ", "DET", "NUM", "PRON")
    )


def _sure_nominative(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the subject is surely the nominative subject of its verb: tagged nominative, no form of a
    genitive singular («Линзы для него шлифовали», «помощи его научили»: a re-read genitive) and not
    readable as the object of an indefinite-personal verb (:func:`object_reading`, «[they] polished the
    lenses»)."""
    subj = edge.subject
    if subj.feats.get("Case") != "Nom" or object_reading(sent, edge):
        return False
    return not any(
        {"gent", "sing"} <= set(p.tag.grammemes) for p in get_morph().parses(subj.form) if p.tag.POS in ("NOUN", "NPRO")
    )


def _number_in_case(tok: Token, guesses: bool = False, case_ud: str | None = None) -> str | None:
    """The one number («sing»/«plur») of ``tok``'s readings in its tagged case, else None («группы»
    tagged genitive: singular only, though the form is also a nominative plural)."""
    numbers = {p.tag.number for p in _readings_in_case(tok, guesses, case_ud)}
    return next(iter(numbers)) if len(numbers) == 1 and None not in numbers else None


def _gender_in_case(tok: Token, guesses: bool = False, case_ud: str | None = None) -> str | None:
    """The UD gender of ``tok`` when its readings in the tagged case are all singular of one gender
    («двери» tagged genitive: feminine), else None."""
    readings = _readings_in_case(tok, guesses, case_ud)
    if _number_in_case(tok, guesses, case_ud) != "sing" or any(is_common_gender_tag(p.tag) for p in readings):
        return None
    genders = {p.tag.gender for p in readings}
    g = next(iter(genders)) if len(genders) == 1 else None
    return OC2UD[g][1] if g in ("masc", "femn", "neut") else None


def _possessor(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """A genitive right after an inanimate subject noun, without a preposition («Лицо Козлова»,
    «Морда Гоярына»), or right after the inanimate noun it depends on deeper in the subject phrase
    («Пустота глаз Зербагана», «Одна из аллей парка»): a possessor, not an apposition, even where
    the form also reads as a nominative; pymorphy3's guesses are taken for such a word it does not know."""
    subj = edge.subject
    if tok.feats.get("Case") != "Gen" or any(k.base_deprel == "case" for k in sent.children(tok)):
        return False
    head = subj if tok.id == subj.id + 1 else (sent.token(tok.head) if tok.head == tok.id - 1 else None)
    return head is not None and head.upos in ("NOUN", "PROPN") and head.feats.get("Animacy") == "Inan"


def _guessed(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """Whether pymorphy3's guesses may be read for ``tok``: a :func:`_possessor`, a word whose
    guessed readings make it a genitive of the noun before it and nothing else («Граждане
    Краснегара», «Хогры Урнгура»)."""
    return (
        _possessor(sent, edge, tok) or genitive_labelled_appos(sent, tok)
        or _postnominal_genitive_gender(sent, tok) is not None
    )


def _comitative_of_pronoun(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """A «с» + instrumental right after a plural personal pronoun subject, hung on it or on the predicate
    («Мы с айранитом обернулись»): the companion, a singular name or noun whose guessed readings may be read."""
    subj = edge.subject
    return (
        subj.upos == "PRON" and subj.feats.get("Number") == "Plur" and tok.id == subj.id + 2
        # hung on the pronoun, or on the verb by the parser («Мы с айранитом обернулись» with «айранитом» an ``obl``)
        and tok.head in (subj.id, edge.predicate.id, edge.agreeing.id)
        and tok.feats.get("Case") == "Ins"
        and any(c.base_deprel == "case" and normalize(c.form) in ("с", "со") and c.id == subj.id + 1 for c in sent.children(tok))
    )


def _apposed(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """A dependent without a preposition that reads as a nominative of the subject's own number:
    an apposed name or title rather than a genitive («певица Мария», «компания Сбербанк»; with an
    animate singular subject also a name that is a genitive too, «актриса Дина»), or a name pymorphy3
    only guesses; not a :func:`_possessor`."""
    if any(k.base_deprel == "case" for k in sent.children(tok)):
        return False
    if not is_known(tok.form.lower()):
        # «Племянница Гарста»: no guessed reading of the name is a nominative, so it is a genitive
        return tok.upos == "PROPN" and not _possessor(sent, edge, tok) and _postnominal_genitive_gender(sent, tok) is None
    number = UD2OC["Number"].get(edge.subject.feats.get("Number", "Sing"), "sing")
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    if not any({"nomn", number} <= set(p.tag.grammemes) for p in parses):
        return False
    genitive = any("gent" in p.tag.grammemes for p in parses)
    # a plural subject's genitive singular that looks like a nominative plural («Уговоры матери»), or
    # a possessor of an inanimate noun («Лицо Козлова»), stays
    return not (genitive and (number == "plur" or _possessor(sent, edge, tok)))


def _name_beside_person(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """A personal name after a noun denoting a person: right after a singular feminine one, any
    capitalised PROPN in -а/-я («жена Ивана» may name the wife), or a form that is also a name's
    nominative («жена актёра Александра»): the apposed name of that person as readily as a
    genitive of another's, so no attractor. The person noun is the word ``tok`` depends on, or the
    subject; animate by its tag. «Жители Малиновска», «сын Ивана» keep their genitive."""
    if not tok.form[:1].isupper() or any(k.base_deprel == "case" for k in sent.children(tok)):
        return False
    heads = [sent.token(tok.head)] if tok.head else []
    heads.append(edge.subject)
    persons = [h for h in heads if h.id < tok.id and h.upos in ("NOUN", "PROPN", "PRON") and h.feats.get("Animacy") == "Anim"]
    if not persons:
        return False
    if tok.upos == "PROPN" and normalize(tok.form).endswith(("а", "я")) and any(
        h.id == tok.id - 1 and h.feats.get("Gender") == "Fem" and h.feats.get("Number", "Sing") == "Sing" for h in persons
    ):
        # right after a noun for a woman, a name shaped like a woman's (in -а/-я) is her name as readily
        # as a genitive of a man's («его жена Ивана была родом …»: Ивана the wife, not Иван's)
        return True
    return any(
        {"Name", "Surn", "Patr"} & set(p.tag.grammemes) and {"nomn", "sing"} <= set(p.tag.grammemes)
        for p in get_morph().parses(tok.form)
    )


def _numeral_word(tok: Token) -> bool:
    """A cardinal numeral other than «один» (in words or digits) or a quantity word («много»)."""
    lemma = normalize(tok.lemma)
    if lemma in QUANT_WORDS or normalize(tok.form) in QUANT_WORDS:
        return True
    return (tok.upos == "NUM" or tok.form[:1].isdigit()) and lemma not in ("один", "1")


#: personal pronouns, which no numeral before them quantifies
_PERSONAL_PRONOUNS = frozenset({"я", "ты", "он", "она", "оно", "мы", "вы", "они"})
#: nouns that count like numerals before a genitive («пять тысяч человек», «сотни домов»)
_BIG_NUMBERS = frozenset({"тысяча", "миллион", "миллиард", "сотня", "десяток", "дюжина", "триллион"})
#: words between a numeral and its noun that keep the phrase a quantity phrase («более 20 человек»)
_QUANTITY_ADVERBS = frozenset({"более", "менее", "около", "свыше", "порядка", "почти", "примерно", "лишь", "всего"})


def _quantity_word(tok: Token) -> bool:
    """:func:`_numeral_word` or a big-number noun («тысяч», «сотни»)."""
    return _numeral_word(tok) or normalize(tok.lemma) in _BIG_NUMBERS


def _numeral_subject(sent: Sentence, subj: Token, gender: str | None = None) -> bool:
    """A numeral or quantity phrase as the subject («восемь домов», «много людей», «пять из них»):
    it takes singular neuter or plural agreement alike, so neither form is an attraction error.

    Besides the numeral the edge layer already marks (a ``quantified`` subject) this catches one the
    parser attached elsewhere: a numeral or quantity word right before the subject, with only its
    adjectives and determiners between («Восемь крупных заводов располагалось» with «Восемь» hung on
    the verb), or a numeral dependent of the subject. ``gender`` is the singular predicate's gender:
    a masculine or feminine one does not agree with a numeral phrase (those take the neuter or the
    plural), so a quantity word before the subject and not hung on it quantifies something else
    («больше Попов этого не слыхал»: "any more").
    """
    if _quantity_word(subj):
        return True  # «один из них» agrees like a noun
    if any(_quantity_word(k) and k.base_deprel not in ("case", "punct", "conj") for k in sent.children(subj)):
        return True  # «человек» with «тысяч» or «5» hung on it by any relation
    if subj.upos == "PRON" and subj.feats.get("PronType", "Prs") == "Prs" and normalize(subj.lemma) in _PERSONAL_PRONOUNS:
        return False  # «Сколько он книг прочитал?»: a word before a personal pronoun quantifies something else
    # the words right before the subject: its adjectives, other numerals and quantity adverbs
    # («Восемь крупных заводов», «более 20 человек», «5 тысяч жителей»)
    for t in reversed(sent.tokens[: subj.id - 1]):
        if _quantity_word(t):
            return gender not in ("Masc", "Fem") or t.head == subj.id
        if (t.upos in ("ADJ", "DET") and t.head == subj.id) or normalize(t.form) in _QUANTITY_ADVERBS:
            continue
        return False
    return False


def _personal_name(subj: Token) -> bool:
    """A capitalised animate proper noun or a form pymorphy3 reads as a first name, surname or
    patronymic: RuBLiMP does not change the gender of a predicate with a proper-noun subject."""
    if subj.upos != "PROPN" or not subj.form[:1].isupper():
        return False
    if subj.feats.get("Animacy") == "Anim" or _name_gender(subj) is not None:
        return True
    return any({"Name", "Surn", "Patr"} & set(p.tag.grammemes) for p in get_morph().parses(subj.form))


#: relations of a word that agrees like the adjectival predicate it hangs on («была пуста и темна»,
#: «открыто, освещённое солнцем»)
_AGREEING_KID_RELS = frozenset({"conj", "amod", "acl", "appos", "parataxis"})
#: dependents of an adjectival predicate that are its arguments, not words describing the subject
_ARGUMENT_RELS = frozenset({"nsubj", "csubj", "obj", "iobj", "ccomp", "case", "punct", "cop", "aux"})


def _half_edited(sent: Sentence, edge: AgreementEdge, feature: str) -> bool:
    """Whether an adjectival word of the predicate (the short form or the adjective agreeing with
    быть) has a conjunct or a describing adjective/participle of its own that shares its ``feature``
    value: editing the predicate alone would leave that word disagreeing."""
    words = [t for t in (edge.predicate, *edge.co_agreeing) if t.upos == "ADJ" or t.feats.get("VerbForm") == "Part"
             or t.feats.get("Variant") == "Short"]
    for word in words:
        value = word.feats.get(feature)
        # the word's own adjectival dependents, whatever the relation (a participle set off by a comma
        # is often ``advcl`` or ``obl``), and the subject's placed after it («Она была бледна,
        # измученная дорогой»): both read as describing the subject together with the predicate
        kids = [
            k for k in sent.children(word)
            if k.base_deprel in _AGREEING_KID_RELS or (
                # another relation (a participle set off by a comma: ``advcl``, ``dep`` …), but not a
                # nominal adjunct or a PP («в общем»)
                k.base_deprel not in _ARGUMENT_RELS and k.base_deprel not in ("obl", "nmod", "advmod")
                and not any(c.base_deprel == "case" for c in sent.children(k))
            )
        ]
        # (an attribute placed before a subject that follows the predicate describes nothing apart:
        # «Ему подарена друзьями новая книга»)
        kids += [
            k for k in sent.children(edge.subject)
            if k.id > word.id and k.id > edge.subject.id and k.base_deprel in _AGREEING_KID_RELS
        ]
        for kid in kids:
            if kid.id == edge.subject.id:
                continue
            if any(k.base_deprel in ("aux", "cop", "nsubj") for k in sent.children(kid)):
                continue  # a predicate of its own
            if (kid.upos == "ADJ" or kid.feats.get("VerbForm") == "Part") and value and kid.feats.get(feature) == value:
                return True
    return False


class _Attractor(SubjectPredicateAgreement):
    """Attractors of the scope ``perturb.options.attractor_scope`` (inside the subject noun phrase,
    and with ``clause`` also of the predicate's clause), nearest to the agreeing word first.

    Besides the shared edges these paradigms read the subjects that
    :func:`~rublimp.trees.subjects.span_subject_edges` recovers from word order
    and re-read subjects (:func:`~rublimp.trees.subjects.reread_subject`); with
    such a broken tree a genitive or prepositional phrase right after the subject that the
    parser did not attach to the verb counts as well. A
    pair whose bad sentence reads as grammatical with subject and object
    swapped is not made (:meth:`_object_reading`). Pronominal determiners standing alone inside
    the subject noun phrase are attractors («Никто из этих не пришёл»,
    :func:`_attractor_like`); a name pymorphy3 knows for one sex only takes
    masculine ↔ feminine attractors (:func:`_name_gender`). A possessor right after an inanimate
    subject noun attracts even when it also reads as a nominative («Лицо Козлова»,
    :func:`_possessor`).
    """

    options = (*SubjectPredicateAgreement.options, SCOPE_OPTION)
    #: indeclinable nouns («Марко») have a gender but read as either number
    indeclinable_ok: ClassVar[bool] = False

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        scope = self.ctx.options.get(SCOPE_OPTION, OPTION_DEFAULTS[SCOPE_OPTION])
        if scope not in ATTRACTOR_SCOPES:
            raise InputError(
                f"perturb.options.{SCOPE_OPTION}: {scope!r} is not one of {', '.join(ATTRACTOR_SCOPES)}"
            )
        #: ``clause``: attractors of the subject phrase and of the predicate's clause; ``subject``: of the
        #: subject phrase only
        self.scope: str = scope
    #: the attractor's features that the tagger and pymorphy3 must agree on (the number paradigm
    #: does not care about a mistagged gender of its attractor: «они … Мариной интересуются»)
    checked_feats: ClassVar[tuple[str, ...]] = ("Number", "Gender")

    def _attractor_ok(self, kid: Token) -> bool:
        key = ("agreement.attractor_ok", self.indeclinable_ok, self.checked_feats, id(self.morph))
        return token_memo(key, kid, lambda: self._attractor_ok_uncached(kid))

    def _attractor_ok_uncached(self, kid: Token) -> bool:
        """A noun or pronoun with its own number and gender: not a subject, not «себя», not indeclinable.

        Tagger and pymorphy3 must agree on :attr:`checked_feats`. A word
        tagged ADJ in a nominal-only relation counts as a noun
        (:func:`nominal_like`). An apposition in the nominative counts («мы, наша семья, знаем»); a
        word pymorphy3 does not know is taken with the parser's features.
        """
        if not _attractor_like(kid) or kid.base_deprel == "csubj" or "Case" not in kid.feats:
            return False
        # a nominative is another subject, not an attractor, unless pymorphy3 cannot read it as one
        # («Мариной» tagged nominative amod, «неделю» labelled nsubj)
        nominative = kid.feats["Case"] == "Nom" and (not is_known(kid.form.lower()) or has_nominative(kid))
        if kid.base_deprel == "nsubj" and nominative:
            return False
        if nominative and kid.deprel not in ("appos", "nmod", "obl", "obj"):
            return False
        if normalize(kid.lemma) in ("себя", "себе"):
            return False
        if not is_known(kid.form.lower()):
            return kid.upos != "PRON"
        a = self.morph.analyse(kid.form, "NOUN" if kid.upos == "ADJ" and nominal_like(kid) else kid.upos, kid.feats)
        if a is None or is_common_gender_tag(a.tag) or ("Fixd" in a.tag.grammemes and not self.indeclinable_ok):
            return False
        return not any(
            not has_grammeme(a.tag, UD2OC[f][kid.feats[f]])
            # a number the tagger got wrong on a form pymorphy3 reads with one number only («друидов»
            # tagged singular) does not matter where only the number is checked: the form attracts
            and not (self.checked_feats == ("Number",) and one_number(kid.form) is not None)
            # a form pymorphy3 reads as one singular gender only («Креза» tagged plural) is taken as it reads
            and one_gender(kid.form) is None
            for f in self.checked_feats
            if f in kid.feats and kid.feats[f] in UD2OC[f] and (f != "Gender" or kid.feats.get("Number") == "Sing")
        )

    def _candidates(self, sent: Sentence, edge: AgreementEdge, scope: str | None = None) -> dict[int, Token]:
        """The attractor candidates of :meth:`_candidates_uncached` for ``scope`` (default: this
        paradigm's).

        Memoised per sentence, scope and (subject, agreeing word): both paradigms ask for every edge twice.
        """
        scope = scope or self.scope
        # the subject's kind and case too: the gender paradigm re-reads an unknown name's case
        # (:func:`~rublimp.trees.subject_contexts.unknown_name_as_nominative`)
        key = (
            "attractor_candidates", scope, edge.subject.id, edge.agreeing.id, edge.predicate.id,
            edge.subject_kind, edge.subject.feats.get("Case"),
        )
        return sentence_memo(sent, key, lambda: _Attractor._candidates_uncached(sent, edge, scope))

    def attractor_scope_of(self, sent: Sentence, edge: AgreementEdge, tok: Token) -> str:
        """``subject`` for an attractor inside the subject noun phrase (both scopes find it), else ``clause``."""
        return "subject" if tok.id in self._candidates(sent, edge, "subject") else "clause"

    @staticmethod
    def _candidates_uncached(sent: Sentence, edge: AgreementEdge, scope: str) -> dict[int, Token]:
        """Nominal dependents inside the subject noun phrase (nmod links only), between the subject's head and the agreeing word;
        with the ``clause`` scope also the predicate's objects and obliques (and nouns inside them)
        between subject and agreeing word.

        Subject scope: a noun of a participial or relative clause, a conjunct, an apposition, or an
        adjunct, agent or object of the verb is no attractor
        (:func:`~rublimp.trees.subject_contexts.attractor_in_subject`). Clause scope adds
        :func:`~rublimp.trees.subject_contexts.attractor_in_clause`, where subject and agreeing word
        are surely of one clause (:func:`~rublimp.trees.subject_contexts.clause_edge_reliable`).
        A clausal subject has none.
        """
        if edge.subject_kind != "nominal":
            return {}
        # between the subject's head noun and the agreeing word: not a word of a modifier placed before the
        # subject («победоносное для немцев сражение началось»: «немцев» precedes «сражение»)
        lo, hi = sorted((edge.subject.id, edge.agreeing.id))
        found = {
            t.id: t for t in sent.tokens[lo: hi - 1]
            if attractor_in_subject(sent, edge, t) and _attractor_like(t, sent)
            and not _apposed(sent, edge, t) and not _name_beside_person(sent, edge, t)
        }
        if scope == "clause" and clause_edge_reliable(sent, edge):
            # a noun the parser hung on the subject (a verb's adjunct there) keeps the subject phrase's
            # checks against an apposed name or title
            found.update(
                (t.id, t) for t in sent.tokens
                if t.id not in found and attractor_in_clause(sent, edge, t) and _attractor_like(t, sent)
                and not (
                    clause_phrase_top(sent, edge, t).head == edge.subject.id
                    and (_apposed(sent, edge, t) or _name_beside_person(sent, edge, t))
                )
            )
        # the companion of a plural pronoun is the subject's conjunct in meaning («Вы с мужем» is "you and
        # your husband"), never an attractor: blind reads took «Вы с мужем справишься» as no attractor pair
        return {i: t for i, t in found.items() if not _comitative_of_pronoun(sent, edge, t)}

    def attractors(self, sent: Sentence, edge: AgreementEdge) -> list[Token]:
        found = [
            t for t in self._candidates(sent, edge).values()
            if self._attractor_ok(t) or (t.deprel.startswith("nsubj") and self._attractor_ok(misparsed_second_subject(sent, edge, t)))
        ]
        return sorted(found, key=lambda t: (abs(t.id - edge.agreeing.id), t.id))

    def _paradigm_edges(self, sent: Sentence) -> list[AgreementEdge]:
        return attractor_subject_edges(sent)

    @staticmethod
    def _object_reading(sent: Sentence, edge: AgreementEdge, target: str, gender: str | None) -> bool:
        """Whether the bad sentence reads as grammatical with subject and object swapped.

        «Летние месяцы покроют недостаток» → «… покроет недостаток» is «the
        shortage will cover the months»: an object without a preposition that
        pymorphy3 reads as a nominative agreeing with the new form, beside a
        subject that reads as an accusative of its own number («Суд это не увидел» → «… увидело»
        is «this did not see the court»; «Карл это помнил» → «… помнило» is not: «Карл» is an
        accusative only in the plural).
        """
        objs = [
            k for k in sent.children(edge.predicate)
            if misparsed_second_subject(sent, edge, k).base_deprel == "obj" and k.upos in ("NOUN", "PROPN", "PRON")
            and not any(c.deprel == "case" for c in sent.children(k))
        ]
        if not objs or edge.subject_kind != "nominal":
            return False
        subj_parses = [p for p in get_morph().parses(edge.subject.form) if p.tag.POS in ("NOUN", "NPRO")]
        if not is_known(edge.subject.form.lower()):
            subj_parses = []  # pymorphy3's guesses for an unknown name read every case
        # an accusative of the subject's own number only («Карл» is also the genitive/accusative plural
        # of «Карла»: no object of a singular predicate reads so); the tagger's number where it has one
        number = UD2OC["Number"].get(edge.subject.feats.get("Number", ""))
        if not any(
            "accs" in p.tag.grammemes and (number is None or p.tag.number in (None, number)) for p in subj_parses
        ) and edge.subject.feats.get("Case") != "Acc":
            return False
        feats = dict(edge.agreeing.feats)
        feature = "Number" if target in ("Sing", "Plur") else "Gender"
        feats[feature] = target
        if feature == "Number" and target == "Sing" and gender:
            feats["Gender"] = gender
        elif feature == "Number" and target == "Plur":
            feats.pop("Gender", None)
        new = dataclasses.replace(edge.agreeing, feats=feats)
        # a known word only, and not as an abbreviation («ос» is also «ОС»): guesses would block too much;
        # a modifier that cannot be nominative rules the swap out («содержит большую часть»)
        return any(
            is_known(k.form.lower()) and (r := agrees_as_nominative(k, new)) is not None and "Abbr" not in r.tag.grammemes
            and not any(
                m.deprel in ("amod", "det") and m.upos in ("ADJ", "DET")
                and not any("nomn" in p.tag.grammemes for p in get_morph().parses(m.form))
                for m in sent.children(k)
            )
            for k in objs
        )

    def _subject_ok(self, sent: Sentence, edge: AgreementEdge, *, referent: bool = False) -> bool:
        if edge.subject_kind == "clausal":
            return self._default_ok(sent, edge)
        return self._nominal_ok(sent, edge, referent=referent)


def _bare(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` has no preposition of its own."""
    return not any(k.base_deprel == "case" for k in sent.children(tok))


def _singular_gender_shown(edge: AgreementEdge) -> str | None:
    """The gender of a singular agreeing word that shows one (:func:`_shows_gender`), else None."""
    if edge.predicate_value("Number") == "Plur" or not _shows_gender(edge):
        return None
    return edge.predicate_value("Gender")


def _shows_gender(edge: AgreementEdge) -> bool:
    """Whether the singular of the agreeing word marks gender: a past tense, a short form or an
    adjective, or быть with an adjectival word agreeing together with it."""
    words = (edge.agreeing, *edge.co_agreeing)
    return any(
        t.feats.get("Tense") == "Past" or t.feats.get("Variant") == "Short" or t.upos == "ADJ"
        or t.feats.get("VerbForm") == "Part" or "Gender" in t.feats
        for t in words
    ) or edge.pred_type == "part_shortadj"


@register
class AttractorNumber(_Attractor):
    """«Ключ от шкафов лежал на столе.» → «Ключ от шкафов лежали на столе.»"""

    name = "subj_predicate_agreement_number_attractor"
    feature = "Number"
    checked_feats = ("Number",)

    def targets(self, sent, edge):
        if not self._candidates(sent, edge):
            return
        if not self._subject_ok(sent, edge) or not number_ok(sent, edge.subject):
            return
        if _numeral_subject(sent, edge.subject, _singular_gender_shown(edge)) or _half_edited(sent, edge, "Number"):
            return
        src = edge.predicate_value("Number")
        for att in self.attractors(sent, edge):
            # attraction works on the surface form: a form readable with the other number attracts
            # («гнев Громовицы», «тучи»), as in RuBLiMP's pairs
            num = "Plur" if src == "Sing" else "Sing"
            if _number_in_case(att, _guessed(sent, edge, att), _attractor_case(sent, att)) != UD2OC["Number"][num]:
                # only a form every reading of which has the other number attracts: a genitive
                # singular that looks like a nominative plural («группы», «дома») is no plural attractor
                continue
            if num == "Plur" and comitative_beside(sent, edge):
                return  # «Я с братом в магазин ходил» → «ходили»: the comitative plural
            clause = self.attractor_scope_of(sent, edge, att) == "clause"
            if clause and (
                indefinite_personal_risk(sent, edge) if num == "Plur" else object_reading(sent, edge)
            ):
                # «Поезд в обоих направлениях перевозят …»: "they transport the train", with no subject;
                # «… в ней хранили зерно» is such a clause already, and «хранила» has a dropped "she"
                continue
            # a singular predicate that shows gender takes the attractor's («Глаза моей сестры стала»):
            # with another gender the error would not be one of number alone; one that shows none
            # takes the subject's own, as RuBLiMP does
            gender = self._singular_gender(edge.subject) if num == "Sing" else None
            if num == "Sing" and _shows_gender(edge):
                gender = _postnominal_genitive_gender(sent, att) or _gender_in_case(
                    att, _guessed(sent, edge, att), _attractor_case(sent, att)
                )
                if gender is None and _sure_nominative(sent, edge) and _he_or_it(att, _attractor_case(sent, att)):
                    # «немцы его решили» → «решил»: the pronoun is «он» or «оно»; the subject's own gender
                    # where it is one of the two, else the masculine
                    own = self._singular_gender(edge.subject)
                    gender = own if own in ("Masc", "Neut") else "Masc"
                if gender is None:
                    continue
            if not self._object_reading(sent, edge, num, gender):
                yield num, gender
            return


@register
class AttractorGender(_Attractor):
    """«Местность вокруг села сильно заболочена.» → «Местность вокруг села сильно заболочено.»

    With a subject whose gender is its referent's (see
    :class:`NounSubjGender`) only a neuter attractor is used, except for a
    name pymorphy3 knows for one sex only (:func:`_name_gender`).
    """

    name = "subj_predicate_agreement_gender_attractor"
    feature = "Gender"
    indeclinable_ok = True

    def targets(self, sent, edge):
        # «Смеагорл (tagged dative) об этом не догадывался» → «догадывалось»: an unknown animate name is
        # read as the nominative subject; as a name it takes a neuter attractor's gender only, which no
        # reading of the name as an object makes grammatical (a dropped subject is never «оно»)
        edge = unknown_name_as_nominative(sent, edge)
        if edge.predicate_value("Gender") is None or not self._candidates(sent, edge):
            return
        if edge.subject_kind == "nominal" and _numeral_subject(sent, edge.subject, _singular_gender_shown(edge)):
            return
        # a personal name takes a neuter predicate only («Кира в этом сомневалась» → «сомневалось»): a
        # masculine or feminine one may be the referent's (a foreign name, a name of either sex), and the
        # blind read of session 25 took «Галина ни на кого не сердился» as no attractor pair
        name_subject = edge.subject_kind == "nominal" and _personal_name(edge.subject)
        if _half_edited(sent, edge, "Gender"):
            return
        if edge.subject_kind == "clausal":
            if not self._subject_ok(sent, edge):
                return
            referent = False
        elif self._subject_ok(sent, edge) and self._gender_fixed(sent, edge.subject):
            referent = False
        elif (
            edge.predicate_value("Gender") in ("Masc", "Fem")
            and self._referent_gender(sent, edge.subject)
            and self._subject_ok(sent, edge, referent=True)
        ):
            referent = True
        else:
            return
        src = edge.predicate_value("Gender")
        if name_subject and not referent:
            return
        if referent and _name_gender(edge.subject) == src and not name_subject:
            referent = False  # «Вадим при ней сказал»: a man's name, the masculine is not the referent's choice
        for att in self.attractors(sent, edge):
            # the attractor's gender must be unambiguous: every reading of a known form singular of
            # one gender («двери», «дома»), or a genitive right after a noun («племянница Гарста»)
            g = _gender_in_case(att, _guessed(sent, edge, att), _attractor_case(sent, att))
            gen = _postnominal_genitive_gender(sent, att)
            if gen is not None:
                g = gen
            he_or_it = g is None and src == "Fem" and not referent and _sure_nominative(sent, edge) and _he_or_it(att, _attractor_case(sent, att))
            if he_or_it:
                # «кровать у него оказалась» → «оказался»: «него» is «он» or «оно», and mostly a person;
                # never a neuter («Митя его простил» → «простило»: «его» is a man there)
                g = "Masc"
            everything = g is None and _everything(sent, att)
            if everything:
                g = "Neut"  # «посол все понял» → «поняло»: «всё»
            if g is None or g == src or (referent and g != "Neut"):
                continue
            if (
                self.attractor_scope_of(sent, edge, att) == "clause" and _bare(sent, att) and not (he_or_it or everything)
                and _gender_in_case(att, _guessed(sent, edge, att), "") != g
            ):
                # a clause-scope attractor without a preposition (whose case only the tagger fixes) has the
                # gender in every reading of its form («представления» is a neuter genitive singular but
                # also a plural)
                continue
            if not self._object_reading(sent, edge, g, None):
                yield g, None
            return
