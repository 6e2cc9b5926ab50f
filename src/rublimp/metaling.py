"""Metalinguistic prompting (RuParam §3.2): ask a causal LM which of two sentences is grammatical.

Every pair is asked twice, grammatical sentence first and second (RuParam's guard
against position bias).  The answer is read from the log-probabilities of the two
option labels as continuations of the prompt (``" 1"``/``" 2"`` by default; with a
chat template ``"1"``/``"2"`` after the assistant prefix) — no free generation — so
there is always an answer, the one with the higher log-probability.

Reported per model (and paradigm): accuracy with the grammatical sentence first and
second, accuracy in both orders (RuParam's criterion), the debiased accuracy (the
label margin averaged over both orders), position bias (share of answers "1" minus
0.5), and agreement of the debiased verdict with the probability-based verdict
(``correct_sum`` of :func:`rublimp.evaluation.evaluate`).

Backends: ``hf`` (transformers, via :class:`rublimp.scoring.hf.HFCausalScorer`) and
``vllm`` (prompt log-probs of ``prompt + label`` token ids, via :class:`VLLMScorer`).
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import polars as pl

from .io import InputError, write_json_atomic, write_parquet_atomic, write_text_atomic

log = logging.getLogger("rublimp")

__all__ = ["DEFAULT_TEMPLATE", "OptionScorer", "build_prompts", "metalinguistic_eval", "summarise", "metaling_stage"]

DEFAULT_TEMPLATE = "Какое из двух предложений грамматически правильно?\n1. {first}\n2. {second}\nОтвет:"
DEFAULT_LABELS = (" 1", " 2")
DEFAULT_CHAT_LABELS = ("1", "2")
ORDERS = ("good_first", "bad_first")


def _check_template(template: str) -> None:
    for f in ("{first}", "{second}"):
        if f not in template:
            raise InputError(f"config key metalinguistic.template must contain {f}, got {template!r}")
    try:
        template.format(first="a", second="b")
    except (KeyError, IndexError, ValueError) as exc:
        raise InputError(f"config key metalinguistic.template: bad placeholder ({exc}); "
                         "use {first} and {second} only (double other braces)") from exc


def build_prompts(pairs: pl.DataFrame, template: str = DEFAULT_TEMPLATE) -> pl.DataFrame:
    """Two prompts per pair: ``order`` good_first (answer 1) and bad_first (answer 2)."""
    _check_template(template)
    rows = []
    for r in pairs.select("id", "PID", "source_sentence", "target_sentence").iter_rows(named=True):
        g, b = r["source_sentence"], r["target_sentence"]
        rows.append({"id": r["id"], "PID": r["PID"], "order": "good_first", "correct_option": 0,
                     "prompt": template.format(first=g, second=b)})
        rows.append({"id": r["id"], "PID": r["PID"], "order": "bad_first", "correct_option": 1,
                     "prompt": template.format(first=b, second=g)})
    return pl.DataFrame(rows, schema={"id": pl.String, "PID": pl.String, "order": pl.String,
                                      "correct_option": pl.Int64, "prompt": pl.String})


class OptionScorer:
    """Log-probabilities of option labels after prompts, for a loaded ``hf`` or ``vllm`` scorer.

    ``chat_template``: ``auto`` applies the tokenizer's chat template when it has one
    (instruction-tuned models), ``always`` requires one, ``never`` uses the raw prompt
    after the BOS (else EOS) token, like sentence scoring.
    """

    def __init__(self, scorer: Any, *, labels: Sequence[str] = DEFAULT_LABELS,
                 chat_labels: Sequence[str] = DEFAULT_CHAT_LABELS, chat_template: str = "auto") -> None:
        self.scorer = scorer
        self.tok = scorer.tokenizer
        has_chat = bool(getattr(self.tok, "chat_template", None))
        if chat_template == "always" and not has_chat:
            raise InputError(f"model {scorer.name!r} has no chat template (config key metalinguistic.chat_template: always)")
        if chat_template not in ("auto", "always", "never"):
            raise InputError(f"config key metalinguistic.chat_template must be auto, always or never, got {chat_template!r}")
        self.use_chat = has_chat and chat_template != "never"
        self.labels = list(chat_labels if self.use_chat else labels)
        if len(self.labels) != 2 or len(set(self.labels)) != 2:
            raise InputError(f"config key metalinguistic.labels: two distinct labels needed, got {self.labels!r}")
        self.label_ids = [self.tok(lab, add_special_tokens=False)["input_ids"] for lab in self.labels]
        for lab, ids in zip(self.labels, self.label_ids):
            if not ids:
                raise InputError(f"label {lab!r} tokenises to nothing (config key metalinguistic.labels)")
        self.max_length = getattr(scorer, "max_length", None)

    def prompt_ids(self, prompt: str) -> list[int]:
        if self.use_chat:
            text = self.tok.apply_chat_template([{"role": "user", "content": prompt}], tokenize=False,
                                                add_generation_prompt=True)
            return list(self.tok(text, add_special_tokens=False)["input_ids"])
        return [self.scorer._first_id, *self.tok(prompt, add_special_tokens=False)["input_ids"]]

    def fits(self, ids: list[int]) -> bool:
        longest = max(len(x) for x in self.label_ids)
        return self.max_length is None or len(ids) + longest <= self.max_length

    def score(self, prompts_ids: Sequence[list[int]], *, progress: bool = False) -> np.ndarray:
        """``(n, 2)`` summed log-probabilities of each label's tokens after each prompt."""
        backend = type(self.scorer).__name__
        if backend == "VLLMScorer":
            return self._score_vllm(prompts_ids, progress=progress)
        if all(len(x) == 1 for x in self.label_ids):
            return self._score_hf_next(prompts_ids, progress=progress)
        return self._score_hf_full(prompts_ids, progress=progress)

    # hf: one forward pass per prompt batch, next-token distribution at the prompt's last position
    def _batches(self, lengths: Sequence[int]):
        from .scoring.hf import make_canonical_batches

        return make_canonical_batches(list(lengths), int(getattr(self.scorer, "batch_tokens", 4096)))

    def _forward(self, seqs: list[list[int]], width: int, rows: int):
        import torch

        sc = self.scorer
        if self.max_length:
            width = max(min(width, self.max_length), max(len(s) for s in seqs))
        seqs_in = list(seqs) + [seqs[0]] * max(0, rows - len(seqs))
        inputs = torch.full((len(seqs_in), width), sc._pad_id, dtype=torch.long)
        mask = torch.zeros((len(seqs_in), width), dtype=torch.long)
        for r, s in enumerate(seqs_in):
            inputs[r, : len(s)] = torch.tensor(s, dtype=torch.long)
            mask[r, : len(s)] = 1
        with torch.inference_mode():
            return sc.model(input_ids=inputs.to(sc.device), attention_mask=mask.to(sc.device)).logits

    def _score_hf_next(self, prompts_ids, *, progress: bool) -> np.ndarray:
        import torch
        from tqdm.auto import tqdm

        out = np.zeros((len(prompts_ids), 2))
        targets = [ids[0] for ids in self.label_ids]
        batches = self._batches([len(p) for p in prompts_ids])
        with tqdm(total=len(prompts_ids), desc="metalinguistic", unit="prompt", disable=None if progress else True) as bar:
            for idx, width, rows in batches:
                seqs = [prompts_ids[i] for i in idx]
                logits = self._forward(seqs, width, rows)
                for r, i in enumerate(idx):
                    lp = torch.log_softmax(logits[r, len(seqs[r]) - 1].float(), dim=-1)
                    out[i] = [float(lp[t]) for t in targets]
                bar.update(len(idx))
        return out

    def _score_hf_full(self, prompts_ids, *, progress: bool) -> np.ndarray:
        import torch

        seqs, where = [], []
        for i, p in enumerate(prompts_ids):
            for j, lab in enumerate(self.label_ids):
                seqs.append([*p, *lab])
                where.append((i, j, len(p), len(lab)))
        out = np.zeros((len(prompts_ids), 2))
        for idx, width, rows in self._batches([len(s) for s in seqs]):
            logits = self._forward([seqs[k] for k in idx], width, rows)
            for r, k in enumerate(idx):
                i, j, start, n = where[k]
                lp = torch.log_softmax(logits[r, start - 1 : start - 1 + n].float(), dim=-1)
                tgt = torch.tensor(seqs[k][start : start + n], device=lp.device)
                out[i, j] = float(lp.gather(1, tgt[:, None]).sum())
        return out

    def _score_vllm(self, prompts_ids, *, progress: bool) -> np.ndarray:
        from vllm import SamplingParams
        from vllm.inputs import TokensPrompt

        reqs, where = [], []
        for i, p in enumerate(prompts_ids):
            for j, lab in enumerate(self.label_ids):
                reqs.append(TokensPrompt(prompt_token_ids=[*p, *lab]))
                where.append((i, j, len(p), lab))
        params = SamplingParams(max_tokens=1, prompt_logprobs=0, temperature=0.0, detokenize=False)
        outputs = self.scorer.llm.generate(reqs, params, use_tqdm=progress)
        out = np.zeros((len(prompts_ids), 2))
        for (i, j, start, lab), o in zip(where, outputs):
            plp = o.prompt_logprobs
            out[i, j] = sum(plp[start + t][tid].logprob for t, tid in enumerate(lab))
        return out


