"""Agents on a moving 3D level: a body's motion over a frame is swept, not teleported.

The 3D mirror of :mod:`sidestep.kernels.carry`. A body moved from pose
``(R0, t0)`` to ``(R1, t1)``; seen from it, a still agent moves the other way.
:func:`sweep_past` slides the agent's sphere or capsule along that path
against the body alone (the caller hands a packed world that sees only the
body), in steps of at most :data:`MAX_TURN` of the body's turn, each from
where the agent is after the last, so the path follows the arc a turning body
makes; where it meets the body, its end is where the body leaves the agent.
The turn is interpolated about the axis of ``R1 R0^T`` (the shorter way).
"""
import math

import numpy as np
from numba import njit, types
from numba.experimental import structref

from ..kernels.carry import MAX_TURN
from ..kernels.moves import MODE_SLIDE
from .moves import move_agent
from .world import (B_INTERIOR, PRIM_BOX, PRIM_POLYGON, Packed3D, beyond_prim, borrowed, core,
                    prim_box, separation_prim)


@njit(cache=True, forceinline=False, inline="always")
def _turned(axis, angle, x, y, z):
    # Rodrigues: x turned by `angle` about unit `axis`.
    c = math.cos(angle)
    s = math.sin(angle)
    kx, ky, kz = axis[0], axis[1], axis[2]
    d = kx * x + ky * y + kz * z
    cx = ky * z - kz * y
    cy = kz * x - kx * z
    cz = kx * y - ky * x
    return (x * c + cx * s + kx * d * (1.0 - c), y * c + cy * s + ky * d * (1.0 - c),
            z * c + cz * s + kz * d * (1.0 - c))


@njit(cache=True, forceinline=False, inline="always")
def _pose_at(r0, t0, t1, axis, angle, f, x, y, z):
    # The pose at fraction f of the change applied to body-frame point x: R_f x + t_f with
    # R_f = turn(axis, f angle) R0 and t_f on the straight line from t0 to t1.
    bx = r0[0, 0] * x + r0[0, 1] * y + r0[0, 2] * z
    by = r0[1, 0] * x + r0[1, 1] * y + r0[1, 2] * z
    bz = r0[2, 0] * x + r0[2, 1] * y + r0[2, 2] * z
    wx, wy, wz = _turned(axis, f * angle, bx, by, bz)
    return (wx + t0[0] + f * (t1[0] - t0[0]), wy + t0[1] + f * (t1[1] - t0[1]),
            wz + t0[2] + f * (t1[2] - t0[2]))


@njit(cache=True, forceinline=False, inline="always")
def _into_pose(r0, t0, t1, axis, angle, f, x, y, z):
    # The inverse of _pose_at: world point x in the body's frame at fraction f.
    dx = x - (t0[0] + f * (t1[0] - t0[0]))
    dy = y - (t0[1] + f * (t1[1] - t0[1]))
    dz = z - (t0[2] + f * (t1[2] - t0[2]))
    ux, uy, uz = _turned(axis, -f * angle, dx, dy, dz)
    return (r0[0, 0] * ux + r0[1, 0] * uy + r0[2, 0] * uz,
            r0[0, 1] * ux + r0[1, 1] * uy + r0[2, 1] * uz,
            r0[0, 2] * ux + r0[1, 2] * uy + r0[2, 2] * uz)


@njit(cache=True, forceinline=False)
def swept_on(r0, t0, t1, axis, angle, f0, f1, px, py, pz):
    """Where a still point, seen at ``p`` with the body at its new pose when the body
    stood at ``f0`` of its change, is seen when it stands at ``f1``:
    ``T1 T_f1^-1 T_f0 T1^-1 p``."""
    qx, qy, qz = _into_pose(r0, t0, t1, axis, angle, 1.0, px, py, pz)
    wx, wy, wz = _pose_at(r0, t0, t1, axis, angle, f0, qx, qy, qz)
    qx, qy, qz = _into_pose(r0, t0, t1, axis, angle, f1, wx, wy, wz)
    return _pose_at(r0, t0, t1, axis, angle, 1.0, qx, qy, qz)


