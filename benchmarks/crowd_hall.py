"""Crowds: two groups of 5,000 agents crossing a walled hall through its doorways.

sidestep's :class:`~sidestep.Crowd` beside the crowds a Python developer would build
with the 2D physics peers, in the same scene:

* **pymunk**: one dynamic ``Circle`` body per agent (mass 1, no friction, no
  elasticity), the hall's walls as static ``Segment`` shapes; each step every body's
  velocity is set to its wish over dt and ``space.step(dt)`` resolves the contacts.
  Its fastest path: the velocities in and the positions out through ``pymunk.batch``
  (one call each for all bodies) and the threaded space (``Space(threaded=True)``, one
  thread per core, as sidestep uses); ``pymunk-loop`` is the same scene written the
  plain way, a Python attribute per body and step (about twice the time: the loop,
  not the physics);
* **Box2D** (``box2d``): one dynamic circle body per agent, walls as static edge
  fixtures, ``SetLinearVelocity`` then ``world.Step(dt, 8, 3)``.

The scene (seeded): a hall 120 x 60 m, a wall across its middle (x = 0) with four
doorways 4 m wide; group A (5,000 agents, radius 0.3 m) stands on a jittered grid in
the west half, group B in the east half; each agent's goal is its start mirrored into
the other half. Each step each agent wishes 0.14 m (1.4 m/s, dt = 0.1 s) towards the
nearest doorway of its group (A the first and third, B the second and fourth, so the
streams do not meet head-on in a door) while it has not passed the wall, then its goal,
steering from its own position (so a library whose agents jam walks less). Every 10th
step an independent NumPy check (a grid of cells, exact distances) counts the pairs
closer than the sum of their radii less 1e-6 m, the deepest overlap, and the agents
closer than their radius to a wall. One fresh process per library and round, a pause
before each, the order rotated. Under the table: how many could cross at all without
overlapping (:func:`flow_bound`), a bound no crowd that keeps agents apart can pass.

``sidestep-avoid`` is the same crowd stepping with local avoidance (``step(...,
avoid=True)``); **RVO2** (``rvo2``) is the ORCA library most games' crowds come from:
each agent's preferred velocity is its wish over dt, the walls are its obstacles
(segments), ``doStep`` each step; it keeps agents apart only over its horizon, not
exactly. "crossed" counts the agents that ended on their goal's side of the middle wall.

``--one-way`` runs group A alone (no counterflow): how many the doorways let through in
the steps given when nobody comes the other way, a bound for the counterflow (two groups
share the same doorways' width). ``--door`` sets the doorways' width (m): group A alone
through doorways half as wide is what two groups in perfect lanes could each pass.
``--lanes`` sets ``sidestep-avoid``'s :class:`~sidestep.Avoidance` ``lanes`` (a crowd
walking one way wants 0: see the crowds page).

``--scene doors3`` is the issue's hall: 100 x 60 m, a middle wall with three doorways
4 m wide, 2,500 agents (radius 0.25 m) a side, 0.08 m a step, 1,500 steps by default,
each agent heading for the nearest doorway (both groups use all three: counterflow) and
then to its goal.

Run (needs pymunk, box2d and RVO2: ``pip install pymunk box2d``, then ``pip install
cython wheel setuptools`` and ``pip install --no-build-isolation
pyrvo2-danieldugas``)::

    python benchmarks/crowd_hall.py [--rounds 1] [--steps 1000] [--agents 5000] [--seed 7]
    python benchmarks/crowd_hall.py --scene doors3 [--libraries sidestep sidestep-avoid rvo2]
    python benchmarks/crowd_hall.py --scene doors3 --one-way [--door 2] [--lanes 0]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from overlaps import overlaps  # noqa: E402

HALL_X = 60.0
HALL_Y = 30.0
DOORS = (-22.5, -7.5, 7.5, 22.5)
DOOR = 4.0
RADIUS = 0.3
STEP = 0.14
DT = 0.1
SHARED_DOORS = False        # each group its own doors (doors3: every door, both groups)
LANES = None                # sidestep-avoid's Avoidance lanes (None: the default)
LIBRARIES = ("sidestep", "sidestep-avoid", "rvo2", "pymunk", "pymunk-loop", "box2d")
#: The scenes: module figures each sets, and its steps and agents per group by default.
SCENES = {
    "hall": dict(HALL_X=60.0, HALL_Y=30.0, DOORS=(-22.5, -7.5, 7.5, 22.5), RADIUS=0.3,
                 STEP=0.14, SHARED_DOORS=False, steps=1000, agents=5000),
    "doors3": dict(HALL_X=50.0, HALL_Y=30.0, DOORS=(-20.0, 0.0, 20.0), RADIUS=0.25,
                   STEP=0.08, SHARED_DOORS=True, steps=1500, agents=2500),
}


def use_scene(name):
    """Set the module's figures to scene ``name``'s; returns its default steps and agents."""
    figures = dict(SCENES[name])
    steps, agents = figures.pop("steps"), figures.pop("agents")
    globals().update(figures)
    return steps, agents


def walls():
    """``(k, 4)`` wall segments ``x0, y0, x1, y1``: the hall and the middle wall with its doors."""
    segs = [(-HALL_X, -HALL_Y, HALL_X, -HALL_Y), (HALL_X, -HALL_Y, HALL_X, HALL_Y),
            (HALL_X, HALL_Y, -HALL_X, HALL_Y), (-HALL_X, HALL_Y, -HALL_X, -HALL_Y)]
    edges = [-HALL_Y] + [y for d in DOORS for y in (d - DOOR / 2, d + DOOR / 2)] + [HALL_Y]
    for lo, hi in zip(edges[0::2], edges[1::2]):
        segs.append((0.0, lo, 0.0, hi))
    return np.array(segs)


def starts(per_group, seed=7):
    """``(2 n, 2)`` starts (group A west, then group B east) and their goals."""
    rng = np.random.default_rng(seed)
    spacing = 0.72
    xs = np.arange(-HALL_X + 1.0, -1.0, spacing)
    ys = np.arange(-HALL_Y + 1.0, HALL_Y - 1.0, spacing)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    pick = rng.choice(len(grid), per_group, replace=False)
    west = grid[pick] + rng.uniform(-0.05, 0.05, (per_group, 2))
    pick = rng.choice(len(grid), per_group, replace=False)
    east = grid[pick] * (-1.0, 1.0) + rng.uniform(-0.05, 0.05, (per_group, 2))
    positions = np.vstack([west, east])
    return positions, positions * (-1.0, 1.0)


def wishes(positions, goals):
    """Each agent's step: to the nearest door of its group until past the wall, then to its goal.

    Group A (heading east) uses the first and third doors, group B the second and fourth:
    the two streams do not meet head-on in a doorway (agents here have no steering to form
    lanes; meeting head-on, agents that cannot pass through each other jam).
    """
    side = np.sign(goals[:, 0])              # +1: heading east
    passed = positions[:, 0] * side > RADIUS
    east = np.array(DOORS if SHARED_DOORS else DOORS[0::2])
    west = np.array(DOORS if SHARED_DOORS else DOORS[1::2])
    near_east = east[np.abs(positions[:, 1:2] - east[None, :]).argmin(axis=1)]
    near_west = west[np.abs(positions[:, 1:2] - west[None, :]).argmin(axis=1)]
    nearest = np.where(side > 0, near_east, near_west)
    target = np.where(passed[:, None], goals, np.column_stack([side * 1.0, nearest]))
    gap = target - positions
    length = np.maximum(np.linalg.norm(gap, axis=1), 1e-9)
    return gap * (np.minimum(STEP, length) / length)[:, None]


# ---------------------------------------------------------------- the libraries
def make_sidestep(positions, avoid=False):
    import sidestep
    world = sidestep.World2D()
    w = walls()
    world.add_walls(w[:, :2], w[:, 2:])
    # Compiled or loaded from the cache here: a crowd of its own walking (avoidance works
    # nothing out for a crowd asking nothing), then the scene's at rest twice (the second:
    # agents at rest).
    sidestep.Crowd(world, positions, RADIUS).step(np.full_like(positions, 0.5 * STEP),
                                                  avoid=avoid)
    crowd = sidestep.Crowd(world, positions, RADIUS)
    for _ in range(2):
        crowd.step(np.zeros_like(positions), avoid=avoid)

    def step(wish):
        return crowd.step(wish, avoid=avoid).positions

    return step


def make_sidestep_avoid(positions):
    import sidestep
    return make_sidestep(positions, avoid=True if LANES is None else
                         sidestep.Avoidance(lanes=LANES))


def make_rvo2(positions):
    """RVO2 (ORCA): preferred velocities in, positions out, one call per agent (its API)."""
    import rvo2
    sim = rvo2.PyRVOSimulator(DT, 4 * RADIUS + 2 * STEP / DT, 10, 2.0, 1.0, RADIUS, STEP / DT)
    for x, y in positions:
        sim.addAgent((float(x), float(y)))
    for x0, y0, x1, y1 in walls():
        sim.addObstacle([(float(x0), float(y0)), (float(x1), float(y1))])
    sim.processObstacles()
    n = len(positions)

    def step(wish):
        for i, (vx, vy) in enumerate((wish / DT).tolist()):
            sim.setAgentPrefVelocity(i, (vx, vy))
        sim.doStep()
        return np.array([sim.getAgentPosition(i) for i in range(n)])

    return step


def _pymunk_space(positions, threaded):
    """A pymunk space of the scene and its bodies, in the order of ``positions``."""
    import pymunk
    space = pymunk.Space(threaded=threaded)
    if threaded:
        space.threads = min(2, len(os.sched_getaffinity(0)))
    space.iterations = 10
    for x0, y0, x1, y1 in walls():
        seg = pymunk.Segment(space.static_body, (x0, y0), (x1, y1), 0.0)
        seg.friction = 0.0
        space.add(seg)
    bodies = []
    for x, y in positions:
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, RADIUS))
        body.position = (float(x), float(y))
        shape = pymunk.Circle(body, RADIUS)
        shape.friction = 0.0
        shape.elasticity = 0.0
        space.add(body, shape)
        bodies.append(body)
    return space, bodies


def make_pymunk(positions):
    """pymunk's fastest path: batch velocities in, batch positions out, threaded space."""
    import pymunk.batch as batch
    space, bodies = _pymunk_space(positions, threaded=True)
    # The batch calls walk the space's bodies in its own order (the static body among
    # them): map it to the agents' once.
    found = batch.Buffer()
    batch.get_space_bodies(space, batch.BodyFields.BODY_ID, found)
    index = {body.id: k for k, body in enumerate(bodies)}
    walked = list(memoryview(found.int_buf()).cast("P"))
    slots = np.array([s for s, i in enumerate(walked) if i in index])
    agents = np.array([index[i] for i in walked if i in index])
    velocities = np.zeros((len(walked), 2))
    into = batch.Buffer()
    into.set_float_buf(velocities)
    out = batch.Buffer()
    here = np.empty_like(positions)

    def step(wish):
        velocities[slots] = wish[agents] / DT
        batch.set_space_bodies(space, batch.BodyFields.VELOCITY, into)
        space.step(DT)
        out.clear()
        batch.get_space_bodies(space, batch.BodyFields.POSITION, out)
        here[agents] = np.frombuffer(out.float_buf(), dtype=np.float64).reshape(-1, 2)[slots]
        return here.copy()

    return step


