# Stage 7: decontamination threshold search (Min-K% <= t for every LM) and stratified sampling.


rule curate:
    input:
        pool=f"{OUT}/pools/{{paradigm}}.parquet",
        scores=decontamination_scores,
        drop=validation_drop_list,
        # the demo-LM detection check of the demo models among the decontamination models: a failed check
        # is recorded in curation/<paradigm>.json as `decontaminated: false`
        detection=lambda wc: [f"{OUT}/eval/demo_lm_check.json"] if set(WF.demo_models) & set(WF.decontamination_models) else [],
        too_long=context_tables,
        code=stage_code("curate"),
    output:
        csv=report(
            f"{OUT}/benchmark/{{paradigm}}.csv",
            caption="../report/benchmark.rst",
            category="4. Benchmark",
            subcategory="{paradigm}",
            labels={"paradigm": "{paradigm}", "table": "benchmark"},
        ),
        parquet=f"{OUT}/benchmark/{{paradigm}}.parquet",
        report=report(
            f"{OUT}/curation/{{paradigm}}.json",
            caption="../report/curation.rst",
            category="3. Decontamination",
            subcategory="{paradigm}",
            labels={"paradigm": "{paradigm}", "table": "threshold search"},
        ),
    params:
        models=WF.decontamination_models,
        k=config["curation"]["k"],
        n=config["curation"]["n"],
        length_bins=config["curation"]["length_bins"],
        grid_step=config["curation"]["grid_step"],
        t_max=config["curation"]["t_max"],
        cascaded=WF.cascaded_models,
        seed=WF.seed,
    priority: CRITICAL_PATH
    log:
        f"{OUT}/logs/curate/{{paradigm}}.log",
    benchmark:
        f"{OUT}/benchmarks/curate/{{paradigm}}.tsv"
    conda:
        "../envs/score.yaml"
    script:
        "../scripts/curate.py"
