"""What a game is played in: a world, where the character starts, its size and speed.

:func:`default_stage` is the articles' house and trees (the scene of
``sidestep demo``); :func:`level_stage` any level :func:`sidestep.load` reads;
:func:`sidestep.play.living.living_stage` a level whose door, lift and
turnstile move.
A level says nothing about how big its player is, and levels come in cells,
pixels or Doom units, so the character's radius and speed follow the level's
scale unless given: 0.3 of a cell on a tile map, 1/300 of the diagonal
otherwise (16.9 units on Freedoom's E1M1, where Doom's player has 16).

>>> stage = default_stage()
>>> stage.start.tolist(), stage.radius, stage.speed, stage.y_down
([12.0, 4.0], 0.3, 4.5, False)
"""
from dataclasses import dataclass

import numpy as np

from .. import layers, scenes

#: The character's radius in the default scene (metres; the demo's agent).
DEFAULT_RADIUS = 0.3
#: Where the character starts in the default scene: the big room east of the
#: radial trees (the demo's start).
DEFAULT_START = (12.0, 4.0)
#: Walking speed in radii per second (4.5 m/s for the default 0.3 m: a jog).
SPEED_IN_RADII = 15.0
#: A tile map's character radius, in cells.
RADIUS_IN_CELLS = 0.3
#: Other levels: the character's radius is the level's diagonal over this.
DIAGONAL_IN_RADII = 300.0
#: Starts are looked for on a lattice of about this many points over the level.
START_LATTICE = 40_000


@dataclass(frozen=True)
class Stage:
    """A world to play in and the character that starts in it."""

    #: The obstacles, a :class:`sidestep.World2D`.
    world: object
    #: ``(2,) float64``: where the character starts (world units).
    start: np.ndarray
    #: The character's radius (world units).
    radius: float
    #: Its walking speed (world units per second).
    speed: float
    #: Whether the level's y axis points down the screen (tile and Tiled maps).
    y_down: bool = False
    #: The level's name, for the window's title and the on-screen text.
    name: str = ""
    #: What moves in it (a :class:`~sidestep.play.living.Living`: its bodies and their
    #: poses over time), or None for a level that stands still.
    living: object = None
    #: The layers the crowd collides with (the character collides with all of them).
    crowd_mask: int = layers.ALL


def default_stage(radius=None, speed=None):
    """The articles' house, radial trees and grove (:func:`sidestep.scenes.demo_world`).

    Parameters
    ----------
    radius : float > 0, optional
        The character's radius in metres; :data:`DEFAULT_RADIUS` by default.
    speed : float > 0, optional
        Walking speed in metres per second; :data:`SPEED_IN_RADII` radii a second by default.

    Returns
    -------
    Stage
    """
    world, _ = scenes.demo_world()
    radius = DEFAULT_RADIUS if radius is None else _positive(radius, "radius")
    start = np.array(DEFAULT_START)
    if not world.clearance(start) >= radius:
        start = _free_start(world, radius, None)
    return Stage(world, start, radius, _speed(speed, radius), False, "the articles' house")


def level_stage(level, radius=None, speed=None, y_down=False):
    """A stage from a loaded level (:class:`sidestep.Level`).

    The character starts on the level's first spawn point where it fits
    there, else at the free point nearest the middle of the level with room
    around it (three radii where there is such a point).

    Parameters
    ----------
    level : sidestep.Level
    radius : float > 0, optional
        World units; by default from the level's scale (see the module).
    speed : float > 0, optional
        World units per second; :data:`SPEED_IN_RADII` radii a second by default.
    y_down : bool
        Whether the level's y axis points down the screen.

    Returns
    -------
    Stage

    Raises
    ------
    ValueError
        When the level has no room for the character anywhere.
    """
    world = level.world
    radius = _level_radius(world) if radius is None else _positive(radius, "radius")
    start = None
    for spawn in np.asarray(level.spawns, float).reshape(-1, 2):
        if world.clearance(spawn) >= radius * 1.05:
            start = spawn.copy()
            break
    if start is None:
        start = _free_start(world, radius, world.bounds)
    return Stage(world, start, radius, _speed(speed, radius), bool(y_down), level.name)


def _level_radius(world):
    grids = world.geometry("grid")
    if len(grids["ids"]):
        return float(RADIUS_IN_CELLS * grids["cell_size"].min())
    bounds = world.bounds
    if bounds is None:
        return DEFAULT_RADIUS
    diagonal = float(np.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1]))
    return diagonal / DIAGONAL_IN_RADII if diagonal > 0 else DEFAULT_RADIUS


def _free_start(world, radius, bounds):
    """The lattice point nearest the middle of ``bounds`` with room for the character."""
    if bounds is None:
        return np.zeros(2)
    lo, hi = np.array(bounds[:2]), np.array(bounds[2:])
    step = max(float(np.sqrt(np.prod(hi - lo) / START_LATTICE)), radius)
    xs = np.arange(lo[0] + step / 2, hi[0], step)
    ys = np.arange(lo[1] + step / 2, hi[1], step)
    points = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    room = np.atleast_1d(world.clearance(points)) if len(points) else np.zeros(0)
    middle = (lo + hi) / 2
    for need in (3.0 * radius, 1.05 * radius):
        free = points[room >= need]
        if len(free):
            return free[np.argmin(((free - middle) ** 2).sum(axis=1))].copy()
    raise ValueError(f"radius: the level has no room for a character of radius {radius:g} "
                     "(give a smaller --radius)")


def _speed(speed, radius):
    return SPEED_IN_RADII * radius if speed is None else _positive(speed, "speed")


def _positive(value, name):
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number > 0, got {value!r}") from None
    if not (np.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return number
