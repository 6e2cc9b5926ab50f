# RuCoLA-style acceptability of single sentences: PenLP and SLOR (unigram frequencies counted once per
# model tokenizer over the corpus stage's sentences), dev thresholds, test MCC with a bootstrap CI.
# Both jobs load only the model's tokenizer (the sentences' log-probabilities come from the evaluated
# pairs), so they need no GPU. Defaults of `acceptability.*`: config/schema.yaml.

ACC_CFG = config["acceptability"]


rule unigram_counts:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        model=model_inputs,
        code=model_stage_code("acceptability"),
    output:
        f"{OUT}/acceptability/{{model}}/unigram_counts.parquet",
    params:
        spec=model_spec,
    log:
        f"{OUT}/logs/acceptability/{{model}}/unigram_counts.log",
    benchmark:
        f"{OUT}/benchmarks/unigram_counts/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"


rule acceptability:
    input:
        pairs=expand(f"{OUT}/eval/pairs/{{{{model}}}}/{{paradigm}}.parquet", paradigm=PARADIGMS),
        counts=f"{OUT}/acceptability/{{model}}/unigram_counts.parquet",
        model=model_inputs,
        code=model_stage_code("acceptability"),
    output:
        table=report(
            f"{OUT}/eval/acceptability/{{model}}.csv",
            caption="../report/acceptability_model.rst",
            category="6. Results",
            subcategory="Acceptability (RuCoLA-style)",
            labels={"model": "{model}", "table": "PenLP / SLOR MCC"},
        ),
        summary=f"{OUT}/eval/acceptability/{{model}}.json",
    params:
        spec=model_spec,
        alpha=ACC_CFG["penlp_alpha"],
        dev_fraction=ACC_CFG["dev_fraction"],
        bootstrap=ACC_CFG["bootstrap"],
        seed=WF.seed,
    log:
        f"{OUT}/logs/acceptability/{{model}}/acceptability.log",
    benchmark:
        f"{OUT}/benchmarks/acceptability/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"


rule acceptability_section:
    input:
        summaries=expand(f"{OUT}/eval/acceptability/{{model}}.json", model=acceptability_models()),
        code=stage_code("acceptability_section"),
    output:
        f"{OUT}/eval/acceptability/section.md",
    log:
        f"{OUT}/logs/acceptability/section.log",
    benchmark:
        f"{OUT}/benchmarks/acceptability_section.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/acceptability.py"
