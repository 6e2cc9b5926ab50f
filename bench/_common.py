"""Pieces shared by the ``bench_paradigms_*.py`` scripts.

Import from a bench script with::

    sys.path.insert(0, str(Path(__file__).parent))
    from _common import ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

from rublimp.conllu_doc import Sentence, read_conllu, write_conllu
from rublimp.paradigms.base import RESOURCES_DIR

GSD_DIR = Path("/work/shared/data/ud_russian_gsd")
GSD_FILES = ("ru_gsd-ud-dev.conllu", "ru_gsd-ud-test.conllu")
DEMO_DIR = RESOURCES_DIR / "demo_corpus"


def read_gold(gsd_dir: Path) -> list[Sentence]:
    """The GSD dev + test gold trees, in that order."""
    out: list[Sentence] = []
    for name in GSD_FILES:
        out.extend(read_conllu(gsd_dir / name))
    return out


def demo_items(demo_dir: Path = DEMO_DIR, *, domain_comments: bool = True) -> list[tuple[str, str, str]]:
    """``(sent_id, text, domain)`` for every sentence line of the demo corpus files.

    The domain is the file's stem; with ``domain_comments`` a ``# domain: X`` line
    sets it to ``X`` for the lines after it.
    """
    items = []
    for path in sorted(demo_dir.glob("*.txt")):
        domain = path.stem
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if domain_comments and line.startswith("# domain:"):
                domain = line.split(":", 1)[1].strip()
            elif line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, domain))
    return items


def parse_cached(
    items: list[tuple[str, str, str]],
    cache: Path | None,
    *,
    match_text: bool = True,
    make_parent: bool = True,
) -> list[Sentence]:
    """Parse ``(sent_id, text, domain)`` items, reusing ``cache`` when it holds the same sentences.

    The cache is reused when its sentence ids (and, with ``match_text``, texts)
    equal the items'; otherwise the items are parsed and written to it (its
    folder created first with ``make_parent``).
    """
    from rublimp.parse import parse_texts

    if cache is not None and cache.exists():
        sents = list(read_conllu(cache))
        if match_text:
            same = [(s.sent_id, s.text) for s in sents] == [(i[0], i[1]) for i in items]
        else:
            same = [s.sent_id for s in sents] == [i[0] for i in items]
        if same:
            return sents
    sents = list(parse_texts(items, progress=sys.stderr.isatty()))
    if cache is not None:
        if make_parent:
            cache.parent.mkdir(parents=True, exist_ok=True)
        write_conllu(sents, cache)
    return sents


def reparse(gold: list[Sentence]) -> list[Sentence]:
    """``gold`` re-parsed from its ``# text`` by the default parser (domain ``gsd``)."""
    from rublimp.parse import parse_texts

    return list(parse_texts([(s.sent_id, s.text, "gsd") for s in gold]))


def all_pairs(paradigm, sents: list[Sentence]) -> list[tuple[Sentence, str, object]]:
    """Every ``(sentence, bad, perturbation)`` of ``paradigm`` on ``sents``."""
    return [(s, bad, pert) for s in sents for bad, pert in paradigm.pairs(s)]


def count(paradigm, sents: list[Sentence]) -> tuple[int, int]:
    """(pairs, sentences with at least one pair)."""
    pairs = rows = 0
    for s in sents:
        n = sum(1 for _ in paradigm.pairs(s))
        pairs += n
        rows += n > 0
    return pairs, rows


def speed(paradigm, sents: list[Sentence], repeat: int, before: Callable[[], None] | None = None) -> float:
    """Sentences per second through ``paradigm.pairs``, best of ``repeat`` runs (the machine may be shared).

    ``before``, where given, is called before each timed run (e.g. to empty caches).
    """
    best = float("inf")
    for _ in range(repeat):
        if before is not None:
            before()
        t0 = time.perf_counter()
        for s in sents:
            for _ in paradigm.pairs(s):
                pass
        best = min(best, time.perf_counter() - t0)
    return len(sents) / best if best > 0 else float("inf")


def per_1k(n: int, total: int, ndigits: int = 1) -> float:
    """``n`` per 1,000 of ``total``, rounded to ``ndigits``."""
    return round(1000 * n / total, ndigits)


def seeded_sample(pool: list, k: int, seed: int, name: str) -> list:
    """Up to ``k`` items of ``pool`` drawn with ``random.Random(f"{seed}:{name}")``."""
    rng = random.Random(f"{seed}:{name}")
    return rng.sample(pool, min(k, len(pool)))


def edit_forms(s: Sentence, pert) -> tuple[str, str]:
    """The forms the perturbation's edits replace, and their new forms, each joined by spaces."""
    src = " ".join(s.token(e.token_id).form for e in pert.edits)
    tgt = " ".join(e.new_form for e in pert.edits)
    return src, tgt


