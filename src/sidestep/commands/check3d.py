"""``sidestep check`` of a 3D level: what a level designer should fix, for an upright capsule.

For an agent of radius ``R`` and height ``H`` (:class:`~.floors.Capsule`;
``H`` is six radii unless given, the README character's 0.3 by 1.8),
:func:`check3d` lists, by kind (:data:`~.findings.KINDS_3D`):

- ``degenerate``: triangles of a mesh file that have no surface (zero area,
  a NaN or infinite corner) and OBJ faces of fewer than three corners,
  which the reader dropped and counted in ``Level.problems``: each at the
  middle of its corners, with its part (the glTF node or OBJ object) and,
  in an OBJ, its line; and, in a scene file,
  spheres and cylinders of radius 0, cylinders of height 0 and boxes
  thinner than :data:`~.check.DEGENERATE_LENGTH`;
- ``blocked_spawn``: spawn points where the capsule, standing with its feet
  on the spawn (as :class:`sidestep.Character` stands), does not fit;
- ``no_headroom``: floor points (the lattice of :mod:`.floors`, a column
  every ``spacing``, every floor down each column) where the capsule's
  bottom sphere fits but the upright capsule does not: a ceiling, a shelf or
  an overhang lower than the agent. Floor points where even the bottom
  sphere touches something (against a wall, in a crease) are no finding:
  the agent cannot stand there whatever its height.

Every finding has a place ``(x, y, z)``; a tile of a level (a
:class:`~.regions.Region` of its ground plane) answers for the findings
whose ground coordinates lie in it. Each task reads the whole level and
each probe looks at all of it (rays and capsule tests reach as far as they
need), so the tiles' findings merge to exactly one pass's, in the same
order (:func:`merge3d_parts`).

>>> import sidestep
>>> world = sidestep.World3D()
>>> floor = world.add_boxes([(0, -1, 0)], [(8, 0, 8)])
>>> shelf = world.add_boxes([(0, 1.0, 0)], [(2, 1.2, 8)])      # 1.0 over a strip 2 wide
>>> report = check3d(world, 0.25, height=1.5, spacing=1.0)
>>> report.counts()
{'degenerate': 0, 'blocked_spawn': 0, 'no_headroom': 16}
>>> report.findings[0].message
'no headroom at (0.5, 0, 0.5): the feet fit but not 1.5 upright (1 of room above the floor)'
"""
from dataclasses import dataclass

import numpy as np

from .check import DEGENERATE_LENGTH
from .findings import KINDS_3D, Finding, Report, at
from .floors import (PROBES, Capsule, centre, default_spacing, floors, ground, lattice, stand,
                     touching)
from .regions import EVERYWHERE

__all__ = ["check3d", "check3d_part", "merge3d_parts", "Check3DPart", "probe_spacing"]


@dataclass(frozen=True)
class Check3DPart:
    """What :func:`check3d_part` found in one region of a 3D level, for :func:`merge3d_parts`."""

    #: The level's name.
    name: str
    #: The agent.
    agent: Capsule
    #: How many obstacles the world holds.
    obstacles: int
    #: The loader's own non-fatal problems.
    problems: tuple
    #: The floor lattice's spacing.
    spacing: float
    #: ``((rank, Finding), ...)``: the findings placed in the region, ranked
    #: as one pass lists them.
    listed: tuple


def probe_spacing(world, spacing=None):
    """The floor lattice's spacing: ``spacing``, or the longer side / :data:`~.floors.PROBES`."""
    return float(spacing) if spacing is not None else default_spacing(world, PROBES)


def check3d(level, radius, *, height=None, spacing=None):
    """Check a 3D level for an upright capsule of ``radius`` and ``height``.

    Parameters
    ----------
    level : Level or World3D
    radius : float > 0
    height : float >= 2 * radius, optional
        Default :data:`~.floors.HEIGHT_PER_RADIUS` radii.
    spacing : float > 0, optional
        The floor lattice's spacing (default :func:`probe_spacing`).

    Returns
    -------
    Report
        ``kinds`` :data:`~.findings.KINDS_3D`, ``height`` the agent's.
    """
    return merge3d_parts([check3d_part(level, Capsule.of(radius, height), spacing=spacing)])


