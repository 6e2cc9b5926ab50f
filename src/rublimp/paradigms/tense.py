"""TENSE: three RuBLiMP paradigms (Appendix B.3.3).

A deictic temporal adverbial fixes the tense of a perfective verb: «вчера он допустил» but «*вчера он
допустит». The paradigms find a perfective verb in the past or future tense with such an adverbial
among its dependents (``resources/temporal_markers.tsv``, or the TSV named by
``ctx.options["temporal_markers"]``: adverbs such as «вчера», adjective phrases such as «на прошлой
неделе», numeric phrases such as «три дня назад») and break the match:

* ``single_verb_tense`` — the verb (not coordinated with another verb) goes to the opposite tense:
  «А вчера он допустил ошибку» → «*А вчера он допустит ошибку»;
* ``conj_verb_tense`` — the same for a verb with the marker that is one
  conjunct of a coordination (first or later, with or without its own subject,
  as in RuBLiMP's pairs): «Послезавтра он покинет МКС и вернётся на Землю» →
  «*Послезавтра он покинул МКС и вернётся на Землю». Only the verb that carries the marker is
  changed: a later conjunct may have its own time («признали аварийным десять лет назад, но так и не
  снесут» is fine); a conjunct with a marker of the other tense is skipped (a conjunct merely in the
  other tense is not: «сейчас он предал Фокса, завтра предаст Вадика» keeps its cue). Besides
  coordinated predicates, a conjunct clause without a verb of its own (with a subject or an elided
  predicate: «купил дом, а брат всё ещё без квартиры») and a finite verb joined by a comma
  (``parataxis``, not across quotes, dashes or colons) count, as RuBLiMP's pairs do (its split
  between this paradigm and ``single_verb_tense`` is not a tree property; it follows the number of
  finite predicates: see ``docs/phenomena/tense.md``); so a main-clause verb also counts when the
  sentence has another main clause however the parser joined them (``ccomp`` under an imperative,
  ``parataxis`` across a dash: «Вот слушай, он только что выучил»), but not across quotes (reported
  speech) and not with a subordinate clause (the pair itself is the single-verb one);
* ``tense_marker`` — the adverbial is replaced by one of the opposite tense, with the same number of
  words: «вчера» ↔ «завтра», «на прошлой неделе» ↔ «на будущей неделе», «через три дня» → «три дня
  назад» (the three words reordered; all of them are recorded as the changed words).

Safeguards:

* only perfective verbs for the verb paradigms (the paper's condition; ``tense_marker``, which changes
  only the marker, takes either aspect and a passive participle's auxiliary, as RuBLiMP's pairs do):
  an imperfective future is analytic («будет делать») and an imperfective past is fine with many
  future-oriented frames;
* verbs with an infinitival complement are skipped, as in the paper («собираюсь сделать», «решил
  поехать»), unless the verb's infinitive shares its time and the marker precedes both (``frame``:
  «В прошлом году многим пришлось вернуться»); so are verbs with «бы» or a «чтобы» clause mark
  (subjunctive past forms refer to any time); a finite clausal complement is kept («понял, что …»);
* the marker and the verb must not be separated by punctuation (a marker
  across a comma is often misattached from a participle or another clause), unless
  the marker opens the sentence and the punctuation only sets off a parenthetical or
  a gerund phrase of the verb («Вчера, кажется, сосед продал машину»; no subordinate
  clause: «Вчера, когда все спали, он ушёл» may be the clause's marker);
  a one-word adverb marker the parser hung on a noun or made the root belongs to
  the first finite verb after it in the same stretch, whatever the parser attached it
  to, and one after the verb hung on a noun belongs to the verb («придёт завтра
  утром»); «только что» also counts right after the verb at the end of its clause
  and before it across up to two adverbs, pronouns or particles («только что вновь
  обрёл»); a subject hung on the next word is the verb's (tree repairs); months and
  recurring events are period nouns («в прошлом бою», «в прошлом марте»); a numeric
  marker right next to a verb is that verb's wherever the parser hung it («а он умер три недели назад»);
  ``single_verb_tense`` also skips a verb followed by «и/а/но» and a word that can only be a finite verb;
* only deictic markers are used: relative ones («на следующей неделе»,
  «через три дня», «скоро», «в будущем») combine with both tenses in a
  narrative; «через N» is therefore never a verb cue, only a source for
  ``tense_marker``, whose «N назад» replacement is deictic;
* adjective markers need «в»/«на» or no preposition («за прошлый год
  отчитается» is grammatical);
* the new verb form needs the subject's person (past → future) or gender
  (future → past): it comes from the subject or the verb itself; when neither
  tells (a singular past verb without subject) the verb is skipped. Tree repair: a
  singular verb the parser left without a subject (a missed coordination made an
  ``advcl`` or ``acl``: «Я побывал у него и только что его узнал») takes the nearest
  nominative subject before it in the same stretch that agrees with it in number and
  gender, never one of a subordinate or relative clause («что» of «только что» opens
  no clause). For 1st
  and 2nd person singular either gender is grammatical and the masculine is used;
* the new form must not also be a form of the original tense.

Pool columns: ``feature`` = ``Tense``, ``source_value``/``target_value`` =
``Past``/``Fut`` (for ``tense_marker`` the tense of the original and the new
marker), ``subtype`` = ``<kind>:<marker>`` (``adverb:вчера``,
``adjective:прошлый``, ``numeric:назад``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Iterator

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..io import InputError
from ..trees.lexical import common_noun_gender, finite_verb_only
from ..trees.tense_frames import RELATIVE_FORMS, apposed_subjects, dates_the_frame, past_verb_with_pronoun_subject, quantity_phrase, same_clause_level, same_time_infinitives
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "Marker",
    "MarkerTable",
    "FoundMarker",
    "load_temporal_markers",
    "find_markers",
    "TenseParadigm",
    "SingleVerbTense",
    "ConjVerbTense",
    "TenseMarker",
    "TEMPORAL_MARKERS_FILE",
]

PHENOMENON = "tense"
TEMPORAL_MARKERS_FILE = "temporal_markers.tsv"
_COLUMNS = ("marker", "kind", "tense", "replacement", "verb_cue")
_MARKER_KINDS = ("adverb", "adjective", "numeric")
_NOUN_KINDS = ("period_noun", "measure_noun")
_TENSES = {"past": "Past", "fut": "Fut"}
_OPPOSITE = {"Past": "Fut", "Fut": "Past"}
_OC_TENSE = {"Past": "past", "Fut": "futr"}
# prepositions allowed before an adjective marker's noun
_MARKER_PREPOSITIONS = frozenset({"в", "во", "на"})
_SUBJUNCTIVE = frozenset({"бы", "б", "чтобы", "чтоб"})
_CLAUSAL = frozenset({"xcomp", "ccomp", "csubj"})
_PREDICATE_UPOS = frozenset({"VERB", "AUX"})
# relations of a verb heading a subordinate clause, and words that open one
_SUBORDINATE = frozenset({"acl", "advcl", "ccomp", "csubj"})
_SUBORDINATORS = frozenset({"пока", "когда", "если", "хотя", "чтобы", "как", "где", "куда", "откуда", "потому",
                            "поскольку", "раз", "что", "словно", "будто"}) | RELATIVE_FORMS
# punctuation that sets off reported speech or an explanation, not a coordinated clause
_QUOTE_DASH = frozenset({"«", "»", '"', "„", "“", "”", "—", "–", "-", ":", "(", ")"})
_COORDINATORS = frozenset({"и", "а", "но", "или", "да"})
_QUOTES = frozenset({"«", "»", '"', "„", "“", "”"})


# -- the marker table ---------------------------------------------------------------
@dataclass(frozen=True)
class Marker:
    """One temporal marker: its kind, the tense it requires, its opposite-tense replacement."""

    word: str
    kind: str
    tense: str  # "Past" | "Fut"
    replacement: str | None
    verb_cue: bool


@dataclass(frozen=True)
class MarkerTable:
    adverbs: dict[str, Marker]
    adjectives: dict[str, Marker]
    numeric: dict[str, Marker]
    period_nouns: frozenset[str]
    measure_nouns: frozenset[str]


@functools.lru_cache(maxsize=8)
def load_temporal_markers(path: str | Path) -> MarkerTable:
    """Read ``temporal_markers.tsv`` (``marker, kind, tense, replacement, verb_cue``; ``#`` comments)."""
    path = Path(path)
    if not path.is_file():
        raise InputError("temporal marker list not found", path)
    tables: dict[str, dict[str, Marker]] = {k: {} for k in _MARKER_KINDS}
    nouns: dict[str, set[str]] = {k: set() for k in _NOUN_KINDS}
    header = False
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.split("\t")]
            if not header:
                if tuple(cols) != _COLUMNS:
                    raise InputError(f"header must be {' | '.join(_COLUMNS)}, found {' | '.join(cols)}", path, lineno)
                header = True
                continue
            if len(cols) != len(_COLUMNS):
                raise InputError(f"expected {len(_COLUMNS)} tab-separated columns, found {len(cols)}", path, lineno)
            word, kind, tense, repl, cue = cols
            word = normalize(word)
            if not word:
                raise InputError("empty marker", path, lineno)
            if kind in _NOUN_KINDS:
                nouns[kind].add(word)
                continue
            if kind not in _MARKER_KINDS:
                raise InputError(f"kind must be one of {_MARKER_KINDS + _NOUN_KINDS}, found {kind!r}", path, lineno)
            if tense not in _TENSES:
                raise InputError(f"tense must be past or fut, found {tense!r}", path, lineno)
            if cue not in ("yes", "no"):
                raise InputError(f"verb_cue must be yes or no, found {cue!r}", path, lineno)
            if word in tables[kind]:
                raise InputError(f"marker {word!r} listed twice", path, lineno)
            tables[kind][word] = Marker(word, kind, _TENSES[tense], None if repl == "-" else normalize(repl), cue == "yes")
    if not header:
        raise InputError("no header line", path)
    for kind, table in tables.items():
        for m in table.values():
            if m.replacement and kind != "numeric" and m.replacement not in table:
                # the replacement must itself be a marker of the opposite tense
                raise InputError(f"replacement {m.replacement!r} of {m.word!r} is not a listed {kind}", path)
            if m.replacement and kind != "numeric" and table[m.replacement].tense == m.tense:
                raise InputError(f"replacement {m.replacement!r} of {m.word!r} has the same tense", path)
    return MarkerTable(
        tables["adverb"], tables["adjective"], tables["numeric"], frozenset(nouns["period_noun"]), frozenset(nouns["measure_noun"])
    )


