"""The corpus sentence filter and the source self-check as a classifier: precision and recall of "drop".

Usage (repository root, virtualenv active)::

    python bench/bench_filters.py [--gsd DIR] [--gsd-labels TSV] [--written-labels TSV] [--text-only] [--verdicts demo|lines|none] [--errors] [--counts]

Labelled lines (``bench/filter_labels/``):

* ``gsd.tsv``: UD Russian-GSD dev+test sentences judged by hand (``sent_id``, ``keep``/``drop``,
  the reason of a drop). Their text is read here from ``DIR/*.conllu`` (default: the first
  ``shared/data/ud_russian_gsd`` found in, beside or above the checkout; the ``# text`` comment); the project stores no treebank text.
* ``written.tsv``: lines written for this project: good lines (Latin-script names, dotted
  brand names, quotes, numbers) and noisy ones (glued headlines, duplicated phrases, word
  salad, fragments, markup leftovers, lists, ...).

The bench measures what the pipeline does to a line before it becomes a source of pairs:

1. the text filter, :func:`rublimp.corpus.check_sentence` with the default
   :class:`~rublimp.corpus.FilterConfig` (the corpus stage's defaults): a line is dropped when any
   filter rejects it, named after the first one (as counted in ``filter_stats.json``);
2. for the lines the filter keeps, the parse (:func:`rublimp.parse.parse_texts`, slovnet, the
   parse stage's bounds; a line it skips is a drop named ``parse:<reason>``) and the source
   self-check on the tree (:func:`rublimp.paradigms.selfcheck.source_problem`, as
   :func:`rublimp.perturb.build_pools` runs it): a line with a source problem is a drop named
   ``source_check:<reason>``.

The agreement verdicts the source check consults (``--verdicts``) are computed as the workflow's
``validate_agreement`` stage does (:func:`rublimp.agreement_validation.validate_agreement`, default
thresholds) over a parsed corpus: ``demo`` (default) the demo corpus through the corpus stage and
the parser, as ``make run`` builds it; ``lines`` the labelled lines the filter keeps (as if they
were the corpus); ``none`` no table (every nominal condition counts as certain). Parses are cached
under ``work/bench_filters/`` keyed by a hash of the texts (and the parser's code), so a second run
does not parse again.

Printed, three tables (``--text-only``: the first alone, no parser needed):

* **text filter** (as before): precision and recall of "drop" per labelled set and together, and
  together without the lines labelled ``source_error`` (the source's own agreement errors, which
  only the parse shows); per filter: lines dropped, of them labelled drop (true) and keep (false),
  precision, ``alone`` (how many drop-labelled lines the filter rejects when run by itself) and its
  recall; recall per labelled reason of a drop; throughput over the GSD sentences;
* **source check** on the lines the text filter keeps: the same figures for the parse and the source
  check alone (recall over the drop-labelled lines the filter let through); throughput of the
  parser (when it ran, else the recorded one) and of ``source_problem``;
* **combined** (text filter, then parse, then source check): overall precision and recall, per
  filter/reason rows, recall per labelled reason, and the throughput of the whole chain on the
  labelled lines (text filter time per line, plus parse and check time for the share it keeps).

In tables 2 and 3 a row's ``recall`` is its true drops over all drop-labelled lines of the table
(each line counted under the first stage that drops it, so the rows add up to the overall recall).

``--errors`` prints every misclassified line of each stage (with the source check's reason);
``--counts`` the per-filter drop counts of the demo corpus and of all GSD sentences through the
corpus stage itself (``build_sentences``).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from rublimp.conllu_doc import Sentence, read_conllu, write_conllu
from rublimp.corpus import FILTER_NAMES, FILTERS, FilterConfig, build_sentences, check_sentence, tokenize_sentence

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "filter_labels"
CACHE = ROOT / "work" / "bench_filters"
#: labelled reasons of a drop that only a parse can see (the source's own agreement errors)
PARSE_REASONS = frozenset({"source_error"})
#: where the treebank is looked for: ``shared/`` beside the checkout (or one level up, for a worktree)
GSD_DIRS = [ROOT / "shared" / "data" / "ud_russian_gsd", *(p / "shared" / "data" / "ud_russian_gsd" for p in ROOT.parents[:2])]


class Item(NamedTuple):
    set: str
    id: str
    label: str
    reason: str
    text: str


#: ``texts -> {text: parsed Sentence}``; a text missing from the answer was skipped by the parser,
#: and the second value names why (``{text: reason}``)
ParseFn = Callable[[Sequence[str]], tuple[dict[str, Sentence], dict[str, str]]]


def _rows(path: Path) -> list[dict[str, str]]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def load_labelled(gsd_dir: Path, gsd_labels: Path | None = None, written_labels: Path | None = None) -> list[Item]:
    """Every labelled line: GSD lines (text read from the treebank by sent_id; labels from
    ``gsd_labels``, default ``bench/filter_labels/gsd.tsv``), then the written ones (from
    ``written_labels``, default ``bench/filter_labels/written.tsv``)."""
    texts = {s.sent_id: s.text for f in sorted(gsd_dir.glob("*.conllu")) for s in read_conllu(f)}
    if not texts:
        raise SystemExit(f"no *.conllu files in {gsd_dir} (pass --gsd DIR)")
    out = []
    for row in _rows(gsd_labels or LABELS / "gsd.tsv"):
        if row["sent_id"] not in texts:
            raise SystemExit(f"gsd.tsv: sent_id {row['sent_id']} not found in {gsd_dir}")
        out.append(Item("gsd", row["sent_id"], row["label"], row["reason"] or "", texts[row["sent_id"]]))
    for row in _rows(written_labels or LABELS / "written.tsv"):
        out.append(Item("written", row["id"], row["label"], row["reason"] or "", row["text"]))
    for item in out:
        if item.label not in ("keep", "drop"):
            raise SystemExit(f"{item.set}: {item.id}: label must be keep or drop, got {item.label!r}")
    return out


# -- the classifier ------------------------------------------------------------------------
def text_stage(items: Sequence[Item], cfg: FilterConfig) -> list[str | None]:
    """The first text filter that rejects each line (None: kept)."""
    return [check_sentence(item.text, cfg) for item in items]


def source_stage(
    texts: Sequence[str], parse: ParseFn, verdicts: Mapping | None, morph=None
) -> dict[str, str | None]:
    """``{text: drop name or None}`` for lines that passed the text filter: ``parse:<reason>`` when
    the parser skips the line, ``source_check:<reason>`` when
    :func:`~rublimp.paradigms.selfcheck.source_problem` finds the tree's own agreement broken."""
    from rublimp.morph import get_morph
    from rublimp.paradigms.selfcheck import source_problem

    morph = morph or get_morph()
    parsed, skipped = parse(texts)
    out: dict[str, str | None] = {}
    for text in texts:
        if text in parsed:
            reason = source_problem(parsed[text], morph, verdicts)
            out[text] = None if reason is None else f"source_check:{reason}"
        else:
            out[text] = f"parse:{skipped.get(text, 'skipped')}"
    return out


