"""The default-agreement contexts: genitive subjects of negation and clausal subjects the parser missed.

:func:`default_agreement_edges` adds the edges of predicates in the default 3sg.N form whose genitive
or clausal subject the parser did not label as nsubj/csubj (infinitives under «было», predicatives,
impersonal verbs; bare genitives of negated intransitive predicates, also read from word order by
:func:`_word_order_genitive`). :func:`stray_nominative` tells when such a predicate has a nominative
argument that is probably its real subject; the tests of what is *not* a second subject
(:func:`disagreeing_nominative`, :func:`is_vocative`, :func:`other_clause`,
:func:`chto_beside_a_genitive`) are shared with the paradigms' own checks.
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import UD2OC, get_morph
from .edges import AgreementEdge, agreeing_word, head_conf, is_byt, negated_by_ne
from .lexical import QUANT_WORDS, WH_WORDS, is_known
from .readings import after_preposition, agrees_as_nominative, dative_reading, object_like, word_before
from .verbs import (
    bare_case,
    impersonal_verb,
    infinitive_only_impersonal,
    is_default_form,
    is_infinitive,
    is_intransitive,
    is_predicative,
    modal_impersonal,
    ne_before,
)

__all__ = [
    "split_genitive_modifier",
    "before_own_subordinator",
    "behind_subordinate_opening",
    "object_of_impersonal_infinitive",
    "disagreeing_nominative",
    "other_clause",
    "is_vocative",
    "chto_beside_a_genitive",
    "stray_nominative",
    "default_agreement_edges",
]


_INF_RELS = frozenset({"csubj", "xcomp", "ccomp", "advcl", "obj", "iobj", "obl", "nmod", "dep", "conj", "parataxis"})
#: relations of a :data:`~rublimp.trees.verbs.MODAL_IMPERSONAL_LEMMAS` verb hung below its own infinitive
_UNDER_INF_RELS = frozenset({"advcl", "advmod", "parataxis", "dep", "ccomp", "xcomp"})
_GEN_RELS = frozenset({"nsubj", "obj", "obl", "advmod", "nmod", "iobj", "det", "amod", "dep"})


def _oblique_subject(tok: Token) -> bool:
    """An nsubj noun or pronoun in the accusative, dative, instrumental or locative that pymorphy3 cannot read as a nominative.

    A misparsed object or experiencer; a genitive is a genitive subject.
    """
    if tok.base_deprel != "nsubj" or tok.upos not in ("NOUN", "PROPN", "PRON") or tok.feats.get("Case") not in ("Acc", "Dat", "Ins", "Loc"):
        return False
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    return bool(parses) and not any("nomn" in p.tag.grammemes for p in parses)


def disagreeing_nominative(tok: Token, agreeing: Token) -> bool:
    """A nominative nominal that cannot be the subject of a neuter singular past or short form.

    «Такая простота, точно и не было ничего дурного», «Однако ответа не было,
    агент … прервала связь»: the parser made a masculine, feminine or plural
    nominative of a neighbouring phrase the subject of «было». A form that
    marks gender agrees with its subject, so such a nominative (pymorphy3 has
    no reading of it that agrees; for a word it does not know, the tagger's
    gender or number differs) is not the predicate's subject and does not
    stand in the way of its genitive or clausal subject.
    """
    f = agreeing.feats
    if not (f.get("Tense") == "Past" or f.get("Variant") == "Short") or not is_default_form(agreeing) or f.get("Gender") != "Neut":
        return False
    if tok.upos not in ("NOUN", "PROPN", "PRON") or tok.feats.get("Case", "Nom") != "Nom":
        return False
    if is_known(tok.form.lower()):
        return agrees_as_nominative(tok, agreeing) is None
    return tok.feats.get("Number") == "Plur" or tok.feats.get("Gender") in ("Masc", "Fem")


_VOCATIVE_OPEN = frozenset({",", "—", "–", "-", "(", "«", '"'})
_VOCATIVE_CLOSE = frozenset({",", ":", "!", "—", "–", "-"})


def other_clause(sent: Sentence, tok: Token) -> bool:
    """A csubj that is an infinitive, or a finite verb with a subject of its own: no obstacle to a clausal subject beside it."""
    if tok.base_deprel != "csubj":
        return False
    return is_infinitive(tok) or any(k.base_deprel == "nsubj" for k in sent.children(tok))


#: possessive determiners that may follow the name of an addressee («Гена ваш», «Маша моя»)
_POSSESSIVES = frozenset({"мой", "твой", "наш", "ваш"})


def is_vocative(sent: Sentence, tok: Token) -> bool:
    """A nominative name or animate noun set off by punctuation: an address or a speaker's label.

    «Джордж, ничего не остаётся», «Сергей Гуриев: …», «Придётся нам, парень,
    назад идти». A PROPN in the nominative without a preposition, with its
    flat/appos name parts and a possessive after them («Гена ваш»), preceded by the start of the sentence or a
    comma/dash/opening quote or bracket, and followed by a comma, colon,
    exclamation mark or dash; an animate common noun only between commas.
    """
    if tok.feats.get("Case", "Nom") != "Nom":
        return False
    if tok.upos == "NOUN":
        if tok.feats.get("Animacy") != "Anim" or tok.id == 1 or tok.id >= len(sent.tokens):
            return False
        # no dependents but its own commas («Придётся нам, парень, назад идти» with the first comma on «парень»)
        return (
            sent.tokens[tok.id - 2].form == "," and sent.tokens[tok.id].form == ","
            and not any(k.upos != "PUNCT" for k in sent.children(tok))
        )
    if tok.upos != "PROPN":
        return False
    kids = sent.children(tok)
    if any(k.deprel == "case" for k in kids):
        return False
    last = tok.id
    for k in sorted(kids, key=lambda t: t.id):
        if k.id == last + 1 and k.upos == "PROPN" and k.base_deprel in ("flat", "appos"):
            last = k.id
        elif k.id == last + 1 and k.base_deprel == "det" and normalize(k.lemma) in _POSSESSIVES:
            last = k.id  # «Гена ваш!», «Мама моя, …»: a possessive after the name of the addressee
    if last >= len(sent.tokens) or sent.tokens[last].form not in _VOCATIVE_CLOSE:
        return False
    return tok.id == 1 or sent.tokens[tok.id - 2].form in _VOCATIVE_OPEN


def _above_oblique_nominal(sent: Sentence, head: Token) -> Token | None:
    """The predicative or infinitive above an oblique nominal that the parser gave a «было» as cop/aux.

    The nominal is a noun or pronoun with a preposition or in an oblique case
    («на детей», «за мной», «мечтой»): it is no predicate of «было» in the
    default form. Up to two heads above it, the first predicative («жаль»)
    or infinitive («следить», «стать») is.
    """
    if head.upos not in ("NOUN", "PROPN", "PRON") or is_predicative(head):
        return None
    if head.feats.get("Case") in (None, "Nom") and not any(k.deprel == "case" for k in sent.children(head)):
        return None
    cur = head
    for _ in range(2):
        nxt = sent.head_of(cur)
        if nxt is None:
            return None
        if is_predicative(nxt) or is_infinitive(nxt):
            return nxt
        if nxt.upos not in ("NOUN", "PROPN", "PRON"):
            return None
        cur = nxt
    return None


def _finite_clause_host(pred: Token, agreeing: Token) -> bool:
    """A predicate whose neuter singular past or short form takes a finite clause as its subject.

    A predicative («неважно», «ясно», «надо») in the present or with «было»,
    or a neuter past or short form of an intransitive or reflexive verb
    («выяснилось», «оказалось») or a short passive participle («сказано»).
    Present-tense verbs are left out: with a dropped personal subject another
    person would be grammatical («(он) думает, что …»).
    """
    f = agreeing.feats
    if f.get("Number") != "Sing" or f.get("Gender", "Neut") != "Neut" or f.get("Person", "3") != "3":
        return False
    if is_predicative(pred):
        return True
    if pred is not agreeing or f.get("Gender") != "Neut":
        return False
    if f.get("Variant") == "Short":
        return f.get("VerbForm") == "Part"
    return f.get("Tense") == "Past" and (is_intransitive(pred) or pred.form.lower().endswith(("ся", "сь")))


#: verbs of seeming that take a finite clause only impersonally, with a dative experiencer («мне кажется, …»)
_SEEM_LEMMAS = frozenset({"казаться", "показаться", "думаться", "чудиться", "почудиться"})


def _seeming_with_experiencer(sent: Sentence, pred: Token, agreeing: Token) -> bool:
    """A reflexive 3rd-person singular (or neuter past) verb of :data:`_SEEM_LEMMAS` with a bare dative
    nominal of its own: «Мне кажется, денщик всех обманул», «Ему почудилось, кто-то стучит».

    With the experiencer the verb takes no personal subject and no other person: «мне кажусь, …»,
    «мне кажутся, …» have no reading. The present tense counts here (unlike
    :func:`_finite_clause_host`), because the dative leaves no place for a dropped «я/ты».
    """
    f = agreeing.feats
    if pred is not agreeing or normalize(pred.lemma) not in _SEEM_LEMMAS or not pred.form.lower().endswith(("ся", "сь")):
        return False
    if f.get("Number") != "Sing" or f.get("Person", "3") != "3" or f.get("Gender", "Neut") != "Neut":
        return False
    return any(
        k.base_deprel in ("iobj", "obl", "nmod") and k.upos in ("NOUN", "PROPN", "PRON") and bare_case(sent, k, "Dat")
        for k in sent.children(pred)
    )


def _finite_clause_subject(sent: Sentence, pred: Token, tok: Token, *, comma_ok: bool = False) -> bool:
    """A finite clause after ``pred`` attached as ccomp/csubj/parataxis and introduced as a subject clause.

    It is introduced by a subordinator or a question word («что», «почему»,
    «куда») or follows a dash or colon right after the predicate; with ``comma_ok`` (a verb of seeming
    with its experiencer, :func:`_seeming_with_experiencer`) also a comma right after the predicate,
    when the clause opens with no conjunction («Мне кажется, он ушёл»; not «…, а он ушёл»).
    """
    if tok.base_deprel not in ("ccomp", "csubj", "parataxis") or tok.id < pred.id:
        return False
    finite = tok.feats.get("VerbForm") == "Fin" or any(
        k.deprel in ("cop", "aux", "aux:pass") and k.feats.get("VerbForm") == "Fin" for k in sent.children(tok)
    )
    if not finite or tok.feats.get("Mood") == "Imp":
        return False
    if any(normalize(k.lemma) in ("так", "настолько", "столь", "такой") for k in sent.children(pred)):
        return False  # «так похоже, что …»: a result clause, not a subject
    if any(k.base_deprel == "nsubj" and k.id < pred.id for k in sent.children(tok)):
        return False
    kids = sent.children(tok)
    first = min([tok.id] + [k.id for k in kids if k.upos != "PUNCT"])
    if any(k.deprel == "mark" and k.id == first for k in kids):
        return True
    if any(k.id == first and normalize(k.lemma) in WH_WORDS | {"почему", "зачем", "как", "ли"} for k in kids):
        return True
    before = sent.tokens[first - 2] if first > 1 else None
    marks = ("–", "—", "-", ":", ",") if comma_ok else ("–", "—", "-", ":")
    if comma_ok and sent.tokens[first - 1].upos in ("CCONJ", "SCONJ"):
        return False
    return before is not None and before.form in marks and all(
        t.upos == "PUNCT" for t in sent.tokens[pred.id:first - 1]
    )


def before_own_subordinator(sent: Sentence, pred: Token, tok: Token) -> bool:
    """Whether ``tok`` stands before the subordinator («что», «если» …: a ``mark`` of ``pred``; or a form of
    «который» after a comma, in any relation) that opens ``pred``'s clause, so belongs to the clause above
    («Мысль в том, что объекта не существует»: «Мысль» labelled nsubj of «существует»; «движение, которого
    у них не имеется»)."""
    marks = [
        k.id for k in sent.children(pred)
        if (k.base_deprel == "mark" and k.upos in ("SCONJ", "PRON", "ADV"))
        # «движение, которого у них не имеется»: the relative pronoun opens the clause, whatever its relation
        or (normalize(k.lemma) == "который" and k.id > 1 and sent.tokens[k.id - 2].form == ",")
    ]
    return bool(marks) and tok.id < min(marks)


#: words that open a subordinate clause after a comma, whatever the parser's label («ибо» tagged SCONJ
#: but labelled advmod)
_SUBORDINATORS = frozenset({
    "ибо", "потому", "поскольку", "так", "если", "когда", "хотя", "чтобы", "что", "пока", "раз", "будто",
})


def behind_subordinate_opening(sent: Sentence, pred: Token, tok: Token) -> bool:
    """Whether ``tok`` follows ``pred`` behind a comma and a subordinator that opens another clause
    («Об этом речи не шло, ибо золото всегда анонимно»: «золото» labelled nsubj of «шло»): the subject
    of that clause, not a second subject of ``pred``. Likewise a nominal before ``pred`` inside a
    clause that a subordinator opens and a comma closes before ``pred`` («Если Трента не будет, бремя
    власти придётся взять мне» with «Трента» hung on «придётся»)."""
    if tok.id < pred.id:
        return _inside_leading_subordinate(sent, pred, tok)
    if tok.id == pred.id:
        return False
    between = sent.tokens[pred.id: tok.id - 1]
    return any(
        t.form == "," and t.id < len(sent.tokens) and sent.tokens[t.id].upos in ("SCONJ", "ADV", "PRON")
        and normalize(sent.tokens[t.id].form) in _SUBORDINATORS
        for t in between
    )


#: subordinators that open a clause before the main one (not «что», «так»: a pronoun, an adverb as often)
_LEADING_SUBORDINATORS = frozenset({"если", "когда", "хотя", "пока", "поскольку", "чтобы", "будто", "раз"})


def _inside_leading_subordinate(sent: Sentence, pred: Token, tok: Token) -> bool:
    """Whether ``tok`` stands in a clause opened by a subordinator (at the sentence start or after
    punctuation, with no punctuation between it and ``tok``) and closed by a comma before ``pred``."""
    if not any(t.form == "," for t in sent.tokens[tok.id: pred.id - 1]):
        return False
    for t in reversed(sent.tokens[: tok.id - 1]):
        if t.upos == "PUNCT":
            return False
        if normalize(t.form) in _LEADING_SUBORDINATORS and t.upos in ("SCONJ", "ADV", "CCONJ"):
            prev = sent.tokens[t.id - 2] if t.id >= 2 else None
            return prev is None or prev.upos in ("PUNCT", "CCONJ")
    return False


def _animate_accusative_genitive(sent: Sentence, tok: Token) -> bool:
    """An animate noun tagged accusative without a preposition, whose form is its genitive as well («Не было
    на них дикого охотника»: the animate accusative is the genitive form, and a noun after a pronoun's
    PP is no object of it)."""
    return (
        tok.feats.get("Case") == "Acc" and tok.feats.get("Animacy") == "Anim"
        and not any(k.deprel == "case" for k in sent.children(tok))
        and any({"gent"} <= set(p.tag.grammemes) for p in get_morph().parses(tok.form) if p.tag.POS == "NOUN")
    )


def _comparative_with_byt(pred: Token, agreeing: Token | None) -> bool:
    """A comparative with «было/будет» as its copula («Понравиться ей было гораздо трудней»): a
    predicative of its own, with no gender or number, so быть agrees alone."""
    return (
        agreeing is not None and agreeing is not pred and is_byt(agreeing)
        and pred.upos in ("ADJ", "ADV") and pred.feats.get("Degree") == "Cmp"
    ) or _adverb_with_byt(pred, agreeing)


def _adverb_with_byt(pred: Token, agreeing: Token | None) -> bool:
    """An adverb in «-о» with «было/будет» as its copula («потрясать кулаками было поздно») that
    pymorphy3 has no predicative reading for: the copula makes it a predicative with no gender or
    number, so быть agrees alone."""
    return (
        agreeing is not None and agreeing is not pred and is_byt(agreeing) and agreeing.base_deprel == "cop"
        and agreeing.head == pred.id and pred.upos == "ADV" and pred.form.lower().endswith("о")
    )


def _conditional_clause(sent: Sentence, inf: Token, pred: Token) -> bool:
    """An infinitive with a subordinator of its own («если», «чтобы», «когда» …) set off from the predicate
    by punctuation: a clause of its own, not the subject («Если тренировать все мышцы, – не хватит
    жизни»: «жизни» is the genitive subject)."""
    if not any(k.base_deprel == "mark" for k in sent.children(inf)):
        return False
    lo, hi = sorted((inf.id, pred.id))
    return any(t.upos == "PUNCT" for t in sent.tokens[lo: hi - 1])


#: verbs of meaning that equate two infinitives («Жить – значит бороться»)
_MEANING_LEMMAS = frozenset({"значить", "означать"})


def _infinitive_meaning_infinitive(sent: Sentence, pred: Token, agreeing: Token) -> Token | None:
    """The infinitive before a verb of :data:`_MEANING_LEMMAS` that equates it with an infinitive after
    it: «Уехать в деревню – значило сдаться» (the first infinitive is the subject whatever its label).

    Both infinitives hang on the verb itself, with no comma between the first and the verb or between the
    verb and the second (the parenthetical «значит» "so" is set off by commas: «Уйти надо, значит,
    собираться»), and the verb is in its default form.
    """
    if pred is not agreeing or normalize(pred.lemma) not in _MEANING_LEMMAS:
        return None
    kids = sent.children(pred)
    before = [k for k in kids if is_infinitive(k) and k.id < pred.id and k.base_deprel in _INF_RELS]
    after = [k for k in kids if is_infinitive(k) and k.id > pred.id and k.base_deprel in ("xcomp", "obj", "ccomp", "csubj")]
    if not before or not after:
        return None
    first, second = before[-1], after[0]
    if any(t.form == "," for t in sent.tokens[first.id:second.id - 1]):
        return None
    return first


def _infinitive_above(sent: Sentence, pred: Token, agreeing: Token) -> Token | None:
    """The infinitive a default-form predicate hangs below (``advcl``, ``xcomp``, ``parataxis`` …), as its
    clausal subject, or None.

    The predicate has no subordinator and no subject of its own, and is a verb of
    :data:`~rublimp.trees.verbs.MODAL_IMPERSONAL_LEMMAS` («Идентифицировать имя пока не удаётся»,
    «у брата и доводится лакомиться»), a predicative, or a neuter past or short participle with the
    infinitive before it («Мне долго жить выпало», «Говорить мне приказано»; not «Уйти, как было
    сказано»: a clause of its own).
    """
    head = sent.head_of(pred)
    if head is None or not is_infinitive(head) or pred.base_deprel not in _UNDER_INF_RELS:
        return None
    # an nsubj that can be no nominative («мне преступленьем казалось»: an instrumental) is a misparsed
    # complement, not a subject of its own
    if any(
        k.base_deprel in ("mark", "csubj", "expl") or (k.base_deprel == "nsubj" and not _oblique_subject(k))
        for k in sent.children(pred)
    ):
        return None
    if modal_impersonal(pred):
        return head
    f = agreeing.feats
    neuter_form = pred is agreeing and f.get("Gender") == "Neut" and (f.get("Tense") == "Past" or f.get("Variant") == "Short")
    if head.id < pred.id and (is_predicative(pred) or neuter_form):
        return head
    return None


def _misattached_object(tok: Token, agreeing: Token) -> bool:
    """An nsubj noun or pronoun of a default-form (3sg.N) predicate that cannot agree with it but reads as an accusative.

    «Дом достроить удалось», «Дрова колоть было некогда»:
    the object of the infinitive, attached to the predicate as its subject.
    """
    if tok.base_deprel != "nsubj" or tok.upos not in ("NOUN", "PROPN", "PRON") or not is_default_form(agreeing):
        return False
    if tok.feats.get("Case") == "Gen":
        return False  # a genitive subject («детей не было») is a subject kind of its own
    return agrees_as_nominative(tok, agreeing) is None and object_like(tok)


def chto_beside_a_genitive(sent: Sentence, tok: Token, agreeing: Token) -> bool:
    """«что» labelled nsubj of a negated default-form predicate that also has a bare genitive nominal.

    «А что, травм не бывает?», «И что ничего не случилось»: «что» is a
    particle or conjunction, and the genitive is the subject.
    """
    if tok.base_deprel != "nsubj" or normalize(tok.lemma) != "что" or not is_default_form(agreeing):
        return False
    pred = sent.head_of(tok)
    if pred is None or not negated_by_ne(sent, pred, agreeing):
        return False
    return any(
        k.id != tok.id and k.base_deprel in _GEN_RELS and k.upos in ("NOUN", "PROPN", "PRON") and bare_case(sent, k, "Gen")
        for k in sent.children(pred)
    )


_NOMINAL_OR_MODIFIER = frozenset({"NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"})


#: the words after «всё» that make an adverbial of it («всё равно», «всё же», «всё-таки», «всё ещё»)
_VSYO_PARTICLES = frozenset({"равно", "же", "таки", "-таки", "ещё", "еще"})
#: words before a negated predicate that a genitive subject may be separated from it by
_GENITIVE_GAP_UPOS = frozenset({"ADV", "PART", "ADP", "DET", "ADJ"})


#: «больше/более» before a pronoun under negation: "any more"
_ANY_MORE = frozenset({"больше", "более"})
#: 3rd-person pronouns, which no quantity word quantifies
_PERSONAL_3RD = frozenset({"он", "она", "оно", "они"})


def _genitive_only(sent: Sentence, tok: Token) -> bool:
    """A known noun or pronoun without a preposition that pymorphy3 reads only as a genitive, whatever
    its tag («у ней усиков не было» with «усиков» tagged dative)."""
    if any(k.deprel == "case" for k in sent.children(tok)) or not is_known(tok.form.lower()):
        return False
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    return bool(parses) and all("gent" in p.tag.grammemes or "gen2" in p.tag.grammemes for p in parses)


def _word_order_genitive(sent: Sentence, pred: Token, agreeing: Token) -> Token | None:
    """The genitive subject of a negated intransitive predicate read from word order, when the parser
    hung it elsewhere («самой Бинду Гарнет не было» as an nsubj of another verb, «этих в камере уже не
    было» as a determiner of «камере», «полоски плёнки на ней не хватает» as a conjunct).

    The words before the predicate back to a clause boundary (the sentence start, punctuation, a
    conjunction) may be only adverbs (no quantity words), particles, modifiers, prepositional phrases,
    bare datives (the experiencer: «денег мне не хватает») and bare genitive nouns, pronouns or
    determiners and adjectives standing for a noun («такого»), at least one of the latter; none may
    read (pymorphy3) as a nominative agreeing with the predicate, and no word may contain a digit
    («12 декабря не является»: a date).
    The leftmost genitive is the subject. Any other word (a verb, a nominative, an accusative, a
    numeral) leaves the predicate alone: the genitive may be some verb's object or quantified.
    """
    found: list[Token] = []
    for t in reversed(sent.tokens[: min(pred.id, agreeing.id) - 1]):
        if any(c.isdigit() for c in t.form):
            return None  # «12 декабря не является выходным»: a date, not a genitive subject
        nxt = sent.tokens[t.id] if t.id < len(sent.tokens) else None
        if normalize(t.form) in ("все", "всё") and nxt is not None and normalize(nxt.form) in _VSYO_PARTICLES:
            continue  # «наших слов всё равно не хватает»: the adverbial «всё равно», «всё же»
        if t.upos in ("DET", "ADJ") and bare_case(sent, t, "Gen") and (nxt is None or nxt.upos not in _NOMINAL_OR_MODIFIER):
            # «поскольку такого не существует»: a determiner or adjective standing for a noun
            found.append(t)
            continue
        if t.upos in _GENITIVE_GAP_UPOS or (t.upos == "NUM" and normalize(t.lemma) == "один"):
            if t.upos == "ADV" and normalize(t.lemma) in QUANT_WORDS:
                return None
            continue
        if t.upos in ("NOUN", "PROPN", "PRON"):
            if after_preposition(sent, t):
                continue
            if agrees_as_nominative(t, agreeing) is not None:
                return None
            if bare_case(sent, t, "Gen") or _genitive_only(sent, t):
                found.append(t)
                continue
            if bare_case(sent, t, "Dat") and dative_reading(t):
                continue
            return None
        if t.upos not in ("PUNCT", "CCONJ", "SCONJ"):
            return None
        break
    if found:
        return found[-1]
    # after the predicate: the first nominal outside a prepositional phrase («не было времени думать»)
    for t in sent.tokens[max(pred.id, agreeing.id):]:
        if any(c.isdigit() for c in t.form):
            return None
        nxt = sent.tokens[t.id] if t.id < len(sent.tokens) else None
        substantive = t.upos in ("DET", "ADJ") and (nxt is None or nxt.upos not in _NOMINAL_OR_MODIFIER)
        if t.upos in ("NOUN", "PROPN", "PRON") or substantive:
            if t.upos != "PRON" and after_preposition(sent, t):
                continue
            if t.upos == "PRON" and any(k.deprel == "case" for k in sent.children(t)):
                continue
            before = word_before(sent, t)
            if before is not None and before.upos == "NOUN" and before.id > max(pred.id, agreeing.id):
                return None  # «не было на участке дорог»: possibly the genitive of that noun («в доме отца»)
            ok = bare_case(sent, t, "Gen") and agrees_as_nominative(t, agreeing) is None
            return t if ok else None
        if t.upos in _GENITIVE_GAP_UPOS or _conditional_by(t):
            if t.upos == "ADV" and normalize(t.lemma) in QUANT_WORDS:
                return None
            continue
        return None
    return None


def _conditional_by(tok: Token) -> bool:
    """The conditional particle «бы»/«б», whatever its tag («Не было бы и всех её последствий»)."""
    return normalize(tok.form) in ("бы", "б")


def split_genitive_modifier(edge: AgreementEdge, kid: Token) -> bool:
    """Whether ``kid``, a pronominal or adjectival word labelled as a second subject of a genitive subject's
    predicate, is that genitive's own modifier split off by the parser («Сертификации тоже никакой не
    проводится» with «никакой» tagged nominative): a DET/ADJ whose form reads as a genitive adjective of the
    subject's number (and gender, in the singular)."""
    subj = edge.subject
    if edge.subject_kind != "genitive" or kid.upos not in ("DET", "ADJ") or kid.base_deprel != "nsubj":
        return False
    number = UD2OC["Number"].get(subj.feats.get("Number", ""))
    gender = UD2OC["Gender"].get(subj.feats.get("Gender", "")) if number == "sing" else None
    return number is not None and any(
        p.tag.POS == "ADJF" and "gent" in p.tag.grammemes and p.tag.number == number
        and (gender is None or p.tag.gender == gender)
        for p in get_morph().parses(kid.form)
    )


