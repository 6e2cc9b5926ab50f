"""The verb lists the tree layer's argument repair reads (``resources/control_verbs.tsv``).

:func:`rublimp.trees.roles.roles_repaired` needs two verb classes to undo the parser's errors on
object control and predicative objects; since it runs for every paradigm inside the normalisation
pass (:mod:`rublimp.trees.normalise`), the lists are a resource of the tree layer, named in
:data:`rublimp.trees.normalise.RESOURCES` and so an input of every perturb job and of agreement
validation. The argument-structure paradigms read the same lists through :func:`load_control_verbs`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..lexicon import read_word_lists

__all__ = ["BUNDLED_RESOURCES", "CONTROL_VERBS_FILE", "CONTROL_LIST_NAMES", "ControlVerbs", "load_control_verbs"]

#: the folder of the bundled resources (the repository's ``resources/``)
BUNDLED_RESOURCES = Path(__file__).resolve().parents[3] / "resources"
#: the file under a resource folder
CONTROL_VERBS_FILE = "control_verbs.tsv"
#: the lists of the file (each must have a lemma)
CONTROL_LIST_NAMES: tuple[str, ...] = ("predicative", "object_directive", "object_causative", "accusative_control")


@dataclass(frozen=True)
class ControlVerbs:
    """The lists of ``control_verbs.tsv`` as sets of lemmas (lower case; each list's meaning is in the
    file's header). Hashable: the normalisation memo is keyed by it."""

    predicative: frozenset[str]
    object_directive: frozenset[str]
    object_causative: frozenset[str]
    #: object_directive, object_causative and the file's accusative_control verbs: the verbs whose
    #: controller is an accusative object
    accusative_control: frozenset[str]


@functools.lru_cache(maxsize=8)
def load_control_verbs(path: str | Path) -> ControlVerbs:
    """The lists of the file at ``path`` (columns ``list, lemma``); an unknown list, a lemma that is
    not one word, a lemma listed twice in one list or a list with no lemma is an error naming the
    file (and line)."""
    sets = read_word_lists(Path(path), "control-verb lists", CONTROL_LIST_NAMES)
    sets["accusative_control"] = sets["object_directive"] | sets["object_causative"] | sets["accusative_control"]
    return ControlVerbs(**sets)
