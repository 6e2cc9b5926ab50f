"""Which subject–predicate contexts are what an agreement paradigm says they are.

Questions over one repaired :class:`~rublimp.trees.edges.AgreementEdge` that the agreement
paradigms ask before they propose a pair:

* :func:`genitive_of_negation`: is the genitive subject the genitive of negation, i.e. licensed by the
  «не» of its predicate, and not by a numeral, a quantity word or a preposition?
* :func:`indefinite_personal_risk`: would a plural predicate let the singular subject read as the
  object of an indefinite-personal clause («Поезд перевозит грузы» is fine, but «Поезд перевозят»
  reads "they transport the train")?
* :func:`predicative_short_form`: the gendered short-form reading of the word that agrees together
  with a past/future быть in an impersonal predicate («было решено», «нужно было»), so that a
  gender or number edit can change both words.
* :func:`address_as_subject`: is the «subject» an address set off by a comma («Ребята, мы …»)?
* :func:`attractor_in_subject`: is a noun an attractor in RuBLiMP's sense, a genitive or
  prepositional dependent inside the subject noun phrase, placed before the agreeing word?
* :func:`attractor_in_clause`: is a noun an attractor of the wider, clause scope: an object or
  oblique of the predicate (or a noun inside one) placed between the subject and the agreeing word?
* :func:`clause_edge_reliable`: are subject and agreeing word surely of one clause (for a clause-scope
  attractor)?
* :func:`noun_attached_pp`: does a prepositional phrase on the way to it modify its noun, and not
  the verb (a locative or temporal PP the parser hung on the subject: «Анна в городе уснула»)?
* :func:`genitive_labelled_appos`: is a word labelled ``appos`` right after its noun a genitive the
  parser misread («статеры Урнгура», «ученик друидов»), having no nominative reading at all?
* :func:`unknown_name_as_nominative`: an unknown animate name labelled ``nsubj`` but tagged with an
  oblique case, re-read as the nominative subject (for neuter gender pairs only).
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import get_morph
from .default_subjects import is_vocative
from .edges import AgreementEdge
from .lexical import QUANT_WORDS, is_known
from .subjects import misparsed_second_subject
from .verbs import is_infinitive, is_intransitive

__all__ = [
    "misattached_link_verb",
    "genitive_of_negation",
    "indefinite_personal_risk",
    "predicative_short_form",
    "attractor_in_subject",
    "attractor_in_clause",
    "in_quotes",
    "clause_phrase_top",
    "clause_edge_reliable",
    "address_as_subject",
    "noun_attached_pp",
    "genitive_labelled_appos",
    "unknown_name_as_nominative",
    "verb_governs_preposition",
    "NOUN_PREPOSITIONS",
]

#: relations that lead from a subject noun to a noun inside its own phrase
_NP_INTERNAL_RELS = frozenset({"nmod"})
#: words that govern a genitive of quantity when they stand before it («больше ста человек», «около года»)
_QUANTITY_GOVERNORS = QUANT_WORDS | frozenset(
    {"больше", "меньше", "более", "менее", "свыше", "около", "порядка", "почти", "много", "полно"}
)
#: prepositions whose phrase typically modifies a noun rather than a verb («письмо о войне», «врач из
#: больницы», «ключ от шкафа», «дом без крыши», «местность вокруг села»); «с»/«со» only with the
#: instrumental («кошка с котятами»), not «с крыши» "from the roof". Locative, directional and temporal
#: ones («в», «на», «у», «под», «за», «по», «при», «после» …) as readily modify the verb.
NOUN_PREPOSITIONS = frozenset(
    {"о", "об", "обо", "про", "из", "изо", "для", "с", "со", "без", "безо", "вокруг", "между", "меж",
     "от", "ото", "насчёт", "насчет", "против"}
)
#: verbs that govern a preposition of :data:`NOUN_PREPOSITIONS` without repeating it as their prefix
#: («зависеть от», «состоять из», «говорить о», «бороться с»): a PP with it before the verb is the
#: verb's argument even where the parser hung it on the subject
_PREP_GOVERNING_VERBS = {
    "от": frozenset({"зависеть", "страдать", "умереть", "умирать", "устать", "уставать", "ждать", "ожидать",
                     "требовать", "потребовать", "получить", "получать", "спасти", "спасать", "беречь",
                     "защищать", "защитить", "защищаться", "скрывать", "скрыть", "скрываться", "бежать",
                     "сбежать", "уйти", "уходить", "уехать", "уезжать", "избавиться", "избавляться",
                     "освободиться", "освобождаться", "освободить", "уклониться", "уклоняться",
                     "воздержаться", "воздерживаться", "пострадать", "погибнуть", "погибать", "прятаться",
                     "спрятаться", "произойти", "происходить", "узнать", "узнавать", "услышать", "слышать"}),
    "из": frozenset({"состоять", "происходить", "произойти", "следовать", "прийти", "приходить", "приехать",
                     "приезжать", "вернуться", "возвращаться", "бежать", "сбежать", "уйти", "уходить",
                     "уехать", "уезжать", "сделать", "делать", "складываться", "сложиться", "родиться",
                     "вырасти", "узнать", "узнавать", "стрелять", "появиться", "появляться", "прибыть",
                     "прибывать", "эмигрировать", "бежать"}),
    "о": frozenset({"говорить", "сказать", "рассказать", "рассказывать", "сообщить", "сообщать", "думать",
                    "подумать", "мечтать", "заботиться", "позаботиться", "писать", "написать", "напомнить",
                    "напоминать", "свидетельствовать", "знать", "узнать", "узнавать", "спорить", "заявить",
                    "заявлять", "вспомнить", "вспоминать", "помнить", "забыть", "забывать", "жалеть",
                    "пожалеть", "беспокоиться", "волноваться", "просить", "попросить", "договориться",
                    "договариваться", "объявить", "объявлять", "петь", "спеть", "мечтать", "плакать"}),
    "с": frozenset({"встретиться", "встречаться", "бороться", "справиться", "справляться", "работать",
                    "сотрудничать", "дружить", "подружиться", "говорить", "поговорить", "спорить", "воевать",
                    "граничить", "совпадать", "совпасть", "соглашаться", "согласиться", "связаться",
                    "связываться", "сражаться", "сразиться", "играть", "сыграть", "жить", "расстаться",
                    "расставаться", "познакомиться", "знакомиться", "поссориться", "ссориться",
                    "столкнуться", "сталкиваться", "помириться", "мириться", "обращаться", "обойтись",
                    "обходиться", "конкурировать", "соперничать", "сравнивать", "сравнить", "объединиться",
                    "объединяться", "слиться", "сливаться", "торговать"}),
    "против": frozenset({"выступать", "выступить", "голосовать", "проголосовать", "бороться", "воевать",
                         "протестовать", "возражать", "возразить", "восстать", "восставать", "сражаться",
                         "играть", "сыграть"}),
}
_PREP_GOVERNING_VERBS["об"] = _PREP_GOVERNING_VERBS["обо"] = _PREP_GOVERNING_VERBS["про"] = _PREP_GOVERNING_VERBS["о"]
_PREP_GOVERNING_VERBS["со"] = _PREP_GOVERNING_VERBS["с"]
_PREP_GOVERNING_VERBS["изо"] = _PREP_GOVERNING_VERBS["из"]
_PREP_GOVERNING_VERBS["ото"] = _PREP_GOVERNING_VERBS["от"]
#: stems of verbs whose prefix repeats a preposition they govern («отказаться от», «выйти из»,
#: «исключить из»); only stems, since most verbs in от-/вы- do not («ответить», «выдвинуть»)
_PREP_PREFIXES = {
    "от": ("отказ", "отлич", "отдел", "отрыв", "оторв", "отой", "отход", "отступ", "отвлек", "отреч", "отрек",
           "отста", "оттолк", "откол", "откреш", "открест", "отгород", "отпад", "отпас", "отшат"),
    "из": ("исключ", "исход", "изгн", "изгон", "извле", "выйти", "выход", "выпа", "вытек", "выпрыг", "вылет",
           "выех", "выезж", "выбра", "выбир", "вырв", "выры", "выбеж", "выгн", "выгон", "выплыв", "выполз"),
}
_PREP_PREFIXES["ото"] = _PREP_PREFIXES["от"]
_PREP_PREFIXES["изо"] = _PREP_PREFIXES["из"]
#: words whose «из» phrase is partitive, always their own («никто из них», «каждый из депутатов»)
_PARTITIVE_HEADS = frozenset(
    {"никто", "кто", "кто-нибудь", "кто-то", "каждый", "один", "многие", "некоторые", "любой", "кое-кто",
     "всякий", "ни один", "какой", "который", "другой", "часть", "половина", "большинство", "никакой"}
)


def verb_governs_preposition(verb: Token, prep: str) -> bool:
    """Whether ``verb`` (by its lemma) takes a PP with ``prep`` as an argument: listed in
    :data:`_PREP_GOVERNING_VERBS`, or a verb whose stem repeats the preposition as its prefix
    (:data:`_PREP_PREFIXES`: «отказаться от», «выйти из», «исключить из»)."""
    if verb.upos not in ("VERB", "AUX") and verb.feats.get("VerbForm") != "Part":
        return False
    lemma = normalize(verb.lemma)
    prep = normalize(prep)
    return lemma in _PREP_GOVERNING_VERBS.get(prep, ()) or lemma.startswith(_PREP_PREFIXES.get(prep, ()))


#: cases that a bare noun (no preposition) has as an attractor inside a noun phrase: the genitive; the
#: tagger's nominative/accusative on such a word is a mistagged genitive («мнение группы»); a bare
#: dative, instrumental or locative under the subject is a verb's adjunct the parser misattached
#: («Брат зимой похудел»)
_BARE_ATTRACTOR_CASES = frozenset({"Gen", "Nom", "Acc", ""})
#: endings of action nouns («управление», «развитие», «эволюция», «строительство»), which take the
#: verb's own complements and adjuncts inside the noun phrase («управление заводом», «строительство
#: моста через реку», «обращение в суд»)
_ACTION_NOUN_ENDINGS = ("ние", "тие", "ция", "ство")
#: words that make an infinitive a clause of its own («ничего не оставалось, как взять лютню»)
_CLAUSE_WORDS = frozenset({"как", "чтобы", "чем", "если"})
#: dependents of a predicate that may hold an infinitive whose object the genitive could be
_INFINITIVE_RELS = frozenset({"xcomp", "csubj", "ccomp", "advcl"})


def genitive_of_negation(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the edge's genitive subject depends on the negation of its predicate.

    True only for a ``genitive`` edge whose predicate is negated by «не»/«нет» and whose subject

    * has a genitive reading in pymorphy3 (a neuter nominative tagged genitive has none; an emphatic
      «-то»/«-ка» is read off: «годов-то»), and is no numeral other than «один» («ни одного»);
    * has no preposition, numeral or quantity word of its own, and no numeral, quantity word
      («больше», «около», «до») or preposition right before it: those govern the genitive
      («больше ста человек», «до пяти лет»);
    * is not beside a transitive infinitive of its predicate (``xcomp``/``csubj``/…): there the
      genitive may be the infinitive's object under the same negation («не следует сообщать
      подробностей»); an intransitive one is the predicate's complement («воздуха не хватает дышать»).
    """
    subj = edge.subject
    if edge.subject_kind != "genitive" or not edge.negated:
        return False
    # «годов-то»: the emphatic particle does not change the case
    form = subj.form[:-3] if subj.form.lower().endswith(("-то", "-ка")) else subj.form
    if is_known(form.lower()) and not any("gent" in p.tag.grammemes for p in get_morph().parses(form)):
        return False  # a known word with no genitive reading is a nominative («решение»); guesses do not count
    if (subj.upos == "NUM" and normalize(subj.lemma) != "один") or normalize(subj.lemma) in QUANT_WORDS:
        return False  # «ни одного не осталось» agrees like a noun
    # with a pronoun «больше», «более» mean "any more" («более ничего не произошло»)
    governors = QUANT_WORDS if subj.upos == "PRON" else _QUANTITY_GOVERNORS
    for kid in sent.children(subj):
        if kid.base_deprel == "case":
            return False
        if (kid.base_deprel == "nummod" or kid.upos == "NUM") and normalize(kid.lemma) != "один":
            return False  # «одного Бродяги не было»: «один» agrees like an adjective
        if normalize(kid.lemma) in governors or normalize(kid.form) in governors:
            return False
    before = _before_phrase(sent, subj)
    if before is not None and _connective_menee(sent, before):
        before = None  # «Тем не менее той там не оказывается»: the connective, no quantity
    if subj.upos != "PRON" and before is not None and (
        before.upos in ("NUM", "ADP") or before.form[:1].isdigit()
        or normalize(before.lemma) in _QUANTITY_GOVERNORS or normalize(before.form) in _QUANTITY_GOVERNORS
    ):
        # «больше ста человек»; with a pronoun «больше» is "any more" («больше ничего не произошло»)
        return False
    for kid in sent.children(edge.predicate):
        if (
            kid.id != subj.id and kid.base_deprel in _INFINITIVE_RELS and is_infinitive(kid) and not is_intransitive(kid)
            # «ничего не оставалось, как взять лютню», «если открыть письмо»: a clause of its own
            and not any(k.base_deprel == "mark" or normalize(k.lemma) in _CLAUSE_WORDS for k in sent.children(kid))
            # «Где уж бросить — годов-то не осталось»: set off by a dash or colon, a clause of its own
            and not any(t.form in ("—", "–", "-", ":") for t in sent.tokens[min(kid.id, edge.agreeing.id): max(kid.id, edge.agreeing.id) - 1])
        ):
            return False
    return True