def _sample(pairs: pl.DataFrame, n: int, seed: int) -> pl.DataFrame:
    """Per paradigm the ``n`` pairs with the smallest seeded hash of their id."""
    h = [int.from_bytes(hashlib.blake2b(f"{seed}\x1fmetaling\x1f{i}".encode(), digest_size=8).digest(), "big")
         for i in pairs["id"].cast(pl.String).to_list()]
    return (pairs.with_columns(pl.Series("__h", h, dtype=pl.UInt64)).sort("PID", "__h")
            .group_by("PID", maintain_order=True).head(n).drop("__h").sort("PID", "id"))


def metalinguistic_eval(pairs: pl.DataFrame, scorer: OptionScorer, *, model: str, template: str = DEFAULT_TEMPLATE,
                        pairs_per_paradigm: int = 50, seed: int = 0, progress: bool = False,
                        return_counts: bool = False) -> pl.DataFrame | tuple[pl.DataFrame, dict[str, Any]]:
    """Per pair × order: label log-probs, the chosen option and whether it is the grammatical one.

    Pairs whose prompt (either order) does not fit the model's context are left out (they
    are absent from the result), counted and logged as a warning.  ``pairs`` may carry
    ``correct_sum`` (per-pair probability verdict), kept for the agreement.

    With ``return_counts``, returns ``(result, counts)``: ``counts`` has ``candidates``
    (pairs sampled as candidates: per paradigm the 4 × ``pairs_per_paradigm`` with the
    smallest seeded hash), ``too_long`` (candidates skipped: longer than the model's
    context), ``asked``, ``not_needed`` (candidates that fit but exceed
    ``pairs_per_paradigm``), ``max_length`` (the context, None when unbounded) and the
    same per paradigm under ``paradigms``.
    """
    # candidates: per paradigm the 4n pairs with the smallest seeded hash (prompts that do not fit the
    # context are skipped, the next candidates take their place)
    prompts = build_prompts(_sample(pairs, 4 * pairs_per_paradigm, seed), template)
    ids = [scorer.prompt_ids(p) for p in prompts["prompt"].to_list()]
    fits = pl.Series("fits", [scorer.fits(x) for x in ids])
    prompts = prompts.with_columns(fits, pl.Series("n_prompt_tokens", [len(x) for x in ids], dtype=pl.Int64))
    ok_ids = prompts.group_by("id").agg(pl.col("fits").all()).filter(pl.col("fits"))["id"]
    chosen = _sample(pairs.filter(pl.col("id").is_in(ok_ids.implode())), pairs_per_paradigm, seed)
    keep = prompts.with_row_index("__i").filter(pl.col("id").is_in(chosen["id"].implode()))
    lp = scorer.score([ids[i] for i in keep["__i"].to_list()], progress=progress)
    res = keep.drop("__i", "fits", "prompt").with_columns(
        pl.lit(model).alias("model"),
        pl.Series("lp_option1", lp[:, 0]), pl.Series("lp_option2", lp[:, 1]),
    ).with_columns(
        pl.when(pl.col("lp_option1") >= pl.col("lp_option2")).then(0).otherwise(1).alias("answer"),
    ).with_columns((pl.col("answer") == pl.col("correct_option")).alias("correct"))
    # the grammatical option's margin in each order
    res = res.with_columns(
        pl.when(pl.col("correct_option") == 0).then(pl.col("lp_option1") - pl.col("lp_option2"))
        .otherwise(pl.col("lp_option2") - pl.col("lp_option1")).alias("margin")
    )
    extra = [c for c in ("correct_sum",) if c in pairs.columns]
    if extra:
        res = res.join(pairs.select("id", *extra), on="id", how="left")
    per_pair = prompts.group_by("id", "PID").agg(pl.col("fits").all())
    asked = set(chosen["id"].to_list())
    par_counts = {}
    for (pid,), g in sorted(per_pair.group_by(["PID"]), key=lambda kg: str(kg[0][0])):
        n_fit = int(g["fits"].sum())
        n_asked = sum(i in asked for i in g["id"].to_list())
        par_counts[pid] = {"candidates": g.height, "too_long": g.height - n_fit, "asked": n_asked,
                           "not_needed": n_fit - n_asked}
    counts = {k: sum(c[k] for c in par_counts.values()) for k in ("candidates", "too_long", "asked", "not_needed")}
    counts["max_length"] = scorer.max_length
    counts["paradigms"] = par_counts
    log.info("metalinguistic %s: %s", model, {k: v for k, v in counts.items() if k != "paradigms"})
    if counts["too_long"]:
        worst = sorted(((c["too_long"], p) for p, c in par_counts.items() if c["too_long"]), reverse=True)[:5]
        log.warning("metalinguistic %s: %d of %d candidate pairs skipped: prompt longer than the model's context "
                    "(%s tokens); most in %s", model, counts["too_long"], counts["candidates"], scorer.max_length,
                    ", ".join(f"{p} ({n})" for n, p in worst))
    res = res.sort("PID", "id", "order")
    return (res, counts) if return_counts else res


