"""Issue 19: stages that skip or downgrade say so; known transformers noise is quiet, real messages are not."""

from __future__ import annotations

import json
import logging

import polars as pl


class _BlindScorer:
    """A stand-in scorer that gives every sentence the same scores: Min-K% cannot detect anything."""

    def score(self, texts, ks, progress=False, **_):
        n = len(texts)
        cols = {"sentence": list(texts), "sum_logprob": [-10.0] * n, "n_tokens": [5] * n}
        cols.update({f"mink_{k}": [-2.0] * n for k in ks})
        return pl.DataFrame(cols)


def test_failed_demo_lm_check_is_a_warning_in_the_log(tmp_path, monkeypatch, caplog):
    import rublimp.scoring as scoring
    from rublimp.stages import demo_lm_check_stage

    monkeypatch.setattr(scoring, "scorer_from_spec", lambda spec, num_threads=None: _BlindScorer())
    pl.DataFrame({"text": [f"Предложение номер {i}." for i in range(40)]}).write_parquet(tmp_path / "s.parquet")
    with caplog.at_level(logging.WARNING, logger="rublimp"):
        report = demo_lm_check_stage(tmp_path / "s.parquet", [{"name": "demo", "backend": "hf"}],
                                     tmp_path / "check.json", lm={"train_fraction": 0.5}, ks=[60])
    assert report["models"]["demo"]["detection_works"] is False
    assert json.loads((tmp_path / "check.json").read_text(encoding="utf-8")) == report
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warned and "does NOT detect demo's training sentences" in warned[0].getMessage()
    assert "decontaminated: false" in warned[0].getMessage()


def test_quiet_transformers_drops_known_noise_only():
    from transformers.utils import logging as hf_logging

    from rublimp.runtime import TRANSFORMERS_NOISE, quiet_transformers

    quiet_transformers()
    quiet_transformers()  # idempotent: one filter per handler
    root = hf_logging.get_logger()
    seen: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    probe = Collect()
    probe.addFilter(root.filters[-1])  # the filter quiet_transformers installs, as on transformers' own handler
    assert sum(type(f).__name__ == "_DropKnownNoise" for f in root.filters) == 1
    for h in root.handlers:
        assert sum(type(f).__name__ == "_DropKnownNoise" for f in h.filters) == 1
    child = logging.getLogger("transformers.modeling_utils")
    child.addHandler(probe)
    try:
        child.warning(TRANSFORMERS_NOISE[0] + " since your input_ids may be padded.")
        child.warning("`loss_type=None` " + TRANSFORMERS_NOISE[1] + ": `ForCausalLMLoss`.")
        child.warning("Some weights of the checkpoint were not used")  # a real warning passes
        child.error(TRANSFORMERS_NOISE[0])  # errors always pass
    finally:
        child.removeHandler(probe)
    assert seen == ["Some weights of the checkpoint were not used", TRANSFORMERS_NOISE[0]]
    assert hf_logging.is_progress_bar_enabled() is False
