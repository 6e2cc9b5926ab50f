"""SUBJECT-PREDICATE AGREEMENT: the eleven RuBLiMP paradigms (Appendix B.2.2).

Every paradigm alters one feature (number, gender or person) of the word that
agrees with the subject — the finite verb, the finite быть of a compound
predicate, or a short adjective/participle — and never the subject. With a
compound predicate the adjectival part agrees with быть as well («книга была
закрыта»); for number and gender it is changed together with быть («книга
были закрыты»), so that the whole predicate disagrees with the subject instead
of быть disagreeing with its own participle. Person is marked on быть only.

Four contexts (the paper's subject kinds):

* ``noun_subj_*``: a nominative noun phrase or pronoun; the predicate is moved
  away from the subject's value.
* ``genitive_subj_*``: a genitive subject, which takes default 3sg.N
  agreement — the genitive of negation («детей не было», the paper's
  definition) and, for gender and person only, a quantified genitive («пять
  студентов пришло»); quantified subjects are left out of the number paradigm
  because plural agreement is also grammatical with them («пять студентов
  пришли»).
* ``clause_subj_*``: a clausal subject (``csubj``), also default 3sg.N.
* ``subj_predicate_agreement_*_attractor``: a nominal or clausal subject whose
  subtree contains a nominal (reached through ``nmod``/``obj``/``obl`` links,
  not in the nominative) with a different value; the predicate takes the
  attractor's value («ключ от шкафов лежал» → «ключ от шкафов лежали»).

Safeguards from the paper: subject and predicate must agree both in the UD
annotation and in the pymorphy3 analysis; the new form must not be readable
as the original value of the feature (``Morph.is_ambiguous``) and must keep
tense, aspect, voice, mood, case and part of speech; no gender change with
proper-noun, abbreviated, indeclinable or common-gender subjects (pymorphy3's
``ms-f`` tag and ``resources/common_gender_nouns.tsv``). Pairs whose agreement
condition is ``absent`` in ``ctx.agreement`` are dropped.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import ClassVar, Iterable, Iterator

from ..agreement import DEFAULT_VALUES, AgreementEdge, subject_predicate_edges
from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import UD2OC, Analysis
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "PHENOMENON",
    "SubjectPredicateAgreement",
    "NounSubjNumber",
    "NounSubjGender",
    "NounSubjPerson",
    "GenitiveSubjNumber",
    "GenitiveSubjGender",
    "GenitiveSubjPerson",
    "ClauseSubjNumber",
    "ClauseSubjGender",
    "ClauseSubjPerson",
    "AttractorNumber",
    "AttractorGender",
    "load_common_gender_nouns",
]

PHENOMENON = "subject_predicate_agreement"
COMMON_GENDER_FILE = "common_gender_nouns.tsv"

GENDERS = ("Masc", "Fem", "Neut")
PERSONS = ("1", "2", "3")
# collective quantity nouns: plural agreement is acceptable with them
# («большинство студентов сдали»), so they never enter the number paradigms
QUANTITY_NOUNS = frozenset(
    {
        "большинство", "меньшинство", "ряд", "множество", "часть", "половина", "треть", "четверть",
        "масса", "сотня", "тысяча", "миллион", "миллиард", "десяток", "дюжина", "пара", "куча", "уйма",
        "группа", "количество", "число", "сотни", "тысячи",
    }
)
# pronoun subjects whose agreement is set by something else: the nominal
# predicate («это были студенты»), or the referent's sex («кто пришла»)
NO_AGREEMENT_LEMMAS = frozenset({"это", "то"})
REFERENT_GENDER_LEMMAS = frozenset({"кто", "никто", "некто", "кто-то", "кто-нибудь", "кто-либо", "кое-кто", "сам", "себя"})
PROPER_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Fixd", "Init"})
# grammemes that inflection must leave untouched
_KEEP_ATTRS = ("POS", "tense", "aspect", "voice", "mood", "case", "transitivity")
# relations along which an attractor is searched inside the subject tree
ATTRACTOR_PATH_RELS = frozenset({"nmod", "obj", "obl", "iobj"})


@functools.lru_cache(maxsize=8)
def load_common_gender_nouns(path: str | Path) -> frozenset[str]:
    """Lemmas (lower case, ё→е) from a TSV with a ``lemma`` column; ``#`` lines are comments."""
    # read by hand rather than with polars.read_csv: a malformed row must be
    # reported with its exact line number, which polars does not give
    path = Path(path)
    if not path.exists():
        raise InputError("common-gender noun list not found", path)
    out: set[str] = set()
    header: list[str] | None = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                if "lemma" not in header:
                    raise InputError("header must have a 'lemma' column", path, lineno)
                continue
            if len(cols) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found {len(cols)}", path, lineno)
            lemma = cols[header.index("lemma")].strip().lower().replace("ё", "е")
            if not lemma:
                raise InputError("empty lemma", path, lineno)
            out.add(lemma)
    if header is None:
        raise InputError("no header line", path)
    return frozenset(out)


