"""Roles: verb government and the repairs of verbs and their arguments that the government and
argument-structure paradigms read.

* The verb-government lexicon (:data:`VERB_GOVERNMENT_FILE`, :func:`load_verb_government`: verb
  lemma → the cases of its bare non-subject arguments) and the case-table reader behind it and the
  preposition table (:func:`read_case_table`); :func:`tag_case` reads the UD case off a pymorphy3 tag.
* :func:`only_finite_verb`: pymorphy3 knows the form and reads it only as a finite verb.
* Queries over a governed nominal: its preposition (:func:`preposition_of`), whether a dependent's
  form hangs on its case (:func:`has_blocking_dependents`, with :func:`cannot_agree` for words the
  parser misattached); :func:`possessive_object` reads «его/её/их» attached as an object as the
  pronoun, :func:`with_case` re-reads a token in another case.
* :func:`verbs_retagged`: finite verbs the parser tagged NOUN, ADJ or ADV given back their VERB tag
  (the verb-object paradigms of government).
* :func:`roles_repaired`: the argument repairs (the normalisation pass's fix ``roles``; parts of
  speech, cases and relations of verbs' arguments, undone where pymorphy3 leaves no doubt), with
  the lexical tests behind them (:func:`noun_cases`, :func:`only_noun_features`, :func:`animacies`).

Both repairs are memoised per sentence (:mod:`rublimp.trees.memo`).

Every repair returns a copy of the sentence with the same token ids, offsets and forms, so an edit
found on the repaired tree applies to the original sentence.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import replace
from pathlib import Path

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..morph import UD2OC, get_morph, grammemes_to_ud
from .lexical import VERB_FORM_POS
from .memo import sentence_memo
from .names import apposed_name
from .nominal import norm

__all__ = [
    "CASES",
    "INVARIANT_DET",
    "NOMINAL_POS",
    "PERSON_NAME_TAGS",
    "PROPER_NOUN_TAGS",
    "VERB_GOVERNMENT_FILE",
    "accusative_objects",
    "agent_relation",
    "animacies",
    "cannot_agree",
    "dative_governor",
    "finite_active",
    "genitive_governor_word",
    "has_attached_name",
    "has_blocking_dependents",
    "load_verb_government",
    "maybe_shared_object",
    "noun_cases",
    "only_finite_verb",
    "only_noun_features",
    "possessive_object",
    "possessor_dative",
    "pronoun_agent",
    "quantified_genitive",
    "preposition_of",
    "QUANTIFIERS",
    "read_case_table",
    "roles_repaired",
    "sole_subject",
    "tag_case",
    "tag_number",
    "verbs_retagged",
    "with_case",
    "with_token",
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
#: pymorphy3 tags of proper nouns, abbreviations and initials (a word read with one is no common noun)
PROPER_NOUN_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init"})
#: pymorphy3 tags of personal names
PERSON_NAME_TAGS = frozenset({"Name", "Surn", "Patr"})
_GENDER_OC = UD2OC["Gender"]
_NUMBER_OC = UD2OC["Number"]
_GENDER_UD = {oc: ud for ud, oc in _GENDER_OC.items()}
_NUMBER_UD = {oc: ud for ud, oc in _NUMBER_OC.items()}
#: invariable possessives: a determiner that does not agree, so it may stay next to a re-cased noun
INVARIANT_DET = frozenset({"его", "ее", "их"})
#: words that govern the case of the noun they quantify («много книг»)
QUANTIFIERS = frozenset(
    {"много", "мало", "немного", "немало", "несколько", "сколько", "столько", "больше", "меньше",
     "достаточно", "полно", "множество", "большинство"}
)
#: comparatives that govern a genitive of comparison or measure («более половины», «свыше ста»)
COMPARATIVE_QUANTIFIERS = frozenset({"более", "менее", "больше", "меньше", "свыше", "порядка"})
#: nouns of part and quantity whose genitive dependent they govern («половина», «часть», «ряд»)
PART_NOUNS = frozenset(
    {"половина", "треть", "четверть", "часть", "большинство", "меньшинство", "множество", "ряд",
     "масса", "куча", "десяток", "сотня", "тысяча", "миллион", "миллиард", "пара", "число", "количество"}
)


def genitive_governor_word(tok: Token) -> bool:
    """Whether ``tok`` is a word that governs the genitive of a noun next to it, whatever the parse
    says: a quantity word («несколько», «много»), a comparative («более», «сильнее») or a noun of
    part or quantity («половина», «часть»)."""
    form, lemma = norm(tok.form), norm(tok.lemma)
    if form in QUANTIFIERS or lemma in QUANTIFIERS or form in COMPARATIVE_QUANTIFIERS:
        return True
    if tok.upos in ("ADJ", "ADV") and tok.feats.get("Degree") == "Cmp":
        return True
    return tok.upos == "NOUN" and lemma in PART_NOUNS


def has_attached_name(sent: Sentence, tok: Token, ignore: frozenset[int] = frozenset()) -> bool:
    """Whether a personal name or an apposition names the same referent as ``tok``. True when ``tok`` has an ``appos``/``flat`` dependent or a nominal conjunct without a
    conjunction (an apposition the parser took for one), a capitalised nominal dependent
    (a name part the parser hung as ``nmod``: «император Генрих III», «мастером Каландар
    Качимом»), or stands right next to a capitalised word that is not sentence-initial and not
    separated from it by punctuation (a name the parser attached elsewhere), or
    :func:`~rublimp.trees.names.apposed_name`. Replacing ``tok`` alone would leave the name to carry its role;
    words of ``ignore`` (ids of a name replaced together with ``tok``: :func:`~rublimp.trees.names.name_chain`) do not count.
    """
    if apposed_name(sent, tok):
        return True
    for kid in (k for k in sent.children(tok) if k.id not in ignore):
        base = kid.base_deprel
        if base in ("appos", "flat"):
            return True
        if base == "conj" and kid.upos in ("NOUN", "PROPN") and not sent.children(kid, "cc") and not (
            kid.id > 1 and sent.token(kid.id - 1).upos == "CCONJ"
        ):
            # an asyndetic "conjunct" is an apposition («писателем, автором романов»); one right
            # after a conjunction the parser hung elsewhere is coordinated («индусами и пакистанцы
            # отступили»)
            return True
        if base in ("nmod", "amod", "nummod", "dep") and kid.upos in ("PROPN", "NOUN") and kid.form[:1].isupper() \
                and not sent.children(kid, "case"):
            return True  # (a prepositional phrase, «мастерами из Пскова», names no one)
    for i in (tok.id - 1, tok.id + 1):
        if i < 1 or i > len(sent.tokens) or i in ignore:
            continue
        other = sent.token(i)
        if other.upos not in ("PROPN", "NOUN", "X") or not other.form[:1].isupper():
            continue
        if other.start < 0 or tok.start < 0:
            continue
        first, second = (other, tok) if other.id < tok.id else (tok, other)
        if not sent.text[first.end:second.start].isspace() and sent.text[first.end:second.start] != "":
            continue
        if not any(c.isalnum() for c in sent.text[: other.start]):
            continue  # a sentence-initial capital says nothing
        host = sent.head_of(other)
        if other.id < tok.id and host is not None and host.id < other.id and host.upos in ("NOUN", "PROPN"):
            continue  # a name closing the noun phrase before the word («на берегу реки Окукихта строителями»)
        if _other_argument(sent, tok, other, host):
            continue  # another argument of the verb in another case («Дал же Бог человеку талант»)
        return True
    return False


def _other_argument(sent: Sentence, tok: Token, other: Token, host: Token | None) -> bool:
    """Is the capitalised neighbour ``other`` an argument of a verb in its own right — the verb's
    ``nsubj``/``obj``/``iobj``, not hung on ``tok``, in a case the parser gives both words differently,
    the neighbour's every noun reading (pymorphy3's; :func:`name_cases`: none for an indeclinable-looking
    unknown name, which stays a name) outside ``tok``'s case? An apposition or a name
    part shares the case of the noun it names, so such a word names someone else («Дал же Бог
    человеку талант»: Бог is the subject, человеку the recipient)."""
    if host is None or host.upos != "VERB" or other.head == tok.id or other.base_deprel not in ("nsubj", "obj", "iobj"):
        return False
    mine, theirs = tok.feats.get("Case"), other.feats.get("Case")
    if not mine or not theirs or mine == theirs:
        return False
    # (an indeclinable-looking unknown name — «генералу Кикути» — may be in any case: still a name)
    cases = name_cases(get_morph(), other.form)
    return bool(cases) and mine not in cases


def possessor_dative(sent: Sentence, dat: Token) -> bool:
    """Whether the bare dative ``dat`` follows right after the noun of a prepositional phrase, whose
    possessor it then is («зашёл в тыл противнику», «бросилась на шею матери»), whatever the parser
    attached it to. Punctuation between the two breaks it."""
    if dat.id < 2:
        return False
    prev = sent.token(dat.id - 1)
    return prev.upos in ("NOUN", "PROPN") and bool(sent.children(prev, "case"))


# relations of a noun's dependent that share or fix the noun's case
_BLOCKING_DEPRELS = frozenset(
    {"amod", "det", "nummod", "acl", "appos", "conj", "flat", "compound", "fixed", "orphan", "dep", "list",
     "reparandum", "goeswith"}
)
# relations a dependent may have when it belongs to a clause the noun heads, not to the noun phrase
_CLAUSAL_DEPRELS = frozenset(
    {"nsubj", "csubj", "advcl", "parataxis", "ccomp", "xcomp", "obl", "cop", "aux", "mark", "punct", "cc",
     "discourse", "vocative", "advmod"}
)
#: pymorphy3 parts of speech whose readings can fill a case slot
NOMINAL_POS = frozenset({"NOUN", "NPRO", "ADJF", "PRTF", "NUMR"})


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


# -- queries over nominals and their dependents ----------------------------------------
def preposition_of(sent: Sentence, tok: Token) -> tuple[Token, str] | None:
    """The single case marker of ``tok`` and its text (with its ``fixed`` parts), or None.

    None when ``tok`` has no case marker, more than one, or one that follows it.
    """
    markers = sent.children(tok, "case")
    if len(markers) != 1:
        return None
    adp = markers[0]
    if adp.id > tok.id:
        return None
    parts = [adp.form] + [t.form for t in sorted(sent.children(adp, "fixed"), key=lambda t: t.id)]
    return adp, " ".join(norm(p) for p in parts)


def has_blocking_dependents(sent: Sentence, tok: Token, *, quantified_ok: bool = False, morph=None) -> bool:
    """True when ``tok`` has a dependent whose form depends on ``tok``'s case (or fixes it).

    Agreeing modifiers (adjectives, participles, non-possessive determiners,
    numerals), appositions, conjuncts, name parts and quantity words block; a
    genitive ``nmod``, a relative clause, an invariable possessive (его/её/их)
    and the clause-level dependents of a predicative noun do not. With ``morph``,
    neither does an ``amod``/``appos``/``conj`` word that has no reading in
    ``tok``'s case (:func:`cannot_agree`: «помахал Миклему рукой» with «Миклему»
    as amod of «рукой»).
    """
    for kid in sent.children(tok):
        base = kid.base_deprel
        if base == "case":
            continue
        if quantified_ok and kid.id < tok.id and (norm(kid.lemma) in QUANTIFIERS or norm(kid.form) in QUANTIFIERS):
            continue  # «унесли много жизней»: the genitive a quantity word governs stays a genitive
        if base == "det" and norm(kid.form) in INVARIANT_DET:
            continue
        if base in ("amod", "appos", "conj") and (
            (kid.upos in ("NOUN", "PROPN", "PRON") and kid.feats.get("Case") not in (None, tok.feats.get("Case")))
            or (kid.upos in ("VERB", "AUX") and kid.feats.get("VerbForm") == "Fin")
            or (morph is not None and (kid.feats.get("Case") != tok.feats.get("Case") or kid.form[:1].isupper())
                and cannot_agree(morph, kid, tok))
        ):
            # parser repair: a nominal in another case, or a finite verb, cannot agree with ``tok``
            # nor be its conjunct («помахал Мише рукой» with «Мише» as amod of «рукой»; «поднял
            # взгляд и уставился» with «уставился» as conj of «взгляд»): a misattached word
            continue
        if base == "acl" and kid.upos in ("VERB", "AUX") and kid.feats.get("VerbForm") in ("Fin", "Inf", "Conv"):
            # a finite verb is a clause of its own, misattached: «носит корону, этот скитается»; an
            # infinitive or converb does not inflect for the noun: «шевелил губами, как бы молясь»
            continue
        if base in _BLOCKING_DEPRELS:
            return True
        if kid.deprel.startswith("acl") and kid.deprel != "acl:relcl":
            return True
        if norm(kid.lemma) in QUANTIFIERS or norm(kid.form) in QUANTIFIERS:
            return True
        if kid.upos in ("ADJ", "DET", "NUM") and base not in _CLAUSAL_DEPRELS:
            return True
    return False


_CASES_CACHE: dict[str, frozenset[str]] = {}


def _nominal_cases(morph, form: str) -> frozenset[str]:
    out = _CASES_CACHE.get(form)
    if out is None:
        if len(_CASES_CACHE) > 100_000:
            _CASES_CACHE.clear()
        out = _CASES_CACHE[form] = frozenset(
            c for p in morph.parses(form) if p.tag.POS in NOMINAL_POS and (c := tag_case(p.tag)))
    return out


def cannot_agree(morph, word: Token, noun: Token) -> bool:
    """Whether ``word`` (a dictionary word) shares no case with any reading of ``noun``: it cannot
    agree with it, so the parser misattached it («помахал соседу рукой»: Dat vs Ins). Every
    reading of the noun counts, not only the parser's case, which may be wrong («лишило многие
    пары»: пары parsed genitive, многие agrees with it as an accusative). A capitalised word
    inside the sentence that the dictionary does not know (a name: «помахал Миклему рукой») is
    judged by pymorphy3's guessed readings."""
    guessed_name = word.id > 1 and word.form[:1].isupper()
    if not _WORD_RE.match(word.form) or not morph.word_is_known(noun.form) \
            or not (guessed_name or morph.word_is_known(word.form)):
        return False
    mine = _nominal_cases(morph, word.form)
    return bool(mine) and not (mine & _nominal_cases(morph, noun.form))


