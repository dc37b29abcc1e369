"""``World2D.query`` and ``World3D.query``: the obstacles a volume touches, with states.

Both go through the world's broadphase, then test each candidate:

* 2D (:func:`query_2d`): the obstacles in the cells of the broadphase grids
  that the volume's bounding box meets, then batched exact tests per family
  (:mod:`sidestep.volumes.batch`, all cores): circles, boxes, walls as
  capsules (their clearance as the radius), polygons by their corners and
  edges, grids by their blocked cells;
* 3D (:func:`query_3d`): a walk of the bounding volume hierarchy that skips
  or accepts whole subtrees by their boxes, then an exact test per
  primitive (:mod:`sidestep.kernels3d.query`): spheres, boxes, mesh
  triangles, panels, voxel tables and heightfields exactly, cylinders by
  their bounding box.

:func:`scan_2d` and :func:`scan_3d` test every live obstacle instead (no
broadphase): slower, the same answers, the tests' reference.
"""
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .. import threads
from .._types import FloatArray, IntArray, StateArray
from ..kernels.polygon import contains_point_polygon
from ..kernels.query import owners_in_box
from ..kernels.world import AREA_POLYGON
from ..kernels3d import culling
from ..kernels3d import query as kq
from ..kernels3d import volumes as kv
from ..layers import ALL
from ..storage import FAMILIES as FAMILIES_2D
from ..tolerances import VOLUME_TOLERANCE
from . import batch
from .shapes import Containment, Volume

if TYPE_CHECKING:
    from ..storage import Store
    from ..world import World2D
    from ..world3d import World3D


@dataclass(frozen=True)
class Query:
    """The obstacles a volume touches: ``obstacle (n,) int64`` ids (sorted) and
    ``state (n,) int8`` (:class:`~sidestep.volumes.Containment`: 1 intersects, 2 contains)."""

    #: ``(n,) int64``: ids of the obstacles touched, sorted.
    obstacle: IntArray
    #: ``(n,) int8``: each one's :class:`~sidestep.volumes.Containment` value (1 or 2).
    state: StateArray


def _capsules(volume: Volume, starts: FloatArray, ends: FloatArray,
              radii: FloatArray) -> StateArray:
    n = len(starts)
    items = np.zeros((n, kv.PACKED))
    items[:, kv.KIND] = kv.ROUNDED
    items[:, kv.FLAT] = volume.dim == 2
    items[:, kv.RADIUS] = radii
    d = starts.shape[1]
    items[:, kv.VERTS:kv.VERTS + d] = starts
    items[:, kv.VERTS + 3:kv.VERTS + 3 + d] = ends
    out = np.empty(n, dtype=np.int8)
    threads.run_rows(kv.contains_rows, n, volume.packed, items, VOLUME_TOLERANCE, out)
    return out


def _collect(parts: list[tuple[IntArray, StateArray]]) -> Query:
    ids = np.concatenate([p[0] for p in parts] + [np.zeros(0, np.int64)]).astype(np.int64)
    st = np.concatenate([p[1] for p in parts] + [np.zeros(0, np.int8)]).astype(np.int8)
    keep = st != 0
    ids, st = ids[keep], st[keep]
    order = np.argsort(ids, kind="stable")
    return Query(ids[order], st[order])


def _boxes_of(volume: Volume, ids: IntArray, lo: FloatArray,
              hi: FloatArray) -> tuple[IntArray, StateArray]:
    if not len(ids):
        return ids, np.zeros(0, np.int8)
    return ids, batch.contains_boxes(volume, lo, hi)


def _spheres_of(volume: Volume, ids: IntArray, centers: FloatArray,
                radii: FloatArray) -> tuple[IntArray, StateArray]:
    if not len(ids):
        return ids, np.zeros(0, np.int8)
    return ids, batch.contains_spheres(volume, centers, radii)


def query_2d(world: "World2D", volume: Volume, mask: int = ALL) -> Query:
    """The obstacles of ``world`` (a :class:`~sidestep.World2D`) that 2D ``volume`` touches.

    The candidates are the obstacles in the cells of the world's broadphase
    grids that the volume's bounding box meets
    (:func:`~sidestep.kernels.query.owners_in_box`); each is then tested
    exactly: circles, boxes, walls as capsules of their clearance, polygons
    by their corners and edges (and whether the volume lies inside them),
    grids by their blocked cells. Only obstacles on the layers of ``mask``
    count.
    """
    _check(volume, 2)
    store = world._store
    blob = store.pack()
    seen = store.live(mask)
    n_ids = store.alive.size
    lo, hi = _reach_2d(volume.packed, VOLUME_TOLERANCE + kq.margin(_scale(volume.packed)))
    mark = np.zeros(n_ids, dtype=np.uint8)
    found = np.empty(n_ids, dtype=np.int64)
    n = owners_in_box(blob, seen, lo[0], lo[1], hi[0], hi[1], mark, found)
    return _test_2d(store, volume, np.sort(found[:n]))


