"""W9, the 3D half: a million sphere casts through the Recast dungeon, sidestep beside python-fcl.

The casts (seeded, the same for both libraries): a sphere of radius 0.3 m
starting at a free spot near the dungeon's surfaces (clearance between the
radius and 4 m: in the rooms, corridors and stairs, not out in the void
around them), moved 1 to 8 m in a random direction. sidestep answers them
with one ``World3D.cast_many`` call on all cores (and again on one thread);
python-fcl with one ``fcl.continuousCollide`` per cast, the dungeon a
``BVHModel`` (OBBRSS) of its 10,133 triangles, the sphere translated
(``CCDM_TRANS``). fcl's default solver, conservative advancement, crashes
(a segmentation fault) with the sphere as the first object, and with the
mesh first it took about 45 ms a cast and missed a contact in the sample we
tried; the naive solver, which tests the sphere at ``--fcl-steps`` points
along the motion and answers the first one in contact, is the one that
works: its time of impact is late by up to one step (1 % of the cast with
the default 100). fcl runs one thread, and is measured on a smaller sample
(``--fcl-casts``, 10,000 by default): the table gives casts per second
for each, so the rates compare.

Protocol: the dungeon and the casts are built first; each library is warmed
up (sidestep's kernels compiled, fcl's first calls made); then
``--rounds`` timed rounds, median taken. Afterwards a seeded sample of
``--check`` casts is held to an independent reference, sphere tracing on
exact point-to-triangle distances written here in NumPy (the triangles near
each cast), and the largest disagreement of each library's time of impact
with it is printed in metres along the cast (sidestep stops a quarter skin,
2.5e-7 m, before the contact on purpose).

Run::

    python benchmarks/casts3d.py [--casts 1000000] [--fcl-casts 10000] [--rounds 3]
                                 [--check 200] [--only sidestep|fcl]
"""
import argparse
import os
import statistics
import time
from pathlib import Path

import numpy as np

DUNGEON = Path(__file__).resolve().parents[1] / "src" / "sidestep" / "data" / "dungeon.obj"
RADIUS = 0.3
SEED = 9
#: Casts start this close to a surface at most (m): in the level, not out in the void.
NEAR = 4.0
#: Cast lengths (m).
SHORTEST, LONGEST = 1.0, 8.0


def mesh():
    """The dungeon's ``(vertices (v, 3), triangles (t, 3))``, y up (sidestep's OBJ reader)."""
    from sidestep.io.obj import parse_obj
    vertices, triangles = parse_obj(DUNGEON)[:2]
    return np.asarray(vertices, float), np.asarray(triangles, np.int64)


def casts(world, vertices, n, seed=SEED):
    """``(positions (n, 3), displacements (n, 3))``: seeded casts near the dungeon's surfaces."""
    rng = np.random.default_rng(seed)
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    kept = []
    count = 0
    while count < n:
        p = rng.uniform(lo, hi, (max(4 * (n - count), 1024), 3))
        c = world.clearance(p)
        p = p[(c > RADIUS) & (c < NEAR)]
        kept.append(p)
        count += len(p)
    positions = np.concatenate(kept)[:n]
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    displacements = u * rng.uniform(SHORTEST, LONGEST, n)[:, None]
    return positions, displacements


def time_sidestep(world, p, d, rounds, threads=None):
    """Median seconds of ``world.cast_many`` over the casts, and its answers."""
    from sidestep import threads as _threads
    previous = _threads.set_threads(threads)
    try:
        world.cast_many(p[:1000], d[:1000], radius=RADIUS)          # compile / load, warm up
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            hits = world.cast_many(p, d, radius=RADIUS)
            times.append(time.perf_counter() - start)
    finally:
        _threads.set_threads(previous)
    return statistics.median(times), hits


def fcl_scene(vertices, triangles, steps):
    import fcl
    model = fcl.BVHModel()
    model.beginModel(len(vertices), len(triangles))
    model.addSubModel(vertices, triangles)
    model.endModel()
    level = fcl.CollisionObject(model, fcl.Transform())
    request = fcl.ContinuousCollisionRequest(
        num_max_iterations=steps, ccd_motion_type=fcl.CCDMotionType.CCDM_TRANS,
        ccd_solver_type=fcl.CCDSolverType.CCDC_NAIVE)
    return level, request


def fcl_casts(level, request, p, d):
    """fcl's time of impact per cast (1.0: no contact)."""
    import fcl
    ball = fcl.CollisionObject(fcl.Sphere(RADIUS), fcl.Transform())
    still = fcl.Transform()
    out = np.empty(len(p))
    for k in range(len(p)):
        ball.setTransform(fcl.Transform(p[k]))
        result = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(ball, fcl.Transform(p[k] + d[k]), level, still, request, result)
        out[k] = result.time_of_contact if result.is_collide else 1.0
    return out


def time_fcl(level, request, p, d, rounds):
    fcl_casts(level, request, p[:100], d[:100])                     # warm up
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        toc = fcl_casts(level, request, p, d)
        times.append(time.perf_counter() - start)
    return statistics.median(times), toc


# ------------------------------------------------------------ the reference
def _distance_segments(p, a, b):
    ab = b - a
    s = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.einsum("ij,ij->i", ab, ab), 0.0, 1.0)
    return np.linalg.norm(p - (a + s[:, None] * ab), axis=1)


