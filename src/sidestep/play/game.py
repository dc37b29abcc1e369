"""The game's state and its frame: keys in, the bodies' poses, one move of the character,
the crowd's step.

:class:`Game` knows nothing of windows or events: :meth:`Game.step` takes the
names of the keys held during a frame and advances the game by one frame of
:data:`FRAME_SECONDS`, so tests and scripts drive it exactly as the event loop
does (:mod:`sidestep.play.app`), and the drawing (:mod:`sidestep.play.draw`)
only reads it. The character is a :class:`sidestep.Agent`; on a living level
(:mod:`sidestep.play.living`) each frame first puts the bodies where they are
at its end, and their motion over the frame pushes the character and the
crowd before they move.

>>> from sidestep.play import stage
>>> game = Game(stage.default_stage())
>>> for _ in range(200):                      # east, into the house's east wall
...     frame = game.step({"right"})
>>> frame.stop, round(float(frame.position[0]), 4), (frame.contacts[0].normal + 0.0).tolist()
('blocked', 18.6, [-1.0, 0.0])
>>> frame = game.step({"4"}); frame.mode       # the ghost switch
'ghost'
"""
from dataclasses import dataclass

import numpy as np

from .. import MODES, Agent
from . import controls
from .wanderers import Wanderers

#: Seconds a frame stands for: the game runs at 60 frames a second, and is
#: deterministic (a slow frame slows the game; it never takes a longer step).
FRAME_SECONDS = 1.0 / 60.0
#: The camera zooms between these factors of its first scale.
ZOOM_RANGE = (1.0 / 16.0, 16.0)


@dataclass(frozen=True)
class Frame:
    """What one :meth:`Game.step` did."""

    #: Frames played before this one (0 for the first).
    index: int
    #: ``(2,) float64``: where the character ends the frame.
    position: np.ndarray
    #: Why its move ended (see :attr:`sidestep.Move.stop`).
    stop: str
    #: The :class:`sidestep.Contact` records of its move: what it touched.
    contacts: tuple
    #: The move mode of the frame.
    mode: str
    #: The crowd's :class:`sidestep.CrowdStep`, or None without a crowd.
    crowd: object = None
    #: ``(2,) float64``: where the bodies' motion over the frame left the character,
    #: before its own move (where it started the frame, on a level that stands still).
    carried: "np.ndarray | None" = None


class Game:
    """A character in a level, and optionally a crowd, advanced one frame per :meth:`step`.

    Parameters
    ----------
    stage : Stage
        The world, the start, the character's radius and speed
        (:mod:`sidestep.play.stage`).
    mode : {"slide", "push", "block", "ghost"}
        The first move mode; keys 1 to 4 change it.
    crowd : int >= 0
        Agents wandering around the character (:class:`Wanderers`); 0 for none.
    seed : int
        Seeds the crowd's spawn points, sizes, speeds and goals.
    debug : bool
        Whether the debug drawing starts on (G or F1 switch it).
    zoom : float > 0
        The camera's zoom factor (the keys ``=`` and ``-`` multiply it).
    """

    def __init__(self, stage, *, mode="slide", crowd=0, seed=0, debug=False, zoom=1.0):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if not (isinstance(crowd, (int, np.integer)) and crowd >= 0):
            raise ValueError(f"crowd must be a whole number >= 0, got {crowd!r}")
        if not (isinstance(zoom, (int, float)) and ZOOM_RANGE[0] <= zoom <= ZOOM_RANGE[1]):
            raise ValueError(f"zoom must be a number between {ZOOM_RANGE[0]:g} and "
                             f"{ZOOM_RANGE[1]:g}, got {zoom!r}")
        self.stage = stage
        self.mode = mode
        self.debug = bool(debug)
        self.zoom = float(zoom)
        self.frames = 0
        self._position = np.array(stage.start, float)
        self._held = frozenset()
        if stage.living is not None:       # a stage played again starts from the beginning
            stage.living.animate(stage.world, 0.0, FRAME_SECONDS)
        self._agent = Agent(stage.world, self._position, stage.radius, mode)
        self.wanderers = None
        if crowd:
            self.wanderers = Wanderers(stage.world, int(crowd), radius=stage.radius,
                                       speed=stage.speed, around=self._position,
                                       rng=np.random.default_rng(seed), mask=stage.crowd_mask)
        self.last = Frame(-1, self._position.copy(), "done", (), mode,
                          carried=self._position.copy())

    @property
    def world(self):
        """The :class:`sidestep.World2D` played in."""
        return self.stage.world

    @property
    def position(self):
        """``(2,) float64``: where the character is (a copy)."""
        return self._position.copy()

    @property
    def radius(self):
        """The character's radius (world units)."""
        return self.stage.radius

    def zoom_by(self, factor):
        """Multiply the zoom by ``factor``, kept within :data:`ZOOM_RANGE`."""
        self.zoom = float(np.clip(self.zoom * factor, *ZOOM_RANGE))

    def step(self, keys=()):
        """Advance the game by one frame with ``keys`` held.

        Parameters
        ----------
        keys : iterable of str
            pygame key names held during the frame (:mod:`sidestep.play.controls`).
            Movement keys move while held; keys 1 to 4, G (or F1) and the zoom
            keys act on the frame they appear, not again while held.

        Returns
        -------
        Frame
        """
        keys = frozenset(keys)
        for key in keys - self._held:
            self._press(key)
        self._held = keys
        right, up = controls.heading(keys)
        stride = self.stage.speed * FRAME_SECONDS
        if keys & controls.RUN_KEYS:
            stride *= controls.RUN_FACTOR
        # Screen up is world -y in a level drawn y-down (tile maps).
        step = (right * stride, (-up if self.stage.y_down else up) * stride)
        agent = self._agent
        squeezed = False
        if self.stage.living is not None:
            # 1. The bodies to where they are at the frame's end; 2. their motion over the
            # frame sweeps past the character (pushed, or squeezed out), before 3. its move.
            self.stage.living.animate(self.world, (self.frames + 1) * FRAME_SECONDS,
                                      FRAME_SECONDS)
            agent.step(0.0, 0.0)
            squeezed = agent.stop == "squeezed"
        carried = agent.position
        agent.step(float(step[0]), float(step[1]))
        self._position = agent.position
        crowd = None
        if self.wanderers is not None:
            crowd = self.wanderers.step(FRAME_SECONDS, player=carried,
                                        player_radius=self.stage.radius,
                                        player_to=self._position)
        self.last = Frame(self.frames, self._position.copy(),
                          "squeezed" if squeezed else agent.stop, agent.contacts, self.mode,
                          crowd, carried)
        self.frames += 1
        return self.last

    def _press(self, key):
        if key in controls.MODE_KEYS:
            self.mode = controls.MODE_KEYS[key]
            self._agent = Agent(self.world, self._position, self.stage.radius, self.mode)
        elif key in controls.DEBUG_KEYS:
            self.debug = not self.debug
        elif key in controls.ZOOM_IN_KEYS:
            self.zoom_by(controls.ZOOM_STEP)
        elif key in controls.ZOOM_OUT_KEYS:
            self.zoom_by(1.0 / controls.ZOOM_STEP)