def make_pymunk_loop(positions):
    """pymunk written the plain way: a Python attribute per body, one thread."""
    space, bodies = _pymunk_space(positions, threaded=False)

    def step(wish):
        for body, (vx, vy) in zip(bodies, (wish / DT).tolist()):
            body.velocity = (vx, vy)
        space.step(DT)
        return np.array([tuple(b.position) for b in bodies])

    return step


def make_box2d(positions):
    import Box2D
    world = Box2D.b2World(gravity=(0, 0), doSleep=False)
    ground = world.CreateStaticBody()
    for x0, y0, x1, y1 in walls():
        ground.CreateEdgeFixture(vertices=[(x0, y0), (x1, y1)], friction=0.0)
    bodies = []
    for x, y in positions:
        body = world.CreateDynamicBody(position=(float(x), float(y)), fixedRotation=True)
        body.CreateCircleFixture(radius=RADIUS, density=1.0, friction=0.0, restitution=0.0)
        bodies.append(body)

    def step(wish):
        for body, (vx, vy) in zip(bodies, (wish / DT).tolist()):
            body.linearVelocity = (vx, vy)
        world.Step(DT, 8, 3)
        return np.array([tuple(b.position) for b in bodies])

    return step


MAKERS = {"sidestep": make_sidestep, "sidestep-avoid": make_sidestep_avoid, "rvo2": make_rvo2,
          "pymunk": make_pymunk, "pymunk-loop": make_pymunk_loop, "box2d": make_box2d}


