"""W8-3D, a living dungeon: 200 turning doors and sliding blocks among 100 characters.

sidestep's :class:`~sidestep.Character` in a :class:`~sidestep.World3D` whose doors and
blocks are bodies (one ``set_poses`` a frame; the characters in one
``Character.update_many`` call, or ``update`` one by one as ``sidestep-loop``) beside
pybullet in the same scene: the W5 character loop (a kinematic capsule moved by hand,
pushed out along ``getClosestPoints`` normals, a ray down for the floor), with the doors
and blocks as kinematic boxes moved each frame by ``resetBasePositionAndOrientation``.

The scene (seeded): the Recast dungeon (``sidestep.data``, y up); 100 doors (1.2 m
wide, 2 m high, 0.1 m thick) each hinged at a spot on a floor and swinging to and fro
(up to 1.2 rad/s), and 100 blocks (1 m cubes) each sliding to and fro (up to 1 m either
side of its home, about 1 m/s), on floor spots found by rays down; 100 characters
(radius 0.4 m, height 1.8 m, steps up to 0.3 m, gravity) each walking at 4 m/s to a
seeded floor spot and on to the next when within 0.5 m or after 600 frames. 60 frames
a second. A character that walks off the level's open edge and falls 2 m below its
lowest point is put back on its next goal's spot, untimed (before, most of the frames
measured were falls into the void: 73 of the 100 characters had fallen out by frame 600). Every 10th frame an independent NumPy check counts the characters whose
capsule (9 points along its axis) is closer than its radius less 1e-6 m to the mesh or
to a door or block (exact point-box distances in each box's frame): penetrating.

Run (needs pybullet)::

    python benchmarks/living_dungeon.py [--rounds 3] [--frames 600]
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from character_walk import _closest_on_triangles, mesh  # noqa: E402
from rounds import run_rounds  # noqa: E402

RADIUS = 0.4
HEIGHT = 1.8
STEP = 0.3
SPEED = 4.0
DT = 1.0 / 60.0
GRAVITY = 9.81
DOORS = 100
BLOCKS = 100
CHARACTERS = 100
DOOR = np.array([1.2, 2.0, 0.1])       # a door's size (x along its width from the hinge)
BLOCK = np.array([1.0, 1.0, 1.0])
LIBRARIES = ("sidestep", "sidestep-loop", "pybullet")


def floor_spots(vertices, triangles, n, rng):
    """``(n, 3)`` points on floors (the first hit of a ray down, its face level enough)."""
    import sidestep
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    spots = []
    while len(spots) < n:
        xz = rng.uniform(lo[[0, 2]] + 1.0, hi[[0, 2]] - 1.0, (4 * n, 2))
        o = np.column_stack([xz[:, 0], np.full(len(xz), hi[1] + 1.0), xz[:, 1]])
        hit = world.raycast(o, np.tile([0.0, -1.0, 0.0], (len(o), 1)))
        ok = hit.hit & (hit.normal[:, 1] > 0.9)
        spots.extend(hit.point[ok][:n - len(spots)])
    return np.array(spots)


def scene(seed=9):
    vertices, triangles = mesh()
    rng = np.random.default_rng(seed)
    spots = floor_spots(vertices, triangles, DOORS + BLOCKS + CHARACTERS + 40 * CHARACTERS, rng)
    hinges = spots[:DOORS]
    homes = spots[DOORS:DOORS + BLOCKS]
    starts = spots[DOORS + BLOCKS:DOORS + BLOCKS + CHARACTERS] + (0.0, 0.01, 0.0)
    goals = spots[DOORS + BLOCKS + CHARACTERS:].reshape(CHARACTERS, 40, 3)
    motion = dict(swing=rng.uniform(0.3, 1.2, DOORS), phase=rng.uniform(0, 6.3, DOORS),
                  way=rng.uniform(0, 6.3, BLOCKS), rate=rng.uniform(0.5, 1.0, BLOCKS),
                  phase2=rng.uniform(0, 6.3, BLOCKS), base=rng.uniform(0, 6.3, DOORS))
    return vertices, triangles, hinges, homes, starts, goals, motion


def poses(hinges, homes, motion, frame):
    """Doors: hinge positions and yaw angles; blocks: centres (no turn)."""
    t = frame * DT
    yaw = motion["base"] + motion["swing"] * np.sin(1.5 * t + motion["phase"])
    way = np.column_stack([np.cos(motion["way"]), np.zeros(BLOCKS), np.sin(motion["way"])])
    centres = homes + (0.0, BLOCK[1] / 2 + 0.02, 0.0) \
        + way * np.sin(motion["rate"] * t + motion["phase2"])[:, None]
    return yaw, centres


def _yaw_quaternions(yaw):
    return np.column_stack([np.cos(yaw / 2), np.zeros(len(yaw)), np.sin(yaw / 2),
                            np.zeros(len(yaw))])


def steer(feet, goals, target, since):
    g = goals[np.arange(len(feet)), target % goals.shape[1]]
    gap = g - feet
    gap[:, 1] = 0.0
    dist = np.linalg.norm(gap, axis=1)
    again = (dist < 0.5) | (since > 600)
    target[again] += 1
    since[again] = 0
    since += 1
    g = goals[np.arange(len(feet)), target % goals.shape[1]]
    gap = g - feet
    gap[:, 1] = 0.0
    return gap * (SPEED / np.maximum(np.linalg.norm(gap, axis=1), 1e-9))[:, None]


def run_sidestep(vertices, triangles, hinges, homes, starts, motion, loop=False):
    """sidestep's frame: ``Character.update_many`` (``loop``: ``update`` one by one)."""
    import sidestep
    world = sidestep.World3D()
    world.add_mesh(vertices, triangles)
    # A door 2 cm above the floor, DOOR[1] high (as pybullet's and the check's).
    doors = [world.add_body(world.add_boxes([(0.0, 0.02, -DOOR[2] / 2)],
                                            [(DOOR[0], DOOR[1] + 0.02, DOOR[2] / 2)])[0])
             for _ in range(DOORS)]
    blocks = [world.add_body(world.add_boxes([-BLOCK / 2], [BLOCK / 2])[0])
              for _ in range(BLOCKS)]
    bodies = np.array(doors + blocks)
    yaw, centres = poses(hinges, homes, motion, 0)
    turns = np.vstack([_yaw_quaternions(yaw), np.tile([1.0, 0, 0, 0], (BLOCKS, 1))])
    world.set_poses(bodies, np.vstack([hinges, centres]), turns, DT)
    heroes = [sidestep.Character(world, s, RADIUS, HEIGHT, step_height=STEP, gravity=GRAVITY)
              for s in starts]

    def step(frame, wishes):
        yaw, centres = poses(hinges, homes, motion, frame)
        turns = np.vstack([_yaw_quaternions(yaw), np.tile([1.0, 0, 0, 0], (BLOCKS, 1))])
        world.set_poses(bodies, np.vstack([hinges, centres]), turns, DT)
        if loop:
            for hero, wish in zip(heroes, wishes):
                hero.update(wish, DT)
        else:
            sidestep.Character.update_many(heroes, wishes, DT)
        return np.array([hero.position for hero in heroes])

    def put(k, feet):
        heroes[k] = sidestep.Character(world, feet, RADIUS, HEIGHT, step_height=STEP,
                                       gravity=GRAVITY)

    return step, put


