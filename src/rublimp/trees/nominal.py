"""Shared nominal morphology: agreement readings, re-inflection and the nominal checks every
agreement paradigm (noun phrase, anaphor, floating quantifier, subject–predicate) uses.

* :class:`Agr` is the agreement features (case, number, genders, animacy) of one reading;
  :func:`agr_from_tag` reads them off a pymorphy3 tag, :func:`ud_agr` off the parser's feats, and
  :func:`adjective_readings` / :func:`noun_readings` give every reading of a form as a form of one
  lexeme. :func:`agrees` says whether a modifier reading agrees with a head reading.
* :func:`inflect_agreeing` re-inflects an adjective-like word for (case, number, gender, animacy),
  refusing a form of another degree (:func:`same_stem`); :func:`renumber_noun` puts a noun in the
  other number; :func:`number_targets`, :func:`gender_targets` (RuBLiMP's gender order,
  :data:`GENDER_ORDER`) and :func:`case_targets` enumerate the features of the new form.
* :func:`has_common_gender` says whether a noun's gender is fixed by the word (common-gender nouns,
  the job/title list :data:`COMMON_GENDER_FILE` read by :func:`load_common_gender_nouns`,
  indeclinables, unknown proper nouns); :func:`head_number_blocked` whether a noun's number takes
  part in an agreement relation other than its modifiers'.
* :func:`norm` (lower case, ё as е) and :func:`spell_yo` (write ё only where the sentence does).
* :func:`retag_nouns`: a noun the parser tagged VERB/ADJ/ADV, and :func:`retag_adjectives`: an
  adjective it tagged VERB, where pymorphy3 leaves no doubt (fixes of
  :data:`rublimp.trees.normalise.FIXES`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import UD2OC, Analysis, Morph
from .features import agrees

__all__ = [
    "retag_adjectives",
    "retag_nouns",
    "ADJ_POS",
    "CASES",
    "COMMON_GENDER_FILE",
    "CYRILLIC_WORD",
    "DOMINANT_CASE",
    "GENDERS",
    "GENDER_ORDER",
    "MASS_NOUNS",
    "PLURAL_NOUNS",
    "MAX_ENDING",
    "QUANTITY_LEMMAS",
    "UNRELIABLE_HEAD_TAGS",
    "Agr",
    "adjective_readings",
    "agr_from_tag",
    "agrees",
    "case_settled",
    "settled_case",
    "case_targets",
    "gender_targets",
    "has_common_gender",
    "head_number_blocked",
    "inflect_agreeing",
    "load_common_gender_nouns",
    "matches_ud",
    "norm",
    "noun_readings",
    "number_targets",
    "partitive_plural",
    "mass_noun",
    "renumber_noun",
    "same_stem",
    "spell_yo",
    "ud_agr",
    "unlabelled_subject",
]

#: the job/title nouns whose gender follows the referent («врач пришла»), under ``resources/``
COMMON_GENDER_FILE = "common_gender_nouns.tsv"
CASES: tuple[str, ...] = ("Nom", "Gen", "Dat", "Acc", "Ins", "Loc")
GENDERS: tuple[str, ...] = ("Masc", "Fem", "Neut")
#: pymorphy3 parts of speech of words that agree like adjectives (full forms only)
ADJ_POS = frozenset({"ADJF", "PRTF"})
_OC_CASE = {
    "nomn": "Nom", "gent": "Gen", "gen1": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc", "acc2": "Acc",
    "ablt": "Ins", "loct": "Loc", "loc1": "Loc", "loc2": "Loc", "voct": "Voc",
}
_OC_GENDER = {"masc": "Masc", "femn": "Fem", "neut": "Neut"}
# adjective endings are at most three letters long (-ого, -ому, -ыми)
MAX_ENDING = 3
#: a Cyrillic word, hyphenated parts allowed (no digits or Latin letters)
CYRILLIC_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*", re.IGNORECASE)
# indeclinable, abbreviation and initial tags: no reliable agreement features on the head
UNRELIABLE_HEAD_TAGS = frozenset({"Fixd", "Abbr", "Init"})


@functools.lru_cache(maxsize=8)
def load_common_gender_nouns(path: str | Path) -> frozenset[str]:
    """Lemmas (lower case, ё→е) from a TSV with a ``lemma`` column; ``#`` lines are comments."""
    # read by hand rather than with polars.read_csv: a malformed row must be
    # reported with its exact line number, which polars does not give
    path = Path(path)
    if not path.exists():
        raise InputError("common-gender noun list not found", path)
    out: set[str] = set()
    header: list[str] | None = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                if "lemma" not in header:
                    raise InputError("header must have a 'lemma' column", path, lineno)
                continue
            if len(cols) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found {len(cols)}", path, lineno)
            lemma = cols[header.index("lemma")].strip().lower().replace("ё", "е")
            if not lemma:
                raise InputError("empty lemma", path, lineno)
            out.add(lemma)
    if header is None:
        raise InputError("no header line", path)
    return frozenset(out)


