# Shared configuration handling: schema validation, the paradigm and model lists,
# and every output path as a function of config + wildcards.

import os
import sys
from dataclasses import asdict
from pathlib import Path

from snakemake.exceptions import WorkflowError

# the rublimp package: installed in the environment, or imported from the checkout
sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from rublimp.io import InputError  # noqa: E402
from rublimp.workflow import WorkflowConfig, module_closure  # noqa: E402
from rublimp.snakemake_compat import guard_scheduler  # noqa: E402

# Snakemake 9.15 books no cores for a scheduling round that starts a single job but frees them
# when it ends, so --cores stops holding after a few such rounds (rublimp.snakemake_compat).
guard_scheduler()

# Validation against config/schema.yaml (filling in its defaults) and the cross-key checks, in
# rublimp.workflow: an error is one line naming the config key (snakemake.utils.validate would
# print the whole schema after it).
try:
    WF = WorkflowConfig(config, basedir=workflow.basedir)
except InputError as exc:
    raise WorkflowError(str(exc)) from None
OUT = WF.outdir
PARADIGMS = WF.paradigms
MODELS = WF.models


wildcard_constraints:
    paradigm="[a-z0-9_]+",
    model="[A-Za-z0-9_.-]+",
    shard=r"\d+",


def shard_count(wildcards=None):
    """Parse shards: parse.shards, or with parse.sentences_per_shard the number the shard plan
    (checkpoint `shard_plan`, rules/parse.smk) chose from the corpus size."""
    if not WF.sentences_per_shard:
        return WF.n_shards
    import json

    with open(checkpoints.shard_plan.get().output[0], encoding="utf-8") as fh:
        return int(json.load(fh)["shards"])


def shard_paths(wildcards=None):
    """Input function: every parse shard (known after the shard plan with parse.sentences_per_shard)."""
    return [f"{OUT}/parsed/shard_{i}.conllu" for i in range(shard_count())]


def shard_manifests(wildcards=None):
    """Input function: the shard passes' manifests (rules/perturb.smk), one per parse shard."""
    return [f"{OUT}/perturb/shard_{i}.json" for i in range(shard_count())]


def shard_plan_file(wildcards=None):
    return [f"{OUT}/parsed/shards.json"] if WF.sentences_per_shard else []


def shard_index_file(wildcards=None):
    """The shard plan's offsets of the CoNLL-U sources' trees (rublimp.parse.passthrough)."""
    return [f"{OUT}/parsed/conllu_index.npy"] if WF.sentences_per_shard else []


# -- exact invalidation: every job's inputs include the code and data it reads -------------
# The package files a job runs are found from the import graph (rublimp.workflow.module_closure),
# so editing shared code (paradigms/base.py, morph.py, scoring/hf.py, ...) reruns exactly the jobs
# that execute it, and editing one paradigm's module or word list only that paradigm's jobs.


def code_inputs(*entries, exclude=()):
    """Package source files that the entry points (``module`` or ``module:function``) may run."""
    return module_closure(entries, exclude=exclude)


def stage_code(stage):
    """Package source files of a stage (rublimp.workflow.STAGE_CODE), for a rule's ``code`` input."""
    return WF.stage_code(stage)


def paradigm_code(wildcards):
    """The perturb stage, the paradigm's module and every package module it imports."""
    return WF.perturb_code(wildcards.paradigm)


def paradigm_resources(wildcards):
    """The word lists the paradigm's class declares (its ``resources``)."""
    return WF.paradigm_resources(wildcards.paradigm)


def paradigm_option_files(wildcards):
    """Files named by the options the paradigm reads (perturb.options marked x-file in the schema)."""
    return WF.paradigm_option_files(wildcards.paradigm)


def paradigm_options(wildcards):
    """Only the perturb.options this paradigm reads: changing another option does not rerun it."""
    return WF.paradigm_options(wildcards.paradigm)


def all_paradigm_inputs():
    """What each configured paradigm's pool depends on (rublimp.pools.ParadigmInputs): the shard passes' params."""
    return {p: WF.paradigm_inputs(p) for p in PARADIGMS}


def all_paradigm_files(kind):
    """The union over the configured paradigms of their ``code``, ``resources`` or ``option_files``."""
    return sorted({f for p in PARADIGMS for f in WF.paradigm_inputs(p)[kind]})


def score_code(wildcards):
    """The scoring stage and the model's backend module (not the other backends')."""
    return WF.score_code(wildcards.model)


def model_inputs(wildcards):
    """A demo model must be trained first; other models are loaded from their path or hub id."""
    return WF.model_inputs(wildcards.model)


