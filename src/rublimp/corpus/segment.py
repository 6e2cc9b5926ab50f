"""Segment documents into sentences, filter segmentation noise, deduplicate, and collect stats.

Sentences are split and tokenised with razdel. Each heuristic is a *named* filter
(:data:`FILTERS`, checked in that order; a dropped sentence is counted under the first
filter that rejects it):

``control_chars``
    a control character (:data:`rublimp.io.CONTROL_CHARS_RE`: C0 except tab, DEL, C1), as
    a NUL byte or an ESC sequence in a text file; the first few are logged with the
    document's ``file:line``.
``markup``
    wiki/HTML remnants: ``[[``, ``]]``, ``{{``, ``}}``, ``|``, an HTML tag ``<…>``, an
    HTML entity (``&nbsp;``, ``&#160;``), ``==`` headings, wiki bold/italics ``''``,
    magic words ``__TOC__``, bold ``**``, URLs (``http://``, ``https://``, ``www.``), and
    brackets an extraction emptied (``()``, ``(; 1950)``, ``(, …``).
``unbalanced``
    brackets ``()``, ``[]``, ``{}`` and quotes ``«»``, ``„“``, ``“”`` must open and close in
    properly nested order; straight double quotes ``"`` must come in pairs.
``no_final_punct``
    the sentence must end with ``.``, ``!``, ``?`` or ``…`` (``?!``, ``...`` included,
    two dots ``..`` not), optionally followed by closing quotes/brackets.
``lowercase_start``
    after any leading opening quotes, opening brackets, dashes and spaces, the sentence
    must start with an upper-case letter or a digit ("«Да», — сказал он." and
    "20 человек пришли." pass; "и тогда он ушёл." and "— и тогда…" do not).
``too_long`` / ``too_short``
    more than ``max_tokens`` / fewer than ``min_tokens`` razdel tokens (punctuation counts).
``non_cyrillic``
    counted in words, not letters: fewer than two Russian words, or fewer than
    ``min_cyrillic_share`` (0.5) of the words are Russian where lower-case Latin words
    count against them and capitalised or upper-case ones do not (names and acronyms:
    «Goldman Sachs», «The Guardian», «SPK» are words of a Russian sentence); three or more
    lower-case Latin words outside brackets and quotes (running foreign text); or more than
    ``max_nonword_share`` (0.5) of the tokens other than ordinary sentence punctuation
    (:data:`SENTENCE_PUNCT`) are numbers or symbols (score tables, formulas).

Sentence-quality filters for garbage sources (social media, scraped pages, verse), checked
after the ones above, and the noise RuBLiMP's annotators were told to flag (unbalanced
quotes or brackets are ``unbalanced`` above):

``hashtag`` / ``mention`` / ``retweet``
    a ``#tag``; an ``@handle`` (or an e-mail address); a retweet marker ``RT`` at the start
    or before a handle (``RT @…``, ``RT:``).
``emoji``
    any emoji or pictographic symbol (U+1F000–U+1FAFF, U+2600–U+27BF, U+2B00–U+2BFF,
    variation selector U+FE0F, zero-width joiner).
``glued_title``
    a heading glued to the text after it: three lower-case Cyrillic letters directly
    followed by an upper-case and a lower-case one inside a word (``Глава перваяВ тот…``).
``glued_sentences``
    two sentences with no space after the stop: a lower-case word, ``.``/``!``/``?``/``…``,
    then directly an upper-case letter (``лесу.Потом``; initials ``А.С.Пушкин`` pass). Before
    a ``.`` the word must be lower-case from its first letter, so dotted brand names
    (``Яндекс.Новости``, ``Mail.Ru``) pass.
``glued_headline``
    a headline run into its lead with a space but no stop (``…до 95 рублей Курс доллара на
    бирже…``): within the first 12 words, a capitalised common noun that can be nominative
    (pymorphy3: known, no name reading, first reading not oblique), or a capitalised
    adjective before a nominative noun, after a headline with a verb and a nominative of its
    own, not right after a preposition or a verb (``от Волшебницы``, ``сообщает
    Министерство`` pass) nor after a capitalised word that is no noun (``деревню Малые
    Ключи``); a rubric word before a capitalised preposition (``Происшествия В центре…``);
    a capitalised preposition, conjunction or particle after a colon (``…пункты: По данным…``,
    ``…классификации: В стандартной…``; initials ``: А. Иванов`` pass).
``footnote``
    stray footnote marks: digits glued to the end of a lower-case word of three letters or
    more (``века1``; ``км2`` passes), after a word's sentence stop at the end (``…веке.3``;
    ``до 00.20.`` passes), superscript digits, bracketed numbers ``[12]``.
``unpunctuated_verse``
    a lost line break: after a lower-case word, with only a space between, a capitalised
    word of a closed class or a verb/adverb (pymorphy3's first analysis: preposition,
    conjunction, particle, pronoun, adverb, predicative, verb form, interjection), as in
    verse printed without its line breaks (``…над старым домом И ночь…``), headings run into
    text, or a sentence whose stop was lost (``…пили чай Потом все…``). Capitalised nouns,
    adjectives and pronouns (names, ``в Красной армии``, ``Его Святейшества``), words
    pymorphy3 does not know or could read as a name (``свекровь Жени``), words followed by
    another capitalised word (``фуори Ле Мура``), and single letters other than ``И`` pass.
``broken_encoding``
    a replacement character U+FFFD, two or more UTF-8-read-as-cp1251 pairs (``Р°``, ``СЂ``),
    or the LaTeX-style opening quote of some treebank texts (two backticks).
``shouting``
    a letter four times in a row (``ооооочень``), ``!!!``/``???``, or three or more upper-case
    words making up half of the Russian words with one of five letters or more (acronyms
    such as МЧС, ЦСКА in a sentence pass).
``repeated_phrase``
    a stutter of the source: a word of four letters or more said twice with only a space
    between (``подозреваемого подозреваемого``; ``цвет -- цвет`` passes), or a phrase of two
    or more words (six letters or more) repeated right after itself, punctuation between
    the copies ignored (``в субботу в субботу``, ``жаловались на шум, жаловались на шум``).
``list``
    bullets (``•``, ``*`` at the start, ``; -``), numbered items (``1. … ; 2. …``), or four or
    more items of at most two words on average separated by commas, semicolons, colons
    or «и», with no dash (``X — композитор, автор опер``) and no verb, short participle,
    short adjective or predicative anywhere (``Хлеб, молоко, яйца, масло, сыр.``); a
    classification line: a code of up to three digits (dotted parts allowed), a dash and a
    capitalised class name (``97 — Деятельность …``; ``1990 — год, когда…`` passes).
``fragment``
    a piece of a sentence: it ends on a conjunction (``что``, ``если``, ``и``; ``не за что``
    passes) or on a word that can only be a preposition, or it opens with a relative pronoun
    or subordinating conjunction (``Который…``, ``Потому что…``) and has no comma or dash
    for a main clause; questions pass. Or the tail of a clause cut after a name: a capitalised
    noun or unknown word, «и»/«а»/«но», then a finite verb (``Шайо и закончилось…``; ``Так и
    вышло``, ``Он и сказал``, ``Маша и Петя пошли`` pass).
``word_salad``
    keyword stuffing or gibberish, over words of four or more letters: one of them three
    or more times and at least 30% of them, or (4–12 such words) at least a third
    of them repeats, or (5–12 such words, no comma and no word of one or two letters) at
    least 40% of them repeat a five-letter stem (``дешевые авиабилеты … дешево``); or at
    least half of the lower-case Cyrillic words of three or more letters (three at least)
    are unknown to the pymorphy3 dictionary. Real words in random order are not detected
    (that needs a parser or an LM).
``dangling_abbrev``
    a sentence cut after an abbreviation that announced a name or object (``…подала иск в суд
    г.``, ``…вручили курскому митр.``): the final word, lower-case and of one to six letters,
    reads first as an abbreviation, or (five letters at most) is unknown or known only as a name,
    or is a noun that no reading of the oblique full adjective before it agrees with. A number or
    Roman numeral up to two tokens before it (``в 1990 г.``, ``XIX в.``, ``5 тыс. руб.``) and
    ``т. д.``, ``т. п.``, ``др.``, ``пр.``, ``н. э.`` pass.
``garbled_punct``
    punctuation broken by an extraction: a comma between a number and its unit (``155, мм``); a
    comma, semicolon or colon right before a closing bracket (``(НППГ;)``); a comma right after a
    primary preposition before a word that is no preposition, conjunction or parenthetical
    (``по, крайней мере``, ``(от, сокр.)``; ``до, во время и после`` and ``в, скажем, Москве``
    pass); two primary prepositions in a row (``третий в по величине``).
``no_predicate``
    a declarative line with no predicate: no word that pymorphy3 can read as a finite verb,
    infinitive, short participle or adjective, comparative or predicative, no dash or colon for
    the copula, no «это»/«вот»/«нет»/«есть», no predicative full adjective after a nominative
    noun (``Берег крутой``), and no opening prepositional phrase with a nominative noun
    (``На станции одна платформа``; not after «о»/«об»/«про»: ``О лечении в статье неврит.``):
    noun phrases and titles cut from a page (``Заслуженный деятель искусств …``), a
    prepositional phrase alone, a copula whose dash was lost. Questions and exclamations pass;
    verbless copular sentences with a dash («X — Y») pass.
``typo`` / ``missing_complementiser`` / ``date_preposition`` / ``copula_case`` / ``locative_start`` / ``dash_participle`` / ``bare_locative``
    a source's own error that needs no parse (:mod:`rublimp.corpus.broken`): a lower-case word
    unknown to pymorphy3 one typo away from a known common word (``скотоводстом``,
    ``запускаються``); «о том,»/«в том,»/«до того,»/«и то,»/«…тем,» not followed by a
    complementiser or wh-word; «в» before a bare day-and-month date (``в 11 октября``); «является»
    in a sentence with no instrumental (``является место остановки``); a first word that can only
    be a locative, its preposition cut off (``Костомарове появилась …``); a lone dash before a
    short participle (``Все батареи -- заменены.``); a lower-case word read only as a locative with
    no locative preposition in the twelve words before it (``После завершении карьеры``).

The filters are measured as a classifier of "drop" on hand-labelled lines by
``bench/bench_filters.py`` (labels in ``bench/filter_labels/``).

Exact duplicates are removed on :func:`normalize_for_dedupe` forms (lower case, ``ё``→``е``,
unified quotes and dashes, no spaces around punctuation, collapsed whitespace); the first
occurrence, in config order, is kept.
"""

