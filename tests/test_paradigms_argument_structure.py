"""The five ARGUMENT STRUCTURE paradigms on hand-written sentences, their resources, and the demo corpus.

Replacement words are sampled, so the exact-string tests run the paradigms with
a one-word-per-slot lexicon (``tiny``: фрагмент / химия / зеркало, and уснуть /
спать), which makes every ungrammatical sentence fully determined; the real
lists are tested separately (membership, determinism, the demo pool).
"""

from __future__ import annotations

import re
import shutil

import pytest

from rublimp.io import InputError
from rublimp.morph import get_morph
from rublimp.paradigms import REGISTRY, ParadigmContext, get_paradigm
from rublimp.paradigms.argument_structure import (
    EXCLUDED_FILE,
    INANIMATE_FILE,
    INTRANSITIVE_FILE,
    LEVEL,
    PERSON_NAMES_OPTION,
    PHENOMENON,
    VERB_LISTS_FILE,
    argument_rng,
    load_excluded_nouns,
    load_inanimate_nouns,
    load_intransitive_verbs,
    load_verb_lists,
)
from rublimp.paradigms.base import RESOURCES_DIR, apply_edits, check_pair
from rublimp.trees.control_verbs import CONTROL_VERBS_FILE, load_control_verbs
from tests.trees import tree

NAMES = [
    "transitive_verb",
    "transitive_verb_subject",
    "transitive_verb_passive",
    "transitive_verb_object",
    "transitive_verb_iobject",
]

# paradigm -> (sentence, an ungrammatical sentence it must yield with the tiny lexicon)
POSITIVE: dict[str, list[tuple[str, str]]] = {
    "transitive_verb": [
        ("Я рассчитывал, что все оценят сарказм.", "Я рассчитывал, что все уснут сарказм."),
        ("Мальчик читал интересную книгу.", "Мальчик спал интересную книгу."),
        ("Студенты сдают экзамены в июне.", "Студенты спят экзамены в июне."),
        ("Возьми книгу.", "Усни книгу."),
        ("Бабушка испекла пирог.", "Бабушка уснула пирог."),
        ("Директор уволил бухгалтера.", "Директор уснул бухгалтера."),
        # a genitive object (negation, partitive) as well
        ("Официант потребовал расчёта.", "Официант уснул расчёта."),
        ("Он не читал этой книги.", "Он не спал этой книги."),
        # coordinated verbs, each with its own object
        ("Он прочитал книгу и написал письмо.", "Он уснул книгу и написал письмо."),
        ("Он пришёл домой и прочитал книгу.", "Он пришёл домой и уснул книгу."),
        # an intransitive or reflexive conjunct shares no object
        ("Он открыл окно и задумался.", "Он уснул окно и задумался."),
        # a substantivised adjective as the object
        ("Никто не говорит иного.", "Никто не спит иного."),
        ("Мама жалела бедных.", "Мама спала бедных."),
        ("Она не знала другого.", "Она не спала другого."),
        # «всё» heading a relative clause is a pronoun object, not the adverb
        ("Я отдала ему всё, что у меня было.", "Я уснула ему всё, что у меня было."),
        # an object between the verb and a transitive conjunct is the first verb's own
        ("Разбойники ограбили купца и отпустили.", "Разбойники уснули купца и отпустили."),
        # a rare verb or short-adjective reading of the object («вещи»: вещий) is no adverbial
        ("Мальчики всегда берут свои вещи.", "Мальчики всегда спят свои вещи."),
        ("Кот ест еду из миски.", "Кот спит еду из миски."),
        # the animate plural «всех» is an object («все» and «всё» are not)
        ("Учитель знал всех.", "Учитель спал всех."),
    ],
    "transitive_verb_subject": [
        ("В лесу под Рябиновкой грибники нашли раненого лося.", "В лесу под Рябиновкой фрагменты нашли раненого лося."),
        ("Мальчик читал интересную книгу.", "Фрагмент читал интересную книгу."),
        # a name written right after the subject names the same person: the whole phrase is replaced
        ("Мастер Вэйтэк отбросил молоток.", "Фрагмент отбросил молоток."),
        ("Император Генрих прочитал письмо.", "Фрагмент прочитал письмо."),
        ("Вчера Пётр Иванов прочитал письмо.", "Вчера фрагмент прочитал письмо."),  # a full name, as a whole
        ("Слово взял Эберхард фон Хепп.", "Слово взял фрагмент."),  # a particle inside the name
        ("Девочка увидела кошку в окне.", "Химия увидела кошку в окне."),
        ("Мы пригласили соседей на ужин.", "Фрагменты пригласили соседей на ужин."),
        ("Бабушка купила сумку.", "Сумка купила бабушку."),
        ("Бабушка купила сумку.", "Химия купила сумку."),
        ("Он съел пирог.", "Пирог съел его."),
        ("Я подарил сестре книгу.", "Фрагмент подарил сестре книгу."),
        # modified subjects are replaced too (the replacement keeps number and gender)
        ("Маленький мальчик читал книгу.", "Маленький фрагмент читал книгу."),
        # any transitive verb outside the causer list, and personal names (as RuBLiMP)
        ("Рыбак тащил сеть.", "Фрагмент тащил сеть."),
        ("Маша купила хлеб.", "Химия купила хлеб."),
        # a transitive verb without an object under it (the random replacement needs none)
        ("Лесник внимательно слушал.", "Фрагмент внимательно слушал."),
        # the first of coordinated subjects: the plural verb agrees with the coordination
        ("Мальчик и девочка прочитали книгу.", "Фрагмент и девочка прочитали книгу."),
        # a causer verb with a body part of the subject as its object
        ("Мальчик открыл глаза.", "Фрагмент открыл глаза."),
        ("Солдат потерял руку.", "Фрагмент потерял руку."),
        # a subject counted by a numeral: replaced in the genitive
        ("Эту книгу прочитали пять студентов.", "Эту книгу прочитали пять фрагментов."),
        # a verb that takes abstract subjects with a person as object, with a place as object
        ("Туристы посетили музей.", "Фрагменты посетили музей."),
    ],
    "transitive_verb_passive": [
        # a coordinated noun after «и» (hung on the agent) and a name closing the noun phrase
        # before the agent name no one of the agent
        ("Вскоре перевал был отбит горцами и казаки отступили к реке.", "Вскоре перевал был отбит фрагментами и казаки отступили к реке."),
        ("Недалеко от реки Ужа рыбаками был построен мост.", "Недалеко от реки Ужа фрагментами был построен мост."),
        ("Картина была куплена художником.", "Картина была куплена фрагментом."),
        # the agent's name goes with it (a name inside a PP after it stays: it names a place)
        ("Проект был подготовлен архитектором Юрием Стравинским.", "Проект был подготовлен фрагментом."),
        ("Картина была куплена мастером Иваном Петровым.", "Картина была куплена фрагментом."),
        ("Театр был создан продюсером Эдуардом Бояковым в Москве.", "Театр был создан фрагментом в Москве."),
        # a conjunct or a PP the parser hung on the name stays with the replacement
        ("Таксон описан палеонтологом Максом Лангером и коллегами.", "Таксон описан фрагментом и коллегами."),
        ("Собор построен монахом Фра Бевиньяте из Перуджи.", "Собор построен фрагментом из Перуджи."),
        ("Книга была прочитана сестрой.", "Книга была прочитана химией."),
        ("Роман был прочитан студентами.", "Роман был прочитан фрагментами."),
        ("Этот мост был спроектирован инженером.", "Этот мост был спроектирован фрагментом."),
        ("Шуба была продана бабушкой.", "Бабушка была продана шубой."),
        ("Шуба была продана бабушкой.", "Шуба была продана химией."),
        # a modified agent is replaced, its modifier kept; any transitive verb
        ("Картина была куплена молодым художником.", "Картина была куплена молодым фрагментом."),
        ("Мост был взорван партизанами.", "Мост был взорван фрагментами."),
        # a reflexive passive with an inanimate subject
        ("Замок охранялся стражниками.", "Замок охранялся фрагментами."),
        # a pronoun agent with a verb that needs a person; a making verb from the causer list
        ("Эта картина была куплена им.", "Эта картина была куплена фрагментом."),
        ("Проект был выполнен архитекторами.", "Проект был выполнен фрагментами."),
        # a pronoun agent of any verb outside the causer list; capture by people; a place
        # taken or occupied (the instrumental is the force that took it)
        ("Череп был обнаружен им.", "Череп был обнаружен фрагментом."),
        ("Крепость была захвачена кочевниками.", "Крепость была захвачена фрагментами."),
        ("Париж был занят немцами.", "Париж был занят фрагментами."),
        # a capitalised genitive phrase inside the agent's is no name in the agent's case
        ("Мост был построен инженером Московского завода.", "Мост был построен фрагментом Московского завода."),
        # a capitalised instrumental inside a clause hung on the agent is no name of the agent
        ("Мост был построен рабочими, которые гордились Родиной.", "Мост был построен фрагментами, которые гордились Родиной."),
    ],
    "transitive_verb_object": [
        ("Мы пригласили соседей на ужин.", "Мы пригласили фрагменты на ужин."),
        ("Отец разбудил сына рано утром.", "Отец разбудил фрагмент рано утром."),
        ("Мама попросила сына купить хлеб.", "Мама попросила фрагмент купить хлеб."),
        ("Профессор назначил её капитаном.", "Профессор назначил химию капитаном."),
        ("Директор уволил бухгалтера.", "Директор уволил фрагмент."),
        ("Гости поблагодарили хозяйку.", "Гости поблагодарили химию."),
        # any verb with an object that controls an agentive infinitive, names included
        ("Капитан отправил матроса спать.", "Капитан отправил фрагмент спать."),
        ("Мы пригласили Машу.", "Мы пригласили химию."),
        # the parser hangs the object on the intransitive infinitive (свидетельницу → obj of сесть)
        ("Вечером Мегрэ пригласил свидетельницу сесть.", "Вечером Мегрэ пригласил химию сесть."),
        # a reflexive infinitive only a person does (grooming, effort, contact)
        ("Бабушка заставила внука умыться.", "Бабушка заставила фрагмент умыться."),
        # a transitive infinitive whose theme is a prepositional phrase
        ("Соседи позвали Петю играть в шахматы.", "Соседи позвали фрагмент играть в шахматы."),
        ("Учитель попросил Колю подумать о задаче.", "Учитель попросил фрагмент подумать о задаче."),
    ],
    "transitive_verb_iobject": [
        # the genitive object of a negated verb swaps too, the person taking the genitive
        ("Тренер не дал шанса соперникам.", "Тренер не дал соперников шансу."),
        ("Врач посоветовал пациенту отдохнуть.", "Врач посоветовал фрагменту отдохнуть."),
        # the addressee's name goes with it
        ("Барбур отправил информацию президенту Джону Адамсу.", "Барбур отправил информацию фрагменту."),
        # round 6: a name beside the addressee in another case is the subject, not the addressee's
        # name (trees.roles._other_argument): the addressee alone is replaced and the name stays
        ("Соседу Гусев протянул билет.", "Фрагменту Гусев протянул билет."),
        ("Отец подарил книгу учителю Ивану Петровичу.", "Отец подарил книгу фрагменту."),
        # a singular addressee of one gender: the replacement keeps it for a later «она»
        ("Врач посоветовал Марии отдохнуть, потому что она устала.", "Врач посоветовал химии отдохнуть, потому что она устала."),
        ("Учитель велел ученикам прочитать рассказ.", "Учитель велел фрагментам прочитать рассказ."),
        ("Мама помогла сыну написать письмо.", "Мама помогла фрагменту написать письмо."),
        ("Командир приказал солдатам отступить.", "Командир приказал фрагментам отступить."),
        ("Она предложила гостям остаться.", "Она предложила фрагментам остаться."),
        # ditransitive: the dative recipient is replaced, or swapped with the object
        ("Я подарил сестре шарф.", "Я подарил химии шарф."),
        ("Я подарил сестре шарф.", "Я подарил шарфу сестру."),
        ("Сергей протянул водителю сумку.", "Сергей протянул сумке водителя."),
        # a request (``inf_complement``: no person) swaps too
        ("Секретарь передал просьбу директору.", "Секретарь передал директора просьбе."),
        # an object after a numeral (genitive for the parser): replaced, not swapped
        ("Алекс протянул две монеты торговцу.", "Алекс протянул две монеты фрагменту."),
        # the parser hangs the object under the dative (яблоко → nmod of сыну): repaired
        ("Мать протянула сыну яблоко.", "Мать протянула фрагменту яблоко."),
        # the parser hangs the dative under the object or an obl noun (брату → iobj of знак):
        # the verb is the noun's head
        ("Девочка сделала знак брату.", "Девочка сделала брата знаку."),
        ("Ученики написали письмо министру.", "Ученики написали письмо фрагменту."),
        # an accusative pronoun object: the dative is replaced, nothing swapped
        ("Это письмо, которое почтальон отнёс соседу.", "Это письмо, которое почтальон отнёс фрагменту."),
        ("Он сказал это другу.", "Он сказал это фрагменту."),
    ],
}

