"""Does a move depend on where the level is? The same moves at the origin and moved far away.

Rounding is relative: a level 10 km from the origin has coordinates whose last bit
is about 2e-12 m, where one at the origin has 1e-16. A collide-and-slide that
decides anything (a contact or not, a step or a wall, a seam or an edge) on a
tolerance that scales with the coordinates, or on a comparison that rounding can
flip, walks a different path in the moved copy. This script counts how often that
happens, two ways:

* **single moves** (``--levels``): on each OBJ level, ``--moves`` seeded
  ``World3D.move`` calls of a sphere (half of them starting where a drop onto
  the level landed, resting on it; the other half from free points), each
  compared with the same move in a copy of the level moved by ``--offset``
  (default (1e4, 1e4, -1e4)); a move *parts* when the two ends differ by more
  than 1e-6 m. The levels default to the four ``pybullet_data`` scenes (``pip
  install pybullet``) the issue names, plus any paths given.
* **character legs** (``--dungeon``): a seeded 20,000-frame random walk of a
  :class:`~sidestep.Character` (radius 0.3 m, height 1.8 m, steps of 0.3 m,
  wishes of about 3 m/s that change every 100 frames, a respawn after a fall
  off the level) through the Recast dungeon, cut into 200 legs of 100 frames;
  each leg is walked again by two fresh characters from the leg's start, one in
  the level and one in a copy moved by (5000, 0, 5000). Prints the legs that
  part by more than 1e-6 m, the frames that ended on the iteration cap and the
  share of the asked motion those frames kept.

Run::

    python benchmarks/offset_invariance.py [--levels] [--dungeon] [--moves 5000]
"""
import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

import sidestep

PYBULLET_LEVELS = ("roboschool/models_outdoor/stadium/stadium.obj", "duck.obj",
                   "teddy2_VHACD_CHs.obj", "samurai_monastry.obj")
DUNGEON = Path(__file__).resolve().parents[2] / "shared" / "data" / "meshes" / "recast" / \
    "dungeon.obj"
PART = 1e-6


def read_mesh(path, reader="sidestep"):
    """``(vertices (v, 3), triangles (t, 3))`` of an OBJ file, read by sidestep or trimesh.

    trimesh keeps a vertex per texture coordinate (``process=False``), so its
    triangles share fewer corners by index than sidestep's: the same surface
    with its seams unwelded.
    """
    if reader == "trimesh":
        import trimesh
        from sidestep.degenerate import drop_degenerate
        mesh = trimesh.load(path, force="mesh", process=False)
        vertices = np.asarray(mesh.vertices, float)
        return vertices, drop_degenerate(vertices, mesh.faces).triangles
    level = sidestep.load(path)
    vertices, triangles = [], []
    base = 0
    geometry = level.world.geometry("mesh")
    for v, t in zip(geometry["vertices"], geometry["triangles"]):
        vertices.append(np.asarray(v, float))
        triangles.append(np.asarray(t, np.int64) + base)
        base += len(v)
    return np.vstack(vertices), np.vstack(triangles)


def world_of(vertices, triangles, offset, up):
    world = sidestep.World3D(up=up)
    world.add_mesh(vertices + offset, triangles)
    return world