_LAST_EDGES: list = [None, []]


def _edges(sent: Sentence) -> list[AgreementEdge]:
    """:func:`subject_predicate_edges`, remembered for the last sentence seen.

    The pool builder runs all paradigms on one sentence before moving to the
    next, so the eleven paradigms share one extraction per sentence.
    """
    if _LAST_EDGES[0] is not sent:
        _LAST_EDGES[0], _LAST_EDGES[1] = sent, subject_predicate_edges(sent)
    return _LAST_EDGES[1]


_INFLECT_CACHE: dict[tuple, object] = {}
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


def _norm(s: str) -> str:
    return s.lower().replace("ё", "е")


def _has(tag, grammeme: str) -> bool:
    return grammeme in tag.grammemes


def _is_common_gender_tag(tag) -> bool:
    return any(g.lower() == "ms-f" for g in tag.grammemes)


class SubjectPredicateAgreement(Paradigm):
    """Shared machinery: analysing, re-inflecting and filtering the agreeing word(s).

    Subclasses set ``feature`` and implement :meth:`targets`, which yields
    ``(target value, gender for a singular form or None)`` for an edge that
    fits the paradigm's context.
    """

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv",)
    options = ("agreement_min_conf",)

    # -- the paradigm-specific part ---------------------------------------------
    def targets(self, sent: Sentence, edge: AgreementEdge) -> Iterable[tuple[str, str | None]]:
        raise NotImplementedError

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        min_conf = float(self.ctx.options.get("agreement_min_conf", 0.0))
        for edge in _edges(sent):
            if edge.coordinated or edge.outer or edge.conf < min_conf:
                continue
            if not self._condition_allowed(edge):
                continue
            seen: set[str] = set()
            for target, gender in self.targets(sent, edge):
                pert = self._perturbation(sent, edge, target, gender)
                if pert is not None and pert.target_word not in seen:
                    seen.add(pert.target_word or "")
                    yield pert

    # -- helpers -----------------------------------------------------------------
    def _condition_allowed(self, edge: AgreementEdge) -> bool:
        """False when the validation table marks this agreement condition ``absent``."""
        if self.ctx.agreement is None:
            return True
        key = edge.key(self.feature)
        return key is None or self.ctx.agreement.get(key) != "absent"

    def _analyse(self, tok: Token) -> Analysis | None:
        """pymorphy3 analysis of an agreeing word, only if it matches the UD number/gender/person."""
        a = self.morph.analyse(tok.form, tok.upos, tok.feats)
        if a is None or a.tag.POS not in ("VERB", "PRTS", "ADJS", "ADJF", "PRTF"):
            return None
        for feat in ("Number", "Gender", "Person"):
            val = tok.feats.get(feat)
            if val is None:
                continue
            if feat == "Gender" and (tok.feats.get("Number") == "Plur" or a.tag.POS == "VERB" and "past" not in a.tag.grammemes):
                continue
            if not _has(a.tag, UD2OC[feat][val]):
                return None
        return a

    def _subject_analysis(self, tok: Token) -> Analysis | None:
        return self.morph.analyse(tok.form, tok.upos, tok.feats)

    def _inflect(self, tok: Token, analysis: Analysis, want: set[str], forbidden: dict[str, str], use_yo: bool) -> str | None:
        """The form of ``tok`` with grammemes ``want``, or None when impossible, unchanged or ambiguous."""
        parse = analysis.parse
        res = _inflect_parse(parse, frozenset(want))
        if res is None or not want <= set(res.tag.grammemes):
            return None
        for attr in _KEEP_ATTRS:
            if getattr(res.tag, attr) != getattr(parse.tag, attr):
                return None
        word = res.word
        if _norm(word) == _norm(tok.form):
            return None
        if self.morph.is_ambiguous(word, parse.normal_form, {parse.tag.POS}, forbidden):
            return None
        return word if use_yo else word.replace("ё", "е")

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
        if self.feature in ("Number", "Gender"):
            words.extend(edge.co_agreeing)
        words.sort(key=lambda t: t.id)  # «должен был»: record the words in sentence order
        use_yo = "ё" in sent.text.lower()
        edits = []
        for tok in words:
            analysis = self._analyse(tok)
            if analysis is None:
                return None
            want = self._want(analysis, target, gender)
            if want is None:
                return None
            orig = tok.feats.get(self.feature) or source
            new = self._inflect(tok, analysis, want, {self.feature: orig}, use_yo)
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
    def _nominal_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        """A nominative subject that agrees with the predicate in UD and pymorphy3 for this feature."""
        if edge.subject_kind != "nominal":
            return False
        subj = edge.subject
        if _norm(subj.lemma) in NO_AGREEMENT_LEMMAS or subj.upos not in ("NOUN", "PROPN", "PRON", "DET", "ADJ", "NUM"):
            return False
        sv, pv = edge.subject_value(self.feature), edge.predicate_value(self.feature)
        if sv is None or pv is None or sv != pv:
            return False
        # every feature marked on both sides must agree: a mismatch elsewhere
        # usually means the parser picked the wrong subject («ни один вызов
        # Мельникова не оставила»); only gender may differ, and only with
        # subjects of variable gender (врач пришла)
        for feat in ("Number", "Gender", "Person"):
            s_val, p_val = edge.subject_value(feat), edge.predicate_value(feat)
            if s_val is not None and p_val is not None and s_val != p_val:
                if feat != "Gender" or self.feature == "Gender" or self._gender_fixed(sent, subj):
                    return False
        a = self._subject_analysis(subj)
        if a is None:
            return False
        # pymorphy3 must read the subject with the same number (and gender, when it is perturbed)
        for feat in ("Number", "Gender") if self.feature == "Gender" else ("Number",):
            val = subj.feats.get(feat)
            if val and val in UD2OC[feat] and not _has(a.tag, UD2OC[feat][val]):
                return False
        return True

    def _default_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        """The predicate carries default 3sg.N agreement (for all features it marks) and has no other subject."""
        for feat, default in DEFAULT_VALUES.items():
            pv = edge.predicate_value(feat)
            if pv is not None and pv != default:
                return False
        if edge.predicate_value(self.feature) is None:
            return False
        others = [
            k for k in sent.children(edge.predicate)
            if k.base_deprel in ("nsubj", "csubj") and k.id != edge.subject.id
        ]
        return not others and not self._stray_nominative(sent, edge)

    @staticmethod
    def _stray_nominative(sent: Sentence, edge: AgreementEdge) -> bool:
        """A nominative nominal among the arguments of the predicate (or of its xcomp chain).

        With a default-agreement predicate this almost always means that the
        parser missed the real nominative subject («не может спуститься котёнок»).
        """
        stack = [edge.predicate]
        while stack:
            node = stack.pop()
            for kid in sent.children(node):
                if kid.id == edge.subject.id:
                    continue
                if kid.deprel == "xcomp":
                    stack.append(kid)
                if (
                    kid.base_deprel in ("obj", "iobj", "obl", "nsubj", "dep", "xcomp")
                    and kid.upos in ("NOUN", "PROPN", "PRON")
                    and kid.feats.get("Case") == "Nom"
                ):
                    return True
        return False

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
                have = set(p.tag.grammemes)
                if _is_common_gender_tag(p.tag):
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
        lemma = _norm(subj.lemma)
        if subj.upos == "PROPN" or subj.feats.get("Abbr") == "Yes" or subj.feats.get("Foreign") == "Yes":
            return False
        if lemma in REFERENT_GENDER_LEMMAS:
            return False
        common = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)
        if lemma in common:
            return False
        for p in self.morph.parses(subj.form):
            if _is_common_gender_tag(p.tag) and _norm(p.normal_form) == lemma:
                return False
        a = self._subject_analysis(subj)
        if a is None or _is_common_gender_tag(a.tag) or PROPER_TAGS & set(a.tag.grammemes):
            return False
        if _norm(a.lemma) in common:
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


