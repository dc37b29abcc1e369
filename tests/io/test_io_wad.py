"""Doom WADs: which linedefs block, player starts, map choice, and errors naming lump and record."""
import struct

import numpy as np
import pytest

from sidestep.io import load
from sidestep.io.wad import map_names
from sidestep.level import LevelError


def wad_bytes(maps, ident=b"PWAD"):
    """A WAD holding ``maps``: ``{name: {lump name: bytes}}``, lumps in the order given."""
    lumps = []
    for name, own in maps.items():
        lumps.append((name, b""))
        lumps.extend(own.items())
    body, entries, offset = b"", [], 12
    for name, data in lumps:
        entries.append(struct.pack("<ii8s", offset, len(data), name.encode()))
        body += data
        offset += len(data)
    return ident + struct.pack("<ii", len(lumps), offset) + body + b"".join(entries)


def doom_map(vertexes, lines, sectors, things=(), hexen=False):
    """Lumps of a binary map. ``lines``: (v1, v2, flags, right sector, left sector or None)."""
    sides, linedefs = [], []
    for v1, v2, flags, right, left in lines:
        ids = []
        for sector in (right, left):
            if sector is None:
                ids.append(0xFFFF)
            else:
                ids.append(len(sides))
                sides.append(struct.pack("<hh8s8s8sH", 0, 0, b"-", b"-", b"STARTAN3", sector))
        if hexen:
            linedefs.append(struct.pack("<HHHB5BHH", v1, v2, flags, 0, 0, 0, 0, 0, 0, *ids))
        else:
            linedefs.append(struct.pack("<HHHHHHH", v1, v2, flags, 0, 0, *ids))
    if hexen:
        thing = [struct.pack("<hhhhhHHB5B", 0, x, y, 0, 0, t, 7, 0, 0, 0, 0, 0, 0)
                 for x, y, t in things]
    else:
        thing = [struct.pack("<hhhHH", x, y, 0, t, 7) for x, y, t in things]
    lumps = {"THINGS": b"".join(thing), "LINEDEFS": b"".join(linedefs),
             "SIDEDEFS": b"".join(sides),
             "VERTEXES": b"".join(struct.pack("<hh", x, y) for x, y in vertexes),
             "SECTORS": b"".join(struct.pack("<hh8s8shhh", f, c, b"FLOOR", b"CEIL", 160, 0, 0)
                                 for f, c in sectors)}
    if hexen:
        lumps["BEHAVIOR"] = b"ACS\0"
    return lumps


# Two rooms side by side, sector 0 (floor 0, ceiling 128) and sector 1, sharing
# the two-sided line x = 64; the outer walls are one-sided.
SQUARE = [(0, 0), (64, 0), (128, 0), (128, 64), (64, 64), (0, 64)]
OUTER = [(0, 1, 1, 0, None), (1, 2, 1, 1, None), (2, 3, 1, 1, None), (3, 4, 1, 1, None),
         (4, 5, 1, 0, None), (5, 0, 1, 0, None)]


def two_rooms(tmp_path, second_sector, flags=4, name="rooms.wad", **kw):
    lumps = doom_map(SQUARE, OUTER + [(1, 4, flags, 0, 1)], [(0, 128), second_sector],
                     things=[(32, 32, 1), (96, 32, 2), (40, 40, 3001)], **kw)
    path = tmp_path / name
    path.write_bytes(wad_bytes({"MAP01": lumps}))
    return path


def middle_line_blocks(level):
    # Either way round: a line with a sector the player cannot stand in on one
    # side is the level's edge, a one-sided wall facing the open sector.
    g = level.world.geometry("wall")
    a, b = g["starts"], g["ends"]
    return bool(np.any(np.all(a == [64, 0], axis=1) & np.all(b == [64, 64], axis=1)
                       | np.all(a == [64, 64], axis=1) & np.all(b == [64, 0], axis=1)))


