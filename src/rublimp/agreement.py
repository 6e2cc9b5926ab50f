"""Subject–predicate agreement: edge extraction and data-driven validation.

Two things live here:

* :func:`subject_predicate_edges` finds every subject–predicate relation of a
  parsed sentence together with the word that actually carries agreement (the
  finite verb, the finite form of быть in copular/auxiliary constructions, or a
  short adjective/participle), the kind of subject, the word order and the
  parser's confidence in the subject edge.
* :func:`validate_agreement` implements the agreement validation of MultiBLiMP
  (Jumelet et al., 2025, §4.2): co-occurrence counts per *agreement condition*
  ``(feature, pred_type, subject_value, order)`` and two one-sided binomial
  tests against ``p0`` with a Bonferroni correction, giving each condition a
  verdict ``certain`` / ``uncertain`` / ``absent``. Paradigms drop pairs whose
  condition is ``absent`` (see :func:`load_verdicts` and
  :attr:`rublimp.paradigms.base.ParadigmContext.agreement`).

Subjects that do not control agreement in Russian (genitive subjects of negated
predicates, quantified subjects, clauses) are kept as their own subject values
``Gen``, ``Quant`` and ``Clause``; for them "agreement" means that the predicate
carries the default value 3sg.N (``Sing`` / ``Neut`` / ``3``). This extends
MultiBLiMP, which drops clausal subjects, so that the RuBLiMP genitive and
clausal paradigms can be validated the same way.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import polars as pl

from .conllu_doc import Sentence, Token, read_conllu
from .io import InputError, write_csv_atomic, write_parquet_atomic
from .morph import UD2OC, get_morph

__all__ = [
    "FEATURES",
    "PRED_TYPES",
    "DEFAULT_VALUES",
    "NONAGREEING_SUBJECTS",
    "AgreementEdge",
    "subject_predicate_edges",
    "subject_kind",
    "predicate_value",
    "count_conditions",
    "agreement_table",
    "validate_agreement",
    "validate_conllu_files",
    "write_agreement_table",
    "load_verdicts",
    "TABLE_SCHEMA",
]

FEATURES: tuple[str, ...] = ("Number", "Gender", "Person")
PRED_TYPES: tuple[str, ...] = ("verb", "aux", "part_shortadj")
#: the value a predicate takes when its subject does not control agreement (3sg.N)
DEFAULT_VALUES: dict[str, str] = {"Number": "Sing", "Gender": "Neut", "Person": "3"}
#: subject kind -> the subject_value used in agreement conditions
NONAGREEING_SUBJECTS: dict[str, str] = {"genitive": "Gen", "quantified": "Quant", "clausal": "Clause"}

SUBJECT_RELS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass"})
AUX_RELS = frozenset({"aux", "aux:pass", "cop"})
# MultiBLiMP §4.1: predicates with these dependents are clausal-subject constructions
OUTER_RELS = frozenset({"expl", "csubj:outer", "nsubj:outer"})
# quantifier words that make a subject "quantified" (много людей пришло / пришли)
QUANT_WORDS = frozenset({"много", "немного", "мало", "немало", "несколько", "сколько", "столько", "сколько-то"})
NOMINAL_UPOS = frozenset({"NOUN", "PROPN", "PRON", "DET", "ADJ", "NUM", "X", "SYM"})

TABLE_SCHEMA: dict[str, pl.DataType] = {
    "feature": pl.String,
    "pred_type": pl.String,
    "subject_value": pl.String,
    "order": pl.String,
    "n": pl.Int64,
    "n_agree": pl.Int64,
    "share": pl.Float64,
    "p_agree": pl.Float64,
    "p_disagree": pl.Float64,
    "verdict": pl.String,
}
_KEY_COLS = ("feature", "pred_type", "subject_value", "order")
VERDICTS = ("certain", "uncertain", "absent")

ConditionKey = tuple[str, str, str, str]


# -- edges ------------------------------------------------------------------
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


def _is_byt(tok: Token) -> bool:
    return tok.lemma.lower().replace("ё", "е") == "быть"


def _is_byt_present(tok: Token) -> bool:
    return _is_byt(tok) and tok.form.lower() in BYT_PRESENT_FORMS


def _is_finite(tok: Token) -> bool:
    return tok.feats.get("VerbForm") == "Fin" and tok.feats.get("Mood") != "Imp"


def _is_short(tok: Token) -> bool:
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
        if feats.get("Tense") == "Past" or _is_short(tok):
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
    if case == "Acc" and _has_nominative_reading(subj):
        # nominative and accusative coincide for inanimate nouns; taggers confuse them
        return "nominal"
    return "other"


def _has_nominative_reading(tok: Token) -> bool:
    number = UD2OC["Number"].get(tok.feats.get("Number", ""), None)
    for p in get_morph().parses(tok.form):
        if "nomn" in p.tag.grammemes and (number is None or number in p.tag.grammemes):
            return True
    return False


def _negated(sent: Sentence, *toks: Token) -> bool:
    for tok in toks:
        if tok.lemma.lower() == "нет":
            return True
        for kid in sent.children(tok):
            if kid.lemma.lower() == "не" and kid.base_deprel in ("advmod", "discourse", "aux", "dep"):
                return True
    return False


def _agreeing_word(sent: Sentence, pred: Token) -> tuple[Token | None, str, tuple[Token, ...]]:
    """(agreeing word, pred_type, co-agreeing words) for a predicate, or (None, "", ())."""
    auxes = [
        k
        for k in sent.children(pred)
        if k.deprel in AUX_RELS and _is_byt(k) and _is_finite(k) and not _is_byt_present(k)
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
    if pred.upos in ("VERB", "AUX") and _is_finite(pred):
        if _is_byt_present(pred):
            return None, "", ()
        return pred, "verb", ()
    if _is_short(pred) and pred.upos in ("ADJ", "VERB", "AUX", "DET"):
        return pred, "part_shortadj", ()
    return None, "", ()


def _head_conf(sent: Sentence, tok: Token) -> float:
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
    быть) are left out. Edges are returned in subject order.
    """
    edges: list[AgreementEdge] = []
    for subj in sent.tokens:
        if subj.deprel not in SUBJECT_RELS or subj.head == 0:
            continue
        pred = sent.token(subj.head)
        agreeing, pred_type, co = _agreeing_word(sent, pred)
        if agreeing is None:
            continue
        kind = subject_kind(sent, subj)
        negated = _negated(sent, pred, agreeing)
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
                conf=_head_conf(sent, subj),
                subject_kind=kind,
                coordinated=any(k.deprel == "conj" for k in sent.children(subj)),
                outer=any(k.deprel in OUTER_RELS for k in sent.children(pred)),
                negated=negated,
                co_agreeing=co,
            )
        )
    return edges


