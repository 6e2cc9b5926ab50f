"""The evaluation report: Markdown summary, CSV/Parquet tables and plots.

:func:`write_report` turns per-model × per-paradigm results (from
:func:`rublimp.evaluation.aggregate`, or per-pair results from
:func:`rublimp.evaluation.evaluate`, aggregated here) and the curation reports of
:func:`rublimp.curation.curate` into::

    out_dir/summary.md                   models × phenomena, per-paradigm and curation tables
    out_dir/results.csv, results.parquet one row per model × paradigm, every statistic
    out_dir/phenomena.csv                per model × phenomenon macro averages
    out_dir/curation.csv                 one row per paradigm (when curation reports are given)
    out_dir/paradigms/<PID>.csv          one row per model
    out_dir/accuracy_by_phenomenon.png   grouped bars per model
    out_dir/delta_hist.png               distribution of Δ log-prob per model
    out_dir/acceptability.csv, tags.csv  RuCoLA- and RuParam-style views (per-pair input only)
    out_dir/comparisons.csv              McNemar's exact test per model pair, per paradigm and overall,
                                         Holm-corrected (per-pair input, two or more models)

Text outputs are deterministic: rows are sorted and floats use fixed formats.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from rublimp.curation import ThresholdResult  # noqa: E402
from rublimp.evaluation import (  # noqa: E402
    acceptability_eval,
    accuracy_by_tag,
    aggregate,
    model_summary,
    pairwise_mcnemar,
    phenomenon_summary,
)
from rublimp.io import InputError, atomic_path, write_csv_atomic, write_parquet_atomic, write_text_atomic  # noqa: E402

__all__ = ["curation_table", "paradigm_filename", "write_report"]

log = logging.getLogger("rublimp")

_RESULT_COLUMNS = ("model", "PID", "n", "accuracy_sum", "accuracy_ppl", "delta_mean", "p_value")
_CURATION_COLUMNS = ("paradigm", "pool", "scored", "threshold", "survivors", "selected", "short_pool")
#: PNG metadata without the matplotlib version, so plots do not change with the library version.
_PNG_METADATA = {"Software": None}

CurationReports = Mapping[str, Any] | ThresholdResult | Iterable[Mapping[str, Any] | ThresholdResult] | None


# --------------------------------------------------------------------------- formatting helpers


def _pct(x: float | None) -> str:
    return "—" if x is None or not np.isfinite(x) else f"{100.0 * x:.2f}"


def _num(x: float | None, fmt: str) -> str:
    return "—" if x is None or not np.isfinite(x) else format(x, fmt)


def _md_table(headers: Sequence[str], rows: Iterable[Sequence[str]], right: Sequence[bool] | None = None) -> str:
    """A GitHub-flavoured Markdown table (hand-written: polars prints Markdown only with dtype rows)."""
    right = right if right is not None else [False] + [True] * (len(headers) - 1)
    esc = [h.replace("|", "\\|") for h in headers]
    lines = ["| " + " | ".join(esc) + " |", "|" + "|".join("---:" if r else ":---" for r in right) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    return "\n".join(lines) + "\n"


def paradigm_filename(pid: str) -> str:
    """A file-system-safe name for a paradigm's CSV (letters, digits, ``_``, ``-``, ``.``)."""
    name = re.sub(r"[^\w.-]+", "_", str(pid)).strip("._")
    return (name or "paradigm") + ".csv"


# --------------------------------------------------------------------------- inputs


def curation_table(curation_reports: CurationReports) -> pl.DataFrame:
    """One row per paradigm from :func:`curate` reports, their entries or :class:`ThresholdResult` objects.

    Columns: paradigm, pool, scored, threshold, survivors, selected (null when unknown),
    short_pool, message; sorted by paradigm.
    """
    if curation_reports is None:
        items: list[Any] = []
    elif isinstance(curation_reports, (Mapping, ThresholdResult)):
        items = [curation_reports]
    else:
        items = list(curation_reports)
    entries: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, ThresholdResult):
            entries.append(item.to_dict())
        elif isinstance(item, Mapping) and "paradigms" in item:
            entries.extend(dict(e) for e in item["paradigms"])
        elif isinstance(item, Mapping) and "paradigm" in item:
            entries.append(dict(item))
        else:
            raise InputError(f"unrecognised curation report {type(item).__name__}: expected curate()'s report dict")
    schema = {
        "paradigm": pl.String, "pool": pl.Int64, "scored": pl.Int64, "threshold": pl.Float64,
        "survivors": pl.Int64, "selected": pl.Int64, "short_pool": pl.Boolean, "message": pl.String,
    }
    rows = [{c: e.get(c) for c in schema} for e in entries]
    table = pl.DataFrame(rows, schema=schema).sort("paradigm")
    dup = table.group_by("paradigm").len().filter(pl.col("len") > 1)
    if dup.height:
        raise InputError(f"curation reports list paradigm {dup['paradigm'][0]!r} more than once")
    return table


