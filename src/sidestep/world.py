"""``World2D``: obstacles on a plane, and agents that move among them without passing through.

The class is the thin layer of the design: it checks arguments (a clear
``ValueError``/``TypeError`` naming the argument), stores obstacles as packed
arrays, calls one kernel per query and wraps the answer in a small record.
"""
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast, overload

import numpy as np

from . import layers, tolerances, validation
from ._types import (Family2D, FloatArray, Flags, Geometry2D, Ids, IntArray, Mode, Numbers,
                     Point2, Points2, Stop, StrPath, Table)
from .threads import run_rows
from .kernels.row_queue import row_queue
from .kernels import moves as _moves
from .kernels.polygon import first_crossing_polygon, signed_area_polygon
from .kernels.grid import boundary_edges_grid
from .obstacle_ids import ObstacleIds
from .kernels.world import (AREA_BOX, AREA_GRID, AREA_POLYGON, nearest_points,
                            overlapping_owners, raycast_points)
from .kernels.cast import cast_points
from .layers import ALL, mask as _mask
from .results import CastHit, Contact, Move, Nearest, RayHits, contacts_from_rows, move_record
from .storage import FAMILIES, Store
from .tolerances import MAX_COORDINATE

if TYPE_CHECKING:
    from .level import Scenarios
    from .volumes.query import Query
    from .volumes.shapes import Volume

MODES: tuple[Mode, ...] = ("slide", "push", "block", "ghost")
_MODE_CODES: dict[str, int] = {"slide": _moves.MODE_SLIDE, "push": _moves.MODE_PUSH,
               "block": _moves.MODE_BLOCK, "ghost": _moves.MODE_GHOST}
_STOPS: dict[int, Stop] = {
    _moves.STOP_DONE: "done", _moves.STOP_SLID: "slid", _moves.STOP_BLOCKED: "blocked",
    _moves.STOP_MAX_ITERATIONS: "max_iterations", _moves.STOP_STUCK: "stuck",
    _moves.STOP_PUSHED: "pushed", _moves.STOP_SQUEEZED: "squeezed"}


_ARRAY = np.ndarray
_FLOAT64 = np.dtype(np.float64)

#: Where a single move's radius and mode code go in its work buffer.
_W_RADIUS = _moves.W_PARAMS
_W_MODE = _moves.W_PARAMS + 1


def contacts_from(work: FloatArray, n: int) -> tuple[Contact, ...]:
    """The first ``n`` contact rows of a move's work buffer, as :class:`Contact` records."""
    if n == 0:
        return ()
    rows = work[_moves.W_CONTACTS:_moves.W_PARAMS].reshape(-1, _moves.CONTACT_FIELDS)
    return contacts_from_rows(rows[:n])