# -- finding markers ----------------------------------------------------------------
@dataclass(frozen=True)
class FoundMarker:
    """A marker attached to a verb: its entry, its tokens in sentence order, and the token to edit."""

    marker: Marker
    tokens: tuple[Token, ...]
    target: Token  # the adverb, the adjective, or (numeric) the first token of the phrase

    @property
    def label(self) -> str:
        return f"{self.marker.kind}:{self.marker.word.replace(' ', '_')}"

    @property
    def text(self) -> str:
        return " ".join(t.form for t in self.tokens)


def _only_chto(sent: Sentence, tok: Token) -> bool:
    """«что» of «только что» (a past marker, whatever the parser made of «что»)."""
    return normalize(tok.form) == "что" and tok.id > 1 and normalize(sent.token(tok.id - 1).form) == "только"


def _contiguous(toks: list[Token]) -> bool:
    ids = [t.id for t in toks]
    return ids == list(range(ids[0], ids[0] + len(ids)))


def _numeric_marker(sent: Sentence, verb: Token, noun: Token, table: MarkerTable) -> FoundMarker | None:
    """«(N) time-noun назад» or «через (N) time-noun» headed by ``noun``, a dependent of ``verb``."""
    # (without the noun's punctuation and conjuncts: «восемь лет назад, в 1955-ом», «два дня назад"»)
    cut = {t.id for k in sent.children(noun) if k.base_deprel in ("punct", "conj") for t in sent.subtree(k)}
    phrase = [t for t in sent.subtree(noun) if t.id not in cut]
    if not any(normalize(t.lemma) in table.measure_nouns for t in phrase):
        return None
    # «назад» may hang on the noun or on the verb right after the phrase, or after an inverted number
    # («лет пятнадцать назад»: the number hangs on «назад»)
    nazad = [t for t in sent.children(verb) if normalize(t.form) in table.numeric and (t.id == phrase[-1].id + 1 or (
        t.id == phrase[-1].id + 2 and sent.token(t.id - 1).upos == "NUM" and sent.token(t.id - 1).head == t.id))]
    if nazad and nazad[0].id == phrase[-1].id + 2:
        nazad = [sent.token(nazad[0].id - 1)] + nazad
    whole = phrase + nazad
    # focus particles before the quantity («всего лишь два дня назад», «ещё три года
    # назад») are no part of the marker
    while len(whole) > 1 and whole[0].upos == "PART" and whole[0].base_deprel == "advmod":
        whole = whole[1:]
    if not _contiguous(whole):
        return None
    first, last = normalize(whole[0].form), normalize(whole[-1].form)
    body = whole
    if last in table.numeric and table.numeric[last].tense == "Past":
        m, body = table.numeric[last], whole[:-1]
    elif first in table.numeric and table.numeric[first].tense == "Fut" and whole[0].base_deprel == "case":
        m, body = table.numeric[first], whole[1:]
    else:
        return None
    # the quantity phrase itself: numerals, nouns, a few modifiers; no prepositions, clauses or punctuation
    if not body or not quantity_phrase(body):
        return None
    return FoundMarker(m, tuple(whole), whole[0])


