"""ARGUMENT STRUCTURE: the shared part of the five RuBLiMP paradigms (Appendix B.3.1).

A transitive verb (TV) selects an animate agent and, for many verbs, an animate
object or addressee; the paradigms break that requirement with one word
changed (or two swapped), never the syntax:

* ``transitive_verb``: the TV with a direct object in the accusative is
  replaced by an intransitive verb of the same aspect, tense, mood, number,
  person and gender («все оценят сарказм» → «*все уснут сарказм»); the verbs
  come from ``resources/intransitive_verbs.tsv`` and take no nominal
  complement at all, so the object is left without a governor.
* ``transitive_verb_subject``: the animate subject of an agentive TV is
  swapped with its inanimate direct object, both re-inflected («Она оставила
  сумку» → «*Сумка оставила её»), or replaced by a random inanimate noun
  («*Химия оставила сумку»).
* ``transitive_verb_passive``: the animate agent of a passive (a bare
  instrumental) is replaced by a random inanimate noun in the instrumental
  («был написан писателем» → «*был написан фрагментом»), or swapped with the
  inanimate passive subject («*Сестра была написана книгой»).
* ``transitive_verb_object``: the animate direct object of a verb that needs an
  animate object — one of a list (пригласить, поздравить, уволить …), or an
  object that controls a predicative role noun («назначил её капитаном») or an
  infinitive after a directive verb («попросила сына купить хлеб») — is
  replaced by a random inanimate noun in the same case and number.
* ``transitive_verb_iobject``: the animate dative recipient of a verb with a
  direct object («показал незнакомцу медальон») is swapped with the object
  («*показал медальону незнакомца») or replaced by a random inanimate noun —
  RuBLiMP's released pairs — or, as the paper describes, an animate dative
  followed by an infinitive xcomp («посоветовал пациенту отдохнуть») is replaced.

The five paradigms' rules are in :mod:`~rublimp.paradigms.argument_verb_subject` (the verb and its
subject or passive agent) and :mod:`~rublimp.paradigms.argument_objects` (the object and the
recipient); this module holds what they share (the word lists, the replacement pools, the animacy
tests, the edit) and registers no paradigm. Every paradigm reads the normalised tree, which
the argument repairs (:func:`rublimp.trees.roles.roles_repaired`, the ``roles`` fix of
:mod:`rublimp.trees.normalise`) are part of. Design history and dev-split figures:
``docs/phenomena/argument_structure.md``.

Safeguards (the paper's, and what replaces its RNC semantic annotation):

* Only unmodified words are swapped; a word *replaced* outside the accusative
  keeps its modifiers (RuBLiMP does too), since a replacement noun
  has the same number and, in the singular, the same gender as the original
  (the predicate, a relative pronoun elsewhere or a secondary predicate may
  agree with it). 1st/2nd person pronoun subjects are replaced only where the
  verb marks no person (past tense), taking the verb's gender.
* Original arguments: animate in both the parser's features and pymorphy3's
  analysis (or animate for every dictionary reading where the parser says
  otherwise), no place, organisation or other non-personal proper noun
  (personal names and unknown capitalised PROPN names are admitted by default;
  ``ctx.options["argument_structure_person_names"] = False`` refuses them), and
  none of ``resources/excluded_subject_nouns.tsv``
  (groups, organisations, events, instruments, vehicles, places, time, …).
  Personal pronouns count as animate only where the construction forces an
  animate reading (the verb lists below).
* Verbs: the paper restricts contexts with the RNC's semantic annotation; here
  hand-written verb classes play that role (``resources/argument_structure_verbs.tsv``, and the
  control and predicative verbs the tree layer's repair reads too in ``resources/control_verbs.tsv``; its
  ``agent`` list: verbs of perception, cognition, speech, emotion, consumption, possession and social
  action that take a sentient subject and no causer; ``animate_object``
  and the control verbs for objects). Verbs that readily take an inanimate
  subject (получить, создать, включать, найти применение …) are left out on
  purpose, and so are verbs whose passive takes an instrumental of instrument
  or material (написан карандашом, награждён орденом) in the passive paradigm.
* Replacement nouns come from ``resources/inanimate_nouns.tsv`` (pymorphy3's
  dictionary filtered by wordfreq, minus the excluded classes); the new form
  must have no non-noun or animate reading («кругом» is also an adverb, so
  круг is never used in the instrumental). Sampling is seeded per sentence
  and argument with a SHA-256 of (seed, paradigm, sent_id, token id).
"""

