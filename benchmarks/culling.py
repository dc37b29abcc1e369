"""Frustum culling: sidestep's exact batch tests beside a NumPy plane test and Panda3D.

    python benchmarks/culling.py [--boxes 100000] [--spheres 1000000] [--repeats 5]
                                 [--world 1000000]

Prints the rate (items per second, median of ``--repeats`` runs) of
``volumes.contains_boxes`` / ``contains_spheres`` against one perspective
frustum, beside the usual vectorised NumPy plane test (conservative: a box
or sphere beyond a frustum's edge or corner but inside every plane counts as
intersecting) and Panda3D's ``BoundingHexahedron.contains`` in a Python
loop (timed on a tenth of the items), and how many boxes the plane test
calls intersecting that the exact test calls disjoint. Then
``World3D.query`` of a camera over a level of ``--world`` spheres, through
the bounding volume hierarchy, beside ``scan_3d`` (every sphere tested).
A benchmark, never a timed test.
"""
import argparse
import math
import time

import numpy as np

import sidestep
from sidestep import volumes
from sidestep.volumes import Frustum, Point
from sidestep.volumes.query import scan_3d


def _median_rate(fn, n, repeats, warmup=3):
    # Steady state: the first full-size calls also pay for fresh memory pages
    # and the clock ramping up (sidestep's first call of 1,000,000 spheres
    # takes 5 ms, the fifth 3 ms).
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return n / float(np.median(times))


def numpy_boxes(planes, lo, hi):
    """The plane test: 0 outside some plane, 2 inside all, else 1 (conservative)."""
    n, d = planes[:, :3], planes[:, 3]
    c = (lo + hi) / 2
    e = (hi - lo) / 2
    dist = c @ n.T - d                       # (m, 6)
    reach = e @ np.abs(n).T
    out = np.ones(len(lo), dtype=np.int8)
    out[np.all(dist + reach <= 0, axis=1)] = 2
    out[np.any(dist - reach > 0, axis=1)] = 0
    return out


def numpy_spheres(planes, c, r):
    dist = c @ planes[:, :3].T - planes[:, 3]
    out = np.ones(len(c), dtype=np.int8)
    out[np.all(dist + r[:, None] <= 0, axis=1)] = 2
    out[np.any(dist - r[:, None] > 0, axis=1)] = 0
    return out


def panda_rate(f, lo, hi, c, r):
    try:
        from panda3d.core import BoundingBox, BoundingHexahedron, BoundingSphere, Point3
    except ImportError:
        return None, None
    k = np.array(f.corners)
    # Panda3D's corner order: far lower-left, far upper-left, far upper-right, far lower-right,
    # then the same four on the near plane.
    order = [4, 6, 7, 5, 0, 2, 3, 1]
    hexa = BoundingHexahedron(*[Point3(*k[i]) for i in order])
    boxes = [BoundingBox(Point3(*a), Point3(*b)) for a, b in zip(lo, hi)]
    spheres = [BoundingSphere(Point3(*p), float(s)) for p, s in zip(c, r)]

    def run(items):
        for item in items:
            hexa.contains(item)
    return (_median_rate(lambda: run(boxes), len(boxes), 3),
            _median_rate(lambda: run(spheres), len(spheres), 3))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=100_000)
    ap.add_argument("--spheres", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--world", type=int, default=1_000_000,
                    help="spheres in the World3D.query scene (0: skip it)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(1)
    f = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), math.pi / 3, 16 / 9, 0.5, 200.0)
    planes = np.array(f.planes)
    lo = rng.uniform(-150, 150, (args.boxes, 3))
    lo[:, 2] -= 100
    hi = lo + rng.uniform(0.5, 20, (args.boxes, 3))
    c = rng.uniform(-150, 150, (args.spheres, 3))
    c[:, 2] -= 100
    r = rng.uniform(0.1, 10, args.spheres)
    volumes.contains_boxes(f, lo[:10], hi[:10])          # compile / load before timing
    volumes.contains_spheres(f, c[:10], r[:10])

    # sidestep first: NumPy's matrix products leave BLAS threads spinning on
    # the other cores for a while, which would slow whatever runs next.
    ours = (_median_rate(lambda: volumes.contains_boxes(f, lo, hi), args.boxes, args.repeats),
            _median_rate(lambda: volumes.contains_spheres(f, c, r), args.spheres, args.repeats))
    exact = volumes.contains_boxes(f, lo, hi)
    plane = numpy_boxes(planes, lo, hi)
    npy = (_median_rate(lambda: numpy_boxes(planes, lo, hi), args.boxes, args.repeats),
           _median_rate(lambda: numpy_spheres(planes, c, r), args.spheres, args.repeats))
    rates = {"boxes": (ours[0], npy[0]), "spheres": (ours[1], npy[1])}
    mb, ms = max(1, args.boxes // 10), max(1, args.spheres // 10)
    pb, ps = panda_rate(f, lo[:mb], hi[:mb], c[:ms], r[:ms])
    print(f"frustum culling, median of {args.repeats} (items per second)")
    for (name, (ours, npy)), pan in zip(rates.items(), (pb, ps)):
        pan_text = f"{pan:,.0f}" if pan else "panda3d not installed"
        ratio = f"{ours / pan:.0f}x" if pan else "-"
        print(f"  {name:8s} sidestep {ours:>14,.0f}   numpy planes {npy:>14,.0f}   "
              f"panda3d {pan_text:>12s}   sidestep/panda3d {ratio}")
    wrong = int(np.sum((plane == 1) & (exact == 0)))
    print(f"  boxes the plane test calls INTERSECTS that are DISJOINT: {wrong} of "
          f"{int(np.sum(plane == 1))} it calls INTERSECTS ({args.boxes} boxes)")
    assert np.all((exact == 0) | (plane != 0)), "the plane test never culls a visible box"
    if args.world:
        world_query(args.world, args.repeats)


def world_query(n, repeats):
    """``World3D.query`` of a camera over a level of ``n`` spheres, through the hierarchy;
    beside the batch test of every sphere and ``scan_3d``."""
    rng = np.random.default_rng(2)
    world = sidestep.World3D(up="z")
    c = rng.uniform((-1000, -1000, 0), (1000, 1000, 20), (n, 3))
    r = rng.uniform(0.2, 2.0, n)
    world.add_spheres(c, r)
    t = time.perf_counter()
    world.query(Point((0.0, 0.0, -1.0)))                # builds the hierarchy; compiles
    build = time.perf_counter() - t
    camera = Frustum.perspective((0, 0, 10), (1, 0.3, 9.9), (0, 0, 1), math.pi / 3, 16 / 9,
                                 0.5, 200.0)
    q = world.query(camera)
    rate = _median_rate(lambda: world.query(camera), 1, repeats)
    every = _median_rate(lambda: volumes.contains_spheres(camera, c, r), 1, repeats)
    t = time.perf_counter()
    scan = scan_3d(world, camera)
    scan_time = time.perf_counter() - t
    assert np.array_equal(scan.obstacle, q.obstacle) and np.array_equal(scan.state, q.state)
    print(f"World3D.query, a camera (far 200) over {n:,} spheres on 2 km x 2 km "
          f"(hierarchy built in {build:.1f} s, once):")
    print(f"  {1e3 / rate:.1f} ms (median of {repeats}), {len(q.obstacle):,} in view "
          f"({int(np.sum(q.state == 2)):,} inside); testing every sphere instead: "
          f"{1e3 / every:.1f} ms (contains_spheres, all cores), {scan_time * 1e3:.0f} ms "
          f"(scan_3d, one core), the same answer")


if __name__ == "__main__":
    main()
