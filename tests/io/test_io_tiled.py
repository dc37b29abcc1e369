"""Tiled maps (TMX and JSON): what collides, Tiled's coordinates and rotation, located errors."""
import base64
import gzip
import json
import math
import zlib

import numpy as np
import pytest

import sidestep
from sidestep.io import load
from sidestep.io.tiled import ELLIPSE_VERTICES, marked
from sidestep.level import LevelError

#: The four one-sided walls round a map's extent, added after the file's obstacles.
FRAME = ["wall"] * 4

from same_world import assert_same_obstacles

pytest.importorskip("pytiled_parser")

TILESET_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tiles" tilewidth="16" tileheight="16"
         tilecount="4" columns="2">
 <image source="tiles.png" width="32" height="32"/>
 <tile id="1"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="2"><objectgroup draworder="index"><object id="1" x="0" y="0" width="16" height="8"/>
 </objectgroup></tile>
</tileset>
"""
TILESET_JSON = {"type": "tileset", "name": "tiles", "tilewidth": 16, "tileheight": 16,
                "tilecount": 4, "columns": 2, "image": "tiles.png", "imagewidth": 32,
                "imageheight": 32,
                "tiles": [{"id": 1, "properties": [{"name": "solid", "type": "bool",
                                                    "value": True}]},
                          {"id": 2, "objectgroup": {"type": "objectgroup", "objects": [
                              {"id": 1, "x": 0, "y": 0, "width": 16, "height": 8}]}}]}

OBJECTS_TMX = """
  <object id="1" x="10" y="20" width="4" height="2"/>
  <object id="2" x="10" y="20" width="4" height="2" rotation="90"/>
  <object id="3" x="0" y="0" width="10" height="0"/>
  <object id="4" x="100" y="100" width="20" height="10" rotation="30"/>
  <object id="5" x="50" y="50" width="10" height="10"><ellipse/></object>
  <object id="6" x="50" y="50" width="10" height="10" rotation="90"><ellipse/></object>
  <object id="7" x="200" y="0" width="40" height="20"><ellipse/></object>
  <object id="8" x="300" y="300"><polygon points="0,0 20,0 10,-15"/></object>
  <object id="9" x="400" y="400"><polygon points="0,0 10,10 10,0 0,10"/></object>
  <object id="10" x="500" y="0"><polyline points="0,0 30,0 30,30 30,30"/></object>
  <object id="11" x="7" y="8"><point/></object>
  <object id="12" gid="1" x="600" y="100" width="32" height="16"/>
  <object id="13" gid="2147483649" x="700" y="100" width="32" height="16" rotation="90"/>
  <object id="14" x="0" y="0" width="50" height="20"><text>hello</text></object>
"""


def pts(text):
    return [{"x": float(p.split(",")[0]), "y": float(p.split(",")[1])} for p in text.split()]


OBJECTS_JSON = [
    {"id": 1, "x": 10, "y": 20, "width": 4, "height": 2},
    {"id": 2, "x": 10, "y": 20, "width": 4, "height": 2, "rotation": 90},
    {"id": 3, "x": 0, "y": 0, "width": 10, "height": 0},
    {"id": 4, "x": 100, "y": 100, "width": 20, "height": 10, "rotation": 30},
    {"id": 5, "x": 50, "y": 50, "width": 10, "height": 10, "ellipse": True},
    {"id": 6, "x": 50, "y": 50, "width": 10, "height": 10, "rotation": 90, "ellipse": True},
    {"id": 7, "x": 200, "y": 0, "width": 40, "height": 20, "ellipse": True},
    {"id": 8, "x": 300, "y": 300, "polygon": pts("0,0 20,0 10,-15")},
    {"id": 9, "x": 400, "y": 400, "polygon": pts("0,0 10,10 10,0 0,10")},
    {"id": 10, "x": 500, "y": 0, "polyline": pts("0,0 30,0 30,30 30,30")},
    {"id": 11, "x": 7, "y": 8, "point": True},
    {"id": 12, "gid": 1, "x": 600, "y": 100, "width": 32, "height": 16},
    {"id": 13, "gid": 2147483649, "x": 700, "y": 100, "width": 32, "height": 16, "rotation": 90},
    {"id": 14, "x": 0, "y": 0, "width": 50, "height": 20, "text": {"text": "hello"}},
]

GROUND = [[1, 1, 1, 1], [0, 2, 0, 0], [0, 0, 0, 3]]


def tmx(body, *, tileset='<tileset firstgid="1" source="tiles.tsx"/>', attrs=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down"
     width="4" height="3" tilewidth="16" tileheight="16" infinite="0" nextlayerid="9"
     nextobjectid="30" {attrs}>
 {tileset}
{body}
</map>
"""


