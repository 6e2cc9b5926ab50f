"""Aspect pairs: the perfective partner of an imperfective verb.

The ASPECT paradigms (RuBLiMP Appendix B.3.2) replace an imperfective verb by
its perfective partner. The paper takes the pairs from Zaliznyak's dictionary;
rublimp derives them from pymorphy3's dictionary (OpenCorpora) instead, with
the word-formation patterns that relate the two members of a Russian aspect
pair (standard grammar facts, e.g. Russian Grammar 1980 §§1400–1440, Zaliznyak
1977 on secondary imperfectives):

* secondary imperfectives (suffixation): the imperfective is derived from a
  prefixed perfective with -ыва-/-ива- (переписать → переписывать, with the
  root vowel о → а and the consonant alternations т/ч, с/ш, д/ж(д), ст/щ,
  в/вл …: спросить → спрашивать), with -ва- after a vowel (дать → давать,
  остаться → оставаться), with -а-/-я- against a perfective in -ить/-еть
  (решить → решать, ответить → отвечать, объявить → объявлять), or against
  one in -нуть / -чь (привыкнуть → привыкать, помочь → помогать), and the
  stem alternations of a few root families (-йти/-ходить, -ехать/-езжать,
  -нять/-нимать, -ереть/-ирать, -ложить/-кладывать …);
* perfectivisation by prefix: an unprefixed imperfective takes a prefix
  (делать → сделать, писать → написать); only prefixed perfectives without a
  common secondary imperfective of their own count (записать has записывать,
  so it is a new lexeme rather than the partner of писать), and inceptive
  за- only for transitive verbs (гудеть → загудеть is no pair);
* a few suppletive or irregular pairs written by hand (говорить → сказать,
  брать → взять, …), and a hand-written list of verbs the patterns pair
  wrongly (знать → узнать, являться → явиться, …).

Every candidate must be a dictionary infinitive of the opposite aspect (and
not two-aspect); among several candidates the most specific pattern, then the
fewest stem alternations, then the most frequent one by wordfreq wins — the
paper likewise keeps, for verbs with several partners, the pair of the higher
frequency. The derivation (``resources/derive/derive_aspect_pairs.py``)
writes ``resources/aspect_pairs.tsv``; the paradigms read that file (or an
external list named by ``ctx.options["aspect_pairs"]``) with
:func:`load_aspect_pairs`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from .io import InputError

__all__ = [
    "AspectPair",
    "AspectPairs",
    "load_aspect_pairs",
    "suffix_candidates",
    "prefix_candidates",
    "derive_pairs",
    "dictionary_infinitives",
    "verb_ipm",
    "PREFIXES",
    "HAND_PAIRS",
    "NOT_PAIRS",
    "ASPECT_PAIRS_FILE",
]

ASPECT_PAIRS_FILE = "aspect_pairs.tsv"
REQUIRED_COLUMNS = ("imperfective", "perfective")

# Prefixes that perfectivise an unprefixed imperfective, with their variants
# before consonant clusters (со-, обо-, …) and before voiceless consonants (с-, рас-, …).
PREFIXES: tuple[str, ...] = (
    "по", "с", "со", "за", "на", "про", "вы", "о", "об", "обо", "у", "при", "из", "ис", "изо",
    "раз", "рас", "разо", "от", "ото", "в", "во", "вз", "вс", "взо", "под", "подо", "пере", "до",
    "воз", "вос", "пре", "над",
)

# Pairs written by hand (imperfective → perfective): suppletive and irregular
# pairs the patterns below cannot derive, and verbs whose most frequent
# prefixed perfective is another lexeme (дарить: ударить is more frequent than
# the partner подарить).
HAND_PAIRS: dict[str, str] = {
    "говорить": "сказать",
    "брать": "взять",
    "класть": "положить",
    "ловить": "поймать",
    "садиться": "сесть",
    "сажать": "посадить",
    "ложиться": "лечь",
    "становиться": "стать",
    "возвращаться": "вернуться",
    "возвращать": "вернуть",
    "покупать": "купить",
    "вынимать": "вынуть",
    "отрывать": "оторвать",
    "срывать": "сорвать",
    "разрывать": "разорвать",
    "взрывать": "взорвать",
    "отзывать": "отозвать",
    "просыпаться": "проснуться",
    "вешать": "повесить",
    "отсылать": "отослать",
    "собираться": "собраться",
    "опаздывать": "опоздать",
    "дарить": "подарить",
    "рвать": "порвать",
    "лезть": "полезть",
    "гореть": "сгореть",
    "делаться": "сделаться",
    "кричать": "крикнуть",
    "травить": "отравить",
    "гладить": "погладить",
    "глядеть": "поглядеть",
    "катиться": "покатиться",
    "оглядываться": "оглянуться",
    "приглядываться": "приглядеться",
    "нарастать": "нарасти",
    "изрывать": "изрыть",
    "упоминать": "упомянуть",
    "изымать": "изъять",
    "затевать": "затеять",
    "отзываться": "отозваться",
}

# Imperfectives the derivation pairs wrongly, found by reading the derived list:
# the "partner" is another lexeme, or the imperfective's main sense has no
# perfective (являться 'be', следовать 'should', знать/узнать).
NOT_PAIRS: dict[str, str] = {
    "быть": "прибыть is another verb",
    "есть": "есть 'there is' dominates; съесть only pairs with 'eat'",
    "иметь": "поиметь is slang",
    "являться": "copular 'be' has no perfective",
    "находиться": "'be located' has no perfective; найтись is 'be found'",
    "происходить": "'descend from' and 'happen': произойти only pairs with 'happen'",
    "расходиться": "'differ' (views) has no perfective",
    "сходиться": "'agree, converge' (views) has no perfective",
    "походить": "'resemble'; пойти pairs with идти",
    "поводить": "'move a little' (плечом), not повести",
    "поносить": "'abuse, revile', not понести",
    "знать": "узнать is 'find out'",
    "следовать": "modal 'should' has no perfective",
    "называться": "назваться is 'introduce oneself'",
    "относиться": "'belong to' has no perfective",
    "утверждать": "'claim' has no perfective; утвердить is 'approve'",
    "отличаться": "отличиться is 'distinguish oneself'",
    "отмечаться": "отметиться is 'check in'",
    "говориться": "сговориться is 'conspire'",
    "судить": "отсудить is 'win in court'",
    "вести": "вести себя; провести is 'spend, carry out'",
    "нести": "вынести is 'carry out, endure'",
    "везти": "везти 'be lucky'; вывезти is 'export'",
    "водить": "the prefixed verbs are new lexemes",
    "рассчитывать": "'count on' has no perfective",
    "воевать": "завоевать is 'conquer'",
    "полагать": "положить is 'put'",
    "располагать": "'have at one's disposal' has no perfective",
    "держаться": "продержаться is perdurative",
    "лежать": "пролежать is perdurative",
    "стоять": "устоять is 'withstand'",
    "жить": "no pure partner (прожить is perdurative)",
    "весить": "повесить is 'hang'",
    "пасти": "спасти is 'save'",
    "мести": "умести is not a partner",
    "ставиться": "уставиться is 'stare'",
    "браться": "разобраться is 'sort out'",
    "читаться": "начитаться is 'read one's fill'",
    "смотреться": "насмотреться is 'see one's fill'",
    "мокнуть": "замокнуть is not a partner",
    "гадать": "прогадать is 'miscalculate'",
    "пытать": "попытать is an idiom (попытать счастья)",
    "тянуться": "затянуться is 'drag on, inhale'",
    "мыслить": "замыслить is 'conceive'",
    "купаться": "покупаться is also the passive of покупать",
    "рассуждать": "рассудить is 'judge'",
    "насчитывать": "'number (so many)' has no perfective",
    "честь": "a noun in practice",
    "действовать": "воздействовать is 'affect'",
    "гонять": "the prefixed verbs are new lexemes",
    "помниться": "опомниться is 'come to one's senses'",
    "носиться": "наноситься is 'carry one's fill'",
    "возиться": "вывозиться is 'get dirty'",
    "вертеться": "отвертеться is 'wriggle out'",
    "гнаться": "разогнаться is 'speed up'",
    "вещать": "завещать is 'bequeath'",
    "именовать": "переименовать is 'rename'",
    "лепить": "слепить is two-aspect, влепить is 'slap'",
    "ведать": "поведать is 'tell'",
    "кружить": "вскружить is an idiom (вскружить голову)",
    "палить": "подпалить is 'singe'",
    "косить": "подкосить is 'mow down, undermine'",
    "стучаться": "достучаться is 'get through'",
    "трясти": "потрясти is 'shock'",
    "покоиться": "упокоиться is 'be laid to rest'",
    "играться": "заиграться is 'get carried away playing'",
    "сосать": "соснуть is slang",
    "колоть": "расколоть is 'split'",
    "прослеживаться": "прослезиться is 'shed tears'",
    "выплачиваться": "выплакаться is 'cry one's fill'",
    "раскалываться": "раскалиться is 'get red-hot'",
    "заблуждаться": "заблудиться is 'get lost'",
    "хвататься": "хватиться is 'miss'",
    "добываться": "добиться is 'achieve'",
    "подумывать": "an attenuative, not a secondary imperfective",
    "топить": "'heat' (истопить) and 'drown' (утопить) are different verbs",
    "учить": "'learn' (выучить) and 'teach' (научить) are different verbs",
    "гнать": "выгнать/перегнать/погнать are new lexemes",
    "рваться": "ворваться/дорваться are new lexemes",
    "замачиваться": "замотаться is 'get tired'",
    "оплывать": "опить is not its partner (оплыть)",
    "подкапывать": "подкопить is 'save up'",
    "подмывать": "подмять is 'crush'",
    "накрапывать": "накропать is 'scribble'",
    "заклинать": "заклинить is 'jam'",
}

# Reversed consonant alternations: the imperfective stem's final consonant(s)
# → what the perfective stem may have instead (спрашивать ← спросить).
_UNMUTATE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("жд", ("д",)),
    ("щ", ("ст", "т", "ск")),
    ("ск", ("щ", "ст")),
    ("ш", ("с", "х")),
    ("ж", ("з", "д", "г")),
    ("ч", ("т", "к")),
    ("бл", ("б",)),
    ("пл", ("п",)),
    ("вл", ("в",)),
    ("мл", ("м",)),
    ("фл", ("ф",)),
)
_VOWELS = set("аеёиоуыэюя")

# whole-ending replacements for root families (imperfective ending → perfective endings)
_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ходить", ("йти", "ойти")),
    ("езжать", ("ехать",)),
    ("бегать", ("бежать",)),
    ("летать", ("лететь",)),
    ("носить", ("нести",)),
    ("водить", ("вести",)),
    ("возить", ("везти",)),
    ("лагать", ("ложить",)),
    ("кладывать", ("ложить",)),
    ("сылать", ("слать",)),
    ("падать", ("пасть",)),
    ("растать", ("расти",)),
    ("нимать", ("нять",)),
    ("имать", ("ать",)),
    ("инать", ("ать", "ять", "нить")),
    ("ирать", ("ереть", "рать")),
    ("ывать", ("вать",)),
    ("гать", ("чь",)),
    ("кать", ("чь",)),
    ("игать", ("ечь",)),
    # stems with a vowel alternation or an inserted о (поворачивать → повернуть, подбирать →
    # подобрать, обгонять → обогнать, срывать → сорвать, заглядывать → заглянуть)
    ("ворачивать", ("вернуть",)),
    ("бирать", ("обрать",)),
    ("гонять", ("гнать", "огнать")),
    ("рывать", ("рвать", "орвать")),
    ("лезать", ("лезти", "лезть")),
    ("глядывать", ("глянуть",)),
    ("обретать", ("обрести",)),
)


# preference among the suffixal patterns (lower first)
_PATTERN_RANK = {"hand": 0, "family": 1, "-ва-": 2, "-ыва-": 3, "-а-": 4, "-нуть": 5, "prefix": 6}
# which imperfective a perfective derivable from several belongs to (lower first)
_CLAIM_RANK = {"hand": 0, "family": 1, "-ва-": 2, "-а-": 3, "-ыва-": 4, "-нуть": 5, "prefix": 6}


def _split_reflexive(verb: str) -> tuple[str, bool]:
    if verb.endswith(("ся", "сь")) and len(verb) > 4:
        return verb[:-2], True
    return verb, False


def _add_reflexive(verb: str, reflexive: bool) -> str:
    if not reflexive:
        return verb
    return verb + ("сь" if verb[-1] in _VOWELS else "ся")


def _stem_variants(stem: str, *, root_vowel: bool) -> dict[str, int]:
    """The stem with its final consonant alternation undone, and (``root_vowel``,
    for -ыва-/-ива- only) its last а/ы read as an imperfective о (рассматр- ← рассмотр-);
    each variant with the number of alternations it undoes."""
    out = {stem: 0}
    for end, repl in _UNMUTATE:
        if stem.endswith(end):
            out.update((stem[: -len(end)] + r, 1) for r in repl)
            break
    if root_vowel:
        for s, n in list(out.items()):
            for vowel in ("а", "ы"):
                i = s.rfind(vowel)
                if i > 0:
                    out.setdefault(s[:i] + "о" + s[i + 1 :], n + 1)
    return out


def _suffix_candidates(impf: str) -> dict[str, tuple[str, int]]:
    """candidate → (pattern, number of stem alternations undone)."""
    base, refl = _split_reflexive(impf.lower().replace("ё", "е"))
    found: dict[str, tuple[str, int]] = {}

    def add(cand: str, pattern: str, changes: int = 0) -> None:
        if cand and cand != base and len(cand) > 3:
            key = _add_reflexive(cand, refl)
            if key not in found or found[key][1] > changes:
                found[key] = (pattern, changes)

    if base.endswith("вать") and len(base) > 5 and base[-5] in _VOWELS:
        add(base[:-4] + "ть", "-ва-")
    if base.endswith(("ывать", "ивать")) and _VOWELS & set(base[:-5]):
        for s, n in _stem_variants(base[:-5], root_vowel=True).items():
            for ending in ("ать", "ить", "еть", "ять", "нуть"):
                add(s + ending, "-ыва-", n)
            if s.endswith("н"):
                add(s + "уть", "-ыва-", n)  # обманывать → обмануть
    # a root needs a vowel: ждать is not a secondary imperfective of *деть
    if base.endswith(("ать", "ять")) and _VOWELS & set(base[:-3]):
        for s, n in _stem_variants(base[:-3], root_vowel=False).items():
            for ending in ("ить", "еть"):
                add(s + ending, "-а-", n)
        stem = base[:-3]
        add(stem + "нуть", "-нуть")  # привыкать → привыкнуть
        for i in {stem.rfind("а"), stem.rfind("ы")} - {-1, 0}:
            add(stem[:i] + "о" + stem[i + 1 :] + "нуть", "-нуть", 1)  # отдыхать → отдохнуть
        i = stem.rfind("ы")
        if i > 0:
            add(stem[:i] + stem[i + 1 :] + "нуть", "-нуть", 1)  # натыкаться → наткнуться
    for ending, repls in _FAMILIES:
        if base.endswith(ending) and len(base) > len(ending):
            for r in repls:
                add(base[: -len(ending)] + r, f"family:{ending}")
    return found


def suffix_candidates(impf: str) -> list[tuple[str, str]]:
    """Perfective candidates for an imperfective infinitive by the suffixal patterns.

    Returns ``(candidate, pattern)`` pairs, unverified (most are not words);
    the pattern names the imperfective's derivation (``-ыва-``, ``-ва-``,
    ``-а-``, ``-нуть``, ``family:<ending>``).
    """
    return sorted((c, pat) for c, (pat, _) in _suffix_candidates(impf).items())


def prefix_candidates(impf: str) -> list[tuple[str, str]]:
    """``(prefix + impf, "prefix:<prefix>")`` for every perfectivising prefix."""
    verb = impf.lower().replace("ё", "е")
    out = {}
    for p in PREFIXES:
        if p[-1] in _VOWELS:
            cand = p + verb
        elif verb[0] in "еёюя":  # ъ after a consonant prefix (съесть, объехать)
            cand = p + "ъ" + verb
        elif verb[0] == "и":  # и → ы after a consonant prefix (сыграть, разыскать)
            cand = p + "ы" + verb[1:]
        else:
            cand = p + verb
        out.setdefault(cand, f"prefix:{p}")
    return sorted(out.items())


# -- derivation ------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class AspectPair:
    """One imperfective verb and its perfective partner."""

    imperfective: str
    perfective: str
    pattern: str = ""
    ipm_imperfective: float = 0.0
    ipm_perfective: float = 0.0


def dictionary_infinitives(analyzer=None, *, progress: bool = False) -> dict[str, frozenset[str]]:
    """Every infinitive lemma of pymorphy3's dictionary with its aspects (``{"impf"}``, ``{"perf"}`` or both).

    Walks the whole word DAWG (about five million forms; minutes on a slow
    machine) — it is meant for the offline derivation script, not the pipeline.
    """
    if analyzer is None:
        import pymorphy3

        analyzer = pymorphy3.MorphAnalyzer()
    d = analyzer.dictionary
    inf_paradigms: dict[int, frozenset[str]] = {}
    for pid, para in enumerate(d.paradigms):
        tag = d.gramtab[para[len(para) // 3]]
        if "INFN" in str(tag):
            inf_paradigms[pid] = frozenset(a for a in ("perf", "impf") if a in str(tag))
    items: Iterable = d.words.iteritems()
    if progress:
        from tqdm.auto import tqdm

        items = tqdm(items, desc="pymorphy3 dictionary", unit="form", disable=None)
    out: dict[str, set[str]] = {}
    for word, (pid, idx) in items:
        if idx == 0 and pid in inf_paradigms:
            out.setdefault(word, set()).update(inf_paradigms[pid])
    return {w: frozenset(a) for w, a in sorted(out.items())}


@functools.lru_cache(maxsize=1)
def _analyzer():
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@functools.lru_cache(maxsize=200_000)
def verb_ipm(lemma: str) -> float:
    """Frequency per million (wordfreq, Russian) of a verb: its infinitive and its common finite forms.

    Infinitives alone under-count some verbs (сказать is mostly сказал), so
    the past masculine/plural and the 3rd singular non-past are added.
    """
    from wordfreq import word_frequency

    forms = {lemma}
    for p in _analyzer().parse(lemma):
        if p.normal_form != lemma or p.tag.POS != "INFN":
            continue
        for grams in ({"VERB", "past", "masc", "sing"}, {"VERB", "past", "plur"}, {"VERB", "3per", "sing"}):
            try:
                f = p.inflect(grams)
            except (ValueError, KeyError):
                f = None
            if f is not None:
                forms.add(f.word)
        break
    return round(sum(word_frequency(f, "ru") for f in forms) * 1e6, 4)


def _is_transitive(verb: str) -> bool:
    """pymorphy3 marks the infinitive transitive (``tran``) in some reading."""
    return any(p.normal_form == verb and p.tag.POS == "INFN" and "tran" in p.tag for p in _analyzer().parse(verb))


def derive_pairs(
    infinitives: Mapping[str, frozenset[str]],
    *,
    ipm: Callable[[str], float] = verb_ipm,
    min_ipm: float = 0.0,
    exclude: Iterable[str] = tuple(NOT_PAIRS),
    secondary_ratio: float = 0.1,
    min_partner_ratio: float = 0.05,
    min_prefix_ipm: float = 0.5,
    transitive: Callable[[str], bool] | None = None,
    progress: bool = False,
) -> list[AspectPair]:
    """Aspect pairs for the imperfectives of ``infinitives`` (``lemma → aspects``).

    Pairs written by hand (:data:`HAND_PAIRS`) come first; then suffixal
    partners (the perfective base of a secondary imperfective); then, for
    imperfectives without one, a prefixed perfective. Among several verified
    candidates the most specific pattern wins, then the fewest stem
    alternations, then the most frequent (``ipm``); the winner must reach
    ``min_partner_ratio`` of the imperfective's frequency. Besides:

    * a perfective derivable from several imperfectives goes to the one it is
      derived from most directly (best pattern, fewest alternations), unless
      that one is rarer or the other has no candidate left;
    * prefixed partners are looked for only for imperfectives of at least
      ``min_prefix_ipm`` (for rare verbs the choice of prefix is guesswork);
    * a prefixed perfective with a secondary imperfective of its own (at least
      ``secondary_ratio`` times as frequent as the perfective) is a new
      lexeme, not a partner; inceptive за- does not count for intransitive
      verbs (``transitive``; pymorphy3's ``tran`` by default);
    * a по-…-ива- verb whose simplex is more frequent than its по-perfective
      is an attenuative (помигивать), not a secondary imperfective;
    * two-aspect verbs are neither sources nor partners; imperfectives below
      ``min_ipm`` and those in ``exclude`` (:data:`NOT_PAIRS`) are left out.
    """
    exclude = set(exclude)
    transitive = transitive or _is_transitive

    def is_perf(w: str) -> bool:
        return infinitives.get(w) == frozenset({"perf"})

    # a two-aspect infinitive of a root family (проходить 'pass' / 'walk about for a while',
    # уходить, выходить, проводить, переносить …) is an imperfective source when its family
    # partner is perfective-only (пройти): the perfective reading is a rare delimitative
    # homonym. Zaliznyak (RuBLiMP's source) pairs them; without them the commonest motion
    # verbs had no partner (a fifth of the aspect paradigms' misses on RuBLiMP's dev pairs).
    def family_source(w: str) -> bool:
        return any(
            pat.startswith("family:") and infinitives.get(c) == frozenset({"perf"})
            for c, (pat, _) in _suffix_candidates(w).items()
        )

    impfs = [
        w for w, a in infinitives.items()
        if a == frozenset({"impf"}) or (a == frozenset({"impf", "perf"}) and family_source(w))
    ]
    suffixal: dict[str, list[tuple[str, str]]] = {}
    changes: dict[tuple[str, str], int] = {}
    for w in impfs:
        cands = []
        for c, (pat, n) in _suffix_candidates(w).items():
            if is_perf(c):
                cands.append((c, pat))
                changes[w, c] = n
        if cands:
            suffixal[w] = sorted(cands)

    def closeness(w: str, c: str, pat: str) -> tuple[int, int]:
        return (_CLAIM_RANK.get(pat.split(":")[0], 9), changes.get((w, c), 0))

    # a perfective belongs to the imperfective it is derived from most directly: уложиться
    # is the partner of укладываться (root family), not of улаживаться (а → о), whose
    # partner is уладиться (ж → д); отделить is the partner of отделять (-я-), not of
    # отделывать (отделать)
    def preference(w: str, cp: tuple[str, str]) -> tuple:
        # the most specific pattern first (переживать → пережить by -ва-, not передать by -ива-
        # with ж → д; начинать → начать, not начинить), then the fewest stem alternations
        # (вымачивать → вымочить, not вымотать), then the most frequent
        return (-_PATTERN_RANK.get(cp[1].split(":")[0], 9), -changes.get((w, cp[0]), 0), ipm(cp[0]), cp[0])

    # only each imperfective's own first choice claims a perfective (вырастать prefers
    # вырасти, so вырастить stays free for выращивать)
    claims: dict[str, list[tuple[tuple[int, int], str]]] = {}
    for w, cands in suffixal.items():
        c, pat = max(cands, key=lambda cp: preference(w, cp))
        claims.setdefault(c, []).append((closeness(w, c, pat), w))

    def claimed_away(w: str, c: str, pat: str) -> bool:
        # by a closer imperfective that is not rarer (a rare «выяснивать» claims nothing
        # from выяснять)
        k = closeness(w, c, pat)
        return any(k2 < k and ipm(w2) >= ipm(w) and ipm(w2) > 0 for k2, w2 in claims.get(c, ()) if w2 != w)

    # (a verb keeps a claimed candidate when it has no other: подготовить is the partner of
    # both подготовлять and подготавливать)
    for w in list(suffixal):
        kept = [(c, pat) for c, pat in suffixal[w] if not claimed_away(w, c, pat)]
        if kept:
            suffixal[w] = kept
    # a prefixed perfective with a common secondary imperfective of its own is a new lexeme,
    # not the partner of the unprefixed verb (записать has записывать; прочитать's
    # прочитывать is rare, so прочитать stays the partner of читать)
    secondary_ipm: dict[str, float] = {}
    for w, cands in suffixal.items():
        for c, _ in cands:
            secondary_ipm[c] = max(secondary_ipm.get(c, 0.0), ipm(w))

    def own_lexeme(perf: str) -> bool:
        return perf in secondary_ipm and secondary_ipm[perf] >= secondary_ratio * ipm(perf)

    def attenuative(impf: str, perf: str) -> bool:
        # по-…-ива- verbs are often attenuatives of a simplex (помигивать 'blink now and
        # then' from мигать), not secondary imperfectives of по-perfectives (показывать):
        # the simplex is then more frequent than the по-perfective
        if not (impf.startswith("по") and perf.startswith("по") and ("ыва" in impf or "ива" in impf)):
            return False
        simplex = perf[2:]
        return infinitives.get(simplex) == frozenset({"impf"}) and ipm(simplex) > ipm(perf)

    it: Iterable[str] = impfs
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(impfs, desc="aspect pairs", unit="verb", disable=None)
    pairs = []
    for w in it:
        if w in exclude:
            continue
        if w in HAND_PAIRS and is_perf(HAND_PAIRS[w]):
            cands = [(HAND_PAIRS[w], "hand")]
        elif w in suffixal:
            cands = [(c, pat) for c, pat in suffixal[w] if not (pat == "-ыва-" and attenuative(w, c))]
            if infinitives.get(w) != frozenset({"impf"}):
                cands = [(c, pat) for c, pat in cands if pat.startswith("family:")]  # see family_source
        elif infinitives.get(w) != frozenset({"impf"}) or ipm(w) < min_prefix_ipm:
            # which prefix is the empty one is guesswork for rare verbs (роить → сроить)
            continue
        else:
            cands = [
                (c, pat) for c, pat in prefix_candidates(w)
                if is_perf(c) and not own_lexeme(c) and not (pat == "prefix:за" and not transitive(w))
            ]
        if not cands:
            continue
        w_ipm = ipm(w)
        if w_ipm < min_ipm:
            continue
        # a partner far rarer than the verb is a chance formation (жить → отжить, держать →
        # дерзнуть): the next candidate is tried (вытаскивать: the rare вытаскать, then вытащить)
        for best in sorted(cands, key=lambda cp: preference(w, cp), reverse=True):
            if best[1] != "hand" and ipm(best[0]) < min_partner_ratio * w_ipm:
                continue
            if ipm(best[0]) <= 0.0 and w_ipm > 0.0:
                continue
            pairs.append(AspectPair(w, best[0], best[1], w_ipm, ipm(best[0])))
            break
    return sorted(pairs)


# -- the table the paradigms read --------------------------------------------------
@dataclass(frozen=True)
class AspectPairs:
    """Imperfective lemma → perfective partner lemma (and the pattern, where known)."""

    pairs: Mapping[str, str]
    patterns: Mapping[str, str]

    def perfective(self, imperfective: str) -> str | None:
        """The perfective partner of an imperfective lemma, or None."""
        return self.pairs.get(imperfective.lower().replace("ё", "е"))

    def pattern(self, imperfective: str) -> str:
        return self.patterns.get(imperfective.lower().replace("ё", "е"), "")

    def __len__(self) -> int:
        return len(self.pairs)

    def __contains__(self, imperfective: object) -> bool:
        return isinstance(imperfective, str) and self.perfective(imperfective) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.pairs)


@functools.lru_cache(maxsize=8)
def load_aspect_pairs(path: str | Path) -> AspectPairs:
    """Read an aspect-pair TSV: ``#`` comment lines, a header naming at least
    ``imperfective`` and ``perfective`` (other columns, e.g. ``pattern``, optional),
    then one pair per line. Errors name the file and line."""
    path = Path(path)
    if not path.is_file():
        raise InputError("aspect pair list not found", path)
    pairs: dict[str, str] = {}
    patterns: dict[str, str] = {}
    header: list[str] | None = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.split("\t")]
            if header is None:
                missing = [c for c in REQUIRED_COLUMNS if c not in cols]
                if missing:
                    raise InputError(f"header must name the columns {', '.join(REQUIRED_COLUMNS)} (missing: {', '.join(missing)})", path, lineno)
                header = cols
                continue
            if len(cols) != len(header):
                raise InputError(f"expected {len(header)} tab-separated columns, found {len(cols)}", path, lineno)
            row = dict(zip(header, cols))
            impf = row["imperfective"].lower().replace("ё", "е")
            perf = row["perfective"].lower().replace("ё", "е")
            if not impf or not perf or not impf.isalpha() or not perf.isalpha():
                raise InputError("imperfective and perfective must be single words", path, lineno)
            if impf == perf:
                raise InputError(f"{impf!r} is paired with itself", path, lineno)
            if impf in pairs and pairs[impf] != perf:
                raise InputError(f"second perfective for {impf!r} ({pairs[impf]!r} and {perf!r})", path, lineno)
            pairs[impf] = perf
            patterns[impf] = row.get("pattern", "")
    if header is None:
        raise InputError("no header line", path)
    return AspectPairs(pairs, patterns)
