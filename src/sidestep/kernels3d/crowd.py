"""3D crowds: upright capsule agents that collide with each other as well as with the world.

The 3D mirror of :mod:`sidestep.kernels.crowd`, the same method with one more
coordinate. An agent is its **core**, the upright segment ``p -+ half * up``
(``half`` 0 for a sphere), and its radius, as
:func:`sidestep.kernels3d.moves.move_agent` moves it. One step moves every
agent at once, each from where all of them started (so the answer does not
depend on the agents' order or on the threads):

1. **Neighbours**: a uniform grid over the two horizontal axes (the axes
   other than ``up``) of the agents' start positions (the 2D
   :func:`~sidestep.kernels.crowd.grid_agents`); the vertical is tested
   exactly: two agents are neighbours when the distance between their cores
   is below ``r_i + r_j + 2 m + skin``, ``m`` the most any agent moves, as in
   2D (a stack of agents on one
   spot lands in one cell, and each is tested against the others exactly).
   The step reads the agents in the grid's order, each cell's sorted along
   the first horizontal axis (:func:`sidestep.kernels.crowd.cell_order`).
2. **Cells**: the offset between two agents is the one between the
   **closest points of their cores**: two parallel upright segments, so the
   horizontal offset when their vertical extents overlap, else the offset
   between the nearest ends (:func:`_offset`). With ``n_ij`` its unit vector
   and ``gap`` its length less ``r_i + r_j``, agent ``i`` may advance along
   ``n_ij`` by at most its weight's share of the gap: the half-space
   ``v . n_ij <= share * gap``. The closest points of two convex sets give a
   separating plane (each core's support along ``n_ij`` is its closest
   point), and the agents only translate: two agents each keeping to its
   half-space never overlap and never pass through each other at any speed.
   Overlapping pairs have bound 0: they never come closer. Cores meeting
   (a zero offset) leave along golden-angle headings in the horizontal plane
   fixed by their indices.
3. **Wish**: the displacement asked for, plus the way an agent makes for a
   heavier (or equal) neighbour heading into it beyond its share, plus the
   separation from overlapping neighbours, capped as in 2D (the whole wish at
   most ``m``, the step's largest displacement plus ``separation``).
4. **Move**: the motion nearest the wish inside the cell (the 3D
   contact-plane solver :func:`~sidestep.kernels3d.planes.solve_planes` on
   the half-spaces the wish breaks, added one at a time), then the world move
   (``slide``: sliding along the world, never into it). If sliding took the
   end out of the cell, the move is tried again along the chord it took,
   clipped to the cell; failing that (the clipped chord pressed into the world
   again: an agent pushing along a wall into a neighbour) along the chord
   itself, as far as the cell allows; failing that the agent stays.

Agents at rest with nothing pressing on them have a zero wish and do not
move: resting groups never jiggle.
"""
import math

import numpy as np
from numba import njit

from ..kernels.borrow import borrow
from ..kernels.follow import note_follows, widened
from ..kernels.crowd import (ROUNDING, _golden, _share, busy_spread, calm, capped, cell_order,
                              grid_window, on_grain, pressure_grain, search_reach, settles,
                              touch_base, wish_terms)
from ..kernels.moves import MODE_BLOCK, MODE_GHOST, MODE_SLIDE, STOP_BLOCKED, STOP_DONE, STOP_SLID
from ..kernels.row_queue import resume_rows, rows_done, wait_rows
from .moves import CONTACT_FIELDS, _move
from .planes import solve_planes
from .world import SCRATCH_FLOATS, SCRATCH_INTS, borrowed

#: Half-spaces of a cell solved together at most (the active set).
ACTIVE = 16
#: Columns of ``packed``: position (3), radius, core half length.
PACKED = 5
#: Columns of ``pairs``: the unit normal (3), the bound, the gap, the agent's share of the
#: gap (the bound less what following adds: :mod:`sidestep.kernels.follow`).
PAIR = 6


