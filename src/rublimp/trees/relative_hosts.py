"""Which words before a relative «который» could host its clause, and what a noun's number controls.

Two tree questions of the anaphor paradigms (validity read, issue 18):

* :func:`earlier_host` — whether some nominal before the relative phrase, other than the chosen
  antecedent, could be the antecedent of a «который» with given (number, gender) readings. It is
  deliberately generous: every noun, substantivised word and 3rd-person pronoun before the phrase
  counts (not only the adjacent one: «соли алкалоидов, найденных в листьях, которые»), with the
  parser's features or any pymorphy3 reading of the same lemma in the parser's case; for a plural a
  coordination of nominals («отец и сын, которые»), a counted noun («два дома, которые») and a noun
  of a group whose members may be meant («пара, которые») count as plural hosts.
* :func:`number_controls_outside` — whether the number of a noun enters a relation outside its
  noun phrase that the parser did not label as a subject: the nominal predicate of a copular or
  naming verb («является квазаром», «стал учёным»), or a nominative the parser hung on a finite
  verb that agrees with it and has no subject of its own («требуется специалист[obj]»).
"""

from __future__ import annotations

from typing import Iterable

from ..conllu_doc import Sentence, Token
from ..morph import Morph
from .lexical import PERSONAL_PRONOUNS
from .nominal import QUANTITY_LEMMAS, agr_from_tag, noun_readings, norm

__all__ = ["GROUP_NOUNS", "COPULAR_VERBS", "clause_plural_host", "earlier_host", "group_noun", "host_features",
           "number_controls_outside", "plural_coordination", "possible_subject"]

#: singular nouns of a group whose members a plural «которые» may refer to («пара, которые поженились»)
GROUP_NOUNS = frozenset({
    "пара", "парочка", "чета", "семья", "семейство", "группа", "команда", "бригада", "экипаж", "толпа", "народ",
    "население", "молодежь", "публика", "труппа", "дуэт", "трио", "квартет", "поколение", "компания",
    "число", "количество", "большинство", "меньшинство", "множество", "ряд", "масса", "часть", "половина",
    "десяток", "сотня", "тысяча", "миллион",
})
#: verbs whose nominal complement is a predicate (its number goes with the subject's)
COPULAR_VERBS = frozenset({
    "быть", "являться", "явиться", "стать", "становиться", "считаться", "оказаться", "оказываться",
    "остаться", "оставаться", "казаться", "показаться", "называться", "назваться", "служить",
    "послужить", "слыть", "прослыть", "делаться", "сделаться", "считать", "назвать", "называть",
    "признать", "признавать", "выглядеть",
})
#: relations by which a word hangs on the noun it follows inside one noun phrase
_PHRASE_RELS = frozenset({"nmod", "appos", "conj", "acl", "amod", "det", "nummod", "flat", "case", "cc", "punct",
                          "obl", "advmod", "obj", "iobj", "fixed", "compound", "mark", "parataxis"})
#: pronouns that host no «который» clause (interrogatives, reflexive, the demonstrative «это»)
_NO_HOST_PRONOUNS = frozenset({"что", "кто", "себя", "это", "сам", "который", "чей", "каков", "он", "весь"})
_BREAKS = frozenset({"—", "–", "-", ":", ";"})
_SENTENCE_ENDS = frozenset({".", "!", "?", "…"})
#: words of a marriage or union: a plural relative may then take the two persons of the clause
#: together («Арсинда вышла замуж за графа, потомки которых» — the couple's descendants)
_UNION_WORDS = frozenset({"замуж", "жениться", "пожениться", "брак", "венчаться", "обвенчаться", "обручиться",
                          "сочетаться", "развестись", "развод", "супруг", "супруга", "союз"})
_HOST_UPOS = frozenset({"NOUN", "PROPN", "PRON", "DET", "NUM", "ADJ"})
_NOMINAL_UPOS = frozenset({"NOUN", "PROPN", "PRON"})
_COORDINATORS = frozenset({"и", "или", "либо", "да"})
_OC_CASE = {"nomn": "Nom", "gent": "Gen", "gen2": "Gen", "datv": "Dat", "accs": "Acc", "ablt": "Ins",
            "loct": "Loc", "loc2": "Loc"}

Reading = tuple[str | None, str | None]


