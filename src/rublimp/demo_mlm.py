"""A tiny BERT-style masked LM trained offline on CPU, for the pipeline's self-check of ``hf-mlm``.

The counterpart of :mod:`rublimp.demo_lm` for encoder models: trained for many
epochs on one half of the demo sentences (:func:`rublimp.demo_lm.split_demo_train`),
it memorises them, so the pseudo-log-likelihood Min-K% of
:class:`rublimp.scoring.mlm.HFMaskedScorer` separates training from held-out
sentences.  The saved directory loads with ``AutoTokenizer`` and
``AutoModelForMaskedLM``.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rublimp.demo_lm import _atomic_dir, _deterministic_torch, training_set_sha256
from rublimp.io import InputError, write_json_atomic

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
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=2, special_tokens=list(DEMO_MLM_SPECIALS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tok.train_from_iterator(sentences, trainer=trainer, length=len(sentences))
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
    n_positions: int = 128,
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
    """
    import torch
    from tqdm.auto import tqdm
    from transformers import BertConfig, BertForMaskedLM

    out_path = Path(out_dir)
    for i, s in enumerate(train_sentences):
        if not isinstance(s, str) or not s.strip():
            raise InputError(f"demo MLM training sentence #{i} is empty or not a string: {s!r}")
    sentences = sorted(set(train_sentences))
    if len(sentences) < 2:
        raise InputError(f"demo MLM needs at least 2 distinct training sentences, got {len(sentences)}")
    if n_embd % n_head:
        raise InputError(f"demo MLM n_embd={n_embd} is not divisible by n_head={n_head}")
    if not 0.0 < mask_prob <= 1.0:
        raise InputError(f"demo MLM mask_prob must be in (0, 1], got {mask_prob}")
    for key, val in (("epochs", epochs), ("batch_size", batch_size), ("n_positions", n_positions),
                     ("vocab_size", vocab_size), ("n_layer", n_layer)):
        if val < 1:
            raise InputError(f"demo MLM {key} must be positive, got {val}")
    hparams = {
        "vocab_size": vocab_size, "n_layer": n_layer, "n_embd": n_embd, "n_head": n_head,
        "n_positions": n_positions, "epochs": epochs, "batch_size": batch_size, "lr": lr,
        "warmup_steps": warmup_steps, "mask_prob": mask_prob, "dropout": dropout, "max_steps": max_steps,
        "optimizer": "AdamW(betas=(0.9, 0.98), weight_decay=0.01)", "grad_clip": 1.0,
    }
    t0, cpu0 = time.perf_counter(), time.process_time()
    with _deterministic_torch(seed, num_threads):
        tokenizer = _train_tokenizer(sentences, vocab_size, n_positions)
        encoded = tokenizer(sentences, add_special_tokens=True, verbose=False)["input_ids"]
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
        opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.98), weight_decay=0.01)
        steps_per_epoch = math.ceil(len(seqs) / batch_size)
        total_steps = max_steps if max_steps is not None else epochs * steps_per_epoch
        warm = min(warmup_steps, max(total_steps - 1, 0))

        def lr_factor(step: int) -> float:
            if step < warm:
                return (step + 1) / (warm + 1)
            return max(0.05, 1.0 - (step - warm) / max(1, total_steps - warm))

        sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
        gen = torch.Generator().manual_seed(seed)
        epoch_losses: list[float] = []
        step = 0
        bar = tqdm(total=total_steps, unit="step", desc="training demo MLM", disable=None if progress else True)
        while step < total_steps:
            perm = torch.randperm(len(seqs), generator=gen).tolist()
            tok_loss, tok_count = 0.0, 0
            for b in range(0, len(perm), batch_size):
                if step >= total_steps:
                    break
                batch = [seqs[i] for i in perm[b:b + batch_size]]
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
                loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
                opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                sched.step()
                n_pred = int((labels != -100).sum())
                tok_loss += loss.item() * n_pred
                tok_count += n_pred
                step += 1
                bar.update(1)
            epoch_losses.append(tok_loss / max(tok_count, 1))
        bar.close()
        model.eval()
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        info: dict[str, Any] = {
            "model_type": "bert",
            "objective": "masked LM (BERT 80/10/10 masking)",
            "seed": seed,
            "hyperparameters": hparams,
            "n_sentences": len(sentences),
            "n_tokens": int(sum(len(s) for s in seqs)),
            "n_truncated": int(n_truncated),
            "tokenizer_vocab_size": len(tokenizer),
            "n_parameters": int(sum(p.numel() for p in model.parameters())),
            "steps": step,
            "training_set_sha256": training_set_sha256(sentences),
            "epoch_losses": [round(x, 6) for x in epoch_losses],
            "final_loss": round(epoch_losses[-1], 6),
            "wall_time_s": round(wall, 2),
            "cpu_time_s": round(cpu, 2),
            "torch_threads": torch.get_num_threads(),
        }
        with _atomic_dir(out_path) as tmp:
            model.save_pretrained(tmp)
            tokenizer.save_pretrained(tmp)
            write_json_atomic(tmp / "training.json", info)
    return info
