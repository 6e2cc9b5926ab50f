# Metalinguistic prompting (RuParam §3.2) of every causal evaluation model: which of two sentences is
# grammatical, asked in both orders, answered by the option labels' next-token log-probabilities.

META_CFG = config.get("metalinguistic", {})


rule metalinguistic:
    input:
        benchmark=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        pairs=expand(f"{OUT}/eval/pairs/{{{{model}}}}/{{paradigm}}.parquet", paradigm=PARADIGMS),
        model=model_inputs,
    output:
        table=f"{OUT}/eval/metalinguistic/{{model}}.parquet",
        summary=f"{OUT}/eval/metalinguistic/{{model}}.json",
    params:
        spec=model_spec,
        cfg=META_CFG,
        seed=WF.seed,
        threads=config.get("scoring", {}).get("threads", 1),
    resources:
        gpu=model_gpus,
    log:
        f"{OUT}/logs/metalinguistic/{{model}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/metaling.py"


rule metalinguistic_section:
    input:
        summaries=expand(f"{OUT}/eval/metalinguistic/{{model}}.json", model=metaling_models()),
    output:
        f"{OUT}/eval/metalinguistic/section.md",
    log:
        f"{OUT}/logs/metalinguistic/section.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/metaling.py"
