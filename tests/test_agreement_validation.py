"""Agreement edges on hand-built trees and the MultiBLiMP §4.2 verdict rule."""

from __future__ import annotations

import polars as pl
import pytest
from scipy.stats import binomtest

from rublimp.agreement_validation import (
    TABLE_SCHEMA,
    agreement_table,
    load_verdicts,
    subject_predicate_edges,
    validate_agreement,
    write_agreement_table,
)
from rublimp.conllu_doc import read_conllu_string
from rublimp.io import InputError


def conllu(text: str, rows: list[tuple], sent_id: str = "s1") -> str:
    """A CoNLL-U block from (id, form, lemma, upos, feats, head, deprel[, misc]) rows."""
    lines = [f"# sent_id = {sent_id}", f"# text = {text}"]
    for r in rows:
        tid, form, lemma, upos, feats, head, deprel = r[:7]
        misc = r[7] if len(r) > 7 else "_"
        lines.append("\t".join([str(tid), form, lemma, upos, "_", feats or "_", str(head), deprel, "_", misc]))
    return "\n".join(lines) + "\n\n"


def one(text: str, rows: list[tuple], sent_id: str = "s1"):
    return read_conllu_string(conllu(text, rows, sent_id))[0]


N_PL = "Animacy=Anim|Case=Nom|Gender=Fem|Number=Plur"
PAST_PL = "Aspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act"

CATS = [
    (1, "Кошки", "кошка", "NOUN", N_PL, 2, "nsubj"),
    (2, "спали", "спать", "VERB", PAST_PL, 0, "root"),
    (3, ".", ".", "PUNCT", "", 2, "punct"),
]


def cats(conf: str | None = None, sent_id: str = "s1"):
    rows = [list(r) for r in CATS]
    if conf is not None:
        rows[0].append(f"HeadConf={conf}")
    return one("Кошки спали.", [tuple(r) for r in rows], sent_id)


# -- edges ------------------------------------------------------------------
def test_finite_verb_edge():
    (e,) = subject_predicate_edges(cats())
    assert (e.subject.form, e.agreeing.form, e.pred_type, e.order) == ("Кошки", "спали", "verb", "SV")
    assert e.subject_kind == "nominal" and e.usable and e.conf == 1.0
    assert e.key("Number") == ("Number", "verb", "Plur", "SV")
    # a past plural marks neither gender nor person; a plural subject has no gender value
    assert e.predicate_value("Gender") is None and e.predicate_value("Person") is None
    assert e.key("Gender") is None
    assert e.key("Person") == ("Person", "verb", "3", "SV")