from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Iterator, Sequence

from ..conllu_doc import Sentence, Token
from ..io import InputError
from ..lexicon import read_resource_tsv, read_word_lists
from ..morph import UD2OC
from ..trees.nominal import norm
from ..trees.names import name_chain, noun_before_name
from ..trees.control_verbs import CONTROL_VERBS_FILE, load_control_verbs
from ..trees.normalise import normalise
from ..trees.roles import PERSON_NAME_TAGS, has_attached_name, name_cases
from .base import OPTION_DEFAULTS, Edit, Paradigm, ParadigmContext, Perturbation

__all__ = [
    "PHENOMENON",
    "LEVEL",
    "IntransitiveVerb",
    "InanimateNoun",
    "load_intransitive_verbs",
    "load_inanimate_nouns",
    "load_excluded_nouns",
    "argument_rng",
    "VERB_LISTS_FILE",
    "VerbLists",
    "load_verb_lists",
    "ADVERBIAL_CATEGORIES",
    "ADVERBIAL_POS",
    "Argument",
    "ArgumentStructureParadigm",
    "BODY_CATEGORIES",
    "GENDERS",
    "HANDLED_CATEGORIES",
    "INTRANSITIVE_FILE",
    "MAX_TRIES",
    "NON_OBJECT_EXCEPT_FORMS",
    "NON_OBJECT_LEMMAS",
    "THEME_PREPOSITIONS",
    "analysis_of",
    "transitive_infinitive",
]

PHENOMENON = "argument_structure"
LEVEL = "Semantics"
INTRANSITIVE_FILE = "intransitive_verbs.tsv"
INANIMATE_FILE = "inanimate_nouns.tsv"
EXCLUDED_FILE = "excluded_subject_nouns.tsv"
VERB_LISTS_FILE = "argument_structure_verbs.tsv"
PERSON_NAMES_OPTION = "argument_structure_person_names"


# Prepositions whose object is the theme of an infinitive (забыть о деле, присмотреть за больным):
# with one, the infinitive's object slot is filled (на/в count with an accusative: смотреть на
# комету, играть в футбол).
THEME_PREPOSITIONS = frozenset({"о", "об", "обо", "за"})
# the classes of ``excluded_subject_nouns.tsv`` whose objects only a person handles with the
# ``subject_agent_causer`` verbs (a body part, an institution, a place, a vehicle, an instrument:
# «открыл глаза», «открыла аптеку», «закрыл кузов»); with an abstract object an abstract causer
# is fine («рост цен поднял экономику»)
HANDLED_CATEGORIES = frozenset({"body", "organisation", "place", "vehicle", "instrument"})
BODY_CATEGORIES = frozenset({"body"})
PROPER_TAGS = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init"})
PERSONAL_PRONOUNS = frozenset({"я", "ты", "мы", "вы", "он", "она", "они"})
# accusative "objects" that are no noun phrase an intransitive verb could reject
# («что ты делаешь» → «что ты спишь» is fine: что = почему; «всё» is also an adverb)
NON_OBJECT_LEMMAS = frozenset({"что", "что-то", "что-нибудь", "что-либо", "ничто", "ничего", "весь", "все", "всё"})
# ... except the animate plural «всех» («знала всех» → «*уезжала всех»: no adverb reads so)
NON_OBJECT_EXCEPT_FORMS = frozenset({"всех"})
# excluded-noun categories that make an accusative an adverbial, not an object («спал неделю»)
ADVERBIAL_CATEGORIES = frozenset({"time", "measure"})
# readings of an object form that could stand without a governor (an adverbial)
ADVERBIAL_POS = frozenset({"ADVB", "PRED", "PREP", "CONJ", "PRCL", "COMP", "INTJ", "GRND"})
_CASE_OC = UD2OC["Case"]
_NUMBER_OC = UD2OC["Number"]
GENDERS = ("Masc", "Fem", "Neut")
MAX_TRIES = 40


