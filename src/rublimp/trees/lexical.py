"""Lexical tests ("pymorphy3 reads this form only as X") and closed-class word sets.

Each test looks at a word form alone, whatever the parser tagged it, and is the one definition the
paradigms and the tree repairs share. Where paradigms deliberately ask different questions, the
variants are separate functions whose names say the difference:

* **known vs guessing.** Most tests require a dictionary word (``morph.word_is_known``): pymorphy3's
  guesses for unknown words are too unreliable to retag a token. The ``*_guessing`` tests (and
  :func:`unique_verbal_reading`) accept guesses too; they are used where a wrong "yes" only widens a
  search that later checks reject (aspect's verb test, the attractors' noun test).
* **what counts as a verb.** :func:`finite_verb_only` (every reading an indicative or imperative
  finite verb), :func:`verbal_only_reading` (finite verb, short participle or short adjective, one
  number/gender/person), :func:`present_verb_only` (present/future indicative of one person and
  number), :func:`infinitive_only`.

Functions taking ``morph`` ask that analyser (a paradigm's ``ctx.morph``); the others ask
:func:`rublimp.morph.get_morph`. All are memoised on their arguments.
"""

from __future__ import annotations

import functools

from ..lexicon import normalize  # noqa: F401  (the normal form of the closed-class sets below)
from ..morph import OC2UD, get_morph

__all__ = [
    "normalize",
    "NAME_TAGS",
    "PROPER_TAGS",
    "GENITIVE_PERSONAL_FORMS",
    "PERSONAL_PRONOUNS",
    "KTO_PRONOUNS",
    "WH_WORDS",
    "QUANT_WORDS",
    "QUANTITY_NOUNS",
    "VERBAL_POS",
    "VERB_FORM_POS",
    "is_known",
    "finite_verb_only",
    "verbal_only_reading",
    "unique_verbal_reading",
    "present_verb_only",
    "infinitive_only",
    "reads_only_as",
    "verb_only_guessing",
    "long_form_only",
    "verb_form_only",
    "noun_only_guessing",
    "common_noun_only",
    "one_number",
    "one_gender",
    "is_common_gender_tag",
    "fixed_gender_common_noun",
    "indeclinable_neuter",
    "name_gender_of_form",
    "long_form_only_guessing",
    "common_noun_gender",
]


# -- closed-class sets (written in :func:`rublimp.lexicon.normalize`d form) ---------------------
#: pymorphy3 grammemes of proper names and abbreviations
NAME_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init"})
#: :data:`NAME_TAGS` and indeclinables (``Fixd``): words whose gender a predicate cannot be checked against
PROPER_TAGS = NAME_TAGS | {"Fixd"}
#: «его», «её», «их» (normalised): genitive/accusative personal pronouns and invariant possessives
GENITIVE_PERSONAL_FORMS = frozenset({"его", "ее", "их"})
#: lemmas of the personal pronouns
PERSONAL_PRONOUNS = frozenset({"я", "ты", "он", "она", "оно", "мы", "вы", "они"})
#: «кто» and its compounds: singular whatever they refer to, gender from the referent
KTO_PRONOUNS = frozenset({"кто", "никто", "некто", "кто-то", "кто-нибудь", "кто-либо", "кое-кто"})
#: question and relative words that open a clause
WH_WORDS = frozenset({"что", "какой", "каков", "чей", "куда", "где", "откуда", "когда", "сколько", "который", "кто"})
#: quantifier words that make a subject "quantified" (много людей пришло / пришли)
QUANT_WORDS = frozenset({"много", "немного", "мало", "немало", "несколько", "сколько", "столько", "сколько-то"})
#: collective quantity nouns: plural agreement is acceptable with them («большинство студентов сдали»)
QUANTITY_NOUNS = frozenset(
    {
        "большинство", "меньшинство", "ряд", "множество", "часть", "половина", "треть", "четверть",
        "масса", "сотня", "тысяча", "миллион", "миллиард", "десяток", "дюжина", "пара", "куча", "уйма",
        "группа", "количество", "число", "сотни", "тысячи",
    }
)
#: pymorphy3 parts of speech of a form that agrees as a predicate: finite verb, short participle, short adjective
VERBAL_POS = frozenset({"VERB", "PRTS", "ADJS"})
#: pymorphy3 parts of speech of a verb form: finite verb, infinitive, full and short participle, gerund
VERB_FORM_POS = frozenset({"VERB", "INFN", "PRTF", "PRTS", "GRND"})


