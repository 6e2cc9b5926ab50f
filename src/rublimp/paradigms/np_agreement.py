"""NOUN PHRASE AGREEMENT: the three RuBLiMP paradigms (Appendix B.2.4), and agreement helpers.

A head noun with one to three agreeing modifiers (RuBLiMP's dev pairs edit one
of several: «первая большая битва» → «первой большая битва») — an adjective, an adjectival
pronoun or determiner (этот, мой, весь, …), an ordinal numeral or a
participle, attached as ``amod``/``det`` (or a participle as ``acl``) and not set off from it by
punctuation (a detached phrase, «Дом, построенный в …», is no modifier inside the phrase) — has the
modifier re-inflected for one feature:

* ``np_agreement_number``: «в старом доме» → «в старых доме»;
* ``np_agreement_gender`` (singular heads only): «в этом районе» → «в этой районе»;
* ``np_agreement_case``: «в этом районе» → «в этого районе».

For gender and case only the modifier is altered (changing the head's case
would be GOVERNMENT). For number, as in RuBLiMP, the HEAD NOUN is altered
(«к холодному металлу» → «к холодному металлам»), never a head whose number
another word also agrees with (the antecedent of «который», a conjunct, a counted
noun, a partitive set); for a subject, or a head whose new form could be read in
the old number («области»: also gen. sg.), the modifier changes instead («Старый
дом стоял» → «Старые дом стоял»): see :class:`NPAgreementNumber`.
Safeguards: modifier and head agree in the parser's features and in the
pymorphy3 analyses (a direct object the parser left nominative although its
form is also accusative is read as accusative: «бросил злой взгляд»); the head
has no conjunct,
and the modifier has no agreeing dependent or conjunct of its own; the new
form must not be readable as agreeing with *any* reading of the head form
(a stronger version of ``Morph.is_ambiguous`` against the head's actual
case, number and gender: adjective endings are massively syncretic); no
gender change with common-gender heads (pymorphy3 ``ms-f``, the job/title
list ``resources/common_gender_nouns.tsv``), indeclinable or abbreviated heads.

Parser repairs: the normalised tree (:mod:`rublimp.trees.normalise`) already has an adjective the
parser hung on a verb attached to the agreeing noun after it, and the tags pymorphy3 settles inside a
noun phrase corrected, and an adjective the parser made head clause material re-hung on its noun.
Two rules over that tree are these paradigms' own (queries of :mod:`rublimp.trees.modifiers`; the
tree keeps UD's attachment): gender also takes the agreeing adjective right after its noun for one of
its modifiers (:func:`~rublimp.trees.modifiers.modifier_after`; not case: a depictive may be
instrumental), and gender and case take both of two coordinated adjectives before a noun for its
modifiers (:func:`~rublimp.trees.modifiers.conjunct_before`); a head with a
conjunct keeps its prenominal modifiers; a head whose case or number the parser misread takes the
reading of the modifier right before it (:func:`_head_features_from_modifier`); a nominative/accusative
split is resolved by the head's relation (:func:`_nom_acc_repair`). Design history and dev-split
figures: ``docs/phenomena/noun_phrase_agreement.md``.

The agreement readings, re-inflection and head checks it uses are shared with the anaphor and
floating-quantifier paradigms in :mod:`rublimp.trees.nominal`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Iterable, Iterator

from ..conllu_doc import Sentence, Token
from ..morph import Analysis, Morph
from ..trees.nominal import (
    ADJ_POS,
    CASES,
    COMMON_GENDER_FILE,
    CYRILLIC_WORD,
    QUANTITY_LEMMAS,
    UNRELIABLE_HEAD_TAGS,
    Agr,
    adjective_readings,
    agr_from_tag,
    agrees,
    case_targets,
    gender_targets,
    has_common_gender,
    head_number_blocked,
    inflect_agreeing,
    load_common_gender_nouns,
    matches_ud,
    norm,
    noun_readings,
    number_targets,
    renumber_noun,
    spell_yo,
    ud_agr,
)
from ..trees.modifiers import conjunct_before, modifier_after
from .base import Edit, Paradigm, Perturbation, register

__all__ = [
    "NPCandidate",
    "np_candidates",
    "NPAgreementNumber",
    "NPAgreementGender",
    "NPAgreementCase",
]

PHENOMENON = "noun_phrase_agreement"
# relations of agreeing modifiers (a participle may also head an ``acl``)
MODIFIER_RELS = frozenset({"amod", "det", "nummod"})
# lemmas left to the other agreement paradigms
NOT_NP_MODIFIERS = frozenset({"который", "сам"})
# quantifier adjectives whose singular is archaic («многая лета»): no number change
PLURAL_ONLY_MODIFIERS = frozenset({"многий", "немногий"})
#: possessive determiners that do not inflect (his, her, their)
INVARIABLE_POSSESSIVES = frozenset({"его", "ее", "её", "их"})
# a new form that can also be a particle or conjunction makes a grammatical string
# of its own («Это версия …», «то решение …», «все время»)
FUNCTION_POS = frozenset({"PRCL", "CONJ"})


# -- noun phrases --------------------------------------------------------------
@dataclass(frozen=True)
class NPCandidate:
    """A head noun with its single agreeing modifier, both analysed."""

    head: Token
    modifier: Token
    head_analysis: Analysis
    modifier_analysis: Analysis
    head_agr: Agr  # the head's case/number/gender/animacy (parser values, pymorphy3-confirmed)
    #: the modifier is the determiner «это» (этот) that pymorphy3 first read as the pronoun
    pronoun_homograph: bool = False

    @property
    def kind(self) -> str:
        """The modifier's kind: participle, ordinal, pronoun (adjectival pronoun/determiner) or adjective."""
        g = self.modifier_analysis.tag.grammemes
        if self.modifier_analysis.tag.POS == "PRTF":
            return "participle"
        if "Anum" in g:
            return "ordinal"
        if "Apro" in g:
            return "pronoun"
        return "adjective"