def distance_triangles(q, a, b, c):
    """Exact distance of the point ``q (3,)`` to each triangle ``a, b, c (m, 3)``."""
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1)[:, None]
    h = np.einsum("ij,ij->i", q - a, n)
    foot = q - h[:, None] * n
    inside = np.ones(len(a), dtype=bool)
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= np.einsum("ij,ij->i", np.cross(v - u, foot - u), n) >= 0.0
    qq = np.broadcast_to(q, a.shape)
    edges = np.minimum(np.minimum(_distance_segments(qq, a, b), _distance_segments(qq, b, c)),
                       _distance_segments(qq, c, a))
    return np.where(inside, np.abs(h), edges)


def reference(vertices, triangles, p, d, eps=1e-10, steps=100000):
    """Time of impact of the sphere cast from ``p`` by ``d`` by sphere tracing (1.0: none).

    ``t += (distance - radius) / |d|`` never steps past a surface; the
    answer is where the gap falls under ``eps`` (within about ``eps`` of the
    contact, never after it). Only the triangles whose boxes the swept
    sphere's box meets are looked at.
    """
    corners = vertices[triangles]
    lo = np.minimum(p, p + d) - RADIUS - 1e-6
    hi = np.maximum(p, p + d) + RADIUS + 1e-6
    near = np.all(corners.max(axis=1) >= lo, axis=1) & np.all(corners.min(axis=1) <= hi, axis=1)
    a, b, c = (corners[near, k] for k in range(3))
    if len(a) == 0:
        return 1.0
    length = np.linalg.norm(d)
    t = 0.0
    for _ in range(steps):
        gap = distance_triangles(p + t * d, a, b, c).min() - RADIUS
        if gap <= eps:
            return t
        t += gap / length
        if t > 1.0:
            return 1.0
    return t


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--casts", type=int, default=1_000_000)
    parser.add_argument("--fcl-casts", type=int, default=10_000)
    parser.add_argument("--fcl-steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--check", type=int, default=200)
    parser.add_argument("--only", choices=("sidestep", "fcl"))
    args = parser.parse_args(argv)

    import sidestep
    vertices, triangles = mesh()
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    p, d = casts(world, vertices, max(args.casts, args.fcl_casts, args.check))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = []
    ours = theirs = None
    if args.only in (None, "sidestep"):
        n = args.casts
        seconds, hits = time_sidestep(world, p[:n], d[:n], args.rounds)
        ours = hits
        rows.append((f"sidestep cast_many ({sidestep.threads.thread_count()} threads)", n,
                     seconds))
        seconds1, _ = time_sidestep(world, p[:n], d[:n], args.rounds, threads=1)
        rows.append(("sidestep cast_many (1 thread)", n, seconds1))
    if args.only in (None, "fcl"):
        n = args.fcl_casts
        level, request = fcl_scene(vertices, triangles, args.fcl_steps)
        seconds, theirs = time_fcl(level, request, p[:n], d[:n], args.rounds)
        rows.append((f"python-fcl continuousCollide (naive, {args.fcl_steps} steps; 1 thread)",
                     n, seconds))

    width = max(len(r[0]) for r in rows)
    print(f"W9 3D: sphere casts (radius {RADIUS} m, {SHORTEST:g} to {LONGEST:g} m) through "
          f"the Recast dungeon ({len(triangles):,} triangles); median of {args.rounds}; "
          f"{os.cpu_count()} cores, load {load:.2f} before")
    print(f"{'library':<{width}}  {'casts':>9}  {'seconds':>8}  {'casts/s':>11}")
    for name, n, seconds in rows:
        print(f"{name:<{width}}  {n:>9,}  {seconds:>8.3f}  {n / seconds:>11,.0f}")
    if len(rows) == 3:
        rate = [n / seconds for _, n, seconds in rows]
        print(f"sidestep / fcl, casts per second: {rate[0] / rate[2]:,.0f}x all threads, "
              f"{rate[1] / rate[2]:,.0f}x one thread")
    if ours is not None:
        print(f"sidestep: {np.count_nonzero(ours.hit) / len(ours.hit):.1%} of the casts hit")

    # The check: a seeded sample against sphere tracing.
    rng = np.random.default_rng(SEED + 1)
    pool = min(args.casts if ours is not None else args.fcl_casts,
               args.fcl_casts if theirs is not None else args.casts)
    sample = rng.choice(pool, size=min(args.check, pool), replace=False)
    ref = np.array([reference(vertices, triangles, p[k], d[k]) for k in sample])
    length = np.linalg.norm(d[sample], axis=1)
    print(f"check: {len(sample)} casts against sphere tracing on exact NumPy distances "
          f"({np.count_nonzero(ref < 1.0)} hits); time of impact minus the reference, in m "
          f"along the cast:")
    for name, toc in (("sidestep", None if ours is None else ours.fraction[sample]),
                      ("python-fcl", None if theirs is None else theirs[sample])):
        if toc is None:
            continue
        gap = (toc - ref) * length
        print(f"  {name:<10}  earliest {gap.min():+.3g}, latest {gap.max():+.3g}, "
              f"max |disagreement| {np.abs(gap).max():.3g}; hit/miss disagreements "
              f"{np.count_nonzero((toc < 1.0) != (ref < 1.0))}")


if __name__ == "__main__":
    main()
