"""The score cache per (model settings, sentence) and ``score_stage`` on top of it."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import torch

from rublimp.io import InputError
from rublimp.scoring.cache import HASH, ScoreCache, model_fingerprint, sentence_hash
from rublimp.stages import score_stage
from tests.test_scoring import SENTENCES, _bpe_tokenizer, _random_gpt2

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    tok = _bpe_tokenizer(SENTENCES, 500, ["<|endoftext|>"], bos_token="<|endoftext|>",
                         eos_token="<|endoftext|>", pad_token="<|endoftext|>")
    eot = tok.convert_tokens_to_ids("<|endoftext|>")
    path = tmp_path_factory.mktemp("cache_lm")
    _random_gpt2(len(tok), bos=eot, eos=eot).save_pretrained(path)
    tok.save_pretrained(path)
    return path


def _spec(path, **over):
    spec = {"name": "tiny", "backend": "hf", "path": str(path), "device": "cpu", "dtype": "float32",
            "batch_tokens": 512, "trust_remote_code": False}
    spec.update(over)
    return spec


def _table(path, sentences):
    pl.DataFrame({"source_sentence": sentences}).write_parquet(path)
    return path


def test_second_job_reuses_and_values_are_bit_identical(model_dir, tmp_path):
    cache = tmp_path / "cache"
    first = SENTENCES[:12]
    info1 = score_stage(_table(tmp_path / "a.parquet", first), tmp_path / "a_out.parquet", spec=_spec(model_dir),
                        ks=(30, 60), cache_dir=cache, threads=1)
    assert info1 == {"tables": 1, "sentences": 12, "cascade_dropped": 0, "reused": 0, "scored": 12,
                     "buckets": 1, "dtype": "float32"}
    info2 = score_stage(_table(tmp_path / "b.parquet", SENTENCES), tmp_path / "b_out.parquet", spec=_spec(model_dir),
                        ks=(30, 60), cache_dir=cache, threads=1)
    assert info2["reused"] == 12 and info2["scored"] == len(SENTENCES) - 12
    a, b = pl.read_parquet(tmp_path / "a_out.parquet"), pl.read_parquet(tmp_path / "b_out.parquet")
    assert b["sentence"].to_list() == sorted(SENTENCES)
    assert b.schema["sum_logprob"] == pl.Float64
    shared = b.join(a, on="sentence", suffix="_a")
    for col in ("sum_logprob", "mink_30", "mink_60"):
        assert (shared[col] == shared[f"{col}_a"]).all()  # exact: stored float64, nothing rounded
    # a third job over the same sentences scores nothing and writes the same bytes
    info3 = score_stage(tmp_path / "b.parquet", tmp_path / "c_out.parquet", spec=_spec(model_dir), ks=(30, 60),
                        cache_dir=cache, threads=1)
    assert info3["scored"] == 0
    assert (tmp_path / "c_out.parquet").read_bytes() == (tmp_path / "b_out.parquet").read_bytes()
    assert len(ScoreCache.for_model(cache, "tiny", _spec(model_dir), ks=(30, 60)).parts()) == 2


def test_cached_output_equals_uncached_output(model_dir, tmp_path):
    """Same sentences → same bytes, whether they came from the cache or were scored now."""
    table = _table(tmp_path / "t.parquet", SENTENCES)
    score_stage(table, tmp_path / "cold.parquet", spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "c")
    score_stage(table, tmp_path / "warm.parquet", spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "c")
    score_stage(table, tmp_path / "none.parquet", spec=_spec(model_dir), ks=(30,), cache_dir=None)
    cold = (tmp_path / "cold.parquet").read_bytes()
    assert cold == (tmp_path / "warm.parquet").read_bytes() == (tmp_path / "none.parquet").read_bytes()


def test_fingerprint_separates_settings_and_weights(model_dir, tmp_path):
    base = model_fingerprint(_spec(model_dir), ks=(30, 60))
    assert base == model_fingerprint(_spec(model_dir), ks=(60, 30))
    assert base != model_fingerprint(_spec(model_dir), ks=(30,))
    assert base != model_fingerprint(_spec(model_dir), ks=(30, 60), per_token=True)
    assert base != model_fingerprint(_spec(model_dir, dtype="bfloat16"), ks=(30, 60))
    assert base != model_fingerprint(_spec(model_dir, backend="vllm"), ks=(30, 60))
    assert base != model_fingerprint(_spec("ai-forever/rugpt3small_based_on_gpt2"), ks=(30, 60))
    # a retrained model in the same directory (the demo LMs) gets a new fingerprint
    import shutil

    other = tmp_path / "copy"
    shutil.copytree(model_dir, other)
    same = model_fingerprint(_spec(other), ks=(30, 60))
    weights = other / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF
    weights.write_bytes(bytes(data))
    assert same != model_fingerprint(_spec(other), ks=(30, 60))


def test_lookup_dedupes_parts_and_ignores_unfinished_files(tmp_path):
    cache = ScoreCache(tmp_path / "m" / "fp")
    rows = pl.DataFrame({"sentence": ["а", "б"], "sum_logprob": [-1.0, -2.0], "n_tokens": [1, 2]})
    cache.store(rows)
    cache.store(rows.filter(pl.col("sentence") == "б"))  # a concurrent job scored "б" too
    (cache.directory / ".part-deadbeef.parquet.tmp").write_bytes(b"half-written")
    got = cache.lookup(["б", "а", "в"])
    assert got["sentence"].to_list() == ["а", "б"]
    assert got.columns == ["sentence", "sum_logprob", "n_tokens"]
    assert cache.lookup(["в"]) is None
    assert ScoreCache(tmp_path / "nothing").lookup(["а"]) is None
    assert cache.store(rows.clear()) is None
    stored = pl.concat([pl.read_parquet(p) for p in cache.parts()])
    assert stored.height == 3
    assert stored[HASH].to_list() == [sentence_hash(s) for s in stored["sentence"]]


def test_one_job_scores_many_tables(model_dir, tmp_path, monkeypatch):
    """One model load for every paradigm's pool; per-table files equal what a job per table writes,
    and so do the table's rows of the all-pools table as curation reads them."""
    from rublimp.curation import _load_rows

    import rublimp.scoring as scoring

    loads = []
    real = scoring.scorer_from_spec
    monkeypatch.setattr(scoring, "scorer_from_spec", lambda *a, **kw: loads.append(1) or real(*a, **kw))
    tables = [_table(tmp_path / "p1.parquet", SENTENCES[:7]), _table(tmp_path / "p2.parquet", SENTENCES[4:])]
    info = score_stage(tables, [tmp_path / "o1.parquet", tmp_path / "o2.parquet"], spec=_spec(model_dir),
                       ks=(30,), cache_dir=tmp_path / "c", threads=1)
    assert loads == [1] and info["tables"] == 2 and info["scored"] == len(SENTENCES)
    score_stage(tables, tmp_path / "all.parquet", spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "c")
    assert loads == [1]  # everything cached: the model is not even loaded
    for i, t in enumerate(tables, start=1):
        alone = tmp_path / f"alone{i}.parquet"
        score_stage(t, alone, spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "fresh")
        assert pl.read_parquet(alone).equals(pl.read_parquet(tmp_path / f"o{i}.parquet"))
        rows, _ = _load_rows(tmp_path / "all.parquet", "scores", "mink_30", pl.read_parquet(t)["source_sentence"])
        assert rows.equals(pl.read_parquet(alone).select("sentence", "mink_30"))


