"""Wavefront OBJ level geometry: ``v`` corners and ``f`` faces, read line by line.

A small reader of its own rather than trimesh's: trimesh skips a face cut
short (``f 1 2``) without a word and refuses a face indexing past the
corners with a bare ``IndexError`` that names no line; a level reader must
name the line at fault. trimesh stays the cross-check in the tests (same
triangle counts and bounds on every mesh of ``shared/data/meshes``).

What is read:

- ``v x y z [w]`` (three to seven numbers: some exporters append a weight or
  a colour); only ``x y z`` are kept. NaN or infinite corners are kept here
  and their triangles dropped later (:mod:`sidestep.degenerate`).
- ``f`` with three or more corners ``v``, ``v/vt``, ``v//vn`` or ``v/vt/vn``;
  indices from 1, or negative (relative to the corners read so far). A face
  of more than three corners is cut into a fan from its first corner (right
  for the convex faces exporters write). A face of fewer than three corners
  (``f 1 2``: an edge, or a point; real levels have them, and trimesh,
  Blender and pybullet read past them) has no surface: it is returned apart,
  with its line, to be dropped and counted as zero-area triangles are; its
  corners must be readable and in range all the same.
- ``o`` and ``g`` start a new *part*: each triangle records the part it came
  from (the last ``o`` or ``g`` name above it; the file's stem before any).
- ``vt``, ``vn``, ``vp`` are counted (faces may index them); materials,
  smoothing groups and the like are skipped; ``l`` and ``p`` (lines and
  points: no surface) and free-form geometry are skipped and reported.
  Any other statement is an error: in a level file it means a corrupt line.

A line ending in a backslash continues on the next line.
"""
import numpy as np

from ..level import LevelError
from ..tolerances import MAX_COORDINATE

#: Statements that carry nothing for collision and are skipped silently.
IGNORED = frozenset({"mtllib", "usemtl", "s", "mg", "bevel", "c_interp", "d_interp", "lod",
                     "shadow_obj", "trace_obj", "maplib", "usemap", "vp"})
#: Statements of free-form curves and surfaces: skipped, and reported once.
FREE_FORM = frozenset({"cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm",
                       "trim", "hole", "scrv", "sp", "end", "con", "ctech", "stech"})


