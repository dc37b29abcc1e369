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

from .borrow import borrow
from .direct import registered
from .index import cell_hint, clamp, columns_capsule, rows_capsule
from .planes import solve_planes
from .prefetch import prefetch
from .row_queue import next_rows
from .world import (MAX_PLANES, S_BOUNDS, S_ITEMS, S_NORMALS, S_OWNERS, S_POINTS,
                    S_INSIDE, S_SEPARATIONS, SCRATCH_FLOATS, SCRATCH_INTS, cell_span,
                    ITEM, inside_areas, item_geometry, item_owner, nearest_point, item_owner_alive, item_within_reach, listed,
                    borrowed, penetrations, probe_point, separation_item, sweep_item, unpack_world)

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
STOP_SQUEEZED = 6        # a moving body pushed the agent against something else

#: Rows of the contact buffer: [obstacle, point x, point y, normal x, normal y, fraction].
CONTACT_FIELDS = 6


@njit(cache=True, forceinline=False)
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
    contacts[n, 5] = min(fraction, 1.0)     # rounding of the travelled sum, never beyond the end
    return n + 1


@njit(cache=True, forceinline=False)
def _bounds_escape(world, px, py, radius):
    # Distance from p beyond which the world's broadphase box (and so every
    # obstacle) is left behind by more than the radius: always free there.
    world = borrowed(world)
    escape = 0.0
    for grid in range(2):       # the grid of what never moves, and the bodies'
        c = world.items if grid == 0 else world.moving
        if c.nx == 0:
            continue
        x0 = c.origin_x
        y0 = c.origin_y
        x1 = x0 + c.nx * c.cell_size
        y1 = y0 + c.ny * c.cell_size
        far_x = max(abs(px - x0), abs(px - x1))
        far_y = max(abs(py - y0), abs(py - y1))
        escape = max(escape, math.sqrt(far_x * far_x + far_y * far_y) + radius + c.cell_size)
    return escape


#: Headings tried on each ring of the recovery fallback, and the bisection
#: steps that then bring a free heading's spot back towards the start.
_HEADINGS = 32
_BISECTIONS = 24
#: Clearance (in skins) the push-out leaves, inside the band a slide contact
#: leaves (half a skin to a skin) but not at its edge: an agent left exactly a
#: skin from a surface would graze the corners beside it on its next move,
#: where rounding decides between touching and not.
_PUSH_CLEAR = 0.75
#: Clearance (in skins) a spot found on the rings must have: more than a
#: skin, so that the disc grown by the skin is clear too (not grazing either).
_RING_CLEAR = 1.5
#: Contact planes that meet only far away: nearly opposite planes (a wedge or
#: a corridor narrower than the disc, or than the skin a slide keeps) meet at a
#: corner far along the crease, and the plane solver, exact, goes there. A
#: push-out longer than this many times the deepest push (a wedge narrower
#: than about 30 degrees) is left to the ring search, which finds the nearest
#: free spot; a slide answer longer than the wish by this many skins is solved
#: again without backing off.
_FAR = 4.0


@njit(cache=True, forceinline=False)
def _separation_far(world, x, y, wi):
    # The signed separation of (x, y) from the nearest surface, however far:
    # negative far behind a one-sided wall (the void outside a level).
    world = borrowed(world)
    _, sep, _, _, _, _ = nearest_point(world, x, y, wi)
    return sep


@njit(cache=True, forceinline=False, inline="always")
def _free_spot(world, x, y, radius, clear, skin, wi):
    # Whether a disc of radius at (x, y) is at least ``clear`` away from everything
    # (and, in a level with a boundary, inside it: not in the void, however far).
    if world.one_sided:
        return _separation_far(world, x, y, wi) >= radius + clear
    owner, sep, _, _, _, _ = probe_point(world, x, y, radius + clear + 0.5 * skin, wi)
    return owner < 0 or sep >= radius + clear


@njit(cache=True, forceinline=False)
def _ring_search(world, px, py, radius, skin, wi, stop):
    """The nearest free spot for the disc found on rings around ``p``.

    Rings of candidate spots (32 headings, the first ring a radius and two
    skins out, each next one half as far again) are tried while their radius
    is below ``stop``; on the first ring with a free spot, each free heading
    is bisected back towards the ring before (where it was not free) and the
    nearest spot found is taken. Returns ``(x, y, distance)``; ``distance``
    is ``inf`` if no ring had a free spot.
    """
    world = borrowed(world)
    inner = 0.0
    ring = 2.0 * skin + radius
    while ring < stop:
        best = math.inf
        best_x = px
        best_y = py
        for h in range(_HEADINGS):
            angle = 2.0 * math.pi * h / _HEADINGS
            ux = math.cos(angle)
            uy = math.sin(angle)
            if not _free_spot(world, px + ring * ux, py + ring * uy, radius, _RING_CLEAR * skin,
                              skin, wi):
                continue
            lo = inner
            hi = ring
            for _ in range(_BISECTIONS):
                mid = 0.5 * (lo + hi)
                if _free_spot(world, px + mid * ux, py + mid * uy, radius, _RING_CLEAR * skin,
                              skin, wi):
                    hi = mid
                else:
                    lo = mid
            if hi < best:
                best = hi
                best_x = px + hi * ux
                best_y = py + hi * uy
        if best < math.inf:
            return best_x, best_y, best
        inner = ring
        ring *= 1.5
    return px, py, math.inf


