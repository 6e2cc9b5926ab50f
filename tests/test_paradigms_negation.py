"""REFLEXIVES (external_possessor) and NEGATION (negative_concord, negative_pronoun_to_indefinite,
indefinite_pronoun_to_negative): hand-written sentences parsed by the default parser, a hand-built
tree for the sentence-initial «Не», the replacement table, and the pair invariants on the demo corpus.
"""

from __future__ import annotations

import re

import pytest

from rublimp.conllu_doc import read_conllu_string
from rublimp.io import InputError
from rublimp.paradigms import get_paradigm
from rublimp.paradigms.base import RESOURCES_DIR, ParadigmContext
from rublimp.paradigms.negation import PRONOUN_TABLE_FILE, excluded_sentence, load_pronoun_table
from rublimp.parse import parse_texts

NAMES = ("external_possessor", "negative_concord", "negative_pronoun_to_indefinite", "indefinite_pronoun_to_negative")

# sentence -> the exact set of ungrammatical sentences the paradigm must produce
POSITIVE: dict[str, dict[str, set[str]]] = {
    "external_possessor": {
        "У брата есть новая машина.": {"У себя есть новая машина."},
        "У неё была большая собака.": {"У себя была большая собака."},
        "Вчера у нас были гости из Казани.": {"Вчера у себя были гости из Казани."},
        "У Маши будет свой кабинет.": {"У себя будет свой кабинет."},
        # a sentence adverb the parser hangs on the possessor does not block it
        "Также у него была сестра.": {"Также у себя была сестра."},
        # an inanimate possessor with «есть» (with «был» it may be a location)
        "У задачи есть решение.": {"У себя есть решение."},
        # a genitive-of-negation possessum parsed as an object
        "У меня не было денег.": {"У себя не было денег."},
        "Мне кажется, что у соседа есть ключ от подвала.": {"Мне кажется, что у себя есть ключ от подвала."},
        # «быть» parsed as the conjunct of a root possessor is not a noun conjunct
        "У них всегда деньги есть.": {"У себя всегда деньги есть."},
        # round 3: a group or organisation noun is a possessor with «был» too (not a place)
        "У семьи был сын.": {"У себя был сын."},
        "У партии было три портфеля.": {"У себя было три портфеля."},
        # round 3: a name of several words is replaced as a whole (its later words deleted)
        "У Лулу Белл была слуга.": {"У себя была слуга."},
        "У Анны Петровны была большая библиотека.": {"У себя была большая библиотека."},
        "Вчера у Кен Арока были гости.": {"Вчера у себя были гости."},
        "У Людвига ван Бетховена был ученик.": {"У себя был ученик."},
        # … and so is a common noun with the name written right after it
        "У отца Матвея Степовича было много земли.": {"У себя было много земли."},
        "У брата Ивана есть машина.": {"У себя есть машина."},
        # a conjunct joined by «и» is a noun phrase of its own: replacing the first strands nothing
        "У брата и сестры была собака.": {"У себя и сестры была собака."},
    },
    "negative_concord": {
        # RuBLiMP's choice: the last phrase of the clause
        "Никто не хотел брать вину на себя.": {"Никто хотел брать вину не на себя."},
        "Он никогда не ездил в Москву.": {"Он никогда ездил не в Москву."},
        "Никто не видел эту машину на стоянке.": {"Никто видел эту машину не на стоянке."},
        # into a trailing genitive, and past a genitive of negation (RuBLiMP does both)
        "Никто не брал денег с детей.": {"Никто брал денег не с детей."},
        "Он никогда не спрашивал имени соседа.": {"Он никогда спрашивал имени не соседа."},
        # … but not inside a prepositional phrase: «не» goes before the preposition
        "Никто не пришёл на встречу выпускников.": {"Никто пришёл не на встречу выпускников."},
        "Никто не видел её здесь.": {"Никто видел её не здесь."},  # a place adverb
        # imperatives and questions count too (the ни-word needs «не» in every mood)
        "Ничего не говори маме.": {"Ничего говори не маме."},
        "Разве никто не видел моего брата?": {"Разве никто видел не моего брата?"},
        # a predicative noun, and the genitive it ends with
        "Он никогда не станет другом нашей семьи.": {"Он никогда станет другом не нашей семьи."},
        "Мы никуда не ходили вечером.": {"Мы никуда ходили не вечером."},
        "Она ничем не помогла соседям.": {"Она ничем помогла не соседям."},
        "Она никогда не вставала рано.": {"Она никогда вставала не рано."},  # qualitative adverb
        # a degree adverb opening the phrase stays before «не» (RuBLiMP's placement)
        "Никто не играет исключительно в свою игру.": {"Никто играет исключительно не в свою игру."},
        # «Ничто» tagged NOUN by the parser is still the ни-pronoun
        "Ничто в этом доме не напоминало о прошлом.": {"Ничто в этом доме напоминало не о прошлом."},
        # a short adjective is a predicate by itself
        "Никто не виноват в этой истории.": {"Никто виноват не в этой истории."},
    },
    "negative_pronoun_to_indefinite": {
        # a past or present indicative: -нибудь (RuBLiMP's series), unlicensed there
        "Никто не пришёл на собрание.": {"Кто-нибудь не пришёл на собрание."},
        "Мы никому не рассказали о находке.": {"Мы кому-нибудь не рассказали о находке."},
        "Никакой помощи он не получил.": {"Какой-нибудь помощи он не получил."},
        "Он никогда не был в Париже.": {"Он когда-нибудь не был в Париже."},
        "Я ничего не слышал.": {"Я чего-нибудь не слышал."},
        "Кошелька нигде не было.": {"Кошелька где-нибудь не было."},
        "Они никуда не торопились.": {"Они куда-нибудь не торопились."},
        "Никакой помощи он не получает.": {"Какой-нибудь помощи он не получает."},
        # in the scope of the negation, after the verb, and with a modifier: -нибудь is never
        # licensed there (-либо would be a bookish variant, so it is not made)
        "Он не видел никого.": {"Он не видел кого-нибудь."},
        "Мы не нашли никаких следов в лесу.": {"Мы не нашли каких-нибудь следов в лесу."},
        "Никакой помощи не было.": {"Какой-нибудь помощи не было."},
        "Ничего страшного не случилось.": {"Чего-нибудь страшного не случилось."},
        "Никто не виноват в этой истории.": {"Кто-нибудь не виноват в этой истории."},  # a short adjective
        # a future or a modal licenses -нибудь before the verb («Кто-нибудь не придёт» is well
        # formed): the bare -либо pronoun instead
        "Я никогда не забуду этот день.": {"Я когда-либо не забуду этот день."},
        "Никто не сможет открыть эту дверь.": {"Кто-либо не сможет открыть эту дверь."},
        # parser repair: «никто» hung on the infinitive is the subject of the negated verb above it
        "Сумку никто открывать не стал.": {"Сумку кто-нибудь открывать не стал."},
        # a clause adverb the parser attached to the pronoun does not block it (a degree word does)
        "Старик больше никогда не приходил на причал.": {"Старик больше когда-нибудь не приходил на причал."},
        # «вообще» is no degree word: «вообще кто-нибудь» is well formed, only the negation breaks
        "Этот рецепт не подводил вообще никогда.": {"Этот рецепт не подводил вообще когда-нибудь."},
        # a habitual adverb of a nested clause does not license the indefinite in the main one
        "Никто не пришёл, хотя он всегда звал гостей.": {"Кто-либо не пришёл, хотя он всегда звал гостей."},
        # round 3: before the «не» of a present tense the -либо form (a generic present lets a
        # -нибудь pronoun scope over the negation); in the past RuBLiMP's -нибудь form stays
        "Он никогда не сдаётся.": {"Он когда-либо не сдаётся."},
        "Никто не знал ответа.": {"Кто-нибудь не знал ответа."},
    },
    "indefinite_pronoun_to_negative": {
        "Кто-то постучал в дверь.": {"Никто постучал в дверь."},
        "Когда-то здесь был большой лес.": {"Никогда здесь был большой лес."},
        "Она что-то писала в тетради.": {"Она ничего писала в тетради."},  # RuBLiMP's form
        "Что-то упало на пол.": {"Ничего упало на пол."},
        # an agreeing adjective keeps a subject «ничто» («ничего новое» would add an agreement error)
        "Что-то новое появилось в городе.": {"Ничто новое появилось в городе."},
        "Мы видели какого-то человека у ворот.": {"Мы видели никакого человека у ворот."},
        "Где-то далеко лаяла собака.": {"Нигде далеко лаяла собака."},
        "Я куда-то положил ключи.": {"Я никуда положил ключи."},
        # questions and imperatives license indefinites, never a ни-pronoun without «не»
        "Кто-то звонил тебе?": {"Никто звонил тебе?"},
        "Скажи кому-нибудь об этом.": {"Скажи никому об этом."},
        "Вы когда-нибудь бывали в Казани?": {"Вы никогда бывали в Казани?"},
        # a -либо pronoun licensed by a negative verb or a superlative: no ни-pronoun there either
        "Он отказался сообщить какие-либо подробности.": {"Он отказался сообщить никакие подробности."},
        # «не раз» (= many times) negates nothing: the ни-word is still unlicensed
        "Филипп не раз поминал какой-то монастырь.": {"Филипп не раз поминал никакой монастырь."},
        # round 3: a ни-word splits around the preposition right before it: «ни» goes before the
        # preposition («на никакое время», RuBLiMP's form, is a second error)
        "Он думал о чём-то.": {"Он думал ни о чём."},
        "Мы говорили о каких-нибудь пустяках.": {"Мы говорили ни о каких пустяках."},
        "Он пришёл из-за какой-то ерунды.": {"Он пришёл ни из-за какой ерунды."},
        "В какой-то момент он ушёл домой.": {"Ни в какой момент он ушёл домой."},
        "Она говорила с кем-то по телефону.": {"Она говорила ни с кем по телефону."},
        "Он положил ключи на что-то.": {"Он положил ключи ни на что."},
    },
}

