"""Many items against one volume at once, on all cores.

Each call runs the same per-item kernel as :meth:`Volume.contains
<sidestep.volumes.shapes.Volume.contains>` (so a batch answers exactly as
the scalar calls do) through :func:`sidestep.threads.run_rows`.
"""
import numpy as np

from .. import threads, validation
from ..kernels3d import volumes as kv
from ..tolerances import VOLUME_TOLERANCE
from .shapes import Volume


def _lifted(volume, value, name):
    if not isinstance(volume, Volume):
        raise TypeError(f"volume must be a volume, got {type(volume).__name__}")
    arr, _ = validation.points(value, name, allow_single=False, dim=volume.dim)
    if volume.dim == 2:
        arr = np.hstack([arr, np.zeros((len(arr), 1))])
    return np.ascontiguousarray(arr)


def contains_points(volume, points):
    """States ``(n,)`` int8 (:class:`~sidestep.volumes.Containment` values) of ``points (n, dim)``."""
    pts = _lifted(volume, points, "points")
    return _spheres(volume, pts, np.zeros(len(pts)))


def contains_spheres(volume, centers, radii):
    """States ``(n,)`` int8 of the spheres ``centers (n, dim)``, ``radii (n,)`` or one radius."""
    c = _lifted(volume, centers, "centers")
    r = validation.lengths(radii, "radii", len(c))
    return _spheres(volume, c, r)


def _spheres(volume, c, r):
    out = np.empty(len(c), dtype=np.int8)
    threads.run_rows(kv.contains_spheres, len(c), volume.packed, c, r, VOLUME_TOLERANCE, out)
    return out


def contains_boxes(volume, mins, maxs):
    """States ``(n,)`` int8 of the axis-aligned boxes ``mins, maxs (n, dim)``."""
    lo = _lifted(volume, mins, "mins")
    hi = _lifted(volume, maxs, "maxs")
    if lo.shape != hi.shape:
        raise ValueError(f"mins and maxs must have the same shape, got {lo.shape} and {hi.shape}")
    if np.any(lo > hi):
        raise ValueError("mins must not exceed maxs")
    out = np.empty(len(lo), dtype=np.int8)
    threads.run_rows(kv.contains_boxes, len(lo), volume.packed, float(volume.dim == 2), lo, hi,
                     VOLUME_TOLERANCE, out)
    return out
