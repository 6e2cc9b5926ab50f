"""Fidelity to RuBLiMP: run our paradigms on RuBLiMP's own source sentences and compare.

For every row of a RuBLiMP-format CSV (``source_sentence, target_sentence,
source_word, target_word, PID, …``) the source sentence is parsed with our
parser and the row's paradigm (``PID``) is run on the tree. Three rates per
paradigm:

* **coverage** — the paradigm makes at least one pair for the sentence;
* **same word** — some pair edits the word RuBLiMP edited;
* **same pair** — some pair's ungrammatical sentence equals RuBLiMP's.

Sentences are compared after :func:`normalise` (lower case, ё→е, no spacing
around punctuation, single spaces). "The word RuBLiMP edited" is located by
position where RuBLiMP's pair keeps the word count (the word positions where
its source and target differ); otherwise by form (RuBLiMP's ``source_word``
among the forms our pair edits).

Parsed trees are cached on disk (default ``.cache/fidelity/``) under a key of
the parser backend and options, a hash of the parser code, and the sentence
text, so a rerun parses only sentences it has not seen.

Groups are derived from the paradigm registry: the ``subject_predicate_agreement``
phenomenon; the other ``Syntax`` paradigms; ``Morphology`` + ``Semantics``.
"""

from __future__ import annotations

import csv
import hashlib
import os
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from .conllu_doc import Sentence, read_conllu, write_conllu
from .io import InputError

__all__ = [
    "normalise",
    "sentence_words",
    "changed_positions",
    "RublimpRow",
    "OurPair",
    "RowResult",
    "read_rublimp_csv",
    "read_rublimp_dir",
    "compare_row",
    "paradigm_group",
    "GROUPS",
    "parser_code_hash",
    "ParseCache",
    "evaluate",
    "summarise",
    "format_table",
    "sample_failures",
]

REQUIRED_COLUMNS = ("source_sentence", "target_sentence", "source_word", "target_word", "PID")

GROUPS = ("subject_predicate_agreement", "other_syntax", "morphology_semantics")

# -- normalisation ------------------------------------------------------------
_PUNCT_SPACE = re.compile(r"\s*([^\w\s])\s*")
_SPACES = re.compile(r"\s+")
_DASHES = str.maketrans({"–": "-", "—": "-", "‑": "-", "«": '"', "»": '"', "“": '"', "”": '"', "„": '"', "\u00a0": " "})


def normalise(text: str) -> str:
    """Lower case, ё→е, unified dashes and quotes, no whitespace next to punctuation, single spaces."""
    s = text.lower().replace("ё", "е").translate(_DASHES)
    s = _PUNCT_SPACE.sub(r"\1", s)
    return _SPACES.sub(" ", s).strip()


def _norm_word(w: str) -> str:
    """A word without surrounding punctuation, normalised."""
    return normalise(w).strip("\"'.,:;!?()[]…-")


def sentence_words(text: str) -> list[str]:
    """Whitespace-separated words of ``text``, each normalised and stripped of surrounding punctuation."""
    return [_norm_word(w) for w in text.split()]


def changed_positions(good: str, bad: str) -> set[int] | None:
    """Word positions where ``good`` and ``bad`` differ; None when their word counts differ."""
    gw, bw = sentence_words(good), sentence_words(bad)
    if len(gw) != len(bw):
        return None
    return {i for i, (a, b) in enumerate(zip(gw, bw)) if a != b}


# -- data ---------------------------------------------------------------------
@dataclass(frozen=True)
class RublimpRow:
    row_id: str
    paradigm: str
    source: str
    target: str
    source_word: str
    target_word: str
    where: str = ""  # file:line


@dataclass(frozen=True)
class OurPair:
    bad: str
    source_word: str
    target_word: str
    positions: frozenset[int] | None = None  # word positions our edit changed


@dataclass
class RowResult:
    row: RublimpRow
    pairs: list[OurPair] = field(default_factory=list)
    covered: bool = False
    same_word: bool = False
    same_pair: bool = False

    def best(self) -> OurPair | None:
        """Our pair to show next to RuBLiMP's: the same pair, else one on the same word, else the first."""
        if not self.pairs:
            return None
        for p in self.pairs:
            if normalise(p.bad) == normalise(self.row.target):
                return p
        for p in self.pairs:
            if _pair_same_word(self.row, p):
                return p
        return self.pairs[0]


