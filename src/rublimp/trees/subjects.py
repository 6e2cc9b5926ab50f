"""Subject queries of the agreement paradigms: the repaired edges of a sentence, under named policies.

Every edge list is computed once per sentence object and kept in its memo (:mod:`rublimp.trees.memo`).

* :func:`repaired_edges`: :func:`~rublimp.trees.edges.subject_predicate_edges` of the
  :func:`~rublimp.trees.verbs.retag_verbs` sentence (:func:`repaired_sentence`) after the edge
  repairs (:mod:`rublimp.trees.verbs`, :mod:`rublimp.trees.subject_repairs`; those that change a
  token are also the normalisation fixes of :mod:`rublimp.trees.agreement_fixes`, so on a normalised
  tree they find nothing left and the edges hold the tree's own tokens);
  :func:`edges_with_default_contexts` adds the genitive and clausal contexts of
  :mod:`rublimp.trees.default_subjects`.
* **Policy "word order" (the attractor paradigms):** :func:`word_order_edges` re-reads every
  repaired subject (:func:`reread_subject`) and adds subjects recovered from linear order,
  «subject + genitive or prepositional phrase + verb» (:func:`span_subject_edges`).
* **Policy "careful" (the noun-subject paradigms):** :func:`noun_subject_edges` takes a re-read
  subject only where no transitive reading competes, and a word-order subject only as the leftmost
  nominal of its clause (:func:`clause_initial_subject`).
"""

from __future__ import annotations

import dataclasses

from ..conllu_doc import Sentence, Token
from ..lexicon import normalize
from ..morph import get_morph
from .default_subjects import default_agreement_edges
from .edges import AgreementEdge, agreeing_word, head_conf, negated_by_ne, subject_predicate_edges
from .lexical import common_noun_only, is_known, noun_only_guessing
from .memo import sentence_memo, token_memo
from .readings import (
    after_nominal,
    after_preposition,
    agrees_as_nominative,
    no_accusative_reading,
    nominal_like,
    nominative_feats,
    other_object,
)
from .subject_repairs import (
    buried_subject_edges,
    reflexive_infinitive_subject_edges,
    case_repair,
    pronoun_repair,
    sibling_subject_edges,
    stranded_subject_edges,
    stranded_subject_feats,
    subject_repair,
    unlabelled_subject_edges,
)
from .verbs import is_default_form, is_intransitive, negation_repair, repair_edge, retag_verbs

__all__ = [
    "repaired_edges",
    "edges_with_default_contexts",
    "repaired_sentence",
    "span_subject_edges",
    "vs_subject_edges",
    "reread_subject",
    "word_order_edges",
    "noun_subject_edges",
    "attractor_subject_edges",
    "misparsed_second_subject",
]


def repaired_edges(sent: Sentence) -> list[AgreementEdge]:
    """:func:`subject_predicate_edges` after the parser repairs, computed once per sentence.

    The eleven paradigms share one extraction per sentence: the result is kept
    in the sentence's memo (:func:`~rublimp.trees.memo.sentence_memo`), so it
    does not matter whether the paradigms run sentence-major (the perturb
    stage) or paradigm-major (``bench/bench_perturb.py``).
    """
    return _cache(sent)[0]


def edges_with_default_contexts(sent: Sentence) -> list[AgreementEdge]:
    """:func:`repaired_edges` plus the default-agreement contexts of :func:`default_agreement_edges` (computed on first use)."""
    cache = _cache(sent)
    if cache[1] is None:
        cache[1] = default_agreement_edges(cache[2], cache[0])
    return cache[0] + cache[1]


def _cache(sent: Sentence) -> list:
    """[real edges, default-agreement edges (lazy), the sentence after :func:`retag_verbs`]."""
    return sentence_memo(sent, "agreement_edges", lambda: _repair(sent))