def _comitative(sent: Sentence, subj: Token) -> bool:
    """«кошка с котятами»: a subject with a «с» + instrumental dependent may take plural agreement."""
    for kid in sent.children(subj):
        if kid.base_deprel == "nmod" and kid.feats.get("Case") == "Ins":
            if any(c.deprel == "case" and _norm(c.form) in ("с", "со") for c in sent.children(kid)):
                return True
    return False


def _number_ok(sent: Sentence, subj: Token) -> bool:
    """Subjects whose number agreement is not optional: no quantity noun, no comitative phrase."""
    return _norm(subj.lemma) not in QUANTITY_NOUNS and not _comitative(sent, subj)


def _other(values: tuple[str, ...], value: str) -> list[str]:
    return [v for v in values if v != value]


# -- nominal subjects ---------------------------------------------------------------
@register
class NounSubjNumber(SubjectPredicateAgreement):
    """«Дети пришли домой.» → «Дети пришёл домой.»"""

    name = "noun_subj_predicate_agreement_number"
    feature = "Number"

    def targets(self, sent, edge):
        if not self._nominal_ok(sent, edge) or not _number_ok(sent, edge.subject):
            return
        src = edge.predicate_value("Number")
        if src == "Sing":
            yield "Plur", None
        else:
            yield "Sing", edge.subject.feats.get("Gender") or "Masc"


