"""The paradigm interface, the registry, and how an edit becomes a minimal pair.

A paradigm is one small class: it looks at a parsed :class:`~rublimp.conllu_doc.Sentence`
and proposes :class:`Perturbation` objects, each a set of token-level edits plus
what was changed (feature, old value, new value). Everything else — applying
the edit to the original text span, capitalisation, the pair invariants, the
output row — is done here, once, for all paradigms.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import Morph, get_morph, match_case
from ..trees.normalise import RESOURCES as NORMALISE_RESOURCES
from ..trees.normalise import RESOURCES_DIR as BUNDLED_RESOURCES_DIR
from ..trees.normalise import normalise
from .selfcheck import SelfCheckStats, check_perturbation

__all__ = [
    "Edit",
    "Perturbation",
    "Paradigm",
    "ParadigmContext",
    "register",
    "REGISTRY",
    "get_paradigm",
    "paradigm_names",
    "apply_edits",
    "written_form",
    "InvariantError",
    "check_pair",
    "RESOURCES_DIR",
    "OPTION_DEFAULTS",
]

#: the bundled resource folder (the tree layer names it: the normalisation pass reads it too)
RESOURCES_DIR: Path = BUNDLED_RESOURCES_DIR

#: What a paradigm uses for each ``perturb.options`` key the config leaves out: the one place these
#: defaults live (config/schema.yaml states each as the key's ``x-default``; tests/test_config.py
#: checks both agree). None for a file option means the bundled table under ``resources/``, and for
#: ``suffix_pair_max_lemmas`` the class's ``MAX_PAIR_LEMMAS``.
OPTION_DEFAULTS: dict[str, Any] = {
    "agreement_min_conf": 0.0,
    "argument_structure_person_names": True,
    "aspect_pairs": None,
    "negative_indefinite_pronouns": None,
    "temporal_markers": None,
    "suffix_pair_max_lemmas": None,
    "prefix_candidates": 1,
    "attractor_scope": "clause",
}

LEVELS = ("Morphology", "Syntax", "Semantics")


@dataclass(frozen=True)
class Edit:
    """Replace the text span of token ``token_id`` by ``new_form``.

    ``new_form`` is given in lower case or as the dictionary produces it; the
    capitalisation of the original token is carried over unless ``keep_case``
    is False. An empty ``new_form`` deletes the token together with one
    adjacent space (:func:`apply_edits`): a word-moving paradigm's moved word, or
    the name of an argument replaced together with its noun, which
    :func:`check_pair` then holds to its exact rule. A ``new_form`` of several words
    one space apart inserts words (the preposition «в» written as «ни в» before the
    pronoun edited from «какой-то» to «какой»), held to the same exact rule.
    """

    token_id: int
    new_form: str
    keep_case: bool = True


@dataclass
class Perturbation:
    edits: tuple[Edit, ...]
    feature: str
    source_value: str
    target_value: str
    subtype: str = ""
    # the word(s) to record; default: the edited tokens' forms joined by " "
    source_word: str | None = None
    target_word: str | None = None


@dataclass
class ParadigmContext:
    """What a paradigm may consult besides the tree."""

    morph: Morph = field(default_factory=get_morph)
    seed: int = 0
    # agreement verdicts: (feature, pred_type, subject_value, order) -> "certain"|"uncertain"|"absent"
    agreement: dict[tuple[str, str, str, str], str] | None = None
    resources_dir: Path = RESOURCES_DIR
    options: dict[str, Any] = field(default_factory=dict)
    # the self-check on every pair (rublimp.paradigms.selfcheck.check_perturbation) and the source
    # self-check on every sentence (selfcheck.source_problem, run by rublimp.perturb.build_pools);
    # their rejections are counted in ``self_check_stats`` per paradigm and reason
    self_check: bool = True
    source_check: bool = True
    self_check_stats: SelfCheckStats = field(default_factory=SelfCheckStats)


class Paradigm(ABC):
    """Base class: subclasses set the class attributes and implement :meth:`perturb`."""

    name: ClassVar[str]
    phenomenon: ClassVar[str]
    level: ClassVar[str]
    # True for paradigms that move a word instead of replacing it (negative_concord):
    # the invariant then compares word multisets instead of word positions.
    moves_words: ClassVar[bool] = False
    # Files under resources/ the paradigm reads, and the perturb.options keys it reads: both are
    # inputs/params of its perturb job only (rublimp.workflow), so editing one reruns the paradigms
    # that read it and no others. tests/test_paradigm_declarations.py checks they are complete.
    # (:meth:`read_resources` adds the files the normalisation pass reads, which every paradigm reads.)
    resources: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[str, ...]] = ()
    # What the self-check (rublimp.paradigms.selfcheck) expects of the new forms: "inflection" — a
    # dictionary form of the edited word's own lexeme, changing no person/gender/case/number/tense
    # besides the perturbation's feature; "word" — any dictionary word (another lexeme: an aspect
    # partner, a replacement noun, a pronoun); "nonword" — no dictionary word, made of letter
    # trigrams attested in Russian (resources/letter_trigrams.txt).
    new_words: ClassVar[str] = "inflection"
    # The agreement relations the paradigm breaks on purpose, which the self-check then does not
    # hold against it: "modifier" (noun–modifier inside the noun phrase), "predicate" (subject–predicate).
    breaks_agreement: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, ctx: ParadigmContext | None = None) -> None:
        self.ctx = ctx or ParadigmContext()
        self.morph = self.ctx.morph

    @classmethod
    def read_resources(cls) -> tuple[str, ...]:
        """Every file under the resource folder the paradigm reads: its own ``resources`` and those of the
        normalisation pass (:data:`rublimp.trees.normalise.RESOURCES`), which normalises every tree it
        reads. The workflow makes exactly these inputs of its perturb job and parts of its cache key."""
        return cls.resources + tuple(r for r in NORMALISE_RESOURCES if r not in cls.resources)

    @abstractmethod
    def perturb(self, sent: Sentence) -> Iterable[Perturbation]:
        """Every perturbation this paradigm can make in ``sent`` (possibly none)."""

    # convenience for subclasses and tests
    def pairs(self, sent: Sentence) -> Iterator[tuple[str, Perturbation]]:
        """(ungrammatical sentence, perturbation) for every valid perturbation of ``sent``.

        Valid: the string invariants of :func:`check_pair` hold and, unless ``ctx.self_check``
        is off, the self-check passes (:func:`rublimp.paradigms.selfcheck.check_perturbation`;
        its rejections are counted in ``ctx.self_check_stats``). The paradigm reads the normalised
        tree (:func:`rublimp.trees.normalise.normalise`, once per sentence for all paradigms).
        """
        sent = normalise(sent, self.morph, self.ctx.resources_dir)
        good = sent.text
        good_words: list[str] | None = None  # split once for all perturbations of the sentence
        check = self.ctx.self_check
        for pert in self.perturb(sent):
            try:
                bad = apply_edits(sent, pert.edits)
                if good_words is None:
                    good_words = _words(good)
                _check_pair(good, good_words, bad, pert, self.moves_words, sent)
            except InvariantError:
                continue
            if check:
                reason = check_perturbation(self, sent, pert)
                if reason is not None:
                    self.ctx.self_check_stats.reject(self.name, reason, sent.sent_id, bad)
                    continue
            yield bad, pert

    def letter_sequences(self):
        """The letter trigrams attested in Russian (``resources/letter_trigrams.txt``), loaded once.

        Kept on the paradigm with the resource folder they came from: the self-check asks for every
        non-word, and building the path and looking it up in the loader's cache each time cost 3% of
        a pass over all paradigms (measured: 11 µs a call, 21,124 calls on the demo corpus).
        """
        folder = self.ctx.resources_dir
        kept = self.__dict__.get("_letter_sequences")
        if kept is not None and kept[0] == folder:
            return kept[1]
        from ..lexicon import TRIGRAMS_FILE, load_letter_sequences

        letters = load_letter_sequences(Path(folder) / TRIGRAMS_FILE)
        self._letter_sequences = (folder, letters)
        return letters

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


REGISTRY: dict[str, type[Paradigm]] = {}


def register(cls: type[Paradigm]) -> type[Paradigm]:
    """Class decorator: make a paradigm available by its RuBLiMP name."""
    for attr in ("name", "phenomenon", "level"):
        if not getattr(cls, attr, None):
            raise TypeError(f"paradigm {cls.__name__} must set `{attr}`")
    if cls.level not in LEVELS:
        raise TypeError(f"paradigm {cls.name}: level must be one of {LEVELS}")
    if cls.name in REGISTRY and REGISTRY[cls.name] is not cls:
        raise TypeError(f"paradigm name {cls.name!r} registered twice")
    REGISTRY[cls.name] = cls
    return cls


def paradigm_names() -> list[str]:
    import rublimp.paradigms  # noqa: F401  (registers all paradigms)

    return sorted(REGISTRY)


def get_paradigm(name: str, ctx: ParadigmContext | None = None, *, config_key: str | None = None) -> Paradigm:
    """Instantiate a registered paradigm; unknown names raise InputError listing the known ones."""
    import rublimp.paradigms  # noqa: F401

    if name not in REGISTRY:
        where = f"{config_key}: " if config_key else ""
        raise InputError(f"{where}unknown paradigm {name!r}; known paradigms: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name](ctx)


# -- applying edits ---------------------------------------------------------
class InvariantError(ValueError):
    """A perturbation that would not make a valid minimal pair."""


def apply_edits(sent: Sentence, edits: Iterable[Edit]) -> str:
    """The sentence text with each edited token's character span replaced.

    Spacing, punctuation and capitalisation outside the edited spans are kept
    exactly as written. Deleted tokens (empty ``new_form``) that stand next to each
    other, with only whitespace between them, are removed as one stretch, together with
    one space next to it: the space after it, or, where punctuation follows at once, the
    space before it («архитектором Юрием Стравинским.» → «архитектором.»).
    """
    text = sent.text
    spans: list[tuple[int, int, str]] = []
    deleted: list[tuple[int, int]] = []
    for e in edits:
        tok = sent.token(e.token_id)
        if tok.start < 0:
            raise InvariantError(f"token {tok.id} ({tok.form!r}) is not aligned with the text")
        new = written_form(sent, e)
        if new == "":
            deleted.append((tok.start, tok.end))
        else:
            spans.append((tok.start, tok.end, new))
    for start, end in _deleted_stretches(text, deleted):
        if end < len(text) and text[end] == " ":
            end += 1
        elif start > 0 and text[start - 1] == " ":
            start -= 1
        spans.append((start, end, ""))
    spans.sort()
    for (s1, e1, _), (s2, _, _) in zip(spans, spans[1:]):
        if s2 < e1:
            raise InvariantError("overlapping edits")
    out = text
    for start, end, new in reversed(spans):
        out = out[:start] + new + out[end:]
    return out


def _deleted_stretches(text: str, deleted: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The deleted character spans, those separated by whitespace only merged into one; the same span twice
    is an overlap."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(deleted):
        if out and start < out[-1][1]:
            raise InvariantError("overlapping edits")
        if out and text[out[-1][1]:start].isspace():
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


#: what may stand before the first word of a sentence or of a quoted sentence
_OPENERS = "«„“\"'([—–- "


def _sentence_initial(text: str, start: int) -> bool:
    """Whether the word at ``start`` begins the text, or a sentence inside it (after . ! ? … :)."""
    before = text[:start].rstrip(_OPENERS)
    return not before or before[-1] in ".!?…:"


def written_form(sent: Sentence, edit: Edit) -> str:
    """The edit's new form as it is written in the ungrammatical sentence (capitalised like the token
    it replaces unless ``keep_case`` is off): the pool's ``target_word`` uses it too."""
    if not (edit.keep_case and edit.new_form):
        return edit.new_form
    return _cased(sent.text, sent.token(edit.token_id), edit.new_form)


