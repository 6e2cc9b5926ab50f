"""Rule `validate_agreement` (rules/agreement.smk): binomial tests per agreement condition."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp.stages import agreement_stage  # noqa: E402

p = snakemake.params
agreement_stage(
    snakemake.input.shards, snakemake.output.parquet, snakemake.output.csv,
    min_conf=p.min_conf, p0=p.p0, alpha=p.alpha,
)
