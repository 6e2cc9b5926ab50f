"""SUBJECT-PREDICATE AGREEMENT: the edit shared by RuBLiMP's eleven agreement paradigms (Appendix B.2.2).

RuBLiMP's definition: each paradigm alters one feature (number, gender or person) of the word that
agrees with the subject (the finite verb, the finite быть of a compound predicate, or a short
adjective/participle) and never the subject. The paradigms are rules in
:mod:`rublimp.paradigms.subject_agreement` (nominal, genitive and clausal subjects) and
:mod:`rublimp.paradigms.attractors` (subjects with an attractor). This module registers no
paradigm: it holds what they share, :class:`SubjectPredicateAgreement` (analysing, re-inflecting
and filtering the agreeing words), and the common-gender noun list. The edges it reads come from
the tree layer (:mod:`rublimp.trees.subjects`, after the repairs of :mod:`rublimp.trees.verbs`,
:mod:`rublimp.trees.subject_repairs` and :mod:`rublimp.trees.default_subjects`).

**One edit unit.** With a nominal subject and a compound predicate the adjectival part agrees with
быть as well («книга была закрыта»); for number and gender it is changed together with быть («книга
были закрыты»), so that the whole predicate disagrees with the subject instead of быть disagreeing
with its own participle. When that predicate has conjoined predicates under the same быть («он был
высоким, широкоплечим») the sentence is skipped: changing all of them would be a three-word edit,
changing some leaves the group inconsistent. Separate finite verbs («шагнул … и схватился») are
separate targets: the one with the subject edge is edited alone, as RuBLiMP does. RuBLiMP edits
быть alone everywhere («вандализм были осужден»); the two-word unit is kept by design. With
genitive and clausal subjects the impersonal predicative agrees with быть too when it has a
gendered short form («было решено» → «был решён», «нужно было» → «нужен был»; a blind read found
«был решено» half-edited); «можно», «надо» mark nothing and быть is edited alone. Person is marked
on быть only.

**Safeguards from the paper.** Subject and predicate must agree both in the UD annotation and in
the pymorphy3 analysis; the new form must not be readable as the original value of the feature
(``Morph.is_ambiguous``, in the same mood and case) and must keep tense, aspect, voice, mood, case
and part of speech; no masculine ↔ feminine change with proper-noun, unknown, abbreviated,
indeclinable or common-gender subjects (pymorphy3's ``ms-f`` tag and
``resources/common_gender_nouns.tsv``), except indeclinable common nouns that can only be neuter
(«радио», «пальто»: :func:`~rublimp.trees.lexical.indeclinable_neuter`); quantity nouns with a genitive («часть клеток
содержит/содержат») never enter the number paradigms. A nominal subject beside a clausal one
(csubj) is the infinitive's misattached object and is not used; neither is an accusative-tagged
subject of a plural transitive verb without an object (the indefinite-personal «яблоки возили»).
Pairs whose agreement condition is ``absent`` in ``ctx.agreement`` are dropped.

The design history and the dev-split figures are in ``docs/phenomena/subject_predicate_agreement.md``.
"""

from __future__ import annotations

from typing import ClassVar, Iterable, Iterator

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import OC2UD, UD2OC, Analysis, get_morph
from ..trees.default_subjects import (
    before_own_subordinator,
    behind_subordinate_opening,
    chto_beside_a_genitive,
    disagreeing_nominative,
    is_vocative,
    object_of_impersonal_infinitive,
    other_clause,
    split_genitive_modifier,
    stray_nominative,
)
from ..trees.edges import DEFAULT_VALUES, AgreementEdge, is_byt
from ..trees.lexical import (
    KTO_PRONOUNS,
    PROPER_TAGS,
    QUANT_WORDS,
    QUANTITY_NOUNS,
    fixed_gender_common_noun,
    indeclinable_neuter,
    is_common_gender_tag,
    is_known,
    long_form_only,
)
from ..trees.memo import token_memo
from ..trees.nominal import COMMON_GENDER_FILE, load_common_gender_nouns
from ..trees.readings import genitive_reading, has_grammeme, object_like
from ..trees.subject_repairs import object_reading
from ..trees.subject_contexts import address_as_subject, misattached_link_verb, predicative_short_form
from ..trees.subjects import (
    edges_with_default_contexts,
    noun_subject_edges,
    repaired_edges,
    repaired_sentence,
)
from ..trees.verbs import infinitive_only_impersonal, is_infinitive, is_intransitive
from .base import Edit, Paradigm, Perturbation

__all__ = [
    "PHENOMENON",
    "COMMON_GENDER_FILE",
    "GENDERS",
    "PERSONS",
    "SubjectPredicateAgreement",
    "load_common_gender_nouns",
    "comitative_beside",
    "number_ok",
]


PHENOMENON = "subject_predicate_agreement"
GENDERS = ("Masc", "Fem", "Neut")
PERSONS = ("1", "2", "3")


