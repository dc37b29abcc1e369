"""Agents on a moving level (2D): a body's motion over a frame is swept, not teleported.

A body moved from pose ``T0`` to ``T1`` by its last ``set_pose``. An agent
at ``p`` that has not moved since sees the body's material sweep past it.
Seen from the body, the agent went from ``T0^-1 p`` to ``T1^-1 p``; in the
world with the body at its new pose (where the packed world has it), from
``T1 T0^-1 p`` to ``p``. :func:`carry_agent` slides the agent's disc along
that path against the body alone, in steps of at most :data:`MAX_TURN` of
the body's turn so that the path follows the arc a turning body makes. If
the slide meets the body, the body swept into the agent: the slide's end is
where the body leaves it (pushed ahead of a blade, slid along a swinging
door) and no speed lets the body pass through it. The agent is then moved
there through the rest of the world (every obstacle but that body): a wall in
the way stops it short, and the body is said to squeeze it: it then goes to
the nearest spot clear of everything (round the door's edge, out of the
pinch of two bars), so that no agent is ever left inside anything.

A body's motion is read from its row in the packed world
(:data:`~sidestep.kernels.world.MOTION`); rows newer than the caller's last
look (``since``, a pose number) are the ones not yet applied.
"""
import math

import numpy as np
from numba import njit

from .borrow import borrow
from .direct import registered
from .index import columns_capsule, rows_capsule
from .moves import (CONTACT_FIELDS, MAX_CONTACTS, O_X, O_Y, P_MARGIN, P_MAX_ITERATIONS,
                    P_MIN_MOTION, P_RADIUS, P_SKIN, P_SLACK, W_CONTACTS, W_OUT, W_PARAMS,
                    W_SCRATCH_INTS, recover, slide)
from .row_queue import next_rows
from .world import (M_REACH, M_STAMP, M_TURN, MOTION, SCRATCH_FLOATS, SCRATCH_INTS, borrowed,
                    cell_span, item_geometry, item_owner, item_within_reach, only_body,
                    unpack_world, without_body)

#: Radians of a body's turn per step of the path swept against it. An agent pushed by
#: a turning body ``r`` from the turn's centre drifts towards it by about
#: ``r * MAX_TURN**2 / 2`` a step (the chord's sag): 0.1 % of ``r``.
MAX_TURN = 0.05
#: Bodies that may sweep into one agent in one frame, at most (more are left alone).
MAX_CARRIERS = 8
#: The cells of :func:`hot_cells` split each cell of the bodies' grid this many times along
#: each axis.
HOT_SPLIT = 8


@njit(cache=True, forceinline=False, inline="always")
def pose_at(world, body, fraction):
    """``body``'s pose at ``fraction`` of its last change: ``(cos, sin, x, y)`` (turned on
    by that part of the turn, moved on along the straight line)."""
    m = world.motions + MOTION * body
    f = world.floats
    turn = fraction * f[m + M_TURN]
    ct = math.cos(turn)
    st = math.sin(turn)
    c0 = f[m]
    s0 = f[m + 1]
    return (c0 * ct - s0 * st, s0 * ct + c0 * st, f[m + 2] + fraction * (f[m + 6] - f[m + 2]),
            f[m + 3] + fraction * (f[m + 7] - f[m + 3]))


@njit(cache=True, forceinline=False)
def swept_on(world, body, f0, f1, px, py):
    """Where a still point that the body's new pose sees at ``p`` when the body stood at
    ``f0`` of its last change is seen when it stands at ``f1``: ``T1 T_f1^-1 T_f0 T1^-1 p``
    (the path, seen from the body, that the body's motion sweeps the point along)."""
    world = borrowed(world)
    m = world.motions + MOTION * body
    f = world.floats
    c1, s1, x1, y1 = f[m + 4], f[m + 5], f[m + 6], f[m + 7]
    dx = px - x1
    dy = py - y1
    qx = c1 * dx + s1 * dy                  # q = T1^-1 p, in the body's frame
    qy = -s1 * dx + c1 * dy
    c, s, tx, ty = pose_at(world, body, f0)
    wx = c * qx - s * qy + tx               # w = T_f0 q: the still point in the world
    wy = s * qx + c * qy + ty
    c, s, tx, ty = pose_at(world, body, f1)
    dx = wx - tx
    dy = wy - ty
    qx = c * dx + s * dy                    # T_f1^-1 w, back in the body's frame
    qy = -s * dx + c * dy
    return c1 * qx - s1 * qy + x1, s1 * qx + c1 * qy + y1


