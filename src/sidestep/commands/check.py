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
from dataclasses import dataclass

import numpy as np

from ..kernels.polygon import signed_area_polygon
from .check_pairs import PASSAGE_STEPS, SOLID, TOUCH, PairRows, decide_pairs, pair_rows
from .findings import KINDS, Finding, Report, at, label
from .regions import EVERYWHERE
from .starts import start_overlaps

__all__ = ["check", "check_part", "merge_parts", "CheckPart", "Finding", "Report", "KINDS",
           "TOUCH", "SOLID", "PASSAGE_STEPS", "DEGENERATE_LENGTH", "DEGENERATE_AREA",
           "draw_report"]

#: Walls shorter, or boxes thinner, than this (world units) are degenerate:
#: the world accepts them (only exactly zero length is refused) but an agent
#: sees a post or a sliver, not what the designer drew.
DEGENERATE_LENGTH = 1e-9

#: A polygon whose area is below this share of the square of its longest
#: extent is degenerate: its corners (nearly) lie on a line. (The share of its
#: bounding box would miss a sliver along an axis, whose box is a sliver too.)
DEGENERATE_AREA = 1e-12

#: The point sets checked for a blocked spawn, in the order a report lists them.
POINT_SETS = ("spawn", "start", "goal")


@dataclass(frozen=True)
class CheckPart:
    """What :func:`check_part` found in one region of a level, for :func:`merge_parts`.

    Plain data (arrays, tuples, dicts): it pickles cheaply to another
    process or machine, and merging needs no world.
    """

    #: The level's name.
    name: str
    #: The agent radius checked for.
    radius: float
    #: How many obstacles the world holds.
    obstacles: int
    #: The loader's own non-fatal problems.
    problems: tuple
    #: The region this part answers for.
    region: object
    #: ``{id: family}`` of every obstacle.
    families: dict
    #: Ids of the level's one-sided edge walls.
    edge: frozenset
    #: Id pairs of duplicate obstacles, ``(a, b)`` with ``a < b``.
    same: frozenset
    #: ``{id: (x, y)}``: a point inside (or on) every obstacle.
    inner: dict
    #: ``((rank, Finding), ...)``: degenerate, duplicate and blocked-spawn
    #: findings placed in the region; ``rank`` orders them as one pass would.
    listed: tuple
    #: The capsule pairs placed in the region (:func:`~sidestep.commands.check_pairs.pair_rows`).
    rows: PairRows
    #: ``((obstacle, solid obstacle), ...)``: obstacles whose inner point lies
    #: in the region and inside a solid obstacle.
    contained: tuple


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
    return merge_parts([check_part(level, radius, progress=progress)])