# paradigm -> sentences that must yield nothing (near misses), with either lexicon
NEGATIVE: dict[str, list[str]] = {
    "transitive_verb": [
        "Он спал всю ночь.",  # intransitive already
        "Он работал всю неделю.",  # accusative of time, no object
        "На площади ставили карусели.",  # no subject: «карусели» would become one
        "Она собирала и сушила травы.",  # the object is shared with «сушила»
        "Он долго читал и переписывал письма.",  # shared with a transitive conjunct
        "Жители весь вечер скучали дома.",  # «дома» is also an adverb
        "Что ты делаешь?",  # «что» = «почему» with an intransitive verb
        "Он не ждал ничего.",  # «ничего» is no noun phrase an intransitive verb rejects
        "Он всё понял.",  # «всё» is also an adverb («всё спит»)
        "Книга была прочитана.",  # passive
        # an adjective after a pronoun of its case or a preposition heads no object of its own
        "Он ничего страшного не видел.",
        "Она сказала что-то новое.",
        "Через Светлую построят новый мост.",
    ],
    "transitive_verb_subject": [
        "Компания купила здание.",  # organisation, inanimate
        "Ветер сорвал крышу.",  # causer subject, verb takes inanimate subjects
        "Я читаю книгу.",  # a noun would disagree in person
        "Мальчик разбил окно.",  # «камень разбил окно»: a causer verb
        # verbs whose subject is idiomatically a thought, trouble or weather («мысли посетили его»,
        # «нас застал дождь»): an inanimate replacement stays acceptable
        "Врач посетил больного.",
        "Соседка навещала старика каждый день.",
        "Отец застал сына дома.",
        "Табло удобны: они потребляют мало энергии.",  # «они» may be a thing unless the verb needs a mind
        "Дети испугали кошку.",  # «шум испугал кошку»
        "Решение изменило его жизнь.",
        "Москва купила здание.",  # a place name
        "Мальчик спал.",  # no object
        "Он и сестра прочитали книгу.",  # a pronoun in a coordination: its animacy is not forced
        "Министр поднял цены.",  # a causer verb with an abstract object: «инфляция подняла цены»
        "Книгу прочитал критик «Иван Петров».",  # a quoted name is no name written after the noun: left alone
        # a light-verb object: the subject may be abstract («гимнастика сыграла главную роль»)
        "Главную роль сыграла актриса Дарья Лунина.",
        "Учитель оказал влияние на учеников.",
        "Закон установил новые правила.",  # a rule-setting verb takes a text as subject
        "Мальчик начал заниматься музыкой.",  # a phase verb with an intransitive infinitive, no object
        "Мальчик перестал смеяться.",
        # depiction, communication, indication: a text, image or sign does it too
        "Мальчик нарисовал дом.",  # «картина рисует дом»
        "Врач сообщил новость.",  # «листок сообщил новость»
        "Учитель отмечал ошибки.",  # «отклик отмечал ошибки»
        "Девочка рассказала сказку.",  # «книга рассказала сказку»
    ],
    "transitive_verb_passive": [
        "Дом был построен из кирпича.",  # no agent
        "Город был разрушен землетрясением.",  # inanimate agent
        "Он был назначен директором.",  # predicative instrumental
        "Письмо было отправлено секретарём.",  # «отправлено почтой»: instrumental of means
        "Он увлекался девушкой.",  # a reflexive middle with an animate subject, no passive
        # a name in the instrumental further inside the agent's phrase is the agent, wherever the
        # parser hangs it: replacing the noun leaves a person in the role
        "Село было основано писарем Острогожского полка Татарчуковым в 1749 году.",
        "Церковь была построена мастером из Пскова Ивановым.",
        "Дом считался музеем.",
        "Он был награждён орденом.",
        "Осенью он был направлен на фронт рядовым.",  # a predicative role noun, no agent
        "Всё было поглощено ею.",  # «ею» may be a thing (тьмой): поглотить needs no person
        "Город был разрушен врагами.",  # a causer verb: «разрушен землетрясением»
        "Стол был занят гостями.",  # «занят книгами»: occupation only with a place as subject
        "Им были выданы паспорта.",  # «им»: the dative of a verb that takes one
        "Новинкой были оснащены зимовки.",  # equipping: an instrumental of means
        # a name that is not the agent's own stays, so the pair is refused: another argument in another
        # case, a quoted name, a name with a clause of its own, a name after a PP
        "Проект был передан архитектором Ивану.",
        "Проект был подготовлен архитектором «Юрием Стравинским».",
        "Проект был подготовлен архитектором Юрием Стравинским, который жил в Москве.",
        "Проект был подготовлен архитектором из Москвы Юрием Стравинским.",
        "Книга была прочитана писателем, автором романов.",  # an apposition names the same person
        "Правила были установлены директором.",  # «установлены законом»: a rule-setting verb
        # making, writing, painting, casting, covering: an inanimate instrumental is the material
        "Картина была написана художником.",  # «написана маслом»
        "Стена была расписана мастерами.",
        "Колокол был отлит мастером.",  # «отлит бронзой»
        "Стол был покрыт слугами.",  # «покрыт скатертью»
    ],
    "transitive_verb_object": [
        "Мы увидели соседей.",  # «увидеть» takes inanimate objects too
        "Мы пригласили новых соседей.",  # modified object
        "Соседей мы пригласили на ужин.",  # fronted: an inanimate plural would read as the subject
        "Её звали Анна.",  # naming, not calling
        "Он попросил воды.",  # genitive, and the infinitive test does not apply
        "Он оставил сына лежать.",  # «оставил сумку лежать»: a non-agentive infinitive
        "Мы приклеили его к двери, чтобы не забыть.",  # a pronoun object; the infinitive is not next to it
        "Отец отправил сына вчера учиться.",  # the infinitive does not follow the object at once
        "Мама велела сестру встретить.",  # the object of a transitive infinitive is its own
        "Мастер заставил колесо опуститься.",  # a reflexive a thing does as well
        "Бабушка учила внучку вязать.",  # a bare transitive infinitive: «учила шарф вязать» is fine
    ],
    "transitive_verb_iobject": [
        "Врач посоветовал отдохнуть.",  # no indirect object
        "Отец дал сыну имя.",  # a light-verb object whose swap the lexicon refuses: no pair at all
        # an addressee whose gender the dictionary leaves open (Саша, коллега): a later «она» may
        # refer to her while the parser says masculine
        "Врач посоветовал Саше отдохнуть, потому что она устала.",
        "Врач посоветовал коллеге отдохнуть.",
        "Холод помешал растениям расти.",  # inanimate dative
        "Он позволил воде стечь.",
        "Она посвятила книгу матери.",  # «посвятила книгу войне»
        "Мы придали форму глине.",  # inanimate dative
        "Отец посоветовал старшему сыну уехать.",  # modified
        "Отец разрешил дочери учиться в столице.",  # «учиться химии»: the dative would be its object
        "Он поставил памятник Пушкину.",  # the noun's own dative («памятник победе»)
        "Он вернул его хозяину.",  # «вернуть» gives things back to places too
        "Отряд отправил разведку в тыл противнику.",  # a possessor of the PP's noun, no recipient
        "Команда проиграла матч сопернику.",  # «проиграла матч стихии»: the winner may be a thing
        "Иван положил руку на плечо Петру.",  # a possessor of the PP's noun, no recipient
    ],
}

