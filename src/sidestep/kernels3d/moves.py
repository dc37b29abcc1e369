"""The four ways to move an agent (a sphere or an upright capsule) through a 3D world.

The 3D mirror of :mod:`sidestep.kernels.moves`, the same algorithm with one
more coordinate:

* ``slide``: continuous collide-and-slide (sweep, solve contact planes, repeat);
* ``push``: the radial article's method: move, then push out of each obstacle;
* ``block``: the wall article's method: refuse a move that ends in collision;
* ``ghost``: move without collision.

The agent is its **core** segment (``a == b`` for a sphere; for a capsule the
upright segment ``position -+ half * up``) and its radius. :func:`move_agent`
runs one move and is the only entry point; :func:`move_agents` runs it over
the rows threads take from a queue, so batch and single results are equal.
"""
import math

import numpy as np
from numba import njit

from ..kernels.borrow import borrow
from ..kernels.moves import (MODE_BLOCK, MODE_GHOST, MODE_PUSH, MODE_SLIDE,  # noqa: F401
                             STOP_BLOCKED, STOP_DONE, STOP_MAX_ITERATIONS, STOP_PUSHED,
                             STOP_SLID, STOP_STUCK)
from ..kernels.row_queue import next_rows
from .planes import solve_planes
from .polygon import solving_normal_polygon
from .world import (MAX_NEAR, MAX_PLANES, P_COUNT, P_FIRST, P_NX, P_NY, P_NZ, PRIM_BOX, PRIM_POLYGON,
                    S_BOUNDS, S_NEAR, S_NORMALS, S_OWNERS, S_PARTS, S_POINTS, S_PRIMS,
                    S_SEPARATIONS, SCRATCH_FLOATS, SCRATCH_INTS, candidates, core, penetrations, prim_alive,
                    beyond_prim, borrowed, separation_prim, sweep_prim,
                    frame_of, turn_into, world_radius)

#: Rows of the contact buffer: [obstacle, part, point (3), normal (3), fraction].
CONTACT_FIELDS = 9
#: Contacts one move reports at most.
MAX_CONTACTS = 32

#: Headings of the recovery's search for a free spot: points spread evenly on
#: the unit sphere (a Fibonacci lattice), tried on shells of growing radius.
_HEADINGS = 64
_BISECTIONS = 24
#: Clearances (in skins) the push-out leaves and a spot found on the shells
#: must have; see :mod:`sidestep.kernels.moves` for why these values.
_PUSH_CLEAR = 0.75
_RING_CLEAR = 1.5
#: Plane answers longer than this many times the deepest push (or the wish
#: plus this many skins) are planes meeting far away: see the 2D module.
_FAR = 4.0
#: How far outside a contact (in skins) a searched sweep may stop: well
#: inside the band the skin leaves.
_TOLERANCE = 1e-3
#: A plane is pressed when the straight motion would bring its obstacle
#: closer than this (in skins).
_PRESS = 0.375
#: A core gliding along a face this many skins or more off it, all along a
#: motion, is level with it: the seams of a floor's triangles (inactive
#: edges) do not stop it (:func:`~.polygon.sweep_capsule_polygon`). The
#: skin the slide keeps off a floor is at least twice this.
_LEVEL = 0.25
#: A point within this many skins of a primitive (or inside it) lies on it,
#: and a primitive rising no more than this above a face's plane lies along
#: it: a seam (:func:`_seam_row`).
_SEAM = 1.0
#: Passes a slide may spend crossing seams on top of ``max_iterations``.
SEAM_PASSES = 64
#: A long slide looks ahead at most ``1 / _SPANS`` of its length a pass (and
#: never less than ``_SPAN_AGENTS`` times the agent's size): every pass
#: gathers the primitives near the motion it plans, and a 60 m glide over a
#: detailed floor gathered all of them along the 60 m at every contact (0.1 to
#: 0.5 s). A pass that ends a span without a contact moves on, costing no
#: iteration; there are at most ``_SPANS`` of them.
_SPANS = 8
_SPAN_AGENTS = 4.0
#: A pass that moves at least this share of the agent's size (its radius
#: plus half its core) on before a contact costs no iteration.
_ONWARD = 0.25


@njit(cache=True)
def _record(contacts, n, owner, part, qx, qy, qz, nx, ny, nz, fraction):
    # One contact per obstacle and move: the first one is kept.
    for t in range(n):
        if contacts[t, 0] == owner:
            return n
    if n == contacts.shape[0]:
        return n
    contacts[n, 0] = owner
    contacts[n, 1] = part
    contacts[n, 2] = qx
    contacts[n, 3] = qy
    contacts[n, 4] = qz
    contacts[n, 5] = nx
    contacts[n, 6] = ny
    contacts[n, 7] = nz
    contacts[n, 8] = min(fraction, 1.0)
    return n + 1


