"""Tiled maps (``.tmx``, ``.tmj``, Tiled ``.json``): collision layers become obstacles.

**Coordinates** are Tiled's own: pixels, x to the right, **y down**, origin at
the map's top-left corner, so a position in the game matches the same spot
in the Tiled editor. A plot with y pointing up shows the map mirrored top to
bottom. Layer offsets (and those of enclosing groups) are added; parallax is
a rendering effect and is ignored. Only orthogonal, finite maps are read.

**What collides.** The first rule that has an answer decides, per object:

1. The object's own properties: a property named ``collides``, ``collision``,
   ``collidable``, ``solid``, ``blocked``, ``blocking`` or ``obstacle`` (any
   case) says yes or no by its truth (``true``/``1``/``yes`` or a non-empty
   string versus ``false``/``0``/``no``/empty); ``bodyType`` (Box2D style,
   as in Sticker Knight) says yes for ``static`` and no otherwise, since
   dynamic and kinematic bodies move and are not level geometry.
2. For a tile object, the same properties on its tile in the tileset.
3. The same properties on its layer.
4. Yes if its layer's name or class, or its own type/class, contains one of
   :data:`KEYWORDS` (``Collision``, ``Collisions``, ``walls``; Tuxemon's
   object types ``collision`` and ``collision-line``).

Objects no rule decides are scenery, unless the map marks nothing at all as
colliding (no rule said yes anywhere): then every undecided object collides,
and ``Level.problems`` says so. ``layers=[names]`` replaces all of this: every
object (and every non-empty tile) of the named layers collides, nothing else.

**Tile layers** become one look-up-table grid each (cell size = tile size,
origin = the layer's offset; tiles that are not square become one box per
cell). A cell is blocked when the layer says so by rules 3-4 (then every
non-empty cell is), or when its tile has a collision property (rule 1) or
its own collision shapes in the tileset (the whole cell then counts: shapes
inside a tile are not read one by one).

**Collision layers.** A layer (object layer or tile layer) with the custom
property ``sidestep_layer`` (:data:`LAYER_PROPERTY`: an ``int`` from 0 to 31,
or a string of those digits) puts its obstacles on that collision layer of
the world (see :mod:`sidestep.layers`: queries with a ``mask`` see only the
layers they name); an object's own ``sidestep_layer`` overrides its
layer's. Without one, obstacles are on layer 0, as is the map's extent. A
group's property is not passed to the layers in it. The property also
marks what has it as colliding (rules 1 and 3 below), unless a flag
property beside it says false. A value that is not a
layer is a :class:`~sidestep.level.LevelError` naming the layer (and
object)::

    <objectgroup name="Glass">
     <properties><property name="sidestep_layer" type="int" value="2"/></properties>
     ...

**Objects**, rotated clockwise about their origin by their ``rotation``:

- rectangles: boxes; turned by a multiple of 90 degrees they still are,
  otherwise a 4-corner polygon;
- tile objects (with a ``gid``): their rectangle, whose origin is the
  bottom-left corner, as a box or polygon likewise;
- ellipses: a circle when round (width == height), otherwise a polygon of
  :data:`ELLIPSE_VERTICES` vertices on the ellipse;
- polygons: polygons (a point repeated right after itself is dropped). A
  polygon that is not simple (its edges cross) is read as walls (clearance 0)
  along its edges instead, and listed in ``problems``; so is one of fewer
  than 3 points;
- polylines: walls of clearance 0, one per segment;
- points: spawns (``Level.spawns``), from every layer;
- text, and shapes of zero size: skipped, and listed in ``problems``.

Reading uses pytiled-parser for TMX (``pip install sidestep[levels]``) and
the standard library for JSON; see :mod:`sidestep.io.tiled_formats`.
"""
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from .._types import StrPath
from ..layers import LAYERS
from ..level import Level, LevelError
from .build import WorldBuilder
from .tiled_formats import read_tiled_json, read_tmx

#: Words that mark a layer (by name or class) or an object (by type/class) as
#: collision geometry, matched case-insensitively anywhere in the text.
KEYWORDS = ("collision", "collide", "collider", "solid", "wall", "obstacle", "blocked",
            "blocking", "fixture")
