"""Brute-force 3D reference answers in plain numpy, written apart from the kernels.

Surfaces are sampled densely and distances taken over all pairs of samples,
so these answers are upper bounds on the true distance, within the sampling
step of it. Inside tests are the definitions of the solids, nothing more.
"""
import numpy as np


def core_samples(a, b, count=48):
    """Points along the agent's core ``ab``: (count, 3)."""
    s = np.linspace(0.0, 1.0, count)[:, None]
    return np.asarray(a, float) + s * (np.asarray(b, float) - np.asarray(a, float))


def sphere_surface(c, radius, count=4000):
    """Fibonacci-lattice points on a sphere: (count, 3)."""
    i = np.arange(count) + 0.5
    phi = np.arccos(1.0 - 2.0 * i / count)
    theta = np.pi * (1.0 + 5.0 ** 0.5) * i
    u = np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)
    return np.asarray(c, float) + radius * u


def box_surface(lo, hi, per_side=40):
    """A grid of points on each of the six faces of a box."""
    lo = np.asarray(lo, float)
    hi = np.asarray(hi, float)
    t = np.linspace(0.0, 1.0, per_side)
    u, v = np.meshgrid(t, t)
    u = u.ravel()
    v = v.ravel()
    out = []
    for axis in range(3):
        j, k = (axis + 1) % 3, (axis + 2) % 3
        for level in (lo[axis], hi[axis]):
            p = np.empty((len(u), 3))
            p[:, axis] = level
            p[:, j] = lo[j] + u * (hi[j] - lo[j])
            p[:, k] = lo[k] + v * (hi[k] - lo[k])
            out.append(p)
    return np.concatenate(out)


def cylinder_surface(c, axis, radius, height, rings=60, around=90):
    """Points on a cylinder's side and two cap discs."""
    c = np.asarray(c, float)
    j, k = (axis + 1) % 3, (axis + 2) % 3
    ang = np.linspace(0.0, 2 * np.pi, around, endpoint=False)
    out = []
    for z in np.linspace(0.0, height, rings):
        p = np.tile(c, (around, 1))
        p[:, j] += radius * np.cos(ang)
        p[:, k] += radius * np.sin(ang)
        p[:, axis] += z
        out.append(p)
    for z in (0.0, height):
        for rr in np.linspace(0.0, radius, rings // 2):
            p = np.tile(c, (around, 1))
            p[:, j] += rr * np.cos(ang)
            p[:, k] += rr * np.sin(ang)
            p[:, axis] += z
            out.append(p)
    return np.concatenate(out)


def fan_surface(vertices, centre, per_triangle=400):
    """Points covering a star-shaped panel: its fan of triangles about ``centre``, and edges."""
    v = np.asarray(vertices, float)
    centre = np.asarray(centre, float)
    n = int(np.sqrt(2 * per_triangle))
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1))
    keep = i + j <= n
    s = (i[keep] / n)[:, None]
    t = (j[keep] / n)[:, None]
    out = []
    for k in range(len(v)):
        a = v[k]
        b = v[(k + 1) % len(v)]
        out.append(centre + s * (a - centre) + t * (b - centre))
        out.append(a + np.linspace(0, 1, 4 * n)[:, None] * (b - a))
    return np.concatenate(out)


def min_distance(points, surface):
    """Least distance between two point sets, in chunks to bound memory."""
    best = np.inf
    for start in range(0, len(points), 16):
        d = points[start:start + 16, None, :] - surface[None, :, :]
        best = min(best, float(np.sqrt((d * d).sum(-1)).min()))
    return best


def signed_distance(points, surface, inside):
    """Brute signed distance of a core (its sample points) from a solid.

    ``inside`` is a boolean per point: there the point counts as
    ``-distance`` to the surface, elsewhere ``+distance``; the core's signed
    distance is the least over its points.
    """
    best = np.inf
    for p, ins in zip(points, inside):
        d = float(np.sqrt(((surface - p) ** 2).sum(-1)).min())
        best = min(best, -d if ins else d)
    return best