def adjective_marker(sent: Sentence, noun: Token, table: MarkerTable) -> FoundMarker | None:
    """The adjective marker headed by the period noun ``noun`` («в прошлом году»: one marker adjective,
    at most one preposition of :data:`_MARKER_PREPOSITIONS`, no conjunct), or None."""
    if normalize(noun.lemma) not in table.period_nouns:
        return None
    cases = sent.children(noun, "case")
    adjs = [k for k in sent.children(noun) if k.base_deprel in ("amod", "det") and normalize(k.lemma) in table.adjectives]
    if len(adjs) != 1 or len(cases) > 1 or any(normalize(c.form) not in _MARKER_PREPOSITIONS for c in cases):
        return None
    if sent.children(noun, "conj") or sent.children(adjs[0], "conj"):
        return None
    toks = sorted(cases + adjs + [noun], key=lambda t: t.id)
    return FoundMarker(table.adjectives[normalize(adjs[0].lemma)], tuple(toks), adjs[0])


def find_markers(sent: Sentence, verb: Token, table: MarkerTable) -> list[FoundMarker]:
    """The temporal markers among the dependents of ``verb``."""
    out: list[FoundMarker] = []
    for dep in sent.children(verb):
        if dep.base_deprel in ("conj", "punct", "parataxis", "cc"):
            continue
        form = normalize(dep.form)
        if form in table.adverbs and not sent.children(dep, "case"):
            out.append(FoundMarker(table.adverbs[form], (dep,), dep))
            continue
        if dep.upos not in ("NOUN", "PROPN", "NUM", "ADV", "ADJ", "DET"):
            continue
        if dep.base_deprel in ("obl", "nmod", "advmod", "obj") and (found := adjective_marker(sent, dep, table)):
            out.append(found)
            continue
        if dep.base_deprel in ("obl", "nmod", "advmod", "obj", "nummod"):
            found = _numeric_marker(sent, verb, dep, table)
            if found is not None:
                out.append(found)
    return out


