"""Many items against one volume at once, on all cores.

Each ``contains_*`` call answers exactly as the scalar :meth:`Volume.contains
<sidestep.volumes.shapes.Volume.contains>` would for every item, through
the batch kernels of :mod:`sidestep.kernels3d.culling` (a plane test that
settles most items, the exact test for the rest) run by
:func:`sidestep.threads.run_rows`; :func:`distances_along` answers as
:meth:`Ray.distance_along <sidestep.volumes.shapes.Ray.distance_along>` for
every ray. The kernels check the rows as they go;
a bad row is reported by the same ValueError the rest of the API raises.

>>> import math
>>> from sidestep.volumes import Frustum
>>> f = Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), math.pi / 2, 1.0, 1.0, 10.0)
>>> contains_spheres(f, [(0, 0, -5), (0, 0, -10), (0, 0, 5)], 1.0).tolist()
[2, 1, 0]
>>> contains_boxes(f, [(-1, -1, -6)], [(1, 1, -4)]).tolist()
[2]
>>> contains_boxes(f, [(0, 0, 0)], [(-1, 1, 1)])
Traceback (most recent call last):
...
ValueError: mins must not exceed maxs; row 0: [0. 0. 0.] > [-1.  1.  1.]
"""
import numpy as np

from .. import threads, validation
from .._types import FloatArray, Numbers, Points, StateArray
from ..kernels3d import culling
from ..kernels3d import volumes as kv
from ..tolerances import MAX_COORDINATE, VOLUME_TOLERANCE
from .shapes import Volume


def _rows(volume: Volume, value: Points, name: str) -> FloatArray:
    if not isinstance(volume, Volume):
        raise TypeError(f"volume must be a volume, got {type(volume).__name__}")
    arr = validation.as_float_array(value, name)
    if arr.ndim != 2 or arr.shape[1] != volume.dim:
        raise ValueError(f"{name} must have shape (n, {volume.dim}) for a {volume.dim}D volume, "
                         f"got shape {arr.shape}")
    return np.ascontiguousarray(arr)


def contains_points(volume: Volume, points: Points) -> StateArray:
    """States of points against ``volume``.

    Parameters
    ----------
    volume : Volume
    points : (n, dim) float64
        ``dim`` the volume's (2 or 3).

    Returns
    -------
    (n,) int8
        :class:`~sidestep.volumes.Containment` values: 2 inside (the
        boundary included), 0 outside; never 1.
    """
    pts = _rows(volume, points, "points")
    return _spheres(volume, pts, np.zeros(1), "points", "radii")


def contains_spheres(volume: Volume, centers: Points, radii: Numbers) -> StateArray:
    """States of spheres (discs in 2D) against ``volume``.

    Parameters
    ----------
    volume : Volume
    centers : (n, dim) float64
    radii : (n,) float64 or one number
        Lengths >= 0 (world units).

    Returns
    -------
    (n,) int8
        :class:`~sidestep.volumes.Containment` values, as ``volume.contains(Sphere(c, r))``.
    """
    c = _rows(volume, centers, "centers")
    r = validation.as_float_array(radii, "radii")
    if r.ndim == 0:
        r = r.reshape(1)
    elif r.shape != (len(c),):
        raise ValueError(f"radii must be a number or have shape ({len(c)},), got shape {r.shape}")
    return _spheres(volume, c, np.ascontiguousarray(r), "centers", "radii")


def _spheres(volume: Volume, c: FloatArray, r: FloatArray, centers_name: str,
             radii_name: str) -> StateArray:
    a = volume.packed
    out = np.empty(len(c), dtype=np.int8)
    if a[kv.KIND] == kv.POLYTOPE:
        threads.run_rows(culling.spheres_polytope, len(c), culling.prepare_polytope(a, volume.dim),
                         a, c, r, VOLUME_TOLERANCE, MAX_COORDINATE, out)
    elif a[kv.KIND] == kv.ROUNDED:
        threads.run_rows(culling.spheres_rounded, len(c), a, c, r, VOLUME_TOLERANCE,
                         MAX_COORDINATE, out)
    else:
        threads.run_rows(culling.spheres_generic, len(c), a, float(volume.dim == 2), c, r,
                         VOLUME_TOLERANCE, MAX_COORDINATE, out)
    if len(out) and out.min() < 0:
        validation.points(c, centers_name, allow_single=False, dim=volume.dim)
        validation.lengths(r if len(r) == len(c) else r[0], radii_name, len(c))
    return out


