"""Morpheme-level helpers for the morphology paradigms: affixes, splits, letter sequences.

RuBLiMP segments target words with pymorphy2 and a word-formation dictionary
(Appendix B.1); that dictionary is not available offline, so here a split is a
hypothesis checked against pymorphy3's dictionary: a verb prefix is accepted
when the rest of the verb is itself a common verb or a stem that several other
prefixes make common verbs of (:meth:`Lexicon.is_verb_stem`; frequencies from
wordfreq), a suffix when the root before it is a free stem of the dictionary.

Three resources, all loaded lazily and cached:

* ``affixes.tsv`` — the curated prefix and suffix inventory (:func:`load_affixes`);
* ``letter_trigrams.txt`` — every letter trigram (with ``_`` for the word
  boundary) attested in the dictionary's common words, derived by
  ``resources/derive/derive_morphology.py`` (:class:`LetterSequences`);
* ``suffix_pairs.tsv`` — how many dictionary lemmas contain each
  inserted-suffix + host-suffix sequence, derived by the same script
  (:func:`load_suffix_pairs`).

:class:`Lexicon` ties them to the dictionary: known-word and prefix look-ups,
the spelling rules for joining a prefix to a stem (з/с, ъ, ы), and the verb
prefix splitter used by ``add_verb_prefix`` and ``change_verb_prefixes_order``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from .io import InputError
from .morph import Morph, get_morph

__all__ = [
    "Affix",
    "AffixTable",
    "load_affixes",
    "LetterSequences",
    "load_letter_sequences",
    "load_suffix_pairs",
    "word_trigrams",
    "normalize",
    "Lexicon",
    "VerbSplit",
    "get_lexicon",
    "zipf",
    "read_resource_tsv",
    "AFFIXES_FILE",
    "TRIGRAMS_FILE",
    "SUFFIX_PAIRS_FILE",
    "VOWELS",
    "CONSONANTS",
]

T = TypeVar("T")

AFFIXES_FILE = "affixes.tsv"
TRIGRAMS_FILE = "letter_trigrams.txt"
SUFFIX_PAIRS_FILE = "suffix_pairs.tsv"

VOWELS = frozenset("аеёиоуыэюя")
CONSONANTS = frozenset("бвгджзйклмнпрстфхцчшщ")
VOICELESS = frozenset("кпстфхцчшщ")
IOTATED = frozenset("еёюя")
BOUNDARY = "_"
_CYRILLIC_WORD = re.compile(r"^[а-яё]+$")


def normalize(word: str) -> str:
    """Lower case with ё written as е (the dictionary look-ups are ё-insensitive)."""
    return word.lower().replace("ё", "е")


# -- the affix inventory ----------------------------------------------------------
@dataclass(frozen=True)
class Affix:
    """One row of ``affixes.tsv``."""

    kind: str  # "prefix" | "suffix"
    affix: str
    allomorphs: tuple[str, ...]
    pos: str
    role: str
    lookup: str = ""

    @property
    def spelling(self) -> str:
        """The default spelling (the one written when the affix is added)."""
        return self.allomorphs[0]


@dataclass(frozen=True)
class AffixTable:
    """The curated affixes, grouped the way the paradigms use them."""

    affixes: tuple[Affix, ...]

    @functools.cached_property
    def prefixes(self) -> tuple[Affix, ...]:
        return tuple(a for a in self.affixes if a.kind == "prefix")

    @functools.cached_property
    def _prefix_index(self) -> dict[str, Affix]:
        return {a.affix: a for a in self.prefixes}

    def prefix(self, form: str) -> Affix | None:
        """The prefix whose citation form is ``form``."""
        return self._prefix_index.get(form)

    def lexical_prefixes(self) -> tuple[Affix, ...]:
        """Prefixes that cannot stand outside another prefix."""
        return tuple(a for a in self.prefixes if a.role == "lexical")

    @property
    def unprefixed_verbs(self) -> frozenset[str]:
        """Infinitives whose first letters look like a prefix but belong to the root (успеть, влечь)."""
        return frozenset(s for a in self.affixes if a.kind == "root" for s in a.allomorphs)

    def suffixes(self, role: str, pos: str | None = None) -> tuple[Affix, ...]:
        return tuple(a for a in self.affixes if a.kind == "suffix" and a.role == role and (pos is None or a.pos == pos))

    def host_spellings(self, pos: str) -> tuple[tuple[str, Affix], ...]:
        """(spelling, suffix) for every host suffix of ``pos`` (ADJ or NOUN), longest spelling first."""
        return self._host_index.get(pos, ())

    @functools.cached_property
    def _host_index(self) -> dict[str, tuple[tuple[str, Affix], ...]]:
        out: dict[str, list[tuple[str, Affix]]] = {}
        for a in self.suffixes("host"):
            out.setdefault(a.pos, []).extend((s, a) for s in a.allomorphs)
        return {pos: tuple(sorted(v, key=lambda x: (-len(x[0]), x[0]))) for pos, v in out.items()}

    def prefix_spellings(self) -> list[tuple[str, Affix]]:
        """(spelling, prefix) for every allomorph, longest spelling first."""
        out = [(s, a) for a in self.prefixes for s in a.allomorphs]
        return sorted(out, key=lambda x: (-len(x[0]), x[0]))


_AFFIX_COLUMNS = ("kind", "affix", "allomorphs", "pos", "role", "lookup")
_ROLES = {"prefix": {"lexical", "stacking"}, "suffix": {"host", "insert"}, "root": {"unprefixed"}}


def read_resource_tsv(path: Path, what: str, required: Iterable[str]) -> Iterable[tuple[int, dict[str, str]]]:
    """(line number, row) for each data line of a ``#``-commented TSV with a header line."""
    # read by hand rather than with polars.read_csv: errors must name the exact line
    if not path.exists():
        raise InputError(f"{what} not found", path)
    header: list[str] | None = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                missing = [c for c in required if c not in header]
                if missing:
                    raise InputError(f"header lacks column(s) {', '.join(missing)}", path, lineno)
                continue
            if len(cols) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found {len(cols)}", path, lineno)
            yield lineno, dict(zip(header, (c.strip() for c in cols)))
    if header is None:
        raise InputError("no header line", path)


