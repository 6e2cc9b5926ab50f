"""Process set-up shared by rule scripts and the CLI: logging and thread limits."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

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
