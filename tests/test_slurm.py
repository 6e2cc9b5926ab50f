"""The SLURM profile (profiles/slurm) through snakemake-executor-plugin-slurm.

Light: dry runs with the profile (every job's threads and resources, which rules stay local), the
plugin's CPU request for those jobs, and two real jobs through stand-in sbatch/srun/sacct/squeue/
sacctmgr on the PATH (tests/fake_slurm.py). Slow: an end-to-end run of .test/config.yaml through
the stand-ins and what each job asked SLURM for; the run is shared with tests/test_invalidation.py.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
import yaml

from workflow_run import ACCOUNT, REPO, SLURM_PARADIGM, copy_checkout, env_for, planned, slurm_run, slurm_run_made, snakemake

pytest.importorskip("snakemake_executor_plugin_slurm")

PARADIGMS = [SLURM_PARADIGM]

#: rules whose jobs are submitted to SLURM (real work: whole corpora, pools or a model)
SUBMITTED = {"corpus", "parse", "validate_agreement", "perturb_shard", "perturb", "train_demo_lm", "demo_lm_check",
             "context_check", "score_pools", "score_benchmark", "curate", "metalinguistic", "unigram_counts"}
#: cheap rules, run by the Snakemake process itself (`localrules` in rules/common.smk)
LOCAL = {"evaluate", "report", "export", "validation_export", "validation_simulate", "validation_import",
         "validation_report", "metalinguistic_summary", "metalinguistic_section", "acceptability", "acceptability_section"}
#: rules that run a model: threads from scoring.threads (null: 1 on CPU)
MODEL_RULES = {"train_demo_lm", "demo_lm_check", "score_pools", "score_benchmark", "metalinguistic"}


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


@pytest.mark.slow
def test_the_run_completes_through_the_plugin(run):
    out = run["dir"] / "results"
    for p in PARADIGMS:
        bench = pl.read_csv(out / "benchmark" / f"{p}.csv")
        assert bench.height > 0 and set(bench["PID"]) == {p}
    assert "demo-gpt2" in (out / "eval" / "summary.md").read_text(encoding="utf-8")
    # nothing left to do
    assert planned(snakemake(run["dir"], "-n", "--configfile", str(run["config"]))) == {}


@pytest.mark.slow
def test_every_job_went_through_sbatch_with_account_partition_time_memory_cpus(run, sbatch_calls):
    # every real-work rule was submitted, no cheap one was
    assert {c.rule for c in sbatch_calls} == SUBMITTED, {c.rule for c in sbatch_calls}
    for c in sbatch_calls:
        a = c.args
        # no account in the profile: the plugin's own guess from the user's recent jobs (sacct)
        assert a[a.index("-A") + 1] == ACCOUNT, c.line
        # no partition in the profile: the cluster's default partition (sinfo's `cpu*`)
        assert a[a.index("-p") + 1] == "cpu", c.line
        assert "-t" in a and "--mem" in a and any(x.startswith("--cpus-per-task=") for x in a), c.line
        assert not any(x.startswith("--gpus") or x.startswith("--gres") for x in a), c.line
    text = run["proc"].stdout + run["proc"].stderr
    for rule in LOCAL:
        assert re.search(rf"^localrule {rule}:", text, flags=re.M), rule


@pytest.mark.slow
def test_per_rule_resources_come_from_the_profile(run, sbatch_calls):
    profile = yaml.safe_load((REPO / "profiles" / "slurm" / "config.yaml").read_text(encoding="utf-8"))
    threads = yaml.safe_load(run["config"].read_text(encoding="utf-8"))["scoring"]["threads"]
    for c in sbatch_calls:
        want = {**profile["default-resources"], **profile["set-resources"].get(c.rule, {})}
        a = c.args
        assert a[a.index("-t") + 1] == str(want["runtime"]), c.line
        assert a[a.index("--mem") + 1] == str(want["mem_mb"]), c.line
        # CPUs = the rule's threads: scoring.threads for the jobs that run a model, 1 for the others
        assert f"--cpus-per-task={threads if c.rule in MODEL_RULES else 1}" in a, c.line


@pytest.mark.slow
def test_benchmark_files_for_sizing(run):
    bench = run["dir"] / "results" / "benchmarks"
    for rel in ["corpus.tsv", "parse/shard_0.tsv", "validate_agreement.tsv", "perturb_shard/shard_0.tsv",
                *[f"perturb/{p}.tsv" for p in PARADIGMS],
                "train_demo_lm/demo-gpt2.tsv", "score_pools/demo-gpt2.tsv", "score_benchmark/demo-gpt2.tsv",
                "evaluate/demo-gpt2.tsv", "report.tsv",
                "metalinguistic/demo-gpt2.tsv", "metalinguistic_summary/demo-gpt2.tsv", "unigram_counts/demo-gpt2.tsv", "acceptability/demo-gpt2.tsv"]:
        df = pl.read_csv(bench / rel, separator="\t")
        assert {"s", "max_rss"} <= set(df.columns) and df.height == 1, rel


@pytest.mark.slow
def test_no_rule_log_is_empty(run):
    logs = sorted((run["dir"] / "results" / "logs").rglob("*.log"))
    # every job but `all` has a log: corpus, parse, agreement, the shard pass and the pool merge, train, check, 2 scoring
    # (the model's pools, the benchmark) after the context check, curate, evaluate,
    # report, export;
    # validation export, simulate, import, report; metalinguistic, its summary and its section; unigram counts,
    # acceptability and its section
    assert len(logs) == 24, [str(p) for p in logs]
    for p in logs:
        text = p.read_text(encoding="utf-8")
        assert re.search(r"rule \w+.*: started", text) and re.search(r"rule \w+: done in", text), p
        assert "output " in text, p


@pytest.mark.slow
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
        return SimpleNamespace(name="evaluate", threads=1, resources=SimpleNamespace(get=lambda k, d=None: res.get(k, d)))

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


def test_threads_come_from_the_config_with_a_gpu_default():
    from rublimp.workflow import WorkflowConfig

    cfg = yaml.safe_load((REPO / ".test" / "config.yaml").read_text(encoding="utf-8"))
    cfg["models"] += [
        {"name": "big", "backend": "vllm", "path": "x/big", "device": "cuda", "vllm": {"tensor_parallel_size": 2}},
        {"name": "mid", "backend": "hf", "path": "x/mid", "device": "cuda:0"},
        {"name": "cpu", "backend": "hf-mlm", "path": "x/cpu", "tier": 0},
    ]
    wf = WorkflowConfig(yaml.safe_load(yaml.safe_dump(cfg)), basedir=REPO, check_models=False)
    # scoring.threads unset: 1 on CPU, one per GPU plus one on GPUs
    assert [wf.model_threads(m) for m in ("demo-gpt2", "big", "mid", "cpu")] == [1, 3, 2, 1]
    assert wf.cpu_threads == 1
    cfg["scoring"]["threads"] = 6
    wf = WorkflowConfig(cfg, basedir=REPO, check_models=False)
    assert [wf.model_threads(m) for m in ("demo-gpt2", "big", "mid", "cpu")] == [6, 6, 6, 6]
    assert wf.cpu_threads == 6


def _dry_run_jobs(proc: subprocess.CompletedProcess) -> list[dict]:
    """Every job a dry run with the SLURM profile planned: rule, threads, resources."""
    jobs = []
    for block in re.split(r"\n(?=rule \w+:)", proc.stdout + "\n" + proc.stderr):
        m = re.match(r"rule (\w+):", block)
        if not m or m.group(1) == "all":
            continue
        threads = re.search(r"^    threads: (\d+)$", block, flags=re.M)
        res = re.search(r"^    resources: (.*)$", block, flags=re.M).group(1)
        jobs.append({"rule": m.group(1), "threads": int(threads.group(1)) if threads else 1,
                     "resources": dict(kv.split("=", 1) for kv in res.split(", ")), "text": block})
    return jobs


class _Resources(dict):
    """A job's resources as the plugin reads them (``.get(name)`` and attributes)."""

    def __getattr__(self, name):
        return self[name]


