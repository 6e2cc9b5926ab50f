"""How the workflow's time and memory grow with the corpus: real trees, repeated, at several sizes.

    nice python bench/bench_scale.py --sizes 10000,100000 --json work/bench_scale.json \
        [--workdir work/bench_scale] [--cores 2] [--targets all | --pools-only] [--sentences-per-shard 25000] \
        [--raw-text]

For each size N the bench builds a CoNLL-U corpus of N sentences from real parsed trees: the
project's demo corpus parsed once with the package (slovnet; cached under ``--workdir``) plus the
UD Russian GSD dev and test gold trees when /work/shared/data/ud_russian_gsd is there. The corpus
stage deduplicates sentences and has no switch to stop it, so the trees are *varied* rather than
repeated as they are: repeat r > 0 of a tree gets one or two sentence-initial discourse words and
commas (``Впрочем, …``, ``Кстати, конечно, …``) attached to the root, its ids and heads shifted,
its first word lower-cased unless it is a proper noun; each (tree, repeat) has its own sent_id.
The paradigms see the original tree under the prefix, so pairs per million sentences stay close
to those of the source trees. The corpus is fed as a ``conllu`` source (the parse stage passes
the trees through instead of parsing them), with a tiny demo LM (one epoch; its training set is
capped by demo_lm.max_train_sentences; 128 positions, so trees with Latin letters or more than
40 tokens are left out of the sources: one longer sentence would stop its scoring job) and every
paradigm; parse.sentences_per_shard sets the
number of shards from the corpus size. ``--raw-text`` is the variant for the parse stage: the
same trees' sentences are written one a line and fed as a ``text`` source, so the corpus stage
segments and filters them and the parse stage parses them (slovnet); its results are keyed
``"<N>_raw"`` and its runs live in ``<workdir>/<N>_raw``. ``--pools-only`` stops after the pools (no demo LM,
scoring or curation), for sizes where the whole workflow takes too long.

It runs ``snakemake --cores C`` in ``<workdir>/<N>`` and reads every job's ``benchmark:`` file:
per rule the number of jobs, the summed wall and CPU seconds and the largest peak RSS. A run
directory that already holds results is refused unless ``--fresh`` (delete them first: a clean
run) or ``--reuse`` (keep them and let Snakemake rerun only what it plans, e.g. the rules whose
code changed; ``--rerun-incomplete`` is passed). The table then says per rule how many of its
jobs ran in this invocation (benchmark file written after it started) and which results are
older; rules that ran here without a benchmark file are listed too (from the Snakemake log). It then
runs one in-process pass of every paradigm over the same parsed shards
(rublimp.stages.perturb_stage in a fresh process: what ``python -m rublimp perturb --paradigm
all`` does), for the ratio of the perturb stage's CPU to that pass. Prints a table per size and
the pairs per paradigm per million sentences; ``--json`` writes

    {"<N>": {"rules": {"<rule>": {"max_rss_mb", "cpu_s", "wall_s", "jobs", "jobs_now"}}, "sentences",
             "perturb_cpu_s", "one_pass_cpu_s", "one_pass_max_rss_mb", "wall_s",
             "cpu_s_per_sentence", "pairs_per_million": {"<paradigm>": …},
             "reused": bool, "ran_without_benchmark": {"<rule>": jobs}}}
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
GSD_DIR = Path("/work/shared/data/ud_russian_gsd")
GSD_FILES = ("ru_gsd-ud-dev.conllu", "ru_gsd-ud-test.conllu")
ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
       "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
#: Sentence-initial discourse words for the varied repeats (each followed by a comma).
PREFIXES = ("Впрочем", "Кстати", "Конечно", "Однако", "Например", "Действительно", "Итак", "Наверное",
            "Вероятно", "Возможно", "Безусловно", "Разумеется", "Во-первых", "Во-вторых", "Значит",
            "Следовательно", "Напротив", "Правда", "Собственно", "Очевидно", "Казалось", "Видимо",
            "Естественно", "Пожалуй", "Бесспорно")


def _env() -> dict:
    env = dict(os.environ, **ENV)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


# -- the trees ---------------------------------------------------------------------------------
def demo_trees(workdir: Path) -> Path:
    """The demo corpus parsed once with the package (corpus + parse stages), cached in ``workdir``."""
    out = workdir / "demo_parsed.conllu"
    if not out.exists():
        code = (
            "import sys\nfrom rublimp.stages import corpus_stage, parse_stage\n"
            "w = sys.argv[1]\n"
            "corpus_stage([{'name': 'demo', 'type': 'demo'}], w + '/demo_sentences.parquet', w + '/demo_stats.json',"
            " cache_dir=w + '/demo_cache', seed=0)\n"
            "parse_stage(w + '/demo_sentences.parquet', w + '/demo_parsed.tmp', shard=0, n_shards=1)\n"
        )
        subprocess.run([sys.executable, "-c", code, str(workdir)], check=True, env=_env())
        (workdir / "demo_parsed.tmp").rename(out)
    return out


def _blocks(path: Path):
    """Sentence blocks (lists of lines, comments included) of a CoNLL-U file."""
    block: list[str] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.strip():
                block.append(line)
            elif block:
                yield block
                block = []
    if block:
        yield block


def _shift_id(value: str, by: int) -> str:
    if "-" in value:
        a, b = value.split("-")
        return f"{int(a) + by}-{int(b) + by}"
    if "." in value:
        a, b = value.split(".")
        return f"{int(a) + by}.{b}"
    return str(int(value) + by)


def vary(block: list[str], rep: int, sent_id: str) -> list[str]:
    """Repeat ``rep`` of a tree (``block``) under ``sent_id``: as it is for rep 0, else with
    ``len(prefix words)`` discourse words and commas in front (see the module docstring)."""
    words: list[str] = []
    if rep:
        n = len(PREFIXES)
        words = [PREFIXES[(rep - 1) % n]] if rep <= n else [PREFIXES[(rep - 1) // n % n], PREFIXES[(rep - 1) % n]]
    comments = [l for l in block if l.startswith("#")]
    rows = [l.split("\t") for l in block if not l.startswith("#")]
    text = next((c.split("=", 1)[1].strip() for c in comments if c.startswith("# text")), "")
    root = next((r[0] for r in rows if r[6] == "0"), "1")
    by = 2 * len(words)
    out_rows = []
    for k, w in enumerate(words):
        form = w if k == 0 else w.lower()
        out_rows.append([str(2 * k + 1), form, w.lower(), "ADV", "_", "_", str(int(root) + by), "discourse", "_", "SpaceAfter=No"])
        out_rows.append([str(2 * k + 2), ",", ",", "PUNCT", "_", "_", str(2 * k + 1), "punct", "_", "_"])
    first = True
    for r in rows:
        r = list(r)
        if by:
            r[0] = _shift_id(r[0], by)
            if r[6] not in ("_", "0"):
                r[6] = str(int(r[6]) + by)
            r[8] = "_"  # enhanced dependencies are not shifted: dropped
            if first and "-" not in r[0] and "." not in r[0]:
                if r[3] != "PROPN" and not (len(r[1]) > 1 and r[1].isupper()):
                    r[1] = r[1][:1].lower() + r[1][1:]
                first = False
        out_rows.append(r)
    if words:
        t = text
        if t and not (out_rows[by][3] == "PROPN" or (len(t.split()[0]) > 1 and t.split()[0].isupper())):
            t = t[:1].lower() + t[1:]
        text = ", ".join([words[0]] + [w.lower() for w in words[1:]]) + ", " + t
    keep = [c for c in comments if not c.startswith(("# sent_id", "# text"))]
    return [f"# sent_id = {sent_id}", f"# text = {text}", *keep, *("\t".join(r) for r in out_rows)]


#: Trees left out of the bench corpus: the demo LM has 128 positions and fails on longer sentences
#: (Latin script and long sentences take many of its BPE tokens).
MAX_TREE_TOKENS = 40
LATIN = re.compile("[A-Za-z]")


def usable(block: list[str]) -> bool:
    text = next((l.split("=", 1)[1] for l in block if l.startswith("# text")), "")
    n_tokens = sum(1 for l in block if l and not l.startswith("#") and l.split("\t", 1)[0].isdigit())
    return n_tokens <= MAX_TREE_TOKENS and not LATIN.search(text)


def build_corpus(size: int, sources: list[Path], out: Path) -> int:
    """``size`` sentences: the source trees (those :func:`usable`), then varied repeats of them (see :func:`vary`)."""
    base = [b for src in sources for b in _blocks(src) if usable(b)]
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        for rep in range(math.ceil(size / len(base))):
            for i, block in enumerate(base):
                if n >= size:
                    break
                fh.write("\n".join(vary(block, rep, f"r{rep}-{i}")) + "\n\n")
                n += 1
    return n


# -- the run -----------------------------------------------------------------------------------
def raw_text(corpus: Path, out: Path) -> int:
    """The ``# text`` of every tree of the CoNLL-U ``corpus``, one sentence a line (the raw-text variant)."""
    n = 0
    with open(corpus, encoding="utf-8") as src, open(out, "w", encoding="utf-8") as fh:
        for line in src:
            if line.startswith("# text = "):
                fh.write(line[len("# text = "):].strip() + "\n")
                n += 1
    return n


