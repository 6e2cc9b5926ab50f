"""Rule `train_demo_lm` (rules/demo_lm.smk): the small offline demo LM (causal GPT-2 or masked BERT)."""
from pathlib import Path

from rublimp.runtime import limit_threads, setup_logging

limit_threads(snakemake.params.threads)
setup_logging(snakemake.log[0])

from rublimp.stages import train_demo_lm_stage  # noqa: E402

train_demo_lm_stage(
    snakemake.input.sentences, Path(snakemake.output.training).parent,
    lm=snakemake.params.lm, seed=snakemake.params.seed, backend=snakemake.params.backend,
)
