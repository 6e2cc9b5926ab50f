# Stage 6: LM scores (sum log-prob, Min-K% Prob) of every grammatical pool sentence, once per model.
#
# Scores are cached per (model settings, sentence) under {OUT}/cache/scores (rublimp.scoring.cache):
# adding a model or a paradigm never rescores what exists.  The cascade (rublimp.cascade): a model
# with `tier: 1` scores only the pool sentences whose Min-K% under every tier-0 decontamination model
# is <= curation.t_max, so its score_pool job takes those tier-0 scores of the same paradigm as input.

from rublimp.io import InputError


def _raw_model(name):
    for m in config.get("models", []):
        if m["name"] == name:
            return m
    raise KeyError(name)


def _tier(name):
    return int(_raw_model(name).get("tier", 0))


def _spec(wildcards):
    """The resolved model spec plus the backend options the workflow's ModelSpec does not carry."""
    raw = _raw_model(wildcards.model)
    extra = {k: raw[k] for k in ("tier", "vllm", "max_length") if k in raw}
    return {**asdict(WF.model(wildcards.model)), **extra}


SCORE_CFG = config.get("scoring", {})
SCORE_KS = SCORE_CFG.get("ks", [30, 40, 50, 60])
CACHE_DIR = f"{OUT}/cache/scores"
TIER0 = [m for m in WF.decontamination_models if _tier(m) == 0]
CASCADED = [m for m in WF.decontamination_models if _tier(m) >= 1]
T_MAX = config.get("curation", {}).get("t_max")
if CASCADED and T_MAX is None:
    raise InputError(
        f"config key curation.t_max: models {CASCADED} have tier >= 1 (cascade), which needs t_max, "
        "the loosest Min-K% threshold the curation may choose"
    )
if CASCADED and not TIER0:
    raise InputError("config key models: the cascade (tier >= 1) needs at least one tier-0 decontamination model")


def _tier0_scores(wildcards):
    if wildcards.model not in CASCADED:
        return {}
    return {m: f"{OUT}/scores/{m}/grammatical/{wildcards.paradigm}.parquet" for m in TIER0}


def _cascade(wildcards):
    tier0 = _tier0_scores(wildcards)
    if not tier0:
        return None
    return {"k": config.get("curation", {}).get("k", 30), "t_max": T_MAX, "tier0": tier0}


def _gpu(wildcards):
    m = WF.model(wildcards.model)
    if not m.device.startswith("cuda"):
        return 0
    return int((_raw_model(wildcards.model).get("vllm") or {}).get("tensor_parallel_size", 1))


rule score_pool:
    input:
        pool=f"{OUT}/pools/{{paradigm}}.parquet",
        model=model_inputs,
        tier0=lambda wc: list(_tier0_scores(wc).values()),
    output:
        f"{OUT}/scores/{{model}}/grammatical/{{paradigm}}.parquet",
    params:
        spec=_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG.get("per_token", False),
        threads=SCORE_CFG.get("threads", 1),
        cache_dir=CACHE_DIR,
        column="source_sentence",
        cascade=_cascade,
    resources:
        gpu=_gpu,
    log:
        f"{OUT}/logs/score/{{model}}/grammatical/{{paradigm}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"


rule score_benchmark:
    input:
        pool=f"{OUT}/benchmark/{{paradigm}}.parquet",
        model=model_inputs,
        # scored first, so that the source sentences come from the cache
        cached=lambda wc: (
            [f"{OUT}/scores/{wc.model}/grammatical/{wc.paradigm}.parquet"]
            if wc.model in WF.decontamination_models
            else []
        ),
    output:
        f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet",
    params:
        spec=_spec,
        ks=SCORE_KS,
        per_token=SCORE_CFG.get("per_token", False),
        threads=SCORE_CFG.get("threads", 1),
        cache_dir=CACHE_DIR,
        column=["source_sentence", "target_sentence"],
        cascade=None,
    resources:
        gpu=_gpu,
    log:
        f"{OUT}/logs/score/{{model}}/benchmark/{{paradigm}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"
