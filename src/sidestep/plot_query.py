"""Pictures of ``world.query(volume)``: the view volume and the obstacles coloured by state.

A 2D world is drawn as :func:`sidestep.plot.draw_world` draws it; a 3D
world from above (along its up axis: spheres and cylinders as discs, boxes
and voxel cells as rectangles, mesh triangles, panels and heightfield cells
as polygons). Over it, the obstacles the volume touches are filled orange
(INTERSECTS) or green (CONTAINS) and the volume's outline is drawn in blue
(a 3D frustum as its twelve edges seen from above).

>>> import math, os, tempfile
>>> import sidestep
>>> from sidestep.volumes import Frustum
>>> world = sidestep.World2D()
>>> _ = world.add_circles([(5, 0), (10, 0), (0, 9)], 1.0)
>>> with tempfile.TemporaryDirectory() as folder:
...     q = save_query(world, Frustum.wedge((0, 0), (1, 0), 1.0, 1.0, 10.0),
...                    os.path.join(folder, "view.png"))
...     os.path.getsize(os.path.join(folder, "view.png")) > 0
True
>>> q.obstacle.tolist(), q.state.tolist()
([0, 1], [2, 1])
"""
from __future__ import annotations      # matplotlib's types, named without importing it

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from ._types import StrPath

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch
    from matplotlib.typing import ColorType

    from .volumes.query import Query
    from .volumes.shapes import Volume
    from .world import World2D
    from .world3d import World3D

#: Colours by state: intersecting, contained.
QUERY_COLORS = {1: "tab:orange", 2: "tab:green"}


def _ground_axes(world: World2D | World3D) -> tuple[int, ...]:
    # The two axes of a top view: x and y for 2D, the two other than up in 3D.
    up = getattr(world, "up", None)
    return (0, 1) if up is None else tuple(a for a in range(3) if a != "xyz".index(up))


def _shapes_2d(world: World2D) -> Iterator[tuple[int, Patch]]:
    """``(id, patch)`` of each live obstacle of a 2D world (walls as their band)."""
    from matplotlib.patches import Circle, PathPatch, Polygon, Rectangle

    from .plot import _capsule_path

    g = world.geometry("circle")
    for i, c, r in zip(g["ids"], g["centers"], g["radii"]):
        yield i, Circle(c, r)
    g = world.geometry("wall")
    for i, a, b, t in zip(g["ids"], g["starts"], g["ends"], g["clearance"]):
        band = _capsule_path(np.hstack([a, b])[None], np.array([t]))
        # A wall of clearance 0 has no band: its segment, drawn by its edge.
        yield i, (PathPatch(band) if band is not None else Polygon(np.array([a, b])))
    g = world.geometry("box")
    for i, lo, hi in zip(g["ids"], g["mins"], g["maxs"]):
        yield i, Rectangle(lo, *(hi - lo))
    g = world.geometry("polygon")
    for i, v in zip(g["ids"], g["vertices"]):
        yield i, Polygon(v)
    g = world.geometry("grid")
    for i, table, s, o in zip(g["ids"], g["blocked"], g["cell_size"], g["origin"]):
        for r, c in zip(*np.nonzero(table)):
            yield i, Rectangle(o + s * np.array([c, r]), s, s)


def _shapes_3d(world: World3D, axes: tuple[int, ...]) -> Iterator[tuple[int, Patch]]:
    """``(id, patch)`` of each live obstacle of a 3D world, seen from above."""
    from matplotlib.patches import Circle, Polygon, Rectangle

    ax0, ax1 = axes
    pick = list(axes)
    g = world.geometry("sphere")
    for i, c, r in zip(g["ids"], g["centers"], g["radii"]):
        yield i, Circle(c[pick], r)
    g = world.geometry("cylinder")
    for i, c, r in zip(g["ids"], g["bases"], g["radii"]):
        yield i, Circle(c[pick], r)
    g = world.geometry("box")
    for i, lo, hi in zip(g["ids"], g["mins"], g["maxs"]):
        yield i, Rectangle(lo[pick], *(hi - lo)[pick])
    g = world.geometry("panel")
    for i, v in zip(g["ids"], g["vertices"]):
        yield i, Polygon(v[:, pick])
    g = world.geometry("mesh")
    for i, v, t in zip(g["ids"], g["vertices"], g["triangles"]):
        for tri in t:
            yield i, Polygon(v[tri][:, pick])
    g = world.geometry("voxels")
    for i, table, s, o in zip(g["ids"], g["blocked"], g["cell_size"], g["origin"]):
        for cell in np.argwhere(table):
            lo = o + s * cell
            yield i, Rectangle((lo[ax0], lo[ax1]), s, s)
    g = world.geometry("heightfield")
    for i, h, s, o in zip(g["ids"], g["heights"], g["cell_size"], g["origin"]):
        rows, cols = h.shape
        yield i, Rectangle((o[ax0], o[ax1]), (cols - 1) * s, (rows - 1) * s)


