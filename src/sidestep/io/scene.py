"""sidestep's own scene file: a world's obstacles, spawns and scenarios, as JSON.

The format, version 2 (its JSON Schema ships beside this module as
``scene.schema.json``)::

    {
     "format": "sidestep-scene",
     "version": 2,
     "name": "house",
     "circles": [
      {"id": 0, "center": [0.0, 1.0], "radius": 1.0}
     ],
     "walls": [
      {"id": 1, "layer": 3, "start": [-5.0, -3.0], "end": [5.0, -3.0], "clearance": 0.5}
     ],
     "boxes": [
      {"id": 2, "min": [3.0, 2.0], "max": [4.0, 3.0]}
     ],
     "polygons": [
      {"id": 3, "vertices": [[-4.0, 2.0], [-3.0, 1.5], [-2.5, 3.0]]}
     ],
     "grids": [
      {"id": 4, "cell_size": 0.5, "origin": [4.0, -2.0], "blocked": [
       "1000",
       "0100"
      ]}
     ],
     "bodies": [
      {"obstacles": [2, 3], "position": [1.0, 0.5], "angle": 0.25}
     ],
     "spawns": [[0.0, -1.5]],
     "scenarios": [
      {"start": [0.0, -1.5], "goal": [3.0, 3.5], "length": 5.2}
     ]
    }

- Every family key, ``name``, ``bodies``, ``spawns`` and ``scenarios`` may
  be left out.
- ``id`` gives the load order: ids must be ``0 .. n-1`` over all obstacles,
  and ``load`` adds them in that order, so a saved world comes back with the
  same ids. Leave ``id`` out of every obstacle (hand-written files) and they
  are added family by family in the order above. :func:`save` writes the
  world's obstacles in id order; a world whose obstacles were removed has
  gaps in its ids, and the file numbers them ``0 .. n-1`` in the same order.
- A wall's ``clearance`` defaults to 0 and a grid's ``origin`` to ``[0, 0]``.
- A wall with ``"one_sided": true`` is a piece of the level's edge, walkable
  on its left from ``start`` to ``end`` (see ``World2D.add_walls``); the key
  is written only for such walls and defaults to false.
- A grid's ``blocked`` lists the rows of its look-up table as strings of
  ``0`` (free) and ``1`` (blocked), one character per cell: string ``r``,
  character ``c`` is cell ``(r, c)``, which covers
  ``x in [ox + c*s, ox + (c+1)*s]``, ``y in [oy + r*s, oy + (r+1)*s]``. Row 0
  (the lowest y) comes first, so with y pointing up the text reads upside down.
- An obstacle's ``layer`` (its collision layer, ``0 .. 31``: see
  :mod:`sidestep.layers`) defaults to 0 and is written only when not 0.
- ``bodies`` are the world's rigid bodies: their obstacles are written in
  the body's own frame and the body's pose beside them (see
  :mod:`sidestep.io.scene_bodies`).
- Versions: :func:`save` writes version 1 for a world without layers and
  bodies (the same file as before they existed) and version 2 otherwise;
  ``layer`` and ``bodies`` need version 2. Both versions are read.
- A scenario's ``length`` (the optimal path length) may be left out.
- Numbers are written with Python's ``repr``, which reads back as the same
  float64, so a round trip is exact. NaN and infinities are refused.

A ``.toml`` file with the same keys (``[[circles]]`` tables and so on) is
read too; :func:`save` writes JSON only.

3D worlds (``World3D``) use the same format marked ``"dimensions": 3``, with
the 3D families: see :mod:`sidestep.io.scene3d`, which :func:`save` and
:func:`scene_from_data` hand such worlds and files to.
"""
import json
import math
import os
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .._types import StrPath
from ..layers import LAYERS
from ..level import Level, LevelError, Scenarios
from ..world import World2D
from .build import WorldBuilder
from .scene_bodies import body_frame_records, body_records, make_bodies, read_bodies

if TYPE_CHECKING:
    from ..world3d import World3D

#: The value of ``"format"`` that marks a sidestep scene.
FORMAT = "sidestep-scene"
#: The newest scene format version, which this module writes for a world with
#: layers or bodies (version 1 otherwise: the files written before they existed).
VERSION = 2
#: The versions this module reads.
VERSIONS = (1, 2)