# near-misses: the trigger word is there, the context is not
NEGATIVE: dict[str, list[str]] = {
    "external_possessor": [
        # words after the possessor in its phrase would be left to carry it (RuBLiMP keeps them)
        "Денег у них не было.",  # round 3: the possessum before the у-phrase (it may bind «себя»)
        "У Анны Петровны старой была большая библиотека.",  # a word after the name, not a name
        "У соседки тёти Маши была коза.",
        "Это команда, у участников которой были медали.",  # a relative left behind
        "У вертолётов были повреждения.",  # an inanimate у-phrase reads as a location
        "Он был у брата вчера вечером.",  # у-phrase after быть: locative
        "У моего брата есть машина.",  # a modifier before the possessor would be stranded («у моего себя»)
        "Клуб, у которого есть стадион, выиграл кубок.",  # relative pronoun
        "У себя дома он был спокоен.",  # already reflexive
        "У окна стоял стол.",  # no быть
    ],
    "negative_concord": [
        "Он не пришёл на работу.",  # no negative pronoun
        "Никто не пришёл.",  # nothing after the verb to move «не» to
        "Никто не знал, придёт ли он на праздник.",  # ли
        "Никто давно не звонил.",  # «не давно» reads as «недавно»
        "Никто его не видел.",  # the only constituent precedes the verb
    ],
    "negative_pronoun_to_indefinite": [
        "Он не увидит никого.",  # future: «кого-нибудь» may take scope over «не», «кого-либо» is bookish
        "Ничего страшного не случится.",  # future and a modifier («чего-либо страшного» is bookish)
        "Никто не придёт, если пойдёт дождь.",  # conditional
        "Ни с кем он не говорил.",  # split ни-pronoun: word count would change
        "Почти никто не придёт на собрание.",  # a degree word and a future: no -либо form either
        "Он ничего делать не стал.",  # the object of an infinitive stays the infinitive's («чего-либо делать»)
        # a degree word on the pronoun: «почти кто-нибудь» is a broken degree phrase (RuBLiMP makes it)
        "Почти никто не пришёл на собрание.",
        "Совсем ничего не осталось от дома.",
        "Практически никакой помощи не было.",
        # a habitual adverb licenses a wide-scope indefinite over the negation
        "Никто обычно не спорил с ним.",
        "Никто всегда не спорил с ним.",
    ],
    "indefinite_pronoun_to_negative": [
        "Кто-то не закрыл окно.",  # negated verb: «Никто не закрыл окно» is grammatical
        "Мы не говорили о чём-то важном.",  # negated: «ни о чём» is licensed
        # a word between the preposition and the pronoun: «ни» cannot split the ни-word there
        "Он жил в своей какой-то комнате.",
        "Я не думаю, что кто-то придёт.",  # negation higher up
        "Он не получил каких-либо объяснений.",  # a -либо pronoun under «не»: «никаких» is grammatical
        "Она любила его больше, чем кто-либо другой.",  # a comparison
        # a modified object: negated, the verb takes the genitive («ничего нового»), so «ничто новое»
        # would add a wrong case
        "Мы придумали что-то новое.",
        "Если кто-нибудь придёт, позови меня.",  # a conditional (RuBLiMP leaves them out)
        "Кто-то, как ни странно, постучал в дверь.",  # a «ни» of the clause the path does not reach
        "Где-то в лесу никто не ходил.",  # a ни-pronoun in the same clause
    ],
}


