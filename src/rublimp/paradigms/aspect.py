"""ASPECT: three RuBLiMP paradigms (Appendix B.3.2).

Some contexts admit only an imperfective verb; putting its perfective partner
there is ungrammatical. Each paradigm finds an imperfective verb with one of
the paper's lexical cues among its dependents and replaces it by its
perfective partner (``resources/aspect_pairs.tsv``, or the TSV named by
``ctx.options["aspect_pairs"]``), inflected to the same form:

* ``change_duration_aspect`` — duration: «долго», «подолгу», «длительно»,
  «продолжительно» («вопрос долго оставался открытым» → «*долго остался»);
* ``change_repetition_aspect`` — repetition: «каждый» + a time noun without a
  preposition («каждый год», «каждую неделю», «каждые два дня») or an
  adverb of the еже- series («ежедневно», «ежегодно») («каждый год
  посылала» → «*каждый год послала»);
* ``deontic_imperative_aspect`` — a negated deontic predicate: «не стоит»,
  «не следует», «не надо», «не нужно» (also «не стоило», «не следовало»)
  with an imperfective infinitive («не стоит уделять внимание» → «*не стоит
  уделить внимание»).

Safeguards (each avoids a grammatical "ungrammatical" sentence):

* duration and repetition take past-tense verbs only: a perfective future is
  fine in both contexts («этот день долго останется в памяти»; «каждый раз он
  что-нибудь забудет», the exemplary use of the perfective future);
* for repetition a negated verb is skipped («каждое утро не успевала» → «не успела»
  is acceptable to many speakers), and for both a verb with «бы» or «чтобы» (a
  subjunctive past form is no past tense);
* duration skips negated verbs too: «долго не + perfective past» (a prolonged
  non-occurrence: «долго не отпустили», «долго не прокисало» → «не прокисло») is acceptable
  to many readers, so it is no clear violation (RuBLiMP keeps them); nor is a verb whose
  coordinated later clause denies its result («долго искал, но ничего не нашёл»: the
  perfective would assert the success the next clause denies);
* repetition: a transitive perfective partner (pymorphy3's ``tran``) is used only when the
  verb has an object, a complement clause or an oblique argument besides its cue
  («*каждый вечер прочитал» is incomplete on its own, a second error);
* «подолгу» is a cue too, negated verbs included (it means «for long stretches, repeatedly»
  and takes no single perfective event: «*подолгу не задержался»), and a cue
  the parser hung on a non-verb (a predicative adjective, a noun taken for the root)
  belongs to the nearest past verb of its stretch;
* for duration, partners made with the delimitative по- or the perdurative
  про- are not used: they combine with duration adverbs («долго проработал»,
  «долго посмотрел на неё»);
* repetition: a form pymorphy3 knows only as a past verb counts as past whatever tense
  the parser gave it («ежегодно перевыполняла»: Tense=Pres), and an еже- adverb hung on
  a non-verb belongs to the nearest verb of its stretch (the present tense stays out: a perfective future can be habitual, «каждый день обойдём»);
* repetition nouns with a preposition are skipped: «за каждый год» is not
  repetition («за каждый год он получил премию»); «с каждым днём/годом» (gradual
  change, which needs the imperfective: «*с каждым днём увеличился») is a cue;
* deontic: an infinitive the parser linked elsewhere (a conjunct of another verb, an
  advmod, a finite tag) is the predicate's when it is the first word of the predicate's
  stretch that can only be an infinitive (no finite verb, subordinator or punctuation
  between, bar the commas of a one-word parenthetical);
* the deontic predicate must carry «не» itself, the infinitive must not be
  negated, and a question particle «ли» on the predicate disqualifies it
  («Не стоит ли подумать?» is a suggestion, open to the perfective).

Pool columns: ``feature`` = ``Aspect``, ``source_value`` = ``Imp``,
``target_value`` = ``Perf``, ``subtype`` = the cue («долго», «каждый год»,
«ежедневно», «не стоит»).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import ClassVar, Iterator

from ..aspect_pairs import ASPECT_PAIRS_FILE, AspectPairs, load_aspect_pairs
from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..trees.lexical import reads_only_as, verb_only_guessing
from ..io import InputError
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "AspectParadigm",
    "ChangeDurationAspect",
    "ChangeRepetitionAspect",
    "DeonticImperativeAspect",
    "DURATION_ADVERBS",
    "REPETITION_NOUNS",
    "REPETITION_ADVERBS",
    "DEONTIC_PREDICATES",
]

PHENOMENON = "aspect"

DURATION_ADVERBS = frozenset({"долго", "длительно", "продолжительно", "подолгу"})
# time-period nouns that make «каждый + X» a repetition cue
REPETITION_NOUNS = frozenset(
    {
        "секунда", "минута", "час", "день", "сутки", "неделя", "месяц", "год", "лето", "зима",
        "весна", "осень", "утро", "вечер", "ночь", "раз", "понедельник", "вторник", "среда",
        "четверг", "пятница", "суббота", "воскресенье", "выходные", "выходной", "сезон",
        "праздник", "семестр", "квартал", "лет",
    }
)
REPETITION_ADVERBS = frozenset(
    {
        "ежедневно", "ежегодно", "ежемесячно", "еженедельно", "ежечасно", "ежеминутно",
        "ежесекундно", "ежеквартально", "ежесуточно", "ежевечерне", "ежевечерно", "еженощно",
        "ежеутренне",
    }
)
# negated deontic predicates (forms, ё-less): «(не) стоит/стоило», «следует/следовало», «надо», «нужно»
DEONTIC_PREDICATES = frozenset({"стоит", "стоило", "следует", "следовало", "надо", "нужно"})
_NEGATIONS = frozenset({"не"})
# «ни»-words that deny a result on their own («ничего не нашёл», «никого не застал»)
_NEGATIVE_PRONOUNS = frozenset({"ничего", "никого", "ни", "нигде", "никак", "ничем", "никому", "ничто"})
_CONDITIONAL = frozenset({"бы", "б", "чтобы", "чтоб"})
_QUESTION = frozenset({"ли", "ль"})
# delimitative (по-) and perdurative (про-) perfectives combine with «долго»
_DURATION_BAD_PREFIXES = ("по", "про")
# ждать → подождать is a delimitative in a prefix's disguise (под-)
_DURATION_SKIP_LEMMAS = frozenset({"ждать"})
_PAST_GRAMMEMES = ("masc", "femn", "neut", "plur")
# inceptive prefixes: on a verb of sound or of a state with no result they mean "begin to"
# (выть → взвыть 'start howling', орать → заорать), so the prefixed verb is another lexeme,
# not the aspect partner
_INCEPTIVE_PREFIXES = frozenset({"вз", "взо", "вс", "за"})
# verbs of sound that pymorphy3 also reads as transitive («орать песни»): their за-/вз-
# perfective is the inceptive one all the same
_SOUND_VERBS = frozenset({
    "орать", "кричать", "петь", "реветь", "выть", "рычать", "визжать", "вопить", "голосить",
    "греметь", "звенеть", "звучать", "шуметь", "плакать", "рыдать", "хохотать", "смеяться",
    "стонать", "свистеть", "трубить", "лаять", "мычать", "пищать", "скрипеть", "гудеть",
})


class AspectParadigm(Paradigm):
    """Shared machinery: the aspect pair table and the perfective form of a verb."""
    new_words = "word"  # the self-check: the aspect partner is another lexeme

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Semantics"
    resources = ("aspect_pairs.tsv",)
    options = ("aspect_pairs",)
    # perfectives made from the imperfective with these prefixes are not used by this paradigm
    bad_prefixes: ClassVar[tuple[str, ...]] = ()
    skip_lemmas: ClassVar[frozenset[str]] = frozenset()

    @functools.cached_property
    def aspect_pairs(self) -> AspectPairs:
        """The pair table: ``ctx.options["aspect_pairs"]`` (a TSV path) or the bundled one."""
        opt = self.ctx.options.get("aspect_pairs")
        if opt:
            if not Path(opt).is_file():
                raise InputError(f"perturb.options.aspect_pairs: aspect pair list not found: {opt}")
            return load_aspect_pairs(Path(opt))
        return load_aspect_pairs(Path(self.ctx.resources_dir) / ASPECT_PAIRS_FILE)

    # -- helpers ------------------------------------------------------------------
    def is_verb(self, tok: Token) -> bool:
        """A verb by the tagger, or a word pymorphy3 reads only as a verb (the tagger
        takes some past forms for adjectives: «варила»)."""
        return tok.upos in ("VERB", "AUX") or verb_only_guessing(self.morph, tok.form)

    def known_only(self, form: str, pos: str, grammeme: str | None = None) -> bool:
        """pymorphy3 knows ``form`` and reads it only as ``pos`` (with ``grammeme``, if given):
        the tree repairs' test of a word whatever the parser tagged it."""
        return reads_only_as(self.morph, form, pos, grammeme)

    @staticmethod
    def has_child(sent: Sentence, tok: Token, words: frozenset[str]) -> bool:
        return any(normalize(k.form) in words for k in sent.children(tok))

    def perfective(self, sent: Sentence, tok: Token, *, finite_past: bool) -> tuple[str, str, str] | None:
        """``(new form, imperfective lemma, perfective lemma)`` for an imperfective past verb
        (``finite_past``) or infinitive, or None when it has no usable partner."""
        if not self.is_verb(tok) or tok.start < 0:
            return None
        want_pos = "VERB" if finite_past else "INFN"
        a = self.morph.analyse(tok.form, "VERB", tok.feats)
        if a is None or a.tag.POS != want_pos or "impf" not in a.tag:
            return None
        if finite_past and ("past" not in a.tag or "indc" not in a.tag):
            return None
        lemma = normalize(a.lemma)
        # the form must not also be read as a perfective (two-aspect verbs, homographs) —
        # except the rare delimitative homonym of a root-family imperfective, which the
        # pair table pairs (проходил 'passed' / 'walked about for a while' → прошёл)
        family = self.aspect_pairs.pattern(lemma).startswith("family:")
        if any(
            p.tag.POS == want_pos and "perf" in p.tag and not (family and normalize(p.normal_form) == lemma)
            for p in self.morph.parses(tok.form)
        ):
            return None
        if lemma in self.skip_lemmas:
            return None
        partner = self.aspect_pairs.perfective(lemma)
        if partner is None or any(partner == p + lemma for p in self.bad_prefixes):
            return None
        if self.inceptive(lemma, partner):
            return None
        inf = next(
            (p for p in self.morph.parses(partner) if p.tag.POS == "INFN" and "perf" in p.tag and normalize(p.normal_form) == partner),
            None,
        )
        if inf is None:
            return None
        if finite_past:
            grams = [g for g in _PAST_GRAMMEMES if g in a.tag]
            if len(grams) != 1:
                return None
            want = {"past", grams[0]} | ({"sing"} if grams[0] != "plur" else set())
            form = self.morph.inflect(inf, want)
        else:
            form = inf.word
        if not form:
            return None
        if "ё" not in sent.text.lower():
            form = form.replace("ё", "е")
        if normalize(form) == normalize(tok.form):
            return None
        return form, lemma, partner

    def inceptive(self, imperfective: str, perfective: str) -> bool:
        """Is ``perfective`` the inceptive of ``imperfective`` rather than its aspect partner: made
        with вз-/вс-/за- from a verb of sound or from a non-reflexive verb pymorphy3 reads only
        as intransitive (выть → *взвыть, реветь → *взреветь, орать → *заорать: 'begin to …')?
        Transitive and reflexive verbs keep their prefixed partner (бодрить → взбодрить,
        тревожиться → встревожиться, платить → заплатить)."""
        prefix = next((p for p in sorted(_INCEPTIVE_PREFIXES, key=len, reverse=True)
                       if perfective == p + imperfective), None)
        if prefix is None:
            return False
        if imperfective in _SOUND_VERBS:
            return True
        if imperfective.endswith(("ся", "сь")):
            return False
        infs = [p for p in self.morph.parses(imperfective) if p.tag.POS == "INFN" and normalize(p.normal_form) == imperfective]
        return bool(infs) and all("intr" in p.tag for p in infs)

    def make(self, sent: Sentence, verb: Token, cue: str, *, finite_past: bool, skip=()) -> Perturbation | None:
        """The pair for ``verb``, unless it has no partner or its imperfective lemma is in ``skip``."""
        got = self.perfective(sent, verb, finite_past=finite_past)
        if got is None or got[1] in skip:
            return None
        form, _, _ = got
        return Perturbation(
            edits=(Edit(verb.id, form),),
            feature="Aspect",
            source_value="Imp",
            target_value="Perf",
            subtype=cue,
        )

    def stray_cue_verb(self, sent: Sentence, cue: Token) -> Token | None:
        """Tree repair: the verb of a cue adverb the parser hung on a non-verb (a noun taken
        for the root, a predicative adjective, a pronoun: «Мир оставался пустым очень долго»,
        долго → advmod of пустым; «напоминала о себе ежедневно», ежедневно → advmod of себе)
        — the nearest finite verb in the same stretch, with no punctuation, conjunction or
        other verb between them."""
        best = None
        for step in (-1, 1):
            i = cue.id + step
            while 1 <= i <= len(sent.tokens):
                tok = sent.token(i)
                if tok.upos in ("PUNCT", "CCONJ", "SCONJ"):
                    break
                if self.is_verb(tok):
                    if tok.feats.get("VerbForm") in (None, "Fin") and (best is None or abs(i - cue.id) < abs(best.id - cue.id)):
                        best = tok
                    break
                i += step
        return best

    def past_verb_ok(self, sent: Sentence, verb: Token, *, negated_ok: bool = False) -> bool:
        """A past indicative verb without negation (unless ``negated_ok``), «бы»/«чтобы» or its
        own question particle.

        Tree repair: a form pymorphy3 reads only as a finite verb counts as one whatever the
        parser's VerbForm («долго и тщательно взвешивал»: VerbForm=Part)."""
        if verb.feats.get("Mood") in ("Imp", "Cnd"):
            return False
        if verb.feats.get("VerbForm") not in (None, "Fin") and not self.known_only(verb.form, "VERB"):
            return False
        return not self.has_child(sent, verb, _CONDITIONAL | _QUESTION | (frozenset() if negated_ok else _NEGATIONS))


