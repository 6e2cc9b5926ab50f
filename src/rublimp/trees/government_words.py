"""Word sets and a form test for the case-government paradigms (verb objects and their cases).

Closed lists written by hand for rublimp from general knowledge of Russian government; the
paradigms in :mod:`rublimp.paradigms.government` read them, and other tree or paradigm modules may.
"""

from __future__ import annotations

from .nominal import norm
from .roles import (
    INVARIANT_DET,
    NOMINAL_POS,
    PERSON_NAME_TAGS as _PERSON_NAME_TAGS,
    QUANTIFIERS,
    cannot_agree,
    genitive_governor_word,
    tag_case,
    tag_number,
)

__all__ = [
    "DIMENSION_NOUNS",
    "GENITIVE_TO_NOMINATIVE",
    "INSTRUMENT_ADJUNCT_VERBS",
    "MEASURE_NOUNS",
    "PREDICATIVE_INS_VERBS",
    "THEME_INSTRUMENT_VERBS",
    "SENSE_SPEECH_VERBS",
    "accusative_syncretic",
    "after_stray_modifier",
    "counted_genitive",
    "has_bare_dative",
    "nominalized_verb",
    "not_a_subject",
    "not_negation",
    "noun_only",
    "passive_participle",
    "postposed_stray_modifier",
    "right_before_verb",
    "subject_slot",
    "verb_negated",
]

