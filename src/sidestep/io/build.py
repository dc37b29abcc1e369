"""Collect a level's obstacles in file order, then build a fresh ``World2D`` in one go.

Every reader parses the whole file first and hands its obstacles to a
:class:`WorldBuilder`, with the place in the file each came from. Consecutive
obstacles of one family go to ``World2D`` in a single ``add_*`` call (a
Moving AI map's grid, a Doom map's 4,500 walls), so ids follow the file order
and loading stays fast. Every obstacle may name its collision layer
(``layer=``, 0 by default; see :mod:`sidestep.layers`). If ``World2D``
refuses an obstacle, the builder finds which one and raises a
:class:`~sidestep.level.LevelError` naming its place; the half-built world is
dropped with the builder, never returned.
"""
import numpy as np

from ..level import LevelError
from ..world import World2D

#: The ``World2D`` method that adds many obstacles of a family in one call.
#: Polygons and grids are added one per call, as ``World2D`` takes them.
_ADD = {"circle": "add_circles", "wall": "add_walls", "box": "add_boxes"}


class WorldBuilder:
    """Obstacles in the order a file lists them, added to a new world in runs.

    Parameters
    ----------
    file : str or path
        The file being read, for error messages.

    Examples
    --------
    >>> builder = WorldBuilder("house.json")
    >>> builder.walls([(0, 0)], [(4, 0)], [0.5], ["walls[0]"])
    >>> builder.circles([(1, 1)], [0.5], ["circles[0]"])
    >>> world = builder.world()
    >>> [world.family(i) for i in world.ids]
    ['wall', 'circle']
    >>> bad = WorldBuilder("bad.json")
    >>> bad.boxes([(0, 0)], [(0, 1)], ["boxes[7]"])     # queued; checked when built
    >>> bad.world()                                     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sidestep.level.LevelError: bad.json: boxes[7]: box 0 must have mins < maxs ...
    """

    def __init__(self, file):
        self._file = file
        self._world = World2D()
        # The pending run: its family, its argument arrays in chunks, one place per obstacle.
        self._family = None
        self._rows = []
        self._places = []

    # ------------------------------------------------------------ families
    def circles(self, centers, radii, places, layer=0):
        """Queue circles: ``centers (n, 2)``, ``radii (n,)``, one place string each;
        ``layer`` one layer or ``(n,)`` of them."""
        self._queue("circle", (np.asarray(centers, float).reshape(-1, 2),
                               np.asarray(radii, float).reshape(-1)), places, layer)

    def walls(self, starts, ends, clearance, places, one_sided=False, layer=0):
        """Queue walls: ``starts``, ``ends (n, 2)``, ``clearance (n,)``, one place each;
        ``one_sided`` (a bool or ``(n,)``): the level's edge, walkable on the left."""
        starts = np.asarray(starts, float).reshape(-1, 2)
        self._queue("wall", (starts, np.asarray(ends, float).reshape(-1, 2),
                             np.asarray(clearance, float).reshape(-1),
                             np.broadcast_to(np.asarray(one_sided, bool), len(starts))), places,
                    layer)

    def frame(self, mins, maxs, place):
        """Queue the edge of a rectangular level: four one-sided walls round ``[mins, maxs]``,
        walkable inside (a grid or Tiled map's extent)."""
        (x0, y0), (x1, y1) = np.asarray(mins, float), np.asarray(maxs, float)
        corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        self.walls(corners, np.roll(corners, -1, axis=0), np.zeros(4),
                   [f"{place} ({side} edge)" for side in ("first-row", "last-column",
                                                           "last-row", "first-column")],
                   one_sided=True)

    def boxes(self, mins, maxs, places, layer=0):
        """Queue axis-aligned boxes: ``mins``, ``maxs (n, 2)``, one place each."""
        self._queue("box", (np.asarray(mins, float).reshape(-1, 2),
                            np.asarray(maxs, float).reshape(-1, 2)), places, layer)

    def polygon(self, vertices, place, layer=0):
        """Add one polygon now (after the pending run), so a refusal is known at once.

        Raises
        ------
        LevelError
            If ``World2D.add_polygon`` refuses it (not simple, zero area...);
            callers that can fall back (Tiled: walls along its edges) catch it.
        """
        self._flush()
        try:
            self._world.add_polygon(vertices, layer=layer)
        except (ValueError, TypeError) as exc:
            raise LevelError(self._file, place, str(exc)) from None

    def grid(self, blocked, cell_size, origin, place, layer=0):
        """Add one look-up-table grid (see ``World2D.add_grid``) after the pending run."""
        self._flush()
        try:
            self._world.add_grid(blocked, cell_size, origin, layer=layer)
        except (ValueError, TypeError) as exc:
            raise LevelError(self._file, place, str(exc)) from None

    def world(self):
        """The finished ``World2D``, holding everything queued, in order."""
        self._flush()
        return self._world

    # ------------------------------------------------------------- helpers
    def _queue(self, family, columns, places, layer):
        if len(places) != len(columns[0]):
            raise ValueError(f"got {len(columns[0])} obstacles but {len(places)} places")
        if family != self._family:
            self._flush()
            self._family = family
        # The layers ride as one more column; an int is checked when the run is added.
        self._rows.append((*columns, np.broadcast_to(np.asarray(layer), len(places))))
        self._places.extend(places)

    def _flush(self):
        if not self._rows:
            self._family = None
            return
        family, rows, places = self._family, self._rows, self._places
        self._family, self._rows, self._places = None, [], []
        *columns, layer = [np.concatenate(parts) for parts in zip(*rows)]
        add = getattr(self._world, _ADD[family])
        try:
            add(*columns, layer=layer)
        except (ValueError, TypeError):
            # World2D names the index inside the batch; find the obstacle by
            # adding each alone to a scratch world, and name its place instead.
            for i, place in enumerate(places):
                try:
                    getattr(World2D(), _ADD[family])(*(c[i:i + 1] for c in columns),
                                                     layer=layer[i:i + 1])
                except (ValueError, TypeError) as exc:
                    raise LevelError(self._file, place, str(exc)) from None
            raise