from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import polars as pl
from razdel import sentenize, tokenize

from rublimp.io import ROW_GROUP_ROWS, CONTROL_CHARS_RE, InputError, write_json_atomic, write_parquet_atomic

from . import broken
from .sources import DEFAULT_MAX_BAD_SHARE

log = logging.getLogger("rublimp")

__all__ = [
    "FILTERS",
    "FILTER_NAMES",
    "SENTENCE_PUNCT",
    "SENTENCES_SCHEMA",
    "FilterConfig",
    "build_sentences",
    "check_sentence",
    "normalize_for_dedupe",
    "split_sentences",
    "tokenize_sentence",
    "write_sentences",
]


@dataclass(frozen=True)
class FilterConfig:
    """Thresholds of the sentence filters."""

    min_tokens: int = 6
    max_tokens: int = 50
    min_cyrillic_share: float = 0.5
    max_nonword_share: float = 0.5

    def validate(self, prefix: str = "corpus") -> None:
        """Raise :class:`~rublimp.io.InputError` naming the config key of a bad value."""
        for name in ("min_tokens", "max_tokens"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"{prefix}.{name}: must be a positive integer, got {value!r}")
        if self.min_tokens > self.max_tokens:
            raise InputError(
                f"{prefix}.min_tokens: {self.min_tokens} is larger than {prefix}.max_tokens ({self.max_tokens})"
            )
        for name in ("min_cyrillic_share", "max_nonword_share"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise InputError(f"{prefix}.{name}: must be a number between 0 and 1, got {value!r}")


# --------------------------------------------------------------------------- segmentation


#: Runs of whitespace that is not a control character (str.split() would turn the control
#: characters U+001C–U+001F, U+000B, U+000C, U+0085 into spaces and hide them from the filter).
_PLAIN_SPACE_RE = re.compile("(?:(?![\x00-\x08\x0a-\x1f\x7f-\x9f])\\s)+")


def split_sentences(text: str) -> list[str]:
    """Split a document into sentences with razdel; never across a ``"\\n"`` block boundary.

    Whitespace runs become one space; control characters are kept for the
    ``control_chars`` filter.
    """
    sentences: list[str] = []
    for block in text.split("\n"):
        if CONTROL_CHARS_RE.search(block) is None:
            block = " ".join(block.split())
        else:
            block = _PLAIN_SPACE_RE.sub(" ", block).strip(" ")
        if block:
            sentences.extend(s.text for s in sentenize(block) if s.text.strip())
    return sentences


def tokenize_sentence(sentence: str) -> list[str]:
    """razdel tokens of one sentence."""
    return [t.text for t in tokenize(sentence)]


# --------------------------------------------------------------------------- filters

_MARKUP_RE = re.compile(
    r"\[\[|\]\]|\{\{|\}\}|\{\||\|"
    r"|</?[A-Za-z][^<>]*>|&[A-Za-z]+;|&#x?[0-9A-Fa-f]+;"
    r"|==|''|__[A-ZА-ЯЁ]+__|\*\*"
    r"|https?://|www\."
    # brackets emptied by an extraction that dropped their content: "()", "(; 1950)", "(, …"
    r"|\(\s*[;,]?\s*\)|\(\s*[;,]",
)
_FINAL_PUNCT_RE = re.compile(r"[.!?…][»“”\"')\]]*$")
_LEADING_RE = re.compile(r"^[\s«„“\"'(\[—–\-‒―]*")
_CYRILLIC_RE = re.compile(r"[\u0400-\u052F]+")  # Cyrillic and Cyrillic Supplement letters
_PAIRED_RE = re.compile(r"[()\[\]{}«»„“”]")

#: Tokens that are ordinary in any sentence and therefore not "non-word" tokens.
SENTENCE_PUNCT = frozenset(
    [".", ",", "!", "?", "…", "...", "?!", "!?", "!!", "??", ":", ";", "-", "--", "—", "–", "«", "»",
     "„", "“", "”", '"', "(", ")", "'"]
)

_OPENERS = {"(": ")", "[": "]", "{": "}", "«": "»", "„": "“", "“": "”"}
_CLOSERS = {")", "]", "}", "»", "“", "”"}


def _control_chars(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return CONTROL_CHARS_RE.search(text) is not None


def _too_short(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return len(tokens) < cfg.min_tokens


def _too_long(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return len(tokens) > cfg.max_tokens


def _markup(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _MARKUP_RE.search(text) is not None


def _unbalanced(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    # A small stack automaton over the bracket/quote characters only (no library covers
    # typographic quote pairing). “ closes „ (Russian inner quotes „…“), otherwise opens “…”.
    stack: list[str] = []
    for ch in _PAIRED_RE.findall(text):
        if ch == "“" and stack and stack[-1] == "“":  # expected closer of „
            stack.pop()
        elif ch in _OPENERS:
            stack.append(_OPENERS[ch])
        elif ch in _CLOSERS:
            if not stack or stack.pop() != ch:
                return True
    return bool(stack) or text.count('"') % 2 == 1


def _no_final_punct(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    text = text.rstrip()
    # two dots are a typo, not an ellipsis
    return _FINAL_PUNCT_RE.search(text) is None or (text.endswith("..") and not text.endswith("..."))


def _is_nonword(token: str) -> bool:
    return token not in SENTENCE_PUNCT and not token.isalpha() and not any(map(str.isalpha, token))


_LATIN_WORD_RE = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+(?:['’-][A-Za-zÀ-ÖØ-öø-ÿ]+)*")
_BRACKETED_RE = re.compile(r"\([^()]*\)|«[^«»]*»|\"[^\"]*\"|“[^“”]*”")


def _non_cyrillic(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    # Words, not letters: a Latin-script name («Goldman Sachs», «Ars Electronica») is a word or two
    # of a Russian sentence however long it is. Lower-case Latin words outside brackets and quotes
    # are running foreign text (a name is capitalised; an identifier or two is not), three are enough.
    n_cyrillic = len(_WORD_RE.findall(text))
    latin = _LATIN_WORD_RE.findall(text)
    n_latin = sum(w.islower() for w in latin)  # capitalised and upper-case ones are names and acronyms
    if n_cyrillic < 2 or n_cyrillic / (n_cyrillic + n_latin) < cfg.min_cyrillic_share:
        return True
    if n_latin >= 3:
        outside = _BRACKETED_RE.sub(" ", text)
        if sum(w.islower() and len(w) > 1 for w in _LATIN_WORD_RE.findall(outside)) >= 3:
            return True
    # numbers and symbols among the non-punctuation tokens: tables, scores, formulas
    counted = [t for t in tokens if t not in SENTENCE_PUNCT]
    nonword = sum(map(_is_nonword, counted))
    return nonword / max(len(counted), 1) > cfg.max_nonword_share


_HASHTAG_RE = re.compile(r"(?<![\w&])#\w")
_MENTION_RE = re.compile(r"@\w")
_RETWEET_RE = re.compile(r"^\W*RT\b|\bRT\s*[@:]")
_EMOJI_RE = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]")
_GLUED_TITLE_RE = re.compile(r"[а-яё]{3}[А-ЯЁ](?![А-ЯЁ])")
# the word before the stop is lower-case from its first letter: a dotted brand name («Яндекс.Новости»,
# «Mail.Ru») starts with a capital; "!" and "?" end a sentence whatever comes before
_GLUED_SENTENCES_RE = re.compile(r"(?<![\w.-])[а-яё]{2,}\.+[«\"]?[А-ЯЁ]|[а-яё]{2}[!?…]+[«\"]?[А-ЯЁ]")
_FOOTNOTE_RE = re.compile(r"[а-яё]{3}\d{1,3}(?![\w-])|[а-яё][.!?…»)]\d{1,3}\W*$|[¹²³⁴⁵⁶⁷⁸⁹⁰]|\[\d{1,3}\]")
_LOST_BREAK_RE = re.compile(r"(?<![\w-])[а-яё]+ +([А-ЯЁ][а-яё]*)(?![\w.-])")
_WORD_RE = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_NAME_GOES_ON_RE = re.compile(r" +[А-ЯЁA-Z]")
#: pymorphy3 parts of speech of a capitalised word that cannot start a name: a line break was lost before it
_LINE_START_POS = frozenset({"PREP", "CONJ", "PRCL", "ADVB", "PRED", "VERB", "INFN", "GRND", "INTJ"})
_PROPER_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init"})
_STRESS = "\u0301"  # combining acute: stress marks in dictionaries and Wikipedia


def _hashtag(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _HASHTAG_RE.search(text) is not None


def _mention(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _MENTION_RE.search(text) is not None


def _retweet(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _RETWEET_RE.search(text) is not None


def _emoji(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _EMOJI_RE.search(text) is not None


def _glued_title(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _GLUED_TITLE_RE.search(text) is not None


def _glued_sentences(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _GLUED_SENTENCES_RE.search(text) is not None


def _footnote(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    return _FOOTNOTE_RE.search(text) is not None


def _morph():
    from rublimp.morph import get_morph  # pymorphy3 loads only when a sentence gets this far

    return get_morph()


def _unpunctuated_verse(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    text = text.replace(_STRESS, "")
    for m in _LOST_BREAK_RE.finditer(text):
        word = m.group(1)
        if word == "И":
            return True  # the conjunction; the initial «И.» is excluded by the pattern
        if len(word) == 1:
            continue
        morph = _morph()
        if _NAME_GOES_ON_RE.match(text, m.end(1)):
            continue  # a multi-word name (фуори Ле Мура)
        if not morph.word_is_known(word):
            continue  # a guess: most often a foreign name
        parses = morph.parses(word)
        if any(_PROPER_TAGS & p.tag.grammemes for p in parses):
            continue  # could be a name (Жени, Николе)
        if parses and parses[0].tag.POS in _LINE_START_POS:
            return True
    return False


def _word_salad(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    text = text.replace(_STRESS, "")
    # content-ish words (4+ letters): keyword stuffing repeats them, ordinary sentences rarely do
    words = [w.lower().replace("ё", "е") for w in _WORD_RE.findall(text) if len(w) >= 4]
    counts = Counter(words)
    if any(n >= 3 and n >= 0.3 * len(words) for n in counts.values()):
        return True
    if 4 <= len(words) <= 12 and (len(words) - len(counts)) / len(words) >= 1 / 3:
        return True
    # keyword stuffing varies the endings (дешевые авиабилеты, дешево, авиабилеты) and has neither
    # commas nor short function words: the same by stems there
    if 5 <= len(words) <= 12 and "," not in text and not any(len(w) <= 2 for w in _WORD_RE.findall(text)):
        stems = Counter(w[:5] for w in words if len(w) >= 5)
        if sum(n - 1 for n in stems.values()) / len(words) >= 0.4:
            return True
    lower = [w for w in _WORD_RE.findall(text) if len(w) >= 3 and w.islower()]
    if len(lower) >= 2:
        morph = _morph()
        unknown = sum(not morph.word_is_known(w) for w in lower)
        if unknown >= 3 and unknown / len(lower) >= 0.5:
            return True
    return False


# UTF-8 Russian read as cp1251: «Р°», «Рё», «СЂ», «С‚» … (a capital Р/С before a byte that is no Russian letter)
_MOJIBAKE_RE = re.compile("Р[\u00a0\u00a4\u00a6\u00a7\u00a9\u00ab\u00ac\u00ad\u00ae\u00b0\u00b1\u00b5-\u00b7\u00bb"
                          "ЁЂЃЄЅІЇЈЉЊЋЌЎЏёђѓєѕіїјљњћќўџҐґ‘’“”•–—˜™›№]|С[ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏ]")


def _broken_encoding(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    # a replacement character, cp1251 mojibake, or the LaTeX-style opening quote `` of some treebank texts
    return "\ufffd" in text or "``" in text or len(_MOJIBAKE_RE.findall(text)) >= 2


_ELONGATED_RE = re.compile(r"([а-яё])\1\1\1|[!?][!?][!?]")
_CAPS_WORD_RE = re.compile(r"(?<![\w-])[А-ЯЁ]{2,}(?![\w-])")


def _shouting(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    # a letter four times in a row (ооооочень), "!!!", or mostly upper-case words (СРОЧНО ПРОДАМ ГАРАЖ)
    if _ELONGATED_RE.search(text.lower()):
        return True
    caps = _CAPS_WORD_RE.findall(text)
    return len(caps) >= 3 and len(caps) >= 0.5 * len(_WORD_RE.findall(text)) and any(len(w) >= 5 for w in caps)


_WORD_TOKEN_RE = re.compile(r"\w+(?:-\w+)*")


def _repeated_phrase(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A phrase said twice in a row: «в субботу в субботу», «подозреваемого подозреваемого»,
    «объявила о запуске, объявила о запуске» (punctuation between the copies is ignored)."""
    words = _WORD_TOKEN_RE.findall(text.lower().replace("ё", "е"))
    n = len(words)
    last: dict[str, int] = {}  # a copy starts where its first word was last seen `size` words before
    for j, word in enumerate(words):
        i = last.get(word)
        last[word] = j
        if i is None:
            continue
        size = j - i
        if size == 1:
            if len(word) >= 4 and word.isalpha() and re.search(rf"(?<!\w){word}\s+{word}(?!\w)", text.lower().replace("ё", "е")):
                return True  # «цвет -- цвет гербового щита» is an apposition, not a stutter
        elif j + size <= n and words[i:j] == words[j:j + size] and sum(map(len, words[i:j])) >= 6:
            return True
    return False


#: capitalised words that open a line: a heading or a headline run into the text after it
_HEADLINE_RE = re.compile(r"(?<![\w-])([А-ЯЁа-яё][а-яё]*|\d+) +([А-ЯЁ][а-яё]{2,}) +(?=[а-яё])")
_COLON_START_RE = re.compile(r"[а-яё]: +([А-ЯЁ][а-яё]*)(?![\w.-])")  # «…: В стандартной…»; «: А. Иванов» passes
_HEADLINE_MAX_WORDS = 12
_OBLIQUE = frozenset({"gent", "datv", "ablt", "loct"})


def _glued_headline(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A headline run into its lead without a stop (``Курс доллара вырос до 95 рублей Курс доллара на
    бирже …``; no space between them is ``glued_title``), a one-word rubric before the text
    (``Происшествия В центре …``), or a line heading before a colon (``…пункты: По данным …``).

    The capitalised word after the lost stop must be a common noun in the nominative (pymorphy3:
    known, no parse as a name or place) within the first 12 words, after a headline that has a
    verb and a nominative of its own; or a closed-class word (preposition, conjunction, particle,
    adverb) right after the sentence's first word or after a colon.
    """
    morph = _morph()
    words = text.split()
    if len(words) >= 3 and words[0][:1].isupper() and words[0].isalpha() and words[1][:1].isupper():
        second = words[1]
        if second in ("В", "С", "К", "О", "У", "На", "По", "Из", "За", "Для") and words[2][:1].islower():
            return True
    for m in _COLON_START_RE.finditer(text):
        word = m.group(1)
        parses = morph.parses(word)
        if morph.word_is_known(word) and parses and parses[0].tag.POS in ("PREP", "CONJ", "PRCL"):
            return True
    head = " ".join(words[: _HEADLINE_MAX_WORDS + 2])  # the headline's end lies within the first 12 words
    for m in _HEADLINE_RE.finditer(head):
        before = head[: m.start(2)].split()
        if len(before) >= _HEADLINE_MAX_WORDS:
            break
        prev = morph.parses(m.group(1))
        if prev and prev[0].tag.POS in ("PREP", "VERB"):
            # a noun governed by a preposition (от Волшебницы), a subject after its verb (сообщает Министерство)
            continue
        if m.group(1)[0].isupper() and not (prev and prev[0].tag.POS == "NOUN"):
            continue  # two capitalised words after an adjective or a guess: a name (деревню Малые Ключи)
        word = m.group(2)
        if not morph.word_is_known(word):
            continue
        parses = morph.parses(word)
        if any(_PROPER_TAGS & p.tag.grammemes for p in parses) or _OBLIQUE & parses[0].tag.grammemes:
            continue  # a name, or most likely not a nominative (Земли, Солнца)
        if parses[0].tag.POS == "ADJF":
            # an adjective opening the lead's subject: «… Швеции Российские хоккеисты уступили …»
            after = morph.parses(head[m.end():].split(maxsplit=1)[0].strip(",.;:!?"))
            if not (after and after[0].tag.POS == "NOUN" and "nomn" in after[0].tag.grammemes):
                continue
        elif parses[0].tag.POS != "NOUN" or not any("nomn" in p.tag.grammemes for p in parses):
            continue
        verb = nominative = False
        for w in _WORD_RE.findall(" ".join(before)):
            first = morph.parses(w)[0].tag if morph.parses(w) else None
            if first is None:
                continue
            verb = verb or first.POS in ("VERB", "PRTS")
            nominative = nominative or (first.POS == "NOUN" and "nomn" in first.grammemes)
        if verb and nominative:
            return True
    return False


_BULLET_RE = re.compile(r"^\s*[•▪·*►✓]\s|\s[•▪·►]\s|;\s*[-–—•]\s|(?:^|\s)\d{1,2}[.)]\s.*;\s*\d{1,2}[.)]\s"
                        # a classification line: a numeric code, a dash, the class name («97 — Деятельность …»)
                        r"|^\d{1,3}(?:\.\d{1,3})*\s*(?:--|—|–)\s*[А-ЯЁ][а-яё]")
_LIST_SPLIT_RE = re.compile(r"[,;:]|\s+и\s+")
_PREDICATE_POS = frozenset({"VERB", "INFN", "PRTS", "GRND", "PRED", "ADJS"})


def _list(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A list, not a sentence: bullets or numbered items, or four or more items of one or two
    words (``Хлеб, молоко, яйца, масло, сыр.``) with no verb anywhere."""
    if _BULLET_RE.search(text):
        return True
    if text.count(",") + text.count(";") + text.count(":") + text.count(" и ") < 3:
        return False
    if re.search(r"\s(?:—|–|--)\s", text):
        return False  # «X — композитор, автор опер и романсов»: a dash is the predicate
    items = [i for i in _LIST_SPLIT_RE.split(text.rstrip(".!?… ")) if i.strip()]
    if len(items) < 4:
        return False
    sizes = [sum(len(w) >= 2 for w in _WORD_TOKEN_RE.findall(i)) for i in items]
    if sum(sizes) / len(sizes) > 2:
        return False
    morph = _morph()
    for w in _WORD_RE.findall(text):
        if morph.word_is_known(w):
            parses = morph.parses(w)
            if parses and parses[0].tag.POS in _PREDICATE_POS:
                return False
    return True


#: words that open a subordinate clause, not a sentence
_SUBORDINATE_START = frozenset({
    "который", "которая", "которое", "которые", "которого", "которой", "которому", "которым", "котором",
    "которых", "которую", "которыми", "потому", "поскольку", "хотя", "чтобы", "ибо", "словно",
})
#: conjunctions that cannot end a sentence whatever else they can be read as (pymorphy3 reads «что» as a pronoun first)
_DANGLING_END_WORDS = frozenset({"что", "чтобы", "если", "потому", "хотя", "но", "и", "а", "или", "либо", "ибо", "поскольку"})


def _fragment(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A piece of a sentence: it ends on a preposition or conjunction (``В связи с тем что.``), or
    it opens with a relative pronoun or a subordinating conjunction and has no main clause
    after a comma or dash (``Который был построен в прошлом веке.``); questions pass."""
    words = _WORD_RE.findall(text)
    if not words:
        return False
    last = words[-1]
    morph = _morph()
    if len(last) <= 6 and text.rstrip()[-1:] != "?" and text.rstrip(" .!?…»)\"")[-len(last):] == last:
        if last.lower() in _DANGLING_END_WORDS and (len(words) < 2 or words[-2].lower() != "за"):  # «не за что»
            return True
        parses = morph.parses(last.lower())
        if parses and all(p.tag.POS == "PREP" for p in parses):
            return True
    first = words[0].lower()
    if first in _SUBORDINATE_START and text.rstrip()[-1:] != "?" and not re.search(r"[,—–]| - ", text):
        return True
    return _cut_before_name(text, words, morph)


def _cut_before_name(text: str, words: Sequence[str], morph) -> bool:
    """The tail of a clause cut off after a name: a capitalised noun or unknown word, then «и»/«а»/«но»,
    then directly a finite verb or short participle (``Шайо и закончилось поражением…``): the name
    ended the previous clause. A pronoun, adverb or particle before «и» passes (``Он и сказал``,
    ``Так и вышло``), as does a noun followed by another noun (``Брат и сестра пришли``)."""
    m = _STRAY_NAME_START_RE.match(text)
    if m is None:
        return False
    name, verb = m.group(1), m.group(2)
    name_parses = morph.parses(name)
    if morph.word_is_known(name) and name_parses and name_parses[0].tag.POS not in ("NOUN", None):
        return False  # Так и вышло, Тогда и началось, Он и сказал
    if name_parses and name_parses[0].tag.POS == "NPRO":
        return False
    verb_parses = morph.parses(verb)
    return bool(verb_parses) and verb_parses[0].tag.POS in ("VERB", "PRTS") and verb_parses[0].score >= 0.5


#: «Шайо и закончилось …»: a capitalised word, a coordinating conjunction, a lower-case verb
_STRAY_NAME_START_RE = re.compile(r"^[«\"(]?([А-ЯЁ][а-яё]+) +(?:и|а|но) +([а-яё]+)(?![\w-])")

#: sentence-final abbreviations that end a sentence by themselves: «и т. д.», «и т. п.», «и др.», «до н. э.»
_FINAL_ABBREV_RE = re.compile(r"(?:(?<![\w.])т\.\s?[дп]|(?<![\w.])н\.\s?э|(?<![\w.-])(?:др|пр|проч))\.$")
#: a number or a Roman numeral up to two tokens before the final abbreviation: «в 1990 г.», «XIX в.»,
#: «5 тыс. руб.», «в 1990-х гг.»
_NUMBER_BEFORE_RE = re.compile(
    r"(?:\d[\w./-]*|(?<![\w-])[IVXLCDM]+(?:-[IVXLCDM]+)?)\s*(?:[а-яё]{1,6}\.?\s)?[а-яё]{1,5}\.$")
_LAST_SHORT_WORD_RE = re.compile(r"(?<![\w.-])([а-яё]{1,6})\.$")
_WORD_BEFORE_RE = re.compile(r"(?<![\w.-])([А-ЯЁа-яё]+) +$")


def _dangling_abbrev(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A sentence cut off after an abbreviation that announced a name or object: ``…подала иск в суд г.``
    (г. = город, its name lost), ``…поручил написать опровержение газскому митр.``.

    The last word before the final full stop is lower-case, of one to six letters, and either
    pymorphy3's first reading of it is an abbreviation, or (up to five letters) it is unknown or
    known only as a name (``сокр.``, ``акад.``), or it is a noun that agrees in case with no reading of the oblique
    full adjective right before it (``газскому митр.``). Passes: a number or Roman numeral up to two tokens before it (``в 1990 г.``,
    ``в XIX в.``, ``5 тыс. руб.``), the sentence-final abbreviations ``т. д.``, ``т. п.``, ``др.``,
    ``пр.``, ``н. э.``, and ordinary short words (``построили новый дом.``)."""
    text = text.rstrip()
    m = _LAST_SHORT_WORD_RE.search(text)
    if m is None or _FINAL_ABBREV_RE.search(text) or _NUMBER_BEFORE_RE.search(text):
        return False
    last = m.group(1)
    before = _WORD_BEFORE_RE.search(text, 0, m.start())
    morph = _morph()
    parses = morph.parses(last)
    if len(last) <= 5 and (not morph.word_is_known(last) or all(_PROPER_TAGS & p.tag.grammemes for p in parses)):
        return True  # «сокр.»; a lower-case word known only as a name (``акад``); longer unknown words
        # are more often loanwords (``уикенд``) than cut ones (``архиеп``)
    first = parses[0].tag
    if "Abbr" in first.grammemes:
        return True
    if before is not None and all(p.tag.POS == "NOUN" for p in parses):
        # an oblique adjective whose noun was cut off: «газскому митр.»; a nominative or accusative
        # one can govern the noun after it (``богатые рыбой``, ``полный воды``)
        adj_cases = _adjective_cases(before.group(1).lower(), morph)
        if adj_cases and not adj_cases & {"nomn", "accs"} and not adj_cases & {
                _CASE_FAMILY.get(p.tag.case, p.tag.case) for p in parses}:
            return True
    return False


#: pymorphy3's second cases as the adjective's case they agree with: «в следующем году» (loc2), «чашка чаю» (gen2)
_CASE_FAMILY = {"loc2": "loct", "gen2": "gent", "acc2": "accs", "gen1": "gent", "loc1": "loct", "voct": "nomn"}

#: cases of a full adjective by its ending, for adjectives pymorphy3 does not know (``газскому``)
_ADJ_ENDING_CASES = (
    ("ыми", {"ablt"}), ("ими", {"ablt"}), ("ому", {"datv"}), ("ему", {"datv"}), ("ого", {"gent", "accs"}),
    ("его", {"gent", "accs"}), ("ых", {"gent", "loct", "accs"}), ("их", {"gent", "loct", "accs"}),
    ("ым", {"ablt", "datv"}), ("им", {"ablt", "datv"}), ("ую", {"accs"}), ("юю", {"accs"}),
    ("ый", {"nomn", "accs"}), ("ий", {"nomn", "accs"}), ("ая", {"nomn"}), ("яя", {"nomn"}),
    ("ое", {"nomn", "accs"}), ("ее", {"nomn", "accs"}), ("ые", {"nomn", "accs"}), ("ие", {"nomn", "accs"}),
)


def _adjective_cases(word: str, morph) -> set[str]:
    """Cases a word can have as a full adjective; empty if it cannot be one (the first reading of a
    known word must be a full adjective, not a participle; an unknown one must have an adjective ending)."""
    parses = morph.parses(word)
    if morph.word_is_known(word):
        if not parses or parses[0].tag.POS != "ADJF":
            return set()
        return {p.tag.case for p in parses if p.tag.POS == "ADJF" and p.tag.case}
    for ending, cases in _ADJ_ENDING_CASES:
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return set(cases)
    return set()


#: units after a number that a comma cannot separate from it: «калибр 155, мм»
_NUMBER_COMMA_UNIT_RE = re.compile(r"\d, *(?:мм|см|км|кг|мг|мл|га|м|л|%)(?![\w-])")
#: a comma, semicolon or colon right before a closing bracket: «(НППГ;)», «(…, Вотская земля,)»
_PUNCT_BEFORE_CLOSE_RE = re.compile(r"\([^()]*[,;:] *\)")
_PREP_COMMA_RE = re.compile(r"(?<![\w-])([А-ЯЁа-яё]+),(?= +([а-яё]+)(?![\w-])(\W?))")
_TWO_PREPS_RE = re.compile(r"(?<![\w-])([а-яё]+) +(?=([а-яё]+)(?![\w-]))")
#: primary prepositions, which are neither adverbs nor postpositions (``спустя``, ``ради``, ``после`` can be)
_PRIMARY_PREPS = frozenset({
    "в", "во", "на", "по", "от", "ото", "до", "за", "под", "подо", "над", "надо", "о", "об", "обо", "у", "с",
    "со", "к", "ко", "при", "про", "без", "безо", "через", "для", "перед", "передо", "между", "среди", "из", "изо",
})
_ENTITY_RE = re.compile(r"&[A-Za-z]+;|&#x?[0-9A-Fa-f]+;")




def _garbled_punct(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """Punctuation left broken by an extraction or a careless edit.

    * a comma between a number and its unit (``калибр 155, мм``; ``155,5 мм`` passes);
    * a comma, semicolon or colon right before a closing bracket (``(НППГ;)``);
    * a comma right after a preposition before a word that is neither a preposition nor a
      parenthetical word set off by its own comma (``по, крайней мере``, ``(от, сокр.: OP)``;
      ``до, во время и после войны`` and ``в, скажем, Москве`` pass), single letters in a list
      (``а, б, в, г``) pass;
    * two prepositions in a row, left from a dropped word (``третий в по величине …``);
      ``несмотря на``, ``вплоть до`` pass.
    """
    plain = _ENTITY_RE.sub(" ", text)
    if _NUMBER_COMMA_UNIT_RE.search(plain) or _PUNCT_BEFORE_CLOSE_RE.search(plain):
        return True
    morph = _morph()
    for m in _PREP_COMMA_RE.finditer(plain):
        prep, nxt, after = m.group(1), m.group(2), m.group(3)
        if len(nxt) < 2 or after == ",":
            continue  # a letter in a list, or a parenthetical word: «в, скажем, Москве»
        if len(prep) == 1 and re.search(r"(?:^|[\s(])[А-ЯЁа-яё],\s*$", plain[: m.start()]):
            continue  # «а, б, в, г»
        if prep.lower() in _PRIMARY_PREPS and nxt not in _PRIMARY_PREPS:
            parses = morph.parses(nxt)
            if parses and parses[0].tag.POS == "CONJ":
                continue
            return True
    for m in _TWO_PREPS_RE.finditer(plain):
        first, second = m.group(1), m.group(2)
        if first in _PRIMARY_PREPS and second in _PRIMARY_PREPS and first not in ("из", "изо"):  # «из под»: a lost hyphen
            return True
    return False


#: a dash or colon standing for the copula: «Москва — столица России», «Сезон размножения: март»
_COPULA_PUNCT_RE = re.compile(r"\s(?:--|—|–|-)\s|^\W*(?:--|—|–)\s|:")
_PREDICATE_ANY = frozenset({"VERB", "INFN", "PRTS", "ADJS", "PRED", "COMP"})
#: readings scored below this are pymorphy3's dictionary noise (``части`` as an imperative)
_MIN_READING_SCORE = 0.01
_COPULA_WORDS = frozenset({"это", "вот", "нет", "есть"})
_ABOUT_PREPS = frozenset({"о", "об", "обо", "про"})


#: per lower-case word: can it be a predicate (see :func:`_no_predicate`); pymorphy3's own cache holds
#: the parses of the same words, so this grows no faster than that one
_PREDICATE_WORDS: dict[str, bool] = {}


def _can_be_predicate(word: str, morph) -> bool:
    verdict = _PREDICATE_WORDS.get(word)
    if verdict is None:
        # pymorphy3's scores rank homonyms badly (``вели`` as a name first): any reading counts
        verdict = word in _COPULA_WORDS or any(
            p.tag.POS in _PREDICATE_ANY and p.score >= _MIN_READING_SCORE for p in morph.parses(word))
        _PREDICATE_WORDS[word] = verdict
    return verdict


def _no_predicate(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    """A declarative line with no predicate at all: a noun phrase or a list of titles cut from a
    page (``Заслуженный деятель искусств Армянской ССР.``, ``Ещё несколько премий, … среди
    которых Гран-При … в 1974.``), a prepositional phrase alone (``В действующей армии с июля
    1941.``), a copula whose dash was lost (``Его отец, X, серебряный призёр …``).

    Kept: any word pymorphy3 can read (any reading scored 0.01 or more; capitalised words
    inside the sentence are names and do not count) as a finite verb, infinitive, short participle
    or adjective, comparative, or predicative; a dash or colon standing for the
    copula; «это», «вот», «нет», «есть»; a nominative noun followed by an agreeing full adjective
    that modifies no noun after it (``Берег сложный, крутой и изрезанный.``); an opening
    prepositional phrase followed by a nominative noun (``На станции одна островная платформа.``);
    questions and exclamations. Russian verbless copular sentences with a dash («X — Y») pass.
    """
    stripped = text.rstrip(" »\"')]")
    if stripped[-1:] in ("?", "!") or _COPULA_PUNCT_RE.search(text):
        return False
    words = _WORD_RE.findall(text.replace(_STRESS, ""))
    if not words:
        return False
    morph = _morph()
    # a first pass over the cached verdicts per word: nearly every sentence has a predicate word
    for k, w in enumerate(words):
        if not (k and w[:1].isupper()) and _can_be_predicate(w.lower(), morph):
            return False
    tags = []
    adj_nomn: list[set[str]] = []  # numbers in which each word can be a nominative full adjective
    num_nomn: list[set[str]] = []  # the same for a numeral
    nomn: list[bool] = []  # can be a nominative noun
    for k, w in enumerate(words):
        # a capitalised word inside the sentence is a name: its verb or adjective readings do not count
        # (``Сейны``, ``Ленина``)
        parses = [] if k and w[:1].isupper() else morph.parses(w.lower())
        if not parses:
            tags.append(None)
            adj_nomn.append(set())
            num_nomn.append(set())
            nomn.append(False)
            continue
        adj_nomn.append({p.tag.number for p in parses if p.tag.POS == "ADJF" and p.tag.case == "nomn"})
        num_nomn.append({"plur"} if any(p.tag.POS == "NUMR" and p.tag.case == "nomn" for p in parses) else set())
        tags.append(parses[0].tag)
        nomn.append(parses[0].tag.POS == "NOUN" and any(
            p.tag.POS == "NOUN" and p.tag.case == "nomn" and (p.score >= 0.3 or p is parses[0]) for p in parses))
    # a noun with a nominative reading after a nominative numeral or adjective: «две стрелы»
    for i in range(1, len(tags)):
        if tags[i] is not None and tags[i].POS == "NOUN" and adj_nomn[i - 1] | num_nomn[i - 1] and any(
                p.tag.case == "nomn" for p in morph.parses(words[i].lower())):
            nomn[i] = True
    nominatives = [i for i, flag in enumerate(nomn) if flag]
    if nominatives and tags[0] is not None and tags[0].POS == "PREP" and words[0].lower() not in _ABOUT_PREPS:
        # «На станции одна островная платформа»: a locative and a nominative subject («О лечении
        # в статье неврит.», a cross-reference, has none: «о» opens no place or time)
        return False
    for i, numbers in enumerate(adj_nomn):
        if not numbers:
            continue
        nxt = tags[i + 1] if i + 1 < len(tags) else None
        if nxt is not None and nxt.POS in ("NOUN", "ADJF", "NUMR"):
            continue  # attributive: it modifies the noun after it
        if any(j < i and (tags[j].number in numbers or tags[j].number is None) for j in nominatives):
            return False  # «Цветки сиреневые»: a predicative adjective after its subject
    return True


def _lowercase_start(text: str, tokens: Sequence[str], cfg: FilterConfig) -> bool:
    rest = text[_LEADING_RE.match(text).end():]
    if not rest:
        return True
    first = rest[0]
    return not (first.isdigit() or (first.isalpha() and first.isupper()))


FilterFn = Callable[[str, Sequence[str], FilterConfig], bool]

#: Named sentence filters in the order they are checked; each returns True to drop.
#: The text-only filters come first so that razdel tokenisation (the costly step) runs
#: only for sentences that pass them.
FILTERS: dict[str, FilterFn] = {
    "control_chars": _control_chars,
    "markup": _markup,
    "unbalanced": _unbalanced,
    "no_final_punct": _no_final_punct,
    "lowercase_start": _lowercase_start,
    "too_long": _too_long,
    "too_short": _too_short,
    "non_cyrillic": _non_cyrillic,
    # sentence quality (garbage sources); after the segmentation filters so that those keep their counts
    "hashtag": _hashtag,
    "mention": _mention,
    "retweet": _retweet,
    "emoji": _emoji,
    "glued_title": _glued_title,
    "glued_sentences": _glued_sentences,
    "glued_headline": _glued_headline,
    "footnote": _footnote,
    "unpunctuated_verse": _unpunctuated_verse,
    "broken_encoding": _broken_encoding,
    "shouting": _shouting,
    "repeated_phrase": _repeated_phrase,
    "list": _list,
    "fragment": _fragment,
    "word_salad": _word_salad,
    "dangling_abbrev": _dangling_abbrev,
    "garbled_punct": _garbled_punct,
    "no_predicate": _no_predicate,
    # a source's own errors that need no parse (rublimp.corpus.broken)
    "typo": lambda text, tokens, cfg: broken.typo(text),
    "missing_complementiser": lambda text, tokens, cfg: broken.missing_complementiser(text),
    "date_preposition": lambda text, tokens, cfg: broken.date_preposition(text),
    "copula_case": lambda text, tokens, cfg: broken.copula_without_instrumental(text),
    "locative_start": lambda text, tokens, cfg: broken.locative_start(text),
    "dash_participle": lambda text, tokens, cfg: broken.dash_participle(text),
    "bare_locative": lambda text, tokens, cfg: broken.bare_locative(text),
}
FILTER_NAMES: tuple[str, ...] = tuple(FILTERS)
_TOKEN_FILTERS = frozenset({"too_long", "too_short", "non_cyrillic"})


def evaluate_sentence(text: str, cfg: FilterConfig) -> tuple[str | None, int]:
    """First rejecting filter (or None) and the razdel token count (-1 if not tokenised)."""
    tokens: list[str] | None = None
    for name, fn in FILTERS.items():
        if name in _TOKEN_FILTERS and tokens is None:
            # Every whitespace-separated chunk is at least one razdel token, so a sentence
            # with more chunks than max_tokens is too long without tokenising it.
            if name == "too_long" and len(text.split()) > cfg.max_tokens:
                return name, -1
            tokens = tokenize_sentence(text)
        if fn(text, tokens or (), cfg):
            return name, (len(tokens) if tokens is not None else -1)
    return None, len(tokens) if tokens is not None else len(tokenize_sentence(text))


def check_sentence(text: str, config: FilterConfig | None = None) -> str | None:
    """Return the name of the first filter that rejects ``text``, or ``None`` to keep it."""
    return evaluate_sentence(text, config or FilterConfig())[0]


# --------------------------------------------------------------------------- dedupe

_QUOTES = "«»„“”‟″"
_DASHES = "‐‑‒–—―−"
_PUNCT_SPACE_RE = re.compile(r"\s+(?=[^\w\s])|(?<=[^\w\s])\s+")


def normalize_for_dedupe(text: str) -> str:
    """Normal form for exact-duplicate detection.

    NFKC (``…`` → ``...``, no-break spaces → spaces), lower case, ``ё`` → ``е``, all
    quote and dash variants unified, no whitespace around punctuation, whitespace collapsed.
    """
    norm = unicodedata.normalize("NFKC", text).lower().replace("ё", "е")
    # str.replace per present character: several times faster than str.translate here.
    for ch in _QUOTES:
        if ch in norm:
            norm = norm.replace(ch, '"')
    for ch in _DASHES:
        if ch in norm:
            norm = norm.replace(ch, "-")
    return " ".join(_PUNCT_SPACE_RE.sub("", norm).split())


# --------------------------------------------------------------------------- build

#: Columns of the sentence table.
SENTENCES_SCHEMA: dict[str, pl.DataType] = {
    "sent_id": pl.String,
    "text": pl.String,
    "domain": pl.String,
    "source": pl.String,
    "n_tokens": pl.Int32,
}


def build_sentences(
    sources: Sequence[Mapping[str, Any]],
    *,
    cache_dir: str | os.PathLike,
    min_tokens: int = 6,
    max_tokens: int = 50,
    max_sentences_per_source: int | None = None,
    seed: int = 0,
    min_cyrillic_share: float = 0.5,
    max_nonword_share: float = 0.5,
    max_bad_share: float = DEFAULT_MAX_BAD_SHARE,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Read, segment, filter and deduplicate the sentences of all ``sources``.

    Returns a DataFrame with :data:`SENTENCES_SCHEMA`, ordered by source (config order)
    and position within the source, and a JSON-ready stats dict::

        {"settings": {...}, "total": C, "sources": {name: C}, "domains": {domain: C}}

    where each ``C`` counts ``documents``, ``sentences_seen``, ``dropped`` (per filter),
    ``duplicates``, ``sampled_out`` and ``kept``, and ``"input": {name: {...}}`` tells per source how many lines (trees) were read and
    skipped as unreadable, the first skipped ones and the first sentences dropped for
    control characters, each as ``file:line``.

    * Unreadable input (a line that is not UTF-8, a malformed CoNLL-U tree) is skipped
      and counted up to ``max_bad_share`` of a source's lines (trees); beyond it the
      source is an :class:`~rublimp.io.InputError` naming the file and first bad lines.

    * Raw-text sources: ``sent_id`` is ``"{source}-{doc_index}-{sent_index}"``, both
      0-based over the source's documents and each document's razdel sentences before
      filtering; ``n_tokens`` counts razdel tokens.
    * ``conllu`` sources are already parsed: their sentences are neither segmented nor
      filtered, ``sent_id`` is :func:`~rublimp.corpus.sources.conllu_sent_id` of the
      file's id, and they count no documents. They are read before every other source,
      so they win every duplicate; the parse stage takes their trees from the file.
    * Exact duplicates (:func:`normalize_for_dedupe`) are dropped across all sources;
      the first occurrence is kept.
    * With ``max_sentences_per_source``, each source keeps a uniform random sample
      (reservoir sampling seeded with ``seed`` and the source name) of its surviving
      sentences; sampled-out sentences still count as seen for deduplication.

    Raises :class:`~rublimp.io.InputError` for bad settings, missing files, and for a
    source of which no sentence survives (naming it, e.g. ``corpus.sources[0] ('mytext')``).

    The work is done in bounded memory by :func:`rublimp.corpus.build.build_sentences_file`
    (spilled to a temporary folder); this function reads its table back.
    """
    import tempfile

    from .build import build_sentences_file

    with tempfile.TemporaryDirectory(prefix="rublimp_corpus_") as tmp:
        out = Path(tmp) / "sentences.parquet"
        stats = build_sentences_file(
            sources, out, cache_dir=cache_dir, min_tokens=min_tokens, max_tokens=max_tokens,
            max_sentences_per_source=max_sentences_per_source, seed=seed, min_cyrillic_share=min_cyrillic_share,
            max_nonword_share=max_nonword_share, max_bad_share=max_bad_share, spill_dir=tmp,
        )
        df = pl.read_parquet(out)
    return df, stats


def write_sentences(
    df: pl.DataFrame,
    stats: Mapping[str, Any],
    parquet_path: str | os.PathLike,
    json_path: str | os.PathLike,
) -> None:
    """Write the sentence table (Parquet) and its stats (JSON), each atomically."""
    missing = [c for c in SENTENCES_SCHEMA if c not in df.columns]
    if missing:
        raise ValueError(f"sentence table lacks column(s) {', '.join(missing)}")
    write_parquet_atomic(df.select(list(SENTENCES_SCHEMA)), parquet_path, row_group_size=ROW_GROUP_ROWS)
    write_json_atomic(json_path, dict(stats))