# light-verb objects (room, a chance, a name): a thing takes them as readily as a person («дал
# простор понятиям», «дал имя кораблю»), so the recipient is never replaced; the swap stays wrong
LIGHT_OBJECT_SWAPS = [
    ("Учитель дал простор ученикам.", "Учитель дал учеников простору."),
    ("Учитель отдал предпочтение ученику.", "Учитель отдал ученика предпочтению."),
    # a chance (an ``inf_complement`` noun, no person) may be swapped into the dative
    ("Тренер дал шанс новичку.", "Тренер дал новичка шансу."),
]

TINY_NOUNS = "lemma\tgender\tplural\nфрагмент\tMasc\t1\nхимия\tFem\t0\nзеркало\tNeut\t0\n"
TINY_VERBS = "lemma\taspect\treflexive\tclass\nуснуть\tPerf\t0\tbody\nспать\tImp\t0\tbody\n"


@pytest.fixture(scope="module")
def tiny_ctx(tmp_path_factory):
    """A resources dir with the real exclusion list and a one-word-per-slot lexicon."""
    d = tmp_path_factory.mktemp("argstruct_res")
    shutil.copy(RESOURCES_DIR / EXCLUDED_FILE, d / EXCLUDED_FILE)
    shutil.copy(RESOURCES_DIR / "verb_government.tsv", d / "verb_government.tsv")
    shutil.copy(RESOURCES_DIR / VERB_LISTS_FILE, d / VERB_LISTS_FILE)
    shutil.copy(RESOURCES_DIR / CONTROL_VERBS_FILE, d / CONTROL_VERBS_FILE)
    (d / INANIMATE_FILE).write_text(TINY_NOUNS, encoding="utf-8")
    (d / INTRANSITIVE_FILE).write_text(TINY_VERBS, encoding="utf-8")
    return ParadigmContext(resources_dir=d)


@pytest.fixture(scope="module")
def tiny(tiny_ctx):
    return {n: get_paradigm(n, tiny_ctx) for n in NAMES}


@pytest.fixture(scope="module")
def real():
    return {n: get_paradigm(n) for n in NAMES}


EXTRA = [g for g, _ in LIGHT_OBJECT_SWAPS] + ["Она продала шубу.", "Она продала шубу ещё весной.", "Маша купила хлеб.", "Мы пригласили Машу.", "Маша купила сумку."]


@pytest.fixture(scope="module")
def parsed(parse_cases):
    """Every hand-written sentence, parsed once by the default parser: text -> Sentence."""
    return parse_cases(POSITIVE, NEGATIVE, EXTRA, prefix="as")


def test_registry():
    mine = sorted(n for n, cls in REGISTRY.items() if cls.phenomenon == PHENOMENON)
    assert mine == sorted(NAMES)
    assert PHENOMENON == "argument_structure" and LEVEL == "Semantics"
    for n in NAMES:
        assert REGISTRY[n].level == "Semantics"
        assert len({g for g, _ in POSITIVE[n]}) >= 5 and len(NEGATIVE[n]) >= 3


@pytest.mark.parametrize("name,good,bad", [(n, g, b) for n in NAMES for g, b in POSITIVE[n]])
def test_positive(parsed, tiny, name, good, bad):
    got = [b for b, _ in tiny[name].pairs(parsed[good])]
    assert bad in got, f"{name}: {good!r} gave {got}"


@pytest.mark.parametrize("name,text", [(n, t) for n in NAMES for t in NEGATIVE[n]])
def test_near_miss(parsed, tiny, real, name, text):
    assert list(tiny[name].pairs(parsed[text])) == []
    assert list(real[name].pairs(parsed[text])) == []


@pytest.mark.parametrize("good,bad", LIGHT_OBJECT_SWAPS)
def test_light_object_swap_only(parsed, tiny, real, good, bad):
    """A light-verb object: the recipient and object swap; the recipient alone is never replaced."""
    for p in (tiny, real):
        got = [(b, pert.subtype) for b, pert in p["transitive_verb_iobject"].pairs(parsed[good])]
        assert got == [(bad, "swap")], got


def test_recorded_values(parsed, tiny):
    (bad, pert), = tiny["transitive_verb"].pairs(parsed["Студенты сдают экзамены в июне."])
    assert (pert.feature, pert.source_value, pert.target_value, pert.subtype) == ("Transitivity", "Tran", "Intr", "present")
    assert [p.subtype for _, p in tiny["transitive_verb"].pairs(parsed["Возьми книгу."])] == ["imperative"]
    assert [p.subtype for _, p in tiny["transitive_verb"].pairs(parsed["Я рассчитывал, что все оценят сарказм."])] == ["future"]
    subtypes = {
        "transitive_verb_subject": {"swap", "random"},
        "transitive_verb_passive": {"swap", "random"},
        "transitive_verb_object": {"verb", "predicative", "control"},
        "transitive_verb_iobject": {"directive", "permissive", "swap", "random"},
    }
    for name, allowed in subtypes.items():
        seen = set()
        for good, _ in POSITIVE[name]:
            for _, p in tiny[name].pairs(parsed[good]):
                assert (p.feature, p.source_value, p.target_value) == ("Animacy", "Anim", "Inan")
                assert p.subtype in allowed
                seen.add(p.subtype)
        assert seen == allowed, (name, seen)


