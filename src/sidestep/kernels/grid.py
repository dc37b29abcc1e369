"""Point queries against a look-up-table grid (the panel article's 2D maps).

``cells`` is a grid's flattened (rows, cols) table of 0/1 (1 = blocked); cell
``(r, c)`` covers ``x in [ox + c*s, ox + (c+1)*s]``, ``y in [oy + r*s, oy + (r+1)*s]``.
Outside the table is free. The outline of the blocked cells goes to the
broadphase as merged segments (:func:`boundary_edges_grid`), so sweeps and
outside distances are segment queries.
"""
import math

import numpy as np
from numba import njit


@njit(cache=True)
def blocked_grid(cells, offset, rows, cols, r, c):
    """Whether cell ``(r, c)`` is blocked; cells outside the table are free."""
    if r < 0 or c < 0 or r >= rows or c >= cols:
        return False
    return cells[offset + r * cols + c] != 0


@njit(cache=True)
def contains_point_grid(px, py, cells, offset, rows, cols, cell_size, ox, oy):
    """Whether ``p`` lies in a blocked cell: one table look-up."""
    c = math.floor((px - ox) / cell_size)
    r = math.floor((py - oy) / cell_size)
    if r < 0 or c < 0 or r >= rows or c >= cols:
        return False
    return cells[offset + int(r) * cols + int(c)] != 0


@njit(cache=True)
def depth_point_grid(px, py, cells, offset, rows, cols, cell_size, ox, oy):
    """How deep ``p`` (in a blocked cell) lies: distance to the nearest free point.

    Returns ``(depth, nx, ny, qx, qy)`` with the unit direction from ``p`` to
    the nearest free point ``q`` (the way out). Searches rings of cells around
    ``p``; ring ``k`` is at least ``(k - 1) * cell_size`` away, which bounds the
    search by the depth itself.
    """
    s = cell_size
    c0 = int(math.floor((px - ox) / s))
    r0 = int(math.floor((py - oy) / s))
    # Leaving the table is always possible: the nearest side of the table.
    best = px - ox
    bqx, bqy = ox, py
    if ox + cols * s - px < best:
        best = ox + cols * s - px
        bqx, bqy = ox + cols * s, py
    if py - oy < best:
        best = py - oy
        bqx, bqy = px, oy
    if oy + rows * s - py < best:
        best = oy + rows * s - py
        bqx, bqy = px, oy + rows * s
    k = 1
    while (k - 1) * s < best and k <= max(rows, cols):
        for r in range(r0 - k, r0 + k + 1):
            step = 1 if (r == r0 - k or r == r0 + k) else 2 * k
            for c in range(c0 - k, c0 + k + 1, step):
                if r < 0 or c < 0 or r >= rows or c >= cols:
                    continue
                if cells[offset + r * cols + c] != 0:
                    continue
                # Nearest point of the free cell's box to p.
                qx = min(max(px, ox + c * s), ox + (c + 1) * s)
                qy = min(max(py, oy + r * s), oy + (r + 1) * s)
                d = math.sqrt((qx - px) ** 2 + (qy - py) ** 2)
                if d < best:
                    best = d
                    bqx = qx
                    bqy = qy
        k += 1
    if best > 0.0:
        return best, (bqx - px) / best, (bqy - py) / best, bqx, bqy
    return 0.0, 1.0, 0.0, bqx, bqy


@njit(cache=True)
def boundary_edges_grid(blocked, cell_size, ox, oy):
    """Outline of the blocked cells as merged segments, ``(m, 4)`` ``[ax, ay, bx, by]``.

    An edge lies between a blocked and a free cell (outside counts as free);
    runs of such edges along one grid line become one segment, so a long
    straight wall of tiles is one segment in the broadphase, not hundreds.
    """
    rows, cols = blocked.shape
    s = cell_size
    out = np.empty(((rows + 1) * cols + (cols + 1) * rows, 4))
    n = 0
    # Horizontal lines y = oy + r*s, between rows r-1 and r.
    for r in range(rows + 1):
        c = 0
        while c < cols:
            below = r > 0 and blocked[r - 1, c]
            above = r < rows and blocked[r, c]
            if below != above:
                c1 = c
                while c1 + 1 < cols:
                    b2 = r > 0 and blocked[r - 1, c1 + 1]
                    a2 = r < rows and blocked[r, c1 + 1]
                    if b2 == a2:
                        break
                    c1 += 1
                out[n, 0] = ox + c * s
                out[n, 1] = oy + r * s
                out[n, 2] = ox + (c1 + 1) * s
                out[n, 3] = oy + r * s
                n += 1
                c = c1 + 1
            else:
                c += 1
    # Vertical lines x = ox + c*s, between columns c-1 and c.
    for c in range(cols + 1):
        r = 0
        while r < rows:
            left = c > 0 and blocked[r, c - 1]
            right = c < cols and blocked[r, c]
            if left != right:
                r1 = r
                while r1 + 1 < rows:
                    l2 = c > 0 and blocked[r1 + 1, c - 1]
                    g2 = c < cols and blocked[r1 + 1, c]
                    if l2 == g2:
                        break
                    r1 += 1
                out[n, 0] = ox + c * s
                out[n, 1] = oy + r * s
                out[n, 2] = ox + c * s
                out[n, 3] = oy + (r1 + 1) * s
                n += 1
                r = r1 + 1
            else:
                r += 1
    return out[:n].copy()
