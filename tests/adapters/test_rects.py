"""Rects moving through a World2D (sidestep.adapters.rects): named scenes, every family, a property.

Every end is checked against the caller's own geometry with an independent
plain-Python overlap test (rect_overlap.py), never with sidestep's kernels.
"""
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import sidestep
from sidestep.adapters.grown import PADDING
from sidestep.adapters.minkowski import grow_polygon, rounded_rect_polygon
from sidestep.adapters.outline import union_outline
from sidestep.adapters.rects import RectWorld

from rect_overlap import rect_overlaps

HALF = (0.5, 0.75)            # a 1 x 1.5 rect


def corners(center, half=HALF):
    c = np.asarray(center, dtype=float)
    return c - half, c + half


def assert_free(world, center, half=HALF):
    lo, hi = corners(center, half)
    assert rect_overlaps(world, lo, hi) == [], (center, lo, hi)


def tiles(n, size=1.0, y=0.0):
    """A floor of n square tiles side by side (separate boxes)."""
    world = sidestep.World2D()
    world.add_boxes([(i * size, y) for i in range(n)], [((i + 1) * size, y + size) for i in range(n)])
    return world


# ------------------------------------------------------------------ named scenes
def test_slides_along_wall_at_speed():
    world = sidestep.World2D()
    wall = int(world.add_boxes([(5.0, -100.0)], [(6.0, 100.0)])[0])
    rects = RectWorld(world)
    m = rects.move((0.0, 0.0), HALF, (300.0, 40.0))     # far past the wall in one step
    assert m.stop == "slid" and m.contacts == (wall,)
    assert 5.0 - 2 * rects.gap(HALF) <= m.max_corner[0] < 5.0      # flush, not through
    assert m.center[1] == pytest.approx(40.0)                       # kept the part along it
    np.testing.assert_allclose(m.normals[0], (-1.0, 0.0), atol=1e-9)
    assert_free(world, m.center)


def test_stops_in_corner():
    world = sidestep.World2D()
    ids = world.add_boxes([(2.0, -5.0), (-5.0, 3.0)], [(3.0, 5.0), (5.0, 4.0)]).tolist()
    rects = RectWorld(world)
    m = rects.move((0.0, 0.0), HALF, (10.0, 10.0))
    assert m.stop == "blocked" and sorted(m.contacts) == ids
    gap = rects.gap(HALF)
    assert 2.0 - 2 * gap <= m.max_corner[0] < 2.0 and 3.0 - 2 * gap <= m.max_corner[1] < 3.0
    assert_free(world, m.center)
    again = rects.move(m.center, HALF, (1.0, 1.0))                  # pressing on: stays
    np.testing.assert_allclose(again.center, m.center, atol=1e-9)


@pytest.mark.parametrize("extra, passes", [(2e-3, True), (-2e-3, False), (0.0, False)])
def test_gap_passes_its_width_plus_a_hair_and_not_narrower(extra, passes):
    # Two boxes with a slot between them; the rect walks straight down into it.
    width = 2 * HALF[0]
    slot = width + extra
    world = sidestep.World2D()
    world.add_boxes([(-10.0, 0.0), (slot, 0.0)], [(0.0, 1.0), (slot + 10.0, 1.0)])
    rects = RectWorld(world)
    # The hair must be more than twice the gap a slide keeps (2e-3 against 1e-3 here).
    assert 2 * rects.gap(HALF) < 2e-3
    start = (slot / 2, 3.0)
    m = rects.move(start, HALF, (0.0, -6.0))
    assert (m.max_corner[1] < 0.0) == passes, m
    assert_free(world, m.center)


