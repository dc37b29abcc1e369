"""Where an agent cannot start: points where a disc of a radius overlaps something.

Shared by ``walk`` (its starts) and ``check`` (spawns, scenario starts and
goals): each overlapping point says what it overlaps, and whether it lies
outside the level, in the void behind the level's edge (one-sided walls,
see :meth:`sidestep.World2D.add_walls`).

>>> import sidestep
>>> world = sidestep.World2D()
>>> room = [(0, 0), (4, 0), (4, 4), (0, 4)]
>>> edge = world.add_walls(room, room[1:] + room[:1], one_sided=True)
>>> post = world.add_circles([(2, 2)], 0.5)
>>> for o in start_overlaps(world, [(1, 1), (2, 2.2), (0, 2), (-1, 2)], 0.3):
...     print(o.index, o.describe())
1 inside circle 4
2 overlaps wall 3 (the level's edge)
3 outside the level (behind wall 3, its edge)
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StartOverlap:
    """One point where a disc of the radius asked for does not fit."""

    #: Index of the point among those asked about.
    index: int
    #: ``(x, y)``.
    point: tuple
    #: Signed distance to the nearest surface (negative inside an obstacle or
    #: outside the level).
    clearance: float
    #: Id of the nearest obstacle.
    nearest: int
    #: Ids of every obstacle the disc touches or overlaps, sorted.
    obstacles: tuple
    #: Their families, in the same order.
    families: tuple
    #: Whether the point lies outside the level: behind its edge, in the void.
    outside: bool
    #: Whether the nearest obstacle is a one-sided wall (the level's edge).
    edge: bool

    def describe(self):
        """What the point overlaps, in a few words."""
        label = f"{_family(self.nearest, self)} {self.nearest}"
        if self.outside:
            return f"outside the level (behind {label}, its edge)"
        if self.clearance < 0:
            return f"inside {label}"
        names = ", ".join(f"{f} {i}" for f, i in zip(self.families, self.obstacles)) or label
        return f"overlaps {names}" + (" (the level's edge)" if self.edge else "")

    def as_dict(self):
        """JSON-ready: ``obstacles``, ``families``, ``outside``, ``clearance``."""
        return {"obstacles": [int(i) for i in self.obstacles], "families": list(self.families),
                "outside": self.outside, "clearance": self.clearance}


def _family(oid, overlap):
    for i, f in zip(overlap.obstacles, overlap.families):
        if i == oid:
            return f
    return "wall" if overlap.edge else "obstacle"


def start_overlaps(world, points, radius):
    """The points where a disc of ``radius`` overlaps an obstacle or lies outside the level.

    Parameters
    ----------
    world : World2D
    points : (n, 2) float64
    radius : float >= 0

    Returns
    -------
    tuple of StartOverlap
        One per point whose clearance is below ``radius`` (below 0 when the
        radius is 0), in order; the points that fit are left out.
    """
    points = np.asarray(points, float).reshape(-1, 2)
    if not len(points) or not len(world):
        return ()
    near = world.nearest(points)
    walls = world.geometry("wall")
    one_sided = set(walls["ids"][walls["one_sided"]].tolist())
    found = []
    for i in np.flatnonzero(near.distance < radius if radius > 0 else near.distance < 0):
        d, oid = float(near.distance[i]), int(near.obstacle[i])
        ids = world.overlapping(points[i], radius)
        if oid not in ids and d <= radius:
            ids = np.union1d(ids, [oid])
        edge = oid in one_sided
        found.append(StartOverlap(int(i), tuple(map(float, points[i])), d, oid,
                                  tuple(int(k) for k in ids),
                                  tuple(world.family(int(k)) for k in ids),
                                  bool(edge and d < 0), edge))
    return tuple(found)