def measure_sets(paradigm, sets: dict[str, list[Sentence]], repeat: int) -> tuple[dict[str, list], dict]:
    """Pairs of ``paradigm`` on the ``gold``/``parsed``/``demo`` sets, and their per-1k table row.

    ``sets["all"]`` (parsed + demo) is not searched again: its pairs are the
    parsed and demo ones; the speed is measured over it.
    """
    found = {k: all_pairs(paradigm, v) for k, v in sets.items() if k != "all"}
    found["all"] = found["parsed"] + found["demo"]
    row = {
        "gold_pairs_per_1k": per_1k(len(found["gold"]), len(sets["gold"]), 2),
        "parsed_pairs_per_1k": per_1k(len(found["parsed"]), len(sets["parsed"]), 2),
        "demo_pairs_per_1k": per_1k(len(found["demo"]), len(sets["demo"]), 2),
        "demo_pairs": len(found["demo"]),
        "sentences_per_s": round(speed(paradigm, sets["all"], repeat), 1),
    }
    return found, row


def print_samples(found: dict[str, dict[str, list]], names: list[str], sample_from: str, k: int, seed: int,
                  results: dict[str, dict]) -> None:
    """Print ``k`` seeded pairs per paradigm from ``found[name][sample_from]`` and keep them in ``results``."""
    for name in names:
        pool = found[name][sample_from]
        picked = seeded_sample(pool, k, seed, name)
        print(f"\n== {name}: {len(picked)} of {len(pool)} pairs ({sample_from})")
        for i, (s, bad, pert) in enumerate(picked, start=1):
            print(f"{i:>2}. [{pert.subtype}] {pert.feature}: {pert.source_value} → {pert.target_value}  ({s.sent_id})")
            print(f"    + {s.text}")
            print(f"    - {bad}")
        results[name]["sample"] = [
            {"sent_id": s.sent_id, "good": s.text, "bad": bad, "subtype": pert.subtype} for s, bad, pert in picked
        ]


def sets_header(width: int) -> str:
    """The header of the table :func:`sets_row` prints, the paradigm column ``width`` wide."""
    return f"{'paradigm':<{width}} {'gold/1k':>8} {'parsed/1k':>9} {'demo/1k':>8} {'demo pairs':>10} {'sent/s':>8}"


def sets_row(name: str, r: dict, width: int) -> str:
    """One paradigm's row of a :func:`measure_sets` table."""
    return (f"{name:<{width}} {r['gold_pairs_per_1k']:>8} {r['parsed_pairs_per_1k']:>9} {r['demo_pairs_per_1k']:>8} "
            f"{r['demo_pairs']:>10} {r['sentences_per_s']:>8}")


def load_sets(gsd_dir: Path, cache_dir: Path | None) -> dict[str, list[Sentence]]:
    """``gold`` (GSD dev+test trees), ``parsed`` (the same re-parsed), ``demo`` (demo corpus, parsed), ``all`` (parsed + demo).

    With ``cache_dir``, the parses are kept there as ``gsd.conllu`` and ``demo.conllu``.
    """
    gold = read_gold(gsd_dir)
    cache = cache_dir
    parsed = parse_cached([(s.sent_id, s.text, "gsd") for s in gold], None if cache is None else cache / "gsd.conllu")
    demo = parse_cached(demo_items(), None if cache is None else cache / "demo.conllu")
    return {"gold": gold, "parsed": parsed, "demo": demo, "all": parsed + demo}


def sets_bench_main(
    names: tuple[str, ...],
    description: str,
    width: int,
    argv: list[str] | None = None,
    *,
    add_arguments=None,
    row_extra=None,
    after=None,
) -> int:
    """The command line of a ``bench_paradigms_*.py`` script that measures ``names`` on GSD and the demo corpus.

    Optional hooks for a script that prints more: ``add_arguments(parser)`` adds its options,
    ``row_extra(found_sets) -> dict`` adds keys to a paradigm's results (before its row is
    printed), and ``after(args, results)`` prints what follows the samples (it may add to
    ``results`` before the JSON is written).
    """
    import argparse

    from rublimp.io import write_json_atomic
    from rublimp.paradigms import get_paradigm

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo", "all"), default="all")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(names))
    ap.add_argument("--json", type=Path, default=None)
    if add_arguments is not None:
        add_arguments(ap)
    args = ap.parse_args(argv)

    sets = load_sets(args.gsd_dir, args.cache_dir)
    print(f"GSD dev+test: {len(sets['gold'])} sentences; demo corpus: {len(sets['demo'])} sentences")
    print(sets_header(width))
    results: dict[str, dict] = {}
    found: dict[str, dict[str, list]] = {}
    for name in args.paradigms:
        found[name], core = measure_sets(get_paradigm(name), sets, args.repeat)
        results[name] = {**row_extra(found[name]), **core} if row_extra is not None else core
        print(sets_row(name, results[name], width))

    if args.sample:
        print_samples(found, args.paradigms, args.sample_from, args.sample, args.seed, results)
    if after is not None:
        after(args, results)
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0
