"""Point queries against an axis-aligned box (the panel article's boxes).

Only the inside of a box needs its own code: its outline is four segments in
the broadphase, so sweeps and outside distances are segment queries.
"""
import math

from numba import njit


@njit(cache=True, forceinline=False)
def contains_point_box(px, py, minx, miny, maxx, maxy):
    """Whether ``p`` lies in the closed box: a run of coordinate comparisons."""
    return minx <= px <= maxx and miny <= py <= maxy


@njit(cache=True, forceinline=False)
def distance_point_box(px, py, minx, miny, maxx, maxy):
    """Unsigned distance from ``p`` to the closed box (0 inside or on it)."""
    dx = max(minx - px, 0.0, px - maxx)
    dy = max(miny - py, 0.0, py - maxy)
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True, forceinline=False)
def depth_point_box(px, py, minx, miny, maxx, maxy):
    """How deep ``p`` (inside the box) lies: distance to the nearest side.

    Returns ``(depth, nx, ny, qx, qy)``: depth >= 0, the outward unit normal of
    that side (the way out) and ``q``, the point of that side nearest ``p``.
    Ties go to the first of left, right, bottom, top.
    """
    depth = px - minx
    nx, ny, qx, qy = -1.0, 0.0, minx, py
    if maxx - px < depth:
        depth = maxx - px
        nx, ny, qx, qy = 1.0, 0.0, maxx, py
    if py - miny < depth:
        depth = py - miny
        nx, ny, qx, qy = 0.0, -1.0, px, miny
    if maxy - py < depth:
        depth = maxy - py
        nx, ny, qx, qy = 0.0, 1.0, px, maxy
    return depth, nx, ny, qx, qy
