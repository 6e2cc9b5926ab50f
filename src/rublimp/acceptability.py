"""RuCoLA-style single-sentence acceptability: PenLP and SLOR thresholds, MCC with a bootstrap CI.

Each sentence is an item labelled 1 (acceptable) or 0.  Two length-normalised LM scores
(Lau et al. 2020; RuCoLA §4):

* PenLP(s) = log P_LM(s) / ((5 + |s|) / 6)^α  (:func:`rublimp.evaluation.penlp`);
* SLOR(s) = (log P_LM(s) − log P_unigram(s)) / |s|, with |s| the number of LM tokens and
  P_unigram the product of the tokens' unigram probabilities, counted once per tokenizer
  over the corpus stage's sentences (:func:`count_unigrams`, add-one smoothed).

For each score the threshold maximising MCC on a dev split is applied to the test split;
test MCC gets a percentile bootstrap confidence interval.  The pipeline builds the items
from the evaluated minimal pairs (both sentences of a pair fall on the same side of the
split); ``python -m rublimp acceptability`` scores a RuCoLA-style CSV (``sentence,
acceptable``) the same way.  A file without the ``acceptable`` column (RuCoLA's test set)
is scored without labels: thresholds from a labelled dev file turn its scores into
predictions.  Items longer than the model's context are skipped and counted, never
rejected as a whole file.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import polars as pl

from .evaluation import best_threshold, matthews_corrcoef, penlp
from .io import InputError, find_control_char, write_csv_atomic, write_json_atomic, write_parquet_atomic, write_text_atomic

log = logging.getLogger("rublimp")

__all__ = [
    "MEASURES",
    "acceptability_scores",
    "bootstrap_mcc",
    "count_unigrams",
    "predict",
    "read_items_csv",
    "slor",
    "threshold_eval",
    "unigram_logprobs",
]

MEASURES = ("penlp", "slor")


# --------------------------------------------------------------------------- unigram model


def load_tokenizer(path: str | os.PathLike, *, trust_remote_code: bool = False) -> Any:
    from transformers import AutoTokenizer

    from .scoring.hf import hub_offline

    try:
        return AutoTokenizer.from_pretrained(os.fspath(path), trust_remote_code=trust_remote_code,
                                             local_files_only=hub_offline())
    except Exception as exc:
        raise InputError(f"model {os.fspath(path)!r}: cannot load its tokenizer: {exc}") from exc


def count_unigrams(texts: Iterable[str], tokenizer: Any, *, batch: int = 1024) -> pl.DataFrame:
    """Token counts (``token_id``, ``count``) of ``texts`` under ``tokenizer`` (no special tokens), sorted by id."""
    counts: Counter[int] = Counter()
    buf: list[str] = []

    def flush() -> None:
        if buf:
            for ids in tokenizer(buf, add_special_tokens=False, verbose=False)["input_ids"]:
                counts.update(ids)
            buf.clear()

    for t in texts:
        buf.append(t)
        if len(buf) >= batch:
            flush()
    flush()
    if not counts:
        raise InputError("no tokens to count unigram frequencies from (empty corpus)")
    ids = sorted(counts)
    return pl.DataFrame({"token_id": ids, "count": [counts[i] for i in ids]},
                        schema={"token_id": pl.Int64, "count": pl.Int64})


def unigram_logprobs(sentences: Sequence[str], tokenizer: Any, counts: pl.DataFrame) -> np.ndarray:
    """log P_unigram(s) = Σ log((c(t) + 1) / (N + V)) over the sentence's tokens (add-one smoothing, V = vocabulary)."""
    table = dict(zip(counts["token_id"].to_list(), counts["count"].to_list()))
    total = float(sum(table.values()))
    vocab = max(len(tokenizer), len(table))
    denom = np.log(total + vocab)
    out = np.empty(len(sentences))
    enc = tokenizer(list(sentences), add_special_tokens=False, verbose=False)["input_ids"]
    for i, ids in enumerate(enc):
        out[i] = sum(np.log(table.get(t, 0) + 1.0) for t in ids) - len(ids) * denom
    return out


