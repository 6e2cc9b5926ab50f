"""NOUN PHRASE AGREEMENT: the three RuBLiMP paradigms (Appendix B.2.4), and agreement helpers.

A head noun with one to three agreeing modifiers (RuBLiMP's dev pairs edit one
of several: «первая большая битва» → «первой большая битва») — an adjective, an adjectival
pronoun or determiner (этот, мой, весь, …), an ordinal numeral or a
participle, attached as ``amod``/``det`` (or a participle as ``acl``) — has the
modifier re-inflected for one feature:

* ``np_agreement_number``: «в старом доме» → «в старых доме»;
* ``np_agreement_gender`` (singular heads only): «в этом районе» → «в этой районе»;
* ``np_agreement_case``: «в этом районе» → «в этого районе».

For gender and case only the modifier is altered (changing the head's case
would be GOVERNMENT). For number, as in RuBLiMP, the HEAD NOUN is altered
(«к холодному металлу» → «к холодному металлам»), never a head whose number
another word also agrees with (a subject, the antecedent of «который», a
conjunct, a counted noun): see :class:`NPAgreementNumber`.
Safeguards: modifier and head agree in the parser's features and in the
pymorphy3 analyses (a direct object the parser left nominative although its
form is also accusative is read as accusative: «бросил злой взгляд»); the head
has no conjunct,
and the modifier has no agreeing dependent or conjunct of its own; the new
form must not be readable as agreeing with *any* reading of the head form
(a stronger version of ``Morph.is_ambiguous`` against the head's actual
case, number and gender: adjective endings are massively syncretic); no
gender change with common-gender heads (pymorphy3 ``ms-f``, the job/title
list ``resources/common_gender_nouns.tsv``), indeclinable or abbreviated heads.

Parser repairs for gender and case (round 3): an adjective the parser hung on
a verb is re-attached to the noun next to it that agrees with it
(:func:`modifiers_reattached`), and a head with a conjunct keeps its
prenominal modifiers (nearest-conjunct agreement). For number, «самой»/«самого»
before their noun count as the superlative «самый» («до самого вечера» →
«вечеров»; number .74/.71/.71 → .76/.73/.72). Fidelity on RuBLiMP's dev
pairs (coverage / same word / same pair): gender .70/.64/.57 → .72/.68/.60,
case .78/.72/.69 → .80/.74/.71. Round 4: the determiner «это», which pymorphy3 reads
as the pronoun first, is taken as «этот» (a new form that is also the pronoun, «этим», is
not made), and an unknown Russian surname («Лаврушин») has a fixed gender: gender
.73/.68/.60 → .74/.69/.61. Round 5 (:func:`modifiers_reattached` with ``morph``): an adjective
the parser tagged NOUN, «один» without a number, and the pronoun «это» right after its neuter
noun are modifiers again; a nominative/accusative split under a relation that fixes no case
takes the modifier's case. Number: any adjectival reading of a modifier may agree, «этом/этим»
are «этот», invariable «его/её/их» are no modifiers, the head's lexeme is the one its modifiers
agree with («в старом карьере»), and «это» + head is left alone («это вещества …»).
:func:`head_number_blocked` ignores ``acl:relcl`` clauses without an agreeing relative word and
``conj``/``appos`` links to non-nominals. A head whose case/number the parser misread takes the
reading the modifier right before it shows (:func:`_head_features_from_modifier`). Fidelity:
gender .74/.69/.61 → .79/.73/.65, case .80/.74/.71 → .81/.77/.72, number .76/.73/.72 → .80/.77/.76.

The module also holds the small agreement toolkit shared with
:mod:`~rublimp.paradigms.anaphor_agreement` and
:mod:`~rublimp.paradigms.floating_quantifier`: :class:`Agr` (case, number,
gender, animacy of one reading), :func:`adjective_readings`,
:func:`noun_readings`, :func:`agrees` and :func:`inflect_agreeing`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator

from ..conllu_doc import Sentence, Token
from ..morph import UD2OC, Analysis, Morph
from .agreement import COMMON_GENDER_FILE, load_common_gender_nouns
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "Agr",
    "CASES",
    "GENDERS",
    "GENDER_ORDER",
    "ADJ_POS",
    "agr_from_tag",
    "adjective_readings",
    "noun_readings",
    "agrees",
    "inflect_agreeing",
    "has_common_gender",
    "ud_agr",
    "same_stem",
    "head_number_blocked",
    "renumber_noun",
    "NPCandidate",
    "np_candidates",
    "NPAgreementNumber",
    "NPAgreementGender",
    "NPAgreementCase",
]

PHENOMENON = "noun_phrase_agreement"
CASES: tuple[str, ...] = ("Nom", "Gen", "Dat", "Acc", "Ins", "Loc")
GENDERS: tuple[str, ...] = ("Masc", "Fem", "Neut")
#: pymorphy3 parts of speech of words that agree like adjectives (full forms only)
ADJ_POS = frozenset({"ADJF", "PRTF"})
_OC_CASE = {
    "nomn": "Nom", "gent": "Gen", "gen1": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc", "acc2": "Acc",
    "ablt": "Ins", "loct": "Loc", "loc1": "Loc", "loc2": "Loc", "voct": "Voc",
}
_OC_GENDER = {"masc": "Masc", "femn": "Fem", "neut": "Neut"}
# relations of agreeing modifiers (a participle may also head an ``acl``)
MODIFIER_RELS = frozenset({"amod", "det", "nummod"})
# lemmas left to the other agreement paradigms
NOT_NP_MODIFIERS = frozenset({"который", "сам"})
# adjective endings are at most three letters long (-ого, -ому, -ыми)
MAX_ENDING = 3
_CYRILLIC_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*", re.IGNORECASE)
# quantifier adjectives whose singular is archaic («многая лета»): no number change
PLURAL_ONLY_MODIFIERS = frozenset({"многий", "немногий"})
#: possessive determiners that do not inflect (his, her, their)
INVARIABLE_POSSESSIVES = frozenset({"его", "ее", "её", "их"})
# a new form that can also be a particle or conjunction makes a grammatical string
# of its own («Это версия …», «то решение …», «все время»)
FUNCTION_POS = frozenset({"PRCL", "CONJ"})
# indeclinable, abbreviation and initial tags: no reliable agreement features on the head
_UNRELIABLE_HEAD = frozenset({"Fixd", "Abbr", "Init"})


# -- the agreement toolkit -------------------------------------------------------
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


def agrees(modifier: Agr, head: Agr) -> bool:
    """Whether a modifier reading agrees with a head reading.

    Case and number must be equal; in the singular the genders must overlap
    (a reading without gender is compatible with any); in the accusative an
    animacy marked on both sides must match («нового дома» is not the
    accusative of an inanimate noun).
    """
    if modifier.case != head.case or modifier.number != head.number:
        return False
    if modifier.number == "Sing" and modifier.genders and head.genders and not modifier.genders & head.genders:
        return False
    if modifier.case == "Acc" and modifier.animacy and head.animacy and modifier.animacy != head.animacy:
        return False
    return True


def inflect_agreeing(morph: Morph, parse: object, case: str, number: str, gender: str | None, animacy: str | None) -> str | None:
    """The form of an adjective-like word agreeing with (case, number, gender, animacy), or None.

    Gender is required in the singular; animacy is required where Russian
    adjectives mark it (accusative masculine singular and plural) and ignored
    elsewhere. The result must keep the part of speech and carry exactly the
    requested grammemes.
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


