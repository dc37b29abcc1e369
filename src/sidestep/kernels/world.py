"""Queries over a whole world: which obstacle is nearest, touched, or hit by a ray.

A world reaches the kernels as a :class:`PackedWorld`. Its obstacles appear
in two forms:

* **items**: capsules ``[ax, ay, bx, by, thickness, sides]`` (a circle is a
  capsule with ``a == b``; a wall has its collision distance as thickness; box,
  polygon and grid outlines are segments of thickness 0; ``sides`` is a
  :mod:`~sidestep.kernels.segment` side code, non-zero only for one-sided
  walls, whose back counts as inside). Every sweep and every distance outside
  an obstacle is a segment query on items.
* **areas**: the solid insides of boxes, polygons and grids, needed only to
  tell inside from outside and how deep a point lies.

Every obstacle id owns items (none for a grid with nothing blocked) and at most
one area; its ``alive`` flag is 0 once it is removed.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from .borrow import borrow
from .box import contains_point_box, depth_point_box
from .grid import contains_point_grid, depth_point_grid
from .index import cell_coord, clamp, columns_capsule, lower_bound_outside, rows_capsule
from .polygon import contains_point_polygon, depth_point_polygon
from .row_queue import next_rows
from .segment import (TWO_SIDED, separation_point_segment, separation_point_wall_one_sided,
                      sweep_circle_segment, sweep_from_end_wall_one_sided,
                      within_reach_motion_segment, within_reach_point_segment)

AREA_BOX = 0
AREA_POLYGON = 1
AREA_GRID = 2

#: How many areas containing one point a query remembers (to skip their
#: outlines); more than this many overlapping solid areas still give the right
#: clearance, only slower.
MAX_CONTAINING = 16

#: Contact rows one query or slide pass handles at once; more obstacles than
#: this touching one agent are not met in practice (a disc touches at most six
#: equal discs).
MAX_PLANES = 32

# A world crosses into the kernels as one flat buffer, read as three parts
# (float64 ``floats``, int64 ``ints``, int32 ``small``) plus plain numbers
# saying where each array starts. Numba counts references on every array a
# function receives, and checks the type of every argument of a call from
# Python, so a record of two dozen arrays cost more than the geometry of a
# whole move; one buffer and offsets cost next to nothing.
PackedWorld = namedtuple("PackedWorld", [
    "floats", "ints", "small",
    "n_items",      # capsules
    "n_areas",      # solid areas
    "n_ids",        # obstacle ids ever given
    "removed",      # whether any obstacle is unseen: removed, or off the query's layers
    "one_sided",    # whether any live wall is one-sided (the world has a void)
    "geometry",     # floats: item e is [ax, ay, bx, by, thickness, sides] at geometry + ITEM e
    "owner",        # ints: obstacle id of item e at owner + e
    "live",         # (ids + 1,) uint8: 1 while obstacle id i is in the world and on a layer
                    # the query sees, then 1 if any obstacle is not (else ``removed`` is False)
    "area_kind",    # ints: AREA_BOX, AREA_POLYGON or AREA_GRID of area a
    "area_owner",   # ints: obstacle id of area a
    "area_ref",     # ints: 2 per area; polygon: (first vertex, count); grid: (grid, 0)
    "area_bounds",  # floats: 4 per area [minx, miny, maxx, maxy]
    "vertices",     # floats: polygon vertex v is (x, y) at vertices + 2 v
    "grid_shape",   # ints: 3 per grid [rows, cols, offset of its table in small]
    "grid_frame",   # floats: FRAME per grid [cell_size, origin_x, origin_y, cos, sin]
    "grid_cells",   # small: where the grid tables begin (grid_shape offsets count from here)
    "items",        # Cells over the items that never move
    "areas",        # Cells over the bounds of the areas that never move
    "moving",       # Cells over the items of bodies (rebuilt after their poses change)
    "moving_areas",  # Cells over the bounds of the bodies' areas
    "body_of",      # ints: the body of obstacle id i (-1: none) at body_of + i
    "motions",      # floats: MOTION per body, its last set_pose (see MOTION)
    "n_bodies",
    "stamp",        # the latest set_pose's number (0: none yet)
    "reach",        # how far any body's material moved in its last set_pose, at most
    "only",         # >= 0: the query sees that body alone (:func:`only_body`)
    "skip",         # >= 0: the query does not see that body (:func:`without_body`)
])

#: A broadphase grid inside a packed world: its frame, and where its cell
#: starts (``ints``, ``nx * ny + 1`` of them) and cell entries (``small``) begin.
Cells = namedtuple("Cells", ["origin_x", "origin_y", "cell_size", "nx", "ny", "start", "entries"])

# Header at the start of ``ints``: counts, grid sizes, offsets (see unpack_world).
H_ITEMS, H_AREAS, H_VERTICES, H_GRIDS, H_IDS = 0, 1, 2, 3, 4
H_ITEMS_NX, H_ITEMS_NY, H_AREAS_NX, H_AREAS_NY = 5, 6, 7, 8
H_F_GEOMETRY, H_F_BOUNDS, H_F_VERTICES, H_F_FRAME, H_F_INDEX = 9, 10, 11, 12, 13
H_I_OWNER, H_I_KIND, H_I_AREA_OWNER, H_I_REF, H_I_SHAPE = 14, 15, 16, 17, 18
H_I_ITEMS_START, H_I_AREAS_START = 19, 20
H_S_ITEMS, H_S_ITEMS_N, H_S_AREAS, H_S_AREAS_N, H_S_CELLS, H_S_CELLS_N = \
    21, 22, 23, 24, 25, 26
# The bodies' broadphase (rebuilt in place, in room kept for it, when they move): its
# grid's size, where its cell starts (ints) and entries (small) begin, the room kept.
H_MOVING_NX, H_MOVING_NY = 27, 28
H_N_INTS, H_N_FLOATS = 29, 30   # sizes of the int64 and float64 parts of the buffer
H_ONE_SIDED = 31   # how many live one-sided walls (level boundary pieces) there are
H_I_MOVING_START, H_I_MOVING_AREAS_START, H_S_MOVING, H_S_MOVING_AREAS = 32, 33, 34, 35
H_MOVING_CELLS_ROOM, H_S_MOVING_ROOM, H_S_MOVING_AREAS_ROOM = 36, 37, 38
H_I_BODY_OF, H_F_MOTIONS, H_BODIES, H_STAMP = 39, 40, 41, 42
HEADER = 48

#: Floats per body in the packed world: its last ``set_pose`` as the pose before and
#: after, ``[cos0, sin0, x0, y0, cos1, sin1, x1, y1]``, the turn between them
#: (radians, the shorter way), how far its material moved at most, and the pose's
#: number (see :mod:`sidestep.kernels.carry`).
MOTION = 11
M_TURN, M_REACH, M_STAMP = 8, 9, 10

#: Floats of the broadphase grids' frames at ``H_F_INDEX``: (origin x, origin y, cell
#: size) of the items', the areas', the moving items' and the moving areas' grids.
INDEX_FLOATS = 13     # and, last, the most any body's material moved in its last pose
#: Floats per grid frame: ``[cell_size, origin_x, origin_y, cos, sin]`` (a grid in a
#: turned body: the table's axes are its frame's, turned by (cos, sin)).
FRAME = 5

#: Floats per item in the packed geometry: ``[ax, ay, bx, by, thickness, sides]``.
ITEM = 6


@njit(cache=True, forceinline=False)
def unpack_world(blob, live):
    """The :class:`PackedWorld` stored in one float64 buffer, as a query with ``live`` sees it.

    ``blob`` holds, in turn, the int64 words (header first), the floats, and
    the int32 values in pairs; views of each part are borrowed
    (:mod:`~sidestep.kernels.borrow`): the caller keeps ``blob`` and ``live``
    alive while the kernel runs. ``live (ids + 1,) uint8`` says which
    obstacles the query sees (:meth:`sidestep.storage.Store.live`: the alive
    flags, filtered by the query's layer mask) and, last, whether any is
    unseen; a removed obstacle and one off the mask are skipped alike.
    """
    words = blob.view(np.int64)
    n_ints = words[H_N_INTS]
    n_floats = words[H_N_FLOATS]
    ints = words[:n_ints]
    floats = blob[n_ints:n_ints + n_floats]
    small = blob[n_ints + n_floats:].view(np.int32)
    h = ints
    f = h[H_F_INDEX]
    items = Cells(floats[f], floats[f + 1], floats[f + 2], h[H_ITEMS_NX], h[H_ITEMS_NY],
                  h[H_I_ITEMS_START], h[H_S_ITEMS])
    areas = Cells(floats[f + 3], floats[f + 4], floats[f + 5], h[H_AREAS_NX], h[H_AREAS_NY],
                  h[H_I_AREAS_START], h[H_S_AREAS])
    moving = Cells(floats[f + 6], floats[f + 7], floats[f + 8], h[H_MOVING_NX],
                   h[H_MOVING_NY], h[H_I_MOVING_START], h[H_S_MOVING])
    moving_areas = Cells(floats[f + 9], floats[f + 10], floats[f + 11], h[H_MOVING_NX],
                         h[H_MOVING_NY], h[H_I_MOVING_AREAS_START], h[H_S_MOVING_AREAS])
    return PackedWorld(borrow(floats), borrow(ints), borrow(small), h[H_ITEMS], h[H_AREAS],
                       h[H_IDS], live[h[H_IDS]] != 0, h[H_ONE_SIDED] != 0,
                       h[H_F_GEOMETRY], h[H_I_OWNER], borrow(live), h[H_I_KIND],
                       h[H_I_AREA_OWNER], h[H_I_REF], h[H_F_BOUNDS], h[H_F_VERTICES],
                       h[H_I_SHAPE], h[H_F_FRAME], h[H_S_CELLS], items, areas, moving,
                       moving_areas, h[H_I_BODY_OF], h[H_F_MOTIONS], h[H_BODIES], h[H_STAMP],
                       floats[f + 12], -1, -1)


@njit(cache=True, inline="always")
def borrowed(world):
    """``world`` with its three buffers borrowed again (see :func:`unpack_world`).

    A compiled callee cannot see that its caller's views are borrowed; every
    kernel that takes a world and is not inlined calls this first, so the
    views it takes of the buffers are not reference counted (as
    :func:`sidestep.kernels3d.world.borrowed`).
    """
    return PackedWorld(borrow(world.floats), borrow(world.ints), borrow(world.small),
                       *world[3:10], borrow(world.live), *world[11:])


# Scratch: two flat buffers per thread (or per agent) so hot kernels never
# allocate. Offsets of each part:
S_NORMALS = 0                        # floats, (MAX_PLANES, 2) contact normals
S_SEPARATIONS = 2 * MAX_PLANES       # floats, (MAX_PLANES,) separations
S_POINTS = 3 * MAX_PLANES            # floats, (MAX_PLANES, 2) surface points
S_BOUNDS = 5 * MAX_PLANES            # floats, (MAX_PLANES,) plane bounds
SCRATCH_FLOATS = 6 * MAX_PLANES
S_INSIDE = 0                         # ints, (MAX_CONTAINING,) ids of areas containing a point
S_OWNERS = MAX_CONTAINING            # ints, (MAX_PLANES,) obstacle id per contact row
S_ITEMS = MAX_CONTAINING + MAX_PLANES  # ints, (MAX_PLANES,) item per contact plane
SCRATCH_INTS = MAX_CONTAINING + 2 * MAX_PLANES


@njit(cache=True, forceinline=False, inline="always")
def cell_span(world, cells, k):
    """Range ``[lo, hi)`` of cell ``k``'s entries in ``world.small``."""
    return (cells.entries + world.ints[cells.start + k],
            cells.entries + world.ints[cells.start + k + 1])


@njit(cache=True, forceinline=False, inline="always")
def row_span(world, cells, j, i0, i1):
    """Range ``[lo, hi)`` in ``world.small`` of the entries of cells ``i0..i1`` of row ``j``,
    in the order :func:`cell_span` reads them cell by cell (the cells of a row are stored
    one after another): one loop instead of two. Empty when ``i0 > i1``."""
    k = cells.start + j * cells.nx
    return (cells.entries + world.ints[k + i0],
            cells.entries + world.ints[k + max(i1 + 1, i0)])


@njit(cache=True, forceinline=False, inline="always")
def item_owner(world, e):
    """Obstacle id of item ``e``."""
    return world.ints[world.owner + e]


@njit(cache=True, forceinline=False, inline="always")
def is_alive(world, obstacle):
    """Whether obstacle id ``obstacle`` is in the world, on a layer the query sees, and in
    the part of the world it sees (:func:`only_body`, :func:`without_body`)."""
    if world.live[obstacle] == 0:
        return False
    if world.only < 0 and world.skip < 0:
        return True
    body = world.ints[world.body_of + obstacle]
    return (world.only < 0 or body == world.only) and (world.skip < 0 or body != world.skip)


@njit(cache=True, forceinline=False, inline="always")
def only_body(world, body):
    """``world`` as a query that sees body ``body`` alone sees it (the grids of what never
    moves left out: nothing there is seen)."""
    none = Cells(world.items.origin_x, world.items.origin_y, world.items.cell_size, 0, 0,
                 world.items.start, world.items.entries)
    return PackedWorld(world.floats, world.ints, world.small, world.n_items, world.n_areas,
                       world.n_ids, True, world.one_sided, *world[8:19], none, none,
                       *world[21:28], body, world.skip)


@njit(cache=True, forceinline=False, inline="always")
def still_part(world):
    """``world`` without its bodies' grids: what never moves (areas counted as before)."""
    none = Cells(world.moving.origin_x, world.moving.origin_y, world.moving.cell_size, 0, 0,
                 world.moving.start, world.moving.entries)
    return PackedWorld(*world[:19], world.items, world.areas, none, none, *world[23:])


@njit(cache=True, forceinline=False, inline="always")
def without_body(world, body):
    """``world`` as a query that does not see body ``body`` sees it."""
    return PackedWorld(world.floats, world.ints, world.small, world.n_items, world.n_areas,
                       world.n_ids, True, *world[7:28], world.only, body)


@njit(cache=True, forceinline=False, inline="always")
def item_owner_alive(world, e):
    """Whether item ``e`` belongs to an obstacle still in the world.

    Skips two scattered memory reads per item while nothing was ever removed.
    """
    return not world.removed or is_alive(world, item_owner(world, e))


@njit(cache=True, forceinline=False, inline="always")
def item_geometry(world, e):
    """Item ``e`` as ``(ax, ay, bx, by, thickness)``."""
    g = world.floats
    o = world.geometry + ITEM * e
    return g[o], g[o + 1], g[o + 2], g[o + 3], g[o + 4]


@njit(cache=True, forceinline=False, inline="always")
def item_sides(world, e):
    """Side code of item ``e`` (:data:`~sidestep.kernels.segment.TWO_SIDED`, or one-sided bits)."""
    return int(world.floats[world.geometry + ITEM * e + 5])


@njit(cache=True, forceinline=False, inline="always")
def item_within_reach(world, e, px, py, reach):
    """Whether ``p`` may lie within ``reach`` of item ``e``'s surface (conservative filter)."""
    ax, ay, bx, by, t = item_geometry(world, e)
    return within_reach_point_segment(px, py, ax, ay, bx, by, reach + t)


@njit(cache=True, forceinline=False, inline="always")
def item_within_reach_motion(world, e, px, py, dx, dy, length, reach):
    """Whether item ``e``'s surface may come within ``reach`` of the motion ``p -> p + d``
    of ``length`` ``|d|`` (conservative filter,
    :func:`~sidestep.kernels.segment.within_reach_motion_segment`)."""
    ax, ay, bx, by, t = item_geometry(world, e)
    return within_reach_motion_segment(px, py, dx, dy, length, ax, ay, bx, by, reach + t)


@njit(cache=True, forceinline=False)
def separation_item(world, e, px, py):
    """Signed separation of ``p`` from item ``e``: ``(separation, nx, ny, qx, qy)``.

    Negative inside a capsule. A one-sided wall counts as a capsule here, as
    in every sweep and contact: no agent crosses it either way. Only the
    signed distance to the level's boundary (:func:`nearest_point`) and the
    free spots of a recovery tell its back (the void) from its front.
    """
    world = borrowed(world)
    ax, ay, bx, by, t = item_geometry(world, e)
    return separation_point_segment(px, py, ax, ay, bx, by, t)


@njit(cache=True, forceinline=False)
def sweep_item(world, e, px, py, dx, dy, radius):
    """Disc of ``radius`` swept by ``d`` against item ``e``: ``(fraction, nx, ny)``.

    A disc centred exactly on an end of a one-sided wall (a point camera on
    a corner of the level's edge) is judged by that end's corner
    (:func:`~sidestep.kernels.segment.sweep_from_end_wall_one_sided`), not
    by the capsule, whose normal is undefined there.
    """
    world = borrowed(world)
    ax, ay, bx, by, t = item_geometry(world, e)
    at_start = px == ax and py == ay
    if (at_start or (px == bx and py == by)) and radius + t > 0.0:
        code = item_sides(world, e)
        if code != TWO_SIDED and (ax != bx or ay != by):
            return sweep_from_end_wall_one_sided(dx, dy, ax, ay, bx, by, at_start, code)
    return sweep_circle_segment(px, py, dx, dy, radius + t, ax, ay, bx, by)


@njit(cache=True, forceinline=False, inline="always")
def area_bounds(world, a):
    """Bounding box of area ``a``: ``(minx, miny, maxx, maxy)``."""
    o = world.area_bounds + 4 * a
    b = world.floats
    return b[o], b[o + 1], b[o + 2], b[o + 3]


@njit(cache=True, forceinline=False, inline="always")
def area_ref(world, a):
    """Area ``a``'s reference: polygon ``(first vertex, count)`` or grid ``(grid, 0)``."""
    return world.ints[world.area_ref + 2 * a], world.ints[world.area_ref + 2 * a + 1]


@njit(cache=True, forceinline=False, inline="always")
def grid_frame(world, g):
    """Grid ``g`` as ``(rows, cols, offset in small, cell_size, origin_x, origin_y, cos,
    sin)``: its table's axes are the world's turned by ``(cos, sin)`` (a grid in a body)."""
    i = world.grid_shape + 3 * g
    f = world.grid_frame + FRAME * g
    return (world.ints[i], world.ints[i + 1], world.grid_cells + world.ints[i + 2],
            world.floats[f], world.floats[f + 1], world.floats[f + 2], world.floats[f + 3],
            world.floats[f + 4])


@njit(cache=True, forceinline=False, inline="always")
def into_frame(px, py, ox, oy, c, s):
    """``p`` in a frame at ``o`` turned by ``(c, s)``: ``R^T (p - o)``, as the frame's
    ``(x, y)`` (the frame's origin left at ``o``: add it back for the table's
    coordinates)."""
    dx = px - ox
    dy = py - oy
    return ox + c * dx + s * dy, oy - s * dx + c * dy


@njit(cache=True, forceinline=False)
def contains_area(world, a, px, py):
    """Whether ``p`` lies in the solid area ``a`` (box, polygon or grid)."""
    world = borrowed(world)
    minx, miny, maxx, maxy = area_bounds(world, a)
    if not contains_point_box(px, py, minx, miny, maxx, maxy):
        return False
    kind = world.ints[world.area_kind + a]
    if kind == AREA_BOX:
        return True
    r0, r1 = area_ref(world, a)
    if kind == AREA_POLYGON:
        return contains_point_polygon(px, py, world.floats, world.vertices + 2 * r0, r1)
    rows, cols, offset, s, ox, oy, c, sn = grid_frame(world, r0)
    if sn != 0.0 or c != 1.0:       # a turned grid: the point in the grid's frame
        px, py = into_frame(px, py, ox, oy, c, sn)
    return contains_point_grid(px, py, world.small, offset, rows, cols, s, ox, oy)


@njit(cache=True, forceinline=False)
def depth_area(world, a, px, py):
    """Depth of ``p`` inside area ``a``: ``(depth, nx, ny, qx, qy)``, normal = way out."""
    world = borrowed(world)
    kind = world.ints[world.area_kind + a]
    if kind == AREA_BOX:
        minx, miny, maxx, maxy = area_bounds(world, a)
        return depth_point_box(px, py, minx, miny, maxx, maxy)
    r0, r1 = area_ref(world, a)
    if kind == AREA_POLYGON:
        return depth_point_polygon(px, py, world.floats, world.vertices + 2 * r0, r1)
    rows, cols, offset, s, ox, oy, c, sn = grid_frame(world, r0)
    if sn == 0.0 and c == 1.0:
        return depth_point_grid(px, py, world.small, offset, rows, cols, s, ox, oy)
    # A turned grid: the depth in its frame, the way out and the free point turned back.
    lx, ly = into_frame(px, py, ox, oy, c, sn)
    depth, nx, ny, qx, qy = depth_point_grid(lx, ly, world.small, offset, rows, cols, s,
                                             ox, oy)
    qx -= ox
    qy -= oy
    return (depth, c * nx - sn * ny, sn * nx + c * ny, ox + c * qx - sn * qy,
            oy + sn * qx + c * qy)


@njit(cache=True, forceinline=False)
def inside_areas(world, px, py, owners, first):
    """Solid areas containing ``p``.

    Writes up to ``MAX_CONTAINING`` of their obstacle ids into
    ``owners[first:]`` and returns ``(count, separation, owner, nx, ny, qx, qy)``
    for the deepest one (``separation = -depth``; ``owner = -1`` and ``inf``
    when none).
    """
    world = borrowed(world)
    count = 0
    best = math.inf
    bo = -1
    bnx = bny = bqx = bqy = 0.0
    for grid in range(2):       # the areas that never move, then the bodies'
        cells = world.areas if grid == 0 else world.moving_areas
        if cells.nx == 0:
            continue
        i = cell_coord(cells, px, cells.origin_x)
        j = cell_coord(cells, py, cells.origin_y)
        if i < 0 or j < 0 or i >= cells.nx or j >= cells.ny:
            continue
        lo, hi = cell_span(world, cells, j * cells.nx + i)
        for t in range(lo, hi):
            a = np.int64(world.small[t])
            owner = world.ints[world.area_owner + a]
            if not is_alive(world, owner) or not contains_area(world, a, px, py):
                continue
            if count < MAX_CONTAINING:
                owners[first + count] = owner
                count += 1
            depth, nx, ny, qx, qy = depth_area(world, a, px, py)
            if -depth < best:
                best = -depth
                bo = owner
                bnx, bny, bqx, bqy = nx, ny, qx, qy
    return count, best, bo, bnx, bny, bqx, bqy


@njit(cache=True, forceinline=False, inline="always")
def listed(values, first, count, value):
    """Whether ``value`` is among ``values[first:first + count]`` (a short linear scan)."""
    for t in range(first, first + count):
        if values[t] == value:
            return True
    return False


@njit(cache=True, forceinline=False)
def probe_point(world, px, py, reach, work_ints):
    """The most penetrated obstacle among those whose surface is within ``reach`` of ``p``.

    Returns ``(owner, separation, nx, ny, qx, qy)``: the smallest signed
    separation found (``owner = -1``, ``inf`` when nothing is that close).
    Cost: the cells within ``reach`` of ``p`` only. ``work_ints`` is scratch
    (``(SCRATCH_INTS,) int64``).
    """
    world = borrowed(world)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, work_ints, S_INSIDE)
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px, py, reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px, py, reach, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    e = np.int64(world.small[t])
                    if not item_owner_alive(world, e) or (count > 0 and listed(
                            work_ints, S_INSIDE, count, item_owner(world, e))):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    if sep <= reach and sep < best:
                        best = sep
                        bo = item_owner(world, e)
                        bnx, bny, bqx, bqy = nx, ny, qx, qy
    return bo, best, bnx, bny, bqx, bqy


