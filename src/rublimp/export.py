"""Publish a curated benchmark where people evaluate: a Hugging Face dataset folder and
lm-evaluation-harness tasks.

:func:`export_benchmark` reads ``benchmark/<paradigm>.parquet`` (and the curation
reports) and writes two folders:

``hf/``
    ``datasets.load_dataset(hf_dir, "<paradigm>")`` loads one paradigm offline (split
    ``test``); ``load_dataset(hf_dir)`` loads the default config ``all``.  Files:
    ``data/<paradigm>/test.parquet`` (RuBLiMP's columns in RuBLiMP's order, then ours)
    and ``README.md``, the dataset card (YAML ``configs:`` and ``dataset_info:``
    blocks, license, size category, how the benchmark was built, per-phenomenon table).
``lm_eval/``
    ``lm_eval --include_path <lm_eval dir> --tasks <group or paradigm>``: one
    ``multiple_choice`` task per paradigm, named exactly as the paradigm, written the
    way lm-eval's own BLiMP and MultiBLiMP tasks are (empty context, the pair as the
    choices, target 0, accuracy); one group per phenomenon (``<name>_<phenomenon>``)
    and one for the whole benchmark (``<name>``).  The tasks read the Parquet files of
    ``hf/`` by the path given as ``data_ref`` (relative paths resolve against the
    directory ``lm_eval`` is run from, the repository root for the pipeline's outputs).

Both folders are built in a temporary directory next to their destination and renamed
into place only when complete, so an export never leaves a half-written folder; an
older export stays untouched when a new one fails.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl
import yaml

from .io import InputError

log = logging.getLogger("rublimp")

__all__ = [
    "RUBLIMP_COLUMNS",
    "SPLIT",
    "BuildInfo",
    "arrow_size",
    "ExportResult",
    "dataset_card",
    "export_benchmark",
    "export_folder",
    "export_columns",
    "hf_features",
    "lm_eval_files",
    "size_category",
]

#: The columns of RuBLiMP's released files, in their order; the export puts ours after them.
RUBLIMP_COLUMNS = (
    "id",
    "source_sentence",
    "target_sentence",
    "source_word",
    "target_word",
    "level",
    "phenomenon",
    "PID",
    "subtype",
    "domain",
    "tree_depth",
)

#: The split every config has (a benchmark is test data).
SPLIT = "test"

#: What each column holds, for the dataset card.
COLUMN_DOCS = {
    "id": "unique pair id",
    "source_sentence": "the grammatical sentence (from the corpus)",
    "target_sentence": "the ungrammatical sentence (one edit of the grammatical one)",
    "source_word": "the word(s) of the grammatical sentence that the edit changes",
    "target_word": "the word(s) that replace them",
    "level": "Morphology, Syntax or Semantics",
    "phenomenon": "RuBLiMP's phenomenon",
    "PID": "the paradigm (the config name)",
    "subtype": "a finer label within the paradigm",
    "domain": "the corpus domain of the grammatical sentence",
    "tree_depth": "depth of the grammatical sentence's dependency tree",
    "sent_id": "id of the grammatical sentence in the parsed corpus",
    "feature": "the grammatical feature the edit changes (e.g. Number)",
    "source_value": "its value in the grammatical sentence",
    "target_value": "its value in the ungrammatical sentence",
    "n_tokens": "words in the grammatical sentence",
    "ipm": "mean wordfreq frequency (per million) of its words",
    "mink_max": "the highest Min-K% Prob of the grammatical sentence over the decontamination models",
    "length_bin": "the length stratum used in sampling",
}

_HF_DTYPES = {
    pl.String: "string",
    pl.Int8: "int8",
    pl.Int16: "int16",
    pl.Int32: "int32",
    pl.Int64: "int64",
    pl.UInt8: "uint8",
    pl.UInt16: "uint16",
    pl.UInt32: "uint32",
    pl.UInt64: "uint64",
    pl.Float32: "float32",
    pl.Float64: "float64",
    pl.Boolean: "bool",
}


@dataclass
class BuildInfo:
    """How the benchmark was built, for the dataset card (all optional but ``name``/``license``)."""

    name: str = "rublimp"
    pretty_name: str = "rublimp: Russian minimal pairs"
    license: str = "mit"
    seed: int | None = None
    parser: str | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    decontamination_models: list[dict[str, Any]] = field(default_factory=list)
    curation: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "BuildInfo":
        """The card's facts from a validated pipeline config (``config/config.yaml``)."""
        exp = dict(config.get("export") or {})
        sources = []
        for s in (config.get("corpus") or {}).get("sources", []):
            sources.append({k: s[k] for k in ("name", "type", "domain", "url", "path") if s.get(k) is not None})
        models = []
        for m in config.get("models", []):
            if not m.get("decontaminate", True):
                continue
            where = "the demo LM trained by the pipeline" if m.get("demo") else m.get("path", "")
            models.append({"name": m["name"], "backend": m.get("backend", "hf"), "path": where,
                           "tier": int(m.get("tier", 0))})
        cur = dict(config.get("curation") or {})
        return cls(
            name=str(exp.get("name", "rublimp")),
            pretty_name=str(exp.get("pretty_name", "rublimp: Russian minimal pairs")),
            license=str(exp.get("license", "mit")),
            seed=int(config.get("seed", 0)),
            parser=str((config.get("parse") or {}).get("backend", "slovnet")),
            sources=sources,
            decontamination_models=models,
            curation={k: cur.get(k) for k in ("k", "n", "grid_step", "t_max") if k in cur},
        )


