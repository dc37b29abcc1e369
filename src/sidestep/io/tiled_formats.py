"""Reading Tiled maps into plain records: TMX with pytiled-parser, Tiled JSON with the stdlib.

Both readers return a :class:`TiledMap` of :class:`Layer` and :class:`Shape`
records in Tiled's own terms (pixels, y down, object origins as Tiled has
them); :mod:`sidestep.io.tiled` decides what collides and builds the world.

- **TMX** (``.tmx``, with external ``.tsx`` tilesets and ``.tx`` templates) is
  read by pytiled-parser. pytmx 3.32 was the first choice but does not resolve
  templates (a templated object comes back 0x0 with no gid) and reads
  ellipses and points as rectangles.
- **Tiled JSON** (``.tmj``/``.json``, external ``.tsj``/``.json``/``.tsx``
  tilesets, ``.tj`` templates, the legacy key layout of Tiled 1.0-1.1) is read
  with the stdlib ``json`` module: pytiled-parser 2.2.9 fails on a base64
  layer without a ``compression`` key (Tiled omits it when uncompressed).

Errors become :class:`~sidestep.level.LevelError` naming the file, the place
(line and column for XML and JSON syntax, else layer name and object id) and
what was expected.
"""
import base64
import contextlib
import gzip
import io
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..level import LevelError
from .scene import parse_json

#: Bits of a global tile id that hold flip and rotation flags, not the tile.
GID_FLAGS = 0xF0000000


@dataclass(frozen=True)
class Shape:
    """One Tiled object, as the file gives it (pixels, y down, before rotation)."""

    #: The object's id in the map.
    id: int
    #: ``"rectangle"``, ``"ellipse"``, ``"point"``, ``"polygon"``, ``"polyline"``,
    #: ``"tile"`` or ``"text"``.
    kind: str
    #: The object's origin: top-left corner, or bottom-left for tile objects.
    x: float
    y: float
    width: float
    height: float
    #: Degrees, clockwise on screen, about the origin.
    rotation: float = 0.0
    #: ``((dx, dy), ...)`` from the origin, for polygons and polylines.
    points: tuple = ()
    #: Tile objects: the global tile id without flip flags; otherwise 0.
    gid: int = 0
    name: str = ""
    #: Tiled's ``type`` (before Tiled 1.9) or ``class``.
    cls: str = ""
    properties: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Layer:
    """An object layer (``shapes``) or a tile layer (``gids``) of a map."""

    #: The layer's name; a layer inside a group is ``"group/layer"``.
    name: str
    cls: str
    properties: dict
    #: ``(dx, dy)`` pixels: the layer's offset plus its groups'.
    offset: tuple
    #: Object layers: their objects, in file order.
    shapes: tuple | None = None
    #: Tile layers: ``(rows, cols) int64`` global tile ids without flags, 0 = empty.
    gids: np.ndarray | None = None


@dataclass(frozen=True)
class TiledMap:
    """A Tiled map: its grid, layers, and what its tilesets say about each tile."""

    orientation: str
    infinite: bool
    tile_width: float
    tile_height: float
    #: Every layer, groups flattened, in file order.
    layers: tuple
    #: ``{gid: properties}`` of tiles that have properties.
    tile_properties: dict
    #: Global ids of tiles that carry their own collision shapes in the tileset.
    tiles_with_shapes: frozenset
    #: The map's size in tiles (columns, rows); (0, 0) when not given.
    size: tuple = (0, 0)


