"""``Character``: an upright capsule that walks a 3D level: floors, slopes, steps, platforms.

The character controller of Godot's ``move_and_slide``, Jolt's
``CharacterVirtual`` and Rapier's kinematic character controller, on top of
:meth:`World3D.move`'s collide-and-slide, so it keeps its promise: after
every frame the capsule is at least ``radius - 1e-9`` from every surface it
started clear of, at any speed. One frame is one kernel call
(:func:`sidestep.kernels3d.character.update_character`, which says how each
step of a frame works).
"""
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import carry3d as _carry3d
from . import layers, threads, validation
from .layers import ALL
from ._types import CharacterStop, FloatArray, IntArray, Point3, TouchKind
from .kernels.direct import registered
from .kernels3d import character as _kc
from .kernels3d import moves as _moves
from .kernels3d import world as _kw
from .world3d import _STOPS as _MOVE_STOPS

if TYPE_CHECKING:
    from .world3d import World3D

_STOPS: dict[int, CharacterStop] = {**_MOVE_STOPS, _kc.STOP_STEPPED: "stepped",
                                    _kc.STOP_LANDED: "landed", _kc.STOP_FELL: "fell",
                                    _kc.STOP_SQUEEZED: "squeezed"}
_KINDS: tuple[TouchKind, ...] = ("floor", "wall", "ceiling")
#: Contacts a frame reports at most.
MAX_CONTACTS = 16
#: How near (world units, on top of the skin) a surface counts as touching.
TOUCH_REACH = 1e-4
#: Plain floats within this are taken without the full check (velocities, dt).
_FAST = 1e12
#: The velocity inherited from a floor that does not move (shared, never written).
_STILL = np.zeros(3)
_STILL.flags.writeable = False
#: The stop names by code (an object array: one fancy index names a batch's stops).
_STOP_NAMES = np.array([_STOPS.get(k, "") for k in range(max(_STOPS) + 1)], dtype=object)
#: Rows a thread of :meth:`Character.update_many` takes at a time, and below how many
#: rows one thread does them all (a character's frame costs some 10 us, a crowd agent's
#: step far less: fewer rows are worth a thread).
_BATCH_CHUNK = 4
_BATCH_SERIAL = 64
_UPDATE_MANY: Any = None     # update_characters' entry point (registered on first use)


class _Block:
    """The state rows and contact buffers of the characters of an
    :meth:`Character.update_many` call, stacked: each character's ``_body`` and
    ``_contacts`` are views of its row here, so a batch frame reads and writes them in
    place. A world keeps the block of its last call; another list of characters moves
    them into a new one."""

    __slots__ = ("characters", "bodies", "contacts", "groups", "since", "stops", "rode",
                 "rides")

    def __init__(self, characters: "tuple[Character, ...]") -> None:
        n = len(characters)
        self.characters = characters
        self.bodies = np.zeros((n, _kc.BODY_SIZE))
        self.contacts = np.zeros((n, MAX_CONTACTS, _kc.CONTACT_FIELDS))
        self.since = np.zeros(n, dtype=np.int64)
        self.stops = np.zeros(n, dtype=np.int64)
        # How far the body each stood on carried it this frame, and that body plus one
        # (0: none): update_characters' rides, finished by Character._rode.
        self.rode = np.zeros((n, 3))
        self.rides = np.zeros(n, dtype=np.int64)
        for i, c in enumerate(characters):
            self.bodies[i] = c._body
            self.contacts[i] = c._contacts
            c._body = self.bodies[i]
            c._contacts = self.contacts[i]
            c._feet = c._body[_kc.B_FEET:_kc.B_FEET + 3]
            c._facing = c._body[_kc.B_FACING:_kc.B_FACING + 3]
            c._packed = None            # its frame state holds the old arrays
        # The rows of each mask (int64), in order.
        masks = np.array([c._mask for c in characters], dtype=np.int64)
        self.groups = [(int(m), np.flatnonzero(masks == m).astype(np.int64))
                       for m in dict.fromkeys(masks.tolist())]