# -- resources -------------------------------------------------------------------------
@dataclass(frozen=True)
class IntransitiveVerb:
    lemma: str
    aspect: str  # UD: Perf | Imp
    reflexive: bool
    verb_class: str


@dataclass(frozen=True)
class InanimateNoun:
    lemma: str
    gender: str  # UD: Masc | Fem | Neut
    plural: bool  # attested in the plural


def _read_tsv(path: Path, required: Sequence[str], what: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, row) for a ``#``-commented TSV with a header line; the first column must be filled."""
    for lineno, row in read_resource_tsv(path, what, required):
        if not row[required[0]]:
            raise InputError(f"empty {required[0]}", path, lineno)
        yield lineno, row


def _flag(value: str, path: Path, lineno: int, column: str) -> bool:
    if value not in ("0", "1"):
        raise InputError(f"column {column!r} must be 0 or 1, found {value!r}", path, lineno)
    return value == "1"


@functools.lru_cache(maxsize=8)
def load_intransitive_verbs(path: str | Path) -> tuple[IntransitiveVerb, ...]:
    """The intransitive replacement verbs (``lemma, aspect, reflexive, class``), in file order."""
    path = Path(path)
    out = []
    for lineno, row in _read_tsv(path, ("lemma", "aspect", "reflexive", "class"), "intransitive-verb list"):
        if row["aspect"] not in ("Perf", "Imp"):
            raise InputError(f"aspect must be Perf or Imp, found {row['aspect']!r}", path, lineno)
        out.append(IntransitiveVerb(norm(row["lemma"]), row["aspect"], _flag(row["reflexive"], path, lineno, "reflexive"), row["class"]))
    return tuple(out)


@functools.lru_cache(maxsize=8)
def load_inanimate_nouns(path: str | Path) -> tuple[InanimateNoun, ...]:
    """The inanimate replacement nouns (``lemma, gender, plural``), in file order."""
    path = Path(path)
    out = []
    for lineno, row in _read_tsv(path, ("lemma", "gender", "plural"), "inanimate-noun list"):
        if row["gender"] not in GENDERS:
            raise InputError(f"gender must be one of {', '.join(GENDERS)}, found {row['gender']!r}", path, lineno)
        out.append(InanimateNoun(norm(row["lemma"]), row["gender"], _flag(row["plural"], path, lineno, "plural")))
    return tuple(out)


@functools.lru_cache(maxsize=8)
def load_excluded_nouns(path: str | Path) -> dict[str, str]:
    """Excluded lemma (lower case, ё→е) → its semantic category."""
    return {norm(row["lemma"]): row["category"] for _, row in _read_tsv(Path(path), ("lemma", "category"), "excluded-noun list")}


