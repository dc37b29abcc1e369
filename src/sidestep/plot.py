"""Drawing a world, agents' paths, contacts and clearance fields on a matplotlib ``Axes``.

Top views for debugging in a notebook, the way the wall article drew its
collision lines over the scene: :func:`draw_world` (obstacles, wall bands,
grid cells, and the halo an agent's centre cannot enter), :func:`draw_path`
and :func:`draw_paths` (one agent, or thousands as one collection),
:func:`draw_contacts`, and :func:`draw_clearance` (the signed distance to the
nearest surface as an image, with a contour where an agent of a given radius
stops fitting). Every function draws on an ``Axes`` you pass, so it mixes
with your own plotting; big levels (a 1024 x 1024 tile map, thousands of
walls) draw in well under a second.

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
>>> image, contour = plot.draw_clearance(ax, world, radius=0.3, resolution=60)
"""
from __future__ import annotations      # matplotlib's types, named without importing it

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from . import plot_layers
from ._types import FloatArray, Points2

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Colormap
    from matplotlib.contour import QuadContourSet
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, PathPatch
    from matplotlib.path import Path
    from matplotlib.typing import ColorType

    from .volumes.query import Query
    from .volumes.shapes import Volume
    from .world import World2D
    from .world3d import World3D

#: Points on each half circle of a drawn capsule: smooth at the demo's scale.
_ARC_POINTS = 24
#: Above this many capsules (a big level, where each is a few pixels wide)
#: half circles get :data:`_FEW_ARC_POINTS` points, and the filled union is
#: rasterized in vector output so an SVG stays megabytes, not tens of them.
_MANY_CAPSULES = 2000
_FEW_ARC_POINTS = 6
#: Above this many walls :func:`draw_world` draws them thin.
_MANY_WALLS = 300


def _capsule_path(segments: FloatArray, radius: FloatArray) -> Path | None:
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
    arc = _ARC_POINTS if len(seg) <= _MANY_CAPSULES else _FEW_ARC_POINTS
    half = np.linspace(-0.5 * np.pi, 0.5 * np.pi, arc)
    # Round b's end, then a's: every outline runs counter-clockwise, so with
    # matplotlib's nonzero fill rule overlaps are filled once, not darker.
    angles = np.concatenate([heading[:, None] + half, heading[:, None] + half + np.pi], axis=1)
    ends = np.concatenate([np.repeat(b[:, None], arc, 1), np.repeat(a[:, None], arc, 1)], axis=1)
    ring = ends + r[:, None, None] * np.stack([np.cos(angles), np.sin(angles)], axis=2)
    ring = np.concatenate([ring, ring[:, :1]], axis=1)
    codes = np.full(ring.shape[1], Path.LINETO, dtype=Path.code_type)
    codes[0], codes[-1] = Path.MOVETO, Path.CLOSEPOLY
    return Path(ring.reshape(-1, 2), np.tile(codes, len(ring)))


def _add_capsules(ax: Axes, segments: ArrayLike, radius: ArrayLike,
                  **kw: Any) -> PathPatch | None:
    """Fill the union of capsules ``(m, 4)`` of radii ``(m,)`` as one patch (None if empty)."""
    from matplotlib.patches import PathPatch

    segments = np.asarray(segments, float).reshape(-1, 4)
    path = _capsule_path(segments, np.asarray(radius, float).reshape(-1))
    if path is None:
        return None
    patch = PathPatch(path, rasterized=len(segments) > _MANY_CAPSULES, **kw)
    # add_artist and one update of the data limits, not add_patch: add_patch
    # walks the path curve by curve in Python, minutes for a big level's halo.
    ax.add_artist(patch)
    ax.update_datalim(path.vertices)
    return patch