def host_features(morph: Morph, tok: Token, any_gender: bool = False) -> set[Reading]:
    """(number, gender) pairs ``tok`` may have as a host: the parser's, and for a noun every pymorphy3
    reading of its lemma in the parser's case (any case when the parser gives none). Gender None is "any"
    (plural, unknown, or ``any_gender``: a common-gender noun)."""
    out: set[Reading] = set()
    number, gender = tok.feats.get("Number"), tok.feats.get("Gender")
    if number:
        out.add((number, None if number == "Plur" or any_gender else gender))
    if tok.upos not in ("NOUN", "PROPN"):
        return out  # pronouns and substantivised words: the parser's reading only
    if out and any(p.tag.POS == "NOUN" and "Fixd" in p.tag.grammemes for p in morph.parses(tok.form)):
        return out  # an indeclinable noun («алиби», «ПМЖ»): its number is the context's, the parser's
    case = tok.feats.get("Case")
    lemma = norm(tok.lemma)
    for p in morph.parses(tok.form):
        if p.tag.POS not in ("NOUN", "NPRO", "ADJF", "PRTF", "NUMR") or norm(p.normal_form) != lemma:
            continue
        p_case = next((_OC_CASE[g] for g in p.tag.grammemes if g in _OC_CASE), None)
        if case and p_case and p_case != case:
            continue
        a = agr_from_tag(p.tag)
        if a.number:
            out.add((a.number, None if a.number == "Plur" or any_gender else a.gender))
    return out


def group_noun(tok: Token) -> bool:
    """Whether ``tok`` is a singular-form noun of a group whose members a plural «которые» may refer to
    («молодая пара, которые поженились»; :data:`GROUP_NOUNS`)."""
    return tok.upos in ("NOUN", "PROPN") and norm(tok.lemma) in GROUP_NOUNS


def plural_coordination(nouns: Iterable[Token], morph: Morph) -> bool:
    """Whether every conjunct of a coordination is a plain plural noun: tagged plural by the parser, with no
    singular reading of its form in the parser's case (by pymorphy3), and no group noun («бумаги и
    департаменты», «не министрами, а лицами»). A singular «который» then fits neither the whole
    coordination nor any one conjunct («бумаги и департаменты, которому они интересны» is ungrammatical
    in every reading); one singular or case-ambiguous conjunct («ложки и нож», «лица[gen.sg?]») gives False,
    and so do conjuncts whose plural readings share no case (the parser's coordination of a noun with
    its genitive: «колоннами и скульптурами[ins] муз[gen, conj]»)."""
    shared: set[str | None] | None = None
    for t in nouns:
        case = t.feats.get("Case")
        if t.upos not in ("NOUN", "PROPN") or t.feats.get("Number") != "Plur" or case is None or group_noun(t):
            return False
        readings = noun_readings(morph, t.form, norm(t.lemma), ("NOUN",))
        if not any(r.number == "Plur" and r.case == case for r in readings) or \
                any(r.number == "Sing" and r.case == case for r in readings):
            return False
        cases = {r.case for r in readings if r.number == "Plur"}
        shared = cases if shared is None else shared & cases
    return bool(shared)


def _modifier(sent: Sentence, t: Token) -> bool:
    """An agreeing modifier of a nominal (it hosts nothing: its noun does)."""
    if t.upos not in ("ADJ", "DET", "NUM") or t.base_deprel not in ("amod", "det", "nummod") or not t.head:
        return False
    return sent.head_of(t).upos in _NOMINAL_UPOS


def _counted_or_coordinated(sent: Sentence, t: Token) -> bool:
    """Whether ``t`` stands for several things: coordinated with a nominal (tree or surface «X и Y»),
    counted by a numeral or quantity word, or a group noun."""
    if norm(t.lemma) in GROUP_NOUNS:
        return True
    for k in sent.children(t):
        if k.base_deprel == "conj" and k.upos in _NOMINAL_UPOS:
            return True
        if k.upos == "NUM" or k.base_deprel == "nummod" or norm(k.lemma) in QUANTITY_LEMMAS:
            return True
    if t.base_deprel == "conj" and t.head and sent.head_of(t).upos in _NOMINAL_UPOS:
        return True
    prev = sent.token(t.id - 1) if t.id > 1 else None
    if prev is not None and (prev.upos == "NUM" or norm(prev.lemma) in QUANTITY_LEMMAS):
        return True
    # surface coordination the parser did not link: «X и Y» / «X, Y и Z» within three words
    nxt = [sent.token(i) for i in range(t.id + 1, min(len(sent.tokens), t.id + 4) + 1)]
    if nxt and norm(nxt[0].form) in _COORDINATORS:
        return any(n.upos in ("NOUN", "PROPN") and n.feats.get("Case") == t.feats.get("Case") for n in nxt[1:])
    return False


