"""W8, a living level: 1,000 turning, sliding bars among a crowd of 10,000 agents.

sidestep's :class:`~sidestep.Crowd` in a :class:`~sidestep.World2D` whose bars are
bodies (``add_body``, one ``set_poses`` a frame), beside pymunk in the same scene:
kinematic ``Segment`` bodies for the bars (each frame given the velocity and angular
velocity that carry them to their next pose over ``dt``), dynamic ``Circle`` bodies
for the agents (velocities in and positions out through ``pymunk.batch``, a threaded
space: its fastest path, as in ``crowd_hall.py``).

The scene (seeded): a walled square 200 x 200 m; 1,000 bars 2.4 m long and 0.1 m
thick, each turning at a constant rate of up to 2 rad/s and sliding to and fro (up to
1.5 m either side of its home, up to about 2 m/s); 10,000 agents of radius 0.25 m,
each walking at 1.4 m/s to a seeded goal and on to the next when within 1 m of it.
dt = 1/30 s. Every 10th frame an independent NumPy check counts the agents closer to
a bar's segment than their radius plus the bar's half thickness (less 1e-6 m): inside
a bar, and the pairs of agents closer than two radii less 1e-6 m (``overlaps.py``):
overlapping. One fresh process per library and round, the order rotated.

Run (needs pymunk)::

    python benchmarks/living_level.py [--rounds 3] [--frames 300]
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from overlaps import overlaps  # noqa: E402
from rounds import run_rounds  # noqa: E402

HALF = 100.0           # the square's half side (m)
BARS = 1000
BAR_HALF = 1.2         # half a bar's length (m)
BAR_THICK = 0.05       # half a bar's thickness (m): its clearance round the segment
TURN = 2.0             # fastest turn (rad/s)
SLIDE = 1.5            # farthest slide from home (m)
AGENTS = 10_000
RADIUS = 0.25
SPEED = 1.4
DT = 1.0 / 30.0
LIBRARIES = ("sidestep", "pymunk")


def scene(seed=8):
    """The bars' motion and the agents' starts and goals, seeded."""
    rng = np.random.default_rng(seed)
    home = rng.uniform(-HALF + 5, HALF - 5, (BARS, 2))
    spin = rng.uniform(-TURN, TURN, BARS)
    phase0 = rng.uniform(0, 2 * np.pi, BARS)
    way = rng.normal(size=(BARS, 2))
    way /= np.linalg.norm(way, axis=1)[:, None]
    reach = rng.uniform(0.0, SLIDE, BARS)
    rate = rng.uniform(0.5, 1.3, BARS)
    starts = []
    while len(starts) < AGENTS:
        p = rng.uniform(-HALF + 1, HALF - 1, (2 * AGENTS, 2))
        near = _inside_bars(p, *poses((home, spin, phase0, way, reach, rate), 0), margin=0.3)
        starts.extend(p[~near][:AGENTS - len(starts)])
    goals = rng.uniform(-HALF + 2, HALF - 2, (AGENTS, 50, 2))
    return (home, spin, phase0, way, reach, rate), np.array(starts), goals


def poses(bars, frame):
    """Each bar's centre ``(BARS, 2)`` and angle ``(BARS,)`` at ``frame``."""
    home, spin, phase0, way, reach, rate = bars
    t = frame * DT
    return home + way * (reach * np.sin(rate * t + phase0))[:, None], spin * t + phase0


def _inside_bars(points, centres, angles, margin=0.0):
    """Which points lie within ``RADIUS + BAR_THICK + margin`` of a bar's segment."""
    ends = np.stack([np.cos(angles), np.sin(angles)], 1) * BAR_HALF
    a, b = centres - ends, centres + ends
    out = np.zeros(len(points), dtype=bool)
    cell = 4.0                      # bin the bars by centre: a point checks its 3x3 cells
    key = np.floor(centres / cell).astype(np.int64)
    bins = {}
    for i, k in enumerate(map(tuple, key)):
        bins.setdefault(k, []).append(i)
    pk = np.floor(points / cell).astype(np.int64)
    for n, (p, (kx, ky)) in enumerate(zip(points, pk)):
        near = [i for dx in (-1, 0, 1) for dy in (-1, 0, 1) for i in bins.get((kx + dx, ky + dy), ())]
        if not near:
            continue
        aa, bb = a[near], b[near]
        ab = bb - aa
        f = np.clip(np.einsum("ij,ij->i", p - aa, ab) / np.einsum("ij,ij->i", ab, ab), 0, 1)
        d = np.linalg.norm(p - (aa + f[:, None] * ab), axis=1)
        out[n] = np.any(d < RADIUS + BAR_THICK + margin - 1e-6)
    return out


