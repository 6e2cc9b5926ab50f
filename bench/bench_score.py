"""Throughput of the batched HF scorer vs scoring one sentence at a time.

Builds a randomly initialised GPT-2 (size configurable) with a byte-level BPE
tokenizer trained on the benchmark sentences, then times
``HFCausalScorer.score`` at several ``batch_tokens`` budgets against two
unbatched baselines:

* ``one-at-a-time``: the same scorer with ``batch_tokens=1`` (every sentence is
  its own batch; identical numerics, no padding);
* ``reference loop``: :func:`rublimp.scoring.hf.score_one_by_one`, the plain
  float64 loop the tests compare against (it also computes the Min-K%++
  moments in numpy, so it is the slowest);
* ``--minicons``: minicons' ``IncrementalLMScorer.sequence_score`` (summed
  log-probs) on the same model, in batches of ``--minicons-batch`` sentences
  (minicons lives in the bench environment: ``make bench-env``, ``.venv-bench``).
* ``--vs-minicons``: rounds interleaved, our scorer with *default* settings (loaded from disk as
  the pipeline loads it: ``dtype: auto``, the per-device budget) and with ``dtype=float32`` vs
  minicons at each of ``--minicons-batches``, the ratio to minicons' best per round (``make bench-score``).

``--backend hf-mlm`` times :class:`rublimp.scoring.mlm.HFMaskedScorer` (PLL: one
forward row per token) on a BERT of the same size against one masked copy per
pass; ``--backend vllm`` (run it with ``.venv-vllm/bin/python``) times
:class:`rublimp.scoring.vllm.VLLMScorer` on the vLLM CPU build against the
batched ``hf`` scorer.  Note the vLLM CPU attention kernels need a head size
of 32/64/128…: ``--n-embd 256 --n-head 4`` gives 64.

Sentences come from ``resources/demo_corpus/*.txt`` when present (``#`` lines
and blank lines skipped), otherwise they are generated from small word lists.

    OMP_NUM_THREADS=1 python bench/bench_score.py
    python bench/bench_score.py --n-layer 12 --n-embd 768 --n-head 12 --vocab-size 32000 --device cuda
    OMP_NUM_THREADS=1 .venv-bench/bin/python bench/bench_score.py --vs-minicons --n-sentences 400 \
        --n-layer 12 --n-embd 768 --n-head 12 --vocab-size 50257      # GPT-2 small, vs minicons
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch

from rublimp.scoring.hf import HFCausalScorer, score_one_by_one

ROOT = Path(__file__).resolve().parents[1]

# Word lists for generated sentences: (subject, grammatical gender/number).
_SUBJECTS = [
    ("учитель", "m"), ("соседка", "f"), ("старый рыбак", "m"), ("молодая художница", "f"),
    ("мой брат", "m"), ("наша бабушка", "f"), ("почтальон", "m"), ("девочка", "f"),
    ("инженер", "m"), ("медсестра", "f"), ("дети", "pl"), ("туристы", "pl"),
]
_VERBS = [  # past tense: masculine, feminine, plural
    ("долго гулял", "долго гуляла", "долго гуляли"),
    ("работал", "работала", "работали"),
    ("отдыхал", "отдыхала", "отдыхали"),
    ("тихо пел", "тихо пела", "тихо пели"),
    ("читал газету", "читала газету", "читали газету"),
    ("ждал автобус", "ждала автобус", "ждали автобус"),
    ("рисовал", "рисовала", "рисовали"),
    ("спорил с продавцом", "спорила с продавцом", "спорили с продавцом"),
    ("пил чай", "пила чай", "пили чай"),
    ("смотрел на реку", "смотрела на реку", "смотрели на реку"),
]
_PLACES = ["в парке", "на вокзале", "у старого моста", "в маленьком кафе", "на берегу озера",
           "во дворе", "в библиотеке", "на рынке", "около школы", "в саду"]
_TIMES = ["Вчера вечером", "Утром", "В субботу", "Прошлым летом", "Поздно ночью", "Весной", "Иногда"]
_TAILS = [
    ("", "", ""),
    (", а потом вернулся домой", ", а потом вернулась домой", ", а потом вернулись домой"),
    (", пока не начался дождь",) * 3,
    (", несмотря на сильный ветер и холод, который пробирал до костей",) * 3,
]
_GENDER = {"m": 0, "f": 1, "pl": 2}


def generated_sentences(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct grammatical sentences built from the word lists above."""
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        subj, g = rng.choice(_SUBJECTS)
        i = _GENDER[g]
        out.add(f"{rng.choice(_TIMES)} {subj} {rng.choice(_VERBS)[i]} {rng.choice(_PLACES)}{rng.choice(_TAILS)[i]}.")
    return sorted(out)