def _local_rules(checkout, config) -> set[str]:
    """The rules Snakemake runs itself under a cluster executor, read from the parsed workflow."""
    code = (
        "import json, sys; from pathlib import Path\n"
        "from snakemake.api import SnakemakeApi\n"
        "from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings\n"
        "with SnakemakeApi(OutputSettings()) as api:\n"
        "    w = api.workflow(resource_settings=ResourceSettings(), config_settings=ConfigSettings("
        "configfiles=[Path(sys.argv[2])]), snakefile=Path(sys.argv[1]), workdir=Path(sys.argv[3]))\n"
        "    wf = w._workflow\n"
        # Workflow.is_local with a cluster executor: no group and a local rule (`all` has no job)
        "    print(json.dumps(sorted(r.name for r in wf.rules if r.group is None and r.name in wf._localrules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(checkout / "Snakefile"), str(config), str(checkout)],
                          capture_output=True, text=True, env=env_for(checkout), timeout=300, check=True)
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def dry_checkout(tmp_path_factory) -> Path:
    """A copy of the checkout for the dry runs below (nothing is run in it)."""
    return copy_checkout(tmp_path_factory.mktemp("slurm_dry") / "checkout")


@pytest.fixture(scope="module")
def default_dry_run(dry_checkout) -> subprocess.CompletedProcess:
    """A dry run of .test/config.yaml as it is (scoring.threads unset) with the SLURM profile."""
    return snakemake(dry_checkout, "--profile", str(dry_checkout / "profiles" / "slurm"), "-n")


def _threads_config(checkout: Path, tmp_path: Path, threads) -> Path:
    cfg = yaml.safe_load((checkout / ".test" / "config.yaml").read_text(encoding="utf-8"))
    cfg["scoring"]["threads"] = threads
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    return config


