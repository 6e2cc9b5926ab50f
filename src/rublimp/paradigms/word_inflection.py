"""WORD INFLECTION: the three RuBLiMP paradigms of Appendix B.1.2.

* ``change_declension_ending`` — a singular noun without an agreeing modifier
  gets the ending another declension class uses for the same case
  («в журнале» → «*в журнали»);
* ``change_declension_ending_has_dep`` — the same for a noun with an agreeing
  adjective or determiner («о российской армии» → «*о российской армие»);
* ``change_verb_conjugation`` — a present/future verb gets the ending of the
  opposite conjugation for the same person and number («докажешь» →
  «*докажишь»).

The swaps come from two hand-written tables, ``resources/declension_swaps.tsv``
and ``resources/conjugation_swaps.tsv``. A swap is used only when the new word
is not in pymorphy3's dictionary (so it is never another form of the same
lexeme, nor any other word) and contains only letter trigrams attested in
Russian (:class:`rublimp.lexicon.LetterSequences`); when the ending spelled by
the spelling rules makes a dictionary word (диск-и), the ending is written as
the table has it (*дискы), as RuBLiMP does. Rows are tried in file order, and
RuBLiMP's most frequent replacement for a case comes first. Where no row passes,
a second pass writes a vowel ending whose only unattested letter sequences are
at the junction with the stem (*умениы, *боы — RuBLiMP's forms; never a
consonant ending: *человекь). Plural nouns are edited too, as in some of RuBLiMP's pairs
(«слова» → «*словы»).

The conjugation swaps take the same second pass («представляют» → «*представляят»,
«приносят» → «*приносют»), and a word pymorphy3 reads only as a present/future indicative
verb is taken as one whatever the parser's tag.

Targets: singular common nouns, and feminine and neuter plurals in the nominative and
inanimate accusative, the plural cases whose endings differ by class (окна → *окны,
кровати → *кровата; masculine plurals vary between -ы and -а by word: сорты/сорта)
(no names, abbreviations, indeclinable,
plural-only or adjectivally declined nouns, no forms that double as adverbs
such as «утром»), whose pymorphy3 analysis agrees with the parser's case; and
finite indicative present/future verbs other than быть. The declension
paradigms are split by context (RuBLiMP, Appendix B: the noun "has an agreeing
dependent"): ``_has_dep`` needs an agreeing modifier of the noun itself — an
``amod``/``det`` dependent agreeing in case, a postposed participle (``acl``), a postposed
adjective the parser made an ``nmod``, or an agreeing adjective or determiner right next to
it that the parser attached elsewhere; a genitive, prepositional, clausal or numeral
dependent is none (nor a number, «5-го», or an ordinal before a month name: «5 мая», «первого
мая» — the day of a date). A form that several oblique cases share (радости: Gen = Dat = Loc)
takes an ending of the case its preposition settles (``resources/prepositions.tsv``), Gen for a
bare ``nmod``, for an ``obj`` the case its verb governs (``resources/verb_government.tsv``;
Gen under negation), Dat for an ``iobj``, else only an ending all its cases share: never the
genitive's *радосты for «к радости». The plain one takes exactly the other nouns, and also leaves a noun
whose coordinated partner's modifier can agree with it («новые дома и площади»). Neither
writes «я», «ю» after г к х ж ш ч щ ц or «ы» after ж ш ч щ ц against the spelling rule (*удачя,
*гаубиця, *рукя read as misspellings of another form; after г к х «ы» is heard: *дискы), nor a
new word that, read aloud, is another form of the same noun (:func:`sound_key`: *армиа is heard
as армия, *улици as улицы, *эрозиу as эрозию), nor a
junction form the self-check finds implausible (*умениы). The possessives «его», «её», «их» never agree: a noun
with one is the plain paradigm's, as in RuBLiMP's pairs («увидела его маму» → «*мамя»). Tree repairs
decided by pymorphy3: a word the parser tagged ADJ that pymorphy3 knows only as a noun is a noun
(«вопрос старика»), and a noun whose parser case its form cannot have takes the one case its
readings give («под этой сосной»: Gen → Ins; «лишил завтрака»: Acc → Gen).

Pool columns: feature ``Declension`` (source/target value the declension
classes 1, 2, 3; subtype the UD case) or ``Conjugation`` (I/II; subtype
``Tense.Person.Number``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..lexicon import CONSONANTS, Lexicon, get_lexicon, normalize, read_resource_tsv, word_trigrams
from ..morph import UD2OC, Analysis
from ..trees.lexical import GENITIVE_PERSONAL_FORMS, PROPER_TAGS, QUANT_WORDS, long_form_only_guessing, present_verb_only
from ..trees.features import agrees
from ..trees.roles import VERB_GOVERNMENT_FILE, load_verb_government, preposition_of, read_case_table
from .base import Edit, Paradigm, Perturbation, register
from .selfcheck import plausible_nonword, readings

__all__ = [
    "PHENOMENON",
    "DeclensionSwap",
    "ConjugationSwap",
    "load_declension_swaps",
    "load_conjugation_swaps",
    "declension_class",
    "spell_ending",
    "sound_key",
    "ChangeDeclensionEnding",
    "ChangeDeclensionEndingHasDep",
    "ChangeVerbConjugation",
]

PHENOMENON = "word_inflection"
LEVEL = "Morphology"
DECLENSION_FILE = "declension_swaps.tsv"
PREPOSITIONS_FILE = "prepositions.tsv"
CONJUGATION_FILE = "conjugation_swaps.tsv"

# pymorphy3 grammemes that exclude a noun: names, abbreviations, indeclinables, plural-only nouns
EXCLUDED_NOUN_TAGS = PROPER_TAGS | {"Pltm", "Erro", "Dist"}
# nouns whose singular does not follow their class (путь: пути/путём; the -мя nouns have a stem type
# of their own, ``mja``)
IRREGULAR_NOUNS = frozenset({"путь", "дитя", "мать", "дочь"})
EXCLUDED_VERBS = frozenset({"быть"})
CASES = tuple(UD2OC["Case"])
_CYRILLIC = re.compile(r"^[а-яё]+$", re.IGNORECASE)
# pymorphy3 cases (the second genitive and locative count as theirs) → UD
_OC_CASE = {"nomn": "Nom", "gent": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc", "ablt": "Ins", "loct": "Loc", "loc2": "Loc"}
_ADJ_LEMMA_ENDINGS = ("ый", "ой", "ий", "ая", "яя", "ое", "ее")


# -- the tables ---------------------------------------------------------------------
@dataclass(frozen=True)
class DeclensionSwap:
    """One row of ``declension_swaps.tsv``: ``ending`` of (klass, stem, number, case) → ``new_ending``."""

    klass: str
    stem: str
    number: str
    case: str
    ending: str
    new_ending: str
    new_class: str


@dataclass(frozen=True)
class ConjugationSwap:
    """One row of ``conjugation_swaps.tsv``."""

    conj: str
    person: str
    number: str
    ending: str
    new_ending: str
    new_conj: str


def _ending(value: str, path: Path, lineno: int, column: str) -> str:
    if value == "-":
        return ""
    if not _CYRILLIC.match(value):
        raise InputError(f"{column} must be Cyrillic letters or '-', not {value!r}", path, lineno)
    return value.lower()


def _choice(value: str, allowed: tuple[str, ...], path: Path, lineno: int, column: str) -> str:
    if value not in allowed:
        raise InputError(f"{column} must be one of {', '.join(allowed)}, not {value!r}", path, lineno)
    return value


@functools.lru_cache(maxsize=8)
def load_declension_swaps(path: str | Path) -> tuple[DeclensionSwap, ...]:
    """Read ``declension_swaps.tsv`` (rows in preference order); bad rows raise InputError with the line."""
    path = Path(path)
    cols = ("class", "stem", "number", "case", "ending", "new_ending", "new_class")
    out = []
    for lineno, row in read_resource_tsv(path, "declension swap table", cols):
        swap = DeclensionSwap(
            klass=_choice(row["class"], ("1", "2", "3"), path, lineno, "class"),
            stem=_choice(row["stem"], ("hard", "soft", "i", "mja"), path, lineno, "stem"),
            number=_choice(row["number"], ("Sing", "Plur"), path, lineno, "number"),
            case=_choice(row["case"], CASES, path, lineno, "case"),
            ending=_ending(row["ending"], path, lineno, "ending"),
            new_ending=_ending(row["new_ending"], path, lineno, "new_ending"),
            new_class=_choice(row["new_class"], ("1", "2", "3"), path, lineno, "new_class"),
        )
        if swap.ending == swap.new_ending:
            raise InputError("new_ending equals ending", path, lineno)
        out.append(swap)
    return tuple(out)


@functools.lru_cache(maxsize=8)
def load_conjugation_swaps(path: str | Path) -> tuple[ConjugationSwap, ...]:
    """Read ``conjugation_swaps.tsv``; bad rows raise InputError with the line."""
    path = Path(path)
    cols = ("conj", "person", "number", "ending", "new_ending", "new_conj")
    out = []
    for lineno, row in read_resource_tsv(path, "conjugation swap table", cols):
        swap = ConjugationSwap(
            conj=_choice(row["conj"], ("I", "II"), path, lineno, "conj"),
            person=_choice(row["person"], ("1", "2", "3"), path, lineno, "person"),
            number=_choice(row["number"], ("Sing", "Plur"), path, lineno, "number"),
            ending=_ending(row["ending"], path, lineno, "ending"),
            new_ending=_ending(row["new_ending"], path, lineno, "new_ending"),
            new_conj=_choice(row["new_conj"], ("I", "II"), path, lineno, "new_conj"),
        )
        if not swap.ending or not swap.new_ending or swap.conj == swap.new_conj:
            raise InputError("a conjugation swap needs two non-empty endings of different conjugations", path, lineno)
        out.append(swap)
    return tuple(out)


# -- spelling -----------------------------------------------------------------------
_HUSHING = frozenset("жшчщ")
_VOWEL_LETTERS = frozenset("аеёиоуыэюя")
# pymorphy3 parts of speech of an agreeing modifier
_MODIFIER_POS = ("ADJF", "PRTF")


def spell_ending(stem: str, ending: str) -> str | None:
    """The ending as written after ``stem`` (ы→и after г к х ж ш ч щ; я→а and ю→у after ж ш ч щ ц).

    None when the spelling depends on stress (о/е after ж ш ч щ ц: отцом, месяцем), and for
    «о» after «ь», which only loanwords write (*ружьой).
    """
    if not ending or not stem:
        return ending
    last, first = normalize(stem[-1]), ending[0]
    if first == "ы" and (last in "гкх" or last in _HUSHING):
        return "и" + ending[1:]
    if first in "яю" and (last in _HUSHING or last == "ц"):
        return {"я": "а", "ю": "у"}[first] + ending[1:]
    if first == "о" and (last in _HUSHING or last == "ц" or last == "ь"):
        return None  # «ьо» is written in loanwords only (*ружьой)
    return ending


def _misspelling(stem: str, ending: str) -> bool:
    """Would ``stem`` + ``ending`` break a spelling rule in a way that reads as a misspelling of
    another form rather than as a wrong ending? After ж ш ч щ ц, «я», «ю» and «ы» are only other
    spellings of «а», «у», «и» (*удачя is «удача» misspelt, *гаубиця reads as another word);
    after г к х «ы» is heard (*дискы, as RuBLiMP writes it); see :func:`_breaks_spelling` for я/ю."""
    return bool(stem and ending) and normalize(stem[-1]) in _HUSHING | {"ц"} and ending[0] in "яюы"


_VELARS = frozenset("гкх")
# after these letters a vowel letter is heard as its pair (я = а after к, ы = и after ц, а = я after и)
_SOUND_SAME = (
    (_VELARS, {"я": "а", "ю": "у"}),
    (_HUSHING | {"ц"}, {"я": "а", "ю": "у", "ы": "и"}),
    (_VOWEL_LETTERS | {"ь", "ъ"}, {"а": "я", "у": "ю", "э": "е", "ы": "и"}),
)


@functools.lru_cache(maxsize=200_000)
def sound_key(word: str) -> str:
    """``word`` with each vowel letter that is heard like another one after the preceding
    letter written as that other one (кя → ка, цы → ци, иа → ия, ьу → ью): two words with the
    same key read aloud the same. Velar + ы keeps its ы (*дискы is heard apart from диски); a soft
    sign after ж ш ч щ ц is dropped (*ножь, *врачь sound like нож, врач)."""
    w = normalize(word)
    out = list(w)
    for i in range(1, len(w)):
        if w[i] == "ь" and w[i - 1] in _HUSHING | {"ц"}:
            out[i] = ""  # a soft sign after ж ш ч щ ц is spelling only (*ножь is heard as нож)
            continue
        for after, same in _SOUND_SAME:
            if w[i - 1] in after and w[i] in same:
                out[i] = same[w[i]]
                break
    return "".join(out)


def _breaks_spelling(stem: str, ending: str) -> bool:
    """Does ``ending`` after ``stem`` break the spelling rules in a way that is not heard
    (я/ю after г к х ж ш ч щ ц, ы after ж ш ч щ ц)? Velar + ы is heard (*дискы), so it passes."""
    if not (stem and ending):
        return False
    last, first = normalize(stem[-1]), ending[0]
    return (first in "яю" and last in _VELARS | _HUSHING | {"ц"}) or (first == "о" and last == "ь") or _misspelling(stem, ending)


def _split_ending(form: str, ending: str) -> str | None:
    """The stem if ``form`` is stem + ``ending`` as spelled after that stem, else None (ё-insensitive)."""
    norm = normalize(form)
    variants = {ending}
    if ending:
        alt = {"ы": "и", "я": "а", "ю": "у", "о": "е"}.get(ending[0])
        if alt:
            variants.add(alt + ending[1:])
    for v in sorted(variants):
        if not norm.endswith(v) or len(norm) - len(v) < 2:
            continue
        stem = form[: len(form) - len(v)]
        expected = spell_ending(stem, ending)
        if expected == v or (expected is None and v in (ending, "е" + ending[1:])):
            return stem
    return None


def declension_class(lemma: str, gender: str) -> tuple[str, str] | None:
    """(class, stem type) of a noun from its lemma and pymorphy3 gender (masc/femn/neut/ms-f); None if irregular."""
    lem = normalize(lemma)
    if lem in IRREGULAR_NOUNS or len(lem) < 2:
        return None
    if gender == "neut":
        if lem.endswith("мя"):
            return ("2", "mja")  # время, имя, племя: their own (heteroclitic) endings; Nom = Acc -я
        if lem.endswith("ие"):
            return ("2", "i")
        if lem.endswith("о"):
            return ("2", "hard")
        if lem.endswith("е"):
            return ("2", "soft")
        return None
    if lem.endswith("ия"):
        return ("1", "i")
    if lem.endswith("а"):
        return ("1", "hard")
    if lem.endswith("я"):
        return ("1", "soft")
    if gender == "masc":
        if lem.endswith("ий"):
            return ("2", "i")
        if lem.endswith(("й", "ь")):
            return ("2", "soft")
        if lem[-1] in CONSONANTS:
            return ("2", "hard")
    if gender == "femn" and lem.endswith("ь"):
        return ("3", "hard")
    return None


# -- shared plumbing ----------------------------------------------------------------
def _plain_word(tok: Token) -> bool:
    """A purely Cyrillic word, not written in capitals, aligned with the text."""
    f = tok.form
    return tok.start >= 0 and len(f) >= 3 and bool(_CYRILLIC.match(f)) and not (f.isupper() and len(f) > 1)


class _InflectionParadigm(Paradigm):
    new_words = "nonword"  # the self-check: no dictionary word, attested letter trigrams
    phenomenon = PHENOMENON
    level = LEVEL
    resources = ("affixes.tsv", "letter_trigrams.txt")

    @functools.cached_property
    def lexicon(self) -> Lexicon:
        return get_lexicon(self.ctx.resources_dir, self.morph)

    def _junction_ok(self, new: str, stem_len: int, source: str = "") -> bool:
        """Not a dictionary word, and every unattested letter trigram reaches into the ending
        (the second pass of both swaps: *умениы, *представляят). A trigram of the ``source`` word (the
        form the stem comes from) is attested by that word: the letter table lacks a few rare ones
        («ыйд» of «выйдет» → *«выйдит»)."""
        if self.lexicon.is_word(new):
            return False
        known = self.lexicon.letters.trigrams
        own = frozenset(word_trigrams(source.lower())) if source else frozenset()
        # with the word boundary: position i covers letters i-1 … i+1
        return all(t in known or t in own for t in word_trigrams(new)[: max(stem_len - 1, 0)])


class _Declension(_InflectionParadigm):
    """Common part of the two declension paradigms; subclasses choose the context."""

    with_dependent: bool

    resources = _InflectionParadigm.resources + ("declension_swaps.tsv", "prepositions.tsv", VERB_GOVERNMENT_FILE)

    @functools.cached_property
    def swaps(self) -> tuple[DeclensionSwap, ...]:
        return load_declension_swaps(Path(self.ctx.resources_dir) / DECLENSION_FILE)

    @functools.cached_property
    def swaps_by_slot(self) -> dict[tuple[str, str, str, str], tuple[DeclensionSwap, ...]]:
        """:attr:`swaps` by (class, stem type, number, case), each slot's rows in table order."""
        out: dict[tuple[str, str, str, str], list[DeclensionSwap]] = {}
        for s in self.swaps:
            out.setdefault((s.klass, s.stem, s.number, s.case), []).append(s)
        return {slot: tuple(rows) for slot, rows in out.items()}

    @functools.cached_property
    def prepositions(self) -> dict[str, frozenset[str]]:
        """Preposition → the UD cases it governs (``resources/prepositions.tsv``)."""
        return read_case_table(Path(self.ctx.resources_dir) / PREPOSITIONS_FILE, "preposition", "cases")

    def oblique_cases(self, sent: Sentence, tok: Token, analysis: Analysis, case: str, number: str) -> frozenset[str]:
        """The cases the new ending must fit when ``tok``'s form is shared by several of the
        oblique cases Gen, Dat, Loc of its lexeme (радости, армии: Gen = Dat = Loc; маме: Dat =
        Loc), where the parser's case is least sure: those its preposition governs (the one case
        «к», «о», «без» settle), without a preposition Gen and Dat (no bare locative), Gen
        alone for a noun's dependent (``nmod``: «площади пашни»), for an ``obj`` the case
        :meth:`object_cases` settles («не предвещало неприятности»: Gen; «учился живописи»:
        Dat), Dat alone for an ``iobj``. Otherwise ``{case}``."""
        oc_number = UD2OC["Number"][number]
        same = {_OC_CASE[g] for f in analysis.parse.lexeme if normalize(f.word) == normalize(tok.form)
                and oc_number in f.tag.grammemes for g in f.tag.grammemes if g in _OC_CASE}
        oblique = same & {"Gen", "Dat", "Loc"}
        if case not in oblique or len(oblique) < 2:
            return frozenset({case})
        prep = preposition_of(sent, tok)
        word = prep[1] if prep is not None else _preposition_before(sent, tok)
        if word is not None:
            governed = self.prepositions.get(word, frozenset())
            if word == "по" and not _temporal_po_noun(analysis.lemma):
                governed = governed - {"Loc"}  # «по + Loc» is «по приезде, по окончании» only
            return frozenset(oblique & governed)
        oblique.discard("Loc")
        if tok.base_deprel == "nmod" and "Gen" in oblique:
            return frozenset({"Gen"})  # a noun's dependent
        if tok.base_deprel == "obj" and {"Gen", "Dat"} <= oblique:
            return frozenset(self.object_cases(sent, tok))
        if tok.base_deprel == "iobj" and "Dat" in oblique:
            return frozenset({"Dat"})
        return frozenset(oblique)

    def preposition_allows(self, sent: Sentence, tok: Token, case: str) -> bool:
        """False when the preposition right before ``tok`` (adjectives, determiners and adverbs
        between them allowed; not a numeral: «за три минуты» is a genitive) is known, governs no
        ``case`` and governs a case the form can have: the parser's case is then a slip
        («благодаря неровности» tagged Nom Plur gets no nominative plural ending). An inanimate
        nominative passes where the accusative is governed (the same form: «в тихие вечера»); a
        compound preposition (из-под) is not read."""
        i = tok.id - 1
        while i >= 1 and sent.token(i).upos in ("ADJ", "DET", "ADV") and any(
            p.tag.POS in ("ADJF", "PRTF", "ADVB") for p in self.morph.parses(sent.token(i).form.lower())
        ):
            i -= 1  # modifiers pymorphy3 can read as such (not a noun the parser tagged ADJ: «на рулях»)
        if i < 1 or sent.token(i).upos != "ADP":
            return True
        word = normalize(sent.token(i).form)
        if "-" in word or (i > 1 and sent.token(i - 1).form in ("-", "‑")):
            return True  # из-под, из-за (also split into three tokens)
        governed = self.prepositions.get(word)
        if governed is None or case in governed:
            return True
        if case == "Nom" and "Acc" in governed and tok.feats.get("Animacy") != "Anim":
            return True
        # a slip only where the form has a reading the preposition governs (else the preposition
        # is most likely another word's: «для неё отдельный зал», «на 22 июня»)
        return not any(
            p.tag.POS == "NOUN" and _OC_CASE.get(g) in governed
            for p in self.morph.parses(tok.form.lower()) for g in p.tag.grammemes
        )

    @functools.cached_property
    def verb_government(self) -> dict[str, frozenset[str]]:
        """Verb lemma → the cases of its bare arguments (``resources/verb_government.tsv``)."""
        return load_verb_government(Path(self.ctx.resources_dir) / VERB_GOVERNMENT_FILE)

    def object_cases(self, sent: Sentence, tok: Token) -> set[str]:
        """The case of an ``obj`` whose form is both genitive and dative («учился живописи»,
        «добивалась точности»): Gen under negation or after a quantity word («не предвещало
        неприятности», «столько соли»); else by the verb's government: Gen when it governs a
        genitive, Dat when it governs a dative and no genitive; both (so only an ending the two
        cases share) for a verb the government list does not know, whose dative object would
        otherwise get a genitive ending (*учился живописы)."""
        verb = sent.head_of(tok)
        if verb is None:
            return {"Gen", "Dat"}
        if any(normalize(k.form) == "не" for k in sent.children(verb)):
            return {"Gen"}
        if tok.id > 1 and normalize(sent.token(tok.id - 1).form) in QUANT_WORDS:
            return {"Gen"}
        governs = self.verb_government.get(normalize(verb.lemma))
        if governs is None:
            return {"Gen", "Dat"}
        if "Gen" in governs:
            return {"Gen"}
        if "Dat" in governs:
            return {"Dat"}
        return {"Gen"}  # an accusative verb: a genitive form is its partitive object

    def noun_view(self, tok: Token) -> Token | None:
        """``tok`` as a noun with a case its form can have, or None.

        Tree repairs decided by pymorphy3: a word the parser tagged ADJ that pymorphy3 knows
        only as a noun («вопрос старика», «с конницей»: ADJ) is a noun; and a noun whose
        parser case its form cannot have («под этой сосной»: Gen; «лишил завтрака»: Acc)
        takes the one case its noun readings give (with the parser's number, or any number
        when none matches). The case settles the swap; ambiguous forms are left as they are."""
        if tok.upos not in ("NOUN", "ADJ") or not _plain_word(tok):
            return None
        got = self._noun_reading(tok.form.lower(), tok.upos, tok.feats.get("Case"), tok.feats.get("Number"))
        if got is None:
            return None
        if got == (tok.feats.get("Case"), tok.feats.get("Number")):
            return tok if tok.upos == "NOUN" else replace(tok, upos="NOUN")
        if got == ("", ""):
            return tok  # ambiguous: the parser's tags stand (a noun only)
        return replace(tok, upos="NOUN", feats={**tok.feats, "Case": got[0], "Number": got[1]})

    @functools.cached_property
    def _noun_reading(self):
        """``(form, upos, case, number)`` → the noun's ``(case, number)``: the parser's when the form
        has that reading, else its only noun reading; ``("", "")`` when ambiguous for a NOUN; None
        for no noun. Memoised: words recur across sentences."""

        @functools.lru_cache(maxsize=200_000)
        def reading(form: str, upos: str, case: str | None, number: str | None):
            parses = self.morph.parses(form)
            if upos == "ADJ" and not (parses and self.morph.word_is_known(form) and all(p.tag.POS == "NOUN" for p in parses)):
                return None
            nouns = [p for p in parses if p.tag.POS == "NOUN"]
            same_number = [p for p in nouns if UD2OC["Number"].get(number or "", "-") in p.tag.grammemes]
            readings = {(_OC_CASE[g], n) for p in (same_number or nouns) for g in p.tag.grammemes if g in _OC_CASE
                        for n in ("Sing", "Plur") if UD2OC["Number"][n] in p.tag.grammemes}
            if (case, number) in readings:
                return (case, number)
            if len(readings) != 1:
                return ("", "") if upos == "NOUN" else None
            return readings.pop()

        return reading

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for orig in sent.tokens:
            tok = self.noun_view(orig)
            if tok is None:
                continue
            agreeing = (
                bool(_agreeing_dependents(sent, tok, self.morph)) or _adjacent_agreeing(sent, tok, self.morph)
                or _agrees_by_readings(self.morph, sent, tok)
            )
            if self.with_dependent != agreeing:
                continue  # an agreeing modifier makes the noun _has_dep's, and only _has_dep's
            if not self.with_dependent and _shares_modifier(self.morph, sent, tok):
                continue  # «новых домов и улиц»: the conjunct's modifier agrees with this noun too
            if not self.with_dependent and any(
                not _no_agreement(self.morph, k, tok) for k in sent.children(tok, "amod") + sent.children(tok, "det")
            ):
                continue  # a modifier that does not agree (a parser slip): neither paradigm
            pert = self._swap(sent, tok)
            if pert is not None:
                yield pert

    def _swap(self, sent: Sentence, tok: Token) -> Perturbation | None:
        case, number = tok.feats.get("Case"), tok.feats.get("Number")
        if case not in CASES or number not in ("Sing", "Plur"):
            return None
        if number == "Plur" and not (case == "Nom" or (case == "Acc" and tok.feats.get("Animacy") == "Inan")):
            return None  # plural endings differ by class in the nominative (and inanimate accusative) only
        if tok.form[0].isupper() and tok.id != _first_word_id(sent):
            return None  # capitalised inside the sentence: a name or title
        analysis = self.morph.analyse(tok.form, tok.upos, tok.feats)
        if analysis is None or not _noun_ok(analysis, case, number):
            return None
        parses = self.morph.parses(tok.form)
        if any(p.tag.POS in ("PREP", "PRCL") for p in parses):
            return None  # a noun form that is also a function word (кроме, путём)
        if any(p.tag.POS in ("ADVB", "CONJ") for p in parses) and (
            normalize(tok.form) == normalize(analysis.lemma) or not _qualified_noun(self.morph, sent, tok)
        ):
            # a noun form that is also an adverb (утром, осенью, силой, словом); a qualified one is the
            # noun, unless it is the bare dictionary form (каждый раз: its zero ending would only take
            # a soft sign, *разь, which a reader takes for a changed stem, not another class's ending)
            return None
        if case == "Dat" and any("loc2" in p.tag.grammemes for p in parses if p.normal_form == analysis.lemma):
            if any(normalize(c.form) in ("в", "во", "на") for c in sent.children(tok, "case")):
                return None  # «в 8 часу» is the locative in -у, which the parser took for a dative
        gender = next((g for g in ("masc", "femn", "neut", "ms-f") if g in analysis.tag.grammemes), None)
        if number == "Plur" and gender != "femn" and not (gender == "neut" and case in ("Nom", "Acc")):
            # masculine plurals vary between -ы and -а by word and register (сорты/сорта,
            # тракторы/трактора): no ending of theirs is surely wrong
            return None
        lemma = _gender_lemma(analysis, gender)
        cls = declension_class(lemma, gender or "")
        if cls is None:
            return None
        if cls[1] == "mja" and tok.id > 1 and normalize(sent.token(tok.id - 1).form) == "во":
            return None  # «во время» is a compound preposition, not a noun phrase
        # the new ending is another class's ending of the noun's actual case, whichever of the
        # cases its form shares that is (never a genitive -ы for a dative: *к радосты)
        cases = self.oblique_cases(sent, tok, analysis, case, number)
        if not cases:
            return None  # a preposition that governs none of the form's cases: a parser slip
        if case not in cases:
            case = min(cases)  # the case the preposition settles (one; else only endings all share)
        if not self.preposition_allows(sent, tok, case):
            return None  # «благодаря неровности» tagged a nominative plural: a parser slip
        slots = self.swaps_by_slot
        rows = slots.get((*cls, number, case), ())
        fitting = {s.new_ending for s in rows}
        for other in cases:
            fitting &= {s.new_ending for s in slots.get((*cls, number, other), ())}
        # two passes: a new word of attested letter sequences first; then, as RuBLiMP writes
        # them, any non-word whose only odd sequence is where stem and ending meet («умения» →
        # «*умениы», «боя» → «*боы», «маму» → «*мамя»)
        # a new word heard like a form of the same noun is only a misspelling of it (*рукя
        # for рука, *армиа for армия, *улици for улицы, *эрозиу for эрозию): never proposed
        heard = {sound_key(f.word) for f in analysis.parse.lexeme}
        for junction in (False, True):
            for swap in rows:
                if swap.new_ending not in fitting:
                    continue
                stem = _split_ending(tok.form.lower(), swap.ending)
                if stem is None or not _stem_matches(lemma, stem):
                    continue
                new = self._new_form(tok, stem, swap.new_ending) if not junction else self._junction_form(tok, stem, swap.new_ending)
                if new is None or sound_key(new) in heard:
                    continue
                return Perturbation(
                    edits=(Edit(tok.id, new),),
                    feature="Declension",
                    source_value=swap.klass,
                    target_value=swap.new_class,
                    subtype=case,
                )
        return None

    def _junction_form(self, tok: Token, stem: str, ending: str) -> str | None:
        """stem + ending as the table writes it, if no dictionary word and the ending (≥ 1
        letter) makes the only letter sequences Russian does not attest."""
        if not ending or ending[0] not in _VOWEL_LETTERS or _breaks_spelling(stem, ending):
            return None  # a vowel ending only (*человекь is no ending RuBLiMP writes), no spelling breach
        new = stem + ending
        if normalize(new) == normalize(tok.form) or not self._junction_ok(new, len(stem), tok.form):
            return None  # a dictionary word, or an odd sequence inside the stem
        if not plausible_nonword(self.lexicon.letters, new):
            return None  # «ы» after a vowel (*умениы, *боы): no Russian shape
        return new


    def _new_form(self, tok: Token, stem: str, ending: str) -> str | None:
        """stem + the new ending, as spelled after the stem; when that spelling makes a
        dictionary word (диск-а → диск-и, a plural) the ending as the table writes it, against
        the spelling rule, as RuBLiMP does («диска» → «*дискы»; never я/ю after г к х: *атакя): either
        way no Russian word."""
        spelled = spell_ending(stem, ending)
        if spelled is None:
            return None  # о/е after a hushing consonant depends on stress
        new = stem + spelled
        if normalize(new) != normalize(tok.form) and self.lexicon.is_novel(new):
            return new
        if spelled != ending and self.lexicon.is_word(new) and not _breaks_spelling(stem, ending):
            # the fallback breaks the spelling rule on purpose: the letter check would refuse it
            raw = stem + ending
            if not self.lexicon.is_word(raw):
                return raw
        return None


