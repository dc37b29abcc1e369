"""``check``'s overlaps and narrow gaps: capsule pairs found per region, decided for the level.

Two steps, so that a very large level can be checked in tiles
(:mod:`sidestep.commands.regions`) and still give exactly the findings of one
pass:

1. :func:`pair_rows` (per tile, needs the world): every pair of capsules
   (``World2D.segments``) closer than the agent's diameter whose place (the
   middle between the two surfaces, to :data:`TOUCH`) lies in the region,
   with the world queries that only the world can answer for it: is the gap
   open (nothing else in it) and is it a passage (room for the agent on both
   sides). Only the capsules near the region are searched.
2. :func:`decide_pairs` (once, on the rows of every tile, no world needed):
   per pair of obstacles the closest capsule pair decides between overlap,
   touching and narrow gap, as one pass over the whole level would. Rows are
   taken in the order of their capsules, whatever tile found them, so ties
   are broken the same way however the level was cut.
"""
from dataclasses import dataclass

import numpy as np

from ..kernels.pairs import (CROSSING_COLLINEAR, CROSSING_PROPER, CROSSING_TOUCH,
                             close_pairs_capsules)
from .findings import Finding, at, label
from .regions import EVERYWHERE

#: Surfaces closer than this (world units) touch; an overlap must be deeper
#: and a gap wider. Shared corners and touching circles come out of the
#: distance computation a few rounding steps from 0 (below 1e-12 for
#: coordinates up to 1e4); this leaves a wide margin above that.
TOUCH = 1e-9

#: Families that fill their inside: an obstacle can lie wholly inside them
#: without any surfaces crossing.
SOLID = ("box", "polygon", "grid")

#: Steps of the march along a gap's passage looking for room on each side.
PASSAGE_STEPS = 64


@dataclass(frozen=True)
class PairRows:
    """Capsule pairs closer than the agent's diameter, placed in one region.

    Every array has one entry per pair of capsules, in the order of the
    capsules (``first``, then ``second``).
    """

    #: ``(k,) int64``: the pair's capsules, rows of ``World2D.segments()``, ``first < second``.
    first: np.ndarray
    #: ``(k,) int64``
    second: np.ndarray
    #: ``(k,) int64``: the obstacles owning them, the smaller id first
    #: (``lo == hi``: an outline facing itself).
    lo: np.ndarray
    #: ``(k,) int64``
    hi: np.ndarray
    #: ``(k,) float64``: distance between the surfaces (negative: they overlap).
    sep: np.ndarray
    #: ``(k,) float64``: distance between the segments themselves.
    dist: np.ndarray
    #: ``(k, 2) float64``: the middle between the two surfaces: the place.
    middle: np.ndarray
    #: ``(k,) int64``: how the segments cross (``kernels.pairs.CROSSING_*``).
    crossing: np.ndarray
    #: ``(k,) bool``: nothing else in the gap (:func:`is_open`); False where not asked.
    open: np.ndarray
    #: ``(k,) bool``: room for the agent on both sides (:func:`passage`); False where not asked.
    passes: np.ndarray

    @staticmethod
    def join(parts):
        """The rows of several regions as one, in capsule order."""
        parts = list(parts)
        fields = PairRows.__dataclass_fields__
        joined = {name: np.concatenate([getattr(p, name) for p in parts]) for name in fields}
        order = np.lexsort((joined["second"], joined["first"]))
        return PairRows(**{name: value[order] for name, value in joined.items()})


def places(middle):
    """``(k, 2) float64``: each row's place, ``middle`` rounded to :data:`TOUCH`.

    Rows at one place (the mouth of a notch is the end of several edges) go
    to the same tile, so the tile that keeps one keeps them all.
    """
    return np.round(np.asarray(middle, float).reshape(-1, 2) / TOUCH) * TOUCH


