"""A tiny BERT-style masked LM trained offline on CPU, for the pipeline's self-check of ``hf-mlm``.

The counterpart of :mod:`rublimp.demo_lm` for encoder models: trained for many
epochs on one half of the demo sentences (:func:`rublimp.demo_lm.split_demo_train`),
it memorises them, so the pseudo-log-likelihood Min-K% of
:class:`rublimp.scoring.mlm.HFMaskedScorer` separates training from held-out
sentences.  The saved directory loads with ``AutoTokenizer`` and
``AutoModelForMaskedLM``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rublimp.demo_lm import (
    MIN_POSITIONS,
    check_positive,
    deterministic_torch,
    make_optimizer,
    save_trained,
    size_positions,
    train_bpe,
    train_loop,
    training_sentences,
)
from rublimp.io import InputError

__all__ = ["DEMO_MLM_SPECIALS", "train_demo_mlm"]

#: Special tokens of the demo tokenizer (BERT's conventions).
DEMO_MLM_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def _train_tokenizer(sentences: list[str], vocab_size: int, n_positions: int) -> Any:
    """Byte-level BPE with BERT's special tokens and ``[CLS] sentence [SEP]``.

    Byte-level BPE rather than WordPiece: the ``tokenizers`` WordPiece trainer breaks
    frequency ties in hash-map order, so its vocabulary changed from run to run
    (measured on the 40 test sentences), while the BPE trainer with a fixed byte
    alphabet is reproducible.
    """
    from tokenizers import processors
    from transformers import PreTrainedTokenizerFast

    tok = train_bpe(sentences, vocab_size, DEMO_MLM_SPECIALS)
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]", special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=n_positions,
    )


def train_demo_mlm(
    train_sentences: Sequence[str],
    out_dir: str | os.PathLike,
    *,
    seed: int = 0,
    vocab_size: int = 4000,
    n_layer: int = 2,
    n_embd: int = 128,
    n_head: int = 4,
    n_positions: int | None = 128,
    room_for: Iterable[str] = (),
    epochs: int = 30,
    batch_size: int = 32,
    lr: float = 2e-3,
    warmup_steps: int = 20,
    mask_prob: float = 0.25,
    dropout: float = 0.0,
    max_steps: int | None = None,
    num_threads: int | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Train a small BERT masked LM on ``train_sentences`` and save it to ``out_dir``.

    A byte-level BPE tokenizer (``tokenizers``; ``[CLS] sentence [SEP]``) is trained
    on the distinct sentences; each epoch, a seeded ``mask_prob`` share of the
    tokens of every sentence (at least one) is selected and replaced by
    ``[MASK]`` (80%), a random token (10%) or kept (10%), BERT's recipe, and
    the model learns to predict them (AdamW, linear warm-up then decay).  All
    RNGs are seeded and deterministic kernels are on, so the same sentences and
    settings give identical weights.  ``out_dir`` is replaced atomically and
    holds the model, the tokenizer and ``training.json`` (returned as a dict).
    ``n_positions=None`` sizes the model to the longest of the training sentences and
    ``room_for`` (:func:`rublimp.demo_lm.fit_positions`), as for the causal demo LM.
    """
    import torch
    from transformers import BertConfig, BertForMaskedLM

    from .runtime import quiet_transformers

    quiet_transformers()

    out_path = Path(out_dir)
    sentences = training_sentences(train_sentences, "demo MLM")
    if n_embd % n_head:
        raise InputError(f"demo MLM n_embd={n_embd} is not divisible by n_head={n_head}")
    if not 0.0 < mask_prob <= 1.0:
        raise InputError(f"demo MLM mask_prob must be in (0, 1], got {mask_prob}")
    check_positive("demo MLM", epochs=epochs, batch_size=batch_size, n_positions=n_positions or 1,
                    vocab_size=vocab_size, n_layer=n_layer)
    hparams = {
        "vocab_size": vocab_size, "n_layer": n_layer, "n_embd": n_embd, "n_head": n_head,
        "n_positions": n_positions, "epochs": epochs, "batch_size": batch_size, "lr": lr,
        "warmup_steps": warmup_steps, "mask_prob": mask_prob, "dropout": dropout, "max_steps": max_steps,
        "optimizer": "AdamW(betas=(0.9, 0.98), weight_decay=0.01)", "grad_clip": 1.0,
    }
    t0, cpu0 = time.perf_counter(), time.process_time()
    with deterministic_torch(seed, num_threads):
        tokenizer = _train_tokenizer(sentences, vocab_size, n_positions or MIN_POSITIONS)
        encoded = tokenizer(sentences, add_special_tokens=True, verbose=False)["input_ids"]
        # encoded holds [CLS] and [SEP] already; room_for is counted without them, plus 2
        plain = [ids[1:-1] for ids in encoded]
        n_positions, _longest = size_positions(tokenizer, n_positions, room_for, plain, special=2)
        hparams["n_positions"] = n_positions
        n_truncated = sum(len(ids) > n_positions for ids in encoded)
        seqs = [ids[: n_positions - 1] + [ids[-1]] if len(ids) > n_positions else ids for ids in encoded]
        n_special = len(DEMO_MLM_SPECIALS)
        config = BertConfig(
            vocab_size=len(tokenizer), hidden_size=n_embd, num_hidden_layers=n_layer, num_attention_heads=n_head,
            intermediate_size=4 * n_embd, max_position_embeddings=n_positions, type_vocab_size=1,
            hidden_dropout_prob=dropout, attention_probs_dropout_prob=dropout,
            pad_token_id=tokenizer.pad_token_id,
        )
        model = BertForMaskedLM(config)
        model.train()
        opt, sched, total_steps = make_optimizer(
            model, lr, (0.9, 0.98), len(seqs), batch_size, epochs, max_steps, warmup_steps
        )

        def make_batch(batch: list[list[int]], gen: Any) -> tuple[Any, Any, Any]:
            width = max(len(s) for s in batch)
            ids = torch.full((len(batch), width), tokenizer.pad_token_id, dtype=torch.long)
            labels = torch.full((len(batch), width), -100, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for r, s in enumerate(batch):
                n_real = len(s) - 2  # without [CLS]/[SEP]
                row = torch.tensor(s)
                pick = torch.rand(n_real, generator=gen) < mask_prob
                if not pick.any():
                    pick[torch.randint(n_real, (1,), generator=gen)] = True
                where = torch.nonzero(pick).squeeze(1) + 1
                labels[r, where] = row[where]
                roll = torch.rand(where.numel(), generator=gen)
                noised = row.clone()
                noised[where[roll < 0.8]] = tokenizer.mask_token_id
                rand_pos = where[(roll >= 0.8) & (roll < 0.9)]
                noised[rand_pos] = torch.randint(n_special, len(tokenizer), (rand_pos.numel(),), generator=gen)
                ids[r, : len(s)] = noised
                mask[r, : len(s)] = 1
            return ids, mask, labels

        epoch_losses, step = train_loop(
            model, opt, sched, seqs, seed=seed, batch_size=batch_size, total_steps=total_steps,
            make_batch=make_batch, n_predicted=lambda labels: int((labels != -100).sum()),
            desc="training demo MLM", progress=progress, show_loss=False,
        )
        model.eval()
        info = save_trained(
            out_path, model, tokenizer,
            {"model_type": "bert", "objective": "masked LM (BERT 80/10/10 masking)"},
            seed=seed, hparams=hparams, sentences=sentences, seqs=seqs, n_truncated=n_truncated, steps=step,
            epoch_losses=epoch_losses, t0=t0, cpu0=cpu0,
        )
    return info
