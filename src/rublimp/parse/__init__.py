"""The parse stage: raw sentences → UD trees (:class:`rublimp.conllu_doc.Sentence`).

Two backends produce UPOS, features, heads and relations:

* ``"slovnet"`` (default) — natasha's bundled news models, decoded into a valid
  single-root tree with a maximum spanning tree (see :mod:`.slovnet_backend`);
* ``"stanza"`` — the Stanford Russian pipeline, when its models are installed
  (see :mod:`.stanza_backend`).

Whatever the backend, lemmas come from pymorphy3 (the analysis consistent with
the predicted UPOS and features, :meth:`rublimp.morph.Morph.analyse`) so that
the paradigms, which inflect with pymorphy3, see lexemes they know; pass
``lemmas="backend"`` to keep stanza's own lemmas instead (slovnet has none).
With slovnet every token carries ``HeadConf`` in MISC: the probability of its
chosen head under a softmax over that token's head scores (self-loops
excluded; 3 decimals, never written as 0: values below 0.0005 are written as
0.001); stanza's pipeline exposes no head scores, so it writes none. Tokens
get ``SpaceAfter=No`` where the text has no space after them.

Sharding: :func:`parse_shard` parses only shard ``k`` of ``n`` (items ``k``,
``k+n``, ``k+2n``, … in input order) so that each Snakemake job can do one
shard; :func:`parse_to_shards` writes all shards in one process. Both parse a
shard's items in the same batches, so their outputs are byte-identical.

Bounded input: a sentence longer than ``max_chars`` characters or ``max_tokens``
razdel tokens (defaults :data:`DEFAULT_MAX_CHARS`, :data:`DEFAULT_MAX_TOKENS`;
config keys ``parse.max_chars`` / ``parse.max_tokens``) is skipped, never
parsed, and counted in a :class:`SkipReport` (first ones logged with their
ids). Unbounded, one 10,000-character line took slovnet's tree decoding to
over 20 GiB of memory. An optional ``sentence_filter`` (``python -m rublimp
parse --filter``: the corpus stage's quality filters) skips sentences the same way.

Numpy BLAS threads: set ``OPENBLAS_NUM_THREADS=1`` before starting Python
(slovnet is several times slower with threaded BLAS on small matrices).
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Literal, Sequence

from ..conllu_doc import Sentence, Token, align_tokens, write_conllu
from ..io import InputError, find_control_char, iter_text_lines
from ..runtime import progress as progress_bar
from ..morph import get_morph
from .slovnet_backend import ParsedWords, SlovnetParser

__all__ = [
    "parse_texts",
    "parse_tokens",
    "parse_file",
    "parse_shard",
    "parse_to_shards",
    "get_parser",
    "tokenize",
    "pymorphy_lemma",
    "to_sentence",
    "ParsedWords",
    "SlovnetParser",
    "BACKENDS",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MAX_TOKENS",
    "SkipReport",
]

log = logging.getLogger("rublimp")

#: Default bounds of one sentence (config ``parse.max_chars`` / ``parse.max_tokens``).
#: The longest sentence of UD Russian-GSD dev+test has 201 tokens and 1,453 characters.
DEFAULT_MAX_CHARS = 2000
DEFAULT_MAX_TOKENS = 250

BACKENDS = ("slovnet", "stanza")
LemmaSource = Literal["pymorphy3", "backend"]
_WINDOW = 16  # parse this many batches at a time, so length-sorting has material to work with

_PARSERS: dict[tuple, Any] = {}


class SkipReport:
    """Sentences skipped instead of parsed: counts per reason and the first few ids.

    Reasons: ``control_chars`` (a control character, :data:`rublimp.io.CONTROL_CHARS_RE`),
    ``max_chars``, ``max_tokens``, ``filter:<name>`` (a quality filter).
    The first ``log_first`` skips of each reason are logged as warnings.
    """

    def __init__(self, log_first: int = 5) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = {}
        self.log_first = log_first
        self.bar: Any = None

    def add(self, reason: str, sent_id: str, detail: str) -> None:
        self.counts[reason] += 1
        if self.counts[reason] <= self.log_first:
            self.examples.setdefault(reason, []).append(sent_id)
            log.warning("parse: skipped sentence %s: %s", sent_id, detail)
        if self.bar is not None:
            self.bar.update(1)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self, what: str = "sentence") -> str:
        if not self.total:
            return f"no {what} skipped"
        parts = []
        for reason, n in sorted(self.counts.items()):
            ex = ", ".join(self.examples.get(reason, []))
            more = ", ..." if n > len(self.examples.get(reason, [])) else ""
            parts.append(f"{reason}: {n} ({what} {ex}{more})")
        return f"{self.total} skipped: " + "; ".join(parts)

    def as_dict(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))


def _check_limit(value: Any, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"must be a positive integer or null, got {value!r}", f"config: {key}")
    return value


def get_parser(backend: str = "slovnet", **backend_opts: Any):
    """A loaded backend, cached per (backend, options) for the life of the process.

    slovnet options: ``decoder`` (``"mst"``/``"argmax"``), ``constrain_root_label``.
    stanza options: ``model_dir``, ``use_gpu``, ``package``. (The batch size is
    given per call, so it does not load another copy of the models.)
    """
    if backend not in BACKENDS:
        raise InputError(f"unknown parser backend {backend!r}; choose one of {', '.join(BACKENDS)}", "config: parse.backend")
    key = (backend, tuple(sorted(backend_opts.items())))
    parser = _PARSERS.get(key)
    if parser is None:
        if backend == "slovnet":
            parser = SlovnetParser(**backend_opts)
        else:
            from .stanza_backend import StanzaParser

            parser = StanzaParser(**backend_opts)
        _PARSERS[key] = parser
    return parser


def tokenize(text: str) -> list[str]:
    """razdel tokens of a raw sentence."""
    import razdel

    return [t.text for t in razdel.tokenize(text)]


def pymorphy_lemma(form: str, upos: str, feats: dict[str, str]) -> str:
    """The pymorphy3 lemma consistent with UPOS + features; PUNCT keeps its form; else the lowercased form."""
    if upos == "PUNCT":
        return form
    return _lemma_cached(form, upos, tuple(sorted(feats.items())))


@functools.lru_cache(maxsize=500_000)
def _lemma_cached(form: str, upos: str, feats: tuple[tuple[str, str], ...]) -> str:
    analysis = get_morph().analyse(form, upos, dict(feats))
    return analysis.lemma if analysis is not None else form.lower()


def to_sentence(
    parsed: ParsedWords,
    *,
    sent_id: str,
    text: str | None = None,
    domain: str = "",
    lemmas: LemmaSource = "pymorphy3",
) -> Sentence:
    """Build an aligned :class:`Sentence` from a backend's analysis of one sentence.

    ``text`` defaults to the tokens joined by single spaces.
    """
    if lemmas not in ("pymorphy3", "backend"):
        raise InputError(f"lemmas must be 'pymorphy3' or 'backend', got {lemmas!r}", "config: parse.lemmas")
    if text is None:
        text = " ".join(parsed.forms)
    toks: list[Token] = []
    for i, form in enumerate(parsed.forms):
        upos, feats = parsed.upos[i], parsed.feats[i]
        if lemmas == "backend":
            if parsed.lemmas is None:
                raise InputError("this parser backend produces no lemmas; use lemmas: pymorphy3", "config: parse.lemmas")
            lemma = parsed.lemmas[i]
        else:
            lemma = pymorphy_lemma(form, upos, feats)
        misc: dict[str, str] = {}
        if parsed.head_conf is not None:
            conf = parsed.head_conf[i]
            misc["HeadConf"] = "0.001" if conf < 0.0005 else f"{conf:.3f}"
        toks.append(
            Token(
                id=i + 1,
                form=form,
                lemma=lemma,
                upos=upos,
                xpos=None,
                feats=dict(feats),
                head=parsed.heads[i],
                deprel=parsed.deprels[i],
                misc=misc,
            )
        )
    align_tokens(text, toks)
    for a, b in zip(toks, toks[1:]):
        if a.end >= 0 and b.start >= 0 and a.end == b.start:
            a.misc["SpaceAfter"] = "No"
    return Sentence(sent_id=str(sent_id), text=text, tokens=toks, domain=domain)


def _run(
    records: Iterable[tuple[str, str | None, str, list[str]]],
    *,
    backend: str,
    batch_size: int,
    lemmas: LemmaSource,
    progress: bool,
    total: int | None,
    backend_opts: dict[str, Any],
    skipped: SkipReport | None = None,
) -> Iterator[Sentence]:
    """Parse (sent_id, text, domain, tokens) records window by window, in input order."""
    if batch_size < 1:
        raise InputError(f"batch_size must be >= 1, got {batch_size}", "config: parse.batch_size")
    parser = get_parser(backend, **backend_opts)
    bar = progress_bar(total=total, desc=f"parse ({backend})", unit="sent") if progress else None
    if skipped is not None:
        skipped.bar = bar  # skipped sentences advance the bar too, so that it reaches its total
    it = iter(records)
    try:
        while True:
            window = list(itertools.islice(it, batch_size * _WINDOW))
            if not window:
                break
            for rec in window:
                if not rec[3]:
                    raise InputError(f"sentence {rec[0]!r} has no tokens (empty text)")
            try:
                parsed = parser.parse([rec[3] for rec in window], batch_size=batch_size)
            except MemoryError:
                # unbounded input (max_chars/max_tokens off): the parser's arrays grow with the
                # square of a sentence's length, so one long line can need tens of GiB
                sid, _, _, toks = max(window, key=lambda rec: len(rec[3]))
                raise InputError(
                    f"out of memory parsing a batch whose longest sentence, {sid!r}, has {len(toks):,} tokens "
                    "(the parser's memory grows with the square of a sentence's length): bound it with "
                    "parse.max_tokens / --max-tokens"
                ) from None
            for (sent_id, text, domain, _), p in zip(window, parsed):
                yield to_sentence(p, sent_id=sent_id, text=text, domain=domain, lemmas=lemmas)
            if bar is not None:
                bar.update(len(window))
    finally:
        if bar is not None:
            bar.close()


def _bounded_records(
    items: Iterable[tuple[str, str, str]],
    *,
    max_chars: int | None,
    max_tokens: int | None,
    sentence_filter: Callable[[str], str | None] | None,
    skipped: SkipReport,
) -> Iterator[tuple[str, str, str, list[str]]]:
    """(sent_id, text, domain, tokens) of the items within the bounds; the others go to ``skipped``.

    The character bound is checked before tokenizing, so an over-long line costs
    one ``len``; the token bound before anything reaches the parser.
    """
    for sid, text, domain in items:
        sid = str(sid)
        control = find_control_char(text)
        if control is not None:  # a NUL or ESC byte would be parsed as (part of) a word and reach a pair
            skipped.add("control_chars", sid, f"{control}: {text[:60]!r}")
            continue
        if max_chars is not None and len(text) > max_chars:
            skipped.add("max_chars", sid, f"{len(text)} characters > max_chars={max_chars}")
            continue
        if sentence_filter is not None:
            reason = sentence_filter(text)
            if reason is not None:
                skipped.add(f"filter:{reason}", sid, f"dropped by the {reason!r} filter: {text[:60]!r}")
                continue
        toks = tokenize(text)
        if max_tokens is not None and len(toks) > max_tokens:
            skipped.add("max_tokens", sid, f"{len(toks)} tokens > max_tokens={max_tokens}")
            continue
        yield sid, text, domain or "", toks


def parse_texts(
    items: Iterable[tuple[str, str, str]],
    *,
    backend: str = "slovnet",
    batch_size: int = 64,
    progress: bool = False,
    lemmas: LemmaSource = "pymorphy3",
    total: int | None = None,
    max_chars: int | None = DEFAULT_MAX_CHARS,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    sentence_filter: Callable[[str], str | None] | None = None,
    skipped: SkipReport | None = None,
    **backend_opts: Any,
) -> Iterator[Sentence]:
    """Tokenize (razdel) and parse raw sentences given as ``(sent_id, text, domain)``.

    Yields one :class:`Sentence` per item within the bounds, in input order, with
    ``# text`` the original text and every token aligned to it. Items over
    ``max_chars`` characters or ``max_tokens`` tokens (``None``: unbounded) and
    items for which ``sentence_filter(text)`` names a filter are skipped and
    counted in ``skipped``, as are items with a control character (C0 but tab, DEL, C1).
    """
    max_chars = _check_limit(max_chars, "parse.max_chars")
    max_tokens = _check_limit(max_tokens, "parse.max_tokens")
    skipped = skipped if skipped is not None else SkipReport()
    records = _bounded_records(
        items, max_chars=max_chars, max_tokens=max_tokens, sentence_filter=sentence_filter, skipped=skipped,
    )
    yield from _run(
        records, backend=backend, batch_size=batch_size, lemmas=lemmas, progress=progress, total=total,
        backend_opts=backend_opts, skipped=skipped,
    )


def parse_tokens(
    token_lists: Sequence[list[str]],
    *,
    sent_ids: Sequence[str] | None = None,
    texts: Sequence[str] | None = None,
    domain: str = "",
    backend: str = "slovnet",
    batch_size: int = 64,
    progress: bool = False,
    lemmas: LemmaSource = "pymorphy3",
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    skipped: SkipReport | None = None,
    **backend_opts: Any,
) -> Iterator[Sentence]:
    """Parse pretokenized sentences (e.g. a gold-tokenized treebank).

    ``sent_ids`` default to ``"1"``, ``"2"``, …; ``texts`` default to the tokens
    joined by spaces (then no ``SpaceAfter=No`` is produced). Sentences of more
    than ``max_tokens`` tokens are skipped and counted in ``skipped``.
    """
    max_tokens = _check_limit(max_tokens, "parse.max_tokens")
    skipped = skipped if skipped is not None else SkipReport()
    n = len(token_lists)
    if sent_ids is not None and len(sent_ids) != n:
        raise ValueError("sent_ids must have one entry per sentence")
    if texts is not None and len(texts) != n:
        raise ValueError("texts must have one entry per sentence")

    def records() -> Iterator[tuple[str, str | None, str, list[str]]]:
        for i in range(n):
            sid = str(sent_ids[i]) if sent_ids is not None else str(i + 1)
            if max_tokens is not None and len(token_lists[i]) > max_tokens:
                skipped.add("max_tokens", sid, f"{len(token_lists[i])} tokens > max_tokens={max_tokens}")
                continue
            control = find_control_char("\t".join([*token_lists[i], texts[i] if texts is not None else ""]))
            if control is not None:
                skipped.add("control_chars", sid, control)
                continue
            yield sid, texts[i] if texts is not None else None, domain, list(token_lists[i])
    yield from _run(
        records(), backend=backend, batch_size=batch_size, lemmas=lemmas, progress=progress, total=n,
        backend_opts=backend_opts, skipped=skipped,
    )


def parse_file(
    input_txt: str | os.PathLike,
    output_conllu: str | os.PathLike,
    *,
    backend: str = "slovnet",
    domain: str = "",
    batch_size: int = 64,
    progress: bool = False,
    lemmas: LemmaSource = "pymorphy3",
    max_chars: int | None = DEFAULT_MAX_CHARS,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    sentence_filter: Callable[[str], str | None] | None = None,
    skipped: SkipReport | None = None,
    allow_empty: bool = False,
    **backend_opts: Any,
) -> int:
    """Parse a text file with one already-segmented sentence per line into CoNLL-U.

    ``# sent_id`` is the sentence's 1-based line number; blank lines are
    skipped (their numbers are simply not used); lines with a control character,
    over the bounds or rejected by ``sentence_filter`` are skipped and counted in ``skipped`` (see
    :func:`parse_texts`). Written atomically; returns the number of sentences.
    An input without sentences, or whose every sentence was skipped, is an
    :class:`InputError` (and nothing is written) unless ``allow_empty``.
    """
    path = Path(input_txt)
    if not path.exists():
        raise InputError("input text file not found", path)
    skipped = skipped if skipped is not None else SkipReport()
    seen = 0

    def items() -> Iterator[tuple[str, str, str]]:
        nonlocal seen
        for lineno, line in enumerate(iter_text_lines(path), start=1):
            text = line.rstrip("\n").rstrip("\r")
            if text.strip():
                seen += 1
                control = find_control_char(text.strip())
                if control is not None:
                    skipped.add("control_chars", str(lineno), f"{path}:{lineno}: {control}")
                    continue
                yield str(lineno), text.strip(), domain

    sentences = parse_texts(
        items(), backend=backend, batch_size=batch_size, progress=progress, lemmas=lemmas,
        max_chars=max_chars, max_tokens=max_tokens, sentence_filter=sentence_filter, skipped=skipped,
        **backend_opts,
    )
    def empty_error() -> InputError:
        if seen == 0:
            return InputError("no sentences (the file is empty or blank); use --allow-empty for an empty output", path)
        return InputError(
            f"every sentence was skipped ({skipped.summary('line')}); nothing to write "
            "(use --allow-empty for an empty output)",
            path,
        )

    return write_conllu(sentences, output_conllu, empty_error=None if allow_empty else empty_error)


def _as_items(df_or_items: Any) -> Iterable[tuple[str, str, str]]:
    """Items from a polars DataFrame (columns ``sent_id``, ``text``, optional ``domain``) or an iterable."""
    try:
        import polars as pl
    except ImportError:  # pragma: no cover - polars is a hard dependency
        pl = None
    if pl is not None and isinstance(df_or_items, pl.DataFrame):
        missing = {"sent_id", "text"} - set(df_or_items.columns)
        if missing:
            raise InputError(f"sentence table lacks column(s) {', '.join(sorted(missing))}")
        domains = df_or_items["domain"] if "domain" in df_or_items.columns else itertools.repeat("")
        return zip(
            (str(s) for s in df_or_items["sent_id"]),
            df_or_items["text"],
            (d or "" for d in domains),
        )
    return df_or_items


def parse_shard(
    df_or_items: Any,
    shard_index: int,
    n_shards: int,
    out_path: str | os.PathLike,
    *,
    backend: str = "slovnet",
    batch_size: int = 64,
    progress: bool = False,
    lemmas: LemmaSource = "pymorphy3",
    **backend_opts: Any,
) -> int:
    """Parse shard ``shard_index`` of ``n_shards`` (round-robin by input order) into ``out_path``.

    Items are ``(sent_id, text, domain)`` tuples or a polars DataFrame with
    those columns. The CoNLL-U file is written atomically; returns its sentence count.
    """
    if n_shards < 1 or not 0 <= shard_index < n_shards:
        raise InputError(f"shard index {shard_index} is outside 0..{n_shards - 1}")
    items = itertools.islice(_as_items(df_or_items), shard_index, None, n_shards)
    sentences = parse_texts(
        items, backend=backend, batch_size=batch_size, progress=progress, lemmas=lemmas, **backend_opts
    )
    return write_conllu(sentences, out_path)


def parse_to_shards(
    df_or_items: Any,
    out_paths: Sequence[str | os.PathLike],
    **kwargs: Any,
) -> list[int]:
    """Split the sentences round-robin into ``len(out_paths)`` shards and parse each (see :func:`parse_shard`)."""
    if not out_paths:
        raise InputError("parse_to_shards needs at least one output path")
    items = list(_as_items(df_or_items))
    return [parse_shard(items, k, len(out_paths), p, **kwargs) for k, p in enumerate(out_paths)]