def tile_layer_tmx(name, rows, extra=""):
    csv = ",\n".join(",".join(str(g) for g in row) for row in rows)
    return (f' <layer id="1" name="{name}" width="{len(rows[0])}" height="{len(rows)}" {extra}>'
            f'\n  <data encoding="csv">\n{csv}\n</data>\n </layer>')


def tmj(layers, *, tilesets=({"firstgid": 1, "source": "tiles.json"},), **extra):
    return {"type": "map", "version": "1.10", "tiledversion": "1.10.2",
            "orientation": "orthogonal", "renderorder": "right-down", "width": 4, "height": 3,
            "tilewidth": 16, "tileheight": 16, "infinite": False, "nextlayerid": 9,
            "nextobjectid": 30, "tilesets": list(tilesets), "layers": layers, **extra}


def tile_layer_json(name, rows, **extra):
    return {"type": "tilelayer", "name": name, "width": len(rows[0]), "height": len(rows),
            "data": [g for row in rows for g in row], "x": 0, "y": 0, **extra}


def object_layer_json(name, objects, **extra):
    return {"type": "objectgroup", "name": name, "objects": objects, **extra}


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "tiles.tsx").write_text(TILESET_TSX)
    (tmp_path / "tiles.json").write_text(json.dumps(TILESET_JSON))
    return tmp_path


def write_tmx(folder, body, name="map.tmx", **kw):
    path = folder / name
    path.write_text(tmx(body, **kw))
    return path


def write_json(folder, data, name="map.json"):
    path = folder / name
    path.write_text(json.dumps(data, indent=1))
    return path


def both(folder):
    """The same map as TMX and as Tiled JSON: a ground tile layer and a Collision layer."""
    a = write_tmx(folder, tile_layer_tmx("ground", GROUND)
                  + f'\n <objectgroup id="3" name="Collision">{OBJECTS_TMX} </objectgroup>')
    b = write_json(folder, tmj([tile_layer_json("ground", GROUND),
                                object_layer_json("Collision", OBJECTS_JSON)]))
    return a, b


def rotated(local, x, y, degrees):
    """Independent reference: clockwise on screen with y down."""
    t = math.radians(degrees)
    return [(x + px * math.cos(t) - py * math.sin(t), y + px * math.sin(t) + py * math.cos(t))
            for px, py in local]


def test_objects_and_tiles_become_obstacles_in_tiled_pixels(folder):
    for path in both(folder):
        level = load(path)
        world = level.world
        assert [world.family(i) for i in world.ids] == (
            ["grid", "box", "box", "polygon", "circle", "circle", "polygon", "polygon"]
            + ["wall"] * 6 + ["box", "box"] + FRAME), path
        # The tile layer: tile 2 has a solid property, tile 3 its own shapes;
        # row 0 of the map is the top, at y in [0, 16].
        g = world.geometry("grid")
        assert g["blocked"][0].astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
        assert g["cell_size"].tolist() == [16.0] and g["origin"].tolist() == [[0.0, 0.0]]
        assert world.overlapping((24.0, 24.0)).tolist() == [0]
        boxes = world.geometry("box")
        np.testing.assert_array_equal(boxes["mins"], [[10, 20], [8, 20], [600, 84], [700, 100]])
        np.testing.assert_array_equal(boxes["maxs"], [[14, 22], [10, 24], [632, 100], [716, 132]])
        circles = world.geometry("circle")
        np.testing.assert_allclose(circles["centers"], [[55, 55], [45, 55]], atol=1e-12)
        np.testing.assert_array_equal(circles["radii"], [5, 5])
        polygons = world.geometry("polygon")["vertices"]
        np.testing.assert_allclose(polygons[0], rotated([(0, 0), (20, 0), (20, 10), (0, 10)],
                                                        100, 100, 30), atol=1e-12)
        assert polygons[0][1][1] > 100               # clockwise on screen: the x edge goes down
        rim = polygons[1]
        assert len(rim) == ELLIPSE_VERTICES
        np.testing.assert_allclose(((rim[:, 0] - 220) / 20) ** 2 + ((rim[:, 1] - 10) / 10) ** 2,
                                   1.0, atol=1e-12)
        np.testing.assert_array_equal(polygons[2], [[300, 300], [320, 300], [310, 285]])
        walls = world.geometry("wall")
        assert not walls["one_sided"][:6].any() and walls["one_sided"][6:].all()   # the frame
        walls = {key: value[:6] for key, value in walls.items()}
        np.testing.assert_array_equal(walls["starts"], [[400, 400], [410, 410], [410, 400],
                                                        [400, 410], [500, 0], [530, 0]])
        np.testing.assert_array_equal(walls["ends"], [[410, 410], [410, 400], [400, 410],
                                                      [400, 400], [530, 0], [530, 30]])
        np.testing.assert_array_equal(level.spawns, [[7, 8]])
        assert len(level.problems) == 3
        assert level.problems[0] == "layer 'Collision', object 3: a rectangle of size 10 x 0; " \
                                    "skipped"
        assert level.problems[1].startswith("layer 'Collision', object 9: not a simple polygon")
        assert level.problems[2] == "layer 'Collision', object 14: text objects are not " \
                                    "obstacles; skipped"
        assert level.name == "map"


