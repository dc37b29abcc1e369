"""``sidestep walk``: agents walk through a level, and what happened to each of them.

Every frame each agent asks for a step of ``speed`` (world units), towards
its goal or along its own random-walk heading, and :meth:`World2D.move_many`
moves them all at once in the chosen mode (``slide``, ``push``, ``block`` or
``ghost``); with ``crowd`` a :class:`~sidestep.Crowd` does, so the agents
collide with each other too. Agents here do not path-find: one heading into a dead end stays
stuck, which is what a collision debugger should show (scenario agents of
``sidestep walk`` follow paths instead: :mod:`sidestep.commands.follow`). Per agent, :class:`Walk`
measures

- ``travelled``: the length of its path;
- ``contacts``: frames in which an obstacle changed its move (the position
  reached differs from the one asked for by more than :data:`DEFLECTED`);
  ``move_many`` returns positions only, so contacts are counted per frame,
  not per obstacle touched;
- ``stuck_frames``: frames in which it moved less than :data:`STUCK` of the
  step it asked for;
- ``min_clearance``: the smallest gap between its disc and the nearest
  surface over the walk, after the start (negative: it overlapped an
  obstacle, or left the level);
- ``start_overlap``: for an agent that started overlapping something or
  outside the level (behind a one-sided wall, its edge), what: the moves
  first recover it to a free spot inside. ``walk`` warns about these.

and for the walk as a whole ``agent_overlaps``: how many times two agents
came to overlap (by more than the skin) that were apart the frame before
(agents of ``move_many`` pass through each other; a crowd's never do; agents
that start on top of each other separate and do not count).

>>> import numpy as np, sidestep
>>> from sidestep.commands.walk import walk
>>> world = sidestep.World2D()
>>> wall = world.add_walls([(2, -5)], [(2, 5)])
>>> run = walk(world, [(0, 0)], goals=[(4, 1)], radius=0.25, speed=0.5, steps=30)
>>> agent = run.agents()[0]
>>> agent["reached"], agent["contacts"] > 0, agent["min_clearance"] >= -1e-9
(False, True, True)
"""
import math
from dataclasses import dataclass

import numpy as np

from ..tolerances import SKIN
from ..world import MODES
from .starts import start_overlaps

#: A frame's move was changed by an obstacle when the position reached is
#: farther than this (world units) from the one asked for: well above float
#: rounding of a free move, well below the skin that ``slide`` keeps (1e-6).
DEFLECTED = 1e-9
#: An agent is stuck in a frame when it moves less than this share of its step.
STUCK = 0.1
#: Default speed, as a share of the level's diagonal per frame: a straight
#: crossing of the whole level takes 400 frames.
SPEED_SHARE = 1.0 / 400.0
#: Random walkers turn by a normal angle of this spread (radians) each frame.
TURN = 0.25
#: Frames of a random walk when not given.
WANDER_STEPS = 300
#: Upper bound on frames when they are derived from the goals' distance.
MAX_DEFAULT_STEPS = 20_000
#: Upper bound on agents x frames (the stored positions take 16 bytes each).
MAX_AGENT_FRAMES = 50_000_000
#: Random draws tried per agent when looking for free start points.
START_TRIES = 200


