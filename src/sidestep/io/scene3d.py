"""The scene file for 3D worlds: a ``World3D``'s obstacles and spawns, as JSON.

The same format as :mod:`sidestep.io.scene` (``"format": "sidestep-scene"``,
version 1, or 2 when an obstacle is on a layer other than 0; ``id`` giving
the load order; numbers written with ``repr`` so a round trip is exact),
marked ``"dimensions": 3`` and holding the 3D families.
:func:`sidestep.load` and :func:`sidestep.io.save` pick this module by that
key and by the world's type::

    {
     "format": "sidestep-scene",
     "version": 1,
     "dimensions": 3,
     "name": "yard",
     "up": "y",
     "panels": [
      {"id": 0, "vertices": [[0.0, 0.0, 0.0], [0.0, 3.0, 0.0], [4.0, 3.0, 0.0]], "sides": "both"}
     ],
     "meshes": [
      {"id": 1, "vertices": [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
       "triangles": [[0, 2, 1]], "sides": "front"}
     ],
     "boxes": [{"id": 2, "layer": 4, "min": [1.0, 0.0, 1.0], "max": [2.0, 1.0, 2.0]}],
     "spheres": [{"id": 3, "center": [0.0, 1.0, 5.0], "radius": 0.5}],
     "cylinders": [{"id": 4, "base": [3.0, 0.0, 3.0], "radius": 0.3, "height": 4.0}],
     "voxels": [{"id": 5, "cell_size": 1.0, "origin": [0.0, 0.0, 0.0], "blocked": [
       ["10", "00"],
       ["01", "11"]
     ]}],
     "heightfields": [{"id": 6, "cell_size": 2.0, "origin": [-8.0, -1.0, -8.0],
       "heights": [[0.0, 0.5], [0.25, 1.0]]}],
     "spawns": [[0.0, 1.0, 0.0]]
    }

- ``up`` is the world's up axis (default ``"y"``); a panel's or mesh's
  ``sides`` defaults to ``"both"``, a voxel table's or heightfield's
  ``origin`` to ``[0, 0, 0]``.
- A voxel table's ``blocked[i][j]`` is a string of ``0`` and ``1``, character
  ``k`` being cell ``(i, j, k)``: the ``(nx, ny, nz)`` table of
  :meth:`~sidestep.World3D.add_voxels`.
- A heightfield's ``heights`` lists its rows (``heights[r][c]``), as
  :meth:`~sidestep.World3D.add_heightfield` takes them.
- An obstacle's ``layer`` (``0 .. 31``, :mod:`sidestep.layers`) defaults to 0
  and is written only when not 0; it needs version 2.
- ``bodies`` are the world's rigid bodies: their obstacles written in the
  body's own frame, the body's ``position`` and ``rotation`` (a unit
  quaternion ``[w, x, y, z]``) beside them (see :mod:`sidestep.io.scene_bodies`);
  they need version 2.
- Family keys, ``name``, ``up`` and ``spawns`` may be left out; ids are
  ``0 .. n-1`` over all obstacles, or absent from all (then obstacles are
  added family by family in the order above). A bad value is a
  :class:`~sidestep.level.LevelError` naming the file and its JSON path
  (``meshes[0].triangles``), including what ``World3D`` refuses (a
  non-planar panel...).

Its JSON Schema ships beside this module as ``scene3d.schema.json``
(:func:`schema`), apart from the 2D one so each can change on its own.
"""
import json
import os
from importlib import resources
from pathlib import Path

import numpy as np

from ..level import Level, LevelError
from ..world3d import World3D
from .scene import (FORMAT, VERSION, _Checker, _dumps, _joined, _kind, _load_order,
                    _needs_version_2, _numbered, check_version, record_layer)
from .scene_bodies import body_frame_records3d, body_records, make_bodies, read_bodies

#: The value of ``"dimensions"`` that marks a 3D scene.
DIMENSIONS = 3
#: File key of each World3D family, in the order obstacles without ids are added.
FAMILY_KEYS = {"panel": "panels", "mesh": "meshes", "box": "boxes", "sphere": "spheres",
               "cylinder": "cylinders", "voxels": "voxels", "heightfield": "heightfields"}
