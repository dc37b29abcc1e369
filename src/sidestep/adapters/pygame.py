"""sidestep for pygame(-ce) games: a world from ``Rect`` lists or Tiled maps, and rects that move in it.

pygame's own ``Rect.colliderect`` tells a game *that* its player overlaps a
wall, after the fact, and the usual fix (move along x, push back, move along y,
push back) tunnels through thin walls at speed. Here a :class:`RectMover`
answers, per frame, *where the rect may go*: it slides along what it meets,
never passes through anything, and never ends overlapping.

Coordinates are pygame's: pixels, y down, a rect's ``(x, y)`` its top-left
corner, which is its min corner in the world (contact normals point from the
obstacle towards the rect, so standing on a floor is ``(0, -1)``). Tiled maps
load in the same coordinates.

**Rounding.** A ``Rect`` holds integers and an ``FRect`` float32 numbers, and
a move's exact end (a thousandth of the rect's smaller half size off what it
touches: :data:`sidestep.adapters.grown.PADDING`) rounded to either could
overlap a wall by a rounding step. So the rect is put at the representable
place nearest the exact end (the floor or ceiling of each coordinate for a
``Rect``, the float32 numbers on either side for an ``FRect``) that overlaps
nothing and that the exact end reaches in a straight line; if none does (a
rect wedged between round obstacles), it stays where it was. Touching is not
overlapping: a ``Rect`` comes to rest flush against a wall. As with pygame's own
``Rect.move``, a ``Rect`` loses motion below half a pixel (use an ``FRect``
for slow movers).

**Moving rects and layers.** A platform, a door or a lift is a *moving
rect*: :meth:`RectMover.add_moving` makes it a rigid body of the world once,
:meth:`RectMover.place` puts it at its new ``(x, y)`` each frame it moves (a
pose: the still rects' broadphase is never rebuilt for it). The mover does
not carry or push anything itself: a game whose player rides a platform
moves the player by the platform's step with ``ignore=[platform]`` (so walls
still stop it), then by its own input. Every rect is on a layer (0..31:
``world_from_rects(..., layer=)``, ``add_moving(..., layer=)``); the mover's
``mask`` says which it collides with.

Example
-------
>>> import pygame
>>> from sidestep.adapters.pygame import RectMover, world_from_rects
>>> walls = [pygame.Rect(0, 100, 400, 20), pygame.Rect(200, 0, 20, 100)]
>>> mover = RectMover(world_from_rects(walls))
>>> player = pygame.Rect(10, 50, 32, 32)
>>> player, info = mover.move(player, 300, 40)      # fast, down-right: lands, slides, stops
>>> player, info.stop, info.contacts
(Rect(168, 68, 32, 32), 'blocked', (0, 1))
>>> mover.move(player, 0, -20).rect                 # a miss: free to go up
Rect(168, 48, 32, 32)

A lift under the player rises 10 px: the player rides it, then walks off.

>>> lift = mover.add_moving(pygame.Rect(40, 82, 60, 10))
>>> player = pygame.Rect(50, 50, 32, 32)                # standing on it
>>> mover.place(lift, (40, 72))
>>> player = mover.move(player, 0, -10, ignore=[lift]).rect   # carried up with it
>>> player, mover.move(player, 0, 5).move.contacts      # stands on the lift's new top
(Rect(50, 40, 32, 32), (2,))
"""
import os
from typing import NamedTuple

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # no banner on import
import pygame  # noqa: E402

from .. import layers, validation  # noqa: E402
from ..world import MODES, World2D  # noqa: E402
from .rects import RectMove, RectWorld  # noqa: E402


def _xywh(rect, name):
    """A Rect, FRect or ``(x, y, w, h)`` as four floats, with ``w, h > 0``."""
    if isinstance(rect, (pygame.Rect, pygame.FRect)):
        x, y, w, h = rect.x, rect.y, rect.w, rect.h
    else:
        try:
            values = tuple(rect)
        except TypeError:
            raise TypeError(f"{name} must be a pygame Rect, FRect or (x, y, w, h), got "
                            f"{type(rect).__name__}") from None
        if len(values) != 4:
            raise ValueError(f"{name} must be a pygame Rect, FRect or (x, y, w, h), got "
                             f"{len(values)} values")
        x, y, w, h = (validation.number(v, name) for v in values)
    if not (w > 0 and h > 0):
        raise ValueError(f"{name} must have a positive width and height, got w={w}, h={h}")
    return float(x), float(y), float(w), float(h)