@njit(cache=True, forceinline=False)
def _carriers(world, px, py, reach, since, found):
    # Bodies moved after pose `since` with an item within `reach` of p: into `found`
    # (at most MAX_CARRIERS, ascending); returns how many.
    world = borrowed(world)
    cells = world.moving
    n = 0
    j0, j1 = rows_capsule(cells, px, py, px, py, reach)
    for j in range(j0, j1 + 1):
        i0, i1 = columns_capsule(cells, px, py, px, py, reach, j)
        for i in range(i0, i1 + 1):
            lo, hi = cell_span(world, cells, j * cells.nx + i)
            for t in range(lo, hi):
                e = np.int64(world.small[t])
                owner = item_owner(world, e)
                if world.live[owner] == 0 or not item_within_reach(world, e, px, py, reach):
                    continue
                b = world.ints[world.body_of + owner]
                if world.floats[world.motions + MOTION * b + M_STAMP] <= since:
                    continue
                # Kept sorted, so the order the bodies are applied in does not depend on
                # the order of the cells' entries.
                k = 0
                while k < n and found[k] < b:
                    k += 1
                if (k < n and found[k] == b) or n == MAX_CARRIERS:
                    continue
                for q in range(n, k, -1):
                    found[q] = found[q - 1]
                found[k] = b
                n += 1
    return n


@njit(cache=True, forceinline=False)
def carry_agent(world, px, py, radius, since, skin, margin, slack, min_motion, max_iterations,
                wf, wi, contacts, found):
    """The agent at ``p`` after the bodies that moved since pose ``since`` swept past it.

    Returns ``(x, y, touched, squeezed)``: ``touched`` when a body met it,
    ``squeezed`` when a body would have pushed it into something else (it
    is left where that stopped it, clear of it). See the module. ``wf``, ``wi``,
    ``contacts`` and ``found`` (``(MAX_CARRIERS,) int64``, the bodies near it) are
    scratch.
    """
    world = borrowed(world)
    if world.n_bodies == 0 or world.stamp <= since or world.moving.nx == 0:
        return px, py, False, False
    reach = radius + world.reach + 2.0 * skin + margin
    n = _carriers(world, px, py, reach, since, found)
    touched = False
    squeezed = False
    for k in range(n):
        b = found[k]
        alone = only_body(world, b)
        steps = max(1, int(math.ceil(abs(world.floats[world.motions + MOTION * b + M_TURN])
                                     / MAX_TURN)))
        sx, sy = swept_on(world, b, 1.0, 0.0, px, py)
        met = False
        for step in range(1, steps + 1):
            # The still agent seen from the body, one step of the body's motion on from
            # where it is now (after any slide along the body), not from where it started:
            # the path is a chord of the arc through it, so sliding along a turning body
            # drifts by no more than the chord's sag.
            ex, ey = swept_on(world, b, (step - 1) / steps, step / steps, sx, sy)
            sx, sy, _, n_contacts, recovered = slide(
                alone, sx, sy, ex - sx, ey - sy, radius, skin, margin, slack, min_motion,
                max_iterations, wf, wi, contacts)
            met = met or n_contacts > 0 or recovered
        if not met:
            continue
        touched = True
        # Carried there through everything else: a wall stops it short (squeezed).
        x, y, _, _, _ = slide(without_body(world, b), px, py, sx - px, sy - py, radius, skin,
                              margin, slack, min_motion, max_iterations, wf, wi, contacts)
        if math.hypot(x - sx, y - sy) > skin:
            squeezed = True
        px = x
        py = y
    if squeezed:
        # Pushed against something it could not pass, the body overlaps it: it goes to
        # the nearest spot clear of everything (round the door's edge, out of the pinch
        # of two bars), never left inside.
        px, py, _ = recover(world, px, py, radius, skin, slack, wf, wi)
    return px, py, touched, squeezed


@njit(cache=True, inline="always")
def hot_index(cells, v, origin, count):
    """The column (or row), ``0 <= i < count``, of :func:`hot_cells`' grid (the bodies' grid
    ``cells`` split :data:`HOT_SPLIT` times) that holds ``v`` (clamped: monotonic)."""
    return min(max(int(math.floor((v - origin) * (HOT_SPLIT / cells.cell_size))), 0),
               count - 1)