@dataclass(frozen=True)
class Agr:
    """The agreement features of one reading: UD case, number, possible genders and animacy.

    ``genders`` is empty when the reading has no gender (plural forms,
    pluralia tantum, 1st/2nd person pronouns) and holds two values for
    common-gender nouns (pymorphy3 ``ms-f``); ``animacy`` is None when the
    reading does not mark it.
    """

    case: str | None
    number: str | None
    genders: frozenset[str] = frozenset()
    animacy: str | None = None

    @property
    def gender(self) -> str | None:
        """The single gender, or None when there is none or more than one."""
        return next(iter(self.genders)) if len(self.genders) == 1 else None


def agr_from_tag(tag) -> Agr:
    """The :class:`Agr` of a pymorphy3 tag."""
    grammemes = tag.grammemes
    case = next((_OC_CASE[g] for g in grammemes if g in _OC_CASE), None)
    number = "Sing" if "sing" in grammemes else "Plur" if "plur" in grammemes else None
    if "ms-f" in grammemes:
        genders = frozenset({"Masc", "Fem"})
    else:
        genders = frozenset(_OC_GENDER[g] for g in grammemes if g in _OC_GENDER)
    animacy = "Anim" if "anim" in grammemes else "Inan" if "inan" in grammemes else None
    return Agr(case, number, genders, animacy)


def adjective_readings(morph: Morph, form: str, lemma: str, pos: Iterable[str] = ADJ_POS) -> frozenset[Agr]:
    """Every agreement reading of ``form`` as a form of the adjective-like lexeme ``lemma``."""
    return _readings(morph, form, lemma, frozenset(pos))


def noun_readings(morph: Morph, form: str, lemma: str, pos: Iterable[str] = ("NOUN", "NPRO")) -> frozenset[Agr]:
    """Every agreement reading of ``form`` as a form of the nominal lexeme ``lemma``."""
    return _readings(morph, form, lemma, frozenset(pos))


@functools.lru_cache(maxsize=1 << 16)
def _readings(morph: Morph, form: str, lemma: str, pos: frozenset[str]) -> frozenset[Agr]:
    return frozenset(agr_from_tag(p.tag) for p in morph.readings(form, lemma, pos))


@functools.lru_cache(maxsize=200_000)
def inflect_agreeing(morph: Morph, parse: object, case: str, number: str, gender: str | None, animacy: str | None) -> str | None:
    """The form of an adjective-like word agreeing with (case, number, gender, animacy), or None.

    Gender is required in the singular; animacy is required where Russian
    adjectives mark it (accusative masculine singular and plural) and ignored
    elsewhere. The result must keep the part of speech and carry exactly the
    requested grammemes. Memoised on the arguments (the noun-phrase paradigms ask the same
    modifier for the same agreement over and over).
    """
    if case not in CASES or number not in UD2OC["Number"]:
        return None
    want = {UD2OC["Case"][case], UD2OC["Number"][number]}
    if number == "Sing":
        if gender not in GENDERS:
            return None
        want.add(UD2OC["Gender"][gender])
    if case == "Acc" and (number == "Plur" or gender == "Masc"):
        if animacy not in ("Anim", "Inan"):
            return None
        want.add(UD2OC["Animacy"][animacy])
    word = _inflect_cached(parse, frozenset(want))
    if word is None:
        return None
    res = next((p for p in morph.parses(word) if p.normal_form == parse.normal_form and want <= set(p.tag.grammemes)), None)
    if res is None or res.tag.POS != parse.tag.POS:
        return None
    if not same_stem(parse.word, word):
        return None  # another degree form of the lexeme: «высшую» → «высочайший»
    return word


#: particles written after a hyphen that inflection leaves in place («какой-то», «собственный-то»)
HYPHEN_PARTICLES = ("-нибудь", "-либо", "-таки", "-то", "-де", "-ка")


def same_stem(old: str, new: str, max_ending: int = MAX_ENDING) -> bool:
    """Whether two forms differ only in an ending of at most ``max_ending`` letters.

    pymorphy3 keeps all degree forms in one adjective lexeme (высокий, высший,
    высочайший, наивысший), so an inflection may switch to a different word.
    A particle after a hyphen that both forms end in is not part of the ending
    («какой-то» → «какая-то», «собственного-то» → «собственному-то»).
    """
    old, new = norm(old), norm(new)
    for particle in HYPHEN_PARTICLES:
        if old.endswith(particle) and new.endswith(particle):
            old, new = old[: -len(particle)], new[: -len(particle)]
            break
    common = 0
    for a, b in zip(old, new):
        if a != b:
            break
        common += 1
    return len(old) - common <= max_ending and len(new) - common <= max_ending


@functools.lru_cache(maxsize=200_000)
def _inflect_cached(parse: object, want: frozenset[str]) -> str | None:
    """pymorphy3's inflection, memoised: it rebuilds the whole lexeme on every call, and the
    same adjectives recur constantly in a corpus (parses are cached by ``Morph``, so equal
    words give the same parse objects)."""
    try:
        res = parse.inflect(set(want))
    except (ValueError, KeyError):
        return None
    return None if res is None else res.word


