"""Tree questions of the tense paradigms: whose time a marker dates, and a past verb the parser tagged as a noun.

**Same-time infinitives.** A finite verb with an infinitive complement usually leaves the time of the
infinitive open: «Я решил завтра уехать», and even «Завтра я решил отдохнуть» (the decision is past,
the rest tomorrow). The verbs of :data:`SAME_TIME_GOVERNORS` do not: modality and necessity (смочь,
прийтись), phase (начать, перестать), success and attempt (успеть, удаться, попытаться) and help
(помочь) describe one event with the infinitive, and so does a verb of motion with a purpose infinitive
(пойти гулять, выходить поразмяться), so a time adverbial before both words dates the verb
itself («В прошлом году многим пришлось вернуться», *«В будущем году многим пришлось вернуться»).

**The quantity of a numeric marker** (:func:`quantity_phrase`): numerals, nouns and a few modifiers,
with «с половиной», «с лишним» after a numeral («два с половиной месяца назад»).

**Partners across a clause boundary** (:func:`same_clause_level`): the parser links a main-clause verb
and the verb of a subordinate clause as conjuncts («Водре ждал солдат, которым он только что раздал
деньги»); they are no coordination.

**A subject labelled an apposition of its verb** (:func:`apposed_subjects`: «Завтра заступит
Елизавета Анатольевна», Елизавета → ``appos`` of заступит).

**A past verb tagged as its noun homonym** (:func:`past_verb_with_pronoun_subject`: «Я же только что
села», села → NOUN «село»).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from .verbs import is_intransitive

__all__ = [
    "SAME_TIME_GOVERNORS", "IMPERSONAL_GOVERNORS", "same_time_infinitives", "dates_the_frame", "past_verb_with_pronoun_subject",
    "quantity_phrase", "same_clause_level", "RELATIVE_FORMS", "apposed_subjects",
]

#: every form of the relative «который» (a word that opens a subordinate clause in any case:
#: «друзей, которым он вчера отправил письмо»)
RELATIVE_FORMS = frozenset({
    "который", "которого", "которому", "которым", "котором", "которая", "которой", "которую", "которою",
    "которое", "которые", "которых", "которыми",
})

_SUBJUNCTIVE = frozenset({"бы", "б", "чтобы", "чтоб"})
# personal pronoun subject → the number (and singular gender) of a past verb agreeing with it
_PRONOUN_AGREEMENT = {
    "я": ("sing", None), "ты": ("sing", None), "он": ("sing", "masc"), "она": ("sing", "femn"),
    "оно": ("sing", "neut"), "мы": ("plur", None), "вы": ("plur", None), "они": ("plur", None),
}
# «N с половиной», «N с лишним», «N с небольшим»: a fraction or excess added to a numeral
_QUANTITY_ADDITIONS = frozenset({"половиной", "лишним", "небольшим", "гаком", "хвостиком"})
_DASHES = frozenset({"—", "–", "-", ":", "«", "»", '"', "„", "“", "”", "(", ")"})

#: infinitive-taking verbs (infinitive lemmas, ё-less) whose complement shares their time
SAME_TIME_GOVERNORS = frozenset({
    # ability and necessity
    "мочь", "смочь", "суметь", "уметь", "прийтись", "приходиться",
    # phase
    "начать", "начинать", "стать", "перестать", "переставать", "продолжить", "продолжать",
    "закончить", "кончить", "прекратить", "приняться", "взяться", "броситься", "кинуться",
    # success, attempt, daring
    "успеть", "удаться", "удаваться", "попытаться", "пытаться", "попробовать", "постараться",
    "посметь", "сметь", "осмелиться", "ухитриться", "умудриться", "поспешить",
    # help
    "помочь", "помогать",
    # motion with a purpose infinitive: one trip made for it («вчера выходил поразмяться»)
    "идти", "пойти", "ходить", "сходить", "прийти", "приходить", "выйти", "выходить", "уйти", "уходить",
    "зайти", "заходить", "ехать", "поехать", "съездить", "приехать", "приезжать", "уехать", "уезжать",
    "бежать", "побежать", "прибежать", "сбегать", "прилететь", "прилетать",
})

#: the impersonal ones (a dative experiencer, no subject: «нам пришлось уехать»)
IMPERSONAL_GOVERNORS = frozenset({"прийтись", "приходиться", "удаться", "удаваться"})

_CLAUSAL = frozenset({"xcomp", "ccomp", "csubj"})
_PREDICATE_UPOS = frozenset({"VERB", "AUX"})


def same_time_infinitives(sent: Sentence, verb: Token, lemma: str) -> tuple[Token, ...] | None:
    """The infinitive complements of ``verb`` (lemma ``lemma``) when every clausal complement it has is an
    infinitive and the verb is one of :data:`SAME_TIME_GOVERNORS`; None otherwise (another governor, a
    participle among its complements, «бы»/«чтобы» on the verb, or no infinitive at all). An impersonal
    governor (:data:`IMPERSONAL_GOVERNORS`) with an ``nsubj`` is a misparse (the infinitive's object
    taken for its subject: «участок проехать придётся» would become *«пришёлся»): None."""
    lemma = normalize(lemma)
    if lemma not in SAME_TIME_GOVERNORS or (lemma in IMPERSONAL_GOVERNORS and sent.children(verb, "nsubj")):
        return None
    infs = []
    for k in sent.children(verb):
        if normalize(k.form) in _SUBJUNCTIVE:
            return None
        if k.base_deprel not in _CLAUSAL or k.upos not in _PREDICATE_UPOS:
            continue
        if k.feats.get("VerbForm") != "Inf":
            if k.base_deprel == "xcomp" or k.feats.get("VerbForm") != "Fin":
                return None
            continue  # a finite clausal complement (the caller's rule lets it stay)
        infs.append(k)
    return tuple(infs) or None


def dates_the_frame(marker: Iterable[Token], verb: Token, infinitives: Iterable[Token]) -> bool:
    """Whether every word of ``marker`` stands before both ``verb`` and each of its ``infinitives``:
    only there does the time adverbial frame the whole event («В прошлый раз он помог мне выбрать»);
    between or after them it may be the infinitive's own («приказала вчера снова повести»). No
    infinitives: True (the marker may stand anywhere)."""
    infinitives = tuple(infinitives)
    if not infinitives:
        return True
    first = min([verb.id] + [t.id for t in infinitives])
    return all(t.id < first for t in marker)


def past_verb_with_pronoun_subject(morph, sent: Sentence, tok: Token) -> bool:
    """Tree repair: a past verb form that is also a noun form, tagged as the noun, with a nominative
    personal pronoun as its subject («Я же только что села»: села → NOUN «село»; «Я шесть лет назад
    сел»): a pronoun subject makes no noun predicate in these forms, so the word is the verb when it
    has a past indicative reading (of ``morph``) agreeing with the pronoun in number (and in gender
    for «он», «она», «оно»), with no dash, colon, quote or bracket between them."""
    if tok.upos not in ("NOUN", "PROPN", "ADJ") or tok.deprel not in ("root", "conj", "ccomp", "parataxis"):
        return False
    subjects = [k for k in sent.children(tok, "nsubj") if k.upos == "PRON" and k.feats.get("Case") == "Nom"]
    if len(subjects) != 1:
        return False
    pron = normalize(subjects[0].form)
    if pron not in _PRONOUN_AGREEMENT:
        return False
    lo, hi = sorted((subjects[0].id, tok.id))
    if any(sent.token(i).form in _DASHES for i in range(lo + 1, hi)):
        return False  # «Оно — стекло»: a dash marks a noun predicate
    number, gender = _PRONOUN_AGREEMENT[pron]
    for p in morph.parses(tok.form):
        g = p.tag.grammemes
        if p.tag.POS == "VERB" and "past" in g and "indc" in g and number in g and (gender is None or gender in g):
            return True
    return False


def quantity_phrase(body: list[Token]) -> bool:
    """Is ``body`` (the words of a numeric marker before «назад» or after «через») a bare quantity:
    numerals, nouns, adjectives, determiners and adverbs («несколько лет», «ещё три года»), where the
    only preposition is «с» between a numeral and a word of :data:`_QUANTITY_ADDITIONS` («два с
    половиной месяца», «тридцать с лишним лет»)? Any other preposition, a clause or punctuation
    makes it no marker («за три дня до …»)."""
    for i, t in enumerate(body):
        if t.upos in ("NUM", "NOUN", "ADJ", "DET", "ADV"):
            continue
        if (
            t.upos == "ADP" and normalize(t.form) == "с" and 0 < i < len(body) - 1
            and body[i - 1].upos == "NUM" and normalize(body[i + 1].form) in _QUANTITY_ADDITIONS
        ):
            continue
        return False
    return True


def same_clause_level(partners: Iterable[Token], verb: Token, subordinate: Callable[[Token], bool]) -> list[Token]:
    """The conjuncts of ``partners`` that stand at ``verb``'s clause level: both heads of subordinate
    clauses or neither (``subordinate``: does the verb head a clause opened by a subordinator or a relative
    word?). A "conjunct" the parser linked across a clause boundary — one verb in a main clause, the
    other in a «когда»/«который»/«хотя»/«что» clause — is no coordination partner."""
    own = subordinate(verb)
    return [k for k in partners if subordinate(k) == own]


def apposed_subjects(sent: Sentence, verb: Token) -> list[Token]:
    """Tree repair: the subject right after its verb that the parser hung on the verb as an
    apposition («Завтра с утра заступит Елизавета Анатольевна»: Елизавета → ``appos`` of
    заступит) — ``[word]`` for the word right after a finite verb with no subject of its own, a
    nominative noun or name labelled ``appos`` of that verb — or its ``obj`` where the verb is
    intransitive («Завтра днём отплывёт корабль»: корабль → ``obj``, Case=Nom) — with no
    preposition, agreeing with the verb in number (and, for a singular past verb, in gender);
    else ``[]``."""
    if verb.feats.get("VerbForm") != "Fin" or verb.id >= len(sent.tokens):
        return []
    word = sent.token(verb.id + 1)
    if word.head != verb.id or word.upos not in ("NOUN", "PROPN"):
        return []
    if word.base_deprel != "appos" and not (word.base_deprel == "obj" and is_intransitive(verb)):
        return []  # (a nominative «object» of an intransitive verb: «завтра отплывёт корабль»)
    if word.feats.get("Case") != "Nom" or any(k.base_deprel in ("case", "nsubj") for k in sent.children(word)):
        return []
    if any(k.base_deprel in ("nsubj", "nsubj:pass", "csubj") for k in sent.children(verb)):
        return []
    if word.feats.get("Number") != verb.feats.get("Number", word.feats.get("Number")):
        return []
    if verb.feats.get("Gender") and word.feats.get("Number") == "Sing" and word.feats.get("Gender") != verb.feats["Gender"]:
        return []
    return [word]