@njit(cache=True, forceinline=False)
def separation_one_sided(world, e, px, py):
    """Signed separation of ``p`` from the one-sided wall item ``e`` (negative behind it)."""
    world = borrowed(world)
    ax, ay, bx, by, t = item_geometry(world, e)
    return separation_point_wall_one_sided(px, py, ax, ay, bx, by, t, item_sides(world, e))


@njit(cache=True, forceinline=False)
def _behind_more(world, e, other, px, py):
    # Of two one-sided walls equally near p (at a shared corner), whether e
    # says p lies deeper (its answer is more negative): the one to believe.
    world = borrowed(world)
    return separation_one_sided(world, e, px, py)[0] < \
        separation_one_sided(world, other, px, py)[0]


@njit(cache=True, forceinline=False, inline="always")
def nearest_point(world, px, py, work_ints):
    """Nearest obstacle surface to ``p``, however far: ``(owner, separation, nx, ny, qx, qy)``.

    Searches rings of broadphase cells outwards from ``p`` and stops when the
    cells not yet visited lie farther than the best surface found. ``owner`` is
    -1 (separation ``inf``) in an empty world. ``work_ints`` is scratch.

    The one-sided walls together are the level's boundary, one surface: its
    signed distance is the distance to the nearest of them, negative when
    that one has ``p`` behind it
    (:func:`~sidestep.kernels.segment.separation_point_wall_one_sided`); a
    wall farther off with ``p`` behind it (the far side of a hole) does not
    count.
    """
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, work_ints, S_INSIDE)
    # The nearest one-sided wall (as a capsule): its item and separation.
    edge = np.int64(-1)
    edge_sep = math.inf
    for grid in range(2):       # the items that never move, then the bodies' (no farther
        cells = world.items if grid == 0 else world.moving     # than the best found)
        if cells.nx == 0:
            continue
        ci = clamp(cell_coord(cells, px, cells.origin_x), cells.nx)
        cj = clamp(cell_coord(cells, py, cells.origin_y), cells.ny)
        ring = 0
        while True:
            i0 = max(ci - ring, 0)
            i1 = min(ci + ring, cells.nx - 1)
            j0 = max(cj - ring, 0)
            j1 = min(cj + ring, cells.ny - 1)
            for j in range(j0, j1 + 1):
                edge_row = j == cj - ring or j == cj + ring
                for i in range(i0, i1 + 1):
                    if not edge_row and i != ci - ring and i != ci + ring:
                        continue
                    lo, hi = cell_span(world, cells, j * cells.nx + i)
                    for t in range(lo, hi):
                        e = np.int64(world.small[t])
                        if not item_owner_alive(world, e) or (count > 0 and listed(
                                work_ints, S_INSIDE, count, item_owner(world, e))):
                            continue
                        sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                        if world.one_sided and item_sides(world, e) != TWO_SIDED:
                            if sep < edge_sep or (sep == edge_sep and
                                                  _behind_more(world, e, edge, px, py)):
                                edge_sep = sep
                                edge = e
                        elif sep < best:
                            best = sep
                            bo = item_owner(world, e)
                            bnx, bny, bqx, bqy = nx, ny, qx, qy
            if min(best, edge_sep) <= lower_bound_outside(cells, px, py, i0, j0, i1, j1):
                break
            if i0 == 0 and j0 == 0 and i1 == cells.nx - 1 and j1 == cells.ny - 1:
                break
            ring += 1
    if edge >= 0:
        sep, nx, ny, qx, qy = separation_one_sided(world, edge, px, py)
        if sep < best:
            return item_owner(world, edge), sep, nx, ny, qx, qy
    return bo, best, bnx, bny, bqx, bqy