def scan_2d(world: "World2D", volume: Volume, mask: int = ALL) -> Query:
    """:func:`query_2d` testing every live obstacle, without the broadphase (its reference)."""
    _check(volume, 2)
    store = world._store
    return _test_2d(store, volume, np.flatnonzero(store.live(mask)[:-1]).astype(np.int64))


def _test_2d(store: "Store", volume: Volume, ids: IntArray) -> Query:
    # The exact (or bounding-box) test of each obstacle ids (sorted), family by family.
    family = store.family.view()[ids]
    code = {name: FAMILIES_2D.index(name) for name in FAMILIES_2D}
    g = store.item_geometry.view()
    parts = []
    sel = ids[family == code["circle"]]
    first = store.first_item.view()[sel]
    parts.append(_spheres_of(volume, sel, g[first, 0:2], g[first, 4]))
    sel = ids[family == code["wall"]]
    if len(sel):
        first = store.first_item.view()[sel]
        parts.append((sel, _capsules(volume, g[first, 0:2], g[first, 2:4], g[first, 4])))
    sel = ids[family == code["box"]]
    # A box in a body is the polygon of its corners (turned, it is no longer axis-aligned).
    turned = store.area_kind.view()[store.area_of.view()[sel]] == AREA_POLYGON
    b = store.area_bounds.view()[store.area_of.view()[sel[~turned]]]
    parts.append(_boxes_of(volume, sel[~turned], b[:, 0:2], b[:, 2:4]))
    if np.any(turned):
        parts.append((sel[turned], _polygons(store, volume, sel[turned])))
    sel = ids[family == code["polygon"]]
    if len(sel):
        parts.append((sel, _polygons(store, volume, sel)))
    sel = ids[family == code["grid"]]
    if len(sel):
        parts.append((sel, _grids(store, volume, sel)))
    return _collect(parts)


def _polygons(store: "Store", volume: Volume, ids: IntArray) -> StateArray:
    """States of polygons ``ids``, exact: held when their corners are (the volume is
    convex), touching when an edge touches or when the volume lies inside them."""
    ref = store.area_ref.view()[store.area_of.view()[ids]]
    flat = store.polygon_vertices.view()
    return _polygon_states(volume, [flat[f:f + c] for f, c in ref])


def _polygon_states(volume: Volume, corners: list[FloatArray]) -> StateArray:
    """States of the polygons of ``corners`` (a list of ``(k, 2)``), as :func:`_polygons`."""
    every = np.concatenate(corners)
    held = batch.contains_points(volume, every) == Containment.CONTAINS
    ends = np.concatenate([np.roll(v, -1, axis=0) for v in corners])
    edge = _capsules(volume, every, ends, np.zeros(len(every))) != Containment.DISJOINT
    # A point of the volume (a corner, its core's start, a ray's origin): inside
    # a polygon whose edges it misses, the whole volume is.
    px, py = volume.packed[kv.VERTS], volume.packed[kv.VERTS + 1]
    coords = every.reshape(-1)
    out = np.zeros(len(corners), dtype=np.int8)
    at = np.cumsum([0] + [len(v) for v in corners])
    for k in range(len(corners)):
        if held[at[k]:at[k + 1]].all():
            out[k] = Containment.CONTAINS
        elif edge[at[k]:at[k + 1]].any() or contains_point_polygon(
                px, py, coords, 2 * int(at[k]), len(corners[k])):
            out[k] = Containment.INTERSECTS
    return out


def _grids(store: "Store", volume: Volume, ids: IntArray) -> StateArray:
    """States of grids ``ids``, exact: by their blocked cells (none blocked: DISJOINT)."""
    out = np.zeros(len(ids), dtype=np.int8)
    for k, (r, _) in enumerate(store.area_ref.view()[store.area_of.view()[ids]]):
        s, ox, oy, c, sn = store.grid_frame.view()[r]
        rows, cols = np.nonzero(store.grid_tables[r])
        if not len(rows):
            continue
        lo = np.column_stack([s * cols, s * rows])
        if c == 1.0 and sn == 0.0:
            states = batch.contains_boxes(volume, lo + (ox, oy), lo + (ox + s, oy + s))
        else:           # a grid in a turned body: its cells are turned squares
            square = np.array([(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)])
            turn = np.array([[c, sn], [-sn, c]])
            cells = (lo[:, None, :] + square[None]) @ turn + (ox, oy)
            states = _polygon_states(volume, list(cells))
        out[k] = Containment.CONTAINS if np.all(states == Containment.CONTAINS) else \
            Containment.INTERSECTS if np.any(states) else Containment.DISJOINT
    return out


def _scale(a: FloatArray) -> float:
    # The largest coordinate of packed volume a (for the rounding margin).
    return float(np.max(np.abs(a[kv.VERTS:kv.DIRS]), initial=0.0))


