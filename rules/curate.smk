# Stage 7: decontamination threshold search (Min-K% <= t for every LM) and stratified sampling.


rule curate:
    input:
        pool=f"{OUT}/pools/{{paradigm}}.parquet",
        scores=decontamination_scores,
        drop=validation_drop_list,
    output:
        csv=report(
            f"{OUT}/benchmark/{{paradigm}}.csv",
            caption="../report/benchmark.rst",
            category="Benchmark",
        ),
        parquet=f"{OUT}/benchmark/{{paradigm}}.parquet",
        report=f"{OUT}/curation/{{paradigm}}.json",
    params:
        models=WF.decontamination_models,
        k=config.get("curation", {}).get("k", 30),
        n=config.get("curation", {}).get("n", 1000),
        length_bins=config.get("curation", {}).get("length_bins", [6, 10, 15, 20, 30, 51]),
        grid_step=config.get("curation", {}).get("grid_step"),
        t_max=config.get("curation", {}).get("t_max"),
        cascaded=WF.cascaded_models,
        seed=WF.seed,
    log:
        f"{OUT}/logs/curate/{{paradigm}}.log",
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/curate.py"