class TilesetIndex:
    """What a map's tilesets say per global tile id: properties, own shapes, sizes."""

    def __init__(self):
        #: ``{gid: properties}`` of tiles that have properties.
        self.properties = {}
        #: Global ids of tiles with their own collision shapes.
        self.with_shapes = set()
        #: ``{firstgid: (width, height)}``: each tileset's tile size.
        self.tileset_sizes = {}
        #: ``{gid: (width, height)}``: tiles with an image of their own size.
        self.tile_sizes = {}
        #: ``{resolved source path: firstgid}`` of external tilesets, for templates.
        self.sources = {}

    def size_of(self, gid):
        """Pixel size of tile ``gid``: its own image's, else its tileset's tile size."""
        if gid in self.tile_sizes:
            return self.tile_sizes[gid]
        first = max((f for f in self.tileset_sizes if f <= gid), default=None)
        return self.tileset_sizes[first] if first is not None else (0.0, 0.0)

    def add_json(self, doc, entry, place, folder):
        """Add a JSON map's ``tilesets`` entry: embedded, or a ``.json``/``.tsj``/``.tsx`` file."""
        first = int(doc.number(entry, "firstgid", place, low=1))
        source = entry.get("source")
        if source is None:
            self._add(doc, entry, first, place)
            return
        if not isinstance(source, str):
            doc.fail(f"{place}.source", f"expected a file name, got {source!r}")
        target = (folder / source).resolve()
        self.sources[target] = first
        if not target.is_file():
            doc.fail(place, f"tileset file not found: {target}")
        if target.suffix.lower() == ".tsx":
            self._add_tsx(target, first)
        else:
            self._add(_Json(target), parse_json(target.read_bytes(), target), first, "tileset")

    def _add(self, doc, raw, first, place):
        if not isinstance(raw, dict):
            doc.fail(place, "expected a JSON object (a Tiled tileset)")
        self.tileset_sizes[first] = (doc.number(raw, "tilewidth", place, low=0),
                                     doc.number(raw, "tileheight", place, low=0))
        tiles = raw.get("tiles", [])
        # Tiled up to 1.1 keyed tiles by id strings, and kept their
        # properties apart, in "tileproperties".
        if isinstance(tiles, dict):
            tiles = [{**v, "id": _legacy_id(k)} if isinstance(v, dict) else v
                     for k, v in tiles.items()]
        legacy = raw.get("tileproperties", {})
        if not isinstance(legacy, dict) or not isinstance(tiles, list) \
                or not all(isinstance(t, dict) for t in tiles):
            doc.fail(f"{place}.tiles", "expected a list of tile objects")
        tiles = tiles + [{"id": _legacy_id(k), "properties": v} for k, v in legacy.items()]
        for j, tile in enumerate(tiles):
            where = f"{place}, tile {tile.get('id', j)}"
            gid = first + int(doc.number(tile, "id", where, low=0))
            props = _properties(doc, tile.get("properties"), where)
            if props:
                self.properties.setdefault(gid, {}).update(props)
            group = tile.get("objectgroup")
            if isinstance(group, dict) and group.get("objects"):
                self.with_shapes.add(gid)
            if "imagewidth" in tile and "imageheight" in tile:
                self.tile_sizes[gid] = (doc.number(tile, "imagewidth", where, low=0),
                                        doc.number(tile, "imageheight", where, low=0))

    def add_pytiled(self, tileset, first):
        """Add a tileset as pytiled-parser read it (from a TMX map or a ``.tsx``)."""
        self.tileset_sizes[first] = (float(tileset.tile_width), float(tileset.tile_height))
        for tid, tile in (tileset.tiles or {}).items():
            if tile.properties:
                self.properties[first + tid] = dict(tile.properties)
            if tile.objects is not None and getattr(tile.objects, "tiled_objects", None):
                self.with_shapes.add(first + tid)
            if tile.width and tile.height:
                self.tile_sizes[first + tid] = (float(tile.width), float(tile.height))

    def _add_tsx(self, target, first):
        import pytiled_parser
        try:
            tileset = pytiled_parser.parse_tileset(target)
        except Exception as exc:    # noqa: BLE001 - see read_tmx
            raise LevelError(target, "tileset", _describe(exc)) from None
        self.add_pytiled(tileset, first)


