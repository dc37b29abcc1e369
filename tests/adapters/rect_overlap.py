"""An independent check, in plain Python, of whether an axis-aligned rect overlaps a world's obstacles.

It reads the obstacles' own geometry (``World2D.geometry``) and never asks a
sidestep kernel: a rect ``[lo, hi]`` overlaps an obstacle when their interiors
meet (touching is not overlapping). Used by the adapters' tests to check what
the adapters promise.
"""
import math


def _inside(x, y, lo, hi):
    return lo[0] < x < hi[0] and lo[1] < y < hi[1]


def _clip(a, b, lo, hi):
    """The part of segment ``a -> b`` inside the closed box ``[lo, hi]`` (Liang-Barsky), or None."""
    t0, t1 = 0.0, 1.0
    d = (b[0] - a[0], b[1] - a[1])
    for axis in (0, 1):
        if d[axis] == 0.0:
            if not lo[axis] <= a[axis] <= hi[axis]:
                return None
            continue
        ta = (lo[axis] - a[axis]) / d[axis]
        tb = (hi[axis] - a[axis]) / d[axis]
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        if t0 > t1:
            return None
    return ((a[0] + t0 * d[0], a[1] + t0 * d[1]), (a[0] + t1 * d[0], a[1] + t1 * d[1]))


def segment_crosses_rect(a, b, lo, hi):
    """Whether segment ``a -> b`` passes through the rect's interior."""
    part = _clip(a, b, lo, hi)
    if part is None:
        return False
    (x0, y0), (x1, y1) = part
    # The clipped piece is convex with the box: it meets the interior iff its middle does
    # (a piece along an edge, or a single corner, stays on the boundary).
    return _inside(0.5 * (x0 + x1), 0.5 * (y0 + y1), lo, hi)


def _point_segment(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _point_rect(p, lo, hi):
    dx = max(lo[0] - p[0], 0.0, p[0] - hi[0])
    dy = max(lo[1] - p[1], 0.0, p[1] - hi[1])
    return math.hypot(dx, dy)


def segment_rect_distance(a, b, lo, hi):
    """Distance between segment ``a -> b`` and the closed rect (0 when they meet)."""
    if _clip(a, b, lo, hi) is not None:
        return 0.0
    corners = [(lo[0], lo[1]), (hi[0], lo[1]), (hi[0], hi[1]), (lo[0], hi[1])]
    return min([_point_rect(a, lo, hi), _point_rect(b, lo, hi)]
               + [_point_segment(c, a, b) for c in corners])


def point_in_polygon(x, y, vertices):
    """Even-odd rule (points on the boundary may go either way)."""
    inside = False
    n = len(vertices)
    for i in range(n):
        (ax, ay), (bx, by) = vertices[i], vertices[(i + 1) % n]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def rect_overlaps_polygon(lo, hi, vertices):
    v = [tuple(map(float, p)) for p in vertices]
    n = len(v)
    if any(segment_crosses_rect(v[i], v[(i + 1) % n], lo, hi) for i in range(n)):
        return True
    # No edge through the rect: either the rect lies inside the polygon or they are apart.
    return point_in_polygon(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), v)


def rect_overlaps(world, lo, hi):
    """Ids of the obstacles of ``world`` whose interior the rect ``[lo, hi]``'s interior meets.

    Walls with a clearance count as their capsule (overlapping when closer than
    the clearance); a one-sided wall as its segment; grids by their blocked cells.
    """
    lo = (float(lo[0]), float(lo[1]))
    hi = (float(hi[0]), float(hi[1]))
    found = []
    g = world.geometry("box")
    for oid, a, b in zip(g["ids"], g["mins"], g["maxs"]):
        if lo[0] < b[0] and a[0] < hi[0] and lo[1] < b[1] and a[1] < hi[1]:
            found.append(int(oid))
    g = world.geometry("circle")
    for oid, c, r in zip(g["ids"], g["centers"], g["radii"]):
        if r > 0.0 and _point_rect((float(c[0]), float(c[1])), lo, hi) < r:
            found.append(int(oid))
        elif r == 0.0 and _inside(float(c[0]), float(c[1]), lo, hi):
            found.append(int(oid))
    g = world.geometry("wall")
    for oid, a, b, c in zip(g["ids"], g["starts"], g["ends"], g["clearance"]):
        a, b = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        if (c > 0.0 and segment_rect_distance(a, b, lo, hi) < c) or \
                (c == 0.0 and segment_crosses_rect(a, b, lo, hi)):
            found.append(int(oid))
    g = world.geometry("polygon")
    for oid, v in zip(g["ids"], g["vertices"]):
        if rect_overlaps_polygon(lo, hi, v):
            found.append(int(oid))
    g = world.geometry("grid")
    for oid, table, s, o in zip(g["ids"], g["blocked"], g["cell_size"], g["origin"]):
        rows, cols = table.shape
        c0 = max(int(math.floor((lo[0] - o[0]) / s)), 0)
        c1 = min(int(math.ceil((hi[0] - o[0]) / s)), cols)
        r0 = max(int(math.floor((lo[1] - o[1]) / s)), 0)
        r1 = min(int(math.ceil((hi[1] - o[1]) / s)), rows)
        hit = False
        for r in range(r0, r1):
            for c in range(c0, c1):
                if table[r, c]:
                    cell_lo = (o[0] + c * s, o[1] + r * s)
                    cell_hi = (cell_lo[0] + s, cell_lo[1] + s)
                    if lo[0] < cell_hi[0] and cell_lo[0] < hi[0] and lo[1] < cell_hi[1] \
                            and cell_lo[1] < hi[1]:
                        hit = True
        if hit:
            found.append(int(oid))
    return found
