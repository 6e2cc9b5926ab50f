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
    ``lm_eval --include_path <lm_eval dir> --tasks <group or task>``: one
    ``multiple_choice`` task per paradigm, named ``<name>_<paradigm>`` (``rublimp_<paradigm>``
    by default), written the way lm-eval's own BLiMP and MultiBLiMP tasks are (empty
    context, the pair as the choices, target 0, accuracy); one group per phenomenon
    (``<name>_generated_<phenomenon>``) and one for the whole benchmark
    (``<name>_generated``), so that no name can equal a task or group bundled with
    lm-eval (its proposed RuBLiMP port uses the group ``rublimp``).  The tasks load
    the Parquet files of ``hf/`` through ``rublimp_data.py`` next to them, which finds
    the folder relative to its own location: lm-eval runs from any directory, and both
    folders may be moved together.

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
    "ReleaseStatus",
    "size_category",
    "task_name",
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
    """How the benchmark was built, for the dataset card (all optional but ``name``/``license``).

    ``curation`` holds the config's curation settings; the card prefers the values the
    curation reports record (what was actually used) and says when the two differ.
    ``generation`` holds the settings that made the pairs (corpus bounds, paradigms,
    pool cap); ``sources`` the corpus sources with their ``license`` where the config
    states one.
    """

    name: str = "rublimp"
    pretty_name: str = "rublimp: Russian minimal pairs"
    license: str = "mit"
    seed: int | None = None
    parser: str | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    decontamination_models: list[dict[str, Any]] = field(default_factory=list)
    curation: dict[str, Any] = field(default_factory=dict)
    generation: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "BuildInfo":
        """The card's facts from a validated pipeline config (``config/config.yaml``)."""
        exp = dict(config.get("export") or {})
        corpus = dict(config.get("corpus") or {})
        sources = []
        for s in corpus.get("sources", []):
            keys = ("name", "type", "domain", "url", "path", "license")
            sources.append({k: s[k] for k in keys if s.get(k) is not None})
        models = []
        for m in config.get("models", []):
            if not m.get("decontaminate", True):
                continue
            where = "the demo LM trained by the pipeline" if m.get("demo") else m.get("path", "")
            models.append({"name": m["name"], "backend": m.get("backend", "hf"), "path": where,
                           "tier": int(m.get("tier", 0))})
        cur = dict(config.get("curation") or {})
        perturb = dict(config.get("perturb") or {})
        generation = {k: corpus[k] for k in ("min_tokens", "max_tokens", "max_sentences_per_source") if k in corpus}
        generation.update({k: perturb[k] for k in ("pool_cap", "pairs_per_sentence") if k in perturb})
        return cls(
            name=str(exp.get("name", "rublimp")),
            pretty_name=str(exp.get("pretty_name", "rublimp: Russian minimal pairs")),
            license=str(exp.get("license", "mit")),
            seed=int(config.get("seed", 0)),
            parser=str((config.get("parse") or {}).get("backend", "slovnet")),
            sources=sources,
            decontamination_models=models,
            curation={k: cur.get(k) for k in ("k", "n", "grid_step", "t_max") if k in cur},
            generation=generation,
        )


@dataclass
class ReleaseStatus:
    """What the card reports about checks of the benchmark, read from the pipeline's outputs.

    ``curation``: the top-level fields of the curation reports (settings actually used,
    ``decontaminated`` where the curation records it); ``demo_check``: the demo-LM check
    (``eval/demo_lm_check.json``); ``human``: the human validation summary
    (``validation/summary.json``); ``agreement``: verdict -> number of agreement
    conditions (``agreement/verdicts.csv``).  Each is empty when the output is absent.
    """

    curation: dict[str, Any] = field(default_factory=dict)
    demo_check: dict[str, Any] = field(default_factory=dict)
    human: dict[str, Any] = field(default_factory=dict)
    agreement: dict[str, int] = field(default_factory=dict)
    not_decontaminated: list[str] = field(default_factory=list)  # the reasons, when the benchmark is not

    @property
    def decontaminated(self) -> bool:
        return not self.not_decontaminated