def drawn_as_doom_does(tmp_path, second_sector, name):
    """The two rooms with every line run the other way: fronts (right sides) facing in."""
    lines = [(b, a, flags, right, left) for a, b, flags, right, left in
             OUTER + [(1, 4, 4, 0, 1)]]
    lumps = doom_map(SQUARE, lines, [(0, 128), second_sector],
                     things=[(32, 32, 1), (96, 32, 2)])
    path = tmp_path / name
    path.write_bytes(wad_bytes({"MAP01": lumps}))
    return path


def test_a_shut_door_is_the_edge_of_the_open_room(tmp_path):
    world = load(drawn_as_doom_does(tmp_path, (0, 0), "door.wad")).world   # room 2: shut
    # Walls are walkable on their left: outer walls run counter-clockwise.
    assert world.clearance((-8, 32)) < 0 < world.clearance((8, 32))
    g = world.geometry("wall")
    middle = (g["starts"][:, 0] == 64) & (g["ends"][:, 0] == 64)
    # Walkable on its left, the open west room: it runs up the line x = 64.
    assert g["one_sided"][middle].all() and g["starts"][middle].tolist() == [[64, 0]]
    # Inside the shut sector counts as outside the level; the open room does not.
    assert world.clearance((96, 32)) < 0 < world.clearance((32, 32))
    # A step up is no edge: both sides are walkable.
    g = load(drawn_as_doom_does(tmp_path, (40, 128), "step.wad")).world.geometry("wall")
    assert not g["one_sided"][(g["starts"][:, 0] == 64) & (g["ends"][:, 0] == 64)].any()


@pytest.mark.parametrize("second, blocks", [
    ((0, 128), False),      # same floor and ceiling: an open doorway
    ((24, 128), False),     # a step of 24 units: climbable
    ((25, 128), True),      # 25: too high
    ((-40, 128), True),     # a drop of 40: blocks both ways in 2D
    ((0, 56), False),       # an opening exactly the player's height
    ((0, 55), True),        # too low to pass
    ((0, 0), True),         # a closed door
])
def test_two_sided_lines_block_by_step_and_opening_height(tmp_path, second, blocks):
    level = load(two_rooms(tmp_path, second))
    assert len(level.world) == 6 + blocks
    assert middle_line_blocks(level) == blocks


def test_the_height_rules_can_be_changed_or_dropped(tmp_path):
    path = two_rooms(tmp_path, (40, 128))
    assert middle_line_blocks(load(path))
    assert not middle_line_blocks(load(path, step_height=48))
    assert not middle_line_blocks(load(path, step_height=None))
    closed = two_rooms(tmp_path, (0, 0), name="door.wad")
    assert not middle_line_blocks(load(closed, agent_height=None))


def test_impassable_two_sided_lines_block(tmp_path):
    level = load(two_rooms(tmp_path, (0, 128), flags=4 | 1))
    assert middle_line_blocks(level)


def test_walls_are_in_map_units_with_y_up_and_spawns_are_player_starts(tmp_path):
    level = load(two_rooms(tmp_path, (0, 128)))
    g = level.world.geometry("wall")
    assert g["clearance"].tolist() == [0.0] * 6
    assert level.world.bounds == (0.0, 0.0, 128.0, 64.0)
    np.testing.assert_array_equal(level.spawns, [[32, 32], [96, 32]])   # thing 3001 is not one
    assert level.name == "MAP01" and level.problems == ()


def test_hexen_format_maps_are_read(tmp_path):
    level = load(two_rooms(tmp_path, (0, 0), hexen=True))
    assert len(level.world) == 7 and level.spawns.shape == (2, 2)


def test_zero_length_linedefs_are_skipped_and_reported(tmp_path):
    lumps = doom_map(SQUARE + [(0, 0)], OUTER + [(0, 6, 1, 0, None)], [(0, 128), (0, 128)])
    path = tmp_path / "zero.wad"
    path.write_bytes(wad_bytes({"E1M1": lumps}))
    level = load(path)
    assert len(level.world) == 6
    assert level.problems == ("E1M1 LINEDEFS record 6: zero length (vertexes 0 and 6 are both "
                              "at (0, 0)); skipped",)