@njit(cache=True, inline="always")
def _offset(px, py, pz, hk, qx, qy, qz, hj, up):
    """The offset from the closest point of core ``p -+ hk`` to that of core ``q -+ hj``
    (both upright along axis ``up``): the offset of the centres less the part of its
    vertical the cores' overlapping extents take up."""
    ex = qx - px
    ey = qy - py
    ez = qz - pz
    lim = hk + hj
    if up == 0:
        ex -= min(max(ex, -lim), lim)
    elif up == 1:
        ey -= min(max(ey, -lim), lim)
    else:
        ez -= min(max(ez, -lim), lim)
    return ex, ey, ez


@njit(cache=True)
def _clip_to_cell(pairs, count, wx, wy, wz, slack, qp):
    """The motion nearest ``w`` inside the agent's cell: ``(vx, vy, vz, ok)``.

    ``pairs (count, 5)``: each neighbour's ``nx, ny, nz, bound, gap``
    (:func:`_cell`). Cutting planes: the half-space ``w`` breaks most joins
    the active set (``qp``: normals at 0, bounds at ``3 * ACTIVE``, as ``-n .
    v >= -b``) and the set is solved again, until nothing is broken; with a
    full set or half-spaces that cannot all be met, ``ok`` is False (stay).
    """
    vx = wx
    vy = wy
    vz = wz
    active = 0
    while True:
        worst = slack
        pick = -1
        for t in range(count):
            excess = vx * pairs[t, 0] + vy * pairs[t, 1] + vz * pairs[t, 2] - pairs[t, 3]
            if excess > worst:
                worst = excess
                pick = t
        if pick < 0:
            return vx, vy, vz, True
        if active == ACTIVE:
            return 0.0, 0.0, 0.0, False
        qp[3 * active] = -pairs[pick, 0]
        qp[3 * active + 1] = -pairs[pick, 1]
        qp[3 * active + 2] = -pairs[pick, 2]
        qp[3 * ACTIVE + active] = -pairs[pick, 3]
        active += 1
        vx, vy, vz, err = solve_planes(wx, wy, wz, qp, 0, 3 * ACTIVE, active, slack)
        if err > slack:
            return 0.0, 0.0, 0.0, False


@njit(cache=True, forceinline=True)
def _neighbours(packed, row, up, a0, a1, motion, rmax, most, skin, ox, oy, size, nx, ny,
                start, scale, out):
    """Agents that could touch the agent of ``packed[row]`` if it moves ``motion`` and each
    of them ``most``: their count; the first ``len(out)`` of them (their
    rows of ``packed``) go to ``out`` (a larger count means ``out`` was too short: grow it
    and ask again). The grid is over the axes ``a0, a1``; each row of cells within reach
    is read from the first agent within reach along ``a0`` to the last, and the distance
    between the cores is tested exactly."""
    px = packed[row, 0]
    py = packed[row, 1]
    pz = packed[row, 2]
    rk = packed[row, 3]
    hk = packed[row, 4]
    h0 = packed[row, a0]
    h1 = packed[row, a1]
    r = search_reach(rk, motion, rmax, most, skin)
    i0, i1, j0, j1 = grid_window(h0, h1, r, ox, oy, 1.0 / size, nx, ny)
    # Rounding (of the sums below) is covered by this much more.
    lo = h0 - r - 1e-9 * scale
    hi = h0 + r + 1e-9 * scale
    capacity = out.shape[0]
    count = 0
    own = touch_base(rk, motion, most, skin)
    for cj in range(j0, j1 + 1):
        first = start[cj * nx + i0]
        last = start[cj * nx + i1 + 1]
        roomy = count + last - first <= capacity
        for t in range(first, last):
            x = packed[t, a0]
            if x < lo:
                continue
            if x > hi:
                break
            ex, ey, ez = _offset(px, py, pz, hk, packed[t, 0], packed[t, 1], packed[t, 2],
                                 packed[t, 4], up)
            within = own + packed[t, 3]
            near = ex * ex + ey * ey + ez * ez < within * within and t != row
            if roomy:
                # No branch on ``near`` (it is a coin toss): write, then count or not.
                out[count] = t
                count += np.int64(near)
            elif near:
                if count < capacity:
                    out[count] = t
                count += 1
    return count


