"""Build time, memory and query cost of the 3D broadphase (``kernels3d.bvh``).

Levels: a terrain grid (two triangles per 1 m cell, heights 0-2 m, z up)
of 10k to 1M triangles, the same density at every size; and a mix of the
same terrain, one in a hundred triangles huge (up to 50 m across) and
three in ten tiny (1 cm clutter at 1 m above ground). For each: build time (CPU
seconds of this process, on one core; the wall time beside it when the
machine is shared), nodes, leaves, depth, bytes per primitive.

Then the per-query cost at fixed density as the level grows (it should
stay flat; the tree's depth grows as log n): 20,000 queries of each kind at
random places, each driving the cursor and testing leaf boxes as its
narrowphase (a box-only stand-in for the triangle tests):

- ``ray down``: nearest hit of a vertical ray from 50 m up (shrinking t_max);
- ``ray 20 m``: a slanted ray of 20 m from 1 m above ground;
- ``box 2 m``: every primitive in a 1 x 1 x 2 m box (a capsule's sweep);
- ``nearest``: the nearest primitive box to a point 1 m above ground.

Medians of ``--repeats`` runs, CPU nanoseconds per query, with the leaves
visited per query; once at random places (every query a cache miss at
every level of a large tree) and once in rows (coherent, as a walk or a
camera's rays come).

Run: ``python benchmarks/bvh_build.py [--sizes 10000 100000 1000000] [--repeats 3]``
"""
import argparse
import math
import statistics
import time

import numpy as np
from numba import njit

from sidestep.kernels3d.bvh import (build_bvh, inverse, new_cursor, next_leaf_box,
                                    next_leaf_nearest, next_leaf_ray, start_box,
                                    start_nearest, start_ray)


def terrain(n_triangles, seed=0):
    """Boxes of a height grid's triangles, ``(n, 6)``, and the side in metres."""
    rng = np.random.default_rng(seed)
    k = max(1, int(round(math.sqrt(n_triangles / 2))))
    h = rng.uniform(0.0, 2.0, (k + 1, k + 1))
    i, j = np.meshgrid(np.arange(k), np.arange(k))
    i = i.ravel()
    j = j.ravel()
    c = np.stack([h[j, i], h[j, i + 1], h[j + 1, i], h[j + 1, i + 1]], 1)
    out = []
    for tri in ((0, 1, 3), (0, 3, 2)):
        z = c[:, tri]
        out.append(np.column_stack([i, j, z.min(1), i + 1.0, j + 1.0, z.max(1)]))
    return np.concatenate(out), float(k)


#: Largest side (m) of a huge triangle's box in the mixed level: fixed, so
#: the density (how many boxes cover a point) is the same at every size.
HUGE = 50.0


def mixed(n_triangles, seed=0):
    """Terrain plus huge (1 in 100) and tiny (3 in 10) triangles, ``n`` in all."""
    rng = np.random.default_rng(seed + 1)
    n_huge = n_triangles // 100
    n_tiny = 3 * n_triangles // 10
    ground, side = terrain(n_triangles - n_huge - n_tiny, seed)
    lo = rng.uniform(0.0, side, (n_huge, 3)) * [1, 1, 0.0]
    huge = np.hstack([lo, lo + rng.uniform(0.0, 1.0, (n_huge, 3)) * [HUGE, HUGE, 10.0]])
    lo = rng.uniform(0.0, side, (n_tiny, 3)) * [1, 1, 0.0] + [0, 0, 1.0]
    tiny = np.hstack([lo, lo + rng.uniform(0.0, 0.01, (n_tiny, 3))])
    return rng.permutation(np.concatenate([ground, huge, tiny])), side


@njit(cache=False)
def _enter(boxes, p, ox, oy, oz, dx, dy, dz, t_max):
    # Where the ray enters primitive box p before t_max, or inf (the stand-in
    # narrowphase: a slab test with divisions, as the brute force in the tests).
    lo = 0.0
    hi = t_max
    o = (ox, oy, oz)
    d = (dx, dy, dz)
    for a in range(3):
        if d[a] == 0.0:
            if o[a] < boxes[p, a] or o[a] > boxes[p, a + 3]:
                return math.inf
            continue
        t1 = (boxes[p, a] - o[a]) / d[a]
        t2 = (boxes[p, a + 3] - o[a]) / d[a]
        lo = max(lo, min(t1, t2))
        hi = min(hi, max(t1, t2))
    return lo if lo <= hi else math.inf