@dataclass
class ExportResult:
    """What :func:`export_benchmark` wrote."""

    hf_dir: Path
    lm_eval_dir: Path
    pairs: dict[str, int]  # exported paradigm -> pairs
    skipped: dict[str, str]  # paradigm with 0 pairs -> why
    groups: dict[str, list[str]]  # lm-eval group -> its tasks (paradigms or phenomenon groups)


# --------------------------------------------------------------------------- tables


def export_columns(columns: Sequence[str]) -> list[str]:
    """RuBLiMP's columns in RuBLiMP's order, then the others in their given order."""
    return [c for c in RUBLIMP_COLUMNS if c in columns] + [c for c in columns if c not in RUBLIMP_COLUMNS]


def hf_features(schema: Mapping[str, pl.DataType]) -> list[dict[str, str]]:
    """The card's ``features`` list (``datasets`` Value dtypes) for a polars schema."""
    out = []
    for name, dtype in schema.items():
        hf = _HF_DTYPES.get(dtype.base_type() if hasattr(dtype, "base_type") else dtype)
        if hf is None:
            raise InputError(f"column {name!r} has type {dtype}, which the export cannot describe as a datasets feature")
        out.append({"name": name, "dtype": hf})
    return out


def arrow_size(df: pl.DataFrame) -> int:
    """Bytes of ``df`` as ``datasets`` holds it in Arrow (plain ``string`` columns): the card's ``num_bytes``."""
    import pyarrow as pa

    table = df.to_arrow()
    schema = pa.schema(
        [pa.field(f.name, pa.string() if pa.types.is_string_view(f.type) or pa.types.is_large_string(f.type)
                  else f.type) for f in table.schema]
    )
    return int(table.cast(schema).nbytes)


