"""Subject–predicate agreement validation (the ``validate_agreement`` stage).

* The edges it counts come from the tree layer (:func:`rublimp.trees.edges.subject_predicate_edges`,
  re-exported here): every subject–predicate relation of a parsed sentence with the word that
  carries agreement, the kind of subject, the word order and the parser's confidence.
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
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import polars as pl

from .conllu_doc import Sentence, read_conllu
from .io import InputError, write_csv_atomic, write_parquet_atomic
from .trees.normalise import normalise
from .trees.edges import (  # noqa: F401  (the edge names are re-exported here)
    DEFAULT_VALUES,
    FEATURES,
    NONAGREEING_SUBJECTS,
    AgreementEdge,
    ConditionKey,
    nominal_value,
    predicate_value,
    subject_kind,
    subject_predicate_edges,
)

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

PRED_TYPES: tuple[str, ...] = ("verb", "aux", "part_shortadj")
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


# -- validation -------------------------------------------------------------
def count_conditions(sentences: Iterable[Sentence], *, min_conf: float = 0.0) -> Counter:
    """``Counter`` of ``(key, agrees)`` over all usable edges with confidence ≥ ``min_conf``.

    A feature is counted only when both sides carry it (R1): the subject value
    is defined and the predicate marks the feature.
    """
    counts: Counter = Counter()
    for sent in sentences:
        for edge in subject_predicate_edges(normalise(sent)):
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