@dataclass
class ExportResult:
    """What :func:`export_benchmark` wrote."""

    hf_dir: Path
    lm_eval_dir: Path
    pairs: dict[str, int]  # exported paradigm -> pairs
    skipped: dict[str, str]  # paradigm with 0 pairs -> why
    groups: dict[str, list[str]]  # lm-eval group -> its tasks (paradigm tasks or phenomenon groups)
    decontaminated: bool = True  # False: the card carries the "not decontaminated" banner


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
    status: ReleaseStatus | None = None,
) -> str:
    """The dataset card (``README.md``) of the exported paradigms ``tables`` (name -> pairs).

    ``curation`` holds each paradigm's curation entry (chosen threshold, pool); ``status``
    what the pipeline's checks found (:class:`ReleaseStatus`): a benchmark that is not
    decontaminated gets a warning banner at the top.  ``file_sizes`` (paradigm -> bytes
    of its Parquet file) gives the card's ``download_size``.
    """
    curation = curation or {}
    skipped = skipped or {}
    status = status or ReleaseStatus()
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
    tags = ["minimal-pairs", "linguistic-acceptability", "rublimp", "benchmark"]
    if not status.decontaminated:
        tags.append("not-decontaminated")
    front = {
        "pretty_name": info.pretty_name,
        "language": ["ru"],
        "license": info.license,
        "size_categories": [size_category(total)],
        "task_categories": ["text-classification"],
        "task_ids": ["acceptability-classification"],
        "tags": tags,
        "configs": configs,
        "dataset_info": dataset_info,
    }
    meta = {p: _paradigm_meta(p, tables[p]) for p in names}
    lines = ["---", _yaml(front).rstrip(), "---", "", f"# {info.pretty_name}", ""]
    if not status.decontaminated:
        lines += [
            "> **Warning: this benchmark is not decontaminated.** "
            + " ".join(r.rstrip(".") + "." for r in status.not_decontaminated)
            + " Its pairs may include sentences the language models saw in training; do not report its "
            "accuracies as decontaminated results.",
            "",
        ]
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
    notes = [(p, str(curation[p]["message"])) for p in names if curation.get(p, {}).get("message")]
    if notes:
        lines += ["", "Notes of the curation:", ""] + [f"- `{p}`: {why}" for p, why in notes]
    if skipped:
        lines += ["", "Not exported (no pairs survived):", ""]
        lines += [f"- `{p}`: {why}" for p, why in sorted(skipped.items())]
    lines += ["", "## How it was built", ""]
    if info.sources:
        lines.append("- **Corpus sources:** " + "; ".join(_describe_source(s) for s in info.sources) + ".")
    gen = info.generation
    if gen:
        parts = []
        if gen.get("min_tokens") is not None and gen.get("max_tokens") is not None:
            parts.append(f"sentences of {gen['min_tokens']}–{gen['max_tokens']} tokens")
        if gen.get("max_sentences_per_source"):
            parts.append(f"at most {gen['max_sentences_per_source']:,} sentences per source")
        if gen.get("pairs_per_sentence") is not None:
            parts.append(f"at most {gen['pairs_per_sentence']} pair(s) per sentence and paradigm")
        if gen.get("pool_cap") is not None:
            parts.append(f"pools capped at {gen['pool_cap']:,} pairs")
        if parts:
            lines.append("- **Generation:** " + "; ".join(parts) + ".")
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
    lines += _curation_lines(info, status, [curation.get(p, {}).get("threshold") for p in names])
    if info.seed is not None:
        lines.append(f"- **Seed:** {info.seed} (the same config and seed give byte-identical files).")
    lines += _validation_lines(status)
    lines += [
        "",
        "## Evaluation",
        "",
        "A pair is correct when ln P(`source_sentence`) > ln P(`target_sentence`), each the sum of the log-"
        "probabilities of all of the sentence's tokens, the first one scored after the tokenizer's BOS token (EOS "
        "when there is none). The metric is accuracy per paradigm; a phenomenon's score is the mean over its "
        "paradigms, the overall score the mean over all paradigms.",
        "",
        f"lm-evaluation-harness tasks that compute it are in `{lm_eval_ref}` (one task `{info.name}_<paradigm>` "
        f"per paradigm; a group `{info.name}_generated_<phenomenon>` per phenomenon and `{info.name}_generated` "
        "for everything; they load the files of this folder relative to their own, from any directory):",
        "",
        "```bash",
        f"lm_eval --model hf --model_args pretrained=MODEL --include_path {lm_eval_ref} --tasks {info.name}_generated",
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
        "## Limitations",
        "",
        "- The pairs are made by rules from automatic parses: a parser or morphological-analyser error can give "
        "a pair whose \"ungrammatical\" sentence is acceptable, or whose edit is not the intended one. "
        + ("Human validation estimates how often (see above)." if status.human and not status.human.get("simulated")
           else "No human validation of this release is recorded, so that rate is unknown."),
        "- Decontamination only concerns the models listed above, and Min-K% Prob is a heuristic: a sentence "
        "a model saw in training can still pass the threshold, and other models may have seen any sentence.",
        "- The grammatical sentences come from the corpus sources above only; their domains, lengths and "
        "registers bound what the benchmark measures. Each ungrammatical sentence differs by one edit, so "
        "accuracy measures a preference between two sentences, not a model's judgement of one sentence.",
        "- Paradigms follow RuBLiMP's definitions, but the pairs are newly generated: scores are not "
        "comparable number for number with the published RuBLiMP.",
        "",
        "## Citation",
        "",
        "The benchmark reproduces RuBLiMP's design; its agreement validation follows MultiBLiMP. Please cite both:",
        "",
        "```bibtex",
        "@inproceedings{taktasheva-etal-2024-rublimp,",
        "  title = {{RuBLiMP}: Russian Benchmark of Linguistic Minimal Pairs},",
        "  author = {Taktasheva, Ekaterina and Bazhukov, Maxim and Koncha, Kirill and Fenogenova, Alena and "
        "Artemova, Ekaterina and Mikhailov, Vladislav},",
        "  booktitle = {Proceedings of the 2024 Conference on Empirical Methods in Natural Language Processing},",
        "  year = {2024},",
        "  publisher = {Association for Computational Linguistics},",
        "}",
        "",
        "@misc{jumelet-etal-2025-multiblimp,",
        "  title = {{MultiBLiMP} 1.0: A Massively Multilingual Benchmark of Linguistic Minimal Pairs},",
        "  author = {Jumelet, Jaap and Weissweiler, Leonie and Nivre, Joakim and Bisazza, Arianna},",
        "  year = {2025},",
        "}",
        "```",
        "",
    ]
    return "\n".join(lines)