def check_part(level, radius, region=EVERYWHERE, *, progress=None):
    """What :func:`check` finds in one region of a level (a tile), to merge with the others.

    Every finding has a place (its ``position``); this part answers for the
    findings placed in ``region``. The geometry it looks at reaches beyond
    the region by the agent's diameter, so a gap or overlap on the region's
    border is seen whole, and per pair of obstacles the decision is left to
    :func:`merge_parts`, which sees every region's pairs: the parts of tiles
    that cover the plane merge to exactly what one pass finds.

    Parameters
    ----------
    level : Level or World2D
    radius : float >= 0
    region : Region
        The whole plane (:data:`~sidestep.commands.regions.EVERYWHERE`) by default.
    progress : callable, optional
        As for :func:`check`.

    Returns
    -------
    CheckPart

    Examples
    --------
    A doorway cut by a tile border finds the same gap as one pass:

    >>> import sidestep
    >>> from sidestep.commands.regions import tiles
    >>> world = sidestep.World2D()
    >>> jambs = world.add_walls([(0, 0), (0.5, 0)], [(0, -3), (0.5, -3)])
    >>> parts = [check_part(world, 0.3, tile) for tile in tiles(world.bounds, 3)]
    >>> merge_parts(parts) == check(world, 0.3)
    True
    """
    radius = float(radius)
    if not (np.isfinite(radius) and radius >= 0):
        raise ValueError(f"radius must be a finite number >= 0, got {radius}")
    world = getattr(level, "world", level)
    name = getattr(level, "name", "") or "level"
    inner = _inner_points(world)
    families = {int(i): world.family(int(i)) for i in world.ids}
    ids = sorted(inner)
    mine = set(np.array(ids)[region.holds([inner[i] for i in ids])].tolist()) if ids else set()
    listed = [((0, n), f) for n, f in enumerate(_degenerate(world, inner))]
    duplicates, same = _duplicates(world, inner, families)
    listed += [((1, n), f) for n, f in enumerate(duplicates)]
    listed = [(rank, f) for rank, f in listed if f.obstacles[0] in mine]
    # The level's edge (one-sided walls) lies along what the file draws at its
    # border (a grid's last cells, a Tiled wall on the map's side): meeting it
    # is no designer's mistake, so an edge wall and anything but another edge
    # wall are never reported as overlapping.
    walls = world.geometry("wall")
    edge = frozenset(walls["ids"][walls["one_sided"]].tolist())
    rows = pair_rows(world, radius, region)
    contained = _contained(world, inner, families, edge, [i for i in inner if i in mine],
                           progress)
    listed += _blocked_points(world, level, radius, families, region)
    return CheckPart(name, radius, len(world), tuple(getattr(level, "problems", ()) or ()),
                     region, families, edge, frozenset(same), inner, tuple(listed), rows,
                     tuple(contained))


def merge_parts(parts):
    """One :class:`Report` from the :class:`CheckPart` of every tile of a level.

    The tiles must cover the plane once (:func:`~sidestep.commands.regions.tiles`);
    the report is then the one :func:`check` gives, finding for finding, in
    the same order, whatever the number of tiles.
    """
    parts = list(parts)
    if not parts:
        raise ValueError("parts must hold at least one CheckPart")
    head = parts[0]
    if any((p.name, p.radius, p.obstacles) != (head.name, head.radius, head.obstacles)
           for p in parts):
        raise ValueError("parts must all come from the same level and radius")
    listed = sorted((item for p in parts for item in p.listed), key=lambda item: item[0])
    first = [f for rank, f in listed if rank[0] < 2]          # degenerate, duplicate
    blocked = [f for rank, f in listed if rank[0] == 4]
    contained = sorted(pair for p in parts for pair in p.contained)
    overlaps, gaps, closed = decide_pairs(PairRows.join(p.rows for p in parts), head.radius,
                                          head.families, head.same, head.edge, contained,
                                          head.inner)
    return Report(head.name, head.radius, head.obstacles,
                  tuple(first + overlaps + gaps + blocked), head.problems, closed)


