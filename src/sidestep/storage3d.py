"""The packed obstacle arrays of a 3D world and their bounding volume hierarchy.

The 3D mirror of :mod:`sidestep.storage`. Every obstacle is a set of
**primitives** (one row each: kind, owner id, part, parameters; see
:mod:`sidestep.kernels3d.world`): a panel is one polygon, a mesh one triangle
per face, a box, sphere or cylinder one solid. :meth:`Store3D.pack` hands the
kernels the primitives and a bounding volume hierarchy over their boxes,
rebuilt only after obstacles were added; removal clears an ``alive`` flag and
translation moves the primitives and refits the hierarchy.
"""
import numpy as np

from . import tolerances
from .kernels3d import world as _kw
from .kernels3d.mesh import active_edges, face_normals
from .storage import Growable

FAMILIES = ("panel", "mesh", "box", "sphere", "cylinder")


class Store3D:
    """Primitive arrays (structure of arrays) with stable integer obstacle ids."""

    def __init__(self):
        self.kind = Growable((), np.int64)
        self.owner = Growable((), np.int64)
        self.part = Growable((), np.int64)
        self.params = Growable((_kw.PARAMS,))
        self.vertices = Growable((3,))          # corners of panels and mesh triangles
        self.loop = Growable((), np.int64)      # corner indices, read from each polygon's first
        self.vertex_range = Growable((2,), np.int64)   # per obstacle: its corners (first, count)
        self.alive = Growable((), np.uint8)
        self.family = Growable((), np.int8)
        self.first_prim = Growable((), np.int64)
        self.prim_count = Growable((), np.int64)
        self.meshes = {}                        # id -> (vertices (n, 3), triangles (m, 3))
        self._packed = None
        self._removed = False

    # ------------------------------------------------------------------ adding
    def _add(self, family, kinds, params, per_obstacle, parts=None, vertex_range=None):
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
        self.family.extend(np.full(n, FAMILIES.index(family), dtype=np.int8))
        self.first_prim.extend(first)
        self.prim_count.extend(counts)
        self._packed = None
        return ids

    def add_panels(self, polygons, normals, side):
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

    def add_mesh(self, vertices, triangles, side):
        """Store a mesh: one 3-corner polygon per triangle, with its active-edge flags."""
        m = len(triangles)
        normals, _ = face_normals(vertices, triangles)
        flags = active_edges(vertices, triangles, tolerances.SMOOTH_EDGE_ANGLE)
        rows = np.zeros((m, _kw.PARAMS))
        rows[:, _kw.P_FIRST] = self.loop.size + 3 * np.arange(m)
        rows[:, _kw.P_COUNT] = 3
        rows[:, _kw.P_NX:_kw.P_NZ + 1] = normals
        rows[:, _kw.P_EDGES] = flags
        rows[:, _kw.P_FRONT] = side
        first = self.vertices.size
        self.loop.extend((triangles + first).reshape(-1))
        self.vertices.extend(vertices)
        kinds = np.full(m, _kw.PRIM_POLYGON, dtype=np.int64)
        ids = self._add("mesh", kinds, rows, [m], np.arange(m, dtype=np.int64),
                        vertex_range=np.array([[first, len(vertices)]], np.int64))
        self.meshes[int(ids[0])] = (triangles.copy(), side)
        return ids[0]

    def add_boxes(self, lo, hi):
        rows = np.zeros((len(lo), _kw.PARAMS))
        rows[:, 0:3] = lo
        rows[:, 3:6] = hi
        kinds = np.full(len(lo), _kw.PRIM_BOX, dtype=np.int64)
        return self._add("box", kinds, rows, np.ones(len(lo), np.int64))

    def add_spheres(self, centers, radii):
        rows = np.zeros((len(centers), _kw.PARAMS))
        rows[:, 0:3] = centers
        rows[:, 3] = radii
        kinds = np.full(len(centers), _kw.PRIM_SPHERE, dtype=np.int64)
        return self._add("sphere", kinds, rows, np.ones(len(centers), np.int64))

    def add_cylinders(self, bases, radii, heights, axis):
        rows = np.zeros((len(bases), _kw.PARAMS))
        rows[:, 0:3] = bases
        rows[:, 3] = axis
        rows[:, 4] = radii
        rows[:, 5] = heights
        kinds = np.full(len(bases), _kw.PRIM_CYLINDER, dtype=np.int64)
        return self._add("cylinder", kinds, rows, np.ones(len(bases), np.int64))

    # ------------------------------------------------------------- changing
    def _prims_of(self, ids):
        first = self.first_prim.view()[ids]
        count = self.prim_count.view()[ids]
        return np.concatenate([np.arange(f, f + c) for f, c in zip(first, count)]) \
            if len(ids) else np.zeros(0, np.int64)

    def remove(self, ids):
        """Mark ``ids`` removed (queries skip them; no rebuild needed)."""
        self.alive.data[ids] = 0
        self._removed = True
        if self._packed is not None:
            self._packed.alive[ids] = 0
            self._packed.flags[_kw.F_REMOVED] = 1

    def translate(self, ids, offset):
        """Move obstacles ``ids`` by ``offset (3,)``: solids' parameters and panels' corners."""
        prims = self._prims_of(ids)
        _kw.translate_solids(self.params.view(), prims, self.kind.view()[prims], offset)
        verts = self.vertices.view()
        for first, count in self.vertex_range.view()[ids]:
            verts[first:first + count] += offset
        self._packed = None              # the next pack rebuilds the hierarchy

    # --------------------------------------------------------------- reading
    def geometry(self, family):
        code = FAMILIES.index(family)
        ids = np.flatnonzero((self.family.view() == code) & (self.alive.view() != 0))
        out = {"ids": ids.astype(np.int64)}
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
        elif family == "box":
            out.update(mins=p[first, 0:3].copy(), maxs=p[first, 3:6].copy())
        elif family == "sphere":
            out.update(centers=p[first, 0:3].copy(), radii=p[first, 3].copy())
        else:
            out.update(bases=p[first, 0:3].copy(), radii=p[first, 4].copy(),
                       heights=p[first, 5].copy())
        return out

    def bounds(self):
        """``(min (3,), max (3,))`` over the live primitives, or None."""
        live = self.alive.view()[self.owner.view()] != 0
        if not np.any(live):
            return None
        boxes = _kw.primitive_boxes(self.kind.view(), self.params.view(), self.vertices.view(),
                                    self.loop.view())
        boxes = boxes[live]
        return boxes[:, 0:3].min(axis=0), boxes[:, 3:6].max(axis=0)

    def pack(self):
        """The world as the kernels read it (:class:`~sidestep.kernels3d.world.Packed3D`)."""
        if self._packed is None:
            self._packed = _kw.pack(self.kind.view(), self.owner.view(), self.part.view(),
                                    self.params.view(), self.vertices.view(), self.loop.view(),
                                    self.alive.view(), self._removed)
        return self._packed
