"""The verb repair family and the predicate tests of the agreement contexts.

* :func:`retag_verbs`: finite verbs and short forms the tagger gave another part of speech, retagged
  from pymorphy3 (a new sentence; the input is never changed). It returns at once on a sentence
  marked :data:`RETAG_VERBS_NO_OP` (the normalisation pass marks the trees it knows it leaves alone).
* :func:`predicate_features`: an agreeing word's number, gender and person from pymorphy3 where the
  tagger contradicts every verbal reading of its form (a token fix of the normalisation pass);
  :func:`repair_edge` applies it to an edge; :func:`negation_repair`: «не» right before it (an edge
  attribute, no token change).
* Predicate tests: :func:`is_default_form` (3sg.N), :func:`is_infinitive`, :func:`is_predicative`,
  :func:`impersonal_verb`, :func:`is_intransitive`, :func:`bare_case`.
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import OC2UD, get_morph
from .edges import AgreementEdge, is_byt
from .lexical import infinitive_only, is_known, unique_verbal_reading, verbal_only_reading
from .memo import sentence_memo_get

__all__ = [
    "retag_verbs",
    "RETAG_VERBS_NO_OP",
    "repair_edge",
    "predicate_features",
    "ne_before",
    "negation_repair",
    "is_default_form",
    "is_infinitive",
    "is_predicative",
    "bare_case",
    "impersonal_verb",
    "is_intransitive",
    "MODAL_IMPERSONAL_LEMMAS",
    "infinitive_only_impersonal",
    "modal_impersonal",
]


#: sentence-memo key (:mod:`rublimp.trees.memo`): True on a sentence known to be one that
#: :func:`retag_verbs` returns unchanged. Only :func:`rublimp.trees.normalise.normalise` sets it, on a
#: normalised tree when ``retag_verbs`` changed nothing during the pass and no later fix changed a
#: token: ``retag_verbs`` reads only the ids, forms, parts of speech, lemmas, features, heads and
#: relations, so on the same values it again changes nothing. (It is not idempotent in general: an
#: infinitive it makes the ``csubj`` of an adverb lets the next run retag that adverb, so a tree it
#: changed gets no mark and is read again.)
RETAG_VERBS_NO_OP = "retag_verbs.no_op"


def retag_verbs(sent: Sentence) -> Sentence:
    """``sent`` with finite verbs and short forms that the tagger gave another POS or a non-finite form retagged.

    A token qualifies when pymorphy3 knows its form and reads it only as an
    indicative verb, short participle or short adjective, all with one
    number, gender and person (:func:`verbal_only_reading`): «покачивалась» tagged
    NOUN, «отвесили» ADJ, «наливался» a long participle, «умолкал» a short
    adjective (a short form is retagged only as a finite verb). It gets that
    reading's UPOS, lemma and features; head and relation stay. A form that
    pymorphy3 reads only as an infinitive (:func:`infinitive_only`:
    «прополоскать» tagged NOUN, «подворачиваться» a finite verb) becomes an
    infinitive, and as ``nsubj`` a clausal subject (``csubj``). A capitalised
    PROPN inside a clause is a name and stays («Вадима Юсова», «с Хилы»). Returns
    ``sent`` itself when nothing changes, else a copy (token ids are kept,
    so edits made on the copy apply to ``sent``). An adverb with an infinitive subject that is also a neuter
    short adjective becomes that short form (:func:`_predicative_short_form`); a word tagged as a finite
    verb with no verbal reading at all loses the verb tag (:func:`_no_verb_reading`). A sentence marked
    :data:`RETAG_VERBS_NO_OP` is returned at once.
    """
    if sentence_memo_get(sent, RETAG_VERBS_NO_OP):
        return sent
    changed = False
    tokens = list(sent.tokens)
    for i, tok in enumerate(tokens):
        if _name_inside_clause(tokens, i):
            continue
        infinitive_aspect = infinitive_only(tok.form.lower()) if tok.feats.get("VerbForm") != "Inf" else None
        if infinitive_aspect:
            # «прополоскать» tagged NOUN, «подворачиваться» a finite verb: an infinitive; as a subject it is clausal
            aspect = "Perf" if infinitive_aspect == "perf" else "Imp"
            deprel = "csubj" + tok.deprel[len("nsubj"):] if tok.base_deprel == "nsubj" else tok.deprel
            tokens[i] = dataclasses.replace(tok, upos="VERB", lemma=tok.form.lower(), feats={"Aspect": aspect, "VerbForm": "Inf"}, deprel=deprel)
            changed = True
            continue
        short = _predicative_short_form(sent, tok)
        if short is not None:
            tokens[i] = short
            changed = True
            continue
        if tok.upos in ("VERB", "AUX") and tok.feats.get("VerbForm") == "Fin":
            other = _no_verb_reading(tok)
            if other is not None:
                # «мигом», «небось», «старушка» tagged as a finite verb: pymorphy3 knows the form and has no
                # verbal reading of it; its subject dependents go to the verb it hangs on
                tokens[i] = other
                head = tokens[tok.head - 1] if tok.head else None
                if head is not None and head.upos in ("VERB", "AUX") and head.feats.get("VerbForm") == "Fin":
                    for j, kid in enumerate(tokens):
                        # only a subject before both, with no punctuation up to the verb («Алёна мигом заменила»)
                        if kid.head == tok.id and kid.base_deprel == "nsubj" and kid.id < tok.id < head.id and not any(
                            t.upos == "PUNCT" for t in tokens[kid.id: head.id - 1]
                        ):
                            tokens[j] = dataclasses.replace(kid, head=head.id)
                changed = True
            continue
        if tok.feats.get("VerbForm") == "Inf":
            # an infinitive spelt as a finite form («согласится» for «согласиться») stays an infinitive
            continue
        reading = verbal_only_reading(tok.form.lower())
        if reading is None:
            continue
        upos, lemma, feats = reading
        if tok.feats.get("Variant") == "Short" and feats.get("VerbForm") != "Fin":
            continue  # a short form stays as the tagger has it unless it can only be a finite verb («умолкал»)
        tokens[i] = dataclasses.replace(tok, upos=upos, lemma=lemma, feats=feats)
        changed = True
    if not changed:
        return sent
    return Sentence(sent_id=sent.sent_id, text=sent.text, tokens=tokens, domain=sent.domain, meta=sent.meta)


def _predicative_short_form(sent: Sentence, tok: Token) -> Token | None:
    """An adverb in -о with an infinitive subject of its own (``csubj``) and no copula (a conditional «бы»
    may stand beside it: «Неплохо бы уехать»), read by pymorphy3
    as a neuter singular short adjective too («найти камушек непросто», «добиваться ответа нехорошо»):
    the present-tense predicate, retagged as that short form (ADJ, Variant=Short); None otherwise."""
    if tok.upos != "ADV" or not any(k.base_deprel == "csubj" and k.feats.get("VerbForm") == "Inf" for k in sent.children(tok)):
        return None
    if any(k.deprel in ("cop", "aux", "aux:pass") and normalize(k.form) not in ("бы", "б") for k in sent.children(tok)):
        return None  # a copula carries the agreement; the conditional «бы» does not («Неплохо бы уехать»)
    for p in get_morph().parses(tok.form):
        if p.tag.POS == "ADJS" and {"neut", "sing"} <= set(p.tag.grammemes):
            feats = {"Degree": "Pos", "Gender": "Neut", "Number": "Sing", "Variant": "Short"}
            return dataclasses.replace(tok, upos="ADJ", lemma=p.normal_form, feats=feats)
    return None


#: pymorphy3 parts of speech of a form that may be read as a verb or predicate
_VERBAL_POS = frozenset({"VERB", "INFN", "PRTS", "PRTF", "GRND", "ADJS", "PRED"})
#: the UD part of speech of a form with no verbal reading, by its pymorphy3 parts of speech (first match)
_NON_VERB_UPOS = (("ADVB", "ADV"), ("NOUN", "NOUN"), ("ADJF", "ADJ"), ("PRCL", "PART"), ("INTJ", "INTJ"), ("CONJ", "CCONJ"))


def _no_verb_reading(tok: Token) -> Token | None:
    """``tok`` (tagged as a finite verb) retagged when pymorphy3 knows its form (lower-case, not a name)
    and reads it as no verb, participle, short form or predicative at all: a noun gets the case, number,
    gender and animacy of its first noun reading, an adjective its case, number and gender, any other
    word no features; None when a verbal reading exists."""
    form = tok.form.lower()
    if not is_known(form) or (tok.form[:1].isupper() and tok.id > 1):
        return None
    parses = get_morph().parses(tok.form)
    pos = {p.tag.POS for p in parses}
    if not pos or pos & _VERBAL_POS:
        return None
    for oc, ud in _NON_VERB_UPOS:
        if oc in pos:
            break
    else:
        return None
    reading = next(p for p in parses if p.tag.POS == oc)
    feats: dict[str, str] = {}
    if ud in ("NOUN", "ADJ"):
        for attr in ("case", "number", "gender", "animacy"):
            val = getattr(reading.tag, attr)
            mapped = OC2UD.get(val) if val else None
            if mapped is not None and (ud == "NOUN" or attr != "animacy"):
                feats[mapped[0]] = mapped[1]
    return dataclasses.replace(tok, upos=ud, lemma=reading.normal_form, feats=feats)


def _name_inside_clause(tokens: list[Token], i: int) -> bool:
    """A capitalised PROPN neither first in the sentence nor right after punctuation: a name, not a verb
    the tagger missed (on GSD re-parsed every such retag was wrong: «Мерло», «Юсова», «ЛИТО»)."""
    tok = tokens[i]
    return tok.upos == "PROPN" and tok.form[:1].isupper() and i > 0 and tokens[i - 1].upos != "PUNCT"


def repair_edge(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """The edge with its agreeing word read by :func:`predicate_features` (the edge itself when that
    changes nothing). On a normalised tree the ``predicate_features`` fix has already done it, so
    this changes no token there; it stays for edges read from an unnormalised tree."""
    tok = predicate_features(edge.agreeing)
    return edge if tok is edge.agreeing else dataclasses.replace(edge, agreeing=tok)


def predicate_features(tok: Token) -> Token:
    """``tok`` with its Number/Gender/Person/Tense taken from pymorphy3 where they are unambiguous.

    Applies to a word that is not imperative when every verbal reading (VERB, PRTS, ADJS) of its form
    has the same number, gender, person and tense and the tagger's features differ: then those four
    are set from that reading (Tense only where the tagger gave one; Gender and Person dropped where
    the reading has none). Reads only the form and the tagger's features; ``tok`` itself when nothing
    changes.
    """
    if tok.feats.get("Mood") == "Imp":
        return tok
    reading = unique_verbal_reading(tok.form.lower())
    if reading is None:
        return tok
    (number, gender, person, tense) = reading
    feats = dict(tok.feats)
    for feat, oc in (("Number", number), ("Gender", gender), ("Person", person), ("Tense", tense)):
        if feat == "Tense" and "Tense" not in feats:
            continue
        ud = OC2UD.get(oc) if oc is not None else None
        if ud is not None and ud[0] == feat:
            feats[feat] = ud[1]
        elif oc is None:
            feats.pop(feat, None)
    if feats == tok.feats:
        return tok
    return dataclasses.replace(tok, feats=feats)


def ne_before(sent: Sentence, tok: Token) -> bool:
    """Whether the word right before ``tok`` is «не» («Ну не было на Руси степей» with «не» attached to «Руси»)."""
    return tok.id > 1 and normalize(sent.tokens[tok.id - 2].form) == "не"


def negation_repair(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """The edge marked negated when «не» stands right before its agreeing word but the parser attached it elsewhere.

    A subject tagged genitive that :func:`subject_predicate_edges` demoted to
    ``other`` for want of negation gets its genitive kind back through
    :func:`case_repair`.
    """
    if edge.negated or not ne_before(sent, edge.agreeing):
        return edge
    return dataclasses.replace(edge, negated=True)


def is_default_form(tok: Token) -> bool:
    f = tok.feats
    return (
        f.get("Number") == "Sing"
        and f.get("Gender", "Neut") == "Neut"
        and f.get("Person", "3") == "3"
    )


def is_infinitive(tok: Token) -> bool:
    return tok.feats.get("VerbForm") == "Inf"


def is_predicative(tok: Token) -> bool:
    """«нужно», «нельзя», «трудно», «необходимо»: a predicative adverb or a neuter short adjective."""
    if tok.upos == "ADJ" and tok.feats.get("Variant") == "Short" and tok.feats.get("Gender") in (None, "Neut"):
        return True
    if tok.upos in ("ADV", "ADJ", "NOUN", "PART"):
        return any(p.tag.POS == "PRED" or (p.tag.POS == "ADJS" and "neut" in p.tag.grammemes)
                   for p in get_morph().parses(tok.form))
    return False


def bare_case(sent: Sentence, tok: Token, case: str) -> bool:
    return tok.feats.get("Case") == case and not any(k.deprel == "case" for k in sent.children(tok))


#: verbs that take an infinitive only impersonally («придётся уйти», «удаётся понять», «доводится
#: бывать», «не получается идти», «полагается посещать», «нравится гулять», «следует сообщить»); with a
#: nominative subject they mean something else («пирог удался», «он следует за ней») and take no
#: infinitive. Not «стоить»: its 1st/2nd person «стою/стоишь» is also «стоять», which takes an
#: infinitive of purpose («стою ждать»)
MODAL_IMPERSONAL_LEMMAS = frozenset({
    "прийтись", "приходиться", "удаться", "удаваться", "доводиться", "довестись", "получаться", "получиться",
    "полагаться", "нравиться", "понравиться", "следовать",
})
#: the verbs of :data:`MODAL_IMPERSONAL_LEMMAS` that are not reflexive
_NON_REFLEXIVE_MODALS = frozenset({"следовать"})


def modal_impersonal(verb: Token) -> bool:
    """A verb of :data:`MODAL_IMPERSONAL_LEMMAS` in its impersonal (reflexive, where it has one) form."""
    lemma = normalize(verb.lemma)
    return lemma in MODAL_IMPERSONAL_LEMMAS and (
        lemma in _NON_REFLEXIVE_MODALS or verb.form.lower().endswith(("ся", "сь"))
    )


#: verbs of :data:`MODAL_IMPERSONAL_LEMMAS` that the parser often gives a nominative subject beside an
#: infinitive of another clause («Маша мне нравится, гулять …»)
_PERSONAL_TOO = frozenset({"нравиться", "понравиться"})


def infinitive_only_impersonal(verb: Token) -> bool:
    """A verb that takes an infinitive only impersonally (:func:`modal_impersonal`), other than
    «нравиться»: beside its infinitive subject a nominal is no subject of it but the infinitive's
    object or the experiencer («его наверняка удастся уговорить», «Нате не следует сообщать»)."""
    return modal_impersonal(verb) and normalize(verb.lemma) not in _PERSONAL_TOO


def impersonal_verb(sent: Sentence, verb: Token) -> bool:
    """A finite verb used impersonally (asked where an infinitive is its subject candidate).

    A neuter past with a bare dative experiencer («ему удалось»), a reflexive
    form with one («нам придётся», «мне хочется»), a verb pymorphy3 marks
    impersonal, a neuter reflexive past («полагалось пить»), or a verb of
    :data:`MODAL_IMPERSONAL_LEMMAS` in any form («если убегать придётся»). A present-tense
    non-reflexive verb with a dative («помогает мне убирать») may have a dropped
    personal subject, so it does not qualify.
    """
    if modal_impersonal(verb):
        return True
    form = verb.form.lower()
    reflexive = form.endswith(("ся", "сь"))
    neut_past = verb.feats.get("Tense") == "Past" and verb.feats.get("Gender") == "Neut"
    dative = any(
        k.base_deprel in ("iobj", "obl", "nmod") and bare_case(sent, k, "Dat") and k.upos in ("NOUN", "PROPN", "PRON")
        for k in sent.children(verb)
    )
    impe = any("Impe" in p.tag.grammemes for p in get_morph().parses(verb.form) if p.tag.POS == "VERB")
    return (dative and (neut_past or reflexive)) or impe or (neut_past and reflexive)


#: verbs of (in)sufficiency: their transitive homonym («хватать» 'grab') takes no genitive of
#: negation next to a dative, so with one they are read intransitive («нам денег не хватает»)
_INSUFFICIENCY_LEMMAS = frozenset({"хватать", "хватить", "недоставать", "недостать"})


def is_intransitive(tok: Token) -> bool:
    if is_byt(tok):
        return True
    if normalize(tok.lemma) in _INSUFFICIENCY_LEMMAS:
        return True
    a = get_morph().analyse(tok.form, tok.upos, tok.feats)
    return a is not None and "intr" in a.tag.grammemes
