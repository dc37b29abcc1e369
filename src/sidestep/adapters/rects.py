"""Axis-aligned rectangles moving through a :class:`~sidestep.World2D` (engine-free).

The players of 2D engines are rectangles (pygame's ``Rect``, arcade's sprite
hit boxes); sidestep's 2D agents are discs. A :class:`RectWorld` bridges the
two with the Minkowski sum: for a rect of half extents ``(hx, hy)`` it builds,
once per rect size, a grown copy of the world in which every obstacle is grown
by the rect (:mod:`sidestep.adapters.minkowski` says how, family by family),
and moves the rect's *centre* there with :meth:`World2D.move`, in any mode.
The rect overlaps an obstacle exactly when its centre lies inside the grown
obstacle, so ``slide``'s promise carries over: **after a slide the rect
overlaps no obstacle**, whatever the speed; it never tunnels. The centre
moves as a small disc, not a point, with a skin a millionth of the disc's
radius (:data:`~sidestep.adapters.grown.PADDING` says why), so the rect rests
a thousandth of its smaller half extent off what it touches (:meth:`RectWorld.gap`),
and passes a gap only if the gap is at least its width plus twice that. Circles and walls with a
clearance grow to polygons that contain their true sum, so near them the rect
stops up to 1.9 % of the radius early, never late.

Positions are the rect's centre; :attr:`RectMove.min_corner` gives the corner
of smallest coordinates (pygame's ``topleft`` with y down, arcade's
``(left, bottom)`` with y up). Obstacle ids in every answer are the ids of the
caller's world, never the grown copies'.

The grown copies follow the caller's world: one that changed since (by any
means: obstacles added or removed, layers or poses set) is rebuilt on the next
call; obstacles added and removed through :meth:`RectWorld.add_boxes`,
:meth:`RectWorld.add_polygon` and :meth:`RectWorld.remove`, and bodies made
and posed through :meth:`RectWorld.add_body` and :meth:`RectWorld.set_poses`,
update every copy in place.

Moving platforms are rigid bodies: add a platform's obstacles with
``moving=True``, make them a body (:meth:`RectWorld.add_body`) and pose it
each frame (:meth:`RectWorld.set_pose`): a body that only moves costs a pose
in the caller's world and in each grown copy, never a rebuild; one that
turned is grown again for its new angle in each copy (the rect does not turn
with it), which rebuilds that copy's broadphase once. Every query takes a
``mask`` (the layers it sees, as :meth:`World2D.move`) and moves, casts and
overlap tests take ``ignore``: moving obstacles to pass through for that one
call (a platform that carries the rect, in a world without it).

Examples
--------
A 2 x 1 rect walks right, diagonally into a wall at x = 5, and slides along it:

>>> import sidestep
>>> from sidestep.adapters.rects import RectWorld
>>> world = sidestep.World2D()
>>> wall = world.add_boxes([(5.0, -10.0)], [(6.0, 10.0)])
>>> rects = RectWorld(world)
>>> step = rects.move((0.0, 0.0), (1.0, 0.5), (10.0, 2.0))
>>> step.stop, step.contacts, bool(step.max_corner[0] <= 5.0), round(float(step.center[1]), 6)
('slid', (0,), True, 2.0)
>>> rects.move((0.0, 0.0), (1.0, 0.5), (0.0, 3.0)).stop           # a miss
'done'
>>> rects.move((0.0, 0.0), (1.0, 0.5), (0.0, 0.0)).contacts       # no motion, no contacts
()
"""
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .. import layers, validation
from ..storage import FAMILIES
from ..world import MODES, World2D
from . import minkowski
from .grown import Body, GrownWorld, subset

#: A grown world that gathered this many dead pieces (old pieces of turning bodies)
#: is dropped, to be built afresh at its next use.
COMPACT_DEAD = 2000

#: How many rect sizes keep their grown world (least recently used dropped first).
CACHE_SIZES = 8


