"""The parts of a 2D world's bodies, kept in each body's own frame.

:class:`~sidestep.storage.Store` holds every obstacle at its current pose,
in world coordinates; for the obstacles in bodies it also keeps, here, what
they were when the body was made (the body's frame: pose identity), so
that every pose is written from the same numbers and no rounding piles up
over thousands of frames. Parts are grouped by body: body ``b``'s rows of
each array are ``first[b]:first[b + 1]``
(:func:`sidestep.kernels.poses.pose_bodies_2d` reads them).
"""
from typing import TYPE_CHECKING

import numpy as np

from ._types import FloatArray, IntArray
from .kernels import world as _kw

if TYPE_CHECKING:
    from .storage import Store


def _grouped(arrays: list[np.ndarray], rows: list[np.ndarray]) -> list[np.ndarray]:
    return [np.concatenate([a, r]) for a, r in zip(arrays, rows)]


class BodyParts:
    """Items, polygon corners, grid frames and areas of the bodies, in their frames."""

    def __init__(self) -> None:
        #: ``(bodies, 4)``: each body's pose as ``[cos, sin, x, y]``.
        self.pose = np.zeros((0, 4))
        #: ``(bodies, MOTION)``: each body's last pose change (kernels.world.MOTION).
        self.motion = np.zeros((0, _kw.MOTION))
        #: ``(bodies,)``: how far the body's surface reaches from its frame's origin.
        self.extent = np.zeros(0)
        self.item_first = np.zeros(1, dtype=np.int64)
        self.item_local = np.zeros((0, 4))              # capsule ends [ax, ay, bx, by]
        self.item_store = np.zeros(0, dtype=np.int64)   # their rows in the store
        self.item_packed = np.zeros(0, dtype=np.int64)  # and in the packed world
        self.vertex_first = np.zeros(1, dtype=np.int64)
        self.vertex_local = np.zeros((0, 2))
        self.vertex_store = np.zeros(0, dtype=np.int64)
        self.grid_first = np.zeros(1, dtype=np.int64)
        self.grid_local = np.zeros((0, 2))              # grid origins
        self.grid_store = np.zeros(0, dtype=np.int64)   # grid numbers
        self.area_first = np.zeros(1, dtype=np.int64)
        self.area_store = np.zeros(0, dtype=np.int64)
        self.area_kind = np.zeros(0, dtype=np.int64)    # AREA_POLYGON or AREA_GRID
        self.area_ref = np.zeros((0, 2), dtype=np.int64)
        self.area_grid = np.zeros(0, dtype=np.int64)
        self.area_span = np.zeros((0, 2))               # a grid's width and height

    def add(self, store: "Store", members: IntArray) -> None:
        """Take the current coordinates of obstacles ``members`` as a new body's frame."""
        first = store.first_item.view()[members]
        count = store.item_count.view()[members]
        items = np.concatenate([np.arange(f, f + c) for f, c in zip(first, count)]
                               ).astype(np.int64)
        areas = store.area_of.view()[members]
        areas = areas[areas >= 0]
        kind = store.area_kind.view()[areas]
        ref = store.area_ref.view()[areas]
        polygons = ref[kind == _kw.AREA_POLYGON]
        vertices = np.concatenate([np.arange(f, f + c) for f, c in polygons]).astype(np.int64) \
            if len(polygons) else np.zeros(0, dtype=np.int64)
        grids = ref[kind == _kw.AREA_GRID, 0]
        frame = store.grid_frame.view()
        span = np.zeros((len(areas), 2))
        for row, (k, (g, _)) in enumerate(zip(kind, ref)):
            if k == _kw.AREA_GRID:
                rows, cols = store.grid_tables[g].shape
                span[row] = (cols * frame[g, 0], rows * frame[g, 0])
        self.pose = np.concatenate([self.pose, [[1.0, 0.0, 0.0, 0.0]]])
        still = np.zeros((1, _kw.MOTION))
        still[0, [0, 4]] = 1.0
        self.motion = np.concatenate([self.motion, still])
        local = store.item_geometry.view()[items]
        reach = [np.hypot(local[:, 0], local[:, 1]) + local[:, 4],
                 np.hypot(local[:, 2], local[:, 3]) + local[:, 4],
                 np.hypot(*store.polygon_vertices.view()[vertices].T)]
        for g, (w, h) in zip(ref[kind == _kw.AREA_GRID, 0], span[kind == _kw.AREA_GRID]):
            corners = frame[g, 1:3] + np.array([[0.0, 0.0], [w, 0.0], [0.0, h], [w, h]])
            reach.append(np.hypot(corners[:, 0], corners[:, 1]))
        self.extent = np.append(self.extent, max((float(r.max()) for r in reach if len(r)),
                                                 default=0.0))
        self.item_first = np.append(self.item_first, self.item_first[-1] + len(items))
        self.item_local, self.item_store = _grouped(
            [self.item_local, self.item_store],
            [store.item_geometry.view()[items, 0:4], items])
        self.item_packed = np.concatenate([self.item_packed, np.full(len(items), -1)])
        self.vertex_first = np.append(self.vertex_first, self.vertex_first[-1] + len(vertices))
        self.vertex_local, self.vertex_store = _grouped(
            [self.vertex_local, self.vertex_store],
            [store.polygon_vertices.view()[vertices], vertices])
        self.grid_first = np.append(self.grid_first, self.grid_first[-1] + len(grids))
        self.grid_local, self.grid_store = _grouped(
            [self.grid_local, self.grid_store], [frame[grids, 1:3], grids])
        self.area_first = np.append(self.area_first, self.area_first[-1] + len(areas))
        self.area_store, self.area_kind, self.area_ref, self.area_grid, self.area_span = \
            _grouped([self.area_store, self.area_kind, self.area_ref, self.area_grid,
                      self.area_span], [areas, kind, ref, ref[:, 0], span])

    def items(self) -> tuple[IntArray, FloatArray, IntArray, IntArray]:
        return self.item_first, self.item_local, self.item_store, self.item_packed

    def vertices(self) -> tuple[IntArray, FloatArray, IntArray]:
        return self.vertex_first, self.vertex_local, self.vertex_store

    def grids(self) -> tuple[IntArray, FloatArray, IntArray]:
        return self.grid_first, self.grid_local, self.grid_store

    def areas(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, FloatArray]:
        return (self.area_first, self.area_store, self.area_kind, self.area_ref,
                self.area_grid, self.area_span)