def test_score_stage_with_cascade_scores_only_survivors(model_dir, tmp_path):
    tier0 = pl.DataFrame({"sentence": SENTENCES, "mink_30": [-1.0 if i % 2 else -9.0 for i in range(len(SENTENCES))]})
    tier0.write_parquet(tmp_path / "tier0.parquet")
    info = score_stage(_table(tmp_path / "t.parquet", SENTENCES), tmp_path / "out.parquet", spec=_spec(model_dir),
                       ks=(30,), cache_dir=tmp_path / "c",
                       cascade={"k": 30, "t_max": -5.0, "tier0": {"a": tmp_path / "tier0.parquet"}})
    out = pl.read_parquet(tmp_path / "out.parquet")
    expected = sorted(s for i, s in enumerate(SENTENCES) if i % 2 == 0)
    assert out["sentence"].to_list() == expected
    assert info["cascade_dropped"] == len(SENTENCES) - len(expected) and info["scored"] == len(expected)


def test_cascade_with_buckets_reads_each_tier0_table_once(model_dir, tmp_path, monkeypatch):
    """Many buckets: each tier-0 table is split into the same hash buckets once (rublimp.scoring.buckets.
    ScoreBuckets), not scanned again per bucket, and the survivors and scores are those of one bucket."""
    import rublimp.scoring.buckets as buckets

    values = [-1.0 if i % 3 else -9.0 for i in range(len(SENTENCES))]
    pl.DataFrame({"sentence": SENTENCES + ["чужое"], "mink_30": values + [-9.0]}).write_parquet(tmp_path / "t0.parquet")
    kw = dict(spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "c",
              cascade={"k": 30, "t_max": -5.0, "tier0": {"a": tmp_path / "t0.parquet"}})
    table = _table(tmp_path / "t.parquet", SENTENCES)
    one = score_stage(table, tmp_path / "one.parquet", **kw)
    scans: list[int] = []
    real = buckets.rows_for
    monkeypatch.setattr(buckets, "rows_for", lambda *a, **k: scans.append(1) or real(*a, **k))
    many = score_stage(table, tmp_path / "many.parquet", rows_per_bucket=3, **kw)
    assert many["buckets"] > 3 and scans == []
    same = ("tables", "sentences", "cascade_dropped")
    assert [many[k] for k in same] == [one[k] for k in same] and many["reused"] == one["scored"] > 0
    got = pl.read_parquet(tmp_path / "many.parquet").sort("sentence")
    assert got.equals(pl.read_parquet(tmp_path / "one.parquet"))
    assert got["sentence"].to_list() == sorted(s for i, s in enumerate(SENTENCES) if i % 3 == 0)
    assert not list(tmp_path.glob(".score-buckets-*"))