@njit(cache=True, forceinline=False)
def overlapping_owners(blob, live, px, py, radius):
    """Ids of the live obstacles whose signed separation from ``p`` is ``<= radius``.

    Returns an int64 array, unsorted, without repeats. The world comes
    packed (:func:`unpack_world`).
    """
    world = unpack_world(blob, live)
    work = np.empty(SCRATCH_INTS, dtype=np.int64)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, work, S_INSIDE)
    found = np.empty(16 + count, dtype=np.int64)
    n = 0
    for t in range(count):
        found[n] = work[S_INSIDE + t]
        n += 1
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px, py, radius)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px, py, radius, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    e = np.int64(world.small[t])
                    owner = item_owner(world, e)
                    if not is_alive(world, owner) or listed(found, 0, n, owner):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    if sep <= radius:
                        if n == found.shape[0]:
                            grown = np.empty(2 * n, dtype=np.int64)
                            grown[:n] = found
                            found = grown
                        found[n] = owner
                        n += 1
    return found[:n].copy()


@njit(cache=True, forceinline=False)
def raycast_point(world, ox, oy, dx, dy, max_distance, work_ints):
    """First obstacle surface along the ray ``o + distance * d`` (``d`` a unit vector).

    Returns ``(owner, distance, nx, ny)``; ``owner = -1``, ``inf`` for a miss
    within ``max_distance``. A ray that starts inside or on an obstacle hits it
    at distance 0 with that obstacle's way-out normal. Walks the broadphase
    cells along the ray (Amanatides and Woo), those of the obstacles that
    never move, then those of the bodies', and stops at the first cell whose
    entry lies beyond the best hit.
    """
    world = borrowed(world)
    # 1. Starting inside: the line of sight is blocked at once.
    bo, sep, nx, ny, qx, qy = probe_point(world, ox, oy, 0.0, work_ints)
    if bo >= 0 and sep <= 0.0:
        return bo, 0.0, nx, ny
    best = math.inf
    bo = -1
    bnx = bny = 0.0
    for grid in range(2):
        cells = world.items if grid == 0 else world.moving
        if cells.nx > 0:
            best, bo, bnx, bny = _walk_ray(world, cells, ox, oy, dx, dy, max_distance,
                                           best, bo, bnx, bny)
    if best > max_distance:
        return -1, math.inf, 0.0, 0.0
    return bo, best, bnx, bny


