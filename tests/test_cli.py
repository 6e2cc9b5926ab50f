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