def corpus_sentences() -> list[str]:
    lines = []
    for path in sorted((ROOT / "resources" / "demo_corpus").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return sorted(set(lines))


def build_model(sentences: list[str], args: argparse.Namespace):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(sentences, trainers.BpeTrainer(
        vocab_size=args.vocab_size, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>")
    # The random model's vocabulary can be larger than what BPE learned on few sentences,
    # so the softmax costs what a real model of --vocab-size would cost.
    vocab = max(len(hf_tok), args.vocab_size)
    torch.manual_seed(args.seed)
    cfg = GPT2Config(vocab_size=vocab, n_positions=args.n_positions, n_embd=args.n_embd, n_layer=args.n_layer,
                     n_head=args.n_head, bos_token_id=hf_tok.bos_token_id, eos_token_id=hf_tok.eos_token_id)
    model = GPT2LMHeadModel(cfg).eval().to(args.device)
    return model, hf_tok


def timed(fn, repeat: int = 1):
    """Result of ``fn()`` and its best wall and CPU times over ``repeat`` runs.

    On a shared machine the process CPU time is the steadier number for a
    single-threaded run; on an idle one the two agree.
    """
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return out, (best, best_cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-sentences", type=int, default=300)
    ap.add_argument("--n-layer", type=int, default=4)
    ap.add_argument("--n-embd", type=int, default=256)
    ap.add_argument("--n-head", type=int, default=4)
    ap.add_argument("--n-positions", type=int, default=512)
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--batch-tokens", type=int, nargs="+", default=[512, 2048, 8192])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: OMP_NUM_THREADS or torch's)")
    ap.add_argument("--minkpp", action="store_true", help="also compute the Min-K%%++ moments in the batched runs")
    ap.add_argument("--no-reference", action="store_true", help="skip the slow float64 reference loop")
    ap.add_argument("--repeat", type=int, default=1, help="time each method this many times, keep the best")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None, help="also write the results as JSON here")
    ap.add_argument("--backend", choices=["hf", "hf-mlm", "vllm"], default="hf")
    ap.add_argument("--minicons", action="store_true", help="also time minicons' IncrementalLMScorer (hf backend)")
    ap.add_argument("--minicons-batch", type=int, default=32)
    ap.add_argument("--vs-minicons", action="store_true",
                    help="interleaved rounds: default settings vs minicons at --minicons-batches, and a budget sweep")
    ap.add_argument("--minicons-batches", type=int, nargs="+", default=[4, 8, 16, 32])
    ap.add_argument("--sweep", type=int, nargs="*", default=[64, 128, 256, 512, 1024, 4096],
                    help="batch_tokens budgets timed once each, for the CPU default (--vs-minicons)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    if args.vs_minicons:
        return vs_minicons(args)
    if args.backend != "hf":
        return other_backend(args)

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    corpus = corpus_sentences()
    if len(corpus) >= args.n_sentences:
        sentences, source = random.Random(args.seed).sample(corpus, args.n_sentences), "resources/demo_corpus"
    else:
        sentences, source = generated_sentences(args.n_sentences, args.seed), "generated"
    model, tok = build_model(sentences, args)
    n_params = sum(p.numel() for p in model.parameters())
    n_tok = sum(len(x) for x in tok(sentences, add_special_tokens=False)["input_ids"])
    print(f"{len(sentences)} sentences ({source}), {n_tok} tokens, mean {n_tok / len(sentences):.1f}/sentence; "
          f"GPT-2 {args.n_layer}x{args.n_embd}, vocab {model.config.vocab_size}, {n_params / 1e6:.1f}M params; "
          f"device {args.device}, torch threads {torch.get_num_threads()}")

    rows: list[dict] = []
    ref_sums: dict[str, float] | None = None

    def add(name: str, times: tuple[float, float], sums: dict[str, float]) -> None:
        seconds, cpu = times
        diff = max(abs(sums[s] - ref_sums[s]) for s in sums) if ref_sums else float("nan")
        rows.append({"method": name, "seconds": seconds, "cpu_seconds": cpu,
                     "sentences_per_s": len(sentences) / seconds, "tokens_per_s": n_tok / seconds,
                     "max_abs_diff_sum_logprob": diff})

    # warm-up (first call allocates and initialises kernels)
    HFCausalScorer.from_model(model, tok, batch_tokens=512).score(sentences[:8], progress=False)

    if not args.no_reference:
        res, sec = timed(lambda: [score_one_by_one(model, tok, s) for s in sentences])
        ref_sums = {s: float(r.logprobs.sum()) for s, r in zip(sentences, res)}
        add("reference loop (float64)", sec, ref_sums)
    one = HFCausalScorer.from_model(model, tok, batch_tokens=1)
    df, sec = timed(lambda: one.score(sentences, progress=False, minkpp=args.minkpp), args.repeat)
    sums = dict(zip(df["sentence"], df["sum_logprob"]))
    ref_sums = ref_sums or sums
    add("one-at-a-time", sec, sums)
    baseline = sec[0]
    for bt in args.batch_tokens:
        scorer = HFCausalScorer.from_model(model, tok, batch_tokens=bt)
        df, sec = timed(lambda: scorer.score(sentences, progress=False, minkpp=args.minkpp), args.repeat)
        add(f"batched, batch_tokens={bt}", sec, dict(zip(df["sentence"], df["sum_logprob"])))

    if args.minicons:
        from minicons import scorer as mc

        lm = mc.IncrementalLMScorer(model, device=args.device, tokenizer=tok)

        def run_minicons():
            out = []
            for b in range(0, len(sentences), args.minicons_batch):
                out += lm.sequence_score(sentences[b:b + args.minicons_batch], reduction=lambda x: x.sum(0).item())
            return out

        res, sec = timed(run_minicons, args.repeat)
        # minicons scores from the second token on (no BOS prepended): compare speed, not values
        add(f"minicons sequence_score (batch {args.minicons_batch})", sec, {s: float("nan") for s in sentences})

    print(f"\n{'method':<30} {'wall s':>8} {'CPU s':>8} {'sent/s':>9} {'tok/s':>10} {'speed-up':>9} {'max|Δ sum|':>11}")
    for r in rows:
        print(f"{r['method']:<30} {r['seconds']:>8.2f} {r['cpu_seconds']:>8.2f} {r['sentences_per_s']:>9.1f} "
              f"{r['tokens_per_s']:>10.0f} {baseline / r['seconds']:>8.2f}x {r['max_abs_diff_sum_logprob']:>11.2e}")
    print("(sent/s, tok/s and speed-up use wall time; max|Δ sum| is against the first row)")
    if args.json:
        from rublimp.io import write_json_atomic

        write_json_atomic(args.json, {"args": {k: str(v) for k, v in vars(args).items()}, "source": source,
                                      "n_tokens": n_tok, "n_params": n_params, "results": rows})
    worst = np.nanmax([r["max_abs_diff_sum_logprob"] for r in rows])
    return 0 if not np.isfinite(worst) or worst <= 1e-3 else 1


def vs_minicons(args: argparse.Namespace) -> int:
    """Our scorer with *default* settings against minicons' ``IncrementalLMScorer``, rounds interleaved.

    GPT-2-small-sized random model (pass ``--n-layer 12 --n-embd 768 --n-head 12 --vocab-size 50257``),
    saved to a temporary directory and loaded the way the pipeline loads a model: by path, with the
    defaults (``dtype: auto``, the per-device batch budget).  Every round times ours once, ours with
    ``dtype=float32`` once (the full-precision option, to show what the dtype contributes) and minicons
    once per batch size, in turn, so that load on a shared machine hits all alike.  Prints every round,
    then the ratio minicons' best batch size / ours per round (CPU time, and wall), and how far the
    default's sentence log-probs are from float32's.  Before the rounds, a sweep of ``batch_tokens``
    (tokens/s against the budget, float32) shows where the CPU default comes from.
    """
    import tempfile

    from minicons import scorer as mc

    from rublimp.scoring.dtypes import resolve_dtype
    from rublimp.scoring.hf import CPU_BATCH_TOKENS

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    sentences = _bench_sentences(args)
    model, tok = build_model(sentences, args)
    n_tok = sum(len(x) for x in tok(sentences, add_special_tokens=False)["input_ids"])
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{len(sentences)} sentences, {n_tok} tokens; GPT-2 {args.n_layer}x{args.n_embd}, vocab "
          f"{model.config.vocab_size}, {n_params / 1e6:.1f}M params; torch threads {torch.get_num_threads()}; "
          f"defaults on {args.device}: dtype auto -> {resolve_dtype('auto', args.device)}, batch_tokens "
          f"{CPU_BATCH_TOKENS if args.device == 'cpu' else 'probed'}")
    HFCausalScorer.from_model(model, tok).score(sentences[:8], progress=False)  # warm-up
    if args.sweep:
        print("\nbudget sweep, float32 (tokens/s by CPU time):")
        for bt in args.sweep:
            sc = HFCausalScorer.from_model(model, tok, batch_tokens=bt)
            _, (wall, cpu) = timed(lambda: sc.score(sentences, progress=False))
            print(f"  batch_tokens={bt:<6} wall {wall:7.2f} s  CPU {cpu:7.2f} s  {n_tok / cpu:8.0f} tok/s  "
                  f"positions run / real tokens {sc.positions_run / sc.real_positions:.2f}")
    lm = mc.IncrementalLMScorer(model, device=args.device, tokenizer=tok)

    def run_minicons(bs: int):
        out = []
        for b in range(0, len(sentences), bs):
            out += lm.sequence_score(sentences[b:b + bs], reduction=lambda x: x.sum(0).item())
        return out

    with tempfile.TemporaryDirectory() as d:
        model.save_pretrained(d)
        tok.save_pretrained(d)
        ours = HFCausalScorer(d, device=args.device)  # the defaults, as scorer_from_spec builds it
        full = HFCausalScorer(d, device=args.device, dtype="float32")
        ours.score(sentences[:8], progress=False)  # warm-up (the bfloat16 kernels)
        ratios_cpu, ratios_wall, ratios_fp32 = [], [], []
        for r in range(1, args.rounds + 1):
            ours_df, (o_wall, o_cpu) = timed(lambda: ours.score(sentences, progress=False))
            full_df, (f_wall, f_cpu) = timed(lambda: full.score(sentences, progress=False))
            line = [f"round {r}: ours (default, {ours.dtype}) wall {o_wall:.2f} s CPU {o_cpu:.2f} s; "
                    f"ours float32 wall {f_wall:.2f} s CPU {f_cpu:.2f} s"]
            best_cpu, best_wall = float("inf"), float("inf")
            for bs in args.minicons_batches:
                _, (m_wall, m_cpu) = timed(lambda: run_minicons(bs))
                best_cpu, best_wall = min(best_cpu, m_cpu), min(best_wall, m_wall)
                line.append(f"minicons b={bs} wall {m_wall:.2f} s CPU {m_cpu:.2f} s")
            ratios_cpu.append(best_cpu / o_cpu)
            ratios_wall.append(best_wall / o_wall)
            ratios_fp32.append(best_cpu / f_cpu)
            print("; ".join(line) + f"  -> minicons best / ours: CPU {ratios_cpu[-1]:.2f}x, wall "
                  f"{ratios_wall[-1]:.2f}x (ours float32: CPU {ratios_fp32[-1]:.2f}x)", flush=True)
    diff = (ours_df.sort("sentence")["sum_logprob"] - full_df.sort("sentence")["sum_logprob"]).abs()
    print(f"\nours (default, {ours.dtype}) is {np.median(ratios_cpu):.2f}x faster than minicons' best batch size "
          f"by CPU time (median of {args.rounds} rounds; wall {np.median(ratios_wall):.2f}x); ours in float32 "
          f"{np.median(ratios_fp32):.2f}x.  Default vs float32 sentence log-prob: mean |diff| {diff.mean():.4f}, "
          f"max {diff.max():.4f} nats (a random model; see bench/bench_dtype.py for a trained one)")
    return 0


def _bench_sentences(args: argparse.Namespace) -> list[str]:
    corpus = corpus_sentences()
    if len(corpus) >= args.n_sentences:
        return random.Random(args.seed).sample(corpus, args.n_sentences)
    return generated_sentences(args.n_sentences, args.seed)


def _print_rows(rows: list[dict], baseline: float) -> None:
    print(f"\n{'method':<34} {'wall s':>8} {'CPU s':>8} {'tok/s':>10} {'speed-up':>9} {'max|Δ sum|':>11}")
    for r in rows:
        print(f"{r['method']:<34} {r['seconds']:>8.2f} {r['cpu_seconds']:>8.2f} {r['tokens_per_s']:>10.0f} "
              f"{baseline / r['seconds']:>8.2f}x {r['max_abs_diff_sum_logprob']:>11.2e}")


def other_backend(args: argparse.Namespace) -> int:
    """``--backend hf-mlm`` or ``vllm``: batched throughput against the unbatched baseline."""
    import tempfile

    if args.threads is not None:
        torch.set_num_threads(args.threads)
    sentences = _bench_sentences(args)
    rows: list[dict] = []
    ref: dict[str, float] = {}

    def add(name, df, sec, n_tok):
        sums = dict(zip(df["sentence"], df["sum_logprob"]))
        if not ref:
            ref.update(sums)
        rows.append({"method": name, "seconds": sec[0], "cpu_seconds": sec[1], "tokens_per_s": n_tok / sec[0],
                     "max_abs_diff_sum_logprob": max(abs(sums[s] - ref[s]) for s in sums)})

    if args.backend == "hf-mlm":
        from transformers import BertConfig, BertForMaskedLM

        from rublimp.demo_mlm import _train_tokenizer
        from rublimp.scoring.mlm import HFMaskedScorer

        tok = _train_tokenizer(sentences, args.vocab_size, args.n_positions)
        torch.manual_seed(args.seed)
        cfg = BertConfig(vocab_size=max(len(tok), args.vocab_size), hidden_size=args.n_embd,
                         num_hidden_layers=args.n_layer, num_attention_heads=args.n_head,
                         intermediate_size=4 * args.n_embd, max_position_embeddings=args.n_positions,
                         type_vocab_size=1, pad_token_id=tok.pad_token_id)
        model = BertForMaskedLM(cfg).eval().to(args.device)
        n_tok = sum(len(x) - 2 for x in tok(sentences)["input_ids"])  # scored tokens = forward rows
        print(f"{len(sentences)} sentences, {n_tok} scored tokens (= masked forward rows); BERT "
              f"{args.n_layer}x{args.n_embd}, vocab {cfg.vocab_size}; torch threads {torch.get_num_threads()}")
        HFMaskedScorer.from_model(model, tok, batch_tokens=512).score(sentences[:4], progress=False)
        one = HFMaskedScorer.from_model(model, tok, batch_tokens=1)
        df, sec = timed(lambda: one.score(sentences, progress=False), args.repeat)
        add("one masked copy per pass", df, sec, n_tok)
        for bt in args.batch_tokens:
            sc = HFMaskedScorer.from_model(model, tok, batch_tokens=bt)
            df, sec = timed(lambda: sc.score(sentences, progress=False), args.repeat)
            add(f"PLL batched, batch_tokens={bt}", df, sec, n_tok)
    else:  # vllm (CPU build): needs the model on disk
        from rublimp.scoring.vllm import VLLMScorer

        model, tok = build_model(sentences, args)
        n_tok = sum(len(x) for x in tok(sentences, add_special_tokens=False)["input_ids"])
        print(f"{len(sentences)} sentences, {n_tok} tokens; GPT-2 {args.n_layer}x{args.n_embd}, "
              f"vocab {model.config.vocab_size}; torch threads {torch.get_num_threads()}")
        with tempfile.TemporaryDirectory() as d:
            model.save_pretrained(d)
            tok.save_pretrained(d)
            one = HFCausalScorer.from_model(model, tok, batch_tokens=1)
            df, sec = timed(lambda: one.score(sentences, progress=False), args.repeat)
            add("hf one-at-a-time", df, sec, n_tok)
            hf = HFCausalScorer.from_model(model, tok, batch_tokens=max(args.batch_tokens))
            df, sec = timed(lambda: hf.score(sentences, progress=False), args.repeat)
            add(f"hf batched, batch_tokens={max(args.batch_tokens)}", df, sec, n_tok)
            for bt in args.batch_tokens:
                v = VLLMScorer(d, device="cpu", dtype="float32", batch_tokens=max(bt, args.n_positions),
                               max_length=args.n_positions, gpu_memory_utilization=0.5)
                v.score(sentences[:4], progress=False)  # warm-up
                df, sec = timed(lambda: v.score(sentences, progress=False), args.repeat)
                add(f"vllm cpu, max_num_batched_tokens={max(bt, args.n_positions)}", df, sec, n_tok)
                del v
    _print_rows(rows, rows[0]["seconds"])
    if args.json:
        from rublimp.io import write_json_atomic

        write_json_atomic(args.json, {"args": {k: str(v) for k, v in vars(args).items()}, "results": rows})
    return 0 if max(r["max_abs_diff_sum_logprob"] for r in rows) <= 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
