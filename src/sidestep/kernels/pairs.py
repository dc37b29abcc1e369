"""Segment against segment, and the search for close pairs of capsules in a whole level.

A level checker asks, for every pair of obstacles, how far apart their
surfaces are: two walls closer than an agent's diameter make a doorway it
cannot pass; capsules that cross are obstacles drawn into each other. Every
obstacle is a set of capsules (``World2D.segments``: circles are zero-length
capsules, walls carry their clearance, outlines have thickness 0), so the
question is segment against segment, minus the two thicknesses.

:func:`close_pairs_capsules` finds every pair of capsules whose surfaces are
closer than a reach without comparing all ``m^2`` pairs: a uniform grid over
the capsules' bounding boxes (the same one the world's broadphase uses,
:func:`~sidestep.kernels.index.fill_index_boxes`).
"""
import math

import numpy as np
from numba import njit

from .index import fill_index_boxes
from .polygon import _on_segment, _orientation, segments_touch
from .segment import closest_point_segment

#: Codes of :func:`crossing_segment_segment`, weakest first.
CROSSING_APART = 0
#: The segments share points only where an end of one lies on the other
#: (a shared corner, a T-junction): walls joined the way levels join them.
CROSSING_TOUCH = 1
#: The interiors cross at one point, transversally (an X).
CROSSING_PROPER = 2
#: Collinear, sharing a stretch of positive length.
CROSSING_COLLINEAR = 3


@njit(cache=True, forceinline=False)
def distance_segment_segment(ax, ay, bx, by, cx, cy, dx, dy):
    """Distance between segments ``ab`` and ``cd``, with a closest point on each.

    Returns ``(distance, px, py, qx, qy)``: ``p`` on ``ab``, ``q`` on ``cd``.
    Segments that touch or cross are at distance exactly 0 (``p == q`` is a
    shared point); a degenerate segment (``a == b``) is its point.
    """
    # 1. Touching or crossing: decided with exact orientation signs (Cormen 33.1),
    #    not from a computed distance, whose rounding would leave crossing
    #    segments a hair apart.
    if segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
        # An end on the other segment (a corner, a T, a collinear overlap, a
        # degenerate segment): that end is a shared point.
        if _orientation(cx, cy, dx, dy, ax, ay) == 0 and _on_segment(cx, cy, dx, dy, ax, ay):
            return 0.0, ax, ay, ax, ay
        if _orientation(cx, cy, dx, dy, bx, by) == 0 and _on_segment(cx, cy, dx, dy, bx, by):
            return 0.0, bx, by, bx, by
        if _orientation(ax, ay, bx, by, cx, cy) == 0 and _on_segment(ax, ay, bx, by, cx, cy):
            return 0.0, cx, cy, cx, cy
        if _orientation(ax, ay, bx, by, dx, dy) == 0 and _on_segment(ax, ay, bx, by, dx, dy):
            return 0.0, dx, dy, dx, dy
        # A proper crossing: solve a + f (b - a) = c + g (d - c) for f,
        # f = ((c - a) x (d - c)) / ((b - a) x (d - c)) (Ericson 5.1.9.1);
        # the denominator is non-zero because the segments are not parallel.
        ex = bx - ax
        ey = by - ay
        fx = dx - cx
        fy = dy - cy
        f = ((cx - ax) * fy - (cy - ay) * fx) / (ex * fy - ey * fx)
        f = min(max(f, 0.0), 1.0)
        px = ax + f * ex
        py = ay + f * ey
        return 0.0, px, py, px, py
    # 2. Apart: the squared distance between ab(s) and cd(t) is convex over the
    #    square [0, 1]^2, and an interior minimum would need the joining vector
    #    perpendicular to both segments, which in the plane means parallel
    #    segments (minimum also at an end) or a crossing (excluded above). So
    #    the closest pair has an end of one segment: four point-segment
    #    projections (Ericson 5.1.9's clamping cases, in 2D).
    qx, qy = closest_point_segment(ax, ay, cx, cy, dx, dy)
    best = math.hypot(ax - qx, ay - qy)
    bpx, bpy, bqx, bqy = ax, ay, qx, qy
    qx, qy = closest_point_segment(bx, by, cx, cy, dx, dy)
    dist = math.hypot(bx - qx, by - qy)
    if dist < best:
        best, bpx, bpy, bqx, bqy = dist, bx, by, qx, qy
    px, py = closest_point_segment(cx, cy, ax, ay, bx, by)
    dist = math.hypot(cx - px, cy - py)
    if dist < best:
        best, bpx, bpy, bqx, bqy = dist, px, py, cx, cy
    px, py = closest_point_segment(dx, dy, ax, ay, bx, by)
    dist = math.hypot(dx - px, dy - py)
    if dist < best:
        best, bpx, bpy, bqx, bqy = dist, px, py, dx, dy
    # 3. Parallel segments that face each other are equally close all along
    #    the stretch where they do; the middle of that stretch says where
    #    better than one of its ends (a corridor, not its mouth).
    ex = bx - ax
    ey = by - ay
    ll = ex * ex + ey * ey
    if ll > 0.0 and ex * (dy - cy) - ey * (dx - cx) == 0.0:
        fc = ((cx - ax) * ex + (cy - ay) * ey) / ll
        fd = ((dx - ax) * ex + (dy - ay) * ey) / ll
        lo = max(min(fc, fd), 0.0)
        hi = min(max(fc, fd), 1.0)
        if hi > lo:
            f = 0.5 * (lo + hi)
            bpx = ax + f * ex
            bpy = ay + f * ey
            bqx, bqy = closest_point_segment(bpx, bpy, cx, cy, dx, dy)
    return best, bpx, bpy, bqx, bqy