def _reach(sent: Sentence, t: Token, start: int, morph: Morph) -> int:
    """The last word before ``start`` that the phrase of ``t`` spans: ``t`` and its dependents,
    transitively, not through clauses with a finite verb of their own (the antecedent's relative
    clause, «…, где …»). A noun whose phrase runs up to the relative phrase («соли алкалоидов,
    найденных в листьях, которые»; «картины, в том числе портрет, который»; «отец и сын, которые»)
    may be its antecedent; one whose phrase ends earlier («На метопе изображён бык, которого») may not."""
    best, stack = t.id, [t]
    while stack:
        node = stack.pop()
        for k in sent.children(node):
            if k.id >= start:
                continue
            if k.base_deprel not in _PHRASE_RELS or k.deprel == "acl:relcl" or k.feats.get("Variant") == "Short":
                continue
            if k.upos in ("VERB", "AUX") and k.feats.get("VerbForm") in ("Fin", "Conv", "Inf"):
                continue  # a clause or converb phrase of its own («поигрывая кубком»)
            if k.base_deprel == "acl" and any(p.tag.POS == "GRND" for p in morph.parses(k.form)):
                continue  # a converb the parser read as a participle
            if k.upos != "PUNCT":
                best = max(best, k.id)
            stack.append(k)
    return best


def _cases(morph: Morph, tok: Token) -> set[str]:
    """The parser's case of ``tok`` and every case pymorphy3 reads its form in."""
    out = {tok.feats["Case"]} if tok.feats.get("Case") else set()
    for p in morph.parses(tok.form):
        out |= {_OC_CASE[g] for g in p.tag.grammemes if g in _OC_CASE}
    return out


def _split_sibling(sent: Sentence, t: Token, antecedent: Token, morph: Morph) -> bool:
    """Whether the nominal ``t`` and the later ``antecedent`` hang on one word by one relation, with the
    same preposition (or none), in a common case and with no
    finite verb between them: a coordination, apposition or «а точнее …»/«в том числе …» insertion
    the parser split into two dependents («показал книгу, а точнее её первый том, о котором»). The
    parser's cases must be equal, or nominative and accusative with a case in common on pymorphy3's
    readings (the parser often reads such a second object as nominative)."""
    if t.upos not in _NOMINAL_UPOS or t.head != antecedent.head or t.id > antecedent.id \
            or t.base_deprel != antecedent.base_deprel:
        return False
    if {norm(k.form) for k in sent.children(t, "case")} != {norm(k.form) for k in sent.children(antecedent, "case")}:
        return False  # (another preposition: «провёл Кэйтса до двери»)
    cases = {t.feats.get("Case"), antecedent.feats.get("Case")}
    if len(cases) > 1 and not (cases <= {"Nom", "Acc"} and _cases(morph, t) & _cases(morph, antecedent)):
        return False  # (the parser often reads such a second object as nominative)
    return not any(u.upos in ("VERB", "AUX") and u.feats.get("VerbForm") == "Fin"
                   for u in sent.tokens[t.id: antecedent.id - 1])


def earlier_host(sent: Sentence, start: int, antecedent: Token, readings: Iterable[Reading], morph: Morph,
                 any_gender: Iterable[int] = ()) -> bool:
    """Whether a nominal before token id ``start`` (the first word of the relative phrase), other than
    ``antecedent`` and its own modifiers, could host a «который» with one of ``readings``
    ((number, gender); gender None: any). ``any_gender``: ids of common-gender nouns (a singular of
    any gender fits them). (The subject of a predicate-nominal antecedent does not count: «который»
    agrees with the noun it restricts, «комната была жилищем, которое»/*«которую».)"""
    readings = set(readings)
    plural = any(n == "Plur" for n, _ in readings)
    common = set(any_gender)
    last = max((t.id for t in sent.tokens[: max(0, start - 1)] if t.upos != "PUNCT"), default=0)
    for t in sent.tokens[: max(0, start - 1)]:
        if _reach(sent, t, start, morph) < last and not _split_sibling(sent, t, antecedent, morph):
            continue  # its phrase ends before the relative clause: it cannot be the antecedent
        if any(u.form in _BREAKS for u in sent.tokens[t.id: max(t.id, start - 1)]):
            continue  # a dash, colon or semicolon between them («Повод – за планшетом, который»)
        if t.id == antecedent.id or t.upos not in _HOST_UPOS or t.base_deprel == "fixed":
            continue
        if not any(c.isalpha() for c in t.form) or t.feats.get("Person") in ("1", "2"):
            continue
        if norm(t.lemma) in _NO_HOST_PRONOUNS or norm(t.form) in _NO_HOST_PRONOUNS or _modifier(sent, t):
            continue
        if t.upos in ("ADJ", "NUM") and t.base_deprel not in ("nsubj", "obj", "iobj", "obl", "nmod", "conj", "root"):
            continue  # a predicate adjective or a number in a date hosts nothing
        if plural and t.upos in _NOMINAL_UPOS and _counted_or_coordinated(sent, t):
            return True
        for number, gender in host_features(morph, t, t.id in common):
            for r_number, r_gender in readings:
                if r_number == number and (number == "Plur" or r_gender is None or gender in (None, r_gender)):
                    return True
    return False


