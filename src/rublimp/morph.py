"""pymorphy3 on top of UD: choosing the analysis that matches a parsed token, and inflecting it.

Universal Dependencies features (what the parser gives) and OpenCorpora
grammemes (what pymorphy3 speaks) are mapped here once; every paradigm goes
through :class:`Morph` so the same analysis choice and the same ambiguity
checks apply everywhere.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable

import pymorphy3

__all__ = [
    "Morph",
    "get_morph",
    "UD2OC",
    "OC2UD",
    "ud_to_grammemes",
    "grammemes_to_ud",
    "match_case",
]

# UD feature value -> OpenCorpora grammeme, per feature.
UD2OC: dict[str, dict[str, str]] = {
    "Case": {"Nom": "nomn", "Gen": "gent", "Dat": "datv", "Acc": "accs", "Ins": "ablt", "Loc": "loct",
             "Par": "gen2", "Voc": "voct"},
    "Number": {"Sing": "sing", "Plur": "plur"},
    "Gender": {"Masc": "masc", "Fem": "femn", "Neut": "neut"},
    "Person": {"1": "1per", "2": "2per", "3": "3per"},
    "Tense": {"Past": "past", "Pres": "pres", "Fut": "futr"},
    "Aspect": {"Perf": "perf", "Imp": "impf"},
    "Animacy": {"Anim": "anim", "Inan": "inan"},
    "Mood": {"Ind": "indc", "Imp": "impr"},
    "Voice": {"Act": "actv", "Pass": "pssv"},
}
OC2UD: dict[str, tuple[str, str]] = {oc: (feat, ud) for feat, m in UD2OC.items() for ud, oc in m.items()}
OC2UD["gen1"] = ("Case", "Gen")
OC2UD["acc2"] = ("Case", "Acc")
OC2UD["loc1"] = ("Case", "Loc")
OC2UD["loc2"] = ("Case", "Loc")
OC2UD["ms-f"] = ("Gender", "Com")
OC2UD["Ms-f"] = ("Gender", "Com")

# UPOS -> pymorphy3 parts of speech that may realise it.
UPOS2POS: dict[str, frozenset[str]] = {
    "NOUN": frozenset({"NOUN"}),
    "PROPN": frozenset({"NOUN"}),
    "ADJ": frozenset({"ADJF", "ADJS", "COMP", "PRTF", "PRTS"}),
    "VERB": frozenset({"VERB", "INFN", "PRTF", "PRTS", "GRND"}),
    "AUX": frozenset({"VERB", "INFN", "PRTS"}),
    "DET": frozenset({"ADJF", "NPRO"}),
    "PRON": frozenset({"NPRO", "ADJF"}),
    "NUM": frozenset({"NUMR", "ADJF"}),
    "ADV": frozenset({"ADVB", "PRED", "COMP", "ADJS"}),
    "ADP": frozenset({"PREP"}),
    "CCONJ": frozenset({"CONJ"}),
    "SCONJ": frozenset({"CONJ"}),
    "PART": frozenset({"PRCL"}),
    "INTJ": frozenset({"INTJ"}),
}


def ud_to_grammemes(feats: dict[str, str], keys: Iterable[str] | None = None) -> set[str]:
    """OpenCorpora grammemes for the UD features in ``feats`` (optionally only ``keys``)."""
    out: set[str] = set()
    for k, v in feats.items():
        if keys is not None and k not in keys:
            continue
        g = UD2OC.get(k, {}).get(v)
        if g:
            out.add(g)
    return out


def grammemes_to_ud(tag) -> dict[str, str]:
    """UD features read off a pymorphy3 tag (only the features mapped above)."""
    out: dict[str, str] = {}
    for g in tag.grammemes:
        if g in OC2UD:
            feat, val = OC2UD[g]
            out.setdefault(feat, val)
    pos = tag.POS
    if pos in ("VERB",):
        out["VerbForm"] = "Fin"
    elif pos == "INFN":
        out["VerbForm"] = "Inf"
    elif pos in ("PRTF", "PRTS"):
        out["VerbForm"] = "Part"
    elif pos == "GRND":
        out["VerbForm"] = "Conv"
    if pos in ("ADJS", "PRTS"):
        out["Variant"] = "Short"
    return out


def match_case(template: str, word: str) -> str:
    """Give ``word`` the capitalisation pattern of ``template`` (lower, Title or UPPER).

    Hyphenated words take the pattern part by part when both have the same number of
    parts («Азиатско-Тихоокеанский» → «Азиатско-Тихоокеанскому», «Ростов-на-Дону» → «Ростова-на-Дону»).
    """
    if not template or not word:
        return word
    if "-" in template and template.count("-") == word.count("-") and not (template.isupper() and len(template) > 1):
        return "-".join(match_case(t, w) for t, w in zip(template.split("-"), word.split("-")))
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[0].isupper():
        return word[0].upper() + word[1:]
    if template.islower():
        return word.lower()
    return word


@dataclass(frozen=True)
class Analysis:
    """A chosen pymorphy3 parse and how well it agreed with the parser."""

    parse: object  # pymorphy3.analyzer.Parse
    agreement: float

    @property
    def lemma(self) -> str:
        return self.parse.normal_form

    @property
    def tag(self):
        return self.parse.tag


class _CachingAnalyzer(pymorphy3.MorphAnalyzer):
    """pymorphy3's analyser with memoised lexemes and inflections.

    Rebuilding a lexeme is pymorphy3's slowest step and paradigms ask for the
    same few thousand lexemes over and over (measured: 60% of an agreement
    paradigm's time). Every ``Parse.inflect`` call, also from paradigm code that
    uses pymorphy3 directly, goes through these methods.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A tag's grammeme attributes (tag.POS, tag.case, …) return plain strings: pymorphy3 by default
        # wraps each in a str subclass whose == checks the other side against the attribute's grammemes
        # (a typo guard), which made those attributes a tenth of a pass over all paradigms. The values
        # and every comparison's result are the same. (pymorphy3 shares the tag class among analysers.)
        self.TagClass.typed_grammemes = False
        self._lexeme_cache: dict = {}
        self._inflect_cache: dict = {}

    def get_lexeme(self, form):
        try:
            return list(self._lexeme_cache[form])
        except KeyError:
            pass
        except TypeError:  # an unhashable parse: no caching
            return super().get_lexeme(form)
        result = super().get_lexeme(form)
        if len(self._lexeme_cache) > 100_000:
            self._lexeme_cache.clear()
        self._lexeme_cache[form] = tuple(result)
        return list(result)

    def _inflect(self, form, required_grammemes):
        try:
            key = (form, frozenset(required_grammemes))
            return list(self._inflect_cache[key])
        except KeyError:
            pass
        except TypeError:
            return super()._inflect(form, required_grammemes)
        result = super()._inflect(form, required_grammemes)
        if len(self._inflect_cache) > 200_000:
            self._inflect_cache.clear()
        self._inflect_cache[key] = tuple(result)
        return list(result)


class Morph:
    """A cached pymorphy3 analyser with UD-aware choice and safe inflection."""

    #: Entries kept per memo below before it is cleared (each holds plain values; clearing only costs time).
    CACHE_SIZE = 200_000

    def __init__(self) -> None:
        self.analyzer = _CachingAnalyzer()
        # Plain dicts, not functools.lru_cache: every paradigm asks for the same few thousand words
        # and tokens again and again, and a dict lookup costs a third of an lru_cache call (measured:
        # parses, analyse, readings and word_is_known were 20% of a pass over all 45 paradigms).
        self._parse_memo: dict[str, tuple] = {}
        self._known_memo: dict[str, bool] = {}
        self._analyse_memo: dict[tuple, Analysis | None] = {}
        self._readings_memo: dict[tuple, tuple] = {}

    def _parse_uncached(self, word: str):
        return tuple(self.analyzer.parse(word))

    def parses(self, word: str):
        try:
            return self._parse_memo[word]
        except KeyError:
            pass
        low = word.lower()
        res = self._parse_memo.get(low)
        if res is None:
            res = self._parse_uncached(low)
        memo = self._parse_memo
        if len(memo) > self.CACHE_SIZE:
            memo.clear()
        memo[low] = memo[word] = res
        return res

    def word_is_known(self, word: str) -> bool:
        try:
            return self._known_memo[word]
        except KeyError:
            pass
        if len(self._known_memo) > self.CACHE_SIZE:
            self._known_memo.clear()
        res = self._known_memo[word] = self.analyzer.word_is_known(word.lower())
        return res

    # -- choosing an analysis -----------------------------------------------
    def analyse(self, form: str, upos: str, feats: dict[str, str] | None = None) -> Analysis | None:
        """The pymorphy3 parse most consistent with the parser's UPOS and features.

        Parses whose POS cannot realise ``upos`` are excluded (unless none is
        left and the UPOS is unknown); among the rest the one sharing most of the
        UD features wins, pymorphy3's own score breaking ties.
        """
        # memoised on the arguments: the same token is analysed by many paradigms (the result is
        # immutable and depends on nothing else; feature order only costs a second entry)
        key = (form, upos, tuple(feats.items()) if feats else ())
        try:
            return self._analyse_memo[key]
        except KeyError:
            pass
        res = self._analyse_uncached(form, upos, feats)
        if len(self._analyse_memo) > self.CACHE_SIZE:
            self._analyse_memo.clear()
        self._analyse_memo[key] = res
        return res

    def _analyse_uncached(self, form: str, upos: str, feats: dict[str, str] | None) -> Analysis | None:
        feats = feats or {}
        want = ud_to_grammemes(feats)
        allowed = UPOS2POS.get(upos)
        best = None
        best_key = None
        for p in self.parses(form):
            if allowed is not None and p.tag.POS not in allowed:
                continue
            have = set(p.tag.grammemes)
            # case variants gen2/loc2/acc2 still count as the general case
            if "gen2" in have or "gen1" in have:
                have.add("gent")
            if "loc2" in have or "loc1" in have:
                have.add("loct")
            if "acc2" in have:
                have.add("accs")
            if "ms-f" in have or "Ms-f" in have:
                have.update({"masc", "femn"})
            hit = len(want & have)
            miss = len(want - have)
            key = (hit - miss, p.score)
            if best_key is None or key > best_key:
                best, best_key = p, key
        if best is None:
            return None
        agreement = 1.0 if not want else (best_key[0] + len(want)) / (2 * len(want))
        return Analysis(best, agreement)

    def lemma(self, form: str, upos: str, feats: dict[str, str] | None = None) -> str:
        a = self.analyse(form, upos, feats)
        if a is None:
            return form.lower()
        return a.lemma

    # -- inflection ---------------------------------------------------------
    def inflect(
        self, analysis: Analysis | object, grammemes: set[str], *, preserve: Iterable[str] = ()
    ) -> str | None:
        """Inflect to ``grammemes``; None when impossible.

        pymorphy3 may change other categories on the way (asking a past-tense
        verb for 1st person yields a future form); the UD features named in
        ``preserve`` (e.g. ``("Tense", "Aspect")``) must keep their value in
        the result, or None is returned.
        """
        parse = analysis.parse if isinstance(analysis, Analysis) else analysis
        try:
            res = parse.inflect(set(grammemes))
        except (ValueError, KeyError):
            return None
        if res is None:
            return None
        if preserve:
            before, after = grammemes_to_ud(parse.tag), grammemes_to_ud(res.tag)
            for feat in preserve:
                if before.get(feat) != after.get(feat):
                    return None
        return res.word

    def readings(self, form: str, lemma: str, pos: set[str] | frozenset[str] | None = None):
        """All parses of ``form`` that belong to the lexeme ``lemma`` (optionally of given POS)."""
        key = (form, lemma, pos)
        try:
            return list(self._readings_memo[key])
        except KeyError:
            pass
        except TypeError:  # an unhashable ``pos`` (a set): no memo
            return self._readings_uncached(form, lemma, pos)
        res = self._readings_uncached(form, lemma, pos)
        if len(self._readings_memo) > self.CACHE_SIZE:
            self._readings_memo.clear()
        self._readings_memo[key] = tuple(res)
        return res

    def _readings_uncached(self, form: str, lemma: str, pos: set[str] | frozenset[str] | None) -> list:
        lemma = lemma.lower().replace("ё", "е")
        out = []
        for p in self.parses(form):
            if p.normal_form.replace("ё", "е") != lemma:
                continue
            if pos is not None and p.tag.POS not in pos:
                continue
            out.append(p)
        return out

    def is_ambiguous(
        self,
        new_form: str,
        lemma: str,
        pos: set[str] | frozenset[str] | None,
        forbidden: dict[str, str],
    ) -> bool:
        """True when ``new_form`` can also be read, as the same lexeme, with all ``forbidden`` UD values.

        Used to reject perturbations whose "wrong" form is accidentally also a
        right form (e.g. a changed number that coincides with the original case).
        """
        want = ud_to_grammemes(forbidden)
        for p in self.readings(new_form, lemma, pos):
            have = set(p.tag.grammemes)
            if "ms-f" in have or "Ms-f" in have:
                have.update({"masc", "femn"})
            if want <= have:
                return True
        return False


@functools.lru_cache(maxsize=1)
def get_morph() -> Morph:
    """The process-wide analyser (loading the dictionary takes about a second)."""
    return Morph()