@njit(cache=True)
def _heading(h):
    """Heading ``h`` of ``_HEADINGS`` spread evenly on the unit sphere."""
    golden = math.pi * (3.0 - math.sqrt(5.0))
    y = 1.0 - 2.0 * (h + 0.5) / _HEADINGS
    r = math.sqrt(max(0.0, 1.0 - y * y))
    t = golden * h
    return r * math.cos(t), y, r * math.sin(t)


@njit(cache=True)
def _free_spot(world, x, y, z, half, up, radius, clear, skin, wf, wi, cand):
    # Whether the agent at (x, y, z) is at least ``clear`` away from everything.
    world = borrowed(world)
    count = penetrations(world, x, y, z, half, up, radius, clear, True, wf, wi, cand)
    for i in range(count):
        if wf[S_SEPARATIONS + i] < clear:
            return False
    return True


@njit(cache=True)
def _shell_search(world, px, py, pz, half, up, radius, skin, wf, wi, cand, stop):
    """The nearest free spot found on shells of headings around ``p``.

    As the 2D ring search: shells from a radius and two skins out, each half
    as far again, while below ``stop``; on the first shell with a free spot,
    each free heading is bisected back and the nearest spot kept. Returns
    ``(x, y, z, distance)``, distance ``inf`` if none was found.
    """
    world = borrowed(world)
    inner = 0.0
    ring = 2.0 * skin + radius
    while ring < stop:
        best = math.inf
        bx = px
        by = py
        bz = pz
        for h in range(_HEADINGS):
            ux, uy, uz = _heading(h)
            if not _free_spot(world, px + ring * ux, py + ring * uy, pz + ring * uz, half, up,
                              radius, _RING_CLEAR * skin, skin, wf, wi, cand):
                continue
            lo = inner
            hi = ring
            for _ in range(_BISECTIONS):
                mid = 0.5 * (lo + hi)
                if _free_spot(world, px + mid * ux, py + mid * uy, pz + mid * uz, half, up,
                              radius, _RING_CLEAR * skin, skin, wf, wi, cand):
                    hi = mid
                else:
                    lo = mid
            if hi < best:
                best = hi
                bx = px + hi * ux
                by = py + hi * uy
                bz = pz + hi * uz
        if best < math.inf:
            return bx, by, bz, best
        inner = ring
        ring *= 1.5
    return px, py, pz, math.inf


@njit(cache=True)
def recover(world, px, py, pz, half, up, radius, skin, slack, wf, wi, cand):
    """Move an overlapping agent to a nearby free spot (the nearest, out of one obstacle).

    The 2D recovery in 3D: rounds of push-out solving every overlapped
    obstacle's plane together; one push out of one obstacle is the nearest
    spot; otherwise shells of headings closer than the push-out are searched
    too; if still not free, shells go on outwards until the world is left
    behind. Returns ``(x, y, z, ok)``.
    """
    world = borrowed(world)
    x = px
    y = py
    z = pz
    free = False
    pushes = 0
    planes = 0
    for _ in range(16):
        count = penetrations(world, x, y, z, half, up, radius, 2.0 * skin, True, wf, wi, cand)
        planes = max(planes, count)
        worst = math.inf
        for i in range(count):
            worst = min(worst, wf[S_SEPARATIONS + i])
            wf[S_BOUNDS + i] = _PUSH_CLEAR * skin - wf[S_SEPARATIONS + i]
        if worst >= 0.5 * skin:
            free = True
            break
        vx, vy, vz, err = solve_planes(0.0, 0.0, 0.0, wf, S_NORMALS, S_BOUNDS, count, slack)
        if vx == 0.0 and vy == 0.0 and vz == 0.0:
            break
        if vx * vx + vy * vy + vz * vz > (_FAR * (_PUSH_CLEAR * skin - worst)) ** 2:
            break
        x += vx
        y += vy
        z += vz
        pushes += 1
    if free or _free_spot(world, x, y, z, half, up, radius, 0.5 * skin, skin, wf, wi, cand):
        if pushes <= 1 and planes <= 1:
            return x, y, z, True
        pushed = math.sqrt((x - px) ** 2 + (y - py) ** 2 + (z - pz) ** 2)
        rx, ry, rz, near = _shell_search(world, px, py, pz, half, up, radius, skin, wf, wi,
                                         cand, 1.5 * pushed)
        if near < pushed:
            return rx, ry, rz, True
        return x, y, z, True
    far = world_radius(world, px, py, pz) + radius + half
    rx, ry, rz, near = _shell_search(world, px, py, pz, half, up, radius, skin, wf, wi, cand,
                                     2.0 * far + 4.0 * skin)
    if near < math.inf:
        return rx, ry, rz, True
    return px, py, pz, False


