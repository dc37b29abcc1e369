"""``sidestep play``: a playable top-down game with pygame-ce (``pip install "sidestep[play]"``).

A character (a disc moved by a :class:`sidestep.Agent`) walks through the
articles' house and trees or any level :func:`sidestep.load` reads, and
slides round everything; keys 1 to 4 switch the move mode, G draws the
collision geometry and the halos, and ``--crowd N`` adds N agents moved by a
:class:`sidestep.Crowd`; ``--living`` plays a level whose door, lift and
turnstile move and push them all. The modules:

- :mod:`~sidestep.play.stage`: the world, the start, the character's size and speed;
- :mod:`~sidestep.play.living`: the living level, whose door, lift and turnstile move;
- :mod:`~sidestep.play.game`: the game's state and its frame (no pygame: tests drive it);
- :mod:`~sidestep.play.wanderers`: the crowd and its goals;
- :mod:`~sidestep.play.controls`: the keys, and scripts of key presses;
- :mod:`~sidestep.play.camera`, :mod:`~sidestep.play.tiles`,
  :mod:`~sidestep.play.draw`, :mod:`~sidestep.play.palette`: drawing;
- :mod:`~sidestep.play.app`: the event loop; :mod:`~sidestep.play.timing`: frame times.

``import sidestep`` never imports this package (nor pygame).
"""
import os

# pygame greets on import unless told not to; the command's output is its own.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from .game import Frame, Game  # noqa: E402
from .living import living_stage  # noqa: E402
from .stage import Stage, default_stage, level_stage  # noqa: E402

__all__ = ["Game", "Frame", "Stage", "default_stage", "level_stage", "living_stage"]