def read_rublimp_csv(path: str | os.PathLike) -> list[RublimpRow]:
    """Rows of one RuBLiMP-format CSV; a missing column or empty cell is an InputError naming file and line."""
    path = Path(path)
    rows: list[RublimpRow] = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"RuBLiMP CSV lacks column(s) {', '.join(missing)}", path, 1)
        for row in reader:
            line = reader.line_num
            for c in ("source_sentence", "target_sentence", "PID"):
                if not (row.get(c) or "").strip():
                    raise InputError(f"empty {c}", path, line)
            rows.append(
                RublimpRow(
                    row_id=str(row.get("id") or f"{path.stem}:{line}"),
                    paradigm=row["PID"].strip(),
                    source=row["source_sentence"].strip(),
                    target=row["target_sentence"].strip(),
                    source_word=(row.get("source_word") or "").strip(),
                    target_word=(row.get("target_word") or "").strip(),
                    where=f"{path}:{line}",
                )
            )
    return rows


def read_rublimp_dir(directory: str | os.PathLike, paradigms: Sequence[str] | None = None) -> list[RublimpRow]:
    """Rows of every ``*.csv`` in ``directory`` (only those of ``paradigms`` when given)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError("RuBLiMP directory not found", directory)
    files = sorted(directory.glob("*.csv"))
    if not files:
        raise InputError("no *.csv files in the RuBLiMP directory", directory)
    wanted = set(paradigms) if paradigms else None
    rows = []
    for f in files:
        if wanted is not None and f.stem not in wanted:
            # files are usually named by paradigm; read the others only if their name is unknown
            from .paradigms.base import paradigm_names

            if f.stem in paradigm_names():
                continue
        rows.extend(r for r in read_rublimp_csv(f) if wanted is None or r.paradigm in wanted)
    return rows


# -- comparison ---------------------------------------------------------------
def _pair_same_word(row: RublimpRow, pair: OurPair) -> bool:
    theirs = changed_positions(row.source, row.target)
    if theirs and pair.positions is not None:
        return bool(theirs & pair.positions)
    src = _norm_word(row.source_word)
    ours = {_norm_word(w) for w in pair.source_word.split()} | {_norm_word(pair.source_word)}
    return bool(src) and (src in ours or any(_norm_word(w) in ours for w in row.source_word.split()))


def compare_row(row: RublimpRow, pairs: Sequence[OurPair]) -> RowResult:
    """Coverage, same word and same pair of our ``pairs`` for one RuBLiMP row."""
    target = normalise(row.target)
    return RowResult(
        row=row,
        pairs=list(pairs),
        covered=bool(pairs),
        same_word=any(_pair_same_word(row, p) for p in pairs),
        same_pair=any(normalise(p.bad) == target for p in pairs),
    )


# -- groups -------------------------------------------------------------------
def paradigm_group(name: str) -> str:
    """The report group of a registered paradigm, from its phenomenon and level."""
    from .paradigms.base import REGISTRY, paradigm_names

    paradigm_names()  # registers
    cls = REGISTRY[name]
    if cls.phenomenon == "subject_predicate_agreement":
        return "subject_predicate_agreement"
    if cls.level == "Syntax":
        return "other_syntax"
    return "morphology_semantics"


# -- parse cache --------------------------------------------------------------
def parser_code_hash() -> str:
    """sha1 (12 hex) of the code that turns text into trees: the parse package, the CoNLL-U model, morph."""
    pkg = Path(__file__).resolve().parent
    files = sorted((pkg / "parse").glob("*.py")) + [pkg / "conllu_doc.py", pkg / "morph.py"]
    h = hashlib.sha1()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def _text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class ParseCache:
    """Parsed trees on disk, one folder per parser (backend + options + code hash), keyed by sentence text.

    Each call to :meth:`parse` that parses new sentences adds one CoNLL-U file
    (written atomically) whose ``# sent_id`` is the sha1 of the text.
    """

    def __init__(self, root: str | os.PathLike | None, backend: str = "slovnet", **backend_opts: Any) -> None:
        self.backend = backend
        self.backend_opts = backend_opts
        opts = ",".join(f"{k}={v}" for k, v in sorted(backend_opts.items()))
        key = hashlib.sha1(f"{backend}|{opts}".encode()).hexdigest()[:8]
        self.dir = None if root is None else Path(root) / f"{backend}-{key}-{parser_code_hash()}"
        self._trees: dict[str, Sentence] = {}
        if self.dir is not None and self.dir.is_dir():
            for f in sorted(self.dir.glob("*.conllu")):
                for s in read_conllu(f):
                    self._trees[s.sent_id] = s

    def __len__(self) -> int:
        return len(self._trees)

    def parse(self, texts: Iterable[str], *, progress: bool = False) -> dict[str, Sentence]:
        """A tree for every distinct text the parser accepts, parsing only those not cached."""
        from .parse import parse_texts

        wanted = list(dict.fromkeys(texts))
        missing = [t for t in wanted if _text_key(t) not in self._trees]
        if missing:
            items = [(_text_key(t), t, "") for t in missing]
            new = list(parse_texts(items, backend=self.backend, progress=progress, total=len(items), **self.backend_opts))
            for s in new:
                self._trees[s.sent_id] = s
            if self.dir is not None:
                self.dir.mkdir(parents=True, exist_ok=True)
                name = hashlib.sha1("\n".join(sorted(s.sent_id for s in new)).encode()).hexdigest()[:16]
                write_conllu(new, self.dir / f"{name}.conllu")
        # the parser skips sentences over its length bounds: they have no tree
        return {t: self._trees[_text_key(t)] for t in wanted if _text_key(t) in self._trees}


# -- running ------------------------------------------------------------------
def _word_index(text: str, start: int) -> int:
    before = text[:start]
    return len(before.split()) if before.strip() else 0


def _our_pairs(paradigm, sent: Sentence) -> list[OurPair]:
    out = []
    for bad, pert in paradigm.pairs(sent):
        src = pert.source_word if pert.source_word is not None else " ".join(sent.token(e.token_id).form for e in pert.edits)
        tgt = pert.target_word if pert.target_word is not None else " ".join(e.new_form for e in pert.edits if e.new_form)
        positions = changed_positions(sent.text, bad)
        out.append(OurPair(bad=bad, source_word=src, target_word=tgt,
                           positions=None if positions is None else frozenset(positions)))
    return out


def evaluate(
    rows: Sequence[RublimpRow],
    cache: ParseCache,
    *,
    options: dict[str, Any] | None = None,
    progress: bool = False,
) -> list[RowResult]:
    """Parse every row's source (through ``cache``) and compare its paradigm's pairs with RuBLiMP's."""
    from .paradigms.base import ParadigmContext, get_paradigm

    trees = cache.parse((r.source for r in rows), progress=progress)
    ctx = ParadigmContext(options=dict(options or {}))
    paradigms: dict[str, Any] = {}
    results = []
    for r in rows:
        if r.paradigm not in paradigms:
            paradigms[r.paradigm] = get_paradigm(r.paradigm, ctx, config_key=f"{r.where}: PID")
        tree = trees.get(r.source)
        results.append(compare_row(r, [] if tree is None else _our_pairs(paradigms[r.paradigm], tree)))
    return results