def _repair(sent: Sentence) -> list:
    rsent = retag_verbs(sent)
    real = [pronoun_repair(subject_repair(rsent, case_repair(rsent, negation_repair(rsent, repair_edge(rsent, e))))) for e in subject_predicate_edges(rsent)]
    real += [repair_edge(rsent, e) for e in unlabelled_subject_edges(rsent, real)]
    real += [repair_edge(rsent, e) for e in stranded_subject_edges(rsent, real)]
    real += [repair_edge(rsent, e) for e in sibling_subject_edges(rsent, real)]
    real += [repair_edge(rsent, e) for e in buried_subject_edges(rsent, real)]
    real += [repair_edge(rsent, e) for e in reflexive_infinitive_subject_edges(rsent, real)]
    return [real, None, rsent]


def repaired_sentence(sent: Sentence) -> Sentence:
    """The sentence the edges were read from (:func:`retag_verbs`; ``sent`` itself when nothing was retagged)."""
    return _cache(sent)[2]


# -- attractor parser repair: «subject + dependent phrase + verb» read from linear order ---------
#: words that may stand between a subject and its verb besides nominals: modifiers, adverbs, particles, prepositions
_SPAN_UPOS = frozenset({"ADV", "PART", "ADJ", "DET", "NUM", "ADP"})
_OBLIQUE_CASES = frozenset({"gent", "datv", "accs", "ablt", "loct", "gen2", "acc2", "loc2"})


def _dependent_nominal(sent: Sentence, tok: Token, verb: Token) -> bool:
    """A nominal that cannot be the subject of ``verb`` after it: in a prepositional phrase, with no
    nominative reading that agrees with the verb (pymorphy3; the tagger's case for a word it does not
    know), or a genitive right after a noun («руки Рахели»)."""
    if after_preposition(sent, tok):
        return True
    parses = [p for p in get_morph().parses(tok.form) if p.tag.POS in ("NOUN", "NPRO")]
    if not is_known(tok.form.lower()):
        # the tagger's case, or a guessed genitive right after a noun («колонна урнгриа» tagged VERB)
        return tok.feats.get("Case") not in (None, "Nom") or (
            "Case" not in tok.feats and after_nominal(sent, tok) and any("gent" in p.tag.grammemes for p in parses)
        )
    if not parses:
        return tok.upos == "PRON" and tok.feats.get("Case") not in (None, "Nom")
    if agrees_as_nominative(tok, verb) is None:
        return True
    return after_nominal(sent, tok) and any("gent" in p.tag.grammemes for p in parses)


def _span_subject_feats(tok: Token, verb: Token) -> dict[str, str] | None:
    """:func:`stranded_subject_feats`, or for a word pymorphy3 does not know that the tagger did not
    read as a nominative, its guessed nominative agreeing with ``verb`` (:func:`nominative_feats`)."""
    feats = stranded_subject_feats(tok, verb)
    if feats is None and not is_known(tok.form.lower()):
        feats = nominative_feats(tok, verb)
    return feats


def _span_subject_candidate(sent: Sentence, tok: Token) -> bool:
    """A noun, a personal pronoun, or a word pymorphy3 reads only as a noun, outside any prepositional phrase."""
    if tok.upos == "PRON":
        ok = tok.feats.get("PronType", "Prs") == "Prs" and normalize(tok.lemma) not in ("себя",)
    else:
        ok = tok.upos in ("NOUN", "PROPN") or noun_only_guessing(tok.form)
    return ok and not after_preposition(sent, tok)