def test_tmx_and_json_give_the_same_world(folder):
    tmx_level, json_level = (load(p) for p in both(folder))
    assert_same_obstacles(tmx_level.world, json_level.world)
    assert tmx_level.problems == json_level.problems


@pytest.mark.parametrize("layer, objects, expected", [
    # A layer whose name says collision: everything in it.
    ("Collisions", [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8}], 1),
    # Object types that say collision (Tuxemon), in a layer that does not.
    ("Stuff", [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8, "type": "collision"},
               {"id": 2, "x": 20, "y": 0, "polyline": pts("0,0 5,0"), "type": "collision-line"},
               {"id": 3, "x": 40, "y": 0, "width": 8, "height": 8, "type": "event"}], 2),
    # Properties decide first: collides=false in a collision layer, bodyType.
    ("collision", [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8,
                    "properties": [{"name": "collides", "type": "bool", "value": False}]},
                   {"id": 2, "x": 20, "y": 0, "width": 8, "height": 8}], 1),
    ("ground", [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8,
                 "properties": [{"name": "bodyType", "type": "string", "value": "static"}]},
                {"id": 2, "x": 20, "y": 0, "width": 8, "height": 8,
                 "properties": [{"name": "bodyType", "type": "string", "value": "dynamic"}]},
                {"id": 3, "x": 40, "y": 0, "width": 8, "height": 8}], 1),
    # A tile object whose tile (gid 2) is solid in the tileset.
    ("props", [{"id": 1, "gid": 2, "x": 0, "y": 16, "width": 16, "height": 16},
               {"id": 2, "gid": 1, "x": 20, "y": 16, "width": 16, "height": 16}], 1),
])
def test_which_objects_collide(folder, layer, objects, expected):
    level = load(write_json(folder, tmj([object_layer_json(layer, objects)])))
    assert len(level.world) == expected + len(FRAME) and level.problems == ()


def test_a_map_that_marks_nothing_reads_every_object_and_says_so(folder):
    objects = [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8},
               {"id": 2, "x": 20, "y": 0, "polyline": pts("0,0 5,0")},
               {"id": 3, "x": 9, "y": 9, "point": True}]
    level = load(write_json(folder, tmj([object_layer_json("Objects", objects)])))
    assert [level.world.family(i) for i in level.world.ids] == ["box", "wall"] + FRAME
    assert level.spawns.tolist() == [[9.0, 9.0]]
    assert "every object was read as an obstacle" in level.problems[0]


def test_the_layers_option_picks_layers_by_name(folder):
    data = tmj([tile_layer_json("ground", GROUND),
                object_layer_json("Collision", [{"id": 1, "x": 0, "y": 0, "width": 8,
                                                 "height": 8}]),
                object_layer_json("deco", [{"id": 2, "x": 20, "y": 0, "width": 8,
                                            "height": 8}])])
    path = write_json(folder, data)
    level = load(path, layers=["deco", "ground"])
    assert [level.world.family(i) for i in level.world.ids] == ["grid", "box"] + FRAME
    assert level.world.geometry("grid")["blocked"][0].sum() == 6          # every non-empty tile
    assert level.world.geometry("box")["mins"].tolist() == [[20.0, 0.0]]
    with pytest.raises(ValueError, match="'decor', which the map does not have"):
        load(path, layers=["decor"])