def summarise(res: pl.DataFrame, by: Sequence[str] = ("model",)) -> pl.DataFrame:
    """Accuracy per order, in both orders, debiased; position bias; agreement with the probability verdict."""
    per_pair = res.group_by([*by, "id"]).agg(
        pl.col("correct").filter(pl.col("order") == "good_first").first().alias("c_gf"),
        pl.col("correct").filter(pl.col("order") == "bad_first").first().alias("c_bf"),
        pl.col("margin").mean().alias("margin"),
        (pl.col("answer") == 0).mean().alias("first_share"),
        *([pl.col("correct_sum").first()] if "correct_sum" in res.columns else []),
    )
    aggs = [
        pl.len().cast(pl.Int64).alias("n_pairs"),
        pl.col("c_gf").mean().alias("acc_good_first"),
        pl.col("c_bf").mean().alias("acc_bad_first"),
        (pl.col("c_gf") & pl.col("c_bf")).mean().alias("acc_both"),
        (pl.col("margin") > 0).mean().alias("acc_debiased"),
        (pl.col("first_share").mean() - 0.5).alias("position_bias"),
    ]
    if "correct_sum" in res.columns:
        aggs.append(((pl.col("margin") > 0) == pl.col("correct_sum")).mean().alias("agree_prob"))
    return per_pair.group_by(list(by)).agg(aggs).sort(list(by))


