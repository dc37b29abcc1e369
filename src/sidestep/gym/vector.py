"""``NavigateVectorEnv``: N agents of the navigation task, stepped together.

One step is one ``World2D.move_many`` for every agent that moves and one
``World2D.raycast`` for every agent's range finder. Agents do not see or
collide with each other: each plays its own episode of
:class:`~sidestep.gym.NavigateEnv` in the same level.
"""
import numbers

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .arena import Arena
from .navigate import RENDER_MODES, check_render_mode, spaces_of
from .picture import Picture
from .steps import displacements, goal_distances, observe, ray_directions, ray_ends, rewards
from .task import Task


class NavigateVectorEnv(VectorEnv):
    """``num_envs`` agents, each playing :class:`~sidestep.gym.NavigateEnv`'s task.

    Agent ``i`` of an environment reset with ``seed=s`` plays exactly what a
    :class:`~sidestep.gym.NavigateEnv` reset with ``seed=s + i`` plays, and
    reset without a seed after each of its episodes: the same starts, goals,
    observations, rewards and ends, bit for bit. Episodes reset on the step
    after they end (Gymnasium's ``AutoresetMode.NEXT_STEP``): that step
    ignores the agent's action and returns its new episode's first
    observation, a reward of 0 and neither ``terminated`` nor ``truncated``.

    Parameters
    ----------
    num_envs : int >= 1
        Number of agents.
    level, area, render_mode, radius, step_length, rays, max_range, goal_radius, \
min_goal_distance, arrival_bonus, step_cost, max_episode_steps
        As :class:`~sidestep.gym.NavigateEnv`. ``render()`` returns a tuple of
        frames, one per agent.

    Attributes
    ----------
    positions, goals : (num_envs, 2) float64
        The agents and their goals (copies).

    Examples
    --------
    >>> import numpy as np
    >>> from sidestep.gym import NavigateVectorEnv
    >>> envs = NavigateVectorEnv(4, rays=8)          # the house and trees
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape, obs.dtype.name
    ((4, 11), 'float32')
    >>> obs, reward, terminated, truncated, info = envs.step(obs[:, 8:10])
    >>> reward.shape, terminated.dtype.name, info["distance"].shape
    ((4,), 'bool', (4,))
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 10,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs=1, level=None, *, area=None, render_mode=None, radius=0.5,
                 step_length=0.5, rays=16, max_range=10.0, goal_radius=1.0,
                 min_goal_distance=2.0, arrival_bonus=10.0, step_cost=0.01,
                 max_episode_steps=500):
        if isinstance(num_envs, bool) or not isinstance(num_envs, numbers.Integral):
            raise TypeError(f"num_envs must be an integer, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = int(num_envs)
        self.task = Task(radius=radius, step_length=step_length, rays=rays,
                         max_range=max_range, goal_radius=goal_radius,
                         min_goal_distance=min_goal_distance, arrival_bonus=arrival_bonus,
                         step_cost=step_cost, max_episode_steps=max_episode_steps)
        self.render_mode = check_render_mode(render_mode)
        self.arena = Arena(level, area, self.task.radius, self.task.min_goal_distance)
        self.world = self.arena.world
        self.single_action_space, self.single_observation_space = spaces_of(self.task)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._directions = ray_directions(self.task.rays)
        self._rngs = None
        self._positions = self._goals = None
        self._distances = np.zeros(self.num_envs)
        self._steps = np.zeros(self.num_envs, dtype=np.int64)
        self._ended = np.zeros(self.num_envs, dtype=bool)
        self._picture = None

    @property
    def positions(self):
        """``(num_envs, 2) float64``: the agents' centres."""
        return None if self._positions is None else self._positions.copy()

    @property
    def goals(self):
        """``(num_envs, 2) float64``: the agents' goals."""
        return None if self._goals is None else self._goals.copy()

    def _seeds(self, seed):
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            if seed < 0:
                raise ValueError(f"seed must be non-negative, got {seed}")
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs or not all(
                s is None or (isinstance(s, numbers.Integral) and not isinstance(s, bool)
                              and s >= 0) for s in seeds):
            raise ValueError(f"seed must be None, an int or {self.num_envs} ints "
                             f"(or None) >= 0; got {seed!r}")
        return [None if s is None else int(s) for s in seeds]

    def _info(self, arrived):
        everyone = np.ones(self.num_envs, dtype=bool)
        return {"distance": self._distances.copy(), "_distance": everyone,
                "arrived": arrived, "_arrived": everyone.copy()}

    def _observe(self):
        return observe(self.world, self.task, self._directions, self._positions, self._goals,
                       self.arena.diagonal)

    def reset(self, *, seed=None, options=None):
        """Start every agent's episode; ``seed``: None, an int (agent i gets seed + i) or a list.

        ``options`` is accepted for Gymnasium's API and must be empty.
        """
        if options:
            raise ValueError(f"options must be empty for the vector environment, got {options!r}")
        seeds = self._seeds(seed)
        if isinstance(seed, numbers.Integral):
            super().reset(seed=int(seed))
        self._rngs = [seeding.np_random(s)[0] for s in seeds]
        self._positions, self._goals = self.arena.draw(self._rngs)
        self._distances = goal_distances(self._positions, self._goals)
        self._steps[:] = 0
        self._ended[:] = False
        return self._observe(), self._info(np.zeros(self.num_envs, dtype=bool))

    def step(self, actions):
        """Move every agent by its action (rows of ``(num_envs, 2)``), observe and pay.

        Agents whose episode ended on the previous step start a new one instead.
        """
        if self._positions is None:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs, 2) or a.dtype.kind not in "fiub":
            raise ValueError(f"actions must be numbers of shape ({self.num_envs}, 2), got "
                             f"{getattr(actions, 'shape', None) or actions!r}")
        moves = displacements(self.task, a, "actions")
        walking = ~self._ended
        fresh = np.flatnonzero(self._ended)
        before = self._distances
        if walking.any():
            self._positions[walking] = self.world.move_many(
                self._positions[walking], moves[walking], radius=self.task.radius)
        if len(fresh):
            starts, goals = self.arena.draw([self._rngs[i] for i in fresh])
            self._positions[fresh], self._goals[fresh] = starts, goals
            before = before.copy()
            before[fresh] = goal_distances(starts, goals)
            self._steps[fresh] = 0
        self._distances = goal_distances(self._positions, self._goals)
        reward, arrived = rewards(self.task, before, self._distances)
        self._steps[walking] += 1
        terminated = arrived & walking
        truncated = walking & ~terminated & (self._steps >= self.task.max_episode_steps)
        reward[fresh] = 0.0
        self._ended = terminated | truncated
        return self._observe(), reward, terminated, truncated, self._info(terminated.copy())

    def render(self):
        """A frame per agent (a tuple of ``(height, width, 3) uint8``), for ``"rgb_array"``."""
        if self.render_mode is None:
            return None
        if self._picture is None:
            self._picture = Picture(self.world, self.arena.area, self.task.radius,
                                    self.task.goal_radius)
        if self._positions is None:
            empty = self._picture.draw(np.empty((0, 2)), np.empty((0, 2)), np.empty((0, 0, 2)))
            return tuple(empty.copy() for _ in range(self.num_envs))
        ends = ray_ends(self.world, self.task, self._directions, self._positions)
        return tuple(self._picture.draw(self._positions[i:i + 1], self._goals[i:i + 1],
                                        ends[i:i + 1]) for i in range(self.num_envs))