def test_score_buckets_split_a_table_by_sentence_hash(tmp_path):
    from rublimp.scoring.buckets import ScoreBuckets, bucket_of, rows_for

    path = tmp_path / "s.parquet"
    pl.DataFrame({"sentence": SENTENCES + [None], "mink_30": [float(i) for i in range(len(SENTENCES) + 1)],
                  "other": ["x"] * (len(SENTENCES) + 1)}).write_parquet(path)
    with ScoreBuckets(path, ["mink_30"], 3, tmp_path / "w", batch_rows=4) as split:
        for b in range(3):
            mine = [s for s, c in zip(SENTENCES, bucket_of(SENTENCES, 3)) if c == b]
            got = split.rows(b, mine + ["нет такого"]).sort("sentence")
            assert got.equals(rows_for(path, mine, ["mink_30"]).sort("sentence")) and got.columns == ["sentence", "mink_30"]
    assert list((tmp_path / "w").iterdir()) == []
    with pytest.raises(InputError, match="mink_60"):
        with ScoreBuckets(path, ["mink_60"], 2, tmp_path / "w"):
            pass


def test_empty_table_and_missing_column(model_dir, tmp_path):
    empty = _table(tmp_path / "e.parquet", pl.Series([], dtype=pl.String))
    score_stage(empty, tmp_path / "e_out.parquet", spec=_spec(model_dir), ks=(30,), cache_dir=tmp_path / "c")
    out = pl.read_parquet(tmp_path / "e_out.parquet")
    assert out.height == 0 and "mink_30" in out.columns
    with pytest.raises(InputError, match="no column 'target_sentence'"):
        score_stage(empty, tmp_path / "x.parquet", spec=_spec(model_dir), columns=["target_sentence"])
    assert not (tmp_path / "x.parquet").exists()


def test_mlm_spec_is_cached_separately(tmp_path):
    fp_hf = model_fingerprint({"backend": "hf", "path": "x/y"}, ks=(30,))
    fp_mlm = model_fingerprint({"backend": "hf-mlm", "path": "x/y"}, ks=(30,))
    assert fp_hf != fp_mlm
    assert np.all([len(fp_hf) == 16, len(fp_mlm) == 16])


def test_buckets_score_the_same_rows_with_one_model_load(model_dir, tmp_path, monkeypatch):
    """Many hash buckets (bounded memory): the same rows and values as one bucket, the model loaded once,
    the pairs too long for a model left out in every bucket, and the same bytes on a rerun."""
    import rublimp.scoring as scoring
    from rublimp.pool_exclusions import TOO_LONG_SCHEMA

    loads = []
    real = scoring.scorer_from_spec
    monkeypatch.setattr(scoring, "scorer_from_spec", lambda *a, **kw: loads.append(1) or real(*a, **kw))
    tables = []
    for i, part in enumerate((SENTENCES[:9], SENTENCES[5:], SENTENCES[::2])):
        tables.append(tmp_path / f"p{i}.parquet")
        pl.DataFrame({"PID": [f"P{i}"] * len(part), "id": [str(j) for j in range(len(part))],
                      "source_sentence": part}).write_parquet(tables[-1])
    # pairs P0/1 (SENTENCES[1], in no other pair) and P1/0 (SENTENCES[5], also pair P0/5) leave
    too_long = tmp_path / "ctx.parquet"
    pl.DataFrame([{"PID": "P1", "id": "0", "column": "source_sentence", "positions": 99, "limit": 9, "model": "m"},
                  {"PID": "P0", "id": "1", "column": "source_sentence", "positions": 99, "limit": 9, "model": "m"}],
                 schema=TOO_LONG_SCHEMA).write_parquet(too_long)
    kw = dict(spec=_spec(model_dir), ks=(30,), threads=1, exclude=[too_long])
    one = score_stage(tables, tmp_path / "one.parquet", **kw)
    many = score_stage(tables, tmp_path / "many.parquet", rows_per_bucket=4, **kw)
    assert loads == [1, 1] and one["buckets"] == 1 and many["buckets"] > 3
    a, b = pl.read_parquet(tmp_path / "one.parquet"), pl.read_parquet(tmp_path / "many.parquet")
    assert a["sentence"].to_list() == sorted(set(SENTENCES) - {SENTENCES[1]})
    assert b.sort("sentence").equals(a) and one["sentences"] == many["sentences"] == a.height
    again = score_stage(tables, tmp_path / "again.parquet", rows_per_bucket=4, **kw)
    assert again == many
    assert (tmp_path / "again.parquet").read_bytes() == (tmp_path / "many.parquet").read_bytes()
    assert not list(tmp_path.glob(".sentence-buckets-*"))  # the spilled buckets are removed