def test_swap_edits_both_words(parsed, tiny):
    pairs = dict((p.subtype, (b, p)) for b, p in tiny["transitive_verb_subject"].pairs(parsed["Бабушка купила сумку."]))
    bad, pert = pairs["swap"]
    assert bad == "Сумка купила бабушку."
    assert [e.token_id for e in pert.edits] == [1, 3]
    _, pert = pairs["random"]
    assert len(pert.edits) == 1
    # the passive swap: subject and agent trade places and cases
    pairs = dict((p.subtype, b) for b, p in tiny["transitive_verb_passive"].pairs(parsed["Шуба была продана бабушкой."]))
    assert pairs == {"swap": "Бабушка была продана шубой.", "random": "Шуба была продана химией."}


def test_yo_follows_the_sentence(parsed, tiny):
    swaps = [b for b, p in tiny["transitive_verb_subject"].pairs(parsed["Она продала шубу."]) if p.subtype == "swap"]
    assert swaps == ["Шуба продала ее."]
    swaps = [b for b, p in tiny["transitive_verb_subject"].pairs(parsed["Она продала шубу ещё весной."]) if p.subtype == "swap"]
    assert swaps == ["Шуба продала её ещё весной."]


def test_person_names_option(parsed, tiny_ctx):
    off = ParadigmContext(resources_dir=tiny_ctx.resources_dir, options={PERSON_NAMES_OPTION: False})
    assert list(get_paradigm("transitive_verb_subject", off).pairs(parsed["Маша купила хлеб."])) == []
    assert list(get_paradigm("transitive_verb_object", off).pairs(parsed["Мы пригласили Машу."])) == []
    ctx = tiny_ctx  # on by default, as in RuBLiMP
    got = [b for b, _ in get_paradigm("transitive_verb_subject", ctx).pairs(parsed["Маша купила хлеб."])]
    assert got == ["Химия купила хлеб."]
    # a common noun in a name's place is not capitalised mid-sentence; a moved name keeps its capital
    got = [b for b, _ in get_paradigm("transitive_verb_object", ctx).pairs(parsed["Мы пригласили Машу."])]
    assert got == ["Мы пригласили химию."]
    got = [b for b, _ in get_paradigm("transitive_verb_subject", ctx).pairs(parsed["Маша купила сумку."])]
    assert got == ["Сумка купила Машу.", "Химия купила сумку."]


def test_real_lexicon_is_deterministic_and_in_the_lists(parsed):
    nouns = {n.lemma for n in load_inanimate_nouns(RESOURCES_DIR / INANIMATE_FILE)}
    verbs = {v.lemma for v in load_intransitive_verbs(RESOURCES_DIR / INTRANSITIVE_FILE)}
    excluded = load_excluded_nouns(RESOURCES_DIR / EXCLUDED_FILE)
    morph = get_morph()
    runs = []
    for seed in (0, 0, 1):
        ctx = ParadigmContext(seed=seed)
        out = []
        for name in NAMES:
            p = get_paradigm(name, ctx)
            for good, _ in POSITIVE[name]:
                for bad, pert in p.pairs(parsed[good]):
                    out.append((name, good, bad))
                    if pert.subtype in ("swap",):
                        continue
                    # one new word; the rest of the edits delete the replaced argument's name
                    (edit,) = [e for e in pert.edits if e.new_form]
                    assert all(parsed[good].token(e.token_id).form[:1].isupper() or parsed[good].token(e.token_id).form == "фон"
                               for e in pert.edits if not e.new_form)
                    lemmas = {x.normal_form.replace("ё", "е") for x in morph.parses(edit.new_form)}
                    pool = verbs if name == "transitive_verb" else nouns
                    assert lemmas & pool, (name, good, bad)
                    assert not (lemmas & pool) <= set(excluded), (name, bad)
        runs.append(out)
    assert runs[0] == runs[1]  # same seed, same pairs
    assert runs[0] != runs[2]  # another seed samples other words
    assert [(n, g) for n, g, _ in runs[0]] == [(n, g) for n, g, _ in runs[2]]


def test_dictionary_animacy_repair():
    from rublimp.paradigms.argument_structure import _dictionary_animate

    morph = get_morph()
    assert _dictionary_animate(morph, "аббат") and _dictionary_animate(morph, "путников")
    assert not _dictionary_animate(morph, "кок")  # also 'quiff': not every reading is animate
    assert not _dictionary_animate(morph, "стол") and not _dictionary_animate(morph, "Мозарин")


def test_argument_rng():
    a = [argument_rng(0, "x", "s1", 3).random() for _ in range(2)]
    assert a[0] == a[1]
    assert argument_rng(0, "x", "s1", 3).random() != argument_rng(0, "x", "s1", 4).random()
    assert argument_rng(0, "x", "s1", 3).random() != argument_rng(1, "x", "s1", 3).random()


