"""A guard against a Snakemake scheduler flaw that runs more jobs at once than ``--cores`` allows.

The flaw (seen in Snakemake 9.15.0, the version this project runs; upstream reports
snakemake/snakemake#3913 and #3815): when exactly one job is ready,
``JobScheduler.job_selector`` returns the greedy scheduler's selection without subtracting the
job's resources from the available ones, while the job's end adds them back. Every round that
starts a single job therefore adds that job's threads (and other resources) to what the
scheduler believes is free, and later rounds start more jobs than ``--cores``: in a 1M-sentence
run with ``--cores 2``, six 800 MB ``perturb_shard`` jobs ran at once (a round of one ``corpus``
job, then single ``parse`` jobs, each leaked a core).

:func:`guard_scheduler` (called by rules/common.smk in the Snakemake process) wraps
``job_selector`` so that a one-job round subtracts the selected job's resources, as the other
rounds do. It patches nothing when the installed Snakemake's ``job_selector`` no longer has the
one-job early return (a fixed release), so it cannot double-count there.
"""

from __future__ import annotations

import inspect
import re

__all__ = ["has_single_job_leak", "guard_scheduler"]

#: The flawed branch: a one-job round returns the greedy selection straight away.
_LEAK = re.compile(r"if len\(jobs\) == 1:\s*\n\s*return self\.job_selector_greedy\(")


def has_single_job_leak(scheduler_class) -> bool:
    """Whether ``scheduler_class.job_selector`` returns a one-job selection without booking its resources."""
    try:
        source = inspect.getsource(scheduler_class.job_selector)
    except (OSError, TypeError, AttributeError):
        return False
    return bool(_LEAK.search(source))


def guard_scheduler() -> bool:
    """Make Snakemake's one-job scheduling rounds book the job's resources; returns whether the
    installed Snakemake needed it (and is now guarded). Idempotent."""
    try:
        from snakemake.scheduling.job_scheduler import JobScheduler
    except ImportError:  # another Snakemake layout: nothing known to guard
        return False
    selector = JobScheduler.job_selector
    if getattr(selector, "rublimp_guarded", False):
        return True
    if not has_single_job_leak(JobScheduler):
        return False

    def job_selector(self, jobs):
        selected = selector(self, jobs)
        if len(jobs) == 1 and selected:  # the branch that skipped update_available_resources
            with self._lock:
                self.update_available_resources(selected)
        return selected

    job_selector.rublimp_guarded = True
    job_selector.__doc__ = selector.__doc__
    JobScheduler.job_selector = job_selector
    return True