def size_category(n: int) -> str:
    """The Hugging Face ``size_categories`` tag for ``n`` rows."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def _read_benchmark(paradigm: str, path: str | os.PathLike) -> pl.DataFrame:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"benchmark file of paradigm {paradigm!r} not found", path)
    try:
        df = pl.read_parquet(path)
    except Exception as exc:  # polars raises ComputeError/OSError for a damaged file
        raise InputError(f"cannot read the benchmark of paradigm {paradigm!r}: {exc}", path) from exc
    missing = [c for c in RUBLIMP_COLUMNS if c not in df.columns]
    if missing:
        raise InputError(f"benchmark of paradigm {paradigm!r} lacks RuBLiMP column(s) {missing}", path)
    others = sorted(set(df["PID"].drop_nulls().to_list()) - {paradigm})
    if others:
        raise InputError(f"benchmark file of paradigm {paradigm!r} holds pairs of other paradigm(s) {others}", path)
    if df.height and df["id"].n_unique() != df.height:
        raise InputError(f"benchmark of paradigm {paradigm!r} has duplicate ids", path)
    for col in ("id", "source_sentence", "target_sentence"):
        nulls = df.with_row_index("_row").filter(pl.col(col).is_null())
        if nulls.height:
            raise InputError(
                f"benchmark of paradigm {paradigm!r} has a null {col!r} (row {int(nulls['_row'][0]) + 1})", path
            )
    return df.select(export_columns(df.columns)).sort("id")


def _paradigm_meta(paradigm: str, df: pl.DataFrame) -> tuple[str, str]:
    """(level, phenomenon) of a paradigm: from its pairs, else from its registered class."""
    if df.height:
        return str(df["level"][0]), str(df["phenomenon"][0])
    from .paradigms import REGISTRY

    cls = REGISTRY.get(paradigm)
    return (str(cls.level), str(cls.phenomenon)) if cls is not None else ("", "")


# --------------------------------------------------------------------------- dataset card


class _NoAliasDumper(yaml.SafeDumper):
    """Writes repeated objects (the features of every config) in full, without YAML anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _yaml(obj: Any) -> str:
    return yaml.dump(obj, Dumper=_NoAliasDumper, allow_unicode=True, sort_keys=False, width=1000)


def _fmt_t(t: Any) -> str:
    return "—" if t is None else f"{float(t):.2f}"


