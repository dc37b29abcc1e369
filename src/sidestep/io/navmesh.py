"""Polyanya navigation meshes (``.mesh``): the mesh's outline becomes walls.

A navigation mesh lists the free space of a level as convex polygons and,
for each polygon edge, the polygon across it (``-1``: nothing, the edge of
free space). Those boundary edges are where an agent must stop, so each
becomes a wall of clearance 0; merged runs of them are not needed, the
broadphase takes thousands. The walls are one-sided
(:meth:`~sidestep.World2D.add_walls`), each facing its polygon: the space
outside the mesh (and in its holes) counts as inside an obstacle, so an agent
that starts on or across the boundary recovers into the mesh.

**Format** (text, whitespace-separated; versions 1 and 2 of Polyanya's
"mesh" format)::

    mesh
    2
    V P
    x y n p_1 ... p_n            V vertex lines: the n polygons around the vertex
    n v_1 ... v_n p_1 ... p_n    P polygon lines: its vertices, then its neighbours

In version 2 neighbour ``p_i`` lies across the edge ``v_(i-1) v_i``; in
version 1 across ``v_i v_(i+1)``. Coordinates stay as the file has them (for
meshes made from Moving AI maps: x is the column, y the row, y down).

Scenarios come from a Moving AI ``.scen`` file (``scenarios=``; by default
``<stem>.scen`` beside the mesh, or ``../scenarios/<stem>.scen`` as in
Polyanya's repository, when there is one) whose coordinates are
points of the mesh, taken as they are. Rows with an endpoint outside the mesh
are dropped and listed in ``Level.problems``.
"""
import os
from pathlib import Path

import numpy as np

from ..kernels.polygon import signed_area_polygon
from ..level import Level, LevelError, Scenarios
from ..tolerances import MAX_COORDINATE
from ..world import World2D
from .build import WorldBuilder
from .movingai import scenario_rows, summed_up

#: A point this close to a polygon lies on its edge (in mesh units): rounding
#: puts a point on the edge two polygons share a few 1e-15 outside both.
ON_EDGE = 1e-9

#: Versions of the format read, and for each the offset of the edge a
#: neighbour entry belongs to: entry i lies across (v[i + k - 1], v[i + k]).
VERSIONS = {1: 1, 2: 0}


def read_mesh(path, *, scenarios=None):
    """Read a Polyanya ``.mesh`` navigation mesh as a :class:`Level`.

    Parameters
    ----------
    path : str or path
    scenarios : str, path or False, optional
        A ``.scen`` file of start/goal points in mesh coordinates; by default
        ``<stem>.scen`` beside the mesh, or ``../scenarios/<stem>.scen``, when
        it exists. ``False`` reads none.

    Returns
    -------
    Level
        One wall per boundary edge, in the order of the polygon lines;
        ``name`` the file's stem.

    Examples
    --------
    >>> import tempfile
    >>> square = '''mesh
    ... 2
    ... 4 2
    ... 0 0 1 0
    ... 2 0 1 0
    ... 2 2 2 0 1
    ... 0 2 2 1 0
    ... 3 0 1 2  1 -1 -1
    ... 3 0 2 3  -1 0 -1
    ... '''
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "square.mesh"
    ...     _ = path.write_text(square)
    ...     level = read_mesh(path)
    >>> len(level.world)                    # four sides; the diagonal is shared
    4
    >>> round(float(level.world.clearance((0.5, 1.0))), 3)
    0.5
    """
    if scenarios is not None and scenarios is not False \
            and not isinstance(scenarios, (str, os.PathLike)):
        raise TypeError(f"scenarios must be a path, False or None, got {scenarios!r}")
    path = Path(path)
    vertices, polygons, version = _parse(path)
    starts, ends, places = _boundary(path, vertices, polygons, version)
    builder = WorldBuilder(path)
    builder.walls(starts, ends, np.zeros(len(starts)), places, one_sided=True)
    problems = []
    found = None
    if scenarios is None:
        # Beside the mesh, or in Polyanya's layout: meshes/x.mesh, scenarios/x.scen.
        places = (path.with_suffix(".scen"), path.parent.parent / "scenarios" / f"{path.stem}.scen")
        scenarios = next((p for p in places if p.is_file()), False)
    if scenarios is not False:
        found, problems = _scenarios(Path(scenarios), path, vertices, polygons)
    return Level(world=builder.world(), spawns=np.zeros((0, 2)), scenarios=found,
                 name=path.stem, source=path, problems=tuple(problems))


