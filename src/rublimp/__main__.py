"""Command line: run single stages on given files with the code the Snakemake rules use.

    python -m rublimp parse --input sentences.txt --output x.conllu [--filter] [--max-chars N] [--max-tokens N]
    python -m rublimp perturb --paradigm noun_subj_predicate_agreement_number --input x.conllu --output pairs.parquet
    python -m rublimp score --model PATH_OR_ID --input sentences.txt --output scores.parquet
    python -m rublimp paradigms

Input is bounded and validated: UTF-8 errors name the file and line, CoNLL-U
trees must be single-rooted and acyclic, an input without sentences is an
error unless --allow-empty, and over-long lines are skipped, not parsed.
Outputs are written atomically: a failed command leaves no partial file and
keeps the previous output. Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from .runtime import limit_threads, setup_logging


def _read_lines(path: str) -> list[str]:
    from .io import InputError, iter_text_lines

    p = Path(path)
    lines = [l.strip() for l in iter_text_lines(p)]
    lines = [l for l in lines if l]
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
        from .agreement import load_verdicts

        agreement = load_verdicts(args.verdicts)
    sents = list(read_conllu(args.input))
    if not sents and not args.allow_empty:
        raise InputError("no sentences in the CoNLL-U input; use --allow-empty for an empty output", args.input)
    pools = build_pools(
        sents, names, ctx=ParadigmContext(seed=args.seed, agreement=agreement), cap=args.pool_cap,
        seed=args.seed, pairs_per_sentence=args.pairs_per_sentence,
    )
    df = pl.concat([pools[n] for n in names])
    write_parquet_atomic(df, args.output)
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
    p.add_argument("--batch-tokens", type=int, default=4096)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--ks", default="30,40,50,60")
    p.add_argument("--per-token", action="store_true")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("paradigms", help="list the registered paradigms")
    p.set_defaults(func=cmd_paradigms)
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
    except InputError as exc:
        print(f"rublimp {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