@register
class NounSubjGender(SubjectPredicateAgreement):
    """«Книга лежала на столе.» → «Книга лежал на столе.»"""

    name = "noun_subj_predicate_agreement_gender"
    feature = "Gender"

    def targets(self, sent, edge):
        if not self._nominal_ok(sent, edge) or not self._gender_fixed(sent, edge.subject):
            return
        for g in _other(GENDERS, edge.predicate_value("Gender")):
            yield g, None


@register
class NounSubjPerson(SubjectPredicateAgreement):
    """«Мы живём в городе.» → «Мы живёт в городе.»"""

    name = "noun_subj_predicate_agreement_person"
    feature = "Person"

    def targets(self, sent, edge):
        if not self._nominal_ok(sent, edge):
            return
        for p in _other(PERSONS, edge.predicate_value("Person")):
            yield p, None


# -- genitive subjects ----------------------------------------------------------------
class _GenitiveSubj(SubjectPredicateAgreement):
    #: quantified genitives allow plural agreement, so only gender and person use them
    allow_quantified: ClassVar[bool] = True

    def _genitive_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        if edge.subject_kind == "genitive":
            if not edge.negated:
                return False
        elif not (edge.subject_kind == "quantified" and self.allow_quantified):
            return False
        return self._default_ok(sent, edge)


@register
class GenitiveSubjNumber(_GenitiveSubj):
    """«Детей в школе не было.» → «Детей в школе не были.»"""

    name = "genitive_subj_predicate_agreement_number"
    feature = "Number"
    allow_quantified = False

    def targets(self, sent, edge):
        if self._genitive_ok(sent, edge) and not self._nominative_reading(sent, edge.subject, "Plur"):
            yield "Plur", None


@register
class GenitiveSubjGender(_GenitiveSubj):
    """«Пять студентов пришло на лекцию.» → «Пять студентов пришёл на лекцию.»"""

    name = "genitive_subj_predicate_agreement_gender"
    feature = "Gender"

    def targets(self, sent, edge):
        if self._genitive_ok(sent, edge):
            for g in ("Masc", "Fem"):
                if not self._nominative_reading(sent, edge.subject, g):
                    yield g, None