def object_of_impersonal_infinitive(edge: AgreementEdge, kid: Token) -> bool:
    """Whether ``kid``, an ``nsubj`` beside the infinitive subject of a verb that takes one only
    impersonally (:func:`~rublimp.trees.verbs.infinitive_only_impersonal`), is no subject but the
    experiencer or the infinitive's object: tagged in, or read by pymorphy3 (guesses included) as, a
    dative, accusative or genitive noun, pronoun or numeral («Нате не следует сообщать», «его удастся
    уговорить», «всё удаётся исполнить», «Сколько раз пришлось»); a nominative only («Младой») is
    another clause's subject."""
    if edge.subject_kind != "clausal" or kid.base_deprel != "nsubj" or not infinitive_only_impersonal(edge.agreeing):
        return False
    return _oblique_reading(kid)


def _oblique_reading(kid: Token) -> bool:
    """Tagged in, or read by pymorphy3 (guesses included) as, a dative, accusative or genitive noun,
    pronoun or numeral."""
    if kid.feats.get("Case") in ("Acc", "Dat", "Gen"):
        return True
    return any(
        p.tag.POS in ("NOUN", "NPRO", "NUMR") or {"Apro", "Subx"} <= set(p.tag.grammemes)
        for p in get_morph().parses(kid.form) if {"datv", "accs", "gent"} & set(p.tag.grammemes)
    )