_NOM_ENDINGS = ("ия", "ие", "а", "я", "о", "е", "ё", "ь", "й")


# nouns of an event's end that «по» takes in the locative («по приезде», «по смерти»); the
# deverbal -ие nouns (по окончании, по прибытии) are told by their ending
_PO_LOCATIVE_NOUNS = frozenset({"приезд", "прилёт", "прилет", "приход", "уход", "смерть", "возвращение"})


def _temporal_po_noun(lemma: str) -> bool:
    """May «по» govern the locative of ``lemma`` («по приезде», «по окончании»: "after")? Only a
    deverbal -ие noun or one of :data:`_PO_LOCATIVE_NOUNS`; elsewhere «по» + a form that is both
    dative and locative is the dative («по теме», «по улице»)."""
    lem = normalize(lemma)
    return lem.endswith("ие") or lem in _PO_LOCATIVE_NOUNS


def _gender_lemma(analysis: Analysis, gender: str | None) -> str:
    """The noun's nominative singular in its own gender. pymorphy3 files a few feminine nouns under
    the masculine of their pair (супругой → lemma «супруг»): the lexeme's feminine nominative
    singular («супруга») is the lemma whose declension class the form follows."""
    lemma = analysis.lemma
    if gender != "femn" or not lemma or normalize(lemma)[-1] not in CONSONANTS:
        return lemma
    for f in analysis.parse.lexeme:
        if {"nomn", "sing", "femn"} <= set(f.tag.grammemes):
            return f.word
    return lemma


