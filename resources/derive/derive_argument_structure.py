"""Regenerate ``resources/intransitive_verbs.tsv`` and ``resources/inanimate_nouns.tsv``.

Both lists feed the ARGUMENT STRUCTURE paradigms (``rublimp.paradigms.argument_structure``,
RuBLiMP Appendix B.3.1).

Inanimate nouns (the random replacements for an animate argument) are derived
from pymorphy3's dictionary, filtered by wordfreq:

* the candidates are wordfreq's most frequent Russian words with a Zipf
  frequency in ``[ZIPF_MIN, ZIPF_MAX]`` (common enough to be natural, not so
  common that they are function-like);
* pymorphy3 must know the word as a dictionary lemma, every analysis of it must
  be an inanimate NOUN of that one lemma (no homonymous verb, adjective,
  adverb, animate noun or name), with none of the tags for names, abbreviations,
  indeclinables, singularia/pluralia tantum, slang, archaisms, or common gender;
* deverbal and collective suffixes (-ние, -тие, -ство, -ция) are left out: such
  nouns are mostly events, organisations and collectives (управление,
  руководство, администрация), which transitive verbs accept as subjects;
* every noun in ``resources/excluded_subject_nouns.tsv`` (hand-written: groups,
  organisations, events, instruments, vehicles, places, time, body, mind,
  media, forces, measures, …) is left out;
* ``plural`` is 1 when the dative plural form (unambiguous in Russian) is
  attested in wordfreq, so that plural arguments are replaced by nouns that
  really occur in the plural.

Intransitive verbs (the replacements for a transitive verb) are a hand-chosen
set of verbs that take no nominal complement in any case and no accusative of
measure or distance (спать, уснуть, вернуться — not стоить, весить, бояться,
помогать, управлять); pymorphy3 confirms every one of them: the infinitive is a
dictionary lemma tagged ``intr`` with a single aspect, and no analysis of it is
a transitive verb. wordfreq gives the Zipf frequency (at least ``VERB_ZIPF_MIN``).

Usage: python resources/derive/derive_argument_structure.py [RESOURCES_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pymorphy3
from wordfreq import top_n_list, zipf_frequency

from rublimp.io import InputError, atomic_path

ZIPF_MIN = 3.3
ZIPF_MAX = 5.2
VERB_ZIPF_MIN = 2.0
TOP_N = 60_000
PLURAL_ZIPF_MIN = 1.0
EXCLUDED_SUFFIXES = ("ние", "тие", "ство", "ция")
BAD_TAGS = frozenset(
    {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Fixd", "Pltm", "Sgtm", "Infr", "Slng", "Arch",
     "Erro", "Dist", "ms-f", "Init", "Litr", "Subx", "Supr", "Qual", "Inmx", "Vpre", "Coll"}
)
GENDERS = {"masc": "Masc", "femn": "Fem", "neut": "Neut"}

# Intransitive verbs with no nominal complement, by hand (see the module docstring).
INTRANSITIVE: dict[str, str] = {
    # motion and position
    "motion": "бегать летать лететь плавать плыть ползать ползти бродить гулять шагать скакать прыгать ходить "
              "ездить падать тонуть восходить спешить сидеть лежать висеть прилететь улететь приехать уехать "
              "уйти прийти выйти войти сбежать убежать взлететь присесть сесть лечь встать упасть прыгнуть "
              "утонуть погулять побегать посидеть полежать",
    # the body and its states
    "body": "спать дышать плакать рыдать кашлять чихать зевать храпеть дрожать потеть краснеть бледнеть стареть "
            "худеть толстеть голодать болеть умирать обедать завтракать ужинать ночевать отдыхать уснуть "
            "заснуть умереть погибнуть похудеть заболеть вздохнуть заплакать поспать отдохнуть переночевать "
            "пообедать позавтракать поужинать поплакать постареть покраснеть вспотеть чихнуть зевнуть "
            "задремать оглохнуть ослепнуть охрипнуть промокнуть замёрзнуть",
    # feelings and behaviour
    "behaviour": "скучать грустить нервничать паниковать молчать шутить дежурить опаздывать путешествовать "
                 "помолчать замолчать опоздать пошутить",
    # existence, appearance, emission
    "existence": "существовать отсутствовать присутствовать исчезнуть пропасть возникнуть исчезать гореть течь "
                 "звучать сиять сверкать блестеть сгореть разбогатеть",
    # reflexive verbs without a complement (reciprocals that need a plural subject, «пожениться»,
    # are left out: with a singular subject the replacement would add a second error)
    "reflexive": "смеяться торопиться волноваться веселиться купаться кататься одеваться раздеваться умываться "
                 "мыться тренироваться драться ругаться ссориться целоваться обниматься шевелиться трудиться "
                 "просыпаться появляться возвращаться останавливаться двигаться вернуться остановиться появиться "
                 "проснуться засмеяться рассмеяться успокоиться расслабиться прогуляться помыться одеться "
                 "раздеться умыться заблудиться поселиться развестись поздороваться оглянуться "
                 "обернуться спуститься подняться опуститься удалиться очнуться простудиться выспаться "
                 "растеряться разозлиться рассердиться проголодаться разрыдаться",
}

NOUN_HEADER = f"""\
# Inanimate nouns that replace an animate argument in the ARGUMENT STRUCTURE paradigms
# (rublimp.paradigms.argument_structure; RuBLiMP Appendix B.3.1: "replacing it with a
# random inanimate word").
# Derived by resources/derive/derive_argument_structure.py from pymorphy3's dictionary
# (dictionary lemmas whose every analysis is an inanimate NOUN of that lemma, without
# name, abbreviation, indeclinable, number-defective, slang or archaic tags, and without
# the deverbal/collective suffixes {', '.join('-' + s for s in EXCLUDED_SUFFIXES)}), filtered by wordfreq (Zipf
# frequency {ZIPF_MIN}-{ZIPF_MAX} among the {TOP_N:,} most frequent Russian words), minus every noun in
# resources/excluded_subject_nouns.tsv. Do not edit by hand: rerun the script.
# Columns: lemma; gender (UD: Masc, Fem, Neut); plural (1 = the dative plural is attested
# in wordfreq at Zipf >= {PLURAL_ZIPF_MIN}, so the noun may replace a plural argument); zipf.
"""

VERB_HEADER = f"""\
# Intransitive verbs that replace a transitive verb in the paradigm transitive_verb
# (rublimp.paradigms.argument_structure; RuBLiMP Appendix B.3.1: "swapping a TV with an
# intransitive one"). Written by resources/derive/derive_argument_structure.py:
# the verbs were chosen by hand from general knowledge of Russian government as verbs that
# take no nominal complement in any case and no accusative of measure or distance (so no
# accusative noun can become their object); pymorphy3 confirms each one (dictionary
# infinitive tagged intr, a single aspect, no transitive homonym), wordfreq gives the Zipf
# frequency (at least {VERB_ZIPF_MIN}). Do not edit by hand: rerun the script.
# Columns: lemma; aspect (UD: Perf, Imp); reflexive (1 for -ся/-сь verbs); class; zipf.
"""


def read_excluded(path: Path) -> set[str]:
    """Lemmas of ``excluded_subject_nouns.tsv`` (``#`` comments, then a header with ``lemma``)."""
    if not path.exists():
        raise InputError("excluded-noun list not found", path)
    out: set[str] = set()
    header: list[str] | None = None
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cols = raw.split("\t")
        if header is None:
            header = cols
            if "lemma" not in header:
                raise InputError("header must have a 'lemma' column", path, lineno)
            continue
        out.add(cols[header.index("lemma")].strip().lower().replace("ё", "е"))
    return out


def derive_nouns(morph: pymorphy3.MorphAnalyzer, excluded: set[str]) -> pl.DataFrame:
    rows = []
    for word in top_n_list("ru", TOP_N):
        zipf = zipf_frequency(word, "ru")
        if not (ZIPF_MIN <= zipf <= ZIPF_MAX) or not word.isalpha():
            continue
        if word.replace("ё", "е") in excluded or word.endswith(EXCLUDED_SUFFIXES):
            continue
        if not morph.word_is_known(word):
            continue
        parses = morph.parse(word)
        if not all(p.tag.POS == "NOUN" and p.normal_form == word for p in parses):
            continue
        if any("anim" in p.tag or BAD_TAGS & set(p.tag.grammemes) for p in parses):
            continue
        base = [p for p in parses if {"nomn", "sing"} <= set(p.tag.grammemes)]
        if not base or base[0].tag.gender not in GENDERS:
            continue
        forms = {
            (c, n): base[0].inflect({c, n})
            for c in ("nomn", "gent", "datv", "accs", "ablt", "loct")
            for n in ("sing", "plur")
        }
        if any(f is None for f in forms.values()):
            continue
        plural = zipf_frequency(forms["datv", "plur"].word, "ru") >= PLURAL_ZIPF_MIN
        rows.append({"lemma": word, "gender": GENDERS[base[0].tag.gender], "plural": int(plural), "zipf": zipf})
    return pl.DataFrame(rows).unique("lemma").sort("lemma")


def derive_verbs(morph: pymorphy3.MorphAnalyzer) -> tuple[pl.DataFrame, list[str]]:
    rows, rejected = [], []
    for cls, words in INTRANSITIVE.items():
        for word in words.split():
            parses = morph.parse(word)
            inf = [p for p in parses if p.tag.POS == "INFN" and p.normal_form == word]
            aspects = {p.tag.aspect for p in inf}
            zipf = zipf_frequency(word, "ru")
            ok = (
                morph.word_is_known(word)
                and inf
                and all("intr" in p.tag for p in inf)
                and not any("tran" in p.tag for p in parses if p.tag.POS in ("INFN", "VERB"))
                and len(aspects) == 1
                and zipf >= VERB_ZIPF_MIN
            )
            if not ok:
                rejected.append(word)
                continue
            rows.append(
                {
                    "lemma": word,
                    "aspect": "Perf" if aspects == {"perf"} else "Imp",
                    "reflexive": int(word.endswith(("ся", "сь"))),
                    "class": cls,
                    "zipf": zipf,
                }
            )
    return pl.DataFrame(rows).unique("lemma").sort("lemma"), rejected


def write_tsv(df: pl.DataFrame, header: str, path: Path) -> None:
    """The header comment, then the table (tab-separated, Zipf to 2 decimals)."""
    df = df.with_columns(pl.col("zipf").round(2).map_elements(lambda z: f"{z:.2f}", return_dtype=pl.String))
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(header)
            fh.write("\t".join(df.columns) + "\n")
            for row in df.iter_rows():
                fh.write("\t".join(str(v) for v in row) + "\n")


def main(argv: list[str]) -> int:
    resources = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1]
    morph = pymorphy3.MorphAnalyzer()
    nouns = derive_nouns(morph, read_excluded(resources / "excluded_subject_nouns.tsv"))
    verbs, rejected = derive_verbs(morph)
    write_tsv(nouns, NOUN_HEADER, resources / "inanimate_nouns.tsv")
    write_tsv(verbs, VERB_HEADER, resources / "intransitive_verbs.tsv")
    print(f"inanimate_nouns.tsv: {nouns.height} nouns ({nouns['plural'].sum()} with a plural)")
    print(f"intransitive_verbs.tsv: {verbs.height} verbs; rejected by pymorphy3/wordfreq: {' '.join(rejected) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
