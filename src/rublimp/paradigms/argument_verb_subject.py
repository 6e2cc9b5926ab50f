"""ARGUMENT STRUCTURE, the verb and its subject or agent: three RuBLiMP paradigms (Appendix B.3.1).

* ``transitive_verb``: a transitive verb with a direct object in the accusative is replaced by an
  intransitive verb of the same aspect, tense, mood, number, person and gender, so the object is
  left without a governor («все оценят сарказм» → «*все уснут сарказм»);
* ``transitive_verb_subject``: the animate subject of an agentive transitive verb is swapped with its
  inanimate direct object («Она оставила сумку» → «*Сумка оставила её») or replaced by a random
  inanimate noun («*Химия оставила сумку»);
* ``transitive_verb_passive``: the animate instrumental agent of a passive is replaced by a random
  inanimate noun («был написан писателем» → «*был написан фрагментом») or swapped with the inanimate
  passive subject.

The shared safeguards, word lists and replacement pools are in
:mod:`~rublimp.paradigms.argument_structure`.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from ..conllu_doc import Sentence, Token
from ..trees.nominal import norm
from ..trees.roles import (
    VERB_GOVERNMENT_FILE,
    agent_relation,
    finite_active,
    load_verb_government,
    maybe_shared_object,
    pronoun_agent,
    quantified_genitive,
    sole_subject,
    with_token,
)
from .argument_structure import (
    ADVERBIAL_CATEGORIES,
    ADVERBIAL_POS,
    BODY_CATEGORIES,
    GENDERS,
    HANDLED_CATEGORIES,
    INTRANSITIVE_FILE,
    MAX_TRIES,
    NON_OBJECT_EXCEPT_FORMS,
    NON_OBJECT_LEMMAS,
    Argument,
    ArgumentStructureParadigm,
    analysis_of,
    load_intransitive_verbs,
    transitive_infinitive,
)
from .base import ParadigmContext, Perturbation, register

__all__ = ["TransitiveVerb", "TransitiveVerbSubject", "TransitiveVerbPassive"]

#: phase verbs: their subject is the subject of the infinitive they take
PHASE_VERBS = frozenset(
    {"начать", "начинать", "стать", "продолжить", "продолжать", "закончить", "заканчивать", "кончить", "кончать",
     "перестать", "переставать", "прекратить", "прекращать", "бросить", "бросать"}
)

#: light verbs: with a light-verb object (the ``light_object`` list: роль, влияние, толчок, значение, …) the
#: collocation takes an abstract subject as readily as a person («гимнастика сыграла главную роль»)
LIGHT_VERBS = frozenset(
    {"играть", "сыграть", "оказать", "оказывать", "дать", "давать", "придать", "придавать", "отдать", "отдавать",
     "открыть", "открывать", "предоставить", "предоставлять", "иметь"}
)


# -- the paradigms -----------------------------------------------------------------------
@register
class TransitiveVerb(ArgumentStructureParadigm):
    """A transitive verb with an accusative object → an intransitive verb of the same form."""

    name = "transitive_verb"
    resources = ArgumentStructureParadigm.resources + ("intransitive_verbs.tsv",)

    def __init__(self, ctx: ParadigmContext | None = None) -> None:
        super().__init__(ctx)
        verbs = load_intransitive_verbs(Path(self.ctx.resources_dir) / INTRANSITIVE_FILE)
        self._by_aspect = {asp: tuple(v.lemma for v in verbs if v.aspect == asp) for asp in ("Perf", "Imp")}

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        with_object = {t.head for t in sent.tokens if t.deprel == "obj"}  # (cheap exit)
        for verb in sent.tokens:
            if verb.id not in with_object or not finite_active(verb) or verb.start < 0:
                continue
            # a conjoined verb may share the object («читал и писал книгу», the object under
            # the first conjunct): only when every verb conjoined to this one has an object of
            # its own («прочитал книгу и написал письмо»). A later conjunct is used like any
            # verb (RuBLiMP edits both; skipping all coordination lost 33 of its 200 dev pairs).
            # An object standing between this verb and the conjunct («ограбили его и проучили»)
            # is this verb's alone.
            sharing = [
                k for k in sent.children(verb)
                if k.deprel == "conj" and k.upos == "VERB" and not any(o.deprel == "obj" for o in sent.children(k))
                and self._may_take_object(k)
            ]
            if sharing and not all(
                any(o.deprel == "obj" and verb.id < o.id < k.id for o in sent.children(verb)) for k in sharing
            ):
                continue
            # accusative objects, and genitive ones (negation, partitive: «не видел лица»,
            # «потребовал расчёта»), which RuBLiMP's pairs include (accusative only: 0.49)
            objects = [
                o for o in sent.children(verb)
                if o.deprel == "obj" and o.feats.get("Case") in ("Acc", "Gen") and self._is_object(sent, verb, o)
            ]
            if not objects:
                continue
            a = analysis_of(self.morph, verb.form, "VERB", verb.feats)
            if a is None or a.tag.POS != "VERB" or "tran" not in a.tag.grammemes or a.lemma.endswith(("ся", "сь")):
                continue
            pert = self._replace(sent, verb, a.parse)
            if pert is not None:
                yield pert

    def _may_take_object(self, verb: Token) -> bool:
        """A conjoined verb that could share the object: not reflexive, not intransitive by
        the dictionary («налил себе вина и задумался»: задумался shares nothing)."""
        a = analysis_of(self.morph, verb.form, "VERB", verb.feats)
        if a is None:
            return True
        return not (a.lemma.endswith(("ся", "сь")) or "intr" in a.tag.grammemes)

    def _is_object(self, sent: Sentence, verb: Token, obj: Token) -> bool:
        """An accusative noun phrase that stays an orphaned object once the verb is intransitive.

        A substantivised adjective counts («не слабых имеем», «не говорит иного»): an ``ADJ`` object
        with no preposition, no noun, adjective, determiner or numeral right after it (which it would
        modify), no preposition right before it, and no pronoun in its case right before it («ничего
        страшного», «что-то новое»: the pronoun heads the phrase, and «ничего» is no object)."""
        if obj.upos == "ADJ" and obj.start >= 0:
            after = sent.token(obj.id + 1) if obj.id < len(sent.tokens) else None
            before = sent.token(obj.id - 1) if obj.id > 1 else None
            if (after is not None and after.upos in ("NOUN", "PROPN", "ADJ", "DET", "NUM")) or sent.children(obj, "case"):
                return False
            if before is not None and (before.upos == "ADP" or (
                before.upos in ("PRON", "DET") and before.feats.get("Case") in (None, obj.feats.get("Case"))
            )):
                return False
        elif obj.upos not in ("NOUN", "PROPN", "PRON") or obj.start < 0:
            return False
        if any(c.base_deprel == "case" for k in (obj, *sent.children(obj, "nummod")) for c in sent.children(k)):
            # a quantity under a preposition («насчитывал около трёх тысяч томов»): after an
            # intransitive verb it reads as a prepositional phrase («плыл около трёх тысяч томов»)
            return False
        if (norm(obj.lemma) in NON_OBJECT_LEMMAS or norm(obj.form) in NON_OBJECT_LEMMAS) and norm(obj.form) not in NON_OBJECT_EXCEPT_FORMS:
            if not (norm(obj.form) in ("всё", "все") and _relative_follows(sent, obj)):
                return False  # («всё, что можно» heads a relative clause: a pronoun, never the adverb «всё»)
        a = analysis_of(self.morph, obj.form, obj.upos, obj.feats)
        wanted = ("gent", "gen1", "gen2") if obj.feats.get("Case") == "Gen" else ("accs", "acc2")
        if a is None or not any(g in a.tag.grammemes for g in wanted):
            return False
        if self.excluded_category(a.lemma) in ADVERBIAL_CATEGORIES:
            return False
        readings = self.morph.parses(obj.form)
        if obj.upos != "PRON" and any(p.tag.POS in ADVERBIAL_POS for p in readings):
            # «дома» is also an adverb: «жители скучают дома»; a rare verb or short-adjective
            # reading («еду», «замок», «вещи») leaves the noun an orphaned object
            return False
        # an object that looks nominative becomes the subject of an intransitive verb
        # unless the verb has a subject of its own («на площади стояли карусели»)
        if any("nomn" in p.tag.grammemes and norm(p.normal_form) == norm(a.lemma) for p in readings):
            if not any(k.deprel == "nsubj" for k in sent.children(verb)):
                return False
        return not maybe_shared_object(sent, verb, obj)

    def _replace(self, sent: Sentence, verb: Token, parse) -> Perturbation | None:
        tag = parse.tag
        aspect = "Perf" if "perf" in tag.grammemes else "Imp"
        if "impr" in tag.grammemes:
            if "incl" in tag.grammemes:
                return None
            want = {"impr", tag.number, "excl"}
            subtype = "imperative"
        else:
            want = {"indc", tag.tense}
            want |= {tag.number} if tag.number else set()
            if tag.tense == "past":
                if tag.number == "sing":
                    if tag.gender is None:
                        return None
                    want.add(tag.gender)
            elif tag.person:
                want.add(tag.person)
            subtype = {"past": "past", "pres": "present", "futr": "future"}.get(tag.tense, "")
        if None in want:
            return None
        pool = self._by_aspect.get(aspect, ())
        rng = self.rng(sent, verb.id)
        for _ in range(min(MAX_TRIES, len(pool))):
            lemma = pool[rng.randrange(len(pool))]
            form = _intransitive_form(self.morph, lemma, frozenset(want))
            if form is None or norm(form) == norm(verb.form):
                continue
            return Perturbation(
                edits=(self.edit(sent, verb, form),),
                feature="Transitivity",
                source_value="Tran",
                target_value="Intr",
                subtype=subtype,
            )
        return None


def _relative_follows(sent: Sentence, tok: Token) -> bool:
    """Is ``tok`` followed by «что» opening a relative clause, right after it or after a comma («всё,
    что тебе можно»)?"""
    after = [norm(t.form) for t in sent.tokens[tok.id : tok.id + 2]]
    return after[:1] == ["что"] or after[:2] == [",", "что"]


#: relations that keep a dependent inside a noun phrase (not a clause hung on it: «мужчинами,
#: обладающими Силой»; nor a conjunct, a co-agent of its own: «создан Эмили и Джимом Гриром» keeps its
#: pair as a coordinated subject does)
_PHRASE_DEPRELS = frozenset({"nmod", "appos", "flat", "amod", "det", "nummod", "compound", "fixed", "case"})


def _noun_phrase(sent: Sentence, head: Token) -> list[Token]:
    """``head`` and the words reached from it through noun-phrase relations only (no relative clause,
    participle phrase or conjunct)."""
    out, todo = {head.id: head}, [head]
    while todo:
        for kid in sent.children(todo.pop()):
            if kid.id in out or kid.base_deprel not in _PHRASE_DEPRELS:
                continue
            out[kid.id] = kid
            todo.append(kid)
    return [out[i] for i in sorted(out)]


@functools.lru_cache(maxsize=50_000)
def _intransitive_form(morph, lemma: str, want: frozenset[str]) -> str | None:
    """``lemma`` inflected to ``want``, only if no reading of the form is a transitive verb."""
    inf = [p for p in morph.parses(lemma) if p.tag.POS == "INFN" and norm(p.normal_form) == lemma]
    if not inf:
        return None
    res = inf[0].inflect(set(want) | {"VERB"})
    if res is None or not want <= set(res.tag.grammemes):
        return None
    form = res.word
    if any("tran" in p.tag.grammemes for p in morph.parses(form) if p.tag.POS in ("VERB", "INFN", "PRTF", "PRTS")):
        return None
    return form


@register
class TransitiveVerbSubject(ArgumentStructureParadigm):
    """The animate subject of an agentive verb ↔ its inanimate object, or → a random inanimate noun."""

    name = "transitive_verb_subject"

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for verb in sent.tokens:
            stray = self._stray_subject(sent, verb)
            if stray is not None:
                sent = with_token(sent, stray)
        with_subject = {t.head for t in sent.tokens if t.deprel == "nsubj"}  # (cheap exit)
        for verb in sent.tokens:
            if verb.id not in with_subject or not finite_active(verb) or not self._agentive(verb):
                continue
            # (the object is needed for the swap only: the verb is transitive by the
            # dictionary, and the parser often hangs its object elsewhere — 21 of RuBLiMP's
            # 200 dev sentences had no obj under the verb)
            objects = [o for o in sent.children(verb) if o.deprel in ("obj", "ccomp")]
            if not objects and self.verb_lemma(verb) in PHASE_VERBS and any(
                x.feats.get("VerbForm") == "Inf" and not transitive_infinitive(self.morph, self.verb_lemma(x))
                for x in sent.children(verb, "xcomp")
            ):
                # «начал заниматься», «продолжал смеяться»: a phase verb whose subject is that of an
                # intransitive infinitive, which may be a thing («процесс начал замедляться»)
                continue
            subj = sole_subject(sent, verb)
            if subj is None:
                continue
            lemma = self.verb_lemma(verb)
            if lemma in LIGHT_VERBS and any(o.deprel == "obj" and norm(o.lemma) in self.lists.light_object for o in objects):
                continue  # «сыграла главную роль», «оказал влияние»: a light verb takes an abstract subject too
            if lemma in self.lists.text_subject:
                continue  # «статья описывает», «листок сообщал»: a text or image does it as well
            if lemma in self.lists.abstract_subject and not any(
                o.deprel == "obj" and o.upos in ("NOUN", "PROPN") and o.feats.get("Animacy") == "Inan" for o in objects
            ):
                # «мысль посетила его», «нас застал дождь»: with a person (or no object) a thought, trouble
                # or weather does it too; with a place or thing as object («посетили музей», «покинул
                # бак») only a person does
                continue
            if lemma in self.lists.causer and lemma not in self.lists.agent:
                # a causer verb: only with the object a person's own body part («закрыл лицо»,
                # «отнял руки»), or for the handling verbs a place or institution («открыла
                # аптеку»); «поднял экономику», «открыл возможность»: an abstract causer would do
                wanted = HANDLED_CATEGORIES if lemma in self.lists.subject_agent_causer else BODY_CATEGORIES
                if not any(self.excluded_category(o.lemma) in wanted for o in objects):
                    continue
            arg = self._subject_argument(sent, subj, verb)
            if arg is None:
                continue
            swap = self._swap(sent, verb, arg, [o for o in objects if o.deprel == "obj"])
            if swap is not None:
                yield swap
            pert = self.replace_perturbation(sent, arg, "Gen" if quantified_genitive(sent, subj) else "Nom", "random")
            if pert is not None:
                yield pert

    @staticmethod
    def _stray_subject(sent: Sentence, verb: Token) -> Token | None:
        """Tree repair: the subject the parser labelled ``amod``/``appos`` («Небанум отпер загон»:
        Небанум → amod of загон; «принял сотник дар»): of a finite active verb with no ``nsubj``, the
        one nominative noun or name right beside it (a space apart) with that label, agreeing with the
        verb in number and, in the past singular, gender — relabelled the verb's ``nsubj``; else None."""
        if not finite_active(verb) or verb.start < 0 or any(k.base_deprel == "nsubj" for k in sent.children(verb)):
            return None
        found = []
        for i in (verb.id - 1, verb.id + 1):
            if not 1 <= i <= len(sent.tokens):
                continue
            t = sent.token(i)
            if t.upos not in ("NOUN", "PROPN") or t.base_deprel not in ("amod", "appos") or t.feats.get("Case") != "Nom":
                continue
            first, second = (t, verb) if t.id < verb.id else (verb, t)
            if t.start < 0 or sent.text[first.end:second.start] != " " or t.feats.get("Number") != verb.feats.get("Number"):
                continue
            if verb.feats.get("Tense") == "Past" and verb.feats.get("Number") == "Sing" and t.feats.get("Gender") != verb.feats.get("Gender"):
                continue
            found.append(t)
        return replace(found[0], head=verb.id, deprel="nsubj") if len(found) == 1 else None

    def _agentive(self, verb: Token) -> bool:
        """A verb of the ``agent`` list, or any non-reflexive transitive verb (the caller
        checks the object of one of the ``causer`` list)."""
        lemma = self.verb_lemma(verb)
        if lemma in self.lists.agent:
            return True
        if lemma.endswith(("ся", "сь")):
            return False
        a = analysis_of(self.morph, verb.form, "VERB", verb.feats)
        return a is not None and "tran" in a.tag.grammemes

    def _subject_argument(self, sent: Sentence, subj: Token, verb: Token) -> Argument | None:
        if quantified_genitive(sent, subj):
            # «книгу прочитали пять студентов»: the verb agrees with the numeral, the noun is
            # replaced in the genitive (same number and, in the singular, gender: «две девушки»)
            arg = self.animate_argument(sent, subj, case="Gen")
            return None if arg is None or arg.pronoun else arg
        if subj.feats.get("Case", "Nom") != "Nom":
            return None
        # a name written right after the subject goes with it («Мастер Вэйтэк отбросил молоток» → «*Фрагмент …»)
        arg = self.animate_argument(sent, subj, case="Nom", with_name=True)
        if arg is None:
            return None
        # a 3rd-person pronoun may stand for a thing («табло … они потребляют энергию»): only
        # a verb that needs a sentient subject makes it animate
        if arg.pronoun and arg.lemma in ("он", "она", "они") and self.verb_lemma(verb) not in self.lists.agent:
            return None
        vnum, vgen = verb.feats.get("Number"), verb.feats.get("Gender")
        # the first of coordinated subjects («Нил и Ортран оборвали пение»): the plural verb
        # agrees with the coordination, which a singular noun in its place keeps
        coordinated = vnum == "Plur" and not arg.pronoun and any(
            k.base_deprel == "conj" and k.feats.get("Case", "Nom") == "Nom" for k in sent.children(subj)
        )
        if coordinated:
            return arg
        if vnum and vnum != arg.number:
            return None
        if arg.pronoun and arg.lemma in ("я", "ты", "мы", "вы"):
            # the noun would disagree in person unless the verb marks none (past tense)
            if verb.feats.get("Tense") != "Past":
                return None
            if arg.number == "Sing":
                if vgen not in GENDERS:
                    return None
                return Argument(arg.tok, arg.lemma, arg.number, vgen, True, arg.parse, False)
        if arg.number == "Sing" and vgen and vgen != arg.gender:
            return None
        return arg

    def _swap(self, sent: Sentence, verb: Token, arg: Argument, objs: list[Token]) -> Perturbation | None:
        if len(objs) != 1 or (arg.pronoun and arg.lemma not in ("он", "она", "они")):
            return None
        if not self.unmodified(sent, arg.tok):
            return None
        obj = objs[0]
        if obj.feats.get("Case") != "Acc" or obj.feats.get("Number") != arg.number:
            return None
        if arg.number == "Sing" and obj.feats.get("Gender") != arg.gender:
            return None
        oparse = self.inanimate_noun(sent, obj)
        if oparse is None:
            return None
        new_subj = self.inflect_parse(oparse, "Nom", arg.number)
        new_obj = self.inflect_parse(arg.parse, "Acc", arg.number)
        if not new_subj or not new_obj:
            return None
        if any(p.tag.POS not in ("NOUN", "NPRO") for p in self.morph.parses(new_subj)):
            return None
        return Perturbation(
            edits=(
                self.edit(sent, arg.tok, new_subj, replaces_proper=arg.proper),
                self.edit(sent, obj, new_obj, is_proper=arg.proper),
            ),
            feature="Animacy",
            source_value="Anim",
            target_value="Inan",
            subtype="swap",
        )