def level_moves(vertices, triangles, up, count, rng):
    """Seeded moves over a level: ``(starts (n, 3), displacements (n, 3), radii (n,))``."""
    lo = vertices.min(axis=0)
    hi = vertices.max(axis=0)
    size = float(np.linalg.norm(hi - lo))
    # Radii from a thin probe to a body a twentieth of the level across.
    radius = np.array([float(f"{f * size:.1g}") for f in (0.004, 0.017, 0.05)])[
        rng.integers(0, 3, count)]
    axis = "xyz".index(up)
    world = world_of(vertices, triangles, 0.0, up)
    pad = np.full(3, 0.1 * size)
    pad[axis] = 0.1 * size
    starts = rng.uniform(lo - pad, hi + pad, (count, 3))
    starts[:, axis] = rng.uniform(lo[axis] + radius, hi[axis] + pad[axis])
    # Half the starts rest on the level: where a drop from there lands.
    drop = np.zeros(3)
    drop[axis] = -size
    for k in range(0, count, 2):
        starts[k] = world.move(starts[k], drop, radius=radius[k]).position
    lengths = rng.uniform(0.0, 0.15 * size, count)
    headings = rng.normal(size=(count, 3))
    headings /= np.linalg.norm(headings, axis=1)[:, None]
    # Resting starts mostly glide: their motion leans into the floor a little.
    headings[::2, axis] = -np.abs(headings[::2, axis]) * 0.1
    headings /= np.linalg.norm(headings, axis=1)[:, None]
    return starts, headings * lengths[:, None], radius


def compare_level(path, up, count, offset, seed, reader):
    vertices, triangles = read_mesh(path, reader)
    rng = np.random.default_rng(seed)
    starts, moves, radius = level_moves(vertices, triangles, up, count, rng)
    here = world_of(vertices, triangles, 0.0, up)
    there = world_of(vertices, triangles, offset, up)
    parted = []
    capped = [0, 0]
    times = []
    for k in range(count):
        t0 = time.perf_counter()
        a = here.move(starts[k], moves[k], radius=radius[k])
        times.append(time.perf_counter() - t0)
        b = there.move(starts[k] + offset, moves[k], radius=radius[k])
        gap = float(np.max(np.abs((b.position - offset) - a.position)))
        capped[0] += a.stop == "max_iterations"
        capped[1] += b.stop == "max_iterations"
        if gap > PART:
            parted.append((gap, k, a.stop, b.stop))
    parted.sort(reverse=True)
    return dict(level=Path(path).name, triangles=len(triangles),
                radius="/".join(f"{r:g}" for r in np.unique(radius)),
                parted=len(parted), worst=parted[0][0] if parted else 0.0,
                capped=capped, examples=parted[:3], slowest=max(times),
                median_us=1e6 * float(np.median(times)))


def dungeon_walk(world, feet, frames, rng):
    """The reference walk: ``(feet (frames + 1, 3), velocities (frames, 3), respawns, capped)``,
    ``capped`` the share of the level motion asked that each frame on the iteration cap kept."""
    hero = sidestep.Character(world, feet, radius=0.3, height=1.8, step_height=0.3)
    path = [hero.position.copy()]
    wishes = []
    respawns = set()
    capped = []
    wish = np.zeros(3)
    for f in range(frames):
        if f % 100 == 0:
            angle = rng.uniform(0.0, 2.0 * math.pi)
            speed = rng.uniform(2.5, 3.5)
            wish = np.array((speed * math.cos(angle), 0.0, speed * math.sin(angle)))
        before = hero.position.copy()
        if hero.update(wish, 1.0 / 60.0) == "max_iterations":
            asked = np.linalg.norm(wish) / 60.0
            capped.append(np.linalg.norm((hero.position - before)[[0, 2]]) / asked)
        if hero.position[1] < -20.0:
            hero = sidestep.Character(world, feet, radius=0.3, height=1.8, step_height=0.3)
            respawns.add(f + 1)
        path.append(hero.position.copy())
        wishes.append(wish)
    return np.array(path), np.array(wishes), respawns, capped


