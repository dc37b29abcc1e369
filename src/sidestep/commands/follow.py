"""``sidestep walk`` with scenarios: agents follow paths, and where collision disagrees with them.

Each agent gets a path from the level's navigation data
(:func:`sidestep.paths.navigator`: grid A* on a Moving AI map, A* and the
funnel on a navmesh) and walks it frame by frame: each frame it asks for a
step of ``speed`` towards its next waypoint (landing on it when nearer;
passing it within its radius when a wall holds it off), and
:meth:`World2D.move_many` moves all agents at once, so collision keeps them
out of everything the path may graze. Per scenario, :class:`Followed`
reports whether the agent reached its goal, the length it walked against
the path's length and the file's optimal length, and, for an agent that
made no headway for :data:`STUCK_FRAMES` frames, where it got stuck: a place
the navigation data calls walkable where a disc of this radius does not
pass (a level-QA finding: the navigation data and the collision geometry
disagree).

An end of a scenario closer to a wall than the radius (navmesh scenarios
start and end on the mesh's edges) is first moved to where the disc fits,
on the side the navigation data calls walkable (:func:`_fit`). ``start``/``goal`` in
the report are those points; ``scenario_start``/``scenario_goal`` the file's.

>>> import numpy as np, sidestep
>>> from sidestep.paths import GridNavigator
>>> blocked = np.array([[0, 0, 0], [1, 1, 0], [0, 0, 0]], bool)
>>> world = sidestep.World2D()
>>> _ = world.add_grid(blocked)
>>> run = follow(world, GridNavigator(blocked), [(0.5, 0.5)], [(0.5, 2.5)], radius=0.3,
...              speed=0.1, optimal=[6.0])
>>> row = run.agents()[0]
>>> row["reached"], round(row["path_length"], 6), round(row["travelled"], 6)
(True, 6.0, 6.0)
"""
import math
from dataclasses import dataclass

import numpy as np

from ..world import MODES
from .walk import MAX_AGENT_FRAMES, MAX_DEFAULT_STEPS, STUCK, Walk, default_speed, mover

#: An agent is stuck when its distance left along its path has not shrunk by
#: :data:`~sidestep.commands.walk.STUCK` of a step over this many frames.
STUCK_FRAMES = 40
#: A waypoint is passed when the agent is this share of a step from it (or nearer).
ARRIVE = 0.01


@dataclass(frozen=True)
class Followed:
    """Agents that followed paths: the walk itself and, per agent, its path and how it went."""

    #: The frames walked (positions, steps asked for, clearances); its
    #: ``goals`` are the points the agents headed for.
    walk: Walk
    #: One :class:`sidestep.paths.Route` per agent (found or not).
    routes: tuple
    #: ``(n, 2) float64``: the scenarios' starts and goals as given.
    scenario_starts: np.ndarray
    scenario_goals: np.ndarray
    #: ``(n,) float64``: the scenario file's optimal lengths (NaN: not given).
    optimal: np.ndarray
    #: ``(n,) int64``: the frame in which each agent was found stuck, -1 if never.
    stuck_frame: np.ndarray
    #: ``(n, 2) float64``: where it was stuck (NaN if never).
    stuck_at: np.ndarray
    #: ``(n, 2) float64``: the waypoint it was heading for then (NaN if never).
    stuck_toward: np.ndarray
    #: How the paths were found (:data:`sidestep.paths.GRID_FINDER` ...).
    finder: str

    def agents(self):
        """Per-agent figures as JSON-ready dicts: :meth:`Walk.agents`'s keys, and

        ``route`` ("path"), ``path_found``, ``no_path`` (why not, or None),
        ``path_length`` (the path's length, None without one),
        ``optimal_length`` (the scenario file's, None if not given),
        ``walked_over_optimal`` (``travelled / optimal_length``, None when
        unknown or 0), ``stuck_at`` and ``stuck_toward`` (``[x, y]`` or None),
        ``stuck_frame`` (or None), ``scenario_start`` and ``scenario_goal``.
        """
        rows = self.walk.agents()
        for i, row in enumerate(rows):
            route = self.routes[i]
            best = float(self.optimal[i])
            stuck = int(self.stuck_frame[i]) >= 0
            row.update({
                "route": "path",
                "path_found": bool(route.found),
                "no_path": None if route.found else route.reason,
                "path_length": float(route.length) if route.found else None,
                "optimal_length": best if math.isfinite(best) else None,
                "walked_over_optimal": (row["travelled"] / best
                                        if math.isfinite(best) and best > 0 else None),
                "stuck_at": self.stuck_at[i].tolist() if stuck else None,
                "stuck_toward": self.stuck_toward[i].tolist() if stuck else None,
                "stuck_frame": int(self.stuck_frame[i]) if stuck else None,
                "scenario_start": self.scenario_starts[i].tolist(),
                "scenario_goal": self.scenario_goals[i].tolist(),
            })
        return rows

    def summary(self):
        """:meth:`Walk.summary`'s totals, and the route, finder, no_path and stuck counts."""
        total = self.walk.summary()
        ratios = [r["walked_over_optimal"] for r in self.agents()
                  if r["reached"] and r["walked_over_optimal"] is not None]
        total.update({
            "route": "path",
            "finder": self.finder,
            "no_path": int(sum(not r.found for r in self.routes)),
            "stuck": int((self.stuck_frame >= 0).sum()),
            "median_walked_over_optimal": float(np.median(ratios)) if ratios else None,
        })
        return total


