"""Moving AI ``.map``/``.scen`` files: conventions, dropped scenario rows, located errors."""
import numpy as np
import pytest

from sidestep.io import load
from sidestep.io.movingai import read_map
from sidestep.level import LevelError

ROWS = ["..@.",
        ".GT.",
        "SOW."]


def write_map(tmp_path, rows=ROWS, name="tiny.map", header=None, newline="\n"):
    head = header or ["type octile", f"height {len(rows)}", f"width {len(rows[0])}", "map"]
    path = tmp_path / name
    path.write_bytes(newline.join(head + rows).encode() + newline.encode())
    return path


def write_scen(tmp_path, rows, name="tiny.map.scen", version="version 1", sep="\t"):
    path = tmp_path / name
    lines = [version] + [sep.join(str(f) for f in row) for row in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_passable_characters_and_the_y_convention(tmp_path):
    level = read_map(write_map(tmp_path))
    g = level.world.geometry("grid")
    # y = file row (top row first), x = column; cell (x, y) covers [x, x+1] x [y, y+1].
    assert g["blocked"][0].astype(int).tolist() == [[0, 0, 1, 0], [0, 0, 1, 0], [0, 1, 1, 0]]
    assert g["cell_size"].tolist() == [1.0] and g["origin"].tolist() == [[0.0, 0.0]]
    assert level.world.overlapping((2.5, 0.5)).tolist() == [0]          # '@' at row 0, col 2
    assert level.world.overlapping((0.5, 2.5)).size == 0                # 'S' is passable
    assert level.name == "tiny" and level.scenarios is None and level.problems == ()


def test_scenarios_beside_the_map_are_read_at_cell_centres(tmp_path):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "maps/x/tiny.map", 4, 3, 0, 0, 3, 2, 3.5),
                          (1, "maps/x/tiny.map", 4, 3, 1, 1, 0, 2, 1.41421)])
    level = load(path)
    np.testing.assert_array_equal(level.scenarios.starts, [[0.5, 0.5], [1.5, 1.5]])
    np.testing.assert_array_equal(level.scenarios.goals, [[3.5, 2.5], [0.5, 2.5]])
    np.testing.assert_array_equal(level.scenarios.lengths, [3.5, 1.41421])
    assert np.all(level.world.clearance(level.scenarios.starts) >= 0.5 - 1e-12)
    assert read_map(path, scenarios=False).scenarios is None


def test_old_space_separated_scenarios_and_an_explicit_path(tmp_path):
    path = write_map(tmp_path)
    scen = write_scen(tmp_path, [(49, "maps/wc3maps/tiny.map", 4, 3, 3, 0, 3, 2, "2.00")],
                      name="other.scen", version="version 1.0", sep=" ")
    level = load(path, scenarios=scen)
    np.testing.assert_array_equal(level.scenarios.starts, [[3.5, 0.5]])


def test_rows_with_blocked_or_outside_endpoints_are_dropped_and_reported(tmp_path):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "tiny.map", 4, 3, 0, 0, 3, 2, 3),
                          (0, "tiny.map", 4, 3, 2, 0, 3, 2, 3),       # start on '@'
                          (0, "tiny.map", 4, 3, 0, 0, 2, 1, 3),       # goal on 'T'
                          (0, "tiny.map", 4, 3, 0, 0, 9, 1, 3),       # goal off the map
                          (0, "tiny.map", 4, 3, 3, 1, 2, 2, 3)])      # goal on 'W'
    level = load(path)
    assert len(level.scenarios.starts) == 1
    assert level.problems == (
        "tiny.map.scen line 3: start (2, 0) is on a blocked cell ('@'); row dropped",
        "tiny.map.scen line 4: goal (2, 1) is on a blocked cell ('T'); row dropped",
        "tiny.map.scen line 5: goal (9, 1) is off the map; row dropped",
        "tiny.map.scen line 6: goal (2, 2) is on a blocked cell ('W'); row dropped")


def test_many_dropped_rows_are_summed_up(tmp_path):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "tiny.map", 4, 3, 2, 0, 0, 0, 1)] * 30)
    level = load(path)
    assert len(level.problems) == 21 and "10 more rows dropped" in level.problems[-1]
    assert level.scenarios.starts.shape == (0, 2)