@njit(cache=True, forceinline=False)
def sweep_past(alone, r0, t0, t1, axis, angle, px, py, pz, radius, half, up, skin, margin,
               slack, min_motion, max_iterations, wf, wi, contacts):
    """Where the body that ``alone`` sees leaves the agent at ``p`` (its centre) after its
    change from ``(r0, t0)`` to its new pose (at ``t1``, turned by ``angle`` about
    ``axis`` from ``r0``): ``(x, y, z, met)``; ``met`` False when it never touched."""
    alone = borrowed(alone)
    # The mode as a plain int64, not the literal constant: move_agent keeps its one
    # registered signature whichever caller compiles first.
    slide = np.int64(MODE_SLIDE)
    steps = max(1, int(math.ceil(abs(angle) / MAX_TURN)))
    x, y, z = swept_on(r0, t0, t1, axis, angle, 1.0, 0.0, px, py, pz)
    met = False
    for step in range(1, steps + 1):
        ex, ey, ez = swept_on(r0, t0, t1, axis, angle, (step - 1) / steps, step / steps,
                              x, y, z)
        x, y, z, _, n_contacts, recovered = move_agent(
            alone, x, y, z, ex - x, ey - y, ez - z, radius, half, up, slide, skin, margin,
            slack, min_motion, max_iterations, wf, wi, contacts)
        met = met or n_contacts > 0 or recovered
    return x, y, z, met


@njit(cache=True)
def reach_boxes(kind, params, vertices, loop, prims, prim_first, positions0, positions1, angles):
    """``(b, 7)``: each body's world box now (``[min (3), max (3)]``, over its primitives
    ``prims[prim_first[b]:prim_first[b + 1]]``, rows of ``kind`` and ``params``) grown by
    how far its material moved at most over its last change (that growth is column 6,
    world units): its shift ``|positions1[b] - positions0[b]|`` plus ``angles[b]`` times
    the distance from its origin ``positions1[b]`` to the box's farthest corner (a point
    at ``x`` now stood within ``|R_f R1^T (x - t1) - (x - t1)| + |t_f - t1| <= angle
    |x - t1| + shift`` of ``x`` at every fraction ``f``). Every place a body's material
    passed through lies in its reach box."""
    out = np.empty((prim_first.shape[0] - 1, 7))
    for b in range(out.shape[0]):
        box = np.full(6, np.inf)
        box[3:6] = -np.inf
        for r in range(prim_first[b], prim_first[b + 1]):
            e = prims[r]
            one = prim_box(kind[e], params[e], vertices, loop)
            for a in range(3):
                box[a] = min(box[a], one[a])
                box[3 + a] = max(box[3 + a], one[3 + a])
        far = 0.0
        shift = 0.0
        for a in range(3):
            d = max(abs(box[a] - positions1[b, a]), abs(box[3 + a] - positions1[b, a]))
            far += d * d
            shift += (positions1[b, a] - positions0[b, a]) ** 2
        grow = math.sqrt(shift) + angles[b] * math.sqrt(far)
        for a in range(3):
            out[b, a] = box[a] - grow
            out[b, 3 + a] = box[3 + a] + grow
        out[b, 6] = grow
    return out


@njit(cache=True, inline="always")
def _within(reach, b, px, py, pz, size):
    # Whether point p lies within `size` of body b's reach box (per axis: a box test).
    return (reach[b, 0] - size <= px <= reach[b, 3] + size
            and reach[b, 1] - size <= py <= reach[b, 4] + size
            and reach[b, 2] - size <= pz <= reach[b, 5] + size)


#: Grid cells :func:`reach_cells` makes at most, per body (and a few more).
CELLS_PER_BODY = 8


