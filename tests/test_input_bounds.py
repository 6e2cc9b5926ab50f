"""Bounded, validated input for every CLI command: each bad input gets a clear message and leaves no output.

Cases: an over-long line (skipped, never parsed, memory stays low), empty input,
non-UTF-8 input, an invalid CoNLL-U tree, a killed writer's temporary file, SIGTERM
mid-write, and the opt-in quality filter of ``parse``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from rublimp.conllu_doc import read_conllu

ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "RUBLIMP_PROGRESS_INTERVAL": "0"}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rublimp", *args], capture_output=True, text=True, timeout=600, env=ENV)


def leftovers(d: Path) -> list[str]:
    """Temporary files of atomic writes left in ``d``."""
    return sorted(p.name for p in d.glob(".*.tmp"))


GOOD_CONLLU = """# sent_id = 1
# text = Кошки спят.
1\tКошки\tкошка\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Fem|Number=Plur\t2\tnsubj\t_\t_
2\tспят\tспать\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act\t0\troot\t_\tSpaceAfter=No
3\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def test_overlong_line_is_skipped_with_low_memory(tmp_path: Path):
    """A 100,000-character line is skipped before tokenizing or parsing; the process stays under 1 GiB.

    Unbounded, a single 10,000-character line drove the parser past 20 GiB.
    """
    long_line = ("Старый учитель медленно читал интересную книгу о далёких странах, " * 2000)[:99_999] + "."
    src = tmp_path / "in.txt"
    src.write_text(long_line + "\nКошка спала на тёплом диване.\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    # measure the peak RSS of the command alone: a fresh parent whose only child it is
    probe = (
        "import resource, subprocess, sys\n"
        f"p = subprocess.run([sys.executable, '-m', 'rublimp', 'parse', '--input', {str(src)!r}, '--output', {str(out)!r}],"
        " capture_output=True, text=True)\n"
        "sys.stderr.write(p.stderr)\n"
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=600, env=ENV)
    rc, maxrss_kib = map(int, proc.stdout.split())
    assert rc == 0, proc.stderr
    assert maxrss_kib < 1024 * 1024, f"peak RSS {maxrss_kib} KiB"
    assert "skipped sentence 1: 100000 characters > max_chars=2000" in proc.stderr
    assert "1 sentences parsed" in proc.stderr and "1 skipped: max_chars: 1 (line 1)" in proc.stderr
    assert [s.sent_id for s in read_conllu(out)] == ["2"]


def test_every_line_skipped_is_an_error_unless_allow_empty(tmp_path: Path):
    src = tmp_path / "in.txt"
    src.write_text("Он пришёл домой поздно вечером и сразу лёг спать.\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    proc = run_cli("parse", "--input", str(src), "--output", str(out), "--max-tokens", "5")
    assert proc.returncode == 2
    assert f"{src}: every sentence was skipped (1 skipped: max_tokens: 1 (line 1))" in proc.stderr
    assert "--allow-empty" in proc.stderr
    assert not out.exists() and leftovers(tmp_path) == []
    proc = run_cli("parse", "--input", str(src), "--output", str(out), "--max-tokens", "5", "--allow-empty")
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8") == ""


def test_parse_empty_input_is_a_clear_error(tmp_path: Path):
    src = tmp_path / "empty.txt"
    src.write_text("\n   \n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    proc = run_cli("parse", "--input", str(src), "--output", str(out))
    assert proc.returncode == 2
    assert f"rublimp parse: error: {src}: no sentences (the file is empty or blank)" in proc.stderr
    assert not out.exists() and leftovers(tmp_path) == []
    proc = run_cli("parse", "--input", str(src), "--output", str(out), "--allow-empty")
    assert proc.returncode == 0 and out.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("command", ["parse", "perturb", "score"])
def test_non_utf8_input_names_file_and_line(tmp_path: Path, command: str):
    if command == "perturb":
        data = GOOD_CONLLU.encode("utf-8") + GOOD_CONLLU.replace("Кошки спят", "Chats dorment \u00e0").encode("latin-1", "replace")
        line = 8  # the second block's "# text" line
        extra = ["--paradigm", "all"]
    else:
        data = "Кошка спала на диване.\nМы пошли в caf\u00e9 вечером.\n".encode("utf-8").replace("é".encode(), b"\xe9")
        line = 2
        extra = ["--model", str(tmp_path / "no-model")] if command == "score" else []
    src = tmp_path / "input.bin"
    src.write_bytes(data)
    out = tmp_path / "out.file"
    out.write_text("previous output\n", encoding="utf-8")
    proc = run_cli(command, "--input", str(src), "--output", str(out), *extra)
    assert proc.returncode == 2, proc.stderr
    assert f"rublimp {command}: error: {src}:{line}: not valid UTF-8" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert out.read_text(encoding="utf-8") == "previous output\n"  # kept, not clobbered
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "bad, line, message",
    [
        (GOOD_CONLLU.replace("\t2\tnsubj", "\t3\tnsubj").replace("\t0\troot", "\t1\troot"),
         3, "dependency cycle through tokens 1 -> 3 -> 2 -> 1 and no root"),
        (GOOD_CONLLU.replace("\t2\tpunct", "\t0\tpunct"), 5, "second root"),
        (GOOD_CONLLU.replace("\t2\tpunct", "\t7\tpunct"), 5, "head 7 outside the sentence"),
        (GOOD_CONLLU.replace("3\t.\t.", "4\t.\t."), 5, "ids must run 1..n without gaps"),
    ],
    ids=["cycle_no_root", "two_roots", "head_out_of_range", "id_gap"],
)
def test_perturb_rejects_invalid_trees(tmp_path: Path, bad: str, line: int, message: str):
    src = tmp_path / "bad.conllu"
    src.write_text(GOOD_CONLLU + bad.replace("sent_id = 1", "sent_id = 2"), encoding="utf-8")
    out = tmp_path / "pairs.parquet"
    proc = run_cli("perturb", "--paradigm", "all", "--input", str(src), "--output", str(out))
    assert proc.returncode == 2
    assert f"{src}:{line + 6}: " in proc.stderr and message in proc.stderr, proc.stderr
    assert not out.exists() and leftovers(tmp_path) == []


def test_perturb_empty_input_is_a_clear_error(tmp_path: Path):
    src = tmp_path / "empty.conllu"
    src.write_text("# just a comment\n\n", encoding="utf-8")
    out = tmp_path / "pairs.parquet"
    proc = run_cli("perturb", "--paradigm", "all", "--input", str(src), "--output", str(out))
    assert proc.returncode == 2
    assert f"{src}: no sentences in the CoNLL-U input; use --allow-empty" in proc.stderr
    assert not out.exists()
    proc = run_cli("perturb", "--paradigm", "np_agreement_case", "--input", str(src), "--output", str(out), "--allow-empty")
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out).height == 0


def test_parse_filter_skips_garbage_and_stale_temp_files_go(tmp_path: Path):
    src = tmp_path / "in.txt"
    src.write_text(
        "Сегодня мы всей семьёй ездили на озеро #лето.\nСтарый учитель медленно читал интересную книгу.\n"
        "Наконец-то наступили долгожданные выходные 😍😍.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.conllu"
    stale = tmp_path / ".out.conllu.999999999.abcd1234.tmp"  # a writer (pid 999999999: gone) killed mid-write
    stale.write_text("", encoding="utf-8")
    proc = run_cli("parse", "--input", str(src), "--output", str(out), "--filter")
    assert proc.returncode == 0, proc.stderr
    assert "2 skipped: filter:emoji: 1 (line 3); filter:hashtag: 1 (line 1)" in proc.stderr
    assert [s.sent_id for s in read_conllu(out)] == ["2"]
    assert leftovers(tmp_path) == []
    # without --filter every line is parsed
    proc = run_cli("parse", "--input", str(src), "--output", str(out))
    assert proc.returncode == 0 and len(list(read_conllu(out))) == 3


def test_sigterm_mid_write_leaves_no_temp_file_and_keeps_the_old_output(tmp_path: Path):
    src = tmp_path / "in.txt"
    # enough lines that the write outlasts the poll below on a loaded machine (3,000 once finished between
    # the temporary file's appearance and the signal); the signal comes as soon as the file appears
    src.write_text("Старый учитель медленно читал интересную книгу.\n" * 20000, encoding="utf-8")
    out = tmp_path / "out.conllu"
    out.write_text("old\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "rublimp", "parse", "--input", str(src), "--output", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV,
    )
    deadline = time.monotonic() + 300
    while not leftovers(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the command finished before it could be interrupted"
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM
    assert leftovers(tmp_path) == []
    assert out.read_text(encoding="utf-8") == "old\n"


def test_progress_falls_back_to_log_lines_off_a_terminal(tmp_path: Path):
    """stderr is a pipe here: the parse progress shows as log lines with counts and an ETA."""
    src = tmp_path / "in.txt"
    src.write_text("Кошка спала на тёплом диване.\nМальчики быстро бежали по улице.\n", encoding="utf-8")
    proc = run_cli("parse", "--input", str(src), "--output", str(tmp_path / "o.conllu"))
    assert proc.returncode == 0, proc.stderr
    lines = [l for l in proc.stderr.splitlines() if "INFO parse (slovnet): " in l]
    assert lines and lines[-1].endswith("sent/s") and "2 sent" in lines[-1], proc.stderr
    assert "\r" not in proc.stderr


def test_cli_defaults_are_the_parse_modules():
    from rublimp import __main__ as cli
    from rublimp import parse

    assert (cli.DEFAULT_MAX_CHARS, cli.DEFAULT_MAX_TOKENS) == (parse.DEFAULT_MAX_CHARS, parse.DEFAULT_MAX_TOKENS)


def test_schema_defaults_are_the_parse_modules():
    import yaml

    from rublimp import parse

    schema = yaml.safe_load((Path(__file__).parents[1] / "config" / "schema.yaml").read_text(encoding="utf-8"))
    props = schema["properties"]["parse"]["properties"]
    assert props["max_chars"]["default"] == parse.DEFAULT_MAX_CHARS
    assert props["max_tokens"]["default"] == parse.DEFAULT_MAX_TOKENS