def classify(
    items: Sequence[Item], cfg: FilterConfig, parse: ParseFn, verdicts: Mapping | None
) -> tuple[list[str | None], dict[str, str | None], list[str | None]]:
    """The pipeline as a classifier: text verdicts, source verdicts of the kept lines (by text),
    and the combined verdict per line (the text filter's name, else the source stage's, else None)."""
    text_v = text_stage(items, cfg)
    kept = list(dict.fromkeys(item.text for item, v in zip(items, text_v) if v is None))
    source_v = source_stage(kept, parse, verdicts)
    combined = [v if v is not None else source_v[item.text] for item, v in zip(items, text_v)]
    return text_v, source_v, combined


# -- parsing with a cache --------------------------------------------------------------------
def _hash(texts: Iterable[str], what: str) -> str:
    h = hashlib.sha256(what.encode("utf-8"))
    for text in texts:
        h.update(text.encode("utf-8") + b"\n")
    # the parser's code and the lemmatiser's: a change there gives another parse
    for p in sorted((ROOT / "src" / "rublimp" / "parse").glob("*.py")) + [ROOT / "src" / "rublimp" / "morph.py"]:
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _named_skips():
    from rublimp.parse import SkipReport

    class NamedSkips(SkipReport):
        """A :class:`~rublimp.parse.SkipReport` that remembers the reason of every skipped id."""

        def __init__(self) -> None:
            super().__init__()
            self.reasons: dict[str, str] = {}

        def add(self, reason: str, sent_id: str, detail: str) -> None:
            super().add(reason, sent_id, detail)
            self.reasons[sent_id] = reason

    return NamedSkips()


