"""Token readings per paradigm: how many tokens do two paradigms read differently after their repairs?

    PYTHONPATH=src python bench/token_readings.py --conllu work/snapshot/inputs/demo.conllu [--json out.json]

Every paradigm runs over every sentence (as the perturb pass does: agreement verdicts computed from the
input, the source self-check first). The repairs a paradigm asks for are intercepted where the paradigm
modules call them, and each token the repaired tree hands back is recorded as that paradigm's reading
of the token: UPOS, features, head and relation. A paradigm that asks for no repair reads the parse as
it is. The repairs watched, grouped in families:

* ``verbs/agreement``: ``trees.subjects.repaired_sentence`` (``trees.verbs.retag_verbs``), and the
  tokens of the subject–predicate edges where they equal that sentence's;
* ``edges/agreement``: tokens of the shared subject–predicate edges (``repaired_edges``,
  ``edges_with_default_contexts`` of ``trees.subjects``) that differ from the tree: the agreeing
  word and a subject the tree attaches to its predicate as a subject (the per-edge repairs
  ``repair_edge``, ``subject_repair``, ``pronoun_repair``, now the normalisation fixes
  ``predicate_features`` and ``subject_features``);
* ``edges/recovered``: a subject of a shared edge that the tree attaches otherwise, read as a
  nominative (``unlabelled_subject_edges``, ``stranded_subject_edges``, ``buried_subject_edges`` …);
* ``edges/word_order``: tokens that the subject policies of ``trees.subjects`` (``word_order_edges``
  of the attractors, ``noun_subject_edges`` of the noun-subject paradigms, ``attractor_subject_edges``)
  read otherwise than the shared edges do (``reread_subject``, subjects read from word order);
* ``verbs/government``: ``trees.roles.verbs_retagged``;
* ``modifiers``: ``trees.modifiers.modifiers_reattached`` and ``trees.modifiers.adjective_heading_clause``;
* ``roles``: ``trees.roles.roles_repaired``.

Only token readings are compared: an edge attribute a repair sets (the subject kind of
``case_repair``, the negation of ``negation_repair``) is a query result, not a second reading.

A token has more than one reading when two paradigms read different (UPOS, feats, head, deprel); it is
counted under the set of families whose reading differs from the tree every paradigm is given: the
parse, normalised by ``rublimp.trees.normalise.normalise`` where that module exists (as the perturb
pass does), so the figures show what normalisation leaves per family. The tool prints the counts and
the paradigms per family.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]

#: (module of the tree layer, function name, family)
WATCHED = (
    ("rublimp.trees.subjects", "repaired_sentence", "verbs/agreement"),
    ("rublimp.trees.roles", "verbs_retagged", "verbs/government"),
    ("rublimp.trees.modifiers", "modifiers_reattached", "modifiers"),
    ("rublimp.trees.modifiers", "adjective_heading_clause", "modifiers"),
    ("rublimp.trees.roles", "roles_repaired", "roles"),
)
#: edge functions of trees.subjects whose edges' tokens the agreement paradigms read
EDGE_FUNCTIONS = ("repaired_edges", "edges_with_default_contexts", "noun_subject_edges",
                  "attractor_subject_edges", "word_order_edges")
#: relations by which the tree attaches a subject to its predicate
_SUBJECT_RELS = ("nsubj", "csubj")
#: those of them that are subject policies (their tokens compared with the shared edges' too)
POLICY_FUNCTIONS = frozenset({"noun_subject_edges", "attractor_subject_edges", "word_order_edges"})


def shared_readings(sent) -> dict:
    """token id -> reading, for the tokens of the shared edges (``edges_with_default_contexts``)."""
    from rublimp.trees import subjects

    out = {}
    for e in subjects.edges_with_default_contexts(sent):
        for t in (e.subject, e.predicate, e.agreeing, *e.co_agreeing):
            out[t.id] = reading(t)
    return out


def reading(tok) -> tuple:
    """The reading of a token that must be one per token: UPOS, features, head, relation."""
    return (tok.upos, tuple(sorted(tok.feats.items())), tok.head, tok.deprel)


class Recorder:
    """Collects, for the paradigm now running, the token versions its repairs hand back."""

    def __init__(self) -> None:
        self.paradigm: str | None = None
        self.seen: dict[int, tuple[tuple, str]] = {}  # token id -> (reading, family) for the paradigm now running
        self.busy = False  # a watched function called inside another is not the paradigm's own read

    def sentence(self, sent, family: str) -> None:
        for t in sent.tokens:
            self.seen[t.id] = (reading(t), family)

    def edges(self, sent, edges, base, shared=None) -> None:
        """``shared``: for a subject policy, the token readings of the shared edges (None for those)."""
        for e in edges:
            for t in (e.subject, e.predicate, e.agreeing, *e.co_agreeing):
                if not 1 <= t.id <= len(sent.tokens):
                    continue
                r = reading(t)
                if r == reading(base.token(t.id)):
                    fam = "verbs/agreement"
                elif shared is not None and shared.get(t.id) != r:
                    fam = "edges/word_order"
                elif t.id == e.subject.id and not (t.deprel.startswith(_SUBJECT_RELS) and t.head == e.predicate.id):
                    fam = "edges/recovered"
                else:
                    fam = "edges/agreement"
                self.seen[t.id] = (r, fam)


def install(rec: Recorder) -> None:
    """Wrap the watched functions in every paradigm module that imported them."""
    import importlib
    import pkgutil

    import rublimp.paradigms as pkg
    from rublimp.trees import subjects

    originals = {}
    for mod_name, fn_name, family in WATCHED:
        originals[fn_name] = (getattr(importlib.import_module(mod_name), fn_name), family)
    for fn_name in EDGE_FUNCTIONS:
        originals[fn_name] = (getattr(subjects, fn_name), "policy" if fn_name in POLICY_FUNCTIONS else None)
    base_sentence = subjects.repaired_sentence

    def wrap(fn, family):
        def watched(*args, **kwargs):
            if rec.busy:
                return fn(*args, **kwargs)
            rec.busy = True
            try:
                out = fn(*args, **kwargs)
            finally:
                rec.busy = False
            sent = next(a for a in args if hasattr(a, "tokens"))
            if family is None:
                rec.edges(sent, out, base_sentence(sent))
            elif family == "policy":
                rec.edges(sent, out, base_sentence(sent), shared_readings(sent))
            elif family == "roles":
                rec.sentence(out[0] if isinstance(out, tuple) else out, family)
            else:
                rec.sentence(out, family)
            return out
        return watched

    wrapped = {id(fn): wrap(fn, fam) for fn, fam in originals.values()}
    for info in pkgutil.iter_modules(pkg.__path__):
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for attr, value in list(vars(mod).items()):
            if callable(value) and id(value) in wrapped:
                setattr(mod, attr, wrapped[id(value)])


def measure(path: Path, *, limit: int = 0) -> dict:
    sys.path.insert(0, str(ROOT / "bench"))
    from pool_snapshot import verdicts_for

    from rublimp.conllu_doc import read_conllu
    from rublimp.paradigms import ParadigmContext, get_paradigm, paradigm_names
    from rublimp.perturb import _source_rejected

    sents = list(read_conllu(path))
    if limit:
        sents = sents[:limit]
    try:
        from rublimp.trees.normalise import normalise
    except ImportError:  # before issue 17 step 2: the paradigms read the parse
        normalise = None
    if normalise is not None:
        sents = [normalise(s) for s in sents]
    rec = Recorder()
    install(rec)
    ctx = ParadigmContext(seed=0, agreement=verdicts_for(sents))
    paradigms = [get_paradigm(n, ctx) for n in paradigm_names()]
    by_family: Counter = Counter()
    conflicts_by_family: Counter = Counter()
    paradigms_by_family: dict[str, set[str]] = defaultdict(set)
    fields: Counter = Counter()
    examples: dict[str, list] = defaultdict(list)
    n_tokens = n_multi = 0
    for sent in sents:
        if ctx.source_check and _source_rejected(sent, ctx):
            continue
        raw = {t.id: reading(t) for t in sent.tokens}
        per_token: dict[int, dict[tuple, set[str]]] = {i: defaultdict(set) for i in raw}
        families: dict[int, set[str]] = defaultdict(set)
        for p in paradigms:
            rec.seen = {}
            list(p.pairs(sent))
            for i, r0 in raw.items():
                r, fam = rec.seen.get(i, (r0, None))
                per_token[i][r].add(p.name)
                if r != r0:
                    families[i].add(fam)
                    paradigms_by_family[fam].add(p.name)
        n_tokens += len(raw)
        for i, rs in per_token.items():
            if len(rs) < 2:
                continue
            n_multi += 1
            label = "+".join(sorted(families[i]))
            conflicts_by_family[label] += 1
            for fam in families[i]:
                by_family[fam] += 1
            vals = list(rs)
            for k, name in enumerate(("upos", "feats", "head", "deprel")):
                if len({v[k] for v in vals}) > 1:
                    fields[name] += 1
            if len(examples[label]) < 5:
                tok = sent.token(i)
                examples[label].append({"sent_id": sent.sent_id, "form": tok.form,
                                        "readings": [[v[0], "|".join(f"{a}={b}" for a, b in v[1]), v[2], v[3],
                                                      len(ns)] for v, ns in rs.items()]})
    return {"input": str(path), "normalised": normalise is not None, "sentences": len(sents), "tokens": n_tokens,
            "tokens_with_several_readings": n_multi,
            "by_family": dict(by_family.most_common()),
            "by_family_combination": dict(conflicts_by_family.most_common()),
            "fields_differing": dict(fields.most_common()),
            "paradigms_by_family": {k: sorted(v) for k, v in sorted(paradigms_by_family.items())},
            "examples": examples}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--conllu", default=str(ROOT / "work" / "snapshot" / "inputs" / "demo.conllu"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N sentences (0: all)")
    ap.add_argument("--json", help="write the figures (and up to 5 examples per family) here")
    args = ap.parse_args(argv)
    out = measure(Path(args.conllu), limit=args.limit)
    print(f"{out['sentences']} sentences, {out['tokens']} tokens; {out['tokens_with_several_readings']} tokens "
          f"read differently by two paradigms")
    for fam, n in out["by_family"].items():
        print(f"  {fam:18s} {n:6d} tokens   read by {len(out['paradigms_by_family'].get(fam, ()))} paradigms")
    print("  by family combination: " + ", ".join(f"{k}={v}" for k, v in out["by_family_combination"].items()))
    print("  fields differing: " + ", ".join(f"{k}={v}" for k, v in out["fields_differing"].items()))
    if args.json:
        Path(args.json).write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