@njit(cache=True)
def _gather(world, px, py, pz, half, up, rx, ry, rz, radius, skin, margin, wf, wi, cand,
            unseamed):
    """Contact planes near the agent at ``p``, and the first hit along ``p -> p + r``.

    Obstacles within ``margin`` become contact planes (normal, bound
    ``skin/2 - separation``, surface point, primitive), the nearest primitive
    per obstacle; every other primitive near the path is swept against the
    agent grown by ``skin``. The primitives within ``|r| + 2 skin`` (the
    only ones a sweep from ``p`` by at most ``|r|`` can touch) go to
    ``wi[S_NEAR:]`` for :func:`_sweep`. Returns ``(n_planes, worst,
    worst_row, fraction, hit, hnx, hny, hnz, n_near)``; ``n_near`` is -1
    when more than ``MAX_NEAR`` are near. Primitive ``unseamed`` (-1: none)
    keeps its own plane at a seam (:func:`_seams`).
    """
    world = borrowed(world)
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    length = math.sqrt(rx * rx + ry * ry + rz * rz) + skin
    near = length + skin
    reach = radius + max(margin, near)
    n = candidates(world, ax, ay, az, bx, by, bz, rx, ry, rz, reach, cand)
    if n > cand.shape[0]:
        cand = np.empty(2 * n, dtype=np.int64)
        n = candidates(world, ax, ay, az, bx, by, bz, rx, ry, rz, reach, cand)
    n_planes = 0
    n_near = 0
    worst = math.inf
    worst_row = -1
    fraction = 1.0
    hit = -1
    hnx = 0.0
    hny = 0.0
    hnz = 0.0
    grown = radius + skin
    level = radius + _LEVEL * skin
    for k in range(n):
        e = cand[k]
        if not prim_alive(world, e) or beyond_prim(world, e, ax, ay, az, bx, by, bz, reach):
            continue
        sep, nx, ny, nz, qx, qy, qz = separation_prim(world, e, ax, ay, az, bx, by, bz)
        sep -= radius
        if sep <= near:
            if n_near < MAX_NEAR:
                wi[S_NEAR + n_near] = e
            n_near += 1
        if sep <= margin:
            # One plane per primitive: a mesh's triangles are each a contact.
            if n_planes == MAX_PLANES:
                continue
            if world.kind[e] == PRIM_POLYGON and sep > -radius:
                nx, ny, nz = solving_normal_polygon(ax, ay, az, bx, by, bz, qx, qy, qz, nx, ny,
                                                    nz, level)
            row = n_planes
            n_planes += 1
            wf[S_NORMALS + 3 * row] = nx
            wf[S_NORMALS + 3 * row + 1] = ny
            wf[S_NORMALS + 3 * row + 2] = nz
            wf[S_SEPARATIONS + row] = sep
            wf[S_BOUNDS + row] = 0.5 * skin - sep
            wf[S_POINTS + 3 * row] = qx
            wf[S_POINTS + 3 * row + 1] = qy
            wf[S_POINTS + 3 * row + 2] = qz
            wi[S_OWNERS + row] = world.owner[e]
            wi[S_PRIMS + row] = e
            wi[S_PARTS + row] = world.part[e]
        elif sep <= length:
            f, fnx, fny, fnz = sweep_prim(world, e, ax, ay, az, bx, by, bz, rx, ry, rz, grown,
                                          _TOLERANCE * skin, level)
            if f < fraction:
                fraction = f
                hit = e
                hnx = fnx
                hny = fny
                hnz = fnz
    if n_planes > 1:
        _seams(world, ax, ay, az, bx, by, bz, radius, skin, n_planes, wf, wi, unseamed)
    for t in range(n_planes):
        if wf[S_SEPARATIONS + t] < worst:
            worst = wf[S_SEPARATIONS + t]
            worst_row = t
    if n_near > MAX_NEAR:
        n_near = -1
    return n_planes, worst, worst_row, fraction, hit, hnx, hny, hnz, n_near


