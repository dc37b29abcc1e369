"""Moving AI Lab grid benchmarks: ``.map`` tile maps and their ``.scen`` scenarios.

A ``.map`` file is a header (``type octile``, ``height H``, ``width W``,
``map``) and then H rows of W characters. ``.``, ``G`` and ``S`` are passable;
every other character (``@`` ``O`` out of bounds, ``T`` trees, ``W`` water, and
anything unknown) is blocked. The map becomes one look-up-table grid with
cell size 1 and origin (0, 0).

**Coordinates.** Column c is x, and file row r (counted from the top, 0-based)
is y, as in the file and its scenarios: cell ``(x, y)`` covers
``[x, x+1] x [y, y+1]``. So y grows downwards through the file, and a plot
with y pointing up shows the map mirrored top to bottom (flip the plot's
y axis to see it as the file reads).

A ``.scen`` file (``version 1`` with tab-separated fields, or the old
``version 1.0`` with spaces) lists ``bucket map mapW mapH startX startY goalX
goalY optimalLength`` per line; starts and goals become the centres of their
cells, ``(x + 0.5, y + 0.5)``. A row whose start or goal is off the map or on
a blocked cell (the ``wc3/battleground`` scenarios are known for it) is
dropped and listed in ``Level.problems``; a row whose map size differs from
the map's is an error. Rows name their map by its path in the benchmark
(``maps/dao/arena.map``); only the file name is compared, and a different one
is read against this map all the same, with a line in ``Level.problems``.
"""
import os
from pathlib import Path

import numpy as np

from ..level import Level, LevelError, Scenarios
from .build import WorldBuilder

#: Characters an agent can stand on.
PASSABLE = b".GS"
#: Every character of the Moving AI format; others are read as blocked and reported.
KNOWN = b".GS@OTW"
#: Dropped scenario rows listed one per line in ``Level.problems``; the rest are summed up.
LISTED_ROWS = 20


def read_map(path, *, scenarios=None):
    """Read a Moving AI ``.map`` (and its scenarios) as a :class:`Level`.

    Parameters
    ----------
    path : str or path
    scenarios : str, path or False, optional
        The ``.scen`` file to read; by default ``<path>.scen`` (``arena.map.scen``
        beside ``arena.map``) when it exists. ``False`` reads none.

    Returns
    -------
    Level
        One grid obstacle; ``scenarios`` as described in the module notes,
        ``name`` the map's stem.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = Path(tmp) / "room.map"
    ...     _ = path.write_text("type octile\\nheight 2\\nwidth 3\\nmap\\n.@.\\n..T\\n")
    ...     level = read_map(path)
    >>> level.world.geometry("grid")["blocked"][0].astype(int).tolist()
    [[0, 1, 0], [0, 0, 1]]
    >>> round(float(level.world.clearance((0.5, 0.5))), 3)      # a free cell's centre
    0.5
    """
    if scenarios is not None and scenarios is not False \
            and not isinstance(scenarios, (str, os.PathLike)):
        raise TypeError(f"scenarios must be a path, False or None, got {scenarios!r}")
    path = Path(path)
    cells, problems = _parse_map(path)
    builder = WorldBuilder(path)
    builder.grid(~np.isin(cells, np.frombuffer(PASSABLE, np.uint8)), 1.0, (0.0, 0.0), "map")
    builder.frame((0.0, 0.0), (cells.shape[1], cells.shape[0]), "map")
    found = None
    if scenarios is None:
        beside = path.with_name(path.name + ".scen")
        scenarios = beside if beside.is_file() else False
    if scenarios is not False:
        found, more = read_scenarios(scenarios, cells, path)
        problems += more
    return Level(world=builder.world(), spawns=np.zeros((0, 2)), scenarios=found,
                 name=path.stem, source=path, problems=tuple(problems))


def _parse_map(path):
    """The map's ``(H, W) uint8`` characters, and problems found on the way."""
    lines = [line.rstrip(b"\r") for line in path.read_bytes().split(b"\n")]
    if lines[-1] == b"":
        lines.pop()                              # the newline ending the last line
    header = {}
    for n in range(min(4, len(lines))):
        words = lines[n].split()
        if n == 3:
            if words != [b"map"]:
                raise LevelError(path, "line 4", f"expected 'map', got {_show(lines[n])}")
            break
        if len(words) != 2 or words[0] not in (b"type", b"height", b"width"):
            raise LevelError(path, f"line {n + 1}", "expected a header line 'type octile', "
                             f"'height H' or 'width W', got {_show(lines[n])}")
        header[words[0]] = (words[1], n + 1)
    else:
        raise LevelError(path, f"line {max(len(lines), 1)}", "the file ends inside the header "
                         "(type, height, width, map)")
    for key in (b"type", b"height", b"width"):
        if key not in header:
            raise LevelError(path, "lines 1-3", f"the header has no '{key.decode()}' line")
    size = {}
    for key in (b"height", b"width"):
        value, n = header[key]
        if not value.isdigit() or int(value) == 0:
            raise LevelError(path, f"line {n}", f"expected a positive whole {key.decode()}, "
                             f"got {_show(value)}")
        size[key] = int(value)
    height, width = size[b"height"], size[b"width"]
    problems = []
    if header[b"type"][0] != b"octile":
        problems.append(f"line {header[b'type'][1]}: map type {_show(header[b'type'][0])} "
                        "read as octile")

    rows = lines[4:4 + height]
    for r, row in enumerate(rows):
        if len(row) > width and not row[width:].strip():
            rows[r] = row = row[:width]          # trailing blanks are harmless
        if len(row) != width:
            raise LevelError(path, f"line {r + 5}", f"expected a map row of {width} characters, "
                             f"got {len(row)}")
    if len(rows) < height:
        raise LevelError(path, f"line {len(lines)}", f"expected {height} map rows, but the file "
                         f"ends after {len(rows)}")
    extra = [n + 5 + height for n, line in enumerate(lines[4 + height:]) if line.strip()]
    if extra:
        problems.append(f"lines {extra[0]}-{extra[-1]}: text after the map's {height} rows "
                        "was ignored")
    cells = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(height, width)
    unknown = ~np.isin(cells, np.frombuffer(KNOWN, np.uint8))
    if unknown.any():
        r, c = np.argwhere(unknown)[0]
        chars = sorted(set(bytes(cells[unknown]).decode("latin-1")))
        problems.append(f"{int(unknown.sum())} cells hold characters outside the Moving AI "
                        f"set {KNOWN.decode()} ({''.join(chars)!r}; first at line {r + 5}, "
                        f"column {c + 1}) and were read as blocked")
    return cells, problems