def _cased(text: str, tok: Token, new_form: str) -> str:
    """``new_form`` written with the capitalisation of ``tok`` (:func:`rublimp.morph.match_case`,
    hyphen part by hyphen part), except that a capital inside a sentence is carried over only to
    the same word re-inflected (same first letter): a capitalised name replaced by another word
    mid-sentence gets no capital of its own."""
    out = match_case(tok.form, new_form)
    template = tok.form
    if (
        out[:1].isupper()
        and not new_form[:1].isupper()
        and not (template.isupper() and len(template) > 1)
        and _fold(template[:1]) != _fold(new_form[:1])
        and not _sentence_initial(text, tok.start)
    ):
        out = out[:1].lower() + out[1:]
    return out


def _fold(s: str) -> str:
    return s.lower().replace("ё", "е")


def _words(s: str) -> list[str]:
    # str.split() splits on the same whitespace as re's \s (both use str.isspace) and drops
    # empty words, at a fifth of the cost of a regex split (check_pair runs for every candidate)
    return s.split()


def check_pair(good: str, bad: str, pert: Perturbation, *, moves_words: bool = False, sent: Sentence | None = None) -> None:
    """Raise InvariantError unless (good, bad) is a well-formed minimal pair.

    bad ≠ good; the same number of whitespace-separated words; and only the
    words holding an edited token differ (for word-moving paradigms: the same
    words after removing the moved one from each side).

    A perturbation that deletes or inserts words (outside word-moving paradigms: an edit with an
    empty ``new_form``, or one whose ``new_form`` holds several words one space apart) is held to an
    exact rule instead, and needs ``sent``: the words of ``bad`` are the words of ``good`` with every
    edited token's text replaced by its written form (:func:`written_form`), split on its spaces
    (an inserting edit adds words there), and every deleted token's text removed; a word left
    empty is gone, and what is left of a word whose first token was deleted (punctuation:
    «Стравинским.» → «.») joins the word before it. Nothing else may change. A new form with
    other whitespace (leading, trailing, doubled, a tab or newline) is refused.
    """
    _check_pair(good, _words(good), bad, pert, moves_words, sent)


