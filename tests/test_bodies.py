"""Rigid bodies in a World2D: obstacles that move and turn as one (``add_body``, ``set_pose``).

The promise: a world with a body at any pose answers every query as a world
built from the moved coordinates does (to rounding), and moving a body never
rebuilds the broadphase of what does not move.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sidestep
from sidestep.volumes import Box, Sphere


def _turn(points, angle, position):
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(points, dtype=float) @ np.array([[c, s], [-s, c]]) + position


def _parts(rng):
    """A body's parts in its own frame: (circles, walls, boxes, polygon)."""
    return dict(circles=(rng.uniform(-2, 2, (2, 2)), rng.uniform(0.2, 0.6, 2)),
                walls=(rng.uniform(-2, 2, (2, 2)), rng.uniform(-2, 2, (2, 2)) + 0.3, 0.1),
                boxes=(np.array([[-0.5, -0.3]]), np.array([[0.7, 0.4]])),
                polygon=np.array([[0.0, 0.0], [1.5, 0.2], [0.4, 1.1], [0.2, 0.5]]) + 1.0)


def _add(world, parts, angle=0.0, position=(0.0, 0.0)):
    """Add ``parts`` moved to a pose (boxes as polygons when turned); returns their ids."""
    move = lambda p: _turn(p, angle, position)  # noqa: E731
    ids = list(world.add_circles(move(parts["circles"][0]), parts["circles"][1]))
    ids += list(world.add_walls(move(parts["walls"][0]), move(parts["walls"][1]),
                                parts["walls"][2]))
    lo, hi = parts["boxes"]
    if angle == 0.0:
        ids += list(world.add_boxes(lo + position, hi + position))
    else:
        ids.append(world.add_polygon(move([lo[0], (hi[0, 0], lo[0, 1]), hi[0],
                                           (lo[0, 0], hi[0, 1])])))
    ids.append(world.add_polygon(move(parts["polygon"])))
    return np.array(ids)


def _scenes(seed, angle, position):
    rng = np.random.default_rng(seed)
    parts = _parts(rng)
    world = sidestep.World2D()
    world.add_walls([(-9.0, -9.0)], [(9.0, -9.0)])        # something that never moves
    world.add_circles([(6.0, 6.0)], 0.5)
    body = world.add_body(_add(world, parts))
    world.set_pose(body, position, angle)
    reference = sidestep.World2D()
    reference.add_walls([(-9.0, -9.0)], [(9.0, -9.0)])
    reference.add_circles([(6.0, 6.0)], 0.5)
    _add(reference, parts, angle, np.asarray(position))
    return world, reference, rng


close = {"rtol": 0.0, "atol": 1e-9}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(-math.pi, math.pi),
       st.tuples(st.floats(-6, 6), st.floats(-6, 6)))
def test_body_at_any_pose_answers_as_the_moved_world(seed, angle, position):
    world, reference, rng = _scenes(seed, angle, position)
    p = rng.uniform(-9, 9, (96, 2))
    d = rng.uniform(-5, 5, (96, 2))
    np.testing.assert_allclose(world.move_many(p, d, 0.3), reference.move_many(p, d, 0.3),
                               **close)
    np.testing.assert_allclose(world.clearance(p), reference.clearance(p), **close)
    np.testing.assert_allclose(world.raycast(p, d).distance, reference.raycast(p, d).distance,
                               **close)
    for k in range(6):
        assert np.array_equal(world.overlapping(p[k], 1.5), reference.overlapping(p[k], 1.5))
        for volume in (Box(p[k] - 1.0, p[k] + 1.0), Sphere(p[k], 1.2)):
            got, ref = world.query(volume), reference.query(volume)
            assert np.array_equal(got.obstacle, ref.obstacle)
            assert np.array_equal(got.state, ref.state)


