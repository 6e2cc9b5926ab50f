"""Process set-up shared by rule scripts and the CLI: logging, thread limits, rule logs."""

from __future__ import annotations

import logging
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
                "POLARS_MAX_THREADS")


def limit_threads(n: int = 1) -> None:
    """``n`` BLAS/OpenMP/Polars threads per worker (a job's ``threads``) unless the user set otherwise.

    Must run before numpy/torch/polars are imported to take full effect: slovnet's numpy
    inference measured 3-21x slower with default OpenBLAS threading under load.  Polars
    otherwise starts one thread per core in every job, each with its own buffers: the
    curate job at 1M sentences peaked at 364 MB with 2 Polars threads, 314 MB with 1.
    """
    for var in _THREAD_VARS:
        os.environ.setdefault(var, str(n))
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    bound_kernel_cache()


#: Kernels oneDNN keeps built (its default is 1,024).  Scoring on CPU in bfloat16 builds kernels and
#: buffers per input shape (batch rows x sentence length), and with free row counts the shapes kept
#: changing from one bucket of sentences to the next, so a scoring job's memory grew with the corpus:
#: score_pools peaked at 1,632 MB at 100k sentences and 2,389 MB at 1M in the scale bench.  Measured
#: with the demo LM (batch_tokens 2048, 6 batches of 17,500 sentences of the 1M pools, memory released
#: after each), peak / CPU: free rows and the default cache 1,330+ MB and still growing / 50.5 s;
#: the power-of-two row ladder (rublimp.scoring.hf.make_length_batches) with this cache 1,077 MB flat
#: / 52.9 s; the ladder with 128 kernels 1,209 MB / 49.8 s.
ONEDNN_KERNEL_CACHE = 16

#: Operations PyTorch's own oneDNN layer (ideep) keeps built, with their reordered weights and
#: buffers, per input shape (variable ``LRU_CACHE_CAPACITY``; its default is 1,024).  This cache, not
#: oneDNN's, is what a bfloat16 CPU scoring job kept growing: each new (rows, length) shape held
#: buffers until a thousand shapes were cached, and a larger corpus brings more distinct lengths.
#: Measured with the demo LM on one bucket of the 1M pools (17,238 sentences, batch_tokens 2048, in
#: bfloat16): malloc'd memory in use after scoring 453 MB with the default, 183 MB with 1, 187 MB
#: with 16 (float32 186 MB: its products bypass the cache); CPU 6.6 / 6.7 / 6.7 s.  Batches come
#: grouped by shape (one length at a time), so a small cache loses little: a 12-layer GPT-2-small-sized
#: model in bfloat16 (600 sentences, batch_tokens 256, one thread) took 20.0-20.2 s of CPU with 16 and
#: 64 against 19.4-19.8 s with 1,024, and peaked at 816-829 MB against 887-896 MB.
IDEEP_OP_CACHE = 16


def bound_kernel_cache(capacity: int = ONEDNN_KERNEL_CACHE, op_capacity: int = IDEEP_OP_CACHE) -> None:
    """Cap oneDNN's kernel cache and PyTorch's oneDNN operation cache unless the user set them.

    The variables are ``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` and ``LRU_CACHE_CAPACITY``; both are read
    when the first kernel is built, so this must run before the first forward pass of a process.
    """
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(capacity))
    os.environ.setdefault("LRU_CACHE_CAPACITY", str(op_capacity))


def release_memory() -> None:
    """Hand freed heap pages back to the system (glibc ``malloc_trim``; nothing elsewhere).

    A job that runs a model over many batches of changing shapes leaves its heap fragmented, so
    its resident memory keeps the peak of every earlier batch; called between buckets of work.
    """
    import gc

    gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


#: glibc's ``M_MMAP_THRESHOLD`` (mallopt parameter -3), and the size this project fixes it at: 128 KiB,
#: glibc's initial value.  Left dynamic, glibc raises the threshold to the size of each mmapped block
#: freed, so after the first few-MB NumPy array is freed every later array of that size comes from the
#: heap, whose freed pages stay resident; a curate job's peak then grew with its pool by ~80 bytes a
#: pair.  Fixed, each such array is mapped and unmapped on its own.  Measured on the scale bench's
#: largest pool (add_new_suffix, 97,206 pairs at 100k sentences, 350,000 at 1M): peak 119 → 133 MB
#: dynamic, 119 → 127-129 MB fixed, CPU unchanged (1.3 s).
MMAP_THRESHOLD = 128 * 1024
_M_MMAP_THRESHOLD = -3


