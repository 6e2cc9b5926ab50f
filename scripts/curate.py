"""Rule `curate` (rules/curate.smk): decontamination threshold + stratified sample."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import curate_stage

    p = snakemake.params
    curate_stage(
        snakemake.input.pool, dict(zip(p.models, snakemake.input.scores)),
        snakemake.output.csv, snakemake.output.parquet, snakemake.output.report,
        k=p.k, n=p.n, seed=p.seed, length_bins=p.length_bins, grid_step=p.grid_step,
        t_max=p.t_max, cascaded=p.cascaded, drop_invalid=(snakemake.input.drop or [None])[0],
        detection_check=(snakemake.input.detection or [None])[0],
        too_long=list(snakemake.input.too_long),
    )