def read_word_lists(path: Path, what: str, names: Iterable[str],
                    required: Iterable[str] = ("list", "lemma")) -> dict[str, frozenset[str]]:
    """The lemma set of each named list of a TSV of word lists (a ``list`` and a ``lemma`` column, the
    others of ``required`` checked and ignored): an unknown list, a lemma that is not one word, a lemma
    listed twice in one list or a list with no lemma is an error naming the file (and line)."""
    names = tuple(names)
    lists: dict[str, set[str]] = {name: set() for name in names}
    for lineno, row in read_resource_tsv(path, what, required):
        name, lemma = row["list"], row["lemma"]
        if name not in lists:
            raise InputError(f"list must be one of {', '.join(names)}, found {name!r}", path, lineno)
        if not lemma or " " in lemma:
            raise InputError(f"lemma must be one word, found {lemma!r}", path, lineno)
        if lemma in lists[name]:
            raise InputError(f"{lemma!r} listed twice in {name}", path, lineno)
        lists[name].add(lemma)
    empty = [name for name, words in lists.items() if not words]
    if empty:
        raise InputError(f"no lemma for list(s) {', '.join(empty)}", path)
    return {name: frozenset(words) for name, words in lists.items()}


@functools.lru_cache(maxsize=8)
def load_affixes(path: str | Path) -> AffixTable:
    """Read ``affixes.tsv`` (see its header for the columns); bad rows raise InputError with the line."""
    path = Path(path)
    rows: list[Affix] = []
    seen: set[tuple[str, str, str, str]] = set()
    for lineno, row in read_resource_tsv(path, "affix table", _AFFIX_COLUMNS):
        kind = row["kind"]
        if kind not in _ROLES:
            raise InputError(f"kind must be one of {', '.join(sorted(_ROLES))}, not {kind!r}", path, lineno)
        if row["role"] not in _ROLES[kind]:
            raise InputError(f"role of a {kind} must be one of {sorted(_ROLES[kind])}, not {row['role']!r}", path, lineno)
        allo = tuple(normalize(a) for a in row["allomorphs"].split(",") if a.strip())
        if not row["affix"] or not allo or not all(_CYRILLIC_WORD.match(a) for a in allo + (normalize(row["affix"]),)):
            raise InputError("affix and allomorphs must be non-empty Cyrillic strings", path, lineno)
        lookup = "" if row["lookup"] in ("", "-") else normalize(row["lookup"])
        if kind == "suffix" and row["role"] == "insert" and not lookup:
            raise InputError("an insertable suffix needs a lookup spelling", path, lineno)
        key = (kind, normalize(row["affix"]), row["role"], row["pos"])
        if key in seen:
            raise InputError(f"duplicate {kind} {row['affix']!r} with role {row['role']!r} and pos {row['pos']!r}", path, lineno)
        seen.add(key)
        rows.append(Affix(kind, normalize(row["affix"]), allo, row["pos"], row["role"], lookup))
    return AffixTable(tuple(rows))


