"""The packed obstacle arrays of a world and their broadphase, rebuilt lazily.

Obstacles go in as validated arrays; :meth:`Store.pack` hands the kernels the
world as one flat buffer (see :func:`~sidestep.kernels.world.unpack_world`)
and rebuilds the broadphase only after obstacles were added (removal just
clears the ``alive`` flag). Which obstacles a query sees comes beside the
buffer, as :meth:`Store.live` (removal and layer masks alike).
"""
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._types import FloatArray, IntArray
from .bodies import Bodies
from .body_parts import BodyParts
from .layers import ALL, Seen
from .kernels import world as _kw
from .kernels.grid import pyramid_grid
from .kernels.index import Index, fill_index_boxes, fill_index_capsules, frame_capsules
from .kernels.segment import corner_codes_one_sided

FAMILIES = ("circle", "wall", "box", "polygon", "grid")

#: Broadphase cells are at least this many times the mean spacing between
#: obstacles (and at least as large as the typical obstacle).
CELL_FACTOR = 1.0

#: Room (world units) added around each capsule when it is put in the cells
#: it touches, so that rounding at a cell border never leaves it out.
_INDEX_PAD = 1e-6


class Growable:
    """A numpy array with amortised appends along its first axis."""

    def __init__(self, shape_tail: tuple[int, ...] = (), dtype: DTypeLike = np.float64) -> None:
        self.data: NDArray[Any] = np.empty((16,) + shape_tail, dtype=dtype)
        self.size = 0

    def extend(self, rows: NDArray[Any]) -> None:
        need = self.size + len(rows)
        if need > len(self.data):
            grown = np.empty((max(need, 2 * len(self.data)),) + self.data.shape[1:],
                             dtype=self.data.dtype)
            grown[:self.size] = self.data[:self.size]
            self.data = grown
        self.data[self.size:need] = rows
        self.size = need

    def view(self) -> NDArray[Any]:
        return self.data[:self.size]


