"""The packed obstacle arrays of a 3D world and their bounding volume hierarchy.

The 3D mirror of :mod:`sidestep.storage`. Every obstacle is a set of
**primitives** (one row each: kind, owner id, part, parameters; see
:mod:`sidestep.kernels3d.world`): a panel is one polygon, a mesh one triangle
per face, a box, sphere or cylinder one solid, a voxel table a few merged
boxes (:mod:`~sidestep.kernels3d.voxels`), a heightfield two triangles per
cell marked as ground (solid below). :meth:`Store3D.pack` hands the
kernels the primitives and a bounding volume hierarchy over their boxes,
rebuilt only after obstacles were added; removal clears an ``alive`` flag and
translation moves the primitives and refits the hierarchy.

Obstacles in rigid bodies (:meth:`Store3D.make_body`) keep their parts in
the body's frame (:class:`Parts3D`); a pose writes them into the world
(:func:`sidestep.kernels3d.poses.pose_bodies_3d`), into the stored arrays
and the packed copy alike, and refits the hierarchy above the body's
primitives, as translation does.
"""
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from . import tolerances
from ._types import BoolArray, FloatArray, Geometry3D, IntArray
from .bodies import Bodies
from .kernels3d import world as _kw
from .kernels3d.poses import drift, pose_bodies_3d, pose_packed
from .kernels3d.mesh import active_edges, face_normals
from .kernels3d.voxels import merge_cells, surface_squares
from .layers import ALL, Seen
from .storage import Growable

FAMILIES = ("panel", "mesh", "box", "sphere", "cylinder", "voxels", "heightfield")

#: Translations refit the packed hierarchy in place until they add up to this
#: many times the level's size; the next pack after that rebuilds it.
REBUILD_AFTER = 1.0
#: Poses refit the packed hierarchy in place while every body's centre stays
#: within this many times the level's size of where it stood when the
#: hierarchy was built; the next pack after one goes farther rebuilds it. A
#: refitted tree stays right, but the nodes above a body that travelled
#: stretch over its old place and its new one, and queries there open them
#: for nothing; a door swinging or a platform shuttling within a quarter of
#: the level never pays for a rebuild.
BODY_DRIFT = 0.25


class Parts3D:
    """The primitives and corners of a 3D world's bodies, in each body's own frame.

    Body ``b``'s rows of each array are ``*_first[b]:*_first[b + 1]``
    (:func:`sidestep.kernels3d.poses.pose_bodies_3d` reads them). Boxes and
    cylinders are not rewritten by a pose: they are read in their body's
    frame, four rows of the corner pool from ``frame_row[b]``.
    """

    def __init__(self) -> None:
        self.frame_row = np.zeros(0, dtype=np.int64)
        self.prim_first = np.zeros(1, dtype=np.int64)
        self.prim_row = np.zeros(0, dtype=np.int64)
        self.prim_kind = np.zeros(0, dtype=np.int64)
        self.prim_local = np.zeros((0, _kw.PARAMS))
        self.vertex_first = np.zeros(1, dtype=np.int64)
        self.vertex_row = np.zeros(0, dtype=np.int64)
        self.vertex_local = np.zeros((0, 3))
        #: ``(bodies, 3)``: the centre of each body's primitives' box, in its frame.
        self.centre = np.zeros((0, 3))
        #: ``(bodies, 3)`` bool: the up axes of the ground (heightfield) triangles it holds.
        self.ground = np.zeros((0, 3), dtype=bool)
        self.any_ground = False

    def add(self, frame_row: int, prims: IntArray, kinds: IntArray, params: FloatArray,
            rows: IntArray, vertices: FloatArray, boxes: FloatArray) -> None:
        """A new body: its frame's row, primitives (rows, kinds, parameter rows), corner
        rows and their coordinates, and its primitives' boxes ``(p, 6)``."""
        self.frame_row = np.append(self.frame_row, frame_row)
        self.prim_first = np.append(self.prim_first, self.prim_first[-1] + len(prims))
        self.prim_row = np.concatenate([self.prim_row, prims])
        self.prim_kind = np.concatenate([self.prim_kind, kinds])
        self.prim_local = np.concatenate([self.prim_local, params])
        self.vertex_first = np.append(self.vertex_first, self.vertex_first[-1] + len(rows))
        self.vertex_row = np.concatenate([self.vertex_row, rows])
        self.vertex_local = np.concatenate([self.vertex_local, vertices])
        centre = 0.5 * (boxes[:, 0:3].min(axis=0) + boxes[:, 3:6].max(axis=0)) if len(boxes) \
            else np.zeros(3)      # an empty voxel table or mesh: nothing to drift
        self.centre = np.concatenate([self.centre, centre[None]])
        ground = params[(kinds == _kw.PRIM_POLYGON) & (params[:, _kw.P_GROUND] != 0),
                        _kw.P_GROUND].astype(np.int64) - 1
        self.ground = np.concatenate([self.ground, np.isin(np.arange(3), ground)[None]])
        self.any_ground = bool(self.ground.any())

    def arrays(self) -> tuple[IntArray, IntArray, IntArray, IntArray, FloatArray, IntArray,
                              IntArray, FloatArray]:
        return (self.frame_row, self.prim_first, self.prim_row, self.prim_kind, self.prim_local,
                self.vertex_first, self.vertex_row, self.vertex_local)


