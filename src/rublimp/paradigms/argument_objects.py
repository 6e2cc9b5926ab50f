"""ARGUMENT STRUCTURE, the object and the recipient: two RuBLiMP paradigms (Appendix B.3.1).

* ``transitive_verb_object``: the animate direct object of a verb that needs one (a listed verb, a
  predicative verb with a role noun: «назначил её капитаном», a directive verb with an infinitive:
  «попросила сына купить хлеб») is replaced by a random inanimate noun in the same case and number;
* ``transitive_verb_iobject``: the animate dative recipient of a verb with a direct object is swapped
  with the object («показал незнакомцу медальон» → «*показал медальону незнакомца») or replaced by a
  random inanimate noun, and an animate dative before an infinitive ``xcomp`` («посоветовал пациенту
  отдохнуть») is replaced.

The shared safeguards, word lists and replacement pools are in
:mod:`~rublimp.paradigms.argument_structure`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from ..conllu_doc import Sentence, Token
from ..trees.nominal import norm
from ..trees.roles import dative_governor, noun_cases, possessor_dative, with_token
from .argument_structure import (
    ADVERBIAL_CATEGORIES,
    THEME_PREPOSITIONS,
    Argument,
    ArgumentStructureParadigm,
    analysis_of,
)
from .base import Perturbation, register

__all__ = ["TransitiveVerbObject", "TransitiveVerbIobject"]


@register
class TransitiveVerbObject(ArgumentStructureParadigm):
    """The animate direct object of a verb that needs one → a random inanimate noun."""

    name = "transitive_verb_object"

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        for obj in sent.tokens:
            if obj.deprel != "obj" or obj.feats.get("Case") != "Acc":
                continue
            verb = self._object_governor(sent, obj)
            if verb is None or verb.upos != "VERB" or verb.feats.get("Voice") == "Pass":
                continue
            construction = self._construction(sent, verb, obj)
            if construction is None:
                continue
            arg = self.animate_argument(sent, obj, case="Acc", forced_animate=construction == "control")
            if arg is None:
                continue
            if arg.number == "Sing" and arg.gender is None:
                # меня/тебя: no gender to keep, unless an agreeing predicate needs one
                if self._has_agreeing_predicate(sent, verb):
                    continue
            # a fronted inanimate accusative that looks nominative would read as the subject
            pert = self.replace_perturbation(sent, arg, "Acc", construction, distinct_from_nom=obj.id < verb.id)
            if pert is not None:
                yield pert

    def _construction(self, sent: Sentence, verb: Token, obj: Token) -> str | None:
        lemma = self.verb_lemma(verb)
        for x in sent.children(verb):
            if x.id < obj.id:
                continue
            # the role noun: an xcomp, or an obl the parser gave it («сделал его капитаном»)
            if (
                x.base_deprel in ("xcomp", "obl") and x.upos == "NOUN" and x.feats.get("Case") == "Ins"
                and x.feats.get("Animacy") == "Anim" and lemma in self.lists.predicative
                and not any(c.base_deprel == "case" for c in sent.children(x))
            ):
                return "predicative"
            if x.base_deprel != "xcomp":
                continue
            if x.upos == "VERB" and x.feats.get("VerbForm") == "Inf":
                if self._open_object(sent, x):
                    return None  # «просит его пропустить» → «просит доступ пропустить»: the noun reads as the infinitive's object
                if lemma in self.lists.object_directive:
                    return "control"
                # RuBLiMP: any animate object followed by an infinitive it controls
                # («оставил Биддика охранять», «заставила Луиса полезть»): coverage 0.18 → 0.5+
                # with directive and causative verbs only. Infinitives that an inanimate
                # controller can also do («заставил двигатель работать») are left out.
                # Reflexive infinitives only from the agentive list («заставил дверь открыться»).
                # The infinitive must follow the object at once, and the object be no pronoun
                # («приклеили его скотчем, чтобы…»: его is a thing, the infinitive another clause's).
                inf = self.verb_lemma(x)
                if x.id != obj.id + 1 or obj.upos == "PRON":
                    continue
                if inf in self.lists.agentive_infinitive or not (inf in self.lists.non_agentive_infinitive or inf.endswith(("ся", "сь"))):
                    return "control"
        if lemma in self.lists.animate_object:
            return "verb"
        return None

    def _object_governor(self, sent: Sentence, obj: Token) -> Token | None:
        """The verb ``obj`` is the object of.

        Tree repair: the default parser often hangs the object of a control verb on the
        infinitive right after it («пригласил девушку сесть»: девушку → obj of сесть); an
        intransitive infinitive takes no accusative object, so the object is its head's.
        """
        head = sent.head_of(obj)
        if (
            head is not None and head.upos == "VERB" and head.feats.get("VerbForm") == "Inf"
            and head.base_deprel == "xcomp" and head.id == obj.id + 1
        ):
            a = analysis_of(self.morph, head.form, "VERB", head.feats)
            if a is not None and "intr" in a.tag.grammemes:
                return sent.head_of(head)
        return head

    def _open_object(self, sent: Sentence, inf: Token) -> bool:
        """A transitive infinitive without an object of its own.

        A prepositional theme fills the slot too («пригласил горожан посмотреть на комету»,
        «звали Диму играть в футбол», «попросил его забыть об этом»): a noun before such an
        infinitive does not read as its object («*пригласил одежды посмотреть на комету»).
        Read on the demo corpus and GSD, bare open infinitives made invalid pairs («учила дочь
        вышивать» → «учила куртку вышивать» reads as embroidering the jacket), so they stay out.
        """
        a = analysis_of(self.morph, inf.form, "VERB", inf.feats)
        if a is None or "tran" not in a.tag.grammemes:
            return False
        for k in sent.children(inf):
            if k.deprel in ("obj", "ccomp"):
                return False
            if k.base_deprel == "obl" and k.upos in ("NOUN", "PROPN", "PRON"):
                for c in sent.children(k, "case"):
                    prep = norm(c.form)
                    if prep in THEME_PREPOSITIONS or (prep in ("на", "в") and k.feats.get("Case") == "Acc"):
                        return False
        return True

    @staticmethod
    def _has_agreeing_predicate(sent: Sentence, verb: Token) -> bool:
        for x in sent.children(verb, "xcomp"):
            for t in sent.subtree(x):
                if t.upos in ("ADJ", "DET") or t.feats.get("VerbForm") == "Part":
                    return True
        return False


@register
class TransitiveVerbIobject(ArgumentStructureParadigm):
    """The animate dative addressee of a verb → an inanimate noun.

    Two constructions:

    * ditransitive (RuBLiMP's released pairs: «показал незнакомцу медальон»): a verb
      with an accusative direct object and an animate bare dative recipient. The
      dative and an unmodified inanimate object swap places' cases («*показал
      медальону незнакомца», subtype ``swap``), or the dative is replaced by a random
      inanimate noun («*протянул парабеллум фрагменту», ``random``). Verbs that give
      things to inanimate datives too (придать форму шару, уделить внимание
      проблеме) and light-verb objects (дать название городу) are left out. The
      infinitive-only rule below had coverage 0.00 on RuBLiMP's dev pairs.
    * addressee + infinitive (the paper's description: «посоветовал пациенту
      отдохнуть»): directives, and permissives with an agentive infinitive.

    The random replacement keeps the addressee's number and (singular) gender, so a later pronoun
    that refers to the addressee keeps an antecedent; a singular noun whose gender the dictionary
    leaves open (common-gender nouns and names: коллега, судья, Саша, Женя) is not replaced, since
    the parser's gender for it may not be the one a later «она»/«он» shows.
    """

    name = "transitive_verb_iobject"

    def _gender_open(self, arg: Argument) -> bool:
        """A singular noun addressee whose lemma has a common-gender (ms-f) reading, or readings of
        both genders, in the dative singular."""
        if arg.number != "Sing" or arg.pronoun:
            return False
        genders: set[str] = set()
        for p in self.morph.parses(arg.tok.form):
            if p.tag.POS == "NOUN" and {"anim", "sing", "datv"} <= set(p.tag.grammemes) and norm(p.normal_form) == arg.lemma:
                genders |= {"masc", "femn", "ms-f"} & set(p.tag.grammemes)
        return "ms-f" in genders or {"masc", "femn"} <= genders

    def _perturb(self, sent: Sentence) -> Iterator[Perturbation]:
        base = sent
        for iobj in base.tokens:
            sent = base
            if iobj.upos not in ("NOUN", "PROPN", "PRON"):
                continue  # (cheap exit: the shared repairs give datives tagged VERB or ADJ a noun tag)
            if iobj.feats.get("Case") == "Nom" and iobj.deprel in ("nsubj", "acl", "appos", "nmod", "obl", "obj"):
                fixed = self._nominative_recipient(sent, iobj)
                if fixed is None:
                    continue
                iobj, sent = fixed, with_token(sent, fixed)
            if not self._dative(iobj) or any(k.base_deprel == "case" for k in sent.children(iobj)):
                continue
            if iobj.deprel not in ("iobj", "obl", "obj", "nmod", "amod", "appos") and not (
                iobj.deprel == "nsubj" and iobj.feats.get("Case") == "Dat"
            ):
                continue
            verb = dative_governor(sent, iobj, self.lists.dative_noun_head)
            if verb is None or verb.upos != "VERB" or verb.feats.get("Voice") == "Pass":
                continue
            head = sent.head_of(iobj)
            if head is not None and head.id != verb.id and head.head == verb.id and head.deprel == "obj":
                # (the repair above, written into the tree: a dative hung under the verb's object
                # is the verb's, so it is no modifier of the object that a swap would leave behind)
                iobj = replace(iobj, head=verb.id, deprel="iobj")
                sent = with_token(sent, iobj)
            if possessor_dative(sent, iobj):
                continue  # «зашёл в тыл противнику»: the dative is the possessor of the PP's noun
            lemma = self.verb_lemma(verb)
            infinitives = [
                x for x in sent.children(verb, "xcomp")
                if x.id > iobj.id and x.upos == "VERB" and x.feats.get("VerbForm") == "Inf"
            ]
            if infinitives:
                yield from self._infinitive(sent, verb, lemma, iobj, infinitives[0])
                continue
            # the direct object: an accusative noun, or a genitive one (partitive, negation,
            # or after a numeral the parser gave the accusative: «протянул две монеты торговцу»)
            objects = [
                o for o in sent.children(verb)
                if o.deprel == "obj" and o.upos == "NOUN" and o.feats.get("Case") in ("Acc", "Gen")
            ]
            if len(objects) > 1:
                # a genitive the parser took for a second object («пожал вдове руку выше
                # локтя»): the one accusative is the object
                accusatives = [o for o in objects if o.feats.get("Case") == "Acc"]
                objects = accusatives if len(accusatives) == 1 else objects
            pronoun_objects = [
                o for o in sent.children(verb) if o.deprel == "obj" and o.upos == "PRON" and o.feats.get("Case") == "Acc"
            ]
            if not objects and not pronoun_objects and not any(
                k.deprel in ("obj", "ccomp") and k.id != iobj.id for k in sent.children(verb)
            ):
                # tree repair: «продал его соседу», «протянула его Петру»: the object pronoun
                # right before the recipient is taken for its possessive; a verb with no object
                # has it as its object (and under either reading a thing in the dative is odd)
                poss = [
                    k for k in sent.children(iobj)
                    if k.id == iobj.id - 1 and k.base_deprel in ("det", "nmod") and norm(k.form) in ("его", "ее", "их")
                ]
                if len(poss) == 1 and len(sent.children(iobj)) == 1 and iobj.id - 1 > verb.id:
                    pron = replace(poss[0], upos="PRON", head=verb.id, deprel="obj", feats={**poss[0].feats, "Case": "Acc"})
                    sent = with_token(sent, pron)
                    pronoun_objects = [pron]
            if not objects:
                # tree-pattern repair: the parser hangs the object right after a dative under
                # the dative as an nmod («протянула сыну яблоко»: яблоко → nmod of сыну)
                # or as its obj («продал сатане душу»)
                # (nominative for the parser where the form is also an inanimate accusative, or a
                # case the form cannot have, e.g. the dative of the word before it: «подал королю
                # часослов»)
                objects = [
                    o for o in sent.children(iobj)
                    if o.base_deprel in ("nmod", "obj") and o.upos == "NOUN" and o.id == iobj.id + 1
                    and (o.feats.get("Case") == "Acc" or (
                        o.feats.get("Case") == "Nom" and o.feats.get("Animacy") == "Inan" and "Acc" in noun_cases(self.morph, o.form)
                    ) or _impossible_case_accusative(self.morph, o))
                ]
                if len(objects) == 1:
                    # written into the tree: the verb's accusative object (inanimate where every noun
                    # reading is), no dependent of the recipient that a swap would leave behind
                    o = objects[0]
                    feats = {**o.feats, "Case": "Acc"}
                    if {"anim" in p.tag.grammemes for p in self.morph.parses(o.form) if p.tag.POS == "NOUN"} == {False}:
                        feats["Animacy"] = "Inan"
                    objects = [replace(o, head=verb.id, deprel="obj", feats=feats)]
                    sent = with_token(sent, objects[0])
            if lemma in self.lists.dative_thing:
                continue
            if not objects and len(pronoun_objects) == 1:
                # an accusative pronoun object («чай, который Бойзи отнёс директору»):
                # the dative is replaced, nothing is swapped
                arg = self.animate_argument(sent, iobj, case="Dat", with_name=True)
                if arg is not None and not arg.pronoun and not self._gender_open(arg):
                    pert = self.replace_perturbation(sent, arg, "Dat", "random")
                    if pert is not None:
                        yield pert
                continue
            if len(objects) != 1:
                continue
            obj = objects[0]
            if self.excluded_category(obj.lemma) in ADVERBIAL_CATEGORIES:
                continue
            # a light-verb object takes a thing as readily as a person for its dative («дал шанс
            # проекту», «дал простор понятиям»): no random replacement; swapping the two stays
            # wrong («дал шанс врагу» → «*дал врага шансу»: the person becomes the thing given)
            light = norm(obj.lemma) in self.lists.light_object
            if obj.feats.get("Animacy") != "Inan":
                continue
            # a name written right after the addressee goes with it («президенту Джону Адамсу» → «*фрагменту»)
            arg = self.animate_argument(sent, iobj, case="Dat", with_name=True)
            if arg is None or arg.pronoun:
                continue
            if self.unmodified(sent, iobj):
                swap = self._swap(sent, arg, obj)
                if swap is not None:
                    yield swap
            pert = None if light or self._gender_open(arg) else self.replace_perturbation(sent, arg, "Dat", "random")
            if pert is not None:
                yield pert

    def _nominative_recipient(self, sent: Sentence, tok: Token) -> Token | None:
        """``tok`` as the verb's dative recipient where the parser called it nominative.

        Tree repair: a recipient before the verb, often sentence-initially, is tagged
        nominative and hung as a subject or under the subject («Соседке отец прислал
        посылку»: acl of отец; «Соседке Пётр приготовил подарок»: nsubj). A word whose noun readings
        (pymorphy3's, guesses included for a capitalised name) are dative or prepositional only
        cannot be a subject, and a bare prepositional does not exist: it is the verb's ``iobj``.
        """
        if any(k.base_deprel in ("case", "flat") for k in sent.children(tok)):
            return None
        if not self.morph.word_is_known(tok.form) and not tok.form[:1].isupper():
            return None
        cases = noun_cases(self.morph, tok.form)
        if "Dat" not in cases or not cases <= {"Dat", "Loc"}:
            return None
        verb = sent.head_of(tok)
        if verb is not None and verb.upos in ("NOUN", "PROPN") and verb.deprel in ("nsubj", "obj"):
            verb = sent.head_of(verb)
        if verb is None or verb.upos != "VERB" or verb.id == tok.id:
            return None
        return replace(tok, head=verb.id, deprel="iobj", feats={**tok.feats, "Case": "Dat"})

    def _dative(self, tok: Token) -> bool:
        """A dative noun: by the parser's case, or — tree repair — an ``iobj`` or ``nmod`` the
        parser gave another case (surnames: «перевёл вопрос Колобкову» → Gen) that pymorphy3
        reads as a dative noun. Outside ``iobj``, ``obl`` and ``obj`` no reading may be
        nominative or genitive."""
        dat = tok.feats.get("Case") == "Dat"
        if tok.deprel in ("iobj", "obl", "obj"):
            if dat:
                return True
            return tok.deprel == "iobj" and tok.upos in ("NOUN", "PROPN") and "Dat" in noun_cases(self.morph, tok.form)
        if tok.deprel not in ("nsubj", "nmod", "amod", "appos") or not (dat or tok.deprel == "nmod"):
            return False  # the caller takes no other relation
        cases = noun_cases(self.morph, tok.form)
        if cases & {"Nom", "Gen"}:
            # a «dative» subject or noun dependent that can be nominative or genitive is
            # the subject or the noun's own («переводы Пайялаччхи», «Фруманян разрезала»)
            return False
        if dat:
            return True
        # an nmod only if pymorphy3 knows the word (its guesses do not overrule the parser)
        return tok.upos in ("NOUN", "PROPN") and self.morph.word_is_known(tok.form) and "Dat" in cases

    def _swap(self, sent: Sentence, arg: Argument, obj: Token) -> Perturbation | None:
        # an accusative object, or the genitive of a negated verb («не оставил шансов конкурентам»
        # → «*не оставил конкурентов шансам»: the person takes the object's genitive)
        verb = sent.head_of(obj)
        negated = verb is not None and any(norm(k.form) == "не" and k.id < verb.id for k in sent.children(verb))
        case = obj.feats.get("Case")
        if case != "Acc" and not (case == "Gen" and negated):
            return None
        # a chance, a request, a permission (``inf_complement``) is no person, so swapped into the
        # dative it is a thing as recipient («давал шанс врагу» → «*давал врага шансу»)
        oparse = self.inanimate_noun(sent, obj, allowed=frozenset({"inf_complement"}))
        if oparse is None:
            return None
        onum = obj.feats.get("Number")
        if onum not in ("Sing", "Plur"):
            return None
        new_dat = self.inflect_parse(oparse, "Dat", onum)
        new_acc = self.inflect_parse(arg.parse, case, arg.number)
        if not new_dat or not new_acc or norm(new_acc) == norm(arg.tok.form):
            return None
        if any("gent" in p.tag.grammemes and p.normal_form == oparse.normal_form for p in self.morph.parses(new_dat)):
            # a dative that is also the genitive («имени», «жизни») would read as a genitive phrase
            # with the person («дал имени сына»: named after the son), not as a thing-recipient
            return None
        return Perturbation(
            edits=(
                self.edit(sent, arg.tok, new_dat, replaces_proper=arg.proper),
                self.edit(sent, obj, new_acc, is_proper=arg.proper),
            ),
            feature="Animacy",
            source_value="Anim",
            target_value="Inan",
            subtype="swap",
        )

    def _infinitive(self, sent: Sentence, verb: Token, lemma: str, iobj: Token, inf: Token) -> Iterator[Perturbation]:
        inf_lemma = self.verb_lemma(inf)
        if inf_lemma in self.lists.dative_object_infinitive:
            return
        if lemma in self.lists.dative_directive:
            subtype = "directive"
        elif lemma in self.lists.dative_permissive and inf_lemma in self.lists.agentive_infinitive:
            subtype = "permissive"
        else:
            return
        arg = self.animate_argument(sent, iobj)
        if arg is None or self._gender_open(arg):
            return
        if arg.number == "Sing" and arg.gender is None and TransitiveVerbObject._has_agreeing_predicate(sent, verb):
            return
        pert = self.replace_perturbation(sent, arg, "Dat", subtype)
        if pert is not None:
            yield pert


def _impossible_case_accusative(morph, tok: Token) -> bool:
    """Tree repair: ``tok`` carries a case its form cannot have (the parser copied the dative of the
    recipient before it: «дарит сыну велосипедик», велосипедик → Dat), and pymorphy3 reads the
    form as an accusative (the caller then takes it for the object)."""
    cases = noun_cases(morph, tok.form)
    return bool(cases) and morph.word_is_known(tok.form) and tok.feats.get("Case") not in cases and "Acc" in cases