def span_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """Subjects of subjectless verbs read from word order: «subject + dependent phrase + verb».

    The parser often misattaches a subject that is followed by a genitive or
    prepositional phrase: «лицо урнгурца оживилось» with «лицо» as the object
    of «урнгурца», «шкатулка Креза принадлежала» with «шкатулка» as an amod.
    For a finite verb or short form with no subject (and not conjoined to a
    verb), the words before it up to a clause boundary (punctuation,
    conjunction, verb) may be only nominals, modifiers, adverbs, particles
    and prepositions. The subject is the leftmost noun or personal pronoun
    of that stretch outside a prepositional phrase that pymorphy3 reads as a
    nominative agreeing with the verb (number; gender in the past or short
    singular; person; the verb's features from its own unambiguous reading),
    such that every nominal between it and the verb is a dependent
    (:func:`_dependent_nominal`) — and there must be at least one. With a
    transitive verb the subject must have no accusative reading, or the verb
    another object: «Дом брата строит» is as well «(он) строит дом брата».
    A verb with a nominative nominal after it is left alone (its subject may
    follow it). Used by the attractor paradigms only; edges get the
    ``nominal`` kind.
    """
    taken = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    subjects = {e.subject.id for e in real}
    out: list[AgreementEdge] = []
    # only finite verbs and short forms (with or without быть) agree
    verbs = [
        t for t in sent.tokens
        if t.upos in ("VERB", "AUX", "ADJ") and (t.feats.get("VerbForm") == "Fin" or t.feats.get("Variant") == "Short")
        and t.id not in taken
    ]
    if not verbs:
        return out
    with_subject = {t.head for t in sent.tokens if t.deprel.startswith(("nsubj", "csubj", "expl"))}
    for verb in verbs:
        if verb.id in with_subject or verb.feats.get("Mood") == "Imp" or verb.deprel in ("aux", "aux:pass", "cop"):
            continue
        if verb.form[:1].isupper() and verb.id != 1:
            continue  # «мастерская Вадима Юсова»: a name read as a short adjective
        head = sent.head_of(verb)
        if verb.base_deprel == "conj" and head is not None and head.upos in ("VERB", "AUX"):
            continue  # «Он встал и пошёл»: the subject is shared with the first verb
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is None or agreeing.id in taken:
            continue
        first = min([verb.id, agreeing.id] + [t.id for t in co])
        last = max([verb.id, agreeing.id] + [t.id for t in co])
        if any(
            t.id > last and t.upos in ("NOUN", "PROPN", "PRON") and t.feats.get("Case") == "Nom"
            and not after_preposition(sent, t)
            for t in sent.children(verb) + (sent.children(agreeing) if agreeing is not verb else [])
        ):
            continue
        # the stretch before the verb: nominals, modifiers, adverbs, particles, prepositions
        span: list[Token] = []
        for t in reversed(sent.tokens[: first - 1]):
            if t.upos in _SPAN_UPOS or t.upos in ("NOUN", "PROPN", "PRON") or (
                t.upos in ("VERB", "X", "INTJ") and _span_subject_candidate(sent, t)
            ):
                span.append(t)
                continue
            break
        span.reverse()
        if sum(t.upos not in ("ADV", "PART", "ADP", "DET", "NUM") for t in span) < 2:
            continue  # no room for a subject and a dependent
        edge = repair_edge(sent, AgreementEdge(
            sent_id=sent.sent_id, subject=verb, predicate=verb, agreeing=agreeing, pred_type=pred_type,
            order="SV", conf=1.0, subject_kind="nominal", negated=negated_by_ne(sent, verb, agreeing), co_agreeing=co,
        ))
        repaired = edge.agreeing
        subj, feats, deps = None, None, 0
        for t in reversed(span):
            candidate = _span_subject_candidate(sent, t)
            if not nominal_like(t) and not candidate:
                continue  # a modifier, adverb, particle or preposition
            t_feats = _span_subject_feats(t, repaired) if deps and t.id not in subjects and candidate else None
            if t_feats is not None and (
                is_intransitive(repaired if repaired.id == verb.id else verb) or no_accusative_reading(t) or other_object(sent, verb, t)
            ):
                subj, feats = t, t_feats  # the leftmost such word is the subject: keep climbing over dependents
            if not _dependent_nominal(sent, t, repaired):
                break
            deps += 1
        if subj is None:
            continue
        subjects.add(subj.id)
        taken.add(verb.id)
        subj = dataclasses.replace(subj, feats=feats, upos=subj.upos if subj.upos in ("NOUN", "PROPN", "PRON") else "NOUN")
        out.append(dataclasses.replace(
            edge, subject=subj, conf=head_conf(sent, subj),
            coordinated=any(k.deprel == "conj" and k.upos in ("NOUN", "PROPN", "PRON") for k in sent.children(subj)),
        ))
    return out


