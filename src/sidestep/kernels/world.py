"""Queries over a whole world: which obstacle is nearest, touched, or hit by a ray.

A world reaches the kernels as :class:`WorldArrays`. Its obstacles appear in
two forms:

* **items**: capsules ``[ax, ay, bx, by, thickness]`` (a circle is a capsule
  with ``a == b``; a wall has its collision distance as thickness; box,
  polygon and grid outlines are segments of thickness 0). Every sweep and
  every distance outside an obstacle is a segment query on items.
* **areas**: the solid insides of boxes, polygons and grids, needed only to
  tell inside from outside and how deep a point lies.

Every obstacle id owns one or more items and at most one area; ``alive[id]``
is 0 once it is removed.
"""
import math
from collections import namedtuple

import numpy as np
from numba import njit

from .box import contains_point_box, depth_point_box
from .grid import contains_point_grid, depth_point_grid
from .index import cell_coord, clamp, columns_capsule, lower_bound_outside, rows_capsule
from .polygon import contains_point_polygon, depth_point_polygon
from .segment import separation_point_segment, sweep_circle_segment

AREA_BOX = 0
AREA_POLYGON = 1
AREA_GRID = 2

#: How many areas containing one point a query remembers (to skip their
#: outlines); more than this many overlapping solid areas still give the right
#: clearance, only slower.
MAX_CONTAINING = 16

WorldArrays = namedtuple("WorldArrays", [
    "item_geometry",     # (n, 5) float64 [ax, ay, bx, by, thickness]
    "item_owner",        # (n,) int64 obstacle id of each item
    "items",             # Index over the items
    "area_kind",         # (a,) int64 AREA_BOX, AREA_POLYGON or AREA_GRID
    "area_owner",        # (a,) int64 obstacle id of each area
    "area_bounds",       # (a, 4) float64 [minx, miny, maxx, maxy]
    "area_ref",          # (a, 2) int64 polygon: (first vertex, count); grid: (grid, 0)
    "areas",             # Index over the area bounds
    "polygon_vertices",  # (m, 2) float64, every polygon's vertices in turn
    "grid_cells",        # (c,) uint8, every grid's table, row-major, in turn
    "grid_shape",        # (g, 3) int64 [rows, cols, offset into grid_cells]
    "grid_frame",        # (g, 3) float64 [cell_size, origin_x, origin_y]
    "alive",             # (ids,) uint8, 1 while the obstacle is in the world
])


@njit(cache=True)
def item_owner_alive(world, e):
    """Whether item ``e`` belongs to an obstacle still in the world."""
    return world.alive[world.item_owner[e]] != 0


@njit(cache=True)
def separation_item(world, e, px, py):
    """Signed separation of ``p`` from item ``e``: ``(separation, nx, ny, qx, qy)``."""
    g = world.item_geometry
    return separation_point_segment(px, py, g[e, 0], g[e, 1], g[e, 2], g[e, 3], g[e, 4])


@njit(cache=True)
def sweep_item(world, e, px, py, dx, dy, radius):
    """Disc of ``radius`` swept by ``d`` against item ``e``: ``(fraction, nx, ny)``."""
    g = world.item_geometry
    return sweep_circle_segment(px, py, dx, dy, radius + g[e, 4],
                                g[e, 0], g[e, 1], g[e, 2], g[e, 3])


@njit(cache=True)
def contains_area(world, a, px, py):
    """Whether ``p`` lies in the solid area ``a`` (box, polygon or grid)."""
    b = world.area_bounds
    if not contains_point_box(px, py, b[a, 0], b[a, 1], b[a, 2], b[a, 3]):
        return False
    kind = world.area_kind[a]
    if kind == AREA_BOX:
        return True
    if kind == AREA_POLYGON:
        return contains_point_polygon(px, py, world.polygon_vertices,
                                      world.area_ref[a, 0], world.area_ref[a, 1])
    g = world.area_ref[a, 0]
    rows, cols, offset = world.grid_shape[g, 0], world.grid_shape[g, 1], world.grid_shape[g, 2]
    s, ox, oy = world.grid_frame[g, 0], world.grid_frame[g, 1], world.grid_frame[g, 2]
    return contains_point_grid(px, py, world.grid_cells, offset, rows, cols, s, ox, oy)