# -- lexical tests -----------------------------------------------------------------------------
@functools.lru_cache(maxsize=100_000)
def is_known(form: str) -> bool:
    """pymorphy3's dictionary has ``form`` (no guess needed)."""
    return get_morph().word_is_known(form)


@functools.lru_cache(maxsize=50_000)
def finite_verb_only(morph, form: str):
    """pymorphy3's first parse of a known ``form`` whose every analysis is a finite verb, else None
    (so no noun, adjective or adverb reading exists: not «обману», also обман.Dat)."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "VERB" for p in parses):
        return None
    return parses[0]


@functools.lru_cache(maxsize=100_000)
def verbal_only_reading(form: str) -> tuple[str, str, dict[str, str]] | None:
    """(UPOS, lemma, UD features) of a known form whose every non-imperative reading is verbal with one number/gender/person.

    Verbal: an indicative finite verb, a short participle or a short
    adjective. The features are those of pymorphy3's best reading.
    """
    morph = get_morph()
    if not morph.word_is_known(form):
        return None
    parses = [p for p in morph.parses(form) if "impr" not in p.tag.grammemes]
    if not parses or any(p.tag.POS not in VERBAL_POS or (p.tag.POS == "VERB" and "indc" not in p.tag.grammemes) for p in parses):
        return None
    if len({(p.tag.number, p.tag.gender, p.tag.person) for p in parses}) != 1:
        return None
    best = parses[0]
    tag = best.tag
    feats: dict[str, str] = {}
    for oc in (tag.aspect, tag.gender, tag.mood, tag.number, tag.person, tag.tense, tag.voice):
        if oc in OC2UD:
            feats[OC2UD[oc][0]] = OC2UD[oc][1]
    if tag.POS == "VERB":
        feats["VerbForm"] = "Fin"
        return "VERB", best.normal_form, feats
    feats["Variant"] = "Short"
    if tag.POS == "PRTS":
        feats["VerbForm"] = "Part"
        return "VERB", best.normal_form, feats
    return "ADJ", best.normal_form, feats


@functools.lru_cache(maxsize=100_000)
def unique_verbal_reading(form: str) -> tuple | None:
    """(number, gender, person, tense) shared by every non-imperative verbal reading of ``form``, or None.

    Guesses count, and non-verbal readings are ignored: this only asks which features a form
    already taken as the predicate carries."""
    parses = [p for p in get_morph().parses(form) if p.tag.POS in VERBAL_POS and "impr" not in p.tag.grammemes]
    readings = {(p.tag.number, p.tag.gender, p.tag.person, p.tag.tense) for p in parses}
    if len(readings) != 1:
        return None
    reading = next(iter(readings))
    return reading if reading[0] is not None else None


@functools.lru_cache(maxsize=50_000)
def present_verb_only(morph, form: str) -> dict[str, str] | None:
    """UD features of ``form`` if pymorphy3 knows it and reads it only as a present or future
    indicative verb of one person and number."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "VERB" for p in parses):
        return None
    tenses = {p.tag.tense for p in parses}
    persons, numbers, moods = {p.tag.person for p in parses}, {p.tag.number for p in parses}, {p.tag.mood for p in parses}
    if len(tenses) != 1 or not tenses <= {"pres", "futr"} or moods != {"indc"} or len(persons) != 1 or len(numbers) != 1:
        return None
    person, number = persons.pop(), numbers.pop()
    if person is None or number is None:
        return None
    return {
        "VerbForm": "Fin", "Mood": "Ind", "Tense": "Pres" if tenses.pop() == "pres" else "Fut",
        "Person": person[0], "Number": "Sing" if number == "sing" else "Plur",
    }


