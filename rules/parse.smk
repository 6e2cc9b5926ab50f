# Stage 3: UD parsing into CoNLL-U shards (slovnet on CPU by default, stanza on GPU).
# parse.shards fixes the number of shards; with parse.sentences_per_shard the checkpoint
# `shard_plan` chooses it from the corpus size instead (ceil(sentences / sentences_per_shard)), so
# parallelism grows with the corpus and each job's share stays the same (a dry run then plans
# the jobs after the corpus once the corpus exists).


if WF.sentences_per_shard:

    checkpoint shard_plan:
        input:
            sentences=f"{OUT}/corpus/sentences.parquet",
        output:
            f"{OUT}/parsed/shards.json",
            index=f"{OUT}/parsed/conllu_index.npy",
        params:
            sentences_per_shard=WF.sentences_per_shard,
            sources=config["corpus"]["sources"],
        log:
            f"{OUT}/logs/shard_plan.log",
        benchmark:
            f"{OUT}/benchmarks/shard_plan.tsv"
        conda:
            "../envs/parse.yaml"
        script:
            "../scripts/shard_plan.py"


rule parse:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        plan=shard_plan_file,
        index=shard_index_file,
        code=WF.parse_code(),
    output:
        f"{OUT}/parsed/shard_{{shard}}.conllu",
    params:
        backend=config["parse"]["backend"],
        n_shards=shard_count,
        batch_size=config["parse"]["batch_size"],
        stanza=config["parse"]["stanza"],
        sources=config["corpus"]["sources"],
        max_chars=config["parse"]["max_chars"],
        max_tokens=config["parse"]["max_tokens"],
    resources:
        # one GPU only for stanza with use_gpu (SLURM: --gpus, partition chosen by the profile)
        gpu=WF.parse_gpus,
    log:
        f"{OUT}/logs/parse/shard_{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/parse/shard_{{shard}}.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/parse.py"