def layer_property(value, kind="int"):
    return [{"name": "sidestep_layer", "type": kind, "value": value}]


def test_a_sidestep_layer_property_puts_a_layers_obstacles_on_that_collision_layer(folder):
    glass = [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8},
             {"id": 2, "x": 20, "y": 0, "polyline": pts("0,0 10,0 10,10")},
             {"id": 3, "x": 40, "y": 40, "width": 6, "height": 6, "ellipse": True,
              "properties": layer_property("7", "string")}]            # its own wins
    data = tmj([tile_layer_json("Walls", GROUND, properties=layer_property(3)),
                object_layer_json("Glass", glass, properties=layer_property(2)),
                object_layer_json("Collision", [{"id": 4, "x": 50, "y": 0, "width": 4,
                                                 "height": 4}])])
    world = load(write_json(folder, data, name="layers.tmj")).world
    families = [world.family(i) for i in world.ids]
    assert families == ["grid", "box", "wall", "wall", "circle", "box"] + FRAME
    assert world.layers(world.ids).tolist() == [3, 2, 2, 2, 7, 0] + [0] * 4
    # A mask without layer 2 sees through the glass box; one with it does not.
    assert world.clearance((4.0, 4.0), mask=sidestep.layers.bits(0)) > 0
    assert world.clearance((4.0, 4.0), mask=sidestep.layers.bits(2)) < 0
    # The same in TMX.
    props = '<properties><property name="sidestep_layer" type="int" value="2"/></properties>'
    tmx_world = load(write_tmx(folder, f' <objectgroup id="3" name="Glass">{props}\n'
                                       '  <object id="1" x="0" y="0" width="8" height="8"/>\n'
                                       ' </objectgroup>')).world
    assert tmx_world.layers(tmx_world.ids).tolist() == [2] + [0] * 4


@pytest.mark.parametrize("value, kind", [(32, "int"), (-1, "int"), ("two", "string"),
                                         (1.5, "float"), (True, "bool")])
def test_a_bad_sidestep_layer_names_the_layer(folder, value, kind):
    data = tmj([object_layer_json("Glass", [{"id": 5, "x": 0, "y": 0, "width": 8, "height": 8,
                                              "properties": layer_property(value, kind)}])])
    path = write_json(folder, data)
    err = refused(path)
    assert err.place == "layer 'Glass', object 5" and "sidestep_layer" in err.message
    data = tmj([tile_layer_json("Walls", GROUND, properties=layer_property(value, kind))])
    assert refused(write_json(folder, data)).place == "layer 'Walls'"


def test_tile_layers_named_for_collision_block_every_tile_and_keep_their_offset(folder):
    level = load(write_json(folder, tmj([tile_layer_json("Walls", GROUND, offsetx=8,
                                                         offsety=4)])))
    g = level.world.geometry("grid")
    assert g["blocked"][0].sum() == 6 and g["origin"].tolist() == [[8.0, 4.0]]


@pytest.mark.parametrize("compression, pack", [("", bytes), ("zlib", zlib.compress),
                                               ("gzip", gzip.compress)])
def test_base64_tile_data_plain_or_compressed(folder, compression, pack):
    raw = np.array(GROUND, dtype="<u4").tobytes()
    layer = tile_layer_json("Walls", GROUND, encoding="base64", compression=compression,
                            data=base64.b64encode(pack(raw)).decode())
    if not compression:
        del layer["compression"]                # as Tiled writes it (and pytiled-parser fails)
    level = load(write_json(folder, tmj([layer])))
    assert level.world.geometry("grid")["blocked"][0].tolist() == (np.array(GROUND) > 0).tolist()
    layer["compression"] = "zstd"
    err = refused(write_json(folder, tmj([layer]), name="zstd.json"))
    assert err.place == "layer 'Walls'.compression" and "not supported" in err.message


