"""Pools built shard by shard (rublimp.pools): the same pool whatever the sharding, a uniform sample
when the cap binds, and a cache that recomputes only the paradigms whose inputs changed."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
import pytest

from rublimp.conllu_doc import write_conllu
from rublimp.perturb import POOL_SCHEMA, build_pools, cap_pool
from rublimp.pools import ParadigmInputs, key_threshold, prune_paradigms, partial_schema, merge_partials, merge_pool, perturb_shard

NAMES = ("tense_marker", "np_agreement_number", "anaphor_agreement_number")


def _bytes(df: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", statistics=False)
    return buf.getvalue()


@pytest.fixture(scope="module")
def sents(demo_sentences):
    return demo_sentences[:700]


def _shards(sents, tmp: Path, n: int, *, reverse: bool = False) -> list[Path]:
    """``n`` shards of ``sents`` (every n-th sentence), listed in reverse order if asked."""
    paths = []
    for i in range(n):
        p = tmp / f"shard_{i}.conllu"
        write_conllu(sents[i::n], p)
        paths.append(p)
    return paths[::-1] if reverse else paths


def _pools_from_shards(shards, cache: Path, out_dir: Path, *, cap: int, batch_size: int) -> dict[str, pl.DataFrame]:
    specs = [ParadigmInputs(n) for n in NAMES]
    for s in shards:
        perturb_shard(s, specs, cache, pool_cap=cap, batch_size=batch_size)
    out = {}
    for spec in specs:
        path = out_dir / f"{spec.name}.parquet"
        info = merge_pool(spec, shards, cache, path, pool_cap=cap)
        assert info["computed"] == 0 and info["reused"] == len(shards)  # the shard passes filled the cache
        out[spec.name] = pl.read_parquet(path)
    return out


@pytest.mark.parametrize("n_shards,reverse,batch_size", [(1, False, 20_000), (3, True, 50), (5, False, 97)])
def test_shard_pools_equal_one_pass_whatever_the_sharding(sents, tmp_path, n_shards, reverse, batch_size):
    whole = build_pools(sents, list(NAMES), progress=False)
    sizes = {n: whole[n].height for n in NAMES}
    assert all(sizes.values()), sizes  # every paradigm finds pairs in the sample
    cap = max(2, min(sizes.values()) // 2)  # binds for every paradigm
    capped = build_pools(sents, list(NAMES), cap=cap, progress=False)
    shards = _shards(sents, tmp_path, n_shards, reverse=reverse)
    for c, want in ((350_000, whole), (cap, capped)):
        out = tmp_path / f"out_{c}"
        out.mkdir()
        got = _pools_from_shards(shards, tmp_path / "cache", out, cap=c, batch_size=batch_size)
        for n in NAMES:
            assert got[n].height == min(sizes[n], c)
            assert _bytes(got[n]) == _bytes(want[n]), n


def test_cache_recomputes_only_the_paradigm_whose_inputs_changed(sents, tmp_path):
    shard = _shards(sents[:150], tmp_path, 1)[0]
    cache = tmp_path / "cache"
    specs = [ParadigmInputs(n) for n in NAMES]
    first = perturb_shard(shard, specs, cache, manifest=tmp_path / "m.json")
    assert (first["reused"], first["computed"]) == (0, 3)
    again = perturb_shard(shard, specs, cache)
    assert (again["reused"], again["computed"]) == (3, 0) and again["keys"] == first["keys"]
    # a new word list (its content) for one paradigm changes only that paradigm's key
    words = tmp_path / "markers.tsv"
    words.write_text("вчера\tPast\n", encoding="utf-8")
    edited = [ParadigmInputs(NAMES[0], resources=(str(words),))] + specs[1:]
    third = perturb_shard(shard, edited, cache)
    assert (third["reused"], third["computed"]) == (2, 1)
    assert third["keys"][NAMES[0]] != first["keys"][NAMES[0]]
    # so do its options and the seed of everything
    assert perturb_shard(shard, [ParadigmInputs(NAMES[0], options={"x": 1})] + specs[1:], cache)["computed"] == 1
    assert perturb_shard(shard, specs, cache, seed=1)["computed"] == 3


def test_a_missing_partial_pool_is_computed_by_the_merge(sents, tmp_path):
    shards = _shards(sents[:200], tmp_path, 2)
    spec = ParadigmInputs(NAMES[0])
    info = merge_pool(spec, shards, tmp_path / "cache", tmp_path / "pool.parquet")
    assert info["computed"] == 2
    want = build_pools(sents[:200], [NAMES[0]], progress=False)[NAMES[0]]
    assert _bytes(pl.read_parquet(tmp_path / "pool.parquet")) == _bytes(want)
    # another option value: two new partial pools; the merge deletes the two it no longer reads
    again = merge_pool(ParadigmInputs(NAMES[0], options={"x": 1}), shards, tmp_path / "cache", tmp_path / "pool.parquet")
    assert (again["computed"], again["pruned"]) == (2, 2)
    assert len(list((tmp_path / "cache" / NAMES[0]).glob("*.parquet"))) == 2
    # a paradigm dropped from the config: its cache folder goes, a running shard pass's spill folder stays
    spill = tmp_path / "cache" / "perturb_shard_x1"
    spill.mkdir()
    (spill / f"{NAMES[0]}.0.parquet").write_bytes(b"")
    assert prune_paradigms(tmp_path / "cache", [NAMES[1]])[0] == 2
    assert not (tmp_path / "cache" / NAMES[0]).exists() and (spill / f"{NAMES[0]}.0.parquet").exists()


def _synthetic_pool(ids) -> pl.DataFrame:
    rows = {k: [None] * len(ids) for k in POOL_SCHEMA}
    rows["id"] = list(ids)
    return pl.DataFrame(rows, schema=POOL_SCHEMA)


def test_a_binding_cap_samples_the_corpus_uniformly():
    # 20,000 rows in corpus order; a cap of 2,000 keeps about 10% of each part of the corpus
    ids = [f"p:s{i:05d}:0" for i in range(20_000)]
    kept = cap_pool(_synthetic_pool(ids), 2_000, seed=0)
    assert kept.height == 2_000
    pos = pl.Series([int(x[3:8]) for x in kept["id"]])
    for lo in range(0, 20_000, 5_000):  # four quarters: about 500 each (binomial sd about 21)
        assert 400 <= int(((pos >= lo) & (pos < lo + 5_000)).sum()) <= 600
    # another seed keeps another sample, of the same size
    other = cap_pool(_synthetic_pool(ids), 2_000, seed=1)
    assert other.height == 2_000 and set(other["id"]) != set(kept["id"])


def test_merging_partial_pools_keeps_the_same_rows_whatever_the_grouping(tmp_path):
    ids = [f"p:s{i:05d}:0" for i in range(3_000)]
    want = cap_pool(_synthetic_pool(ids), 500, seed=3)
    for n_parts in (1, 4, 7):
        paths = []
        for j in range(n_parts):
            part = cap_pool(_synthetic_pool(ids[j::n_parts][::-1]), 500, seed=3, keep_key=True)
            assert part.schema == pl.Schema(partial_schema())
            p = tmp_path / f"{n_parts}_{j}.parquet"
            part.write_parquet(p)
            paths.append(p)
        assert merge_partials(paths[::-1], 500).equals(want)
        assert _bytes(merge_partials(paths, 500)) == _bytes(want)


def test_the_cutoff_key_is_found_from_the_keys_one_partial_pool_at_a_time(tmp_path):
    # 7 partial pools of about 430 rows each against caps of 40 (the running set of keys is cut
    # several times), 2,999 (binds by one row) and 3,000 (does not bind)
    ids = [f"p:s{i:05d}:0" for i in range(3_000)]
    paths = []
    for j in range(7):
        p = tmp_path / f"{j}.parquet"
        cap_pool(_synthetic_pool(ids[j::7]), 0, seed=5, keep_key=True).write_parquet(p)
        paths.append(p)
    keys = pl.concat([pl.read_parquet(p, columns=["_k"])["_k"] for p in paths]).sort()
    assert key_threshold(paths, 40) == keys[39]
    assert key_threshold(paths, 2_999) == keys[2_998]
    assert key_threshold(paths, 3_000) is None and key_threshold(paths, 0) is None
    assert merge_partials(paths, 40)["id"].to_list() == sorted(cap_pool(_synthetic_pool(ids), 40, seed=5)["id"])


# -- the streaming merge of the rule `perturb` (rublimp.pool_merge) ---------------------------------
def _interleaved_partials(tmp: Path, ids, n_parts: int, seed: int) -> list[Path]:
    """Partial pools of ``ids`` dealt round-robin (as shards deal sentences), each sorted by id."""
    paths = []
    for j in range(n_parts):
        p = tmp / f"part_{j}.parquet"
        df = cap_pool(_synthetic_pool(ids[j::n_parts]), 0, seed=seed, keep_key=True)
        df.with_columns(pl.col("id").alias("source_sentence")).write_parquet(p)
        paths.append(p)
    return paths


@pytest.mark.parametrize("cap", [0, 1, 777, 2_999, 3_000, 5_000])
def test_the_streaming_merge_writes_the_rows_and_order_of_the_in_memory_merge(tmp_path, cap):
    from rublimp.pool_merge import merge_partials_to

    ids = [f"p:s{i:05d}:{i % 3}" for i in range(3_000)]
    paths = _interleaved_partials(tmp_path, ids, 7, seed=11)
    want = merge_partials(paths, cap)
    assert want.height == (min(cap, 3_000) if cap else 3_000)
    digests = set()
    # one run without a spill, and many small runs merged batch by batch: same rows, same bytes
    for run_rows, kept in ((10**9, False), (100, False), (37, True)):
        out = tmp_path / f"pool_{run_rows}_{kept}.parquet"
        n = merge_partials_to(paths, cap, out, keep_key=kept, run_rows=run_rows, row_group_rows=64)
        got = pl.read_parquet(out)
        assert n == got.height == want.height
        assert got.drop("_k" if kept else []).equals(want)
        if kept:
            assert got["_k"].to_list() == sample_key_of(got["id"], 11)
        else:
            digests.add(out.read_bytes())
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # spill and temp files gone
    assert len(digests) == 1
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(tmp_path / "pool_100_False.parquet").metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert all(s == 64 for s in sizes[:-1]) and 0 < sizes[-1] <= 64


def sample_key_of(ids, seed):
    from rublimp.perturb import sample_key

    return sample_key(ids, seed).to_list()


def test_the_streaming_merge_keeps_exactly_cap_rows_when_rows_tie_at_the_cutoff(tmp_path):
    # the same id in three partial pools shares its sampling key; a cap that cuts through the tie
    # keeps the tied rows of the earliest partial pools in the order given
    from rublimp.perturb import sample_key
    from rublimp.pool_merge import cutoff, merge_partials_to

    ids = [f"p:s{i:05d}:0" for i in range(200)]
    keys = sample_key(ids, 2)
    dup = ids[int(keys.arg_sort()[50])]  # the 51st smallest key
    paths = []
    for j in range(3):
        rows = ids[j::3] + ([dup] if dup not in ids[j::3] else [])
        df = cap_pool(_synthetic_pool(rows), 0, seed=2, keep_key=True)
        df = df.with_columns(pl.lit(f"part{j}").alias("domain"))
        p = tmp_path / f"{j}.parquet"
        df.write_parquet(p)
        paths.append(p)
    key, below, total = cutoff(paths, 52)
    assert key == keys.sort()[50] and below == 50 and total == 202  # 3 rows share the 51st key; 2 of them are kept
    for run_rows in (10**9, 20):
        out = tmp_path / f"pool_{run_rows}.parquet"
        assert merge_partials_to(paths, 52, out, run_rows=run_rows, row_group_rows=16) == 52
        got = pl.read_parquet(out)
        assert got["id"].to_list() == sorted(got["id"].to_list())
        assert got.filter(pl.col("id") == dup)["domain"].to_list() == ["part0", "part1"]
        assert got.filter(pl.col("id") != dup)["id"].to_list() == sorted(ids[int(i)] for i in keys.arg_sort()[:50])


def test_the_streaming_merge_of_nothing_writes_an_empty_pool_with_the_pool_columns(tmp_path):
    from rublimp.pool_merge import merge_partials_to

    empty = tmp_path / "empty_part.parquet"
    pl.DataFrame(schema=partial_schema()).write_parquet(empty)
    for paths in ([], [empty, empty]):
        out = tmp_path / "pool.parquet"
        assert merge_partials_to(paths, 10, out) == 0
        got = pl.read_parquet(out)
        assert got.height == 0 and got.schema == pl.Schema(POOL_SCHEMA)
    with pytest.raises(ValueError, match="run_rows"):
        merge_partials_to([], 10, tmp_path / "x.parquet", run_rows=0)


def test_the_rule_merge_writes_the_pool_of_the_in_memory_merge(sents, tmp_path):
    from rublimp.pool_merge import merge_pool as merge_pool_streaming

    shards = _shards(sents, tmp_path, 3)
    spec = ParadigmInputs(NAMES[0])
    cache = tmp_path / "cache"
    ref = merge_pool(spec, shards, cache, tmp_path / "ref.parquet", pool_cap=25, prune=False)
    got = merge_pool_streaming(spec, shards, cache, tmp_path / "pool.parquet", pool_cap=25, run_rows=7, row_group_rows=5)
    assert got == {**ref, "reused": 3, "computed": 0}
    assert pl.read_parquet(tmp_path / "pool.parquet").equals(pl.read_parquet(tmp_path / "ref.parquet"))


@pytest.mark.parametrize("digits", [1, 2, 16])
def test_the_cutoff_from_key_prefixes_is_the_exact_key_when_prefixes_tie(tmp_path, monkeypatch, digits):
    # with 1 or 2 hex digits, thousands of keys share the cut-off's prefix: the second pass over
    # the full keys must still find the exact pool_cap-th key
    import rublimp.pool_merge as pm

    monkeypatch.setattr(pm, "PREFIX_CHARS", digits)
    ids = [f"p:s{i:05d}:0" for i in range(3_000)]
    paths = _interleaved_partials(tmp_path, ids, 5, seed=4)
    keys = pl.concat([pl.read_parquet(p, columns=["_k"])["_k"] for p in paths]).sort()
    for cap in (1, 40, 1_234, 2_999):
        assert pm.cutoff(paths, cap) == (keys[cap - 1], cap - 1, 3_000)
    assert pm.cutoff(paths, 3_000) == (None, 0, 3_000) and pm.cutoff(paths, 0) == (None, 0, 3_000)
    out = tmp_path / "pool.parquet"
    assert pm.merge_partials_to(paths, 1_234, out, run_rows=300) == 1_234
    assert pl.read_parquet(out).equals(merge_partials(paths, 1_234))