def test_scenarios_for_another_map_size_are_an_error_naming_the_line(tmp_path):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "tiny.map", 4, 3, 0, 0, 3, 2, 3),
                          (0, "tiny.map", 5, 3, 0, 0, 3, 2, 3)])
    with pytest.raises(LevelError) as info:
        load(path)
    err = info.value
    assert err.file.endswith("tiny.map.scen") and err.place == "line 3"
    assert "5x3 does not match tiny.map (4x3)" in err.message


@pytest.mark.parametrize("row, words", [
    ((0, "tiny.map", 4, 3, 0, 0, 3, 2), "9 fields"),
    ((0, "tiny.map", 4, 3, "a", 0, 3, 2, 1), "whole number"),
    ((0, "tiny.map", 4, 3, 0, 0, 3, 2, "-1"), "optimal length"),
])
def test_a_bad_scenario_row_is_an_error_naming_the_line(tmp_path, row, words):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "tiny.map", 4, 3, 0, 0, 3, 2, 3), row])
    with pytest.raises(LevelError) as info:
        load(path)
    assert info.value.place == "line 3" and words in info.value.message
    assert "tiny.map.scen" in str(info.value)


def test_a_map_cut_mid_row_names_the_line(tmp_path):
    path = write_map(tmp_path)
    path.write_bytes(path.read_bytes()[:-4])                  # "SOW.\n" -> "S"
    with pytest.raises(LevelError) as info:
        load(path)
    assert info.value.place == "line 7" and "4 characters, got 1" in info.value.message
    assert str(path) in str(info.value)


def test_a_map_missing_rows_says_where_it_ends(tmp_path):
    path = write_map(tmp_path, header=["type octile", "height 5", "width 4", "map"])
    with pytest.raises(LevelError) as info:
        load(path)
    assert info.value.place == "line 7" and "5 map rows" in info.value.message


@pytest.mark.parametrize("header, place", [
    (["type octile", "height x", "width 4", "map"], "line 2"),
    (["type octile", "height 3", "width 0", "map"], "line 3"),
    (["type octile", "height 3", "width 4", "mop"], "line 4"),
    (["octile", "height 3", "width 4", "map"], "line 1"),
])
def test_a_bad_header_names_the_line(tmp_path, header, place):
    with pytest.raises(LevelError) as info:
        load(write_map(tmp_path, header=header))
    assert info.value.place == place


def test_unknown_characters_are_blocked_and_reported(tmp_path):
    level = load(write_map(tmp_path, rows=["..#.", "...."]))
    assert level.world.geometry("grid")["blocked"][0].sum() == 1
    assert level.problems == ("1 cells hold characters outside the Moving AI set .GS@OTW "
                              "('#'; first at line 5, column 3) and were read as blocked",)


def test_windows_line_endings_and_trailing_blanks_are_fine(tmp_path):
    level = load(write_map(tmp_path, rows=["..@. ", ".GT.", "SOW."], newline="\r\n",
                           header=["type octile", "height 3", "width 4", "map"]))
    assert level.world.geometry("grid")["blocked"][0].shape == (3, 4)


def test_loading_a_scen_file_alone_says_to_load_the_map(tmp_path):
    scen = write_scen(tmp_path, [(0, "tiny.map", 4, 3, 0, 0, 3, 2, 3)])
    with pytest.raises(LevelError, match="load tiny.map, which reads tiny.map.scen"):
        load(scen)


def test_rows_naming_another_map_file_are_read_and_reported(tmp_path):
    path = write_map(tmp_path)
    write_scen(tmp_path, [(0, "maps/x/arena.map", 4, 3, 0, 0, 3, 2, 3)])
    level = load(path)
    assert len(level.scenarios.starts) == 1
    assert level.problems == ("tiny.map.scen: rows name map arena.map, not tiny.map; read "
                              "against tiny.map",)
    with pytest.raises(TypeError, match="scenarios must be a path"):
        load(path, scenarios=True)
