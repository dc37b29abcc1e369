"""Volumes packed into the flat float64 arrays the kernels read.

The layout is documented in :mod:`sidestep.kernels3d.volumes`; 2D volumes
lie in ``z = 0`` with planes 4 and 5 the plane's two sides.
"""
import numpy as np
from numpy.typing import ArrayLike

from .._types import FloatArray
from ..kernels3d import volumes as k

_EDGE_BITS = ((0, 1), (1, 2), (2, 4))


def lift(p: ArrayLike) -> FloatArray:
    """A 2D or 3D point as three floats (``z = 0`` in 2D)."""
    p = np.asarray(p, dtype=np.float64)
    return np.array([p[0], p[1], p[2] if p.shape[0] == 3 else 0.0])


def rounded(a: ArrayLike, b: ArrayLike, radius: float, dim: int) -> FloatArray:
    """A core segment ``ab`` grown by ``radius`` (point, segment, sphere, capsule)."""
    v = np.zeros(k.PACKED)
    v[k.KIND] = k.ROUNDED
    v[k.FLAT] = dim == 2
    v[k.RADIUS] = radius
    v[k.VERTS:k.VERTS + 3] = lift(a)
    v[k.VERTS + 3:k.VERTS + 6] = lift(b)
    return v


def ray(origin: ArrayLike, direction: ArrayLike, dim: int) -> FloatArray:
    """A ray: ``origin`` and a unit ``direction``."""
    v = rounded(origin, direction, 0.0, dim)
    v[k.KIND] = k.RAY
    return v


def polytope(corners: ArrayLike, planes: ArrayLike, dirs: ArrayLike, dim: int) -> FloatArray:
    """Eight ``corners (8, 3)``, six outward ``planes (6, 4)`` ``n . p <= d``, unit edge ``dirs``."""
    v = np.zeros(k.PACKED)
    v[k.KIND] = k.POLYTOPE
    v[k.FLAT] = dim == 2
    v[k.VERTS:k.PLANES] = np.asarray(corners, dtype=np.float64).ravel()
    v[k.PLANES:k.DIRS] = np.asarray(planes, dtype=np.float64).ravel()
    dirs = np.asarray(dirs, dtype=np.float64).reshape(-1, 3)
    v[k.N_DIRS] = len(dirs)
    v[k.DIRS:k.DIRS + dirs.size] = dirs.ravel()
    return v


def box_planes(lo: FloatArray, hi: FloatArray) -> FloatArray:
    """The six outward planes of box ``lo, hi`` (3,): +x, -x, +y, -y, +z, -z."""
    planes = np.zeros((6, 4))
    for j in range(3):
        planes[2 * j, j], planes[2 * j, 3] = 1.0, hi[j]
        planes[2 * j + 1, j], planes[2 * j + 1, 3] = -1.0, -lo[j]
    return planes


def box_corners(lo: FloatArray, hi: FloatArray) -> FloatArray:
    """The eight corners, corner ``i`` taking ``hi`` on axis ``j`` where bit ``j`` of ``i`` is set."""
    return np.array([[hi[j] if (i >> j) & 1 else lo[j] for j in range(3)] for i in range(8)])


def edge_directions(corners: FloatArray, tol: float = 1e-12) -> FloatArray:
    """The distinct unit directions of a hexahedron's twelve edges (zero-length ones dropped)."""
    out: list[FloatArray] = []
    for a, b in k.EDGES:
        d = corners[b] - corners[a]
        n = np.linalg.norm(d)
        if n <= tol * (1.0 + np.abs(corners).max()):
            continue
        d = d / n
        if not any(abs(abs(d @ e) - 1.0) < 1e-12 for e in out):
            out.append(d)
    return np.array(out).reshape(-1, 3)
