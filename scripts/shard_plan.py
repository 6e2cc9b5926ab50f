"""Checkpoint `shard_plan` (rules/parse.smk): the number of parse shards for the corpus size."""
from rublimp.runtime import rule_log

with rule_log(snakemake):
    from rublimp.stages import shard_plan_stage

    shard_plan_stage(snakemake.input.sentences, snakemake.output[0],
                     sentences_per_shard=snakemake.params.sentences_per_shard,
                     sources=snakemake.params.sources, conllu_index=snakemake.output.index)