def metaling_stage(
    benchmarks: Sequence[str | os.PathLike],
    pair_results: Sequence[str | os.PathLike],
    spec: Mapping[str, Any],
    out_parquet: str | os.PathLike,
    out_json: str | os.PathLike,
    **options: Any,
) -> dict:
    """One model in one call: :func:`ask_model` (``options`` are its keywords), then what
    :func:`summary_stage` writes (per-prompt table + summary JSON)."""
    res, meta = ask_model(benchmarks, spec, **options)
    return _summarise_to(res, meta, pair_results, out_parquet, out_json)


def ask_model(
    benchmarks: Sequence[str | os.PathLike],
    spec: Mapping[str, Any],
    *,
    template: str = DEFAULT_TEMPLATE,
    labels: Sequence[str] = DEFAULT_LABELS,
    chat_labels: Sequence[str] = DEFAULT_CHAT_LABELS,
    chat_template: str = "auto",
    pairs_per_paradigm: int = 50,
    seed: int = 0,
    threads: int | None = None,
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Prompt one model on a seeded sample of every benchmark paradigm.

    Returns the per-prompt table of :func:`metalinguistic_eval` (without the probability
    verdict) and a JSON-ready record of the settings and skip counts that
    :func:`summary_record` needs.  It reads only the benchmark, so the workflow runs it
    beside the benchmark's scoring rather than after the evaluation.
    """
    from .scoring import scorer_from_spec

    if spec["backend"] not in ("hf", "vllm"):
        raise InputError(f"metalinguistic prompting needs a causal LM (backend hf or vllm), model {spec['name']!r} "
                         f"has backend {spec['backend']!r}")
    bench = pl.concat([pl.read_parquet(p, columns=["id", "PID", "source_sentence", "target_sentence"])
                       for p in benchmarks])
    _check_template(template)
    opt = OptionScorer(scorer_from_spec(spec, num_threads=threads), labels=labels, chat_labels=chat_labels,
                       chat_template=chat_template)
    res, counts = metalinguistic_eval(bench, opt, model=spec["name"], template=template,
                                      pairs_per_paradigm=pairs_per_paradigm, seed=seed, progress=True,
                                      return_counts=True)
    meta = {"model": spec["name"], "chat_template": opt.use_chat, "labels": list(opt.labels), "template": template,
            "pairs_in_benchmark": bench.height, "pairs_per_paradigm": pairs_per_paradigm, "counts": counts}
    return res, meta


def prompt_stage(benchmarks: Sequence[str | os.PathLike], spec: Mapping[str, Any], out_prompts: str | os.PathLike,
                 out_meta: str | os.PathLike, **options: Any) -> dict[str, Any]:
    """Rule ``metalinguistic``: :func:`ask_model`'s table to ``out_prompts`` (Parquet), its record to ``out_meta``."""
    res, meta = ask_model(benchmarks, spec, **options)
    write_parquet_atomic(res, out_prompts)
    write_json_atomic(out_meta, meta)
    return meta


def summary_stage(prompts: str | os.PathLike, meta: str | os.PathLike, pair_results: Sequence[str | os.PathLike],
                  out_parquet: str | os.PathLike, out_json: str | os.PathLike) -> dict:
    """Rule ``metalinguistic_summary``: add each pair's probability verdict (``correct_sum`` of the
    evaluation) to :func:`prompt_stage`'s table; write it and the summary JSON (:func:`summary_record`)."""
    import json

    record = json.loads(Path(meta).read_text(encoding="utf-8"))
    return _summarise_to(pl.read_parquet(prompts), record, pair_results, out_parquet, out_json)


def _summarise_to(res: pl.DataFrame, meta: Mapping[str, Any], pair_results: Sequence[str | os.PathLike],
                  out_parquet: str | os.PathLike, out_json: str | os.PathLike) -> dict:
    verdicts = [pl.read_parquet(p, columns=["id", "correct_sum"]) for p in pair_results]
    if verdicts:
        res = res.join(pl.concat(verdicts), on="id", how="left").sort("PID", "id", "order")
    write_parquet_atomic(res, out_parquet)
    info = summary_record(res, meta["counts"], model=meta["model"], chat_template=meta["chat_template"],
                          labels=meta["labels"], template=meta["template"],
                          pairs_in_benchmark=meta["pairs_in_benchmark"], pairs_per_paradigm=meta["pairs_per_paradigm"])
    write_json_atomic(out_json, info)
    return info


def summary_record(res: pl.DataFrame, counts: Mapping[str, Any], *, model: str, chat_template: bool,
                   labels: Sequence[str], template: str, pairs_in_benchmark: int,
                   pairs_per_paradigm: int) -> dict[str, Any]:
    """The JSON summary of one model's prompting: settings, the skip counts of
    :func:`metalinguistic_eval` (``candidates``, ``too_long``, ``asked``, ``not_needed``,
    ``max_length``, ``skipped_by_paradigm``) and :func:`summarise` overall and per paradigm."""
    overall = summarise(res)
    per_par = summarise(res, by=("model", "PID"))
    return {"model": model, "chat_template": chat_template, "labels": list(labels), "template": template,
            "pairs_in_benchmark": pairs_in_benchmark, "pairs_per_paradigm": pairs_per_paradigm,
            "candidates": counts["candidates"], "too_long": counts["too_long"], "asked": counts["asked"],
            "not_needed": counts["not_needed"], "max_length": counts["max_length"],
            "skipped_by_paradigm": {p: c["too_long"] for p, c in counts["paradigms"].items() if c["too_long"]},
            "overall": overall.to_dicts()[0] if overall.height else None,
            "paradigms": per_par.to_dicts()}


def section_stage(summaries: Sequence[str | os.PathLike], out_md: str | os.PathLike) -> str:
    import json

    from .report import metalinguistic_section

    text = metalinguistic_section([json.loads(Path(p).read_text(encoding="utf-8")) for p in summaries])
    write_text_atomic(out_md, text)
    return text