def tag_number(tag) -> str | None:
    """The UD number of a pymorphy3 tag, or None."""
    if "sing" in tag.grammemes:
        return "Sing"
    if "plur" in tag.grammemes:
        return "Plur"
    return None


# the personal pronoun behind an invariant possessive form: (lemma, Gender, Number)
_POSSESSIVE_AS_PRONOUN = {"его": ("он", "Masc", "Sing"), "ее": ("она", "Fem", "Sing"), "их": ("они", None, "Plur")}


def possessive_object(sent: Sentence, tok: Token) -> Token:
    """«его»/«её»/«их» tagged as a possessive determiner but attached as a verb's object
    («мы ж её никогда не слушаем»): the accusative personal pronoun. Only when no noun
    follows (a following noun is what a possessive would modify).
    """
    entry = _POSSESSIVE_AS_PRONOUN.get(norm(tok.form))
    if entry is None or tok.upos != "DET" or "Case" in tok.feats:
        return tok
    verb = sent.head_of(tok)
    if verb is None or verb.upos != "VERB" or sent.children(tok):
        return tok
    if tok.id < len(sent.tokens) and sent.token(tok.id + 1).upos in ("NOUN", "PROPN", "ADJ", "NUM", "DET"):
        return tok
    lemma, gender, number = entry
    feats = {"Case": "Acc", "Number": number, "Person": "3"}
    if gender:
        feats["Gender"] = gender
    return dataclasses.replace(tok, upos="PRON", lemma=lemma, feats=feats)