@pytest.fixture(scope="module")
def parsed():
    """Every hand-written sentence parsed once by the default parser, by text."""
    texts = sorted({t for d in POSITIVE.values() for t in d} | {t for v in NEGATIVE.values() for t in v})
    return {s.text: s for s in parse_texts([(f"t{i}", t, "test") for i, t in enumerate(texts)])}


@pytest.fixture(scope="module")
def paradigms():
    ctx = ParadigmContext()
    return {n: get_paradigm(n, ctx) for n in NAMES}


@pytest.mark.parametrize(
    "name,text", [(n, t) for n, d in POSITIVE.items() for t in d], ids=lambda x: x if len(x) < 40 else x[:40]
)
def test_positive(parsed, paradigms, name, text):
    got = {bad for bad, _ in paradigms[name].pairs(parsed[text])}
    assert got == POSITIVE[name][text]


@pytest.mark.parametrize("name,text", [(n, t) for n, v in NEGATIVE.items() for t in v], ids=lambda x: x if len(x) < 40 else x[:40])
def test_near_miss(parsed, paradigms, name, text):
    assert list(paradigms[name].pairs(parsed[text])) == []


def test_each_paradigm_has_enough_cases():
    for name in NAMES:
        assert len(POSITIVE[name]) >= 5 and len(NEGATIVE[name]) >= 3


