"""A world grown by one rectangle size: the worlds a rect's centre moves in, and whose pieces are whose.

:class:`~sidestep.adapters.rects.RectWorld` keeps one :class:`GrownWorld` per
rect size. Every obstacle of the caller's world grows into pieces
(:mod:`~sidestep.adapters.minkowski`): boxes and convex or simple polygons.
They go into two :class:`~sidestep.World2D`:

``smooth``, where the rect's centre moves as a point
    The box pieces of the obstacles that stay put, merged into the outline of
    their union as one-sided walls (:mod:`~sidestep.adapters.outline`: no
    seams where tiles meet; one outline per layer, so a mask that leaves a
    layer out leaves its walls out); every polygon piece; and the pieces of
    *moving* obstacles (platforms), each a box or polygon of its own, so that
    moving one never rebuilds the outline.
``solid``, every piece of the obstacles that stay put, as solid boxes and polygons
    Where a rect that starts inside the outline (behind its one-sided walls,
    where ``smooth`` only keeps it from crossing them) is moved out, and what
    a rect overlaps.
"""
import bisect

import numpy as np

from .. import layers, tolerances
from ..world import World2D
from . import minkowski, outline


#: The rect's centre moves as a disc of this fraction of the rect's smaller half
#: extent, not as a point, in worlds whose skin is :data:`SKIN_FRACTION` of that
#: radius. A point (or a small disc) gliding along a face within the skin meets
#: the corner at the face's end at a slant: the normal from the corner to an
#: agent beside it leans about ``sqrt(2 * skin / radius)`` off the face (60
#: degrees for a point), and collide-and-slide turns the rest of the move along
#: it. A unit rect falling along a wall was thrown 1.9 units sideways where the
#: wall ended as a point, 1.5 % of its width with this padding and the default
#: skin, 0.05 % with both.
PADDING = 1e-3

#: The grown worlds' skin as a fraction of the disc's radius (at least 64 float
#: steps of the largest coordinate: see :func:`skin_for`).
SKIN_FRACTION = 1e-6


def skin_for(radius, extent):
    """The skin of a grown world: :data:`SKIN_FRACTION` of ``radius``, but never below
    64 float64 steps of the world's largest coordinate ``extent`` (nor above the
    default :data:`~sidestep.tolerances.SKIN`).

    Examples
    --------
    >>> skin_for(0.016, 2000.0)        # a 32 px rect in a 2000 px level
    1.6e-08
    """
    floor = 64.0 * np.finfo(np.float64).eps * (1.0 + abs(extent))
    return float(min(max(SKIN_FRACTION * radius, floor), tolerances.SKIN))