def _fit(world, navigator, point, toward, radius):
    """``point``, or a place near it where the disc fits, on the walkable side.

    Two tries: a collide-and-slide move from ``toward`` (the path's next
    point) to ``point``, which ends as near it as the disc gets along that
    approach, and the world's push out of the overlap; the nearer of those
    the navigation data calls walkable (``point`` itself when neither is).
    """
    if radius == 0.0 or world.clearance(point) >= radius:
        return point
    tries = [world.move(point, (0.0, 0.0), radius=radius).position]
    if world.clearance(toward) >= radius:
        tries.append(world.move(toward, point - toward, radius=radius).position)
    tries = [p for p in tries if navigator.walkable(p)]
    if not tries:
        return point
    return min(tries, key=lambda p: float(np.hypot(*(p - point))))


def find_routes(navigator, starts, goals, progress=None):
    """One :class:`sidestep.paths.Route` per start/goal pair, as a tuple.

    ``progress``, if given, is called as ``progress(done, total)`` after each
    path (a big map takes a fraction of a second per path).
    """
    starts = np.asarray(starts, float).reshape(-1, 2)
    goals = np.asarray(goals, float).reshape(-1, 2)
    routes = []
    for s, g in zip(starts, goals):
        routes.append(navigator.route(s, g))
        if progress is not None:
            progress(len(routes), len(starts))
    return tuple(routes)


