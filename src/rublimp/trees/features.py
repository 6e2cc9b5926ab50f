"""Feature matching between two readings, shared by the nominal morphology and the pair self-check.

A *reading* here is anything with ``case``, ``number``, ``genders`` (a frozenset, empty when the
reading has no gender) and ``animacy`` attributes: :class:`rublimp.trees.nominal.Agr`, or the
self-check's :class:`rublimp.paradigms.selfcheck.Reading`. Kept in a module of its own so that both
can use it without one importing the other (each import widens what an edit reruns).
"""

from __future__ import annotations

from typing import Any

__all__ = ["agrees"]


def agrees(modifier: Any, head: Any) -> bool:
    """Whether a modifier reading agrees with a head reading.

    Case and number must be equal; in the singular the genders must overlap
    (a reading without gender is compatible with any); in the accusative an
    animacy marked on both sides must match («нового дома» is not the
    accusative of an inanimate noun).
    """
    if modifier.case != head.case or modifier.number != head.number:
        return False
    if modifier.number == "Sing" and modifier.genders and head.genders and not modifier.genders & head.genders:
        return False
    if modifier.case == "Acc" and modifier.animacy and head.animacy and modifier.animacy != head.animacy:
        return False
    return True