def pair_rows(world, radius, region=EVERYWHERE):
    """Capsule pairs of ``world`` closer than ``2 * radius`` placed in ``region``, with their flags.

    Parameters
    ----------
    world : World2D
    radius : float >= 0
        The agent's radius (world units).
    region : Region
        Keep the pairs whose place (:func:`places`) lies in it.

    Returns
    -------
    PairRows
    """
    geometry, owner = world.segments()
    ids = owner.astype(np.int64)
    families = world_families(world, ids)
    reach = 2.0 * radius
    limit = max(reach, TOUCH)
    index = np.arange(len(geometry), dtype=np.int64)
    if not region.whole and len(geometry):
        # A pair placed in the region has each capsule's closest point within
        # limit / 2 + its thickness + the other's of the place: search the
        # capsules whose boxes come that near (and a little more for rounding).
        t = geometry[:, 4]
        lo = np.minimum(geometry[:, 0:2], geometry[:, 2:4]) - t[:, None]
        hi = np.maximum(geometry[:, 0:2], geometry[:, 2:4]) + t[:, None]
        pad = limit + 2.0 * t.max() + 1e-6 * (1.0 + np.abs(geometry[:, :4]).max())
        index = np.flatnonzero(region.near(np.column_stack([lo, hi]), pad))
    sub = np.ascontiguousarray(geometry[index])
    self_pairs = np.isin(families[index], ("polygon", "grid")) if len(index) \
        else np.zeros(0, bool)
    first, second, sep, dist, middle, crossing = close_pairs_capsules(
        sub, ids[index], self_pairs, reach, TOUCH)
    keep = region.holds(places(middle)) if not region.whole else np.ones(len(sep), bool)
    first, second = index[first[keep]], index[second[keep]]
    sep, dist, middle, crossing = sep[keep], dist[keep], middle[keep], crossing[keep]
    oa, ob = ids[first], ids[second]
    lo, hi = np.minimum(oa, ob), np.maximum(oa, ob)
    # The world's answers the decision needs: for every outline facing
    # itself, and for every pair row that can be a narrow gap (the decision
    # picks one row per pair of obstacles; asking for all keeps it world-free).
    ask = (lo == hi) | ((sep > TOUCH) & (sep < reach))
    opened = np.zeros(len(sep), bool)
    opened[ask] = is_open(world, middle[ask], sep[ask])
    passes = np.zeros(len(sep), bool)
    passes[opened] = passage(world, middle[opened], sep[opened], radius)
    return PairRows(first, second, lo, hi, sep, dist, middle, crossing, opened, passes)


def world_families(world, owner):
    """``(m,) object``: the family of each capsule's obstacle."""
    names = {int(i): world.family(int(i)) for i in np.unique(owner)}
    return np.array([names[int(o)] for o in owner], dtype=object)