def run_pybullet(vertices, triangles, hinges, homes, starts, motion):
    import pybullet as pb
    client = pb.connect(pb.DIRECT)
    shape = pb.createCollisionShape(pb.GEOM_MESH, vertices=vertices.tolist(),
                                    indices=triangles.ravel().tolist(),
                                    flags=pb.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=client)
    level = pb.createMultiBody(0, shape, physicsClientId=client)
    door_shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=(DOOR / 2).tolist(),
                                         physicsClientId=client)
    block_shape = pb.createCollisionShape(pb.GEOM_BOX, halfExtents=(BLOCK / 2).tolist(),
                                          physicsClientId=client)
    doors = [pb.createMultiBody(0, door_shape, physicsClientId=client) for _ in range(DOORS)]
    blocks = [pb.createMultiBody(0, block_shape, physicsClientId=client) for _ in range(BLOCKS)]
    capsule = pb.createCollisionShape(pb.GEOM_CAPSULE, radius=RADIUS,
                                      height=HEIGHT - 2 * RADIUS, physicsClientId=client)
    upright = pb.getQuaternionFromEuler((-np.pi / 2, 0, 0))
    heroes = [pb.createMultiBody(0, capsule, basePosition=(s + (0, HEIGHT / 2, 0)).tolist(),
                                 baseOrientation=upright, physicsClientId=client)
              for s in starts]
    centre = starts + (0.0, HEIGHT / 2, 0.0)
    vy = np.zeros(len(starts))
    solids = set(doors + blocks + [level])

    def place(frame):
        yaw, centres = poses(hinges, homes, motion, frame)
        for body, h, a in zip(doors, hinges, yaw):
            # The box's centre: half the door's width along its turned x from the hinge.
            c = h + (np.cos(a) * DOOR[0] / 2, DOOR[1] / 2 + 0.02, -np.sin(a) * DOOR[0] / 2)
            pb.resetBasePositionAndOrientation(body, c.tolist(),
                                               (0.0, np.sin(a / 2), 0.0, np.cos(a / 2)),
                                               physicsClientId=client)
        for body, c in zip(blocks, centres):
            pb.resetBasePositionAndOrientation(body, c.tolist(), (0, 0, 0, 1),
                                               physicsClientId=client)

    place(0)

    def step(frame, wishes):
        place(frame)
        for k, body in enumerate(heroes):
            c = centre[k].copy()
            vy[k] -= GRAVITY * DT
            c += wishes[k] * DT
            c[1] += vy[k] * DT
            for _ in range(4):
                pb.resetBasePositionAndOrientation(body, c.tolist(), upright,
                                                   physicsClientId=client)
                pb.performCollisionDetection(physicsClientId=client)
                points = [q for q in pb.getContactPoints(bodyA=body, physicsClientId=client)
                          if q[2] in solids]
                if not points:
                    break
                deepest = min(points, key=lambda q: q[8])
                if deepest[8] >= 0.0:
                    break
                c += np.array(deepest[7]) * -deepest[8]     # on B, from B towards A
            hit = pb.rayTest(c.tolist(), (c - (0.0, HEIGHT / 2 + STEP, 0.0)).tolist(),
                             physicsClientId=client)[0]
            if hit[0] in solids and vy[k] <= 0.0:
                floor_y = hit[3][1]
                if c[1] - HEIGHT / 2 <= floor_y + 1e-3 or hit[2] < 1.0:
                    c[1] = max(c[1], floor_y + HEIGHT / 2)
                    vy[k] = 0.0
            centre[k] = c
        return centre - (0.0, HEIGHT / 2, 0.0)

    def put(k, feet):
        centre[k] = feet + (0.0, HEIGHT / 2, 0.0)
        vy[k] = 0.0

    return step, put