# the genitive of a 3rd person pronoun (also the possessive «его/её/их») → its nominative
GENITIVE_TO_NOMINATIVE = {"его": "он", "её": "она", "ее": "она", "их": "они"}
# time and measure nouns: a bare accusative/genitive of duration or amount is not an object
MEASURE_NOUNS = frozenset(
    {"год", "месяц", "неделя", "день", "ночь", "утро", "вечер", "сутки", "час", "минута", "секунда",
     "раз", "век", "лето", "зима", "весна", "осень", "километр", "метр", "рубль", "доллар", "евро",
     "тонна", "литр", "грамм", "килограмм", "процент", "шаг", "момент", "время", "миг"}
)
# verbs of physical action, contact and means: a bare instrumental pronoun after them reads as an
# instrument with the object left out («атакует им», «не касаясь ими», «добился этим»)
INSTRUMENT_ADJUNCT_VERBS = frozenset(
    {"атаковать", "атаковывать", "ударить", "ударять", "бить", "избить", "побить", "разбить", "колоть", "резать",
     "разрезать", "отрезать", "нарезать", "рубить", "толкнуть", "толкать", "трогать", "тронуть", "задеть",
     "задевать", "накрыть", "накрывать", "закрыть", "закрывать", "покрыть", "покрывать", "прикрыть", "прикрывать",
     "заполнить", "заполнять", "наполнить", "наполнять", "кормить", "накормить", "поить", "напоить", "мазать",
     "намазать", "тереть", "вытереть", "протереть", "чистить", "почистить", "мыть", "вымыть", "помыть",
     "защищать", "защитить", "заменить", "заменять", "украсить", "украшать", "обернуть", "завернуть",
     "заворачивать", "поразить", "поражать", "давить", "раздавить", "придавить", "нажать", "нажимать",
     "поднять", "поднимать", "держать", "удержать", "сбить", "сбивать", "пробить", "пробивать", "убить",
     "стрелять", "обстрелять", "касаться", "коснуться", "достигать", "достичь", "достигнуть", "добиться",
     "добиваться", "набрать", "взять", "насыпать", "налить", "наливать", "подлить", "долить", "плеснуть"}
)
# verbs that take a person and a bare instrumental of the cause, gift or tool besides the object
# («баловать кого чем», «разочаровывать кого чем», «расчищать что чем»): their instrumental reads as
# that argument, with the object left out («не баловать внуками», «не разочаровывать гостями»)
THEME_INSTRUMENT_VERBS = frozenset(
    {"баловать", "избаловать", "радовать", "обрадовать", "порадовать", "удивлять", "удивить",
     "разочаровывать", "разочаровать", "огорчать", "огорчить", "пугать", "напугать", "испугать",
     "раздражать", "беспокоить", "побеспокоить", "тревожить", "потревожить", "смешить", "рассмешить",
     "восхищать", "впечатлять", "мучить", "замучить", "утомлять", "утомить", "угощать", "угостить",
     "награждать", "наградить", "снабжать", "снабдить", "обеспечивать", "обеспечить", "наделять",
     "наделить", "одаривать", "одарить", "осыпать", "заваливать", "завалить", "упрекать", "попрекать",
     "шантажировать", "соблазнять", "соблазнить", "дразнить", "развлекать", "развлечь", "занимать",
     "занять", "интересовать", "заинтересовать", "привлекать", "привлечь", "расчищать", "расчистить",
     "очищать", "очистить", "убирать", "убрать", "копать", "выкопать", "засыпать",
     "кормить", "поить", "лечить", "вылечить", "заражать", "заразить", "обманывать", "обмануть",
     "подменить", "подменять", "сменить", "сменять", "менять", "поменять", "обменять", "обменивать",
     "бросать", "бросить", "кидать", "кинуть", "швырять", "швырнуть", "ободрять", "ободрить", "утешать",
     "утешить", "воодушевлять", "вдохновлять", "поддерживать", "поддержать", "испытывать", "испытать",
     "проверять", "проверить"}
)
# verbs of perception and of saying or showing: the instrumental of a 3rd person pronoun after them
# reads as the organ or the means, with the object left out («я ими не чувствую», with the hands;
# «ею не видит», with the eye; «ими не скажет», with the words)
SENSE_SPEECH_VERBS = frozenset(
    {"чувствовать", "почувствовать", "ощущать", "ощутить", "осязать", "чуять", "учуять", "нюхать",
     "понюхать", "видеть", "увидеть", "слышать", "услышать", "смотреть", "посмотреть", "глядеть",
     "сказать", "говорить", "произнести", "произносить", "выразить", "выражать", "написать", "писать",
     "нарисовать", "рисовать", "показать", "показывать", "объяснить", "объяснять", "описать", "описывать",
     "передать", "передавать", "сделать", "делать", "доказать", "доказывать"}
)
# nouns of size and extent: their bare instrumental is an adjunct of respect with many verbs
# («достигают длиной 2 см», «превосходит ростом»)
DIMENSION_NOUNS = frozenset(
    {"длина", "ширина", "высота", "глубина", "толщина", "рост", "вес", "масса", "размер", "диаметр",
     "объем", "площадь", "возраст", "объём"}
)
# verbs whose bare instrumental is predicative (a role or name: «избрать председателем», «работать
# учителем»), never their object; moving it to the dative may even stay grammatical («назначил его
# директору»)
PREDICATIVE_INS_VERBS = frozenset(
    {"назначить", "назначать", "избрать", "избирать", "выбрать", "выбирать", "назвать", "называть", "считать",
     "счесть", "признать", "признавать", "объявить", "объявлять", "сделать", "делать", "утвердить", "утверждать",
     "оставить", "оставлять", "провозгласить", "провозглашать", "нанять", "нанимать", "работать", "служить",
     "родиться", "рождаться", "вернуться", "возвращаться", "остаться", "оставаться", "казаться", "оказаться",
     "слыть", "прослыть", "числиться", "считаться", "называться", "назваться", "выступать", "выступить"}
)


