# Stage 6: LM scores (sum log-prob, Min-K% Prob) of every grammatical pool sentence,
# once per model; a job reuses the scores its sibling jobs already wrote for that model.


def _gpu(wildcards):
    return 1 if WF.model(wildcards.model).device.startswith("cuda") else 0


rule score_pool:
    input:
        pool=f"{OUT}/pools/{{paradigm}}.parquet",
        model=model_inputs,
    output:
        f"{OUT}/scores/{{model}}/grammatical/{{paradigm}}.parquet",
    params:
        spec=lambda wc: asdict(WF.model(wc.model)),
        ks=config.get("scoring", {}).get("ks", [30, 40, 50, 60]),
        per_token=config.get("scoring", {}).get("per_token", False),
        threads=config.get("scoring", {}).get("threads", 1),
        cache_dir=lambda wc: f"{OUT}/scores/{wc.model}/grammatical",
        column="source_sentence",
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
        cached=lambda wc: (
            [f"{OUT}/scores/{wc.model}/grammatical/{wc.paradigm}.parquet"]
            if wc.model in WF.decontamination_models
            else []
        ),
    output:
        f"{OUT}/scores/{{model}}/benchmark/{{paradigm}}.parquet",
    params:
        spec=lambda wc: asdict(WF.model(wc.model)),
        ks=config.get("scoring", {}).get("ks", [30, 40, 50, 60]),
        per_token=config.get("scoring", {}).get("per_token", False),
        threads=config.get("scoring", {}).get("threads", 1),
        cache_dir=lambda wc: f"{OUT}/scores/{wc.model}/grammatical",
        column=["source_sentence", "target_sentence"],
    resources:
        gpu=_gpu,
    log:
        f"{OUT}/logs/score/{{model}}/benchmark/{{paradigm}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/score.py"
