"""Repairs of the subject of a subject–predicate edge (the careful set every agreement paradigm reads).

* :func:`case_repair`, :func:`subject_repair`: the subject's case and number from pymorphy3 where
  the tag contradicts the predicate; :func:`pronoun_repair`: «кто»-pronouns and «все».
* :func:`unlabelled_subject_edges`: nominative subjects the parser attached as objects.
* :func:`sibling_subject_edges`: subjects the parser hung on a modifier of their verb;
  :func:`buried_subject_edges`: nominative subjects hung below another nominal of their clause.
* :func:`stranded_subject_edges`: verbs hung below their own subject's noun phrase.
* :func:`object_reading`: whether a nominative-looking subject could as well be the object of a
  transitive verb with an unexpressed subject (then it is left alone).
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import OC2UD, UD2OC, get_morph
from .edges import AgreementEdge, agreeing_word, head_conf, negated_by_ne
from .lexical import GENITIVE_PERSONAL_FORMS, KTO_PRONOUNS, is_known, noun_only_guessing, verb_form_only, verbal_only_reading
from .readings import (after_nominal, after_preposition, agrees_as_nominative, no_accusative_reading, nominative_feats,
                       object_like, other_object)
from .verbs import is_default_form, is_infinitive, is_intransitive

__all__ = [
    "case_repair",
    "misread_subject",
    "pronoun_repair",
    "subject_repair",
    "unlabelled_subject_edges",
    "sibling_subject_edges",
    "buried_subject_edges",
    "reflexive_infinitive_subject_edges",
    "stranded_subject_feats",
    "stranded_subject_edges",
    "object_reading",
]


#: the genitive forms of the 3rd-person pronouns, which the tagger may take for possessive determiners


def case_repair(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """The subject kind of an nsubj that the tagger gave an oblique case.

    * Negated default predicate, subject tagged accusative or dative but
      readable as genitive: a genitive subject («нас не станет», «его не
      оказывается», «жизни не хватит»).
    * Not negated, a noun tagged genitive/dative/… that pymorphy3 reads as a
      nominative of the parser's number (and of the predicate's gender where it marks one): a
      nominal subject («Сашка лежит», «Протока … соединяет» tagged genitive); not where
      :func:`misread_subject` holds («каждый год мусора становится»).
    * Negated 3sg(.N) predicate, «nominative» subject that pymorphy3 cannot
      read as a nominative agreeing with it but reads as a genitive (any
      tense; in the present and future only with an intransitive verb and a
      word pymorphy3 knows, or a neuter short form: «её и не должно быть»): a genitive subject («машины не было»,
      «мест в зале не остаётся»); this also applies to a word tagged as a verb or adjective that
      pymorphy3 reads only as a noun.
    * Negated intransitive 3sg(.N) predicate, subject «его», «её», «их» tagged as a possessive
      determiner: the genitive of the personal pronoun («Только его тут не хватает»).
    """
    subj = edge.subject
    if (
        subj.upos == "DET" and normalize(subj.form) in GENITIVE_PERSONAL_FORMS and edge.negated
        and is_default_form(edge.agreeing) and is_intransitive(edge.agreeing)
        and not any(k.deprel == "case" for k in sent.children(subj))
    ):
        # «Только его тут не хватает»: the genitive of «он» tagged as the possessive determiner
        return dataclasses.replace(edge, subject_kind="genitive")
    # a word the tagger took for a verb or adjective that pymorphy3 reads only as a noun («писем» tagged VERB)
    if edge.subject_kind not in ("other", "nominal") or (subj.upos not in ("NOUN", "PROPN", "PRON") and not noun_only_guessing(subj.form)):
        return edge
    if any(k.deprel == "case" for k in sent.children(subj)):
        return edge
    if edge.subject_kind == "nominal" and not (edge.negated and is_default_form(edge.agreeing)):
        return edge
    parses = [p for p in get_morph().parses(subj.form) if p.tag.POS in ("NOUN", "NPRO")]
    if edge.subject_kind == "nominal":
        # «машины не было», «мест в зале не остаётся»: a «nominative» that cannot agree with a negated
        # 3sg(.N) predicate but reads as a genitive is the genitive of negation
        f = edge.agreeing.feats
        want = {"nomn", "sing"} | ({"neut"} if f.get("Tense") == "Past" or f.get("Variant") == "Short" else set())
        agrees = any(want <= set(p.tag.grammemes) for p in parses)
        if (
            f.get("Tense") != "Past" and f.get("Variant") != "Short"
            and not (is_intransitive(edge.agreeing) and is_known(subj.form.lower()))
        ):
            # present/future: the genitive could be the object of a verb with a dropped subject
            # («денег не просит»), and an unknown name's «genitive» is pymorphy3's guess; a neuter short
            # form has no such subject («её и не должно быть»)
            return edge
        if not agrees and any("gent" in p.tag.grammemes for p in parses):
            return dataclasses.replace(edge, subject_kind="genitive")
        return edge
    if edge.negated and subj.feats.get("Case") in ("Acc", "Dat") and is_default_form(edge.agreeing):
        if any("gent" in p.tag.grammemes for p in parses):
            return dataclasses.replace(edge, subject_kind="genitive")
        return edge
    number = UD2OC["Number"].get(subj.feats.get("Number", ""))
    if edge.negated and edge.subject_kind == "other" and is_default_form(edge.agreeing):
        if any("gent" in p.tag.grammemes for p in parses):
            return dataclasses.replace(edge, subject_kind="genitive")
    if not edge.negated and subj.upos != "PRON" and number is not None and not misread_subject(sent, edge):
        if any({"nomn", number} <= set(p.tag.grammemes) and _predicate_gender_ok(p, edge) for p in parses):
            return dataclasses.replace(edge, subject_kind="nominal")
    return edge


def misread_subject(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the parse itself says the edge's subject is no nominative subject to re-read, so that its
    tagged case stands (:func:`case_repair`, :func:`subject_repair` leave it alone):

    * another ``nsubj`` of the same predicate is, or reads as, a nominative that agrees with it
      (:func:`_competing_subject`: «щетинки … ко времени плодоношения[nsubj] достигают», «Мальчишки[Gen],
      которые[nsubj] смеялись»): one of them is a misparse, and which one the tree does not say (not a
      later one joined by «и», a conjunct: :func:`_later_conjunct`);
    * it is an accusative time phrase (:func:`_accusative_phrase`: «каждый год мусора становится»).
    """
    if _accusative_phrase(sent, edge.subject, edge):
        return True
    return any(
        k.id != edge.subject.id and k.base_deprel == "nsubj" and not _later_conjunct(sent, edge.subject, k)
        and _competing_subject(sent, k, edge)
        for k in sent.children(edge.predicate)
    )