def slor(logprob: np.ndarray | float, unigram_logprob: np.ndarray | float, length: np.ndarray | int) -> np.ndarray:
    """SLOR (Lau et al. 2020): (log P_LM(s) − log P_unigram(s)) / |s|."""
    return (np.asarray(logprob, float) - np.asarray(unigram_logprob, float)) / np.asarray(length, float)


# --------------------------------------------------------------------------- thresholds and MCC


def _confusion(truth: np.ndarray, pred: np.ndarray, axis: int = -1):
    tp = np.sum(truth & pred, axis=axis)
    fp = np.sum(~truth & pred, axis=axis)
    tn = np.sum(~truth & ~pred, axis=axis)
    fn = np.sum(truth & ~pred, axis=axis)
    return tp, fp, tn, fn


def bootstrap_mcc(truth: np.ndarray, pred: np.ndarray, *, n_boot: int = 1000, seed: int = 0,
                  confidence: float = 0.95, chunk: int = 100) -> tuple[float, float]:
    """Percentile bootstrap interval of MCC (items resampled with replacement; seeded).

    Resamples where MCC is undefined (a single class in truth or prediction) are skipped.
    """
    from .evaluation import matthews_cc

    truth = np.asarray(truth, bool)
    pred = np.asarray(pred, bool)
    n = truth.size
    if n == 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    vals = []
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        idx = rng.integers(0, n, size=(b, n))
        tp, fp, tn, fn = _confusion(truth[idx], pred[idx], axis=1)
        m = matthews_cc(tp, fp, tn, fn)
        # a resample with one class only (in truth or prediction) has no MCC: left out, not counted as 0
        degenerate = ((tp + fp) == 0) | ((tp + fn) == 0) | ((tn + fp) == 0) | ((tn + fn) == 0)
        vals.append(np.where(degenerate, np.nan, m))
    v = np.concatenate(vals)
    if np.all(np.isnan(v)):
        return float("nan"), float("nan")
    a = (1 - confidence) / 2
    return float(np.nanquantile(v, a)), float(np.nanquantile(v, 1 - a))