# -- letter sequences -------------------------------------------------------------
def word_trigrams(word: str) -> list[str]:
    """Letter trigrams of ``word`` with ``_`` marking both word boundaries (ё folded to е)."""
    w = BOUNDARY + normalize(word) + BOUNDARY
    return [w[i : i + 3] for i in range(len(w) - 2)]


class LetterSequences:
    """The set of letter trigrams that occur in Russian words.

    RuBLiMP rejects a perturbed word that contains "combinations of letters
    that do not exist in Russian" (Appendix B.1.2); here that set is every
    boundary-marked trigram attested in at least two lemmas of pymorphy3's
    dictionary (proper names and abbreviations excluded).
    """

    def __init__(self, trigrams: Iterable[str]) -> None:
        self.trigrams = frozenset(trigrams)

    def __len__(self) -> int:
        return len(self.trigrams)

    def unattested(self, word: str) -> list[str]:
        """The trigrams of ``word`` that never occur in Russian (empty when all do)."""
        return [t for t in word_trigrams(word) if t not in self.trigrams]

    def is_possible(self, word: str) -> bool:
        return not self.unattested(word)


@functools.lru_cache(maxsize=8)
def load_letter_sequences(path: str | Path) -> LetterSequences:
    """Read ``letter_trigrams.txt``: ``#`` comment lines, then one trigram per line."""
    path = Path(path)
    if not path.exists():
        raise InputError("letter trigram list not found (regenerate it with resources/derive/derive_morphology.py)", path)
    out: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n")
            if line.startswith("#") or not line.strip():
                continue
            if len(line) != 3 or not all(c == BOUNDARY or c in VOWELS or c in CONSONANTS or c in "ъь" for c in line):
                raise InputError(f"expected a three-letter sequence, found {line!r}", path, lineno)
            out.append(line)
    if not out:
        raise InputError("letter trigram list is empty", path)
    return LetterSequences(out)


@functools.lru_cache(maxsize=8)
def load_suffix_pairs(path: str | Path) -> dict[tuple[str, str], int]:
    """``(inserted spelling, host spelling) -> lemmas containing the sequence`` from ``suffix_pairs.tsv``."""
    path = Path(path)
    out: dict[tuple[str, str], int] = {}
    for lineno, row in read_resource_tsv(path, "suffix pair counts", ("insert", "host", "lemmas")):
        try:
            n = int(row["lemmas"])
        except ValueError:
            raise InputError(f"lemmas must be an integer, not {row['lemmas']!r}", path, lineno) from None
        out[(normalize(row["insert"]), normalize(row["host"]))] = n
    return out


