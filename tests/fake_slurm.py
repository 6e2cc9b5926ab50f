"""Stand-in SLURM commands for tests/test_slurm.py: a one-node "cluster" on this machine.

Installed on the PATH as ``sbatch``, ``srun``, ``sacct``, ``squeue``, ``sacctmgr``, ``sshare``,
``scontrol`` and ``sinfo`` (small shell wrappers calling ``python fake_slurm.py <command> ...``).
State lives in ``$FAKE_SLURM_DIR``: ``calls.jsonl`` records every sbatch call's arguments,
``jobs/<id>.json`` every job's name and state. ``sbatch`` runs the job's ``--wrap`` command (or the
script on stdin) in the job's directory (``-D``) with ``SLURM_JOB_ID`` set and its output in the
``--output`` file, to its end, then prints the job id; ``sacct``/``squeue`` report the states;
``srun`` runs its command in place. ``sacctmgr`` knows the accounts in
``$FAKE_SLURM_ACCOUNTS`` (comma-separated); ``sacct``'s account column (what the plugin reads to
guess an account when none is given) shows ``$FAKE_SLURM_RECENT_ACCOUNT``.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

STATE = Path(os.environ.get("FAKE_SLURM_DIR", "/tmp/fake_slurm"))


def _job_file(jobid: str) -> Path:
    return STATE / "jobs" / f"{jobid}.json"


def _write_job(jobid: str, **fields) -> None:
    path = _job_file(jobid)
    data = json.loads(path.read_text()) if path.exists() else {}
    data.update(fields)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def _next_id() -> str:
    STATE.mkdir(parents=True, exist_ok=True)
    (STATE / "jobs").mkdir(exist_ok=True)
    with open(STATE / "counter.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        counter = STATE / "counter"
        n = int(counter.read_text()) + 1 if counter.exists() else 1000
        counter.write_text(str(n))
    return str(n)


def _opt(args: list[str], *names: str) -> str | None:
    for i, a in enumerate(args):
        for n in names:
            if a == n and i + 1 < len(args):
                return args[i + 1]
            if a.startswith(n + "="):
                return a.split("=", 1)[1]
    return None


def sbatch(args: list[str]) -> int:
    jobid = _next_id()
    wrap = _opt(args, "--wrap")
    script = sys.stdin.read() if wrap is None and "/dev/stdin" in args else None
    if wrap is None and script is None:
        print("sbatch: error: no --wrap command and no script", file=sys.stderr)
        return 1
    name = _opt(args, "--job-name", "-J") or "job"
    output = (_opt(args, "--output", "-o") or f"slurm-{jobid}.out").replace("%j", jobid)
    with open(STATE / "calls.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"jobid": jobid, "args": args, "cwd": os.getcwd()}) + "\n")
    _write_job(jobid, name=name, state="RUNNING")
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    cmd = script if script is not None else wrap
    env = dict(os.environ, SLURM_JOB_ID=jobid, SLURM_JOBID=jobid)
    # a detached runner: sbatch returns at once, the runner records the final state
    # a cluster with no queue: the job runs to its end before sbatch returns (so the plugin's first
    # status check finds it finished, and a test spends no time in the plugin's polling back-off)
    runner = subprocess.Popen(
        [sys.executable, __file__, "_run", jobid, output],
        stdin=subprocess.PIPE, env=env, cwd=_opt(args, "-D", "--chdir") or os.getcwd(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    runner.communicate(cmd.encode())
    print(jobid)
    return 0


def _run(args: list[str]) -> int:
    jobid, output = args
    cmd = sys.stdin.read()
    with open(output, "ab") as out:
        rc = subprocess.call(["/bin/sh", "-c", cmd], stdout=out, stderr=subprocess.STDOUT)
    _write_job(jobid, state="COMPLETED" if rc == 0 else "FAILED", rc=rc)
    return 0


def _jobs(name: str | None) -> list[tuple[str, dict]]:
    out = []
    for p in sorted((STATE / "jobs").glob("*.json")):
        data = json.loads(p.read_text())
        if name is None or data.get("name") == name:
            out.append((p.stem, data))
    return out


def sacct(args: list[str]) -> int:
    if "-o" in args and "Account%256" in args:  # the plugin guessing an account from the user's recent jobs
        recent = os.environ.get("FAKE_SLURM_RECENT_ACCOUNT", "")
        if recent:
            print(recent)
        return 0
    for jobid, data in _jobs(_opt(args, "--name")):
        print(f"{jobid}|{data['state']}")
    return 0


def squeue(args: list[str]) -> int:
    for jobid, data in _jobs(_opt(args, "--name")):
        print(f"{jobid}|{data['state']}")
    return 0


def srun(args: list[str]) -> int:
    rest = list(args)
    while rest and rest[0].startswith("-"):
        rest.pop(0)
    if rest[:2] == ["sh", "-s"]:
        return subprocess.call(["/bin/sh", "-s"])
    return subprocess.call(" ".join(rest), shell=True)


def sacctmgr(args: list[str]) -> int:
    for account in os.environ.get("FAKE_SLURM_ACCOUNTS", "").split(","):
        if account:
            print(account)
    return 0


def scontrol(args: list[str]) -> int:
    if args[:2] == ["show", "config"]:
        print("MinJobAge               = 300 sec")
        return 0
    print(f"scontrol: stand-in does not support {args}", file=sys.stderr)
    return 1


def sinfo(args: list[str]) -> int:
    print("PARTITION\ncpu*\ngpu")
    return 0


COMMANDS = {
    "sbatch": sbatch, "_run": _run, "sacct": sacct, "squeue": squeue, "srun": srun,
    "sacctmgr": sacctmgr, "sshare": sacctmgr, "scontrol": scontrol, "sinfo": sinfo,
}


def install(bin_dir: Path) -> None:
    """Write the wrapper scripts into ``bin_dir`` (put it first on the PATH)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in COMMANDS:
        if name.startswith("_"):
            continue
        wrapper = bin_dir / name
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{Path(__file__).resolve()}" {name} "$@"\n')
        wrapper.chmod(0o755)


if __name__ == "__main__":
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