def _is_modifier(tok: Token) -> bool:
    if tok.base_deprel in MODIFIER_RELS:
        return True
    return tok.base_deprel == "acl" and tok.feats.get("VerbForm") == "Part"


#: at most this many agreeing modifiers on one head (RuBLiMP edits one of several: «первая большая битва»)
MAX_NP_MODIFIERS = 3


def _object_case_repair(sent: Sentence, head: Token, mods: list[Token], morph: Morph) -> tuple[Token, list[Token]]:
    """A direct object the parser left nominative although its form is also accusative («бросил злой
    взгляд»: Nom for Acc) is read as accusative, with its modifiers; other heads are returned as they are."""
    if head.base_deprel != "obj" or head.feats.get("Case") != "Nom":
        return head, mods
    verb = sent.head_of(head)
    if verb is None or verb.upos != "VERB":
        return head, mods
    if not any(r.case == "Acc" and r.number == head.feats.get("Number") for r in noun_readings(morph, head.form, head.lemma, ("NOUN",))):
        return head, mods
    if any(m.feats.get("Case") != "Nom" for m in mods):
        return head, mods

    def acc(t: Token) -> Token:
        return dataclasses.replace(t, feats={**t.feats, "Case": "Acc"})

    return acc(head), [acc(m) for m in mods]


def np_candidates(sent: Sentence, morph: Morph, *, conjoined_heads: bool = False,
                  following: bool = False, coordinated: bool = False) -> Iterator[NPCandidate]:
    """Every (head noun, agreeing modifier) of ``sent`` whose head has at most
    :data:`MAX_NP_MODIFIERS` agreeing modifiers, each pair confirmed to agree.

    With ``following`` the adjective right after a noun that agrees with it but hangs elsewhere
    (:func:`rublimp.trees.modifiers.modifier_after`: «люк открытый[advcl] находился») counts as one
    of its modifiers too (not for case: a depictive after its noun may be instrumental). With
    ``coordinated`` the second of two coordinated adjectives right before the noun
    (:func:`rublimp.trees.modifiers.conjunct_before`: «о скромном и упорном человеке») is one of its
    modifiers as well, and the first is no longer kept out for having a conjunct.

    With ``conjoined_heads`` a head with a conjunct qualifies too, for its
    modifiers BEFORE it: a prenominal modifier agrees with the nearest
    conjunct («мой отец и мать»), so another gender or case is still an error
    (a number change is not: «старые стол и стул» is grammatical).
    """
    for head in sent.tokens:
        if head.upos not in ("NOUN", "PROPN"):
            continue
        kids = sent.children(head)
        mods = [k for k in kids if _is_modifier(k)]
        extra = [modifier_after(sent, head, morph) if following else None,
                 conjunct_before(sent, head, morph) if coordinated else None]
        extra = [t for t in extra if t is not None and t not in mods]
        if extra:
            mods = sorted([*mods, *extra], key=lambda t: t.id)
        ids = frozenset(m.id for m in mods)
        conjoined = any(k.base_deprel == "conj" for k in kids)
        if not 1 <= len(mods) <= MAX_NP_MODIFIERS or (conjoined and not conjoined_heads):
            continue
        head, mods = _object_case_repair(sent, head, mods, morph)
        for mod in mods:
            if conjoined and mod.id > head.id:
                continue
            if _detached(sent, head, mod):
                continue
            cand = _np_candidate(sent, morph, head, mod, ids)
            if cand is not None:
                yield cand