# -- resources ---------------------------------------------------------------------------
def test_resources_are_consistent():
    nouns = load_inanimate_nouns(RESOURCES_DIR / INANIMATE_FILE)
    verbs = load_intransitive_verbs(RESOURCES_DIR / INTRANSITIVE_FILE)
    excluded = load_excluded_nouns(RESOURCES_DIR / EXCLUDED_FILE)
    assert len(nouns) > 500 and len(verbs) > 80 and len(excluded) > 1000
    assert {"group", "organisation", "event", "instrument", "vehicle", "place", "time"} <= set(excluded.values())
    assert {"толпа", "банк", "выборы", "пистолет", "автобус", "планета", "весна"} <= set(excluded)
    # texts, styles, shops and garments that name people stand for a person or speak for one
    # («листок сообщал», «слог выдаёт автора», «лавка продала», «юбка пришла»): no replacement
    assert {"text", "style", "person_metonym"} <= set(excluded.values())
    assert {"листок": "text", "отклик": "text", "слог": "style", "лавка": "organisation", "юбка": "person_metonym"}.items() <= excluded.items()
    # paces, ways, shapes, groupings and stages read as a manner in the instrumental («построен быстрыми
    # темпами», «уложен квадратами», «выпущен серией»), not as an agent: no replacement
    assert {"темп": "manner", "квадрат": "manner", "серия": "manner", "слой": "manner"}.items() <= excluded.items()
    assert not {n.lemma for n in nouns} & set(excluded)
    assert {n.gender for n in nouns} == {"Masc", "Fem", "Neut"} and any(n.plural for n in nouns)
    assert {v.aspect for v in verbs} == {"Perf", "Imp"}
    morph = get_morph()
    for v in verbs:
        infinitives = [p for p in morph.parses(v.lemma) if p.tag.POS == "INFN" and p.normal_form.replace("ё", "е") == v.lemma]
        assert infinitives and all("intr" in p.tag for p in infinitives), v.lemma
        assert v.reflexive == v.lemma.endswith(("ся", "сь"))
    for n in nouns[:200]:
        assert all(p.tag.POS == "NOUN" and "inan" in p.tag for p in morph.parses(n.lemma)), n.lemma
    lists = load_verb_lists(RESOURCES_DIR / VERB_LISTS_FILE)
    assert "оценить" in lists.agent and "пригласить" in lists.animate_object
    assert {"посетить", "навещать", "застать"} <= lists.abstract_subject


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_loader_errors(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_inanimate_nouns(tmp_path / "missing.tsv")
    bad = _write(tmp_path / "n1.tsv", "# c\nlemma\tgender\tplural\nстол\tMasc\t1\nлампа\tFemale\t0\n")
    with pytest.raises(InputError, match="gender") as err:
        load_inanimate_nouns(bad)
    assert err.value.line == 4 and err.value.path == str(bad)
    bad = _write(tmp_path / "n2.tsv", "lemma\tgender\tplural\nстол\tMasc\tyes\n")
    with pytest.raises(InputError, match="plural") as err:
        load_inanimate_nouns(bad)
    assert err.value.line == 2
    bad = _write(tmp_path / "n3.tsv", "lemma\tgender\nстол\tMasc\n")
    with pytest.raises(InputError, match="plural") as err:
        load_inanimate_nouns(bad)
    assert err.value.line == 1
    bad = _write(tmp_path / "v1.tsv", "lemma\taspect\treflexive\tclass\nспать\tImp\t0\n")
    with pytest.raises(InputError, match="columns") as err:
        load_intransitive_verbs(bad)
    assert err.value.line == 2
    bad = _write(tmp_path / "v2.tsv", "lemma\taspect\treflexive\tclass\nспать\tImpf\t0\tbody\n")
    with pytest.raises(InputError, match="aspect"):
        load_intransitive_verbs(bad)
    bad = _write(tmp_path / "e1.tsv", "# only comments\n")
    with pytest.raises(InputError, match="no header"):
        load_excluded_nouns(bad)
    bad = _write(tmp_path / "e2.tsv", "lemma\tcategory\n\tgroup\n")
    with pytest.raises(InputError, match="empty lemma") as err:
        load_excluded_nouns(bad)
    assert err.value.line == 2


def test_verb_list_loader(tmp_path):
    """Every list of the bundled file is read; the derived unions hold; bad rows name their line."""
    from rublimp.paradigms.argument_structure import VERB_LIST_NAMES

    lists = load_verb_lists(RESOURCES_DIR / VERB_LISTS_FILE)
    assert all(getattr(lists, name) for name in VERB_LIST_NAMES)
    assert lists.object_directive | lists.object_causative <= lists.accusative_control
    assert "послать" in lists.accusative_control and "послать" not in lists.object_directive
    assert lists.agentive_infinitive == lists.agent | lists.volitional
    # the control and predicative verbs come from the tree layer's file, in the same folder by default
    assert not set(VERB_LIST_NAMES) & {"predicative", "object_directive", "object_causative", "accusative_control"}
    assert lists.predicative == load_control_verbs(RESOURCES_DIR / CONTROL_VERBS_FILE).predicative
    rows = "".join(f"{name}\t-\tслово\n" for name in VERB_LIST_NAMES)
    good = _write(tmp_path / "l0.tsv", "list\tgroup\tlemma\n" + rows)
    with pytest.raises(InputError, match="control-verb lists not found"):
        load_verb_lists(good)
    control = _write(tmp_path / "c0.tsv", "list\tlemma\npredicative\tназначить\nobject_directive\tпросить\n"
                                          "object_causative\tзаставить\naccusative_control\tпослать\n")
    got = load_verb_lists(good, control)
    assert got.causer == frozenset({"слово"}) and got.predicative == frozenset({"назначить"})
    assert got.accusative_control == frozenset({"просить", "заставить", "послать"})
    # a lemma of the moved lists in the paradigms' file is an unknown list there
    bad = _write(tmp_path / "l4.tsv", "list\tgroup\tlemma\n" + rows + "predicative\t-\tназначить\n")
    with pytest.raises(InputError, match="list must be one of"):
        load_verb_lists(bad, control)
    bad = _write(tmp_path / "l1.tsv", "# c\nlist\tgroup\tlemma\n" + rows + "agents\t-\tвидеть\n")
    with pytest.raises(InputError, match="list must be one of") as err:
        load_verb_lists(bad, control)
    assert err.value.line == 3 + len(VERB_LIST_NAMES)
    bad = _write(tmp_path / "l2.tsv", "list\tgroup\tlemma\n" + rows + "causer\t-\tслово\n")
    with pytest.raises(InputError, match="listed twice in causer"):
        load_verb_lists(bad, control)
    bad = _write(tmp_path / "l3.tsv", "list\tgroup\tlemma\nagent\tspeech\tсказать\n")
    with pytest.raises(InputError, match="no lemma for list"):
        load_verb_lists(bad, control)


def test_missing_resource_names_the_file(tmp_path):
    with pytest.raises(InputError, match="excluded-noun list not found"):
        get_paradigm("transitive_verb_subject", ParadigmContext(resources_dir=tmp_path))


def test_pool_rows(parsed, tiny_ctx):
    from rublimp.perturb import build_pools

    sents = [parsed[g] for g in dict.fromkeys(g for g, _ in POSITIVE["transitive_verb_passive"])]
    pools = build_pools(sents, NAMES, ctx=tiny_ctx, progress=False)
    df = pools["transitive_verb_passive"]
    assert df.height == len({s.sent_id for s in sents})
    assert set(df["phenomenon"]) == {PHENOMENON} and set(df["level"]) == {"Semantics"}
    assert set(df["feature"]) == {"Animacy"} and set(df["source_value"]) == {"Anim"} and set(df["target_value"]) == {"Inan"}
    assert df.filter(df["source_sentence"] == df["target_sentence"]).height == 0


# -- the demo corpus ---------------------------------------------------------------------
_SPLIT = re.compile(r"\s+")


def _strip(word: str) -> str:
    return word.strip(".,:;!?«»\"'()—–-…")


def test_demo_pool_invariants(demo_sentences):
    """Every pair on the parsed demo corpus (cached by tests/conftest.py) is a valid minimal pair."""
    counts = {}
    for name in NAMES:
        p = get_paradigm(name)
        hits = 0
        for sent in demo_sentences:
            perts = list(p.perturb(sent))
            for pert in perts:
                bad = apply_edits(sent, pert.edits)
                check_pair(sent.text, bad, pert, sent=sent)  # raises on a bad pair
                gw, bw = _SPLIT.split(sent.text.strip()), _SPLIT.split(bad.strip())
                deleted = [e for e in pert.edits if not e.new_form]
                if deleted:
                    # a name replaced with its noun (check_pair's exact rule): one word less per name word
                    assert len(bw) == len(gw) - len(deleted) and len(pert.edits) - len(deleted) == 1
                    continue
                assert bad != sent.text and len(gw) == len(bw)
                changed = [(a, b) for a, b in zip(gw, bw) if a != b]
                edits = sorted(pert.edits, key=lambda e: e.token_id)
                assert [_strip(a) for a, _ in changed] == [sent.token(e.token_id).form for e in edits]
                assert [_strip(b).lower() for _, b in changed] == [e.new_form.lower() for e in edits]
                assert pert.feature in ("Transitivity", "Animacy") and pert.source_value != pert.target_value
            hits += bool(perts)
        counts[name] = hits
    assert all(n > 0 for n in counts.values()), counts


# -- tree-pattern repairs (repair_tree, the dative governor), on hand-written wrong parses ----
_PAST_M = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
_PAST_F = _PAST_M.replace("Masc", "Fem")
_ANIM_M = "Animacy=Anim|Case={}|Gender=Masc|Number=Sing"
_INAN_M = "Animacy=Inan|Case={}|Gender=Masc|Number=Sing"
_INAN_F = "Animacy=Inan|Case={}|Gender=Fem|Number=Sing"


def _tree(rows: list[tuple]):
    """A one-sentence tree from (form, lemma, upos, feats, head, deprel) rows."""
    return tree(rows, sent_id="rep")


REPAIRED_TREES = {
    # the recipient tagged as an adjective on the object («пастуху» ADJ amod, Acc)
    "adj_dative": ("transitive_verb_iobject", [
        ("Мальчик", "мальчик", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("протянул", "протянуть", "VERB", _PAST_M, 0, "root"),
        ("пастуху", "пастуху", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 4, "amod"),
        ("билет", "билет", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Мальчик протянул фрагменту билет."),
    # the recipient hung on the object as its nmod («отдала ключ соседу»)
    "nmod_dative": ("transitive_verb_iobject", [
        ("Бабушка", "бабушка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("отдала", "отдать", "VERB", _PAST_F, 0, "root"),
        ("ключ", "ключ", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        ("соседу", "сосед", "NOUN", _ANIM_M.format("Dat"), 3, "nmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Бабушка отдала ключ фрагменту."),
    # the recipient tagged as a finite verb (pymorphy3 reads «незнакомцу» only as a dative noun)
    "verb_tagged_dative": ("transitive_verb_iobject", [
        ("Мальчик", "мальчик", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("показал", "показать", "VERB", _PAST_M, 0, "root"),
        ("незнакомцу", "незнакомцу", "VERB", _PAST_M, 2, "iobj"),
        ("монету", "монета", "NOUN", _INAN_F.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Мальчик показал монете незнакомца."),
    # the object hung on the recipient with the recipient's case and animacy, which its form
    # cannot have (часослов → Anim Dat nmod): the verb's accusative object, swapped
    "impossible_case_object": ("transitive_verb_iobject", [
        ("Слуга", "слуга", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подал", "подать", "VERB", _PAST_M, 0, "root"),
        ("королю", "король", "NOUN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("часослов", "часослов", "NOUN", _ANIM_M.format("Dat"), 3, "nmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Слуга подал часослову короля."),
    # the object hung on the recipient as its obj («продал соседу лодку»)
    "obj_under_dative": ("transitive_verb_iobject", [
        ("Старик", "старик", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("продал", "продать", "VERB", _PAST_M, 0, "root"),
        ("соседу", "сосед", "NOUN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("лодку", "лодка", "NOUN", _INAN_F.format("Acc"), 3, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Старик продал фрагменту лодку."),
    # the verb tagged as a noun («измеряла» NOUN root)
    "noun_verb": ("transitive_verb_iobject", [
        ("Вечером", "вечер", "NOUN", _INAN_M.format("Ins"), 4, "obl"),
        ("мама", "мама", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 3, "nmod"),
        ("измеряла", "измеряла", "NOUN", "Animacy=Anim|Case=Dat|Gender=Fem|Number=Sing", 0, "root"),
        ("сыну", "сын", "NOUN", _ANIM_M.format("Dat"), 3, "iobj"),
        ("температуру", "температура", "NOUN", _INAN_F.format("Acc"), 3, "obj"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Вечером мама измеряла фрагменту температуру."),
    # the verb tagged PROPN and the object labelled iobj, the recipient hung on it: two passes
    "two_pass": ("transitive_verb_iobject", [
        ("Подарил", "подарил", "PROPN", _ANIM_M.format("Nom"), 0, "root"),
        ("же", "же", "PART", "", 1, "advmod"),
        ("отец", "отец", "NOUN", _ANIM_M.format("Nom"), 1, "nsubj"),
        ("сыну", "сын", "NOUN", _ANIM_M.format("Dat"), 5, "iobj"),
        ("велосипед", "велосипед", "NOUN", _INAN_M.format("Acc"), 1, "iobj"),
        ("!", "!", "PUNCT", "", 1, "punct"),
    ], "Подарил же отец фрагменту велосипед!"),
    # the object labelled iobj in a case its form cannot have («престол» Gen), hung on the verb
    "iobj_object": ("transitive_verb_iobject", [
        ("Князь", "князь", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("уступил", "уступить", "VERB", _PAST_M, 0, "root"),
        ("брату", "брат", "NOUN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("престол", "престол", "NOUN", _INAN_M.format("Gen"), 2, "iobj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Князь уступил фрагменту престол."),
    # the object under the recipient, tagged nominative
    "nominative_object_under_dative": ("transitive_verb_iobject", [
        ("Слуга", "слуга", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подал", "подать", "VERB", _PAST_M, 0, "root"),
        ("королю", "король", "NOUN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("кубок", "кубок", "NOUN", _INAN_M.format("Nom"), 3, "nmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Слуга подал фрагменту кубок."),
    # a fronted object tagged nominative next to the subject
    "nominative_object": ("transitive_verb", [
        ("Крепость", "крепость", "NOUN", _INAN_F.format("Nom"), 2, "obj"),
        ("построили", "построить", "VERB", "Aspect=Perf|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
        ("римляне", "римлянин", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 2, "nsubj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Крепость уснули римляне."),
    # a second «subject» that the parser itself calls accusative
    "accusative_subject": ("transitive_verb", [
        ("Охотник", "охотник", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подстрелил", "подстрелить", "VERB", _PAST_M, 0, "root"),
        ("зайца", "заяц", "NOUN", _ANIM_M.format("Acc"), 2, "nsubj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Охотник уснул зайца."),
    # a predicative role noun labelled obl («сделал рыцаря капитаном»)
    "obl_role_noun": ("transitive_verb_object", [
        ("Король", "король", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("сделал", "сделать", "VERB", _PAST_M, 0, "root"),
        ("рыцаря", "рыцарь", "NOUN", _ANIM_M.format("Acc"), 2, "obj"),
        ("капитаном", "капитан", "NOUN", _ANIM_M.format("Ins"), 2, "obl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Король сделал фрагмент капитаном."),
    # the controlled infinitive labelled advcl, the animate object labelled genitive
    "advcl_infinitive": ("transitive_verb_object", [
        ("Учитель", "учитель", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("попросил", "попросить", "VERB", _PAST_M, 0, "root"),
        ("ученика", "ученик", "NOUN", _ANIM_M.format("Gen"), 2, "obj"),
        ("уйти", "уйти", "NOUN", _INAN_M.format("Nom"), 2, "advcl"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Учитель попросил фрагмент уйти."),
    # a name pymorphy3 knows only as an inanimate word, controller of an agentive infinitive
    "capitalised_common_name": ("transitive_verb_object", [
        ("Отец", "отец", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("уговорил", "уговорить", "VERB", _PAST_M, 0, "root"),
        ("Вишню", "вишня", "PROPN", _INAN_F.format("Acc"), 2, "obj"),
        ("уйти", "уйти", "VERB", "Aspect=Perf|VerbForm=Inf", 2, "xcomp"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Отец уговорил химию уйти."),
    # the controller tagged genitive inanimate: a masculine genitive form is an animate accusative
    "genitive_controller": ("transitive_verb_object", [
        ("Учитель", "учитель", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("попросил", "попросить", "VERB", _PAST_M, 0, "root"),
        ("Орешка", "орешек", "PROPN", _INAN_M.format("Gen"), 2, "obj"),
        ("уйти", "уйти", "VERB", "Aspect=Perf|VerbForm=Inf", 2, "xcomp"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Учитель попросил фрагмент уйти."),
    # a controller of «научить» read as a dative: the accusative reading (feminine) is taken
    "dative_controller": ("transitive_verb_object", [
        ("Бабушка", "бабушка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("научила", "научить", "VERB", _PAST_F, 0, "root"),
        ("Александру", "александр", "PROPN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("плавать", "плавать", "VERB", "Aspect=Imp|VerbForm=Inf", 2, "xcomp"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Бабушка научила химию плавать."),
    # the object of a predicative verb labelled xcomp in a case its form cannot have
    "role_noun_object": ("transitive_verb_object", [
        ("Король", "король", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("объявил", "объявить", "VERB", _PAST_M, 0, "root"),
        ("рыцаря", "рыцарь", "NOUN", _ANIM_M.format("Ins"), 2, "xcomp"),
        ("героем", "герой", "NOUN", _ANIM_M.format("Ins"), 2, "xcomp"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Король объявил фрагмент героем."),
    # an unknown name in the dative tagged as an adjective of the object after it
    "adjective_recipient": ("transitive_verb_iobject", [
        ("Лоцман", "лоцман", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подал", "подать", "VERB", _PAST_M, 0, "root"),
        ("Бруствиллу", "бруствилл", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 4, "amod"),
        ("фонарь", "фонарь", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Лоцман подал фрагменту фонарь."),
}

_PASS_M = "Aspect=Perf|Gender=Masc|Number=Sing|VerbForm=Part|Voice=Pass"
_AUX_M = "Aspect=Imp|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
REPAIRED_TREES.update({
    # «им» under a passive tagged as a plural dative: the agent
    "dative_pronoun_agent": ("transitive_verb_passive", [
        ("Им", "он", "PRON", "Case=Dat|Number=Plur|Person=3", 3, "iobj"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("обнаружен", "обнаружить", "VERB", _PASS_M, 0, "root"),
        ("череп", "череп", "NOUN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Фрагментом был обнаружен череп."),
    # the agent hung under an adjunct noun before it
    "agent_under_adjunct": ("transitive_verb_passive", [
        ("Храм", "храм", "NOUN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("основан", "основать", "VERB", _PASS_M, 0, "root"),
        ("по", "по", "ADP", "", 6, "case"),
        ("всей", "весь", "DET", "Case=Dat|Gender=Fem|Number=Sing", 6, "det"),
        ("видимости", "видимость", "NOUN", _INAN_F.format("Dat"), 3, "parataxis"),
        ("монахом", "монах", "NOUN", _ANIM_M.format("Ins"), 6, "acl"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Храм был основан по всей видимости фрагментом."),
    # the subject labelled amod of the object after the verb («Лесник запер сарай»: лесник → amod)
    "subject_labelled_amod": ("transitive_verb_subject", [
        ("Лесник", "лесник", "NOUN", _ANIM_M.format("Nom"), 3, "amod"),
        ("запер", "запереть", "VERB", _PAST_M, 0, "root"),
        ("сарай", "сарай", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Фрагмент запер сарай."),
    # the instrumental agent labelled a second passive subject (tree repair: an instrumental is no
    # subject, so the capture verb sees one subject, a place name: «Азов был взят казаками»)
    "instrumental_labelled_subject": ("transitive_verb_passive", [
        ("Азов", "азов", "PROPN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("взят", "взять", "VERB", _PASS_M, 0, "root"),
        ("казаками", "казак", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 3, "nsubj:pass"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Азов был взят фрагментами."),
    # the same agent tagged nominative: every noun reading of «казаками» is instrumental
    "nominative_tagged_instrumental": ("transitive_verb_passive", [
        ("Азов", "азов", "PROPN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("взят", "взять", "VERB", _PASS_M, 0, "root"),
        ("казаками", "казак", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "nsubj:pass"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Азов был взят фрагментами."),
    # a recipient before the subject tagged nominative and hung on it
    "nominative_recipient": ("transitive_verb_iobject", [
        ("Соседке", "соседка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "acl"),
        ("отец", "отец", "NOUN", _ANIM_M.format("Nom"), 3, "nsubj"),
        ("прислал", "прислать", "VERB", _PAST_M, 0, "root"),
        ("посылку", "посылка", "NOUN", _INAN_F.format("Acc"), 3, "obj"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Химии отец прислал посылку."),
    # a recipient after the verb tagged as a nominative object
    "nominative_recipient_object": ("transitive_verb_iobject", [
        ("Пётр", "пётр", "PROPN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("отдал", "отдать", "VERB", _PAST_M, 0, "root"),
        ("соседке", "соседка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "obj"),
        ("ключ", "ключ", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Пётр отдал химии ключ."),
    # the object pronoun taken for the recipient's possessive
    "pronoun_object_as_possessive": ("transitive_verb_iobject", [
        ("Отец", "отец", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("продал", "продать", "VERB", _PAST_M, 0, "root"),
        ("его", "он", "PRON", "Case=Acc|Gender=Masc|Number=Sing|Person=3", 4, "det"),
        ("соседу", "сосед", "NOUN", _ANIM_M.format("Dat"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Отец продал его фрагменту."),
})

_PRES_3 = "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act"
REPAIRED_TREES.update({
    # a full name is replaced as a whole (the surname would take its role if left)
    "full_name": ("transitive_verb_subject", [
        ("Роль", "роль", "NOUN", _INAN_F.format("Acc"), 2, "obj"),
        ("озвучивает", "озвучивать", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
        ("Пётр", "пётр", "PROPN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("Иваненко", "иваненко", "PROPN", _ANIM_M.format("Nom"), 3, "flat:name"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Роль озвучивает фрагмент."),
    # two animate instrumentals (a second agent of a conjoined verb the parser hung here)
    "two_animate_instrumentals": ("transitive_verb_passive", [
        ("Сборник", "сборник", "NOUN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("создан", "создать", "VERB", _PASS_M, 0, "root"),
        ("автором", "автор", "NOUN", _ANIM_M.format("Ins"), 3, "obl"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("переписчиками", "переписчик", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 3, "obl"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ], "Сборник был создан фрагментом, переписчиками."),
    # a finite form tagged as an infinitive
    "finite_tagged_infinitive": ("transitive_verb", [
        ("Я", "я", "PRON", "Case=Nom|Number=Sing|Person=1", 4, "nsubj"),
        ("никого", "никто", "PRON", "Case=Gen", 4, "obj"),
        ("не", "не", "PART", "Polarity=Neg", 4, "advmod"),
        ("обвиняю", "обвинять", "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 0, "root"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ], "Я никого не сплю."),
    # a noun tagged as a participle
    "noun_tagged_participle": ("transitive_verb", [
        ("Сирена", "сирена", "NOUN", _INAN_F.format("Nom"), 2, "nsubj"),
        ("издала", "издать", "VERB", _PAST_F, 0, "root"),
        ("писк", "пискать", "VERB", "Aspect=Imp|Case=Acc|Gender=Masc|Number=Sing|Tense=Pres|VerbForm=Part|Voice=Act", 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Сирена уснула писк."),
    # a finite verb tagged with a tense its form cannot have («сует»: Past Fem)
    "verb_tense": ("transitive_verb_subject", [
        ("Сторож", "сторож", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("сует", "совать", "VERB", _PAST_F, 0, "root"),
        ("мне", "я", "PRON", "Case=Dat|Number=Sing|Person=1", 2, "iobj"),
        ("ключ", "ключ", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Фрагмент сует мне ключ."),
    # a subject after its verb labelled obj, in a form that cannot be accusative
    "subject_labelled_obj": ("transitive_verb_subject", [
        ("Вдруг", "вдруг", "ADV", "", 2, "advmod"),
        ("заметил", "заметить", "VERB", _PAST_M, 0, "root"),
        ("слуга", "слуга", "NOUN", _ANIM_M.format("Nom"), 2, "obj"),
        ("лодку", "лодка", "NOUN", _INAN_F.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ], "Вдруг заметил фрагмент лодку."),
})

REPAIRED_NEGATIVE = {
    # an amod noun beside the verb that does not agree with it (plural noun, singular verb): no subject
    "amod_noun_not_agreeing": ("transitive_verb_subject", [
        ("Лесники", "лесник", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "amod"),
        ("запер", "запереть", "VERB", _PAST_M, 0, "root"),
        ("сарай", "сарай", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a second "subject" whose form has a nominative reading («строители»): no instrumental to repair
    "second_subject_not_instrumental": ("transitive_verb_passive", [
        ("Стены", "стена", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Plur", 3, "nsubj:pass"),
        ("были", "быть", "AUX", "Aspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 3, "aux:pass"),
        ("возведены", "возвести", "VERB", "Aspect=Perf|Number=Plur|VerbForm=Part|Voice=Pass", 0, "root"),
        ("строители", "строитель", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "nsubj:pass"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]),
    # «В веке вельможа Петр Переньи строит замок»: the noun the name belongs to stands before it, hung
    # elsewhere; replacing the name (with its surname) would leave «вельможа» in the role
    "noun_before_name": ("transitive_verb_subject", [
        ("В", "в", "ADP", "", 3, "case"),
        ("XIV", "XIV", "ADJ", "", 3, "amod"),
        ("веке", "век", "NOUN", _INAN_M.format("Loc"), 7, "obl"),
        ("вельможа", "вельможа", "NOUN", _ANIM_M.format("Nom"), 3, "nmod"),
        ("Петр", "Петр", "PROPN", _ANIM_M.format("Nom"), 7, "nsubj"),
        ("Переньи", "Переньи", "PROPN", _ANIM_M.format("Nom"), 5, "flat:name"),
        ("строит", "строить", "VERB", "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act", 0, "root"),
        ("замок", "замок", "NOUN", _INAN_M.format("Acc"), 7, "obj"),
        (".", ".", "PUNCT", "", 7, "punct"),
    ]),
    # a surname hung on the verb after a comma names the agent: replacing the noun alone would
    # leave «Петровым» as the agent («*построен фрагментом, Петровым»)
    "agent_name_after_comma": ("transitive_verb_passive", [
        ("Мост", "мост", "NOUN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        ("был", "быть", "AUX", "", 3, "aux:pass"),
        ("построен", "построить", "VERB", "Aspect=Perf|Tense=Past|Variant=Short|VerbForm=Part|Voice=Pass|Gender=Masc|Number=Sing", 0, "root"),
        ("инженером", "инженер", "NOUN", _ANIM_M.format("Ins"), 3, "obl:agent"),
        (",", ",", "PUNCT", "", 6, "punct"),
        ("Петровым", "петров", "PROPN", _ANIM_M.format("Ins"), 3, "obl"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]),
    # an adjective that agrees with the object stays its adjective («подал старому фонарь» is
    # not at issue: «старый» has an accusative masculine reading)
    "agreeing_adjective": ("transitive_verb_iobject", [
        ("Лоцман", "лоцман", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подал", "подать", "VERB", _PAST_M, 0, "root"),
        ("старый", "старый", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 4, "amod"),
        ("фонарь", "фонарь", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a capitalised inanimate word the parser calls inanimate, with nothing forcing a person
    "capitalised_word_unforced": ("transitive_verb_object", [
        ("Отец", "отец", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("позвал", "позвать", "VERB", _PAST_M, 0, "root"),
        ("Вишню", "вишня", "PROPN", _INAN_F.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a genitive object with no infinitive after it stays genitive («попросил орешка»)
    "genitive_without_infinitive": ("transitive_verb_object", [
        ("Учитель", "учитель", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("попросил", "попросить", "VERB", _PAST_M, 0, "root"),
        ("Орешка", "орешек", "PROPN", _INAN_M.format("Gen"), 2, "obj"),
        ("вчера", "вчера", "ADV", "", 2, "advmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a dative under a verb that governs a dative («велела Александру уйти») stays a dative
    "dative_of_dative_verb": ("transitive_verb_object", [
        ("Бабушка", "бабушка", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 2, "nsubj"),
        ("велела", "велеть", "VERB", _PAST_F, 0, "root"),
        ("Александру", "александр", "PROPN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("уйти", "уйти", "VERB", "Aspect=Perf|VerbForm=Inf", 2, "xcomp"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a dependent of the object that can be genitive is the object's own («письмо матери»)
    "genitive_readable": ("transitive_verb_iobject", [
        ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
        ("прочитал", "прочитать", "VERB", _PAST_M, 0, "root"),
        ("письмо", "письмо", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Sing", 2, "obj"),
        ("матери", "мать", "NOUN", "Animacy=Anim|Case=Dat|Gender=Fem|Number=Sing", 3, "nmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a dative not next to the object stays the noun's
    "distant_nmod": ("transitive_verb_iobject", [
        ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
        ("отправил", "отправить", "VERB", _PAST_M, 0, "root"),
        ("ключ", "ключ", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        ("вчера", "вчера", "ADV", "", 2, "advmod"),
        ("соседу", "сосед", "NOUN", _ANIM_M.format("Dat"), 3, "nmod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # «им» as the dative of a passive verb that takes one («им были выданы паспорта»)
    "dative_pronoun_of_dative_verb": ("transitive_verb_passive", [
        ("Им", "он", "PRON", "Case=Dat|Number=Plur|Person=3", 3, "iobj"),
        ("был", "быть", "AUX", _AUX_M, 3, "aux:pass"),
        ("выдан", "выдать", "VERB", _PASS_M, 0, "root"),
        ("паспорт", "паспорт", "NOUN", _INAN_M.format("Nom"), 3, "nsubj:pass"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]),
    # a nominative-tagged word that can be nominative stays the subject's dependent
    "nominative_dependent": ("transitive_verb_iobject", [
        ("Сосед", "сосед", "NOUN", _ANIM_M.format("Nom"), 2, "appos"),
        ("отец", "отец", "NOUN", _ANIM_M.format("Nom"), 3, "nsubj"),
        ("прислал", "прислать", "VERB", _PAST_M, 0, "root"),
        ("посылку", "посылка", "NOUN", _INAN_F.format("Acc"), 3, "obj"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ]),
    # a possessive before an object noun (not a recipient) stays a possessive
    "possessive_of_object": ("transitive_verb_iobject", [
        ("Отец", "отец", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("продал", "продать", "VERB", _PAST_M, 0, "root"),
        ("его", "он", "PRON", "Case=Gen|Gender=Masc|Number=Sing|Person=3", 4, "det"),
        ("машину", "машина", "NOUN", _INAN_F.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # a nominative-tagged object that can be accusative (a masculine inanimate form) stays the
    # object, and a verb with a subject keeps it («Мальчик увидел стол»)
    "object_nominative_form": ("transitive_verb_subject", [
        ("Тут", "тут", "ADV", "", 2, "advmod"),
        ("чувствует", "чувствовать", "VERB", _PRES_3, 0, "root"),
        ("холод", "холод", "NOUN", _INAN_M.format("Nom"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
    # an animate form that can be nominative is no accusative second subject
    "nominative_second_subject": ("transitive_verb", [
        ("Охотник", "охотник", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("подстрелил", "подстрелить", "VERB", _PAST_M, 0, "root"),
        ("сосед", "сосед", "NOUN", _ANIM_M.format("Acc"), 2, "nsubj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]),
}


@pytest.mark.parametrize("key", sorted(REPAIRED_TREES))
def test_repaired_tree_positive(tiny, key):
    name, rows, bad = REPAIRED_TREES[key]
    got = [b for b, _ in tiny[name].pairs(_tree(rows))]
    assert bad in got, (key, got)


def test_no_swap_with_a_genitive_looking_dative(tiny):
    """A swap whose new dative is also the genitive of the noun («тетради», «имени») would read as a
    genitive phrase with the person (partitive, «named after»): only the replacement is made."""
    rows = [
        ("Мастер", "мастер", "NOUN", _ANIM_M.format("Nom"), 2, "nsubj"),
        ("отдал", "отдать", "VERB", _PAST_M, 0, "root"),
        ("соседу", "сосед", "NOUN", _ANIM_M.format("Dat"), 2, "iobj"),
        ("тетрадь", "тетрадь", "NOUN", _INAN_F.format("Acc"), 2, "obj"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ]
    got = [(b, p.subtype) for b, p in tiny["transitive_verb_iobject"].pairs(_tree(rows))]
    assert got == [("Мастер отдал фрагменту тетрадь.", "random")], got


@pytest.mark.parametrize("key", sorted(REPAIRED_NEGATIVE))
def test_repaired_tree_negative(tiny, key):
    name, rows = REPAIRED_NEGATIVE[key]
    assert list(tiny[name].pairs(_tree(rows))) == []


def repair_tree(morph, sent):
    """The argument repair with the argument-structure paradigms' verb lists."""
    from rublimp.trees.roles import roles_repaired

    lists = load_verb_lists(RESOURCES_DIR / VERB_LISTS_FILE)
    return roles_repaired(morph, sent, predicative_verbs=lists.predicative, accusative_control_verbs=lists.accusative_control)


def test_repair_tree_changes_only_sure_readings():
    morph = get_morph()
    sent = _tree(REPAIRED_TREES["adj_dative"][1])
    fixed = repair_tree(morph, sent)
    tok = fixed.token(3)
    assert (tok.upos, tok.feats["Case"], tok.feats["Animacy"]) == ("NOUN", "Dat", "Anim")
    assert fixed.token(3).form == sent.token(3).form and fixed.token(3).start == sent.token(3).start
    assert sent.token(3).upos == "ADJ"  # the input tree is not changed
    verb = repair_tree(morph, _tree(REPAIRED_TREES["noun_verb"][1])).token(3)
    assert (verb.upos, verb.lemma, verb.feats["VerbForm"], verb.feats["Tense"]) == ("VERB", "измерять", "Fin", "Past")
    # words pymorphy3 only guesses, or reads two ways, keep the parser's tags
    guessed = _tree([
        ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", 2, "nsubj"),
        ("отдал", "отдать", "VERB", _PAST_M, 0, "root"),
        ("ключ", "ключ", "NOUN", _INAN_M.format("Acc"), 2, "obj"),
        ("Крызину", "крызин", "ADJ", "Case=Acc|Gender=Masc|Number=Sing", 3, "amod"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    assert repair_tree(morph, guessed) is guessed


def test_repair_tree_is_memoised_per_sentence():
    """The five paradigms share one repair of the sentence they read (same object back)."""
    morph = get_morph()
    sent = _tree(REPAIRED_TREES["adj_dative"][1])
    first = repair_tree(morph, sent)
    assert repair_tree(morph, sent) is first
    other = _tree(REPAIRED_TREES["adj_dative"][1])  # equal, but another sentence object
    assert repair_tree(morph, other) is not first and repair_tree(morph, other) == first


def test_mixed_animacy_readings_are_ambiguous():
    """pymorphy3 tags some accusatives with both animacies («куклы»: ``inan … Inmx anim``);
    its ``tag.animacy`` then depends on string-hash order, so the repair reads both."""
    from rublimp.trees.roles import animacies, only_noun_features

    morph = get_morph()
    mixed = [p for p in morph.parses("куклы") if {"anim", "inan"} <= set(p.tag.grammemes)]
    assert mixed and animacies(mixed[0]) == ("anim", "inan")
    assert only_noun_features(morph, "куклы") is None  # animate and inanimate readings
    assert only_noun_features(morph, "столы")["Animacy"] == "Inan"


def test_genitive_object_swaps_only_under_negation(parsed_extra):
    """A negated verb's genitive object swaps with the recipient (the person takes the genitive);
    a partitive genitive of an affirmative verb does not (only the recipient is replaced)."""
    p = get_paradigm("transitive_verb_iobject")
    neg = [(b, q.subtype) for b, q in p.pairs(parsed_extra["Отец не оставил денег сыновьям."])]
    assert ("Отец не оставил сыновей деньгам.", "swap") in neg
    part = [q.subtype for _, q in p.pairs(parsed_extra["Повар дал хлеба гостям."])]
    assert "swap" not in part


@pytest.fixture(scope="module")
def parsed_extra(parse_cases):
    return parse_cases({}, {}, ["Отец не оставил денег сыновьям.", "Повар дал хлеба гостям."], prefix="gx")
