"""Names apposed to a common noun, in the shapes :func:`rublimp.trees.roles.has_attached_name` leaves to
this module: the parser made the name the head of the phrase, or a comma or dash stands between the
noun and the name.

Both say that a person is named beside the noun, so an edit that replaces the noun alone would leave
the name to carry its role («написана генералом Батлером» → «*… фрагментом Батлером»).
:func:`name_chain` finds the name written right after the noun, for an edit that replaces the whole
phrase («архитектором Юрием Стравинским» → «*камнем»).
"""

from __future__ import annotations

from typing import Callable

from ..conllu_doc import Sentence, Token

__all__ = ["apposed_name", "name_chain", "noun_before_name", "stays_without_head"]

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


#: relations by which a name's words hang on the noun or on each other («архитектором Юрием
#: Стравинским»: appos, flat:name; a name part as nmod or dep)
NAME_PART_DEPRELS = frozenset({"appos", "flat", "nmod", "dep", "compound"})
#: lower-case particles inside a name («Эберхард фон Хепп», «Арнольфо ди Камбио»)
NAME_PARTICLES = frozenset({"фон", "ван", "дер", "де", "ди", "да", "дю", "дель", "делла", "ла", "ле", "ибн", "бен", "аль", "эль", "цу"})


def stays_without_head(sent: Sentence, dep: Token) -> bool:
    """Whether ``dep`` reads as well once the word it hangs on is deleted with the noun before it: punctuation,
    a conjunct (a co-agent the parser hung on the last word of a name: «Максом Лангером и коллегами»), or a
    prepositional phrase («Фра Бевиньяте из Перуджи»), which the replacement noun takes over."""
    return dep.base_deprel in ("punct", "conj") or bool(sent.children(dep, "case"))


def name_chain(sent: Sentence, tok: Token, cases_of: Callable[[str], frozenset[str]]) -> tuple[Token, ...]:
    """The name written right after the nominal ``tok`` that names the same person, or ().

    The words right after ``tok``, one space apart, each capitalised, a PROPN (or a NOUN or X the
    parser gave a name), hanging on ``tok`` or on an earlier word of the chain by a name relation
    (:data:`NAME_PART_DEPRELS`), with no preposition of its own and in ``tok``'s case: by the parser,
    or else by one of ``cases_of(form)`` (the form's noun readings, which may be empty where they
    tell nothing); a word hung as ``nmod`` (the relation of a genitive: «Коммунальщики Ельнинска»,
    which the parser calls nominative) needs the readings where there are any.
    A lower-case particle (:data:`NAME_PARTICLES`) may stand before a word of it. Every
    dependent of the chain's words must be in the chain or :func:`stays_without_head` (no clause or
    modifier of the name's own: «Рихтером, который предложил»), and the word after the chain must
    not be a capitalised word one space away (a name part the parser hung elsewhere): otherwise ()
    — the caller then sees a name it cannot replace with the noun.
    «Проект разработан архитектором Юрием Стравинским» → (Юрием, Стравинским); «Лоточнику Гусев
    сунул кулак» (Гусев nominative: the subject) → ().
    """
    case = tok.feats.get("Case")
    if not case or tok.start < 0:
        return ()
    chain: list[Token] = []
    ids = {tok.id}
    prev = tok
    for i in range(tok.id + 1, len(sent.tokens) + 1):
        t = sent.token(i)
        particle = t.form in NAME_PARTICLES
        if not (_name_word(t) or particle) or t.start < 0 or sent.text[prev.end:t.start] != " " or t.head not in ids:
            break
        if t.base_deprel not in NAME_PART_DEPRELS or sent.children(t, "case"):
            break
        if not particle and not _in_case(t, case, cases_of(t.form)):
            break
        chain.append(t)
        ids.add(t.id)
        prev = t
    while chain and chain[-1].form in NAME_PARTICLES:
        ids.discard(chain.pop().id)  # a particle ends no name
    if not chain:
        return ()
    prev = chain[-1]
    if any(k.id not in ids and not stays_without_head(sent, k) for t in chain for k in sent.children(t)):
        return ()
    after = prev.id + 1
    if after <= len(sent.tokens) and (_name_word(sent.token(after)) or sent.token(after).form in NAME_PARTICLES) \
            and sent.text[prev.end:sent.token(after).start].isspace():
        return ()
    return tuple(chain)


def _name_word(t: Token) -> bool:
    return t.upos in ("PROPN", "NOUN", "X") and t.form[:1].isupper() and any(c.isalpha() for c in t.form)


def _in_case(t: Token, case: str, readings: frozenset[str]) -> bool:
    """``t`` is in ``case`` (see :func:`name_chain`)."""
    parsed = t.feats.get("Case")
    if parsed == case and t.base_deprel != "nmod":
        return True
    if not readings:
        return parsed == case
    return case in readings


def noun_before_name(sent: Sentence, tok: Token) -> bool:
    """Whether a lower-case animate common noun in ``tok``'s case stands right before the name ``tok``, one
    space away: the noun the name belongs to, wherever the parser hung it («вельможа Петр Переньи строит»
    with «вельможа» under «веке»), which an edit of the name alone would leave in the role."""
    case = tok.feats.get("Case")
    if not case or tok.id < 2 or tok.start < 0:
        return False
    prev = sent.token(tok.id - 1)
    return (prev.upos == "NOUN" and prev.form[:1].islower() and prev.feats.get("Case") == case
            and prev.feats.get("Animacy") == "Anim" and prev.start >= 0 and sent.text[prev.end:tok.start] == " ")
