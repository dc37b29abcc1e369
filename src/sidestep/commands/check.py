"""``sidestep check``: what a level designer should fix before shipping a level.

For an agent of a given radius, :func:`check` lists

- ``degenerate`` obstacles: circles of radius 0, walls shorter than
  :data:`DEGENERATE_LENGTH`, boxes thinner than it, polygons of almost no area
  (:data:`DEGENERATE_AREA`), grids with no blocked cell;
- ``duplicate`` obstacles: same family, same parameters (a wall drawn either
  way round, a polygon from any corner in either winding);
- ``overlap``: obstacles drawn into each other (surfaces overlapping, outlines
  crossing, or one inside a solid box, polygon or grid);
- ``narrow_gap``: two obstacles whose surfaces are closer than the agent's
  diameter but do not touch, with free space between them, a doorway the
  agent cannot pass; also a polygon's or grid's outline facing itself that
  close (a one-cell corridor of a tile map narrower than the agent);
- ``blocked_spawn``: spawn points, and scenario starts and goals, where the
  agent does not fit (``clearance < radius``).

Walls are joined the way levels join them: walls that meet at a corner or a
T-junction, or whose clearance bands merge, are not findings; walls that cross
(an X) or lie on top of each other are. Walls have no inside, so the four
walls of a pillar thinner than the agent show up as a gap across the pillar.

>>> import sidestep
>>> from sidestep.commands.check import check
>>> world = sidestep.World2D()
>>> jambs = world.add_walls([(0, 0), (0.5, 0)], [(0, -3), (0.5, -3)])   # a door 0.5 wide
>>> [f.kind for f in check(world, 0.3).findings]          # an agent 0.6 across: stuck
['narrow_gap']
>>> check(world, 0.2).ok                                  # 0.4 across: passes
True
"""
from dataclasses import dataclass, field

import numpy as np

from ..kernels.pairs import (CROSSING_COLLINEAR, CROSSING_PROPER, CROSSING_TOUCH,
                             close_pairs_capsules)
from ..kernels.polygon import signed_area_polygon
from .starts import start_overlaps

#: The kinds of finding, in the order a report lists them.
KINDS = ("degenerate", "duplicate", "overlap", "narrow_gap", "blocked_spawn")

#: Surfaces closer than this (world units) touch; an overlap must be deeper
#: and a gap wider. Shared corners and touching circles come out of the
#: distance computation a few rounding steps from 0 (below 1e-12 for
#: coordinates up to 1e4); this leaves a wide margin above that.
TOUCH = 1e-9

#: Walls shorter, or boxes thinner, than this (world units) are degenerate:
#: the world accepts them (only exactly zero length is refused) but an agent
#: sees a post or a sliver, not what the designer drew.
DEGENERATE_LENGTH = 1e-9

#: A polygon whose area is below this share of the square of its longest
#: extent is degenerate: its corners (nearly) lie on a line. (The share of its
#: bounding box would miss a sliver along an axis, whose box is a sliver too.)
DEGENERATE_AREA = 1e-12

#: Families that fill their inside: an obstacle can lie wholly inside them
#: without any surfaces crossing.
SOLID = ("box", "polygon", "grid")


@dataclass(frozen=True)
class Finding:
    """One thing a level designer should look at."""

    #: One of :data:`KINDS`.
    kind: str
    #: One line, for people.
    message: str
    #: ``(x, y)``: where to look.
    position: tuple
    #: Ids of the obstacles involved (one id twice for an outline facing itself).
    obstacles: tuple = ()
    #: Their families, in the same order.
    families: tuple = ()
    #: Figures for machines: ``gap`` (narrow_gap), ``separation`` (overlap,
    #: negative), ``clearance``, ``point`` and ``index`` (blocked_spawn), ``size``
    #: (degenerate).
    details: dict = field(default_factory=dict)

    def as_dict(self):
        """The finding as JSON-ready plain types."""
        out = {"kind": self.kind, "obstacles": [int(i) for i in self.obstacles],
               "families": list(self.families),
               "position": [float(self.position[0]), float(self.position[1])]}
        out.update(self.details)
        out["message"] = self.message
        return out