def draw_world(ax: Axes, world: World2D, *, halo: float = 0.0, color: ColorType = "0.35",
               halo_color: ColorType = "tab:orange", alpha: float = 0.35,
               linewidth: float | None = None) -> None:
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
    linewidth : float, optional
        Width of wall segments in points; by default 2, or 0.6 when the world
        holds more than :data:`_MANY_WALLS` walls (a whole map, where thick
        lines would cover the rooms).

    Notes
    -----
    Obstacles on different collision layers are drawn in a colour per layer
    (layer 0 in ``color``), those in rigid bodies hatched, with a marker at
    each body's pose origin: see :mod:`sidestep.plot_layers`, whose
    :func:`~sidestep.plot_layers.legend_handles` explains them in a legend.
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
    family = {f: world.geometry(f) for f in ("circle", "wall", "box", "polygon", "grid")}
    if linewidth is None:
        linewidth = 2.0 if len(family["wall"]["ids"]) <= _MANY_WALLS else 0.6
    # One pass per layer colour, and apart for the obstacles in bodies (see
    # sidestep.plot_layers); a world on one layer without bodies is one pass.
    for shade, moving, ids in plot_layers.groups(world, color):
        pick = {f: np.isin(g["ids"], ids) for f, g in family.items()}
        body = dict(edgecolor=plot_layers.BODY_EDGE, hatch=plot_layers.BODY_HATCH,
                    linewidth=0.6) if moving else {}
        fill = dict(facecolor=shade, **body) if moving else dict(color=shade)
        circles = family["circle"]
        centers = circles["centers"][pick["circle"]]
        _add_capsules(ax, np.hstack([centers, centers]), circles["radii"][pick["circle"]],
                      zorder=2, **fill)
        walls = family["wall"]
        starts, ends = walls["starts"][pick["wall"]], walls["ends"][pick["wall"]]
        _add_capsules(ax, np.hstack([starts, ends]), walls["clearance"][pick["wall"]],
                      alpha=alpha, zorder=2, **(fill if moving else dict(fill, linewidth=0)))
        # (The ignores: matplotlib's stubs want a sequence of lines where its
        # documentation, and this call, give an (n, 2, 2) array.)
        segments = np.stack([starts, ends], axis=1)
        ax.add_collection(LineCollection(segments,  # type: ignore[arg-type]
                                         colors=shade, linewidths=linewidth, zorder=2,
                                         linestyles="--" if moving else "solid"))
        boxes = family["box"]
        if moving:      # a body's box may be turned: its corners, not its bounds
            shapes: list[Patch] = [Polygon(c) for c in
                                   plot_layers.box_corners(world, boxes["ids"][pick["box"]])]
        else:
            shapes = [Rectangle(lo, *(hi - lo)) for lo, hi in
                      zip(boxes["mins"][pick["box"]], boxes["maxs"][pick["box"]])]
        shapes += [Polygon(v) for v, keep in zip(family["polygon"]["vertices"], pick["polygon"])
                   if keep]
        ax.add_collection(PatchCollection(shapes, zorder=2, **fill))
        grids = family["grid"]
        for gid, table, size, (ox, oy), keep in zip(grids["ids"], grids["blocked"],
                                                    grids["cell_size"], grids["origin"],
                                                    pick["grid"]):
            if not keep:
                continue
            if moving:  # turned with its body: its blocked cells as quadrilaterals
                cells = [Polygon(q) for q in plot_layers.grid_cells(world, int(gid))]
                ax.add_collection(PatchCollection(cells, zorder=2, **fill))
                continue
            rows, cols = table.shape
            ax.imshow(np.ma.masked_equal(table.astype(np.uint8), 0),
                      cmap=ListedColormap([shade]), origin="lower", interpolation="nearest",
                      zorder=2, extent=(ox, ox + cols * size, oy, oy + rows * size))
    origins = plot_layers.body_origins(world)
    if len(origins):
        ax.plot(origins[:, 0], origins[:, 1], "P", color="white",
                markeredgecolor=plot_layers.BODY_EDGE, markersize=7, zorder=4)
    ax.set_aspect("equal")
    ax.autoscale_view()


def draw_path(ax: Axes, positions: Points2, **kw: Any) -> Line2D:
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


def draw_contacts(ax: Axes, contacts_points: Points2, **kw: Any) -> Line2D:
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