@njit(cache=True)
def reach_cells(reach):
    """The reach boxes ``reach (b, 6+)`` (:func:`reach_boxes`) binned in a uniform grid.

    Returns ``(grid (7,), first (cells + 1,), items)``: ``grid`` holds the
    grid's low corner (3), its cell size (world units; the median of the
    boxes' largest sides, doubled until there are at most
    :data:`CELLS_PER_BODY` cells a body) and its cells along x, y and z; the
    bodies whose box meets cell ``k`` (numbered x fastest) are
    ``items[first[k]:first[k + 1]]``.
    """
    n = reach.shape[0]
    grid = np.zeros(7)
    if n == 0:
        return grid, np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    lo = np.empty(3)
    hi = np.empty(3)
    sides = np.empty(n)
    for a in range(3):
        lo[a] = reach[:, a].min()
        hi[a] = reach[:, 3 + a].max()
    for b in range(n):
        sides[b] = max(reach[b, 3] - reach[b, 0], reach[b, 4] - reach[b, 1],
                       reach[b, 5] - reach[b, 2])
    cell = max(np.median(sides), 1e-9 * (1.0 + max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])))
    while True:
        dims = np.empty(3, dtype=np.int64)
        total = 1.0
        for a in range(3):
            d = math.floor((hi[a] - lo[a]) / cell) + 1.0
            total *= d
            dims[a] = int(min(d, 1e9))
        if total <= CELLS_PER_BODY * n + 64:
            break
        cell *= 2.0
    for a in range(3):
        grid[a] = lo[a]
        grid[4 + a] = dims[a]
    grid[3] = cell
    cells = dims[0] * dims[1] * dims[2]
    first = np.zeros(cells + 1, dtype=np.int64)
    at = np.zeros(cells, dtype=np.int64)
    items = np.empty(0, dtype=np.int64)
    for fill in range(2):
        if fill == 1:
            for c in range(cells):
                first[c + 1] += first[c]
            items = np.empty(first[cells], dtype=np.int64)
        for b in range(n):
            i0, i1 = _axis_range(grid, 0, reach[b, 0], reach[b, 3])
            j0, j1 = _axis_range(grid, 1, reach[b, 1], reach[b, 4])
            k0, k1 = _axis_range(grid, 2, reach[b, 2], reach[b, 5])
            for k in range(k0, k1 + 1):
                for j in range(j0, j1 + 1):
                    for i in range(i0, i1 + 1):
                        c = (k * dims[1] + j) * dims[0] + i
                        if fill == 0:
                            first[c + 1] += 1
                        else:
                            items[first[c] + at[c]] = b
                            at[c] += 1
    return grid, first, items


@njit(cache=True, inline="always")
def _axis_range(grid, a, low, high):
    # The cells along axis a (first, last, inclusive) that low..high meets, clamped to the
    # grid (first > last where it misses the grid).
    top = grid[4 + a] - 1.0
    f0 = max(math.floor((low - grid[a]) / grid[3]), 0.0)
    f1 = min(math.floor((high - grid[a]) / grid[3]), top)
    return int(min(f0, top + 1.0)), int(max(f1, -1.0))


@njit(cache=True, inline="always")
def _cells_around(grid, px, py, pz, size):
    # The cells of the reach grid (reach_cells) that the box within `size` of p meets,
    # ranges along x, y and z, and the grid's cells along x and y.
    i0, i1 = _axis_range(grid, 0, px - size, px + size)
    j0, j1 = _axis_range(grid, 1, py - size, py + size)
    k0, k1 = _axis_range(grid, 2, pz - size, pz + size)
    return i0, i1, j0, j1, k0, k1, int(grid[4]), int(grid[5])


@njit(cache=True)
def bodies_near(stamp, reach, grid, first, items, since, skip, px, py, pz, size):
    """Whether a body moved after pose count ``since`` (but ``skip``) may have swept within
    ``size`` of point ``p``: its reach box (:func:`reach_boxes`) does. False means none
    of them can touch an agent of that size centred there (:func:`push_from_bodies`
    would find nothing). Only the bodies in the cells of ``reach``'s grid
    (:func:`reach_cells`: ``grid``, ``first``, ``items``) that ``p``'s box meets are
    looked at."""
    i0, i1, j0, j1, k0, k1, dims0, dims1 = _cells_around(grid, px, py, pz, size)
    for k in range(k0, k1 + 1):
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = (k * dims1 + j) * dims0 + i
                for t in range(first[c], first[c + 1]):
                    b = items[t]
                    if stamp[b] > since and b != skip and _within(reach, b, px, py, pz, size):
                        return True
    return False


@njit(cache=True)
def _far_from(world, prims, first, stop, ax, ay, az, bx, by, bz, gap):
    # Whether every primitive prims[first:stop] is surely farther than `gap` from the core
    # a -> b: beyond_prim's bounds, then a solid's (box, sphere, cylinder) exact distance.
    for r in range(first, stop):
        e = prims[r]
        if beyond_prim(world, e, ax, ay, az, bx, by, bz, gap):
            continue
        k = world.kind[e]
        if k == PRIM_POLYGON or (k == PRIM_BOX and world.params[e, B_INTERIOR] != 0.0):
            return False
        if not separation_prim(world, e, ax, ay, az, bx, by, bz)[0] > gap:
            return False
    return True