@dataclass(frozen=True)
class RectMove:
    """Where a rectangle's move ended, and what it touched on the way."""

    #: ``(2,) float64``: the rect's centre after the move.
    center: np.ndarray
    #: ``(2,) float64``: its half extents ``(hx, hy)``.
    half_size: np.ndarray
    #: Whether anything stopped, turned or pushed the rect.
    hit: bool
    #: Why the move ended, as :attr:`sidestep.Move.stop`: ``"done"``, ``"slid"``,
    #: ``"blocked"``, ``"pushed"``, ``"max_iterations"`` or ``"stuck"``.
    stop: str
    #: Ids (in the caller's world) of the obstacles touched, each once, in the order met.
    contacts: tuple
    #: ``(k, 2) float64``: for each of ``contacts``, the unit normal of the first
    #: touch, from the obstacle towards the rect (``(0, 1)``: standing on it, y up).
    normals: np.ndarray
    #: Whether the rect started overlapping and was first moved to a free spot.
    recovered: bool = False

    @property
    def min_corner(self):
        """``(2,) float64``: the corner of smallest x and y (``center - half_size``)."""
        return self.center - self.half_size

    @property
    def max_corner(self):
        """``(2,) float64``: the corner of largest x and y (``center + half_size``)."""
        return self.center + self.half_size


