"""The contact-plane solver: the motion nearest a wish that respects every contact.

Each contact ``i`` is a half-plane of allowed motions ``n_i . v >= b_i`` (``n_i``
the unit normal from the obstacle towards the agent, ``b_i`` how far the agent
may approach, negative, or must back off, positive). Solving all contacts at
once is what stops one obstacle from pushing the agent into another (the radial
article's "could this push the camera through that wall?").
"""
import math

from numba import njit


@njit(cache=True, forceinline=False)
def _violation(w, normals, bounds, count, vx, vy):
    # Largest amount by which v breaks a constraint (<= 0 when it keeps all).
    worst = -math.inf
    for i in range(count):
        worst = max(worst, w[bounds + i] - (w[normals + 2 * i] * vx + w[normals + 2 * i + 1] * vy))
    return worst


@njit(cache=True, forceinline=False)
def _violation_below(w, normals, bounds, count, vx, vy, cutoff):
    # :func:`_violation`, or the largest so far as soon as it exceeds ``cutoff`` (a
    # candidate breaking a constraint by that much is rejected whatever the rest).
    worst = -math.inf
    for i in range(count):
        worst = max(worst, w[bounds + i] - (w[normals + 2 * i] * vx + w[normals + 2 * i + 1] * vy))
        if worst > cutoff:
            return worst
    return worst


@njit(cache=True, forceinline=True)
def _candidate_error(w, normals, bounds, count, slack, best_err, best_d2, vx, vy, d2):
    """The violation of candidate ``v`` (``d2`` from the wish) if it beats the best so
    far, else ``inf``: a candidate wins when it breaks no constraint by more than
    ``slack`` and is nearer than a best that breaks none either, or (while the best
    breaks one) when it breaks less. Its violation is needed only as far as it
    decides that: a candidate no nearer than a feasible best is not checked, and the
    check stops at the first constraint that rejects it, so the answer is the one
    of checking every candidate in full."""
    if best_err > slack:
        err = _violation_below(w, normals, bounds, count, vx, vy, best_err)
        return err if err < best_err else math.inf
    if not d2 < best_d2:
        return math.inf
    err = _violation_below(w, normals, bounds, count, vx, vy, slack)
    return err if err <= slack else math.inf


@njit(cache=True, inline="always")
def corner(w, normals, bounds, i, j):
    """Where the lines ``n_i . v = b_i`` and ``n_j . v = b_j`` meet (constraints read
    from ``w`` as in :func:`solve_planes`), by Cramer's rule: ``(vx, vy, ok)``; ``ok`` is
    False where the lines are (nearly) parallel."""
    nix = w[normals + 2 * i]
    niy = w[normals + 2 * i + 1]
    njx = w[normals + 2 * j]
    njy = w[normals + 2 * j + 1]
    bi = w[bounds + i]
    bj = w[bounds + j]
    det = nix * njy - niy * njx
    if abs(det) < 1e-12:
        return 0.0, 0.0, False
    return (bi * njy - bj * niy) / det, (nix * bj - njx * bi) / det, True


@njit(cache=True, forceinline=False)
def solve_planes(dx, dy, w, normals, bounds, count, slack):
    """The motion ``v`` closest to ``d`` with ``n_i . v >= b_i`` for all ``i < count``.

    The constraints are read from the flat array ``w``: ``n_i`` is
    ``(w[normals + 2 i], w[normals + 2 i + 1])`` and ``b_i`` is ``w[bounds + i]``.

    Exact in 2D: the closest point of a convex polygon to ``d`` is ``d``
    itself, its projection on one constraint line, or a corner where two lines
    meet; the solver tries them all and keeps the nearest that breaks no
    constraint by more than ``slack`` (O(count^3), count is a handful). With no
    such point (contacts that cannot all be met) it returns the candidate that
    breaks them least. Returns ``(vx, vy, violation)``.
    """
    best_x = dx
    best_y = dy
    best_err = _violation(w, normals, bounds, count, dx, dy)
    if best_err <= slack:
        return dx, dy, best_err
    best_d2 = math.inf
    # 1. Projections of d onto each constraint line n_i . v = b_i.
    for i in range(count):
        nx = w[normals + 2 * i]
        ny = w[normals + 2 * i + 1]
        shift = w[bounds + i] - (nx * dx + ny * dy)
        vx = dx + shift * nx
        vy = dy + shift * ny
        d2 = (vx - dx) ** 2 + (vy - dy) ** 2
        err = _candidate_error(w, normals, bounds, count, slack, best_err, best_d2, vx, vy, d2)
        if err < math.inf:
            best_x, best_y, best_err, best_d2 = vx, vy, err, d2
    # 2. Corners where two constraint lines meet.
    for i in range(count):
        for j in range(i + 1, count):
            vx, vy, ok = corner(w, normals, bounds, i, j)
            if not ok:
                continue
            d2 = (vx - dx) ** 2 + (vy - dy) ** 2
            err = _candidate_error(w, normals, bounds, count, slack, best_err, best_d2, vx, vy,
                                   d2)
            if err < math.inf:
                best_x, best_y, best_err, best_d2 = vx, vy, err, d2
    return best_x, best_y, best_err
