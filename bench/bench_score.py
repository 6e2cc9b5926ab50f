"""Throughput of the batched HF scorer vs scoring one sentence at a time.

Builds a randomly initialised GPT-2 (size configurable) with a byte-level BPE
tokenizer trained on the benchmark sentences, then times
``HFCausalScorer.score`` at several ``batch_tokens`` budgets against two
unbatched baselines:

* ``one-at-a-time``: the same scorer with ``batch_tokens=1`` (every sentence is
  its own batch; identical numerics, no padding);
* ``reference loop``: :func:`rublimp.scoring.hf.score_one_by_one`, the plain
  float64 loop the tests compare against (it also computes the Min-K%++
  moments in numpy, so it is the slowest).

Sentences come from ``resources/demo_corpus/*.txt`` when present (``#`` lines
and blank lines skipped), otherwise they are generated from small word lists.

    OMP_NUM_THREADS=1 python bench/bench_score.py
    python bench/bench_score.py --n-layer 12 --n-embd 768 --n-head 12 --vocab-size 32000 --device cuda
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
    args = ap.parse_args(argv)

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


if __name__ == "__main__":
    sys.exit(main())