class GrownWorld:
    """The caller's world grown by a rect of ``half_size``; ``extent`` is the largest
    coordinate it will see (it sets the skin, :func:`skin_for`).

    Attributes
    ----------
    smooth, solid : World2D
        See the module notes.
    smooth_owner, solid_owner : (m,) int64
        For each id of those worlds, the caller's obstacle it grew from
        (-1 for the outline's walls and for removed ids).
    half_size : (2,) float64
    radius : float
        The radius of the disc the rect's centre moves as (:data:`PADDING`
        times the smaller half extent): the gap a slide leaves between the
        rect and what it touches, plus the skin.
    rest : tuple of two floats or None
        Where the last slide in ``smooth`` ended (so outside every piece).
    """

    def __init__(self, half_size, sides, extent=0.0):
        self.half_size = half_size
        self.radius = PADDING * float(min(half_size))
        skin = skin_for(self.radius, extent + float(max(half_size)))
        self.smooth = World2D(skin=skin)
        self.solid = World2D(skin=skin)
        self.smooth_owner = np.zeros(0, dtype=np.int64)
        self.solid_owner = np.zeros(0, dtype=np.int64)
        self.rest = None
        self._sides = sides
        self._pieces = {}             # caller's id -> ([solid ids], [smooth ids])
        self._merged = set()          # caller's ids whose boxes are in the outline
        self._moving = set()          # caller's ids whose pieces are in smooth alone
        self._outline = {}            # outline wall id -> (axis along it, from, to, owners)
        self._layer = {}              # caller's id -> its layer
        self._bodies = {}             # caller's body -> [body of smooth, angle grown for]
        #: Bits of the layers some piece is on.
        self.used = 0
        #: Pieces removed from ``smooth`` since it was built (a turning body leaves its
        #: old pieces there, dead): the owner drops a grown world that gathered many.
        self.dead = 0

    # -------------------------------------------------------------- building
    def build(self, world, moving=(), bodies=()):
        """Grow every obstacle of ``world``; the box pieces of those not ``moving`` merged.

        ``bodies`` are the world's rigid bodies (:class:`Body` records); their
        obstacles grow from the records (their own frame and pose), not from
        the world's geometry (a turned box's there is its bounds).
        """
        still_boxes, boxes, polygons, moving_polygons = [], [], [], []
        moving = set(moving)
        ids = world.ids
        self._layer.update(zip(ids.tolist(), world.layers(ids).tolist()))
        in_body = {int(i) for b in bodies for i in b.ids}
        for family in ("box", "grid", "circle", "wall", "polygon"):
            geometry = world.geometry(family)
            if in_body:
                geometry = subset(geometry, [int(i) not in in_body for i in geometry["ids"]])
            if not len(geometry["ids"]):
                continue
            b, p = [], []
            self._grow(geometry["ids"], family, geometry, b, p)
            for piece in b:
                (boxes if piece[0] in moving else still_boxes).append(piece)
            for piece in p:
                (moving_polygons if piece[0] in moving else polygons).append(piece)
        for layer in sorted({self._layer[b[0]] for b in still_boxes}):
            self._merge([b for b in still_boxes if self._layer[b[0]] == layer], layer)
        self._add_pieces([], polygons, moving=False)
        self._add_pieces(boxes, moving_polygons, moving=True)
        for body in bodies:
            self._grow_body(body)

    def add(self, source_ids, family, geometry, moving=False, layer=0):
        """Grow the caller's obstacles ``source_ids`` of ``family`` (``geometry`` as
        :meth:`World2D.geometry` gives it), each piece on its own, on ``layer``
        (one layer, or one per obstacle)."""
        source = np.asarray(source_ids, dtype=np.int64).reshape(-1)
        self._layer.update(zip(source.tolist(), np.broadcast_to(layer, source.shape).tolist()))
        boxes, polygons = [], []
        self._grow(source_ids, family, geometry, boxes, polygons)
        self._add_pieces(boxes, polygons, moving)

    # ---------------------------------------------------------------- bodies
    def add_body(self, body):
        """Make the pieces of ``body``'s obstacles (a :class:`Body` at pose identity,
        added as moving) a body of ``smooth``."""
        pieces = [i for o in body.ids for i in self._pieces[int(o)][1]]
        self._bodies[body.body] = [self.smooth.add_body(pieces), 0.0]

    def pose(self, bodies):
        """Put the bodies (:class:`Body` records, poses already set) where their records say."""
        still, positions = [], []
        for body in bodies:
            mine = self._bodies[body.body]
            if mine[1] == body.angle:
                still.append(mine[0])
                positions.append(body.position)
            else:                         # turned: its sum at the new angle
                for o in body.ids:
                    smooth = self._pieces.pop(int(o), ((), ()))[1]
                    if smooth:
                        self.smooth.remove(smooth)
                        self.smooth_owner[smooth] = -1
                        self.dead += len(smooth)
                self._grow_body(body)
        if still:
            self.smooth.set_poses(still, positions, 0.0)

    def _grow_body(self, body):
        boxes, polygons = [], []
        for family, geometry in turned(body.frame, body.angle):
            self._grow(geometry["ids"], family, geometry, boxes, polygons)
        pieces = self._add_pieces(boxes, polygons, moving=True)
        mine = self.smooth.add_body(pieces)
        self.smooth.set_pose(mine, body.position, 0.0)
        self._bodies[body.body] = [mine, body.angle]

    def _grow(self, source_ids, family, geometry, boxes, polygons):
        # Appends (owner, mins, maxs) to boxes and (owner, vertices) to polygons.
        h, sides = self.half_size, self._sides
        if family == "box":
            lo, hi = minkowski.grow_boxes(geometry["mins"], geometry["maxs"], h)
            boxes += zip(np.asarray(source_ids).tolist(), lo, hi)
            return
        if family == "grid":
            for oid, table, size, origin in zip(source_ids, geometry["blocked"],
                                                geometry["cell_size"], geometry["origin"]):
                lo, hi = minkowski.grid_boxes(table, size, origin)
                lo, hi = minkowski.grow_boxes(lo, hi, h)
                boxes += zip([int(oid)] * len(lo), lo, hi)
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
                polygons.append((int(oid), piece[1]))
            else:
                boxes.append((int(oid), box[0], box[1]))

    def _merge(self, boxes, layer):
        # The still boxes of one layer: solid as they are, smooth as their union's outline.
        owners = np.array([b[0] for b in boxes], dtype=np.int64)
        lo, hi = outline.snap_boxes(np.array([b[1] for b in boxes]),
                                    np.array([b[2] for b in boxes]))
        self.used |= 1 << layer
        ids = self.solid.add_boxes(lo, hi, layer=layer)
        self.solid_owner = _owned(self.solid_owner, ids, owners)
        for i, o in zip(ids.tolist(), owners.tolist()):
            self._pieces.setdefault(o, ([], []))[0].append(i)
        self._merged.update(owners.tolist())
        starts, ends, sources = outline.union_outline(lo, hi)
        if not len(starts):
            return
        walls = self.smooth.add_walls(starts, ends, one_sided=True, layer=layer)
        self.smooth_owner = _owned(self.smooth_owner, walls, np.full(len(walls), -1))
        for wall, s, e, faces in zip(walls.tolist(), starts, ends, sources):
            along = 0 if s[1] == e[1] else 1
            self._outline[wall] = (along, faces[:, 0].tolist(), faces[:, 1].tolist(),
                                   owners[faces[:, 2].astype(np.int64)].tolist())

    def _add_pieces(self, boxes, polygons, moving):
        # Returns the pieces' ids in smooth.
        if moving:
            self._moving.update(b[0] for b in boxes)
            self._moving.update(p[0] for p in polygons)
        out = []
        if boxes:
            owners = [b[0] for b in boxes]
            layer = np.array([self._layer[o] for o in owners], dtype=np.int64)
            self.used |= int(np.bitwise_or.reduce(np.left_shift(1, layer)))
            lo = np.array([b[1] for b in boxes])
            hi = np.array([b[2] for b in boxes])
            solid = [] if moving else self.solid.add_boxes(lo, hi, layer=layer)
            smooth = self.smooth.add_boxes(lo, hi, layer=layer)
            self._record(owners, solid, smooth)
            out += smooth.tolist()
        for oid, v in polygons:
            layer = self._layer[oid]
            self.used |= 1 << layer
            solid = [] if moving else [self.solid.add_polygon(v, layer=layer)]
            smooth = self.smooth.add_polygon(v, layer=layer)
            self._record([oid], solid, [smooth])
            out.append(smooth)
        return out

    def _record(self, owners, solid_ids, smooth_ids):
        owners = np.asarray(owners, dtype=np.int64)
        solid_ids = np.asarray(solid_ids, dtype=np.int64)
        smooth_ids = np.asarray(smooth_ids, dtype=np.int64)
        if len(solid_ids):
            self.solid_owner = _owned(self.solid_owner, solid_ids, owners)
        self.smooth_owner = _owned(self.smooth_owner, smooth_ids, owners)
        for k, o in enumerate(owners.tolist()):
            mine = self._pieces.setdefault(o, ([], []))
            if len(solid_ids):
                mine[0].append(int(solid_ids[k]))
            mine[1].append(int(smooth_ids[k]))

    def remove(self, source_ids):
        """Take out every grown piece of the caller's obstacles ``source_ids``.

        Returns False (and changes nothing) when one of them is merged into the
        outline: only a rebuild takes it out.
        """
        ids = [int(o) for o in source_ids]
        if any(o in self._merged for o in ids):
            return False
        solid, smooth = [], []
        for o in ids:
            self._moving.discard(o)
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

    def hide(self, source_ids, layer):
        """Put every piece of the caller's obstacles ``source_ids`` on ``layer``
        (a query whose mask leaves it out passes through them); :meth:`show` undoes it."""
        self._relayer(source_ids, lambda o: layer)

    def show(self, source_ids):
        """Put the pieces of ``source_ids`` back on their obstacles' layers."""
        self._relayer(source_ids, self._layer.__getitem__)

    def _relayer(self, source_ids, layer_of):
        for o in source_ids:
            solid, smooth = self._pieces.get(int(o), ((), ()))
            if len(solid):
                self.solid.set_layer(solid, layer_of(int(o)))
            if len(smooth):
                self.smooth.set_layer(smooth, layer_of(int(o)))

    # ------------------------------------------------------------- queries
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

    def overlapping(self, center, mask=layers.ALL):
        """The caller's ids (sorted) of what a rect centred at ``center`` touches or overlaps."""
        found = [self.solid_owner[self.solid.overlapping(center, 0.0, mask=mask)]]
        pieces = self.smooth.overlapping(center, 0.0, mask=mask)
        found.append(self.smooth_owner[pieces])       # moving pieces (and polygons again)
        out = np.unique(np.concatenate(found))
        return out[out >= 0]

    def first_free(self, start, places, mask=layers.ALL):
        """The first of ``places (k, 2)`` (rect centres) where the rect overlaps nothing
        (touching is free) and that it reaches from ``start`` in a straight line
        without crossing anything (ending flush on a surface counts); -1 if none."""
        worlds = [w for w in ((self.solid, self.smooth) if self._moving else (self.solid,))
                  if len(w)]
        if not worlds:
            return 0 if len(places) else -1
        clear = np.min([w.clearance(np.vstack([start, places]), mask=mask) for w in worlds],
                       axis=0)
        slack = 1e-12 * (1.0 + float(np.abs(start).max()))
        for k in np.flatnonzero(clear[1:] >= 0.0).tolist():
            step = places[k] - start
            length = float(np.hypot(step[0], step[1]))
            if length <= clear[0]:          # within the free disc round the start
                return k
            if all(not hit.hit or hit.distance >= length - slack
                   for hit in (w.raycast(start, step, max_distance=length, mask=mask)
                               for w in worlds)):
                return k
        return -1


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