def _stem_matches(lemma: str, stem: str) -> bool:
    """Is ``stem`` the lemma without its nominative ending (a fleeting о/е/ё may drop: отец → отц-)?"""
    lem, stem = normalize(lemma), normalize(stem)
    if lem.endswith("мя") and stem == lem[:-1] + "ен":
        return True  # the oblique stem of the -мя nouns (врем-я, времен-и, времен-ем)
    base = lem
    for e in _NOM_ENDINGS:
        if lem.endswith(e) and len(lem) > len(e) + 1:
            base = lem[: -len(e)] if e not in ("ия", "ие") else lem[:-1]
            break
    if base == stem:
        return True
    return len(base) == len(stem) + 1 and base[-2] in "ое" and base[:-2] + base[-1] == stem


def _preposition_before(sent: Sentence, noun: Token) -> str | None:
    """Tree repair: the preposition right before ``noun`` and the adjectives, determiners and
    adverbs between them, when the parser hung it elsewhere («на старой свирели» with
    «на» under «старой», «свирели» an nmod of it); None when there is none."""
    i = noun.id - 1
    while i >= 1 and sent.token(i).upos in ("ADJ", "DET", "ADV"):
        i -= 1
    if i >= 1 and sent.token(i).upos == "ADP":
        return normalize(sent.token(i).form)
    return None


