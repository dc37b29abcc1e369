"""Paths for agents to follow: A* on a level's grid, or A* and the funnel on its navmesh.

A collision world says where a disc may stand; a game's agent also needs a
way to its goal. This module finds one from the level's navigation data:

- :class:`GridNavigator`: a grid of free and blocked cells (a Moving AI
  ``.map``, any world holding one grid). A* by Moving AI's rules:
  8-connected, straight steps cost 1 cell and diagonal ones sqrt(2), no
  diagonal step between two cells unless both cells beside it are free (no
  corner cutting). The route is optimal: its length is the ``.scen`` file's
  optimal length. It runs from cell centre to cell centre.
- :class:`MeshNavigator`: a Polyanya navigation mesh (convex polygons and
  their neighbours). A* over the polygons (entering each at the midpoint of
  the edge crossed, as Recast/Detour does), then string pulling (the
  "simple stupid funnel") to the shortest path inside that chain of
  polygons. The path may run at any angle, so it is usually shorter than the
  grid's octile optimum; it is the shortest through the corridor found,
  not always the shortest in the whole mesh (Polyanya's search is).

No library on PyPI fits both rules and speed: ``pyastar2d`` charges a diagonal
step the same weight as a straight one and cuts corners, ``pathfinding``
follows Moving AI's rules in pure Python (far too slow for 1024x1024 maps),
``tcod``'s current path-finder takes whole-number costs only (no sqrt(2))
and brings SDL with it, and no kept-up navmesh package reads Polyanya
meshes. The searches are Numba kernels (:mod:`sidestep.kernels.astar`,
:mod:`sidestep.kernels.corridor`).

:func:`navigator` picks the navigation data of a loaded level.

Examples
--------
>>> import numpy as np
>>> from sidestep.paths import GridNavigator
>>> blocked = np.array([[0, 0, 0],
...                     [0, 1, 0],
...                     [0, 0, 0]], bool)
>>> route = GridNavigator(blocked).route((0.5, 0.5), (2.5, 2.5))
>>> route.found, round(route.length, 6)      # no diagonal step past the blocked corner
(True, 4.0)
>>> route.points.tolist()
[[0.5, 0.5], [0.5, 2.5], [2.5, 2.5]]
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import validation
from .kernels import astar as _astar
from .kernels import corridor as _corridor

#: A point this far outside a navmesh polygon's edge (a share of the mesh's
#: size) still counts as in the polygon: scenario points lie on its edges.
ON_EDGE = 1e-9
#: Words for the finders, as reports name them.
GRID_FINDER = "grid A* (8-connected, octile costs, no corner cutting)"
MESH_FINDER = "navmesh A* over polygons + funnel"


@dataclass(frozen=True)
class Route:
    """A path from a start to a goal, or why there is none."""

    #: Whether a path was found.
    found: bool
    #: ``(k, 2) float64``: the path's points, start and goal included (empty if none).
    points: np.ndarray
    #: Length of the path (world units); inf if none.
    length: float
    #: Why no path was found ("" when one was).
    reason: str = ""
    #: Whether the path bends at obstacle corners (a navmesh path) rather
    #: than at cell centres (a grid path); see :meth:`waypoints`.
    bends_at_corners: bool = False
    #: ``(k,) int64``: for a navmesh path, the side of the path each point's
    #: corner lies on (+1 left, -1 right, 0 the ends); None for a grid path.
    sides: object = None

    def waypoints(self, radius):
        """``(k, 2) float64``: the points a disc of ``radius`` should head for in turn.

        A navmesh path touches obstacle corners, which a disc cannot reach:
        its inner points move ``radius`` (plus 5 %) off them
        (:func:`sidestep.kernels.corridor.clear_corners`). A grid path
        bends at cell centres, which keep half a cell from every blocked
        cell: it is returned as it is.
        """
        radius = validation.length(radius, "radius")
        if not self.bends_at_corners or radius == 0.0 or len(self.points) < 3:
            return self.points.copy()
        out = np.empty_like(self.points)
        _corridor.clear_corners(self.points, self.sides, radius * 1.05, out)
        return out


def _no_route(reason, corners=False):
    return Route(False, np.zeros((0, 2)), float("inf"), reason, corners)


class GridNavigator:
    """Paths over a grid of free and blocked cells (see the module notes for the rules).

    Parameters
    ----------
    blocked : (rows, cols) bool
        True: the cell is blocked. Row r, column c covers
        ``x in [ox + c s, ox + (c + 1) s]``, ``y in [oy + r s, oy + (r + 1) s]``,
        as in :meth:`sidestep.World2D.add_grid`. Outside the table is not walkable.
    cell_size : float > 0
    origin : (2,) float64
    """

    finder = GRID_FINDER

    def __init__(self, blocked, cell_size=1.0, origin=(0.0, 0.0)):
        table = np.asarray(blocked)
        if table.ndim != 2 or 0 in table.shape:
            raise ValueError(f"blocked must be a non-empty 2D table, got shape {table.shape}")
        self.blocked = np.ascontiguousarray(table != 0, dtype=np.uint8)
        self.cell_size = validation.length(cell_size, "cell_size")
        if self.cell_size == 0.0:
            raise ValueError("cell_size must be > 0")
        self.origin = validation.point(origin, "origin")
        n = self.blocked.size
        self._parent = np.empty(n, np.int64)
        self._heap = np.empty(n, np.int64)
        self._where = np.empty(n, np.int64)
        self._g = np.empty(n)
        self._f = np.empty(n)
        self._trace = np.empty(n, np.int64)

    def cell(self, point):
        """``(row, col)`` of the cell holding ``point``, or None off the grid."""
        p = validation.point(point, "point")
        c, r = np.floor((p - self.origin) / self.cell_size).astype(np.int64)
        rows, cols = self.blocked.shape
        return (int(r), int(c)) if 0 <= r < rows and 0 <= c < cols else None

    def walkable(self, point):
        """Whether ``point`` lies in a free cell of the grid."""
        cell = self.cell(point)
        return cell is not None and not self.blocked[cell]

    def _where_is(self, what, point):
        """``(flat cell, "")`` or ``(-1, reason)`` for a start or goal."""
        cell = self.cell(point)
        if cell is None:
            return -1, f"{what} is off the grid"
        if self.blocked[cell]:
            return -1, f"{what} is on a blocked cell (row {cell[0]}, column {cell[1]})"
        return cell[0] * self.blocked.shape[1] + cell[1], ""

    def route(self, start, goal):
        """The shortest 8-connected path from ``start``'s cell to ``goal``'s.

        Parameters
        ----------
        start, goal : (2,) float64
            Points (world units) in free cells.

        Returns
        -------
        Route
            ``points``: ``start``, the cell centres where the path turns, and
            ``goal`` (a start or goal off its cell's centre joins the path at
            that centre); ``length`` the length of that polyline, the octile
            length (times the cell size) for points at cell centres. No path
            (a start or goal off the grid or on a blocked cell, or no way
            between them): ``found`` False and ``reason`` says why.
        """
        start = validation.point(start, "start")
        goal = validation.point(goal, "goal")
        a, why = self._where_is("start", start)
        if a < 0:
            return _no_route(why)
        b, why = self._where_is("goal", goal)
        if b < 0:
            return _no_route(why)
        cost = _astar.astar_grid(self.blocked, a, b, self._parent, self._g, self._f,
                                 self._heap, self._where)
        if not np.isfinite(cost):
            return _no_route("no path: the goal's cell cannot be reached from the start's")
        count = _astar.trace_back(self._parent, b, self._trace)
        cells = self._trace[:count][::-1]
        cols = self.blocked.shape[1]
        rc = np.column_stack([cells // cols, cells % cols])
        # Keep the cells where the direction changes, and the ends.
        if len(rc) > 2:
            turn = np.any(np.diff(rc[1:], axis=0) != np.diff(rc[:-1], axis=0), axis=1)
            rc = rc[np.concatenate([[True], turn, [True]])]
        centres = self.origin + (rc[:, ::-1] + 0.5) * self.cell_size
        points = np.vstack([start, centres, goal])
        # A start or goal at its cell's centre is that centre: one point, not two.
        repeat = np.concatenate([[False], np.all(points[1:] == points[:-1], axis=1)])
        points = np.ascontiguousarray(points[~repeat])
        if len(points) == 1:
            points = np.vstack([points, points])
        return Route(True, points, float(_corridor.polyline_length(points, len(points))))


class MeshNavigator:
    """Paths over a navigation mesh of convex polygons (see the module notes for the search).

    Parameters
    ----------
    vertices : (V, 2) float64
    polygons : list of (list of int, list of int)
        Per polygon, its vertex ids in order round it, and for each edge
        from vertex ``i`` to vertex ``i + 1`` (wrapping round) the polygon
        across it, -1 for the mesh's boundary.
    """

    finder = MESH_FINDER

    def __init__(self, vertices, polygons):
        self.vertices, _ = validation.points(vertices, "vertices", allow_single=False)
        counts = [len(c) for c, _ in polygons]
        if not counts:
            raise ValueError("polygons must not be empty")
        if any(len(c) < 3 or len(c) != len(a) for c, a in polygons):
            raise ValueError("each polygon needs 3 or more vertex ids and one neighbour per edge")
        self.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.corners = np.concatenate([np.asarray(c, np.int64) for c, _ in polygons])
        self.across = np.concatenate([np.asarray(a, np.int64) for _, a in polygons])
        if self.corners.min() < 0 or self.corners.max() >= len(self.vertices):
            raise ValueError("a polygon names a vertex id that is not among the vertices")
        if self.across.min() < -1 or self.across.max() >= len(counts):
            raise ValueError("a polygon names a neighbour that is neither -1 nor a polygon")
        n = len(counts)
        self.orientation = np.empty(n, np.int64)
        _corridor.polygon_orientation(self.vertices, self.offsets, self.corners,
                                      self.orientation)
        span = np.ptp(self.vertices, axis=0).max() if len(self.vertices) else 1.0
        self._tolerance = ON_EDGE * max(float(span), 1.0)
        h = len(self.corners) + 1
        self._parent = np.empty(h, np.int64)
        self._heap = np.empty(h, np.int64)
        self._where = np.empty(h, np.int64)
        self._g = np.empty(h)
        self._chain = np.empty(n + 1, np.int64)
        self._edges = np.empty(n + 1, np.int64)
        self._portals = np.empty((n + 2, 4))
        self._points = np.empty((n + 3, 2))
        self._sides = np.empty(n + 3, np.int64)

    @classmethod
    def read(cls, path):
        """The navigator of a Polyanya ``.mesh`` file (versions 1 and 2).

        Raises
        ------
        LevelError
            For a file at fault, as :func:`sidestep.load` does.
        """
        from .io.navmesh import VERSIONS, _parse

        vertices, polygons, version = _parse(Path(path))
        shift = VERSIONS[version]
        rows = []
        for _, corners, across in polygons:
            n = len(corners)
            aligned = [0] * n
            for i, other in enumerate(across):      # entry i lies across v[i+shift-1], v[i+shift]
                aligned[(i + shift - 1) % n] = other
            rows.append((corners, aligned))
        return cls(vertices, rows)

    def polygon(self, point):
        """Index of the polygon holding ``point`` (edges included), or -1 outside the mesh."""
        p = validation.point(point, "point")
        return int(_corridor.locate_polygon(p[0], p[1], self.vertices, self.offsets,
                                            self.corners, self.orientation, self._tolerance))

    def walkable(self, point):
        """Whether ``point`` lies in the mesh (on its edges included)."""
        return self.polygon(point) >= 0

    def route(self, start, goal):
        """The shortest path from ``start`` to ``goal`` through the corridor A* finds.

        Returns
        -------
        Route
            ``points``: start, the mesh corners it bends round, goal;
            ``bends_at_corners`` True. No path (an end outside the mesh, or
            no way between): ``found`` False and ``reason`` says why.
        """
        start = validation.point(start, "start")
        goal = validation.point(goal, "goal")
        a = self.polygon(start)
        if a < 0:
            return _no_route("start is outside the navmesh", True)
        b = self.polygon(goal)
        if b < 0:
            return _no_route("goal is outside the navmesh", True)
        k, _ = _astar.astar_mesh(self.vertices, self.offsets, self.corners, self.across,
                                 self.orientation, a, b, start[0], start[1], goal[0], goal[1],
                                 self._parent, self._g, self._heap, self._where, self._chain,
                                 self._edges, self._portals, self._points, self._sides)
        if k == 0:
            return _no_route("no path: the goal's polygon cannot be reached from the start's",
                             True)
        portals = np.empty((k + 1, 4))
        _corridor.corridor_portals(self.vertices, self.offsets, self.corners, self.orientation,
                                   self._chain[:k], self._edges[:k], start[0], start[1],
                                   goal[0], goal[1], portals)
        out = np.empty((k + 2, 2))
        sides = np.empty(k + 2, np.int64)
        count = _corridor.funnel(portals, out, sides)
        points = np.ascontiguousarray(out[:count])
        return Route(True, points, float(_corridor.polyline_length(points, count)), "", True,
                     sides[:count].copy())


def navigator(level):
    """The navigation data of a loaded level, or None when it has none.

    A level read from a Polyanya ``.mesh`` gets a :class:`MeshNavigator`
    (the mesh is read again from ``level.source``); a world holding exactly
    one grid (a Moving AI ``.map``, say) a :class:`GridNavigator` over it.

    Parameters
    ----------
    level : Level or World2D
    """
    source = getattr(level, "source", None)
    if source is not None and Path(source).suffix.lower() == ".mesh":
        return MeshNavigator.read(source)
    world = getattr(level, "world", level)
    grids = world.geometry("grid")
    if len(grids["ids"]) == 1:
        return GridNavigator(grids["blocked"][0], grids["cell_size"][0], grids["origin"][0])
    return None