#: words that join a second subject to the first («Один волос исходит и дух»)
_JOINING = frozenset({"и", "или", "да"})


def _later_conjunct(sent: Sentence, subj: Token, other: Token) -> bool:
    """Whether ``other`` comes after ``subj`` with «и»/«или»/«да» of its own right before it: a conjunct
    of the subject the parser hung on the predicate («Один волос исходит и дух чижолый»), no rival."""
    return other.id > subj.id and other.id > 1 and any(
        k.id == other.id - 1 and normalize(k.form) in _JOINING for k in sent.children(other)
    )


def _accusative_phrase(sent: Sentence, tok: Token, edge: AgreementEdge) -> bool:
    """A noun tagged accusative whose determiner («каждый», «весь», «этот» …, not an adjective) is tagged
    accusative too, beside a predicate that does not show the noun's gender (a present or future verb,
    or a past or short form of another gender or number): the noun phrase is consistently an accusative
    (of time: «каждый год», «всю ночь»), not a nominative the tagger missed. (A past form of the
    noun's own gender — «Весь день прошёл» — is left to the usual repairs, and so is an adjective's
    accusative — «передвижной офис» after «будет приезжать»: the tagger's case is a guess of the
    form shared by both cases there.)"""
    if tok.feats.get("Case") != "Acc" or not any(
        k.base_deprel == "det" and k.upos == "DET" and k.feats.get("Case") == "Acc" for k in sent.children(tok)
    ):
        return False
    f = edge.agreeing.feats
    marks_gender = f.get("Number") == "Sing" and (f.get("Tense") == "Past" or f.get("Variant") == "Short")
    return not (marks_gender and f.get("Gender") == tok.feats.get("Gender"))