def _contained(world, inner, families, edge, ids, progress):
    """``(obstacle, container)`` for each of ``ids`` whose inner point lies inside a solid obstacle.

    No surfaces meet when one obstacle lies wholly inside a solid one, so the
    capsule pairs cannot see it. Edge walls and the rest are kept apart, as
    for overlaps.
    """
    found = []
    if not any(fam in SOLID for fam in families.values()):
        return found
    for n, oid in enumerate(ids):
        for container in world.overlapping(inner[oid]).tolist():
            if container != oid and families[container] in SOLID \
                    and (oid in edge) == (container in edge):
                found.append((oid, container))
        if progress is not None:
            progress(n + 1, len(ids))
    return found


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
        found.append(Finding("degenerate", f"{family} {oid} at {at(inner[oid])} {why}",
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
        found.append(Finding("duplicate", f"{label(families, ids)} are identical, at "
                             f"{at(inner[ids[0]])}", inner[ids[0]], tuple(ids),
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




def _blocked_points(world, level, radius, families, region):
    """``[(rank, Finding)]``: spawns and scenario end points in ``region`` where the agent does not fit."""
    sets = {"spawn": getattr(level, "spawns", None)}
    scenarios = getattr(level, "scenarios", None)
    if scenarios is not None:
        sets.update(start=scenarios.starts, goal=scenarios.goals)
    found = []
    for rank, what in enumerate(POINT_SETS):
        points = sets.get(what)
        if points is None or len(points) == 0:
            continue
        points = np.asarray(points, float).reshape(-1, 2)
        index = np.flatnonzero(region.holds(points))
        for o in start_overlaps(world, points[index], radius):
            i, d, oid = int(index[o.index]), o.clearance, o.nearest
            where = f"{what} {i} at {at(points[i])}"
            if d < 0 or (d == 0 and radius == 0):
                message = f"{where} is {o.describe()}"
            else:
                message = (f"{where} is {d:.4g} from {families[oid]} {oid}"
                           f"{' (the level' + chr(39) + 's edge)' if o.edge else ''}: an agent "
                           f"of radius {radius:g} does not fit")
            ids = o.obstacles or (oid,)
            found.append(((4, rank, i), Finding(
                "blocked_spawn", message, o.point, ids, tuple(families[k] for k in ids),
                {"point": what, "index": i, "clearance": d, "outside": o.outside})))
    return found


#: How each kind of finding is marked on a picture: marker, colour.

STYLES = {"degenerate": ("s", "tab:purple"), "duplicate": ("D", "tab:brown"),
          "overlap": ("X", "tab:red"), "narrow_gap": ("o", "tab:blue"),
          "blocked_spawn": ("v", "tab:pink"),
          # A 3D level's (sidestep.commands.check3d).
          "no_headroom": ("^", "tab:orange"),
          # The reachability sweep's (sidestep.commands.sweep).
          "stuck": ("P", "tab:olive"), "inside": ("*", "black"), "trapped": ("h", "tab:cyan")}


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
    from .pictures import DPI, level_figure, picture_format

    kind = picture_format(out)
    world = getattr(level, "world", level)
    extent = findings_extent(world, report.radius, report.findings)
    fig, ax = level_figure(extent)
    draw_findings(ax, world, report, extent, y_down=y_down)
    fig.savefig(out, format=kind, dpi=DPI)


def findings_extent(world, radius, findings):
    """``(x0, x1, y0, y1)``: the world, its halo of ``radius`` and every finding's place."""
    from .pictures import level_extent

    places = np.array([f.position for f in findings], float).reshape(-1, 2)
    return level_extent(world, radius, [places])


def draw_findings(ax, world, report, extent, *, y_down=False, more=()):
    """Draw ``world`` with the agent's halo and mark ``report``'s findings (and ``more``) on ``ax``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    world : World2D
    report : Report
    extent : (x0, x1, y0, y1)
    y_down : bool
    more : sequence of Finding
        Findings of other kinds to mark too (a sweep's), styled by :data:`STYLES`.
    """
    from .. import plot

    findings = list(report.findings) + list(more)
    places = np.array([f.position for f in findings], float).reshape(-1, 2)
    plot.draw_world(ax, world, halo=report.radius)
    handles = []
    for name in STYLES:
        where = places[[f.kind == name for f in findings]]
        if len(where):
            marker, color = STYLES[name]
            handles.append(ax.plot(*where.T, marker, markerfacecolor="none",
                                   markeredgecolor=color, markeredgewidth=1.5, markersize=9,
                                   linestyle="none", zorder=6,
                                   label=f"{name.replace('_', ' ')} ({len(where)})")[0])
    ax.set(xlim=extent[:2], ylim=extent[3:1:-1] if y_down else extent[2:], xlabel="x",
           ylabel="y")
    verdict = "no problems found" if not findings else f"{len(findings)} problems"
    ax.set_title(f"{report.name}: check for agent radius {report.radius:g}: {verdict}\n"
                 "orange: where the agent's centre cannot go", fontsize=10)
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0.0, fontsize=9)