class Store:
    """Obstacle arrays (structure of arrays) with stable integer ids."""

    def __init__(self) -> None:
        self.item_geometry = Growable((_kw.ITEM,))   # [ax, ay, bx, by, thickness, one-sided]
        self.item_owner = Growable((), np.int64)
        self.area_kind = Growable((), np.int64)
        self.area_owner = Growable((), np.int64)
        self.area_bounds = Growable((4,))
        self.area_ref = Growable((2,), np.int64)
        self.polygon_vertices = Growable((2,))
        self.grid_tables: list[NDArray[np.uint8]] = []   # per grid: (rows, cols) uint8
        self.grid_frame = Growable((_kw.FRAME,))    # cell_size, origin_x, origin_y, cos, sin
        self.alive = Growable((), np.uint8)
        self.layer = Growable((), np.uint8)      # per obstacle id, 0..31
        self._seen = Seen()
        self.family = Growable((), np.int8)
        self.first_item = Growable((), np.int64)
        self.item_count = Growable((), np.int64)
        self.area_of = Growable((), np.int64)
        self._packed: FloatArray | None = None
        self._parts = BodyParts()
        self.bodies = Bodies(2)
        self._moving_stale = False      # bodies moved since their grid was written
        self._packed_row = np.zeros(0, dtype=np.int64)   # item -> its row in the packed world
        self._moving_items = np.zeros(0, dtype=np.int64)  # the bodies' items, packed order
        self._moving_areas = np.zeros(0, dtype=np.int64)  # the bodies' areas
        #: Counts the changes to the obstacles (adds, removals, layers, bodies' poses): a
        #: crowd keeps its agents at rest only while it stays the same.
        self.version = 0
        #: Counts the same changes but the bodies' poses: what never moves, and which
        #: obstacles a query sees, stay the same while it does (a crowd's open cells,
        #: :meth:`live`).
        self.shapes = 0

    # ------------------------------------------------------------------ adding
    def add(self, family: str, items_per_obstacle: int, items: FloatArray,
            area: tuple[IntArray, FloatArray, IntArray] | None = None,
            count: int | None = None, layer: NDArray[np.uint8] | int = 0) -> IntArray:
        """Append obstacles of one ``family``; returns their ids.

        ``items (count * items_per_obstacle, 5)`` are their capsules in order
        (a sixth column, 1 for a one-sided wall, may follow; ``count``
        defaults to ``len(items) // items_per_obstacle``); ``area``
        is ``None`` or ``(kind (n,), bounds (n, 4), ref (n, 2))``; ``layer`` one
        checked layer or ``(n,) uint8`` of them.
        """
        n = count if count is not None else len(items) // items_per_obstacle
        first_id = self.alive.size
        ids = np.arange(first_id, first_id + n, dtype=np.int64)
        first = self.item_geometry.size
        if items.shape[1] < _kw.ITEM:
            items = np.column_stack([items, np.zeros(len(items))])
        self.item_geometry.extend(items)
        self.item_owner.extend(np.repeat(ids, items_per_obstacle))
        self.alive.extend(np.ones(n, dtype=np.uint8))
        self.layer.extend(np.broadcast_to(np.asarray(layer, dtype=np.uint8), (n,)))
        self.family.extend(np.full(n, FAMILIES.index(family), dtype=np.int8))
        self.first_item.extend(first + items_per_obstacle * np.arange(n, dtype=np.int64))
        self.item_count.extend(np.full(n, items_per_obstacle, dtype=np.int64))
        if area is None:
            self.area_of.extend(np.full(n, -1, dtype=np.int64))
        else:
            kind, bounds, ref = area
            self.area_of.extend(self.area_kind.size + np.arange(n, dtype=np.int64))
            self.area_kind.extend(kind)
            self.area_owner.extend(ids)
            self.area_bounds.extend(bounds)
            self.area_ref.extend(ref)
        self._packed = None
        self.version += 1
        self.shapes += 1
        return ids

    def add_polygon_vertices(self, vertices: FloatArray) -> tuple[int, int]:
        """Store a polygon's vertices; returns ``(first, count)`` for its area ref."""
        first = self.polygon_vertices.size
        self.polygon_vertices.extend(vertices)
        return first, len(vertices)

    def add_grid_table(self, blocked: NDArray[np.bool_], cell_size: float,
                       origin: FloatArray) -> int:
        """Store a grid's table and frame; returns its grid number."""
        self.grid_tables.append(np.ascontiguousarray(blocked, dtype=np.uint8))
        self.grid_frame.extend(np.array([[cell_size, origin[0], origin[1], 1.0, 0.0]]))
        return len(self.grid_tables) - 1

    def remove(self, ids: IntArray) -> None:
        """Mark ``ids`` removed (the broadphase skips them; no rebuild needed, unless a
        one-sided wall goes: its neighbours' corners change)."""
        self.alive.data[ids] = 0
        self.version += 1
        self.shapes += 1
        first = self.first_item.data[ids]
        if np.any(self.item_geometry.data[first, 5] != 0):
            self._packed = None

    def set_layers(self, ids: IntArray, layers: NDArray[np.uint8]) -> None:
        """Put obstacles ``ids`` on ``layers`` (checked, ``(n,) uint8``)."""
        self.layer.data[ids] = layers
        self.version += 1
        self.shapes += 1

    def live(self, mask: int = ALL) -> NDArray[np.uint8]:
        """The flags a query with ``mask`` reads beside :meth:`pack` (see
        :func:`~sidestep.kernels.world.unpack_world`): ``(ids + 1,) uint8``."""
        return self._seen.flags(self.alive.view(), self.layer.view(), self.shapes, mask)

    def nbytes(self) -> int:
        """Bytes held: the obstacle arrays (with their spare capacity) and the packed copy."""
        held = sum(v.data.nbytes for v in vars(self).values() if isinstance(v, Growable))
        held += sum(t.nbytes for t in self.grid_tables)
        return held + (self._packed.nbytes if self._packed is not None else 0)

    # --------------------------------------------------------------- packing
    def pack(self) -> FloatArray:
        """The world as kernels take it: one float64 buffer (see
        :func:`~sidestep.kernels.world.unpack_world`); rebuilds the broadphase if
        obstacles were added, and the bodies' grid if bodies moved."""
        if self._packed is None:
            self._packed = self._build()
        elif self._moving_stale and not self._write_moving(self._packed):
            self._packed = self._build()        # the bodies outgrew the room kept for them
        self._moving_stale = False
        return self._packed

    # ---------------------------------------------------------------- bodies
    def make_body(self, ids: IntArray) -> int:
        """Make obstacles ``ids`` (checked: known, live) one body; returns its number.

        Their coordinates now are the body's frame. A box's solid area becomes
        the polygon of its corners (a turned box is no longer axis-aligned).
        One-sided walls (the level's edge) cannot move: ``ValueError``.
        """
        first = self.first_item.view()[ids]
        one_sided = self.item_geometry.view()[first, 5] != 0
        if np.any(one_sided):
            raise ValueError(f"obstacle {int(ids[np.argmax(one_sided)])} is a one-sided wall "
                             "(the level's edge): it cannot be in a body")
        body = self.bodies.add(ids, self.alive.size)
        for i in self.bodies.members[body]:
            a = int(self.area_of.data[i])
            if a >= 0 and self.area_kind.data[a] == _kw.AREA_BOX:
                lox, loy, hix, hiy = self.area_bounds.data[a]
                corners = np.array([[lox, loy], [hix, loy], [hix, hiy], [lox, hiy]])
                self.area_ref.data[a] = self.add_polygon_vertices(corners)
                self.area_kind.data[a] = _kw.AREA_POLYGON
        self._parts.add(self, self.bodies.members[body])
        self._packed = None          # its items and areas go to the bodies' grids
        self.version += 1
        self.shapes += 1
        return body

    def pose_bodies(self, bodies: IntArray, positions: FloatArray, angles: FloatArray,
                    dt: float) -> None:
        """Put checked ``bodies (k,)`` at ``positions (k, 2)``, turned by ``angles (k,)``."""
        parts = self._parts
        b = self.bodies
        b.count += 1
        blob = self._packed
        packed = blob is not None
        if blob is not None:
            ints, floats, _ = split_blob(blob)
            offsets = (int(ints[_kw.H_F_GEOMETRY]), int(ints[_kw.H_F_VERTICES]),
                       int(ints[_kw.H_F_FRAME]), int(ints[_kw.H_F_BOUNDS]))
            motions = int(ints[_kw.H_F_MOTIONS])
        else:
            floats, offsets, motions = np.zeros(1), (0, 0, 0, 0), 0
        record, pose = _POSES or _pose_kernels()
        reach = record(bodies, positions, angles, dt, b.count, parts.pose, parts.motion,
                       parts.extent, b.position, b.rotation, b.previous_position,
                       b.previous_rotation, b.dt, b.stamp, floats, motions, packed)
        pose(bodies, parts.pose, *parts.items(), *parts.vertices(), *parts.grids(),
             *parts.areas(), self.item_geometry.view(), self.polygon_vertices.view(),
             self.grid_frame.view(), self.area_bounds.view(), floats, *offsets, _kw.ITEM,
             packed)
        if packed:
            ints[_kw.H_STAMP] = b.count
            floats[int(ints[_kw.H_F_INDEX]) + 12] = reach
        self._moving_stale = True
        self.version += 1

    def _build(self) -> FloatArray:
        bounds = self.area_bounds.view()
        # Every grid's table (with its pyramid of solid blocks) in turn, and
        # (rows, cols, offset) of each.
        tables = [pyramid_grid(t) for t in self.grid_tables]
        cells = np.concatenate(tables) if tables else np.zeros(0, dtype=np.int32)
        sizes = [len(t) for t in tables]
        shapes = np.array([(t.shape[0], t.shape[1], off) for t, off in
                           zip(self.grid_tables, np.cumsum([0] + sizes[:-1]))],
                          dtype=np.int64).reshape(-1, 3)
        owner = self.item_owner.view()
        geometry = _with_corners(self.item_geometry.view(), self.alive.view()[owner] != 0)
        # Packed items: first those that never move, then the bodies', each in the
        # order of the cells they lie in (Morton order), so the obstacles one query
        # reads sit together in memory. The bodies' have a grid of their own.
        body_of = self.bodies.body_of
        in_body = np.zeros(len(owner), dtype=bool)
        if len(body_of):
            in_body[owner < len(body_of)] = body_of[owner[owner < len(body_of)]] >= 0
        still = np.flatnonzero(~in_body)
        moving = np.flatnonzero(in_body)
        still = still[_spatial_order(geometry[still])]
        moving = moving[_spatial_order(geometry[moving])]
        order = np.concatenate([still, moving])
        self._packed_row = np.empty(len(order), dtype=np.int64)
        self._packed_row[order] = np.arange(len(order))
        self._parts.item_packed = self._packed_row[self._parts.item_store]
        self._moving_items = moving
        area_owner = self.area_owner.view()
        area_moving = np.zeros(len(area_owner), dtype=bool)
        if len(body_of):
            area_moving = body_of[area_owner] >= 0
        self._moving_areas = np.flatnonzero(area_moving)
        geometry = geometry[order]
        items = _build_index_capsules(geometry[:len(still)], bounds[~area_moving])
        areas = _area_index(items, bounds, np.flatnonzero(~area_moving))
        moving_items, moving_areas = self._moving_index(geometry[len(still):], len(still))
        # Room for the bodies' grid to be rewritten in place as they move: as many
        # cells as _build_index_capsules ever makes for them, twice the entries.
        room = (4 * len(moving) + 1024 if len(moving) else 0,
                2 * len(moving_items.entries) + 64, 2 * len(moving_areas.entries) + 64)
        blob = _flatten(geometry, owner[order], items, self.area_kind.view(), area_owner,
                        bounds, self.area_ref.view(), areas, self.polygon_vertices.view(),
                        cells, shapes, self.grid_frame.view(), self.alive.view(),
                        moving_items, moving_areas, room, self._body_table())
        return blob

    def _body_table(self) -> tuple[IntArray, FloatArray, int, float]:
        """The bodies as the packed world holds them: each obstacle's body (-1: none),
        each body's last motion, the latest stamp, the farthest any moved."""
        body_of = np.full(self.alive.size, -1, dtype=np.int64)
        known = self.bodies.body_of
        body_of[:len(known)] = known
        motion = self._parts.motion
        reach = float(motion[:, _kw.M_REACH].max()) if len(motion) else 0.0
        return body_of, motion, self.bodies.count, reach

    def _moving_index(self, geometry: FloatArray, first: int) -> tuple[Index, Index]:
        """The bodies' grids: over their items ``geometry`` (packed from row ``first``) and
        over their areas' bounds."""
        bounds = self.area_bounds.view()
        if not len(geometry):
            empty = Index(0.0, 0.0, 1.0, 0, 0, np.zeros(1, dtype=np.int64),
                          np.zeros(0, dtype=np.int32))
            return empty, empty
        items = _build_index_capsules(geometry, bounds[self._moving_areas])
        items = items._replace(entries=(items.entries + first).astype(np.int32))
        return items, _area_index(items, bounds, self._moving_areas)

    def _write_moving(self, blob: FloatArray) -> bool:
        """Rewrite the bodies' grids in ``blob`` for their poses now; False if they
        no longer fit the room kept for them."""
        ints, floats, small = split_blob(blob)
        first = int(ints[_kw.H_ITEMS]) - len(self._moving_items)
        items, areas = self._moving_index(self.item_geometry.view()[self._moving_items], first)
        n = items.nx * items.ny
        if n > ints[_kw.H_MOVING_CELLS_ROOM] or len(items.entries) > ints[_kw.H_S_MOVING_ROOM] \
                or len(areas.entries) > ints[_kw.H_S_MOVING_AREAS_ROOM]:
            return False
        f = int(ints[_kw.H_F_INDEX])
        floats[f + 6:f + 12] = (items.origin_x, items.origin_y, items.cell_size,
                                areas.origin_x, areas.origin_y, areas.cell_size)
        ints[_kw.H_MOVING_NX] = items.nx
        ints[_kw.H_MOVING_NY] = items.ny
        for index, start, entries in ((items, _kw.H_I_MOVING_START, _kw.H_S_MOVING),
                                      (areas, _kw.H_I_MOVING_AREAS_START,
                                       _kw.H_S_MOVING_AREAS)):
            at = int(ints[start])
            ints[at:at + len(index.start)] = index.start
            at = int(ints[entries])
            small[at:at + len(index.entries)] = index.entries
        return True


