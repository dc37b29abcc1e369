"""``NavigateEnv``: one agent walks a sidestep level to a goal, seeing with a range finder."""
import gymnasium
import numpy as np
from gymnasium import spaces

from .. import validation
from .arena import Arena
from .picture import Picture
from .steps import displacements, goal_distances, observe, ray_directions, ray_ends, rewards
from .task import Task

RENDER_MODES = ("rgb_array",)


def check_render_mode(render_mode):
    """``render_mode`` if None or one of :data:`RENDER_MODES`, else a ValueError naming it."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(map(repr, RENDER_MODES))
        raise ValueError(f"render_mode must be None or one of {modes}; got {render_mode!r}")
    return render_mode


def spaces_of(task):
    """The action and observation spaces of one agent.

    Returns
    -------
    action : Box(-1, 1, (2,), float32)
        A velocity, as a fraction of ``task.step_length`` per step along x and y.
    observation : Box(-1, 1, (rays + 3,), float32)
        See :func:`sidestep.gym.steps.observe`.
    """
    action = spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
    low = np.zeros(task.observation_size, dtype=np.float32)
    low[task.rays:task.rays + 2] = -1.0
    observation = spaces.Box(low, np.ones(task.observation_size, dtype=np.float32),
                             dtype=np.float32)
    return action, observation


class NavigateEnv(gymnasium.Env):
    """An agent (a disc) walks a 2D level to a goal; it sees the level with a range finder.

    Each step the action, a velocity in [-1, 1]^2 (clipped to length 1), moves
    the agent ``step_length`` times it with ``World2D.move_many`` in ``slide``
    mode: it never enters an obstacle and slides along what it meets. The
    observation (``rays + 3`` floats in [-1, 1]) is the range finder, the
    goal's unit direction and its distance over the area's diagonal (see
    :func:`sidestep.gym.steps.observe`). The reward is the progress towards
    the goal over ``step_length`` (at most 1), less ``step_cost``, plus
    ``arrival_bonus`` on arrival. ``terminated`` when the agent's centre is
    within ``goal_radius`` of the goal, ``truncated`` after
    ``max_episode_steps``. Starts and goals are drawn, where the agent fits,
    from the environment's seeded generator. A goal may lie where no path
    reaches (another closed room): such an episode is truncated.

    Parameters
    ----------
    level : None, World2D, Level, str or os.PathLike
        None: the articles' house and trees (:mod:`sidestep.scenes`); or a
        world, a loaded level, or a 2D level file's path (:func:`sidestep.load`).
    area : (4,) float, optional
        ``(minx, miny, maxx, maxy)`` where starts and goals are drawn: the
        level's bounds by default (required for a level without obstacles).
    render_mode : None or "rgb_array"
        ``render()`` returns an ``(height, width, 3) uint8`` frame.
    radius, step_length, rays, max_range, goal_radius, min_goal_distance, \
