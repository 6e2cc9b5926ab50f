"""Hugging Face ``transformers`` backend for masked (encoder) LMs: pseudo-log-likelihood.

The pseudo-log-likelihood of a sentence (Salazar et al., 2020; the RuBLiMP
paper's PPPL, Eq. 2) is ``Σ_t log P(x_t | x_\\t)``: every token is masked in
turn and predicted from both sides.  A sentence of ``n`` scored tokens costs
``n`` forward passes of its masked copies; :class:`HFMaskedScorer` packs the
masked copies of many sentences into large batches under a padded token
budget, so the passes run densely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from rublimp.io import InputError
from rublimp.runtime import progress as progress_bar
from rublimp.scoring.base import SentenceScores
from rublimp.scoring.hf import MIN_GEMM_ROWS, HFModelScorer, make_length_batches, position_limit
from rublimp.scoring.mink import distribution_moments

__all__ = ["HFMaskedScorer", "pll_one_by_one", "special_tokens_label"]

#: Attribute names of the prediction head of ``*ForMaskedLM`` models whose head maps
#: hidden states ``(..., d)`` to logits ``(..., V)`` (BERT/RemBERT: ``cls``;
#: RoBERTa/XLM-R: ``lm_head``).  With one of these, only the masked position of each
#: row goes through the head; other architectures (e.g. DistilBERT) fall back to the
#: full ``model(...).logits``.
_HEAD_ATTRS = ("cls", "lm_head")


def special_tokens_label(tokenizer: Any) -> str:
    """The special tokens the tokenizer wraps a sentence in, e.g. ``"[CLS]…[SEP]"`` or ``"<s>…</s>"``."""
    enc = tokenizer("x", add_special_tokens=True, return_special_tokens_mask=True)
    ids = [i for i, s in zip(enc["input_ids"], enc["special_tokens_mask"]) if s]
    return "…".join(str(t) for t in tokenizer.convert_ids_to_tokens(ids))


class HFMaskedScorer(HFModelScorer):
    """Pseudo-log-likelihood scores of sentences under a ``transformers`` masked LM.

    Each sentence is tokenised *with* the tokenizer's special tokens (e.g.
    ``[CLS] … [SEP]``); every non-special token is replaced by the mask token
    in its own copy of the sentence, and ``log P(x_t | x_\\t)`` is read at the
    masked position.  Tokens are masked one at a time: whole-word masking
    (masking all sub-tokens of a word together, as in some later PLL variants)
    is *not* used, matching Salazar et al. (2020) and the paper's PPPL.

    ``n_tokens`` is the number of scored (non-special) tokens, ``sum_logprob``
    their summed pseudo-log-probability, Min-K% is taken over the per-token
    pseudo-log-probabilities and Min-K%++ standardises each of them by the
    mean/std of ``log p(z)`` of the full distribution at the masked position.
    ``first_token`` records the special tokens around the sentence
    (:func:`special_tokens_label`).

    The masked copies of all sentences are packed, longest first, into batches of
    copies of one length (no padding, :func:`rublimp.scoring.hf.make_length_batches`)
    of at most ``batch_tokens`` tokens, so a sentence's scores do not depend on the
    sentences scored with it.

    >>> scorer = HFMaskedScorer("ai-forever/ruBert-base", device="cuda")    # doctest: +SKIP
    >>> scorer.score(["Кошка спит.", "Кошки спит."])                         # doctest: +SKIP
    """

    _auto_model = "AutoModelForMaskedLM"
    _model_kind = "a masked LM"

    @staticmethod
    def _check_tokenizer(tokenizer: Any, name: str) -> None:
        if getattr(tokenizer, "mask_token_id", None) is None:
            raise InputError(f"model {name!r}: tokenizer has no mask token; it is not a masked LM")

    def _setup(
        self, model: Any, tokenizer: Any, *, name: str, device: str, batch_tokens: int | None, max_length: int | None
    ) -> None:
        mask_id = getattr(tokenizer, "mask_token_id", None)
        if not isinstance(mask_id, int):
            raise InputError(f"model {name!r}: tokenizer has no mask token; it is not a masked LM")
        self.name = name
        self.tokenizer = tokenizer
        self.device = torch.device(device)
        self.model = model.to(self.device).eval()
        self.max_length = max_length if max_length is not None else position_limit(getattr(model, "config", None))
        self._mask_id = mask_id
        self._label = special_tokens_label(tokenizer)
        self._head = next(
            (getattr(model, a) for a in _HEAD_ATTRS if isinstance(getattr(model, a, None), torch.nn.Module)), None
        )
        #: Number of masked-copy forward rows run so far (one per scored token; filler rows not counted).
        self.forward_rows = 0
        self.batch_tokens = self._resolve_batch_tokens(batch_tokens)

    @property
    def first_token(self) -> str:
        return self._label

    def tokenize(self, sentences: Sequence[str]) -> list[tuple[list[int], list[int]]]:
        """``(ids with special tokens, positions of the scored tokens)`` for each sentence."""
        enc = self.tokenizer(
            list(sentences), add_special_tokens=True, return_special_tokens_mask=True, verbose=False
        )
        out = []
        for ids, special in zip(enc["input_ids"], enc["special_tokens_mask"]):
            out.append((list(ids), [i for i, s in enumerate(special) if not s]))
        return out

    def _score_unique(self, sentences: list[str], *, minkpp: bool, progress: bool) -> list[SentenceScores]:
        enc = self.tokenize(sentences)
        copies: list[tuple[int, int]] = []  # (sentence index, position to mask)
        for si, (sent, (ids, positions)) in enumerate(zip(sentences, enc)):
            if not positions:
                raise InputError(f"model {self.name!r}: sentence tokenised to zero tokens: {sent!r}")
            if self.max_length is not None and len(ids) > self.max_length:
                raise InputError(
                    f"model {self.name!r}: sentence has {len(ids)} tokens with special tokens, more than "
                    f"max_length={self.max_length}: {sent[:80]!r}"
                )
            copies.extend((si, p) for p in positions)
        lp = np.empty(len(copies))
        mu = np.empty(len(copies)) if minkpp else None
        sigma = np.empty(len(copies)) if minkpp else None
        batches = make_length_batches(
            [len(enc[si][0]) for si, _ in copies], self.batch_tokens, fixed_rows=self.fixed_rows,
            row_ladder=True,
        )
        with progress_bar(total=len(copies), unit="tok", desc=f"PLL scoring ({self.name})",
                          enabled=progress) as bar:
            for batch, _width, n_rows in batches:
                rows = [(enc[copies[c][0]][0], copies[c][1]) for c in batch]
                b_lp, b_mu, b_sigma = self._score_batch(rows, minkpp=minkpp, n_rows=n_rows)
                lp[batch] = b_lp
                if minkpp:
                    mu[batch] = b_mu  # type: ignore[index]
                    sigma[batch] = b_sigma  # type: ignore[index]
                bar.update(len(batch))
        out: list[SentenceScores] = []
        start = 0
        for ids, positions in enc:
            end = start + len(positions)
            out.append(
                SentenceScores(
                    tokens=[str(t) for t in self.tokenizer.convert_ids_to_tokens([ids[p] for p in positions])],
                    logprobs=lp[start:end].copy(),
                    mu=None if mu is None else mu[start:end].copy(),
                    sigma=None if sigma is None else sigma[start:end].copy(),
                )
            )
            start = end
        return out

    def _masked_logits(self, inputs: torch.Tensor, mask: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """Logits ``(rows, V)`` at each row's masked position."""
        rows = torch.arange(inputs.shape[0], device=inputs.device)
        if self._head is not None:
            # The encoder runs on every position, the prediction head only on the masked one:
            # for a 250k-token vocabulary (XLM-R) that avoids a rows x width x V logits tensor.
            hidden = self.model.base_model(input_ids=inputs, attention_mask=mask)[0]
            return self._head(hidden[rows, pos][:, None, :])[:, 0]
        return self.model(input_ids=inputs, attention_mask=mask).logits[rows, pos]

    def _probe_forward(self, rows: int, width: int) -> None:
        ids = [self._mask_id] * width
        self._score_batch([(ids, 0)] * rows, minkpp=False)
        self.forward_rows -= rows

    def _score_batch(
        self, rows: list[tuple[list[int], int]], *, minkpp: bool, n_rows: int | None = None
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """PLL of masked copies of one length (``n_rows`` ≥ ``len(rows)`` rows run, the rest filler)."""
        width = len(rows[0][0])
        if any(len(ids) != width for ids, _ in rows):
            raise ValueError("a batch holds masked copies of one length (see make_length_batches)")
        # filler rows (results discarded): a fixed row count where the device needs it, and at least
        # MIN_GEMM_ROWS rows, as the prediction head runs on one position per row
        rows_in = list(rows) + [rows[0]] * max(0, (n_rows or 0) - len(rows), MIN_GEMM_ROWS - len(rows))
        inputs = torch.tensor([ids for ids, _ in rows_in], dtype=torch.long)
        pos = torch.tensor([p for _, p in rows_in], dtype=torch.long)
        targets = inputs[torch.arange(len(rows)), pos[: len(rows)]].clone()
        inputs[torch.arange(len(rows_in)), pos] = self._mask_id
        mask = torch.ones_like(inputs)
        self.forward_rows += len(rows)
        self.positions_run += inputs.numel()
        self.real_positions += len(rows) * width
        with torch.inference_mode():
            logits = self._masked_logits(inputs.to(self.device), mask.to(self.device), pos.to(self.device))
            logp = torch.log_softmax(logits[: len(rows)].float(), dim=-1)
            lp = logp.gather(1, targets.to(self.device)[:, None]).squeeze(1).double().cpu().numpy()
            if not minkpp:
                return lp, None, None
            finite = torch.where(torch.isfinite(logp), logp, torch.zeros_like(logp))
            prob = logp.exp()
            mu_t = (prob * finite).sum(-1)
            sigma_t = (prob * (finite - mu_t[:, None]) ** 2).sum(-1).sqrt()
            return lp, mu_t.double().cpu().numpy(), sigma_t.double().cpu().numpy()


# --------------------------------------------------------------------------- reference


def pll_one_by_one(model: Any, tokenizer: Any, sentence: str) -> SentenceScores:
    """Reference PLL: one sentence, one masked copy per forward pass, full logits, float64 softmax.

    Used by the tests to check :class:`HFMaskedScorer`; also returns the
    distribution moments (numpy) for Min-K%++.
    """
    enc = tokenizer(sentence, add_special_tokens=True, return_special_tokens_mask=True)
    ids = list(enc["input_ids"])
    positions = [i for i, s in enumerate(enc["special_tokens_mask"]) if not s]
    if not positions:
        raise InputError(f"sentence tokenised to zero tokens: {sentence!r}")
    device = next(model.parameters()).device
    lps, rows = [], []
    with torch.inference_mode():
        for p in positions:
            masked = list(ids)
            masked[p] = tokenizer.mask_token_id
            logits = model(input_ids=torch.tensor([masked], device=device)).logits[0, p]
            row = torch.log_softmax(logits.double(), dim=-1).cpu().numpy()
            rows.append(row)
            lps.append(row[ids[p]])
    mu, sigma = distribution_moments(np.stack(rows))
    tokens = [str(t) for t in tokenizer.convert_ids_to_tokens([ids[p] for p in positions])]
    return SentenceScores(tokens=tokens, logprobs=np.asarray(lps), mu=mu, sigma=sigma)