def _first_word_id(sent: Sentence) -> int:
    return next((t.id for t in sent.tokens if t.upos != "PUNCT"), 1)


def _noun_ok(analysis: Analysis, case: str, number: str = "Sing") -> bool:
    tag = analysis.tag
    if tag.POS != "NOUN" or UD2OC["Number"][number] not in tag.grammemes or EXCLUDED_NOUN_TAGS & tag.grammemes:
        return False
    if number == "Plur" and "anim" in tag.grammemes and case == "Acc":
        return False
    if UD2OC["Case"][case] not in tag.grammemes:
        return False
    lemma = normalize(analysis.lemma)
    if lemma.endswith(_ADJ_LEMMA_ENDINGS):
        # nouns declined like adjectives (рабочий, столовая) have no declension class
        gen = analysis.parse.inflect({"gent", "sing"})
        if gen is None or normalize(gen.word).endswith(("ого", "его", "ой", "ей")):
            return False
    return True


def _agreeing_dependents(sent: Sentence, noun: Token, morph=None) -> list[Token]:
    """Adjectival modifiers and determiners of ``noun`` that agree with it in case (never a
    numeral or an invariant possessive: :func:`_no_agreement`)."""
    case = noun.feats.get("Case")
    if not case:
        return []
    out = []
    for t in sent.children(noun):
        if t.feats.get("Case") != case or _no_agreement(morph, t, noun):
            continue
        if t.base_deprel in ("amod", "det") and t.upos in ("ADJ", "DET", "VERB", "PRON"):
            out.append(t)  # PRON: the parser's tag for «этого», «своего» as determiners
        elif t.base_deprel == "acl" and t.feats.get("VerbForm") == "Part" and _same_number(t, noun):
            out.append(t)  # a postposed participle («решение, принятое вчера»)
        elif t.base_deprel in ("nmod", "amod") and t.upos in ("NOUN", "ADJ") and long_form_only_guessing(t.form):
            # tree-pattern repair: a postposed adjective the parser took for a noun
            # («совету благому»: благому → NOUN nmod)
            out.append(t)
    return out


