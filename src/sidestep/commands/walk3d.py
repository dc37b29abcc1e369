"""``sidestep walk`` on a 3D level: agents wander over it under gravity, and what happened to each.

A simple walker (not a character controller): every frame each agent wishes
a horizontal step of ``speed`` along its own random-walk heading, plus a pull
of ``gravity`` down along the world's ``up``, and :meth:`World3D.move_many`
moves them all at once in the chosen mode. On a floor the pull is cancelled
by the contact and the agent slides along; off an edge it falls. Agents are
spheres, or upright capsules with ``height > 2 * radius``. Per agent,
:class:`Walk3D` measures

- ``travelled``: the length of its path;
- ``contacts``: frames in which an obstacle changed its move (the position
  reached differs from the one asked for by more than :data:`DEFLECTED`);
- ``stuck_frames``: frames in which it moved less than :data:`STUCK` of its
  horizontal step;
- ``min_clearance``: the smallest distance from its centre (a capsule: from
  :data:`AXIS_SAMPLES` points along its axis) to the nearest surface over the
  walk; ``slide`` promises at least ``radius - 1e-9``.

>>> import sidestep
>>> from sidestep.commands.walk3d import walk3d
>>> world = sidestep.World3D()
>>> floor = world.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
>>> run = walk3d(world, [(0, 1, 0)], radius=0.5, steps=20, speed=0.1)
>>> agent = run.agents()[0]
>>> agent["min_clearance"] >= 0.5 - 1e-9, agent["contacts"] > 0
(True, True)
"""
import math
from dataclasses import dataclass

import numpy as np

from ..tolerances import PROMISE, SKIN
from ..world3d import MODES
from .render3d import Axes3D, draw_top

#: A frame's move was changed by an obstacle when the position reached is
#: farther than this from the one asked for (as :mod:`sidestep.commands.walk`).
DEFLECTED = 1e-9
#: An agent is stuck in a frame when it moves less than this share of its horizontal step.
STUCK = 0.1
#: Default speed as a share of the level's largest side per frame.
SPEED_SHARE = 1.0 / 400.0
#: Random walkers turn by a normal angle of this spread (radians) each frame.
TURN = 0.25
#: Default frames.
STEPS = 300
#: Points along a capsule's axis whose clearance is measured (its ends included).
AXIS_SAMPLES = 5
#: Random points drawn per wanted start, at most, when looking for free starts.
START_TRIES = 200
#: Starts stand this share of the agent's radius above the floor found under them.
LIFT = 0.1
#: Pixels along the longer side of the walk picture's relief.
RELIEF = 200


@dataclass(frozen=True)
class Walk3D:
    """Agents' positions frame by frame on a 3D level, and what the walk measured."""

    #: ``(frames + 1, n, 3) float64``: positions, the starts first.
    positions: np.ndarray
    #: ``(frames, n, 3) float64``: the displacement each agent asked for.
    desired: np.ndarray
    #: ``(frames + 1, n) float64``: clearance of each agent's centre (capsule: axis).
    clearances: np.ndarray
    #: The agents' radius.
    radius: float
    #: Their height (a capsule when above ``2 * radius``; 0 for spheres).
    height: float
    #: The move mode.
    mode: str
    #: The horizontal step asked for per frame (world units).
    speed: float
    #: Whether the agents walked as a :class:`~sidestep.Crowd3D` (they collide with
    #: each other) rather than with ``move_many`` (they pass through each other).
    crowd: bool = False
    #: The world's up axis (0, 1 or 2).
    up: int = 1

    def agent_overlaps(self):
        """How many times two agents came to overlap (by more than the skin) from apart."""
        if self.radius <= 0.0:
            return 0
        from ..crowd3d import touching_pairs

        n = self.positions.shape[1]
        radii = np.full(n, self.radius)
        halves = np.full(n, 0.5 * self.height - self.radius if self.height > 2.0 * self.radius
                         else 0.0)
        count = 0
        before = None
        for t in range(self.frames + 1):
            now = {tuple(p) for p in touching_pairs(self.positions[t], radii, halves, self.up,
                                                    -SKIN).tolist()}
            if before is not None:
                count += len(now - before)
            before = now
        return count

    @property
    def frames(self):
        """How many frames were walked."""
        return len(self.desired)

    def agents(self):
        """One dict per agent: ``start``, ``end``, ``travelled``, ``contacts``,
        ``stuck_frames``, ``min_clearance`` and ``outside`` (min clearance >= radius - 1e-9)."""
        p = self.positions
        steps = np.linalg.norm(np.diff(p, axis=0), axis=2)
        off = np.linalg.norm(p[1:] - (p[:-1] + self.desired), axis=2)
        rows = []
        for i in range(p.shape[1]):
            low = float(self.clearances[:, i].min())
            rows.append({"agent": i, "start": p[0, i].tolist(), "end": p[-1, i].tolist(),
                         "travelled": float(steps[:, i].sum()),
                         "contacts": int(np.count_nonzero(off[:, i] > DEFLECTED)),
                         "stuck_frames": int(np.count_nonzero(steps[:, i] < STUCK * self.speed)),
                         "min_clearance": low,
                         "outside": bool(low >= self.radius - PROMISE)})
        return rows

    def summary(self):
        """Totals over all agents."""
        rows = self.agents()
        return {"agents": len(rows), "frames": self.frames, "mode": self.mode,
                "radius": self.radius, "height": self.height, "speed": self.speed,
                "contacts": sum(r["contacts"] for r in rows),
                "stuck_frames": sum(r["stuck_frames"] for r in rows),
                "min_clearance": min((r["min_clearance"] for r in rows), default=math.inf),
                "all_outside": all(r["outside"] for r in rows),
                "crowd": self.crowd, "agent_overlaps": self.agent_overlaps()}