@njit(cache=True)
def depth_area(world, a, px, py):
    """Depth of ``p`` inside area ``a``: ``(depth, nx, ny, qx, qy)``, normal = way out."""
    kind = world.area_kind[a]
    if kind == AREA_BOX:
        b = world.area_bounds
        return depth_point_box(px, py, b[a, 0], b[a, 1], b[a, 2], b[a, 3])
    if kind == AREA_POLYGON:
        return depth_point_polygon(px, py, world.polygon_vertices,
                                   world.area_ref[a, 0], world.area_ref[a, 1])
    g = world.area_ref[a, 0]
    rows, cols, offset = world.grid_shape[g, 0], world.grid_shape[g, 1], world.grid_shape[g, 2]
    s, ox, oy = world.grid_frame[g, 0], world.grid_frame[g, 1], world.grid_frame[g, 2]
    return depth_point_grid(px, py, world.grid_cells, offset, rows, cols, s, ox, oy)


@njit(cache=True)
def inside_areas(world, px, py, owners):
    """Solid areas containing ``p``.

    Writes up to ``len(owners)`` of their obstacle ids into ``owners`` and
    returns ``(count, separation, owner, nx, ny, qx, qy)`` for the deepest one
    (``separation = -depth``; ``owner = -1`` and ``inf`` when none).
    """
    count = 0
    best = math.inf
    bo = -1
    bnx = bny = bqx = bqy = 0.0
    index = world.areas
    if index.nx == 0:
        return count, best, bo, bnx, bny, bqx, bqy
    i = cell_coord(index, px, index.origin_x)
    j = cell_coord(index, py, index.origin_y)
    if i < 0 or j < 0 or i >= index.nx or j >= index.ny:
        return count, best, bo, bnx, bny, bqx, bqy
    k = j * index.nx + i
    for t in range(index.start[k], index.start[k + 1]):
        a = index.entries[t]
        owner = world.area_owner[a]
        if world.alive[owner] == 0 or not contains_area(world, a, px, py):
            continue
        if count < owners.shape[0]:
            owners[count] = owner
            count += 1
        depth, nx, ny, qx, qy = depth_area(world, a, px, py)
        if -depth < best:
            best = -depth
            bo = owner
            bnx, bny, bqx, bqy = nx, ny, qx, qy
    return count, best, bo, bnx, bny, bqx, bqy


@njit(cache=True)
def listed(values, count, value):
    """Whether ``value`` is among ``values[:count]`` (short lists: a linear scan)."""
    for t in range(count):
        if values[t] == value:
            return True
    return False


@njit(cache=True)
def probe_point(world, px, py, reach):
    """The most penetrated obstacle among those whose surface is within ``reach`` of ``p``.

    Returns ``(owner, separation, nx, ny, qx, qy)``: the smallest signed
    separation found (``owner = -1``, ``inf`` when nothing is that close).
    Cost: the cells within ``reach`` of ``p`` only.
    """
    owners = np.empty(MAX_CONTAINING, dtype=np.int64)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, owners)
    index = world.items
    if index.nx == 0:
        return bo, best, bnx, bny, bqx, bqy
    j0, j1 = rows_capsule(index, px, py, px, py, reach)
    for j in range(j0, j1 + 1):
        i0, i1 = columns_capsule(index, px, py, px, py, reach, j)
        for i in range(i0, i1 + 1):
            k = j * index.nx + i
            for t in range(index.start[k], index.start[k + 1]):
                e = index.entries[t]
                owner = world.item_owner[e]
                if world.alive[owner] == 0 or listed(owners, count, owner):
                    continue
                sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                if sep <= reach and sep < best:
                    best = sep
                    bo = owner
                    bnx, bny, bqx, bqy = nx, ny, qx, qy
    return bo, best, bnx, bny, bqx, bqy


@njit(cache=True)
def nearest_point(world, px, py):
    """Nearest obstacle surface to ``p``, however far: ``(owner, separation, nx, ny, qx, qy)``.

    Searches rings of broadphase cells outwards from ``p`` and stops when the
    cells not yet visited lie farther than the best surface found. ``owner`` is
    -1 (separation ``inf``) in an empty world.
    """
    owners = np.empty(MAX_CONTAINING, dtype=np.int64)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, owners)
    index = world.items
    if index.nx == 0:
        return bo, best, bnx, bny, bqx, bqy
    ci = clamp(cell_coord(index, px, index.origin_x), index.nx)
    cj = clamp(cell_coord(index, py, index.origin_y), index.ny)
    ring = 0
    while True:
        i0 = max(ci - ring, 0)
        i1 = min(ci + ring, index.nx - 1)
        j0 = max(cj - ring, 0)
        j1 = min(cj + ring, index.ny - 1)
        for j in range(j0, j1 + 1):
            edge_row = j == cj - ring or j == cj + ring
            for i in range(i0, i1 + 1):
                if not edge_row and i != ci - ring and i != ci + ring:
                    continue
                k = j * index.nx + i
                for t in range(index.start[k], index.start[k + 1]):
                    e = index.entries[t]
                    owner = world.item_owner[e]
                    if world.alive[owner] == 0 or listed(owners, count, owner):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    if sep < best:
                        best = sep
                        bo = owner
                        bnx, bny, bqx, bqy = nx, ny, qx, qy
        if best <= lower_bound_outside(index, px, py, i0, j0, i1, j1):
            break
        if i0 == 0 and j0 == 0 and i1 == index.nx - 1 and j1 == index.ny - 1:
            break
        ring += 1
    return bo, best, bnx, bny, bqx, bqy


