"""Stanza backend: the Stanford Russian pipeline (``tokenize,pos,lemma,depparse``) on pretokenized input.

stanza is an optional dependency (``pip install 'rublimp[stanza]'``) and its
Russian models must be downloaded beforehand; nothing is fetched at run time
(``download_method=None``), so a missing model is a clear
:class:`~rublimp.io.InputError`, never a surprise download.

Stanza's graph parser already decodes a single-root spanning tree. Its
``Pipeline`` does not expose the head scores, so this backend writes no
``HeadConf`` (``ParsedWords.head_conf`` is ``None``).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any, Sequence

from ..io import InputError
from .slovnet_backend import ParsedWords

__all__ = ["StanzaParser", "document_to_parsed", "default_model_dir", "FETCH_HINT"]

FETCH_HINT = (
    "download the Russian models with  python -c \"import stanza; stanza.download('ru'{dir_arg})\"  "
    "(or point parse.stanza.model_dir / $STANZA_RESOURCES_DIR at a stanza_resources folder that holds them)"
)
PROCESSORS = "tokenize,pos,lemma,depparse"


def default_model_dir() -> Path:
    """stanza's default resources folder (``$STANZA_RESOURCES_DIR`` or ``~/stanza_resources``)."""
    env = os.environ.get("STANZA_RESOURCES_DIR")
    if env:
        return Path(env)
    try:
        from stanza.resources.common import DEFAULT_MODEL_DIR
    except ImportError:
        return Path.home() / "stanza_resources"
    return Path(DEFAULT_MODEL_DIR)


def _hint(model_dir: Path, explicit: bool) -> str:
    return FETCH_HINT.format(dir_arg=f", model_dir={str(model_dir)!r}" if explicit else "")


def _feats(value: str | None) -> dict[str, str]:
    if not value or value == "_":
        return {}
    return dict(kv.split("=", 1) for kv in value.split("|") if "=" in kv)


def document_to_parsed(doc: Any) -> list[ParsedWords]:
    """Convert a stanza ``Document`` (anything with ``.sentences[i].words``) into :class:`ParsedWords`.

    Syntactic words are used (multiword tokens, which Russian models do not
    produce, would be split into their words).
    """
    out: list[ParsedWords] = []
    for sent in doc.sentences:
        words = list(sent.words)
        out.append(
            ParsedWords(
                forms=[w.text for w in words],
                upos=[w.upos or "X" for w in words],
                feats=[_feats(w.feats) for w in words],
                heads=[int(w.head) if w.head is not None else 0 for w in words],
                deprels=[w.deprel or "dep" for w in words],
                head_conf=None,
                lemmas=[w.lemma if w.lemma else w.text.lower() for w in words],
            )
        )
    return out


class StanzaParser:
    """Stanza's Russian pipeline on pretokenized sentences.

    Parameters
    ----------
    model_dir:
        The ``stanza_resources`` folder; default: ``$STANZA_RESOURCES_DIR`` or
        stanza's own default (``~/stanza_resources``).
    use_gpu:
        Run on CUDA when available (off by default: CPU results are reproducible).
    batch_size:
        Sentences per call of the pipeline (also used for the pos/depparse batch sizes, in words ×50).
    package:
        stanza package name, e.g. ``"default"`` or ``"syntagrus"``.
    """

    name = "stanza"

    def __init__(
        self,
        *,
        model_dir: str | os.PathLike | None = None,
        use_gpu: bool = False,
        batch_size: int = 64,
        package: str = "default",
    ) -> None:
        if importlib.util.find_spec("stanza") is None:
            raise InputError(
                "parser backend 'stanza' needs the stanza package: pip install 'stanza>=1.8' "
                "(or choose parse.backend: slovnet)",
                "config: parse.backend",
            )
        explicit = model_dir is not None
        mdir = Path(model_dir) if explicit else default_model_dir()
        # checked before importing stanza (which imports torch: seconds)
        if not (mdir / "resources.json").exists() or not (mdir / "ru").is_dir():
            raise InputError(
                f"stanza Russian models not found in {mdir} (no resources.json or ru/); " + _hint(mdir, explicit),
                "config: parse.stanza.model_dir",
            )
        import stanza

        self.batch_size = batch_size
        try:
            self.pipeline = stanza.Pipeline(
                "ru",
                dir=str(mdir),
                package=package,
                processors=PROCESSORS,
                tokenize_pretokenized=True,
                use_gpu=use_gpu,
                download_method=None,
                logging_level="WARN",
                pos_batch_size=batch_size * 50,
                depparse_batch_size=batch_size * 50,
            )
        except (FileNotFoundError, ValueError, KeyError) as exc:
            raise InputError(
                f"could not load the stanza Russian pipeline from {mdir} ({exc}); " + _hint(mdir, explicit),
                "config: parse.stanza.model_dir",
            ) from exc

    def parse(self, token_lists: Sequence[Sequence[str]], batch_size: int | None = None) -> list[ParsedWords]:
        """Tag, lemmatize and parse pretokenized sentences; output keeps the input order."""
        batch_size = batch_size or self.batch_size
        out: list[ParsedWords] = []
        for start in range(0, len(token_lists), batch_size):
            chunk = [list(t) for t in token_lists[start : start + batch_size]]
            parsed = document_to_parsed(self.pipeline(chunk))
            if len(parsed) != len(chunk):
                raise RuntimeError(f"stanza returned {len(parsed)} sentences for {len(chunk)} inputs")
            out.extend(parsed)
        return out