# -- the paradigms ---------------------------------------------------------------------
class TenseParadigm(Paradigm):
    """Shared machinery: the marker table, perfective past/future verbs, and tense inflection."""

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Semantics"
    resources = ("temporal_markers.tsv",)
    options = ("temporal_markers",)

    @functools.cached_property
    def markers(self) -> MarkerTable:
        """``ctx.options["temporal_markers"]`` (a TSV path) or the bundled table."""
        opt = self.ctx.options.get("temporal_markers")
        if opt:
            if not Path(opt).is_file():
                raise InputError(f"perturb.options.temporal_markers: temporal marker list not found: {opt}")
            return load_temporal_markers(Path(opt))
        return load_temporal_markers(Path(self.ctx.resources_dir) / TEMPORAL_MARKERS_FILE)

    def verb_tense(self, sent: Sentence, verb: Token, *, perfective: bool = True):
        """``(analysis, "Past"|"Fut")`` for a finite indicative (perfective) verb in the past or future."""
        if verb.start < 0:
            return None
        upos, feats = verb.upos, verb.feats
        if upos not in _PREDICATE_UPOS or feats.get("VerbForm") not in (None, "Fin") or feats.get("Mood") in ("Imp", "Cnd"):
            # tree-pattern repair: the default parser tags rare finite verbs of fiction as
            # nouns («Дядя Лорж молол вчера чепуху», «где вчера Ченек сгинул») or calls them
            # infinitives or participles («Темка только вчера выудил»: VerbForm=Inf); a word
            # pymorphy3 reads only as a finite verb is taken as one
            if not self.verb_only(verb.form) and not past_verb_with_pronoun_subject(self.morph, sent, verb):
                return None
            upos, feats = "VERB", {}
        a = self.morph.analyse(verb.form, upos, feats)
        if a is None or a.tag.POS != "VERB" or "indc" not in a.tag:
            return None
        if perfective and "perf" not in a.tag:
            return None
        tense = "Past" if "past" in a.tag else "Fut" if "futr" in a.tag else None
        if tense is None:
            return None
        # every reading of the form as a finite verb must agree on the tense (and the aspect); an imperative
        # reading does not count with a nominative subject other than ты/вы («мальчики пришли»: прислать)
        subj = self.subject(sent, verb)
        no_imperative = subj is not None and subj.feats.get("Case") == "Nom" and normalize(subj.form) not in ("ты", "вы")
        for p in self.morph.parses(verb.form):
            if p.tag.POS != "VERB" or (no_imperative and "impr" in p.tag):
                continue
            if ("past" in p.tag) != (tense == "Past") or (perfective and "perf" not in p.tag and p.normal_form == a.lemma):
                return None
        return a, tense

    @functools.cached_property
    def _marker_words(self) -> frozenset[str]:
        """Every word that can start or head a marker (forms and lemmas, ё-less)."""
        t = self.markers
        words = {w.split()[0] for w in t.adverbs} | set(t.adjectives) | set(t.numeric)
        return frozenset(words)

    def may_have_marker(self, sent: Sentence) -> bool:
        """A cheap test before the tree walk: some token is a marker word (outputs unchanged)."""
        words = self._marker_words
        return any(normalize(t.form) in words or normalize(t.lemma) in words for t in sent.tokens)

    def verb_only(self, form: str) -> bool:
        """Every pymorphy3 reading of ``form`` is a finite verb (and it is a dictionary word)."""
        return finite_verb_only(self.morph, form) is not None

    def eligible(self, sent: Sentence, verb: Token) -> bool:
        """No infinitival complement («собираюсь сделать»: the paper's filter), no «бы»/«чтобы».
        A finite clausal complement is no obstacle: «вчера понял, что …» → «*вчера пойму, что …»
        (RuBLiMP's pairs keep them)."""
        for k in sent.children(verb):
            if k.base_deprel in _CLAUSAL and k.upos in _PREDICATE_UPOS and (
                k.base_deprel == "xcomp" or k.feats.get("VerbForm") not in ("Fin",)
            ):
                return False
            if normalize(k.form) in _SUBJUNCTIVE:
                return False
        return True

    def frame(self, sent: Sentence, verb: Token, lemma: str) -> tuple[Token, ...] | None:
        """() for an :meth:`eligible` verb; else the infinitives of a verb whose complement shares its time
        (:func:`~rublimp.trees.tense_frames.same_time_infinitives`: a marker must precede them all), or None."""
        return () if self.eligible(sent, verb) else same_time_infinitives(sent, verb, lemma)

    # -- subjects and inflection ----------------------------------------------------
    @staticmethod
    def subject(sent: Sentence, verb: Token) -> Token | None:
        subs = [k for k in sent.children(verb) if k.base_deprel == "nsubj"]
        # a nominal with features first («Что он не захочет»: «что» is no subject to agree with)
        subs.sort(key=lambda k: not (k.upos in ("NOUN", "PROPN", "PRON") and k.feats.get("Case") == "Nom"))
        if not subs:
            # tree repair: a subject the parser hung on the word after it («Я там только что
            # закончила»: я → nsubj of там) — an nsubj of a non-predicate before the verb,
            # with no punctuation or verb between them
            for k in sent.tokens[: verb.id - 1]:
                head = sent.head_of(k)
                if k.base_deprel != "nsubj" or head is None or head.upos in _PREDICATE_UPOS or head.id == verb.id:
                    continue
                if k.upos in ("NOUN", "PROPN", "PRON") and k.feats.get("Case") == "Nom" and not any(
                    t.upos in ("PUNCT", "VERB", "AUX") for t in sent.tokens[k.id : verb.id - 1]
                ):
                    subs = [k]
        subs = subs or apposed_subjects(sent, verb)  # («Завтра заступит Елизавета Анатольевна»)
        if subs:
            return subs[0]
        # a conjoined verb shares its head conjunct's subject
        if verb.base_deprel == "conj" and verb.head:
            head = sent.token(verb.head)
            subs = [k for k in sent.children(head) if k.base_deprel == "nsubj"]
            return subs[0] if subs else None
        return None

    def shared_subject(self, sent: Sentence, verb: Token, tag) -> Token | None:
        """Tree repair: the subject the parser gave to another verb of a missed coordination
        («Я побывал у него и только что его узнал»: узнал → advcl, no subject; «Ты только что
        потопил катер, погубил ребят»: ты → nsubj of погубил) — the nearest nominative subject
        before the verb, in the same sentence stretch (no punctuation other than commas, no
        subordinator or relative word between), agreeing with the verb's number and, for a
        singular past verb, its gender."""
        for k in reversed(sent.tokens[: verb.id - 1]):
            form = normalize(k.form)
            if k.upos == "PUNCT" and form != ",":
                return None
            if _only_chto(sent, k):
                continue  # «только что» is a marker, not a subordinator
            if k.upos == "SCONJ" or (
                (form in _SUBORDINATORS or normalize(k.lemma) in _SUBORDINATORS) and k.upos in ("PRON", "ADV", "DET") and k.base_deprel != "fixed"
            ):
                return None  # a subordinate or relative clause: its subject is not the verb's
            if k.base_deprel != "nsubj" or k.upos not in ("NOUN", "PROPN", "PRON") or k.feats.get("Case") != "Nom":
                continue
            head = sent.head_of(k)
            if head is not None and head.id != verb.id and self._subordinate(sent, head):
                return None  # the subject of a subordinate or relative clause
            number = k.feats.get("Number")
            if number and (number == "Plur") != ("plur" in tag):
                return None
            if "past" in tag and "plur" not in tag:
                gender = k.feats.get("Gender")
                if gender and {"Masc": "masc", "Fem": "femn", "Neut": "neut"}.get(gender) not in tag:
                    return None
            return k
        return None

    def retense(self, sent: Sentence, verb: Token, analysis, tense: str) -> str | None:
        """The form of ``verb`` in the opposite tense, agreeing with its subject, or None."""
        tag = analysis.tag
        number = "plur" if "plur" in tag else "sing"
        subj = self.subject(sent, verb)
        if subj is None and number == "sing":
            subj = self.shared_subject(sent, verb, tag)
        subj_person = subj.feats.get("Person") if subj is not None and subj.upos == "PRON" else None
        if tense == "Past":  # → future: needs a person
            if subj is not None:
                person = subj_person or "3"
            elif number == "plur" or "neut" in tag:
                person = "3"  # indefinite-personal («вчера открыли») or impersonal («похолодало»)
            else:
                return None
            if subj_person and subj.feats.get("Number") and (subj.feats["Number"] == "Plur") != (number == "plur"):
                return None
            want = {"futr", f"{person}per", number}
        else:  # future → past: needs a gender in the singular
            if number == "plur":
                want = {"past", "plur"}
            else:
                person = "1" if "1per" in tag else "2" if "2per" in tag else "3"
                if person != "3":
                    gender = (subj.feats.get("Gender") if subj is not None else None) or "Masc"
                elif subj is not None and subj.feats.get("Number", "Sing") == "Sing" and (gender := (
                    subj.upos == "NOUN" and common_noun_gender(subj.form)) or subj.feats.get("Gender")) in ("Masc", "Fem", "Neut"):
                    pass  # (a common noun's gender by its form: the tagger guesses «астролёт» feminine)
                else:
                    return None
                want = {"past", "sing", {"Masc": "masc", "Fem": "femn", "Neut": "neut"}[gender]}
        new = self.morph.inflect(analysis, want)
        if not new:
            return None
        if "ё" not in sent.text.lower():
            new = new.replace("ё", "е")
        if normalize(new) == normalize(verb.form):
            return None
        # the new form must not be readable in the original tense
        if self.morph.is_ambiguous(new, analysis.lemma, {"VERB"}, {"Tense": tense}):
            return None
        return new

    def markers_of(self, sent: Sentence, verb: Token) -> list[FoundMarker]:
        """The markers of ``verb`` with no punctuation between them and the verb: a marker
        across a comma is often a parser's misattachment from a participle or another clause
        («синиц, окольцованных пять лет назад, поймали»).

        A multi-word adverb of the table («только что», RuBLiMP's most frequent past cue
        after «вчера») counts when its words stand right before the verb, whatever the
        parser made of them («что» is often a subordinator to it).
        """
        out = [m for m in self._multiword_adverbs(sent, verb)]
        out.extend(self._stray_adverbs(sent, verb))
        out.extend(self._stray_phrases(sent, verb))
        out.extend(self._adjacent_numeric(sent, verb))
        for m in find_markers(sent, verb, self.markers):
            ids = [t.id for t in m.tokens]
            lo, hi = (max(ids), verb.id) if max(ids) < verb.id else (verb.id, min(ids))
            puncts = [i for i in range(lo + 1, hi) if sent.token(i).upos == "PUNCT"]
            if not puncts or (hi == verb.id and self._framing_marker(sent, verb, m, puncts)):
                out.append(m)
        return out

    @staticmethod
    def _framing_marker(sent: Sentence, verb: Token, m: FoundMarker, puncts: list[int]) -> bool:
        """A marker opening the sentence («Вчера, кажется, он выиграл»; «Вчера он, не глядя,
        ответил») frames the whole clause: the punctuation between it and its verb only sets
        off another dependent of the verb (a parenthetical, a gerund phrase, a subject's
        modifier), never a conjunct or a subordinate clause (the marker may be that clause's).
        Only words the parser calls conjunctions or particles may stand before it."""
        first = min(t.id for t in m.tokens)
        if any(t.upos not in ("CCONJ", "PART") for t in sent.tokens[: first - 1]):
            return False
        own = {t.id for t in m.tokens}
        for i in puncts:
            tok = sent.token(i)
            # climb to the dependent of the verb whose subtree holds the punctuation
            while tok.head and tok.head != verb.id:
                tok = sent.token(tok.head)
            if tok.head != verb.id or tok.id in own or tok.base_deprel in ("conj", "punct", "cc"):
                return False
            if any(k.base_deprel == "mark" or normalize(k.form) in _SUBORDINATORS for k in sent.children(tok)):
                return False  # a subordinate clause may be the marker's («Вчера, когда все спали, …»)
        return True

    def _adjacent_numeric(self, sent: Sentence, verb: Token) -> Iterator[FoundMarker]:
        """Tree repair: a numeric marker («три недели назад») standing right after or right
        before the verb, which the parser hung on another verb of the sentence («…, а он умер
        три недели назад»: недели → obl of the first clause's verb). Its time noun heads the
        whole phrase, and the phrase touches the verb with no punctuation in between."""
        for noun in sent.tokens:
            if noun.head == verb.id or noun.head == 0 or noun.base_deprel not in ("obl", "nmod", "obj", "advmod"):
                continue
            if normalize(noun.lemma) not in self.markers.measure_nouns:
                continue
            found = _numeric_marker(sent, verb, noun, self.markers)
            if found is None:
                continue
            ids = [t.id for t in found.tokens]
            if min(ids) == verb.id + 1 or max(ids) == verb.id - 1:
                yield found

    def _stray_adverbs(self, sent: Sentence, verb: Token) -> Iterator[FoundMarker]:
        """Tree repair: a one-word adverb marker («вчера») that the parser hung elsewhere (a
        noun, the root, another verb: «У Богдана вчера специально вольтметр попросила», «я
        вчера в щелку поглядел, тебя увидел») belongs to the first finite verb after it, when
        no punctuation and no other finite verb stand between them."""
        for tok in sent.tokens[: verb.id - 1]:
            form = normalize(tok.form)
            marker = self.markers.adverbs.get(form)
            if marker is None or " " in form or sent.children(tok, "case"):
                continue
            head = sent.token(tok.head) if tok.head else None
            if head is not None and head.id == verb.id:
                continue  # the parser's own attachment (find_markers)
            between = sent.tokens[tok.id : verb.id - 1]
            if any(t.upos == "PUNCT" or self._finite(t) for t in between):
                continue
            yield FoundMarker(marker, (tok,), tok)
        # after the verb only when the parser hung it on a non-predicate («придёт завтра
        # утром»: завтра → advmod of утром)
        for tok in sent.tokens[verb.id :]:
            if tok.upos == "PUNCT" or self._finite(tok):
                break
            form = normalize(tok.form)
            marker = self.markers.adverbs.get(form)
            if marker is None or sent.children(tok, "case"):
                continue
            head = sent.token(tok.head) if tok.head else None
            if head is None or head.id == verb.id or head.upos in _PREDICATE_UPOS or sent.children(head, "cop"):
                continue
            yield FoundMarker(marker, (tok,), tok)

    def _stray_phrases(self, sent: Sentence, verb: Token) -> Iterator[FoundMarker]:
        """Tree repair: an adjective marker («в прошлую смену») whose noun the parser made the root or
        hung on a word that is neither a noun nor a verb form («А в прошлую смену Лирка номер отмочила»:
        смену → root) belongs to the first finite verb after it, with no punctuation, conjunction or
        other finite verb between them and no finite verb before it in its stretch (under a noun or a
        participle it may date that word: «победитель турнира в прошлом году», «в прошлом году
        построенный дом»; after a verb it is that verb's: «кто брал в прошлом году и кто не вернул»)."""
        for noun in sent.tokens[: verb.id - 1]:
            head = sent.head_of(noun)
            if head is not None and (head.upos in ("NOUN", "PROPN", "PRON", "NUM", "VERB", "AUX") or head.feats.get("VerbForm")):
                continue
            found = adjective_marker(sent, noun, self.markers)
            if found is None or max(t.id for t in found.tokens) >= verb.id or any(t.start < 0 for t in found.tokens):
                continue
            lo, hi = min(t.id for t in found.tokens), max(t.id for t in found.tokens)
            before = next((t for t in reversed(sent.tokens[: lo - 1]) if t.upos == "PUNCT" or self._finite(t)), None)
            if before is not None and before.upos != "PUNCT":
                continue  # right after another verb of its stretch: that verb's («брал в прошлом году и не вернул»)
            if not any(t.upos in ("PUNCT", "CCONJ", "SCONJ") or self._finite(t) for t in sent.tokens[hi : verb.id - 1]):
                yield found

    def _multiword_adverbs(self, sent: Sentence, verb: Token) -> Iterator[FoundMarker]:
        """Multi-word adverbs: right before the verb or separated from it only by up to two
        adverbs, pronouns or particles («только что вновь обрёл», «только что его узнал»),
        or right after it at the end of the clause («понял только что.», «залез только что,
        а …»), where «что» can open no clause of its own."""
        n = len(sent.tokens)
        for phrase, marker in self.markers.adverbs.items():
            words = phrase.split()
            if len(words) < 2:
                continue
            starts = [verb.id - len(words) - gap for gap in range(3)]
            after = verb.id + 1
            if after + len(words) - 1 <= n:
                nxt = after + len(words)
                if nxt > n or sent.token(nxt).upos == "PUNCT":
                    starts.append(after)
            for first in starts:
                if first < 1:
                    continue
                toks = [sent.token(first + i) for i in range(len(words))]
                if [normalize(t.form) for t in toks] != words or any(t.start < 0 for t in toks):
                    continue
                if first < verb.id:
                    gap = sent.tokens[first + len(words) - 1 : verb.id - 1]
                    if any(
                        (t.upos not in ("ADV", "PRON", "PART") and normalize(t.lemma) != "сам") or self._finite(t)
                        or normalize(t.form) in _COORDINATORS
                        for t in gap
                    ):
                        continue
                yield FoundMarker(marker, tuple(toks), toks[0])
                break

    def verb_cues(self, sent: Sentence, verb: Token, tense: str) -> list[FoundMarker]:
        return [m for m in self.markers_of(sent, verb) if m.marker.verb_cue and m.marker.tense == tense]

    def coordinated_after(self, sent: Sentence, verb: Token) -> bool:
        """A coordinating conjunction after ``verb`` followed by a word pymorphy3 reads only as a
        finite verb — a coordination the parser may have missed («прошли двадцать вёрст и
        заночевали», with «заночевали» tagged as a noun)."""
        toks = sent.tokens[verb.id :]
        for prev, tok in zip(toks, toks[1:]):
            if normalize(prev.form) not in _COORDINATORS:
                continue
            parses = [p for p in self.morph.parses(tok.form)]
            if parses and all(p.tag.POS == "VERB" for p in parses):
                return True
        return False

    def missed_conjunct(self, sent: Sentence, verb: Token) -> bool:
        """A later conjunct of ``verb`` the parser attached elsewhere or mistagged: the first
        «и/а/но» after the verb, with no finite verb, subordinator or clause-opening
        punctuation other than a comma in between, is followed (at most one adverb or
        particle later) by a finite verb («назвала меня врагом и обхаяла мою кухню»,
        «выломал железяку и раздробил», where the parser hung the second verb on another
        word or tagged it a noun). A tree-pattern repair for ``conj_verb_tense``.
        """
        toks = sent.tokens[verb.id :]
        for i, tok in enumerate(toks):
            form = normalize(tok.form)
            if form in _COORDINATORS and tok.upos == "CCONJ":
                nxt = toks[i + 1 : i + 3]
                for k in nxt:
                    if self._finite(k):
                        return True
                    if k.upos not in ("ADV", "PART"):
                        break
                return False
            if self._opens_clause(tok) or (tok.upos == "PUNCT" and form not in (",",)):
                return False
        return False

    def asyndetic_conjunct(self, sent: Sentence, verb: Token) -> bool:
        """Tree repair for ``conj_verb_tense``: a coordination the parser missed around
        ``verb`` — a comma after it followed at once (at most one adverb or particle later)
        by a word that can only be a finite verb («постирала полотенца, наворожила дождя»,
        with «наворожила» tagged as an adjective), with no subordinator, relative pronoun or
        other punctuation in between; or «и/а/но» right before the verb's own words
        (adverbs, pronouns, particles, its marker) with a finite verb earlier in the
        sentence («побывал у него и только что его узнал», «что» taken for a subordinator)."""
        if verb.base_deprel in _SUBORDINATE or any(k.base_deprel == "mark" for k in sent.children(verb)):
            return False  # a relative or subordinate clause ends at the comma
        toks = sent.tokens[verb.id :]
        for i, tok in enumerate(toks):
            form = normalize(tok.form)
            if tok.upos == "PUNCT":
                if form != ",":
                    break
                for k in toks[i + 1 : i + 3]:
                    if normalize(k.form) in _SUBORDINATORS:
                        break
                    if k.upos != "PUNCT" and self.verb_only(k.form):
                        return True
                    if k.upos not in ("ADV", "PART"):
                        break
                break
            if self._opens_clause(tok):
                break
        i = verb.id - 1
        while i >= 1 and (sent.token(i).upos in ("ADV", "PART", "PRON") or normalize(sent.token(i).form) in ("что",)):
            if normalize(sent.token(i).form) in _COORDINATORS:
                break
            i -= 1
        if i >= 2 and normalize(sent.token(i).form) in _COORDINATORS:
            return any(self._finite(t) for t in sent.tokens[: i - 1])
        return False

    def other_clauses(self, sent: Sentence, verb: Token) -> list[Token]:
        """Tree repair for ``conj_verb_tense``: the finite predicates of other main clauses of the
        sentence, however the parser joined them to the verb's (``ccomp`` under an imperative,
        ``parataxis`` across a dash, a missed coordination: «Вот слушай, он только что выучил»,
        «Он знал, где они, а только что обнаружил и магов»). A subordinate clause (opened by
        a conjunction or a relative word) is no conjunct, and neither is the verb's own
        subordinate clause."""
        if self._subordinate(sent, verb):
            return []  # («Дом, который дед построил сорок лет назад, стоит пустой»)
        out = []
        for k in sent.tokens:
            if k.id == verb.id or not self._finite(k) or self._subordinate(sent, k):
                continue
            lo, hi = sorted((k.id, verb.id))
            if any(normalize(t.form) in _QUOTES for t in sent.tokens[lo : hi - 1]):
                continue  # reported speech and its reporting clause («…», — сказала она)
            out.append(k)
        return out

    def _subordinate(self, sent: Sentence, pred: Token) -> bool:
        """``pred`` heads a subordinate clause: a ``mark`` or a relative/interrogative word among
        its dependents, or one right before it (the parser may hang «когда» elsewhere)."""
        kids = sent.children(pred)
        if any(
            (k.base_deprel == "mark" or (normalize(k.form) in _SUBORDINATORS and k.base_deprel != "fixed" and not sent.children(k, "fixed")))
            and not _only_chto(sent, k)
            for k in kids
        ):
            return True
        if pred.base_deprel == "acl":
            return True
        # the clause's first word: a subordinator at the clause start (after a comma)
        i = pred.id - 1
        while i >= 1 and sent.token(i).upos not in ("PUNCT",):
            t = sent.token(i)
            if (
                normalize(t.form) in _SUBORDINATORS and t.upos in ("SCONJ", "ADV", "PRON", "DET") and t.base_deprel != "fixed"
                and not sent.children(t, "fixed") and not _only_chto(sent, t)
            ):
                return True
            i -= 1
        return False

    def _opens_clause(self, tok: Token) -> bool:
        """A finite verb, a subordinating conjunction or a relative pronoun: where the stretch
        after a verb that may hold a missed conjunct ends."""
        return self._finite(tok) or tok.upos == "SCONJ" or (tok.upos == "PRON" and normalize(tok.lemma) in ("который", "кто", "что"))

    def _finite(self, tok: Token) -> bool:
        if tok.upos in ("VERB", "AUX") and tok.feats.get("VerbForm") == "Fin":
            # unless pymorphy3 knows the word and never as a verb («небось» tagged VERB)
            return not (self.morph.word_is_known(tok.form) and not any(p.tag.POS == "VERB" for p in self.morph.parses(tok.form)))
        return tok.upos not in ("PUNCT", "ADP", "CCONJ", "SCONJ", "PART", "PRON", "DET") and self.verb_only(tok.form)

    def is_predicate(self, sent: Sentence, tok: Token) -> bool:
        """A verb, a nominal predicate with a copula, or a word pymorphy3 reads as a finite verb
        (the tagger misses some: «соберём» as an adjective)."""
        if tok.upos in _PREDICATE_UPOS or sent.children(tok, "cop"):
            return True
        return tok.upos not in ("PUNCT", "ADP", "CCONJ", "SCONJ", "PART") and any(
            p.tag.POS == "VERB" for p in self.morph.parses(tok.form)
        )

    def conj_partners(self, sent: Sentence, verb: Token) -> list[Token]:
        """Predicates coordinated with ``verb`` (its conj dependents, or its conj head)."""
        out = [k for k in sent.children(verb, "conj") if self.is_predicate(sent, k)]
        if verb.base_deprel == "conj" and verb.head:
            head = sent.token(verb.head)
            if self.is_predicate(sent, head):
                out.append(head)
        return out

    def clause_partners(self, sent: Sentence, verb: Token) -> list[Token]:
        """Clauses coordinated with ``verb`` in a wider sense (``conj_verb_tense`` only): its
        predicate conjuncts, an elliptical or verbless conjunct clause with a subject of its
        own («он только что купил квартиру и сам сейчас на нулях», «он залез только что, а я
        уже давно»), and a finite verb joined to it without a conjunction (``parataxis``:
        «дошло оно сегодня до Миколы, завтра Роман прозреет»), as RuBLiMP's pairs count them."""
        out = self.conj_partners(sent, verb)
        links = [k for k in sent.children(verb) if k.base_deprel in ("conj", "parataxis")]
        if verb.base_deprel in ("conj", "parataxis") and verb.head:
            links.append(sent.token(verb.head))
        for k in links:
            if k in out or k.upos == "PUNCT" or k.start < 0:
                continue
            lo, hi = sorted((k.id, verb.id))
            if k.base_deprel == "parataxis" or verb.base_deprel == "parataxis":
                # not a reporting clause or an explanation («…», — сказала она; «…: аллеи заросли»)
                if any(normalize(t.form) in _QUOTE_DASH for t in sent.tokens[lo - 1 : hi]):
                    continue
            # (an ``orphan`` dependent marks a conjunct whose verb is elided: «а брат — без квартиры»);
            # a verbless clause only as a later conjunct, not a comma-joined one («купил
            # квартиру, у нас много друзей» is one sentence to RuBLiMP)
            kids = sent.children(k)
            rels = {c.base_deprel for c in kids}
            verbless = (
                bool(rels & {"orphan", "cop"})
                # an adjectival or predicative head («ты молода, но вчера ушла», «надо … создать»)
                or (k.upos in ("ADJ", "ADV") and bool(rels & {"nsubj", "csubj", "xcomp"}))
                or (k.base_deprel == "conj" and k.id > verb.id and "nsubj" in rels)
            )
            if self._finite(k) or verbless:
                out.append(k)
        # a conjunct shares the verb's clause: the verb of a subordinate clause is not coordinated
        # with a main-clause verb before its subordinator that the parser joined to it («ворчала,
        # что мы забыли соль, спички и ложки»: забыли has only coordinated objects)
        start = self.subordinate_stretch(sent, verb)
        if start is not None:
            # no partner before the verb's subordinator, nor after «, и/а/но», which opens a clause
            # of the higher level («обещают, что всё починят, и снова ничего не делают»)
            out = [k for k in out if (k.id >= start or self._subordinate(sent, k)) and not (
                k.id > verb.id and any(
                    sent.token(i).form == "," and normalize(sent.token(i + 1).form) in _COORDINATORS
                    # (not the comma that closes a clause inside the verb's: «победил Белугу, который
                    # охранял вход, и теперь нападает»)
                    and not any(self._finite(t) for t in sent.tokens[verb.id : i - 1])
                    for i in range(verb.id + 1, k.id)
                )
            )]
        return out

    @staticmethod
    def subordinate_stretch(sent: Sentence, verb: Token) -> int | None:
        """The first word id of ``verb``'s stretch (the words since the last punctuation before
        it) when that stretch holds a subordinator (a ``mark``, a subordinating conjunction, a
        relative «который/кто/что» — also «потому что» hung elsewhere by the parser; not the «что»
        of the marker «только что», nor the correlative «то» of «если …, то»); else None."""
        start = verb.id
        while start > 1 and sent.token(start - 1).upos != "PUNCT":
            start -= 1
        opened = any(
            (t.base_deprel == "mark" or t.upos == "SCONJ" or (t.upos == "PRON" and normalize(t.lemma) in ("который", "кто", "что")))
            and not _only_chto(sent, t) and normalize(t.form) not in ("то", "и", "а", "но")
            for t in sent.tokens[start - 1 : verb.id - 1]
        )
        return start if opened else None

    def predicate_tense(self, sent: Sentence, pred: Token) -> str | None:
        """Past/Fut of a finite predicate of any aspect (the verb, or the copula of a nominal one)."""
        for tok in [pred] + sent.children(pred, "cop") + sent.children(pred, "aux"):
            if tok.upos not in _PREDICATE_UPOS and not self.is_predicate(sent, tok):
                continue
            as_verb = tok if tok.upos in _PREDICATE_UPOS else Token(tok.id, tok.form, tok.lemma, "VERB", None, {}, tok.head, tok.deprel, start=tok.start, end=tok.end)
            got = self.verb_tense(sent, as_verb, perfective=False)
            if got is not None:
                return got[1]
        return None

    def verb_perturbation(self, sent: Sentence, verb: Token, tense: str, marker: FoundMarker, analysis) -> Perturbation | None:
        new = self.retense(sent, verb, analysis, tense)
        if new is None:
            return None
        return Perturbation(
            edits=(Edit(verb.id, new),),
            feature="Tense",
            source_value=tense,
            target_value=_OPPOSITE[tense],
            subtype=marker.label,
        )