class Store3D:
    """Primitive arrays (structure of arrays) with stable integer obstacle ids."""

    def __init__(self) -> None:
        self.kind = Growable((), np.int64)
        self.owner = Growable((), np.int64)
        self.part = Growable((), np.int64)
        self.params = Growable((_kw.PARAMS,))
        self.vertices = Growable((3,))          # corners of panels and mesh triangles
        self.loop = Growable((), np.int64)      # corner indices, read from each polygon's first
        self.vertex_range = Growable((2,), np.int64)   # per obstacle: its corners (first, count)
        self.alive = Growable((), np.uint8)
        self.layer = Growable((), np.uint8)      # per obstacle id, 0..31
        self._seen = Seen()
        self._masked: dict[int, tuple[Any, Any, Any]] = {}   # mask -> (packed, live, view)
        self.family = Growable((), np.int8)
        self.first_prim = Growable((), np.int64)
        self.prim_count = Growable((), np.int64)
        self.meshes: dict[int, tuple[IntArray, int]] = {}   # id -> (triangles (m, 3), side)
        # id -> (table, cell size, origin (3,)) of voxels (blocked) and heightfields (heights)
        self.grids: dict[int, tuple[NDArray[Any], float, FloatArray]] = {}
        self.offsets: dict[int, FloatArray] = {}   # id -> (3,) total translation, once moved
        self._packed: Any = None                # a Packed3D (kernels3d.world), or None
        self._boxes: FloatArray | None = None   # the packed primitives' boxes (m, 6)
        self._row_of: IntArray | None = None    # each primitive's row in leaf order
        self._moved = 0.0                       # how far obstacles moved since the build
        self._size = 0.0                        # the level's size at the build
        self._removed = False
        self.bodies = Bodies(3)
        self._parts = Parts3D()
        self._built_centre = np.zeros((0, 3))   # each body's centre when the tree was built
        #: Counts the changes to the obstacles (adds, removals, moves): a crowd keeps its
        #: agents at rest only while it stays the same.
        self.version = 0

    # ------------------------------------------------------------------ adding
    def _add(self, family: str, kinds: IntArray, params: FloatArray,
             per_obstacle: IntArray | list[int],
             parts: IntArray | None = None, vertex_range: IntArray | None = None,
             layer: NDArray[np.uint8] | int = 0) -> IntArray:
        """Append obstacles of one family, ``per_obstacle`` primitives each; returns ids."""
        n = len(per_obstacle)
        self.vertex_range.extend(vertex_range if vertex_range is not None
                                 else np.zeros((n, 2), np.int64))
        first_id = self.alive.size
        ids = np.arange(first_id, first_id + n, dtype=np.int64)
        counts = np.asarray(per_obstacle, dtype=np.int64)
        first = self.kind.size + np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        self.kind.extend(kinds)
        self.owner.extend(np.repeat(ids, counts))
        self.part.extend(parts if parts is not None else np.full(len(kinds), -1, np.int64))
        self.params.extend(params)
        self.alive.extend(np.ones(n, dtype=np.uint8))
        self.layer.extend(np.broadcast_to(np.asarray(layer, dtype=np.uint8), (n,)))
        self.family.extend(np.full(n, FAMILIES.index(family), dtype=np.int8))
        self.first_prim.extend(first)
        self.prim_count.extend(counts)
        self._packed = None
        self.version += 1
        return ids

    def add_panels(self, polygons: list[FloatArray], normals: FloatArray, side: int) -> IntArray:
        """Store checked panels (list of ``(k, 3)``) with their unit normals ``(n, 3)``."""
        rows = np.zeros((len(polygons), _kw.PARAMS))
        ranges = np.zeros((len(polygons), 2), np.int64)
        for i, v in enumerate(polygons):
            ranges[i] = (self.vertices.size, len(v))
            rows[i, _kw.P_FIRST] = self.loop.size
            rows[i, _kw.P_COUNT] = len(v)
            self.loop.extend(self.vertices.size + np.arange(len(v), dtype=np.int64))
            self.vertices.extend(v)
        rows[:, _kw.P_NX:_kw.P_NZ + 1] = normals
        rows[:, _kw.P_EDGES] = -1
        rows[:, _kw.P_FRONT] = side
        kinds = np.full(len(polygons), _kw.PRIM_POLYGON, dtype=np.int64)
        return self._add("panel", kinds, rows, np.ones(len(polygons), np.int64),
                         vertex_range=ranges)

    def _mesh_rows(self, vertices: FloatArray, triangles: IntArray, side: int,
                   ground: tuple[int, float] | None = None) -> tuple[FloatArray, int]:
        """Polygon rows of a mesh's triangles (active-edge flags, ``ground`` = ``(up axis,
        floor)`` or None); stores the corners; returns ``(rows, first corner)``."""
        m = len(triangles)
        normals, _ = face_normals(vertices, triangles)
        # Corners at the same coordinates are one corner for the edges
        # (exporters and readers such as trimesh keep a corner per texture
        # coordinate or normal): a floor's seams are inactive however its
        # corners are indexed.
        welded, same = np.unique(vertices, axis=0, return_inverse=True)
        flags = active_edges(welded, same.reshape(-1)[triangles], tolerances.SMOOTH_EDGE_ANGLE)
        rows = np.zeros((m, _kw.PARAMS))
        rows[:, _kw.P_FIRST] = self.loop.size + 3 * np.arange(m)
        rows[:, _kw.P_COUNT] = 3
        rows[:, _kw.P_NX:_kw.P_NZ + 1] = normals
        rows[:, _kw.P_EDGES] = flags
        rows[:, _kw.P_FRONT] = side
        if ground is not None:
            rows[:, _kw.P_GROUND] = ground[0] + 1
            rows[:, _kw.P_FLOOR] = ground[1]
        first = self.vertices.size
        self.loop.extend((triangles + first).reshape(-1))
        self.vertices.extend(vertices)
        return rows, first

    def add_mesh(self, vertices: FloatArray, triangles: IntArray, side: int, family: str = "mesh",
                 ground: tuple[int, float] | None = None) -> np.int64:
        """Store a mesh: one 3-corner polygon per triangle, with its active-edge flags.

        ``ground``: ``(up axis, floor)`` for a heightfield's triangles (solid
        below down to ``floor``), or None.
        """
        m = len(triangles)
        rows, first = self._mesh_rows(vertices, triangles, side, ground)
        kinds = np.full(m, _kw.PRIM_POLYGON, dtype=np.int64)
        ids = self._add(family, kinds, rows, [m], np.arange(m, dtype=np.int64),
                        vertex_range=np.array([[first, len(vertices)]], np.int64))
        self.meshes[int(ids[0])] = (triangles.copy(), side)
        oid: np.int64 = ids[0]
        return oid

    def add_boxes(self, lo: FloatArray, hi: FloatArray) -> IntArray:
        rows = np.zeros((len(lo), _kw.PARAMS))
        rows[:, 0:3] = lo
        rows[:, 3:6] = hi
        kinds = np.full(len(lo), _kw.PRIM_BOX, dtype=np.int64)
        return self._add("box", kinds, rows, np.ones(len(lo), np.int64))

    def add_voxels(self, blocked: BoolArray, cell_size: float, origin: FloatArray) -> int:
        """Store a voxel table (``(nx, ny, nz)`` bool) as one obstacle: its surface as
        front-only triangles, its inside as merged interior boxes."""
        table = blocked.view(np.uint8)
        squares = surface_squares(table)
        lattice, corners = np.unique(squares.reshape(-1, 3), axis=0, return_inverse=True)
        quads = corners.reshape(-1, 4).astype(np.int64)
        triangles = np.empty((2 * len(quads), 3), dtype=np.int64)
        triangles[0::2] = quads[:, [0, 1, 2]]
        triangles[1::2] = quads[:, [0, 2, 3]]
        vertices = origin + lattice * cell_size
        tri_rows, first = self._mesh_rows(vertices, triangles, 1)
        cells = merge_cells(table)
        box_rows = np.zeros((len(cells), _kw.PARAMS))
        box_rows[:, 0:3] = origin + cells[:, 0:3] * cell_size
        box_rows[:, 3:6] = origin + cells[:, 3:6] * cell_size
        box_rows[:, _kw.B_INTERIOR] = 1
        kinds = np.concatenate([np.full(len(triangles), _kw.PRIM_POLYGON, dtype=np.int64),
                                np.full(len(cells), _kw.PRIM_BOX, dtype=np.int64)])
        oid = int(self._add("voxels", kinds, np.concatenate([tri_rows, box_rows]), [len(kinds)],
                            vertex_range=np.array([[first, len(vertices)]], np.int64))[0])
        self.grids[oid] = (blocked.copy(), cell_size, origin.copy())
        return oid

    def add_heightfield(self, heights: FloatArray, cell_size: float, origin: FloatArray,
                        up: int) -> int:
        """Store a heightfield (``(rows, cols)`` heights along axis ``up``) as ground triangles."""
        vertices, triangles = heightfield_mesh(heights, cell_size, origin, up)
        # As deep as the terrain is wide (or high): a point under the surface is
        # never nearer the floor than the surface or the sides, so recovery goes up.
        width = (max(heights.shape) - 1) * cell_size
        floor = origin[up] + heights.min() - max(width, float(np.ptp(heights)))
        oid = int(self.add_mesh(vertices, triangles, 1, "heightfield", (up, floor)))
        self.grids[oid] = (heights.copy(), cell_size, origin.copy())
        return oid

    def add_spheres(self, centers: FloatArray, radii: FloatArray) -> IntArray:
        rows = np.zeros((len(centers), _kw.PARAMS))
        rows[:, 0:3] = centers
        rows[:, 3] = radii
        kinds = np.full(len(centers), _kw.PRIM_SPHERE, dtype=np.int64)
        return self._add("sphere", kinds, rows, np.ones(len(centers), np.int64))

    def add_cylinders(self, bases: FloatArray, radii: FloatArray, heights: FloatArray,
                      axis: int) -> IntArray:
        rows = np.zeros((len(bases), _kw.PARAMS))
        rows[:, 0:3] = bases
        rows[:, 3] = axis
        rows[:, 4] = radii
        rows[:, 5] = heights
        kinds = np.full(len(bases), _kw.PRIM_CYLINDER, dtype=np.int64)
        return self._add("cylinder", kinds, rows, np.ones(len(bases), np.int64))

    # ------------------------------------------------------------- changing
    def _prims_of(self, ids: IntArray) -> IntArray:
        first = self.first_prim.view()[ids]
        count = self.prim_count.view()[ids]
        return np.concatenate([np.arange(f, f + c) for f, c in zip(first, count)]) \
            if len(ids) else np.zeros(0, np.int64)

    def remove(self, ids: IntArray) -> None:
        """Mark ``ids`` removed (queries skip them; no rebuild needed)."""
        self.alive.data[ids] = 0
        self._removed = True
        self.version += 1
        if self._packed is not None:
            self._packed.alive[ids] = 0
            self._packed.flags[_kw.F_REMOVED] = 1

    def make_body(self, ids: IntArray) -> int:
        """Make obstacles ``ids`` (checked: known, live) one body; returns its number.

        Their coordinates now are the body's frame: its parts are copied
        (:class:`Parts3D`), four rows are added to the corner pool for its
        frame (identity) and its boxes and cylinders are marked to be read
        in it. The next pack rebuilds the hierarchy, as after an add.
        """
        body = self.bodies.add(ids, self.alive.size)
        members = self.bodies.members[body]
        prims = self._prims_of(members)
        kinds = self.kind.view()[prims]
        ranges = self.vertex_range.view()[members]
        rows = np.concatenate([np.arange(f, f + c) for f, c in ranges]).astype(np.int64)
        frame = self.vertices.size
        identity = np.zeros((_kw.FRAME_ROWS, 3))
        identity[:3] = np.eye(3)                # R's rows, then the position 0
        self.vertices.extend(identity)
        solid = (kinds == _kw.PRIM_BOX) | (kinds == _kw.PRIM_CYLINDER)
        self.params.data[prims[solid], _kw.S_FRAME] = frame + 1
        params = self.params.view()
        boxes = _kw.primitive_boxes(kinds, params[prims], self.vertices.view(), self.loop.view())
        self._parts.add(frame, prims, kinds, params[prims].copy(),
                        rows, self.vertices.view()[rows].copy(), boxes)
        self._packed = None
        self.version += 1
        return body

    def pose_bodies(self, bodies: IntArray, positions: FloatArray, rotations: FloatArray,
                    dt: float) -> None:
        """Put checked, distinct ``bodies (k,)`` at ``positions (k, 3)``, turned by
        ``rotations (k, 3, 3)``; ``dt`` seconds since their last poses.

        A body holding ground (a heightfield, solid below along its up axis)
        turns only about that axis: any other turn is refused (``ValueError``)
        before anything is written.
        """
        parts = self._parts
        ground = parts.ground[bodies] if parts.any_ground else parts.ground[:0]
        if ground.any():
            # R e_up == e_up, to rounding: the up axis' column of R.
            k, axis = np.nonzero(ground)
            tilted = np.abs(rotations[k, axis, axis] - 1.0) > 1e-9
            if np.any(tilted):
                b = int(bodies[k[np.argmax(tilted)]])
                raise ValueError(f"rotations: body {b} holds a heightfield (solid below along "
                                 f"axis {'xyz'[int(axis[np.argmax(tilted)])]}), so it may turn "
                                 "only about that axis")
        self.bodies.set(bodies, positions, rotations, dt, distinct=True)
        self.version += 1
        arrays = parts.arrays()
        pose_bodies_3d(bodies, rotations, positions, *arrays, self.params.view(),
                       self.vertices.view())
        packed = self._packed
        if packed is None or self._boxes is None or self._row_of is None:
            return
        # The bodies' centres now against where they stood at the build (see
        # BODY_DRIFT): refit in place, or rebuild at the next pack.
        if drift(bodies, rotations, positions, parts.centre, self._built_centre) > \
                BODY_DRIFT * self._size:
            self._packed = None
            return
        pose_packed(bodies, rotations, positions, *arrays, packed, self._boxes, self._row_of)

    def translate(self, ids: IntArray, offset: FloatArray) -> None:
        """Move obstacles ``ids`` by ``offset (3,)``: solids' parameters and panels' corners."""
        self.version += 1
        prims = self._prims_of(ids)
        ranges = self.vertex_range.view()[ids]
        _kw.translate_primitives(self.params.view(), self.vertices.view(), prims,
                                 self.kind.view()[prims], ranges, offset)
        for i in ids:
            self.offsets[int(i)] = self.offsets.get(int(i), 0.0) + offset
            if int(i) in self.grids:
                table, size, origin = self.grids[int(i)]
                self.grids[int(i)] = (table, size, origin + offset)
        # The packed world follows in place and its hierarchy is refitted, until
        # the moves add up to REBUILD_AFTER times the level's size (a refitted
        # tree stays right but its boxes grow): then the next pack rebuilds it.
        self._moved += float(np.abs(offset).max())
        if self._packed is not None and self._boxes is not None and self._row_of is not None:
            if self._moved <= REBUILD_AFTER * self._size:
                _kw.translate_packed(self._packed, self._boxes, self._row_of, prims, ranges,
                                     offset)
                return
        self._packed = None              # the next pack rebuilds the hierarchy

    # --------------------------------------------------------------- reading
    def geometry(self, family: str) -> Geometry3D:
        code = FAMILIES.index(family)
        ids = np.flatnonzero((self.family.view() == code) & (self.alive.view() != 0))
        out: Geometry3D = {"ids": ids.astype(np.int64)}
        first = self.first_prim.view()[ids]
        p = self.params.view()
        verts = self.vertices.view()
        ranges = self.vertex_range.view()[ids]
        if family == "panel":
            out["vertices"] = [verts[f:f + c].copy() for f, c in ranges]
            out["sides"] = ["both" if p[f, _kw.P_FRONT] == 0 else "front" for f in first]
        elif family == "mesh":
            out["vertices"] = [verts[f:f + c].copy() for f, c in ranges]
            out["triangles"] = [self.meshes[int(i)][0].copy() for i in ids]
            out["sides"] = ["both" if self.meshes[int(i)][1] == 0 else "front" for i in ids]
        elif family in ("voxels", "heightfield"):
            table: Literal["blocked", "heights"] = "blocked" if family == "voxels" else "heights"
            out[table] = [self.grids[int(i)][0].copy() for i in ids]
            out["cell_size"] = np.array([self.grids[int(i)][1] for i in ids], dtype=np.float64)
            out["origin"] = np.array([self.grids[int(i)][2] for i in ids],
                                     dtype=np.float64).reshape(-1, 3)
        elif family == "box":
            out.update({"mins": p[first, 0:3].copy(), "maxs": p[first, 3:6].copy()})
        elif family == "sphere":
            out.update({"centers": p[first, 0:3].copy(), "radii": p[first, 3].copy()})
        else:
            out.update({"bases": p[first, 0:3].copy(), "radii": p[first, 4].copy(),
                        "heights": p[first, 5].copy()})
        return out

    def bounds(self) -> tuple[FloatArray, FloatArray] | None:
        """``(min (3,), max (3,))`` over the live primitives, or None."""
        # A heightfield's surface, not the solid reaching down to its floor.
        params = self.params.view().copy()
        params[:, _kw.P_GROUND] = 0
        live = self.alive.view()[self.owner.view()] != 0
        if not np.any(live):
            return None
        boxes = _kw.primitive_boxes(self.kind.view(), params, self.vertices.view(),
                                    self.loop.view())
        boxes = boxes[live]
        return boxes[:, 0:3].min(axis=0), boxes[:, 3:6].max(axis=0)

    def set_layers(self, ids: IntArray, layers: NDArray[np.uint8]) -> None:
        """Put obstacles ``ids`` on ``layers`` (checked, ``(n,) uint8``)."""
        self.layer.data[ids] = layers
        self.version += 1

    def live(self, mask: int = ALL) -> NDArray[np.uint8]:
        """``(ids + 1,) uint8``: which obstacles a query with ``mask`` sees, then whether it
        misses any (:class:`sidestep.layers.Seen`)."""
        return self._seen.flags(self.alive.view(), self.layer.view(), self.version, mask)

    def pack(self, mask: int = ALL) -> Any:
        """The world as a query with ``mask`` reads it (a
        :class:`~sidestep.kernels3d.world.Packed3D`).

        With a mask that leaves out some obstacles, the packed world with its
        ``alive`` flags filtered by the mask (the same arrays otherwise, no
        copy of the geometry): the kernels skip the obstacles it does not see
        exactly as removed ones.
        """
        packed = self._pack()
        if mask == ALL:
            return packed
        live = self.live(mask)
        held = self._masked.get(mask)
        if held is not None and held[0] is packed and held[1] is live:
            return held[2]
        flags = packed.flags.copy()
        flags[_kw.F_REMOVED] = int(live[-1] != 0 or flags[_kw.F_REMOVED] != 0)
        view = packed._replace(alive=live[:-1], flags=flags)
        self._masked[mask] = (packed, live, view)
        return view

    def _pack(self) -> Any:
        """The world as the kernels read it (:class:`~sidestep.kernels3d.world.Packed3D`)."""
        if self._packed is None:
            boxes = _kw.primitive_boxes(self.kind.view(), self.params.view(),
                                        self.vertices.view(), self.loop.view())
            self._packed = _kw.pack(self.kind.view(), self.owner.view(), self.part.view(),
                                    self.params.view(), self.vertices.view(), self.loop.view(),
                                    self.alive.view(), self._removed, boxes)
            order = self._packed.tree.order
            self._row_of = np.empty(len(order), dtype=np.int64)
            self._row_of[order] = np.arange(len(order))
            self._boxes = boxes
            self._moved = 0.0
            bodies = self.bodies
            self._built_centre = np.einsum("kij,kj->ki", bodies.rotation,
                                           self._parts.centre) + bodies.position
            root = self._packed.tree.boxes
            self._size = float(np.max(root[0, 3:6] - root[0, 0:3])) if len(root) else 0.0
        return self._packed