def vs_subject_edges(sent: Sentence, real: list[AgreementEdge]) -> list[AgreementEdge]:
    """Subjects of subjectless verbs read from word order after the verb: «verb + object + subject».

    The parser often hangs a subject that closes its clause after the verb on the verb's object or
    labels it a conjunct or apposition («Знал это и сам Огнеяр» with «Огнеяр» a ``conj``, «Опять кинул
    копьё Радегаст» with «Радегаст» an ``appos`` of «копьё»). For an indicative finite verb with no
    subject of its own, not conjoined to a verb, whose clause runs on to the end of the sentence
    (only nominals, modifiers, adverbs, particles and prepositions after it), the subject is the last
    noun or name of that stretch outside a prepositional phrase (a name may be followed by further
    capitalised name words) that pymorphy3 reads as a nominative agreeing with the verb and, unless
    the verb is intransitive, not as an accusative of that number (it cannot be the object), and is no
    genitive of the word before it
    («Нашёл дом Петров»: "the Petrovs' house"); at least one nominal stands between verb and
    subject. Used by the attractor paradigms (the noun-subject paradigms take a word-order subject
    only at the start of its clause); edges get the ``nominal`` kind and the ``VS`` order.
    """
    taken = {e.predicate.id for e in real} | {e.agreeing.id for e in real}
    subjects = {e.subject.id for e in real}
    with_subject = {t.head for t in sent.tokens if t.deprel.startswith(("nsubj", "csubj", "expl"))}
    out: list[AgreementEdge] = []
    for verb in sent.tokens:
        if verb.upos not in ("VERB", "AUX") or verb.feats.get("VerbForm") != "Fin" or verb.feats.get("Mood") != "Ind":
            continue
        if verb.id in taken or verb.id in with_subject or verb.deprel in ("aux", "aux:pass", "cop"):
            continue
        head = sent.head_of(verb)
        if verb.base_deprel == "conj" and head is not None and head.upos in ("VERB", "AUX"):
            continue
        agreeing, pred_type, co = agreeing_word(sent, verb)
        if agreeing is not verb or co:
            continue
        stretch: list[Token] = []
        for t in sent.tokens[verb.id:]:
            if t.upos in _SPAN_UPOS or t.upos in ("NOUN", "PROPN", "PRON"):
                stretch.append(t)
                continue
            break
        rest = sent.tokens[verb.id + len(stretch):]
        if any(t.upos != "PUNCT" or t.form not in (".", "!", "?", "...", "…", "!..", "?..") for t in rest):
            continue  # the clause goes on: the subject may be further on, or the noun is no subject
        subj = None
        for t in reversed(stretch):
            if t.upos in ("ADV", "PART", "ADJ", "DET", "NUM"):
                continue  # the subject's own modifiers («сам Огнеяр»)
            if t.upos not in ("NOUN", "PROPN") or after_preposition(sent, t) or t.id in subjects:
                break
            if t.deprel.startswith("flat"):
                continue  # a later part of a name («Радегаст Удача»)
            before = sent.tokens[t.id - 2]
            oblique = {"Gen": "gent", "Dat": "datv", "Ins": "ablt", "Loc": "loct"}.get(before.feats.get("Case", ""))
            if t.upos == "PROPN" and (
                t.feats.get("Animacy") != "Anim"
                or before.upos in ("NOUN", "PROPN") and oblique is not None and is_known(before.form.lower())
                and any(oblique in p.tag.grammemes for p in get_morph().parses(before.form))
            ):
                # «Находится к северу от острова Лусон»: a place's name, or the nominative name of the oblique
                # noun before it; the subject is dropped
                break
            feats = _span_subject_feats(t, verb)
            # a guessed genitive plural of an unknown name («Радегаст» as of «Радегаста») does not count
            known = is_known(t.form.lower())
            genitive_of_previous = t.feats.get("Case") == "Gen" or after_nominal(sent, t) and any(
                "gent" in p.tag.grammemes and (known or "sing" in p.tag.grammemes)
                for p in get_morph().parses(t.form) if p.tag.POS == "NOUN"
            )
            if feats is not None and not genitive_of_previous and (no_accusative_reading(t) or not known or is_intransitive(verb)):
                subj = dataclasses.replace(t, feats=feats)
                break
            if t.upos != "PROPN" or not t.form[:1].isupper():
                break  # only a name word may follow the subject («Радегаст Удача»)
        if subj is None or not any(
            t.upos in ("NOUN", "PROPN", "PRON") for t in sent.tokens[verb.id: subj.id - 1]
        ):
            continue
        edge = repair_edge(sent, AgreementEdge(
            sent_id=sent.sent_id, subject=subj, predicate=verb, agreeing=verb, pred_type=pred_type,
            order="VS", conf=head_conf(sent, subj), subject_kind="nominal",
            negated=negated_by_ne(sent, verb, verb), co_agreeing=(),
        ))
        subjects.add(subj.id)
        taken.add(verb.id)
        out.append(edge)
    return out


