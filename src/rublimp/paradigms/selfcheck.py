"""The self-check on every pair, and the source self-check on every sentence.

Paradigms propose edits; :meth:`rublimp.paradigms.base.Paradigm.pairs` runs
:func:`check_perturbation` on each one after the string invariants and drops
it, with a counted reason, when the ungrammatical sentence would carry a second
error or no error the reader can see:

``quoted_name``
    an edited word lies inside a quoted name or title («холдинг «Новый
    Капитал»» → «Новая Капитал»): a reader cannot tell a broken name from a
    broken sentence. A quoted span is a name when its first word is written
    with a capital letter and no word inside it is a finite verb (direct speech,
    «Я приду», has one), or when a proper noun heads it. Lower-case quoted terms
    («зелёный коридор») and quoted speech stay editable.
``unknown_form``
    a paradigm that presents its new form as a real word (every paradigm
    whose :attr:`~rublimp.paradigms.base.Paradigm.new_words` is ``inflection``
    or ``word``) made a form pymorphy3's dictionary does not list (a guessed
    inflection of an unknown word) — except a relational adjective in «-ский»/«-цкий» that the
    dictionary does not list either in its source form («линкестийского» → «линкестийский»): its
    declension is regular, so the new form is as real as the old one
    (:func:`regular_unknown_adjective`).
``other_lexeme``
    an ``inflection`` paradigm's new form has no reading of the edited word's
    lexeme: it is a real word of another lexeme («совпало» → «вспало»).
``known_nonword`` / ``implausible_nonword``
    a ``nonword`` paradigm (word formation and inflection) made a dictionary
    word, or a string with a letter trigram that no Russian word has
    (``resources/letter_trigrams.txt``, the model word_formation and
    word_inflection already use).
``second_feature``
    the edited word changed a feature among person, gender, case, number and
    tense besides the one the perturbation names (:data:`ALLOWED_CHANGES`).
``half_edited_np``
    an agreeing modifier (``amod``/``det``, or an ``acl`` participle) of an
    edited nominal no longer agrees with it, or an edited modifier no longer
    agrees with its head noun — unless NP-internal agreement is what the
    paradigm breaks (``"modifier"`` in
    :attr:`~rublimp.paradigms.base.Paradigm.breaks_agreement`); or a deleted word
    (an edit with an empty new form: a name replaced together with its noun) leaves a
    dependent behind other than punctuation, a conjunct or a prepositional phrase
    (:func:`~rublimp.trees.names.stays_without_head`).
``subject_agreement``
    an edited predicate no longer agrees with its subject, or an edited subject
    with its predicate («я вернул» → «я вернёт», «она проснётся» →
    «она проснулся») — unless subject–predicate agreement is the paradigm's
    point (``"predicate"``).

Each check compares the sentence before and after the edit: a relation that
did not hold before (a parser error, a numeral construction) is not held
against the edit. Readings come from pymorphy3 (all readings, so that
syncretism never rejects a pair).

:func:`source_problem` is the source self-check: a sentence whose own
agreement relations disagree — subject–predicate where the agreement
validation says agreement is ``certain`` for the condition (without a verdicts
table every nominal condition counts as certain), a noun and the modifier right
before it, an antecedent and «который» (some nominal before it, and some word of the stretch
between its clause's comma and the verb before that comma: «соперников в ранних раундах, в котором»), a subject «который» and its verb, a participle after a comma and
every nominal before it (``source_participle``: «В городе, имеющим …») — is most likely a typo or an error of
the source, and gives no pairs. Every disagreement is confirmed on pymorphy3's
readings, not just the parser's features.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from ..trees.edges import FEATURES, subject_predicate_edges
from ..trees.features import agrees
from ..trees.names import stays_without_head
from ..conllu_doc import Sentence, Token
from ..morph import Morph

if TYPE_CHECKING:  # pragma: no cover
    from .base import Paradigm, Perturbation

__all__ = [
    "PAIR_REASONS",
    "SOURCE_REASONS",
    "ALLOWED_CHANGES",
    "SelfCheckStats",
    "quoted_name_spans",
    "check_perturbation",
    "source_problem",
]

PAIR_REASONS: tuple[str, ...] = (
    "quoted_name", "unknown_form", "other_lexeme", "known_nonword", "implausible_nonword",
    "second_feature", "half_edited_np", "subject_agreement",
)
SOURCE_REASONS: tuple[str, ...] = (
    "source_subject_predicate", "source_noun_modifier", "source_relative", "source_participle")

#: features compared before/after an edit (the edited word's own, read on pymorphy3's readings)
CHECKED_FEATURES: tuple[str, ...] = ("Person", "Gender", "Case", "Number", "Tense")
#: what a perturbation's ``feature`` may change on the edited word besides itself: an aspect
#: partner of a present form is a future form (делает → сделает)
ALLOWED_CHANGES: dict[str, frozenset[str]] = {"Aspect": frozenset({"Aspect", "Tense"})}

_OC_CASE = {"nomn": "Nom", "gent": "Gen", "gen1": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc", "acc2": "Acc",
            "ablt": "Ins", "loct": "Loc", "loc1": "Loc", "loc2": "Loc", "voct": "Voc"}
_OC_GENDER = {"masc": "Masc", "femn": "Fem", "neut": "Neut"}
_OC_PERSON = {"1per": "1", "2per": "2", "3per": "3"}
_OC_TENSE = {"past": "Past", "pres": "Pres", "futr": "Fut"}
_NOMINAL_POS = frozenset({"NOUN", "NPRO"})
_MODIFIER_POS = frozenset({"ADJF", "PRTF"})
_PREDICATE_POS = frozenset({"VERB", "ADJS", "PRTS"})
_MODIFIER_RELS = frozenset({"amod", "det"})
#: what may host a relative clause: nouns, pronouns, numerals («один из …, который»), substantivised adjectives
_HOST_POS = frozenset({"NOUN", "NPRO", "NUMR", "ADJF"})
# quote characters: openers and the closer each one pairs with
_QUOTES = {"«": "»", "„": "“", "“": "”", '"': '"'}


@dataclass
class SelfCheckStats:
    """Rejections counted per paradigm and reason (pairs) and per reason (source sentences)."""

    pairs: dict[str, Counter]
    sources: Counter

    def __init__(self, keep_examples: int = 0) -> None:
        self.pairs = {}
        self.sources = Counter()
        #: up to ``keep_examples`` (sent_id, rejected sentence) per (paradigm or "source", reason)
        self.keep_examples = keep_examples
        self.examples: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def reject(self, paradigm: str, reason: str, sent_id: str = "", text: str = "") -> None:
        self.pairs.setdefault(paradigm, Counter())[reason] += 1
        self._example(paradigm, reason, sent_id, text)

    def reject_source(self, reason: str, sent_id: str = "", text: str = "") -> None:
        self.sources[reason] += 1
        self._example("source", reason, sent_id, text)

    def _example(self, who: str, reason: str, sent_id: str, text: str) -> None:
        if self.keep_examples:
            got = self.examples.setdefault((who, reason), [])
            if len(got) < self.keep_examples:
                got.append((sent_id, text))

    def as_dict(self) -> dict:
        """A JSON-ready summary (sorted, so that equal runs give equal files)."""
        return {
            "source_sentences_rejected": dict(sorted(self.sources.items())),
            "pairs_rejected": {p: dict(sorted(c.items())) for p, c in sorted(self.pairs.items())},
        }

    def lines(self) -> list[str]:
        """One log line per source reason and per paradigm."""
        out = [f"self-check: source sentence rejected ({r}): {n}" for r, n in sorted(self.sources.items())]
        for p, c in sorted(self.pairs.items()):
            out.append(f"self-check: {p}: " + ", ".join(f"{r} {n}" for r, n in sorted(c.items())))
        return out


# -- readings ----------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """The features of one pymorphy3 parse that agreement and the feature check look at."""

    lemma: str
    pos: str
    case: str | None
    number: str | None
    genders: frozenset[str]
    person: str | None
    tense: str | None
    animacy: str | None

    def feature(self, name: str) -> str | None:
        if name == "Gender":
            return next(iter(self.genders)) if len(self.genders) == 1 else None
        return getattr(self, _READING_FIELD[name])


#: the UD feature → the :class:`Reading` field that holds it (Gender aside: a reading may have two)
_READING_FIELD = {"Case": "case", "Number": "number", "Person": "person", "Tense": "tense"}


def _reading(p) -> Reading:
    g = p.tag.grammemes
    if "ms-f" in g or "Ms-f" in g:
        genders = frozenset({"Masc", "Fem"})
    else:
        genders = frozenset(_OC_GENDER[x] for x in g if x in _OC_GENDER)
    return Reading(
        lemma=p.normal_form.replace("ё", "е"),
        pos=p.tag.POS or "",
        case=next((_OC_CASE[x] for x in g if x in _OC_CASE), None),
        number="Sing" if "sing" in g else "Plur" if "plur" in g else None,
        genders=genders,
        person=next((_OC_PERSON[x] for x in g if x in _OC_PERSON), None),
        tense=next((_OC_TENSE[x] for x in g if x in _OC_TENSE), None),
        animacy="Anim" if "anim" in g else "Inan" if "inan" in g else None,
    )


@functools.lru_cache(maxsize=1 << 16)
def _readings_cached(morph: Morph, word: str) -> tuple[Reading, ...]:
    return tuple(_reading(p) for p in morph.parses(word))


def readings(morph: Morph, word: str, pos: Iterable[str] | None = None) -> list[Reading]:
    """Every pymorphy3 reading of ``word`` (optionally of the given parts of speech)."""
    rs = _readings_cached(morph, word.lower())
    if pos is None:
        return list(rs)
    pos = frozenset(pos)
    return [r for r in rs if r.pos in pos]


def _subject_person(s: Reading) -> str:
    return s.person or "3"


def predicate_agrees(v: Reading, s: Reading) -> bool:
    """A predicate reading agrees with a subject reading in number, person (present/future) and
    gender (singular past and short forms)."""
    if v.number and s.number and v.number != s.number:
        return False
    if v.person and v.person != _subject_person(s):
        return False
    if v.number == "Sing" and v.genders and s.genders and (s.number in (None, "Sing")) and not v.genders & s.genders:
        return False
    return True


def _any_agree(left: Iterable[Reading], right: Iterable[Reading], fn) -> bool:
    right = list(right)
    return any(fn(a, b) for a in left for b in right)


# -- quoted names ------------------------------------------------------------------
def quote_spans(text: str) -> list[tuple[int, int]]:
    """(index of the opening quote, index of its closing quote) for every closed quotation.

    «…» and „…“ nest; “…” and straight "…" pair with the next closer. Unclosed quotes
    open no span.
    """
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        if stack and ch == _QUOTES[stack[-1][0]]:
            opener, start = stack.pop()
            spans.append((start, i))
        elif ch in _QUOTES:
            stack.append((ch, i))
        elif ch == "»" and stack:
            # a closer that does not match the innermost opener: close the nearest «
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == "«":
                    spans.append((stack[k][1], i))
                    del stack[k:]
                    break
    return sorted(spans)


def quoted_name_spans(sent: Sentence) -> list[tuple[int, int]]:
    """Character spans (opening quote, closing quote) of the quoted names and titles of ``sent``.

    A quoted span is a name when its first word starts with a capital letter, no word in it
    is a finite verb or an imperative, and it is not set off as direct speech — speech opens
    the sentence or follows a colon or dash and is followed by punctuation or nothing
    («Кукле в походе не место», — сказал папа); or when the word heading the span (its first
    word whose head lies outside it) is a proper noun.
    """
    out = []
    text = sent.text
    for start, end in quote_spans(text):
        inside = [t for t in sent.tokens if t.start > start and 0 <= t.end <= end and t.upos != "PUNCT"]
        words = [t for t in inside if any(c.isalpha() for c in t.form)]
        if not words:
            continue
        ids = {t.id for t in inside}
        head = next((t for t in inside if t.head not in ids), None)
        if head is not None and head.upos == "PROPN":
            out.append((start, end))
            continue
        if not words[0].form[0].isupper():
            continue
        if any(t.feats.get("VerbForm") == "Fin" or t.feats.get("Mood") == "Imp" for t in words):
            continue
        before = text[:start].rstrip(" " + "".join(_QUOTES))
        after = text[end + 1 :].lstrip(" " + "".join(_QUOTES.values()))
        if (not before or before[-1] in ":—–-") and (not after or not after[0].isalnum()):
            continue  # direct speech
        out.append((start, end))
    return out


# -- the pair check ----------------------------------------------------------------
def _new_words(tok: Token, new_form: str) -> list[str]:
    """The words of an edit's new form that are new (not the token's own form: «не » + form)."""
    old = tok.form.lower()
    return [w for w in new_form.split() if w.lower() != old and any(c.isalpha() for c in w)]


_VOWELS = frozenset("аеёиоуыэюя")
#: the endings of a «-ский»/«-цкий» adjective (full forms), after the «ск»/«цк» of the stem
_SK_ENDINGS = ("ий", "ого", "ому", "им", "ом", "ая", "ой", "ую", "ое", "ие", "их", "ими", "ые", "ых", "ым", "ыми")


def _sk_stem(word: str) -> str | None:
    low = word.lower().replace("ё", "е")
    for ending in sorted(_SK_ENDINGS, key=len, reverse=True):
        if low.endswith(ending) and low[: -len(ending)].endswith(("ск", "цк")) and len(low) - len(ending) >= 5:
            return low[: -len(ending)]
    return None


def regular_unknown_adjective(morph: Morph, tok: Token, new: str) -> bool:
    """Whether ``new`` re-inflects an adjective in «-ский»/«-цкий» that pymorphy3's dictionary does not
    know in its source form either («Геологского» → «Геологскому», «гермафродитическую» →
    «гермафродитическая»): same stem, both forms with a full ending of that regular declension."""
    if tok.upos != "ADJ" or morph.word_is_known(tok.form):
        return False
    stem = _sk_stem(tok.form)
    return stem is not None and stem == _sk_stem(new)


def plausible_nonword(letters, word: str) -> bool:
    """Whether a non-word keeps a possible Russian shape.

    Every letter trigram of the word (with the word boundaries) must be attested in Russian
    words (``letters``: :class:`rublimp.lexicon.LetterSequences`), except a trigram that only
    breaks a spelling rule and still reads aloud as Russian: a wrong ending after a velar or
    hushing consonant (*дискы, *рукя, as RuBLiMP writes them) or a vowel after a vowel
    (*составляит). Not tolerated: «ы» after a vowel, «й», «ь» or «ъ» (*умениы, *боы), «ь» or
    «ъ» after a vowel, and three consonants in a row (a consonant pile).
    """
    for t in letters.unattested(word):
        for a, b in zip(t, t[1:]):
            if b == "ы" and (a in _VOWELS or a in "йьъ"):
                return False
            if b in "ьъ" and a in _VOWELS:
                return False
        if all(c not in _VOWELS and c not in "ьъ_" for c in t):
            return False
    return True


def _cyrillic(word: str) -> bool:
    return all(("а" <= c <= "я") or c in "ёЁ-" or ("А" <= c <= "Я") for c in word)


def check_perturbation(paradigm: "Paradigm", sent: Sentence, pert: "Perturbation") -> str | None:
    """The reason the self-check rejects ``pert`` (one of :data:`PAIR_REASONS`), or None."""
    edited = {e.token_id: e for e in pert.edits}
    spans = quoted_name_spans(sent) if any(q in sent.text for q in _QUOTES) else []
    if spans:
        for e in pert.edits:
            t = sent.token(e.token_id)
            if any(s < t.start and t.end <= end for s, end in spans):
                return "quoted_name"
    deleted = {e.token_id for e in pert.edits if not e.new_form}
    if deleted and any(k.id not in deleted and not stays_without_head(sent, k)
                       for tid in deleted for k in sent.children(sent.token(tid))):
        return "half_edited_np"
    morph = paradigm.morph
    kind = paradigm.new_words
    new_forms: dict[int, str] = {}
    for e in pert.edits:
        if not e.new_form:
            continue
        tok = sent.token(e.token_id)
        words = _new_words(tok, e.new_form)
        if not words:
            continue
        if len(words) == 1:
            new_forms[tok.id] = words[0]
        for w in words:
            if not _cyrillic(w):
                continue
            known = morph.word_is_known(w)
            if kind == "nonword":
                if known:
                    return "known_nonword"
                if not plausible_nonword(paradigm.letter_sequences(), w):
                    return "implausible_nonword"
            elif not known and not regular_unknown_adjective(morph, tok, w):
                return "unknown_form"
    if kind == "nonword":
        return None  # a non-word has no features to compare
    for tid, new in new_forms.items():
        tok = sent.token(tid)
        if kind == "inflection":
            reason = _feature_check(morph, tok, new, pert.feature)
            if reason:
                return reason
    breaks = paradigm.breaks_agreement
    if "modifier" not in breaks:
        for tid in new_forms:
            if _np_broken(morph, sent, sent.token(tid), new_forms):
                return "half_edited_np"
    if "predicate" not in breaks:
        for tid in new_forms:
            if _predicate_broken(morph, sent, sent.token(tid), new_forms):
                return "subject_agreement"
    return None


def _feature_check(morph: Morph, tok: Token, new: str, feature: str) -> str | None:
    """``other_lexeme`` / ``second_feature`` / None for one re-inflected word."""
    old_rs = readings(morph, tok.form)
    new_rs = readings(morph, new)
    if not old_rs or not new_rs:
        return None
    lemmas = {r.lemma for r in old_rs}
    same = [r for r in new_rs if r.lemma in lemmas]
    if not same:
        return "other_lexeme"
    allowed = ALLOWED_CHANGES.get(feature, frozenset({feature}))
    checked = [f for f in CHECKED_FEATURES if f not in allowed]
    for n in same:
        for o in old_rs:
            if o.lemma != n.lemma:
                continue
            if all(_compatible(o, n, f) for f in checked):
                return None
    return "second_feature"


def _compatible(o: Reading, n: Reading, feature: str) -> bool:
    if feature == "Gender":
        # a form without gender (plural, present tense) or of common gender is compatible
        return not o.genders or not n.genders or bool(o.genders & n.genders)
    a, b = o.feature(feature), n.feature(feature)
    return a is None or b is None or a == b


def _form(tok: Token, new_forms: dict[int, str]) -> str:
    return new_forms.get(tok.id, tok.form)


def _np_broken(morph: Morph, sent: Sentence, tok: Token, new_forms: dict[int, str]) -> bool:
    """Whether the edit of ``tok`` breaks an agreement inside its noun phrase that held before."""
    pairs: list[tuple[Token, Token]] = []  # (modifier, head)
    if tok.upos in ("NOUN", "PROPN", "PRON"):
        for kid in sent.children(tok):
            if _is_agreeing_modifier(kid):
                pairs.append((kid, tok))
    if _is_agreeing_modifier(tok) and tok.head:
        head = sent.head_of(tok)
        if head.upos in ("NOUN", "PROPN", "PRON"):
            pairs.append((tok, head))
    for mod, head in pairs:
        before_m, before_h = readings(morph, mod.form, _MODIFIER_POS), readings(morph, head.form, _NOMINAL_POS)
        if not _any_agree(before_m, before_h, agrees):
            continue  # no agreement to break (a parser attachment, a numeral construction)
        after_m = readings(morph, _form(mod, new_forms), _MODIFIER_POS)
        after_h = readings(morph, _form(head, new_forms), _NOMINAL_POS)
        if not after_m or not after_h:
            continue
        if not _any_agree(after_m, after_h, agrees):
            return True
    return False


def _is_agreeing_modifier(t: Token) -> bool:
    if t.base_deprel in _MODIFIER_RELS:
        return t.upos in ("ADJ", "DET", "VERB", "NUM")
    return t.base_deprel == "acl" and t.feats.get("VerbForm") == "Part" and t.feats.get("Variant") != "Short"


def _subject_of(sent: Sentence, pred: Token) -> Token | None:
    subj = [k for k in sent.children(pred) if k.base_deprel == "nsubj"]
    if not subj and pred.deprel in ("aux", "aux:pass", "cop") and pred.head:
        subj = [k for k in sent.children(pred.head) if k.base_deprel == "nsubj"]
    return subj[0] if len(subj) == 1 else None


def _agreeing_predicates(sent: Sentence, subj: Token) -> list[Token]:
    if subj.base_deprel != "nsubj" or not subj.head:
        return []
    pred = sent.head_of(subj)
    return [pred] + [k for k in sent.children(pred) if k.deprel in ("aux", "aux:pass", "cop")]


#: subject words whose predicate need not agree with them («это были люди», «кто пришли»)
_LOOSE_SUBJECTS = frozenset({"это", "то", "что", "кто", "все", "всё", "сколько", "большинство", "меньшинство",
                             "ряд", "часть", "множество", "половина", "треть", "четверть", "масса", "вы"})


def _plain_subject(sent: Sentence, subj: Token) -> bool:
    if subj.upos not in ("NOUN", "PROPN", "PRON") or subj.form.lower().replace("ё", "е") in _LOOSE_SUBJECTS:
        return False
    if subj.lemma.lower() in _LOOSE_SUBJECTS:
        return False
    return not any(k.base_deprel in ("conj", "nummod") or k.deprel == "nummod:gov" for k in sent.children(subj))


def _predicate_broken(morph: Morph, sent: Sentence, tok: Token, new_forms: dict[int, str]) -> bool:
    """Whether the edit of ``tok`` (a predicate or a subject) breaks a subject–predicate agreement
    that held before."""
    pairs: list[tuple[Token, Token]] = []  # (predicate, subject)
    subj = _subject_of(sent, tok)
    if subj is not None:
        pairs.append((tok, subj))
    for pred in _agreeing_predicates(sent, tok):
        pairs.append((pred, tok))
    for pred, subj in pairs:
        if not _plain_subject(sent, subj):
            continue
        s_before = [r for r in readings(morph, subj.form, _NOMINAL_POS) if r.case == "Nom"]
        v_before = readings(morph, pred.form, _PREDICATE_POS)
        if not s_before or not v_before or not _any_agree(v_before, s_before, predicate_agrees):
            continue
        s_after = [r for r in readings(morph, _form(subj, new_forms), _NOMINAL_POS) if r.case == "Nom"]
        v_after = readings(morph, _form(pred, new_forms), _PREDICATE_POS)
        if not s_after or not v_after:
            continue
        if not _any_agree(v_after, s_after, predicate_agrees):
            return True
    return False


# -- the source check --------------------------------------------------------------
#: quantity words before a noun phrase: its modifier is genitive plural while the noun is not
_QUANTITY = frozenset({"два", "две", "три", "четыре", "оба", "обе", "полтора", "полторы", "пара"})


def source_problem(sent: Sentence, morph: Morph, verdicts: dict | None = None) -> str | None:
    """The reason ``sent`` itself breaks an agreement (one of :data:`SOURCE_REASONS`, checked in that
    order), or None."""
    reason = _source_subject_predicate(sent, morph, verdicts)
    if reason:
        return reason
    if _source_noun_modifier(sent, morph):
        return "source_noun_modifier"
    if _source_relative(sent, morph) or _source_relative_predicate(sent, morph):
        return "source_relative"
    if _source_participle(sent, morph):
        return "source_participle"
    return None


def _source_subject_predicate(sent: Sentence, morph: Morph, verdicts: dict | None) -> str | None:
    for edge in subject_predicate_edges(sent):
        if not edge.usable or edge.subject_kind != "nominal":
            continue
        subj, agreeing = edge.subject, edge.agreeing
        if not _plain_subject(sent, subj) or any(
            k.base_deprel == "nmod" and k.feats.get("Number") == "Plur" for k in sent.children(subj)
        ):
            continue  # «ряд стран заявили»: a plural complement may lend the predicate its number
        if subj.upos == "PROPN" and not morph.word_is_known(subj.form):
            continue  # a name pymorphy3 guesses (its gender and number are unsure)
        for feature in FEATURES:
            key = edge.key(feature)
            if key is None or (verdicts is not None and verdicts.get(key) != "certain"):
                continue
            pv, ev = edge.predicate_value(feature), edge.expected_value(feature)
            if pv is None or ev is None or pv == ev:
                continue
            if _misread_subject(sent, morph, edge):
                continue
            if feature == "Gender" and ev == "Masc":
                continue  # «врач пришла»: a masculine job title with a woman's verb
            s_rs = [r for r in readings(morph, subj.form, _NOMINAL_POS) if r.case == "Nom"]
            v_rs = readings(morph, agreeing.form, _PREDICATE_POS)
            if s_rs and v_rs and not _any_agree(v_rs, s_rs, predicate_agrees):
                return "source_subject_predicate"
    return None


def _misread_subject(sent: Sentence, morph: Morph, edge) -> bool:
    """Whether the parser's subject is likely not the subject: another nominative word of the
    clause agrees with the predicate («мост достроили его ученики»), the subject may be the object
    of an indefinite-personal plural («мост построят»), or it has a comitative «с» dependent
    («он с матерью уехали»)."""
    subj, pred, agreeing = edge.subject, edge.predicate, edge.agreeing
    v_rs = readings(morph, agreeing.form, _PREDICATE_POS)
    for k in sent.children(pred) + sent.children(agreeing):
        if k.id == subj.id or k.upos not in ("NOUN", "PROPN", "PRON"):
            continue
        k_rs = [r for r in readings(morph, k.form, _NOMINAL_POS) if r.case == "Nom"]
        if not k_rs and k.upos == "PROPN" and not morph.word_is_known(k.form):
            return True  # an unknown name may be the subject
        if _any_agree(v_rs, k_rs, predicate_agrees):
            return True
    s_rs = readings(morph, subj.form, _NOMINAL_POS)
    s_nom = [r for r in s_rs if r.case == "Nom"]
    lo, hi = sorted((subj.id, agreeing.id))
    for t in sent.tokens[lo : hi - 1]:
        # a finite verb between them that agrees with the subject is its predicate («Листья
        # пожелтели …, и весь парк … стоял»: the parser took the second verb)
        if t.feats.get("VerbForm") == "Fin" and _any_agree(readings(morph, t.form, _PREDICATE_POS), s_nom, predicate_agrees):
            return True
    if any(k.feats.get("VerbForm") == "Inf" for k in sent.children(pred) + sent.children(agreeing)) and any(
        r.case == "Acc" for r in s_rs
    ):
        return True  # the object of an infinitive: «лекарства приходилось возить»
    if agreeing.feats.get("Number") == "Plur" and (
        any(r.case in ("Acc", "Gen") for r in s_rs) or sent.children(pred, "obj") or sent.children(agreeing, "obj")
    ):
        return True  # an indefinite-personal plural: «мост построят», «её звали Вера»
    for k in sent.children(subj):
        if k.base_deprel == "nmod" and any(c.form.lower() in ("с", "со") for c in sent.children(k, "case")):
            return True
    return False


def _source_noun_modifier(sent: Sentence, morph: Morph) -> bool:
    for head in sent.tokens:
        if head.upos not in ("NOUN", "PROPN") or head.id < 2 or not morph.word_is_known(head.form):
            continue
        kids = sent.children(head)
        if any(k.base_deprel in ("conj", "nummod") or k.upos == "NUM" for k in kids):
            continue
        if head.base_deprel in ("appos", "flat", "conj", "fixed", "compound"):
            continue
        mod = sent.token(head.id - 1)
        if mod.head != head.id or mod.base_deprel not in _MODIFIER_RELS or mod.upos not in ("ADJ", "DET"):
            continue
        if not _cyrillic(mod.form) or mod.form.lower() in ("его", "ее", "её", "их") or not morph.word_is_known(mod.form):
            continue
        before = [sent.token(i) for i in range(max(1, mod.id - 3), mod.id)]
        if any(t.upos == "NUM" or t.form.lower() in _QUANTITY for t in before):
            continue
        m_rs = readings(morph, mod.form, _MODIFIER_POS)
        h_rs = readings(morph, head.form, _NOMINAL_POS)
        if not m_rs or not h_rs or any(r.lemma == "который" for r in m_rs):
            continue
        mf, hf = mod.feats, head.feats
        parser_agrees = mf.get("Case") == hf.get("Case") and mf.get("Number") == hf.get("Number")
        if head.form.lower().startswith("пол") and any(r.case == "Gen" and r.number == "Plur" for r in m_rs):
            continue  # «целых полгода»: a quantity noun with a genitive plural modifier
        if not parser_agrees and not _any_agree(m_rs, h_rs, agrees):
            return True
    return False


def _source_relative(sent: Sentence, morph: Morph) -> bool:
    for rel in sent.tokens:
        # «который» that agrees with no nominal before it in the sentence (its parser antecedent first)
        if rel.lemma.lower() != "который" or rel.upos not in ("PRON", "DET", "ADJ"):
            continue
        node, steps = rel, 0
        while node.deprel != "acl:relcl" and node.head and steps < len(sent.tokens):
            node, steps = sent.head_of(node), steps + 1
        if node.deprel != "acl:relcl" or not node.head:
            continue
        ante = sent.head_of(node)
        if ante.upos not in ("NOUN", "PROPN", "PRON") or ante.id > rel.id or not morph.word_is_known(ante.form):
            continue
        if any(k.base_deprel == "conj" for k in sent.children(ante)):
            continue  # coordinated antecedents take a plural «которые»
        r_rs = [r for r in readings(morph, rel.form, _MODIFIER_POS) if r.lemma == "который"]
        if not r_rs:
            continue
        # any nominal before «который» may host the clause (the parser often attaches it to a noun
        # after the antecedent: «шествие с факелами, которое»), except «я»/«ты»/«мы»/«вы»
        # (whatever the tag: «Секция[ADJ] плавания, которой»; «один из видов, который»)
        hosts = [t for t in sent.tokens[: rel.id - 1] if t.upos != "PUNCT" and t.feats.get("Person") not in ("1", "2")]
        if not any(_relative_agrees(morph, r_rs, h) for h in hosts):
            return True
        near = _nearest_phrase(sent, rel, morph)
        coordinated = any(t.form.lower() in ("и", "или", "либо") for t in near) and any(r.number == "Plur" for r in r_rs)
        if near and not coordinated and not any(_near_host_agrees(morph, r_rs, h, h is near[0]) for h in near
                                                if h.upos not in ("ADP", "CCONJ")):
            return True  # «соперников в ранних раундах, в котором»: a far noun of the right form is no host
    return False


def _nearest_phrase(sent: Sentence, rel: Token, morph: Morph) -> list[Token]:
    """The words between the comma that opens the relative clause of ``rel`` and the nearest word
    before it that pymorphy3 reads only as a verb (or a punctuation mark or subordinating conjunction):
    the stretch that holds the antecedent, however the parser tagged or attached its words
    («пенсионерка с третьего этажа, которая»). [] when the comma is not within six words of ``rel``."""
    comma = next((t for t in reversed(sent.tokens[: rel.id - 1]) if t.form == ","), None)
    if comma is None or rel.id - comma.id > 6:
        return []
    out = []
    for t in reversed(sent.tokens[: comma.id - 1]):
        if t.upos in ("PUNCT", "SCONJ"):
            break
        pos = {p.tag.POS for p in morph.parses(t.form.lower())}
        if pos and pos <= {"VERB", "INFN", "GRND", "PRTS"}:
            break
        out.append(t)
    return out


def _near_host_agrees(morph: Morph, r_rs: list[Reading], host: Token, last: bool) -> bool:
    """Whether ``host`` may be the antecedent of a «который» read as ``r_rs``: a name, a numeral
    (``четыре дня, которые``), a word with no nominal reading, an indeclinable noun or a 1st/2nd
    person pronoun always may; a pronominal adjective only as the ``last`` word before the comma
    (``того, которого``; not ``все матчи в первых турах, в котором``: «все» read as «всё»); else
    number and gender as :func:`_relative_agrees`, a participle (``всех нанятых, которым``) counted
    as a host."""
    if host.upos in ("PROPN", "NUM") or host.feats.get("Person") in ("1", "2"):
        return True
    if not any(c.isalpha() for c in host.form) or not morph.word_is_known(host.form):
        return True
    nominal = [p for p in morph.parses(host.form.lower()) if p.tag.POS in _HOST_POS]
    if not last and nominal and all("Apro" in p.tag.grammemes for p in nominal):
        return False
    h_rs = [r for r in readings(morph, host.form, _HOST_POS | {"PRTF"}) if r.person in (None, "3")]
    if not h_rs or any("Fixd" in p.tag.grammemes for p in morph.parses(host.form.lower())):
        return True
    return _relative_agrees(morph, r_rs, host) or any(
        r.number == h.number for r in r_rs for h in h_rs if h.pos == "PRTF")


def _relative_agrees(morph: Morph, r_rs: list[Reading], host: Token) -> bool:
    if not any(c.isalpha() for c in host.form):
        return False
    if not morph.word_is_known(host.form):
        return True  # unknown: assume it may host
    h_rs = [r for r in readings(morph, host.form, _HOST_POS) if r.person in (None, "3")]
    for r in r_rs:
        for h in h_rs:
            if r.number != h.number:
                continue
            if r.number == "Sing" and r.genders and h.genders and not r.genders & h.genders:
                continue
            return True
    return False


def _source_relative_predicate(sent: Sentence, morph: Morph) -> bool:
    """A subject «который» whose predicate (its head, or that head's ``aux``/``cop``) agrees with no
    nominative reading of it («озеро, которое сверкала»). Not when another nominal of the clause agrees
    with the predicate (an object «который» the parser made the subject: «список, который составила
    Анна»), nor when «который» has an accusative reading and the verb a transitive one (the object of
    a clause whose subject is dropped: «камень, который нашла у себя»; «решение, которое вступала в
    силу» is judged: «вступать» is intransitive)."""
    for rel in sent.tokens:
        if rel.lemma.lower() != "который" or rel.base_deprel != "nsubj" or not rel.head:
            continue
        r_rs = [r for r in readings(morph, rel.form, _MODIFIER_POS) if r.lemma == "который" and r.case == "Nom"]
        if not r_rs:
            continue
        head = sent.head_of(rel)
        may_be_object = any(r.lemma == "который" and r.case == "Acc" for r in readings(morph, rel.form, _MODIFIER_POS))
        if may_be_object and any("tran" in p.tag.grammemes for p in morph.parses(head.form)):
            continue  # «камень, который нашла у себя»: the object of a transitive verb whose subject is dropped
        preds = [head] + [k for k in sent.children(head) if k.base_deprel in ("aux", "cop")]
        # a nominal without a preposition (``в силу`` is no subject; a bare oblique one, whose subject
        # reading the parser may have missed, still excuses the clash: «который учёная передала университету»)
        others = [k for k in sent.children(head) if k.id != rel.id and k.upos in ("NOUN", "PROPN", "PRON")
                  and not sent.children(k, "case")]
        for pred in preds:
            v_rs = readings(morph, pred.form, _PREDICATE_POS)
            if not v_rs or _any_agree(v_rs, r_rs, predicate_agrees):
                continue
            if any(_any_agree(v_rs, [r for r in readings(morph, k.form, _NOMINAL_POS) if r.case == "Nom"]
                              or [Reading("", "", "Nom", None, frozenset(), None, None, None)], predicate_agrees)
                   for k in others):
                continue  # another nominal (or an unknown word) may be the subject
            return True
    return False



#: the parser's parts of speech of a possible host of a participle (not «в» read as an abbreviation)
_HOST_UPOS = frozenset({"NOUN", "PROPN", "PRON", "NUM", "ADJ", "DET"})
#: readings that may host it: a substantivised participle too («Погибшие, выброшенные на берег, …»)
_PART_HOST_POS = _HOST_POS | {"PRTF"}
_PART_HOST_UPOS = _HOST_UPOS | {"VERB"}


def _loose_agrees(m: Reading, h: Reading) -> bool:
    """Case and number equal, genders overlapping in the singular (no animacy test)."""
    if m.case != h.case or m.number != h.number:
        return False
    return not (m.number == "Sing" and m.genders and h.genders and not m.genders & h.genders)


def _source_participle(sent: Sentence, morph: Morph) -> bool:
    """A full participle that opens a participial phrase after a comma (``acl``/``amod`` of a word
    to its left) and agrees in case, number and gender (all pymorphy3 readings) with no noun,
    pronoun, numeral, adjective or participle before it or among the next two words: the source's
    own case error («В городе, имеющим множество памятников, …»). Any earlier nominal counts as its host (the phrase may belong to
    the first noun of a chain: «книги автора, изданные …»); a participle pymorphy3 does not know,
    or a word with no participle reading, is not judged."""
    for part in sent.tokens:
        # the parser tags many participles ADJ without VerbForm (``расположенным``): pymorphy3 decides
        if part.upos not in ("VERB", "ADJ") or part.feats.get("Variant") == "Short" or part.id < 3:
            continue
        if part.base_deprel not in ("acl", "amod") or not part.head or part.head > part.id:
            continue
        if sent.token(part.id - 1).form != "," or not morph.word_is_known(part.form):
            continue
        p_rs = [r for r in readings(morph, part.form, ("PRTF",))]
        if not p_rs:
            continue
        # any nominal before it, or one of the next two words (a participle before its noun in a list:
        # «…, ораторствующий Сарданапал»)
        hosts = [t for t in sent.tokens[: part.id - 2] + sent.tokens[part.id : part.id + 2]
                 if t.upos in _PART_HOST_UPOS and any(c.isalpha() for c in t.form)]
        if not any(not morph.word_is_known(h.form) or _any_agree(p_rs, readings(morph, h.form, _PART_HOST_POS), _loose_agrees)
                   for h in hosts):
            return True
    return False