def _clause_top(sent: Sentence, t: Token) -> Token:
    """The predicate of the clause ``t`` stands in: the first verb (finite, infinitive, participle or
    converb) or root on the way up from ``t`` (``t`` itself when it is a verb)."""
    node, steps = t, 0
    while node.head != 0 and node.upos not in ("VERB", "AUX") and steps <= len(sent.tokens):
        node, steps = sent.head_of(node), steps + 1
    return node


def clause_plural_host(sent: Sentence, start: int, antecedent: Token, morph: Morph,
                       possessive: bool = False) -> bool:
    """Whether a plural «которые» (or another plural form) before token id ``start`` could take some
    other antecedent than ``antecedent`` in the same clause (strict validity read, issue 18, round 3):

    * a plural noun phrase, a coordination or a counted or group noun anywhere in the clause of the
      antecedent before the relative phrase, not only one whose phrase reaches it (a reader attaches
      «которые» high: «исследования в области химии, которые»; «трупы людей и каннибализм, которые»);
    * a coordination or counted noun between the antecedent and the relative phrase, in any clause
      («за графа, женатого на Y и Z, потомки которых»);
    * the subject of that clause when it and the antecedent are two persons and the sentence speaks
      of a marriage or union (:data:`_UNION_WORDS`): a plural relative may take the two together
      («Арсинда вышла замуж за графа, потомки которых» — the couple's); with ``possessive`` (the
      pronoun is a possessor genitive, «потомки которого») any other person of the clause counts
      («Арсинда и её граф, дети которых»: their children).

    Personal pronouns, modifiers and words behind a dash, colon or semicolon do not count (as in
    :func:`earlier_host`); a verb's own nested clause (participle, infinitive, subordinate) is another
    clause."""
    top = _clause_top(sent, antecedent)
    couple = antecedent.feats.get("Animacy") == "Anim" and any(
        norm(u.lemma) in _UNION_WORDS or norm(u.form) in _UNION_WORDS for u in sent.tokens[: max(0, start - 1)])
    for t in sent.tokens[: max(0, start - 2)]:
        if t.id == antecedent.id or t.upos not in ("NOUN", "PROPN", "DET", "PRON") or t.base_deprel == "fixed":
            continue
        if t.upos in ("PRON", "DET") and (t.feats.get("PronType") == "Prs" or norm(t.lemma) in _NO_HOST_PRONOUNS
                                          or norm(t.lemma) in PERSONAL_PRONOUNS
                                          or t.feats.get("Person") in ("1", "2") or _modifier(sent, t)):
            continue
        if any(u.form in _BREAKS or u.form in _SENTENCE_ENDS for u in sent.tokens[t.id: max(t.id, start - 1)]):
            continue
        if t.id > antecedent.id and _counted_or_coordinated(sent, t):
            return True  # a coordination between the antecedent and the pronoun, whatever its clause
        if _clause_top(sent, t).id != top.id:
            continue
        numbers = {n for n, _ in host_features(morph, t)}
        if "Plur" in numbers or _counted_or_coordinated(sent, t):
            return True
        if (couple and t.base_deprel in ("nsubj", "nsubj:pass") or possessive and antecedent.feats.get("Animacy") == "Anim") \
                and t.id < antecedent.id \
                and norm(t.lemma) != norm(antecedent.lemma) \
                and (t.feats.get("Animacy") == "Anim" or t.upos == "PROPN"):
            return True
    return False


def _after_dash(sent: Sentence, noun: Token) -> bool:
    """A nominative noun whose phrase follows a dash that follows a nominal: the predicate of «X — Y»
    («Фотосинтез — процесс, при котором …»), whatever the parser hung it on."""
    if noun.feats.get("Case") != "Nom" or sent.children(noun, "case"):
        return False
    first = min([noun.id] + [k.id for k in sent.children(noun)
                             if k.id < noun.id and k.base_deprel in ("amod", "det", "nummod", "advmod")])
    if first < 3 or sent.token(first - 1).form not in ("—", "–", "-"):
        return False
    before = sent.token(first - 2)
    return before.upos in _NOMINAL_UPOS or (before.upos == "PUNCT" and first > 3
                                            and sent.token(first - 3).upos in _NOMINAL_UPOS)


