"""``World3D``: obstacles in space, and agents that move among them without passing through.

The 3D half of sidestep, the panel article's world: planar panels, triangle
meshes, boxes, spheres and upright cylinders. It mirrors :mod:`sidestep.world`
(``World2D``): the class checks arguments (a clear ``ValueError``/``TypeError``
naming the argument), stores obstacles as packed arrays
(:mod:`sidestep.storage3d`), calls one kernel per query
(:mod:`sidestep.kernels3d`) and wraps the answer in the same small records
(:mod:`sidestep.results`).
"""
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import layers, poses, tolerances, validation
from ._types import (Axis, Family3D, FloatArray, Geometry3D, Ids, IntArray, Mode, Numbers, Point3,
                     Points3, Sides, Stop, StrPath, Table)
from .degenerate import surface_kinds
from .kernels3d import cast as _cast
from .kernels3d import moves as _moves
from .kernels3d import world as _kw
from .kernels3d.polygon import first_crossing_panel, newell_normal_polygon, planarity_polygon
from .obstacle_ids import ObstacleIds
from .results import CastHit, Contact, Move, Nearest, RayHits
from .storage3d import FAMILIES, Store3D
from .threads import run_rows

if TYPE_CHECKING:
    from .volumes.query import Query
    from .volumes.shapes import Volume

MODES: tuple[Mode, ...] = ("slide", "push", "block", "ghost")
SIDES: tuple[Sides, ...] = ("both", "front")
_MODE_CODES: dict[str, int] = {"slide": _moves.MODE_SLIDE, "push": _moves.MODE_PUSH,
               "block": _moves.MODE_BLOCK, "ghost": _moves.MODE_GHOST}
_STOPS: dict[int, Stop] = {
    _moves.STOP_DONE: "done", _moves.STOP_SLID: "slid", _moves.STOP_BLOCKED: "blocked",
    _moves.STOP_MAX_ITERATIONS: "max_iterations", _moves.STOP_STUCK: "stuck",
    _moves.STOP_PUSHED: "pushed"}
_UPS = {"x": 0, "y": 1, "z": 2}


#: From this many rays on, a batch is cast in the order of its origins' cells
#: (:func:`~sidestep.kernels3d.world.ray_order`), so that a ray finds the
#: hierarchy's nodes in the cache; a few rays gain nothing from it.
RAY_ORDER_ROWS = 4096