@pytest.mark.parametrize("threads", [None, 3])
def test_profile_asks_for_each_jobs_threads(dry_checkout, default_dry_run, tmp_path, threads):
    from snakemake_executor_plugin_slurm_jobstep import get_cpu_setting

    if threads is None:  # the config's own (null) scoring.threads: the dry run shared with the tests below
        jobs = _dry_run_jobs(default_dry_run)
    else:
        proc = snakemake(dry_checkout, "--profile", str(dry_checkout / "profiles" / "slurm"), "-n",
                         "--configfile", str(_threads_config(dry_checkout, tmp_path, threads)))
        jobs = _dry_run_jobs(proc)
    assert {j["rule"] for j in jobs} == SUBMITTED | LOCAL
    for j in jobs:
        res = j["resources"]
        # no fixed CPUs, account or partition: the plugin derives CPUs from threads and finds the
        # account and partition itself (so a dry run shows no `<TBD>` for them either)
        assert not {"cpus_per_task", "cpus_per_gpu", "slurm_account", "slurm_partition"} & set(res), j["text"]
        assert res["gpu"] == "0" and "runtime" in res and "mem_mb" in res, j["text"]
        want = (threads or 1) if j["rule"] in MODEL_RULES else 1
        assert j["threads"] == want, j["text"]
        job = SimpleNamespace(threads=j["threads"], resources=_Resources(res, gpu=0))
        assert get_cpu_setting(job, False) == f"--cpus-per-task={want}", j["text"]


def test_cheap_rules_run_locally(dry_checkout, tmp_path):
    # the cheap rules run in Snakemake's own process: never an sbatch job (which rules are local does
    # not depend on scoring.threads)
    assert _local_rules(dry_checkout, _threads_config(dry_checkout, tmp_path, 3)) == LOCAL


def _two_job_run(tmp_path: Path) -> tuple[Path, Path, dict]:
    """Corpus and demo-LM training alone through the stand-ins: ``(checkout, state, config)``."""
    sys.path.insert(0, str(Path(__file__).parent))
    import fake_slurm

    checkout = copy_checkout(tmp_path / "checkout")
    cfg = yaml.safe_load((checkout / ".test" / "config.yaml").read_text(encoding="utf-8"))
    cfg["corpus"]["max_sentences_per_source"] = 150
    cfg["demo_lm"].update(epochs=1, vocab_size=300)
    cfg["scoring"]["threads"] = 2
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    fake_bin, state = tmp_path / "bin", tmp_path / "slurm_state"
    fake_slurm.install(fake_bin)
    snakemake(checkout, "--configfile", str(config), "--profile", str(checkout / "profiles" / "slurm"),
              "--slurm-init-seconds-before-status-checks", "1", "--latency-wait", "5",
              "results/models/demo-gpt2/training.json", env=env_for(checkout, fake_bin, state))
    return checkout, state, cfg


def test_stand_in_sbatch_gets_the_threads_and_the_guessed_account(tmp_path):
    """Real jobs through the plugin: sbatch sees --cpus-per-task = threads, the guessed account
    and the cluster's default partition, and the training job runs with the threads it asked for.

    Where this session already made the shared end-to-end run (the slow tests above, which also set
    scoring.threads to 2 and train the demo LM through sbatch), its calls are read; otherwise (as
    under ``-m "not slow"``) a run of its own submits the corpus and training jobs only.
    """
    shared = slurm_run_made()
    if shared:
        checkout, state = shared["dir"], shared["state"]
        cfg = yaml.safe_load(shared["config"].read_text(encoding="utf-8"))
    else:
        checkout, state, cfg = _two_job_run(tmp_path)
    assert cfg["scoring"]["threads"] == 2
    calls = [json.loads(line)["args"] for line in (state / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    by_rule = {}
    for a in calls:
        by_rule.setdefault(re.match(r"rule_(\w+?)(?:_wildcards_|$)", a[a.index("--comment") + 1]).group(1), []).append(a)
    # the run of its own asked for training.json only: the corpus job and the training job
    assert set(by_rule) == (SUBMITTED if shared else {"corpus", "train_demo_lm"})
    assert [a for a in by_rule["corpus"][0] if a.startswith("--cpus-per-task=")] == ["--cpus-per-task=1"]
    assert [a for a in by_rule["train_demo_lm"][0] if a.startswith("--cpus-per-task=")] == ["--cpus-per-task=2"]
    assert len(by_rule["corpus"]) == len(by_rule["train_demo_lm"]) == 1
    for a in calls:
        assert a[a.index("-A") + 1] == ACCOUNT and a[a.index("-p") + 1] == "cpu", a
    # and the training used the 2 threads it asked for (the test's environment says OMP_NUM_THREADS=1)
    training = json.loads((checkout / "results" / "models" / "demo-gpt2" / "training.json").read_text(encoding="utf-8"))
    assert training["torch_threads"] == 2


def test_profile_dry_run(default_dry_run):
    proc = default_dry_run
    jobs = planned(proc)
    assert jobs[("perturb", "tense_marker")] == 1 and jobs[("report", "")] == 1
    text = proc.stdout + proc.stderr
    assert "slurm_partition" not in text and "slurm_account" not in text
    for block in re.findall(r"rule (?:score_pools|parse):.*?resources: ([^\n]*)", text, flags=re.S):
        assert "runtime=" in block and "mem_mb=" in block and "gpu=0" in block, block