@njit(cache=True)
def _support(world, e, nx, ny, nz):
    # The largest n . x over primitive e (a box's corners, a panel's or a
    # triangle's); inf for round ones (a sphere or a cylinder is never a seam).
    world = borrowed(world)
    p = world.params[e]
    k = world.kind[e]
    if k == PRIM_BOX:
        f = frame_of(p)
        if f < 0:
            return max(nx * p[0], nx * p[3]) + max(ny * p[1], ny * p[4]) + \
                max(nz * p[2], nz * p[5])
        # In a turned body: n . (R x + t) = (R^T n) . x + n . t.
        v = world.vertices
        mx, my, mz = turn_into(v, f, nx, ny, nz)
        return max(mx * p[0], mx * p[3]) + max(my * p[1], my * p[4]) + \
            max(mz * p[2], mz * p[5]) + nx * v[f + 3, 0] + ny * v[f + 3, 1] + nz * v[f + 3, 2]
    if k == PRIM_POLYGON:
        best = -math.inf
        first = int(p[P_FIRST])
        for c in range(int(p[P_COUNT])):
            v = world.loop[first + c]
            best = max(best, nx * world.vertices[v, 0] + ny * world.vertices[v, 1]
                       + nz * world.vertices[v, 2])
        return best
    return math.inf


@njit(cache=True)
def _face_plane(world, e, nx, ny, nz):
    # Whether n is the normal of one of primitive e's faces (a box's side, a
    # panel's or triangle's plane, either way): a contact on a face, not on an
    # edge or corner (whose planes are tilted tangents).
    world = borrowed(world)
    k = world.kind[e]
    if k == PRIM_BOX:
        f = frame_of(world.params[e])
        if f < 0:
            return (nx == 0.0 and ny == 0.0) or (nx == 0.0 and nz == 0.0) or \
                (ny == 0.0 and nz == 0.0)
        # In a turned body: along an axis of its frame, to rounding of the turn.
        mx, my, mz = turn_into(world.vertices, f, nx, ny, nz)
        return max(abs(mx), abs(my), abs(mz)) >= 1.0 - 1e-12
    if k == PRIM_POLYGON:
        p = world.params[e]
        return abs(abs(nx * p[P_NX] + ny * p[P_NY] + nz * p[P_NZ]) - 1.0) <= 1e-12
    return False


@njit(cache=True)
def _seam_row(world, e, qx, qy, qz, skin, n_planes, wf, wi, anywhere):
    """The contact row whose face makes a seam with primitive ``e`` at ``q``, or -1.

    A seam (the 3D counterpart of :func:`sidestep.kernels.moves._seam_row`):
    the row touches the agent with a face (its plane is that face's); ``e``
    lies wholly on or behind that face's plane, within ``_SEAM`` skins (a box
    beside a box, flush: not a step rising above it); and ``q`` lies within
    ``_SEAM`` skins of the row's primitive, or in it. With ``anywhere``, ``q``
    need only lie on the face's plane: a sweep gliding along a floor stopped
    at ``e`` however far along it (the next triangle of a mesh whose edges
    are not shared, the next box of a floor of boxes), and the slide glides
    on over it without spending one of its ``max_iterations``.
    """
    world = borrowed(world)
    for j in range(n_planes):
        f = wi[S_PRIMS + j]
        if f == e:
            continue
        mx = wf[S_NORMALS + 3 * j]
        my = wf[S_NORMALS + 3 * j + 1]
        mz = wf[S_NORMALS + 3 * j + 2]
        if not _face_plane(world, f, mx, my, mz):
            continue
        level = (mx * wf[S_POINTS + 3 * j] + my * wf[S_POINTS + 3 * j + 1]
                 + mz * wf[S_POINTS + 3 * j + 2])
        if anywhere:
            if abs(mx * qx + my * qy + mz * qz - level) > _SEAM * skin:
                continue
        elif separation_prim(world, f, qx, qy, qz, qx, qy, qz)[0] > _SEAM * skin:
            continue
        if _support(world, e, mx, my, mz) - level <= _SEAM * skin:
            return j
    return -1