def test_the_first_map_is_read_unless_another_is_named(tmp_path):
    one = doom_map(SQUARE, OUTER, [(0, 128), (0, 128)])
    two = doom_map([(0, 0), (10, 0), (0, 10)], [(0, 1, 1, 0, None), (1, 2, 1, 0, None),
                                                (2, 0, 1, 0, None)], [(0, 128)])
    path = tmp_path / "two.WAD"
    path.write_bytes(wad_bytes({"E1M1": one, "E1M2": two}))
    assert map_names(path) == ["E1M1", "E1M2"]
    assert load(path).name == "E1M1" and len(load(path).world) == 6
    level = load(path, map="e1m2")
    assert level.name == "E1M2" and len(level.world) == 3
    with pytest.raises(LevelError, match="no map 'E1M3'; the WAD holds E1M1, E1M2"):
        load(path, map="E1M3")


# ----------------------------------------------------------------- errors
def refused(path, **options):
    with pytest.raises(LevelError) as info:
        load(path, **options)
    assert str(path) in str(info.value)
    return info.value


def test_a_truncated_linedefs_lump_names_the_record(tmp_path):
    lumps = doom_map(SQUARE, OUTER, [(0, 128), (0, 128)])
    lumps["LINEDEFS"] = lumps["LINEDEFS"][:-5]
    path = tmp_path / "cut.wad"
    path.write_bytes(wad_bytes({"MAP01": lumps}))
    err = refused(path)
    assert err.place == "MAP01 LINEDEFS record 5" and "truncated" in err.message


def test_a_bad_directory_offset_is_refused(tmp_path):
    data = bytearray(two_rooms(tmp_path, (0, 128)).read_bytes())
    struct.pack_into("<i", data, 8, len(data) + 100)
    path = tmp_path / "baddir.wad"
    path.write_bytes(bytes(data))
    err = refused(path)
    assert err.place == "header" and "does not fit" in err.message


def test_a_lump_past_the_end_of_the_file_is_refused(tmp_path):
    data = two_rooms(tmp_path, (0, 128)).read_bytes()
    count, offset = struct.unpack_from("<ii", data, 4)
    patched = bytearray(data)
    # Entry 2 is LINEDEFS (after the MAP01 marker and THINGS): point it past the end.
    struct.pack_into("<i", patched, offset + 16 * 2, len(data))
    path = tmp_path / "past.wad"
    path.write_bytes(bytes(patched))
    err = refused(path)
    assert err.place == "MAP01 LINEDEFS lump" and "past the end" in err.message


def test_bad_indices_name_the_record(tmp_path):
    lines = OUTER + [(1, 99, 1, 0, None)]
    path = tmp_path / "index.wad"
    path.write_bytes(wad_bytes({"MAP01": doom_map(SQUARE, lines, [(0, 128), (0, 128)])}))
    err = refused(path)
    assert err.place == "MAP01 LINEDEFS record 6" and "vertex 99" in err.message
    lumps = doom_map(SQUARE, OUTER, [(0, 128)])         # sector 1 is missing
    path.write_bytes(wad_bytes({"MAP01": lumps}))
    err = refused(path)
    assert err.place.startswith("MAP01 SIDEDEFS record") and "sector 1" in err.message


def test_files_that_are_not_doom_maps_are_refused(tmp_path):
    path = tmp_path / "x.wad"
    path.write_bytes(b"JUNKJUNKJUNKJUNK")
    assert refused(path).place == "header"
    path.write_bytes(b"PWAD")
    assert "12-byte header" in refused(path).message
    path.write_bytes(wad_bytes({"PLAYPAL": {}}))
    assert "no map" in refused(path).message
    path.write_bytes(wad_bytes({"MAP01": {"TEXTMAP": b'namespace = "doom";', "ENDMAP": b""}}))
    assert "UDMF" in refused(path).message
    lumps = doom_map(SQUARE, OUTER, [(0, 128), (0, 128)])
    del lumps["SECTORS"]
    path.write_bytes(wad_bytes({"MAP01": lumps}))
    assert refused(path).message == "has no SECTORS lump"
