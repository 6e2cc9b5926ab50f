"""WORD FORMATION: the three RuBLiMP paradigms of Appendix B.1.1.

* ``add_new_suffix`` — a derivational suffix is inserted between the root and
  the existing suffix of a noun or adjective («старенькая» → «*старскенькая»),
  or, as RuBLiMP does, between a bare root and its ending («плечи» →
  «*плечники», «стол» → «*столник»; see :func:`bare_split`); the new word must keep a
  pronounceable shape (:func:`sounds_russian`: no pile of four consonants where the suffix
  meets the root, no new word-final cluster: never «*суткиств», «*российскствий»);
* ``add_verb_prefix`` — a one-prefix verb gets a second prefix, either a
  lexical one in front («выедают» → «*свыедают», «написал» → «*вынаписал») or
  one between a lexical prefix and the root («выедают» → «*выпоедают»; the
  paper's «*вывъедают» is refused here because «въедают» is missing from
  pymorphy3's dictionary and «ывъ» occurs in no Russian word);
* ``change_verb_prefixes_order`` — the two prefixes of a two-prefix verb swap
  places («перевыполнили» → «*выпереполнили»).

A prefix already in the word keeps its written vowel wherever it ends up («совпали» →
«*всопали», «состоит» → «*сопредстоит»): cut to с- it would read as a new prefix on
another verb (*вспали, *спредстоит). A ы written for и after a prefix begins the root
(от-ыскивать), so no second prefix is cut there (never от-ис-кивать).

Words are segmented with :class:`rublimp.lexicon.Lexicon` (the curated affixes
of ``resources/affixes.tsv`` checked against pymorphy3's dictionary). As in the
paper, an added affix must co-occur with the root elsewhere in the dictionary
(«въедают» exists, so в- may be added to «выедают»), and the new word must not
be a dictionary word and must consist of letter trigrams attested in Russian.
``add_new_suffix`` relaxes the co-occurrence for a word with a host suffix where no
inserted suffix co-occurs with the root: it then takes one that does not (as RuBLiMP's
pairs do: «лесных» → «*лесизмных»), provided the new word begins no dictionary word.
Prefix stacking is grammatical in Russian when the outer prefix is a
"superlexical" one (пере-, недо-, по-, на-, при-, …: перевыполнить); the
paradigms therefore only ever put a *lexical* prefix (``role`` ``lexical`` in
``affixes.tsv``) in the outermost slot — except that ``change_verb_prefixes_order``
moves a stacking prefix outside where what it would stack on is no word
(«преподнёс» → «*подпренёс»: *пренёс; RuBLiMP swaps these),
never where it is («попридержал» → *«приподержал»: подержал).

Pool columns: ``add_new_suffix`` — feature ``suffix``, source value the host
suffix, target value ``inserted+host``, subtype ``ADJ``/``NOUN``;
``add_verb_prefix`` — feature ``prefix``, source value the old prefix, target
value the new prefix chain (``с+вы``), subtype ``outer``/``inner``;
``change_verb_prefixes_order`` — feature ``prefix_order``, source and target
value the two prefix orders (``пере+вы`` → ``вы+пере``), subtype the verb lemma.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path
from typing import Iterator

from ..conllu_doc import Sentence, Token
from ..lexicon import (
    CONSONANTS,
    SUFFIX_PAIRS_FILE,
    VOWELS,
    Affix,
    Lexicon,
    VerbSplit,
    get_lexicon,
    load_suffix_pairs,
    normalize,
)
from ..trees.lexical import PROPER_TAGS, long_form_only
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "PHENOMENON",
    "AddNewSuffix",
    "AddVerbPrefix",
    "ChangeVerbPrefixesOrder",
    "unique_verb_split",
    "suffix_split",
    "bare_split",
    "sounds_russian",
]

PHENOMENON = "word_formation"
LEVEL = "Morphology"

EXCLUDED_TAGS = PROPER_TAGS | {"Erro", "Dist", "Apro", "Anum"}
VERB_POS = frozenset({"VERB", "INFN", "PRTF", "PRTS", "GRND"})
# inflectional endings, longest first (the stem before them ends in the host suffix)
ADJ_ENDINGS = tuple(
    sorted(
        ("ого", "его", "ому", "ему", "ыми", "ими", "ая", "яя", "ое", "ее", "ую", "юю", "ой", "ей", "ый", "ий",
         "ым", "им", "ом", "ем", "ые", "ие", "ых", "их", "ою", "ею"),
        key=lambda e: (-len(e), e),
    )
)
NOUN_ENDINGS = tuple(
    sorted(
        ("ами", "ями", "ах", "ях", "ам", "ям", "ов", "ев", "ей", "ой", "ом", "ем", "ью", "ою", "ею",
         "а", "я", "о", "е", "у", "ю", "ы", "и", "ь", ""),
        key=lambda e: (-len(e), e),
    )
)
# quality nouns are made from adjectives: their root must be an adjective's (рад-ость, свеж-есть)
DEADJECTIVAL_HOSTS = frozenset({"ость", "есть"})
# a root counts as free when the dictionary has it with one of these endings (стар-ый, рад, учи-ть)
FREE_STEM_ENDINGS = ("", "ый", "ий", "ой", "а", "я", "о", "ь", "ия", "ие", "ить", "ать", "еть")
_CYRILLIC = re.compile(r"^[а-яё]+$", re.IGNORECASE)


def _first_word_id(sent: Sentence) -> int:
    return next((t.id for t in sent.tokens if t.upos != "PUNCT"), 1)


def _plain_word(tok: Token, first_id: int, min_len: int = 4) -> bool:
    """A lower-case (or sentence-initial: ``first_id``) purely Cyrillic word of at least ``min_len`` letters
    aligned with the text."""
    f = tok.form
    if tok.start < 0 or len(f) < min_len or not _CYRILLIC.match(f) or (f.isupper() and len(f) > 1):
        return False
    return not (f[0].isupper() and tok.id != first_id)


def unique_verb_split(lexicon: Lexicon, lemma: str, form: str) -> VerbSplit | None:
    """The split of the verb with the fewest prefixes, or None when there is none or two such splits differ.

    «подойти» is под(о)-йти, not по-до-йти; «предоставить» is пред(о)-ставить.
    """
    splits = lexicon.split_verb(lemma, form)
    if not splits:
        return None
    n = len(splits[0].prefixes)
    best = [s for s in splits if len(s.prefixes) == n]
    return best[0] if len(best) == 1 else None


def suffix_split(lexicon: Lexicon, form: str, lemma: str, pos: str) -> tuple[str, Affix, str] | None:
    """(root, host suffix, ending) of an adjective (``pos="ADJ"``) or noun (``"NOUN"``) form, or None.

    The host suffix is one of the ``host`` suffixes of ``affixes.tsv`` right
    before the inflectional ending; the root before it must be a free stem of
    the dictionary (стар-еньк-ая: старый; рад-ост-ь: рад), at least three
    letters long, with a vowel, and not ending in ь/й; the lemma must continue
    the root with the suffix's citation form (рад + ость). Longer host
    suffixes are tried first.
    """
    norm, lem = normalize(form), normalize(lemma)
    endings = ADJ_ENDINGS if pos == "ADJ" else NOUN_ENDINGS
    hosts = lexicon.affixes.host_spellings(pos)
    for ending in endings:
        if not norm.endswith(ending) or len(norm) - len(ending) < 4:
            continue
        stem = norm[: len(norm) - len(ending)]
        for spelling, host in hosts:
            if not stem.endswith(spelling):
                continue
            root = stem[: len(stem) - len(spelling)]
            if len(root) < 3 or not (set(root) & VOWELS) or root[-1] in "ьйъ":
                continue
            if not (lem.startswith(root) and lem[len(root) :].startswith(host.affix)):
                continue  # нерест is not нер-есть: the lemma must show the suffix's citation form
            if _free_stem(lexicon, root, adjectival=host.affix in DEADJECTIVAL_HOSTS):
                return form[: len(root)].lower(), host, ending
        if pos == "ADJ":
            break  # adjectives: only the longest matching ending is the real one
    return None


# lemma endings after a bare root (брат, плеч-о, жен-а, тёмн-ый is not bare: н is a suffix)
BARE_LEMMA_ENDINGS = frozenset({"", "а", "я", "о", "е", "ь", "ый", "ий", "ой", "ие", "ия"})


def bare_split(lexicon: Lexicon, form: str, lemma: str, pos: str) -> tuple[str, None, str] | None:
    """(root, None, ending) of a noun or adjective with no derivational suffix (плеч-и, брат-а, жен-у).

    RuBLiMP inserts its suffix right after the root whatever follows it («плечи» →
    «*плечники», «брат» → «*братник»); :func:`suffix_split` finds only words with a
    host suffix, too few of RuBLiMP's pairs. The stem before the
    inflectional ending must begin the lemma, which continues it with a bare lemma
    ending, and be at least three letters with a vowel, not ending in ь/й/ъ.
    """
    norm, lem = normalize(form), normalize(lemma)
    endings = ADJ_ENDINGS if pos == "ADJ" else NOUN_ENDINGS
    for ending in endings:
        if not norm.endswith(ending):
            continue
        root = norm[: len(norm) - len(ending)]
        if len(root) < 3 or not (set(root) & VOWELS) or root[-1] not in CONSONANTS or root[-1] == "й":
            continue  # (a root ends in a consonant: «сутки» is сутк-и, never a root «сутки»)
        if lem.startswith(root) and lem[len(root):] in BARE_LEMMA_ENDINGS:
            return form[: len(root)].lower(), None, ending
        if pos == "ADJ":
            break
    return None


# the longest consonant run an inserted suffix may make where it meets the root (стол-ник: лн,
# мост-ник: стн; never российск-ств: скств)
MAX_JUNCTION_CONSONANTS = 3


def _consonant_run(letters: str) -> int:
    n = 0
    for c in letters:
        if c not in CONSONANTS:
            break
        n += 1
    return n


def sounds_russian(root: str, suffix: str, tail: str) -> bool:
    """May ``root`` + inserted ``suffix`` + ``tail`` (the rest of the word) be pronounced as Russian?

    The letter-trigram test passes strings no Russian word has the shape of («суткиств»,
    «российскствий»), since each three-letter window occurs somewhere. This asks for the
    shape itself: the consonants where root and suffix meet, and where suffix and tail meet,
    make a run of at most :data:`MAX_JUNCTION_CONSONANTS` letters, and the new word does not
    end (before a final ь) in a run of three or more consonants the old word did not end in
    (*столств, *кроватствь).
    """
    r, s, t = normalize(root), normalize(suffix), normalize(tail)
    if _consonant_run(r[::-1]) + _consonant_run(s) > MAX_JUNCTION_CONSONANTS:
        return False
    if _consonant_run(s[::-1]) + _consonant_run(t) > MAX_JUNCTION_CONSONANTS:
        return False
    new, old = (r + s + t).rstrip("ь"), (r + t).rstrip("ь")
    return _consonant_run(new[::-1]) < 3 or _consonant_run(old[::-1]) >= 3


def _restore_yo(form: str, rest: str) -> str:
    """``rest`` (a normalised tail of ``form``) with the ё letters ``form`` has there (провёл → вёл)."""
    tail = form[len(form) - len(rest) :]
    return "".join("ё" if c == "е" and t == "ё" else c for c, t in zip(rest, tail))


def _free_stem(lexicon: Lexicon, root: str, *, adjectival: bool = False) -> bool:
    """Is ``root`` + one of :data:`FREE_STEM_ENDINGS` the dictionary form of some word (стар-ый, рад, учи-ть)?

    With ``adjectival`` the word must be an adjective (свеж-ий for свеж-есть; пов- of повесть is none).
    """
    for e in FREE_STEM_ENDINGS:
        w = root + e
        if not lexicon.is_word(w):
            continue
        for p in lexicon.morph.parses(w):
            if normalize(p.normal_form) == w and (not adjectival or p.tag.POS in ("ADJF", "ADJS")):
                return True
    return False


class _FormationParadigm(Paradigm):
    new_words = "nonword"  # the self-check: no dictionary word, attested letter trigrams
    phenomenon = PHENOMENON
    level = LEVEL
    resources = ("affixes.tsv", "letter_trigrams.txt")

    @functools.cached_property
    def lexicon(self) -> Lexicon:
        return get_lexicon(self.ctx.resources_dir, self.morph)

    def _verb(self, tok: Token, first_id: int, *, rare_rest: bool = False) -> tuple[str, VerbSplit] | None:
        """(lemma, split) of a verb token whose prefixes can be read unambiguously.

        A token the parser did not tag VERB still counts when every dictionary
        reading of it is verbal (slovnet tags rare verbs such as «недовыполнил» ADJ).
        With ``rare_rest``, a verb the lexicon does not cut gets its one cut before a rare
        dictionary verb (:meth:`~rublimp.lexicon.Lexicon.dictionary_cut`: при-близиться).
        """
        if not _plain_word(tok, first_id):
            return None
        if tok.upos == "VERB":
            analysis = self.morph.analyse(tok.form, tok.upos, tok.feats)
        elif tok.upos in ("ADJ", "NOUN", "ADV", "X", "PROPN") and self.lexicon.is_word(tok.form):
            # (PROPN: a sentence-initial verb, «Вспомни …»; _plain_word admits no other capital)
            parses = self.morph.parses(tok.form)
            if not parses or any(p.tag.POS not in VERB_POS for p in parses):
                return None
            analysis = self.morph.analyse(tok.form, "VERB", {})
        else:
            return None
        if analysis is None or analysis.tag.POS not in VERB_POS or EXCLUDED_TAGS & analysis.tag.grammemes:
            return None
        split = unique_verb_split(self.lexicon, analysis.lemma, tok.form)
        if split is None and rare_rest and not self.lexicon.split_verb(analysis.lemma, tok.form):
            split = self.lexicon.dictionary_cut(analysis.lemma, tok.form) or self._partner_cut(analysis.lemma, tok.form)
        return None if split is None else (normalize(analysis.lemma), split)

    @functools.cached_property
    def _aspect_pairs(self):
        from ..aspect_pairs import ASPECT_PAIRS_FILE, load_aspect_pairs

        return load_aspect_pairs(Path(self.ctx.resources_dir) / ASPECT_PAIRS_FILE)

    def _partner_cut(self, lemma: str, form: str) -> VerbSplit | None:
        """The one prefix of a secondary imperfective (-ыва-/-ива-, -ва-: похваливать, отсиживаться) read
        off its perfective partner (``aspect_pairs.tsv``: по-хвалить, от-сидеться): the suffix is added to
        the prefixed perfective, so the imperfective has that prefix, though its rest («хваливать») is no
        verb of its own. Only a partner cut into exactly one prefix whose spelling both the lemma and the
        form begin with; None otherwise."""
        lemma, form = normalize(lemma), normalize(form)
        partner = self._aspect_pairs.perfective(lemma)
        if partner is None or self._aspect_pairs.pattern(lemma) not in ("-ыва-", "-ва-"):
            return None
        split = unique_verb_split(self.lexicon, partner, partner)
        if split is None or len(split.prefixes) != 1:
            return None
        written = self.lexicon.written_prefixes(split, partner)
        if written is None or not lemma.startswith(written[0]) or not form.startswith(written[0]):
            return None
        return VerbSplit(split.prefixes, lemma[len(written[0]):], form[len(written[0]):])


#: pymorphy3 parts of speech of function words: a noun form that is also one is often used as one
_FUNCTION_POS = frozenset({"PRCL", "CONJ", "PREP", "INTJ"})


@register
class AddNewSuffix(_FormationParadigm):
    """Insert a derivational suffix between the root and the suffix of a noun or adjective."""

    name = "add_new_suffix"
    resources = _FormationParadigm.resources + ("suffix_pairs.tsv",)
    options = ("suffix_pair_max_lemmas",)
    # an inserted+host sequence found in more dictionary lemmas than this is an attested
    # (interpretable) combination; a few hits are root-internal (прост-еньк-ий has ост+еньк)
    MAX_PAIR_LEMMAS = 2
    # rare in the dictionary but a productive, interpretable pattern: артист-изм → *турист-изм
    INTERPRETABLE_PAIRS = frozenset({("ист", "изм")})

    @functools.cached_property
    def pair_counts(self) -> dict[tuple[str, str], int]:
        return load_suffix_pairs(Path(self.ctx.resources_dir) / SUFFIX_PAIRS_FILE)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        max_pair = int(self.ctx.options.get("suffix_pair_max_lemmas", self.MAX_PAIR_LEMMAS))
        first_id = _first_word_id(sent)
        for tok in sent.tokens:
            pos = {"ADJ": "ADJ", "NOUN": "NOUN"}.get(tok.upos)
            # (three-letter nouns and adjectives too: a bare root takes a suffix like any other, «нос» →
            # *«носизм», «хан» → *«ханист», as RuBLiMP's pairs do)
            if pos is None or not _plain_word(tok, first_id, min_len=3):
                continue
            if pos == "NOUN" and long_form_only(tok.form):
                pos = "ADJ"  # tree repair: a known adjective the parser tagged as a noun («в противоположную сторону»)
            analysis = self.morph.analyse(tok.form, pos, tok.feats)
            want = {"ADJ": ("ADJF",), "NOUN": ("NOUN",)}[pos]
            if analysis is None or analysis.tag.POS not in want or EXCLUDED_TAGS & analysis.tag.grammemes:
                continue
            if len(tok.form) == 3 and (normalize(tok.form) != normalize(analysis.lemma) or any(
                p.tag.POS not in ("NOUN", "ADJF") for p in self.morph.parses(tok.form.lower())
            )):
                # a three-letter word only as its own lemma (not a zero-ending genitive plural, «сёл»,
                # «пор»: the new word would look like a nominative) and with no function-word or verb
                # reading («раз», «мел»)
                continue
            if any(p.tag.POS in _FUNCTION_POS for p in self.morph.parses(tok.form.lower())):
                continue  # a noun that is also a particle, conjunction or preposition («максимум 9 лет», «плюс»)
            for new, source_value, target_value in self._candidates(tok.form, analysis.lemma, pos, max_pair):
                if not self._keeps_reading(new, analysis):
                    continue  # «ребята» → «*ребятника» reads as a genitive singular: a second error
                yield Perturbation(
                    edits=(Edit(tok.id, new),),
                    feature="suffix",
                    source_value=source_value,
                    target_value=target_value,
                    subtype=pos,
                )

    def _keeps_reading(self, new: str, analysis) -> bool:
        """Whether the new word still reads as a plural where the original is one without doubt: a
        plural noun or adjective that pymorphy3 reads only as a plural («ребята»), made into a word in
        «-а/-я» that pymorphy3 (guessing) reads only as a singular («*ребятника»: a genitive singular)
        would change number too, a second error. Other words pass: RuBLiMP's own pairs keep no reading
        there («года» → «годника»: «года» is a genitive singular as well)."""
        tag = analysis.tag
        if tag.POS == "NOUN" and tag.gender == "femn" and tag.number == "sing" and tag.case:
            # a feminine singular whose ending keeps its case only in its own declension: with a suffix
            # of another gender the ending reads as another case («риторику» → «*риторикизму»: a dative
            # of a masculine, «поэтика» → «*поэтикизма»: a genitive), a second error
            return any(p.tag.POS == "NOUN" and {tag.case, "sing"} <= p.tag.grammemes for p in self.morph.parses(new))
        if tag.number != "plur" or not new.endswith(("а", "я")):
            return True
        if any(p.tag.POS == tag.POS and "sing" in p.tag.grammemes for p in self.morph.parses(analysis.parse.word)):
            return True
        return any(p.tag.POS == tag.POS and "plur" in p.tag.grammemes for p in self.morph.parses(new))

    @functools.cached_property
    def _candidates(self):
        """The word-level work, memoised per paradigm: words recur across sentences."""
        return functools.lru_cache(maxsize=200_000)(self._word_candidates)

    def _word_candidates(self, form: str, lemma: str, pos: str, max_pair: int) -> tuple[tuple[str, str, str], ...]:
        """(new word, source value, target value) for one noun or adjective form."""
        lx = self.lexicon
        out: list[tuple[str, str, str]] = []
        split = suffix_split(lx, form, lemma, pos) or bare_split(lx, form, lemma, pos)
        if split is None:
            return ()
        root, host, ending = split
        if pos == "NOUN" and not ending and normalize(form) != normalize(lemma):
            # a zero-ending form that is not the lemma (the genitive plural «птиц», «книг»): root + suffix
            # reads as a nominative singular («*птицист»: an agent noun like «артист»), so the case the
            # sentence needs is broken too, a second error
            return ()
        adj_suffixes = {sp for sp, _ in lx.affixes.host_spellings("ADJ")}
        host_spelling = normalize(form)[len(root) : len(form) - len(ending)]
        inserts = lx.affixes.suffixes("insert")
        if host is None:
            # a bare root takes one suffix, starting at a place fixed by the word (varied
            # like RuBLiMP's random choice, yet deterministic): six candidates per noun and
            # adjective would make the paradigm several times slower for one pooled pair
            k = int(hashlib.sha1(normalize(form).encode("utf-8")).hexdigest()[:8], 16) % len(inserts)
            inserts = inserts[k:] + inserts[:k]
        unattested: list[tuple[str, str, str]] = []
        for ins in inserts:
            y = ins.spelling
            if host is not None:
                if y == host_spelling or (y, host.spelling) in self.INTERPRETABLE_PAIRS:
                    continue
                if self.pair_counts.get((y, host.spelling), max_pair + 1) > max_pair:
                    continue  # an attested (interpretable) combination, or one never counted
            if not ending and y != ins.lookup:
                continue  # «-ость» at a zero ending would lose its «ь»: «максимум» → «*максимумост» is no noun in «-ость»
            new = root + y + form[len(root) :].lower()
            if not sounds_russian(root, y, form[len(root) :].lower()):
                continue  # «*российскствий», «*столств»: a consonant pile at the junction or the end
            if host is None:
                # a bare root: «root + suffix» beginning a dictionary word is exactly what
                # the host rule asks for and refuses at once; here the new word itself
                # must begin no dictionary word (плечистый: *плечисти is refused). An
                # adjective gets no adjective-forming suffix: нов-ист-ый would read as a
                # possible adjective (камен-ист-ый), нов-ост-ый cannot.
                if lx.has_prefix(new) or (pos == "ADJ" and y in adj_suffixes):
                    continue
            elif lx.has_prefix(root + y + host_spelling):
                continue  # a dictionary word already continues this way
            elif not lx.has_prefix(root + ins.lookup):
                # the suffix never follows this root in the dictionary: kept aside, used only when no
                # suffix does (RuBLiMP inserts into such words too: «лесных», «точный», «радость»), and
                # only where the new word begins no dictionary word
                if not lx.has_prefix(new) and lx.is_novel(new):
                    unattested.append((new, host.affix, f"{ins.affix}+{host.affix}"))
                continue
            if not lx.is_novel(new):
                continue
            out.append((new, host.affix if host else "-", f"{ins.affix}+{host.affix}" if host else ins.affix))
            if host is None:
                break
        if not out and unattested:
            # one of them, at a place fixed by the word (as for a bare root)
            k = int(hashlib.sha1(normalize(form).encode("utf-8")).hexdigest()[:8], 16) % len(unattested)
            out.append(unattested[k])
        return tuple(out)


@register
class AddVerbPrefix(_FormationParadigm):
    """Give a one-prefix verb a second prefix: a lexical one in front, or one inside a lexical prefix.

    «выедают» → «*свыедают» (outer) and «*выпоедают» (inner).

    The added prefix must make a dictionary form of the same verb stem on its
    own (по- may go into «выедают» because «поедают» is a form of «поедать»).
    Among the prefixes that do, the one whose own form is the most frequent
    (wordfreq) is used, once in front and once inside (``options["prefix_candidates"]``
    changes how many of each).
    """

    name = "add_verb_prefix"
    options = ("prefix_candidates",)
    resources = _FormationParadigm.resources + ("aspect_pairs.tsv",)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        first_id = _first_word_id(sent)
        for tok in sent.tokens:
            found = self._verb(tok, first_id, rare_rest=True)
            if found is None or len(found[1].prefixes) != 1:
                continue
            (p,) = found[1].prefixes
            for slot, new, q in self._new_verbs(tok.form.lower(), found[1]):
                target = f"{q}+{p}" if slot == "outer" else f"{p}+{q}"
                yield Perturbation(
                    edits=(Edit(tok.id, new),), feature="prefix", source_value=p, target_value=target, subtype=slot
                )

    @functools.cached_property
    def _new_verbs(self):
        """:meth:`_verb_new_verbs`, memoised per paradigm: the same verb forms recur across a corpus."""
        return functools.lru_cache(maxsize=100_000)(self._verb_new_verbs)

    def _verb_new_verbs(self, form: str, split: VerbSplit) -> tuple[tuple[str, str, str], ...]:
        """(slot, new word, added prefix) for the one-prefix verb form ``form`` cut as ``split``, best
        first in each slot."""
        lx = self.lexicon
        per_slot = int(self.ctx.options.get("prefix_candidates", 1))
        (p,) = split.prefixes
        p_aff = lx.affixes.prefix(p)
        if p_aff is None:
            return ()
        rest = _restore_yo(form, split.form_rest)
        written = lx.written_prefixes(split, form)
        if written is None:
            return ()
        outer: list[tuple[float, str, str]] = []
        inner: list[tuple[float, str, str]] = []
        # with an o-variant (со-, во-, ото-) an inner о- would fuse into the old prefix: с + о-пустится
        fused = tuple(a for a in p_aff.allomorphs if a.endswith("о") and not p.endswith("о"))
        for q in lx.affixes.prefixes:
            score = None if q.affix == p else lx.cooccurs(q, split.lemma_rest, rest)
            if score is None:
                continue
            # a lexical prefix in front of the whole verb: в + вы-грызаются is impossible, вгрызаются exists
            if q.role == "lexical" and not _comitative(lx.join_prefix(q, form), form):
                outer.append((score, lx.join_prefix(q, form), q.affix))
            # a second prefix between a lexical prefix and the root: вы + въедают
            # (the old prefix is kept as written: «состоит» → «*сопредстоит», never «*спредстоит»,
            # which reads as с- + предстоит)
            if p_aff.role == "lexical" and normalize(written[0]) != _CO:
                new = lx.join_written(p_aff, written[0], lx.join_prefix(q, rest))
                if not (fused and not written[0].endswith("о") and new.startswith(fused)):
                    inner.append((score, new, q.affix))
        out: list[tuple[str, str, str]] = []
        for slot, cands in (("outer", outer), ("inner", inner)):
            n = 0
            for _, new, q in sorted(cands, key=lambda c: (-c[0], c[2])):
                if n >= per_slot:
                    break
                if normalize(new) == normalize(form) or not lx.is_novel(new):
                    continue
                n += 1
                out.append((slot, new, q))
        return tuple(out)


# «со-» 'together, co-' stacks on prefixed verbs and nouns freely (сопереживать, соучаствовать,
# сопредседатель): «со-» + a prefixed verb reads as a possible word, so add_verb_prefix never
# makes such a stack (outer «со-» added, or a prefix put inside a kept «со-»: *сопредстоит)
_CO = "со"


def _comitative(new: str, form: str) -> bool:
    """Does ``new`` put a written «со-» in front of ``form``?"""
    return normalize(new) == _CO + normalize(form)


@register
class ChangeVerbPrefixesOrder(_FormationParadigm):
    """Swap the two prefixes of a two-prefix verb («перевыполнили» → «*выпереполнили»)."""

    name = "change_verb_prefixes_order"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        lx = self.lexicon
        first_id = _first_word_id(sent)
        for tok in sent.tokens:
            found = self._verb(tok, first_id)
            if found is None or len(found[1].prefixes) != 2:
                continue
            lemma, split = found
            outer, inner = split.prefixes
            inner_aff, outer_aff = lx.affixes.prefix(inner), lx.affixes.prefix(outer)
            if inner_aff is None or outer_aff is None:
                continue
            rest = _restore_yo(tok.form.lower(), split.form_rest)
            if inner_aff.role != "lexical" and lx.is_word(lx.join_prefix(outer_aff, rest)):
                # the prefix that moves outside must be one that cannot stack (see module doc),
                # or have no word to stack on: «под-пре-нёс» (*пренёс) is no stacked formation,
                # «при-по-держать» (подержать) could be one
                continue
            written = lx.written_prefixes(split, tok.form)
            if written is None:
                continue
            # each prefix keeps its written vowel: «совпали» → «*всопали», never «*вспали»
            # (со- cut to с- reads as another, older verb)
            new = lx.join_written(inner_aff, written[1], lx.join_written(outer_aff, written[0], rest))
            if not lx.is_novel(new):
                continue
            yield Perturbation(
                edits=(Edit(tok.id, new),),
                feature="prefix_order",
                source_value=f"{outer}+{inner}",
                target_value=f"{inner}+{outer}",
                subtype=lemma,
            )