@njit(cache=True)
def _seams(world, ax, ay, az, bx, by, bz, radius, skin, n_planes, wf, wi, unseamed):
    """Contact planes at a seam take the plane of the face beside them.

    Two boxes side by side with flush tops, a panel continuing a panel: the
    edge where they meet lies on the other's face, and its plane is the
    tangent of that edge, tilted towards the agent; solved with the face
    beside it, that tilt threw an agent pressing down over a floor of 20
    boxes upwards (a point 2.6 units, radius 0.25 by 5 mm). Such a plane
    takes the face's plane (:func:`_seam_row`). Only the direction the
    solver slides along changes; the sweeps test every primitive as it is.
    Meshes have active edges for this already.
    """
    world = borrowed(world)
    for i in range(n_planes):
        # A contact on a face of its own keeps it: only an edge's or a
        # corner's tilted plane is a seam's. Two faces bent a little (a
        # mesh's triangles over an inactive edge, both reporting their face)
        # are each solved as they are; one taking the other's plane let the
        # agent move into its own face, where the sweep stopped it dead.
        if _face_plane(world, wi[S_PRIMS + i], wf[S_NORMALS + 3 * i],
                       wf[S_NORMALS + 3 * i + 1], wf[S_NORMALS + 3 * i + 2]):
            continue
        # A seam's plane that let the agent move into its own primitive, where
        # the sweep stopped it dead, is not taken again in this move.
        if wi[S_PRIMS + i] == unseamed:
            continue
        qx = wf[S_POINTS + 3 * i]
        qy = wf[S_POINTS + 3 * i + 1]
        qz = wf[S_POINTS + 3 * i + 2]
        j = _seam_row(world, wi[S_PRIMS + i], qx, qy, qz, skin, n_planes, wf, wi, False)
        if j < 0:
            continue
        mx = wf[S_NORMALS + 3 * j]
        my = wf[S_NORMALS + 3 * j + 1]
        mz = wf[S_NORMALS + 3 * j + 2]
        wf[S_NORMALS + 3 * i] = mx
        wf[S_NORMALS + 3 * i + 1] = my
        wf[S_NORMALS + 3 * i + 2] = mz
        # The core's end nearest the face's plane, a radius away.
        sep = min(mx * (ax - qx) + my * (ay - qy) + mz * (az - qz),
                  mx * (bx - qx) + my * (by - qy) + mz * (bz - qz)) - radius
        wf[S_BOUNDS + i] = 0.5 * skin - sep


@njit(cache=True)
def _is_plane_prim(wi, n_planes, e):
    for t in range(n_planes):
        if wi[S_PRIMS + t] == e:
            return True
    return False


@njit(cache=True)
def _swap_planes(wf, wi, i, j):
    # Exchange contact plane rows i and j.
    for k in range(3):
        a = S_NORMALS + 3 * i + k
        b = S_NORMALS + 3 * j + k
        wf[a], wf[b] = wf[b], wf[a]
        a = S_POINTS + 3 * i + k
        b = S_POINTS + 3 * j + k
        wf[a], wf[b] = wf[b], wf[a]
    for base in (S_BOUNDS, S_SEPARATIONS):
        wf[base + i], wf[base + j] = wf[base + j], wf[base + i]
    for base in (S_OWNERS, S_PRIMS, S_PARTS):
        wi[base + i], wi[base + j] = wi[base + j], wi[base + i]


@njit(cache=True)
def _pressed(world, ax, ay, az, bx, by, bz, vx, vy, vz, radius, skin, wf, wi, first, count):
    """Move the planes in rows ``[first, count)`` whose primitive the agent moving by
    ``v`` would approach closer than ``_PRESS`` skins to rows ``first`` onwards;
    returns the row after the last one moved."""
    world = borrowed(world)
    n = first
    for i in range(first, count):
        pressed = radius + _PRESS * skin
        f, _, _, _ = sweep_prim(world, wi[S_PRIMS + i], ax, ay, az, bx, by, bz, vx, vy, vz,
                                pressed, _TOLERANCE * skin, pressed)
        if f <= 1.0:
            if i != n:
                _swap_planes(wf, wi, i, n)
            n += 1
    return n


@njit(cache=True)
def _sweep(world, px, py, pz, half, up, vx, vy, vz, radius, skin, n_planes, n_near, wi, cand):
    """First contact of the agent moving by ``v``: ``(fraction, hit, nx, ny, nz)``.

    Primitives that are contact planes are swept grown by only ``skin/4`` (the
    planes keep them ``skin/2`` away; this is the safety net), the others
    grown by ``skin``. With ``n_near >= 0`` the primitives swept are the
    ``n_near`` in ``wi[S_NEAR:]`` that :func:`_gather` found at ``p`` for a
    motion at least as long as ``v`` (every other one is farther than
    ``|v| + 2 skin``: a sweep cannot reach it); else those the tree finds.
    """
    world = borrowed(world)
    ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
    grown = radius + skin
    if n_near >= 0:
        n = n_near
    else:
        n = candidates(world, ax, ay, az, bx, by, bz, vx, vy, vz, grown, cand)
        if n > cand.shape[0]:
            cand = np.empty(2 * n, dtype=np.int64)
            n = candidates(world, ax, ay, az, bx, by, bz, vx, vy, vz, grown, cand)
    fraction = 1.0
    hit = -1
    hnx = 0.0
    hny = 0.0
    hnz = 0.0
    for k in range(n):
        e = wi[S_NEAR + k] if n_near >= 0 else cand[k]
        if not prim_alive(world, e):
            continue
        r = radius + 0.25 * skin if _is_plane_prim(wi, n_planes, e) else grown
        f, fnx, fny, fnz = sweep_prim(world, e, ax, ay, az, bx, by, bz, vx, vy, vz, r,
                                      _TOLERANCE * skin, radius + _LEVEL * skin)
        if f < fraction:
            fraction = f
            hit = e
            hnx = fnx
            hny = fny
            hnz = fnz
    return fraction, hit, hnx, hny, hnz


