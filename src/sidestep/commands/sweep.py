"""``sidestep check --sweep``: reachability QA, agents walked out from every start in every heading.

From each start (the level's spawns, or else a lattice of free points over
the level) agents of one radius walk ``headings`` ways for ``frames``
frames, moved with :meth:`World2D.move_many` (``slide``). Each walks straight
on along its heading and slides along what it meets; held for
:data:`PATIENCE` frames in a row (it moved less than
:data:`~sidestep.commands.walk.STUCK` of its step, as a ``blocked`` or
``stuck`` move does), it turns by about 135 degrees, so that in a few turns
it has tried every heading. The sweep reports, per level and radius:

- ``stuck``: an agent held :data:`HOLD` frames in a row at a walkable place
  (inside the level, clear of every obstacle by its radius): it tried every
  heading and none let it move: a pocket it cannot leave, or a snag;
- ``inside``: an agent that ended a frame inside an obstacle or outside the
  level (clearance below its radius by more than 1e-9): must never happen;
- ``trapped``: a start from which no agent got farther than ``escape`` (by
  default the lattice spacing) in any heading: the region round it cannot
  be left (an enclosed pocket, a room with no door wide enough). The walkers
  do not path-find: in a maze of one-cell corridors they seldom get far, and
  most starts come out trapped.

Every agent's walk is its own (``move_many`` moves each agent exactly as
``move`` would), so the findings do not depend on how the starts are split
into tiles or tasks: :func:`sweep_part` walks the starts placed in one
region, :func:`merge_sweeps` puts the regions together.

>>> import sidestep
>>> world = sidestep.World2D()
>>> room = [(0, 0), (10, 0), (10, 10), (0, 10)]
>>> edge = world.add_walls(room, room[1:] + room[:1], one_sided=True)
>>> box = world.add_walls([(1, 1), (3, 1), (3, 3), (1, 3)], [(3, 1), (3, 3), (1, 3), (1, 1)])
>>> report = sweep(world, 0.2, spacing=1.0, frames=60, speed=0.2, escape=3.0)
>>> sorted({f.kind for f in report.findings}), report.starts
(['trapped'], 100)
>>> [f.position for f in report.findings]        # the lattice's points inside the walled box
[(1.5, 1.5), (2.5, 1.5), (1.5, 2.5), (2.5, 2.5)]
"""
import math
from dataclasses import dataclass

import numpy as np

from .findings import Finding, at
from .regions import EVERYWHERE
from .walk import STUCK, default_speed

#: The kinds of sweep finding, in the order a report lists them.
SWEEP_KINDS = ("stuck", "inside", "trapped")
#: Headings each start is walked in, evenly spaced from +x.
HEADINGS = 8
#: Frames each agent walks.
FRAMES = 200
#: Held frames in a row before an agent turns.
PATIENCE = 2
#: Held frames in a row that make an agent ``stuck`` (with :data:`PATIENCE`
#: 2 and 8 headings it has turned 8 times by then, through every heading).
HOLD = 24
#: Lattice points along the level's longer side when no spacing is given.
LATTICE = 24
#: Starts have at least this much room beyond the radius (share of it, plus 1e-9).
START_ROOM = 1.05
#: An agent is inside something when its clearance is below its radius by more than this.
INSIDE = 1e-9


@dataclass(frozen=True)
class SweepSettings:
    """How a sweep walks: frozen, so a task can carry it to another process.

    ``None`` fields are worked out from the level (:func:`settings_for`).
    """

    #: Headings per start (>= 1).
    headings: int = HEADINGS
    #: Frames per agent (>= 1).
    frames: int = FRAMES
    #: Step per frame (world units); default :func:`~sidestep.commands.walk.default_speed`.
    speed: float | None = None
    #: Lattice spacing (world units) when the level has no spawns; default
    #: the level's longer side over :data:`LATTICE`.
    spacing: float | None = None
    #: Farthest distance (world units) that still counts as trapped; default
    #: the lattice spacing (whether or not the starts are the lattice's).
    escape: float | None = None

    def __post_init__(self):
        for name in ("headings", "frames"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        for name in ("speed", "spacing", "escape"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float, np.floating))
                                          and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


@dataclass(frozen=True)
class SweepPart:
    """What :func:`sweep_part` found in one region: findings ranked as one pass lists them."""

    #: The level's name.
    name: str
    #: The agents' radius.
    radius: float
    #: Starts walked from in this region.
    starts: int
    #: ``((rank, Finding), ...)``.
    listed: tuple
    #: The settings, with the level's defaults filled in.
    settings: SweepSettings
    #: The agents' height on a 3D level (upright capsules); None in 2D.
    height: float | None = None