def dataset_card(
    tables: Mapping[str, pl.DataFrame],
    info: BuildInfo,
    *,
    curation: Mapping[str, Mapping[str, Any]] | None = None,
    skipped: Mapping[str, str] | None = None,
    lm_eval_ref: str = "results/export/lm_eval",
    hf_ref: str = "results/export/hf",
    file_sizes: Mapping[str, int] | None = None,
) -> str:
    """The dataset card (``README.md``) of the exported paradigms ``tables`` (name -> pairs).

    ``file_sizes`` (paradigm -> bytes of its Parquet file) gives the card's ``download_size``.
    """
    curation = curation or {}
    skipped = skipped or {}
    names = sorted(tables)
    total = sum(t.height for t in tables.values())
    schema = tables[names[0]].schema
    configs = [{"config_name": "all", "data_files": [{"split": SPLIT, "path": "data/*/test.parquet"}], "default": True}]
    configs += [{"config_name": p, "data_files": [{"split": SPLIT, "path": f"data/{p}/test.parquet"}]} for p in names]
    features = hf_features(schema)
    sizes = {p: arrow_size(tables[p]) for p in names}
    files = dict(file_sizes or {})

    def entry(config: str, members: list[str]) -> dict[str, Any]:
        n_bytes = sum(sizes[p] for p in members)
        split = {"name": SPLIT, "num_bytes": n_bytes, "num_examples": sum(tables[p].height for p in members)}
        out: dict[str, Any] = {"config_name": config, "features": features, "splits": [split]}
        if all(p in files for p in members):
            out["download_size"] = sum(files[p] for p in members)
        out["dataset_size"] = n_bytes
        return out

    dataset_info = [entry("all", names)] + [entry(p, [p]) for p in names]
    front = {
        "pretty_name": info.pretty_name,
        "language": ["ru"],
        "license": info.license,
        "size_categories": [size_category(total)],
        "task_categories": ["text-classification"],
        "task_ids": ["acceptability-classification"],
        "tags": ["minimal-pairs", "linguistic-acceptability", "rublimp", "benchmark"],
        "configs": configs,
        "dataset_info": dataset_info,
    }
    meta = {p: _paradigm_meta(p, tables[p]) for p in names}
    lines = ["---", _yaml(front).rstrip(), "---", "", f"# {info.pretty_name}", ""]
    lines += [
        f"A benchmark of {total:,} Russian linguistic minimal pairs in {_count(len(names), 'paradigm', 'paradigms')} "
        f"of {_count(len({m[1] for m in meta.values()}), 'phenomenon', 'phenomena')}, built by the rublimp pipeline, a reproduction "
        "of RuBLiMP (Taktasheva et al., EMNLP 2024). Each pair is a grammatical sentence from a corpus "
        "(`source_sentence`) and an ungrammatical sentence made from it by one edit (`target_sentence`). "
        "A language model gets a pair right when it gives the grammatical sentence the higher probability.",
        "",
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        "",
        f'pairs = load_dataset("{hf_ref}", "{names[0]}", split="{SPLIT}")  # one paradigm',
        f'everything = load_dataset("{hf_ref}", split="{SPLIT}")  # the default config `all`: every paradigm',
        "```",
        "",
        f"One config per paradigm (named as the paradigm), each with the single split `{SPLIT}`, plus `all`.",
        "",
        "## Columns",
        "",
        "RuBLiMP's columns come first, in RuBLiMP's order; the others are this pipeline's.",
        "",
        "| column | type | |",
        "|---|---|---|",
    ]
    for f in features:
        origin = "" if f["name"] in RUBLIMP_COLUMNS else " (rublimp)"
        lines.append(f"| `{f['name']}` | {f['dtype']} | {COLUMN_DOCS.get(f['name'], '')}{origin} |")
    lines += ["", "## Phenomena", "", "| level | phenomenon | paradigms | pairs |", "|---|---|---|---|"]
    by_phen: dict[tuple[str, str], list[str]] = {}
    for p in names:
        by_phen.setdefault(meta[p], []).append(p)
    for (level, phen), ps in sorted(by_phen.items()):
        lines.append(f"| {level} | {phen} | {len(ps)} | {sum(tables[p].height for p in ps):,} |")
    lines.append(f"| | **total** | **{len(names)}** | **{total:,}** |")
    lines += [
        "",
        "## Paradigms",
        "",
        "*t* is the decontamination threshold the curation chose: a pair is kept only when its grammatical "
        "sentence has Min-K% Prob ≤ *t* under every decontamination model (a high Min-K% suggests the model "
        "saw the sentence in training). *pool* is the number of candidate pairs before decontamination.",
        "",
        "| paradigm | phenomenon | pairs | pool | t |",
        "|---|---|---|---|---|",
    ]
    for p in names:
        cur = curation.get(p, {})
        pool = cur.get("pool")
        lines.append(
            f"| `{p}` | {meta[p][1]} | {tables[p].height:,} | {'—' if pool is None else f'{pool:,}'} | "
            f"{_fmt_t(cur.get('threshold'))} |"
        )
    if skipped:
        lines += ["", "Not exported (no pairs survived):", ""]
        lines += [f"- `{p}`: {why}" for p, why in sorted(skipped.items())]
    lines += ["", "## How it was built", ""]
    if info.sources:
        lines.append("- **Corpus sources:** " + "; ".join(_describe_source(s) for s in info.sources) + ".")
    if info.parser:
        lines.append(f"- **Parser:** {info.parser} (Universal Dependencies trees; pymorphy3 lemmas and features).")
    lines.append(
        "- **Pairs:** one rule per paradigm edits a parsed sentence in place (RuBLiMP's Appendix B); "
        "subject–predicate agreement pairs are dropped where MultiBLiMP-style agreement validation on the same "
        "corpus finds the agreement absent."
    )
    if info.decontamination_models:
        models = "; ".join(
            f"`{m['name']}` ({m['backend']}, {m['path']}{', cascade tier ' + str(m['tier']) if m.get('tier') else ''})"
            for m in info.decontamination_models
        )
        lines.append(f"- **Decontamination models:** {models}.")
    cur = info.curation
    if cur:
        parts = []
        if cur.get("k") is not None:
            parts.append(f"Min-K% Prob with K = {cur['k']}%")
        if cur.get("n") is not None:
            parts.append(f"at most {cur['n']:,} pairs per paradigm, stratified by domain × length × feature and its values")
        if cur.get("grid_step"):
            parts.append(f"threshold grid step {cur['grid_step']}")
        if cur.get("t_max") is not None:
            parts.append(f"threshold at most t_max = {cur['t_max']}")
        lines.append("- **Curation:** " + "; ".join(parts) + "; the threshold per paradigm is in the table above.")
    if info.seed is not None:
        lines.append(f"- **Seed:** {info.seed} (the same config and seed give byte-identical files).")
    lines += [
        "",
        "## Evaluation",
        "",
        "A pair is correct when ln P(`source_sentence`) > ln P(`target_sentence`), each the sum of the log-"
        "probabilities of all of the sentence's tokens, the first one scored after the tokenizer's BOS token (EOS "
        "when there is none). The metric is accuracy per paradigm; a phenomenon's score is the mean over its "
        "paradigms, the overall score the mean over all paradigms.",
        "",
        f"lm-evaluation-harness tasks that compute it are in `{lm_eval_ref}` (one task per paradigm, named as "
        f"the paradigm; a group `{info.name}_<phenomenon>` per phenomenon and `{info.name}` for everything):",
        "",
        "```bash",
        f"lm_eval --model hf --model_args pretrained=MODEL --include_path {lm_eval_ref} --tasks {info.name}",
        "```",
        "",
        "Report lm-eval's `acc`: it compares the summed log-probabilities of the two sentences after an empty "
        "context, which lm-eval replaces by the model's prefix token (BOS, else EOS), as above. lm-eval's `acc_norm` divides "
        "each sentence's log-probability by its length in *characters*; the two sentences of a pair usually "
        "differ in length, so `acc_norm` is a different, length-normalised comparison, not the paper's metric "
        "(the tasks therefore do not compute it). One detail differs: lm-eval counts a pair whose two sentences "
        "get exactly the same log-probability as correct (its `argmax` picks the first choice, the "
        "grammatical one), while rublimp counts such a tie as wrong.",
        "",
    ]
    return "\n".join(lines)


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _describe_source(s: Mapping[str, Any]) -> str:
    what = f"`{s.get('name')}` ({s.get('type')}"
    if s.get("domain"):
        what += f", {s['domain']}"
    where = s.get("url") or (Path(str(s["path"])).name if s.get("path") else None)
    if s.get("type") == "demo":
        where = "the hand-written demo corpus bundled with rublimp"
    if where:
        what += f", {where}"
    return what + ")"


