"""The SLURM profile (profiles/slurm) through snakemake-executor-plugin-slurm.

An end-to-end run of .test/config.yaml with stand-in sbatch/srun/sacct/squeue/sacctmgr on the
PATH (tests/fake_slurm.py); what each job asked SLURM for; the plugin's partition choice for GPU
and CPU jobs; and a dry run with the profile. The run is shared with tests/test_invalidation.py.
"""

from __future__ import annotations

import json
import re
import shlex
import zipfile
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
import yaml

from workflow_run import ACCOUNT, REPO, SLURM_PARADIGM, copy_checkout, planned, slurm_run, snakemake

pytest.importorskip("snakemake_executor_plugin_slurm")
pytestmark = pytest.mark.slow

PARADIGMS = [SLURM_PARADIGM]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return slurm_run(tmp_path_factory)


@pytest.fixture(scope="module")
def sbatch_calls(run):
    calls = [json.loads(line) for line in (run["state"] / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    out = []
    for c in calls:
        args = c["args"]
        comment = args[args.index("--comment") + 1]
        out.append(SimpleNamespace(rule=re.match(r"rule_(\w+?)(?:_wildcards_|$)", comment).group(1), args=args, line=shlex.join(args)))
    return out


def test_the_run_completes_through_the_plugin(run):
    out = run["dir"] / "results"
    for p in PARADIGMS:
        bench = pl.read_csv(out / "benchmark" / f"{p}.csv")
        assert bench.height > 0 and set(bench["PID"]) == {p}
    assert "demo-gpt2" in (out / "eval" / "summary.md").read_text(encoding="utf-8")
    # nothing left to do
    assert planned(snakemake(run["dir"], "-n", "--configfile", str(run["config"]))) == {}


def test_every_job_went_through_sbatch_with_account_partition_time_memory_cpus(run, sbatch_calls):
    rules = {c.rule for c in sbatch_calls}
    assert rules >= {"corpus", "parse", "validate_agreement", "perturb_shard", "perturb", "train_demo_lm", "demo_lm_check",
                     "score_pools", "score_pool", "curate", "score_benchmark", "evaluate", "report", "export",
                     "validation_export", "validation_simulate", "validation_import", "validation_report",
                     "metalinguistic", "metalinguistic_section", "unigram_counts", "acceptability",
                     "acceptability_section"}, rules
    for c in sbatch_calls:
        a = c.args
        assert a[a.index("-A") + 1] == ACCOUNT, c.line
        assert a[a.index("-p") + 1] == "cpu", c.line  # CPU-only demo model: never the GPU partition
        assert "-t" in a and "--mem" in a and any(x.startswith("--cpus-per-task=") for x in a), c.line
        assert not any(x.startswith("--gpus") or x.startswith("--gres") for x in a), c.line


def test_per_rule_resources_come_from_the_profile(sbatch_calls):
    profile = yaml.safe_load((REPO / "profiles" / "slurm" / "config.yaml").read_text(encoding="utf-8"))
    for c in sbatch_calls:
        want = {**profile["default-resources"], **profile["set-resources"].get(c.rule, {})}
        a = c.args
        assert a[a.index("-t") + 1] == str(want["runtime"]), c.line
        assert a[a.index("--mem") + 1] == str(want["mem_mb"]), c.line
        assert f"--cpus-per-task={want['cpus_per_task']}" in a, c.line


def test_benchmark_files_for_sizing(run):
    bench = run["dir"] / "results" / "benchmarks"
    for rel in ["corpus.tsv", "parse/shard_0.tsv", "validate_agreement.tsv", "perturb_shard/shard_0.tsv",
                *[f"perturb/{p}.tsv" for p in PARADIGMS],
                "train_demo_lm/demo-gpt2.tsv", "score_pools/demo-gpt2.tsv", "score_benchmark/demo-gpt2.tsv",
                "evaluate/demo-gpt2.tsv", "report.tsv",
                "metalinguistic/demo-gpt2.tsv", "unigram_counts/demo-gpt2.tsv", "acceptability/demo-gpt2.tsv"]:
        df = pl.read_csv(bench / rel, separator="\t")
        assert {"s", "max_rss"} <= set(df.columns) and df.height == 1, rel


def test_no_rule_log_is_empty(run):
    logs = sorted((run["dir"] / "results" / "logs").rglob("*.log"))
    # every job but `all` has a log: corpus, parse, agreement, the shard pass, perturb, train, check, 3 scoring
    # (the model's pools, the paradigm's cut, the benchmark), curate, evaluate, report, export;
    # validation export, simulate, import, report; metalinguistic and its section; unigram counts,
    # acceptability and its section
    assert len(logs) == 23, [str(p) for p in logs]
    for p in logs:
        text = p.read_text(encoding="utf-8")
        assert re.search(r"rule \w+.*: started", text) and re.search(r"rule \w+: done in", text), p
        assert "output " in text, p


def test_report_holds_every_plot_and_table(run):
    report = run["dir"] / "report.zip"
    snakemake(run["dir"], "--configfile", str(run["config"]), "--report", str(report))
    names = zipfile.ZipFile(report).namelist()
    for f in ("accuracy_by_phenomenon.png", "delta_hist.png", "results.csv", "phenomena.csv", "curation.csv",
              "summary.md", "verdicts.csv", *[f"{p}.csv" for p in PARADIGMS],
              "tasks.tsv", "workers.csv", "paradigms.csv", "summary.json", "demo-gpt2.json", "demo-gpt2.csv"):
        assert any(n.endswith("/" + f) for n in names), (f, names)
    html = zipfile.ZipFile(report).read(next(n for n in names if n.endswith("report.html"))).decode("utf-8")
    for f in ("filter_stats.json", "demo_lm_check.json", *[f"curation/{p}.json" for p in PARADIGMS]):
        assert f in html, f
    # every plot the report stage writes is declared (and so in the report)
    written = {p.name for p in (run["dir"] / "results" / "eval").glob("*.png")}
    assert written == {"accuracy_by_phenomenon.png", "delta_hist.png"}


def test_gpu_jobs_go_to_the_gpu_partition_cpu_jobs_do_not():
    from snakemake_executor_plugin_slurm.partitions import get_best_partition, read_partition_file

    partitions = read_partition_file(REPO / "profiles" / "slurm" / "partitions.yaml")
    logger = SimpleNamespace(info=lambda *a: None, debug=lambda *a: None, warning=lambda *a: None)

    def job(**res):
        return SimpleNamespace(name="score_pool", threads=1, resources=SimpleNamespace(get=lambda k, d=None: res.get(k, d)))

    assert get_best_partition(partitions, job(gpu=1, mem_mb=32000, runtime=720, cpus_per_task=4), logger) == "gpu"
    assert get_best_partition(partitions, job(gpu=2, mem_mb=32000, runtime=720, cpus_per_task=4), logger) == "gpu"
    assert get_best_partition(partitions, job(gpu=0, mem_mb=32000, runtime=720, cpus_per_task=4), logger) == "cpu"


def test_gpus_are_computed_from_the_model_spec_and_parser():
    from rublimp.workflow import WorkflowConfig

    cfg = yaml.safe_load((REPO / ".test" / "config.yaml").read_text(encoding="utf-8"))
    cfg["models"] += [
        {"name": "big", "backend": "vllm", "path": "x/big", "device": "cuda", "vllm": {"tensor_parallel_size": 2}},
        {"name": "mid", "backend": "hf", "path": "x/mid", "device": "cuda:0"},
        {"name": "cpu", "backend": "hf-mlm", "path": "x/cpu", "tier": 0},
    ]
    cfg["parse"] = {"backend": "stanza"}
    wf = WorkflowConfig(cfg, basedir=REPO, check_models=False)
    assert [wf.model(m).gpus for m in ("demo-gpt2", "big", "mid", "cpu")] == [0, 2, 1, 0]
    assert wf.parse_gpus == 1
    cfg["parse"] = {"backend": "stanza", "stanza": {"use_gpu": False}}
    assert WorkflowConfig(cfg, basedir=REPO, check_models=False).parse_gpus == 0


def test_profile_dry_run(tmp_path):
    checkout = copy_checkout(tmp_path)
    proc = snakemake(checkout, "--profile", str(checkout / "profiles" / "slurm"), "-n")
    jobs = planned(proc)
    assert jobs[("perturb", "tense_marker")] == 1 and jobs[("report", "")] == 1
    text = proc.stdout + proc.stderr
    # every job carries the profile's SLURM resources
    for block in re.findall(r"rule (?:score_pools|parse):.*?resources: ([^\n]*)", text, flags=re.S):
        # a dry run shows string resources as <TBD> (they are evaluated at submission, where
        # test_every_job_went_through_sbatch_with_account_partition_time_memory_cpus checks the values)
        assert re.search(rf"slurm_account=({ACCOUNT}|<TBD>)", block) and "runtime=" in block, block
        assert "mem_mb=" in block and "gpu=0" in block, block
