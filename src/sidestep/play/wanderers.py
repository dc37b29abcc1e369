"""A crowd that wanders the level around the player: a :class:`sidestep.Crowd` with goals.

Each agent walks straight towards a goal a few metres away, a random free
point near it, and picks a new one when it arrives, when its time for that
goal runs out or when it has barely moved for a second (pressed against a
wall between it and its goal, or in a jam). One :meth:`sidestep.Crowd.step`
per frame moves them all: they never overlap each other nor enter an
obstacle. The player joins the crowd every frame as an agent of infinite
weight, so the crowd makes way for it.

>>> import numpy as np
>>> import sidestep
>>> world = sidestep.World2D()
>>> walls = world.add_walls([(-10, -10), (-10, -10)], [(10, -10), (-10, 10)])
>>> crowd = Wanderers(world, 50, radius=0.3, speed=3.0, around=(0, 0),
...                   rng=np.random.default_rng(0))
>>> for _ in range(30):
...     step = crowd.step(1 / 60, player=(0.0, 0.0), player_radius=0.3)
>>> len(crowd), bool((world.clearance(crowd.positions) >= crowd.radii - 1e-9).all())
(50, True)
"""
import numpy as np

from .. import Crowd, layers

#: Spawn lattice spacing, in the agents' largest radius: 2.5 leaves a gap of
#: half a radius between neighbours, room for the jitter below.
SPACING_IN_RADII = 2.5
#: Largest jitter of a spawn point off its lattice point, in radii.
JITTER_IN_RADII = 0.2
#: Agents' radii are the player's times a factor drawn in this range.
RADIUS_RANGE = (0.8, 1.0)
#: Agents' speeds are the player's walking speed times a factor in this range.
SPEED_RANGE = (0.4, 0.8)
#: Goals are drawn within this many radii of the agent, each way.
GOAL_REACH_IN_RADII = 25.0
#: Random goal candidates tried per agent and draw.
GOAL_TRIES = 8
#: Seconds an agent keeps a goal at most, drawn in this range.
GOAL_SECONDS = (3.0, 10.0)
#: An agent that moved less than this share of its step for :data:`STUCK_SECONDS`
#: picks a new goal.
STUCK_SHARE = 0.1
STUCK_SECONDS = 1.0
#: Spawn windows grow by this factor until they hold enough free points.
WINDOW_GROWTH = 2.0