#: Property names whose truth says whether something collides (any case).
FLAG_PROPERTIES = ("collides", "collision", "collidable", "solid", "blocked", "blocking",
                   "obstacle")
#: The custom property (of a layer or an object) naming the collision layer,
#: ``0 .. 31``, its obstacles go on.
LAYER_PROPERTY = "sidestep_layer"
#: Vertices of the polygon that stands in for an ellipse that is not round. The
#: vertices lie on the ellipse, so the polygon is inside it by at most
#: ``1 - cos(pi / 32)``, 0.5 %, of the semi-axis.
ELLIPSE_VERTICES = 32


def read_tiled(path: StrPath, *, layers: Iterable[str] | None = None,
               data: Any = None) -> Level:
    """Read a Tiled map as a :class:`Level` (see the module notes for the rules).

    Parameters
    ----------
    path : str or path
        A ``.tmx`` map, or a Tiled JSON map (``.tmj``, ``.json``).
    layers : iterable of str, optional
        Names of the layers to read as collision geometry, instead of the rules.
        A layer inside a group is named ``"group/layer"``.
    data : dict, optional
        The parsed JSON of ``path``, when the caller has already read it.

    Returns
    -------
    Level
        ``name`` is the file's stem.
    """
    path = Path(path)
    if path.suffix.lower() == ".tmx":
        tiled = read_tmx(path)
    else:
        tiled = read_tiled_json(path, data)
    if tiled.orientation != "orthogonal":
        raise LevelError(path, "map", f"{tiled.orientation} maps are not supported; only "
                         "orthogonal ones")
    if tiled.infinite:
        raise LevelError(path, "map", "infinite (chunked) maps are not supported; turn off "
                         "'Infinite' in Tiled's map properties")
    if layers is not None:
        if isinstance(layers, str):
            layers = [layers]
        layers = list(layers)
        known = {layer.name for layer in tiled.layers}
        missing = [name for name in layers if name not in known]
        if missing:
            raise ValueError(f"layers names {missing[0]!r}, which the map does not have; it has "
                             f"{', '.join(repr(n) for n in sorted(known))}")
    return _Converter(path, tiled, layers).level()