def draw_paths(ax: Axes, paths: ArrayLike, *, cmap: str | Colormap = "tab10",
               **kw: Any) -> LineCollection:
    """Draw many agents' paths at once, one colour per agent, as a single collection.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    paths : (frames, n, 2) float64
        ``paths[t, i]`` is agent ``i``'s position at frame ``t``; one
        ``LineCollection`` draws thousands of agents quickly.
    cmap : str or matplotlib colormap
        Agent ``i`` takes colour ``i`` of a qualitative map (cycling), or
        ``i / n`` of a continuous one.
    **kw
        Passed to ``LineCollection`` (``linewidths``, ``alpha``...).

    Returns
    -------
    matplotlib.collections.LineCollection
    """
    from matplotlib.collections import LineCollection

    p = np.asarray(paths, float)
    if p.ndim != 3 or p.shape[2] != 2:
        raise ValueError(f"paths must have shape (frames, n, 2), got {p.shape}")
    kw.setdefault("colors", agent_colors(p.shape[1], cmap))
    kw.setdefault("linewidths", 1.2)
    kw.setdefault("zorder", 3)
    lines = LineCollection(np.swapaxes(p, 0, 1), **kw)  # type: ignore[arg-type]
    ax.add_collection(lines)
    ax.autoscale_view()
    return lines


def agent_colors(n: int, cmap: str | Colormap = "tab10") -> FloatArray:
    """``(n, 4)`` RGBA colours, one per agent: cycling a qualitative map, spread over another.

    Examples
    --------
    >>> agent_colors(12).shape
    (12, 4)
    >>> bool((agent_colors(12)[0] == agent_colors(12)[10]).all())   # tab10 cycles
    True
    """
    import matplotlib

    colormap = matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap
    count = getattr(colormap, "N", 256)
    if count <= 20:
        return colormap(np.arange(n) % count)
    return colormap(np.linspace(0.0, 1.0, max(n, 1))[:n])


