# rublimp: raw Russian text -> decontaminated minimal-pair benchmark -> LM evaluation.
#
#   snakemake --cores all --profile profiles/local          # workstation
#   snakemake --profile profiles/slurm                       # SLURM cluster (GPU jobs for scoring)
#   snakemake --cores all results/benchmark/np_agreement_case.csv   # one paradigm
#
# The stages live in rules/*.smk; all logic is in the rublimp package (src/rublimp).

import os

from snakemake.utils import min_version

min_version("8.0")


configfile: os.path.join(workflow.basedir, "config", "config.yaml")


report: "report/workflow.rst"


include: "rules/common.smk"
include: "rules/corpus.smk"
include: "rules/parse.smk"
include: "rules/agreement.smk"
include: "rules/perturb.smk"
include: "rules/demo_lm.smk"
include: "rules/score.smk"
include: "rules/curate.smk"
include: "rules/evaluate.smk"
include: "rules/validation.smk"
include: "rules/metaling.smk"
include: "rules/acceptability.smk"
include: "rules/export.smk"


rule all:
    input:
        all_outputs(),
    default_target: True