#: pronouns that, as the «subject» of «было» + infinitive, are the infinitive's object («Что было делать?»)
_WH_OBJECTS = frozenset({"что", "чего", "это", "всё", "все"})


def stray_nominative(sent: Sentence, edge: AgreementEdge) -> bool:
    """A nominative nominal among the arguments of the predicate (or of its xcomp chain).

    With a default-agreement predicate this almost always means that the
    parser missed the real nominative subject («не может спуститься котёнок»).
    """
    stack = [edge.predicate]
    while stack:
        node = stack.pop()
        for kid in sent.children(node):
            if kid.id == edge.subject.id:
                continue
            if kid.deprel == "xcomp":
                stack.append(kid)
            if (
                kid.base_deprel in ("obj", "iobj", "obl", "nsubj", "dep", "xcomp")
                and kid.upos in ("NOUN", "PROPN", "PRON")
                and kid.feats.get("Case") == "Nom"
                and not (edge.subject_kind == "clausal" and object_like(kid))
                and not (edge.subject_kind == "genitive" and chto_beside_a_genitive(sent, kid, edge.agreeing))
                and not disagreeing_nominative(kid, edge.agreeing)
                and not (edge.subject_kind == "genitive" and is_intransitive(edge.agreeing) and is_vocative(sent, kid))
                and not (edge.subject_kind == "clausal" and is_vocative(sent, kid))
                # «Тасе (tagged nominative) следует думать»: an iobj that reads as a dative
                and not (kid.base_deprel == "iobj" and dative_reading(kid))
                # «Нате не следует сообщать», «всё удаётся исполнить»: beside its infinitive subject a verb
                # that takes one only impersonally has no nominative subject; a form with an oblique reading
                # is the experiencer or the infinitive's object
                and not object_of_impersonal_infinitive(edge, kid)
                # «Мысль в том, что объекта не существует»: a nominal of the clause above; «…, ибо золото …»:
                # of the clause below
                and not before_own_subordinator(sent, node, kid)
                and not behind_subordinate_opening(sent, node, kid)
            ):
                return True
    return False