def with_case(tok: Token, case: str) -> Token:
    """A copy of ``tok`` with its Case feature replaced and its Number and Gender dropped.

    The parser read the form in another case, so its number and gender are
    not trusted either («пытки»: Acc.Plur or Gen.Sing; «им»: они.Dat or он.Ins).
    """
    feats = {k: v for k, v in tok.feats.items() if k not in ("Number", "Gender")}
    feats["Case"] = case
    return dataclasses.replace(tok, feats=feats)


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
                or any(p.tag.POS in VERB_FORM_POS for p in morph.parses(f.form)):
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


# -- argument repairs (the argument-structure paradigms read the repaired tree) ----------
def _reading_cases(parses) -> set[str]:
    """UD cases of pymorphy3 readings (gen2/loc2/acc2 count as the general case)."""
    return {c for p in parses if (c := tag_case(p.tag))}


@functools.lru_cache(maxsize=50_000)
def noun_cases(morph, form: str) -> frozenset[str]:
    """UD cases of the noun readings of ``form``."""
    return frozenset(_reading_cases(p for p in morph.parses(form) if p.tag.POS == "NOUN"))


@functools.lru_cache(maxsize=50_000)
def name_cases(morph, form: str) -> frozenset[str]:
    """The cases a word of a name can have, for :func:`~rublimp.trees.names.name_chain`: its noun
    readings, pymorphy3's guesses included («Арока»: Nom, Gen; the parser often calls a later name
    word nominative), except for a word pymorphy3 does not know ending in a vowel that marks no case
    (е, и, о, у, ю, э: «Бевиньяте», «Кикути», «Оюэ» are indeclinable, whatever pymorphy3 guesses),
    whose case only the parser can tell (an empty set)."""
    if not morph.word_is_known(form) and form[-1:].lower() in "еиоуюэ":
        return frozenset()
    return noun_cases(morph, form)


def animacies(parse) -> tuple[str, ...]:
    """The animacy grammemes of a reading: both for pymorphy3's mixed-animacy accusatives
    («куклы»: ``inan … Inmx anim``), whose ``tag.animacy`` is either one, by string-hash order."""
    grammemes = parse.tag.grammemes
    return tuple(a for a in ("anim", "inan") if a in grammemes)


def _one(values) -> str | None:
    values = set(values)
    return values.pop() if len(values) == 1 else None


_FINITE_KEYS = ("Mood", "Tense", "Number", "Person", "Gender")


@functools.lru_cache(maxsize=50_000)
def _finite_verb_features(morph, form: str) -> dict[str, str] | None:
    """Mood, tense, number, person and gender of the finite-verb readings of a known ``form``,
    where they all agree (None otherwise or with no such reading)."""
    if not morph.word_is_known(form):
        return None
    seen = {
        tuple(grammemes_to_ud(p.tag).get(k) for k in _FINITE_KEYS)
        for p in morph.parses(form) if p.tag.POS == "VERB"
    }
    if len(seen) != 1:
        return None
    values = seen.pop()
    if values[1] is None:
        return None
    return {k: v for k, v in zip(_FINITE_KEYS, values) if v is not None}


@functools.lru_cache(maxsize=50_000)
def _only_finite_features(morph, form: str) -> dict[str, str] | None:
    """VerbForm=Fin and the features all readings share, if pymorphy3 knows ``form`` only as a
    finite verb («вычитаю»: present or future, 1st person singular either way)."""
    if only_finite_verb(morph, form) is None:
        return None
    readings = [grammemes_to_ud(p.tag) for p in morph.parses(form)]
    out = {"VerbForm": "Fin"}
    for k in _FINITE_KEYS:
        values = {r.get(k) for r in readings}
        if len(values) == 1 and None not in values:
            out[k] = values.pop()
    return out if "Number" in out else None


@functools.lru_cache(maxsize=50_000)
def only_noun_features(morph, form: str) -> dict[str, str] | None:
    """Animacy (and gender, number where unique) if pymorphy3 knows ``form`` and reads it
    only as a common noun of one animacy."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "NOUN" or set(p.tag.grammemes) & PROPER_NOUN_TAGS for p in parses):
        return None
    anim = _one(a for p in parses for a in animacies(p))
    if anim is None:
        return None
    out = {"Animacy": "Anim" if anim == "anim" else "Inan"}
    gender, number = _one(p.tag.gender for p in parses), _one(p.tag.number for p in parses)
    if gender in _GENDER_UD:
        out["Gender"] = _GENDER_UD[gender]
    if number in _NUMBER_UD:
        out["Number"] = _NUMBER_UD[number]
    return out


@functools.lru_cache(maxsize=50_000)
def _only_infinitive(morph, form: str):
    """The reading of ``form`` if pymorphy3 knows it and reads it only as an infinitive."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "INFN" for p in parses):
        return None
    return parses[0]


