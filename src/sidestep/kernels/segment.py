"""Point and disc queries against a segment: walls, polygon and box edges.

A segment with a ``thickness`` (the wall article's collision distance) is a
capsule; a disc of radius ``r`` against it is a point against the capsule of
radius ``r + thickness``.
"""
import math

import numpy as np

from numba import njit

from .circle import separation_point_circle, sweep_circle_circle


@njit(cache=True, forceinline=False)
def closest_point_segment(px, py, ax, ay, bx, by):
    """Closest point to ``p`` on segment ``ab``: returns ``(qx, qy)``.

    Projects on the segment's own direction, so vertical walls need no special
    case (the wall article's slope form ``y = m x + n`` breaks on them).
    """
    ex = bx - ax
    ey = by - ay
    ll = ex * ex + ey * ey
    if ll == 0.0:
        return ax, ay
    f = ((px - ax) * ex + (py - ay) * ey) / ll
    # Beyond an end, that end itself: a + 1.0 * (b - a) may round a step off
    # b, and a point on b then read as beside it, with the normal p - q of
    # that rounding step (along the segment: into a wall from its end).
    if f <= 0.0:
        return ax, ay
    if f >= 1.0:
        return bx, by
    return ax + f * ex, ay + f * ey


#: Room the reach filter leaves for rounding: relative to the squared reach,
#: and to the squared sizes of the segment and of ``p - a`` (where the squared
#: form cancels, and where the exact separation's own closest point rounds).
_REACH_ROOM = 1e-9
_CANCEL_ROOM = 1e-12


@njit(cache=True, forceinline=False, inline="always")
def within_reach_point_segment(px, py, ax, ay, bx, by, reach):
    """Whether ``p`` may lie within ``reach`` of segment ``ab`` (a cheap, conservative filter).

    Squared distances only (no square root, no division), so a query can
    drop far segments before computing their exact separation. A point
    within ``reach`` is never rejected (short of rounding in the last few
    digits of the coordinates); one a hair beyond may be accepted (by about
    ``1e-6`` of the sizes of ``ab`` and ``p - a``). Below about ``1e-75``
    those sizes' fourth powers underflow to zero and everything is accepted:
    the filter stays on the safe side and the exact separation decides.
    """
    wx = px - ax
    wy = py - ay
    ex = bx - ax
    ey = by - ay
    ww = wx * wx + wy * wy
    ll = ex * ex + ey * ey
    rr = reach * reach * (1.0 + _REACH_ROOM) + _CANCEL_ROOM * (ww + ll)
    dot = wx * ex + wy * ey
    if dot <= 0.0:
        return ww <= rr
    if dot >= ll:
        vx = px - bx
        vy = py - by
        return vx * vx + vy * vy <= rr
    # Beside the segment: squared distance times ll = ww * ll - dot^2.
    return ww * ll - dot * dot <= rr * ll


@njit(cache=True, forceinline=False, inline="always")
def within_reach_motion_segment(px, py, dx, dy, length, ax, ay, bx, by, reach):
    """Whether segment ``ab`` may come within ``reach`` of the motion ``p -> p + d``.

    A cheap, conservative filter for a sweep: no square root, no division.
    In the motion's own frame (along ``d``, across it, both scaled by
    ``length = |d|``) the segment's span must overlap the motion's span
    grown by ``reach``, ``[-reach, |d| + reach]`` along and ``[-reach,
    reach]`` across: a segment outside that box is farther than ``reach``
    from every point of the motion, so a disc of radius ``reach`` moving
    along it never touches the segment. Room for rounding, ``1e-9`` of the
    sizes involved (``|d|``, ``reach`` and ``|a - p|``, ``|b - p|``), keeps
    accepted anything a sweep's own rounding could find touching; a NaN
    accepts. Meant for ``length`` between ``1e-100`` and ``1e100``, where
    its products neither underflow nor lose their digits (callers skip the
    filter outside that).
    """
    wax = ax - px
    way = ay - py
    wbx = bx - px
    wby = by - py
    room = _REACH_ROOM * length * (reach + length + abs(wax) + abs(way) + abs(wbx) + abs(wby))
    grown = reach * length + room
    # Along the motion, times |d| (the motion spans [0, |d|^2]), and across it.
    sa = wax * dx + way * dy
    sb = wbx * dx + wby * dy
    ahead = length * length + grown
    ca = way * dx - wax * dy
    cb = wby * dx - wbx * dy
    # One expression, no branch: which way a filter goes is a coin toss to
    # the processor, and a wrong guess costs more than the whole test.
    return not (((sa < -grown) & (sb < -grown)) | ((sa > ahead) & (sb > ahead)) |
                ((ca < -grown) & (cb < -grown)) | ((ca > grown) & (cb > grown)))