@njit(cache=True, nogil=True)
def hot_cells(blob, live, since, rmax, skin, margin, hot):
    """Marks (1) in ``hot (HOT_SPLIT**2 * nx * ny,) uint8`` (zeros before; ``nx, ny``: the
    bodies' grid's) the cells of the bodies' grid split :data:`HOT_SPLIT` times along
    each axis that meet the box of an item of a body moved since pose ``since`` widened by
    :func:`carry_agent`'s reach for agents of radius up to ``rmax`` (and its thickness),
    the body's own motion for the farthest any moved: an agent in a cell left unmarked
    has no body whose sweep meets it (:func:`carry_agent` would leave it), so
    :func:`carry_agents` leaves it with one look, where finding none cost a walk of the
    bodies' grid. Returns whether any cell is marked."""
    world = unpack_world(blob, live)
    cells = world.moving
    if world.n_bodies == 0 or world.stamp <= since or cells.nx == 0:
        return False
    mx = HOT_SPLIT * cells.nx
    my = HOT_SPLIT * cells.ny
    first, _ = cell_span(world, cells, 0)
    _, last = cell_span(world, cells, cells.nx * cells.ny - 1)
    marked = False
    for t in range(first, last):
        e = np.int64(world.small[t])
        b = world.ints[world.body_of + item_owner(world, e)]
        if world.floats[world.motions + MOTION * b + M_STAMP] <= since:
            continue
        ax, ay, bx, by, thick = item_geometry(world, e)
        # As carry_agent's reach, with this body's own motion for the farthest any moved
        # (no farther can its sweep meet an agent), beyond the filter's roundings.
        moved = world.floats[world.motions + MOTION * b + M_REACH]
        reach = rmax + moved + 2.0 * skin + margin
        pad = (thick + reach) * 1.001 + 1e-3 * cells.cell_size / HOT_SPLIT
        i0 = hot_index(cells, min(ax, bx) - pad, cells.origin_x, mx)
        i1 = hot_index(cells, max(ax, bx) + pad, cells.origin_x, mx)
        j0 = hot_index(cells, min(ay, by) - pad, cells.origin_y, my)
        j1 = hot_index(cells, max(ay, by) + pad, cells.origin_y, my)
        for j in range(j0, j1 + 1):
            hot[j * mx + i0:j * mx + i1 + 1] = 1
        marked = True
    return marked


@njit(cache=True, forceinline=False, nogil=True)
def carry_agents(blob, live, positions, radii, since, skin, margin, slack, min_motion,
                 max_iterations, hot, out, flags, queue):
    """:func:`carry_agent` for the rows taken from ``queue``: ends into ``out (n, 2)``,
    ``flags (n,) uint8`` 1 where a body met the agent, 2 where it squeezed it. ``hot``:
    :func:`hot_cells`' marks (for agents of radius up to the largest of ``radii``), or
    empty: an agent in an unmarked cell is left where it is at once."""
    world = unpack_world(blob, live)
    cells = world.moving
    mx = HOT_SPLIT * cells.nx
    my = HOT_SPLIT * cells.ny
    contacts_buffer = np.empty((1, CONTACT_FIELDS))
    wf_buffer = np.empty(SCRATCH_FLOATS)
    wi_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    contacts = borrow(contacts_buffer)
    wf = borrow(wf_buffer)
    wi = borrow(wi_buffer)
    found_buffer = np.empty(MAX_CARRIERS, dtype=np.int64)   # one per thread, not per agent
    found = borrow(found_buffer)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for k in range(first, stop):
            if hot.shape[0] and not hot[hot_index(cells, positions[k, 1], cells.origin_y, my) *
                                        mx + hot_index(cells, positions[k, 0], cells.origin_x,
                                                       mx)]:
                out[k, 0] = positions[k, 0]
                out[k, 1] = positions[k, 1]
                flags[k] = 0
                continue
            x, y, touched, squeezed = carry_agent(
                world, positions[k, 0], positions[k, 1], radii[k], since, skin, margin,
                slack, min_motion, max_iterations, wf, wi, contacts, found)
            out[k, 0] = x
            out[k, 1] = y
            flags[k] = 2 if squeezed else (1 if touched else 0)
    wf_buffer[0] = wi_buffer[0] + contacts_buffer[0, 0] + found_buffer[0]


@njit(cache=True, forceinline=False)
def carry_packed(blob, live, work, px, py, since):
    """One agent from Python (:class:`sidestep.Agent`), its settings in ``work`` as
    :func:`~sidestep.kernels.moves.move_packed` reads them; the end goes to ``work``'s
    outcome ``(x, y)``. Returns 2 if squeezed, 1 if a body met it, else 0."""
    w = borrow(work)
    p = W_PARAMS
    x, y, touched, squeezed = carry_agent(
        unpack_world(blob, live), px, py, w[p + P_RADIUS], since, w[p + P_SKIN],
        w[p + P_MARGIN], w[p + P_SLACK], w[p + P_MIN_MOTION], int(w[p + P_MAX_ITERATIONS]),
        w[:SCRATCH_FLOATS], w[W_SCRATCH_INTS:W_CONTACTS].view(np.int64),
        w[W_CONTACTS:W_PARAMS].reshape((MAX_CONTACTS, CONTACT_FIELDS)),
        np.empty(MAX_CARRIERS, dtype=np.int64))
    w[W_OUT + O_X] = x
    w[W_OUT + O_Y] = y
    return 2 if squeezed else (1 if touched else 0)


_DIRECT = None


def carry_packed_direct():
    """:func:`carry_packed` compiled for its one set of argument types (see
    :func:`~sidestep.kernels.moves.move_packed_direct`)."""
    global _DIRECT
    if _DIRECT is None:
        _DIRECT = registered("carry:carry_packed")
    return _DIRECT
