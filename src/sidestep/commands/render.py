"""``sidestep render``: a picture of a level as the world sees it.

Obstacles, wall bands, blocked grid cells and spawn points, over the
clearance field (how far each point is from the nearest surface); with an
agent radius, the halo where that agent's centre cannot go is shaded orange.
Obstacles on more than one collision layer get a colour per layer, those in
rigid bodies are hatched with a marker at each body's origin, and the
legend says which is which (:mod:`sidestep.plot_layers`).

>>> import os, tempfile
>>> import sidestep
>>> from sidestep.commands.render import render
>>> world = sidestep.World2D()
>>> trees = world.add_circles([(0, 1), (1, 0), (-1, 0)], 1.0)
>>> with tempfile.TemporaryDirectory() as folder:
...     out = os.path.join(folder, "trees.svg")
...     _ = render(world, out, radius=0.3)
...     open(out).read(5)
'<?xml'
"""
import numpy as np

from .. import plot, plot_layers
from ..plot_query import draw_query
from .pictures import DPI, level_extent, level_figure, picture_format

#: Samples of the clearance field along the picture's longer side. The field is
#: smooth, so a coarse image of it reads well; clearance deep inside big
#: blocked regions of a tile map is slow to compute (about 15 us a point on
#: the 1491 x 656 orz900d map), and 400 samples across keep it near a second.
FIELD_RESOLUTION = 400
#: The obstacles' colour (and layer 0's, when there are several layers).
_OBSTACLE_COLOR = "0.35"


def render(level, out, *, radius=0.0, field=True, title=None, y_down=False, view=None):
    """Draw ``level`` and save the picture at ``out`` (the extension picks the format).

    Parameters
    ----------
    level : Level or World2D
    out : str or path-like
        PNG, SVG or any format matplotlib writes; PNG without an extension.
    radius : float >= 0
        An agent radius: its halo is shaded and the field's contour drawn
        where its centre stops fitting. 0 draws the obstacles alone.
    field : bool
        Draw the clearance field under the obstacles.
    title : str, optional
        By default the level's name, its obstacle counts and the radius.
    y_down : bool
        Draw y growing downwards, as tile maps, Tiled maps and images read.
    view : Volume, optional
        A 2D view volume (a wedge): drawn, and the obstacles it touches
        coloured by state (:func:`sidestep.plot_query.draw_query`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, already saved (for notebooks that want to show it).
    """
    radius = float(radius)
    if not (np.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    kind = picture_format(out)
    world = getattr(level, "world", level)
    spawns = np.asarray(getattr(level, "spawns", np.zeros((0, 2))), float).reshape(-1, 2)
    extent = level_extent(world, radius, [spawns])
    fig, ax = level_figure(extent)
    if field and len(world):
        # The exact halo of draw_world shades where the agent cannot go; the
        # field's sampled contour would only blur its edge.
        image, _ = plot.draw_clearance(ax, world, extent=extent, resolution=FIELD_RESOLUTION,
                                       radius=radius, contour=False, shade=False, alpha=0.45)
        fig.colorbar(image, ax=ax, shrink=0.6, pad=0.01,
                     label="clearance: distance to the nearest surface")
    plot.draw_world(ax, world, halo=radius, color=_OBSTACLE_COLOR)
    if view is not None:
        q = draw_query(ax, world, view, base=False)
        counts = np.bincount(q.state, minlength=3)
        title = (title if title is not None else _title(level, world, radius)) + \
            f"\nview: {counts[2]} contained (green), {counts[1]} touched (orange)"
    explained = plot_layers.legend_handles(world, _OBSTACLE_COLOR)
    if len(spawns):
        ax.plot(spawns[:, 0], spawns[:, 1], "o", color="tab:green", markeredgecolor="k",
                markersize=5, zorder=5, label=f"spawns ({len(spawns)})")
    if explained:
        ax.legend(handles=ax.get_legend_handles_labels()[0] + explained, loc="upper right",
                  fontsize=9)
    elif len(spawns):
        ax.legend(loc="upper right", fontsize=9)
    ax.set(xlim=extent[:2], ylim=extent[3:1:-1] if y_down else extent[2:], xlabel="x",
           ylabel="y")
    ax.set_title(title if title is not None else _title(level, world, radius), fontsize=10)
    fig.savefig(out, format=kind, dpi=DPI)
    return fig


def _title(level, world, radius):
    """``name: 12 obstacles (3 circles, 9 walls); agent radius 0.3 (orange: ...)``."""
    name = getattr(level, "name", "") or "level"
    counts = {}
    for family in ("circle", "wall", "box", "polygon", "grid"):
        n = len(world.geometry(family)["ids"])
        if n:
            counts[family] = n
    parts = ", ".join(f"{n} {f}{'es' if f.endswith('x') else 's'}" if n != 1 else f"1 {f}"
                      for f, n in counts.items())
    text = f"{name}: {len(world)} obstacle{'' if len(world) == 1 else 's'}" + \
        (f" ({parts})" if parts else "")
    layers = len(np.unique(world.layers(world.ids)))
    bodies = len(world._store.bodies)
    if layers > 1:
        text += f" on {layers} layers"
    if bodies:
        text += f", {bodies} bod{'y' if bodies == 1 else 'ies'} (hatched)"
    if radius > 0:
        text += f"\nagent radius {radius:g}: orange is where its centre cannot go"
    return text
