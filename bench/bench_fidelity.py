"""Fidelity to RuBLiMP: coverage, same word and same pair of every paradigm on RuBLiMP's own sentences.

    OPENBLAS_NUM_THREADS=1 python bench/bench_fidelity.py --rublimp-dir /work/shared/data/rublimp_dev \\
        [--paradigms p1,p2] [--sample 5] [--seed 0] [--json out.json] [--config config/config.yaml] \\
        [--cache-dir .cache/fidelity] [--no-samples]

Reads RuBLiMP-format CSVs (``source_sentence, target_sentence, source_word,
target_word, PID, …``), parses the source sentences with the configured parser
(``parse.backend`` of ``--config``; slovnet by default; trees cached under
``--cache-dir`` by parser, parser-code hash and sentence text), runs each row's
paradigm and prints per paradigm and per group (subject–predicate agreement;
other syntax; morphology + semantics — from the paradigm registry):

* coverage: the paradigm makes at least one pair for the sentence;
* same word: some pair edits the word RuBLiMP edited;
* same pair: some pair's ungrammatical sentence equals RuBLiMP's
  (ё→е, case and spacing around punctuation normalised).

Then a seeded sample of misses (no pair: RuBLiMP's pair shown) and mismatches
(RuBLiMP's pair next to ours) per paradigm. See :mod:`rublimp.fidelity`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]


def _config(path: str | None) -> tuple[str, dict, dict]:
    """(parser backend, backend options, perturb options) from a pipeline config (defaults without one)."""
    if path is None:
        return "slovnet", {}, {}
    import yaml

    from rublimp.io import InputError

    p = Path(path)
    if not p.exists():
        raise InputError("config file not found", p)
    cfg = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    parse = cfg.get("parse") or {}
    backend = parse.get("backend", "slovnet")
    opts = {}
    if backend == "stanza":
        st = parse.get("stanza") or {}
        opts = {k: v for k, v in st.items() if k in ("use_gpu", "model_dir", "package") and v is not None}
    options = (cfg.get("perturb") or {}).get("options") or {}
    return backend, opts, dict(options)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rublimp-dir", required=True, help="folder of RuBLiMP-format CSVs")
    ap.add_argument("--paradigms", default="", help="comma-separated paradigm names (default: every PID found)")
    ap.add_argument("--sample", type=int, default=3, help="misses and mismatches shown per paradigm (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write all numbers and the samples to this JSON file")
    ap.add_argument("--config", help="pipeline config: parse.backend and perturb.options are used")
    ap.add_argument("--cache-dir", default=str(ROOT / ".cache" / "fidelity"), help="parsed-tree cache ('' for none)")
    args = ap.parse_args(argv)

    from rublimp import fidelity
    from rublimp.io import InputError, write_json_atomic

    try:
        wanted = [p.strip() for p in args.paradigms.split(",") if p.strip()] or None
        if wanted:
            from rublimp.perturb import resolve_paradigms

            wanted = resolve_paradigms(wanted)
        backend, backend_opts, options = _config(args.config)
        rows = fidelity.read_rublimp_dir(args.rublimp_dir, wanted)
        if not rows:
            raise InputError("no rows for the chosen paradigms", args.rublimp_dir)
        cache = fidelity.ParseCache(args.cache_dir or None, backend, **backend_opts)
        t0 = time.perf_counter()
        n_cached = len(cache)
        results = fidelity.evaluate(rows, cache, options=options, progress=sys.stderr.isatty())
        dt = time.perf_counter() - t0
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    summary = fidelity.summarise(results)
    print(f"{len(rows)} RuBLiMP rows, {len(summary['paradigms'])} paradigms; parser {backend} "
          f"(code {fidelity.parser_code_hash()}), {n_cached} trees cached before; {dt:.1f}s")
    print(fidelity.format_table(summary))
    samples = fidelity.sample_failures(results, args.sample, args.seed) if args.sample > 0 else {}
    if samples:
        print(f"\n# samples (seed {args.seed}): MISS = no pair; WORD = same word, other pair; OTHER = another word."
              "  + source, R- RuBLiMP's, O- ours")
        fidelity.format_samples(samples)
    if args.json:
        write_json_atomic(args.json, fidelity.results_json(results, summary, samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