def _connective_menee(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` is the «менее» of the connective «тем не менее»."""
    i = tok.id - 1
    return (
        normalize(tok.form) == "менее" and i >= 2
        and [normalize(t.form) for t in sent.tokens[i - 2: i]] == ["тем", "не"]
    )


def _before_phrase(sent: Sentence, subj: Token) -> Token | None:
    """The nearest word before ``subj`` outside its own subtree (its modifiers), or None."""
    own = {t.id for t in sent.subtree(subj)}
    i = subj.id - 2
    while i >= 0 and sent.tokens[i].id in own:
        i -= 1
    return sent.tokens[i] if i >= 0 else None


def indefinite_personal_risk(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether a plural form of the predicate lets the singular subject read as an object.

    Russian drops the subject of a 3rd-person plural verb to say "people, they" («Поезд
    перевозят» = "the train is being transported"). That reading needs a subject that is also an
    accusative (an inanimate noun whose nominative singular equals its accusative) and an active
    transitive verb with no object of its own. A second nominal dependent of the predicate that
    reads as a nominative plural («… перевозят три вагона») could itself be the plural subject, and
    is a risk too; so is, beside a transitive verb, a numeral phrase without a preposition («Матч
    посетили 5 тысяч зрителей», :func:`_numeral_phrase`), even where the verb has an object.
    """
    subj = edge.subject
    if subj.upos not in ("NOUN", "PROPN") or subj.feats.get("Animacy") == "Anim":
        return False
    parses = [p for p in get_morph().parses(subj.form) if p.tag.POS == "NOUN"]
    acc_too = any({"nomn", "sing"} <= set(p.tag.grammemes) for p in parses) and any(
        {"accs", "sing"} <= set(p.tag.grammemes) and "anim" not in p.tag.grammemes for p in parses
    )
    if not acc_too:
        return False
    kids = [k for k in sent.children(edge.predicate) if k.id != subj.id]
    for kid in kids:
        if kid.upos in ("NOUN", "PROPN", "NUM") and not any(c.base_deprel == "case" for c in sent.children(kid)):
            if any({"nomn", "plur"} <= set(p.tag.grammemes) for p in get_morph().parses(kid.form) if p.tag.POS in ("NOUN", "NUMR")):
                return True
    if edge.pred_type != "verb" or edge.agreeing.form.lower().endswith(("ся", "сь")):
        return False
    if is_intransitive(edge.agreeing):
        return False
    if any(
        _numeral_phrase(sent, k) and not any(c.base_deprel == "case" for c in sent.children(k)) for k in kids
    ):
        return True  # «Матч посетили 5 тысяч зрителей»: the numeral phrase is the plural subject
    return not any(k.base_deprel in ("obj", "ccomp", "xcomp") for k in kids)


#: nouns of a numeral phrase of duration, date or physical measure, which is no subject («пять
#: лет», «весит три килограмма»)
_TIME_NOUNS = frozenset({
    "год", "лето", "месяц", "неделя", "день", "сутки", "час", "минута", "секунда", "век", "раз",
    "метр", "километр", "сантиметр", "миллиметр", "грамм", "килограмм", "тонна", "литр", "градус",
})


#: nouns that count like numerals («пять тысяч», «три миллиона»)
_BIG_NUMBER_NOUNS = frozenset({"тысяча", "миллион", "миллиард", "сотня", "десяток"})


def _numeral_phrase(sent: Sentence, tok: Token) -> bool:
    """A cardinal numeral (other than «один»; in words or digits) or a noun quantified by one
    («пять тысяч зрителей», «20 человек»): a phrase that may be a subject with a plural verb."""
    def numeral(t: Token) -> bool:
        return (t.upos == "NUM" or t.form[:1].isdigit()) and normalize(t.lemma) not in ("один", "1")

    def direct(t: Token) -> bool:  # a case a subject has: «1207 человек», not «двух метров»
        return t.feats.get("Case", "Nom") in ("Nom", "Acc")

    if normalize(tok.lemma) in _TIME_NOUNS:
        return False  # «длилось пять лет», «весит три килограмма»: a duration or measure, not a subject
    if numeral(tok):
        return direct(tok)
    return any(
        (numeral(k) and direct(k) or (
            # «500 тысяч человек» with «тысяч» (a noun) on «человек» and the numeral on «тысяч»
            normalize(k.lemma) in _BIG_NUMBER_NOUNS and any(numeral(c) and direct(c) for c in sent.children(k))
        ))
        and k.base_deprel in ("nummod", "nmod", "det", "amod", "compound")
        for k in sent.children(tok)
    )


def predicative_short_form(tok: Token):
    """The neuter singular short adjective or participle reading of ``tok`` (a pymorphy3 parse), or None.

    «решено», «нужно», «невозможно» have one; «можно», «надо», an infinitive or a noun have none
    (they mark no gender or number, so быть alone carries the agreement).
    """
    for p in get_morph().parses(tok.form):
        if p.tag.POS in ("ADJS", "PRTS") and {"neut", "sing"} <= set(p.tag.grammemes):
            return p
    return None


#: verbs that link an impersonal predicative to its clausal or genitive subject («было трудно», «стало
#: ясно», «становилось необходимо», «оказалось невозможно»)
_LINK_VERBS = frozenset({"быть", "стать", "становиться", "оказаться", "оказываться", "казаться", "показаться"})
#: words that may stand between a link verb and its predicative («было бы трудно», «стало же ясно»)
_LINK_GAP_WORDS = frozenset({"бы", "б", "же", "ж", "уже", "ещё", "еще", "очень", "совсем", "вполне", "решительно", "просто"})


def misattached_link_verb(sent: Sentence, pred: Token) -> Token | None:
    """The finite link verb of an impersonal predicative (a neuter short form, ``pred``) that the parser
    did not hang on it as ``cop``/``aux``: the predicative's head with ``pred`` its ``xcomp`` or
    ``conj`` («становилось ← необходимо», «стало ← ясно»), or a neuter singular past or future of
    :data:`_LINK_VERBS` right before it with only :data:`_LINK_GAP_WORDS` between («мне было бы трудно» with
    «было» the ``cop`` of another word). Editing the predicative alone would leave it disagreeing with
    that verb. None where there is none (or it is a present «есть»)."""
    def link(t: Token | None) -> bool:
        return (
            t is not None and t.upos in ("VERB", "AUX") and normalize(t.lemma) in _LINK_VERBS
            and t.feats.get("VerbForm") == "Fin" and t.feats.get("Tense") in ("Past", "Fut")
            and t.feats.get("Number", "Sing") == "Sing" and t.feats.get("Gender", "Neut") == "Neut"
        )

    head = sent.token(pred.head) if pred.head else None
    if pred.base_deprel in ("xcomp", "conj") and link(head) and head.id < pred.id:
        return head
    for t in reversed(sent.tokens[: pred.id - 1]):
        if link(t) and t.head != pred.id:
            return t
        if normalize(t.form) not in _LINK_GAP_WORDS:
            return None
    return None


def attractor_in_subject(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """Whether ``tok`` is a noun phrase–internal dependent of the subject placed before the agreeing word.

    The path from the subject down to ``tok`` must run along ``nmod`` links only (a genitive or a
    prepositional phrase inside the subject noun phrase: «мнение экспертов», «ключ от шкафов»); a
    noun of a participial or relative clause, a conjunct, an apposition, or an adjunct, agent or
    object of the verb is no attractor. ``tok`` must precede the agreeing word, and every link on the
    path must be one a noun takes rather than a verb (:func:`noun_attached_pp`).
    """
    if tok.id >= edge.agreeing.id or tok.id == edge.subject.id:
        return False
    node = tok
    while node.head != 0 and (
        node.base_deprel in _NP_INTERNAL_RELS or genitive_labelled_appos(sent, node) or _genitive_labelled_obj(sent, node)
    ):
        head = sent.token(node.head)
        if not noun_attached_pp(sent, edge, node, head):
            return False
        if head.id == edge.subject.id:
            return True
        node = head
    return _right_after_subject(sent, edge, tok) and noun_attached_pp(sent, edge, tok, edge.subject)


#: relations by which a clause-scope attractor (or the phrase holding it) hangs on the predicate
_CLAUSE_ARGUMENT_RELS = frozenset({"obj", "iobj", "obl"})
#: the cases a bare ``obl`` (no preposition) has as a clause-scope attractor: a dative («ей не кивнул») or
#: an instrumental argument («этим гордился»); a bare accusative, genitive or nominative ``obl`` is a
#: measure, date or time («всю ночь», «второго мая»)
_BARE_OBL_CASES = frozenset({"Dat", "Ins"})
#: opening and closing quotation marks (the TeX-style ones of some corpora as well: ``…'')
_OPEN_QUOTES = frozenset({"«", "„", "“", "``", "`"})
_CLOSE_QUOTES = frozenset({"»", "“", "”", "''", "'"})
#: nouns of fixed adverbial phrases («в свою очередь», «в большинстве своём», «на самом деле», «в
#: целом», «по крайней мере», «в частности», «в итоге», «по сути», «в конце концов», «в том числе»,
#: «по большей части»):
#: no noun of the clause but a sentence adverb
_ADVERBIAL_PP_NOUNS = frozenset({
    "очередь", "большинство", "дело", "целое", "общее", "мера", "частность", "итог", "суть", "сущность",
    "конец", "принцип", "случай", "образ", "сторона", "том", "путь", "часть",
})
#: nouns of time that, without a preposition, are an adverbial of time in any case and relation
#: («каждую весну», «всю ночь», «прошлым летом», «этим утром»)
_TIME_ADVERB_NOUNS = frozenset({
    "секунда", "минута", "час", "сутки", "день", "ночь", "утро", "вечер", "неделя", "месяц", "год", "век",
    "весна", "лето", "осень", "зима", "время", "раз", "пора", "вечность", "период", "эпоха", "десятилетие",
})
#: determiners that make a bare accusative an adverbial of extent («всю дорогу», «целый день»)
_EXTENT_DETS = frozenset({"весь", "целый", "каждый"})
#: prepositions that make an adverbial phrase with a noun of :data:`_ADVERBIAL_PP_NOUNS`
_ADVERBIAL_PP_PREPS = frozenset({"в", "во", "на", "по", "с", "со", "к"})


def _adverb_reading(tok: Token) -> bool:
    """Whether pymorphy3 reads ``tok``'s form as an adverb too («зимой», «утром», «шагом», «кругом»)."""
    return any(p.tag.POS == "ADVB" for p in get_morph().parses(tok.form))


def in_quotes(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` stands inside a quotation or quoted name: an opening quotation mark before it
    not closed before it, and a closing one after it («роман "Война и мир"», «газета «Правда»»)."""
    depth = 0
    straight = 0
    for t in sent.tokens[: tok.id - 1]:
        if t.form == '"':
            straight += 1
        elif t.form in _OPEN_QUOTES and not (t.form == "“" and depth):
            depth += 1
        elif t.form in _CLOSE_QUOTES and depth:
            depth -= 1
    after = [t.form for t in sent.tokens[tok.id:]]
    if straight % 2 and '"' in after:
        return True
    return depth > 0 and any(f in _CLOSE_QUOTES for f in after)


def _adverbial_pp(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` is the noun of a fixed adverbial phrase (:data:`_ADVERBIAL_PP_NOUNS` after a
    preposition of :data:`_ADVERBIAL_PP_PREPS`: «в свою очередь», «на самом деле», «в том числе»), or is
    labelled ``fixed`` (a part of a multiword expression), or a bare instrumental of such a noun («таким
    образом», «первым делом»)."""
    if tok.base_deprel == "fixed":
        return True
    fixed_noun = normalize(tok.lemma) in _ADVERBIAL_PP_NOUNS or normalize(tok.form) in _ADVERBIAL_PP_NOUNS
    preps = [normalize(k.form) for k in sent.children(tok) if k.base_deprel == "case"]
    if not preps:
        # «таким образом», «главным образом», «первым делом», «таким путём»: a bare instrumental
        return fixed_noun and tok.feats.get("Case") == "Ins"
    return preps[0] in _ADVERBIAL_PP_PREPS and fixed_noun


def clause_edge_reliable(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether subject and agreeing word are surely of one clause, as a clause-scope attractor needs
    (:func:`attractor_in_clause`).

    The subject (from the parse or the word-order policy) is tagged nominative and is no noun of time
    (:data:`_TIME_ADVERB_NOUNS`); a word pymorphy3 knows reads as a nominative noun or pronoun (not
    «мутации», «образования» taken from a broken tree), and not as a genitive right after a noun («в
    результате мутации»). No punctuation mark stands between subject and agreeing word outside the
    subject's own phrase («Учительница, которой Аня принесла диплом, улыбнулась» keeps its commas
    inside the subject phrase; «роман длился недолго, а он написал: "Я порвал …"» is two clauses),
    nor another finite verb («показатели улучшались и голов помогли»).
    """
    subj = edge.subject
    if subj.feats.get("Case", "Nom") != "Nom" or normalize(subj.lemma) in _TIME_ADVERB_NOUNS:
        return False  # «долгие годы в ней хранили зерно»: a time, not the subject
    if is_known(subj.form.lower()) and subj.upos in ("NOUN", "PRON", "PROPN") and not any(
        "nomn" in p.tag.grammemes for p in get_morph().parses(subj.form)
        if p.tag.POS in ("NOUN", "NPRO") or {"Apro", "Subx"} <= set(p.tag.grammemes)  # «все», «те»
    ):
        return False
    before = sent.tokens[subj.id - 2] if subj.id > 1 else None
    known = is_known(subj.form.lower())
    if before is not None and before.upos in ("NOUN", "PROPN") and any(
        # a guessed genitive plural of an unknown name («копьё Радегаст» read as of «Радегаста») does not count
        {"gent", "gen2"} & set(p.tag.grammemes) and (known or "sing" in p.tag.grammemes)
        for p in get_morph().parses(subj.form)
    ):
        return False  # «В результате мутации у него вырастают руки»: the genitive of the noun before it
    lo, hi = sorted((subj.id, edge.agreeing.id))
    own = {t.id for t in sent.subtree(subj)}
    own |= _set_off_insertion(sent, subj, hi, own)
    return not any(
        t.id not in own and (
            t.upos == "PUNCT"
            # another finite verb between them («показатели улучшались и голов помогли»): two clauses
            or (t.id not in (edge.predicate.id, edge.agreeing.id) and t.feats.get("VerbForm") == "Fin")
        )
        for t in sent.tokens[lo: hi - 1]
    )


#: parenthetical words that may stand set off by commas inside a clause («Она, вишь, …», «Он, может, …»)
_PARENTHETICAL_WORDS = frozenset({
    "вишь", "мол", "дескать", "может", "кажется", "видно", "видать", "говорят", "конечно", "наверное",
    "наверно", "пожалуй", "значит", "впрочем", "однако", "правда", "кстати", "небось", "поди", "верно",
    "естественно", "разумеется", "очевидно", "видимо", "по-моему", "по-видимому", "безусловно", "действительно",
})
#: the most words a set-off address or apposition of the subject has («Вы, матушка, …», «он, Леонид, …»)
_INSERTION_MAX = 3


def _set_off_insertion(sent: Sentence, subj: Token, hi: int, own: set[int]) -> set[int]:
    """The ids (commas included) of a comma-enclosed insertion right after the subject and before
    token ``hi``: a parenthetical word («Она, вишь, из наших была», :data:`_PARENTHETICAL_WORDS`), a
    short nominative phrase naming or addressing the subject («Вы, матушка, у брата спросите», «он,
    Леонид, друзей не бросает»: no verb form, subordinator, conjunction or oblique case in it), or a
    clause of the subject's own (every word in its subtree ``own``: «Копиист, который бумагу перебелял,
    копийку снял», with the closing comma hung on the verb). Such an insertion does not split the
    clause; a word inside it never attracts (it is set off from the verb, :func:`attractor_in_clause`).
    Empty for anything else («Он, живший у брата, …» with the participle hung on the verb)."""
    opening = subj.id + 1
    if opening >= hi or sent.token(opening).form != ",":
        return set()
    closing = next((t.id for t in sent.tokens[opening: hi - 1] if t.upos == "PUNCT"), None)
    if closing is None or sent.token(closing).form != ",":
        return set()
    words = sent.tokens[opening: closing - 1]
    if words and all(t.id in own for t in words):
        return set(range(opening, closing + 1))  # the subject's own relative or participial clause
    if not 1 <= len(words) <= _INSERTION_MAX:
        return set()
    if len(words) == 1 and normalize(words[0].form) in _PARENTHETICAL_WORDS:
        return set(range(opening, closing + 1))
    nominal = all(
        t.upos in ("NOUN", "PROPN", "ADJ", "DET") and t.feats.get("Case", "Nom") == "Nom"
        and t.feats.get("VerbForm") is None and t.base_deprel not in ("conj", "cc")
        for t in words
    ) and any(t.upos in ("NOUN", "PROPN") for t in words)
    return set(range(opening, closing + 1)) if nominal else set()


def attractor_in_clause(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """Whether ``tok`` is a clause-scope attractor: a nominal of the predicate's own clause between the
    subject and the agreeing word (in either order: «Кира в этом сомневалась», «Опять кинул копьё
    Радегаст»).

    ``tok`` hangs on the predicate, the agreeing word or an infinitive complement of theirs by ``obj``,
    ``iobj`` or ``obl``, directly or through ``nmod`` links («Он с книгами брата пришёл»), or on the
    subject as the verb's misattached adjunct (:func:`clause_phrase_top`), so it is neither the subject nor a
    conjunct or apposition of it, and not inside a subordinate clause; it stands strictly between
    subject and agreeing word, with no punctuation between it and the agreeing word, outside
    quotation marks (:func:`in_quotes`), and is no adverbial noun: no form pymorphy3 also reads as
    an adverb («зимой», «утром»), no fixed adverbial phrase (:func:`_adverbial_pp`), no bare noun of
    time (:data:`_TIME_ADVERB_NOUNS`, «каждую весну» even labelled ``obj``) or bare accusative of extent
    («всю дорогу», :data:`_EXTENT_DETS`), no abbreviation, and a bare ``obl`` only in the dative or
    instrumental (:data:`_BARE_OBL_CASES`; «второго мая» is a date), or in the genitive under a
    negated predicate (its object: «ветер тучи не тревожил»); a bare accusative the parser hung on the
    subject is the verb's object («Вы Витю пришли арестовывать»).
    """
    lo, hi = sorted((edge.subject.id, edge.agreeing.id))
    if not lo < tok.id < hi or _adverb_reading(tok) or in_quotes(sent, tok):
        return False
    if _abbreviation(sent, tok):
        return False  # «1986 г.», «н. э.»: an abbreviation
    a, b = sorted((tok.id, edge.agreeing.id))
    if any(t.upos == "PUNCT" for t in sent.tokens[a: b - 1]):
        return False  # «адресат, живший в двух кварталах от конторы, получил»: set off from the verb
    heads = _clause_heads(sent, edge)
    top = clause_phrase_top(sent, edge, tok)
    if top is None or _adverbial_pp(sent, top) or _adverbial_pp(sent, tok):
        return False
    if not any(k.base_deprel == "case" for k in sent.children(top)) and (
        normalize(top.lemma) in _TIME_ADVERB_NOUNS
        # «всю дорогу», «целый день», «каждый раз»: a bare accusative singular of extent («все указания» is
        # an object)
        or (top.feats.get("Case") == "Acc" and top.feats.get("Number", "Sing") == "Sing"
            and any(normalize(k.lemma) in _EXTENT_DETS for k in sent.children(top)))
    ):
        return False  # «каждую весну», «целую неделю» labelled an object: a time
    if not any(k.base_deprel == "case" for k in sent.children(top)) and top.base_deprel in ("obl", "nmod"):
        case = top.feats.get("Case", "")
        if _adverb_reading(top):
            return False
        # a genitive under a negated predicate is its object («ветер тучи не тревожил»); an accusative the
        # parser hung on the subject is the verb's object («Вы Витю пришли арестовывать»)
        negated = any(normalize(k.form) == "не" for k in sent.children(edge.predicate))
        return (
            case in _BARE_OBL_CASES or (case == "Gen" and negated)
            or (case == "Acc" and top.head == edge.subject.id)
        )
    return top.head in heads or top.head == edge.subject.id or _pp_of_adverb(sent, top, heads)


def _abbreviation(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` is an abbreviation: a one-letter word, a form pymorphy3 reads only as one, or a
    form with an abbreviation reading followed by a full stop («1986 г.», «н. э.»); not «им», also read as
    «им.» (имени) but without its stop."""
    if len(tok.form) < 2:
        return True
    parses = get_morph().parses(tok.form)
    abbr = [p for p in parses if "Abbr" in p.tag.grammemes]
    if not abbr:
        return False
    nxt = sent.tokens[tok.id] if tok.id < len(sent.tokens) else None
    return len(abbr) == len(parses) or (nxt is not None and nxt.form == ".")


def clause_phrase_top(sent: Sentence, edge: AgreementEdge, tok: Token) -> Token | None:
    """The phrase by which ``tok`` belongs to the predicate's clause, following ``nmod`` links up from it:
    an ``obj``, ``iobj`` or ``obl`` of the predicate, the agreeing word or an infinitive complement of
    theirs (:func:`_clause_heads`), or an ``nmod`` or ``obl`` of the subject itself, the parser's
    place for a verb's adjunct right after the subject («Брат в городе уснул»), or a noun hung on the
    predicate by a relation only a mistake gives it (``nsubj``, ``advmod``, ``amod``) that reads only
    as an oblique case (:func:`_oblique_only_noun`), or a second ``nsubj`` of the predicate that cannot
    agree with it and reads as an accusative (:func:`~rublimp.trees.subjects.misparsed_second_subject`:
    «Киря это сознавал»), or a PP of an adverb modifying one of those heads («вместе с
    братом», «рядом с домом»); None for any other place (a conjunct or apposition of the subject, a noun of a
    subordinate clause) and for the subject itself."""
    heads = _clause_heads(sent, edge)
    node = tok
    while node.base_deprel == "nmod" and node.head not in (0, edge.subject.id, *heads):
        node = sent.token(node.head)
    if node.id == edge.subject.id:
        return None
    if node.base_deprel in ("nmod", "obl") and node.head == edge.subject.id:
        return node
    if node.base_deprel in _CLAUSE_ARGUMENT_RELS and node.head in heads:
        return node
    if node.base_deprel in _MISLABELLED_RELS and node.head in heads and _oblique_only_noun(node):
        return node  # «ребята голову поломают» with «голову» labelled ``advmod``: the verb's object
    if node.base_deprel == "nsubj" and misparsed_second_subject(sent, edge, node).base_deprel == "obj" and any(
        "accs" in p.tag.grammemes for p in get_morph().parses(node.form) if p.tag.POS in ("NOUN", "NPRO")
    ):
        # «Киря это сознавал», «вода первый этаж покрыла»: a second nsubj that cannot agree with the verb
        # and reads as an accusative is its object (not «брат», a nominative only)
        return node
    if _pp_of_adverb(sent, node, heads):
        return node  # «она вместе с братом ушла», «рядом с домом стоял»: a PP of the verb's adverb
    return None


def _pp_of_adverb(sent: Sentence, node: Token, heads: set[int]) -> bool:
    """Whether ``node`` is a prepositional ``obl`` of an adverb that is an ``advmod`` of one of ``heads``."""
    if node.base_deprel != "obl" or not node.head or not any(k.base_deprel == "case" for k in sent.children(node)):
        return False
    adverb = sent.token(node.head)
    return adverb.upos == "ADV" and adverb.base_deprel == "advmod" and adverb.head in heads


#: relations a parser gives a verb's bare object or oblique by mistake
_MISLABELLED_RELS = frozenset({"nsubj", "advmod", "amod", "dep"})


def _oblique_only_noun(tok: Token) -> bool:
    """A noun or pronoun pymorphy3 knows, all of whose readings are nouns or pronouns in an oblique
    case (no nominative, no adverb or adjective): «голову», «Ловушке», «Веркой»."""
    if tok.upos not in ("NOUN", "PROPN", "PRON") or not is_known(tok.form.lower()):
        return False
    parses = get_morph().parses(tok.form)
    return bool(parses) and all(
        p.tag.POS in ("NOUN", "NPRO") and p.tag.case is not None and p.tag.case != "nomn" for p in parses
    )


def _clause_heads(sent: Sentence, edge: AgreementEdge) -> set[int]:
    """The words whose objects and obliques are nouns of the predicate's clause: the predicate, the
    agreeing word, and an infinitive complement (``xcomp``) of either («Вы пациента подменить не
    могли»)."""
    heads = {edge.predicate.id, edge.agreeing.id}
    return heads | {
        k.id for h in tuple(heads) for k in sent.children(sent.token(h))
        if k.base_deprel == "xcomp" and k.feats.get("VerbForm") == "Inf"
    }


def _copular(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the predicate is a nominal, adjective or short form (with or without быть): such a
    predicate takes no locative adjunct between subject and быть («Окно в комнате было открыто»)."""
    pred = edge.predicate
    if edge.pred_type == "part_shortadj" or pred.feats.get("Variant") == "Short" or pred.feats.get("VerbForm") == "Part":
        return True
    return pred.upos in ("ADJ", "NOUN", "PROPN", "PRON", "DET", "NUM") and pred.id != edge.agreeing.id


def _genitive_reading(tok: Token) -> bool:
    """Whether pymorphy3 reads ``tok``'s form as a genitive (guesses included for unknown words)."""
    return any({"gent", "gen2"} & set(p.tag.grammemes) for p in get_morph().parses(tok.form))


def _event_participle(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the predicate is a passive participle (long or short; «была открыта», «был построен»):
    an event that, unlike a state adjective, takes a locative or temporal adjunct («Выставка в музее
    была открыта» is "was opened in the museum")."""
    pred = edge.predicate
    if pred.feats.get("VerbForm") == "Part":
        return True
    parses = [p for p in get_morph().parses(pred.form) if p.tag.POS in ("PRTS", "PRTF", "ADJS", "ADJF")]
    return bool(parses) and all(p.tag.POS in ("PRTS", "PRTF") for p in parses)


def noun_attached_pp(sent: Sentence, edge: AgreementEdge, dep: Token, head: Token) -> bool:
    """Whether ``dep``, a dependent of the noun ``head`` inside the subject noun phrase, modifies that noun.

    * It must follow ``head`` with nothing between them but ``head``'s own dependents.
    * Under an action noun (:data:`_ACTION_NOUN_ENDINGS`) any such dependent is the noun's, except a
      PP in the prepositional case beside a verb or participle («Сигнализация в магазине сработала»).
    * Otherwise a dependent without a preposition must be a genitive (or a tagged
      nominative/accusative whose form reads as a genitive, a mistagged genitive: not «круглый год»):
      a bare dative, instrumental or locative is the verb's.
    * A prepositional phrase's preposition must be one that typically modifies nouns
      (:data:`NOUN_PREPOSITIONS`; «с» with the instrumental only) that the predicate verb does not
      govern (:func:`verb_governs_preposition`: «Кавалерия от производства отказалась»), unless the predicate is
      copular or a short form (:func:`_copular`), which has no adjunct reading; a passive
      participle (:func:`_event_participle`) does take a locative one, so a PP in the prepositional
      case is its («Выставка в музее была открыта»). «Анна в отчаянии приникла», «Игрок в составе
      команды выиграл»: the PP is the verb's.
    """
    preps = [k for k in sent.children(dep) if k.base_deprel == "case" and k.id < dep.id]
    first = min((p.id for p in preps), default=dep.id)
    if first < head.id:
        return False  # a fronted PP («В городе жители …») is the clause's
    own = {t.id for t in sent.subtree(head)}
    if any(i not in own for i in range(head.id + 1, first)):
        return False
    locative = bool(preps) and dep.feats.get("Case") == "Loc"
    if head.upos == "NOUN" and normalize(head.lemma).endswith(_ACTION_NOUN_ENDINGS) and not (
        locative and (not _copular(sent, edge) or _event_participle(sent, edge))
    ):
        # «управление заводом», «строительство моста через реку»; a place or time in the prepositional
        # case is as readily the verb's («Сигнализация в магазине сработала»)
        return True
    if not preps:
        case = dep.feats.get("Case", "")
        if case in ("Nom", "Acc", "") and not _genitive_reading(dep):
            return False  # «вершина … круглый год покрыта»: an accusative of time, not a mistagged genitive
        return case in _BARE_ATTRACTOR_CASES or genitive_labelled_appos(sent, dep)
    if _copular(sent, edge) and not (_event_participle(sent, edge) and dep.feats.get("Case") == "Loc"):
        return True
    prep = normalize(preps[0].form)
    if prep not in NOUN_PREPOSITIONS:
        return False
    if prep in ("из", "изо") and normalize(head.lemma) in _PARTITIVE_HEADS:
        return True  # «никто из потомков», «каждый из них»: partitive, the pronoun's own
    if verb_governs_preposition(edge.predicate, prep) and not any(
        normalize(c.form) == prep for k in sent.children(edge.predicate) for c in sent.children(k) if c.base_deprel == "case"
    ):
        return False  # «Кавалерия от производства отказалась»: the verb's argument (it has none of its own)
    return prep not in ("с", "со") or dep.feats.get("Case") == "Ins"


def _genitive_labelled_obj(sent: Sentence, tok: Token) -> bool:
    """A bare dependent labelled ``obj`` or ``iobj`` of a noun right before it that pymorphy3 reads as a
    genitive («коготь птицы» with «птицы» the ``obj`` of «коготь»): a noun takes no object, so this is
    its genitive (not a verb's object the parser hung there: the noun must be right before it)."""
    head = sent.token(tok.head) if tok.head else None
    return (
        tok.base_deprel in ("obj", "iobj") and head is not None and head.upos in ("NOUN", "PROPN")
        and head.id == tok.id - 1 and tok.upos in ("NOUN", "PROPN")
        and not any(k.base_deprel == "case" for k in sent.children(tok)) and _genitive_reading(tok)
    )


def genitive_labelled_appos(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok``, labelled ``appos``, is a genitive of the noun right before it that the parser
    misread as an apposition («Воины Урнгура ждали», «ученик друидов мог»).

    ``tok`` follows its head, a common noun, directly (no comma or dash between: «Мы, наша семья,
    …» is an apposition; after a name a capitalised word is a surname: «Хелен Луз»), has no preposition, and every pymorphy3 noun reading of it (guesses included for a
    word pymorphy3 does not know) is an oblique case with a genitive among them: no reading is a
    nominative, so it cannot be a name or title standing beside its noun («певица Мария», «статеры
    Асандра» with «Асандра» also a woman's name, «девочки Куделки» also a nominative plural). Besides,
    a capitalised animate personal name tagged genitive right after an inanimate noun is its possessor
    whatever its other readings («Сердце Данила»).
    """
    if tok.base_deprel != "appos" or tok.head != tok.id - 1 or tok.upos not in ("NOUN", "PROPN"):
        return False
    head = sent.token(tok.head)
    if head.upos != "NOUN" or any(k.base_deprel == "case" for k in sent.children(tok)):
        return False  # after a name («Хелен Луз») a capitalised word is rather a surname
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS == "NOUN"]
    if (
        head.feats.get("Animacy") == "Inan" and tok.feats.get("Case") == "Gen" and tok.feats.get("Animacy") == "Anim"
        and tok.form[:1].isupper() and any({"gent", "sing"} <= set(p.tag.grammemes) and {"Name", "Surn", "Patr"} & set(p.tag.grammemes) for p in parses)
    ):
        # «Сердце Данила возликовало»: a person's name tagged genitive right after a thing is its possessor,
        # though the form is also a nominative name («Данила»); a thing is not named by a person's name
        return True
    if not parses or any("nomn" in p.tag.grammemes for p in parses):
        return False
    return any("gent" in p.tag.grammemes for p in parses)


def _right_after_subject(sent: Sentence, edge: AgreementEdge, tok: Token) -> bool:
    """A word-order subject's genitive or prepositional phrase in a broken tree («Лицо соседа
    оживилось» with «соседа» as the root): ``tok`` follows the subject with only its own preposition
    and modifiers between them, before the agreeing word, and the parser did not attach it to the
    predicate (a verb's adjunct or object right after the subject is no attractor: «Брат за эти дни
    похудел»)."""
    if not edge.subject.id < tok.id < edge.agreeing.id:
        return False
    if tok.head in (edge.predicate.id, edge.agreeing.id):
        return False
    if tok.base_deprel in ("obl", "obj", "iobj", "nsubj", "advmod", "conj", "appos", "acl", "advcl", "xcomp"):
        return False
    between = sent.tokens[edge.subject.id: tok.id - 1]
    return all(
        (t.head == tok.id and t.base_deprel in ("case", "amod", "det", "nummod")) for t in between
    )


_ADDRESS_CLOSE = frozenset({",", "!", "—", "–"})


def address_as_subject(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the edge's subject is an address («Ребята, мы уходим», «Иван, ты пришёл?»).

    The subject is a bare name or animate noun in the nominative, set off by punctuation
    (:func:`~rublimp.trees.default_subjects.is_vocative`, or at the start of the sentence with a
    comma or exclamation mark after it), and the clause shows it is not the subject: its predicate
    is in the 1st or 2nd person or the imperative, or has a second nominal subject. «Студенты, как
    обычно, опоздали» keeps its subject.
    """
    subj = edge.subject
    if subj.upos not in ("NOUN", "PROPN") or subj.feats.get("Case", "Nom") != "Nom":
        return False
    set_off = is_vocative(sent, subj)
    if not set_off and (subj.upos == "PROPN" or subj.feats.get("Animacy") == "Anim"):
        first = all(t.upos in ("PUNCT", "INTJ") for t in sent.tokens[: subj.id - 1])
        bare = all(k.base_deprel == "punct" for k in sent.children(subj))
        set_off = first and bare and subj.id < len(sent.tokens) and sent.tokens[subj.id].form in _ADDRESS_CLOSE
    if not set_off:
        return False
    if edge.agreeing.feats.get("Person") in ("1", "2") or edge.agreeing.feats.get("Mood") == "Imp":
        return True
    return any(
        k.id != subj.id and k.base_deprel == "nsubj" and k.feats.get("Case", "Nom") == "Nom"
        for k in sent.children(edge.predicate)
    )


def unknown_name_as_nominative(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """An unknown animate name labelled nsubj but tagged with an oblique case, read as the nominative subject.

    «Дагенхем (tagged dative) вскрикнул»: pymorphy3 has only guesses for the
    name, and the tagger's case is no better. For neuter gender pairs only
    (``noun_subj_predicate_agreement_gender``, and the neuter attractor pair a name subject takes in
    ``subj_predicate_agreement_gender_attractor``), which are ungrammatical whether or not the name is
    the subject (a dropped subject is never «оно»); the number and person pairs would not be («Тео
    поддержали» is grammatical with «Тео» as the object). Under negation only a name ending in a
    consonant (not «-ом»/«-ем»: «Смеагорл не догадывался»): any oblique case of a declinable name
    ends otherwise, while a genitive of negation («Тео не оказалось») or a dative of an impersonal
    verb («Тео не спалось») takes the neuter.
    """
    subj = edge.subject
    if (
        edge.subject_kind != "other" or (edge.negated and not _bare_stem_name(subj)) or subj.upos != "PROPN" or subj.feats.get("Animacy") != "Anim"
        or subj.feats.get("Case") not in ("Acc", "Dat", "Gen", "Ins") or is_known(subj.form.lower())
        or subj.feats.get("Number") != edge.agreeing.feats.get("Number")
        or any(k.deprel == "case" for k in sent.children(subj))
    ):
        return edge
    return dataclasses.replace(edge, subject=dataclasses.replace(subj, feats=dict(subj.feats, Case="Nom")), subject_kind="nominal")


#: Cyrillic vowels and signs that end an oblique case form of a declinable name
_VOWEL_ENDINGS = tuple("аеёиоуыэюяйьъ")


def _bare_stem_name(tok: Token) -> bool:
    """A capitalised form ending in a consonant and not in the instrumental «-ом»/«-ем»/«-ём»
    («Смеагорл»): the nominative (or accusative) of a masculine name, never its genitive or dative."""
    form = tok.form.lower()
    return (
        tok.form[:1].isupper() and len(form) > 2 and form[-1].isalpha() and not form.endswith(_VOWEL_ENDINGS)
        and not form.endswith(("ом", "ем", "ём"))
    )