def test_sentence_buckets_are_stable_and_partition_the_union(tmp_path):
    from rublimp.scoring.buckets import SentenceBuckets, bucket_count, bucket_of

    t1, t2 = _table(tmp_path / "a.parquet", SENTENCES[:10]), _table(tmp_path / "b.parquet", SENTENCES[3:] + [None])
    assert bucket_count([t1, t2], 5) == -(-(10 + len(SENTENCES) - 3 + 1) // 5) and bucket_count([t1, t2]) == 1
    assert bucket_of(SENTENCES, 7) == bucket_of(SENTENCES, 7) and set(bucket_of(SENTENCES, 7)) <= set(range(7))
    assert bucket_of(["а"], 1 << 30) == [int(sentence_hash("а")[:16], 16) % (1 << 30)]  # sha1's first 8 bytes
    with SentenceBuckets([t1, t2], ["source_sentence"], 4, tmp_path / "w", batch_rows=3) as buckets:
        got = [buckets.sentences(b) for b in range(4)]
        assert buckets.rows == 10 + len(SENTENCES) - 3 + 1
    assert all(s == sorted(s) for s in got)
    assert sorted(s for part in got for s in part) == sorted(set(SENTENCES))
    for b, part in enumerate(got):
        assert bucket_of(part, 4) == [b] * len(part)
    assert list((tmp_path / "w").iterdir()) == []
    with pytest.raises(InputError, match="no column 'target_sentence'"):
        with SentenceBuckets([t1], ["target_sentence"], 2, tmp_path / "w"):
            pass


def test_parts_of_other_buckets_are_not_read(model_dir, tmp_path, monkeypatch):
    """A part stored for hash bucket b of n is skipped by the lookups of the other buckets of n (it cannot hold
    their sentences); untagged parts and parts of another n are read by every lookup."""
    from rublimp.scoring.buckets import bucket_of

    cache = ScoreCache(tmp_path / "m" / "fp")
    rows = pl.DataFrame({"sentence": ["а", "б", "в"], "sum_logprob": [-1.0, -2.0, -3.0]})
    by_bucket = dict(zip(rows["sentence"], bucket_of(rows["sentence"].to_list(), 3)))
    for b in range(3):
        cache.store(rows.filter(pl.col("sentence").replace_strict(by_bucket, default=-1) == b), (3, b))
    plain = cache.store(rows.head(1))
    other_n = cache.store(rows.tail(1), (5, 0))
    for s, b in by_bucket.items():
        seen = cache.parts((3, b))
        assert plain in seen and other_n in seen and all(f"-3x{c}-" not in p.name for c in range(3) if c != b
                                                         for p in seen)
        assert cache.lookup([s], (3, b))["sentence"].to_list() == [s]
    stored = 3 - sum(b not in by_bucket.values() for b in range(3))  # (an empty bucket stores no part)
    assert len(cache.parts()) == stored + 2  # no partition: every part
    # score_stage: a rerun with buckets reads, per bucket, only that bucket's parts, and reuses every score
    tables = [tmp_path / "p.parquet"]
    pl.DataFrame({"PID": ["P"] * len(SENTENCES), "id": [str(i) for i in range(len(SENTENCES))],
                  "source_sentence": SENTENCES}).write_parquet(tables[0])
    kw = dict(spec=_spec(model_dir), ks=(30,), threads=1, cache_dir=tmp_path / "c", rows_per_bucket=3)
    first = score_stage(tables, tmp_path / "a.parquet", **kw)
    read: list[int] = []
    real = ScoreCache.parts
    monkeypatch.setattr(ScoreCache, "parts", lambda self, partition=None: read.append(len(real(self, partition)))
                        or real(self, partition))
    second = score_stage(tables, tmp_path / "b.parquet", **kw)
    assert second["reused"] == first["scored"] == first["sentences"] and second["scored"] == 0
    assert max(read) == 1 and len(read) == first["buckets"]  # one part per bucket, not all of them
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