@njit(cache=True, forceinline=False)
def push_from_bodies(world, seen, flags, since, stamp, reach, grid, first, items, mark, angles,
                     axes, rotations0, positions0, positions1, members, member_first, prims,
                     prim_first, skip, px, py, pz, radius, half, up, skin, margin, slack,
                     min_motion, max_iterations, wf, wi, contacts, met):
    """The push of every body moved after pose count ``since`` that swept into the agent
    centred at ``p``: ``(dx, dy, dz, n)``, the bodies that met it in ``met[:n]``.

    A body is looked at only if ``p`` lies within the agent's size (and two skins) of its
    reach box ``reach[b]`` (:func:`reach_boxes`, read through their grid ``grid``,
    ``first``, ``items``: :func:`reach_cells`; :func:`bodies_near` is this test alone)
    and one of its primitives (``prims[prim_first[b]:prim_first[b + 1]]``, rows of
    ``world``) is not surely farther from the capsule than the body's growth
    ``reach[b, 6]``, two skins and the contact margin (every place its material passed
    through lies within that growth of where it is now: :func:`_far_from`); then
    :func:`sweep_past` with ``seen`` (zeros, as long as ``world.alive``; left zero)
    showing it alone. The bodies go in the order of their ids (``mark``, zeros, one a
    body, left zero, keeps each once). Body ``skip`` (the floor it rides, -1: none) is
    left out.
    """
    world = borrowed(world)
    size = radius + half + 2.0 * skin
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    i0, i1, j0, j1, k0, k1, dims0, dims1 = _cells_around(grid, px, py, pz, size)
    low = stamp.shape[0]
    high = -1
    for k in range(k0, k1 + 1):
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = (k * dims1 + j) * dims0 + i
                for t in range(first[c], first[c + 1]):
                    b = items[t]
                    if mark[b] == 0 and stamp[b] > since and b != skip \
                            and _within(reach, b, px, py, pz, size):
                        mark[b] = 1
                        low = min(low, b)
                        high = max(high, b)
    dx = dy = dz = 0.0
    n = 0
    for b in range(low, high + 1):
        if mark[b] == 0:
            continue
        mark[b] = 0
        if _far_from(world, prims, prim_first[b], prim_first[b + 1], ax, ay, az, bx, by, bz,
                     radius + reach[b, 6] + 2.0 * skin + margin):
            continue
        for t in range(member_first[b], member_first[b + 1]):
            seen[members[t]] = world.alive[members[t]]
        alone = Packed3D(*world[:6], seen, flags, *world[8:])
        x, y, z, hit = sweep_past(alone, rotations0[b], positions0[b], positions1[b], axes[b],
                                  angles[b], px, py, pz, radius, half, up, skin, margin, slack,
                                  min_motion, max_iterations, wf, wi, contacts)
        for t in range(member_first[b], member_first[b + 1]):
            seen[members[t]] = 0
        if hit:
            dx += x - px
            dy += y - py
            dz += z - pz
            met[n] = b
            n += 1
    return dx, dy, dz, n