def _competing_subject(sent: Sentence, tok: Token, edge: AgreementEdge) -> bool:
    """Whether ``tok``, another ``nsubj`` of the edge's predicate, can itself be the nominative subject
    that agrees with it: a pronoun or determiner tagged nominative («которые»), or a noun or adjective
    without a preposition, no accusative time phrase, tagged nominative of the predicate's number or read
    by pymorphy3 as such a nominative (either way of its gender where the predicate marks one)."""
    if any(k.deprel == "case" for k in sent.children(tok)) or _accusative_phrase(sent, tok, edge):
        return False
    f = edge.agreeing.feats
    marks_gender = f.get("Number") == "Sing" and (f.get("Tense") == "Past" or f.get("Variant") == "Short")

    def agrees(feats) -> bool:
        # the tagger's number, and gender where the predicate marks one («Гробыня была само
        # смирение[Neut]»: the feminine «была» is not the neuter noun's predicate; «его похитили
        # миранды …, он[Sing]»: the plural is not «он»'s)
        return feats.get("Number") in (None, f.get("Number")) and not (
            marks_gender and feats.get("Gender") not in (None, f.get("Gender")))

    if tok.upos in ("PRON", "DET"):
        return tok.feats.get("Case", "Nom") == "Nom" and agrees(tok.feats)
    if tok.upos not in ("NOUN", "PROPN", "ADJ"):
        return False
    number = UD2OC["Number"].get(f.get("Number", ""))
    if number is None:
        return tok.feats.get("Case") == "Nom"
    if tok.feats.get("Case") == "Nom" and tok.feats.get("Number") == f.get("Number"):
        return agrees(tok.feats)
    return any(
        p.tag.POS == "NOUN" and {"nomn", number} <= set(p.tag.grammemes) and _predicate_gender_ok(p, edge)
        for p in get_morph().parses(tok.form)
    )


def _predicate_gender_ok(parse, edge: AgreementEdge) -> bool:
    """Whether a singular nominative reading ``parse`` has the gender the edge's predicate marks
    (singular past or short form; common-gender nouns and readings without gender pass): «жучка» of
    «Жучка» is no subject of «спускался»."""
    feats = edge.agreeing.feats
    gender = UD2OC["Gender"].get(feats.get("Gender", "")) if feats.get("Number") == "Sing" else None
    return gender is None or parse.tag.gender in (None, gender) or "ms-f" in parse.tag.grammemes


#: pronouns that are grammatically 3rd person singular whatever their referent («кто пришёл», «никто не знает»)


def pronoun_repair(edge: AgreementEdge) -> AgreementEdge:
    """A nominative pronoun subject's number where the tagger left it out or contradicts the predicate.

    * «кто», «никто», «кто-то» … tagged without a number: singular (they take
      3sg agreement: «никто не знает»), so that the number and person
      paradigms can read the subject's value.
    * a pronoun tagged with the other number than its predicate that
      pymorphy3 reads, with the same lemma, as a nominative of the
      predicate's number («Все (tagged singular всё) мне дают»): that number (not for a
      coordinated subject, whose predicate agrees with the coordination).
    """
    subj = edge.subject
    if edge.subject_kind != "nominal" or subj.upos not in ("PRON", "DET") or subj.feats.get("Case", "Nom") != "Nom":
        return edge
    lemma = normalize(subj.lemma)
    if lemma in KTO_PRONOUNS and "Number" not in subj.feats:
        feats = dict(subj.feats, Number="Sing")
    else:
        sv, pv = subj.feats.get("Number"), edge.agreeing.feats.get("Number")
        if edge.coordinated or sv not in ("Sing", "Plur") or pv not in ("Sing", "Plur") or sv == pv or subj.feats.get("Person") in ("1", "2"):
            return edge
        want = {"nomn", UD2OC["Number"][pv]}
        if not any(want <= set(p.tag.grammemes) and normalize(p.normal_form) == lemma for p in get_morph().parses(subj.form)):
            return edge
        feats = dict(subj.feats, Number=pv)
        if pv == "Plur":
            feats.pop("Gender", None)
    return dataclasses.replace(edge, subject=dataclasses.replace(subj, feats=feats))


