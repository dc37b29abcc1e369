"""Moves from the boundary of the Polyanya navmeshes: how many end outside the walkable area.

An oracle for the level's edge (issue 31, section 4). Each navmesh of
``../shared/data/polygons2d/polyanya/meshes`` is loaded with
:func:`sidestep.load` (one-sided walls on its boundary); starts lie exactly ON
its boundary, half of them at boundary vertices (every kind of corner) and
half along boundary edges at a quarter, a half or three quarters of their
length (exact in binary for the meshes' whole-number vertices, so a start is
on the edge, not a rounding either side of it). From each start, 9 moves: 8
headings of length ``--length`` and a zero move, for each radius of
``--radii`` (0 is a point camera; 0.4 and 0.5 are agent sizes for these
maps, whose cells are 1 unit: ``tests/test_boundary.py`` uses 0.4). Starts
are drawn with a fixed seed; the default 161 starts make 1,449 moves per
radius, as in the issue.

Each end is judged by an independent reference, plain NumPy on the mesh
file (not the library's queries): **outside** when it lies neither inside the
region the mesh's boundary edges enclose (even-odd crossings of a ray to +x;
a boundary edge is a polygon edge no other polygon has) nor within 1e-9 of
them (on the edge is inside: interior edges between two polygons play no
part, so an end on one is not called outside for rounding); **too close**
when its distance to the nearest boundary edge is below ``radius - 1e-9``
(the slide's promise). A move is **bad** when either holds. A move is
**held** when its whole straight path is walkable by the same reference (17
points along it inside or on the edge and clear by the radius) and yet it
went less than half of it: the other way to fail at an edge, stopping where
nothing stops it (a start that overlaps the edge, radius > 0, is never
free, so only point cameras can be held).

Run: ``python benchmarks/navmesh_edges.py [--starts 161] [--radii 0,0.4,0.5]
[--length 0.5] [--show 3]`` (needs ``../shared/data``). Prints a row per mesh
and radius (moves, outside, too close, bad), the total, and the first few bad
moves with their start, displacement and end.
"""
import argparse
from pathlib import Path

import numpy as np

import sidestep
from sidestep.io.navmesh import _parse

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "polygons2d" / "polyanya"
MESHES = ["arena.mesh", "arena-merged.mesh", "aurora-merged.mesh"]
#: Share of the starts each mesh gets (the big one twice as many).
SHARES = [1, 1, 2]
#: Where along a boundary edge a start lies: exact in binary.
FRACTIONS = (0.25, 0.5, 0.75)
#: An end within this distance of the boundary is on it (inside).
ON_EDGE = 1e-9
HEADINGS = 8


def boundary_edges(path):
    """The mesh's boundary edges ``(k, 4)`` ``[ax, ay, bx, by]``: polygon edges no other
    polygon has, read from the file alone (orientation left as the polygon has it)."""
    vertices, polygons, _ = _parse(path)
    count = {}
    for _, corners, _ in polygons:
        for a, b in zip(corners, corners[1:] + corners[:1]):
            key = (min(a, b), max(a, b))
            count[key] = count.get(key, 0) + 1
    pairs = np.array([key for key, n in count.items() if n == 1])
    return np.hstack([vertices[pairs[:, 0]], vertices[pairs[:, 1]]])


def distance_to_edges(points, edges, chunk=64):
    """Distance ``(n,)`` from each point to the nearest of ``edges (k, 4)``."""
    a, b = edges[:, 0:2], edges[:, 2:4]
    e = b - a
    ll = (e * e).sum(axis=1)
    out = np.empty(len(points))
    for s in range(0, len(points), chunk):
        p = points[s:s + chunk, None, :]
        f = np.clip(((p - a) * e).sum(axis=2) / ll, 0.0, 1.0)
        q = a + f[:, :, None] * e
        out[s:s + chunk] = np.sqrt(((p - q) ** 2).sum(axis=2)).min(axis=1)
    return out