def accusative_syncretic(morph, form: str, lemma: str, animacy: str | None = None, proper: bool = False) -> bool:
    """Whether ``form`` is, in one number, both the genitive and the accusative of ``lemma``
    (animate «гостей», «солдат», pronouns «его», «тебя»; not «правды»: gen.sg but acc.pl).

    pymorphy3's surname and first-name readings do not count unless the word is a name (``proper``):
    «брака» is брак.Gen, not the surname Брак. Where the lexeme has both an inanimate and an animate
    reading of the form and the parser read the word as inanimate (``animacy`` "Inan"), the animate
    reading does not count either («не получал боёв»: бой the fight, not бой the servant boy).
    """
    readings = [p for p in morph.parses(form)
                if p.tag.POS in NOMINAL_POS and norm(p.normal_form) == lemma and tag_case(p.tag) in ("Gen", "Acc")
                and (proper or not any(g in _PERSON_NAME_TAGS for g in p.tag.grammemes))]
    if animacy == "Inan" and any("inan" in p.tag.grammemes for p in readings):
        readings = [p for p in readings if "anim" not in p.tag.grammemes]
    numbers: dict[str, set[object]] = {"Gen": set(), "Acc": set()}
    for p in readings:
        numbers[tag_case(p.tag)].add(tag_number(p.tag))
    gen, acc = numbers["Gen"], numbers["Acc"]
    return bool(gen & acc) or (bool(gen and acc) and (None in gen or None in acc))


def passive_participle(morph, verb) -> bool:
    """Whether the token ``verb`` is a passive participle, by the parser or by every pymorphy3 reading
    of its form (a short participle the parser tagged as an active verb or an adjective)."""
    if verb.feats.get("Voice") == "Pass":
        return True
    parses = [p for p in morph.parses(verb.form) if p.tag.POS in ("PRTF", "PRTS", "VERB", "INFN", "ADJS", "ADJF")]
    return bool(parses) and all(p.tag.POS in ("PRTF", "PRTS") and "pssv" in p.tag.grammemes for p in parses)


def postposed_stray_modifier(sent, tok) -> bool:
    """Whether the word just after ``tok`` is a declined adjective, determiner or participle in
    ``tok``'s case and number that the parser hung elsewhere, not on a later nominal or adjective
    («боя настоящего не получилось»: «настоящего» made a second subject; «на вид самое глубокое
    место» modifies what follows). It is ``tok``'s
    postposed modifier, so re-casing ``tok`` alone would leave it behind (a half-edited phrase)."""
    if tok.id >= len(sent.tokens):
        return False
    nxt = sent.token(tok.id + 1)
    if nxt.head == tok.id or not (nxt.upos in ("ADJ", "DET") or nxt.feats.get("VerbForm") == "Part"):
        return False
    if nxt.feats.get("Case") != tok.feats.get("Case") or nxt.feats.get("Variant") == "Short":
        return False
    if nxt.feats.get("Number") not in (None, tok.feats.get("Number")):
        return False
    head = sent.head_of(nxt)
    return not (head is not None and head.id > nxt.id and head.upos not in ("VERB", "AUX"))


# consonant alternations before -ение («освобождение» ← освободить, «выражение» ← выразить)
_ALTERNATIONS = (("жд", "д"), ("щ", "ст"), ("щ", "т"), ("вл", "в"), ("пл", "п"), ("бл", "б"), ("мл", "м"),
                 ("ж", "з"), ("ж", "д"), ("ж", "г"), ("ш", "с"), ("ш", "х"), ("ч", "т"), ("ч", "к"))