@register
class TransitiveVerbPassive(ArgumentStructureParadigm):
    """The animate instrumental agent of a passive → a random inanimate noun, or ↔ the passive subject."""

    name = "transitive_verb_passive"
    resources = ArgumentStructureParadigm.resources + (VERB_GOVERNMENT_FILE,)

    def __init__(self, ctx: ParadigmContext | None = None) -> None:
        super().__init__(ctx)
        government = load_verb_government(Path(self.ctx.resources_dir) / VERB_GOVERNMENT_FILE)
        self._dative_verbs = frozenset(v for v, cases in government.items() if "Dat" in cases)
        # verbs that govern an instrumental object (наградить чем, украсить чем): their passive's
        # instrumental of means takes any noun («украшен гирляндой»)
        self._instrumental_verbs = frozenset(v for v, cases in government.items() if "Ins" in cases)

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for tok in sent.tokens:
            if tok.upos in ("NOUN", "PROPN") and tok.base_deprel == "nsubj" and self._instrumental_only(sent, tok):
                tok = replace(tok, feats={**tok.feats, "Case": "Ins"}, deprel="obl")
                sent = with_token(sent, tok)
            if tok.upos not in ("NOUN", "PROPN", "PRON") or tok.feats.get("Case") not in ("Ins", "Dat"):
                continue  # (cheap exit: most words are no instrumental)
            agent, verb = self._agent(sent, tok)
            if agent is None:
                continue
            lemma = self._passive_lemma(sent, verb)
            if lemma is None:
                continue
            if lemma in self.lists.passive_conquest:
                if not self._place_subject(sent, verb):
                    continue
            elif lemma in self.lists.passive_instrumental or lemma in self.lists.predicative:
                continue
            elif lemma in self.lists.passive_material:
                continue  # «написана маслом», «покрыт лаком»: any inanimate noun reads as the material
            elif (lemma in self.lists.causer and lemma not in self.lists.passive_agent_causer) or lemma in self._instrumental_verbs:
                continue
            if agent.upos == "PRON" and agent.feats.get("Case") == "Dat" and lemma in self._dative_verbs:
                continue  # «им были выданы паспорта»: the dative of a verb that takes one
            # one bare instrumental only (besides time: «весной»): with two, one may be a
            # predicate or an instrument
            # (another animate one is a second agent or a role noun: «создан одним автором, а
            # переписан монахами», «избран президентом депутатами»; with either one
            # inanimate the sentence is still odd)
            if any(
                agent_relation(k) and k.feats.get("Case") == "Ins" and self.excluded_category(k.lemma) != "time"
                and not any(c.base_deprel == "case" for c in sent.children(k))
                and not (k.upos in ("NOUN", "PROPN") and k.feats.get("Animacy") == "Anim")
                for k in sent.children(verb) if k.id != agent.id
            ):
                continue
            # a personal pronoun agent («написана им», «им был обнаружен череп»): «им» may stand
            # for a thing as a causer («поглощено ею» = тьмой), which causer verbs are left out for
            if agent.feats.get("Case") == "Dat":
                agent = pronoun_agent(agent)
            here = sent if agent is tok else with_token(sent, agent)
            # a name written right after the agent goes with it («архитектором Юрием Стравинским» → «камнем»)
            arg = self.animate_argument(here, agent, case="Ins", with_name=True)
            if arg is None or (arg.pronoun and (arg.lemma not in ("он", "она") or arg.gender == "Neut")):
                continue
            if not arg.pronoun and self._name_below(here, agent, frozenset(t.id for t in arg.name)):
                continue
            swap = self._swap(here, verb, arg) if self.unmodified(here, agent) and not arg.pronoun else None
            if swap is not None:
                yield swap
            pert = self.replace_perturbation(here, arg, "Ins", "random")
            if pert is not None:
                yield pert

    def _instrumental_only(self, sent: Sentence, tok: Token) -> bool:
        """Tree repair: a "subject" of a passive verb (Voice=Pass) that is its instrumental agent: tagged
        instrumental («Очаков был взят фельдмаршалом»: фельдмаршалом → nsubj:pass), or tagged nominative
        where every noun reading of the form (pymorphy3's, guesses included) is instrumental and the verb
        has another nominative subject («храмы использовались йогами», «Макартуром был выбран район»).
        Relabelled ``obl``, it no longer counts as a second subject where the passive subject is asked
        for (the capture verbs' place subject, the swap)."""
        head = sent.head_of(tok)
        if head is None or head.upos != "VERB" or head.feats.get("Voice") != "Pass" or sent.children(tok, "case"):
            return False
        if tok.feats.get("Case") == "Ins":
            return True
        if tok.feats.get("Case") != "Nom" or not any(
            k.id != tok.id and k.base_deprel == "nsubj" and k.feats.get("Case") == "Nom" for k in sent.children(head)
        ):
            return False
        nouns = [p for p in self.morph.parses(tok.form.lower()) if p.tag.POS == "NOUN"]
        return bool(nouns) and all("ablt" in p.tag.grammemes for p in nouns)

    def _agent(self, sent: Sentence, tok: Token) -> tuple[Token | None, Token | None]:
        """(``tok``, its passive verb) if ``tok`` may be a passive's bare instrumental agent.

        Tree repairs: the default parser tags the pronoun «им»/«ей» under a passive as a
        dative («Им была написана икона», «съезд был запрещён им»): it is the agent
        where the verb takes no dative (the caller checks, from ``verb_government.tsv``);
        and it hangs an agent after an adjunct noun under that noun
        («основан, по всей видимости, монахом»: acl of видимости; «написаны … на
        холсте живописцем»: nmod of холсте): a bare animate instrumental under a
        noun, whose nearest verb up the tree is a passive, is that passive's agent.
        """
        if any(c.base_deprel == "case" for c in sent.children(tok)):
            return None, None
        head = sent.head_of(tok)
        if tok.feats.get("Case") == "Dat":
            if tok.upos != "PRON" or norm(tok.form) not in ("им", "ей") or tok.base_deprel not in ("iobj", "obl", "obj"):
                return None, None
            if head is None or head.upos != "VERB" or head.feats.get("Voice") != "Pass":
                return None, None
            if any(k.feats.get("Case") == "Ins" and agent_relation(k) for k in sent.children(head)):
                return None, None
            return tok, head
        if agent_relation(tok):
            return (tok, head) if head is not None and head.upos == "VERB" else (None, None)
        if tok.base_deprel not in ("nmod", "acl", "appos", "amod") or tok.upos != "NOUN" or tok.feats.get("Animacy") != "Anim":
            return None, None  # (a common noun: name parts hang under names)
        node = head
        for _ in range(4):
            if node is None or node.upos not in ("NOUN", "PROPN"):
                break
            node = sent.head_of(node)
        if node is None or node.upos != "VERB" or node.feats.get("Voice") != "Pass":
            return None, None
        if any(k.feats.get("Case") == "Ins" and agent_relation(k) and not sent.children(k, "case") for k in sent.children(node)):
            return None, None
        moved = replace(tok, head=node.id, deprel="obl")
        return moved, node

    def _name_below(self, sent: Sentence, agent: Token, replaced: frozenset[int] = frozenset()) -> bool:
        """A capitalised word inside the agent's phrase, not after a preposition, that reads as an animate
        instrumental (by the parser or by a pymorphy3 reading; a name pymorphy3 does not know by its
        ending): «основана писарем Острогожского полка Татарчуковым» — the name is the agent whatever the
        parser attached it to, so replacing the noun leaves a person in the role. The words of ``replaced`` (the
        agent's own name, replaced with it) do not count."""
        for t in _noun_phrase(sent, agent):
            if t.id == agent.id or t.id in replaced or not t.form[:1].isupper() or t.upos not in ("PROPN", "NOUN", "X", "ADJ"):
                continue
            if any(c.base_deprel == "case" for c in sent.children(t)):
                continue
            if t.feats.get("Case") == "Ins" and t.feats.get("Animacy") != "Inan":
                return True
            low = t.form.lower()
            if not self.morph.word_is_known(low):
                if low.endswith(("ым", "им", "ом", "ем", "ой", "ей")) and t.upos == "PROPN":
                    return True
                continue
            if any("ablt" in p.tag.grammemes and "anim" in p.tag.grammemes for p in self.morph.parses(low)):
                return True
        return False

    def _place_subject(self, sent: Sentence, verb: Token) -> bool:
        """The passive subject is a place: a noun of the ``place`` class or a place name
        (one reading Geox: «Азов был взят»), or a name pymorphy3 does not know («Малиновка была
        занята») except with «окружить» («Джон был окружён друзьями» / «цветами»)."""
        subjects = [k for k in sent.children(verb) if k.base_deprel == "nsubj"]
        if len(subjects) != 1:
            return False
        subj = subjects[0]
        if subj.upos == "NOUN":
            return self.excluded_category(subj.lemma) == "place"
        if subj.upos != "PROPN":
            return False
        if not self.morph.word_is_known(subj.form):
            return norm(self.verb_lemma(verb)) not in ("окружить", "окружать")
        return any("Geox" in p.tag.grammemes for p in self.morph.parses(subj.form))

    def _passive_lemma(self, sent: Sentence, verb: Token) -> str | None:
        """The active infinitive of a passive verb or participle, or None.

        Besides Voice=Pass (participles: «был построен»), a reflexive finite verb whose
        base verb is transitive is a passive when it has an instrumental agent
        («управлялся автархами», «используются всадниками»); the caller checks the
        agent. Verbs outside the ``agent`` list are used unless they are causer
        verbs (RuBLiMP uses any passive: coverage was 0.02 with the list alone).
        """
        lemma = self.verb_lemma(verb)
        if lemma.endswith(("ся", "сь")):
            if verb.feats.get("VerbForm") != "Fin" or verb.feats.get("Aspect") == "Perf" or lemma in self.lists.reflexive_not_passive:
                return None
            # the passive subject is the patient: an inanimate noun («Лингейн управлялся
            # автархами»); with an animate one the verb is a middle («он увлекался ею»)
            subjects = [k for k in sent.children(verb) if k.base_deprel == "nsubj"]
            if len(subjects) != 1 or subjects[0].upos not in ("NOUN", "PROPN") or subjects[0].feats.get("Animacy") != "Inan":
                return None
            lemma = lemma[:-2]
        elif verb.feats.get("Voice") != "Pass":
            return None
        if lemma in self.lists.agent:
            return lemma
        return lemma if transitive_infinitive(self.morph, lemma) else None

    def _swap(self, sent: Sentence, verb: Token, arg: Argument) -> Perturbation | None:
        subjects = [k for k in sent.children(verb) if k.deprel in ("nsubj:pass", "nsubj")]
        if len(subjects) != 1:
            return None
        subj = subjects[0]
        if subj.feats.get("Case") != "Nom" or subj.feats.get("Number") != arg.number:
            return None
        if arg.number == "Sing" and subj.feats.get("Gender") != arg.gender:
            return None
        sparse = self.inanimate_noun(sent, subj)
        if sparse is None:
            return None
        new_subj = self.inflect_parse(arg.parse, "Nom", arg.number)
        new_agent = self.inflect_parse(sparse, "Ins", arg.number)
        if not new_subj or not new_agent:
            return None
        if any(p.tag.POS != "NOUN" for p in self.morph.parses(new_agent)):
            return None
        return Perturbation(
            edits=(
                self.edit(sent, subj, new_subj, is_proper=arg.proper),
                self.edit(sent, arg.tok, new_agent, replaces_proper=arg.proper),
            ),
            feature="Animacy",
            source_value="Anim",
            target_value="Inan",
            subtype="swap",
        )
