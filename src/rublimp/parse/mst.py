"""Maximum spanning arborescence (Chu–Liu/Edmonds) with exactly one root dependent.

A graph-based parser scores every (dependent, head) pair; picking each head by
argmax independently can produce cycles or several tokens attached to ROOT.
:func:`mst_heads` turns such a score matrix into the highest-scoring valid
dependency tree.

Why hand-written: networkx's ``maximum_spanning_arborescence`` (used in the
tests as an independent check) needs a Python graph object per sentence and
has no single-root option; no well-kept small library decodes a numpy score
matrix into a single-root tree. The algorithm is short, so it lives here,
tested against brute force over all trees and against networkx.

Single root: the unconstrained maximum tree is computed first; only when it
has several ROOT arcs is it recomputed with the root-penalty trick: every ROOT
arc is lowered by a constant ``M`` larger than the score range of any tree, so
a tree with k ROOT arcs loses ``k·M`` and the best arborescence uses exactly one
ROOT arc (always possible) while ranking the one-root trees exactly as the raw
scores do. Ties go to the lowest index (numpy ``argmax``), so results are
deterministic.
"""

from __future__ import annotations

import numpy as np

from ..conllu_doc import dependency_cycle

__all__ = ["mst_heads", "is_valid_tree", "tree_score"]


def is_valid_tree(heads: np.ndarray | list[int]) -> bool:
    """True when ``heads`` (1-based heads of tokens 1..n, 0 = ROOT) form one tree with one root."""
    heads = [int(h) for h in heads]
    n = len(heads)
    if n == 0:
        return True
    if sum(1 for h in heads if h == 0) != 1:
        return False
    if any(h < 0 or h > n for h in heads):
        return False
    return dependency_cycle(heads) is None


def tree_score(scores: np.ndarray, heads: np.ndarray | list[int]) -> float:
    """Sum of ``scores[i, heads[i]]`` (rows = dependents 1..n, columns = heads 0..n)."""
    heads = np.asarray(heads, dtype=np.int64)
    return float(scores[np.arange(len(heads)), heads].sum())


def _find_cycles(heads: np.ndarray) -> list[list[int]]:
    """All cycles of the head graph (node 0 is ROOT, ``heads[0] = -1``)."""
    m = len(heads)
    state = [0] * m  # 0 unseen, 1 on the current path, 2 done
    state[0] = 2
    cycles = []
    for start in range(1, m):
        path = []
        node = start
        while state[node] == 0:
            state[node] = 1
            path.append(node)
            node = int(heads[node])
        if state[node] == 1:
            cycles.append(path[path.index(node):])
        for p in path:
            state[p] = 2
    return cycles


def _chu_liu_edmonds(scores: np.ndarray) -> np.ndarray:
    """Maximum arborescence rooted at node 0 of a square matrix ``scores[dep, head]``.

    Row 0 and the diagonal must be ``-inf``. Returns ``heads`` with ``heads[0] = -1``.
    All cycles of the greedy graph are contracted at once; every level removes
    at least one node and costs O(m²) numpy work, so O(m³) at worst.
    """
    m = scores.shape[0]
    heads = scores.argmax(axis=1)
    heads[0] = -1
    cycles = _find_cycles(heads)
    if not cycles:
        return heads

    # new nodes: free nodes (ROOT first) stay themselves, each cycle becomes one node
    in_cycle = np.zeros(m, dtype=bool)
    for cyc in cycles:
        in_cycle[cyc] = True
    free = np.flatnonzero(~in_cycle)
    nf = len(free)
    k = nf + len(cycles)
    cyc_arrays = [np.asarray(c) for c in cycles]

    # entering a cycle at d replaces d's cycle arc: score relative to that arc;
    # arcs inside a cycle disappear with the contraction
    adj = scores.copy()
    for cyc in cyc_arrays:
        adj[cyc] -= scores[cyc, heads[cyc]][:, None]
        adj[np.ix_(cyc, cyc)] = -np.inf

    # best arc from every new head node to every old dependent, remembering the old head ...
    rows = np.arange(m)
    col_best = np.empty((m, k))
    col_head = np.empty((m, k), dtype=np.int64)
    col_best[:, :nf] = adj[:, free]
    col_head[:, :nf] = free
    for j, cyc in enumerate(cyc_arrays, start=nf):
        a = adj[:, cyc].argmax(axis=1)
        col_best[:, j] = adj[rows, cyc[a]]
        col_head[:, j] = cyc[a]
    # ... then to every new dependent node, remembering the old dependent
    cols = np.arange(k)
    small = np.empty((k, k))
    row_dep = np.empty((k, k), dtype=np.int64)
    small[:nf] = col_best[free]
    row_dep[:nf] = free[:, None]
    for j, cyc in enumerate(cyc_arrays, start=nf):
        a = col_best[cyc].argmax(axis=0)
        small[j] = col_best[cyc[a], cols]
        row_dep[j] = cyc[a]
    np.fill_diagonal(small, -np.inf)

    sub = _chu_liu_edmonds(small)

    # expand: each new node's chosen arc names its old dependent and old head;
    # other cycle members keep their cycle arcs
    result = heads.copy()
    g = np.arange(1, k)
    dep = row_dep[g, sub[g]]
    result[dep] = col_head[dep, sub[g]]
    return result


def mst_heads(scores: np.ndarray, *, single_root: bool = True) -> np.ndarray:
    """Heads of the maximum spanning tree for one sentence.

    ``scores`` has shape ``(n, n + 1)``: ``scores[i, j]`` is the score of token
    ``i + 1`` taking head ``j`` (``j = 0`` is ROOT) — the layout slovnet's
    ``SyntaxHead`` produces. Self-loops are ignored. Returns an int64 array of
    n heads in ``0..n`` forming a tree; with ``single_root`` exactly one token
    hangs from ROOT. When the argmax heads already form such a tree they are
    returned unchanged (they are then optimal), so the common case costs O(n²).
    """
    scores = np.asarray(scores, dtype=np.float64)
    n = scores.shape[0]
    if scores.shape != (n, n + 1):
        raise ValueError(f"scores must have shape (n, n+1), got {scores.shape}")
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if not np.all(np.isfinite(scores)):
        raise ValueError("scores must be finite")

    full = np.full((n + 1, n + 1), -np.inf)
    full[1:, :] = scores
    np.fill_diagonal(full, -np.inf)

    argmax = full[1:].argmax(axis=1)
    if is_valid_tree(argmax):
        return argmax.astype(np.int64)
    heads = _chu_liu_edmonds(full)
    if single_root and np.count_nonzero(heads[1:] == 0) > 1:
        # the unconstrained tree has several ROOT arcs: redo it with the root penalty
        penalty = (float(scores.max()) - float(scores.min()) + 1.0) * (n + 1)
        full[1:, 0] -= penalty
        heads = _chu_liu_edmonds(full)
    return heads[1:].astype(np.int64)
