"""Benchmark curation, evaluation and the report on synthetic data; measure length-bin coverage on UD GSD.

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_curate.py [--pool-size 100000] [--models 25]
        [--paradigms 45] [--eval-models 5] [--json out.json]

Three parts:

1. **Curation** of one synthetic paradigm pool (``--pool-size`` pairs, ``--models``
   LMs whose Min-K% values share a per-sentence component plus model noise):
   wall time of ``search_threshold``, ``stratified_sample`` and ``curate``; the
   threshold, survivors, and the largest deviation of a stratum's count from its
   exact proportional quota (must be < 1 with largest-remainder rounding).
2. **Evaluation + report** on ``--paradigms`` × 1000 pairs × ``--eval-models`` models
   (synthetic log-probs): time of ``evaluate_models``, ``aggregate`` and ``write_report``.
3. **Length bins**: the share of UD Russian-GSD dev/test sentences (gold words,
   with and without punctuation) in each default length bin, i.e. how much of
   natural text the default bins [6,10) … [30,51) cover.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from rublimp.curation import DEFAULT_LENGTH_BINS, assign_length_bins, curate, search_threshold, stratified_sample
from rublimp.evaluation import aggregate, evaluate_models
from rublimp.report import write_report

GSD_DIR = Path("/work/shared/data/ud_russian_gsd")


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def synthetic_pool(size: int, pid: str, rng: np.random.Generator) -> pl.DataFrame:
    domains = np.array(["encyclopedic", "fiction", "news"])
    values = np.array(["Sing", "Plur"])
    src = values[rng.integers(0, 2, size)]
    return pl.DataFrame(
        {
            "id": [f"{pid}-{i:07d}" for i in range(size)],
            "source_sentence": [f"{pid} грамматичное предложение номер {i}" for i in range(size)],
            "target_sentence": [f"{pid} неграмматичное предложение номер {i}" for i in range(size)],
            "PID": [pid] * size,
            "phenomenon": [f"PHEN_{pid[-1]}"] * size,
            "level": ["syntax"] * size,
            "subtype": [f"sub{j}" for j in rng.integers(0, 6, size)],
            "domain": domains[rng.integers(0, 3, size)].tolist(),
            "n_tokens": np.clip(rng.lognormal(2.4, 0.4, size).astype(int), 6, 50).tolist(),
            "feature": ["Number"] * size,
            "source_value": src.tolist(),
            "target_value": np.where(src == "Sing", "Plur", "Sing").tolist(),
        }
    )


def bench_curation(pool_size: int, n_models: int, n: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    pool = synthetic_pool(pool_size, "P0", rng)
    common = rng.normal(-5.0, 1.0, pool_size)
    sentences = pool["source_sentence"]
    scores = {
        f"lm{j:02d}": pl.DataFrame({"sentence": sentences, "mink_60": common + rng.normal(0.0, 0.5, pool_size)})
        for j in range(n_models)
    }
    res, t_search = _timed(lambda: search_threshold(pool, scores, k=60, n=n))
    # ties: round the per-pair max to 1 decimal so that more than n pairs survive, as real data often do
    kept = pool.with_columns(pl.Series("mink_max", np.round(res.pairs["mink_max"].to_numpy(), 1)))
    kept = kept.filter(pl.col("mink_max") <= np.sort(kept["mink_max"].to_numpy())[min(4 * n, pool_size) - 1])
    sample, t_sample = _timed(lambda: stratified_sample(kept, n=n, seed=seed))
    (bench, report), t_curate = _timed(lambda: curate(pool, scores, k=60, n=n, seed=seed, progress=False))
    keys = ["domain", "feature", "source_value", "target_value", "length_bin"]
    full = assign_length_bins(kept).group_by(keys).len()
    got = sample.group_by(keys).len().rename({"len": "got"})
    dev = full.join(got, on=keys, how="left").with_columns(
        (pl.col("got").fill_null(0) - n * pl.col("len") / kept.height).abs().alias("dev")
    )
    return {
        "pool_size": pool_size,
        "models": n_models,
        "n": n,
        "threshold": res.threshold,
        "survivors": res.survivors,
        "search_s": round(t_search, 3),
        "sample_candidates": kept.height,
        "strata": full.height,
        "sample_s": round(t_sample, 3),
        "max_quota_deviation": round(float(dev["dev"].max()), 4),
        "curate_s": round(t_curate, 3),
        "selected": bench.height,
    }


def bench_evaluation(n_paradigms: int, n_models: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    bench = pl.concat([synthetic_pool(1000, f"PARA{p:02d}", rng) for p in range(n_paradigms)])
    sentences = pl.concat([bench["source_sentence"], bench["target_sentence"]])
    base = rng.normal(-40.0, 8.0, bench.height)
    scores = {}
    for j in range(n_models):
        good = base + rng.normal(0.0, 1.0, bench.height)
        bad = base - 0.3 * (j + 1) + rng.normal(0.0, 1.5, bench.height)
        lengths = rng.integers(8, 40, 2 * bench.height)
        scores[f"lm{j}"] = pl.DataFrame({"sentence": sentences, "sum_logprob": np.concatenate([good, bad]), "n_tokens": lengths})
    pairs, t_eval = _timed(lambda: evaluate_models(bench, scores))
    agg, t_agg = _timed(lambda: aggregate(pairs))
    with tempfile.TemporaryDirectory() as tmp:
        _, t_report = _timed(lambda: write_report(pairs, None, Path(tmp) / "report"))
    return {
        "pairs": bench.height,
        "models": n_models,
        "evaluate_s": round(t_eval, 3),
        "aggregate_s": round(t_agg, 3),
        "report_s": round(t_report, 3),
        "mean_accuracy": round(float(agg["accuracy_sum"].mean()), 4),
    }


def gsd_length_bins() -> dict:
    import conllu

    lengths = {"words": [], "words_no_punct": []}
    for path in sorted(GSD_DIR.glob("*.conllu")):
        with open(path, encoding="utf-8") as fh:
            for sent in conllu.parse_incr(fh):
                words = [t for t in sent if isinstance(t["id"], int)]
                lengths["words"].append(len(words))
                lengths["words_no_punct"].append(sum(t["upos"] != "PUNCT" for t in words))
    out = {}
    for kind, values in lengths.items():
        binned = assign_length_bins(pl.DataFrame({"n_tokens": values}))
        share = binned.group_by("length_bin").len().with_columns((pl.col("len") / binned.height).round(4))
        out[kind] = {"sentences": binned.height, **dict(sorted(share.select("length_bin", "len").iter_rows()))}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pool-size", type=int, default=100_000)
    ap.add_argument("--models", type=int, default=25)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--paradigms", type=int, default=45)
    ap.add_argument("--eval-models", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    result = {"curation": bench_curation(args.pool_size, args.models, args.n, args.seed)}
    print("curation:", json.dumps(result["curation"], ensure_ascii=False))
    result["evaluation"] = bench_evaluation(args.paradigms, args.eval_models, args.seed)
    print("evaluation:", json.dumps(result["evaluation"], ensure_ascii=False))
    if GSD_DIR.is_dir():
        result["gsd_length_bins"] = gsd_length_bins()
        print(f"GSD length bins (edges {list(DEFAULT_LENGTH_BINS)}):")
        for kind, shares in result["gsd_length_bins"].items():
            print(f"  {kind}: {json.dumps(shares, ensure_ascii=False)}")
    if args.json:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