# -- validation -------------------------------------------------------------
def count_conditions(sentences: Iterable[Sentence], *, min_conf: float = 0.0) -> Counter:
    """``Counter`` of ``(key, agrees)`` over all usable edges with confidence ≥ ``min_conf``.

    A feature is counted only when both sides carry it (R1): the subject value
    is defined and the predicate marks the feature.
    """
    counts: Counter = Counter()
    for sent in sentences:
        for edge in subject_predicate_edges(sent):
            if not edge.usable or edge.conf < min_conf:
                continue
            for feature in FEATURES:
                key = edge.key(feature)
                pv = edge.predicate_value(feature)
                if key is None or pv is None:
                    continue
                counts[(key, pv == edge.expected_value(feature))] += 1
    return counts


def agreement_table(counts: Mapping[ConditionKey, tuple[int, int]], *, p0: float = 0.9, alpha: float = 0.1) -> pl.DataFrame:
    """Verdicts for conditions given as ``key -> (n, n_agree)``, following MultiBLiMP §4.2 literally.

    For each condition with ``n > 0`` two exact one-sided binomial tests of the
    agreement share are run (``scipy.stats.binomtest``):

    * ``p_agree``: H0 "P(agree) ≤ p0" against "P(agree) > p0";
    * ``p_disagree``: H0 "P(agree) ≥ p0" against "P(agree) < p0".

    With ``m`` tested conditions (Bonferroni over all of them) the verdict is

    * ``certain`` when ``p_agree < alpha / m`` (agreement significantly above p0),
    * ``absent`` when ``p_disagree < alpha / m`` (agreement ruled out),
    * ``uncertain`` when neither test is significant.

    The two tests cannot both be significant for ``alpha / m < 0.5``. The
    p-values in the table are the raw ones; the threshold is ``alpha / height``.
    """
    if not 0.0 < p0 < 1.0:
        raise InputError(f"agreement p0 must lie in (0, 1), got {p0}")
    if not 0.0 < alpha < 1.0:
        raise InputError(f"agreement alpha must lie in (0, 1), got {alpha}")
    from scipy.stats import binomtest  # imported here: scipy.stats costs seconds at start-up

    tested = {k: v for k, v in counts.items() if v[0] > 0}
    m = len(tested)
    rows = []
    for key in sorted(tested):
        n, k = tested[key]
        if not 0 <= k <= n:
            raise ValueError(f"condition {key}: n_agree={k} outside 0..n={n}")
        p_agree = binomtest(k, n, p0, alternative="greater").pvalue
        p_disagree = binomtest(k, n, p0, alternative="less").pvalue
        if p_agree < alpha / m:
            verdict = "certain"
        elif p_disagree < alpha / m:
            verdict = "absent"
        else:
            verdict = "uncertain"
        rows.append(
            dict(zip(_KEY_COLS, key))
            | {"n": n, "n_agree": k, "share": k / n, "p_agree": float(p_agree), "p_disagree": float(p_disagree), "verdict": verdict}
        )
    df = pl.DataFrame(rows, schema=TABLE_SCHEMA) if rows else pl.DataFrame(schema=TABLE_SCHEMA)
    return df.sort(list(_KEY_COLS))


