# The offline demo LMs: a small GPT-2-style model (`backend: hf`) or BERT-style masked LM
# (`backend: hf-mlm`) trained on a fixed half of the corpus for each config model with
# `demo: true`, and the pipeline's own check that Min-K% detects their training sentences.


rule train_demo_lm:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
    output:
        training=f"{OUT}/models/{{model}}/training.json",
        config=f"{OUT}/models/{{model}}/config.json",
    params:
        lm=config.get("demo_lm", {}),
        seed=WF.seed,
        threads=config.get("scoring", {}).get("threads", 1),
        backend=lambda wc: WF.model(wc.model).backend,
    log:
        f"{OUT}/logs/train_demo_lm/{{model}}.log",
    benchmark:
        f"{OUT}/benchmarks/train_demo_lm/{{model}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/train_demo_lm.py"


rule demo_lm_check:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        models=[f"{OUT}/models/{m}/training.json" for m in WF.demo_models],
    output:
        f"{OUT}/eval/demo_lm_check.json",
    params:
        models=[asdict(WF.model(m)) for m in WF.demo_models],
        lm=config.get("demo_lm", {}),
        ks=config.get("scoring", {}).get("ks", [30, 40, 50, 60]),
        seed=WF.seed,
        threads=config.get("scoring", {}).get("threads", 1),
    log:
        f"{OUT}/logs/demo_lm_check.log",
    benchmark:
        f"{OUT}/benchmarks/demo_lm_check/all.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/demo_lm_check.py"