def _area_index(items: Index, bounds: FloatArray, areas: IntArray) -> Index:
    """The grid of areas ``areas`` (their ``bounds``) in the frame of grid ``items``."""
    if items.nx == 0:
        return items._replace(entries=np.zeros(0, dtype=np.int32))
    start, entries = fill_index_boxes(items.origin_x, items.origin_y, items.cell_size,
                                      items.nx, items.ny, np.ascontiguousarray(bounds[areas]))
    return Index(items.origin_x, items.origin_y, items.cell_size, items.nx, items.ny, start,
                 areas[entries].astype(np.int32))


_POSES: tuple[Any, ...] = ()


def _pose_kernels() -> tuple[Any, ...]:
    # record_poses_2d and pose_bodies_2d for their registered signatures, called without
    # the dispatcher (sidestep.kernels.direct): a frame's set_poses calls both with
    # arrays the store made (C-contiguous int64 and float64) and checked poses.
    global _POSES
    from .kernels.direct import registered
    _POSES = (registered("poses:record_poses_2d"), registered("poses:pose_bodies_2d"))
    return _POSES


def split_blob(blob: FloatArray) -> tuple[IntArray, FloatArray, NDArray[np.int32]]:
    """The int64, float64 and int32 parts of a packed world, as numpy views of ``blob``."""
    n_ints = int(blob[:_kw.HEADER].view(np.int64)[_kw.H_N_INTS])
    n_floats = int(blob[:_kw.HEADER].view(np.int64)[_kw.H_N_FLOATS])
    return (blob[:n_ints].view(np.int64), blob[n_ints:n_ints + n_floats],
            blob[n_ints + n_floats:].view(np.int32))