def test_walks_over_tile_seams_without_climbing():
    # A point gliding along a face meets the next tile's corner at a slant; the outline
    # of the tiles' union has no corner there, so the rect stays on the floor.
    world = tiles(60)
    rects = RectWorld(world)
    c = np.array([0.5, 1.0 + HALF[1] + 0.01])
    rests = []
    for _ in range(500):                                     # walk with a little gravity
        m = rects.move(c, HALF, (0.11, -0.05))
        c = m.center
        rests.append(m.min_corner[1] - 1.0)
        assert_free(world, c)
    assert c[0] > 50.0
    assert max(rests[5:]) <= rects.gap(HALF) + 1e-9          # never above its resting gap
    assert min(rests) > 0.0


def test_falls_past_a_wall_end_without_being_thrown_sideways():
    # Pressed against a wall's face while falling, then past its bottom corner.
    world = sidestep.World2D()
    world.add_boxes([(0.0, 10.0)], [(10.0, 20.0)])
    rects = RectWorld(world)
    c = np.array([-HALF[0] - 0.01, 18.0])
    xs = []
    for _ in range(12):
        m = rects.move(c, HALF, (0.5, -1.3))
        c = m.center
        xs.append(m.max_corner[0])
        assert_free(world, c)
    assert min(xs) > -0.01 - 1e-3   # never pushed away from the wall by more than a hair
    assert c[1] < 10.0 - HALF[1]    # and it got below the wall


def test_never_tunnels_a_thin_wall_at_any_speed():
    world = sidestep.World2D()
    world.add_boxes([(10.0, -50.0)], [(10.001, 50.0)])
    rects = RectWorld(world)
    for speed in (9.6, 50.0, 5e3, 5e6):
        m = rects.move((0.0, 0.0), HALF, (speed, 0.0))
        assert m.max_corner[0] < 10.0 and m.stop == "blocked"


def test_every_family_blocks_and_names_its_own_id():
    world = sidestep.World2D()
    ids = {
        "circle": int(world.add_circles([(0.0, 10.0)], 1.0)[0]),
        "wall": int(world.add_walls([(10.0, 8.0)], [(10.0, 12.0)], clearance=0.25)[0]),
        "box": int(world.add_boxes([(20.0, 9.0)], [(21.0, 11.0)])[0]),
        "polygon": world.add_polygon([(30.0, 8.0), (32.0, 10.0), (30.0, 12.0), (31.0, 10.0)]),
        "grid": world.add_grid(np.eye(3, dtype=bool), 1.0, (40.0, 8.5)),
    }
    rects = RectWorld(world)
    for family, x in [("circle", 0.0), ("wall", 10.0), ("box", 20.5), ("polygon", 30.5),
                      ("grid", 41.0)]:
        m = rects.move((x, 0.0), HALF, (0.0, 20.0))      # walk up into it from below
        assert m.contacts == (ids[family],), family
        assert m.stop in ("blocked", "slid") and m.max_corner[1] < 12.0
        assert_free(world, m.center)


def test_circle_stands_in_for_its_rounded_rect_on_the_blocking_side():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 2.0)
    rects = RectWorld(world)
    d = np.array([1.0, 1.0]) / math.sqrt(2.0)
    m = rects.move(-10.0 * d, HALF, 20.0 * d)              # along the diagonal, at a corner
    # The rect's corner stops outside the circle, within 1.9 % of the radius of it.
    corner = m.max_corner
    gap = math.hypot(*corner) - 2.0
    slack = 2.0 * (1.0 / math.cos(math.pi / 16) - 1.0)
    assert 0.0 < gap <= slack + 2 * rects.gap(HALF)
    m = rects.move((-10.0, 0.0), HALF, (20.0, 0.0))        # along an axis: exact
    assert -2.0 - 2 * rects.gap(HALF) <= m.max_corner[0] < -2.0


