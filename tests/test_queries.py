"""Named cases per family for every query: a hit, a miss, touching, inside, zero radius.

Each family gets one obstacle whose surface crosses the x axis at x = -1 and
whose inside holds the origin, so the same questions have known answers.
"""
import math

import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE, SKIN


def circle(w):
    return int(w.add_circles([(0.0, 0.0)], 1.0)[0])


def wall(w):
    return int(w.add_walls([(-0.5, 0.0)], [(0.5, 0.0)], 0.5)[0])


def box(w):
    return int(w.add_boxes([(-1.0, -1.0)], [(1.0, 1.0)])[0])


def polygon(w):
    return w.add_polygon([(-1.0, 0.0), (0.0, -1.0), (1.0, 0.0), (0.0, 1.0)])


def grid(w):
    return w.add_grid(np.ones((2, 2), bool), 1.0, (-1.0, -1.0))


# Signed clearance at the origin for each shape (negative: inside).
DEPTH = {circle: -1.0, wall: -0.5, box: -1.0, polygon: -math.sqrt(0.5), grid: -1.0}


@pytest.fixture(params=list(DEPTH), ids=lambda f: f.__name__)
def shape(request):
    world = sidestep.World2D()
    return world, request.param(world), request.param


def test_clearance_miss_touching_inside(shape):
    world, oid, make = shape
    assert world.clearance((-3.0, 0.0)) == pytest.approx(2.0)
    assert world.clearance((-1.0, 0.0)) == pytest.approx(0.0, abs=1e-12)
    assert world.clearance((0.0, 0.0)) == pytest.approx(DEPTH[make])


def test_nearest_reports_the_obstacle_point_and_normal(shape):
    world, oid, _ = shape
    near = world.nearest([(-3.0, 0.0)])
    assert near.obstacle[0] == oid
    assert near.point[0] == pytest.approx((-1.0, 0.0))
    assert near.normal[0] == pytest.approx((-1.0, 0.0))


