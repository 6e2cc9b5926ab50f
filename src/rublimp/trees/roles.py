"""Roles: verb government and the repairs of verbs and their arguments that the government and
argument-structure paradigms read.

* The verb-government lexicon (:data:`VERB_GOVERNMENT_FILE`, :func:`load_verb_government`: verb
  lemma → the cases of its bare non-subject arguments) and the case-table reader behind it and the
  preposition table (:func:`read_case_table`); :func:`tag_case` reads the UD case off a pymorphy3 tag.
* :func:`only_finite_verb`: pymorphy3 knows the form and reads it only as a finite verb.
* :func:`verbs_retagged`: finite verbs the parser tagged NOUN, ADJ or ADV given back their VERB tag
  (memoised per sentence, :mod:`rublimp.trees.memo`).

Every repair returns a copy of the sentence with the same token ids, offsets and forms, so an edit
found on the repaired tree applies to the original sentence.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import grammemes_to_ud
from .memo import sentence_memo
from .nominal import norm

__all__ = [
    "CASES",
    "VERB_GOVERNMENT_FILE",
    "load_verb_government",
    "only_finite_verb",
    "read_case_table",
    "tag_case",
    "verbs_retagged",
]

#: the verb-government table under ``resources/``
VERB_GOVERNMENT_FILE = "verb_government.tsv"
#: the six case values a government table may list (UD names)
CASES: tuple[str, ...] = ("Nom", "Gen", "Dat", "Acc", "Ins", "Loc")
_CASE_SET = frozenset(CASES)
# pymorphy3 case grammemes → UD case (the second genitive/locative/accusative count as the case)
_OC_CASE = {
    "nomn": "Nom", "gent": "Gen", "gen1": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc",
    "acc2": "Acc", "ablt": "Ins", "loct": "Loc", "loc1": "Loc", "loc2": "Loc", "voct": "Voc",
}
_WORD_RE = re.compile(r"^[а-яё]+(?:-[а-яё]+)*$", re.IGNORECASE)


# -- the government lexicon ------------------------------------------------------------
def read_case_table(path: Path, key_col: str, cases_col: str) -> dict[str, frozenset[str]]:
    """A ``#``-commented TSV with a header: ``key_col`` → set of UD cases in ``cases_col``."""
    # csv/polars would not give line numbers for bad rows; the format is tiny, so parse by hand
    if not path.exists():
        raise InputError("government table not found", path)
    out: dict[str, frozenset[str]] = {}
    header: list[str] | None = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = [c.strip() for c in cols]
                for col in (key_col, cases_col):
                    if col not in header:
                        raise InputError(f"header must have a {col!r} column (found {header})", path, lineno)
                continue
            if len(cols) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found {len(cols)}", path, lineno)
            key = " ".join(norm(cols[header.index(key_col)]).split())
            if not key:
                raise InputError(f"empty {key_col}", path, lineno)
            raw_cases = cols[header.index(cases_col)]
            cases = [c.strip() for c in raw_cases.split(",") if c.strip()]
            if not cases or any(c not in _CASE_SET for c in cases):
                raise InputError(
                    f"{cases_col} must be a comma-separated list of {', '.join(CASES)}; found {raw_cases!r}", path, lineno
                )
            if key in out:
                raise InputError(f"{key_col} {key!r} listed twice", path, lineno)
            out[key] = frozenset(cases)
    if header is None:
        raise InputError("no header line", path)
    return out


@functools.lru_cache(maxsize=8)
def load_verb_government(path: str | Path) -> dict[str, frozenset[str]]:
    """Verb lemma → the UD cases of its bare (prepositionless) non-subject arguments."""
    return read_case_table(Path(path), "lemma", "governs")


# -- readings ------------------------------------------------------------------------
def tag_case(tag) -> str | None:
    """The UD case of a pymorphy3 tag (gen1/gen2, loc1/loc2 and acc2 as the general case), or None."""
    for g in tag.grammemes:
        if g in _OC_CASE:
            return _OC_CASE[g]
    return None



# -- verb repairs ---------------------------------------------------------------------
# relations of a verb's nominal arguments: a NOUN/ADJ heading one may be a mis-tagged verb
_ARGUMENT_DEPRELS = frozenset({"obj", "nsubj", "obl", "iobj"})


# endings no finite verb form has (declined nominal endings): a cheap test before pymorphy3
_NOMINAL_ENDINGS = (
    "ый", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему", "ым", "ом", "ую", "юю", "ей",
    "ых", "их", "ыми", "ими", "ами", "ями", "ах", "ях", "ов", "ев", "ость", "ние", "тие", "ия", "ию",
)