def has_common_gender(morph: Morph, tok: Token, analysis: Analysis | None, common: frozenset[str]) -> bool:
    """Whether a noun's gender is not fixed by the word: no gender perturbation then.

    True for common-gender nouns (pymorphy3 ``ms-f``: Саша, сирота), the job and
    title nouns of ``common`` (врач, директор — «врач пришла»), indeclinable and
    abbreviated nouns, and proper nouns missing from pymorphy3's dictionary
    (their gender is only guessed from the ending: «Юкико», «Смит»).
    """
    lemma = norm(analysis.lemma if analysis is not None else tok.lemma)
    if lemma in common or norm(tok.lemma) in common:
        return True
    if analysis is None or "ms-f" in analysis.tag.grammemes or UNRELIABLE_HEAD_TAGS & analysis.tag.grammemes:
        return True
    return tok.upos == "PROPN" and not morph.word_is_known(tok.form) and not _russian_surname(tok, analysis)


# nominative endings of Russian surnames whose other gender has another form (Лаврушин / Лаврушина)
_SURNAME_ENDINGS = {"Masc": ("ов", "ев", "ёв", "ин", "ын"), "Fem": ("ова", "ева", "ёва", "ина", "ына")}


def _russian_surname(tok: Token, analysis: Analysis) -> bool:
    """A surname pymorphy3 does not know but reads as one (``Surn``) in the nominative with a
    gender-specific ending: its gender is fixed by the form («Лаврушин», «Котова»)."""
    gender = tok.feats.get("Gender")
    if "Surn" not in analysis.tag.grammemes or gender not in _SURNAME_ENDINGS:
        return False
    if analysis.tag.case != "nomn" or agr_from_tag(analysis.tag).genders != {gender}:
        return False
    return norm(tok.form).endswith(tuple(e.replace("ё", "е") for e in _SURNAME_ENDINGS[gender]))


def norm(s: str) -> str:
    """Lower case with ё read as е: the key words are compared by."""
    return s.lower().replace("ё", "е")


def spell_yo(sent: Sentence, word: str) -> str:
    """Write ё only when the sentence itself does (most Russian text writes е)."""
    return word if "ё" in sent.text.lower() else word.replace("ё", "е")


def ud_agr(tok: Token) -> Agr:
    """The agreement features the parser assigned to ``tok``."""
    gender = tok.feats.get("Gender")
    return Agr(
        tok.feats.get("Case"),
        tok.feats.get("Number"),
        frozenset({gender}) if gender in GENDERS else frozenset(),
        tok.feats.get("Animacy"),
    )


def number_targets(a: Agr) -> Iterator[tuple[str, Agr]]:
    """(target number, features of the new form) for a word that agrees with ``a``.

    Singular becomes plural (no gender); plural becomes singular only where
    ``a`` knows the gender to give it.
    """
    if a.number == "Sing":
        yield "Plur", Agr(a.case, "Plur", frozenset(), a.animacy)
    elif a.gender is not None:
        yield "Sing", Agr(a.case, "Sing", a.genders, a.animacy)


#: noun relations whose number another word also agrees with, or which share it with a neighbour
_HEAD_NUMBER_BLOCKING_RELS = frozenset({"conj", "appos", "flat", "fixed", "compound", "nummod", "orphan", "list"})
#: parts of speech that a noun cannot be coordinated with (a ``conj`` to one is a parser attachment)
_NON_NOMINAL_UPOS = frozenset({"VERB", "AUX", "ADV", "CCONJ", "SCONJ", "ADP", "PART", "INTJ", "PUNCT"})
#: relative words through which a relative clause agrees with its noun
_AGREEING_RELATIVES = frozenset({"который", "что", "кто"})


def _relative_words(sent: Sentence, clause: Token, max_depth: int = 4) -> list[Token]:
    """The agreeing relative words («который», «что», «кто») inside the clause headed by ``clause``
    (at most ``max_depth`` links below it, before any nested clause)."""
    out = []
    for t in sent.tokens:
        if t.upos not in ("PRON", "DET", "ADJ") or (
                norm(t.lemma) not in _AGREEING_RELATIVES and not norm(t.form).startswith("котор")):
            continue
        node = t
        for _ in range(max_depth):
            if node.head == 0:
                break
            node = sent.head_of(node)
            if node.id == clause.id:
                out.append(t)
                break
            if node.base_deprel in ("acl", "advcl", "ccomp", "csubj", "parataxis"):
                break
    return out


#: quantity words that fix the number of the noun they quantify («много книг», «две книги»)
QUANTITY_LEMMAS = frozenset(
    {"много", "мало", "немного", "немало", "несколько", "сколько", "столько", "пара", "множество", "большинство",
     "меньшинство", "масса", "ряд", "тысяча", "миллион", "сотня", "десяток", "половина", "часть"}
)