def _same_number(t: Token, noun: Token) -> bool:
    return t.feats.get("Number") in (None, noun.feats.get("Number"))


# numerals after which a singular noun takes a plural (genitive or nominative) adjective:
# «два опорных полузащитника», «две противоположные группы»
_PAUCAL = frozenset({"два", "две", "три", "четыре", "оба", "обе", "полтора", "полторы"})


def _agrees_by_readings(morph, sent: Sentence, noun: Token) -> bool:
    """An ``amod``/``det`` dependent of ``noun``, or an adjective right before it, that agrees
    with it by some pymorphy3 reading pair where the parser's cases differ («по сельской
    свирели»: the parser may give the two different cases of their shared forms); after a
    paucal numeral a plural adjective agrees with a singular noun in case only
    («два опорных полузащитника»)."""
    nouns = readings(morph, noun.form, ("NOUN",))
    if not nouns:
        return False
    near = [t for t in sent.children(noun) if t.base_deprel in ("amod", "det") and not _no_agreement(morph, t, noun)]
    if noun.id > 1:
        before = sent.token(noun.id - 1)
        if (before.upos in ("ADJ", "DET", "VERB") and before not in near and not _predicate_of(noun, before)
                and not _no_agreement(morph, before, noun)):
            near.append(before)
    near = [t for t in near if morph.word_is_known(t.form.lower())]  # (a name tagged ADJ: «Полидамаса вождя»)
    # a postposed adjective the parser took for a noun with another case («совету благому»)
    near += [t for t in sent.children(noun) if t.base_deprel in ("nmod", "amod") and t.id == noun.id + 1
             and long_form_only_guessing(t.form)]
    # a postposed adjective closing the clause, whatever the parser hung it on («прислонясь к колонне
    # высокой.»: высокой → Gen nmod of another noun); before a noun it would be that noun's modifier
    if noun.id + 1 < len(sent.tokens):
        after, nxt = sent.token(noun.id + 1), sent.token(noun.id + 2)
        if after.upos == "ADJ" and nxt.upos == "PUNCT" and not sent.children(after) and morph.word_is_known(after.form.lower()):
            near.append(after)
    paucal = any(normalize(t.form) in _PAUCAL for t in sent.tokens[max(0, noun.id - 4) : noun.id - 1])
    for m in near:
        for a in readings(morph, m.form, _MODIFIER_POS):
            for b in nouns:
                if agrees(a, b):
                    return True
                if paucal and b.number == "Sing" and a.number == "Plur" and a.case == b.case == "Gen":
                    return True
    return False