def _outline(ax: Axes, volume: Volume, axes: tuple[int, ...], color: ColorType) -> None:
    """Draw the volume's outline, seen along the axis not in ``axes``."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Circle, Polygon

    from .kernels3d import volumes as kv
    from .volumes.shapes import Box, Ray

    pick = list(axes)
    corners = getattr(volume, "corners", None)
    if corners is not None and volume.dim == 2:
        k = np.array(corners)[[0, 4, 5, 1]]                 # a wedge: its trapezoid
        ax.add_patch(Polygon(k, closed=True, fill=False, edgecolor=color, zorder=4))
        ax.update_datalim(k)
        return
    if corners is not None or isinstance(volume, Box):
        if isinstance(volume, Box):                         # (a frustum has its corners)
            lo, hi = volume.min, volume.max
            corners = [[hi[j] if (i >> j) & 1 else lo[j] for j in range(volume.dim)]
                       for i in range(8)]
        c = np.array(corners)
        if volume.dim == 2:
            c = np.hstack([c, np.zeros((8, 1))])
        lines = c[kv.EDGES][:, :, pick] if volume.dim == 3 else c[kv.EDGES][:, :, :2]
        ax.add_collection(LineCollection(lines, colors=color, zorder=4))
        ax.update_datalim(lines.reshape(-1, 2))
        return
    if isinstance(volume, Ray):                             # a ray: to the edge of the picture
        o = np.array(volume.origin)[pick if volume.dim == 3 else [0, 1]]
        d = np.array(volume.direction)[pick if volume.dim == 3 else [0, 1]]
        if np.any(d):                                       # seen end-on: just its origin
            ax.axline(o, o + d, color=color, zorder=4)  # type: ignore[arg-type]  # (2,) arrays
        ax.plot(*o, "o", color=color, zorder=4)
        return
    start = getattr(volume, "start", getattr(volume, "center", getattr(volume, "position", None)))
    end = getattr(volume, "end", start)
    r = getattr(volume, "radius", 0.0)
    p = np.array([start, end])[:, pick if volume.dim == 3 else [0, 1]]
    ax.plot(p[:, 0], p[:, 1], color=color, zorder=4)
    for q in p if r > 0 else ():
        ax.add_patch(Circle(q, r, fill=False, edgecolor=color, zorder=4))
    ax.update_datalim(np.vstack([p - r, p + r]))


def draw_query(ax: Axes, world: World2D | World3D, volume: Volume, *, color: ColorType = "0.35",
               view_color: ColorType = "tab:blue", base: bool = True) -> Query:
    """Draw ``world``, ``volume``'s outline and the obstacles ``world.query(volume)`` returns.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    world : World2D or World3D
        A 3D world is drawn from above, along its up axis.
    volume : Volume
        Of the world's dimension: a view wedge, a frustum, any volume.
    color, view_color : matplotlib colours
        Of the obstacles out of view and of the volume's outline; those in
        view are orange (touched) or green (contained), :data:`QUERY_COLORS`.
    base : bool
        Draw the obstacles out of view too (False: the world is drawn already).

    Returns
    -------
    Query
        The query drawn.
    """
    from matplotlib.collections import PatchCollection

    from .world3d import World3D

    q = world.query(volume)
    state = dict(zip(q.obstacle.tolist(), q.state.tolist()))
    axes = _ground_axes(world)
    if isinstance(world, World3D):                          # (only a World3D has an up axis)
        shapes = list(_shapes_3d(world, axes))
        if base:
            others = [p for i, p in shapes if int(i) not in state]
            ax.add_collection(PatchCollection(others, color=color, alpha=0.6, zorder=2))
    else:
        from .plot import draw_world
        shapes = list(_shapes_2d(world))
        if base:
            draw_world(ax, world, color=color)
    for s, c in QUERY_COLORS.items():
        seen = [p for i, p in shapes if state.get(int(i)) == s]
        if seen:
            ax.add_collection(PatchCollection(seen, color=c, zorder=3))
    for _, p in shapes:
        ax.update_datalim(p.get_path().transformed(p.get_patch_transform()).vertices)
    _outline(ax, volume, axes, view_color)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xlabel("xyz"[axes[0]])
    ax.set_ylabel("xyz"[axes[1]])
    return q


def save_query(world: World2D | World3D, volume: Volume, out: StrPath, *,
               title: str | None = None) -> Query:
    """Draw :func:`draw_query` on a figure of its own and save it at ``out``.

    The extension picks the format (PNG, SVG, ...). Returns the query drawn.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 6))
    ax = fig.subplots()
    q = draw_query(ax, world, volume)
    counts = np.bincount(q.state, minlength=3)
    ax.set_title(title if title is not None else
                 f"{type(volume).__name__}: {counts[2]} contained (green), "
                 f"{counts[1]} touched (orange)", fontsize=10)
    fig.savefig(out)
    return q