@functools.lru_cache(maxsize=50_000)
def _only_noun_case(morph, form: str) -> dict[str, str] | None:
    """UD features of ``form`` if pymorphy3 knows it and reads it only as a noun in one case
    and one animacy (number and gender kept only where the readings agree)."""
    parses = morph.parses(form)
    if not parses or not morph.word_is_known(form) or any(p.tag.POS != "NOUN" for p in parses):
        return None
    case = _one(_reading_cases(parses))
    anim = _one(a for p in parses for a in animacies(p))
    if case is None or anim is None:
        return None
    feats = {"Case": case, "Animacy": "Anim" if anim == "anim" else "Inan"}
    number = _one(p.tag.number for p in parses)
    gender = _one(p.tag.gender for p in parses)
    if number in _NUMBER_UD:
        feats["Number"] = _NUMBER_UD[number]
    if gender in _GENDER_UD:
        feats["Gender"] = _GENDER_UD[gender]
    proper = any(set(p.tag.grammemes) & PERSON_NAME_TAGS for p in parses)
    feats["_upos"] = "PROPN" if proper else "NOUN"
    return feats


@functools.lru_cache(maxsize=100_000)
def _form_readings(morph, form: str):
    """(finite-verb reading, one-case noun features and their item set, one-animacy noun
    features and their item set, infinitive reading) of ``form``: the lookups
    :func:`_repair_token` makes, in one cache entry."""
    verb = only_finite_verb(morph, form)
    if verb is not None:
        return verb, None, None, None, None, None
    noun = _only_noun_case(morph, form)
    known = only_noun_features(morph, form)
    # (the features as item sets: «already tagged so» is one subset test of the token's items)
    noun_items = None if noun is None else frozenset((k, v) for k, v in noun.items() if k != "_upos")
    known_items = None if known is None else frozenset(known.items())
    return None, noun, noun_items, known, known_items, _only_infinitive(morph, form)


# parts of speech no repair applies to: function words and pronouns (pymorphy3 never reads
# their forms as only a verb, noun or infinitive), skipped before any lookup
_NO_REPAIR_UPOS = frozenset({"PUNCT", "ADP", "CCONJ", "SCONJ", "PART", "PRON", "DET", "NUM", "SYM"})