@structref.register
class BodyTableStateType(types.StructRef):
    """The Numba type of a :class:`BodyTableState` (its fields' types, as given)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


#: The fields of a :class:`BodyTableState`, in order: what :func:`push_from_bodies` reads
#: about the bodies (its arguments of those names), and its own buffers.
TABLE_FIELDS = ("seen", "flags", "stamp", "reach", "grid", "first", "items", "mark", "angles",
                "axes", "rotations0", "positions0", "positions1", "members", "member_first",
                "prims", "prim_first", "contacts", "met")
_TABLE_CODES = ("U1", "I1", "I1", "F2", "F1", "I1", "I1", "U1", "F1", "F2", "F3", "F2", "F2",
                "I1", "I1", "I1", "I1", "F2", "I1")


class BodyTableState(structref.StructRefProxy):
    """The bodies' arrays :func:`push_from_bodies` reads for every character of a frame
    (:data:`TABLE_FIELDS`), held in one object (shared, not copied), so that a
    character's call unpacks one object instead of nineteen arrays. Made by
    :func:`body_table_state` once per pose change."""


structref.define_proxy(BodyTableState, BodyTableStateType, list(TABLE_FIELDS))


def body_table_type():
    """The Numba type of a :class:`BodyTableState`."""
    arrays = {"U1": types.Array(types.uint8, 1, "C"), "I1": types.Array(types.int64, 1, "C"),
              "F1": types.Array(types.float64, 1, "C"), "F2": types.Array(types.float64, 2, "C"),
              "F3": types.Array(types.float64, 3, "C")}
    return BodyTableStateType([(n, arrays[c]) for n, c in zip(TABLE_FIELDS, _TABLE_CODES)])


@njit(cache=True)
def body_table_state(seen, flags, stamp, reach, grid, first, items, mark, angles, axes,
                     rotations0, positions0, positions1, members, member_first, prims,
                     prim_first, contacts, met):
    """A :class:`BodyTableState` holding these (:data:`TABLE_FIELDS`)."""
    return BodyTableState(seen, flags, stamp, reach, grid, first, items, mark, angles, axes,
                          rotations0, positions0, positions1, members, member_first, prims,
                          prim_first, contacts, met)


@njit(cache=True, forceinline=True)
def ride(table, b, fx, fy, fz):
    """How far body ``b``'s last pose change carried the point ``f`` of it (the feet of a
    character standing on it): ``(dx, dy, dz)``, the point turned by the body's turn
    (``table.axes[b]``, ``table.angles[b]``: ``R R_previous^T``) about the body's old
    position and moved to its new one, less ``f``."""
    t0 = table.positions0[b]
    t1 = table.positions1[b]
    wx, wy, wz = _turned(table.axes[b], table.angles[b], fx - t0[0], fy - t0[1], fz - t0[2])
    return wx + t1[0] - fx, wy + t1[1] - fy, wz + t1[2] - fz


@njit(cache=True, forceinline=True)
def ride_row(table, b, row, feet, facing, up):
    """What body ``b``'s last pose change did to a character standing on it, whose state
    row ``row`` holds its feet at ``feet`` and the level direction it faces at ``facing``
    (3 columns each): returns :func:`ride` of the feet, ``(dx, dy, dz)``, and turns the
    facing in place by the body's turn, kept level (its part along axis ``up`` dropped, then
    of length 1; as it was if the turn leaves it no level part)."""
    dx, dy, dz = ride(table, b, row[feet], row[feet + 1], row[feet + 2])
    tx, ty, tz = _turned(table.axes[b], table.angles[b], row[facing], row[facing + 1],
                         row[facing + 2])
    if up == 0:
        tx = 0.0
    elif up == 1:
        ty = 0.0
    else:
        tz = 0.0
    length = math.sqrt(tx * tx + ty * ty + tz * tz)
    if length > 0.0:
        row[facing] = tx / length
        row[facing + 1] = ty / length
        row[facing + 2] = tz / length
    return dx, dy, dz


@njit(cache=True)
def ride_of(table, b, row, feet, facing, up):
    """:func:`ride_row` called from Python (:meth:`sidestep.Character.update` for a
    character on a body that moved; :func:`~.character.update_characters` calls
    :func:`ride_row` itself)."""
    return ride_row(table, b, row, feet, facing, up)


@njit(cache=True)
def push_character(state, table, since, skip, rides, px, py, pz, size, radius, half, up,
                   skin, margin, slack, min_motion, max_iterations):
    """A character's frame among moved bodies, in one call: ``(dx, dy, dz, n)``.

    ``n`` is -1 when it does not ride a moved body (``rides`` False) and no reach box
    of a body moved after ``since`` (but ``skip``) comes within ``size`` of ``p``
    (:func:`bodies_near`); else :func:`push_from_bodies` for the character of
    ``state`` (a :class:`~sidestep.kernels3d.character.FrameState`: its world and
    scratch buffers) and the bodies of ``table`` (a :class:`BodyTableState`).
    """
    return push_near(state.world, table, table.seen, table.mark, table.contacts, table.met,
                     since, skip, rides, px, py, pz, size, radius, half, up, skin, margin,
                     slack, min_motion, max_iterations, state.wf, state.wi)


@njit(cache=True, forceinline=True)
def push_near(world, table, seen, mark, contacts, met, since, skip, rides, px, py, pz, size,
              radius, half, up, skin, margin, slack, min_motion, max_iterations, wf, wi):
    """:func:`push_character`'s answer with the caller's own buffers (``seen``, ``mark``,
    ``contacts``, ``met`` as :class:`BodyTableState` holds them, ``wf``, ``wi``: a
    world's scratch), so that threads sharing one ``table`` each write only their own
    (:func:`~sidestep.kernels3d.character.update_characters`)."""
    if not rides and not bodies_near(table.stamp, table.reach, table.grid, table.first,
                                     table.items, since, skip, px, py, pz, size):
        return 0.0, 0.0, 0.0, -1
    return push_from_bodies(world, seen, table.flags, since, table.stamp, table.reach,
                            table.grid, table.first, table.items, mark, table.angles,
                            table.axes, table.rotations0, table.positions0, table.positions1,
                            table.members, table.member_first, table.prims, table.prim_first,
                            skip, px, py, pz, radius, half, up, skin, margin, slack,
                            min_motion, max_iterations, wf, wi, contacts, met)
