"""Shape casts in 2D: where a disc swept along a straight motion first touches an obstacle.

A cast moves the disc of ``radius`` from ``p`` by ``d`` and stops at its first
contact, with no slide: the third-person camera's spring arm, a dash, a thick
bullet. A ray is the cast of a disc of radius 0.

**Exact to the skin, never late.** The time of impact is exact (each item's
sweep solves its quadratic, :func:`~sidestep.kernels.world.sweep_item`), and
the answer then backs off along the motion by :data:`BACK_OFF` skins: the disc
at ``p + fraction * d`` never overlaps anything (rounding in the time of
impact is far below a quarter skin at any coordinate the tolerances allow;
at a grazing contact, where backing off gains little separation, rounding
the time of impact changes the separation only to second order), and it
stands off the surface by at most a quarter skin (head-on), less at a
grazing angle. A start a quarter skin or less before a contact answers 0.

A disc that starts touching or overlapping an obstacle (signed separation
``<= 0``: its centre inside a box, polygon or grid, or its rim on or over any
item's surface) stops at once, fraction 0, with the deepest such obstacle, its
surface point and the way out of it. One-sided walls (the level's edge) count
as the move kernels count them: a capsule that no disc crosses either way;
one touched from behind (the void) answers the way back to the walkable side.
"""
import math

import numpy as np
from numba import njit

from .borrow import borrow
from .index import columns_capsule, rows_capsule
from .row_queue import next_rows
from .segment import TWO_SIDED
from .world import (S_INSIDE, SCRATCH_INTS, borrowed, inside_areas, item_owner,
                    item_owner_alive, item_sides, item_within_reach,
                    item_within_reach_motion, listed, row_span, separation_item,
                    separation_one_sided, sweep_item, unpack_world)

#: How far (in skins, along the motion) a cast stops before its exact time of
#: impact. The exact time of impact is rounded by about 1e-16 of the
#: coordinates (1e-8 at the 1e8 the tolerances are meant for, a
#: twenty-fifth of a quarter skin), so a stop there could be a rounding
#: step inside; a
#: quarter skin back is never inside, and is where a slide's safety net
#: already lets agents end (:data:`sidestep.tolerances.SKIN`), so a move or a
#: cast from the stop sees the obstacle as a contact, not as an overlap.
BACK_OFF = 0.25

#: Broadphase cells per stretch of a long cast: the motion is walked a
#: stretch at a time, nearest first, and the walk ends at the first stretch
#: within which a contact is already known (Amanatides and Woo's early exit,
#: in stretches of cells rather than single cells so a disc's width costs
#: no extra bookkeeping).
_STRETCH = 2.0

#: Lengths of the motion still open between which the walk filters items by the
#: motion's box (:func:`~sidestep.kernels.world.item_within_reach_motion`);
#: outside them (a motion shorter than 1e-100 or longer than 1e100, or a contact
#: found that near the start) by the disc around the start that the motion
#: stays in, whose squares neither underflow nor overflow there.
_MOTION_LO = 1e-100
_MOTION_HI = 1e100


@njit(cache=True, forceinline=False)
def start_contact(world, px, py, radius, work_ints):
    """The deepest obstacle a disc of ``radius`` at ``p`` touches or overlaps.

    Returns ``(owner, separation, nx, ny, qx, qy)``: the smallest signed
    separation of the centre ``p`` (negative inside a solid area, minus
    the depth) among the obstacles within ``radius`` of it, the unit way
    out of that obstacle and its surface point nearest ``p``; ``owner = -1``
    and ``inf`` when the disc touches nothing. A one-sided wall touched is
    measured as :func:`~sidestep.kernels.world.separation_one_sided`
    measures it (negative behind it, the way out towards its walkable side).
    ``work_ints (SCRATCH_INTS,) int64`` is scratch.
    """
    world = borrowed(world)
    count, best, bo, bnx, bny, bqx, bqy = inside_areas(world, px, py, work_ints, S_INSIDE)
    reach = radius
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px, py, reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px, py, reach, j)
            lo, hi = row_span(world, cells, j, i0, i1)
            for t in range(lo, hi):
                e = np.int64(world.small[t])
                # Only items within radius of p touch the disc (a squared test
                # first, the exact separation below); an area holding p is
                # measured by its depth, not its outline.
                if not item_within_reach(world, e, px, py, radius) or \
                        not item_owner_alive(world, e) or (count > 0 and listed(
                        work_ints, S_INSIDE, count, item_owner(world, e))):
                    continue
                sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                if sep > radius:
                    continue
                if world.one_sided and item_sides(world, e) != TWO_SIDED:
                    sep, nx, ny, qx, qy = separation_one_sided(world, e, px, py)
                if sep < best:
                    best = sep
                    bo = item_owner(world, e)
                    bnx, bny, bqx, bqy = nx, ny, qx, qy
    return bo, best, bnx, bny, bqx, bqy


