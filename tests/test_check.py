"""``check``: what a level designer should fix, on hand-made worlds with known faults."""
import json

import numpy as np
import pytest

import sidestep
from sidestep.commands.check import KINDS, Report, check
from sidestep.level import Level, Scenarios


def kinds(report):
    return [f.kind for f in report.findings]


def doorway(width):
    """Two wall stubs ``width`` apart, like the jambs of a door."""
    world = sidestep.World2D()
    world.add_walls([(0, 0), (width, 0)], [(0, -3), (width, -3)])
    return world


def test_a_doorway_narrower_than_the_agent_is_found():
    report = check(doorway(0.5), 0.3)
    assert kinds(report) == ["narrow_gap"]
    gap = report.findings[0]
    assert gap.obstacles == (0, 1) and gap.families == ("wall", "wall")
    assert gap.details["gap"] == pytest.approx(0.5)
    assert gap.position[0] == pytest.approx(0.25) and -3 <= gap.position[1] <= 0
    assert "0.5 apart" in gap.message and "needs 0.6" in gap.message


def test_a_doorway_the_agent_fits_through_is_not_found():
    assert check(doorway(0.5), 0.2).ok
    assert check(doorway(0.5), 0.25).ok       # exactly as wide as the agent: it fits


def test_gap_counts_wall_clearance_and_circle_radius():
    world = sidestep.World2D()
    world.add_walls([(0, 0)], [(10, 0)], clearance=0.5)
    world.add_circles([(5, 2)], 1.0)           # surfaces 0.5 apart
    gap = check(world, 0.3).findings[0]
    assert gap.kind == "narrow_gap" and gap.details["gap"] == pytest.approx(0.5)
    assert gap.position == pytest.approx((5.0, 0.75))


def test_a_duplicate_circle_is_one_finding_not_also_an_overlap():
    world = sidestep.World2D()
    world.add_circles([(0, 0), (5, 5), (0, 0)], 1.0)
    report = check(world, 0.3)
    assert kinds(report) == ["duplicate"]
    assert report.findings[0].obstacles == (0, 2)


def test_duplicates_ignore_the_way_an_obstacle_was_drawn():
    world = sidestep.World2D()
    world.add_walls([(0, 0), (4, 1)], [(4, 1), (0, 0)])                   # reversed wall
    square = np.array([(10, 0), (12, 0), (12, 2), (10, 2)], float)
    world.add_polygon(square)
    world.add_polygon(np.roll(square, 2, axis=0)[::-1])                  # other corner, winding
    report = check(world, 0.1)
    assert kinds(report) == ["duplicate", "duplicate"]
    assert [f.obstacles for f in report.findings] == [(0, 1), (2, 3)]


def test_a_spawn_inside_a_box_is_found():
    world = sidestep.World2D()
    world.add_boxes([(0, 0)], [(2, 2)])
    level = Level(world, np.array([[1.0, 1.0], [5.0, 5.0], [2.2, 1.0]]), name="crates")
    report = check(level, 0.3)
    assert kinds(report) == ["blocked_spawn", "blocked_spawn"]
    inside, near = report.findings
    assert inside.details == {"point": "spawn", "index": 0, "clearance": -1.0, "outside": False}
    assert "inside box 0" in inside.message
    assert near.details["index"] == 2 and near.details["clearance"] == pytest.approx(0.2)
    assert check(level, 0.1).findings[0].details["index"] == 0      # 0.2 of room fits 0.1


def test_scenario_ends_where_the_agent_does_not_fit_are_found():
    world = sidestep.World2D()
    world.add_circles([(0, 0)], 1.0)
    scenarios = Scenarios(np.array([[0.5, 0.0], [3.0, 0.0]]), np.array([[3.0, 3.0], [0.0, 1.2]]))
    report = check(Level(world, np.zeros((0, 2)), scenarios), 0.3)
    assert [(f.details["point"], f.details["index"]) for f in report.findings] == \
        [("start", 0), ("goal", 1)]


def test_degenerate_obstacles():
    world = sidestep.World2D()
    world.add_circles([(0, 0)], 0.0)
    world.add_walls([(5, 0)], [(5 + 1e-12, 0)])
    world.add_boxes([(10, 0)], [(10 + 1e-12, 3)])
    world.add_polygon([(20, 0), (21, 1e-13), (22, 0)])       # a sliver along x
    world.add_grid(np.zeros((3, 3), bool), 1.0, (30, 0))
    report = check(world, 0.1)
    degenerate = [f for f in report.findings if f.kind == "degenerate"]
    assert [f.obstacles for f in degenerate] == [(0,), (1,), (2,), (3,), (4,)]
    assert [f.families[0] for f in degenerate] == ["circle", "wall", "box", "polygon", "grid"]