@njit(cache=True, forceinline=True)
def _along_within(pairs, count, cx, cy, cz):
    """The largest ``f`` in ``[0, 1]`` with ``f * c`` inside the cell (``pairs[:count]``,
    see :func:`_cell`): how far along ``c`` the agent may go."""
    f = 1.0
    for t in range(count):
        toward = cx * pairs[t, 0] + cy * pairs[t, 1] + cz * pairs[t, 2]
        if toward > 0.0:
            f = min(f, pairs[t, 3] / toward)
    return max(f, 0.0)


@njit(cache=True, forceinline=True)
def _inside_cell(pairs, count, vx, vy, vz, tolerance, rounding):
    """Whether the motion ``v`` keeps to the cell, give or take ``tolerance`` (as the 2D
    :func:`sidestep.kernels.crowd._inside_cell`: the allowance shrinks as a gap closes
    below zero, down to ``rounding`` at ``-tolerance``: the rounding of the plane
    solver's answer, so that an overlapping pair's bound of 0 does not refuse a clipped
    motion for the last bit of ``v . n``)."""
    for t in range(count):
        allow = max(rounding, tolerance + min(pairs[t, 4], 0.0))
        if vx * pairs[t, 0] + vy * pairs[t, 1] + vz * pairs[t, 2] > pairs[t, 3] + allow:
            return False
    return True


@njit(cache=True, forceinline=True)
def _cell(packed, rest, items, row, neighbours, count, up, a0, a1, scale, follow, motions,
          pairs):
    """The half-space of the agent of ``packed[row]`` against each of its neighbours:
    ``pairs[t]`` (at least ``count`` rows) is ``nx, ny, nz, bound, gap, share`` (see the
    module) for ``packed[neighbours[t]]`` (:func:`~sidestep.kernels.crowd.cell_order`'s
    rows); the bound widened when ``follow``, as in 2D
    (:func:`sidestep.kernels.crowd._cell`)."""
    coincident = False
    px = packed[row, 0]
    py = packed[row, 1]
    pz = packed[row, 2]
    rk = packed[row, 3]
    hk = packed[row, 4]
    wk = rest[row, 0]
    for t in range(count):
        j = neighbours[t]
        dx, dy, dz = _offset(px, py, pz, hk, packed[j, 0], packed[j, 1], packed[j, 2],
                             packed[j, 4], up)
        dist = math.sqrt(dx * dx + dy * dy + dz * dz)
        if dist > 1e-12 * scale:
            inverse = 1.0 / dist            # one division, not three
            pairs[t, 0] = dx * inverse
            pairs[t, 1] = dy * inverse
            pairs[t, 2] = dz * inverse
        else:
            pairs[t, 0] = 0.0
            pairs[t, 1] = 0.0
            pairs[t, 2] = 0.0
            coincident = True
        gap = dist - rk - packed[j, 3]
        pairs[t, 5] = _share(wk, rest[j, 0]) * gap if gap > 0.0 else 0.0
        pairs[t, 4] = gap
    if coincident:
        # Cores that meet: each leaves along its golden-angle heading, in the
        # horizontal plane.
        for t in range(count):
            if pairs[t, 0] == 0.0 and pairs[t, 1] == 0.0 and pairs[t, 2] == 0.0:
                g0, g1 = _golden(items[row], items[neighbours[t]])
                pairs[t, a0] = g0
                pairs[t, a1] = g1
    for t in range(count):
        j = neighbours[t]
        k = items[j]
        # What it asked to go away, if it went as far away last step (kernels.follow).
        asked = rest[j, 1] * pairs[t, 0] + rest[j, 2] * pairs[t, 1] + rest[j, 3] * pairs[t, 2]
        went = motions[k, 0] * pairs[t, 0] + motions[k, 1] * pairs[t, 1] + \
            motions[k, 2] * pairs[t, 2]
        pairs[t, 3] = widened(pairs[t, 5], pairs[t, 4], asked, went) if follow else pairs[t, 5]