def test_rounded_rect_polygon_contains_the_rounded_rect():
    poly = rounded_rect_polygon(1.0, np.array([2.0, 0.5]), sides=16)
    # Every point of the rounded rect's boundary lies inside the polygon.
    for t in np.linspace(0.0, 2.0 * np.pi, 400, endpoint=False):
        for sx, sy in [(1, 1), (-1, 1), (-1, -1), (1, -1)]:
            p = (sx * 2.0 + math.cos(t), sy * 0.5 + math.sin(t))
            if np.sign(p[0]) == sx and np.sign(p[1]) == sy:
                edges = np.roll(poly, -1, axis=0) - poly
                cross = edges[:, 0] * (p[1] - poly[:, 1]) - edges[:, 1] * (p[0] - poly[:, 0])
                assert np.all(cross >= -1e-12)


def test_concave_polygon_grows_to_its_exact_sum():
    arrow = np.array([(0.0, 0.0), (4.0, 0.0), (2.0, 1.0), (2.0, 3.0)])
    pieces = grow_polygon(arrow, np.array([0.5, 0.5]))
    world = sidestep.World2D()
    pid = world.add_polygon(arrow)
    rects = RectWorld(world)
    # The notch between the arrow's arms: a rect fits in it, and is stopped by both arms.
    m = rects.move((3.0, 3.0), (0.2, 0.2), (-1.0, -1.6))
    assert m.contacts == (pid,)
    assert_free(world, m.center, (0.2, 0.2))
    assert len(pieces) == 5


def test_union_outline_cancels_faces_that_touch():
    # Two boxes stacked exactly: one rectangle, no wall between them.
    s, e, _ = union_outline([(0, 0), (0, 1)], [(2, 1), (2, 3)])
    assert len(s) == 4
    segments = {(tuple(a), tuple(b)) for a, b in zip(s.tolist(), e.tolist())}
    assert ((0.0, 0.0), (0.0, 3.0)) in segments and ((2.0, 3.0), (2.0, 0.0)) in segments
    # A ring of four boxes: an outer loop and a hole, eight walls.
    s, _, _ = union_outline([(0, 0), (0, 9), (0, 1), (9, 1)], [(10, 1), (10, 10), (1, 9), (10, 9)])
    assert len(s) == 8


def test_recovers_when_it_starts_inside():
    world = tiles(10)
    rects = RectWorld(world)
    m = rects.move((4.0, 0.9), HALF, (0.0, 0.0))          # mostly inside the floor
    assert m.recovered
    assert_free(world, m.center)


def test_sees_obstacles_added_and_removed_behind_its_back():
    world = sidestep.World2D()
    rects = RectWorld(world)
    assert rects.move((0.0, 0.0), HALF, (10.0, 0.0)).stop == "done"
    box = int(world.add_boxes([(5.0, -1.0)], [(6.0, 1.0)])[0])
    m = rects.move((0.0, 0.0), HALF, (10.0, 0.0))
    assert m.contacts == (box,) and m.max_corner[0] < 5.0
    world.remove([box])
    assert rects.move((0.0, 0.0), HALF, (10.0, 0.0)).stop == "done"


def test_moving_obstacles_move_without_rebuilding():
    world = tiles(20)
    rects = RectWorld(world)
    grown = rects.grown(HALF)
    platform = int(rects.add_boxes([(3.0, 4.0)], [(5.0, 4.5)], moving=True)[0])
    m = rects.move((4.0, 8.0), HALF, (0.0, -10.0))
    assert m.contacts == (platform,) and m.min_corner[1] > 4.5 - 1e-12
    rects.remove([platform])
    platform = int(rects.add_boxes([(6.0, 4.0)], [(8.0, 4.5)], moving=True)[0])
    m = rects.move((4.0, 8.0), HALF, (0.0, -10.0))        # the platform left: down to the floor
    assert m.contacts == (3,) or m.contacts == (4,)
    assert rects.grown(HALF) is grown                     # the same grown world throughout


