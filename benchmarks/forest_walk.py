"""Moves per second for one agent walking through a forest of 2,000 trees and 200 walls.

The scene follows the peer benchmark's W1 recipe (200 x 200 m, trees of radius
0.3-1.0 m that do not overlap, walls 2-10 m long, four border walls, an agent of
radius 0.4 m taking 20,000 steps of 0.15 m with a random-walk heading), built
here with its own seed so the script runs without ``../shared``.

Run: ``python benchmarks/forest_walk.py [--frames N] [--repeats R]``
Prints the median and range of frames per second over the repeats, and the
correctness figures (penetrating frames, metres travelled).
"""
import argparse
import statistics
import time

import numpy as np

import sidestep


def forest(seed=1, size=200.0, n_trees=2000, n_walls=200):
    """Trees (n, 3) [x, y, r] and walls (m, 4) [ax, ay, bx, by], W1-style."""
    rng = np.random.default_rng(seed)
    trees = []
    while len(trees) < n_trees:
        x, y = rng.uniform(0, size, 2)
        r = rng.uniform(0.3, 1.0)
        if all((x - a) ** 2 + (y - b) ** 2 > (r + c) ** 2 for a, b, c in trees[-400:]) and \
                all((x - a) ** 2 + (y - b) ** 2 > (r + c) ** 2 for a, b, c in trees):
            trees.append((x, y, r))
    trees = np.array(trees)
    walls = []
    while len(walls) < n_walls:
        a = rng.uniform(0, size, 2)
        ang = rng.uniform(0, 2 * np.pi)
        b = a + rng.uniform(2, 10) * np.array([np.cos(ang), np.sin(ang)])
        if (b < 0).any() or (b > size).any():
            continue
        walls.append((*a, *b))
    walls += [(0, 0, size, 0), (size, 0, size, size), (size, size, 0, size), (0, size, 0, 0)]
    return trees, np.array(walls, dtype=float)


def build_world(trees, walls):
    world = sidestep.World2D()
    world.add_circles(trees[:, :2], trees[:, 2])
    world.add_walls(walls[:, :2], walls[:, 2:4])
    return world


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    trees, walls = forest()
    world = build_world(trees, walls)
    radius = 0.4
    rng = np.random.default_rng(4)
    heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.3, args.frames))
    disp = 0.15 * np.column_stack([np.cos(heading), np.sin(heading)])
    start = np.array([100.0, 100.0])
    start = world.move(start, (0.0, 0.0), radius=radius).position   # free spot; warms the JIT
    rates = []
    for _ in range(args.repeats):
        p = start
        path = np.empty((args.frames, 2))
        t0 = time.perf_counter()
        for k in range(args.frames):
            p = world.move(p, disp[k], radius=radius).position
            path[k] = p
        rates.append(args.frames / (time.perf_counter() - t0))
    # The per-frame path of a game loop: Agent.step, same kernel, two floats out.
    steps = disp.tolist()
    agent_rates = []
    for _ in range(args.repeats):
        agent = sidestep.Agent(world, start, radius=radius)
        t0 = time.perf_counter()
        for dx, dy in steps:
            agent.step(dx, dy)
        agent_rates.append(args.frames / (time.perf_counter() - t0))
    assert tuple(agent.position) == tuple(path[-1]), "Agent.step and World2D.move disagree"
    gap = world.clearance(path) - radius
    travelled = np.hypot(*np.diff(np.vstack([start, path]), axis=0).T).sum()
    print(f"forest walk: {len(trees)} trees, {len(walls)} walls, agent radius {radius} m, "
          f"{args.frames} frames x {args.repeats} repeats")
    print(f"  World2D.move: {statistics.median(rates):,.0f} frames/s median "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f})")
    print(f"  Agent.step:   {statistics.median(agent_rates):,.0f} frames/s median "
          f"(min {min(agent_rates):,.0f}, max {max(agent_rates):,.0f})")
    print(f"  penetrating frames: {int((gap < -1e-9).sum())}; smallest gap {gap.min():.2e} m; "
          f"travelled {travelled:,.0f} m of {0.15 * args.frames:,.0f} m")


if __name__ == "__main__":
    main()