@dataclass(frozen=True)
class Walk:
    """Agents' positions, frame by frame, and what their walk measured."""

    #: ``(frames + 1, n, 2) float64``: positions, the starts first.
    positions: np.ndarray
    #: ``(frames, n, 2) float64``: the step each agent asked for in each frame.
    desired: np.ndarray
    #: ``(frames + 1, n) float64``: each agent's clearance minus its radius.
    gaps: np.ndarray
    #: ``(n, 2) float64`` goals, or None for random walkers.
    goals: object
    #: The agents' radius.
    radius: float
    #: The move mode.
    mode: str
    #: The step asked for per frame (world units).
    speed: float
    #: :class:`~sidestep.commands.starts.StartOverlap` of each agent that
    #: started overlapping something or outside the level (the move recovers
    #: it to a free spot first).
    overlaps: tuple = ()
    #: Whether the agents collided with each other (a :class:`~sidestep.Crowd`).
    crowd: bool = False

    def touching(self, frame, gap=2.0 * SKIN):
        """``(m, 2)`` index pairs of agents closer than two radii plus ``gap`` at ``frame``."""
        from ..kernels.crowd import grid_agents, touching_pairs
        p = np.ascontiguousarray(self.positions[frame])
        radii = np.full(len(p), self.radius)
        return touching_pairs(p, radii, *grid_agents(p, 2.0 * self.radius + abs(gap) + 1e-9),
                              gap)

    def agent_overlaps(self):
        """How many times two agents came to overlap (by more than the skin) from apart."""
        if self.radius <= 0.0:
            return 0
        count = 0
        before = {tuple(p) for p in self.touching(0, -SKIN)}
        for t in range(1, self.frames + 1):
            now = {tuple(p) for p in self.touching(t, -SKIN)}
            count += len(now - before)
            before = now
        return count

    @property
    def frames(self):
        """How many frames were walked."""
        return len(self.desired)

    @property
    def deflected(self):
        """``(frames, n) bool``: frames in which an obstacle changed an agent's move."""
        achieved = np.diff(self.positions, axis=0)
        return np.hypot(*(achieved - self.desired).T).T > DEFLECTED

    @property
    def stuck(self):
        """``(frames, n) bool``: frames in which an agent moved less than :data:`STUCK` of its step."""
        asked = np.hypot(*self.desired.T).T
        moved = np.hypot(*np.diff(self.positions, axis=0).T).T
        return (asked > 0) & (moved < STUCK * asked)

    @property
    def walked_gaps(self):
        """``(frames, n)``: the gaps after each frame (the start's own is in ``overlaps``)."""
        return self.gaps[1:] if len(self.gaps) > 1 else self.gaps

    def reached(self):
        """``(n,) bool``: agents that ended within half a step of their goal (False without goals)."""
        if self.goals is None:
            return np.zeros(self.positions.shape[1], bool)
        return np.hypot(*(self.positions[-1] - self.goals).T) <= 0.5 * self.speed

    def agents(self):
        """Per-agent figures as JSON-ready dicts.

        Returns
        -------
        list of dict
            ``agent``, ``start``, ``end``, ``goal`` (None for random walkers),
            ``reached``, ``travelled``, ``contacts``, ``stuck_frames``,
            ``min_clearance`` (None in an empty world) and ``start_overlap``
            (None for an agent that started free, else what it overlapped:
            ``obstacles``, ``families``, ``outside`` the level, ``clearance``).
        """
        overlap = {o.index: o.as_dict() for o in self.overlaps}
        travelled = np.hypot(*np.diff(self.positions, axis=0).T).T.sum(axis=0)
        contacts = self.deflected.sum(axis=0)
        stuck = self.stuck.sum(axis=0)
        least = self.walked_gaps.min(axis=0)
        reached = self.reached()
        rows = []
        for i in range(self.positions.shape[1]):
            rows.append({
                "agent": i,
                "start": self.positions[0, i].tolist(),
                "end": self.positions[-1, i].tolist(),
                "goal": None if self.goals is None else self.goals[i].tolist(),
                "reached": bool(reached[i]),
                "travelled": float(travelled[i]),
                "contacts": int(contacts[i]),
                "stuck_frames": int(stuck[i]),
                "min_clearance": float(least[i]) if np.isfinite(least[i]) else None,
                "start_overlap": overlap.get(i),
            })
        return rows

    def summary(self):
        """The walk as a whole: settings and totals, JSON-ready."""
        least = self.walked_gaps.min() if self.walked_gaps.size else math.inf
        return {"agents": int(self.positions.shape[1]), "frames": int(self.frames),
                "mode": self.mode, "radius": self.radius, "speed": self.speed,
                "reached": int(self.reached().sum()) if self.goals is not None else None,
                "travelled": float(np.hypot(*np.diff(self.positions, axis=0).T).sum()),
                "contacts": int(self.deflected.sum()), "stuck_frames": int(self.stuck.sum()),
                "min_clearance": float(least) if np.isfinite(least) else None,
                "overlapping_starts": len(self.overlaps),
                "starts_outside": sum(o.outside for o in self.overlaps),
                "crowd": self.crowd, "agent_overlaps": self.agent_overlaps()}


