"""How :func:`sidestep.plot.draw_world` tells collision layers and bodies apart.

- **Layers.** When a world's obstacles are on more than one layer, each
  layer is drawn in a colour of its own (layer 0 in the base colour, the
  others in :data:`LAYER_COLORS`, in layer order); on one layer, everything
  keeps the base colour, so pictures of worlds without layers are unchanged.
- **Bodies.** Obstacles in a rigid body are hatched and outlined in
  :data:`BODY_EDGE`, a wall of one dashed; each body's pose origin gets a
  small marker. Turned boxes and grids are drawn turned (``geometry``
  gives a body's box as its axis-aligned bounds, and a grid's origin
  without its turn).

:func:`legend_handles` gives the legend entries for both. matplotlib is
imported inside the functions, as in :mod:`sidestep.plot`.

>>> import sidestep
>>> world = sidestep.World2D()
>>> ids = world.add_circles([(0, 0), (3, 0)], 1.0, layer=[0, 2])
>>> [(colour, moving, ids.tolist()) for colour, moving, ids in groups(world, "0.35")]
[('0.35', False, [0]), ('tab:purple', False, [1])]
>>> [h.get_label() for h in legend_handles(world, "0.35")]
['layer 0', 'layer 2']
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._types import FloatArray, IntArray
from .kernels.world import AREA_POLYGON

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.typing import ColorType

    from .world import World2D

#: Colours of layers other than 0, in layer order (cycling): none of them the
#: grey of obstacles, the orange of a halo or the green of spawns.
LAYER_COLORS = ("tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:red",
                "tab:blue", "darkgoldenrod")
#: Outline and hatching of obstacles in bodies, and their hatch pattern.
BODY_EDGE = "black"
BODY_HATCH = "////"


def layer_colors(world: World2D, color: ColorType) -> dict[int, ColorType]:
    """``{layer: colour}`` of the layers the world's obstacles are on (one: ``color``)."""
    used = np.unique(world.layers(world.ids)).tolist()
    if len(used) <= 1:
        return {k: color for k in used}
    others = [k for k in used if k != 0]
    out: dict[int, ColorType] = {k: LAYER_COLORS[i % len(LAYER_COLORS)]
                                 for i, k in enumerate(others)}
    if 0 in used:
        out[0] = color
    return dict(sorted(out.items()))


def in_bodies(world: World2D, ids: IntArray) -> np.ndarray:
    """``(n,) bool``: whether each obstacle is in a rigid body."""
    body_of = world._store.bodies.body_of
    ids = np.asarray(ids, dtype=np.int64)
    out = np.zeros(len(ids), dtype=bool)
    known = ids < len(body_of)
    out[known] = body_of[ids[known]] >= 0
    return out


def groups(world: World2D, color: ColorType) -> list[tuple[ColorType, bool, IntArray]]:
    """``[(colour, in a body, ids)]``: the live obstacles split by how they are drawn."""
    ids = world.ids
    layer = world.layers(ids)
    moving = in_bodies(world, ids)
    out = []
    for k, colour in layer_colors(world, color).items():
        for flag in (False, True):
            pick = ids[(layer == k) & (moving == flag)]
            if len(pick):
                out.append((colour, flag, pick))
    return out


def box_corners(world: World2D, ids: IntArray) -> list[FloatArray]:
    """``(4, 2)`` corners of each box ``ids`` as posed (a body's box may be turned)."""
    st = world._store
    out = []
    for area in st.area_of.view()[np.asarray(ids, dtype=np.int64)]:
        if st.area_kind.view()[area] == AREA_POLYGON:       # a body's box: its corners
            first, count = st.area_ref.view()[area]
            out.append(st.polygon_vertices.view()[first:first + count].copy())
        else:
            lox, loy, hix, hiy = st.area_bounds.view()[area]
            out.append(np.array([[lox, loy], [hix, loy], [hix, hiy], [lox, hiy]]))
    return out


def grid_cells(world: World2D, grid_id: int) -> FloatArray:
    """``(k, 4, 2)`` corners of the blocked cells of grid obstacle ``grid_id``, as posed."""
    st = world._store
    g = int(st.area_ref.view()[st.area_of.view()[grid_id], 0])
    size, ox, oy, c, s = st.grid_frame.view()[g]
    rows, cols = np.nonzero(st.grid_tables[g])
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    local = (np.stack([cols, rows], axis=1)[:, None, :] + unit[None]) * size
    # x_world = R(c, s) x + origin, the grid's frame as its body last put it.
    return np.stack([ox + c * local[..., 0] - s * local[..., 1],
                     oy + s * local[..., 0] + c * local[..., 1]], axis=-1)


def body_origins(world: World2D) -> FloatArray:
    """``(bodies, 2)``: each body's pose position (the origin of its frame), any obstacles left."""
    bodies = world._store.bodies
    return np.array([world.pose(b)[0] for b in range(len(bodies))]).reshape(-1, 2)


def legend_handles(world: World2D, color: ColorType) -> list[Artist]:
    """Legend entries for the layers (when more than one) and the bodies of ``world``."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    colours = layer_colors(world, color)
    handles: list[Artist] = []
    if len(colours) > 1:
        handles += [Patch(facecolor=c, label=f"layer {k}") for k, c in colours.items()]
    if len(world._store.bodies):
        handles.append(Patch(facecolor="none", edgecolor=BODY_EDGE, hatch=BODY_HATCH,
                             label="in a body"))
        handles.append(Line2D([], [], marker="P", linestyle="none", color="white",
                              markeredgecolor=BODY_EDGE, label="body origin"))
    return handles
