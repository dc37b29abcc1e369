"""Drawing a world, an agent's path and its contacts on a matplotlib ``Axes`` (top view).

matplotlib is imported inside the functions, so ``import sidestep`` never
needs it; install it with ``pip install "sidestep[demo]"``.

>>> from matplotlib.figure import Figure
>>> import sidestep
>>> from sidestep import plot
>>> world = sidestep.World2D()
>>> trees = world.add_circles([(0, 1), (1, 0), (-1, 0)], 1.0)
>>> walls = world.add_walls([(-3, -3)], [(3, -3)], clearance=0.5)
>>> fig = Figure()
>>> ax = fig.subplots()
>>> plot.draw_world(ax, world, halo=0.3)
>>> line = plot.draw_path(ax, [(-3, 3), (0, 2.4), (3, 3)], label="agent")
>>> dots = plot.draw_contacts(ax, [(0, 2.0)])
"""
import numpy as np

#: Points on each half circle of a drawn capsule: smooth at the demo's scale.
_ARC_POINTS = 24


def _capsule_path(segments, radius):
    """One path whose filled area is the union of capsules, for a single translucent patch.

    Parameters
    ----------
    segments : (m, 4) float64
        Rows ``[ax, ay, bx, by]``; ``a == b`` gives a circle.
    radius : (m,) float64

    Returns
    -------
    matplotlib.path.Path or None
        None when no capsule has a positive radius.
    """
    from matplotlib.path import Path

    keep = radius > 0.0
    seg, r = segments[keep], radius[keep]
    if not len(seg):
        return None
    a, b = seg[:, 0:2], seg[:, 2:4]
    heading = np.arctan2(b[:, 1] - a[:, 1], b[:, 0] - a[:, 0])
    half = np.linspace(-0.5 * np.pi, 0.5 * np.pi, _ARC_POINTS)
    # Round b's end, then a's: every outline runs counter-clockwise, so with
    # matplotlib's nonzero fill rule overlaps are filled once, not darker.
    angles = np.concatenate([heading[:, None] + half, heading[:, None] + half + np.pi], axis=1)
    ends = np.concatenate([np.repeat(b[:, None], _ARC_POINTS, 1),
                           np.repeat(a[:, None], _ARC_POINTS, 1)], axis=1)
    ring = ends + r[:, None, None] * np.stack([np.cos(angles), np.sin(angles)], axis=2)
    ring = np.concatenate([ring, ring[:, :1]], axis=1)
    codes = np.full(ring.shape[1], Path.LINETO, dtype=Path.code_type)
    codes[0], codes[-1] = Path.MOVETO, Path.CLOSEPOLY
    return Path(ring.reshape(-1, 2), np.tile(codes, len(ring)))


def _add_capsules(ax, segments, radius, **kw):
    """Fill the union of capsules ``(m, 4)`` of radii ``(m,)`` as one patch (None if empty)."""
    from matplotlib.patches import PathPatch

    path = _capsule_path(np.asarray(segments, float).reshape(-1, 4),
                         np.asarray(radius, float).reshape(-1))
    return None if path is None else ax.add_patch(PathPatch(path, **kw))


def draw_world(ax, world, *, halo=0.0, color="0.35", halo_color="tab:orange", alpha=0.35):
    """Draw every obstacle of ``world`` on ``ax``, top view with equal aspect.

    Circles, boxes, polygons and blocked grid cells are filled with ``color``;
    walls are drawn as their segment plus their surface band (the points
    within ``clearance`` of the segment), translucent.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    world : World2D
    halo : float >= 0
        An agent radius: when positive, also shade, in ``halo_color``, the band
        where that agent's centre cannot go (every collision capsule of
        :meth:`World2D.segments` grown by ``halo``).
    color : matplotlib colour
        Colour of the obstacles.
    halo_color : matplotlib colour
    alpha : float in [0, 1]
        Opacity of the translucent bands (wall surfaces, halo).
    """
    from matplotlib.collections import LineCollection, PatchCollection
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Polygon, Rectangle

    if not halo >= 0:
        raise ValueError(f"halo must be a number >= 0, got {halo!r}")
    if halo > 0:
        geom, _ = world.segments()
        _add_capsules(ax, geom[:, 0:4], geom[:, 4] + halo, color=halo_color, alpha=alpha,
                      linewidth=0, zorder=1)
    circles = world.geometry("circle")
    centers = circles["centers"]
    _add_capsules(ax, np.hstack([centers, centers]), circles["radii"], color=color, zorder=2)
    walls = world.geometry("wall")
    _add_capsules(ax, np.hstack([walls["starts"], walls["ends"]]), walls["clearance"],
                  color=color, alpha=alpha, linewidth=0, zorder=2)
    ax.add_collection(LineCollection(np.stack([walls["starts"], walls["ends"]], axis=1),
                                     colors=color, linewidths=2, zorder=2))
    boxes = world.geometry("box")
    shapes = [Rectangle(lo, *(hi - lo)) for lo, hi in zip(boxes["mins"], boxes["maxs"])]
    shapes += [Polygon(v) for v in world.geometry("polygon")["vertices"]]
    ax.add_collection(PatchCollection(shapes, color=color, zorder=2))
    grids = world.geometry("grid")
    for table, size, (ox, oy) in zip(grids["blocked"], grids["cell_size"], grids["origin"]):
        rows, cols = table.shape
        ax.imshow(np.ma.masked_equal(table.astype(np.uint8), 0), cmap=ListedColormap([color]),
                  origin="lower", interpolation="nearest", zorder=2,
                  extent=(ox, ox + cols * size, oy, oy + rows * size))
    ax.set_aspect("equal")
    ax.autoscale_view()


def draw_path(ax, positions, **kw):
    """Draw an agent's path as a line.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    positions : (n, 2) float64
    **kw
        Passed to ``ax.plot`` (``color``, ``label``, ``linewidth``...).

    Returns
    -------
    matplotlib.lines.Line2D
    """
    p = np.asarray(positions, float).reshape(-1, 2)
    kw.setdefault("zorder", 3)
    return ax.plot(p[:, 0], p[:, 1], **kw)[0]


def draw_contacts(ax, contacts_points, **kw):
    """Mark contact points (e.g. ``Move.contacts[i].point``) with small markers.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    contacts_points : (k, 2) float64
        May be empty.
    **kw
        Passed to ``ax.plot``; defaults to small ``x`` markers, no line.

    Returns
    -------
    matplotlib.lines.Line2D
    """
    p = np.asarray(contacts_points, float).reshape(-1, 2)
    kw.setdefault("marker", "x")
    kw.setdefault("markersize", 4)
    kw.setdefault("linestyle", "none")
    kw.setdefault("zorder", 4)
    return ax.plot(p[:, 0], p[:, 1], **kw)[0]