# ================================================================= TMX
def read_tmx(path):
    """A ``.tmx`` map, with its ``.tsx`` tilesets and ``.tx`` templates, as a :class:`TiledMap`."""
    try:
        import pytiled_parser
        from pytiled_parser import layer as player
        from pytiled_parser import tiled_object as pobject
    except ImportError:
        raise ImportError("reading Tiled maps needs pytiled-parser: "
                          "pip install 'sidestep[levels]'") from None
    path = Path(path)
    try:
        # pytiled-parser prints a debugging word when a template brings its
        # own tileset; keep it off the caller's stdout.
        with contextlib.redirect_stdout(io.StringIO()):
            parsed = pytiled_parser.parse_map(path)
    except Exception as exc:    # noqa: BLE001 - it raises anything from KeyError to ParseError
        raise _tmx_error(path, exc) from None

    tilesets = TilesetIndex()
    for firstgid, tileset in parsed.tilesets.items():
        tilesets.add_pytiled(tileset, firstgid)

    kinds = [(pobject.Tile, "tile"), (pobject.Ellipse, "ellipse"), (pobject.Point, "point"),
             (pobject.Polygon, "polygon"), (pobject.Polyline, "polyline"),
             (pobject.Text, "text"), (pobject.Rectangle, "rectangle")]

    def shape(obj):
        kind = next((k for cls, k in kinds if isinstance(obj, cls)), "rectangle")
        w, h = float(obj.size.width), float(obj.size.height)
        gid = int(obj.gid) & ~GID_FLAGS if kind == "tile" else 0
        if kind == "tile" and not (w and h):
            w, h = tilesets.size_of(gid)
        return Shape(id=int(obj.id), kind=kind, x=float(obj.coordinates.x),
                     y=float(obj.coordinates.y), width=w, height=h,
                     rotation=float(obj.rotation or 0.0),
                     points=tuple((float(p.x), float(p.y)) for p in getattr(obj, "points", ())),
                     gid=gid, name=obj.name or "", cls=obj.class_ or "",
                     properties=dict(obj.properties or {}))

    layers = []

    def walk(items, prefix, dx, dy):
        for lay in items:
            name = prefix + (lay.name or "")
            ox, oy = dx + float(lay.offset.x), dy + float(lay.offset.y)
            common = dict(name=name, cls=lay.class_ or "", properties=dict(lay.properties or {}),
                          offset=(ox, oy))
            if isinstance(lay, player.LayerGroup):
                walk(lay.layers or (), name + "/", ox, oy)
            elif isinstance(lay, player.ObjectLayer):
                layers.append(Layer(shapes=tuple(shape(o) for o in lay.tiled_objects), **common))
            elif isinstance(lay, player.TileLayer) and lay.data is not None:
                layers.append(Layer(gids=_tmx_gids(path, lay, name), **common))

    walk(parsed.layers, "", 0.0, 0.0)
    return TiledMap(orientation=parsed.orientation, infinite=bool(parsed.infinite),
                    tile_width=float(parsed.tile_size.width),
                    tile_height=float(parsed.tile_size.height), layers=tuple(layers),
                    tile_properties=tilesets.properties,
                    tiles_with_shapes=frozenset(tilesets.with_shapes),
                    size=(int(parsed.map_size.width), int(parsed.map_size.height)))


def _tmx_gids(path, layer, name):
    """A TMX tile layer's ``(rows, cols) int64`` ids without flags, checked against its size."""
    # pytiled-parser cuts the data into rows of the layer's width without
    # checking that they add up, so a damaged layer would come back ragged.
    width, height = int(layer.size.width), int(layer.size.height)
    count = sum(len(row) for row in layer.data)
    if len(layer.data) != height or count != width * height:
        raise LevelError(path, f"layer {name!r}", f"holds {count} tiles, expected width x "
                         f"height = {width} x {height} = {width * height}")
    return np.array(layer.data, dtype=np.int64).reshape(height, width) & ~GID_FLAGS


