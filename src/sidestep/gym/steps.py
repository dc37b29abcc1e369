"""One step of the navigation task for a batch of agents: act, observe, reward.

Both environments call these with ``(n, 2)`` arrays (the single one with
n = 1), so an agent's numbers never depend on which environment runs it.
The geometry is sidestep's: one ``World2D.move_many`` moves every agent, one
``World2D.raycast`` reads every range finder.

>>> import numpy as np, sidestep
>>> from sidestep.gym.task import Task
>>> from sidestep.gym.steps import observe, ray_directions
>>> world = sidestep.World2D()
>>> wall = world.add_walls([(3.0, -5.0)], [(3.0, 5.0)])
>>> task = Task(rays=4, max_range=10.0)
>>> obs = observe(world, task, ray_directions(4), np.zeros((1, 2)), np.array([[0.0, 4.0]]), 8.0)
>>> [round(float(v), 3) for v in obs[0]]   # +x sees the wall at 3; goal straight up, 4 of 8 away
[0.3, 1.0, 1.0, 1.0, 0.0, 1.0, 0.5]
"""
import numpy as np


def ray_directions(rays):
    """``(rays, 2) float64``: unit directions evenly round the circle, from +x counter-clockwise."""
    angle = 2.0 * np.pi * np.arange(rays) / rays
    return np.column_stack([np.cos(angle), np.sin(angle)])


def displacements(task, actions, name="action"):
    """Actions as displacements: ``(n, 2)`` in [-1, 1] -> ``(n, 2)`` world units.

    Each action is clipped to the action box, then shortened to length 1 if
    longer (a diagonal is no faster than a straight step), then scaled by
    ``task.step_length``.

    Raises
    ------
    ValueError
        An action of the wrong shape, or not finite (named ``name``).
    """
    a = np.asarray(actions, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {actions!r}")
    a = np.clip(a, -1.0, 1.0)
    norm = np.hypot(a[:, 0], a[:, 1])
    a = a / np.maximum(norm, 1.0)[:, None]
    return a * task.step_length


def goal_distances(positions, goals):
    """``(n,) float64``: each agent's distance to its goal."""
    gap = goals - positions
    return np.hypot(gap[:, 0], gap[:, 1])


def observe(world, task, directions, positions, goals, scale):
    """What each agent sees: ``(n, rays + 3) float32``, every value in [-1, 1].

    Columns: the range finder, one column per ray, the distance from the
    agent's centre to the first surface over ``task.max_range`` (1: nothing
    within range); the goal's direction, a unit ``(dx, dy)`` in the agent's
    frame (centred on it; the agent does not turn, so its axes are the
    world's; ``(0, 0)`` on the goal); the goal's distance over ``scale`` (the
    area's diagonal), at most 1.

    Parameters
    ----------
    world : World2D
    task : Task
    directions : (rays, 2) float64
        From :func:`ray_directions`.
    positions, goals : (n, 2) float64
    scale : float > 0
    """
    n, k = len(positions), len(directions)
    seen = reach(world, task, directions, positions) / task.max_range
    gap = goals - positions
    distance = np.hypot(gap[:, 0], gap[:, 1])
    heading = gap / np.where(distance > 0.0, distance, 1.0)[:, None]
    out = np.empty((n, k + 3), dtype=np.float32)
    out[:, :k] = np.minimum(seen, 1.0)
    out[:, k:k + 2] = heading
    out[:, k + 2] = np.minimum(distance / scale, 1.0)
    return out


def reach(world, task, directions, positions):
    """``(n, rays) float64``: how far each ray goes from each agent's centre.

    The distance to the first surface, or ``task.max_range`` where it meets
    none within that; one ``World2D.raycast`` for all the rays.
    """
    n, k = len(positions), len(directions)
    hits = world.raycast(np.repeat(positions, k, axis=0), np.tile(directions, (n, 1)),
                         max_distance=task.max_range)
    return np.where(hits.hit, hits.distance, task.max_range).reshape(n, k)


def ray_ends(world, task, directions, positions):
    """``(n, rays, 2) float64``: where each agent's rays stop (a hit, or ``max_range`` out)."""
    far = reach(world, task, directions, positions)
    return positions[:, None, :] + far[:, :, None] * directions[None, :, :]


def rewards(task, before, after):
    """Reward and arrival of each agent after a step.

    ``(before - after) / step_length`` (the progress towards the goal, at
    most 1 a step), less ``task.step_cost``, plus ``task.arrival_bonus``
    where the agent arrived (``after <= task.goal_radius``).

    Parameters
    ----------
    before, after : (n,) float64
        Distances to the goal before and after the step.

    Returns
    -------
    reward : (n,) float64
    arrived : (n,) bool
    """
    arrived = after <= task.goal_radius
    reward = (before - after) / task.step_length - task.step_cost
    return reward + np.where(arrived, task.arrival_bonus, 0.0), arrived