@dataclass(frozen=True)
class SweepReport:
    """What a sweep found in a level for one radius."""

    #: The level's name.
    name: str
    #: The agents' radius.
    radius: float
    #: Starts walked from.
    starts: int
    #: Every :class:`~sidestep.commands.findings.Finding`, by kind in
    #: :data:`SWEEP_KINDS` order, then by start and heading.
    findings: tuple
    #: The settings used (defaults filled in).
    settings: SweepSettings
    #: The agents' height on a 3D level (upright capsules); None in 2D.
    height: float | None = None

    @property
    def ok(self):
        """True when no agent got stuck, inside something or trapped."""
        return not self.findings

    @property
    def agents(self):
        """Agents walked: starts times headings."""
        return self.starts * self.settings.headings

    def counts(self):
        """``{kind: number of findings}`` for every kind in :data:`SWEEP_KINDS`."""
        return {kind: sum(f.kind == kind for f in self.findings) for kind in SWEEP_KINDS}

    def as_dict(self):
        """The sweep as JSON-ready plain types."""
        s = self.settings
        return {"level": self.name, "radius": self.radius, "starts": self.starts,
                "agents": self.agents, "headings": s.headings, "frames": s.frames,
                "speed": s.speed, "spacing": s.spacing, "escape": s.escape, "ok": self.ok,
                "counts": self.counts(), "findings": [f.as_dict() for f in self.findings],
                **({} if self.height is None else {"height": self.height})}

    def format(self, limit=20):
        """The sweep as text: at most ``limit`` lines per kind, then a summary line."""
        s = self.settings
        lines = [f"{self.name}: sweep of {self.starts} starts x {s.headings} headings x "
                 f"{s.frames} frames, agent radius {self.radius:g}"
                 f"{'' if self.height is None else f', height {self.height:g}'}, step "
                 f"{s.speed:.4g}"]
        for kind in SWEEP_KINDS:
            found = [f for f in self.findings if f.kind == kind]
            lines += [f"{kind:<14}{f.message}" for f in found[:limit]]
            if len(found) > limit:
                lines.append(f"{kind:<14}... and {len(found) - limit} more (--json lists all)")
        if self.ok:
            lines.append("every agent could move on and stayed clear")
        else:
            parts = [f"{n} {kind}" for kind, n in self.counts().items() if n]
            lines.append(f"{len(self.findings)} sweep findings: {', '.join(parts)}")
        return "\n".join(lines)


def settings_for(world, settings=None):
    """``settings`` (default :class:`SweepSettings`) with ``speed``, ``spacing`` and ``escape`` filled in.

    The defaults follow the level's size (``world.bounds``), the same in every
    process, so every tile of a level walks the same lattice at the same step.
    """
    s = settings or SweepSettings()
    speed = s.speed if s.speed is not None else default_speed(world)
    spacing = s.spacing
    if spacing is None:
        b = world.bounds
        side = max(b[2] - b[0], b[3] - b[1]) if b is not None else 0.0
        spacing = side / LATTICE if side > 0 else 1.0
    escape = s.escape if s.escape is not None else spacing
    return SweepSettings(s.headings, s.frames, float(speed), float(spacing), float(escape))


def sweep_starts(level, radius, spacing):
    """``(n, 2) float64``: the level's spawns, or else the free points of a lattice over it.

    The lattice has a point at the middle of each ``spacing`` square over
    ``world.bounds``; a point is kept when an agent of ``radius`` fits there
    with :data:`START_ROOM` to spare (inside the level, clear of everything).
    """
    world = getattr(level, "world", level)
    spawns = getattr(level, "spawns", None)
    if spawns is not None and len(spawns):
        return np.asarray(spawns, float).reshape(-1, 2).copy()
    b = world.bounds
    if b is None:
        return np.zeros((1, 2))
    xs = b[0] + spacing * (np.arange(max(1, math.ceil((b[2] - b[0]) / spacing))) + 0.5)
    ys = b[1] + spacing * (np.arange(max(1, math.ceil((b[3] - b[1]) / spacing))) + 0.5)
    grid = np.column_stack([np.tile(xs, len(ys)), np.repeat(ys, len(xs))])
    return grid[world.clearance(grid) >= START_ROOM * radius + 1e-9]


def turn_step(headings):
    """Headings to turn by when held: the one nearest 3/8 of a turn that visits every heading.

    >>> turn_step(8), turn_step(16), turn_step(4), turn_step(1)
    (3, 5, 1, 0)
    """
    if headings == 1:
        return 0
    best = None
    for k in range(1, headings):
        if math.gcd(k, headings) == 1:
            key = (abs(k - 3 * headings / 8), k)
            best = key if best is None or key < best else best
    return best[1]


