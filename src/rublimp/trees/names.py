"""Names apposed to a common noun, in the shapes :func:`rublimp.trees.roles.has_attached_name` leaves to
this module: the parser made the name the head of the phrase, or a comma or dash stands between the
noun and the name.

Both say that a person is named beside the noun, so an edit that replaces the noun alone would leave
the name to carry its role («написана генералом Батлером» → «*… фрагментом Батлером»).
"""

from __future__ import annotations

from ..conllu_doc import Sentence, Token

__all__ = ["apposed_name"]

#: separators between a noun and its apposed name («художником, Иваном Петровым»)
NAME_SEPARATORS = frozenset({",", "—", "–", "-"})
#: relations by which a parser hangs a common noun on the name it describes
NOUN_ON_NAME = frozenset({"appos", "flat", "nmod", "conj"})


def apposed_name(sent: Sentence, tok: Token) -> bool:
    """Whether a PROPN in ``tok``'s case names ``tok``'s referent: ``tok`` hangs (appos, flat, nmod
    without a preposition, or conj without a conjunction) on that PROPN; or ``tok`` and a neighbour
    in its case stand on either side of a single comma or dash, one of them a PROPN and the other
    a noun or name (``«инженером, Петровым»`` for either word). False when ``tok`` has no case."""
    case = tok.feats.get("Case")
    if not case:
        return False
    if tok.head:
        head = sent.token(tok.head)
        if head.upos == "PROPN" and head.feats.get("Case") == case and tok.base_deprel in NOUN_ON_NAME \
                and not sent.children(tok, "case") and not sent.children(tok, "cc"):
            return True
    for sep_id, other_id in ((tok.id + 1, tok.id + 2), (tok.id - 1, tok.id - 2)):
        if other_id < 1 or other_id > len(sent.tokens) or sent.token(sep_id).form not in NAME_SEPARATORS:
            continue
        other = sent.token(other_id)
        if other.feats.get("Case") == case and "PROPN" in (tok.upos, other.upos) \
                and {tok.upos, other.upos} <= {"NOUN", "PROPN"}:
            return True
    return False