def same_stem(old: str, new: str, max_ending: int = MAX_ENDING) -> bool:
    """Whether two forms differ only in an ending of at most ``max_ending`` letters.

    pymorphy3 keeps all degree forms in one adjective lexeme (высокий, высший,
    высочайший, наивысший), so an inflection may switch to a different word.
    """
    old, new = _norm(old), _norm(new)
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
    lemma = _norm(analysis.lemma if analysis is not None else tok.lemma)
    if lemma in common or _norm(tok.lemma) in common:
        return True
    if analysis is None or "ms-f" in analysis.tag.grammemes or _UNRELIABLE_HEAD & analysis.tag.grammemes:
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
    return _norm(tok.form).endswith(tuple(e.replace("ё", "е") for e in _SURNAME_ENDINGS[gender]))


def _norm(s: str) -> str:
    return s.lower().replace("ё", "е")


def _yo(sent: Sentence, word: str) -> str:
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
                _norm(t.lemma) not in _AGREEING_RELATIVES and not _norm(t.form).startswith("котор")):
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
_QUANTITY_LEMMAS = frozenset(
    {"много", "мало", "немного", "немало", "несколько", "сколько", "столько", "пара", "множество", "большинство",
     "меньшинство", "масса", "ряд", "тысяча", "миллион", "сотня", "десяток", "половина", "часть"}
)