def world_from_rects(rects, *, layer=0):
    """A :class:`~sidestep.World2D` of solid boxes, one per rect; ids are the list's indices.

    Parameters
    ----------
    rects : sequence of pygame ``Rect``, ``FRect`` or ``(x, y, w, h)``
        Each covers ``[x, x + w] x [y, y + h]``; width and height must be
        positive.
    layer : int or sequence of int
        Their layer (0..31), one for all or one each.

    Returns
    -------
    World2D

    Examples
    --------
    >>> world = world_from_rects([pygame.Rect(0, 0, 10, 10), (20.5, 0, 5, 5)])
    >>> world, world.ids.tolist()
    (World2D(2 obstacles: 2 boxes), [0, 1])
    >>> world_from_rects([pygame.Rect(0, 0, 0, 10)])
    Traceback (most recent call last):
    ...
    ValueError: rects[0] must have a positive width and height, got w=0, h=10
    """
    if isinstance(rects, (pygame.Rect, pygame.FRect)):
        raise TypeError("rects must be a sequence of rects, not one rect; wrap it in a list")
    boxes = [_xywh(r, f"rects[{i}]") for i, r in enumerate(rects)]
    world = World2D()
    if boxes:
        b = np.array(boxes)
        world.add_boxes(b[:, 0:2], b[:, 0:2] + b[:, 2:4], layer=layer)
    return world


def world_from_tiled(path, *, layers=None):
    """The world of a Tiled map (``.tmx``, ``.tmj``, ``.json``), in pixels, y down.

    sidestep's Tiled reader (:mod:`sidestep.io.tiled`): rectangles and tile
    objects become boxes, polygons polygons, polylines walls, ellipses
    circles, collision tile layers grids, and four walls frame the map. Which
    objects collide follows the reader's rules (properties such as
    ``collides``, layer names such as ``Collision``); ``layers=["Walls"]``
    picks layers by name instead. For the map's spawn points and problems, use
    :func:`sidestep.load`.
    """
    from .. import load
    options = {} if layers is None else {"layers": layers}
    return load(path, **options).world


class Moved(NamedTuple):
    """What :meth:`RectMover.move` gives: the rect where it may go, and the move's record."""

    #: The rect at its new place, of the kind given (``Rect`` or ``FRect``; an
    #: ``FRect`` for a tuple).
    rect: object
    #: The exact move (:class:`~sidestep.adapters.rects.RectMove`, its centre before rounding).
    move: RectMove