def _parse_texts(items, **kw):
    from rublimp.parse import parse_texts

    return parse_texts(items, **kw)


def cached_parse(what: str, cache_dir: Path = CACHE) -> ParseFn:
    """A :data:`ParseFn` that parses with slovnet (the parse stage's defaults) once per set of texts
    and keeps the trees and the parse time in ``cache_dir/<what>-<hash>.conllu`` / ``.json``."""
    def parse(texts: Sequence[str]) -> tuple[dict[str, Sentence], dict[str, str]]:
        key = _hash(texts, what)
        conllu, meta = cache_dir / f"{what}-{key}.conllu", cache_dir / f"{what}-{key}.json"
        ids = {f"{what}-{i}": t for i, t in enumerate(texts)}
        if conllu.exists() and meta.exists():
            sents = list(read_conllu(conllu))
            info = json.loads(meta.read_text(encoding="utf-8"))
            parse.timing = (info["seconds"], len(texts), True)
            return {ids[s.sent_id]: s for s in sents}, info["skipped"]
        skipped = _named_skips()
        start = time.perf_counter()
        sents = list(_parse_texts([(sid, t, what) for sid, t in ids.items()], skipped=skipped))
        seconds = time.perf_counter() - start
        skip = {ids[sid]: reason for sid, reason in skipped.reasons.items()}
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_conllu(sents, conllu)
        meta.write_text(json.dumps({"seconds": seconds, "n": len(texts), "skipped": skip}, ensure_ascii=False),
                        encoding="utf-8")
        parse.timing = (seconds, len(texts), False)
        return {ids[s.sent_id]: s for s in sents}, skip

    parse.timing = None
    return parse


def demo_verdicts() -> dict:
    """The agreement verdicts of the demo corpus as the workflow computes them: corpus stage,
    slovnet parse (cached), :func:`~rublimp.agreement_validation.validate_agreement`."""
    with tempfile.TemporaryDirectory() as tmp:
        df, _ = build_sentences([{"name": "demo", "type": "demo"}], cache_dir=tmp)
    parsed, _ = cached_parse("demo")(df["text"].to_list())
    return _verdicts(parsed.values())


def _verdicts(sents: Iterable[Sentence]) -> dict:
    from rublimp.agreement_validation import validate_agreement

    table = validate_agreement(list(sents))
    return {tuple(r[:4]): r[4] for r in table.select("feature", "pred_type", "subject_value", "order", "verdict").iter_rows()}


# -- printing ----------------------------------------------------------------------------------
def _pr(tp: int, fp: int, fn: int) -> str:
    p = tp / (tp + fp) if tp + fp else float("nan")
    r = tp / (tp + fn) if tp + fn else float("nan")
    return f"precision {p:.3f} ({tp}/{tp + fp})  recall {r:.3f} ({tp}/{tp + fn})"