def head_number_blocked(sent: Sentence, head: Token, *, relative_clause: Token | None = None,
                        later_conjunct: bool = False, other_relatives: bool = False,
                        subject: bool = True, linked: bool = False) -> bool:
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
            if relatives and not (other_relatives and all(_norm(r.lemma) == "который" for r in relatives)):
                return True
        if _norm(kid.lemma) in _QUANTITY_LEMMAS or kid.upos == "NUM":
            return True
    parent = sent.head_of(head)
    if parent is not None and not own_link and (_norm(parent.lemma) in _QUANTITY_LEMMAS or parent.upos == "NUM"):
        return True
    prev = sent.token(head.id - 1) if head.id > 1 else None
    return prev is not None and (prev.upos == "NUM" or _norm(prev.lemma) in _QUANTITY_LEMMAS)


def renumber_noun(morph: Morph, head: Token, analysis: Analysis, modifiers: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """(target number, new form) of the noun ``head`` in the other number, same case; or None.

    None for pluralia/singularia tantum, indeclinable or abbreviated nouns, a
    form the dictionary does not know as this lexeme, a form that can still
    be read in the original number and case, or one that agrees with any
    reading of a modifier ``(form, lemma)`` (the pair would be grammatical).
    """
    g = analysis.tag.grammemes
    if {"Pltm", "Sgtm", "Fixd", "Abbr", "Init"} & g or analysis.tag.POS != "NOUN":
        return None
    a = agr_from_tag(analysis.tag)
    if a.case not in CASES or a.number is None:
        return None
    target = "Plur" if a.number == "Sing" else "Sing"
    want = {UD2OC["Case"][a.case], UD2OC["Number"][target]}
    word = _inflect_cached(analysis.parse, frozenset(want))
    if word is None or _norm(word) == _norm(head.form):
        return None
    new = noun_readings(morph, word, analysis.lemma, ("NOUN",))
    if not any(r.number == target and r.case == a.case for r in new):
        return None
    if any(r.number == a.number and r.case == a.case for r in new):
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


def _matches_ud(agr: Agr, ud: Agr) -> bool:
    """A pymorphy3 reading carries the parser's case and number (and singular gender)."""
    if ud.case is None or ud.number is None or agr.case != ud.case or agr.number != ud.number:
        return False
    if ud.number == "Sing" and ud.genders and not agr.genders & ud.genders:
        return False
    return True


# -- noun phrases --------------------------------------------------------------
@dataclass(frozen=True)
class NPCandidate:
    """A head noun with its single agreeing modifier, both analysed."""

    head: Token
    modifier: Token
    head_analysis: Analysis
    modifier_analysis: Analysis
    head_agr: Agr  # the head's case/number/gender/animacy (parser values, pymorphy3-confirmed)
    #: the modifier is the determiner «это» (этот) that pymorphy3 first read as the pronoun
    pronoun_homograph: bool = False

    @property
    def kind(self) -> str:
        """The modifier's kind: participle, ordinal, pronoun (adjectival pronoun/determiner) or adjective."""
        g = self.modifier_analysis.tag.grammemes
        if self.modifier_analysis.tag.POS == "PRTF":
            return "participle"
        if "Anum" in g:
            return "ordinal"
        if "Apro" in g:
            return "pronoun"
        return "adjective"


def _is_modifier(tok: Token) -> bool:
    if tok.base_deprel in MODIFIER_RELS:
        return True
    return tok.base_deprel == "acl" and tok.feats.get("VerbForm") == "Part"


#: at most this many agreeing modifiers on one head (RuBLiMP edits one of several: «первая большая битва»)
MAX_NP_MODIFIERS = 3


def _object_case_repair(sent: Sentence, head: Token, mods: list[Token], morph: Morph) -> tuple[Token, list[Token]]:
    """A direct object the parser left nominative although its form is also accusative («бросил злой
    взгляд»: Nom for Acc) is read as accusative, with its modifiers; other heads are returned as they are."""
    if head.base_deprel != "obj" or head.feats.get("Case") != "Nom":
        return head, mods
    verb = sent.head_of(head)
    if verb is None or verb.upos != "VERB":
        return head, mods
    if not any(r.case == "Acc" and r.number == head.feats.get("Number") for r in noun_readings(morph, head.form, head.lemma, ("NOUN",))):
        return head, mods
    if any(m.feats.get("Case") != "Nom" for m in mods):
        return head, mods

    def acc(t: Token) -> Token:
        return dataclasses.replace(t, feats={**t.feats, "Case": "Acc"})

    return acc(head), [acc(m) for m in mods]


def _same_agreement(a: Token, b: Token) -> bool:
    """Whether the parser gave ``a`` and ``b`` the same case and number (and gender in the singular)."""
    fa, fb = a.feats, b.feats
    if not fa.get("Case") or fa.get("Case") != fb.get("Case") or not fa.get("Number") or fa.get("Number") != fb.get("Number"):
        return False
    return fa["Number"] != "Sing" or (fa.get("Gender") is not None and fa.get("Gender") == fb.get("Gender"))


#: endings only adjectives have (a cheap filter before the dictionary is asked)
_ADJECTIVE_ENDINGS = ("ый", "ий", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему", "ую", "юю",
                      "ых", "их", "ыми", "ими", "ной", "ном", "ным")


def _retagged(tok: Token, morph: Morph | None) -> Token:
    """Parser repairs of one token's tags, decided by pymorphy3 (``tok`` itself when none applies):

    * a word tagged NOUN that the dictionary knows only as a full adjective («хитрый[NOUN] тиун»)
      is an ``ADJ``;
    * the numeral «один/одна/одно» left without a number is singular («Один[NUM] июнь»);
    * the pronoun «это» right after a neuter singular noun in its case is the determiner of it
      («Дело это продолжал …»), tagged ``DET``.
    """
    if morph is None or tok.upos not in ("NOUN", "NUM"):
        return tok
    if tok.upos == "NOUN" and _norm(tok.form).endswith(_ADJECTIVE_ENDINGS) and _CYRILLIC_WORD.fullmatch(tok.form) \
            and morph.word_is_known(tok.form):
        parses = morph.parses(tok.form)
        if parses and all(p.tag.POS == "ADJF" for p in parses):
            feats = {k: v for k, v in tok.feats.items() if k != "Animacy"}
            return dataclasses.replace(tok, upos="ADJ", feats=feats)
    if tok.upos == "NUM" and _norm(tok.form) in ("один", "одна", "одно", "одного", "одной", "одному", "одним", "одном", "одну") \
            and "Number" not in tok.feats:
        return dataclasses.replace(tok, feats={**tok.feats, "Number": "Sing"})
    return tok


def modifiers_reattached(sent: Sentence, *, after_noun: bool = True, morph: Morph | None = None) -> Sentence:
    """``sent`` with stray adjectives re-attached to the noun they stand next to.

    The parser sometimes hangs an adjective or participle on a verb or leaves
    it the root («люк открытый находился», «Норманское имя … дает»). An
    adjective (``ADJ``, or a participle) whose head is not a noun is made an
    ``amod`` of the noun right after it — or, failing that, right before it —
    when the parser gave both the same case, number and (singular) gender and
    no punctuation separates them. Without ``after_noun`` only the noun after
    it is tried (an adjective after its noun on a verb may be a depictive, whose
    instrumental is grammatical: «сундук стоял пустым»). An adjective right
    next to the noun it depends on under another relation (``nsubj``,
    ``appos``, ``nmod``, ``acl``) that agrees with it becomes its ``amod``. A
    copy sharing the other tokens (ids unchanged); ``sent`` itself when
    nothing changes.
    """
    moved: dict[int, Token] = {}
    n = len(sent.tokens)
    if morph is not None:
        for t in sent.tokens:
            fixed = _retagged(t, morph)
            if fixed is not t:
                moved[t.id] = fixed
        for t in sent.tokens:
            if t.upos == "PRON" and _norm(t.form) == "это" and t.id > 1 and not sent.children(t):
                noun = sent.token(t.id - 1)
                if noun.upos == "NOUN" and noun.feats.get("Gender") == "Neut" and noun.feats.get("Number") == "Sing" \
                        and noun.feats.get("Case") == t.feats.get("Case") and noun.head != t.id:
                    moved[t.id] = dataclasses.replace(t, upos="DET", head=noun.id, deprel="det")
        if moved:
            sent = dataclasses.replace(sent, tokens=[moved.get(t.id, t) for t in sent.tokens])
    for mod in sent.tokens:
        if mod.upos not in ("ADJ", "DET") and mod.feats.get("VerbForm") != "Part":
            continue
        if mod.id in moved and mod.deprel == "det" and mod.upos == "DET" and _norm(mod.form) == "это":
            continue
        if mod.feats.get("Variant") == "Short" or sent.children(mod):
            continue
        head = sent.head_of(mod)
        if mod.upos == "DET" and (head is None or head.upos not in ("NOUN", "PROPN")):
            continue  # a determiner off a noun is often a pronoun of its own («это»)
        if head is not None and head.upos in ("NOUN", "PROPN"):
            if mod.base_deprel in ("nmod", "appos", "nsubj", "acl") and abs(head.id - mod.id) == 1 \
                    and (after_noun or mod.id < head.id) and _same_agreement(mod, head):
                # on its noun but under another relation («твой друг» as nsubj, «Диктис Критский» as appos)
                moved[mod.id] = dataclasses.replace(mod, deprel="amod")
            continue
        for j in (mod.id + 1, mod.id - 1) if after_noun else (mod.id + 1,):
            if not 1 <= j <= n:
                continue
            noun = sent.token(j)
            if noun.upos == "NOUN" and noun.head != mod.id and _same_agreement(mod, noun):
                moved[mod.id] = dataclasses.replace(mod, head=noun.id, deprel="amod")
                break
    if not moved:
        return sent
    return dataclasses.replace(sent, tokens=[moved.get(t.id, t) for t in sent.tokens])


def np_candidates(sent: Sentence, morph: Morph, *, conjoined_heads: bool = False) -> Iterator[NPCandidate]:
    """Every (head noun, agreeing modifier) of ``sent`` whose head has at most
    :data:`MAX_NP_MODIFIERS` agreeing modifiers, each pair confirmed to agree.

    With ``conjoined_heads`` a head with a conjunct qualifies too, for its
    modifiers BEFORE it: a prenominal modifier agrees with the nearest
    conjunct («мой отец и мать»), so another gender or case is still an error
    (a number change is not: «старые стол и стул» is grammatical).
    """
    for head in sent.tokens:
        if head.upos not in ("NOUN", "PROPN"):
            continue
        kids = sent.children(head)
        mods = [k for k in kids if _is_modifier(k)]
        conjoined = any(k.base_deprel == "conj" for k in kids)
        if not 1 <= len(mods) <= MAX_NP_MODIFIERS or (conjoined and not conjoined_heads):
            continue
        head, mods = _object_case_repair(sent, head, mods, morph)
        for mod in mods:
            if conjoined and mod.id > head.id:
                continue
            cand = _np_candidate(sent, morph, head, mod)
            if cand is not None:
                yield cand


#: the case a head's relation fixes, for the nominative/accusative repair below
_RELATION_CASE = {"nsubj": "Nom", "obj": "Acc"}


def _nom_acc_repair(head: Token, mod: Token) -> tuple[Token, Token]:
    """Head and modifier the parser split between nominative and accusative («такой[Acc]
    облик[Nom] напоминает», «Отельный[Nom] бизнес[Acc] не развит»): both take the case
    the head's relation fixes (a subject is nominative, a direct object accusative), under any
    other relation the modifier's own case (round 5: a gender or case change of the modifier is an
    error in either case; RuBLiMP's dev pairs take the modifier's: «Наш[Nom] фарт[Acc]» → «Наша»).
    Whether each form really has that reading is checked against pymorphy3 afterwards."""
    cases = {head.feats.get("Case"), mod.feats.get("Case")}
    want = _RELATION_CASE.get(head.base_deprel) or mod.feats.get("Case")
    # (another relation: the modifier's own case, «Наш[Nom] фарт[Acc] ведь что?»; the pymorphy3
    # check that follows keeps only a head form that has it — an inanimate nominative = accusative)
    if cases != {"Nom", "Acc"} or want is None:
        return head, mod

    def recased(t: Token) -> Token:
        return t if t.feats.get("Case") == want else dataclasses.replace(t, feats={**t.feats, "Case": want})

    return recased(head), recased(mod)


def _head_features_from_modifier(sent: Sentence, head: Token, mod: Token, morph: Morph) -> Token:
    """Parser repair: a head whose case or number disagrees with the modifier right before it, while
    one of the head form's own readings has the modifier's case, number (and singular gender), takes
    that reading («Ближайшие[Nom.Pl] села[Gen.Sg]» → села Nom.Pl); otherwise ``head`` as it is.
    (The modifier and head are then checked against pymorphy3 like any other pair.) Not next to a
    numeral or quantity word, whose phrase has agreement of its own («три кольцевые/кольцевых
    автодороги»: both grammatical)."""
    fh, fm = head.feats, mod.feats
    if mod.id != head.id - 1 or not fm.get("Case") or not fm.get("Number"):
        return head
    if any(k.base_deprel == "nummod" or k.upos == "NUM" for k in sent.children(head)):
        return head
    before = [sent.token(i) for i in range(max(1, mod.id - 2), mod.id)]
    if any(t.upos == "NUM" or _norm(t.lemma) in _QUANTITY_LEMMAS for t in before):
        return head
    if (fh.get("Case"), fh.get("Number")) == (fm["Case"], fm["Number"]):
        return head
    for p in morph.parses(head.form):
        if p.tag.POS != "NOUN":
            continue
        a = agr_from_tag(p.tag)
        if a.case != fm["Case"] or a.number != fm["Number"]:
            continue
        if a.number == "Sing" and fm.get("Gender") not in a.genders:
            continue
        feats = {**fh, "Case": a.case, "Number": a.number}
        if a.gender:
            feats["Gender"] = a.gender
        return dataclasses.replace(head, feats=feats)
    return head


def _np_candidate(sent: Sentence, morph: Morph, head: Token, mod: Token) -> NPCandidate | None:
    """The candidate for one head and one of its modifiers, or None when they do not qualify."""
    if mod.upos not in ("ADJ", "DET", "VERB", "NUM") or _norm(mod.form) in NOT_NP_MODIFIERS:
        return None
    if not _CYRILLIC_WORD.fullmatch(mod.form):
        return None  # «14-го», «XIX-го»: digit and Latin ordinals
    if any(k.base_deprel in ("conj", "amod", "det") for k in sent.children(mod)):
        return None
    head, mod = _nom_acc_repair(head, mod)
    head = _head_features_from_modifier(sent, head, mod, morph)
    head_ud, mod_ud = ud_agr(head), ud_agr(mod)
    if head_ud.case not in CASES or head_ud.number is None:
        return None
    if (mod_ud.case, mod_ud.number) != (head_ud.case, head_ud.number):
        return None
    if head_ud.number == "Sing" and (not head_ud.genders or mod_ud.genders != head_ud.genders):
        return None
    ma = morph.analyse(mod.form, mod.upos, mod.feats)
    homograph = ma is not None and ma.tag.POS == "NPRO" and mod.upos == "DET" and mod.base_deprel == "det"
    if homograph:
        # «Это место»: the determiner read as the pronoun «это»; its adjectival reading (этот) is meant
        ma = morph.analyse(mod.form, "ADJ", mod.feats)
    ha = morph.analyse(head.form, head.upos, head.feats)
    if ma is None or ha is None or ma.tag.POS not in ADJ_POS or ha.tag.POS != "NOUN":
        return None
    if _norm(ma.lemma) in NOT_NP_MODIFIERS or "Fixd" in ma.tag.grammemes:
        return None
    if _UNRELIABLE_HEAD & ha.tag.grammemes:
        return None
    m_agr, h_agr = agr_from_tag(ma.tag), agr_from_tag(ha.tag)
    if not _matches_ud(m_agr, mod_ud) or not _matches_ud(h_agr, head_ud) or not agrees(m_agr, h_agr):
        return None
    animacy = h_agr.animacy or head.feats.get("Animacy")
    return NPCandidate(head, mod, ha, ma, Agr(head_ud.case, head_ud.number, h_agr.genders, animacy), homograph)


class _NPAgreement(Paradigm):
    """Shared part: find the candidates, re-inflect the modifier, reject ambiguous forms."""
    breaks_agreement = frozenset({"modifier"})  # the self-check: NP-internal agreement is the point

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv",)

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        self.common_gender = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)

    def targets(self, cand: NPCandidate) -> Iterable[tuple[str, Agr]]:
        """(target value, the features the modifier is inflected to) for one candidate."""
        raise NotImplementedError

    def source_value(self, cand: NPCandidate) -> str:
        h = cand.head_agr
        return {"Number": h.number, "Case": h.case, "Gender": h.gender}[self.feature] or ""

    def forbidden(self, cand: NPCandidate) -> dict[str, str]:
        """The original value of the perturbed feature: the new form must have no reading with it.

        Stricter than the head's full case/number/gender: «соседним облаками»
        (plural dative reading) is no clean number error, so it is rejected.
        """
        h = cand.head_agr
        if self.feature == "Gender":
            return {"Number": "Sing", "Gender": h.gender or ""}
        return {self.feature: self.source_value(cand)}

    #: make only the first target with a safe form (RuBLiMP's edit is deterministic for gender)
    first_only: ClassVar[bool] = False

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        repaired = modifiers_reattached(sent, after_noun=self.feature != "Case", morph=self.morph)
        for cand in np_candidates(repaired, self.morph, conjoined_heads=True):
            seen: set[str] = set()
            for target, agr in self.targets(cand):
                if seen and self.first_only:
                    break
                word = self._new_form(cand, agr)
                if word is None or word in seen or self._fits_noun_between(repaired, cand, word):
                    continue
                seen.add(word)
                word = _yo(sent, word)
                yield Perturbation(
                    edits=(Edit(cand.modifier.id, word),),
                    feature=self.feature,
                    source_value=self.source_value(cand),
                    target_value=target,
                    subtype=cand.kind,
                )

    def _new_form(self, cand: NPCandidate, agr: Agr) -> str | None:
        parse = cand.modifier_analysis.parse
        word = inflect_agreeing(self.morph, parse, agr.case or "", agr.number or "", agr.gender, agr.animacy)
        if word is None or _norm(word) == _norm(cand.modifier.form):
            return None
        # a case change is checked against the head's readings below, with animacy: «болевой приём»
        # → «болевого» (its Acc reading is animate, the head is not), as in RuBLiMP
        if self.feature != "Case" and self.morph.is_ambiguous(word, parse.normal_form, ADJ_POS, self.forbidden(cand)):
            return None
        if self.feature == "Gender" and self.morph.is_ambiguous(
            word.replace("ё", "е"), parse.normal_form, ADJ_POS, {"Number": "Plur", "Case": cand.head_agr.case or ""}
        ):
            return None  # «Всю неделю» → «Все неделю»: read as a plural, the error is one of number
        if not self._same_in_every_lexeme(cand, agr, word):
            return None
        if any(p.tag.POS in FUNCTION_POS for p in self.morph.parses(word)):
            return None  # «Эта версия» → «Это версия»: «это», «то», «все», «всего» also stand alone
        if cand.pronoun_homograph and any(p.tag.POS == "NPRO" for p in self.morph.parses(word)):
            return None  # «это вещество» → «этим вещество»: the pronoun «этим» stands alone («сегодня этим …»)
        # stronger: the new form agrees with no reading at all of the head form
        mod_readings = adjective_readings(self.morph, word, parse.normal_form)
        head_readings = noun_readings(self.morph, cand.head.form, cand.head_analysis.lemma, ("NOUN",))
        if any(agrees(m, hr) for m in mod_readings for hr in head_readings):
            return None
        return word


    def _fits_noun_between(self, sent: Sentence, cand: NPCandidate, word: str) -> bool:
        """A modifier after its head whose new form agrees with a noun standing between them could
        modify that noun instead («астероид главного пояса, принадлежащий» → «принадлежащего»:
        grammatical with «пояса»)."""
        if cand.modifier.id <= cand.head.id + 1:
            return False
        readings = adjective_readings(self.morph, word, cand.modifier_analysis.lemma)
        for i in range(cand.head.id + 1, cand.modifier.id):
            t = sent.token(i)
            if t.upos in ("NOUN", "PROPN", "PRON") and any(agrees(r, ud_agr(t)) for r in readings):
                return True
        return False

    def _same_in_every_lexeme(self, cand: NPCandidate, agr: Agr, word: str) -> bool:
        """The new form is the same whichever adjective the original form belongs to.

        «большая» is a form of both большой and больший; their neuter forms
        differ (большое / большее), so which one would be right is unknown.
        """
        mod = cand.modifier
        for p in self.morph.parses(mod.form):
            if p.tag.POS not in ADJ_POS or p.normal_form == cand.modifier_analysis.lemma:
                continue
            if not _matches_ud(agr_from_tag(p.tag), ud_agr(mod)):
                continue
            other = inflect_agreeing(self.morph, p, agr.case or "", agr.number or "", agr.gender, agr.animacy)
            if other is not None and _norm(other) != _norm(word):
                return False
        return True