def default_speed(world, points=()):
    """Step per frame when none is given: :data:`SPEED_SHARE` of the level's diagonal.

    The diagonal covers the world's obstacles and ``points`` (starts,
    goals); 0.15 (the demo's step) when there is nothing to measure.

    Examples
    --------
    >>> import sidestep
    >>> world = sidestep.World2D()
    >>> default_speed(world)
    0.15
    >>> _ = world.add_boxes([(0, 0)], [(300, 400)])
    >>> default_speed(world)
    1.25
    """
    boxes = [] if world.bounds is None else [np.reshape(world.bounds, (2, 2))]
    boxes += [np.reshape(p, (-1, 2)) for p in points if np.size(p)]
    if not boxes:
        return 0.15
    every = np.vstack(boxes)
    diagonal = float(np.hypot(*(every.max(axis=0) - every.min(axis=0))))
    return diagonal * SPEED_SHARE if diagonal > 0 else 0.15


def free_starts(world, count, radius, rng, spawns=None):
    """``count`` start points: the level's spawns in turn, or random points where the agent fits.

    Parameters
    ----------
    world : World2D
    count : int
    radius : float
    rng : numpy.random.Generator
    spawns : (k, 2) float64, optional
        Used in turn when there are any.

    Returns
    -------
    (count, 2) float64

    Raises
    ------
    ValueError
        When random draws over the world's bounds find no room for the agent.
    """
    if spawns is not None and len(spawns):
        spawns = np.asarray(spawns, float).reshape(-1, 2)
        return spawns[np.arange(count) % len(spawns)].copy()
    bounds = world.bounds
    if bounds is None:
        return rng.uniform(-1.0, 1.0, (count, 2))
    lo, hi = np.array(bounds[:2]), np.array(bounds[2:])
    found = np.zeros((0, 2))
    for _ in range(START_TRIES):
        draw = rng.uniform(lo, hi, (max(4 * count, 64), 2))
        # Some room beyond the radius, so the first frame does not start in contact.
        found = np.vstack([found, draw[world.clearance(draw) > radius * 1.05 + 1e-9]])
        if len(found) >= count:
            return found[:count]
    raise ValueError(f"found no room for an agent of radius {radius:g} in "
                     f"{START_TRIES} tries: the level is too crowded for it")


def mover(world, starts, radius, mode, crowd):
    """The frame's move of every agent: ``move(here, step) -> there``.

    :meth:`World2D.move_many` (agents pass through each other), or with
    ``crowd`` the step of a :class:`~sidestep.Crowd` over them (they do
    not; modes ``slide``, ``block`` and ``ghost``, radius > 0).
    """
    if not crowd:
        return lambda here, step: world.move_many(here, step, radius=radius, mode=mode)
    from ..crowd import CROWD_MODES, Crowd
    if mode not in CROWD_MODES:
        raise ValueError(f"a crowd moves in mode {', '.join(CROWD_MODES)}; got {mode!r}")
    if not radius > 0:
        raise ValueError("a crowd's agents need a radius > 0 (--radius)")
    agents = Crowd(world, starts, radius)
    return lambda here, step: agents.step(step, mode).positions