@njit(cache=True, forceinline=False)
def recover(world, px, py, radius, skin, slack, wf, wi):
    """Move an overlapping agent to a nearby free spot (the nearest, out of one obstacle).

    1. Up to 16 rounds of push-out: every obstacle the disc overlaps or
       nearly touches is a plane constraint "end three quarters of a skin
       outside me", and the smallest motion that meets them all is applied
       (solved together, so leaving one obstacle never means entering another),
       unless it is more than ``_FAR`` times the deepest push (the planes of a
       tight wedge meet far along it).
    2. One push out of one obstacle is the nearest free spot. Otherwise the
       push-out heads for the nearest free point, which is not always where
       the nearest spot for the whole disc is (a room nearer as a point but
       too small at its corner), so rings of candidate spots closer than
       where it ended are searched too (:func:`_ring_search`), and the nearer
       spot is taken.
    3. If the agent is still not free (wedged where the constraints conflict,
       or pushed into the void behind a one-sided wall: the level's outside),
       the rings go on outwards until one has a free spot; they end outside
       the world, where every spot is free (but the void).

    ``wf``, ``wi`` are the scratch buffers. Returns ``(x, y, ok)``; ``ok`` is
    False only if no free spot was found.
    """
    world = borrowed(world)
    x = px
    y = py
    free = False
    # One push out of one obstacle goes straight to the nearest free spot.
    pushes = 0
    planes = 0
    for _ in range(16):
        count = penetrations(world, x, y, radius, 2.0 * skin, wf, wi)
        planes = max(planes, count)
        worst = math.inf
        for i in range(count):
            worst = min(worst, wf[S_SEPARATIONS + i])
            # Separation after moving v: about separations[i] + n_i . v >= _PUSH_CLEAR skins.
            wf[S_BOUNDS + i] = _PUSH_CLEAR * skin - wf[S_SEPARATIONS + i]
        if worst >= 0.5 * skin:
            free = True
            break
        vx, vy, err = solve_planes(0.0, 0.0, wf, S_NORMALS, S_BOUNDS, count, slack)
        if vx == 0.0 and vy == 0.0:
            break
        # The deepest push is _PUSH_CLEAR skins past the deepest overlap.
        if vx * vx + vy * vy > (_FAR * (_PUSH_CLEAR * skin - worst)) ** 2:
            break
        x += vx
        y += vy
        pushes += 1
    # (Clear of every contact is free, unless one-sided walls may have the
    # push-out behind them: then the void counts too.)
    if (free and not world.one_sided) or _free_spot(world, x, y, radius, 0.5 * skin, skin, wi):
        if pushes <= 1 and planes <= 1:
            return x, y, True
        # 2. A nearer spot on the rings inside the push-out's distance?
        pushed = math.sqrt((x - px) ** 2 + (y - py) ** 2)
        rx, ry, near = _ring_search(world, px, py, radius, skin, wi, 1.5 * pushed)
        if near < pushed:
            return rx, ry, True
        return x, y, True
    # 3. Rings out to where the world is left behind.
    rx, ry, near = _ring_search(world, px, py, radius, skin, wi,
                                2.0 * _bounds_escape(world, px, py, radius))
    if near < math.inf:
        return rx, ry, True
    return px, py, False


@njit(cache=True, inline="always")
def _reaches(rx, ry, radius, skin, margin):
    """How far :func:`_gather` looks from the disc at ``p`` moving by ``r``.

    Returns ``(reach, length, farthest)``: the capsule ``p -> p + r`` of
    radius ``reach`` covers the cells read; obstacles farther than
    ``length`` (the move plus the skin) cannot be hit, their separation
    alone rules them out without a sweep; nothing farther than ``farthest``
    from ``p`` becomes a plane or can be hit.
    """
    length = math.sqrt(rx * rx + ry * ry) + skin
    return radius + margin, length, radius + max(margin, length)


@njit(cache=True, forceinline=True)
def _clear(world, px, py, rx, ry, radius, skin, margin):
    """Whether nothing lies within :func:`_gather`'s reach of the disc at ``p`` moving by ``r``.

    :func:`_gather`'s walk over the same cells, stopping at the first item
    that passes its first test (within ``farthest``, alive): when none does,
    the move meets nothing. The common case, tried before a slide sets up
    its passes.
    """
    reach, _, farthest = _reaches(rx, ry, radius, skin, margin)
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        j0, j1 = rows_capsule(cells, px, py, px + rx, py + ry, reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px + rx, py + ry, reach, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    if _near(world, np.int64(world.small[t]), px, py, farthest):
                        return False
    return True


@njit(cache=True, inline="always")
def _near(world, e, px, py, farthest):
    """Whether item ``e`` passes :func:`_gather`'s first test for a disc at ``p``: alive
    and within ``farthest`` (:func:`_reaches`) of it (:func:`_clear` stops at the first)."""
    return item_within_reach(world, e, px, py, farthest) and item_owner_alive(world, e)


@njit(cache=True, forceinline=True)
def _gather(world, px, py, rx, ry, radius, skin, margin, wf, wi):
    """One look at everything near the disc at ``p`` and along ``p -> p + r``.

    Obstacles within ``margin`` of the disc become contact planes in the
    scratch buffers (normal, bound ``skin/2 - separation``, surface point,
    item); every other obstacle near the path is swept against the disc grown
    by ``skin`` along ``r``. A move with no contact planes is then finished in
    this single pass. Returns ``(n_planes, worst, worst_row, fraction, hit,
    hnx, hny)``: ``worst`` is the smallest separation among the planes (and
    ``worst_row`` its row), negative when the disc overlaps something.
    """
    n_planes = 0
    worst = math.inf
    worst_row = -1
    fraction = 1.0
    hit = -1
    hnx = 0.0
    hny = 0.0
    grown = radius + skin
    reach, length, farthest = _reaches(rx, ry, radius, skin, margin)
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px + rx, py + ry, reach)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px + rx, py + ry, reach, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    e = np.int64(world.small[t])
                    if not item_within_reach(world, e, px, py, farthest) or \
                            not item_owner_alive(world, e) or listed(wi, S_ITEMS, n_planes, e):
                        continue
                    sep, nx, ny, qx, qy = separation_item(world, e, px, py)
                    sep -= radius
                    if sep <= margin and n_planes < MAX_PLANES:
                        wf[S_NORMALS + 2 * n_planes] = nx
                        wf[S_NORMALS + 2 * n_planes + 1] = ny
                        # Approach no closer than skin / 2: n . v >= skin/2 - sep.
                        wf[S_BOUNDS + n_planes] = 0.5 * skin - sep
                        wf[S_POINTS + 2 * n_planes] = qx
                        wf[S_POINTS + 2 * n_planes + 1] = qy
                        wi[S_ITEMS + n_planes] = e
                        if sep < worst:
                            worst = sep
                            worst_row = n_planes
                        n_planes += 1
                    elif sep <= length:
                        f, fnx, fny = sweep_item(world, e, px, py, rx, ry, grown)
                        if f < fraction:
                            fraction = f
                            hit = e
                            hnx = fnx
                            hny = fny
    if n_planes > 1:
        _seams(world, px, py, radius, skin, n_planes, wf, wi)
    return n_planes, worst, worst_row, fraction, hit, hnx, hny


