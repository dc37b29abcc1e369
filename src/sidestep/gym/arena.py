"""Where the navigation task is played: a level's world, the area episodes are drawn in.

Starts and goals are drawn in batches of candidates from each agent's own
random generator and kept where ``World2D.clearance`` says the agent fits, so
an agent of a vector environment draws exactly what a single environment
with its seed draws.

>>> import numpy as np, sidestep
>>> from sidestep.gym.arena import Arena
>>> world = sidestep.World2D()
>>> tree = world.add_circles([(0.0, 0.0)], 2.0)
>>> arena = Arena(world, area=(-5, -5, 5, 5), radius=0.5)
>>> starts, goals = arena.draw([np.random.default_rng(1)])
>>> bool(world.clearance(starts[0]) >= 0.5 and world.clearance(goals[0]) >= 0.5)
True
>>> Arena(sidestep.World2D(), area=None, radius=0.5)
Traceback (most recent call last):
...
ValueError: area must be given (minx, miny, maxx, maxy) for a level without obstacles
"""
import os

import numpy as np

from .. import validation
from ..level import Level
from ..world import World2D

#: Candidate points drawn per attempt, for the start and for the goal each.
CANDIDATES = 32
#: Attempts an agent gets to find a start and a goal before the draw gives up.
MAX_ATTEMPTS = 200
#: Points probed when an arena is built, to tell a level with no room for the agent.
PROBES = 4096


def world_of(level):
    """The :class:`~sidestep.World2D` of ``level``.

    Parameters
    ----------
    level : None, World2D, Level, str or os.PathLike
        None: the articles' house and trees (:func:`sidestep.scenes.demo_world`);
        a path: any 2D level file :func:`sidestep.load` reads.
    """
    if level is None:
        from ..scenes import demo_world
        return demo_world()[0]
    if isinstance(level, World2D):
        return level
    if isinstance(level, (str, os.PathLike)):
        from .. import load
        level = load(level)
    if isinstance(level, Level):
        if not isinstance(level.world, World2D):
            raise ValueError(f"level must be a 2D level; {level.name or 'this file'} holds a "
                             f"{type(level.world).__name__}")
        return level.world
    raise TypeError(f"level must be None, a World2D, a Level or a level file's path, got "
                    f"{type(level).__name__}")


class Arena:
    """A world, the rectangle episodes are drawn in, and the agent's radius.

    Parameters
    ----------
    level : None, World2D, Level, str or os.PathLike
        See :func:`world_of`.
    area : (4,) float64 or None
        ``(minx, miny, maxx, maxy)`` where starts and goals are drawn; the
        level's bounds when None (then the level must hold an obstacle).
    radius : float >= 0
        The agent's radius: starts and goals have at least this clearance.
    min_goal_distance : float >= 0
        How far apart a start and its goal must be.
    """

    def __init__(self, level, area, radius, min_goal_distance=0.0):
        self.world = world_of(level)
        if area is None:
            area = self.world.bounds
            if area is None:
                raise ValueError("area must be given (minx, miny, maxx, maxy) for a level "
                                 "without obstacles")
        a = validation.as_float_array(area, "area")
        if a.shape != (4,) or not np.all(np.isfinite(a)) or not (a[0] < a[2] and a[1] < a[3]):
            raise ValueError(f"area must be (minx, miny, maxx, maxy), finite, with min < max; "
                             f"got {area!r}")
        self.area = a
        self.radius = validation.length(radius, "radius")
        self.min_goal_distance = validation.length(min_goal_distance, "min_goal_distance")
        #: Length of the area's diagonal: goal distances are read as a fraction of it.
        self.diagonal = float(np.hypot(a[2] - a[0], a[3] - a[1]))
        if self.min_goal_distance >= self.diagonal:
            raise ValueError(f"min_goal_distance must be below the area's diagonal "
                             f"({self.diagonal:g}), got {self.min_goal_distance:g}")
        probe = np.random.default_rng(0).uniform(a[:2], a[2:], (PROBES, 2))
        if not np.any(self.world.clearance(probe) >= self.radius):
            raise ValueError(f"radius {self.radius:g} leaves no free space in area "
                             f"{tuple(a.tolist())}: no agent fits there")

    def free(self, points):
        """Whether an agent centred on each point fits: ``(n, 2) -> (n,) bool``."""
        return self.world.clearance(points) >= self.radius

    def draw(self, rngs):
        """A start and a goal for each generator, where the agent fits.

        Each attempt takes :data:`CANDIDATES` start and as many goal candidates
        from the agent's generator, uniform in the area; the first free start
        and the first free goal far enough from it are kept, or the agent tries
        again. The agents' candidates are tested in one ``clearance`` call.

        Parameters
        ----------
        rngs : sequence of numpy.random.Generator
            One per agent; each is advanced by the draws of its agent alone.

        Returns
        -------
        starts, goals : (n, 2) float64
        """
        n = len(rngs)
        starts = np.empty((n, 2))
        goals = np.empty((n, 2))
        pending = list(range(n))
        lo, hi = self.area[:2], self.area[2:]
        for _ in range(MAX_ATTEMPTS):
            if not pending:
                return starts, goals
            candidates = np.stack([rngs[i].uniform(lo, hi, (2 * CANDIDATES, 2))
                                   for i in pending])
            ok = self.free(candidates.reshape(-1, 2)).reshape(len(pending), 2 * CANDIDATES)
            still = []
            for row, i in enumerate(pending):
                s = np.flatnonzero(ok[row, :CANDIDATES])
                if len(s):
                    start = candidates[row, s[0]]
                    g = candidates[row, CANDIDATES:]
                    far = ok[row, CANDIDATES:] & (np.hypot(*(g - start).T)
                                                  >= self.min_goal_distance)
                    f = np.flatnonzero(far)
                    if len(f):
                        starts[i], goals[i] = start, g[f[0]]
                        continue
                still.append(i)
            pending = still
        if pending:
            raise RuntimeError(f"no start and goal found for {len(pending)} agent(s) after "
                               f"{MAX_ATTEMPTS} attempts; the free space of the area is too "
                               f"small (lower min_goal_distance or radius)")
        return starts, goals