arrival_bonus, step_cost, max_episode_steps
        See :class:`sidestep.gym.task.Task`.

    Attributes
    ----------
    position, goal : (2,) float64
        The agent and its goal (copies).
    world : World2D

    Examples
    --------
    >>> import numpy as np, sidestep
    >>> from sidestep.gym import NavigateEnv
    >>> world = sidestep.World2D()
    >>> rock = world.add_circles([(0.0, 0.0)], 1.0)
    >>> env = NavigateEnv(world, area=(-10, -10, 10, 10), rays=8, min_goal_distance=5.0)
    >>> obs, info = env.reset(seed=3)
    >>> obs.shape, bool(info["distance"] >= 5.0)
    ((11,), True)
    >>> for _ in range(100):                                   # head for the goal
    ...     obs, reward, terminated, truncated, info = env.step(obs[8:10])
    ...     if terminated or truncated:
    ...         break
    >>> terminated, bool(world.clearance(env.position) >= 0.5 - 1e-9)
    (True, True)
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 10}

    def __init__(self, level=None, *, area=None, render_mode=None, radius=0.5,
                 step_length=0.5, rays=16, max_range=10.0, goal_radius=1.0,
                 min_goal_distance=2.0, arrival_bonus=10.0, step_cost=0.01,
                 max_episode_steps=500):
        self.task = Task(radius=radius, step_length=step_length, rays=rays,
                         max_range=max_range, goal_radius=goal_radius,
                         min_goal_distance=min_goal_distance, arrival_bonus=arrival_bonus,
                         step_cost=step_cost, max_episode_steps=max_episode_steps)
        self.render_mode = check_render_mode(render_mode)
        self.arena = Arena(level, area, self.task.radius, self.task.min_goal_distance)
        self.world = self.arena.world
        self.action_space, self.observation_space = spaces_of(self.task)
        self._directions = ray_directions(self.task.rays)
        self._position = self._goal = None
        self._steps = 0
        self._distance = 0.0
        self._picture = None

    @property
    def position(self):
        """``(2,) float64``: the agent's centre."""
        return None if self._position is None else self._position[0].copy()

    @property
    def goal(self):
        """``(2,) float64``: the goal."""
        return None if self._goal is None else self._goal[0].copy()

    def _observe(self):
        return observe(self.world, self.task, self._directions, self._position, self._goal,
                       self.arena.diagonal)[0]

    def _info(self, arrived):
        return {"distance": self._distance, "arrived": arrived}

    def reset(self, *, seed=None, options=None):
        """Start an episode: a new start and goal from the seeded generator.

        ``options`` may give ``{"start": (x, y), "goal": (x, y)}`` (either or
        both) instead of drawing them; the agent must fit there. The
        generator draws as usual either way.
        """
        given = _placed(self.arena, options)
        super().reset(seed=seed)
        starts, goals = self.arena.draw([self.np_random])
        if "start" in given:
            starts[0] = given["start"]
        if "goal" in given:
            goals[0] = given["goal"]
        self._position, self._goal = starts, goals
        self._steps = 0
        self._distance = float(goal_distances(starts, goals)[0])
        return self._observe(), self._info(False)

    def step(self, action):
        """Move by ``action`` (a velocity in [-1, 1]^2), then observe and pay."""
        if self._position is None:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(action)
        if a.shape != (2,) or a.dtype.kind not in "fiub":
            raise ValueError(f"action must be 2 numbers (shape (2,)), got {action!r}")
        moves = displacements(self.task, a[None], "action")
        self._position = self.world.move_many(self._position, moves, radius=self.task.radius)
        before = self._distance
        after = goal_distances(self._position, self._goal)
        reward, arrived = rewards(self.task, np.array([before]), after)
        self._distance = float(after[0])
        self._steps += 1
        terminated = bool(arrived[0])
        truncated = not terminated and self._steps >= self.task.max_episode_steps
        return self._observe(), float(reward[0]), terminated, truncated, self._info(terminated)

    def render(self):
        """The current frame, ``(height, width, 3) uint8``, for ``render_mode="rgb_array"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "make the environment with render_mode='rgb_array'")
            return None
        if self._picture is None:
            self._picture = Picture(self.world, self.arena.area, self.task.radius,
                                    self.task.goal_radius)
        if self._position is None:
            return self._picture.draw(np.empty((0, 2)), np.empty((0, 2)), np.empty((0, 0, 2)))
        return self._picture.draw(self._position, self._goal,
                                  ray_ends(self.world, self.task, self._directions,
                                           self._position))


def _placed(arena, options):
    """The start and goal ``options`` of :meth:`NavigateEnv.reset` asks for, checked.

    Returns a dict with ``"start"`` and/or ``"goal"`` as ``(2,)`` arrays; a
    point where the agent does not fit, or another key, is a ValueError.
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    unknown = set(options) - {"start", "goal"}
    if unknown:
        raise ValueError(f"options may hold 'start' and 'goal'; got {sorted(unknown)}")
    given = {}
    for key, value in options.items():
        if value is None:
            continue
        name = f"options['{key}']"
        p = validation.point(value, name)
        if not arena.free(p[None])[0]:
            raise ValueError(f"{name} {tuple(p.tolist())} is where an agent of radius "
                             f"{arena.radius:g} does not fit")
        given[key] = p
    return given