@dataclass(frozen=True)
class Report:
    """What :func:`check` found in a level."""

    #: The level's name.
    name: str
    #: The agent radius checked for.
    radius: float
    #: How many obstacles the world holds.
    obstacles: int
    #: Every :class:`Finding`, grouped by kind in :data:`KINDS` order.
    findings: tuple
    #: The loader's own non-fatal problems (``Level.problems``), one line each.
    problems: tuple = ()
    #: Narrow gaps left out of the findings: no room for the agent on one
    #: side (notches, shut doors' pockets, back-to-back walls), so no passage.
    closed_gaps: int = 0

    @property
    def ok(self):
        """True when nothing was found (loader problems do not count)."""
        return not self.findings

    def counts(self):
        """``{kind: number of findings}`` for every kind in :data:`KINDS`."""
        return {kind: sum(f.kind == kind for f in self.findings) for kind in KINDS}

    def as_dict(self):
        """The report as JSON-ready plain types."""
        return {"level": self.name, "radius": self.radius, "obstacles": self.obstacles,
                "ok": self.ok, "counts": self.counts(),
                "findings": [f.as_dict() for f in self.findings],
                "problems": list(self.problems), "closed_gaps": self.closed_gaps}

    def format(self, limit=20):
        """The report as text: at most ``limit`` lines per kind, then a summary line.

        Examples
        --------
        >>> print(Report("empty", 0.5, 0, ()).format())
        empty: 0 obstacles, agent radius 0.5
        no problems found
        """
        lines = [f"{self.name}: {self.obstacles} obstacles, agent radius {self.radius:g}"]
        for problem in self.problems:
            lines.append(f"{'file':<14}{problem}")
        counts = self.counts()
        for kind in KINDS:
            found = [f for f in self.findings if f.kind == kind]
            lines += [f"{kind:<14}{f.message}" for f in found[:limit]]
            if len(found) > limit:
                lines.append(f"{kind:<14}... and {len(found) - limit} more (--json lists all)")
        if self.closed_gaps:
            lines.append(f"{'(not listed)':<14}{self.closed_gaps} narrow gap"
                         f"{'' if self.closed_gaps == 1 else 's'} with no room for the agent "
                         "on one side (notches, door pockets, back-to-back walls): no passage")
        if self.ok:
            lines.append("no problems found")
        else:
            parts = [f"{n} {kind.replace('_', ' ')}" for kind, n in counts.items() if n]
            n = len(self.findings)
            lines.append(f"{n} problem{'' if n == 1 else 's'}: {', '.join(parts)}")
        return "\n".join(lines)


