"""Slovnet (natasha) backend: morphology tagger + biaffine parser with a valid-tree decoder.

natasha ships the three models this backend needs (``NewsEmbedding``,
``NewsMorphTagger``, ``NewsSyntaxParser``) inside its package, so it works
offline. The syntax model is run layer by layer (``model.emb`` →
``model.encoder`` → ``model.head`` → ``model.rel``) instead of through
``SyntaxInfer``, because slovnet's own decoder takes the argmax head of every
token independently and 27–35 % of sentences then contain a cycle or several
roots. Here the head score matrix is decoded with a single-root maximum
spanning tree (:func:`rublimp.parse.mst.mst_heads`) and the relation
classifier is applied to those heads.

Inference is plain numpy. Multithreaded BLAS makes it several times *slower*
on small matrices, so callers (the Snakemake rules, the CLI, the tests) set
``OPENBLAS_NUM_THREADS=1`` (and ``OMP_NUM_THREADS=1``) before Python starts;
this module cannot change it once numpy is loaded (``threadpoolctl`` would,
but it is not a project dependency).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

import numpy as np

from .mst import mst_heads

__all__ = ["ParsedWords", "SlovnetParser"]

Decoder = Literal["mst", "argmax"]


@dataclass
class ParsedWords:
    """Backend-neutral analysis of one pretokenized sentence (lists aligned with ``forms``)."""

    forms: list[str]
    upos: list[str]
    feats: list[dict[str, str]]
    heads: list[int]
    deprels: list[str]
    head_conf: list[float] | None  # P(chosen head); None when the backend has no head scores
    lemmas: list[str] | None = None  # the backend's own lemmas, when it has any


def _head_confidence(scores: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """P(chosen head) under a softmax over each dependent's head scores (self-loops excluded)."""
    n = scores.shape[0]
    s = scores.astype(np.float64, copy=True)
    s[np.arange(n), np.arange(1, n + 1)] = -np.inf
    s -= s.max(axis=1, keepdims=True)
    logz = np.log(np.exp(s).sum(axis=1))
    return np.exp(s[np.arange(n), heads] - logz)