def reread_subject(sent: Sentence, edge: AgreementEdge) -> AgreementEdge:
    """An nsubj the tagger gave an oblique case or a non-nominal tag, read as the nominative that agrees.

    «Но Смеагорл пока об этом не догадывался» («Смеагорл» tagged dative),
    «Уговоры Мики уже не достигали» (tagged genitive singular), «Даже тот
    бычок это понял» («бычок» tagged VERB): a subject without a preposition
    of an ``other``-kind edge (or a «genitive» one whose predicate is not
    in the default form), or tagged with a non-nominal part of speech
    that pymorphy3 reads only as a noun, becomes a ``nominal`` subject with
    the features of its pymorphy3 nominative reading that agrees with the
    predicate (a guessed one for a word pymorphy3 does not know); only
    before the predicate and with no other nsubj beside it. A genitive
    beside a negated 3sg.N predicate stays a genitive subject. A subject
    tagged PROPN that pymorphy3 reads only as a common noun («Племянница»,
    «Подгруппа» at the start of a sentence) is a common noun.
    """
    subj = edge.subject
    if subj.upos == "PROPN" and edge.subject_kind == "nominal" and common_noun_only(subj.form):
        # «Племянница Гарста приподнялась»: a capitalised common noun tagged as a name
        edge = dataclasses.replace(edge, subject=dataclasses.replace(subj, upos="NOUN"))
        subj = edge.subject
    retag = subj.upos not in ("NOUN", "PROPN", "PRON") and is_known(subj.form.lower()) and noun_only_guessing(subj.form)
    # a «genitive» subject of a predicate that is not in the default 3sg.N form cannot be one
    oblique = edge.subject_kind == "other" or (edge.subject_kind == "genitive" and not is_default_form(edge.agreeing))
    if not oblique and not (retag and edge.subject_kind == "nominal"):
        return edge
    if subj.upos not in ("NOUN", "PROPN") and not retag:
        return edge
    if any(k.deprel == "case" for k in sent.children(subj)) or (edge.negated and is_default_form(edge.agreeing)):
        return edge
    if edge.order != "SV" or any(
        k.base_deprel == "nsubj" and k.id != subj.id and misparsed_second_subject(sent, edge, k) is k
        for k in sent.children(edge.predicate)
    ):
        # after the verb, or beside another subject that could agree: a misparsed object, not a subject
        return edge
    feats = nominative_feats(subj, edge.agreeing)
    if feats is None:
        return edge
    new = dataclasses.replace(subj, feats=feats, upos=subj.upos if subj.upos in ("NOUN", "PROPN") else "NOUN")
    return dataclasses.replace(edge, subject=new, subject_kind="nominal")


def word_order_edges(sent: Sentence) -> list[AgreementEdge]:
    """The shared edges re-read (:func:`reread_subject`) plus :func:`span_subject_edges`, computed once
    per sentence (``sent`` is the :func:`repaired_sentence` sentence) for the attractor and noun-subject paradigms."""
    return sentence_memo(sent, "word_order_edges", lambda: _word_order_edges(sent))


def _word_order_edges(sent: Sentence) -> list[AgreementEdge]:
    real = repaired_edges(sent)
    span = span_subject_edges(sent, real)
    return [reread_subject(sent, e) for e in real] + span + vs_subject_edges(sent, real + span)