@njit(cache=True, forceinline=False)
def separation_point_segment(px, py, ax, ay, bx, by, thickness):
    """Signed separation of ``p`` from the capsule ``ab`` of ``thickness``.

    Returns ``(separation, nx, ny, qx, qy)`` as
    :func:`~sidestep.kernels.circle.separation_point_circle`; on the segment
    itself, its ends included, the normal is the segment's left normal (the
    walkable side of a one-sided wall).
    """
    ex = bx - ax
    ey = by - ay
    ll = ex * ex + ey * ey
    if ll > 0.0:
        f = ((px - ax) * ex + (py - ay) * ey) / ll
        if 0.0 < f < 1.0:
            # Beside the segment: the normal is the segment's own perpendicular,
            # exact, rather than p minus the closest point, whose rounding (a
            # step of the coordinates' size) would tilt it when p is a skin's
            # width away from a long wall.
            length = math.sqrt(ll)
            mx = -ey / length
            my = ex / length
            h = (px - ax) * mx + (py - ay) * my
            side = 1.0 if h >= 0.0 else -1.0
            nx = side * mx
            ny = side * my
            return abs(h) - thickness, nx, ny, px - nx * (abs(h) - thickness), \
                py - ny * (abs(h) - thickness)
    qx, qy = closest_point_segment(px, py, ax, ay, bx, by)
    if px == qx and py == qy and ll > 0.0:
        # Exactly on an end: the round end's normal (p - q) / |p - q| is
        # undefined, and a circle's fixed (1, 0) points anywhere: at a corner
        # of a level's edge it pointed into the void for half the walls, and a
        # point camera standing on the corner slid out along it. The segment's
        # left normal is the walkable side there, as beside the segment.
        length = math.sqrt(ll)
        nx = -ey / length
        ny = ex / length
        return -thickness, nx, ny, px + nx * thickness, py + ny * thickness
    return separation_point_circle(px, py, qx, qy, thickness)


@njit(cache=True, forceinline=False)
def sweep_circle_segment(px, py, dx, dy, radius, ax, ay, bx, by):
    """First contact of ``p + fraction * d`` with the capsule ``ab`` of ``radius``.

    ``radius`` is the agent's radius plus the segment's thickness. Returns
    ``(fraction, nx, ny)``, ``(inf, 0, 0)`` for a miss; a start inside or on
    the capsule hits at 0 when moving inwards and misses when moving out.
    """
    sep, nx, ny, qx, qy = separation_point_segment(px, py, ax, ay, bx, by, radius)
    if sep <= 0.0 and radius > 0.0:
        if dx * nx + dy * ny < 0.0:
            return 0.0, nx, ny
        return math.inf, 0.0, 0.0
    best = math.inf
    bnx = 0.0
    bny = 0.0
    ex = bx - ax
    ey = by - ay
    length = math.sqrt(ex * ex + ey * ey)
    if length > 0.0:
        # 1. The long sides: the signed height h(fraction) = h0 + fraction * hd
        #    above the segment's line reaches +-radius (Ericson 5.3.7, in 2D).
        ux = ex / length
        uy = ey / length
        mx = -uy
        my = ux
        h0 = (px - ax) * mx + (py - ay) * my
        hd = dx * mx + dy * my
        side = 0.0
        if h0 >= radius and hd < 0.0:
            side = 1.0
        elif h0 <= -radius and hd > 0.0:
            side = -1.0
        if side != 0.0:
            fraction = (side * radius - h0) / hd
            if fraction <= 1.0:
                along = (px + fraction * dx - ax) * ux + (py + fraction * dy - ay) * uy
                if along >= 0.0 and along <= length:
                    best = fraction
                    bnx = side * mx
                    bny = side * my
    # 2. The round ends; the capsule is the union of its side band and two
    #    discs, so its first entry is the earliest entry into any of them.
    fa, nax, nay = sweep_circle_circle(px, py, dx, dy, ax, ay, radius)
    if fa < best:
        best = fa
        bnx = nax
        bny = nay
    if length > 0.0:
        fb, nbx, nby = sweep_circle_circle(px, py, dx, dy, bx, by, radius)
        if fb < best:
            best = fb
            bnx = nbx
            bny = nby
    return best, bnx, bny


#: Side codes of a wall (an item's sixth number): ``TWO_SIDED`` blocks and
#: counts as a capsule from both sides; a one-sided wall (``ONE_SIDED`` plus
#: the corner bits) has the level's walkable space on its left (looking from
#: its start to its end) and the void behind it: a point behind it is inside.
TWO_SIDED = 0
ONE_SIDED = 1
#: Corner bits of a one-sided wall: the wall that ends at its start (or starts
#: at its end) turns left there, so the walkable side is convex at that corner
#: and the wedge behind both walls beyond the corner is void too.
CONVEX_START = 2
CONVEX_END = 4