@njit(cache=True)
def slide(world, px, py, pz, dx, dy, dz, half, up, radius, skin, margin, slack, min_motion,
          max_iterations, wf, wi, cand, contacts):
    """Continuous collide-and-slide of the agent from ``p`` by ``d``.

    Exactly the passes of the 2D :func:`sidestep.kernels.moves.slide`, with
    3D contact planes (a corner of three panels is solved at once by
    :func:`~sidestep.kernels3d.planes.solve_planes`). Returns ``(x, y, z,
    stop, n_contacts, recovered)``; contacts go to ``contacts (k, 9)``.
    """
    world = borrowed(world)
    total = math.sqrt(dx * dx + dy * dy + dz * dz)
    scale = 1.0 / total if total > 0.0 else 0.0
    n_contacts = 0
    recovered = False
    rem_x = dx
    rem_y = dy
    rem_z = dz
    travelled = 0.0
    limited = False
    stop = STOP_MAX_ITERATIONS
    it = 0
    passes = 0
    span = max(total / _SPANS, _SPAN_AGENTS * (radius + half + skin))
    spans = 0
    unseamed = -1
    while it < max_iterations and passes < max_iterations + SEAM_PASSES:
        passes += 1
        rem_len = math.sqrt(rem_x * rem_x + rem_y * rem_y + rem_z * rem_z)
        if rem_len <= min_motion and passes > 1:
            stop = STOP_SLID if limited else STOP_DONE
            break
        # What this pass looks ahead along: the rest, or a span of it.
        ahead = 1.0 if rem_len <= span else span / rem_len
        n_planes, worst, row, fraction, hit, hnx, hny, hnz, n_near = _gather(
            world, px, py, pz, half, up, ahead * rem_x, ahead * rem_y, ahead * rem_z, radius,
            skin, margin, wf, wi, cand, unseamed)
        if passes == 1 and worst < 0.0:
            n_contacts = _record(contacts, n_contacts, wi[S_OWNERS + row], wi[S_PARTS + row],
                                 wf[S_POINTS + 3 * row], wf[S_POINTS + 3 * row + 1],
                                 wf[S_POINTS + 3 * row + 2], wf[S_NORMALS + 3 * row],
                                 wf[S_NORMALS + 3 * row + 1], wf[S_NORMALS + 3 * row + 2], 0.0)
            px, py, pz, ok = recover(world, px, py, pz, half, up, radius, skin, slack, wf, wi,
                                     cand)
            recovered = True
            if not ok:
                return px, py, pz, STOP_STUCK, n_contacts, recovered
            n_planes, worst, row, fraction, hit, hnx, hny, hnz, n_near = _gather(
                world, px, py, pz, half, up, ahead * rem_x, ahead * rem_y, ahead * rem_z,
                radius, skin, margin, wf, wi, cand, unseamed)
        if rem_len <= min_motion:
            stop = STOP_DONE
            break
        budget = total - travelled
        if budget <= min_motion:
            stop = STOP_SLID if limited else STOP_DONE
            break
        vx = ahead * rem_x
        vy = ahead * rem_y
        vz = ahead * rem_z
        v_len = ahead * rem_len
        # A pass that ends a span short of the rest goes on (below): the
        # motion unsolved is the span; a solved one is cut to it further on.
        spanned = ahead < 1.0
        if n_planes > 0:
            ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
            err = 0.0
            n_active = _pressed(world, ax, ay, az, bx, by, bz, vx, vy, vz, radius, skin, wf,
                                wi, 0, n_planes)
            n_solved = 0
            far = (rem_len + _FAR * skin) ** 2
            while n_active > n_solved:
                n_solved = n_active
                vx, vy, vz, err = solve_planes(rem_x, rem_y, rem_z, wf, S_NORMALS, S_BOUNDS,
                                               n_active, slack)
                if err <= slack and vx * vx + vy * vy + vz * vz > far:
                    for i in range(n_active):
                        wf[S_BOUNDS + i] = min(wf[S_BOUNDS + i], 0.0)
                    vx, vy, vz, err = solve_planes(rem_x, rem_y, rem_z, wf, S_NORMALS,
                                                   S_BOUNDS, n_active, slack)
                if err > slack:
                    break
                n_active = _pressed(world, ax, ay, az, bx, by, bz, vx, vy, vz, radius, skin,
                                    wf, wi, n_active, n_planes)
            if err > slack or vx * dx + vy * dy + vz * dz < -skin * total:
                vx = 0.0
                vy = 0.0
                vz = 0.0
            active = False
            for i in range(n_active):
                pnx = wf[S_NORMALS + 3 * i]
                pny = wf[S_NORMALS + 3 * i + 1]
                pnz = wf[S_NORMALS + 3 * i + 2]
                if pnx * rem_x + pny * rem_y + pnz * rem_z < wf[S_BOUNDS + i] - slack:
                    active = True
                    limited = True
                    n_contacts = _record(contacts, n_contacts, wi[S_OWNERS + i],
                                         wi[S_PARTS + i], wf[S_POINTS + 3 * i],
                                         wf[S_POINTS + 3 * i + 1], wf[S_POINTS + 3 * i + 2],
                                         pnx, pny, pnz, travelled * scale)
            v_len = math.sqrt(vx * vx + vy * vy + vz * vz)
            if v_len <= min_motion or (active and v_len <= skin):
                stop = STOP_BLOCKED
                break
            if n_solved > 0:
                spanned = False
            # No longer than the budget left, nor than a span (then more follows).
            # Cut short, the motion is solved again against the same planes: a
            # plane's bound pushing out of it (a contact closer than half a skin)
            # shrinks with the motion otherwise, and the sweep's safety net then
            # stops the agent dead where it stands.
            limit = min(budget, span)
            if v_len > limit:
                k = limit / v_len
                cx, cy, cz, cerr = solve_planes(k * vx, k * vy, k * vz, wf, S_NORMALS,
                                                S_BOUNDS, n_active, slack)
                if cerr <= slack:
                    vx, vy, vz = cx, cy, cz
                else:
                    vx *= k
                    vy *= k
                    vz *= k
                v_len = math.sqrt(vx * vx + vy * vy + vz * vz)
                spanned = spanned or span < budget
            fraction, hit, hnx, hny, hnz = _sweep(world, px, py, pz, half, up, vx, vy, vz,
                                                  radius, skin, n_planes,
                                                  n_near if v_len <= ahead * rem_len else -1,
                                                  wi, cand)
        elif v_len > budget:
            k = budget / v_len
            vx *= k
            vy *= k
            vz *= k
            v_len = budget
            spanned = False
            if fraction > k:
                fraction = 1.0
                hit = -1
            else:
                fraction /= k
        px += fraction * vx
        py += fraction * vy
        pz += fraction * vz
        travelled += fraction * v_len
        rem_x -= fraction * vx
        rem_y -= fraction * vy
        rem_z -= fraction * vz
        if hit < 0:
            if spanned and spans < _SPANS:
                # A span without a contact: on to the next, for free.
                spans += 1
                passes -= 1
                continue
            stop = STOP_SLID if limited else STOP_DONE
            break
        limited = True
        # The contact point: the hit primitive's surface point nearest the agent now.
        ax, ay, az, bx, by, bz = core(px, py, pz, half, up)
        _, _, _, _, qx, qy, qz = separation_prim(world, hit, ax, ay, az, bx, by, bz)
        n_contacts = _record(contacts, n_contacts, world.owner[hit], world.part[hit],
                             qx, qy, qz, hnx, hny, hnz, travelled * scale)
        # Gliding over a seam, or on over a curved floor's creases a good part
        # of the agent's size at a time, costs a pass but not one of the
        # max_iterations (a wedge's passes, each a fraction of the last, do);
        # a pass that got nowhere costs one.
        moved = fraction * v_len
        if moved <= min_motion and _is_plane_prim(wi, n_planes, hit):
            unseamed = hit
        if moved < _ONWARD * (radius + half) + skin and \
                (n_planes == 0 or moved <= min_motion or
                 _seam_row(world, hit, qx, qy, qz, skin, n_planes, wf, wi, True) < 0):
            it += 1
    return px, py, pz, stop, n_contacts, recovered