#: File key of each family, in the order obstacles without ids are added.
FAMILY_KEYS = {"circle": "circles", "wall": "walls", "box": "boxes", "polygon": "polygons",
               "grid": "grids"}
_TOP_KEYS = {"format", "version", "name", "bodies", "spawns", "scenarios",
             *FAMILY_KEYS.values()}
#: Per family key: the keys a record must have, and all the keys it may have.
_RECORD_KEYS = {"circles": ({"center", "radius"}, {"id", "layer", "center", "radius"}),
                "walls": ({"start", "end"},
                          {"id", "layer", "start", "end", "clearance", "one_sided"}),
                "boxes": ({"min", "max"}, {"id", "layer", "min", "max"}),
                "polygons": ({"vertices"}, {"id", "layer", "vertices"}),
                "grids": ({"blocked", "cell_size"},
                          {"id", "layer", "blocked", "cell_size", "origin"})}


def schema():
    """The JSON Schema (draft 2020-12) of the scene format, as a dict.

    >>> schema()["properties"]["format"]
    {'const': 'sidestep-scene'}
    """
    return json.loads(resources.files(__package__).joinpath("scene.schema.json").read_text())


# ====================================================================== save
def save(world: "World2D | World3D | Level", path: StrPath, *, spawns: ArrayLike | None = None,
         scenarios: Scenarios | None = None, name: str = "") -> Path:
    """Write a world (and optionally spawns and scenarios) as a sidestep scene file.

    Parameters
    ----------
    world : World2D or Level
        The obstacles to write, in id order. A :class:`~sidestep.level.Level`
        also supplies ``spawns``, ``scenarios`` and ``name`` unless given here.
    path : str or path
        A ``.json`` file; written to a temporary file beside it first and
        then renamed, so a failed save never leaves half a file.
    spawns : (n, 2) float64, optional
    scenarios : Scenarios, optional
    name : str

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile, sidestep
    >>> from sidestep.io import load, save
    >>> world = sidestep.World2D()
    >>> world.add_circles([(0.1, 0.2)], 0.3).tolist()
    [0]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     level = load(save(world, Path(tmp) / "tree.json", name="tree"))
    >>> level.name, level.world.geometry("circle")["radii"].tolist()
    ('tree', [0.3])
    """
    from ..world3d import World3D
    if isinstance(world, World3D) or (isinstance(world, Level)
                                      and isinstance(world.world, World3D)):
        from . import scene3d
        if scenarios is not None:
            raise TypeError("scenarios are 2D start/goal pairs; a 3D scene has none")
        if isinstance(world, Level):
            return scene3d.save(world.world, path, name=name or world.name,
                                spawns=world.spawns if spawns is None else spawns)
        return scene3d.save(world, path, spawns=spawns, name=name)
    if isinstance(world, Level):
        spawns = world.spawns if spawns is None else spawns
        scenarios = world.scenarios if scenarios is None else scenarios
        name = name or world.name
        world = world.world
    if not isinstance(world, World2D):
        raise TypeError(f"world must be a World2D or a Level, got {type(world).__name__}")
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise ValueError(f"path must end in .json (scenes are written as JSON), got {path.name!r}")
    text = _dumps(scene_data(world, spawns=spawns, scenarios=scenarios, name=name))
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def scene_data(world, *, spawns=None, scenarios=None, name=""):
    """The scene of ``world`` as plain Python data (what :func:`save` writes as JSON).

    Obstacles are numbered ``0 .. n-1`` in id order (see the module notes).
    """
    in_bodies = body_frame_records(world, _record)
    records = []                      # (world id, family key, record)
    for family, key in FAMILY_KEYS.items():
        g = world.geometry(family)
        for i, oid in enumerate(g["ids"].tolist()):
            records.append((oid, key, in_bodies[oid] if oid in in_bodies
                            else _record(family, g, i)))
    records.sort(key=lambda r: r[0])
    rank = {oid: n for n, (oid, _, _) in enumerate(records)}
    layer = dict(zip(world.ids.tolist(), world.layers(world.ids).tolist()))
    bodies = body_records(world, rank)
    newer = bool(bodies) or any(layer.values())
    data = {"format": FORMAT, "version": VERSION if newer else 1}
    if name:
        data["name"] = name
    for key in FAMILY_KEYS.values():
        data[key] = [_numbered(rank, layer[oid], rec) for rank, (oid, k, rec)
                     in enumerate(records) if k == key]
    data["bodies"] = bodies
    data = {k: v for k, v in data.items() if v != []}
    if spawns is not None and len(spawns):
        data["spawns"] = _finite_points(spawns, "spawns").tolist()
    if scenarios is not None:
        data["scenarios"] = _scenario_records(scenarios)
    return data