class World2D(ObstacleIds):
    """Obstacles on a plane: circles, walls, boxes, polygons and look-up-table grids.

    Parameters
    ----------
    skin : float
        Gap (world units) that ``slide`` keeps between agent and obstacles;
        see :data:`sidestep.tolerances.SKIN`.
    max_iterations : int
        Collide-and-slide passes per move.

    Examples
    --------
    The radial article's three trees, and a wall 0.5 thick:

    >>> import sidestep
    >>> world = sidestep.World2D()
    >>> world.add_circles([(0, 1), (1, 0), (-1, 0)], 1.0).tolist()
    [0, 1, 2]
    >>> int(world.add_walls([(-5, -3)], [(5, -3)], clearance=0.5)[0])
    3
    >>> round(float(world.clearance((0.0, -2.0))), 3)     # a hit: 0.5 from the wall's surface
    0.5
    >>> world.move((0.0, -2.0), (0.0, -3.0), radius=0.2).stop   # walks head-on into the wall
    'blocked'
    >>> world.move((0.0, -2.0), (3.0, -3.0), radius=0.2).stop   # and at an angle: slides along
    'slid'
    >>> world.move((4.0, 4.0), (1.0, 0.0)).stop                 # a miss: nothing in the way
    'done'
    >>> world.move((4.0, 4.0), (0.0, 0.0)).stop                 # degenerate: no displacement
    'done'
    """

    _FAMILIES = FAMILIES
    _store: Store

    def __init__(self, *, skin: float = tolerances.SKIN,
                 max_iterations: int = tolerances.MAX_ITERATIONS) -> None:
        self._skin = validation.length(skin, "skin", allow_zero=False)
        if isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer)) \
                or max_iterations < 1:
            raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
        self._max_iterations = int(max_iterations)
        self._store = Store()
        # Work buffer for single moves (batch calls make one per thread). The
        # settings that never change (tolerances, passes) are written once;
        # a move writes its radius and mode.
        self._work = np.zeros(_moves.WORK_SIZE)
        self._work[_moves.W_PARAMS + 2:_moves.W_OUT] = (*self._tolerances(),
                                                        self._max_iterations)
        # Views of its outcome and of its first k contact rows (k = 0..MAX_CONTACTS),
        # made once: slicing a 2D array costs more than copying it.
        self._out = self._work[_moves.W_OUT:_moves.W_OUT + 3]
        self._end = self._work[_moves.W_OUT + _moves.O_X:_moves.W_OUT + _moves.O_Y + 1]
        rows = self._work[_moves.W_CONTACTS:_moves.W_PARAMS].reshape(-1, _moves.CONTACT_FIELDS)
        self._rows = [rows[:k] for k in range(len(rows) + 1)]

    # ============================================================ obstacles
    def add_circles(self, centers: Points2, radii: Numbers, layer: Numbers = 0) -> IntArray:
        """Add circles (trees, poles): the radial article's bounding cylinders.

        Parameters
        ----------
        centers : (n, 2) float64
        radii : float or (n,) float64, >= 0 (0 is a point post)
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        c, _ = validation.points(centers, "centers")
        r = validation.lengths(radii, "radii", len(c))
        lay = layers.layers(layer, len(c))
        items = np.column_stack([c, c, r])
        return self._store.add("circle", 1, items, layer=lay)

    def add_walls(self, starts: Points2, ends: Points2, clearance: Numbers = 0.0,
                  one_sided: Flags = False, layer: Numbers = 0) -> IntArray:
        """Add walls: segments the agent keeps ``clearance`` away from (the wall article).

        Parameters
        ----------
        starts, ends : (n, 2) float64
            End points; a wall must have non-zero length (use a circle for a post).
        clearance : float or (n,) float64, >= 0
            The wall article's collision distance: the wall's surface lies this
            far from its segment.
        one_sided : bool or (n,) bool
            A one-sided wall is the edge of the level: the walkable side is on
            its left, looking from its start to its end (counter-clockwise
            round the walkable area, in x-right, y-up terms). No agent crosses
            it either way, but behind it counts as inside an obstacle (negative
            clearance), so an agent that starts overlapping it recovers to the
            walkable side. One-sided walls that meet end to start form a
            boundary; where it turns left, the wedge behind both is void too.
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        a, _ = validation.points(starts, "starts")
        b, _ = validation.points(ends, "ends")
        if a.shape != b.shape:
            raise ValueError(f"starts and ends must have the same shape, got {a.shape} "
                             f"and {b.shape}")
        c = validation.lengths(clearance, "clearance", len(a))
        sides = validation.flags(one_sided, "one_sided", len(a))
        lay = layers.layers(layer, len(a))
        zero = np.all(a == b, axis=1)
        if np.any(zero):
            i = int(np.argmax(zero))
            raise ValueError(f"wall {i} has zero length (starts[{i}] == ends[{i}]); "
                             "use add_circles for a post")
        return self._store.add("wall", 1, np.column_stack([a, b, c, sides]), layer=lay)

    def add_boxes(self, mins: Points2, maxs: Points2, layer: Numbers = 0) -> IntArray:
        """Add axis-aligned solid boxes ``[mins, maxs]``.

        Parameters
        ----------
        mins, maxs : (n, 2) float64, with ``mins < maxs`` on both axes
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        lo, _ = validation.points(mins, "mins")
        hi, _ = validation.points(maxs, "maxs")
        if lo.shape != hi.shape:
            raise ValueError(f"mins and maxs must have the same shape, got {lo.shape} "
                             f"and {hi.shape}")
        bad = np.any(lo >= hi, axis=1)
        if np.any(bad):
            i = int(np.argmax(bad))
            raise ValueError(f"box {i} must have mins < maxs on both axes, got mins={lo[i]} "
                             f"maxs={hi[i]}")
        lay = layers.layers(layer, len(lo))
        x0, y0, x1, y1 = lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]
        corners = np.stack([np.column_stack([x0, y0]), np.column_stack([x1, y0]),
                            np.column_stack([x1, y1]), np.column_stack([x0, y1])], axis=1)
        items = _outline_items(corners.reshape(-1, 2), len(lo), 4)
        n = len(lo)
        area = (np.full(n, AREA_BOX), np.column_stack([lo, hi]), np.zeros((n, 2), np.int64))
        return self._store.add("box", 4, items, area, layer=lay)

    def add_polygon(self, vertices: Points2, layer: int = 0) -> int:
        """Add one solid simple polygon, convex or concave (an object's outline).

        Parameters
        ----------
        vertices : (k, 2) float64
            k >= 3 corners in either winding; a last vertex equal to the first is
            dropped. Edges must not cross or touch except neighbours at their
            shared corner, and no edge may have zero length.
        layer : int, 0..31
            Its layer (see :mod:`sidestep.layers`).

        Returns
        -------
        id : int
        """
        v, _ = validation.points(vertices, "vertices", allow_single=False)
        lay = layers.layer(layer)
        if len(v) > 3 and np.array_equal(v[0], v[-1]):
            v = v[:-1]
        if len(v) < 3:
            raise ValueError(f"vertices must hold at least 3 corners, got {len(v)}")
        nxt = np.roll(v, -1, axis=0)
        zero = np.all(v == nxt, axis=1)
        if np.any(zero):
            i = int(np.argmax(zero))
            raise ValueError(f"vertices {i} and {(i + 1) % len(v)} are equal: "
                             "a polygon edge must have non-zero length")
        i, j = first_crossing_polygon(v)
        if i >= 0:
            raise ValueError(f"vertices must describe a simple polygon: edge {i} "
                             f"({v[i]} -> {v[(i + 1) % len(v)]}) crosses edge {j} "
                             f"({v[j]} -> {v[(j + 1) % len(v)]})")
        if signed_area_polygon(v) == 0.0:
            raise ValueError("vertices must enclose a non-zero area")
        first, count = self._store.add_polygon_vertices(v)
        items = _outline_items(v, 1, len(v))
        area = (np.array([AREA_POLYGON]),
                np.array([[v[:, 0].min(), v[:, 1].min(), v[:, 0].max(), v[:, 1].max()]]),
                np.array([[first, count]], dtype=np.int64))
        return int(self._store.add("polygon", len(v), items, area, layer=lay)[0])

    def add_grid(self, blocked: Table, cell_size: float = 1.0,
                 origin: Point2 = (0.0, 0.0), layer: int = 0) -> int:
        """Add a look-up-table grid (a tile map): one obstacle made of its blocked cells.

        Parameters
        ----------
        blocked : (rows, cols) array of bool (or 0/1)
            Cell ``(r, c)`` covers ``x in [ox + c*s, ox + (c+1)*s]``,
            ``y in [oy + r*s, oy + (r+1)*s]``. Outside the table is free.
        cell_size : float > 0
        origin : (2,) float64
        layer : int, 0..31
            Its layer (see :mod:`sidestep.layers`).

        Returns
        -------
        id : int
        """
        table = np.asarray(blocked)
        if table.ndim != 2 or table.size == 0:
            raise ValueError(f"blocked must be a non-empty 2D array, got shape {table.shape}")
        if table.dtype != bool:
            if not np.issubdtype(table.dtype, np.number):
                raise TypeError(f"blocked must be bool or 0/1 numbers, got dtype {table.dtype}")
            if not np.all((table == 0) | (table == 1)):
                raise ValueError("blocked must hold only 0/1 (or bool) values")
            table = table != 0
        s = validation.length(cell_size, "cell_size", allow_zero=False)
        o = validation.point(origin, "origin")
        lay = layers.layer(layer)
        edges = boundary_edges_grid(table, s, float(o[0]), float(o[1]))
        rows, cols = table.shape
        grid = self._store.add_grid_table(table, s, o)
        items = np.column_stack([edges, np.zeros(len(edges))])
        area = (np.array([AREA_GRID]),
                np.array([[o[0], o[1], o[0] + cols * s, o[1] + rows * s]]),
                np.array([[grid, 0]], dtype=np.int64))
        # A grid owns all its outline segments; it has none if nothing is blocked.
        return int(self._store.add("grid", len(edges), items, area, count=1, layer=lay)[0])

    # =============================================================== bodies
    def add_body(self, ids: Ids) -> int:
        """Make obstacles one rigid body that :meth:`set_pose` moves and turns.

        Parameters
        ----------
        ids : int or (n,) int
            Obstacles already added (any family but one-sided walls, the
            level's edge), in no other body. Their coordinates now are the
            body's own frame: its pose is position ``(0, 0)``, angle 0.

        Returns
        -------
        body : int
            The body's id: 0, 1, ... in the order made.

        Notes
        -----
        The bodies' obstacles are kept in a broadphase grid of their own,
        rewritten after poses change (at the next query, in proportion to
        the bodies' obstacles); the grid of everything else is never rebuilt
        for them. A body's box becomes the polygon of its corners.
        """
        arr = self._known(ids)
        return self._store.make_body(arr)

    def set_pose(self, body: int, position: Point2, angle: float = 0.0,
                 dt: float = 1.0) -> None:
        """Put ``body`` at ``position``, turned by ``angle`` (radians, counter-clockwise).

        A point ``x`` of the body's frame goes to ``R(angle) x + position``.
        ``dt`` (seconds since its last pose, > 0) only scales
        :meth:`velocity`. Costs in proportion to the body's obstacles.
        """
        self.set_poses([body], position, [angle], dt)

    def set_poses(self, bodies: Ids, positions: Points2, angles: Numbers = 0.0,
                  dt: float = 1.0) -> None:
        """:meth:`set_pose` for many bodies at once: ``bodies (k,)``, ``positions (k, 2)``,
        ``angles`` a number or ``(k,)``. Either every pose is set or, on an error, none."""
        b, p = self._store.bodies.checked(bodies, positions)
        a = validation.as_float_array(angles, "angles")
        a = np.broadcast_to(a, (len(b),)) if a.ndim == 0 else a
        if a.shape != (len(b),) or not np.all(np.isfinite(a)):
            raise ValueError(f"angles must be one finite number or {len(b)} of them")
        step = validation.length(dt, "dt", allow_zero=False)
        self._store.pose_bodies(b, p, np.ascontiguousarray(a, dtype=np.float64), step)

    def pose(self, body: int) -> tuple[FloatArray, float]:
        """``(position (2,), angle)`` of ``body``, as its last :meth:`set_pose` left it."""
        b = int(self._store.bodies.known(body)[0])
        parts = self._store._parts.pose[b]
        return parts[2:4].copy(), float(np.arctan2(parts[1], parts[0]))

    def velocity(self, body: int) -> tuple[FloatArray, float]:
        """``(linear (2,), angular)`` velocity over ``body``'s last :meth:`set_pose`.

        Units per second and radians per second (counter-clockwise positive)
        of the ``dt`` given to it; zeros before the first.
        """
        b = int(self._store.bodies.known(body)[0])
        linear, angular = self._store.bodies.velocity(b)
        return linear, float(angular[0])

    def save(self, path: StrPath, *, spawns: Points2 | None = None,
             scenarios: "Scenarios | None" = None, name: str = "") -> Path:
        """Write this world as a sidestep scene file (JSON); see :func:`sidestep.io.save`.

        ``sidestep.load(path).world`` gives the same obstacles back, ids
        included (renumbered 0..n-1, in the same order, if some were removed).
        """
        from .io import save      # here, not at the top: the core never imports I/O
        return save(self, path, spawns=spawns, scenarios=scenarios, name=name)

    @property
    def skin(self) -> float:
        """Gap (world units) ``slide`` keeps between agents and obstacles."""
        return self._skin

    @property
    def max_iterations(self) -> int:
        """Collide-and-slide passes per move."""
        return self._max_iterations

    def geometry(self, family: Family2D) -> Geometry2D:
        """The live obstacles of one family, as arrays (for drawing and saving).

        Returns a dict: ``ids``; circles: ``centers (n, 2)``, ``radii (n,)``;
        walls: ``starts``, ``ends (n, 2)``, ``clearance (n,)``, ``one_sided (n,)
        bool``; boxes: ``mins``,
        ``maxs (n, 2)``; polygons: ``vertices`` (list of ``(k, 2)``); grids:
        ``blocked`` (list of bool tables), ``cell_size (n,)``, ``origin (n, 2)``.
        """
        validation.choice(family, "family", FAMILIES)
        st = self._store
        code = FAMILIES.index(family)
        ids = np.flatnonzero((st.family.view() == code) & (st.alive.view() != 0))
        first = st.first_item.view()[ids]
        g = st.item_geometry.view()
        out: Geometry2D = {"ids": ids.astype(np.int64)}
        if family == "circle":
            out.update({"centers": g[first, 0:2].copy(), "radii": g[first, 4].copy()})
        elif family == "wall":
            out.update({"starts": g[first, 0:2].copy(), "ends": g[first, 2:4].copy(),
                        "clearance": g[first, 4].copy(), "one_sided": g[first, 5] != 0})
        elif family == "box":
            b = st.area_bounds.view()[st.area_of.view()[ids]]
            out.update({"mins": b[:, 0:2].copy(), "maxs": b[:, 2:4].copy()})
        elif family == "polygon":
            ref = st.area_ref.view()[st.area_of.view()[ids]]
            verts = st.polygon_vertices.view()
            out.update({"vertices": [verts[f:f + c].copy() for f, c in ref]})
        else:
            ref = st.area_ref.view()[st.area_of.view()[ids]]
            frame = st.grid_frame.view()
            out.update({"blocked": [st.grid_tables[r].astype(bool) for r, _ in ref],
                        "cell_size": frame[ref[:, 0], 0].copy(),
                        "origin": frame[ref[:, 0], 1:3].copy()})
        return out

    def segments(self) -> tuple[FloatArray, IntArray]:
        """Every live obstacle's collision capsules, for debug drawing.

        Returns ``(geometry (m, 5) [ax, ay, bx, by, thickness], owner (m,))``:
        circles as zero-length capsules, walls with their clearance, outlines
        of boxes, polygons and grids with thickness 0.
        """
        st = self._store
        owner = st.item_owner.view()
        keep = st.alive.view()[owner] != 0
        return st.item_geometry.view()[keep, :5].copy(), owner[keep].copy()

    @property
    def bounds(self) -> tuple[float, float, float, float] | None:
        """``(minx, miny, maxx, maxy)`` of all live obstacle surfaces, or None if empty."""
        geom, _ = self.segments()
        if not len(geom):
            return None
        t = geom[:, 4:5]
        lo = np.minimum(geom[:, 0:2], geom[:, 2:4]) - t
        hi = np.maximum(geom[:, 0:2], geom[:, 2:4]) + t
        return (float(lo[:, 0].min()), float(lo[:, 1].min()),
                float(hi[:, 0].max()), float(hi[:, 1].max()))

    # ================================================================ moves
    def _tolerances(self) -> tuple[float, float, float, float]:
        # (skin, contact margin, plane slack, minimum motion), all scaled with the skin.
        k = self._skin / tolerances.SKIN
        return (self._skin, tolerances.CONTACT_MARGIN * k, tolerances.PLANE_SLACK * k,
                tolerances.MIN_MOTION * k)

    def move(self, position: Point2, displacement: Point2, radius: float = 0.0,
             mode: Mode = "slide", mask: int = layers.ALL) -> Move:
        """Move an agent (a disc of ``radius``; 0 is a point camera) by ``displacement``.

        Parameters
        ----------
        position, displacement : (2,) float64
        radius : float >= 0
        mode : {"slide", "push", "block", "ghost"}
            ``slide`` (default): continuous collide-and-slide; never tunnels;
            ends with ``clearance(position) >= radius - 1e-9``; a move that
            starts overlapping first recovers to a free spot. ``push``: the
            radial article's push-out after the move (may tunnel). ``block``:
            the wall article's "stay put if the new position collides".
            ``ghost``: no collision.
        mask : int
            The layers it collides with (bit k for layer k; default all: see
            :mod:`sidestep.layers`); obstacles on other layers are not there for it.

        Returns
        -------
        Move
        """
        # The common case takes a fast path: a previous move's position (a (2,)
        # float64 array), a tuple of two floats, a float radius, a known mode.
        if type(position) is _ARRAY and position.dtype is _FLOAT64 and position.shape == (2,):
            px, py = position.tolist()
            if not (-MAX_COORDINATE <= px <= MAX_COORDINATE
                    and -MAX_COORDINATE <= py <= MAX_COORDINATE):    # NaN fails it too
                px, py = validation.xy(position, "position")
        else:
            px, py = validation.xy(position, "position")
        # (mypy folds Point2's tuple into ArrayLike when it compares types, but
        # still narrows displacement to tuple[float, float] below.)
        if (type(displacement) is tuple  # type: ignore[comparison-overlap]
                and len(displacement) == 2):
            dx, dy = displacement
            if not (type(dx) is float and type(dy) is float
                    and -MAX_COORDINATE <= dx <= MAX_COORDINATE
                    and -MAX_COORDINATE <= dy <= MAX_COORDINATE):
                dx, dy = validation.xy(displacement, "displacement")
        else:
            dx, dy = validation.xy(displacement, "displacement")
        if type(radius) is not float or not 0.0 <= radius <= MAX_COORDINATE:
            radius = validation.length(radius, "radius")
        code = _MODE_CODES.get(mode) if type(mode) is str else None
        if code is None:
            code = _MODE_CODES[validation.choice(mode, "mode", MODES)]
        if mask != layers.ALL or type(mask) is not int:
            mask = layers.mask(mask)
        work = self._work
        work[_W_RADIUS] = radius
        work[_W_MODE] = code
        store = self._store
        _moves.move_packed_direct()(store.pack(), store.live(mask), work, px, py, dx, dy)
        stop, n, recovered = self._out.tolist()
        # The contacts stay rows until read (see results.move_record).
        return move_record(self._end.copy(), n > 0.0 or recovered > 0.0,
                           self._rows[int(n)].copy() if n else (), _STOPS[stop],
                           recovered > 0.0)

    def move_many(self, positions: Points2, displacements: Points2, radius: Numbers = 0.0,
                  mode: Mode = "slide", mask: int = layers.ALL) -> FloatArray:
        """Move many agents at once, in parallel; each exactly as :meth:`move` would.

        Agents do not collide with each other. Parameters as :meth:`move`, with
        ``positions``, ``displacements (n, 2)`` and ``radius`` a number or ``(n,)``.
        Like every batch call, one agent given as ``(2,)`` arrays gets a ``(2,)``
        answer.

        Returns
        -------
        positions : (n, 2) float64, or (2,) for one agent
        """
        p, single = validation.points(positions, "positions")
        d, single_d = validation.points(displacements, "displacements")
        if p.shape != d.shape or single != single_d:
            raise ValueError(f"positions and displacements must have the same shape, got "
                             f"{np.shape(positions)} and {np.shape(displacements)}")
        r = validation.lengths(radius, "radius", len(p))
        code = _MODE_CODES[validation.choice(mode, "mode", MODES)]
        seen = self._store.live(layers.mask(mask))
        out = np.empty_like(p)
        blob = self._store.pack()
        run_rows(_moves.move_agents, len(p), blob, seen, p, d, r, code,
                 *self._tolerances(), self._max_iterations, out)
        return out[0] if single else out

    # ============================================================== queries
    def nearest(self, points: Points2, mask: int = layers.ALL) -> Nearest:
        """Nearest obstacle surface to each point, however far.

        Parameters
        ----------
        points : (n, 2) float64, or one point (2,)
        mask : int
            The layers seen (default all; :mod:`sidestep.layers`).

        Returns
        -------
        Nearest
            ``distance`` is signed (negative inside an obstacle); in an empty
            world, obstacle -1, distance inf, point and normal NaN. For one
            point ``(2,)``, each field holds that point's answer alone (an
            int, a float, ``(2,)`` arrays), as :meth:`clearance` gives a float.
        """
        p, single = validation.points(points, "points")
        seen = self._store.live(layers.mask(mask))
        n = len(p)
        owner = np.empty(n, dtype=np.int64)
        sep = np.empty(n)
        normal = np.empty((n, 2))
        surface = np.empty((n, 2))
        run_rows(nearest_points, n, self._store.pack(), seen, p, owner, sep, normal, surface)
        none = owner < 0
        normal[none] = np.nan
        surface[none] = np.nan
        if single:
            return Nearest(int(owner[0]), float(sep[0]), surface[0], normal[0])
        return Nearest(owner, sep, surface, normal)

    @overload
    def clearance(self, points: tuple[float, float], mask: int = ...) -> float: ...

    @overload
    def clearance(self, points: Sequence[Sequence[float]], mask: int = ...) -> FloatArray: ...

    @overload
    def clearance(self, points: Points2, mask: int = ...) -> float | FloatArray: ...

    def clearance(self, points: Points2, mask: int = layers.ALL) -> float | FloatArray:
        """Signed distance from each point to the nearest obstacle surface.

        A wall's surface lies ``clearance`` from its segment; negative inside
        an obstacle; ``inf`` in an empty world.

        Parameters
        ----------
        points : (n, 2) float64, or one point (2,)
        mask : int
            The layers seen (default all; :mod:`sidestep.layers`).

        Returns
        -------
        (n,) float64, or a float for one point
        """
        p, single = validation.points(points, "points")
        d = cast(FloatArray, self.nearest(p, mask).distance)      # (n,) for the (n, 2) rows
        return float(d[0]) if single else d

    def raycast(self, origins: Points2, directions: Points2,
                max_distance: Numbers = np.inf, mask: int = layers.ALL) -> RayHits:
        """First obstacle surface along each ray.

        Parameters
        ----------
        origins, directions : (n, 2) float64 (or (2,) each for one ray)
            Directions need not be unit length but must not be zero.
        max_distance : float or (n,) float64, >= 0 (inf allowed)
        mask : int
            The layers seen (default all; :mod:`sidestep.layers`).

        Returns
        -------
        RayHits
            A ray that starts inside (or on) an obstacle hits it at distance 0.
            For one ray given as ``(2,)`` arrays, each field holds that ray's
            answer alone (a bool, a float, ``(2,)`` arrays, an int).
        """
        o, single = validation.points(origins, "origins")
        d, single_d = validation.points(directions, "directions")
        if o.shape != d.shape or single != single_d:
            raise ValueError(f"origins and directions must have the same shape, got "
                             f"{np.shape(origins)} and {np.shape(directions)}")
        norm = np.hypot(d[:, 0], d[:, 1])
        if np.any(norm == 0.0):
            i = int(np.argmax(norm == 0.0))
            raise ValueError(f"directions must be non-zero; directions[{i}] is (0, 0)")
        unit = d / norm[:, None]
        md = validation.as_float_array(max_distance, "max_distance")
        if md.ndim == 0:
            md = np.full(len(o), float(md))
        if md.shape != (len(o),):
            raise ValueError(f"max_distance must be a number or have shape ({len(o)},), "
                             f"got shape {md.shape}")
        if np.any(np.isnan(md)) or np.any(md < 0):
            raise ValueError("max_distance must be non-negative (inf allowed), not NaN")
        n = len(o)
        owner = np.empty(n, dtype=np.int64)
        dist = np.empty(n)
        normal = np.empty((n, 2))
        point = np.empty((n, 2))
        seen = self._store.live(layers.mask(mask))
        run_rows(raycast_points, n, self._store.pack(), seen, o, unit, md, owner, dist, normal, point)
        if single:
            return RayHits(bool(owner[0] >= 0), float(dist[0]), normal[0], int(owner[0]),
                           point[0])
        return RayHits(owner >= 0, dist, normal, owner, point)

    def cast(self, position: Point2, displacement: Point2, radius: float = 0.0,
             height: float = 0.0, mask: int = ALL) -> CastHit:
        """First contact of a disc of ``radius`` swept from ``position`` by ``displacement``.

        No slide: the disc stops at its first contact (a third-person camera's
        spring arm, a dash, a thick bullet; radius 0 is a ray).

        Parameters
        ----------
        position, displacement : (2,) float64
            Start of the disc's centre and its motion (world units); the
            motion may be zero.
        radius : float >= 0
        height : float
            0 only: a disc has no height (the argument is there so 2D and 3D
            calls read alike; :meth:`World3D.cast` sweeps a capsule).
        mask : int
            The layers seen (:mod:`sidestep.layers`); every layer by default.

        Returns
        -------
        CastHit
            ``hit`` (bool), ``fraction`` (float in [0, 1]), ``obstacle``
            (int), ``point`` and ``normal`` ((2,) float64), ``part`` None.
            The disc at ``position + fraction * displacement`` overlaps
            nothing, and stands a quarter skin (:attr:`skin`) before the
            exact contact along the motion, so head-on at most that far
            from the surface (:data:`sidestep.kernels.cast.BACK_OFF`);
            ``point`` is the surface point at the exact contact. A miss:
            ``hit`` False, fraction 1.0, obstacle -1, point NaN, normal 0.
            A disc that starts touching or overlapping an obstacle: fraction
            0.0, the deepest such obstacle, its surface point nearest the
            centre and the way out of it.

        Examples
        --------
        >>> import sidestep
        >>> world = sidestep.World2D()
        >>> tree = int(world.add_circles([(5.0, 0.0)], 1.0)[0])
        >>> hit = world.cast((0.0, 0.0), (10.0, 0.0), radius=0.5)   # a hit: rims meet at x = 4
        >>> hit.hit, hit.obstacle, round(hit.fraction, 6), hit.point.tolist(), hit.normal.tolist()
        (True, 0, 0.35, [4.0, 0.0], [-1.0, 0.0])
        >>> world.cast((0.0, 3.0), (10.0, 0.0), radius=0.5).fraction      # a miss
        1.0
        >>> world.cast((5.0, 0.5), (0.0, 0.0), radius=0.5).fraction       # starts inside
        0.0
        """
        # The common case (floats or a (2,) float64 array, the default height
        # and mask) is checked without the general validators: a per-frame call.
        px, py = validation.xy(position, "position")
        dx, dy = validation.xy(displacement, "displacement")
        if type(radius) is not float or not 0.0 <= radius <= MAX_COORDINATE:
            radius = validation.length(radius, "radius")
        if type(height) not in (float, int) or height != 0.0:
            _flat(height)
        if type(mask) is not int or not 0 <= mask <= ALL:
            _mask(mask)
        # One row of the batch kernel, so the answer is cast_many's to the bit.
        owner = np.empty(1, dtype=np.int64)
        fraction = np.empty(1)
        normal = np.empty((1, 2))
        point = np.empty((1, 2))
        cast_points(self._store.pack(), self._store.live(mask), np.array([[px, py]]),
                    np.array([[dx, dy]]), np.array([radius]), self._skin, owner, fraction,
                    normal, point, row_queue(0, 1, 1))
        found = owner.item()
        return CastHit(found >= 0, fraction.item(), found, point[0], normal[0])

    def cast_many(self, positions: Points2, displacements: Points2, radius: Numbers = 0.0,
                  height: float = 0.0, mask: int = ALL) -> CastHit:
        """:meth:`cast` for many discs at once, on all cores; each row equal to :meth:`cast`.

        Parameters as :meth:`cast`, with ``positions``, ``displacements (n, 2)``
        and ``radius`` a number or ``(n,)``. Like every batch call, one disc
        given as ``(2,)`` arrays gets :meth:`cast`'s answer.

        Returns
        -------
        CastHit
            ``hit (n,) bool``, ``fraction (n,) float64``, ``obstacle (n,)
            int64``, ``point``, ``normal (n, 2) float64``.
        """
        p, single = validation.points(positions, "positions")
        d, single_d = validation.points(displacements, "displacements")
        if p.shape != d.shape or single != single_d:
            raise ValueError(f"positions and displacements must have the same shape, got "
                             f"{np.shape(positions)} and {np.shape(displacements)}")
        r = validation.lengths(radius, "radius", len(p))
        _flat(height)
        owner, fraction, normal, point = self._cast(p, d, r, _mask(mask))
        if single:
            return CastHit(bool(owner[0] >= 0), float(fraction[0]), int(owner[0]), point[0],
                           normal[0])
        return CastHit(owner >= 0, fraction, owner, point, normal)

    def _cast(self, p: FloatArray, d: FloatArray, r: FloatArray,
              mask: int) -> tuple[IntArray, FloatArray, FloatArray, FloatArray]:
        # The one kernel behind cast and cast_many: (owner, fraction, normal, point) rows.
        n = len(p)
        owner = np.empty(n, dtype=np.int64)
        fraction = np.empty(n)
        normal = np.empty((n, 2))
        point = np.empty((n, 2))
        run_rows(cast_points, n, self._store.pack(), self._store.live(mask), p, d, r, self._skin,
                 owner, fraction, normal, point)
        return owner, fraction, normal, point

    def query(self, volume: "Volume", mask: int = layers.ALL) -> "Query":
        """The obstacles a bounding volume touches, and each one's state.

        Returns a :class:`~sidestep.volumes.query.Query` (``obstacle`` ids,
        ``state`` int8 :class:`~sidestep.volumes.Containment` values); see
        :func:`sidestep.volumes.query.query_2d` for which families are exact.
        """
        from .volumes.query import query_2d
        return query_2d(self, volume, layers.mask(mask))

    def overlapping(self, point: Point2, radius: float = 0.0,
                    mask: int = layers.ALL) -> IntArray:
        """Ids of the obstacles a disc of ``radius`` at ``point`` touches or overlaps (sorted),
        among those on the layers of ``mask`` (default all)."""
        p = validation.point(point, "point")
        r = validation.length(radius, "radius")
        seen = self._store.live(layers.mask(mask))
        found = overlapping_owners(self._store.pack(), seen, p[0], p[1], r)
        return np.unique(found)


def _flat(height: object) -> None:
    """``height`` of a 2D cast checked: a number, and 0 (a disc has no height)."""
    h = validation.number(height, "height")
    if h != 0.0:
        raise ValueError(f"height must be 0 in 2D (a disc has no height; World3D.cast "
                         f"sweeps a capsule), got {h}")


def _outline_items(vertices: FloatArray, n: int, k: int) -> FloatArray:
    """Capsules (thickness 0) of the closed outlines of ``n`` polygons of ``k`` vertices each."""
    v = vertices.reshape(n, k, 2)
    nxt = np.roll(v, -1, axis=1)
    return np.concatenate([v, nxt, np.zeros((n, k, 1))], axis=2).reshape(n * k, 5)