def _check_pair(good: str, gw: list[str], bad: str, pert: Perturbation, moves_words: bool, sent: Sentence | None) -> None:
    # check_pair with the words of ``good`` (``gw``) given
    if not pert.edits:
        raise InvariantError("perturbation without edits")
    if bad == good:
        raise InvariantError("ungrammatical sentence equals the grammatical one")
    bw = _words(bad)
    if not moves_words and any(not e.new_form or not _one_word(e.new_form) for e in pert.edits):
        _check_exact(good, bw, pert, sent)
        return
    if len(gw) != len(bw):
        raise InvariantError(f"word count changed ({len(gw)} → {len(bw)})")
    if moves_words:
        if sorted(w.lower() for w in gw) != sorted(w.lower() for w in bw):
            raise InvariantError("a moved word must leave the multiset of words unchanged")
        return
    diff = [i for i, (a, b) in enumerate(zip(gw, bw)) if a != b]
    if not diff:
        raise InvariantError("no word differs")
    if sent is not None:
        # whitespace-word index of every edited token
        allowed = set()
        for e in pert.edits:
            tok = sent.token(e.token_id)
            before = len(good[: tok.start].split())
            allowed.add(before)
            if tok.start > 0 and not good[tok.start - 1].isspace():
                allowed.add(max(0, before - 1))
        extra = [i for i in diff if i not in allowed]
        if extra:
            raise InvariantError(f"words other than the edited ones changed: {extra}")
    elif len(diff) > len(pert.edits):
        raise InvariantError("more words differ than were edited")