def _repair_token(morph, sent: Sentence, tok: Token, predicative_verbs: frozenset[str],
                  accusative_control_verbs: frozenset[str], genitive_verbs: frozenset[str]) -> Token:
    """``tok`` with the parser's part of speech, case or relation corrected where pymorphy3
    leaves no doubt (see :func:`roles_repaired`), or ``tok`` itself."""
    if tok.upos in _NO_REPAIR_UPOS or tok.start < 0 or not tok.form.isalpha():
        return tok
    if tok.upos == "ADJ" and tok.deprel == "amod":
        recipient = _recipient_before_object(morph, sent, tok)
        if recipient is not None:
            return recipient
    if tok.upos == "VERB" and tok.feats.get("VerbForm") == "Inf" and tok.base_deprel not in ("csubj", "xcomp"):
        # a finite form tagged as an infinitive («Я никого не вычитаю»); not in an infinitive's
        # slot, where «-тся» is the common misspelling of «-ться» («приходится согласится»)
        fixed = _only_finite_features(morph, tok.form)
        if fixed is not None:
            return replace(tok, feats={**tok.feats, **fixed})
    if tok.upos == "VERB" and tok.feats.get("VerbForm") == "Fin" and tok.feats.get("Mood") != "Imp":
        # a finite verb with a tense its form cannot have («Сторож сует мне ключ»: Past Fem):
        # the features of its verb readings where they agree
        fixed = _finite_verb_features(morph, tok.form)
        if fixed is not None and fixed.get("Tense") != tok.feats.get("Tense"):
            feats = {k: v for k, v in tok.feats.items() if k not in ("Tense", "Number", "Person", "Gender", "Mood")}
            feats.update(fixed)
            return replace(tok, feats=feats)
    verb, noun, noun_items, known, known_items, inf = _form_readings(morph, tok.form)
    if tok.upos == "VERB" and verb is None and (noun is not None or known is not None):
        # a word pymorphy3 reads only as a common noun tagged as a verb form («издала писк»: VERB
        # Part), with its case where the readings have one («показал незнакомцу медальон»: VERB Fin)
        feats = {k: v for k, v in tok.feats.items() if k not in ("Aspect", "Tense", "VerbForm", "Voice", "Mood", "Person")}
        feats.update(known if noun is None else {k: v for k, v in noun.items() if k != "_upos"})
        return replace(tok, upos="NOUN" if noun is None else noun["_upos"], lemma=norm(tok.lemma), feats=feats)
    if tok.upos in ("NOUN", "PROPN", "ADJ"):
        if verb is not None:
            feats = {k: v for k, v in grammemes_to_ud(verb.tag).items() if k != "Variant"}
            feats["Voice"] = "Mid" if verb.normal_form.endswith(("ся", "сь")) else "Act"
            return replace(tok, upos="VERB", lemma=verb.normal_form, feats=feats)
        if noun is not None and _genitive_controller(morph, sent, tok):
            noun = None  # an accusative controller whose form pymorphy3 reads only as genitive: kept below
        if noun is not None and noun["Case"] == "Nom" and (
            any(k.deprel == "case" for k in sent.children(tok)) or (tok.deprel == "nmod" and tok.feats.get("Case") == "Gen")
            or tok.deprel == "iobj"
        ):
            # a preposition governs no nominative, and a genitive nmod is no nominative: the one reading
            # pymorphy3 has is another word's («внутри сенека», «у Серко»: indeclinable names;
            # «гридня», the genitive of «гридень», read only as a feminine «гридня»); nor is an iobj
            # («Светлячок приходится извиниться»: the dative slot of «приходится», whatever its form)
            noun = None
        if noun is not None and tok.upos == "ADJ" and _agreeing_modifier(sent, tok) and noun["Case"] != tok.feats.get("Case"):
            # an adjective the parser made agree with its noun, in a case the noun reading does not
            # have: an adjective pymorphy3 does not know («от десной стороны»: not «десна»)
            noun = None
        if noun is not None and noun["Case"] == "Gen" and _animate_accusative_object(sent, tok, genitive_verbs):
            # an object the parser reads as an animate accusative, of a verb that takes no genitive:
            # an animate accusative looks like a genitive, and pymorphy3's one genitive reading is
            # another word's («дисквалифицировал Диксона», «предупредить Мегатрона»)
            noun = None
        if noun is not None and tok.base_deprel == "nsubj" and noun["Case"] != tok.feats.get("Case") and (
            noun["Case"] == "Gen" or (tok.feats.get("Case") == "Gen" and not _other_nominative_subject(sent, tok))
        ):
            # a subject is not made genitive nor un-made so: whether a genitive is the subject (of
            # negation) or a dropped subject's object is the subject paradigms' call («Подарков не
            # просит» tagged Nom; «Дорогу его найти было трудно» tagged Gen); beside a nominative
            # subject of its verb a «genitive subject» is read («Лейку мы забыли»: the object)
            noun = None
        if noun is not None and noun["Case"] != "Nom" and _agreeing_subject(sent, tok):
            # a nominative subject its verb agrees with stays one: the one case pymorphy3 reads is
            # another word's («Хотой дал», «Биру съежился», «куду не мигрирует»: names and loans)
            noun = None
        if noun is not None and (tok.upos == "ADJ" or not noun_items <= tok.feats.items()):
            feats = dict(tok.feats)
            feats.update({k: v for k, v in noun.items() if k != "_upos"})
            if tok.upos == "PROPN" and noun["_upos"] != "PROPN" and "Animacy" in tok.feats:
                # a name whose form pymorphy3 reads as a common noun keeps the parser's animacy: a
                # ship, a place or a firm named after a word is no animal («лететь на Ястребе»), and a
                # capitalised first word the parser calls an animate name may be one (the subject
                # paradigms then give it the neuter only: «Эпоха закончилась»)
                feats["Animacy"] = tok.feats["Animacy"]
            upos = tok.upos if tok.upos in ("NOUN", "PROPN") else noun["_upos"]
            if upos != tok.upos or feats != tok.feats:
                return replace(tok, upos=upos, feats=feats)  # (else the relation repairs below may apply)
        if noun is None and tok.upos in ("ADJ", "NOUN"):
            # a word read only as a common noun (in several cases): its POS and animacy
            # («отвесил поклон»: ADJ, or NOUN Anim)
            if known is not None and (tok.upos == "ADJ" or not known_items <= tok.feats.items()):
                feats = {k: v for k, v in tok.feats.items() if k not in ("Degree", "Variant")}
                feats.update(known)
                return replace(tok, upos="NOUN", feats=feats)
    if inf is not None and tok.upos != "AUX" and (tok.upos != "VERB" or tok.feats.get("VerbForm") != "Inf" or tok.deprel != "xcomp"):
        # (not an auxiliary or copula «быть»: GSD tags them AUX, and so must the normalised tree)
        head = sent.head_of(tok)
        prev = sent.token(tok.id - 1) if tok.id > 1 else None
        deprel = tok.deprel
        if (
            head is not None and head.upos == "VERB" and prev is not None and prev.head == head.id
            and prev.deprel == "obj" and tok.base_deprel in ("advcl", "advmod", "obj", "ccomp", "iobj", "obl")
        ):
            deprel = "xcomp"  # «заставил его замереть»: the infinitive right after the object
        feats = {"VerbForm": "Inf", "Aspect": "Perf" if "perf" in inf.tag.grammemes else "Imp"}
        if tok.upos == "VERB" and tok.feats.get("VerbForm") == "Inf":
            # an infinitive already: its other features (Voice) stay, only its relation may change
            if deprel == tok.deprel:
                return tok
            return replace(tok, deprel=deprel)
        return replace(tok, upos="VERB", lemma=inf.normal_form, feats=feats, deprel=deprel)
    if tok.upos in ("NOUN", "PROPN") and tok.base_deprel in ("xcomp", "amod", "nmod"):
        verb = _predicative_object_verb(morph, sent, tok, predicative_verbs)
        if verb is not None:
            return replace(tok, head=verb.id, deprel="obj", feats={**tok.feats, "Case": "Acc"})
    if tok.upos not in ("NOUN", "PROPN") or tok.deprel not in ("obj", "iobj", "nsubj"):
        return tok
    cases = noun_cases(morph, tok.form)
    if "Acc" not in cases and not _genitive_controller(morph, sent, tok):
        if tok.deprel == "obj" and tok.feats.get("Case") == "Nom" and "Nom" in cases and morph.word_is_known(tok.form):
            # a subject after its verb labelled obj («Тут чувствует слуга взгляд»): a form
            # that cannot be accusative is the subject of a verb that has none
            head = sent.head_of(tok)
            if (
                head is not None and head.upos == "VERB" and head.feats.get("VerbForm") == "Fin"
                and not any(k.base_deprel == "nsubj" for k in sent.children(head))
            ):
                return replace(tok, deprel="nsubj")
        return tok
    if tok.deprel in ("obj", "iobj") and tok.feats.get("Case") != "Acc":
        head = sent.head_of(tok)
        case = tok.feats.get("Case")
        if tok.deprel == "obj" and head is not None and head.upos == "VERB":
            subjects = [k for k in sent.children(head) if k.base_deprel == "nsubj" and k.id != tok.id]
            # (the parser's own animacy not inanimate, and no numeral above the genitive: «франков»,
            # «языка» have an animate homograph, «пять человека» is the numeral's genitive)
            animate_acc = (
                tok.feats.get("Animacy") != "Inan" and _animate_noun_in(morph, tok.form, "accs")
                and not any(k.deprel.startswith("nummod") for k in sent.children(tok))
            )
            # an object the parser gave a case its form cannot have («отвесил поклон»: Dat), a
            # nominative «object» next to a subject of its own («мост достроили ученики»), or
            # an animate genitive-accusative form called genitive («попросил Хогана …»)
            if "Gen" in cases and _genitive_verb(sent, head, genitive_verbs) and not _infinitive_follows(sent, head, tok):
                # the object of a verb that governs the genitive («боятся волков», «бояться грома»:
                # Ins) or is negated («не дожидаясь родителей»): a form that can be genitive is
                # not made accusative (the controller of an infinitive is: see below)
                pass
            elif (
                case not in cases or (case == "Nom" and subjects) or (case == "Gen" and animate_acc)
                or (case in ("Nom", "Gen") and _infinitive_follows(sent, head, tok))
            ):
                # (the last: an object right before its verb's infinitive is the controller,
                # and a controller is accusative: «заставил Бода проникнуть», «оставила Модин понаблюдать»)
                return replace(tok, feats={**tok.feats, "Case": "Acc"})
        if (
            tok.deprel == "iobj" and case == "Dat" and head is not None and head.upos == "VERB"
            and norm(head.lemma) in accusative_control_verbs and _infinitive_follows(sent, head, tok)
            and not any(k.deprel == "obj" for k in sent.children(head))
        ):
            # a dative-looking controller of a verb that governs the accusative («заставил
            # Александру сделать шаг», «научила Джо писать»): the accusative reading's gender
            acc = _accusative_features(morph, tok.form)
            if acc is not None:
                return replace(tok, deprel="obj", feats={**tok.feats, **acc, "Case": "Acc"})
    if tok.deprel == "iobj" and (tok.feats.get("Case") == "Acc" or ("Dat" not in cases and morph.word_is_known(tok.form))):
        # an accusative the parser itself calls so, or a form that cannot be dative, labelled
        # iobj («просил Тильво петь», «уступил брату престол»: престол iobj Gen)
        head = sent.head_of(tok)
        if (
            head is not None and head.upos == "VERB" and not any(k.deprel == "obj" for k in sent.children(head))
            and (tok.feats.get("Case") == "Acc" or _accusative_in_number(morph, tok.form, tok.feats.get("Number")))
        ):
            # (a form the parser did not call accusative must have an accusative reading in its
            # number: «жары», «ладьи» are accusative only in the plural; a singular one is a genitive)
            return replace(tok, deprel="obj", feats={**tok.feats, "Case": "Acc"})
    if tok.deprel == "nsubj" and tok.feats.get("Case") == "Acc":
        # a second «subject» the parser itself calls accusative («Сеть победила правительство»)
        # (not where the form can be an animate nominative: «…, Ратислав махал»)
        head = sent.head_of(tok)
        if (
            head is not None and head.upos == "VERB" and not _animate_noun_in(morph, tok.form, "nomn")
            and any(k.base_deprel == "nsubj" and k.id != tok.id and k.feats.get("Case") == "Nom" for k in sent.children(head))
        ):
            return replace(tok, deprel="obj")
    return tok