@njit(cache=True)
def overlapping_owners(world, px, py, radius):
    """Ids of the live obstacles whose signed separation from ``p`` is ``<= radius``.

    Returns an int64 array, unsorted, without repeats.
    """
    owners = np.empty(MAX_CONTAINING, dtype=np.int64)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, owners)
    found = np.empty(16, dtype=np.int64)
    n = 0
    for t in range(count):
        found[n] = owners[t]
        n += 1
    index = world.items
    if index.nx == 0:
        return found[:n].copy()
    j0, j1 = rows_capsule(index, px, py, px, py, radius)
    for j in range(j0, j1 + 1):
        i0, i1 = columns_capsule(index, px, py, px, py, radius, j)
        for i in range(i0, i1 + 1):
            k = j * index.nx + i
            for t in range(index.start[k], index.start[k + 1]):
                e = index.entries[t]
                owner = world.item_owner[e]
                if world.alive[owner] == 0 or listed(found, n, owner):
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


@njit(cache=True)
def raycast_point(world, ox, oy, dx, dy, max_distance):
    """First obstacle surface along the ray ``o + distance * d`` (``d`` a unit vector).

    Returns ``(owner, distance, nx, ny)``; ``owner = -1``, ``inf`` for a miss
    within ``max_distance``. A ray that starts inside or on an obstacle hits it
    at distance 0 with that obstacle's way-out normal. Walks the broadphase
    cells along the ray (Amanatides and Woo) and stops at the first cell whose
    entry lies beyond the best hit.
    """
    # 1. Starting inside: the line of sight is blocked at once.
    bo, sep, nx, ny, qx, qy = probe_point(world, ox, oy, 0.0)
    if bo >= 0 and sep <= 0.0:
        return bo, 0.0, nx, ny
    index = world.items
    if index.nx == 0:
        return -1, math.inf, 0.0, 0.0
    s = index.cell_size
    gx0 = index.origin_x
    gy0 = index.origin_y
    gx1 = gx0 + index.nx * s
    gy1 = gy0 + index.ny * s
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
                return -1, math.inf, 0.0, 0.0
        else:
            ta = (lo - o) / d
            tb = (hi - o) / d
            if ta > tb:
                ta, tb = tb, ta
            t_in = max(t_in, ta)
            t_out = min(t_out, tb)
    if t_in > t_out:
        return -1, math.inf, 0.0, 0.0
    # Sweep vector: fractions of the whole ray, so one hit test per item.
    sx = dx * max_distance if max_distance < math.inf else dx * (t_out + s)
    sy = dy * max_distance if max_distance < math.inf else dy * (t_out + s)
    length = max_distance if max_distance < math.inf else t_out + s
    i = clamp(cell_coord(index, ox + dx * t_in, gx0), index.nx)
    j = clamp(cell_coord(index, oy + dy * t_in, gy0), index.ny)
    step_i = 1 if dx > 0.0 else -1
    step_j = 1 if dy > 0.0 else -1
    next_x = gx0 + (i + (1 if dx > 0.0 else 0)) * s
    next_y = gy0 + (j + (1 if dy > 0.0 else 0)) * s
    t_max_x = (next_x - ox) / dx if dx != 0.0 else math.inf
    t_max_y = (next_y - oy) / dy if dy != 0.0 else math.inf
    t_delta_x = s / abs(dx) if dx != 0.0 else math.inf
    t_delta_y = s / abs(dy) if dy != 0.0 else math.inf
    best = math.inf
    bo = -1
    bnx = bny = 0.0
    while True:
        k = j * index.nx + i
        for t in range(index.start[k], index.start[k + 1]):
            e = index.entries[t]
            owner = world.item_owner[e]
            if world.alive[owner] == 0:
                continue
            fraction, nx, ny = sweep_item(world, e, ox, oy, sx, sy, 0.0)
            if fraction * length < best:
                best = fraction * length
                bo = owner
                bnx, bny = nx, ny
        t_exit = min(t_max_x, t_max_y)
        if best <= t_exit or t_exit > t_out:
            break
        if t_max_x < t_max_y:
            i += step_i
            t_max_x += t_delta_x
            if i < 0 or i >= index.nx:
                break
        else:
            j += step_j
            t_max_y += t_delta_y
            if j < 0 or j >= index.ny:
                break
    if best > max_distance:
        return -1, math.inf, 0.0, 0.0
    return bo, best, bnx, bny