def test_modes():
    world = sidestep.World2D()
    box = int(world.add_boxes([(5.0, -5.0)], [(6.0, 5.0)])[0])
    rects = RectWorld(world)
    block = rects.move((0.0, 0.0), HALF, (5.0, 0.0), mode="block")   # lands inside: stays
    np.testing.assert_allclose(block.center, (0.0, 0.0))
    assert block.stop == "blocked" and block.contacts == (box,)
    assert rects.move((0.0, 0.0), HALF, (3.0, 0.0), mode="block").stop == "done"
    ghost = rects.move((0.0, 0.0), HALF, (10.0, 0.0), mode="ghost")
    np.testing.assert_allclose(ghost.center, (10.0, 0.0))
    push = rects.move((0.0, 0.0), HALF, (5.2, 0.0), mode="push")
    assert push.stop == "pushed" and push.contacts == (box,)
    assert push.max_corner[0] <= 5.0 + 1e-9
    assert_free(world, push.center)


def test_cast_and_overlapping():
    world = sidestep.World2D()
    box = int(world.add_boxes([(0.0, 0.0)], [(10.0, 1.0)])[0])
    rects = RectWorld(world)
    down = rects.cast((5.0, 3.75), HALF, (0.0, -5.0))
    assert down.obstacle == box and down.fraction == pytest.approx(2.0 / 5.0)
    np.testing.assert_allclose(down.normal, (0.0, 1.0))
    miss = rects.cast((5.0, 3.75), HALF, (0.0, 5.0))
    assert miss.obstacle == -1 and miss.fraction == 1.0
    assert rects.overlapping((5.0, 1.5), HALF).tolist() == [box]
    assert rects.overlapping((5.0, 1.8), HALF).tolist() == []


def test_first_free_picks_the_nearest_place_that_does_not_overlap():
    world = sidestep.World2D()
    world.add_boxes([(10.0, -5.0)], [(11.0, 5.0)])
    rects = RectWorld(world)
    half = (1.0, 1.0)
    exact = (8.999, 0.0)                                   # its right side 0.001 off the wall
    k = rects.first_free(exact, half, [(9.0, -1.0), (7.0, -1.0)])
    assert k == 1                                          # min corner 9: overlaps; 7: free
    k = rects.first_free(exact, half, [(8.0, -1.0), (7.0, -1.0)])
    assert k == 0                                          # 8: flush against the wall


def test_bad_input_names_the_argument():
    rects = RectWorld(sidestep.World2D())
    for bad in [(0.0, 1.0), (-1.0, 1.0), (np.nan, 1.0), (1.0,)]:
        with pytest.raises(ValueError, match="half_size"):
            rects.move((0.0, 0.0), bad, (1.0, 0.0))
    with pytest.raises(ValueError, match="mode"):
        rects.move((0.0, 0.0), HALF, (1.0, 0.0), mode="fly")
    with pytest.raises(ValueError, match="center"):
        rects.move((np.inf, 0.0), HALF, (1.0, 0.0))
    with pytest.raises(TypeError, match="world"):
        RectWorld([])
    with pytest.raises(ValueError, match="circle_sides"):
        RectWorld(sidestep.World2D(), circle_sides=6)


# ---------------------------------------------------------------------- property
@st.composite
def scenes(draw):
    """Boxes (some tiled side by side, some anywhere), a rect size and a few moves."""
    n_tiles = draw(st.integers(0, 12))
    size = draw(st.sampled_from([0.5, 1.0, 2.0]))
    tiles_at = [(draw(st.integers(-6, 6)), draw(st.integers(-6, 6))) for _ in range(n_tiles)]
    loose = draw(st.lists(st.tuples(st.floats(-8, 8), st.floats(-8, 8), st.floats(0.05, 4),
                                     st.floats(0.05, 4)), max_size=8))
    half = (draw(st.floats(0.05, 1.5)), draw(st.floats(0.05, 1.5)))
    start = (draw(st.floats(-10, 10)), draw(st.floats(-10, 10)))
    moves = draw(st.lists(st.tuples(st.floats(-30, 30), st.floats(-30, 30)), min_size=1,
                          max_size=6))
    mins = [(i * size, j * size) for i, j in tiles_at] + [(x, y) for x, y, _, _ in loose]
    maxs = [((i + 1) * size, (j + 1) * size) for i, j in tiles_at] + \
        [(x + w, y + h) for x, y, w, h in loose]
    return mins, maxs, half, start, moves


