"""Hand-written dependency trees for the paradigm tests (parser errors written out row by row)."""

from __future__ import annotations

from collections.abc import Sequence

from rublimp.conllu_doc import Sentence, read_conllu_string


def tree(rows: Sequence[tuple], text: str | None = None, sent_id: str = "t") -> Sentence:
    """A one-sentence tree from ``(form, lemma, upos, feats, head, deprel)`` rows (ids from 1; empty
    feats become ``_``).  ``text`` defaults to the forms joined by spaces, with no space before
    ``.``, ``,`` and ``!``."""
    if text is None:
        text = " ".join(r[0] for r in rows).replace(" .", ".").replace(" ,", ",").replace(" !", "!")
    lines = [f"# sent_id = {sent_id}", f"# text = {text}"]
    for i, (form, lemma, upos, feats, head, deprel) in enumerate(rows, start=1):
        lines.append(f"{i}\t{form}\t{lemma}\t{upos}\t_\t{feats or '_'}\t{head}\t{deprel}\t_\t_")
    return read_conllu_string("\n".join(lines) + "\n\n")[0]