def heightfield_mesh(heights: FloatArray, cell_size: float, origin: FloatArray,
                     up: int) -> tuple[FloatArray, IntArray]:
    """Vertices and triangles of a heightfield: one corner per sample, two triangles per cell.

    Sample ``(r, c)`` sits at ``origin + c * cell_size`` along the first axis
    other than ``up`` (x for up = y or z, y for up = x), ``origin + r *
    cell_size`` along the second (z for up = y or x, y for up = z) and
    ``origin + heights[r, c]`` along ``up``. Cell ``(r, c)`` (``r < rows - 1``,
    ``c < cols - 1``) gives triangles ``2 * (r * (cols - 1) + c)`` (corners
    ``(r, c), (r, c+1), (r+1, c+1)``) and that plus one (``(r, c), (r+1, c+1),
    (r+1, c)``), split along the diagonal from ``(r, c)`` to ``(r+1, c+1)``
    (corners in this order for up = z or x, reversed for up = y, so that every
    triangle runs counter-clockwise seen from above).

    Returns
    -------
    vertices : (rows * cols, 3) float64
    triangles : (2 * (rows - 1) * (cols - 1), 3) int64
    """
    rows, cols = heights.shape
    col_axis, row_axis = [a for a in range(3) if a != up]
    vertices = np.empty((rows, cols, 3))
    vertices[:, :, col_axis] = origin[col_axis] + np.arange(cols) * cell_size
    vertices[:, :, row_axis] = (origin[row_axis] + np.arange(rows) * cell_size)[:, None]
    vertices[:, :, up] = origin[up] + heights
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    p00 = index[:-1, :-1].reshape(-1)
    p01 = index[:-1, 1:].reshape(-1)
    p10 = index[1:, :-1].reshape(-1)
    p11 = index[1:, 1:].reshape(-1)
    triangles = np.empty((2 * len(p00), 3), dtype=np.int64)
    triangles[0::2] = np.column_stack([p00, p01, p11])
    triangles[1::2] = np.column_stack([p00, p11, p10])
    # Columns then rows run counter-clockwise about +up except for up = y (x then z).
    if up == 1:
        triangles = triangles[:, ::-1].copy()
    return vertices.reshape(-1, 3), triangles