def follow(world, navigator, starts, goals, *, optimal=None, steps=None, speed=None,
           radius=0.0, mode="slide", routes=None, progress=None, crowd=False):
    """Walk agents along paths from ``starts`` to ``goals``.

    Parameters
    ----------
    world : World2D (or a Level, whose world is used)
    navigator : GridNavigator or MeshNavigator
        Finds each agent's path (:func:`sidestep.paths.navigator`).
    starts, goals : (n, 2) float64
    optimal : (n,) float64, optional
        The scenario file's optimal lengths, reported beside the lengths
        walked (NaN: not given).
    steps : int, optional
        Frames at most. By default twice the longest path over ``speed``,
        plus a frame per waypoint and :data:`STUCK_FRAMES` (at most
        :data:`~sidestep.commands.walk.MAX_DEFAULT_STEPS`). The walk ends
        early when every agent has arrived, got stuck or has no path.
    speed : float > 0, optional
        Step asked for per frame (world units); :func:`default_speed` by default.
    radius : float >= 0
    mode : {"slide", "push", "block", "ghost"}
    routes : tuple of Route, optional
        The paths, found already (:func:`find_routes`); found here by default.
    progress : callable, optional
        Called as ``progress(frame, steps)`` after each frame.
    crowd : bool
        The agents collide with each other too
        (:func:`~sidestep.commands.walk.mover`).

    Returns
    -------
    Followed
    """
    world = getattr(world, "world", world)
    starts = np.asarray(starts, float).reshape(-1, 2)
    goals = np.asarray(goals, float).reshape(-1, 2)
    n = len(starts)
    if n == 0:
        raise ValueError("there are no agents to walk")
    if goals.shape != starts.shape:
        raise ValueError(f"need one goal per start, got {len(goals)} goals for {n} starts")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    radius = float(radius)
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    optimal = np.full(n, np.nan) if optimal is None else np.asarray(optimal, float).reshape(-1)
    if len(optimal) != n:
        raise ValueError(f"need one optimal length per start, got {len(optimal)} for {n} starts")
    speed = default_speed(world, [starts, goals]) if speed is None else float(speed)
    if not (math.isfinite(speed) and speed > 0):
        raise ValueError(f"speed must be a finite number > 0, got {speed}")

    if routes is None:
        routes = find_routes(navigator, starts, goals)
    elif len(routes) != n:
        raise ValueError(f"need one route per start, got {len(routes)} for {n} starts")
    # Each agent's waypoints, its ends fitted to the radius; an agent without
    # a path stays where it starts.
    ways = []
    for s, route in zip(starts, routes):
        if not route.found:
            ways.append(s[None, :].copy())
            continue
        points = route.waypoints(radius)
        points[0] = _fit(world, navigator, points[0], points[1], radius)
        points[-1] = _fit(world, navigator, points[-1], points[-2], radius)
        ways.append(points)
    longest = max(len(w) for w in ways)
    waypoints = np.empty((n, longest, 2))
    left = np.zeros((n, longest))        # path length left after each waypoint
    last = np.empty(n, np.int64)
    for i, w in enumerate(ways):
        waypoints[i, :len(w)] = w
        waypoints[i, len(w):] = w[-1]
        seg = np.hypot(*np.diff(w, axis=0).T) if len(w) > 1 else np.zeros(0)
        left[i, :len(w)] = np.concatenate([np.cumsum(seg[::-1])[::-1], [0.0]])
        last[i] = len(w) - 1
    if steps is None:
        far = max([r.length for r in routes if r.found] or [0.0])
        steps = min(math.ceil(2.0 * far / speed) + longest + STUCK_FRAMES + 20,
                    MAX_DEFAULT_STEPS)
    if isinstance(steps, bool) or int(steps) != steps or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    steps = int(steps)
    if n * steps > MAX_AGENT_FRAMES:
        raise ValueError(f"{n} agents x {steps} frames is more than {MAX_AGENT_FRAMES:,} "
                         "agent-frames; walk fewer agents or frames")

    rows = np.arange(n)
    target = np.minimum(1, last)
    active = np.array([r.found for r in routes]) & (last > 0)
    best_left = np.full(n, np.inf)
    best_frame = np.zeros(n, np.int64)
    stuck_frame = np.full(n, -1, np.int64)
    stuck_at = np.full((n, 2), np.nan)
    stuck_toward = np.full((n, 2), np.nan)
    positions = np.empty((steps + 1, n, 2))
    desired = np.zeros((steps, n, 2))
    gaps = np.empty((steps + 1, n))
    positions[0] = waypoints[:, 0]
    move = mover(world, positions[0], radius, mode, crowd)
    gaps[0] = world.clearance(positions[0]) - radius
    near = ARRIVE * speed
    held = np.zeros(n, bool)             # the last move fell short of the step asked for
    frame = 0
    while frame < steps and active.any():
        here = positions[frame]
        gap = waypoints[rows, target] - here
        distance = np.hypot(*gap.T)
        # Pass every waypoint the agent is on (it lands on each when free),
        # or within its radius of when held back by a wall: a disc cannot
        # stand on a cell centre half a cell from a wall if it is wider.
        reach = np.where(held, radius + near, near)
        passed = active & (distance <= reach) & (target < last)
        while passed.any():
            target[passed] += 1
            gap = waypoints[rows, target] - here
            distance = np.hypot(*gap.T)
            passed = active & (distance <= reach) & (target < last)
        arrived = active & (target == last) & (distance <= near)
        active &= ~arrived
        share = np.where(active, np.minimum(speed, distance), 0.0)
        step = gap * (share / np.maximum(distance, 1e-300))[:, None]
        there = move(here, step)
        held = np.hypot(*(there - here - step).T) > STUCK * share
        positions[frame + 1] = there
        desired[frame] = step
        gaps[frame + 1] = world.clearance(there) - radius
        frame += 1
        # Headway: the distance still to go along the path.
        to_go = np.hypot(*(waypoints[rows, target] - there).T) + left[rows, target]
        better = to_go < best_left - STUCK * speed
        best_left = np.where(better, to_go, best_left)
        best_frame = np.where(better, frame, best_frame)
        stuck = active & (frame - best_frame >= STUCK_FRAMES)
        # Held within half a step of the goal: arrived as near as it gets, not stuck.
        close = stuck & (target == last) & (to_go <= 0.5 * speed)
        active &= ~close
        stuck &= ~close
        stuck_frame[stuck] = frame
        stuck_at[stuck] = there[stuck]
        stuck_toward[stuck] = waypoints[rows, target][stuck]
        active &= ~stuck
        if progress is not None:
            progress(frame, steps)
    # The goals headed for: the fitted ends, and the scenario's goal for an
    # agent without a path (it did not reach it).
    found = np.array([r.found for r in routes])
    headed = np.where(found[:, None], waypoints[rows, last], goals)
    run = Walk(positions[:frame + 1].copy(), desired[:frame].copy(), gaps[:frame + 1].copy(),
               headed, radius, mode, speed, crowd=crowd)
    return Followed(run, routes, starts.copy(), goals.copy(), optimal.copy(), stuck_frame,
                    stuck_at, stuck_toward, navigator.finder)


