"""Parser evaluation against gold trees with identical tokenization.

Scores are computed over *all* tokens, punctuation included (the CoNLL 2018
shared-task convention); the ``*_nopunct`` variants leave out tokens whose gold
UPOS is PUNCT, so both conventions can be reported.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..conllu_doc import Sentence
from .mst import is_valid_tree

__all__ = ["attachment_scores", "invalid_tree_share", "lemma_accuracy"]


def _check_pair(k: int, g: Sentence, p: Sentence) -> None:
    if len(g) != len(p):
        raise ValueError(
            f"sentence {k} ({g.sent_id!r}): gold has {len(g)} tokens, prediction has {len(p)}; "
            "attachment scores need identical tokenization"
        )


def attachment_scores(gold: Sequence[Sentence], pred: Sequence[Sentence]) -> dict[str, float | int]:
    """UAS / LAS of ``pred`` against ``gold`` (same sentences, same tokens, same order).

    Returns percentages: ``uas``, ``las`` (full relations, e.g. ``nsubj:pass``),
    ``las_base`` (relation without subtype), the same three with ``_nopunct``
    (gold PUNCT tokens excluded), plus ``tokens``, ``tokens_nopunct``,
    ``sentences`` and ``upos`` (tagging accuracy, all tokens).
    """
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} sentences, prediction has {len(pred)}")
    counts = {k: 0 for k in ("tok", "uas", "las", "las_base", "tok_np", "uas_np", "las_np", "las_base_np", "upos")}
    for k, (g, p) in enumerate(zip(gold, pred)):
        _check_pair(k, g, p)
        for gt, pt in zip(g.tokens, p.tokens):
            head = gt.head == pt.head
            full = head and gt.deprel == pt.deprel
            base = head and gt.base_deprel == pt.base_deprel
            counts["tok"] += 1
            counts["uas"] += head
            counts["las"] += full
            counts["las_base"] += base
            counts["upos"] += gt.upos == pt.upos
            if gt.upos != "PUNCT":
                counts["tok_np"] += 1
                counts["uas_np"] += head
                counts["las_np"] += full
                counts["las_base_np"] += base

    def pct(num: int, den: int) -> float:
        return 100.0 * num / den if den else float("nan")

    return {
        "uas": pct(counts["uas"], counts["tok"]),
        "las": pct(counts["las"], counts["tok"]),
        "las_base": pct(counts["las_base"], counts["tok"]),
        "uas_nopunct": pct(counts["uas_np"], counts["tok_np"]),
        "las_nopunct": pct(counts["las_np"], counts["tok_np"]),
        "las_base_nopunct": pct(counts["las_base_np"], counts["tok_np"]),
        "upos": pct(counts["upos"], counts["tok"]),
        "tokens": counts["tok"],
        "tokens_nopunct": counts["tok_np"],
        "sentences": len(gold),
    }


def _fold(s: str) -> str:
    return s.lower().replace("ё", "е")


def lemma_accuracy(gold: Sequence[Sentence], pred: Sequence[Sentence]) -> float:
    """Share (%) of tokens whose lemma matches gold, ignoring case and ё/е."""
    hit = tot = 0
    for k, (g, p) in enumerate(zip(gold, pred)):
        _check_pair(k, g, p)
        for gt, pt in zip(g.tokens, p.tokens):
            tot += 1
            hit += _fold(gt.lemma) == _fold(pt.lemma)
    return 100.0 * hit / tot if tot else float("nan")


def invalid_tree_share(heads_list: Iterable[Sequence[int]]) -> float:
    """Fraction (0..1) of head sequences that are not one tree with exactly one root.

    Each element lists the heads of tokens 1..n (0 = ROOT); a sentence is
    invalid if it has a cycle, no root, several roots or an out-of-range head.
    """
    total = bad = 0
    for heads in heads_list:
        total += 1
        bad += not is_valid_tree(list(heads))
    return bad / total if total else 0.0
