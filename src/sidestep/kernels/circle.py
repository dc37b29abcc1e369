"""Point and disc queries against a circle (trees, poles, end caps of walls).

A disc of radius ``r`` against a circle of radius ``R`` is a point against a
circle of radius ``r + R``; callers add the radii.
"""
import math

from numba import njit


@njit(cache=True, forceinline=False)
def separation_point_circle(px, py, cx, cy, radius):
    """Signed separation of point ``p`` from a circle, with its normal.

    Returns ``(separation, nx, ny, qx, qy)``: ``|p - c| - radius`` (negative
    inside), the unit normal from the circle towards ``p`` and the nearest
    point ``q`` on the circle. At the centre the normal is ``(1, 0)``, an
    arbitrary but fixed choice, so the answer is defined everywhere.
    """
    dx = px - cx
    dy = py - cy
    d = math.sqrt(dx * dx + dy * dy)
    if d > 0.0:
        nx = dx / d
        ny = dy / d
    else:
        nx = 1.0
        ny = 0.0
    return d - radius, nx, ny, cx + nx * radius, cy + ny * radius


@njit(cache=True, forceinline=False)
def sweep_circle_circle(px, py, dx, dy, cx, cy, radius):
    """First contact of ``p + fraction * d`` with a circle, ``fraction`` in [0, 1].

    Returns ``(fraction, nx, ny)`` with the normal at the contact, or
    ``(inf, 0, 0)`` for a miss. A point that starts inside or on the circle
    hits at fraction 0 if it moves inwards and misses if it moves out, so a
    touching agent can always leave.
    """
    # Solve |m + fraction * d|^2 = radius^2 with m = p - c (Ericson 5.3.2).
    mx = px - cx
    my = py - cy
    b = mx * dx + my * dy
    c = mx * mx + my * my - radius * radius
    if c <= 0.0:
        if b < 0.0:
            sep, nx, ny, qx, qy = separation_point_circle(px, py, cx, cy, radius)
            return 0.0, nx, ny
        return math.inf, 0.0, 0.0
    a = dx * dx + dy * dy
    # a == 0 with b < 0 only when |d|^2 underflows (|d| < 1e-154): no motion.
    if b >= 0.0 or a == 0.0:
        return math.inf, 0.0, 0.0
    # Discriminant b^2 - a c computed as a (radius^2 - |m_perp|^2), with m_perp
    # the part of m across the motion: b^2 and a c are huge and nearly equal
    # for a small circle far away, and their difference would be all rounding
    # (Haines et al., Ray Tracing Gems, ch. 7).
    lx = mx - (b / a) * dx
    ly = my - (b / a) * dy
    h = radius * radius - (lx * lx + ly * ly)
    if h < 0.0:
        return math.inf, 0.0, 0.0
    # Smaller root written as c / (-b + sqrt(disc)): no cancellation between
    # -b and sqrt(disc) either (Numerical Recipes 5.6).
    fraction = c / (-b + math.sqrt(a * h))
    if fraction > 1.0:
        return math.inf, 0.0, 0.0
    hx = mx + fraction * dx
    hy = my + fraction * dy
    h = math.sqrt(hx * hx + hy * hy)
    if h > 0.0:
        return fraction, hx / h, hy / h
    return fraction, 1.0, 0.0
