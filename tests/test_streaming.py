"""Streaming stages: a parse job reads only its shard's rows and passes CoNLL-U trees through in
one read of the source, whatever the table's order."""

from __future__ import annotations

import logging

import polars as pl
import pytest

from rublimp.conllu_doc import read_conllu, sentence_to_conllu, write_conllu
from rublimp.stages import parse_stage, shard_rows

from trees import tree


def _gold(n: int):
    return [tree([("Кошка", "кошка", "NOUN", "Case=Nom", 2, "nsubj"), ("спит", "спать", "VERB", "", 0, "root"),
                  (str(i), str(i), "NUM", "", 2, "obl"), (".", ".", "PUNCT", "", 2, "punct")], sent_id=f"g{i}")
            for i in range(n)]


def test_parse_shards_pass_conllu_trees_through_in_table_order(tmp_path, caplog):
    gold = _gold(9)
    write_conllu(gold, tmp_path / "gold.conllu")
    sources = [{"name": "gold", "type": "conllu", "path": str(tmp_path / "gold.conllu"), "domain": "wiki"},
               {"name": "raw", "type": "text", "path": "unused", "domain": "news"}]
    # table rows: gold trees in file order with raw sentences between them, then g8 (row 15) and
    # g7 (row 18): in shard 0 of 3 both, out of file order
    ids, texts, srcs = [], [], []
    for i in range(7):
        ids += [f"gold:g{i}", f"raw-0-{i}"]
        texts += [gold[i].text, f"Собака лает {i} раз."]
        srcs += ["gold", "raw"]
    ids += ["raw-1-0", "gold:g8", "raw-1-1", "raw-1-2", "gold:g7"]
    texts += ["Птица поёт утром.", gold[8].text, "Птица поёт днём.", "Птица поёт вечером.", gold[7].text]
    srcs += ["raw", "gold", "raw", "raw", "gold"]
    table = pl.DataFrame({"sent_id": ids, "text": texts, "domain": ["x"] * len(ids), "source": srcs})
    table.write_parquet(tmp_path / "s.parquet", row_group_size=3)
    got = []
    with caplog.at_level(logging.INFO, logger="rublimp"):
        for shard in range(3):
            out = tmp_path / f"shard_{shard}.conllu"
            n = parse_stage(tmp_path / "s.parquet", out, shard=shard, n_shards=3, sources=sources)
            sents = list(read_conllu(out))
            assert n == len(sents)
            assert [s.sent_id for s in sents] == ids[shard::3]  # every third row, in table order
            got += sents
    by_id = {s.sent_id: s for s in got}
    for g in gold:
        s = by_id[f"gold:{g.sent_id}"]
        assert s.domain == "wiki"
        rows = [[l for l in sentence_to_conllu(x).splitlines() if not l.startswith("#")] for x in (s, g)]
        assert rows[0] == rows[1] and s.text == g.text  # the same tree
    assert all(by_id[f"raw-0-{i}"].text == f"Собака лает {i} раз." for i in range(7))
    assert "shard 0: 1 CoNLL-U trees out of file order (one more read each), 0 not found" in caplog.text


def test_shard_plan_follows_the_corpus_size(tmp_path):
    import json

    from rublimp.stages import shard_plan_stage

    for n, per, want in ((0, 10, 1), (10, 10, 1), (11, 10, 2), (25_001, 5_000, 6)):
        path = tmp_path / f"s{n}.parquet"
        pl.DataFrame({"sent_id": [f"s{i}" for i in range(n)]}, schema={"sent_id": pl.String}).write_parquet(path)
        plan = shard_plan_stage(path, tmp_path / "plan.json", sentences_per_shard=per)
        assert plan == {"sentences": n, "sentences_per_shard": per, "shards": want}
        assert json.loads((tmp_path / "plan.json").read_text(encoding="utf-8")) == plan


def test_parse_shards_read_conllu_trees_at_their_indexed_offset(tmp_path, caplog):
    from rublimp.parse.passthrough import build_index

    gold = _gold(9)
    write_conllu(gold, tmp_path / "g.conllu")
    # a block of comments only and extra blank lines between trees do not count as trees
    text = (tmp_path / "g.conllu").read_text(encoding="utf-8")
    (tmp_path / "gold.conllu").write_text("# newdoc id = d1\n\n" + text.replace("\n\n", "\n\n\n", 2), encoding="utf-8")
    sources = [{"name": "gold", "type": "conllu", "path": str(tmp_path / "gold.conllu"), "domain": "wiki"}]
    ids = [f"gold:g{i}" for i in (0, 1, 2, 4, 5, 6, 8, 7)]  # g3 left out by the corpus, g7 after g8
    pl.DataFrame({"sent_id": ids, "text": ["x"] * 8, "domain": ["x"] * 8, "source": ["gold"] * 8}).write_parquet(
        tmp_path / "s.parquet")
    found = build_index(tmp_path / "s.parquet", {"gold": sources[0]}, tmp_path / "index.npy")
    assert found == {"gold": 7}  # g7 comes after g8 in the table: looked up by a scan instead
    for shard in range(3):
        plain, fast = tmp_path / f"plain_{shard}.conllu", tmp_path / f"fast_{shard}.conllu"
        parse_stage(tmp_path / "s.parquet", plain, shard=shard, n_shards=3, sources=sources)
        with caplog.at_level(logging.INFO, logger="rublimp"):
            parse_stage(tmp_path / "s.parquet", fast, shard=shard, n_shards=3, sources=sources,
                        conllu_index=tmp_path / "index.npy")
        assert fast.read_bytes() == plain.read_bytes()
    assert "3 passed through from CoNLL-U sources (3 read at their indexed offset)" in caplog.text
    assert "3 passed through from CoNLL-U sources (2 read at their indexed offset)" in caplog.text  # g7 scanned


@pytest.mark.parametrize("n_shards", [1, 3, 7])
def test_shard_rows_reads_every_nth_row_chunk_by_chunk(tmp_path, n_shards):
    # rublimp.stages.shard_rows: the same rows as the whole-table filter, whatever the chunk and
    # row-group sizes (chunks that do not line up with the shard stride included)
    path = tmp_path / "t.parquet"
    table = pl.DataFrame({"sent_id": [f"s{i}" for i in range(1234)], "text": [f"текст {i}" for i in range(1234)]})
    table.write_parquet(path, row_group_size=100)
    for shard in range(n_shards):
        got = shard_rows(path, shard, n_shards, ("sent_id", "text"), chunk_rows=101)
        want = table.with_row_index("_r").filter(pl.col("_r") % n_shards == shard).drop("_r")
        assert got.equals(want)
    assert shard_rows(path, 0, 2000, ("sent_id",), chunk_rows=101)["sent_id"].to_list() == ["s0"]