class _Converter:
    """Turns one :class:`~sidestep.io.tiled_formats.TiledMap` into a Level."""

    def __init__(self, path, tiled, chosen):
        self.path = path
        self.tiled = tiled
        self.chosen = chosen
        self.problems = []

    def level(self):
        tiled = self.tiled
        # 1. Decide what collides before building anything: a verdict per object
        #    (True, False, or None when no rule decides) and a table of blocked
        #    cells per tile layer that has any.
        verdicts, tables, spawns = {}, {}, []
        for n, layer in enumerate(tiled.layers):
            if layer.gids is not None:
                table = self._blocked_cells(layer)
                if table is not None:
                    tables[n] = table
                continue
            verdicts[n] = [(shape, self._object_collides(layer, shape))
                           for shape in layer.shapes if shape.kind != "point"]
            spawns += [(s.x + layer.offset[0], s.y + layer.offset[1])
                       for s in layer.shapes if s.kind == "point"]
        said_yes = bool(tables) or any(v is True for part in verdicts.values() for _, v in part)
        fallback = self.chosen is None and not said_yes
        if fallback and any(verdicts.values()):
            self.problems.append("no layer, object or tile is marked as collision geometry "
                                 "(see sidestep.io.tiled); every object was read as an obstacle")

        # 2. Build layer by layer, objects as listed, so ids follow the file.
        builder = WorldBuilder(self.path)
        for n, layer in enumerate(tiled.layers):
            if n in tables:
                self._add_grid(builder, layer, tables[n])
            for shape, verdict in verdicts.get(n, ()):
                if verdict or (fallback and verdict is None):
                    self._add_shape(builder, layer, shape)
        # 3. The map's extent, last (ids of the file's obstacles unchanged):
        #    one-sided walls facing in, so no agent walks off the map.
        cols, rows = tiled.size
        if cols and rows and tiled.tile_width > 0 and tiled.tile_height > 0:
            builder.frame((0.0, 0.0), (cols * tiled.tile_width, rows * tiled.tile_height),
                          "map extent")
        return Level(world=builder.world(),
                     spawns=np.array(spawns, dtype=np.float64).reshape(-1, 2),
                     name=self.path.stem, source=self.path, problems=tuple(self.problems))

    # ------------------------------------------------------------- rules
    def _object_collides(self, layer, shape):
        """True/False, or None when no rule decides (see the module notes)."""
        if self.chosen is not None:
            return layer.name in self.chosen
        for props in (shape.properties, self.tiled.tile_properties.get(shape.gid, {}),
                      layer.properties):
            says = marked(props)
            if says is not None:
                return says
        if _has_keyword(layer.name, layer.cls, shape.cls):
            return True
        return None

    def _blocked_cells(self, layer):
        """``(rows, cols) bool`` blocked cells of a tile layer, or None if it has none."""
        gids = layer.gids
        if self.chosen is not None:
            chosen = layer.name in self.chosen and (gids != 0).any()
            return gids != 0 if chosen else None
        says = marked(layer.properties)
        if says is False or not (gids != 0).any():
            return None
        if says or _has_keyword(layer.name, layer.cls):
            return gids != 0
        solid = [gid for gid, props in self.tiled.tile_properties.items() if marked(props)]
        solid += list(self.tiled.tiles_with_shapes)
        table = np.isin(gids, solid)
        return table if table.any() else None

    # ---------------------------------------------------------- building
    def _collision_layer(self, place, *properties):
        """The ``sidestep_layer`` of the first of ``properties`` that has one, else 0."""
        for props in properties:
            if LAYER_PROPERTY in props:
                return collision_layer(props[LAYER_PROPERTY], self.path, place)
        return 0

    def _add_shape(self, builder, layer, shape):
        place = f"layer {layer.name!r}, object {shape.id}"
        on = self._collision_layer(place, shape.properties, layer.properties)
        x, y = shape.x + layer.offset[0], shape.y + layer.offset[1]
        w, h = shape.width, shape.height
        if shape.kind in ("rectangle", "tile", "ellipse") and not (w > 0 and h > 0):
            self.problems.append(f"{place}: a {shape.kind} of size {w:g} x {h:g}; skipped")
        elif shape.kind in ("rectangle", "tile"):
            # A tile object's origin is its bottom-left corner, a rectangle's its top-left.
            top = -h if shape.kind == "tile" else 0.0
            corners = placed([(0, top), (w, top), (w, top + h), (0, top + h)], x, y,
                             shape.rotation)
            if shape.rotation % 90 == 0:
                builder.boxes([corners.min(axis=0)], [corners.max(axis=0)], [place], layer=on)
            else:
                builder.polygon(corners, place, layer=on)
        elif shape.kind == "ellipse":
            if w == h:
                builder.circles(placed([(w / 2, h / 2)], x, y, shape.rotation), [w / 2], [place],
                                layer=on)
            else:
                turn = 2 * np.pi * np.arange(ELLIPSE_VERTICES) / ELLIPSE_VERTICES
                rim = np.column_stack([w / 2 * (1 + np.cos(turn)), h / 2 * (1 + np.sin(turn))])
                builder.polygon(placed(rim, x, y, shape.rotation), place, layer=on)
        elif shape.kind == "polygon":
            self._add_polygon(builder, place, placed(shape.points, x, y, shape.rotation), on)
        elif shape.kind == "polyline":
            self._add_walls(builder, place, placed(shape.points, x, y, shape.rotation), on,
                            closed=False)
        else:
            self.problems.append(f"{place}: {shape.kind} objects are not obstacles; skipped")

    def _add_polygon(self, builder, place, vertices, on):
        # A point repeated (or the first point repeated at the end) is a slip
        # of the editor's mouse, not a shape: drop the repeat.
        keep = np.ones(len(vertices), dtype=bool)
        keep[1:] = np.any(vertices[1:] != vertices[:-1], axis=1)
        vertices = vertices[keep]
        if len(vertices) > 1 and np.array_equal(vertices[0], vertices[-1]):
            vertices = vertices[:-1]
        if len(vertices) < 3:
            self.problems.append(f"{place}: a polygon of {len(vertices)} points; read as walls")
            self._add_walls(builder, place, vertices, on, closed=False)
            return
        try:
            builder.polygon(vertices, place, layer=on)
        except LevelError as exc:
            self.problems.append(f"{place}: not a simple polygon ({exc.message}); read as "
                                 "walls along its edges")
            self._add_walls(builder, place, vertices, on, closed=True)

    def _add_walls(self, builder, place, points, on, *, closed):
        ends = np.roll(points, -1, axis=0) if closed else points[1:]
        starts = points if closed else points[:-1]
        keep = np.any(starts != ends, axis=1)
        if not keep.any():
            self.problems.append(f"{place}: a line of zero length; skipped")
            return
        n = int(keep.sum())
        builder.walls(starts[keep], ends[keep], np.zeros(n),
                      [f"{place}, segment {i}" for i in np.flatnonzero(keep)], layer=on)

    def _add_grid(self, builder, layer, table):
        place = f"layer {layer.name!r}"
        on = self._collision_layer(place, layer.properties)
        tw, th = self.tiled.tile_width, self.tiled.tile_height
        ox, oy = layer.offset
        if tw == th:
            builder.grid(table, tw, (ox, oy), place, layer=on)
            return
        rows, cols = np.nonzero(table)
        mins = np.column_stack([ox + cols * tw, oy + rows * th])
        builder.boxes(mins, mins + (tw, th),
                      [f"{place}, tile ({c}, {r})" for r, c in zip(rows, cols)], layer=on)