def check3d_part(level, agent, region=EVERYWHERE, *, spacing=None):
    """What :func:`check3d` finds in one region of a 3D level's ground plane.

    Parameters
    ----------
    level : Level or World3D
    agent : Capsule
    region : Region
        Of the ground plane (the two axes that are not ``up``).
    spacing : float, optional
        As :func:`check3d`.

    Returns
    -------
    Check3DPart
    """
    world = getattr(level, "world", level)
    name = getattr(level, "name", "") or "level"
    spacing = probe_spacing(world, spacing)
    listed = []
    for n, f in enumerate(_degenerate(level, world)):
        listed.append(((0, n, 0), f))
    for n, f in enumerate(_blocked_spawns(world, getattr(level, "spawns", None), agent)):
        listed.append(((1, n, 0), f))
    places = [f.position for _, f in listed]
    if places:
        mine = region.holds(ground(world, places))
        listed = [item for item, keep in zip(listed, mine) if keep]
    columns = lattice(world, spacing)
    index = np.flatnonzero(region.holds(columns)) if len(columns) else np.zeros(0, np.int64)
    listed += _no_headroom(world, agent, floors(world, columns[index], radius=agent.radius,
                                                max_slope=agent.max_slope, index=index))
    return Check3DPart(name, agent, len(world), tuple(getattr(level, "problems", ()) or ()),
                       spacing, tuple(listed))


def merge3d_parts(parts):
    """One :class:`~.findings.Report` from the :class:`Check3DPart` of every tile of a 3D level."""
    parts = list(parts)
    if not parts:
        raise ValueError("parts must hold at least one Check3DPart")
    head = parts[0]
    if any((p.name, p.agent, p.obstacles, p.spacing) !=
           (head.name, head.agent, head.obstacles, head.spacing) for p in parts):
        raise ValueError("parts must all come from the same level, agent and spacing")
    listed = sorted((item for p in parts for item in p.listed), key=lambda item: item[0])
    return Report(head.name, head.agent.radius, head.obstacles, tuple(f for _, f in listed),
                  head.problems, 0, KINDS_3D, head.agent.height)


def _no_headroom(world, agent, found):
    """``no_headroom`` findings at the floor points where the feet fit and the capsule does not."""
    if not len(found.points):
        return []
    up = "xyz".index(world.up)
    feet = stand(world, found, agent)
    listed = []
    lift = np.zeros(3)
    lift[up] = 1.0
    for k in range(len(feet)):
        bottom = feet[k] + agent.radius * lift
        if len(touching(world, bottom, agent, height=2.0 * agent.radius)):
            continue                    # no room for the feet: a wall's foot, a crease
        blocking = touching(world, centre(world, feet[k], agent.height), agent)
        if not len(blocking):
            continue
        point = found.points[k]
        above = world.raycast(point + 1e-6 * (1.0 + abs(point[up])) * lift, lift)
        room = float(above.distance) if above.hit else None
        said = f"{room:.3g} of room above the floor" if room is not None else \
            "nothing straight above: an overhang"
        listed.append(((2, int(found.columns[k]), int(found.layers[k])), Finding(
            "no_headroom", f"no headroom at {at(point)}: the feet fit but not "
            f"{agent.height:g} upright ({said})",
            tuple(map(float, point)), tuple(int(i) for i in blocking),
            tuple(world.family(int(i)) for i in blocking),
            {"headroom": room, "height": agent.height,
             "column": int(found.columns[k]), "layer": int(found.layers[k])})))
    return listed


def _blocked_spawns(world, spawns, agent):
    """``blocked_spawn`` findings: spawns (the feet) where the standing capsule does not fit."""
    from .walk3d import agent_clearance

    if spawns is None or not len(spawns):
        return []
    spawns = np.asarray(spawns, float).reshape(-1, 3)
    found = []
    for i, feet in enumerate(spawns):
        middle = centre(world, feet, agent.height)
        blocking = touching(world, middle, agent)
        if len(blocking):
            gap = float(agent_clearance(world, middle[None, :], agent.radius, agent.height)[0])
            found.append(Finding(
                "blocked_spawn", f"spawn {i} at {at(feet)}: a capsule {agent.height:g} tall "
                f"standing there overlaps " + ", ".join(f"{world.family(int(o))} {int(o)}"
                                                        for o in blocking),
                tuple(map(float, feet)), tuple(int(o) for o in blocking),
                tuple(world.family(int(o)) for o in blocking),
                {"clearance": gap, "point": "spawn", "index": i}))
    return found


