"""World3D moves, named by behaviour: the 2D contract, in 3D, on every family."""
import math

import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE, SKIN

FLOOR = [(-50, 0, -50), (-50, 0, 50), (50, 0, 50), (50, 0, -50)]


def floor_world():
    world = sidestep.World3D()
    world.add_panels([FLOOR])
    return world


def wall_panel(x=0.0):
    return [(x, -10, -50), (x, 10, -50), (x, 10, 50), (x, -10, 50)]


# Every family offers the same wall: its surface is the plane x = 0, the agent
# comes from x < 0.
def wall_of_panel(world):
    return world.add_panels([wall_panel()])[0]


def wall_of_mesh(world):
    v = np.array(wall_panel(), float)
    return world.add_mesh(v, [(0, 1, 2), (0, 2, 3)])


def wall_of_box(world):
    return world.add_boxes([(0.0, -10.0, -50.0)], [(2.0, 10.0, 50.0)])[0]


WALLS = [wall_of_panel, wall_of_mesh, wall_of_box]


@pytest.mark.parametrize("make", WALLS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("angle", [10.0, 30.0, 60.0])
def test_slides_along_wall_keeps_d_cos_a(make, angle):
    world = sidestep.World3D()
    make(world)
    a = math.radians(angle)
    d = 4.0
    start = np.array([-1.0, 0.0, 0.0])
    # From 1 m off the wall, heading into it at angle a to the wall.
    along = d * math.cos(a)
    move = world.move(start, (d * math.sin(a), 0.0, along), radius=0.5)
    assert move.stop == "slid"
    assert move.position[0] == pytest.approx(-0.5, abs=2 * SKIN)
    # It reached the wall after 0.5 / sin(a) of the way, then slid on: the full
    # tangential part of the move is kept.
    assert move.position[2] == pytest.approx(along, abs=1e-5)
    assert world.clearance(move.position) >= 0.5 - PROMISE


@pytest.mark.parametrize("make", WALLS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("speed", [10.0, 100.0, 1000.0])
def test_never_tunnels_through_wall_at_speed(make, speed):
    world = sidestep.World3D()
    make(world)
    for r in (0.0, 0.1):
        move = world.move((-1.0, 0.3, 0.2), (speed * max(r, 0.1), 0.0, 0.0), radius=r)
        assert move.position[0] < 0.0
        assert move.stop == "blocked"


def test_no_bump_on_coplanar_triangle_seam():
    # A floor of two triangles: the agent slides across their shared diagonal
    # without rising or snagging.
    world = sidestep.World3D()
    v = np.array([(-10, 0, -10), (10, 0, -10), (10, 0, 10), (-10, 0, 10)], float)
    world.add_mesh(v, [(0, 1, 2), (0, 2, 3)])
    p = np.array([-5.0, 0.5 + 0.5 * SKIN, 3.0])
    heights = []
    for _ in range(40):
        m = world.move(p, (0.3, -0.05, -0.15), radius=0.5)
        p = m.position
        heights.append(p[1])
    assert max(heights) - min(heights) < 0.5 * SKIN
    assert p[0] > 5.0


def core_clearance(world, centre, radius, height):
    # The nearest surface to the agent's core (its axis, sampled every 0.5 mm).
    half = height / 2 - radius if height else 0.0
    axis = np.asarray(centre) + np.outer(np.linspace(-half, half, 1 + int(4000 * half)),
                                         (0.0, 1.0, 0.0))
    return float(world.clearance(axis).min())


def ridge_world(bend_degrees):
    # Two triangle strips meeting along the z axis (y up): level for x <= 0,
    # bent down by bend_degrees for x >= 0 (negative: bent up, a valley).
    # Under the mesh's smooth-edge angle, so the edge between them is inactive.
    drop = math.tan(math.radians(bend_degrees)) * 10.0
    v = np.array([(-10, 0, -10), (0, 0, -10), (0, 0, 10), (-10, 0, 10),
                  (10, -drop, -10), (10, -drop, 10)], float)
    world = sidestep.World3D()
    world.add_mesh(v, [(0, 3, 2), (0, 2, 1), (1, 2, 5), (1, 5, 4)])
    return world


@pytest.mark.parametrize("radius, height", [(0.3, 0.0), (0.3, 1.8)])
def test_climbs_back_over_a_gentle_convex_edge_without_entering_the_level_face(radius, height):
    # Resting on the bent face against the ridge, the agent is lower than the
    # level face's plane; walking back onto it along that plane must round the
    # edge (the level face's normal, which the inactive edge reports, would let
    # it glide into the face: 4.4 mm deep on nav_test, found by check --sweep).
    world = ridge_world(8.0)
    tilt = math.radians(8.0)                           # along the bent face's normal
    axis = np.array([math.sin(tilt), math.cos(tilt), 0.0])
    centre = (radius + 0.5 * SKIN) * axis + (0.0, height / 2 - radius if height else 0.0, 0.0)
    assert core_clearance(world, centre, radius, height) >= radius
    p = centre
    for _ in range(20):
        m = world.move(p, (-0.05, 0.0, 0.01), radius=radius, height=height)
        assert core_clearance(world, m.position, radius, height) >= radius - PROMISE
        p = m.position
    assert p[0] < -0.5                                 # over the edge, not held at it
    # Rounding the edge in 5 cm steps lifts it a little (no gravity here).
    assert radius <= p[1] - (height / 2 - radius if height else 0.0) <= radius + 0.01


def test_corner_of_three_panels_comes_to_rest():
    world = sidestep.World3D()
    world.add_panels([FLOOR, wall_panel(0.0), [(-50, -10, 0), (50, -10, 0), (50, 10, 0),
                                              (-50, 10, 0)]])
    p = np.array([-3.0, 2.0, -3.0])
    for _ in range(30):
        m = world.move(p, (0.5, -0.5, 0.5), radius=0.5)
        p = m.position
    assert m.stop == "blocked"
    np.testing.assert_allclose(p, (-0.5, 0.5, -0.5), atol=2 * SKIN)
    last = world.move(p, (0.5, -0.5, 0.5), radius=0.5)
    np.testing.assert_array_less(np.abs(last.position - p), 2 * SKIN)


def test_crease_between_two_slopes_holds_the_agent():
    # A V-shaped valley: pushed down into it the agent rests at the bottom.
    world = sidestep.World3D()
    world.add_panels([[(-10, 5, -10), (-10, 5, 10), (0, 0, 10), (0, 0, -10)],
                      [(0, 0, -10), (0, 0, 10), (10, 5, 10), (10, 5, -10)]])
    p = np.array([-3.0, 4.0, 0.0])
    for _ in range(60):
        p = world.move(p, (0.0, -0.3, 0.0), radius=0.5).position
    assert abs(p[0]) < 1e-3
    assert world.clearance(p) >= 0.5 - PROMISE


def test_front_only_panel_passes_from_behind():
    world = sidestep.World3D()
    # Corners counter-clockwise seen from +y: its front faces up.
    world.add_panels([[(-5, 0, 5), (5, 0, 5), (5, 0, -5), (-5, 0, -5)]], sides="front")
    up = world.move((0.0, -1.0, 0.0), (0.0, 2.0, 0.0), radius=0.2)
    assert up.stop == "done" and up.position[1] == pytest.approx(1.0)
    down = world.move((0.0, 1.0, 0.0), (0.0, -2.0, 0.0), radius=0.2)
    assert down.stop == "blocked" and down.position[1] == pytest.approx(0.2, abs=2 * SKIN)


@pytest.mark.parametrize("kind", ["sphere", "box", "cylinder"])
def test_recovers_from_inside_a_solid(kind):
    world = floor_world()
    if kind == "sphere":
        world.add_spheres([(0.0, 2.0, 0.0)], 1.0)
    elif kind == "box":
        world.add_boxes([(-1.0, 1.0, -1.0)], [(1.0, 3.0, 1.0)])
    else:
        world.add_cylinders([(0.0, 1.0, 0.0)], 1.0, 2.0)
    m = world.move((0.2, 2.1, 0.1), (0.0, 0.0, 0.0), radius=0.25)
    assert m.recovered
    assert world.clearance(m.position) >= 0.25 - PROMISE


def test_capsule_stands_on_floor_and_stops_under_a_low_ceiling():
    world = floor_world()
    world.add_boxes([(2.0, 1.5, -5.0)], [(4.0, 3.0, 5.0)])     # a beam 1.5 m up
    # A capsule 1.8 m tall, 0.3 m radius, centred 0.9 m up: its feet on the floor.
    start = (0.0, 0.9 + SKIN, 0.0)
    m = world.move(start, (5.0, 0.0, 0.0), radius=0.3, height=1.8)
    assert m.position[0] == pytest.approx(2.0 - 0.3, abs=2 * SKIN)
    assert m.contacts[-1].obstacle == 1
    # A sphere of the same radius passes under the beam.
    s = world.move((0.0, 0.3 + SKIN, 0.0), (5.0, 0.0, 0.0), radius=0.3)
    assert s.position[0] == pytest.approx(5.0)


def test_contacts_name_the_mesh_triangle():
    world = sidestep.World3D()
    v = np.array([(-10, 0, -10), (10, 0, -10), (10, 0, 10), (-10, 0, 10)], float)
    mid = world.add_mesh(v, [(0, 1, 2), (0, 2, 3)])
    m = world.move((5.0, 1.0, -4.0), (0.0, -2.0, 0.0), radius=0.5)
    assert m.contacts[0].obstacle == mid and m.contacts[0].part == 0
    m = world.move((-5.0, 1.0, 4.0), (0.0, -2.0, 0.0), radius=0.5)
    assert m.contacts[0].part == 1


@pytest.mark.parametrize("mode", sidestep.MODES)
def test_move_many_equals_move_bit_for_bit(mode):
    rng = np.random.default_rng(3)
    world = random_world(rng, 60)
    p = rng.uniform(-10, 10, (700, 3))
    d = rng.normal(0, 2, (700, 3))
    r = rng.uniform(0, 0.5, 700)
    ends = world.move_many(p, d, r, mode=mode)
    for k in range(0, 700, 7):
        np.testing.assert_array_equal(ends[k], world.move(p[k], d[k], r[k], mode=mode).position)


def random_world(rng, n, offset=(0.0, 0.0, 0.0)):
    """A dense world of every family within [-10, 10]^3 (shifted by ``offset``)."""
    o = np.asarray(offset)
    world = sidestep.World3D()
    c = rng.uniform(-10, 10, (n, 3))
    world.add_spheres(c[: n // 4] + o, rng.uniform(0.2, 1.0, n // 4))
    lo = c[n // 4: n // 2]
    world.add_boxes(lo + o, lo + rng.uniform(0.2, 2.0, lo.shape) + o)
    k = 3 * n // 4 - n // 2
    world.add_cylinders(c[n // 2: 3 * n // 4] + o, rng.uniform(0.2, 1.0, k), 1.5)
    for q in c[3 * n // 4:]:
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        w = np.cross(u, rng.normal(size=3))
        w /= np.linalg.norm(w)
        t = np.cross(u, w)
        world.add_panels([[q + o, q + 2 * w + o, q + 2 * w + 2 * t + o, q + 2 * t + o]])
    v = rng.uniform(-10, 10, (30, 3)) + o
    tris = [(i, i + 1, i + 2) for i in range(0, 27, 3)]
    world.add_mesh(v, tris)
    return world


@pytest.mark.parametrize("radius", [0.0, 0.05, 0.25])
def test_slides_over_a_floor_of_boxes_pressing_down_without_climbing(radius):
    # Twenty boxes side by side with flush tops: the edge where one meets the
    # next lies on the next's top, and its plane was its edge's tangent,
    # tilted towards the agent (a point thrown 2.6 units up, a sphere of
    # radius 0.25 5 mm); the seams also used up the passes.
    world = sidestep.World3D()
    world.add_boxes([(i, -1.0, -2.0) for i in range(20)], [(i + 1.0, 0.0, 2.0) for i in range(20)])
    m = world.move((0.5, radius + 1e-6, 0.0), (15.0, -0.5, 0.0), radius=radius)
    assert m.stop == "slid"
    assert m.position[0] == pytest.approx(15.5, abs=2e-6)
    assert radius <= m.position[1] <= radius + 1e-6
    # (On the floor: the boxes span z in [-2, 2]. At z = 3 the capsule is off
    # their side, and the part of the move pressing down takes it down there.)
    capsule = world.move((0.5, 0.9 + 1e-6, 0.0), (15.0, -0.5, 1.5), radius=0.3, height=1.8)
    np.testing.assert_allclose(capsule.position, (15.5, 0.9, 1.5), atol=2e-6)


def test_a_box_rising_beside_a_floor_box_is_still_a_wall():
    world = sidestep.World3D()
    world.add_boxes([(0.0, -1.0, -2.0), (1.0, -1.0, -2.0)], [(1.0, 0.0, 2.0), (2.0, 2.0, 2.0)])
    m = world.move((0.5, 0.25 + 1e-6, 0.0), (3.0, -0.3, 0.0), radius=0.25)
    assert m.position[0] == pytest.approx(0.75, abs=2e-6)
    assert m.position[1] == pytest.approx(0.25, abs=2e-6)
