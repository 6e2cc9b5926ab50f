# Metalinguistic prompting (RuParam §3.2) of every causal evaluation model: which of two sentences is
# grammatical, asked in both orders, answered by the option labels' next-token log-probabilities.
# The model runs here (like scoring): GPUs from the model spec, threads from model_threads (rules/common.smk).
# Defaults of `metalinguistic.*`: config/schema.yaml.

META_CFG = config["metalinguistic"]


rule metalinguistic:
    input:
        benchmark=expand(f"{OUT}/benchmark/{{paradigm}}.parquet", paradigm=PARADIGMS),
        model=model_inputs,
        code=model_stage_code("metalinguistic"),
    output:
        # the answers alone: this job reads only the benchmark, so it runs beside the benchmark's
        # scoring; metalinguistic_summary adds each pair's probability verdict once `evaluate` is done
        prompts=f"{OUT}/eval/metalinguistic/prompts/{{model}}.parquet",
        meta=f"{OUT}/eval/metalinguistic/prompts/{{model}}.json",
    params:
        spec=model_spec,
        # a function, so that the template's {first}/{second} are not taken for wildcards
        template=lambda wildcards: META_CFG["template"],
        labels=META_CFG["labels"],
        chat_labels=META_CFG["chat_labels"],
        chat_template=META_CFG["chat_template"],
        pairs_per_paradigm=META_CFG["pairs_per_paradigm"],
        seed=WF.seed,
    threads: model_threads
    resources:
        gpu=model_gpus,
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/metalinguistic/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/metalinguistic/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/metaling.py"


rule metalinguistic_summary:
    input:
        prompts=f"{OUT}/eval/metalinguistic/prompts/{{model}}.parquet",
        meta=f"{OUT}/eval/metalinguistic/prompts/{{model}}.json",
        pairs=expand(f"{OUT}/eval/pairs/{{{{model}}}}/{{paradigm}}.parquet", paradigm=PARADIGMS),
        code=stage_code("metalinguistic_summary"),
    output:
        table=f"{OUT}/eval/metalinguistic/{{model}}.parquet",
        summary=report(
            f"{OUT}/eval/metalinguistic/{{model}}.json",
            caption="../report/metalinguistic.rst",
            category="6. Results",
            subcategory="Metalinguistic prompting",
            labels={"model": "{model}", "table": "metalinguistic accuracy"},
        ),
    log:
        f"{OUT}/logs/metalinguistic/{{model}}.summary.log",
    benchmark:
        f"{OUT}/benchmarks/metalinguistic_summary/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/metaling.py"


rule metalinguistic_section:
    input:
        summaries=expand(f"{OUT}/eval/metalinguistic/{{model}}.json", model=metaling_models()),
        code=stage_code("metalinguistic_section"),
    output:
        f"{OUT}/eval/metalinguistic/section.md",
    log:
        f"{OUT}/logs/metalinguistic/section.log",
    benchmark:
        f"{OUT}/benchmarks/metalinguistic_section.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/metaling.py"
