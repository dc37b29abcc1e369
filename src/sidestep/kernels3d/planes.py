"""The contact-plane solver in 3D: the motion nearest a wish that respects every contact.

The 3D mirror of :mod:`sidestep.kernels.planes`. Each contact ``i`` is a
half-space of allowed motions ``n_i . v >= b_i``; the answer is the point of
their intersection nearest the wish ``d``: ``d`` itself, its projection on one
plane, on the line where two planes meet (a crease), or the point where three
meet (a corner of three panels).
"""
import math

from numba import njit


@njit(cache=True)
def _violation(w, normals, bounds, count, vx, vy, vz):
    # Largest amount by which v breaks a constraint (<= 0 when it keeps all).
    worst = -math.inf
    for i in range(count):
        o = normals + 3 * i
        worst = max(worst, w[bounds + i] - (w[o] * vx + w[o + 1] * vy + w[o + 2] * vz))
    return worst


@njit(cache=True)
def _consider(w, normals, bounds, count, slack, dx, dy, dz, vx, vy, vz, best):
    # Keep v if it is feasible and nearer than the best, or less infeasible.
    err = _violation(w, normals, bounds, count, vx, vy, vz)
    d2 = (vx - dx) ** 2 + (vy - dy) ** 2 + (vz - dz) ** 2
    bx, by, bz, berr, bd2 = best
    if (err <= slack and (berr > slack or d2 < bd2)) or (berr > slack and err < berr):
        return vx, vy, vz, err, d2
    return best


@njit(cache=True)
def solve_planes(dx, dy, dz, w, normals, bounds, count, slack):
    """The motion ``v`` closest to ``d`` with ``n_i . v >= b_i`` for all ``i < count``.

    ``n_i`` is ``w[normals + 3 i : normals + 3 i + 3]``, ``b_i`` is
    ``w[bounds + i]``. Exact: the closest point of a convex polyhedron to
    ``d`` is ``d``, or its projection on a face plane, on an edge line (two
    planes) or a vertex (three planes); every candidate is tried and the
    nearest that breaks no constraint by more than ``slack`` is kept (count
    is a handful). With none, the candidate that breaks them least. Nearly
    parallel planes (their normals' cross product below 1e-12) make no
    crease or corner. Returns ``(vx, vy, vz, violation)``.
    """
    err = _violation(w, normals, bounds, count, dx, dy, dz)
    if err <= slack:
        return dx, dy, dz, err
    best = (dx, dy, dz, err, math.inf)
    for i in range(count):
        oi = normals + 3 * i
        nx, ny, nz = w[oi], w[oi + 1], w[oi + 2]
        shift = w[bounds + i] - (nx * dx + ny * dy + nz * dz)
        best = _consider(w, normals, bounds, count, slack, dx, dy, dz,
                         dx + shift * nx, dy + shift * ny, dz + shift * nz, best)
    for i in range(count):
        oi = normals + 3 * i
        ax, ay, az, bi = w[oi], w[oi + 1], w[oi + 2], w[bounds + i]
        for j in range(i + 1, count):
            oj = normals + 3 * j
            cx, cy, cz, bj = w[oj], w[oj + 1], w[oj + 2], w[bounds + j]
            # The crease line: points with n_i . v = b_i and n_j . v = b_j.
            ux = ay * cz - az * cy
            uy = az * cx - ax * cz
            uz = ax * cy - ay * cx
            uu = ux * ux + uy * uy + uz * uz
            if uu < 1e-24:
                continue
            # A point on it: p = (bi (c x u) + bj (u x a)) / |u|^2.
            px = (bi * (cy * uz - cz * uy) + bj * (uy * az - uz * ay)) / uu
            py = (bi * (cz * ux - cx * uz) + bj * (uz * ax - ux * az)) / uu
            pz = (bi * (cx * uy - cy * ux) + bj * (ux * ay - uy * ax)) / uu
            t = ((dx - px) * ux + (dy - py) * uy + (dz - pz) * uz) / uu
            best = _consider(w, normals, bounds, count, slack, dx, dy, dz,
                             px + t * ux, py + t * uy, pz + t * uz, best)
            for k in range(j + 1, count):
                ok = normals + 3 * k
                ex, ey, ez, bk = w[ok], w[ok + 1], w[ok + 2], w[bounds + k]
                det = ex * ux + ey * uy + ez * uz          # n_k . (n_i x n_j)
                if abs(det) < 1e-12:
                    continue
                # Cramer: v = (bi (n_j x n_k) + bj (n_k x n_i) + bk (n_i x n_j)) / det.
                vx = (bi * (cy * ez - cz * ey) + bj * (ey * az - ez * ay) + bk * ux) / det
                vy = (bi * (cz * ex - cx * ez) + bj * (ez * ax - ex * az) + bk * uy) / det
                vz = (bi * (cx * ey - cy * ex) + bj * (ex * ay - ey * ax) + bk * uz) / det
                best = _consider(w, normals, bounds, count, slack, dx, dy, dz, vx, vy, vz,
                                 best)
    return best[0], best[1], best[2], best[3]