_TOP_KEYS = {"format", "version", "dimensions", "name", "up", "bodies", "spawns",
             *FAMILY_KEYS.values()}
#: Per family key: the keys a record must have, and all the keys it may have.
_RECORD_KEYS = {"panels": ({"vertices"}, {"vertices", "sides"}),
                "meshes": ({"vertices", "triangles"}, {"vertices", "triangles", "sides"}),
                "boxes": ({"min", "max"}, {"min", "max"}),
                "spheres": ({"center", "radius"}, {"center", "radius"}),
                "cylinders": ({"base", "radius", "height"}, {"base", "radius", "height"}),
                "voxels": ({"blocked", "cell_size"}, {"blocked", "cell_size", "origin"}),
                "heightfields": ({"heights", "cell_size"}, {"heights", "cell_size", "origin"})}
# Every record may also have its id and its layer.
_RECORD_KEYS = {k: (need, have | {"id", "layer"}) for k, (need, have) in _RECORD_KEYS.items()}


def schema():
    """The JSON Schema (draft 2020-12) of the 3D scene format, as a dict.

    >>> schema()["properties"]["dimensions"]
    {'const': 3}
    """
    return json.loads(resources.files(__package__).joinpath("scene3d.schema.json").read_text())


# ====================================================================== save
def save(world, path, *, spawns=None, name=""):
    """Write a ``World3D`` (and optionally spawns) as a 3D sidestep scene file.

    Parameters
    ----------
    world : World3D
    path : str or path
        A ``.json`` file, written beside itself first and then renamed.
    spawns : (n, 3) float64, optional
    name : str

    Returns
    -------
    Path
    """
    if not isinstance(world, World3D):
        raise TypeError(f"world must be a World3D, got {type(world).__name__}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise ValueError(f"path must end in .json (scenes are written as JSON), got {path.name!r}")
    text = _dumps(scene_data(world, spawns=spawns, name=name))
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def scene_data(world, *, spawns=None, name=""):
    """The scene of a ``World3D`` as plain Python data (obstacles numbered 0..n-1 in id order)."""
    records = []
    # A body's obstacles in its own frame (boxes, cylinders and grids the world keeps so).
    in_bodies = body_frame_records3d(world, _record)
    for family, key in FAMILY_KEYS.items():
        g = world.geometry(family)
        for i, oid in enumerate(g["ids"].tolist()):
            records.append((oid, key, in_bodies[oid] if oid in in_bodies
                            else _record(family, g, i)))
    records.sort(key=lambda r: r[0])
    rank = {oid: n for n, (oid, _, _) in enumerate(records)}
    bodies = body_records(world, rank)
    layer = dict(zip(world.ids.tolist(), world.layers(world.ids).tolist()))
    data = {"format": FORMAT, "version": VERSION if bodies or any(layer.values()) else 1,
            "dimensions": DIMENSIONS}
    if name:
        data["name"] = name
    data["up"] = world.up
    for key in FAMILY_KEYS.values():
        data[key] = [_numbered(rank, layer[oid], rec) for rank, (oid, k, rec)
                     in enumerate(records) if k == key]
    data["bodies"] = bodies
    data = {k: v for k, v in data.items() if v != []}
    if spawns is not None and len(spawns):
        arr = np.asarray(spawns, dtype=np.float64)
        if arr.ndim != 2 or arr.shape[1] != 3:
            raise ValueError(f"spawns must have shape (n, 3), got {arr.shape}")
        if not np.all(np.isfinite(arr)):
            raise ValueError("spawns must be finite")
        data["spawns"] = arr.tolist()
    return data


def _record(family, g, i):
    if family in ("panel", "mesh"):
        rec = {"vertices": g["vertices"][i].tolist()}
        if family == "mesh":
            rec["triangles"] = np.asarray(g["triangles"][i]).tolist()
        rec["sides"] = g["sides"][i]
        return rec
    if family == "box":
        return {"min": g["mins"][i].tolist(), "max": g["maxs"][i].tolist()}
    if family == "sphere":
        return {"center": g["centers"][i].tolist(), "radius": float(g["radii"][i])}
    if family == "cylinder":
        return {"base": g["bases"][i].tolist(), "radius": float(g["radii"][i]),
                "height": float(g["heights"][i])}
    rec = {"cell_size": float(g["cell_size"][i]), "origin": g["origin"][i].tolist()}
    if family == "heightfield":
        rec["heights"] = np.asarray(g["heights"][i]).tolist()
        return rec
    table = np.asarray(g["blocked"][i], dtype=np.uint8)
    nx, ny, nz = table.shape
    text = (table + 48).tobytes().decode("ascii")             # '0' is byte 48
    rec["blocked"] = [[text[(a * ny + b) * nz:(a * ny + b + 1) * nz] for b in range(ny)]
                      for a in range(nx)]
    return rec


# ====================================================================== load
def is_scene3d(data):
    """Whether parsed scene ``data`` is a 3D scene (it has a ``dimensions`` other than 2)."""
    return isinstance(data, dict) and "dimensions" in data and data["dimensions"] != 2


def scene_from_data(data, path):
    """A :class:`Level` holding a ``World3D`` from parsed 3D scene ``data``."""
    doc = _Checker3D(path)
    doc.mapping(data, "")
    if data.get("format") != FORMAT:
        doc.fail("format", f'must be "{FORMAT}", got {data.get("format")!r}')
    if data.get("dimensions") != DIMENSIONS or isinstance(data.get("dimensions"), bool):
        doc.fail("dimensions", f"must be 2 or 3, got {data.get('dimensions')!r}")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        doc.fail(unknown[0], f"unknown key; a 3D scene has {', '.join(sorted(_TOP_KEYS))}")
    version = check_version(doc, data)
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        doc.fail("name", f"must be a string, got {type(name).__name__}")
    up = data.get("up", "y")
    if up not in ("x", "y", "z"):
        doc.fail("up", f'must be "x", "y" or "z", got {up!r}')

    obstacles = []                    # (id or None, World3D method, arguments, place)
    layers = []                       # and each one's layer
    for family, key in FAMILY_KEYS.items():
        records = doc.sequence(data.get(key, []), key)
        for i, rec in enumerate(records):
            place = f"{key}[{i}]"
            obstacles.append((*_obstacle(doc, family, rec, place), place))
            layers.append(record_layer(doc, rec, place, version))
    order = _load_order(doc, obstacles)
    bodies = read_bodies(doc, data["bodies"], len(obstacles), dim=3) \
        if "bodies" in data and _needs_version_2(doc, "bodies", version) else []
    world = World3D(up=up)
    for n in order:
        _, method, args, place = obstacles[n]
        try:
            getattr(world, method)(*args, layer=layers[n])
        except (ValueError, TypeError) as exc:
            raise LevelError(path, place, str(exc)) from None
    make_bodies(world, bodies, path)
    spawns = np.zeros((0, 3))
    if "spawns" in data:
        pts = doc.sequence(data["spawns"], "spawns")
        spawns = np.array([doc.point3(p, f"spawns[{i}]") for i, p in enumerate(pts)],
                          dtype=np.float64).reshape(-1, 3)
    return Level(world=world, spawns=spawns, scenarios=None, name=name, source=path)


def _obstacle(doc, family, rec, place):
    """``(id or None, World3D method, its arguments)`` of one obstacle record."""
    oid = doc.record(rec, place, FAMILY_KEYS[family], *_RECORD_KEYS[FAMILY_KEYS[family]])
    if family in ("panel", "mesh"):
        sides = rec.get("sides", "both")
        if sides not in ("both", "front"):
            doc.fail(f"{place}.sides", f'must be "both" or "front", got {_kind(sides)}')
        pts = doc.sequence(rec["vertices"], f"{place}.vertices")
        vertices = np.array([doc.point3(p, place, f"vertices[{j}]") for j, p in enumerate(pts)],
                            dtype=np.float64).reshape(-1, 3)
        if family == "panel":
            return oid, "add_panels", ([vertices], sides)
        tris = doc.sequence(rec["triangles"], f"{place}.triangles")
        triangles = np.array([doc.triangle(t, place, f"triangles[{j}]")
                              for j, t in enumerate(tris)], dtype=np.int64).reshape(-1, 3)
        return oid, "add_mesh", (vertices, triangles, sides)
    if family == "box":
        return oid, "add_boxes", ([doc.point3(rec["min"], place, "min")],
                                  [doc.point3(rec["max"], place, "max")])
    if family == "sphere":
        return oid, "add_spheres", ([doc.point3(rec["center"], place, "center")],
                                    doc.number(rec["radius"], place, "radius", low=0.0))
    if family == "cylinder":
        return oid, "add_cylinders", ([doc.point3(rec["base"], place, "base")],
                                      doc.number(rec["radius"], place, "radius", low=0.0,
                                                 open_low=True),
                                      doc.number(rec["height"], place, "height", low=0.0,
                                                 open_low=True))
    size = doc.number(rec["cell_size"], place, "cell_size", low=0.0, open_low=True)
    origin = doc.point3(rec.get("origin", [0.0, 0.0, 0.0]), place, "origin")
    if family == "heightfield":
        return oid, "add_heightfield", (_heights(doc, rec["heights"], f"{place}.heights"),
                                        size, origin)
    return oid, "add_voxels", (_blocked(doc, rec["blocked"], f"{place}.blocked"), size, origin)


def _heights(doc, rows, place):
    """The ``(rows, cols)`` float64 heights of a heightfield record."""
    rows = doc.sequence(rows, place)
    if len(rows) < 2:
        doc.fail(place, f"a heightfield needs at least 2 rows, got {len(rows)}")
    out = []
    for r, row in enumerate(doc.sequence(x, f"{place}[{r}]") for r, x in enumerate(rows)):
        if len(row) != len(rows[0]) or len(row) < 2:
            doc.fail(f"{place}[{r}]", f"has {len(row)} heights; every row must have "
                     f"{len(rows[0])} (row 0), at least 2")
        out.append([doc.number(h, f"{place}[{r}]", f"[{c}]") for c, h in enumerate(row)])
    return np.array(out, dtype=np.float64)


def _blocked(doc, layers, place):
    """The ``(nx, ny, nz)`` bool table of a voxel record's ``blocked`` strings."""
    layers = doc.sequence(layers, place)
    if not layers:
        doc.fail(place, "a voxel table needs at least one layer")
    shape = None
    cells = []
    for i, layer in enumerate(layers):
        layer = doc.sequence(layer, f"{place}[{i}]")
        for j, row in enumerate(layer):
            where = f"{place}[{i}][{j}]"
            if not isinstance(row, str):
                doc.fail(where, f"must be a string of 0 and 1, got {_kind(row)}")
            if not row or set(row) - {"0", "1"}:
                doc.fail(where, "must be a non-empty string of the characters 0 and 1")
            cells.append(row)
        if shape is None:
            shape = (len(layer), len(layer[0]) if layer else 0)
        if not layer or len(layer) != shape[0] or any(len(r) != shape[1] for r in layer):
            doc.fail(f"{place}[{i}]", f"every layer must hold {shape[0]} strings of "
                     f"{shape[1]} cells (as layer 0), at least one")
    flat = np.frombuffer("".join(cells).encode("ascii"), dtype=np.uint8)
    return (flat == 49).reshape(len(layers), shape[0], shape[1])


class _Checker3D(_Checker):
    """The scene checks, with 3D points and triangles."""

    def point3(self, value, *where):
        if not isinstance(value, list) or len(value) != 3:
            self.fail(_joined(where), f"must be a point [x, y, z], got {_kind(value)}")
        return [self.number(value[a], *where, f"[{a}]") for a in range(3)]

    def triangle(self, value, *where):
        if not isinstance(value, list) or len(value) != 3:
            self.fail(_joined(where), f"must be 3 corner indices, got {_kind(value)}")
        out = [self.integer(value[a], *where, f"[{a}]") for a in range(3)]
        for a, i in enumerate(out):
            if i < 0:
                self.fail(_joined((*where, f"[{a}]")), f"must be a corner index >= 0, got {i}")
        return out