#: A point within this many skins of an item (or inside it) lies on it: where
#: two items meet at a seam (see :func:`_seams`).
_SEAM = 1.0

#: Passes a slide may spend crossing seams on top of ``max_iterations``.
SEAM_PASSES = 64


@njit(cache=True, inline="always")
def _face_contact(world, e, px, py):
    # Whether the point of item e's core nearest p lies strictly between its ends.
    ax, ay, bx, by, _ = item_geometry(world, e)
    ux = bx - ax
    uy = by - ay
    length2 = ux * ux + uy * uy
    if length2 == 0.0:
        return False
    t = ((px - ax) * ux + (py - ay) * uy) / length2
    return 0.0 < t < 1.0


@njit(cache=True, forceinline=False)
def _seam_row(world, e, px, py, skin, n_planes, wf, wi):
    """The contact row whose item makes a seam with item ``e`` near ``p``, or -1.

    A seam: the point of ``e``'s core nearest ``p`` is an end of ``e`` (not a
    circle's) that lies within ``_SEAM`` skins of that row's item or inside
    it, the row touches the agent with its face (not an end: its plane is
    the face's), and ``e`` runs from there along that plane or behind it (a
    box beside a box, a wall continuing a wall), not out towards the agent
    (a wall standing on a floor makes a real corner).
    """
    world = borrowed(world)
    ax, ay, bx, by, _ = item_geometry(world, e)
    ux = bx - ax
    uy = by - ay
    length2 = ux * ux + uy * uy
    if length2 == 0.0:
        return -1
    t = ((px - ax) * ux + (py - ay) * uy) / length2
    if 0.0 < t < 1.0:
        return -1
    if t <= 0.0:
        cx, cy, wx, wy = ax, ay, ux, uy            # from the end, along the item
    else:
        cx, cy, wx, wy = bx, by, -ux, -uy
    along = math.sqrt(length2)
    for j in range(n_planes):
        f = wi[S_ITEMS + j]
        if f == e or not _face_contact(world, f, px, py) or \
                separation_item(world, f, cx, cy)[0] > _SEAM * skin:
            continue
        if wf[S_NORMALS + 2 * j] * wx + wf[S_NORMALS + 2 * j + 1] * wy <= _SEAM * skin * along:
            return j
    return -1


@njit(cache=True, forceinline=False)
def _seams(world, px, py, radius, skin, n_planes, wf, wi):
    """Contact planes at a seam take the plane of the face beside them.

    Two boxes side by side, two walls chained end to end, a polygon with a
    vertex in the middle of a straight side: where the pieces meet, the end
    of one item lies on (or in) the face of the other, and the item's plane
    there is the tangent of its round end, tilted towards the agent. Solved
    with the face beside it, that tilt threw an agent sliding over the seam
    upwards (a point camera over a floor of 20 boxes ended 2.6 units above
    it, an agent of radius 0.25 5 mm). The items' union has no corner there
    (:func:`_seam_row`), so such a plane takes the plane of the item beside
    it. Only the direction the solver slides along changes: the sweeps
    still test every item as it is, so no agent enters one (3D meshes do
    the same with their active edges).
    """
    world = borrowed(world)
    for i in range(n_planes):
        j = _seam_row(world, wi[S_ITEMS + i], px, py, skin, n_planes, wf, wi)
        if j < 0:
            continue
        mx = wf[S_NORMALS + 2 * j]
        my = wf[S_NORMALS + 2 * j + 1]
        qx = wf[S_POINTS + 2 * i]
        qy = wf[S_POINTS + 2 * i + 1]
        wf[S_NORMALS + 2 * i] = mx
        wf[S_NORMALS + 2 * i + 1] = my
        wf[S_BOUNDS + i] = 0.5 * skin - ((px - qx) * mx + (py - qy) * my - radius)


@njit(cache=True, forceinline=False)
def _gather_again(world, px, py, rx, ry, radius, skin, margin, wf, wi):
    # _gather as a call, for the rare pass after a recovery (one inlined copy is enough).
    world = borrowed(world)
    return _gather(world, px, py, rx, ry, radius, skin, margin, wf, wi)