def _detached(sent: Sentence, head: Token, mod: Token) -> bool:
    """Whether punctuation stands between the modifier and its head: a detached participial or
    adjectival phrase («дом, построенный в 1900 году»; «Уставший, отец …») is a secondary predicate
    of its own, not a modifier inside the noun phrase (round 3 of issue 18: read ``not_paradigm``)."""
    lo, hi = sorted((head.id, mod.id))
    return any(sent.token(i).upos == "PUNCT" for i in range(lo + 1, hi))


#: the case a head's relation fixes, for the nominative/accusative repair below
_RELATION_CASE = {"nsubj": "Nom", "obj": "Acc"}


def _nom_acc_repair(head: Token, mod: Token) -> tuple[Token, Token]:
    """Head and modifier the parser split between nominative and accusative («такой[Acc]
    облик[Nom] напоминает», «Отельный[Nom] бизнес[Acc] не развит»): both take the case
    the head's relation fixes (a subject is nominative, a direct object accusative), under any
    other relation the modifier's own case (round 5: a gender or case change of the modifier is an
    error in either case; RuBLiMP's dev pairs take the modifier's: «Наш[Nom] фарт[Acc]» → «Наша»).
    Whether each form really has that reading is checked against pymorphy3 afterwards."""
    cases = {head.feats.get("Case"), mod.feats.get("Case")}
    want = _RELATION_CASE.get(head.base_deprel) or mod.feats.get("Case")
    # (another relation: the modifier's own case, «Наш[Nom] фарт[Acc] ведь что?»; the pymorphy3
    # check that follows keeps only a head form that has it — an inanimate nominative = accusative)
    if cases != {"Nom", "Acc"} or want is None:
        return head, mod

    def recased(t: Token) -> Token:
        return t if t.feats.get("Case") == want else dataclasses.replace(t, feats={**t.feats, "Case": want})

    return recased(head), recased(mod)


def _head_features_from_modifier(sent: Sentence, head: Token, mod: Token, morph: Morph) -> Token:
    """Parser repair: a head whose case or number disagrees with the modifier right before it, while
    one of the head form's own readings has the modifier's case, number (and singular gender), takes
    that reading («Ближайшие[Nom.Pl] села[Gen.Sg]» → села Nom.Pl); otherwise ``head`` as it is.
    (The modifier and head are then checked against pymorphy3 like any other pair.) Not next to a
    numeral or quantity word, whose phrase has agreement of its own («три кольцевые/кольцевых
    автодороги»: both grammatical)."""
    fh, fm = head.feats, mod.feats
    if mod.id != head.id - 1 or not fm.get("Case") or not fm.get("Number"):
        return head
    if any(k.base_deprel == "nummod" or k.upos == "NUM" for k in sent.children(head)):
        return head
    before = [sent.token(i) for i in range(max(1, mod.id - 2), mod.id)]
    if any(t.upos == "NUM" or norm(t.lemma) in QUANTITY_LEMMAS for t in before):
        return head
    if (fh.get("Case"), fh.get("Number")) == (fm["Case"], fm["Number"]):
        return head
    for p in morph.parses(head.form):
        if p.tag.POS != "NOUN":
            continue
        a = agr_from_tag(p.tag)
        if a.case != fm["Case"] or a.number != fm["Number"]:
            continue
        if a.number == "Sing" and fm.get("Gender") not in a.genders:
            continue
        feats = {**fh, "Case": a.case, "Number": a.number}
        if a.gender:
            feats["Gender"] = a.gender
        return dataclasses.replace(head, feats=feats)
    return head


