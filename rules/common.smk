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


# -- one scoring job per model (rules/score.smk) --
def model_pool_table(model):
    return f"{OUT}/scores/{model}/grammatical.parquet"


def tier0_tables(wildcards):
    """Tier-0 models' pool tables a cascaded model's job reads ([] for a tier-0 model)."""
    if wildcards.model not in WF.cascaded_models:
        return []
    return [model_pool_table(m) for m in WF.tier0_models]


def model_cascade(wildcards):
    if wildcards.model not in WF.cascaded_models:
        return None
    return {"k": config.get("curation", {}).get("k", 30), "t_max": WF.t_max, "tier0": {m: model_pool_table(m) for m in WF.tier0_models}}


def decontamination_scores(wildcards):
    return [f"{OUT}/scores/{m}/grammatical/{wildcards.paradigm}.parquet" for m in WF.decontamination_models]


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
    return outs
