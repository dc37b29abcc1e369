"""Entry distances of rays into a frustum and a box: ``distances_along`` and its kernel.

    python benchmarks/volumes_entry.py [--rays 1000000] [--rounds 3]

Two seeded scenes of ``--rays`` rays each, from origins up to 20 m around the
volume towards points of a box half as large again as the volume, so about
half of them hit: a perspective frustum (eye (0, 0, 5) looking down -z,
90 degrees, near 1, far 10) and the box [-1, 1]^3. Printed per scene, the
median of ``--rounds`` runs (after one untimed run that compiles and
warms up):

* ``batch``: :func:`sidestep.volumes.distances_along` over all the rays (all
  cores), when this checkout has it;
* ``kernel``: ``kernels3d.volumes.distance_along``, the kernel behind
  ``Ray.distance_along``, in a compiled loop on one core (each ray packed as
  ``Ray`` packs it): the same work on any checkout, so before and after
  compare there.

Then the share of rays that hit and their mean entry distance (the same
scene gives the same figures before and after, up to the old method's
shortfall) and the entry of the ray from the eye along the view, which
meets the near plane at exactly 1. A benchmark, never a timed test.
"""
import argparse
import inspect
import math
import time

import numpy as np
from numba import njit

from sidestep import volumes
from sidestep.kernels3d import volumes as kv
from sidestep.tolerances import VOLUME_TOLERANCE
from sidestep.volumes import Box, Frustum, Ray


@njit  # not cached: a cached driver would keep stale copies of edited kernels
def kernel_loop(b, origins, directions, tol, out):
    # Each ray packed as packing.ray packs a Ray, then the single call's kernel.
    row = np.zeros(kv.PACKED)
    row[kv.KIND] = kv.RAY
    for i in range(origins.shape[0]):
        for j in range(3):
            row[kv.VERTS + j] = origins[i, j]
            row[kv.VERTS + 3 + j] = directions[i, j]
        d = kv.distance_along(row, b, tol)
        out[i] = d if d >= 0.0 else math.inf


@njit
def kernel_loop_bisection(b, origins, directions, tol, out):
    # The same before the closed forms, whose kernel took a scratch array.
    row = np.zeros(kv.PACKED)
    row[kv.KIND] = kv.RAY
    work = np.empty((2, kv.PACKED))
    for i in range(origins.shape[0]):
        for j in range(3):
            row[kv.VERTS + j] = origins[i, j]
            row[kv.VERTS + 3 + j] = directions[i, j]
        d = kv.distance_along(row, b, tol, work)
        out[i] = d if d >= 0.0 else math.inf


def scene(n, lo, hi, seed):
    """``(origins, unit directions)``, ``(n, 3)`` each: rays around box ``lo, hi`` towards it."""
    rng = np.random.default_rng(seed)
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    origins = mid + rng.uniform(-20, 20, (n, 3))
    targets = mid + rng.uniform(-1.5, 1.5, (n, 3)) * half
    d = targets - origins
    return origins, d / np.linalg.norm(d, axis=1)[:, None]


def median_seconds(fn, rounds):
    fn()                                       # compile, load, touch the pages
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rays", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    frustum = Frustum.perspective((0, 0, 5), (0, 0, 0), (0, 1, 0), math.pi / 2, 1.0, 1.0, 10.0)
    box = Box((-1, -1, -1), (1, 1, 1))
    corners = np.array(frustum.corners)
    batch = getattr(volumes, "distances_along", None)
    bisection = len(inspect.signature(kv.distance_along.py_func).parameters) == 4
    loop = kernel_loop_bisection if bisection else kernel_loop
    print(f"{args.rays:,} ray entries per volume, median of {args.rounds} "
          f"({'batch: all cores, ' if batch else 'no batch API here; '}kernel: one core)")
    for name, vol, lo, hi, seed in (("frustum", frustum, corners.min(0), corners.max(0), 1),
                                    ("box", box, box.min, box.max, 2)):
        o, d = scene(args.rays, lo, hi, seed)
        out = np.empty(args.rays)
        line = f"  {name:8s}"
        if batch:
            s = median_seconds(lambda: batch(vol, o, d), args.rounds)
            line += f" batch {s:8.3f} s ({s / args.rays * 1e9:7.1f} ns a ray)"
        s = median_seconds(lambda: loop(vol.packed, o, d, VOLUME_TOLERANCE, out),
                           args.rounds)
        hit = np.isfinite(out)
        line += (f"   kernel {s:8.3f} s ({s / args.rays * 1e9:7.1f} ns a ray)"
                 f"   hits {hit.mean():.4f}, mean entry {out[hit].mean():.9f}")
        print(line)
    eye = Ray((0, 0, 5), (0, 0, -1)).distance_along(frustum)
    print(f"  the ray from the eye along the view enters at {eye!r} (the near plane: 1.0)")


if __name__ == "__main__":
    main()