class Body:
    """A rigid body of the caller's world as the grown worlds grow it.

    Attributes
    ----------
    body : int
        Its id in the caller's world.
    ids : (n,) int64
        Its obstacles (the caller's ids).
    frame : list of (family, geometry)
        Its obstacles in its own frame (their coordinates when it was made),
        as :meth:`~sidestep.World2D.geometry` gives a family.
    position : (2,) float64
    angle : float
        Its pose now (radians, counter-clockwise).
    """

    def __init__(self, body, ids, frame):
        self.body = body
        self.ids = np.asarray(ids, dtype=np.int64)
        self.frame = frame
        self.position = np.zeros(2)
        self.angle = 0.0


def subset(geometry, keep):
    """A family's ``geometry`` (as :meth:`World2D.geometry` gives it) for the obstacles
    where ``keep`` (a sequence of bools, one per id) is true."""
    keep = np.asarray(keep, dtype=bool).reshape(-1)
    return {k: ([x for x, y in zip(v, keep) if y] if isinstance(v, list) else v[keep])
            for k, v in geometry.items()}


def turned(frame, angle):
    """A body's ``frame`` (``(family, geometry)`` pairs) turned by ``angle`` about its origin.

    At angle 0 it is the frame itself; turned, boxes and grids (their blocked
    cells merged into rectangles) become polygons, the rest keep their family.
    """
    if angle == 0.0:
        return frame
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]])

    def turn(points):
        return np.asarray(points, dtype=np.float64) @ rot.T

    out, polygon_ids, polygons = [], [], []
    for family, g in frame:
        if family == "circle":
            out.append((family, {"ids": g["ids"], "centers": turn(g["centers"]),
                                 "radii": g["radii"]}))
        elif family == "wall":
            out.append((family, dict(g, starts=turn(g["starts"]), ends=turn(g["ends"]))))
        elif family == "polygon":
            polygon_ids += g["ids"].tolist()
            polygons += [turn(v) for v in g["vertices"]]
        elif family == "box":
            for oid, lo, hi in zip(g["ids"].tolist(), g["mins"], g["maxs"]):
                polygon_ids.append(oid)
                polygons.append(turn(_corners(lo, hi)))
        else:
            for oid, table, size, origin in zip(g["ids"].tolist(), g["blocked"],
                                                g["cell_size"], g["origin"]):
                lo, hi = minkowski.grid_boxes(table, size, origin)
                for a, b in zip(lo, hi):
                    polygon_ids.append(oid)
                    polygons.append(turn(_corners(a, b)))
    if polygons:
        out.append(("polygon", {"ids": np.array(polygon_ids, dtype=np.int64),
                                "vertices": polygons}))
    return out


def _corners(lo, hi):
    """A box's corners, counter-clockwise."""
    return np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