# the parser's tags of a noun's adjectives and determiners (PRON: «этого», «своего» as determiners)
_QUALIFIER_UPOS = ("ADJ", "DET", "PRON")
# «один» makes set phrases («одним словом»); relative and interrogative words open a clause
_NO_QUALIFIERS = frozenset({"один", "который", "какой", "чей"})


def _qualified_noun(morph, sent: Sentence, noun: Token) -> bool:
    """Does an adjective or determiner agree with ``noun`` in its case (pymorphy3 readings), as its
    ``amod``/``det`` or right before it («значительной политической силой», «поздним вечером», «этой
    осенью», «этого дома»)? A form that is also an adverb or a conjunction (силой, вечером, дома,
    словом) is then the noun: an adverb takes no modifier. «Один» does not count («одним словом» is
    a set phrase), nor «который»/«какой»/«чей», a word with other readings than a modifier's or a
    number word (:func:`_no_agreement`), nor a neighbour in another parser case."""
    case = noun.feats.get("Case")
    nouns = [r for r in readings(morph, noun.form, ("NOUN",)) if r.case == case]
    if not case or not nouns:
        return False
    # a modifier the parser hung on the noun counts only before it, with nothing but modifiers between
    # them («На тёплой лежанке зимой» with «тёплой» hung on «зимой»: another noun stands between)
    near = [
        t for t in sent.children(noun) if t.base_deprel in ("amod", "det") and t.id < noun.id
        and all(w.upos in _QUALIFIER_UPOS for w in sent.tokens[t.id: noun.id - 1])
    ]
    if noun.id > 1:
        before = sent.token(noun.id - 1)
        # a word right before the noun that the parser hung elsewhere counts only in the noun's own
        # case («по которым днём»: которым is the preposition's, Dat)
        if before.upos in _QUALIFIER_UPOS and not _predicate_of(noun, before) and before.feats.get("Case") == case:
            near.append(before)
    for m in near:
        if m.upos not in _QUALIFIER_UPOS or normalize(m.lemma) in _NO_QUALIFIERS or _no_agreement(morph, m, noun):
            continue
        parses = morph.parses(m.form.lower())
        if not parses or any(p.tag.POS not in _MODIFIER_POS + ("NPRO",) for p in parses):
            continue  # a word with other readings than a modifier's or a pronoun's (тем: also a conjunction)
        if any(agrees(a, b) for a in readings(morph, m.form, _MODIFIER_POS) for b in nouns):
            return True
    return False