def _overall(items: Sequence[Item], preds: Sequence[str | None], *, per_set: bool = True) -> None:
    groups = [("gsd", lambda i: i.set == "gsd"), ("written", lambda i: i.set == "written")] if per_set else []
    groups.append(("all", lambda i: True))
    n_parse = sum(i.reason in PARSE_REASONS for i in items)
    groups.append((f"all without {'/'.join(sorted(PARSE_REASONS))} ({n_parse})", lambda i: i.reason not in PARSE_REASONS))
    for name, keep in groups:
        tp = fp = fn = 0
        for item, v in zip(items, preds):
            if keep(item):
                tp += item.label == "drop" and v is not None
                fp += item.label == "keep" and v is not None
                fn += item.label == "drop" and v is None
        print(f"  {name:<28} drop: {_pr(tp, fp, fn)}")


def _rows_table(items: Sequence[Item], preds: Sequence[str | None], names: Sequence[str],
                alone: Callable[[str, Item], bool] | None = None) -> None:
    n_drop = sum(i.label == "drop" for i in items)
    head = f"{'filter':<40}{'dropped':>8}{'true':>6}{'false':>6}{'precision':>10}"
    print(head + (f"{'alone':>7}{'recall':>8}" if alone else f"{'recall':>8}"))
    for name in names:
        fired = [item for item, v in zip(items, preds) if v == name]
        true = sum(i.label == "drop" for i in fired)
        prec = f"{true / len(fired):.3f}" if fired else "-"
        line = f"{name:<40}{len(fired):>8}{true:>6}{len(fired) - true:>6}{prec:>10}"
        if alone:
            n = sum(i.label == "drop" and alone(name, i) for i in items)
            line += f"{n:>7}{n / n_drop:>8.3f}"
        else:
            line += f"{true / n_drop:>8.3f}" if n_drop else f"{'-':>8}"
        print(line)
    print(f"{'(none: kept)':<40}{sum(v is None for v in preds):>8}   drop-labelled lines: {n_drop}")


def _by_reason(items: Sequence[Item], preds: Sequence[str | None]) -> None:
    by_reason: dict[str, list[bool]] = defaultdict(list)
    for item, v in zip(items, preds):
        if item.label == "drop":
            by_reason[item.reason or "?"].append(v is not None)
    print("recall by labelled reason of drop:")
    for reason, hits in sorted(by_reason.items()):
        print(f"  {reason:<18}{sum(hits):>4}/{len(hits):<4} {sum(hits) / len(hits):.2f}")


def _errors(items: Sequence[Item], preds: Sequence[str | None], stage: str) -> None:
    print(f"\nmisclassified ({stage}):")
    for item, v in zip(items, preds):
        if (item.label == "drop") != (v is not None):
            print(f"  [{item.set} {item.id}] label={item.label}:{item.reason} {stage}={v}: {item.text}")


def _source_names(preds: Iterable[str | None]) -> list[str]:
    from rublimp.paradigms.selfcheck import SOURCE_REASONS

    names = [f"source_check:{r}" for r in SOURCE_REASONS]
    return sorted({v for v in preds if v and v.startswith("parse:")}) + names


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gsd", default=str(next((d for d in GSD_DIRS if d.is_dir()), GSD_DIRS[0])))
    ap.add_argument("--text-only", action="store_true", help="the text filter alone (no parse, no source check)")
    ap.add_argument("--verdicts", choices=("demo", "lines", "none"), default="demo",
                    help="agreement verdicts for the source check: from the demo corpus (default), the kept lines, or none")
    ap.add_argument("--errors", action="store_true", help="print every misclassified line of each stage")
    ap.add_argument("--counts", action="store_true", help="per-filter counts on the demo corpus and all of GSD")
    ap.add_argument("--gsd-labels", type=Path, default=None,
                    help="another GSD label table (an earlier version of gsd.tsv, to compare sets)")
    ap.add_argument("--written-labels", type=Path, default=None,
                    help="another table of written lines (an earlier version of written.tsv)")
    args = ap.parse_args(argv)
    cfg = FilterConfig()
    items = load_labelled(Path(args.gsd), args.gsd_labels, args.written_labels)
    text_v = text_stage(items, cfg)

    print(f"labelled lines: {len(items)} ({dict(Counter(i.set for i in items))}; {dict(Counter(i.label for i in items))})")
    print("\n== 1. text filter (rublimp.corpus.check_sentence) ==")
    _overall(items, text_v)
    print()
    _rows_table(items, text_v, FILTER_NAMES, alone=lambda name, i: FILTERS[name](i.text, tokenize_sentence(i.text), cfg))
    print()
    _by_reason(items, text_v)
    gsd_texts = [s.text for f in sorted(Path(args.gsd).glob("*.conllu")) for s in read_conllu(f)]
    check_sentence(gsd_texts[0], cfg)  # load pymorphy3 before timing
    start = time.perf_counter()
    rounds = 3
    for _ in range(rounds):
        for text in gsd_texts:
            check_sentence(text, cfg)
    text_rate = rounds * len(gsd_texts) / (time.perf_counter() - start)
    print(f"throughput: {text_rate:,.0f} sentences/s (check_sentence over {len(gsd_texts)} GSD sentences x {rounds}, one thread)")
    if args.errors:
        _errors(items, text_v, "filter")

    if not args.text_only:
        _source_tables(items, text_v, args, text_rate)

    if args.counts:
        _counts(gsd_texts)
    return 0