RUNNERS = {"sidestep": run_sidestep,
           "sidestep-loop": lambda *scene: run_sidestep(*scene, loop=True),
           "pybullet": run_pybullet}


def _box_distance(points, centre, half, yaw):
    """Distances ``(p,)`` from ``points (p, 3)`` to a box turned by ``yaw`` about y."""
    c, s = np.cos(yaw), np.sin(yaw)
    d = points - centre
    local = np.column_stack([c * d[:, 0] - s * d[:, 2], d[:, 1], s * d[:, 0] + c * d[:, 2]])
    q = np.abs(local) - half
    outside = np.linalg.norm(np.maximum(q, 0.0), axis=1)
    return outside + np.minimum(q.max(axis=1), 0.0)


def penetrating(feet, tri, lo, hi, hinges, homes, motion, frame):
    yaw, centres = poses(hinges, homes, motion, frame)
    door_centres = hinges + np.column_stack([np.cos(yaw) * DOOR[0] / 2,
                                             np.full(DOORS, DOOR[1] / 2 + 0.02),
                                             -np.sin(yaw) * DOOR[0] / 2])
    samples = np.linspace(RADIUS, HEIGHT - RADIUS, 9)
    bad = 0
    for f in feet:
        axis = f + np.outer(samples, (0.0, 1.0, 0.0))
        least = np.inf
        near = np.all((lo <= f + (RADIUS, HEIGHT, RADIUS)) & (hi >= f - (RADIUS, 0.0, RADIUS)),
                      axis=1)
        if near.any():
            a, b, c = tri[near, 0], tri[near, 1], tri[near, 2]
            least = min(_closest_on_triangles(p, a, b, c).min() for p in axis)
        for centre, half, turn in [(door_centres, DOOR / 2, yaw),
                                   (centres, BLOCK / 2, np.zeros(BLOCKS))]:
            close = np.linalg.norm(centre - f, axis=1) < 4.0
            for k in np.flatnonzero(close):
                least = min(least, _box_distance(axis, centre[k], half, turn[k]).min())
        bad += least < RADIUS - 1e-6
    return int(bad)


