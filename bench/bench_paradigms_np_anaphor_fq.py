"""Measure the anaphor, noun-phrase and floating-quantifier agreement paradigms (8 paradigms).

Usage (from the repository root, with the virtualenv active)::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python bench/bench_paradigms_np_anaphor_fq.py \\
        [--gsd-dir DIR] [--cache DIR] [--sample 20] [--sample-from parsed+demo] [--seed 0] [--json out.json]

Per paradigm it prints

* pairs per 1,000 sentences, and sentences with at least one pair per 1,000
  (a pool keeps one pair per sentence), on UD Russian-GSD dev+test gold trees
  (``read_conllu``) and on the same sentences re-parsed from their ``# text``
  with the default parser (``rublimp.parse.parse_texts``), and on the bundled
  demo corpus (parsed);
* perturbation speed: sentences/s of ``Paradigm.pairs`` over the re-parsed GSD
  sentences (best of ``--repeat`` runs, warm pymorphy3 caches);
* ``--sample`` pairs per paradigm drawn with ``random.Random(f"{seed}:{name}")``
  from ``--sample-from`` (``gold``, ``parsed``, ``demo`` or ``parsed+demo``), for
  reading by hand.

``--cache DIR`` keeps the parsed GSD and demo sentences as CoNLL-U files there.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rublimp.conllu_doc import Sentence, read_conllu, write_conllu
from rublimp.io import write_json_atomic
from rublimp.paradigms import get_paradigm
from rublimp.parse import parse_texts

NAMES = (
    "anaphor_agreement_number",
    "anaphor_agreement_gender",
    "np_agreement_number",
    "np_agreement_gender",
    "np_agreement_case",
    "floating_quantifier_agreement_number",
    "floating_quantifier_agreement_gender",
    "floating_quantifier_agreement_case",
)
GSD_DIR = Path("/work/shared/data/ud_russian_gsd")
DEMO_DIR = Path(__file__).resolve().parents[1] / "resources" / "demo_corpus"


def read_gold(gsd_dir: Path) -> list[Sentence]:
    return [s for name in ("ru_gsd-ud-dev.conllu", "ru_gsd-ud-test.conllu") for s in read_conllu(gsd_dir / name)]


def demo_items(demo_dir: Path = DEMO_DIR) -> list[tuple[str, str, str]]:
    """``(sent_id, text, domain)`` for every sentence line of the demo corpus files."""
    items = []
    for path in sorted(demo_dir.glob("*.txt")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = line.strip()
            if line and not line.startswith("#"):
                items.append((f"{path.name}:{lineno}", line, path.stem))
    return items


def parse_cached(items: list[tuple[str, str, str]], cache: Path | None) -> list[Sentence]:
    """Parse the items, reusing ``cache`` when it holds exactly the same sentence ids and texts."""
    if cache is not None and cache.exists():
        sents = list(read_conllu(cache))
        if [(s.sent_id, s.text) for s in sents] == [(i[0], i[1]) for i in items]:
            return sents
    sents = list(parse_texts(items, progress=sys.stderr.isatty()))
    if cache is not None:
        write_conllu(sents, cache)
    return sents


def count(paradigm, sents: list[Sentence]) -> tuple[int, int]:
    """(pairs, sentences with at least one pair)."""
    pairs = rows = 0
    for s in sents:
        n = sum(1 for _ in paradigm.pairs(s))
        pairs += n
        rows += n > 0
    return pairs, rows


def speed(paradigm, sents: list[Sentence], repeat: int) -> float:
    """Sentences per second of ``paradigm.pairs`` (best of ``repeat`` runs)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for s in sents:
            for _ in paradigm.pairs(s):
                pass
        best = min(best, time.perf_counter() - t0)
    return len(sents) / best if best > 0 else float("inf")


def per_1k(n: int, total: int) -> float:
    return round(1000 * n / total, 1) if total else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd-dir", type=Path, default=GSD_DIR)
    ap.add_argument("--cache", type=Path, default=None, help="directory for the parsed GSD/demo CoNLL-U files")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--sample-from", choices=("gold", "parsed", "demo", "parsed+demo"), default="parsed+demo")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--paradigms", nargs="*", default=list(NAMES))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    gold = read_gold(args.gsd_dir)
    parsed = parse_cached([(s.sent_id, s.text, "gsd") for s in gold], args.cache and args.cache / "gsd_parsed.conllu")
    demo = parse_cached(demo_items(), args.cache and args.cache / "demo_parsed.conllu")
    sets = {"gold": gold, "parsed": parsed, "demo": demo, "parsed+demo": parsed + demo}

    results: dict[str, dict] = {}
    print(f"GSD dev+test: {len(gold)} sentences; demo corpus: {len(demo)} sentences")
    header = f"{'paradigm':<38} {'gold p/1k':>9} {'gold s/1k':>9} {'parsed p/1k':>11} {'parsed s/1k':>11} {'demo pairs':>10} {'sent/s':>8}"
    print(header)
    for name in args.paradigms:
        p = get_paradigm(name)
        g_pairs, g_rows = count(p, gold)
        p_pairs, p_rows = count(p, parsed)
        d_pairs, d_rows = count(p, demo)
        r = {
            "gold_pairs_per_1k": per_1k(g_pairs, len(gold)),
            "gold_sentences_per_1k": per_1k(g_rows, len(gold)),
            "parsed_pairs_per_1k": per_1k(p_pairs, len(parsed)),
            "parsed_sentences_per_1k": per_1k(p_rows, len(parsed)),
            "demo_pairs": d_pairs,
            "demo_sentences": d_rows,
            "sentences_per_s": round(speed(p, parsed, args.repeat), 1),
        }
        results[name] = r
        print(f"{name:<38} {r['gold_pairs_per_1k']:>9} {r['gold_sentences_per_1k']:>9} {r['parsed_pairs_per_1k']:>11} "
              f"{r['parsed_sentences_per_1k']:>11} {d_pairs:>10} {r['sentences_per_s']:>8}")

    if args.sample:
        pool = sets[args.sample_from]
        for name in args.paradigms:
            p = get_paradigm(name)
            found = [(s, bad, pert) for s in pool for bad, pert in p.pairs(s)]
            rng = random.Random(f"{args.seed}:{name}")
            picked = rng.sample(found, min(args.sample, len(found)))
            print(f"\n== {name}: {len(picked)} of {len(found)} pairs ({args.sample_from})")
            for k, (s, bad, pert) in enumerate(picked, start=1):
                src = " ".join(s.token(e.token_id).form for e in pert.edits)
                tgt = " ".join(e.new_form for e in pert.edits)
                print(f"{k:>2}. [{pert.subtype}] {src} → {tgt} ({pert.feature}: {pert.source_value}→{pert.target_value}) {s.sent_id}")
                print(f"    + {s.text}")
                print(f"    - {bad}")
            results[name]["sample"] = [
                {"sent_id": s.sent_id, "good": s.text, "bad": bad, "subtype": pert.subtype,
                 "source_value": pert.source_value, "target_value": pert.target_value}
                for s, bad, pert in picked
            ]
    if args.json is not None:
        write_json_atomic(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