@given(scenes())
def test_random_rect_moves_never_overlap_random_boxes(scene):
    mins, maxs, half, start, moves = scene
    world = sidestep.World2D()
    if mins:
        world.add_boxes(mins, maxs)
    rects = RectWorld(world)
    c = np.array(start)
    lo, hi = corners(c, half)
    free = rect_overlaps(world, lo, hi) == []
    for d in moves:
        m = rects.move(c, half, d)
        c = m.center
        if free or (m.recovered and m.stop != "stuck"):
            lo, hi = corners(c, half)
            assert rect_overlaps(world, lo, hi) == [], (c, d)
            free = True


@st.composite
def mixed_scenes(draw):
    world_items = draw(st.lists(st.tuples(st.sampled_from(["circle", "wall", "polygon", "box"]),
                                          st.floats(-8, 8), st.floats(-8, 8),
                                          st.floats(0.1, 3)), max_size=6))
    half = (draw(st.floats(0.1, 1.0)), draw(st.floats(0.1, 1.0)))
    start = (draw(st.floats(-10, 10)), draw(st.floats(-10, 10)))
    moves = draw(st.lists(st.tuples(st.floats(-20, 20), st.floats(-20, 20)), min_size=1,
                          max_size=4))
    return world_items, half, start, moves


@given(mixed_scenes())
def test_random_rect_moves_never_overlap_circles_walls_and_polygons(scene):
    items, half, start, moves = scene
    world = sidestep.World2D()
    for kind, x, y, s in items:
        if kind == "circle":
            world.add_circles([(x, y)], s)
        elif kind == "wall":
            world.add_walls([(x, y)], [(x + s, y + 0.7 * s)], clearance=0.1 * s)
        elif kind == "box":
            world.add_boxes([(x, y)], [(x + s, y + 0.5 * s)])
        else:     # a concave dart
            world.add_polygon([(x, y), (x + s, y + 0.5 * s), (x, y + s), (x + 0.3 * s, y + 0.5 * s)])
    rects = RectWorld(world)
    c = np.array(start)
    lo, hi = corners(c, half)
    started_free = rect_overlaps(world, lo, hi) == []
    for d in moves:
        m = rects.move(c, half, d)
        c = m.center
        if started_free:
            lo, hi = corners(c, half)
            assert rect_overlaps(world, lo, hi) == [], (c, d)


def test_padding_is_a_thousandth_of_the_smaller_half_size():
    rects = RectWorld(sidestep.World2D())
    assert rects.gap((2.0, 5.0)) == pytest.approx(PADDING * 2.0 + rects.grown((2.0, 5.0)).smooth.skin)


