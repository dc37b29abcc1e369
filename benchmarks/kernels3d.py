"""Cost of one 3D narrowphase call per family, and of active_edges on a big mesh.

Each kernel runs in a compiled loop over 20,000 seeded random cases (a
capsule of radius 0.3 and height 1.8, or a sphere, within a few metres of a
unit-sized obstacle, moving up to 4 m), so the figures are the kernels' own
cost, without Python's call overhead. Printed: the median over repeats of
nanoseconds per call, and the share of sweeps that hit. Then ``active_edges``
on a terrain grid of about a million triangles (seconds).

Run: ``python benchmarks/kernels3d.py [--cases N] [--repeats R]``
"""
import argparse
import math
import statistics
import time

import numpy as np
from numba import njit

from sidestep.kernels3d.box import ray_box, separation_capsule_box, sweep_capsule_box
from sidestep.kernels3d.cylinder import (ray_cylinder, separation_capsule_cylinder,
                                         sweep_capsule_cylinder)
from sidestep.kernels3d.mesh import active_edges
from sidestep.kernels3d.polygon import (ALL_EDGES, ray_polygon, separation_capsule_polygon,
                                        sweep_capsule_polygon)
from sidestep.kernels3d.sphere import ray_sphere, separation_capsule_sphere, sweep_capsule_sphere

TRIANGLE = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.2]])
LOOP = np.arange(3)


@njit  # not cached: a cached driver would keep stale copies of edited kernels
def run(kind, query, a, b, d, u):
    # Sum of the first result of every call (kept so nothing is optimised away).
    total = 0.0
    hits = 0
    for i in range(a.shape[0]):
        ax, ay, az = a[i, 0], a[i, 1], a[i, 2]
        bx, by, bz = b[i, 0], b[i, 1], b[i, 2]
        dx, dy, dz = d[i, 0], d[i, 1], d[i, 2]
        ux, uy, uz = u[i, 0], u[i, 1], u[i, 2]
        if kind == 0:
            if query == 0:
                r = separation_capsule_sphere(ax, ay, az, bx, by, bz, 0.0, 0.0, 0.0, 0.5)[0]
            elif query == 1:
                r = sweep_capsule_sphere(ax, ay, az, bx, by, bz, dx, dy, dz, 0.3,
                                         0.0, 0.0, 0.0, 0.5)[0]
            else:
                r = ray_sphere(ax, ay, az, ux, uy, uz, 10.0, 0.0, 0.0, 0.0, 0.5)[0]
        elif kind == 1:
            if query == 0:
                r = separation_capsule_box(ax, ay, az, bx, by, bz, -0.5, -0.5, -0.5,
                                           0.5, 0.5, 0.5)[0]
            elif query == 1:
                r = sweep_capsule_box(ax, ay, az, bx, by, bz, dx, dy, dz, 0.3, -0.5, -0.5, -0.5,
                                      0.5, 0.5, 0.5)[0]
            else:
                r = ray_box(ax, ay, az, ux, uy, uz, 10.0, -0.5, -0.5, -0.5, 0.5, 0.5, 0.5)[0]
        elif kind == 2:
            if query == 0:
                r = separation_capsule_cylinder(ax, ay, az, bx, by, bz, 0.0, -0.5, 0.0, 1, 0.5,
                                                1.0)[0]
            elif query == 1:
                r = sweep_capsule_cylinder(ax, ay, az, bx, by, bz, dx, dy, dz, 0.3, 0.0, -0.5,
                                           0.0, 1, 0.5, 1.0, 1e-9)[0]
            else:
                r = ray_cylinder(ax, ay, az, ux, uy, uz, 10.0, 0.0, -0.5, 0.0, 1, 0.5, 1.0)[0]
        else:
            if query == 0:
                r = separation_capsule_polygon(ax, ay, az, bx, by, bz, TRIANGLE, LOOP, 0, 3,
                                               0.0, -0.19611613513818404, 0.9805806756909202,
                                               ALL_EDGES, False)[0]
            elif query == 1:
                r = sweep_capsule_polygon(ax, ay, az, bx, by, bz, dx, dy, dz, 0.3, TRIANGLE,
                                          LOOP, 0, 3, 0.0, -0.19611613513818404,
                                          0.9805806756909202, ALL_EDGES, False)[0]
            else:
                r = ray_polygon(ax, ay, az, ux, uy, uz, 10.0, TRIANGLE, LOOP, 0, 3, 0.0,
                                -0.19611613513818404, 0.9805806756909202, False)[0]
        if r < math.inf:
            total += r
            hits += 1
    return total, hits


def cases(n, rng):
    """Agents within 3 m of the origin: half spheres, half upright capsules (y up)."""
    a = rng.uniform(-3.0, 3.0, (n, 3))
    b = a.copy()
    b[n // 2:, 1] += 1.2                     # capsule core: 1.8 tall with radius 0.3
    d = rng.uniform(-4.0, 4.0, (n, 3))
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    return a, b, d, u


def terrain(k):
    """A k x k heightfield as 2 k^2 triangles."""
    x, z = np.meshgrid(np.arange(k + 1.0), np.arange(k + 1.0))
    y = np.sin(0.3 * x) * np.cos(0.2 * z)
    vertices = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    i = np.arange(k)
    v00 = (i[:, None] * (k + 1) + i[None, :]).ravel()
    triangles = np.concatenate([np.column_stack([v00, v00 + 1, v00 + k + 2]),
                                np.column_stack([v00, v00 + k + 2, v00 + k + 1])])
    return vertices, triangles.astype(np.int64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    a, b, d, u = cases(args.cases, np.random.default_rng(0))
    print(f"{'family':10} {'query':11} {'ns/call':>8} {'hits':>6}")
    for kind, family in enumerate(["sphere", "box", "cylinder", "triangle"]):
        for query, name in enumerate(["separation", "sweep", "ray"]):
            run(kind, query, a[:10], b[:10], d[:10], u[:10])      # compile / load
            times = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                _, hits = run(kind, query, a, b, d, u)
                times.append(time.perf_counter() - start)
            ns = statistics.median(times) / args.cases * 1e9
            share = hits / args.cases if query else 1.0
            print(f"{family:10} {name:11} {ns:8.0f} {share:6.0%}")
    vertices, triangles = terrain(708)
    active_edges(vertices[:10], triangles[:2], 0.1)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        active_edges(vertices, triangles, math.radians(10))
        times.append(time.perf_counter() - start)
    print(f"active_edges on {len(triangles):,} triangles: {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
