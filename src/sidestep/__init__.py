"""sidestep: collision detection and collide-and-slide for game characters and cameras.

>>> import sidestep
>>> world = sidestep.World2D()
>>> tree = world.add_circles([(0.0, 1.0)], 1.0)
>>> move = world.move((-0.5, -2.0), (1.0, 3.0), radius=0.25)
>>> move.stop, bool(world.clearance(move.position) >= 0.25 - 1e-9)
('slid', True)
"""
from pathlib import Path
from typing import Any

from ._types import Points, StrPath
from .agent import Agent
from .avoidance import Avoidance
from .character import Character, Touch
from .crowd import Crowd, CrowdStep
from .crowd3d import Crowd3D
from .kernel_cache import warmup
from .level import Level, LevelError, Scenarios
from .results import CastHit, Contact, Move, Nearest, RayHits
from .world import MODES, World2D
from .world3d import World3D

__version__ = "0.1.0"
__all__ = ["World2D", "World3D", "Agent", "Character", "Touch", "Crowd", "Crowd3D", "CrowdStep",
           "Avoidance", "Move", "Contact", "Nearest", "RayHits", "CastHit", "MODES",
           "load", "save", "Level", "LevelError", "Scenarios", "warmup", "__version__"]


def load(path: StrPath, **options: Any) -> Level:
    """Read a level file into a :class:`Level` (its ``world``, spawns, scenarios).

    The reader is picked by extension: sidestep scenes (``.json``, ``.toml``),
    Tiled maps (``.tmx``, ``.tmj``, ``.json``), Moving AI maps (``.map`` with
    their ``.scen``), images (``.png``, ``.bmp``, ``.gif``), Doom WADs
    (``.wad``) and Polyanya navigation meshes (``.mesh``); see
    :mod:`sidestep.io`. A file at fault raises
    :class:`LevelError` naming the file and the place in it.
    """
    from .io import load as read      # here: importing sidestep never loads the readers
    return read(path, **options)


def save(world: World2D | World3D | Level, path: StrPath, *, spawns: Points | None = None,
         scenarios: Scenarios | None = None, name: str = "") -> Path:
    """Write ``world`` as a sidestep scene file (JSON); :func:`load` gives it back exactly."""
    from .io import save as write
    return write(world, path, spawns=spawns, scenarios=scenarios, name=name)