def _parse(path):
    """``vertices (V, 2)``, the polygons as ``(vertex ids, neighbour ids)`` and the version."""
    lines = path.read_bytes().decode("latin-1").splitlines()
    # Each meaningful line with its 1-based number; blank lines are skipped.
    rows = [(n + 1, line.split()) for n, line in enumerate(lines) if line.strip()]
    if len(rows) < 3:
        raise LevelError(path, f"line {len(lines) or 1}", "the file ends inside the header "
                         "('mesh', the version, 'V P')")
    (n1, head), (n2, version), (n3, counts) = rows[:3]
    if head != ["mesh"]:
        raise LevelError(path, f"line {n1}", f"expected 'mesh', got {' '.join(head)[:40]!r}")
    if len(version) != 1 or version[0] not in ("1", "2"):
        raise LevelError(path, f"line {n2}", f"expected format version 1 or 2, got "
                         f"{' '.join(version)[:40]!r}")
    sizes = _wholes(path, n3, counts, "expected two whole numbers 'V P' (vertices, polygons)")
    if len(sizes) != 2 or min(sizes) < 0:
        raise LevelError(path, f"line {n3}", "expected two whole numbers 'V P' (vertices, "
                         f"polygons), got {' '.join(counts)[:40]!r}")
    n_vertices, n_polygons = sizes
    body = rows[3:]
    if len(body) < n_vertices + n_polygons:
        last = body[-1][0] if body else n3
        raise LevelError(path, f"line {last}", f"expected {n_vertices} vertex and {n_polygons} "
                         f"polygon lines, but the file ends after {len(body)}")
    vertices = np.empty((n_vertices, 2))
    for k, (n, words) in enumerate(body[:n_vertices]):
        around = _wholes(path, n, words[2:], f"vertex {k}: expected 'x y n' and then n polygon "
                         "ids")
        if len(words) < 3 or around[0] < 0 or len(around) != 1 + around[0]:
            raise LevelError(path, f"line {n}", f"vertex {k}: expected 'x y n' and then n "
                             "polygon ids")
        try:
            x, y = float(words[0]), float(words[1])
        except ValueError:
            raise LevelError(path, f"line {n}", f"vertex {k}: expected coordinates 'x y', got "
                             f"{' '.join(words[:2])[:40]!r}") from None
        if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE):   # NaN fails it too
            raise LevelError(path, f"line {n}", f"vertex {k}: coordinates must be finite and "
                             f"within +-{MAX_COORDINATE:g}, got ({x:g}, {y:g})")
        vertices[k] = x, y
    polygons = []
    for k, (n, words) in enumerate(body[n_vertices:n_vertices + n_polygons]):
        ids = _wholes(path, n, words, f"polygon {k}: expected a polygon line 'n v_1 ... v_n "
                      "p_1 ... p_n' of whole numbers")
        count = ids[0]
        if count < 3 or len(ids) != 1 + 2 * count:
            raise LevelError(path, f"line {n}", f"polygon {k}: expected 'n' (3 or more), n "
                             f"vertex ids and n neighbour ids, got {len(ids)} numbers")
        corners = ids[1:1 + count]
        across = ids[1 + count:]
        bad = next((i for i in corners if not 0 <= i < n_vertices), None)
        if bad is not None:
            raise LevelError(path, f"line {n}", f"polygon {k}: vertex {bad} is not among the "
                             f"{n_vertices} vertices")
        bad = next((i for i in across if not -1 <= i < n_polygons), None)
        if bad is not None:
            raise LevelError(path, f"line {n}", f"polygon {k}: neighbour {bad} is neither -1 nor "
                             f"one of the {n_polygons} polygons")
        polygons.append((n, corners, across))
    extra = body[n_vertices + n_polygons:]
    if extra:
        raise LevelError(path, f"line {extra[0][0]}", f"text after the {n_polygons} polygon "
                         "lines")
    return vertices, polygons, int(version[0])


def _whole(word):
    """``word`` as an int if it is one written in ASCII digits (an optional minus), else None."""
    digits = word[1:] if word.startswith("-") else word
    return int(word) if digits.isascii() and digits.isdigit() else None


