"""trees/modifiers.py: stray adjectives re-attached to their noun (hand-written wrong parses), memoised."""

from __future__ import annotations

from rublimp.morph import get_morph
from rublimp.trees.modifiers import adjective_heading_clause, modifier_after, modifiers_reattached
from tests.trees import tree

# «Старый люк открытый находился.»: the parser hung «открытый» on the verb
STRAY = [
    ("Старый", "старый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 2, "amod"),
    ("люк", "люк", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj"),
    ("открытый", "открытый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 4, "advcl"),
    ("находился", "находиться", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
    (".", ".", "PUNCT", "", 4, "punct"),
]


def test_a_stray_adjective_after_its_noun_is_left_to_the_query():
    sent = tree(STRAY)
    # only the noun after the adjective is tried (a depictive may follow its noun)
    assert modifiers_reattached(sent) is sent
    assert modifier_after(sent, sent.token(2)).id == 3


def test_a_stray_adjective_before_its_noun_is_reattached_and_memoised():
    # «Люк открытый находился.» read the other way: «Старый» on the verb, right before its noun
    rows = [
        ("Старый", "старый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 3, "advcl"),
        ("люк", "люк", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 3, "nsubj"),
        ("находился", "находиться", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]
    sent = tree(rows)
    fixed = modifiers_reattached(sent)
    assert (fixed.token(1).head, fixed.token(1).deprel) == (2, "amod")
    assert sent.token(1).head == 3  # the input is not changed
    assert modifiers_reattached(sent) is fixed
    assert modifiers_reattached(tree(rows)) == fixed


def test_a_preposition_hung_on_the_adjective_moves_with_it():
    # «Город входил в Северный уезд.» with «в» on the adjective and the adjective on the verb
    rows = [
        ("Город", "город", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
        ("входил", "входить", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
        ("в", "в", "ADP", "", 4, "case"),
        ("Северный", "северный", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 2, "obl"),
        ("уезд", "уезд", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 2, "obl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]
    fixed = modifiers_reattached(tree(rows))
    assert (fixed.token(4).head, fixed.token(4).deprel) == (5, "amod")
    assert (fixed.token(3).head, fixed.token(3).deprel) == (5, "case")
    # not when the adjective has another dependent
    other = [r if i != 0 else ("Город", "город", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj")
             for i, r in enumerate(rows)]
    assert modifiers_reattached(tree(other)).token(4).head == 2


# «Дед почесал лохматую голову и улыбнулся.»: the adjective on the verb, heading the conjunct verb
CLAUSE_ON_ADJECTIVE = [
    ("Дед", "дед", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
    ("почесал", "почесать", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
    ("лохматую", "лохматый", "ADJ", "Case=Acc|Gender=Fem|Number=Sing", 2, "amod"),
    ("голову", "голова", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", 2, "obj"),
    ("и", "и", "CCONJ", "", 6, "cc"),
    ("улыбнулся", "улыбнуться", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 3, "conj"),
    (".", ".", "PUNCT", "", 2, "punct"),
]

# «Мальчик шёл с совсем уставшей собакой.»: the noun hung on its own adjective
NOUN_ON_ADJECTIVE = [
    ("Мальчик", "мальчик", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
    ("шёл", "идти", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
    ("с", "с", "ADP", "", 6, "case"),
    ("совсем", "совсем", "ADV", "Degree=Pos", 5, "advmod"),
    ("уставшей", "уставший", "ADJ", "Case=Ins|Gender=Fem|Number=Sing", 2, "obl"),
    ("собакой", "собака", "NOUN", "Animacy=Anim|Case=Ins|Gender=Fem|Number=Sing", 5, "obl"),
    (".", ".", "PUNCT", "", 2, "punct"),
]

# «Где найти старинный крест?»: the adjective is the root, the noun deeper in its subtree
ROOT_ADJECTIVE = [
    ("Где", "где", "ADV", "Degree=Pos", 2, "advmod"),
    ("найти", "найти", "VERB", "VerbForm=Inf", 3, "xcomp"),
    ("старинный", "старинный", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 0, "root"),
    ("крест", "крест", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 2, "obj"),
    ("?", "?", "PUNCT", "", 3, "punct"),
]


def test_an_adjective_heading_clause_material_is_reattached():
    fixed = adjective_heading_clause(tree(CLAUSE_ON_ADJECTIVE), conjuncts=False, morph=get_morph())
    assert (fixed.token(3).head, fixed.token(3).deprel) == (4, "amod")
    assert (fixed.token(6).head, fixed.token(6).deprel) == (2, "conj")  # the conjunct goes to the verb
    # the simple repair leaves an adjective with dependents as the parser gave it
    assert modifiers_reattached(tree(CLAUSE_ON_ADJECTIVE)).token(3).head == 2


def test_a_noun_hung_on_its_adjective_takes_the_adjectives_place():
    fixed = adjective_heading_clause(tree(NOUN_ON_ADJECTIVE), conjuncts=False, morph=get_morph())
    assert (fixed.token(6).head, fixed.token(6).deprel) == (2, "obl")
    assert (fixed.token(5).head, fixed.token(5).deprel) == (6, "amod")
    assert fixed.token(4).head == 5  # the degree adverb stays on its adjective
    assert fixed.token(3).head == 6


def test_an_adjective_over_a_deeper_or_disagreeing_noun_stays():
    sent = tree(ROOT_ADJECTIVE)
    assert adjective_heading_clause(sent, morph=get_morph()).token(3).head == 0
    other_case = [r if i != 3 else ("голову", "голова", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Sing", 2, "obj")
                  for i, r in enumerate(CLAUSE_ON_ADJECTIVE)]
    assert adjective_heading_clause(tree(other_case), morph=get_morph()).token(3).head == 2


def test_a_conjunct_adjective_keeps_its_comma_but_quotes_block():
    # «Залит голый, серый бетон.»: «серый» a conjunct of «голый», with the comma before it
    rows = [
        ("Залит", "залить", "VERB", "Gender=Masc|Number=Sing|Variant=Short|VerbForm=Part", 0, "root"),
        ("голый", "голый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 5, "amod"),
        (",", ",", "PUNCT", "", 4, "punct"),
        ("серый", "серый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 2, "conj"),
        ("бетон", "бетон", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 1, "nsubj"),
        (".", ".", "PUNCT", "", 1, "punct"),
    ]
    fixed = adjective_heading_clause(tree(rows), morph=get_morph())
    assert (fixed.token(4).head, fixed.token(4).deprel) == (5, "amod")
    # the pass leaves coordinated adjectives as UD has them; the noun-phrase paradigms ask the query
    assert adjective_heading_clause(tree(rows), conjuncts=False, morph=get_morph()).token(4).head == 2
    from rublimp.trees.modifiers import conjunct_before
    assert conjunct_before(tree(rows), tree(rows).token(5), get_morph()).id == 4
    # a quote hung on the adjective (a title) keeps the parser's tree
    quoted = [r if i != 2 else ("«", "«", "PUNCT", "", 4, "punct") for i, r in enumerate(rows)]
    assert adjective_heading_clause(tree(quoted), morph=get_morph()).token(4).head == 2
    assert conjunct_before(tree(quoted), tree(quoted).token(5), get_morph()) is None


def test_modifier_after_finds_the_agreeing_adjective_the_tree_hangs_elsewhere():
    sent = tree(STRAY)
    assert modifier_after(sent, sent.token(2)).id == 3
    assert modifier_after(sent, sent.token(1)) is None  # not a noun
    # a depictive in another case than the noun's is none of its modifiers
    other = [r if i != 2 else ("открытым", "открытый", "ADJ", "Case=Ins|Gender=Masc|Number=Sing", 4, "xcomp")
             for i, r in enumerate(STRAY)]
    assert modifier_after(tree(other), tree(other).token(2)) is None
    # an adjective already the noun's amod is no stray one
    attached = [r if i != 2 else ("открытый", "открытый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 2, "amod")
                for i, r in enumerate(STRAY)]
    assert modifier_after(tree(attached), tree(attached).token(2)) is None


def test_modifier_after_leaves_an_adjective_to_the_agreeing_noun_after_it():
    # «Дом старый сарай загораживал.»: «старый» between two nominative nouns belongs to the one after it
    sent = tree([
        ("Дом", "дом", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj"),
        ("старый", "старый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 4, "advmod"),
        ("сарай", "сарай", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "obj"),
        ("загораживал", "загораживать", "VERB", "Aspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])
    assert modifier_after(sent, sent.token(1)) is None


def test_modifier_after_with_morph_reads_a_noun_tagged_adjective_as_the_adjective_it_is():
    from rublimp.trees.modifiers import adjective_reading

    # «Сила колдовская прёт наружу.» with «колдовская» tagged NOUN and hung on «сила» as nmod
    sent = tree([
        ("Сила", "сила", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj"),
        ("колдовская", "колдовская", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 1, "nmod"),
        ("прёт", "переть", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
        ("наружу", "наружу", "ADV", "Degree=Pos", 3, "advmod"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ])
    morph = get_morph()
    assert modifier_after(sent, sent.token(1)) is None  # without morph a NOUN is no modifier
    adj = modifier_after(sent, sent.token(1), morph)
    assert (adj.id, adj.upos, "Animacy" in adj.feats) == (2, "ADJ", False)
    assert sent.token(2).upos == "NOUN"  # the tree keeps the parser's tag
    assert adjective_reading(sent.token(1), morph) is None  # «сила» is a noun