@register
class ChangeDurationAspect(AspectParadigm):
    """Imperfective past verb with «долго/длительно/продолжительно» → its perfective partner."""

    name = "change_duration_aspect"
    bad_prefixes = _DURATION_BAD_PREFIXES
    skip_lemmas = _DURATION_SKIP_LEMMAS

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for cue in sent.tokens:
            if normalize(cue.form) not in DURATION_ADVERBS or cue.base_deprel not in ("advmod", "obl") or not cue.head:
                continue
            if self.has_child(sent, cue, _NEGATIONS):
                continue
            verb = sent.token(cue.head)
            if not self.is_verb(verb):
                verb = self.stray_cue_verb(sent, cue)
                if verb is None:
                    continue
            elif cue.base_deprel != "advmod":
                continue
            # «долго не + perfective» (prolonged non-occurrence: «долго не ответил») is acceptable;
            # «подолгу» means «for long stretches, again and again» and takes no single
            # perfective event, negated or not («*нигде подолгу не задержался»)
            if not self.past_verb_ok(sent, verb, negated_ok=normalize(cue.form) == "подолгу"):
                continue
            if self.denied_later(sent, verb):
                continue
            pert = self.make(sent, verb, normalize(cue.form), finite_past=True)
            if pert is not None:
                yield pert

    @staticmethod
    def denied_later(sent: Sentence, verb: Token) -> bool:
        """Does a later clause coordinated with ``verb`` deny its result («долго искал, но ничего
        не нашёл»)? The perfective would then assert the success that clause denies."""
        linked = [k for k in sent.children(verb) if k.base_deprel == "conj"]
        head = sent.head_of(verb)
        if verb.base_deprel == "conj" and head is not None:
            linked += [k for k in sent.children(head) if k.base_deprel == "conj"]
        return any(
            c.id > verb.id and any(normalize(k.form) in _NEGATIONS | _NEGATIVE_PRONOUNS for k in sent.children(c))
            for c in linked
        )