@njit(cache=True, forceinline=False)
def crossing_segment_segment(ax, ay, bx, by, cx, cy, dx, dy):
    """How segments ``ab`` and ``cd`` meet: one of the ``CROSSING_*`` codes.

    ``CROSSING_APART`` (no shared point), ``CROSSING_TOUCH`` (an end lies on
    the other segment, nothing more), ``CROSSING_PROPER`` (the interiors cross
    transversally) or ``CROSSING_COLLINEAR`` (they share a stretch of
    positive length). A degenerate segment can at most touch.
    """
    # Exact orientation signs (Cormen 33.1): +1, -1 or 0 for collinear.
    o1 = _orientation(ax, ay, bx, by, cx, cy)
    o2 = _orientation(ax, ay, bx, by, dx, dy)
    o3 = _orientation(cx, cy, dx, dy, ax, ay)
    o4 = _orientation(cx, cy, dx, dy, bx, by)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return CROSSING_PROPER
    if not segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
        return CROSSING_APART
    degenerate = (ax == bx and ay == by) or (cx == dx and cy == dy)
    if o1 == 0 and o2 == 0 and not degenerate:
        # Collinear: project on the longer direction; the shared stretch is
        # the overlap of the two parameter intervals.
        ux = bx - ax
        uy = by - ay
        if abs(ux) >= abs(uy):
            lo = max(min(ax, bx), min(cx, dx))
            hi = min(max(ax, bx), max(cx, dx))
        else:
            lo = max(min(ay, by), min(cy, dy))
            hi = min(max(ay, by), max(cy, dy))
        if hi > lo:
            return CROSSING_COLLINEAR
    return CROSSING_TOUCH


@njit(cache=True, forceinline=False)
def _along(px, py, qx, qy, ax, ay, bx, by):
    """Whether the line from ``p`` to ``q`` runs along segment ``ab`` (within 1e-9 radians).

    Two edges of one outline whose closest points are joined along one of
    them (the two lips of a notch's mouth, in line; a side and the end of
    the next wall along) do not face each other across free space: the
    notch itself is reported by its facing sides.
    """
    vx = qx - px
    vy = qy - py
    ex = bx - ax
    ey = by - ay
    # |v x e| = |v| |e| sin(angle between them)
    return abs(vx * ey - vy * ex) <= 1e-9 * math.hypot(vx, vy) * math.hypot(ex, ey)


@njit(cache=True, forceinline=False)
def _grow(buffer, n):
    """``buffer`` with room for at least ``n + 1`` rows, the first ``n`` kept."""
    if n < buffer.shape[0]:
        return buffer
    bigger = np.empty((2 * buffer.shape[0],) + buffer.shape[1:], dtype=buffer.dtype)
    bigger[:n] = buffer[:n]
    return bigger