def threshold_eval(items: pl.DataFrame, *, measures: Sequence[str] = MEASURES, n_boot: int = 1000, seed: int = 0,
                   by: Sequence[str] = ()) -> pl.DataFrame:
    """Per measure (and ``by`` group): the dev threshold maximising MCC, test MCC with bootstrap CI, accuracy.

    ``items`` has ``label`` (0/1, null for an unlabelled item), ``dev`` (bool) and a column
    per measure; rows whose measure is null (a skipped item) are left out.  The threshold
    needs labelled dev items; test MCC and accuracy use the labelled test items
    (``n_test`` counts them); unlabelled test items are only counted (``n_unlabelled``).
    """
    rows = []
    groups = items.group_by(list(by), maintain_order=True) if by else [((), items)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        for m in measures:
            scored = g.filter(pl.col(m).is_not_null())
            dev = scored.filter(pl.col("dev") & pl.col("label").is_not_null())
            test_all = scored.filter(~pl.col("dev"))
            test = test_all.filter(pl.col("label").is_not_null())
            row: dict[str, Any] = {**dict(zip(by, key)), "measure": m, "n_dev": dev.height, "n_test": test.height,
                                   "n_unlabelled": test_all.height - test.height}
            if dev.height == 0 or test_all.height == 0:
                rows.append(row)
                continue
            t, dev_mcc = best_threshold(dev[m].to_numpy(), dev["label"].to_numpy())
            row.update({"threshold": t, "dev_mcc": dev_mcc})
            if test.height:
                truth = test["label"].to_numpy().astype(bool)
                pred = test[m].to_numpy() > t
                lo, hi = bootstrap_mcc(truth, pred, n_boot=n_boot, seed=seed)
                row.update({"test_mcc": matthews_corrcoef(truth, pred), "mcc_ci_low": lo, "mcc_ci_high": hi,
                            "test_accuracy": float(np.mean(pred == truth))})
            rows.append(row)
    schema = {**{c: items.schema[c] for c in by}, "measure": pl.String, "n_dev": pl.Int64, "n_test": pl.Int64,
              "threshold": pl.Float64, "dev_mcc": pl.Float64, "test_mcc": pl.Float64, "mcc_ci_low": pl.Float64,
              "mcc_ci_high": pl.Float64, "test_accuracy": pl.Float64, "n_unlabelled": pl.Int64}
    return pl.DataFrame(rows, schema=schema)


def predict(items: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """Add ``pred_<measure>`` (1 = acceptable: the score is above the measure's dev threshold) to
    every scored item, for the measures of ``table`` (:func:`threshold_eval`) that have a threshold."""
    out = items
    for r in table.iter_rows(named=True):
        if r.get("threshold") is None or r["measure"] not in items.columns:
            continue
        m = r["measure"]
        out = out.with_columns(
            pl.when(pl.col(m).is_null()).then(None).otherwise((pl.col(m) > r["threshold"]).cast(pl.Int8))
            .alias(f"pred_{m}")
        )
    return out


def acceptability_scores(items: pl.DataFrame, tokenizer: Any, counts: pl.DataFrame, *, alpha: float = 1.0) -> pl.DataFrame:
    """Add ``unigram_logprob``, ``penlp`` and ``slor`` to items with ``sentence``, ``logprob``, ``lm_tokens``."""
    uni = unigram_logprobs(items["sentence"].to_list(), tokenizer, counts)
    lp, n = items["logprob"].to_numpy(), items["lm_tokens"].to_numpy()
    return items.with_columns(
        pl.Series("unigram_logprob", uni), pl.Series("penlp", penlp(lp, n, alpha)), pl.Series("slor", slor(lp, uni, n)),
    )


def dev_mask(keys: Sequence[str], dev_fraction: float, seed: int) -> np.ndarray:
    from .evaluation import dev_mask as mask

    return mask(list(keys), dev_fraction, seed)


# --------------------------------------------------------------------------- RuCoLA-style CSV


def read_items_csv(path: str | os.PathLike, *, labelled: bool | None = None) -> pl.DataFrame:
    """A RuCoLA-style CSV: ``sentence`` and, when labelled, ``acceptable`` (0/1); errors name the file and line.

    Without an ``acceptable`` column (RuCoLA's test set) every ``label`` is null.
    ``labelled=True`` requires the column, ``False`` ignores it; None takes the file as it is.
    A sentence with a control character (:data:`rublimp.io.CONTROL_CHARS_RE`) is an error.
    """
    p = Path(path)
    if not p.exists():
        raise InputError("input file not found", p)
    data = p.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError("not valid UTF-8", p, data.count(b"\n", 0, exc.start) + 1) from exc
    reader = csv.DictReader(io.StringIO(text))
    fields = reader.fieldnames or []
    required = ["sentence", "acceptable"] if labelled else ["sentence"]
    missing = [c for c in required if c not in fields]
    if missing:
        why = " (a labelled file is needed here)" if labelled and "sentence" in fields else ""
        raise InputError(f"header lacks column(s) {', '.join(missing)}{why} (has: {', '.join(fields)})", p, 1)
    has_labels = "acceptable" in fields and labelled is not False
    rows = []
    for r in reader:
        line = reader.line_num
        s = (r.get("sentence") or "").strip()
        if not s:
            raise InputError("empty sentence", p, line)
        control = find_control_char(s)
        if control is not None:
            raise InputError(f"sentence has a {control}", p, line)
        label = None
        if has_labels:
            a = (r.get("acceptable") or "").strip()
            if a not in ("0", "1"):
                raise InputError(f"acceptable must be 0 or 1, got {a!r}", p, line)
            label = int(a)
        rows.append({"sentence": s, "label": label, "line": line})
    if not rows:
        raise InputError("no items", p)
    return pl.DataFrame(rows, schema={"sentence": pl.String, "label": pl.Int8, "line": pl.Int64})


# --------------------------------------------------------------------------- stages


def _texts(sentences_parquet: str | os.PathLike, batch_rows: int = 50_000) -> Iterable[str]:
    """The ``text`` column of a sentence table, streamed one record batch at a time."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(sentences_parquet) as pf:
        for batch in pf.iter_batches(batch_size=batch_rows, columns=["text"]):
            yield from batch.column(0).to_pylist()


def unigram_stage(sentences_parquet: str | os.PathLike, spec: Mapping[str, Any], out_parquet: str | os.PathLike) -> int:
    """Count the corpus's tokens under the model's tokenizer once (``acceptability/<model>/unigram_counts.parquet``).

    The sentence table is read a record batch at a time (only its ``text`` column), so memory holds
    one batch and the counts (at most the tokenizer's vocabulary), whatever the corpus size."""
    tok = load_tokenizer(spec["path"], trust_remote_code=bool(spec.get("trust_remote_code", False)))
    counts = count_unigrams(_texts(sentences_parquet), tok)
    write_parquet_atomic(counts, out_parquet)
    log.info("unigram counts %s: %d types, %d tokens", spec["name"], counts.height, int(counts["count"].sum()))
    return counts.height


def pair_items(pairs: pl.DataFrame) -> pl.DataFrame:
    """Both sentences of every evaluated pair as items: ``id`` (pair), ``sentence``, ``label``, ``logprob``, ``lm_tokens``."""
    return pl.concat([
        pairs.select("id", "PID", pl.col(f"{col}_sentence").alias("sentence"), pl.lit(label, pl.Int8).alias("label"),
                     pl.col(f"{side}_logprob").alias("logprob"), pl.col(f"{side}_lm_tokens").alias("lm_tokens"))
        for side, col, label in (("good", "source", 1), ("bad", "target", 0))
    ])


def acceptability_stage(pair_files: Sequence[str | os.PathLike], counts_parquet: str | os.PathLike,
                        spec: Mapping[str, Any], out_csv: str | os.PathLike, out_json: str | os.PathLike, *,
                        alpha: float = 1.0, dev_fraction: float = 0.5, n_boot: int = 1000, seed: int = 0) -> dict:
    """One model: PenLP and SLOR items from its evaluated pairs, dev thresholds, test MCC with CI.

    An item without a log-probability (a sentence the model did not score) is skipped and
    counted (``skipped_items`` in the summary, a warning in the log, a note in the section).
    """
    pairs = pl.concat([pl.read_parquet(p) for p in pair_files], how="diagonal_relaxed")
    items = pair_items(pairs)
    unscored = items.filter(pl.col("logprob").is_null() | pl.col("lm_tokens").is_null())
    if unscored.height:
        log.warning("acceptability %s: %d of %d item(s) skipped: no log-probability (e.g. pair %s)", spec["name"],
                    unscored.height, items.height, unscored["id"][0])
        items = items.filter(pl.col("logprob").is_not_null() & pl.col("lm_tokens").is_not_null())
    tok = load_tokenizer(spec["path"], trust_remote_code=bool(spec.get("trust_remote_code", False)))
    items = acceptability_scores(items, tok, pl.read_parquet(counts_parquet), alpha=alpha)
    items = items.with_columns(pl.Series("dev", dev_mask(items["id"].cast(pl.String).to_list(), dev_fraction, seed)))
    table = threshold_eval(items, n_boot=n_boot, seed=seed).with_columns(pl.lit(spec["name"]).alias("model"))
    table = table.select("model", *[c for c in table.columns if c != "model"])
    write_csv_atomic(table, out_csv)
    info = {"model": spec["name"], "penlp_alpha": alpha, "dev_fraction": dev_fraction, "bootstrap": n_boot,
            "items": items.height, "skipped_items": unscored.height, "rows": table.to_dicts()}
    write_json_atomic(out_json, info)
    return info


def _skip_too_long(items: pl.DataFrame, scorer: Any, backend: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(items that fit ``scorer``'s context, the others with ``positions``); the others are logged."""
    from .scoring.context import positions_needed

    limit = getattr(scorer, "max_length", None)
    if limit is None or items.height == 0:
        return items, items.clear().with_columns(pl.lit(None, pl.Int64).alias("positions"))
    need = positions_needed(backend, scorer.tokenizer, items["sentence"].to_list())
    items = items.with_columns(pl.Series("positions", need, dtype=pl.Int64))
    over = items.filter(pl.col("positions") > limit)
    if over.height:
        log.warning("acceptability: %d of %d item(s) skipped: longer than the model's %d positions (%s; longest %d)",
                    over.height, items.height, limit, skipped_lines(over), int(over["positions"].max()))
    return items.filter(pl.col("positions") <= limit).drop("positions"), over


def skipped_lines(items: pl.DataFrame, first: int = 5) -> str:
    """``dev line(s) …; input line(s) …`` of ``items`` (with ``dev`` and ``line``), the first few of each."""
    parts = []
    for is_dev, label in ((True, "dev"), (False, "input")):
        lines = items.filter(pl.col("dev") == is_dev)["line"].to_list()
        if lines:
            more = ", …" if len(lines) > first else ""
            parts.append(f"{label} line(s) {', '.join(str(n) for n in lines[:first])}{more}")
    return "; ".join(parts)


def score_csv(input_csv: str | os.PathLike, spec: Mapping[str, Any], *, counts: str | os.PathLike | None = None,
              corpus: str | os.PathLike | None = None, dev_csv: str | os.PathLike | None = None,
              alpha: float = 1.0, dev_fraction: float = 0.5, n_boot: int = 1000, seed: int = 0,
              threads: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Score a RuCoLA-style CSV: returns (per-item scores, per-measure results).

    Thresholds come from ``dev_csv`` when given (RuCoLA's own dev set, labelled; the whole
    input is then the test set), else from a seeded half of a labelled input.  An input
    without labels (RuCoLA's test set) gets predictions (``pred_penlp``, ``pred_slor``)
    from the dev thresholds, or, without ``dev_csv``, its scores only (a warning says so).
    Items longer than the model's context are skipped: they stay in the item table with
    ``skipped`` giving the reason and null scores, and are counted in the log.  Unigram
    counts: a counts Parquet (``counts``), a corpus (``corpus``: sentences Parquet with
    ``text`` or one sentence per line), or, failing both, the scored sentences themselves.
    """
    from .scoring import scorer_from_spec

    test = read_items_csv(input_csv)
    dev = read_items_csv(dev_csv, labelled=True) if dev_csv else None
    unlabelled = test["label"].null_count() == test.height
    if dev is not None:
        items = pl.concat([dev.with_columns(pl.lit(True).alias("dev")), test.with_columns(pl.lit(False).alias("dev"))])
    elif unlabelled:
        log.warning("%s has no acceptable column and no --dev file gives thresholds: scores only, no predictions",
                    input_csv)
        items = test.with_columns(pl.lit(False).alias("dev"))
    else:
        items = test.with_columns(pl.Series("dev", dev_mask(test["sentence"].to_list(), dev_fraction, seed)))
    scorer = scorer_from_spec(spec, num_threads=threads)
    fit, over = _skip_too_long(items, scorer, str(spec["backend"]))
    sc = scorer.score(fit["sentence"].to_list(), ks=(30,))
    fit = fit.join(sc.select("sentence", pl.col("sum_logprob").alias("logprob"), pl.col("n_tokens").alias("lm_tokens")),
                   on="sentence", how="left")
    tok = scorer.tokenizer
    if counts:
        cnt = pl.read_parquet(counts)
    elif corpus:
        cp = Path(corpus)
        texts = (pl.read_parquet(cp, columns=["text"])["text"].to_list() if cp.suffix == ".parquet"
                 else [l.strip() for l in cp.read_text(encoding="utf-8").splitlines() if l.strip()])
        cnt = count_unigrams(texts, tok)
    else:
        log.warning("no --counts or --corpus: unigram frequencies are counted from the scored sentences themselves")
        cnt = count_unigrams(fit["sentence"].to_list() or items["sentence"].to_list(), tok)
    fit = acceptability_scores(fit, tok, cnt, alpha=alpha).with_columns(pl.lit(None, pl.String).alias("skipped"))
    if over.height:
        limit = getattr(scorer, "max_length", None)
        over = over.with_columns(
            (pl.lit("longer than the model's context: ") + pl.col("positions").cast(pl.String)
             + pl.lit(f" > {limit} positions")).alias("skipped")
        ).drop("positions")
    scored = pl.concat([fit, over], how="diagonal_relaxed").sort("dev", "line", descending=[True, False])
    table = threshold_eval(scored, n_boot=n_boot, seed=seed)
    return predict(scored, table), table


def section_stage(summaries: Sequence[str | os.PathLike], out_md: str | os.PathLike) -> str:
    from .report import acceptability_section

    text = acceptability_section([json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries])
    write_text_atomic(out_md, text)
    return text
