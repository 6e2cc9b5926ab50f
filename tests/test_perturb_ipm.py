"""The pools' ``ipm`` column: read from the frequencies of just the needed words, equal to ipm()."""

from __future__ import annotations

import wordfreq

from rublimp.perturb import _frequencies, _frequencies_of, _frequency_buckets, build_pools, ipm
from trees import tree


def test_frequency_buckets_are_wordfreqs_russian_list():
    assert _frequency_buckets() == wordfreq.get_frequency_list("ru", "best")


def test_frequencies_of_picks_wordfreqs_values():
    _frequencies.cache_clear()  # read from the buckets, not from a dictionary already loaded
    words = {"и", "собака", "спит", "ёлка", "большая", "щщщзззыыы"}
    full = wordfreq.get_frequency_dict("ru", "best")
    got = _frequencies_of(words)
    assert got == {w: full[w] for w in words if w in full}
    assert "щщщзззыыы" not in got and got["и"] > got["собака"] > 0


def test_pool_ipm_equals_the_sentences_ipm():
    sents = [
        tree(
            [("Большая", "большой", "ADJ", "Case=Nom|Degree=Pos|Gender=Fem|Number=Sing", 2, "amod"),
             ("собака", "собака", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj"),
             ("спит", "спать", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
             (".", ".", "PUNCT", "", 3, "punct")],
            sent_id="s1",
        ),
        tree(
            [("Старый", "старый", "ADJ", "Case=Nom|Degree=Pos|Gender=Masc|Number=Sing", 2, "amod"),
             ("кот", "кот", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 3, "nsubj"),
             ("ест", "есть", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
             (".", ".", "PUNCT", "", 3, "punct")],
            sent_id="s2",
        ),
    ]
    _frequencies.cache_clear()
    pools = build_pools(sents, ["np_agreement_gender", "noun_subj_predicate_agreement_number"], progress=False)
    by_id = {s.sent_id: s for s in sents}
    n = 0
    for df in pools.values():
        for row in df.iter_rows(named=True):
            assert row["ipm"] == ipm(by_id[row["sent_id"]]) > 0
            n += 1
    assert n >= 2