def _curation_lines(info: BuildInfo, status: ReleaseStatus, thresholds: Sequence[Any]) -> list[str]:
    """The card's curation line: the settings the curation reports record (else the config's) and
    the range of the thresholds actually chosen."""
    used = {k: status.curation[k] for k in ("k", "n", "grid_step", "t_max") if k in status.curation}
    cur = {**info.curation, **used} if used else dict(info.curation)
    parts = []
    if cur.get("k") is not None:
        parts.append(f"Min-K% Prob with K = {cur['k']}%")
    if cur.get("n") is not None:
        parts.append(f"at most {cur['n']:,} pairs per paradigm, stratified by domain × length × feature and its values")
    if cur.get("grid_step"):
        parts.append(f"threshold grid step {cur['grid_step']}")
    chosen = sorted(float(t) for t in thresholds if t is not None)
    if chosen:
        span = f"t = {chosen[0]:.2f}" if chosen[0] == chosen[-1] else f"t from {chosen[0]:.2f} to {chosen[-1]:.2f}"
        parts.append(f"thresholds chosen: {span} over {_count(len(chosen), 'paradigm', 'paradigms')}")
    if used and "t_max" in used and used["t_max"] is not None:
        parts.append(f"the search was bounded by t_max = {used['t_max']}")
    if not parts:
        return []
    line = "- **Curation:** " + "; ".join(parts) + "; the threshold per paradigm is in the table above."
    differ = sorted(k for k in used if k in info.curation and info.curation[k] != used[k])
    if differ:
        line += (" (The config given to the export differs from the curation reports in "
                 + ", ".join(f"`{k}`" for k in differ) + "; the card states what the curation used.)")
    return [line]