def _modifier_features_from_head(sent: Sentence, head: Token, mod: Token, morph: Morph) -> Token:
    """Parser repair, the converse of :func:`_head_features_from_modifier`: a modifier right before
    its head whose parsed case, number or (singular) gender disagrees with the head's, while its form
    has an adjective reading in exactly the head's case, number and gender, takes that reading
    («такой[Gen] зарядке[Dat]» → такой Dat: the form is fem. gen., dat., ins. and loc. alike; «на
    том[Neut] прохожем[Masc]» → том Masc). Otherwise ``mod`` as it is. Not next to a numeral or
    quantity word (its phrase has agreement of its own), not on a proper name (a name of several
    words, «Золотой Орды», keeps the parser's reading), and not when the head form itself has no
    noun reading in its parsed features (then the head's features are the doubtful ones)."""
    fh, fm = head.feats, mod.feats
    case, number, gender = fh.get("Case"), fh.get("Number"), fh.get("Gender")
    if head.upos != "NOUN" or mod.id != head.id - 1 or case not in CASES or number is None or (number == "Sing" and gender is None):
        return mod
    if (fm.get("Case"), fm.get("Number")) == (case, number) and (number != "Sing" or fm.get("Gender") == gender):
        return mod
    if any(k.base_deprel == "nummod" or k.upos == "NUM" for k in sent.children(head)):
        return mod
    before = [sent.token(i) for i in range(max(1, mod.id - 2), mod.id)]
    if any(t.upos == "NUM" or norm(t.lemma) in QUANTITY_LEMMAS for t in before):
        return mod

    def fits(a) -> bool:
        return a.case == case and a.number == number and (number != "Sing" or gender in a.genders)

    if not any(fits(agr_from_tag(p.tag)) for p in morph.parses(head.form) if p.tag.POS == "NOUN"):
        return mod
    for p in morph.parses(mod.form):
        if p.tag.POS in ADJ_POS and fits(agr_from_tag(p.tag)):
            feats = {**fm, "Case": case, "Number": number}
            if number == "Sing":
                feats["Gender"] = gender
            else:
                feats.pop("Gender", None)
            return dataclasses.replace(mod, feats=feats)
    return mod


def _np_candidate(sent: Sentence, morph: Morph, head: Token, mod: Token,
                  co_modifiers: frozenset[int] = frozenset()) -> NPCandidate | None:
    """The candidate for one head and one of its modifiers, or None when they do not qualify (a
    modifier with a conjunct or an agreeing dependent of its own does not, unless that conjunct is
    itself one of the head's modifiers, ``co_modifiers``: «скромном и упорном человеке»)."""
    if mod.upos not in ("ADJ", "DET", "VERB", "NUM") or norm(mod.form) in NOT_NP_MODIFIERS:
        return None
    if not CYRILLIC_WORD.fullmatch(mod.form):
        return None  # «14-го», «XIX-го»: digit and Latin ordinals
    if any(k.base_deprel in ("conj", "amod", "det") and not (k.base_deprel == "conj" and k.id in co_modifiers)
           for k in sent.children(mod)):
        return None
    head, mod = _nom_acc_repair(head, mod)
    head = _head_features_from_modifier(sent, head, mod, morph)
    mod = _modifier_features_from_head(sent, head, mod, morph)
    head_ud, mod_ud = ud_agr(head), ud_agr(mod)
    if head_ud.case not in CASES or head_ud.number is None:
        return None
    if (mod_ud.case, mod_ud.number) != (head_ud.case, head_ud.number):
        return None
    if head_ud.number == "Sing" and (not head_ud.genders or mod_ud.genders != head_ud.genders):
        return None
    ma = morph.analyse(mod.form, mod.upos, mod.feats)
    homograph = ma is not None and ma.tag.POS == "NPRO" and mod.upos == "DET" and mod.base_deprel == "det"
    if homograph:
        # «Это место»: the determiner read as the pronoun «это»; its adjectival reading (этот) is meant
        ma = morph.analyse(mod.form, "ADJ", mod.feats)
    ha = morph.analyse(head.form, head.upos, head.feats)
    if ma is None or ha is None or ma.tag.POS not in ADJ_POS or ha.tag.POS != "NOUN":
        return None
    if norm(ma.lemma) in NOT_NP_MODIFIERS or "Fixd" in ma.tag.grammemes:
        return None
    if UNRELIABLE_HEAD_TAGS & ha.tag.grammemes:
        return None
    m_agr, h_agr = agr_from_tag(ma.tag), agr_from_tag(ha.tag)
    if not matches_ud(m_agr, mod_ud) or not matches_ud(h_agr, head_ud) or not agrees(m_agr, h_agr):
        return None
    animacy = h_agr.animacy or head.feats.get("Animacy")
    return NPCandidate(head, mod, ha, ma, Agr(head_ud.case, head_ud.number, h_agr.genders, animacy), homograph)


