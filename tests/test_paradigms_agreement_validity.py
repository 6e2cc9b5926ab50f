"""Validity rules of the noun-phrase, anaphor and floating-quantifier paradigms (issue 18 read):
the edit never leaves a second agreement error, a form readable in another case, or a
plural that is not used. Hand-written sentences, parsed once with the default parser."""

from __future__ import annotations

import pytest

from rublimp.paradigms import get_paradigm
from rublimp.parse import parse_texts

# (paradigm, grammatical sentence, one ungrammatical sentence it must produce)
POSITIVE = [
    # a noun with an agreeing modifier is in two agreement relations (RuBLiMP, Appendix B.2.3):
    # the pronoun is edited instead; a bare noun may change
    ("anaphor_agreement_number", "Он нашёл старые письма, которые прислал брат.",
     "Он нашёл старые письма, которое прислал брат."),
    ("anaphor_agreement_number", "Он нашёл письма, которые прислал брат.",
     "Он нашёл письмо, которые прислал брат."),
    # «решения» (nom. pl. = gen. sg.) cannot be the new noun: the pronoun is edited instead
    ("anaphor_agreement_number", "Мы обсудили новое решение, которое приняли вчера.",
     "Мы обсудили новое решение, которые приняли вчера."),
    ("anaphor_agreement_number", "Мы видели собаку, которая громко лаяла.", "Мы видели собак, которая громко лаяла."),
    # «с которой» after a person is instrumental ('with whom'): the parser's case is trusted
    ("anaphor_agreement_number", "Он позвонил женщине, с которой работал много лет.",
     "Он позвонил женщине, с которыми работал много лет."),
    ("anaphor_agreement_number", "Это именно та, с которой они меня топили.",
     "Это именно та, с которыми они меня топили."),
    ("anaphor_agreement_number", "Он вспомнил о книге, о которой говорил учитель.",
     "Он вспомнил о книгах, о которой говорил учитель."),
    # np number: a subject head keeps its number, its modifier changes instead
    ("np_agreement_number", "Старый дом стоял на холме.", "Старые дом стоял на холме."),
    # «области» would be a genitive singular too: the modifier changes
    ("np_agreement_number", "Эта область славится своими озёрами.", "Эти область славится своими озёрами."),
    ("np_agreement_number", "Он живёт в старом доме.", "Он живёт в старом домах."),
    # a plural subject: its modifier becomes singular in the gender of the noun's lexeme
    ("np_agreement_number", "Старые заводы стояли на холме.", "Старый заводы стояли на холме."),
    # fq number: a subject noun keeps its number (its verb agrees with it), «сам» changes
    ("floating_quantifier_agreement_number", "Сам президент приехал на открытие.",
     "Сами президент приехал на открытие."),
    ("floating_quantifier_agreement_number", "Мы встретили самого президента на открытии.",
     "Мы встретили самого президентов на открытии."),
    ("floating_quantifier_agreement_gender", "Художница сама подготовила выставку.",
     "Художница сам подготовила выставку."),
    ("anaphor_agreement_gender", "Мы встретили персонажа, которого придумал автор.",
     "Мы встретили персонажа, которую придумал автор."),
]

# (paradigm, sentence, ungrammatical sentence that must NOT be produced, why)
FORBIDDEN = [
    ("anaphor_agreement_number", "Новое решение, которое приняли вчера, всех удивило.",
     "Новое решения, которое приняли вчера, всех удивило.", "half-edited NP"),
    ("anaphor_agreement_number", "Он нашёл старые письма, которые прислал брат.",
     "Он нашёл старые письмо, которые прислал брат.", "half-edited NP"),
    ("anaphor_agreement_number", "Он нашёл старые письма, которые прислал брат.",
     "Он нашёл старое письмо, которые прислал брат.", "noun and modifier: a two-word edit"),
    ("anaphor_agreement_number", "Мы видели большую собаку, которая громко лаяла.",
     "Мы видели больших собак, которая громко лаяла.", "noun and modifier: a two-word edit"),
    ("np_agreement_number", "Эта область славится своими озёрами.",
     "Эта области славится своими озёрами.", "nom. pl. = gen. sg."),
    ("np_agreement_number", "Старый дом стоял на холме.", "Старый дома стоял на холме.", "subject head"),
    ("floating_quantifier_agreement_number", "Сам президент приехал на открытие.",
     "Сам президенты приехал на открытие.", "subject: the predicate would disagree too"),
    ("floating_quantifier_agreement_number", "Бабушка сама испекла пирог.",
     "Бабушки сама испекла пирог.", "subject; «бабушки» is also gen. sg."),
]