def read_scenarios(path, cells, map_path):
    """Read a ``.scen`` file for a map whose characters are ``cells (H, W) uint8``.

    Returns
    -------
    scenarios : Scenarios
        The rows whose endpoints are passable cells of the map.
    problems : list of str
        One line per dropped row (up to :data:`LISTED_ROWS`, then a summary).
    """
    path = Path(path)
    height, width = cells.shape
    pairs, lengths, dropped, names = [], [], [], set()
    for place, name, mw, mh, sx, sy, gx, gy, length in scenario_rows(path):
        if (mw, mh) != (width, height):
            raise LevelError(path, place, f"map size {mw}x{mh} does not match "
                             f"{map_path.name} ({width}x{height})")
        names.add(name)
        bad = [f"{what} ({x}, {y}) is {_cell(cells, x, y)}"
               for what, x, y in (("start", sx, sy), ("goal", gx, gy))
               if _cell(cells, x, y) != "passable"]
        if bad:
            dropped.append(f"{path.name} {place}: {' and '.join(bad)}; row dropped")
            continue
        pairs.append((sx, sy, gx, gy))
        lengths.append(length)
    problems = summed_up(dropped, path.name)
    others = sorted(names - {map_path.name})
    if others:
        problems.append(f"{path.name}: rows name map {', '.join(others)}, not "
                        f"{map_path.name}; read against {map_path.name}")
    xy = np.array(pairs, dtype=np.float64).reshape(-1, 4) + 0.5    # cell centres
    return Scenarios(xy[:, 0:2].copy(), xy[:, 2:4].copy(),
                     np.array(lengths, dtype=np.float64)), problems


def scenario_rows(path):
    """The rows of a ``.scen`` file, checked field by field.

    Yields ``(place, map name, mapW, mapH, startX, startY, goalX, goalY,
    optimalLength)``: ``place`` is ``"line N"``, the map name is the file
    name of the row's map path, the coordinates are whole numbers.

    Raises
    ------
    LevelError
        A bad version line, a row without 9 fields, a field that is not a
        number of the expected kind.
    """
    path = Path(path)
    lines = path.read_bytes().decode("latin-1").splitlines()
    first = 0
    if lines and lines[0].split()[:1] == ["version"]:
        first = 1
        if lines[0].split()[1:] not in (["1"], ["1.0"]):
            raise LevelError(path, "line 1", f"expected 'version 1' or 'version 1.0', got "
                             f"{lines[0]!r}")
    for n in range(first, len(lines)):
        line = lines[n]
        if not line.strip():
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        place = f"line {n + 1}"
        if len(fields) != 9:
            raise LevelError(path, place, "expected 9 fields (bucket map mapW mapH startX "
                             f"startY goalX goalY optimalLength), got {len(fields)}")
        mw, mh, sx, sy, gx, gy = (_whole(f, path, place) for f in fields[2:8])
        yield (place, Path(fields[1].strip().replace("\\", "/")).name, mw, mh, sx, sy, gx, gy,
               _length(fields[8], path, place))


def summed_up(dropped, name):
    """Dropped rows for ``Level.problems``: up to :data:`LISTED_ROWS`, then one line for the rest."""
    problems = dropped[:LISTED_ROWS]
    if len(dropped) > LISTED_ROWS:
        problems.append(f"{name}: {len(dropped) - LISTED_ROWS} more rows dropped for "
                        "the same reasons")
    return problems


def _cell(cells, x, y):
    """``"passable"``, ``"off the map"`` or ``"on a blocked cell ('T')"``."""
    height, width = cells.shape
    if not (0 <= x < width and 0 <= y < height):
        return "off the map"
    ch = bytes(cells[y, x:x + 1])
    return "passable" if ch in PASSABLE else f"on a blocked cell ({ch.decode('latin-1')!r})"


def _whole(text, path, place):
    try:
        return int(text)
    except ValueError:
        raise LevelError(path, place, f"expected a whole number, got {text!r}") from None


def _length(text, path, place):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0 or value == float("inf"):
        raise LevelError(path, place, f"expected an optimal length >= 0, got {text!r}")
    return value


def _show(text):
    """A header value or line for an error message, short and printable."""
    return repr(text.decode("latin-1")[:40])
