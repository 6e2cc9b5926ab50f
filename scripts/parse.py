"""Rule `parse` (rules/parse.smk): one shard of sentences -> UD CoNLL-U."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import parse_stage

    p = snakemake.params
    opts = dict(p.stanza) if p.backend == "stanza" else {}
    parse_stage(
        snakemake.input.sentences, snakemake.output[0],
        shard=int(snakemake.wildcards.shard), n_shards=p.n_shards,
        backend=p.backend, batch_size=p.batch_size, sources=p.sources, backend_opts=opts,
        max_chars=p.max_chars, max_tokens=p.max_tokens,
        conllu_index=snakemake.input.index[0] if snakemake.input.index else None,
    )