def _one_word(new_form: str) -> bool:
    """Whether a (non-empty) new form is a single word: no whitespace in it."""
    return not any(c.isspace() for c in new_form)


def _check_exact(good: str, bw: list[str], pert: Perturbation, sent: Sentence | None) -> None:
    """The exact rule of :func:`check_pair` for a perturbation that deletes or inserts words."""
    if sent is None:
        raise InvariantError("a perturbation that deletes or inserts words is checked against its sentence")
    if not any(e.new_form for e in pert.edits):
        raise InvariantError("a perturbation must replace a word, not only delete")
    for e in pert.edits:
        if e.new_form != " ".join(e.new_form.split()):
            raise InvariantError(f"the new form {e.new_form!r} is not words one space apart")
    if good != sent.text:
        raise InvariantError("the grammatical sentence is not the sentence's text")
    by_start: dict[int, tuple[int, str]] = {}  # token start -> (token end, new text)
    for e in pert.edits:
        tok = sent.token(e.token_id)
        if tok.start < 0 or tok.start in by_start:
            raise InvariantError(f"edit of token {tok.id} ({tok.form!r}) cannot be placed")
        by_start[tok.start] = (tok.end, written_form(sent, e))
    expected: list[str] = []
    pos = 0
    for word in _words(good):
        start = good.index(word, pos)
        end = start + len(word)
        pos = end
        out, i, first_deleted = [], start, None
        while i < end:
            if i in by_start:
                tok_end, new = by_start.pop(i)
                if tok_end > end:
                    raise InvariantError("an edited token spans more than one word")
                if first_deleted is None:
                    first_deleted = i == start and new == ""
                out.append(new)
                i = tok_end
            else:
                if first_deleted is None:
                    first_deleted = False
                out.append(good[i])
                i += 1
        pieces = "".join(out).split(" ")  # an inserting edit's words (its form is checked above)
        if not pieces[0] and len(pieces) == 1:
            continue
        if first_deleted and expected:
            expected[-1] += pieces[0]
            expected.extend(pieces[1:])
        else:
            expected.extend(pieces)
    if by_start:
        raise InvariantError("an edited token lies outside the sentence's words")
    if bw != expected:
        raise InvariantError("words other than the edited and deleted ones changed")