class Wanderers:
    """``count`` agents wandering near ``around``, moved by a :class:`sidestep.Crowd`.

    Parameters
    ----------
    world : sidestep.World2D
    count : int >= 1
    radius : float > 0
        The player's radius; agents get :data:`RADIUS_RANGE` times it.
    speed : float > 0
        The player's walking speed (world units per second); agents walk at
        :data:`SPEED_RANGE` times it.
    around : (2,) float64
        Agents spawn on the free points nearest it (not on it: the player's
        start stays clear).
    rng : numpy.random.Generator
    mask : int
        The layers the agents collide with (all by default).

    Raises
    ------
    ValueError
        When the level has no room for ``count`` agents.
    """

    def __init__(self, world, count, *, radius, speed, around, rng, mask=layers.ALL):
        if not (isinstance(count, (int, np.integer)) and count >= 1):
            raise ValueError(f"crowd must be a whole number >= 1, got {count!r}")
        self._world = world
        self._rng = rng
        self._mask = mask
        self._reach = GOAL_REACH_IN_RADII * radius
        self._radii = radius * rng.uniform(*RADIUS_RANGE, count)
        self._speeds = speed * rng.uniform(*SPEED_RANGE, count)
        around = np.asarray(around, float)
        starts = spawn_points(world, count, radius * RADIUS_RANGE[1], around, rng, mask)
        self._crowd = Crowd(world, starts, self._radii, mask=mask)
        self._count = count
        self._player = None              # the player's id in the crowd, once it joined
        self._goals = starts.copy()
        self._left = np.zeros(count)     # seconds left for each goal
        self._stuck = np.zeros(count)    # seconds each agent has barely moved
        self._new_goals(np.arange(count))

    def __len__(self):
        return self._count

    @property
    def crowd(self):
        """The :class:`sidestep.Crowd` (the player is its last agent once it joined)."""
        return self._crowd

    @property
    def positions(self):
        """``(n, 2) float64``: the wandering agents (not the player), read-only."""
        return self._crowd.positions[:self._count]

    @property
    def radii(self):
        """``(n,) float64``: their radii."""
        return self._radii

    @property
    def goals(self):
        """``(n, 2) float64``: where each is heading."""
        return self._goals

    def step(self, dt, player=None, player_radius=None, player_to=None):
        """Move every agent one frame of ``dt`` seconds towards its goal.

        Parameters
        ----------
        dt : float > 0
            Seconds.
        player : (2,) float64, optional
            Where the player was at the start of the frame; it joins the crowd
            there, with infinite weight (never pushed).
        player_radius : float > 0, optional
            Needed with ``player``.
        player_to : (2,) float64, optional
            Where the player ends the frame (by its own move): the crowd's copy
            of it moves there, and the agents in its way make way.

        Returns
        -------
        sidestep.CrowdStep
        """
        crowd = self._crowd
        if self._player is not None:
            crowd.remove([self._player])
            self._player = None
        if player is not None:
            self._player = int(crowd.add([player], [player_radius], [np.inf])[0])
        n = self._count
        here = crowd.positions[:n].copy()
        gap = self._goals - here
        distance = np.sqrt((gap * gap).sum(axis=1))
        stride = np.minimum(self._speeds * dt, distance)
        wish = np.zeros((len(crowd), 2))
        moving = distance > 0
        wish[:n][moving] = gap[moving] * (stride[moving] / distance[moving])[:, None]
        if player is not None and player_to is not None:
            wish[n] = np.asarray(player_to, float) - np.asarray(player, float)
        done = crowd.step(wish)
        moved = np.sqrt(((done.positions[:n] - here) ** 2).sum(axis=1))
        self._stuck = np.where(moved < STUCK_SHARE * self._speeds * dt, self._stuck + dt, 0.0)
        self._left -= dt
        renew = (distance <= self._radii) | (self._left <= 0) | (self._stuck >= STUCK_SECONDS)
        if renew.any():
            self._new_goals(np.flatnonzero(renew))
        return done

    def _new_goals(self, rows):
        """Random free goals within :data:`GOAL_REACH_IN_RADII` radii of each agent in ``rows``."""
        rng = self._rng
        here = self._crowd.positions[rows]
        reach = self._reach
        tries = here[:, None, :] + rng.uniform(-reach, reach, (len(rows), GOAL_TRIES, 2))
        room = np.atleast_1d(self._world.clearance(tries.reshape(-1, 2), self._mask))
        room = room.reshape(len(rows), -1)
        ok = room > 1.1 * self._radii[rows, None]
        first = ok.argmax(axis=1)
        found = ok[np.arange(len(rows)), first]
        goals = here.copy()        # no free try: stay, and try again when the time is up
        goals[found] = tries[np.flatnonzero(found), first[found]]
        self._goals[rows] = goals
        self._left[rows] = rng.uniform(*GOAL_SECONDS, len(rows))
        self._stuck[rows] = 0.0


def spawn_points(world, count, radius, around, rng, mask=layers.ALL):
    """``count`` free points for agents of ``radius``, the nearest to ``around``, none overlapping.

    Points of a square lattice of spacing :data:`SPACING_IN_RADII` radii,
    jittered, where the world leaves room for the agent; the lattice covers a
    window around ``around`` that grows until it holds enough of them (within
    the world's bounds). The lattice point at ``around`` itself and its
    neighbours are left out, for the player. ``mask``: the layers the agents
    collide with.

    Returns
    -------
    (count, 2) float64

    Raises
    ------
    ValueError
        When the level's bounds hold fewer than ``count`` such points.
    """
    spacing = SPACING_IN_RADII * radius
    jitter = JITTER_IN_RADII * radius
    need = radius + jitter * np.sqrt(2.0) + 1e-9
    bounds = world.bounds
    side = spacing * np.ceil(np.sqrt(4.0 * count) + 4)
    while True:
        lo, hi = around - side / 2, around + side / 2
        covers = False
        if bounds is not None:
            lo = np.maximum(lo, bounds[:2])
            hi = np.minimum(hi, bounds[2:])
            covers = bool((lo <= bounds[:2]).all() and (hi >= bounds[2:]).all())
        # Lattice lines through ``around``, so the player's spot is a lattice point.
        first = around + np.ceil((lo - around) / spacing) * spacing
        xs = np.arange(first[0], hi[0], spacing)
        ys = np.arange(first[1], hi[1], spacing)
        points = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        points = points[((points - around) ** 2).sum(axis=1) > (1.5 * spacing) ** 2]
        if len(points):
            points = points[np.atleast_1d(world.clearance(points, mask)) >= need]
        if len(points) >= count or covers:
            break
        side *= WINDOW_GROWTH
    if len(points) < count:
        raise ValueError(f"crowd: the level has room for {len(points)} agents of radius "
                         f"{radius:g}, not {count}")
    nearest = np.argsort(((points - around) ** 2).sum(axis=1), kind="stable")[:count]
    return points[nearest] + rng.uniform(-jitter, jitter, (count, 2))
