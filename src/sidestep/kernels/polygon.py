"""Point queries against simple polygons, convex or not (object outlines).

A polygon's edges are segments in the broadphase; this module answers what
only the whole polygon knows: whether a point is inside, how deep, and whether
a vertex list describes a simple polygon at all.
"""
import math

from numba import njit

from .segment import closest_point_segment


@njit(cache=True, forceinline=False)
def contains_point_polygon(px, py, coords, first, count):
    """Whether ``p`` lies inside a polygon of ``count`` vertices.

    The vertices are stored flat: vertex ``i`` is ``(coords[first + 2 i],
    coords[first + 2 i + 1])``. Even-odd crossing test (Franklin's PNPOLY):
    count the edges that a ray to +x crosses. It works for concave polygons,
    unlike the panel article's same-sign test, which needs convex panels in
    clockwise order.
    """
    inside = False
    j = count - 1
    for i in range(count):
        xi = coords[first + 2 * i]
        yi = coords[first + 2 * i + 1]
        xj = coords[first + 2 * j]
        yj = coords[first + 2 * j + 1]
        if (yi > py) != (yj > py):
            x_cross = xi + (py - yi) * (xj - xi) / (yj - yi)
            if px < x_cross:
                inside = not inside
        j = i
    return inside


@njit(cache=True, forceinline=False)
def depth_point_polygon(px, py, coords, first, count):
    """How deep ``p`` (inside the polygon) lies: distance to the nearest edge.

    Vertices stored flat as in :func:`contains_point_polygon`. Returns
    ``(depth, nx, ny, qx, qy)`` with the unit direction from ``p`` to the
    nearest boundary point ``q`` (the way out).
    """
    best = math.inf
    bqx = px
    bqy = py
    j = count - 1
    for i in range(count):
        qx, qy = closest_point_segment(px, py, coords[first + 2 * j], coords[first + 2 * j + 1],
                                       coords[first + 2 * i], coords[first + 2 * i + 1])
        d = math.sqrt((qx - px) ** 2 + (qy - py) ** 2)
        if d < best:
            best = d
            bqx = qx
            bqy = qy
        j = i
    if best > 0.0:
        return best, (bqx - px) / best, (bqy - py) / best, bqx, bqy
    return 0.0, 1.0, 0.0, bqx, bqy


@njit(cache=True, forceinline=False)
def signed_area_polygon(vertices):
    """Shoelace area of ``vertices (k, 2)``: positive when counter-clockwise."""
    k = vertices.shape[0]
    total = 0.0
    j = k - 1
    for i in range(k):
        total += (vertices[j, 0] - vertices[i, 0]) * (vertices[j, 1] + vertices[i, 1])
        j = i
    return 0.5 * total


@njit(cache=True, forceinline=False)
def _orientation(ax, ay, bx, by, cx, cy):
    # Sign of the cross product (b - a) x (c - a): +1 left turn, -1 right, 0 collinear.
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    if v > 0.0:
        return 1
    if v < 0.0:
        return -1
    return 0


@njit(cache=True, forceinline=False)
def _on_segment(ax, ay, bx, by, cx, cy):
    # c is collinear with ab: is it within ab's bounding box?
    return min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)


@njit(cache=True, forceinline=False)
def segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
    """Whether the closed segments ``ab`` and ``cd`` share a point (Cormen 33.1)."""
    o1 = _orientation(ax, ay, bx, by, cx, cy)
    o2 = _orientation(ax, ay, bx, by, dx, dy)
    o3 = _orientation(cx, cy, dx, dy, ax, ay)
    o4 = _orientation(cx, cy, dx, dy, bx, by)
    if o1 != o2 and o3 != o4:
        return True
    if o1 == 0 and _on_segment(ax, ay, bx, by, cx, cy):
        return True
    if o2 == 0 and _on_segment(ax, ay, bx, by, dx, dy):
        return True
    if o3 == 0 and _on_segment(cx, cy, dx, dy, ax, ay):
        return True
    if o4 == 0 and _on_segment(cx, cy, dx, dy, bx, by):
        return True
    return False


@njit(cache=True, forceinline=False)
def first_crossing_polygon(vertices):
    """First pair of edges of ``vertices (k, 2)`` that cross or touch, or (-1, -1).

    Edge ``i`` runs from vertex ``i`` to ``i + 1``. Neighbouring edges may
    share their common vertex but nothing more (a fold back along the same
    line counts as touching). O(k^2), run once when a polygon is added.
    """
    k = vertices.shape[0]
    for i in range(k):
        ax = vertices[i, 0]
        ay = vertices[i, 1]
        bx = vertices[(i + 1) % k, 0]
        by = vertices[(i + 1) % k, 1]
        for j in range(i + 1, k):
            cx = vertices[j, 0]
            cy = vertices[j, 1]
            dx = vertices[(j + 1) % k, 0]
            dy = vertices[(j + 1) % k, 1]
            if j == i + 1:
                # Shared vertex b == c: they cross only if d folds back onto ab.
                if _orientation(ax, ay, bx, by, dx, dy) == 0 and \
                        (dx - bx) * (ax - bx) + (dy - by) * (ay - by) > 0.0:
                    return i, j
                continue
            if i == 0 and j == k - 1:
                # Shared vertex a == d.
                if _orientation(ax, ay, bx, by, cx, cy) == 0 and \
                        (cx - ax) * (bx - ax) + (cy - ay) * (by - ay) > 0.0:
                    return i, j
                continue
            if segments_touch(ax, ay, bx, by, cx, cy, dx, dy):
                return i, j
    return -1, -1