@njit(cache=True, nogil=True)
def crowd_step(world, positions, radii, halves, weights, displacements, intents, packed, rest,
               items, start, ox, oy, size, nx, ny, up, rmax, dmax, mode, separation, skin,
               margin, slack, min_motion, max_iterations, scale, known, pressure_now,
               last_positions, last_displacements, last_pressure, last_stops, last_obstacles,
               flat, last_flat, still, busy, out, stops, obstacles, pressure, motions, counts,
               records, cells, done, queue):
    """One step of every agent whose row is taken from ``queue`` (see the module).

    ``world`` is the packed 3D world, ``up`` its up axis (0, 1 or 2). First
    the threads share the ordering of the agents
    (:func:`~sidestep.kernels.crowd.cell_order`, the cells and agents taken
    from ``cells``, ``done`` a zero to count them, as in 2D) in the 2D grid over
    their horizontal coordinates (``items``, ``start``, ``ox, oy, size, nx,
    ny``; its axes are ``(up + 1) % 3`` and ``(up + 2) % 3``) into ``packed
    (n, 5)``, their ``x, y, z, r, half``, and ``rest (n, 7)``, their
    weight, displacement and intent (the displacement plus what the last step
    left of the wish), from the agents' ``positions``,
    ``radii``, ``halves``, ``weights``, ``displacements`` and
    ``intents``, and tells the agents at rest (``known``, ``pressure_now``,
    ``last_*``, ``still``, ``busy`` as in 2D; ``flat``, ``last_flat``
    the horizontal coordinates now and at the last step); each waits until
    all are ordered. ``rmax`` is the largest radius, ``dmax`` the largest
    ``|d|`` (an agent moves at most ``dmax + separation``, as in 2D),
    ``scale`` the largest coordinate (at least 1, for rounding). Writes, by
    agent index (``items[row]``), each agent's end to ``out (n, 3)``, its stop
    code to ``stops``, the first obstacle it touched (-1: none) to
    ``obstacles`` and half of what it did not get of its wish to ``pressure
    (n, 3)``. Agents at rest (``still``, ``busy``) keep the rows
    the caller filled with the last step's answers, as in 2D
    (:func:`sidestep.kernels.crowd.crowd_step`). Releases the GIL; a row's
    result does not depend on which thread took it; returns only once every
    row is done, as in 2D. Every array is read through a borrowed view.
    """
    spread = busy_spread(rmax, separation + dmax, skin, size)
    ordered = cell_order(
        borrow(start), borrow(items), borrow(positions), borrow(radii), borrow(halves),
        borrow(weights), borrow(displacements), borrow(intents), (up + 1) % 3,
        borrow(packed), borrow(rest), known, borrow(pressure_now), borrow(last_positions),
        borrow(last_displacements), borrow(last_pressure), borrow(last_stops),
        borrow(last_obstacles), borrow(flat), borrow(last_flat), ox, oy, size, nx, ny,
        spread, borrow(still), borrow(busy),
        borrow(out), borrow(stops), borrow(obstacles), borrow(pressure), cells, done)
    _work(world, packed, rest, items, start, ox, oy, size, nx, ny, up, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, scale, still,
          busy, out, stops, obstacles, pressure, motions, counts, records, 1, items[:0], done,
          queue)
    # Every row done, by whichever thread took it (as in 2D).
    wait_rows(done, ordered + items.shape[0])


