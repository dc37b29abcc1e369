"""Brute-force reference answers, written independently of the kernels in plain numpy.

Slow and simple on purpose: every obstacle is checked, no broadphase, so the
tests can compare the library's fast answers against them.
"""
import numpy as np


def _segment_distance(p, a, b):
    # Distance from points p (n, 2) to segment ab, by projection on ab.
    ab = b - a
    ll = float(ab @ ab)
    f = np.zeros(len(p)) if ll == 0.0 else np.clip(((p - a) @ ab) / ll, 0.0, 1.0)
    return np.hypot(*(p - (a + f[:, None] * ab)).T)


def _inside_polygon(p, v):
    # Winding number (not the kernels' crossing parity) of v around each point.
    wn = np.zeros(len(p), dtype=int)
    for i in range(len(v)):
        a, b = v[i], v[(i + 1) % len(v)]
        cross = (b[0] - a[0]) * (p[:, 1] - a[1]) - (p[:, 0] - a[0]) * (b[1] - a[1])
        up = (a[1] <= p[:, 1]) & (b[1] > p[:, 1]) & (cross > 0)
        down = (a[1] > p[:, 1]) & (b[1] <= p[:, 1]) & (cross < 0)
        wn += up.astype(int) - down.astype(int)
    return wn != 0


def signed_distances(world, points):
    """``(n, ids)`` matrix of signed distances from each point to each live obstacle."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    cols = {}
    g = world.geometry("circle")
    for i, c, r in zip(g["ids"], g["centers"], g["radii"]):
        cols[i] = np.hypot(*(p - c).T) - r
    g = world.geometry("wall")
    for i, a, b, t in zip(g["ids"], g["starts"], g["ends"], g["clearance"]):
        cols[i] = _segment_distance(p, a, b) - t
    g = world.geometry("box")
    for i, lo, hi in zip(g["ids"], g["mins"], g["maxs"]):
        q = np.abs(p - (lo + hi) / 2) - (hi - lo) / 2
        outside = np.hypot(*np.maximum(q, 0.0).T)
        cols[i] = outside + np.minimum(np.maximum(q[:, 0], q[:, 1]), 0.0)
    g = world.geometry("polygon")
    for i, v in zip(g["ids"], g["vertices"]):
        d = np.min([_segment_distance(p, v[k], v[(k + 1) % len(v)]) for k in range(len(v))],
                   axis=0)
        cols[i] = np.where(_inside_polygon(p, v), -d, d)
    g = world.geometry("grid")
    for i, table, s, o in zip(g["ids"], g["blocked"], g["cell_size"], g["origin"]):
        cols[i] = _grid_signed(p, table, s, o)
    return cols


def _grid_signed(p, table, s, o):
    rows, cols = table.shape
    r, c = np.nonzero(table)
    lo = np.column_stack([o[0] + c * s, o[1] + r * s])
    d_blocked = np.full(len(p), np.inf)
    for k in range(len(lo)):
        q = np.maximum(np.maximum(lo[k] - p, p - (lo[k] + s)), 0.0)
        d_blocked = np.minimum(d_blocked, np.hypot(*q.T))
    # Inside: distance to the nearest free cell or to the outside of the table.
    fr, fc = np.nonzero(~table)
    flo = np.column_stack([o[0] + fc * s, o[1] + fr * s])
    d_free = np.minimum.reduce([p[:, 0] - o[0], o[0] + cols * s - p[:, 0],
                                p[:, 1] - o[1], o[1] + rows * s - p[:, 1]])
    d_free = np.maximum(d_free, 0.0)
    for k in range(len(flo)):
        q = np.maximum(np.maximum(flo[k] - p, p - (flo[k] + s)), 0.0)
        d_free = np.minimum(d_free, np.hypot(*q.T))
    return np.where(d_blocked == 0.0, -d_free, d_blocked)


def clearance(world, points):
    """Brute-force signed clearance: minimum over every obstacle."""
    cols = signed_distances(world, points)
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if not cols:
        return np.full(len(p), np.inf)
    return np.min(np.array(list(cols.values())), axis=0)


def crosses_segment(p0, p1, a, b):
    """Whether the straight path p0 -> p1 crosses (or touches) segment ab."""
    def orient(u, v, w):
        return np.sign((v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0]))
    o1, o2 = orient(p0, p1, a), orient(p0, p1, b)
    o3, o4 = orient(a, b, p0), orient(a, b, p1)
    return o1 != o2 and o3 != o4
