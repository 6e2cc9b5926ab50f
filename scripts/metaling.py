"""Rules `metalinguistic`, `metalinguistic_summary` and `metalinguistic_section` (rules/metaling.smk)."""
from rublimp.runtime import rule_log

with rule_log(snakemake, threads=snakemake.threads):
    from rublimp import metaling

    inp, out, p = snakemake.input, snakemake.output, snakemake.params
    if snakemake.rule == "metalinguistic":
        metaling.prompt_stage(
            inp.benchmark, p.spec, out.prompts, out.meta,
            template=p.template, labels=p.labels, chat_labels=p.chat_labels, chat_template=p.chat_template,
            pairs_per_paradigm=p.pairs_per_paradigm, seed=p.seed, threads=snakemake.threads,
        )
    elif snakemake.rule == "metalinguistic_summary":
        metaling.summary_stage(inp.prompts, inp.meta, inp.pairs, out.table, out.summary)
    elif snakemake.rule == "metalinguistic_section":
        metaling.section_stage(inp.summaries, out[0])
    else:
        raise ValueError(f"scripts/metaling.py does not handle rule {snakemake.rule!r}")