def wishes(positions, goals, target):
    """Each agent's step towards its goal (the next goal once within 1 m)."""
    g = goals[np.arange(len(positions)), target % goals.shape[1]]
    reached = np.linalg.norm(g - positions, axis=1) < 1.0
    target[reached] += 1
    g = goals[np.arange(len(positions)), target % goals.shape[1]]
    d = g - positions
    n = np.maximum(np.linalg.norm(d, axis=1), 1e-9)
    return d * (np.minimum(SPEED * DT, n) / n)[:, None]


def _walls():
    c = [(-HALF, -HALF), (HALF, -HALF), (HALF, HALF), (-HALF, HALF)]
    return np.array(c), np.array(c[1:] + c[:1])


def make_sidestep(bars, positions):
    import sidestep
    world = sidestep.World2D()
    world.add_walls(*_walls())
    ids = world.add_walls([(-BAR_HALF, 0.0)] * BARS, [(BAR_HALF, 0.0)] * BARS, BAR_THICK)
    bodies = np.array([world.add_body(i) for i in ids])
    # Compiled or loaded from the cache here: a crowd of its own walking while the bars
    # move (a crowd at rest among still bars works out less: on a fresh clone the rest
    # compiled inside the timed frames, and the first run read 42 ms a frame for 6), then
    # the bars back at their first pose and the scene's crowd at rest.
    warm = sidestep.Crowd(world, positions, RADIUS)
    for frame in (1, 2):
        world.set_poses(bodies, *poses(bars, frame), DT)
        warm.step(np.full_like(positions, 0.5 * SPEED * DT))
    centres, angles = poses(bars, 0)
    world.set_poses(bodies, centres, angles, DT)
    crowd = sidestep.Crowd(world, positions, RADIUS)
    crowd.step(np.zeros_like(positions))
    timings = {"set_poses": [], "grid": []}

    def step(frame, wish):
        centres, angles = poses(bars, frame)
        t0 = time.perf_counter()
        world.set_poses(bodies, centres, angles, DT)
        t1 = time.perf_counter()
        world._store.pack()                       # the bodies' grid, rewritten lazily
        t2 = time.perf_counter()
        timings["set_poses"].append(t1 - t0)
        timings["grid"].append(t2 - t1)
        return crowd.step(wish).positions

    return step, timings


def make_pymunk(bars, positions):
    import pymunk
    import pymunk.batch as batch
    space = pymunk.Space(threaded=True)
    space.threads = min(2, len(os.sched_getaffinity(0)))
    space.iterations = 10
    a, b = _walls()
    for p, q in zip(a, b):
        space.add(pymunk.Segment(space.static_body, tuple(p), tuple(q), 0.0))
    centres, angles = poses(bars, 0)
    kinematic = []
    for (x, y), angle in zip(centres.tolist(), angles.tolist()):
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        body.position = (x, y)
        body.angle = angle
        seg = pymunk.Segment(body, (-BAR_HALF, 0.0), (BAR_HALF, 0.0), BAR_THICK)
        seg.friction = 0.0
        space.add(body, seg)
        kinematic.append(body)
    agents = []
    for x, y in positions.tolist():
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, RADIUS))
        body.position = (x, y)
        shape = pymunk.Circle(body, RADIUS)
        shape.friction = 0.0
        space.add(body, shape)
        agents.append(body)
    found = batch.Buffer()
    batch.get_space_bodies(space, batch.BodyFields.BODY_ID, found)
    index = {body.id: k for k, body in enumerate(agents)}
    walked = list(memoryview(found.int_buf()).cast("P"))
    slots = np.array([s for s, i in enumerate(walked) if i in index])
    order = np.array([index[i] for i in walked if i in index])
    velocities = np.zeros((len(walked), 2))
    into = batch.Buffer()
    into.set_float_buf(velocities)
    out = batch.Buffer()
    here = np.empty_like(positions)
    state = {"angles": angles.copy()}

    def step(frame, wish):
        centres, angles = poses(bars, frame)
        before = np.array([tuple(b.position) for b in kinematic])
        # Velocities that carry each bar to its pose at this frame over dt.
        v = (centres - before) / DT
        w = (angles - state["angles"]) / DT
        for body, (vx, vy), spin in zip(kinematic, v.tolist(), w.tolist()):
            body.velocity = (vx, vy)
            body.angular_velocity = spin
        state["angles"] = angles
        velocities[:] = 0.0
        velocities[slots] = wish[order] / DT
        batch.set_space_bodies(space, batch.BodyFields.VELOCITY, into)
        space.step(DT)
        out.clear()
        batch.get_space_bodies(space, batch.BodyFields.POSITION, out)
        here[order] = np.frombuffer(out.float_buf(), dtype=np.float64).reshape(-1, 2)[slots]
        return here.copy()

    return step, {}


