"""Process set-up shared by rule scripts and the CLI: logging, thread limits, rule logs."""

from __future__ import annotations

import logging
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def limit_threads(n: int = 1) -> None:
    """One BLAS/OpenMP thread per worker unless the user set otherwise.

    Must run before numpy/torch are imported to take full effect: slovnet's numpy
    inference measured 3-21x slower with default OpenBLAS threading under load.
    """
    for var in _THREAD_VARS:
        os.environ.setdefault(var, str(n))
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


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
