"""The fidelity comparison: normalisation, word positions, the three rates, CSV errors (no parser needed)."""

from __future__ import annotations

import pytest

from rublimp.fidelity import (
    OurPair,
    RublimpRow,
    changed_positions,
    compare_row,
    normalise,
    paradigm_group,
    read_rublimp_csv,
    summarise,
)
from rublimp.io import InputError


def row(source, target, sw, tw, pid="noun_subj_predicate_agreement_number"):
    return RublimpRow(row_id="1", paradigm=pid, source=source, target=target, source_word=sw, target_word=tw)


def pair(good, bad, sw, tw):
    pos = changed_positions(good, bad)
    return OurPair(bad=bad, source_word=sw, target_word=tw, positions=None if pos is None else frozenset(pos))


def test_normalise_yo_case_and_punctuation_spacing():
    assert normalise("Ёлка  стоит , а Он  ушёл !") == normalise("елка стоит, а он ушел!")
    assert normalise("« Да » , — сказал он .") == normalise("«Да», — сказал он.")
    assert normalise("Кошка спит.") != normalise("Кошка спят.")


def test_normalise_keeps_word_boundaries():
    assert normalise("по ка") != normalise("пока")


def test_changed_positions():
    assert changed_positions("Кошки спят на диване.", "Кошки спит на диване.") == {1}
    assert changed_positions("Он ушёл.", "Он ушел.") == set()
    assert changed_positions("Он ушёл.", "Он не ушёл.") is None


def test_same_pair_and_same_word():
    r = row("Мальчики бегают во дворе.", "Мальчики бегает во дворе.", "бегают", "бегает")
    res = compare_row(r, [pair(r.source, "мальчики бегает во дворе .", "бегают", "бегает")])
    assert (res.covered, res.same_word, res.same_pair) == (True, True, True)


def test_same_word_other_value():
    r = row("Он пишет письмо.", "Он пишу письмо.", "пишет", "пишу", "noun_subj_predicate_agreement_person")
    res = compare_row(r, [pair(r.source, "Он пишешь письмо.", "пишет", "пишешь")])
    assert (res.covered, res.same_word, res.same_pair) == (True, True, False)


def test_other_word_by_position_even_with_equal_form():
    # the edited form occurs twice; we edit the other occurrence
    r = row("Он знал, что он знал.", "Он знали, что он знал.", "знал", "знали")
    res = compare_row(r, [pair(r.source, "Он знал, что он знали.", "знал", "знали")])
    assert (res.covered, res.same_word, res.same_pair) == (True, False, False)


def test_same_word_by_form_when_rublimp_changes_word_count():
    r = row("Он красивый.", "Он красивый какой.", "красивый", "красивый какой", "add_new_suffix")
    res = compare_row(r, [pair(r.source, "Он красивейный.", "красивый", "красивейный")])
    assert (res.same_word, res.same_pair) == (True, False)


def test_miss():
    r = row("Он спит.", "Он спят.", "спит", "спят")
    res = compare_row(r, [])
    assert (res.covered, res.same_word, res.same_pair) == (False, False, False)
    assert res.best() is None


def test_best_prefers_same_pair():
    r = row("Кошки спят и едят.", "Кошки спят и ест.", "едят", "ест")
    ours = [pair(r.source, "Кошки спит и едят.", "спят", "спит"), pair(r.source, "Кошки спят и ест.", "едят", "ест")]
    assert compare_row(r, ours).best() is ours[1]


def test_groups_from_registry():
    assert paradigm_group("noun_subj_predicate_agreement_gender") == "subject_predicate_agreement"
    assert paradigm_group("np_agreement_case") == "other_syntax"
    assert paradigm_group("add_new_suffix") == "morphology_semantics"
    assert paradigm_group("transitive_verb") == "morphology_semantics"


def test_summarise_means_over_paradigms():
    a = row("Он спит.", "Он спят.", "спит", "спят")
    b = row("Кот спит.", "Кот спят.", "спит", "спят")
    c = row("Он красивый.", "Он красивейный.", "красивый", "красивейный", "add_new_suffix")
    res = [compare_row(a, [pair(a.source, a.target, "спит", "спят")]), compare_row(b, []), compare_row(c, [])]
    s = summarise(res)
    assert s["paradigms"]["noun_subj_predicate_agreement_number"]["coverage"] == 0.5
    assert s["groups"]["subject_predicate_agreement"]["same_pair"] == 0.5
    assert s["groups"]["all"]["coverage"] == 0.25


def test_csv_missing_column_names_file(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("id,source_sentence,target_sentence\n1,a,b\n", encoding="utf-8")
    with pytest.raises(InputError, match="x.csv:1.*PID"):
        read_rublimp_csv(p)


def test_csv_empty_cell_names_line(tmp_path):
    p = tmp_path / "y.csv"
    p.write_text(
        "id,source_sentence,target_sentence,source_word,target_word,PID\n"
        "1,Он спит.,Он спят.,спит,спят,noun_subj_predicate_agreement_number\n"
        "2,Он спит.,,спит,спят,noun_subj_predicate_agreement_number\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="y.csv:3.*target_sentence"):
        read_rublimp_csv(p)


def test_bench_cli_parses_once_and_writes_json(tmp_path, capsys):
    """End to end on two hand-written rows: rates printed, JSON written, the second run reads trees from the cache."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import bench_fidelity

    d = tmp_path / "rub"
    d.mkdir()
    (d / "noun_subj_predicate_agreement_number.csv").write_text(
        "id,source_sentence,target_sentence,source_word,target_word,PID\n"
        "1,Мальчик читает книгу.,Мальчик читают книгу.,читает,читают,noun_subj_predicate_agreement_number\n"
        "2,Иди сюда!,Идите сюда!,Иди,Идите,noun_subj_predicate_agreement_number\n",
        encoding="utf-8",
    )
    cache = tmp_path / "cache"
    out = tmp_path / "f.json"
    argv = ["--rublimp-dir", str(d), "--cache-dir", str(cache), "--json", str(out), "--sample", "2"]
    assert bench_fidelity.main(argv) == 0
    first = capsys.readouterr().out
    assert "0 trees cached before" in first
    data = json.loads(out.read_text(encoding="utf-8"))
    r = data["paradigms"]["noun_subj_predicate_agreement_number"]
    assert (r["n"], r["coverage"], r["same_word"], r["same_pair"]) == (2, 0.5, 0.5, 0.5)
    assert len(list(cache.rglob("*.conllu"))) == 1
    assert bench_fidelity.main(argv) == 0
    assert "2 trees cached before" in capsys.readouterr().out
    assert len(list(cache.rglob("*.conllu"))) == 1


def test_bench_cli_unknown_paradigm_is_a_clear_error(tmp_path, capsys):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import bench_fidelity

    assert bench_fidelity.main(["--rublimp-dir", str(tmp_path), "--paradigms", "no_such_paradigm"]) == 2
    assert "no_such_paradigm" in capsys.readouterr().err