def _predicate_of(noun: Token, t: Token) -> bool:
    """Does ``t`` govern ``noun`` other than as a modifier the parser turned upside down
    («на сельской свирели»: свирели → nmod of сельской)? Then it is no modifier of the noun
    (a predicate: «Дом большой»; a name tagged ADJ: «Полидамаса вождя»: вождя → obj)."""
    return noun.head == t.id and noun.base_deprel != "nmod"


def _shares_modifier(morph, sent: Sentence, noun: Token) -> bool:
    """Is ``noun`` a conjunct of a noun whose modifier stands before both and can agree with
    ``noun`` too (pymorphy3 readings: «новые дома и площади», «российских банков и компаний»;
    not «свежий хлеб и колбасу»)? Such a noun has an agreeing modifier the tree hangs elsewhere."""
    if noun.base_deprel != "conj" or not noun.head:
        return False
    head = sent.token(noun.head)
    nouns = readings(morph, noun.form, ("NOUN",))
    for m in sent.children(head):
        if m.id > head.id or m.base_deprel not in ("amod", "det") or _no_agreement(morph, m, noun):
            continue
        if any(agrees(a, b) for a in readings(morph, m.form, _MODIFIER_POS) for b in nouns):
            return True
    return False


def _invariant_possessive(tok: Token) -> bool:
    """«его», «её», «их» as possessives: they never agree, so a noun with one has no agreeing
    modifier («взял её руку» is the plain paradigm's, as in RuBLiMP's pairs)."""
    return tok.base_deprel == "det" and normalize(tok.form) in GENITIVE_PERSONAL_FORMS