def walk(world, starts, *, goals=None, steps=None, speed=None, radius=0.0, mode="slide",
         seed=0, progress=None, crowd=False):
    """Walk agents from ``starts``, to ``goals`` or along random-walk headings.

    Parameters
    ----------
    world : World2D (or a Level, whose world is used)
    starts : (n, 2) float64
    goals : (n, 2) float64, optional
        Each agent heads straight for its goal (no path-finding) and stops
        within half a step of it. Without goals, each agent walks along a
        heading that turns by a random normal angle (spread :data:`TURN`)
        every frame and turns back when it gets stuck.
    steps : int, optional
        Frames to walk. By default enough for the farthest goal in a straight
        line (1.5 times its distance over ``speed``, plus 20; at most
        :data:`MAX_DEFAULT_STEPS`), or :data:`WANDER_STEPS` for random walks.
        A walk to goals ends early when every agent has arrived.
    speed : float > 0, optional
        Step asked for per frame (world units); :func:`default_speed` by default.
    radius : float >= 0
    mode : {"slide", "push", "block", "ghost"}
    seed : int
        Seeds the random headings.
    progress : callable, optional
        Called as ``progress(frame, steps)`` after each frame.
    crowd : bool
        The agents collide with each other too (:func:`mover`).

    Returns
    -------
    Walk
    """
    world = getattr(world, "world", world)
    starts = np.asarray(starts, float).reshape(-1, 2)
    n = len(starts)
    if n == 0:
        raise ValueError("there are no agents to walk")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    radius = float(radius)
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    if goals is not None:
        goals = np.asarray(goals, float).reshape(-1, 2)
        if goals.shape != starts.shape:
            raise ValueError(f"need one goal per start, got {len(goals)} goals for {n} starts")
    speed = default_speed(world, [starts] + ([goals] if goals is not None else [])) \
        if speed is None else float(speed)
    if not (math.isfinite(speed) and speed > 0):
        raise ValueError(f"speed must be a finite number > 0, got {speed}")
    if steps is None:
        if goals is None:
            steps = WANDER_STEPS
        else:
            far = float(np.hypot(*(goals - starts).T).max())
            steps = min(math.ceil(1.5 * far / speed) + 20, MAX_DEFAULT_STEPS)
    if isinstance(steps, bool) or int(steps) != steps or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    steps = int(steps)
    if n * steps > MAX_AGENT_FRAMES:
        raise ValueError(f"{n} agents x {steps} frames is more than {MAX_AGENT_FRAMES:,} "
                         "agent-frames; walk fewer agents or frames")
    move = mover(world, starts, radius, mode, crowd)
    rng = np.random.default_rng(seed)
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    positions = np.empty((steps + 1, n, 2))
    desired = np.zeros((steps, n, 2))
    gaps = np.empty((steps + 1, n))
    positions[0] = starts
    gaps[0] = world.clearance(starts) - radius
    frame = 0
    while frame < steps:
        here = positions[frame]
        if goals is None:
            step = speed * np.column_stack([np.cos(heading), np.sin(heading)])
        else:
            gap = goals - here
            distance = np.hypot(*gap.T)
            # Arrived agents (within half a step) ask for nothing more; the
            # rest step towards the goal, landing on it from within one step.
            share = np.where(distance > 0.5 * speed, np.minimum(speed, distance), 0.0)
            if not np.any(share):
                break
            step = gap * (share / np.maximum(distance, 1e-300))[:, None]
        there = move(here, step)
        positions[frame + 1] = there
        desired[frame] = step
        gaps[frame + 1] = world.clearance(there) - radius
        frame += 1
        if goals is None:
            moved = np.hypot(*(there - here).T)
            stuck = moved < STUCK * speed
            # A stuck walker turns back, give or take a quarter turn, so it
            # does not press into the same wall for the rest of the walk.
            heading += rng.normal(0.0, TURN, n) + stuck * np.pi * (1.0 + rng.uniform(-0.5, 0.5, n))
        if progress is not None:
            progress(frame, steps)
    return Walk(positions[:frame + 1].copy(), desired[:frame].copy(), gaps[:frame + 1].copy(),
                goals, radius, mode, speed, start_overlaps(world, starts, radius), crowd)