@dataclass(frozen=True)
class VerbLists:
    """The argument-structure word lists of ``resources/argument_structure_verbs.tsv`` (each list's
    meaning is in the file's header), as sets of lemmas, with the lists of the tree layer's
    ``resources/control_verbs.tsv`` (``predicative``, ``object_directive``, ``object_causative``,
    ``accusative_control``: :class:`rublimp.trees.control_verbs.ControlVerbs`)."""

    agent: frozenset[str]
    passive_instrumental: frozenset[str]
    animate_object: frozenset[str]
    predicative: frozenset[str]
    object_directive: frozenset[str]
    object_causative: frozenset[str]
    #: object_directive, object_causative and the file's accusative_control verbs
    accusative_control: frozenset[str]
    dative_directive: frozenset[str]
    dative_permissive: frozenset[str]
    volitional: frozenset[str]
    #: agent and volitional verbs
    agentive_infinitive: frozenset[str]
    non_agentive_infinitive: frozenset[str]
    dative_object_infinitive: frozenset[str]
    causer: frozenset[str]
    subject_agent_causer: frozenset[str]
    passive_agent_causer: frozenset[str]
    passive_conquest: frozenset[str]
    reflexive_not_passive: frozenset[str]
    dative_thing: frozenset[str]
    light_object: frozenset[str]
    dative_noun_head: frozenset[str]
    text_subject: frozenset[str]
    passive_material: frozenset[str]
    abstract_subject: frozenset[str]


#: the lists of the file (every one must have a lemma; ``agent`` is grouped by verb class)
VERB_LIST_NAMES: tuple[str, ...] = (
    "agent", "passive_instrumental", "animate_object", "dative_directive", "dative_permissive", "volitional", "non_agentive_infinitive",
    "dative_object_infinitive", "causer", "subject_agent_causer", "passive_agent_causer", "passive_conquest",
    "reflexive_not_passive", "dative_thing", "light_object", "dative_noun_head", "text_subject",
    "passive_material", "abstract_subject",
)


@functools.lru_cache(maxsize=8)
def load_verb_lists(path: str | Path, control_path: str | Path | None = None) -> VerbLists:
    """The word lists (``list, group, lemma``) and those of ``control_path`` (the tree layer's
    :func:`~rublimp.trees.control_verbs.load_control_verbs`; by default ``control_verbs.tsv`` in
    ``path``'s folder); an unknown list, an empty lemma, a lemma listed twice in one list or a list
    with no lemma is an error naming the file (and line)."""
    path = Path(path)
    control = load_control_verbs(Path(control_path) if control_path is not None else path.parent / CONTROL_VERBS_FILE)
    sets = read_word_lists(path, "argument-structure word lists", VERB_LIST_NAMES, ("list", "group", "lemma"))
    sets.update(predicative=control.predicative, object_directive=control.object_directive,
                object_causative=control.object_causative, accusative_control=control.accusative_control)
    sets["agentive_infinitive"] = sets["agent"] | sets["volitional"]
    return VerbLists(**sets)


