"""The corpus sentence filter as a classifier: precision and recall of "drop" on hand-labelled lines.

Usage (repository root, virtualenv active)::

    python bench/bench_filters.py [--gsd DIR] [--errors] [--counts]

Labelled lines (``bench/filter_labels/``):

* ``gsd.tsv``: UD Russian-GSD dev+test sentences judged by hand (``sent_id``, ``keep``/``drop``,
  the reason of a drop). Their text is read here from ``DIR/*.conllu`` (default: the first
  ``shared/data/ud_russian_gsd`` found in, beside or above the checkout; the ``# text`` comment); the project stores no treebank text.
* ``written.tsv``: lines written for this project: good lines (Latin-script names, dotted
  brand names, quotes, numbers) and noisy ones (glued headlines, duplicated phrases, word
  salad, fragments, markup leftovers, lists, ...).

Each line goes through :func:`rublimp.corpus.check_sentence` with the default
:class:`~rublimp.corpus.FilterConfig` (the corpus stage's defaults); a line is predicted "drop"
when any filter rejects it. Printed:

* overall precision and recall of "drop", per labelled set and together, and together without the
  lines labelled ``source_error`` (the source's own agreement errors: they need the parse, and the
  source self-check of the edit engine rejects them, not this text filter);
* per filter (the first rejecting one, as counted in ``filter_stats.json``): lines dropped,
  of them labelled drop (true) and keep (false), precision; ``alone``: how many of the
  drop-labelled lines the filter rejects when run by itself, and ``recall``: that count over
  all drop-labelled lines (the filters overlap, so these do not add up);
* recall per labelled reason of a drop;
* throughput of ``check_sentence`` over the GSD sentences (sentences per second);
* ``--errors``: every misclassified line; ``--counts``: the per-filter drop counts of the demo
  corpus and of all GSD sentences through the corpus stage itself (``build_sentences``).
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from rublimp.conllu_doc import read_conllu
from rublimp.corpus import FILTER_NAMES, FILTERS, FilterConfig, build_sentences, check_sentence, tokenize_sentence

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "filter_labels"
#: where the treebank is looked for: ``shared/`` beside the checkout (or one level up, for a worktree)
#: labelled reasons of a drop that only a parse can see (the source's own agreement errors): reported apart
PARSE_REASONS = frozenset({"source_error"})
GSD_DIRS = [ROOT / "shared" / "data" / "ud_russian_gsd", *(p / "shared" / "data" / "ud_russian_gsd" for p in ROOT.parents[:2])]


def _rows(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def load_labelled(gsd_dir: Path) -> list[tuple[str, str, str, str, str]]:
    """``(set, id, label, reason, text)`` of every labelled line."""
    texts = {s.sent_id: s.text for f in sorted(gsd_dir.glob("*.conllu")) for s in read_conllu(f)}
    if not texts:
        raise SystemExit(f"no *.conllu files in {gsd_dir} (pass --gsd DIR)")
    out = []
    for row in _rows(LABELS / "gsd.tsv"):
        if row["sent_id"] not in texts:
            raise SystemExit(f"gsd.tsv: sent_id {row['sent_id']} not found in {gsd_dir}")
        out.append(("gsd", row["sent_id"], row["label"], row["reason"] or "", texts[row["sent_id"]]))
    for row in _rows(LABELS / "written.tsv"):
        out.append(("written", row["id"], row["label"], row["reason"] or "", row["text"]))
    for item in out:
        if item[2] not in ("keep", "drop"):
            raise SystemExit(f"{item[0]}: {item[1]}: label must be keep or drop, got {item[2]!r}")
    return out


def _alone(name: str, text: str, cfg: FilterConfig) -> bool:
    return FILTERS[name](text, tokenize_sentence(text), cfg)


def _pr(tp: int, fp: int, fn: int) -> str:
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    return f"precision {p:.3f} ({tp}/{tp + fp})  recall {r:.3f} ({tp}/{tp + fn})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd", default=str(next((d for d in GSD_DIRS if d.is_dir()), GSD_DIRS[0])))
    ap.add_argument("--errors", action="store_true", help="print every misclassified line")
    ap.add_argument("--counts", action="store_true", help="per-filter counts on the demo corpus and all of GSD")
    args = ap.parse_args()
    cfg = FilterConfig()
    items = load_labelled(Path(args.gsd))
    verdicts = [check_sentence(text, cfg) for *_, text in items]

    print(f"labelled lines: {len(items)} ({Counter(i[0] for i in items)}; {Counter(i[2] for i in items)})")
    for which in ("gsd", "written", None):
        tp = fp = fn = 0
        for item, v in zip(items, verdicts):
            if which is not None and item[0] != which:
                continue
            tp += item[2] == "drop" and v is not None
            fp += item[2] == "keep" and v is not None
            fn += item[2] == "drop" and v is None
        print(f"  {which or 'all':<8} drop: {_pr(tp, fp, fn)}")
    # the source's own agreement errors need the parse: the source self-check of the edit engine
    # rejects them, not the text filter; the same figures without those lines
    tp = fp = fn = 0
    for item, v in zip(items, verdicts):
        if item[3] in PARSE_REASONS:
            continue
        tp += item[2] == "drop" and v is not None
        fp += item[2] == "keep" and v is not None
        fn += item[2] == "drop" and v is None
    n_parse = sum(item[3] in PARSE_REASONS for item in items)
    print(f"  all without {'/'.join(sorted(PARSE_REASONS))} ({n_parse} lines, need the parse) drop: {_pr(tp, fp, fn)}")

    n_drop = sum(i[2] == "drop" for i in items)
    print(f"\n{'filter':<20}{'dropped':>8}{'true':>6}{'false':>6}{'precision':>10}{'alone':>7}{'recall':>8}")
    for name in FILTER_NAMES:
        fired = [item for item, v in zip(items, verdicts) if v == name]
        true = sum(i[2] == "drop" for i in fired)
        alone = sum(i[2] == "drop" and _alone(name, i[4], cfg) for i in items)
        prec = f"{true / len(fired):.3f}" if fired else "-"
        print(f"{name:<20}{len(fired):>8}{true:>6}{len(fired) - true:>6}{prec:>10}{alone:>7}{alone / n_drop:>8.3f}")
    print(f"{'(none: kept)':<20}{sum(v is None for v in verdicts):>8}   drop-labelled lines: {n_drop}")

    by_reason: dict[str, list[bool]] = defaultdict(list)
    for item, v in zip(items, verdicts):
        if item[2] == "drop":
            by_reason[item[3] or "?"].append(v is not None)
    print("\nrecall by reason of drop:")
    for reason, hits in sorted(by_reason.items()):
        print(f"  {reason:<18}{sum(hits):>4}/{len(hits):<4} {sum(hits) / len(hits):.2f}")

    gsd_texts = [s.text for f in sorted(Path(args.gsd).glob("*.conllu")) for s in read_conllu(f)]
    check_sentence(gsd_texts[0], cfg)  # load pymorphy3 before timing
    start = time.perf_counter()
    rounds = 3
    for _ in range(rounds):
        for text in gsd_texts:
            check_sentence(text, cfg)
    elapsed = time.perf_counter() - start
    print(f"\nthroughput: {rounds * len(gsd_texts) / elapsed:,.0f} sentences/s "
          f"(check_sentence over {len(gsd_texts)} GSD sentences x {rounds}, one thread)")

    if args.errors:
        print("\nmisclassified:")
        for item, v in zip(items, verdicts):
            if (item[2] == "drop") != (v is not None):
                print(f"  [{item[0]} {item[1]}] label={item[2]}:{item[3]} filter={v}: {item[4]}")

    if args.counts:
        with tempfile.TemporaryDirectory() as tmp:
            _, demo = build_sentences([{"name": "demo", "type": "demo"}], cache_dir=tmp)
            gsd_txt = Path(tmp) / "gsd.txt"
            gsd_txt.write_text("\n".join(gsd_texts) + "\n", encoding="utf-8")
            _, gsd = build_sentences([{"name": "gsd", "type": "text", "domain": "gsd", "path": str(gsd_txt)}],
                                     cache_dir=tmp)
        print(f"\n{'corpus stage':<22}{'demo':>8}{'gsd':>8}")
        for key in ("sentences_seen",):
            print(f"{key:<22}{demo['total'][key]:>8}{gsd['total'][key]:>8}")
        for name in FILTER_NAMES:
            print(f"{'  ' + name:<22}{demo['total']['dropped'][name]:>8}{gsd['total']['dropped'][name]:>8}")
        for key in ("duplicates", "kept"):
            print(f"{key:<22}{demo['total'][key]:>8}{gsd['total'][key]:>8}")


if __name__ == "__main__":
    main()
