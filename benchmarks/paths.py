"""Path finding on the real levels of ``../shared/data``: time per path, lengths against the files'.

For each Moving AI map, the grid A* of :mod:`sidestep.paths` runs on rows spread
over the map's ``.scen`` file and is compared with the file's optimal lengths;
for each Polyanya navmesh, A* + funnel runs on its scenarios and its any-angle
lengths are compared with the same (octile) optimal lengths.

Run: ``python benchmarks/paths.py [--rows N]`` (needs ``../shared/data``).
Prints, per level: rows, median and worst milliseconds per path (after one
warm-up path, so compiling is left out), the largest difference from the
file's length (grid) or the median and largest ratio path / octile optimum
(navmesh), and paths not found.
"""
import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import sidestep
from sidestep.paths import navigator

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
MAPS = ["dao/arena.map", "dao/den520d.map", "da2/ht_chantry.map", "bg/AR0602SR.map",
        "mazes/maze512-1-0.map", "rooms/32room_000.map", "dao/brc202d.map",
        "sc1/TheFrozenSea.map", "dao/orz900d.map"]
MESHES = [("arena.mesh", "arena.scen"), ("arena-merged.mesh", "arena.scen"),
          ("aurora-merged.mesh", "aurora.scen")]


def timed_routes(nav, scenarios, rows):
    """``(milliseconds, routes)`` for the chosen rows."""
    nav.route(scenarios.starts[0], scenarios.goals[0])           # compile / warm up
    times, routes = [], []
    for k in rows:
        t = time.perf_counter()
        routes.append(nav.route(scenarios.starts[k], scenarios.goals[k]))
        times.append((time.perf_counter() - t) * 1e3)
    return times, routes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100, help="scenario rows per level")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"{DATA} is not present")
    print(f"{'level':<22} {'rows':>5} {'median ms':>10} {'worst ms':>9}  lengths")
    for rel in MAPS:
        level = sidestep.load(DATA / "grid" / rel)
        sc = level.scenarios
        rows = np.linspace(0, len(sc.starts) - 1, args.rows).round().astype(int)
        times, routes = timed_routes(navigator(level), sc, rows)
        worst = max(abs(r.length - sc.lengths[k]) for r, k in zip(routes, rows) if r.found)
        lost = sum(not r.found for r in routes)
        print(f"{Path(rel).name:<22} {len(rows):>5} {statistics.median(times):>10.2f} "
              f"{max(times):>9.1f}  largest |A* - .scen| {worst:.2g}; {lost} not found")
    for mesh, scen in MESHES:
        level = sidestep.load(DATA / "polygons2d/polyanya/meshes" / mesh,
                              scenarios=DATA / "polygons2d/polyanya/scenarios" / scen)
        sc = level.scenarios
        rows = np.linspace(0, len(sc.starts) - 1, args.rows).round().astype(int)
        times, routes = timed_routes(navigator(level), sc, rows)
        ratio = [r.length / sc.lengths[k] for r, k in zip(routes, rows)
                 if r.found and sc.lengths[k] > 0]
        lost = sum(not r.found for r in routes)
        print(f"{mesh:<22} {len(rows):>5} {statistics.median(times):>10.2f} "
              f"{max(times):>9.1f}  path / octile optimum: median {np.median(ratio):.3f}, "
              f"largest {max(ratio):.4f}; {lost} not found")


if __name__ == "__main__":
    main()