@register
class GenitiveSubjPerson(_GenitiveSubj):
    """«Денег у нас не остаётся.» → «Денег у нас не остаюсь.»"""

    name = "genitive_subj_predicate_agreement_person"
    feature = "Person"

    def targets(self, sent, edge):
        if self._genitive_ok(sent, edge):
            yield "1", None
            yield "2", None


# -- clausal subjects -------------------------------------------------------------------
class _ClauseSubj(SubjectPredicateAgreement):
    def _clause_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        return edge.subject_kind == "clausal" and self._default_ok(sent, edge)


@register
class ClauseSubjNumber(_ClauseSubj):
    """«Нам пришлось уйти рано.» → «Нам пришлись уйти рано.»"""

    name = "clause_subj_predicate_agreement_number"
    feature = "Number"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "Plur", None


@register
class ClauseSubjGender(_ClauseSubj):
    """«Необходимо сделать замену.» → «Необходима сделать замену.»"""

    name = "clause_subj_predicate_agreement_gender"
    feature = "Gender"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "Masc", None
            yield "Fem", None


@register
class ClauseSubjPerson(_ClauseSubj):
    """«Остаётся только ждать.» → «Остаёшься только ждать.»"""

    name = "clause_subj_predicate_agreement_person"
    feature = "Person"

    def targets(self, sent, edge):
        if self._clause_ok(sent, edge):
            yield "1", None
            yield "2", None


# -- attractors --------------------------------------------------------------------------
class _Attractor(SubjectPredicateAgreement):
    def attractors(self, sent: Sentence, edge: AgreementEdge) -> list[Token]:
        """Non-nominative nominals in the subject tree reached via nmod/obj/obl links, nearest to the agreeing word first."""
        found: list[Token] = []
        stack = [edge.subject]
        while stack:
            node = stack.pop()
            for kid in sent.children(node):
                if kid.deprel.split(":")[0] not in ATTRACTOR_PATH_RELS:
                    continue
                stack.append(kid)
                if kid.upos in ("NOUN", "PROPN", "PRON") and kid.feats.get("Case") not in (None, "Nom"):
                    a = self.morph.analyse(kid.form, kid.upos, kid.feats)
                    if a is None or _is_common_gender_tag(a.tag) or "Fixd" in a.tag.grammemes:
                        continue
                    if any(not _has(a.tag, UD2OC[f][kid.feats[f]]) for f in ("Number", "Gender") if f in kid.feats and (f != "Gender" or kid.feats.get("Number") == "Sing")):
                        continue
                    found.append(kid)
        found.sort(key=lambda t: (abs(t.id - edge.agreeing.id), t.id))
        return found

    def _subject_ok(self, sent: Sentence, edge: AgreementEdge) -> bool:
        if edge.subject_kind == "clausal":
            return self._default_ok(sent, edge)
        # a noun phrase: pronouns take no nominal dependents, an «nmod» under one is a misparse
        return edge.subject.upos in ("NOUN", "PROPN") and self._nominal_ok(sent, edge)


@register
class AttractorNumber(_Attractor):
    """«Ключ от шкафов лежал на столе.» → «Ключ от шкафов лежали на столе.»"""

    name = "subj_predicate_agreement_number_attractor"
    feature = "Number"

    def targets(self, sent, edge):
        if not self._subject_ok(sent, edge) or not _number_ok(sent, edge.subject):
            return
        src = edge.predicate_value("Number")
        for att in self.attractors(sent, edge):
            num = att.feats.get("Number")
            if num is None or num == src:
                continue
            gender = att.feats.get("Gender") if num == "Sing" else None
            if num == "Sing" and gender is None:
                continue
            yield num, gender
            return


@register
class AttractorGender(_Attractor):
    """«Местность вокруг села сильно заболочена.» → «Местность вокруг села сильно заболочено.»"""

    name = "subj_predicate_agreement_gender_attractor"
    feature = "Gender"

    def targets(self, sent, edge):
        if not self._subject_ok(sent, edge):
            return
        if edge.subject_kind == "nominal" and not self._gender_fixed(sent, edge.subject):
            return
        src = edge.predicate_value("Gender")
        for att in self.attractors(sent, edge):
            g = att.feats.get("Gender")
            if att.feats.get("Number") != "Sing" or g is None or g == src:
                continue
            yield g, None
