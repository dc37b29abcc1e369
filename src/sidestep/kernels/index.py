"""Uniform-grid broadphase: which obstacles lie near a point, a disc or a sweep.

The world's bounding box is cut into square cells; each cell lists the
entries (segment items, or areas) that may touch it, in compressed rows
(``start``, ``entries``: cell ``k`` holds ``entries[start[k]:start[k+1]]``).
A query visits only the cells its shape touches, so its cost depends on the
local density of obstacles, not on how many the level holds.

Cell ``(i, j)`` (column ``i``, row ``j``) covers
``x in [origin_x + i*cell_size, origin_x + (i+1)*cell_size]`` and the same in y;
its linear number is ``j * nx + i``.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from .box import distance_point_box

#: A built broadphase grid. Kernels receive it as one argument.
Index = namedtuple("Index", ["origin_x", "origin_y", "cell_size", "nx", "ny",
                             "start", "entries"])


@njit(cache=True, forceinline=False)
def cell_coord(index, v, origin):
    """Cell number along one axis of coordinate ``v`` (unclamped)."""
    return int(math.floor((v - origin) / index.cell_size))


@njit(cache=True, forceinline=False, inline="always")
def cell_hint(v, origin, inverse):
    """:func:`cell_coord` by multiplying with ``inverse = 1 / cell_size``, for hints only.

    A tenth faster than the division on the batch path, but it may round a
    coordinate on a cell border into the other cell: use it only where that
    is harmless (prefetching), never to decide which cells a query reads.
    """
    return int(math.floor((v - origin) * inverse))


@njit(cache=True, forceinline=False)
def clamp(i, n):
    """``i`` clamped to ``[0, n - 1]``."""
    if i < 0:
        return 0
    if i > n - 1:
        return n - 1
    return i


@njit(cache=True, forceinline=False)
def rows_capsule(index, ax, ay, bx, by, radius):
    """Rows ``[j0, j1]`` that the capsule ``ab`` of ``radius`` may touch (clamped).

    Returns ``(j0, j1)`` with ``j0 > j1`` when the capsule misses the grid.
    """
    lo = min(ay, by) - radius
    hi = max(ay, by) + radius
    j0 = cell_coord(index, lo, index.origin_y)
    j1 = cell_coord(index, hi, index.origin_y)
    if j1 < 0 or j0 > index.ny - 1:
        return 1, 0
    return clamp(j0, index.ny), clamp(j1, index.ny)


@njit(cache=True, forceinline=False)
def columns_capsule(index, ax, ay, bx, by, radius, j):
    """Columns ``[i0, i1]`` of row ``j`` that the capsule ``ab`` of ``radius`` may touch.

    Clips the segment to the row's band widened by ``radius`` and widens the
    clipped part's x-range by ``radius``: every point of the capsule in the
    row lies within ``radius`` of a segment point in that widened band.
    Returns ``i0 > i1`` when the row is missed.
    """
    s = index.cell_size
    # The band a rounding wider: row ``j`` was picked by a quotient (:func:`cell_coord`),
    # the band's edges are products, and the two round apart (a point at y = 1 in the
    # row whose lower edge works out to 1.0000000000000002 read no column at all).
    room = 1e-12 * (abs(index.origin_y) + (j + 2) * s)
    y_lo = index.origin_y + j * s - radius - room
    y_hi = index.origin_y + (j + 1) * s + radius + room
    dy = by - ay
    f0 = 0.0
    f1 = 1.0
    if min(ay, by) >= y_lo and max(ay, by) <= y_hi:
        # Wholly inside the band (most short moves): nothing to clip, and the
        # divisions below would give exactly 0 and 1 (rounding is monotonic).
        pass
    elif dy == 0.0:
        return 1, 0
    else:
        # Solve ay + fraction * dy = y_lo (and y_hi) for fraction.
        g0 = (y_lo - ay) / dy
        g1 = (y_hi - ay) / dy
        if g0 > g1:
            g0, g1 = g1, g0
        f0 = max(f0, g0)
        f1 = min(f1, g1)
        if f0 > f1:
            return 1, 0
    xa = ax + f0 * (bx - ax)
    xb = ax + f1 * (bx - ax)
    i0 = cell_coord(index, min(xa, xb) - radius, index.origin_x)
    i1 = cell_coord(index, max(xa, xb) + radius, index.origin_x)
    if i1 < 0 or i0 > index.nx - 1:
        return 1, 0
    return clamp(i0, index.nx), clamp(i1, index.nx)


@njit(cache=True)
def frame_capsules(geometry, area_bounds, cell_factor):
    """The frame ``(origin_x, origin_y, cell_size, nx, ny)`` of a grid over capsules
    ``geometry (n >= 1, >= 5) [ax, ay, bx, by, thickness, ...]`` and boxes ``area_bounds
    (m, 4) [minx, miny, maxx, maxy]``.

    Cells are about as large as the typical (median) capsule's box and at least
    ``cell_factor`` times the mean spacing between capsules, so a query touches a few
    cells holding a few capsules each, at any world size; fewer than ``4 n + 1024`` cells.
    The grid covers every capsule and box with half a cell to spare on each side.
    """
    n = geometry.shape[0]
    extent = np.empty(n)
    low_x = np.inf
    low_y = np.inf
    high_x = -np.inf
    high_y = -np.inf
    for e in range(n):
        thick = geometry[e, 4]
        lx = min(geometry[e, 0], geometry[e, 2]) - thick
        ly = min(geometry[e, 1], geometry[e, 3]) - thick
        hx = max(geometry[e, 0], geometry[e, 2]) + thick
        hy = max(geometry[e, 1], geometry[e, 3]) + thick
        extent[e] = max(hx - lx, hy - ly)       # thickness >= 0: both >= 0
        low_x = min(low_x, lx)
        low_y = min(low_y, ly)
        high_x = max(high_x, hx)
        high_y = max(high_y, hy)
    for a in range(area_bounds.shape[0]):
        low_x = min(low_x, area_bounds[a, 0])
        low_y = min(low_y, area_bounds[a, 1])
        high_x = max(high_x, area_bounds[a, 2])
        high_y = max(high_y, area_bounds[a, 3])
    typical = np.median(extent)
    width = max(high_x - low_x, 1e-9)
    height = max(high_y - low_y, 1e-9)
    spacing = math.sqrt(width * height / n)
    cell = max(typical, cell_factor * spacing, 1e-6)
    cap = 4 * n + 1024
    while (width / cell + 2) * (height / cell + 2) > cap:
        cell *= 1.5
    origin_x = low_x - 0.5 * cell
    origin_y = low_y - 0.5 * cell
    nx = int(math.floor((high_x + 0.5 * cell - origin_x) / cell)) + 1
    ny = int(math.floor((high_y + 0.5 * cell - origin_y) / cell)) + 1
    return origin_x, origin_y, cell, nx, ny


@njit(cache=True, forceinline=False)
def fill_index_capsules(origin_x, origin_y, cell_size, nx, ny, geometry, pad):
    """Cells of capsules ``geometry (n, 5) [ax, ay, bx, by, thickness]``.

    Each capsule, widened by ``pad``, goes into every cell it may touch.
    Returns ``(start (nx*ny + 1,) int64, entries (m,) int32)``.
    """
    empty = np.empty(0, dtype=np.int32)
    index = Index(origin_x, origin_y, cell_size, nx, ny, np.zeros(1, dtype=np.int64), empty)
    counts = np.zeros(nx * ny + 1, dtype=np.int64)
    for pass_ in range(2):
        if pass_ == 1:
            start = np.zeros(nx * ny + 1, dtype=np.int64)
            for k in range(nx * ny):
                start[k + 1] = start[k] + counts[k]
            entries = np.empty(start[nx * ny], dtype=np.int32)
            fill = start[:-1].copy()
        for e in range(geometry.shape[0]):
            ax = geometry[e, 0]
            ay = geometry[e, 1]
            bx = geometry[e, 2]
            by = geometry[e, 3]
            r = geometry[e, 4] + pad
            j0, j1 = rows_capsule(index, ax, ay, bx, by, r)
            for j in range(j0, j1 + 1):
                i0, i1 = columns_capsule(index, ax, ay, bx, by, r, j)
                for i in range(i0, i1 + 1):
                    k = j * nx + i
                    if pass_ == 0:
                        counts[k] += 1
                    else:
                        entries[fill[k]] = e
                        fill[k] += 1
    return start, entries


@njit(cache=True, forceinline=False)
def fill_index_boxes(origin_x, origin_y, cell_size, nx, ny, boxes):
    """Cells of boxes ``boxes (n, 4) [minx, miny, maxx, maxy]``: every cell each overlaps.

    Returns ``(start (nx*ny + 1,) int64, entries (m,) int32)``.
    """
    counts = np.zeros(nx * ny + 1, dtype=np.int64)
    for pass_ in range(2):
        if pass_ == 1:
            start = np.zeros(nx * ny + 1, dtype=np.int64)
            for k in range(nx * ny):
                start[k + 1] = start[k] + counts[k]
            entries = np.empty(start[nx * ny], dtype=np.int32)
            fill = start[:-1].copy()
        for e in range(boxes.shape[0]):
            i0 = max(0, int(math.floor((boxes[e, 0] - origin_x) / cell_size)))
            j0 = max(0, int(math.floor((boxes[e, 1] - origin_y) / cell_size)))
            i1 = min(nx - 1, int(math.floor((boxes[e, 2] - origin_x) / cell_size)))
            j1 = min(ny - 1, int(math.floor((boxes[e, 3] - origin_y) / cell_size)))
            for j in range(j0, j1 + 1):
                for i in range(i0, i1 + 1):
                    k = j * nx + i
                    if pass_ == 0:
                        counts[k] += 1
                    else:
                        entries[fill[k]] = e
                        fill[k] += 1
    return start, entries


@njit(cache=True, forceinline=False)
def lower_bound_outside(index, px, py, i0, j0, i1, j1):
    """Distance from ``p`` to the grid's cells outside columns ``[i0, i1]`` x rows ``[j0, j1]``.

    Anything not registered in that block of cells is at least this far from
    ``p``; ``inf`` when the block is the whole grid.
    """
    s = index.cell_size
    gx0 = index.origin_x
    gy0 = index.origin_y
    gx1 = gx0 + index.nx * s
    gy1 = gy0 + index.ny * s
    bx0 = gx0 + i0 * s
    by0 = gy0 + j0 * s
    bx1 = gx0 + (i1 + 1) * s
    by1 = gy0 + (j1 + 1) * s
    best = math.inf
    # The (up to) four strips of the grid around the block, as boxes.
    if i0 > 0:
        best = min(best, distance_point_box(px, py, gx0, gy0, bx0, gy1))
    if i1 < index.nx - 1:
        best = min(best, distance_point_box(px, py, bx1, gy0, gx1, gy1))
    if j0 > 0:
        best = min(best, distance_point_box(px, py, gx0, gy0, gx1, by0))
    if j1 < index.ny - 1:
        best = min(best, distance_point_box(px, py, gx0, by1, gx1, gy1))
    return best
