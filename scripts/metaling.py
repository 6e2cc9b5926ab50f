"""Rules `metalinguistic` and `metalinguistic_section` (rules/metaling.smk)."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp import metaling  # noqa: E402

if snakemake.rule == "metalinguistic":
    cfg = snakemake.params.cfg
    metaling.metaling_stage(
        snakemake.input.benchmark, snakemake.input.pairs, snakemake.params.spec,
        snakemake.output.table, snakemake.output.summary,
        template=cfg.get("template", metaling.DEFAULT_TEMPLATE), labels=cfg.get("labels", metaling.DEFAULT_LABELS),
        chat_labels=cfg.get("chat_labels", metaling.DEFAULT_CHAT_LABELS),
        chat_template=cfg.get("chat_template", "auto"), pairs_per_paradigm=cfg.get("pairs_per_paradigm", 50),
        seed=snakemake.params.seed, threads=snakemake.params.threads,
    )
else:
    metaling.section_stage(snakemake.input.summaries, snakemake.output[0])
