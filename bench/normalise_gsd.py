"""Each normalisation fix measured on UD Russian-GSD: does it move slovnet's trees towards gold?

    PYTHONPATH=src python bench/normalise_gsd.py [--gold work/snapshot/inputs/gsd_gold.conllu]
        [--pred work/snapshot/inputs/gsd_reparsed.conllu] [--json out.json]

``--gold`` holds the gold trees (dev+test), ``--pred`` the same sentences' text re-parsed by slovnet (the
inputs ``bench/pool_snapshot.py`` prepares). Sentences whose re-parse is tokenised differently are left
out (counted). For the re-parsed trees before and after :func:`rublimp.trees.normalise.normalise`:
UPOS accuracy, feature accuracy (the whole feature set equal), LAS and UAS
(:func:`rublimp.parse.evaluate.attachment_scores`). Per fix (the names in MISC ``Norm``): how many tokens
it changed and how many of those had gold UPOS / features / head+relation before and after. The gold
trees are normalised too: every token a fix changes there is a change away from gold, counted per fix.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
INPUTS = ROOT / "work" / "snapshot" / "inputs"


def _scores(gold, pred) -> dict:
    from rublimp.parse.evaluate import attachment_scores

    att = attachment_scores(gold, pred)
    n = feats = 0
    for g, p in zip(gold, pred):
        for gt, pt in zip(g.tokens, p.tokens):
            n += 1
            feats += gt.feats == pt.feats
    return {"upos": round(att["upos"], 3), "feats": round(100.0 * feats / n, 3), "las": round(att["las"], 3),
            "uas": round(att["uas"], 3), "tokens": n}


def measure(gold_path: Path, pred_path: Path) -> dict:
    from rublimp.conllu_doc import read_conllu
    from rublimp.trees.normalise import norm_marks, normalise

    gold_all = {s.sent_id: s for s in read_conllu(gold_path)}
    gold, pred, skipped = [], [], 0
    for p in read_conllu(pred_path):
        g = gold_all.get(p.sent_id)
        if g is None or [t.form for t in g.tokens] != [t.form for t in p.tokens]:
            skipped += 1
            continue
        gold.append(g)
        pred.append(p)
    normed = [normalise(p) for p in pred]
    per_fix: dict[str, Counter] = {}
    for g, p, q in zip(gold, pred, normed):
        for gt, pt, qt in zip(g.tokens, p.tokens, q.tokens):
            for fix in norm_marks(qt):
                c = per_fix.setdefault(fix, Counter())
                c["changed"] += 1
                c["upos_before"] += gt.upos == pt.upos
                c["upos_after"] += gt.upos == qt.upos
                c["feats_before"] += gt.feats == pt.feats
                c["feats_after"] += gt.feats == qt.feats
                c["arc_before"] += (gt.head, gt.deprel) == (pt.head, pt.deprel)
                c["arc_after"] += (gt.head, gt.deprel) == (qt.head, qt.deprel)
    on_gold: Counter = Counter()
    for g in gold_all.values():
        for t in normalise(g).tokens:
            on_gold.update(norm_marks(t))
    return {"sentences": len(gold), "skipped_tokenisation": skipped,
            "before": _scores(gold, pred), "after": _scores(gold, normed),
            "per_fix": {k: dict(v) for k, v in sorted(per_fix.items())},
            "gold_tokens_changed": dict(sorted(on_gold.items())), "gold_sentences": len(gold_all)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold", default=str(INPUTS / "gsd_gold.conllu"))
    ap.add_argument("--pred", default=str(INPUTS / "gsd_reparsed.conllu"))
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    out = measure(Path(args.gold), Path(args.pred))
    print(f"{out['sentences']} sentences ({out['skipped_tokenisation']} left out: tokenised differently)")
    for k in ("before", "after"):
        print(f"  {k:6s} " + "  ".join(f"{a}={b}" for a, b in out[k].items()))
    for fix, c in out["per_fix"].items():
        print(f"  {fix}: {c['changed']} tokens changed; gold UPOS {c['upos_before']}->{c['upos_after']}, "
              f"feats {c['feats_before']}->{c['feats_after']}, head+deprel {c['arc_before']}->{c['arc_after']}")
    print(f"  on gold trees ({out['gold_sentences']} sentences), tokens changed: {out['gold_tokens_changed']}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
