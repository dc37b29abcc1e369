"""Time per move at 1,000 and at 1,000,000 obstacles, at the same density.

Obstacles sit one per cell of a jittered square lattice (4.5 m spacing, the
density of the forest walk): nine in ten are trees of radius 0.3-1.0 m, one in
ten a wall up to 2 m long. One agent (radius 0.4 m) walks 20,000 steps of
0.15 m with ``World2D.move`` and again with ``Agent.step``; then 10,000 agents take one step with
``World2D.move_many``. If the broadphase works, the time per move stays flat
as the world grows a thousandfold.

Run: ``python benchmarks/scale.py [--sizes 1000 1000000] [--repeats R]``
"""
import argparse
import statistics
import time

import numpy as np

import sidestep

SPACING = 4.5


def lattice_world(n, seed=0):
    """``n`` obstacles on a jittered lattice; returns ``(world, side length)``."""
    rng = np.random.default_rng(seed)
    k = int(np.ceil(np.sqrt(n)))
    ij = np.stack(np.meshgrid(np.arange(k), np.arange(k)), -1).reshape(-1, 2)[:n]
    centers = (ij + 0.5) * SPACING + rng.uniform(-1.0, 1.0, (n, 2))
    is_wall = rng.random(n) < 0.1
    world = sidestep.World2D()
    c = centers[~is_wall]
    world.add_circles(c, rng.uniform(0.3, 1.0, len(c)))
    a = centers[is_wall]
    ang = rng.uniform(0, 2 * np.pi, len(a))
    half = rng.uniform(0.5, 1.0, len(a))[:, None] * np.column_stack([np.cos(ang), np.sin(ang)])
    world.add_walls(a - half, a + half)
    return world, k * SPACING


def walk(world, side, frames, rng):
    """Seconds per frame of one agent's walk: ``(World2D.move, Agent.step)``."""
    radius = 0.4
    heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.3, frames))
    disp = 0.15 * np.column_stack([np.cos(heading), np.sin(heading)])
    start = world.move((side / 2, side / 2), (0.0, 0.0), radius=radius).position
    p = start
    t0 = time.perf_counter()
    for k in range(frames):
        p = world.move(p, disp[k], radius=radius).position
    t_move = (time.perf_counter() - t0) / frames
    agent = sidestep.Agent(world, start, radius=radius)
    steps = disp.tolist()
    t0 = time.perf_counter()
    for dx, dy in steps:
        agent.step(dx, dy)
    return t_move, (time.perf_counter() - t0) / frames


def crowd(world, side, agents, rng):
    p = rng.uniform(0, side, (agents, 2))
    p = world.move_many(p, np.zeros_like(p), radius=0.4)   # free spots
    ang = rng.uniform(0, 2 * np.pi, agents)
    d = 0.2 * np.column_stack([np.cos(ang), np.sin(ang)])
    t0 = time.perf_counter()
    world.move_many(p, d, radius=0.4)
    return (time.perf_counter() - t0) / agents


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 1000000])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rows = []
    for n in args.sizes:
        t0 = time.perf_counter()
        world, side = lattice_world(n)
        world.clearance((0.0, 0.0))      # builds the broadphase
        build = time.perf_counter() - t0
        rng = np.random.default_rng(1)
        walk(world, side, 200, rng)      # warm-up
        crowd(world, side, 1000, rng)
        walks = [walk(world, side, 20000, rng) for _ in range(args.repeats)]
        singles = [m for m, _ in walks]
        steps = [a for _, a in walks]
        batch = [crowd(world, side, 10000, rng) for _ in range(args.repeats)]
        # Everything the kernels read: obstacle arrays and broadphase, packed.
        packed_bytes = world._store.pack().nbytes
        rows.append((n, build, statistics.median(singles), min(singles), max(singles),
                     statistics.median(steps), statistics.median(batch), packed_bytes / n))
    print(f"{'obstacles':>10} {'build s':>8} {'move() us/move':>24} {'Agent.step us':>14} "
          f"{'move_many us/agent':>19} {'bytes/obstacle':>15}")
    for n, build, med, lo, hi, step, bmed, mem in rows:
        print(f"{n:>10,} {build:>8.2f} {med * 1e6:>8.2f} ({lo * 1e6:.2f}-{hi * 1e6:.2f}) "
              f"{step * 1e6:>14.3f} {bmed * 1e6:>19.3f} {mem:>15.0f}")
    if len(rows) > 1:
        print(f"ratio largest/smallest: move() {rows[-1][2] / rows[0][2]:.2f}x, Agent.step "
              f"{rows[-1][5] / rows[0][5]:.2f}x, move_many {rows[-1][6] / rows[0][6]:.2f}x "
              "(the crowd is scattered over the whole level, so at the largest size its "
              "agents read memory no cache holds)")
    # Memory of circles alone: their arrays plus the broadphase, per circle.
    n = args.sizes[-1]
    rng = np.random.default_rng(2)
    k = int(np.ceil(np.sqrt(n)))
    ij = np.stack(np.meshgrid(np.arange(k), np.arange(k)), -1).reshape(-1, 2)[:n]
    circles = sidestep.World2D()
    circles.add_circles((ij + 0.5) * SPACING + rng.uniform(-1, 1, (n, 2)), rng.uniform(0.3, 1.0, n))
    packed = circles._store.pack().nbytes
    print(f"memory, {n:,} circles: {packed / n:.0f} bytes per circle as the kernels read them "
          f"(broadphase included), {circles._store.nbytes() / n:.0f} bytes per circle held in all "
          "(with the unpacked arrays kept for adding and removing)")


if __name__ == "__main__":
    main()
