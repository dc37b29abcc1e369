"""Obstacles grown by an axis-aligned rectangle: the Minkowski sums a rect agent needs.

A rectangle of half extents ``(hx, hy)`` centred at ``c`` overlaps an obstacle
``O`` exactly when the point ``c`` lies inside ``O`` grown by the rectangle,
``O + [-hx, hx] x [-hy, hy]`` (the Minkowski sum). So a world whose every
obstacle is grown that way lets sidestep move the rect's centre as a point
(radius 0) with all of :meth:`~sidestep.World2D.move`'s guarantees. This module
turns each family of a :class:`~sidestep.World2D` into grown pieces, plain
boxes and convex or simple polygons that ``add_boxes`` and ``add_polygon``
take; :mod:`sidestep.adapters.rects` builds and queries the grown world.

How each family grows (``h = (hx, hy)``):

- **boxes**: ``[min - h, max + h]``, exact.
- **grids**: the blocked cells merged into few rectangles first (the voxel
  tables' greedy merge, :func:`sidestep.kernels3d.voxels.merge_cells`), each
  grown as a box; exact.
- **convex polygons**: the convex hull of every corner moved to each of the
  rect's four corners, exact.
- **concave polygons**: the polygon itself plus, for each edge, the edge swept
  by the rect (the hull of its two ends moved to the rect's corners, a convex
  hexagon at most). Exact, no triangulation: a point of the sum outside the
  polygon lies on a segment ``p + t * r`` (``p`` in the polygon, ``r`` a
  vector of the rect) that leaves the polygon through some edge, so the point
  is that edge's crossing plus a shorter vector of the (centred, convex) rect.
- **circles** of radius ``r > 0`` (a rounded rectangle): a convex polygon that
  *contains* the rounded rect, from a regular ``sides``-gon circumscribing the
  circle with each quarter moved out to its corner of the rect. It errs on the
  blocking side: the rect stops up to ``r * (1 / cos(pi / sides) - 1)`` (1.9 %
  of ``r`` for 16 sides) short of the circle near its diagonals, never
  closer; along the axes it is exact. A point post (``r = 0``) grows to a box.
- **walls** (a segment and its clearance ``c``, a capsule): the hull of the
  segment's two ends moved over the same circumscribing polygon of radius
  ``c`` (the four rect corners when ``c = 0``, then exact). A one-sided wall
  (a level's edge) grows like a two-sided one: the rect cannot cross it, but
  the void behind it is not carried over (a rect placed outside the level
  stays outside; its centre is not pulled back in).

Every function returns plain float64 arrays; none touches a world.
"""
import math

import numpy as np

from ..kernels.polygon import signed_area_polygon
from ..kernels3d.voxels import merge_cells

#: Sides of the polygon standing in for a circle (a multiple of 4).
CIRCLE_SIDES = 16

#: The rect's corners as multiples of its half extents, counter-clockwise.
_CORNERS = np.array([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])


def grow_boxes(mins, maxs, half):
    """Boxes grown by the rect: ``(mins - half, maxs + half)``.

    Parameters
    ----------
    mins, maxs : (n, 2) float64
    half : (2,) float64, the rect's half extents ``(hx, hy)``, > 0

    Returns
    -------
    mins, maxs : (n, 2) float64

    Examples
    --------
    >>> lo, hi = grow_boxes([(0.0, 0.0)], [(4.0, 1.0)], np.array([1.0, 0.5]))
    >>> lo.tolist(), hi.tolist()
    ([[-1.0, -0.5]], [[5.0, 1.5]])
    """
    h = np.asarray(half, dtype=np.float64)
    return np.asarray(mins, dtype=np.float64) - h, np.asarray(maxs, dtype=np.float64) + h