def draw_clearance(ax: Axes, world: World2D, *,
                   extent: tuple[float, float, float, float] | None = None,
                   resolution: int = 400, radius: float = 0.0, cmap: str | Colormap = "Blues",
                   vmax: float | None = None, contour: bool = True,
                   contour_color: ColorType = "tab:red", shade: bool = True,
                   alpha: float = 1.0) -> tuple[AxesImage, QuadContourSet | None]:
    """Draw the clearance field of ``world``: how far each point is from the nearest surface.

    An image of :meth:`World2D.clearance` sampled at the centres of a grid of
    points (inside obstacles, where it is negative, in light grey), with a
    contour at ``radius``: an agent of that radius cannot stand with its
    centre on the obstacle side of the line.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    world : World2D
    extent : (x0, x1, y0, y1), optional
        The region to sample, as ``imshow`` takes it. By default the world's
        bounds grown by 5% (and by ``radius``) on every side; ``(-1, 1, -1, 1)``
        for an empty world.
    resolution : int >= 2
        Samples along the longer side of ``extent``; the other side gets as
        many as keep the samples square.
    radius : float >= 0
        Where to draw the contour. 0 draws the obstacle surfaces themselves.
    cmap : str or matplotlib colormap
        For clearance from 0 (lightest by default: tight spots pale, open
        space dark) to ``vmax``.
    vmax : float, optional
        Clearance shown with the colormap's last colour (and anything
        beyond); by default the 95th percentile of the positive samples, so
        the empty land around a level does not wash out its rooms.
    contour : bool
        Draw the contour line at ``radius``.
    contour_color : matplotlib colour
    shade : bool
        Also fill the band where ``0 <= clearance < radius`` with a
        translucent ``contour_color``.
    alpha : float in [0, 1]
        Opacity of the image.

    Returns
    -------
    image : matplotlib.image.AxesImage
    contour : matplotlib.contour.QuadContourSet or None
        None when not asked for or when ``radius`` does not occur in the samples.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> import sidestep
    >>> world = sidestep.World2D()
    >>> posts = world.add_circles([(0, 0), (3, 0)], 1.0)
    >>> ax = Figure().subplots()
    >>> image, contour = draw_clearance(ax, world, radius=0.5, resolution=50)
    >>> image.get_array().shape                      # 50 across, height kept square
    (27, 50)
    >>> float(image.get_array().min()) < 0 < float(image.get_array().max())
    True
    >>> draw_clearance(ax, sidestep.World2D(), resolution=8)[1] is None   # empty: no contour
    True
    """
    from matplotlib.colors import Normalize

    if not radius >= 0:
        raise ValueError(f"radius must be a number >= 0, got {radius!r}")
    if isinstance(resolution, bool) or int(resolution) != resolution or resolution < 2:
        raise ValueError(f"resolution must be an integer >= 2, got {resolution!r}")
    x0, x1, y0, y1 = _field_extent(world, extent, radius)
    side = max(x1 - x0, y1 - y0) / int(resolution)
    nx = max(2, int(round((x1 - x0) / side)))
    ny = max(2, int(round((y1 - y0) / side)))
    xs = x0 + (np.arange(nx) + 0.5) * (x1 - x0) / nx
    ys = y0 + (np.arange(ny) + 0.5) * (y1 - y0) / ny
    gx, gy = np.meshgrid(xs, ys)
    samples = cast(FloatArray, world.clearance(np.column_stack([gx.ravel(), gy.ravel()])))
    field = samples.reshape(ny, nx)
    finite = field[np.isfinite(field)]
    positive = finite[finite > 0]
    top = vmax if vmax is not None else \
        (float(np.percentile(positive, 95)) if positive.size else 1.0)
    colors = _colormap(cmap).with_extremes(under="0.85", over=_colormap(cmap)(1.0))
    image = ax.imshow(field, origin="lower", extent=(x0, x1, y0, y1), cmap=colors,
                      norm=Normalize(0.0, max(top, 1e-12)), interpolation="nearest",
                      alpha=alpha, zorder=0.5, rasterized=True)
    lines = None
    if finite.size and finite.min() < radius < finite.max():
        if shade and radius > 0:
            ax.contourf(gx, gy, field, levels=[0.0, radius], colors=[contour_color],
                        alpha=0.25, zorder=0.6)
        if contour:
            lines = ax.contour(gx, gy, field, levels=[radius], colors=[contour_color],
                               linewidths=1.0, zorder=0.7)
    ax.set_aspect("equal")
    return image, lines


def _colormap(cmap: str | Colormap) -> Colormap:
    """A colormap from its name or itself."""
    import matplotlib

    return matplotlib.colormaps[cmap] if isinstance(cmap, str) else cmap


def _field_extent(world: World2D, extent: tuple[float, float, float, float] | None,
                  radius: float) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)`` to sample: ``extent`` checked, or the world's grown bounds."""
    if extent is not None:
        x0, x1, y0, y1 = (float(v) for v in extent)
        if not (np.all(np.isfinite([x0, x1, y0, y1])) and x1 > x0 and y1 > y0):
            raise ValueError(f"extent must be finite (x0, x1, y0, y1) with x0 < x1 and "
                             f"y0 < y1, got {extent!r}")
        return x0, x1, y0, y1
    bounds = world.bounds
    if bounds is None:
        return -1.0, 1.0, -1.0, 1.0
    lo_x, lo_y, hi_x, hi_y = bounds
    margin = 0.05 * max(hi_x - lo_x, hi_y - lo_y, 1e-9) + radius
    return lo_x - margin, hi_x + margin, lo_y - margin, hi_y + margin


def draw_query(ax: Axes, world: World2D | World3D, volume: Volume, *, color: ColorType = "0.35",
               view_color: ColorType = "tab:blue") -> Query:
    """Draw ``world``, a view volume and the obstacles it touches, coloured by state.

    See :func:`sidestep.plot_query.draw_query` (2D and 3D worlds). Returns
    the :class:`~sidestep.volumes.query.Query`.
    """
    from .plot_query import draw_query as draw
    return draw(ax, world, volume, color=color, view_color=view_color)