#: prepositions of the partitive construction («каждый из участников», «один среди многих»)
PARTITIVE_PREPOSITIONS = frozenset({"из", "среди"})
#: words that head a partitive construction besides numerals and quantity words
PARTITIVE_HEADS = frozenset(
    {"каждый", "один", "любой", "некоторый", "многие", "многий", "кто", "кто-то", "кто-нибудь", "никто",
     "ни один", "какой", "какой-то", "который", "большинство", "часть", "половина", "треть", "четверть",
     "остальной", "лучший", "худший", "первый", "последний", "единственный"}
)


def partitive_plural(sent: Sentence, noun: Token) -> bool:
    """Whether ``noun`` is the plural set of a partitive construction («каждый из участников»,
    «одна из причин», «лучший среди игроков»): its number is fixed by the construction (a
    singular there is an error of its own). The noun hangs on the partitive word (a numeral,
    pronoun, determiner, quantity word, superlative or ordinal) through «из»/«среди»."""
    if not any(k.base_deprel == "case" and norm(k.form) in PARTITIVE_PREPOSITIONS for k in sent.children(noun)):
        return False
    parent = sent.head_of(noun)
    if parent is None:
        return False
    lemma = norm(parent.lemma)
    return (parent.upos in ("NUM", "DET", "PRON") or lemma in PARTITIVE_HEADS or lemma in QUANTITY_LEMMAS
            or parent.feats.get("Degree") == "Sup" or parent.feats.get("NumType") == "Ord")


def unlabelled_subject(sent: Sentence, noun: Token, morph: Morph) -> bool:
    """Parser repair: a noun labelled object of a finite verb that is the verb's subject — its form
    has no accusative reading in its number but a nominative one, the verb agrees with it in number
    and has no subject of its own («Таяние измеряют гляциологи[obj]»: an animate plural object
    would be «гляциологов»)."""
    if noun.base_deprel not in ("obj", "iobj") or noun.upos != "NOUN":
        return False
    verb = sent.head_of(noun)
    if verb is None or verb.upos not in ("VERB", "AUX") or verb.feats.get("VerbForm") != "Fin":
        return False
    number = noun.feats.get("Number")
    if number is None or verb.feats.get("Number") != number or verb.feats.get("Person") in ("1", "2"):
        return False
    if any(k.base_deprel in ("nsubj", "csubj") for k in sent.children(verb)):
        return False
    readings = [agr_from_tag(p.tag) for p in morph.parses(noun.form) if p.tag.POS == "NOUN"]
    mine = [r for r in readings if r.number == number]
    return any(r.case == "Nom" for r in mine) and not any(r.case == "Acc" for r in mine)


def _unlinked_conjunct(sent: Sentence, head: Token, window: int = 6) -> bool:
    """Whether ``head`` has a coordinating conjunction before it (``cc``) and a nominal in its case
    stands before that conjunction, within ``window`` words and no verb between: a later conjunct
    the parser attached elsewhere («лесами и старыми болотами[nmod]»). «по-русски, но на диалекте»
    has no such nominal."""
    ccs = [k for k in sent.children(head) if k.base_deprel == "cc" and k.id < head.id]
    case = head.feats.get("Case")
    if not ccs or case is None:
        return False
    for i in range(ccs[0].id - 1, max(0, ccs[0].id - window - 1), -1):
        t = sent.token(i)
        if t.upos in ("VERB", "AUX"):
            return False
        if t.upos in ("NOUN", "PROPN", "PRON") and t.feats.get("Case") == case:
            return True
    return False