@functools.lru_cache(maxsize=50_000)
def only_finite_verb(morph, form: str):
    """pymorphy3's first parse of ``form`` when it knows the word and every analysis of it is a
    finite verb, else None (so no noun, adjective or adverb reading exists: not «обману», also
    обман.Dat). Shared by the verb repairs here and the argument-structure repair, which ask about the same forms."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "VERB" for p in parses):
        return None
    return parses[0]


def _finite_verb_parse(morph, form: str):
    """:func:`only_finite_verb` behind a cheap test of the form (a declined nominal ending, a
    non-Cyrillic word)."""
    if form.lower().endswith(_NOMINAL_ENDINGS) or not _WORD_RE.match(form):
        return None
    return only_finite_verb(morph, form)


def _verb_feats(parse) -> dict[str, str]:
    feats = {"VerbForm": "Fin"}
    feats.update({k: v for k, v in grammemes_to_ud(parse.tag).items()
                  if k in ("Aspect", "Gender", "Mood", "Number", "Person", "Tense")})
    return feats


_VERBAL_POS = frozenset({"VERB", "INFN", "PRTF", "PRTS", "GRND"})


def _swapped_verb(sent: Sentence, morph) -> dict[int, Token]:
    """Repairs for a verb tagged as something else next to a word tagged as a finite verb that
    has no verbal reading at all («предостерегающе замахал рукой»: the adverb tagged VERB, the
    verb ADJ): the real verb takes the false one's place and dependents, the false one becomes
    its ``advmod``."""
    fixed: dict[int, Token] = {}
    n = len(sent.tokens)
    for f in sent.tokens:
        if f.upos != "VERB" or f.feats.get("VerbForm") != "Fin" or f.id in fixed:
            continue
        neighbours = [sent.token(i) for i in (f.id + 1, f.id - 1)
                      if 1 <= i <= n and i not in fixed and sent.token(i).upos in ("ADJ", "ADV", "NOUN")]
        if not neighbours or not _WORD_RE.match(f.form) or not morph.word_is_known(f.form) \
                or any(p.tag.POS in _VERBAL_POS for p in morph.parses(f.form)):
            continue
        for r in neighbours:
            p = _finite_verb_parse(morph, r.form)
            if p is None:
                continue
            fixed[r.id] = dataclasses.replace(r, upos="VERB", lemma=p.normal_form, feats=_verb_feats(p),
                                              head=f.head, deprel=f.deprel)
            fixed[f.id] = dataclasses.replace(f, upos="ADV", feats={}, head=r.id, deprel="advmod")
            for t in sent.children(f):
                if t.id != r.id and t.id not in fixed:
                    fixed[t.id] = dataclasses.replace(t, head=r.id)
            break
    return fixed


def verbs_retagged(sent: Sentence, morph) -> Sentence:
    """``sent`` with finite verbs the parser tagged NOUN, ADJ or ADV given back their VERB tag.

    The parser sometimes tags a finite verb as a noun, adjective or adverb («не
    отрывал взгляда», «шевельнул губами»: ADJ) while still attaching its arguments
    to it, makes it an ``amod`` of its own object («замахал рукой» with «замахал» as
    amod of «рукой»), or swaps its tag with an adverb next to it (:func:`_swapped_verb`).
    A word is retagged only when every pymorphy3 analysis of its form is a finite
    verb, and it gets pymorphy3's features; one that heads an
    ``obj``/``nsubj``/``obl``/``iobj`` keeps its place, one that is the ``amod`` of a
    following oblique noun takes that noun's place in the tree and the noun becomes
    its ``obl``. The copy shares the other tokens (ids are unchanged, so edits apply
    to ``sent``).
    """
    # the three verb-object paradigms repair the same tree
    return sentence_memo(sent, "verbs_retagged", lambda: _verbs_retagged(sent, morph))


def _verbs_retagged(sent: Sentence, morph) -> Sentence:
    swapped = _swapped_verb(sent, morph)
    if swapped:
        sent = dataclasses.replace(sent, tokens=[swapped.get(t.id, t) for t in sent.tokens])
    fixed: dict[int, Token] = {}
    for tok in sent.tokens:
        if tok.id in swapped:
            continue
        noun = sent.head_of(tok) if tok.base_deprel == "amod" else None
        if noun is not None and not (
            noun.upos in ("NOUN", "PROPN", "PRON") and tok.id < noun.id
            and noun.feats.get("Case") not in (None, "Nom") and noun.id not in fixed
        ):
            noun = None
        if noun is None and (
            tok.upos not in ("NOUN", "ADJ", "ADV") or not any(k.base_deprel in _ARGUMENT_DEPRELS for k in sent.children(tok))
        ):
            continue
        if tok.id in fixed:
            continue
        p = _finite_verb_parse(morph, tok.form)
        if p is None:
            continue
        if noun is None:
            fixed[tok.id] = dataclasses.replace(tok, upos="VERB", lemma=p.normal_form, feats=_verb_feats(p))
        else:
            fixed[tok.id] = dataclasses.replace(tok, upos="VERB", lemma=p.normal_form, feats=_verb_feats(p),
                                                head=noun.head, deprel=noun.deprel if noun.head else "root")
            fixed[noun.id] = dataclasses.replace(noun, head=tok.id, deprel="obl")
    if not fixed:
        return sent
    return dataclasses.replace(sent, tokens=[fixed.get(t.id, t) for t in sent.tokens])