# month names: in a date («5 мая», «первого мая») the numeral or ordinal before the month is
# the day, not a modifier of the month
_MONTHS = frozenset({
    "январь", "февраль", "март", "апрель", "май", "июнь",
    "июль", "август", "сентябрь", "октябрь", "ноябрь", "декабрь",
})


def _no_agreement(morph, tok: Token, noun: Token) -> bool:
    """Is ``tok`` a word that never counts as an agreeing modifier of ``noun`` whatever its
    tags: an invariant possessive («его», «её», «их»), a numeral (digits, «5-го», NUM,
    ``nummod``; not «один», which agrees), or an ordinal before a month name («первого мая»: the day, not the month's
    modifier)? With no ``morph`` the ordinal test is skipped."""
    if _invariant_possessive(tok) or (tok.upos in ("DET", "PRON") and normalize(tok.form) in GENITIVE_PERSONAL_FORMS):
        return True
    if any(ch.isdigit() for ch in tok.form):
        return True
    if (tok.upos == "NUM" or tok.base_deprel == "nummod") and normalize(tok.lemma) != "один":
        return True  # «один» agrees like an adjective («с одного берега»)
    if morph is None or tok.id > noun.id or normalize(noun.lemma) not in _MONTHS:
        return False
    return any("Anum" in p.tag.grammemes for p in morph.parses(tok.form.lower()))


def _adjacent_agreeing(sent: Sentence, noun: Token, morph=None) -> bool:
    """Tree repair for ``_has_dep``: an adjective or determiner (PRON for the parser: «этого») right before or after the
    noun, agreeing with it in case, number and (singular) gender, that the parser attached
    elsewhere («без этого умения», «боя настоящего»)."""
    feats = noun.feats
    for i in (noun.id - 1, noun.id + 1):
        if i < 1 or i > len(sent.tokens):
            continue
        t = sent.token(i)
        if t.upos not in ("ADJ", "DET", "PRON") or t.head == noun.id or _predicate_of(noun, t):
            continue
        if _no_agreement(morph, t, noun):
            continue
        if t.feats.get("PronType") == "Prs" or normalize(t.form) in GENITIVE_PERSONAL_FORMS:
            continue  # a personal pronoun, or «его/её/их», which never agree
        if any(t.feats.get(k) != feats.get(k) for k in ("Case", "Number")) or not feats.get("Case"):
            continue
        if feats.get("Number") == "Sing" and t.feats.get("Gender") not in (None, feats.get("Gender")):
            continue
        return True
    return False


@register
class ChangeDeclensionEnding(_Declension):
    """A noun without agreeing modifiers takes another declension's ending («журнале» → «*журнали»)."""

    name = "change_declension_ending"
    with_dependent = False


@register
class ChangeDeclensionEndingHasDep(_Declension):
    """A noun with an agreeing modifier takes another declension's ending («о российской армии» → «*о российской армие»)."""

    name = "change_declension_ending_has_dep"
    with_dependent = True


@register
class ChangeVerbConjugation(_InflectionParadigm):
    """A present or future verb takes the opposite conjugation's ending («докажешь» → «*докажишь»)."""

    name = "change_verb_conjugation"
    resources = _InflectionParadigm.resources + ("conjugation_swaps.tsv",)

    @functools.cached_property
    def swaps(self) -> tuple[ConjugationSwap, ...]:
        return load_conjugation_swaps(Path(self.ctx.resources_dir) / CONJUGATION_FILE)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for tok in sent.tokens:
            if not _plain_word(tok):
                continue
            # tree repair: a word pymorphy3 reads only as a present/future indicative of one
            # person and number is a verb of those features, whatever the parser tagged it
            # («примешь» NOUN, «завладевает» ADJ)
            sure = present_verb_only(self.morph, tok.form)
            if sure is not None and (tok.upos != "VERB" or any(tok.feats.get(k) != v for k, v in sure.items())):
                tok = replace(tok, upos="VERB", feats={**tok.feats, **sure})
            elif tok.upos != "VERB":
                continue
            pert = self._swap(tok)
            if pert is not None:
                yield pert

    def _swap(self, tok: Token) -> Perturbation | None:
        f = tok.feats
        if f.get("VerbForm") != "Fin" or f.get("Mood", "Ind") != "Ind" or f.get("Tense") not in ("Pres", "Fut"):
            return None
        person, number = f.get("Person"), f.get("Number")
        if person is None or number is None:
            return None
        analysis = self.morph.analyse(tok.form, tok.upos, f)
        if analysis is None or analysis.tag.POS != "VERB" or normalize(analysis.lemma) in EXCLUDED_VERBS:
            return None
        g = analysis.tag.grammemes
        if not {"indc", UD2OC["Person"][person], UD2OC["Number"][number]} <= g or not ({"pres", "futr"} & g):
            return None
        form = tok.form.lower()
        postfix = ""
        if normalize(analysis.lemma).endswith(("ся", "сь")) and form.endswith(("ся", "сь")):
            form, postfix = form[:-2], form[-2:]
        # as for declension: a second pass admits a new ending whose only unattested letter
        # sequences are at the junction with the stem («представляют» → «*представляят»,
        # «поимеет» → «*поимеит», as RuBLiMP writes them)
        for junction in (False, True):
            for swap in self.swaps:
                if (swap.person, swap.number) != (person, number) or not form.endswith(swap.ending):
                    continue
                stem = form[: len(form) - len(swap.ending)]
                if len(stem) < 2:
                    continue
                new_end = spell_ending(stem, swap.new_ending)
                if new_end is None:
                    continue
                new = stem + new_end + postfix
                if not junction and not self.lexicon.is_novel(new):
                    continue
                if junction and not self._junction_ok(new, len(stem), tok.form):
                    continue
                return self._conjugation(tok, swap, new, f)
        return None

    @staticmethod
    def _conjugation(tok: Token, swap: ConjugationSwap, new: str, f: dict[str, str]) -> Perturbation:
        return Perturbation(
            edits=(Edit(tok.id, new),),
            feature="Conjugation",
            source_value=swap.conj,
            target_value=swap.new_conj,
            subtype=f"{f['Tense']}.{f['Person']}.{f['Number']}",
        )