@njit(cache=True)
def _overlap_contacts(world, x, y, z, half, up, radius, wf, wi, cand, contacts):
    # Contacts for every obstacle the agent at (x, y, z) overlaps; returns their count.
    world = borrowed(world)
    count = penetrations(world, x, y, z, half, up, radius, 0.0, False, wf, wi, cand)
    n_contacts = 0
    for i in range(count):
        if wf[S_SEPARATIONS + i] < 0.0:
            n_contacts = _record(contacts, n_contacts, wi[S_OWNERS + i], wi[S_PARTS + i],
                                 wf[S_POINTS + 3 * i], wf[S_POINTS + 3 * i + 1],
                                 wf[S_POINTS + 3 * i + 2], wf[S_NORMALS + 3 * i],
                                 wf[S_NORMALS + 3 * i + 1], wf[S_NORMALS + 3 * i + 2], 1.0)
    return count, n_contacts


@njit(cache=True)
def push(world, px, py, pz, dx, dy, dz, half, up, radius, wf, wi, cand, contacts):
    """The radial article's method: move, then push out of each overlapped obstacle.

    Contributions ``-separation * normal`` add up, one pass (fast moves tunnel).
    """
    world = borrowed(world)
    x = px + dx
    y = py + dy
    z = pz + dz
    count, n_contacts = _overlap_contacts(world, x, y, z, half, up, radius, wf, wi, cand,
                                          contacts)
    ox = 0.0
    oy = 0.0
    oz = 0.0
    for i in range(count):
        sep = wf[S_SEPARATIONS + i]
        if sep < 0.0:
            ox -= sep * wf[S_NORMALS + 3 * i]
            oy -= sep * wf[S_NORMALS + 3 * i + 1]
            oz -= sep * wf[S_NORMALS + 3 * i + 2]
    stop = STOP_PUSHED if n_contacts > 0 else STOP_DONE
    return x + ox, y + oy, z + oz, stop, n_contacts, False