@njit(cache=True, forceinline=False, inline="always")
def _swap_planes(wf, wi, i, j):
    # Exchange contact plane rows i and j (normal, surface point, bound, item).
    for a, b in ((S_NORMALS + 2 * i, S_NORMALS + 2 * j), (S_POINTS + 2 * i, S_POINTS + 2 * j)):
        wf[a], wf[b] = wf[b], wf[a]
        wf[a + 1], wf[b + 1] = wf[b + 1], wf[a + 1]
    wf[S_BOUNDS + i], wf[S_BOUNDS + j] = wf[S_BOUNDS + j], wf[S_BOUNDS + i]
    wi[S_ITEMS + i], wi[S_ITEMS + j] = wi[S_ITEMS + j], wi[S_ITEMS + i]


#: A plane is pressed when the straight motion would bring its obstacle closer
#: than this (in skins): a little less than the half skin the planes keep, so
#: an agent gliding at exactly half a skin (where a slide along a wall leaves
#: it) is not pressed by what lies in line with the wall, whatever the rounding.
_PRESS = 0.375


@njit(cache=True, forceinline=False)
def _pressed(world, px, py, vx, vy, radius, skin, wf, wi, first, count):
    """Move the contact planes in rows ``[first, count)`` whose obstacle the disc
    moving by ``v`` would approach closer than ``_PRESS`` skins to rows
    ``first`` onwards; returns the row after the last one moved."""
    world = borrowed(world)
    n = first
    for i in range(first, count):
        f, _, _ = sweep_item(world, wi[S_ITEMS + i], px, py, vx, vy, radius + _PRESS * skin)
        if f <= 1.0:
            if i != n:
                _swap_planes(wf, wi, i, n)
            n += 1
    return n


@njit(cache=True, forceinline=False)
def _one_side(world, px, py, rx, ry, radius, skin, wf, wi, n_active, n_planes):
    """The contact row to slide along alone when the pressed rows together stop the disc.

    Of the rows ``[0, n_active)``, the one whose plane, alone, turns the wish
    ``r`` into a motion that goes on along ``r`` and presses no other row
    (an exact sweep, as :func:`_pressed`); the nearest such motion to ``r``.
    A disc centred exactly on a corner of a level's edge where the walkable
    side is reflex (the void a wedge between two walls) presses both walls
    when the wish points into the wedge, even by a rounding (a heading of 90
    degrees has a cosine of 6e-17); the walkable side there is the union of
    their half-planes, not their intersection, so their planes together left
    no motion and the disc stopped dead on the corner. A hair away from the
    corner it would slide along the nearer wall: so does this. In a crease
    (between two trees, say) sliding along one side presses the other, and
    nothing is found. Returns ``(row, vx, vy)``; ``row`` is -1 if none.
    """
    world = borrowed(world)
    best = -1
    best_d2 = math.inf
    best_x = 0.0
    best_y = 0.0
    for i in range(n_active):
        nx = wf[S_NORMALS + 2 * i]
        ny = wf[S_NORMALS + 2 * i + 1]
        # Projection of r onto the plane n . v >= bound, when r breaks it.
        shift = max(wf[S_BOUNDS + i] - (nx * rx + ny * ry), 0.0)
        vx = rx + shift * nx
        vy = ry + shift * ny
        d2 = (vx - rx) ** 2 + (vy - ry) ** 2
        if vx * rx + vy * ry <= 0.0 or d2 >= best_d2:
            continue
        free = True
        for j in range(n_planes):
            if j != i and sweep_item(world, wi[S_ITEMS + j], px, py, vx, vy,
                                     radius + _PRESS * skin)[0] <= 1.0:
                free = False
                break
        if free:
            best = i
            best_d2 = d2
            best_x = vx
            best_y = vy
    return best, best_x, best_y


@njit(cache=True, forceinline=True)
def _sweep(world, px, py, vx, vy, radius, skin, n_planes, wi):
    """First contact of the disc moving by ``v``: ``(fraction, hit item, nx, ny)``.

    Obstacles that are contact planes (items ``wi[S_ITEMS:S_ITEMS + n_planes]``)
    are kept ``skin/2`` away by the planes; sweeping them too, grown by only
    ``skin/4``, is the safety net for a plane whose normal rounding tilted.
    The others are swept grown by ``skin``.
    """
    fraction = 1.0
    hit = -1
    hnx = 0.0
    hny = 0.0
    grown = radius + skin
    # Only obstacles within the motion's length of the grown disc can be hit.
    farthest = grown + math.sqrt(vx * vx + vy * vy)
    for grid in range(2):       # the items that never move, then the bodies'
        cells = world.items if grid == 0 else world.moving
        if cells.nx == 0:
            continue
        j0, j1 = rows_capsule(cells, px, py, px + vx, py + vy, grown)
        for j in range(j0, j1 + 1):
            i0, i1 = columns_capsule(cells, px, py, px + vx, py + vy, grown, j)
            for i in range(i0, i1 + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, hi):
                    e = np.int64(world.small[t])
                    if not item_within_reach(world, e, px, py, farthest) or \
                            not item_owner_alive(world, e):
                        continue
                    f, fnx, fny = sweep_item(world, e, px, py, vx, vy,
                                             radius + 0.25 * skin
                                             if listed(wi, S_ITEMS, n_planes, e) else grown)
                    if f < fraction:
                        fraction = f
                        hit = e
                        hnx = fnx
                        hny = fny
    return fraction, hit, hnx, hny


