"""A first-person controller on :class:`sidestep.Character`: WASD, mouse-look, jump; no engine.

One call a frame, ``update(dt, keys, mouse_delta)``, turns held keys and the
mouse's motion into a walk for the character (which slides round walls,
climbs steps and falls with gravity) and a view: :attr:`FirstPerson.eye` and
:attr:`FirstPerson.look` are where a camera goes and where it points. An
engine only has to say which keys are held, how far the mouse moved, and
place its camera; :mod:`sidestep.adapters.panda3d` does so for Panda3D and
ursina.

>>> import sidestep
>>> from sidestep.adapters.first_person import FirstPerson
>>> level = sidestep.World3D(up="z")                       # Panda3D's axes
>>> floor = level.add_boxes([(-10, -10, -1)], [(10, 10, 0)])
>>> wall = level.add_boxes([(-10, 3, 0)], [(10, 4, 3)])    # 3 m ahead, across +y
>>> player = FirstPerson(level, feet=(0, 0, 0))
>>> for frame in range(120):                               # hold W for two seconds
...     stop = player.update(1 / 60, {"w"})
>>> player.position.round(3).tolist(), player.character.on_wall    # stopped by the wall
([0.0, 2.7, 0.0], True)
>>> for frame in range(30):                                # turn right, walk along it
...     stop = player.update(1 / 60, {"w"}, mouse_delta=(90 / 40 / 30, 0.0))
>>> round(player.yaw, 6), bool(player.position[0] > 0.5), round(float(player.position[1]), 3)
(90.0, True, 2.7)
"""
import math

import numpy as np

from .. import validation
from ..character import Character

#: Which key names (as Panda3D and ursina spell them) drive which action.
DEFAULT_KEYS = {"forward": ("w", "arrow_up", "up arrow"),
                "back": ("s", "arrow_down", "down arrow"),
                "left": ("a", "arrow_left", "left arrow"),
                "right": ("d", "arrow_right", "right arrow"),
                "jump": ("space",)}
#: The level direction a yaw of 0 looks along, per ``up`` (right-handed axes:
#: Panda3D's +y for z up, glTF's and OpenGL's -z for y up).
DEFAULT_FORWARD = {"z": (0.0, 1.0, 0.0), "y": (0.0, 0.0, -1.0), "x": (0.0, 0.0, 1.0)}


def _held(keys, names):
    """Whether any of ``names`` is held in ``keys`` (names, or a map of name -> number)."""
    if hasattr(keys, "get"):
        return any(keys.get(name, 0) for name in names)
    return any(name in keys for name in names)