def _tmx_error(path, exc):
    """A LevelError saying where in a ``.tmx`` (or a file it uses) reading failed.

    pytiled-parser's exceptions carry no place, so the map is walked again
    element by element with pytiled-parser's own per-element parsers to find
    the first one at fault.
    """
    import xml.etree.ElementTree as ET

    if isinstance(exc, FileNotFoundError):
        return LevelError(path, None, f"a file it refers to is missing: {exc.filename}")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as bad:
        line, column = bad.position
        return LevelError(path, f"line {line}, column {column + 1}",
                          f"not well-formed XML: {bad.msg.split(':')[0]}")
    except OSError as bad:
        return LevelError(path, None, f"cannot read: {bad}")
    if root.tag != "map":
        what = "a Tiled tileset" if root.tag == "tileset" else f"a <{root.tag}> document"
        return LevelError(path, "line 1", f"is {what}, not a Tiled map (<map>)")
    refs = [(el.get("source"), "tileset") for el in root.iter("tileset") if el.get("source")]
    refs += [(el.get("template"), "template") for el in root.iter("object") if el.get("template")]
    for ref, what in refs:
        target = path.parent / ref
        try:
            ET.parse(target)
        except FileNotFoundError:
            return LevelError(path, f"{what} {ref!r}", f"file not found: {target}")
        except ET.ParseError as bad:
            line, column = bad.position
            return LevelError(target, f"line {line}, column {column + 1}",
                              f"not well-formed XML: {bad.msg.split(':')[0]}")
    try:
        from pytiled_parser.parsers.tmx import layer as tmx_layer
        from pytiled_parser.parsers.tmx import tiled_object as tmx_object
    except ImportError:        # the per-element parsers moved: say what we know
        return LevelError(path, None, _describe(exc))
    for el in root.iter():
        if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
            continue
        where = f"layer {el.get('name', '')!r}"
        try:
            tmx_layer.parse(el, "utf-8", path.parent)
        except Exception as bad:    # noqa: BLE001 - see read_tmx
            for obj in el.findall("object"):
                try:
                    tmx_object.parse(obj, "utf-8", path.parent)
                except Exception as worse:   # noqa: BLE001
                    return LevelError(path, f"{where}, object {obj.get('id')}", _describe(worse))
            return LevelError(path, where, _describe(bad))
    return LevelError(path, "map", _describe(exc))


def _describe(exc):
    if isinstance(exc, KeyError):
        return f"missing attribute or key {exc.args[0]!r}"
    return f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc)


# ================================================================ JSON
def read_tiled_json(path, data=None):
    """Read a Tiled JSON map (``.tmj``/``.json``) into a :class:`TiledMap`.

    ``data`` is the already parsed JSON of ``path``, if the caller has it.
    """
    path = Path(path)
    if data is None:
        data = parse_json(path.read_bytes(), path)
    doc = _Json(path)
    if not isinstance(data, dict):
        doc.fail("top level", "expected a JSON object (a Tiled map)")
    if data.get("type") == "tileset" or ("layers" not in data and "tilecount" in data):
        doc.fail("top level", "is a Tiled tileset, not a map: load the map that uses it")
    if "layers" not in data:
        doc.fail("top level", "is not a Tiled map: it has no \"layers\"")
    if data.get("type", "map") != "map":
        doc.fail("type", f"expected \"map\", got {data.get('type')!r}")
    tile_w = doc.number(data, "tilewidth", "map", low=0)
    tile_h = doc.number(data, "tileheight", "map", low=0)
    tilesets = TilesetIndex()
    for i, entry in enumerate(doc.items(data, "tilesets", "map", default=[])):
        tilesets.add_json(doc, entry, f"tilesets[{i}]", path.parent)
    layers = []
    _json_layers(doc, doc.items(data, "layers", "map"), "", (0.0, 0.0), tilesets, layers)
    return TiledMap(orientation=data.get("orientation", "orthogonal"),
                    infinite=bool(data.get("infinite", False)),
                    tile_width=tile_w, tile_height=tile_h, layers=tuple(layers),
                    tile_properties=tilesets.properties,
                    tiles_with_shapes=frozenset(tilesets.with_shapes),
                    size=(int(doc.number(data, "width", "map", low=0, default=0)),
                          int(doc.number(data, "height", "map", low=0, default=0))))


def _legacy_id(key):
    """A legacy tile key ("12") as an int; a bad key stays a string for the check to name."""
    return int(key) if key.isdigit() else key


