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