class _NPAgreement(Paradigm):
    """Shared part: find the candidates, re-inflect the modifier, reject ambiguous forms."""
    breaks_agreement = frozenset({"modifier"})  # the self-check: NP-internal agreement is the point

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = "Syntax"
    feature: ClassVar[str]
    resources = ("common_gender_nouns.tsv",)

    def __init__(self, ctx=None) -> None:
        super().__init__(ctx)
        self.common_gender = load_common_gender_nouns(self.ctx.resources_dir / COMMON_GENDER_FILE)

    def targets(self, cand: NPCandidate) -> Iterable[tuple[str, Agr]]:
        """(target value, the features the modifier is inflected to) for one candidate."""
        raise NotImplementedError

    def source_value(self, cand: NPCandidate) -> str:
        h = cand.head_agr
        return {"Number": h.number, "Case": h.case, "Gender": h.gender}[self.feature] or ""

    def forbidden(self, cand: NPCandidate) -> dict[str, str]:
        """The original value of the perturbed feature: the new form must have no reading with it.

        Stricter than the head's full case/number/gender: «соседним облаками»
        (plural dative reading) is no clean number error, so it is rejected.
        """
        h = cand.head_agr
        if self.feature == "Gender":
            return {"Number": "Sing", "Gender": h.gender or ""}
        return {self.feature: self.source_value(cand)}

    #: make only the first target with a safe form (RuBLiMP's edit is deterministic for gender)
    first_only: ClassVar[bool] = False

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for cand in np_candidates(sent, self.morph, conjoined_heads=True, following=self.feature != "Case",
                                  coordinated=True):
            seen: set[str] = set()
            for target, agr in self.targets(cand):
                if seen and self.first_only:
                    break
                word = self._new_form(cand, agr)
                if word is None or word in seen or self._fits_noun_between(sent, cand, word):
                    continue
                seen.add(word)
                word = spell_yo(sent, word)
                yield Perturbation(
                    edits=(Edit(cand.modifier.id, word),),
                    feature=self.feature,
                    source_value=self.source_value(cand),
                    target_value=target,
                    subtype=cand.kind,
                )

    def _new_form(self, cand: NPCandidate, agr: Agr) -> str | None:
        parse = cand.modifier_analysis.parse
        word = inflect_agreeing(self.morph, parse, agr.case or "", agr.number or "", agr.gender, agr.animacy)
        if word is None or norm(word) == norm(cand.modifier.form):
            return None
        # a case change is checked against the head's readings below, with animacy: «болевой приём»
        # → «болевого» (its Acc reading is animate, the head is not), as in RuBLiMP
        if self.feature != "Case" and self.morph.is_ambiguous(word, parse.normal_form, ADJ_POS, self.forbidden(cand)):
            return None
        if self.feature == "Gender" and self.morph.is_ambiguous(
            word.replace("ё", "е"), parse.normal_form, ADJ_POS, {"Number": "Plur", "Case": cand.head_agr.case or ""}
        ):
            return None  # «Всю неделю» → «Все неделю»: read as a plural, the error is one of number
        if not self._same_in_every_lexeme(cand, agr, word):
            return None
        if any(p.tag.POS in FUNCTION_POS for p in self.morph.parses(word)):
            return None  # «Эта версия» → «Это версия»: «это», «то», «все», «всего» also stand alone
        if cand.pronoun_homograph and any(p.tag.POS == "NPRO" for p in self.morph.parses(word)):
            return None  # «это вещество» → «этим вещество»: the pronoun «этим» stands alone («сегодня этим …»)
        # stronger: the new form agrees with no reading at all of the head form
        mod_readings = adjective_readings(self.morph, word, parse.normal_form)
        head_readings = noun_readings(self.morph, cand.head.form, cand.head_analysis.lemma, ("NOUN",))
        if any(agrees(m, hr) for m in mod_readings for hr in head_readings):
            return None
        return word


    def _fits_noun_between(self, sent: Sentence, cand: NPCandidate, word: str) -> bool:
        """A modifier after its head whose new form agrees with a noun standing between them could
        modify that noun instead («астероид главного пояса, принадлежащий» → «принадлежащего»:
        grammatical with «пояса»)."""
        if cand.modifier.id <= cand.head.id + 1:
            return False
        readings = adjective_readings(self.morph, word, cand.modifier_analysis.lemma)
        for i in range(cand.head.id + 1, cand.modifier.id):
            t = sent.token(i)
            if t.upos in ("NOUN", "PROPN", "PRON") and any(agrees(r, ud_agr(t)) for r in readings):
                return True
        return False

    def _same_in_every_lexeme(self, cand: NPCandidate, agr: Agr, word: str) -> bool:
        """The new form is the same whichever adjective the original form belongs to.

        «большая» is a form of both большой and больший; their neuter forms
        differ (большое / большее), so which one would be right is unknown.
        """
        mod = cand.modifier
        for p in self.morph.parses(mod.form):
            if p.tag.POS not in ADJ_POS or p.normal_form == cand.modifier_analysis.lemma:
                continue
            if not matches_ud(agr_from_tag(p.tag), ud_agr(mod)):
                continue
            other = inflect_agreeing(self.morph, p, agr.case or "", agr.number or "", agr.gender, agr.animacy)
            if other is not None and norm(other) != norm(word):
                return False
        return True


