"""Axis-aligned rectangles moving through a :class:`~sidestep.World2D` (engine-free).

The players of 2D engines are rectangles (pygame's ``Rect``, arcade's sprite
hit boxes); sidestep's 2D agents are discs. A :class:`RectWorld` bridges the
two with the Minkowski sum: for a rect of half extents ``(hx, hy)`` it builds,
once per rect size, a grown copy of the world in which every obstacle is grown
by the rect (:mod:`sidestep.adapters.minkowski` says how, family by family),
and moves the rect's *centre* there as a point (radius 0) with
:meth:`World2D.move`, in any mode. The rect overlaps an obstacle exactly when
its centre lies inside the grown obstacle, so ``slide``'s promise carries over:
**after a slide the rect overlaps no obstacle** (it rests about ``SKIN / 2``,
5e-7 units, off what it touches), whatever the speed; it never tunnels. Circles
and walls with a clearance grow to polygons that contain their true sum, so
near them the rect stops up to 1.9 % of the radius early, never late.

Positions are the rect's centre; :attr:`RectMove.min_corner` gives the corner
of smallest coordinates (pygame's ``topleft`` with y down, arcade's
``(left, bottom)`` with y up). Obstacle ids in every answer are the ids of the
caller's world, never the grown copies'.

The grown copies follow the caller's world: one that gained or lost
obstacles since (by any means) is rebuilt on the next call; obstacles added
and removed through :meth:`RectWorld.add_boxes`, :meth:`RectWorld.add_polygon`
and :meth:`RectWorld.remove` (moving platforms) update every copy in place.

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
import bisect
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .. import validation
from ..world import World2D
from . import minkowski, outline

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


class GrownWorld:
    """The caller's world grown by one rect size, as two worlds of grown pieces.

    Every obstacle grows into pieces (:mod:`~sidestep.adapters.minkowski`):
    boxes and convex or simple polygons. The pieces go into two worlds:

    Attributes
    ----------
    smooth : World2D
        Where the rect's centre moves: the box pieces merged into the
        outline of their union, as one-sided walls
        (:func:`~sidestep.adapters.outline.union_outline`; no seams where
        tiles meet), and every polygon piece. Boxes added later
        (:meth:`add`, moving platforms) stay boxes of their own.
    solid : World2D
        Every piece as a solid box or polygon: where the rect starts
        overlapping (recovery), whose surface a contact lies on, and what a
        rect overlaps.
    smooth_owner, solid_owner : (m,) int64
        For each id of those worlds, the caller's obstacle it grew from
        (-1 for the outline's walls and for removed ids).
    half_size : (2,) float64
    """

    def __init__(self, half_size, sides):
        self.half_size = half_size
        self.smooth = World2D()
        self.solid = World2D()
        self.smooth_owner = np.zeros(0, dtype=np.int64)
        self.solid_owner = np.zeros(0, dtype=np.int64)
        self._sides = sides
        self._pieces = {}             # caller's id -> ([solid ids], [smooth ids])
        self._merged = set()          # caller's ids whose boxes are in the outline
        self._outline = {}            # outline wall id -> (axis along it, from, to, owners)
        #: Where the last slide here ended (outside every piece), or None.
        self.rest = None

    def build(self, world):
        """Grow every obstacle of ``world``, its box pieces merged into one outline."""
        boxes, polygons = [], []
        for family in ("box", "grid", "circle", "wall", "polygon"):
            geometry = world.geometry(family)
            if len(geometry["ids"]):
                self._grow(geometry["ids"], family, geometry, boxes, polygons)
        if boxes:
            owners = np.array([b[0] for b in boxes], dtype=np.int64)
            lo, hi = outline.snap_boxes(np.array([b[1] for b in boxes]),
                                        np.array([b[2] for b in boxes]))
            ids = self.solid.add_boxes(lo, hi)
            self.solid_owner = _owned(self.solid_owner, ids, owners)
            for i, o in zip(ids.tolist(), owners.tolist()):
                self._pieces.setdefault(o, ([], []))[0].append(i)
            self._merged.update(owners.tolist())
            starts, ends, sources = outline.union_outline(lo, hi)
            if len(starts):
                walls = self.smooth.add_walls(starts, ends, one_sided=True)
                self.smooth_owner = _owned(self.smooth_owner, walls, np.full(len(walls), -1))
                for wall, s, e, faces in zip(walls.tolist(), starts, ends, sources):
                    along = 0 if s[1] == e[1] else 1
                    self._outline[wall] = (along, faces[:, 0].tolist(), faces[:, 1].tolist(),
                                           owners[faces[:, 2].astype(np.int64)].tolist())
        self._add_pieces([], polygons)

    def add(self, source_ids, family, geometry):
        """Grow the caller's obstacles ``source_ids`` of ``family`` (``geometry`` as
        :meth:`World2D.geometry` gives it), each piece on its own in both worlds."""
        boxes, polygons = [], []
        self._grow(source_ids, family, geometry, boxes, polygons)
        self._add_pieces(boxes, polygons)

    def _grow(self, source_ids, family, geometry, boxes, polygons):
        # Appends (owner, mins, maxs) to boxes and (owner, vertices) to polygons.
        h, sides = self.half_size, self._sides
        if family == "box":
            lo, hi = minkowski.grow_boxes(geometry["mins"], geometry["maxs"], h)
            boxes += zip(source_ids, lo, hi)
            return
        if family == "grid":
            for oid, table, size, origin in zip(source_ids, geometry["blocked"],
                                                geometry["cell_size"], geometry["origin"]):
                lo, hi = minkowski.grid_boxes(table, size, origin)
                lo, hi = minkowski.grow_boxes(lo, hi, h)
                boxes += zip([oid] * len(lo), lo, hi)
            return
        pieces = []
        if family == "circle":
            for oid, c, r in zip(source_ids, geometry["centers"], geometry["radii"]):
                pieces.append((oid, minkowski.grow_circle(c, float(r), h, sides)))
        elif family == "wall":
            for oid, a, b, c in zip(source_ids, geometry["starts"], geometry["ends"],
                                    geometry["clearance"]):
                pieces.append((oid, ("polygon", minkowski.grow_wall(a, b, float(c), h, sides))))
        else:
            for oid, v in zip(source_ids, geometry["vertices"]):
                pieces += [(oid, ("polygon", p)) for p in minkowski.grow_polygon(v, h)]
        for oid, piece in pieces:
            box = minkowski.as_box(piece[1]) if piece[0] == "polygon" else piece[1:]
            if box is None:
                polygons.append((oid, piece[1]))
            else:
                boxes.append((oid, box[0], box[1]))

    def _add_pieces(self, boxes, polygons):
        if boxes:
            owners = np.array([b[0] for b in boxes], dtype=np.int64)
            lo = np.array([b[1] for b in boxes])
            hi = np.array([b[2] for b in boxes])
            self._record(owners, self.solid.add_boxes(lo, hi), self.smooth.add_boxes(lo, hi))
        for oid, v in polygons:
            self._record([oid], [self.solid.add_polygon(v)], [self.smooth.add_polygon(v)])

    def _record(self, owners, solid_ids, smooth_ids):
        owners = np.asarray(owners, dtype=np.int64)
        self.solid_owner = _owned(self.solid_owner, solid_ids, owners)
        self.smooth_owner = _owned(self.smooth_owner, smooth_ids, owners)
        for o, a, b in zip(owners.tolist(), np.asarray(solid_ids).tolist(),
                           np.asarray(smooth_ids).tolist()):
            mine = self._pieces.setdefault(o, ([], []))
            mine[0].append(a)
            mine[1].append(b)

    def remove(self, source_ids):
        """Take out every grown piece of the caller's obstacles ``source_ids``.

        Returns False (and changes nothing) when one of them is merged into the
        outline: then only a rebuild takes it out.
        """
        ids = [int(o) for o in source_ids]
        if any(o in self._merged for o in ids):
            return False
        solid, smooth = [], []
        for o in ids:
            a, b = self._pieces.pop(o, ((), ()))
            solid += a
            smooth += b
        if solid:
            self.solid.remove(solid)
            self.solid_owner[solid] = -1
        if smooth:
            self.smooth.remove(smooth)
            self.smooth_owner[smooth] = -1
        return True

    def owner_at(self, smooth_id, point):
        """The caller's obstacle of a contact with ``smooth_id`` at ``point`` (on its surface)."""
        oid = int(self.smooth_owner[smooth_id])
        if oid >= 0:
            return oid
        # A wall of the outline: the box whose face holds the point.
        along, starts, ends, owners = self._outline[smooth_id]
        t = float(point[along])
        k = max(bisect.bisect_right(starts, t) - 1, 0)
        while k > 0 and ends[k] < t:      # faces overlap: an earlier one may reach t
            k -= 1
        return owners[k]