def parse_obj(path):
    """Read an OBJ file's triangles.

    Parameters
    ----------
    path : Path

    Returns
    -------
    vertices : (n, 3) float64
        As the file has them (may hold NaN or inf; never beyond ``MAX_COORDINATE``).
    triangles : (m, 3) int64
        0-based indices into ``vertices``, every one in range.
    triangle_parts : (m,) int64
        Index into ``parts`` of each triangle.
    parts : tuple of str
        Part names, in the order they first hold a triangle.
    problems : list of str
    lines : (m,) int64
        The line of the face each triangle was cut from.
    short_faces : list of (int, str, tuple of int)
        Faces of fewer than three corners, not in ``triangles``: each one's
        line, part name and 0-based corner indices (in range).

    Raises
    ------
    LevelError
        Naming the line: a bad number, a face indexing past the corners, an
        unknown statement.
    """
    coords = []                       # flat x, y, z
    tris = []                         # flat a, b, c (0-based, absolute; range checked at the end)
    tri_lines = []                    # the line of each triangle
    tri_parts = []
    short_faces = []                  # (line, part, corners) of faces of fewer than 3 corners
    part_ids = {}
    part = path.stem
    counts = {"vt": 0, "vn": 0}
    uv_refs = {"vt": (-1, 0), "vn": (-1, 0)}   # the largest vt/vn index used, and its line
    skipped = {"l": 0, "p": 0}
    free_form = 0
    for n, words in _statements(path):
        key = words[0]
        if key == "v":
            if not 4 <= len(words) <= 8:
                raise LevelError(path, f"line {n}", f"a corner 'v x y z' needs three numbers "
                                 f"(at most seven), got {len(words) - 1}")
            for w in words[1:]:
                _number(path, n, w)
            xyz = [float(w) for w in words[1:4]]
            for value in xyz:
                if MAX_COORDINATE < abs(value) < np.inf:
                    raise LevelError(path, f"line {n}", f"coordinate {value:g} is beyond "
                                     f"+-{MAX_COORDINATE:g}")
            coords.extend(xyz)
        elif key == "f":
            n_vertices = len(coords) // 3
            corners = []
            for w in words[1:]:
                fields = w.split("/")
                if len(fields) > 3 or not fields[0]:
                    raise LevelError(path, f"line {n}", f"a face corner is 'v', 'v/vt', "
                                     f"'v//vn' or 'v/vt/vn', got {w[:40]!r}")
                corners.append(_index(path, n, fields[0], n_vertices, "corner"))
                for kind, field in zip(("vt", "vn"), fields[1:]):
                    if field:
                        index = _index(path, n, field, counts[kind], kind)
                        if index > uv_refs[kind][0]:    # only the largest can be past the end
                            uv_refs[kind] = (index, n)
            if len(corners) < 3:
                short_faces.append((n, part, tuple(corners)))
                continue
            if part not in part_ids:
                part_ids[part] = len(part_ids)
            for i in range(1, len(corners) - 1):
                tris.extend((corners[0], corners[i], corners[i + 1]))
                tri_lines.append(n)
                tri_parts.append(part_ids[part])
        elif key in ("o", "g"):
            part = " ".join(words[1:]) or ("default" if key == "g" else path.stem)
        elif key in counts:
            counts[key] += 1
        elif key in skipped:
            skipped[key] += 1
        elif key in FREE_FORM:
            free_form += 1
        elif key not in IGNORED:
            raise LevelError(path, f"line {n}", f"unknown statement {key[:20]!r}; an OBJ level "
                             "holds v, vt, vn, f, o, g, usemtl, mtllib, s, l, p...")
    vertices = np.array(coords, dtype=np.float64).reshape(-1, 3)
    triangles = np.array(tris, dtype=np.int64).reshape(-1, 3)
    lines = np.array(tri_lines, dtype=np.int64)
    # Absolute indices may point forward (the corner is listed further down);
    # past the last corner is an error, named by the line of the first such
    # face (of three or more corners, or fewer).
    past = [(int(lines[i]), int(triangles[i].max()))
            for i in np.flatnonzero((triangles >= len(vertices)).any(axis=1))[:1]]
    past += [(n, max(corners)) for n, _, corners in short_faces
             if corners and max(corners) >= len(vertices)][:1]
    if past:
        n, index = min(past)
        raise LevelError(path, f"line {n}", f"the face indexes corner {index + 1}, but the file "
                         f"has {len(vertices)} corners ('v' lines)")
    for kind, (index, n) in uv_refs.items():
        if index >= counts[kind]:
            raise LevelError(path, f"line {n}", f"the face indexes {kind} {index + 1}, but the "
                             f"file has {counts[kind]} '{kind}' lines")
    problems = []
    for key, what in (("l", "line ('l')"), ("p", "point ('p')")):
        if skipped[key]:
            problems.append(f"{path.name}: {skipped[key]} {what} statements skipped: they have "
                            "no surface")
    if free_form:
        problems.append(f"{path.name}: {free_form} free-form curve/surface statements skipped; "
                        "only polygon faces are read")
    return (vertices, triangles, np.array(tri_parts, dtype=np.int64), tuple(part_ids),
            problems, lines, short_faces)


def _statements(path):
    """``(line number, words)`` of each statement, comments and blank lines left out."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:       # older exporters write Latin-1 names
        text = raw.decode("latin-1")
    pending, start = "", 0
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        if line.rstrip().endswith("\\"):
            pending, start = pending + line.rstrip()[:-1] + " ", start or n
            continue
        words = (pending + line).split()
        first = start or n
        pending, start = "", 0
        if words:
            yield first, words
    if pending.split():
        yield start, pending.split()


def _number(path, n, word):
    """Raise a :class:`LevelError` unless ``word`` is a decimal number (NaN and inf pass)."""
    try:
        float(word)
    except ValueError:
        raise LevelError(path, f"line {n}", f"expected a number, got {word[:40]!r}") from None
    if "_" in word:                    # float() reads "1_0" as 10: not an OBJ number
        raise LevelError(path, f"line {n}", f"expected a number, got {word[:40]!r}")


def _index(path, n, word, count, what):
    """A 1-based or negative OBJ index as a 0-based one; ``count`` items read so far."""
    digits = word[1:] if word[:1] in "+-" else word
    if not (digits.isascii() and digits.isdigit()):
        raise LevelError(path, f"line {n}", f"expected a {what} index (a whole number), got "
                         f"{word[:40]!r}")
    value = int(word)
    if abs(value) > 2 ** 31:
        raise LevelError(path, f"line {n}", f"{what} index {word[:40]} is beyond any file's "
                         "count")
    if value == 0:
        raise LevelError(path, f"line {n}", f"{what} index 0: OBJ indices start at 1")
    if value < 0:
        if -value > count:
            raise LevelError(path, f"line {n}", f"relative {what} index {value} reaches before "
                             f"the first: only {count} listed above this line")
        return count + value
    return value - 1
