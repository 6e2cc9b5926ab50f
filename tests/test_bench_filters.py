"""bench/bench_filters.py: the pipeline's sentence screening (text filter, then parse + source
self-check) measured as one classifier of "drop"."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_filters  # noqa: E402
from bench_filters import Item, classify  # noqa: E402
from rublimp.corpus import FilterConfig, check_sentence  # noqa: E402

from trees import tree  # noqa: E402

# «Новая система управления применяются на всех заводах.»: a singular subject with a plural verb
BROKEN = [
    ("Новая", "новый", "ADJ", "Case=Nom|Degree=Pos|Gender=Fem|Number=Sing", 2, "amod"),
    ("система", "система", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 4, "nsubj"),
    ("управления", "управление", "NOUN", "Animacy=Inan|Case=Gen|Gender=Neut|Number=Sing", 2, "nmod"),
    ("применяются", "применяться", "VERB", "Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin", 0, "root"),
    ("на", "на", "ADP", "", 7, "case"),
    ("всех", "весь", "DET", "Case=Loc|Number=Plur", 7, "det"),
    ("заводах", "завод", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Plur", 4, "obl"),
    (".", ".", "PUNCT", "", 4, "punct"),
]
FIXED = [r if r[0] != "применяются" else ("применяется", "применяться", "VERB",
         "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", 0, "root") for r in BROKEN]
NOISE = "Купить дешево!!! Скидки http://example.com"


def _items():
    broken, fixed = tree(BROKEN), tree(FIXED)
    return [
        Item("t", "broken", "drop", "source_error", broken.text),
        Item("t", "fixed", "keep", "", fixed.text),
        Item("t", "noise", "drop", "markup_leftover", NOISE),
    ], {broken.text: broken, fixed.text: fixed}


def test_combined_classifier_drops_a_source_with_an_agreement_error_via_the_source_check():
    items, trees = _items()
    # both sentences are clean text: only the parse shows the broken agreement
    assert check_sentence(items[0].text) is None and check_sentence(items[1].text) is None
    asked: list[str] = []

    def parse(texts):
        asked.extend(texts)
        return {t: trees[t] for t in texts}, {}

    key = ("Number", "verb", "Sing", "SV")
    text_v, source_v, combined = classify(items, FilterConfig(), parse, {key: "certain"})
    assert text_v[0] is None and text_v[1] is None and text_v[2] is not None
    assert asked == [items[0].text, items[1].text]  # the filter's drops are never parsed
    assert source_v == {items[0].text: "source_check:source_subject_predicate", items[1].text: None}
    assert combined == ["source_check:source_subject_predicate", None, text_v[2]]
    # where the agreement validation is not sure of the condition, the check keeps the sentence
    _, _, combined = classify(items, FilterConfig(), parse, {key: "uncertain"})
    assert combined == [None, None, text_v[2]]


def test_a_line_the_parser_skips_is_a_drop_named_after_the_parse():
    items, trees = _items()

    def parse(texts):
        return {items[1].text: trees[items[1].text]}, {items[0].text: "max_tokens"}

    _, _, combined = classify(items, FilterConfig(), parse, None)
    assert combined[:2] == ["parse:max_tokens", None]


def test_cached_parse_parses_once(tmp_path, monkeypatch):
    """The slovnet parse is cached by the texts' hash: a second call reads the trees back."""
    calls = []
    real = bench_filters._parse_texts

    def counting(items, **kw):
        items = list(items)
        calls.append(len(items))
        return real(items, **kw)

    monkeypatch.setattr(bench_filters, "_parse_texts", counting)
    texts = ["Мальчик читает интересную книгу в библиотеке.", "Девочки пели песни у костра всю ночь."]
    parse = bench_filters.cached_parse("t", tmp_path)
    first, skipped = parse(texts)
    assert calls == [2] and skipped == {} and set(first) == set(texts) and parse.timing[2] is False
    second, _ = bench_filters.cached_parse("t", tmp_path)(texts)
    assert calls == [2]
    assert {t: [w.form for w in s.tokens] for t, s in second.items()} == {t: [w.form for w in s.tokens] for t, s in first.items()}
