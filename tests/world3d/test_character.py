"""The 3D character: floors, slopes, steps, stairs, cliffs, ceilings, platforms, named by behaviour."""
import math

import numpy as np
import pytest

import sidestep
from sidestep import Character, World3D
from sidestep.tolerances import PROMISE

DT = 1.0 / 60.0


def penetrates(hero):
    """Whether the capsule overlaps any surface by more than the promise allows."""
    world = hero._world
    centre = hero.position + np.array([0.0, 0.5 * hero.height, 0.0])
    return len(world.overlapping(centre, hero.radius - PROMISE, hero.height - 2 * PROMISE)) > 0


def floor_world(half=20.0):
    world = World3D()
    world.add_boxes([(-half, -1.0, -half)], [(half, 0.0, half)])
    return world


def slope_world(degrees):
    """A ramp through the origin rising towards +x at ``degrees``, as one panel."""
    world = World3D()
    t = math.tan(math.radians(degrees))
    world.add_panels([[(-6.0, -6.0 * t, -6.0), (6.0, 6.0 * t, -6.0), (6.0, 6.0 * t, 6.0),
                       (-6.0, -6.0 * t, 6.0)]])
    return world


def settle(hero, frames=60):
    for _ in range(frames):
        hero.update((0.0, 0.0, 0.0), DT)
        assert not penetrates(hero)


def walk(hero, velocity, frames, check=True):
    path = []
    for _ in range(frames):
        hero.update(velocity, DT)
        path.append(hero.position)
        if check:
            assert not penetrates(hero)
    return np.array(path)


# ------------------------------------------------------------------ floors and slopes
def test_stands_on_the_floor_it_is_placed_on():
    hero = Character(floor_world(), (0.0, 0.0, 0.0), 0.3, 1.8)
    assert hero.on_floor and hero.floor_obstacle == 0
    np.testing.assert_allclose(hero.floor_normal, (0.0, 1.0, 0.0))
    settle(hero)
    assert hero.position[1] == pytest.approx(0.0, abs=2e-6)
    assert [t.kind for t in hero.contacts] == ["floor"]


def test_stands_still_on_44_degree_slope():
    hero = Character(slope_world(44), (0.0, 1.0, 0.0), 0.3, 1.8)
    settle(hero, 90)                         # falls onto the slope and lands
    assert hero.on_floor
    rest = hero.position
    settle(hero, 120)
    np.testing.assert_allclose(hero.position, rest, atol=1e-9)
    assert hero.floor_normal[1] == pytest.approx(math.cos(math.radians(44)))


def test_slides_down_46_degree_slope():
    hero = Character(slope_world(46), (0.0, 1.0, 0.0), 0.3, 1.8)
    start = hero.position
    settle(hero, 90)
    assert not hero.on_floor and hero.on_wall
    assert hero.position[0] < start[0] - 1.0       # slid down towards -x
    assert hero.stop == "fell"


def test_cannot_walk_up_46_degree_slope():
    world = slope_world(46)
    world.add_boxes([(-20.0, -30.0, -20.0)], [(20.0, -5.0, 20.0)])   # a floor at the foot
    hero = Character(world, (-6.0, -5.0, 0.0), 0.3, 1.8)
    path = walk(hero, (3.0, 0.0, 0.0), 180)
    assert path[:, 1].max() < -5.0 + 0.05                  # never climbs it
    assert hero.on_floor


def test_no_jitter_where_floor_meets_steep_slope():
    world = slope_world(60)
    world.add_boxes([(-20.0, -30.0, -20.0)], [(20.0, -3.0, 20.0)])
    hero = Character(world, (-4.0, -3.0, 0.0), 0.3, 1.8)
    path = walk(hero, (2.0, 0.0, 0.0), 120)
    # Pressed into the foot of the slope: at rest, on the floor, every frame the same.
    assert hero.on_floor and hero.on_wall
    np.testing.assert_allclose(path[-30:], np.repeat(path[-1:], 30, axis=0), atol=1e-9)


