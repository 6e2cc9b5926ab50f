"""Rule `train_demo_lm` (rules/demo_lm.smk): the small offline demo LM (causal GPT-2 or masked BERT)."""
from pathlib import Path

from rublimp.runtime import rule_log

with rule_log(snakemake, threads=snakemake.params.threads):
    from rublimp.stages import train_demo_lm_stage

    train_demo_lm_stage(
        snakemake.input.sentences, Path(snakemake.output.training).parent,
        lm=snakemake.params.lm, seed=snakemake.params.seed, backend=snakemake.params.backend,
        threads=snakemake.params.threads,
    )
