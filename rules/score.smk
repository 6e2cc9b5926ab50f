# Stage 6: LM scores (sum log-prob, Min-K% Prob) of every grammatical pool sentence, once per model.
#
# One scoring job per model (`score_pools`) loads the model once and scores the sentences of
# every paradigm's pool into one table; each paradigm's `curate` job reads its own pool's rows of
# that table (the sentence and Min-K% columns only, rublimp.curation).  The trade-off: a changed
# pool (or a new paradigm) reruns the model's job, which scores only the sentences missing from
# the cache (counted in its log and tested), and then every paradigm's curation (cheap, and
# deterministic: the same bytes).  The table is not declared `ancient` to spare the other
# paradigms: Snakemake decides the dependents of a rerunning job only through that edge, so a
# change of the scoring settings, code or model would then leave stale benchmarks.
#
# Before any scoring, `context_check` (tokenizer and model config only, no weights) lists per model
# the pool pairs with a sentence longer than the model takes; a pair in any model's list leaves the
# pool for every model (score_pools skips it, curation counts it per paradigm), so all models see
# the same benchmark and no scoring job dies on one long sentence (rublimp.scoring.context).
#
# Scores are cached per (model settings, sentence) under {OUT}/cache/scores (rublimp.scoring.cache).
# The cascade (rublimp.cascade): a model with `tier: 1` scores only the pool sentences whose
# Min-K% under every tier-0 decontamination model is <= curation.t_max, so its job takes the
# tier-0 models' tables as input.

SCORE_CFG = config["scoring"]
SCORE_KS = SCORE_CFG["ks"]
CACHE_DIR = f"{OUT}/cache/scores"


rule context_check:
    input:
        pools=expand(f"{OUT}/pools/{{paradigm}}.parquet", paradigm=PARADIGMS),
        model=model_inputs,
        code=model_stage_code("context_check"),
    output:
        f"{OUT}/context/{{model}}.parquet",
    params:
        spec=model_spec,
        paradigms=PARADIGMS,
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/context_check/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/context_check/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/context_check.py"


rule score_pools:
    input:
        pools=expand(f"{OUT}/pools/{{paradigm}}.parquet", paradigm=PARADIGMS),
        too_long=context_tables,
        model=model_inputs,
        tier0=tier0_tables,
        code=score_code,
    output:
        model_pool_table("{model}"),
    params:
        spec=model_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG["per_token"],
        cache_dir=CACHE_DIR,
        column="source_sentence",
        cascade=model_cascade,
    threads: model_threads
    resources:
        gpu=model_gpus,
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/score_pools/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/score_pools/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"


rule score_benchmark:
    input:
        pools=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        model=model_inputs,
        code=score_code,
    output:
        expand(f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS, allow_missing=True),
    params:
        spec=model_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG["per_token"],
        cache_dir=CACHE_DIR,
        column=["source_sentence", "target_sentence"],
        cascade=None,
    threads: model_threads
    resources:
        gpu=model_gpus,
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/score_benchmark/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/score_benchmark/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"
