"""Tests for the corpus stage: sources, sentence filters, dedupe, build/write."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from rublimp.corpus import (
    FILTER_NAMES,
    FILTERS,
    SENTENCES_SCHEMA,
    FilterConfig,
    build_sentences,
    check_sentence,
    conllu_sent_id,
    iter_documents,
    normalize_for_dedupe,
    read_conllu_source,
    split_sentences,
    tokenize_sentence,
    write_sentences,
)
from rublimp.io import InputError

CFG = FilterConfig()


def rejects(name: str, text: str, cfg: FilterConfig = CFG) -> bool:
    return FILTERS[name](text, tokenize_sentence(text), cfg)


# --------------------------------------------------------------------------- filters

FILTER_CASES: dict[str, tuple[list[str], list[str]]] = {
    # name: (rejected sentences, kept sentences)
    "too_short": (
        ["Мы ушли домой.", "Снег идёт."],
        ["Мы вчера рано ушли домой.", "Вечером над рекой поднялся густой туман."],
    ),
    "markup": (
        [
            "Город расположен на [[река|реке]] Волге.",
            "Подробности опубликованы на сайте https://example.ru вчера.",
            "Население&nbsp;города растёт каждый год.",
            "Его <b>первый</b> альбом вышел весной.",
            "== История города в годы войны ==.",
            "Столица | Москва и ближайшие области.",
            "Шаблон {{цитата}} не был обработан парсером.",
            "Подробности читайте на www.example.org сегодня.",
            # brackets emptied by the extraction, bold markers
            "Река впадает в озеро () на севере района.",
            "Роберт Смит (; 5 мая 1950, Лондон) — британский музыкант.",
            "**Важно:** приём документов заканчивается в пятницу.",
        ],
        [
            "Москва — столица России и крупнейший город страны.",
            "Счёт матча был 2:1 в пользу хозяев поля.",
            "Он сказал, что придёт к восьми часам.",
        ],
    ),
    "unbalanced": (
        [
            "Он сказал «приходи завтра и не опаздывай.",
            "Книга (вышедшая в 1990 году вызвала споры.",
            "Он (сказал «да) и» ушёл из дома.",
            'Он сказал "нет и сразу ушёл из дома.',
            "Оно вышло в свет] на следующий год.",
        ],
        [
            "Он ответил: „Посмотрим“ и ушёл домой.",
            "Журнал «Новый мир» (основан в 1925 году) выходит ежемесячно.",
            "Она прочла «Повесть „о капитане“ и его команде» за вечер.",
            'Он назвал свою лодку "Надежда" в честь матери.',
        ],
    ),
    "no_final_punct": (
        [
            "Вчера мы долго гуляли по старому парку",
            "Перечень основных задач этого проекта:",
            "Сначала он долго молчал, а потом сказал;",
            "В 1920 году он добровольцем завербовался в рейхсвер..",
        ],
        [
            "«Когда же ты вернёшься?» — спросила мать.",
            "Он ответил: «Никогда!»",
            "Мы ждали тебя весь этот вечер…",
            "Мы ждали тебя весь этот вечер...",
            "Неужели он опять опоздал на поезд?!",
            "(Впрочем, об этом мы узнали гораздо позже.)",
        ],
    ),
    "non_cyrillic": (
        [
            "The quick brown fox jumps over the lazy dog.",
            "Мы любим our customers и рады помочь you каждый день.",
            "Итог: 3 : 2 , 1 : 0 , 4 : 4 , 7 : 5 в матчах 12 и 15.",
            "1990 — 1995 — 2001 — 2010 — 2015.",
            "Ïðèâåò, êàê äåëà ñåãîäíÿ ó âàñ?",
        ],
        [
            "В 1990 году в городе открылся новый театр.",
            "Компания Microsoft выпустила новую версию своей операционной системы.",
            # Latin-script names, however long, are words of a Russian sentence
            "Компания Microsoft Corporation выпустила Windows Server Edition.",
            "В 1979 году Франке основал Ars Electronica в Линце.",
            "Британская газета The Guardian опубликовала расследование о торговле оружием.",
            "Оркестром дирижировал César Mendoza Lasalle.",
            "Её атрибуты — var и value, они задают имя и значение переменной.",
            "Занимает площадь 31,52 км2.",
            "Он пришёл, увидел, победил, и — наконец — ушёл.",
        ],
    ),
    "lowercase_start": (
        [
            "и тогда он решил вернуться в родной город.",
            "— и тогда он решил вернуться домой.",
            "«может быть, завтра», — ответил он.",
            "... а потом все разошлись по домам.",
        ],
        [
            "«Да, конечно», — ответил он после паузы.",
            "20 человек пришли на собрание в пятницу.",
            "— Завтра мы уедем в деревню к бабушке.",
            "(Впрочем, об этом мы узнали гораздо позже.)",
            "Ёжик долго бежал по лесной тропинке.",
        ],
    ),
}


# Sentence-quality filters for garbage sources: hand-written noise and near misses that must pass.
FILTER_CASES.update({
    "hashtag": (
        ["Сегодня мы ездили на озеро #лето.", "#новости В городе открыли новый мост через реку."],
        ["Он жил в доме № 5 на соседней улице.", "Мы купили билеты на концерт вчера вечером."],
    ),
    "mention": (
        ["Спасибо @ivan_petrov за прекрасный вечер в театре.", "Пишите мне на адрес info@example.ru по любым вопросам."],
        ["Мы встретились у входа в старый городской парк."],
    ),
    "retweet": (
        ["RT @novosti: В городе открылся новый мост через реку.", "RT Новый мост открыли сегодня утром в центре."],
        ["Телеканал RT сообщил об открытии нового моста.", "Компания ARTEL выпустила новую модель телефона."],
    ),
    "emoji": (
        ["Наконец-то наступили долгожданные выходные 😍😍😍.", "Сегодня ужасная погода и дождь 🌧 весь день.",
         "Мы победили в финале ✌ и очень рады."],
        ["Температура воздуха составила 25 °C в тени.", "Он получил медаль № 3 и диплом за 2-е место."],
    ),
    "glued_title": (
        ["ВведениеНастоящая работа посвящена истории города.", "Глава перваяВ тот вечер мы долго сидели у окна."],
        ["Самолёт МиГ-29 совершил посадку на аэродроме.", "Компания ИнтерРАО сообщила о новых планах."],
    ),
    "glued_sentences": (
        ["Мы долго шли по лесу.Потом начался сильный дождь.", "Он открыл дверь!Никого в комнате не было."],
        ["Памятник А.С.Пушкину стоит на площади.", "Мы долго шли по лесу. Потом начался сильный дождь.",
         # dotted brand names
         "Сервис «Яндекс.Такси» повысил цены на поездки.", "По данным «Яндекс.Новостей», тема была главной.",
         "Приложение Яндекс.Карты показывает пробки в реальном времени."],
    ),
    "footnote": (
        ["Этот обычай сохранился до конца XIX века1 в северных деревнях.", "Так писал о нём известный историк2.",
         "Город был основан в двенадцатом веке.3", "Эта теория¹ до сих пор вызывает споры.",
         "Об этом упоминается в летописи [12] под другим годом."],
        ["Площадь района составляет 1865 км2 и занимает степную зону.", "Танк Т-34 стоит на постаменте у школы.",
         "Магазин работает с 9.00 до 21.00.", "В 1990-е годы здесь работал завод."],
    ),
    "unpunctuated_verse": (
        ["Я помню тихий вечер летний Над речкой таял лёгкий дым.", "Шумит листва над старым домом И ночь спускается к воде.",
         "Вечером мы пили чай Потом все пошли спать."],
        ["Мы гуляли по Красной площади в воскресенье.", "За дело берётся свекровь Жени, с которой они дружат.",
         "Назначен прелатом Его Святейшества в мае.", "Команда из группы А выиграла турнир.",
         "Роман написал И. А. Гончаров в молодости.",
         "Назван архипресвитером базилики Сан-Паоло фуори Ле Мура в мае."],
    ),
    "word_salad": (
        ["Купить недорого диван Москва доставка диван недорого купить.", "Ремонт квартир ремонт офисов ремонт домов недорого.",
         "Ывралд прогшщ вапролд кеншгщ сдывал ждлорп.",
         "Дешевые авиабилеты дешевые билеты купить авиабилеты дешево."],
        ["Утром горожане увидели белые крыши, белые машины и белые деревья, на которых ещё не облетели листья.",
         "Старый учитель медленно читал интересную книгу о далёких странах.",
         "Таинственная игра (фусиги ю: ги) — манга авторства Юу Ватасэ.",
         "Хьюстонский музей современного искусства — музей в Хьюстоне, посвящённый современному искусству."],
    ),
    "control_chars": (
        ["Мама мыла\x00 раму вчера вечером.", "Старый учитель \x1b[31mчитал\x1b[0m книгу.", "Дети\x7f играли во дворе."],
        ["Мама мыла раму вчера\tвечером.", "Старый учитель читал интересную книгу."],
    ),
    "glued_headline": (
        ["Курс доллара вырос до 95 рублей Курс доллара на бирже превысил 95 рублей впервые с марта.",
         "В Москве ожидается сильный снегопад Синоптики предупредили о снегопаде в выходные.",
         "Сборная России проиграла Швеции Российские хоккеисты уступили шведам в финале.",
         "Происшествия В центре города столкнулись два автобуса, пострадавших нет.",
         "На реке находятся следующие пункты: По данным реестра река относится к бассейну Немана."],
        ["Об этом сообщает Министерство здравоохранения Российской Федерации.",
         "Принц Адам получает сообщение от Волшебницы с просьбой прийти.",
         "Голубь находит дорогу домой, ориентируясь по магнитному полю Земли и солнцу.",
         "Молодая семья переехала в деревню Малые Ключи и открыла там сыроварню.",
         "Президент России Владимир Путин провёл телефонный разговор с канцлером Германии.",
         "Заявление опубликовала Русская православная церковь на своём сайте.",
         "Ограничен проспектами: Северным, Тихорецким и Светлановским."],
    ),
    "broken_encoding": (
        ["РџСЂРёРІРµС‚, РєР°Рє РґРµР»Р° Сѓ РІР°СЃ СЃРµРіРѕРґРЅСЏ?", "Новости \ufffd дня \ufffd в нашем городе сегодня.",
         "Барыкина иногда называют ``отцом русского регги'' в прессе."],
        ["РЖД и Сбербанк подписали соглашение о сотрудничестве.", "Он сказал: «Приду» — и ушёл домой."],
    ),
    "shouting": (
        ["ОЧЕНЬ СРОЧНО ПРОДАМ ГАРАЖ В ЦЕНТРЕ ГОРОДА НЕДОРОГО.", "Сегодня было ооооочень холодно на улице.",
         "Никому не советую этот магазин!!!"],
        ["Сотрудники МЧС и ФСБ провели учения на стадионе ЦСКА.", "Неужели он опять опоздал на поезд?!",
         "В XVIII веке здесь стоял монастырь."],
    ),
    "repeated_phrase": (
        ["В понедельник в понедельник в городе прошёл сильный дождь.",
         "Полиция задержала подозреваемого подозреваемого в краже автомобиля.",
         "Жители дома жаловались на шум, жаловались на шум уже несколько месяцев.",
         "Новый закон вступит в силу с первого января вступит в силу с первого января."],
        ["Мы шли шаг за шагом, день за днём, пока не дошли.", "Он говорил всё громче и громче.",
         "Флаг окрашен в красный цвет -- цвет гербового щита Москвы.", "Да, да, я помню этот дом."],
    ),
    "list": (
        ["Москва, Санкт-Петербург, Казань, Новосибирск, Екатеринбург.", "• Быстрая доставка • Низкие цены • Гарантия качества.",
         "1. Мука — 200 г; 2. Сахар — 100 г; 3. Яйца — 2 шт.", "Ингредиенты: мука, сахар, яйца, масло, соль.",
         "Иванов И. И., Петров П. П., Сидоров С. С., Козлов К. К.",
         # classification lines: a code, a dash, the class name
         "12 — Производство текстильных изделий и одежды ОК.", "45.2 -- Строительство зданий и сооружений."],
        ["В магазине продавали яблоки, груши, сливы и виноград по низким ценам.",
         "Больше всего работодателям нужны сварщики, электрики, медсёстры и водители.",
         "Вера Николаевна Калинина — композитор и пианистка, автор опер и романсов.",
         "Мы купили хлеб, молоко, яйца и сыр.", "1990 — год, когда всё изменилось для нашей семьи.",
         "5 — это число, которое он считал счастливым."],
    ),
    "fragment": (
        ["Который был построен в прошлом веке.", "В связи с тем что.", "Но в то же время, если.",
         "Потому что в этом году урожай.",
         # the tail of a clause cut after a name
         "Петрова и вернулся в родной город только через десять лет.", "Москвы и уехал на Урал навсегда."],
        ["Спасибо, не за что.", "Соревнования состоялись лишь два года спустя.", "Если пойдёт дождь, мы останемся дома.",
         "Который час?", "Маленькие деревни останутся ни с чем.", "Стена построена в середине XVIII в.",
         # a pronoun, an adverb or a noun pair before «и»
         "Так и закончилась эта удивительная история.", "Он и сказал нам об этом первым.",
         "Маша и Петя весь вечер играли в шахматы.", "Дождь и не думал прекращаться до вечера.",
         "Петрова и Сидорова наградили почётными грамотами."],
    ),
    "dangling_abbrev": (
        ["Делегацию в аэропорту встречал сам губернатор г.", "Контракт подписали представители фирмы и проф.",
         "Грамоту за многолетний труд вручили курскому митр.", "Термин пришёл из латыни, см. сокр.",
         "Экспедицию возглавил известный исследователь акад."],
        ["Первый каменный мост через реку построили в 1785 г.", "Крепость была заложена в начале XVI в.",
         "Работы на плотине велись с 1956 по 1962 гг.", "Годовой оборот компании превысил 3 млрд руб.",
         "Книга вышла тиражом 5 тыс. экз.", "Жители держали коров, овец, коз, кур и т. д.",
         "Среди гостей были писатели, художники и др.", "Курган насыпали в IV в. до н. э.",
         "Новую школу открыли в следующем году.", "Посёлок окружён лесами, богатыми дичью.",
         "Старика перевели на материк, откуда моря не было видно.", "Рыбаки шли с уловом мимо.",
         "Трассу открыли на очередной уикенд.", "Площадь озера — 12 кв. км."],
    ),
    "garbled_punct": (
        ["Стена имела толщину 60, см и высоту около трёх метров.", "Урожайность выросла на 12, % за год.",
         "Это, по, крайней мере, не хуже прошлогоднего варианта.", "Термин заимствован из латыни (от, букв.) давно.",
         "Акционерное общество (АО СВ;) объявило о новом заказе.", "Команда заняла второе (после в по очкам) место.",
         "Часть урожая ушла на корм (остальное на продажу,) скоту."],
        ["Толщина стенок сосуда не превышает 1,5 мм.", "Расход топлива снизился на 7 %, а мощность выросла.",
         "Он работал на этом заводе до, во время и после войны.", "Встретимся в, скажем, любом кафе на набережной.",
         "Буквы а, б, в, г пишутся в прописях отдельно.", "Эту тетрадь нашли лишь сто лет спустя, и она стала знаменитой.",
         "Несмотря на дождь, матч состоялся вовремя.", "Партия (НППГ) выиграла выборы в парламент."],
    ),
    "no_predicate": (
        ["Заслуженный работник культуры Российской Федерации, почётный гражданин города.",
         "Лауреат Государственной премии СССР, кавалер ордена Ленина.", "В составе сборной с весны 1998 года.",
         "Старший брат известного композитора и дирижёра.", "Иванова, Петрова и Сидорова, а также сотрудников больницы."],
        ["Отец — инженер, мать — учительница музыки.", "У старого дома широкое крыльцо и резные наличники.",
         "Вода в этом озере холодная и прозрачная даже в июле.", "На берегу реки небольшая станция и два кафе.",
         "Какой удивительный вечер над заливом!", "Почему в этом году так мало грибов в лесу?",
         "Сезон охоты: с октября по февраль включительно.", "Эта модель на 20 % дешевле прошлогодней.",
         "Каждую ясную ночь сотрудники вели наблюдения за звёздами.", "Подорожание мяса пока не так заметно.",
         "Это живое создание со своими клетками и нервной системой.", "На золотом поле две стрелы, расположенные крестом."],
    ),
})


def test_noisy_lines_are_all_rejected() -> None:
    """tests/data/noisy_lines.txt: every hand-written garbage line is dropped by some filter (one known gap)."""
    path = Path(__file__).parent / "data" / "noisy_lines.txt"
    lines = [l for l in path.read_text(encoding="utf-8").splitlines() if l.strip() and not l.startswith("#")]
    passing = [l for l in lines if check_sentence(l) is None]
    # real words in random order: no cheap signal without a parser or an LM (documented in segment.py)
    assert passing == ["Окно синий бежать быстро столом зелёного писать вчера."]


def test_quality_filters_keep_the_demo_corpus() -> None:
    """The quality filters must not eat the hand-written demo corpus (at most 1% of it)."""
    df, stats = build_sentences([{"name": "demo", "type": "demo"}], cache_dir=".")
    quality = FILTER_NAMES[FILTER_NAMES.index("hashtag"):]
    dropped = sum(stats["total"]["dropped"][name] for name in quality)
    assert dropped <= 0.01 * stats["total"]["sentences_seen"], stats["total"]["dropped"]


def test_filters_as_a_classifier_on_the_written_labelled_lines() -> None:
    """bench/filter_labels/written.tsv (lines written for the project, good and noisy): precision and
    recall of "drop" are both at least 0.9 on the first 213 lines, and no good line is dropped (the
    GSD half of the labelled set, and the source check, are in bench/bench_filters.py)."""
    path = Path(__file__).resolve().parents[1] / "bench" / "filter_labels" / "written.tsv"
    rows = [l.split("\t") for l in path.read_text(encoding="utf-8").splitlines() if l and not l.startswith("#")][1:]
    assert len(rows) >= 140 and {r[1] for r in rows} == {"keep", "drop"}
    predicted = [check_sentence(r[3]) is not None for r in rows]
    # the first 213 lines (to w-drop-100 / w-keep-113): the shapes the text filter is built for; the
    # broken-source lines added for issue 18 (hS) include shapes no text filter sees (a government
    # error, a real word for another, the source's own agreement errors that need the parse), whose
    # figures bench/bench_filters.py reports with the source check
    first = [(p, r) for p, r in zip(predicted, rows) if int(r[0].rsplit("-", 1)[1]) <= (100 if "drop" in r[0] else 113)]
    assert len(first) == 213
    tp = sum(p and r[1] == "drop" for p, r in first)
    fp = sum(p and r[1] == "keep" for p, r in first)
    fn = sum(not p and r[1] == "drop" for p, r in first)
    assert tp / (tp + fp) >= 0.9 and tp / (tp + fn) >= 0.9, (tp, fp, fn)
    # the added lines the text filter is meant to catch (typos, a lost «что», «в» before a date, a
    # nominative after «является», a truncated end, a cross-reference): all of them
    added = {r[0]: p for p, r in zip(predicted, rows) if r[0].startswith("w-drop-") and int(r[0][7:]) > 100}
    for rid in ("w-drop-102", "w-drop-103", "w-drop-104", "w-drop-105", "w-drop-108", "w-drop-109",
                "w-drop-110", "w-drop-111", "w-drop-112", "w-drop-113", "w-drop-121", "w-drop-122", "w-drop-126"):
        assert added[rid], rid
    # every good line with a Latin-script name, a dotted brand name, quotes or numbers is kept
    wrongly_dropped = [r[3] for p, r in zip(predicted, rows) if p and r[1] == "keep"]
    assert wrongly_dropped == []


# issue 18: a source's own errors that need no parse (rublimp.corpus.broken); sentences written here
FILTER_CASES.update({
    "typo": (
        [
            "Мальчики с детства занимались плаванием и скотоводстом в деревне.",  # a letter left out
            "В прошлом году он постоил себе дом у реки.",
            "Эти приложения запускаються на всех телефонах.",  # a soft sign too many
            "Такие птицы встречаюстя только на севере страны.",  # two letters swapped
            "Недалеко от даоского храма стоял старый дом.",
        ],
        [
            "Фуллериты устойчивы химически и термодинамически.",  # an adverb in -ски the dictionary lacks
            "Некодирующие участки генома изучают давно.",  # «не» + a known word: no first-letter edit
            "Участники игры и игротехники собрались в зале.",
            "Муниципалитет входит в состав района (комарки) на юге страны.",  # «комарик» is a vowel away
            "Компания Apple открыла новый магазин в Москве.",  # Latin and capitalised words are never typos
            "Мы долго гуляли по старому парку у реки.",
        ],
    ),
    "missing_complementiser": (
        [
            "В хронике есть свидетельство о том, в 1178 году монахи просили папу о помощи.",
            "Он показал не только это, но и то, он сам ничего не понимает.",
            "Всё дело в том, никто не пришёл на собрание вовремя.",
            "Успех команды объясняется тем, игроки много тренировались зимой.",
        ],
        [
            "В хронике есть свидетельство о том, что в 1178 году монахи просили папу о помощи.",
            "Мы долго спорили о том, как лучше ехать к морю.",
            "Всё дело в том, в чём мы ошиблись вчера вечером.",
            "Они говорили о том, стоит ли ехать туда зимой.",
            "Кроме того, в городе открыли новую школу и библиотеку.",
            "Вместе с тем, многие жители остались недовольны решением.",
            "Между тем, погода в горах быстро испортилась.",
            "Успех команды объясняется тем, что игроки много тренировались.",
            "После того, как дождь закончился, мы вышли в сад.",
        ],
    ),
    "date_preposition": (
        ["Его не стало в 11 октября 2010 года в родном городе.", "Выставка открылась во 2 марта прошлого года."],
        [
            "Его не стало 11 октября 2010 года в родном городе.",
            "Выставку перенесли на 11 октября следующего года.",
            "Работы продлятся с 1 по 5 мая этого года.",
            "В ночь на 20 февраля венецианцы покинули остров.",
            "В 11 часов утра поезд прибыл на станцию.",
        ],
    ),
    "copula_case": (
        ["Этот остров является место остановки для многих птиц.", "Главная площадь являлась центр торговли в городе."],
        [
            "Этот остров является местом остановки для многих птиц.",
            "Главным событием года является открытие нового моста.",
            "Эта песня является хитом группы Queen уже много лет.",  # a Latin name may be the predicate noun
        ],
    ),
    "locative_start": (
        ["Костомарове появилась на свет весной того же года.", "Старинном доме на углу жили три семьи."],
        [
            "Ивану исполнилось двадцать лет весной.",  # a dative may open a sentence
            "Москве предстоит большая стройка в этом году.",  # dative and locative alike
            "Том быстро представил её своим друзьям.",  # a short name
            "Николае Петреску построил в селе новую школу.",  # a first name before a surname
            "В Москве открылась новая станция метро.",
        ],
    ),
    "dash_participle": (
        ["Все старые батареи на этой станции -- заменены.", "Новый мост через реку — построен в прошлом году."],
        [
            "Плод -- трёхстворчатая коробочка с семенами.",  # the copula dash before a noun
            "Тучи над полем в тот вечер — клубились.",  # a finite verb: fiction's dash of emphasis
            "«Мост открыт», -- сообщил он журналистам вчера.",  # speech: a comma before the dash
            "Две хроники -- обе древние -- написаны на пали.",  # a pair of dashes
        ],
    ),
    "bare_locative": (
        [
            "После завершении сезона тренер покинул клуб.",
            "Правительство делах города почти не участвует.",
            "Мы долго сидели за заднем крыльцом старого дома.",
        ],
        [
            "На полях, крышах и дорогах лежал толстый слой пепла.",  # a list keeps its preposition in reach
            "Деревня стояла часах в трёх езды от города.",  # the inverted approximation
            "В частности, город славится своими садами.",
            "Николае всегда помогал младшему брату.",  # a capitalised name with a locative look-alike
            "О ценах на хлеб, новых домах и дорогах писали все газеты.",
        ],
    ),
})


def test_typo_catches_a_look_alike_first_letter_and_a_name_short_of_a_double_consonant() -> None:
    assert rejects("typo", "Врач занимается лечением эаболеваний кожи у детей.")  # «з» read as «э»
    assert rejects("typo", "Старик долго смотрел на кристал в своей руке.")  # «кристалл»: a name-only word
    assert not rejects("typo", "Врач занимается лечением заболеваний кожи у детей.")
    assert not rejects("typo", "Старик долго смотрел на кристалл в своей руке.")
    assert not rejects("typo", "Вчера к нам в гости приехал Кристал из Бостона.")  # a capitalised name
    assert not rejects("typo", "Сосед принёс нам целую корзину свежих яблок.")


def test_no_predicate_drops_a_cross_reference_opened_by_o() -> None:
    # «О …» names no place or time: the nominative after it is no subject (issue 18, gsd_r2)
    assert rejects("no_predicate", "О лечении и профилактике болезни в статье неврит.")
    assert not rejects("no_predicate", "На станции одна островная платформа и два выхода.")


@pytest.mark.parametrize("name", sorted(FILTER_CASES))
def test_filter_rejects_noise_and_keeps_clean_sentences(name: str) -> None:
    bad, good = FILTER_CASES[name]
    for text in bad:
        assert rejects(name, text), f"{name} should reject: {text}"
    for text in good:
        assert not rejects(name, text), f"{name} should keep: {text}"


def test_too_long_uses_configured_maximum() -> None:
    text = "Мы вчера очень рано ушли с работы домой."  # 9 razdel tokens
    assert len(tokenize_sentence(text)) == 9
    assert rejects("too_long", text, FilterConfig(max_tokens=8))
    assert not rejects("too_long", text, FilterConfig(max_tokens=9))
    assert check_sentence(text, FilterConfig(min_tokens=2, max_tokens=8)) == "too_long"
    assert check_sentence(text) is None
    long_text = " ".join(["Он шёл и шёл,"] * 12) + " и пришёл."
    assert check_sentence(long_text) == "too_long"


def test_non_cyrillic_share_is_configurable() -> None:
    # the share is of words; capitalised Latin words (names) do not count against it
    text = "Мы любим our customers и рады помочь им каждый день."  # 8 Russian words, 2 lower-case Latin ones
    assert rejects("non_cyrillic", text, FilterConfig(min_cyrillic_share=0.85))
    assert not rejects("non_cyrillic", text, FilterConfig(min_cyrillic_share=0.6))
    assert not rejects("non_cyrillic", "В 1979 году Франке основал Ars Electronica в Линце.", FilterConfig(min_cyrillic_share=0.99))


def test_check_sentence_reports_first_failing_filter() -> None:
    assert FILTER_NAMES == (
        "control_chars", "markup", "unbalanced", "no_final_punct", "lowercase_start", "too_long", "too_short", "non_cyrillic",
        "hashtag", "mention", "retweet", "emoji", "glued_title", "glued_sentences", "glued_headline", "footnote",
        "unpunctuated_verse", "broken_encoding", "shouting", "repeated_phrase", "list", "fragment", "word_salad",
        "dangling_abbrev", "garbled_punct", "no_predicate", "typo", "missing_complementiser", "date_preposition",
        "copula_case", "locative_start", "dash_participle", "bare_locative",
    )
    assert check_sentence("Город расположен на [[река|реке]] большой Волге.") == "markup"
    assert check_sentence("и тогда он решил вернуться в родной город.") == "lowercase_start"
    assert check_sentence("и тогда он ушёл") == "no_final_punct"  # checked before lowercase_start
    assert check_sentence("Вчера мы долго гуляли по старому парку") == "no_final_punct"
    assert check_sentence("Мы ушли.") == "too_short"
    assert check_sentence("Вечером над рекой поднялся густой туман.") is None


def test_filter_config_validation_names_key() -> None:
    with pytest.raises(InputError, match=r"corpus\.min_tokens"):
        build_sentences([{"name": "a", "type": "demo"}], cache_dir=".", min_tokens=10, max_tokens=5)
    with pytest.raises(InputError, match=r"corpus\.max_tokens"):
        build_sentences([{"name": "a", "type": "demo"}], cache_dir=".", max_tokens=0)


# --------------------------------------------------------------------------- segmentation & dedupe


def test_split_sentences_never_crosses_blocks() -> None:
    text = "Первая строка без точки\nВторая фраза. Третья фраза!"
    assert split_sentences(text) == ["Первая строка без точки", "Вторая фраза.", "Третья фраза!"]
    assert split_sentences("  \n\n ") == []


def test_normalize_for_dedupe() -> None:
    a = normalize_for_dedupe("Ёлка стоит в углу «большой» комнаты.")
    assert a == normalize_for_dedupe("ёлка  стоит в углу \"большой\" комнаты .")
    assert a == normalize_for_dedupe("ЕЛКА стоит\u00a0в углу „большой“ комнаты.")
    assert normalize_for_dedupe("Он пришёл — и ушёл.") == normalize_for_dedupe("он пришел - и ушел.")
    assert normalize_for_dedupe("Он ждал…") == normalize_for_dedupe("Он ждал...")
    assert a != normalize_for_dedupe("Ёлка стоит в углу «маленькой» комнаты.")


# --------------------------------------------------------------------------- sources


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


LINES_TEXT = (
    "Весной в нашем саду зацвели старые яблони. Соседи приходили посмотреть на них.\n"
    "\n"
    "# Эта строка не комментарий для текстового источника и будет прочитана.\n"
    "Осенью дети собирали урожай в большие корзины.\n"
)

PARAGRAPH_TEXT = (
    "Весной в нашем саду зацвели\n"
    "старые яблони. Соседи приходили\n"
    "посмотреть на них.\n"
    "\n"
    "\n"
    "Осенью дети собирали урожай в большие корзины.\n"
)


def test_text_source_lines_layout(tmp_path: Path) -> None:
    path = write(tmp_path / "garden.txt", LINES_TEXT)
    docs = list(iter_documents({"name": "t", "type": "text", "domain": "fiction", "path": str(path)}, cache_dir=tmp_path))
    assert [d.doc_id for d in docs] == ["garden.txt:1", "garden.txt:3", "garden.txt:4"]
    assert docs[1].text.startswith("# Эта строка")
    assert {d.domain for d in docs} == {"fiction"} and {d.source for d in docs} == {"t"}


def test_text_source_paragraphs_layout(tmp_path: Path) -> None:
    path = write(tmp_path / "garden.txt", PARAGRAPH_TEXT)
    src = {"name": "t", "type": "text", "domain": "fiction", "path": str(path), "layout": "paragraphs"}
    docs = list(iter_documents(src, cache_dir=tmp_path))
    assert [d.doc_id for d in docs] == ["garden.txt:1", "garden.txt:6"]
    assert split_sentences(docs[0].text) == [
        "Весной в нашем саду зацвели старые яблони.",
        "Соседи приходили посмотреть на них.",
    ]
    df, stats = build_sentences([src], cache_dir=tmp_path)
    assert df["text"].to_list() == [
        "Весной в нашем саду зацвели старые яблони.",
        "Соседи приходили посмотреть на них.",
        "Осенью дети собирали урожай в большие корзины.",
    ]
    assert df["sent_id"].to_list() == ["t-0-0", "t-0-1", "t-1-0"]
    assert stats["sources"]["t"]["documents"] == 2


def test_text_source_directory_is_read_recursively_in_order(tmp_path: Path) -> None:
    write(tmp_path / "corpus" / "b.txt", "Вторая книга начиналась с этой длинной фразы.\n")
    write(tmp_path / "corpus" / "a" / "c.txt", "Первая книга начиналась с этой длинной фразы.\n")
    write(tmp_path / "corpus" / "notes.md", "Это не текстовый файл корпуса и не читается.\n")
    docs = list(
        iter_documents({"name": "d", "type": "text", "domain": "news", "path": str(tmp_path / "corpus")}, cache_dir=tmp_path)
    )
    assert [d.doc_id for d in docs] == ["a/c.txt:1", "b.txt:1"]


def test_demo_source_takes_domain_from_file(tmp_path: Path) -> None:
    write(
        tmp_path / "demo" / "news.txt",
        "# Комментарий в начале файла.\nВ пятницу в городе открыли новый мост.\nДвижение начнётся уже в понедельник.\n"
        "\n# Второй документ.\nВечером прошёл сильный дождь с градом.\n",
    )
    write(tmp_path / "demo" / "fiction.txt", "Старик долго смотрел на спокойное море.\n")
    src = {"name": "demo", "type": "demo", "dir": str(tmp_path / "demo")}
    docs = list(iter_documents(src, cache_dir=tmp_path))
    assert [(d.doc_id, d.domain) for d in docs] == [
        ("fiction.txt:1", "fiction"),
        ("news.txt:2", "news"),
        ("news.txt:6", "news"),
    ]
    assert docs[1].text == "В пятницу в городе открыли новый мост.\nДвижение начнётся уже в понедельник."
    df, stats = build_sentences([src], cache_dir=tmp_path)
    assert set(stats["domains"]) == {"fiction", "news"}
    assert stats["domains"]["news"]["kept"] == 3 and stats["domains"]["fiction"]["kept"] == 1
    only_news = list(iter_documents({**src, "files": ["news.txt"]}, cache_dir=tmp_path))
    assert {d.domain for d in only_news} == {"news"}


def test_librusec_source_reads_gzip_books(tmp_path: Path) -> None:
    path = tmp_path / "lib.rus.ec.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("101.fb2 Глава первая. Старый дом на окраине города давно пустовал.\n")
        fh.write("Никто не помнил, кто жил в нём раньше.\n")
        fh.write("202.fb2 Утром капитан поднялся на палубу и посмотрел на горизонт.\n")
    src = {"name": "lib", "type": "librusec", "domain": "fiction", "path": str(path)}
    docs = list(iter_documents(src, cache_dir=tmp_path))
    assert [d.doc_id for d in docs] == ["101.fb2", "202.fb2"]
    assert docs[0].text == (
        "Глава первая. Старый дом на окраине города давно пустовал.\nНикто не помнил, кто жил в нём раньше."
    )
    assert len(list(iter_documents({**src, "max_documents": 1}, cache_dir=tmp_path))) == 1
    not_gzip = write(tmp_path / "plain.txt", "101.fb2 Текст.\n")
    with pytest.raises(InputError, match="gzip") as err:
        list(iter_documents({**src, "path": str(not_gzip)}, cache_dir=tmp_path))
    assert err.value.path == str(not_gzip)


CONLLU = """# sent_id = c-1
# text = Вечером над рекой поднялся густой туман.
1	Вечером	вечер	NOUN	_	_	4	obl	_	_
2	над	над	ADP	_	_	3	case	_	_
3	рекой	река	NOUN	_	_	4	obl	_	_
4	поднялся	подняться	VERB	_	_	0	root	_	_
5	густой	густой	ADJ	_	_	6	amod	_	_
6	туман	туман	NOUN	_	_	4	nsubj	_	SpaceAfter=No
7	.	.	PUNCT	_	_	4	punct	_	_

