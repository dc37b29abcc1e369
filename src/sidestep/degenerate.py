"""Triangles with no surface: find them, drop them, count them.

Level files hold triangles whose corners coincide or lie on one line (a
Godot export's room has 3,537 of them in 5,088), and triangles touching a
corner that is not a number. Neither can block anything or give a normal,
so the level readers drop them before a mesh reaches ``World3D.add_mesh``,
and report how many in ``problems``.

A triangle is of **zero area** when the cross product of two of its edges,
``(b - a) x (c - a)``, is exactly the zero vector in float64: the corners
are equal or exactly collinear as stored. Slivers of tiny but non-zero area
are kept: they have a plane, and the 3D kernels must cope with them.
"""
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from ._types import BoolArray, FloatArray, IntArray


@dataclass(frozen=True)
class KeptTriangles:
    """What :func:`drop_degenerate` kept of a triangle list, and what it dropped."""

    #: ``(k, 3) int64``: the triangles kept, in their original order.
    triangles: IntArray
    #: ``(k,) int64``: the row of each kept triangle in the list given.
    kept: IntArray
    #: How many were dropped for zero area.
    zero_area: int
    #: How many were dropped for a corner that is NaN or infinite.
    non_finite: int

    @property
    def dropped(self) -> int:
        """How many triangles were dropped in all."""
        return self.zero_area + self.non_finite


def surface_kinds(vertices: FloatArray, triangles: IntArray) -> tuple[BoolArray, BoolArray]:
    """Which triangles have no surface, and why.

    Parameters
    ----------
    vertices : (n, 3) float64
        May hold NaN or infinite corners.
    triangles : (m, 3) int64
        Valid indices into ``vertices`` (see :func:`sidestep.validation.mesh`).

    Returns
    -------
    zero_area : (m,) bool
        Finite corners, and ``(b - a) x (c - a)`` is exactly zero.
    non_finite : (m,) bool
        A corner is NaN or infinite.
    """
    corners = vertices[triangles]                               # (m, 3 corners, 3 axes)
    non_finite = cast(BoolArray, ~np.isfinite(corners).all(axis=(1, 2)))
    with np.errstate(invalid="ignore", over="ignore"):
        cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    zero_area = ~non_finite & ~np.any(cross != 0.0, axis=1)
    return zero_area, non_finite


def drop_degenerate(vertices: ArrayLike, triangles: ArrayLike) -> KeptTriangles:
    """The triangles of a mesh without those of zero area or with a non-finite corner.

    Parameters
    ----------
    vertices : (n, 3) float64
    triangles : (m, 3) int64
        Valid indices into ``vertices``.

    Returns
    -------
    KeptTriangles

    Examples
    --------
    >>> v = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 0, 0), (np.nan, 0, 0)])
    >>> kept = drop_degenerate(v, np.array([(0, 1, 2), (0, 1, 3), (0, 0, 2), (0, 1, 4)]))
    >>> kept.triangles.tolist(), kept.kept.tolist()    # a hit, a line, a repeat, a NaN
    ([[0, 1, 2]], [0])
    >>> kept.zero_area, kept.non_finite, kept.dropped
    (2, 1, 3)
    >>> drop_degenerate(v, np.zeros((0, 3), np.int64)).dropped   # nothing to drop
    0
    """
    triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    zero_area, non_finite = surface_kinds(np.asarray(vertices, dtype=np.float64), triangles)
    kept = np.flatnonzero(~(zero_area | non_finite))
    return KeptTriangles(np.ascontiguousarray(triangles[kept]), kept,
                         int(zero_area.sum()), int(non_finite.sum()))