@register
class NPAgreementNumber(_NPAgreement):
    """«Ефим припал к холодному металлу.» → «Ефим припал к холодному металлам.»

    RuBLiMP changes the number of the HEAD NOUN (181 of its 200 dev pairs; its
    modifiers, one or more, keep theirs), never of a head that enters another
    agreement relation (:func:`head_number_blocked`). Heads with up to
    ``MAX_MODIFIERS`` agreeing modifiers qualify, each confirmed as agreeing
    by the parser and pymorphy3; the new noun form must agree with no
    reading of any modifier (:func:`renumber_noun`).
    """

    name = "np_agreement_number"
    feature = "Number"
    MAX_MODIFIERS: ClassVar[int] = 3

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """The head noun where it can change (see the class docstring); otherwise — a subject
        whose predicate agrees with it, or a new noun form that could be read in the old number
        («области»: nom. pl. and gen. sg.) — the modifier instead («старый дом стоял» → «старые
        дом стоял»), as RuBLiMP does in some of its pairs. No fallback where the head's number is
        tied to a numeral, quantity word, conjunct or partitive («каждый из …»)."""
        by_head: dict[int, list[NPCandidate]] | None = None
        for head in sent.tokens:
            if head.upos != "NOUN" or head.start < 0 or not CYRILLIC_WORD.fullmatch(head.form):
                continue
            mods = [k for k in sent.children(head) if _is_modifier(k)]
            if not 1 <= len(mods) <= self.MAX_MODIFIERS or head_number_blocked(sent, head, subject=False):
                continue
            if not self.morph.word_is_known(head.form):
                continue
            found = None
            if not head_number_blocked(sent, head, morph=self.morph):
                mods = [m for m in mods if not self._invariable_possessive(m)]
                found_head = self._head_reading(head, mods) if mods else None
                if found_head is None:
                    continue
                ha, analysed = found_head
                found = renumber_noun(self.morph, head, ha, analysed)
            if found is None:
                if by_head is None:
                    by_head = {}
                    for cand in np_candidates(sent, self.morph):
                        by_head.setdefault(cand.head.id, []).append(cand)
                pert = self._modifier_edit(sent, by_head.get(head.id, []))
                if pert is not None:
                    yield pert
                continue
            target, word = found
            yield Perturbation(
                edits=(Edit(head.id, spell_yo(sent, word)),),
                feature=self.feature,
                source_value=head.feats.get("Number", ""),
                target_value=target,
                subtype="head",
            )

    def _modifier_edit(self, sent: Sentence, cands: list[NPCandidate]) -> Perturbation | None:
        """The number change of the modifier nearest to the head (one edit per head), or None; not
        where the head form has a reading in the new number (the pair would read as a case error)."""
        for cand in sorted(cands, key=lambda c: abs(c.modifier.id - c.head.id)):
            if norm(cand.modifier_analysis.lemma) in PLURAL_ONLY_MODIFIERS or cand.modifier.base_deprel == "nummod":
                continue
            for target, agr in number_targets(self._with_lexeme_gender(cand)):
                if any(r.number == target for r in
                       noun_readings(self.morph, cand.head.form, cand.head_analysis.lemma, ("NOUN",))):
                    continue  # «старый дома»: the head could be read in the new number (gen. sg.)
                word = self._new_form(cand, agr)
                if word is None or self._fits_noun_between(sent, cand, word):
                    continue
                return Perturbation(
                    edits=(Edit(cand.modifier.id, spell_yo(sent, word)),),
                    feature=self.feature,
                    source_value=cand.head_agr.number or "",
                    target_value=target,
                    subtype=f"modifier:{cand.kind}",
                )
        return None

    def _with_lexeme_gender(self, cand: NPCandidate) -> Agr:
        """The head's features, a plural head given its lexeme's gender (a plural form shows none:
        «старые дома» → the singular modifier «старый»); pluralia tantum and common-gender nouns
        get none (no singular target then)."""
        h = cand.head_agr
        if h.number != "Plur":
            return h
        parse = cand.head_analysis.parse
        if {"Pltm", "ms-f"} & cand.head_analysis.tag.grammemes:
            return h
        lemma = next((p for p in self.morph.parses(cand.head_analysis.lemma)
                      if p.tag.POS == "NOUN" and p.normal_form == parse.normal_form and "sing" in p.tag.grammemes), None)
        genders = agr_from_tag(lemma.tag).genders if lemma is not None else frozenset()
        # round 3: a plural form that is also the plural of a noun of another gender (masc. and fem.
        # lexemes: «рельсы» of рельс/рельса) gives the singular modifier no safe gender — a reader
        # may take the other lexeme and see a second, gender error: no singular target
        plural_genders = {g for p in self.morph.parses(cand.head.form)
                          if p.tag.POS == "NOUN" and p.tag.number == "plur" for g in agr_from_tag(p.tag).genders}
        if len(plural_genders) > 1:
            return Agr(h.case, h.number, frozenset(), h.animacy)
        # the lexeme's gender over a gender the parser gave the plural form
        return Agr(h.case, h.number, genders, h.animacy) if len(genders) == 1 else h

    def _invariable_possessive(self, mod: Token) -> bool:
        """«его», «её», «их» as determiners («все её жалобы»): they do not agree, so they are no
        modifiers whose agreement a number change breaks (nor do they stop one)."""
        return mod.base_deprel == "det" and norm(mod.form) in INVARIABLE_POSSESSIVES

    def _head_reading(self, head: Token, mods: list[Token]) -> tuple[Analysis, list[tuple[str, str]]] | None:
        """(the head's reading, (form, lemma) of each modifier) with every modifier agreeing, or None.

        The reading pymorphy3 ranks first for the parser's features is tried first; when it fails —
        the parser misread the head's gender («второй медиальной жилки»: Masc), or the form belongs to
        two nouns («в старом карьере»: карьера/карьер) — another noun reading in the parser's case
        and number with which every modifier agrees is taken (repair decided by the modifiers)."""
        ha = self.morph.analyse(head.form, head.upos, head.feats)
        ud = ud_agr(head)
        tried = None
        if ha is not None and ha.tag.POS == "NOUN" and matches_ud(agr_from_tag(ha.tag), ud):
            tried = ha.parse
            analysed = [self._agreeing_modifier(m, ha, head) for m in mods]
            if all(x is not None for x in analysed):
                return ha, analysed
        for p in self.morph.parses(head.form):
            a = agr_from_tag(p.tag)
            if p.tag.POS != "NOUN" or a.case != ud.case or a.number != ud.number or p == tried:
                continue  # (the first reading is tried again when only the parser's gender failed it)
            cand = Analysis(p, 0.0)
            analysed = [self._agreeing_modifier(m, cand, head) for m in mods]
            if all(x is not None for x in analysed):
                return cand, analysed
        return None

    def _agreeing_modifier(self, mod: Token, ha: Analysis, head: Token | None = None) -> tuple[str, str] | None:
        """(form, lemma) of a modifier that agrees with the head in both analyses, else None.

        Any adjectival reading of the modifier may agree (the parser's case may be the other one of
        a nominative/accusative pair: «Главные[Acc] культуры[Nom]»); the determiner «это», «этом»,
        … which pymorphy3 first reads as the pronoun is taken as «этот»."""
        if not (mod.upos in ("ADJ", "DET", "VERB", "NUM") or (mod.upos == "PRON" and mod.base_deprel == "det"
                                                               and head is not None and mod.id < head.id)) \
                or not CYRILLIC_WORD.fullmatch(mod.form):
            # (a determiner «этом», «этого» the parser tagged PRON before its noun: «об этом[PRON] налёте»;
            # after the noun it may be the pronoun's genitive: «для решения этого»)
            return None
        ma = self.morph.analyse(mod.form, mod.upos, mod.feats)
        if ma is not None and ma.tag.POS == "NPRO" and mod.upos in ("DET", "PRON"):
            if norm(mod.form) == "это":
                return None  # «это вещества синтезируют»: «это» may be the pronoun subject ('these are …')
            ma = self.morph.analyse(mod.form, "ADJ", mod.feats)
        if ma is None and mod.upos == "VERB":
            ma = self.morph.analyse(mod.form, "ADJ", mod.feats)  # «усталым[VERB]»: an adjective, no participle
        if ma is None or ma.tag.POS not in ADJ_POS or "Fixd" in ma.tag.grammemes:
            return None
        h_agr = agr_from_tag(ha.tag)
        if norm(ma.lemma) == "сам" and head is not None and mod.id < head.id:
            # «у самой границы», «в самом деле»: a form shared with the superlative «самый» before
            # its noun is «самый» (a number change of the noun breaks its agreement either way)
            ma = next((Analysis(p, 1.0) for p in self.morph.readings(mod.form, "самый", ADJ_POS)
                       if agrees(agr_from_tag(p.tag), h_agr)), ma)
        if norm(ma.lemma) in NOT_NP_MODIFIERS or norm(ma.lemma) in PLURAL_ONLY_MODIFIERS:
            return None
        if not agrees(agr_from_tag(ma.tag), h_agr) \
                and not any(agrees(r, h_agr) for r in adjective_readings(self.morph, mod.form, ma.lemma)):
            return None
        return mod.form, ma.lemma