def bench_config(run_dir: Path, corpus: Path, sentences_per_shard: int) -> Path:
    """The bench's config: ``corpus`` is fed as a ``conllu`` source, or (a ``.txt`` file) as a
    ``text`` source of one sentence a line, which the corpus stage filters and the parse stage parses."""
    if corpus.suffix == ".txt":
        source = {"name": "bench", "type": "text", "path": str(corpus), "layout": "lines", "domain": "mixed"}
    else:
        source = {"name": "bench", "type": "conllu", "path": str(corpus), "domain": "mixed"}
    cfg = {
        "outdir": "results",
        "seed": 0,
        "corpus": {"sources": [source]},
        "parse": {"sentences_per_shard": sentences_per_shard},
        "perturb": {"paradigms": "all"},
        "demo_lm": {"n_layer": 1, "n_embd": 32, "n_head": 2, "vocab_size": 4000, "epochs": 1, "batch_size": 32},
        "models": [{"name": "demo-gpt2", "backend": "hf", "demo": True}],
        "scoring": {"ks": [30, 60], "batch_tokens": 2048},
        "curation": {"k": 30, "n": 1000, "t_max": None},
    }
    path = run_dir / "config.yaml"
    path.write_text(yaml.safe_dump(cfg, allow_unicode=True), encoding="utf-8")
    return path