def number_controls_outside(sent: Sentence, noun: Token, morph: Morph) -> bool:
    """Whether the number of ``noun`` enters a relation outside its phrase that the parser did not label
    as a subject: a predicate nominal of a copular or naming verb (``xcomp``/``obl``/``obj``/``nmod``
    of :data:`COPULAR_VERBS`, or a ``cop`` of such a verb on it) or after the dash of «X — Y», or a nominative read as a
    non-subject of a finite verb or short form that agrees with it in number and has no subject."""
    if noun.base_deprel in ("nsubj", "csubj"):
        return False  # labelled subjects: the caller's own check
    if _after_dash(sent, noun):
        return True
    head = sent.head_of(noun) if noun.head else None
    if any(k.base_deprel in ("cop",) for k in sent.children(noun)):
        return True
    if head is not None and norm(head.lemma) in COPULAR_VERBS and not sent.children(noun, "case") \
            and noun.base_deprel in ("xcomp", "obl", "obj", "nmod", "advcl", "iobj") \
            and noun.feats.get("Case") in ("Ins", "Nom"):
        return True
    if head is None or sent.children(noun, "case"):
        return False
    number = noun.feats.get("Number")
    if head.upos not in ("VERB", "AUX", "ADJ") or not number:
        return False
    finite = head.feats.get("VerbForm") == "Fin" or head.feats.get("Variant") == "Short"
    if not finite or head.feats.get("Number") != number or head.feats.get("Person") in ("1", "2"):
        return False
    if any(k.base_deprel in ("nsubj", "csubj") for k in sent.children(head)):
        return False
    nominative = any(p.tag.POS == "NOUN" and "nomn" in p.tag.grammemes and
                     ("sing" if number == "Sing" else "plur") in p.tag.grammemes for p in morph.parses(noun.form))
    return nominative and (noun.feats.get("Case") == "Nom" or norm(head.form).endswith(("ся", "сь")))


def _agrees_in_number(pred: Token, noun: Token) -> bool:
    """Whether the finite verb or short form ``pred`` (3rd person) agrees with ``noun`` in number, and
    in gender where it shows one in the singular."""
    if pred.feats.get("Person") in ("1", "2") or pred.feats.get("Number") != noun.feats.get("Number"):
        return False
    g = pred.feats.get("Gender")
    return not (noun.feats.get("Number") == "Sing" and g and noun.feats.get("Gender") and g != noun.feats["Gender"])


def possible_subject(sent: Sentence, noun: Token, morph: Morph, skip: Token | None = None) -> bool:
    """Whether ``noun`` (no preposition, with a nominative reading in its number) may be the subject of
    a finite verb or short form of its clause that agrees with it and has no agreeing nominative subject
    of its own — whatever relation the parser gave it («Требуется[root] специалист[obj], который»,
    «Упала девочка, которая», a noun the parser made the root with its verb hung below). Changing its
    number would break that agreement too (strict validity read, issue 18, round 3). ``skip``: the
    head of the noun's relative clause (its verbs are the relative clause's)."""
    if sent.children(noun, "case") or not noun.feats.get("Number"):
        return False
    number = "sing" if noun.feats["Number"] == "Sing" else "plur"
    if not any(p.tag.POS == "NOUN" and "nomn" in p.tag.grammemes and number in p.tag.grammemes
               for p in morph.parses(noun.form)):
        return False
    preds = []
    top = _clause_top(sent, noun)
    if top.id != noun.id:
        preds.append(top)
    preds += [k for k in sent.children(noun) if skip is None or k.id != skip.id]
    for pred in preds:
        if pred.upos not in ("VERB", "AUX", "ADJ"):
            continue
        if not (pred.feats.get("VerbForm") == "Fin" or pred.feats.get("Variant") == "Short"):
            continue
        if not _agrees_in_number(pred, noun):
            continue
        if any(k.id != noun.id and k.base_deprel in ("nsubj", "csubj") and k.feats.get("Case", "Nom") == "Nom"
               and (k.upos not in ("NOUN", "PROPN", "PRON") or _agrees_in_number(pred, k))
               for k in sent.children(pred)):
            continue  # the verb has a subject of its own
        return True
    return False
