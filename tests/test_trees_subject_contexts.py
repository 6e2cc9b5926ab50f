"""The agreement-context questions of the tree layer (rublimp.trees.subject_contexts) on hand-written trees."""

from __future__ import annotations

from rublimp.trees.edges import subject_predicate_edges
from rublimp.trees.subject_contexts import (
    address_as_subject,
    attractor_in_clause,
    attractor_in_subject,
    clause_edge_reliable,
    genitive_of_negation,
    in_quotes,
    indefinite_personal_risk,
    noun_attached_pp,
    predicative_short_form,
)
from tests.trees import tree

_NEUT_PAST = "Aspect=Imp|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
_PRES_3SG = "Aspect=Imp|Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin|Voice=Act"
_MASC_PAST = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
_INAN_MASC = "Animacy=Inan|Case=Nom|Gender=Masc|Number=Sing"


def _edge(sent, subject_form: str):
    (edge,) = [e for e in subject_predicate_edges(sent) if e.subject.form == subject_form]
    return edge


# -- genitive of negation -------------------------------------------------------------------------
def _genitive(prefix: list[tuple], noun: str = "денег", lemma: str = "деньги", negated: bool = True):
    rows = list(prefix)
    n = len(rows) + 1
    rows.append((noun, lemma, "NOUN", "Animacy=Inan|Case=Gen|Number=Plur", n + 2, "nsubj"))
    rows.append(("не" if negated else "уже", "не" if negated else "уже", "PART" if negated else "ADV", "", n + 2, "advmod"))
    rows.append(("было", "быть", "VERB", _NEUT_PAST, 0, "root"))
    rows.append((".", ".", "PUNCT", "", n + 2, "punct"))
    return tree(rows)


def test_genitive_of_negation_plain():
    sent = _genitive([])
    assert genitive_of_negation(sent, _edge(sent, "денег"))


def test_genitive_without_negation_or_with_a_quantity_word_before_it():
    # «денег уже было»: no «не», the edge is no genitive subject at all
    sent = _genitive([], negated=False)
    assert not any(e.subject_kind == "genitive" and genitive_of_negation(sent, e) for e in subject_predicate_edges(sent))
    # «больше денег не было», «около ста человек»: the quantity word governs the genitive
    sent = _genitive([("больше", "больше", "ADV", "Degree=Cmp", 4, "advmod")])
    assert not genitive_of_negation(sent, _edge(sent, "денег"))
    sent = _genitive([("до", "до", "ADP", "", 3, "case"), ("пяти", "пять", "NUM", "Case=Gen", 3, "nummod")], "лет", "год")
    assert not genitive_of_negation(sent, _edge(sent, "лет"))


def test_genitive_needs_a_genitive_reading():
    # «решение» tagged genitive: pymorphy3 has no genitive reading, it is a nominative
    sent = _genitive([], "решение", "решение")
    assert not genitive_of_negation(sent, _edge(sent, "решение"))


def test_genitive_beside_an_infinitive():
    def sent(inf: str, lemma: str):
        return tree([
            ("подробностей", "подробность", "NOUN", "Animacy=Inan|Case=Gen|Gender=Fem|Number=Plur", 3, "nsubj"),
            ("не", "не", "PART", "Polarity=Neg", 3, "advmod"),
            ("следует", "следовать", "VERB", _PRES_3SG, 0, "root"),
            (inf, lemma, "VERB", "Aspect=Imp|VerbForm=Inf|Voice=Act", 3, "xcomp"),
            (".", ".", "PUNCT", "", 3, "punct"),
        ])
    # a transitive infinitive may take the genitive as its object under the negation
    s = sent("сообщать", "сообщать")
    assert not genitive_of_negation(s, _edge(s, "подробностей"))
    # an intransitive one cannot («воздуха не хватает дышать»)
    s = sent("ждать", "ждать")  # pymorphy3: transitive
    assert not genitive_of_negation(s, _edge(s, "подробностей"))
    s = sent("спешить", "спешить")  # intransitive
    assert genitive_of_negation(s, _edge(s, "подробностей"))


# -- indefinite-personal reading ------------------------------------------------------------------
def _motor(verb: str, lemma: str, obj: tuple | None = None):
    rows = [
        ("Мотор", "мотор", "NOUN", _INAN_MASC, 2, "nsubj"),
        (verb, lemma, "VERB", _PRES_3SG, 0, "root"),
    ]
    if obj:
        rows.append(obj)
    rows.append((".", ".", "PUNCT", "", 2, "punct"))
    return tree(rows)