def read_benchmarks(results: Path, since: float | None = None) -> dict[str, dict]:
    """Per rule (the benchmark file's folder under benchmarks/, or its name): jobs, wall, CPU, peak
    RSS, and ``jobs_now``: the jobs whose benchmark file was written at or after ``since`` (epoch
    seconds; the start of this invocation), the others being results of earlier invocations."""
    rules: dict[str, dict] = {}
    root = results / "benchmarks"
    for tsv in sorted(root.rglob("*.tsv")):
        rel = tsv.relative_to(root)
        rule = rel.parts[0] if len(rel.parts) > 1 else tsv.stem
        with open(tsv, encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh, delimiter="\t"))
        r = rules.setdefault(rule, {"jobs": 0, "jobs_now": 0, "wall_s": 0.0, "cpu_s": 0.0, "max_rss_mb": 0.0})
        for row in rows[-1:]:  # the last repeat (snakemake's benchmark: repeats are not used here)
            r["jobs"] += 1
            r["jobs_now"] += int(since is None or tsv.stat().st_mtime >= since)
            r["wall_s"] += float(row["s"])
            r["cpu_s"] += float(row["cpu_time"]) if row.get("cpu_time", "NA") != "NA" else 0.0
            rss = row.get("max_rss", "NA")
            r["max_rss_mb"] = max(r["max_rss_mb"], float(rss) if rss not in ("NA", "-") else 0.0)
    return {k: {**v, "wall_s": round(v["wall_s"], 2), "cpu_s": round(v["cpu_s"], 2), "max_rss_mb": round(v["max_rss_mb"], 1)}
            for k, v in rules.items()}


#: A job's header line in Snakemake's log ("rule x:", "localrule x:", "checkpoint x:", "localcheckpoint x:").
JOB_LINE = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):$")


def jobs_started(run_dir: Path, since: float) -> dict[str, int]:
    """Jobs per rule that Snakemake started in the invocation that began at ``since``: read from
    its log file (.snakemake/log/, the newest written after ``since``)."""
    logs = [p for p in (run_dir / ".snakemake" / "log").glob("*.snakemake.log") if p.stat().st_mtime >= since]
    counts: dict[str, int] = {}
    if logs:
        for line in max(logs, key=lambda p: p.stat().st_mtime).read_text(encoding="utf-8", errors="replace").splitlines():
            m = JOB_LINE.match(line)
            if m and m.group(1) != "all":
                counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts


ONE_PASS = """
import sys, tempfile
from pathlib import Path
from rublimp.perturb import resolve_paradigms
from rublimp.stages import perturb_stage
shards, verdicts = sys.argv[1].split("\\x1f"), sys.argv[2]
names = resolve_paradigms("all")
out = Path(tempfile.mkdtemp(prefix="one_pass_"))
perturb_stage(shards, names, [out / f"{n}.parquet" for n in names], verdicts=verdicts, pool_cap=350_000,
              pairs_per_sentence=1, seed=0, options={})
"""


def one_pass(results: Path) -> tuple[float, float]:
    """CPU seconds and peak RSS (MB) of one in-process all-paradigm pass over the run's parsed shards."""
    shards = sorted(str(p) for p in (results / "parsed").glob("shard_*.conllu"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-c", ONE_PASS, "\x1f".join(shards), str(results / "agreement" / "verdicts.parquet")],
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, err = proc.communicate()
    if proc.returncode:
        raise RuntimeError(f"the one-pass run failed:\n{err[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return round(cpu, 2), round(after.ru_maxrss / 1024, 1)  # ru_maxrss: largest child so far (KB)


def run_size(size: int, workdir: Path, *, cores: int, targets: list[str], sentences_per_shard: int,
             sources: list[Path], skip_one_pass: bool, raw: bool = False, reuse: bool = False,
             fresh: bool = False) -> dict:
    trees = workdir / str(size) / "corpus.conllu"
    trees.parent.mkdir(parents=True, exist_ok=True)
    if not trees.exists():  # deterministic: kept from an earlier run of this size
        build_corpus(size, sources, trees)
    run_dir = workdir / (f"{size}_raw" if raw else str(size))
    run_dir.mkdir(parents=True, exist_ok=True)
    corpus = trees
    if raw:
        corpus = run_dir / "corpus.txt"
        if not corpus.exists():
            raw_text(trees, corpus)
    if (run_dir / "results").exists() and not reuse:
        if not fresh:
            raise SystemExit(f"bench_scale: {run_dir / 'results'} exists: pass --reuse to rerun only what Snakemake "
                             "plans there, or --fresh to delete it and run from scratch")
        print(f"--fresh: deleting {run_dir / 'results'} and {run_dir / '.snakemake'}", file=sys.stderr)
        shutil.rmtree(run_dir / "results")
        shutil.rmtree(run_dir / ".snakemake", ignore_errors=True)
    cfg = bench_config(run_dir, corpus, sentences_per_shard)
    started = time.time()
    t0 = time.perf_counter()
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(run_dir),
           "--configfile", str(cfg), "--cores", str(cores), *targets, "--quiet", "progress",
           *(["--rerun-incomplete"] if reuse else [])]
    proc = subprocess.run(cmd, env=_env(), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise RuntimeError(f"snakemake failed at size {size}:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}")
    results = run_dir / "results"
    import polars as pl

    sentences = pl.read_parquet(results / "corpus" / "sentences.parquet", columns=["sent_id"]).height
    rules = read_benchmarks(results, since=started)
    started_jobs = jobs_started(run_dir, started)
    pools = {p.stem: pl.read_parquet(p, columns=["id"]).height for p in sorted((results / "pools").glob("*.parquet"))}
    perturb_cpu = sum(rules.get(r, {}).get("cpu_s", 0.0) for r in ("perturb_shard", "perturb"))
    out = {
        "sentences": sentences,
        "wall_s": round(wall, 1),
        "rules": rules,
        "perturb_cpu_s": round(perturb_cpu, 2),
        "cpu_s_per_sentence": round(sum(r["cpu_s"] for r in rules.values()) / max(sentences, 1), 6),
        "pairs_per_million": {p: round(c / max(sentences, 1) * 1e6, 1) for p, c in pools.items()},
        "reused": reuse,
        "ran_without_benchmark": {r: n for r, n in sorted(started_jobs.items()) if r not in rules},
    }
    if not skip_one_pass and (results / "parsed").is_dir():
        out["one_pass_cpu_s"], out["one_pass_max_rss_mb"] = one_pass(results)
    return out


def print_table(size: int, res: dict) -> None:
    n = res["sentences"]
    print(f"\n== {size} requested, {n} sentences in the corpus; workflow wall {res['wall_s']} s"
          f"{' (this invocation, reusing the run directory)' if res.get('reused') else ''} ==")
    print(f"{'rule':24s} {'jobs':>5s} {'ran':>9s} {'wall s':>9s} {'cpu s':>9s} {'peak RSS MB':>12s} {'cpu ms/sent':>12s}")
    for rule, r in sorted(res["rules"].items(), key=lambda kv: -kv[1]["cpu_s"]):
        now = r.get("jobs_now", r["jobs"])
        ran = "now" if now == r["jobs"] else "older" if not now else f"{now} now"
        print(f"{rule:24s} {r['jobs']:5d} {ran:>9s} {r['wall_s']:9.1f} {r['cpu_s']:9.1f} {r['max_rss_mb']:12.1f} "
              f"{r['cpu_s'] / max(n, 1) * 1000:12.3f}")
    for rule, jobs in res.get("ran_without_benchmark", {}).items():
        print(f"{rule:24s} {jobs:5d} {'now':>9s} {'(no benchmark file)':>44s}")
    if any(r.get("jobs_now", r["jobs"]) < r["jobs"] for r in res["rules"].values()):
        print("ran: 'now' = every job ran in this invocation; 'older' = results of an earlier invocation "
              "(benchmark file older than its start); 'k now' = k of the jobs ran now")
    print(f"perturb stage CPU {res['perturb_cpu_s']} s", end="")
    if "one_pass_cpu_s" in res:
        ratio = res["perturb_cpu_s"] / res["one_pass_cpu_s"] if res["one_pass_cpu_s"] else float("nan")
        print(f"; one in-process pass {res['one_pass_cpu_s']} s (peak RSS {res['one_pass_max_rss_mb']} MB): {ratio:.2f}x")
    else:
        print()
    print(f"CPU per sentence (all rules): {res['cpu_s_per_sentence'] * 1000:.3f} ms")
    print("pairs per paradigm per million sentences:")
    for p, v in sorted(res["pairs_per_million"].items()):
        print(f"  {p:45s} {v:12.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000", help="corpus sizes, comma-separated")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--workdir", default=str(REPO / "work" / "bench_scale"))
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--sentences-per-shard", type=int, default=25_000, help="parse.sentences_per_shard")
    ap.add_argument("--targets", default="all", help="snakemake targets (rules or files), comma-separated")
    ap.add_argument("--pools-only", action="store_true",
                    help="targets: the pools (corpus, parse, agreement, perturb stage; no demo LM, scoring, curation)")
    ap.add_argument("--skip-one-pass", action="store_true")
    runs = ap.add_mutually_exclusive_group()
    runs.add_argument("--reuse", action="store_true",
                      help="keep an existing run directory: Snakemake reruns only what it plans (after a code change, "
                           "the changed rules); the table marks which rules ran now and which results are older")
    runs.add_argument("--fresh", action="store_true", help="delete an existing run directory's results first")
    ap.add_argument("--raw-text", action="store_true",
                    help="the raw-text variant: the trees' sentences as a text source (one a line), segmented, "
                         "filtered and parsed by the workflow (slovnet); results under '<N>_raw'")
    args = ap.parse_args()

    workdir = Path(args.workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    sources = [demo_trees(workdir)]
    sources += [GSD_DIR / f for f in GSD_FILES if (GSD_DIR / f).is_file()]
    print("tree sources:", ", ".join(str(s) for s in sources))
    targets = args.targets.split(",")
    if args.pools_only:
        sys.path.insert(0, str(REPO / "src"))
        from rublimp.perturb import resolve_paradigms

        targets = [f"results/pools/{p}.parquet" for p in resolve_paradigms("all")]
    results = {}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        key = f"{size}_raw" if args.raw_text else str(size)
        results[key] = run_size(size, workdir, cores=args.cores, targets=targets,
                                sentences_per_shard=args.sentences_per_shard, sources=sources,
                                skip_one_pass=args.skip_one_pass, raw=args.raw_text, reuse=args.reuse,
                                fresh=args.fresh)
        print_table(size, results[key])
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