def sweep_part(level, radius, region=EVERYWHERE, settings=None):
    """Walk the sweep's agents from the starts placed in ``region``.

    Parameters
    ----------
    level : Level or World2D
    radius : float >= 0
        The agents' radius (world units).
    region : Region
        Which starts to walk (all by default).
    settings : SweepSettings, optional

    Returns
    -------
    SweepPart
    """
    radius = float(radius)
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    world = getattr(level, "world", level)
    name = getattr(level, "name", "") or "level"
    s = settings_for(world, settings)
    starts = sweep_starts(level, radius, s.spacing)
    index = np.flatnonzero(region.holds(starts))
    listed = _walk(world, radius, starts[index], index, s) if len(index) else []
    return SweepPart(name, radius, len(index), tuple(listed), s)


def merge_sweeps(parts):
    """One :class:`SweepReport` from the :class:`SweepPart` of every tile of a level."""
    parts = list(parts)
    if not parts:
        raise ValueError("parts must hold at least one SweepPart")
    head = parts[0]
    if any((p.name, p.radius, p.settings, p.height) !=
           (head.name, head.radius, head.settings, head.height) for p in parts):
        raise ValueError("parts must all come from the same level, radius and settings")
    listed = sorted((item for p in parts for item in p.listed), key=lambda item: item[0])
    return SweepReport(head.name, head.radius, sum(p.starts for p in parts),
                       tuple(f for _, f in listed), head.settings, head.height)


def sweep(level, radius, **settings):
    """Sweep a whole level: :func:`sweep_part` over the plane, merged. ``settings`` as :class:`SweepSettings`."""
    return merge_sweeps([sweep_part(level, radius, settings=SweepSettings(**settings))])


def _walk(world, radius, starts, index, s):
    """The findings of the agents from ``starts`` (numbered ``index`` among all starts)."""
    n_starts, n = len(starts), len(starts) * s.headings
    # Unit headings from Python's scalar cos and sin, so an agent's steps are
    # the same bits whichever batch it is walked in.
    units = np.array([(math.cos(2 * math.pi * k / s.headings),
                       math.sin(2 * math.pi * k / s.headings)) for k in range(s.headings)])
    turn = turn_step(s.headings)
    origin = np.repeat(starts, s.headings, axis=0)
    heading = np.tile(np.arange(s.headings), n_starts)
    here = origin.copy()
    held = np.zeros(n, np.int64)
    farthest = np.zeros(n)
    stuck_at = np.full(n, -1)
    inside_at = np.full(n, -1)
    stuck_place = np.zeros((n, 2))
    inside_place = np.zeros((n, 2))
    inside_gap = np.zeros(n)
    for frame in range(1, s.frames + 1):
        step = s.speed * units[heading]
        there = world.move_many(here, step, radius=radius)
        moved = np.hypot(*(there - here).T)
        held = np.where(moved < STUCK * s.speed, held + 1, 0)
        gap = np.atleast_1d(world.clearance(there)) - radius
        new = (inside_at < 0) & (gap < -INSIDE)
        inside_at[new], inside_place[new], inside_gap[new] = frame, there[new], gap[new]
        new = (stuck_at < 0) & (held >= HOLD) & (gap >= -INSIDE)
        stuck_at[new], stuck_place[new] = frame, there[new]
        turning = (held > 0) & (held % PATIENCE == 0)
        heading = np.where(turning, (heading + turn) % s.headings, heading)
        farthest = np.maximum(farthest, np.hypot(*(there - origin).T))
        here = there
    listed = []
    for a in np.flatnonzero(stuck_at >= 0):
        start, way = int(index[a // s.headings]), int(a % s.headings)
        listed.append(((0, start, way), Finding(
            "stuck", f"agent from start {start} heading {way} held {HOLD} frames at "
            f"{at(stuck_place[a])} (frame {stuck_at[a]}): no heading lets it move",
            tuple(map(float, stuck_place[a])), details={
                "start": start, "heading": way, "frame": int(stuck_at[a])})))
    for a in np.flatnonzero(inside_at >= 0):
        start, way = int(index[a // s.headings]), int(a % s.headings)
        listed.append(((1, start, way), Finding(
            "inside", f"agent from start {start} heading {way} ended frame {inside_at[a]} "
            f"{-inside_gap[a]:.3g} deep in something at {at(inside_place[a])}",
            tuple(map(float, inside_place[a])), details={
                "start": start, "heading": way, "frame": int(inside_at[a]),
                "clearance": float(inside_gap[a] + radius)})))
    reach = farthest.reshape(n_starts, s.headings).max(axis=1)
    for k in np.flatnonzero(reach < s.escape):
        start = int(index[k])
        listed.append(((2, start, 0), Finding(
            "trapped", f"start {start} at {at(starts[k])}: no agent got farther than "
            f"{reach[k]:.4g} in {s.headings} headings x {s.frames} frames "
            f"(escape: {s.escape:.4g})", tuple(map(float, starts[k])),
            details={"start": start, "farthest": float(reach[k])})))
    return listed