def compare_dungeon(frames, leg, offset, seed):
    level = sidestep.load(DUNGEON)
    here = level.world
    vertices, triangles = read_mesh(DUNGEON)
    there = world_of(vertices, triangles, offset, "y")
    from sidestep.demo_character import START
    feet = here.raycast((START[0], 12.0, START[1]), (0.0, -1.0, 0.0)).point + (0.0, 0.01, 0.0)
    path, wishes, _, walk_capped = dungeon_walk(here, feet, frames, np.random.default_rng(seed))
    parted = 0
    worst = 0.0
    capped = 0
    kept = []
    for start in range(0, frames, leg):
        a = sidestep.Character(here, path[start], radius=0.3, height=1.8, step_height=0.3)
        b = sidestep.Character(there, path[start] + offset, radius=0.3, height=1.8,
                               step_height=0.3)
        gap = 0.0
        for f in range(start, min(start + leg, frames)):
            for hero, shift in ((a, 0.0), (b, offset)):
                before = hero.position.copy()
                stop = hero.update(wishes[f], 1.0 / 60.0)
                if stop == "max_iterations":
                    capped += 1
                    asked = np.linalg.norm(wishes[f]) / 60.0
                    moved = np.linalg.norm((hero.position - before)[[0, 2]])
                    kept.append(moved / asked if asked > 0 else 1.0)
            gap = max(gap, float(np.max(np.abs((b.position - offset) - a.position))))
        parted += gap > PART
        worst = max(worst, gap)
    return dict(legs=math.ceil(frames / leg), parted=parted, worst=worst, capped=capped,
                kept=kept, walk_capped=walk_capped)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", help="more OBJ levels (y up)")
    parser.add_argument("--levels", action="store_true", help="single moves on OBJ levels")
    parser.add_argument("--dungeon", action="store_true", help="character legs in the dungeon")
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="only the levels whose name holds this")
    parser.add_argument("--reader", choices=("sidestep", "trimesh"), default="sidestep",
                        help="who reads the OBJ levels (trimesh: pip install trimesh)")
    args = parser.parse_args(argv)
    if not (args.levels or args.dungeon):
        args.levels = args.dungeon = True
    if args.levels:
        paths = [(p, "y") for p in args.paths]
        try:
            import pybullet_data
            root = Path(pybullet_data.getDataPath())
            paths = [(root / p, "z" if "stadium" in p else "y") for p in PYBULLET_LEVELS] + paths
        except ImportError:
            print("pybullet_data not installed (pip install pybullet): its levels skipped")
        offset = np.array((1e4, 1e4, -1e4))
        print(f"single moves, offset {offset.tolist()}, parted: ends more than {PART} m apart, "
              f"levels read by {args.reader}")
        print("| level | triangles | radius | moves | parted | worst | capped (0 / offset) "
              "| median move | slowest |")
        print("|---|---|---|---|---|---|---|---|---|")
        for path, up in paths:
            if args.only not in Path(path).name:
                continue
            try:
                r = compare_level(path, up, args.moves, offset, args.seed, args.reader)
            except sidestep.LevelError as error:
                print(f"| {Path(path).name} | not read: {error} |")
                continue
            print(f"| {r['level']} | {r['triangles']} | {r['radius']} | {args.moves} | "
                  f"{r['parted']} | {r['worst']:.3g} m | {r['capped'][0]} / {r['capped'][1]} | "
                  f"{r['median_us']:.0f} us | {1e3 * r['slowest']:.1f} ms |")
            for gap, k, sa, sb in r["examples"]:
                print(f"    move {k}: {gap:.3g} m apart, {sa} / {sb}")
            sys.stdout.flush()
    if args.dungeon:
        offset = np.array((5000.0, 0.0, 5000.0))
        r = compare_dungeon(args.frames, 100, offset, args.seed)
        kept = np.array(r["kept"])
        walk = np.array(r["walk_capped"])
        print(f"dungeon walk of {args.frames} frames: {len(walk)} frames on the iteration cap"
              + (f", level motion kept: min {walk.min():.0%}, median {np.median(walk):.0%}"
                 if len(walk) else ""))
        print(f"dungeon legs, offset {offset.tolist()}: {r['parted']} of {r['legs']} part "
              f"(worst {r['worst']:.3g} m); frames on the iteration cap in the legs: "
              f"{r['capped']}"
              + (f", level motion kept: min {kept.min():.0%}, median {np.median(kept):.0%}"
                 if len(kept) else ""))


if __name__ == "__main__":
    main()