def test_indefinite_personal_risk():
    # «Мотор тянет» → «Мотор тянут» = "they pull the motor"
    s = _motor("тянет", "тянуть")
    assert indefinite_personal_risk(s, _edge(s, "Мотор"))
    # an intransitive verb, or a transitive one with its own object, leaves no such reading
    s = _motor("работает", "работать")
    assert not indefinite_personal_risk(s, _edge(s, "Мотор"))
    s = _motor("тянет", "тянуть", ("прицеп", "прицеп", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", 2, "obj"))
    assert not indefinite_personal_risk(s, _edge(s, "Мотор"))
    # a plural nominal beside the verb could be the plural subject
    s = _motor("тянет", "тянуть", ("вагоны", "вагон", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Plur", 2, "obj"))
    assert indefinite_personal_risk(s, _edge(s, "Мотор"))


def test_animate_subject_has_no_indefinite_personal_risk():
    s = tree([
        ("Брат", "брат", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 2, "nsubj"),
        ("тянет", "тянуть", "VERB", _PRES_3SG, 0, "root"),
        (".", ".", "PUNCT", "", 2, "punct"),
    ])
    assert not indefinite_personal_risk(s, _edge(s, "Брат"))


# -- predicative short forms ----------------------------------------------------------------------
def test_predicative_short_form():
    def tok(form: str):
        return tree([(form, form, "ADV", "Degree=Pos", 0, "root")]).token(1)

    assert predicative_short_form(tok("решено")).tag.POS == "PRTS"
    assert predicative_short_form(tok("нужно")).tag.POS == "ADJS"
    assert predicative_short_form(tok("можно")) is None
    assert predicative_short_form(tok("надо")) is None


# -- attractors -----------------------------------------------------------------------------------
def _key(rel: str, head: int):
    # «Ключ от шкафов лежал.» with «шкафов» attached to the subject (nmod) or elsewhere
    return tree([
        ("Ключ", "ключ", "NOUN", _INAN_MASC, 4, "nsubj"),
        ("от", "от", "ADP", "", 3, "case"),
        ("шкафов", "шкаф", "NOUN", "Animacy=Inan|Case=Gen|Gender=Masc|Number=Plur", head, rel),
        ("лежал", "лежать", "VERB", _MASC_PAST, 0, "root"),
        ("у", "у", "ADP", "", 6, "case"),
        ("окон", "окно", "NOUN", "Animacy=Inan|Case=Gen|Gender=Neut|Number=Plur", 4, "obl"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])


def test_attractor_inside_the_subject_noun_phrase():
    s = _key("nmod", 1)
    edge = _edge(s, "Ключ")
    assert attractor_in_subject(s, edge, s.token(3))
    # the verb's adjunct after it is none
    assert not attractor_in_subject(s, edge, s.token(6))
    # the same noun attached to the verb is the verb's adjunct
    s = _key("obl", 4)
    assert not attractor_in_subject(s, _edge(s, "Ключ"), s.token(3))


def test_noun_of_a_participial_clause_is_no_attractor():
    s = tree([
        ("Ключ", "ключ", "NOUN", _INAN_MASC, 5, "nsubj"),
        ("найденный", "найти", "VERB", "Aspect=Perf|Case=Nom|Gender=Masc|Number=Sing|VerbForm=Part|Voice=Pass", 1, "acl"),
        ("в", "в", "ADP", "", 4, "case"),
        ("шкафах", "шкаф", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Plur", 2, "obl"),
        ("лежал", "лежать", "VERB", _MASC_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ])
    assert not attractor_in_subject(s, _edge(s, "Ключ"), s.token(4))


# -- issue 18, round 2: a PP or bare noun under the subject that is the verb's -----------------------
def _pp(prep: str | None, case: str, verb: tuple = ("уснул", "уснуть", "VERB", _MASC_PAST), fronted: bool = False):
    # «Брат [prep] доме уснул.»: the noun attached to the subject as nmod; ``fronted`` puts it first
    noun_feats = f"Animacy=Inan|Case={case}|Gender=Masc|Number=Sing"
    brother = ("Брат", "брат", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing")
    if fronted:
        rows = [(prep, prep, "ADP", "", 2, "case"), ("доме", "дом", "NOUN", noun_feats, 3, "nmod"),
                (*brother, 4, "nsubj"), (*verb, 0, "root"), (".", ".", "PUNCT", "", 4, "punct")]
        return tree(rows)
    rows = [(*brother, 4 if prep else 3, "nsubj")]
    if prep:
        rows.append((prep, prep, "ADP", "", 3, "case"))
    rows.append(("доме" if prep else "домом", "дом", "NOUN", noun_feats, 1, "nmod"))
    rows += [(*verb, 0, "root"), (".", ".", "PUNCT", "", len(rows) + 1, "punct")]
    return tree(rows)


def test_locative_pp_under_the_subject_is_the_verbs_unless_the_predicate_is_copular():
    s = _pp("в", "Loc")
    edge = _edge(s, "Брат")
    assert not noun_attached_pp(s, edge, s.token(3), s.token(1))
    assert not attractor_in_subject(s, edge, s.token(3))
    # «о», «из», «для», «без», «от» typically modify a noun
    for prep, case in (("о", "Loc"), ("из", "Gen"), ("для", "Gen"), ("без", "Gen"), ("от", "Gen")):
        s = _pp(prep, case)
        assert attractor_in_subject(s, _edge(s, "Брат"), s.token(3)), prep
    # «с» modifies a noun with the instrumental («брат с котом»), not with the genitive («с крыши»)
    s = _pp("с", "Ins")
    assert attractor_in_subject(s, _edge(s, "Брат"), s.token(3))
    s = _pp("с", "Gen")
    assert not attractor_in_subject(s, _edge(s, "Брат"), s.token(3))
    # a short-form predicate takes no locative adjunct: «Брат в доме рад»
    s = _pp("в", "Loc", verb=("рад", "рад", "ADJ", "Degree=Pos|Gender=Masc|Number=Sing|Variant=Short"))
    assert attractor_in_subject(s, _edge(s, "Брат"), s.token(3))


def test_fronted_pp_and_bare_instrumental_are_no_attractors():
    s = _pp("из", "Gen", fronted=True)
    assert not attractor_in_subject(s, _edge(s, "Брат"), s.token(2))
    # «Брат домом уснул»: a bare instrumental under the subject is the verb's adjunct
    s = _pp(None, "Ins")
    assert not attractor_in_subject(s, _edge(s, "Брат"), s.token(2))
    # a bare genitive is the noun's
    s = _pp(None, "Gen")
    assert attractor_in_subject(s, _edge(s, "Брат"), s.token(2))


def test_action_noun_takes_the_verbs_complements_inside_its_phrase():
    # «Управление заводом перешло к сыну», «Обращение в суд стало поводом»: the noun's own dependents
    def action(prep: str | None, case: str):
        rows = [("Управление", "управление", "NOUN", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", 4 if prep else 3, "nsubj")]
        if prep:
            rows.append((prep, prep, "ADP", "", 3, "case"))
        rows.append(("заводом" if case == "Ins" else "суд", "завод" if case == "Ins" else "суд", "NOUN",
                     f"Animacy=Inan|Case={case}|Gender=Masc|Number=Sing", 1, "nmod"))
        rows += [("перешло", "перейти", "VERB", _NEUT_PAST, 0, "root"), (".", ".", "PUNCT", "", len(rows) + 1, "punct")]
        return tree(rows)

    s = action(None, "Ins")
    assert attractor_in_subject(s, _edge(s, "Управление"), s.token(2))
    s = action("в", "Acc")
    assert attractor_in_subject(s, _edge(s, "Управление"), s.token(3))


# -- addresses ------------------------------------------------------------------------------------
def _address(second: bool, person: str | None = None):
    verb_feats = "Aspect=Perf|Gender=Masc|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"
    rows = [
        ("Иван", "иван", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", 4, "nsubj"),
        (",", ",", "PUNCT", "", 1, "punct"),
        ("ты" if second else "как", "ты" if second else "как", "PRON" if second else "SCONJ",
         "Case=Nom|Number=Sing|Person=2" if second else "", 4, "nsubj" if second else "mark"),
        ("пришёл", "прийти", "VERB", verb_feats, 0, "root"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ]
    return tree(rows)


def test_address_as_subject():
    s = _address(second=True)
    assert address_as_subject(s, _edge(s, "Иван"))
    assert not address_as_subject(s, _edge(s, "ты"))
    # a name set off by a comma with no other subject stays the subject («Иван, как всегда, пришёл»)
    s = _address(second=False)
    assert not address_as_subject(s, _edge(s, "Иван"))


# -- issue 18, round 3: genitives labelled appos, prepositions the verb governs ---------------------
def _appos_tree(head: tuple, dep: tuple):
    # «<head> <dep> ждали.» with <dep> labelled appos of <head>
    return tree([
        head,
        (*dep, 1, "appos"),
        ("ждали", "ждать", "VERB", "Aspect=Imp|Mood=Ind|Number=Plur|Tense=Past|VerbForm=Fin|Voice=Act", 0, "root"),
        (".", ".", "PUNCT", "", 3, "punct"),
    ])


def test_genitive_labelled_appos():
    from rublimp.trees.subject_contexts import genitive_labelled_appos

    warriors = ("Воины", "воин", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Plur", 3, "nsubj")
    # «Урнгура»: no nominative reading, a genitive one: the parser's appos is a genitive
    sent = _appos_tree(warriors, ("Урнгура", "урнгур", "PROPN", "Animacy=Anim|Case=Dat|Gender=Masc|Number=Sing"))
    assert genitive_labelled_appos(sent, sent.token(2))
    # «Асандра» is also a woman's name in the nominative: an apposition
    sent = _appos_tree(warriors, ("Асандра", "асандр", "PROPN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Sing"))
    assert not genitive_labelled_appos(sent, sent.token(2))
    # after a name the capitalised word is a surname («Хелен Луз»), whatever it reads as
    helen = ("Хелен", "хелен", "PROPN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", 3, "nsubj")
    sent = _appos_tree(helen, ("Луз", "луза", "PROPN", "Animacy=Anim|Case=Gen|Gender=Fem|Number=Plur"))
    assert not genitive_labelled_appos(sent, sent.token(2))


def test_verb_governs_preposition():
    from rublimp.trees.subject_contexts import verb_governs_preposition

    def verb(lemma: str):
        return tree([(lemma, lemma, "VERB", "VerbForm=Inf", 0, "root")]).token(1)

    assert verb_governs_preposition(verb("отказаться"), "от")  # a stem that repeats the preposition
    assert verb_governs_preposition(verb("зависеть"), "от")  # listed
    assert verb_governs_preposition(verb("состоять"), "из")
    assert verb_governs_preposition(verb("бороться"), "с")
    # «ответить», «выдвинуть» do not govern «от», «из»; «лежать» no noun preposition at all
    assert not verb_governs_preposition(verb("ответить"), "от")
    assert not verb_governs_preposition(verb("выдвинуть"), "из")
    assert not verb_governs_preposition(verb("лежать"), "от")


# -- session 23: the clause scope of attractors -----------------------------------------------------
_FEM_PAST = "Aspect=Perf|Gender=Fem|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act"


def _clause(middle: list[tuple], subject: tuple = ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3")):
    """«<subject> <middle …> ответила.»: ``middle`` rows give (form, lemma, upos, feats, head offset or
    None for the verb, deprel); the verb is the last word before the full stop."""
    verb_id = len(middle) + 2
    rows = [(*subject, verb_id, "nsubj")]
    for form, lemma, upos, feats, head, rel in middle:
        rows.append((form, lemma, upos, feats, verb_id if head is None else head, rel))
    rows += [("ответила", "ответить", "VERB", _FEM_PAST, 0, "root"), (".", ".", "PUNCT", "", verb_id, "punct")]
    return tree(rows)


def test_clause_attractor_is_an_object_or_oblique_of_the_predicate_between_subject_and_verb():
    # «Она ему ответила»: a bare dative object
    s = _clause([("ему", "он", "PRON", "Case=Dat|Gender=Masc|Number=Sing|Person=3", None, "iobj")])
    edge = _edge(s, "Она")
    assert attractor_in_clause(s, edge, s.token(2)) and clause_edge_reliable(s, edge)
    assert not attractor_in_subject(s, edge, s.token(2))
    # «Она в письме брату ответила»: a PP and a noun inside another PP
    s = _clause([
        ("в", "в", "ADP", "", 3, "case"),
        ("письме", "письмо", "NOUN", "Animacy=Inan|Case=Loc|Gender=Neut|Number=Sing", None, "obl"),
        ("брата", "брат", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Sing", 3, "nmod"),
    ])
    edge = _edge(s, "Она")
    assert attractor_in_clause(s, edge, s.token(3)) and attractor_in_clause(s, edge, s.token(4))


def test_adverbial_nouns_are_no_clause_attractors():
    # «Она зимой ответила»: a form that is an adverb too; «Она всю ночь ответила»: a bare accusative
    s = _clause([("зимой", "зима", "NOUN", "Animacy=Inan|Case=Ins|Gender=Fem|Number=Sing", None, "obl")])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    s = _clause([
        ("всю", "весь", "DET", "Case=Acc|Gender=Fem|Number=Sing", 3, "det"),
        ("ночь", "ночь", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obl"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    # «таким образом», «в свою очередь»: fixed adverbial phrases
    s = _clause([
        ("таким", "такой", "DET", "Case=Ins|Gender=Masc|Number=Sing", 3, "det"),
        ("образом", "образ", "NOUN", "Animacy=Inan|Case=Ins|Gender=Masc|Number=Sing", None, "obl"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    s = _clause([
        ("в", "в", "ADP", "", 4, "case"),
        ("свою", "свой", "DET", "Case=Acc|Gender=Fem|Number=Sing", 4, "det"),
        ("очередь", "очередь", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obl"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(4))
    # a bare instrumental that is no adverb is an argument («Она письмом ответила»: "by letter")
    s = _clause([("письмом", "письмо", "NOUN", "Animacy=Inan|Case=Ins|Gender=Neut|Number=Sing", None, "obl")])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))


def test_clause_attractor_not_in_quotes_nor_in_a_subordinate_clause():
    # «Она «Правду» ответила»: a quoted name
    s = _clause([
        ("«", "«", "PUNCT", "", 3, "punct"),
        ("Правду", "правда", "PROPN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obj"),
        ("»", "»", "PUNCT", "", 3, "punct"),
    ])
    assert in_quotes(s, s.token(3))
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    # a noun of a participle's clause hanging on the subject is no noun of the predicate's clause
    s = tree([
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 5, "nsubj"),
        ("узнав", "узнать", "VERB", "Aspect=Perf|VerbForm=Conv|Voice=Act", 5, "advcl"),
        ("о", "о", "ADP", "", 4, "case"),
        ("письме", "письмо", "NOUN", "Animacy=Inan|Case=Loc|Gender=Neut|Number=Sing", 2, "obl"),
        ("ответила", "ответить", "VERB", _FEM_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(4))


def test_clause_edge_needs_one_clause_and_a_nominative_subject():
    # a comma between subject and verb outside the subject's phrase: two clauses
    s = _clause([
        (",", ",", "PUNCT", "", None, "punct"),
        ("ему", "он", "PRON", "Case=Dat|Gender=Masc|Number=Sing|Person=3", None, "iobj"),
    ])
    assert not clause_edge_reliable(s, _edge(s, "Она"))
    # a subject pymorphy3 reads only as an oblique case («книгой» labelled nsubj)
    s = _clause(
        [("ему", "он", "PRON", "Case=Dat|Gender=Masc|Number=Sing|Person=3", None, "iobj")],
        subject=("книгой", "книга", "NOUN", "Animacy=Inan|Case=Nom|Gender=Fem|Number=Sing"),
    )
    assert not clause_edge_reliable(s, _edge(s, "книгой"))


def test_clause_attractor_of_an_infinitive_complement_or_misattached_to_the_subject():
    # «Она брату помочь не смогла»: the object of the infinitive complement is of the same clause
    s = tree([
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 5, "nsubj"),
        ("брату", "брат", "NOUN", "Animacy=Anim|Case=Dat|Gender=Masc|Number=Sing", 3, "iobj"),
        ("помочь", "помочь", "VERB", "Aspect=Perf|VerbForm=Inf|Voice=Act", 5, "xcomp"),
        ("не", "не", "PART", "Polarity=Neg", 5, "advmod"),
        ("смогла", "смочь", "VERB", _FEM_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 5, "punct"),
    ])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # «Она в панике ответила» with the PP labelled ``obl`` of the subject: the verb's adjunct
    s = tree([
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 4, "nsubj"),
        ("в", "в", "ADP", "", 3, "case"),
        ("спешке", "спешка", "NOUN", "Animacy=Inan|Case=Loc|Gender=Fem|Number=Sing", 1, "obl"),
        ("ответила", "ответить", "VERB", _FEM_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(3))


def test_clause_attractor_set_off_or_of_time_and_two_clauses():
    # «Она, жившая в доме, ответила»: the noun inside the set-off participle phrase, even hung on the
    # verb by the parser, is cut off from the verb by the comma
    s = tree([
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 7, "nsubj"),
        (",", ",", "PUNCT", "", 3, "punct"),
        ("жившая", "жить", "VERB", "Aspect=Imp|Case=Nom|Gender=Fem|Number=Sing|Tense=Past|VerbForm=Part|Voice=Act", 1, "acl"),
        ("в", "в", "ADP", "", 5, "case"),
        ("доме", "дом", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Sing", 7, "obl"),
        (",", ",", "PUNCT", "", 3, "punct"),
        ("ответила", "ответить", "VERB", _FEM_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 7, "punct"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(5))
    # «Она каждую весну ответила» with «весну» labelled ``obj``: a time
    s = _clause([
        ("каждую", "каждый", "DET", "Case=Acc|Gender=Fem|Number=Sing", 3, "det"),
        ("весну", "весна", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obj"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    # «Она ему писала и брату ответила»: another finite verb between subject and verb, two clauses
    s = tree([
        ("Она", "она", "PRON", "Case=Nom|Gender=Fem|Number=Sing|Person=3", 6, "nsubj"),
        ("ему", "он", "PRON", "Case=Dat|Gender=Masc|Number=Sing|Person=3", 3, "iobj"),
        ("писала", "писать", "VERB", _FEM_PAST.replace("Perf", "Imp"), 6, "advcl"),
        ("и", "и", "CCONJ", "", 5, "cc"),
        ("брату", "брат", "NOUN", "Animacy=Anim|Case=Dat|Gender=Masc|Number=Sing", 6, "iobj"),
        ("ответила", "ответить", "VERB", _FEM_PAST, 0, "root"),
        (".", ".", "PUNCT", "", 6, "punct"),
    ])
    assert not clause_edge_reliable(s, _edge(s, "Она"))


def test_bare_accusative_of_extent_is_no_clause_attractor():
    # «Она всю дорогу ответила» with «дорогу» labelled ``obj``: "all the way", an extent
    s = _clause([
        ("всю", "весь", "DET", "Case=Acc|Gender=Fem|Number=Sing", 3, "det"),
        ("дорогу", "дорога", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obj"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    # «Она эту дорогу знала»: an object
    s = _clause([
        ("эту", "этот", "DET", "Case=Acc|Gender=Fem|Number=Sing", 3, "det"),
        ("дорогу", "дорога", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "obj"),
    ])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(3))


def test_bare_genitive_under_negation_and_accusative_on_the_subject_are_clause_attractors():
    # «Она писем не ответила» with «писем» a bare ``obl``: the genitive object of the negated verb
    rows = [("писем", "письмо", "NOUN", "Animacy=Inan|Case=Gen|Gender=Neut|Number=Plur", None, "obl"),
            ("не", "не", "PART", "Polarity=Neg", None, "advmod")]
    s = _clause(rows)
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # without «не» a bare genitive ``obl`` is a date or measure («второго мая»)
    s = _clause(rows[:1])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # «Она брата ответила» with «брата» an accusative hung on the subject: the verb's object
    s = _clause([("брата", "брат", "NOUN", "Animacy=Anim|Case=Acc|Gender=Masc|Number=Sing", 1, "nmod")])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))


def test_genitive_of_negation_with_a_particle_or_ni_odnogo():
    # «денег-то не было»: the emphatic particle does not hide the genitive
    sent = _genitive([], "денег-то", "деньги")
    assert genitive_of_negation(sent, _edge(sent, "денег-то"))
    # «ни одного не было»: «один» agrees like a noun, other numerals govern the genitive
    def numeral(form: str, lemma: str):
        return tree([
            ("ни", "ни", "PART", "", 2, "advmod"),
            (form, lemma, "NUM", "Case=Gen|Gender=Masc", 4, "nsubj"),
            ("не", "не", "PART", "Polarity=Neg", 4, "advmod"),
            ("было", "быть", "VERB", _NEUT_PAST, 0, "root"),
            (".", ".", "PUNCT", "", 4, "punct"),
        ])
    s = numeral("одного", "один")
    assert genitive_of_negation(s, _edge(s, "одного"))
    s = numeral("двух", "два")
    assert not any(e.subject_kind == "genitive" and genitive_of_negation(s, e) for e in subject_predicate_edges(s))


def test_oblique_only_noun_mislabelled_on_the_verb_is_a_clause_attractor():
    # «Она голову ответила» with «голову» labelled ``advmod``: only an accusative, the verb's object
    s = _clause([("голову", "голова", "NOUN", "Animacy=Inan|Case=Acc|Gender=Fem|Number=Sing", None, "advmod")])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # «Она брат ответила» with «брат» a second ``nsubj``: a nominative, no object
    s = _clause([("брат", "брат", "NOUN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", None, "nsubj")])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(2))


# -- session 23, round 2 --------------------------------------------------------------------------
def test_plural_object_with_vse_is_no_extent():
    # «Она все письма ответила» with «письма» labelled ``obj``: a plural object, not "all the way"
    s = _clause([
        ("все", "весь", "DET", "Case=Acc|Number=Plur", 3, "det"),
        ("письма", "письмо", "NOUN", "Animacy=Inan|Case=Acc|Gender=Neut|Number=Plur", None, "obj"),
    ])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(3))
    # «Она весь день ответила»: a singular with «весь» stays an extent
    s = _clause([
        ("весь", "весь", "DET", "Case=Acc|Gender=Masc|Number=Sing", 3, "det"),
        ("вечер", "вечер", "NOUN", "Animacy=Inan|Case=Acc|Gender=Masc|Number=Sing", None, "obj"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(3))


def test_abbreviation_needs_its_full_stop():
    # «Она им ответила»: «им» is also «им.» (имени), but without a stop it is the pronoun
    s = _clause([("им", "они", "PRON", "Case=Dat|Number=Plur|Person=3", None, "iobj")])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # «Она в 1990 г. ответила»: a one-letter abbreviation is none
    s = _clause([
        ("в", "в", "ADP", "", 4, "case"),
        ("1990", "1990", "ADJ", "", 4, "amod"),
        ("г", "год", "NOUN", "Animacy=Inan|Case=Loc|Gender=Masc|Number=Sing", None, "obl"),
        (".", ".", "PUNCT", "", 4, "punct"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(4))


def test_pp_of_the_verbs_adverb_is_a_clause_attractor():
    # «Она вместе с братьями ответила»: the PP hangs on «вместе», the verb's adverb
    rows = [
        ("вместе", "вместе", "ADV", "Degree=Pos", None, "advmod"),
        ("с", "с", "ADP", "", 4, "case"),
        ("братьями", "брат", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 2, "obl"),
    ]
    s = _clause(rows)
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(4))
    # the adverb of a participle («она, вместе с братьями пришедшая, …»-like attachment): not the verb's
    s = _clause([
        ("вместе", "вместе", "ADV", "Degree=Pos", 5, "advmod"),
        ("с", "с", "ADP", "", 4, "case"),
        ("братьями", "брат", "NOUN", "Animacy=Anim|Case=Ins|Gender=Masc|Number=Plur", 2, "obl"),
        ("пришедшая", "прийти", "VERB", "Aspect=Perf|Case=Nom|Gender=Fem|Number=Sing|Tense=Past|VerbForm=Part|Voice=Act", 1, "acl"),
    ])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(4))


def test_second_subject_that_cannot_agree_is_a_clause_attractor():
    # «Она это ответила» with «это» a second ``nsubj``: a neuter cannot agree with «ответила», so it is
    # the verb's object
    s = _clause([("это", "это", "PRON", "Animacy=Inan|Case=Nom|Gender=Neut|Number=Sing", None, "nsubj")])
    assert attractor_in_clause(s, _edge(s, "Она"), s.token(2))
    # «Она сестра ответила»: «сестра» agrees with the verb as well, a second subject (an apposition), no object
    s = _clause([("сестра", "сестра", "NOUN", "Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing", None, "nsubj")])
    assert not attractor_in_clause(s, _edge(s, "Она"), s.token(2))


def test_infinitive_set_off_by_a_dash_is_no_object_taker_of_the_genitive():
    from rublimp.trees.subjects import edges_with_default_contexts, repaired_sentence

    def sent(dash: bool):
        # «купить — денег не осталось.» (the dash: a clause of its own) / «купить денег не осталось.»
        # («денег» may be the object of the transitive «купить»: no genitive subject)
        rows = [("купить", "купить", "VERB", "Aspect=Perf|VerbForm=Inf", 5 if dash else 4, "csubj")]
        if dash:
            rows.append(("—", "—", "PUNCT", "", 5, "punct"))
        n = len(rows)
        rows += [
            ("денег", "деньги", "NOUN", "Animacy=Inan|Case=Gen|Number=Plur", n + 3, "nsubj"),
            ("не", "не", "PART", "Polarity=Neg", n + 3, "advmod"),
            ("осталось", "остаться", "VERB", "Aspect=Perf|Gender=Neut|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Mid", 0, "root"),
            (".", ".", "PUNCT", "", n + 3, "punct"),
        ]
        rs = repaired_sentence(tree(rows))
        return rs, [e for e in edges_with_default_contexts(rs) if e.subject_kind == "genitive"]

    rs, edges = sent(True)
    assert [e.subject.form for e in edges] == ["денег"] and genitive_of_negation(rs, edges[0])
    rs, edges = sent(False)
    assert not any(genitive_of_negation(rs, e) for e in edges)


def _inserted(middle: list[tuple], on_subject: bool = True) -> "Sentence":
    # «Он, <middle>, друзей не бросает.»: the closing comma hung on the verb, as the parser does; the
    # first middle word hung on the subject (or, not ``on_subject``, on the verb), the others on it
    n = len(middle)
    verb = n + 6
    rows = [
        ("Он", "он", "PRON", "Case=Nom|Gender=Masc|Number=Sing|Person=3", verb, "nsubj"),
        (",", ",", "PUNCT", "", 3, "punct"),
        *[(f, l, u, ft, (1 if on_subject else verb) if i == 0 else 3, rel) for i, (f, l, u, ft, rel) in enumerate(middle)],
        (",", ",", "PUNCT", "", verb, "punct"),
        ("друзей", "друг", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Plur", verb, "obj"),
        ("не", "не", "PART", "Polarity=Neg", verb, "advmod"),
        ("бросает", "бросать", "VERB", _PRES_3SG, 0, "root"),
        (".", ".", "PUNCT", "", verb, "punct"),
    ]
    return tree(rows)


def test_set_off_name_or_parenthetical_word_after_the_subject_keeps_one_clause():
    # «Он, Леонид, друзей не бросает»: an apposed name set off by commas does not split the clause
    s = _inserted([("Леонид", "леонид", "PROPN", "Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing", "appos")])
    assert clause_edge_reliable(s, _edge(s, "Он"))
    assert attractor_in_clause(s, _edge(s, "Он"), s.token(5))
    # «Он, вишь, друзей не бросает»: a parenthetical word
    s = _inserted([("вишь", "видеть", "VERB", "", "parataxis")])
    assert clause_edge_reliable(s, _edge(s, "Он"))
    # «Он, живший у брата, …» with the participle hung on the verb: a clause of its own
    living = [
        ("живший", "жить", "VERB", "Aspect=Imp|Case=Nom|Gender=Masc|Number=Sing|Tense=Past|VerbForm=Part", "acl"),
        ("у", "у", "ADP", "", "case"),
        ("брата", "брат", "NOUN", "Animacy=Anim|Case=Gen|Gender=Masc|Number=Sing", "obl"),
    ]
    s = _inserted(living, on_subject=False)
    assert not clause_edge_reliable(s, _edge(s, "Он"))
    # … hung on the subject, it is the subject's own phrase (its closing comma on the verb all the same):
    # one clause, and the noun inside it is set off from the verb, no attractor
    s = _inserted(living)
    assert clause_edge_reliable(s, _edge(s, "Он"))
    assert not attractor_in_clause(s, _edge(s, "Он"), s.token(5))
    # «Он, брату, …»: an oblique case is no name of the subject
    s = _inserted([("брату", "брат", "NOUN", "Animacy=Anim|Case=Dat|Gender=Masc|Number=Sing", "iobj")], on_subject=False)
    assert not clause_edge_reliable(s, _edge(s, "Он"))