# domain = news
1	Дождь	дождь	NOUN	_	_	2	nsubj	_	_
2	кончился	кончиться	VERB	_	_	0	root	_	SpaceAfter=No
3	.	.	PUNCT	_	_	2	punct	_	_

"""


def test_read_conllu_source(tmp_path: Path) -> None:
    path = write(tmp_path / "parsed.conllu", CONLLU)
    rows = list(read_conllu_source(path, domain="fiction"))
    assert rows == [
        ("c-1", "Вечером над рекой поднялся густой туман.", "fiction"),
        ("parsed.conllu:11", "Дождь кончился.", "news"),  # no sent_id: the reader's file:line id
    ]
    bad = write(tmp_path / "bad.conllu", CONLLU.replace("3\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_", "3\t.\t.\tPUNCT"))
    with pytest.raises(InputError) as err:
        list(read_conllu_source(bad, domain="news"))
    assert err.value.path == str(bad) and err.value.line == 14
    dup = write(tmp_path / "dup.conllu", CONLLU + CONLLU.split("\n\n")[0] + "\n\n")
    with pytest.raises(InputError, match="duplicate sent_id 'c-1'"):
        list(read_conllu_source(dup, domain="news"))
    empty = write(tmp_path / "empty.conllu", "# only a comment\n\n")
    with pytest.raises(InputError, match="no sentences"):
        list(read_conllu_source(empty, domain="news"))
    # a workflow `conllu` source that is not UTF-8, or whose tree has a cycle: file and line
    latin = tmp_path / "latin.conllu"
    latin.write_bytes(CONLLU.replace("туман", "brouillard \u00e9pais").encode("latin-1", "replace"))
    with pytest.raises(InputError, match=r"latin\.conllu:\d+: not valid UTF-8"):
        list(read_conllu_source(latin, domain="news"))
    cyclic = write(tmp_path / "cyclic.conllu", CONLLU.replace("\t0\troot", "\t1\troot", 1))
    with pytest.raises(InputError, match=r"cyclic\.conllu:\d+: dependency cycle .* and no root"):
        list(read_conllu_source(cyclic, domain="news"))


def test_conllu_sources_pass_through_and_win_duplicates(tmp_path: Path) -> None:
    conllu_path = write(tmp_path / "parsed.conllu", CONLLU)
    text_path = write(
        tmp_path / "raw.txt", "Вечером над рекой поднялся густой  туман .\nУтром над рекой снова поднялся туман.\n"
    )
    sources = [  # the CoNLL-U source comes second in the config but still wins the duplicate
        {"name": "raw", "type": "text", "domain": "fiction", "path": str(text_path)},
        {"name": "ud", "type": "conllu", "domain": "fiction", "path": str(conllu_path)},
    ]
    df, stats = build_sentences(sources, cache_dir=tmp_path)
    assert df.rows() == [
        ("raw-1-0", "Утром над рекой снова поднялся туман.", "fiction", "raw", 7),
        # CoNLL-U sentences are not filtered: "Дождь кончился." is kept although it is short.
        (conllu_sent_id("ud", "c-1"), "Вечером над рекой поднялся густой туман.", "fiction", "ud", 7),
        (conllu_sent_id("ud", "parsed.conllu:11"), "Дождь кончился.", "news", "ud", 3),
    ]
    assert df["sent_id"][1] == "ud:c-1"
    assert stats["sources"]["raw"]["duplicates"] == 1
    ud = stats["sources"]["ud"]
    assert ud["documents"] == 0 and ud["sentences_seen"] == 2 and ud["kept"] == 2
    assert sum(ud["dropped"].values()) == 0
    assert stats["domains"]["news"]["kept"] == 1 and stats["total"]["kept"] == 3
    with pytest.raises(InputError, match="read_conllu_source"):
        list(iter_documents(sources[1], cache_dir=tmp_path))


# --------------------------------------------------------------------------- build_sentences

MIXED = (
    "Весной в нашем саду зацвели старые яблони. Соседи пришли.\n"
    "Осенью дети собирали урожай в большие корзины. Ура!\n"
    "Весной  в нашем саду зацвели старые яблони .\n"
    "ВЕСНОЙ в нашем саду зацвели старые яблони.\n"
    "Подробности на сайте https://example.ru были опубликованы вчера.\n"
    "и тогда все соседи пришли посмотреть на сад.\n"
    "Зимой озеро покрывалось толстым прозрачным льдом.\n"
)


def test_build_sentences_filters_dedupes_and_counts(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.txt", MIXED)
    df, stats = build_sentences([{"name": "mix", "type": "text", "domain": "fiction", "path": str(path)}], cache_dir=tmp_path)
    assert df.schema == pl.Schema(SENTENCES_SCHEMA)
    assert df.rows() == [
        ("mix-0-0", "Весной в нашем саду зацвели старые яблони.", "fiction", "mix", 8),
        ("mix-1-0", "Осенью дети собирали урожай в большие корзины.", "fiction", "mix", 8),
        ("mix-6-0", "Зимой озеро покрывалось толстым прозрачным льдом.", "fiction", "mix", 7),
    ]
    src = stats["sources"]["mix"]
    assert src["documents"] == 7 and src["sentences_seen"] == 9
    assert src["dropped"] == {
        "control_chars": 0, "markup": 1, "unbalanced": 0, "no_final_punct": 0, "lowercase_start": 1,
        "too_long": 0, "too_short": 2, "non_cyrillic": 0,
        **{name: 0 for name in FILTER_NAMES[8:]},
    }
    assert src["duplicates"] == 2 and src["kept"] == 3 and src["sampled_out"] == 0
    assert stats["total"] == src and stats["domains"] == {"fiction": src}
    assert stats["settings"]["min_tokens"] == 6 and stats["settings"]["max_tokens"] == 50


def test_dedupe_across_sources_keeps_first_in_config_order(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", "Зимой озеро покрывалось толстым прозрачным льдом.\nВесной лёд на озере быстро таял.\n")
    b = write(tmp_path / "b.txt", "Зимой озеро покрывалось толстым прозрачным льдом.\nЛетом на озере купались дети.\n")
    df, stats = build_sentences(
        [
            {"name": "a", "type": "text", "domain": "fiction", "path": str(a)},
            {"name": "b", "type": "text", "domain": "news", "path": str(b)},
        ],
        cache_dir=tmp_path,
    )
    assert df["sent_id"].to_list() == ["a-0-0", "a-1-0", "b-1-0"]
    assert stats["sources"]["b"]["duplicates"] == 1 and stats["domains"]["news"]["duplicates"] == 1
    assert stats["total"]["kept"] == 3


def test_sampling_is_seeded_and_accounted(tmp_path: Path) -> None:
    subjects = ["Мальчик", "Учитель", "Сосед", "Лётчик", "Художник", "Рыбак", "Повар", "Врач"]
    path = write(tmp_path / "s.txt", "".join(f"{s} долго смотрел на спокойное вечернее море.\n" for s in subjects))
    src = {"name": "s", "type": "text", "domain": "fiction", "path": str(path)}
    runs = [build_sentences([src], cache_dir=tmp_path, max_sentences_per_source=3, seed=seed)[0] for seed in (0, 0, 1, 2, 3)]
    assert runs[0].equals(runs[1])
    assert all(r.height == 3 for r in runs)
    assert len({tuple(r["sent_id"]) for r in runs}) > 1  # different seeds, different samples
    for r in runs:
        docs = [int(x.split("-")[1]) for x in r["sent_id"]]
        assert docs == sorted(docs)
    _, stats = build_sentences([src], cache_dir=tmp_path, max_sentences_per_source=3, seed=0)
    assert stats["total"]["kept"] == 3 and stats["total"]["sampled_out"] == 5


def test_outputs_are_byte_identical(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.txt", MIXED)
    src = [{"name": "mix", "type": "text", "domain": "fiction", "path": str(path)}]
    outs = []
    for run in range(2):
        df, stats = build_sentences(src, cache_dir=tmp_path, seed=7)
        pq, js = tmp_path / f"r{run}" / "sentences.parquet", tmp_path / f"r{run}" / "stats.json"
        write_sentences(df, stats, pq, js)
        outs.append((pq.read_bytes(), js.read_bytes()))
    assert outs[0] == outs[1]
    assert pl.read_parquet(tmp_path / "r0" / "sentences.parquet").equals(df)
    assert json.loads(outs[0][1])["sources"]["mix"]["kept"] == 3
    assert not list((tmp_path / "r0").glob("*.tmp"))


# --------------------------------------------------------------------------- errors


def test_empty_result_names_the_source(tmp_path: Path) -> None:
    good = write(tmp_path / "good.txt", "Зимой озеро покрывалось толстым прозрачным льдом.\n")
    noise = write(tmp_path / "noise.txt", "Коротко.\nсовсем без заглавной буквы и без точки\n")
    sources = [
        {"name": "good", "type": "text", "domain": "news", "path": str(good)},
        {"name": "mytext", "type": "text", "domain": "news", "path": str(noise)},
    ]
    with pytest.raises(InputError, match=r"corpus\.sources\[1\] \('mytext'\): no sentences survived") as err:
        build_sentences(sources, cache_dir=tmp_path)
    assert "too_short" in str(err.value)
    empty = write(tmp_path / "empty.txt", "\n\n")
    with pytest.raises(InputError, match=r"corpus\.sources\[0\] \('e'\)"):
        build_sentences([{"name": "e", "type": "text", "domain": "news", "path": str(empty)}], cache_dir=tmp_path)


def test_missing_paths_raise_with_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    for kind in ("text", "librusec", "conllu"):
        with pytest.raises(InputError) as err:
            build_sentences([{"name": "m", "type": kind, "domain": "news", "path": str(missing)}], cache_dir=tmp_path)
        assert err.value.path == str(missing)
        assert str(missing) in str(err.value)
    with pytest.raises(InputError) as err:
        list(iter_documents({"name": "d", "type": "demo", "dir": str(tmp_path / "nodemo")}, cache_dir=tmp_path))
    assert err.value.path == str(tmp_path / "nodemo")


@pytest.mark.parametrize(
    ("source", "pattern"),
    [
        ({"name": "x", "type": "pdf", "domain": "news"}, r"corpus\.sources\[0\] \('x'\)\.type: unknown source type"),
        ({"name": "x", "type": "text", "domain": "news", "path": "a.txt", "layuot": "lines"}, r"unknown key\(s\) layuot"),
        ({"name": "x", "type": "text", "domain": "news", "path": "a.txt", "layout": "pages"}, r"\.layout: must be"),
        ({"name": "x", "type": "text", "path": "a.txt"}, r"missing key `domain`"),
        ({"name": "x y", "type": "demo"}, r"\.name: must be"),
        ({"name": "x:y", "type": "demo"}, r"\.name: must be"),
        ({"name": "w", "type": "wikimedia", "domain": "news", "url": "https://h/x.xml.bz2", "sha1": "abc"}, r"\.sha1: must be 40"),
        ({"name": "w", "type": "wikimedia", "domain": "news", "url": "https://h/x.xml.bz2", "max_pages": 0}, r"\.max_pages"),
        ("not a mapping", r"corpus\.sources\[0\]: a source must be a mapping"),
    ],
)
def test_bad_source_declarations(tmp_path: Path, source: object, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        build_sentences([source], cache_dir=tmp_path)  # type: ignore[list-item]


def test_schema_defaults_of_other_types_are_tolerated(tmp_path: Path) -> None:
    write(tmp_path / "demo" / "news.txt", "В пятницу в городе открыли новый мост.\n")
    src = {"name": "d", "type": "demo", "dir": str(tmp_path / "demo"), "layout": "lines", "sha1": None, "max_pages": None}
    df, _ = build_sentences([src], cache_dir=tmp_path)
    assert df.height == 1
    with pytest.raises(InputError, match=r"unknown key\(s\) layout for type 'demo'"):
        build_sentences([{**src, "layout": "paragraphs"}], cache_dir=tmp_path)


def test_duplicate_source_names_and_no_sources(tmp_path: Path) -> None:
    src = {"name": "a", "type": "demo"}
    with pytest.raises(InputError, match=r"corpus\.sources\[1\] \('a'\)\.name: duplicate"):
        build_sentences([src, dict(src)], cache_dir=tmp_path)
    with pytest.raises(InputError, match=r"corpus\.sources: no sources"):
        build_sentences([], cache_dir=tmp_path)


def test_invalid_utf8_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes("Первая строка вполне нормальная.\n".encode() + b"\xff\xfe broken\n")
    with pytest.raises(InputError) as err:
        list(iter_documents({"name": "b", "type": "text", "domain": "news", "path": str(path)}, cache_dir=tmp_path))
    assert err.value.path == str(path) and err.value.line == 2
