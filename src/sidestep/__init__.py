"""sidestep: collision detection and collide-and-slide for game characters and cameras.

>>> import sidestep
>>> world = sidestep.World2D()
>>> tree = world.add_circles([(0.0, 1.0)], 1.0)
>>> move = world.move((-0.5, -2.0), (1.0, 3.0), radius=0.25)
>>> move.stop, bool(world.clearance(move.position) >= 0.25 - 1e-9)
('slid', True)
"""
from .agent import Agent
from .results import Contact, Move, Nearest, RayHits
from .world import MODES, World2D

__version__ = "0.1.0"
__all__ = ["World2D", "Agent", "Move", "Contact", "Nearest", "RayHits", "MODES", "__version__"]
