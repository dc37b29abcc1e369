"""Doom levels from WAD files: the map's blocking linedefs become walls.

Read with the standard library and NumPy (``omgifol`` reads the same files,
but accepts a truncated ``LINEDEFS`` lump without a word, and this reader must
name the record at fault). Binary Doom and Hexen map formats are read; UDMF
(``TEXTMAP``) maps are refused.

**Which linedefs block** (each becomes a wall of clearance 0, in map units, y
up as in Doom):

- one-sided lines (no left sidedef): the level's solid walls, read as
  one-sided walls (:meth:`~sidestep.World2D.add_walls`) facing their sidedef's
  sector: the space behind them, outside every sector, counts as inside an
  obstacle, so an agent that starts overlapping one recovers into the sector.
  A two-sided line between a sector the player can stand in and one it
  cannot (a shut door: opening below ``agent_height``) is one-sided too,
  facing the open sector;
- two-sided lines flagged impassable (flag ``0x0001``);
- two-sided lines whose floors differ by more than ``step_height`` (24, the
  highest step a Doom player climbs). A 2D wall blocks both ways, so a ledge
  the player could drop off also stops them: the conservative choice;
- two-sided lines whose opening (lower ceiling minus higher floor) is less
  than ``agent_height`` (56, the player's height): low passages, and doors,
  which are closed (ceiling on the floor) when a map starts.

The map is taken as it is when it starts: lifts up, doors shut. Pass
``step_height=None`` or ``agent_height=None`` to drop those rules.
Zero-length linedefs are skipped and listed in ``Level.problems``.
``Level.spawns`` holds the player starts (thing types 1-4).
"""
from pathlib import Path

import numpy as np

from ..level import Level, LevelError
from .build import WorldBuilder

#: Flag bit of a linedef that blocks players and monsters.
IMPASSABLE = 0x0001
#: A sidedef index meaning "no sidedef": the line is one-sided.
NO_SIDE = 0xFFFF
#: Lumps that belong to a map, after its marker lump (E1M1, MAP01...).
MAP_LUMPS = {"THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SEGS", "SSECTORS", "NODES",
             "SECTORS", "REJECT", "BLOCKMAP", "BEHAVIOR", "SCRIPTS", "TEXTMAP", "ZNODES",
             "DIALOGUE", "ENDMAP"}
#: Thing types of the four player starts.
PLAYER_STARTS = (1, 2, 3, 4)
#: Skipped linedefs listed one per line in ``Level.problems``; the rest are summed up.
LISTED_LINES = 20

_DIRECTORY = np.dtype([("offset", "<i4"), ("size", "<i4"), ("name", "S8")])
_VERTEX = np.dtype([("x", "<i2"), ("y", "<i2")])
_SIDEDEF = np.dtype([("x", "<i2"), ("y", "<i2"), ("upper", "S8"), ("lower", "S8"),
                     ("middle", "S8"), ("sector", "<u2")])
_SECTOR = np.dtype([("floor", "<i2"), ("ceiling", "<i2"), ("floor_flat", "S8"),
                    ("ceiling_flat", "S8"), ("light", "<i2"), ("special", "<i2"),
                    ("tag", "<i2")])
#: Linedef and thing records of the Doom and the Hexen map formats.
_LINEDEF = {"doom": np.dtype([("v1", "<u2"), ("v2", "<u2"), ("flags", "<u2"),
                              ("special", "<u2"), ("tag", "<u2"), ("right", "<u2"),
                              ("left", "<u2")]),
            "hexen": np.dtype([("v1", "<u2"), ("v2", "<u2"), ("flags", "<u2"),
                               ("special", "u1"), ("args", "u1", 5), ("right", "<u2"),
                               ("left", "<u2")])}
_THING = {"doom": np.dtype([("x", "<i2"), ("y", "<i2"), ("angle", "<i2"), ("type", "<u2"),
                            ("flags", "<u2")]),
          "hexen": np.dtype([("tid", "<i2"), ("x", "<i2"), ("y", "<i2"), ("z", "<i2"),
                             ("angle", "<i2"), ("type", "<u2"), ("flags", "<u2"),
                             ("special", "u1"), ("args", "u1", 5)])}