def _reach_2d(a: FloatArray, grow: float) -> tuple[FloatArray, FloatArray]:
    """``(lo (2,), hi (2,))``: the box outside which nothing touches packed 2D volume ``a``.

    For a polytope, the box of the polygon its planes make when each is moved
    out by ``grow``: what the tolerance lets it hold reaches that far, past
    a sharp corner further than ``grow`` itself.
    """
    if a[kv.KIND] != kv.POLYTOPE:
        lo, hi = _reach(a, grow)
        return lo[:2], hi[:2]
    planes = a[kv.PLANES:kv.PLANES + 16].reshape(4, 4)[:, [0, 1, 3]]
    points = []
    for j in range(4):
        for k in range(j + 1, 4):
            m = planes[[j, k], :2]
            if abs(np.linalg.det(m)) < 1e-12:
                continue
            points.append(np.linalg.solve(m, planes[[j, k], 2] + grow))
    pts = np.array(points).reshape(-1, 2)
    slack = 1e-9 * (1.0 + _scale(a))
    pts = pts[np.all(pts @ planes[:, :2].T <= planes[:, 2] + grow + slack, axis=1)]
    if not len(pts):
        return np.full(2, -np.inf), np.full(2, np.inf)
    return pts.min(axis=0) - slack, pts.max(axis=0) + slack


def query_3d(world: "World3D", volume: Volume, mask: int = ALL) -> Query:
    """The obstacles of ``world`` (a :class:`~sidestep.World3D`) that 3D ``volume`` touches.

    Through the world's bounding volume hierarchy
    (:func:`~sidestep.kernels3d.query.query_tree`): a frustum over a level
    of a million spheres answers in milliseconds. Exact for spheres, boxes,
    meshes (triangle by triangle), triangular and convex panels, voxel
    tables (their merged boxes of blocked cells) and heightfields (the prism
    of solid under each triangle, down to the floor); cylinders by their
    bounding box and concave panels by their fan of triangles (conservative:
    towards INTERSECTS). Meshes and panels are surfaces: a volume inside a
    closed mesh touches none of it.
    """
    return _query_3d(world, volume, tree=True, mask=mask)


def scan_3d(world: "World3D", volume: Volume, mask: int = ALL) -> Query:
    """:func:`query_3d` testing every live primitive, without the hierarchy (its reference)."""
    return _query_3d(world, volume, tree=False, mask=mask)


def _query_3d(world: "World3D", volume: Volume, tree: bool, mask: int) -> Query:
    _check(volume, 3)
    store = world._store
    packed = store.pack(mask)
    n_ids = store.alive.size
    a = volume.packed
    polytope = a[kv.KIND] == kv.POLYTOPE
    prep = culling.prepare_polytope(a, 3) if polytope else np.zeros(culling.PREPARED)
    state = np.zeros(n_ids, dtype=np.int8)
    held = np.empty(n_ids, dtype=np.int32)       # set where touched (query_scan)
    found = np.empty(n_ids, dtype=np.int64)
    if tree:
        scale = _scale(a)
        if len(packed.tree.boxes):
            scale = max(scale, float(np.max(np.abs(packed.tree.boxes[0]))))
        margin = kq.margin(scale)
        lo, hi = _reach(a, VOLUME_TOLERANCE + margin)
        n = kq.query_tree(packed, a, prep, lo, hi, VOLUME_TOLERANCE, margin, state, held, found)
    else:
        n = kq.query_scan(packed, a, prep, VOLUME_TOLERANCE, state, held, found)
    ids = np.sort(found[:n])
    st = state[ids]
    st[held[ids] == store.prim_count.view()[ids]] = kv.CONTAINS
    return Query(ids.astype(np.int64), st)


def _reach(a: FloatArray, grow: float) -> tuple[FloatArray, FloatArray]:
    """``(lo (3,), hi (3,))``: the box outside which nothing touches packed volume ``a``.

    Infinite for a polytope (its planes prune the hierarchy instead); a
    rounded volume's core grown by its radius; a ray's box runs to infinity
    along its direction.
    """
    if a[kv.KIND] == kv.POLYTOPE:
        return np.full(3, -np.inf), np.full(3, np.inf)
    p, q = a[kv.VERTS:kv.VERTS + 3], a[kv.VERTS + 3:kv.VERTS + 6]
    if a[kv.KIND] == kv.RAY:
        lo = np.where(q < 0, -np.inf, p - grow)
        hi = np.where(q > 0, np.inf, p + grow)
        return lo, hi
    r = a[kv.RADIUS] + grow
    return np.minimum(p, q) - r, np.maximum(p, q) + r


def _check(volume: object, dim: int) -> None:
    if not isinstance(volume, Volume):
        raise TypeError(f"volume must be a volume, got {type(volume).__name__}")
    if volume.dim != dim:
        raise ValueError(f"volume must be a {dim}D volume for this world, got a "
                         f"{volume.dim}D one")
