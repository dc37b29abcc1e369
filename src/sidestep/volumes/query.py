"""``World2D.query`` and ``World3D.query``: the obstacles a volume touches, with states.

Each family's obstacles are tested in one batched call of the kernels of
:mod:`sidestep.volumes.batch` (all cores): circles, spheres and boxes
exactly, 2D walls exactly as capsules (their clearance as the radius).
Polygons, grids, cylinders, panels, meshes, voxel tables and heightfields
(solid down to the floor under them) are tested by their own axis-aligned
bounding box, so their state is
conservative: it errs towards INTERSECTS (an obstacle the volume misses but
whose box it touches is reported INTERSECTS), never towards DISJOINT or a
wrong CONTAINS (a box held by the volume holds what is inside it).

In 3D the world's bounding volume hierarchy first picks the obstacles with
a primitive in a leaf whose box touches the volume's bounding box (a ray's
is unbounded: every obstacle); only those are tested. In 2D every live
obstacle is tested (a linear pass, vectorised).
"""
from dataclasses import dataclass

import numpy as np

from .. import threads
from ..kernels3d import volumes as kv
from ..tolerances import VOLUME_TOLERANCE
from . import batch, packing
from .shapes import Volume


@dataclass(frozen=True)
class Query:
    """The obstacles a volume touches: ``obstacle (n,) int64`` ids (sorted) and
    ``state (n,) int8`` (:class:`~sidestep.volumes.Containment`: 1 intersects, 2 contains)."""

    obstacle: np.ndarray
    state: np.ndarray


def _capsules(volume, starts, ends, radii):
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


def _collect(parts):
    ids = np.concatenate([p[0] for p in parts] + [np.zeros(0, np.int64)]).astype(np.int64)
    st = np.concatenate([p[1] for p in parts] + [np.zeros(0, np.int8)]).astype(np.int8)
    keep = st != 0
    ids, st = ids[keep], st[keep]
    order = np.argsort(ids, kind="stable")
    return Query(ids[order], st[order])


def _boxes_of(volume, ids, lo, hi):
    if not len(ids):
        return ids, np.zeros(0, np.int8)
    return ids, batch.contains_boxes(volume, lo, hi)


def _spheres_of(volume, ids, centers, radii):
    if not len(ids):
        return ids, np.zeros(0, np.int8)
    return ids, batch.contains_spheres(volume, centers, radii)


def query_2d(world, volume):
    """The obstacles of ``world`` (a :class:`~sidestep.World2D`) that 2D ``volume`` touches."""
    _check(volume, 2)
    parts = []
    g = world.geometry("circle")
    parts.append(_spheres_of(volume, g["ids"], g["centers"], g["radii"]))
    g = world.geometry("wall")
    if len(g["ids"]):
        parts.append((g["ids"], _capsules(volume, g["starts"], g["ends"], g["clearance"])))
    g = world.geometry("box")
    parts.append(_boxes_of(volume, g["ids"], g["mins"], g["maxs"]))
    g = world.geometry("polygon")
    if len(g["ids"]):
        parts.append(_boxes_of(volume, g["ids"], np.array([v.min(axis=0) for v in g["vertices"]]),
                               np.array([v.max(axis=0) for v in g["vertices"]])))
    g = world.geometry("grid")
    if len(g["ids"]):
        lo, hi = [], []
        for blocked, s, o in zip(g["blocked"], g["cell_size"], g["origin"]):
            r, c = np.nonzero(blocked)
            if not len(r):
                lo.append(o), hi.append(o)      # an empty grid: its origin only
                continue
            lo.append(o + s * np.array([c.min(), r.min()]))
            hi.append(o + s * np.array([c.max() + 1, r.max() + 1]))
        parts.append(_boxes_of(volume, g["ids"], np.array(lo), np.array(hi)))
    return _collect(parts)


def _near(world, volume):
    # (ids,) bool: the obstacles the hierarchy finds near the volume's box, or None.
    from ..kernels3d import world as kw

    v = volume.packed
    if v[kv.KIND] == kv.RAY:
        return None
    corners = v[kv.VERTS:kv.VERTS + 3 * (8 if v[kv.KIND] == kv.POLYTOPE else 2)]
    corners = corners.reshape(-1, 3)
    lo = corners.min(axis=0) - v[kv.RADIUS]
    hi = corners.max(axis=0) + v[kv.RADIUS]
    store = world._store
    marks = np.zeros(store.alive.size, dtype=np.bool_)
    kw.owners_in_box(store.pack(), *lo, *hi, marks)
    return marks


def query_3d(world, volume):
    """The obstacles of ``world`` (a :class:`~sidestep.World3D`) that 3D ``volume`` touches."""
    _check(volume, 3)
    near = _near(world, volume)
    store = world._store
    parts = []
    g = store.geometry("sphere", near)
    parts.append(_spheres_of(volume, g["ids"], g["centers"], g["radii"]))
    g = store.geometry("box", near)
    parts.append(_boxes_of(volume, g["ids"], g["mins"], g["maxs"]))
    for family in ("panel", "mesh"):
        g = store.geometry(family, near)
        if len(g["ids"]):
            parts.append(_boxes_of(volume, g["ids"],
                                   np.array([v.min(axis=0) for v in g["vertices"]]),
                                   np.array([v.max(axis=0) for v in g["vertices"]])))
    g = store.geometry("cylinder", near)
    if len(g["ids"]):
        up = "xyz".index(world.up)
        r = g["radii"][:, None] * (np.arange(3) != up)
        top = g["bases"].copy()
        top[:, up] += g["heights"]
        parts.append(_boxes_of(volume, g["ids"], np.minimum(g["bases"], top) - r,
                               np.maximum(g["bases"], top) + r))
    for family in ("voxels", "heightfield"):
        ids = store.geometry(family, near)["ids"]
        if len(ids):
            parts.append(_boxes_of(volume, ids, *world._store.obstacle_boxes(ids)))
    return _collect(parts)


def _check(volume, dim):
    if not isinstance(volume, Volume):
        raise TypeError(f"volume must be a volume, got {type(volume).__name__}")
    if volume.dim != dim:
        raise ValueError(f"volume must be a {dim}D volume for this world, got a "
                         f"{volume.dim}D one")
