"""Terrain that is solid below: how deep an agent's core lies under a heightfield triangle.

A heightfield (:meth:`sidestep.World3D.add_heightfield`) is stored as mesh
triangles, each a thin surface to the panel kernels of :mod:`.polygon`. To
make the ground **solid below** down to a floor, each of its triangles also
answers :func:`depth_below_triangle`: when the lower end of the agent's
upright core stands in the triangle's footprint (seen along the up axis),
under its plane and not under the floor, the core is inside the ground, and
the world kernels report minus that depth (measured along the face normal,
which points up) instead of the thin surface's distance, so recovery pushes
the agent up and out.
"""
import math

from numba import njit


@njit(cache=True)
def depth_below_triangle(ax, ay, az, bx, by, bz, vertices, loop, first, nx, ny, nz, axis,
                         floor):
    """How deep the core ``a -> b`` is under a ground triangle (0 when it is not).

    Parameters
    ----------
    ax, ay, az, bx, by, bz : float
        The agent's core; upright along ``axis`` (``a == b`` for a sphere).
    vertices, loop, first : the triangle's corners ``vertices[loop[first:first + 3]]``
    nx, ny, nz : float
        The triangle's unit normal (either winding).
    axis : int
        The up axis (0, 1, 2); the normal's component along it is non-zero.
    floor : float
        The ground is solid from the triangle down to this coordinate along ``axis``.

    Returns
    -------
    (depth, ux, uy, uz, qx, qy, qz)
        ``depth`` > 0 (world units, from the core's lower end to the plane
        along the normal) when the lower end is below the plane, the top end
        above the floor and the footprint inside the triangle (edges
        included); then ``u`` is the unit normal turned up and ``q`` the
        lower end pushed out onto the plane. Otherwise all zeros.
    """
    c0 = (axis + 1) % 3
    c1 = (axis + 2) % 3
    lo = (ax, ay, az)
    hi = (bx, by, bz)
    if hi[axis] < lo[axis]:
        lo, hi = hi, lo
    i0 = loop[first]
    i1 = loop[first + 1]
    i2 = loop[first + 2]
    u0 = vertices[i0, c0]
    v0 = vertices[i0, c1]
    u1 = vertices[i1, c0]
    v1 = vertices[i1, c1]
    u2 = vertices[i2, c0]
    v2 = vertices[i2, c1]
    pu = lo[c0]
    pv = lo[c1]
    # Footprint: the same side of all three edges (either winding), edges included.
    e0 = (u1 - u0) * (pv - v0) - (v1 - v0) * (pu - u0)
    e1 = (u2 - u1) * (pv - v1) - (v2 - v1) * (pu - u1)
    e2 = (u0 - u2) * (pv - v2) - (v0 - v2) * (pu - u2)
    if not ((e0 >= 0.0 and e1 >= 0.0 and e2 >= 0.0) or (e0 <= 0.0 and e1 <= 0.0 and e2 <= 0.0)):
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    n = (nx, ny, nz)
    if n[axis] < 0.0:
        n = (-nx, -ny, -nz)
    if n[axis] <= 0.0 or hi[axis] < floor:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    # Signed distance of the lower end from the plane, along the upward normal.
    h = (n[0] * (lo[0] - vertices[i0, 0]) + n[1] * (lo[1] - vertices[i0, 1])
         + n[2] * (lo[2] - vertices[i0, 2]))
    if not h < 0.0 or math.isnan(h):
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    depth = -h
    return (depth, n[0], n[1], n[2], lo[0] + depth * n[0], lo[1] + depth * n[1],
            lo[2] + depth * n[2])
