"""rublimp.runtime.rule_log: what every rule script writes to its log file."""

from __future__ import annotations

import logging
import warnings

import polars as pl
import pytest
from snakemake.io import Namedlist

from rublimp.runtime import rule_log


class FakeSnakemake:
    def __init__(self, tmp_path, outputs):
        self.rule = "perturb"
        self.log = Namedlist([str(tmp_path / "logs" / "perturb" / "x.log")])
        self.wildcards = Namedlist(fromdict={"paradigm": "tense_marker"})
        self.input = Namedlist(fromdict={"shards": [str(tmp_path / "a.conllu"), str(tmp_path / "b.conllu")],
                                         "code": [str(tmp_path / "x.py")] * 3})
        self.output = Namedlist([str(p) for p in outputs])


def test_a_successful_rule_logs_inputs_counts_outputs_and_time(tmp_path):
    out = tmp_path / "pool.parquet"
    smk = FakeSnakemake(tmp_path, [out])
    with rule_log(smk) as log:
        pl.DataFrame({"a": [1, 2, 3]}).write_parquet(out)
        log.info("perturb: tense_marker: 3 pairs")
        warnings.warn("a library warning")
    text = (tmp_path / "logs" / "perturb" / "x.log").read_text(encoding="utf-8")
    assert "rule perturb {'paradigm': 'tense_marker'}: started" in text
    assert "input shards: 2 files" in text and "input code: 3 package source files" in text
    assert "3 pairs" in text and "a library warning" in text
    assert f"output {out} (" in text and "3 rows" in text
    assert "rule perturb: done in" in text


def test_a_failing_rule_logs_its_traceback(tmp_path):
    smk = FakeSnakemake(tmp_path, [tmp_path / "pool.parquet"])

    def stage():
        raise ValueError("temporal marker list not found: x.tsv")

    with pytest.raises(ValueError):
        with rule_log(smk):
            stage()
    logging.getLogger("rublimp").handlers.clear()
    text = (tmp_path / "logs" / "perturb" / "x.log").read_text(encoding="utf-8")
    assert "rule perturb failed after" in text
    assert "Traceback (most recent call last)" in text and "in stage" in text
    assert "ValueError: temporal marker list not found: x.tsv" in text