def check(level, radius, *, progress=None):
    """Check a level for an agent of ``radius``.

    Parameters
    ----------
    level : Level or World2D
        A :class:`~sidestep.level.Level` (its spawns and scenario end points
        are checked too) or a bare world.
    radius : float >= 0
        The agent's radius (world units).
    progress : callable, optional
        Called as ``progress(done, total)`` while obstacles are checked for
        containment, the one step that loops in Python.

    Returns
    -------
    Report

    Examples
    --------
    A tree planted twice, and a spawn point inside a crate:

    >>> import sidestep
    >>> from sidestep.level import Level
    >>> world = sidestep.World2D()
    >>> trees = world.add_circles([(5, 5), (5, 5)], 1.0)
    >>> crate = world.add_boxes([(0, 0)], [(2, 2)])
    >>> report = check(Level(world, np.array([[1.0, 1.0]]), name="yard"), 0.25)
    >>> [f.kind for f in report.findings]
    ['duplicate', 'blocked_spawn']
    >>> report.findings[1].message
    'spawn 0 at (1, 1) is inside box 2'
    """
    radius = float(radius)
    if not (np.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    world = getattr(level, "world", level)
    name = getattr(level, "name", "") or "level"
    inner = _inner_points(world)
    families = {int(i): world.family(int(i)) for i in world.ids}
    findings = _degenerate(world, inner)
    duplicates, same = _duplicates(world, inner, families)
    findings += duplicates
    # The level's edge (one-sided walls) lies along what the file draws at its
    # border (a grid's last cells, a Tiled wall on the map's side): meeting it
    # is no designer's mistake, so an edge wall and anything but another edge
    # wall are never reported as overlapping.
    walls = world.geometry("wall")
    edge = set(walls["ids"][walls["one_sided"]].tolist())
    overlaps, gaps, closed = _pairs(world, radius, families, same, inner, progress, edge)
    findings += overlaps + gaps
    findings += _blocked_points(world, level, radius, families)
    return Report(name, radius, len(world), tuple(findings),
                  tuple(getattr(level, "problems", ()) or ()), closed)


def _label(families, ids):
    """``"walls 3 and 7"``, ``"wall 3 and circle 7"``, ``"circles 1, 2 and 5"``."""
    fams = [families[i] for i in ids]
    if len(set(fams)) == 1 and len(ids) > 1:
        numbers = [str(i) for i in ids]
        plural = fams[0] + ("es" if fams[0].endswith("x") else "s")
        return f"{plural} {', '.join(numbers[:-1])} and {numbers[-1]}"
    return " and ".join(f"{fam} {i}" for fam, i in zip(fams, ids))


def _at(point):
    """``"(x, y)"`` with a few significant digits."""
    return f"({point[0]:.4g}, {point[1]:.4g})"


def _inner_points(world):
    """``{id: (x, y)}``: a point inside (or on) each obstacle, to locate it and test containment.

    Circles: the centre; walls: the segment's middle; boxes: the centre;
    polygons: the first of the vertices' mean and the centroids of corner
    triangles that the polygon itself covers; grids: the centre of the first
    blocked cell (the table's centre when none is).
    """
    out = {}
    g = world.geometry("circle")
    out.update(zip(g["ids"].tolist(), map(tuple, g["centers"])))
    g = world.geometry("wall")
    out.update(zip(g["ids"].tolist(), map(tuple, 0.5 * (g["starts"] + g["ends"]))))
    g = world.geometry("box")
    out.update(zip(g["ids"].tolist(), map(tuple, 0.5 * (g["mins"] + g["maxs"]))))
    g = world.geometry("polygon")
    for oid, v in zip(g["ids"].tolist(), g["vertices"]):
        tries = [v.mean(axis=0)] + [(v[i - 1] + v[i] + v[(i + 1) % len(v)]) / 3
                                    for i in range(len(v))]
        out[oid] = tuple(next((p for p in tries if oid in world.overlapping(p)), v[0]))
    g = world.geometry("grid")
    for oid, table, size, origin in zip(g["ids"].tolist(), g["blocked"], g["cell_size"],
                                        g["origin"]):
        cells = np.argwhere(table)
        r, c = cells[0] if len(cells) else (0.5 * (table.shape[0] - 1), 0.5 * (table.shape[1] - 1))
        out[oid] = (origin[0] + (c + 0.5) * size, origin[1] + (r + 0.5) * size)
    return out


def _degenerate(world, inner):
    """Findings for obstacles that are not what they look like."""
    found = []

    def add(oid, family, size, why):
        found.append(Finding("degenerate", f"{family} {oid} at {_at(inner[oid])} {why}",
                             inner[oid], (oid,), (family,), {"size": float(size)}))

    g = world.geometry("circle")
    for oid, r in zip(g["ids"].tolist(), g["radii"]):
        if r == 0.0:
            add(oid, "circle", r, "has radius 0 (a point post)")
    g = world.geometry("wall")
    lengths = np.hypot(*(g["ends"] - g["starts"]).T)
    for oid, length in zip(g["ids"].tolist(), lengths):
        if length < DEGENERATE_LENGTH:
            add(oid, "wall", length, f"is only {length:.3g} long")
    g = world.geometry("box")
    thin = np.min(g["maxs"] - g["mins"], axis=1) if len(g["ids"]) else np.zeros(0)
    for oid, t in zip(g["ids"].tolist(), thin):
        if t < DEGENERATE_LENGTH:
            add(oid, "box", t, f"is only {t:.3g} thick")
    g = world.geometry("polygon")
    for oid, v in zip(g["ids"].tolist(), g["vertices"]):
        area = abs(signed_area_polygon(v))
        if area < DEGENERATE_AREA * np.ptp(v, axis=0).max() ** 2:
            add(oid, "polygon", area, f"has almost no area ({area:.3g})")
    g = world.geometry("grid")
    for oid, table in zip(g["ids"].tolist(), g["blocked"]):
        if not table.any():
            add(oid, "grid", 0.0, "has no blocked cell")
    return found


def _duplicates(world, inner, families):
    """Findings for groups of identical obstacles, and the set of id pairs in such groups."""
    groups = {}
    g = world.geometry("circle")
    for oid, c, r in zip(g["ids"].tolist(), g["centers"], g["radii"]):
        groups.setdefault(("circle", c[0], c[1], r), []).append(oid)
    g = world.geometry("wall")
    for oid, a, b, t, edge in zip(g["ids"].tolist(), g["starts"], g["ends"], g["clearance"],
                                  g["one_sided"]):
        # A wall is the same drawn from either end; a level's edge (one-sided)
        # drawn where the file also has a wall is the edge, not a duplicate.
        ends = sorted([tuple(a), tuple(b)])
        groups.setdefault(("wall", *ends[0], *ends[1], t, bool(edge)), []).append(oid)
    g = world.geometry("box")
    for oid, lo, hi in zip(g["ids"].tolist(), g["mins"], g["maxs"]):
        groups.setdefault(("box", *lo, *hi), []).append(oid)
    g = world.geometry("polygon")
    for oid, v in zip(g["ids"].tolist(), g["vertices"]):
        groups.setdefault(("polygon", _ring_key(v)), []).append(oid)
    g = world.geometry("grid")
    for oid, table, size, origin in zip(g["ids"].tolist(), g["blocked"], g["cell_size"],
                                        g["origin"]):
        groups.setdefault(("grid", table.shape, np.packbits(table).tobytes(), size,
                           *origin), []).append(oid)
    found, same = [], set()
    for ids in groups.values():
        if len(ids) < 2:
            continue
        same.update((a, b) for a in ids for b in ids if a < b)
        fam = families[ids[0]]
        found.append(Finding("duplicate", f"{_label(families, ids)} are identical, at "
                             f"{_at(inner[ids[0]])}", inner[ids[0]], tuple(ids),
                             (fam,) * len(ids)))
    return found, same


def _ring_key(vertices):
    """The same key for a closed polygon ring whatever its first corner and winding."""
    rings = [vertices, vertices[::-1]]
    keys = []
    for ring in rings:
        first = min(range(len(ring)), key=lambda i: tuple(ring[i]))
        keys.append(np.roll(ring, -first, axis=0).tobytes())
    return min(keys)


def _pairs(world, radius, families, same, inner, progress, edge):
    """Overlaps and narrow gaps between obstacles (and outlines facing themselves).

    ``same`` holds the id pairs of duplicates (reported already); ``edge`` the
    ids of the level's one-sided edge walls, which never overlap anything but
    another edge wall (narrow gaps to them are found as any other).
    """
    geometry, owner = world.segments()
    family_of = np.array([families[int(o)] for o in owner], dtype=object)
    self_pairs = np.isin(family_of, ("polygon", "grid")) if len(owner) else np.zeros(0, bool)
    reach = 2.0 * radius
    first, second, sep, dist, middle, crossing = close_pairs_capsules(
        geometry, owner.astype(np.int64), self_pairs, reach, TOUCH)
    oa, ob = owner[first], owner[second]
    lo, hi = np.minimum(oa, ob), np.maximum(oa, ob)
    overlaps, gaps = {}, []
    closed = 0        # narrow gaps with no room on one side: counted, not listed
    # 1. Outlines facing themselves: each place once, though several edge
    #    pairs meet there (the mouth of a notch is the end of both its sides
    #    and of the edges beside it).
    own = np.flatnonzero(lo == hi)
    if len(own):
        own = own[_open(world, middle[own], sep[own])]
        passes = _passage(world, middle[own], sep[own], radius)
        closed += _places(lo[own[~passes]], middle[own[~passes]])
        own = own[passes]
        _, once = np.unique(np.column_stack([lo[own], np.round(middle[own] / TOUCH)]),
                            axis=0, return_index=True)
        for k in own[np.sort(once)]:
            gaps.append(_gap(families, int(lo[k]), int(lo[k]), sep[k], middle[k], radius))
    # 2. Pairs of obstacles: the closest capsule pair decides, and any crossing counts.
    pair = lo != hi
    lo, hi, sep, dist, middle, crossing = (lo[pair], hi[pair], sep[pair], dist[pair],
                                           middle[pair], crossing[pair])
    order = np.lexsort((sep, hi, lo))
    lo, hi, sep, dist, middle, crossing = (lo[order], hi[order], sep[order], dist[order],
                                           middle[order], crossing[order])
    heads = np.flatnonzero(np.r_[True, (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])]) \
        if len(lo) else np.zeros(0, np.int64)
    worst = np.maximum.reduceat(crossing, heads) if len(heads) else np.zeros(0, np.int64)
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
            candidates.append(k)
    # 3. Obstacles inside a solid one: no surfaces meet, so step 2 cannot see it.
    if any(fam in SOLID for fam in families.values()):
        inside = {}
        ids = list(inner)
        for n, oid in enumerate(ids):
            for container in world.overlapping(inner[oid]).tolist():
                key = (min(oid, container), max(oid, container))
                if container != oid and families[container] in SOLID and key not in same \
                        and key not in overlaps and (oid in edge) == (container in edge):
                    inside.setdefault(key, []).append(oid)
            if progress is not None:
                progress(n + 1, len(ids))
        for (a, b), held in inside.items():
            # Each inside the other (two boxes sharing a corner region): no
            # single one lies inside, the two just overlap.
            if len(held) == 1:
                oid = held[0]
                other = b if oid == a else a
                message = f"{families[oid]} {oid} lies inside {families[other]} {other}"
            else:
                oid = a
                message = f"{_label(families, (a, b))} overlap"
            overlaps[(a, b)] = Finding("overlap", f"{message}, at {_at(inner[oid])}",
                                       tuple(map(float, inner[oid])), (a, b),
                                       (families[a], families[b]), {"separation": None})
    # 4. Narrow gaps with open space between the two surfaces; one finding
    #    per place (a wall ending where two others meet is closest to both
    #    at the same point).
    if candidates:
        k = np.array(candidates)
        k = k[_open(world, middle[k], sep[k])]
        passes = _passage(world, middle[k], sep[k], radius)
        closed += _places(lo[k[~passes]], middle[k[~passes]])
        k = k[passes]
        seen = {tuple(np.round(g.position, 9)) for g in gaps}
        for k in k:
            a, b = int(lo[k]), int(hi[k])
            place = tuple(np.round(middle[k], 9))
            if (a, b) not in overlaps and place not in seen:
                seen.add(place)
                gaps.append(_gap(families, a, b, sep[k], middle[k], radius))
    return sorted(overlaps.values(), key=lambda f: f.obstacles), gaps, closed