# pronoun subjects whose agreement is set by something else: the nominal
# predicate («это были студенты»), or the referent's sex («кто пришла»)
NO_AGREEMENT_LEMMAS = frozenset({"это", "то"})
REFERENT_GENDER_LEMMAS = KTO_PRONOUNS | {"сам", "себя"}


# grammemes that inflection must leave untouched
_KEEP_ATTRS = ("POS", "tense", "aspect", "voice", "mood", "case", "transitivity")




_INFLECT_CACHE: dict[tuple, object] = {}


#: (morph, word, tag, lemma, grammemes, forbidden values) -> the checked new form or None
_NEW_FORM_CACHE: dict[tuple, str | None] = {}
_INFLECT_CACHE_MAX = 200_000


def _inflect_parse(parse, want: frozenset[str]):
    """``parse.inflect(want)`` (None when pymorphy3 cannot), memoised on (word, tag, lemma, want)."""
    key = (parse.word, str(parse.tag), parse.normal_form, want)
    if key not in _INFLECT_CACHE:
        if len(_INFLECT_CACHE) >= _INFLECT_CACHE_MAX:
            _INFLECT_CACHE.clear()
        try:
            _INFLECT_CACHE[key] = parse.inflect(set(want))
        except (ValueError, KeyError):
            _INFLECT_CACHE[key] = None
    return _INFLECT_CACHE[key]