# (paradigm, sentence, why): no pair at all
NEAR_MISSES = [
    # partitive «каждый из»: the plural is fixed by the construction
    ("anaphor_agreement_number", "Каждый из участников, которые пришли на встречу, получил подарок.", "partitive"),
    # mass and -изм nouns get no plural, and «который» is the subject (only the noun could change)
    ("anaphor_agreement_number", "Он рассказал о каннибализме, который процветал на острове.", "mass noun"),
    # «с которой» after a thing is genitive ('from which') or instrumental: a plural could change the case too
    ("anaphor_agreement_number", "Это гора, с которой мы спускались на лыжах.", "case not settled"),
    # стул: стулья or стулы (two lexemes); «который» is the subject
    ("anaphor_agreement_number", "Мы купили стул, который стоит у окна.", "two plurals"),
    # the noun is the subject the parser labelled object («гляциологов» would be the animate accusative)
    ("anaphor_agreement_number", "Таяние ледников постоянно измеряют гляциологи, которые каждое лето поднимаются в горы.",
     "subject labelled object"),
    # a nominative predicate nominal: its number goes with the subject («пчела — насекомые»)
    ("anaphor_agreement_number", "Медоносная пчела — общественное насекомое, которое живёт большими семьями.",
     "predicate nominal"),
    # a second conjunct the parser hung elsewhere: «которые» still fits «лесами и болотом»
    ("anaphor_agreement_number",
     "Город окружён сосновыми лесами и старыми торфяными болотами, которые тянутся до самого горизонта.",
     "unlinked conjunct"),
    # an instrumental predicate nominal: «они были опытным помором» would break the copular link too
    ("anaphor_agreement_number", "Почти все они были опытными поморами, которые с детства ходили в море.",
     "instrumental predicate nominal"),
    ("np_agreement_number", "Каждый из новых участников получил подарок.", "partitive"),
    ("np_agreement_number", "Две большие книги лежали на столе.", "counted noun"),
    # «дома» is also a genitive singular: «Старый дома» would read as a case error
    ("np_agreement_number", "Старые дома стояли на холме.", "head form also singular"),
    # «самого» after a negated verb may be genitive: «саму» could change the case
    ("floating_quantifier_agreement_gender", "Он не видел самого директора.", "case not settled"),
    # a masculine noun in apposition with a woman's name: «которая» is acceptable
    ("anaphor_agreement_gender", "Персонаж Мэри, который появляется в финале, нравится зрителям.", "named person"),
]


@pytest.fixture(scope="module")
def parsed():
    texts = sorted({t for _, t, _ in POSITIVE} | {t for _, t, _, _ in FORBIDDEN} | {t for _, t, _ in NEAR_MISSES})
    return {s.text: s for s in parse_texts([(str(i), t, "test") for i, t in enumerate(texts)])}


def _bad(name, sent):
    return {b for b, _ in get_paradigm(name).pairs(sent)}


@pytest.mark.parametrize("name,good,bad", POSITIVE, ids=[f"{n}:{g[:24]}" for n, g, _ in POSITIVE])
def test_expected_pair(parsed, name, good, bad):
    assert bad in _bad(name, parsed[good])


@pytest.mark.parametrize("name,good,bad,why", FORBIDDEN, ids=[f"{n}:{w}" for n, _, _, w in FORBIDDEN])
def test_forbidden_pair(parsed, name, good, bad, why):
    assert bad not in _bad(name, parsed[good])


@pytest.mark.parametrize("name,text,why", NEAR_MISSES, ids=[f"{n}:{w}" for n, _, w in NEAR_MISSES])
def test_near_miss(parsed, name, text, why):
    assert _bad(name, parsed[text]) == set()