@functools.lru_cache(maxsize=100_000)
def infinitive_only(form: str) -> str | None:
    """The aspect («perf»/«impf») of a known form that pymorphy3 reads only as an infinitive of that aspect, else None."""
    morph = get_morph()
    if not form.endswith(("ть", "ти", "чь", "ться", "тись", "чься")) or not morph.word_is_known(form):
        return None
    parses = morph.parses(form)
    if not parses or any(p.tag.POS != "INFN" for p in parses):
        return None
    aspects = {p.tag.aspect for p in parses}
    return aspects.pop() if len(aspects) == 1 and None not in aspects else None


def reads_only_as(morph, form: str, pos: str, grammeme: str | None = None) -> bool:
    """pymorphy3 knows ``form`` and reads it only as ``pos`` (with ``grammeme``, if given)."""
    parses = morph.parses(form)
    return bool(parses) and morph.word_is_known(form) and all(
        p.tag.POS == pos and (grammeme is None or grammeme in p.tag) for p in parses
    )


def verb_only_guessing(morph, form: str) -> bool:
    """Every pymorphy3 reading of ``form``, guesses for unknown words included, is a verb or infinitive."""
    parses = morph.parses(form)
    return bool(parses) and all(p.tag.POS in ("VERB", "INFN") for p in parses)


@functools.lru_cache(maxsize=100_000)
def long_form_only(form: str) -> bool:
    """Whether pymorphy3 reads a known ``form`` only as a full (long) adjective or participle."""
    parses = get_morph().parses(form)
    return is_known(form.lower()) and bool(parses) and all(p.tag.POS in ("ADJF", "PRTF") for p in parses)


@functools.lru_cache(maxsize=100_000)
def verb_form_only(form: str) -> bool:
    """Whether pymorphy3 reads a known ``form`` only as a verb form (:data:`VERB_FORM_POS`: a gerund,
    participle, infinitive or finite verb)."""
    parses = get_morph().parses(form)
    return is_known(form.lower()) and bool(parses) and all(p.tag.POS in VERB_FORM_POS for p in parses)


@functools.lru_cache(maxsize=100_000)
def noun_only_guessing(form: str) -> bool:
    """Every pymorphy3 reading of ``form`` (guesses for unknown words included) is a noun."""
    parses = get_morph().parses(form)
    return bool(parses) and all(p.tag.POS == "NOUN" for p in parses)


@functools.lru_cache(maxsize=100_000)
def common_noun_only(form: str) -> bool:
    """A known form whose every pymorphy3 reading is a common noun (no name, surname, place, abbreviation …)."""
    if not is_known(form.lower()):
        return False
    parses = get_morph().parses(form)
    return bool(parses) and all(p.tag.POS == "NOUN" and not PROPER_TAGS & set(p.tag.grammemes) for p in parses)


@functools.lru_cache(maxsize=100_000)
def one_number(form: str) -> str | None:
    """The number («sing»/«plur») of every noun/pronoun reading of a known ``form``, or None when they differ."""
    if not is_known(form.lower()):
        return None
    numbers = {p.tag.number for p in get_morph().parses(form) if p.tag.POS in ("NOUN", "NPRO")}
    return next(iter(numbers)) if len(numbers) == 1 and None not in numbers else None


@functools.lru_cache(maxsize=100_000)
def one_gender(form: str) -> str | None:
    """The UD gender of a known ``form`` whose every noun/pronoun reading is singular of one gender («Креза», «кого-то»), else None."""
    if one_number(form) != "sing":
        return None
    genders = {p.tag.gender for p in get_morph().parses(form) if p.tag.POS in ("NOUN", "NPRO")}
    g = next(iter(genders)) if len(genders) == 1 else None
    return OC2UD[g][1] if g in ("masc", "femn", "neut") else None


def is_common_gender_tag(tag) -> bool:
    return any(g.lower() == "ms-f" for g in tag.grammemes)