@njit(cache=True, forceinline=False)
def open_around(world, px, py, reach, skin, margin):
    """Whether no obstacle lies within ``reach`` of ``p`` (:func:`_clear` of a disc of
    radius ``reach`` standing there), nor is there any solid area in the world: then a
    disc of radius ``r`` anywhere within ``a`` of ``p`` sliding by ``d``, with ``a + r +
    |d| + skin + margin <= reach`` and ``|d| > min_motion``, meets nothing and ends at
    ``p + d``: every cell and item :func:`slide`'s own first test (:func:`_clear`) would
    read for it lies within ``reach`` of ``p``. For callers that move many discs in one
    region (the crowd steps)."""
    if world.n_areas > 0:
        return False
    return _clear(world, px, py, 0.0, 0.0, reach, skin, margin)


@njit(cache=True, forceinline=True)
def closes(world, e, px, py, reach, skin, margin):
    """Whether item ``e`` is one that keeps :func:`open_around` (``p``, ``reach``) from
    being true, where :func:`_clear` reads it (an item no cell it reads holds is too far
    to be one): so a caller that tells many points at once, item by item, tells them as
    :func:`open_around` would (the crowd steps' cells near moving bodies)."""
    return _near(world, e, px, py, _reaches(0.0, 0.0, reach, skin, margin)[2])


