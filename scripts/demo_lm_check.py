"""Rule `demo_lm_check` (rules/demo_lm.smk): Min-K% AUROC, training vs held-out sentences."""
from rublimp.runtime import rule_log

with rule_log(snakemake, threads=snakemake.params.threads):
    from rublimp.stages import demo_lm_check_stage

    p = snakemake.params
    demo_lm_check_stage(
        snakemake.input.sentences, p.models, snakemake.output[0],
        lm=p.lm, ks=p.ks, seed=p.seed, threads=p.threads,
    )
