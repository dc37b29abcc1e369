"""``load`` picks the reader by extension (and, for ``.json``, by content) and checks options."""
import json

import pytest

import sidestep
from sidestep.io import EXTENSIONS, load, save
from sidestep.level import LevelError


def test_unknown_extensions_are_refused_listing_the_known_ones(tmp_path):
    path = tmp_path / "level.fbx"
    path.write_text("Kaydara FBX Binary\n")
    with pytest.raises(LevelError) as info:
        load(path)
    assert info.value.file == str(path)
    for suffix in EXTENSIONS:
        assert suffix in info.value.message


def test_json_files_are_told_apart_by_content(tmp_path):
    world = sidestep.World2D()
    world.add_circles([(1, 1)], 0.5)
    scene = save(world, tmp_path / "scene.json")
    assert len(load(scene).world) == 1
    tiled = tmp_path / "map.json"
    tiled.write_text(json.dumps({"type": "map", "orientation": "orthogonal", "width": 1,
                                 "height": 1, "tilewidth": 8, "tileheight": 8, "tilesets": [],
                                 "layers": [{"type": "objectgroup", "name": "Collision",
                                             "objects": [{"id": 1, "x": 0, "y": 0,
                                                          "width": 8, "height": 8}]}]}))
    pytest.importorskip("pytiled_parser")
    assert load(tiled).world.family(0) == "box"
    neither = tmp_path / "other.json"
    neither.write_text('{"hello": 1}')
    with pytest.raises(LevelError, match="not a Tiled map"):
        load(neither)


def test_options_are_checked_against_the_format(tmp_path):
    path = tmp_path / "room.map"
    path.write_text("type octile\nheight 1\nwidth 2\nmap\n.@\n")
    with pytest.raises(TypeError, match="'threshold', which .map files do not take; it takes "
                                        "scenarios"):
        load(path, threshold=3)
    scene = save(sidestep.World2D(), tmp_path / "s.json")
    with pytest.raises(TypeError, match="sidestep scene"):
        load(scene, layers=["x"])


def test_missing_files_raise_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nothing.map"):
        load(tmp_path / "nothing.map")


def test_extensions_are_matched_in_any_case(tmp_path):
    path = tmp_path / "ROOM.MAP"
    path.write_text("type octile\nheight 1\nwidth 2\nmap\n.@\n")
    assert load(path).name == "ROOM"


def test_tilesets_and_scenario_files_are_not_levels(tmp_path):
    for name, words in (("tiles.tsx", "tileset"), ("tiles.tsj", "tileset"),
                        ("arena.map.scen", "load arena.map")):
        (tmp_path / name).write_text("x")
        with pytest.raises(LevelError, match=words):
            load(tmp_path / name)
