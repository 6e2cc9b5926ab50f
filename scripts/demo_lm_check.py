"""Rule `demo_lm_check` (rules/demo_lm.smk): Min-K% AUROC, training vs held-out sentences."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(snakemake.params.threads)
setup_logging(snakemake.log[0])

from rublimp.stages import demo_lm_check_stage  # noqa: E402

p = snakemake.params
demo_lm_check_stage(
    snakemake.input.sentences, p.models, snakemake.output[0],
    lm=p.lm, ks=p.ks, seed=p.seed, threads=p.threads,
)