def _source_tables(items: Sequence[Item], text_v: Sequence[str | None], args, text_rate: float) -> None:
    from rublimp.morph import get_morph
    from rublimp.paradigms.selfcheck import source_problem

    parse = cached_parse("labelled")
    kept = list(dict.fromkeys(item.text for item, v in zip(items, text_v) if v is None))
    if args.verdicts == "demo":
        verdicts, origin = demo_verdicts(), "the demo corpus (corpus stage + slovnet parse)"
    elif args.verdicts == "lines":
        verdicts, origin = _verdicts(parse(kept)[0].values()), f"the {len(kept)} lines the text filter keeps"
    else:
        verdicts, origin = None, "none (every nominal condition certain)"
    text_v2, source_v, combined = classify(items, FilterConfig(), parse, verdicts)
    assert text_v2 == list(text_v)
    n_certain = sum(v == "certain" for v in (verdicts or {}).values())
    print(f"\nagreement verdicts: {origin}"
          + (f": {n_certain} of {len(verdicts)} conditions certain" if verdicts is not None else ""))

    kept_items = [item for item, v in zip(items, text_v) if v is None]
    kept_preds = [source_v[item.text] for item in kept_items]
    print(f"\n== 2. source check on the {len(kept_items)} lines the text filter keeps "
          f"(slovnet parse, rublimp.paradigms.selfcheck.source_problem) ==")
    _overall(kept_items, kept_preds)
    print()
    _rows_table(kept_items, kept_preds, _source_names(kept_preds))
    print()
    _by_reason(kept_items, kept_preds)
    seconds, n, cached = parse.timing
    parsed, _ = parse(kept)
    morph = get_morph()
    start = time.perf_counter()
    rounds = 3
    for _ in range(rounds):
        for s in parsed.values():
            source_problem(s, morph, verdicts)
    check_rate = rounds * len(parsed) / (time.perf_counter() - start)
    print(f"throughput: parse {n / seconds:,.0f} sentences/s ({n} lines, slovnet, model loading included; {'as recorded in the cache' if cached else 'this run'}); "
          f"source_problem {check_rate:,.0f} sentences/s (x {rounds}, one thread)")
    if args.errors:
        _errors(kept_items, kept_preds, "source")

    print("\n== 3. combined: text filter, then parse + source check ==")
    _overall(items, combined)
    print()
    _rows_table(items, combined, list(FILTER_NAMES) + _source_names(combined))
    print()
    _by_reason(items, combined)
    share = len(kept) / len(items)
    per_line = 1 / text_rate + share * (seconds / n + 1 / check_rate)
    print(f"throughput: {1 / per_line:,.0f} lines/s (filter every line, parse and check the {share:.0%} it keeps; one thread)")
    if args.errors:
        _errors(items, combined, "combined")


def _counts(gsd_texts: list[str]) -> None:
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
    raise SystemExit(main())