def subject_repair(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """A noun subject whose tagged number or case contradicts the predicate, read by pymorphy3 as a nominative that agrees.

    «Девочки Куделки кинулись» (Девочки tagged genitive singular), «кормчие
    … знали» (tagged singular), «Телетрансляция … начнётся» (tagged ADJ): the
    subject gets Case=Nom and the predicate's number (and pymorphy3's gender
    in the singular), and the nominal kind. A negated 3sg.N predicate keeps a
    genitive reading. Where the predicate marks gender (singular past or short form), the
    nominative must have that gender. A coordinated subject («Челси и Брентфорд встретились») is left alone: the
    predicate's plural is the coordination's, not the first conjunct's. Nor is a subject for which
    :func:`misread_subject` holds (two subjects of one predicate; a consistently accusative phrase).
    """
    subj = edge.subject
    pv = edge.agreeing.feats.get("Number")
    if edge.coordinated or pv not in ("Sing", "Plur") or subj.upos not in ("NOUN", "PROPN", "ADJ") or edge.subject_kind not in ("nominal", "other", "genitive"):
        return edge
    if subj.feats.get("Number") == pv and subj.feats.get("Case") in (None, "Nom") and subj.upos != "ADJ":
        return edge
    if edge.negated and is_default_form(edge.agreeing) and edge.subject_kind == "genitive":
        return edge
    if any(k.deprel == "case" for k in sent.children(subj)) or misread_subject(sent, edge):
        return edge
    all_parses = get_morph().parses(subj.form)
    if subj.upos == "ADJ" and any(p.tag.POS in ("ADJF", "PRTF") for p in all_parses):
        return edge
    want = {"nomn", UD2OC["Number"][pv]}
    # a singular past or short predicate marks gender: the nominative must have it («Чиркача не
    # боялся» is no feminine «Чиркача»; «большую часть жизни провёл» has no subject «часть»)
    nominative = [p for p in all_parses if p.tag.POS == "NOUN" and want <= set(p.tag.grammemes)
                  and _predicate_gender_ok(p, edge)]
    if not nominative:
        return edge
    feats = dict(subj.feats)
    feats["Case"], feats["Number"] = "Nom", pv
    g = nominative[0].tag.gender
    if pv == "Sing" and g in ("masc", "femn", "neut"):
        feats["Gender"] = OC2UD[g][1]
    new = dataclasses.replace(subj, feats=feats, upos="NOUN" if subj.upos == "ADJ" else subj.upos)
    repaired = dataclasses.replace(edge, subject=new, subject_kind="nominal")
    if object_reading(sent, repaired):
        # «Аллеи (tagged genitive) парка обсадили липами»: read as nominative, the noun could as well be
        # the accusative object of a verb with an unexpressed subject
        return edge
    return repaired


def unlabelled_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """Nominative subjects the parser attached as obj/obl/iobj/dep/amod of a finite verb that has no subject.

    The noun must have no preposition and be tagged nominative, with either
    an intransitive verb (no direct object possible: «там гибнут путники»),
    no accusative reading («медиум не принимает») or another object that
    cannot be a nominative («шорох … пугал его»); or be tagged accusative,
    attached as obj of an intransitive verb and read by pymorphy3 as a
    nominative agreeing with it («По воде расходился круг»). An amod noun
    that pymorphy3 can read as an adjective is an adjective. Edges get the
    usual ``nominal`` kind.
    """
    taken = {e.predicate.id for e in real}
    out = []
    for tok in sent.tokens:
        if tok.upos not in ("NOUN", "PROPN") or tok.feats.get("Case") not in ("Nom", "Acc") or tok.head == 0:
            continue
        if tok.base_deprel not in ("obj", "obl", "iobj", "dep", "amod"):
            continue
        pred = sent.token(tok.head)
        if pred.id in taken or pred.upos not in ("VERB", "AUX"):
            continue
        if any(k.deprel == "case" for k in sent.children(tok)):
            continue
        if any(k.base_deprel in ("nsubj", "csubj", "expl") for k in sent.children(pred)):
            continue
        agreeing, pred_type, co = agreeing_word(sent, pred)
        if agreeing is None or pred_type != "verb":
            continue
        if tok.base_deprel == "amod" and any(p.tag.POS in ("ADJF", "PRTF") for p in get_morph().parses(tok.form)):
            continue  # «ночное» tagged NOUN: an adjective after all
        if tok.feats["Case"] == "Acc":
            # tagged accusative: only the object of an intransitive verb that reads as a nominative
            # agreeing with it («По воде расходился круг»); an accusative obl is a time adverbial
            # («каждый раз думает»)
            reading = agrees_as_nominative(tok, agreeing)
            if reading is None or tok.base_deprel != "obj" or not is_intransitive(pred):
                continue
            feats = dict(tok.feats, Case="Nom", Number=OC2UD[reading.tag.number][1])
            tok = dataclasses.replace(tok, feats=feats)
        elif not (is_intransitive(pred) or no_accusative_reading(tok) or other_object(sent, pred, tok)):
            continue
        taken.add(pred.id)
        out.append(AgreementEdge(
            sent_id=sent.sent_id, subject=tok, predicate=pred, agreeing=agreeing, pred_type=pred_type,
            order="SV" if tok.id < agreeing.id else "VS", conf=head_conf(sent, tok), subject_kind="nominal",
            coordinated=any(k.deprel == "conj" for k in sent.children(tok)), negated=negated_by_ne(sent, pred, agreeing),
            co_agreeing=co,
        ))
    return out


#: relations by which the parser hangs a finite verb below a modifier of its own («Я праздно пролистал»)
_BELOW_MODIFIER_RELS = frozenset({"obj", "iobj", "obl", "conj", "advmod", "dep", "xcomp"})


def _speaker_pronoun_agrees(tok: Token, verb: Token) -> bool:
    """A 1st/2nd-person pronoun tagged nominative whose number (and person, where the verb marks one)
    the verb shares («Я … пролистал», «Ты … говорила»)."""
    f, v = tok.feats, verb.feats
    return (
        tok.upos == "PRON" and f.get("Case") == "Nom" and f.get("Person") in ("1", "2")
        and f.get("Number") == v.get("Number") and v.get("Person") in (None, f.get("Person"))
    )


def sibling_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """A finite verb without a subject hung below an adverb, particle or long adjective that holds the
    verb's subject as its own ``nsubj`` («Я праздно пролистал пачку» with «пролистал» an obj and «Я» the
    nsubj of «праздно»; «Он великолепно послужит»; «Ты небось говорила»).

    The head is no predicate itself (no short form, no copula or auxiliary: an adverb in -о such as
    «великолепно» is a modifier whatever pymorphy3 reads, since the verb hangs on it); the
    subject stands before the verb with no punctuation between them, has no preposition and reads as a
    nominative agreeing with the verb (:func:`stranded_subject_feats`). Edges get the ``nominal`` kind.
    """
    taken = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    subjects = {e.subject.id for e in real}
    out = []
    for verb in sent.tokens:
        if verb.upos not in ("VERB", "AUX") or verb.feats.get("VerbForm") != "Fin" or verb.id in taken or not verb.head:
            continue
        if verb.base_deprel not in _BELOW_MODIFIER_RELS or verb.feats.get("Mood") == "Imp":
            continue
        head = sent.token(verb.head)
        if head.upos not in ("ADV", "PART", "ADJ") or head.feats.get("Variant") == "Short":
            continue
        if any(k.base_deprel in ("nsubj", "csubj", "expl") for k in sent.children(verb)):
            continue
        if any(k.base_deprel in ("cop", "aux", "aux:pass") for k in sent.children(head)):
            continue
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is None or pred_type != "verb":
            continue
        for subj in sent.children(head):
            if subj.base_deprel != "nsubj" or subj.id > verb.id or subj.id in subjects:
                continue
            if any(k.deprel == "case" for k in sent.children(subj)) or any(
                t.upos == "PUNCT" for t in sent.tokens[subj.id: verb.id - 1]
            ):
                continue
            feats = stranded_subject_feats(subj, agreeing)
            if feats is None and _speaker_pronoun_agrees(subj, agreeing):
                feats = dict(subj.feats)  # «я», «ты» have no gender of their own: any past singular agrees
            if feats is None:
                continue
            taken.add(verb.id)
            subjects.add(subj.id)
            subj = dataclasses.replace(subj, feats=feats)
            out.append(AgreementEdge(
                sent_id=sent.sent_id, subject=subj, predicate=verb, agreeing=agreeing, pred_type=pred_type,
                order="SV", conf=head_conf(sent, subj), subject_kind="nominal",
                coordinated=any(k.deprel == "conj" for k in sent.children(subj)),
                negated=negated_by_ne(sent, verb, agreeing), co_agreeing=co,
            ))
            break
    return out


#: relations along which a nominative may hang below a nominal of its verb's clause («к Лакхнау Макферсон»)
_BURIED_RELS = frozenset({"nmod", "amod", "obl", "obj", "iobj", "dep"})
_QUOTES = frozenset({"«", "»", '"', "“", "”", "„", "``", "''"})


def buried_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """A finite verb without a subject whose nominative subject the parser hung below another nominal of
    the verb's clause («На пути к Лакхнау Макферсон участвовал» with «Макферсон» an nmod of
    «Лакхнау», «В глазах Мериен плавилось томление» with «томление» an nmod), or as the ``nsubj`` of an
    infinitive that depends on the verb («Жить Нина переезжает на юг»: an infinitive has no nominative
    subject).

    The noun (or name, or personal pronoun) stands before the verb, is tagged nominative, has no
    preposition and none before it, is no genitive of the noun before it, and reaches the verb through at most two links of :data:`_BURIED_RELS`, the last one from a
    direct dependent of the verb; no punctuation or quotation mark stands between it and the verb; it
    reads as a nominative agreeing with the verb (:func:`stranded_subject_feats`) and cannot be the
    verb's object (intransitive verb, no accusative reading of its number, or another object). Only
    where exactly one word qualifies. Edges get the ``nominal`` kind.
    """
    taken = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    subjects = {e.subject.id for e in real}
    with_subject = {t.head for t in sent.tokens if t.deprel.startswith(("nsubj", "csubj", "expl"))}
    out = []
    for verb in sent.tokens:
        if verb.upos not in ("VERB", "AUX") or verb.feats.get("VerbForm") != "Fin" or verb.feats.get("Mood") != "Ind":
            continue
        if verb.id in taken or verb.id in with_subject or verb.deprel in ("aux", "aux:pass", "cop"):
            continue
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is not verb or pred_type != "verb":
            continue
        found = []
        for tok in sent.tokens:
            if tok.id in subjects or tok.upos not in ("NOUN", "PROPN", "PRON") or tok.feats.get("Case") != "Nom":
                continue
            if tok.upos == "PRON" and tok.feats.get("PronType", "Prs") != "Prs":
                continue
            head = sent.head_of(tok)
            if head is None or head.id == verb.id:
                continue  # a direct dependent is :func:`unlabelled_subject_edges`' question
            # an apposition or name part agrees in case with its noun: a nominative beside a genitive, dative,
            # instrumental or prepositional noun is no apposition of it («к Лакхнау Макферсон»); beside a
            # nominative or accusative it is («носит название Хусейни»)
            # (a person only: a place or body keeps its nominative name after a generic noun in any case,
            # «в состав округа Альбула», «в хуторе Чечва»)
            apposed = (
                tok.base_deprel in ("appos", "flat") and head.feats.get("Case") in ("Gen", "Dat", "Ins", "Loc")
                and tok.feats.get("Animacy") == "Anim"
            )
            # «Жить Нина переезжает на Ивису» with «Нина» the nsubj of the fronted infinitive: an infinitive
            # takes no nominative subject, the finite verb it depends on does
            under_infinitive = tok.base_deprel == "nsubj" and is_infinitive(head) and head.head == verb.id
            if (tok.base_deprel not in _BURIED_RELS and not apposed and not under_infinitive) or after_preposition(sent, tok):
                continue
            if tok.id > verb.id:
                continue  # after the verb a dropped subject competes («Входит в состав округа …»)
            if _genitive_after_nominal(sent, tok):
                # «Гнездо птицы строят», «Рецепт супруги подбирали»: as well the genitive of the noun before it
                # (a personal name's nominative is read as the name: «к Риге Петров подходил»)
                continue
            above = sent.head_of(head)
            if not (head.head == verb.id or (above is not None and above.head == verb.id and head.base_deprel in _BURIED_RELS)):
                continue
            if head.upos not in ("NOUN", "PROPN", "PRON") and not under_infinitive:
                continue
            lo, hi = sorted((tok.id, verb.id))
            if any(t.upos == "PUNCT" or t.form in _QUOTES for t in sent.tokens[lo - 2 if lo > 1 else 0: hi - 1]):
                continue
            feats = stranded_subject_feats(tok, verb)
            if feats is None or not (is_intransitive(verb) or no_accusative_reading(tok) or other_object(sent, verb, tok)):
                continue
            found.append((tok, feats))
        if len(found) != 1:
            continue
        tok, feats = found[0]
        subj = dataclasses.replace(tok, feats=feats)
        taken.add(verb.id)
        subjects.add(tok.id)
        out.append(AgreementEdge(
            sent_id=sent.sent_id, subject=subj, predicate=verb, agreeing=verb, pred_type=pred_type,
            order="SV" if tok.id < verb.id else "VS", conf=head_conf(sent, tok), subject_kind="nominal",
            negated=negated_by_ne(sent, verb, verb), co_agreeing=co,
        ))
    return out


#: relations by which the parser hangs a finite verb below its own subject's noun phrase
_STRANDED_RELS = frozenset({"nmod", "obj", "iobj", "obl", "conj", "amod", "appos", "dep", "advmod", "det", "xcomp"})


#: a noun attached by these is some verb's object or adjunct (or a clause), not a subject left without a verb
_ARGUMENT_RELS = frozenset({"obj", "iobj", "obl", "xcomp", "ccomp", "advcl", "acl"})
_NOMINAL_CHAIN = frozenset({"NOUN", "PROPN", "PRON", "ADJ", "DET", "NUM"})


def stranded_subject_feats(tok: Token, verb: Token) -> dict[str, str] | None:
    """The features of ``tok`` as a nominative subject agreeing with ``verb``, or None when it cannot be one.

    A known word needs a pymorphy3 reading (:func:`agrees_as_nominative`),
    whose case, number and gender it gets; a word pymorphy3 does not know
    («Зарбуль») needs the tagger's nominative with the verb's number (and
    gender in the past or short singular).
    """
    if is_known(tok.form.lower()):
        return nominative_feats(tok, verb)
    f, v = tok.feats, verb.feats
    if f.get("Case") != "Nom" or f.get("Number") != v.get("Number") or v.get("Person") not in (None, "3"):
        return None
    if v.get("Number") == "Sing" and (v.get("Tense") == "Past" or v.get("Variant") == "Short") and f.get("Gender") != v.get("Gender"):
        return None
    return dict(f)


def _genitive_after_nominal(sent: Sentence, tok: Token) -> bool:
    """Whether ``tok`` may be the genitive of the noun before it: a known word with a genitive reading
    right after a nominal («Работники биостанции сообщили», «Гнездо птицы строят»), not a personal
    name's nominative («к Риге Петров подходил»)."""
    readings = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    return after_nominal(sent, tok) and is_known(tok.form.lower()) and any("gent" in p.tag.grammemes for p in readings) and not any(
        {"Name", "Surn", "Patr"} & set(p.tag.grammemes) and "nomn" in p.tag.grammemes for p in readings
    )


def stranded_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """A finite verb or short form without a subject that the parser hung below its subject's noun phrase.

    Only forms that pymorphy3 reads as nothing but a verb or short form
    (:func:`verbal_only_reading`) qualify.

    «Дверь старого сарая скрипнула» parsed with «скрипнула» as nmod of «сарая»:
    from the verb, the heads are climbed while the verb is attached by a
    nominal-style relation (:data:`_STRANDED_RELS`) and the head is a
    nominal word; the first noun or pronoun on the way that comes before the
    verb, has no preposition, is not yet a subject and reads as a nominative
    agreeing with the verb (number; gender in the past singular; person) is
    its subject. A finite verb attached to another verb is never climbed
    over, and a relative clause (``acl``) is not climbed out of; a noun that
    is itself an object or adjunct (:data:`_ARGUMENT_RELS`) is not taken.
    Edges get the ``nominal`` kind.
    """
    taken_preds = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    subjects = {e.subject.id for e in real}
    out = []
    for verb in sent.tokens:
        if verb.id in taken_preds or verb.head == 0 or verb.base_deprel not in _STRANDED_RELS:
            continue
        if verbal_only_reading(verb.form.lower()) is None:
            # «восстание, организованное … и поддержанное» (a participle tagged as a finite verb)
            continue
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is not verb:
            continue
        if any(k.base_deprel in ("nsubj", "csubj", "expl") for k in sent.children(verb)):
            continue
        cur, subj, feats = verb, None, None
        while cur.head != 0 and cur.base_deprel in _STRANDED_RELS:
            head = sent.token(cur.head)
            if head.upos not in _NOMINAL_CHAIN:
                break
            if (
                head.upos in ("NOUN", "PROPN", "PRON")
                and head.id < verb.id
                and head.id not in subjects
                and head.base_deprel not in _ARGUMENT_RELS
                and not any(k.deprel == "case" for k in sent.children(head))
                and not _genitive_after_nominal(sent, head)
            ):
                feats = stranded_subject_feats(head, verb)
                if feats is not None:
                    subj = head
                    break
            cur = head
        if subj is None:
            continue
        subjects.add(subj.id)
        # (a gerund the tagger took for a noun is no conjunct: «Франя, пискнув, прижалась»)
        coordinated = any(
            k.deprel == "conj" and k.upos in ("NOUN", "PROPN", "PRON") and not verb_form_only(k.form) for k in sent.children(subj)
        )
        subj = dataclasses.replace(subj, feats=feats)
        out.append(AgreementEdge(
            sent_id=sent.sent_id, subject=subj, predicate=verb, agreeing=verb, pred_type=pred_type,
            order="SV", conf=head_conf(sent, subj), subject_kind="nominal",
            coordinated=coordinated, negated=negated_by_ne(sent, verb), co_agreeing=co,
        ))
    return out


def object_reading(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether the «subject» may be the object of a transitive verb whose own subject is unexpressed.

    «Аллеи парка обсадили липами» («[they] planted the alleys»): a noun
    that reads as an accusative of its number, a transitive finite verb, and
    no other accusative object or object clause of that verb. Then another
    number, gender or person of the verb is grammatical with a dropped
    subject. Used where the subject's case is itself a repair
    (:func:`subject_repair`): a noun the tagger gave another case is not
    made a nominative subject then.
    """
    if edge.pred_type != "verb" or edge.subject.upos not in ("NOUN", "PROPN"):
        return False
    verb = edge.agreeing
    a = get_morph().analyse(verb.form, verb.upos, verb.feats)
    if a is None or "tran" not in a.tag.grammemes:
        return False
    if not object_like(edge.subject):
        return False
    for kid in sent.children(edge.predicate):
        if kid.id == edge.subject.id:
            continue
        if kid.base_deprel == "ccomp" or (kid.base_deprel == "obj" and kid.upos in ("NOUN", "PROPN", "PRON") and object_like(kid)):
            return False
    return True


def reflexive_infinitive_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """A finite verb without a subject whose inanimate nominative subject the parser hung as the ``obj`` of
    a reflexive infinitive complement after it («Как может теперь ломаться лёд?» with «лёд» an object of
    «ломаться»): a reflexive intransitive infinitive takes no accusative object, so the noun is the verb's
    subject.

    The infinitive ends in «-ся/-сь», pymorphy3 reads it as intransitive and it is an ``xcomp`` of the
    verb; the noun is an inanimate common noun after the infinitive, tagged nominative or accusative, with
    no preposition, no punctuation between it and the verb, and a nominative reading agreeing with the
    verb (:func:`stranded_subject_feats`). Only where exactly one noun qualifies. Edges get the
    ``nominal`` kind.
    """
    taken = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    out = []
    for verb in sent.tokens:
        if verb.upos not in ("VERB", "AUX") or verb.feats.get("VerbForm") != "Fin" or verb.feats.get("Mood") != "Ind":
            continue
        kids = sent.children(verb)
        if verb.id in taken or any(k.base_deprel in ("nsubj", "csubj", "expl") for k in kids):
            continue
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is not verb or pred_type != "verb":
            continue
        found = [
            (tok, feats)
            for inf in kids
            if inf.base_deprel == "xcomp" and is_infinitive(inf) and inf.id > verb.id
            and inf.form.lower().endswith(("ся", "сь")) and is_intransitive(inf)
            for tok in sent.children(inf)
            if tok.base_deprel == "obj" and tok.upos == "NOUN" and tok.feats.get("Animacy") == "Inan"
            and tok.feats.get("Case") in ("Nom", "Acc") and tok.id > inf.id
            and not any(k.deprel == "case" for k in sent.children(tok))
            and not any(t.upos == "PUNCT" for t in sent.tokens[verb.id: tok.id - 1])
            for feats in [stranded_subject_feats(tok, verb)] if feats is not None
        ]
        if len(found) != 1:
            continue
        tok, feats = found[0]
        taken.add(verb.id)
        out.append(AgreementEdge(
            sent_id=sent.sent_id, subject=dataclasses.replace(tok, feats=feats), predicate=verb, agreeing=verb,
            pred_type=pred_type, order="VS", conf=head_conf(sent, tok), subject_kind="nominal",
            negated=negated_by_ne(sent, verb, verb), co_agreeing=co,
        ))
    return out