@register
class SingleVerbTense(TenseParadigm):
    """A perfective past/future verb with a matching deictic marker, not coordinated → the other tense."""

    name = "single_verb_tense"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        if not self.may_have_marker(sent):
            return
        for verb in sent.tokens:
            got = self.verb_tense(sent, verb)
            if got is None or (frame := self.frame(sent, verb, got[0].lemma)) is None:
                continue
            if same_clause_level(self.conj_partners(sent, verb), verb, functools.partial(self._subordinate, sent)) or self.coordinated_after(sent, verb) or self.asyndetic_conjunct(sent, verb):
                continue
            analysis, tense = got
            cues = [m for m in self.verb_cues(sent, verb, tense) if dates_the_frame(m.tokens, verb, frame)]
            if not cues:
                continue
            pert = self.verb_perturbation(sent, verb, tense, cues[0], analysis)
            if pert is not None:
                yield pert


@register
class ConjVerbTense(TenseParadigm):
    """A verb with a matching marker, coordinated with a verb of the same tense → the other tense."""

    name = "conj_verb_tense"

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        if not self.may_have_marker(sent):
            return
        for verb in sent.tokens:
            got = self.verb_tense(sent, verb)
            if got is None or (frame := self.frame(sent, verb, got[0].lemma)) is None:
                continue
            analysis, tense = got
            cues = [m for m in self.verb_cues(sent, verb, tense) if dates_the_frame(m.tokens, verb, frame)]
            if not cues:
                continue
            # RuBLiMP: the verb with the marker is one conjunct of a coordination, the first
            # or a later one («…, и завтра утром с ним останется Петро»); the marker is its
            # own dependent, so the other tense clashes with it whatever the other conjunct
            # says. A partner with a marker of the other tense
            # («вчера был в Италии, а завтра полетит») is skipped, as in the paper.
            partners = self.clause_partners(sent, verb)
            if not partners and not self.missed_conjunct(sent, verb) and not self.asyndetic_conjunct(sent, verb):
                if self.subordinate_stretch(sent, verb) is not None:
                    continue  # a subordinate clause's verb is no main clause's conjunct
                partners = self.other_clauses(sent, verb)
                if not partners:
                    continue
            if any(m.marker.tense != tense for k in partners for m in find_markers(sent, k, self.markers)):
                continue
            pert = self.verb_perturbation(sent, verb, tense, cues[0], analysis)
            if pert is not None:
                yield pert