def format_table(run, limit=20):
    """A walk as text: one row per agent (at most ``limit``), then the totals.

    Examples
    --------
    >>> import sidestep
    >>> run = walk(sidestep.World2D(), [(0, 0)], goals=[(1, 0)], speed=0.5)
    >>> print(format_table(run))
    agent  travelled  contacts  stuck  min clearance  reached
        0          1         0      0            inf      yes
    all: 1 agents, 2 frames, mode slide, radius 0, speed 0.5; 1 of 1 reached
    """
    lines = [f"{'agent':>5} {'travelled':>10} {'contacts':>9} {'stuck':>6} "
             f"{'min clearance':>14} {'reached':>8}"]
    rows = run.agents()
    for row in rows[:limit]:
        least = "inf" if row["min_clearance"] is None else f"{row['min_clearance']:.4g}"
        reached = "-" if row["goal"] is None else ("yes" if row["reached"] else "no")
        lines.append(f"{row['agent']:>5} {row['travelled']:>10.4g} {row['contacts']:>9} "
                     f"{row['stuck_frames']:>6} {least:>14} {reached:>8}")
    if len(rows) > limit:
        lines.append(f"  ... {len(rows) - limit} more agents (--json lists all)")
    total = run.summary()
    text = (f"all: {total['agents']} agents, {total['frames']} frames, mode {run.mode}, "
            f"radius {run.radius:g}, speed {run.speed:.4g}")
    if total["reached"] is not None:
        text += f"; {total['reached']} of {total['agents']} reached"
    if run.radius > 0:
        text += (f"; {'a crowd: ' if run.crowd else ''}agents came to overlap "
                 f"{total['agent_overlaps']} times")
    lines.append(text)
    lines += overlap_lines(run, limit)
    return "\n".join(lines)


def overlap_lines(run, limit=20):
    """Warnings for the agents that started overlapping something (none when all started free)."""
    if not run.overlaps:
        return []
    outside = sum(o.outside for o in run.overlaps)
    lines = [f"warning: {len(run.overlaps)} of {run.positions.shape[1]} agents started "
             f"overlapping something{f' ({outside} outside the level)' if outside else ''}; "
             "each was first moved to a free spot"]
    for o in run.overlaps[:limit]:
        lines.append(f"  agent {o.index} at ({o.point[0]:.6g}, {o.point[1]:.6g}): "
                     f"{o.describe()}")
    if len(run.overlaps) > limit:
        lines.append(f"  ... {len(run.overlaps) - limit} more (--json lists all)")
    return lines


#: Frames of an animation at most: a long walk is sampled down to this many.
GIF_FRAMES = 120
#: Frames per second of an animation.
GIF_FPS = 15


def _contact_starts(run):
    """``(k, 2)``: where each run of contact frames began (one mark per touch, not per frame)."""
    touching = run.deflected
    began = touching & ~np.vstack([np.zeros((1, touching.shape[1]), bool), touching[:-1]])
    frame, agent = np.nonzero(began)
    return run.positions[frame + 1, agent]


def _draw_scene(ax, world, run, *, with_paths=True):
    """The world, and the walk's starts, goals and (optionally) paths and contacts."""
    from .. import plot

    plot.draw_world(ax, world, halo=run.radius)
    handles = []
    if with_paths:
        many = run.positions.shape[1] > 50
        plot.draw_paths(ax, run.positions, linewidths=0.8 if many else 1.4,
                        alpha=0.6 if many else 0.9)
        contacts = _contact_starts(run)
        if len(contacts):
            # One mark per touch; the table's and the JSON's ``contacts`` count
            # frames in contact, so the legend names both counts apart.
            frames = int(run.deflected.sum())
            handles.append(plot.draw_contacts(
                ax, contacts, color="k", markersize=2.5, alpha=0.5,
                label=f"touches: {len(contacts)} ({frames} frames in contact)"))
        handles.append(ax.plot(*run.positions[-1].T, "o", color="k", markersize=3, zorder=5,
                               label="end")[0])
    handles.insert(0, ax.plot(*run.positions[0].T, "o", markerfacecolor="none",
                              markeredgecolor="k", markersize=5, zorder=5, label="start")[0])
    if run.goals is not None:
        handles.insert(1, ax.plot(*run.goals.T, "+", color="tab:red", markersize=8, mew=1.5,
                                  zorder=5, label="goal")[0])
    return handles


def _walk_title(name, run):
    """Title of a walk picture: the level, the agents and the settings."""
    total = run.summary()
    text = (f"{name}: {total['agents']} agent{'s' if total['agents'] != 1 else ''}, "
            f"{total['frames']} frames, mode {run.mode}, radius {run.radius:g}, "
            f"step {run.speed:.3g}/frame")
    if total["reached"] is not None:
        text += f"; {total['reached']} reached their goal"
    return text