def test_walking_up_a_walkable_slope_keeps_the_speed_along_it():
    world = slope_world(30)
    hero = Character(world, (-2.0, 0.0, 0.0), 0.3, 1.8)
    settle(hero, 30)
    start = hero.position
    walk(hero, (2.0, 0.0, 0.0), 60)
    travelled = np.linalg.norm(hero.position - start)
    assert travelled == pytest.approx(2.0, rel=1e-3)      # 2 m/s along the slope for 1 s
    assert hero.on_floor


# ------------------------------------------------------------------------------ steps
def step_world(rise):
    world = floor_world()
    world.add_boxes([(1.0, 0.0, -20.0)], [(20.0, rise, 20.0)])
    return world


def test_climbs_step_of_0_25_with_step_height_0_3():
    hero = Character(step_world(0.25), (0.0, 0.0, 0.0), 0.3, 1.8, step_height=0.3)
    path = walk(hero, (2.0, 0.0, 0.0), 90)
    assert hero.on_floor and hero.position[1] == pytest.approx(0.25, abs=1e-5)
    # Without losing speed: 2 m/s along x every frame.
    np.testing.assert_allclose(np.diff(path[:, 0]), 2.0 * DT, rtol=1e-9)
    assert hero.floor_obstacle == 1


def test_climbs_a_step_it_meets_while_sliding_along_a_wall():
    # Pressed diagonally into a tall wall (touched above the step height, which alone
    # is no step to try), it slides along it onto a 0.25 step: the step's nose
    # touching it low makes it try, and it climbs without slowing down.
    world = step_world(0.25)
    world.add_boxes([(-20.0, 0.0, 0.5)], [(20.0, 3.0, 1.0)])
    hero = Character(world, (0.0, 0.0, 0.0), 0.3, 1.8, step_height=0.3)
    path = walk(hero, (2.0, 0.0, 2.0), 90)
    # Without losing speed along the wall: 2 m/s along x every frame, up the step too.
    np.testing.assert_allclose(np.diff(path[:, 0]), 2.0 * DT, rtol=1e-9)
    assert hero.on_floor and hero.on_wall
    assert hero.position[1] == pytest.approx(0.25, abs=1e-5)
    assert hero.position[0] > 2.5
    assert hero.position[2] == pytest.approx(0.5 - 0.3, abs=1e-4)


def test_blocked_by_step_of_0_35():
    hero = Character(step_world(0.35), (0.0, 0.0, 0.0), 0.3, 1.8, step_height=0.3)
    path = walk(hero, (2.0, 0.0, 0.0), 90)
    assert path[:, 1].max() < 1e-5
    assert hero.position[0] == pytest.approx(1.0 - 0.3, abs=1e-5)
    assert hero.on_floor and hero.on_wall


def stairs_world(steps=8, rise=0.2, run=0.3):
    """Stairs going down towards +x from a landing at height ``steps * rise``."""
    world = floor_world(40.0)
    top = steps * rise
    world.add_boxes([(-10.0, 0.0, -5.0)], [(0.0, top, 5.0)])
    for k in range(steps - 1):
        world.add_boxes([(k * run, 0.0, -5.0)], [((k + 1) * run, top - (k + 1) * rise, 5.0)])
    return world, top


def test_walks_down_stairs_on_floor_every_frame():
    world, top = stairs_world()
    hero = Character(world, (-1.0, top, 0.0), 0.3, 1.8, step_height=0.3)
    for _ in range(120):
        hero.update((2.0, 0.0, 0.0), DT)
        assert hero.on_floor, hero.position
        assert not penetrates(hero)
    assert hero.position[1] == pytest.approx(0.0, abs=1e-5)


def test_walks_up_stairs():
    world, top = stairs_world()
    hero = Character(world, (4.0, 0.0, 0.0), 0.3, 1.8, step_height=0.3)
    walk(hero, (-2.0, 0.0, 0.0), 150)
    assert hero.on_floor and hero.position[1] == pytest.approx(top, abs=1e-5)