def fixed_mmap_threshold(size: int = MMAP_THRESHOLD) -> bool:
    """Fix glibc's mmap threshold at ``size`` bytes for this process (see :data:`MMAP_THRESHOLD`).

    Leaves it alone where the user set ``MALLOC_MMAP_THRESHOLD_`` and where the C library is not
    glibc.  Returns whether the threshold was set.
    """
    libc = _glibc()
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or libc is None:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, int(size)))


def _glibc() -> Any:
    """glibc, with ``malloc_trim`` and ``mallopt``, or None (not Linux, or musl or another libc)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def setup_logging(log_path: str | os.PathLike | None = None, level: int = logging.INFO) -> logging.Logger:
    logger = logging.getLogger("rublimp")
    logger.setLevel(level)
    logger.handlers.clear()
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S")
    err = logging.StreamHandler(sys.stderr)
    err.setFormatter(fmt)
    logger.addHandler(err)
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        fh = logging.FileHandler(log_path, encoding="utf-8")
        fh.setFormatter(fmt)
        logger.addHandler(fh)
    return logger


def _describe_file(path: str) -> str:
    """Size, and rows for a table, of an output file (for the rule log)."""
    p = Path(path)
    if p.is_dir():
        return f"{path} (directory, {sum(1 for _ in p.rglob('*'))} entries)"
    if not p.exists():
        return f"{path} (missing)"
    what = f"{p.stat().st_size:,} bytes"
    try:
        if p.suffix == ".parquet":
            import polars as pl

            what += f", {pl.scan_parquet(p).select(pl.len()).collect().item():,} rows"
        elif p.suffix in (".csv", ".tsv", ".conllu"):
            with open(p, "rb") as fh:
                lines = sum(1 for _ in fh)
            what += f", {lines:,} lines"
        elif p.suffix == ".json" and p.stat().st_size <= 4000:
            # small reports (curation thresholds, filter statistics, AUROC): the numbers themselves
            import json

            what += ": " + json.dumps(json.loads(p.read_text(encoding="utf-8")), ensure_ascii=False)
    except Exception as exc:  # pragma: no cover - a summary must never fail the job
        what += f" (unreadable: {exc})"
    return f"{path} ({what})"


#: Messages of transformers that this pipeline triggers by design; each is harmless here (reason beside it).
TRANSFORMERS_NOISE = (
    # the causal scorers feed unpadded rows that start with BOS, which is also the pad token of the demo LMs,
    # so transformers suspects padding; every position is a real token and no mask is needed
    "We strongly recommend passing in an `attention_mask`",
    # GPT-2 configs carry no loss_type; transformers falls back to the causal-LM loss the demo LM trains with
    "was set in the config but it is unrecognized. Using the default loss",
)


class _DropKnownNoise(logging.Filter):
    """Drops the :data:`TRANSFORMERS_NOISE` messages below ERROR; everything else passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        message = record.getMessage()
        return not any(noise in message for noise in TRANSFORMERS_NOISE)


def quiet_transformers() -> None:
    """Silence transformers' known noise: the :data:`TRANSFORMERS_NOISE` warnings and its weight
    loading/saving progress bars (the stages log their own progress).  Other warnings and every
    error still reach the log.  Idempotent; imports transformers, so call it where a model is loaded.
    """
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    root = hf_logging.get_logger()
    for target in (root, *root.handlers):
        if not any(isinstance(f, _DropKnownNoise) for f in target.filters):
            target.addFilter(_DropKnownNoise())


@contextmanager
def rule_log(smk, *, threads: int = 1) -> Iterator[logging.Logger]:
    """Run a Snakemake rule script body with everything it does written to the rule's log file.

    ``smk`` is the script's ``snakemake`` object. Limits BLAS threads (call before importing
    numpy), logs the rule, its wildcards and inputs, then inside the block whatever the stage
    logs (counts per stage), Python warnings, and at the end every output with its size and row
    count and the wall time; an exception is logged with its traceback before it propagates,
    so a failed job's log says why.
    """
    limit_threads(threads)
    log_path = smk.log[0] if len(smk.log) else None
    logger = setup_logging(log_path)
    logging.captureWarnings(True)
    wlog = logging.getLogger("py.warnings")
    wlog.handlers = logger.handlers
    wc = {k: v for k, v in smk.wildcards.items()}
    logger.info("rule %s%s: started (pid %d, %d thread(s))", smk.rule, f" {wc}" if wc else "", os.getpid(), threads)
    for name, files in smk.input.items():
        files = [files] if isinstance(files, str) else list(files)
        if name == "code":
            logger.info("input %s: %d package source files", name, len(files))
        elif files:
            logger.info("input %s: %s", name, files[0] if len(files) == 1 else f"{len(files)} files ({files[0]}, ...)")
    start = time.perf_counter()
    try:
        yield logger
    except BaseException:
        logger.exception("rule %s failed after %.1f s", smk.rule, time.perf_counter() - start)
        raise
    for path in smk.output:
        logger.info("output %s", _describe_file(path))
    logger.info("rule %s: done in %.1f s", smk.rule, time.perf_counter() - start)