def _walk_figure(level, run, y_down, *, with_paths):
    """A figure of ``level`` framed around ``run``, titled: ``(fig, ax, legend handles)``."""
    from .pictures import level_extent, level_figure

    world = getattr(level, "world", level)
    extent = level_extent(world, run.radius, [run.positions.reshape(-1, 2)] +
                          ([run.goals] if run.goals is not None else []))
    fig, ax = level_figure(extent)
    handles = _draw_scene(ax, world, run, with_paths=with_paths)
    ax.set(xlim=extent[:2], ylim=extent[3:1:-1] if y_down else extent[2:])
    ax.set_title(_walk_title(getattr(level, "name", "") or "level", run), fontsize=10)
    return fig, ax, handles


def draw_walk(level, run, out, *, y_down=False):
    """Save a picture of ``run`` over ``level``'s world at ``out`` (the extension picks the format).

    Parameters
    ----------
    level : Level or World2D
    run : Walk
    out : str or path-like
    y_down : bool
        Draw y growing downwards, as tile maps and Tiled files read.
    """
    from .pictures import DPI, picture_format

    kind = picture_format(out)
    fig, ax, handles = _walk_figure(level, run, y_down, with_paths=True)
    ax.set(xlabel="x", ylabel="y")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              fontsize=8)
    fig.savefig(out, format=kind, dpi=DPI)


def animate_walk(level, run, out, *, y_down=False, progress=None):
    """Save ``run`` as an animated GIF at ``out``: agents as dots with their trails.

    The level is drawn once and each frame only redraws the agents over it
    (blitting), so a big level animates as fast as a small one; frames go to
    Pillow (a matplotlib dependency) directly. Long walks are sampled down
    to :data:`GIF_FRAMES` frames.

    Parameters
    ----------
    level : Level or World2D
    run : Walk
    out : str or path-like
    y_down : bool
    progress : callable, optional
        Called as ``progress(frame, frames)`` after each frame drawn.
    """

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from PIL import Image

    from .. import plot
    from .pictures import writable_path

    out = writable_path(out)
    fig, ax, _ = _walk_figure(level, run, y_down, with_paths=False)
    colors = plot.agent_colors(run.positions.shape[1])
    trails = ax.add_collection(LineCollection([], colors=colors, linewidths=1.2, zorder=4,
                                              animated=True))
    dots = ax.scatter(*run.positions[0].T, s=16, c=colors, edgecolors="k", linewidths=0.5,
                      zorder=6, animated=True)
    # A crowd's agents touching each other: a red link between their centres.
    links = ax.add_collection(LineCollection([], colors="tab:red", linewidths=1.5, zorder=5,
                                             animated=True))
    label = ax.text(0.01, 0.01, "", transform=ax.transAxes, fontsize=9, zorder=7,
                    animated=True, bbox=dict(facecolor="white", alpha=0.8, linewidth=0))
    canvas = FigureCanvasAgg(fig)
    # About 80 dpi: a GIF is for watching, and each frame is a full image.
    fig.set_dpi(80)
    # Lay the figure out once, then freeze the layout: blitting needs the
    # axes to stay where the saved background has them.
    canvas.draw()
    fig.set_layout_engine("none")
    canvas.draw()
    background = canvas.copy_from_bbox(fig.bbox)
    chosen = np.unique(np.linspace(0, run.frames, min(GIF_FRAMES, run.frames + 1)).astype(int))
    images = []
    for k, t in enumerate(chosen):
        canvas.restore_region(background)
        trails.set_segments(list(np.swapaxes(run.positions[:t + 1], 0, 1)))
        dots.set_offsets(run.positions[t])
        pairs = run.touching(t) if run.crowd else np.empty((0, 2), int)
        links.set_segments(list(run.positions[t][pairs]))
        label.set_text(f"frame {t} of {run.frames}"
                       + (f", {len(pairs)} agents touching" if run.crowd else ""))
        for artist in (trails, links, dots, label):
            ax.draw_artist(artist)
        width, height = canvas.get_width_height()
        images.append(Image.frombuffer("RGBA", (width, height), bytes(canvas.buffer_rgba()),
                                       "raw", "RGBA", 0, 1).convert("RGB"))
        if progress is not None:
            progress(k + 1, len(chosen))
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                   duration=int(1000 / GIF_FPS), loop=0)