def axis_points(positions, radius, height, up):
    """``(n, AXIS_SAMPLES, 3)`` points along each agent's capsule axis (a sphere: its centre)."""
    p = np.asarray(positions, float).reshape(-1, 3)
    half = 0.5 * height - radius if height > 2.0 * radius else 0.0
    if half == 0.0:
        return p[:, None, :]
    t = np.linspace(-half, half, AXIS_SAMPLES)
    return p[:, None, :] + t[None, :, None] * np.eye(3)[up][None, None, :]


def agent_clearance(world, positions, radius, height):
    """``(n,)``: clearance of each agent's centre, or the least along its capsule axis."""
    pts = axis_points(positions, radius, height, "xyz".index(world.up))
    return world.clearance(pts.reshape(-1, 3)).reshape(pts.shape[:2]).min(axis=1)


def free_starts3d(world, count, radius, height, rng, spawns=()):
    """``(count, 3)`` start points where the agent fits: the spawns first, then agents on floors.

    Random points are drawn uniformly in the level's bounds; a ray cast
    straight down from each finds the surface below, and the agent is stood
    on it (its lowest point :data:`LIFT` of its radius above it). Points
    where its clearance exceeds ``radius`` are kept.

    Raises
    ------
    ValueError
        An empty world, or fewer than ``count`` free points found.
    """
    bounds = world.bounds
    if bounds is None:
        raise ValueError("the level has no obstacles to walk on")
    lo, hi = (np.asarray(v, float) for v in bounds)
    up = np.eye(3)[Axes3D.of(world).up]
    stand = max(radius, 0.5 * height) + LIFT * max(radius, 1e-3 * float(np.max(hi - lo)))
    spawns = np.asarray(spawns, float).reshape(-1, 3)
    found = [spawns[agent_clearance(world, spawns, radius, height) > radius]] if len(spawns) \
        else []
    have = sum(len(f) for f in found)
    tries = 0
    while have < count and tries < START_TRIES * count:
        p = rng.uniform(lo, hi, (4 * (count - have) + 16, 3))
        tries += len(p)
        below = world.raycast(p, np.broadcast_to(-up, p.shape))
        p = below.point[below.hit] + stand * up
        good = p[agent_clearance(world, p, radius, height) > radius]
        found.append(good)
        have += len(good)
    if have < count:
        raise ValueError(f"found only {have} free start points for agents of radius {radius} "
                         f"and height {height} in {tries} tries")
    return np.concatenate(found)[:count]