def _validation_lines(status: ReleaseStatus) -> list[str]:
    lines = ["", "## Validation", ""]
    human = status.human
    if not human:
        lines.append("- **Human validation:** none recorded for this release.")
    elif human.get("simulated"):
        lines.append("- **Human validation:** only simulated annotations (the pipeline's self-test); "
                     "no person has judged these pairs.")
    else:
        valid, pairs = human.get("valid"), human.get("pairs")
        text = "- **Human validation:** "
        if pairs:
            text += f"{valid:,} of {pairs:,} annotated pairs judged valid ({100 * valid / pairs:.1f}%"
            ci = human.get("validity_ci") or [None, None]
            if ci[0] is not None and ci[1] is not None:
                text += f", 95% CI {100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"
            text += ")"
        else:
            text += "no annotated pairs"
        if human.get("workers") is not None:
            text += f"; {human['workers']} annotator(s)"
        if human.get("flagged_workers"):
            text += f", {len(human['flagged_workers'])} flagged by the control items"
        alpha = human.get("krippendorff_alpha")
        text += f"; Krippendorff's α = {alpha:.3f}" if isinstance(alpha, (int, float)) else "; Krippendorff's α not available"
        if human.get("drop") is not None:
            text += f"; {human['drop']} pair(s) judged invalid"
        lines.append(text + ".")
    if status.agreement:
        counts = ", ".join(f"{n:,} {v}" for v, n in sorted(status.agreement.items()))
        lines.append(f"- **Agreement validation** (MultiBLiMP-style, on the same corpus): conditions judged {counts}; "
                     "agreement pairs are generated only where agreement is not absent.")
    else:
        lines.append("- **Agreement validation:** no verdicts recorded for this release.")
    demo = status.demo_check.get("models") if status.demo_check else None
    if demo:
        for model, res in sorted(demo.items()):
            auroc = (res.get("auroc") or {})
            first = next(iter(auroc.items()), None)
            figure = f" (AUROC {first[1]} for {first[0]})" if first else ""
            verdict = "works" if res.get("detection_works") else "does NOT work"
            lines.append(f"- **Demo-LM check:** Min-K% detection of `{model}`'s training sentences {verdict}{figure}.")
    return lines


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
    licence = s.get("license") or ("CC0" if s.get("type") == "demo" else None)
    what += f", licence {licence}" if licence else ", licence not stated (config key corpus.sources[].license)"
    return what + ")"


# --------------------------------------------------------------------------- lm-eval


#: The module next to the task files that loads the Parquet files (``custom_dataset`` of every task).
DATA_MODULE = "rublimp_data"


def task_name(name: str, paradigm: str) -> str:
    """The lm-eval task of ``paradigm``: ``<name>_<paradigm>`` (``rublimp_<paradigm>`` by default)."""
    return f"{name}_{paradigm}"


