"""One function per pipeline stage, on plain paths and parameters.

The Snakemake rule scripts (``scripts/*.py``) and the command line
(``python -m rublimp …``) both call these, so a stage behaves the same
whichever way it is run.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import polars as pl

from .io import InputError, write_json_atomic, write_parquet_atomic

log = logging.getLogger("rublimp")

__all__ = [
    "corpus_stage",
    "parse_stage",
    "shard_plan_stage",
    "agreement_stage",
    "perturb_stage",
    "perturb_shard_stage",
    "pool_stage",
    "train_demo_lm_stage",
    "demo_lm_check_stage",
    "score_stage",
    "curate_stage",
    "evaluate_stage",
    "report_stage",
    "export_stage",
    "context_stage",
]


# -- corpus -------------------------------------------------------------------
def corpus_stage(
    sources: Sequence[Mapping[str, Any]],
    out_parquet: str | os.PathLike,
    out_stats: str | os.PathLike,
    *,
    cache_dir: str | os.PathLike,
    min_tokens: int = 6,
    max_tokens: int = 50,
    max_sentences: int | None = None,
    seed: int = 0,
    max_bad_share: float = 0.01,
) -> int:
    """Sources -> ``out_parquet`` (the sentence table) and ``out_stats`` (its counts), in bounded
    memory (rublimp.corpus.build). Returns the number of sentences."""
    from .corpus.build import build_sentences_file

    stats = build_sentences_file(
        [dict(s) for s in sources],
        out_parquet,
        cache_dir=Path(cache_dir),
        min_tokens=min_tokens,
        max_tokens=max_tokens,
        max_sentences_per_source=max_sentences,
        seed=seed,
        max_bad_share=max_bad_share,
    )
    write_json_atomic(out_stats, stats)
    log.info("corpus: %d sentences", stats["total"]["kept"])
    return stats["total"]["kept"]


# -- parse --------------------------------------------------------------------
def shard_rows(parquet: str | os.PathLike, shard: int, n_shards: int, columns: Sequence[str],
               *, chunk_rows: int = 50_000) -> pl.DataFrame:
    """Rows ``shard``, ``shard + n_shards``, … of a Parquet table, read ``chunk_rows`` at a time.

    Memory follows the shard and one chunk, not the table: each slice decodes only the row groups
    it overlaps, and the shard's rows are copied out of it (a polars gather of strings keeps the
    whole chunk's buffers alive, so the copy is what lets the chunk go)."""
    n = pl.scan_parquet(parquet).select(pl.len()).collect().item()
    parts = []
    for start in range(0, n, chunk_rows):
        chunk = pl.scan_parquet(parquet).slice(start, chunk_rows).select(list(columns)).collect()
        first = (shard - start) % n_shards
        if first < chunk.height:
            rows = chunk.gather_every(n_shards, offset=first)
            parts.append(pl.DataFrame(rows.to_dict(as_series=False), schema=rows.schema))
        del chunk
    if not parts:
        return pl.DataFrame(schema=pl.scan_parquet(parquet).select(list(columns)).collect_schema())
    return pl.concat(parts)