@njit(cache=True, forceinline=True)
def first_hit(world, px, py, dx, dy, radius):
    """Exact first contact of the disc of ``radius`` moving from ``p`` by ``d``.

    Returns ``(fraction, item, nx, ny, near)``: the time of impact in
    ``[0, 1]``, the item met and the normal there (obstacle towards disc), or
    ``(inf, -1, 0, 0)`` for a miss; ``near`` is False when no item's surface
    lies within ``radius`` of ``p`` (the squared test
    :func:`~sidestep.kernels.world.item_within_reach`, which
    :func:`start_contact` makes first), so the disc does not start touching
    any. A start touching an item counts only if the motion goes into it (see
    :func:`~sidestep.kernels.segment.sweep_circle_segment`); :func:`cast_point`
    judges the start. ``d`` must not be zero.

    The motion is clipped to the broadphase box grown by ``radius`` (every
    item lies half a cell inside it, so no contact lies outside) and walked
    in stretches of :data:`_STRETCH` cells, nearest first: every item met at
    a fraction within a stretch lies in the cells that stretch's capsule
    covers (the contact point is within ``radius`` of the centre), so once
    the best contact lies within the stretches walked, nothing farther can
    come first. The first stretch covers the disc at ``p`` (a start outside
    the grown box is half a cell from every item), and every item within
    ``radius`` of ``p`` passes the walk's filter, so ``near`` sees them all.
    """
    world = borrowed(world)
    best = math.inf
    hit = np.int64(-1)
    hnx = 0.0
    hny = 0.0
    near = False
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx > 0:
            best, hit, hnx, hny, near = _walk(world, cells, px, py, dx, dy, radius, best, hit,
                                              hnx, hny, near)
    return best, hit, hnx, hny, near


@njit(cache=True, forceinline=True)
def _walk(world, cells, px, py, dx, dy, radius, best, hit, hnx, hny, near):
    # first_hit's walk over one broadphase grid, the best contact so far (and whether an
    # item is near the start) carried in and out.
    world = borrowed(world)
    s = cells.cell_size
    # 1. Clip p + fraction * d to the grown box (slab test).
    f_in = 0.0
    f_out = 1.0
    for axis in range(2):
        o = px if axis == 0 else py
        d = dx if axis == 0 else dy
        lo = (cells.origin_x if axis == 0 else cells.origin_y) - radius
        hi = lo + (cells.nx if axis == 0 else cells.ny) * s + 2.0 * radius
        if d == 0.0:
            if o < lo or o > hi:
                return best, hit, hnx, hny, near
        else:
            ta = (lo - o) / d
            tb = (hi - o) / d
            if ta > tb:
                ta, tb = tb, ta
            f_in = max(f_in, ta)
            f_out = min(f_out, tb)
    if f_in > f_out:
        return best, hit, hnx, hny, near
    # 2. Walk the clipped motion a stretch at a time.
    length = math.sqrt(dx * dx + dy * dy)
    n = max(1, int(math.ceil((f_out - f_in) * length / (_STRETCH * s))))
    step = (f_out - f_in) / n
    # Only items within reach of the motion so far as it still may go (to the
    # best contact yet) can be met: the part of d still open, and its length.
    upto = min(best, 1.0)
    rx = upto * dx
    ry = upto * dy
    reach = upto * length
    for k in range(n):
        f0 = f_in + k * step
        f1 = f_out if k == n - 1 else f_in + (k + 1) * step
        ax = px + f0 * dx
        ay = py + f0 * dy
        bx = px + f1 * dx
        by = py + f1 * dy
        j0, j1 = rows_capsule(cells, ax, ay, bx, by, radius)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, ax, ay, bx, by, radius, j)
            lo, hi = row_span(world, cells, j, i0, i1)
            for t in range(lo, hi):
                e = np.int64(world.small[t])
                if _MOTION_LO < reach < _MOTION_HI:
                    if not item_within_reach_motion(world, e, px, py, rx, ry, reach, radius):
                        continue
                elif not item_within_reach(world, e, px, py, radius + reach):
                    continue
                if not item_owner_alive(world, e):
                    continue
                # (The filters above keep every item within radius of p.)
                near = near or item_within_reach(world, e, px, py, radius)
                f, fnx, fny = sweep_item(world, e, px, py, dx, dy, radius)
                if f < best:
                    best = f
                    hit = e
                    hnx = fnx
                    hny = fny
                    upto = min(best, 1.0)
                    rx = upto * dx
                    ry = upto * dy
                    reach = upto * length
        if best <= f1:
            break
    return best, hit, hnx, hny, near


