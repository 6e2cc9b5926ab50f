# The offline demo LMs: a small GPT-2-style model (`backend: hf`) or BERT-style masked LM
# (`backend: hf-mlm`) trained on a fixed half of the corpus for each config model with
# `demo: true`, and the pipeline's own check that Min-K% detects their training sentences.


rule train_demo_lm:
    input:
        sentences=f"{OUT}/corpus/sentences.parquet",
        code=WF.demo_lm_code("train_demo_lm"),
    output:
        training=f"{OUT}/models/{{model}}/training.json",
        config=f"{OUT}/models/{{model}}/config.json",
    params:
        lm=config["demo_lm"],
        seed=WF.seed,
        threads=WF.cpu_threads,
        backend=lambda wc: WF.model(wc.model).backend,
    threads: WF.cpu_threads
    priority: CRITICAL_PATH
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
        code=WF.demo_lm_code("demo_lm_check"),
    output:
        report(
            f"{OUT}/eval/demo_lm_check.json",
            caption="../report/demo_lm_check.rst",
            category="5. Demo LM check",
            labels={"table": "Min-K% AUROC, training vs held-out"},
        ),
    params:
        models=[asdict(WF.model(m)) for m in WF.demo_models],
        lm=config["demo_lm"],
        ks=config["scoring"]["ks"],
        seed=WF.seed,
        threads=WF.cpu_threads,
    threads: WF.cpu_threads
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/demo_lm_check.log",
    benchmark:
        f"{OUT}/benchmarks/demo_lm_check.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/demo_lm_check.py"