class SlovnetParser:
    """natasha's news morphology tagger and syntax parser, batched, with tree decoding.

    Parameters
    ----------
    batch_size:
        Sentences per numpy forward pass. Sentences are sorted by length inside
        each call to :meth:`parse` so that batches carry little padding.
    decoder:
        ``"mst"`` (default): single-root maximum spanning tree over the head
        scores. ``"argmax"``: slovnet's own decoder, kept for comparison; its
        trees may be invalid.
    constrain_root_label:
        With the MST decoder, the token attached to ROOT gets ``root`` and no
        other token may get ``root`` (the relation argmax is taken over the
        remaining labels). Ignored for ``"argmax"``, which reproduces slovnet.
    """

    name = "slovnet"

    def __init__(self, *, batch_size: int = 64, decoder: Decoder = "mst", constrain_root_label: bool = True) -> None:
        if decoder not in ("mst", "argmax"):
            raise ValueError(f"decoder must be 'mst' or 'argmax', got {decoder!r}")
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        from natasha import NewsEmbedding, NewsMorphTagger, NewsSyntaxParser

        emb = NewsEmbedding()
        morph = NewsMorphTagger(emb)
        syntax = NewsSyntaxParser(emb)
        self.batch_size = batch_size
        self.decoder = decoder
        self.constrain_root_label = constrain_root_label
        self._morph_model = morph.infer.model
        self._morph_encoder = morph.infer.encoder
        self._tags = list(morph.infer.decoder.tags_vocab.items)
        self._pad_tag = self._tags.index("<pad>")
        self._syntax_model = syntax.infer.model
        self._syntax_encoder = syntax.infer.encoder
        self._rels = list(syntax.infer.decoder.rels_vocab.items)
        self._root_rel = self._rels.index("root")
        self._pad_rel = self._rels.index("<pad>")
        self._tag_cache: dict[int, tuple[str, dict[str, str]]] = {}

    # -- public -------------------------------------------------------------
    def parse(self, token_lists: Sequence[Sequence[str]], batch_size: int | None = None) -> list[ParsedWords]:
        """Tag and parse pretokenized sentences; the output keeps the input order.

        ``batch_size`` overrides the parser's default for this call.
        """
        batch_size = batch_size or self.batch_size
        for k, toks in enumerate(token_lists):
            if len(toks) == 0:
                raise ValueError(f"sentence {k} of the batch has no tokens")
        order = sorted(range(len(token_lists)), key=lambda i: (len(token_lists[i]), i))
        out: list[ParsedWords | None] = [None] * len(token_lists)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            batch = [list(token_lists[i]) for i in idx]
            for i, parsed in zip(idx, self._parse_batch(batch)):
                out[i] = parsed
        return out  # type: ignore[return-value]

    # -- internals ----------------------------------------------------------
    def _encode(self, encoder, batch: list[list[str]]):
        return encoder.input([encoder.item(words) for words in batch])

    def _decode_tag(self, tag_id: int) -> tuple[str, dict[str, str]]:
        cached = self._tag_cache.get(tag_id)
        if cached is None:
            tag = self._tags[tag_id]
            pos, _, rest = tag.partition("|")
            feats = dict(kv.split("=", 1) for kv in rest.split("|")) if rest else {}
            cached = (pos, feats)
            self._tag_cache[tag_id] = cached
        return cached[0], dict(cached[1])

    def _parse_batch(self, batch: list[list[str]]) -> list[ParsedWords]:
        lengths = [len(b) for b in batch]

        minp = self._encode(self._morph_encoder, batch)
        tag_scores = self._morph_model(minp.word_id, minp.shape_id, minp.pad_mask)
        tag_scores[..., self._pad_tag] = -np.inf  # slovnet's argmax could pick the padding tag
        tag_ids = tag_scores.argmax(axis=-1)

        model = self._syntax_model
        sinp = self._encode(self._syntax_encoder, batch)
        x = model.emb(sinp.word_id, sinp.shape_id)
        x = model.encoder(x, sinp.pad_mask)
        head_scores = model.head(x)  # batch x seq x (seq + 1): [dependent, head], head 0 = ROOT

        seq_len = x.shape[1]
        head_ids = np.zeros((len(batch), seq_len), dtype=np.int64)
        confs: list[np.ndarray] = []
        for b, n in enumerate(lengths):
            scores = head_scores[b, :n, : n + 1]
            if self.decoder == "mst":
                heads = mst_heads(scores)
            else:  # slovnet's decoder: independent argmax, self-loops allowed
                heads = scores.argmax(axis=1)
            head_ids[b, :n] = heads
            confs.append(_head_confidence(scores, heads))

        rel_scores = model.rel(x, head_ids)  # batch x seq x rels
        out: list[ParsedWords] = []
        for b, n in enumerate(lengths):
            heads = head_ids[b, :n]
            rs = rel_scores[b, :n].astype(np.float64, copy=True)
            if self.decoder == "mst":
                rs[:, self._pad_rel] = -np.inf
                if self.constrain_root_label:
                    is_root = heads == 0
                    rs[~is_root, self._root_rel] = -np.inf
                    rs[is_root] = -np.inf
                    rs[is_root, self._root_rel] = 0.0
            rels = rs.argmax(axis=1)
            upos, feats = [], []
            for t in tag_ids[b, :n]:
                p, f = self._decode_tag(int(t))
                upos.append(p)
                feats.append(f)
            out.append(
                ParsedWords(
                    forms=list(batch[b]),
                    upos=upos,
                    feats=feats,
                    heads=[int(h) for h in heads],
                    deprels=[self._rels[int(r)] for r in rels],
                    head_conf=[float(c) for c in confs[b]],
                )
            )
        return out
