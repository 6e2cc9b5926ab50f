"""Human validation of minimal pairs (RuBLiMP §2.5): export, crowd-label import, aggregation.

* :func:`export_validation` samples ``per_paradigm`` pairs of every paradigm's benchmark
  (seeded, stratified like the curation), duplicates a share of them (consistency checks),
  adds the golden control items of ``resources/validation_controls.tsv`` and writes a TSV
  for crowdsourcing platforms (Toloka-style ``INPUT:``/``GOLDEN:`` columns), a Label Studio
  project (labelling config) with its tasks, and the answer key ``items.csv``.
* :func:`read_annotations` reads the labels back: a TSV (``item_id``, ``worker_id``,
  ``label``; platform prefixes such as ``INPUT:``/``OUTPUT:``/``ASSIGNMENT:`` are accepted)
  or a Label Studio JSON export.  Every problem is reported with the file and line.
* :func:`aggregate_annotations` aggregates with crowd-kit (majority vote, Dawid–Skene,
  WAWA), estimates worker skills and per-worker Dawid–Skene confusion matrices, scores
  workers on the controls (excluding one only when a one-sided exact binomial test at a
  stated level and power shows its accuracy below the bar) and duplicates, computes
  Krippendorff's α (the ``krippendorff`` package) with a seeded bootstrap interval and
  per-paradigm validity with Wilson intervals; pairs whose Dawid–Skene label is not
  ``yes`` are to be dropped (``curation.drop_invalid``, see
  :func:`rublimp.curation.replace_invalid`), never on one annotator's word unless
  ``validation.allow_single_annotator``.  Every such decision is a warning in the log
  and in the summary.

Item ids are opaque (a seeded hash of the pair id and copy number), so workers cannot
tell controls or duplicates apart, and annotations can be mapped back to pairs from the
pools alone (no dependency on the export): :func:`item_key`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import polars as pl

from .io import InputError, write_csv_atomic, write_json_atomic, write_text_atomic

log = logging.getLogger("rublimp")

__all__ = [
    "LABELS",
    "aggregate_annotations",
    "export_validation",
    "item_id",
    "item_key",
    "load_controls",
    "read_annotations",
    "simulate_annotations",
    "validation_import_stage",
]

#: Answer options (RuBLiMP Appendix C.1): the pair is correct / is not / the source sentence is ungrammatical.
LABELS: tuple[str, ...] = ("yes", "no", "na")
_LABEL_ALIASES = {
    "yes": "yes", "y": "yes", "да": "yes", "1": "yes", "true": "yes", "valid": "yes",
    "no": "no", "n": "no", "нет": "no", "0": "no", "false": "no", "invalid": "no",
    "na": "na", "n/a": "na", "н/д": "na", "not applicable": "na",
}
CONTROLS_PATH = Path(__file__).resolve().parents[2] / "resources" / "validation_controls.tsv"

TASK_RU = (
    "Прочитайте исходное предложение и его изменённый вариант. Правильно ли составлена "
    "минимальная пара: второе предложение отличается от первого только отмеченными словами и из-за этого "
    "становится неграмматичным? Ответ: yes (да), no (нет: оба предложения грамматичны, изменено несколько "
    "слов или признаков, пара неправдоподобна) или na (исходное предложение само неграмматично)."
)

LABEL_STUDIO_CONFIG = """<View>
  <Header value="Правильно ли составлена минимальная пара?"/>
  <Text name="task" value="$task"/>
  <Text name="phenomenon" value="Явление: $phenomenon"/>
  <Text name="good" value="$good"/>
  <Text name="bad" value="* $bad"/>
  <Text name="change" value="Изменение: $change"/>
  <Choices name="label" toName="bad" choice="single" required="true">
    <Choice value="yes" alias="yes"/>
    <Choice value="no" alias="no"/>
    <Choice value="na" alias="na"/>
  </Choices>
  <TextArea name="comment" toName="bad" placeholder="Опечатки, замечания" maxSubmissions="1"/>