def enclosed(points, edges, chunk=64):
    """Whether each point lies inside the region ``edges`` bound (even-odd, ray to +x)."""
    ax, ay, bx, by = edges.T
    out = np.empty(len(points), dtype=bool)
    for s in range(0, len(points), chunk):
        x = points[s:s + chunk, 0:1]
        y = points[s:s + chunk, 1:2]
        crosses = (ay > y) != (by > y)
        at = ax + (y - ay) * (bx - ax) / np.where(crosses, by - ay, 1.0)
        out[s:s + chunk] = (crosses & (x < at)).sum(axis=1) % 2 == 1
    return out


def walkable(points, edges, radius):
    """Whether each point is inside or on the boundary and clear of it by ``radius``."""
    distance = distance_to_edges(points, edges)
    inside = enclosed(points, edges) | (distance <= ON_EDGE)
    return inside, distance, inside & (distance >= radius - 1e-9)


def boundary_starts(edges, n, rng):
    """``n`` points exactly on the boundary: half at edge ends (vertices), half along edges."""
    k = rng.integers(0, len(edges), n)
    f = np.where(np.arange(n) < n // 2, 0.0, rng.choice(FRACTIONS, n))
    return edges[k, 0:2] + f[:, None] * (edges[k, 2:4] - edges[k, 0:2])


def moves(starts, length):
    """Every start with the 8 headings of ``length`` and a zero move: ``(9 n, 2)`` twice."""
    angle = 2.0 * np.pi * np.arange(HEADINGS) / HEADINGS
    steps = np.vstack([length * np.c_[np.cos(angle), np.sin(angle)], [(0.0, 0.0)]])
    return np.repeat(starts, len(steps), axis=0), np.tile(steps, (len(starts), 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=161, help="starts over all meshes")
    parser.add_argument("--radii", default="0,0.4,0.5", help="comma-separated agent radii")
    parser.add_argument("--length", type=float, default=0.5, help="length of each move")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--show", type=int, default=3, help="bad moves listed per row")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"{DATA} is not present")
    radii = [float(r) for r in args.radii.split(",")]
    rng = np.random.default_rng(args.seed)
    counts = np.diff(np.round(np.cumsum([0] + SHARES) / sum(SHARES) * args.starts)).astype(int)
    print(f"{'mesh':<20} {'radius':>6} {'moves':>6} {'outside':>8} {'too close':>10} {'bad':>5} "
          f"{'held':>5}")
    total = np.zeros(5, dtype=int)
    for name, n in zip(MESHES, counts):
        path = DATA / "meshes" / name
        world = sidestep.load(path, scenarios=False).world
        edges = boundary_edges(path)
        positions, displacements = moves(boundary_starts(edges, n, rng), args.length)
        for radius in radii:
            ends = world.move_many(positions, displacements, radius=radius)
            inside, distance, _ = walkable(ends, edges, radius)
            outside = ~inside
            close = distance < radius - 1e-9
            bad = outside | close
            went = np.hypot(*(ends - positions).T)
            held = went < 0.5 * np.hypot(*displacements.T)
            path = positions[held, None, :] + \
                np.linspace(0, 1, 17)[:, None] * displacements[held, None, :]
            held[held] = walkable(path.reshape(-1, 2), edges, radius)[2].reshape(-1, 17).all(axis=1)
            row = np.array([len(ends), outside.sum(), close.sum(), bad.sum(), held.sum()])
            total += row
            print(f"{name:<20} {radius:>6g} {row[0]:>6} {row[1]:>8} {row[2]:>10} {row[3]:>5} "
                  f"{row[4]:>5}")
            for i in np.flatnonzero(bad | held)[:args.show]:
                what = "outside" if outside[i] else "too close" if close[i] else "held"
                print(f"    from {tuple(positions[i].tolist())} by "
                      f"{tuple(np.round(displacements[i], 6).tolist())} to "
                      f"{tuple(ends[i].tolist())}: {what}")
    print(f"{'all':<20} {'':>6} {total[0]:>6} {total[1]:>8} {total[2]:>10} {total[3]:>5} "
          f"{total[4]:>5}")


if __name__ == "__main__":
    main()
