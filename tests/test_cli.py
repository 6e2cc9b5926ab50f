"""`python -m rublimp parse | perturb | score` on small files, with the code the rules use."""

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from rublimp.conllu_doc import read_conllu


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rublimp", *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("cli")
    (d / "sentences.txt").write_text(
        "Кошка спала на тёплом диване.\n\nМальчики быстро бежали по длинной улице.\nСтарый учитель читал интересную книгу.\n",
        encoding="utf-8",
    )
    proc = run_cli("parse", "--input", str(d / "sentences.txt"), "--output", str(d / "x.conllu"))
    assert proc.returncode == 0, proc.stderr
    return d


def test_parse_sent_ids_are_line_numbers(parsed: Path):
    sents = list(read_conllu(parsed / "x.conllu"))
    assert [s.sent_id for s in sents] == ["1", "3", "4"]
    assert sents[0].text == "Кошка спала на тёплом диване."


def test_perturb_one_and_all(parsed: Path):
    out = parsed / "pairs.parquet"
    proc = run_cli("perturb", "--paradigm", "noun_subj_predicate_agreement_number", "--input", str(parsed / "x.conllu"), "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    df = pl.read_parquet(out)
    assert df.height == 3 and set(df["PID"]) == {"noun_subj_predicate_agreement_number"}
    assert "Кошка спали на тёплом диване." in df["target_sentence"].to_list()
    proc = run_cli("perturb", "--paradigm", "all", "--input", str(parsed / "x.conllu"), "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out)["PID"].n_unique() > 5


def test_unknown_paradigm_is_a_clear_error(parsed: Path):
    proc = run_cli("perturb", "--paradigm", "nope", "--input", str(parsed / "x.conllu"), "--output", str(parsed / "n.parquet"))
    assert proc.returncode == 2
    assert "unknown paradigm 'nope'" in proc.stderr
    assert not (parsed / "n.parquet").exists()


def test_score_with_a_missing_model_is_a_clear_error(parsed: Path, tmp_path: Path):
    proc = run_cli("score", "--model", str(tmp_path / "nowhere"), "--input", str(parsed / "sentences.txt"), "--output", str(tmp_path / "s.parquet"))
    assert proc.returncode == 2 and "nowhere" in proc.stderr
    assert not (tmp_path / "s.parquet").exists()


def test_score_with_a_small_model(parsed: Path, tmp_path: Path):
    from rublimp.demo_lm import train_demo_lm

    lines = [l for l in (parsed / "sentences.txt").read_text(encoding="utf-8").splitlines() if l]
    train_demo_lm(lines * 5, tmp_path / "lm", vocab_size=300, n_layer=1, n_embd=16, n_head=2, epochs=1, batch_size=4, progress=False)
    out = tmp_path / "s.parquet"
    proc = run_cli("score", "--model", str(tmp_path / "lm"), "--input", str(parsed / "sentences.txt"), "--output", str(out), "--ks", "30,60")
    assert proc.returncode == 0, proc.stderr
    df = pl.read_parquet(out)
    assert df["sentence"].to_list() == sorted(lines)
    assert {"sum_logprob", "n_tokens", "mink_30", "mink_60", "first_token"} <= set(df.columns)
    assert (df["sum_logprob"] < 0).all()


def _one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit 2 with one line on stderr (no traceback) naming what is wrong."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-3000:])
    lines = [l for l in proc.stderr.splitlines() if " INFO " not in l]
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    for f in fragments:
        assert f in lines[0], lines[0]


def test_paradigms_into_a_closed_pipe_ends_quietly():
    # `python -m rublimp paradigms | head`: the reader is gone before the list is written
    proc = subprocess.Popen([sys.executable, "-m", "rublimp", "paradigms"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == "", err


def test_validation_export_takes_a_benchmark_folder_and_names_other_files(tmp_path):
    bench = tmp_path / "benchmark"
    bench.mkdir()
    for pid in ("par_a", "par_b"):
        df = pl.DataFrame([
            {"id": f"{pid}_{i:03d}", "PID": pid, "phenomenon": "demo", "domain": ("news", "fiction")[i % 2],
             "source_sentence": f"Хорошее предложение {pid} {i}.", "target_sentence": f"Плохое предложение {pid} {i}.",
             "source_word": "Хорошее", "target_word": "Плохое", "n_tokens": 6 + i % 12}
            for i in range(20)
        ])
        df.write_parquet(bench / f"{pid}.parquet")
        df.write_csv(bench / f"{pid}.csv")  # a benchmark folder holds both
    # the folder: its .parquet files
    proc = run_cli("validation", "export", "--benchmark", str(bench), "--output-dir", str(tmp_path / "val"),
                   "--per-paradigm", "5")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "val" / "tasks.tsv").exists()
    # every file of the folder (a shell glob): the first non-Parquet file is named
    files = sorted(str(p) for p in bench.iterdir())
    _one_line_error(run_cli("validation", "export", "--benchmark", *files, "--output-dir", str(tmp_path / "v2")),
                    "par_a.csv", "--benchmark: not a .parquet file")
    (tmp_path / "broken.parquet").write_text("id,PID\n1,x\n", encoding="utf-8")
    _one_line_error(run_cli("validation", "export", "--benchmark", str(tmp_path / "broken.parquet"), "--output-dir",
                            str(tmp_path / "v3")), "broken.parquet", "not a readable Parquet file")
    _one_line_error(run_cli("validation", "export", "--benchmark", str(tmp_path / "val"), "--output-dir",
                            str(tmp_path / "v4")), "the folder holds no .parquet files")
    _one_line_error(run_cli("validation", "import", "--annotations", str(tmp_path / "a.tsv"), "--pools",
                            str(bench / "par_a.csv"), "--output-dir", str(tmp_path / "v5")), "--pools: not a .parquet file")


def test_parse_without_bounds_reports_a_sentence_too_long_for_memory(tmp_path):
    """`parse --max-chars 0 --max-tokens 0` (bounds off) on a 12,000-token line, under a 1.5 GB address-space
    limit: a one-line error naming the line, not numpy's allocation traceback; with the default bounds
    the same file parses under the same limit, the long line skipped and counted."""
    import resource

    src = tmp_path / "long.txt"
    src.write_text("Кошка спит на диване.\n" + " ".join(["слово"] * 12000) + ".\n", encoding="utf-8")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    def parse(*extra):
        return subprocess.run([sys.executable, "-m", "rublimp", "parse", "--input", str(src), "--output",
                               str(tmp_path / "out.conllu"), *extra], capture_output=True, text=True, timeout=600,
                              preexec_fn=limit)

    _one_line_error(parse("--max-chars", "0", "--max-tokens", "0"), "out of memory", "'2'", "12,001 tokens",
                    "--max-tokens")
    proc = parse()
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert [s.sent_id for s in read_conllu(tmp_path / "out.conllu")] == ["1"]
