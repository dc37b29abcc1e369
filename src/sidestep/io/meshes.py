"""3D level meshes: Wavefront OBJ and glTF/GLB files as one triangle soup.

:func:`read_mesh` reads a level's triangles with the node (glTF) or
object/group (OBJ) each came from, drops the triangles that have no surface
(zero area, or a NaN/inf corner: :mod:`sidestep.degenerate`) and the OBJ
faces of fewer than three corners, and says how many in ``problems``. The result is a :class:`MeshLevel`, the arrays
``World3D.add_mesh`` takes.

:func:`sidestep.load` reads ``.obj``, ``.gltf`` and ``.glb`` files with
:func:`read_level`: a :class:`~sidestep.level.Level` whose world is a
``World3D(up=...)`` holding the level as one mesh obstacle (each triangle its
``part``).

=========  ===========================  ==========================================
extension  reader                       notes
=========  ===========================  ==========================================
``.obj``   :mod:`sidestep.io.obj`       parts: ``o`` / ``g`` names; no spawns
``.glb``   :mod:`sidestep.io.gltf`      parts: ``nodes[i] name``; node transforms
``.gltf``  :mod:`sidestep.io.gltf`      applied; spawns: mesh-less nodes named
                                        ``spawn...``, ``start...``, ``player_start...``
=========  ===========================  ==========================================

**Axes.** Coordinates stay as the file has them. glTF is +y up by its
specification. OBJ has no convention, but +y up is the custom, and every OBJ
level sidestep was tried on is +y up: Recast's demo meshes, and Cube 2
(Sauerbraten) ``/writeobj`` exports, which turn the engine's z-up into y-up
(they write ``-y z x``). Pass ``up="z"`` for a z-up file (a Blender export
with "Z up", Panda3D data): the record then says ``up="z"``, for
``World3D(up=...)``; nothing is rotated.

Neither reader needs anything beyond NumPy; trimesh, in the ``test`` extra,
checks in the tests that both give the same triangles as trimesh does.
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..degenerate import surface_kinds
from ..level import LevelError
from .gltf import parse_gltf
from .obj import parse_obj

#: Each mesh extension and its parser.
MESH_EXTENSIONS = {".obj": parse_obj, ".glb": parse_gltf, ".gltf": parse_gltf}
#: Axes a level may have up.
UP_AXES = ("y", "z")
#: Parts named in a ``problems`` line about dropped triangles; the rest are counted.
LISTED_PARTS = 5


@dataclass(frozen=True)
class MeshLevel:
    """What :func:`read_mesh` read from a 3D level file."""

    #: ``(n, 3) float64``: the corners, in world space (node transforms applied),
    #: all finite. Corners no triangle uses may remain.
    vertices: np.ndarray
    #: ``(m, 3) int64``: corner indices of each triangle, every one of non-zero area.
    triangles: np.ndarray
    #: ``(m,) int64``: for each triangle, the index into ``parts`` it came from.
    triangle_parts: np.ndarray
    #: Names of the file's parts: glTF ``"nodes[i] name"`` (one per mesh node
    #: placed, so two instances of one mesh are two parts), OBJ ``o``/``g`` names.
    parts: tuple
    #: ``(k, 3) float64``: spawn points the file marks; may be empty.
    spawns: np.ndarray
    #: The axis that points up: ``"y"`` or ``"z"``.
    up: str
    #: A short name for the level (the file's stem).
    name: str = ""
    #: Path of the file read.
    source: object = None
    #: Non-fatal problems, one line each: dropped triangles (how many, where),
    #: skipped lines and points, an empty mesh.
    problems: tuple = ()


def read_mesh(path, *, up=None):
    """Read an OBJ, GLB or glTF level as one triangle soup with its parts.

    Parameters
    ----------
    path : str or path
    up : {"y", "z"} or None
        The file's up axis; None takes the format's convention (+y for glTF
        and, by custom, OBJ).

    Returns
    -------
    MeshLevel

    Raises
    ------
    LevelError
        The file is malformed (a bad number, a face indexing past the corners,
        a truncated GLB, a missing buffer...); the message names the file and
        the line, chunk, accessor, buffer or node.
    FileNotFoundError
        No such file.
    ValueError
        ``up`` is not ``"y"``, ``"z"`` or None.

    Examples
    --------
    >>> import tempfile
    >>> obj = '''o floor
    ... v 0 0 0
    ... v 4 0 0
    ... v 4 0 4
    ... v 0 0 4
    ... f 1 2 3 4
    ... f 1 2 2
    ... '''
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "floor.obj"
    ...     _ = path.write_text(obj)
    ...     level = read_mesh(path)
    >>> level.triangles.tolist(), level.parts, level.up   # the quad as two triangles
    ([[0, 1, 2], [0, 2, 3]], ('floor',), 'y')
    >>> level.problems                                    # doctest: +NORMALIZE_WHITESPACE
    ('floor.obj: 1 zero-area triangle of 3 dropped (floor: 1; first at line 7)',)
    """
    if up is not None and up not in UP_AXES:
        raise ValueError(f"up must be 'y', 'z' or None, got {up!r}")
    path = Path(path)
    parse = MESH_EXTENSIONS.get(path.suffix.lower())
    if parse is None:
        raise LevelError(path, None, f"unknown extension {path.suffix!r}; the mesh reader "
                         f"reads {', '.join(MESH_EXTENSIONS)}")
    if not path.is_file():
        raise FileNotFoundError(f"no such level file: {path}")
    short_faces = []
    if parse is parse_obj:
        vertices, triangles, triangle_parts, parts, problems, lines, short_faces = parse(path)
        spawns = np.zeros((0, 3))
    else:
        vertices, triangles, triangle_parts, parts, spawns, problems = parse(path)
        lines = None
    zero_area, non_finite = surface_kinds(vertices, triangles)
    problems = list(problems)
    if short_faces:
        problems.append(_short_faces_line(path, short_faces))
    for what, mask in (("zero-area", zero_area), ("NaN/inf-cornered", non_finite)):
        if mask.any():
            problems.append(_dropped_line(path, what, mask, triangle_parts, parts, lines))
    kept = np.flatnonzero(~(zero_area | non_finite))
    vertices, triangles = _finite_corners(vertices, triangles[kept])
    if not len(triangles):
        problems.append(f"{path.name}: holds no triangles with a surface: nothing to collide "
                        "with")
    return MeshLevel(vertices=vertices, triangles=triangles,
                     triangle_parts=np.ascontiguousarray(triangle_parts[kept]),
                     parts=parts, spawns=spawns, up=up or "y", name=path.stem, source=path,
                     problems=tuple(problems))


def _dropped_line(path, what, mask, triangle_parts, parts, lines):
    """One ``problems`` line: how many triangles went for ``what``, and from which parts.

    Lists the parts with the most dropped triangles first, at most
    :data:`LISTED_PARTS` of them, and for OBJ the line of the first.
    """
    count = int(mask.sum())
    per_part = np.bincount(triangle_parts[mask], minlength=len(parts))
    order = [int(p) for p in np.argsort(-per_part, kind="stable") if per_part[p]]
    first = None if lines is None else int(lines[np.argmax(mask)])
    plural = "" if count == 1 else "s"
    return (f"{path.name}: {count} {what} triangle{plural} of {len(mask)} dropped "
            f"({_by_part([(parts[p], int(per_part[p])) for p in order], first)})")


def _short_faces_line(path, short_faces):
    """One ``problems`` line: how many OBJ faces of fewer than three corners were dropped.

    ``short_faces`` as :func:`~sidestep.io.obj.parse_obj` returns them.
    """
    per_part = {}
    for _, part, _ in short_faces:
        per_part[part] = per_part.get(part, 0) + 1
    order = sorted(per_part.items(), key=lambda item: -item[1])     # stable: file order on ties
    count = len(short_faces)
    plural = "" if count == 1 else "s"
    return (f"{path.name}: {count} face{plural} of fewer than three corners dropped "
            f"({_by_part(order, short_faces[0][0])})")


def _by_part(counts, first_line):
    """``"floor: 2, wall: 1; first at line 7"``: ``(part, count)`` pairs, most first, at
    most :data:`LISTED_PARTS` of them, and the line of the first (None: no lines)."""
    shown = [f"{part}: {n}" for part, n in counts[:LISTED_PARTS]]
    if len(counts) > LISTED_PARTS:
        shown.append(f"{len(counts) - LISTED_PARTS} more parts")
    if first_line is not None:
        shown[-1] += f"; first at line {first_line}"
    return ", ".join(shown)


def _finite_corners(vertices, triangles):
    """Drop NaN/inf corners (no kept triangle uses them) and renumber the triangles."""
    finite = np.isfinite(vertices).all(axis=1)
    if finite.all():
        return np.ascontiguousarray(vertices), triangles
    new_index = np.cumsum(finite) - 1
    return np.ascontiguousarray(vertices[finite]), new_index[triangles]


def read_level(path, *, up=None):
    """Read an OBJ, GLB or glTF file as a :class:`~sidestep.level.Level` with a ``World3D``.

    The level's triangles become one mesh obstacle (id 0; a contact or hit
    names the triangle, in the order :func:`read_mesh` gives, as ``part``),
    blocking from both sides; ``spawns (k, 3)``; ``problems`` as
    :func:`read_mesh` reports them. A file with no triangle left gives an empty
    world. Parameters and errors as :func:`read_mesh`.
    """
    from ..level import Level
    from ..world3d import World3D

    mesh = read_mesh(path, up=up)
    world = World3D(up=mesh.up)
    if len(mesh.triangles):
        world.add_mesh(mesh.vertices, mesh.triangles)
    return Level(world, mesh.spawns, None, mesh.name, mesh.source, mesh.problems)