def read_wad(path, *, map=None, step_height=24.0, agent_height=56.0):
    """Read one map of a Doom WAD as a :class:`Level` of walls.

    Parameters
    ----------
    path : str or path
    map : str, optional
        The map's lump name (``"E1M1"``, ``"MAP01"``; any case). By default
        the first map in the WAD.
    step_height : float or None
        Two-sided lines whose floors differ by more than this block (map units).
    agent_height : float or None
        Two-sided lines whose opening is lower than this block (map units).

    Returns
    -------
    Level
        ``name`` is the map's lump name; ``spawns`` the player starts.
    """
    for option, value in (("step_height", step_height), ("agent_height", agent_height)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not value >= 0):
            raise ValueError(f"{option} must be a number >= 0 or None, got {value!r}")
    path = Path(path)
    data = path.read_bytes()
    lumps = _directory(data, path)
    maps = _maps(lumps)
    if not maps:
        raise LevelError(path, "directory", "the WAD holds no map (no marker lump followed "
                         "by THINGS or TEXTMAP)")
    if map is None:
        name = next(iter(maps))
    else:
        if not isinstance(map, str):
            raise TypeError(f"map must be a lump name such as 'E1M1', got {type(map).__name__}")
        name = map.upper()
        if name not in maps:
            raise LevelError(path, None, f"no map {map!r}; the WAD holds {', '.join(maps)}")
    own = maps[name]
    if "TEXTMAP" in own:
        raise LevelError(path, f"map {name}", "UDMF (TEXTMAP) maps are not supported; only "
                         "binary Doom and Hexen maps")
    kind = "hexen" if "BEHAVIOR" in own else "doom"

    def records(lump, dtype):
        if lump not in own:
            raise LevelError(path, f"map {name}", f"has no {lump} lump")
        return _records(data, path, lumps[own[lump]], f"{name} {lump}", dtype)

    vertexes = records("VERTEXES", _VERTEX)
    lines = records("LINEDEFS", _LINEDEF[kind])
    sides = records("SIDEDEFS", _SIDEDEF)
    sectors = records("SECTORS", _SECTOR)
    things = records("THINGS", _THING[kind])
    _check_indices(path, name, lines, sides, len(vertexes), len(sectors))

    problems = []
    blocking = _blocking(lines, sides, sectors, step_height, agent_height)
    xy = np.column_stack([vertexes["x"], vertexes["y"]]).astype(np.float64)
    starts, ends = xy[lines["v1"]], xy[lines["v2"]]
    zero = np.all(starts == ends, axis=1)
    skipped = np.flatnonzero(zero & blocking).tolist()
    for i in skipped[:LISTED_LINES]:
        v1, v2 = int(lines["v1"][i]), int(lines["v2"][i])
        x, y = vertexes["x"][v1], vertexes["y"][v1]
        problems.append(f"{name} LINEDEFS record {i}: zero length (vertexes {v1} and {v2} are "
                        f"both at ({x}, {y})); skipped")
    if len(skipped) > LISTED_LINES:
        problems.append(f"{name}: {len(skipped) - LISTED_LINES} more zero-length linedefs "
                        "skipped")
    no_front = np.flatnonzero(lines["right"] == NO_SIDE).tolist()
    if no_front:
        problems.append(f"{name} LINEDEFS record {no_front[0]}"
                        f"{f' and {len(no_front) - 1} more' if len(no_front) > 1 else ''}: "
                        "no front sidedef; read as a wall")
    keep = np.flatnonzero(blocking & ~zero)
    one_sided, flip = _edges(lines, sides, sectors, agent_height)
    starts, ends = np.where(flip[:, None], ends, starts), np.where(flip[:, None], starts, ends)
    builder = WorldBuilder(path)
    if len(keep):
        builder.walls(starts[keep], ends[keep], np.zeros(len(keep)),
                      [f"{name} LINEDEFS record {i}" for i in keep], one_sided=one_sided[keep])
    players = np.isin(things["type"], PLAYER_STARTS)
    spawns = np.column_stack([things["x"][players], things["y"][players]]).astype(np.float64)
    return Level(world=builder.world(), spawns=spawns.reshape(-1, 2), name=name,
                 source=path, problems=tuple(problems))


def map_names(path):
    """Names of the maps in a WAD, in file order (``["E1M1", ...]``)."""
    path = Path(path)
    return list(_maps(_directory(path.read_bytes(), path)))


def _directory(data, path):
    """The WAD's lump directory: a structured array of ``offset``, ``size``, ``name``."""
    if len(data) < 12:
        raise LevelError(path, "header", f"the file has {len(data)} bytes; a WAD starts with "
                         "a 12-byte header")
    ident = data[:4]
    if ident not in (b"IWAD", b"PWAD"):
        raise LevelError(path, "header", f"expected 'IWAD' or 'PWAD', got {ident!r}")
    count, offset = np.frombuffer(data, "<i4", 2, 4).tolist()
    if count < 0 or offset < 12 or offset + 16 * count > len(data):
        raise LevelError(path, "header", f"a directory of {count} lumps at offset {offset} "
                         f"does not fit in the file ({len(data)} bytes)")
    return np.frombuffer(data, _DIRECTORY, count, offset)


def _name(entry):
    return entry["name"].split(b"\0")[0].decode("ascii", "replace").upper()