def _degenerate(level, world):
    """``degenerate`` findings: the mesh file's dropped triangles, and primitives of no size."""
    found = []
    source = getattr(level, "source", None)
    if source is not None:
        found += _dropped_triangles(source)
    g = world.geometry("sphere")
    for oid, c, r in zip(g["ids"].tolist(), g["centers"], g["radii"]):
        if r == 0.0:
            found.append(Finding("degenerate", f"sphere {oid} at {at(c)} has radius 0 (a point)",
                                 tuple(map(float, c)), (oid,), ("sphere",), {"size": 0.0}))
    g = world.geometry("cylinder")
    for oid, base, r, h in zip(g["ids"].tolist(), g["bases"], g["radii"], g["heights"]):
        if r == 0.0 or h == 0.0:
            why = "radius 0 (a post)" if r == 0.0 else "height 0 (a disc)"
            found.append(Finding("degenerate", f"cylinder {oid} at {at(base)} has {why}",
                                 tuple(map(float, base)), (oid,), ("cylinder",),
                                 {"size": float(min(r, h))}))
    g = world.geometry("box")
    for oid, lo, hi in zip(g["ids"].tolist(), g["mins"], g["maxs"]):
        thin = float(np.min(hi - lo))
        if thin < DEGENERATE_LENGTH:
            middle = tuple(map(float, 0.5 * (lo + hi)))
            found.append(Finding("degenerate", f"box {oid} at {at(middle)} is only "
                                 f"{thin:.3g} thick", middle, (oid,), ("box",), {"size": thin}))
    return found


def _dropped_triangles(source):
    """Findings for the triangles and faces of a mesh file that its reader drops (no surface).

    The file is parsed again (:data:`sidestep.io.meshes.MESH_EXTENSIONS`): the
    level holds only the triangles kept. Triangles come first, in file order,
    then OBJ faces of fewer than three corners, in file order.
    """
    from pathlib import Path

    from ..degenerate import surface_kinds
    from ..io.meshes import MESH_EXTENSIONS
    from ..io.obj import parse_obj

    path = Path(source)
    parse = MESH_EXTENSIONS.get(path.suffix.lower())
    if parse is None or not path.is_file():
        return []
    lines, short_faces = None, []
    if parse is parse_obj:
        vertices, triangles, parts_of, parts, _, lines, short_faces = parse(path)
    else:
        vertices, triangles, parts_of, parts, _, _ = parse(path)
    zero_area, non_finite = surface_kinds(vertices, triangles)
    found = []
    for k in np.flatnonzero(zero_area | non_finite):
        place = _middle(vertices[triangles[k]])
        why = "has zero area" if zero_area[k] else "has a NaN or infinite corner"
        part = parts[int(parts_of[k])]
        where = f", line {int(lines[k])}" if lines is not None else ""
        details = {"size": 0.0, "triangle": int(k), "part": part}
        if lines is not None:
            details["line"] = int(lines[k])
        found.append(Finding("degenerate", f"triangle {k} of {part} at {at(place)} {why} "
                             f"(dropped on reading{where})", place, (), (), details))
    for line, part, corners in short_faces:
        place = _middle(vertices[list(corners)])
        count = f"{len(corners)} corner{'' if len(corners) == 1 else 's'}"
        found.append(Finding("degenerate", f"face of {part} at {at(place)} has {count}, fewer "
                             f"than three (dropped on reading, line {line})", place, (), (),
                             {"size": 0.0, "corners": len(corners), "part": part,
                              "line": line}))
    return found


def _middle(corners):
    """The mean of the finite rows of ``corners (k, 3)``; the origin if there are none."""
    finite = corners[np.isfinite(corners).all(axis=1)]
    return tuple(map(float, finite.mean(axis=0))) if len(finite) else (0.0, 0.0, 0.0)


def draw_findings3d(ax, world, report, *, more=(), size=400):
    """Draw a 3D level from above with ``report``'s findings (and ``more``) marked on ``ax``."""
    from .check import STYLES
    from .render3d import cast_views, draw_top

    top, _ = cast_views(world, None, None, camera=False, top_size=size)
    draw_top(ax, top, world=world)
    a, b = top.axes.ground
    findings = list(report.findings) + list(more)
    handles = []
    for name in STYLES:
        where = np.array([f.position for f in findings if f.kind == name], float).reshape(-1, 3)
        if len(where):
            marker, color = STYLES[name]
            handles.append(ax.plot(where[:, a], where[:, b], marker, markerfacecolor="none",
                                   markeredgecolor=color, markeredgewidth=1.5, markersize=8,
                                   linestyle="none", zorder=6,
                                   label=f"{name.replace('_', ' ')} ({len(where)})")[0])
    verdict = "no problems found" if not findings else f"{len(findings)} problems"
    ax.set_title(f"{report.name}: check for a capsule of radius {report.radius:g}, height "
                 f"{report.height:g}: {verdict}", fontsize=10)
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0.0, fontsize=9)


def draw_report3d(level, report, out):
    """Save a top view of a 3D ``level`` with every finding of ``report`` marked, at ``out``."""
    from matplotlib.figure import Figure

    from .pictures import DPI, picture_format

    kind = picture_format(out)
    fig = Figure(figsize=(9, 7), layout="constrained")
    draw_findings3d(fig.subplots(), getattr(level, "world", level), report)
    fig.savefig(out, format=kind, dpi=DPI)
    return fig