def test_grid_in_a_turned_body_answers_as_its_cells_turned():
    table = np.array([[1, 1, 0], [0, 1, 1]], dtype=bool)
    world = sidestep.World2D()
    grid = world.add_grid(table, cell_size=1.0, origin=(-1.5, -1.0))
    body = world.add_body(grid)
    angle, at = 0.6, np.array([2.0, -1.0])
    world.set_pose(body, at, angle)
    reference = sidestep.World2D()
    for r, c in zip(*np.nonzero(table)):
        square = np.array([(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]) + (-1.5, -1.0)
        reference.add_polygon(_turn(square, angle, at))
    rng = np.random.default_rng(3)
    p = rng.uniform(-4, 6, (400, 2))
    outside = reference.clearance(p) > 1e-6
    np.testing.assert_allclose(world.clearance(p[outside]), reference.clearance(p[outside]),
                               **close)
    inside = reference.clearance(p) < -1e-6
    assert np.all(world.clearance(p[inside]) < 0.0)
    np.testing.assert_allclose(world.move_many(p[outside], p[outside] * -0.5, 0.2),
                               reference.move_many(p[outside], p[outside] * -0.5, 0.2), **close)


def test_set_poses_batch_equals_single():
    rng = np.random.default_rng(7)
    worlds = [sidestep.World2D(), sidestep.World2D()]
    for w in worlds:
        for k in range(20):
            w.add_body(w.add_walls([(-1.2, 0.0)], [(1.2, 0.0)], 0.05))
    positions = rng.uniform(-20, 20, (20, 2))
    angles = rng.uniform(-3, 3, 20)
    worlds[0].set_poses(np.arange(20), positions, angles)
    for k in range(20):
        worlds[1].set_pose(k, positions[k], angles[k])
    p = rng.uniform(-22, 22, (300, 2))
    assert np.array_equal(worlds[0].clearance(p), worlds[1].clearance(p))
    assert np.array_equal(worlds[0].segments()[0], worlds[1].segments()[0])


def test_pose_and_velocity_round_trip():
    world = sidestep.World2D()
    door = world.add_body(world.add_boxes([(0.0, -0.1)], [(2.0, 0.1)]))
    position, angle = world.pose(door)
    assert position.tolist() == [0.0, 0.0] and angle == 0.0
    assert world.velocity(door)[0].tolist() == [0.0, 0.0] and world.velocity(door)[1] == 0.0
    world.set_pose(door, (1.0, 2.0), 0.5, dt=0.5)
    position, angle = world.pose(door)
    assert position.tolist() == [1.0, 2.0] and angle == pytest.approx(0.5)
    linear, angular = world.velocity(door)
    assert linear.tolist() == [2.0, 4.0] and angular == pytest.approx(1.0)
    world.set_pose(door, (1.0, 2.0), 0.5 - 0.1, dt=0.1)   # swinging back
    assert world.velocity(door)[1] == pytest.approx(-1.0)


def test_poses_come_from_the_body_frame_without_drift():
    world = sidestep.World2D()
    blade = world.add_body(world.add_walls([(0.0, 0.0)], [(3.0, 0.0)], 0.1))
    for k in range(1, 10_001):
        world.set_pose(blade, (5.0, 5.0), 0.5 * k)
    world.set_pose(blade, (5.0, 5.0), 0.0)
    ends = world.segments()[0][0]
    assert ends[:4].tolist() == [5.0, 5.0, 8.0, 5.0]


def test_bodies_that_spread_out_outgrow_their_grid_and_stay_right():
    world = sidestep.World2D()
    bodies = [world.add_body(world.add_circles([(0.0, 0.0)], 0.5)) for _ in range(50)]
    world.clearance((0.0, 0.0))                          # packed with the bodies together
    rng = np.random.default_rng(1)
    where = rng.uniform(-500, 500, (50, 2))
    world.set_poses(bodies, where, np.zeros(50))
    p = where + rng.uniform(-2, 2, (50, 2))
    expected = np.min(np.linalg.norm(p[:, None] - where[None], axis=2), axis=1) - 0.5
    np.testing.assert_allclose(world.clearance(p), expected, **close)


def test_removed_body_member_is_gone_and_the_rest_still_moves():
    world = sidestep.World2D()
    a, b = world.add_circles([(0.0, 0.0), (2.0, 0.0)], 0.5)
    body = world.add_body([a, b])
    world.remove(a)
    world.set_pose(body, (10.0, 0.0), 0.0)
    assert world.overlapping((10.0, 0.0), 0.1).tolist() == []
    assert world.overlapping((12.0, 0.0), 0.1).tolist() == [b]


def test_a_box_in_a_body_turns_and_its_geometry_follows():
    world = sidestep.World2D()
    box = world.add_boxes([(-1.0, -1.0)], [(1.0, 1.0)])
    body = world.add_body(box)
    world.set_pose(body, (0.0, 0.0), math.pi / 4)
    corner = math.sqrt(2.0)
    assert world.clearance((corner - 1e-3, 0.0)) < 0.0       # the corner now points along x
    assert world.clearance((1.1, 1.1)) == pytest.approx(math.hypot(1.1, 1.1) - 1.0)


# -------------------------------------------------------------- bad input


def test_bad_body_input_is_refused_and_nothing_changes():
    world = sidestep.World2D()
    ids = world.add_circles([(0.0, 0.0), (3.0, 0.0)], 0.5)
    edge = world.add_walls([(-5.0, -5.0)], [(5.0, -5.0)], one_sided=True)
    body = world.add_body(ids[0])
    with pytest.raises(ValueError, match="already in body"):
        world.add_body(ids)
    with pytest.raises(ValueError, match="one-sided"):
        world.add_body(edge)
    with pytest.raises(KeyError):
        world.add_body(99)
    with pytest.raises(ValueError, match="at least one"):
        world.add_body([])
    with pytest.raises(KeyError, match="body"):
        world.set_pose(5, (0.0, 0.0))
    with pytest.raises(ValueError, match="positions"):
        world.set_pose(body, (np.nan, 0.0))
    with pytest.raises(ValueError, match="angles"):
        world.set_pose(body, (1.0, 0.0), math.inf)
    with pytest.raises(ValueError, match="dt"):
        world.set_pose(body, (1.0, 0.0), 0.0, dt=0.0)
    with pytest.raises(ValueError, match="positions"):
        world.set_poses([body], [(1.0, 0.0), (2.0, 0.0)])
    assert world.pose(body)[0].tolist() == [0.0, 0.0]
    assert world.overlapping((0.0, 0.0)).tolist() == [int(ids[0])]
    world.add_body(ids[1])                               # still free for a body of its own


@pytest.mark.parametrize("bodies, positions, error, match", [
    ([0, 3], "not numbers", KeyError, "no body with id 3"),          # a bad body first
    ([0, -1], [(0.0, 0.0)], KeyError, "no body with id -1"),
    ([1, 1], [(0.0, np.nan)] * 2, ValueError, "twice"),               # then a repeat
    ([1, 1], [(0.0, 0.0)], ValueError, "twice"),
    ([0, 1], "not numbers", TypeError, "positions"),                  # then the positions
    ([0, 1], [(0.0, 0.0)], ValueError, "positions must hold one"),
    ([0, 1], [(0.0, 0.0), (np.inf, 0.0)], ValueError, "positions must be finite"),
    ([0, 1], [(0.0, 0.0), (0.0, 2e12)], ValueError, "positions must be finite"),
])
def test_set_poses_tells_its_first_fault_and_moves_nothing(bodies, positions, error, match):
    world = sidestep.World2D()
    for k in range(2):
        world.add_body(world.add_circles([(3.0 * k, 0.0)], 0.5))
    world.set_poses([0, 1], [(1.0, 1.0), (4.0, 1.0)], [0.5, 0.25])
    with pytest.raises(error, match=match):
        world.set_poses(bodies, positions, 0.0)
    assert world.pose(0)[0].tolist() == [1.0, 1.0] and world.pose(1)[1] == 0.25
    world.set_poses([1, 0], [(5.0, 1.0), (2.0, 1.0)])       # the marks were cleared
    assert world.pose(0)[0].tolist() == [2.0, 1.0]
