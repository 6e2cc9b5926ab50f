"""Verbs whose infinitive complement happens at the verb's own time (tree questions for the tense paradigms).

A finite verb with an infinitive complement usually leaves the time of the infinitive open: «Я решил
завтра уехать», and even «Завтра я решил отдохнуть» (the decision is past, the rest tomorrow). The
verbs of :data:`SAME_TIME_GOVERNORS` do not: modality and necessity (смочь, прийтись), phase (начать,
перестать), success and attempt (успеть, удаться, попытаться) and help (помочь) describe one event
with the infinitive, so a time adverbial before both words dates the verb itself («В прошлом году
многим пришлось вернуться», *«В будущем году многим пришлось вернуться»).
"""

from __future__ import annotations

from typing import Iterable

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize

__all__ = ["SAME_TIME_GOVERNORS", "same_time_infinitives", "dates_the_frame"]

_SUBJUNCTIVE = frozenset({"бы", "б", "чтобы", "чтоб"})

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
})

_CLAUSAL = frozenset({"xcomp", "ccomp", "csubj"})
_PREDICATE_UPOS = frozenset({"VERB", "AUX"})


def same_time_infinitives(sent: Sentence, verb: Token, lemma: str) -> tuple[Token, ...] | None:
    """The infinitive complements of ``verb`` (lemma ``lemma``) when every clausal complement it has is an
    infinitive and the verb is one of :data:`SAME_TIME_GOVERNORS`; None otherwise (another governor, a
    participle among its complements, «бы»/«чтобы» on the verb, or no infinitive at all)."""
    if normalize(lemma) not in SAME_TIME_GOVERNORS:
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