def validate_agreement(
    sentences: Iterable[Sentence], *, min_conf: float = 0.0, p0: float = 0.9, alpha: float = 0.1
) -> pl.DataFrame:
    """Agreement verdict table for parsed sentences (see :func:`agreement_table` for the rule).

    ``min_conf`` drops subject edges whose parser confidence (MISC ``HeadConf``)
    is below it. Columns: feature, pred_type, subject_value, order, n,
    n_agree, share, p_agree, p_disagree, verdict; sorted by the four key columns.
    """
    counts = count_conditions(sentences, min_conf=min_conf)
    per_key: dict[ConditionKey, list[int]] = {}
    for (key, agrees), c in counts.items():
        slot = per_key.setdefault(key, [0, 0])
        slot[0] += c
        if agrees:
            slot[1] += c
    return agreement_table({k: (v[0], v[1]) for k, v in per_key.items()}, p0=p0, alpha=alpha)


def validate_conllu_files(
    paths: Sequence[str | os.PathLike],
    *,
    min_conf: float = 0.0,
    p0: float = 0.9,
    alpha: float = 0.1,
    progress: bool = True,
) -> pl.DataFrame:
    """:func:`validate_agreement` over parsed CoNLL-U files (streamed)."""

    def sents() -> Iterable[Sentence]:
        for p in paths:
            yield from read_conllu(p)

    it: Iterable[Sentence] = sents()
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(it, desc="agreement", unit="sent", disable=None)
    return validate_agreement(it, min_conf=min_conf, p0=p0, alpha=alpha)


def write_agreement_table(df: pl.DataFrame, parquet_path: str | os.PathLike, csv_path: str | os.PathLike | None = None) -> None:
    """Write the verdict table as Parquet (and optionally CSV), each atomically."""
    write_parquet_atomic(df, parquet_path)
    if csv_path is not None:
        write_csv_atomic(df, csv_path)


def load_verdicts(path: str | os.PathLike) -> dict[ConditionKey, str]:
    """``(feature, pred_type, subject_value, order) -> verdict`` from a table written by :func:`write_agreement_table`.

    Reads Parquet, or CSV when the name ends in ``.csv``; a missing file,
    missing columns or an unknown verdict raise :class:`~rublimp.io.InputError`.
    """
    path = Path(path)
    if not path.exists():
        raise InputError("agreement table not found", path)
    try:
        if path.suffix.lower() == ".csv":
            df = pl.read_csv(path, schema_overrides={c: pl.String for c in (*_KEY_COLS, "verdict")})
        else:
            df = pl.read_parquet(path)
    except Exception as exc:  # polars raises several exception types for unreadable files
        raise InputError(f"cannot read agreement table: {exc}", path) from exc
    missing = [c for c in (*_KEY_COLS, "verdict") if c not in df.columns]
    if missing:
        raise InputError(f"agreement table lacks column(s) {', '.join(missing)}", path)
    out: dict[ConditionKey, str] = {}
    for i, row in enumerate(df.select(*_KEY_COLS, "verdict").iter_rows()):
        verdict = row[4]
        if verdict not in VERDICTS:
            # header is line 1 in a CSV file
            raise InputError(f"unknown verdict {verdict!r} (expected one of {', '.join(VERDICTS)})", path, i + 2 if path.suffix.lower() == ".csv" else None)
        out[tuple(str(x) for x in row[:4])] = verdict  # type: ignore[assignment]
    return out