@njit(cache=True, forceinline=True)
def cast_point(world, px, py, dx, dy, radius, skin, work_ints):
    """First contact of a disc of ``radius`` swept from ``p`` by ``d``, no slide.

    Parameters
    ----------
    world : PackedWorld
    px, py : float
        Start of the disc's centre (world units).
    dx, dy : float
        The motion (world units); may be zero.
    radius : float
        The disc's radius, >= 0 (0: a ray).
    skin : float
        The world's skin; the answer stops :data:`BACK_OFF` skins before the
        exact contact, along the motion.
    work_ints : (SCRATCH_INTS,) int64
        Scratch.

    Returns
    -------
    (owner, fraction, nx, ny, qx, qy)
        The obstacle id met, the part of ``d`` travelled in ``[0, 1]``, the
        unit normal from the obstacle towards the disc and the surface point
        touched (at the exact contact). A miss is ``(-1, 1.0, 0, 0, nan,
        nan)``; a start touching or overlapping gives fraction 0 and that
        obstacle's way out (:func:`start_contact`).
    """
    world = borrowed(world)
    moving = dx != 0.0 or dy != 0.0
    if moving and world.n_areas == 0:
        # No solid area to stand in: the walk itself tells whether any item is near
        # enough to touch at the start (most casts start clear), and only then is
        # the start looked at (step 1), at the cost of the cells around p again.
        fraction, e, nx, ny, near = first_hit(world, px, py, dx, dy, radius)
        if near:
            owner, sep, snx, sny, sqx, sqy = start_contact(world, px, py, radius, work_ints)
            if owner >= 0 and sep <= radius:
                return owner, 0.0, snx, sny, sqx, sqy
    else:
        # 1. Touching or overlapping at the start: stopped there.
        owner, sep, nx, ny, qx, qy = start_contact(world, px, py, radius, work_ints)
        if owner >= 0 and sep <= radius:
            return owner, 0.0, nx, ny, qx, qy
        if not moving:
            return np.int64(-1), 1.0, 0.0, 0.0, math.nan, math.nan
        # 2. The exact time of impact.
        fraction, e, nx, ny, near = first_hit(world, px, py, dx, dy, radius)
    if e < 0:
        return np.int64(-1), 1.0, 0.0, 0.0, math.nan, math.nan
    # 3. The surface point is the disc's rim at the exact contact; the stop
    #    backs off from it along the motion.
    qx = px + fraction * dx - nx * radius
    qy = py + fraction * dy - ny * radius
    length = math.sqrt(dx * dx + dy * dy)
    fraction = max(fraction - BACK_OFF * skin / length, 0.0)
    return item_owner(world, e), fraction, nx, ny, qx, qy


@njit(cache=True, forceinline=False, nogil=True)
def cast_points(blob, live, positions, displacements, radii, skin, owner, fraction, normal, point,
                queue):
    """:func:`cast_point` for the rows taken from ``queue``.

    Parameters
    ----------
    blob : (m,) float64
        The packed world (:func:`~sidestep.kernels.world.unpack_world`).
    positions, displacements : (n, 2) float64
        Start and motion of each disc.
    radii : (n,) float64
        Each disc's radius.
    skin : float
        The world's skin.
    owner : (n,) int64
        Receives the obstacle met (-1 on a miss).
    fraction : (n,) float64
        Receives the part of the motion travelled.
    normal, point : (n, 2) float64
        Receive the normal (0 on a miss) and the surface point (NaN on a miss).
    queue : (3,) int64
        A :mod:`~sidestep.kernels.row_queue` shared by the threads; a row's
        answer does not depend on which thread took it.
    """
    world = unpack_world(blob, live)
    work_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    work = borrow(work_buffer)   # no reference counting per cast (kept alive below)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for k in range(first, stop):
            o, f, nx, ny, qx, qy = cast_point(world, positions[k, 0], positions[k, 1],
                                              displacements[k, 0], displacements[k, 1],
                                              radii[k], skin, work)
            owner[k] = o
            fraction[k] = f
            normal[k, 0] = nx
            normal[k, 1] = ny
            point[k, 0] = qx
            point[k, 1] = qy
    work_buffer[0] = 0