@pytest.mark.parametrize("second, overlapping", [
    ([(1, 1)], True),              # corners cross
    ([(2, 0)], False),             # sharing an edge: touching crates
    ([(2.5, 0)], False),           # apart, and far enough for the agent
])
def test_boxes_overlap_only_when_they_cross(second, overlapping):
    world = sidestep.World2D()
    world.add_boxes([(0, 0)], [(2, 2)])
    world.add_boxes(second, [(second[0][0] + 2, second[0][1] + 2)])
    assert kinds(check(world, 0.2)) == (["overlap"] if overlapping else [])


def test_obstacles_inside_a_solid_one_overlap():
    world = sidestep.World2D()
    world.add_boxes([(0, 0)], [(10, 10)])
    world.add_circles([(5, 5)], 1.0)               # a tree inside a crate
    world.add_boxes([(2, 2)], [(3, 3)])            # a crate inside a crate
    world.add_polygon([(20, 0), (30, 0), (25, 10)])
    world.add_walls([(24, 2)], [(26, 2)])          # a wall inside a rock
    report = check(world, 0.1)
    pairs = sorted(f.obstacles for f in report.findings if f.kind == "overlap")
    assert pairs == [(0, 1), (0, 2), (3, 4)]
    assert any("circle 1 lies inside box 0" in f.message for f in report.findings)


def test_walls_joined_at_corners_and_t_junctions_are_fine_but_crossing_walls_overlap():
    world = sidestep.World2D()
    world.add_walls([(0, 0), (5, 0), (2, 0)], [(5, 0), (5, 5), (2, 3)], clearance=0.3)
    assert check(world, 0.2).ok                    # an L and a T, thick walls merging
    world.add_walls([(0, 2)], [(4, 2)])            # through the T's stem
    report = check(world, 0.2)
    assert kinds(report) == ["overlap"] and "cross" in report.findings[0].message


def test_overlapping_circles_give_the_depth():
    world = sidestep.World2D()
    world.add_circles([(0, 0), (1.5, 0)], 1.0)
    finding, = check(world, 0.0).findings
    assert finding.kind == "overlap" and finding.details["separation"] == pytest.approx(-0.5)


def test_a_one_cell_corridor_of_a_grid_narrower_than_the_agent():
    blocked = np.zeros((6, 5), bool)
    blocked[:, 0] = blocked[:, 2] = True           # a corridor one cell wide between them
    world = sidestep.World2D()
    world.add_grid(blocked, 0.5, (0, 0))
    report = check(world, 0.3)
    assert kinds(report) == ["narrow_gap"]
    finding = report.findings[0]
    assert finding.obstacles == (0, 0) and finding.details["gap"] == pytest.approx(0.5)
    assert finding.position == pytest.approx((0.75, 1.5))
    assert check(world, 0.2).ok
    # The two sides of one blocked column are 0.5 apart too, but across the
    # blocked cells: not a passage.
    column = sidestep.World2D()
    column.add_grid(np.ones((6, 1), bool), 0.5)
    assert check(column, 0.3).ok


def test_report_as_json_and_text():
    world = doorway(0.5)
    world.add_circles([(10, 10), (10, 10)], 1.0)
    report = check(Level(world, np.array([[0.25, -1.0]]), name="door"), 0.3)
    data = json.loads(json.dumps(report.as_dict()))
    assert data["level"] == "door" and data["radius"] == 0.3 and data["obstacles"] == 4
    assert data["ok"] is False and set(data["counts"]) == set(KINDS)
    assert data["counts"]["narrow_gap"] == 1 and data["counts"]["duplicate"] == 1
    for finding in data["findings"]:
        assert {"kind", "obstacles", "families", "position", "message"} <= set(finding)
    text = report.format(limit=1).splitlines()
    assert text[0].startswith("door: 4 obstacles") and text[-1].startswith("3 problems")


def test_text_report_is_capped_per_kind():
    world = sidestep.World2D()
    world.add_circles(np.array([(x, 0.0) for x in range(30)] * 2), 0.2)
    text = check(world, 0.1).format(limit=5)
    assert "... and 25 more" in text


def test_an_empty_world_is_fine_and_bad_radius_is_refused():
    assert check(sidestep.World2D(), 1.0).ok
    with pytest.raises(ValueError, match="radius"):
        check(sidestep.World2D(), -1.0)
    assert Report("x", 0.0, 0, ()).ok


def test_progress_is_reported_while_checking_containment():
    world = sidestep.World2D()
    world.add_boxes([(0, 0), (5, 5)], [(1, 1), (6, 6)])
    seen = []
    check(world, 0.1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2, 2)