def model_spec(wildcards):
    return asdict(WF.model(wildcards.model))


def model_gpus(wildcards):
    return WF.model(wildcards.model).gpus


def model_threads(wildcards):
    """Threads of a job that runs the wildcard's model: scoring.threads, or 1 on CPU / GPUs + 1 on GPU."""
    return WF.model_threads(wildcards.model)


# -- where jobs run with a cluster executor (profiles/slurm) ------------------------------------
# Every job asks for CPUs = its rule's `threads` (1 unless the rule says otherwise). The rules
# below run in the Snakemake process's own machine instead of as cluster jobs: each reads tables
# of benchmark size (curation.n pairs per paradigm) or a few thousand annotations, loads no model
# weights and ends in seconds, less than a job waits in a queue: evaluate (joins benchmark and scores), report (tables and
# two plots), export (copies the benchmark, writes the card and task files), the validation
# stages (sampling; crowd-kit aggregation of the annotations), metalinguistic_summary and _section,
# acceptability (loads only the tokenizer; thresholds and a bootstrap over benchmark sentences)
# and acceptability_section. Submitted, because they read whole corpora or pools or run a model:
# corpus, parse, validate_agreement, perturb, train_demo_lm, demo_lm_check, score_pools,
# score_benchmark, metalinguistic, curate (threshold search over a whole pool and its scores)
# and unigram_counts (tokenizes the whole corpus).
#: Snakemake's priority for the jobs on a run's critical path (the demo LM, the context check, pool
#: scoring, curation, the benchmark's scoring and evaluation, metalinguistic prompting): when cores are
#: short they go before jobs nothing waits on yet (unigram counts, the validation stages), which
#: shortens a workstation run (`make run`) without changing any output.
CRITICAL_PATH = 10

localrules:
    evaluate,
    report,
    export,
    validation_export,
    validation_simulate,
    validation_import,
    validation_report,
    metalinguistic_summary,
    metalinguistic_section,
    acceptability,
    acceptability_section,


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
    return {"k": config["curation"]["k"], "t_max": WF.t_max, "tier0": {m: model_pool_table(m) for m in WF.tier0_models}}


def context_tables(wildcards):
    """Every model's list of the pool pairs too long for it (written by context_check in
    rules/score.smk); the pairs in any of them leave the pool for all models."""
    return [f"{OUT}/context/{m}.parquet" for m in WF.model_names]


def decontamination_scores(wildcards):
    """The decontamination models' pool tables (every paradigm's sentences); curate reads its pool's rows."""
    return [model_pool_table(m) for m in WF.decontamination_models]


def validation_annotations():
    """The annotations the validation import reads: curation.drop_invalid, validation.annotations, or simulated ones."""
    val = config["validation"]
    path = config["curation"]["drop_invalid"] or val["annotations"]
    if path:
        return path
    return f"{OUT}/validation/simulated_annotations.tsv" if val["simulate"] else None


def validation_simulated():
    """Whether the imported annotations are the simulated ones (no real annotations configured)."""
    return not (config["curation"]["drop_invalid"] or config["validation"]["annotations"])


def validation_drop_list(wildcards):
    return [f"{OUT}/validation/drop.csv"] if config["curation"]["drop_invalid"] else []


def metaling_models():
    """Causal evaluation models prompted metalinguistically (rules/metaling.smk)."""
    if not config["metalinguistic"]["enabled"]:
        return []
    return [m.name for m in MODELS if m.evaluate and m.backend in ("hf", "vllm")]


def acceptability_models():
    return WF.evaluation_models if config["acceptability"]["enabled"] else []


def model_stage_code(stage):
    """Input function: package files a ``stage`` job of the wildcard's model runs (its backend only)."""

    def code(wildcards):
        return WF.model_stage_code(stage, wildcards.model)

    return code


def extra_report_sections():
    """Markdown sections of the validation, metalinguistic and acceptability stages, appended to the summary."""
    return [f"{OUT}/validation/section.md", f"{OUT}/eval/metalinguistic/section.md", f"{OUT}/eval/acceptability/section.md"]


def all_outputs():
    outs = [
        f"{OUT}/corpus/sentences.parquet",
        f"{OUT}/agreement/verdicts.csv",
        f"{OUT}/eval/summary.md",
        f"{OUT}/export/hf/README.md",
        f"{OUT}/export/lm_eval/README.md",
    ]
    outs += [f"{OUT}/benchmark/{p}.csv" for p in PARADIGMS]
    if WF.demo_models:
        outs.append(f"{OUT}/eval/demo_lm_check.json")
    outs += extra_report_sections() + [f"{OUT}/validation/tasks.tsv"]
    return outs