@register
class NPAgreementNumber(_NPAgreement):
    """«Ефим припал к холодному металлу.» → «Ефим припал к холодному металлам.»

    RuBLiMP changes the number of the HEAD NOUN (181 of its 200 dev pairs; its
    modifiers, one or more, keep theirs), never of a head that enters another
    agreement relation (:func:`head_number_blocked`). Heads with up to
    ``MAX_MODIFIERS`` agreeing modifiers qualify, each confirmed as agreeing
    by the parser and pymorphy3; the new noun form must agree with no
    reading of any modifier (:func:`renumber_noun`).
    """

    name = "np_agreement_number"
    feature = "Number"
    MAX_MODIFIERS: ClassVar[int] = 3

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for head in sent.tokens:
            if head.upos != "NOUN" or head.start < 0 or not _CYRILLIC_WORD.fullmatch(head.form):
                continue
            mods = [k for k in sent.children(head) if _is_modifier(k)]
            if not 1 <= len(mods) <= self.MAX_MODIFIERS or head_number_blocked(sent, head):
                continue
            if not self.morph.word_is_known(head.form):
                continue
            mods = [m for m in mods if not self._invariable_possessive(m)]
            found_head = self._head_reading(head, mods) if mods else None
            if found_head is None:
                continue
            ha, analysed = found_head
            found = renumber_noun(self.morph, head, ha, analysed)
            if found is None:
                continue
            target, word = found
            yield Perturbation(
                edits=(Edit(head.id, _yo(sent, word)),),
                feature=self.feature,
                source_value=head.feats.get("Number", ""),
                target_value=target,
                subtype="head",
            )

    def _invariable_possessive(self, mod: Token) -> bool:
        """«его», «её», «их» as determiners («все её жалобы»): they do not agree, so they are no
        modifiers whose agreement a number change breaks (nor do they stop one)."""
        return mod.base_deprel == "det" and _norm(mod.form) in INVARIABLE_POSSESSIVES

    def _head_reading(self, head: Token, mods: list[Token]) -> tuple[Analysis, list[tuple[str, str]]] | None:
        """(the head's reading, (form, lemma) of each modifier) with every modifier agreeing, or None.

        The reading pymorphy3 ranks first for the parser's features is tried first; when it fails —
        the parser misread the head's gender («второй медиальной жилки»: Masc), or the form belongs to
        two nouns («в старом карьере»: карьера/карьер) — another noun reading in the parser's case
        and number with which every modifier agrees is taken (repair decided by the modifiers)."""
        ha = self.morph.analyse(head.form, head.upos, head.feats)
        ud = ud_agr(head)
        if ha is not None and ha.tag.POS == "NOUN" and _matches_ud(agr_from_tag(ha.tag), ud):
            analysed = [self._agreeing_modifier(m, ha, head) for m in mods]
            if all(x is not None for x in analysed):
                return ha, analysed
        for p in self.morph.parses(head.form):
            a = agr_from_tag(p.tag)
            if p.tag.POS != "NOUN" or a.case != ud.case or a.number != ud.number or (ha is not None and p == ha.parse):
                continue
            cand = Analysis(p, 0.0)
            analysed = [self._agreeing_modifier(m, cand, head) for m in mods]
            if all(x is not None for x in analysed):
                return cand, analysed
        return None

    def _agreeing_modifier(self, mod: Token, ha: Analysis, head: Token | None = None) -> tuple[str, str] | None:
        """(form, lemma) of a modifier that agrees with the head in both analyses, else None.

        Any adjectival reading of the modifier may agree (the parser's case may be the other one of
        a nominative/accusative pair: «Главные[Acc] культуры[Nom]»); the determiner «это», «этом»,
        … which pymorphy3 first reads as the pronoun is taken as «этот»."""
        if mod.upos not in ("ADJ", "DET", "VERB", "NUM") or not _CYRILLIC_WORD.fullmatch(mod.form):
            return None
        ma = self.morph.analyse(mod.form, mod.upos, mod.feats)
        if ma is not None and ma.tag.POS == "NPRO" and mod.upos == "DET":
            if _norm(mod.form) == "это":
                return None  # «это вещества синтезируют»: «это» may be the pronoun subject ('these are …')
            ma = self.morph.analyse(mod.form, "ADJ", mod.feats)
        if ma is None or ma.tag.POS not in ADJ_POS or "Fixd" in ma.tag.grammemes:
            return None
        h_agr = agr_from_tag(ha.tag)
        if _norm(ma.lemma) == "сам" and head is not None and mod.id < head.id:
            # «у самой границы», «в самом деле»: a form shared with the superlative «самый» before
            # its noun is «самый» (a number change of the noun breaks its agreement either way)
            ma = next((Analysis(p, 1.0) for p in self.morph.readings(mod.form, "самый", ADJ_POS)
                       if agrees(agr_from_tag(p.tag), h_agr)), ma)
        if _norm(ma.lemma) in NOT_NP_MODIFIERS or _norm(ma.lemma) in PLURAL_ONLY_MODIFIERS:
            return None
        if not agrees(agr_from_tag(ma.tag), h_agr) \
                and not any(agrees(r, h_agr) for r in adjective_readings(self.morph, mod.form, ma.lemma)):
            return None
        return mod.form, ma.lemma


@register
class NPAgreementGender(_NPAgreement):
    """«Титул того сезона отошёл им.» → «Титул той сезона отошёл им.»"""

    name = "np_agreement_gender"
    feature = "Gender"
    first_only = True  # RuBLiMP: masculine/neuter → feminine, feminine → masculine

    def targets(self, cand):
        h = cand.head_agr
        if h.number != "Sing" or h.gender is None:
            return
        if has_common_gender(self.morph, cand.head, cand.head_analysis, self.common_gender):
            return
        yield from gender_targets(h)


@register
class NPAgreementCase(_NPAgreement):
    """«Золото нашли в этом районе.» → «Золото нашли в этого районе.»"""

    name = "np_agreement_case"
    feature = "Case"

    def targets(self, cand):
        yield from case_targets(cand.head_agr)
