"""The subject–predicate feature fixes of the normalisation pass (the edges/agreement family).

The repairs of a subject–predicate edge that change a token used to hand back a changed copy of the
token inside the edge only, so the agreement paradigms read, e.g., a genitive singular subject as a
nominative plural while the noun-phrase paradigms and agreement validation read the parse. Here
they are token fixes of :data:`rublimp.trees.normalise.FIXES`, run once per sentence:

* :func:`predicate_fix`: every word that can be the agreeing word of an edge (a finite, non-imperative
  verb or auxiliary; a short adjective or participle) read by
  :func:`rublimp.trees.verbs.predicate_features` (Number/Gender/Person/Tense from pymorphy3 where every
  verbal reading of the form agrees). It reads only the form: «пришли» tagged singular is plural.
* :func:`subject_fix`: the subject of each subject–predicate edge of the tree
  (:func:`rublimp.trees.edges.subject_predicate_edges`) as the edge repairs read it against its
  predicate: :func:`~rublimp.trees.subject_repairs.subject_repair` (a noun tagged with a case or
  number that contradicts the predicate, read as the nominative that agrees: «Девочки (tagged
  genitive singular) кинулись») and :func:`~rublimp.trees.subject_repairs.pronoun_repair` («кто»
  without a number is singular; «Все» tagged singular beside a plural predicate is plural). Which
  subjects qualify depends on the edge's kind and negation, so :func:`~rublimp.trees.verbs.negation_repair`
  and :func:`~rublimp.trees.subject_repairs.case_repair` are read first; they change only those edge
  attributes, never a token, and stay queries of :func:`rublimp.trees.subjects.repaired_edges`.

On the normalised tree the edge repairs then find nothing left to change: every paradigm and
:func:`rublimp.agreement_validation.validate_agreement` read the same subject and predicate features.
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..morph import Morph
from .edges import is_finite, is_short, subject_predicate_edges
from .subject_repairs import case_repair, pronoun_repair, subject_repair
from .verbs import negation_repair, predicate_features

__all__ = ["can_agree", "predicate_fix", "subject_fix"]


def can_agree(tok: Token) -> bool:
    """Whether ``tok`` can be the agreeing word of a subject–predicate edge
    (:func:`rublimp.trees.edges.agreeing_word`): a finite non-imperative verb or auxiliary, or a short form."""
    if tok.upos in ("VERB", "AUX") and is_finite(tok):
        return True
    return is_short(tok) and tok.upos in ("ADJ", "VERB", "AUX", "DET")


def _with_tokens(sent: Sentence, changed: dict[int, Token]) -> Sentence:
    if not changed:
        return sent
    return dataclasses.replace(sent, tokens=[changed.get(t.id, t) for t in sent.tokens])


def predicate_fix(sent: Sentence, morph: Morph) -> Sentence:
    """``sent`` with every word that can agree (:func:`can_agree`) read by :func:`predicate_features`
    («Они пришли» with «пришли» tagged Number=Sing gets Number=Plur); ``sent`` itself when none changes."""
    changed = {}
    for tok in sent.tokens:
        if can_agree(tok):
            new = predicate_features(tok)
            if new is not tok:
                changed[tok.id] = new
    return _with_tokens(sent, changed)


def subject_fix(sent: Sentence, morph: Morph) -> Sentence:
    """``sent`` with the subject of each subject–predicate edge read against its predicate by
    :func:`subject_repair` and :func:`pronoun_repair` (after the edge's negation and kind:
    :func:`negation_repair`, :func:`case_repair`); ``sent`` itself when no subject changes. The
    predicate's own features are read as the tree has them, so :func:`predicate_fix` runs first."""
    changed = {}
    for edge in subject_predicate_edges(sent):
        repaired = pronoun_repair(subject_repair(sent, case_repair(sent, negation_repair(sent, edge))))
        subj = repaired.subject
        if subj is not edge.subject and (subj.upos, subj.feats) != (edge.subject.upos, edge.subject.feats):
            changed[subj.id] = subj
    return _with_tokens(sent, changed)
