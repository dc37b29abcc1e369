"""Tiles of a level's plane: which part of a level a task answers for.

A very large level is checked in tiles, one task each. Every finding has a
place (a gap's middle, an obstacle's inner point, a spawn), and each place
belongs to exactly one tile: tiles are half-open rectangles
``x0 <= x < x1, y0 <= y < y1`` and the outer ones reach to infinity, so the
tiles of :func:`tiles` cover the whole plane without overlapping. A task
looks at the geometry of its tile grown by the agent's reach (so findings on
a border are seen whole) but keeps only the findings placed in its tile, so
merging the tiles' findings neither loses nor doubles any.

A 3D level is cut the same way over its ground plane, the two axes that are
not ``World3D.up`` (:func:`~sidestep.commands.floors.ground_bounds`), and a
finding at ``(x, y, z)`` belongs to the tile holding its ground coordinates.
There each task reads the whole level and every probe or character looks at
all of it, so the reach beyond the tile is the whole level.

>>> corners = tiles((0.0, 0.0, 10.0, 10.0), 2)
>>> len(corners), corners[0]
(4, Region(x0=-inf, y0=-inf, x1=5.0, y1=5.0))
>>> [bool(r.holds([(5.0, 5.0)])[0]) for r in corners]   # on a border: in one tile
[False, False, False, True]
"""
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Region:
    """A half-open rectangle of the plane, ``x0 <= x < x1`` and ``y0 <= y < y1`` (world units)."""

    x0: float = -math.inf
    y0: float = -math.inf
    x1: float = math.inf
    y1: float = math.inf

    def holds(self, points):
        """``(n,) bool``: which of ``points (n, 2)`` lie in the region."""
        p = np.asarray(points, float).reshape(-1, 2)
        return (p[:, 0] >= self.x0) & (p[:, 0] < self.x1) & (p[:, 1] >= self.y0) \
            & (p[:, 1] < self.y1)

    def near(self, boxes, margin):
        """``(n,) bool``: which ``boxes (n, 4) [minx, miny, maxx, maxy]`` come within ``margin`` of it."""
        b = np.asarray(boxes, float).reshape(-1, 4)
        return (b[:, 2] >= self.x0 - margin) & (b[:, 0] <= self.x1 + margin) \
            & (b[:, 3] >= self.y0 - margin) & (b[:, 1] <= self.y1 + margin)

    @property
    def whole(self):
        """Whether this is the whole plane."""
        return self == EVERYWHERE

    def as_list(self):
        """``[x0, y0, x1, y1]`` for JSON (infinities as None)."""
        return [v if math.isfinite(v) else None for v in (self.x0, self.y0, self.x1, self.y1)]


#: The whole plane: one tile.
EVERYWHERE = Region()

#: No part of the plane: the spare tiles of a level with nothing in it.
NOWHERE = Region(0.0, 0.0, 0.0, 0.0)


def tiles(bounds, per_side):
    """``per_side`` x ``per_side`` tiles over ``bounds``, the outer ones reaching to infinity.

    Parameters
    ----------
    bounds : (minx, miny, maxx, maxy) or None
        The level's extent (``World2D.bounds``); None (an empty level) gives
        :data:`EVERYWHERE` and ``per_side ** 2 - 1`` tiles of :data:`NOWHERE`.
    per_side : int >= 1
        Tiles along each axis: 1 gives :data:`EVERYWHERE`, 2 four tiles, 3 nine.

    Returns
    -------
    list of Region
        ``per_side ** 2`` of them, row by row (y, then x), covering the plane once.
    """
    per_side = int(per_side)
    if per_side < 1:
        raise ValueError(f"per_side must be a whole number >= 1, got {per_side}")
    if bounds is None or per_side == 1:
        return [EVERYWHERE] + [NOWHERE] * (per_side * per_side - 1)
    x0, y0, x1, y1 = map(float, bounds)
    xs = _cuts(x0, x1, per_side)
    ys = _cuts(y0, y1, per_side)
    return [Region(xs[i], ys[j], xs[i + 1], ys[j + 1])
            for j in range(per_side) for i in range(per_side)]


def _cuts(lo, hi, n):
    """``n + 1`` cut positions: -inf, ``n - 1`` evenly spaced inner cuts, +inf."""
    inner = [lo + (hi - lo) * k / n for k in range(1, n)]
    return [-math.inf] + inner + [math.inf]


def tiles_for(bounds, size):
    """Tiles per side so that no tile is wider than ``size`` (world units); 1 when ``size`` is None.

    >>> tiles_for((0, 0, 100, 40), 30), tiles_for((0, 0, 100, 40), None)
    (4, 1)
    """
    if size is None or bounds is None:
        return 1
    size = float(size)
    if not (math.isfinite(size) and size > 0):
        raise ValueError(f"tile size must be a finite number > 0, got {size}")
    span = max(bounds[2] - bounds[0], bounds[3] - bounds[1])
    return max(1, math.ceil(span / size))