class World3D(ObstacleIds):
    """Obstacles in space: panels, triangle meshes, boxes, spheres, upright cylinders,
    voxel tables and heightfields.

    Parameters
    ----------
    up : {"y", "z", "x"}
        The up axis (``"y"`` as in glTF and the articles' x-z ground plane;
        ``"z"`` for Panda3D or Blender data). Only upright cylinders and
        capsule agents read it; the geometry itself has no preferred axis.
    skin : float
        Gap (world units) that ``slide`` keeps between agent and obstacles;
        see :data:`sidestep.tolerances.SKIN`.
    max_iterations : int
        Collide-and-slide passes per move.

    Examples
    --------
    A floor panel and a wall panel, and a camera sliding along the wall:

    >>> import sidestep
    >>> world = sidestep.World3D()
    >>> floor = world.add_panels([[(-5, 0, -5), (-5, 0, 5), (5, 0, 5), (5, 0, -5)]])
    >>> wall = world.add_panels([[(0, 0, -5), (0, 3, -5), (0, 3, 5), (0, 0, 5)]])
    >>> move = world.move((-1.0, 1.0, 0.0), (2.0, 0.0, 1.0), radius=0.25)
    >>> move.stop, bool(world.clearance(move.position) >= 0.25 - 1e-9)
    ('slid', True)
    """

    _FAMILIES = FAMILIES
    _LABELS = {"voxels": "voxel table"}     # family names as counted in repr
    _store: Store3D

    def __init__(self, *, up: Axis = "y", skin: float = tolerances.SKIN,
                 max_iterations: int = tolerances.MAX_ITERATIONS) -> None:
        self._up = _UPS[validation.choice(up, "up", tuple(_UPS))]
        self._skin = validation.length(skin, "skin", allow_zero=False)
        if isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer)) \
                or max_iterations < 1:
            raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
        self._max_iterations = int(max_iterations)
        self._store = Store3D()

    # ============================================================ obstacles
    def add_panels(self, polygons: Sequence[Points3] | NDArray[Any],
                   sides: Sides = "both", layer: Numbers = 0) -> IntArray:
        """Add planar panels: the panel article's polygons, convex or concave.

        Parameters
        ----------
        polygons : sequence of (k, 3) float64, or (n, k, 3) float64
            Each panel's corners in order, k >= 3; a last corner equal to the
            first is dropped. A panel must be planar (every corner within
            :data:`~sidestep.tolerances.PANEL_FLATNESS` times its size of its
            plane), simple (its outline does not cross itself) and of non-zero
            area; edges must have non-zero length.
        sides : {"both", "front"}
            ``"front"``: only the face from which the corners run
            counter-clockwise blocks (the article's back-face culling, glTF's
            winding); an agent or ray coming from behind passes through, and an
            agent whose core crosses the panel (one that came round its edge
            from behind) is not inside it.
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        side = SIDES.index(validation.choice(sides, "sides", SIDES))
        if isinstance(polygons, np.ndarray) and polygons.ndim == 3:
            polygons = list(polygons)
        if isinstance(polygons, (str, bytes)) or not hasattr(polygons, "__len__"):
            raise TypeError(f"polygons must be a sequence of (k, 3) corner arrays, got "
                            f"{type(polygons).__name__}")
        checked = [_panel(p, f"polygons[{i}]") for i, p in enumerate(polygons)]
        lay = layers.layers(layer, len(checked))
        if not checked:
            return np.zeros(0, dtype=np.int64)
        return self._layered(self._store.add_panels([v for v, _ in checked],
                                                    np.array([n for _, n in checked]), side),
                             lay)

    def add_mesh(self, vertices: Points3, triangles: ArrayLike, sides: Sides = "both",
                 layer: int = 0) -> int:
        """Add a triangle mesh as one obstacle (level geometry); hits name the triangle as ``part``.

        Parameters
        ----------
        vertices : (n, 3) float64
        triangles : (m, 3) int
            Corner indices into ``vertices``; every triangle must have non-zero
            area (drop degenerate ones first: the level readers do and report
            them).
        sides : {"both", "front"}
            As for :meth:`add_panels`: ``"front"`` blocks only on the side from
            which a triangle's corners run counter-clockwise.
        layer : int, 0..31
            Its layer (see :mod:`sidestep.layers`).

        Returns
        -------
        id : int

        Notes
        -----
        An agent sliding over the shared edge of two coplanar (or gently
        curved) triangles never bumps on it: such edges are marked inactive
        and contacts on them take the face's normal.
        """
        side = SIDES.index(validation.choice(sides, "sides", SIDES))
        v, t = validation.mesh(vertices, triangles)
        lay = layers.layers(layer, 1)
        if len(t) == 0:
            raise ValueError("triangles must hold at least one triangle, got none")
        zero_area, _ = surface_kinds(v, t)
        if np.any(zero_area):
            i = int(np.argmax(zero_area))
            raise ValueError(f"triangles[{i}] = {t[i].tolist()} has zero area; drop degenerate "
                             "triangles first (sidestep.degenerate.drop_degenerate)")
        return int(self._layered(np.array([self._store.add_mesh(v, t, side)]), lay)[0])

    def add_boxes(self, mins: Points3, maxs: Points3, layer: Numbers = 0) -> IntArray:
        """Add solid axis-aligned boxes ``[mins, maxs]``.

        Parameters
        ----------
        mins, maxs : (n, 3) float64, with ``mins < maxs`` on every axis
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        lo, _ = validation.points(mins, "mins", dim=3)
        hi, _ = validation.points(maxs, "maxs", dim=3)
        if lo.shape != hi.shape:
            raise ValueError(f"mins and maxs must have the same shape, got {lo.shape} "
                             f"and {hi.shape}")
        bad = np.any(lo >= hi, axis=1)
        if np.any(bad):
            i = int(np.argmax(bad))
            raise ValueError(f"box {i} must have mins < maxs on every axis, got mins={lo[i]} "
                             f"maxs={hi[i]}")
        lay = layers.layers(layer, len(lo))
        return self._layered(self._store.add_boxes(lo, hi), lay)

    def add_spheres(self, centers: Points3, radii: Numbers, layer: Numbers = 0) -> IntArray:
        """Add solid spheres (radius 0 is a point).

        Parameters
        ----------
        centers : (n, 3) float64
        radii : float or (n,) float64, >= 0
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        c, _ = validation.points(centers, "centers", dim=3)
        r = validation.lengths(radii, "radii", len(c))
        lay = layers.layers(layer, len(c))
        return self._layered(self._store.add_spheres(c, r), lay)

    def add_cylinders(self, bases: Points3, radii: Numbers, heights: Numbers,
                      layer: Numbers = 0) -> IntArray:
        """Add solid upright cylinders with flat caps: the radial article's trees on terrain.

        Parameters
        ----------
        bases : (n, 3) float64
            Centre of each bottom cap.
        radii, heights : float or (n,) float64, > 0
            The cylinder stands along the world's ``up`` axis from its base.
        layer : int or (n,) int, 0..31
            The layer of each (see :mod:`sidestep.layers`); queries whose
            ``mask`` leaves it out pass through it.

        Returns
        -------
        ids : (n,) int64
        """
        b, _ = validation.points(bases, "bases", dim=3)
        r = validation.lengths(radii, "radii", len(b), allow_zero=False)
        h = validation.lengths(heights, "heights", len(b), allow_zero=False)
        lay = layers.layers(layer, len(b))
        return self._layered(self._store.add_cylinders(b, r, h, self._up), lay)

    def add_voxels(self, blocked: Table, cell_size: float = 1.0,
                   origin: Point3 = (0.0, 0.0, 0.0), layer: int = 0) -> int:
        """Add a voxel look-up table (the panel article's 3D table) as one solid obstacle.

        Parameters
        ----------
        blocked : (nx, ny, nz) array of bool (or 0/1)
            Cell ``(i, j, k)`` covers ``origin + [i, i+1] x [j, j+1] x [k, k+1]``
            times ``cell_size`` (i along x, j along y, k along z, whatever
            ``up`` is). Outside the table is free.
        cell_size : float > 0
        origin : (3,) float64
        layer : int, 0..31
            Its layer (see :mod:`sidestep.layers`).

        Returns
        -------
        id : int

        Notes
        -----
        The blocked cells are stored as few solid boxes, merged greedily
        (runs along x, then rows along y, then slabs along z; see
        :mod:`sidestep.kernels3d.voxels`), so a table of a million cells
        costs as many primitives as it has blocks, and the box kernels do the
        math. Contacts and hits report ``part`` -1 (find the cell from the
        point: ``floor((point - origin) / cell_size)``, stepping back along
        the normal). Inside the blocks the separation is negative: minus the
        depth inside the merged box that holds the point, which is never more
        than the true depth in the whole block (and 0 on a face shared by two
        boxes).
        """
        table = _table(blocked, "blocked", 3)
        s = validation.length(cell_size, "cell_size", allow_zero=False)
        o = validation.point(origin, "origin", dim=3)
        lay = layers.layers(layer, 1)
        return int(self._layered(np.array([self._store.add_voxels(table, s, o)]), lay)[0])

    def add_heightfield(self, heights: ArrayLike, cell_size: float = 1.0,
                        origin: Point3 = (0.0, 0.0, 0.0), layer: int = 0) -> int:
        """Add terrain: a grid of heights along ``up``, as one obstacle, solid below.

        Parameters
        ----------
        heights : (rows, cols) float64, rows and cols >= 2, finite
            Sample ``(r, c)`` is the point with ``origin + heights[r, c]`` along
            ``up`` and, on the two other axes: for ``up="y"``, ``x = ox + c*s``,
            ``z = oz + r*s``; for ``up="z"``, ``x = ox + c*s``, ``y = oy + r*s``;
            for ``up="x"``, ``y = oy + c*s``, ``z = oz + r*s`` (columns along
            the first other axis, rows along the second).
        cell_size : float > 0
            ``s``: the spacing of the samples.
        origin : (3,) float64
        layer : int, 0..31
            Its layer (see :mod:`sidestep.layers`).

        Returns
        -------
        id : int

        Notes
        -----
        Stored as a triangle mesh, two triangles per cell, split along the
        diagonal from sample ``(r, c)`` to ``(r+1, c+1)``; ``part`` is the
        triangle: triangle ``t`` lies in cell ``(r, c) = divmod(t // 2, cols
        - 1)``, ``t % 2 == 0`` the half on the side of sample ``(r, c+1)``.
        As for :meth:`add_mesh`, an agent sliding over the terrain's internal
        edges (flat or gently curved) never bumps on them.

        **Solid below**: a point (or the lower end of a capsule's core) under
        the surface and above the floor, ``min(heights) - max(width,
        max(heights) - min(heights))`` (relative to the origin; ``width = (max(rows,
        cols) - 1) * cell_size``: as deep as the terrain is wide), has negative
        clearance: minus its depth under the plane of the triangle above it,
        with the normal pointing up, so a move that starts there recovers
        upwards. The triangles themselves are front-only (they face up): rays
        and sweeps meet the terrain from above; a ray that starts under it is
        not stopped (unlike a box, which a ray from inside hits at 0).
        Outside the grid's footprint and under the floor nothing is solid, and
        the sides are open: an agent coming from outside the footprint under
        the surface is not stopped at the border (its next move recovers it
        upwards); give terrain a margin beyond where agents go, or wall it.
        """
        h = validation.as_float_array(heights, "heights")
        if h.ndim != 2 or h.shape[0] < 2 or h.shape[1] < 2:
            raise ValueError(f"heights must have shape (rows, cols) with rows, cols >= 2, "
                             f"got shape {h.shape}")
        if not np.all(np.isfinite(h)):
            r, c = np.argwhere(~np.isfinite(h))[0]
            raise ValueError(f"heights must be finite; heights[{r}, {c}] is {h[r, c]}")
        s = validation.length(cell_size, "cell_size", allow_zero=False)
        o = validation.point(origin, "origin", dim=3)
        lay = layers.layers(layer, 1)
        return int(self._layered(
            np.array([self._store.add_heightfield(np.ascontiguousarray(h), s, o, self._up)]),
            lay)[0])

    def save(self, path: StrPath, *, spawns: Points3 | None = None, name: str = "") -> Path:
        """Write this world as a sidestep scene file (JSON, ``"dimensions": 3``).

        ``sidestep.load(path).world`` gives the same obstacles back, ids
        included (renumbered 0..n-1, in the same order, if some were
        removed); see :mod:`sidestep.io.scene3d`. ``spawns``: ``(n, 3)``.
        """
        from .io import save      # here, not at the top: the core never imports I/O
        return save(self, path, spawns=spawns, name=name)

    def translate(self, ids: Ids, offset: Point3) -> None:
        """Move obstacles by ``offset`` (kinematic obstacles: doors, lifts, platforms).

        Parameters
        ----------
        ids : int or (n,) int
        offset : (3,) float64
            The same offset for every id. Agents are not moved: a platform that
            moves into an agent leaves it overlapping, and the agent's next
            ``slide`` recovers to a free spot.
        """
        arr = self._known(ids)
        o = validation.point(offset, "offset", dim=3)
        self._store.bodies.refuse_members(arr, "translate")
        self._store.translate(np.unique(arr), o)

    # =============================================================== bodies
    def add_body(self, ids: Ids) -> int:
        """Make obstacles one rigid body that :meth:`set_pose` moves and turns.

        Parameters
        ----------
        ids : int or (n,) int
            Obstacles already added, of any family, in no other body. Their
            coordinates now are the body's own frame: its pose is position
            ``(0, 0, 0)``, no turn.

        Returns
        -------
        body : int
            The body's id: 0, 1, ... in the order made.

        Notes
        -----
        Panels, mesh triangles and spheres are written in world coordinates
        at each pose. Boxes and cylinders (a voxel table's inside too) keep
        their axis-aligned parameters in the body's frame, and every query
        reads them in it (the query turned into the frame, the answer turned
        back): a box in a turned body is an oriented box, a cylinder a
        tilted one. A body holding a heightfield turns only about the
        heightfield's up axis (its ground is solid below along that axis).
        The hierarchy is refitted above the body's primitives at each pose;
        see :data:`sidestep.storage3d.BODY_DRIFT` for when it is rebuilt.
        :meth:`translate` refuses a body's obstacles (move the body), and
        :meth:`geometry` gives a body's boxes, cylinders, voxels and
        heightfields in the body's frame.

        Examples
        --------
        >>> import sidestep
        >>> world = sidestep.World3D()
        >>> door = world.add_body(world.add_boxes([(0, 0, 0)], [(1, 0.1, 2)]))
        >>> world.set_pose(door, position=(0, 0, 0), rotation=(0.5**0.5, 0, 0, 0.5**0.5))
        >>> hit = world.raycast((-0.05, 3.0, 1.0), (0, -1, 0))   # a quarter turn about z
        >>> round(float(hit.distance), 9)
        2.0
        >>> world.raycast((0.5, 3.0, 1.0), (0, -1, 0)).hit        # where it stood: a miss
        False
        """
        return self._store.make_body(self._known(ids))

    def set_pose(self, body: int, position: Point3 = (0.0, 0.0, 0.0),
                 rotation: ArrayLike | None = None, dt: float = 1.0) -> None:
        """Put ``body`` at ``position``, turned by ``rotation``.

        A point ``x`` of the body's frame goes to ``R x + position``.
        ``rotation`` is a unit quaternion ``(w, x, y, z)`` or a ``(3, 3)``
        rotation matrix (None: no turn); ``dt`` (seconds since its last
        pose, > 0) only scales :meth:`velocity`. Costs in proportion to the
        body's obstacles (:meth:`add_body`); on an error nothing changes.
        """
        b = self._store.bodies.known(body, "body")
        R = None if rotation is None else poses.rotation(rotation)[None]
        self._set_poses(b, position, R, dt)

    def set_poses(self, bodies: Ids, positions: Points3,
                  rotations: ArrayLike | None = None, dt: float = 1.0) -> None:
        """:meth:`set_pose` for many bodies at once, in one pass over their parts.

        Parameters
        ----------
        bodies : (k,) int
            Distinct bodies.
        positions : (k, 3) float64
        rotations : (k, 4) or (k, 3, 3) float64, optional
            Unit quaternions ``(w, x, y, z)`` or rotation matrices; None: no turn.
        dt : float > 0
            Seconds since their last poses (scales :meth:`velocity` only).

        Either every pose is set or, on an error, none.
        """
        b = self._store.bodies.known(bodies, "bodies")
        R = poses.rotations(rotations, len(b))
        self._set_poses(b, positions, R, dt)

    def _set_poses(self, bodies: IntArray, positions: Points3, rotations: FloatArray | None,
                   dt: float) -> None:
        b, p = self._store.bodies.checked(bodies, positions)
        R = np.broadcast_to(np.eye(3), (len(b), 3, 3)).copy() if rotations is None \
            else rotations
        step = validation.length(dt, "dt", allow_zero=False)
        self._store.pose_bodies(b, p, np.ascontiguousarray(R), step)

    def pose(self, body: int) -> tuple[FloatArray, FloatArray]:
        """``(position (3,), quaternion (4,))`` of ``body``, as its last :meth:`set_pose`
        left it; the quaternion is ``(w, x, y, z)`` with ``w >= 0``."""
        b = int(self._store.bodies.known(body, "body")[0])
        bodies = self._store.bodies
        return bodies.position[b].copy(), poses.quaternion(bodies.rotation[b])

    def velocity(self, body: int) -> tuple[FloatArray, FloatArray]:
        """``(linear (3,), angular (3,))`` velocity over ``body``'s last :meth:`set_pose`.

        Units per second, and the turn's axis times its rate in radians per
        second, over the ``dt`` given to it; zeros before the first.
        """
        b = int(self._store.bodies.known(body, "body")[0])
        return self._store.bodies.velocity(b)

    def translated(self, ids: Ids) -> FloatArray:
        """How far each obstacle was moved by :meth:`translate` since it was added.

        Parameters
        ----------
        ids : int or (n,) int

        Returns
        -------
        (3,) or (n, 3) float64
            The sum of the offsets each obstacle was translated by (zeros for
            one never moved).
        """
        single = np.ndim(ids) == 0
        arr = self._known(ids)
        out = np.zeros((len(arr), 3))
        for k, i in enumerate(arr):
            out[k] = self._store.offsets.get(int(i), 0.0)
        return out[0] if single else out

    @property
    def up(self) -> Axis:
        """The up axis: ``"x"``, ``"y"`` or ``"z"``."""
        return cast(Axis, "xyz"[self._up])

    @property
    def skin(self) -> float:
        """Gap (world units) ``slide`` keeps between agents and obstacles."""
        return self._skin

    @property
    def max_iterations(self) -> int:
        """Collide-and-slide passes per move."""
        return self._max_iterations

    def geometry(self, family: Family3D) -> Geometry3D:
        """The live obstacles of one family, as arrays (for drawing and saving).

        Returns a dict with ``ids`` and: panels ``vertices`` (list of
        ``(k, 3)``) and ``sides``; meshes ``vertices`` and ``triangles`` (lists)
        and ``sides``; boxes ``mins``, ``maxs (n, 3)``; spheres ``centers (n, 3)``,
        ``radii (n,)``; cylinders ``bases (n, 3)``, ``radii``, ``heights (n,)``;
        voxels ``blocked`` (list of ``(nx, ny, nz)`` bool), ``cell_size (n,)``,
        ``origin (n, 3)``; heightfields ``heights`` (list of ``(rows, cols)``),
        ``cell_size (n,)``, ``origin (n, 3)``.
        """
        validation.choice(family, "family", FAMILIES)
        return self._store.geometry(family)

    @property
    def bounds(self) -> tuple[FloatArray, FloatArray] | None:
        """``(min (3,), max (3,))`` of all live obstacle surfaces, or None if empty."""
        return self._store.bounds()

    # ================================================================ moves
    def _tolerances(self) -> tuple[float, float, float, float]:
        # (skin, contact margin, plane slack, minimum motion), all scaled with the skin.
        k = self._skin / tolerances.SKIN
        return (self._skin, tolerances.CONTACT_MARGIN * k, tolerances.PLANE_SLACK * k,
                tolerances.MIN_MOTION * k)

    def _packed(self, mask: int = layers.ALL) -> Any:
        """The packed world as a query with ``mask`` (checked here) sees it."""
        return self._store.pack(mask if mask == layers.ALL and type(mask) is int
                                else layers.mask(mask))

    def _agent(self, radius: float, height: float) -> tuple[float, float]:
        """The agent's radius and its core's half length along ``up`` (0 for a sphere)."""
        r = validation.length(radius, "radius")
        h = validation.length(height, "height")
        if h > 2.0 * r:
            return r, 0.5 * h - r
        return r, 0.0

    def move(self, position: Point3, displacement: Point3, radius: float = 0.0,
             height: float = 0.0, mode: Mode = "slide", mask: int = layers.ALL) -> Move:
        """Move an agent by ``displacement``: a sphere, or an upright capsule.

        Parameters
        ----------
        position, displacement : (3,) float64
            ``position`` is the agent's centre.
        radius : float >= 0
            0 is the panel article's point camera.
        height : float >= 0
            Above ``2 * radius``, the agent is an upright capsule this tall in
            all, centred on ``position``; otherwise a sphere.
        mode : {"slide", "push", "block", "ghost"}
            As :meth:`World2D.move`: ``slide`` (default) is continuous
            collide-and-slide, never tunnels and ends with the agent at least
            ``radius - 1e-9`` from every surface (the capsule's axis segment,
            for a capsule); a move that starts overlapping first recovers to a
            free spot.
        mask : int
            The layers seen (bit k for layer k; default all: :mod:`sidestep.layers`).

        Returns
        -------
        Move
            ``position (3,)``; each contact names the triangle of a mesh (or
            the face of a box...) as ``part``.
        """
        p = validation.point(position, "position", dim=3)
        d = validation.point(displacement, "displacement", dim=3)
        r, half = self._agent(radius, height)
        code = _MODE_CODES[validation.choice(mode, "mode", MODES)]
        world = self._packed(mask)
        contacts = np.zeros((_moves.MAX_CONTACTS, _moves.CONTACT_FIELDS))
        wf, wi = _kw.scratch()
        x, y, z, stop, n, recovered = _moves.move_agent(
            world, p[0], p[1], p[2], d[0], d[1], d[2], r, half, self._up, code,
            *self._tolerances(), self._max_iterations, wf, wi, contacts)
        found = tuple(Contact(int(c[0]), c[2:5].copy(), c[5:8].copy(), float(c[8]), int(c[1]))
                      for c in contacts[:n])
        return Move(np.array((x, y, z)), n > 0 or recovered, found, _STOPS[int(stop)],
                    bool(recovered))

    def move_many(self, positions: Points3, displacements: Points3, radius: Numbers = 0.0,
                  height: float = 0.0, mode: Mode = "slide",
                  mask: int = layers.ALL) -> FloatArray:
        """Move many agents at once, in parallel; each exactly as :meth:`move` would.

        Agents do not collide with each other. Parameters as :meth:`move`, with
        ``positions``, ``displacements (n, 3)``, ``radius`` a number or
        ``(n,)`` and ``height`` a number. One agent given as ``(3,)`` arrays
        gets a ``(3,)`` answer.

        Returns
        -------
        positions : (n, 3) float64, or (3,) for one agent
        """
        p, single = validation.points(positions, "positions", dim=3)
        d, single_d = validation.points(displacements, "displacements", dim=3)
        if p.shape != d.shape or single != single_d:
            raise ValueError(f"positions and displacements must have the same shape, got "
                             f"{np.shape(positions)} and {np.shape(displacements)}")
        r = validation.lengths(radius, "radius", len(p))
        h = validation.length(height, "height")
        half = np.where(h > 2.0 * r, 0.5 * h - r, 0.0)
        code = _MODE_CODES[validation.choice(mode, "mode", MODES)]
        out = np.empty_like(p)
        run_rows(_moves.move_agents, len(p), self._packed(mask), p, d, r, half, self._up, code,
                 *self._tolerances(), self._max_iterations, out)
        return out[0] if single else out

    # ================================================================ casts
    def cast(self, position: Point3, displacement: Point3, radius: float = 0.0,
             height: float = 0.0, mask: int = layers.ALL) -> CastHit:
        """First contact of a sphere or upright capsule moved straight by ``displacement``.

        No slide: the shape goes from ``position`` along ``displacement`` and
        stops where it first meets an obstacle. A third-person camera's spring
        arm (cast from the pivot to where the camera wants to be, and put the
        camera at the fraction), a dash, a thick bullet.

        Parameters
        ----------
        position, displacement : (3,) float64
            ``position`` is the shape's centre; ``displacement`` may be zero
            (then only the start is tested).
        radius : float >= 0
            0 casts a point: a ray that stops on surfaces as the sphere does.
        height : float >= 0
            As :meth:`move`: above ``2 * radius``, an upright capsule this
            tall in all, centred on ``position``; otherwise a sphere.
        mask : int
            The layers seen (:mod:`sidestep.layers`); all by default.

        Returns
        -------
        CastHit
            ``hit`` (bool), ``fraction`` (float in [0, 1]), ``obstacle`` and
            ``part`` (int; ``part`` the triangle of a mesh or heightfield, -1
            otherwise), ``point (3,)`` the touched surface point and
            ``normal (3,)`` from the obstacle towards the shape. A miss is
            ``hit`` False, fraction 1.0, obstacle and part -1, point NaN and
            normal 0. A shape that starts touching or overlapping an obstacle
            hits it at fraction 0.0, whatever the direction, with the
            deepest overlap's nearest surface point and the normal out of it.

        Notes
        -----
        **Exact to the skin, never late.** The contact is found exactly
        (closed-form sweeps against each primitive the shape's swept box
        meets in the hierarchy), then the shape stops a quarter of
        :attr:`skin` before it along the displacement
        (:data:`~sidestep.kernels.cast.BACK_OFF`; 0 if it started nearer):
        at ``position + fraction * displacement`` it overlaps nothing (its
        clearance is at least ``radius``, to rounding), it stands off the
        surface by at most a quarter skin, and the exact contact is at most
        ``skin / (4 |displacement|)`` further on. A cast or a move from where
        it stopped does not start overlapping.

        Examples
        --------
        A ball of radius 0.5 thrown along x at a box whose face is at x = 4
        (it stops a quarter skin short of touching at x = 3.5); the same ball
        thrown away from it; and one starting inside it:

        >>> import sidestep
        >>> world = sidestep.World3D()
        >>> box = world.add_boxes([(4, -1, -1)], [(6, 1, 1)])
        >>> hit = world.cast((0, 0, 0), (10, 0, 0), radius=0.5)
        >>> hit.hit, round(hit.fraction * 10, 8), hit.obstacle, hit.normal.tolist()
        (True, 3.49999975, 0, [-1.0, 0.0, 0.0])
        >>> world.cast((0, 0, 0), (-10, 0, 0), radius=0.5).fraction
        1.0
        >>> world.cast((4.2, 0, 0), (-10, 0, 0), radius=0.5).fraction
        0.0
        """
        p = validation.point(position, "position", dim=3)
        d = validation.point(displacement, "displacement", dim=3)
        r, half = self._agent(radius, height)
        out = self._cast(p.reshape(1, 3), d.reshape(1, 3), np.array([r]), np.array([half]),
                         mask)
        f, owner, part, point, normal = out
        return CastHit(bool(owner[0] >= 0), float(f[0]), int(owner[0]), point[0], normal[0],
                       int(part[0]))

    def cast_many(self, positions: Points3, displacements: Points3, radius: Numbers = 0.0,
                  height: Numbers = 0.0, mask: int = layers.ALL) -> CastHit:
        """Many casts at once, on all cores; each row equal to :meth:`cast` bit for bit.

        Parameters as :meth:`cast`, with ``positions, displacements (n, 3)``
        and ``radius``, ``height`` a number or ``(n,)``. One cast given as
        ``(3,)`` arrays gets :meth:`cast`'s scalar answer.

        Returns
        -------
        CastHit
            ``hit (n,) bool``, ``fraction (n,) float64``, ``obstacle``,
            ``part (n,) int64``, ``point``, ``normal (n, 3) float64``.
        """
        p, single = validation.points(positions, "positions", dim=3)
        d, single_d = validation.points(displacements, "displacements", dim=3)
        if p.shape != d.shape or single != single_d:
            raise ValueError(f"positions and displacements must have the same shape, got "
                             f"{np.shape(positions)} and {np.shape(displacements)}")
        r = validation.lengths(radius, "radius", len(p))
        h = validation.lengths(height, "height", len(p))
        half = np.where(h > 2.0 * r, 0.5 * h - r, 0.0)
        f, owner, part, point, normal = self._cast(p, d, r, half, mask)
        if single:
            return CastHit(bool(owner[0] >= 0), float(f[0]), int(owner[0]), point[0],
                           normal[0], int(part[0]))
        return CastHit(owner >= 0, f, owner, point, normal, part)

    def _cast(self, p: FloatArray, d: FloatArray, r: FloatArray, half: FloatArray,
              mask: int) -> tuple[FloatArray, IntArray, IntArray, FloatArray, FloatArray]:
        # The one driver of cast and cast_many: the rows on all cores.
        packed = self._packed(mask)
        n = len(p)
        p = np.ascontiguousarray(p)
        # A big batch is cast in the order of its starts' cells, as raycast's rays.
        order = _kw.ray_order(p) if n >= RAY_ORDER_ROWS else np.arange(n)
        out = (np.empty(n), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
               np.empty((n, 3)), np.empty((n, 3)))
        run_rows(_cast.cast_rows, n, packed, p, np.ascontiguousarray(d),
                 np.ascontiguousarray(r), np.ascontiguousarray(half), order, self._up,
                 self._skin, *out)
        return out

    # ============================================================== queries
    def nearest(self, points: Points3, mask: int = layers.ALL) -> Nearest:
        """Nearest obstacle surface to each point, however far.

        Parameters
        ----------
        points : (n, 3) float64, or one point (3,)
        mask : int
            The layers seen (bit k for layer k; default all: :mod:`sidestep.layers`).

        Returns
        -------
        Nearest
            ``obstacle``, ``part`` (the triangle of a mesh, -1 otherwise),
            signed ``distance`` (negative inside a solid), ``point`` and
            ``normal`` (out of the surface). In an empty world, obstacle -1,
            distance inf, point and normal NaN. One point ``(3,)`` gets its
            answer alone.
        """
        p, single = validation.points(points, "points", dim=3)
        n = len(p)
        owner = np.empty(n, dtype=np.int64)
        part = np.empty(n, dtype=np.int64)
        sep = np.empty(n)
        normal = np.empty((n, 3))
        surface = np.empty((n, 3))
        run_rows(_kw.nearest_points, n, self._packed(mask), p, owner, part, sep, normal,
                 surface)
        none = owner < 0
        normal[none] = np.nan
        surface[none] = np.nan
        if single:
            return Nearest(int(owner[0]), float(sep[0]), surface[0], normal[0], int(part[0]))
        return Nearest(owner, sep, surface, normal, part)

    @overload
    def clearance(self, points: tuple[float, float, float], mask: int = ...) -> float: ...

    @overload
    def clearance(self, points: Sequence[Sequence[float]], mask: int = ...) -> FloatArray: ...

    @overload
    def clearance(self, points: Points3, mask: int = ...) -> float | FloatArray: ...

    def clearance(self, points: Points3, mask: int = layers.ALL) -> float | FloatArray:
        """Signed distance from each point to the nearest obstacle surface.

        Negative inside a solid (box, sphere, cylinder); panels and meshes are
        thin surfaces. ``inf`` in an empty world.

        Parameters
        ----------
        points : (n, 3) float64, or one point (3,)
        mask : int
            The layers seen (bit k for layer k; default all: :mod:`sidestep.layers`).

        Returns
        -------
        (n,) float64, or a float for one point
        """
        p, single = validation.points(points, "points", dim=3)
        d = cast(FloatArray, self.nearest(p, mask).distance)      # (n,) for the (n, 3) rows
        return float(d[0]) if single else d

    def raycast(self, origins: Points3, directions: Points3, max_distance: Numbers = np.inf,
                sides: Sides = "both", mask: int = layers.ALL) -> RayHits:
        """First obstacle surface along each ray (the panel article's line of sight).

        Parameters
        ----------
        origins, directions : (n, 3) float64 (or (3,) each for one ray)
            Directions need not be unit length but must not be zero.
        max_distance : float or (n,) float64, >= 0 (inf allowed)
        sides : {"both", "front"}
            ``"front"`` culls back faces of every panel and mesh, as the
            article does (a panel declared ``sides="front"`` is always culled
            from behind). Hits behind the origin never count.
        mask : int
            The layers seen (bit k for layer k; default all: :mod:`sidestep.layers`).

        Returns
        -------
        RayHits
            ``hit``, ``distance``, ``normal`` (towards the ray's side),
            ``obstacle``, ``point``, ``part``. A ray that starts inside a solid
            hits it at distance 0.
        """
        o, single = validation.points(origins, "origins", dim=3)
        d, single_d = validation.points(directions, "directions", dim=3)
        if o.shape != d.shape or single != single_d:
            raise ValueError(f"origins and directions must have the same shape, got "
                             f"{np.shape(origins)} and {np.shape(directions)}")
        md = validation.as_float_array(max_distance, "max_distance")
        if md.ndim == 0:
            md = md.reshape(1)           # one number for every ray
        elif md.shape != (len(o),):
            raise ValueError(f"max_distance must be a number or have shape ({len(o)},), "
                             f"got shape {md.shape}")
        if np.any(np.isnan(md)) or np.any(md < 0):
            raise ValueError("max_distance must be non-negative (inf allowed), not NaN")
        md = np.ascontiguousarray(md, dtype=float)
        cull = SIDES.index(validation.choice(sides, "sides", SIDES))
        n = len(o)
        # Cast in the order of the origins' cells (a ray reading its row from all
        # over a big batch would wait on memory), a block of unit copies at a
        # time; the answers are put back in the callers' order.
        order = _kw.ray_order(o) if n >= RAY_ORDER_ROWS else np.arange(n)
        zero = np.full(1, -1, dtype=np.int64)
        out = (np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n),
               np.empty((n, 3)), np.empty((n, 3)))
        packed = self._packed(mask)
        cast = (_kw.raycast_points_triangles if packed.flags[_kw.F_TRIANGLES]
                else _kw.raycast_points)
        run_rows(cast, n, packed, o, d, md, order, cull, zero, *out)
        if zero[0] >= 0:
            i = int(np.flatnonzero(~np.any(d != 0.0, axis=1))[0])
            raise ValueError(f"directions must be non-zero; directions[{i}] is (0, 0, 0)")
        owner, part, dist, normal, point = out
        if single:
            return RayHits(bool(owner[0] >= 0), float(dist[0]), normal[0], int(owner[0]),
                           point[0], int(part[0]))
        return RayHits(owner >= 0, dist, normal, owner, point, part)

    def query(self, volume: "Volume", mask: int = layers.ALL) -> "Query":
        """The obstacles a bounding volume touches, and each one's state.

        Returns a :class:`~sidestep.volumes.query.Query` (``obstacle`` ids,
        ``state`` int8 :class:`~sidestep.volumes.Containment` values); see
        :func:`sidestep.volumes.query.query_3d` for which families are exact.
        """
        from .volumes.query import query_3d
        return query_3d(self, volume, layers.mask(mask))

    def overlapping(self, center: Point3, radius: float = 0.0, height: float = 0.0,
                    mask: int = layers.ALL) -> IntArray:
        """Ids of the obstacles a sphere (or upright capsule) at ``center`` touches (sorted),
        among those on the layers of ``mask`` (default all)."""
        c = validation.point(center, "center", dim=3)
        r, half = self._agent(radius, height)
        found = _kw.overlapping_owners(self._packed(mask), c[0], c[1], c[2], r, half, self._up)
        return np.unique(found)


def _table(value: object, name: str, ndim: int) -> NDArray[np.bool_]:
    """A non-empty ``ndim``-dimensional look-up table of bool (or 0/1 numbers), as bool."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be an array of bool or 0/1, got {type(value).__name__}")
    table = np.asarray(value)
    if table.ndim != ndim or table.size == 0:
        raise ValueError(f"{name} must be a non-empty {ndim}D array, got shape {table.shape}")
    if table.dtype != bool:
        if not np.issubdtype(table.dtype, np.number):
            raise TypeError(f"{name} must be bool or 0/1 numbers, got dtype {table.dtype}")
        if not np.all((table == 0) | (table == 1)):
            raise ValueError(f"{name} must hold only 0/1 (or bool) values")
        table = table != 0
    return np.ascontiguousarray(table)


def _panel(value: object, name: str) -> tuple[FloatArray, tuple[float, float, float]]:
    """One panel's corners, checked: ``(k, 3)`` float64, planar, simple, no zero edge."""
    v, _ = validation.points(value, name, allow_single=False, dim=3)
    if len(v) > 3 and np.array_equal(v[0], v[-1]):
        v = v[:-1]
    if len(v) < 3:
        raise ValueError(f"{name} must hold at least 3 corners, got {len(v)}")
    nxt = np.roll(v, -1, axis=0)
    zero = np.all(v == nxt, axis=1)
    if np.any(zero):
        i = int(np.argmax(zero))
        raise ValueError(f"{name}: corners {i} and {(i + 1) % len(v)} are equal; a panel "
                         "edge must have non-zero length")
    v = np.ascontiguousarray(v)
    loop = np.arange(len(v), dtype=np.int64)
    nx, ny, nz, area = newell_normal_polygon(v, loop, 0, len(v))
    if area == 0.0:
        raise ValueError(f"{name} must enclose a non-zero area (its corners are in a line)")
    size = float(np.max(np.ptp(v, axis=0)))
    off = planarity_polygon(v, loop, 0, len(v))
    limit = tolerances.PANEL_FLATNESS * max(1.0, size)
    if off > limit:
        raise ValueError(f"{name} is not planar: a corner lies {off:.3g} from the panel's "
                         f"plane (at most {limit:.3g} allowed)")
    i, j = first_crossing_panel(v, loop, 0, len(v), nx, ny, nz)
    if i >= 0:
        raise ValueError(f"{name} must be a simple polygon: edge {i} crosses edge {j}")
    return v, (nx, ny, nz)