def _json_layers(doc, raw_layers, prefix, offset, tilesets, out):
    for i, raw in enumerate(raw_layers):
        if not isinstance(raw, dict):
            doc.fail(f"{prefix}layers[{i}]", "expected a JSON object (a layer)")
        name = prefix + str(raw.get("name", ""))
        where = f"layer {name!r}"
        ox = offset[0] + doc.number(raw, "offsetx", where, default=0.0)
        oy = offset[1] + doc.number(raw, "offsety", where, default=0.0)
        common = dict(name=name, cls=str(raw.get("class") or ""),
                      properties=_properties(doc, raw.get("properties"), where), offset=(ox, oy))
        kind = raw.get("type")
        if kind == "group":
            _json_layers(doc, doc.items(raw, "layers", where), name + "/", (ox, oy), tilesets, out)
        elif kind == "objectgroup":
            shapes = tuple(_json_shape(doc, obj, f"{where}, object {obj.get('id', j)}"
                                       if isinstance(obj, dict) else f"{where}, objects[{j}]",
                                       tilesets)
                           for j, obj in enumerate(doc.items(raw, "objects", where)))
            out.append(Layer(shapes=shapes, **common))
        elif kind == "tilelayer":
            if "chunks" in raw:
                doc.fail(where, "chunked (infinite) tile layers are not supported")
            out.append(Layer(gids=_json_gids(doc, raw, where), **common))
        elif kind != "imagelayer":
            doc.fail(where, f"unknown layer type {kind!r} (expected tilelayer, objectgroup, "
                     "imagelayer or group)")


def _json_gids(doc, raw, where):
    """A tile layer's ``(rows, cols) int64`` global ids without flags."""
    width = int(doc.number(raw, "width", where, low=1))
    height = int(doc.number(raw, "height", where, low=1))
    data = raw.get("data")
    if isinstance(data, str):
        if raw.get("encoding", "csv") != "base64":
            doc.fail(f"{where}.encoding", f"expected \"base64\" for string data, got "
                     f"{raw.get('encoding')!r}")
        compression = raw.get("compression") or ""
        unpack = {"": bytes, "zlib": zlib.decompress, "gzip": gzip.decompress}.get(compression)
        if unpack is None:
            doc.fail(f"{where}.compression", f"{compression!r} is not supported (use zlib, "
                     "gzip or none)")
        try:
            packed = unpack(base64.b64decode(data, validate=True))
        except (ValueError, zlib.error, OSError, EOFError) as exc:
            doc.fail(f"{where}.data", f"cannot decode the tile data: {exc}")
        if len(packed) % 4:
            doc.fail(f"{where}.data", f"decodes to {len(packed)} bytes, not whole 4-byte ids")
        gids = np.frombuffer(packed, dtype="<u4").astype(np.int64)
    elif isinstance(data, list):
        if not all(isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in data):
            doc.fail(f"{where}.data", "expected a list of non-negative whole tile ids")
        gids = np.array(data, dtype=np.int64)
    else:
        doc.fail(f"{where}.data", "missing, or neither a list nor a base64 string")
    if len(gids) != width * height:
        doc.fail(f"{where}.data", f"holds {len(gids)} tiles, expected width x height = "
                 f"{width} x {height} = {width * height}")
    return gids.reshape(height, width) & ~GID_FLAGS


def _json_shape(doc, obj, where, tilesets):
    if not isinstance(obj, dict):
        doc.fail(where, "expected a JSON object (a Tiled object)")
    if "template" in obj:
        obj = _with_template(doc, obj, where, tilesets)
    props = _properties(doc, obj.get("properties"), where)
    points = ()
    if obj.get("ellipse"):
        kind = "ellipse"
    elif obj.get("point"):
        kind = "point"
    elif "polygon" in obj or "polyline" in obj:
        kind = "polygon" if "polygon" in obj else "polyline"
        raw_points = doc.items(obj, kind, where)
        points = tuple((doc.number(p, "x", f"{where}.{kind}[{k}]"),
                        doc.number(p, "y", f"{where}.{kind}[{k}]"))
                       for k, p in enumerate(raw_points))
    elif "text" in obj:
        kind = "text"
    elif "gid" in obj:
        kind = "tile"
    else:
        kind = "rectangle"
    gid = int(doc.number(obj, "gid", where, low=0)) & ~GID_FLAGS if kind == "tile" else 0
    w = doc.number(obj, "width", where, default=0.0, low=0)
    h = doc.number(obj, "height", where, default=0.0, low=0)
    if kind == "tile" and not (w and h):
        w, h = tilesets.size_of(gid)
    return Shape(id=int(doc.number(obj, "id", where, default=0)), kind=kind,
                 x=doc.number(obj, "x", where), y=doc.number(obj, "y", where), width=w, height=h,
                 rotation=doc.number(obj, "rotation", where, default=0.0), points=points,
                 gid=gid, name=str(obj.get("name", "")),
                 cls=str(obj.get("class", obj.get("type", "")) or ""), properties=props)


