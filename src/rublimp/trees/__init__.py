"""The tree layer: normalised UD trees shared by every paradigm.

Sits between parsing and the paradigms (corpus -> parse -> **trees** -> paradigms -> pools) and imports
only the CoNLL-U model (:mod:`rublimp.conllu_doc`), :mod:`rublimp.morph`, :mod:`rublimp.lexicon` and
:mod:`rublimp.io`. It is the one home for

* lexical tests ("pymorphy3 reads this form only as X") and closed-class word sets;
* parser repairs, grouped in families (verbs, nouns, modifiers, roles), each a small fix;
* queries over the repaired tree (who is the subject, what governs this genitive), with named
  policies where paradigms deliberately differ;
* shared nominal morphology (agreement readings, re-inflection, the common-gender list);
* the per-sentence and per-token memos (:mod:`rublimp.trees.memo`), so a sentence is repaired once and
  every paradigm sees the same result.

Paradigm modules hold rules only and import from here, never from each other.
"""