class RectWorld:
    """A :class:`~sidestep.World2D` in which axis-aligned rectangles move.

    Parameters
    ----------
    world : World2D, optional
        The obstacles (a new empty world if omitted). It stays the caller's:
        changes to it are seen at the next call.
    circle_sides : int
        Sides of the polygon standing in for a circle or a wall's rounded end
        (a multiple of 4; more is tighter and slower).
    """

    def __init__(self, world=None, *, circle_sides=minkowski.CIRCLE_SIDES):
        if world is None:
            world = World2D()
        if not isinstance(world, World2D):
            raise TypeError(f"world must be a sidestep.World2D, got {type(world).__name__}")
        if isinstance(circle_sides, bool) or not isinstance(circle_sides, (int, np.integer)) \
                or circle_sides < 4 or circle_sides % 4:
            raise ValueError(f"circle_sides must be a multiple of 4, at least 4; "
                             f"got {circle_sides!r}")
        self._world = world
        self._sides = int(circle_sides)
        self._grown = OrderedDict()       # (hx, hy) -> GrownWorld
        self._moving = set()              # ids added as moving
        self._bodies = {}                 # body id -> grown.Body
        self._seen = self._state()

    @property
    def world(self):
        """The caller's :class:`~sidestep.World2D`."""
        return self._world

    def _state(self):
        # The store counts its changes (adds, removals, layers, bodies, poses): a
        # grown world made at another count is stale.
        return self._world._store.version

    def grown(self, half_size):
        """The world grown by a rect of ``half_size`` (made on first use, then kept).

        Parameters
        ----------
        half_size : (2,) float64, both > 0

        Returns
        -------
        GrownWorld
        """
        if type(half_size) is tuple and len(half_size) == 2 and type(half_size[0]) is float \
                and type(half_size[1]) is float and half_size[0] > 0.0 and half_size[1] > 0.0 \
                and half_size[0] < 1e12 and half_size[1] < 1e12:
            key = half_size
        else:
            key = _half(half_size)
        state = self._state()
        if state != self._seen:
            self._grown.clear()
            self._seen = state
        g = self._grown.get(key)
        if g is None:
            bounds = self._world.bounds
            g = GrownWorld(np.array(key), self._sides,
                           0.0 if bounds is None else max(abs(b) for b in bounds))
            g.build(self._world, self._moving, list(self._bodies.values()))
            self._grown[key] = g
            if len(self._grown) > CACHE_SIZES:
                self._grown.popitem(last=False)
        else:
            self._grown.move_to_end(key)
        return g

    # ---------------------------------------------------------------- moves
    def move(self, center, half_size, displacement, mode="slide", *, mask=layers.ALL,
             ignore=()):
        """Move a rect of ``half_size`` centred at ``center`` by ``displacement``.

        Parameters
        ----------
        center, displacement : (2,) float64
        half_size : (2,) float64, both > 0
        mode : {"slide", "push", "block", "ghost"}
            As :meth:`World2D.move`, for the rect's centre in the grown world:
            ``slide`` never ends overlapping and never tunnels; ``block``
            stays put if the rect would overlap where it lands; ``push``
            pushes it out afterwards (fast moves can tunnel); ``ghost``
            ignores everything.
        mask : int
            The layers the rect collides with (bit ``k`` for layer ``k``).
        ignore : sequence of int
            Moving obstacles (added with ``moving=True`` or in a body) the rect
            passes through in this move only.

        Returns
        -------
        RectMove
        """
        g = self.grown(half_size)
        start = validation.xy(center, "center")
        mode = validation.choice(mode, "mode", MODES)
        seen, hidden = _hide(g, mask, ignore)
        try:
            return self._move(g, start, displacement, mode, seen, hidden is None)
        finally:
            if hidden is not None:
                g.show(ignore)

    def _move(self, g, start, displacement, mode, mask, keep_rest):
        if mode == "slide":
            recovered = False
            if (mask, start) != g.rest and g.solid.clearance(start, mask=mask) < 0.0:
                # Inside the outline's void: its one-sided walls only keep a point
                # from crossing them, so the solid pieces say where the nearest free
                # spot is. (Skipped where the last slide with this mask ended: it is
                # free.)
                start = g.solid.move(start, (0.0, 0.0), radius=g.radius, mask=mask).position
                recovered = True
            m = g.smooth.move(start, displacement, radius=g.radius, mask=mask)
            g.rest = (mask, tuple(m.position.tolist())) \
                if m.stop != "stuck" and keep_rest else None
            recovered = recovered or m.recovered
        elif mode == "ghost":
            m = g.smooth.move(start, displacement, radius=g.radius, mode=mode)
            recovered = False
        else:
            # Block and push test where the move lands: in the solid pieces (the
            # outline's void is not seen from deep inside), then the moving ones.
            first = g.solid.move(start, displacement, radius=g.radius, mode=mode, mask=mask)
            solid = [(int(g.solid_owner[c.obstacle]), c.normal) for c in first.contacts]
            if mode == "block" and first.stop == "blocked":
                ids, normals = _unique(solid)
                return RectMove(first.position, g.half_size, True, "blocked", ids, normals)
            m = g.smooth.move(start if mode == "block" else first.position,
                              displacement if mode == "block" else (0.0, 0.0),
                              radius=g.radius, mode=mode, mask=mask)
            ids, normals = _unique(solid + _owned_contacts(g, m.contacts))
            hit = m.hit or first.hit
            stop = m.stop if mode == "block" else ("pushed" if hit else "done")
            return RectMove(m.position, g.half_size, hit, stop, ids, normals)
        ids, normals = _unique(_owned_contacts(g, m.contacts))
        return RectMove(m.position, g.half_size, m.hit, m.stop, ids, normals, recovered)

    def cast(self, center, half_size, displacement, *, mask=layers.ALL, ignore=()):
        """How far the rect can go along ``displacement`` before it touches something.

        ``mask`` and ``ignore`` as for :meth:`move`.

        Returns
        -------
        Cast
            The fraction of ``displacement`` travelled before touching (1.0,
            obstacle -1 and a NaN normal when nothing is in the way; 0.0 when
            the rect already touches or overlaps the obstacle).
        """
        g = self.grown(half_size)
        d = validation.point(displacement, "displacement")
        length = float(np.hypot(d[0], d[1]))
        if length > 0.0:
            start = validation.point(center, "center")
            seen, hidden = _hide(g, mask, ignore)
            try:
                hit = g.smooth.raycast(start, d, max_distance=length, mask=seen)
            finally:
                if hidden is not None:
                    g.show(ignore)
            if hit.hit:
                return Cast(hit.distance / length, g.owner_at(hit.obstacle, hit.point),
                            hit.normal)
        return Cast(1.0, -1, np.full(2, np.nan))

    def overlapping(self, center, half_size, *, mask=layers.ALL, ignore=()):
        """Ids (the caller's, sorted) of the obstacles a rect touches or overlaps.

        Exact where the grown world is (boxes, grids, polygons, walls without
        clearance); near circles and rounded walls it may name an obstacle the
        rect misses by up to 1.9 % of the radius. ``mask`` and ``ignore`` as
        for :meth:`move`.
        """
        g = self.grown(half_size)
        point = validation.point(center, "center")
        seen, hidden = _hide(g, mask, ignore)
        try:
            return g.overlapping(point, seen)
        finally:
            if hidden is not None:
                g.show(ignore)

    def escape(self, center, half_size, ids):
        """The shortest displacement that takes a rect out of obstacles ``ids`` alone.

        Everything else is left out: where a platform that turned into the
        rect would push it. Zero when the rect overlaps none of them; at the
        slide's gap (:meth:`gap`) from them otherwise.

        Parameters
        ----------
        center : (2,) float64
        half_size : (2,) float64
        ids : sequence of int
            Moving obstacles (added with ``moving=True`` or in a body).

        Returns
        -------
        (2,) float64
        """
        g = self.grown(half_size)
        start = validation.point(center, "center")
        free = layers.ALL & ~g.used
        if not len(ids) or not free:
            if len(ids):
                raise ValueError("escape needs a layer no obstacle is on; this world "
                                 "uses all 32")
            return np.zeros(2)
        _, hidden = _hide(g, layers.ALL & ~free, ids)
        try:
            m = g.smooth.move(start, (0.0, 0.0), radius=g.radius, mask=1 << hidden)
        finally:
            g.show(ids)
        return m.position - start

    def gap(self, half_size):
        """How far (at most) a slide leaves a rect of ``half_size`` from what it touches.

        The radius of the disc its centre moves as, plus the world's skin;
        at least that radius plus ``3/8`` of the skin.
        """
        g = self.grown(half_size)
        return g.radius + g.smooth.skin

    def first_free(self, center, half_size, corners, *, mask=layers.ALL):
        """The first of some candidate places for a rect that is free and reachable.

        Engines keep rects in integers (pygame's ``Rect``) or float32
        (``FRect``); a move's exact end, rounded to those, could overlap what
        it rests against. Give the representable places round the exact end
        (the floor and ceiling of each coordinate, say), best first: the
        answer is the first whose rect overlaps nothing (touching is fine)
        and that the rect reaches from ``center`` in a straight line without
        crossing anything.

        Parameters
        ----------
        center : (2,) float64
            Where the rect is now (a move's exact end), free.
        half_size : (2,) float64
        corners : (k, 2) float64
            Candidate min corners (``center - half_size`` of each place).
        mask : int
            The layers that count (as for :meth:`move`).

        Returns
        -------
        int
            Index into ``corners``, or -1 if none will do.
        """
        g = self.grown(half_size)
        start = validation.point(center, "center")
        places, _ = validation.points(corners, "corners", allow_single=False)
        return g.first_free(start, places + g.half_size, layers.mask(mask) & g.used)

    # ------------------------------------------------------------ obstacles
    def add_boxes(self, mins, maxs, *, moving=False, layer=0):
        """Add boxes to the world and to every grown copy, on ``layer``; returns their ids.

        ``moving=True`` for obstacles that will move (platforms: make them a
        body, :meth:`add_body`): they stay boxes of their own in the grown
        worlds, outside the still boxes' merged outline, so moving them never
        rebuilds it.
        """
        fresh = self._state() == self._seen
        ids = self._world.add_boxes(mins, maxs, layer=layer)
        if moving:
            self._moving.update(ids.tolist())
        if fresh:          # the world took them, so they are valid (n, 2) boxes
            geometry = {"mins": np.asarray(mins, np.float64).reshape(-1, 2),
                        "maxs": np.asarray(maxs, np.float64).reshape(-1, 2)}
            self._grow("box", ids, geometry, moving, layer)
        return ids

    def add_polygon(self, vertices, *, moving=False, layer=0):
        """Add a simple polygon to the world and to every grown copy; returns its id.

        ``moving`` and ``layer`` as for :meth:`add_boxes`.
        """
        fresh = self._state() == self._seen
        oid = self._world.add_polygon(vertices, layer=layer)
        if moving:
            self._moving.add(oid)
        if fresh:
            self._grow("polygon", [oid], {"vertices": [np.asarray(vertices, np.float64)]},
                       moving, layer)
        return oid

    def add_body(self, ids):
        """Make obstacles ``ids`` one rigid body, in the world and every grown copy.

        As :meth:`World2D.add_body`: their coordinates now are the body's own
        frame; returns the body's id. Give them ``moving=True`` when adding
        them (else the grown copies are rebuilt once, to take them out of the
        merged outline). Pose it with :meth:`set_pose`, not the world's own
        (which the grown copies would only see by a rebuild).
        """
        fresh = self._state() == self._seen
        arr = np.atleast_1d(np.asarray(ids, dtype=np.int64))
        frame = []
        for family in FAMILIES:           # the body's frame: its obstacles as they are now
            g = self._world.geometry(family)
            keep = np.isin(g["ids"], arr)
            if keep.any():
                frame.append((family, subset(g, keep)))
        body = self._world.add_body(arr)
        record = Body(body, arr, frame)
        self._bodies[body] = record
        still = set(arr.tolist()) - self._moving
        self._moving.update(arr.tolist())
        if fresh:
            if still:
                self._grown.clear()
            for g in self._grown.values():
                g.add_body(record)
            self._seen = self._state()
        return body

    def set_pose(self, body, position, angle=0.0, dt=1.0):
        """Put ``body`` at ``position``, turned by ``angle`` (radians, counter-clockwise),
        in the world and every grown copy: :meth:`World2D.set_pose`."""
        self.set_poses([body], [position], [angle], dt)

    def set_poses(self, bodies, positions, angles=0.0, dt=1.0):
        """:meth:`set_pose` for many bodies: ``bodies (k,)``, ``positions (k, 2)``,
        ``angles`` a number or ``(k,)``."""
        fresh = self._state() == self._seen
        self._world.set_poses(bodies, positions, angles, dt)       # checks them
        b = np.atleast_1d(np.asarray(bodies, dtype=np.int64))
        p = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
        a = np.broadcast_to(np.asarray(angles, dtype=np.float64), b.shape)
        records = []
        for k, body in enumerate(b.tolist()):
            record = self._bodies[body]
            record.position = p[k].copy()
            record.angle = float(a[k])
            records.append(record)
        if fresh:
            for key in list(self._grown):
                g = self._grown[key]
                g.pose(records)
                if g.dead > COMPACT_DEAD:
                    del self._grown[key]
            self._seen = self._state()

    def remove(self, ids):
        """Remove obstacles from the world and from every grown copy.

        Removing a still obstacle (not added as ``moving``), or one in a
        body, rebuilds the grown worlds when they are next used.
        """
        fresh = self._state() == self._seen
        self._world.remove(ids)
        arr = np.atleast_1d(np.asarray(ids, dtype=np.int64))
        self._moving.difference_update(arr.tolist())
        gone = set(arr.tolist())
        for body, record in list(self._bodies.items()):
            if gone.intersection(record.ids.tolist()):
                fresh = False          # its frame changes: rebuilt when next used
                live = [i for i in record.ids.tolist() if i not in gone]
                record.ids = np.array(live, dtype=np.int64)
                record.frame = [(f, subset(g, np.isin(g["ids"], record.ids)))
                                for f, g in record.frame]
        if fresh:
            for key in list(self._grown):
                if not self._grown[key].remove(arr):      # merged: rebuilt when next used
                    del self._grown[key]
            self._seen = self._state()

    def _grow(self, family, ids, geometry, moving, layer):
        for g in self._grown.values():
            g.add(ids, family, geometry, moving, layer)
        self._seen = self._state()