def test_pool_columns(parsed, paradigms):
    cases = {
        "external_possessor": ("У Маши будет свой кабинет.", ("possessor", "PROPN", "себя", "быть")),
        "negative_concord": ("Он никогда не ездил в Москву.", ("negation", "verb", "PP", "никогда")),
        "negative_pronoun_to_indefinite": ("Я ничего не слышал.", ("PronType", "Neg", "Ind", "ничто→что-нибудь")),
        "indefinite_pronoun_to_negative": ("Мы видели какого-то человека у ворот.", ("PronType", "Ind", "Neg", "какой-то→никакой")),
    }
    for name, (text, want) in cases.items():
        [(_, pert)] = list(paradigms[name].pairs(parsed[text]))
        assert (pert.feature, pert.source_value, pert.target_value, pert.subtype) == want
    [(_, pert)] = list(paradigms["negative_concord"].pairs(parsed["Он никогда не ездил в Москву."]))
    assert (pert.source_word, pert.target_word) == ("не", "не в Москву")


def test_excluded_sentences(parsed):
    assert excluded_sentence(parsed["Кто-то звонил тебе?"])
    assert excluded_sentence(parsed["Ничего не говори маме."])
    assert excluded_sentence(parsed["Никто не придёт, если пойдёт дождь."])
    assert not excluded_sentence(parsed["Кто-то постучал в дверь."])


