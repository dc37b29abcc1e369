"""Point and disc queries against a segment: walls, polygon and box edges.

A segment with a ``thickness`` (the wall article's collision distance) is a
capsule; a disc of radius ``r`` against it is a point against the capsule of
radius ``r + thickness``.
"""
import math

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
    if f < 0.0:
        f = 0.0
    elif f > 1.0:
        f = 1.0
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


@njit(cache=True, forceinline=False)
def separation_point_segment(px, py, ax, ay, bx, by, thickness):
    """Signed separation of ``p`` from the capsule ``ab`` of ``thickness``.

    Returns ``(separation, nx, ny, qx, qy)`` as
    :func:`~sidestep.kernels.circle.separation_point_circle`; on the segment
    itself the normal is the segment's left normal.
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
