"""The 3D contact-plane solver: the motion nearest a wish that respects every contact.

The 3D mirror of :mod:`sidestep.kernels.planes`. Each contact ``i`` is a
half-space of allowed motions ``n_i . v >= b_i`` (``n_i`` the unit normal from
the obstacle towards the agent, ``b_i`` how far the agent may approach,
negative, or must back off, positive). Solving all contacts at once is what
keeps the agent out of a crease between two slopes and still in the corner of
three panels, instead of one contact pushing it through another.

The constraints are read from one flat float64 array ``w`` (the mover's
scratch buffer, as in 2D): ``n_i = w[normals + 3 i : normals + 3 i + 3]`` and
``b_i = w[bounds + i]``.
"""
import math

from numba import njit

#: Below this ``|n_i x n_j|^2`` (unit normals: the sine of the angle between the
#: planes, squared; 1e-12 is a microradian) two planes count as parallel and
#: have no crease: the crease would lie ``|b_i - b_j| / sin`` away, further than
#: any motion, and its formula divides by almost zero.
PARALLEL = 1e-12

#: Below this ``|n_i . (n_j x n_k)|`` three planes count as meeting in no single
#: corner (two parallel, or all three through one direction, like three
#: upright walls); a corner of nearly dependent planes lies far away.
DEPENDENT = 1e-9


@njit(cache=True)
def _violation(w, normals, bounds, count, ceiling, vx, vy, vz):
    # Largest amount by which v breaks a constraint (<= 0 when it keeps all).
    worst = -math.inf
    for i in range(count):
        k = normals + 3 * i
        b = min(w[bounds + i], ceiling)
        worst = max(worst, b - (w[k] * vx + w[k + 1] * vy + w[k + 2] * vz))
    return worst


@njit(cache=True)
def _better(err, d2, best_err, best_d2, slack):
    # A candidate wins if it keeps every constraint (within slack) and is
    # nearer the wish, or if no candidate so far keeps them and it breaks them less.
    if err <= slack:
        return best_err > slack or d2 < best_d2
    return best_err > slack and err < best_err


@njit(cache=True)
def _solve(dx, dy, dz, w, normals, bounds, count, slack, ceiling):
    # Every bound read as min(b_i, ceiling): ceiling = inf for the plain
    # problem, 0 for "come no closer" (see solve_planes_capped).
    best_x = dx
    best_y = dy
    best_z = dz
    best_err = _violation(w, normals, bounds, count, ceiling, dx, dy, dz)
    best_d2 = 0.0
    if best_err <= slack:
        return dx, dy, dz, best_err
    best_d2 = math.inf
    # 1. Projections of d onto each plane n_i . v = b_i:
    #    v = d + (b_i - n_i . d) n_i / |n_i|^2.
    for i in range(count):
        ki = normals + 3 * i
        nx, ny, nz = w[ki], w[ki + 1], w[ki + 2]
        nn = nx * nx + ny * ny + nz * nz
        if nn == 0.0:
            continue
        s = (min(w[bounds + i], ceiling) - (nx * dx + ny * dy + nz * dz)) / nn
        d2 = s * s * nn
        if best_err <= slack and d2 >= best_d2:
            continue
        vx, vy, vz = dx + s * nx, dy + s * ny, dz + s * nz
        err = _violation(w, normals, bounds, count, ceiling, vx, vy, vz)
        if _better(err, d2, best_err, best_d2, slack):
            best_x, best_y, best_z, best_err, best_d2 = vx, vy, vz, err, d2
    # 2. Projections of d onto each crease (line where planes i and j meet):
    #    v = d + a n_i + c n_j with n_i . v = b_i and n_j . v = b_j, that is
    #    [[ii, ij], [ij, jj]] [a, c] = [r_i, r_j] (Gram system, Cramer's rule).
    for i in range(count):
        ki = normals + 3 * i
        ix, iy, iz = w[ki], w[ki + 1], w[ki + 2]
        ri = min(w[bounds + i], ceiling) - (ix * dx + iy * dy + iz * dz)
        ii = ix * ix + iy * iy + iz * iz
        for j in range(i + 1, count):
            kj = normals + 3 * j
            jx, jy, jz = w[kj], w[kj + 1], w[kj + 2]
            rj = min(w[bounds + j], ceiling) - (jx * dx + jy * dy + jz * dz)
            jj = jx * jx + jy * jy + jz * jz
            ij = ix * jx + iy * jy + iz * jz
            det = ii * jj - ij * ij     # |n_i x n_j|^2
            if det < PARALLEL * ii * jj:
                continue
            a = (ri * jj - rj * ij) / det
            c = (rj * ii - ri * ij) / det
            vx = dx + a * ix + c * jx
            vy = dy + a * iy + c * jy
            vz = dz + a * iz + c * jz
            d2 = (vx - dx) ** 2 + (vy - dy) ** 2 + (vz - dz) ** 2
            if best_err <= slack and d2 >= best_d2:
                continue
            err = _violation(w, normals, bounds, count, ceiling, vx, vy, vz)
            if _better(err, d2, best_err, best_d2, slack):
                best_x, best_y, best_z, best_err, best_d2 = vx, vy, vz, err, d2
    # 3. Corners where three planes meet: the solution of N v = b,
    #    v = (b_i (n_j x n_k) + b_j (n_k x n_i) + b_k (n_i x n_j)) / (n_i . (n_j x n_k)).
    for i in range(count):
        ki = normals + 3 * i
        ix, iy, iz = w[ki], w[ki + 1], w[ki + 2]
        bi = min(w[bounds + i], ceiling)
        for j in range(i + 1, count):
            kj = normals + 3 * j
            jx, jy, jz = w[kj], w[kj + 1], w[kj + 2]
            bj = min(w[bounds + j], ceiling)
            # n_i x n_j
            cx = iy * jz - iz * jy
            cy = iz * jx - ix * jz
            cz = ix * jy - iy * jx
            for k in range(j + 1, count):
                kk = normals + 3 * k
                kx, ky, kz = w[kk], w[kk + 1], w[kk + 2]
                bk = min(w[bounds + k], ceiling)
                det = kx * cx + ky * cy + kz * cz     # n_k . (n_i x n_j)
                if abs(det) < DEPENDENT:
                    continue
                # n_j x n_k and n_k x n_i
                ax = jy * kz - jz * ky
                ay = jz * kx - jx * kz
                az = jx * ky - jy * kx
                ex = ky * iz - kz * iy
                ey = kz * ix - kx * iz
                ez = kx * iy - ky * ix
                vx = (bi * ax + bj * ex + bk * cx) / det
                vy = (bi * ay + bj * ey + bk * cy) / det
                vz = (bi * az + bj * ez + bk * cz) / det
                d2 = (vx - dx) ** 2 + (vy - dy) ** 2 + (vz - dz) ** 2
                if best_err <= slack and d2 >= best_d2:
                    continue
                err = _violation(w, normals, bounds, count, ceiling, vx, vy, vz)
                if _better(err, d2, best_err, best_d2, slack):
                    best_x, best_y, best_z, best_err, best_d2 = vx, vy, vz, err, d2
    # 4. Standing still, if nothing above kept every constraint: the answer
    #    whenever every b_i <= 0 and the planes that pin it are too
    #    dependent for steps 2 and 3.
    if best_err > slack:
        err = _violation(w, normals, bounds, count, ceiling, 0.0, 0.0, 0.0)
        if err < best_err:
            best_x, best_y, best_z, best_err = 0.0, 0.0, 0.0, err
    return best_x, best_y, best_z, best_err