@njit(cache=True)
def block(world, px, py, pz, dx, dy, dz, half, up, radius, wf, wi, cand, contacts):
    """The wall article's method: if the agent at ``p + d`` collides, stay at ``p``."""
    world = borrowed(world)
    x = px + dx
    y = py + dy
    z = pz + dz
    count, n_contacts = _overlap_contacts(world, x, y, z, half, up, radius, wf, wi, cand,
                                          contacts)
    if n_contacts > 0:
        return px, py, pz, STOP_BLOCKED, n_contacts, False
    return x, y, z, STOP_DONE, 0, False


@njit(cache=True)
def move_agent(world, px, py, pz, dx, dy, dz, radius, half, up, mode, skin, margin, slack,
               min_motion, max_iterations, wf, wi, contacts):
    """One move in ``mode``; returns ``(x, y, z, stop, n_contacts, recovered)``.

    ``half`` is half the capsule core's length (0 for a sphere), ``up`` the up
    axis (0, 1 or 2); ``wf``, ``wi`` scratch; contacts go to ``contacts (k, 9)``.
    """
    world = borrowed(world)
    cand = np.empty(64, dtype=np.int64)
    return _move(world, px, py, pz, dx, dy, dz, radius, half, up, mode, skin, margin, slack,
                 min_motion, max_iterations, wf, wi, cand, contacts)


@njit(cache=True)
def _move(world, px, py, pz, dx, dy, dz, radius, half, up, mode, skin, margin, slack,
          min_motion, max_iterations, wf, wi, cand, contacts):
    world = borrowed(world)
    if mode == MODE_SLIDE:
        return slide(world, px, py, pz, dx, dy, dz, half, up, radius, skin, margin, slack,
                     min_motion, max_iterations, wf, wi, cand, contacts)
    if mode == MODE_PUSH:
        return push(world, px, py, pz, dx, dy, dz, half, up, radius, wf, wi, cand, contacts)
    if mode == MODE_BLOCK:
        return block(world, px, py, pz, dx, dy, dz, half, up, radius, wf, wi, cand, contacts)
    return px + dx, py + dy, pz + dz, STOP_DONE, 0, False


@njit(cache=True, nogil=True)
def move_agents(world, positions, displacements, radii, halves, up, mode, skin, margin, slack,
                min_motion, max_iterations, out, queue):
    """:func:`move_agent` for the rows taken from ``queue``; ends into ``out (n, 3)``.

    Releases the GIL so threads run at once; a row's result does not depend
    on which thread took it.
    """
    world = borrowed(world)
    contacts = np.empty((1, CONTACT_FIELDS))
    wf = np.empty(SCRATCH_FLOATS)
    wi = np.empty(SCRATCH_INTS, dtype=np.int64)
    cand = np.empty(64, dtype=np.int64)
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for k in range(first, stop):
            x, y, z, _, _, _ = _move(world, positions[k, 0], positions[k, 1], positions[k, 2],
                                     displacements[k, 0], displacements[k, 1],
                                     displacements[k, 2], radii[k], halves[k], up, mode, skin,
                                     margin, slack, min_motion, max_iterations, wf, wi, cand,
                                     contacts)
            out[k, 0] = x
            out[k, 1] = y
            out[k, 2] = z