# «Не ездил он никогда в Москву.» — a hand-built tree: the deleted sentence-initial «Не»
# hands its capital letter to the next word
INITIAL_NE = """# sent_id = ne1
# text = Не ездил он никогда в Москву.
1\tНе\tне\tPART\t_\tPolarity=Neg\t2\tadvmod\t_\t_
2\tездил\tездить\tVERB\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
3\tон\tон\tPRON\t_\tCase=Nom|Gender=Masc|Number=Sing|Person=3\t2\tnsubj\t_\t_
4\tникогда\tникогда\tADV\t_\tDegree=Pos\t2\tadvmod\t_\t_
5\tв\tв\tADP\t_\t_\t6\tcase\t_\t_
6\tМоскву\tМосква\tPROPN\t_\tAnimacy=Inan|Case=Acc|Gender=Fem|Number=Sing\t2\tobl\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def test_sentence_initial_ne_moves_capital(paradigms):
    sent = read_conllu_string(INITIAL_NE)[0]
    assert [bad for bad, _ in paradigms["negative_concord"].pairs(sent)] == ["Ездил он никогда не в Москву."]
    # the same tree without the ни-word licenses nothing
    plain = read_conllu_string(INITIAL_NE.replace("никогда", "вчера"))[0]
    assert list(paradigms["negative_concord"].pairs(plain)) == []


# -- the replacement table -------------------------------------------------------------
def test_table_contents():
    table = load_pronoun_table(str(RESOURCES_DIR / PRONOUN_TABLE_FILE))
    assert table.to_indefinite["никто"] == ("кто-либо", "NPRO")
    assert table.to_indefinite["никогда"] == ("когда-либо", "ADVB")
    assert "никакой" not in table.to_indefinite  # какой-либо is acceptable under negation
    assert table.to_negative["кто-то"] == ("никто", "NPRO")
    assert table.to_negative["какой-нибудь"] == ("никакой", "ADJF")
    # -либо pronouns stand where a question, condition or negative verb licenses them; a ни-pronoun
    # is licensed by none of those («отказался сообщить *никакие детали»)
    assert table.to_negative["какой-либо"] == ("никакой", "ADJF")
    assert table.to_negative["когда-либо"] == ("никогда", "ADVB")
    assert {"никто", "ничто", "никакой", "никогда", "нигде", "никуда"} <= table.negatives


def test_table_matches_derivation():
    """The checked-in TSV is what resources/derive/derive_negative_indefinite_pronouns.py writes."""
    import importlib.util

    script = RESOURCES_DIR / "derive" / "derive_negative_indefinite_pronouns.py"
    spec = importlib.util.spec_from_file_location("derive_neg", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = [tuple(line.split("\t")) for line in (RESOURCES_DIR / PRONOUN_TABLE_FILE).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    assert rows[0] == ("negative", "indefinite", "direction", "pos")
    assert rows[1:] == mod.derive()


@pytest.mark.parametrize(
    "body,line,msg",
    [
        ("negative\tindefinite\tdirection\n", 2, "header"),
        ("negative\tindefinite\tdirection\tpos\nникто\tкто-либо\tto_indefinite\n", 3, "columns"),
        ("negative\tindefinite\tdirection\tpos\nкто\tкто-либо\tto_indefinite\tNPRO\n", 3, "ни-"),
        ("negative\tindefinite\tdirection\tpos\nникто\tкто-либо\tsideways\tNPRO\n", 3, "direction"),
        (
            "negative\tindefinite\tdirection\tpos\nникто\tкто-либо\tto_indefinite\tNPRO\nникто\tкто-нибудь\tto_indefinite\tNPRO\n",
            4,
            "second",
        ),
    ],
)
def test_table_errors_name_file_and_line(tmp_path, body, line, msg):
    path = tmp_path / f"bad{line}{msg[:3]}.tsv"
    path.write_text("# comment\n" + body, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_pronoun_table(str(path))
    assert err.value.path == str(path) and err.value.line == line and msg in str(err.value)


def test_missing_table_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_pronoun_table(str(tmp_path / "nope.tsv"))


# -- the demo corpus -------------------------------------------------------------------


_WS = re.compile(r"\s+")


def _words(s: str) -> list[str]:
    return [w for w in _WS.split(s.strip()) if w]


def test_demo_pairs_invariants(demo_sentences, paradigms):
    counts = {}
    for name in NAMES:
        p = paradigms[name]
        n = 0
        for sent in demo_sentences:
            for bad, pert in p.pairs(sent):
                n += 1
                good = sent.text
                gw, bw = _words(good), _words(bad)
                assert bad != good
                if len(pert.edits) > 1 and name == "external_possessor":
                    # round 3: a name of several words, one space apart, replaced as a whole by «себя»
                    first, *rest_name = [sent.token(e.token_id) for e in pert.edits]
                    assert [e.new_form for e in pert.edits] == ["себя"] + [""] * len(rest_name)
                    assert good[first.start:rest_name[-1].end] == " ".join(t.form for t in [first, *rest_name])
                    assert bad == good[: first.start] + "себя" + good[rest_name[-1].end:], (good, bad)
                    continue
                if len(pert.edits) > 1 and name == "indefinite_pronoun_to_negative":
                    # round 3: «ни» before the preposition right before the pronoun, which loses its affix
                    prep, item = (sent.token(e.token_id) for e in pert.edits)
                    i = len(_words(good[: prep.start]))
                    assert bw[i].lower() == "ни" and len(bw) == len(gw) + 1, (good, bad)
                    rest = bw[:i] + bw[i + 1:]
                    diff = [k for k, (a, b) in enumerate(zip(gw, rest)) if a.lower() != b.lower()]
                    assert diff == [i + 1] and gw[i + 1].lower().startswith(("кое-", rest[i + 1].lower())), (good, bad)
                    continue
                assert len(gw) == len(bw), (good, bad)
                if name == "negative_concord":
                    # one «не» leaves the verb and reappears before another word; nothing else changes
                    ne = sent.token(pert.edits[0].token_id)
                    i = len(_words(good[: ne.start]))
                    assert gw[i].lower() == "не"
                    rest = gw[:i] + gw[i + 1:]
                    cands = [bw[:j] + bw[j + 1:] for j, w in enumerate(bw) if w.lower() == "не"]
                    assert any([w.lower() for w in c] == [w.lower() for w in rest] for c in cands), (good, bad)
                else:
                    [edit] = pert.edits
                    tok = sent.token(edit.token_id)
                    before = good[: tok.start]
                    # the word holding the token (punctuation glued to it, «Кто-нибудь, is part of it)
                    idx = len(_words(before)) - (1 if before and not before[-1].isspace() else 0)
                    diff = [k for k, (a, b) in enumerate(zip(gw, bw)) if a != b]
                    assert diff == [idx], (good, bad)
                    assert tok.form in gw[idx] and edit.new_form.lower() in bw[idx].lower()
        counts[name] = n
    assert all(n > 0 for n in counts.values()), counts


def test_demo_pools_fill_columns(demo_sentences):
    from rublimp.perturb import build_pools

    pools = build_pools(demo_sentences, list(NAMES), progress=False)
    for name in NAMES:
        df = pools[name]
        assert df.height > 0
        for col in ("feature", "source_value", "target_value", "subtype", "source_word", "target_word"):
            assert df[col].null_count() == 0 and (df[col] != "").all(), (name, col)
        assert set(df["phenomenon"]) == {"reflexives" if name == "external_possessor" else "negation"}
        assert set(df["level"]) == {"Syntax"}


# round 3 parser repairs of the be-possessive: a у-phrase attached to a preceding noun, and a
# possessum hung on «быть» as a conjunct
POSSESSOR_REPAIRS = """# sent_id = e1
# text = В комнате у сестры был старый шкаф.
1\tВ\tв\tADP\t_\t_\t2\tcase\t_\t_
2\tкомнате\tкомната\tNOUN\t_\tAnimacy=Inan|Case=Loc|Gender=Fem|Number=Sing\t5\tobl\t_\t_
3\tу\tу\tADP\t_\t_\t4\tcase\t_\t_
4\tсестры\tсестра\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Fem|Number=Sing\t2\tnmod\t_\t_
5\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
6\tстарый\tстарый\tADJ\t_\tCase=Nom|Degree=Pos|Gender=Masc|Number=Sing\t7\tamod\t_\t_
7\tшкаф\tшкаф\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t5\tnsubj\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t5\tpunct\t_\t_