def _negated(sent: Sentence, verb: Token) -> bool:
    """``verb`` has the particle «не» among its dependents (the genitive of negation may follow)."""
    return any(k.form.lower() == "не" and k.deprel in ("advmod", "discourse") for k in sent.children(verb))


def _genitive_verb(sent: Sentence, verb: Token | None, genitive_verbs: frozenset[str]) -> bool:
    """``verb`` governs a genitive object: its lemma is one of ``genitive_verbs`` (those whose
    government lists ``Gen`` in ``verb_government.tsv``: «бояться», «ждать»), or it is negated."""
    if verb is None or verb.upos != "VERB":
        return False
    return norm(verb.lemma) in genitive_verbs or _negated(sent, verb)


def _animate_accusative_object(sent: Sentence, tok: Token, genitive_verbs: frozenset[str]) -> bool:
    """``tok`` is the ``obj`` of a verb that does not govern a genitive (:func:`_genitive_verb`),
    tagged an animate accusative by the parser."""
    if tok.deprel != "obj" or tok.feats.get("Case") != "Acc" or tok.feats.get("Animacy") != "Anim":
        return False
    head = sent.head_of(tok)
    return head is not None and head.upos == "VERB" and not _genitive_verb(sent, head, genitive_verbs)


def _other_nominative_subject(sent: Sentence, tok: Token) -> bool:
    """``tok``'s head has another ``nsubj`` that the parser calls nominative."""
    return any(k.id != tok.id and k.base_deprel == "nsubj" and k.feats.get("Case") == "Nom"
               for k in sent.children(tok.head)) if tok.head else False


def _agreeing_modifier(sent: Sentence, tok: Token) -> bool:
    """``tok`` is the ``amod`` of a noun with the same case and number (as the parser tagged them)."""
    if tok.deprel != "amod":
        return False
    head = sent.head_of(tok)
    return (
        head is not None and head.upos in ("NOUN", "PROPN") and "Case" in tok.feats
        and head.feats.get("Case") == tok.feats["Case"] and head.feats.get("Number") == tok.feats.get("Number")
    )


def _agreeing_subject(sent: Sentence, tok: Token) -> bool:
    """``tok`` is an ``nsubj`` the parser calls nominative, under a finite verb or short form that
    agrees with it in number, in gender where the verb has one, and in the third person."""
    if tok.base_deprel != "nsubj" or tok.feats.get("Case") != "Nom":
        return False
    head = sent.head_of(tok)
    if head is None or head.upos not in ("VERB", "AUX", "ADJ") or "Number" not in head.feats:
        return False
    if head.feats["Number"] != tok.feats.get("Number") or head.feats.get("Person", "3") != "3":
        return False
    gender = head.feats.get("Gender")
    return gender is None or head.feats["Number"] == "Plur" or gender == tok.feats.get("Gender")


def _infinitive_follows(sent: Sentence, verb: Token, tok: Token) -> bool:
    """The word right after ``tok`` is an infinitive under ``verb`` (the object-control pattern)."""
    if tok.id >= len(sent.tokens) or not sent.text[tok.end : sent.token(tok.id + 1).start].isspace():
        return False
    nxt = sent.token(tok.id + 1)
    return nxt.head == verb.id and nxt.upos == "VERB" and nxt.feats.get("VerbForm") == "Inf"


def _predicative_object_verb(morph, sent: Sentence, tok: Token, predicative_verbs: frozenset[str]) -> Token | None:
    """The verb whose object ``tok`` is, where the parser took the object for a role noun.

    Tree repair: before a role noun in the instrumental the object of a predicative verb is
    often labelled ``xcomp``, ``amod`` or ``nmod`` with a case its form cannot have
    («объявил тюремщика сообщником»: тюремщика xcomp Ins). A known animate-accusative form
    right before an instrumental noun, under that noun or beside it under the verb.
    """
    if tok.id >= len(sent.tokens):
        return None
    role = sent.token(tok.id + 1)
    if role.upos != "NOUN" or role.feats.get("Case") != "Ins" or "Ins" not in noun_cases(morph, role.form):
        return None
    if not morph.word_is_known(tok.form):
        return None
    cases = noun_cases(morph, tok.form)
    if tok.feats.get("Case") in cases or "Acc" not in cases or not _animate_noun_in(morph, tok.form, "accs"):
        return None
    head = sent.head_of(tok)
    verb = sent.head_of(role) if head is not None and head.id == role.id else head
    if verb is None or verb.upos != "VERB" or role.head != verb.id or norm(verb.lemma) not in predicative_verbs:
        return None
    if any(k.deprel == "obj" for k in sent.children(verb)):
        return None
    return verb


