"""End-to-end: the Snakemake workflow on a reduced config in a temporary directory.

Runs the real rules (corpus → parse → agreement → perturb → demo LM → score →
curate → evaluate → report), then checks incremental reruns, determinism and
clear failures on bad input.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PARADIGMS = ["noun_subj_predicate_agreement_number", "subj_predicate_agreement_gender_attractor"]
ADDED = "verb_acc_object"  # a paradigm added to the shared run's config by the last test that uses it
pytestmark = pytest.mark.slow


def _env() -> dict:
    env = dict(os.environ)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", HF_HUB_OFFLINE="1")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def snakemake(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    cmd = [
        sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir),
        "--configfile", str(workdir / "config.yaml"), "--default-resources", "gpu=0", "--cores", "2", *args,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(), timeout=1200)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}")
    return proc


def reduced_config(**over) -> dict:
    cfg = {
        "outdir": "results",
        "seed": 0,
        "corpus": {"sources": [{"name": "demo", "type": "demo"}], "max_sentences_per_source": 600},
        "parse": {"shards": 2},
        "perturb": {"paradigms": PARADIGMS},
        "demo_lm": {"n_layer": 1, "n_embd": 32, "n_head": 2, "vocab_size": 800, "epochs": 2, "batch_size": 32},
        "models": [{"name": "demo-gpt2", "backend": "hf", "demo": True}],
        "scoring": {"ks": [30, 60], "batch_tokens": 2048},
        "curation": {"k": 30, "n": 25, "t_max": None},
    }
    cfg.update(over)
    return cfg


def write_config(workdir: Path, cfg: dict) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "config.yaml").write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")


def planned_jobs(proc: subprocess.CompletedProcess) -> dict[str, int]:
    """Job counts from a dry run's 'Job stats' table."""
    text = proc.stdout + proc.stderr
    jobs: dict[str, int] = {}
    block = text.split("Job stats:", 1)
    if len(block) < 2:
        return jobs
    for line in block[1].splitlines()[3:]:
        m = re.match(r"^(\w+)\s+(\d+)$", line.strip())
        if not m:
            break
        if m.group(1) != "total":
            jobs[m.group(1)] = int(m.group(2))
    return jobs


def cascade_config(t_max: float = 0.0) -> dict:
    """The shared run: a tier-0 causal demo LM and a tier-1 masked demo LM (the cascade)."""
    cfg = reduced_config(
        models=[
            {"name": "demo-gpt2", "backend": "hf", "demo": True, "tier": 0},
            {"name": "demo-bert", "backend": "hf-mlm", "demo": True, "tier": 1, "evaluate": True},
        ],
        curation={"k": 30, "n": 25, "grid_step": None, "t_max": t_max},
    )
    cfg["demo_lm"]["mlm"] = {"epochs": 2}
    return cfg


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """One complete run shared by the tests below (each Snakemake run costs a minute or more).

    The tier-0 model's scores come first, so that curation.t_max can be set to their median
    Min-K%: the cascade then really drops sentences.
    """
    wd = tmp_path_factory.mktemp("e2e")
    write_config(wd, cascade_config())
    snakemake(wd, "results/scores/demo-gpt2/grammatical.parquet")
    tier0 = pl.read_parquet(wd / "results" / "scores" / "demo-gpt2" / "grammatical.parquet")
    write_config(wd, cascade_config(t_max=float(tier0["mink_30"].median())))
    snakemake(wd)
    return wd


def test_outputs_exist_and_are_sane(run_dir: Path):
    out = run_dir / "results"
    for p in PARADIGMS:
        bench = pl.read_csv(out / "benchmark" / f"{p}.csv")
        assert 0 < bench.height <= 25
        assert (bench["source_sentence"] != bench["target_sentence"]).all()
        assert set(bench["PID"]) == {p}
        for model in ("demo-gpt2", "demo-bert"):
            assert (out / "eval" / "pairs" / model / f"{p}.parquet").exists()
    summary = (out / "eval" / "summary.md").read_text(encoding="utf-8")
    assert "demo-gpt2" in summary and "subject_predicate_agreement" in summary
    assert (out / "eval" / "demo_lm_check.json").exists()
    for p in PARADIGMS:  # the export stage is part of the default target
        assert (out / "export" / "hf" / "data" / p / "test.parquet").is_file()
        assert (out / "export" / "lm_eval" / f"{p}.yaml").is_file()
    verdicts = pl.read_csv(out / "agreement" / "verdicts.csv")
    assert set(verdicts["verdict"]) <= {"certain", "uncertain", "absent"}
    stats = (out / "corpus" / "filter_stats.json").read_text(encoding="utf-8")
    assert "duplicates" in stats
    for section in ("## Human validation", "## Metalinguistic prompting", "## Acceptability: PenLP and SLOR"):
        assert section in summary
    # one scoring job per model, with a benchmark record each
    for rule in ("score_pools", "score_benchmark", "evaluate"):
        assert sorted(f.name for f in (out / "benchmarks" / rule).iterdir()) == ["demo-bert.tsv", "demo-gpt2.tsv"]