# --------------------------------------------------------------------------- lm-eval


def lm_eval_files(
    paradigms: Mapping[str, tuple[str, str]], *, name: str, data_ref: str
) -> dict[str, str]:
    """The lm-evaluation-harness task files: file name -> YAML text.

    ``paradigms`` maps each exported paradigm to its (level, phenomenon); ``data_ref`` is
    the path of the Hugging Face folder as lm-eval should open it.
    """
    template = {
        "dataset_path": "parquet",
        "output_type": "multiple_choice",
        "test_split": SPLIT,
        "doc_to_text": "",
        "target_delimiter": "",
        "doc_to_choice": "{{[source_sentence, target_sentence]}}",
        "doc_to_target": 0,
        "num_fewshot": 0,
        "should_decontaminate": True,
        "doc_to_decontamination_query": "{{source_sentence}} {{target_sentence}}",
        "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        "metadata": {"version": 1.0},
    }
    head = (
        f"# lm-evaluation-harness tasks of the {name} benchmark, written by rublimp's export stage.\n"
        "# Shared settings of every paradigm's task, as in lm-eval's BLiMP and MultiBLiMP tasks: the\n"
        "# grammatical and the ungrammatical sentence are the two choices after an empty context (lm-eval\n"
        "# scores them after the model's BOS/EOS token), the grammatical one (index 0) is the target.\n"
    )
    files = {"_template_yaml": head + _yaml(template)}
    by_phen: dict[str, list[str]] = {}
    for p in sorted(paradigms):
        files[f"{p}.yaml"] = _yaml(
            {
                "include": "_template_yaml",
                "task": p,
                "dataset_kwargs": {"data_files": {SPLIT: f"{data_ref}/data/{p}/test.parquet"}},
            }
        )
        by_phen.setdefault(paradigms[p][1], []).append(p)
    agg = [{"metric": "acc", "aggregation": "mean", "weight_by_size": False}]
    for phen, ps in sorted(by_phen.items()):
        files[f"_{name}_{phen}.yaml"] = _yaml(
            {"group": f"{name}_{phen}", "task": ps, "aggregate_metric_list": agg, "metadata": {"version": 1.0}}
        )
    files[f"_{name}.yaml"] = _yaml(
        {
            "group": name,
            "task": [f"{name}_{phen}" for phen in sorted(by_phen)],
            "aggregate_metric_list": agg,
            "metadata": {"version": 1.0},
        }
    )
    return files