def test_repeated_polygon_points_are_dropped_and_short_ones_become_walls(folder):
    objects = [{"id": 1, "x": 0, "y": 0, "polygon": pts("0,0 10,0 10,0 0,10 0,0")},
               {"id": 2, "x": 50, "y": 0, "polygon": pts("0,0 10,0")}]
    level = load(write_json(folder, tmj([object_layer_json("Collision", objects)])))
    assert [level.world.family(i) for i in level.world.ids] == ["polygon", "wall"] + FRAME
    assert level.world.geometry("polygon")["vertices"][0].tolist() == [[0, 0], [10, 0], [0, 10]]
    assert level.problems == ("layer 'Collision', object 2: a polygon of 2 points; read as "
                              "walls",)


def test_tiles_that_are_not_square_become_boxes(folder):
    data = tmj([tile_layer_json("Walls", [[1, 0], [0, 1]])], tilewidth=16, tileheight=8)
    level = load(write_json(folder, data))
    boxes = level.world.geometry("box")
    assert boxes["mins"].tolist() == [[0, 0], [16, 8]] and boxes["maxs"].tolist() == [[16, 8],
                                                                                      [32, 16]]


def test_group_layers_add_their_offsets(folder):
    inner = object_layer_json("Collision", [{"id": 1, "x": 0, "y": 0, "width": 10,
                                             "height": 10}], offsetx=0, offsety=50)
    data = tmj([{"type": "group", "name": "g", "offsetx": 100, "offsety": 0,
                 "layers": [inner]}])
    level = load(write_json(folder, data))
    assert level.world.geometry("box")["mins"].tolist() == [[100.0, 50.0]]
    assert len(load(write_json(folder, data), layers=["g/Collision"]).world) == 1 + len(FRAME)
    # The same in TMX.
    body = (' <group id="5" name="g" offsetx="100" offsety="0"><objectgroup id="6" '
            'name="Collision" offsetx="0" offsety="50"><object id="1" x="0" y="0" '
            'width="10" height="10"/></objectgroup>'
            '</group>')
    level = load(write_tmx(folder, body))
    assert level.world.geometry("box")["mins"].tolist() == [[100.0, 50.0]]


def test_templates_and_external_tilesets(folder):
    (folder / "templates").mkdir()
    (folder / "templates" / "crate.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template>\n'
        ' <tileset firstgid="1" source="../tiles.tsx"/>\n'
        ' <object name="crate" type="solid" gid="1" width="32" height="32"/>\n</template>\n')
    (folder / "templates" / "crate.tj").write_text(json.dumps(
        {"type": "template", "tileset": {"firstgid": 1, "source": "../tiles.json"},
         "object": {"name": "crate", "type": "solid", "gid": 1, "width": 32, "height": 32,
                    "rotation": 0, "x": 0, "y": 0, "visible": True, "id": 0}}))
    body = (' <objectgroup id="2" name="things">\n'
            '  <object id="1" template="templates/crate.tx" x="64" y="96"/>\n'
            '  <object id="2" template="templates/crate.tx" x="0" y="32" width="16" '
            'height="16"/>\n </objectgroup>')
    objects = [{"id": 1, "template": "templates/crate.tj", "x": 64, "y": 96},
               {"id": 2, "template": "templates/crate.tj", "x": 0, "y": 32, "width": 16,
                "height": 16}]
    for path in (write_tmx(folder, body),
                 write_json(folder, tmj([object_layer_json("things", objects)]))):
        boxes = load(path).world.geometry("box")
        assert boxes["mins"].tolist() == [[64, 64], [0, 16]], path
        assert boxes["maxs"].tolist() == [[96, 96], [16, 32]], path


def test_a_template_with_its_own_tileset_is_read_quietly(folder, capsys):
    (folder / "other.tsx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.10" name="other" '
        'tilewidth="8" tileheight="8" tilecount="2" columns="2">\n <image source="o.png" '
        'width="16" height="8"/>\n <tile id="1"><properties><property name="solid" '
        'type="bool" value="true"/></properties></tile>\n</tileset>\n')
    (folder / "rock.tx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <tileset firstgid="1" '
        'source="other.tsx"/>\n <object name="rock" gid="2" width="8" height="8"/>\n'
        '</template>\n')
    body = (' <objectgroup id="2" name="things">\n  <object id="1" template="rock.tx" x="64" '
            'y="96"/>\n </objectgroup>')
    level = load(write_tmx(folder, body))
    # The rock's tile is solid in the template's own tileset, which the map does not list.
    assert level.world.geometry("box")["mins"].tolist() == [[64.0, 88.0]]
    assert capsys.readouterr().out == ""