# sent_id = e2
# text = В комнате у сестры, кажется, был шкаф.
1\tВ\tв\tADP\t_\t_\t2\tcase\t_\t_
2\tкомнате\tкомната\tNOUN\t_\tAnimacy=Inan|Case=Loc|Gender=Fem|Number=Sing\t7\tobl\t_\t_
3\tу\tу\tADP\t_\t_\t4\tcase\t_\t_
4\tсестры\tсестра\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Fem|Number=Sing\t2\tnmod\t_\tSpaceAfter=No
5\t,\t,\tPUNCT\t_\t_\t6\tpunct\t_\t_
6\tкажется\tказаться\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Mid\t7\tparataxis\t_\tSpaceAfter=No
7\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
8\tшкаф\tшкаф\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t7\tnsubj\t_\tSpaceAfter=No
9\t.\t.\tPUNCT\t_\t_\t7\tpunct\t_\t_

# sent_id = e3
# text = У меня будет к тебе одна просьба.
1\tУ\tу\tADP\t_\t_\t2\tcase\t_\t_
2\tменя\tя\tPRON\t_\tCase=Gen|Number=Sing|Person=1\t3\tobl\t_\t_
3\tбудет\tбыть\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Fut|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
4\tк\tк\tADP\t_\t_\t5\tcase\t_\t_
5\tтебе\tты\tPRON\t_\tCase=Dat|Number=Sing|Person=2\t3\tobl\t_\t_
6\tодна\tодин\tNUM\t_\tCase=Nom|Gender=Fem|Number=Sing\t7\tnummod\t_\t_
7\tпросьба\tпросьба\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Fem|Number=Sing\t3\tconj\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

