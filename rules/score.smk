# Stage 6: LM scores (sum log-prob, Min-K% Prob) of every grammatical pool sentence, once per model.
#
# Scores are cached per (model settings, sentence) under {OUT}/cache/scores (rublimp.scoring.cache):
# adding a model or a paradigm never rescores what exists.  The cascade (rublimp.cascade): a model
# with `tier: 1` scores only the pool sentences whose Min-K% under every tier-0 decontamination model
# is <= curation.t_max, so its score_pool job takes those tier-0 scores of the same paradigm as input.

SCORE_CFG = config["scoring"]
SCORE_KS = SCORE_CFG["ks"]
CACHE_DIR = f"{OUT}/cache/scores"


rule score_pool:
    input:
        pool=f"{OUT}/pools/{{paradigm}}.parquet",
        model=model_inputs,
        tier0=tier0_scores,
        code=score_code,
    output:
        f"{OUT}/scores/{{model}}/grammatical/{{paradigm}}.parquet",
    params:
        spec=model_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG["per_token"],
        threads=SCORE_CFG["threads"],
        cache_dir=CACHE_DIR,
        column="source_sentence",
        cascade=cascade,
    resources:
        gpu=model_gpus,
    log:
        f"{OUT}/logs/score/{{model}}/grammatical/{{paradigm}}.log",
    benchmark:
        f"{OUT}/benchmarks/score_pool/{{model}}/{{paradigm}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"


rule score_benchmark:
    input:
        pool=f"{OUT}/benchmark/{{paradigm}}.parquet",
        model=model_inputs,
        cached=cached_grammatical,
        code=score_code,
    output:
        f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet",
    params:
        spec=model_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG["per_token"],
        threads=SCORE_CFG["threads"],
        cache_dir=CACHE_DIR,
        column=["source_sentence", "target_sentence"],
        cascade=None,
    resources:
        gpu=model_gpus,
    log:
        f"{OUT}/logs/score/{{model}}/benchmark/{{paradigm}}.log",
    benchmark:
        f"{OUT}/benchmarks/score_benchmark/{{model}}/{{paradigm}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"