class SubjectPredicateAgreement(Paradigm):
    """Shared machinery: analysing, re-inflecting and filtering the agreeing word(s).

    Subclasses set ``feature`` and implement :meth:`targets`, which yields
    ``(target value, gender for a singular form or None)`` for an edge that
    fits the paradigm's context.
    """
    breaks_agreement = frozenset({"predicate"})  # the self-check: subject–predicate agreement is the point

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv",)
    options = ("agreement_min_conf",)

    # -- the paradigm-specific part ---------------------------------------------
    def targets(self, sent: Sentence, edge: AgreementEdge) -> Iterable[tuple[str, str | None]]:
        raise NotImplementedError

    #: whether the paradigm also reads the repaired default-agreement contexts (genitive, clausal)
    default_contexts: ClassVar[bool] = False
    #: whether a coordinated nominal subject may be used (its conjuncts decide number and gender,
    #: but not the person of a 3rd-person predicate)
    coordination_ok: ClassVar[bool] = False

    #: whether the paradigm reads the word-order subject repairs too (:func:`_word_order_edges`)
    word_order_subjects: ClassVar[bool] = False

    def _paradigm_edges(self, sent: Sentence) -> list[AgreementEdge]:
        """The edges this paradigm reads (``sent`` is the :func:`repaired_sentence` sentence)."""
        if self.word_order_subjects:
            return noun_subject_edges(sent)
        return edges_with_default_contexts(sent) if self.default_contexts else repaired_edges(sent)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        min_conf = float(self.ctx.options.get("agreement_min_conf", 0.0))
        seen: set[tuple] = set()
        sent = repaired_sentence(sent)
        for edge in self._paradigm_edges(sent):
            # conjoined infinitives («отвлечь и спасти») and genitives («ни её, ни его не было») still take default agreement
            if (
                (edge.coordinated and edge.subject_kind not in ("clausal", "genitive") and not self.coordination_ok)
                or edge.outer or edge.conf < min_conf
            ):
                continue
            if not self._condition_allowed(edge):
                continue
            for target, gender in self.targets(sent, edge):
                pert = self._perturbation(sent, edge, target, gender)
                if pert is None:
                    continue
                key = tuple((e.token_id, e.new_form) for e in pert.edits)
                if key not in seen:
                    seen.add(key)
                    yield pert

    # -- helpers -----------------------------------------------------------------
    def _condition_allowed(self, edge: AgreementEdge) -> bool:
        """False when the validation table marks this agreement condition ``absent``."""
        if self.ctx.agreement is None:
            return True
        key = edge.key(self.feature)
        return key is None or self.ctx.agreement.get(key) != "absent"

    def _analyse(self, tok: Token) -> Analysis | None:
        """pymorphy3 analysis of an agreeing word, only if it matches the UD number/gender/person.

        Memoised per token: the number, gender and person paradigms all analyse the same agreeing words.
        """
        return token_memo(("agreement.agreeing_analysis", id(self.morph)), tok, lambda: self._analyse_uncached(tok))

    def _analyse_uncached(self, tok: Token) -> Analysis | None:
        a = self.morph.analyse(tok.form, tok.upos, tok.feats)
        if a is None and tok.upos == "VERB" and tok.feats.get("Variant") == "Short":
            # a short adjective tagged as a short participle («была огромна», «был пустынен»)
            a = self.morph.analyse(tok.form, "ADJ", tok.feats)
        if a is None or a.tag.POS not in ("VERB", "PRTS", "ADJS", "ADJF", "PRTF"):
            return None
        if a.tag.POS in ("ADJF", "PRTF") and tok.feats.get("VerbForm") == "Fin" and long_form_only(tok.form):
            # «успевшая» tagged as a finite verb: a long participle is an attribute, not a predicate
            return None
        for feat in ("Number", "Gender", "Person"):
            val = tok.feats.get(feat)
            if val is None:
                continue
            if feat == "Gender" and (tok.feats.get("Number") == "Plur" or a.tag.POS == "VERB" and "past" not in a.tag.grammemes):
                continue
            if not has_grammeme(a.tag, UD2OC[feat][val]):
                return None
        return a

    def _subject_analysis(self, tok: Token) -> Analysis | None:
        return token_memo(("agreement.subject_analysis", id(self.morph)), tok, lambda: self.morph.analyse(tok.form, tok.upos, tok.feats))

    def _inflect(self, tok: Token, analysis: Analysis, want: set[str], forbidden: dict[str, str], use_yo: bool) -> str | None:
        """The form of ``tok`` with grammemes ``want``, or None when impossible, unchanged or ambiguous."""
        parse = analysis.parse
        want = frozenset(want)
        key = (id(self.morph), parse.word, str(parse.tag), parse.normal_form, want, tuple(sorted(forbidden.items())))
        if key in _NEW_FORM_CACHE:
            word = _NEW_FORM_CACHE[key]
        else:
            word = self._new_form(parse, want, forbidden)
            if len(_NEW_FORM_CACHE) >= _INFLECT_CACHE_MAX:
                _NEW_FORM_CACHE.clear()
            _NEW_FORM_CACHE[key] = word
        if word is None or normalize(word) == normalize(tok.form):
            return None
        return word if use_yo else word.replace("ё", "е")

    def _new_form(self, parse, want: frozenset[str], forbidden: dict[str, str]) -> str | None:
        """The inflected form of ``parse`` (None when impossible, changing a kept category, or ambiguous)."""
        res = _inflect_parse(parse, want)
        if res is None or not want <= set(res.tag.grammemes):
            return None
        for attr in _KEEP_ATTRS:
            if getattr(res.tag, attr) != getattr(parse.tag, attr):
                return None
        if self.morph.is_ambiguous(res.word, parse.normal_form, {parse.tag.POS}, forbidden):
            return None
        return res.word

    def _want(self, analysis: Analysis, target: str, gender: str | None) -> set[str] | None:
        tag = analysis.tag
        marks_gender = tag.POS in ("ADJS", "PRTS", "ADJF", "PRTF") or "past" in tag.grammemes
        if self.feature == "Number":
            if target == "Plur":
                return {"plur"}
            if marks_gender:
                if gender is None:
                    return None
                return {"sing", UD2OC["Gender"][gender]}
            return {"sing"}
        if self.feature == "Gender":
            return {"sing", UD2OC["Gender"][target]}
        if self.feature == "Person":
            number = "plur" if "plur" in tag.grammemes else "sing"
            return {UD2OC["Person"][target], number}
        raise ValueError(self.feature)

    def _perturbation(self, sent: Sentence, edge: AgreementEdge, target: str, gender: str | None) -> Perturbation | None:
        source = edge.predicate_value(self.feature)
        if source is None or source == target:
            return None
        words = [edge.agreeing]
        if self.feature in ("Number", "Gender") and edge.subject_kind == "nominal":
            # with a genitive or clausal subject the neuter short form is the impersonal
            # predicative («нужно было», «было решено»), so быть alone is edited, as RuBLiMP does.
            # A «predicate» pymorphy3 cannot read as an adjective or participle is a tagging
            # error («была притворством» tagged as a participle): быть alone then.
            words.extend(t for t in edge.co_agreeing if _adjectival_form(t))
            if len(words) > 1 and _coordinated_predicates(sent, edge):
                # «Он был высоким, широкоплечим»: changing быть and the first
                # predicate would leave the conjoined ones disagreeing with both
                return None
        elif (
            self.feature in ("Number", "Gender") and edge.subject_kind not in ("genitive", "clausal", "quantified")
            and any(_adjectival_form(t) for t in edge.co_agreeing)
        ):
            # a subject read as a nominative by the paradigm alone (an unknown name tagged with an oblique
            # case, :func:`~rublimp.trees.subject_contexts.unknown_name_as_nominative`) on an edge that is
            # not nominal: its participle or short form would stay in the old value («Массауа было
            # укреплена»). The whole predicate changes or nothing does
            return None
        preset: dict[int, Analysis] = {}
        if (
            self.feature in ("Number", "Gender") and edge.subject_kind in ("genitive", "clausal", "quantified")
            and edge.pred_type == "aux" and edge.predicate.id != edge.agreeing.id
        ):
            # «было решено», «нужно было»: a short form that agrees with быть changes with it («был
            # решён», «нужен был»), or the predicate is left half-edited; «можно было» marks nothing
            short = predicative_short_form(edge.predicate)
            if short is not None:
                words.append(edge.predicate)
                preset[edge.predicate.id] = Analysis(short, 1.0)
        if (
            self.feature in ("Number", "Gender") and edge.subject_kind in ("genitive", "clausal", "quantified")
            and edge.pred_type == "part_shortadj" and predicative_short_form(edge.agreeing) is not None
        ):
            # «мне было бы трудно отрыть», «становилось необходимо удалить»: a link verb the parser hung
            # elsewhere agrees with the short form and changes with it («были бы трудны»)
            link = misattached_link_verb(sent, edge.agreeing)
            if link is not None:
                words.append(link)
        words.sort(key=lambda t: t.id)  # «должен был»: record the words in sentence order
        use_yo = "ё" in sent.text.lower()
        edits = []
        for tok in words:
            analysis = preset.get(tok.id) or self._analyse(tok)
            if analysis is None:
                return None
            want = self._want(analysis, target, gender)
            if want is None:
                return None
            orig = tok.feats.get(self.feature) or source
            forbidden = {self.feature: orig}
            if "indc" in analysis.tag.grammemes:
                # «заберём» is also an inclusive imperative tagged singular; only an indicative reading
                # with the original value makes the new form grammatical
                forbidden["Mood"] = "Ind"
            case = analysis.tag.case
            if case is not None and case in OC2UD and analysis.tag.POS in ("ADJF", "PRTF"):
                # «был деловым» → «была деловой»: «деловой» is also masculine, but not in the instrumental
                forbidden["Case"] = OC2UD[case][1]
            new = self._inflect(tok, analysis, want, forbidden, use_yo)
            if new is None:
                return None
            edits.append(Edit(tok.id, new))
        return Perturbation(
            edits=tuple(edits),
            feature=self.feature,
            source_value=source,
            target_value=target,
            subtype=edge.pred_type,
            source_word=" ".join(t.form for t in words),
            target_word=" ".join(e.new_form for e in edits),
        )

    # -- checks shared by the contexts ---------------------------------------------
    def _nominal_ok(self, sent: Sentence, edge: AgreementEdge, *, referent: bool = False) -> bool:
        """A nominative subject that agrees with the predicate in UD and pymorphy3 for this feature.

        With ``referent`` (gender of a subject whose gender is its referent's:
        names, unknown words, «я»/«ты», job nouns) the subject need not carry
        a gender of its own: the predicate's gender settles it.
        """
        if edge.subject_kind != "nominal":
            return False
        subj = edge.subject
        if subj.feats.get("Variant") == "Short":
            return False  # a short form is a predicate, not a subject («крещён и родился» misparsed)
        if address_as_subject(sent, edge):
            return False  # «Ребята, мы уходим»: an address set off by a comma is no subject
        if (
            (subj.feats.get("Case") == "Acc" or _instrument_beside(sent, edge))
            and edge.agreeing.feats.get("Number") == "Plur" and object_reading(sent, edge)
        ):
            # tagged accusative, or an inanimate plural beside a bare instrumental of its finite verb, and
            # readable as the object of a plural transitive verb without a subject: the indefinite-personal
            # construction («вдоль тротуаров поставят … веранды», «яблоки возили», «Крылья мельницы
            # обтягивали парусиной»), whose verb in another number reads with a dropped subject
            return False
        if infinitive_only_impersonal(edge.agreeing) and _accusative_too(subj) and _infinitive_below(sent, edge.predicate):
            # a noun that can be accusative beside a verb that takes an infinitive only impersonally, with
            # an infinitive in its clause, is that infinitive's object («больше не придётся каждое утро
            # топить печь»: «печь» hung on «придётся» as nsubj)
            return False
        if any(k.base_deprel == "csubj" for k in sent.children(edge.predicate)) and _accusative_too(subj):
            # a nominative beside a clausal subject is the infinitive's misattached object
            # («Часть урожая фермерам придётся распродать»); one with no accusative reading cannot be
            # («Полковник был бы не прочь пропустить стаканчик»: the infinitive is the complement)
            return False
        if subj.upos not in ("NOUN", "PROPN", "PRON", "DET", "ADJ", "NUM") and not _substantive_participle(sent, subj):
            return False
        if _own_preposition(sent, subj):
            # a noun with a preposition of its own is no nominative subject («… с преобразованием в
            # самостоятельный комитет» with «комитет» labelled nsubj)
            return False
        if normalize(subj.lemma) in NO_AGREEMENT_LEMMAS:
            # «это были студенты» agrees with the nominal predicate; «это служит мостом» agrees with «это»;
            # «всё это» with a participle or short form is a noun phrase that agrees («Всё это сделано»)
            if (edge.pred_type != "verb" or is_byt(edge.agreeing) or subj.upos == "DET") and not (
                _vsyo_eto(sent, subj) and _verbal_predicate(edge.predicate)
            ):
                return False
        sv, pv = edge.subject_value(self.feature), edge.predicate_value(self.feature)
        if pv is None or (not referent and (sv is None or sv != pv)):
            return False
        # every feature marked on both sides must agree: a mismatch elsewhere
        # usually means the parser picked the wrong subject («ни один вызов
        # Мельникова не оставила»); only gender may differ, and only with
        # subjects of variable gender (врач пришла)
        for feat in ("Number", "Gender", "Person"):
            s_val, p_val = edge.subject_value(feat), edge.predicate_value(feat)
            if s_val is not None and p_val is not None and s_val != p_val:
                if feat == "Gender" and referent:
                    continue
                if feat != "Gender" or self.feature == "Gender" or self._gender_fixed(sent, subj):
                    return False
        a = self._subject_analysis(subj)
        # a name's person, or its referent's gender shown by a singular predicate, does not hang on
        # its number: pymorphy3's guesses for an unknown name («Джошия» read as a neuter plural) do
        # not rule out a person pair or a neuter predicate
        name_person = subj.upos == "PROPN" and (self.feature == "Person" or referent)
        if a is None:
            # a word pymorphy3 does not know as a noun («кметь»): the parser's number is all there is,
            # unless pymorphy3 reads the form as a nominative of the other number
            return subj.upos in ("NOUN", "PROPN") and (name_person or not self._other_number_reading(subj))
        if not is_known(subj.form.lower()):
            return name_person or not self._other_number_reading(subj)
        # pymorphy3 must read the subject with the same number (and gender, when it is perturbed)
        for feat in ("Number", "Gender") if self.feature == "Gender" and not referent else ("Number",):
            val = subj.feats.get(feat)
            if val and val in UD2OC[feat] and not has_grammeme(a.tag, UD2OC[feat][val]):
                return False
        return True

    def _singular_gender(self, subj: Token) -> str:
        """The gender a singular predicate takes for this (plural) subject: the noun's own gender, else masculine."""
        if subj.upos in ("NOUN", "PROPN"):
            a = self._subject_analysis(subj)
            if a is not None:
                g = a.tag.gender
                if g in ("masc", "femn", "neut"):
                    return OC2UD[g][1]
                for p in self.morph.parses(a.lemma):
                    if p.tag.POS == "NOUN" and p.normal_form == a.lemma and p.tag.gender in ("masc", "femn", "neut"):
                        return OC2UD[p.tag.gender][1]
            g = subj.feats.get("Gender")
            if g in GENDERS:
                return g
        return "Masc"

    def _other_number_reading(self, subj: Token) -> bool:
        num = subj.feats.get("Number")
        if num not in ("Sing", "Plur"):
            return True
        other = UD2OC["Number"]["Plur" if num == "Sing" else "Sing"]
        return any(p.tag.POS == "NOUN" and {"nomn", other} <= set(p.tag.grammemes) and p.score >= 0.1
                   for p in self.morph.parses(subj.form))

    def _referent_gender(self, sent: Sentence, subj: Token) -> bool:
        """Subjects whose gender is their referent's, shown by the predicate: names, unknown words, «я», «ты», job nouns, «кто».

        With them masculine ↔ feminine is not an agreement error (the referent
        may be either), but a neuter predicate is.
        """
        lemma = normalize(subj.lemma)
        if subj.upos == "PRON":
            return subj.feats.get("Person") in ("1", "2") and subj.feats.get("Number") == "Sing" or lemma in ("кто", "никто", "кто-то", "кто-нибудь", "некто")
        if subj.upos not in ("NOUN", "PROPN"):
            return False
        if subj.feats.get("Abbr") == "Yes" or (subj.form.isupper() and len(subj.form) > 1):
            return False  # «ООН», «Би-би-си»: gender of an implied noun, neuter also possible
        parses = self.morph.parses(subj.form)
        guessed_name = subj.upos == "PROPN" and subj.feats.get("Animacy") == "Anim" and not is_known(subj.form.lower())
        animate_name = subj.upos == "PROPN" and subj.feats.get("Animacy") == "Anim" and subj.form[:1].isupper() and not subj.form.isupper()
        if not guessed_name and any(
            "Fixd" in p.tag.grammemes and "inan" in p.tag.grammemes
            # an abbreviation reading of a capitalised animate name («Мин» is also «мин.», minutes) does not count
            and not (animate_name and "Abbr" in p.tag.grammemes)
            for p in parses if p.tag.POS == "NOUN"
        ):
            # indeclinable inanimates («кафе», «Сочи») may be neuter; pymorphy3's guesses for a word it
            # does not know, tagged as an animate name («Виктерис кивнул»), do not count
            return False
        if subj.upos == "PROPN" or not is_known(subj.form.lower()):
            return True
        common = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)
        return lemma in common or any(is_common_gender_tag(p.tag) for p in parses if p.tag.POS == "NOUN")

    def _default_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        """The predicate carries default 3sg.N agreement (for all features it marks) and has no other subject."""
        for feat, default in DEFAULT_VALUES.items():
            pv = edge.predicate_value(feat)
            if pv is not None and pv != default:
                return False
        if edge.predicate_value(self.feature) is None:
            return False
        # a second genitive «subject» is the same genitive phrase split by the parser («прозы никакой
        # не останется»); an oblique-case «subject» of a genitive- or clausal-subject predicate is a
        # misparsed object or experiencer («можно было условия выговорить», «Но Гаумате не было
        # дела»); a «subject» that is no nominal at all is a misparsed conjunction or preposition
        # («Или что в Мемеле не осталось ничего», «что» tagged SCONJ); a quantity adverb is a real
        # subject («Много горожан пришло посмотреть»)
        others = [
            k for k in sent.children(edge.predicate)
            if k.base_deprel in ("nsubj", "csubj") and k.id != edge.subject.id
            and not (edge.subject_kind in ("genitive", "clausal") and k.feats.get("Case") in ("Gen", "Dat", "Ins", "Loc"))
            # «Одну вот вам приказано предоставить»: a «subject» tagged accusative beside the infinitive is its object
            and not (edge.subject_kind == "clausal" and k.base_deprel == "nsubj" and k.feats.get("Case") == "Acc")
            # «меня и писем не останется»: a second genitive tagged accusative
            and not (edge.subject_kind == "genitive" and edge.negated and k.feats.get("Case") == "Acc" and genitive_reading(k))
            and not (edge.subject_kind in ("genitive", "clausal") and k.upos in ("SCONJ", "CCONJ", "ADP"))
            and not (edge.subject_kind == "genitive" and chto_beside_a_genitive(sent, k, edge.agreeing))
            and not (edge.subject_kind == "clausal" and object_like(k))
            and not (edge.subject_kind in ("genitive", "clausal") and disagreeing_nominative(k, edge.agreeing))
            # «Джордж, ничего нам не остаётся»: a name set off by punctuation is an address; «ничего не
            # остаётся, как ехать», «воздуха не хватит дойти»: the infinitive of an intransitive
            # predicate with a genitive subject is its complement (with a transitive verb the genitive
            # may be its object: «ничего не хочет делать»)
            and not (edge.subject_kind == "genitive" and is_intransitive(edge.agreeing)
                     and (is_vocative(sent, k) or (k.base_deprel == "csubj" and is_infinitive(k))))
            # «Если выпало родиться, за неё и умирать придётся»: a second infinitive (or a finite clause
            # with its own subject, «ты что предпочитаешь») labelled csubj leaves the predicate in the
            # default form all the same; «придётся по-любому»: an adverb is no subject
            and not (edge.subject_kind == "clausal" and (is_vocative(sent, k) or other_clause(sent, k)))
            and not (edge.subject_kind in ("genitive", "clausal") and k.upos == "ADV" and normalize(k.lemma) not in QUANT_WORDS)
            # «Мысль в том, что объекта не существует»: a nominal before the predicate's own «что»
            and not (edge.subject_kind in ("genitive", "clausal") and before_own_subordinator(sent, edge.predicate, k))
            # «Об этом речи не шло, ибо золото всегда анонимно»: a nominal behind a comma and a subordinator
            and not (edge.subject_kind in ("genitive", "clausal") and behind_subordinate_opening(sent, edge.predicate, k))
            # «его наверняка удастся уговорить», «Нате не следует сообщать»: beside its infinitive a verb that
            # takes one only impersonally has no nominative subject; the nominal is the infinitive's object
            # or the experiencer
            and not object_of_impersonal_infinitive(edge, k)
            # «Сертификации тоже никакой не проводится»: the genitive's own modifier split off by the parser
            and not split_genitive_modifier(edge, k)
        ]
        return not others and not stray_nominative(sent, edge)

    def _nominative_reading(self, sent: Sentence, subj: Token, target: str) -> bool:
        """Whether a genitive subject can also be read as a nominative that the perturbed predicate agrees with.

        «гонки не будет» → «гонки не будут» is grammatical with гонки read as
        nominative plural, so such pairs are rejected.
        """
        want = {"nomn"}
        if self.feature == "Number":
            want.add(UD2OC["Number"][target])
        elif self.feature == "Gender":
            want |= {"sing", UD2OC["Gender"][target]}
        else:
            return False

        def readable(tok: Token, grammemes: set[str]) -> bool:
            for p in self.morph.parses(tok.form):
                if tok is subj and subj.upos in ("PRON", "NOUN", "PROPN") and p.tag.POS not in ("NOUN", "NPRO"):
                    # «её», «их» read as possessives («её дом») are no nominative subjects
                    continue
                have = set(p.tag.grammemes)
                if is_common_gender_tag(p.tag):
                    have |= {"masc", "femn"}
                if grammemes <= have:
                    return True
            return False

        if not readable(subj, want):
            return False
        # an agreeing modifier can rule the nominative out («глиняной посуды»)
        mod_want = {g for g in want if g in ("nomn", "sing", "plur")}
        for kid in sent.children(subj):
            if kid.deprel in ("amod", "det") and kid.upos in ("ADJ", "DET") and not readable(kid, mod_want):
                return False
        return True

    def _gender_fixed(self, sent: Sentence, subj: Token) -> bool:
        """True when the subject's grammatical gender reliably determines the predicate's."""
        lemma = normalize(subj.lemma)
        if subj.upos == "PROPN" and indeclinable_neuter(subj.form) and (subj.form.islower() or sent.tokens[0].id == subj.id):
            return True  # «Ателье» tagged PROPN at the start of the sentence
        if subj.upos == "PROPN" and not (
            _first_word(sent, subj) and subj.feats.get("Animacy") != "Anim" and fixed_gender_common_noun(subj.form)
        ):
            # a name; at the start of the sentence a common noun may be tagged PROPN («Эра закончилась»),
            # unless the tagger takes it for an animate («Тузик научился»: a dog's name)
            return False
        if subj.feats.get("Abbr") == "Yes" or subj.feats.get("Foreign") == "Yes":
            return False
        if lemma in REFERENT_GENDER_LEMMAS:
            return False
        common = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)
        if lemma in common:
            return False
        for p in self.morph.parses(subj.form):
            if is_common_gender_tag(p.tag) and normalize(p.normal_form) == lemma:
                return False
        a = self._subject_analysis(subj)
        if a is None or is_common_gender_tag(a.tag) or (PROPER_TAGS & set(a.tag.grammemes) and not indeclinable_neuter(subj.form)):
            return False
        if normalize(a.lemma) in common:
            return False
        if lemma in ("который", "которая", "которое"):
            # a relative pronoun takes the antecedent's gender
            pred = sent.head_of(subj)
            clause = pred
            while clause is not None and clause.deprel not in ("acl:relcl", "acl") and clause.head != 0:
                clause = sent.head_of(clause)
            antecedent = sent.head_of(clause) if clause is not None and clause.deprel in ("acl:relcl", "acl") else None
            if antecedent is None or antecedent.id == subj.id or not self._gender_fixed(sent, antecedent):
                return False
        return True


