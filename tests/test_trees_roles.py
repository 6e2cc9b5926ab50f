"""trees/roles.py: the verb-government lexicon, the verb and argument repairs (on hand-written wrong
parses), their per-sentence memos, the argument queries, and the tree layer's import contract."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rublimp.io import InputError
from rublimp.morph import get_morph
from rublimp.paradigms.argument_structure import VERB_LISTS_FILE, load_verb_lists
from rublimp.paradigms.base import RESOURCES_DIR
from rublimp.trees.roles import (
    VERB_GOVERNMENT_FILE,
    genitive_governor_word,
    has_attached_name,
    has_blocking_dependents,
    load_verb_government,
    only_finite_verb,
    preposition_of,
    read_case_table,
    roles_repaired,
    sole_subject,
    verbs_retagged,
)
from tests.trees import tree

SRC = Path(__file__).resolve().parents[1] / "src" / "rublimp"

# «Он шевельнул губами.» with the verb tagged ADJ (a parser error the government paradigms repair)
ADJ_VERB = [
    ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
    ("шевельнул", "шевельнуть", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 0, "root"),
    ("губами", "губа", "NOUN", "Animacy=Inan|Case=Ins|Gender=Fem|Number=Plur", 2, "obl"),
    (".", ".", "PUNCT", "", 2, "punct"),
]


def test_verb_government_table_and_errors(tmp_path):
    table = load_verb_government(RESOURCES_DIR / VERB_GOVERNMENT_FILE)
    assert table and all(cases for cases in table.values())
    bad = tmp_path / "g.tsv"
    bad.write_text("lemma\tgoverns\nвладеть\tInstr\n", encoding="utf-8")
    with pytest.raises(InputError, match="comma-separated list") as err:
        read_case_table(bad, "lemma", "governs")
    assert err.value.line == 2


def test_only_finite_verb_needs_every_reading_to_be_a_finite_verb():
    morph = get_morph()
    assert only_finite_verb(morph, "шевельнул") is not None
    assert only_finite_verb(morph, "стекло") is None  # also a noun


def test_verbs_retagged_repairs_a_verb_tagged_adj_once_per_sentence():
    sent = tree(ADJ_VERB)
    fixed = verbs_retagged(sent, get_morph())
    verb = fixed.token(2)
    assert (verb.upos, verb.lemma, verb.feats["VerbForm"]) == ("VERB", "шевельнуть", "Fin")
    assert sent.token(2).upos == "ADJ" and fixed.token(2).start == sent.token(2).start
    assert verbs_retagged(sent, get_morph()) is fixed
    assert verbs_retagged(tree(ADJ_VERB), get_morph()) is not fixed


def test_roles_repaired_is_memoised_per_sentence_and_word_lists():
    lists = load_verb_lists(RESOURCES_DIR / VERB_LISTS_FILE)
    sent = tree(ADJ_VERB)
    first = roles_repaired(get_morph(), sent, predicative_verbs=lists.predicative,
                           accusative_control_verbs=lists.accusative_control)
    assert first.token(2).upos == "VERB"  # a word read only as a finite verb
    again = roles_repaired(get_morph(), sent, predicative_verbs=lists.predicative,
                           accusative_control_verbs=lists.accusative_control)
    assert again is first
    other = roles_repaired(get_morph(), sent, predicative_verbs=frozenset(),
                           accusative_control_verbs=frozenset())
    assert other is not first and other == first  # other lists: computed again (same result here)


def test_queries_on_a_hand_written_tree():
    sent = tree([
        ("Мы", "мы", "PRON", "Case=Nom|Number=Plur|Person=1", 2, "nsubj"),
        ("говорили", "говорить", "VERB", "Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin", 0, "root"),
        ("о", "о", "ADP", "", 5, "case"),
        ("старом", "старый", "ADJ", "Case=Loc|Gender=Masc|Number=Sing", 5, "amod"),
        ("доме", "дом", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Sing", 2, "obl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    noun = sent.token(5)
    assert preposition_of(sent, noun)[1] == "о"
    assert has_blocking_dependents(sent, noun)  # the agreeing adjective
    assert sole_subject(sent, sent.token(2)).form == "Мы"


_ANIM = "Animacy=Anim|Case={}|Gender=Masc|Number=Sing"


def test_attached_names():
    """A name or apposition beside a noun names the same person; a plain or coordinated noun has none."""
    named = tree([  # «мастером Каландар Качимом»: the name parts hung under the noun as nmod
        ("Картина", "картина", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj:pass"),
        ("была", "быть", "AUX", "", 3, "aux:pass"),
        ("написана", "написать", "VERB", "Voice=Pass|VerbForm=Part", 0, "root"),
        ("мастером", "мастер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Каландар", "Каландар", "PROPN", _ANIM.format("Nom"), 4, "nmod"),
        ("Качимом", "Качим", "PROPN", _ANIM.format("Ins"), 5, "flat:name"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ])
    assert has_attached_name(named, named.token(4))
    stray = tree([  # a surname the parser hung on the verb, right after the noun
        ("Вчера", "вчера", "ADV", "", 4, "advmod"),
        ("Пётр", "Пётр", "PROPN", _ANIM.format("Nom"), 4, "nsubj"),
        ("Иванов", "Иванов", "PROPN", _ANIM.format("Nom"), 4, "obl"),
        ("прочитал", "прочитать", "VERB", "Tense=Past|VerbForm=Fin", 0, "root"),
        ("письмо", "письмо", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 4, "obj"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])
    assert has_attached_name(stray, stray.token(2))
    assert not has_attached_name(stray, stray.token(5))
    # round 6: a capitalised neighbour that is another argument of the verb, in a case none of its
    # readings shares with the word, names someone else («Отправил тогда Иван соседу письмо»)
    rows = [
        ("Отправил", "отправить", "VERB", "Tense=Past|VerbForm=Fin", 0, "root"),
        ("тогда", "тогда", "ADV", "", 1, "advmod"),
        ("Иван", "Иван", "PROPN", _ANIM.format("Nom"), 1, "nsubj"),
        ("соседу", "сосед", "NOUN", _ANIM.format("Dat"), 1, "iobj"),
        ("письмо", "письмо", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 1, "obj"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]
    other = tree(rows, text="Отправил тогда Иван соседу письмо.")
    assert not has_attached_name(other, other.token(4))
    # still a name: the neighbour in the word's own case («соседу Петру» with Петру labelled nsubj),
    # or a form that can be that case whatever the parser said (Петру tagged nominative)
    same_case = tree(rows[:2] + [("Петру", "Пётр", "PROPN", _ANIM.format("Dat"), 1, "nsubj")] + rows[3:],
                     text="Отправил тогда Петру соседу письмо.")
    assert has_attached_name(same_case, same_case.token(4))
    mistagged = tree(rows[:2] + [("Петру", "Пётр", "PROPN", _ANIM.format("Nom"), 1, "nsubj")] + rows[3:],
                     text="Отправил тогда Петру соседу письмо.")
    assert has_attached_name(mistagged, mistagged.token(4))
    # an unknown name that looks indeclinable may be in any case («генералу Кикути»): still a name
    indeclinable = tree(rows[:2] + [("Кикути", "Кикути", "PROPN", _ANIM.format("Nom"), 1, "nsubj")] + rows[3:],
                        text="Отправил тогда Кикути соседу письмо.")
    assert has_attached_name(indeclinable, indeclinable.token(4))
    coordinated = tree([
        ("Брат", "брат", "NOUN", _ANIM.format("Nom"), 4, "nsubj"),
        ("и", "и", "CCONJ", "", 3, "cc"),
        ("сестра", "сестра", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 1, "conj"),
        ("прочитали", "прочитать", "VERB", "Tense=Past|VerbForm=Fin", 0, "root"),
        ("письмо", "письмо", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 4, "obj"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])
    assert not has_attached_name(coordinated, coordinated.token(1))
    # sentence-initial: the capital of «Брат» says nothing about «сестра»'s neighbour
    assert not has_attached_name(coordinated, coordinated.token(3))
    # a conjunct right after «и» the parser hung on the next verb is coordinated, not apposed
    # («отбит горцами и казаки отступили»); without the conjunction it is an apposition
    rows = [
        ("Перевал", "перевал", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj:pass"),
        ("отбит", "отбить", "VERB", "Voice=Pass|VerbForm=Part", 0, "root"),
        ("горцами", "горец", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 2, "obl"),
        ("и", "и", "CCONJ", "", 6, "cc"),
        ("казаки", "казак", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "conj"),
        ("отступили", "отступить", "VERB", "Tense=Past|VerbForm=Fin", 2, "conj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]
    assert not has_attached_name(tree(rows), tree(rows).token(3))
    apposed = tree([  # «отбит горцами, казаками»: no conjunction, an apposition
        rows[0], rows[1], rows[2], (",", ",", "PUNCT", "", 5, "punct"),
        ("казаками", "казак", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 3, "conj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    assert has_attached_name(apposed, apposed.token(3))
    # a name closing the noun phrase before the word is that phrase's («у реки Ужа рыбаками»)
    river = tree([
        ("У", "у", "ADP", "", 3, "case"),
        ("реки", "река", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Sing", 5, "obl"),
        ("Ужа", "Ужа", "PROPN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 2, "appos"),
        ("рыбаками", "рыбак", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 5, "obl"),
        ("построен", "построить", "VERB", "Voice=Pass|VerbForm=Part", 0, "root"),
        ("мост", "мост", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 5, "nsubj:pass"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ])
    assert not has_attached_name(river, river.token(4))
    assert has_attached_name(stray, stray.token(2))  # (a name hung on the verb still counts)


def test_genitive_governor_words():
    rows = [
        ("более", "более", "ADV", "Degree=Cmp", 2, "advmod"),
        ("половины", "половина", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Sing", 0, "root"),
        ("сильнее", "сильный", "ADJ", "Degree=Cmp", 2, "amod"),
        ("несколько", "несколько", "NUM", "", 2, "nummod"),
        ("дом", "дом", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nmod"),
    ]
    sent = tree(rows)
    assert [genitive_governor_word(t) for t in sent.tokens] == [True, True, True, True, False]


def test_nominalized_verb():
    from rublimp.trees.government_words import nominalized_verb

    morph = get_morph()
    got = {w: nominalized_verb(morph, w) for w in ("решение", "открытие", "слияние", "освобождение", "водоизмещение", "здание")}
    assert got["решение"] == "решить" and got["открытие"] == "открыть" and got["слияние"] == "слить"
    assert got["освобождение"] in ("освободить", "освобождать")
    assert got["водоизмещение"] is None and got["здание"] is None
    # a compound with «место» names a place or a thing, not an action: none («местоимение» neither)
    assert nominalized_verb(morph, "местоположение") is None
    assert nominalized_verb(morph, "месторождение") is None
    assert nominalized_verb(morph, "местоимение") is None


def test_accusative_syncretic_ignores_names_and_other_animacy():
    from rublimp.trees.government_words import accusative_syncretic

    morph = get_morph()
    # animate nouns and pronouns: genitive = accusative in one number
    assert accusative_syncretic(morph, "гостей", "гость")
    assert accusative_syncretic(morph, "солдат", "солдат", "Anim")
    assert accusative_syncretic(morph, "его", "он")
    # gen.sg against acc.pl is no syncretism
    assert not accusative_syncretic(morph, "правды", "правда")
    # «брака»: брак.Gen; pymorphy3's surname Брак (gen = acc) does not count for a common noun...
    assert not accusative_syncretic(morph, "брака", "брак", "Inan")
    assert not accusative_syncretic(morph, "брака", "брак")
    # ...but does for a name
    assert accusative_syncretic(morph, "брака", "брак", None, True)
    # «боев»: бой the fight (inanimate) or бой the servant (animate): the parser's animacy decides
    assert not accusative_syncretic(morph, "боев", "бой", "Inan")
    assert accusative_syncretic(morph, "боев", "бой", "Anim")
    # an animacy the lexeme does not have changes nothing («гостей» has no inanimate reading)
    assert accusative_syncretic(morph, "гостей", "гость", "Inan")


def test_noun_only_and_not_negation():
    from rublimp.trees.government_words import not_negation, noun_only

    morph = get_morph()
    rows = [
        ("столбики", "столбик", "ADJ", "Case=Nom|Number=Plur", 3, "nsubj"),
        ("раскатов", "раскат", "VERB", "Voice=Act", 3, "amod"),
        ("поднялись", "подняться", "VERB", "Number=Plur", 0, "root"),
        ("дома", "дом", "ADV", "_", 3, "advmod"),
    ]
    sent = tree(rows)
    # every pymorphy3 reading a noun: yes; a real verb, or a form that is also an adverb: no
    assert [noun_only(morph, t) for t in sent.tokens] == [True, True, False, False]
    words = ["он", "не", "только", "читал", "чуть", "не", "упал", "и", "не", "спал"]
    sent = tree([(w, w, "PART" if w == "не" else "X", "_", 0 if i == 0 else 1, "root" if i == 0 else "dep") for i, w in enumerate(words)])
    assert [not_negation(sent, t) for t in sent.tokens if t.form == "не"] == [True, True, False]


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(level, module, names) of every import in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or "", [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out.extend((0, a.name, []) for a in node.names)
    return out


def test_trees_import_only_the_layers_below():
    allowed = {"conllu_doc", "morph", "lexicon", "io"}
    for path in sorted((SRC / "trees").glob("*.py")):
        for level, module, _ in _imports(path):
            top = module.split(".")[0]
            if level == 2:
                assert top in allowed, f"{path.name} imports rublimp.{module}"
            elif level == 0:
                assert not module.startswith("rublimp"), f"{path.name} imports {module}"


@pytest.mark.parametrize("name", ["np_agreement", "anaphor_agreement", "floating_quantifier", "government",
                                  "argument_structure", "argument_verb_subject", "argument_objects"])
def test_nominal_and_role_paradigms_import_no_rule_module_and_no_private_name(name):
    # a sibling may be imported only when it registers no paradigm (argument_structure: the shared part)
    for level, module, names in _imports(SRC / "paradigms" / f"{name}.py"):
        if level == 1 and module not in ("base", "argument_structure"):
            pytest.fail(f"{name} imports the paradigm module {module}")
        private = [n for n in names if n.startswith("_") and n != "annotations"]
        assert not private, f"{name} imports private names {private} from {module}"


def test_the_shared_argument_structure_module_registers_no_paradigm():
    from rublimp.paradigms import REGISTRY

    modules = {cls.__module__.rsplit(".", 1)[1] for cls in REGISTRY.values()}
    assert "argument_structure" not in modules
    assert {"argument_verb_subject", "argument_objects"} <= modules


def test_apposed_names_in_other_shapes():
    """A name the parser made the head, or one after a comma, names the noun's person; a name in
    another case, or a noun under a preposition, does not."""
    from rublimp.trees.names import apposed_name

    def passive(agent_rows, text=None):
        head_rows = [
            ("Мост", "мост", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 3, "nsubj:pass"),
            ("был", "быть", "AUX", "", 3, "aux:pass"),
            ("построен", "построить", "VERB", "Voice=Pass|VerbForm=Part", 0, "root"),
        ]
        return tree(head_rows + agent_rows + [(".", ".", "PUNCT", "", 3, "punct")], text)

    noun_on_name = passive([  # «генералом Батлером» with the surname as the phrase's head
        ("генералом", "генерал", "NOUN", _ANIM.format("Ins"), 5, "appos"),
        ("Батлером", "Батлер", "PROPN", _ANIM.format("Ins"), 3, "obl:agent"),
    ])
    assert apposed_name(noun_on_name, noun_on_name.token(4)) and has_attached_name(noun_on_name, noun_on_name.token(4))
    after_comma = passive([  # «инженером, Петровым»: the name hung on the verb after a comma
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Ins"), 3, "obl"),
    ])
    assert apposed_name(after_comma, after_comma.token(4)) and has_attached_name(after_comma, after_comma.token(4))
    other_case = passive([  # «инженером, Петров …»: a name in the nominative starts something else
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("Петров", "Петров", "PROPN", _ANIM.format("Nom"), 3, "parataxis"),
    ])
    assert not apposed_name(other_case, other_case.token(4))
    prepositional = passive([  # «с инженером Петровым»-like: a prepositional noun on the name is no apposition
        ("с", "с", "ADP", "", 5, "case"),
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 6, "nmod"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Ins"), 3, "obl"),
    ])
    assert not apposed_name(prepositional, prepositional.token(5))
    plain = passive([("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent")])
    assert not apposed_name(plain, plain.token(4)) and not has_attached_name(plain, plain.token(4))
    # the name itself after the comma: the noun before it keeps the person in the role
    comma_name = after_comma.token(6)
    assert apposed_name(after_comma, comma_name) and has_attached_name(after_comma, comma_name)


def test_name_chain_after_a_noun():
    """The name written right after a noun, in its case and hung on it, is the noun's own (trees.names.name_chain);
    a name in another case, after a comma, under a preposition, or with a clause of its own is not."""
    from rublimp.trees.names import name_chain
    from rublimp.trees.roles import noun_cases

    morph = get_morph()

    def cases(form):
        return noun_cases(morph, form)

    def passive(agent_rows, text=None):
        head_rows = [
            ("Мост", "мост", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 3, "nsubj:pass"),
            ("был", "быть", "AUX", "", 3, "aux:pass"),
            ("построен", "построить", "VERB", "Voice=Pass|VerbForm=Part", 0, "root"),
        ]
        return tree(head_rows + agent_rows + [(".", ".", "PUNCT", "", 3, "punct")], text)

    full = passive([
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Юрием", "Юрий", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        ("Стравинским", "Стравинский", "PROPN", _ANIM.format("Ins"), 5, "flat:name"),
    ])
    chain = name_chain(full, full.token(4), cases)
    assert [t.form for t in chain] == ["Юрием", "Стравинским"]
    assert has_attached_name(full, full.token(4)) and not has_attached_name(full, full.token(4), frozenset({5, 6}))
    # a name the parser gave an impossible case: pymorphy3's readings allow the noun's («Петровым»: Ins sing, Dat plur)
    recased = passive([
        ("генералом", "генерал", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Nom"), 4, "appos"),
    ])
    assert [t.form for t in name_chain(recased, recased.token(4), cases)] == ["Петровым"]
    # ... nor where the parser's case is another and no reading is the noun's («инженером Гусев»)
    other = passive([
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Гусев", "Гусев", "PROPN", _ANIM.format("Nom"), 4, "appos"),
    ])
    assert name_chain(other, other.token(4), cases) == ()
    town = tree([  # «Коммунальщики Ельнинска»: a town's genitive (nmod) the parser calls nominative
        ("Коммунальщики", "коммунальщик", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "nsubj"),
        ("Ельнинска", "Ельнинск", "PROPN", _ANIM.format("Nom"), 1, "nmod"),
        ("начали", "начать", "VERB", "", 0, "root"),
        ("работу", "работа", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", 3, "obj"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ])
    assert cases("Ельнинска") == frozenset({"Gen"}) and name_chain(town, town.token(1), cases) == ()
    other_case = passive([  # «передан инженером Ивану»: another argument
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Ивану", "Иван", "PROPN", _ANIM.format("Dat"), 4, "appos"),
    ])
    assert name_chain(other_case, other_case.token(4), cases) == ()
    comma = passive([
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Ins"), 4, "appos"),
    ])
    assert name_chain(comma, comma.token(4), cases) == ()
    quoted = passive([
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("«", "«", "PUNCT", "", 6, "punct"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        ("»", "»", "PUNCT", "", 6, "punct"),
    ], "Мост был построен инженером «Петровым».")
    assert name_chain(quoted, quoted.token(4), cases) == ()
    in_pp = passive([  # «инженером из Москвы»: a place under a preposition
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("из", "из", "ADP", "", 6, "case"),
        ("Москвы", "Москва", "PROPN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Sing", 4, "nmod"),
    ])
    assert name_chain(in_pp, in_pp.token(4), cases) == ()
    clause = passive([  # a participle on the name: deleting the name would leave it behind
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Петровым", "Петров", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        (",", ",", "PUNCT", "", 7, "punct"),
        ("жившим", "жить", "VERB", "Case=Ins|VerbForm=Part", 5, "acl"),
        ("здесь", "здесь", "ADV", "", 7, "advmod"),
    ])
    assert name_chain(clause, clause.token(4), cases) == ()
    # a particle inside the name; a PP or a conjunct hung on the name's last word stays with the noun
    particle = passive([
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Эберхардом", "Эберхард", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        ("фон", "фон", "PART", "", 5, "appos"),
        ("Хеппом", "Хепп", "PROPN", _ANIM.format("Ins"), 6, "flat:name"),
        ("из", "из", "ADP", "", 9, "case"),
        ("Бонна", "Бонн", "PROPN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Sing", 7, "nmod"),
        ("и", "и", "CCONJ", "", 11, "cc"),
        ("коллегами", "коллега", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 7, "conj"),
    ])
    assert [t.form for t in name_chain(particle, particle.token(4), cases)] == ["Эберхардом", "фон", "Хеппом"]
    dangling = passive([  # a particle ends no name: the name goes on past what the chain can take
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Хеппом", "Хепп", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        ("фон", "фон", "PART", "", 5, "appos"),
    ])
    assert name_chain(dangling, dangling.token(4), cases) == ()
    stray = passive([  # the second name part hung elsewhere: the chain would stop short of it
        ("инженером", "инженер", "NOUN", _ANIM.format("Ins"), 3, "obl:agent"),
        ("Юрием", "Юрий", "PROPN", _ANIM.format("Ins"), 4, "appos"),
        ("Стравинским", "Стравинский", "PROPN", _ANIM.format("Ins"), 3, "obl"),
    ])
    assert name_chain(stray, stray.token(4), cases) == ()


def test_infinitive_or_converb_hung_on_a_noun_does_not_block():
    """An infinitive or converb the parser hung on a noun as ``acl`` does not inflect for it (a
    misattached clause: «шевелил губами, как бы молясь»); a participle does."""
    def sent(verbform: str, form: str, lemma: str):
        return tree([
            ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
            ("шевелил", "шевелить", "VERB", "Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
            ("губами", "губа", "NOUN", "Animacy=Inan|Case=Ins|Gender=Fem|Number=Plur", 2, "obl"),
            (form, lemma, "VERB", f"VerbForm={verbform}" + ("|Case=Ins|Number=Plur" if verbform == "Part" else ""),
             3, "acl"),
            (".", ".", "PUNCT", "", 2, "punct"),
        ])
    assert not has_blocking_dependents(sent("Conv", "молясь", "молиться"), sent("Conv", "молясь", "молиться").token(3))
    inf = sent("Inf", "молиться", "молиться")
    assert not has_blocking_dependents(inf, inf.token(3))
    part = sent("Part", "дрожащими", "дрожать")
    assert has_blocking_dependents(part, part.token(3))