@njit(cache=True, forceinline=True)
def slide(world, px, py, dx, dy, radius, skin, margin, slack, min_motion,
          max_iterations, wf, wi, contacts):
    """Continuous collide-and-slide of a disc from ``p`` by ``d``.

    Each pass:
      1. gathers the obstacles within ``margin`` of the disc as contact
         planes, and sweeps the disc along the remaining wish against the
         others (:func:`_gather`);
      2. if there are contact planes, solves those the motion presses on
         (:func:`_pressed`: its straight path would bring their obstacle
         closer than about ``skin / 2``, round ends included) together for
         the motion nearest the remaining wish that approaches none of them
         closer than ``skin / 2``, adding any plane that answer presses on,
         and sweeps along that motion instead (:func:`_sweep`);
      3. moves to the first contact, ``skin`` outside it.
    The pass ends the move when nothing stopped the sweep; a sweep hit adds a
    contact and starts another pass with what remains of the wish (so the
    agent slides on along the contact, and once past it turns back towards
    where it was going). The path is never longer than ``|d|``: each pass
    moves at most what is left of that length. An answer that turns back
    against the wish (the second side of a crease) stops the move there. A
    move that starts overlapping first recovers (:func:`recover`). A move
    with nothing within reach (:func:`_clear`) ends at ``p + d`` at once, as
    its first pass would.

    ``wf``, ``wi`` are the scratch buffers. Returns ``(x, y, stop, n_contacts,
    recovered)``; contacts are written to ``contacts (k, 6)`` rows
    ``[obstacle, qx, qy, nx, ny, fraction]``.
    """
    total = math.sqrt(dx * dx + dy * dy)
    # Contact fractions are travelled / total; a zero move reports 0.
    scale = 1.0 / total if total > 0.0 else 0.0
    n_contacts = np.int64(0)
    recovered = False
    rem_x = dx
    rem_y = dy
    travelled = 0.0
    limited = False
    stop = STOP_MAX_ITERATIONS
    # 0. Inside a solid area (box, polygon, grid)?
    n_inside = 0
    owner = -1
    nx = ny = qx = qy = 0.0
    if world.n_areas > 0:
        n_inside, sep, owner, nx, ny, qx, qy = inside_areas(world, px, py, wi, S_INSIDE)
    if n_inside == 0 and total > min_motion and \
            _clear(world, px, py, dx, dy, radius, skin, margin):
        # Nothing near: the first pass would end the move at p + d, untouched.
        return px + dx, py + dy, STOP_DONE, n_contacts, recovered
    it = 0
    passes = 0
    while it < max_iterations and passes < max_iterations + SEAM_PASSES:
        passes += 1
        rem_len = math.sqrt(rem_x * rem_x + rem_y * rem_y)
        if rem_len <= min_motion and passes > 1:
            stop = STOP_SLID if limited else STOP_DONE
            break
        # 1. Contact planes near the disc; the sweep along the wish against the rest.
        n_planes, worst, row, fraction, hit, hnx, hny = _gather(
            world, px, py, rem_x, rem_y, radius, skin, margin, wf, wi)
        if passes == 1 and (n_inside > 0 or worst < 0.0):
            # Started overlapping: recover to a free spot, then look again.
            if n_inside == 0:
                owner = item_owner(world, wi[S_ITEMS + row])
                qx = wf[S_POINTS + 2 * row]
                qy = wf[S_POINTS + 2 * row + 1]
                nx = wf[S_NORMALS + 2 * row]
                ny = wf[S_NORMALS + 2 * row + 1]
            n_contacts = _record(contacts, n_contacts, owner, qx, qy, nx, ny, 0.0)
            px, py, ok = recover(world, px, py, radius, skin, slack, wf, wi)
            recovered = True
            if not ok:
                return px, py, STOP_STUCK, n_contacts, recovered
            n_planes, worst, row, fraction, hit, hnx, hny = _gather_again(
                world, px, py, rem_x, rem_y, radius, skin, margin, wf, wi)
        if rem_len <= min_motion:
            stop = STOP_DONE
            break
        # The path may be no longer than the move: what is left of the wish
        # keeps the parts contacts blocked (so past them the agent turns back
        # towards where it was going), but only this much path is left.
        budget = total - travelled
        if budget <= min_motion:
            stop = STOP_SLID if limited else STOP_DONE
            break
        vx = rem_x
        vy = rem_y
        v_len = rem_len
        if n_planes > 0:
            # 2. Solve the contact planes the motion really presses on, then
            #    sweep along the answer. A plane is the tangent of its
            #    obstacle, exact beside a flat side but not at a round end:
            #    gliding past a corner a skin away, the corner's tangent would
            #    turn the whole remaining wish sideways. So only planes whose
            #    obstacle the straight motion would bring closer than about
            #    skin / 2 (an exact sweep, round ends included) are solved;
            #    planes the answer then presses on join, until it presses on
            #    no other.
            err = 0.0
            n_active = _pressed(world, px, py, vx, vy, radius, skin, wf, wi, np.int64(0), n_planes)
            n_solved = 0
            # Longest sensible answer: the wish plus a little backing off.
            far = (rem_len + _FAR * skin) ** 2
            while n_active > n_solved:
                n_solved = n_active
                vx, vy, err = solve_planes(rem_x, rem_y, wf, S_NORMALS, S_BOUNDS, n_active,
                                           slack)
                if err <= slack and vx * vx + vy * vy > far:
                    # Planes closer than skin / 2 that meet only far away (a
                    # corridor or wedge too tight for the skin): keep from
                    # coming any closer to them instead of backing off to it.
                    for i in range(n_active):
                        wf[S_BOUNDS + i] = min(wf[S_BOUNDS + i], 0.0)
                    vx, vy, err = solve_planes(rem_x, rem_y, wf, S_NORMALS, S_BOUNDS, n_active,
                                               slack)
                if err > slack:
                    break
                n_active = _pressed(world, px, py, vx, vy, radius, skin, wf, wi, n_active,
                                    n_planes)
            # Planes that together leave no way on along the wish may have one
            # that alone does and presses no other (a corner whose walkable
            # side is not convex, _one_side). Otherwise infeasible planes, or
            # an answer that turns back against the wish by more than a skin:
            # the agent is in a crease (between two trees, say) and the slide
            # along one side turned it out along the other. It stays: going
            # back and forth along the crease would repeat every frame.
            if n_active > 1 and (err > slack or vx * rem_x + vy * rem_y <= skin * rem_len):
                k, ux, uy = _one_side(world, px, py, rem_x, rem_y, radius, skin, wf, wi,
                                      n_active, n_planes)
                if k >= 0:
                    _swap_planes(wf, wi, 0, k)
                    n_active = 1
                    vx = ux
                    vy = uy
                    err = 0.0
            if err > slack or vx * dx + vy * dy < -skin * total:
                vx = 0.0
                vy = 0.0
            active = False
            for i in range(n_active):
                pnx = wf[S_NORMALS + 2 * i]
                pny = wf[S_NORMALS + 2 * i + 1]
                if pnx * rem_x + pny * rem_y < wf[S_BOUNDS + i] - slack:
                    active = True
                    limited = True
                    n_contacts = _record(contacts, n_contacts,
                                         item_owner(world, wi[S_ITEMS + i]),
                                         wf[S_POINTS + 2 * i], wf[S_POINTS + 2 * i + 1],
                                         pnx, pny, travelled * scale)
            v_len = math.sqrt(vx * vx + vy * vy)
            # Contacts leave at most the skin's width of motion: at rest against them.
            if v_len <= min_motion or (active and v_len <= skin):
                stop = STOP_BLOCKED
                break
            if v_len > budget:
                vx *= budget / v_len
                vy *= budget / v_len
                v_len = budget
            fraction, hit, hnx, hny = _sweep(world, px, py, vx, vy, radius, skin, n_planes, wi)
        elif rem_len > budget:
            # No planes: the sweep along the wish (in _gather) scales with it.
            k = budget / rem_len
            vx *= k
            vy *= k
            v_len = budget
            if fraction > k:
                fraction = 1.0
                hit = -1
            else:
                fraction /= k
        # 3. Move to the first contact.
        px += fraction * vx
        py += fraction * vy
        travelled += fraction * v_len
        rem_x -= fraction * vx
        rem_y -= fraction * vy
        if hit < 0:
            stop = STOP_SLID if limited else STOP_DONE
            break
        limited = True
        n_contacts = _record(contacts, n_contacts, item_owner(world, hit),
                             px - hnx * (radius + skin), py - hny * (radius + skin),
                             hnx, hny, travelled * scale)
        # Gliding over a seam (the item met is an end covered by a touching
        # item) costs a pass but not one of the max_iterations: a wall of many
        # boxes would otherwise end a slide after max_iterations of them.
        if n_planes == 0 or _seam_row(world, hit, px, py, skin, n_planes, wf, wi) < 0:
            it += 1
    return px, py, stop, n_contacts, recovered


@njit(cache=True, forceinline=False)
def _overlap_contacts(world, x, y, radius, wf, wi, contacts):
    # Contacts for every obstacle the disc at (x, y) overlaps; returns their count.
    world = borrowed(world)
    count = penetrations(world, x, y, radius, 0.0, wf, wi)
    n_contacts = np.int64(0)
    for i in range(count):
        if wf[S_SEPARATIONS + i] < 0.0:
            n_contacts = _record(contacts, n_contacts, wi[S_OWNERS + i], wf[S_POINTS + 2 * i],
                                 wf[S_POINTS + 2 * i + 1], wf[S_NORMALS + 2 * i],
                                 wf[S_NORMALS + 2 * i + 1], 1.0)
    return count, n_contacts