@njit(cache=True, forceinline=False)
def _walk_ray(world, cells, ox, oy, dx, dy, max_distance, best, bo, bnx, bny):
    # The cells of one broadphase grid along the ray, as raycast_point says; returns the
    # best hit (distance, owner, normal) so far.
    world = borrowed(world)
    s = cells.cell_size
    gx0 = cells.origin_x
    gy0 = cells.origin_y
    gx1 = gx0 + cells.nx * s
    gy1 = gy0 + cells.ny * s
    # 2. Clip the ray to the grid's box (slab test) to find where walking starts.
    t_in = 0.0
    t_out = max_distance
    for axis in range(2):
        o = ox if axis == 0 else oy
        d = dx if axis == 0 else dy
        lo = gx0 if axis == 0 else gy0
        hi = gx1 if axis == 0 else gy1
        if d == 0.0:
            if o < lo or o > hi:
                return best, bo, bnx, bny
        else:
            ta = (lo - o) / d
            tb = (hi - o) / d
            if ta > tb:
                ta, tb = tb, ta
            t_in = max(t_in, ta)
            t_out = min(t_out, tb)
    if t_in > t_out or t_in > best:
        return best, bo, bnx, bny
    # Sweep vector: fractions of the whole ray, so one hit test per item.
    length = max_distance if max_distance < math.inf else t_out + s
    sx = dx * length
    sy = dy * length
    i = clamp(cell_coord(cells, ox + dx * t_in, gx0), cells.nx)
    j = clamp(cell_coord(cells, oy + dy * t_in, gy0), cells.ny)
    step_i = 1 if dx > 0.0 else -1
    step_j = 1 if dy > 0.0 else -1
    next_x = gx0 + (i + (1 if dx > 0.0 else 0)) * s
    next_y = gy0 + (j + (1 if dy > 0.0 else 0)) * s
    t_max_x = (next_x - ox) / dx if dx != 0.0 else math.inf
    t_max_y = (next_y - oy) / dy if dy != 0.0 else math.inf
    t_delta_x = s / abs(dx) if dx != 0.0 else math.inf
    t_delta_y = s / abs(dy) if dy != 0.0 else math.inf
    while True:
        lo, hi = cell_span(world, cells, j * cells.nx + i)
        for t in range(lo, hi):
            e = np.int64(world.small[t])
            if not item_owner_alive(world, e):
                continue
            fraction, nx, ny = sweep_item(world, e, ox, oy, sx, sy, 0.0)
            if fraction * length < best:
                best = fraction * length
                bo = item_owner(world, e)
                bnx, bny = nx, ny
        t_exit = min(t_max_x, t_max_y)
        if best <= t_exit or t_exit > t_out:
            break
        if t_max_x < t_max_y:
            i += step_i
            t_max_x += t_delta_x
            if i < 0 or i >= cells.nx:
                break
        else:
            j += step_j
            t_max_y += t_delta_y
            if j < 0 or j >= cells.ny:
                break
    return best, bo, bnx, bny


