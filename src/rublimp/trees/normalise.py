"""One normalised reading per token: the token-level parser fixes, applied once per sentence.

:func:`normalise` runs the fixes of :data:`FIXES` in order over a parsed sentence and returns a copy in
which every token has the one UPOS, feature set, head and relation that every paradigm and agreement
validation read (:func:`rublimp.agreement_validation.validate_agreement` counts the normalised tree;
:meth:`rublimp.paradigms.base.Paradigm.pairs` and the perturb pass read it). Forms, ids, offsets and
the sentence text never change, so edits made on the normalised tree apply to the parsed one.

Each fix is a repair of the tree layer that used to run for one group of paradigms only; a fix goes
in here only when it lowers neither the dev-split fidelity of any group nor GSD accuracy (the figures
are in the commit that added it and in ``docs/architecture.md``). Repairs that stay per paradigm
(different on purpose) remain named policies in their modules.

A changed token is marked in MISC under ``Norm``: the fixes that changed it, each with the fields it
changed, e.g. ``Norm=verb_retag(Upos:NOUN>VERB;Feats;Lemma)`` or
``Norm=verb_with_arguments(Upos:ADJ>VERB;Head:3>0;Deprel:amod>root;Feats;Lemma)``; fixes that changed one
token in turn are joined with ``+``. A sentence is normalised once: the result is memoised on the
parsed sentence, and normalising a normalised sentence (with the same resource folder's lists) returns
it unchanged.

Fixes may read word lists: :data:`RESOURCES` names the files (under the resource folder the
paradigms are given, ``ParadigmContext.resources_dir``; the bundled ``resources/`` by default) that
the pass reads. They are inputs of every perturb job, of the perturb shard pass and of agreement
validation (``rublimp.workflow``), and the memo key covers their contents.

Repairs that paradigms run again on the normalised tree (``retag_verbs`` inside
:func:`rublimp.trees.subjects.repaired_edges`) skip the trees the pass proved they leave alone: where
a fix returned its input and no later fix changed a token, the result carries that repair's no-op
mark (:data:`_NO_OP_MARKS`) in its memo.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..conllu_doc import Sentence, Token
from ..morph import Morph, get_morph
from .agreement_fixes import predicate_fix, subject_fix
from .memo import sentence_memo_get, sentence_memo_set
from .control_verbs import BUNDLED_RESOURCES, CONTROL_VERBS_FILE, ControlVerbs, load_control_verbs
from .modifiers import adjective_heading_clause, modifier_retags, modifiers_reattached
from .nominal import retag_adjectives, retag_nouns
from .roles import VERB_GOVERNMENT_FILE, load_verb_government, roles_repaired, verbs_retagged
from .subject_recovery import recovery_fix
from .verbs import RETAG_VERBS_NO_OP, retag_verbs

__all__ = ["FIXES", "NORM_KEY", "RESOURCES", "RESOURCES_DIR", "NormResources", "normalise", "norm_marks",
           "norm_resources", "upos_fixed"]

#: the MISC key that marks a changed token
NORM_KEY = "Norm"
_DONE = "normalised"

#: the files under a resource folder that the pass reads (every consumer of the normalised tree
#: declares them: rublimp.workflow adds them to each paradigm's resources and to agreement validation)
RESOURCES: tuple[str, ...] = (CONTROL_VERBS_FILE, VERB_GOVERNMENT_FILE)
#: the resource folder the pass reads when none is given (the bundled one)
RESOURCES_DIR: Path = BUNDLED_RESOURCES


@dataclass(frozen=True)
class NormResources:
    """What the fixes read from the resource folder (hashable: part of the memo key)."""

    control_verbs: ControlVerbs
    #: the verbs whose government (``verb_government.tsv``) lists a genitive object: the roles fix
    #: makes no object of theirs accusative
    genitive_verbs: frozenset[str] = frozenset()


@functools.lru_cache(maxsize=16)
def norm_resources(resources_dir: str | Path | None = None) -> NormResources:
    """The lists of :data:`RESOURCES` under ``resources_dir`` (:data:`RESOURCES_DIR` when None; kept
    per folder like the loaders' tables: :func:`normalise` asks once per sentence and paradigm, so the
    same object comes back and the memo keys compare by identity)."""
    return _norm_resources(Path(resources_dir) if resources_dir is not None else RESOURCES_DIR)


@functools.lru_cache(maxsize=16)
def _norm_resources(folder: Path) -> NormResources:
    government = load_verb_government(folder / VERB_GOVERNMENT_FILE)
    return NormResources(control_verbs=load_control_verbs(folder / CONTROL_VERBS_FILE),
                         genitive_verbs=frozenset(v for v, cases in government.items() if "Gen" in cases))


def _verb_government(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """Finite verbs tagged NOUN/ADJ/ADV that head arguments, are the ``amod`` of their own oblique
    object («замахал рукой») or swapped tags with an adverb (:func:`rublimp.trees.roles.verbs_retagged`)."""
    return verbs_retagged(sent, morph)


def _verb_retag(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """Forms pymorphy3 reads only as a finite verb, short form or infinitive retagged
    (:func:`rublimp.trees.verbs.retag_verbs`; an infinitive ``nsubj`` becomes ``csubj``)."""
    return retag_verbs(sent)


#: «сам» is a floating quantifier: which nominal it belongs to is the quantifier paradigms' question
_FLOATING = frozenset({"сам"})


def _without_floating(sent: Sentence, fixed: Sentence) -> Sentence:
    """``fixed`` with every «сам» token as it was in ``sent`` (``sent`` itself when nothing else changed)."""
    if fixed is sent:
        return sent
    tokens = [old if new is not old and old.lemma.lower() in _FLOATING else new
              for old, new in zip(sent.tokens, fixed.tokens)]
    if all(a is b for a, b in zip(tokens, sent.tokens)):
        return sent
    return dataclasses.replace(sent, tokens=tokens)


def _modifier_retag(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """Tags pymorphy3 settles inside a noun phrase (:func:`rublimp.trees.modifiers.modifier_retags`): a
    word tagged NOUN known only as a full adjective standing as a noun's modifier → ``ADJ``, «один»
    without a number → singular, «это» after its neuter noun → its ``DET``. A substantivised adjective
    standing alone keeps NOUN (GSD tags it so)."""
    return modifier_retags(sent, morph)


def _modifier_attach(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """Adjectives and participles hung on a non-noun, or on their noun under another relation, made the
    ``amod`` of the agreeing noun right after them (:func:`rublimp.trees.modifiers.modifiers_reattached`;
    «сам» excluded)."""
    return _without_floating(sent, modifiers_reattached(sent))


def _modifier_clause(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """An adjective right before its agreeing noun (in the parser's features and in pymorphy3) that the
    parser made head clause material or the noun itself becomes the noun's ``amod``, its other
    dependents going to the noun or to its old head (:func:`rublimp.trees.modifiers.adjective_heading_clause`
    without conjuncts: the second of two coordinated adjectives stays the first's ``conj``, as UD has it;
    the adjective the parser made the conjunct of a verb does not).
    A sentence where it would move a «сам» is left as it is."""
    fixed = adjective_heading_clause(sent, conjuncts=False, morph=morph)
    moves_floating = any(new is not old and old.lemma.lower() in _FLOATING for old, new in zip(sent.tokens, fixed.tokens))
    return sent if moves_floating else fixed


def _without_lists(fix: Callable[[Sentence, Morph], Sentence]) -> Callable[[Sentence, Morph, NormResources], Sentence]:
    """``fix``, a repair that reads no word list of :data:`RESOURCES`, as an entry of :data:`FIXES`."""
    @functools.wraps(fix)
    def run(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
        return fix(sent, morph)
    return run


#: a bound on the rounds of :func:`_roles`; each round that changes something changes a token's
#: reading, and a tree has so many tokens
_ROLES_ROUNDS = 8


def _roles(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    """The argument repairs (:func:`rublimp.trees.roles.roles_repaired` with the lists of
    ``control_verbs.tsv`` and the genitive verbs of ``verb_government.tsv``): parts of speech, cases and argument relations pymorphy3 leaves no doubt
    about, run until a round changes nothing, so that the normalised tree is their fixed point.

    Last in :data:`FIXES`: it reads the tree the other fixes made (the argument paradigms read their
    repair on the normalised tree before it was merged, so their input stays the same), and none of
    the others reads what it changes in a way that it would then undo."""
    verbs = res.control_verbs
    out = sent
    for _ in range(_ROLES_ROUNDS):
        fixed = roles_repaired(morph, out, predicative_verbs=verbs.predicative,
                               accusative_control_verbs=verbs.accusative_control,
                               genitive_verbs=res.genitive_verbs)
        if fixed is out:
            break
        out = fixed
    return out


#: (name, fix) in the order they run; each takes a sentence, the morphology and the lists of
#: :data:`RESOURCES`, and returns a sentence with the same token ids (the sentence itself when it
#: changes nothing)
FIXES: tuple[tuple[str, Callable[[Sentence, Morph, NormResources], Sentence]], ...] = (
    ("verb_with_arguments", _verb_government),
    ("verb_retag", _verb_retag),
    ("noun_retag", _without_lists(retag_nouns)),
    ("adjective_retag", _without_lists(retag_adjectives)),
    ("modifier_retag", _modifier_retag),
    ("modifier_attach", _modifier_attach),
    ("modifier_clause", _modifier_clause),
    ("predicate_features", _without_lists(predicate_fix)),
    ("subject_recovery", _without_lists(recovery_fix)),
    ("subject_features", _without_lists(subject_fix)),
    ("roles", _roles),
)


#: fix name -> the sentence-memo key with which its repair returns a marked sentence at once. The
#: pass sets the key on its result when the fix returned its input itself and no later fix changed a
#: token; the repair must read only the token fields :func:`_changes` compares (and ids and forms,
#: which no fix changes), so it would change nothing again
_NO_OP_MARKS: dict[str, str] = {"verb_retag": RETAG_VERBS_NO_OP}


def _changes(old: Token, new: Token) -> list[str]:
    out = []
    if old.upos != new.upos:
        out.append(f"Upos:{old.upos}>{new.upos}")
    if old.head != new.head:
        out.append(f"Head:{old.head}>{new.head}")
    if old.deprel != new.deprel:
        out.append(f"Deprel:{old.deprel}>{new.deprel}")
    if old.feats != new.feats:
        out.append("Feats")
    if old.lemma != new.lemma:
        out.append("Lemma")
    return out


def normalise(sent: Sentence, morph: Morph | None = None, resources_dir: str | Path | None = None) -> Sentence:
    """``sent`` after every fix of :data:`FIXES`, changed tokens marked in MISC (``sent`` itself when
    no fix applies or it is already normalised). The fixes read the files of :data:`RESOURCES` under
    ``resources_dir`` (the paradigms' ``ParadigmContext.resources_dir``; the bundled folder when
    None). Memoised per sentence, morphology and lists (:func:`norm_resources` keeps one object per folder)."""
    res = norm_resources(resources_dir)
    done = sentence_memo_get(sent, _DONE)
    if done is res or (done is not None and done == res):
        return sent
    morph = morph if morph is not None else get_morph()
    # keyed by the lists' object (norm_resources hands out one per folder), which the value keeps:
    # hashing the lists' contents on every call of every paradigm cost more than the look-up
    key = ("normalise", id(morph), id(res))
    hit = sentence_memo_get(sent, key)
    if hit is not None and hit[0] is res:
        return hit[1]
    return sentence_memo_set(sent, key, (res, _normalise(sent, morph, res)))[1]


def _normalise(sent: Sentence, morph: Morph, res: NormResources) -> Sentence:
    marks: dict[int, list[str]] = {}
    out = sent
    # the fixes that returned their input itself since the last fix that changed a token
    unchanged: list[str] = []
    for name, fix in FIXES:
        fixed = fix(out, morph, res)
        if fixed is out:
            unchanged.append(name)
            continue
        for old, new in zip(out.tokens, fixed.tokens):
            if old is not new:
                changes = _changes(old, new)
                if changes:
                    marks.setdefault(old.id, []).append(f"{name}({';'.join(changes)})")
                    unchanged.clear()
        out = fixed
    if not marks:
        result = sent
    else:
        tokens = [t if t.id not in marks else dataclasses.replace(t, misc={**t.misc, NORM_KEY: "+".join(marks[t.id])})
                  for t in out.tokens]
        # a plain copy: no memo of the intermediate sentences travels with it
        result = Sentence(sent_id=sent.sent_id, text=sent.text, tokens=tokens, domain=sent.domain, meta=dict(sent.meta))
    sentence_memo_set(result, _DONE, res)  # normalised, with these lists
    for name in unchanged:
        if name in _NO_OP_MARKS:
            sentence_memo_set(result, _NO_OP_MARKS[name], True)
    return result


def norm_marks(tok: Token) -> list[str]:
    """The names of the fixes that changed ``tok`` (empty for a token the parser got right)."""
    value = tok.misc.get(NORM_KEY)
    if not value:
        return []
    return [part.split("(", 1)[0] for part in value.split("+")]


def upos_fixed(tok: Token) -> bool:
    """Whether a fix changed the part of speech the parser gave ``tok`` (a word it did not see as what
    it is, e.g. a verb tagged NOUN: rules that distrust such a token's neighbours ask this)."""
    return "(Upos:" in tok.misc.get(NORM_KEY, "")  # a UPOS change is listed first in a fix's changes
