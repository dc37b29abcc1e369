"""The four ways to move an agent (a disc, radius 0 = point camera) through a world.

* ``slide``: continuous collide-and-slide (sweep, solve contact planes, repeat);
* ``push``: the radial article's method: move, then push out of each obstacle;
* ``block``: the wall article's method: refuse a move that ends in collision;
* ``ghost``: move without collision.

:func:`move_agent` runs one move and is the only entry point; :func:`move_agents`
runs it over a range of agents (threads split the ranges), so batch and single
results are equal.
"""
import math

import numpy as np
from numba import njit

from .index import columns_capsule, rows_capsule
from .planes import solve_planes
from .world import (item_owner_alive, listed, penetrations, probe_point, separation_item,
                    sweep_item)

MODE_SLIDE = 0
MODE_PUSH = 1
MODE_BLOCK = 2
MODE_GHOST = 3

STOP_DONE = 0            # reached the target without touching anything
STOP_SLID = 1            # contacts turned the move; it went on along them as far as they allow
STOP_BLOCKED = 2         # at rest against contacts with no way along them (block: target collides)
STOP_MAX_ITERATIONS = 3  # motion was left when the slide ran out of passes
STOP_STUCK = 4           # started overlapping and no free spot was found
STOP_PUSHED = 5          # push mode pushed the agent out of something

#: Rows of the contact buffer: [obstacle, point x, point y, normal x, normal y, fraction].
CONTACT_FIELDS = 6
#: Contact planes one slide pass solves together, and obstacles one push or
#: recovery step considers; more than this many touching obstacles at once
#: are not met in practice (a disc touches at most six equal discs).
MAX_PLANES = 32


@njit(cache=True)
def _record(contacts, n, owner, qx, qy, nx, ny, fraction):
    # One contact per obstacle and move: the first one is kept.
    for t in range(n):
        if contacts[t, 0] == owner:
            return n
    if n == contacts.shape[0]:
        return n
    contacts[n, 0] = owner
    contacts[n, 1] = qx
    contacts[n, 2] = qy
    contacts[n, 3] = nx
    contacts[n, 4] = ny
    contacts[n, 5] = fraction
    return n + 1


@njit(cache=True)
def _bounds_escape(world, px, py, radius):
    # Distance from p beyond which the world's broadphase box (and so every
    # obstacle) is left behind by more than the radius: always free there.
    w = world.items
    if w.nx == 0:
        return 0.0
    x0 = w.origin_x
    y0 = w.origin_y
    x1 = x0 + w.nx * w.cell_size
    y1 = y0 + w.ny * w.cell_size
    far_x = max(abs(px - x0), abs(px - x1))
    far_y = max(abs(py - y0), abs(py - y1))
    return math.sqrt(far_x * far_x + far_y * far_y) + radius + w.cell_size


@njit(cache=True)
def recover(world, px, py, radius, skin, slack):
    """Move an overlapping agent to a nearby free spot.

    1. Up to 16 rounds of push-out: every obstacle the disc overlaps or
       nearly touches is a plane constraint "end ``skin`` outside me", and
       the smallest motion that meets them all is applied (solved together,
       so leaving one obstacle never means entering another).
    2. If the agent is still not free (wedged where the constraints conflict),
       candidate spots on rings of growing radius around the start (32
       headings per ring, radius growing by half each ring) are tried until
       one is free; the rings end outside the world, where every spot is free.

    Returns ``(x, y, ok)``; ``ok`` is False only if no free spot was found.
    """
    owners = np.empty(MAX_PLANES, dtype=np.int64)
    normals = np.empty((MAX_PLANES, 2))
    separations = np.empty(MAX_PLANES)
    points = np.empty((MAX_PLANES, 2))
    bounds = np.empty(MAX_PLANES)
    x = px
    y = py
    for _ in range(16):
        count = penetrations(world, x, y, radius, 2.0 * skin, owners, normals,
                             separations, points)
        worst = math.inf
        for i in range(count):
            worst = min(worst, separations[i])
            # Separation after moving v: about separations[i] + n_i . v >= skin.
            bounds[i] = skin - separations[i]
        if worst >= 0.5 * skin:
            return x, y, True
        vx, vy, err = solve_planes(0.0, 0.0, normals, bounds, count, slack)
        if vx == 0.0 and vy == 0.0:
            break
        x += vx
        y += vy
    owner, sep, nx, ny, qx, qy = probe_point(world, x, y, radius + skin)
    if owner < 0 or sep >= radius + 0.5 * skin:
        return x, y, True
    # 2. Rings of candidate spots around the start.
    escape = _bounds_escape(world, px, py, radius)
    ring = 2.0 * skin + radius
    while ring < 2.0 * escape:
        for h in range(32):
            angle = 2.0 * math.pi * h / 32.0
            cx = px + ring * math.cos(angle)
            cy = py + ring * math.sin(angle)
            owner, sep, nx, ny, qx, qy = probe_point(world, cx, cy, radius + skin)
            if owner < 0 or sep >= radius + 0.5 * skin:
                return cx, cy, True
        ring *= 1.5
    return px, py, False