def test_cascade_with_a_masked_demo_model(run_dir: Path):
    """The tier-1 masked LM scored only the survivors of the tier-0 model; the run completed."""
    out = run_dir / "results"
    t_max = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8"))["curation"]["t_max"]
    tier0 = pl.read_parquet(out / "scores" / "demo-gpt2" / "grammatical.parquet")
    tier1 = pl.read_parquet(out / "scores" / "demo-bert" / "grammatical.parquet")
    assert 0 < tier1.height < tier0.height
    assert (tier1.join(tier0, on="sentence")["mink_30_right"] <= t_max).all()
    # the tier-0 table holds every paradigm's grammatical sentences, once each
    pools = set().union(*(pl.read_parquet(out / "pools" / f"{p}.parquet")["source_sentence"] for p in PARADIGMS))
    assert set(tier0["sentence"]) == pools and tier0["sentence"].n_unique() == tier0.height
    check = (out / "eval" / "demo_lm_check.json").read_text(encoding="utf-8")
    assert "demo-bert" in check and "demo-gpt2" in check
    assert "demo-bert" in (out / "eval" / "summary.md").read_text(encoding="utf-8")


def test_nothing_to_do_after_a_complete_run(run_dir: Path):
    proc = snakemake(run_dir, "-n")
    assert planned_jobs(proc) == {}, proc.stdout[-2000:]


def test_rerunning_one_paradigm_reruns_only_its_downstream(run_dir: Path):
    # as after editing the paradigm's rule (its module is an input of its perturb job)
    proc = snakemake(run_dir, "-n", "--forcerun", f"results/pools/{PARADIGMS[0]}.parquet")
    jobs = planned_jobs(proc)
    # one scoring job per model (it scores only what the cache lacks, see the test below); after it
    # every paradigm's curation (cheap; see rules/score.smk for why), the stages over all
    # paradigms, and no other paradigm's perturb job
    over_all = ["export", "validation_export", "validation_simulate", "validation_import", "validation_report",
                "metalinguistic", "metalinguistic_summary", "metalinguistic_section", "acceptability_section"]
    n = len(PARADIGMS)
    assert jobs == {"perturb": 1, "context_check": 2, "score_pools": 2, "curate": n,
                    "score_benchmark": 2,
                    "evaluate": 2, "acceptability": 2, "report": 1, "all": 1, **dict.fromkeys(over_all, 1)}, jobs
    perturbs = re.findall(r"rule perturb:\n(?:    .*\n?)*", proc.stdout)  # a job: its indented lines
    assert len(perturbs) == 1 and PARADIGMS[0] in perturbs[0] and PARADIGMS[1] not in perturbs[0]


def test_same_config_gives_identical_benchmark(run_dir: Path, tmp_path: Path):
    wd = tmp_path / "again"
    wd.mkdir()
    shutil.copy(run_dir / "config.yaml", wd / "config.yaml")
    # reuse the parsed corpus and the trained models: determinism of perturb -> curate is what is tested,
    # with scores computed afresh (no score cache) against the shared run's
    # (scored once per model in one job, read back from the cache for the benchmark)
    for sub in ("corpus", "parsed", "agreement", "models"):
        shutil.copytree(run_dir / "results" / sub, wd / "results" / sub)
    snakemake(wd, *[f"results/benchmark/{p}.csv" for p in PARADIGMS])
    for p in PARADIGMS:
        a = (run_dir / "results" / "benchmark" / f"{p}.csv").read_bytes()
        b = (wd / "results" / "benchmark" / f"{p}.csv").read_bytes()
        assert a == b


def scored_counts(log: Path) -> list[int]:
    """The `scored` counts a scoring job logged (rublimp.stages.score_stage)."""
    return [int(n) for n in re.findall(r"'scored': (\d+)", log.read_text(encoding="utf-8"))]