@register
class NPAgreementGender(_NPAgreement):
    """«Титул того сезона отошёл им.» → «Титул той сезона отошёл им.»"""

    name = "np_agreement_gender"
    feature = "Gender"
    first_only = True  # RuBLiMP: masculine/neuter → feminine, feminine → masculine
    _sent: Sentence | None = None  # the sentence being perturbed (its verbs may settle a head's gender)

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        self._sent = sent
        yield from super().perturb(sent)

    def targets(self, cand):
        h = cand.head_agr
        if h.number != "Sing" or h.gender is None:
            return
        if has_common_gender(self.morph, cand.head, cand.head_analysis, self.common_gender) \
                and not self._predicate_settles(cand):
            return
        yield from gender_targets(h)

    def _predicate_settles(self, cand) -> bool:
        """Whether a common-gender head («историк», «редактор») is the subject of a singular past verb
        or short form in its own grammatical gender, which settles the referent's sex: «Польский
        историк отмечал» → «Польская историк отмечал» is no longer a female historian. A verb in the
        other gender settles nothing here («главный редактор придумала» → «главная редактор»)."""
        head, gender = cand.head, cand.head_agr.gender
        if head.base_deprel != "nsubj" or gender is None:
            return False
        verb = self._sent.head_of(head) if self._sent is not None else None
        if verb is None or [k.id for k in self._sent.children(verb) if k.base_deprel in ("nsubj", "csubj")] != [head.id]:
            return False  # (another subject: the parser hung the noun on a verb not its own, «я получил ..., Первый Спикер»)
        return verb.feats.get("Number") == "Sing" and verb.feats.get("Gender") == gender and (
            verb.feats.get("Tense") == "Past" or verb.feats.get("Variant") == "Short")


@register
class NPAgreementCase(_NPAgreement):
    """«Золото нашли в этом районе.» → «Золото нашли в этого районе.»"""

    name = "np_agreement_case"
    feature = "Case"

    def targets(self, cand):
        yield from case_targets(cand.head_agr)