def test_falls_off_cliff():
    world = World3D()
    world.add_boxes([(-5.0, -1.0, -5.0)], [(1.0, 0.0, 5.0)])
    world.add_boxes([(-5.0, -11.0, -5.0)], [(20.0, -10.0, 5.0)])
    hero = Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    falling = []
    for _ in range(150):
        hero.update((2.0, 0.0, 0.0), DT)
        falling.append(not hero.on_floor)
        assert not penetrates(hero)
    assert any(falling)
    assert hero.on_floor and hero.position[1] == pytest.approx(-10.0, abs=1e-5)


# ------------------------------------------------------------------------ meshes, walls
def test_no_bump_on_mesh_seam():
    # A floor of 2 x 12 x 12 triangles: walking across their shared edges never lifts it.
    n = 12
    xs = np.linspace(-6.0, 6.0, n + 1)
    gx, gz = np.meshgrid(xs, xs, indexing="ij")
    vertices = np.stack([gx.ravel(), np.zeros(gx.size), gz.ravel()], axis=1)
    tris = []
    for i in range(n):
        for j in range(n):
            a = i * (n + 1) + j
            tris += [(a, a + 1, a + n + 2), (a, a + n + 2, a + n + 1)]
    world = World3D()
    world.add_mesh(vertices, np.array(tris), sides="front")
    hero = Character(world, (-4.0, 0.0, -3.0), 0.3, 1.8)
    path = walk(hero, (3.0, 0.0, 2.0), 90)
    assert np.ptp(path[:, 1]) < 1e-9 and hero.on_floor
    np.testing.assert_allclose(np.linalg.norm(np.diff(path[:, [0, 2]], axis=0), axis=1),
                               math.hypot(3.0, 2.0) * DT, rtol=1e-9)


def test_not_stuck_walking_along_wall_into_corner():
    world = floor_world()
    world.add_boxes([(-10.0, 0.0, 2.0)], [(3.0, 3.0, 3.0)])     # a wall along x, at z = 2
    world.add_boxes([(3.0, 0.0, -10.0)], [(4.0, 3.0, 3.0)])     # a wall along z, at x = 3
    hero = Character(world, (0.0, 0.0, 1.0), 0.3, 1.8)
    walk(hero, (2.0, 0.0, 0.5), 150)       # along the first wall, pressing into it
    assert hero.position[0] == pytest.approx(3.0 - 0.3, abs=1e-5)
    assert hero.position[2] == pytest.approx(2.0 - 0.3, abs=1e-5)
    assert hero.on_floor and hero.on_wall


def test_jump_stops_at_ceiling():
    world = floor_world()
    world.add_boxes([(-5.0, 2.5, -5.0)], [(5.0, 3.0, 5.0)])
    hero = Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    assert hero.jump(5.0)                  # would rise 1.27 m without the ceiling
    heights, ceiling = [], []
    for _ in range(90):
        hero.update((0.0, 0.0, 0.0), DT)
        heights.append(hero.position[1])
        ceiling.append(hero.on_ceiling)
        assert not penetrates(hero)
    assert max(heights) == pytest.approx(2.5 - 1.8, abs=1e-5)
    assert any(ceiling)
    assert hero.on_floor and hero.position[1] == pytest.approx(0.0, abs=1e-5)


def test_jump_only_from_a_floor():
    world = floor_world()
    hero = Character(world, (0.0, 5.0, 0.0), 0.3, 1.8)
    assert not hero.on_floor and not hero.jump(5.0)


def test_fast_fall_never_passes_floor():
    world = World3D()
    world.add_panels([[(-5.0, 0.0, -5.0), (5.0, 0.0, -5.0), (5.0, 0.0, 5.0), (-5.0, 0.0, 5.0)]])
    hero = Character(world, (0.0, 80.0, 0.0), 0.3, 1.8)
    for _ in range(60):
        hero.update((0.0, -100.0, 0.0), DT)   # 100 m/s down on top of gravity
        assert hero.position[1] >= -PROMISE
    assert hero.on_floor