def _with_template(doc, obj, where, tilesets):
    """``obj`` merged over the object of its ``.tj`` template (the instance's keys win)."""
    if not isinstance(obj["template"], str):
        doc.fail(f"{where}.template", f"expected a file name, got {obj['template']!r}")
    target = (doc.path.parent / obj["template"]).resolve()
    if target.suffix.lower() == ".tx":
        doc.fail(where, f"XML template {obj['template']!r} in a JSON map is not supported; "
                 "save the template as .tj")
    if not target.is_file():
        doc.fail(where, f"template file not found: {target}")
    template = parse_json(target.read_bytes(), target)
    base = template.get("object") if isinstance(template, dict) else None
    if not isinstance(base, dict):
        raise LevelError(target, "top level", "expected a Tiled template with an \"object\"")
    merged = {**base, **{k: v for k, v in obj.items() if k != "template"}}
    merged["properties"] = {**_properties(_Json(target), base.get("properties"), "object"),
                            **_properties(doc, obj.get("properties"), where)}
    if "gid" in base and "gid" not in obj:
        # The template's gid counts from its own tileset's firstgid; move it
        # to where the map loads that tileset (or drop it if the map does not).
        own = _Json(target)
        ts = template.get("tileset")
        if not isinstance(ts, dict) or not isinstance(ts.get("source"), str):
            own.fail("tileset", "a template with a gid needs a tileset with a \"source\"")
        first = tilesets.sources.get((target.parent / ts["source"]).resolve())
        gid = int(own.number(base, "gid", "object", low=0))
        local = (gid & ~GID_FLAGS) - int(own.number(ts, "firstgid", "tileset", low=1))
        merged["gid"] = (first + local) | (gid & GID_FLAGS) if first is not None else 0
    return merged


def _properties(doc, raw, where):
    """Tiled properties as a dict: a list of ``{name, type, value}`` or a legacy dict."""
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    if not isinstance(raw, list):
        doc.fail(f"{where}.properties", "expected a list of {name, type, value} or an object")
    out = {}
    for k, prop in enumerate(raw):
        if not isinstance(prop, dict) or "name" not in prop:
            doc.fail(f"{where}.properties[{k}]", "expected an object with a \"name\"")
        out[str(prop["name"])] = prop.get("value")
    return out


class _Json:
    """Key and value checks on parsed Tiled JSON; each failure names the layer or object."""

    def __init__(self, path):
        self.path = path

    def fail(self, place, message):
        raise LevelError(self.path, place, message)

    def items(self, raw, key, where, default=None):
        value = raw.get(key, default)
        if value is None:
            self.fail(where, f"missing key {key!r}")
        if not isinstance(value, list):
            self.fail(f"{where}.{key}", f"expected a list, got {type(value).__name__}")
        return value

    def number(self, raw, key, where, *, default=None, low=None):
        if not isinstance(raw, dict):
            self.fail(where, f"expected a JSON object, got {type(raw).__name__}")
        value = raw.get(key, default)
        if value is None:
            self.fail(where, f"missing key {key!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
            self.fail(f"{where}.{key}", f"expected a finite number, got {str(value)[:40]}")
        if low is not None and value < low:
            self.fail(f"{where}.{key}", f"expected a number >= {low}, got {value!r}")
        return float(value)


def _finite(value):
    """Whether a parsed JSON number is finite as a float64 (huge integers are not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