def _owned(owner, ids, owners):
    """``owner`` (grown id -> caller's id) extended to cover ``ids``, set to ``owners``."""
    ids = np.asarray(ids, dtype=np.int64)
    if not len(ids):
        return owner
    top = int(ids.max()) + 1
    if top > len(owner):
        owner = np.concatenate([owner, np.full(top - len(owner), -1, np.int64)])
    owner[ids] = owners
    return owner


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
        self._seen = self._state()

    @property
    def world(self):
        """The caller's :class:`~sidestep.World2D`."""
        return self._world

    def _state(self):
        # Ids are never reused, so (ids handed out, ids alive) changes with every
        # add and every remove: a grown world made at another state is stale.
        store = self._world._store
        return store.alive.size, len(self._world)

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
            g = GrownWorld(np.array(key), self._sides)
            g.build(self._world)
            self._grown[key] = g
            if len(self._grown) > CACHE_SIZES:
                self._grown.popitem(last=False)
        else:
            self._grown.move_to_end(key)
        return g

    # ---------------------------------------------------------------- moves
    def move(self, center, half_size, displacement, mode="slide"):
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

        Returns
        -------
        RectMove
        """
        g = self.grown(half_size)
        recovered = False
        if mode != "ghost" and (g.rest is None or g.rest != tuple(np.asarray(center).tolist())) \
                and g.solid.clearance(center) < 0.0:
            # Inside the outline's void (or a polygon piece): the outline's walls
            # only stop a point from crossing them, so the solid pieces say where
            # the nearest free spot is. (Skipped where the last slide ended: free.)
            center = g.solid.move(center, (0.0, 0.0), radius=0.0).position
            recovered = True
        m = g.smooth.move(center, displacement, radius=0.0, mode=mode)
        g.rest = tuple(m.position.tolist()) if mode == "slide" and m.stop != "stuck" else None
        ids, normals = _contacts(g, m.contacts)
        return RectMove(m.position, g.half_size, m.hit, m.stop, ids, normals,
                        recovered or m.recovered)

    def cast(self, center, half_size, displacement):
        """How far the rect can go along ``displacement`` before it touches something.

        Returns ``(fraction, obstacle)``: the fraction of ``displacement`` it
        travels before touching (1.0 and -1 when nothing is in the way; 0.0
        when it already touches or overlaps ``obstacle``).
        """
        g = self.grown(half_size)
        d = validation.point(displacement, "displacement")
        length = float(np.hypot(d[0], d[1]))
        if length == 0.0:
            return 1.0, -1
        hit = g.smooth.raycast(validation.point(center, "center"), d, max_distance=length)
        if not hit.hit:
            return 1.0, -1
        return hit.distance / length, g.owner_at(hit.obstacle, hit.point)

    def overlapping(self, center, half_size):
        """Ids (the caller's, sorted) of the obstacles a rect touches or overlaps.

        Exact where the grown world is (boxes, grids, polygons, walls without
        clearance); near circles and rounded walls it may name an obstacle the
        rect misses by up to 1.9 % of the radius.
        """
        g = self.grown(half_size)
        found = g.solid.overlapping(center, 0.0)
        return np.unique(g.solid_owner[found]) if len(found) else np.zeros(0, np.int64)

    # ------------------------------------------------------------ obstacles
    def add_boxes(self, mins, maxs):
        """Add boxes to the world and to every grown copy; returns their ids."""
        fresh = self._state() == self._seen
        ids = self._world.add_boxes(mins, maxs)
        if fresh:          # the world took them, so they are valid (n, 2) boxes
            geometry = {"mins": np.asarray(mins, np.float64).reshape(-1, 2),
                        "maxs": np.asarray(maxs, np.float64).reshape(-1, 2)}
            self._grow("box", ids, geometry)
        return ids

    def add_polygon(self, vertices):
        """Add a simple polygon to the world and to every grown copy; returns its id."""
        fresh = self._state() == self._seen
        oid = self._world.add_polygon(vertices)
        if fresh:
            self._grow("polygon", [oid], {"vertices": [np.asarray(vertices, np.float64)]})
        return oid

    def remove(self, ids):
        """Remove obstacles from the world and from every grown copy."""
        fresh = self._state() == self._seen
        self._world.remove(ids)
        if fresh:
            arr = np.atleast_1d(np.asarray(ids, dtype=np.int64))
            for key in list(self._grown):
                if not self._grown[key].remove(arr):      # merged: rebuilt when next used
                    del self._grown[key]
            self._seen = self._state()

    def _grow(self, family, ids, geometry):
        for g in self._grown.values():
            g.add(ids, family, geometry)
        self._seen = self._state()


def _half(value):
    """A rect's half extents as a hashable ``(hx, hy)`` of positive floats."""
    p = validation.point(value, "half_size")
    if not (p[0] > 0.0 and p[1] > 0.0):
        raise ValueError(f"half_size must be positive on both axes, got {p.tolist()}")
    return float(p[0]), float(p[1])


def _contacts(grown, contacts):
    """A grown move's contacts as the caller's ids (each once) and their first normals."""
    if not contacts:
        return (), np.zeros((0, 2))
    ids, normals = [], []
    for c in contacts:
        oid = grown.owner_at(c.obstacle, c.point)
        if oid not in ids:
            ids.append(oid)
            normals.append(c.normal)
    return tuple(ids), np.array(normals)