def test_crouches_and_stands_up_only_where_it_fits():
    world = floor_world()
    world.add_boxes([(2.0, 1.2, -5.0)], [(6.0, 2.0, 5.0)])     # a low ceiling from x = 2
    hero = Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    walk(hero, (2.0, 0.0, 0.0), 60)
    assert hero.position[0] < 2.0               # too tall to get under
    assert hero.resize(1.0)
    walk(hero, (2.0, 0.0, 0.0), 60)
    assert hero.position[0] > 3.0
    assert not hero.resize(1.8) and hero.height == 1.0
    walk(hero, (2.0, 0.0, 0.0), 90)
    assert hero.resize(1.8) and hero.height == 1.8


# ---------------------------------------------------------------- moving obstacles
def test_rides_platform():
    world = floor_world()
    lift = world.add_boxes([(-1.0, 0.0, -1.0)], [(1.0, 0.2, 1.0)])[0]
    hero = Character(world, (0.0, 0.2, 0.0), 0.3, 1.8)
    start = hero.position
    for k in range(100):
        world.translate(lift, (0.02, 0.01, 0.0))
        hero.update((0.0, 0.0, 0.0), DT)
        assert hero.on_floor and hero.floor_obstacle == lift
        assert not penetrates(hero)
    np.testing.assert_allclose(hero.position, start + (2.0, 1.0, 0.0), atol=1e-5)


def test_platform_never_pushes_through_wall():
    world = floor_world()
    wall = world.add_boxes([(2.0, 0.0, -5.0)], [(2.2, 3.0, 5.0)])[0]
    door = world.add_boxes([(-1.0, 0.0, -5.0)], [(-0.8, 3.0, 5.0)])[0]
    hero = Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    stops = []
    for _ in range(80):
        world.translate(door, (0.05, 0.0, 0.0))      # sweeps towards the wall
        hero.update((0.0, 0.0, 0.0), DT)
        stops.append(hero.stop)
        assert hero.position[0] + hero.radius <= 2.0 + PROMISE    # never into the wall
    assert "squeezed" in stops
    assert wall not in [t.obstacle for t in hero.contacts if t.kind == "floor"]


# ------------------------------------------------------------------------ far away
def test_far_from_origin_the_same_walk_gives_the_same_path():
    def path(offset):
        world = World3D()
        o = np.array(offset)
        world.add_boxes([o + (-20.0, -1.0, -20.0)], [o + (20.0, 0.0, 20.0)])
        world.add_boxes([o + (1.0, 0.0, -20.0)], [o + (20.0, 0.25, 20.0)])
        hero = Character(world, o, 0.3, 1.8)
        return walk(hero, (2.0, 0.0, 0.7), 90, check=False) - o

    np.testing.assert_allclose(path((1e5, 0.0, -1e5)), path((0.0, 0.0, 0.0)), atol=1e-6)


# ------------------------------------------------------------------------ bad input
def test_bad_arguments_are_refused_naming_them():
    world = floor_world()
    with pytest.raises(TypeError, match="World3D"):
        Character(sidestep.World2D(), (0, 0, 0), 0.3, 1.8)
    with pytest.raises(ValueError, match="radius"):
        Character(world, (0, 0, 0), -0.3, 1.8)
    with pytest.raises(ValueError, match="height"):
        Character(world, (0, 0, 0), 0.3, 0.5)
    with pytest.raises(ValueError, match="max_slope"):
        Character(world, (0, 0, 0), 0.3, 1.8, max_slope=2.0)
    with pytest.raises(ValueError, match="step_height"):
        Character(world, (0, 0, 0), 0.3, 1.8, step_height=2.0)
    with pytest.raises(ValueError, match="feet"):
        Character(world, (0, np.nan, 0), 0.3, 1.8)
    hero = Character(world, (0, 0, 0), 0.3, 1.8)
    before = hero.position
    with pytest.raises(ValueError, match="velocity"):
        hero.update((np.inf, 0, 0), DT)
    with pytest.raises(ValueError, match="dt"):
        hero.update((1, 0, 0), -DT)
    with pytest.raises(ValueError, match="speed"):
        hero.jump(-1.0)
    np.testing.assert_array_equal(hero.position, before)
