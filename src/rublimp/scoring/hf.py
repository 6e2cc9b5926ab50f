"""Hugging Face ``transformers`` backend: batched sentence log-probabilities from a causal LM."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch

from rublimp.io import InputError
from rublimp.runtime import progress as progress_bar
from rublimp.scoring.base import Scorer, SentenceScores
from rublimp.scoring.dtypes import resolve_dtype
from rublimp.scoring.mink import distribution_moments

__all__ = [
    "HFCausalScorer",
    "check_model_loadable",
    "choose_first_token",
    "default_batch_tokens",
    "make_batches",
    "make_length_batches",
    "MIN_GEMM_ROWS",
    "score_one_by_one",
]

_TORCH_DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}
_CONFIG_FILE = "config.json"
_TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.json",
    "vocab.txt",
    "tokenizer.model",
    "spm.model",
    "spiece.model",
    "sentencepiece.bpe.model",
)
_WEIGHT_FILES = (
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
)


# --------------------------------------------------------------------------- checks


def _looks_local(name_or_path: str) -> bool:
    """True when the string must be a filesystem path rather than a Hub id (``owner/name``)."""
    if Path(name_or_path).expanduser().exists():
        return True
    return (
        os.path.isabs(name_or_path)
        or name_or_path.startswith((".", "~"))
        or name_or_path.count("/") > 1
        or "\\" in name_or_path
    )


def hub_offline() -> bool:
    from huggingface_hub import is_offline_mode

    # huggingface_hub reads HF_HUB_OFFLINE once, at import; re-read the environment too.
    truthy = {"1", "ON", "YES", "TRUE"}
    env = any(os.environ.get(v, "").upper() in truthy for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))
    return env or is_offline_mode()


def _where(config_key: str | None) -> str:
    return f" (config key {config_key})" if config_key else ""


def check_model_loadable(
    name_or_path: str | os.PathLike, *, trust_remote_code: bool = False, config_key: str | None = None
) -> None:
    """Cheaply verify that a model can be loaded, without loading its weights.

    A local directory must hold a parseable ``config.json``, a tokenizer file
    and a weights file.  A Hub id is resolved with ``AutoConfig``; under
    ``HF_HUB_OFFLINE=1`` (or ``TRANSFORMERS_OFFLINE=1``) only the local cache is
    consulted and the tokenizer and weight files must be cached as well.
    Raises :class:`rublimp.io.InputError` naming the model (and ``config_key``).
    """
    from transformers import AutoConfig

    name = os.fspath(name_or_path)
    where = _where(config_key)
    if not name:
        raise InputError(f"empty model name{where}")
    if _looks_local(name):
        path = Path(name).expanduser()
        if not path.is_dir():
            raise InputError(f"model {name!r}{where}: directory does not exist", path)
        if not (path / _CONFIG_FILE).is_file():
            raise InputError(f"model {name!r}{where}: no {_CONFIG_FILE} in the model directory", path)
        try:
            AutoConfig.from_pretrained(path, trust_remote_code=trust_remote_code)
        except Exception as exc:  # transformers raises OSError/ValueError/KeyError here
            raise InputError(f"model {name!r}{where}: cannot read its config: {exc}", path / _CONFIG_FILE) from exc
        if not any((path / f).is_file() for f in _TOKENIZER_FILES):
            raise InputError(f"model {name!r}{where}: no tokenizer file (one of {', '.join(_TOKENIZER_FILES)})", path)
        if not any((path / f).is_file() for f in _WEIGHT_FILES):
            raise InputError(f"model {name!r}{where}: no weights file (one of {', '.join(_WEIGHT_FILES)})", path)
        return

    offline = hub_offline()
    try:
        AutoConfig.from_pretrained(name, local_files_only=offline, trust_remote_code=trust_remote_code)
    except Exception as exc:
        mode = "in the local Hugging Face cache (HF_HUB_OFFLINE=1)" if offline else "on the Hugging Face Hub"
        raise InputError(f"model {name!r}{where}: not found {mode} and no such local directory: {exc}") from exc
    if offline:
        from huggingface_hub import try_to_load_from_cache

        def cached(fname: str) -> bool:
            return isinstance(try_to_load_from_cache(name, fname), str)

        if not any(cached(f) for f in _TOKENIZER_FILES):
            raise InputError(f"model {name!r}{where}: tokenizer files are not in the local cache (HF_HUB_OFFLINE=1)")
        if not any(cached(f) for f in _WEIGHT_FILES):
            raise InputError(f"model {name!r}{where}: weight files are not in the local cache (HF_HUB_OFFLINE=1)")


def choose_first_token(tokenizer: Any, *, model_name: str = "model") -> tuple[int, str]:
    """The id and string of the token prepended to every sentence: BOS, else EOS.

    Raises :class:`InputError` when the tokenizer has neither.
    """
    for attr in ("bos_token_id", "eos_token_id"):
        tid = getattr(tokenizer, attr, None)
        if isinstance(tid, int):
            return tid, str(tokenizer.convert_ids_to_tokens(tid))
    raise InputError(
        f"model {model_name!r}: tokenizer has neither a BOS nor an EOS token, so the first token "
        "of a sentence cannot be scored"
    )


def make_batches(lengths: Sequence[int], batch_tokens: int) -> list[list[int]]:
    """Group sequence indices into batches whose padded size ``rows × longest`` ≤ ``batch_tokens``.

    Indices are ordered longest first (ties by index), so the memory peak comes
    with the first batch; a sequence longer than ``batch_tokens`` forms a batch
    on its own.
    """
    if batch_tokens < 1:
        raise ValueError(f"batch_tokens must be positive, got {batch_tokens}")
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for i in order:
        if current and (len(current) + 1) * max(longest, lengths[i]) > batch_tokens:
            batches.append(current)
            current, longest = [], 0
        current.append(i)
        longest = max(longest, lengths[i])
    if current:
        batches.append(current)
    return batches


#: Padded-token budget of one forward pass on CPU when neither the config nor the caller sets one.
#: Measured with bench/bench_score.py (random GPT-2-small-sized model, demo sentences, 1 thread):
#: throughput is flat from 128 to 512 tokens and falls beyond (the activations leave the caches).
CPU_BATCH_TOKENS = 256


#: CPU matrix products give a row the same bits whatever the number of rows M, except for
#: M < 4 (another kernel: measured on torch 2.13 CPU for nn.Linear of sizes 32x64 to 768x3000,
#: M = 1..300).  A forward pass therefore always runs at least this many token rows.
MIN_GEMM_ROWS = 4


def make_length_batches(
    lengths: Sequence[int], batch_tokens: int, *, fixed_rows: bool = False, row_ladder: bool = False
) -> list[tuple[list[int], int, int]]:
    """Batches of sequences of *equal* length, so no batch holds a padded position: ``(indices, width, rows)``.

    Sequences are grouped by their exact length ``width`` (longest first, so the memory
    peak comes first); a group is cut into batches of ``max(1, batch_tokens // width)``
    sequences, kept in index order.  ``rows`` is the number of rows the batch runs with:
    ``len(indices)``, or with ``fixed_rows`` always ``max(1, batch_tokens // width)``
    (the last batch of a length filled up with discarded copies).

    Why: a causal or masked LM's output for one row depends on the padded width of its
    batch (the attention reductions run over it) but, on CPU, not on how many rows the
    batch has (measured bit for bit on GPT-2 with 1 and 2 threads; ``tests/test_scoring.py``
    checks it).  Unpadded equal-length batches therefore make a sentence's score independent
    of the sentences scored with it (cached and fresh scores are bit-identical) at no cost:
    the model runs over exactly the real tokens.  GPU kernels (cuBLAS) may pick another
    algorithm for another row count, so on CUDA ``fixed_rows`` keeps every batch of a length
    at the same shape; the filler is at most one partial batch per distinct length.

    ``row_ladder`` (CPU, where the row count does not change a row's bits): the last, partial
    batch of a length is cut into batches of power-of-two sizes, largest first (37 rows: 32, 4,
    1), still with no filler, so one length runs with at most ``log2(rows) + 2`` distinct shapes,
    whatever the sentences.  oneDNN (bfloat16 on CPU) builds kernels and buffers per input shape,
    and with free row counts every new bucket of sentences brought new shapes: a scoring job's
    memory grew with the corpus (see :func:`rublimp.runtime.bound_kernel_cache` for the figures).
    """
    if batch_tokens < 1:
        raise ValueError(f"batch_tokens must be positive, got {batch_tokens}")
    groups: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        groups.setdefault(int(n), []).append(i)
    out: list[tuple[list[int], int, int]] = []
    for width in sorted(groups, reverse=True):
        rows = max(1, batch_tokens // max(width, 1))
        idx = groups[width]
        full = len(idx) // rows * rows if row_ladder and not fixed_rows else len(idx)
        for start in range(0, full, rows):
            chunk = idx[start : start + rows]
            out.append((chunk, width, rows if fixed_rows else len(chunk)))
        while full < len(idx):  # the ladder: the rest in power-of-two pieces, largest first
            size = 1 << ((len(idx) - full).bit_length() - 1)
            out.append((idx[full : full + size], width, size))
            full += size
    return out


#: Sequence lengths are padded up to a multiple of this in canonical batches.
BUCKET = 8


def make_canonical_batches(lengths: Sequence[int], batch_tokens: int) -> list[tuple[list[int], int, int]]:
    """Padded batches whose shape depends only on each sequence's own length: ``(indices, width, rows)``.

    A sequence of length L goes to the bucket of width ``ceil(L / BUCKET) * BUCKET``; every batch of
    that bucket runs with exactly ``max(1, batch_tokens // width)`` rows (the last one filled up with
    copies).  Kept for callers that pad (rublimp.metaling); sentence scoring uses the filler-free
    :func:`make_length_batches`.
    """
    if batch_tokens < 1:
        raise ValueError(f"batch_tokens must be positive, got {batch_tokens}")
    buckets: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        buckets.setdefault(-(-n // BUCKET) * BUCKET, []).append(i)
    out: list[tuple[list[int], int, int]] = []
    for width in sorted(buckets, reverse=True):
        rows = max(1, batch_tokens // width)
        idx = buckets[width]
        for start in range(0, len(idx), rows):
            out.append((idx[start : start + rows], width, rows))
    return out


def needs_fixed_rows(device: Any) -> bool:
    """Whether batches on ``device`` must keep a fixed row count per width (see :func:`make_length_batches`)."""
    return torch.device(device).type != "cpu"


def default_batch_tokens(device: Any, probe: Any = None, *, key: str | None = None) -> int:
    """The batch budget to use when none is configured: :data:`CPU_BATCH_TOKENS` on CPU; on
    another device the largest budget that fits, from :func:`probe_batch_tokens` with
    ``probe`` (remembered per ``key`` in :func:`budget_memo_path`)."""
    if torch.device(device).type == "cpu" or probe is None:
        return CPU_BATCH_TOKENS
    memo = _read_memo()
    if key is not None and key in memo:
        return int(memo[key])
    budget = probe_batch_tokens(probe)
    if key is not None:
        memo[key] = budget
        _write_memo(memo)
    return budget


#: Budgets tried by :func:`probe_batch_tokens`, largest first.
PROBE_BUDGETS = tuple(2**k for k in range(18, 7, -1))


def probe_batch_tokens(fits: Any, budgets: Sequence[int] = PROBE_BUDGETS) -> int:
    """The largest of ``budgets`` for which ``fits(budget)`` is true (a forward pass ran without running
    out of memory); the smallest when none does, so that a too-large model fails with its own error."""
    for b in sorted(budgets, reverse=True):
        if fits(b):
            return int(b)
    return int(min(budgets))


def budget_memo_path() -> Path:
    """Where probed GPU budgets are remembered: ``$RUBLIMP_CACHE`` or ``~/.cache/rublimp``, ``batch_tokens.json``."""
    root = os.environ.get("RUBLIMP_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "rublimp")
    return Path(root) / "batch_tokens.json"


def _read_memo() -> dict[str, int]:
    import json

    try:
        data = json.loads(budget_memo_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): int(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_memo(memo: dict[str, int]) -> None:
    from rublimp.io import write_json_atomic

    try:
        write_json_atomic(budget_memo_path(), memo)
    except OSError:  # a read-only home: probe again next time
        pass


def _cuda_probe(forward: Any, width: int, device: Any) -> Any:
    """A ``fits(budget)`` for :func:`probe_batch_tokens`: one forward of ``budget // width`` rows of ``width``."""

    def fits(budget: int) -> bool:
        rows = max(1, budget // width)
        try:
            forward(rows, width)
            return True
        except torch.OutOfMemoryError:
            return False
        finally:
            if torch.device(device).type == "cuda":
                torch.cuda.empty_cache()

    return fits


def position_limit(config: Any) -> int | None:
    """The longest sequence a ``transformers`` model config allows (None: no limit stated)."""
    for attr in ("max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"):
        val = getattr(config, attr, None)
        if isinstance(val, int) and val > 0:
            return val
    return None


def _resolve_threads(num_threads: int | None) -> int | None:
    if num_threads is not None:
        return num_threads
    env = os.environ.get("OMP_NUM_THREADS", "")
    return int(env) if env.isdigit() and int(env) > 0 else None


# --------------------------------------------------------------------------- scorer


class HFModelScorer(Scorer):
    """Loading shared by the ``transformers`` scorers.

    A subclass names its ``Auto*`` model class (``_auto_model``) and what the
    model must load as (``_model_kind``, for messages), may check the tokenizer
    before the weights load (``_check_tokenizer``), and keeps the loaded model in
    ``_setup``.
    """

    _auto_model: str
    _model_kind: str

    def __init__(
        self,
        model_name_or_path: str | os.PathLike,
        *,
        device: str = "cpu",
        dtype: str = "auto",
        batch_tokens: int | None = None,
        max_length: int | None = None,
        trust_remote_code: bool = False,
        num_threads: int | None = None,
    ) -> None:
        import transformers
        from transformers import AutoTokenizer

        from ..runtime import bound_kernel_cache, quiet_transformers

        quiet_transformers()
        bound_kernel_cache()  # before the first forward pass (rublimp.runtime)
        name = os.fspath(model_name_or_path)
        try:  # auto: the device's fast choice (rublimp.scoring.dtypes)
            resolved = resolve_dtype(dtype, device)
        except ValueError as exc:
            raise InputError(f"model {name!r}: {exc}") from exc
        check_model_loadable(name, trust_remote_code=trust_remote_code)
        threads = _resolve_threads(num_threads)
        if threads is not None:
            torch.set_num_threads(threads)
        local_only = hub_offline()
        try:
            tokenizer = AutoTokenizer.from_pretrained(
                name, trust_remote_code=trust_remote_code, local_files_only=local_only
            )
        except Exception as exc:
            raise InputError(f"model {name!r}: cannot load its tokenizer: {exc}") from exc
        self._check_tokenizer(tokenizer, name)  # fail before loading the weights
        try:
            model = getattr(transformers, self._auto_model).from_pretrained(
                name, dtype=_TORCH_DTYPES[resolved], trust_remote_code=trust_remote_code, local_files_only=local_only
            )
        except Exception as exc:
            raise InputError(f"model {name!r}: cannot load it as {self._model_kind}: {exc}") from exc
        self._setup(model, tokenizer, name=name, device=device, batch_tokens=batch_tokens, max_length=max_length)

    @classmethod
    def from_model(
        cls: type[_S],
        model: Any,
        tokenizer: Any,
        *,
        name: str = "in-memory model",
        device: str | None = None,
        batch_tokens: int | None = None,
        max_length: int | None = None,
    ) -> _S:
        """Wrap an already loaded model and tokenizer (tests, benchmarks, notebooks)."""
        self = cls.__new__(cls)
        dev = device if device is not None else str(next(model.parameters()).device)
        self._setup(model, tokenizer, name=name, device=dev, batch_tokens=batch_tokens, max_length=max_length)
        return self

    @staticmethod
    def _check_tokenizer(tokenizer: Any, name: str) -> None:
        """Raise ``InputError`` where the tokenizer does not suit the scorer (called before the weights load)."""

    def _setup(
        self, model: Any, tokenizer: Any, *, name: str, device: str, batch_tokens: int | None, max_length: int | None
    ) -> None:
        raise NotImplementedError

    @property
    def dtype(self) -> str:
        """The floating-point type the model runs in (``float32``, ``bfloat16`` or ``float16``)."""
        return str(next(self.model.parameters()).dtype).removeprefix("torch.")

    def _probe_forward(self, rows: int, width: int) -> None:
        """One forward pass of ``rows`` × ``width`` tokens as scoring runs it (for the GPU budget probe)."""
        raise NotImplementedError

    def _resolve_batch_tokens(self, batch_tokens: int | None) -> int:
        """``batch_tokens`` as given, else the device default (:func:`default_batch_tokens`).

        Also sets ``fixed_rows`` (see :func:`make_length_batches`) and zeroes the position
        counters: ``positions_run`` (rows × width of every forward pass, filler included)
        and ``real_positions`` (the tokens that are scored).
        """
        self.fixed_rows = needs_fixed_rows(self.device)
        self.positions_run = 0
        self.real_positions = 0
        if batch_tokens is not None:
            if batch_tokens < 1:
                raise InputError(f"model {self.name!r}: batch_tokens must be positive, got {batch_tokens}")
            return int(batch_tokens)
        width = min(self.max_length or 128, 128)
        dev = self.device
        key = f"{self.name}|{type(self).__name__}|{next(self.model.parameters()).dtype}|{dev.type}"
        if dev.type == "cuda":
            key += f"|{torch.cuda.get_device_name(dev)}"
        return default_batch_tokens(dev, _cuda_probe(self._probe_forward, width, dev), key=key)


_S = TypeVar("_S", bound=HFModelScorer)


class HFCausalScorer(HFModelScorer):
    """Batched log-probabilities of sentences under a ``transformers`` causal LM.

    Each sentence is tokenised without special tokens and the tokenizer's BOS
    (or EOS when there is no BOS) is prepended, so every sentence token,
    the first included, is scored.  Distinct sentences are sorted by token
    length and packed into batches of equal-length sentences (no padding) of at
    most ``batch_tokens`` tokens (:func:`make_length_batches`); without
    ``batch_tokens`` the device default applies (:func:`default_batch_tokens`).

    >>> scorer = HFCausalScorer("path/to/model")              # doctest: +SKIP
    >>> scorer.score(["Кошка спит.", "Кошки спит."])           # doctest: +SKIP
    """

    _auto_model = "AutoModelForCausalLM"
    _model_kind = "a causal LM"

    @staticmethod
    def _check_tokenizer(tokenizer: Any, name: str) -> None:
        choose_first_token(tokenizer, model_name=name)

    def _setup(
        self, model: Any, tokenizer: Any, *, name: str, device: str, batch_tokens: int | None, max_length: int | None
    ) -> None:
        self.name = name
        self.tokenizer = tokenizer
        self.device = torch.device(device)
        self.model = model.to(self.device).eval()
        limit = position_limit(getattr(model, "config", None))
        self.max_length = max_length if max_length is not None else limit
        self._first_id, self._first_str = choose_first_token(tokenizer, model_name=name)
        pad = getattr(tokenizer, "pad_token_id", None)
        self._pad_id = pad if isinstance(pad, int) else self._first_id  # for callers that pad (rublimp.metaling)
        self.batch_tokens = self._resolve_batch_tokens(batch_tokens)

    @property
    def first_token(self) -> str:
        return self._first_str

    def tokenize(self, sentences: Sequence[str]) -> list[list[int]]:
        """Token ids of each sentence, without special tokens."""
        # verbose=False: over-long sentences get rublimp's own error instead of a tokenizer warning.
        enc = self.tokenizer(list(sentences), add_special_tokens=False, verbose=False)
        return [list(ids) for ids in enc["input_ids"]]

    def _score_unique(self, sentences: list[str], *, minkpp: bool, progress: bool) -> list[SentenceScores]:
        ids = self.tokenize(sentences)
        for sent, seq in zip(sentences, ids):
            if not seq:
                raise InputError(f"model {self.name!r}: sentence tokenised to zero tokens: {sent!r}")
            # The model sees [first] + seq[:-1] (len(seq) positions) and predicts seq.
            if self.max_length is not None and len(seq) > self.max_length:
                raise InputError(
                    f"model {self.name!r}: sentence has {len(seq)} tokens, more than max_length="
                    f"{self.max_length} positions: {sent[:80]!r}"
                )
        results: list[SentenceScores | None] = [None] * len(sentences)
        batches = make_length_batches([len(s) for s in ids], self.batch_tokens, fixed_rows=self.fixed_rows,
                                       row_ladder=True)
        with progress_bar(total=len(sentences), unit="sent", desc=f"scoring ({self.name})",
                          enabled=progress) as bar:
            for batch, _width, rows in batches:
                scored = self._score_batch([ids[i] for i in batch], minkpp=minkpp, rows=rows)
                for i, res in zip(batch, scored):
                    results[i] = res
                bar.update(len(batch))
        return results  # type: ignore[return-value]

    def _probe_forward(self, rows: int, width: int) -> None:
        self._score_batch([[self._first_id] * width] * rows, minkpp=False)

    def _score_batch(self, seqs: list[list[int]], *, minkpp: bool, rows: int | None = None) -> list[SentenceScores]:
        """Score sequences of one length in one forward pass (``rows`` ≥ ``len(seqs)`` rows, the rest filler)."""
        width = len(seqs[0])
        if any(len(s) != width for s in seqs):
            raise ValueError("a batch holds sequences of one length (see make_length_batches)")
        # filler rows (copies of the first sequence, results discarded): see make_length_batches;
        # and at least MIN_GEMM_ROWS token rows, so that no product takes the small-M kernel
        n_rows = max(rows or 0, len(seqs), -(-MIN_GEMM_ROWS // width))
        seqs_in = list(seqs) + [seqs[0]] * (n_rows - len(seqs))
        targets = torch.tensor(seqs_in, dtype=torch.long)
        inputs = torch.empty_like(targets)
        inputs[:, 0] = self._first_id
        inputs[:, 1:] = targets[:, :-1]
        self.positions_run += targets.numel()
        self.real_positions += len(seqs) * width
        with torch.inference_mode():
            # no padding, so no attention mask: every position of every row is a real token
            logits = self.model(input_ids=inputs.to(self.device)).logits
            tgt_all = targets.to(self.device)
            lp_parts, mu_parts, sigma_parts = [], [], []
            # One row at a time: the float32 log-softmax never holds more than one
            # sentence × vocabulary at once.
            for r in range(len(seqs)):
                logp = torch.log_softmax(logits[r].float(), dim=-1)
                lp_parts.append(logp.gather(1, tgt_all[r, :, None]).squeeze(1))
                if minkpp:
                    finite = torch.where(torch.isfinite(logp), logp, torch.zeros_like(logp))
                    prob = logp.exp()
                    mu = (prob * finite).sum(-1)
                    mu_parts.append(mu)
                    sigma_parts.append((prob * (finite - mu[:, None]) ** 2).sum(-1).sqrt())
            # A single device-to-host copy per batch.
            token_lp = torch.cat(lp_parts).double().cpu().numpy()
            mu_all = torch.cat(mu_parts).double().cpu().numpy() if minkpp else None
            sigma_all = torch.cat(sigma_parts).double().cpu().numpy() if minkpp else None
        out: list[SentenceScores] = []
        start = 0
        for seq in seqs:
            end = start + len(seq)
            out.append(
                SentenceScores(
                    tokens=[str(t) for t in self.tokenizer.convert_ids_to_tokens(seq)],
                    logprobs=token_lp[start:end].copy(),
                    mu=None if mu_all is None else mu_all[start:end].copy(),
                    sigma=None if sigma_all is None else sigma_all[start:end].copy(),
                )
            )
            start = end
        return out


# --------------------------------------------------------------------------- reference


def score_one_by_one(model: Any, tokenizer: Any, sentence: str) -> SentenceScores:
    """Reference scorer: one sentence, no batching, no padding, float64 softmax.

    Used by the tests to check :class:`HFCausalScorer`; also returns the
    distribution moments (via numpy) for Min-K%++.
    """
    first_id, _ = choose_first_token(tokenizer)
    ids = list(tokenizer(sentence, add_special_tokens=False)["input_ids"])
    if not ids:
        raise InputError(f"sentence tokenised to zero tokens: {sentence!r}")
    device = next(model.parameters()).device
    with torch.inference_mode():
        logits = model(input_ids=torch.tensor([[first_id] + ids], device=device)).logits[0, :-1]
    logp = torch.log_softmax(logits.double(), dim=-1).cpu().numpy()
    token_lp = logp[np.arange(len(ids)), ids]
    mu, sigma = distribution_moments(logp)
    tokens = [str(t) for t in tokenizer.convert_ids_to_tokens(ids)]
    return SentenceScores(tokens=tokens, logprobs=token_lp, mu=mu, sigma=sigma)