"""


def test_external_possessor_parser_repairs(paradigms):
    from rublimp.conllu_doc import read_conllu_string

    nmod, nmod_comma, conj = read_conllu_string(POSSESSOR_REPAIRS)
    ep = paradigms["external_possessor"]
    # «у сестры» hung on «комнате», but a finite «быть» with a nominal subject follows it
    assert [b for b, _ in ep.pairs(nmod)] == ["В комнате у себя был старый шкаф."]
    # … not across punctuation
    assert list(ep.pairs(nmod_comma)) == []
    # «просьба» attached as a conjunct of «будет»: still the possessum
    assert [b for b, _ in ep.pairs(conj)] == ["У себя будет к тебе одна просьба."]


# round 4: «быть» with two subjects — a stray word read as a name and subject before the *у*-phrase
# (across a comma), or an animate noun right before it, where the *у*-phrase may be a location
POSSESSOR_TWO_SUBJECTS = """# sent_id = t1
# text = Впрочем, у соседа есть лодка.
1\tВпрочем\tвпрочем\tPROPN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t5\tnsubj\t_\tSpaceAfter=No
2\t,\t,\tPUNCT\t_\t_\t1\tpunct\t_\t_
3\tу\tу\tADP\t_\t_\t4\tcase\t_\t_
4\tсоседа\tсосед\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Masc|Number=Sing\t5\tobl\t_\t_
5\tесть\tбыть\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
6\tлодка\tлодка\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Fem|Number=Sing\t5\tnsubj\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t5\tpunct\t_\t_

# sent_id = t2
# text = Иван у брата был гость.
1\tИван\tиван\tPROPN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t4\tnsubj\t_\t_
2\tу\tу\tADP\t_\t_\t3\tcase\t_\t_
3\tбрата\tбрат\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Masc|Number=Sing\t4\tobl\t_\t_
4\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t0\troot\t_\t_
5\tгость\tгость\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t4\tnsubj\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_

"""


def test_external_possessor_two_subjects(paradigms):
    from rublimp.conllu_doc import read_conllu_string

    stray, animate_before = read_conllu_string(POSSESSOR_TWO_SUBJECTS)
    ep = paradigms["external_possessor"]
    # the possessum follows the *у*-phrase; the word before the comma is another clause's
    assert [b for b, _ in ep.pairs(stray)] == ["Впрочем, у себя есть лодка."]
    # «Иван у брата был» may be a location («у себя был» is grammatical): no pair
    assert list(ep.pairs(animate_before)) == []


# round 3: a possessum BEFORE the у-phrase can bind «себя» as a location («Сын у брата
# был» → «Сын у себя был»: the son was at his own place), so no pair; a prepositional phrase the
# parser hung on a pronoun possessor across commas is not the possessor's («со сборной» goes with
# the possessum)
POSSESSOR_ORDER = """# sent_id = t1
# text = Сын у брата был.
1\tСын\tсын\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t4\tnsubj\t_\t_
2\tу\tу\tADP\t_\t_\t3\tcase\t_\t_
3\tбрата\tбрат\tNOUN\t_\tAnimacy=Anim|Case=Gen|Gender=Masc|Number=Sing\t4\tobl\t_\t_
4\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t0\troot\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_