def head_number_blocked(sent: Sentence, head: Token, *, relative_clause: Token | None = None,
                        later_conjunct: bool = False, other_relatives: bool = False,
                        subject: bool = True, linked: bool = False, morph: Morph | None = None,
                        relative_host: bool = False) -> bool:
    """Whether changing the number of the noun ``head`` would break more than its modifiers' agreement.

    RuBLiMP never alters a head noun that enters another agreement relation:
    a subject whose predicate shows number, the antecedent of a relative
    pronoun (``acl:relcl``), a conjunct or apposition, or a noun counted by
    a numeral or quantity word (``relative_clause``: the one relative
    clause whose pronoun is being checked separately, by the anaphor
    paradigm). (A predicate nominal may change: «было
    редкой наградой» → «редкой наградами», as in RuBLiMP.) With ``later_conjunct``
    a non-first conjunct may change (the caller has a modifier on it whose agreement breaks:
    «а не самой коллекцией» → «а не самой коллекциями», as in RuBLiMP's floating-quantifier pairs).

    Parser repairs: an ``acl:relcl`` with no relative word that agrees («который», «что», «кто»)
    is a clause the parser hung on the noun, not a relative clause on it («мимо колеса, на котором
    виднелся труп, а … смотрела голова»: «смотрела» is no relative clause of «колеса»); a ``conj``
    or ``appos`` link to a verb, adverb or conjunction is no coordination of nominals («по-чадорийски,
    но на жаргоне»). With ``other_relatives`` another relative clause whose «который» agrees with
    the noun does not block either (the anaphor paradigm: both pronouns then disagree, as in
    RuBLiMP's «стола, за которым … и перед которым» → «столов»). Without ``subject`` a subject
    may change although its predicate agrees with it (the floating-quantifier paradigm, as RuBLiMP:
    «сам музыкант должен» → «сам музыканты должен»). With ``linked`` a conjunct or an apposition
    may change whatever it hangs on — its own link and the word above it (a quantity word heading
    the coordination: «часть сил и сам хан») do not block; its own dependents still do (the
    floating-quantifier paradigm, whose «сам» on the noun then disagrees: «представители — сами
    блогеры» → «сами блогер», as in RuBLiMP).

    Also blocked (validity read, issue 18): the plural set of a partitive («каждый из
    участников», :func:`partitive_plural`); with ``subject`` and ``morph``, a subject the parser
    labelled object (:func:`unlabelled_subject`). With ``relative_host`` (the antecedent of
    «который», whose unchanged pronoun must stay without a host): a predicate nominal (it has an
    ``nsubj`` or ``cop``: «пчела — насекомые, которое», «они были помором, которые» also break the
    copular link) and a later
    conjunct the parser did not link («лесами и болотом, которые»: the pronoun takes the
    coordination).
    """
    if subject and head.base_deprel in ("nsubj", "csubj") and head.feats.get("Case") != "Gen":
        # (a genitive subject — «самого закона нет» — does not agree with its predicate)
        pred = sent.head_of(head)
        if pred is None:
            return True
        preds = [pred] + [k for k in sent.children(pred) if k.base_deprel in ("cop", "aux")]
        if any(p.upos in ("VERB", "AUX", "ADJ", "DET") and ("Number" in p.feats or p.feats.get("VerbForm") == "Fin")
               for p in preds):
            return True
    if subject and morph is not None and unlabelled_subject(sent, head, morph):
        return True
    if relative_host and any(k.base_deprel in ("nsubj", "cop") for k in sent.children(head)):
        return True  # a predicate nominal: its number goes with the subject's («пчела — насекомое», «были поморами»)
    if relative_host and _unlinked_conjunct(sent, head):
        return True  # a conjunct the parser did not link as one («лесами и болотами[nmod], которые»)
    own_link = linked and head.base_deprel in ("conj", "appos")
    if head.base_deprel in _HEAD_NUMBER_BLOCKING_RELS and not own_link \
            and not (later_conjunct and head.base_deprel == "conj"):
        other = sent.head_of(head)
        if not (head.base_deprel in ("conj", "appos") and other is not None and other.upos in _NON_NOMINAL_UPOS):
            return True
    for kid in sent.children(head):
        if kid.base_deprel in _HEAD_NUMBER_BLOCKING_RELS:
            if not (kid.base_deprel in ("conj", "appos") and kid.upos in _NON_NOMINAL_UPOS):
                return True
        if kid.deprel == "acl:relcl" and (relative_clause is None or kid.id != relative_clause.id):
            relatives = _relative_words(sent, kid)
            if relatives and not (other_relatives and all(norm(r.lemma) == "который" for r in relatives)):
                return True
        if norm(kid.lemma) in QUANTITY_LEMMAS or kid.upos == "NUM":
            return True
    parent = sent.head_of(head)
    if parent is not None and not own_link and (norm(parent.lemma) in QUANTITY_LEMMAS or parent.upos == "NUM"):
        return True
    if partitive_plural(sent, head):
        return True
    prev = sent.token(head.id - 1) if head.id > 1 else None
    return prev is not None and (prev.upos == "NUM" or norm(prev.lemma) in QUANTITY_LEMMAS)


#: nouns of mass, collective or abstract meaning that pymorphy3 does not mark ``Sgtm`` but whose
#: plural is not used (a plural of them is an error of its own, not one of agreement: «пехоты»,
#: «клади»); lemmas, ё written as е
MASS_NOUNS = frozenset(
    {
        "пехота", "кавалерия", "конница", "артиллерия", "авиация", "молодежь", "детвора", "листва", "кладь",
        "мебель", "посуда", "одежда", "обувь", "белье", "провизия", "информация", "аппаратура",
        "агентура", "клиентура", "профессура", "студенчество", "крестьянство", "дворянство",
        "духовенство", "купечество", "человечество", "население", "начальство",
        "спешка", "тишина", "темнота", "зелень", "сырье", "топливо", "золото", "серебро", "молоко", "мясо",
        "картофель", "морковь", "малина", "клубника", "смородина", "виноград", "горох", "изюм", "рис",
        "шоколад", "мед", "пыль", "грязь", "мусор", "хлам", "тряпье", "дичь", "скот",
        "рванье", "зверье", "воронье", "комарье", "офицерство", "казачество", "бедность", "нищета", "мужество",
        "храбрость", "честь", "совесть", "любовь", "ненависть", "уважение", "внимание", "здоровье", "детство",
        "юность", "старость", "молодость", "отрочество", "счастье", "горе", "хаос", "прогресс",
        "пища", "еда", "нефть", "кровь", "мука", "сметана", "творог", "гречка", "бензин", "кислород",
        "водород", "азот", "углерод", "радиация", "электричество", "промышленность", "экономика",
        "математика", "физика", "химия", "биология", "медицина", "пехотинство", "молодняк",
    }
)
#: nouns used in the plural only, whose singular pymorphy3 still lists (a singular of them is an
#: error of its own, or another word: «деньги» → «деньга»); lemmas as pymorphy3 gives them
PLURAL_NOUNS = frozenset(
    {
        "деньга", "деньги", "сливки", "дрова", "очки", "ворота", "сани", "духи", "выборы", "переговоры",
        "похороны", "каникулы", "ножницы", "брюки", "шахматы", "весы", "обои", "чернила", "сутки", "джинсы",
        "консервы", "дрожжи", "финансы", "ясли", "перила", "хлопоты", "сумерки", "будни", "вилы", "грабли",
        "щи", "макароны", "кудри", "поминки", "именины", "заморозки", "носилки", "качели", "жмурки",
    }
)
#: abstract suffixes whose nouns have no plural in ordinary use («каннибализм», «героизм»)
MASS_SUFFIXES = ("изм",)


