"""What a World3D costs: one capsule move on real and growing levels, the hierarchy's build.

Prints, for the Recast dungeon (``../shared/data/meshes/recast/dungeon.obj``, if
present) and for terrains of 10,000 to 1,000,000 triangles at the same
triangle size (a sampled height function, 1 m cells): the time to build the
bounding volume hierarchy, its bytes per triangle, and the median time of one
``World3D.move`` of a capsule (radius 0.3 m, 1.8 m tall) walking over the
surface (each move 0.15 m with a small pull down, as a character's frame),
and of ``move_many`` per agent. ``B/tri`` is the hierarchy's bytes per
triangle, ``rows B/tri`` those of the triangle rows rays read. If the hierarchy works, the cost of a move
stays nearly flat as the level grows a hundredfold.

Run: ``python benchmarks/world3d_costs.py [--sizes 10000 1000000] [--repeats R]``
"""
import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import sidestep

DUNGEON = Path(__file__).resolve().parents[2] / "shared" / "data" / "meshes" / "recast" / \
    "dungeon.obj"


def terrain(triangles):
    """A rolling terrain of about ``triangles`` triangles, 1 m cells, y up."""
    k = int(np.sqrt(triangles / 2)) + 1
    x, z = np.meshgrid(np.arange(k, dtype=float), np.arange(k, dtype=float), indexing="ij")
    y = 3.0 * np.sin(x / 17.0) * np.cos(z / 23.0) + 0.5 * np.sin(x / 3.0 + z / 5.0)
    v = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    i = np.arange(k - 1)
    a = (i[:, None] * k + i[None, :]).ravel()
    t = np.concatenate([np.column_stack([a, a + 1, a + k + 1]),
                        np.column_stack([a, a + k + 1, a + k])])
    return v, t


def tree_bytes(world):
    """Bytes of the packed world's hierarchy arrays."""
    tree = world._store.pack().tree
    return sum(getattr(a, "nbytes", 0) for a in tree)


def walk(world, starts, frames, rng):
    """Median seconds of one ``move`` over ``frames`` frames of capsules walking from ``starts``."""
    times = []
    for p in starts:
        heading = rng.uniform(0, 2 * np.pi)
        d = np.array([0.15 * np.cos(heading), -0.05, 0.15 * np.sin(heading)])
        t0 = time.perf_counter()
        for _ in range(frames):
            p = world.move(p, d, radius=0.3, height=1.8).position
        times.append((time.perf_counter() - t0) / frames)
    return statistics.median(times)


def starts_above(world, n, rng):
    """``n`` points 1 m above the surface, by casting rays straight down."""
    lo, hi = world.bounds
    xz = rng.uniform(lo[[0, 2]] + 0.2 * (hi - lo)[[0, 2]], hi[[0, 2]] - 0.2 * (hi - lo)[[0, 2]],
                     (4 * n, 2))
    o = np.column_stack([xz[:, 0], np.full(len(xz), hi[1] + 5.0), xz[:, 1]])
    hits = world.raycast(o, np.tile([0.0, -1.0, 0.0], (len(o), 1)))
    p = hits.point[hits.hit] + [0.0, 1.0 + 1e-3, 0.0]
    return p[world.clearance(p) > 0.9][:n]


def measure(name, vertices, triangles, repeats, rng):
    t0 = time.perf_counter()
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    world.clearance(np.zeros(3))                   # packs the world and builds the hierarchy
    build = time.perf_counter() - t0
    starts = starts_above(world, 8, rng)
    move = statistics.median(walk(world, starts, 200, rng) for _ in range(repeats))
    p = np.repeat(starts, 500, axis=0)
    d = np.tile([0.15, -0.05, 0.0], (len(p), 1))
    t0 = time.perf_counter()
    world.move_many(p, d, radius=0.3, height=1.8)
    many = (time.perf_counter() - t0) / len(p)
    rows = world._store.pack().triangles.nbytes
    print(f"{name:>24} {len(triangles):>10,} {build:>9.2f} s {tree_bytes(world) / len(triangles):>8.0f}"
          f" {rows / len(triangles):>8.0f} {move * 1e6:>10.1f} us {many * 1e6:>10.2f} us")
    return move


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    warm = sidestep.World3D()
    warm.add_mesh(*terrain(200))
    warm.move((5.0, 5.0, 5.0), (0.1, -0.1, 0.1), radius=0.3, height=1.8)
    warm.move_many(np.full((1, 3), 5.0), np.full((1, 3), 0.1), radius=0.3, height=1.8)
    print(f"{'level':>24} {'triangles':>10} {'build':>11} {'B/tri':>8} {'rows B/tri':>8} "
          f"{'move':>13} {'move_many/agent':>13}")
    if DUNGEON.is_file():
        level = sidestep.load(DUNGEON)
        g = level.world.geometry("mesh")
        measure("recast dungeon", g["vertices"][0], g["triangles"][0], args.repeats, rng)
    costs = [measure(f"terrain {n:,}", *terrain(n), args.repeats, rng) for n in args.sizes]
    print(f"move at {args.sizes[-1]:,} vs {args.sizes[0]:,} triangles: "
          f"{costs[-1] / costs[0]:.2f}x")


if __name__ == "__main__":
    main()