@njit(cache=True, forceinline=False)
def _work(world, packed, rest, items, start, ox, oy, size, nx, ny, up, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, scale, still, busy,
          out, stops, obstacles, pressure, motions, counts, records, follow, order, done,
          queue):
    """A thread's part of a step once the agents are ordered, as in 2D
    (:func:`sidestep.kernels.crowd._work`)."""
    world = borrowed(world)
    contacts_buffer = np.empty((1, CONTACT_FIELDS))
    wf_buffer = np.empty(SCRATCH_FLOATS)
    wi_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    cand_buffer = np.empty(64, dtype=np.int64)
    qp_buffer = np.empty(4 * ACTIVE)
    pending = np.zeros(2, dtype=np.int64)
    neighbours_buffer = np.empty(64, dtype=np.int64)
    pairs_buffer = np.empty((64, PAIR))
    needed = 0
    while True:
        if needed > neighbours_buffer.shape[0]:
            # An agent has more neighbours than the buffers hold: grow them
            # and take it again (an agent's answer depends on nothing else).
            neighbours_buffer = np.empty(2 * needed, dtype=np.int64)
            pairs_buffer = np.empty((2 * needed, PAIR))
        needed = _step_rows(world, borrow(packed), borrow(rest), borrow(items),
                            borrow(start), ox, oy, size, nx, ny, up, rmax, dmax, spread, mode,
                            separation, skin, margin, slack, min_motion, max_iterations, scale,
                            borrow(still), borrow(busy), borrow(out), borrow(stops),
                            borrow(obstacles), borrow(pressure), borrow(motions),
                            borrow(counts), borrow(records), follow, borrow(order),
                            borrow(contacts_buffer), borrow(wf_buffer), borrow(wi_buffer),
                            borrow(cand_buffer), borrow(qp_buffer),
                            borrow(neighbours_buffer), borrow(pairs_buffer), pending, done,
                            queue)
        if needed == 0:
            break
    # The borrowed views above must not outlive their buffers.
    wf_buffer[0] = wi_buffer[0] + contacts_buffer[0, 0] + qp_buffer[0] + cand_buffer[0] + \
        neighbours_buffer[0] + pairs_buffer[0, 0]


@njit(cache=True, nogil=True)
def redo_rows(world, packed, rest, items, start, ox, oy, size, nx, ny, up, rmax, dmax, mode,
              separation, skin, margin, slack, min_motion, max_iterations, scale, still, busy,
              out, stops, obstacles, pressure, motions, counts, records, order, done, queue):
    """Work out again, within their own cells, the agents of the rows ``order`` of a step
    :func:`crowd_step` made, as in 2D (:func:`sidestep.kernels.crowd.redo_rows`: ``done``
    counts the rows; returns once every row is done)."""
    spread = busy_spread(rmax, separation + dmax, skin, size)
    _work(world, packed, rest, items, start, ox, oy, size, nx, ny, up, rmax, dmax, spread,
          mode, separation, skin, margin, slack, min_motion, max_iterations, scale, still,
          busy, out, stops, obstacles, pressure, motions, counts, records, 0, order, done,
          queue)
    wait_rows(done, order.shape[0])


