"""The recovered subjects as a fix of the normalisation pass (the edges/recovered family).

:func:`rublimp.trees.subjects.repaired_edges` finds subjects that the parser attached under another
relation: a nominative object or oblique of a verb without a subject
(:func:`~rublimp.trees.subject_repairs.unlabelled_subject_edges`), a verb hung below its own subject's
noun phrase (:func:`~rublimp.trees.subject_repairs.stranded_subject_edges`), a subject hung on a
modifier of its verb (:func:`~rublimp.trees.subject_repairs.sibling_subject_edges`), a nominative hung
below another nominal of the verb's clause (:func:`~rublimp.trees.subject_repairs.buried_subject_edges`)
and the object of a reflexive infinitive (:func:`~rublimp.trees.subject_repairs.reflexive_infinitive_subject_edges`).
Those edges used to hand the agreement paradigms a nominative subject of the predicate while the tree,
and every other paradigm, read the token as the parser attached it.

:func:`recovery_fix` writes the edges of the functions in :data:`IN_TREE` into the tree once per
sentence: the subject becomes the ``nsubj`` of the edge's predicate with the features the edge reads.
On the normalised tree the edge functions then find these subjects as ordinary subject–predicate edges.

Two readings stay named subject policies of the agreement edges (the tree keeps the parse):

* every stranded edge: the verb hangs inside the subject's phrase, mostly as the ``conj`` of a nominal
  predicate («X — река, протекает …»), where UD keeps the shared subject on the first conjunct; on GSD
  gold trees it fires 8 times, each away from gold, and on the demo corpus 5 of its 6 subjects are
  wrong (a genitive «биостанции» read as a plural nominative, «аллеи» for «пруды»);
* a sibling edge whose verb is the ``conj`` of the word holding the subject («она мягкая и не
  трескается»): the subject of coordinated predicates belongs to the first conjunct in UD.
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..morph import Morph
from .edges import AgreementEdge, subject_predicate_edges
from .subject_repairs import (
    buried_subject_edges,
    reflexive_infinitive_subject_edges,
    sibling_subject_edges,
    stranded_subject_edges,
    unlabelled_subject_edges,
)

__all__ = ["IN_TREE", "RECOVERIES", "recovered_edges", "recovery_fix"]

#: the edge functions in the order :func:`rublimp.trees.subjects.repaired_edges` asks them; each takes the
#: sentence and the edges found so far (whose predicates and subjects it leaves alone)
RECOVERIES = (
    unlabelled_subject_edges,
    stranded_subject_edges,
    sibling_subject_edges,
    buried_subject_edges,
    reflexive_infinitive_subject_edges,
)
#: the functions whose edges :func:`recovery_fix` writes into the tree (stranded edges stay a policy)
IN_TREE = frozenset({"unlabelled_subject_edges", "sibling_subject_edges", "buried_subject_edges",
                     "reflexive_infinitive_subject_edges"})


def recovered_edges(sent: Sentence) -> list[tuple[str, AgreementEdge]]:
    """(function name, edge) for each subject–predicate edge the functions of :data:`RECOVERIES` find in
    ``sent`` beside the edges of the tree (:func:`rublimp.trees.edges.subject_predicate_edges`), in their
    order (each function is given the edges found before it, as :func:`rublimp.trees.subjects.repaired_edges`
    gives them)."""
    real = list(subject_predicate_edges(sent))
    out: list[tuple[str, AgreementEdge]] = []
    for find in RECOVERIES:
        found = find(sent, real)
        real += found
        out += [(find.__name__, e) for e in found]
    return out


def _in_tree(sent: Sentence, name: str, edge: AgreementEdge) -> bool:
    """Whether the edge found by the function ``name`` goes into the tree (see the module docstring)."""
    if name not in IN_TREE:
        return False
    if name == "sibling_subject_edges" and edge.predicate.base_deprel == "conj":
        return False
    # a predicate inside its subject's phrase would make a cycle (only stranded edges have one)
    return not sent.descends_from(edge.predicate, edge.subject)


def _can_be_nominative(morph: Morph, tok: Token) -> bool:
    """Whether the subject's form has a nominative reading, or pymorphy3 does not know the word (the
    tagger's nominative of a known form that cannot be one, «Подарков», is the tagger's error, not a
    subject: the roles fix reads it as the genitive it is)."""
    form = tok.form.lower()
    if not morph.word_is_known(form):
        return True
    return any("nomn" in p.tag.grammemes for p in morph.parses(form))


def recovery_fix(sent: Sentence, morph: Morph) -> Sentence:
    """``sent`` with the subject of each edge of :func:`recovered_edges` that goes into the tree
    (:data:`IN_TREE`; not a sibling edge whose verb is a ``conj``) made the ``nsubj`` of the edge's
    predicate, with the features the edge reads (a tagged accusative becomes the agreeing nominative:
    «По воде расходился круг»); ``sent`` itself when there is none. The edge functions give each
    subject and predicate to one edge only."""
    changed: dict[int, Token] = {}
    for name, edge in recovered_edges(sent):
        if _in_tree(sent, name, edge) and edge.subject.id not in changed and _can_be_nominative(morph, edge.subject):
            subj = sent.token(edge.subject.id)
            changed[subj.id] = dataclasses.replace(subj, head=edge.predicate.id, deprel="nsubj", feats=dict(edge.subject.feats))
    if not changed:
        return sent
    return dataclasses.replace(sent, tokens=[changed.get(t.id, t) for t in sent.tokens])
