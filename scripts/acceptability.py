"""Rules `unigram_counts`, `acceptability`, `acceptability_section` (rules/acceptability.smk)."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp import acceptability

    rule, inp, out, p = snakemake.rule, snakemake.input, snakemake.output, snakemake.params
    if rule == "unigram_counts":
        acceptability.unigram_stage(inp.sentences, p.spec, out[0])
    elif rule == "acceptability":
        acceptability.acceptability_stage(inp.pairs, inp.counts, p.spec, out.table, out.summary, alpha=p.alpha,
                                          dev_fraction=p.dev_fraction, n_boot=p.bootstrap, seed=p.seed)
    elif rule == "acceptability_section":
        acceptability.section_stage(inp.summaries, out[0])
    else:
        raise ValueError(f"scripts/acceptability.py does not handle rule {rule!r}")