@njit(cache=True, forceinline=False)
def _step_rows(world, packed, rest, items, start, ox, oy, size, nx, ny, up, rmax, dmax, spread,
               mode, separation, skin, margin, slack, min_motion, max_iterations, scale, still,
               busy, out, stops, obstacles, pressure, motions, counts, records, follow, order,
               contacts, wf, wi, cand, qp, neighbours, pairs, pending, done, queue):
    """:func:`crowd_step`'s work, as the 2D
    :func:`sidestep.kernels.crowd._step_rows`: the rows ``pending [first, stop)`` left by
    the last call, then rows from ``queue`` until none are left (returns 0), or the
    count of neighbours of an agent the buffers cannot hold (``spread`` as
    :func:`crowd_step` worked it out)."""
    world = borrowed(world)
    a0 = (up + 1) % 3
    a1 = (up + 2) % 3
    most = separation + dmax         # the most any agent moves (capped)
    agent_mode = MODE_SLIDE if mode == MODE_GHOST else mode
    tolerance = 0.25 * skin
    rounding = ROUNDING * scale
    grain = pressure_grain(dmax)
    while True:
        first, stop = resume_rows(pending, queue)
        if first >= stop:
            return 0
        for slot in range(first, stop):
            # In the grid's order, or the rows ``order`` lists (agents worked out again).
            row = order[slot] if order.shape[0] > 0 else slot
            px = packed[row, 0]
            py = packed[row, 1]
            pz = packed[row, 2]
            rk = packed[row, 3]
            hk = packed[row, 4]
            if still[items[row]]:
                if calm(busy, packed[row, a0], packed[row, a1],
                        search_reach(rk, most, rmax, most, skin), ox, oy, size, nx, ny,
                        spread):
                    continue        # at rest: the last step's answers stand
                still[items[row]] = 0
            wk = rest[row, 0]
            count = 0
            if mode != MODE_GHOST:
                # 1. Neighbours: agents that could touch this one during the step.
                count = _neighbours(packed, row, up, a0, a1, most, rmax, most, skin, ox, oy,
                                    size, nx, ny, start, scale, neighbours)
                if count > neighbours.shape[0]:
                    rows_done(done, slot - first)
                    pending[0] = slot
                    pending[1] = stop
                    return count
            _cell(packed, rest, items, row, neighbours, count, up, a0, a1, scale, follow, motions,
                  pairs)
            # 2-3. The wish: asked, making way, separating.
            yx = 0.0
            yy = 0.0
            yz = 0.0
            sx = 0.0
            sy = 0.0
            sz = 0.0
            for t in range(count):
                j = neighbours[t]
                pnx = pairs[t, 0]
                pny = pairs[t, 1]
                pnz = pairs[t, 2]
                gap = pairs[t, 4]
                # Separating, making way, pressure: the 2D terms (wish_terms).
                apart, yielded, more = wish_terms(
                    wk, rest[j, 0], gap, rest[j, 1] * pnx + rest[j, 2] * pny + rest[j, 3] * pnz,
                    rest[j, 4] * pnx + rest[j, 5] * pny + rest[j, 6] * pnz)
                sx -= pnx * (apart + more)
                sy -= pny * (apart + more)
                sz -= pnz * (apart + more)
                yx -= pnx * yielded
                yy -= pny * yielded
                yz -= pnz * yielded
            # Separating and pressure: at most `separation`; making way for
            # displacements: at most the largest displacement; the whole wish: at most
            # `most`.
            f = capped(sx * sx + sy * sy + sz * sz, separation)
            sx *= f
            sy *= f
            sz *= f
            f = capped(yx * yx + yy * yy + yz * yz, dmax)
            yx *= f
            yy *= f
            yz *= f
            wx = rest[row, 1] + yx + sx
            wy = rest[row, 2] + yy + sy
            wz = rest[row, 3] + yz + sz
            f = capped(wx * wx + wy * wy + wz * wz, most)
            wx *= f
            wy *= f
            wz *= f
            # 4. Into the cell, then through the world.
            if mode == MODE_BLOCK:
                ok = _inside_cell(pairs, count, wx, wy, wz, 0.0, rounding)
                vx = wx if ok else 0.0
                vy = wy if ok else 0.0
                vz = wz if ok else 0.0
            else:
                vx, vy, vz, ok = _clip_to_cell(pairs, count, wx, wy, wz, slack, qp)
            x = px
            y = py
            z = pz
            code = STOP_BLOCKED
            hit = -1
            # The first chord the world let the agent take.
            cx = 0.0
            cy = 0.0
            cz = 0.0
            for attempt in range(3 if ok else 0):
                if attempt == 1:
                    # Sliding left the cell: along the chord it took, clipped.
                    vx, vy, vz, ok = _clip_to_cell(pairs, count, cx, cy, cz, slack, qp)
                    if not ok:
                        continue
                elif attempt == 2:
                    # Still out (the clipped chord pressed into the world again: an
                    # agent pushing along a wall into a neighbour): along the chord,
                    # the way the world left open, as far as the cell allows.
                    f = _along_within(pairs, count, cx, cy, cz)
                    vx = f * cx
                    vy = f * cy
                    vz = f * cz
                    if vx * vx + vy * vy + vz * vz <= min_motion * min_motion:
                        break
                x2, y2, z2, code2, n2, _ = _move(
                    world, px, py, pz, vx, vy, vz, rk, hk, up, agent_mode, skin, margin,
                    slack, min_motion, max_iterations, wf, wi, cand, contacts)
                if attempt == 0:
                    cx = x2 - px
                    cy = y2 - py
                    cz = z2 - pz
                    if code2 == STOP_DONE and \
                            (vx - wx) ** 2 + (vy - wy) ** 2 + (vz - wz) ** 2 > skin * skin:
                        # Neighbours cut the wish short.
                        code2 = STOP_SLID if vx * vx + vy * vy + vz * vz > \
                            min_motion * min_motion else STOP_BLOCKED
                if _inside_cell(pairs, count, x2 - px, y2 - py, z2 - pz, tolerance, rounding):
                    x = x2
                    y = y2
                    z = z2
                    code = code2
                    hit = int(contacts[0, 0]) if n2 > 0 else -1
                    break
            moved = math.sqrt((x - px) ** 2 + (y - py) ** 2 + (z - pz) ** 2)
            if mode != MODE_GHOST and moved > most:
                # Went farther than the neighbours were gathered for (a
                # recovery out of an obstacle): check the agents that far too.
                far = _neighbours(packed, row, up, a0, a1, moved, rmax, most, skin, ox, oy,
                                  size, nx, ny, start, scale, neighbours)
                if far > neighbours.shape[0]:
                    rows_done(done, slot - first)
                    pending[0] = slot
                    pending[1] = stop
                    return far
                _cell(packed, rest, items, row, neighbours, far, up, a0, a1, scale, follow,
                      motions, pairs)
                count = far
                if not _inside_cell(pairs, far, x - px, y - py, z - pz, tolerance, rounding):
                    x = px
                    y = py
                    z = pz
                    code = STOP_BLOCKED
                    hit = -1
            if settles(mode, code, (x - px) ** 2 + (y - py) ** 2 + (z - pz) ** 2, skin):
                x = px
                y = py
                z = pz
                code = STOP_BLOCKED
            k = items[row]
            # Past its own share against a neighbour walking away: noted, to be confirmed
            # once every agent has moved (kernels.follow).
            if follow:
                note_follows(counts, records, k, 3, x - px, y - py, z - pz, pairs, count, 0, 4,
                             5, items, neighbours, tolerance, rounding)
            out[k, 0] = x
            out[k, 1] = y
            out[k, 2] = z
            # Half of what the wish did not get presses on next step: the
            # neighbours in its way make way for it then.
            pressure[k, 0] = on_grain(0.5 * (wx - (x - px)), grain)
            pressure[k, 1] = on_grain(0.5 * (wy - (y - py)), grain)
            pressure[k, 2] = on_grain(0.5 * (wz - (z - pz)), grain)
            stops[k] = code
            obstacles[k] = hit
        rows_done(done, stop - first)