def _numbered(rank, layer, record):
    """An obstacle's record with its file id first and its layer (if not 0) after it."""
    return {"id": rank, "layer": layer, **record} if layer else {"id": rank, **record}


def _record(family, g, i):
    if family == "circle":
        return {"center": g["centers"][i].tolist(), "radius": float(g["radii"][i])}
    if family == "wall":
        record = {"start": g["starts"][i].tolist(), "end": g["ends"][i].tolist(),
                  "clearance": float(g["clearance"][i])}
        if g["one_sided"][i]:
            record["one_sided"] = True
        return record
    if family == "box":
        return {"min": g["mins"][i].tolist(), "max": g["maxs"][i].tolist()}
    if family == "polygon":
        return {"vertices": g["vertices"][i].tolist()}
    table = np.asarray(g["blocked"][i], dtype=np.uint8)
    # '0' is byte 48: one byte per cell, then cut into rows.
    text = (table + 48).tobytes().decode("ascii")
    cols = table.shape[1]
    return {"cell_size": float(g["cell_size"][i]), "origin": g["origin"][i].tolist(),
            "blocked": [text[r * cols:(r + 1) * cols] for r in range(table.shape[0])]}


def _finite_points(value, name):
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must have shape (n, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def _scenario_records(scenarios):
    if not isinstance(scenarios, Scenarios):
        raise TypeError(f"scenarios must be a Scenarios, got {type(scenarios).__name__}")
    starts = _finite_points(scenarios.starts, "scenarios.starts")
    goals = _finite_points(scenarios.goals, "scenarios.goals")
    lengths = np.asarray(scenarios.lengths, dtype=np.float64).reshape(-1)
    if len(goals) != len(starts) or len(lengths) not in (0, len(starts)):
        raise ValueError("scenarios.starts, goals and lengths must have the same length "
                         f"(lengths may be empty), got {len(starts)}, {len(goals)}, "
                         f"{len(lengths)}")
    out = []
    for i in range(len(starts)):
        rec = {"start": starts[i].tolist(), "goal": goals[i].tolist()}
        # NaN means "not given" in Scenarios; JSON has no NaN, so leave it out.
        if len(lengths) and np.isfinite(lengths[i]):
            rec["length"] = float(lengths[i])
        out.append(rec)
    return out


def _dumps(data):
    """JSON text with one obstacle (and one grid row) per line, for readable diffs."""
    def leaf(value):
        return json.dumps(value, allow_nan=False)

    lines = ["{"]
    items = list(data.items())
    for n, (key, value) in enumerate(items):
        end = "," if n < len(items) - 1 else ""
        if not isinstance(value, list):
            lines.append(f" {leaf(key)}: {leaf(value)}{end}")
            continue
        lines.append(f" {leaf(key)}: [")
        for m, item in enumerate(value):
            sep = "," if m < len(value) - 1 else ""
            if isinstance(item, dict) and "blocked" in item:
                head = {k: v for k, v in item.items() if k != "blocked"}
                lines.append("  " + leaf(head)[:-1] + ', "blocked": [')
                rows = item["blocked"]
                lines.extend(f"   {leaf(row)}{',' if r < len(rows) - 1 else ''}"
                             for r, row in enumerate(rows))
                lines.append(f"  ]}}{sep}")
            else:
                lines.append(f"  {leaf(item)}{sep}")
        lines.append(f" ]{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ====================================================================== load
def read_scene(path):
    """Read a sidestep scene file (``.json``, or ``.toml`` with the same keys).

    Returns
    -------
    Level
        ``Level.name`` is the file's ``name`` or, without one, the file's stem.

    Raises
    ------
    LevelError
        For a file that is not valid JSON/TOML (with line and column) or not
        a valid scene (with the JSON path of the first bad value, such as
        ``walls[3].clearance``).
    """
    path = Path(path)
    raw = path.read_bytes()
    if path.suffix.lower() == ".toml":
        text = decode_text(raw, path)
        try:
            data = tomllib.loads(text)
        except ValueError as exc:             # TOMLDecodeError, or a 4300-digit integer
            found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
            place = f"line {found[1]}, column {found[2]}" if found else None
            raise LevelError(path, place, f"invalid TOML: {exc}") from None
    else:
        data = parse_json(raw, path)
    return scene_from_data(data, path)


def decode_text(raw, path):
    """``raw`` bytes as UTF-8 text, or a LevelError naming the first bad byte."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LevelError(path, f"byte {exc.start}", "not UTF-8 text") from None


def parse_json(raw: bytes, path: Path) -> Any:
    """JSON data of ``raw`` bytes, or a LevelError with the line and column of the syntax error."""
    text = decode_text(raw, path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LevelError(path, f"line {exc.lineno}, column {exc.colno}",
                         f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise LevelError(path, None, "invalid JSON: nested too deeply") from None
    except ValueError as exc:       # an integer of more than 4300 digits, say
        raise LevelError(path, None, f"invalid JSON: {exc}") from None


def is_scene(data: object) -> bool:
    """Whether parsed JSON/TOML ``data`` says it is a sidestep scene."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def scene_from_data(data: Any, path: Path) -> Level:
    """A :class:`Level` from parsed scene ``data`` (see :func:`read_scene`)."""
    from . import scene3d
    if scene3d.is_scene3d(data):
        return scene3d.scene_from_data(data, path)
    doc = _Checker(path)
    doc.mapping(data, "")
    if data.get("format") != FORMAT:
        doc.fail("format", f'must be "{FORMAT}", got {data.get("format")!r}')
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        doc.fail(unknown[0], f"unknown key; a scene has {', '.join(sorted(_TOP_KEYS))}")
    version = check_version(doc, data)
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        doc.fail("name", f"must be a string, got {type(name).__name__}")

    obstacles = []                    # (id or None, WorldBuilder method, arguments, place)
    layers = []                       # and each one's layer
    for family, key in FAMILY_KEYS.items():
        records = doc.sequence(data.get(key, []), key)
        for i, rec in enumerate(records):
            place = f"{key}[{i}]"
            obstacles.append((*_obstacle(doc, family, rec, place), place))
            layers.append(record_layer(doc, rec, place, version))
    order = _load_order(doc, obstacles)
    bodies = read_bodies(doc, data["bodies"], len(obstacles)) \
        if "bodies" in data and _needs_version_2(doc, "bodies", version) else []

    builder = WorldBuilder(path)
    for n in order:
        _, method, args, _ = obstacles[n]
        getattr(builder, method)(*args, layer=layers[n])
    world = builder.world()
    make_bodies(world, bodies, path)
    spawns = np.zeros((0, 2))
    if "spawns" in data:
        pts = doc.sequence(data["spawns"], "spawns")
        spawns = np.array([doc.point(p, f"spawns[{i}]") for i, p in enumerate(pts)])
        spawns = spawns.reshape(-1, 2)
    scenarios = _scenarios(doc, data["scenarios"]) if "scenarios" in data else None
    return Level(world=world, spawns=spawns, scenarios=scenarios, name=name, source=path)


def check_version(doc, data):
    """The file's ``version``, one of :data:`VERSIONS` (else a LevelError at ``version``)."""
    version = data.get("version")
    if version is None:
        doc.fail("version", "missing key")
    if isinstance(version, bool) or not isinstance(version, int):
        doc.fail("version", f"must be an integer, got {version!r}")
    if version not in VERSIONS:
        doc.fail("version", f"this sidestep reads scene versions "
                 f"{', '.join(map(str, VERSIONS))}, got {version}")
    return version


def record_layer(doc, rec, place, version):
    """An obstacle record's ``layer``: 0 if absent, else checked as ``0 .. 31``."""
    if "layer" not in rec:
        return 0
    _needs_version_2(doc, f"{place}.layer", version)
    value = doc.integer(rec["layer"], place, "layer")
    if not 0 <= value < LAYERS:
        doc.fail(f"{place}.layer", f"must be a layer 0..{LAYERS - 1}, got {value}")
    return value


def _needs_version_2(doc, place, version):
    if version < 2:
        doc.fail(place, f"needs scene version 2 (layers and bodies); the file says {version}")
    return True


def _obstacle(doc, family, rec, place):
    """``(id or None, WorldBuilder method, its arguments)`` of one obstacle record."""
    oid = doc.record(rec, place, FAMILY_KEYS[family], *_RECORD_KEYS[FAMILY_KEYS[family]])
    if family == "circle":
        return oid, "circles", ([doc.point(rec["center"], place, "center")],
                                [doc.number(rec["radius"], place, "radius", low=0.0)], [place])
    if family == "wall":
        a = doc.point(rec["start"], place, "start")
        b = doc.point(rec["end"], place, "end")
        if a == b:
            doc.fail(place, "start and end are the same point: a wall needs a length "
                     "(use a circle for a post)")
        clearance = doc.number(rec.get("clearance", 0.0), place, "clearance", low=0.0)
        one_sided = rec.get("one_sided", False)
        if not isinstance(one_sided, bool):
            doc.fail(f"{place}.one_sided", f"expected true or false, got {str(one_sided)[:40]}")
        return oid, "walls", ([a], [b], [clearance], [place], [one_sided])
    if family == "box":
        lo = doc.point(rec["min"], place, "min")
        hi = doc.point(rec["max"], place, "max")
        if not (lo[0] < hi[0] and lo[1] < hi[1]):
            doc.fail(place, f"min must be below max on both axes, got min={lo} max={hi}")
        return oid, "boxes", ([lo], [hi], [place])
    if family == "polygon":
        pts = doc.sequence(rec["vertices"], f"{place}.vertices")
        if len(pts) < 3:
            doc.fail(f"{place}.vertices", f"a polygon needs at least 3 vertices, got {len(pts)}")
        vertices = [doc.point(p, place, f"vertices[{j}]") for j, p in enumerate(pts)]
        return oid, "polygon", (np.array(vertices), place)
    return oid, "grid", (_blocked(doc, rec["blocked"], f"{place}.blocked"),
                         doc.number(rec["cell_size"], place, "cell_size", low=0.0,
                                    open_low=True),
                         doc.point(rec.get("origin", [0.0, 0.0]), place, "origin"), place)


def _blocked(doc, rows, place):
    """The ``(rows, cols)`` bool table of a grid's ``blocked`` strings."""
    rows = doc.sequence(rows, place)
    if not rows:
        doc.fail(place, "a grid needs at least one row")
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            doc.fail(f"{place}[{r}]", f"must be a string of 0 and 1, got {type(row).__name__}")
        if len(row) != len(rows[0]) or not row:
            doc.fail(f"{place}[{r}]", f"has {len(row)} cells; every row must have "
                     f"{len(rows[0])} (row 0), at least 1")
    cells = np.frombuffer("".join(rows).encode("utf-8"), dtype=np.uint8)
    bad = (cells != 48) & (cells != 49)                      # b"0", b"1"
    if bad.any() or len(cells) != len(rows) * len(rows[0]):
        r = int(np.argmax(bad)) // len(rows[0]) if bad.any() else \
            next(r for r, row in enumerate(rows) if not row.isascii())
        doc.fail(f"{place}[{r}]", "must hold only the characters 0 and 1")
    return (cells == 49).reshape(len(rows), len(rows[0]))


def _load_order(doc, obstacles):
    """Indices into ``obstacles`` in the order to add them (by id, or as listed)."""
    with_id = [n for n, o in enumerate(obstacles) if o[0] is not None]
    if not with_id:
        return list(range(len(obstacles)))
    if len(with_id) < len(obstacles):
        missing = next(o for o in obstacles if o[0] is None)
        doc.fail(f"{missing[3]}.id", "missing key: give every obstacle an id, or none")
    seen = {}
    for oid, _, _, place in obstacles:
        if oid in seen:
            doc.fail(f"{place}.id", f"id {oid} is also used by {seen[oid]}")
        if not 0 <= oid < len(obstacles):
            doc.fail(f"{place}.id", f"ids must be 0 .. {len(obstacles) - 1} (one per "
                     f"obstacle), got {oid}")
        seen[oid] = place
    return sorted(range(len(obstacles)), key=lambda n: obstacles[n][0])


def _scenarios(doc, value):
    records = doc.sequence(value, "scenarios")
    starts, goals, lengths = [], [], []
    for i, rec in enumerate(records):
        place = f"scenarios[{i}]"
        doc.mapping(rec, place)
        for k in sorted({"start", "goal"} - set(rec)):
            doc.fail(f"{place}.{k}", "missing key")
        for k in sorted(set(rec) - {"start", "goal", "length"}):
            doc.fail(f"{place}.{k}", "unknown key; scenarios have start, goal, length")
        starts.append(doc.point(rec["start"], place, "start"))
        goals.append(doc.point(rec["goal"], place, "goal"))
        length = rec.get("length")
        lengths.append(math.nan if length is None else
                       doc.number(length, place, "length", low=0.0))
    has_lengths = any(not math.isnan(x) for x in lengths)
    return Scenarios(np.array(starts, dtype=np.float64).reshape(-1, 2),
                     np.array(goals, dtype=np.float64).reshape(-1, 2),
                     np.array(lengths if has_lengths else [], dtype=np.float64))


class _Checker:
    """Type and value checks on parsed scene data; each failure names its JSON path.

    A path is given in parts (``"walls[3]", "clearance"``) and joined only to
    report a failure, which keeps loading a scene of 100,000 obstacles quick.
    """

    def __init__(self, path):
        self.path = path

    def fail(self, place, message):
        raise LevelError(self.path, place or "top level", message)

    def mapping(self, value, place):
        if not isinstance(value, dict):
            self.fail(place, f"must be an object, got {_kind(value)}")
        return value

    def sequence(self, value, place):
        if not isinstance(value, list):
            self.fail(place, f"must be a list, got {_kind(value)}")
        return value

    def record(self, value, place, key, required, allowed):
        """Check one obstacle record (a mapping with the ``required`` keys and only
        ``allowed`` ones) of the file's ``key`` list; return its ``id`` or None."""
        self.mapping(value, place)
        if not required <= value.keys():
            self.fail(f"{place}.{min(required - value.keys())}", "missing key")
        if not value.keys() <= allowed:
            self.fail(f"{place}.{min(value.keys() - allowed)}",
                      f"unknown key; {key} records have {', '.join(sorted(allowed))}")
        return self.integer(value["id"], place, "id") if "id" in value else None

    def number(self, value, *where, low=None, open_low=False):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(_joined(where), f"must be a number, got {_kind(value)}")
        try:
            value = float(value)
        except OverflowError:                 # a JSON integer beyond float64
            value = math.inf
        if not math.isfinite(value):
            self.fail(_joined(where), f"must be finite, got {value}")
        if low is not None and (value < low or (open_low and value == low)):
            self.fail(_joined(where), f"must be {'>' if open_low else '>='} {low:g}, "
                      f"got {value!r}")
        return value

    def integer(self, value, *where):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(_joined(where), f"must be an integer, got {_kind(value)}")
        return value

    def point(self, value, *where):
        if not isinstance(value, list) or len(value) != 2:
            self.fail(_joined(where), f"must be a point [x, y], got {_kind(value)}")
        return [self.number(value[0], *where, "[0]"), self.number(value[1], *where, "[1]")]


def _joined(parts):
    """A JSON path from its parts: ``("walls[3]", "start", "[1]")`` -> ``walls[3].start[1]``."""
    return "".join(p if i == 0 or p.startswith("[") else "." + p for i, p in enumerate(parts))


def _kind(value):
    """A short description of a parsed value, for error messages."""
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if value is None:
        return "null"
    return f"{type(value).__name__} {value!r}"[:60]