</View>
"""


# --------------------------------------------------------------------------- item ids and controls


def item_id(key: str, copy: int, seed: int) -> str:
    """The opaque id of copy ``copy`` of a pair (or control) ``key``: ``v`` + 12 hex digits of a seeded hash."""
    digest = hashlib.blake2b(f"{int(seed)}\x1fvalidation\x1f{key}\x1f{int(copy)}".encode(), digest_size=6).hexdigest()
    return "v" + digest


@dataclass(frozen=True)
class Control:
    control_id: str
    phenomenon: str
    good: str
    bad: str
    source_word: str
    target_word: str
    label: str


def load_controls(path: str | os.PathLike | None = None) -> list[Control]:
    """The golden control items (``resources/validation_controls.tsv`` by default)."""
    from .lexicon import read_resource_tsv

    p = Path(path) if path is not None else CONTROLS_PATH
    out: list[Control] = []
    seen: set[str] = set()
    fields = ["control_id", "phenomenon", "good", "bad", "source_word", "target_word", "label"]
    for lineno, row in read_resource_tsv(p, "validation controls", fields):
        if row["label"] not in ("yes", "no"):
            raise InputError(f"control label must be yes or no, got {row['label']!r}", p, lineno)
        if row["control_id"] in seen:
            raise InputError(f"control id {row['control_id']!r} used twice", p, lineno)
        seen.add(row["control_id"])
        out.append(Control(**{f: row[f] for f in fields}))
    if not out:
        raise InputError("no control items", p)
    return out


def item_key(pool: pl.DataFrame, *, seed: int, controls: Sequence[Control] | None = None) -> pl.DataFrame:
    """Every possible item id of ``pool``'s pairs (copies 0 and 1) and of the controls.

    Columns: ``item_id``, ``kind`` (``pair``/``duplicate``/``control``), ``pair_id``,
    ``paradigm`` (null for controls), ``gold`` (controls only), ``copy``.
    """
    controls = load_controls() if controls is None else controls
    rows: list[dict[str, Any]] = []
    for pid, par in zip(pool["id"].cast(pl.String).to_list(), pool["PID"].cast(pl.String).to_list()):
        for copy, kind in ((0, "pair"), (1, "duplicate")):
            rows.append({"item_id": item_id(pid, copy, seed), "kind": kind, "pair_id": pid, "paradigm": par,
                         "gold": None, "copy": copy})
    for c in controls:
        rows.append({"item_id": item_id(c.control_id, 0, seed), "kind": "control", "pair_id": c.control_id,
                     "paradigm": None, "gold": c.label, "copy": 0})
    schema = {"item_id": pl.String, "kind": pl.String, "pair_id": pl.String, "paradigm": pl.String,
              "gold": pl.String, "copy": pl.Int64}
    key = pl.DataFrame(rows, schema=schema)
    dup = key.group_by("item_id").len().filter(pl.col("len") > 1)
    if dup.height:  # a 48-bit hash collision: vanishingly rare, but never silently merge two items
        raise InputError(f"item id collision for {dup['item_id'][0]!r}; change the seed")
    return key


# --------------------------------------------------------------------------- export


def _change(row: Mapping[str, Any]) -> str:
    src, tgt = row.get("source_word"), row.get("target_word")
    if src is None and tgt is None:
        return ""
    return f"{src or '—'} → {tgt or '—'}"


def export_validation(
    benchmark: pl.DataFrame,
    out_dir: str | os.PathLike,
    *,
    per_paradigm: int = 50,
    duplicate_fraction: float = 0.1,
    seed: int = 0,
    controls: Sequence[Control] | None = None,
    length_bins: Sequence[int] | None = (6, 10, 15, 20, 30, 51),
) -> dict[str, Any]:
    """Write the annotation task for a stratified sample of ``per_paradigm`` pairs per paradigm.

    Files in ``out_dir``: ``tasks.tsv`` (crowdsourcing platforms; ``GOLDEN:label`` filled for
    controls only), ``label_studio_project.json`` (title, instructions, labelling config),
    ``label_studio_tasks.json`` (the tasks to import), ``items.csv`` (the answer key: kind,
    pair id, paradigm, gold label).  Items are shuffled with the seed.  Returns counts.
    """
    from .curation import stratified_sample

    if per_paradigm < 1:
        raise InputError(f"config key validation.per_paradigm must be positive, got {per_paradigm}")
    if not 0.0 <= duplicate_fraction <= 1.0:
        raise InputError(f"config key validation.duplicate_fraction must be in [0, 1], got {duplicate_fraction}")
    need = ["id", "PID", "source_sentence", "target_sentence"]
    missing = [c for c in need if c not in benchmark.columns]
    if missing:
        raise InputError(f"benchmark lacks column(s) {missing}")
    controls = load_controls() if controls is None else controls
    bins = length_bins if "n_tokens" in benchmark.columns else None
    bench = benchmark.drop([c for c in ("length_bin",) if c in benchmark.columns])
    items: list[dict[str, Any]] = []
    per_par: dict[str, int] = {}
    for pid in sorted(bench["PID"].cast(pl.String).unique().to_list()):
        part = bench.filter(pl.col("PID") == pid)
        sample = stratified_sample(part, n=per_paradigm, seed=seed, length_bins=bins)
        per_par[pid] = sample.height
        n_dup = int(round(duplicate_fraction * sample.height))
        rng = random.Random(f"{seed}\x1fdup\x1f{pid}")
        dups = set(rng.sample(sorted(sample["id"].to_list()), n_dup)) if n_dup else set()
        for row in sample.iter_rows(named=True):
            for copy in (0, 1) if row["id"] in dups else (0,):
                items.append({
                    "item_id": item_id(row["id"], copy, seed), "kind": "pair" if copy == 0 else "duplicate",
                    "pair_id": row["id"], "paradigm": pid, "phenomenon": row.get("phenomenon") or pid,
                    "good": row["source_sentence"], "bad": row["target_sentence"], "change": _change(row),
                    "gold": None,
                })
    for c in controls:
        items.append({
            "item_id": item_id(c.control_id, 0, seed), "kind": "control", "pair_id": c.control_id, "paradigm": None,
            "phenomenon": c.phenomenon, "good": c.good, "bad": c.bad,
            "change": f"{c.source_word} → {c.target_word}", "gold": c.label,
        })
    random.Random(f"{seed}\x1forder").shuffle(items)
    out = Path(out_dir)
    tsv = io.StringIO()
    w = csv.writer(tsv, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(["INPUT:item_id", "INPUT:task", "INPUT:phenomenon", "INPUT:good", "INPUT:bad", "INPUT:change",
                "GOLDEN:label"])
    for it in items:
        w.writerow([it["item_id"], TASK_RU, it["phenomenon"], it["good"], it["bad"], it["change"], it["gold"] or ""])
    project = {
        "title": "RuBLiMP-style minimal pair validation",
        "description": "Is the minimal pair designed correctly? (yes / no / na)",
        "expert_instruction": TASK_RU,
        "label_config": LABEL_STUDIO_CONFIG,
    }
    ls_tasks = [
        {"data": {"item_id": it["item_id"], "task": TASK_RU, "phenomenon": it["phenomenon"], "good": it["good"],
                  "bad": it["bad"], "change": it["change"]}}
        for it in items
    ]
    key = pl.DataFrame(
        [{k: it[k] for k in ("item_id", "kind", "pair_id", "paradigm", "gold")} for it in items],
        schema={"item_id": pl.String, "kind": pl.String, "pair_id": pl.String, "paradigm": pl.String,
                "gold": pl.String},
    )
    write_text_atomic(out / "tasks.tsv", tsv.getvalue())
    write_json_atomic(out / "label_studio_project.json", project)
    write_json_atomic(out / "label_studio_tasks.json", ls_tasks)
    write_csv_atomic(key, out / "items.csv")
    info = {"items": len(items), "pairs": int(sum(per_par.values())), "controls": len(controls),
            "duplicates": int(key.filter(pl.col("kind") == "duplicate").height), "per_paradigm": per_par}
    log.info("validation export: %s", {k: v for k, v in info.items() if k != "per_paradigm"})
    return info


# --------------------------------------------------------------------------- import


def _decode(path: Path) -> str:
    if not path.exists():
        raise InputError("annotations file not found", path)
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8", path, line) from exc


def _norm_label(value: Any, path: Path, line: int) -> str:
    label = _LABEL_ALIASES.get(str(value).strip().lower())
    if label is None:
        raise InputError(f"unknown label {value!r}; expected one of {', '.join(LABELS)}", path, line)
    return label


_COLUMN_ALIASES = {
    "item_id": ("item_id", "item", "task_id"),
    "worker_id": ("worker_id", "worker", "annotator", "user_id"),
    "label": ("label", "answer", "result"),
}


def _read_tsv(path: Path, text: str) -> list[dict[str, Any]]:
    reader = csv.reader(io.StringIO(text), delimiter="\t")
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty annotations file (no header line)", path, 1) from None
    plain = [h.split(":", 1)[-1].strip().lower() for h in header]
    cols: dict[str, int] = {}
    for want, aliases in _COLUMN_ALIASES.items():
        for a in aliases:
            if a in plain:
                cols[want] = plain.index(a)
                break
    missing = [c for c in _COLUMN_ALIASES if c not in cols]
    if missing:
        raise InputError(
            f"header lacks column(s) {', '.join(missing)} (has: {', '.join(header)}); an annotations TSV needs "
            "item_id, worker_id and label (platform prefixes like INPUT:/OUTPUT:/ASSIGNMENT: are fine)", path, 1
        )
    rows = []
    for row in reader:
        line = reader.line_num
        if not any(c.strip() for c in row):
            continue
        if len(row) < len(header):
            raise InputError(f"expected {len(header)} tab-separated columns, found {len(row)}", path, line)
        vals = {k: row[i].strip() for k, i in cols.items()}
        for k, v in vals.items():
            if not v:
                raise InputError(f"empty {k}", path, line)
        rows.append({"item_id": vals["item_id"], "worker_id": vals["worker_id"],
                     "label": _norm_label(vals["label"], path, line), "line": line})
    return rows


def _line_of(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    pos = text.find(needle, start)
    if pos < 0:
        return 0, start
    return text.count("\n", 0, pos) + 1, pos + len(needle)


def _read_label_studio(path: Path, text: str) -> list[dict[str, Any]]:
    try:
        tasks = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path, exc.lineno) from exc
    if not isinstance(tasks, list):
        raise InputError("a Label Studio export is a JSON list of tasks", path, 1)
    rows = []
    cursor = 0
    for t_i, task in enumerate(tasks):
        data = task.get("data") if isinstance(task, dict) else None
        iid = data.get("item_id") if isinstance(data, dict) else None
        line, cursor = _line_of(text, json.dumps(str(iid), ensure_ascii=False), cursor) if iid else (0, cursor)
        line = line or None
        if not iid:
            raise InputError(f"task #{t_i} has no data.item_id (export the project created by rublimp)", path, line)
        for a in task.get("annotations") or []:
            if a.get("was_cancelled"):
                continue
            who = a.get("completed_by")
            if isinstance(who, dict):
                who = who.get("email") or who.get("id")
            if who is None:
                raise InputError(f"task #{t_i} ({iid}): an annotation has no completed_by", path, line)
            choices = [r.get("value", {}).get("choices") for r in a.get("result") or []
                       if r.get("type") == "choices" and r.get("from_name", "label") == "label"]
            choices = [c for c in choices if c]
            if not choices:
                continue  # skipped without an answer
            rows.append({"item_id": str(iid), "worker_id": str(who),
                         "label": _norm_label(choices[0][0], path, line or 0), "line": line})
    return rows


def read_annotations(path: str | os.PathLike, key: pl.DataFrame | None = None) -> pl.DataFrame:
    """Read annotations (TSV or Label Studio JSON export) into ``item_id, worker_id, label, line``.

    With ``key`` (from :func:`item_key`), unknown item ids are errors.  A worker labelling
    the same item twice is an error (both lines named).  Every error names the file and line.
    """
    p = Path(path)
    text = _decode(p)
    is_json = p.suffix.lower() == ".json" or text.lstrip().startswith("[")
    rows = _read_label_studio(p, text) if is_json else _read_tsv(p, text)
    if not rows:
        raise InputError("no annotations in the file", p)
    seen: dict[tuple[str, str], int] = {}
    known = set(key["item_id"].to_list()) if key is not None else None
    for r in rows:
        k = (r["item_id"], r["worker_id"])
        if k in seen:
            raise InputError(
                f"duplicate row: worker {r['worker_id']!r} labelled item {r['item_id']!r} already at line {seen[k]}",
                p, r["line"],
            )
        seen[k] = r["line"] or 0
        if known is not None and r["item_id"] not in known:
            raise InputError(
                f"unknown item id {r['item_id']!r}: not an item of this benchmark's pools or controls "
                "(annotations of another export, or another seed?)", p, r["line"],
            )
    return pl.DataFrame(rows, schema={"item_id": pl.String, "worker_id": pl.String, "label": pl.String,
                                      "line": pl.Int64})


# --------------------------------------------------------------------------- aggregation


def _wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float | None, float | None]:
    if n == 0:
        return None, None
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _reliability_matrix(votes: pl.DataFrame) -> np.ndarray:
    """Workers × tasks matrix of label indices (NaN where a worker did not label a task)."""
    tasks = sorted(votes["task"].unique().to_list())
    workers = sorted(votes["worker"].unique().to_list())
    t_idx = {t: i for i, t in enumerate(tasks)}
    w_idx = {w: i for i, w in enumerate(workers)}
    data = np.full((len(workers), len(tasks)), np.nan)
    for t, w, lab in votes.select("task", "worker", "label").iter_rows():
        data[w_idx[w], t_idx[t]] = LABELS.index(lab)
    return data


def _alpha_of(data: np.ndarray) -> float | None:
    import krippendorff

    pairable = (np.sum(~np.isnan(data), axis=0) >= 2).sum()
    if pairable == 0 or len(np.unique(data[~np.isnan(data)])) < 2:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        value = float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal",
                                          value_domain=list(range(len(LABELS)))))
    return value if np.isfinite(value) else None


def krippendorff_alpha(votes: pl.DataFrame) -> float | None:
    """Nominal Krippendorff's α over ``task`` × ``worker`` labels (the ``krippendorff`` package).

    None when undefined: no task labelled by two workers, or a single label value overall.
    """
    return _alpha_of(_reliability_matrix(votes))


def krippendorff_alpha_ci(votes: pl.DataFrame, *, n_boot: int = 1000, seed: int = 0,
                          confidence: float = 0.95) -> dict[str, Any]:
    """α (:func:`krippendorff_alpha`) with a percentile bootstrap interval over tasks.

    Each of ``n_boot`` resamples draws the tasks (columns of the reliability matrix) with
    replacement, with ``numpy.random.default_rng(seed)``; resamples where α is undefined
    (every resampled label equal) are left out and counted.  Returns ``alpha``,
    ``ci_low``, ``ci_high`` (None when α is undefined or no resample is defined),
    ``n_boot``, ``n_undefined`` and ``reason`` (why α is undefined, else None).
    """
    data = _reliability_matrix(votes)
    n_workers = data.shape[0]
    value = _alpha_of(data)
    out: dict[str, Any] = {"alpha": value, "ci_low": None, "ci_high": None, "n_boot": int(n_boot),
                           "n_undefined": 0, "confidence": confidence, "reason": None}
    if value is None:
        if n_workers < 2:
            out["reason"] = f"{n_workers} annotator(s): agreement needs at least two"
        elif (np.sum(~np.isnan(data), axis=0) >= 2).sum() == 0:
            out["reason"] = "no pair was labelled by two annotators"
        else:
            out["reason"] = "every vote has the same label"
        return out
    if n_boot < 1:
        return out
    # Per pair, its contribution to the coincidence matrix; a resample weighs each pair by how many
    # times it was drawn, so all resamples are one matrix product (the same α as the package's).
    contrib = _unit_coincidences(data)
    rng = np.random.default_rng(seed)
    n_units = contrib.shape[0]
    counts = np.stack([np.bincount(rng.integers(0, n_units, n_units), minlength=n_units) for _ in range(int(n_boot))])
    boots = _alpha_from_coincidences(counts @ contrib.reshape(n_units, -1))
    defined = boots[np.isfinite(boots)]
    out["n_undefined"] = int(boots.size - defined.size)
    if defined.size:
        tail = (1.0 - confidence) / 2.0
        lo, hi = np.quantile(defined, [tail, 1.0 - tail])
        out["ci_low"], out["ci_high"] = float(lo), float(hi)
    return out


def _unit_coincidences(data: np.ndarray) -> np.ndarray:
    """Per task (column of ``data``) with two or more labels, its nominal coincidence matrix
    n_uc (n_uk − [c = k]) / (m_u − 1) (Krippendorff 2011), shape ``(tasks, values, values)``."""
    n_values = len(LABELS)
    counts = np.stack([np.sum(data == v, axis=0) for v in range(n_values)], axis=1).astype(float)
    m = counts.sum(axis=1)
    counts, m = counts[m >= 2], m[m >= 2]
    outer = counts[:, :, None] * counts[:, None, :] - counts[:, :, None] * np.eye(n_values)[None]
    return outer / (m - 1)[:, None, None]


def _alpha_from_coincidences(flat: np.ndarray) -> np.ndarray:
    """Nominal α of each row of flattened coincidence matrices; NaN where undefined."""
    n_values = len(LABELS)
    o = flat.reshape(-1, n_values, n_values)
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    off = ~np.eye(n_values, dtype=bool)
    observed = o[:, off].sum(axis=1)
    expected = (n_c[:, :, None] * n_c[:, None, :])[:, off].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    return np.where(expected > 0, alpha, np.nan)


# --------------------------------------------------------------------------- annotator exclusion test

#: The accuracy of an annotator who guesses yes/no uniformly: the power of the exclusion test is stated for it.
GUESSING_ACCURACY = 0.5


def exclusion_critical(n: int, *, threshold: float, alpha: float) -> int:
    """The largest number of correct controls (of ``n``) at which the exclusion test rejects; -1 when none.

    The exclusion test is the one-sided exact binomial test of H0 "control accuracy ≥
    ``threshold``" against H1 "accuracy < ``threshold``" at level ``alpha``: it rejects at
    ``k`` correct answers when P(X ≤ k | n, threshold) ≤ alpha.
    """
    from scipy.stats import binom

    if n <= 0:
        return -1
    cdf = binom.cdf(np.arange(n + 1), n, threshold)
    ok = np.nonzero(cdf <= alpha + 1e-12)[0]
    return int(ok[-1]) if ok.size else -1


def exclusion_power(n: int, *, threshold: float, alpha: float, true_accuracy: float = GUESSING_ACCURACY) -> float:
    """Probability that the exclusion test (:func:`exclusion_critical`) rejects an annotator of ``true_accuracy``."""
    from scipy.stats import binom

    crit = exclusion_critical(n, threshold=threshold, alpha=alpha)
    return 0.0 if crit < 0 else float(binom.cdf(crit, n, true_accuracy))


def controls_for_power(*, threshold: float, alpha: float, power: float = 0.8,
                       true_accuracy: float = GUESSING_ACCURACY, n_max: int = 2000) -> int | None:
    """The smallest number of controls giving the exclusion test ``power`` against ``true_accuracy``."""
    if true_accuracy >= threshold:
        return None
    for n in range(1, n_max + 1):
        if exclusion_power(n, threshold=threshold, alpha=alpha, true_accuracy=true_accuracy) >= power:
            return n
    return None


def control_tests(k: int, n: int, *, threshold: float, chance: float) -> tuple[float | None, float | None]:
    """One-sided exact binomial p-values (``scipy.stats.binomtest``) of ``k`` correct controls of ``n``.

    Returns ``(p_below_threshold, p_above_chance)``: H1 accuracy < ``threshold``, and H1
    accuracy > ``chance`` (the accuracy of the best constant answer); None without controls.
    """
    from scipy.stats import binomtest

    if n <= 0:
        return None, None
    p_below = float(binomtest(k, n, threshold, alternative="less").pvalue) if threshold > 0 else 1.0
    p_above = float(binomtest(k, n, chance, alternative="greater").pvalue) if chance < 1 else 1.0
    return p_below, p_above


# --------------------------------------------------------------------------- crowd-kit aggregation


def crowd_aggregate(votes: pl.DataFrame, *, n_iter: int = 100,
                    tol: float = 1e-3) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """crowd-kit aggregation of ``task, worker, label`` votes.

    Returns ``(per_task, per_worker, confusion)``: per task the majority-vote, Dawid–Skene
    and WAWA labels, the Dawid–Skene posterior of its label and the WAWA agreement (share
    of the task's votes equal to the Dawid–Skene label); per worker the Dawid–Skene skill
    (prior-weighted diagonal of its confusion matrix), the information its answers carry
    about the true label under the Dawid–Skene model (mutual information in bits: 0 for an
    annotator whose answers do not depend on the true label, such as one who always
    answers "yes") and its agreement with the majority vote (crowd-kit's MV skill); and
    every worker's Dawid–Skene confusion matrix in long form (``worker_id``,
    ``true_label``, ``label``, ``probability`` = P(answer ``label`` | true ``true_label``)).
    Dawid–Skene stops when the evidence lower bound per vote improves by less than
    ``tol`` (crowd-kit's default 1e-5 runs all ``n_iter`` iterations on typical data, with
    no change in the labels).

    WAWA is computed as crowd-kit's ``MajorityVote`` weighted by the workers' MV skills,
    which is what ``crowdkit.aggregation.Wawa`` does; that class itself fails under
    scikit-learn >= 1.6 (``check_is_fitted`` needs ``__sklearn_tags__``).
    """
    import warnings

    with warnings.catch_warnings():
        # crowd-kit 1.4.2 uses pandas keywords that pandas 3 deprecates (inplace=, copy=): harmless here
        warnings.simplefilter("ignore")
        return _crowd_aggregate(votes, n_iter=n_iter, tol=tol)


def _information_bits(matrix: np.ndarray, prior: np.ndarray) -> float:
    """I(true; answer) in bits for P(answer | true) = ``matrix[answer, true]`` and the true-label ``prior``."""
    joint = matrix * prior[None, :]
    p_answer = joint.sum(axis=1, keepdims=True)
    ratio = np.divide(matrix, p_answer, out=np.ones_like(matrix), where=(matrix > 0) & (p_answer > 0))
    with np.errstate(divide="ignore"):
        return float(max(0.0, np.sum(np.where(joint > 0, joint * np.log2(ratio), 0.0))))


def _crowd_aggregate(votes: pl.DataFrame, *, n_iter: int, tol: float) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    import pandas as pd
    from crowdkit.aggregation import DawidSkene, MajorityVote

    df = pd.DataFrame({"task": votes["task"].to_list(), "worker": votes["worker"].to_list(),
                       "label": votes["label"].to_list()})
    mv = MajorityVote()
    mv_labels = mv.fit_predict(df)
    mv_skills = mv.skills_
    wawa = MajorityVote().fit_predict(df, skills=mv_skills)
    ds = DawidSkene(n_iter=n_iter, tol=tol)
    ds_labels = ds.fit_predict(df)
    probas = ds.probas_
    errors = ds.errors_  # index (worker, label), columns true label: P(observed | true)
    priors = ds.priors_
    labels = [lab for lab in LABELS if lab in priors.index]
    prior = np.array([float(priors[lab]) for lab in labels])
    skills, info, conf_rows = {}, {}, []
    for w in sorted(df["worker"].unique()):
        sub = errors.loc[w]
        # rows the worker never answered are absent from crowd-kit's table: probability 0
        m = np.array([[float(sub.loc[o, t]) if o in sub.index and t in sub.columns else 0.0 for t in labels]
                      for o in labels])
        skills[w] = float(sum(prior[j] * m[j, j] for j in range(len(labels))))
        info[w] = _information_bits(m, prior)
        for j, t in enumerate(labels):
            for i, o in enumerate(labels):
                conf_rows.append({"worker_id": w, "true_label": t, "label": o, "probability": float(m[i, j])})
    tasks = sorted(df["task"].unique())
    votes_by_task = df.groupby("task")["label"].apply(list)
    rows = []
    for t in tasks:
        ds_lab = ds_labels[t]
        vs = votes_by_task[t]
        rows.append({
            "task": t, "n_votes": len(vs), "label_mv": mv_labels[t], "label_ds": ds_lab, "label_wawa": wawa[t],
            "ds_confidence": float(probas.loc[t, ds_lab]), "agreement": sum(v == ds_lab for v in vs) / len(vs),
        })
    per_task = pl.DataFrame(rows, schema={"task": pl.String, "n_votes": pl.Int64, "label_mv": pl.String,
                                          "label_ds": pl.String, "label_wawa": pl.String,
                                          "ds_confidence": pl.Float64, "agreement": pl.Float64})
    per_worker = pl.DataFrame(
        [{"worker_id": w, "ds_skill": skills[w], "ds_information_bits": info[w],
          "mv_agreement": float(mv_skills.get(w, float("nan")))} for w in sorted(skills)],
        schema={"worker_id": pl.String, "ds_skill": pl.Float64, "ds_information_bits": pl.Float64,
                "mv_agreement": pl.Float64},
    )
    confusion = pl.DataFrame(conf_rows, schema={"worker_id": pl.String, "true_label": pl.String, "label": pl.String,
                                                "probability": pl.Float64})
    return per_task, per_worker, confusion


#: A worker whose answers carry less information than this (bits, under Dawid–Skene) is reported as uninformative.
UNINFORMATIVE_BITS = 0.01


def aggregate_annotations(
    annotations: pl.DataFrame,
    key: pl.DataFrame,
    *,
    min_control_accuracy: float = 0.7,
    exclude_flagged: bool = True,
    confidence: float = 0.95,
    exclusion_alpha: float = 0.05,
    allow_single_annotator: bool = False,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, pl.DataFrame | dict]:
    """Aggregate annotations of the items in ``key`` (see :func:`item_key`).

    **Exclusion test.**  Each worker's answers on the golden controls (``k`` right of
    ``n``) get two one-sided exact binomial tests (``scipy.stats.binomtest``):

    * *below the bar*: H0 accuracy ≥ ``min_control_accuracy`` against H1 accuracy <
      ``min_control_accuracy``; a worker is **flagged** when p < ``exclusion_alpha`` (0.05
      by default) and, with ``exclude_flagged``, left out of the aggregation.  A worker is
      thus excluded only on evidence, never because a handful of controls fell a little
      short of the bar: with 12 controls and the bar 0.7 an annotator needs 5 or fewer right
      answers to be excluded.  The test's power against a yes/no guesser (accuracy 0.5)
      is reported (``exclusion_test.power_at_guessing``; 0.39 for 12 controls), with the
      number of controls that would give power 0.8, and a warning when it is below 0.8.
    * *above chance*: H0 accuracy ≤ chance against H1 accuracy > chance, chance being
      the accuracy of the best constant answer on that worker's controls (8/12 with 8
      "yes" controls of 12); reported (``p_above_chance``, ``above_chance``), not used
      to exclude.

    Workers without controls are kept untested.  Whatever the tests decide, every
    worker's Dawid–Skene confusion matrix (``confusion``) and the information its answers
    carry about the true label (``ds_information_bits``) are reported; a worker whose
    answers carry none (e.g. always "yes") gets a warning.

    **One annotator is never enough silently.**  When fewer than two workers remain, or a
    pair to drop was judged by fewer than two included workers, a warning is logged and
    kept in ``summary["warnings"]``; such drops raise :class:`InputError` unless
    ``allow_single_annotator`` (config key ``validation.allow_single_annotator``).

    Votes on pairs (a duplicate counts once per worker: its first copy) are aggregated by
    :func:`crowd_aggregate`; a pair is valid when its Dawid–Skene label is ``yes``.
    Krippendorff's α is reported with a seeded percentile bootstrap interval over pairs
    (:func:`krippendorff_alpha_ci`, ``n_boot`` resamples, ``seed``).

    Returns a dict with ``pairs`` (per pair: paradigm, labels, confidence, valid),
    ``workers`` (per worker: answers, controls right, control accuracy, both tests'
    p-values, consistency, skills, information, flagged, excluded), ``confusion``,
    ``paradigms`` (validity with a Wilson interval, WAWA agreement), ``drop`` (pairs to
    drop) and ``summary`` (α with its interval, WAWA, counts, the exclusion test, warnings).
    """
    if not 0.0 < exclusion_alpha < 1.0:
        raise InputError(f"config key validation.exclusion_alpha must be in (0, 1), got {exclusion_alpha}")
    ann = annotations.join(key.select("item_id", "kind", "pair_id", "paradigm", "gold"), on="item_id", how="left")
    if ann["kind"].null_count():
        bad = ann.filter(pl.col("kind").is_null()).row(0, named=True)
        raise InputError(f"unknown item id {bad['item_id']!r} (line {bad['line']})")
    warnings_out: list[str] = []

    def warn(msg: str) -> None:
        warnings_out.append(msg)
        log.warning("validation: %s", msg)

    ctrl = ann.filter(pl.col("kind") == "control")
    ctrl_rows = []
    for (w,), g in sorted(ctrl.group_by(["worker_id"]), key=lambda kg: str(kg[0][0])):
        n = g.height
        k = int((g["label"] == g["gold"]).sum())
        chance = max(int((g["gold"] == lab).sum()) for lab in LABELS) / n
        p_below, p_above = control_tests(k, n, threshold=min_control_accuracy, chance=chance)
        ctrl_rows.append({"worker_id": w, "n_control": n, "control_correct": k, "control_accuracy": k / n,
                          "chance_accuracy": chance, "p_below_threshold": p_below, "p_above_chance": p_above})
    ctrl_acc = pl.DataFrame(ctrl_rows, schema={
        "worker_id": pl.String, "n_control": pl.Int64, "control_correct": pl.Int64, "control_accuracy": pl.Float64,
        "chance_accuracy": pl.Float64, "p_below_threshold": pl.Float64, "p_above_chance": pl.Float64})
    pair_votes = ann.filter(pl.col("kind") != "control")
    both = (
        pair_votes.group_by("worker_id", "pair_id").agg(pl.col("label").n_unique().alias("u"), pl.len().alias("c"))
        .filter(pl.col("c") > 1)
        .group_by("worker_id").agg(pl.len().cast(pl.Int64).alias("n_duplicates"), (pl.col("u") == 1).mean().alias("consistency"))
    )
    workers = (
        ann.group_by("worker_id").agg(pl.len().cast(pl.Int64).alias("n_answers"),
                                      (pl.col("label").n_unique() == 1).alias("constant_answers"))
        .join(ctrl_acc, on="worker_id", how="left").join(both, on="worker_id", how="left")
        .with_columns(
            pl.col("n_control").fill_null(0),
            pl.col("control_correct").fill_null(0),
            pl.col("n_duplicates").fill_null(0),
            (pl.col("constant_answers") & (pl.col("n_answers") > 1)).alias("constant_answers"),
            (pl.col("p_below_threshold").fill_null(1.0) < exclusion_alpha).alias("flagged"),
            (pl.col("p_above_chance").fill_null(1.0) < exclusion_alpha).alias("above_chance"),
        )
        .with_columns((pl.col("flagged") & pl.lit(bool(exclude_flagged))).alias("excluded"))
        .sort("worker_id")
    )
    flagged = set(workers.filter(pl.col("flagged"))["worker_id"].to_list())
    excluded = set(workers.filter(pl.col("excluded"))["worker_id"].to_list())
    untested = workers.filter(pl.col("n_control") == 0)["worker_id"].to_list()
    if untested:
        warn(f"{len(untested)} worker(s) answered no control item and were kept untested: {', '.join(untested)}")
    for r in workers.filter(pl.col("flagged")).iter_rows(named=True):
        warn(f"worker {r['worker_id']} is below the control bar: {r['control_correct']}/{r['n_control']} right, "
             f"one-sided binomial p = {r['p_below_threshold']:.3g} < {exclusion_alpha:g} for accuracy < "
             f"{min_control_accuracy:g}; " + ("excluded" if r["excluded"] else "kept (validation.exclude_flagged is false)"))
    n_ctrl = int(workers["n_control"].max() or 0)
    test_info = {
        "test": "one-sided exact binomial test (scipy.stats.binomtest) of control accuracy, "
                "H0: accuracy >= min_control_accuracy vs H1: accuracy < min_control_accuracy",
        "alpha": exclusion_alpha,
        "threshold": min_control_accuracy,
        "n_controls": n_ctrl,
        "max_correct_to_exclude": exclusion_critical(n_ctrl, threshold=min_control_accuracy, alpha=exclusion_alpha),
        "power_at_guessing": exclusion_power(n_ctrl, threshold=min_control_accuracy, alpha=exclusion_alpha),
        "guessing_accuracy": GUESSING_ACCURACY,
        "controls_for_power_0.8": controls_for_power(threshold=min_control_accuracy, alpha=exclusion_alpha),
    }
    if n_ctrl and test_info["power_at_guessing"] < 0.8:
        need = test_info["controls_for_power_0.8"]
        warn(f"the exclusion test has power {test_info['power_at_guessing']:.2f} against a worker guessing yes/no "
             f"with {n_ctrl} controls (alpha {exclusion_alpha:g}, bar {min_control_accuracy:g}); "
             + (f"{need} controls would give power 0.8" if need else "more controls are needed"))
    used = pair_votes.filter(~pl.col("worker_id").is_in(list(excluded)))
    if used.height == 0:
        raise InputError("no annotations of benchmark pairs left to aggregate (only controls, or every worker flagged)")
    included = sorted(used["worker_id"].unique().to_list())
    if len(included) < 2:
        warn(f"only {len(included)} annotator ({', '.join(included)}) is included "
             f"({len(excluded)} excluded: {', '.join(sorted(excluded)) or 'none'}): every label rests on one person "
             "and agreement cannot be measured")
    votes = (
        used.sort("line").unique(["worker_id", "pair_id"], keep="first", maintain_order=True)
        .select(pl.col("pair_id").alias("task"), pl.col("worker_id").alias("worker"), "label")
    )
    per_task, per_worker, confusion = crowd_aggregate(votes)
    workers = workers.join(per_worker, on="worker_id", how="left").with_columns(
        pl.col("worker_id").is_in(included).alias("included")).sort("worker_id")
    for r in workers.filter(pl.col("included")).iter_rows(named=True):
        if r["constant_answers"] or (r["ds_information_bits"] is not None and r["ds_information_bits"] < UNINFORMATIVE_BITS):
            what = "gave the same label to every item" if r["constant_answers"] else "answers independently of the truth"
            warn(f"worker {r['worker_id']} {what}: its answers carry {r['ds_information_bits']:.3f} bits about the true "
                 f"label, which its Dawid–Skene skill ({r['ds_skill']:.3f}) does not show; Dawid–Skene gives it no "
                 "weight, majority vote and Krippendorff's alpha still count it")
    paradigm_of = pair_votes.select("pair_id", "paradigm").unique()
    pairs = (
        per_task.rename({"task": "pair_id"}).join(paradigm_of, on="pair_id", how="left")
        .with_columns((pl.col("label_ds") == "yes").alias("valid"))
        .select("pair_id", "paradigm", "n_votes", "label_mv", "label_ds", "label_wawa", "ds_confidence", "agreement",
                "valid")
        .sort("paradigm", "pair_id")
    )
    prow = []
    for (par,), g in sorted(pairs.group_by(["paradigm"]), key=lambda kg: str(kg[0][0])):
        k, n = int(g["valid"].sum()), g.height
        lo, hi = _wilson(k, n, confidence)
        prow.append({"paradigm": par, "n": n, "valid": k, "validity": k / n, "ci_low": lo, "ci_high": hi,
                     "wawa": float(g["agreement"].mean()), "mv_ds_agree": float((g["label_mv"] == g["label_ds"]).mean())})
    paradigms = pl.DataFrame(prow, schema={"paradigm": pl.String, "n": pl.Int64, "valid": pl.Int64,
                                           "validity": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                           "wawa": pl.Float64, "mv_ds_agree": pl.Float64})
    drop = pairs.filter(~pl.col("valid")).select("pair_id", "paradigm", "n_votes", "label_ds", "ds_confidence")
    single = drop.filter(pl.col("n_votes") < 2)
    if single.height:
        msg = (f"{single.height} of {drop.height} pair(s) to drop were judged by fewer than two included annotators "
               f"(e.g. {single['pair_id'][0]})")
        if not allow_single_annotator:
            raise InputError(f"{msg}: refusing to drop pairs on one person's word; collect more labels, relax the "
                             "exclusion (validation.min_control_accuracy, validation.exclude_flagged), or set config "
                             "key validation.allow_single_annotator: true")
        warn(msg + " (accepted: validation.allow_single_annotator is true)")
    k_all, n_all = int(pairs["valid"].sum()), pairs.height
    lo, hi = _wilson(k_all, n_all, confidence)
    alpha_ci = krippendorff_alpha_ci(votes, n_boot=n_boot, seed=seed, confidence=confidence)
    if alpha_ci["alpha"] is None:
        warn(f"Krippendorff's alpha is undefined: {alpha_ci['reason']}")
    summary = {
        "annotations": annotations.height,
        "workers": workers.height,
        "included_workers": included,
        "flagged_workers": sorted(flagged),
        "excluded_workers": sorted(excluded),
        "excluded_flagged": bool(exclude_flagged),
        "pairs": n_all,
        "valid": k_all,
        "validity": k_all / n_all if n_all else None,
        "validity_ci": [lo, hi],
        "krippendorff_alpha": alpha_ci["alpha"],
        "krippendorff_alpha_ci": [alpha_ci["ci_low"], alpha_ci["ci_high"]],
        "krippendorff_alpha_bootstrap": {k: alpha_ci[k] for k in ("n_boot", "n_undefined", "confidence", "reason")}
        | {"seed": int(seed), "unit": "pairs (resampled with replacement)"},
        "wawa": float(pairs["agreement"].mean()) if n_all else None,
        "mv_ds_agree": float((pairs["label_mv"] == pairs["label_ds"]).mean()) if n_all else None,
        "min_control_accuracy": min_control_accuracy,
        "exclusion_test": test_info,
        "allow_single_annotator": bool(allow_single_annotator),
        "drop": drop.height,
        "drop_single_annotator": single.height,
        "warnings": warnings_out,
    }
    return {"pairs": pairs, "workers": workers, "confusion": confusion, "paradigms": paradigms, "drop": drop,
            "summary": summary}



# --------------------------------------------------------------------------- simulation


def simulate_annotations(
    key: pl.DataFrame,
    truth: Mapping[str, str],
    workers: Sequence[Mapping[str, Any]],
    *,
    overlap: int | None = None,
    seed: int = 0,
) -> pl.DataFrame:
    """Simulated annotators of known behaviour labelling the items of ``key``.

    ``truth`` maps each non-control ``pair_id`` to its true label (controls use their gold
    label).  Each worker is ``{"worker_id", "kind", "accuracy"}`` with kind ``accurate``
    (right with probability ``accuracy``, else a uniformly chosen wrong label),
    ``adversarial`` (the wrong label with probability ``accuracy``) or ``random``
    (uniform over yes/no).  Each item gets ``overlap`` workers (all by default).
    Returns ``item_id, worker_id, label, line`` rows as if read from a TSV.
    """
    rng = random.Random(f"{seed}\x1fsimulate")
    binary = ("yes", "no")
    rows = []
    for it in key.iter_rows(named=True):
        true = it["gold"] if it["kind"] == "control" else truth[it["pair_id"]]
        chosen = list(workers) if overlap is None else rng.sample(list(workers), min(overlap, len(workers)))
        for w in chosen:
            kind, acc = w.get("kind", "accurate"), float(w.get("accuracy", 1.0))
            others = [lab for lab in binary if lab != true]
            if kind == "random":
                lab = rng.choice(binary)
            elif kind == "adversarial":
                lab = rng.choice(others) if rng.random() < acc else true
            else:
                lab = true if rng.random() < acc else rng.choice(others)
            rows.append({"item_id": it["item_id"], "worker_id": str(w["worker_id"]), "label": lab})
    for i, r in enumerate(rows):
        r["line"] = i + 2
    return pl.DataFrame(rows, schema={"item_id": pl.String, "worker_id": pl.String, "label": pl.String,
                                      "line": pl.Int64})


def write_annotations_tsv(df: pl.DataFrame, path: str | os.PathLike) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    w.writerow(["INPUT:item_id", "ASSIGNMENT:worker_id", "OUTPUT:label"])
    for r in df.iter_rows(named=True):
        w.writerow([r["item_id"], r["worker_id"], r["label"]])
    write_text_atomic(path, buf.getvalue())


DEFAULT_SIM_WORKERS = (
    {"worker_id": "sim_good_1", "kind": "accurate", "accuracy": 0.95},
    {"worker_id": "sim_good_2", "kind": "accurate", "accuracy": 0.9},
    {"worker_id": "sim_good_3", "kind": "accurate", "accuracy": 0.85},
    {"worker_id": "sim_random", "kind": "random", "accuracy": 0.5},
    {"worker_id": "sim_adversarial", "kind": "adversarial", "accuracy": 0.9},
)


def simulate_stage(items_csv: str | os.PathLike, out_tsv: str | os.PathLike, *, seed: int = 0,
                   valid_rate: float = 0.9, workers: Sequence[Mapping[str, Any]] | None = None,
                   overlap: int | None = None) -> pl.DataFrame:
    """Simulated annotations of an export (``items.csv``), for the offline demo: each pair is
    truly valid with probability ``valid_rate`` (a seeded hash of its id)."""
    key = pl.read_csv(items_csv, schema_overrides={"gold": pl.String, "paradigm": pl.String})
    truth = {}
    for pid in key.filter(pl.col("kind") != "control")["pair_id"].unique().to_list():
        h = int.from_bytes(hashlib.blake2b(f"{seed}\x1ftruth\x1f{pid}".encode(), digest_size=8).digest(), "big")
        truth[pid] = "yes" if h / 2**64 < valid_rate else "no"
    df = simulate_annotations(key, truth, workers or DEFAULT_SIM_WORKERS, overlap=overlap, seed=seed)
    write_annotations_tsv(df, out_tsv)
    return df


# --------------------------------------------------------------------------- stages


def _read_pools(pools: Iterable[str | os.PathLike]) -> pl.DataFrame:
    frames = [pl.read_parquet(p, columns=["id", "PID"]) for p in pools]
    return pl.concat(frames) if frames else pl.DataFrame(schema={"id": pl.String, "PID": pl.String})


def export_stage(benchmarks: Sequence[str | os.PathLike], out_dir: str | os.PathLike, *, per_paradigm: int = 50,
                 duplicate_fraction: float = 0.1, seed: int = 0) -> dict:
    frames = [pl.read_parquet(p) for p in benchmarks]
    bench = pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()
    if bench.height == 0:
        raise InputError("the benchmark is empty: nothing to validate")
    return export_validation(bench, out_dir, per_paradigm=per_paradigm, duplicate_fraction=duplicate_fraction,
                             seed=seed)


def validation_import_stage(
    annotations: str | os.PathLike,
    pools: Sequence[str | os.PathLike],
    out_dir: str | os.PathLike,
    *,
    seed: int = 0,
    min_control_accuracy: float = 0.7,
    exclude_flagged: bool = True,
    exclusion_alpha: float = 0.05,
    allow_single_annotator: bool = False,
    n_boot: int = 1000,
    simulated: bool = False,
) -> dict:
    """Read, check and aggregate ``annotations`` (:func:`aggregate_annotations`); write
    pairs/workers/confusion/paradigms/drop CSVs and summary.json.  Nothing is written when the
    aggregation refuses (drops decided by fewer than two annotators without
    ``allow_single_annotator``)."""
    key = item_key(_read_pools(pools), seed=seed)
    ann = read_annotations(annotations, key)
    res = aggregate_annotations(ann, key, min_control_accuracy=min_control_accuracy, exclude_flagged=exclude_flagged,
                                exclusion_alpha=exclusion_alpha, allow_single_annotator=allow_single_annotator,
                                n_boot=n_boot, seed=seed)
    out = Path(out_dir)
    for name in ("pairs", "workers", "confusion", "paradigms", "drop"):
        write_csv_atomic(res[name], out / f"{name}.csv")
    summary = {**res["summary"], "annotations_file": str(annotations), "simulated": bool(simulated)}
    write_json_atomic(out / "summary.json", summary)
    lo, hi = summary["krippendorff_alpha_ci"]
    log.info("validation import: %d pairs, validity %.3f, %d of %d workers included, alpha %s (95%% bootstrap CI %s-%s)"
             ", %d to drop, %d warning(s)", summary["pairs"], summary["validity"] or 0, len(summary["included_workers"]),
             summary["workers"], summary["krippendorff_alpha"], lo, hi, summary["drop"], len(summary["warnings"]))
    return summary


def read_drop_list(path: str | os.PathLike) -> set[str]:
    """Pair ids to drop from ``drop.csv`` written by :func:`validation_import_stage`."""
    p = Path(path)
    if not p.exists():
        raise InputError("drop list not found", p)
    df = pl.read_csv(p, schema_overrides={"pair_id": pl.String})
    if "pair_id" not in df.columns:
        raise InputError("drop list lacks column 'pair_id'", p, 1)
    return set(df["pair_id"].to_list())


def section_stage(items_csv: str | os.PathLike, out_md: str | os.PathLike, *,
                  summary: str | os.PathLike | None = None) -> str:
    """The report's validation section (:func:`rublimp.report.validation_section`) from the stage outputs."""
    from .report import validation_section

    key = pl.read_csv(items_csv, schema_overrides={"gold": pl.String, "paradigm": pl.String, "pair_id": pl.String})
    summ = paradigms = workers = confusion = None
    if summary is not None:
        d = Path(summary).parent
        summ = json.loads(Path(summary).read_text(encoding="utf-8"))
        paradigms = pl.read_csv(d / "paradigms.csv")
        workers = pl.read_csv(d / "workers.csv", schema_overrides={"worker_id": pl.String})
        if (d / "confusion.csv").exists():
            confusion = pl.read_csv(d / "confusion.csv", schema_overrides={"worker_id": pl.String})
    text = validation_section(key, summ, paradigms, workers, confusion)
    write_text_atomic(out_md, text)
    return text
