"""Small result records returned by the worlds' queries, 2D and 3D alike.

Shapes are given for 2D; in 3D every ``2`` is a ``3`` and the records carry a ``part``.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Contact:
    """One obstacle that stopped or turned a move."""

    #: Id of the obstacle touched.
    obstacle: int
    #: ``(2,) float64``: the point of the obstacle's surface where it was touched.
    point: np.ndarray
    #: ``(2,) float64``: unit normal at that point, from the obstacle towards the agent.
    normal: np.ndarray
    #: Part of the requested displacement travelled when the contact was made, in [0, 1].
    fraction: float
    #: 3D: which part of the obstacle was touched (a mesh's triangle), -1 for a
    #: whole obstacle; None in 2D.
    part: object = None


@dataclass(frozen=True)
class Move:
    """What :meth:`World2D.move` did, and why it ended where it did."""

    #: ``(2,) float64``: where the agent ends.
    position: np.ndarray
    #: Whether anything stopped, turned or pushed the agent.
    hit: bool
    #: The obstacles involved, one :class:`Contact` each, in the order met.
    contacts: tuple
    #: Why the move ended: ``"done"`` (reached the target untouched), ``"slid"``
    #: (contacts turned the move and it went on along them as far as they allow),
    #: ``"blocked"`` (it came to rest against contacts with no way along them:
    #: head-on into a wall, into a corner; block mode: the target collides),
    #: ``"pushed"`` (push mode pushed the agent out), ``"max_iterations"`` (slide
    #: ran out of passes with motion left) or ``"stuck"`` (started overlapping
    #: and found no free spot).
    stop: str
    #: Whether the agent started overlapping and was first moved to a free spot.
    recovered: bool = False


@dataclass(frozen=True)
class Nearest:
    """Nearest obstacle surface to each query point (arrays of length n; one point: scalars)."""

    #: ``(n,) int64``: id of the nearest obstacle, -1 in an empty world.
    obstacle: np.ndarray
    #: ``(n,) float64``: signed distance to its surface, negative inside; inf if none.
    distance: np.ndarray
    #: ``(n, 2) float64``: the nearest surface point (NaN if none).
    point: np.ndarray
    #: ``(n, 2) float64``: unit normal there, out of the obstacle (NaN if none).
    normal: np.ndarray
    #: 3D: ``(n,) int64``, the part of the obstacle nearest (a mesh's triangle,
    #: -1 for a whole obstacle); None in 2D.
    part: object = None


@dataclass(frozen=True)
class RayHits:
    """First obstacle surface along each ray (arrays of length n; one ray: scalars)."""

    #: ``(n,) bool``: whether the ray hit within its ``max_distance``.
    hit: np.ndarray
    #: ``(n,) float64``: distance along the ray to the hit, inf on a miss.
    distance: np.ndarray
    #: ``(n, 2) float64``: unit surface normal at the hit, towards the ray's origin side; 0 on a miss.
    normal: np.ndarray
    #: ``(n,) int64``: id of the obstacle hit, -1 on a miss.
    obstacle: np.ndarray
    #: ``(n, 2) float64``: the hit point (NaN on a miss).
    point: np.ndarray
    #: 3D: ``(n,) int64``, the part hit (a mesh's triangle; -1 for a whole
    #: obstacle or a miss); None in 2D.
    part: object = None
