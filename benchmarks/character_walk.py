"""W5: one capsule character walking 20,000 frames with gravity through the Recast dungeon.

sidestep's :class:`~sidestep.Character` beside the character loops a Python game
developer would write with the peers:

* **Panda3D**: a ``CollisionCapsule`` with ``CollisionHandlerPusher`` (walls) and a
  ``CollisionRay`` down with ``CollisionHandlerFloor`` (floors, steps, falling),
  the dungeon as ``CollisionPolygon`` triangles grouped into nodes of 8 m cells so
  the traverser culls by node; one ``traverse`` per frame;
* **pybullet**: the dungeon as a static concave triangle mesh, a kinematic capsule
  (mass 0, moved by hand) per frame: move, then up to four passes pushing it out
  along ``getClosestPoints`` normals, then a ray down for the floor (snap within
  the step height, else fall with gravity).

The walk (the protocol of ``../shared/bench``): the same seeded tour for every
library, the waypoints of ``sidestep demo --3d`` walked there and back again until
20,000 frames have passed, at 4 m/s, 60 frames a second, gravity 9.81 m/s^2,
capsule radius 0.4 m and height 1.8 m, steps up to 0.3 m. Each library steers from
its own position (a wish towards its current waypoint, the next one once within
0.5 m, or after 600 frames without reaching it), so a library that gets stuck
shows as a shorter walk. One fresh process per library and round, a pause
before each, the order rotated every round. Afterwards, from the recorded feet,
an independent NumPy check (exact point-triangle distances from 9 points along
the capsule's axis to every triangle near it) counts the frames in which the
capsule is closer than its radius less 1e-6 m to the mesh, and the deepest such
overlap.

Run (needs panda3d and pybullet: ``pip install panda3d pybullet``)::

    python benchmarks/character_walk.py [--rounds 3] [--frames 20000] [--pause 2]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DUNGEON = Path(__file__).resolve().parents[1] / "src" / "sidestep" / "data" / "dungeon.obj"
RADIUS = 0.4
HEIGHT = 1.8
STEP = 0.3
SPEED = 4.0
DT = 1.0 / 60.0
GRAVITY = 9.81
ARRIVE = 0.5
GIVE_UP = 600
LIBRARIES = ("sidestep", "panda3d", "pybullet")


def mesh():
    """The dungeon's ``(vertices (v, 3), triangles (t, 3))``, y up, read with sidestep's OBJ reader."""
    from sidestep.io.obj import parse_obj
    vertices, triangles = parse_obj(DUNGEON)[:2]
    return np.asarray(vertices, float), np.asarray(triangles, np.int64)


def tour():
    """``(k, 2)`` waypoints (x, z): the demo's tour, then back again."""
    from sidestep.demo_character import START, TOUR
    there = np.vstack([[START], TOUR])
    return np.vstack([there, there[::-1][1:]])


def start_feet(vertices, triangles):
    import sidestep
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    from sidestep.demo_character import START
    hit = world.raycast([START[0], 12.0, START[1]], [0.0, -1.0, 0.0])
    return hit.point + (0.0, 0.01, 0.0)


def steer(frames, step_fn, feet):
    """Walk ``frames`` frames: ``step_fn(wish (3,)) -> feet (3,)``; returns ``(frames, 3)`` feet."""
    waypoints = tour()
    k = 1
    since = 0
    out = np.empty((frames, 3))
    for f in range(frames):
        gap = np.array([waypoints[k][0] - feet[0], 0.0, waypoints[k][1] - feet[2]])
        distance = float(np.hypot(gap[0], gap[2]))
        if distance < ARRIVE or since > GIVE_UP:
            k = (k + 1) % len(waypoints)
            since = 0
            gap = np.array([waypoints[k][0] - feet[0], 0.0, waypoints[k][1] - feet[2]])
            distance = float(np.hypot(gap[0], gap[2]))
        since += 1
        wish = gap * (SPEED / max(distance, 1e-9))
        feet = step_fn(wish)
        out[f] = feet
    return out


# ------------------------------------------------------------------ the libraries
def run_sidestep(vertices, triangles, frames):
    import sidestep
    t0 = time.perf_counter()
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    hero = sidestep.Character(world, start_feet(vertices, triangles), RADIUS, HEIGHT,
                              step_height=STEP, gravity=GRAVITY)
    hero.update((0.0, 0.0, 0.0), DT)              # compiled or loaded from the cache here
    built = time.perf_counter() - t0

    def step(wish):
        hero.update(wish, DT)
        return hero.position

    return built, step, hero.position


