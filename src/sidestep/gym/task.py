"""The navigation task's parameters, checked once for both environments.

>>> from sidestep.gym.task import Task
>>> Task().rays, Task(rays=8).observation_size
(16, 11)
>>> Task(radius=-1.0)
Traceback (most recent call last):
...
ValueError: radius must be non-negative, got -1.0
"""
import numbers
from dataclasses import dataclass

from .. import validation


@dataclass(frozen=True)
class Task:
    """What an agent is, what it sees and what it is paid for (world units, steps).

    Every field is an argument of :class:`~sidestep.gym.NavigateEnv` and
    :class:`~sidestep.gym.NavigateVectorEnv` with the same name.
    """

    #: The agent's radius: a disc, moved with ``World2D.move_many`` in ``slide`` mode.
    radius: float = 0.5
    #: How far one step at full action moves the agent (an action is a
    #: velocity, as a fraction of this per step).
    step_length: float = 0.5
    #: Number of range-finder rays, evenly spread round the agent from +x, counter-clockwise.
    rays: int = 16
    #: How far a ray sees; a ray that meets nothing within it reads 1.
    max_range: float = 10.0
    #: An episode ends (``terminated``) when the agent's centre comes this near the goal.
    goal_radius: float = 1.0
    #: Start and goal are drawn at least this far apart.
    min_goal_distance: float = 2.0
    #: Reward on arrival, on top of the progress.
    arrival_bonus: float = 10.0
    #: Reward taken away every step (so dawdling costs).
    step_cost: float = 0.01
    #: Steps after which an episode is ``truncated``.
    max_episode_steps: int = 500

    def __post_init__(self):
        lengths = {"radius": True, "min_goal_distance": True, "step_cost": True,
                   "arrival_bonus": True, "step_length": False, "max_range": False,
                   "goal_radius": False}
        for name, allow_zero in lengths.items():
            object.__setattr__(self, name, validation.length(getattr(self, name), name,
                                                             allow_zero=allow_zero))
        for name in ("rays", "max_episode_steps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
            if value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")
            object.__setattr__(self, name, int(value))

    @property
    def observation_size(self):
        """Length of an observation: the rays, the goal's direction (2) and distance (1)."""
        return self.rays + 3
