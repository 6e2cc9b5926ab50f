"""Rule `validate_agreement` (rules/agreement.smk): binomial tests per agreement condition."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import agreement_stage

    p = snakemake.params
    agreement_stage(
        snakemake.input.shards, snakemake.output.parquet, snakemake.output.csv,
        min_conf=p.min_conf, p0=p.p0, alpha=p.alpha,
    )