def decide_pairs(rows, radius, families, same, edge, contained, inner):
    """Overlaps and narrow gaps of a level from all its :class:`PairRows`.

    Parameters
    ----------
    rows : PairRows
        Every region's rows, joined (:meth:`PairRows.join`).
    radius : float
    families : dict
        ``{id: family}``.
    same : set of (int, int)
        Id pairs of duplicates (reported already).
    edge : set of int
        Ids of the level's one-sided edge walls: they never overlap anything
        but another edge wall (narrow gaps to them are found as any other).
    contained : iterable of (int, int)
        ``(obstacle, solid obstacle)`` pairs where the first one's inner point
        lies in the second (both edge walls or neither).
    inner : dict
        ``{id: (x, y)}``: a point inside (or on) each obstacle.

    Returns
    -------
    overlaps : list of Finding
        Sorted by their obstacles.
    gaps : list of Finding
    closed : int
        Narrow gaps with no room for the agent on one side: counted, not listed.
    """
    reach = 2.0 * radius
    gaps = []
    closed = 0
    # 1. Outlines facing themselves: each place once, though several edge
    #    pairs meet there (the mouth of a notch is the end of both its sides
    #    and of the edges beside it).
    own = np.flatnonzero((rows.lo == rows.hi) & rows.open)
    if len(own):
        closed += _count_places(rows.lo[own[~rows.passes[own]]], rows.middle[own[~rows.passes[own]]])
        own = own[rows.passes[own]]
        _, once = np.unique(np.column_stack([rows.lo[own], np.round(rows.middle[own] / TOUCH)]),
                            axis=0, return_index=True)
        for k in own[np.sort(once)]:
            gaps.append(_gap(families, int(rows.lo[k]), int(rows.lo[k]), rows.sep[k],
                             rows.middle[k], radius))
    # 2. Pairs of obstacles: the closest capsule pair decides, and any crossing counts.
    pair = np.flatnonzero(rows.lo != rows.hi)
    lo, hi, sep = rows.lo[pair], rows.hi[pair], rows.sep[pair]
    order = pair[np.lexsort((sep, hi, lo))]
    lo, hi, sep, dist, middle, crossing = (rows.lo[order], rows.hi[order], rows.sep[order],
                                           rows.dist[order], rows.middle[order],
                                           rows.crossing[order])
    heads = np.flatnonzero(np.r_[True, (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])]) \
        if len(lo) else np.zeros(0, np.int64)
    worst = np.maximum.reduceat(crossing, heads) if len(heads) else np.zeros(0, np.int64)
    overlaps = {}
    candidates = []
    for k, cross in zip(heads, worst):
        a, b = int(lo[k]), int(hi[k])
        if (a, b) in same:
            continue
        # The level's edge drawn over the file's own border (a grid's last
        # cells, a Tiled wall on the map's side) is no overlap; a narrow gap
        # between the edge and an obstacle still is one.
        may_overlap = (a in edge) == (b in edge)
        walls = families[a] == "wall" and families[b] == "wall"
        if walls:
            # Walls meet at corners and T-junctions, and their bands merge at
            # a corner left open in the drawing: only crossing walls overlap.
            if cross in (CROSSING_PROPER, CROSSING_COLLINEAR):
                if may_overlap:
                    overlaps[(a, b)] = _overlap(families, a, b, sep[k], middle[k], cross)
                continue
            if dist[k] == 0.0 or cross == CROSSING_TOUCH or sep[k] <= TOUCH:
                continue
        elif sep[k] < -TOUCH or cross == CROSSING_PROPER:
            if may_overlap:
                overlaps[(a, b)] = _overlap(families, a, b, sep[k], middle[k], cross)
            continue
        elif sep[k] <= TOUCH:
            continue
        if sep[k] < reach:
            candidates.append(order[k])
    # 3. Obstacles inside a solid one: no surfaces meet, so step 2 cannot see it.
    inside = {}
    for oid, container in contained:
        key = (min(oid, container), max(oid, container))
        if key not in same and key not in overlaps:
            inside.setdefault(key, []).append(oid)
    for (a, b), held in inside.items():
        # Each inside the other (two boxes sharing a corner region): no
        # single one lies inside, the two just overlap.
        if len(held) == 1:
            oid = held[0]
            other = b if oid == a else a
            message = f"{families[oid]} {oid} lies inside {families[other]} {other}"
        else:
            oid = a
            message = f"{label(families, (a, b))} overlap"
        overlaps[(a, b)] = Finding("overlap", f"{message}, at {at(inner[oid])}",
                                   tuple(map(float, inner[oid])), (a, b),
                                   (families[a], families[b]), {"separation": None})
    # 4. Narrow gaps with open space between the two surfaces; one finding
    #    per place (a wall ending where two others meet is closest to both
    #    at the same point).
    if candidates:
        k = np.array(candidates)
        k = k[rows.open[k]]
        passes = rows.passes[k]
        closed += _count_places(rows.lo[k[~passes]], rows.middle[k[~passes]])
        seen = {tuple(np.round(g.position, 9)) for g in gaps}
        for k in k[passes]:
            a, b = int(rows.lo[k]), int(rows.hi[k])
            place = tuple(np.round(rows.middle[k], 9))
            if (a, b) not in overlaps and place not in seen:
                seen.add(place)
                gaps.append(_gap(families, a, b, rows.sep[k], rows.middle[k], radius))
    return sorted(overlaps.values(), key=lambda f: f.obstacles), gaps, closed