# sent_id = t2
# text = У меня, вообще, со сборной выезд был.
1\tУ\tу\tADP\t_\t_\t2\tcase\t_\t_
2\tменя\tя\tPRON\t_\tCase=Gen|Number=Sing|Person=1\t0\troot\t_\tSpaceAfter=No
3\t,\t,\tPUNCT\t_\t_\t4\tpunct\t_\t_
4\tвообще\tвообще\tADV\t_\tDegree=Pos\t2\tparataxis\t_\tSpaceAfter=No
5\t,\t,\tPUNCT\t_\t_\t4\tpunct\t_\t_
6\tсо\tс\tADP\t_\t_\t7\tcase\t_\t_
7\tсборной\tсборная\tNOUN\t_\tAnimacy=Inan|Case=Ins|Gender=Fem|Number=Sing\t2\tnmod\t_\t_
8\tвыезд\tвыезд\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t2\tnsubj\t_\t_
9\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t2\tcop\t_\tSpaceAfter=No
10\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

# sent_id = t3
# text = У меня со сборной выезд был.
1\tУ\tу\tADP\t_\t_\t2\tcase\t_\t_
2\tменя\tя\tPRON\t_\tCase=Gen|Number=Sing|Person=1\t0\troot\t_\t_
3\tсо\tс\tADP\t_\t_\t4\tcase\t_\t_
4\tсборной\tсборная\tNOUN\t_\tAnimacy=Inan|Case=Ins|Gender=Fem|Number=Sing\t2\tnmod\t_\t_
5\tвыезд\tвыезд\tNOUN\t_\tAnimacy=Inan|Case=Nom|Gender=Masc|Number=Sing\t2\tnsubj\t_\t_
6\tбыл\tбыть\tAUX\t_\tAspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act\t2\tcop\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def test_external_possessor_order_and_detached_pp(paradigms):
    animate_before, detached, adjacent = read_conllu_string(POSSESSOR_ORDER)
    ep = paradigms["external_possessor"]
    assert list(ep.pairs(animate_before)) == []
    assert [b for b, _ in ep.pairs(detached)] == ["У себя, вообще, со сборной выезд был."]
    # without the commas the phrase may be the possessor's own: «у себя со сборной» is not made
    assert list(ep.pairs(adjacent)) == []


# round 3 parser repairs: a sentence-initial «У» tagged PROPN (relation ``case``), and the possessum
# hung on the possessor as its ``nsubj`` («У Ильи были дети» with дети → Ильи)
POSSESSOR_PARSER = """# sent_id = t1
# text = У Фой есть брат.
1\tУ\tу\tPROPN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t2\tcase\t_\t_
2\tФой\tфой\tPROPN\t_\tAnimacy=Anim|Case=Gen|Gender=Fem|Number=Sing\t3\tobl\t_\t_
3\tесть\tбыть\tVERB\t_\tAspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t0\troot\t_\t_
4\tбрат\tбрат\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Sing\t3\tnsubj\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

# sent_id = t2
# text = У Ильи были дети.
1\tУ\tу\tADP\t_\t_\t2\tcase\t_\t_
2\tИльи\tилья\tPROPN\t_\tAnimacy=Anim|Case=Gen|Gender=Masc|Number=Sing\t3\tobl\t_\t_
3\tбыли\tбыть\tAUX\t_\tAspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin\t0\troot\t_\t_
4\tдети\tребенок\tNOUN\t_\tAnimacy=Anim|Case=Nom|Gender=Masc|Number=Plur\t2\tnsubj\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_

"""


def test_external_possessor_round3_parser_repairs(paradigms):
    propn_u, possessum_on_possessor = read_conllu_string(POSSESSOR_PARSER)
    ep = paradigms["external_possessor"]
    assert [b for b, _ in ep.pairs(propn_u)] == ["У себя есть брат."]
    assert [b for b, _ in ep.pairs(possessum_on_possessor)] == ["У себя были дети."]