@register
class TenseMarker(TenseParadigm):
    """A deictic marker matching a perfective past/future verb → the marker of the opposite tense."""
    new_words = "word"  # the self-check: another temporal adverbial

    name = "tense_marker"

    def _auxiliary_tense(self, sent: Sentence, verb: Token):
        """A passive participle's tense from its auxiliary («в прошлом году была коронована»)."""
        if verb.upos != "VERB" or verb.feats.get("VerbForm") != "Part":
            return None
        for aux in sent.children(verb):
            if aux.base_deprel == "aux" and normalize(aux.lemma) == "быть":
                return self.verb_tense(sent, aux, perfective=False)
        return None

    def replacement_edits(self, sent: Sentence, found: FoundMarker) -> tuple[Edit, ...] | None:
        m = found.marker
        if m.replacement is None:
            return None
        if m.kind == "adverb":
            return (Edit(found.target.id, m.replacement),)
        if m.kind == "adjective":
            adj = found.target
            a = self.morph.analyse(adj.form, "ADJ", adj.feats)
            if a is None:
                return None
            grams = {g for g in a.tag.grammemes if g in ("nomn", "gent", "datv", "accs", "ablt", "loct", "sing", "plur", "masc", "femn", "neut", "anim", "inan")}
            repl = next(
                (p for p in self.morph.parses(m.replacement) if normalize(p.normal_form) == m.replacement and p.tag.POS in ("ADJF", "PRTF")),
                None,
            )
            if repl is None:
                return None
            new = self.morph.inflect(repl, grams)
            if not new:
                return None
            return (Edit(adj.id, new),)
        # numeric: «через N» → «N назад» (each word shifts one place to the left)
        toks = found.tokens
        if normalize(toks[0].form) != m.word or any(t.start < 0 for t in toks):
            return None
        news = [t.form for t in toks[1:]] + [m.replacement]
        # the first word takes over the capitalisation of «через»; the others are copied as written
        return tuple(Edit(tok.id, new, keep_case=(i == 0)) for i, (tok, new) in enumerate(zip(toks, news)))

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        if not self.may_have_marker(sent):
            return
        for verb in sent.tokens:
            # any aspect: only the marker changes, and a past or future form of either aspect
            # clashes with a marker of the other tense («*завтра они обсуждали», «*вчера будет
            # дождь»); RuBLiMP's pairs include imperfective verbs
            got = self.verb_tense(sent, verb, perfective=False) or self._auxiliary_tense(sent, verb)
            if got is None or (frame := self.frame(sent, verb, got[0].lemma)) is None:
                continue
            _, tense = got
            for found in self.markers_of(sent, verb):
                if found.marker.tense != tense or not dates_the_frame(found.tokens, verb, frame):
                    continue
                edits = self.replacement_edits(sent, found)
                if not edits:
                    continue
                src = " ".join(sent.token(e.token_id).form for e in edits)
                tgt = " ".join(e.new_form for e in edits)
                yield Perturbation(
                    edits=edits,
                    feature="Tense",
                    source_value=tense,
                    target_value=_OPPOSITE[tense],
                    subtype=found.label,
                    source_word=src,
                    target_word=tgt,
                )