def _substantive_participle(sent: Sentence, subj: Token) -> bool:
    """A long participle in the nominative used as a noun, with a determiner of its own and no noun
    beside it that it could modify («Каждый выписанный получил тест»): its ending shows its gender and
    number as an adjective's does."""
    if subj.upos != "VERB" or subj.feats.get("VerbForm") != "Part" or subj.feats.get("Variant") == "Short":
        return False
    if subj.feats.get("Case") != "Nom" or not any(k.base_deprel == "det" for k in sent.children(subj)):
        return False
    nxt = sent.tokens[subj.id] if subj.id < len(sent.tokens) else None
    return nxt is None or nxt.upos not in ("NOUN", "PROPN", "PRON", "ADJ")


def _vsyo_eto(sent: Sentence, subj: Token) -> bool:
    """«всё это»: the pronoun «это» with the determiner «всё» (written «все» too) right before it."""
    before = sent.tokens[subj.id - 2] if subj.id >= 2 else None
    return (
        normalize(subj.form) == "это" and before is not None and normalize(before.form) in ("все", "всё")
        and before.head == subj.id
    )


def _verbal_predicate(pred: Token) -> bool:
    """A participle or a short adjective as the predicate (no nominal predicate to agree with)."""
    return pred.feats.get("VerbForm") == "Part" or pred.feats.get("Variant") == "Short"