def test_aux_pass_edge_with_agreeing_participle_and_vs_order():
    s = one(
        "Вчера была закрыта дверь.",
        [
            (1, "Вчера", "вчера", "ADV", "Degree=Pos", 3, "advmod"),
            (2, "была", "быть", "AUX", "Aspect=Imp|Gender=Fem|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act", 3, "aux:pass"),
            (3, "закрыта", "закрыть", "VERB", "Aspect=Perf|Gender=Fem|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass", 0, "root"),
            (4, "дверь", "дверь", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj:pass", "HeadConf=0.75"),
            (5, ".", ".", "PUNCT", "", 3, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(s)
    assert e.agreeing.form == "была" and e.pred_type == "aux" and e.order == "VS"
    assert [t.form for t in e.co_agreeing] == ["закрыта"]
    assert e.conf == pytest.approx(0.75)
    assert e.key("Gender") == ("Gender", "aux", "Fem", "VS")
    assert e.predicate_value("Gender") == "Fem"


def test_short_form_future_aux_and_present_byt():
    short = one(
        "Окно открыто.",
        [
            (1, "Окно", "окно", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 2, "nsubj:pass"),
            (2, "открыто", "открыть", "VERB", "Aspect=Perf|Gender=Neut|Number=Sing|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass", 0, "root"),
            (3, ".", ".", "PUNCT", "", 2, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(short)
    assert e.pred_type == "part_shortadj" and e.agreeing.form == "открыто"
    # analytic future: будем carries person and number; tagged Pres as taggers often do
    fut = one(
        "Мы будем работать.",
        [
            (1, "Мы", "мы", "PRON", "Case=Nom|Number=Plur|Person=1", 3, "nsubj"),
            (2, "будем", "быть", "AUX", "Aspect=Imp|Mood=Ind|Number=Plur|Person=1|Tense=Pres|VerbForm=Fin|Voice=Act", 3, "aux"),
            (3, "работать", "работать", "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 0, "root"),
            (4, ".", ".", "PUNCT", "", 3, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(fut)
    assert (e.agreeing.form, e.pred_type, e.predicate_value("Person")) == ("будем", "aux", "1")
    assert e.key("Person") == ("Person", "aux", "1", "SV")
    # present быть («есть») does not agree, and a nominal predicate has no agreeing word
    pres = one(
        "Книги есть.",
        [
            (1, "Книги", "книга", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Plur", 2, "nsubj"),
            (2, "есть", "быть", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
            (3, ".", ".", "PUNCT", "", 2, "punct"),
        ],
    )
    nominal = one(
        "Он врач.",
        [
            (1, "Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
            (2, "врач", "врач", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 0, "root"),
            (3, ".", ".", "PUNCT", "", 2, "punct"),
        ],
    )
    assert subject_predicate_edges(pres) == [] and subject_predicate_edges(nominal) == []


def test_nonagreeing_subject_kinds():
    clause = one(
        "Нам пришлось уйти.",
        [
            (1, "Нам", "мы", "PRON", "Case=Dat|Number=Plur|Person=1", 2, "iobj"),
            (2, "пришлось", "прийтись", "VERB", "Aspect=Perf|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Mid", 0, "root"),
            (3, "уйти", "уйти", "VERB", "Aspect=Perf|VerbForm=Inf|Voice=Act", 2, "csubj"),
            (4, ".", ".", "PUNCT", "", 2, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(clause)
    assert e.subject_kind == "clausal" and e.order == "VS"
    assert e.key("Gender") == ("Gender", "verb", "Clause", "VS") and e.expected_value("Gender") == "Neut"
    gen = one(
        "Детей не было.",
        [
            (1, "Детей", "ребёнок", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", 3, "nsubj"),
            (2, "не", "не", "PART", "Polarity=Neg", 3, "advmod"),
            (3, "было", "быть", "AUX", "Aspect=Imp|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
            (4, ".", ".", "PUNCT", "", 3, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(gen)
    assert e.subject_kind == "genitive" and e.negated and e.pred_type == "verb"
    assert e.key("Number") == ("Number", "verb", "Gen", "SV") and e.expected_value("Number") == "Sing"
    # without negation a genitive «subject» is a tagging error and is not counted
    plain = one(
        "Детей было.",
        [
            (1, "Детей", "ребёнок", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", 2, "nsubj"),
            (2, "было", "быть", "AUX", "Aspect=Imp|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
            (3, ".", ".", "PUNCT", "", 2, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(plain)
    assert e.subject_kind == "other" and not e.usable and e.key("Number") is None
    quant = one(
        "Пять студентов пришли.",
        [
            (1, "Пять", "пять", "NUM", "Case=Nom", 2, "nummod:gov"),
            (2, "студентов", "студент", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", 3, "nsubj"),
            (3, "пришли", "прийти", "VERB", "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
            (4, ".", ".", "PUNCT", "", 3, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(quant)
    assert e.subject_kind == "quantified" and not e.negated
    assert e.subject_value("Number") == "Quant" and e.predicate_value("Number") == "Plur"


def test_coordinated_subject_is_not_usable():
    s = one(
        "Маша и Петя пришли.",
        [
            (1, "Маша", "маша", "PROPN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 4, "nsubj"),
            (2, "и", "и", "CCONJ", "", 3, "cc"),
            (3, "Петя", "петя", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 1, "conj"),
            (4, "пришли", "прийти", "VERB", "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
            (5, ".", ".", "PUNCT", "", 4, "punct"),
        ],
    )
    (e,) = subject_predicate_edges(s)
    assert e.coordinated and not e.usable
    assert validate_agreement([s]).height == 0


def test_malformed_headconf_is_an_input_error():
    with pytest.raises(InputError, match="HeadConf"):
        subject_predicate_edges(cats(conf="high"))


# -- the verdict rule -----------------------------------------------------------
K1 = ("Number", "verb", "Sing", "SV")
K2 = ("Number", "verb", "Plur", "SV")
K3 = ("Gender", "aux", "Fem", "VS")


def verdicts(df: pl.DataFrame) -> dict:
    return {tuple(r[:4]): r[4] for r in df.select("feature", "pred_type", "subject_value", "order", "verdict").iter_rows()}


def test_single_condition_verdicts():
    assert verdicts(agreement_table({K1: (100, 95)})) == {K1: "certain"}
    assert verdicts(agreement_table({K1: (100, 50)})) == {K1: "absent"}
    assert verdicts(agreement_table({K1: (3, 3)})) == {K1: "uncertain"}  # too few to decide
    assert verdicts(agreement_table({K1: (100, 88)})) == {K1: "uncertain"}


def test_pvalues_are_the_one_sided_binomial_tests():
    row = agreement_table({K1: (40, 39)}, p0=0.9).row(0, named=True)
    assert row["p_agree"] == pytest.approx(binomtest(39, 40, 0.9, alternative="greater").pvalue)
    assert row["p_disagree"] == pytest.approx(binomtest(39, 40, 0.9, alternative="less").pvalue)
    assert row["share"] == pytest.approx(39 / 40) and (row["n"], row["n_agree"]) == (40, 39)


def test_bonferroni_changes_a_verdict():
    # 95/100 gives p ≈ 0.058: below alpha = 0.1 alone, above alpha / 2 with a second condition
    assert verdicts(agreement_table({K1: (100, 95)}))[K1] == "certain"
    both = verdicts(agreement_table({K1: (100, 95), K2: (200, 200)}))
    assert both == {K1: "uncertain", K2: "certain"}


def test_table_schema_sorting_and_bad_parameters():
    df = agreement_table({K3: (10, 10), K2: (10, 10), K1: (10, 10), ("Person", "verb", "3", "VS"): (0, 0)})
    assert dict(df.schema) == TABLE_SCHEMA
    assert [tuple(r) for r in df.select("feature", "pred_type", "subject_value", "order").iter_rows()] == [K3, K2, K1]
    assert agreement_table({}).height == 0
    with pytest.raises(InputError, match="p0"):
        agreement_table({K1: (1, 1)}, p0=1.5)
    with pytest.raises(InputError, match="alpha"):
        agreement_table({K1: (1, 1)}, alpha=0.0)


def test_validate_counts_and_min_conf():
    sure = [cats(sent_id=f"a{i}") for i in range(25)]
    unsure = [cats(conf="0.400", sent_id=f"b{i}") for i in range(25)]
    df = validate_agreement(sure + unsure)
    row = df.filter(pl.col("feature") == "Number").row(0, named=True)
    assert (row["n"], row["n_agree"], row["verdict"]) == (50, 50, "certain")
    # the person condition (noun = 3rd person) is not countable on a past verb: only Number is tested
    assert df["feature"].to_list() == ["Number"]
    filtered = validate_agreement(sure + unsure, min_conf=0.9)
    assert filtered.row(0, named=True)["n"] == 25
    assert validate_agreement(unsure, min_conf=0.9).height == 0


# -- writing and loading ------------------------------------------------------------
def test_write_and_load_roundtrip_is_deterministic(tmp_path):
    df = agreement_table({K1: (100, 95), K2: (100, 50), K3: (3, 3)})
    write_agreement_table(df, tmp_path / "a.parquet", tmp_path / "a.csv")
    write_agreement_table(df, tmp_path / "b.parquet", tmp_path / "b.csv")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    expected = {K1: "uncertain", K2: "absent", K3: "uncertain"}
    assert load_verdicts(tmp_path / "a.parquet") == expected
    assert load_verdicts(tmp_path / "a.csv") == expected
    assert not list(tmp_path.glob(".*.tmp"))


def test_load_verdicts_errors(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_verdicts(tmp_path / "missing.parquet")
    pl.DataFrame({"feature": ["Number"], "verdict": ["certain"]}).write_parquet(tmp_path / "cols.parquet")
    with pytest.raises(InputError, match="pred_type"):
        load_verdicts(tmp_path / "cols.parquet")
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "feature,pred_type,subject_value,order,verdict\nNumber,verb,Sing,SV,certain\nNumber,verb,Plur,SV,maybe\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        load_verdicts(bad)
    assert err.value.line == 3 and "maybe" in str(err.value)