@njit(cache=True, forceinline=False)
def separation_point_wall_one_sided(px, py, ax, ay, bx, by, thickness, code):
    """Signed separation of ``p`` from the one-sided wall ``ab`` (walkable side on its left).

    Returns ``(separation, nx, ny, qx, qy)`` as :func:`separation_point_segment`,
    with ``n`` the way out towards the walkable side. Beside the wall (``p``
    projects inside it) the separation is the signed height above its line
    minus ``thickness``: negative behind it. Beyond an end (or level with it),
    behind the wall's line or on it, at a corner marked convex in ``code``
    (:data:`CONVEX_START`, :data:`CONVEX_END`), ``p`` lies in the void wedge
    behind both walls: minus its distance to the corner (minus
    ``thickness``). Elsewhere beyond an end the wall is a round end, as a
    capsule's: a point there is nearer to the neighbouring wall, or as near,
    and that wall's side decides (a wall alone cannot tell; where two are
    equally near, the more negative answer is the right one, see
    :func:`~sidestep.kernels.world.nearest_point`).
    """
    ex = bx - ax
    ey = by - ay
    ll = ex * ex + ey * ey
    length = math.sqrt(ll)
    mx = -ey / length
    my = ex / length
    h = (px - ax) * mx + (py - ay) * my
    f = ((px - ax) * ex + (py - ay) * ey) / ll
    if 0.0 < f < 1.0:
        sep = h - thickness
        return sep, mx, my, px - mx * sep, py - my * sep
    cx = ax if f <= 0.0 else bx
    cy = ay if f <= 0.0 else by
    convex = (code & (CONVEX_START if f <= 0.0 else CONVEX_END)) != 0
    if convex and h <= 0.0:
        d = math.sqrt((cx - px) ** 2 + (cy - py) ** 2)
        if d == 0.0:
            return -thickness, mx, my, px + mx * thickness, py + my * thickness
        sep = -d - thickness
        nx = (cx - px) / d
        ny = (cy - py) / d
        return sep, nx, ny, px - nx * sep, py - ny * sep
    if px == cx and py == cy:
        # On the end itself: the left normal, as everywhere on the wall.
        return -thickness, mx, my, px + mx * thickness, py + my * thickness
    return separation_point_circle(px, py, cx, cy, thickness)


@njit(cache=True, forceinline=False)
def sweep_from_end_wall_one_sided(dx, dy, ax, ay, bx, by, at_start, code):
    """First contact of a disc whose centre stands exactly on an end of the one-sided wall ``ab``.

    The disc starts inside the wall's capsule, where
    :func:`sweep_circle_segment` lets the capsule's normal decide between
    moving in and out; on the core's very end that normal is undefined, and
    no fixed choice is right for a level's edge: at a corner where the
    boundary turns right (the walkable side is reflex), the space beyond the
    wall's end and behind its line is walkable (in front of the next wall),
    while at a left turn (:data:`CONVEX_START`, :data:`CONVEX_END` in
    ``code``) it is the void wedge. So, as
    :func:`separation_point_wall_one_sided` tells the sides apart: moving by
    ``d`` back along the wall (beside it) and behind its line enters it;
    moving beyond the end (or square to the wall) and behind its line enters
    it only at a convex corner; anything else (along the line, in front of
    it, or beyond a reflex corner, which the next wall judges) leaves.

    Parameters
    ----------
    dx, dy : float
        The motion.
    ax, ay, bx, by : float
        The wall, walkable side on its left; not of zero length.
    at_start : bool
        Whether the centre stands on ``a`` (else on ``b``).
    code : int
        The wall's side code (:data:`ONE_SIDED` and corner bits).

    Returns
    -------
    (fraction, nx, ny)
        ``(0, left normal)`` when the motion enters the wall, ``(inf, 0, 0)``
        when it leaves (from the core's end, a straight motion that leaves
        never comes back).
    """
    ex = bx - ax
    ey = by - ay
    length = math.sqrt(ex * ex + ey * ey)
    mx = -ey / length
    my = ex / length
    if dx * mx + dy * my >= 0.0:
        return math.inf, 0.0, 0.0
    # How far the motion runs along the wall from this end into it.
    inwards = dx * ex + dy * ey if at_start else -(dx * ex + dy * ey)
    convex = (code & (CONVEX_START if at_start else CONVEX_END)) != 0
    if inwards > 0.0 or convex:
        return 0.0, mx, my
    return math.inf, 0.0, 0.0


@njit(cache=True)
def corner_codes_one_sided(segments, before, after):
    """Side codes of one-sided walls, with their convex-corner bits.

    Parameters
    ----------
    segments : (n, 4) float64
        The walls ``[ax, ay, bx, by]``, walkable side on the left.
    before, after : (n,) int64
        The wall that ends at this one's start (starts at its end), or -1
        when there is none or more than one.

    Returns
    -------
    (n,) float64
        :data:`ONE_SIDED` plus :data:`CONVEX_START` / :data:`CONVEX_END`
        where the boundary turns left at that corner (the walkable side is
        convex there); a straight or right turn, or an open end, sets no bit.
    """
    n = segments.shape[0]
    out = np.empty(n)
    for i in range(n):
        code = ONE_SIDED
        ex = segments[i, 2] - segments[i, 0]
        ey = segments[i, 3] - segments[i, 1]
        j = before[i]
        if j >= 0:
            px = segments[j, 2] - segments[j, 0]
            py = segments[j, 3] - segments[j, 1]
            if px * ey - py * ex > 0.0:
                code |= CONVEX_START
        j = after[i]
        if j >= 0:
            nx = segments[j, 2] - segments[j, 0]
            ny = segments[j, 3] - segments[j, 1]
            if ex * ny - ey * nx > 0.0:
                code |= CONVEX_END
        out[i] = code
    return out