def _maps(lumps):
    """``{map name: {lump name: directory index}}`` for every map marker, in file order."""
    names = [_name(e) for e in lumps]
    maps = {}
    for i, name in enumerate(names[:-1]):
        if names[i + 1] in ("THINGS", "TEXTMAP") and name not in MAP_LUMPS:
            own = {}
            for j in range(i + 1, len(names)):
                if names[j] not in MAP_LUMPS and not names[j].startswith("GL_"):
                    break
                own.setdefault(names[j], j)
            maps.setdefault(name, own)
    return maps


def _records(data, path, entry, lump, dtype):
    """The records of one lump, checked against the file's size and the record size."""
    offset, size = int(entry["offset"]), int(entry["size"])
    if offset < 0 or size < 0 or offset + size > len(data):
        raise LevelError(path, f"{lump} lump", f"its data ({size} bytes at offset {offset}) "
                         f"runs past the end of the file ({len(data)} bytes)")
    if size % dtype.itemsize:
        raise LevelError(path, f"{lump} record {size // dtype.itemsize}",
                         f"truncated: the lump has {size} bytes, not a whole number of "
                         f"{dtype.itemsize}-byte records")
    return np.frombuffer(data, dtype, size // dtype.itemsize, offset)


def _check_indices(path, name, lines, sides, n_vertexes, n_sectors):
    """Every vertex, sidedef and sector the linedefs of map ``name`` use exists."""
    for field in ("v1", "v2"):
        bad = np.flatnonzero(lines[field] >= n_vertexes)
        if len(bad):
            i = int(bad[0])
            raise LevelError(path, f"{name} LINEDEFS record {i}", f"{field} is vertex "
                             f"{lines[field][i]}, but VERTEXES has {n_vertexes} records")
    for field in ("right", "left"):
        ref = lines[field]
        bad = np.flatnonzero((ref != NO_SIDE) & (ref >= len(sides)))
        if len(bad):
            i = int(bad[0])
            raise LevelError(path, f"{name} LINEDEFS record {i}", f"{field} sidedef {ref[i]} "
                             f"is out of range (SIDEDEFS has {len(sides)} records)")
    bad = np.flatnonzero(sides["sector"] >= n_sectors)
    if len(bad):
        i = int(bad[0])
        raise LevelError(path, f"{name} SIDEDEFS record {i}", f"sector {sides['sector'][i]} "
                         f"is out of range (SECTORS has {n_sectors} records)")


def _edges(lines, sides, sectors, agent_height):
    """``(one_sided, flip)``, ``(n,) bool`` each: which linedefs are the level's edge,
    and which of those run v2 -> v1 as walls (their walkable side is the front).

    A one-sided line is walkable on its sidedef's side: the front (right of
    v1 -> v2) or, lacking one, the back. A two-sided line between a sector a
    player can stand in and one it cannot (opening below ``agent_height``: a
    shut door, a crusher) is the edge too, walkable on the open sector's
    side. One-sided walls are walkable on their left, so a line walkable on
    its front runs v2 -> v1.
    """
    no_right, no_left = lines["right"] == NO_SIDE, lines["left"] == NO_SIDE
    one_sided = no_right ^ no_left
    front_open = ~no_right
    two = ~(no_right | no_left)
    if agent_height is not None and np.any(two):
        sector = sectors[sides["sector"][lines["right"][two]]]
        f_open = sector["ceiling"].astype(float) - sector["floor"].astype(float) >= agent_height
        sector = sectors[sides["sector"][lines["left"][two]]]
        b_open = sector["ceiling"].astype(float) - sector["floor"].astype(float) >= agent_height
        one_sided[two] = f_open != b_open
        front_open[two] = f_open
    return one_sided, one_sided & front_open


def _blocking(lines, sides, sectors, step_height, agent_height):
    """``(n,) bool``: which linedefs block a walking player (see the module notes)."""
    right, left = lines["right"], lines["left"]
    # A line without a front side is broken; Doom would draw nothing there, and
    # treating it as a wall keeps agents out of whatever lies behind it.
    one_sided = (left == NO_SIDE) | (right == NO_SIDE)
    block = one_sided | ((lines["flags"] & IMPASSABLE) != 0)
    two = ~one_sided
    front = sectors[sides["sector"][right[two]]]
    back = sectors[sides["sector"][left[two]]]
    f_floor, b_floor = front["floor"].astype(float), back["floor"].astype(float)
    f_ceil, b_ceil = front["ceiling"].astype(float), back["ceiling"].astype(float)
    high = np.zeros(len(front), dtype=bool)
    if step_height is not None:
        high |= np.abs(f_floor - b_floor) > float(step_height)
    if agent_height is not None:
        high |= np.minimum(f_ceil, b_ceil) - np.maximum(f_floor, b_floor) < float(agent_height)
    block[two] |= high
    return block
