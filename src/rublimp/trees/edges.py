"""Subject–predicate edges of a UD tree: who agrees with whom, and on which word.

:func:`subject_predicate_edges` finds every subject–predicate relation (nsubj, nsubj:pass, csubj,
csubj:pass) of a sentence whose predicate carries agreement, together with the word inflected for it
(the finite verb, the finite быть of a compound predicate, or a short adjective/participle), the kind
of subject, the word order and the parser's confidence in the subject edge (:class:`AgreementEdge`).
The agreement validation (:mod:`rublimp.agreement_validation`) counts these edges; the agreement
paradigms read them from the repaired tree.

Subjects that do not control agreement (genitive subjects of negation, quantified subjects, clauses)
keep their own subject values ``Gen``, ``Quant`` and ``Clause``; for them the predicate agrees when it
carries the default 3sg.N.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import UD2OC, get_morph
from .lexical import QUANT_WORDS
from .memo import sentence_memo

__all__ = [
    "DEFAULT_VALUES",
    "FEATURES",
    "NONAGREEING_SUBJECTS",
    "SUBJECT_RELS",
    "AUX_RELS",
    "OUTER_RELS",
    "QUANT_WORDS",
    "NOMINAL_UPOS",
    "ConditionKey",
    "AgreementEdge",
    "BYT_PRESENT_FORMS",
    "is_byt",
    "is_byt_present",
    "is_finite",
    "is_short",
    "predicate_value",
    "nominal_value",
    "subject_kind",
    "has_nominative_reading",
    "negated_by_ne",
    "agreeing_word",
    "head_conf",
    "subject_predicate_edges",
]

#: the value a predicate takes when its subject does not control agreement (3sg.N)
#: the agreement features counted by validation and checked by the pair self-check
FEATURES: tuple[str, ...] = ("Number", "Gender", "Person")
DEFAULT_VALUES: dict[str, str] = {"Number": "Sing", "Gender": "Neut", "Person": "3"}
#: subject kind -> the subject_value used in agreement conditions
NONAGREEING_SUBJECTS: dict[str, str] = {"genitive": "Gen", "quantified": "Quant", "clausal": "Clause"}

SUBJECT_RELS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass"})
AUX_RELS = frozenset({"aux", "aux:pass", "cop"})
# MultiBLiMP §4.1: predicates with these dependents are clausal-subject constructions
OUTER_RELS = frozenset({"expl", "csubj:outer", "nsubj:outer"})
NOMINAL_UPOS = frozenset({"NOUN", "PROPN", "PRON", "DET", "ADJ", "NUM", "X", "SYM"})

ConditionKey = tuple[str, str, str, str]


@dataclass(frozen=True, eq=False)
class AgreementEdge:
    """One subject–predicate relation and the word that carries agreement.

    ``predicate`` is the head of the subject relation (the lexical predicate),
    ``agreeing`` the word inflected for agreement: the predicate itself for a
    finite verb (``pred_type="verb"``) or a short adjective/participle
    (``"part_shortadj"``), or the finite быть attached to it as ``aux``,
    ``aux:pass`` or ``cop`` (``"aux"``). ``co_agreeing`` lists further words
    that agree together with an auxiliary (the participle of «была закрыта»,
    the adjective of «была известной»), so that a change of number or gender
    can be applied to the whole predicate.
    """

    sent_id: str
    subject: Token
    predicate: Token
    agreeing: Token
    pred_type: str
    order: str  # "SV" or "VS": subject before / after the agreeing word
    conf: float  # parser confidence of the subject edge (MISC HeadConf; 1.0 when absent)
    subject_kind: str  # nominal | genitive (of negation) | quantified | clausal | other
    coordinated: bool = False  # the subject has conjuncts (Маша и Петя пришли)
    outer: bool = False  # the predicate has an expl / *:outer dependent
    negated: bool = False  # the predicate or its auxiliary is negated by «не»
    co_agreeing: tuple[Token, ...] = ()

    @property
    def usable(self) -> bool:
        """Whether the edge enters the validation counts (MultiBLiMP §4.1 filters)."""
        return not self.coordinated and not self.outer and self.subject_kind != "other"

    def subject_value(self, feature: str) -> str | None:
        """The subject's value of ``feature`` as used in the condition key.

        Nominal subjects give their own value (nouns are inherently 3rd
        person); gender is only defined for non-plural subjects. Non-agreeing
        subjects give their kind label (``Gen``, ``Quant``, ``Clause``).
        """
        if self.subject_kind in NONAGREEING_SUBJECTS:
            return NONAGREEING_SUBJECTS[self.subject_kind]
        if self.subject_kind != "nominal":
            return None
        return nominal_value(self.subject, feature)

    def expected_value(self, feature: str) -> str | None:
        """The predicate value that counts as agreement for ``feature``."""
        if self.subject_kind in NONAGREEING_SUBJECTS:
            return DEFAULT_VALUES[feature]
        return self.subject_value(feature)

    def predicate_value(self, feature: str) -> str | None:
        return predicate_value(self.agreeing, feature)

    def key(self, feature: str) -> ConditionKey | None:
        """The agreement condition ``(feature, pred_type, subject_value, order)``."""
        sv = self.subject_value(feature)
        if sv is None:
            return None
        return (feature, self.pred_type, sv, self.order)


# present-tense forms of быть: they do not agree in modern Russian («они есть»);
# checked by form because taggers often label future будет/будете as Tense=Pres
BYT_PRESENT_FORMS = frozenset({"есть", "суть", "есмь", "еси"})


def is_byt(tok: Token) -> bool:
    return tok.lemma.lower().replace("ё", "е") == "быть"


def is_byt_present(tok: Token) -> bool:
    return is_byt(tok) and tok.form.lower() in BYT_PRESENT_FORMS


def is_finite(tok: Token) -> bool:
    return tok.feats.get("VerbForm") == "Fin" and tok.feats.get("Mood") != "Imp"


def is_short(tok: Token) -> bool:
    return tok.feats.get("Variant") == "Short"


def predicate_value(tok: Token, feature: str) -> str | None:
    """The value of ``feature`` that ``tok`` marks as an agreeing predicate, or None.

    Number is read wherever annotated; gender only where Russian predicates
    mark it (singular past-tense verbs and singular short forms); person only
    on present/future finite verbs (MultiBLiMP's requirement R1).
    """
    feats = tok.feats
    if feature == "Number":
        return feats.get("Number")
    if feature == "Gender":
        if feats.get("Number", "Sing") != "Sing":
            return None
        if feats.get("Tense") == "Past" or is_short(tok):
            return feats.get("Gender")
        return None
    if feature == "Person":
        if feats.get("VerbForm") == "Fin" and feats.get("Tense") in ("Pres", "Fut"):
            return feats.get("Person")
        return None
    raise ValueError(f"unknown agreement feature {feature!r}")


def nominal_value(tok: Token, feature: str) -> str | None:
    """A nominal subject's inherent value of ``feature`` (nouns are 3rd person)."""
    feats = tok.feats
    if feature == "Number":
        return feats.get("Number")
    if feature == "Gender":
        if feats.get("Number") == "Plur":
            return None
        return feats.get("Gender")
    if feature == "Person":
        if "Person" in feats:
            return feats["Person"]
        if tok.upos in ("NOUN", "PROPN") or (tok.upos in NOMINAL_UPOS and "Number" in feats):
            return "3"
        return None
    raise ValueError(f"unknown agreement feature {feature!r}")


def subject_kind(sent: Sentence, subj: Token) -> str:
    """``nominal``, ``genitive``, ``quantified``, ``clausal`` or ``other`` (an oblique-case subject).

    This looks at the subject alone; :func:`subject_predicate_edges` further
    turns a genitive subject of a predicate without «не»/«нет» into ``other``.
    """
    if subj.base_deprel == "csubj":
        # an infinitive clause or one introduced by a subordinator; a bare finite
        # "clause" is a parsing artefact (e.g. the idiom «как следует отдохнёт»)
        if subj.feats.get("VerbForm") == "Inf" or any(k.deprel == "mark" for k in sent.children(subj)):
            return "clausal"
        return "other"
    lemma = subj.lemma.lower()
    if subj.upos == "NUM" and lemma not in ("один", "1"):
        return "quantified"
    if lemma in QUANT_WORDS:
        return "quantified"
    for kid in sent.children(subj):
        if kid.deprel == "nummod:gov":
            return "quantified"
        if kid.deprel in ("nummod", "det", "advmod", "amod") and kid.lemma.lower() in QUANT_WORDS:
            return "quantified"
        if kid.deprel == "nummod" and kid.lemma.lower() not in ("один", "1"):
            return "quantified"
    case = subj.feats.get("Case")
    if case == "Gen":
        return "genitive"
    if case in (None, "Nom"):
        return "nominal"
    if case == "Acc" and has_nominative_reading(subj):
        # nominative and accusative coincide for inanimate nouns; taggers confuse them
        return "nominal"
    return "other"


def has_nominative_reading(tok: Token) -> bool:
    number = UD2OC["Number"].get(tok.feats.get("Number", ""), None)
    for p in get_morph().parses(tok.form):
        if "nomn" in p.tag.grammemes and (number is None or number in p.tag.grammemes):
            return True
    return False


def negated_by_ne(sent: Sentence, *toks: Token) -> bool:
    for tok in toks:
        if tok.lemma.lower() == "нет":
            return True
        for kid in sent.children(tok):
            if kid.lemma.lower() == "не" and kid.base_deprel in ("advmod", "discourse", "aux", "dep"):
                return True
    return False


def agreeing_word(sent: Sentence, pred: Token) -> tuple[Token | None, str, tuple[Token, ...]]:
    """(agreeing word, pred_type, co-agreeing words) for a predicate, or (None, "", ())."""
    auxes = [
        k
        for k in sent.children(pred)
        if k.deprel in AUX_RELS and is_byt(k) and is_finite(k) and not is_byt_present(k)
    ]
    if auxes:
        aux = auxes[0]
        co: tuple[Token, ...] = ()
        # the predicate agrees together with быть when it is adjectival
        # (short or long adjective, participle) and shares its number/gender
        adjectival = pred.upos in ("ADJ", "DET") or (pred.upos in ("VERB", "AUX") and pred.feats.get("VerbForm") == "Part")
        if adjectival and pred.feats.get("Number") and pred.feats.get("Number") == aux.feats.get("Number"):
            g1, g2 = pred.feats.get("Gender"), aux.feats.get("Gender")
            if g1 is None or g2 is None or g1 == g2:
                co = (pred,)
        return aux, "aux", co
    if pred.upos in ("VERB", "AUX") and is_finite(pred):
        if is_byt_present(pred):
            return None, "", ()
        return pred, "verb", ()
    if is_short(pred) and pred.upos in ("ADJ", "VERB", "AUX", "DET"):
        return pred, "part_shortadj", ()
    return None, "", ()


def head_conf(sent: Sentence, tok: Token) -> float:
    raw = tok.misc.get("HeadConf")
    if raw is None or raw == "":
        return 1.0
    try:
        return float(raw)
    except ValueError:
        raise InputError(f"sentence {sent.sent_id}: token {tok.id} has a malformed HeadConf={raw!r}") from None


def subject_predicate_edges(sent: Sentence) -> list[AgreementEdge]:
    """Every subject–predicate relation (nsubj, nsubj:pass, csubj, csubj:pass) with an agreeing word.

    Relations whose predicate carries no agreement (nominal predicates without
    a past/future быть, long adjectives, infinitives, imperatives, present
    быть) are left out. Edges are returned in subject order. Memoised per sentence object (the
    normalisation's subject fixes and the edge functions ask for the same tree's edges): callers
    must not change the list.
    """
    return sentence_memo(sent, "subject_predicate_edges", lambda: _subject_predicate_edges(sent))


def _subject_predicate_edges(sent: Sentence) -> list[AgreementEdge]:
    edges: list[AgreementEdge] = []
    for subj in sent.tokens:
        if subj.deprel not in SUBJECT_RELS or subj.head == 0:
            continue
        pred = sent.token(subj.head)
        agreeing, pred_type, co = agreeing_word(sent, pred)
        if agreeing is None:
            continue
        kind = subject_kind(sent, subj)
        negated = negated_by_ne(sent, pred, agreeing)
        if kind == "genitive" and not negated:
            # a genitive subject without negation is almost always a tagging
            # error (a nominative read as genitive), not a genitive of negation
            kind = "other"
        edges.append(
            AgreementEdge(
                sent_id=sent.sent_id,
                subject=subj,
                predicate=pred,
                agreeing=agreeing,
                pred_type=pred_type,
                order="SV" if subj.id < agreeing.id else "VS",
                conf=head_conf(sent, subj),
                subject_kind=kind,
                coordinated=any(k.deprel == "conj" for k in sent.children(subj)),
                outer=any(k.deprel in OUTER_RELS for k in sent.children(pred)),
                negated=negated,
                co_agreeing=co,
            )
        )
    return edges