def _lm_eval_readme(name: str, groups: Mapping[str, list[str]], lm_eval_ref: str) -> str:
    lines = [
        f"# lm-evaluation-harness tasks: {name}",
        "",
        "Run from the directory these paths are relative to (the repository root for the pipeline's outputs):",
        "",
        "```bash",
        f"lm_eval --model hf --model_args pretrained=MODEL --include_path {lm_eval_ref} --tasks {name}",
        "```",
        "",
        "Report `acc`. A phenomenon's group is the mean accuracy of its paradigms; the whole benchmark's group",
        "is the mean over all paradigms (lm-eval averages a nested group over its leaf tasks), rublimp's overall score.",
        "",
        "",
    ]
    for g, members in groups.items():
        lines.append(f"- `{g}`: {', '.join(f'`{m}`' for m in members)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- writing


@contextlib.contextmanager
def _staged_dirs(*finals: Path):
    """Yield fresh temporary directories next to ``finals``; on success swap each into place.

    An existing destination is moved aside first and removed only after the new folder
    is in place, so an interrupted or failing export leaves the old folder (or nothing),
    never a half-written one.
    """
    temps: list[Path] = []
    try:
        for final in finals:
            final.parent.mkdir(parents=True, exist_ok=True)
            temps.append(Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)))
        yield temps
        umask = os.umask(0)
        os.umask(umask)
        for tmp, final in zip(temps, finals):
            os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes 0700 directories
            old = None
            if final.exists() or final.is_symlink():
                old = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".old", dir=final.parent))
                os.replace(final, old / "x")
            os.replace(tmp, final)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        for tmp in temps:
            shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def export_benchmark(
    benchmarks: Mapping[str, str | os.PathLike],
    hf_dir: str | os.PathLike,
    lm_eval_dir: str | os.PathLike,
    *,
    info: BuildInfo | None = None,
    curation: Mapping[str, str | os.PathLike] | None = None,
    data_ref: str | None = None,
) -> ExportResult:
    """Export the benchmark: the Hugging Face folder ``hf_dir`` and the lm-eval tasks ``lm_eval_dir``.

    Args:
        benchmarks: paradigm -> its curated benchmark Parquet (``benchmark/<paradigm>.parquet``).
        hf_dir, lm_eval_dir: the output folders (replaced as a whole, atomically).
        info: facts for the dataset card (:meth:`BuildInfo.from_config`).
        curation: paradigm -> its curation report JSON (threshold and pool size for the card).
        data_ref: how lm-eval's task files name ``hf_dir`` (default: ``hf_dir`` as given; a
            relative path resolves against the directory lm-eval runs in).

    A paradigm with 0 pairs is left out, with a warning that names it and the curation's
    reason, and listed in the card; an empty benchmark (no paradigm, or none with pairs)
    raises :class:`InputError`.
    """
    info = info or BuildInfo()
    hf_dir, lm_eval_dir = Path(hf_dir), Path(lm_eval_dir)
    if not benchmarks:
        raise InputError("nothing to export: the benchmark has no paradigms (config key perturb.paradigms)")
    reports: dict[str, dict[str, Any]] = {}
    for p, path in (curation or {}).items():
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"cannot read the curation report of paradigm {p!r}: {exc}", path) from exc
        entries = [e for e in data.get("paradigms", []) if e.get("paradigm") == p]
        reports[p] = entries[0] if entries else {}
    tables: dict[str, pl.DataFrame] = {}
    skipped: dict[str, str] = {}
    for p in sorted(benchmarks):
        df = _read_benchmark(p, benchmarks[p])
        if df.height == 0:
            why = reports.get(p, {}).get("message") or "the curated benchmark file has no rows"
            skipped[p] = why
            log.warning("export: paradigm %r has 0 pairs (%s) in %s: left out of the export", p, why, benchmarks[p])
            continue
        tables[p] = df
    if not tables:
        raise InputError(
            f"nothing to export: all {len(benchmarks)} paradigm(s) have 0 pairs ("
            + "; ".join(f"{p}: {w}" for p, w in sorted(skipped.items()))
            + ")"
        )
    schemas = {p: t.schema for p, t in tables.items()}
    first = next(iter(tables))
    for p, s in schemas.items():
        if s != schemas[first]:
            raise InputError(
                f"paradigms {first!r} and {p!r} have different benchmark columns or types; "
                "every config of the dataset needs the same features", benchmarks[p]
            )
    data_ref = str(hf_dir) if data_ref is None else data_ref.rstrip("/")
    meta = {p: _paradigm_meta(p, t) for p, t in tables.items()}
    task_files = lm_eval_files(meta, name=info.name, data_ref=data_ref)
    groups = {}
    for fname, text in task_files.items():
        if fname.startswith("_") and fname.endswith(".yaml"):  # the group files
            group = yaml.safe_load(text)
            groups[group["group"]] = group["task"]
    overlap = sorted(set(groups) & set(tables))
    if overlap:
        raise InputError(f"lm-eval group name(s) {overlap} equal paradigm names (config key export.name)")
    with _staged_dirs(hf_dir, lm_eval_dir) as (hf_tmp, lm_tmp):
        file_sizes = {}
        for p, t in tables.items():
            out = hf_tmp / "data" / p / f"{SPLIT}.parquet"
            out.parent.mkdir(parents=True)
            t.write_parquet(out, compression="zstd", statistics=False)
            file_sizes[p] = out.stat().st_size
        card = dataset_card(tables, info, curation=reports, skipped=skipped, lm_eval_ref=str(lm_eval_dir),
                            hf_ref=data_ref, file_sizes=file_sizes)
        _write(hf_tmp / "README.md", card)
        for fname, text in task_files.items():
            _write(lm_tmp / fname, text)
        _write(lm_tmp / "README.md", _lm_eval_readme(info.name, groups, str(lm_eval_dir)))
    pairs = {p: t.height for p, t in tables.items()}
    log.info("export: %d pairs in %d paradigm(s) -> %s, %s", sum(pairs.values()), len(pairs), hf_dir, lm_eval_dir)
    return ExportResult(hf_dir=hf_dir, lm_eval_dir=lm_eval_dir, pairs=pairs, skipped=skipped, groups=groups)