def format_table(run, limit=20):
    """A path-following walk as text: one row per agent (at most ``limit``), then the totals.

    Columns: the file's optimal length, the path's length, the length
    walked, walked over optimal, contacts, the least clearance, and how it
    ended (reached; stuck at x, y; no path: why; or not there yet when the
    frames ran out).
    """
    lines = [f"{'agent':>5} {'optimal':>9} {'path':>9} {'walked':>9} {'ratio':>6} "
             f"{'contacts':>8} {'min clearance':>13}  result"]
    rows = run.agents()

    def number(value, width, digits=4):
        return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}g}"

    for row in rows[:limit]:
        if row["no_path"]:
            result = row["no_path"]
        elif row["reached"]:
            result = "reached"
        elif row["stuck_at"] is not None:
            x, y = row["stuck_at"]
            result = f"stuck at ({x:.4g}, {y:.4g})"
        else:
            result = "on its way when the frames ran out"
        least = "inf" if row["min_clearance"] is None else f"{row['min_clearance']:.4g}"
        lines.append(f"{row['agent']:>5} {number(row['optimal_length'], 9)} "
                     f"{number(row['path_length'], 9)} {row['travelled']:>9.4g} "
                     f"{number(row['walked_over_optimal'], 6, 3)} {row['contacts']:>8} "
                     f"{least:>13}  {result}")
    if len(rows) > limit:
        lines.append(f"  ... {len(rows) - limit} more agents (--json lists all)")
    total = run.summary()
    walk = run.walk
    text = (f"all: {total['agents']} agents, {total['frames']} frames, mode {walk.mode}, "
            f"radius {walk.radius:g}, speed {walk.speed:.4g}; paths by {run.finder}; "
            f"{total['reached']} of {total['agents']} reached, {total['stuck']} stuck, "
            f"{total['no_path']} without a path")
    if total["median_walked_over_optimal"] is not None:
        text += f"; median walked/optimal {total['median_walked_over_optimal']:.3f}"
    lines.append(text)
    if total["stuck"]:
        lines.append("stuck: the path is walkable by the navigation data, but a disc of "
                     f"radius {walk.radius:g} does not get through there")
    return "\n".join(lines)


def draw_follow(level, run, out, *, y_down=False):
    """Save a picture of the paths planned and walked over ``level`` at ``out``.

    The walk's picture (:func:`~sidestep.commands.walk.draw_walk`), with each
    agent's planned path dashed and a red cross where an agent got stuck.
    """
    from .pictures import DPI, picture_format
    from .walk import _walk_figure

    kind = picture_format(out)
    fig, ax, handles = _walk_figure(level, run.walk, y_down, with_paths=True)
    planned = [r.points for r in run.routes if r.found]
    if planned:
        from matplotlib.collections import LineCollection
        ax.add_collection(LineCollection(planned, colors="0.35", linewidths=0.7,
                                         linestyles="--", zorder=3))
        handles.append(ax.plot([], [], "--", color="0.35", linewidth=0.7,
                               label=f"planned path ({len(planned)})")[0])
    stuck = run.stuck_at[run.stuck_frame >= 0]
    if len(stuck):
        handles.append(ax.plot(*stuck.T, "x", color="red", markersize=9, mew=2, zorder=7,
                               label=f"stuck ({len(stuck)})")[0])
    ax.set(xlabel="x", ylabel="y")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              fontsize=8)
    fig.savefig(out, format=kind, dpi=DPI)