@njit(cache=True)
def touching_pairs(positions, radii, halves, up, ox, oy, size, nx, ny, start, items, gap):
    """``(m, 2)`` index pairs ``i < j`` of agents whose cores are closer than ``r_i + r_j +
    gap``: ``positions (n, 3)``, ``radii``, ``halves (n,)`` (each core's half length along
    axis ``up``), and the 2D grid over the horizontal axes ``(up + 1) % 3, (up + 2) % 3``
    (:func:`sidestep.kernels.crowd.grid_agents`); the vertical is tested exactly."""
    n = positions.shape[0]
    a0 = (up + 1) % 3
    a1 = (up + 2) % 3
    out = np.empty((max(16, 2 * n), 2), dtype=np.int64)
    m = 0
    rmax = 0.0
    for k in range(n):
        rmax = max(rmax, radii[k])
    inverse = 1.0 / size
    for k in range(n):
        h0 = positions[k, a0]
        h1 = positions[k, a1]
        r = radii[k] + rmax + gap
        i0, i1, j0, j1 = grid_window(h0, h1, r, ox, oy, inverse, nx, ny)
        for cj in range(j0, j1 + 1):
            for ci in range(i0, i1 + 1):
                c = cj * nx + ci
                for t in range(start[c], start[c + 1]):
                    j = items[t]
                    if j <= k:
                        continue
                    ex, ey, ez = _offset(positions[k, 0], positions[k, 1], positions[k, 2],
                                         halves[k], positions[j, 0], positions[j, 1],
                                         positions[j, 2], halves[j], up)
                    within = radii[k] + radii[j] + gap
                    if ex * ex + ey * ey + ez * ez < within * within:
                        if m == out.shape[0]:
                            grown = np.empty((2 * m, 2), dtype=np.int64)
                            grown[:m] = out
                            out = grown
                        out[m, 0] = k
                        out[m, 1] = j
                        m += 1
    return out[:m].copy()
