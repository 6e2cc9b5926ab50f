"""Progress off a terminal: tqdm bars become timed log lines with counts, rate and ETA."""

from __future__ import annotations

import logging

import pytest

from rublimp.runtime import progress


def test_progress_logs_lines_with_eta_when_not_a_tty(caplog):
    with caplog.at_level(logging.INFO, logger="rublimp"):
        bar = progress(total=4, desc="work", unit="item", interval=0)
        for _ in range(4):
            bar.update(1)
            bar.set_postfix(loss="1.5")
        bar.close()
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("work: 0/4 item (0%)") and "ETA" in lines[0]
    assert any(l.startswith("work: 4/4 item (100%)") and "ETA 00:00" in l and "loss=1.5" in l for l in lines)
    assert all("\r" not in l for l in lines)


def test_progress_interval_limits_the_lines(caplog, monkeypatch):
    monkeypatch.setenv("RUBLIMP_PROGRESS_INTERVAL", "3600")
    with caplog.at_level(logging.INFO, logger="rublimp"):
        for _ in progress(range(10_000), desc="fast", unit="sent"):
            pass
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) <= 3 and lines[-1].startswith("fast: 10000/10000 sent (100%)"), lines  # first, final (+close)


def test_progress_disabled_is_silent(caplog):
    with caplog.at_level(logging.INFO, logger="rublimp"):
        assert list(progress(range(3), desc="quiet", enabled=False)) == [0, 1, 2]
    assert caplog.records == []


def test_demo_lm_training_reports_progress_in_the_log(tmp_path, caplog, monkeypatch):
    pytest.importorskip("torch")
    from rublimp.demo_lm import train_demo_lm

    monkeypatch.setenv("RUBLIMP_PROGRESS_INTERVAL", "0")
    sentences = ["Кошка спала на тёплом диване.", "Мальчики быстро бежали по улице.", "Учитель читал книгу."] * 4
    with caplog.at_level(logging.INFO, logger="rublimp"):
        train_demo_lm(sentences, tmp_path / "lm", vocab_size=300, n_layer=1, n_embd=16, n_head=2, epochs=1,
                      batch_size=4, progress=True)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("training demo LM:")]
    assert lines and "ETA" in lines[0] and "(100%)" in lines[-1] and "loss=" in lines[-1], lines