def parse_stage(
    sentences_parquet: str | os.PathLike,
    out_conllu: str | os.PathLike,
    *,
    shard: int,
    n_shards: int,
    backend: str = "slovnet",
    batch_size: int = 64,
    sources: Sequence[Mapping[str, Any]] = (),
    backend_opts: Mapping[str, Any] | None = None,
    max_chars: int | None = None,
    max_tokens: int | None = None,
    conllu_index: str | os.PathLike | None = None,
) -> int:
    """Parse shard ``shard`` of ``n_shards`` (every n-th sentence) into one CoNLL-U file.

    Sentences from ``conllu`` sources are already parsed: their trees are passed
    through unchanged instead of being re-parsed. Sentences over ``max_chars``
    characters or ``max_tokens`` tokens (``None``: the parse module's defaults)
    are skipped and logged.

    Streams: only the shard's rows of the sentence table are read (by row group),
    and trees are written as they are parsed or found, so memory does not grow
    with the corpus. A CoNLL-U source is read once in file order, which is the
    sentence table's order; a tree out of that order costs one more read of the
    source (counted in the log). With ``conllu_index`` (rublimp.parse.passthrough.build_index,
    written by the shard plan) each tree is read at its offset instead, so a shard does not scan
    the whole source; a tree the index lacks or that is not at its offset is found by the scan.
    """
    from .conllu_doc import write_conllu
    from .parse import DEFAULT_MAX_CHARS, DEFAULT_MAX_TOKENS, SkipReport, parse_texts

    part = shard_rows(sentences_parquet, shard, n_shards, ("sent_id", "text", "domain", "source"))
    conllu_sources = {s["name"]: s for s in sources if s.get("type") == "conllu"}
    is_given = part["source"].is_in(list(conllu_sources)).to_list()
    to_parse = part.filter(~pl.col("source").is_in(list(conllu_sources)))
    items = zip(to_parse["sent_id"], to_parse["text"], to_parse["domain"])
    skipped = SkipReport()
    parsed = parse_texts(
        items, backend=backend, batch_size=batch_size, progress=True, total=to_parse.height,
        max_chars=DEFAULT_MAX_CHARS if max_chars is None else max_chars,
        max_tokens=DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens,
        skipped=skipped, **dict(backend_opts or {}),
    )
    given = _ConlluLookup(conllu_sources)
    counts = {"parsed": 0, "given": 0, "indexed": 0}
    offsets = None
    if conllu_index is not None and conllu_sources:
        import numpy as np

        offsets = np.array(np.load(conllu_index, mmap_mode="r")[shard::n_shards])
        if len(offsets) != part.height:
            raise InputError(f"{conllu_index}: {len(offsets)} rows for shard {shard} of {n_shards}, the sentence table "
                             f"has {part.height}: the index is not of this sentence table")
    handles: dict[str, Any] = {}

    def indexed(k: int, src: str, sid: str):
        if offsets is None or offsets[k, 0] < 0:
            return None
        from .parse.passthrough import read_tree

        path = str(conllu_sources[src]["path"])
        if src not in handles:
            handles[src] = open(path, "rb")
        try:
            s = read_tree(handles[src], path, int(offsets[k, 0]), int(offsets[k, 1]))
        except (InputError, UnicodeDecodeError):
            return None
        if _conllu_sent_id(src, s.sent_id) != sid:
            return None
        s.sent_id = sid
        s.domain = s.domain or conllu_sources[src].get("domain", "")
        counts["indexed"] += 1
        return s

    def ordered():
        pending = next(parsed, None)
        for k, (sid, src, from_conllu) in enumerate(zip(part["sent_id"], part["source"], is_given)):
            if from_conllu:
                s = indexed(k, src, sid) or given.get(src, sid)
                if s is not None:
                    counts["given"] += 1
                    yield s
            elif pending is not None and pending.sent_id == sid:  # else it was skipped
                counts["parsed"] += 1
                yield pending
                pending = next(parsed, None)

    try:
        n = write_conllu(ordered(), out_conllu)
    finally:
        for fh in handles.values():
            fh.close()
    log.info("parse: shard %d of %d: %d parsed, %d passed through from CoNLL-U sources (%d read at their indexed "
             "offset), %s", shard, n_shards, counts["parsed"], counts["given"], counts["indexed"], skipped.summary())
    if given.rescans or given.missing:
        log.info("parse: shard %d: %d CoNLL-U trees out of file order (one more read each), %d not found in their source",
                 shard, given.rescans, given.missing)
    return n


class _ConlluLookup:
    """The trees of CoNLL-U sources by sentence-table id, read in file order without holding them.

    Blocks are matched on their ``# sent_id`` comment and only the wanted ones are parsed, so a
    parse job's pass over a source costs a line scan, not a parse of every tree.
    """

    def __init__(self, sources: Mapping[str, Mapping[str, Any]]):
        self.sources = sources
        self._iters: dict[str, Any] = {}
        self.rescans = 0
        self.missing = 0

    def _blocks(self, name: str):
        from .conllu_doc import iter_sentence_blocks

        path = str(self.sources[name]["path"])
        for raw, block, start in iter_sentence_blocks(path):
            yield raw, block, start, path

    def _scan(self, name: str, sid: str, it) -> Any:
        from .conllu_doc import parse_block
        from .io import InputError

        for raw, block, start, path in it:
            if raw is not None and _conllu_sent_id(name, raw) != sid:
                continue
            try:
                s = parse_block(block, start, path)
            except InputError:  # a malformed tree: the corpus stage skipped and counted it
                continue
            if _conllu_sent_id(name, s.sent_id) == sid:
                s.sent_id = sid
                s.domain = s.domain or self.sources[name].get("domain", "")
                return s
        return None

    def get(self, name: str, sid: str):
        if name not in self._iters:
            self._iters[name] = self._blocks(name)
        s = self._scan(name, sid, self._iters[name])
        if s is None:  # not ahead in the file: read it again from the start
            self.rescans += 1
            self._iters[name] = self._blocks(name)
            s = self._scan(name, sid, self._iters[name])
            if s is None:
                self.missing += 1
                self._iters[name] = self._blocks(name)
        return s


