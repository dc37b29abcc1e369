"""Triangle meshes: face normals and active edges (no bump on internal edges).

A triangle mesh is ``vertices (n, 3) float64`` and ``triangles (m, 3)
int64``; to the panel kernels of :mod:`.polygon` triangle ``k`` is the
3-vertex panel with ``loop = triangles.ravel()`` and ``first = 3 k``.

An agent sliding across the shared edge of two coplanar triangles touches
that edge, and the edge's own normal (from the edge to the agent) tilts
towards the agent's centre: a bump, the classic internal-edge problem. As
Bullet (``btInternalEdgeUtility``) and Jolt (``ActiveEdges``) do, each edge
is marked **active** (a border, an edge shared by more than two triangles,
or a crease whose dihedral angle exceeds a threshold, convex or concave) or
**inactive** (shared with a coplanar or gently curved neighbour); contacts on
inactive edges, and on vertices whose two edges in the triangle are both
inactive, report the triangle's face normal instead.
"""
import math

import numpy as np
from numba import njit

from .polygon import newell_normal_polygon


@njit(cache=True)
def face_normals(vertices, triangles):
    """Unit normals and areas of a mesh's triangles (Newell's method).

    Returns ``(normals (m, 3) float64, areas (m,) float64)``. Normals follow
    the winding (counter-clockwise seen from the front); a zero-area
    triangle has normal ``(0, 0, 0)`` and area 0.
    """
    m = triangles.shape[0]
    loop = triangles.ravel()
    normals = np.zeros((m, 3))
    areas = np.zeros(m)
    for k in range(m):
        nx, ny, nz, area = newell_normal_polygon(vertices, loop, 3 * k, 3)
        normals[k, 0] = nx
        normals[k, 1] = ny
        normals[k, 2] = nz
        areas[k] = area
    return normals, areas


@njit(cache=True)
def active_edges(vertices, triangles, max_angle):
    """Which triangle edges are real creases: ``(m,) int64`` bit flags.

    Bit ``i`` of ``flags[k]`` is set when edge ``i`` of triangle ``k`` (from
    its vertex ``i`` to vertex ``i + 1``, the last back to vertex 0) is
    active: a border, shared by three or more triangles, touching a
    zero-area triangle, or a crease between two triangles whose normals
    differ by more than ``max_angle`` (radians; convex and concave creases
    alike, since panels are hit from both sides). Bits clear mark inactive
    edges: the two triangles are coplanar or bend by at most ``max_angle``.
    Neighbours wound against each other are compared with one normal turned
    round, so the flags do not depend on winding. Two vertices are the same
    vertex only by index (weld the mesh first to join equal coordinates).

    Sorting the ``3 m`` edge keys makes this O(m log m): about a second
    for a million triangles.

    Examples
    --------
    A flat square in two triangles: the diagonal they share is inactive
    (bit 2 of the first, bit 0 of the second), the borders active:

    >>> import numpy as np
    >>> square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float)
    >>> active_edges(square, np.array([[0, 1, 2], [0, 2, 3]]), 0.1).tolist()
    [3, 6]
    """
    m = triangles.shape[0]
    nv = vertices.shape[0]
    normals, areas = face_normals(vertices, triangles)
    keys = np.empty(3 * m, dtype=np.int64)
    for k in range(m):
        for i in range(3):
            p = triangles[k, i]
            q = triangles[k, (i + 1) % 3]
            keys[3 * k + i] = min(p, q) * nv + max(p, q)
    order = np.argsort(keys, kind="mergesort")
    flags = np.full(m, 7, dtype=np.int64)
    cos_max = math.cos(max_angle)
    start = 0
    while start < 3 * m:
        stop = start + 1
        while stop < 3 * m and keys[order[stop]] == keys[order[start]]:
            stop += 1
        if stop - start == 2:
            h1 = order[start]
            h2 = order[start + 1]
            k1 = h1 // 3
            i1 = h1 % 3
            k2 = h2 // 3
            i2 = h2 % 3
            p1 = triangles[k1, i1]
            q1 = triangles[k1, (i1 + 1) % 3]
            p2 = triangles[k2, i2]
            if p1 != q1 and areas[k1] > 0.0 and areas[k2] > 0.0:
                cosine = (normals[k1, 0] * normals[k2, 0] + normals[k1, 1] * normals[k2, 1]
                          + normals[k1, 2] * normals[k2, 2])
                # Consistent winding runs the shared edge both ways (p1 == q2).
                if p1 == p2:
                    cosine = -cosine
                if cosine >= cos_max:
                    flags[k1] &= ~(1 << i1)
                    flags[k2] &= ~(1 << i2)
        start = stop
    return flags