class RectMover:
    """Moves pygame rects through a world, one call per frame.

    Parameters
    ----------
    world : World2D
        From :func:`world_from_rects`, :func:`world_from_tiled` or built by
        hand. Obstacles added or removed later are seen at the next move
        (the first move after a change rebuilds the grown world).
    mode : {"slide", "push", "block", "ghost"}
        ``slide`` (default) never overlaps and never tunnels; see
        :meth:`sidestep.World2D.move` for the others.
    mask : int
        The layers the rects it moves collide with (bit ``k`` for layer
        ``k``; all by default). An attribute too.
    """

    def __init__(self, world, *, mode="slide", mask=layers.ALL):
        self.rects = world if isinstance(world, RectWorld) else RectWorld(world)
        self.mode = validation.choice(mode, "mode", MODES)
        self.mask = layers.mask(mask)
        self._moving = {}             # body -> [obstacle id, x, y, w, h when added]

    def add_moving(self, rect, *, layer=0):
        """Make ``rect`` a moving rect (a platform, a door) of the world; returns its id.

        Move it with :meth:`place`; give the id to :meth:`move`'s ``ignore``.

        Parameters
        ----------
        rect : pygame ``Rect``, ``FRect`` or ``(x, y, w, h)``
            Where it is now.
        layer : int
            Its layer, 0..31.

        Returns
        -------
        int
            Its body id in the world (:meth:`sidestep.World2D.pose` reads its
            offset from where it was added).
        """
        x, y, w, h = _xywh(rect, "rect")
        oid = int(self.rects.add_boxes([(x, y)], [(x + w, y + h)], moving=True,
                                       layer=layer)[0])
        body = self.rects.add_body([oid])
        self._moving[body] = [oid, x, y, w, h]
        return body

    def place(self, body, where):
        """Put moving rect ``body`` at ``where``: its new ``(x, y)``, or a rect of its size.

        A pose of the body (cost in proportion to it, no rebuild); nothing in
        its way is pushed.
        """
        mine = self._moving.get(body)
        if mine is None:
            raise KeyError(f"no moving rect with id {body!r} (ids come from add_moving)")
        if isinstance(where, (pygame.Rect, pygame.FRect)) or len(tuple(where)) == 4:
            x, y, w, h = _xywh(where, "where")
            if (w, h) != (mine[3], mine[4]):
                raise ValueError(f"where must keep the moving rect's size {mine[3]:g} x "
                                 f"{mine[4]:g}, got {w:g} x {h:g}")
        else:
            x, y = validation.xy(where, "where")
        self.rects.set_pose(body, (x - mine[1], y - mine[2]))

    @property
    def world(self):
        """The :class:`~sidestep.World2D` the rects move in."""
        return self.rects.world

    def move(self, rect, dx, dy, *, ignore=()):
        """Where ``rect`` may go when it tries to move by ``(dx, dy)`` pixels.

        Parameters
        ----------
        rect : pygame ``Rect``, ``FRect`` or ``(x, y, w, h)``
        dx, dy : float
        ignore : sequence of int
            Moving rects (ids from :meth:`add_moving`) it passes through in
            this move: the platform that carries it.

        Returns
        -------
        Moved
            ``(rect, move)``: a new rect (the one given is left as it was) and
            the exact move's record.
        """
        x, y, w, h = _xywh(rect, "rect")
        d = (validation.number(dx, "dx"), validation.number(dy, "dy"))
        half = (0.5 * w, 0.5 * h)
        start = (x + half[0], y + half[1])
        skip = []
        for body in ignore:
            if body not in self._moving:
                raise KeyError(f"no moving rect with id {body!r} (ids come from add_moving)")
            skip.append(self._moving[body][0])
        m = self.rects.move(start, half, d, mode=self.mode, mask=self.mask, ignore=skip)
        ex, ey = (m.center - m.half_size).tolist()
        if isinstance(rect, pygame.Rect):
            places = _around(ex, ey, x, y, _integers)
        else:
            places = _around(ex, ey, x, y, _float32s)
        if self.mode == "ghost":
            k = 0
        else:
            k = self.rects.first_free(m.center, half, places, mask=self.mask)
        px, py = places[k] if k >= 0 else (x, y)
        kind = pygame.Rect if isinstance(rect, pygame.Rect) else pygame.FRect
        return Moved(kind(px, py, w, h), m)


def _integers(v):
    """The integers on either side of ``v`` (one if ``v`` is an integer)."""
    lo = float(np.floor(v))
    return (lo,) if lo == v else (lo, lo + 1.0)


def _float32s(v):
    """The float32 numbers on either side of ``v`` (one if ``v`` is a float32)."""
    f = np.float32(v)
    if float(f) == v:
        return (v,)
    other = np.nextafter(f, np.float32(np.inf if float(f) < v else -np.inf))
    return tuple(sorted((float(f), float(other))))


def _around(ex, ey, x0, y0, values):
    """Representable min corners round the exact ``(ex, ey)``, nearest first.

    Ties go to the one nearer the start ``(x0, y0)``.
    """
    places = [(px, py) for px in values(ex) for py in values(ey)]
    places.sort(key=lambda p: ((p[0] - ex) ** 2 + (p[1] - ey) ** 2,
                               (p[0] - x0) ** 2 + (p[1] - y0) ** 2))
    return places