@njit(cache=True, forceinline=False)
def push(world, px, py, dx, dy, radius, wf, wi, contacts):
    """The radial article's method, for every family: move, then push out.

    Each obstacle the disc overlaps at ``p + d`` adds ``-separation * normal``
    to the correction (for one circle, the article's
    ``delta += (R / |v| - 1) * v`` with ``R`` = circle radius + agent radius);
    contributions add up. One pass, as in the article: fast moves tunnel, and
    leaving one obstacle may enter another.
    """
    world = borrowed(world)
    x = px + dx
    y = py + dy
    count, n_contacts = _overlap_contacts(world, x, y, radius, wf, wi, contacts)
    delta_x = 0.0
    delta_y = 0.0
    for i in range(count):
        sep = wf[S_SEPARATIONS + i]
        if sep < 0.0:
            delta_x -= sep * wf[S_NORMALS + 2 * i]
            delta_y -= sep * wf[S_NORMALS + 2 * i + 1]
    stop = STOP_PUSHED if n_contacts > 0 else STOP_DONE
    return x + delta_x, y + delta_y, stop, n_contacts, False


@njit(cache=True, forceinline=False)
def block(world, px, py, dx, dy, radius, wf, wi, contacts):
    """The wall article's method: if the disc at ``p + d`` collides, stay at ``p``.

    Collides means some surface is closer than ``radius`` (strictly, as the
    article's ``distance < collision distance``).
    """
    world = borrowed(world)
    x = px + dx
    y = py + dy
    count, n_contacts = _overlap_contacts(world, x, y, radius, wf, wi, contacts)
    if n_contacts > 0:
        return px, py, STOP_BLOCKED, n_contacts, False
    return x, y, STOP_DONE, 0, False


@njit(cache=True, forceinline=True)
def move_agent(world, px, py, dx, dy, radius, mode, skin, margin, slack, min_motion,
               max_iterations, wf, wi, contacts):
    """One move in ``mode``; returns ``(x, y, stop, n_contacts, recovered)``.

    ``wf (SCRATCH_FLOATS,)`` and ``wi (SCRATCH_INTS,) int64`` are scratch;
    contacts go to ``contacts (k, 6)``.
    """
    if mode == MODE_SLIDE:
        return slide(world, px, py, dx, dy, radius, skin, margin, slack, min_motion,
                     max_iterations, wf, wi, contacts)
    if mode == MODE_PUSH:
        return push(world, px, py, dx, dy, radius, wf, wi, contacts)
    if mode == MODE_BLOCK:
        return block(world, px, py, dx, dy, radius, wf, wi, contacts)
    return px + dx, py + dy, STOP_DONE, 0, False


# The work buffer of one agent (float64): scratch, contacts, the move's
# settings and its outcome, so that one step from Python passes two arrays and
# four numbers (each argument costs time in Numba's dispatcher).
MAX_CONTACTS = 32
W_SCRATCH_INTS = SCRATCH_FLOATS                      # int64 scratch, viewed
W_CONTACTS = W_SCRATCH_INTS + SCRATCH_INTS           # (MAX_CONTACTS, 6) contact rows
W_PARAMS = W_CONTACTS + MAX_CONTACTS * CONTACT_FIELDS
P_RADIUS, P_MODE, P_SKIN, P_MARGIN, P_SLACK, P_MIN_MOTION, P_MAX_ITERATIONS = range(7)
W_OUT = W_PARAMS + 7
O_STOP, O_CONTACTS, O_RECOVERED, O_X, O_Y = range(5)
WORK_SIZE = W_OUT + 5


@njit(cache=True, forceinline=False)
def move_packed(blob, live, work, px, py, dx, dy):
    """One move from Python: :func:`move_agent` on a packed world.

    ``blob`` is the packed world (:func:`~sidestep.kernels.world.unpack_world`);
    ``work (WORK_SIZE,)`` holds the settings at ``W_PARAMS`` (radius, mode,
    skin, margin, slack, min_motion, max_iterations), receives the contacts at
    ``W_CONTACTS`` and the outcome at ``W_OUT`` (stop, contact count,
    recovered), and is the scratch. Returns the new ``(x, y)``.
    """
    w = borrow(work)
    p = W_PARAMS
    x, y, stop, n, recovered = move_agent(
        unpack_world(blob, live), px, py, dx, dy, w[p + P_RADIUS], int(w[p + P_MODE]),
        w[p + P_SKIN], w[p + P_MARGIN], w[p + P_SLACK], w[p + P_MIN_MOTION],
        int(w[p + P_MAX_ITERATIONS]), w[:SCRATCH_FLOATS],
        w[W_SCRATCH_INTS:W_CONTACTS].view(np.int64),
        w[W_CONTACTS:W_PARAMS].reshape((MAX_CONTACTS, CONTACT_FIELDS)))
    w[W_OUT + O_STOP] = stop
    w[W_OUT + O_CONTACTS] = n
    w[W_OUT + O_RECOVERED] = 1.0 if recovered else 0.0
    w[W_OUT + O_X] = x
    w[W_OUT + O_Y] = y
    return x, y


_DIRECT = None


def move_packed_direct():
    """:func:`move_packed` compiled for its one set of argument types, called without the dispatcher.

    Numba's dispatcher works out the type of every argument on every call (a
    quarter of a per-frame step's cost); the Python API always passes the
    same types (the world's float64 buffer, a float64 work buffer, four
    Python floats: the signature :data:`sidestep.kernel_cache.KERNELS`
    registers), so it calls the compiled function for those types directly
    (:func:`sidestep.kernels.direct.registered`). Callers must pass exactly
    those types.
    """
    global _DIRECT
    if _DIRECT is None:
        _DIRECT = registered("moves:move_packed")
    return _DIRECT


