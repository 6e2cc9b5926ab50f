"""Command line: run single stages on given files with the code the Snakemake rules use.

    python -m rublimp parse --input sentences.txt --output x.conllu [--filter] [--max-chars N] [--max-tokens N]
    python -m rublimp perturb --paradigm noun_subj_predicate_agreement_number --input x.conllu --output pairs.parquet
    python -m rublimp score --model PATH_OR_ID --input sentences.txt --output scores.parquet
    python -m rublimp paradigms
    python -m rublimp validation export --benchmark results/benchmark/*.parquet --output-dir validation/
    python -m rublimp validation import --annotations labels.tsv --pools results/pools/*.parquet --output-dir validation/
    python -m rublimp acceptability --model PATH_OR_ID --input items.csv    # RuCoLA-style: sentence,acceptable
    python -m rublimp export --benchmark results/benchmark --hf out/hf --lm-eval out/lm_eval

Input is bounded and validated: UTF-8 errors name the file and line, CoNLL-U
trees must be single-rooted and acyclic, an input without sentences is an
error unless --allow-empty, and over-long lines are skipped, not parsed.
Outputs are written atomically: a failed command leaves no partial file and
keeps the previous output. Exit status 2 on bad input, with one line naming the
file (and line) or option; output cut short by its reader (`... | head`) ends quietly.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from .runtime import limit_threads, setup_logging


def _read_lines(path: str) -> list[str]:
    from .io import InputError, find_control_char, iter_text_lines

    p = Path(path)
    lines = []
    for lineno, raw in enumerate(iter_text_lines(p), start=1):
        line = raw.strip()
        if line:
            control = find_control_char(line)
            if control is not None:
                raise InputError(control, p, lineno)
            lines.append(line)
    if not lines:
        raise InputError("input file has no sentences", p)
    return lines


def _limit(value: int) -> int | None:
    return None if value == 0 else value


def cmd_parse(args: argparse.Namespace) -> None:
    from .parse import SkipReport, parse_file

    sentence_filter = None
    if args.filter:
        from .corpus import check_sentence

        sentence_filter = check_sentence
    skipped = SkipReport()
    n = parse_file(
        args.input, args.output, backend=args.backend, batch_size=args.batch_size, progress=True,
        max_chars=_limit(args.max_chars), max_tokens=_limit(args.max_tokens),
        sentence_filter=sentence_filter, skipped=skipped, allow_empty=args.allow_empty,
    )
    print(f"{n} sentences parsed -> {args.output}; {skipped.summary('line')}", file=sys.stderr)


def cmd_perturb(args: argparse.Namespace) -> None:
    import polars as pl

    from .conllu_doc import read_conllu
    from .io import InputError, write_parquet_atomic
    from .paradigms import ParadigmContext
    from .perturb import build_pools, resolve_paradigms

    names = resolve_paradigms(args.paradigm.split(","), config_key="--paradigm")
    agreement = None
    if args.verdicts:
        from .agreement_validation import load_verdicts

        agreement = load_verdicts(args.verdicts)
    sents = list(read_conllu(args.input))
    if not sents and not args.allow_empty:
        raise InputError("no sentences in the CoNLL-U input; use --allow-empty for an empty output", args.input)
    ctx = ParadigmContext(seed=args.seed, agreement=agreement)
    pools = build_pools(
        sents, names, ctx=ctx, cap=args.pool_cap, seed=args.seed, pairs_per_sentence=args.pairs_per_sentence,
    )
    df = pl.concat([pools[n] for n in names])
    write_parquet_atomic(df, args.output)
    for line in ctx.self_check_stats.lines():
        print(line, file=sys.stderr)
    print(f"{df.height} pairs from {len(sents)} sentences -> {args.output}", file=sys.stderr)


def cmd_score(args: argparse.Namespace) -> None:
    from .io import write_parquet_atomic
    from .scoring import make_scorer

    sentences = _read_lines(args.input)
    scorer = make_scorer(
        args.backend, args.model, device=args.device, dtype=args.dtype, batch_tokens=args.batch_tokens,
        num_threads=args.threads,
    )
    ks = [int(k) for k in args.ks.split(",")]
    df = scorer.score(sentences, ks=ks, per_token=args.per_token)
    write_parquet_atomic(df, args.output)
    print(f"{df.height} sentences scored -> {args.output}", file=sys.stderr)


def cmd_paradigms(args: argparse.Namespace) -> None:
    from .paradigms import REGISTRY, paradigm_names

    for n in paradigm_names():
        cls = REGISTRY[n]
        print(f"{n}\t{cls.phenomenon}\t{cls.level}")


def _parquet_files(paths: list[str], option: str) -> list[Path]:
    """The Parquet files ``option`` names: each file as given, a folder's ``*.parquet`` files.

    Any other file (a benchmark folder's ``.csv`` beside its ``.parquet``, say) or an unreadable
    one is an :class:`InputError` naming it, before any is read.
    """
    import polars as pl

    from .io import InputError

    files: list[Path] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            found = sorted(p.glob("*.parquet"))
            if not found:
                raise InputError(f"{option}: the folder holds no .parquet files", p)
            files += found
        elif not p.exists():
            raise InputError(f"{option}: no such file or folder", p)
        elif p.suffix != ".parquet":
            raise InputError(f"{option}: not a .parquet file (give the .parquet files or their folder)", p)
        else:
            files.append(p)
    for p in files:
        try:
            pl.read_parquet_schema(p)
        except Exception as exc:  # polars raises several types for a file that is not Parquet
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise InputError(f"{option}: not a readable Parquet file ({reason})", p) from None
    return files


def cmd_validation(args: argparse.Namespace) -> None:
    from .io import InputError
    from .validation import export_stage, validation_import_stage

    if args.action == "export":
        if not args.benchmark:
            raise InputError("--benchmark is required (the benchmark's .parquet files or their folder)")
        args.benchmark = _parquet_files(args.benchmark, "--benchmark")
        info = export_stage(args.benchmark, args.output_dir, per_paradigm=args.per_paradigm,
                            duplicate_fraction=args.duplicate_fraction, seed=args.seed)
        print(f"{info['items']} items ({info['pairs']} pairs, {info['duplicates']} duplicates, {info['controls']} "
              f"controls) -> {args.output_dir}", file=sys.stderr)
    else:
        if not args.annotations or not args.pools:
            raise InputError("--annotations and --pools are required")
        args.pools = _parquet_files(args.pools, "--pools")
        s = validation_import_stage(args.annotations, args.pools, args.output_dir, seed=args.seed,
                                    min_control_accuracy=args.min_control_accuracy,
                                    allow_single_annotator=args.allow_single_annotator)
        print(f"{s['valid']}/{s['pairs']} pairs valid, Krippendorff alpha {s['krippendorff_alpha']} "
              f"(95% CI {s['krippendorff_alpha_ci'][0]} to {s['krippendorff_alpha_ci'][1]}), "
              f"{s['drop']} to drop, flagged workers: {', '.join(s['flagged_workers']) or 'none'} -> {args.output_dir}",
              file=sys.stderr)


def cmd_acceptability(args: argparse.Namespace) -> None:
    import polars as pl

    from .acceptability import score_csv, skipped_lines
    from .io import write_csv_atomic

    spec = {"name": args.model, "backend": args.backend, "path": args.model, "device": args.device,
            "dtype": args.dtype, "batch_tokens": args.batch_tokens}
    items, table = score_csv(args.input, spec, counts=args.counts, corpus=args.corpus, dev_csv=args.dev,
                             alpha=args.penlp_alpha, dev_fraction=args.dev_fraction, n_boot=args.bootstrap,
                             seed=args.seed, threads=args.threads)
    if args.output:
        write_csv_atomic(table, args.output)
    if args.items_output:
        write_csv_atomic(items, args.items_output)
    skipped = items.filter(pl.col("skipped").is_not_null())
    if skipped.height:
        print(f"{skipped.height} of {items.height} item(s) skipped, longer than the model's context "
              f"({skipped_lines(skipped)}; see --items-output)", file=sys.stderr)
    for r in table.iter_rows(named=True):
        if r.get("threshold") is None:
            print(f"{r['measure']}\tno threshold (needs labelled dev items and test items)")
        elif r.get("test_mcc") is None:
            print(f"{r['measure']}\tthreshold={r['threshold']:.4f}\tdev MCC={r['dev_mcc']:.3f}\t"
                  f"{r['n_unlabelled']} unlabelled item(s): predictions pred_{r['measure']} in --items-output")
        else:
            print(f"{r['measure']}\tthreshold={r['threshold']:.4f}\ttest MCC={r['test_mcc']:.3f} "
                  f"[{r['mcc_ci_low']:.3f}, {r['mcc_ci_high']:.3f}]\taccuracy={r['test_accuracy']:.3f}")
def cmd_export(args: argparse.Namespace) -> None:
    from .export import export_folder

    res = export_folder(args.benchmark, args.hf, args.lm_eval, curation_dir=args.curation, config=args.config,
                        data_ref=args.data_ref)
    # a paradigm with 0 pairs is reported by the export's warning (logged to stderr)
    print(f"{sum(res.pairs.values())} pairs in {len(res.pairs)} paradigm(s) -> {args.hf}, {args.lm_eval}", file=sys.stderr)


def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


# the parse module's defaults, without importing it (and numpy) for --help
DEFAULT_MAX_CHARS = 2000
DEFAULT_MAX_TOKENS = 250


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="rublimp", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help="one segmented sentence per line -> CoNLL-U (# sent_id = line number)")
    p.add_argument("--input", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--backend", default="slovnet", choices=["slovnet", "stanza"])
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--max-chars", type=_nonneg, default=DEFAULT_MAX_CHARS,
                   help="skip (and count) lines longer than this many characters; 0: no bound (default %(default)s)")
    p.add_argument("--max-tokens", type=_nonneg, default=DEFAULT_MAX_TOKENS,
                   help="skip (and count) lines of more razdel tokens than this; 0: no bound (default %(default)s)")
    p.add_argument("--filter", action="store_true",
                   help="skip lines rejected by the corpus stage's sentence filters (rublimp.corpus.FILTERS, default "
                        "thresholds: 6-50 tokens; markup, hashtags, emoji, glued or unpunctuated text, word salad, ...)")
    p.add_argument("--allow-empty", action="store_true", help="write an empty output instead of failing on empty input")
    p.set_defaults(func=cmd_parse)

    p = sub.add_parser("perturb", help="CoNLL-U -> minimal pairs (Parquet)")
    p.add_argument("--paradigm", required=True, help="a paradigm name, several separated by commas, or 'all'")
    p.add_argument("--input", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--verdicts", help="agreement verdicts Parquet from the validate_agreement stage")
    p.add_argument("--pool-cap", type=int, default=350_000)
    p.add_argument("--pairs-per-sentence", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--allow-empty", action="store_true", help="write an empty output instead of failing on empty input")
    p.set_defaults(func=cmd_perturb)

    p = sub.add_parser("score", help="one sentence per line -> log-probs and Min-K%% (Parquet)")
    p.add_argument("--model", required=True, help="local model directory or hub id")
    p.add_argument("--input", required=True)
    p.add_argument("--output", required=True)
    p.add_argument("--backend", default="hf")
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--batch-tokens", type=int, default=None, help="tokens per forward pass (default: per device)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--ks", default="30,40,50,60")
    p.add_argument("--per-token", action="store_true")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("validation", help="human validation: export annotation tasks / import and aggregate labels")
    p.add_argument("action", choices=["export", "import"])
    p.add_argument("--benchmark", nargs="+", help="export: benchmark Parquet files, or their folder (results/benchmark)")
    p.add_argument("--annotations", help="import: a TSV (item_id, worker_id, label) or a Label Studio JSON export")
    p.add_argument("--pools", nargs="+", help="import: the pool Parquet files, or their folder (item ids are resolved against them)")
    p.add_argument("--output-dir", required=True)
    p.add_argument("--per-paradigm", type=int, default=50)
    p.add_argument("--duplicate-fraction", type=float, default=0.1)
    p.add_argument("--min-control-accuracy", type=float, default=0.7)
    p.add_argument("--allow-single-annotator", action="store_true",
                   help="import: accept pairs dropped on the label of fewer than two included annotators")
    p.add_argument("--seed", type=int, default=0, help="the seed of the export (item ids depend on it)")
    p.set_defaults(func=cmd_validation)

    p = sub.add_parser("acceptability", help="RuCoLA-style CSV (sentence, acceptable) -> PenLP/SLOR thresholds, MCC")
    p.add_argument("--model", required=True, help="local model directory or hub id")
    p.add_argument("--input", required=True, help="CSV with columns sentence and acceptable (0/1); without "
                   "acceptable (RuCoLA's test set) the items get predictions from the --dev thresholds")
    p.add_argument("--dev", help="a dev CSV for the thresholds (default: a seeded half of --input)")
    p.add_argument("--counts", help="unigram counts Parquet (results/acceptability/<model>/unigram_counts.parquet)")
    p.add_argument("--corpus", help="corpus for unigram counts: sentences Parquet (text column) or one per line")
    p.add_argument("--output", help="results CSV (one row per measure)")
    p.add_argument("--items-output", help="per-sentence scores CSV")
    p.add_argument("--backend", default="hf", choices=["hf", "hf-mlm", "vllm"])
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--batch-tokens", type=int, default=4096)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--penlp-alpha", type=float, default=1.0)
    p.add_argument("--dev-fraction", type=float, default=0.5)
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_acceptability)

    p = sub.add_parser("paradigms", help="list the registered paradigms")
    p.set_defaults(func=cmd_paradigms)

    p = sub.add_parser("export", help="benchmark folder -> Hugging Face dataset folder + lm-eval tasks")
    p.add_argument("--benchmark", required=True, help="folder of <paradigm>.parquet files (results/benchmark)")
    p.add_argument("--curation", help="folder of <paradigm>.json curation reports (results/curation), for the card")
    p.add_argument("--config", help="the pipeline config the benchmark was built with, for the card")
    p.add_argument("--hf", required=True, help="output folder of the Hugging Face dataset")
    p.add_argument("--lm-eval", required=True, help="output folder of the lm-evaluation-harness tasks")
    p.add_argument("--data-ref", help="where the lm-eval tasks find the --hf folder: relative to the --lm-eval folder, "
                                        "or absolute (default: the relative path between the two)")
    p.set_defaults(func=cmd_export)
    return ap


def _terminate(signum, frame):  # noqa: ARG001
    # SIGTERM (scheduler, timeout) unwinds like Ctrl-C, so atomic writes remove their temporary file
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    limit_threads(1)
    from .io import InputError

    args = build_parser().parse_args(argv)
    setup_logging()
    signal.signal(signal.SIGTERM, _terminate)
    try:
        args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except InputError as exc:
        print(f"rublimp {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped early (`python -m rublimp paradigms | head`): what it wanted is
        # written, so end quietly, like other command-line tools; stdout goes to /dev/null so
        # that Python's own flush at exit does not fail on the closed pipe again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