def _places(owners, middle):
    """How many distinct places (an obstacle and a spot) these gaps are at."""
    if not len(owners):
        return 0
    return len(np.unique(np.column_stack([owners, np.round(middle / TOUCH)]), axis=0))


#: Steps of the march along a gap's passage looking for room on each side.
PASSAGE_STEPS = 64


def _passage(world, middle, gap, radius):
    """Which gaps have walkable room on both sides: where an agent could want to pass.

    From each gap's middle, along the passage (across the line between its
    two surfaces) both ways, march by the world's clearance: a side has room
    once the clearance reaches ``radius`` (or the march goes on for
    :data:`PASSAGE_STEPS` steps without closing, which keeps the gap); it is
    closed when the clearance falls below a quarter of the gap (the back of
    a notch, a shut door's frame, the void behind the level's edge). Gaps
    closed on either side (notches, door pockets, the space between
    back-to-back walls) are no passages.
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


def _open(world, middle, gap):
    """Which gaps have nothing else in them: the world's clearance at the middle is half the gap.

    A gap with its middle inside an obstacle is no passage (the two sides of
    a thin blocked column), and one with a third obstacle nearer than its two
    sides is not where the passage is narrowest: the third obstacle makes a
    narrower gap with one of them, found in its own right.
    """
    # Slack for rounding: the kernel's middle and the world's clearance round differently.
    return world.clearance(middle) >= 0.5 * gap - TOUCH - 1e-9 * np.abs(gap)


def _overlap(families, a, b, separation, where, crossing):
    """An overlap finding for obstacles ``a`` and ``b``."""
    if crossing in (CROSSING_PROPER, CROSSING_COLLINEAR):
        how = "cross" if crossing == CROSSING_PROPER else "lie on top of each other"
        message = f"{_label(families, (a, b))} {how} at {_at(where)}"
    else:
        message = f"{_label(families, (a, b))} overlap by {-separation:.4g} at {_at(where)}"
    return Finding("overlap", message, tuple(map(float, where)), (a, b),
                   (families[a], families[b]), {"separation": float(separation)})


def _gap(families, a, b, gap, where, radius):
    """A narrow-gap finding between ``a`` and ``b`` (the same id for an outline facing itself)."""
    what = f"{families[a]} {a} faces itself" if a == b else _label(families, (a, b))
    message = (f"{what} {gap:.4g} apart at {_at(where)}: an agent of radius {radius:g} "
               f"needs {2 * radius:.4g}")
    return Finding("narrow_gap", message, tuple(map(float, where)), (a, b),
                   (families[a], families[b]), {"gap": float(gap)})


def _blocked_points(world, level, radius, families):
    """Spawn points and scenario end points where the agent does not fit."""
    sets = [("spawn", getattr(level, "spawns", None))]
    scenarios = getattr(level, "scenarios", None)
    if scenarios is not None:
        sets += [("start", scenarios.starts), ("goal", scenarios.goals)]
    found = []
    for what, points in sets:
        if points is None or len(points) == 0:
            continue
        points = np.asarray(points, float).reshape(-1, 2)
        for o in start_overlaps(world, points, radius):
            i, d, oid = o.index, o.clearance, o.nearest
            where = f"{what} {i} at {_at(points[i])}"
            if d < 0 or (d == 0 and radius == 0):
                message = f"{where} is {o.describe()}"
            else:
                message = (f"{where} is {d:.4g} from {families[oid]} {oid}"
                           f"{' (the level' + chr(39) + 's edge)' if o.edge else ''}: an agent "
                           f"of radius {radius:g} does not fit")
            ids = o.obstacles or (oid,)
            found.append(Finding("blocked_spawn", message, o.point, ids,
                                 tuple(families[k] for k in ids),
                                 {"point": what, "index": int(i), "clearance": d,
                                  "outside": o.outside}))
    return found


#: How each kind of finding is marked on a picture: marker, colour.
STYLES = {"degenerate": ("s", "tab:purple"), "duplicate": ("D", "tab:brown"),
          "overlap": ("X", "tab:red"), "narrow_gap": ("o", "tab:blue"),
          "blocked_spawn": ("v", "tab:pink")}


def draw_report(level, report, out, *, y_down=False):
    """Save a picture of ``level`` with every finding of ``report`` marked, at ``out``.

    The agent's halo is shaded, so a narrow gap shows as two halos that
    overlap with free space between the obstacles.

    Parameters
    ----------
    level : Level or World2D
    report : Report
    out : str or path-like
        The extension picks the format.
    y_down : bool
        Draw y growing downwards, as tile maps and Tiled files read.
    """
    from .. import plot
    from .pictures import DPI, level_extent, level_figure, picture_format

    kind = picture_format(out)
    world = getattr(level, "world", level)
    places = np.array([f.position for f in report.findings], float).reshape(-1, 2)
    extent = level_extent(world, report.radius, [places])
    fig, ax = level_figure(extent)
    plot.draw_world(ax, world, halo=report.radius)
    handles = []
    for name in KINDS:
        where = places[[f.kind == name for f in report.findings]]
        if len(where):
            marker, color = STYLES[name]
            handles.append(ax.plot(*where.T, marker, markerfacecolor="none",
                                   markeredgecolor=color, markeredgewidth=1.5, markersize=9,
                                   linestyle="none", zorder=6,
                                   label=f"{name.replace('_', ' ')} ({len(where)})")[0])
    ax.set(xlim=extent[:2], ylim=extent[3:1:-1] if y_down else extent[2:], xlabel="x",
           ylabel="y")
    verdict = "no problems found" if report.ok else f"{len(report.findings)} problems"
    ax.set_title(f"{report.name}: check for agent radius {report.radius:g}: {verdict}\n"
                 "orange: where the agent's centre cannot go", fontsize=10)
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0.0, fontsize=9)
    fig.savefig(out, format=kind, dpi=DPI)