def _recipient_before_object(morph, sent: Sentence, tok: Token) -> Token | None:
    """``tok`` as the verb's dative recipient, where the parser took it for an adjective of the
    direct object right after it («протянул наглецу коммуникатор», «показал Дегенгарду язык»:
    ADJ amod). Only where no adjective or participle reading of the form agrees with the object
    and the animate dative noun readings (pymorphy3's guesses included: foreign names) agree on
    gender and number; a capital inside the sentence makes it a PROPN."""
    if tok.id >= len(sent.tokens) or tok.head != tok.id + 1:
        return None
    obj = sent.token(tok.id + 1)
    verb = sent.head_of(obj)
    if obj.upos != "NOUN" or obj.deprel != "obj" or obj.feats.get("Case") != "Acc" or verb is None or verb.upos != "VERB":
        return None
    parses = morph.parses(tok.form)
    obj_gender = _GENDER_OC.get(obj.feats.get("Gender", ""))
    obj_number = _NUMBER_OC.get(obj.feats.get("Number", ""))
    for p in parses:
        if p.tag.POS in ("ADJF", "PRTF") and p.tag.case == "accs" and p.tag.number == obj_number and (
            obj_number == "plur" or p.tag.gender == obj_gender
        ):
            return None
    datives = [p for p in parses if p.tag.POS == "NOUN" and p.tag.case == "datv" and "anim" in p.tag.grammemes]
    if not datives:
        return None
    gender, number = _one(p.tag.gender for p in datives), _one(p.tag.number for p in datives)
    if gender not in _GENDER_UD or number not in _NUMBER_UD:
        return None
    initial = not any(c.isalnum() for c in sent.text[: tok.start])
    upos = "PROPN" if tok.form[:1].isupper() and not initial else "NOUN"
    feats = {"Animacy": "Anim", "Case": "Dat", "Gender": _GENDER_UD[gender],
             "Number": _NUMBER_UD[number]}
    return replace(tok, upos=upos, lemma=datives[0].normal_form, feats=feats, head=verb.id, deprel="iobj")


def _genitive_controller(morph, sent: Sentence, tok: Token) -> bool:
    """An ``obj`` tagged genitive (or already repaired to accusative) right before its verb's infinitive, whose form has a masculine
    or plural genitive reading (an animate accusative looks the same): a name pymorphy3 knows
    only as an inanimate word («попросил Хогана объединиться», «заставил Бода проникнуть»)."""
    if tok.deprel != "obj" or tok.feats.get("Case") not in ("Gen", "Acc"):
        return False
    head = sent.head_of(tok)
    if head is None or head.upos != "VERB" or not _infinitive_follows(sent, head, tok):
        return False
    return any(
        p.tag.POS == "NOUN" and p.tag.case == "gent" and (p.tag.gender == "masc" or p.tag.number == "plur")
        for p in morph.parses(tok.form)
    )


@functools.lru_cache(maxsize=50_000)
def _accusative_features(morph, form: str) -> dict[str, str] | None:
    """Gender and number of the accusative noun readings of ``form`` where each is unique."""
    accs = [p for p in morph.parses(form) if p.tag.POS == "NOUN" and p.tag.case in ("accs", "acc2")]
    gender, number = _one(p.tag.gender for p in accs), _one(p.tag.number for p in accs)
    if gender not in _GENDER_UD or number not in _NUMBER_UD:
        return None
    return {"Gender": _GENDER_UD[gender], "Number": _NUMBER_UD[number]}


@functools.lru_cache(maxsize=50_000)
def _accusative_in_number(morph, form: str, number: str | None) -> bool:
    """Some noun reading of ``form`` is accusative in the UD ``number`` (any number when None)."""
    oc = _NUMBER_OC.get(number or "")
    return any(p.tag.POS == "NOUN" and p.tag.case in ("accs", "acc2") and (oc is None or p.tag.number == oc)
               for p in morph.parses(form))


@functools.lru_cache(maxsize=50_000)
def _animate_noun_in(morph, form: str, case: str) -> bool:
    """Some reading of ``form`` is an animate noun in the OpenCorpora ``case`` (``accs``, ``nomn``)."""
    return any(p.tag.POS == "NOUN" and case in p.tag.grammemes and "anim" in p.tag.grammemes for p in morph.parses(form))


def roles_repaired(morph, sent: Sentence, *, predicative_verbs: frozenset[str],
                   accusative_control_verbs: frozenset[str], genitive_verbs: frozenset[str] = frozenset()) -> Sentence:
    """A copy of ``sent`` with tree-pattern repairs the argument-structure paradigms share.

    The default parser's commonest errors on these constructions, undone only where
    pymorphy3's dictionary leaves no doubt (words it only guesses are kept as parsed):

    * a word pymorphy3 reads only as a finite verb but tagged NOUN, PROPN or ADJ («Дал же
      Бог человеку талант», «уже измеряла ей давление») becomes a VERB with its features;
    * a word it reads only as a noun in one case and animacy but tagged ADJ or with another
      case («протянул арабу бумажник»: арабу ADJ Acc; «Лоточнику … сунул»: Nom) gets that
      case (and UPOS NOUN); one it reads only as a common noun of one animacy gets that
      animacy, gender and number where they are unique (and UPOS NOUN: «поклон» ADJ);
    * an ``obj`` noun with a case its form cannot have, nominative next to a subject, or an
      animate genitive-accusative form called genitive becomes accusative where the form
      can be («отвесил поклон»: Dat; «попросил Хогана»: Gen); an ``iobj`` the parser calls
      accusative, or a known word that cannot be dative but can be accusative («уступил
      брату престол»: Gen), becomes the ``obj`` of a verb that has none;
    * a second ``nsubj`` that the parser itself calls accusative, next to a nominative one,
      becomes the ``obj``;
    * a word tagged as an adjective of the direct object right after it that cannot agree with
      it but can be an animate dative noun becomes the verb's ``iobj`` («протянул наглецу
      коммуникатор»); a known animate-accusative word before a role noun in the instrumental,
      labelled ``xcomp``/``amod``/``nmod`` in a case it cannot have, becomes the ``obj`` of a
      predicative verb («объявил тюремщика сообщником»);
    * an object tagged nominative or genitive right before its verb's infinitive becomes
      accusative (the controller; a masculine genitive form pymorphy3 knows only as inanimate
      included: «попросил Хогана объединиться»), and a dative-looking one of a verb that takes
      an accusative controller becomes its ``obj`` with the accusative reading's gender
      («научила Александру плавать»);
    * a word read only as an infinitive becomes one (VerbForm=Inf), and an ``xcomp`` where it
      follows its head's direct object under another relation («заставил духа замереть»:
      advcl) — the object-control pattern.

    Readings the context confirms stay (measured on GSD and the dev split when the repair joined the
    normalisation pass): an adjective agreeing with its noun, a nominative subject its verb agrees
    with, a noun under a preposition or a genitive ``nmod`` (not made nominative), a singular
    genitive ``iobj`` with no singular accusative reading, an ``obj`` genitive the parser calls
    inanimate or that a numeral governs, an infinitive in an infinitive's slot
    (``csubj``/``xcomp``: «приходится согласится»), an auxiliary «быть», and an infinitive's own
    features. After the blind read of the pairs it added (issue 18) also: no object of a verb that
    governs the genitive (``genitive_verbs``: «боятся волков», «бояться грома») or is negated («не
    дожидаясь родителей») made accusative where its form can be genitive; no animate accusative
    ``obj`` of another verb made genitive («предупредить Мегатрона»); no subject made genitive, nor
    un-made so but beside a nominative subject («Лейку мы забыли»), and no ``iobj`` made nominative; a PROPN keeps the parser's animacy against a
    common noun's («на Ястребе»).

    ``predicative_verbs`` (an accusative object and a predicative instrumental: «назначил её
    капитаном») and ``accusative_control_verbs`` (whose controller is an accusative object) are
    the lists of ``resources/control_verbs.tsv`` (:mod:`rublimp.trees.control_verbs`);
    ``genitive_verbs`` the lemmas whose government lists ``Gen`` in ``resources/verb_government.tsv``. The
    normalisation pass runs this repair for every paradigm (fix ``roles``) until it changes nothing.
    The result is memoised per sentence, morphology and lists.

    Token ids, offsets and forms never change, so edits apply to the original sentence.
    Where a pass changes something, a second one reads the result (a relation repair may
    need a verb the first pass found: «Дал же бог человеку дар»).
    """
    key = ("roles_repaired", id(morph), predicative_verbs, accusative_control_verbs, genitive_verbs)
    return sentence_memo(sent, key, lambda: _roles_repaired(morph, sent, predicative_verbs, accusative_control_verbs,
                                                            genitive_verbs))