@dataclass(frozen=True)
class Touch:
    """A surface touching a :class:`Character` at the end of its frame."""

    #: Id of the obstacle.
    obstacle: int
    #: Which part of it (a mesh's triangle), -1 for a whole obstacle.
    part: int
    #: ``(3,) float64``: the surface point nearest the capsule.
    point: FloatArray
    #: ``(3,) float64``: unit normal there, from the surface towards the capsule.
    normal: FloatArray
    #: ``"floor"`` (it can stand on it), ``"wall"`` (steep slopes included) or ``"ceiling"``.
    kind: TouchKind


class Character:
    """An upright capsule that walks through a :class:`~sidestep.World3D` with gravity.

    Parameters
    ----------
    world : World3D
        The level; its ``up`` axis is the character's up.
    feet : (3,) float64
        Where the bottom of the capsule is (its :attr:`position`).
    radius : float > 0
        The capsule's radius (m).
    height : float >= 2 * radius
        The capsule's height in all (m).
    max_slope : float, optional
        Steepest floor it stands and walks on, in radians from level (45
        degrees by default); anything steeper is a wall it slides down.
    step_height : float >= 0, optional
        Highest step it climbs without slowing (m).
    snap_distance : float >= 0, optional
        How far below it looks for the floor to stay on, walking down stairs
        and slopes (m); ``step_height`` by default.
    gravity : float >= 0, optional
        Downward acceleration (m/s^2).
    mask : int, optional
        The layers it collides with (default all; :mod:`sidestep.layers`).

    Examples
    --------
    >>> import math, sidestep
    >>> world = sidestep.World3D()
    >>> floor = world.add_boxes([(-10, -1, -10)], [(10, 0, 10)])
    >>> step = world.add_boxes([(1, 0, -10)], [(10, 0.2, 10)])
    >>> hero = sidestep.Character(world, feet=(0, 0, 0), radius=0.3, height=1.8)
    >>> hero.on_floor
    True
    >>> for frame in range(60):                  # a second at 2 m/s towards +x
    ...     stop = hero.update((2.0, 0.0, 0.0), 1 / 60)
    >>> hero.position.round(3).tolist(), hero.on_floor, hero.stop
    ([2.0, 0.2, 0.0], True, 'done')
    """

    __slots__ = ("_world", "_body", "_contacts", "_offsets", "_touches", "_scratch", "_feet",
                 "_packed", "_state", "_direct", "_mask", "_since", "_facing", "_inherited", "_launched",
                 "_riding", "_table", "_near", "_settings")

    _world: "World3D"
    _body: FloatArray
    _contacts: FloatArray
    _offsets: dict[int, FloatArray]
    _touches: "tuple[Touch, ...] | None"
    _scratch: Any          # the kernels' scratch buffers (kernels3d.world.scratch)
    _feet: FloatArray      # a view of the feet in _body
    _packed: Any           # the packed world _state holds
    _state: Any            # kernels3d.character.FrameState: the packed world and the buffers
    _direct: Any           # the frame's compiled entry points (update_frame_direct)
    _mask: int             # the layers it collides with
    _since: int            # the bodies' pose count it has seen (Bodies.count)
    _facing: FloatArray    # its row's level direction it faces; a turning floor turns it
    _inherited: FloatArray  # the velocity of the moving floor it last stood on (m/s)
    _launched: bool         # the floor's vertical velocity was given to it in the air
    _riding: bool          # whether a moving body's floor carried it this frame
    _table: Any            # the store's carry3d.BodyTable
    _near: float           # how near a moved body's reach box counts (its size and 2 skins)
    _settings: tuple[float, float, float, float, int]  # the world's tolerances, iterations

    def __init__(self, world: "World3D", feet: Point3, radius: float, height: float, *,
                 max_slope: float = math.radians(45), step_height: float = 0.3,
                 snap_distance: float | None = None, gravity: float = 9.81,
                 mask: int = ALL) -> None:
        from .world3d import World3D
        if not isinstance(world, World3D):
            raise TypeError(f"world must be a World3D, got {type(world).__name__}")
        p = validation.point(feet, "feet", dim=3)
        r = validation.length(radius, "radius", allow_zero=False)
        h = validation.length(height, "height", allow_zero=False)
        if h < 2.0 * r:
            raise ValueError(f"height must be at least 2 * radius ({2.0 * r!r}), got {h!r}")
        slope = validation.number(max_slope, "max_slope")
        if not 0.0 < slope < 0.5 * math.pi:
            raise ValueError(f"max_slope must be an angle in radians between 0 and pi/2, "
                             f"got {max_slope!r}")
        step = validation.length(step_height, "step_height")
        if step >= h:
            raise ValueError(f"step_height must be below the height ({h!r}), got {step!r}")
        snap = step if snap_distance is None else validation.length(snap_distance,
                                                                     "snap_distance")
        g = validation.length(gravity, "gravity")
        self._mask = layers.mask(mask)
        self._world = world
        body = np.zeros(_kc.BODY_SIZE)
        body[_kc.B_FEET:_kc.B_FEET + 3] = p
        body[_kc.B_FLOOR_OBSTACLE] = -1.0
        body[_kc.B_RADIUS] = r
        body[_kc.B_HEIGHT] = h
        body[_kc.B_COS_SLOPE] = math.cos(slope)
        body[_kc.B_STEP] = step
        body[_kc.B_SNAP] = snap
        body[_kc.B_GRAVITY] = g
        body[_kc.B_UP] = world._up
        skin, margin, slack, min_motion = world._tolerances()
        body[_kc.B_SKIN:_kc.B_MAX_ITERATIONS + 1] = (skin, margin, slack, min_motion,
                                                      world._max_iterations)
        body[_kc.B_REACH] = 2.0 * skin + TOUCH_REACH
        body[_kc.B_JUMP] = math.nan
        self._body = body
        self._contacts = np.zeros((MAX_CONTACTS, _kc.CONTACT_FIELDS))
        self._scratch = _kw.scratch()
        self._offsets = {i: o.copy() for i, o in world._store.offsets.items()}
        self._since = world._store.bodies.count
        body[_kc.B_FACING + (world._up + 1) % 3] = 1.0
        self._facing = body[_kc.B_FACING:_kc.B_FACING + 3]
        self._inherited = _STILL
        self._launched = False
        self._riding = False
        self._touches = None
        self._feet = body[_kc.B_FEET:_kc.B_FEET + 3]
        self._packed = None
        self._direct = _kc.update_frame_direct()
        self._table = _carry3d.table(world._store)
        self._settings = (*world._tolerances(), world._max_iterations)
        self._sized()
        self._frame(0.0, 0.0, 0.0, 0.0)       # what it stands on, before the first frame
        body[_kc.B_STOP] = _moves.STOP_DONE

    # ------------------------------------------------------------ per frame
    @classmethod
    def update_many(cls, characters: "Sequence[Character]", velocities: Any,
                    dt: float) -> np.ndarray:
        """Move many characters one frame, in one kernel call: as :meth:`update` for each.

        Every character ends exactly (bit for bit) where ``c.update(v, dt)`` one by
        one would leave it: the same position, velocity, stop, contacts, facing and
        floor. One call of
        :func:`~sidestep.kernels3d.character.update_characters` (on the threads
        :mod:`sidestep.threads` allows) walks every character of a mask, the push of
        the bodies moved since its last frame included (and the way out of a pinch
        for one a body squeezed against a wall), and the ride of one standing on a
        body that moved (a platform, a lift; the turn of its facing and the floor's
        velocity it keeps are set after the call; one in the air after leaving a
        moving floor keeps that floor's velocity, added to the one it asks for). In a
        world whose obstacles :meth:`World3D.translate` moved, every one is finished
        by :meth:`update`'s own code, one by one.

        The characters' state is kept in one stacked array the world holds for the
        last list passed (each character's own arrays are views of it): calling
        with the same list every frame costs nothing more; another list moves its
        characters into a new one.

        Parameters
        ----------
        characters : sequence of Character, length n
            Distinct characters of one world (any masks and sizes).
        velocities : (n, 3) float64
            The velocity asked for of each (m/s), as :meth:`update`'s ``velocity``.
        dt : float >= 0
            The frame's length (s).

        Returns
        -------
        (n,) object ndarray
            Each character's stop (:attr:`stop`), as :meth:`update` returns it.

        Raises
        ------
        ValueError
            Characters of different worlds, or one twice, ``velocities`` not of
            shape ``(n, 3)`` or not finite, ``dt`` negative or not finite; no
            character is moved then.

        Examples
        --------
        >>> import numpy as np, sidestep
        >>> world = sidestep.World3D()
        >>> floor = world.add_boxes([(-10, -1, -10)], [(10, 0, 10)])
        >>> team = [sidestep.Character(world, (x, 0, 0), 0.3, 1.8) for x in (-2.0, 0.0, 2.0)]
        >>> stops = sidestep.Character.update_many(team, np.tile([(1.0, 0, 0)], (3, 1)), 0.5)
        >>> stops.tolist(), team[0].position.round(3).tolist()
        (['done', 'done', 'done'], [-1.5, 0.0, 0.0])
        """
        chars = characters if type(characters) is tuple else tuple(characters)
        n = len(chars)
        world: Any = chars[0]._world if n and isinstance(chars[0], Character) else None
        for c in chars:
            if not isinstance(c, Character):
                raise ValueError(f"characters must hold Character objects, got "
                                 f"{type(c).__name__}")
            if c._world is not world:
                raise ValueError("characters must all be in one world")
        if len(set(chars)) != n:
            raise ValueError("characters must be distinct (one is there twice)")
        v, _ = validation.points(velocities, "velocities", allow_single=False, dim=3)
        if v.shape[0] != n:
            raise ValueError(f"velocities must have shape ({n}, 3), got shape {v.shape}")
        step = validation.length(dt, "dt")
        if n == 0:
            return np.zeros(0, dtype=object)
        store: Any = world._store
        block = getattr(store, "_character_block", None)
        if block is None or block.characters != chars:
            block = store._character_block = _Block(chars)
        count = store.bodies.count
        stops = block.stops
        if store.offsets:
            # World3D.translate moved obstacles: update's own code for every one.
            for i, c in enumerate(chars):
                x, y, z = v[i].tolist()
                stops[i] = c._frame(x, y, z, step)
            return _STOP_NAMES[stops]
        global _UPDATE_MANY
        if _UPDATE_MANY is None:
            _UPDATE_MANY = registered("kernels3d.character:update_characters")
        since = block.since
        since[:] = [c._since for c in chars]
        body_of = store.bodies.body_of
        table = chars[0]._table
        copied = False
        for mask, rows in block.groups:
            packed = store.pack(mask)
            for i in rows[block.bodies[rows, _kc.B_ON_FLOOR] == 0.0].tolist():
                level = chars[i]._kept()        # in the air off a moving floor
                if level is not None:
                    if not copied:
                        v = v.copy()            # (the caller's array stays as it was)
                        copied = True
                    v[i] += level
            threads.run_rows(_UPDATE_MANY, len(rows), packed, table.ready(store, packed),
                             block.bodies, block.contacts, rows, v, since, body_of, count,
                             step, stops, block.rode, block.rides, serial_rows=_BATCH_SERIAL,
                             min_chunk=_BATCH_CHUNK)
            floors = block.bodies[rows, _kc.B_ON_FLOOR].tolist()
            for i, seen, floor, rode in zip(rows.tolist(), since[rows].tolist(), floors,
                                            block.rides[rows].tolist()):
                c = chars[i]
                c._since = seen
                c._touches = None
                c._riding = False
                if rode:                    # on a body that moved (its facing turned)
                    c._rode(block.rode[i].copy(), step)
                if floor != 0.0:
                    if not c._riding and c._inherited is not _STILL:
                        c._inherited = _STILL
                    c._launched = False
        return _STOP_NAMES[stops]

    def update(self, velocity: Point3, dt: float) -> CharacterStop:
        """Move one frame: walk with ``velocity``, fall, climb, ride what carries it.

        Parameters
        ----------
        velocity : (3,) float64
            The velocity asked for (m/s). Its level part is the walk (on a
            floor it follows the floor's slope at this speed); a part along
            ``up`` is added to the vertical speed for this frame (a jetpack).
            Gravity is added by the character.
        dt : float >= 0
            The frame's length (s).

        Returns
        -------
        str
            Why the frame ended (:attr:`stop`).
        """
        # (The ignore below: as in World2D.move, mypy folds Point3's tuple into
        # ArrayLike when it compares types.)
        xyz: Any = None
        if type(velocity) is np.ndarray and velocity.shape == (3,) \
                and velocity.dtype == np.float64:
            xyz = velocity.tolist()             # a game's vector: checked below as floats
        elif type(velocity) is tuple and len(velocity) == 3:  # type: ignore[comparison-overlap]
            xyz = velocity
        if xyz is not None:
            x, y, z = xyz
            if (type(x) is float and type(y) is float and type(z) is float
                    and type(dt) is float and -_FAST <= x <= _FAST and -_FAST <= y <= _FAST
                    and -_FAST <= z <= _FAST and 0.0 <= dt <= _FAST):
                # The usual call: plain floats (NaN fails the ranges).
                return _STOPS[self._frame(x, y, z, dt)]
        v = validation.point(velocity, "velocity", dim=3)
        return _STOPS[self._frame(float(v[0]), float(v[1]), float(v[2]),
                                  validation.length(dt, "dt"))]

    def _frame(self, x: float, y: float, z: float, dt: float) -> int:
        # One kernel call; returns its stop code.
        store = self._world._store
        packed = store.pack(self._mask)
        if packed is not self._packed:
            # Packed anew (obstacles added): a frame state holding the new arrays.
            self._state = _kc.frame_state(packed, self._body, *self._scratch, self._contacts)
            self._packed = packed
        self._touches = None
        self._riding = False
        body = self._body
        level = self._kept()
        if level is not None:
            x, y, z = x + level[0], y + level[1], z + level[2]
        carry = self._carry(packed, dt) \
            if store.offsets or store.bodies.count > self._since else None
        if carry is None:
            stop: int = self._direct[0](self._state, x, y, z, dt)
        else:
            stop = self._direct[1](packed, carry[0], carry[1], self._body, x, y, z, dt,
                                   *self._scratch, self._contacts)
        if body[_kc.B_ON_FLOOR] != 0.0:
            if not self._riding and self._inherited is not _STILL:
                self._inherited = _STILL        # landed on a floor that does not move
            self._launched = False
        if stop == _kc.STOP_SQUEEZED:
            self._recover(packed)
        return stop

    def _kept(self) -> FloatArray | None:
        # In the air after leaving a moving floor: the floor's level velocity it keeps
        # (added to the one asked for; None when it keeps none), and its first frame in
        # the air starts from the floor's vertical speed too (a jump from a rising lift
        # goes higher; walking off a falling one, it falls).
        body = self._body
        if body[_kc.B_ON_FLOOR] != 0.0 or self._inherited is _STILL \
                or not self._inherited.any():
            return None
        up = int(body[_kc.B_UP])
        level = self._inherited.copy()
        if not self._launched:
            body[_kc.B_VSPEED] += level[up]
            self._launched = True
        level[up] = 0.0
        return level

    def _recover(self, packed: Any) -> None:
        # A body pushed it against something it could not pass: the body overlaps
        # it now; it goes to the nearest spot clear of everything (round the door's
        # edge, out of the pinch), never left inside.
        _kc.unsqueeze(packed, self._body, *self._scratch, np.empty(64, dtype=np.int64))

    def _carry(self, packed: Any, dt: float) -> tuple[Any, Any] | None:
        # Obstacles moved since the last frame (World3D.translate, or bodies'
        # set_pose) that carry the character (its floor) or pushed into it:
        # their displacement, and the alive and flag arrays of the world without
        # them to slide it in; None when nothing carries it.
        body = self._body
        floor = int(body[_kc.B_FLOOR_OBSTACLE]) if body[_kc.B_ON_FLOOR] else -1
        by_bodies = self._bodies_moved(packed, floor, dt)
        offsets = self._world._store.offsets
        if by_bodies is None:
            if not offsets:
                return None         # the usual frame on a living level: no body near it
            by_bodies = np.zeros(3), np.zeros(3), np.zeros(0, dtype=np.int64)
        rode, pushed, carriers_of_bodies = by_bodies
        moved = {}
        for i, offset in offsets.items():
            delta = offset - self._offsets.get(i, 0.0)
            if np.any(delta != 0.0):
                moved[i] = delta
                self._offsets[i] = offset.copy()
        if not moved and not len(carriers_of_bodies):
            return None
        alive = packed.alive
        carriers = [i for i in moved if i == floor and alive[i]]
        if len(moved) > len(carriers):
            touching = self._world.overlapping(self._center(), body[_kc.B_RADIUS],
                                               body[_kc.B_HEIGHT], self._mask)
            carriers += [int(i) for i in touching if int(i) in moved and int(i) != floor]
        if not carriers and not len(carriers_of_bodies):
            return None
        body[_kc.B_CARRY:_kc.B_CARRY + 3] = sum((moved[i] for i in carriers), rode + pushed)
        alive = alive.copy()
        alive[carriers] = 0
        alive[carriers_of_bodies] = 0
        flags = packed.flags.copy()
        flags[_kw.F_REMOVED] = 1
        return alive, flags

    def _bodies_moved(self, packed: Any, floor: int,
                      dt: float) -> tuple[FloatArray, FloatArray, IntArray] | None:
        """What the bodies moved since the last frame do to the character.

        Returns ``(rode, pushed, carriers)``: the displacement of the floor's
        material under its feet if it stands on a body that moved (the turn
        turns :attr:`facing`; the floor's velocity is kept for when it leaves
        it), the displacement of every other moved body that swept into it
        (:func:`~sidestep.kernels3d.carry.sweep_past`: seen from the body, the
        capsule slides along the body's motion reversed), and the ids of those
        bodies' obstacles (the world it is then carried through leaves them out);
        None when no body moved, or none it rides did and no other one's reach box
        (:func:`~sidestep.kernels3d.carry.reach_boxes`) comes near it (the grid cells
        its box meets, read in the same kernel call as the push:
        :func:`~sidestep.kernels3d.carry.push_character`), or none met it.
        """
        store = self._world._store
        bodies = store.bodies
        since = self._since
        if bodies.count <= since:
            return None
        self._since = bodies.count
        of = bodies.body_of
        riding = int(of[floor]) if 0 <= floor < len(of) else -1
        rides = bool(riding >= 0 and bodies.stamp[riding] > since)
        body = self._body
        up = int(body[_kc.B_UP])
        h = float(body[_kc.B_HEIGHT])
        c = self._feet.tolist()
        c[up] += 0.5 * h
        x, y, z = c
        r = float(body[_kc.B_RADIUS])
        half = max(0.5 * h - r, 0.0)
        # Bodies that swept into it (those whose material near it moved far enough only),
        # if a reach box comes near it at all.
        dx, dy, dz, pushers = self._table.push(store, packed, self._state, since, riding, rides,
                                               x, y, z, self._near, r, half, up,
                                               self._settings)
        if pushers is None or (not rides and not len(pushers)):
            return None         # no moved body near it, or none met it
        pushed = np.array([dx, dy, dz])
        rode = np.zeros(3)
        carriers = []
        if rides:
            rode = self._table.ride(store, packed, riding, self._body, _kc.B_FEET,
                                    _kc.B_FACING, up)
            self._rode(rode, dt)
            carriers.append(bodies.members[riding])
        carriers.extend(bodies.members[b] for b in pushers)
        ids = np.concatenate(carriers) if carriers else np.zeros(0, dtype=np.int64)
        return rode, pushed, ids

    def _rode(self, rode: FloatArray, dt: float) -> None:
        # It stood on a body that carried its feet by `rode` this frame (and turned its
        # facing: kernels3d.carry.ride_row): it keeps the body's velocity for when it
        # leaves it (update and update_many alike).
        self._inherited = rode / dt if dt > 0.0 else np.zeros(3)
        self._riding = True

    @property
    def facing(self) -> FloatArray:
        """``(3,) float64``: the level direction the character faces (a unit vector across
        ``up``). It is the game's to set; a turning floor it stands on turns it."""
        return self._facing.copy()

    @facing.setter
    def facing(self, value: Point3) -> None:
        f = validation.point(value, "facing", dim=3).copy()
        f[int(self._body[_kc.B_UP])] = 0.0
        n = float(np.linalg.norm(f))
        if n == 0.0:
            raise ValueError("facing must have a level part (it cannot point along up)")
        self._facing[:] = f / n

    def jump(self, speed: float) -> bool:
        """Jump at ``speed`` (m/s, up) on the next :meth:`update`, if standing on a floor.

        Returns whether it will jump (False in the air).
        """
        s = validation.length(speed, "speed")
        if not self.on_floor:
            return False
        self._body[_kc.B_JUMP] = s
        return True

    def resize(self, height: float) -> bool:
        """Change the capsule's height, feet fixed (crouch, stand up), only where it fits.

        Returns whether it did: standing up under a low ceiling keeps the old
        height.
        """
        h = validation.length(height, "height", allow_zero=False)
        r = self._body[_kc.B_RADIUS]
        if h < 2.0 * r:
            raise ValueError(f"height must be at least 2 * radius ({2.0 * r!r}), got {h!r}")
        if h <= self._body[_kc.B_STEP]:
            raise ValueError(f"height must be above step_height ({self._body[_kc.B_STEP]!r}), "
                             f"got {h!r}")
        # The taller capsule, a skin taller still at the top, must touch nothing.
        skin = self._world.skin
        center = self.position + 0.5 * (h + skin) * self._up_vector()
        if h > self._body[_kc.B_HEIGHT] and len(self._world.overlapping(center, r, h + skin)):
            return False
        self._body[_kc.B_HEIGHT] = h
        self._sized()
        return True

    def _sized(self) -> None:
        # What the bodies' near test reads of its size (after a change of height).
        body = self._body
        r = float(body[_kc.B_RADIUS])
        self._near = r + max(0.5 * float(body[_kc.B_HEIGHT]) - r, 0.0) \
            + 2.0 * float(body[_kc.B_SKIN])

    # ------------------------------------------------------------- reading
    def _up_vector(self) -> FloatArray:
        u = np.zeros(3)
        u[int(self._body[_kc.B_UP])] = 1.0
        return u

    def _center(self) -> FloatArray:
        center: FloatArray = self.position + 0.5 * self._body[_kc.B_HEIGHT] * self._up_vector()
        return center

    @property
    def position(self) -> FloatArray:
        """``(3,) float64``: the feet, the bottom of the capsule."""
        return self._feet.copy()

    @position.setter
    def position(self, value: Point3) -> None:
        p = validation.point(value, "position", dim=3)
        self._body[_kc.B_FEET:_kc.B_FEET + 3] = p

    @property
    def velocity(self) -> FloatArray:
        """``(3,) float64``: the velocity it really moved with last frame (m/s), carrying aside."""
        return self._body[_kc.B_VELOCITY:_kc.B_VELOCITY + 3].copy()

    @property
    def vertical_speed(self) -> float:
        """Speed along ``up`` (m/s) that gravity and jumps give it: 0 on a floor."""
        return float(self._body[_kc.B_VSPEED])

    @property
    def on_floor(self) -> bool:
        """Whether it stands on a floor (a surface within ``max_slope`` of level)."""
        return bool(self._body[_kc.B_ON_FLOOR])

    @property
    def floor_normal(self) -> FloatArray:
        """``(3,) float64``: the floor's unit normal (up on a step's nose), zeros in the air."""
        return self._body[_kc.B_FLOOR_NORMAL:_kc.B_FLOOR_NORMAL + 3].copy()

    @property
    def floor_obstacle(self) -> int:
        """Id of the obstacle it stands on, or -1."""
        return int(self._body[_kc.B_FLOOR_OBSTACLE])

    @property
    def on_wall(self) -> bool:
        """Whether a wall or a too steep slope touches it."""
        return bool(self._body[_kc.B_ON_WALL])

    @property
    def on_ceiling(self) -> bool:
        """Whether a ceiling touches its head."""
        return bool(self._body[_kc.B_ON_CEILING])

    @property
    def stepped(self) -> float:
        """Height (m) a step lifted it last frame (0: none)."""
        return float(self._body[_kc.B_STEPPED])

    @property
    def stop(self) -> CharacterStop:
        """Why the last frame ended.

        ``"done"`` (walked as asked), ``"slid"`` (walls turned it),
        ``"blocked"``, ``"stepped"`` (climbed a step), ``"landed"`` (came down
        onto a floor), ``"fell"`` (in the air), ``"squeezed"`` (a moving
        obstacle pushed it against a wall and it stays where that leaves it),
        ``"stuck"`` or ``"max_iterations"`` (as :attr:`Move.stop`).
        """
        return _STOPS[int(self._body[_kc.B_STOP])]

    @property
    def contacts(self) -> "tuple[Touch, ...]":
        """The surfaces touching it at the end of the last frame: :class:`Touch` records.

        One per obstacle and kind (floor, wall, ceiling): the nearest.
        """
        if self._touches is None:
            rows = self._contacts[:int(self._body[_kc.B_CONTACTS])]
            self._touches = tuple(Touch(int(c[0]), int(c[1]), c[2:5].copy(), c[5:8].copy(),
                                        _KINDS[int(c[8])]) for c in rows)
        return self._touches

    @property
    def radius(self) -> float:
        """The capsule's radius (m)."""
        return float(self._body[_kc.B_RADIUS])

    @property
    def height(self) -> float:
        """The capsule's height in all (m)."""
        return float(self._body[_kc.B_HEIGHT])

    @property
    def max_slope(self) -> float:
        """Steepest floor, radians from level."""
        return math.acos(self._body[_kc.B_COS_SLOPE])

    @property
    def step_height(self) -> float:
        """Highest step climbed (m)."""
        return float(self._body[_kc.B_STEP])

    @property
    def snap_distance(self) -> float:
        """How far below it keeps to the floor (m)."""
        return float(self._body[_kc.B_SNAP])

    @property
    def gravity(self) -> float:
        """Downward acceleration (m/s^2)."""
        return float(self._body[_kc.B_GRAVITY])
