"""The contact-plane solver: the motion nearest a wish that respects every contact.

Each contact ``i`` is a half-plane of allowed motions ``n_i . v >= b_i`` (``n_i``
the unit normal from the obstacle towards the agent, ``b_i`` how far the agent
may approach, negative, or must back off, positive). Solving all contacts at
once is what stops one obstacle from pushing the agent into another (the radial
article's "could this push the camera through that wall?").
"""
import math

from numba import njit


@njit(cache=True)
def _violation(normals, bounds, count, vx, vy):
    # Largest amount by which v breaks a constraint (<= 0 when it keeps all).
    worst = -math.inf
    for i in range(count):
        worst = max(worst, bounds[i] - (normals[i, 0] * vx + normals[i, 1] * vy))
    return worst


@njit(cache=True)
def solve_planes(dx, dy, normals, bounds, count, slack):
    """The motion ``v`` closest to ``d`` with ``normals[i] . v >= bounds[i]`` for all ``i < count``.

    Exact in 2D: the closest point of a convex polygon to ``d`` is ``d``
    itself, its projection on one constraint line, or a corner where two lines
    meet; the solver tries them all and keeps the nearest that breaks no
    constraint by more than ``slack`` (O(count^3), count is a handful). With no
    such point (contacts that cannot all be met) it returns the candidate that
    breaks them least. Returns ``(vx, vy, violation)``.
    """
    best_x = dx
    best_y = dy
    best_err = _violation(normals, bounds, count, dx, dy)
    if best_err <= slack:
        return dx, dy, best_err
    best_d2 = math.inf
    # 1. Projections of d onto each constraint line n_i . v = b_i.
    for i in range(count):
        nx = normals[i, 0]
        ny = normals[i, 1]
        shift = bounds[i] - (nx * dx + ny * dy)
        vx = dx + shift * nx
        vy = dy + shift * ny
        err = _violation(normals, bounds, count, vx, vy)
        d2 = (vx - dx) ** 2 + (vy - dy) ** 2
        if (err <= slack and (best_err > slack or d2 < best_d2)) or \
                (best_err > slack and err < best_err):
            best_x, best_y, best_err, best_d2 = vx, vy, err, d2
    # 2. Corners where two constraint lines meet (Cramer's rule).
    for i in range(count):
        for j in range(i + 1, count):
            det = normals[i, 0] * normals[j, 1] - normals[i, 1] * normals[j, 0]
            if abs(det) < 1e-12:
                continue
            vx = (bounds[i] * normals[j, 1] - bounds[j] * normals[i, 1]) / det
            vy = (normals[i, 0] * bounds[j] - normals[j, 0] * bounds[i]) / det
            err = _violation(normals, bounds, count, vx, vy)
            d2 = (vx - dx) ** 2 + (vy - dy) ** 2
            if (err <= slack and (best_err > slack or d2 < best_d2)) or \
                    (best_err > slack and err < best_err):
                best_x, best_y, best_err, best_d2 = vx, vy, err, d2
    return best_x, best_y, best_err