def shard_plan_stage(
    sentences_parquet: str | os.PathLike, out_json: str | os.PathLike, *, sentences_per_shard: int,
    sources: Sequence[Mapping[str, Any]] = (), conllu_index: str | os.PathLike | None = None,
) -> dict:
    """``{"sentences": n, "shards": ceil(n / sentences_per_shard) (at least 1)}`` for the sentence
    table (its row count read from the Parquet metadata), written to ``out_json``. With
    ``conllu_index``, also the offsets of the trees of the ``conllu`` ``sources`` in their files
    (:func:`rublimp.parse.passthrough.build_index`), which the parse jobs read their trees by."""
    n = pl.scan_parquet(sentences_parquet).select(pl.len()).collect().item()
    plan = {"sentences": int(n), "sentences_per_shard": int(sentences_per_shard),
            "shards": max(1, -(-int(n) // int(sentences_per_shard)))}
    if conllu_index is not None:
        from .parse.passthrough import build_index

        found = build_index(sentences_parquet, {s["name"]: s for s in sources if s.get("type") == "conllu"}, conllu_index)
        for name, k in found.items():
            log.info("shard plan: CoNLL-U source %s: %d trees indexed by offset", name, k)
    write_json_atomic(out_json, plan)
    log.info("shard plan: %d sentences, %d per shard: %d shards", n, sentences_per_shard, plan["shards"])
    return plan


def _conllu_sent_id(source_name: str, sent_id: str) -> str:
    from .corpus import conllu_sent_id

    return conllu_sent_id(source_name, sent_id)


# -- agreement ----------------------------------------------------------------
def _read_shards(paths: Iterable[str | os.PathLike]):
    from .conllu_doc import read_conllu

    for p in paths:
        yield from read_conllu(p)


def agreement_stage(
    shards: Sequence[str | os.PathLike],
    out_parquet: str | os.PathLike,
    out_csv: str | os.PathLike,
    *,
    min_conf: float = 0.5,
    p0: float = 0.9,
    alpha: float = 0.1,
) -> pl.DataFrame:
    from .agreement_validation import validate_agreement, write_agreement_table

    df = validate_agreement(_read_shards(shards), min_conf=min_conf, p0=p0, alpha=alpha)
    write_agreement_table(df, out_parquet, out_csv)
    return df


# -- perturb ------------------------------------------------------------------
def perturb_stage(
    shards: Sequence[str | os.PathLike],
    paradigms: Sequence[str],
    out_paths: Sequence[str | os.PathLike],
    *,
    verdicts: str | os.PathLike | None = None,
    pool_cap: int = 350_000,
    pairs_per_sentence: int = 1,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    from .paradigms import ParadigmContext
    from .perturb import build_pools

    agreement = None
    if verdicts is not None:
        from .agreement_validation import load_verdicts

        agreement = load_verdicts(verdicts)
    ctx = ParadigmContext(seed=seed, agreement=agreement, options=dict(options or {}))
    pools = build_pools(
        _read_shards(shards), paradigms, ctx=ctx, cap=pool_cap, seed=seed, pairs_per_sentence=pairs_per_sentence
    )
    counts = {}
    for name, out in zip(paradigms, out_paths):
        write_parquet_atomic(pools[name], out)
        counts[name] = pools[name].height
        log.info("perturb: %s: %d pairs", name, pools[name].height)
    for line in ctx.self_check_stats.lines():  # rejections per paradigm and reason
        log.info("perturb: %s", line)
    return counts


def perturb_shard_stage(
    shard: str | os.PathLike,
    paradigms: Mapping[str, Mapping[str, Any]],
    cache_dir: str | os.PathLike,
    manifest: str | os.PathLike,
    *,
    verdicts: str | os.PathLike | None = None,
    pool_cap: int = 350_000,
    pairs_per_sentence: int = 1,
    seed: int = 0,
) -> dict:
    """Every paradigm's partial pool of one shard, in one pass over its trees (:func:`rublimp.pools.perturb_shard`).

    ``paradigms`` maps each name to its inputs (``code``, ``resources``, ``option_files``,
    ``options``: rublimp.workflow.WorkflowConfig.paradigm_inputs); cached partial pools are reused,
    and the cache folders of paradigms not in ``paradigms`` are deleted (counted in the log).
    """
    from .pools import ParadigmInputs, perturb_shard, prune_paradigms

    specs = [ParadigmInputs.from_mapping(n, v) for n, v in paradigms.items()]
    info = perturb_shard(shard, specs, cache_dir, verdicts=verdicts, seed=seed,
                         pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap, manifest=manifest)
    n, size = prune_paradigms(cache_dir, list(paradigms))
    if n:
        log.info("perturb_shard: pruned %d cached partial pool(s) of paradigms no longer configured (%.1f MB)", n, size / 1e6)
    return info


def pool_stage(
    shards: Sequence[str | os.PathLike],
    paradigm: str,
    inputs: Mapping[str, Any],
    cache_dir: str | os.PathLike,
    out_parquet: str | os.PathLike,
    *,
    verdicts: str | os.PathLike | None = None,
    pool_cap: int = 350_000,
    pairs_per_sentence: int = 1,
    seed: int = 0,
) -> dict:
    """One paradigm's pool from its cached partial pools of every shard (:func:`rublimp.pools.merge_pool`)."""
    from .pools import ParadigmInputs, merge_pool

    return merge_pool(ParadigmInputs.from_mapping(paradigm, inputs), shards, cache_dir, out_parquet,
                      verdicts=verdicts, seed=seed, pairs_per_sentence=pairs_per_sentence, pool_cap=pool_cap)


# -- demo LM ------------------------------------------------------------------
def train_demo_lm_stage(
    sentences_parquet: str | os.PathLike,
    out_dir: str | os.PathLike,
    *,
    lm: Mapping[str, Any],
    seed: int = 0,
    backend: str = "hf",
    threads: int | None = None,
) -> dict:
    """Train the demo model of a config entry with ``demo: true``.

    ``backend="hf"`` trains the causal demo LM (:func:`rublimp.demo_lm.train_demo_lm`),
    ``backend="hf-mlm"`` the masked one (:func:`rublimp.demo_mlm.train_demo_mlm`);
    ``lm`` is the config's ``demo_lm`` section, whose ``mlm`` mapping overrides
    settings for the masked LM. ``threads``: torch's threads while training (None: as set
    by the environment, ``OMP_NUM_THREADS``). Its ``n_positions`` (null: sized to the corpus) decides
    the model's positions: by default every sentence of the corpus, held-out half
    included, fits (:func:`rublimp.demo_lm.fit_positions`), so the model can score every
    pool sentence the corpus filter admits.
    """
    from .demo_lm import demo_texts, table_texts, train_demo_lm

    if pl.scan_parquet(sentences_parquet).select(pl.len()).collect().item() == 0:
        raise InputError("no sentences to train the demo LM on", sentences_parquet)
    opts = dict(lm)
    mlm_opts = dict(opts.pop("mlm", None) or {})
    fraction = opts.pop("train_fraction", 0.5)
    max_train = opts.pop("max_train_sentences", None)
    # the corpus is read a record batch at a time: memory holds the capped training set, not the corpus
    texts, _ = demo_texts(sentences_parquet, fraction=fraction, max_sentences=max_train, seed=seed)
    log.info("demo LM: %d training sentences (demo_lm.max_train_sentences: %s)", len(texts), max_train)
    opts["num_threads"] = threads
    opts.setdefault("n_positions", None)
    opts["room_for"] = table_texts(sentences_parquet)  # every corpus sentence fits (streamed through the tokenizer)
    if backend == "hf":
        return train_demo_lm(texts, Path(out_dir), seed=seed, **opts)
    if backend == "hf-mlm":
        from .demo_mlm import train_demo_mlm

        opts.pop("epochs", None)  # the masked LM needs more epochs: its own default unless demo_lm.mlm sets it
        return train_demo_mlm(texts, Path(out_dir), seed=seed, **{**opts, **mlm_opts})
    raise InputError(f"demo models exist for backends 'hf' and 'hf-mlm', not {backend!r} (config key models[].backend)")


def demo_lm_check_stage(
    sentences_parquet: str | os.PathLike,
    models: Sequence[Mapping[str, Any]],
    out_json: str | os.PathLike,
    *,
    lm: Mapping[str, Any],
    ks: Sequence[int] = (30, 40, 50, 60),
    seed: int = 0,
    threads: int | None = None,
) -> dict:
    """Min-K% AUROC of each demo model's training sentences vs held-out ones: detection must work.

    Works for the causal (``hf``) and the masked (``hf-mlm``, pseudo-log-likelihood) demo models.
    """
    from .demo_lm import demo_sets
    from .scoring import mink_auroc, scorer_from_spec

    df = pl.read_parquet(sentences_parquet, columns=["text"])
    train, held = demo_sets(df, fraction=lm.get("train_fraction", 0.5), max_sentences=lm.get("max_train_sentences"),
                            seed=seed)
    train_texts = train["text"].to_list()
    n = min(len(train_texts), held.height, 1000)
    train_texts, held_texts = train_texts[:n], held["text"].to_list()[:n]
    report: dict[str, Any] = {"n_train": len(train_texts), "n_heldout": len(held_texts), "models": {}}
    for spec in models:
        scorer = scorer_from_spec(spec, num_threads=threads)
        s_train = scorer.score(train_texts, ks=ks, progress=False)
        s_held = scorer.score(held_texts, ks=ks, progress=False)
        per_k = {}
        for k in ks:
            per_k[f"mink_{k}"] = round(mink_auroc(s_train[f"mink_{k}"].to_numpy(), s_held[f"mink_{k}"].to_numpy()), 4)
        per_k["mean_logprob_per_token"] = round(
            mink_auroc(
                (s_train["sum_logprob"] / s_train["n_tokens"]).to_numpy(),
                (s_held["sum_logprob"] / s_held["n_tokens"]).to_numpy(),
            ),
            4,
        )
        thresholds = {
            f"mink_{k}": _separating_threshold(s_train[f"mink_{k}"].to_numpy(), s_held[f"mink_{k}"].to_numpy())
            for k in ks
        }
        report["models"][spec["name"]] = {
            "backend": spec["backend"],
            "auroc": per_k,
            "detection_works": per_k[f"mink_{ks[0]}"] > 0.6,
            # the Min-K% value that best separates seen from unseen sentences (Youden's J):
            # a calibrated choice for curation.t_max with this model
            "separating_threshold": thresholds,
        }
        if not report["models"][spec["name"]]["detection_works"]:
            log.warning(
                "demo LM check: Min-K%% does NOT detect %s's training sentences (AUROC %s for mink_%s, needs > 0.6): "
                "a benchmark curated with this model is not decontaminated (curation records decontaminated: false)",
                spec["name"], per_k[f"mink_{ks[0]}"], ks[0])
    write_json_atomic(out_json, report)
    return report


def _separating_threshold(seen, unseen) -> dict[str, float]:
    """The t maximising P(unseen <= t) - P(seen <= t), with both rates at that t."""
    import numpy as np

    seen, unseen = np.sort(np.asarray(seen, float)), np.sort(np.asarray(unseen, float))
    cands = np.unique(np.concatenate([seen, unseen]))
    kept_unseen = np.searchsorted(unseen, cands, side="right") / max(len(unseen), 1)
    kept_seen = np.searchsorted(seen, cands, side="right") / max(len(seen), 1)
    i = int(np.argmax(kept_unseen - kept_seen))
    return {
        "t": round(float(cands[i]), 4),
        "unseen_kept": round(float(kept_unseen[i]), 4),
        "seen_kept": round(float(kept_seen[i]), 4),
    }


# -- scoring ------------------------------------------------------------------
def _empty_scores(ks: Sequence[int]) -> pl.DataFrame:
    schema = {"sentence": pl.String, "sum_logprob": pl.Float64, "n_tokens": pl.Int64}
    schema.update({f"mink_{int(k)}": pl.Float64 for k in ks})
    schema["first_token"] = pl.String
    return pl.DataFrame(schema=schema)


def _table_sentences(table: str | os.PathLike, columns: Sequence[str], drop: pl.DataFrame | None = None) -> list[str]:
    """The distinct sentences of ``columns``; ``drop`` (``PID``, ``id``) removes those pairs' rows first."""
    have = list(pl.read_parquet_schema(table))
    for c in columns:
        if c not in have:
            raise InputError(f"table has no column {c!r} to score (columns: {', '.join(have)})", table)
    keys = ["PID", "id"] if drop is not None and drop.height and {"PID", "id"} <= set(have) else []
    df = pl.read_parquet(table, columns=list(dict.fromkeys([*columns, *keys])))
    if keys:
        df = df.with_columns(pl.col("id").cast(pl.String)).join(drop.select(keys), on=keys, how="anti")
    return sorted({s for c in columns for s in df[c].drop_nulls().to_list()})


def context_stage(
    pools: Mapping[str, str | os.PathLike], spec: Mapping[str, Any], out_parquet: str | os.PathLike
) -> dict[str, int]:
    """The pool pairs with a sentence longer than the model ``spec`` takes (``context/<model>.parquet``).

    Reads only the model's tokenizer and config (:mod:`rublimp.scoring.context`), so it runs,
    and a tokenizer that cannot score fails, before any scoring job.  Returns, per paradigm,
    the number of such pairs (each is counted in the log).
    """
    from .scoring.context import model_context, too_long_pairs

    ctx = model_context(spec)
    # one pool in memory at a time (the too-long pairs of all of them are few)
    parts = [too_long_pairs({p: pl.read_parquet(path, columns=["id", "source_sentence", "target_sentence"])}, ctx)
             for p, path in sorted(pools.items())]
    df = pl.concat(parts, how="vertical").sort("PID", "id", "column") if parts else too_long_pairs({}, ctx)
    write_parquet_atomic(df, out_parquet)
    counts = {p: 0 for p in sorted(pools)}
    for (pid,), g in df.group_by(["PID"], maintain_order=True):
        counts[pid] = g["id"].n_unique()
        longest = g.sort("positions", descending=True).row(0, named=True)
        log.warning("context %s: paradigm %s: %d pair(s) have a sentence longer than the model's %d positions "
                    "(longest %d, pair %s): they leave the pool for every model", spec["name"], pid, counts[pid],
                    ctx.limit, longest["positions"], longest["id"])
    log.info("context %s: limit %s positions; %d pair(s) in %d paradigm(s) do not fit", spec["name"], ctx.limit,
             sum(counts.values()), len(pools))
    return counts


def _score_sentences(
    sentences: list[str],
    *,
    cache: Any,
    scorer: Any,
    ks: Sequence[int],
    per_token: bool,
    partition: tuple[int, int] | None = None,
) -> tuple[pl.DataFrame, int]:
    """Scores of ``sentences`` (sorted, distinct) from the ``cache`` (a ScoreCache or None) and, for the others,
    the model; and how many the model scored.  ``scorer()`` gives the model's scorer: it is called (and the
    model loaded) only when something is missing from the cache."""
    cached = cache.lookup(sentences, partition) if cache is not None else None
    have = set(cached["sentence"].to_list()) if cached is not None else set()
    missing = [s for s in sentences if s not in have]
    del have
    frames = [] if cached is None else [cached]
    if missing:
        new = scorer().score(missing, ks=ks, per_token=per_token)
        if cache is not None:
            cache.store(new, partition)
        frames.append(new)
    if frames:
        cols = frames[-1].columns
        out = pl.concat([f.select(cols) for f in frames], how="vertical").sort("sentence")
    else:  # an empty pool (or nothing survived the cascade): an empty table with the scores schema
        out = _empty_scores(ks)
    return out, len(missing)


def score_stage(
    table: str | os.PathLike | Sequence[str | os.PathLike],
    out_parquet: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    spec: Mapping[str, Any],
    columns: Sequence[str] | str = "source_sentence",
    ks: Sequence[int] = (30, 40, 50, 60),
    per_token: bool = False,
    cache_dir: str | os.PathLike | None = None,
    threads: int | None = None,
    cascade: Mapping[str, Any] | None = None,
    exclude: Sequence[str | os.PathLike] = (),
    rows_per_bucket: int | None = None,
) -> dict:
    """Score the unique sentences in ``columns`` of one or more tables with the model ``spec``; write them sorted.

    ``exclude``: the :func:`context_stage` tables of every model: the pairs listed there
    (too long for some model) are left out, so no model scores them.

    The model is loaded once for all tables (one scoring job per model, not per paradigm).
    ``table`` is one path or a list; ``out_parquet`` is one path (all the tables' sentences in
    one scores table) or a list with one path per table (each table's own sentences).

    ``cache_dir`` is the root of the score cache (:class:`rublimp.scoring.cache.ScoreCache`,
    ``<cache_dir>/<model>/<fingerprint>/part-*.parquet``): sentences scored before with
    the same model and settings are read from it, only the others are scored, and
    those are added to it.  ``cascade`` (``{"k", "t_max", "tier0": {model: scores path}}``)
    restricts the sentences to the cascade survivors (:func:`rublimp.cascade.survivors`).

    With one output the memory does not follow the tables' size: their sentences are spilled to
    hash buckets on disk (:class:`rublimp.scoring.buckets.SentenceBuckets`, one bucket per
    ``rows_per_bucket`` table rows, default :data:`rublimp.scoring.buckets.ROWS_PER_BUCKET`) and
    scored, looked up in the cache and the tier-0 tables one bucket at a time.  The table is sorted
    by sentence within each bucket, buckets in order (with one bucket: sorted by sentence).
    Returns counts: sentences, dropped by the cascade, reused from the cache, scored, buckets.
    """
    if isinstance(columns, str):
        columns = [columns]
    tables = [table] if isinstance(table, (str, os.PathLike)) else list(table)
    outs = [out_parquet] if isinstance(out_parquet, (str, os.PathLike)) else list(out_parquet)
    if len(outs) not in (1, len(tables)):
        raise ValueError(f"{len(outs)} output paths for {len(tables)} tables: give one, or one per table")
    drop = None
    if exclude:
        from .pool_exclusions import too_long_ids

        drop = too_long_ids(exclude)
    from .scoring.cache import ScoreCache

    model = str(spec.get("name") or Path(str(spec["path"])).name)
    cache = ScoreCache.for_model(cache_dir, model, spec, ks=ks, per_token=per_token) if cache_dir else None
    loaded: list[Any] = []

    def scorer() -> Any:  # the model is loaded once, at the first sentence missing from the cache
        if not loaded:
            from .scoring import scorer_from_spec

            loaded.append(scorer_from_spec(spec, num_threads=threads))
        return loaded[0]

    counts = {"sentences": 0, "survivors": 0, "scored": 0}
    tier0_buckets: dict[str, Any] = {}  # with many buckets: each tier-0 table split into the same buckets, once

    def score(sentences: list[str], partition: tuple[int, int] | None = None) -> pl.DataFrame:
        counts["sentences"] += len(sentences)
        if cascade is not None:
            from .cascade import survivors
            from .scoring.buckets import rows_for

            column = f"mink_{int(cascade['k'])}"
            if partition is not None and tier0_buckets:
                tier0 = {m: tier0_buckets[m].rows(partition[1], sentences) for m in cascade["tier0"]}
            else:
                tier0 = {m: rows_for(t, sentences, [column]) for m, t in cascade["tier0"].items()}
            sentences, _ = survivors(sentences, tier0, k=int(cascade["k"]), t_max=float(cascade["t_max"]))
        counts["survivors"] += len(sentences)
        scores, n_scored = _score_sentences(sentences, cache=cache, scorer=scorer, ks=ks, per_token=per_token,
                                            partition=partition)
        counts["scored"] += n_scored
        return scores

    n_buckets = 0
    if len(outs) == 1:
        # one output: the union of the tables' sentences, one hash bucket at a time (rublimp.scoring.buckets)
        from contextlib import ExitStack

        from .io import atomic_path
        from .runtime import release_memory
        from .scoring.buckets import BATCH_ROWS, ScoreBuckets, SentenceBuckets, bucket_count

        n_buckets = bucket_count(tables) if rows_per_bucket is None else bucket_count(tables, rows_per_bucket)
        work = Path(outs[0]).parent
        with SentenceBuckets(tables, columns, n_buckets, work, drop=drop) as buckets, ExitStack() as stack:
            if n_buckets == 1:
                write_parquet_atomic(score(buckets.sentences(0)), outs[0], row_group_size=BATCH_ROWS)
            else:
                for m, t in (cascade or {}).get("tier0", {}).items():
                    tier0_buckets[m] = stack.enter_context(
                        ScoreBuckets(t, [f"mink_{int(cascade['k'])}"], n_buckets, work))  # type: ignore[index]
                parts = []
                for b in range(n_buckets):
                    parts.append(buckets.directory / f"scores-{b:05d}.parquet")
                    # the cache parts of this bucket are tagged with it, so no later bucket reads them
                    write_parquet_atomic(score(buckets.sentences(b), (n_buckets, b)), parts[-1])
                    release_memory()  # the model's buffers of this bucket's shapes (rublimp.runtime)
                with atomic_path(outs[0]) as tmp:
                    pl.scan_parquet(parts).sink_parquet(tmp, compression="zstd", statistics=False,
                                                        row_group_size=BATCH_ROWS)
    else:  # one output per table (score_benchmark: tables of benchmark size)
        per_table = [_table_sentences(t, columns, drop) for t in tables]
        scores = score(sorted({s for sents in per_table for s in sents}))
        for sents, out in zip(per_table, outs):
            write_parquet_atomic(scores.join(pl.DataFrame({"sentence": sents}, schema={"sentence": pl.String}),
                                             on="sentence", how="semi"), out)
    from .scoring.dtypes import resolve_dtype

    info = {"tables": len(tables), "sentences": counts["sentences"],
            "cascade_dropped": counts["sentences"] - counts["survivors"],
            "reused": counts["survivors"] - counts["scored"], "scored": counts["scored"], "buckets": n_buckets,
            # what `dtype: auto` became on this machine (it is part of the score cache's key)
            "dtype": resolve_dtype(spec.get("dtype"), spec.get("device") or "cpu", backend=str(spec["backend"]))}
    log.info("score %s: %s", model, info)
    return info


# -- curation -----------------------------------------------------------------
def curate_stage(
    pool: str | os.PathLike,
    scores: Mapping[str, str | os.PathLike],
    out_csv: str | os.PathLike,
    out_parquet: str | os.PathLike,
    out_report: str | os.PathLike,
    *,
    k: int = 30,
    n: int = 1000,
    seed: int = 0,
    length_bins: Sequence[int] = (6, 10, 15, 20, 30, 51),
    grid_step: float | None = None,
    t_max: float | None = None,
    cascaded: Sequence[str] = (),
    drop_invalid: str | os.PathLike | None = None,
    detection_check: str | os.PathLike | None = None,
    too_long: Sequence[str | os.PathLike] = (),
) -> dict:
    """``drop_invalid``: the ``drop.csv`` of the validation import; its pairs are replaced (``curation.drop_invalid``).

    ``detection_check``: the demo-LM check (``eval/demo_lm_check.json``); the report records
    whether the benchmark is decontaminated (:func:`rublimp.curation.decontamination_status`:
    fields ``decontaminated``, ``decontamination_reason``, ``decontamination_check``) and a
    failed check is logged as a warning.

    ``too_long``: the :func:`context_stage` tables of every model; the pool's pairs listed
    there leave the pool before the curation, counted per paradigm in the report entry
    (``too_long``, with a note in ``message``) and in the log.
    """
    from .curation import decontamination_status
    from .curation_files import curate_file
    from .io import write_csv_atomic
    from .runtime import fixed_mmap_threshold

    fixed_mmap_threshold()  # the per-pair arrays below are returned to the system when freed

    # the threshold search and the sampling hold a few numbers per pair, never its text, and read the
    # pool and the scores tables a slice at a time (rublimp.curation_files: memory follows the pool's row
    # count at ~40 bytes a pair, not the corpus); full rows are read only for the pairs selected
    drop_ids = None
    if too_long:
        from .pool_exclusions import too_long_ids

        drop_ids = too_long_ids(too_long)
    drop = None
    if drop_invalid:
        from .validation import read_drop_list

        drop = read_drop_list(drop_invalid)
    bench, report, excluded = curate_file(
        pool, {m: str(p) for m, p in scores.items()}, k=k, n=n, seed=seed, length_bins=tuple(length_bins),
        grid_step=grid_step, t_max=t_max, cascaded=tuple(cascaded), drop_invalid=drop, exclude=drop_ids,
    )
    gone = {pid: (count, ", ".join(sorted(models))) for pid, (count, models) in excluded.items()}
    for pid, (count, models) in gone.items():
        log.warning("curate: paradigm %s: %d pair(s) left out: a sentence is longer than the context of "
                    "model(s) %s", pid, count, models)
    if too_long:
        entries = report.setdefault("paradigms", [])
        for pid in sorted(set(gone) - {str(e.get("paradigm")) for e in entries}):  # every pair was too long
            entries.append({"paradigm": pid, "pool": 0, "scored": 0, "threshold": None, "survivors": 0,
                            "selected": 0, "short_pool": True, "message": ""})
        entries.sort(key=lambda e: str(e.get("paradigm")))
        for entry in entries:
            n, models = gone.get(str(entry.get("paradigm")), (0, ""))
            entry["too_long"] = n
            if n:
                note = (f"{n} pair(s) left out before scoring: a sentence is longer than the context of "
                        f"model(s) {models}")
                entry["message"] = f"{entry['message']}; {note}" if entry.get("message") else note
    check = json.loads(Path(detection_check).read_text(encoding="utf-8")) if detection_check else None
    report.update(decontamination_status(report["models"], check,
                                         source=str(detection_check) if detection_check else "eval/demo_lm_check.json"))
    if not report["decontaminated"]:
        log.warning("curate: the benchmark is NOT decontaminated: %s", report["decontamination_reason"])
    write_parquet_atomic(bench, out_parquet)
    write_csv_atomic(bench, out_csv)
    write_json_atomic(out_report, report)
    return report


# -- evaluation ---------------------------------------------------------------
def evaluate_stage(
    benchmark: str | os.PathLike | Sequence[str | os.PathLike],
    scores: str | os.PathLike | Sequence[str | os.PathLike],
    out_parquet: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    model: str,
) -> pl.DataFrame | list[pl.DataFrame]:
    """Per-pair results of ``model``: one benchmark, its scores and output path, or lists of them
    (one job per model evaluates every paradigm)."""
    from .evaluation import evaluate

    if isinstance(benchmark, (str, os.PathLike)):
        df = evaluate(pl.read_parquet(benchmark), pl.read_parquet(scores), model=model)
        write_parquet_atomic(df, out_parquet)
        return df
    if not len(benchmark) == len(scores) == len(out_parquet):
        raise ValueError("one scores file and one output path per benchmark")
    out = []
    for b, s, o in zip(benchmark, scores, out_parquet):
        df = evaluate(pl.read_parquet(b), pl.read_parquet(s), model=model)
        write_parquet_atomic(df, o)
        out.append(df)
    return out


def report_stage(pair_files: Sequence[str | os.PathLike], curation_files: Sequence[str | os.PathLike], out_dir: str | os.PathLike, *, alpha: float = 0.05, sections: Sequence[str | os.PathLike] = ()) -> None:
    from .report import write_report

    frames = [pl.read_parquet(p) for p in pair_files]
    pairs = pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()
    curation = [json.loads(Path(p).read_text(encoding="utf-8")) for p in curation_files]
    extra = [Path(p).read_text(encoding="utf-8") for p in sections]
    write_report(pairs, curation, Path(out_dir), alpha=alpha, extra_sections=extra)


# -- export -------------------------------------------------------------------
def export_stage(
    benchmarks: Mapping[str, str | os.PathLike],
    curation: Mapping[str, str | os.PathLike],
    hf_dir: str | os.PathLike,
    lm_eval_dir: str | os.PathLike,
    *,
    config: Mapping[str, Any] | None = None,
    data_ref: str | None = None,
    validation: str | os.PathLike | None = None,
    agreement: str | os.PathLike | None = None,
    demo_check: str | os.PathLike | None = None,
):
    """The Hugging Face dataset folder and the lm-evaluation-harness tasks (:mod:`rublimp.export`)."""
    from .export import BuildInfo, export_benchmark

    info = BuildInfo.from_config(config or {})
    return export_benchmark(benchmarks, hf_dir, lm_eval_dir, info=info, curation=curation, data_ref=data_ref,
                            validation=validation, agreement=agreement, demo_check=demo_check)