def noun_subject_edges(sent: Sentence) -> list[AgreementEdge]:
    """The shared edges plus the careful part of :func:`word_order_edges`, for the noun-subject paradigms.

    A re-read subject (:func:`reread_subject`) is taken when the parser gave it an oblique case or a
    non-nominal tag, not for a capitalised word tagged PROPN (:meth:`SubjectPredicateAgreement._gender_fixed`
    decides those: «Тузик научился» is a dog's name), and not when a transitive predicate could take it
    as its object: «Линзы (tagged genitive) шлифовали вручную» is the indefinite-personal «(they) polished
    the lenses». A subject read from word order (:func:`span_subject_edges`) is taken only as the
    leftmost nominal of its clause (:func:`_clause_initial_subject`). Computed once per sentence.
    """
    return sentence_memo(sent, "noun_subject_edges", lambda: _noun_subject_edges(sent))


def _noun_subject_edges(sent: Sentence) -> list[AgreementEdge]:
    real = repaired_edges(sent)
    word_order = word_order_edges(sent)
    out: list[AgreementEdge] = []
    for old, new in zip(real, word_order):
        keep = new is not old and old.subject.upos != "PROPN" and (
            is_intransitive(new.agreeing if new.agreeing.upos in ("VERB", "AUX") else new.predicate)
            or no_accusative_reading(new.subject)
        )
        out.append(new if keep else old)
    out += [e for e in word_order[len(real):] if _clause_initial_subject(sent, e.subject)]
    return [e for e in out if not _own_subject_elsewhere(sent, e, out)]


def attractor_subject_edges(sent: Sentence) -> list[AgreementEdge]:
    """:func:`word_order_edges` without a subject after the verb that is the parser's second guess, for
    both attractor paradigms (``sent`` is the :func:`repaired_sentence`); computed once per sentence."""
    return sentence_memo(sent, "attractor_edges", lambda: _attractor_subject_edges(sent))


def _across_clause(sent: Sentence, subj: Token, pred: Token) -> bool:
    """Whether ``pred`` is a conjoined verb whose clause begins after ``subj``: a comma and a
    coordinating conjunction stand between them («полки были предусмотрены, а … располагались»)."""
    if pred.base_deprel != "conj" or subj.id > pred.id:
        return False
    between = sent.tokens[subj.id: pred.id - 1]
    return any(t.form == "," and i + 1 < len(between) and between[i + 1].upos == "CCONJ" for i, t in enumerate(between))


_CLAUSE_PUNCT = frozenset({",", "—", "–", "-", "--", ":", ";"})


def _own_subject_elsewhere(sent: Sentence, edge: AgreementEdge, edges: list[AgreementEdge]) -> bool:
    """Whether another edge gives ``edge``'s predicate a better subject: ``edge``'s stands in another
    clause (:func:`_across_clause`) and the other's does not (a conjoined verb sharing the first
    verb's subject beside its own: «полки были предусмотрены, а под полом располагались восемь
    отделений», «отделений», not «полки»); ``edge``'s is further from the predicate, with punctuation
    between the two and none between the other and the predicate («Высшая точка хребта — гора,
    вершина которой покрыта»: «вершина»); or ``edge``'s is
    not the predicate's dependent while the other's is its ``nsubj``."""
    others = [e for e in edges if e is not edge and e.predicate.id == edge.predicate.id]
    if _across_clause(sent, edge.subject, edge.predicate):
        return any(not _across_clause(sent, e.subject, e.predicate) for e in others)
    # two subjects before the predicate with a comma or dash between them: the nearer one is in the
    # predicate's clause («Высшая точка хребта — гора Медная, вершина которой покрыта снегом»)
    def punct(lo: int, hi: int) -> bool:  # punctuation strictly between the tokens lo and hi
        return any(t.upos == "PUNCT" and t.form in _CLAUSE_PUNCT for t in sent.tokens[lo: hi - 1])

    if any(
        edge.subject.id < e.subject.id < e.predicate.id and punct(edge.subject.id, e.subject.id)
        and not punct(e.subject.id, e.predicate.id)  # «Библиотека, в которой работают два сотрудника, остаётся»
        for e in others
    ):
        return True
    # a subject hung elsewhere beside the predicate's own nsubj («Высшая точка хребта — гора, вершина
    # которой покрыта снегом»: «вершина», not «точка»)
    return edge.subject.head != edge.predicate.id and any(
        e.subject.head == e.predicate.id and e.subject.deprel.startswith("nsubj") for e in others
    )