def mass_noun(lemma: str) -> bool:
    """Whether the noun ``lemma`` is one whose plural is not in ordinary use: :data:`MASS_NOUNS`
    and the «-изм» abstracts (pymorphy3 marks only some singularia tantum ``Sgtm``)."""
    lemma = norm(lemma)
    return lemma in MASS_NOUNS or (lemma.endswith(MASS_SUFFIXES) and len(lemma) > 5)


def renumber_noun(morph: Morph, head: Token, analysis: Analysis, modifiers: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """(target number, new form) of the noun ``head`` in the other number, same case; or None.

    None for pluralia/singularia tantum (pymorphy3's ``Pltm``/``Sgtm``, :data:`PLURAL_NOUNS` and
    :func:`mass_noun`),
    indeclinable or abbreviated nouns, a form the dictionary does not know as this lexeme, a
    form that can be read in the original number in ANY case (nom. pl. «области», «бабушки»
    are also gen. sg.: the pair would read as a case error), a lemma whose lexemes disagree on
    the new form («стул»: стулья / стулы), or one that agrees with any reading of a modifier
    ``(form, lemma)`` (the pair would be grammatical).
    """
    g = analysis.tag.grammemes
    if {"Pltm", "Sgtm", "Fixd", "Abbr", "Init"} & g or analysis.tag.POS != "NOUN":
        return None
    a = agr_from_tag(analysis.tag)
    if a.case not in CASES or a.number is None:
        return None
    if a.number == "Sing" and mass_noun(analysis.lemma):
        return None
    if a.number == "Plur" and (norm(analysis.lemma) in PLURAL_NOUNS or norm(head.lemma) in PLURAL_NOUNS):
        return None
    target = "Plur" if a.number == "Sing" else "Sing"
    want = {UD2OC["Case"][a.case], UD2OC["Number"][target]}
    word = _inflect_cached(analysis.parse, frozenset(want))
    if word is None or norm(word) == norm(head.form) or not morph.word_is_known(word):
        return None
    new = noun_readings(morph, word, analysis.lemma, ("NOUN",))
    if not any(r.number == target and r.case == a.case for r in new):
        return None
    if any(r.number == a.number for r in new):
        return None
    for p in morph.parses(head.form):
        # the same form as another lexeme of the same lemma (стул 'chair' / стул 'stool'): both
        # must give the same new form, else which plural is right is unknown
        if p.tag.POS != "NOUN" or p.normal_form != analysis.parse.normal_form or p == analysis.parse:
            continue
        pa = agr_from_tag(p.tag)
        if (pa.case, pa.number) != (a.case, a.number):
            continue
        other = _inflect_cached(p, frozenset(want))
        if other is not None and norm(other) != norm(word):
            return None
    for form, lemma in modifiers:
        if any(agrees(m, r) for m in adjective_readings(morph, form, lemma) for r in new):
            return None
    return target, word


#: RuBLiMP's gender changes (dev pairs of np/anaphor/floating-quantifier gender: masculine and
#: neuter → feminine, feminine → masculine); the other gender is the fallback
GENDER_ORDER: dict[str | None, tuple[str, ...]] = {
    "Masc": ("Fem", "Neut"), "Neut": ("Fem", "Masc"), "Fem": ("Masc", "Neut"), None: GENDERS,
}


def gender_targets(a: Agr) -> Iterator[tuple[str, Agr]]:
    """(target gender, features of the new form): every other singular gender than ``a``'s,
    RuBLiMP's choice first (:data:`GENDER_ORDER`)."""
    for g in GENDER_ORDER.get(a.gender, GENDERS):
        if g != a.gender:
            yield g, Agr(a.case, "Sing", frozenset({g}), a.animacy)


def case_targets(a: Agr) -> Iterator[tuple[str, Agr]]:
    """(target case, features of the new form): every other case, none for a singular of unknown gender."""
    if a.number == "Sing" and a.gender is None:
        return
    for c in CASES:
        if c != a.case:
            yield c, Agr(c, a.number, a.genders, a.animacy)


def matches_ud(agr: Agr, ud: Agr) -> bool:
    """A pymorphy3 reading carries the parser's case and number (and singular gender)."""
    if ud.case is None or ud.number is None or agr.case != ud.case or agr.number != ud.number:
        return False
    if ud.number == "Sing" and ud.genders and not agr.genders & ud.genders:
        return False
    return True


#: the case a preposition with several governs in all but rare uses (о + acc. «опереться о стену»,
#: по + acc./loc. «по пояс», «по приезде», с + gen. «с горы»): the parser's case, when it is this one, is
#: taken as settled («о которых» loc., «с которой» ins.); when the parser says another of them
#: («с которой»[Gen]) the case stays open
DOMINANT_CASE = {"о": "Loc", "об": "Loc", "обо": "Loc", "по": "Dat", "между": "Ins", "меж": "Ins",
                 "промеж": "Ins", "согласно": "Dat", "с": "Ins", "со": "Ins"}
#: relations under which a bare (preposition-less) nominal is accusative or genitive
_BARE_CASE_BY_RELATION = {"obj": "Acc", "nmod": "Gen"}


def case_settled(sent: Sentence, tok: Token, case: str, form_cases: Iterable[str], preposition: str | None,
                 prepositions: dict[str, frozenset[str]], dominant: dict[str, str] | None = None) -> bool:
    """Whether the parser's ``case`` of ``tok`` is the one :func:`settled_case` finds."""
    return settled_case(sent, tok, case, form_cases, preposition, prepositions, dominant) == case


def settled_case(sent: Sentence, tok: Token, case: str, form_cases: Iterable[str], preposition: str | None,
                 prepositions: dict[str, frozenset[str]], dominant: dict[str, str] | None = None) -> str | None:
    """The case of ``tok`` where its form could be in any of ``form_cases`` (syncretism: «которой»
    is gen/dat/ins/loc, «самого» gen/acc), the parser saying ``case``; None when it stays open.

    A form with one case reading has that case (the parser's, when the form has no readings
    given). After ``preposition`` (as :func:`rublimp.trees.roles.preposition_of` spells it;
    ``prepositions`` maps it to the cases it governs) it is the single one of the form's cases the
    preposition governs («с которым»: ins. sg. or dat. pl. — instrumental), or the parser's case
    where it is the one the preposition governs in all but rare uses (``dominant``, by default
    :data:`DOMINANT_CASE`); else
    open («с которой»[Gen]: gen. or ins.). Without a preposition (or with a word the table does not
    list, or one that governs none of the form's cases) only the genitive/accusative
    syncretism is resolved: a direct object of a verb that is not negated is accusative (a
    genitive the parser gave it is its error), a noun's ``nmod`` genitive; the object of a negated
    verb may be either (no case is wrong there: the parser's stands); any other relation leaves
    it open. Used before re-inflecting a word in "the same case": a wrong case would give a second
    error.
    """
    cases = set(form_cases)
    if len(cases) <= 1:
        return case if not cases or case in cases else next(iter(cases))
    governed = cases & prepositions.get(preposition or "", frozenset())
    if governed:
        if len(governed) == 1:
            return next(iter(governed))
        dominant = DOMINANT_CASE if dominant is None else dominant
        return case if case in governed and dominant.get(preposition or "") == case else None
    # (a word the table does not list — «как» — or a preposition that governs none of the form's
    # cases — the parser hung it on the wrong word — tells nothing: the form is read as bare)
    if not {"Gen", "Acc"} <= cases or case not in ("Gen", "Acc"):
        return case
    node = tok
    if node.base_deprel in ("amod", "det") and node.head:
        node = sent.head_of(node)  # a modifier takes its noun's relation
    want = _BARE_CASE_BY_RELATION.get(node.base_deprel)
    if want == "Acc":
        verb = sent.head_of(node)
        if verb is not None and any(norm(k.form) == "не" for k in sent.children(verb)):
            return case
    return want


#: the parser tags that :func:`retag_nouns` may correct
_NOT_NOUN_UPOS = frozenset({"VERB", "ADJ", "ADV"})


def noun_only_reading(morph: Morph, tok: Token) -> dict[str, str] | None:
    """The UD lemma and features of ``tok`` as a noun, when the parser tagged it VERB, ADJ or ADV
    but pymorphy3 knows the form and reads it only as a form of one noun; None otherwise.

    The reading must be single in case and number: every analysis has the same ones (the parser's
    case, a guess for a word it did not read as a noun, does not choose among them); a case the
    parser gave must be the reading's (an archaic or unknown adjective whose form pymorphy3 knows only as a noun keeps its
    tag: «десной стороны»). A capitalised word inside the sentence is left alone (a name: its part of
    speech is PROPN, not NOUN), and so is a word with a hyphen or a digit.
    Returns ``{"lemma": …, "Case": …, "Number": …}`` plus ``Gender`` and ``Animacy`` where the
    chosen analyses agree on them.
    """
    if tok.upos not in _NOT_NOUN_UPOS or not tok.form.isalpha():
        return None
    if tok.form[:1].isupper() and tok.id > 1:
        return None
    low = tok.form.lower()
    if not morph.word_is_known(low):
        return None
    parses = morph.parses(low)
    if not parses or any(p.tag.POS != "NOUN" for p in parses):
        return None
    if len({p.normal_form for p in parses}) != 1:
        return None
    agrs = [agr_from_tag(p.tag) for p in parses]
    keys = {(a.case, a.number) for a in agrs}
    if len(keys) != 1:
        # the parser's case does not pick among the noun's readings: it read the word as another part of
        # speech, so its case is a guess too («Крылья[ADJ Nom] мельницы обтягивали»: the accusative object
        # of an indefinite-personal verb made a nominative subject; read not_paradigm in session 24)
        return None
    case, number = next(iter(keys))
    if case is None or number is None:
        return None
    if tok.feats.get("Case") not in (None, case):
        return None  # the parser saw an adjective in another case: «десной[Gen] стороны» (right, archaic), not «десна»
    out = {"lemma": parses[0].normal_form, "Case": case, "Number": number}
    genders = {a.genders for a in agrs}
    if len(genders) == 1:
        (gender,) = genders
        if len(gender) == 1:
            out["Gender"] = next(iter(gender))
    animacies = {a.animacy for a in agrs}
    if len(animacies) == 1 and None not in animacies:
        out["Animacy"] = next(iter(animacies))
    return out


def _retagged(sent: Sentence, morph: Morph, reading_of: Callable[[Morph, Token], dict[str, str] | None],
              upos: str) -> Sentence:
    """``sent`` with every token that ``reading_of`` reads retagged ``upos`` with that reading's lemma and
    features (head and relation stay); ``sent`` itself when nothing changes, else a copy with the same ids."""
    tokens = list(sent.tokens)
    changed = False
    for i, tok in enumerate(tokens):
        reading = reading_of(morph, tok)
        if reading is None:
            continue
        lemma = reading.pop("lemma")
        tokens[i] = dataclasses.replace(tok, upos=upos, lemma=lemma, feats=dict(sorted(reading.items())))
        changed = True
    if not changed:
        return sent
    return Sentence(sent_id=sent.sent_id, text=sent.text, tokens=tokens, domain=sent.domain, meta=sent.meta)


def retag_nouns(sent: Sentence, morph: Morph) -> Sentence:
    """``sent`` with every token that :func:`noun_only_reading` reads as a noun retagged NOUN, with
    that reading's lemma and features (head and relation stay: «спецвидение» tagged VERB as the
    subject of «было», «пропаж» tagged VERB). ``sent`` itself when nothing changes, else a copy
    with the same token ids."""
    return _retagged(sent, morph, noun_only_reading, "NOUN")


def adjective_only_reading(morph: Morph, tok: Token) -> dict[str, str] | None:
    """The UD lemma and features of ``tok`` as a full adjective, when the parser tagged it VERB but
    pymorphy3 knows the form and reads it only as forms of one full adjective (``ADJF``) with a
    single case, number and (in the singular) gender («лохматую» tagged VERB: acc. sg. fem.);
    None otherwise (a participle, a short form, a form shared by several cases: «лохматой»). A
    capitalised word inside the sentence is left alone. Returns ``{"lemma": …, "Case": …,
    "Number": …, "Degree": "Pos"}`` plus ``Gender`` in the singular."""
    if tok.upos != "VERB" or not tok.form.isalpha() or (tok.form[:1].isupper() and tok.id > 1):
        return None
    low = tok.form.lower()
    if not morph.word_is_known(low):
        return None
    parses = morph.parses(low)
    if not parses or any(p.tag.POS != "ADJF" for p in parses) or len({p.normal_form for p in parses}) != 1:
        return None
    agrs = {agr_from_tag(p.tag) for p in parses}
    keys = {(a.case, a.number, a.genders if a.number == "Sing" else frozenset()) for a in agrs}
    if len(keys) != 1:
        return None
    case, number, genders = next(iter(keys))
    if case is None or number is None or (number == "Sing" and len(genders) != 1):
        return None
    out = {"lemma": parses[0].normal_form, "Case": case, "Degree": "Pos", "Number": number}
    if number == "Sing":
        out["Gender"] = next(iter(genders))
    return out


def retag_adjectives(sent: Sentence, morph: Morph) -> Sentence:
    """``sent`` with every token that :func:`adjective_only_reading` reads as a full adjective
    retagged ADJ with that reading's lemma and features (head and relation stay; the
    ``modifier_attach`` fix then hangs it on its noun: «почесал лохматую[VERB] голову»). ``sent``
    itself when nothing changes, else a copy with the same token ids."""
    return _retagged(sent, morph, adjective_only_reading, "ADJ")