def grid_boxes(blocked, cell_size, origin):
    """A grid's blocked cells as few disjoint rectangles covering exactly them.

    Parameters
    ----------
    blocked : (rows, cols) bool
        Cell ``(r, c)`` covers ``x in [ox + c*s, ox + (c+1)*s]``,
        ``y in [oy + r*s, oy + (r+1)*s]``, as in :meth:`~sidestep.World2D.add_grid`.
    cell_size : float
    origin : (2,) float64

    Returns
    -------
    mins, maxs : (m, 2) float64

    Examples
    --------
    An L of three cells becomes two rectangles:

    >>> lo, hi = grid_boxes(np.array([[1, 1], [1, 0]], bool), 2.0, (10.0, 0.0))
    >>> np.column_stack([lo, hi]).tolist()
    [[10.0, 0.0, 14.0, 2.0], [10.0, 2.0, 12.0, 4.0]]
    """
    # merge_cells works on (nx, ny, nz) tables, x first: the grid's columns.
    table = np.ascontiguousarray(np.asarray(blocked, dtype=bool).T, dtype=np.uint8)[:, :, None]
    cells = merge_cells(table)
    o = np.asarray(origin, dtype=np.float64)
    mins = o + cells[:, 0:2] * float(cell_size)
    maxs = o + cells[:, 3:5] * float(cell_size)
    return mins, maxs


def convex_hull(points):
    """Convex hull of points, counter-clockwise, without repeated or collinear corners.

    Andrew's monotone chain (Andrew 1979; de Berg et al., section 1.1).

    Parameters
    ----------
    points : (n, 2) float64

    Returns
    -------
    (k, 2) float64
        ``k >= 3`` unless the points are collinear (then 2 or 1).

    Examples
    --------
    >>> convex_hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 0)]).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]
    """
    p = np.unique(np.asarray(points, dtype=np.float64), axis=0)     # sorted by x, then y
    if len(p) < 3:
        return p
    pts = p.tolist()

    def chain(seq):
        out = []
        for x, y in seq:
            # Pop while the turn (o -> a -> (x, y)) is not strictly counter-clockwise.
            while len(out) >= 2:
                (ox, oy), (ax, ay) = out[-2], out[-1]
                if (ax - ox) * (y - oy) - (ay - oy) * (x - ox) > 0.0:
                    break
                out.pop()
            out.append((x, y))
        return out

    lower = chain(pts)
    upper = chain(reversed(pts))
    return np.array(lower[:-1] + upper[:-1])


def is_convex(vertices):
    """Whether a simple polygon (either winding) is convex (collinear corners allowed).

    Examples
    --------
    >>> is_convex([(0, 0), (2, 0), (2, 2), (0, 2)]), is_convex([(0, 0), (2, 0), (1, 0.5), (1, 2)])
    (True, False)
    """
    v = np.asarray(vertices, dtype=np.float64)
    e = np.roll(v, -1, axis=0) - v
    cross = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
    return bool(np.all(cross >= 0.0) or np.all(cross <= 0.0))