def one(library, frames):
    vertices, triangles, hinges, homes, starts, goals, motion = scene()
    step, put = RUNNERS[library](vertices, triangles, hinges, homes, starts, motion)
    tri = vertices[triangles]
    lo, hi = tri.min(axis=1), tri.max(axis=1)
    bottom = vertices[:, 1].min() - 2.0
    respawned = 0
    target = np.zeros(CHARACTERS, dtype=np.int64)
    since = np.zeros(CHARACTERS, dtype=np.int64)
    feet = starts.copy()
    step(1, np.zeros((CHARACTERS, 3)))              # compiled or loaded from the cache here
    moving = 0.0
    bad = 0
    for frame in range(2, frames + 2):
        wishes = steer(feet, goals, target, since)
        t0 = time.perf_counter()
        feet = step(frame, wishes)
        moving += time.perf_counter() - t0
        if frame % 10 == 0:
            bad += penetrating(feet, tri, lo, hi, hinges, homes, motion, frame)
        # Walked off the level's open edge and fell below it: back on a floor spot (its
        # next goal's), untimed, so that the frames measured are walks, not falls.
        for k in np.flatnonzero(feet[:, 1] < bottom):
            target[k] += 1
            since[k] = 0
            feet[k] = goals[k, target[k] % goals.shape[1]] + (0.0, 0.01, 0.0)
            put(k, feet[k].copy())
            target[k] += 1
            respawned += 1
    print(json.dumps({"library": library, "character_frames_per_s": CHARACTERS * frames / moving,
                      "ms_per_frame": 1000 * moving / frames, "penetrating": bad,
                      "respawned": respawned}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--only", choices=LIBRARIES)
    args = parser.parse_args()
    if args.only:
        one(args.only, args.frames)
        return
    rows = run_rounds(__file__, LIBRARIES, args.rounds, args.pause, ["--frames", str(args.frames)])
    rate = {n: statistics.median(r["character_frames_per_s"] for r in rows[n])
            for n in LIBRARIES if rows[n]}
    print(f"W8-3D living dungeon: {DOORS} doors, {BLOCKS} blocks, {CHARACTERS} characters, "
          f"{args.frames} frames, {args.rounds} rounds (medians)")
    print("| library | character-frames/s | ms per frame | penetrating (sampled frames) "
          "| put back after a fall | vs pybullet |")
    print("|---|---|---|---|---|---|")
    for name in LIBRARIES:
        if not rows[name]:
            print(f"| {name} | not run | | | | |")
            continue
        vs = f"{rate[name] / rate['pybullet']:.1f}x" if "pybullet" in rate else ""
        print(f"| {name} | {rate[name]:,.0f} | "
              f"{statistics.median(r['ms_per_frame'] for r in rows[name]):.2f} | "
              f"{max(r['penetrating'] for r in rows[name])} | "
              f"{max(r['respawned'] for r in rows[name])} | {vs} |")


if __name__ == "__main__":
    main()
