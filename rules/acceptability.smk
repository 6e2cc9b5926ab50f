# RuCoLA-style acceptability of single sentences: PenLP and SLOR (unigram frequencies counted once per
# model tokenizer over the corpus stage's sentences), dev thresholds, test MCC with a bootstrap CI.

ACC_CFG = config.get("acceptability", {})


rule unigram_counts:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        model=model_inputs,
    output:
        f"{OUT}/acceptability/{{model}}/unigram_counts.parquet",
    params:
        spec=model_spec,
    log:
        f"{OUT}/logs/acceptability/{{model}}/unigram_counts.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"


rule acceptability:
    input:
        pairs=expand(f"{OUT}/eval/pairs/{{{{model}}}}/{{paradigm}}.parquet", paradigm=PARADIGMS),
        counts=f"{OUT}/acceptability/{{model}}/unigram_counts.parquet",
        model=model_inputs,
    output:
        table=f"{OUT}/eval/acceptability/{{model}}.csv",
        summary=f"{OUT}/eval/acceptability/{{model}}.json",
    params:
        spec=model_spec,
        alpha=ACC_CFG.get("penlp_alpha", 1.0),
        dev_fraction=ACC_CFG.get("dev_fraction", 0.5),
        bootstrap=ACC_CFG.get("bootstrap", 1000),
        seed=WF.seed,
    log:
        f"{OUT}/logs/acceptability/{{model}}/acceptability.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"


rule acceptability_section:
    input:
        summaries=expand(f"{OUT}/eval/acceptability/{{model}}.json", model=acceptability_models()),
    output:
        f"{OUT}/eval/acceptability/section.md",
    log:
        f"{OUT}/logs/acceptability/section.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"