@njit(cache=False)
def run_queries(tree, boxes, kind, starts, dirs, nodes, keys, state):
    """Run every query of one kind; returns leaves visited (a checksum of work)."""
    visited = 0
    for q in range(starts.shape[0]):
        ox, oy, oz = starts[q, 0], starts[q, 1], starts[q, 2]
        dx, dy, dz = dirs[q, 0], dirs[q, 1], dirs[q, 2]
        if kind <= 1:
            t_max = math.inf if kind == 0 else 1.0
            ix, iy, iz = inverse(dx), inverse(dy), inverse(dz)
            start_ray(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, t_max)
            while True:
                first, count, _ = next_leaf_ray(tree, nodes, keys, state, ox, oy, oz,
                                                ix, iy, iz, t_max)
                if count == 0:
                    break
                visited += 1
                for k in range(first, first + count):
                    t = _enter(boxes, tree.order[k], ox, oy, oz, dx, dy, dz, t_max)
                    if t < t_max:
                        t_max = t
        elif kind == 2:
            start_box(tree, nodes, state)
            hits = 0
            while True:
                first, count = next_leaf_box(tree, nodes, state, ox - 0.5, oy - 0.5, oz - 1.0,
                                             ox + 0.5, oy + 0.5, oz + 1.0)
                if count == 0:
                    break
                visited += 1
                for k in range(first, first + count):
                    p = tree.order[k]
                    if (boxes[p, 0] <= ox + 0.5 and boxes[p, 3] >= ox - 0.5
                            and boxes[p, 1] <= oy + 0.5 and boxes[p, 4] >= oy - 0.5
                            and boxes[p, 2] <= oz + 1.0 and boxes[p, 5] >= oz - 1.0):
                        hits += 1
            visited += 0 * hits
        else:
            bound = math.inf
            start_nearest(tree, nodes, keys, state, ox, oy, oz, bound)
            while True:
                first, count, _ = next_leaf_nearest(tree, nodes, keys, state, ox, oy, oz, bound)
                if count == 0:
                    break
                visited += 1
                for k in range(first, first + count):
                    p = tree.order[k]
                    gx = max(boxes[p, 0] - ox, 0.0, ox - boxes[p, 3])
                    gy = max(boxes[p, 1] - oy, 0.0, oy - boxes[p, 4])
                    gz = max(boxes[p, 2] - oz, 0.0, oz - boxes[p, 5])
                    bound = min(bound, math.sqrt(gx * gx + gy * gy + gz * gz))
    return visited


KINDS = ["ray down", "ray 20 m", "box 2 m", "nearest"]


def queries(side, n, rng, coherent):
    """Start points and directions ``(n, 3)`` for each kind of query.

    ``coherent``: the places sorted along rows 8 m wide, as an agent's
    steps or a camera's rays come, so successive queries share tree nodes.
    """
    xy = rng.uniform(1.0, max(side - 1.0, 1.5), (n, 2))
    if coherent:
        row = np.floor(xy[:, 1] / 8.0)
        xy = xy[np.lexsort((xy[:, 0] * np.where(row % 2, -1, 1), row))]
    down = (np.column_stack([xy, np.full(n, 50.0)]), np.tile([0.0, 0.0, -1.0], (n, 1)))
    ang = rng.uniform(0, 2 * np.pi, n)
    slant = np.column_stack([np.cos(ang), np.sin(ang), np.full(n, -0.15)]) * 20.0
    ground = np.column_stack([xy, np.full(n, 1.0)])
    return [down, (ground + [0, 0, 2.0], slant), (ground, slant), (ground, slant)]


def measure(boxes, side, repeats, n_queries, rng, coherent):
    t0 = time.process_time()
    w0 = time.perf_counter()
    tree = build_bvh(boxes)
    build_cpu = time.process_time() - t0
    build_wall = time.perf_counter() - w0
    size = sum(a.nbytes for a in (tree.boxes, tree.links, tree.parents, tree.order,
                                  tree.leaf_of))
    row = {"n": len(boxes), "build_cpu": build_cpu, "build_wall": build_wall,
           "bytes": size / len(boxes), "nodes": tree.boxes.shape[0], "leaves": tree.leaves,
           "depth": tree.depth}
    nodes, keys, state = new_cursor(tree)
    for kind, (starts, dirs) in enumerate(queries(side, n_queries, rng, coherent)):
        times = []
        for _ in range(repeats):
            t0 = time.process_time()
            visited = run_queries(tree, boxes, kind, starts, dirs, nodes, keys, state)
            times.append((time.process_time() - t0) / n_queries)
        row[KINDS[kind]] = (statistics.median(times) * 1e9, visited / n_queries)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--queries", type=int, default=20_000)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    # Warm up: compile the kernels outside the timings.
    warm, side = terrain(200)
    measure(warm, side, 1, 10, rng, False)
    header = (f"{'level':>8} {'triangles':>10} {'build cpu s':>11} {'wall s':>7} {'B/prim':>7} "
          f"{'leaves':>8} {'depth':>5}  " + "  ".join(f"{k + ' ns':>13} {'leaves':>6}"
                                                     for k in KINDS))
    for coherent in (False, True):
        print("\nqueries at random places" if not coherent else
              "\nqueries in rows (coherent, as a walk or a camera's rays)")
        print(header)
        for name, make in (("terrain", terrain), ("mixed", mixed)):
            for n in args.sizes:
                boxes, side = make(n)
                r = measure(boxes, side, args.repeats, args.queries, rng, coherent)
                cells = "  ".join(f"{r[k][0]:13.0f} {r[k][1]:6.1f}" for k in KINDS)
                print(f"{name:>8} {r['n']:>10} {r['build_cpu']:11.2f} {r['build_wall']:7.2f} "
                      f"{r['bytes']:7.1f} {r['leaves']:8} {r['depth']:5}  {cells}", flush=True)


if __name__ == "__main__":
    main()