class CommandJob:
    """What :func:`rule_log` reads of a Snakemake job, for a rule run as a plain command (``shell:``)."""

    def __init__(self, rule: str, inputs: dict[str, str], outputs: list[str], log: str, wildcards: dict | None = None):
        self.rule = rule
        self.input = dict(inputs)
        self.output = list(outputs)
        self.log = [log]
        self.wildcards = dict(wildcards or {})


# -- progress -----------------------------------------------------------------
#: Seconds between progress log lines when stderr is not a terminal (env RUBLIMP_PROGRESS_INTERVAL).
PROGRESS_INTERVAL_S = 30.0
_LOG_BAR_FORMAT = "{desc}: {n_fmt}/{total_fmt} {unit} ({percentage:.0f}%), {elapsed} elapsed, ETA {remaining}, {rate_fmt}{postfix}"
_LOG_BAR_FORMAT_NO_TOTAL = "{desc}: {n_fmt} {unit}, {elapsed} elapsed, {rate_fmt}{postfix}"


class _LogLines:
    """A file-like object for tqdm that turns each refresh into one log line."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger
        self._last = ""

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        if line and line != self._last:
            self._last = line
            self.logger.info(line)

    def flush(self) -> None:  # tqdm flushes after every write
        pass


def _progress_interval() -> float:
    raw = os.environ.get("RUBLIMP_PROGRESS_INTERVAL")
    if raw is None:
        return PROGRESS_INTERVAL_S
    try:
        return max(float(raw), 0.0)
    except ValueError:
        return PROGRESS_INTERVAL_S


_LOG_TQDM = None


def _log_tqdm_class():
    """tqdm whose postfix/description changes wait for the next timed line instead of forcing one."""
    global _LOG_TQDM
    if _LOG_TQDM is None:
        from tqdm.auto import tqdm

        class LogTqdm(tqdm):
            def set_postfix(self, ordered_dict=None, refresh=True, **kwargs):
                super().set_postfix(ordered_dict, refresh=False, **kwargs)

            def set_postfix_str(self, s="", refresh=True):
                super().set_postfix_str(s, refresh=False)

            def set_description(self, desc=None, refresh=True):
                super().set_description(desc, refresh=False)

        _LOG_TQDM = LogTqdm
    return _LOG_TQDM


def progress(iterable=None, *, total: float | None = None, desc: str = "", unit: str = "it",
             enabled: bool = True, interval: float | None = None, logger: logging.Logger | None = None,
             **tqdm_kwargs):
    """A tqdm progress bar with ETA on a terminal, else periodic log lines.

    On a terminal (stderr is a tty) this is an ordinary tqdm bar. Elsewhere — a
    Snakemake job, output redirected to a log — the same bar writes one line
    ``desc: n/total unit (p%), elapsed, ETA, rate`` to the ``rublimp`` logger
    (so to the rule's log file) at most every ``interval`` seconds (default
    :data:`PROGRESS_INTERVAL_S`, or the env variable ``RUBLIMP_PROGRESS_INTERVAL``),
    plus a first and a final line. ``enabled=False`` gives a silent bar. Use it
    like tqdm: iterate over it, or call ``update(n)`` / ``set_postfix(...)`` and
    ``close()`` (or use it as a context manager). Other keyword arguments
    (``initial``, ``unit_scale``, …) go to tqdm.
    """
    from tqdm.auto import tqdm

    if not enabled:
        return tqdm(iterable, total=total, disable=True, **tqdm_kwargs)
    if sys.stderr.isatty():
        return tqdm(iterable, total=total, desc=desc, unit=unit, dynamic_ncols=True, **tqdm_kwargs)
    wait = _progress_interval() if interval is None else interval
    has_total = total is not None or (iterable is not None and hasattr(iterable, "__len__"))
    return _log_tqdm_class()(
        iterable,
        total=total,
        desc=desc,
        unit=unit,
        file=_LogLines(logger or logging.getLogger("rublimp")),
        mininterval=wait,
        maxinterval=max(wait, 1.0),
        miniters=1 if wait == 0 else None,
        ascii=True,
        bar_format=_LOG_BAR_FORMAT if has_total else _LOG_BAR_FORMAT_NO_TOTAL,
        **tqdm_kwargs,
    )