@njit(cache=True, forceinline=False)
def close_pairs_capsules(geometry, owner, self_pairs, reach, touch):
    """Pairs of capsules whose surfaces are closer than ``reach``, with where and how.

    Parameters
    ----------
    geometry : (m, 5) float64
        Capsules ``[ax, ay, bx, by, thickness]`` (``World2D.segments``).
    owner : (m,) int64
        Obstacle of each capsule.
    self_pairs : (m,) bool
        Compare this capsule with others of its own obstacle (an outline
        facing itself across a narrow notch). Such pairs are reported only
        when their separation exceeds ``touch``: neighbouring edges of one
        outline meet at their corners and are not findings.
    reach : float >= 0
        Report pairs of different obstacles with separation ``< reach``.
    touch : float >= 0
        Pairs of different obstacles closer than this are reported even when
        ``reach`` is smaller, so that touching and crossing are always seen.

    Returns
    -------
    first, second : (k,) int64
        Capsule rows, ``first < second``; each pair once.
    separation : (k,) float64
        Segment distance minus both thicknesses (negative: the surfaces overlap).
    distance : (k,) float64
        Distance between the two segments themselves (>= 0).
    middle : (k, 2) float64
        Midpoint of the two surfaces' closest points: where a gap or an
        overlap is (the segments' shared point when they cross).
    crossing : (k,) int64
        :func:`crossing_segment_segment` of the two segments.
    """
    m = geometry.shape[0]
    first = np.empty(64, dtype=np.int64)
    second = np.empty(64, dtype=np.int64)
    values = np.empty((64, 4))
    crossing = np.empty(64, dtype=np.int64)
    if m < 2:
        return first[:0], second[:0], values[:0, 0].copy(), values[:0, 1].copy(), \
            values[:0, 2:4].copy(), crossing[:0]
    limit = max(reach, touch)
    # 1. Bounding boxes grown by thickness + limit / 2: two capsules closer
    #    than the limit have overlapping grown boxes.
    boxes = np.empty((m, 4))
    for e in range(m):
        grow = geometry[e, 4] + 0.5 * limit
        boxes[e, 0] = min(geometry[e, 0], geometry[e, 2]) - grow
        boxes[e, 1] = min(geometry[e, 1], geometry[e, 3]) - grow
        boxes[e, 2] = max(geometry[e, 0], geometry[e, 2]) + grow
        boxes[e, 3] = max(geometry[e, 1], geometry[e, 3]) + grow
    x0 = boxes[:, 0].min()
    y0 = boxes[:, 1].min()
    width = boxes[:, 2].max() - x0
    height = boxes[:, 3].max() - y0
    # 2. About one capsule per cell on average: cells of side sqrt(area / m),
    #    at most 4096 a side so a level with one far outlier stays small.
    cell = math.sqrt(width * height / m)
    cell = max(cell, max(width, height) / 4096.0)
    if not cell > 0.0:
        cell = max(width, height, 1.0)
    nx = int(width / cell) + 1
    ny = int(height / cell) + 1
    start, entries = fill_index_boxes(x0, y0, cell, nx, ny, boxes)
    # 3. Each pair of boxes that overlap is tested in exactly one cell: the
    #    one holding the lower-left corner of their overlap.
    n = 0
    for j in range(ny):
        for i in range(nx):
            k = j * nx + i
            for u in range(start[k], start[k + 1]):
                e = entries[u]
                for w in range(u + 1, start[k + 1]):
                    f = entries[w]
                    same = owner[e] == owner[f]
                    if same and not (self_pairs[e] and self_pairs[f]):
                        continue
                    lox = max(boxes[e, 0], boxes[f, 0])
                    loy = max(boxes[e, 1], boxes[f, 1])
                    if lox > min(boxes[e, 2], boxes[f, 2]) or loy > min(boxes[e, 3], boxes[f, 3]):
                        continue
                    ci = min(max(int(math.floor((lox - x0) / cell)), 0), nx - 1)
                    cj = min(max(int(math.floor((loy - y0) / cell)), 0), ny - 1)
                    if ci != i or cj != j:
                        continue
                    ax, ay, bx, by = geometry[e, 0], geometry[e, 1], geometry[e, 2], geometry[e, 3]
                    cx, cy, dx, dy = geometry[f, 0], geometry[f, 1], geometry[f, 2], geometry[f, 3]
                    dist, px, py, qx, qy = distance_segment_segment(ax, ay, bx, by,
                                                                    cx, cy, dx, dy)
                    te = geometry[e, 4]
                    tf = geometry[f, 4]
                    sep = dist - te - tf
                    if same:
                        if not (touch < sep < reach) or _along(px, py, qx, qy, ax, ay, bx, by) \
                                or _along(px, py, qx, qy, cx, cy, dx, dy):
                            continue
                    elif not (sep < reach or sep <= touch):
                        continue
                    # Surfaces' closest points: p + te * unit and q - tf * unit
                    # along unit = (q - p) / dist; their midpoint is p + (dist + te - tf) / 2.
                    if dist > 0.0:
                        h = 0.5 * (dist + te - tf) / dist
                        mx = px + h * (qx - px)
                        my = py + h * (qy - py)
                    else:
                        mx = px
                        my = py
                    first = _grow(first, n)
                    second = _grow(second, n)
                    values = _grow(values, n)
                    crossing = _grow(crossing, n)
                    first[n] = min(e, f)
                    second[n] = max(e, f)
                    values[n, 0] = sep
                    values[n, 1] = dist
                    values[n, 2] = mx
                    values[n, 3] = my
                    crossing[n] = crossing_segment_segment(ax, ay, bx, by, cx, cy, dx, dy)
                    n += 1
    return first[:n].copy(), second[:n].copy(), values[:n, 0].copy(), values[:n, 1].copy(), \
        values[:n, 2:4].copy(), crossing[:n].copy()
