"""A loaded level: the world plus what the file says about agents in it.

:func:`sidestep.load` returns a :class:`Level`; loaders raise
:class:`LevelError` for a file that is at fault, naming the file, the place in
it and what was expected.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._types import BoolArray, FloatArray, Points2, StrPath

if TYPE_CHECKING:
    from .world import World2D
    from .world3d import World3D


class LevelError(ValueError):
    """A level file that cannot be read: ``file``, ``place`` (line, object id, lump...) and why."""

    def __init__(self, file: StrPath, place: object, message: str) -> None:
        self.file = str(file)
        self.place = place
        self.message = message
        where = f"{self.file}: {place}: " if place else f"{self.file}: "
        super().__init__(where + message)


@dataclass(frozen=True)
class Scenarios:
    """Start and goal pairs for agents (a Moving AI ``.scen`` file, say)."""

    #: ``(n, 2) float64``: where each agent starts.
    starts: FloatArray
    #: ``(n, 2) float64``: where it should go.
    goals: FloatArray
    #: ``(n,) float64``: the file's optimal path length per pair (NaN if not given).
    lengths: FloatArray = field(default_factory=lambda: np.zeros(0))


@dataclass(frozen=True)
class Level:
    """What :func:`sidestep.load` read from a level file."""

    #: The obstacles, as a :class:`~sidestep.World2D` (a
    #: :class:`~sidestep.World3D` for a 3D level).
    world: "World2D | World3D"
    #: ``(n, 2) float64``: spawn points the file marks (Tiled point objects...);
    #: may be empty (``(n, 3)`` in 3D).
    spawns: FloatArray
    #: Start/goal pairs for agents, or None.
    scenarios: Scenarios | None = None
    #: A short name for the level (the map name, or the file's stem).
    name: str = ""
    #: Path of the file read, or None.
    source: Path | None = None
    #: Non-fatal problems found while reading (a scenario row whose start is
    #: blocked, an object type that was skipped...), one line each.
    problems: tuple[str, ...] = ()

    def walkable(self, points: Points2) -> BoolArray:
        """Whether each point lies in the level's walkable area.

        Inside the level's edge (its one-sided walls: a navmesh's polygons, a
        Doom map's open sectors, a grid or Tiled map's extent) and outside
        every obstacle (blocked cells, boxes...); on a surface counts as
        walkable. A level without one-sided walls has no outside: anywhere
        not inside an obstacle is walkable.

        Parameters
        ----------
        points : (n, 2) float64, or one point (2,)

        Returns
        -------
        (n,) bool
        """
        return np.atleast_1d(self.world.clearance(points)) >= 0.0