def _wholes(path, n, words, what):
    """The whole numbers of line ``n``; anything else is a :class:`LevelError` saying ``what``."""
    values = [_whole(w) for w in words]
    if not values or None in values:
        raise LevelError(path, f"line {n}", f"{what}, got {' '.join(words)[:40]!r}")
    return values


def _boundary(path, vertices, polygons, version):
    """The boundary edges (neighbour -1): starts, ends (its polygon on the left) and places.

    An edge marked -1 that another polygon also has is a contradiction (a
    mesh read with the wrong version, say) and an error.
    """
    shift = VERSIONS[version]
    clockwise = [signed_area_polygon(vertices[corners]) < 0.0 for _, corners, _ in polygons]
    owners = {}
    for k, (_, corners, _) in enumerate(polygons):
        for a, b in zip(corners, corners[1:] + corners[:1]):
            owners.setdefault((min(a, b), max(a, b)), []).append(k)
    starts, ends, places = [], [], []
    for k, (n, corners, across) in enumerate(polygons):
        count = len(corners)
        for i, other in enumerate(across):
            if other != -1:
                continue
            a = corners[(i + shift - 1) % count]
            b = corners[(i + shift) % count]
            if a == b or np.array_equal(vertices[a], vertices[b]):
                raise LevelError(path, f"line {n}", f"polygon {k}: edge {i} from vertex {a} to "
                                 f"vertex {b} has zero length")
            shared = [j for j in owners[(min(a, b), max(a, b))] if j != k]
            if shared:
                raise LevelError(path, f"line {n}", f"polygon {k}: edge {i} (vertices {a}-{b}) "
                                 f"has no neighbour (-1), but polygon {shared[0]} shares it; "
                                 f"is the version line ({version}) right?")
            if clockwise[k]:          # the polygon, walkable, goes on the wall's left
                a, b = b, a
            starts.append(vertices[a])
            ends.append(vertices[b])
            places.append(f"line {n} (polygon {k}, edge {i})")
    return (np.array(starts).reshape(-1, 2), np.array(ends).reshape(-1, 2), places)


def _scenarios(path, mesh_path, vertices, polygons):
    """Start/goal points of a ``.scen`` file, keeping the rows whose ends lie in the mesh."""
    rows = list(scenario_rows(path))
    for place, *fields in rows:
        if any(abs(v) > MAX_COORDINATE for v in fields[3:7]):
            raise LevelError(path, place, f"coordinates must be within +-{MAX_COORDINATE:g}")
    points = np.array([r[4:8] for r in rows], dtype=np.float64).reshape(-1, 2, 2)
    inside = _inside_mesh(points.reshape(-1, 2), mesh_path, vertices, polygons).reshape(-1, 2)
    dropped = []
    for (place, *_), (start_in, goal_in), (start, goal) in zip(rows, inside, points):
        if not (start_in and goal_in):
            bad = [f"{what} ({x:g}, {y:g})" for what, (x, y), ok in
                   (("start", start, start_in), ("goal", goal, goal_in)) if not ok]
            dropped.append(f"{path.name} {place}: {' and '.join(bad)} outside the mesh; "
                           "row dropped")
    keep = inside.all(axis=1)
    lengths = np.array([r[8] for r in rows], dtype=np.float64)
    return (Scenarios(points[keep, 0].copy(), points[keep, 1].copy(), lengths[keep]),
            summed_up(dropped, path.name))


def _inside_mesh(points, mesh_path, vertices, polygons):
    """Whether each point lies in (or on the edge of) one of the mesh's polygons.

    Asked of a scratch world holding the polygons as solid areas: a point in
    or on one has a clearance of 0 or less, or of up to :data:`ON_EDGE` (a
    point on the diagonal between two triangles, computed, may be a rounding
    outside both). A polygon that is no simple polygon (its edges cross) is a
    :class:`LevelError` naming its line.
    """
    if not len(points):
        return np.zeros(0, dtype=bool)
    scratch = World2D()
    for k, (n, corners, _) in enumerate(polygons):
        try:
            scratch.add_polygon(vertices[corners])
        except (ValueError, TypeError) as exc:
            raise LevelError(mesh_path, f"line {n}", f"polygon {k}: {exc}") from None
    return scratch.clearance(points) <= ON_EDGE