def run_panda3d(vertices, triangles, frames):
    from panda3d.core import (CollisionCapsule, CollisionHandlerFloor, CollisionHandlerPusher,
                              CollisionNode, CollisionPolygon, CollisionRay,
                              CollisionTraverser, NodePath, Point3)
    t0 = time.perf_counter()
    # Panda3D is z up: (x, y, z) here is (x, -z, y) there (a rotation, windings kept).
    def panda(p):
        return Point3(p[0], -p[2], p[1])

    root = NodePath("root")
    cells = {}
    centres = vertices[triangles].mean(axis=1)
    for t, c in zip(triangles, centres):
        key = (int(c[0] // 8), int(c[1] // 8), int(c[2] // 8))
        if key not in cells:
            cells[key] = root.attachNewNode(CollisionNode(f"level{len(cells)}"))
        a, b, d = (vertices[i] for i in t)
        if np.linalg.norm(np.cross(b - a, d - a)) > 1e-12:
            cells[key].node().addSolid(CollisionPolygon(panda(a), panda(b), panda(d)))
    for node in cells.values():
        node.node().setIntoCollideMask(1)
        node.node().setFromCollideMask(0)
    hero = root.attachNewNode("hero")
    feet = start_feet(vertices, triangles)
    hero.setPos(panda(feet))
    body = hero.attachNewNode(CollisionNode("body"))
    body.node().addSolid(CollisionCapsule(0, 0, RADIUS, 0, 0, HEIGHT - RADIUS, RADIUS))
    body.node().setFromCollideMask(1)
    body.node().setIntoCollideMask(0)
    ray = hero.attachNewNode(CollisionNode("ray"))
    ray.node().addSolid(CollisionRay(0, 0, STEP + 0.05, 0, 0, -1))
    ray.node().setFromCollideMask(1)
    ray.node().setIntoCollideMask(0)
    traverser = CollisionTraverser()
    pusher = CollisionHandlerPusher()
    pusher.addCollider(body, hero)
    floor = CollisionHandlerFloor()
    floor.addCollider(ray, hero)
    floor.setMaxVelocity(1e6)
    traverser.addCollider(body, pusher)
    traverser.addCollider(ray, floor)
    traverser.traverse(root)
    built = time.perf_counter() - t0

    def step(wish):
        p = hero.getPos()
        hero.setPos(p.x + wish[0] * DT, p.y - wish[2] * DT, p.z)
        traverser.traverse(root)
        q = hero.getPos()
        return np.array([q.x, q.z, -q.y])

    return built, step, feet


def run_pybullet(vertices, triangles, frames):
    import pybullet as pb
    t0 = time.perf_counter()
    client = pb.connect(pb.DIRECT)
    shape = pb.createCollisionShape(pb.GEOM_MESH, vertices=vertices.tolist(),
                                    indices=triangles.ravel().tolist(),
                                    flags=pb.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=client)
    level = pb.createMultiBody(0, shape, physicsClientId=client)
    # pybullet's capsule runs along its z: turned to stand along y.
    capsule = pb.createCollisionShape(pb.GEOM_CAPSULE, radius=RADIUS,
                                      height=HEIGHT - 2 * RADIUS, physicsClientId=client)
    upright = pb.getQuaternionFromEuler((-np.pi / 2, 0, 0))
    feet = start_feet(vertices, triangles)
    body = pb.createMultiBody(0, capsule, basePosition=(feet + (0, HEIGHT / 2, 0)).tolist(),
                              baseOrientation=upright, physicsClientId=client)
    state = {"centre": feet + (0.0, HEIGHT / 2, 0.0), "vy": 0.0}
    built = time.perf_counter() - t0

    def step(wish):
        c = state["centre"].copy()
        state["vy"] -= GRAVITY * DT
        c += wish * DT
        c[1] += state["vy"] * DT
        for _ in range(4):
            pb.resetBasePositionAndOrientation(body, c.tolist(), upright, physicsClientId=client)
            pb.performCollisionDetection(physicsClientId=client)
            points = pb.getClosestPoints(body, level, 0.0, physicsClientId=client)
            if not points:
                break
            deepest = min(points, key=lambda q: q[8])
            if deepest[8] >= 0.0:
                break
            normal = np.array(deepest[7])       # on B (the level), from B towards A
            c += normal * -deepest[8]
        # The floor: a ray down from the centre; snap within the step height.
        hit = pb.rayTest(c.tolist(), (c - (0.0, HEIGHT / 2 + STEP, 0.0)).tolist(),
                         physicsClientId=client)[0]
        if hit[0] == level and state["vy"] <= 0.0:
            floor_y = hit[3][1]
            if c[1] - HEIGHT / 2 <= floor_y + 1e-3 or hit[2] < 1.0:
                c[1] = max(c[1], floor_y + HEIGHT / 2)
                state["vy"] = 0.0
        state["centre"] = c
        return c - (0.0, HEIGHT / 2, 0.0)

    return built, step, feet


RUNNERS = {"sidestep": run_sidestep, "panda3d": run_panda3d, "pybullet": run_pybullet}


# ------------------------------------------------------------------ the check
def _closest_on_triangles(p, a, b, c):
    """Distances from point ``p (3,)`` to triangles ``a, b, c (m, 3)`` (Ericson's regions)."""
    ab = b - a
    ac = c - a
    ap = p - a
    d1 = (ab * ap).sum(1)
    d2 = (ac * ap).sum(1)
    bp = p - b
    d3 = (ab * bp).sum(1)
    d4 = (ac * bp).sum(1)
    cp = p - c
    d5 = (ab * cp).sum(1)
    d6 = (ac * cp).sum(1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    q = np.empty_like(a)
    denom = va + vb + vc
    with np.errstate(divide="ignore", invalid="ignore"):
        v = vb / denom
        w = vc / denom
        q[:] = a + ab * v[:, None] + ac * w[:, None]
        # Edges and corners.
        m = (d1 <= 0) & (d2 <= 0)
        q[m] = a[m]
        m2 = (d3 >= 0) & (d4 <= d3)
        q[m2] = b[m2]
        m3 = (d6 >= 0) & (d5 <= d6)
        q[m3] = c[m3]
        m4 = (vc <= 0) & (d1 >= 0) & (d3 <= 0) & ~m & ~m2
        t = d1 / (d1 - d3)
        q[m4] = (a + ab * t[:, None])[m4]
        m5 = (vb <= 0) & (d2 >= 0) & (d6 <= 0) & ~m & ~m3
        t = d2 / (d2 - d6)
        q[m5] = (a + ac * t[:, None])[m5]
        m6 = (va <= 0) & ((d4 - d3) >= 0) & ((d5 - d6) >= 0) & ~m2 & ~m3
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        q[m6] = (b + (c - b) * t[:, None])[m6]
    return np.linalg.norm(q - p, axis=1)


def penetrations(vertices, triangles, feet):
    """``(frames, deepest)``: frames whose capsule is closer than ``RADIUS - 1e-6`` to the mesh."""
    tri = vertices[triangles]
    lo = tri.min(axis=1)
    hi = tri.max(axis=1)
    bad = 0
    deepest = 0.0
    samples = np.linspace(RADIUS, HEIGHT - RADIUS, 9)
    for f in feet:
        near = np.all((lo <= f + (RADIUS, HEIGHT, RADIUS)) & (hi >= f - (RADIUS, 0.0, RADIUS)),
                      axis=1)
        if not near.any():
            continue
        a, b, c = tri[near, 0], tri[near, 1], tri[near, 2]
        least = min(_closest_on_triangles(f + (0.0, s, 0.0), a, b, c).min() for s in samples)
        if least < RADIUS - 1e-6:
            bad += 1
            deepest = max(deepest, RADIUS - least)
    return bad, deepest


def one(library, frames):
    """Run one library in this process; print one JSON line."""
    vertices, triangles = mesh()
    built, step, feet = RUNNERS[library](vertices, triangles, frames)
    t0 = time.perf_counter()
    path = steer(frames, step, np.asarray(feet, float))
    seconds = time.perf_counter() - t0
    bad, deepest = penetrations(vertices, triangles, path)
    walked = float(np.hypot(*np.diff(path[:, [0, 2]], axis=0).T).sum())
    print(json.dumps({"library": library, "fps": frames / seconds, "construction_s": built,
                      "penetrating_frames": bad, "deepest_m": deepest, "walked_m": walked,
                      "height_range_m": float(np.ptp(path[:, 1]))}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--only", choices=LIBRARIES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        one(args.only, args.frames)
        return
    rows = {name: [] for name in LIBRARIES}
    order = list(LIBRARIES)
    for r in range(args.rounds):
        for name in order:
            time.sleep(args.pause)
            print(f"round {r + 1}/{args.rounds}: {name}", file=sys.stderr)
            done = subprocess.run([sys.executable, __file__, "--only", name, "--frames",
                                   str(args.frames)], capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{name} failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                continue
            rows[name].append(json.loads(done.stdout.splitlines()[-1]))
        order = order[1:] + order[:1]
    best_peer = max((statistics.median(r["fps"] for r in rows[n]) for n in LIBRARIES[1:]
                     if rows[n]), default=None)
    print(f"W5 character walk: {args.frames:,} frames through the Recast dungeon, "
          f"{args.rounds} rounds")
    print("| library | frames/s: median (min-max) | penetrating frames (deepest) | walked m "
          "| height range m | construction s | vs fastest peer |")
    print("|---|---|---|---|---|---|---|")
    for name in LIBRARIES:
        if not rows[name]:
            print(f"| {name} | not run | | | | | |")
            continue
        fps = [r["fps"] for r in rows[name]]
        last = rows[name][-1]
        ratio = f"{statistics.median(fps) / best_peer:.2f}x" if name == "sidestep" and \
            best_peer else ""
        print(f"| {name} | {statistics.median(fps):,.0f} ({min(fps):,.0f}-{max(fps):,.0f}) | "
              f"{last['penetrating_frames']} ({last['deepest_m']:.3g} m) | "
              f"{last['walked_m']:,.0f} | {last['height_range_m']:.1f} | "
              f"{statistics.median(r['construction_s'] for r in rows[name]):.2f} | {ratio} |")


if __name__ == "__main__":
    main()