def _attractor_subject_edges(sent: Sentence) -> list[AgreementEdge]:
    edges = word_order_edges(sent)
    edges = [e for e in edges if not _own_subject_elsewhere(sent, e, edges)]
    # a subordinator between subject and verb, outside the subject's own phrase, opens the verb's clause:
    # the «subject» stands in the clause above («Место обитания – кладбище, хотя в сериале часто
    # показано, что …» with «Место» parsed as the subject of «показано»)
    edges = [e for e in edges if not _subordinator_between(sent, e)]
    # a «subject» after the verb beside a nominative nsubj before it that could agree is the
    # parser's second guess, not the subject («В 1982 Киквете был избран в … Комитет»)
    return [
        e for e in edges
        if e.order == "SV" or not any(
            k.deprel.startswith("nsubj") and k.id < e.agreeing.id and k.feats.get("Case", "Nom") == "Nom"
            and misparsed_second_subject(sent, e, k) is k
            for k in sent.children(e.predicate)
        )
    ]


def _subordinator_between(sent: Sentence, edge: AgreementEdge) -> bool:
    """Whether a subordinating conjunction («хотя», «что», «если» …) stands between a subject placed
    before its verb and that verb, outside the subject's own phrase, and opens the verb's own clause
    (no punctuation between it and the verb)."""
    if edge.subject_kind != "nominal" or edge.subject.id > edge.agreeing.id:
        return False
    own = {t.id for t in sent.subtree(edge.subject)}
    # the verb must stand in the subordinate clause: no punctuation between the subordinator and the verb
    # («Мнения горожан, как обычно, разделились», «расположение, когда батарея замаскирована, было
    # освоено» keep their subject)
    return any(
        t.upos == "SCONJ" and t.id not in own
        and not any(u.upos == "PUNCT" for u in sent.tokens[t.id: edge.agreeing.id - 1])
        for t in sent.tokens[edge.subject.id: edge.agreeing.id - 1]
    )


def _clause_initial_subject(sent: Sentence, subj: Token) -> bool:
    """``subj`` is the first nominal of its clause outside prepositional phrases, and no genitive of a
    noun before it: «Градины размером с орех побили», not «Подачу тока … восстановили» (the
    indefinite-personal: «тока» is the genitive of «Подачу») nor «Увидеть рысь … считается» (the
    object of an infinitive). Only modifiers, adverbs, particles and prepositional phrases may stand
    between the clause boundary (the sentence start, punctuation, a conjunction) and the subject."""
    if after_nominal(sent, subj) and any("gent" in p.tag.grammemes for p in get_morph().parses(subj.form)):
        return False
    for t in reversed(sent.tokens[: subj.id - 1]):
        if t.upos in _SPAN_UPOS:
            continue
        if t.upos in ("NOUN", "PROPN", "PRON"):
            if after_preposition(sent, t):
                continue
            return False
        return t.upos in ("PUNCT", "CCONJ", "SCONJ")
    return True


def misparsed_second_subject(sent: Sentence, edge: AgreementEdge, tok: Token) -> Token:
    """``tok`` relabelled as an object when it is a second nsubj of the edge's predicate that
    cannot agree with it («Киря это сознавал», «вода первый этаж покрыла»): a misparsed object,
    which may be an attractor; else ``tok`` itself. Memoised per (token, agreeing word)."""
    if tok.head != edge.predicate.id or not tok.deprel.startswith("nsubj") or tok.id == edge.subject.id:
        return tok
    if not is_known(tok.form.lower()) or agrees_as_nominative(tok, edge.agreeing) is not None:
        return tok
    return token_memo(("agreement.second_subject", edge.agreeing.id), tok, lambda: dataclasses.replace(tok, deprel="obj"))