def nominalized_verb(morph, lemma: str) -> str | None:
    """The infinitive a -ние/-тие noun is derived from («решение» → решить, «открытие» → открыть,
    «освобождение» → освободить), or None for a noun with no such verb in the dictionary
    («водоизмещение», «здание»: no verb the noun names the action of; nor a compound with «место»,
    «местоположение», «месторождение»: a place, whose genitive is a plain adnominal one)."""
    stems: list[tuple[str, tuple[str, ...]]] = []
    if lemma.endswith("тие"):
        stems.append((lemma[:-3], ("ть",)))
    if lemma.endswith(("ание", "яние")):
        stems.append((lemma[:-3], ("ть",)))
        stems.append((lemma[:-4], ("ть", "ить")))  # «слияние» ← слить
    if lemma.endswith("ение"):
        base = lemma[:-4]
        stems.append((base, ("ить", "еть", "ять", "ать", "ти")))
        if base.endswith(("д", "т")):
            stems.append((base[:-1], ("сти",)))  # «произведение» ← произвести
        if base.endswith(("ч", "г", "к")):
            stems.append((base[:-1], ("чь",)))  # «течение» ← течь
        for alt, orig in _ALTERNATIONS:
            if base.endswith(alt):
                stems.append((base[: -len(alt)] + orig, ("ить", "еть", "ать")))
    for stem, endings in stems:
        for end in endings:
            for cand in (stem + end, stem + end + "ся"):
                if morph.word_is_known(cand) and any(
                        p.tag.POS == "INFN" and norm(p.normal_form) == cand for p in morph.parses(cand)):
                    return cand
    return None


def not_a_subject(morph, verb, form: str, lemma: str) -> bool:
    """Whether no nominative reading of ``form`` can be the subject of ``verb``.

    True for a verb without a nominative subject of its own (infinitive,
    converb, participle) and for a finite verb that agrees with none of the
    readings: 1st/2nd person («не имею возможности»: возможности = nom.pl),
    another number («не имел семьи»), another gender in the past singular.
    """
    f = verb.feats
    if f.get("VerbForm") in ("Inf", "Conv", "Part"):
        return True
    if f.get("VerbForm", "Fin") != "Fin" or f.get("Mood") == "Imp":
        return False
    if f.get("Person") in ("1", "2"):
        return True
    readings = [
        p for p in morph.parses(form)
        if p.tag.POS in ("NOUN", "NPRO") and norm(p.normal_form) == lemma and "nomn" in p.tag.grammemes
    ]
    for p in readings:
        number = tag_number(p.tag)
        if f.get("Number") and number and number != f["Number"]:
            continue
        gender = {"masc": "Masc", "femn": "Fem", "neut": "Neut"}.get(str(p.tag.gender))
        if f.get("Tense") == "Past" and f.get("Number") == "Sing" and f.get("Gender") and gender and gender != f["Gender"]:
            continue
        return False  # this reading could be the subject
    return True


def noun_only(morph, word) -> bool:
    """Whether the token ``word``, which the parser tagged other than NOUN/PROPN/NUM, is a word pymorphy3
    knows only as a noun («столбики» tagged ADJ, «раскатов» and «зацепа» tagged VERB): a genitive after
    it is its dependent, and it governs no verb object."""
    if word.upos in ("NOUN", "PROPN", "NUM", "PUNCT") or not word.form.isalpha():
        return False
    low = word.form.lower()
    parses = morph.parses(low)
    return morph.word_is_known(low) and bool(parses) and all(p.tag.POS == "NOUN" for p in parses)


def not_negation(sent, ne) -> bool:
    """Whether the particle «не» (token ``ne``) is part of «не только» (not only) or of «чуть не», «едва
    не», «чуть было не» (almost), which negate nothing."""
    nxt = sent.token(ne.id + 1) if ne.id < len(sent.tokens) else None
    if nxt is not None and norm(nxt.form) == "только":
        return True
    before = [norm(sent.token(i).form) for i in range(max(1, ne.id - 2), ne.id)]
    return bool(before) and (before[-1] in ("чуть", "едва") or before[-2:] == ["чуть", "было"])


def clause_negated(sent, verb) -> bool:
    """:func:`verb_negated`, climbing a clausal subject too: «навоза применять не рекомендуется» (the
    genitive of negation reaches the object of an infinitive that is a negated predicate's subject)."""
    return verb_negated(sent, verb, clausal_subject=True)