# Prefetching for batch moves (see :mod:`~sidestep.kernels.prefetch`): while
# agent k moves, the cell entries of agent k + _AHEAD_CELL, the item lists of
# agent k + _AHEAD_LIST and the item geometry of agent k + _AHEAD_ITEMS are
# requested, each stage reading what the one before brought in. With this,
# agents in any order run as fast as agents sorted by cell (measured on the
# W2 crowd), so rows are taken as given.
_AHEAD_CELL = 12
_AHEAD_LIST = 8
_AHEAD_ITEMS = 4
_RING = 16               # cell boxes remembered between stages (a power of two > _AHEAD_CELL)
_ITEMS_FETCHED = 4       # items per cell whose geometry is requested


@njit(cache=True, forceinline=False, inline="always")
def _request_cells(world, cells, inverse, positions, displacements, radii, k, ring):
    # Stage 1 for row k: the cells around its move (as a box of rows and
    # columns, remembered in the ring); request their cell entries.
    x = positions[k, 0]
    y = positions[k, 1]
    dx = displacements[k, 0]
    dy = displacements[k, 1]
    reach = radii[k]
    i0 = clamp(cell_hint(min(x, x + dx) - reach, cells.origin_x, inverse), cells.nx)
    i1 = clamp(cell_hint(max(x, x + dx) + reach, cells.origin_x, inverse), cells.nx)
    j0 = clamp(cell_hint(min(y, y + dy) - reach, cells.origin_y, inverse), cells.ny)
    j1 = clamp(cell_hint(max(y, y + dy) + reach, cells.origin_y, inverse), cells.ny)
    # Few agents' moves span more than two cells each way: the rest is left to the move.
    i1 = min(i1, i0 + 1)
    j1 = min(j1, j0 + 1)
    r = 4 * (k & (_RING - 1))
    ring[r] = i0
    ring[r + 1] = i1
    ring[r + 2] = j0
    ring[r + 3] = j1
    for j in range(j0, j1 + 1):
        prefetch(world.ints, cells.start + j * cells.nx + i0)


@njit(cache=True, forceinline=False, inline="always")
def _prefetch_ahead(world, cells, inverse, positions, displacements, radii, k, stop, ring):
    # The three prefetch stages for the rows ahead of row k (rows before stop).
    if k + _AHEAD_CELL < stop:
        _request_cells(world, cells, inverse, positions, displacements, radii,
                       k + _AHEAD_CELL, ring)
    if k + _AHEAD_LIST < stop:
        r = 4 * ((k + _AHEAD_LIST) & (_RING - 1))
        for j in range(ring[r + 2], ring[r + 3] + 1):
            for i in range(ring[r], ring[r + 1] + 1):
                lo, _ = cell_span(world, cells, j * cells.nx + i)
                prefetch(world.small, lo)
    if k + _AHEAD_ITEMS < stop:
        r = 4 * ((k + _AHEAD_ITEMS) & (_RING - 1))
        for j in range(ring[r + 2], ring[r + 3] + 1):
            for i in range(ring[r], ring[r + 1] + 1):
                lo, hi = cell_span(world, cells, j * cells.nx + i)
                for t in range(lo, min(hi, lo + _ITEMS_FETCHED)):
                    o = world.geometry + ITEM * world.small[t]
                    prefetch(world.floats, o)
                    prefetch(world.floats, o + ITEM - 1)


@njit(cache=True, forceinline=False, nogil=True)
def move_agents(blob, live, positions, displacements, radii, mode, skin, margin, slack,
                min_motion, max_iterations, out, queue):
    """:func:`move_agent` for the rows taken from ``queue``; ends into ``out (n, 2)``.

    The world comes packed; ``queue`` is a :mod:`~sidestep.kernels.row_queue`
    shared by the threads, and a row's result does not depend on which thread
    took it. Releases the GIL, so threads run at once.
    """
    world = unpack_world(blob, live)
    contacts_buffer = np.empty((1, CONTACT_FIELDS))
    wf_buffer = np.empty(SCRATCH_FLOATS)
    wi_buffer = np.empty(SCRATCH_INTS, dtype=np.int64)
    # Borrowed views of buffers this function keeps alive: no counting per call.
    contacts = borrow(contacts_buffer)
    wf = borrow(wf_buffer)
    wi = borrow(wi_buffer)
    # The caller keeps the row arrays alive: borrowed views spare the atomic
    # reference counting Numba does each time an array is handed on.
    positions = borrow(positions)
    displacements = borrow(displacements)
    radii = borrow(radii)
    out = borrow(out)
    ring_buffer = np.zeros(4 * _RING, dtype=np.int64)
    ring = borrow(ring_buffer)
    cells = world.items
    inverse = 1.0 / cells.cell_size if cells.nx > 0 else 0.0
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        if cells.nx > 0:
            for k in range(first, min(first + _AHEAD_CELL, stop)):
                _request_cells(world, cells, inverse, positions, displacements, radii, k,
                               ring)
        for k in range(first, stop):
            if cells.nx > 0:
                _prefetch_ahead(world, cells, inverse, positions, displacements, radii, k,
                                stop, ring)
            x, y, _, _, _ = move_agent(world, positions[k, 0], positions[k, 1],
                                       displacements[k, 0], displacements[k, 1], radii[k],
                                       mode, skin, margin, slack, min_motion, max_iterations,
                                       wf, wi, contacts)
            out[k, 0] = x
            out[k, 1] = y
    # The borrowed views above must not outlive their buffers: using the
    # buffers here keeps Numba from freeing them before the loop ends.
    wf_buffer[0] = wi_buffer[0] + contacts_buffer[0, 0] + ring_buffer[0]
