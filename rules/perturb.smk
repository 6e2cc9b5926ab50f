# Stage 5: one pool of minimal pairs per paradigm, in two steps (rublimp.pools).
#
# `perturb_shard` reads each parsed shard once and runs, in one pass over its trees, every
# paradigm whose partial pool of that shard is not cached yet; the cache (OUT/perturb/cache) is
# keyed by a hash of everything a paradigm's pool depends on (its code closure, word lists,
# option files and options, the shard, the verdicts, seed and cap), so after an edit only the
# paradigms that read what was edited are recomputed and the others are reused (counted in
# the job's log). `perturb` merges one paradigm's partial pools into its pool (the pool_cap
# rows of smallest seeded sampling key: a uniform sample, whatever the sharding). A `perturb`
# job's inputs are exactly what its pool depends on: the code it runs (the paradigm's module and
# every package module imported from there, e.g. paradigms/base.py, morph.py), the word lists its
# class declares (`resources`) and the files named by the options it reads; its `options`
# parameter holds only the options its class declares. An edit that changes any paradigm's pool
# reruns the shard passes, which recompute only the paradigms that read what was edited, and then
# every `perturb` merge (cheap: the others read their cached partial pools and write the same
# bytes). The merge itself (rublimp.pool_merge, bounded memory) is its `merge_code` input: not
# part of the cache keys, so editing it reruns the merges only. (Marking the manifests `ancient` would not help: Snakemake 9 then skips the merges of
# the edited paradigms too, since it masks every job downstream of a job it reruns.)


rule perturb_shard:
    input:
        shard=f"{OUT}/parsed/shard_{{shard}}.conllu",
        verdicts=f"{OUT}/agreement/verdicts.parquet",
        code=all_paradigm_files("code"),
        word_lists=all_paradigm_files("resources"),
        option_files=all_paradigm_files("option_files"),
    output:
        f"{OUT}/perturb/shard_{{shard}}.json",
    params:
        paradigms=all_paradigm_inputs(),
        cache_dir=f"{OUT}/perturb/cache",
        pool_cap=config["perturb"]["pool_cap"],
        pairs_per_sentence=config["perturb"]["pairs_per_sentence"],
        seed=WF.seed,
    log:
        f"{OUT}/logs/perturb_shard/shard_{{shard}}.log",
    benchmark:
        f"{OUT}/benchmarks/perturb_shard/shard_{{shard}}.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/perturb_shard.py"


rule perturb:
    input:
        shards=shard_paths,
        manifests=shard_manifests,
        verdicts=f"{OUT}/agreement/verdicts.parquet",
        code=paradigm_code,
        merge_code=stage_code("perturb_merge"),
        word_lists=paradigm_resources,
        option_files=paradigm_option_files,
    output:
        f"{OUT}/pools/{{paradigm}}.parquet",
    params:
        pool_cap=config["perturb"]["pool_cap"],
        pairs_per_sentence=config["perturb"]["pairs_per_sentence"],
        options=paradigm_options,
        inputs=lambda wc: WF.paradigm_inputs(wc.paradigm),
        cache_dir=f"{OUT}/perturb/cache",
        seed=WF.seed,
    log:
        f"{OUT}/logs/perturb/{{paradigm}}.log",
    benchmark:
        f"{OUT}/benchmarks/perturb/{{paradigm}}.tsv"
    conda:
        "../envs/parse.yaml"
    script:
        "../scripts/perturb.py"