def collision_layer(value, path, place):
    """A ``sidestep_layer`` property's value as a layer 0..31 (else a LevelError at ``place``).

    Examples
    --------
    >>> collision_layer(3, "map.tmj", "layer 'Glass'"), collision_layer("31", "map.tmj", "x")
    (3, 31)
    >>> collision_layer(32, "map.tmj", "layer 'Glass'")     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sidestep.level.LevelError: map.tmj: layer 'Glass': sidestep_layer must be ... 0..31, got 32
    """
    number = None
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    elif isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and value == int(value):
        number = int(value)
    if number is None or not 0 <= number < LAYERS:
        raise LevelError(path, place, f"{LAYER_PROPERTY} must be a whole number "
                         f"0..{LAYERS - 1}, got {str(value)[:40]}")
    return number


def placed(local, x, y, rotation):
    """Object-local points moved to the map: turned clockwise about the origin, then shifted.

    This is the one coordinate transform of Tiled objects: Tiled rotates an
    object by ``rotation`` degrees, clockwise on screen, about its origin
    ``(x, y)``, in pixels with y pointing down.

    Parameters
    ----------
    local : (k, 2) float64
        Points relative to the object's origin.
    x, y : float
        The origin in map pixels.
    rotation : float
        Degrees, clockwise on screen.

    Returns
    -------
    (k, 2) float64

    Examples
    --------
    >>> placed([(10.0, 0.0)], 5.0, 5.0, 90.0).tolist()    # right of the origin turns to below
    [[5.0, 15.0]]
    """
    local = np.asarray(local, dtype=np.float64).reshape(-1, 2)
    quarter = rotation / 90.0
    if quarter == round(quarter):
        # Exact sines for quarter turns, so a turned box keeps exact corners.
        cos, sin = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[round(quarter) % 4]
    else:
        cos, sin = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
    # With y down, the standard rotation matrix turns clockwise on screen.
    return np.column_stack([x + cos * local[:, 0] - sin * local[:, 1],
                            y + sin * local[:, 0] + cos * local[:, 1]])


def marked(properties):
    """What Tiled ``properties`` say about colliding: True, False, or None if nothing.

    Examples
    --------
    >>> marked({"Solid": "true"}), marked({"bodyType": "dynamic"}), marked({"friction": 1.0})
    (True, False, None)
    >>> marked({"sidestep_layer": 2}), marked({"sidestep_layer": 2, "collides": False})
    (True, False)
    """
    for name, value in properties.items():
        key = name.lower()
        if key == "bodytype":
            return str(value).lower() == "static"
        if key in FLAG_PROPERTIES:
            return _truth(value)
    # Naming a collision layer says it collides (a flag above says otherwise).
    return True if LAYER_PROPERTY in properties else None


def _truth(value):
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "no", "off")
    return bool(value)


def _has_keyword(*texts):
    return any(word in (text or "").lower() for text in texts for word in KEYWORDS)