# ------------------------------------------------------------ bodies, layers
def turn(points, angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(points, dtype=float) @ np.array([[c, -s], [s, c]]).T


@pytest.mark.parametrize("angle", [0.0, 0.4, -1.1])
def test_posed_body_moves_like_a_world_with_it_there(angle):
    # A platform posed as a body is where a world holding it at that place has it:
    # the same drops end at the same places, touching the same obstacle.
    plank = np.array([(-2.0, -0.25), (2.0, -0.25), (2.0, 0.25), (-2.0, 0.25)])
    position = np.array([3.0, 4.0])
    posed = RectWorld(tiles(20))
    oid = int(posed.add_boxes([plank[0]], [plank[2]], moving=True)[0])
    posed.grown(HALF)                                  # grown before, posed in place
    body = posed.add_body([oid])
    posed.set_pose(body, (-7.0, 1.0), 0.3)            # somewhere else first
    posed.set_pose(body, position, angle)
    there = RectWorld(tiles(20))
    there.add_polygon(turn(plank, angle) + position, moving=True)
    for x in np.linspace(0.5, 5.5, 11):
        a = posed.move((x, 9.0), HALF, (0.3, -12.0))
        b = there.move((x, 9.0), HALF, (0.3, -12.0))
        np.testing.assert_allclose(a.center, b.center, atol=1e-9)
        assert a.contacts == b.contacts
        assert_free(there.world, a.center)             # free of the plank where it is


def test_posing_a_body_adds_nothing_until_it_turns():
    rects = RectWorld(tiles(20))
    oid = int(rects.add_boxes([(3.0, 4.0)], [(5.0, 4.5)], moving=True)[0])
    body = rects.add_body([oid])
    grown = rects.grown(HALF)
    size = grown.smooth._store.alive.size
    for k in range(30):
        rects.set_pose(body, (0.1 * k, 0.05 * k))
        m = rects.move((4.0 + 0.1 * k, 8.0), HALF, (0.0, -10.0))
        assert m.contacts == (oid,)
    assert rects.grown(HALF) is grown and grown.smooth._store.alive.size == size
    rects.set_pose(body, (0.0, 0.0), 0.2)              # turned: grown again for it
    assert grown.smooth._store.alive.size > size and rects.grown(HALF) is grown


def test_layers_mask_and_ignore():
    world = sidestep.World2D()
    rects = RectWorld(world)
    near = int(rects.add_boxes([(3.0, -5.0)], [(4.0, 5.0)], layer=2)[0])
    far = int(rects.add_boxes([(8.0, -5.0)], [(9.0, 5.0)])[0])
    gate = int(rects.add_boxes([(6.0, -5.0)], [(6.5, 5.0)], moving=True, layer=2)[0])
    assert rects.move((0.0, 0.0), HALF, (20.0, 0.0)).contacts == (near,)
    assert rects.move((0.0, 0.0), HALF, (20.0, 0.0), mask=0b1).contacts == (far,)
    m = rects.move((5.0, 0.0), HALF, (20.0, 0.0), ignore=[gate])
    assert m.contacts == (far,)                                   # through the gate
    assert rects.move((5.0, 0.0), HALF, (20.0, 0.0)).contacts == (gate,)   # back again
    assert rects.cast((5.0, 0.0), HALF, (5.0, 0.0), ignore=[gate]).obstacle == far
    assert rects.overlapping((6.2, 0.0), HALF, ignore=[gate]).tolist() == []
    assert rects.overlapping((6.2, 0.0), HALF, mask=0b100).tolist() == [gate]
    with pytest.raises(ValueError, match="moving"):
        rects.move((0.0, 0.0), HALF, (1.0, 0.0), ignore=[far])   # merged in the outline
    # A wall of tiles on two layers: each layer's outline holds its own tiles.
    floor = sidestep.World2D()
    floor.add_boxes([(0.0, 0.0), (1.0, 0.0)], [(1.0, 1.0), (2.0, 1.0)], layer=[0, 1])
    m = RectWorld(floor).move((0.5, 3.0), HALF, (1.0, -5.0), mask=0b10)
    assert m.contacts == (1,) and m.center[0] == pytest.approx(1.5)


def test_escape_leaves_a_turned_platform_the_shortest_way():
    rects = RectWorld(tiles(20))
    oid = int(rects.add_boxes([(-3.0, -0.25)], [(3.0, 0.25)], moving=True)[0])
    body = rects.add_body([oid])
    rects.set_pose(body, (10.0, 3.0))
    center = np.array([10.0, 3.25 + HALF[1] + 1e-3])
    assert rects.escape(center, HALF, [oid]).tolist() == [0.0, 0.0]     # on it, not in it
    rects.set_pose(body, (10.0, 3.0), -0.05)           # its left end rises into the rect
    d = rects.escape(center, HALF, [oid])
    assert 0.0 < d[1] < 0.1 and abs(d[0]) < 0.01
    assert oid not in rects.overlapping(center + d, HALF).tolist()
    assert rects.escape(center, HALF, []).tolist() == [0.0, 0.0]
