"""Shape casts in 3D: the first contact of a sphere or an upright capsule moved straight.

What ``World3D.cast`` and ``World3D.cast_many`` answer: the agent (its core
segment ``a -> b``, ``a == b`` for a sphere, and a radius, as in
:mod:`.moves`) moved from ``p`` by ``d`` with no slide, stopped at its
first contact. One kernel, :func:`cast_shape`, computes a cast; the batch
driver :func:`cast_rows` runs it over the rows threads take from a queue,
and a single cast is a batch of one, so the two are equal bit for bit.

The steps of a cast:

1. The broadphase: the core's box grown by the radius, swept along ``d``
   through the hierarchy (:func:`~.bvh.next_leaf_sweep`), each leaf once,
   none entered beyond the earliest contact found so far.
2. The start: a primitive whose leaf the shape's box overlaps at ``t = 0``
   is tested for overlap (:func:`~.world.separation_prim`); a shape that
   starts touching or overlapping anything stops at fraction 0, against the
   deepest overlap, whatever the direction of ``d``.
3. The sweep: every other primitive is swept exactly
   (:func:`~.world.sweep_prim`, closed-form events; the cylinder's a
   first-root search to a thousandth of the skin, never past the contact).
4. The stand-off: the shape stops :data:`~sidestep.kernels.cast.BACK_OFF` skins short of the
   exact contact along ``d``, as the 2D casts do.

The promise, "exact to the skin, never late": at ``p + fraction * d`` the
shape overlaps nothing (separation >= radius, to rounding), and the exact
contact is a quarter skin further on (or less, when the start was nearer).
"""
import math

import numpy as np
from numba import njit

from ..kernels.row_queue import next_rows
from ..kernels.cast import BACK_OFF
from . import bvh as _bvh
from .world import (beyond_prim, borrowed, core, prim_alive, prim_box, separation_prim,
                    sweep_prim)

#: How far outside a contact (in skins) the cylinder's searched sweep may
#: stop: as the slide's (:data:`.moves._TOLERANCE`), far inside the skin.
_TOLERANCE = 1e-3
# BACK_OFF (imported from the 2D casts, one figure for both halves): skins the answer
# backs off from the exact contact along the motion. Rounding moves a sweep's fraction
# by a few ulps of the coordinates over |d|, far below a quarter skin, so the shape there
# never overlaps; at a grazing contact rounding changes the separation only to second order.
#: The broadphase box is grown by this share of its coordinates' size on top
#: of the radius, so rounding of the slabs never drops a primitive whose
#: exact contact lies on the box's face.
_BOX_PAD = 1e-9


@njit(cache=True, inline="always")
def _enter_prim(world, e, ox, oy, oz, ix, iy, iz, ex, ey, ez, t_max):
    # Where the swept box first overlaps primitive e's box (inf: not before t_max):
    # the leaf's test again, on one primitive, before its exact sweep.
    lox, loy, loz, hix, hiy, hiz = prim_box(world.kind[e], world.params[e], world.vertices,
                                            world.loop)
    return _bvh.enter_grown_box(lox, loy, loz, hix, hiy, hiz, ox, oy, oz, ix, iy, iz, ex, ey,
                                ez, t_max)