def default_agreement_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """Genitive and clausal subject contexts that the parser left without an nsubj/csubj edge.

    Only predicates in the default form 3sg.N with no subject of their own
    qualify (an nsubj that cannot be a nominative, :func:`_oblique_subject`,
    or cannot agree but reads as an accusative, :func:`_misattached_object`,
    does not count: «Ему жалко стало ребят будить», «дом достроить
    удалось»; no genitive subject is looked for then); each gives one
    edge whose ``subject`` is the infinitive or the genitive nominal
    (``subject_kind`` ``clausal`` / ``genitive``). The infinitive may also
    hang below such a misparsed object, or be the root above a predicative
    («Но решить это было нелегко»); the genitive may hang below an adverb
    of the predicate («Брата дома не было»), or after a prepositional name
    or pronoun of the predicate («Не было на Руси степей»).
    """
    # an «other» edge whose subject can be no nominative at all is a misparsed object, not a subject;
    # so is a «subject» that cannot agree with its default-form predicate but reads as an accusative
    misparsed = {e.subject.id for e in real if _oblique_subject(e.subject) or _misattached_object(e.subject, e.agreeing)}
    # beside an infinitive, the «subject» of a verb that takes one only impersonally is its object or
    # experiencer when it reads so («Это тебе придётся на улице отираться»)
    misparsed |= {
        e.subject.id for e in real
        if any(is_infinitive(k) and k.base_deprel in _INF_RELS for k in sent.children(e.predicate))
        and object_of_impersonal_infinitive(dataclasses.replace(e, subject_kind="clausal"), e.subject)
    }
    # «Мало кому удалось стрелы уберечься»: a genitive labelled the nsubj of a verb that takes an infinitive
    # only impersonally, with an infinitive hung below it, is that infinitive's object
    misparsed |= {
        e.subject.id for e in real
        if e.subject.base_deprel == "nsubj" and infinitive_only_impersonal(e.agreeing) and bare_case(sent, e.subject, "Gen")
        and any(is_infinitive(g) and g.base_deprel in _INF_RELS for g in sent.children(e.subject))
    }
    # «Что было сказывать о деле?»: «было» + infinitive is impersonal; a «что/это/всё» labelled the
    # infinitive's subject is its object
    misparsed |= {
        e.subject.id for e in real
        if is_infinitive(e.predicate) and is_byt(e.agreeing) and e.agreeing.feats.get("Tense") == "Past"
        and e.subject.base_deprel == "nsubj" and normalize(e.subject.form) in _WH_OBJECTS and _oblique_reading(e.subject)
    }
    # «что» as a particle beside the genitive subject («А что, травм не бывает?»): no subject either
    particles = {e.subject.id for e in real if chto_beside_a_genitive(sent, e.subject, e.agreeing)}
    # a nominative that cannot agree with a neuter past or short form is not its subject either, nor is
    # an address set off by commas («Придётся нам, парень, назад идти»)
    particles |= {
        e.subject.id for e in real
        if disagreeing_nominative(e.subject, e.agreeing) or (is_default_form(e.agreeing) and is_vocative(sent, e.subject))
    }
    # «Было ясно, кто тут солирует»: a finite csubj clause opened by a question word (the edge layer's
    # ``other`` kind) is read below as the clausal subject of its default-form predicate
    particles |= {
        e.subject.id for e in real
        if e.subject_kind == "other" and e.subject.base_deprel == "csubj" and not is_infinitive(e.subject)
        and _finite_clause_host(e.predicate, e.agreeing) and _finite_clause_subject(sent, e.predicate, e.subject)
    }
    taken = {e.agreeing.id for e in real if e.subject.id not in misparsed | particles}
    out: list[AgreementEdge] = []
    # predicates whose agreeing word could be in the default form: the word itself, or the head of a быть
    preds: dict[int, Token] = {}
    # «На детей было жаль смотреть», «Её мечтой было стать …»: быть attached to an oblique nominal;
    # the predicative or infinitive above that nominal is the predicate (pred id -> быть)
    climbed: dict[int, Token] = {}
    for tok in sent.tokens:
        if tok.id in taken or not is_default_form(tok):
            continue
        if tok.feats.get("VerbForm") != "Fin" and tok.feats.get("Variant") != "Short":
            continue
        pred = sent.head_of(tok) if tok.deprel in ("aux", "aux:pass", "cop") and tok.head else tok
        if pred is not None and pred is not tok and is_byt(tok):
            above = _above_oblique_nominal(sent, pred)
            if above is not None and above.id not in climbed:
                climbed[above.id] = tok
                pred = above
        if pred is not None:
            preds.setdefault(pred.id, pred)
    for pred in sorted(preds.values(), key=lambda t: t.id):
        if pred.id in climbed:
            agreeing, pred_type, co = climbed[pred.id], "aux", ()
        else:
            agreeing, pred_type, co = agreeing_word(sent, pred)
        if agreeing is None or agreeing.id in taken or not is_default_form(agreeing):
            continue
        kids = sent.children(pred)
        if any(
            k.base_deprel in ("nsubj", "csubj", "expl") and not _oblique_subject(k) and k.id not in misparsed | particles
            # a csubj infinitive of a predicate reached from a misattached «было» has no edge of its own
            and not (pred.id in climbed and k.base_deprel == "csubj" and is_infinitive(k))
            for k in kids
        ):
            continue
        subj: Token | None = None
        kind = ""
        if is_infinitive(pred) and agreeing is not pred and agreeing.feats.get("Tense") == "Past":
            # «было» + infinitive; future «будет» + infinitive is the analytic future of a personal verb
            subj, kind = pred, "clausal"
        elif is_predicative(pred) or _comparative_with_byt(pred, agreeing) or (
            pred_type == "verb" and (is_byt(pred) or impersonal_verb(sent, pred))
        ):
            infs = [k for k in kids if is_infinitive(k) and k.base_deprel in _INF_RELS and not _conditional_clause(sent, k, pred)]
            if not infs and pred_type == "verb" and modal_impersonal(pred):
                # «после которых мыться придётся» with «мыться» labelled advmod: a verb that takes an
                # infinitive only impersonally has it as its subject whatever the label (also «есть»
                # "eat" taken for the copula: «если кому-нибудь нравится есть песок»)
                infs = [
                    k for k in kids if is_infinitive(k) and k.base_deprel in ("advmod", "amod", "cop")
                    and not _conditional_clause(sent, k, pred)
                ]
            if not infs and (
                is_predicative(pred) or _comparative_with_byt(pred, agreeing) or (pred_type == "verb" and modal_impersonal(pred))
            ):
                # «Надо было вам за завтраком поменьше налегать», «Робса учить было не надо»: the
                # infinitive hung below a nominal dependent of the predicative (or of a verb that takes
                # one only impersonally: «Мне следовало во всём доверяться графу»)
                infs = [
                    g for k in kids if k.base_deprel in ("obl", "nmod", "iobj", "obj") and k.upos in ("NOUN", "PROPN", "PRON")
                    for g in sent.children(k) if is_infinitive(g)
                    # «потрясать кулаками было поздно» with «потрясать» tagged as an adjective of its own
                    # object: an infinitive before a noun modifies nothing there
                    and (g.base_deprel in _INF_RELS or (g.base_deprel in ("amod", "det") and g.id < k.id))
                    and not _conditional_clause(sent, g, pred)
                ]
            if agreeing is not pred:
                # «Мне неважно было – … справить торг»: the infinitive attached to «было» itself
                infs += [k for k in sent.children(agreeing) if is_infinitive(k) and k.base_deprel in _INF_RELS]
            # «Дорогу его найти было трудно»: the infinitive hangs below the misparsed object
            infs += [g for k in kids if k.id in misparsed for g in sent.children(k) if is_infinitive(g) and g.base_deprel in _INF_RELS]
            head = sent.head_of(pred)
            if not infs and is_predicative(pred) and head is not None and head.head == 0 and is_infinitive(head):
                # «Но решить это было нелегко»: the parser made the infinitive the root
                infs = [head]
            if not infs and _infinitive_above(sent, pred, agreeing) is not None:
                infs = [head]
            if infs:
                subj, kind = infs[0], "clausal"
        elif pred_type == "verb" and (equated := _infinitive_meaning_infinitive(sent, pred, agreeing)) is not None:
            # «Отправить в Сочи – значило ликвидировать» with the first infinitive labelled xcomp
            subj, kind = equated, "clausal"
        elif _infinitive_above(sent, pred, agreeing) is not None:
            # «Мне долго жить выпало», «Только говорить мне приказано»: a neuter past or short
            # participle hung below the infinitive before it
            subj, kind = sent.head_of(pred), "clausal"
        seeming = _seeming_with_experiencer(sent, pred, agreeing)
        if subj is None and (_finite_clause_host(pred, agreeing) or seeming):
            # «Потом выяснилось – просто били человека», «Мало сказано, почему он ушёл»: a finite clause
            # labelled ccomp/parataxis is the subject of an impersonal neuter predicate
            clauses = [k for k in kids if _finite_clause_subject(sent, pred, k, comma_ok=seeming)]
            if clauses:
                subj, kind = clauses[0], "clausal"
        # a neuter short passive participle takes the genitive of negation as its subject too («изменений не
        # замечено», «денег не получено»): its object is the subject already
        passive = pred is agreeing and pred.feats.get("Voice") == "Pass" and pred.feats.get("Variant") == "Short"
        if subj is None and (pred_type == "verb" and is_intransitive(pred) or passive) and not any(k.id in misparsed for k in kids):
            gens = [
                k for k in kids
                if k.base_deprel in _GEN_RELS and k.upos in ("NOUN", "PROPN", "PRON", "DET", "ADJ")
                and bare_case(sent, k, "Gen")
            ]
            # «Брата дома не было», «никаких гостей здесь не было»: the genitive hung below an adverb
            # of the predicate (an adverb takes no genitive; quantity words excepted)
            gens += [
                g for k in kids if k.upos in ("ADV", "PART") and normalize(k.lemma) not in QUANT_WORDS
                for g in sent.children(k)
                if g.upos in ("NOUN", "PROPN", "PRON", "DET", "ADJ") and bare_case(sent, g, "Gen")
            ]
            # «Больше её для тебя не существует»: a personal pronoun hung on «больше/более» before it is not
            # quantified («больше» is "any more" there, as in :func:`genitive_of_negation`)
            gens += [
                g for k in kids if normalize(k.form) in _ANY_MORE
                for g in sent.children(k)
                if g.id > k.id and g.upos == "PRON" and normalize(g.lemma) in _PERSONAL_3RD and bare_case(sent, g, "Gen")
            ]
            # «Не было на Руси степей»: the genitive hung below a prepositional name or pronoun of the
            # predicate, after it (names and pronouns take no genitive of their own)
            gens += [
                g for k in kids if k.upos in ("PROPN", "PRON") and any(c.deprel == "case" for c in sent.children(k))
                for g in sent.children(k)
                if g.id > k.id and g.base_deprel in ("nmod", "appos") and g.upos == "NOUN"
                and (bare_case(sent, g, "Gen") or _animate_accusative_genitive(sent, g))
            ]
            if not gens and (negated_by_ne(sent, pred, agreeing) or ne_before(sent, agreeing)):
                gens = [g for g in [_word_order_genitive(sent, pred, agreeing)] if g is not None]
            if gens:
                subj, kind = gens[0], "genitive"
        if subj is None:
            continue
        negated = negated_by_ne(sent, pred, agreeing) or ne_before(sent, agreeing)
        if kind == "genitive" and not negated:
            continue
        edge = AgreementEdge(
            sent_id=sent.sent_id, subject=subj, predicate=pred, agreeing=agreeing, pred_type=pred_type,
            order="SV" if subj.id < agreeing.id else "VS", conf=head_conf(sent, subj), subject_kind=kind,
            negated=negated, co_agreeing=co,
        )
        if stray_nominative(sent, edge):
            continue
        taken.add(agreeing.id)
        out.append(edge)
    return out