# -- the lexicon ------------------------------------------------------------------
@dataclass(frozen=True)
class VerbSplit:
    """A verb cut into prefixes and the rest, both for its lemma and for one of its forms.

    ``prefixes`` are citation forms, outermost first; ``lemma_rest`` / ``form_rest`` are
    what follows the last prefix (ъ dropped, a ы after a prefix restored to и).
    """

    prefixes: tuple[str, ...]
    lemma_rest: str
    form_rest: str


class Lexicon:
    """pymorphy3's dictionary seen as a set of words, plus the curated affixes.

    The checks are dictionary look-ups (no guessing for unknown words):
    :meth:`is_word` is :meth:`rublimp.morph.Morph.word_is_known`, and
    :meth:`has_prefix` asks whether any dictionary word starts with a string;
    only :meth:`is_verb_stem` and :meth:`cooccurs` also weigh words by their
    wordfreq frequency. Answers are memoised per instance.
    """

    # a verb rest shorter than this is not accepted as a stem («с-ть»)
    MIN_REST = 3
    # see is_verb_stem
    FREE_STEM_ZIPF = 2.5
    BOUND_STEM_ZIPF = 2.0
    BOUND_STEM_PREFIXES = 3

    def __init__(self, morph: Morph | None = None, *, affixes: AffixTable, letters: LetterSequences) -> None:
        self.morph = morph or get_morph()
        self.affixes = affixes
        self.letters = letters
        self._words = self.morph.analyzer.dictionary.words
        self._prefix_spellings = affixes.prefix_spellings()
        # per-instance memo tables (the same few thousand stems are asked about again and again)
        self._memo: dict[tuple[str, str], object] = {}

    def _cached(self, kind: str, key: str, fn: Callable[[], T]) -> T:
        k = (kind, key)
        if k not in self._memo:
            if len(self._memo) > 500_000:
                self._memo.clear()
            self._memo[k] = fn()
        return self._memo[k]  # type: ignore[return-value]

    # -- look-ups -----------------------------------------------------------------
    def is_word(self, word: str) -> bool:
        """Is ``word`` (any case, ё or е) a word form of the dictionary?"""
        w = normalize(word)
        return bool(self._cached("word", w, lambda: self.morph.word_is_known(w)))

    def has_prefix(self, start: str) -> bool:
        """Does some dictionary word form begin with ``start``?"""
        w = normalize(start)
        return bool(self._cached("prefix", w, lambda: next(iter(self._words.iterkeys(w)), None) is not None))

    def is_infinitive(self, word: str) -> bool:
        """Is ``word`` the infinitive of a dictionary verb?"""
        w = normalize(word)

        def check() -> bool:
            if not w.endswith(("ть", "ти", "чь", "ться", "тись", "чься")) or not self.is_word(w):
                return False
            return any(p.tag.POS == "INFN" and normalize(p.word) == w for p in self.morph.parses(w))

        return bool(self._cached("infn", w, check))

    def cooccurs(self, prefix: str | Affix, lemma_rest: str, form_rest: str) -> float | None:
        """How common the prefix is with this verb stem: the Zipf frequency of prefix + ``form_rest``.

        None unless that word is in the dictionary as a form of the verb prefix + ``lemma_rest``
        (в + едают → въедают, a form of въедать).
        """
        aff = self._prefix(prefix)

        def compute() -> float | None:
            word = self.join_prefix(aff, form_rest)
            verb = normalize(self.join_prefix(aff, lemma_rest))
            if not self.is_word(word) or not any(normalize(p.normal_form) == verb for p in self.morph.parses(word)):
                return None
            return zipf(word)

        return self._cached("cooc", f"{aff.affix}|{lemma_rest}|{form_rest}", compute)

    def is_novel(self, word: str) -> bool:
        """Not a dictionary word, and made only of letter sequences that occur in Russian."""
        return not self.is_word(word) and self.letters.is_possible(word)

    # -- prefixes -----------------------------------------------------------------
    def _prefix(self, prefix: str | Affix) -> Affix:
        aff = self.affixes.prefix(prefix) if isinstance(prefix, str) else prefix
        if aff is None:
            raise ValueError(f"unknown prefix {prefix!r}")
        return aff

    @staticmethod
    def _spelling_fits(aff: Affix, spelling: str, rest: str) -> bool:
        """з-final prefixes are spelled with с exactly before voiceless consonants (рас-сказать, раз-бить)."""
        if aff.affix.endswith("з") and not spelling.endswith("о"):
            return (rest[0] in VOICELESS) == spelling.endswith("с")
        return True

    def join_prefix(self, prefix: str | Affix, rest: str) -> str:
        """Spell ``prefix`` + ``rest`` the Russian way.

        з/с prefixes take с before a voiceless consonant (рас-сказать, ис-писать);
        a prefix with an o-variant takes it before й (во-йти); a consonant-final
        prefix takes ъ before е/ё/ю/я (въ-ехать) and turns a following и into ы
        (с-ыграть).
        """
        aff = self._prefix(prefix)
        rest = rest.lower()
        spelling = aff.spelling
        if rest and rest[0] == "й":
            spelling = next((s for s in aff.allomorphs if s.endswith("о") and not aff.affix.endswith("о")), spelling)
        elif rest and rest[0] in VOICELESS and aff.affix.endswith("з"):
            spelling = next((s for s in aff.allomorphs if s.endswith("с")), spelling)
        return self._glue(spelling, rest)

    @staticmethod
    def _glue(spelling: str, rest: str) -> str:
        """A consonant-final prefix spelling + ``rest``: ъ before е/ё/ю/я, и → ы."""
        if spelling[-1] in CONSONANTS and rest:
            if rest[0] in IOTATED:
                return spelling + "ъ" + rest
            if rest[0] == "и":
                return spelling + "ы" + rest[1:]
        return spelling + rest

    def join_written(self, prefix: str | Affix, spelling: str, rest: str) -> str:
        """``prefix`` written as ``spelling`` (its spelling in the word it comes from) + ``rest``.

        The prefix keeps its written vowel (со- of «совпасть» stays со-, never с-), so a moved
        or kept prefix stays recognisable; only what depends on the next letter is re-decided:
        з/с before a voiceless consonant, ъ and ы.
        """
        aff = self._prefix(prefix)
        rest = rest.lower()
        if aff.affix.endswith("з") and not spelling.endswith("о") and rest:
            voiced = spelling[:-1] + "з"
            spelling = voiced[:-1] + "с" if rest[0] in VOICELESS else voiced
        return self._glue(spelling, rest)

    def written_prefixes(self, split: VerbSplit, form: str) -> tuple[str, ...] | None:
        """How each prefix of ``split`` is spelt in ``form`` (со, в for «совпали»), or None."""
        form = normalize(form)

        def walk(frm: str, prefixes: tuple[str, ...]) -> tuple[str, ...] | None:
            if not prefixes:
                return () if frm == normalize(split.form_rest) else None
            aff = self._prefix(prefixes[0])
            for sp in sorted(aff.allomorphs, key=len, reverse=True):
                rest = self._strip(frm, sp)
                if rest is None:
                    continue
                got = walk(rest, prefixes[1:])
                if got is not None:
                    return (sp,) + got
            return None

        return walk(form, split.prefixes)

    @staticmethod
    def _strip(word: str, spelling: str) -> str | None:
        """``word`` without the prefix spelling, undoing ъ and ы; None if it does not start with it."""
        if not word.startswith(spelling) or len(word) <= len(spelling):
            return None
        rest = word[len(spelling) :]
        if spelling[-1] in CONSONANTS:
            if rest[0] == "ъ":
                rest = rest[1:]
            elif rest[0] == "ы":
                rest = "и" + rest[1:]
            elif rest[0] in IOTATED:
                return None  # въехать, never вехать
        return rest or None

    def _prefix_cuts(self, lemma: str) -> tuple[tuple[str, str, str], ...]:
        """(prefix, spelling, rest) for every curated prefix the infinitive ``lemma`` can lose."""

        def compute() -> tuple[tuple[str, str, str], ...]:
            if lemma in self.affixes.unprefixed_verbs:
                return ()
            out = []
            for spelling, aff in self._prefix_spellings:
                rest = self._strip(lemma, spelling)
                if rest is None or len(rest) < self.MIN_REST or not _has_root(rest):
                    continue
                if not self._spelling_fits(aff, spelling, rest):
                    continue
                if rest[0] == "о" and spelling[-1] in CONSONANTS and any(a == spelling + "о" for a in aff.allomorphs):
                    continue  # со-брать, во-йти: the o belongs to the prefix
                if self.is_verb_stem(rest, aff.affix) or self._reflexive_stem(rest, aff.affix) or (
                    self.is_infinitive(rest) and len(self._prefix_cuts(rest)) == 1
                ):
                    # a rarer dictionary verb that is itself prefixed, one way only, counts as a
                    # rest too (пред-усматривать: у-сматривать; пре-подносить: под-носить; not
                    # по-вскакать, which reads both в-скакать and вс-какать)
                    out.append((aff.affix, spelling, rest))
            return tuple(out)

        return self._cached("cuts", lemma, compute)

    def _reflexive_stem(self, rest: str, except_prefix: str) -> bool:
        """A reflexive rest (-ся/-сь) whose verb without the postfix passes :meth:`is_verb_stem`: the prefix
        belongs to the verb, -ся is added after it, and reflexives are rarer than their base, so their
        own frequencies undercount (про-стираться as про-стирать, с-тираться as с-тирать: *«спротирается»;
        у-бавиться as у-бавить)."""
        if not rest.endswith(("ся", "сь")):
            return False
        return self.is_verb_stem(rest[:-2], except_prefix)

    def is_verb_stem(self, rest: str, except_prefix: str = "") -> bool:
        """May ``rest`` (an infinitive without a prefix) be what follows a prefix?

        Yes when it is a common verb on its own (Zipf frequency ≥ :attr:`FREE_STEM_ZIPF`:
        с-делать, пере-читать), or when at least :attr:`BOUND_STEM_PREFIXES` other curated
        prefixes make common verbs of it (Zipf ≥ :attr:`BOUND_STEM_ZIPF`: вы-едать next to
        съедать, поедать, доедать; при-нять next to понять, снять). Rare homonyms do not
        count, so строить is not с-троить (троить is rare, and only встроить/утроить are
        common), nor ступить с-тупить. Frequencies are wordfreq's for Russian.
        """

        def compute() -> bool:
            if self.is_infinitive(rest) and zipf(rest) >= self.FREE_STEM_ZIPF:
                return True
            n = 0
            for aff in self.affixes.prefixes:
                if aff.affix == except_prefix:
                    continue
                w = self.join_prefix(aff, rest)
                if self.is_infinitive(w) and zipf(w) >= self.BOUND_STEM_ZIPF:
                    n += 1
                    if n >= self.BOUND_STEM_PREFIXES:
                        return True
            return False

        return bool(self._cached("stem", f"{rest}|{except_prefix}", compute))

    def dictionary_cut(self, lemma: str, form: str) -> VerbSplit | None:
        """The one-prefix reading of a verb that :meth:`split_verb` does not cut because the rest is rare.

        Every curated prefix the infinitive ``lemma`` can lose under the spelling rules of
        :meth:`split_verb` (and not listed ``root``/``unprefixed``) is tried; a cut counts when the rest
        is a dictionary infinitive of any frequency (при-близиться, по-дружиться, у-чуять) that itself
        admits no further cut, and ``form`` begins with the same spelling. The verb must be perfective
        only and the rest imperfective, as a prefix makes them (с-троить is no reading of the imperfective
        «строить»). Exactly one such cut: its split; none or several (an ambiguous reading): None.
        """
        lemma, form = normalize(lemma), normalize(form)
        if lemma in self.affixes.unprefixed_verbs or not self._infinitive_aspect(lemma, "perf") or self._infinitive_aspect(lemma, "impf"):
            return None  # (perfective only: «строить» has a perfective reading too)
        cuts = set()
        for spelling, aff in self._prefix_spellings:
            rest = self._strip(lemma, spelling)
            if rest is None or len(rest) < self.MIN_REST or not _has_root(rest) or not self._spelling_fits(aff, spelling, rest):
                continue
            if rest[0] == "о" and spelling[-1] in CONSONANTS and any(a == spelling + "о" for a in aff.allomorphs):
                continue
            frm_rest = self._strip(form, spelling)
            if frm_rest is None or len(frm_rest) < 2 or not self.is_infinitive(rest) or self._prefix_cuts(rest):
                continue
            if not self._infinitive_aspect(rest, "impf"):
                continue
            cuts.add(VerbSplit((aff.affix,), rest, frm_rest))
        return cuts.pop() if len(cuts) == 1 else None

    def _infinitive_aspect(self, infinitive: str, aspect: str) -> bool:
        """Is the dictionary infinitive ``infinitive`` of ``aspect`` ("perf"/"impf") in some reading?"""
        return any(p.tag.POS == "INFN" and aspect in p.tag and normalize(p.word) == infinitive for p in self.morph.parses(infinitive))

    def split_verb(self, lemma: str, form: str, *, max_prefixes: int = 3) -> list[VerbSplit]:
        """Every way to read the verb (``lemma`` = its infinitive, ``form`` = a form of it) as prefixes + stem.

        A cut is accepted when the rest of the infinitive passes :meth:`is_verb_stem`
        and the prefix is spelled as the spelling rules allow before that rest;
        the verbs listed as ``root``/``unprefixed`` in ``affixes.tsv`` are never
        cut. Splits are built outside-in and are maximal: the rest of the last
        split admits no further cut. The form must begin with the same prefix
        spellings as the lemma.
        """
        lemma, form = normalize(lemma), normalize(form)
        out: set[VerbSplit] = set()

        def walk(lem: str, frm: str, prefixes: tuple[str, ...], root_next: bool) -> None:
            extended = False
            if len(prefixes) < max_prefixes and not root_next:
                for affix, spelling, lem_rest in self._prefix_cuts(lem):
                    frm_rest = self._strip(frm, spelling)
                    if frm_rest is None or len(frm_rest) < 2:
                        continue
                    extended = True
                    # a ы written for и after the prefix starts the root (от-ыскать, раз-ыграть):
                    # no prefix begins there (not от-ис-кать)
                    walk(lem_rest, frm_rest, prefixes + (affix,), spelling[-1] in CONSONANTS and lem[len(spelling)] == "ы")
            if not extended and prefixes:
                out.add(VerbSplit(prefixes, lem, frm))

        walk(lemma, form, (), False)
        # deterministic, fewest prefixes first
        return sorted(out, key=lambda s: (len(s.prefixes), s.prefixes, s.lemma_rest))


@functools.lru_cache(maxsize=200_000)
def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of a Russian word (0 for unseen words), cached."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "ru")


def _has_root(rest: str) -> bool:
    """Does a verb rest keep a consonant once the reflexive, infinitive ending and theme vowel go (йти, нять; not ить)?"""
    r = rest[:-2] if rest.endswith(("ся", "сь")) else rest
    for e in ("ть", "ти", "чь"):
        if r.endswith(e):
            r = r[: -len(e)]
            break
    r = r.rstrip("аеёиоуыэюя")
    return any(c in CONSONANTS for c in r)


@functools.lru_cache(maxsize=4)
def get_lexicon(resources_dir: str | Path, morph: Morph | None = None) -> Lexicon:
    """The :class:`Lexicon` built from the resources in ``resources_dir`` (cached per directory and analyser)."""
    d = Path(resources_dir)
    return Lexicon(morph or get_morph(), affixes=load_affixes(d / AFFIXES_FILE), letters=load_letter_sequences(d / TRIGRAMS_FILE))
