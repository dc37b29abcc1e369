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

from .kernels3d import world as _kw
from .kernels3d.mesh import active_edges
from .storage import Growable

FAMILIES = ("panel", "mesh", "box", "sphere", "cylinder")


class Store3D:
    """Primitive arrays (structure of arrays) with stable integer obstacle ids."""

    def __init__(self):
        self.kind = Growable((), np.int64)
        self.owner = Growable((), np.int64)
        self.part = Growable((), np.int64)
        self.params = Growable((_kw.PARAMS,))
        self.vertices = Growable((3,))          # polygon corners, referenced by params
        self.alive = Growable((), np.uint8)
        self.family = Growable((), np.int8)
        self.first_prim = Growable((), np.int64)
        self.prim_count = Growable((), np.int64)
        self.meshes = {}                        # id -> (vertices (n, 3), triangles (m, 3))
        self._packed = None
        self._removed = False

    # ------------------------------------------------------------------ adding
    def _add(self, family, kinds, params, per_obstacle, parts=None):
        """Append obstacles of one family, ``per_obstacle`` primitives each; returns ids."""
        n = len(per_obstacle)
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

    def add_panels(self, polygons, side):
        """Store checked panels (list of ``(k, 3)``); triangles stay panels of 3 corners."""
        rows = np.zeros((len(polygons), _kw.PARAMS))
        for i, v in enumerate(polygons):
            rows[i, _kw.P_FIRST] = self.vertices.size
            rows[i, _kw.P_COUNT] = len(v)
            rows[i, _kw.P_SIDES] = side
            self.vertices.extend(v)
        kinds = np.full(len(polygons), _kw.PRIM_POLYGON, dtype=np.int64)
        return self._add("panel", kinds, rows, np.ones(len(polygons), np.int64))

    def add_mesh(self, vertices, triangles, side):
        """Store a mesh: one triangle primitive per face, with its active-edge flags."""
        m = len(triangles)
        flags = active_edges(vertices, triangles)
        corners = vertices[triangles].reshape(m, 9)
        rows = np.zeros((m, _kw.PARAMS))
        rows[:, 0:9] = corners
        rows[:, _kw.P_EDGES] = flags
        rows[:, _kw.P_TRI_SIDES] = side
        kinds = np.full(m, _kw.PRIM_TRIANGLE, dtype=np.int64)
        ids = self._add("mesh", kinds, rows, [m], np.arange(m, dtype=np.int64))
        self.meshes[int(ids[0])] = (vertices.copy(), triangles.copy(), side)
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
        rows[:, 3] = radii
        rows[:, 4] = heights
        rows[:, 5] = axis
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
        """Move obstacles ``ids`` by ``offset (3,)``; the hierarchy is refitted, not rebuilt."""
        prims = self._prims_of(ids)
        params = self.params.view()
        kinds = self.kind.view()[prims]
        _kw.translate_params(params, self.vertices.view(), prims, kinds, offset)
        for i in ids:
            if int(i) in self.meshes:
                v, t, side = self.meshes[int(i)]
                self.meshes[int(i)] = (v + offset, t, side)
        self._packed = None              # the next pack rebuilds the hierarchy

    # --------------------------------------------------------------- reading
    def geometry(self, family):
        code = FAMILIES.index(family)
        ids = np.flatnonzero((self.family.view() == code) & (self.alive.view() != 0))
        out = {"ids": ids.astype(np.int64)}
        first = self.first_prim.view()[ids]
        p = self.params.view()
        if family == "panel":
            verts = self.vertices.view()
            out["vertices"] = [verts[int(p[f, _kw.P_FIRST]):int(p[f, _kw.P_FIRST])
                                     + int(p[f, _kw.P_COUNT])].copy() for f in first]
            out["sides"] = ["both" if p[f, _kw.P_SIDES] == 0 else "front" for f in first]
        elif family == "mesh":
            out["vertices"] = [self.meshes[int(i)][0].copy() for i in ids]
            out["triangles"] = [self.meshes[int(i)][1].copy() for i in ids]
            out["sides"] = ["both" if self.meshes[int(i)][2] == 0 else "front" for i in ids]
        elif family == "box":
            out.update(mins=p[first, 0:3].copy(), maxs=p[first, 3:6].copy())
        elif family == "sphere":
            out.update(centers=p[first, 0:3].copy(), radii=p[first, 3].copy())
        else:
            out.update(bases=p[first, 0:3].copy(), radii=p[first, 3].copy(),
                       heights=p[first, 4].copy())
        return out

    def bounds(self):
        """``(min (3,), max (3,))`` over the live primitives, or None."""
        live = self.alive.view()[self.owner.view()] != 0
        if not np.any(live):
            return None
        boxes = _kw.primitive_boxes(self.kind.view(), self.params.view(), self.vertices.view())
        boxes = boxes[live]
        return boxes[:, 0:3].min(axis=0), boxes[:, 3:6].max(axis=0)

    def pack(self):
        """The world as the kernels read it (:class:`~sidestep.kernels3d.world.Packed3D`)."""
        if self._packed is None:
            self._packed = _kw.pack(self.kind.view(), self.owner.view(), self.part.view(),
                                    self.params.view(), self.vertices.view(),
                                    self.alive.view(), self._removed)
        return self._packed
