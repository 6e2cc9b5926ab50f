"""Which floating-point type a scorer runs in: ``dtype: auto`` resolved per device.

``auto`` is the fast choice that keeps scores usable for minimal-pair decisions:

* **CPU** with native bfloat16 dot products (x86 ``avx512_bf16`` or ``amx_bf16``, read from
  ``/proc/cpuinfo``): ``bfloat16``.  oneDNN then runs the matrix products at about twice the
  float32 rate (measured on a 2-core AMD EPYC with avx512_bf16, torch 2.13: 196 vs 90 GFLOP/s for
  a 256x768x3072 product; a GPT-2-small-sized model scores 2.2x faster).  Any other CPU: ``float32``
  (without those instructions bfloat16 products are emulated; not measured here, so the safe choice).
* **CUDA**: ``bfloat16`` where the GPU supports it, else ``float16`` (what vLLM's own ``auto`` picks
  for a float32 checkpoint).
* other devices (``mps`` …): ``float32``.

The price, measured on the trained demo LM over 4,000 pool pairs (``bench/bench_dtype.py``): the
summed log-probability of a sentence moves by 0.048 nats on average (max 0.40), and 3 of 4,000 pair
decisions flip (accuracy 3,404 → 3,407 of 4,000).  Log-softmax always runs in float32.  Set
``dtype: float32`` (config key ``scoring.dtype`` or ``models[].dtype``) for full-precision scores.

The vLLM backend keeps its own meaning of ``auto`` (it is passed through).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

__all__ = ["DTYPES", "cpu_has_native_bf16", "resolve_dtype"]

#: Accepted ``dtype`` values and their canonical names.
DTYPES: dict[str, str] = {
    "auto": "auto",
    "float32": "float32",
    "fp32": "float32",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float16": "float16",
    "fp16": "float16",
}

_BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


@functools.cache
def cpu_has_native_bf16(cpuinfo: str | None = "/proc/cpuinfo") -> bool:
    """True when the CPU has bfloat16 dot-product instructions (``avx512_bf16`` or ``amx_bf16``).

    Read from the ``flags`` line of ``/proc/cpuinfo``; False where that file does not exist
    (macOS, Windows) or cannot be read.
    """
    if cpuinfo is None:
        return False
    try:
        text = Path(cpuinfo).read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags"):
            return bool(_BF16_FLAGS & set(line.partition(":")[2].split()))
    return False


def _device_type(device: Any) -> str:
    return str(device).split(":", 1)[0].strip().lower() or "cpu"


def resolve_dtype(dtype: str | None, device: Any = "cpu", *, backend: str = "hf") -> str:
    """The canonical dtype a scorer runs in: ``dtype`` itself, or for ``auto`` (and None) the
    device's choice (see the module docstring).  ``backend="vllm"`` keeps ``auto`` as it is.

    Raises ``ValueError`` for an unknown name.
    """
    name = "auto" if dtype is None else str(dtype)
    if name not in DTYPES:
        raise ValueError(f"unknown dtype {name!r}; expected one of {', '.join(DTYPES)}")
    name = DTYPES[name]
    if name != "auto" or backend == "vllm":
        return name
    kind = _device_type(device)
    if kind == "cpu":
        return "bfloat16" if cpu_has_native_bf16() else "float32"
    if kind == "cuda":
        import torch

        if torch.cuda.is_available() and torch.cuda.is_bf16_supported():
            return "bfloat16"
        return "float16"
    return "float32"
