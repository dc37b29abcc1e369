"""The benchmarks' independent check of a crowd's promise: agent pairs that overlap.

A NumPy grid, sharing nothing with sidestep: ``crowd_hall.py`` and ``living_level.py``
count with it, for every library alike.
"""
import numpy as np


def overlaps(positions, radius):
    """``(pairs, deepest)``: pairs of ``positions (n, 2)`` (agents of ``radius``) closer than
    two radii less 1e-6, and the deepest overlap (0 for none)."""
    cell = 2.0 * radius
    keys = np.floor(positions / cell).astype(np.int64)
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    sorted_keys = keys[order]
    flat = sorted_keys[:, 0] * 1_000_003 + sorted_keys[:, 1]
    pairs = 0
    deepest = 0.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            want = (keys[:, 0] + dx) * 1_000_003 + keys[:, 1] + dy
            lo = np.searchsorted(flat, want, "left")
            hi = np.searchsorted(flat, want, "right")
            for i in np.flatnonzero(hi > lo):
                others = order[lo[i]:hi[i]]
                others = others[others > i]
                if len(others):
                    d = np.linalg.norm(positions[others] - positions[i], axis=1)
                    bad = d < 2.0 * radius - 1e-6
                    pairs += int(bad.sum())
                    if bad.any():
                        deepest = max(deepest, float(2.0 * radius - d[bad].min()))
    return pairs, deepest