def _instrument_beside(sent: Sentence, edge: AgreementEdge) -> bool:
    """An inanimate plural subject of a finite verb that has a bare instrumental noun dependent after
    it («Крылья обтягивали парусиной», «Аллеи обсадили липами»: the material or instrument of an
    indefinite-personal action on the «subject»); not one pymorphy3 also reads as an adverb («где
    летом дуют ветры»: a time)."""
    subj, verb = edge.subject, edge.agreeing
    if subj.feats.get("Animacy") != "Inan" or subj.feats.get("Number") != "Plur" or verb.feats.get("VerbForm") != "Fin":
        return False
    return any(k.upos == "NOUN" and k.feats.get("Case") == "Ins" and k.base_deprel in ("obj", "obl", "iobj")
               and k.id > verb.id and not sent.children(k, "case")
               and not any(p.tag.POS == "ADVB" for p in get_morph().parses(k.form))
               for k in sent.children(edge.predicate))


def _infinitive_below(sent: Sentence, head: Token) -> bool:
    """Whether an infinitive depends on ``head``, directly or further down its subtree, not through a
    clause conjoined to it or set beside it («сыр получился невкусным, и его пришлось выбросить»)."""
    todo = [k for k in sent.children(head) if k.base_deprel not in ("conj", "parataxis")]
    seen: set[int] = set()
    while todo:
        tok = todo.pop()
        if tok.id in seen:
            continue
        seen.add(tok.id)
        if tok.upos == "VERB" and tok.feats.get("VerbForm") == "Inf":
            return True
        todo.extend(sent.children(tok))
    return False