def _rates(results: Sequence[RowResult]) -> dict[str, float | int]:
    n = len(results)
    if n == 0:
        return {"n": 0, "coverage": 0.0, "same_word": 0.0, "same_pair": 0.0}
    return {
        "n": n,
        "coverage": round(sum(r.covered for r in results) / n, 4),
        "same_word": round(sum(r.same_word for r in results) / n, 4),
        "same_pair": round(sum(r.same_pair for r in results) / n, 4),
    }


def summarise(results: Sequence[RowResult]) -> dict[str, Any]:
    """Rates per paradigm, per group (mean over its paradigms) and overall (mean over paradigms)."""
    by_paradigm: dict[str, list[RowResult]] = {}
    for r in results:
        by_paradigm.setdefault(r.row.paradigm, []).append(r)
    paradigms = {name: {"group": paradigm_group(name), **_rates(rs)} for name, rs in sorted(by_paradigm.items())}
    groups: dict[str, Any] = {}
    for g in GROUPS + ("all",):
        members = [v for v in paradigms.values() if g == "all" or v["group"] == g]
        if not members:
            continue
        groups[g] = {"paradigms": len(members)}
        for k in ("coverage", "same_word", "same_pair"):
            groups[g][k] = round(sum(m[k] for m in members) / len(members), 4)
    return {"paradigms": paradigms, "groups": groups}