@njit(cache=True)
def _row_of(owners, count, owner):
    for t in range(count):
        if owners[t] == owner:
            return t
    return -1


@njit(cache=True)
def penetrations(world, px, py, radius, reach, owners, normals, separations, points):
    """Per obstacle, how a disc of ``radius`` at ``p`` stands against it.

    For every live obstacle whose surface comes within ``radius + reach`` of
    ``p`` (``reach`` may be 0: only the ones touched), one row: its id in
    ``owners``, ``separations`` = its signed separation minus ``radius``
    (negative: overlapping by that much), the unit normal out of it towards
    the agent in ``normals`` and the nearest surface point in ``points``. An
    obstacle made of several segments gets the row of its nearest one. Fills
    at most ``len(owners)`` rows and returns their count.
    """
    cap = owners.shape[0]
    inside = np.empty(MAX_CONTAINING, dtype=np.int64)
    n_inside = 0
    count = 0
    index = world.areas
    if index.nx > 0:
        i = cell_coord(index, px, index.origin_x)
        j = cell_coord(index, py, index.origin_y)
        if i >= 0 and j >= 0 and i < index.nx and j < index.ny:
            k = j * index.nx + i
            for t in range(index.start[k], index.start[k + 1]):
                a = index.entries[t]
                owner = world.area_owner[a]
                if world.alive[owner] == 0 or not contains_area(world, a, px, py):
                    continue
                if n_inside < MAX_CONTAINING:
                    inside[n_inside] = owner
                    n_inside += 1
                if count < cap and _row_of(owners, count, owner) < 0:
                    depth, nx, ny, qx, qy = depth_area(world, a, px, py)
                    owners[count] = owner
                    separations[count] = -depth - radius
                    normals[count, 0] = nx
                    normals[count, 1] = ny
                    points[count, 0] = qx
                    points[count, 1] = qy
                    count += 1
    index = world.items
    if index.nx == 0:
        return count
    j0, j1 = rows_capsule(index, px, py, px, py, radius + reach)
    for j in range(j0, j1 + 1):
        i0, i1 = columns_capsule(index, px, py, px, py, radius + reach, j)
        for i in range(i0, i1 + 1):
            k = j * index.nx + i
            for t in range(index.start[k], index.start[k + 1]):
                e = index.entries[t]
                owner = world.item_owner[e]
                if world.alive[owner] == 0 or listed(inside, n_inside, owner):
                    continue
                sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                sep -= radius
                if sep > reach:
                    continue
                row = _row_of(owners, count, owner)
                if row < 0:
                    if count == cap:
                        continue
                    row = count
                    count += 1
                    owners[row] = owner
                elif separations[row] <= sep:
                    continue
                separations[row] = sep
                normals[row, 0] = nx
                normals[row, 1] = ny
                points[row, 0] = qx
                points[row, 1] = qy
    return count


@njit(cache=True, nogil=True)
def nearest_points(world, points, owner, separation, normal, surface, first, stop):
    """:func:`nearest_point` for rows ``first:stop`` of ``points (n, 2)``, into the outputs."""
    for p in range(first, stop):
        o, sep, nx, ny, qx, qy = nearest_point(world, points[p, 0], points[p, 1])
        owner[p] = o
        separation[p] = sep
        normal[p, 0] = nx
        normal[p, 1] = ny
        surface[p, 0] = qx
        surface[p, 1] = qy


@njit(cache=True, nogil=True)
def raycast_points(world, origins, directions, max_distance, owner, distance, normal, point,
                   first, stop):
    """:func:`raycast_point` for rays ``first:stop`` (unit ``directions``), into the outputs.

    ``point`` gets the hit point ``origin + distance * direction`` (NaN on a miss).
    """
    for r in range(first, stop):
        o, d, nx, ny = raycast_point(world, origins[r, 0], origins[r, 1], directions[r, 0],
                                     directions[r, 1], max_distance[r])
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