def _accusative_too(tok: Token) -> bool:
    """Whether pymorphy3 reads ``tok``'s form as an accusative noun or pronoun too (any reading for a word it
    does not know, or for one with no noun/pronoun reading: it may be an object)."""
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    if not parses or not is_known(tok.form.lower()):
        return True
    return any("accs" in p.tag.grammemes for p in parses)


def _own_preposition(sent: Sentence, subj: Token) -> bool:
    """Whether ``subj`` has a preposition of its own: a ``case`` dependent before it with only its
    adjectives, determiners and numerals between («в самостоятельный комитет»). A preposition the parser
    hung on it from a PP after it («вода из неё») or before a noun between («Перед дальней дорогой
    бабушка») is another word's."""
    for k in sent.children(subj):
        if k.base_deprel == "case" and k.upos == "ADP" and k.id < subj.id and all(
            t.upos in ("ADJ", "DET", "NUM") and t.head == subj.id for t in sent.tokens[k.id: subj.id - 1]
        ):
            return True
    return False


def _first_word(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` is the first word of the sentence (only punctuation before it)."""
    return all(t.upos == "PUNCT" for t in sent.tokens[: tok.id - 1])


def _adjectival_form(tok: Token) -> bool:
    return any(p.tag.POS in ("ADJF", "ADJS", "PRTF", "PRTS") for p in get_morph().parses(tok.form))


def _coordinated_predicates(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the adjectival predicate that agrees together with быть has conjoined predicates sharing that быть.

    A conjunct with its own finite verb or быть («был высоким и стал сильным»)
    is a predicate of its own and does not count.
    """
    for pred in edge.co_agreeing:
        for kid in sent.children(pred):
            if kid.deprel != "conj":
                continue
            if any(k.deprel in ("aux", "aux:pass", "cop", "nsubj", "nsubj:pass") for k in sent.children(kid)):
                continue
            if kid.upos in ("ADJ", "DET", "NOUN", "PROPN", "PRON", "NUM") or kid.feats.get("VerbForm") == "Part":
                return True
    return False


def _comitative(sent: Sentence, subj: Token) -> bool:
    """«кошка с котятами»: a subject with a «с» + instrumental dependent may take plural agreement."""
    for kid in sent.children(subj):
        if kid.base_deprel == "nmod" and kid.feats.get("Case") == "Ins":
            if any(c.deprel == "case" and normalize(c.form) in ("с", "со") for c in sent.children(kid)):
                return True
    return False


def _quantity_phrase(sent: Sentence, subj: Token) -> bool:
    """«большинство студентов», «группа туристов»: a quantity noun with a genitive dependent.

    Alone («группа покинула мыс») a quantity noun agrees like any other noun.
    """
    if normalize(subj.lemma) not in QUANTITY_NOUNS:
        return False
    return any(k.base_deprel in ("nmod", "nummod", "det") and k.feats.get("Case") == "Gen" for k in sent.children(subj))


def comitative_beside(sent: Sentence, edge) -> bool:
    """Whether a «с/со» + instrumental person (a name, a pronoun or an animate noun) stands between a
    singular subject that is a person (a personal pronoun or an animate noun) and its predicate after it,
    wherever the parser attached it: «Ты
    небось с Нинкой говорила» → «говорили» is the comitative plural ("you and Ninka talked"), grammatical."""
    subj = edge.subject
    person = subj.upos == "PRON" and subj.feats.get("Person") in ("1", "2", "3") or (
        subj.feats.get("Animacy") == "Anim"
        and any("anim" in p.tag.grammemes for p in get_morph().parses(subj.form) if p.tag.POS == "NOUN")
    )
    if not person:
        return False  # «Сказание связано с Келенами»: a thing makes no comitative pair
    if subj.id > edge.agreeing.id:
        return False
    return any(
        t.feats.get("Case") == "Ins" and (t.upos in ("PROPN", "PRON") or t.feats.get("Animacy") == "Anim")
        # «с собой», «с которой», «ни с кем»: no companion
        and normalize(t.lemma) not in _NO_COMPANION and not (t.id > 2 and normalize(sent.tokens[t.id - 3].form) == "ни")
        and any(c.base_deprel == "case" and normalize(c.form) in ("с", "со") for c in sent.children(t))
        for t in sent.tokens[subj.id: edge.agreeing.id - 1]
    )


#: instrumentals after «с» that name no companion of the subject
_NO_COMPANION = frozenset({"себя", "который", "никто", "кто", "ничто", "что"})


def number_ok(sent: Sentence, subj: Token) -> bool:
    """Subjects whose number agreement is not optional: no quantity phrase, and no singular with a comitative phrase.

    «Кошка с котятами жила / жили» are both grammatical; «Мы с Бармой углядели»
    has only the plural.
    """
    if _quantity_phrase(sent, subj):
        return False
    return subj.feats.get("Number") == "Plur" or not _comitative(sent, subj)
