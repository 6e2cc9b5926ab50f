"""Memos of the tree layer: one per sentence, one per token object.

A repair or query computed for one paradigm is reused by every other paradigm that asks the same
question of the same sentence object, so a sentence is read and repaired once per process.

* :func:`sentence_memo` keeps values on the :class:`~rublimp.conllu_doc.Sentence` itself (one dict
  under one attribute), so they live exactly as long as the sentence.
* :func:`token_memo` keeps values per token *object* in a bounded module dict; the entry keeps the
  token, so an id reused after garbage collection is never mistaken for it.

Keys must name everything the value depends on besides the sentence/token (e.g. the morphology
object's id where a computation reads a particular analyser).
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

from ..conllu_doc import Sentence, Token

T = TypeVar("T")

_SENT_ATTR = "_trees_memo"
_TOKEN_MEMO: dict[tuple, tuple] = {}
_TOKEN_MEMO_MAX = 100_000


def sentence_memo(sent: Sentence, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()`` once per (sentence object, key); later calls return the stored value."""
    memo: dict[Hashable, Any] | None = sent.__dict__.get(_SENT_ATTR)
    if memo is None:
        memo = sent.__dict__[_SENT_ATTR] = {}
    try:
        return memo[key]
    except KeyError:
        value = memo[key] = compute()
        return value


def sentence_memo_get(sent: Sentence, key: Hashable, default: Any = None) -> Any:
    """The stored value for (sentence, key), or ``default`` when none was computed yet."""
    memo = sent.__dict__.get(_SENT_ATTR)
    return default if memo is None else memo.get(key, default)


def sentence_memo_set(sent: Sentence, key: Hashable, value: T) -> T:
    """Store ``value`` for (sentence, key) (for values built in steps); returns it."""
    memo = sent.__dict__.get(_SENT_ATTR)
    if memo is None:
        memo = sent.__dict__[_SENT_ATTR] = {}
    memo[key] = value
    return value


def token_memo(kind: Hashable, tok: Token, compute: Callable[[], T]) -> T:
    """``compute()`` memoised per token object and ``kind`` (bounded; cleared when full)."""
    key = (kind, id(tok))
    hit = _TOKEN_MEMO.get(key)
    if hit is not None and hit[0] is tok:
        return hit[1]
    if len(_TOKEN_MEMO) >= _TOKEN_MEMO_MAX:
        _TOKEN_MEMO.clear()
    value = compute()
    _TOKEN_MEMO[key] = (tok, value)
    return value