def format_table(summary: dict[str, Any]) -> str:
    """The per-paradigm table (grouped) and the per-group means as plain text."""
    lines = []
    width = max([len(n) for n in summary["paradigms"]] + [30])
    head = f"{'paradigm':<{width}} {'n':>5} {'coverage':>9} {'same word':>10} {'same pair':>10}"
    for g in GROUPS:
        members = [(n, v) for n, v in summary["paradigms"].items() if v["group"] == g]
        if not members:
            continue
        lines.append(f"\n## {g}\n{head}")
        for n, v in members:
            lines.append(f"{n:<{width}} {v['n']:>5} {v['coverage']:>9.2f} {v['same_word']:>10.2f} {v['same_pair']:>10.2f}")
    lines.append(f"\n## groups (mean over paradigms)\n{'group':<{width}} {'paras':>5} {'coverage':>9} {'same word':>10} {'same pair':>10}")
    for g, v in summary["groups"].items():
        lines.append(f"{g:<{width}} {v['paradigms']:>5} {v['coverage']:>9.2f} {v['same_word']:>10.2f} {v['same_pair']:>10.2f}")
    return "\n".join(lines)


def sample_failures(results: Sequence[RowResult], k: int, seed: int) -> dict[str, dict[str, list[RowResult]]]:
    """Per paradigm, up to ``k`` seeded misses (no pair) and ``k`` mismatches (a pair, not RuBLiMP's)."""
    by_paradigm: dict[str, list[RowResult]] = {}
    for r in results:
        by_paradigm.setdefault(r.row.paradigm, []).append(r)
    out = {}
    for name, rs in sorted(by_paradigm.items()):
        rng = random.Random(f"{seed}:{name}")
        misses = [r for r in rs if not r.covered]
        mism = [r for r in rs if r.covered and not r.same_pair]
        out[name] = {
            "misses": rng.sample(misses, min(k, len(misses))),
            "mismatches": rng.sample(mism, min(k, len(mism))),
        }
    return out


def format_samples(samples: dict[str, dict[str, list[RowResult]]], file=sys.stdout) -> None:
    for name, d in samples.items():
        if not d["misses"] and not d["mismatches"]:
            continue
        print(f"\n== {name}", file=file)
        for r in d["misses"]:
            print(f"  MISS  [{r.row.row_id}] {r.row.source_word} → {r.row.target_word}", file=file)
            print(f"     +  {r.row.source}", file=file)
            print(f"     R- {r.row.target}", file=file)
        for r in d["mismatches"]:
            p = r.best()
            tag = "WORD " if r.same_word else "OTHER"
            print(f"  {tag} [{r.row.row_id}] RuBLiMP {r.row.source_word} → {r.row.target_word}; ours {p.source_word} → {p.target_word}", file=file)
            print(f"     +  {r.row.source}", file=file)
            print(f"     R- {r.row.target}", file=file)
            print(f"     O- {p.bad}", file=file)


def results_json(results: Sequence[RowResult], summary: dict[str, Any],
                 samples: dict[str, dict[str, list[RowResult]]]) -> dict[str, Any]:
    """Everything as a JSON-ready dict: the summary and the sampled rows with RuBLiMP's pair and ours."""
    def row(r: RowResult) -> dict[str, Any]:
        p = r.best()
        return {
            "id": r.row.row_id, "source": r.row.source, "rublimp_target": r.row.target,
            "rublimp_word": [r.row.source_word, r.row.target_word],
            "ours": None if p is None else {"target": p.bad, "word": [p.source_word, p.target_word]},
            "same_word": r.same_word,
        }

    return {
        **summary,
        "samples": {n: {k: [row(r) for r in v] for k, v in d.items()} for n, d in samples.items()},
    }