def _banner(curation_reports: CurationReports, cur: pl.DataFrame) -> list[str]:
    """Warnings for the top of summary.md: a benchmark that is not decontaminated (the curation
    reports' ``decontaminated: false``, see :func:`rublimp.curation.decontamination_status`),
    and paradigms curated from a short pool."""
    if curation_reports is None or isinstance(curation_reports, (Mapping, ThresholdResult)):
        items = [curation_reports] if curation_reports is not None else []
    else:
        items = list(curation_reports)
    out = []
    failed: dict[str, list[str]] = {}
    for item in items:
        if isinstance(item, Mapping) and item.get("decontaminated") is False:
            reason = str(item.get("decontamination_reason") or "the detection check failed")
            failed.setdefault(reason, []).extend(str(e.get("paradigm")) for e in item.get("paradigms") or [])
    for reason, pids in failed.items():
        out.append(f"**this benchmark is NOT decontaminated**: {reason}. Paradigms: "
                   f"{', '.join(sorted(pids)) or '—'}.")
    if cur.height:
        short = cur.filter(pl.col("short_pool").fill_null(False))
        if short.height:
            out.append(f"{short.height} of {cur.height} paradigm(s) had a short pool (fewer than n pairs passed the "
                       f"threshold; all are kept): {', '.join(short['paradigm'].to_list())}. See the curation table.")
    return out