@register
class ChangeRepetitionAspect(AspectParadigm):
    """Imperfective past verb with «каждый + time noun» or an еже- adverb → its perfective partner."""

    name = "change_repetition_aspect"

    def cue(self, sent: Sentence, dep: Token) -> str | None:
        """The repetition cue ``dep`` makes as a dependent of its verb, or None."""
        if normalize(dep.form) in REPETITION_ADVERBS and dep.base_deprel == "advmod":
            return normalize(dep.form)
        if dep.base_deprel not in ("obl", "obj", "nmod", "advmod", "nsubj") or normalize(dep.lemma) not in REPETITION_NOUNS:
            return None
        if dep.base_deprel == "nsubj" and dep.feats.get("Case") != "Acc":
            return None
        kids = sent.children(dep)
        cases = [k for k in kids if k.base_deprel == "case"]
        if cases:
            # «с каждым днём/годом» (gradual change, imperfective only: «*с каждым днём
            # увеличился»); any other preposition is no repetition («за каждый год»)
            if (
                len(cases) == 1 and normalize(cases[0].form) in ("с", "со") and dep.feats.get("Case") == "Ins"
                and any(normalize(d.lemma) == "каждый" and d.base_deprel in ("det", "amod") for d in kids)
            ):
                return f"с каждым {normalize(dep.lemma)}"
            return None
        # «каждый день», or «каждые два года» where the parser may hang «каждые» on the numeral
        holders = [dep] + [k for k in kids if k.base_deprel == "nummod"]
        if any(normalize(d.lemma) == "каждый" and d.base_deprel in ("det", "amod") for h in holders for d in sent.children(h)):
            return f"каждый {normalize(dep.lemma)}"
        return None

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        # a cheap test before the tree walk (outputs unchanged): a «каждый» or an еже- adverb
        if not any(normalize(t.lemma) == "каждый" or normalize(t.form) in REPETITION_ADVERBS for t in sent.tokens):
            return
        # еже- adverbs the parser hung on a non-verb belong to the nearest verb of their stretch
        stray: dict[int, str] = {}
        for adv in sent.tokens:
            head = sent.head_of(adv)
            if normalize(adv.form) in REPETITION_ADVERBS and head is not None and not self.is_verb(head):
                verb = self.stray_cue_verb(sent, adv)
                if verb is not None:
                    stray.setdefault(verb.id, normalize(adv.form))
        for verb in sent.tokens:
            # tree repair: a form pymorphy3 knows only as a past verb is past whatever tense the
            # parser gave it (slovnet tags rare past forms present: «ежегодно перевыполняла»,
            # «каждый раз убывал»: Tense=Pres)
            if not self.is_verb(verb) or (verb.feats.get("Tense") not in (None, "Past") and not self.known_only(verb.form, "VERB", "past")):
                continue
            cues = [c for c in (self.cue(sent, k) for k in sent.children(verb)) if c]
            if verb.id in stray:
                cues.append(stray[verb.id])
            if not cues or not self.past_verb_ok(sent, verb):
                continue
            if not self.has_complement(sent, verb) and self.transitive_partner(sent, verb):
                continue  # «каждый день читал» is complete; «*каждый день прочитал» lacks its object too
            pert = self.make(sent, verb, cues[0], finite_past=True)
            if pert is not None:
                yield pert


    def has_complement(self, sent: Sentence, verb: Token) -> bool:
        """Does ``verb`` have its object or a complement besides its repetition cue? Asked of
        verbs whose perfective partner is transitive: the perfective names a complete event only
        with its object («*каждый вечер прочитал»). Counted: an ``obj``, a ``ccomp``/``xcomp``/
        ``csubj``, a nominal the parser made the subject that can be the accusative object, and
        an ``obl``/``iobj`` — for a partner made by a bare perfectivising prefix (читать →
        прочитать: the prefix adds only the end point, which is the object's) only a bare
        accusative one or one with a bare accusative under it («прочитал внукам сказки» with
        «сказки» under «внукам»; «*каждый вечер прочитал в постели»: an adverbial is no object);
        for other pairs any («проходил мимо школы» → «прошёл мимо школы»: the path is the
        argument of a prefixed motion verb)."""
        prefixed_pair = self.aspect_pairs.pattern(self._lemma(verb)).startswith("prefix:")
        for k in sent.children(verb):
            if self.cue(sent, k):
                continue
            if k.base_deprel in _COMPLEMENT_RELATIONS and k.upos not in _NO_ARGUMENT_UPOS and not any(
                c.base_deprel == "conj" and verb.id < c.id < k.id for c in sent.children(verb)
            ):
                # (an adverb the parser made the object is none: «читала вслух»; nor a clause past
                # the verb's own conjunct: «читала малышам, и собиралось столько детей, что …»)
                return True
            if k.base_deprel in ("obl", "iobj") and (
                not prefixed_pair or any(self._bare_accusative(sent, n) for n in [k] + sent.children(k))
            ):
                return True
            # tree repair: a bare nominal the parser made the subject that can be the accusative
            # object («телефон я каждый день повторял», «каждый раз проходили машины»)
            if (
                k.base_deprel in ("nsubj", "nsubj:pass") and k.upos in ("NOUN", "PROPN", "PRON")
                and not any(c.base_deprel == "case" for c in sent.children(k))
                and any("accs" in p.tag for p in self.morph.parses(k.form.lower()))
            ):
                return True
        return False

    def _lemma(self, verb: Token) -> str:
        a = self.morph.analyse(verb.form, "VERB", verb.feats)
        return normalize(a.lemma) if a is not None else normalize(verb.lemma)

    def _bare_accusative(self, sent: Sentence, tok: Token) -> bool:
        """A noun or pronoun without a preposition that the parser or pymorphy3 reads as accusative."""
        if tok.upos not in ("NOUN", "PROPN", "PRON") or any(c.base_deprel == "case" for c in sent.children(tok)):
            return False
        return tok.feats.get("Case") == "Acc" or any("accs" in p.tag for p in self.morph.parses(tok.form.lower()))

    def transitive_partner(self, sent: Sentence, verb: Token) -> bool:
        """Is the verb's perfective partner transitive in every pymorphy3 reading of its infinitive?"""
        got = self.perfective(sent, verb, finite_past=True)
        if got is None:
            return False
        infs = [p for p in self.morph.parses(got[2]) if p.tag.POS == "INFN" and normalize(p.normal_form) == got[2]]
        return bool(infs) and all("tran" in p.tag for p in infs)