def argument_rng(seed: int, *parts: object) -> random.Random:
    """A ``random.Random`` seeded from SHA-256 of the seed and ``parts`` (stable across runs and machines)."""
    digest = hashlib.sha256("\x1f".join(map(str, (seed, *parts))).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


# -- the shared machinery ----------------------------------------------------------------
@dataclass(frozen=True)
class Argument:
    """An animate argument that may be replaced: its lemma, number and (singular) gender."""

    tok: Token
    lemma: str
    number: str  # Sing | Plur
    gender: str | None  # None: any gender will do
    pronoun: bool
    parse: object  # pymorphy3 Parse of the token
    proper: bool = False  # a personal name (capitalised wherever it stands)
    # the name written right after the word (trees.names.name_chain), replaced with it: deleted
    name: tuple[Token, ...] = ()


class ArgumentStructureParadigm(Paradigm):
    """Shared helpers: finding animate arguments and sampling inanimate replacements."""
    new_words = "word"  # the self-check: a replacement word of another lexeme

    phenomenon: ClassVar[str] = PHENOMENON
    level: ClassVar[str] = LEVEL
    resources = ("excluded_subject_nouns.tsv", "inanimate_nouns.tsv", VERB_LISTS_FILE, CONTROL_VERBS_FILE)
    options = ("argument_structure_person_names",)

    def __init__(self, ctx: ParadigmContext | None = None) -> None:
        super().__init__(ctx)
        res = Path(self.ctx.resources_dir)
        self.excluded = load_excluded_nouns(res / EXCLUDED_FILE)
        self.lists = load_verb_lists(res / VERB_LISTS_FILE)
        nouns = load_inanimate_nouns(res / INANIMATE_FILE)
        pools: dict[tuple[str | None, str], list[str]] = {}
        for n in nouns:
            pools.setdefault((n.gender, "Sing"), []).append(n.lemma)
            if n.plural:
                pools.setdefault((None, "Plur"), []).append(n.lemma)
                pools.setdefault((n.gender, "Plur"), []).append(n.lemma)
            pools.setdefault((None, "Sing"), []).append(n.lemma)
        self._pools = {k: tuple(v) for k, v in pools.items()}
        # RuBLiMP replaces personal names too («Мозарин повернул записку» → «*Разгар повернул
        # записку»): on by default, ``argument_structure_person_names: false`` turns it off
        self.person_names = bool(self.ctx.options.get(PERSON_NAMES_OPTION, OPTION_DEFAULTS[PERSON_NAMES_OPTION]))

    def perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        """The paradigm's perturbations, read off the normalised tree (:func:`~rublimp.trees.normalise.normalise`
        with the paradigm's resource folder: the argument repairs are its ``roles`` fix). A tree
        :meth:`pairs` hands over is normalised already and is read as it is."""
        return self._perturb(normalise(sent, self.morph, self.ctx.resources_dir))

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        raise NotImplementedError

    # -- randomness ------------------------------------------------------------------
    def rng(self, sent: Sentence, *parts: object) -> random.Random:
        return argument_rng(self.ctx.seed, self.name, sent.sent_id, *parts)

    # -- tree tests ------------------------------------------------------------------
    @staticmethod
    def unmodified(sent: Sentence, tok: Token) -> bool:
        """No dependents other than punctuation (so nothing agrees with the word).

        A word right before it that agrees with it in case (an adjective, determiner,
        numeral or participle the parser attached elsewhere) also counts as a modifier.
        """
        if any(k.base_deprel != "punct" for k in sent.children(tok)):
            return False
        if tok.id > 1:
            prev = sent.token(tok.id - 1)
            modifier_like = prev.upos in ("ADJ", "DET", "NUM") or prev.feats.get("VerbForm") == "Part"
            if modifier_like and prev.feats.get("Case") == tok.feats.get("Case") and sent.text[prev.end:tok.start].isspace():
                return False
        return True

    def verb_lemma(self, tok: Token) -> str:
        """The infinitive of a verb, participle or gerund token (pymorphy3's normal form)."""
        a = analysis_of(self.morph, tok.form, "VERB", tok.feats)
        return norm(a.lemma) if a is not None else norm(tok.lemma)

    def excluded_category(self, lemma: str) -> str | None:
        return self.excluded.get(norm(lemma))

    def animate_argument(
        self, sent: Sentence, tok: Token, *, allow_pronoun: bool = True, case: str | None = None,
        forced_animate: bool = False, with_name: bool = False,
    ) -> Argument | None:
        """``tok`` as a replaceable animate argument, or None.

        Nouns: animate for the parser and for pymorphy3 (a capitalised proper
        noun pymorphy3 does not know may be animate for the parser alone), no
        place or organisation name, no excluded lemma. Pronouns: the personal
        ones (their animacy is forced by the construction, which the caller checks).

        ``case``: the word is *replaced* in this case (not swapped), so dependents
        may stay — the replacement keeps number and gender, so an adjective, a
        numeral, an apposition or a name part still agrees — except in the
        accusative, where masculine and plural modifiers also mark animacy
        («доброго человека» / «добрый стол»). RuBLiMP keeps modified arguments too.

        A capitalised PROPN inside the sentence that pymorphy3 knows only as an inanimate
        common noun («Кору», «Вина», «Го») is a person's name where the parser calls it
        animate or the caller's construction forces an animate reading (``forced_animate``:
        the controller of an agentive infinitive, «умоляет Кору простить его»).

        ``with_name`` (with ``case``): a name written right after the word and naming the same person
        (:func:`~rublimp.trees.names.name_chain`: «архитектором Юрием Стравинским», «Люси Руседски») is
        replaced together with it — the argument's ``name``, which the replacement deletes; any other
        name beside the word still refuses it.
        """
        if tok.start < 0:
            return None
        if not self.unmodified(sent, tok) and not _modifiers_agree(tok, case):
            return None
        name: tuple[Token, ...] = ()
        if with_name and case is not None and tok.upos != "PRON":
            if tok.upos == "PROPN" and noun_before_name(sent, tok):
                return None  # «вельможа Петр Переньи»: the noun before the name would stay in the role
            name = name_chain(sent, tok, functools.partial(name_cases, self.morph))
        named = frozenset(t.id for t in name)
        if any(k.base_deprel == "flat" and k.id not in named for k in sent.children(tok)):
            # the first part of a full name: the rest would be left to take its role
            # («Озвучивает Пётр Иващенко» → «*Озвучивает долг Иващенко» reads as Иващенко озвучивает долг)
            return None
        if tok.upos != "PRON" and has_attached_name(sent, tok, named):
            # an apposition or a name beside the word names the same person («император Генрих III»,
            # «мастером Каландар Качимом»): replacing the word alone leaves a person in the role
            return None
        number = tok.feats.get("Number")
        if number not in ("Sing", "Plur"):
            return None
        if tok.upos == "PRON":
            a = analysis_of(self.morph, tok.form, "PRON", tok.feats)
            if not allow_pronoun or a is None or a.tag.POS != "NPRO" or norm(a.lemma) not in PERSONAL_PRONOUNS:
                return None
            gender = tok.feats.get("Gender") if number == "Sing" else None
            return Argument(tok, norm(a.lemma), number, gender, True, a.parse)
        if tok.upos not in ("NOUN", "PROPN"):
            return None
        capital_name = self.person_names and self._capitalised_common_name(sent, tok, forced_animate)
        if tok.feats.get("Animacy") != "Anim" and not capital_name and not _dictionary_animate(self.morph, tok.form):
            # tree repair: the parser calls some person nouns inanimate («джинн», «кок»,
            # «аббат»); every dictionary reading animate overrides it
            return None
        a = analysis_of(self.morph, tok.form, tok.upos, tok.feats)
        if a is None or a.tag.POS != "NOUN":
            return None
        tags = set(a.tag.grammemes)
        unknown_name = (self.person_names and _unknown_name(self.morph, tok)) or capital_name
        if "anim" not in tags and not unknown_name:
            return None
        # a PROPN that pymorphy3 knows only as a common noun is one (the parser tags
        # sentence-initial nouns PROPN: «Рыбак тащил сеть»); mid-sentence capitals are names
        initial = not any(c.isalnum() for c in sent.text[: tok.start])
        name_like = bool(tags & PROPER_TAGS) or (tok.upos == "PROPN" and not initial and tok.form[:1].isupper())
        if name_like and not unknown_name:
            if not (self.person_names and tags & PERSON_NAME_TAGS and not tags & (PROPER_TAGS - PERSON_NAME_TAGS)):
                if not (self.person_names and not tags & PROPER_TAGS):
                    return None
        if self.excluded_category(a.lemma) or self.excluded_category(tok.lemma):
            return None
        gender = tok.feats.get("Gender") if number == "Sing" else None
        if number == "Sing" and gender not in GENDERS:
            return None
        proper = name_like or unknown_name
        return Argument(tok, norm(a.lemma), number, gender, False, a.parse, proper, name)

    def _capitalised_common_name(self, sent: Sentence, tok: Token, forced_animate: bool) -> bool:
        """A name written like a common noun (see :meth:`animate_argument`)."""
        if tok.upos != "PROPN" or not tok.form[:1].isupper() or not (forced_animate or tok.feats.get("Animacy") == "Anim"):
            return False
        if not any(c.isalnum() for c in sent.text[: tok.start]):
            return False  # sentence-initial: the capital says nothing
        if forced_animate and not self.morph.word_is_known(tok.form):
            return True  # a name pymorphy3 does not know, whatever animacy the parser guessed («попросил Хогана»)
        return _only_inanimate_common_noun(self.morph, tok.form)

    def inanimate_noun(self, sent: Sentence, tok: Token, allowed: frozenset[str] = frozenset()) -> object | None:
        """The pymorphy3 parse of ``tok`` if it is an unmodified, non-excluded, common inanimate noun
        (excluded categories of ``allowed`` pass)."""
        if tok.upos != "NOUN" or tok.feats.get("Animacy") != "Inan" or tok.start < 0 or not self.unmodified(sent, tok):
            return None
        a = analysis_of(self.morph, tok.form, "NOUN", tok.feats)
        if a is None or a.tag.POS != "NOUN" or "inan" not in a.tag.grammemes:
            return None
        if set(a.tag.grammemes) & PROPER_TAGS or "Fixd" in a.tag.grammemes:
            return None
        if (self.excluded_category(a.lemma) or self.excluded_category(tok.lemma)) not in allowed | {None}:
            return None
        return a.parse

    # -- forms -----------------------------------------------------------------------
    @staticmethod
    def spell(sent: Sentence, form: str) -> str:
        """Write ё only if the sentence does (most Russian text writes е)."""
        return form if "ё" in sent.text.lower() else form.replace("ё", "е")

    def edit(self, sent: Sentence, tok: Token, form: str, *, replaces_proper: bool = False, is_proper: bool = False) -> Edit:
        """An edit writing ``form`` (ё as the sentence writes it) over ``tok``.

        Capitalisation follows the position (the base class copies the old word's)
        unless a proper noun is involved: a name keeps its capital wherever it goes,
        and a common noun put in a name's place is capitalised only sentence-initially.
        """
        form = self.spell(sent, form)
        if is_proper:
            return Edit(tok.id, form[:1].upper() + form[1:], keep_case=False)
        if replaces_proper:
            initial = not any(c.isalnum() for c in sent.text[: tok.start])
            return Edit(tok.id, form[:1].upper() + form[1:] if initial else form.lower(), keep_case=False)
        return Edit(tok.id, form)

    def _noun_form(self, lemma: str, case: str, number: str) -> str | None:
        return _noun_form_cached(self.morph, lemma, case, number)

    def inflect_parse(self, parse, case: str, number: str) -> str | None:
        """A parse re-inflected to a UD case and number (None if pymorphy3 cannot)."""
        want = {_CASE_OC[case], _NUMBER_OC[number]}
        if parse.tag.POS == "NPRO":
            want = {_CASE_OC[case]}
        return self.morph.inflect(parse, want)

    def replacement(
        self, sent: Sentence, arg: Argument, case: str, rng: random.Random, *, distinct_from_nom: bool = False
    ) -> tuple[str, str] | None:
        """(lemma, form) of a random inanimate noun for ``arg`` in ``case`` (same number and gender).

        ``distinct_from_nom``: only nouns whose form differs from their nominative (so a
        fronted object cannot be re-read as the subject).
        """
        pool = self._pools.get((arg.gender, arg.number), ())
        if not pool:
            return None
        used = {norm(t.lemma) for t in sent.tokens} | {norm(t.form) for t in sent.tokens}
        for _ in range(min(MAX_TRIES, len(pool))):
            lemma = pool[rng.randrange(len(pool))]
            if lemma in used:
                continue
            form = self._noun_form(lemma, case, arg.number)
            if form is None or norm(form) == norm(arg.tok.form):
                continue
            if distinct_from_nom and form == self._noun_form(lemma, "Nom", arg.number):
                continue
            return lemma, form
        return None

    def replace_perturbation(
        self, sent: Sentence, arg: Argument, case: str, subtype: str, *, distinct_from_nom: bool = False
    ) -> Perturbation | None:
        rng = self.rng(sent, arg.tok.id)
        pick = self.replacement(sent, arg, case, rng, distinct_from_nom=distinct_from_nom)
        if pick is None:
            return None
        # a name written after the word goes with it («архитектором Юрием Стравинским» → «камнем»)
        deleted = tuple(Edit(t.id, "") for t in arg.name)
        return Perturbation(
            edits=(self.edit(sent, arg.tok, pick[1], replaces_proper=arg.proper),) + deleted,
            feature="Animacy",
            source_value="Anim",
            target_value="Inan",
            subtype=subtype,
        )


def analysis_of(morph, form: str, upos: str, feats: dict[str, str]):
    """``morph.analyse`` memoised on the form, UPOS and features (the five paradigms ask the
    same questions of the same verbs and nouns)."""
    return _analyse_cached(morph, form, upos, tuple(feats.items()))


@functools.lru_cache(maxsize=100_000)
def _analyse_cached(morph, form: str, upos: str, feats: tuple[tuple[str, str], ...]):
    return morph.analyse(form, upos, dict(feats))


@functools.lru_cache(maxsize=50_000)
def _base_parse(morph, lemma: str):
    for p in morph.parses(lemma):
        if p.tag.POS == "NOUN" and norm(p.normal_form) == lemma and {"nomn", "sing", "inan"} <= set(p.tag.grammemes):
            return p
    return None


@functools.lru_cache(maxsize=100_000)
def _noun_form_cached(morph, lemma: str, case: str, number: str) -> str | None:
    """``lemma`` in a UD case and number, only if every reading of the form is an inanimate noun."""
    base = _base_parse(morph, lemma)
    if base is None:
        return None
    form = morph.inflect(base, {_CASE_OC[case], _NUMBER_OC[number]})
    if not form:
        return None
    readings = morph.parses(form)
    if any(p.tag.POS != "NOUN" or "anim" in p.tag.grammemes for p in readings):
        return None
    return form


def _modifiers_agree(tok: Token, case: str | None) -> bool:
    """A modified word may be replaced in ``case`` (see :meth:`animate_argument`)."""
    if case is None:
        return False
    if case == "Acc":
        return tok.feats.get("Number") == "Sing" and tok.feats.get("Gender") == "Fem"
    return True


def _unknown_name(morph, tok: Token) -> bool:
    """A capitalised PROPN the parser calls animate and pymorphy3 only guesses (no dictionary word).

    Foreign personal names (Мозарин, Свеколт) are not in pymorphy3's dictionary; place
    and organisation names it knows carry Geox/Orgn and are refused by the caller.
    """
    if tok.upos != "PROPN" or tok.feats.get("Animacy") != "Anim" or not tok.form[:1].isupper():
        return False
    return not morph.word_is_known(tok.form)


@functools.lru_cache(maxsize=50_000)
def _only_common_noun(morph, form: str, animacy: str) -> bool:
    """pymorphy3 knows ``form`` and reads it only as a common noun (no name, place or
    abbreviation tag) of ``animacy`` (``anim`` or ``inan``)."""
    parses = morph.parses(form)
    return (
        morph.word_is_known(form)
        and bool(parses)
        and all(p.tag.POS == "NOUN" and animacy in p.tag.grammemes and not set(p.tag.grammemes) & PROPER_TAGS for p in parses)
    )


def _dictionary_animate(morph, form: str) -> bool:
    """pymorphy3 knows ``form`` and reads it only as an animate common noun."""
    return _only_common_noun(morph, form, "anim")


def _only_inanimate_common_noun(morph, form: str) -> bool:
    """pymorphy3 knows ``form`` and reads it only as an inanimate common noun (no name, place or abbreviation tag)."""
    return _only_common_noun(morph, form, "inan")


@functools.lru_cache(maxsize=50_000)
def transitive_infinitive(morph, lemma: str) -> bool:
    return any(p.tag.POS == "INFN" and "tran" in p.tag.grammemes and norm(p.normal_form) == lemma for p in morph.parses(lemma))