class FirstPerson:
    """A walking first-person view: a :class:`~sidestep.Character` steered by keys and mouse.

    Parameters
    ----------
    world : World3D
        The level; its ``up`` is the character's.
    feet : (3,) float64
        Where the character stands.
    yaw, pitch : float
        Initial view, degrees: yaw turns right (clockwise seen from above)
        from ``forward``; pitch looks up, within ``max_pitch``.
    speed : float >= 0
        Walking speed (units/s).
    jump_height : float >= 0
        Height of a jump (units), under the character's gravity.
    eye_height : float >= 0
        The eye above the feet (units); within the capsule's ``height``.
    mouse_sensitivity : float
        Degrees of turn per unit of ``mouse_delta`` (ursina's 40 per unit of
        ``mouse.velocity`` by default).
    max_pitch : float
        Steepest look up or down, degrees (below 90).
    forward, right : (3,) float64, optional
        The level directions a yaw of 0 looks along and has on its right
        (perpendicular to ``up``). By default right-handed axes:
        :data:`DEFAULT_FORWARD` and ``right = forward x up``.
    keys : dict, optional
        Action (``forward``, ``back``, ``left``, ``right``, ``jump``) to key
        names; :data:`DEFAULT_KEYS` by default.
    radius, height : float
        The character's capsule (units).
    **character
        Passed to :class:`~sidestep.Character`: ``max_slope``,
        ``step_height``, ``snap_distance``, ``gravity``.
    """

    def __init__(self, world, feet, *, yaw=0.0, pitch=0.0, speed=5.0, jump_height=1.0,
                 eye_height=1.6, mouse_sensitivity=40.0, max_pitch=89.0, forward=None,
                 right=None, keys=None, radius=0.3, height=1.8, **character):
        self.character = Character(world, feet, radius, height, **character)
        up = np.zeros(3)
        up["xyz".index(world.up)] = 1.0
        f = np.array(DEFAULT_FORWARD[world.up]) if forward is None \
            else validation.point(forward, "forward", dim=3)
        r = np.cross(f, up) if right is None else validation.point(right, "right", dim=3)
        for name, v in (("forward", f), ("right", r)):
            n = np.linalg.norm(v)
            if n == 0.0 or abs(np.dot(v, up)) > 1e-9 * n:
                raise ValueError(f"{name} must be a non-zero direction perpendicular to up "
                                 f"({world.up}), got {v.tolist()}")
        f, r = f / np.linalg.norm(f), r / np.linalg.norm(r)
        if abs(np.dot(f, r)) > 1e-9:
            raise ValueError(f"right must be perpendicular to forward, got {r.tolist()} and "
                             f"{f.tolist()}")
        self._up, self._forward, self._right = up, f, r
        self.speed = validation.length(speed, "speed")
        self.jump_height = validation.length(jump_height, "jump_height")
        self.eye_height = validation.length(eye_height, "eye_height")
        if self.eye_height > self.character.height:
            raise ValueError(f"eye_height must be within the height ({self.character.height}), "
                             f"got {self.eye_height}")
        self.mouse_sensitivity = validation.number(mouse_sensitivity, "mouse_sensitivity")
        self.max_pitch = validation.length(max_pitch, "max_pitch")
        if self.max_pitch >= 90.0:
            raise ValueError(f"max_pitch must be below 90 degrees, got {self.max_pitch}")
        self.keys = dict(DEFAULT_KEYS if keys is None else keys)
        missing = set(DEFAULT_KEYS) - set(self.keys)
        if missing:
            raise ValueError(f"keys must name keys for {sorted(missing)} too")
        self.yaw = validation.number(yaw, "yaw")
        self.pitch = max(-self.max_pitch, min(self.max_pitch, validation.number(pitch, "pitch")))
        self._jump_was_held = False

    def update(self, dt, keys=(), mouse_delta=(0.0, 0.0)):
        """One frame: turn with the mouse, walk with the keys, jump on the jump key's press.

        Parameters
        ----------
        dt : float >= 0
            The frame's length (s).
        keys : collection of str, or a mapping str -> number
            The keys held this frame (a set of names, or a map such as
            ursina's ``held_keys`` where non-zero means held).
        mouse_delta : (2,) float
            The mouse's motion since the last frame, right and up, in the
            units ``mouse_sensitivity`` turns into degrees.

        Returns
        -------
        str
            Why the character's frame ended (:attr:`Character.stop`).
        """
        dx, dy = validation.xy(mouse_delta, "mouse_delta")
        self.yaw = (self.yaw + dx * self.mouse_sensitivity) % 360.0
        self.pitch = max(-self.max_pitch, min(self.max_pitch,
                                               self.pitch + dy * self.mouse_sensitivity))
        ahead, aside = self._walk_axes()
        along = _held(keys, self.keys["forward"]) - _held(keys, self.keys["back"])
        across = _held(keys, self.keys["right"]) - _held(keys, self.keys["left"])
        wish = along * ahead + across * aside
        n = np.linalg.norm(wish)
        velocity = wish * (self.speed / n) if n > 0.0 else wish
        jump = _held(keys, self.keys["jump"])
        if jump and not self._jump_was_held:
            self.character.jump(math.sqrt(2.0 * self.character.gravity * self.jump_height))
        self._jump_was_held = jump
        return self.character.update(tuple(float(v) for v in velocity), float(dt))

    def face(self, direction):
        """Turn to look along ``direction`` ``(3,)``: yaw from its level part, pitch from its rise.

        A direction straight up or down keeps the yaw; the pitch stays within
        ``max_pitch``.
        """
        d = validation.point(direction, "direction", dim=3)
        level = d - (d @ self._up) * self._up
        if np.linalg.norm(d) == 0.0:
            raise ValueError("direction must not be zero")
        if np.linalg.norm(level) > 0.0:
            self.yaw = math.degrees(math.atan2(level @ self._right, level @ self._forward)) % 360.0
        rise = math.degrees(math.atan2(d @ self._up, np.linalg.norm(level)))
        self.pitch = max(-self.max_pitch, min(self.max_pitch, rise))

    def _walk_axes(self):
        a = math.radians(self.yaw)
        ahead = math.cos(a) * self._forward + math.sin(a) * self._right
        aside = math.cos(a) * self._right - math.sin(a) * self._forward
        return ahead, aside

    @property
    def position(self):
        """``(3,) float64``: the feet."""
        return self.character.position

    @property
    def up(self):
        """``(3,) float64``: the world's up axis."""
        return self._up.copy()

    @property
    def eye(self):
        """``(3,) float64``: where the camera goes, ``eye_height`` above the feet."""
        return self.character.position + self.eye_height * self._up

    @property
    def look(self):
        """``(3,) float64``: the unit direction the camera looks along (yaw, then pitch)."""
        p = math.radians(self.pitch)
        return math.cos(p) * self._walk_axes()[0] + math.sin(p) * self._up