# ------------------------------------------------------------------ the check


def in_walls(positions):
    """Agents closer than their radius less 1e-6 to a wall segment."""
    w = walls()
    a = w[:, :2]
    ab = w[:, 2:] - a
    t = np.clip(((positions[:, None, :] - a) * ab).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
    d = np.linalg.norm(positions[:, None, :] - (a + t[..., None] * ab), axis=-1).min(axis=1)
    return int((d < RADIUS - 1e-6).sum())


def flow_bound(steps, one_way=False):
    """The most agents that could cross in ``steps`` without two ever overlapping.

    However they walk, agents that never overlap are at most ``1 / (2 sqrt(3) r^2)`` to
    the square metre in a doorway (discs packed hexagonally, the densest packing of the
    plane; a strip as narrow as a door holds fewer), and none goes faster than ``STEP`` a
    step: through a doorway ``DOOR`` wide at most about ``DOOR STEP / (2 sqrt(3) r^2)``
    cross a step (to a file's width at its edges), as if the doorways were full of agents
    at full speed from the first step to the last (none walks there first). The doorways:
    every one for two groups (each group's own in the hall), group A's alone with
    ``one_way``.
    """
    doors = len(DOORS) if SHARED_DOORS or not one_way else len(DOORS[0::2])
    per_step = DOOR * STEP / (2.0 * np.sqrt(3.0) * RADIUS ** 2)
    return int(doors * per_step * steps)


def one(library, steps, per_group, one_way=False, seed=7):
    positions, goals = starts(per_group, seed)
    if one_way:
        positions, goals = positions[:per_group], goals[:per_group]     # group A alone
    t0 = time.perf_counter()
    step = MAKERS[library](positions)
    built = time.perf_counter() - t0
    here = positions
    moving = 0.0
    pairs, deepest, walled = [], 0.0, 0
    for k in range(steps):
        wish = wishes(here, goals)
        t0 = time.perf_counter()
        here = step(wish)
        moving += time.perf_counter() - t0
        if k % 10 == 9 or k == steps - 1:
            p, d = overlaps(here, RADIUS)
            pairs.append(p)
            deepest = max(deepest, d)
            walled = max(walled, in_walls(here))
    crossed = int((np.sign(here[:, 0]) == np.sign(goals[:, 0])).sum())
    print(json.dumps({"library": library, "moves_per_s": len(positions) * steps / moving,
                      "ms_per_step": 1000 * moving / steps, "construction_s": built,
                      "overlap_pairs_max": max(pairs), "overlap_pairs_mean": float(np.mean(pairs)),
                      "deepest_m": deepest, "in_walls_max": walled, "crossed": crossed,
                      "agents": len(positions)}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--scene", choices=sorted(SCENES), default="hall")
    parser.add_argument("--steps", type=int, help="the scene's by default")
    parser.add_argument("--agents", type=int, help="per group (the scene's by default)")
    parser.add_argument("--seed", type=int, default=7, help="of the starts and goals")
    parser.add_argument("--libraries", nargs="+", choices=LIBRARIES, default=LIBRARIES)
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--one-way", action="store_true",
                        help="group A alone: how many the doors let through with no counterflow")
    parser.add_argument("--door", type=float, help="the doorways' width (m; 4 by default)")
    parser.add_argument("--lanes", type=float,
                        help="sidestep-avoid's Avoidance lanes (radians; Avoidance's "
                             "default, 1.2, by default)")
    parser.add_argument("--only", choices=LIBRARIES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    steps, agents = use_scene(args.scene)
    global DOOR, LANES
    if args.door is not None:
        # Narrower than the wall between two doorways and between the last and the hall's end.
        room = min(np.diff(DOORS).min(initial=np.inf), 2.0 * (HALL_Y - np.abs(DOORS).max()))
        if not 0.0 < args.door < room:
            parser.error(f"--door must be > 0 and < {room:g} (the doorways' spacing), "
                         f"got {args.door}")
        DOOR = args.door
    if args.lanes is not None:
        if not 0.0 <= args.lanes < np.inf:
            parser.error(f"--lanes must be finite and >= 0, got {args.lanes}")
        LANES = args.lanes
    args.steps = args.steps or steps
    args.agents = args.agents or agents
    if args.only:
        one(args.only, args.steps, args.agents, args.one_way, args.seed)
        return
    libraries = [name for name in LIBRARIES if name in args.libraries]
    rows = {name: [] for name in libraries}
    order = list(libraries)
    for r in range(args.rounds):
        for name in order:
            time.sleep(args.pause)
            print(f"round {r + 1}/{args.rounds}: {name}", file=sys.stderr)
            done = subprocess.run([sys.executable, __file__, "--only", name, "--scene",
                                   args.scene, "--steps", str(args.steps), "--agents",
                                   str(args.agents), "--seed", str(args.seed)] +
                                  ["--one-way"] * args.one_way +
                                  (["--door", str(args.door)] if args.door is not None else []) +
                                  (["--lanes", str(args.lanes)] if args.lanes is not None
                                   else []),
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{name} failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                continue
            rows[name].append(json.loads(done.stdout.splitlines()[-1]))
        order = order[1:] + order[:1]
    rate = {n: statistics.median(r["moves_per_s"] for r in rows[n]) for n in libraries
            if rows[n]}
    groups = "group A alone (one way)" if args.one_way else "2 groups"
    print(f"crowd hall ({args.scene}): {groups} of {args.agents:,} agents, {args.steps:,} steps, "
          f"{args.rounds} rounds, doorways {DOOR:g} m"
          + ("" if LANES is None else f", sidestep-avoid lanes={LANES:g}"))
    print("| library | agent moves/s | ms per step | overlapping pairs per step: max (mean) "
          "| deepest overlap | agents in walls | crossed | vs pymunk |")
    print("|---|---|---|---|---|---|---|---|")
    for name in libraries:
        if not rows[name]:
            print(f"| {name} | not run | | | | | | |")
            continue
        last = rows[name][-1]
        vs = f"{rate[name] / rate['pymunk']:.1f}x" if "pymunk" in rate else ""
        print(f"| {name} | {rate[name]:,.0f} | "
              f"{statistics.median(r['ms_per_step'] for r in rows[name]):.1f} | "
              f"{last['overlap_pairs_max']} ({last['overlap_pairs_mean']:.1f}) | "
              f"{last['deepest_m']:.3g} m | {last['in_walls_max']} | "
              f"{last['crossed']:,} of {last['agents']:,} | {vs} |")
    agents = args.agents * (1 if args.one_way else 2)
    bound = flow_bound(args.steps, args.one_way)
    print(f"Without overlaps at most about {min(bound, agents):,} of {agents:,} "
          f"({min(bound, agents) / agents:.0%}) could cross in {args.steps:,} steps: the "
          f"doorways full of agents packed hexagonally at full speed ({bound:,}; "
          "flow_bound's docstring)")


if __name__ == "__main__":
    main()
