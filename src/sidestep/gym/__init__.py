"""Gymnasium environments: an agent walks a sidestep level to a goal (extra ``gym``).

``NavigateEnv`` is one agent, ``NavigateVectorEnv`` many, stepped with one
``World2D.move_many`` and one batched ``World2D.raycast``. Importing this
module registers them with Gymnasium as :data:`ENV_ID` (``import sidestep``
alone never imports Gymnasium):

>>> import gymnasium, sidestep.gym
>>> env = gymnasium.make("sidestep/Navigate-v0", rays=8)
>>> obs, info = env.reset(seed=0)
>>> obs.shape, env.action_space.shape
((11,), (2,))
>>> envs = gymnasium.make_vec("sidestep/Navigate-v0", num_envs=3,
...                           vectorization_mode="vector_entry_point", rays=8)
>>> envs.reset(seed=0)[0].shape
(3, 11)
"""
import gymnasium

from .navigate import NavigateEnv
from .task import Task
from .vector import NavigateVectorEnv

__all__ = ["ENV_ID", "NavigateEnv", "NavigateVectorEnv", "Task", "register"]

#: The id the environments are registered under.
ENV_ID = "sidestep/Navigate-v0"


def register():
    """Register :data:`ENV_ID` with Gymnasium (single and vector entry points); idempotent.

    Called when :mod:`sidestep.gym` is imported; ``gymnasium.make`` also
    imports it given ``"sidestep.gym:sidestep/Navigate-v0"``.
    """
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sidestep.gym.navigate:NavigateEnv",
                           vector_entry_point="sidestep.gym.vector:NavigateVectorEnv")


register()
