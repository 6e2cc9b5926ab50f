"""The corpus build in bounded memory (rublimp.corpus.build): the dedupe buckets and bit array, and
the same table and counts whatever the batch and bucket sizes."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from rublimp.corpus import build as cb
from rublimp.corpus.build import _Bits, build_sentences_file
from rublimp.corpus.dedupe import RECORD, DigestBuckets, duplicate_pairs


def test_every_occurrence_after_the_first_of_a_digest_is_a_duplicate():
    # digests (a, b) at positions given out of order; (1, 2) occurs at 7, 3 and 9; (1, 3) once; (5, 2) at 4, 8
    rec = np.array([(1, 2, 7), (5, 2, 8), (1, 3, 1), (1, 2, 3), (5, 2, 4), (1, 2, 9)], dtype=RECORD)
    first, later = duplicate_pairs(rec)
    assert sorted(zip(later.tolist(), first.tolist())) == [(7, 3), (8, 4), (9, 3)]
    assert duplicate_pairs(np.empty(0, dtype=RECORD))[1].tolist() == []


def test_digest_buckets_find_duplicates_across_flushes(tmp_path):
    digests = [bytes([i % 5]) + bytes(15) for i in range(23)] + [bytes([7]) * 16]  # 5 digests, 24 records
    with DigestBuckets(tmp_path / "b", n_buckets=3, flush_at=4) as buckets:
        for pos, d in enumerate(digests):
            buckets.add(d, pos)
        pairs = sorted((int(l), int(f)) for first, later in buckets.duplicates() for f, l in zip(first, later))
    assert pairs == [(p, p % 5) for p in range(5, 23)]
    assert not (tmp_path / "b").exists()


def test_the_bit_array_grows_and_reads_back():
    bits = _Bits()
    bits.set(np.array([0, 9, 200_003], dtype=np.int64))
    got = bits.get(np.array([0, 1, 9, 200_003, 200_004, 10**7], dtype=np.int64))
    assert got.tolist() == [True, False, True, True, False, False]


def test_small_batches_and_few_buckets_give_the_same_table(tmp_path, monkeypatch):
    text = tmp_path / "t.txt"
    lines = [f"Мальчик номер {i % 40} читал интересную книгу в саду." for i in range(130)]
    text.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other = tmp_path / "u.txt"  # 10 sentences of t.txt again (duplicates across sources) and 30 new ones
    other.write_text("\n".join(lines[:10] + [f"Девочка номер {i} писала длинное письмо домой." for i in range(30)]) + "\n",
                     encoding="utf-8")
    src = [{"name": "t", "type": "text", "path": str(text), "domain": "fiction"},
           {"name": "u", "type": "text", "path": str(other), "domain": "news"}]
    out = {}
    for batch, buckets in ((50_000, 256), (7, 3)):
        monkeypatch.setattr(cb, "BATCH_ROWS", batch)
        monkeypatch.setattr(cb, "N_BUCKETS", buckets)
        for cap in (None, 25):
            path = tmp_path / f"{batch}_{cap}.parquet"
            stats = build_sentences_file(src, path, cache_dir=tmp_path, max_sentences_per_source=cap, seed=1)
            out[batch, cap] = (pl.read_parquet(path), stats)
    for cap in (None, 25):
        (a, sa), (b, sb) = out[50_000, cap], out[7, cap]
        assert a.equals(b) and sa == sb
        assert sa["sources"]["t"]["duplicates"] == 90 and sa["sources"]["u"]["duplicates"] == 10
    assert out[7, 25][0].filter(pl.col("source") == "t").height == 25
    assert not list(tmp_path.glob(".corpus_spill_*"))  # the spill folder is removed