def test_validation_round_trip_replaces_invalid_pairs(run_dir: Path, tmp_path: Path):
    """export -> (simulated) annotations -> import -> curation.drop_invalid: n kept, invalid pairs replaced."""
    wd = tmp_path / "val"
    shutil.copytree(run_dir / "results", wd / "results")
    labels = wd / "labels.tsv"
    shutil.copy(wd / "results" / "validation" / "simulated_annotations.tsv", labels)
    dropped = set(pl.read_csv(run_dir / "results" / "validation" / "drop.csv")["pair_id"].cast(pl.String))
    assert dropped, "the simulated annotations should judge some pairs invalid"
    cfg = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8"))
    cfg["curation"]["drop_invalid"] = str(labels)
    write_config(wd, cfg)
    # only the benchmark (validation_import, then curate): the stages after it are tested above
    snakemake(wd, *[f"results/benchmark/{p}.csv" for p in PARADIGMS], "--rerun-triggers", "mtime")
    for p in PARADIGMS:
        old = pl.read_csv(run_dir / "results" / "benchmark" / f"{p}.csv")
        new = pl.read_csv(wd / "results" / "benchmark" / f"{p}.csv")
        old_ids, new_ids = set(old["id"].cast(pl.String)), set(new["id"].cast(pl.String))
        entry = json.loads((wd / "results" / "curation" / f"{p}.json").read_text(encoding="utf-8"))["paradigms"][0]
        assert not new_ids & dropped
        assert old_ids - new_ids == old_ids & dropped
        assert entry["dropped_invalid"] == len(old_ids & dropped)
        # the shared run's t_max (the tier-0 median) can leave fewer than n pairs: then there is
        # nothing to replace with; with n pairs every dropped pair is replaced
        if old.height == 25:
            assert new.height == old.height and entry["replacements"] == entry["dropped_invalid"]
        else:
            assert new.height == old.height - entry["dropped_invalid"] + entry["replacements"]


def test_adding_one_paradigm_scores_only_its_new_sentences(run_dir: Path):
    """A paradigm added to the config: the per-model scoring job reruns but scores only the new
    paradigm's sentences that no other pool had (the cache); the other paradigms' benchmarks stay the same."""
    out = run_dir / "results"
    benches = {p: (out / "benchmark" / f"{p}.csv").read_bytes() for p in PARADIGMS}
    cached = {s for p in PARADIGMS for s in pl.read_parquet(out / "pools" / f"{p}.parquet")["source_sentence"]}
    cfg = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8"))
    cfg["perturb"]["paradigms"] = PARADIGMS + [ADDED]
    write_config(run_dir, cfg)
    # the benchmarks only: the stages after curation (evaluation, report, exports) are tested above,
    # and nothing runs in this workflow after this test
    snakemake(run_dir, *[f"results/benchmark/{p}.csv" for p in PARADIGMS + [ADDED]])
    new = set(pl.read_parquet(out / "pools" / f"{ADDED}.parquet")["source_sentence"]) - cached
    assert new, "the added paradigm should bring sentences of its own"
    assert scored_counts(out / "logs" / "score_pools" / "demo-gpt2.log")[-1] == len(new)
    # the tier-1 model scores those of them that pass the tier-0 threshold, nothing else
    assert scored_counts(out / "logs" / "score_pools" / "demo-bert.log")[-1] <= len(new)
    assert (out / "benchmark" / f"{ADDED}.csv").exists()
    for p in PARADIGMS:  # curated again (see rules/score.smk), to the same bytes
        assert (out / "benchmark" / f"{p}.csv").read_bytes() == benches[p], p


def test_unknown_paradigm_in_config_is_named(tmp_path: Path):
    write_config(tmp_path, reduced_config(perturb={"paradigms": ["noun_subj_predicate_agreement_number", "nonsense_paradigm"]}))
    proc = snakemake(tmp_path, "-n", check=False)
    assert proc.returncode != 0
    err = proc.stdout + proc.stderr
    assert "perturb.paradigms[1]" in err and "nonsense_paradigm" in err


def test_missing_model_fails_before_any_work(tmp_path: Path):
    cfg = reduced_config()
    cfg["models"] = cfg["models"] + [{"name": "ghost", "backend": "hf", "path": str(tmp_path / "no-such-model")}]
    write_config(tmp_path, cfg)
    proc = snakemake(tmp_path, check=False)
    assert proc.returncode != 0
    err = proc.stdout + proc.stderr
    assert "ghost" in err and "no-such-model" in err
    assert not (tmp_path / "results").exists()


def test_empty_corpus_fails_cleanly(tmp_path: Path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    write_config(tmp_path, reduced_config(corpus={"sources": [{"name": "mine", "type": "text", "domain": "news", "path": str(empty)}]}))
    proc = snakemake(tmp_path, "results/corpus/sentences.parquet", check=False)
    assert proc.returncode != 0
    err = proc.stdout + proc.stderr
    assert "mine" in err
    assert not (tmp_path / "results" / "corpus" / "sentences.parquet").exists()


def test_malformed_conllu_source_names_the_line(tmp_path: Path):
    bad = tmp_path / "bad.conllu"
    bad.write_text(
        "# sent_id = 1\n# text = Кошка спит.\n1\tКошка\tкошка\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tспит\tспать\tVERB\t_\t_\t0\n",
        encoding="utf-8",
    )
    write_config(tmp_path, reduced_config(corpus={"sources": [{"name": "gold", "type": "conllu", "domain": "news", "path": str(bad)}]}))
    proc = snakemake(tmp_path, "results/corpus/sentences.parquet", check=False)
    assert proc.returncode != 0
    err = proc.stdout + proc.stderr
    assert "bad.conllu:4" in err
    assert not (tmp_path / "results" / "corpus" / "sentences.parquet").exists()