@njit(cache=True)
def solve_planes(dx, dy, dz, w, normals, bounds, count, slack):
    """The motion ``v`` closest to ``d`` with ``n_i . v >= b_i`` for all ``i < count``.

    Exact: the point of a convex polyhedron nearest ``d`` is ``d`` itself, its
    projection on one plane, on the crease of two planes, or the corner of
    three (its KKT multipliers need at most three independent active normals,
    Caratheodory), so the solver tries them all and keeps the nearest that
    breaks no constraint by more than ``slack`` (world units). Pairs closer to
    parallel than :data:`PARALLEL` and triples more dependent than
    :data:`DEPENDENT` have no crease or corner (theirs would lie far away and
    is left to :func:`solve_planes_capped`). With no such point (contacts that
    cannot all be met, as the two walls of a corridor narrower than the
    agent) it returns the candidate that breaks them least, and its
    violation says so. Never NaN for finite input.

    O(count^4) in the worst case, but a candidate no nearer than the best
    found is never checked: meant for the handful of contacts touching an agent.

    Parameters
    ----------
    dx, dy, dz : float
        The wish (world units).
    w : (m,) float64
        Scratch holding the normals (unit, 3 floats per contact from index
        ``normals``) and the bounds (1 float per contact from ``bounds``).
    normals, bounds, count : int
        Where the normals and bounds start in ``w``, and how many contacts.
    slack : float
        How much a constraint may be broken and still count as kept.

    Returns
    -------
    vx, vy, vz : float
        The motion.
    violation : float
        ``max_i (b_i - n_i . v)``: ``<= slack`` when every contact is kept,
        ``-inf`` with no contacts.
    """
    return _solve(dx, dy, dz, w, normals, bounds, count, slack, math.inf)


@njit(cache=True)
def solve_planes_capped(dx, dy, dz, w, normals, bounds, count, slack, far):
    """:func:`solve_planes`, but never a huge answer from nearly opposite planes.

    Planes the agent must back off from (``b_i > 0``) that meet only far
    away (nearly opposite walls of a corridor or wedge a little narrower
    than the agent plus its skin) would send it far along them to back off
    from both; exactly opposite ones cannot both be met at all. In either
    case (an answer longer than ``far``, 2D slide uses ``|wish| + 4 skins``,
    or no answer within ``slack``) the bounds are read as ``min(b_i, 0)``,
    "come no closer" instead of "back off", as 2D slide does, and the
    problem is solved again. That problem always has an answer (``v = 0``
    keeps it), no further from the wish than the wish's length; it may still
    be longer than ``far`` only when the wish itself leads that far. ``w`` is
    not changed.

    Returns
    -------
    vx, vy, vz : float
        The motion.
    violation : float
        ``max_i (b'_i - n_i . v)`` against the bounds ``b'`` actually used.
    capped : bool
        True when the bounds were read as ``min(b_i, 0)``.
    """
    vx, vy, vz, err = _solve(dx, dy, dz, w, normals, bounds, count, slack, math.inf)
    if err <= slack and vx * vx + vy * vy + vz * vz <= far * far:
        return vx, vy, vz, err, False
    vx, vy, vz, err = _solve(dx, dy, dz, w, normals, bounds, count, slack, 0.0)
    return vx, vy, vz, err, True