@njit(cache=True)
def cast_shape(world, px, py, pz, dx, dy, dz, radius, half, up, skin, nodes, keys, state):
    """First contact of the sphere or upright capsule at ``p`` moved by ``d``.

    Parameters
    ----------
    world : Packed3D
    px, py, pz : float
        The shape's centre.
    dx, dy, dz : float
        Its displacement (may be zero: then only the start is tested).
    radius : float >= 0
    half : float >= 0
        Half the capsule core's length along axis ``up`` (0: a sphere).
    up : int
        0, 1 or 2.
    skin : float > 0
        The world's skin: the answer stops :data:`~sidestep.kernels.cast.BACK_OFF` skins before
        the exact contact, along ``d``.
    nodes, keys, state
        The hierarchy's cursor scratch (:func:`~.bvh.new_cursor`).

    Returns
    -------
    (fraction, obstacle, part, qx, qy, qz, nx, ny, nz)
        ``fraction`` of ``d`` travelled in ``[0, 1]``; the obstacle id and
        part met, the touched surface point ``q`` and the unit normal from
        the obstacle towards the shape there. A miss is fraction 1, ids
        -1, ``q`` NaN, normal 0. A start touching or overlapping is
        fraction 0 with the deepest overlap's nearest surface point and
        the normal out of it.

    Examples
    --------
    A ball of radius 0.5 dropped 10 onto a unit sphere 5 below it (exact
    contact at 0.35, a quarter skin of 1e-6 higher); passing beside it; and
    starting inside it:

    >>> from sidestep import World3D
    >>> from sidestep.kernels3d.bvh import new_cursor
    >>> w = World3D()
    >>> _ = w.add_spheres([(0, 0, 0)], 1.0)
    >>> world = w._packed()
    >>> hit = cast_shape(world, 0, 5, 0, 0, -10, 0, 0.5, 0.0, 1, 1e-6, *new_cursor(world.tree))
    >>> round(hit[0], 10), hit[1], hit[7]
    (0.349999975, 0, 1.0)
    >>> cast_shape(world, 3, 5, 0, 0, -10, 0, 0.5, 0.0, 1, 1e-6, *new_cursor(world.tree))[:3]
    (1.0, -1, -1)
    >>> cast_shape(world, 0, 0.2, 0, 0, -10, 0, 0.5, 0.0, 1, 1e-6, *new_cursor(world.tree))[:2]
    (0.0, 0)
    """
    world = borrowed(world)
    tree = world.tree
    none = -1
    if tree.order.shape[0] == 0:
        return 1.0, none, none, math.nan, math.nan, math.nan, 0.0, 0.0, 0.0
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    tolerance = _TOLERANCE * skin
    moving = dx != 0.0 or dy != 0.0 or dz != 0.0
    # 1. The broadphase box: the core's box grown by the radius (and rounding).
    ox = 0.5 * (ax + bx)
    oy = 0.5 * (ay + by)
    oz = 0.5 * (az + bz)
    pad = radius + tolerance + _BOX_PAD * (1.0 + abs(ox) + abs(oy) + abs(oz) + abs(dx)
                                           + abs(dy) + abs(dz) + radius + half)
    ex = 0.5 * abs(bx - ax) + pad
    ey = 0.5 * abs(by - ay) + pad
    ez = 0.5 * abs(bz - az) + pad
    ix = _bvh.inverse(dx)
    iy = _bvh.inverse(dy)
    iz = _bvh.inverse(dz)
    limit = 1.0
    best = math.inf                     # earliest sweep contact so far
    hit = -1
    hnx = hny = hnz = 0.0
    deepest = math.inf                  # deepest separation at the start, if <= radius
    over = -1
    onx = ony = onz = oqx = oqy = oqz = 0.0
    _bvh.start_sweep(tree, nodes, keys, state, ox, oy, oz, ix, iy, iz, ex, ey, ez, limit)
    while True:
        first, count, t_enter = _bvh.next_leaf_sweep(tree, nodes, keys, state, ox, oy, oz, ix,
                                                     iy, iz, ex, ey, ez, limit)
        if count == 0:
            break
        for k in range(first, first + count):
            e = tree.order[k]
            if not prim_alive(world, e):
                continue
            if t_enter == 0.0 and not beyond_prim(world, e, ax, ay, az, bx, by, bz, radius):
                # 2. The start: touching or overlapping stops the cast at 0.
                sep, nx, ny, nz, qx, qy, qz = separation_prim(world, e, ax, ay, az, bx, by, bz)
                if sep <= radius:
                    if sep < deepest:
                        deepest = sep
                        over = e
                        onx, ony, onz, oqx, oqy, oqz = nx, ny, nz, qx, qy, qz
                    limit = 0.0         # only leaves at the start are left to look at
                    continue
            if over >= 0 or not moving:
                continue
            if _enter_prim(world, e, ox, oy, oz, ix, iy, iz, ex, ey, ez, limit) > limit:
                continue
            # 3. The exact sweep (level -1: a face's own radius, no glide).
            f, nx, ny, nz = sweep_prim(world, e, ax, ay, az, bx, by, bz, dx, dy, dz, radius,
                                       tolerance, -1.0)
            if f < best and f <= 1.0:
                best = f
                hit = e
                hnx, hny, hnz = nx, ny, nz
                limit = f
    if over >= 0:
        return (0.0, world.owner[over], world.part[over], oqx, oqy, oqz, onx, ony, onz)
    if hit < 0:
        return 1.0, none, none, math.nan, math.nan, math.nan, 0.0, 0.0, 0.0
    # 4. The stand-off: BACK_OFF skins back along d.
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    fraction = max(best - BACK_OFF * skin / length, 0.0)
    # The touched point: the hit primitive's point nearest the core at the contact.
    cx, cy, cz, qx2, qy2, qz2 = core(px + best * dx, py + best * dy, pz + best * dz, half, up)
    _, _, _, _, qx, qy, qz = separation_prim(world, hit, cx, cy, cz, qx2, qy2, qz2)
    return (fraction, world.owner[hit], world.part[hit], qx, qy, qz, hnx, hny, hnz)


@njit(cache=True, nogil=True)
def cast_rows(world, positions, displacements, radii, halves, order, up, skin, fraction, owner,
              part, point, normal, queue):
    """:func:`cast_shape` for the rows taken from ``queue``, cast in ``order``.

    The rows ``r`` taken from ``queue`` are the casts ``order[r]`` of
    ``positions, displacements (n, 3)``, ``radii, halves (n,)``; their
    answers land in rows ``order[r]`` of ``fraction (n,)``, ``owner, part
    (n,) int64``, ``point, normal (n, 3)``. A big batch is cast in the order
    of its starts' cells (:func:`~.world.ray_order`: a quarter faster through
    the dungeon, one thread, the hierarchy's nodes found in the cache);
    the answers do not depend on the order, nor on which thread took a row.
    Releases the GIL.
    """
    world = borrowed(world)
    k = max(world.tree.leaves, 1) + 1
    nodes = np.empty(k, dtype=np.int32)
    keys = np.empty(k)
    state = np.zeros(1, dtype=np.int64)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for r in range(first, stop):
            i = order[r]
            f, o, pt, qx, qy, qz, nx, ny, nz = cast_shape(
                world, positions[i, 0], positions[i, 1], positions[i, 2], displacements[i, 0],
                displacements[i, 1], displacements[i, 2], radii[i], halves[i], up, skin, nodes,
                keys, state)
            fraction[i] = f
            owner[i] = o
            part[i] = pt
            point[i, 0] = qx
            point[i, 1] = qy
            point[i, 2] = qz
            normal[i, 0] = nx
            normal[i, 1] = ny
            normal[i, 2] = nz
