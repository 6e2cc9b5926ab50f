"""Rules `unigram_counts`, `acceptability`, `acceptability_section` (rules/acceptability.smk)."""
from rublimp.runtime import limit_threads, setup_logging

limit_threads(1)
setup_logging(snakemake.log[0])

from rublimp import acceptability  # noqa: E402

rule, inp, out, p = snakemake.rule, snakemake.input, snakemake.output, snakemake.params
if rule == "unigram_counts":
    acceptability.unigram_stage(inp.sentences, p.spec, out[0])
elif rule == "acceptability":
    acceptability.acceptability_stage(inp.pairs, inp.counts, p.spec, out.table, out.summary, alpha=p.alpha,
                                      dev_fraction=p.dev_fraction, n_boot=p.bootstrap, seed=p.seed)
else:
    acceptability.section_stage(inp.summaries, out[0])