def export_folder(
    benchmark_dir: str | os.PathLike,
    hf_dir: str | os.PathLike,
    lm_eval_dir: str | os.PathLike,
    *,
    curation_dir: str | os.PathLike | None = None,
    config: str | os.PathLike | Mapping[str, Any] | None = None,
    data_ref: str | None = None,
) -> ExportResult:
    """:func:`export_benchmark` of every ``<paradigm>.parquet`` in ``benchmark_dir`` (the command line).

    ``curation_dir`` holds the ``<paradigm>.json`` curation reports; ``config`` (a YAML
    file or a mapping) is the pipeline config the benchmark was built with, for the card.
    """
    bench = Path(benchmark_dir)
    if not bench.is_dir():
        raise InputError("benchmark folder not found", bench)
    files = {p.stem: p for p in sorted(bench.glob("*.parquet"))}
    if not files:
        raise InputError("no <paradigm>.parquet files in the benchmark folder: the benchmark is empty", bench)
    curation = {}
    if curation_dir is not None:
        cur = Path(curation_dir)
        curation = {name: cur / f"{name}.json" for name in files if (cur / f"{name}.json").is_file()}
    if config is None or isinstance(config, Mapping):
        cfg = dict(config or {})
    else:
        try:
            cfg = yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise InputError(f"cannot read the config: {exc}", config) from exc
    return export_benchmark(files, hf_dir, lm_eval_dir, info=BuildInfo.from_config(cfg), curation=curation,
                            data_ref=data_ref)
