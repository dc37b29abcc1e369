"""World2D.cast and cast_many: the first contact of a swept disc, no slide.

Named scenes with answers worked out by hand, a property against an
independent reference (sphere tracing on the brute-force distance field of
``oracle.py``), the batch equal to the single call bit for bit on any number
of threads, and bad input.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
import sidestep
from sidestep import threads
from sidestep.kernels.cast import BACK_OFF
from sidestep.tolerances import SKIN

#: How far a cast stops before the exact contact, along the motion (world units).
BACK = BACK_OFF * SKIN


def assert_miss(hit):
    assert hit.hit is False and hit.fraction == 1.0 and hit.obstacle == -1
    assert np.isnan(hit.point).all() and hit.normal.tolist() == [0.0, 0.0]
    assert hit.part is None


def assert_stops_before(hit, exact, length):
    # The stop lies a quarter skin before the exact time of impact, along the motion.
    assert hit.fraction <= exact
    assert hit.fraction == pytest.approx(exact - BACK / length, abs=1e-15)


# ================================================================ named scenes
def test_cast_hits_circle_head_on():
    # Rims meet when the centre is at x = 5 - 1 - 0.5 = 3.5: fraction 3.5 / 10.
    world = sidestep.World2D()
    tree = int(world.add_circles([(5.0, 0.0)], 1.0)[0])
    hit = world.cast((0.0, 0.0), (10.0, 0.0), radius=0.5)
    assert hit.hit is True and hit.obstacle == tree
    assert_stops_before(hit, 0.35, 10.0)
    assert hit.point.tolist() == [4.0, 0.0]
    assert hit.normal.tolist() == [-1.0, 0.0]
    assert world.clearance((10.0 * hit.fraction, 0.0)) - 0.5 == pytest.approx(BACK, rel=1e-6)


def test_cast_misses_returns_fraction_one():
    world = sidestep.World2D()
    world.add_circles([(5.0, 0.0)], 1.0)
    assert_miss(world.cast((0.0, 3.0), (10.0, 0.0), radius=0.5))
    assert_miss(world.cast((0.0, 0.0), (2.0, 0.0), radius=0.5))       # stops short of it
    assert_miss(world.cast((0.0, 0.0), (-10.0, 0.0), radius=0.5))     # moves away
    assert_miss(sidestep.World2D().cast((0.0, 0.0), (1.0, 1.0), radius=1.0))   # empty world


def test_cast_starting_inside_box_is_fraction_zero():
    # Centre inside: the deepest way out is the nearest side (x = 1, 0.8 away).
    world = sidestep.World2D()
    box = int(world.add_boxes([(-1.0, -1.0)], [(1.0, 1.0)])[0])
    for d in [(5.0, 0.0), (-5.0, 0.0), (0.0, 0.0)]:
        hit = world.cast((0.2, 0.0), d, radius=0.3)
        assert (hit.hit, hit.fraction, hit.obstacle) == (True, 0.0, box)
        assert hit.point.tolist() == [1.0, 0.0] and hit.normal.tolist() == [1.0, 0.0]
    # Centre outside, rim over the side: the outline's separation decides.
    hit = world.cast((1.2, 0.0), (5.0, 0.0), radius=0.3)
    assert (hit.fraction, hit.obstacle) == (0.0, box)
    assert hit.point.tolist() == pytest.approx([1.0, 0.0]) and \
        hit.normal.tolist() == pytest.approx([1.0, 0.0])
    # Exactly touching counts as a start contact too, whichever way it moves.
    assert world.cast((1.25, 0.0), (5.0, 0.0), radius=0.25).fraction == 0.0


def test_cast_grazes_wall_end():
    # A wall standing on the x axis, its top end at the origin; a disc of
    # radius 0.5 moving along y = c passes over that end.
    world = sidestep.World2D()
    wall = int(world.add_walls([(0.0, -5.0)], [(0.0, 0.0)])[0])
    # y = 0.5: the rim touches the end exactly at x = 0, tangent (a contact).
    hit = world.cast((-3.0, 0.5), (6.0, 0.0), radius=0.5)
    assert hit.hit and hit.obstacle == wall
    assert_stops_before(hit, 0.5, 6.0)
    assert hit.point.tolist() == [0.0, 0.0] and hit.normal.tolist() == [0.0, 1.0]
    # A hair higher: a miss; a hair lower: met on the round end, a little earlier.
    assert_miss(world.cast((-3.0, 0.5 + 1e-9), (6.0, 0.0), radius=0.5))
    low = world.cast((-3.0, 0.5 - 1e-4), (6.0, 0.0), radius=0.5)
    x = -math.sqrt(0.25 - (0.5 - 1e-4) ** 2)
    assert low.hit and low.fraction == pytest.approx((x + 3.0 - BACK) / 6.0, abs=1e-12)
    stop = (-3.0 + 6.0 * low.fraction, 0.5 - 1e-4)
    assert world.clearance(stop) >= 0.5 - 1e-9
    assert low.normal[1] > 0.99 and low.normal[0] < 0.0


def test_cast_through_polygon_notch():
    # A U: the notch x in [1, 2], y in [1, 3], open at the top.
    world = sidestep.World2D()
    u = world.add_polygon([(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)])
    # 0.8 wide, it goes down the notch to its floor (centre at y = 1.4).
    hit = world.cast((1.5, 5.0), (0.0, -5.0), radius=0.4)
    assert hit.obstacle == u
    assert_stops_before(hit, 3.6 / 5.0, 5.0)
    assert hit.point.tolist() == pytest.approx([1.5, 1.0]) and \
        hit.normal.tolist() == pytest.approx([0.0, 1.0])
    # 1.2 wide, it stops on the notch's two top corners: |(0.5, y - 3)| = 0.6.
    wide = world.cast((1.5, 5.0), (0.0, -5.0), radius=0.6)
    assert wide.obstacle == u
    assert_stops_before(wide, (2.0 - math.sqrt(0.11)) / 5.0, 5.0)
    assert abs(wide.point[0] - 1.5) == pytest.approx(0.5)
    # Along the notch from side to side at y = 2, it meets the notch's right wall.
    side = world.cast((1.2, 2.0), (5.0, 0.0), radius=0.1)
    assert_stops_before(side, 0.7 / 5.0, 5.0)
    assert side.normal.tolist() == pytest.approx([-1.0, 0.0])


def test_cast_zero_displacement():
    world = sidestep.World2D()
    tree = int(world.add_circles([(0.0, 0.0)], 1.0)[0])
    assert_miss(world.cast((3.0, 0.0), (0.0, 0.0), radius=0.5))
    hit = world.cast((1.2, 0.0), (0.0, 0.0), radius=0.5)
    assert (hit.hit, hit.fraction, hit.obstacle) == (True, 0.0, tree)
    assert hit.point.tolist() == [1.0, 0.0] and hit.normal.tolist() == [1.0, 0.0]


def test_cast_into_grid_stops_at_its_outline_and_passes_its_corridor():
    # A 3 x 3 block of tiles at the origin, cell 1, with its middle row free.
    world = sidestep.World2D()
    table = np.ones((3, 3), bool)
    table[1, :] = False
    tiles = world.add_grid(table, 1.0, (0.0, 0.0))
    hit = world.cast((-5.0, 0.5), (10.0, 0.0), radius=0.25)      # into the bottom row
    assert hit.obstacle == tiles
    assert_stops_before(hit, 4.75 / 10.0, 10.0)
    assert hit.normal.tolist() == pytest.approx([-1.0, 0.0])
    assert_miss(world.cast((-5.0, 1.5), (10.0, 0.0), radius=0.4))  # down the corridor
    wide = world.cast((-5.0, 1.5), (10.0, 0.0), radius=0.6)        # too wide for it
    assert_stops_before(wide, 5.0 / 10.0 - math.sqrt(0.36 - 0.25) / 10.0, 10.0)
    inside = world.cast((0.5, 0.4), (10.0, 0.0), radius=0.1)       # starts in a tile
    assert (inside.fraction, inside.obstacle) == (0.0, tiles)
    assert inside.normal.tolist() == [0.0, -1.0] and inside.point.tolist() == [0.5, 0.0]


def test_cast_meets_the_level_edge_from_inside_and_leaves_a_disc_behind_it_the_way_back():
    # A square room of one-sided walls, counter-clockwise: walkable inside.
    world = sidestep.World2D()
    corners = np.array([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])
    ids = world.add_walls(corners, np.roll(corners, -1, axis=0), one_sided=True)
    hit = world.cast((2.0, 2.0), (5.0, 0.0), radius=0.5)           # the right wall
    assert hit.obstacle == ids[1]
    assert_stops_before(hit, 1.5 / 5.0, 5.0)
    assert hit.normal.tolist() == pytest.approx([-1.0, 0.0])
    # A disc whose centre lies behind the bottom wall (in the void), rim over
    # it: stopped at once, the way out pointing back into the room.
    back = world.cast((2.0, -0.2), (0.0, 5.0), radius=0.5)
    assert (back.fraction, back.obstacle) == (0.0, ids[0])
    assert back.normal.tolist() == pytest.approx([0.0, 1.0])
    assert back.point.tolist() == pytest.approx([2.0, 0.0])
    # Far behind it, the wall is a capsule no disc crosses: met from behind.
    far = world.cast((2.0, -3.0), (0.0, 5.0), radius=0.5)
    assert far.obstacle == ids[0]
    assert_stops_before(far, 2.5 / 5.0, 5.0)
    assert far.normal.tolist() == pytest.approx([0.0, -1.0])


def test_cast_is_never_inside_its_stop_and_a_cast_from_there_starts_clear():
    world = sidestep.World2D()
    world.add_circles([(5.0, 0.3)], 1.0)
    hit = world.cast((0.0, 0.0), (10.0, 0.0), radius=0.5)
    stop = np.array([10.0 * hit.fraction, 0.0])
    assert 0.0 < world.clearance(stop) - 0.5 <= BACK
    again = world.cast(stop, (10.0, 0.0), radius=0.5)
    assert again.hit and 0.0 <= again.fraction * 10.0 <= BACK


def test_long_cast_stops_at_the_first_of_many_walls_and_from_far_outside():
    # 200 thin walls 5 apart across x; a 1,000-unit cast stops at the first
    # one (walked a stretch at a time), as does one starting far outside the
    # world's box.
    world = sidestep.World2D()
    xs = 5.0 * np.arange(1, 201)
    world.add_walls(np.column_stack([xs, np.full(200, -1.0)]),
                    np.column_stack([xs, np.full(200, 1.0)]))
    hit = world.cast((2.0, 0.0), (1000.0, 0.0), radius=0.25)
    assert hit.obstacle == 0
    assert_stops_before(hit, 2.75 / 1000.0, 1000.0)
    back = world.cast((1e6, 0.5), (-2e6, 0.0), radius=0.25)
    assert back.obstacle == 199
    assert_stops_before(back, (1e6 - 1000.25) / 2e6, 2e6)
    assert_miss(world.cast((1e6, 5.0), (-2e6, 0.0), radius=0.25))


def test_cast_starting_touching_a_tree_behind_it_stops_at_once_before_one_ahead():
    # No solid area in this world: the walk along the motion itself tells
    # whether anything touches the disc at its start. The tree behind touches
    # the rim exactly (0.5 + 1.0 from its centre), the motion leads away from
    # it towards another tree: stopped at once, by the one behind.
    world = sidestep.World2D()
    behind, ahead = (int(i) for i in world.add_circles([(-1.5, 0.0), (5.0, 0.0)], 1.0))
    hit = world.cast((0.0, 0.0), (10.0, 0.0), radius=0.5)
    assert (hit.fraction, hit.obstacle) == (0.0, behind)
    assert hit.normal.tolist() == [1.0, 0.0] and hit.point.tolist() == [-0.5, 0.0]
    # A hair further from it, the disc starts clear and meets the one ahead.
    clear = world.cast((1e-9, 0.0), (10.0, 0.0), radius=0.5)
    assert clear.obstacle == ahead
    assert_stops_before(clear, (3.5 - 1e-9) / 10.0, 10.0)
    # Touching a wall's side, moving along it: stopped as well.
    wall = int(world.add_walls([(20.0, -0.5)], [(30.0, -0.5)])[0])
    along = world.cast((25.0, 0.0), (3.0, 0.0), radius=0.5)
    assert (along.fraction, along.obstacle) == (0.0, wall)


def test_ray_on_a_cell_border_reads_its_row():
    # Regression (found by the property below): a ray (radius 0) starting at a
    # circle's centre, exactly level with a broadphase row's border. The row
    # is picked by a quotient, (1 - oy) / s = 1 - 1e-16, row 0, but clipped to
    # by a product, oy + s = 1 + 2e-16, above the ray: no cell was read, and
    # the ray inside the circle went the whole way. The cells are now chosen
    # for the disc grown by a micrometre, as items are when they are filed.
    world = sidestep.World2D()
    tree = int(world.add_circles([(0.0, 1.0)], 1.180819351)[0])
    for d in [(0.0, 2.0), (-2.0, 2.0), (2.0, 0.0)]:
        hit = world.cast((0.0, 1.0), d)
        assert (hit.fraction, hit.obstacle) == (0.0, tree)
        assert hit.point.tolist() == [1.180819351, 1.0] and hit.normal.tolist() == [1.0, 0.0]
    along = world.cast((-5.0, 1.0), (10.0, 0.0))
    assert along.obstacle == tree
    assert_stops_before(along, (5.0 - 1.180819351) / 10.0, 10.0)


def test_cast_skips_removed_obstacles():
    world = sidestep.World2D()
    near, far = world.add_circles([(3.0, 0.0), (6.0, 0.0)], 0.5)
    world.remove([near])
    hit = world.cast((0.0, 0.0), (10.0, 0.0), radius=0.5)
    assert hit.obstacle == far
    assert_stops_before(hit, 0.5, 10.0)


# ======================================================== against a reference
def _sphere_trace(world, p, d, r, tol=1e-12, max_steps=4000):
    """Reference distance along ``d`` to the first contact, from the brute-force field.

    Sphere tracing (Hart 1996): step by the disc's clearance, which never
    passes a surface, until it is within ``tol``. Returns the distance
    travelled (0 when the disc starts touching), ``inf`` for a miss within
    ``|d|``, NaN when undecided: a path grazing a surface converges slowly,
    and one that comes within ``tol`` of a surface without going into it (a
    ray along a polygon's edge 1e-190 off it) is a touch only to the
    reference, so a stop is taken only where the path goes in just after.
    """
    length = math.hypot(*d)
    u = np.asarray(d) / length
    s = 0.0
    gap = oracle.clearance(world, [p])[0] - r
    if gap <= 0.0:
        return 0.0
    for _ in range(max_steps):
        s += gap
        if s >= length:
            return math.inf
        gap = oracle.clearance(world, [np.asarray(p) + s * u])[0] - r
        if gap <= tol:
            after = s + 1e-6
            if after > length or oracle.clearance(world, [np.asarray(p) + after * u])[0] >= r:
                return math.nan
            return s
    return math.nan


# Coordinates to 1e-9 (so exact touches are drawn): none of the sub-1e-100
# offsets Hypothesis favours, where squares underflow and every library's
# normals lose their unit length (far below any level's scale).
coordinate = st.floats(-6.0, 6.0).map(lambda v: round(v, 9))
point = st.tuples(coordinate, coordinate)
circle = st.tuples(point, st.floats(0.1, 2.0).map(lambda v: round(v, 9)))
wall = st.tuples(point, point, st.floats(0.0, 0.5).map(lambda v: round(v, 9))).filter(
    lambda w: w[0] != w[1])
box = st.tuples(point, st.floats(0.2, 3.0), st.floats(0.2, 3.0))
motion = st.tuples(coordinate, coordinate).map(lambda d: (2.0 * d[0], 2.0 * d[1])).filter(
    lambda d: math.hypot(*d) > 1e-3)
casts = st.lists(st.tuples(st.tuples(coordinate, coordinate), motion,
                           st.sampled_from([0.0, 0.05, 0.3, 0.7, 1.5])), min_size=1, max_size=6)


@given(st.lists(circle, max_size=4), st.lists(wall, max_size=3), st.lists(box, max_size=2),
       st.booleans(), casts)
def test_cast_is_never_late_and_at_most_a_skin_early(circles, walls, boxes, notch, rows):
    world = sidestep.World2D()
    for c, r in circles:
        world.add_circles([c], r)
    for a, b, t in walls:
        world.add_walls([a], [b], clearance=t)
    for lo, w, h in boxes:
        world.add_boxes([lo], [(lo[0] + w, lo[1] + h)])
    if notch:
        world.add_polygon([(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)])
    for p, d, r in rows:
        hit = world.cast(p, d, radius=r)
        length = math.hypot(*d)
        travelled = hit.fraction * length
        want = _sphere_trace(world, p, d, r)
        if not math.isnan(want):
            # Never later than the reference, and at most a skin earlier.
            assert travelled <= want + 1e-9
            assert hit.hit == (want < math.inf) or travelled >= length - SKIN
            if hit.hit:
                assert travelled >= want - SKIN
        if hit.fraction > 0.0:
            stop = np.asarray(p) + hit.fraction * np.asarray(d)
            assert world.clearance(stop) >= r - 1e-9
            assert oracle.clearance(world, [stop])[0] >= r - 1e-9
        if hit.hit:
            # The point lies on the obstacle's surface, the normal is a unit vector.
            assert oracle.signed_distances(world, [hit.point])[hit.obstacle][0] == \
                pytest.approx(0.0, abs=1e-9)
            assert math.hypot(*hit.normal) == pytest.approx(1.0)


# ==================================================== batch equals the single call
def _forest(seed=3):
    rng = np.random.default_rng(seed)
    world = sidestep.World2D()
    world.add_circles(rng.uniform(0, 60, (120, 2)), rng.uniform(0.2, 1.5, 120))
    a = rng.uniform(0, 60, (25, 2))
    world.add_walls(a, a + rng.uniform(-8, 8, (25, 2)), clearance=rng.uniform(0, 0.3, 25))
    world.add_boxes([(10.0, 40.0)], [(14.0, 45.0)])
    world.add_polygon([(30, 30), (33, 30), (33, 33), (32, 33), (32, 31), (31, 31), (31, 33),
                       (30, 33)])
    table = rng.random((8, 8)) < 0.4
    world.add_grid(table, 1.0, (45.0, 5.0))
    world.add_walls([(-1.0, -1.0), (61.0, -1.0), (61.0, 61.0), (-1.0, 61.0)],
                    [(61.0, -1.0), (61.0, 61.0), (-1.0, 61.0), (-1.0, -1.0)], one_sided=True)
    return world, rng


def test_cast_many_equals_cast_row_by_row_on_any_number_of_threads():
    world, rng = _forest()
    n = 1500
    p = rng.uniform(-5, 65, (n, 2))
    d = rng.normal(0, 8, (n, 2))
    d[:20] = 0.0
    r = rng.choice([0.0, 0.1, 0.4, 1.0, 2.5], n)
    previous = threads.set_threads(1)
    try:
        one = world.cast_many(p, d, radius=r)
    finally:
        threads.set_threads(previous)
    many = world.cast_many(p, d, radius=r)
    for field in ("hit", "fraction", "obstacle", "point", "normal"):
        np.testing.assert_array_equal(getattr(one, field), getattr(many, field))
    assert many.hit.dtype == bool and many.fraction.shape == (n,)
    assert many.point.shape == (n, 2) and many.obstacle.dtype == np.int64
    assert 0 < many.hit.sum() < n and (many.fraction == 0.0).sum() > 20
    for k in range(n):
        single = world.cast(p[k], d[k], radius=r[k])
        assert single.hit == many.hit[k] and single.obstacle == many.obstacle[k]
        assert single.fraction == many.fraction[k]
        np.testing.assert_array_equal(single.point, many.point[k])
        np.testing.assert_array_equal(single.normal, many.normal[k])


def test_cast_many_takes_one_radius_or_one_each_and_one_row_gets_scalars():
    world, rng = _forest()
    p = rng.uniform(0, 60, (5, 2))
    d = rng.normal(0, 8, (5, 2))
    same = world.cast_many(p, d, radius=0.4)
    each = world.cast_many(p, d, radius=np.full(5, 0.4))
    np.testing.assert_array_equal(same.fraction, each.fraction)
    one = world.cast_many(p[0], d[0], radius=0.4, height=0.0, mask=sidestep.layers.ALL)
    assert isinstance(one.fraction, float) and isinstance(one.obstacle, int)
    assert one.fraction == same.fraction[0] and one.point.shape == (2,)


# ================================================================= bad input
@pytest.mark.parametrize("args, kwargs, name", [
    (((math.nan, 0.0), (1.0, 0.0)), {}, "position"),
    (((0.0, 0.0), (math.inf, 0.0)), {}, "displacement"),
    (((0.0, 0.0, 0.0), (1.0, 0.0)), {}, "position"),
    (((0.0, 0.0), (1.0,)), {}, "displacement"),
    (((0.0, 0.0), (1.0, 0.0)), {"radius": -0.1}, "radius"),
    (((0.0, 0.0), (1.0, 0.0)), {"radius": math.nan}, "radius"),
    (((0.0, 0.0), (1.0, 0.0)), {"height": 1.8}, "height"),
    (((0.0, 0.0), (1.0, 0.0)), {"height": math.nan}, "height"),
    (((0.0, 0.0), (1.0, 0.0)), {"mask": -1}, "mask"),
    (((0.0, 0.0), (1.0, 0.0)), {"mask": 1 << 32}, "mask"),
])
def test_cast_refuses_bad_input_naming_the_argument(args, kwargs, name):
    world = sidestep.World2D()
    world.add_circles([(5.0, 0.0)], 1.0)
    with pytest.raises(ValueError, match=name):
        world.cast(*args, **kwargs)


@pytest.mark.parametrize("args, kwargs, name", [
    ((np.zeros((3, 2)), np.zeros((2, 2))), {}, "displacements"),
    ((np.zeros((3, 3)), np.zeros((3, 3))), {}, "positions"),
    ((np.zeros((3, 2)), np.full((3, 2), math.nan)), {}, "displacements"),
    ((np.zeros((3, 2)), np.ones((3, 2))), {"radius": [0.1, 0.2]}, "radius"),
    ((np.zeros((3, 2)), np.ones((3, 2))), {"radius": [0.1, -0.2, 0.3]}, "radius"),
    ((np.zeros((3, 2)), np.ones((3, 2))), {"height": -1.0}, "height"),
])
def test_cast_many_refuses_bad_input_naming_the_argument(args, kwargs, name):
    world = sidestep.World2D()
    with pytest.raises(ValueError, match=name):
        world.cast_many(*args, **kwargs)


def test_cast_refuses_a_mask_or_height_that_is_not_a_number():
    world = sidestep.World2D()
    with pytest.raises(TypeError, match="mask"):
        world.cast((0.0, 0.0), (1.0, 0.0), mask="all")
    with pytest.raises(TypeError, match="height"):
        world.cast((0.0, 0.0), (1.0, 0.0), height="tall")


def test_ray_along_a_row_border_hits_the_obstacle_past_it():
    # The same border, read by the queries that take their rows from
    # index.rows_capsule itself (the cast once carried its own fix): a ray
    # along the row border from inside the circle starts hit, a ray from
    # outside hits its near side, and a point on the border overlaps it.
    world = sidestep.World2D()
    tree = int(world.add_circles([(0.0, 1.0)], 1.180819351)[0])
    inside = world.raycast([(0.0, 1.0)], [(1.0, 0.0)])
    assert inside.hit.tolist() == [True] and inside.distance.tolist() == [0.0]
    assert inside.obstacle.tolist() == [tree]
    past = world.raycast([(-5.0, 1.0)], [(1.0, 0.0)])
    assert past.obstacle.tolist() == [tree]
    assert abs(past.distance[0] - (5.0 - 1.180819351)) < 1e-9
    assert world.overlapping((0.0, 1.0)).tolist() == [tree]
    assert world.overlapping((1.0, 1.0), radius=0.0).tolist() == [tree]