def test_raycast_hit_miss_and_inside(shape):
    world, oid, _ = shape
    hits = world.raycast([(-5.0, 0.0), (-5.0, 3.0), (0.0, 0.0), (-5.0, 0.0)],
                         [(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (2.0, 0.0)], [10.0, 10.0, 10.0, 3.0])
    assert hits.hit.tolist() == [True, False, True, False]
    assert hits.distance[0] == pytest.approx(4.0) and hits.obstacle[0] == oid
    # A unit normal facing the ray (at the diamond's corner either edge's normal will do).
    assert np.hypot(*hits.normal[0]) == pytest.approx(1.0) and hits.normal[0][0] < 0.0
    assert hits.point[0] == pytest.approx((-1.0, 0.0))
    assert hits.obstacle[1] == -1 and hits.distance[1] == np.inf
    assert hits.distance[2] == 0.0                      # starts inside: blocked at once
    assert hits.distance[3] == np.inf                   # stops short of the surface


def test_overlapping_miss_touching_and_point_inside(shape):
    world, oid, _ = shape
    assert world.overlapping((-3.0, 0.0), 1.9).tolist() == []
    assert world.overlapping((-3.0, 0.0), 2.0).tolist() == [oid]
    assert world.overlapping((0.0, 0.0)).tolist() == [oid]
    assert world.overlapping((-1.5, 0.0), 0.0).tolist() == []


@pytest.mark.parametrize("radius", [0.0, 0.5])
def test_slide_into_it_stops_at_the_surface(shape, radius):
    world, oid, _ = shape
    m = world.move((-5.0, 0.0), (10.0, 0.0), radius=radius)
    assert -1.0 - radius - 1.5 * SKIN <= m.position[0] <= -1.0 - radius
    assert m.contacts[0].obstacle == oid and m.stop == "blocked"


def test_zero_displacement_next_to_it_is_done(shape):
    world, _, _ = shape
    m = world.move((-2.0, 0.0), (0.0, 0.0), radius=0.5)
    assert m.stop == "done" and not m.hit


def test_push_out_of_it(shape):
    world, oid, _ = shape
    m = world.move((-3.0, 0.0), (1.8, 0.0), radius=0.5, mode="push")
    assert m.position == pytest.approx((-1.5, 0.0)) and m.contacts[0].obstacle == oid


def test_block_refuses_a_step_into_it(shape):
    world, _, _ = shape
    m = world.move((-3.0, 0.0), (2.2, 0.0), radius=0.5, mode="block")
    assert tuple(m.position) == (-3.0, 0.0) and m.stop == "blocked"


def test_recovers_from_inside_it(shape):
    world, _, _ = shape
    m = world.move((0.1, 0.05), (0.0, 0.0), radius=0.25)
    assert m.recovered and world.clearance(m.position) >= 0.25 - PROMISE


# One point (or ray, or agent) given as (2,) arrays gets that answer alone, from
# every batch call alike; a (1, 2) array keeps the batch shape.
def test_batch_calls_answer_one_point_alone(shape):
    world, oid, _ = shape
    assert isinstance(world.clearance((-3.0, 0.0)), float)
    near = world.nearest((-3.0, 0.0))
    assert near.obstacle == oid and isinstance(near.obstacle, int)
    assert near.distance == pytest.approx(2.0) and isinstance(near.distance, float)
    assert near.point.shape == (2,) and near.normal.shape == (2,)
    hit = world.raycast((-5.0, 0.0), (1.0, 0.0))
    assert hit.hit is True and hit.obstacle == oid and hit.distance == pytest.approx(4.0)
    assert hit.point.shape == (2,) and hit.normal.shape == (2,)
    miss = world.raycast((-5.0, 0.0), (-1.0, 0.0))
    assert miss.hit is False and miss.obstacle == -1 and miss.distance == math.inf
    end = world.move_many((-3.0, 0.0), (1.0, 0.0), radius=0.5)
    assert end.shape == (2,)
    np.testing.assert_array_equal(end, world.move((-3.0, 0.0), (1.0, 0.0), radius=0.5).position)


def test_batch_calls_keep_the_batch_shape_for_one_row(shape):
    world, oid, _ = shape
    assert world.clearance([(-3.0, 0.0)]).shape == (1,)
    near = world.nearest([(-3.0, 0.0)])
    assert near.obstacle.shape == (1,) and near.point.shape == (1, 2)
    hits = world.raycast([(-5.0, 0.0)], [(1.0, 0.0)])
    assert hits.hit.shape == (1,) and hits.point.shape == (1, 2)
    assert world.move_many([(-3.0, 0.0)], [(1.0, 0.0)]).shape == (1, 2)


def test_batch_calls_refuse_one_row_against_a_batch():
    world = sidestep.World2D()
    with pytest.raises(ValueError, match="positions and displacements"):
        world.move_many((0.0, 0.0), [(1.0, 0.0)])
    with pytest.raises(ValueError, match="origins and directions"):
        world.raycast((0.0, 0.0), [(1.0, 0.0)])


def test_a_point_on_a_wall_just_below_a_row_border_overlaps_it():
    # The broadphase picks a point's row by a quotient and each row's band by products:
    # a point just below a row's border, on a wall, read no cell and overlapped nothing.
    from sidestep.kernels.world import unpack_world

    rng = np.random.default_rng(0)
    world = sidestep.World2D()
    start = rng.uniform(-50, 50, (30, 2))
    world.add_walls(start, start + rng.uniform(-5, 5, (30, 2)))
    diagonal = int(world.add_walls([(-60.0, -60.0)], [(60.0, 60.0)])[0])
    cells = unpack_world(world._store.pack(), world._store.live(sidestep.layers.ALL)).items
    borders = [np.nextafter(cells.origin_y + j * cells.cell_size, -np.inf)
               for j in range(cells.ny + 1)]
    on_wall = [y for y in borders if abs(y) < 59.0]
    assert len(on_wall) >= 5
    for y in on_wall:
        assert diagonal in world.overlapping((y, y), 0.0), y