def _flatten(geometry: FloatArray, owner: IntArray, items: Any, kind: IntArray,
             area_owner: IntArray, bounds: FloatArray, ref: IntArray, areas: Any,
             vertices: FloatArray, cells: NDArray[np.int32], shape: IntArray, frame: FloatArray,
             alive: NDArray[np.uint8], moving: Index, moving_areas: Index,
             room: tuple[int, int, int],
             bodies: tuple[IntArray, FloatArray, int, float]) -> FloatArray:
    """One flat buffer in the layout :func:`~sidestep.kernels.world.unpack_world` reads.

    ``moving`` and ``moving_areas`` are the bodies' grids, written into room
    for ``room = (cells, item entries, area entries)`` so that they can be
    rewritten in place as the bodies move (:meth:`Store._write_moving`);
    ``bodies`` is :meth:`Store._body_table`.
    """
    body_of, motion, stamp, reach = bodies
    header = np.zeros(_kw.HEADER, dtype=np.int64)
    header[[_kw.H_ITEMS, _kw.H_AREAS, _kw.H_VERTICES, _kw.H_GRIDS, _kw.H_IDS]] = \
        [len(geometry), len(kind), len(vertices), len(shape), len(alive)]
    header[[_kw.H_ITEMS_NX, _kw.H_ITEMS_NY, _kw.H_AREAS_NX, _kw.H_AREAS_NY]] = \
        [items.nx, items.ny, areas.nx, areas.ny]
    header[[_kw.H_MOVING_NX, _kw.H_MOVING_NY]] = [moving.nx, moving.ny]
    header[[_kw.H_BODIES, _kw.H_STAMP]] = [len(motion), stamp]
    header[[_kw.H_MOVING_CELLS_ROOM, _kw.H_S_MOVING_ROOM, _kw.H_S_MOVING_AREAS_ROOM]] = room
    index_params = np.array([items.origin_x, items.origin_y, items.cell_size,
                             areas.origin_x, areas.origin_y, areas.cell_size,
                             moving.origin_x, moving.origin_y, moving.cell_size,
                             moving_areas.origin_x, moving_areas.origin_y,
                             moving_areas.cell_size, reach])

    def roomy(values: NDArray[Any], size: int) -> NDArray[Any]:
        out = np.zeros(max(size, len(values)), dtype=values.dtype)
        out[:len(values)] = values
        return out

    float_parts = [(_kw.H_F_GEOMETRY, geometry), (_kw.H_F_BOUNDS, bounds),
                   (_kw.H_F_VERTICES, vertices), (_kw.H_F_FRAME, frame),
                   (_kw.H_F_INDEX, index_params), (_kw.H_F_MOTIONS, motion)]
    int_parts = [(_kw.H_I_OWNER, owner), (_kw.H_I_KIND, kind), (_kw.H_I_AREA_OWNER, area_owner),
                 (_kw.H_I_REF, ref), (_kw.H_I_SHAPE, shape), (_kw.H_I_ITEMS_START, items.start),
                 (_kw.H_I_AREAS_START, areas.start),
                 (_kw.H_I_MOVING_START, roomy(moving.start, room[0] + 1)),
                 (_kw.H_I_MOVING_AREAS_START, roomy(moving_areas.start, room[0] + 1)),
                 (_kw.H_I_BODY_OF, body_of)]
    small_parts = [(_kw.H_S_ITEMS, items.entries), (_kw.H_S_AREAS, areas.entries),
                   (_kw.H_S_CELLS, cells),
                   (_kw.H_S_MOVING, roomy(moving.entries, room[1])),
                   (_kw.H_S_MOVING_AREAS, roomy(moving_areas.entries, room[2]))]
    header[_kw.H_S_ITEMS_N] = len(items.entries)
    header[_kw.H_S_AREAS_N] = len(areas.entries)
    header[_kw.H_S_CELLS_N] = len(cells)
    header[_kw.H_ONE_SIDED] = int(np.count_nonzero((geometry[:, 5] != 0) & (alive[owner] != 0)))

    def join(parts: list[tuple[int, NDArray[Any]]], dtype: DTypeLike,
             at: int = 0) -> list[NDArray[Any]]:
        chunks = []
        for slot, arr in parts:
            header[slot] = at
            flat = np.ascontiguousarray(arr, dtype=dtype).reshape(-1)
            chunks.append(flat)
            at += len(flat)
        return chunks

    floats = np.concatenate(join(float_parts, np.float64) + [np.zeros(1)])
    int_chunks = join(int_parts, np.int64, at=_kw.HEADER)
    small = np.concatenate(join(small_parts, np.int32) + [np.zeros(1, np.int32)])
    if len(small) % 2:
        small = np.concatenate([small, np.zeros(1, np.int32)])   # whole float64 words
    n_ints = _kw.HEADER + sum(len(c) for c in int_chunks)
    header[_kw.H_N_INTS] = n_ints
    header[_kw.H_N_FLOATS] = len(floats)
    # One float64 buffer: the int64 words, the floats, then the int32 pairs.
    blob = np.empty(n_ints + len(floats) + len(small) // 2)
    ints = blob[:n_ints].view(np.int64)
    ints[:] = np.concatenate([header] + int_chunks)
    blob[n_ints:n_ints + len(floats)] = floats
    blob[n_ints + len(floats):].view(np.int32)[:] = small
    return blob


def _with_corners(geometry: FloatArray, alive: NDArray[np.bool_]) -> FloatArray:
    """``geometry`` with the side codes of its live one-sided walls, corners included.

    Walls meet where one's end equals another's start exactly; a corner met
    by more than one wall either way (the boundary touching itself) is left
    open, the safe choice (see
    :func:`~sidestep.kernels.segment.separation_point_wall_one_sided`).
    """
    one = np.flatnonzero((geometry[:, 5] != 0) & alive)
    if not len(one):
        return geometry
    seg = geometry[one, 0:4]
    ends = np.concatenate([seg[:, 0:2], seg[:, 2:4]])
    _, vertex, count = np.unique(ends, axis=0, return_inverse=True, return_counts=True)
    vertex = vertex.reshape(-1)
    at_start, at_end = vertex[:len(one)], vertex[len(one):]
    starts_here = np.bincount(at_start, minlength=len(count))
    ends_here = np.bincount(at_end, minlength=len(count))
    single = (starts_here == 1) & (ends_here == 1)
    ender = np.full(len(count), -1, dtype=np.int64)
    ender[at_end] = np.arange(len(one))
    starter = np.full(len(count), -1, dtype=np.int64)
    starter[at_start] = np.arange(len(one))
    before = np.where(single[at_start], ender[at_start], -1)
    after = np.where(single[at_end], starter[at_end], -1)
    out = geometry.copy()
    out[one, 5] = corner_codes_one_sided(np.ascontiguousarray(seg), before, after)
    return out


def _spatial_order(geometry: FloatArray) -> IntArray:
    """Order of items along a Z (Morton) curve over their midpoints, on a 65536^2 lattice."""
    if len(geometry) < 2:
        return np.arange(len(geometry))
    mid = 0.5 * (geometry[:, 0:2] + geometry[:, 2:4])
    lo = mid.min(axis=0)
    span = np.maximum(mid.max(axis=0) - lo, 1e-300)
    cell = np.minimum((mid - lo) / span * 65535.0, 65535.0).astype(np.uint64)
    key = np.zeros(len(mid), dtype=np.uint64)
    for bit in range(16):
        key |= ((cell[:, 0] >> np.uint64(bit)) & np.uint64(1)) << np.uint64(2 * bit)
        key |= ((cell[:, 1] >> np.uint64(bit)) & np.uint64(1)) << np.uint64(2 * bit + 1)
    return np.argsort(key, kind="stable")


def _build_index_capsules(geometry: FloatArray, area_bounds: FloatArray) -> Any:
    """Choose the cell size and build the item broadphase over the world's box
    (:func:`~sidestep.kernels.index.frame_capsules`: cells about as large as the typical
    obstacle and at least as large as the mean spacing between obstacles, so a query
    touches a few cells holding a few obstacles each, at any world size; fewer than four
    cells per obstacle)."""
    n = len(geometry)
    if n == 0:
        empty = np.zeros(1, dtype=np.int64)
        return Index(0.0, 0.0, 1.0, 0, 0, empty, np.zeros(0, dtype=np.int32))
    geometry = np.ascontiguousarray(geometry)
    ox, oy, cell, nx, ny = frame_capsules(geometry, np.ascontiguousarray(area_bounds),
                                          CELL_FACTOR)
    start, entries = fill_index_capsules(ox, oy, cell, nx, ny, geometry, _INDEX_PAD)
    return Index(ox, oy, cell, nx, ny, start, entries)
