"""Interim bounding volume hierarchy (median split), until the tuned one lands.

``build(boxes)`` -> a tree tuple; ``query_box`` lists the primitives whose
boxes overlap a query box; ``farthest_corner`` bounds the whole tree.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

Tree = namedtuple("Tree", ["bounds", "child", "first", "count", "order"])
LEAF = 4


@njit(cache=True)
def _build(boxes):
    m = boxes.shape[0]
    n_max = max(1, 2 * m)
    bounds = np.empty((n_max, 6))
    child = np.full(n_max, -1, dtype=np.int64)
    first = np.zeros(n_max, dtype=np.int64)
    count = np.zeros(n_max, dtype=np.int64)
    order = np.arange(m, dtype=np.int64)
    centre = np.empty((m, 3))
    for e in range(m):
        for a in range(3):
            centre[e, a] = 0.5 * (boxes[e, a] + boxes[e, 3 + a])
    stack = np.empty((64, 3), dtype=np.int64)
    sp = 0
    n_nodes = 1
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = m
    while sp >= 0:
        node = stack[sp, 0]
        lo = stack[sp, 1]
        hi = stack[sp, 2]
        sp -= 1
        for a in range(3):
            bounds[node, a] = math.inf
            bounds[node, 3 + a] = -math.inf
        for t in range(lo, hi):
            e = order[t]
            for a in range(3):
                bounds[node, a] = min(bounds[node, a], boxes[e, a])
                bounds[node, 3 + a] = max(bounds[node, 3 + a], boxes[e, 3 + a])
        if hi - lo <= LEAF:
            first[node] = lo
            count[node] = hi - lo
            continue
        axis = 0
        ext = -1.0
        for a in range(3):
            c_lo = math.inf
            c_hi = -math.inf
            for t in range(lo, hi):
                c_lo = min(c_lo, centre[order[t], a])
                c_hi = max(c_hi, centre[order[t], a])
            if c_hi - c_lo > ext:
                ext = c_hi - c_lo
                axis = a
        keys = np.empty(hi - lo)
        for t in range(lo, hi):
            keys[t - lo] = centre[order[t], axis]
        idx = np.argsort(keys, kind="mergesort")
        seg = order[lo:hi].copy()
        for t in range(hi - lo):
            order[lo + t] = seg[idx[t]]
        mid = (lo + hi) // 2
        left = n_nodes
        n_nodes += 2
        child[node] = left
        sp += 1
        stack[sp, 0] = left
        stack[sp, 1] = lo
        stack[sp, 2] = mid
        sp += 1
        stack[sp, 0] = left + 1
        stack[sp, 1] = mid
        stack[sp, 2] = hi
    return bounds[:n_nodes].copy(), child[:n_nodes].copy(), first[:n_nodes].copy(), \
        count[:n_nodes].copy(), order


def build(boxes):
    """The hierarchy over ``boxes (m, 6)``."""
    if len(boxes) == 0:
        return Tree(np.zeros((1, 6)), np.full(1, -1, np.int64), np.zeros(1, np.int64),
                    np.zeros(1, np.int64), np.zeros(0, np.int64))
    return Tree(*_build(np.ascontiguousarray(boxes, dtype=np.float64)))


@njit(cache=True)
def query_box(tree, x0, y0, z0, x1, y1, z1, out):
    """Primitives whose box overlaps ``[x0, x1] x [y0, y1] x [z0, z1]``: how many.

    The first ``len(out)`` are written to ``out``.
    """
    if tree.order.shape[0] == 0:
        return 0
    stack = np.empty(128, dtype=np.int64)
    sp = 0
    stack[0] = 0
    n = 0
    b = tree.bounds
    while sp >= 0:
        node = stack[sp]
        sp -= 1
        if b[node, 0] > x1 or b[node, 3] < x0 or b[node, 1] > y1 or b[node, 4] < y0 \
                or b[node, 2] > z1 or b[node, 5] < z0:
            continue
        c = tree.child[node]
        if c < 0:
            for t in range(tree.first[node], tree.first[node] + tree.count[node]):
                if n < out.shape[0]:
                    out[n] = tree.order[t]
                n += 1
        else:
            sp += 1
            stack[sp] = c
            sp += 1
            stack[sp] = c + 1
    return n


@njit(cache=True)
def farthest_corner(tree, px, py, pz):
    """Distance from ``p`` to the farthest corner of the root box (0 for an empty tree)."""
    if tree.order.shape[0] == 0:
        return 0.0
    b = tree.bounds
    fx = max(abs(px - b[0, 0]), abs(px - b[0, 3]))
    fy = max(abs(py - b[0, 1]), abs(py - b[0, 4]))
    fz = max(abs(pz - b[0, 2]), abs(pz - b[0, 5]))
    return math.sqrt(fx * fx + fy * fy + fz * fz)