def _roles_repaired(morph, sent: Sentence, predicative_verbs: frozenset[str],
                    accusative_control_verbs: frozenset[str], genitive_verbs: frozenset[str]) -> Sentence:
    out = sent
    todo = out.tokens
    for second in (False, True):
        tokens = None
        changed: set[int] = set()
        heads: set[int] = set()
        for tok in todo:
            if tok.upos in _NO_REPAIR_UPOS:
                continue
            fixed = _repair_token(morph, out, tok, predicative_verbs, accusative_control_verbs, genitive_verbs)
            if fixed is not tok and fixed != tok:
                if tokens is None:
                    tokens = list(out.tokens)
                tokens[tok.id - 1] = fixed
                changed.add(tok.id)
                heads.update((tok.head, fixed.head))
        if tokens is None or second:
            if tokens is not None:
                out = Sentence(sent.sent_id, sent.text, tokens, sent.domain, dict(sent.meta))
            break
        out = Sentence(sent.sent_id, sent.text, tokens, sent.domain, dict(sent.meta))
        # the second pass reads only the tokens whose context changed: a token's repair reads
        # itself, its neighbours, its head, the next word's head and those heads' other dependents
        touched = changed | heads
        n = len(tokens)
        todo = [
            t for t in tokens
            if t.id in changed or t.id - 1 in changed or t.id + 1 in changed or t.head in touched
            or (t.id < n and tokens[t.id].head in touched)
        ]
    return out


# -- argument queries (who is the subject, the object, the agent, the recipient's verb) -----
def maybe_shared_object(sent: Sentence, verb: Token, obj: Token) -> bool:
    """True when ``obj`` may also belong to a coordinated verb («собирала и высушивала образцы»).

    Besides a ``conj`` verb in the tree (checked by the caller), a coordinating
    conjunction between the verb and its object or right after the verb counts: the
    parser sometimes tags the second verb as something else.
    """
    lo, hi = sorted((verb.id, obj.id))
    if any(sent.token(i).upos == "CCONJ" for i in range(lo + 1, hi)):
        return True
    return verb.id < len(sent.tokens) and sent.token(verb.id + 1).upos == "CCONJ"


def agent_relation(tok: Token) -> bool:
    """The relation of a bare instrumental agent: ``obl`` (``obl:agent``), or ``xcomp``,
    ``iobj`` or ``nsubj:pass``, which the default parser gives a passive's instrumental as
    often as not («Замок охранялся стражниками»: стражниками → xcomp; «термин введён
    Ганземанном» → nsubj:pass; «была им отвергнута» → iobj); a tree-pattern repair (the
    caller checks the instrumental case and the passive head)."""
    return tok.base_deprel in ("obl", "xcomp", "iobj") or tok.deprel == "nsubj:pass"


def dative_governor(sent: Sentence, iobj: Token, noun_heads: frozenset[str]) -> Token | None:
    """The verb a dative belongs to.

    Tree repair: the default parser often hangs the recipient under the noun before it
    as an ``iobj`` («сделала знак рабу», «положил руку на плечо Джеймсу»: рабу → iobj of
    знак); ``iobj`` is a clausal relation, so a noun never governs one, and the verb is
    that noun's own head when the noun is its ``obj`` or ``obl``.
    """
    head = sent.head_of(iobj)
    if head is None or head.upos not in ("NOUN", "PROPN") or norm(head.lemma) in noun_heads:
        return head
    if iobj.deprel == "iobj" and head.base_deprel in ("obj", "obl"):
        return sent.head_of(head)
    # Tree repair: a dative right next to the verb's direct object hangs under it as an
    # nmod, amod or appos («отдала ключ Крызину», «протянул арабу бумажник»); the object
    # noun does not take that dative (the heads that do are left out above), its verb does.
    if iobj.base_deprel in ("nmod", "amod", "appos") and head.deprel == "obj" and abs(iobj.id - head.id) == 1:
        return sent.head_of(head)
    return head


def pronoun_agent(tok: Token) -> Token:
    """A pronoun «им»/«ей» the parser tagged dative, read as the singular instrumental agent."""
    gender = "Fem" if norm(tok.form) == "ей" else "Masc"
    return replace(tok, feats={**tok.feats, "Case": "Ins", "Number": "Sing", "Gender": gender}, deprel="obl")


def with_token(sent: Sentence, tok: Token) -> Sentence:
    """``sent`` with ``tok`` in place of the token with its id (forms and offsets unchanged)."""
    tokens = list(sent.tokens)
    tokens[tok.id - 1] = tok
    return Sentence(sent.sent_id, sent.text, tokens, sent.domain, dict(sent.meta))


def quantified_genitive(sent: Sentence, tok: Token) -> bool:
    """A genitive noun counted by a numeral that governs it (``nummod:gov``: «пять студентов»)."""
    return tok.feats.get("Case") == "Gen" and any(k.deprel == "nummod:gov" for k in sent.children(tok))


def finite_active(tok: Token) -> bool:
    """A finite verb not in the passive voice."""
    return tok.upos == "VERB" and tok.feats.get("VerbForm") == "Fin" and tok.feats.get("Voice") != "Pass"


def sole_subject(sent: Sentence, verb: Token) -> Token | None:
    """The verb's ``nsubj`` when it has exactly one, else None."""
    subjects = [k for k in sent.children(verb) if k.deprel == "nsubj"]
    return subjects[0] if len(subjects) == 1 else None


def accusative_objects(sent: Sentence, verb: Token) -> list[Token]:
    """The verb's ``obj`` dependents tagged accusative."""
    return [k for k in sent.children(verb) if k.deprel == "obj" and k.feats.get("Case") == "Acc"]