def grow_convex(vertices, half):
    """A convex polygon (or a segment, or a point) grown by the rect: a convex polygon.

    Parameters
    ----------
    vertices : (k, 2) float64, k >= 1, in convex position (any order)
    half : (2,) float64

    Returns
    -------
    (m, 2) float64, counter-clockwise

    Examples
    --------
    A segment from (0, 0) to (4, 2) grown by a 2 x 2 rect: a hexagon.

    >>> grow_convex([(0, 0), (4, 2)], np.array([1.0, 1.0])).tolist()
    [[-1.0, -1.0], [1.0, -1.0], [5.0, 1.0], [5.0, 3.0], [3.0, 3.0], [-1.0, 1.0]]
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 1, 2)
    moved = v + _CORNERS * np.asarray(half, dtype=np.float64)
    return convex_hull(moved.reshape(-1, 2))


def rounded_rect_polygon(radius, half, sides=CIRCLE_SIDES):
    """A convex polygon round the origin containing the rect grown by a circle of ``radius``.

    A regular ``sides``-gon circumscribing the circle (edges tangent to it,
    one edge facing each axis), each quarter of its corners moved out to the
    matching corner of the rect: the Minkowski sum of that polygon and the
    rect, which contains the rounded rect and exceeds it by at most
    ``radius * (1 / cos(pi / sides) - 1)``.

    Parameters
    ----------
    radius : float > 0
    half : (2,) float64
    sides : int, a multiple of 4, >= 4

    Returns
    -------
    (sides, 2) float64, counter-clockwise

    Examples
    --------
    With 4 sides it is the rect grown by ``radius`` on every side:

    >>> rounded_rect_polygon(1.0, np.array([2.0, 1.0]), sides=4).round(12).tolist()
    [[3.0, 2.0], [-3.0, 2.0], [-3.0, -2.0], [3.0, -2.0]]
    """
    if sides < 4 or sides % 4:
        raise ValueError(f"sides must be a multiple of 4, at least 4; got {sides}")
    angles = (2.0 * np.arange(sides) + 1.0) * math.pi / sides
    ring = (radius / math.cos(math.pi / sides)) * np.column_stack([np.cos(angles),
                                                                   np.sin(angles)])
    # Each corner lies strictly inside one quadrant: move it to that rect corner.
    return ring + np.sign(ring) * np.asarray(half, dtype=np.float64)


def grow_circle(center, radius, half, sides=CIRCLE_SIDES):
    """A circle grown by the rect, conservatively: ``("box", mins, maxs)`` or ``("polygon", v)``.

    A point post (``radius == 0``) grows to the rect itself, a box; otherwise
    :func:`rounded_rect_polygon` round ``center``.
    """
    c = np.asarray(center, dtype=np.float64)
    h = np.asarray(half, dtype=np.float64)
    if radius == 0.0:
        return ("box", c - h, c + h)
    return ("polygon", c + rounded_rect_polygon(radius, h, sides))


def grow_wall(start, end, clearance, half, sides=CIRCLE_SIDES):
    """A wall (a segment and its clearance) grown by the rect: one convex polygon.

    Exact for ``clearance == 0``; otherwise it contains the grown capsule and
    errs on the blocking side as :func:`rounded_rect_polygon` does.

    Examples
    --------
    >>> grow_wall((0, 0), (4, 0), 0.0, np.array([1.0, 0.5])).tolist()
    [[-1.0, -0.5], [5.0, -0.5], [5.0, 0.5], [-1.0, 0.5]]
    """
    ends = np.array([start, end], dtype=np.float64)
    h = np.asarray(half, dtype=np.float64)
    if clearance == 0.0:
        return grow_convex(ends, h)
    ring = rounded_rect_polygon(clearance, h, sides)
    return convex_hull((ends[:, None, :] + ring[None, :, :]).reshape(-1, 2))


def as_box(vertices):
    """``(mins, maxs)`` if ``vertices`` are the four corners of an axis-aligned rectangle, else None.

    Examples
    --------
    >>> as_box(np.array([(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]))
    (array([0., 0.]), array([2., 1.]))
    >>> as_box(np.array([(0.0, 0.0), (2.0, 0.0), (1.0, 1.0)])) is None
    True
    """
    v = np.asarray(vertices, dtype=np.float64)
    if len(v) != 4 or len(np.unique(v[:, 0])) != 2 or len(np.unique(v[:, 1])) != 2 \
            or len(np.unique(v, axis=0)) != 4:
        return None
    return v.min(axis=0), v.max(axis=0)


def grow_polygon(vertices, half):
    """A simple polygon grown by the rect, as convex or simple polygons whose union is exact.

    A convex polygon gives one polygon (:func:`grow_convex`); a concave one
    gives itself and one swept edge per edge (see the module notes).

    Parameters
    ----------
    vertices : (k, 2) float64, a simple polygon in either winding
    half : (2,) float64

    Returns
    -------
    list of (m, 2) float64

    Examples
    --------
    >>> square = [(0, 0), (2, 0), (2, 2), (0, 2)]
    >>> [p.tolist() for p in grow_polygon(square, np.array([1.0, 1.0]))]
    [[[-1.0, -1.0], [3.0, -1.0], [3.0, 3.0], [-1.0, 3.0]]]
    >>> arrow = [(0, 0), (4, 0), (2, 1), (2, 3)]           # concave: itself and 4 edges
    >>> len(grow_polygon(arrow, np.array([0.5, 0.5])))
    5
    """
    v = np.asarray(vertices, dtype=np.float64)
    h = np.asarray(half, dtype=np.float64)
    if is_convex(v):
        return [grow_convex(v, h)]
    if signed_area_polygon(v) < 0.0:
        v = v[::-1].copy()
    nxt = np.roll(v, -1, axis=0)
    return [v] + [grow_convex(np.array([a, b]), h) for a, b in zip(v, nxt)]