def _split_results(results: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    if "correct_sum" in results.columns and "accuracy_sum" not in results.columns:
        return aggregate(results), results
    missing = [c for c in _RESULT_COLUMNS if c not in results.columns]
    if missing:
        raise InputError(f"results lack column(s) {missing}; pass aggregate() or evaluate() output")
    return results, None


# --------------------------------------------------------------------------- plots


def _save_png(fig: plt.Figure, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=120, metadata=_PNG_METADATA)
    plt.close(fig)


def _model_colors(models: list[str]) -> list[tuple[float, float, float, float]]:
    """Distinct colours for up to 20 models (tab10/tab20), a continuous map beyond."""
    n = len(models)
    if n <= 20:
        cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
        return [cmap(i) for i in range(n)]
    cmap = plt.get_cmap("turbo")
    return [cmap(i / (n - 1)) for i in range(n)]


def _plot_accuracy(table: pl.DataFrame, group_col: str, models: list[str], path: Path) -> None:
    groups = table[group_col].unique().sort().to_list()
    acc = {(r["model"], r[group_col]): r["accuracy_sum"] for r in table.iter_rows(named=True)}
    width = 0.8 / max(len(models), 1)
    x = np.arange(len(groups))
    fig_width = min(24.0, max(6.0, 0.35 * len(groups) * max(1, len(models)) ** 0.5 + 3.0))
    fig, ax = plt.subplots(figsize=(fig_width, 4.5))
    for i, (model, color) in enumerate(zip(models, _model_colors(models))):
        heights = [100.0 * (acc.get((model, g)) or 0.0) for g in groups]
        ax.bar(x - 0.4 + width * (i + 0.5), heights, width, label=model, color=color)
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_xticks(x, groups, rotation=45, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("accuracy, % (summed log-prob)")
    ax.set_title(f"Accuracy by {group_col}")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    _save_png(fig, path)


def _plot_delta(results: pl.DataFrame, pairs: pl.DataFrame | None, models: list[str], path: Path) -> None:
    source, column = (pairs, "delta") if pairs is not None else (results, "delta_mean")
    values = {m: source.filter(pl.col("model") == m)[column].drop_nulls().to_numpy() for m in models}
    everything = np.concatenate([v for v in values.values() if v.size] or [np.zeros(1)])
    bins = np.histogram_bin_edges(everything, bins=40)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for model, color in zip(models, _model_colors(models)):
        if values[model].size:
            ax.hist(values[model], bins=bins, histtype="step", linewidth=1.5, label=model, color=color)
    ax.axvline(0.0, color="grey", linestyle="--", linewidth=1)
    what = "per pair" if pairs is not None else "per paradigm (mean)"
    ax.set_xlabel("Δ = ln P(grammatical) − ln P(ungrammatical)")
    ax.set_ylabel("count")
    ax.set_title(f"Δ log-prob {what}")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    _save_png(fig, path)


# --------------------------------------------------------------------------- summary.md sections


def _phenomenon_section(results: pl.DataFrame, models: list[str]) -> tuple[str, pl.DataFrame | None]:
    overall = {r["model"]: r for r in model_summary(results).iter_rows(named=True)}
    lines = []
    if "phenomenon" in results.columns:
        phen = phenomenon_summary(results)
        sort_keys = [c for c in ("level", "phenomenon") if c in phen.columns]
        names = phen.select(sort_keys).unique().sort(sort_keys)["phenomenon"].to_list()
        acc = {(r["model"], r["phenomenon"]): r["accuracy_sum"] for r in phen.iter_rows(named=True)}
        rows = [[m, *[_pct(acc.get((m, p))) for p in names], _pct(overall[m]["accuracy_sum"])] for m in models]
        lines.append("## Accuracy by phenomenon (%)\n\n")
        lines.append(_md_table(["Model", *names, "Overall"], rows))
        lines.append(
            "\nAccuracy by summed log-probability. A phenomenon's score is the macro-average over its "
            "paradigms; Overall is the macro-average over all paradigms.\n"
        )
    else:
        phen = None
    rows = [
        [
            m,
            str(overall[m]["n_paradigms"]),
            str(overall[m]["n_pairs"]),
            _pct(overall[m]["accuracy_sum"]),
            _pct(overall[m]["accuracy_ppl"]),
            _num(overall[m]["delta_mean"], ".3f"),
        ]
        for m in models
    ]
    lines.append("\n## Overall per model\n\n")
    lines.append(_md_table(["Model", "Paradigms", "Pairs", "Acc. sum (%)", "Acc. PPL (%)", "Mean Δ"], rows))
    return "".join(lines), phen


def _paradigm_section(results: pl.DataFrame, models: list[str], alpha: float) -> str:
    meta = [c for c in ("level", "phenomenon") if c in results.columns]
    keys = [*meta, "PID"]
    pids = results.group_by(keys).agg(pl.col("n").min().alias("n_min"), pl.col("n").max().alias("n_max")).sort(keys)
    cell = {
        (r["model"], r["PID"]): _pct(r["accuracy_sum"]) + ("†" if not r["p_value"] < alpha else "")
        for r in results.iter_rows(named=True)
    }
    rows = []
    for r in pids.iter_rows(named=True):
        n = str(r["n_max"]) if r["n_min"] == r["n_max"] else f"{r['n_min']}–{r['n_max']}"
        rows.append([*[str(r[c]) for c in meta], str(r["PID"]), n, *[cell.get((m, r["PID"]), "—") for m in models]])
    headers = [c.capitalize() for c in meta] + ["Paradigm", "n", *models]
    right = [False] * (len(meta) + 1) + [True] * (1 + len(models))
    return (
        "\n## Accuracy by paradigm (%)\n\n"
        + _md_table(headers, rows, right)
        + f"\n† not above chance: one-sided binomial test p ≥ {alpha:g} (ties count as errors).\n"
    )


def _curation_section(cur: pl.DataFrame) -> str:
    rows = [
        [
            r["paradigm"],
            str(r["pool"]),
            str(r["scored"]),
            _num(r["threshold"], ".4f"),
            str(r["survivors"]),
            "—" if r["selected"] is None else str(r["selected"]),
            "yes" if r["short_pool"] else "no",
        ]
        for r in cur.iter_rows(named=True)
    ]
    headers = ["Paradigm", "Pool", "Scored", "t", "Survivors", "Selected", "Short pool"]
    text = "\n## Curation (Min-K% decontamination)\n\n" + _md_table(headers, rows)
    notes = [f"- {r['paradigm']}: {r['message']}" for r in cur.iter_rows(named=True) if r["message"]]
    if notes:
        text += "\n" + "\n".join(notes) + "\n"
    return text


def _acceptability_section(acc: pl.DataFrame) -> str:
    rows = [
        [
            r["model"],
            _num(r["threshold"], ".4f"),
            _num(r["dev_mcc"], ".3f"),
            _num(r["test_mcc"], ".3f"),
            _pct(r["test_accuracy"]),
            str(r["n_dev"]),
            str(r["n_test"]),
        ]
        for r in acc.iter_rows(named=True)
    ]
    alpha = acc["alpha"][0] if acc.height else 1.0
    return (
        f"\n## Single-sentence acceptability (RuCoLA-style, PenLP α={alpha:g})\n\n"
        + _md_table(["Model", "Threshold", "Dev MCC", "Test MCC", "Test acc. (%)", "Dev items", "Test items"], rows)
        + "\nEach sentence of a pair is a separate item; the PenLP threshold maximises MCC on the dev split.\n"
    )


def _comparison_section(comp: pl.DataFrame, alpha: float) -> str:
    def row(r: Mapping[str, Any], with_scope: bool) -> list[str]:
        mark = " *" if r["p_holm"] < alpha else ""
        return [*([r["scope"]] if with_scope else []), r["model_a"], r["model_b"], str(r["n"]),
                _pct(r["accuracy_a"]), _pct(r["accuracy_b"]), str(r["b"]), str(r["c"]),
                _num(r["p_value"], ".3g"), _num(r["p_holm"], ".3g") + mark]

    headers = ["Model A", "Model B", "Pairs", "Acc. A (%)", "Acc. B (%)", "Only A right", "Only B right", "p",
               "p (Holm)"]
    overall = comp.filter(pl.col("scope") == "(overall)")
    per = comp.filter(pl.col("scope") != "(overall)")
    text = (
        "\n## Pairwise model comparison (McNemar's exact test)\n\n"
        "For each pair of models, the pairs both were evaluated on: *only A right* and *only B right* are the "
        "discordant pairs (by summed log-probability; ties count as errors), and p is the two-sided exact binomial "
        "test of them against 1/2 (McNemar's exact test). Holm's correction runs over the overall tests and, "
        f"separately, over all per-paradigm tests; * marks a Holm-adjusted p < {alpha:g}.\n\n"
        "Overall:\n\n" + _md_table(headers, [row(r, False) for r in overall.iter_rows(named=True)],
                                      [False, False] + [True] * 7)
    )
    if per.height:
        text += "\nPer paradigm:\n\n" + _md_table(["Paradigm", *headers], [row(r, True) for r in per.iter_rows(named=True)],
                                                     [False, False, False] + [True] * 7)
    return text


def _tags_section(tags: pl.DataFrame, tag_cols: list[str], models: list[str], top: int) -> str:
    rows_by_key = {(r["model"], tuple(r[c] for c in tag_cols)): r for r in tags.iter_rows(named=True)}
    flagged = {key for (_, key), r in rows_by_key.items() if r["top_error"]}
    if not flagged:
        return ""
    rows = []
    for key in flagged:
        cells, marks = [], 0
        for m in models:
            r = rows_by_key.get((m, key))
            if r is None:
                cells.append("—")
                continue
            marks += bool(r["top_error"])
            cells.append(_pct(r["accuracy"]) + (" +" if r["top_error"] else ""))
        rows.append([*key, *cells, str(marks)])
    rows.sort(key=lambda r: (-int(r[-1]), r[: len(tag_cols)]))
    headers = [*tag_cols, *models, "Sum"]
    right = [False] * len(tag_cols) + [True] * (len(models) + 1)
    return (
        f"\n## Most error-prone tags (RuParam-style, top {top} per model)\n\n"
        + _md_table(headers, rows, right)
        + "\nAccuracy (%) by summed log-prob; `+`: among the model's lowest-accuracy tags; "
        "Sum: for how many models. Every tag is in tags.csv.\n"
    )


# --------------------------------------------------------------------------- entry point


def write_report(
    results_df: pl.DataFrame,
    curation_reports: CurationReports,
    out_dir: str | os.PathLike,
    *,
    title: str = "Minimal-pair evaluation report",
    alpha: float = 0.05,
    penlp_alpha: float = 1.0,
    seed: int = 0,
    tags: Sequence[str] = ("subtype",),
    top_tags: int = 10,
    extra_sections: Sequence[str] = (),
) -> dict[str, Path]:
    """Write the evaluation report into ``out_dir`` and return the written paths by name.

    Args:
        results_df: per model × paradigm results from :func:`rublimp.evaluation.aggregate`,
            or per-pair results from :func:`rublimp.evaluation.evaluate` (then also the
            RuCoLA-style acceptability and RuParam-style tag views are written).
        curation_reports: ``curate()`` report dict(s), their per-paradigm entries,
            :class:`ThresholdResult` objects, or ``None``.
        out_dir: output folder (created).
        title: the summary's heading.
        alpha: significance level of the binomial test; accuracies with p ≥ alpha are marked †.
        penlp_alpha: PenLP length exponent α for the acceptability view.
        seed: seed of the acceptability dev/test split.
        tags: tag columns for the RuParam-style breakdown (those absent are skipped).
        top_tags: how many error-prone tags to flag per model.
        extra_sections: Markdown sections appended to the summary (validation, metalinguistic
            prompting and acceptability: :func:`validation_section`, :func:`metalinguistic_section`,
            :func:`acceptability_section`).
    """
    # Compute every table first, so bad input fails before anything is written.
    if not 0.0 < alpha < 1.0:
        raise InputError(f"config key 'evaluation.alpha' must be in (0, 1), got {alpha!r}")
    results, pairs = _split_results(results_df)
    if results.height == 0:
        raise InputError("results are empty: nothing to report")
    models = sorted(results["model"].unique().to_list())
    sort_keys = ["model", *[c for c in ("level", "phenomenon") if c in results.columns], "PID"]
    results = results.sort(sort_keys)
    files: dict[str, str] = {}
    for pid in sorted(results["PID"].unique().to_list()):
        name = paradigm_filename(pid)
        if name in files:
            raise InputError(f"paradigms {files[name]!r} and {pid!r} map to the same file name {name!r}")
        files[name] = pid
    cur = curation_table(curation_reports)
    banner = _banner(curation_reports, cur)
    for w in banner:
        log.warning("report: %s", w)
    phen_text, phen = _phenomenon_section(results, models)
    sections = [
        f"# {title}\n\n",
        _warning_block(banner) + ("\n" if banner else ""),
        f"Models: {', '.join(models)}. Paradigms: {len(files)}.\n\n",
        phen_text,
        _paradigm_section(results, models, alpha),
    ]
    if cur.height:
        sections.append(_curation_section(cur))
    tables: dict[str, pl.DataFrame] = {"results.csv": results}
    if phen is not None:
        tables["phenomena.csv"] = phen
    if cur.height:
        tables["curation.csv"] = cur
    tag_cols: list[str] = []
    if pairs is not None:
        acc = acceptability_eval(pairs, alpha=penlp_alpha, seed=seed)
        tables["acceptability.csv"] = acc
        sections.append(_acceptability_section(acc))
        if len(models) > 1:
            comp = pairwise_mcnemar(pairs)
            tables["comparisons.csv"] = comp
            sections.append(_comparison_section(comp, alpha))
        tag_cols = [c for c in tags if c in pairs.columns]
        if tag_cols:
            tag_table = accuracy_by_tag(pairs, tags=tag_cols, top=top_tags)
            tables["tags.csv"] = tag_table
            sections.append(_tags_section(tag_table, tag_cols, models, top_tags))

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    write_parquet_atomic(results, out / "results.parquet")
    written["results.parquet"] = out / "results.parquet"
    for name, table in tables.items():
        write_csv_atomic(table, out / name)
        written[name] = out / name
    for name, pid in files.items():
        write_csv_atomic(results.filter(pl.col("PID") == pid).sort("model"), out / "paradigms" / name)
        written[f"paradigms/{name}"] = out / "paradigms" / name
    if phen is not None:
        _plot_accuracy(phen, "phenomenon", models, out / "accuracy_by_phenomenon.png")
    else:
        _plot_accuracy(results, "PID", models, out / "accuracy_by_phenomenon.png")
    _plot_delta(results, pairs, models, out / "delta_hist.png")
    written["accuracy_by_phenomenon.png"] = out / "accuracy_by_phenomenon.png"
    written["delta_hist.png"] = out / "delta_hist.png"
    sections.extend(extra_sections)
    write_text_atomic(out / "summary.md", "".join(sections))
    written["summary.md"] = out / "summary.md"
    return dict(sorted(written.items()))


# --------------------------------------------------------------------------- sections of other stages
# Each returns Markdown appended to summary.md (write_report's ``extra_sections``).


def _warning_block(warnings: Sequence[str]) -> str:
    """A Markdown block quote listing warnings (empty when none)."""
    if not warnings:
        return ""
    return "\n" + "\n>\n".join(f"> **WARNING:** {w}" for w in warnings) + "\n"


def validation_section(
    key: pl.DataFrame,
    summary: Mapping[str, Any] | None = None,
    paradigms: pl.DataFrame | None = None,
    workers: pl.DataFrame | None = None,
    confusion: pl.DataFrame | None = None,
) -> str:
    """Human validation: the export's size and, once annotations are imported, validity, agreement
    (Krippendorff's α with its bootstrap interval), the annotator exclusion test with its power,
    every warning of the import, and each annotator's Dawid–Skene confusion matrix."""
    kinds = {k: int(v) for k, v in key.group_by("kind").len().iter_rows()}
    text = [
        "\n## Human validation (RuBLiMP §2.5)\n\n",
        f"Exported {kinds.get('pair', 0)} pairs ({key.filter(pl.col('kind') != 'control')['paradigm'].n_unique()} "
        f"paradigms) with {kinds.get('duplicate', 0)} duplicated items (consistency) and {kinds.get('control', 0)} "
        "golden controls to `validation/tasks.tsv` (crowdsourcing platforms) and "
        "`validation/label_studio_project.json` + `label_studio_tasks.json` (Label Studio). "
        "Annotators judge whether each pair isolates one change that makes the second sentence ungrammatical "
        "(yes / no / na); labels are aggregated with Dawid–Skene (crowd-kit), a pair is valid when its "
        "aggregated label is *yes*, validity gets a 95% Wilson interval, agreement is Krippendorff's α (nominal, "
        "with a seeded percentile bootstrap interval over pairs) and WAWA (share of votes equal to the aggregate). "
        "An annotator is excluded only when a one-sided exact binomial test shows its control accuracy below the "
        "bar. Set `curation.drop_invalid: <annotations>` to replace the invalid pairs in the benchmark.\n",
    ]
    if summary is None:
        text.append("\nNo annotations imported yet (set `validation.annotations`).\n")
        return "".join(text)
    if summary.get("simulated"):
        text.append(
            "\n**These annotations are SIMULATED** (`validation.simulate`: annotators of known accuracy, one random "
            "and one adversarial, on pairs made valid at random): they exercise the round trip, they say nothing "
            "about the pairs.\n"
        )
    text.append(_warning_block(summary.get("warnings") or []))
    lo, hi = summary.get("validity_ci") or (None, None)
    alpha_k = summary.get("krippendorff_alpha")
    a_lo, a_hi = summary.get("krippendorff_alpha_ci") or (None, None)
    boot = summary.get("krippendorff_alpha_bootstrap") or {}
    if alpha_k is None:
        alpha_text = f"Krippendorff's α: undefined ({boot.get('reason') or 'too few annotators'})"
    else:
        alpha_text = (f"Krippendorff's α = {_num(alpha_k, '.3f')} (95% bootstrap CI {_num(a_lo, '.3f')} to "
                      f"{_num(a_hi, '.3f')}, {boot.get('n_boot', '?')} resamples of the pairs, seed {boot.get('seed', '?')})")
    included = summary.get("included_workers")
    n_incl = len(included) if included is not None else summary["workers"]
    text.append(
        f"\nAnnotations: {summary['annotations']} from {summary['workers']} workers, {n_incl} included in the "
        f"aggregation. Valid pairs: {summary['valid']}/{summary['pairs']} = {_pct(summary['validity'])}% "
        f"(95% CI {_pct(lo)}–{_pct(hi)}). {alpha_text}; WAWA = {_pct(summary.get('wawa'))}%; majority vote and "
        f"Dawid–Skene agree on {_pct(summary.get('mv_ds_agree'))}% of pairs. Pairs to drop: {summary['drop']}"
        + (f" ({summary['drop_single_annotator']} judged by one annotator)" if summary.get("drop_single_annotator")
           else "") + ".\n\n"
    )
    test = summary.get("exclusion_test")
    if test:
        text.append(
            f"Exclusion test: one-sided exact binomial test of each annotator's control accuracy, H0 accuracy ≥ "
            f"{_num(test['threshold'], 'g')} against H1 accuracy < {_num(test['threshold'], 'g')}, α = "
            f"{_num(test['alpha'], 'g')}. With {test['n_controls']} controls an annotator is excluded at "
            f"{test['max_correct_to_exclude']} or fewer right answers; the test's power against an annotator "
            f"guessing yes/no (accuracy {_num(test['guessing_accuracy'], 'g')}) is {_num(test['power_at_guessing'], '.2f')}"
            + (f" ({test['controls_for_power_0.8']} controls would give 0.8)" if test.get("controls_for_power_0.8") else "")
            + ". *Above chance*: one-sided test against the accuracy of the best constant answer on the controls "
            "(reported, not used to exclude).\n\n"
        )
    if paradigms is not None and paradigms.height:
        rows = [[r["paradigm"], str(r["n"]), str(r["valid"]), _pct(r["validity"]),
                 f"{_pct(r['ci_low'])}–{_pct(r['ci_high'])}", _pct(r["wawa"])] for r in paradigms.iter_rows(named=True)]
        text.append(_md_table(["Paradigm", "Pairs", "Valid", "Validity (%)", "95% CI", "WAWA (%)"], rows))
    if workers is not None and workers.height:
        cols = workers.columns

        def status(r: Mapping[str, Any]) -> str:
            if r.get("excluded"):
                return "**excluded**"
            if r["flagged"]:
                return "**flagged** (kept)"
            return "included" if r.get("included", True) else "no pair votes"

        rows = []
        for r in workers.iter_rows(named=True):
            ctrl = (f"{r['control_correct']}/{r['n_control']}" if "control_correct" in cols
                    else f"{_pct(r['control_accuracy'])}% ({r['n_control']})")
            rows.append([
                r["worker_id"], str(r["n_answers"]), ctrl,
                _num(r.get("p_below_threshold"), ".3g"), _num(r.get("p_above_chance"), ".3g"),
                _pct(r["consistency"]) if r["n_duplicates"] else "—", _num(r["ds_skill"], ".3f"),
                _num(r.get("ds_information_bits"), ".3f"), status(r),
            ])
        text.append(f"\nAnnotators (bar: control accuracy {_pct(summary.get('min_control_accuracy'))}%):\n\n")
        text.append(_md_table(["Worker", "Answers", "Controls right", "p (below bar)", "p (above chance)",
                               "Consistency (%)", "DS skill", "DS information (bits)", "Status"], rows))
    if confusion is not None and confusion.height:
        labels = [lab for lab in ("yes", "no", "na") if lab in set(confusion["label"].to_list())]
        prob = {(r["worker_id"], r["true_label"], r["label"]): r["probability"] for r in confusion.iter_rows(named=True)}
        rows = []
        for w in sorted(set(confusion["worker_id"].to_list())):
            for t in labels:
                rows.append([w, t, *[_num(prob.get((w, t, o)), ".2f") for o in labels]])
        text.append(
            "\nDawid–Skene confusion matrices of the included annotators: P(answer | true label). An annotator "
            "whose rows are all alike answers the same whatever the truth and carries no information, "
            "however high its skill.\n\n"
        )
        text.append(_md_table(["Worker", "True label", *[f"answers {o}" for o in labels]], rows,
                              [False, False] + [True] * len(labels)))
    return "".join(text)


def metalinguistic_section(summaries: Sequence[Mapping[str, Any]]) -> str:
    """Metalinguistic prompting (RuParam): accuracy per order, position bias, agreement with probabilities."""
    text = [
        "\n## Metalinguistic prompting (RuParam-style, both orders)\n\n",
        "Each causal LM is asked in Russian which of two sentences is grammatical, once with the grammatical "
        "sentence first and once second; its answer is the option label (1 or 2) with the higher next-token "
        "log-probability after the prompt (no generation; the chat template is applied when the tokenizer has one). "
        "*Both* counts a pair only when both orders are answered correctly (RuParam's criterion); *debiased* "
        "averages the label margin over the two orders; position bias is the share of answers “1” minus 0.5 "
        "(+0.5: always the first sentence); agreement is with the probability-based verdict (summed log-prob). "
        "Chance is 50% per order and 25% for both; a small LM near chance is expected.\n\n",
    ]
    rows, notes = [], []
    for s in summaries:
        o = s.get("overall")
        asked = o["n_pairs"] if o else 0
        candidates = s.get("candidates")
        pairs = f"{asked} of {candidates}" if candidates is not None else str(asked)
        if s.get("too_long"):
            by_par = s.get("skipped_by_paradigm") or {}
            worst = sorted(by_par.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
            notes.append(
                f"**{s['model']}: Pairs {asked} of {candidates}; {s['too_long']} skipped: longer than the model's "
                f"context** ({s.get('max_length')} tokens with the prompt; most in "
                f"{', '.join(f'{p} ({n})' for p, n in worst)})."
            )
        if s.get("not_needed"):
            notes.append(f"{s['model']}: {s['not_needed']} further candidate pair(s) fit but were not needed "
                         f"(`metalinguistic.pairs_per_paradigm` = {s.get('pairs_per_paradigm')}).")
        if not o:
            rows.append([s["model"], pairs, "—", "—", "—", "—", "—", "—"])
            continue
        rows.append([s["model"], pairs, _pct(o["acc_good_first"]), _pct(o["acc_bad_first"]),
                     _pct(o["acc_both"]), _pct(o["acc_debiased"]), _num(o["position_bias"], "+.3f"),
                     _pct(o.get("agree_prob"))])
    text.append(_md_table(["Model", "Pairs", "Acc. grammatical 1st (%)", "Acc. grammatical 2nd (%)", "Both (%)",
                           "Debiased (%)", "Position bias", "Agreement w/ prob. (%)"], rows))
    if notes:
        text.append("\n*Pairs*: asked of the candidates sampled (per paradigm up to 4 × `pairs_per_paradigm`, seeded); "
                    "a pair is skipped when either order's prompt does not fit the model's context.\n\n")
        text.append("".join(f"- {n}\n" for n in notes))
    return "".join(text)


def acceptability_section(summaries: Sequence[Mapping[str, Any]]) -> str:
    """RuCoLA-style acceptability with PenLP and SLOR: dev threshold, test MCC with a bootstrap CI."""
    rows = []
    n_boot = alpha = None
    for s in summaries:
        n_boot, alpha = s.get("bootstrap"), s.get("penlp_alpha")
        for r in s["rows"]:
            rows.append([s["model"], "PenLP" if r["measure"] == "penlp" else "SLOR", _num(r.get("threshold"), ".4f"),
                         _num(r.get("dev_mcc"), ".3f"), _num(r.get("test_mcc"), ".3f"),
                         f"{_num(r.get('mcc_ci_low'), '.3f')} – {_num(r.get('mcc_ci_high'), '.3f')}",
                         _pct(r.get("test_accuracy")), str(r["n_dev"]), str(r["n_test"])])
    return (
        "\n## Acceptability: PenLP and SLOR (RuCoLA-style MCC)\n\n"
        "Every benchmark sentence is a single item (grammatical = acceptable). PenLP = log P / ((5+|s|)/6)^α "
        f"(α = {_num(alpha, 'g')}) and SLOR = (log P_LM(s) − log P_unigram(s)) / |s| — |s| in LM tokens, unigram "
        "frequencies of the same tokens counted once over the corpus stage's sentences — are thresholded at the "
        "value maximising MCC on a dev half of the pairs (split by pair, so a pair's two sentences stay together); "
        f"test MCC comes with a 95% percentile bootstrap interval ({n_boot} resamples). SLOR removes the part of "
        "a sentence's probability explained by word frequency. `python -m rublimp acceptability --model M --input "
        "items.csv` scores a RuCoLA-style CSV (sentence, acceptable) the same way.\n\n"
        + _md_table(["Model", "Measure", "Threshold", "Dev MCC", "Test MCC", "95% CI", "Test acc. (%)", "Dev items",
                     "Test items"], rows)
        + "".join(f"\n- {s['model']}: {s['skipped_items']} item(s) skipped, without a log-probability "
                  "(longer than the model's context)\n" for s in summaries if s.get("skipped_items"))
    )
