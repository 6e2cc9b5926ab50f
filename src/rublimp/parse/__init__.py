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

Numpy BLAS threads: set ``OPENBLAS_NUM_THREADS=1`` before starting Python
(slovnet is several times slower with threaded BLAS on small matrices).
"""

from __future__ import annotations

import functools
import itertools
import os
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal, Sequence

from ..conllu_doc import Sentence, Token, align_tokens, write_conllu
from ..io import InputError
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
]

BACKENDS = ("slovnet", "stanza")
LemmaSource = Literal["pymorphy3", "backend"]
_WINDOW = 16  # parse this many batches at a time, so length-sorting has material to work with

_PARSERS: dict[tuple, Any] = {}


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
) -> Iterator[Sentence]:
    """Parse (sent_id, text, domain, tokens) records window by window, in input order."""
    if batch_size < 1:
        raise InputError(f"batch_size must be >= 1, got {batch_size}", "config: parse.batch_size")
    parser = get_parser(backend, **backend_opts)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, desc=f"parse ({backend})", unit="sent", disable=None)
    it = iter(records)
    try:
        while True:
            window = list(itertools.islice(it, batch_size * _WINDOW))
            if not window:
                break
            for rec in window:
                if not rec[3]:
                    raise InputError(f"sentence {rec[0]!r} has no tokens (empty text)")
            parsed = parser.parse([rec[3] for rec in window], batch_size=batch_size)
            for (sent_id, text, domain, _), p in zip(window, parsed):
                yield to_sentence(p, sent_id=sent_id, text=text, domain=domain, lemmas=lemmas)
            if bar is not None:
                bar.update(len(window))
    finally:
        if bar is not None:
            bar.close()


def parse_texts(
    items: Iterable[tuple[str, str, str]],
    *,
    backend: str = "slovnet",
    batch_size: int = 64,
    progress: bool = False,
    lemmas: LemmaSource = "pymorphy3",
    total: int | None = None,
    **backend_opts: Any,
) -> Iterator[Sentence]:
    """Tokenize (razdel) and parse raw sentences given as ``(sent_id, text, domain)``.

    Yields one :class:`Sentence` per item, in input order, with ``# text`` the
    original text and every token aligned to it.
    """
    records = ((str(sid), text, domain or "", tokenize(text)) for sid, text, domain in items)
    yield from _run(
        records, backend=backend, batch_size=batch_size, lemmas=lemmas, progress=progress, total=total,
        backend_opts=backend_opts,
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
    **backend_opts: Any,
) -> Iterator[Sentence]:
    """Parse pretokenized sentences (e.g. a gold-tokenized treebank).

    ``sent_ids`` default to ``"1"``, ``"2"``, …; ``texts`` default to the tokens
    joined by spaces (then no ``SpaceAfter=No`` is produced).
    """
    n = len(token_lists)
    if sent_ids is not None and len(sent_ids) != n:
        raise ValueError("sent_ids must have one entry per sentence")
    if texts is not None and len(texts) != n:
        raise ValueError("texts must have one entry per sentence")
    records = (
        (
            str(sent_ids[i]) if sent_ids is not None else str(i + 1),
            texts[i] if texts is not None else None,
            domain,
            list(token_lists[i]),
        )
        for i in range(n)
    )
    yield from _run(
        records, backend=backend, batch_size=batch_size, lemmas=lemmas, progress=progress, total=n,
        backend_opts=backend_opts,
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
    **backend_opts: Any,
) -> int:
    """Parse a text file with one already-segmented sentence per line into CoNLL-U.

    ``# sent_id`` is the sentence's 1-based line number; blank lines are
    skipped (their numbers are simply not used). Written atomically; returns
    the number of sentences.
    """
    path = Path(input_txt)
    if not path.exists():
        raise InputError("input text file not found", path)

    def items() -> Iterator[tuple[str, str, str]]:
        with open(path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, start=1):
                text = line.rstrip("\n").rstrip("\r")
                if text.strip():
                    yield str(lineno), text.strip(), domain

    sentences = parse_texts(
        items(), backend=backend, batch_size=batch_size, progress=progress, lemmas=lemmas, **backend_opts
    )
    return write_conllu(sentences, output_conllu)


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