def group_names(name: str, phenomena: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The lm-eval group of the whole benchmark and of each phenomenon (``<name>_generated[_<phenomenon>]``).

    ``generated`` keeps them apart from the groups of a hand-made benchmark: lm-eval's
    proposed port of the published RuBLiMP uses the group ``rublimp``.
    """
    top = f"{name}_generated"
    return top, {phen: f"{top}_{phen}" for phen in phenomena}


def data_module(hf_ref: str) -> str:
    """Source of ``rublimp_data.py``: ``load(paradigm)`` reads ``<hf_ref>/data/<paradigm>/test.parquet``.

    A relative ``hf_ref`` is resolved against the module's own folder, never against the
    directory lm-eval runs in.
    """
    return f'''"""Data loader of the lm-evaluation-harness tasks in this folder (written by rublimp's export).

Every task file names `load` as its `custom_dataset`; lm-eval calls it with the task's
`dataset_kwargs` (the paradigm) and its metadata. The Hugging Face dataset folder is
{hf_ref!r}, relative to this file's folder unless absolute, so lm-eval may run from any
directory, and the two folders may be moved together.
"""

from pathlib import Path

HF_DIR = Path(__file__).resolve().parent / {hf_ref!r}


def load(paradigm, **metadata):
    """The paradigm's pairs as a `datasets.DatasetDict` with the single split `test`."""
    import datasets

    path = HF_DIR / "data" / paradigm / "test.parquet"
    if not path.is_file():
        raise FileNotFoundError(
            f"{{path}}: no Parquet file for paradigm {{paradigm!r}}; keep the exported hf folder at "
            f"{{HF_DIR}} (or export again with another --data-ref)"
        )
    return datasets.load_dataset("parquet", data_files={{"test": str(path)}})
'''


def lm_eval_files(
    paradigms: Mapping[str, tuple[str, str]], *, name: str, data_ref: str
) -> dict[str, str]:
    """The lm-evaluation-harness task files: file name -> text.

    ``paradigms`` maps each exported paradigm to its (level, phenomenon); ``data_ref`` is
    the path of the Hugging Face folder relative to the task folder (or absolute).
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
        f"# Each task loads its pairs with {DATA_MODULE}.load (custom_dataset), relative to this folder.\n"
    )
    files = {"_template_yaml": head + _yaml(template), f"{DATA_MODULE}.py": data_module(data_ref)}
    by_phen: dict[str, list[str]] = {}
    for p in sorted(paradigms):
        files[f"{p}.yaml"] = (
            _yaml({"include": "_template_yaml", "task": task_name(name, p)})
            + f"custom_dataset: !function {DATA_MODULE}.load\n"
            + _yaml({"dataset_kwargs": {"paradigm": p}})
        )
        by_phen.setdefault(paradigms[p][1], []).append(p)
    top, phen_groups = group_names(name, sorted(by_phen))
    agg = [{"metric": "acc", "aggregation": "mean", "weight_by_size": False}]
    for phen, ps in sorted(by_phen.items()):
        files[f"_{phen_groups[phen]}.yaml"] = _yaml(
            {"group": phen_groups[phen], "task": [task_name(name, p) for p in ps], "aggregate_metric_list": agg,
             "metadata": {"version": 1.0}}
        )
    files[f"_{top}.yaml"] = _yaml(
        {
            "group": top,
            "task": [phen_groups[phen] for phen in sorted(by_phen)],
            "aggregate_metric_list": agg,
            "metadata": {"version": 1.0},
        }
    )
    return files


def _lm_eval_readme(name: str, groups: Mapping[str, list[str]], lm_eval_ref: str) -> str:
    top = group_names(name, [])[0]
    lines = [
        f"# lm-evaluation-harness tasks: {name}",
        "",
        f"Run from any directory (the tasks find `../hf` through `{DATA_MODULE}.py`, relative to this folder):",
        "",
        "```bash",
        f"lm_eval --model hf --model_args pretrained=MODEL --include_path {lm_eval_ref} --tasks {top}",
        "```",
        "",
        f"Tasks are named `{name}_<paradigm>`; groups `{top}_<phenomenon>` and `{top}` (the suffix "
        f"`generated` keeps them apart from lm-eval's bundled tasks and its proposed port of the published "
        f"RuBLiMP, group `rublimp`).",
        "",
        "Report `acc`. A phenomenon's group is the mean accuracy of its paradigms; the whole benchmark's group",
        "is the mean over all paradigms (lm-eval averages a nested group over its leaf tasks), rublimp's overall score.",
        "lm-eval logs a warning per task that custom kwargs can be passed with `--metadata`: the tasks need none.",
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


def _read_json(path: str | os.PathLike, what: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the {what}: {exc}", path) from exc
    if not isinstance(data, dict):
        raise InputError(f"the {what} is not a JSON object", path)
    return data


def _agreement_counts(path: str | os.PathLike) -> dict[str, int]:
    try:
        df = pl.read_csv(path, columns=["verdict"], schema_overrides={"verdict": pl.String})
    except Exception as exc:  # polars: ColumnNotFoundError, ComputeError, OSError
        raise InputError(f"cannot read the agreement verdicts: {exc}", path) from exc
    return {str(v): int(n) for v, n in df.group_by("verdict").len().sort("verdict").iter_rows()}


def _not_decontaminated(tops: Mapping[str, Mapping[str, Any]], entries: Mapping[str, Mapping[str, Any]],
                        demo_check: Mapping[str, Any]) -> list[str]:
    """Why the benchmark is not decontaminated ([] when nothing says so).

    Reads ``decontaminated: false`` (with ``decontamination_reason`` or ``reason``) in a
    curation report or paradigm entry, and ``detection_works: false`` in the demo-LM check.
    """
    reasons: list[str] = []
    for p in sorted(set(tops) | set(entries)):
        for rec in (tops.get(p, {}), entries.get(p, {})):
            if rec.get("decontaminated") is False:
                why = rec.get("decontamination_reason") or rec.get("reason") or "the curation report says so"
                reasons.append(f"Curation of `{p}`: {why}")
                break
    for model, res in sorted((demo_check.get("models") or {}).items()):
        if isinstance(res, Mapping) and res.get("detection_works") is False:
            auroc = res.get("auroc") or {}
            figure = ", ".join(f"{k} {v}" for k, v in list(auroc.items())[:1])
            reasons.append(f"The demo-LM check found that Min-K% does not detect `{model}`'s training sentences"
                           + (f" (AUROC {figure})" if figure else ""))
    # one curation reason repeated for every paradigm says the same thing: keep the first of each
    seen: set[str] = set()
    out = []
    for r in reasons:
        key = r.split(": ", 1)[-1]
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def export_benchmark(
    benchmarks: Mapping[str, str | os.PathLike],
    hf_dir: str | os.PathLike,
    lm_eval_dir: str | os.PathLike,
    *,
    info: BuildInfo | None = None,
    curation: Mapping[str, str | os.PathLike] | None = None,
    data_ref: str | None = None,
    validation: str | os.PathLike | None = None,
    agreement: str | os.PathLike | None = None,
    demo_check: str | os.PathLike | None = None,
) -> ExportResult:
    """Export the benchmark: the Hugging Face folder ``hf_dir`` and the lm-eval tasks ``lm_eval_dir``.

    Args:
        benchmarks: paradigm -> its curated benchmark Parquet (``benchmark/<paradigm>.parquet``).
        hf_dir, lm_eval_dir: the output folders (replaced as a whole, atomically; no hidden files).
        info: facts for the dataset card (:meth:`BuildInfo.from_config`).
        curation: paradigm -> its curation report JSON (settings used, threshold and pool size).
        data_ref: where the lm-eval tasks find ``hf_dir``: relative to ``lm_eval_dir`` (the
            default, computed from the two paths) or absolute.
        validation, agreement, demo_check: the human validation summary
            (``validation/summary.json``), the agreement verdicts (``agreement/verdicts.csv``)
            and the demo-LM check (``eval/demo_lm_check.json``), reported on the card when given.

    A paradigm with 0 pairs is left out, with a warning that names it and the curation's
    reason, and listed in the card; an empty benchmark (no paradigm, or none with pairs)
    raises :class:`InputError`.  A benchmark that a curation report marks as not
    decontaminated, or whose demo-LM check failed, is exported with a warning in the
    log and a banner on the card.
    """
    info = info or BuildInfo()
    hf_dir, lm_eval_dir = Path(hf_dir), Path(lm_eval_dir)
    if not benchmarks:
        raise InputError("nothing to export: the benchmark has no paradigms (config key perturb.paradigms)")
    reports: dict[str, dict[str, Any]] = {}
    tops: dict[str, dict[str, Any]] = {}
    for p, path in (curation or {}).items():
        data = _read_json(path, f"curation report of paradigm {p!r}")
        entries = [e for e in data.get("paradigms", []) if e.get("paradigm") == p]
        reports[p] = entries[0] if entries else {}
        tops[p] = {k: v for k, v in data.items() if k != "paradigms"}
    status = ReleaseStatus(
        demo_check=_read_json(demo_check, "demo-LM check") if demo_check else {},
        human=_read_json(validation, "human validation summary") if validation else {},
        agreement=_agreement_counts(agreement) if agreement else {},
    )
    settings = [{k: t[k] for k in ("k", "n", "grid_step", "t_max") if k in t} for t in tops.values()]
    if settings:
        status.curation = settings[0]
        if any(s != settings[0] for s in settings):
            log.warning("export: the curation reports of the paradigms record different settings; the card "
                        "states those of the first (%s)", sorted(tops)[0])
    status.not_decontaminated = _not_decontaminated(tops, reports, status.demo_check)
    for why in status.not_decontaminated:
        log.warning("export: the benchmark is NOT decontaminated: %s; the dataset card says so", why)
    differ = sorted(k for k in status.curation if k in info.curation and info.curation[k] != status.curation[k])
    if differ:
        log.warning("export: the config's curation settings %s differ from those the curation reports record; "
                    "the card states the curation's", differ)
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
    if data_ref is None:
        data_ref = os.path.relpath(hf_dir.resolve(), lm_eval_dir.resolve())
    data_ref = data_ref.rstrip("/") or "/"
    meta = {p: _paradigm_meta(p, t) for p, t in tables.items()}
    task_files = lm_eval_files(meta, name=info.name, data_ref=data_ref)
    groups = {}
    for fname, text in task_files.items():
        if fname.startswith("_") and fname.endswith(".yaml"):  # the group files
            group = yaml.safe_load(text)
            groups[group["group"]] = group["task"]
    overlap = sorted(set(groups) & {task_name(info.name, p) for p in tables})
    if overlap:
        raise InputError(f"lm-eval group name(s) {overlap} equal task names (config key export.name)")
    with _staged_dirs(hf_dir, lm_eval_dir) as (hf_tmp, lm_tmp):
        file_sizes = {}
        for p, t in tables.items():
            out = hf_tmp / "data" / p / f"{SPLIT}.parquet"
            out.parent.mkdir(parents=True)
            t.write_parquet(out, compression="zstd", statistics=False)
            file_sizes[p] = out.stat().st_size
        card = dataset_card(tables, info, curation=reports, skipped=skipped, lm_eval_ref=str(lm_eval_dir),
                            hf_ref=str(hf_dir), file_sizes=file_sizes, status=status)
        _write(hf_tmp / "README.md", card)
        for fname, text in task_files.items():
            _write(lm_tmp / fname, text)
        _write(lm_tmp / "README.md", _lm_eval_readme(info.name, groups, str(lm_eval_dir)))
        for tmp in (hf_tmp, lm_tmp):
            hidden = sorted(str(q.relative_to(tmp)) for q in tmp.rglob(".*"))
            if hidden:  # nothing hidden may be uploaded with the dataset
                raise RuntimeError(f"export wrote hidden files {hidden}")
    pairs = {p: t.height for p, t in tables.items()}
    log.info("export: %d pairs in %d paradigm(s) -> %s, %s", sum(pairs.values()), len(pairs), hf_dir, lm_eval_dir)
    return ExportResult(hf_dir=hf_dir, lm_eval_dir=lm_eval_dir, pairs=pairs, skipped=skipped, groups=groups,
                        decontaminated=status.decontaminated)


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
    The checks the card reports are read from the pipeline's output folder, the parent of
    ``benchmark_dir``, where present: ``validation/summary.json``,
    ``agreement/verdicts.csv`` and ``eval/demo_lm_check.json``.
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
    root = bench.resolve().parent
    found = {key: root / rel for key, rel in (("validation", "validation/summary.json"),
                                              ("agreement", "agreement/verdicts.csv"),
                                              ("demo_check", "eval/demo_lm_check.json"))}
    return export_benchmark(files, hf_dir, lm_eval_dir, info=BuildInfo.from_config(cfg), curation=curation,
                            data_ref=data_ref, **{k: (v if v.is_file() else None) for k, v in found.items()})