def walk3d(world, starts, *, steps=STEPS, speed=None, gravity=None, radius=0.0, height=0.0,
           mode="slide", seed=0, progress=None, crowd=False):
    """Walk agents from ``starts`` for ``steps`` frames with :meth:`World3D.move_many`
    (or, with ``crowd``, the steps of a :class:`~sidestep.Crowd3D`).

    Parameters
    ----------
    world : World3D
    starts : (n, 3) float64
    steps : int >= 1
    speed : float > 0, optional
        Horizontal step per frame (world units); by default
        :data:`SPEED_SHARE` of the level's largest side.
    gravity : float >= 0, optional
        Pull down along ``up`` per frame; by default ``speed``.
    radius, height : float >= 0
        The agents: spheres, or upright capsules when ``height > 2 * radius``.
    mode : {"slide", "push", "block", "ghost"}
    seed : int
        Seeds the headings.
    progress : callable, optional
        Called as ``progress(frame, steps)`` after each frame.
    crowd : bool
        Walk the agents as a :class:`~sidestep.Crowd3D`: they collide with each
        other too (modes ``slide``, ``block``, ``ghost``; a radius > 0).

    Returns
    -------
    Walk3D
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if crowd:
        from ..crowd import CROWD_MODES
        if mode not in CROWD_MODES:
            raise ValueError(f"a crowd moves in mode {', '.join(CROWD_MODES)}; got {mode!r}")
        if not radius > 0.0:
            raise ValueError("a crowd's agents need a radius > 0 (--radius)")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps must be a whole number >= 1, got {steps!r}")
    p = np.asarray(starts, float).reshape(-1, 3).copy()
    if not np.all(np.isfinite(p)):
        raise ValueError("starts must be finite (n, 3) points")
    if speed is None:
        lo, hi = world.bounds if world.bounds is not None else (np.zeros(3), np.ones(3))
        speed = SPEED_SHARE * float(np.max(np.asarray(hi) - np.asarray(lo)))
    speed = float(speed)
    gravity = speed if gravity is None else float(gravity)
    if not (math.isfinite(speed) and speed > 0):
        raise ValueError(f"speed must be a finite number > 0, got {speed}")
    if not (math.isfinite(gravity) and gravity >= 0):
        raise ValueError(f"gravity must be a finite number >= 0, got {gravity}")
    axes = Axes3D.of(world)
    a, b = axes.ground
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, 2.0 * math.pi, len(p))
    positions = [p.copy()]
    desired = []
    clearances = [agent_clearance(world, p, radius, height)]
    if crowd:
        from ..crowd3d import Crowd3D
        group = Crowd3D(world, p, radius, height)
    for frame in range(steps):
        angle = angle + rng.normal(0.0, TURN, len(p))
        d = np.zeros_like(p)
        d[:, a] = speed * np.cos(angle)
        d[:, b] = speed * np.sin(angle)
        d[:, axes.up] = -gravity
        if crowd:
            p = group.step(d, mode).positions
        else:
            p = world.move_many(p, d, radius=radius, height=height, mode=mode)
        positions.append(p.copy())
        desired.append(d)
        clearances.append(agent_clearance(world, p, radius, height))
        if progress is not None:
            progress(frame + 1, steps)
    return Walk3D(np.array(positions), np.array(desired), np.array(clearances), float(radius),
                  float(height), mode, speed, bool(crowd), axes.up)


def format_table(run):
    """Per-agent figures of a walk as an aligned text table, a summary line last."""
    lines = [f"{'agent':>5} {'travelled':>10} {'contacts':>9} {'stuck':>6} "
             f"{'min clearance':>14} {'outside':>8}"]
    for r in run.agents():
        lines.append(f"{r['agent']:>5d} {r['travelled']:>10.3g} {r['contacts']:>9d} "
                     f"{r['stuck_frames']:>6d} {r['min_clearance']:>14.4g} "
                     f"{'yes' if r['outside'] else 'NO':>8}")
    s = run.summary()
    lines.append(f"{s['agents']} agents, {s['frames']} frames, mode {s['mode']}, radius "
                 f"{s['radius']:g}, height {s['height']:g}: min clearance "
                 f"{s['min_clearance']:.4g}, "
                 f"{'all outside every surface' if s['all_outside'] else 'SOME OVERLAPPED'}; "
                 f"{'a crowd: ' if s['crowd'] else ''}agents came to overlap "
                 f"{s['agent_overlaps']} times")
    return "\n".join(lines)


def draw_walk3d(level, run, out):
    """Save a top view of the level with every agent's path (start o, end x)."""
    from matplotlib.figure import Figure

    from .pictures import DPI, picture_format
    from .render3d import cast_views

    kind = picture_format(out)
    world = getattr(level, "world", level)
    top, _ = cast_views(world, None, None, camera=False, top_size=RELIEF)
    axes = top.axes
    fig = Figure(figsize=(8, 7), layout="constrained")
    ax = fig.subplots()
    draw_top(ax, top, world=world)
    a, b = axes.ground
    p = run.positions
    for i in range(p.shape[1]):
        line, = ax.plot(p[:, i, a], p[:, i, b], linewidth=1.2)
        ax.plot(p[0, i, a], p[0, i, b], "o", color=line.get_color(), markersize=4)
        ax.plot(p[-1, i, a], p[-1, i, b], "x", color=line.get_color(), markersize=6)
    s = run.summary()
    name = getattr(level, "name", "") or "level"
    ax.set_title(f"{name}: {s['agents']} agents, {s['frames']} frames, {s['mode']}, radius "
                 f"{s['radius']:g}, height {s['height']:g}; o start, x end\nmin clearance "
                 f"{s['min_clearance']:.4g}", fontsize=9)
    fig.savefig(out, format=kind, dpi=100)
    return fig