def _count_places(owners, middle):
    """How many distinct places (an obstacle and a spot) these gaps are at."""
    if not len(owners):
        return 0
    return len(np.unique(np.column_stack([owners, np.round(middle / TOUCH)]), axis=0))


def passage(world, middle, gap, radius):
    """Which gaps have walkable room on both sides: where an agent could want to pass.

    From each gap's middle, along the passage (across the line between its
    two surfaces) both ways, march by the world's clearance: a side has room
    once the clearance reaches ``radius`` (or the march goes on for
    :data:`PASSAGE_STEPS` steps without closing, which keeps the gap); it is
    closed when the clearance falls below a quarter of the gap (the back of
    a notch, a shut door's frame, the void behind the level's edge). Gaps
    closed on either side (notches, door pockets, the space between
    back-to-back walls) are no passages. Each gap's answer is its own: the
    same whichever others are asked with it.
    """
    middle = np.asarray(middle, float).reshape(-1, 2)
    if not len(middle):
        return np.zeros(0, bool)
    normal = world.nearest(middle).normal
    along = np.column_stack([-normal[:, 1], normal[:, 0]])
    keep = np.ones(len(middle), bool)
    for way in (1.0, -1.0):
        t = np.zeros(len(middle))
        state = np.zeros(len(middle), np.int8)      # 0 marching, 1 room, -1 closed
        for _ in range(PASSAGE_STEPS):
            live = np.flatnonzero(state == 0)
            if not len(live):
                break
            c = world.clearance(middle[live] + (way * t[live])[:, None] * along[live])
            state[live[c >= radius]] = 1
            state[live[(c < radius) & (c < 0.25 * gap[live])]] = -1
            t[live] += np.maximum(c, 0.25 * gap[live])
        keep &= state >= 0
    return keep


def is_open(world, middle, gap):
    """Which gaps have nothing else in them: the world's clearance at the middle is half the gap.

    A gap with its middle inside an obstacle is no passage (the two sides of
    a thin blocked column), and one with a third obstacle nearer than its two
    sides is not where the passage is narrowest: the third obstacle makes a
    narrower gap with one of them, found in its own right.
    """
    # Slack for rounding: the kernel's middle and the world's clearance round differently.
    return np.atleast_1d(world.clearance(np.asarray(middle, float).reshape(-1, 2))) \
        >= 0.5 * gap - TOUCH - 1e-9 * np.abs(gap)


def _overlap(families, a, b, separation, where, crossing):
    """An overlap finding for obstacles ``a`` and ``b``."""
    if crossing in (CROSSING_PROPER, CROSSING_COLLINEAR):
        how = "cross" if crossing == CROSSING_PROPER else "lie on top of each other"
        message = f"{label(families, (a, b))} {how} at {at(where)}"
    else:
        message = f"{label(families, (a, b))} overlap by {-separation:.4g} at {at(where)}"
    return Finding("overlap", message, tuple(map(float, where)), (a, b),
                   (families[a], families[b]), {"separation": float(separation)})


def _gap(families, a, b, gap, where, radius):
    """A narrow-gap finding between ``a`` and ``b`` (the same id for an outline facing itself)."""
    what = f"{families[a]} {a} faces itself" if a == b else label(families, (a, b))
    message = (f"{what} {gap:.4g} apart at {at(where)}: an agent of radius {radius:g} "
               f"needs {2 * radius:.4g}")
    return Finding("narrow_gap", message, tuple(map(float, where)), (a, b),
                   (families[a], families[b]), {"gap": float(gap)})