@dataclass(frozen=True)
class Cast:
    """How far a rect goes along a displacement before it touches something."""

    #: Part of the displacement travelled before touching, in [0, 1]; 1.0 on a miss.
    fraction: float
    #: Id (the caller's) of what it touches, -1 on a miss.
    obstacle: int
    #: ``(2,) float64``: the unit normal there, from the obstacle towards the rect; NaN on a miss.
    normal: np.ndarray


def _half(value):
    """A rect's half extents as a hashable ``(hx, hy)`` of positive floats."""
    p = validation.point(value, "half_size")
    if not (p[0] > 0.0 and p[1] > 0.0):
        raise ValueError(f"half_size must be positive on both axes, got {p.tolist()}")
    return float(p[0]), float(p[1])


def _hide(grown, mask, ignore):
    """The mask a query of ``grown`` uses, and the layer its ``ignore`` obstacles were
    put on for it (None if none: then nothing is to be shown again).

    The pieces ignored go to a layer no piece the query sees is on: the
    highest left out of ``mask`` or unused.
    """
    seen = layers.mask(mask) & grown.used
    if not len(ignore):
        return seen, None
    free = layers.ALL & ~seen
    if not free:
        raise ValueError("ignore needs a layer that the mask leaves out or no obstacle "
                         "is on; this world uses all 32 and the mask sees them all")
    for o in ignore:
        if int(o) in grown._merged:
            raise ValueError(f"ignore takes moving obstacles (added with moving=True or "
                             f"in a body); obstacle {int(o)} is not one")
    hidden = free.bit_length() - 1
    grown.hide(ignore, hidden)
    return seen, hidden


def _owned_contacts(grown, contacts):
    """A smooth-world move's contacts as ``(caller's id, normal)`` pairs."""
    return [(grown.owner_at(c.obstacle, c.point), c.normal) for c in contacts]


def _unique(pairs):
    """``(caller's id, normal)`` pairs as the ids (each once, in order) and their first normals."""
    ids, normals = [], []
    for oid, normal in pairs:
        if oid >= 0 and oid not in ids:
            ids.append(oid)
            normals.append(normal)
    return tuple(ids), np.array(normals).reshape(-1, 2)