@njit(cache=True, forceinline=False, inline="always")
def _row_of(values, first, count, value):
    for t in range(first, first + count):
        if values[t] == value:
            return t - first
    return -1


@njit(cache=True, forceinline=False)
def penetrations(world, px, py, radius, reach, work_floats, work_ints):
    """Per obstacle, how a disc of ``radius`` at ``p`` stands against it.

    For every live obstacle whose surface comes within ``radius + reach`` of
    ``p`` (``reach`` may be 0: only the ones touched), one contact row in the
    scratch buffers: its id (``work_ints[S_OWNERS + row]``), its signed
    separation minus ``radius`` (``work_floats[S_SEPARATIONS + row]``,
    negative: overlapping by that much), the unit normal out of it towards the
    agent (``S_NORMALS``) and the nearest surface point (``S_POINTS``). An
    obstacle made of several segments gets the row of its nearest one. Fills
    at most ``MAX_PLANES`` rows and returns their count.
    """
    world = borrowed(world)
    wf = work_floats
    wi = work_ints
    count = 0
    n_inside, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, wi, S_INSIDE)
    # 1. Areas containing p: their depth, not their outline, is the separation.
    for grid in range(2 if n_inside > 0 else 0):     # never moving, then the bodies'
        cells = world.areas if grid == 0 else world.moving_areas
        i = cell_coord(cells, px, cells.origin_x)
        j = cell_coord(cells, py, cells.origin_y)
        if cells.nx == 0 or i < 0 or j < 0 or i >= cells.nx or j >= cells.ny:
            continue
        lo, hi = cell_span(world, cells, j * cells.nx + i)
        for t in range(lo, hi):
            a = np.int64(world.small[t])
            owner = world.ints[world.area_owner + a]
            if count == MAX_PLANES or not listed(wi, S_INSIDE, n_inside, owner) or \
                    _row_of(wi, S_OWNERS, count, owner) >= 0 or \
                    not contains_area(world, a, px, py):
                continue
            depth, nx, ny, qx, qy = depth_area(world, a, px, py)
            wi[S_OWNERS + count] = owner
            wf[S_SEPARATIONS + count] = -depth - radius
            wf[S_NORMALS + 2 * count] = nx
            wf[S_NORMALS + 2 * count + 1] = ny
            wf[S_POINTS + 2 * count] = qx
            wf[S_POINTS + 2 * count + 1] = qy
            count += 1
    # 2. Capsules near p, nearest one per obstacle.
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px, py, radius + reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px, py, radius + reach, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    e = np.int64(world.small[t])
                    if not item_owner_alive(world, e):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    sep -= radius
                    if sep > reach:
                        continue
                    owner = item_owner(world, e)
                    if n_inside > 0 and listed(wi, S_INSIDE, n_inside, owner):
                        continue
                    row = _row_of(wi, S_OWNERS, count, owner)
                    if row < 0:
                        if count == MAX_PLANES:
                            continue
                        row = count
                        count += 1
                        wi[S_OWNERS + row] = owner
                    elif wf[S_SEPARATIONS + row] <= sep:
                        continue
                    wf[S_SEPARATIONS + row] = sep
                    wf[S_NORMALS + 2 * row] = nx
                    wf[S_NORMALS + 2 * row + 1] = ny
                    wf[S_POINTS + 2 * row] = qx
                    wf[S_POINTS + 2 * row + 1] = qy
    return count