MAKERS = {"sidestep": make_sidestep, "pymunk": make_pymunk}


def one(library, frames):
    bars, positions, goals = scene()
    step, timings = MAKERS[library](bars, positions)
    target = np.zeros(len(positions), dtype=np.int64)
    here = positions
    moving = 0.0
    inside = 0
    pairs = [0]
    deepest = 0.0
    for frame in range(1, frames + 1):
        wish = wishes(here, goals, target)
        t0 = time.perf_counter()
        here = step(frame, wish)
        moving += time.perf_counter() - t0
        if frame % 10 == 0:
            inside = max(inside, int(_inside_bars(here, *poses(bars, frame)).sum()))
            count, deep = overlaps(here, RADIUS)
            pairs.append(count)
            deepest = max(deepest, deep)
    row = {"library": library, "agent_frames_per_s": len(positions) * frames / moving,
           "ms_per_frame": 1000 * moving / frames, "inside_max": inside,
           "overlap_pairs_max": max(pairs), "overlap_deepest": deepest}
    for name, values in timings.items():
        row[f"{name}_ms"] = 1000 * statistics.median(values)
    print(json.dumps(row))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--only", choices=LIBRARIES)
    args = parser.parse_args()
    if args.only:
        one(args.only, args.frames)
        return
    rows = run_rounds(__file__, LIBRARIES, args.rounds, args.pause, ["--frames", str(args.frames)])
    rate = {n: statistics.median(r["agent_frames_per_s"] for r in rows[n]) for n in LIBRARIES
            if rows[n]}
    print(f"W8 living level: {BARS:,} bars, {AGENTS:,} agents, {args.frames} frames, "
          f"{args.rounds} rounds (medians)")
    print("| library | agent-frames/s | ms per frame | agents inside a bar (max) "
          "| overlapping pairs (max) | deepest | vs pymunk |")
    print("|---|---|---|---|---|---|---|")
    for name in LIBRARIES:
        if not rows[name]:
            print(f"| {name} | not run | | | | | |")
            continue
        vs = f"{rate[name] / rate['pymunk']:.1f}x" if "pymunk" in rate else ""
        print(f"| {name} | {rate[name]:,.0f} | "
              f"{statistics.median(r['ms_per_frame'] for r in rows[name]):.2f} | "
              f"{max(r['inside_max'] for r in rows[name])} | "
              f"{max(r['overlap_pairs_max'] for r in rows[name]):,} | "
              f"{max(r['overlap_deepest'] for r in rows[name]):.3f} m | {vs} |")
    if rows["sidestep"]:
        print(f"sidestep set_poses of {BARS:,} bodies: "
              f"{statistics.median(r['set_poses_ms'] for r in rows['sidestep']):.3f} ms; "
              f"the bodies' grid rewritten at the next query: "
              f"{statistics.median(r['grid_ms'] for r in rows['sidestep']):.3f} ms")


if __name__ == "__main__":
    main()