def verb_negated(sent, verb, *, clausal_subject: bool = False) -> bool:
    """«не» before the verb, or before the verb it is the infinitive complement (with
    ``clausal_subject``, or clausal subject) of («не может найти денег»); a «не» after the verb negates
    a later word, whatever the parser hung it on.

    «не только» (not only) and «чуть не», «едва не» (almost) negate nothing («не только осмотреть
    экспозиции», «чуть не потерял»)."""
    cur = verb
    for _ in range(3):
        if cur is None:
            return False
        if any(norm(k.form) == "не" and k.id < cur.id and not not_negation(sent, k) for k in sent.children(cur)):
            return True
        if cur.base_deprel != "xcomp" and not (clausal_subject and cur.base_deprel == "csubj"):
            return False
        cur = sent.head_of(cur)
    return False


def right_before_verb(sent, tok, verb) -> bool:
    """Whether only particles and adverbs («не», «практически не») stand between ``tok`` and its verb after it."""
    if verb.id <= tok.id:
        return False
    return all(sent.token(i).upos in ("PART", "ADV") for i in range(tok.id + 1, verb.id))


def has_bare_dative(sent, verb, tok) -> bool:
    """Whether ``verb`` has a prepositionless dative nominal argument other than ``tok``
    (also one the parser hung on ``tok`` as its iobj: a noun has no indirect object)."""
    return any(
        k.id != tok.id and k.feats.get("Case") == "Dat" and k.upos in ("NOUN", "PROPN", "PRON")
        and (k.base_deprel in ("iobj", "obj", "obl") if k.head == verb.id else k.base_deprel == "iobj")
        and not sent.children(k, "case")
        for k in sent.children(verb) + sent.children(tok)
    )


def counted_genitive(sent, tok) -> bool:
    """Whether a numeral, quantity word or comparative governs ``tok`` («несколько видов», «столько
    детей», «более половины»), as its dependent or as its head."""
    head = sent.head_of(tok)
    return any(k.base_deprel == "nummod" or genitive_governor_word(k) for k in sent.children(tok)) or (
        head is not None and genitive_governor_word(head))


def after_stray_modifier(sent, tok, morph) -> bool:
    """True when the word just before ``tok`` is a declined adjective, determiner or participle.

    Such a word almost always modifies ``tok`` even when the parser attached
    it elsewhere; re-casing ``tok`` would then break agreement too. Not when
    the word has no reading in ``tok``'s case (a noun tagged ADJ: «помахал
    Лелику хвостом»).
    """
    if tok.id == 1:
        return False
    prev = sent.token(tok.id - 1)
    if norm(prev.form) in INVARIANT_DET or norm(prev.form) in QUANTIFIERS:
        return False  # a quantity word governs, it does not agree («много жизней»)
    declined = prev.upos in ("ADJ", "DET", "NUM") or prev.feats.get("VerbForm") == "Part"
    return declined and "Case" in prev.feats and not (
        (prev.feats["Case"] != tok.feats.get("Case") or prev.form[:1].isupper()) and cannot_agree(morph, prev, tok))


def subject_slot(sent, tok, pronoun: str) -> bool:
    """Whether the 3rd person nominative ``pronoun`` put in place of ``tok`` could be the subject of a
    finite verb or short form of the sentence: one in its person, number (and, singular past, gender),
    whatever subject the parser found for it («Их определения выражают» → «Они ...»; «Многие поколения
    её защищает дом» → «она защищает», with «дом» read as the object)."""
    number = "Plur" if pronoun == "они" else "Sing"
    gender = {"он": "Masc", "она": "Fem"}.get(pronoun)
    for v in sent.tokens:
        finite = v.upos in ("VERB", "AUX") and v.feats.get("VerbForm") == "Fin"
        short = v.upos == "ADJ" and v.feats.get("Variant") == "Short"
        if not (finite or short) or v.feats.get("Person") not in (None, "3") or v.feats.get("Number") != number:
            continue
        if number == "Sing" and v.feats.get("Gender") not in (None, gender):
            continue
        return True
    return False