def test_marked_properties():
    assert marked({"collides": True}) is True and marked({"Blocked": "no"}) is False
    assert marked({"solid": 0}) is False and marked({"obstacle": "rock"}) is True
    assert marked({"bodyType": "static"}) is True and marked({"bodyType": "kinematic"}) is False
    assert marked({"name": "x"}) is None


# ------------------------------------------------------------------ errors
def refused(path, **options):
    with pytest.raises(LevelError) as info:
        load(path, **options)
    assert str(info.value).startswith(str(info.value.file))
    return info.value


def test_a_tmx_cut_in_half_names_the_line(folder):
    path, _ = both(folder)
    text = path.read_text()
    path.write_text(text[:len(text) // 2])
    err = refused(path)
    assert err.file == str(path) and err.place.startswith("line ") and "XML" in err.message


def test_a_json_syntax_error_names_line_and_column(folder):
    _, path = both(folder)
    text = path.read_text().replace('"name": "Collision"', '"name" "Collision"')
    path.write_text(text)
    err = refused(path)
    assert err.place.startswith("line ") and ", column " in err.place
    assert "invalid JSON" in err.message


def test_a_bad_object_names_its_layer_and_id(folder):
    objects = [{"id": 1, "x": 0, "y": 0, "width": 8, "height": 8},
               {"id": 7, "y": 0, "width": 8, "height": 8}]
    err = refused(write_json(folder, tmj([object_layer_json("Collision", objects)])))
    assert err.place == "layer 'Collision', object 7" and "'x'" in err.message
    objects[1] = {"id": 7, "x": 0, "y": 0, "width": "wide", "height": 8}
    err = refused(write_json(folder, tmj([object_layer_json("Collision", objects)])))
    assert err.place == "layer 'Collision', object 7.width"
    body = (' <objectgroup id="2" name="Collision">\n'
            '  <object id="1" x="0" y="0" width="8" height="8"/>\n'
            '  <object id="7" x="zero" y="0" width="8" height="8"/>\n </objectgroup>')
    err = refused(write_tmx(folder, body))
    assert err.place == "layer 'Collision', object 7" and "zero" in err.message


def test_bad_tile_data_names_the_layer(folder):
    layer = tile_layer_json("Walls", GROUND)
    layer["data"] = layer["data"][:-1]
    err = refused(write_json(folder, tmj([layer])))
    assert err.place == "layer 'Walls'.data" and "expected width x height" in err.message


def test_a_missing_tileset_is_named(folder):
    err = refused(write_tmx(folder, tile_layer_tmx("Walls", GROUND),
                            tileset='<tileset firstgid="1" source="gone.tsx"/>'))
    assert "gone.tsx" in str(err)
    err = refused(write_json(folder, tmj([tile_layer_json("Walls", GROUND)],
                                         tilesets=[{"firstgid": 1, "source": "gone.json"}])))
    assert err.place == "tilesets[0]" and "gone.json" in err.message


def test_a_tileset_is_not_a_map(folder):
    err = refused(folder / "tiles.json")
    assert "is a Tiled tileset, not a map" in err.message
    assert "tileset, not a map" in str(refused(folder / "tiles.tsx"))


@pytest.mark.parametrize("extra, words", [
    ({"orientation": "isometric"}, "isometric maps are not supported"),
    ({"infinite": True}, "infinite"),
])
def test_unsupported_maps_are_refused(folder, extra, words):
    err = refused(write_json(folder, {**tmj([tile_layer_json("Walls", GROUND)]), **extra}))
    assert words in err.message
    attrs = " ".join(f'{k}="{int(v) if isinstance(v, bool) else v}"' for k, v in extra.items())
    text = tmx(tile_layer_tmx("Walls", GROUND)).replace('orientation="orthogonal"', "") \
        .replace('infinite="0"', "").replace("<map ", f"<map {attrs} "
                                              + ("" if "orientation" in extra
                                                 else 'orientation="orthogonal" ')
                                              + ("" if "infinite" in extra else 'infinite="0" '))
    (folder / "odd.tmx").write_text(text)
    assert words in refused(folder / "odd.tmx").message
