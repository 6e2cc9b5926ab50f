"""Every registered paradigm on the whole demo corpus: names, pool schema, pair invariants."""

import re

import pytest

from rublimp.paradigms import REGISTRY, paradigm_names
from rublimp.perturb import POOL_SCHEMA, build_pools

PHENOMENA = {
    "Morphology": {"word_formation", "word_inflection"},
    "Syntax": {
        "government", "subject_predicate_agreement", "anaphor_agreement", "noun_phrase_agreement",
        "floating_quantifier_agreement", "reflexives", "negation",
    },
    "Semantics": {"argument_structure", "aspect", "tense"},
}


def test_the_45_rublimp_paradigms_in_12_phenomena():
    names = paradigm_names()
    assert len(names) == 45
    seen = set()
    for n in names:
        cls = REGISTRY[n]
        assert cls.phenomenon in PHENOMENA[cls.level], (n, cls.level, cls.phenomenon)
        seen.add(cls.phenomenon)
    assert len(seen) == 12


@pytest.fixture(scope="module")
def pools(demo_sentences):
    return build_pools(demo_sentences, paradigm_names(), progress=False)


def _words(s: str) -> list[str]:
    return s.split()


def test_every_paradigm_yields_pairs_on_the_demo_corpus(pools):
    empty = [n for n, df in pools.items() if df.height == 0]
    assert not empty, f"no demo pairs for {empty}"


def test_pool_schema_and_unique_ids(pools):
    for name, df in pools.items():
        assert dict(df.schema) == POOL_SCHEMA, name
        assert df["id"].n_unique() == df.height, name
        assert set(df["PID"]) == {name}
        for col in ("feature", "source_value", "target_value", "source_word", "target_word", "domain"):
            assert df[col].null_count() == 0 and (df[col] != "").all(), (name, col)


def test_pair_invariants_over_the_whole_demo_pool(pools):
    for name, df in pools.items():
        moves = REGISTRY[name].moves_words
        for good, bad in zip(df["source_sentence"], df["target_sentence"]):
            assert good != bad, (name, good)
            gw, bw = _words(good), _words(bad)
            if len(gw) != len(bw) and not moves:
                continue  # a phrase replaced by one word: test_only_the_recorded_words_change
            assert len(gw) == len(bw), (name, good, bad)
            if moves:  # one word moved: the same words in another order
                assert sorted(w.lower() for w in gw) == sorted(w.lower() for w in bw), (name, good, bad)


def test_only_the_recorded_words_change(pools):
    """Outside the changed words the two sentences are identical, character for character."""
    for name, df in pools.items():
        if REGISTRY[name].moves_words:
            continue
        for good, bad, src, tgt in zip(df["source_sentence"], df["target_sentence"], df["source_word"], df["target_word"]):
            if len(_words(good)) != len(_words(bad)):
                # a named argument replaced as a whole phrase («архитектором Юрием Стравинским» → «камнем»):
                # the recorded phrase, written as in the sentence, gives way to the recorded word
                assert len(src.split()) > 1 and good.count(src) == 1 and good.replace(src, tgt) == bad, (name, good, bad)
                continue
            changed = [a for a, b in zip(_words(good), _words(bad)) if a != b]
            recorded = src.split()
            assert 0 < len(changed) <= len(recorded), (name, good, bad, src)
            for w in changed:
                core = re.sub(r"^\W+|\W+$", "", w)
                assert any(core and (core in r or r in w) for r in recorded), (name, good, bad, src)
