"""The demo: one agent walks a scripted route through the articles' house in each move mode.

The route runs into the radial article's three trees, through a grove, along
walls at a shallow angle and into corners of the house, so the picture shows
how ``slide``, ``push``, ``block`` and ``ghost`` differ; the printed table
measures it (distance travelled, contacts, smallest gap to any surface,
frames spent overlapping something). ``sidestep demo`` runs it.
"""
import math

import numpy as np

from . import scenes
from .commands.pictures import picture_format
from .tolerances import PROMISE
from .world import MODES

#: ``(7, 2) float64``: where the walk starts, then the waypoints in order:
#: into the radial trees from the east; north-east through the grove; along
#: the north wall at about 10 degrees into the north-east corner; down the
#: east wall into its corner with the short interior wall; west over the
#: radial trees; along the long interior wall at about 8 degrees into its
#: corner with the wall at ``x = -17.5``. Waypoints inside an obstacle are on
#: purpose: only ``ghost`` reaches them.
ROUTE = np.array([
    [12.0, 4.0],
    [-0.2, 0.4],
    [6.0, 12.0],
    [19.0, 14.1],
    [18.8, 0.4],
    [-3.0, 3.0],
    [-17.4, 0.2],
])
#: Desired displacement per frame (metres).
STEP = 0.15
#: Distance (metres) at which a waypoint counts as reached.
ARRIVE = 0.2
#: How each mode's path is drawn: ``push`` as a wide pale band under a narrow
#: ``slide`` line, so that where the two agree (most of the route) both stay
#: visible, one inside the other.
STYLES = {"slide": dict(color="tab:blue", linewidth=1.6, zorder=3.5),
          "push": dict(color="tab:green", linewidth=5.0, alpha=0.45, zorder=3.1,
                       solid_capstyle="round"),
          "block": dict(color="tab:red", linewidth=1.4, zorder=3.3),
          "ghost": dict(color="tab:purple", linewidth=1.4, linestyle=":", zorder=3.4)}


def walk(world, radius, mode, route=ROUTE, step=STEP):
    """Walk one agent along ``route`` in ``mode``, one ``world.move`` per frame.

    Each frame asks for a move of ``step`` towards the current waypoint. The
    walk turns to the next waypoint once within :data:`ARRIVE` of it, or when
    the leg's frame budget (its length in steps, plus half, plus 20) runs out,
    so an agent that is stopped for good still finishes the route.

    Parameters
    ----------
    world : World2D
    radius : float >= 0
    mode : {"slide", "push", "block", "ghost"}
    route : (k, 2) float64
        Start, then waypoints.
    step : float > 0

    Returns
    -------
    path : (n, 2) float64
        Positions, the start first.
    contacts : (c, 2) float64
        Every contact point met, in order.
    """
    position = np.asarray(route[0], float)
    path, contacts = [position], []
    for here, target in zip(route[:-1], route[1:]):
        budget = math.ceil(1.5 * np.hypot(*(target - here)) / step) + 20
        for _ in range(budget):
            gap = target - position
            distance = np.hypot(*gap)
            if distance <= ARRIVE:
                break
            move = world.move(position, gap * (min(step, distance) / distance),
                              radius=radius, mode=mode)
            position = move.position
            path.append(position)
            contacts.extend(c.point for c in move.contacts)
    return np.array(path), np.array(contacts, float).reshape(-1, 2)


def measure(world, mode, path, contacts, radius):
    """One row of the demo's table for a walk.

    Parameters
    ----------
    world : World2D
    mode : str
    path : (n, 2) float64
    contacts : (c, 2) float64
    radius : float

    Returns
    -------
    dict
        ``mode``; ``travelled`` (sum of step lengths, m); ``contacts`` (count);
        ``min_clearance`` (smallest gap between the agent's disc and the
        nearest surface along the path, m, negative when overlapping);
        ``penetrations`` (frames ending with the disc overlapping an obstacle
        by more than :data:`sidestep.tolerances.PROMISE`).
    """
    gap = world.clearance(path) - radius
    return {"mode": mode,
            "travelled": float(np.hypot(*np.diff(path, axis=0).T).sum()),
            "contacts": len(contacts),
            "min_clearance": float(gap.min()),
            "penetrations": int(np.count_nonzero(gap < -PROMISE))}


def format_table(rows):
    """The rows of :func:`measure` as an aligned text table.

    Examples
    --------
    >>> print(format_table([{"mode": "slide", "travelled": 12.5, "contacts": 3,
    ...                      "min_clearance": 1e-6, "penetrations": 0}]))
    mode    travelled (m)  contacts  min clearance (m)  penetrations
    slide           12.50         3              1e-06             0
    """
    lines = [f"{'mode':<6} {'travelled (m)':>14} {'contacts':>9} {'min clearance (m)':>18} "
             f"{'penetrations':>13}"]
    lines += [f"{r['mode']:<6} {r['travelled']:>14.2f} {r['contacts']:>9d} "
              f"{r['min_clearance']:>18.3g} {r['penetrations']:>13d}" for r in rows]
    return "\n".join(lines)