def distances_along(volume: Volume, origins: Points, directions: Points,
                    max_distance: Numbers = np.inf) -> FloatArray:
    """Where each ray first meets ``volume``: ``Ray(o, d).distance_along(volume)`` for every row.

    Parameters
    ----------
    volume : Volume
    origins, directions : (n, dim) float64
        ``dim`` the volume's (2 or 3). Directions need not be unit length
        but must not be zero.
    max_distance : float or (n,) float64, >= 0 (inf allowed)
        How far each ray reaches (a finite one is the segment from its
        origin that long).

    Returns
    -------
    (n,) float64
        Distance (world units) from each origin to its ray's first point in
        ``volume``, 0 for an origin in it, inf on a miss. With the default
        ``max_distance`` each equals ``Ray(o, d).distance_along(volume)`` to
        the bit (``None`` there is inf here): the same kernel
        (:func:`~sidestep.kernels3d.volumes.entry_distance`), on all cores.

    Examples
    --------
    >>> from sidestep.volumes import Box
    >>> distances_along(Box((0, 0), (1, 1)), [(-5, 0.5), (0.5, 0.5), (-5, 3)],
    ...                 [(1, 0), (0, 1), (1, 0)]).tolist()
    [5.0, 0.0, inf]
    """
    if not isinstance(volume, Volume):
        raise TypeError(f"volume must be a volume, got {type(volume).__name__}")
    o, _ = validation.points(origins, "origins", allow_single=False, dim=volume.dim)
    d, _ = validation.points(directions, "directions", allow_single=False, dim=volume.dim)
    if o.shape != d.shape:
        raise ValueError(f"origins and directions must have the same shape, got {o.shape} and "
                         f"{d.shape}")
    md = validation.as_float_array(max_distance, "max_distance")
    if md.ndim == 0:
        md = md.reshape(1)
    elif md.shape != (len(o),):
        raise ValueError(f"max_distance must be a number or have shape ({len(o)},), "
                         f"got shape {md.shape}")
    if np.any(np.isnan(md)) or np.any(md < 0):
        raise ValueError("max_distance must be non-negative (inf allowed), not NaN")
    out = np.empty(len(o))
    threads.run_rows(kv.distances_rows, len(o), volume.packed, o, d, np.ascontiguousarray(md),
                     VOLUME_TOLERANCE, out)
    if np.isnan(out.min(initial=0.0)):
        row = int(np.flatnonzero(np.isnan(out))[0])
        raise ValueError(f"directions must not be the zero vector; row {row}")
    return out


def contains_boxes(volume: Volume, mins: Points, maxs: Points) -> StateArray:
    """States of axis-aligned boxes ``[mins, maxs]`` against ``volume``.

    Parameters
    ----------
    volume : Volume
    mins, maxs : (n, dim) float64
        Opposite corners, ``mins <= maxs`` (flat and zero boxes are fine).

    Returns
    -------
    (n,) int8
        :class:`~sidestep.volumes.Containment` values, as ``volume.contains(Box(lo, hi))``.
    """
    lo = _rows(volume, mins, "mins")
    hi = _rows(volume, maxs, "maxs")
    if lo.shape != hi.shape:
        raise ValueError(f"mins and maxs must have the same shape, got {lo.shape} and {hi.shape}")
    a = volume.packed
    out = np.empty(len(lo), dtype=np.int8)
    if a[kv.KIND] == kv.POLYTOPE:
        threads.run_rows(culling.boxes_polytope, len(lo), culling.prepare_polytope(a, volume.dim),
                         a, lo, hi, VOLUME_TOLERANCE, MAX_COORDINATE, out)
    else:
        threads.run_rows(culling.boxes_generic, len(lo), a, float(volume.dim == 2), lo, hi,
                         VOLUME_TOLERANCE, MAX_COORDINATE, out)
    if len(out) and out.min() < 0:
        validation.points(lo, "mins", allow_single=False, dim=volume.dim)
        validation.points(hi, "maxs", allow_single=False, dim=volume.dim)
        row = int(np.flatnonzero(np.any(lo > hi, axis=1))[0])
        raise ValueError(f"mins must not exceed maxs; row {row}: {lo[row]} > {hi[row]}")
    return out