@njit(cache=True)
def slide(world, px, py, dx, dy, radius, skin, margin, slack, min_motion,
          max_iterations, contacts):
    """Continuous collide-and-slide of a disc from ``p`` by ``d``.

    Each pass:
      1. gathers the obstacles within ``margin`` of the disc as contact planes;
      2. solves the planes together for the motion nearest the remaining
         wish that approaches no contact closer than ``skin / 2``;
      3. sweeps the disc, grown by ``skin``, along that motion against the
         other obstacles near its path and stops at the first contact,
         ``skin`` outside it.
    The pass ends the move when nothing stopped the sweep; a sweep hit adds a
    contact and starts another pass with what remains of the wish (so the
    agent slides on along the contact). A move that starts overlapping first
    recovers (:func:`recover`).

    Returns ``(x, y, stop, n_contacts, recovered)``; contacts are written to
    ``contacts (k, 6)`` rows ``[obstacle, qx, qy, nx, ny, fraction]``.
    """
    total = math.sqrt(dx * dx + dy * dy)
    n_contacts = 0
    recovered = False
    # 0. Start overlapping: recover first.
    owner, sep, nx, ny, qx, qy = probe_point(world, px, py, radius)
    if owner >= 0 and sep < radius:
        n_contacts = _record(contacts, n_contacts, owner, qx, qy, nx, ny, 0.0)
        px, py, ok = recover(world, px, py, radius, skin, slack)
        recovered = True
        if not ok:
            return px, py, STOP_STUCK, n_contacts, recovered
    normals = np.empty((MAX_PLANES, 2))
    bounds = np.empty(MAX_PLANES)
    plane_item = np.empty(MAX_PLANES, dtype=np.int64)
    plane_point = np.empty((MAX_PLANES, 2))
    index = world.items
    rem_x = dx
    rem_y = dy
    travelled = 0.0
    limited = False
    stop = STOP_MAX_ITERATIONS
    for _ in range(max_iterations):
        rem_len = math.sqrt(rem_x * rem_x + rem_y * rem_y)
        if rem_len <= min_motion:
            stop = STOP_SLID if limited else STOP_DONE
            break
        # 1. Gather the contact planes: obstacles within the margin of the disc.
        n_planes = 0
        reach = radius + margin
        j0, j1 = rows_capsule(index, px, py, px, py, reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(index, px, py, px, py, reach, j)
            for k in range(j * index.nx + i0, j * index.nx + i1 + 1):
                for t in range(index.start[k], index.start[k + 1]):
                    e = index.entries[t]
                    if n_planes == MAX_PLANES or not item_owner_alive(world, e) or \
                            listed(plane_item, n_planes, e):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    sep -= radius
                    if sep <= margin:
                        normals[n_planes, 0] = nx
                        normals[n_planes, 1] = ny
                        # Approach no closer than skin / 2: n . v >= skin/2 - sep.
                        bounds[n_planes] = 0.5 * skin - sep
                        plane_item[n_planes] = e
                        plane_point[n_planes, 0] = qx
                        plane_point[n_planes, 1] = qy
                        n_planes += 1
        # 2. Solve all contact planes together.
        vx, vy, err = solve_planes(rem_x, rem_y, normals, bounds, n_planes, slack)
        if err > slack:
            vx = 0.0
            vy = 0.0
        active = False
        for i in range(n_planes):
            if normals[i, 0] * rem_x + normals[i, 1] * rem_y < bounds[i] - slack:
                active = True
                limited = True
                n_contacts = _record(contacts, n_contacts, world.item_owner[plane_item[i]],
                                     plane_point[i, 0],
                                     plane_point[i, 1], normals[i, 0], normals[i, 1],
                                     travelled / total)
        v_len = math.sqrt(vx * vx + vy * vy)
        # Contacts leave at most the skin's width of motion: against them, at rest.
        if v_len <= min_motion or (active and v_len <= skin):
            stop = STOP_BLOCKED
            break
        # 3. Sweep the disc, grown by the skin, along v against everything near
        #    the path.
        fraction = 1.0
        hit = -1
        hnx = 0.0
        hny = 0.0
        grown = radius + skin
        j0, j1 = rows_capsule(index, px, py, px + vx, py + vy, grown)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(index, px, py, px + vx, py + vy, grown, j)
            for k in range(j * index.nx + i0, j * index.nx + i1 + 1):
                for t in range(index.start[k], index.start[k + 1]):
                    e = index.entries[t]
                    if not item_owner_alive(world, e):
                        continue
                    # Contact planes keep their obstacles skin/2 away; sweeping
                    # them too, grown by only skin/4, is the safety net for a
                    # plane whose normal rounding tilted.
                    f, fnx, fny = sweep_item(world, e, px, py, vx, vy,
                                             radius + 0.25 * skin
                                             if listed(plane_item, n_planes, e) else grown)
                    if f < fraction:
                        fraction = f
                        hit = e
                        hnx = fnx
                        hny = fny
        px += fraction * vx
        py += fraction * vy
        travelled += fraction * v_len
        rem_x -= fraction * vx
        rem_y -= fraction * vy
        if hit < 0:
            stop = STOP_SLID if limited else STOP_DONE
            break
        limited = True
        n_contacts = _record(contacts, n_contacts, world.item_owner[hit],
                             px - hnx * (radius + skin), py - hny * (radius + skin),
                             hnx, hny, travelled / total)
    return px, py, stop, n_contacts, recovered


@njit(cache=True)
def push(world, px, py, dx, dy, radius, contacts):
    """The radial article's method, for every family: move, then push out.

    Each obstacle the disc overlaps at ``p + d`` adds ``-separation * normal``
    to the correction (for one circle, the article's
    ``delta += (R / |v| - 1) * v`` with ``R`` = circle radius + agent radius);
    contributions add up. One pass, as in the article: fast moves tunnel, and
    leaving one obstacle may enter another.
    """
    x = px + dx
    y = py + dy
    owners = np.empty(MAX_PLANES, dtype=np.int64)
    normals = np.empty((MAX_PLANES, 2))
    separations = np.empty(MAX_PLANES)
    points = np.empty((MAX_PLANES, 2))
    count = penetrations(world, x, y, radius, 0.0, owners, normals, separations, points)
    delta_x = 0.0
    delta_y = 0.0
    n_contacts = 0
    for i in range(count):
        if separations[i] < 0.0:
            delta_x -= separations[i] * normals[i, 0]
            delta_y -= separations[i] * normals[i, 1]
            n_contacts = _record(contacts, n_contacts, owners[i], points[i, 0], points[i, 1],
                                 normals[i, 0], normals[i, 1], 1.0)
    stop = STOP_PUSHED if n_contacts > 0 else STOP_DONE
    return x + delta_x, y + delta_y, stop, n_contacts, False


@njit(cache=True)
def block(world, px, py, dx, dy, radius, contacts):
    """The wall article's method: if the disc at ``p + d`` collides, stay at ``p``.

    Collides means some surface is closer than ``radius`` (strictly, as the
    article's ``distance < collision distance``).
    """
    x = px + dx
    y = py + dy
    owners = np.empty(MAX_PLANES, dtype=np.int64)
    normals = np.empty((MAX_PLANES, 2))
    separations = np.empty(MAX_PLANES)
    points = np.empty((MAX_PLANES, 2))
    count = penetrations(world, x, y, radius, 0.0, owners, normals, separations, points)
    n_contacts = 0
    for i in range(count):
        if separations[i] < 0.0:
            n_contacts = _record(contacts, n_contacts, owners[i], points[i, 0], points[i, 1],
                                 normals[i, 0], normals[i, 1], 1.0)
    if n_contacts > 0:
        return px, py, STOP_BLOCKED, n_contacts, False
    return x, y, STOP_DONE, 0, False


@njit(cache=True)
def move_agent(world, px, py, dx, dy, radius, mode, skin, margin, slack, min_motion,
               max_iterations, contacts):
    """One move in ``mode``; returns ``(x, y, stop, n_contacts, recovered)``."""
    if mode == MODE_SLIDE:
        return slide(world, px, py, dx, dy, radius, skin, margin, slack, min_motion,
                     max_iterations, contacts)
    if mode == MODE_PUSH:
        return push(world, px, py, dx, dy, radius, contacts)
    if mode == MODE_BLOCK:
        return block(world, px, py, dx, dy, radius, contacts)
    return px + dx, py + dy, STOP_DONE, 0, False


@njit(cache=True, nogil=True)
def move_agents(world, positions, displacements, radii, mode, skin, margin, slack,
                min_motion, max_iterations, out, stops, first, stop):
    """:func:`move_agent` for rows ``first:stop``; writes ``out (n, 2)`` and ``stops (n,)``.

    Releases the GIL, so threads can run disjoint row ranges at once.
    """
    contacts = np.empty((1, CONTACT_FIELDS))
    for a in range(first, stop):
        x, y, stop, n, rec = move_agent(world, positions[a, 0], positions[a, 1],
                                        displacements[a, 0], displacements[a, 1], radii[a],
                                        mode, skin, margin, slack, min_motion,
                                        max_iterations, contacts)
        out[a, 0] = x
        out[a, 1] = y
        stops[a] = stop