# a verb with one of these dependents (other than its cue) has its object in the sentence
_COMPLEMENT_RELATIONS = frozenset({"obj", "ccomp", "xcomp", "csubj"})
# words that are never an argument, whatever relation the parser gave them
_NO_ARGUMENT_UPOS = frozenset({"ADV", "PART", "ADP", "CCONJ", "SCONJ", "PUNCT", "INTJ"})


@register
class DeonticImperativeAspect(AspectParadigm):
    """Imperfective infinitive under «не стоит/не следует/не надо/не нужно» → its perfective partner."""

    name = "deontic_imperative_aspect"

    @staticmethod
    def _infinitives(sent: Sentence, pred: Token, kids: list[Token]) -> list[Token]:
        """The predicate's infinitives: its clausal dependents, or — tree repair — the
        infinitive the parser made its head, with no punctuation between them («Начинать
        переговоры явно не стоило»: стоило → advmod of начинать)."""
        out = [k for k in kids if k.base_deprel in ("csubj", "xcomp", "ccomp", "nsubj", "obj") and k.feats.get("VerbForm") == "Inf"]
        if out:
            return out
        head = sent.head_of(pred)
        if head is not None and head.feats.get("VerbForm") == "Inf" and head.upos == "VERB":
            lo, hi = sorted((head.id, pred.id))
            if not any(t.upos == "PUNCT" for t in sent.tokens[lo : hi - 1]):
                return [head]
        return []

    def _nearby_infinitive(self, sent: Sentence, pred: Token) -> Token | None:
        """Tree repair: the infinitive of the predicate's clause when the parser linked it
        elsewhere («появляться нам там не стоит»: a conjunct of another verb; «о поле забывать
        не следует»: advmod; «порывать … не стоило»: tagged finite) — the first word after
        the predicate, else before it, that can only be an infinitive, with no finite verb,
        subordinator or punctuation between them other than the commas around a one-word
        parenthetical («показывать, разумеется, не следует»)."""
        for step in (1, -1):
            i = pred.id + step
            while 1 <= i <= len(sent.tokens):
                tok = sent.token(i)
                if tok.upos == "PUNCT":
                    # «, X ,»: a one-word parenthetical is crossed whole
                    j = i + 2 * step
                    if normalize(tok.form) == "," and 1 <= j <= len(sent.tokens) and normalize(sent.token(j).form) == ",":
                        mid = sent.token(i + step)
                        if mid.upos in ("ADV", "PART", "VERB") and not self.known_only(mid.form, "INFN"):
                            i = j + step
                            continue
                    break
                if self.known_only(tok.form, "INFN") or (tok.upos == "VERB" and tok.feats.get("VerbForm") == "Inf"):
                    return tok
                if tok.upos in ("SCONJ", "AUX") or (tok.upos == "VERB" and tok.feats.get("VerbForm") in (None, "Fin")):
                    break
                i += step
        return None

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for pred in sent.tokens:
            form = normalize(pred.form)
            if form not in DEONTIC_PREDICATES:
                continue
            kids = sent.children(pred)
            # «не» right before the predicate («не стоит»), not a negation elsewhere
            if not any(normalize(k.form) in _NEGATIONS and k.id == pred.id - 1 for k in kids):
                continue
            if self.has_child(sent, pred, _QUESTION | _CONDITIONAL):
                continue
            infs = self._infinitives(sent, pred, kids)
            if not infs:
                near = self._nearby_infinitive(sent, pred)
                infs = [near] if near is not None else []
            for inf in infs:
                if self.has_child(sent, inf, _NEGATIONS):
                    continue
                cue = "не " + ("стоит" if form.startswith("сто") else "следует" if form.startswith("след") else form)
                pert = self.make(sent, inf, cue, finite_past=False)
                if pert is not None:
                    yield pert