@functools.lru_cache(maxsize=100_000)
def fixed_gender_common_noun(form: str) -> bool:
    """A known form that pymorphy3 reads only as an inanimate common noun of one gender («Эра», «Система», «Союз»).

    No reading of the form is a name, surname, patronymic, place, organisation
    or abbreviation, none is indeclinable or of common gender, and the
    nominative readings share one gender: at the start of a sentence the
    tagger took a capitalised common noun for a name, and its gender is fixed
    («Эра закончилась» → «Эра закончился»). Names («Роза», «Лев») keep their
    referent's gender, and so does such a word inside the sentence, where it is
    usually a name («когда Кейс была заменена»).
    """
    if form.isupper() or not is_known(form.lower()):
        return False
    parses = get_morph().parses(form)
    nouns = [p for p in parses if p.tag.POS == "NOUN"]
    if not nouns or any(PROPER_TAGS & set(p.tag.grammemes) or is_common_gender_tag(p.tag) for p in parses):
        return False
    nominative = [p for p in nouns if "nomn" in p.tag.grammemes]
    genders = {p.tag.gender for p in nominative}
    return bool(nominative) and len(genders) == 1 and None not in genders and all("inan" in p.tag.grammemes for p in nominative)


@functools.lru_cache(maxsize=100_000)
def indeclinable_neuter(form: str) -> bool:
    """An indeclinable common noun that pymorphy3 reads only as an inanimate neuter («радио», «ателье», «кафе»).

    Its gender is fixed (a masculine or feminine predicate is an error), unlike
    that of indeclinable names and abbreviations, or of «кофе» (masculine or neuter).
    """
    parses = [p for p in get_morph().parses(form) if p.tag.POS == "NOUN"]
    return bool(parses) and all(
        "Fixd" in p.tag.grammemes and "inan" in p.tag.grammemes and p.tag.gender == "neut"
        and not (PROPER_TAGS - {"Fixd"}) & set(p.tag.grammemes)
        for p in parses
    )


_HARD_CONSONANT_LETTERS = frozenset("бвгджзклмнпрстфхцчшщ")


@functools.lru_cache(maxsize=100_000)
def common_noun_gender(form: str) -> str | None:
    """The UD gender of a lower-case common noun subject form: :func:`one_gender` for a known form;
    «Masc» for an unknown Cyrillic word ending in a hard consonant letter («астролёт», «квадрокоптер»:
    a zero-ending nominative is masculine, whatever the tagger guessed); else None."""
    if not form or not form.islower():
        return None
    if is_known(form):
        return one_gender(form)
    low = normalize(form)
    if all("а" <= c <= "я" for c in low) and low[-1] in _HARD_CONSONANT_LETTERS and len(low) >= 3:
        return "Masc"
    return None


@functools.lru_cache(maxsize=100_000)
def name_gender_of_form(form: str) -> str | None:
    """The UD gender («Masc»/«Fem») of a known form whose every nominative singular noun reading is a
    declinable first name, surname or patronymic of that one gender and not of common gender, else None."""
    if not is_known(form.lower()):
        return None
    genders = set()
    for p in get_morph().parses(form):
        if p.tag.POS != "NOUN" or "nomn" not in p.tag.grammemes or "sing" not in p.tag.grammemes:
            continue
        gram = set(p.tag.grammemes)
        if not gram & {"Name", "Surn", "Patr"} or "Fixd" in gram or is_common_gender_tag(p.tag):
            return None  # «Шевченко», «Саша»: a name either sex may bear
        genders.add(p.tag.gender)
    if len(genders) != 1:
        return None
    g = next(iter(genders))
    return OC2UD[g][1] if g in ("masc", "femn") else None


@functools.lru_cache(maxsize=50_000)
def long_form_only_guessing(form: str) -> bool:
    """Every pymorphy3 reading of ``form`` (guesses for unknown words included) is a full adjective or participle."""
    parses = get_morph().parses(form)
    return bool(parses) and all(p.tag.POS in ("ADJF", "PRTF") for p in parses)
