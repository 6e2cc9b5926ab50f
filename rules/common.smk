# Shared configuration handling: schema validation, the paradigm and model lists,
# and every output path as a function of config + wildcards.

import os
import sys
from dataclasses import asdict
from pathlib import Path

from snakemake.utils import validate

validate(config, schema="../config/schema.yaml")

# the rublimp package: installed in the environment, or imported from the checkout
sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from rublimp.workflow import WorkflowConfig  # noqa: E402

WF = WorkflowConfig(config, basedir=workflow.basedir)
OUT = WF.outdir
PARADIGMS = WF.paradigms
MODELS = WF.models


wildcard_constraints:
    paradigm="[a-z0-9_]+",
    model="[A-Za-z0-9_.-]+",
    shard=r"\d+",


def shard_paths():
    return [f"{OUT}/parsed/shard_{i}.conllu" for i in range(WF.n_shards)]


def paradigm_code(wildcards):
    """The source file of a paradigm's class: editing it reruns only that paradigm's jobs."""
    return WF.paradigm_source(wildcards.paradigm)


def model_inputs(wildcards):
    """A demo model must be trained first; other models are loaded from their path or hub id."""
    return WF.model_inputs(wildcards.model)


def model_spec(wildcards):
    return asdict(WF.model(wildcards.model))


def model_gpus(wildcards):
    return WF.model(wildcards.model).gpus


def tier0_scores(wildcards):
    return list(WF.tier0_scores(wildcards.model, wildcards.paradigm).values())


def cascade(wildcards):
    return WF.cascade(wildcards.model, wildcards.paradigm)


def cached_grammatical(wildcards):
    """A decontamination model's pool scores come first, so benchmark scoring reuses them from the cache."""
    if wildcards.model in WF.decontamination_models:
        return [f"{OUT}/scores/{wildcards.model}/grammatical/{wildcards.paradigm}.parquet"]
    return []


def decontamination_scores(wildcards):
    return [f"{OUT}/scores/{m}/grammatical/{wildcards.paradigm}.parquet" for m in WF.decontamination_models]


def validation_annotations():
    """The annotations the validation import reads: curation.drop_invalid, validation.annotations, or simulated ones."""
    val = config.get("validation", {})
    path = config.get("curation", {}).get("drop_invalid") or val.get("annotations")
    if path:
        return path
    return f"{OUT}/validation/simulated_annotations.tsv" if val.get("simulate") else None


def validation_drop_list(wildcards):
    return [f"{OUT}/validation/drop.csv"] if config.get("curation", {}).get("drop_invalid") else []


def metaling_models():
    """Causal evaluation models prompted metalinguistically (rules/metaling.smk)."""
    if not config.get("metalinguistic", {}).get("enabled", True):
        return []
    return [m.name for m in MODELS if m.evaluate and m.backend in ("hf", "vllm")]


def acceptability_models():
    return WF.evaluation_models if config.get("acceptability", {}).get("enabled", True) else []


def extra_report_sections():
    """Markdown sections of the validation, metalinguistic and acceptability stages, appended to the summary."""
    return [f"{OUT}/validation/section.md", f"{OUT}/eval/metalinguistic/section.md", f"{OUT}/eval/acceptability/section.md"]


def all_outputs():
    outs = [
        f"{OUT}/corpus/sentences.parquet",
        f"{OUT}/agreement/verdicts.csv",
        f"{OUT}/eval/summary.md",
        f"{OUT}/export/hf",
        f"{OUT}/export/lm_eval",
    ]
    outs += [f"{OUT}/benchmark/{p}.csv" for p in PARADIGMS]
    if WF.demo_models:
        outs.append(f"{OUT}/eval/demo_lm_check.json")
    outs += extra_report_sections() + [f"{OUT}/validation/tasks.tsv"]
    return outs