@njit(cache=True, forceinline=False, nogil=True)
def nearest_points(blob, live, points, owner, separation, normal, surface, queue):
    """:func:`nearest_point` for the rows of ``points (n, 2)`` taken from ``queue``.

    The world comes packed (:func:`unpack_world`); ``queue`` is a
    :mod:`~sidestep.kernels.row_queue` shared by the threads.
    """
    world = unpack_world(blob, live)
    work_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    work = borrow(work_buffer)   # no reference counting per point (kept alive below)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for p in range(first, stop):
            o, sep, nx, ny, qx, qy = nearest_point(world, points[p, 0], points[p, 1], work)
            owner[p] = o
            separation[p] = sep
            normal[p, 0] = nx
            normal[p, 1] = ny
            surface[p, 0] = qx
            surface[p, 1] = qy
    work_buffer[0] = 0


@njit(cache=True, forceinline=False, nogil=True)
def raycast_points(blob, live, origins, directions, max_distance, owner, distance, normal, point,
                   queue):
    """:func:`raycast_point` for the rays taken from ``queue`` (unit ``directions``).

    ``point`` gets the hit point ``origin + distance * direction`` (NaN on a miss).
    The world comes packed (:func:`unpack_world`); ``queue`` is a
    :mod:`~sidestep.kernels.row_queue` shared by the threads.
    """
    world = unpack_world(blob, live)
    work_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    work = borrow(work_buffer)   # no reference counting per ray (kept alive below)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for r in range(first, stop):
            o, d, nx, ny = raycast_point(world, origins[r, 0], origins[r, 1],
                                         directions[r, 0], directions[r, 1], max_distance[r],
                                         work)
            owner[r] = o
            distance[r] = d
            normal[r, 0] = nx
            normal[r, 1] = ny
            if o >= 0:
                point[r, 0] = origins[r, 0] + d * directions[r, 0]
                point[r, 1] = origins[r, 1] + d * directions[r, 1]
            else:
                point[r, 0] = math.nan
                point[r, 1] = math.nan
    work_buffer[0] = 0
