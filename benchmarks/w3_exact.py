"""W3 exactness: sidestep's ray distances against a brute-force float64 intersection.

Casts a sample of the W3 rays (``../shared/bench``: a million rays against a
522,242-triangle terrain) with ``World3D.raycast`` and, for each sampled ray,
intersects every triangle of the terrain in float64 with NumPy (Moller and
Trumbore, the textbook formula, written independently of sidestep's
kernels). Prints the largest distance difference and the hit/miss
disagreements.

Run: ``python benchmarks/w3_exact.py [--rays N]`` (with ``../shared/bench`` beside
the project).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

import sidestep

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"


def brute_force(v0, e1, e2, origin, direction, max_dist):
    """Nearest hit distance of one ray on every triangle (inf if none), float64."""
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-300
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    w = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (w >= 0) & (u + w <= 1) & (t >= 0) & (t <= max_dist)
    return t[hit].min() if hit.any() else np.inf


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rays", type=int, default=1000)
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH))
    from worlds import get_w3

    w = get_w3()
    vertices, triangles = w["vertices"], w["triangles"]
    world = sidestep.World3D(up="z")
    world.add_mesh(vertices, triangles)
    rows = np.random.default_rng(0).choice(len(w["origins"]), args.rays, replace=False)
    o, d, md = w["origins"][rows], w["directions"][rows], float(w["max_dist"])
    got = world.raycast(o, d, md).distance
    corners = vertices[triangles]
    v0 = corners[:, 0]
    e1 = corners[:, 1] - v0
    e2 = corners[:, 2] - v0
    want = np.array([brute_force(v0, e1, e2, o[k], d[k], md) for k in range(len(o))])
    both = np.isfinite(got) & np.isfinite(want)
    print(f"{args.rays} sampled W3 rays: {int(both.sum())} hits, "
          f"{int((np.isfinite(got) != np.isfinite(want)).sum())} hit/miss disagreements, "
          f"largest distance difference {np.abs(got[both] - want[both]).max():.3g} m")


if __name__ == "__main__":
    main()