#: Close-ups drawn in empty rooms of the house: ``(name, shown region
#: [x0, x1, y0, y1], place on the main view [x0, y0, width, height])``.
_CLOSE_UPS = (("A: the radial trees", (-2.6, 3.4, -1.4, 3.0), (-23.0, -13.2, 13.5, 9.9)),
              ("B: corner of the long interior wall", (-18.6, -13.8, -0.7, 2.1),
               (2.0, -8.4, 9.4, 5.5)))


def _draw_walks(ax, world, walks, radius):
    """Draw the world and every walk on ``ax``; return the legend's handles."""
    from . import plot

    plot.draw_world(ax, world, halo=radius)
    handles = []
    for mode, (path, contacts) in walks.items():
        handles.append(plot.draw_path(ax, path, label=f"{mode} ({len(contacts)} contacts)",
                                      **STYLES[mode]))
        plot.draw_contacts(ax, contacts, color=STYLES[mode]["color"], markersize=5)
    handles.append(ax.plot(*ROUTE[0], "ko", markersize=6, zorder=5, label="start")[0])
    handles.append(ax.plot(*ROUTE[1:].T, "k+", markersize=10, mew=1.5, zorder=5,
                           label="waypoints")[0])
    return handles


def draw(world, walks, radius, out, kind="png"):
    """Save the demo's picture: the house, the halos, each mode's path and contacts.

    Parameters
    ----------
    world : World2D
    walks : dict of str to (path (n, 2), contacts (c, 2))
    radius : float
        The agent's radius, shaded around every obstacle.
    out : str or path-like
        Image file, written at exactly this path.
    kind : str
        Image format, one matplotlib knows (``"png"``, ``"svg"``, ``"pdf"``...).
    """
    # A bare Figure, not pyplot: no backend to pick, no global state to clean up.
    from matplotlib.figure import Figure

    fig = Figure(figsize=(15, 9), layout="constrained")
    ax = fig.subplots()
    handles = _draw_walks(ax, world, walks, radius)
    for name, (x0, x1, y0, y1), place in _CLOSE_UPS:
        inset = ax.inset_axes(place, transform=ax.transData)
        _draw_walks(inset, world, walks, radius)
        inset.set(xlim=(x0, x1), ylim=(y0, y1), xticks=[], yticks=[])
        inset.set_title(f"close-up {name}", fontsize=10)
        # A box and its letter say where a close-up is from: connector lines
        # would cross the paths.
        ax.indicate_inset((x0, y0, x1 - x0, y1 - y0), edgecolor="0.2")
        ax.text(x0, y1 + 0.2, name[0], fontsize=11, fontweight="bold")
    fig.legend(handles=handles, loc="outside right upper", fontsize=10)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(f"sidestep demo: one route through the articles' house in four move modes\n"
                 f"agent radius {radius:g} m; grey bands: wall surfaces (0.5 m from the "
                 f"segment); orange: where the agent's centre cannot go; x: contact points",
                 fontsize=11)
    fig.savefig(out, format=kind, dpi=100, bbox_inches="tight")


def run_demo(out="sidestep-demo.png", radius=0.3):
    """Walk the route in every mode, print the table and save the picture.

    Parameters
    ----------
    out : str or path-like
        Where to write the picture; the extension picks the format, PNG if
        there is none.
    radius : float >= 0
        The agent's radius; the route's start must be free for it.

    Returns
    -------
    rows : list of dict
        One per mode, in :data:`sidestep.MODES` order, as :func:`measure` makes them.

    Raises
    ------
    ValueError
        If ``radius`` is negative, not finite or too large for the start, or
        ``out`` names a format matplotlib cannot write.
    OSError
        If ``out``'s directory does not exist, ``out`` is a directory, or
        writing fails.
    """

    radius = float(radius)
    if not (math.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    world, _ = scenes.demo_world()
    room = world.clearance(ROUTE[0])
    if radius >= room:
        raise ValueError(f"radius {radius} does not fit at the route's start, which has "
                         f"{room:.2f} m of room")
    kind = picture_format(out)
    import matplotlib    # noqa: F401  (missing? say so now, before minutes of compiling)
    walks = {mode: walk(world, radius, mode) for mode in MODES}
    rows = [measure(world, mode, *walks[mode], radius) for mode in MODES]
    print(format_table(rows))
    draw(world, walks, radius, out, kind)
    print(f"wrote {out}")
    return rows
