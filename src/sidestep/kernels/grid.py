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


@njit(cache=True, forceinline=False)
def blocked_grid(cells, offset, rows, cols, r, c):
    """Whether cell ``(r, c)`` is blocked; cells outside the table are free."""
    if r < 0 or c < 0 or r >= rows or c >= cols:
        return False
    return cells[offset + r * cols + c] != 0


@njit(cache=True, forceinline=False)
def contains_point_grid(px, py, cells, offset, rows, cols, cell_size, ox, oy):
    """Whether ``p`` lies in a blocked cell: one table look-up."""
    c = math.floor((px - ox) / cell_size)
    r = math.floor((py - oy) / cell_size)
    if r < 0 or c < 0 or r >= rows or c >= cols:
        return False
    return cells[offset + int(r) * cols + int(c)] != 0


@njit(cache=True, forceinline=False)
def pyramid_grid(blocked):
    """A grid's table followed by its pyramid of "all blocked" levels, flat ``int32``.

    Level 0 is the table itself (1 = blocked), row by row. Level ``L + 1``
    has ``ceil(rows_L / 2) x ceil(cols_L / 2)`` cells, each 1 when all of the
    (up to four) level-``L`` cells it covers are 1; the last level is one
    cell. :func:`depth_point_grid` skips whole solid blocks with it. The
    levels after the table take about a third of its size.
    """
    rows, cols = blocked.shape
    total = 0
    r, c = rows, cols
    while True:
        total += r * c
        if r == 1 and c == 1:
            break
        r = (r + 1) // 2
        c = (c + 1) // 2
    out = np.empty(total, np.int32)
    for i in range(rows):
        for j in range(cols):
            out[i * cols + j] = 1 if blocked[i, j] else 0
    below = 0
    r, c = rows, cols
    while r > 1 or c > 1:
        up_r = (r + 1) // 2
        up_c = (c + 1) // 2
        above = below + r * c
        for i in range(up_r):
            for j in range(up_c):
                solid = 1
                for a in range(2 * i, min(2 * i + 2, r)):
                    for b in range(2 * j, min(2 * j + 2, c)):
                        if out[below + a * c + b] == 0:
                            solid = 0
                out[above + i * up_c + j] = solid
        below = above
        r, c = up_r, up_c
    return out


#: Nodes a depth search may hold at once: three siblings waiting per level
#: plus one, for grids up to 2^62 cells a side.
_STACK = 3 * 62 + 4


@njit(cache=True, forceinline=False)
def depth_point_grid(px, py, cells, offset, rows, cols, cell_size, ox, oy):
    """How deep ``p`` (in a blocked cell) lies: distance to the nearest free point.

    Returns ``(depth, nx, ny, qx, qy)`` with the unit direction from ``p`` to
    the nearest free point ``q`` (the way out). ``cells[offset:]`` holds the
    table and its pyramid (:func:`pyramid_grid`). The nearest free point is
    the nearest side of the table or of a free cell's box; a search down the
    pyramid, nearer blocks first, skips every block that is solid or no nearer
    than the best found so far, so the cost grows with the pyramid's height,
    not with the depth squared.
    """
    s = cell_size
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
    # Level offsets and sizes (level L's cells cover 2^L table cells a side).
    plan = np.empty((64, 3), np.int64)
    top = 0
    at = offset
    r, c = rows, cols
    while True:
        plan[top, 0] = at
        plan[top, 1] = r
        plan[top, 2] = c
        if r == 1 and c == 1:
            break
        at += r * c
        r = (r + 1) // 2
        c = (c + 1) // 2
        top += 1
    # Depth-first from the top cell; each node is (level, row, column).
    stack = np.empty((_STACK, 3), np.int64)
    stack[0, 0] = top
    stack[0, 1] = 0
    stack[0, 2] = 0
    n = 1
    near = np.empty(4)
    order = np.empty((4, 2), np.int64)
    while n > 0:
        n -= 1
        level = stack[n, 0]
        i = stack[n, 1]
        j = stack[n, 2]
        if cells[plan[level, 0] + i * plan[level, 2] + j] != 0:
            continue                                   # solid: no free cell inside
        # The block's box, with the same expressions as a cell's sides (and
        # the outline's), so it holds its cells' boxes exactly.
        qx = min(max(px, ox + (j << level) * s), ox + ((j + 1) << level) * s)
        qy = min(max(py, oy + (i << level) * s), oy + ((i + 1) << level) * s)
        d = math.sqrt((qx - px) ** 2 + (qy - py) ** 2)
        if d >= best:
            continue
        if level == 0:
            best = d                                   # a free cell, nearer than any yet
            bqx = qx
            bqy = qy
            continue
        # The children that exist, pushed farthest first so the nearest is taken next.
        below = level - 1
        k = 0
        for a in range(2 * i, min(2 * i + 2, plan[below, 1])):
            for b in range(2 * j, min(2 * j + 2, plan[below, 2])):
                cx = min(max(px, ox + (b << below) * s), ox + ((b + 1) << below) * s)
                cy = min(max(py, oy + (a << below) * s), oy + ((a + 1) << below) * s)
                near[k] = (cx - px) ** 2 + (cy - py) ** 2
                order[k, 0] = a
                order[k, 1] = b
                k += 1
        for _ in range(k):
            far = 0
            for t in range(1, k):
                if near[t] > near[far]:
                    far = t
            stack[n, 0] = below
            stack[n, 1] = order[far, 0]
            stack[n, 2] = order[far, 1]
            n += 1
            near[far] = -1.0
    if best > 0.0:
        return best, (bqx - px) / best, (bqy - py) / best, bqx, bqy
    return 0.0, 1.0, 0.0, bqx, bqy


@njit(cache=True, forceinline=False)
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
