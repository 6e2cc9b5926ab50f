"""trees/modifiers.py: stray adjectives re-attached to their noun (hand-written wrong parses), memoised."""

from __future__ import annotations

from rublimp.morph import get_morph
from rublimp.trees.modifiers import modifiers_reattached
from tests.trees import tree

# «Старый люк открытый находился.»: the parser hung «открытый» on the verb
STRAY = [
    ("Старый", "старый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 2, "amod"),
    ("люк", "люк", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj"),
    ("открытый", "открытый", "ADJ", "Case=Nom|Gender=Masc|Number=Sing", 4, "advcl"),
    ("находился", "находиться", "VERB", "Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin", 0, "root"),
    (".", ".", "PUNCT", "", 4, "punct"),
]


def test_a_stray_adjective_after_its_noun_is_reattached_only_with_after_noun():
    sent = tree(STRAY)
    fixed = modifiers_reattached(sent, after_noun=True)
    assert (fixed.token(3).head, fixed.token(3).deprel) == (2, "amod")
    assert sent.token(3).head == 4  # the input is not changed
    # without after_noun only the noun after the adjective is tried (a depictive may follow its noun)
    assert modifiers_reattached(sent, after_noun=False) is sent


def test_the_repair_is_memoised_per_sentence_and_arguments():
    sent = tree(STRAY)
    morph = get_morph()
    first = modifiers_reattached(sent, after_noun=True, morph=morph)
    assert modifiers_reattached(sent, after_noun=True, morph=morph) is first
    assert modifiers_reattached(sent, after_noun=False, morph=morph) is not first
    assert modifiers_reattached(tree(STRAY), after_noun=True, morph=morph) == first


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
    fixed = modifiers_reattached(tree(rows), after_noun=False)
    assert (fixed.token(4).head, fixed.token(4).deprel) == (5, "amod")
    assert (fixed.token(3).head, fixed.token(3).deprel) == (5, "case")
    # not when the adjective has another dependent
    other = [r if i != 0 else ("Город", "город", "NOUN", "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj")
             for i, r in enumerate(rows)]
    assert modifiers_reattached(tree(other), after_noun=False).token(4).head == 2
