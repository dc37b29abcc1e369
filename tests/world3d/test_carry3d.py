"""A Character on a moving 3D level: it rides bodies (translation and turn), is pushed by
them at any speed, keeps a platform's velocity when it leaves it, and is never pushed
through a wall (:mod:`sidestep.kernels3d.carry`, ``Character._bodies_moved``)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import carry3d
from sidestep.kernels3d.character import BODY_SIZE, CONTACT_FIELDS, frame_state

DT = 1 / 30


def _about_y(angle):
    return (math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0)


def _ground():
    world = sidestep.World3D()
    world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
    return world


def test_turntable_carries_the_character_round_and_turns_its_facing():
    world = _ground()
    table = world.add_body(world.add_boxes([(-2, 0, -2)], [(2, 0.3, 2)]))
    hero = sidestep.Character(world, (1.5, 0.3, 0.0), 0.3, 1.8)
    hero.facing = (1.0, 0.0, 0.0)
    for k in range(1, 31):
        world.set_pose(table, (0, 0, 0), _about_y(0.05 * k), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    x, _, z = hero.position
    assert math.hypot(x, z) == pytest.approx(1.5, abs=1e-6)
    assert math.atan2(-z, x) == pytest.approx(1.5, abs=1e-6)      # turned with the table
    np.testing.assert_allclose(hero.facing, (math.cos(1.5), 0.0, -math.sin(1.5)), atol=1e-9)
    assert hero.on_floor and hero.floor_obstacle == 1


def test_windmill_blade_at_half_a_radian_a_frame_never_passes_through():
    world = _ground()
    blade = world.add_body(world.add_boxes([(0, 0.2, -0.05)], [(3, 1.5, 0.05)]))
    hero = sidestep.Character(world, (2.0, 0.0, -0.6), 0.3, 1.8)     # ahead of the blade
    for k in range(1, 10):
        world.set_pose(blade, (0, 0, 0), _about_y(0.5 * k), dt=DT)  # turning towards it
        hero.update((0.0, 0.0, 0.0), DT)
        x, _, z = hero.position
        if math.hypot(x, z) > 3.0:
            break                                          # swept out past the blade's end
        ahead = (math.atan2(-z, x) - 0.5 * k) % (2 * math.pi)
        assert 0.0 < ahead < math.pi                       # always on the side it turns to
        centre = hero.position + (0.0, 0.9, 0.0)
        assert len(world.overlapping(centre, 0.3 - 1e-6, 1.8 - 2e-6)) <= 1   # the ground only


def test_lift_carries_a_character_up_through_a_ceilings_hole():
    world = _ground()
    ceiling = [((-10, 4, -10), (-1.5, 4.3, 10)), ((1.5, 4, -10), (10, 4.3, 10)),
               ((-1.5, 4, -10), (1.5, 4.3, -1.5)), ((-1.5, 4, 1.5), (1.5, 4.3, 10))]
    world.add_boxes([c[0] for c in ceiling], [c[1] for c in ceiling])
    lift = world.add_body(world.add_boxes([(-1.2, 0, -1.2)], [(1.2, 0.2, 1.2)]))
    hero = sidestep.Character(world, (0.0, 0.2, 0.0), 0.3, 1.8)
    for k in range(1, 121):
        world.set_pose(lift, (0.0, min(0.05 * k, 4.3), 0.0), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    assert hero.position[1] == pytest.approx(4.5, abs=1e-6)       # on the lift, upstairs
    assert hero.on_floor and hero.floor_obstacle == 5


def test_platform_leaves_a_character_at_speed_that_walks_off():
    world = _ground()
    world.add_boxes([(-30, 0, -30)], [(-12, 3, 30)])     # something to stand on at the start
    deck = world.add_body(world.add_boxes([(-2, 2.7, -1)], [(2, 3, 1)]))
    hero = sidestep.Character(world, (0.0, 3.0, 0.0), 0.3, 1.8)
    for k in range(1, 16):                                # the platform slides at 3 m/s in +x
        world.set_pose(deck, (0.1 * k, 0.0, 0.0), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    assert hero.on_floor
    x0 = hero.position[0]
    hero.jump(4.0)
    world.set_pose(deck, (1.6, 0.0, 0.0), dt=DT)
    hero.update((0.0, 0.0, 0.0), DT)
    for _ in range(5):                                     # in the air: the platform stops
        world.set_pose(deck, (1.6, 0.0, 0.0), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    assert not hero.on_floor
    assert hero.position[0] - x0 == pytest.approx(6 * 0.1, abs=1e-6)    # kept 3 m/s


def test_door_squeezing_a_character_into_a_wall_never_pushes_it_through():
    world = _ground()
    world.add_boxes([(-5, 0, 1.0)], [(5, 3, 1.3)])                      # a wall at z = 1
    door = world.add_body(world.add_boxes([(0, 0, -0.05)], [(3, 2.5, 0.05)]))
    hero = sidestep.Character(world, (1.5, 0.0, 0.6), 0.3, 1.8)
    stops = []
    for k in range(1, 12):
        world.set_pose(door, (0, 0, 0), _about_y(-0.05 * k), dt=DT)     # towards +z
        stops.append(hero.update((0.0, 0.0, 0.0), DT))
        assert hero.position[2] <= 1.0 - 0.3 + 1e-6
        # Out of the pinch on the ground, not lifted into the air (the nearest clear
        # spot was 18 cm up; it is cast back down).
        assert abs(hero.position[1]) < 1e-5
    assert "squeezed" in stops


def test_two_bodies_closing_on_a_character_squeeze_it_and_never_leave_it_inside():
    # Two blocks slide towards each other with the character between them: each pushes it
    # out of itself, and the pushes added up (here to none) leave it pinched. It says
    # squeezed, and ends every frame clear of both, on the ground, out at the gap's side.
    world = _ground()
    left = world.add_body(world.add_boxes([(-1.0, 0.0, -0.5)], [(0.0, 1.5, 0.5)]))
    right = world.add_body(world.add_boxes([(0.0, 0.0, -0.5)], [(1.0, 1.5, 0.5)]))
    world.set_pose(left, (-0.35, 0.0, 0.0), dt=DT)
    world.set_pose(right, (0.35, 0.0, 0.0), dt=DT)
    hero = sidestep.Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
    stops = []
    for k in range(1, 8):
        gap = max(0.35 - 0.04 * k, 0.0)
        world.set_pose(left, (-gap, 0.0, 0.0), dt=DT)
        world.set_pose(right, (gap, 0.0, 0.0), dt=DT)
        stops.append(hero.update((0.0, 0.0, 0.0), DT))
        centre = hero.position + (0.0, 0.9, 0.0)
        assert len(world.overlapping(centre, 0.3 - 1e-6, 1.8 - 2e-6)) <= 1   # the ground
        assert abs(hero.position[1]) < 1e-5
    assert stops[1] == "squeezed"
    assert hero.position[2] > 0.5                                         # out of the gap


def test_facing_must_be_level():
    world = _ground()
    hero = sidestep.Character(world, (0, 0, 0), 0.3, 1.8)
    with pytest.raises(ValueError, match="facing"):
        hero.facing = (0.0, 1.0, 0.0)


def test_crowd3d_is_swept_by_a_turning_bar_and_never_inside_it():
    world = _ground()
    bar = world.add_body(world.add_boxes([(-2.0, 0.0, -0.05)], [(2.0, 2.0, 0.05)]))
    rng = np.random.default_rng(5)
    xz = rng.uniform(-3, 3, (40, 2))
    xz = xz[np.abs(xz[:, 1]) > 0.5]
    starts = np.column_stack([xz[:, 0], np.full(len(xz), 0.9 + 1e-3), xz[:, 1]])
    crowd = sidestep.Crowd3D(world, starts, 0.2, 1.8)
    for k in range(1, 30):
        world.set_pose(bar, (0, 0, 0), _about_y(0.15 * k), dt=DT)
        ends = crowd.step(np.zeros((len(starts), 3))).positions
        for centre in ends:
            assert len(world.overlapping(centre, 0.2 - 1e-6, 1.8 - 2e-6)) <= 1   # the ground
    assert np.any(np.abs(ends - starts).max(axis=1) > 0.1)                 # it swept some


def _jump_peak(lift_speed):
    """The highest the feet get after jumping at 4 m/s from a lift rising at
    ``lift_speed`` m/s (it stops when the character leaves it)."""
    world = _ground()
    lift = world.add_body(world.add_boxes([(-1.2, 0, -1.2)], [(1.2, 0.2, 1.2)]))
    hero = sidestep.Character(world, (0.0, 0.2, 0.0), 0.3, 1.8)
    height = 0.0
    for _ in range(20):                                    # riding up
        height += lift_speed * DT
        world.set_pose(lift, (0.0, height, 0.0), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    assert hero.on_floor
    start = hero.position[1]
    hero.jump(4.0)
    height += lift_speed * DT                              # the jump's frame: still rising
    world.set_pose(lift, (0.0, height, 0.0), dt=DT)
    hero.update((0.0, 0.0, 0.0), DT)
    peak = start
    for _ in range(40):
        world.set_pose(lift, (0.0, height, 0.0), dt=DT)    # the lift stops
        hero.update((0.0, 0.0, 0.0), DT)
        peak = max(peak, hero.position[1])
    return peak - start


def test_jump_from_rising_lift_goes_higher():
    still = _jump_peak(0.0)
    rising = _jump_peak(2.0)
    # v^2 / 2g: 4 m/s gives 0.82 m; 6 m/s, 1.83 m (to the frames' rounding).
    assert still == pytest.approx(4.0 ** 2 / (2 * 9.81), rel=0.1)
    assert rising == pytest.approx(6.0 ** 2 / (2 * 9.81), rel=0.1)


def test_walking_off_a_falling_platform_starts_falling_at_its_speed():
    world = _ground()
    world.add_boxes([(-30, 0, -30)], [(-12, 3, 30)])
    deck = world.add_body(world.add_boxes([(-2, 4.7, -1)], [(2, 5, 1)]))
    hero = sidestep.Character(world, (1.5, 5.0, 0.0), 0.3, 1.8)
    height = 0.0
    for _ in range(10):                                    # falling at 3 m/s
        height -= 3.0 * DT
        world.set_pose(deck, (0.0, height, 0.0), dt=DT)
        hero.update((0.0, 0.0, 0.0), DT)
    assert hero.on_floor
    height -= 3.0 * DT
    world.set_pose(deck, (0.0, height, 0.0), dt=DT)
    hero.update((30.0, 0.0, 0.0), DT)                      # steps off the edge at once
    assert not hero.on_floor
    y0 = hero.position[1]
    world.set_pose(deck, (0.0, height, 0.0), dt=DT)       # the deck stops
    hero.update((0.0, 0.0, 0.0), DT)
    assert not hero.on_floor
    # Falls at the deck's 3 m/s and more from its first frame in the air, not from rest.
    assert y0 - hero.position[1] >= 3.0 * DT


def test_character_walking_over_a_turning_doors_top_edge_stays_clear_of_it():
    # W8-3D's case: a door hinged on the floor below pokes its top edge 4 cm through an
    # upper floor and turns under a character walking there (who steps onto the edge).
    world = _ground()
    door = world.add_body(world.add_boxes([(0.0, -1.98, -0.05)], [(1.2, 0.04, 0.05)]))
    (edge,) = world._store.bodies.members[door]
    hero = sidestep.Character(world, (0.6, 0.0, -1.2), 0.4, 1.8)
    for k in range(1, 61):
        world.set_pose(door, (0, 0, 0), _about_y(0.6 * math.sin(0.1 * k)), dt=DT)
        hero.update((0.0, 0.0, 1.5), DT)
        centre = hero.position + (0.0, 0.9, 0.0)
        assert edge not in world.overlapping(centre, 0.4 - 1e-6, 1.8 - 2e-6), k
    assert hero.position[2] > 1.0                         # it went over the door's path


def test_body_moving_far_off_leaves_a_walking_character_as_a_still_level_does():
    # No body comes near: the frame skips the sweeps, and walks exactly as without it.
    heroes = []
    for moving in (False, True):
        world = _ground()
        world.add_boxes([(2, 0, -1)], [(3, 0.2, 1)])                 # a step to climb
        door = world.add_body(world.add_boxes([(20, 0, 20)], [(22, 2, 20.1)]))
        hero = sidestep.Character(world, (0.0, 0.0, 0.0), 0.3, 1.8)
        for k in range(1, 41):
            if moving:
                world.set_pose(door, (0.05 * k, 0, 0), _about_y(0.1 * k), dt=DT)
            hero.update((2.0, 0.0, 0.5), DT)
        heroes.append(hero)
    np.testing.assert_array_equal(heroes[0].position, heroes[1].position)
    assert heroes[1].position[1] == pytest.approx(0.2, abs=1e-5)    # climbed the step


_UNIT = st.floats(-1.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(st.tuples(_UNIT, _UNIT, _UNIT), st.tuples(_UNIT, _UNIT, _UNIT),
       st.tuples(_UNIT, _UNIT, _UNIT, _UNIT), st.tuples(_UNIT, _UNIT, _UNIT, _UNIT))
def test_reach_box_holds_every_place_a_bodys_corners_passed(t0, t1, q0, q1):
    # Corners along the swept motion (the turn interpolated about R1 R0^T's axis, the
    # shift along the line): all inside the body's reach box, which the cheap test
    # before the sweeps reads.
    q0 = np.array(q0) + (1.5, 0, 0, 0)
    q1 = np.array(q1) + (1.5, 0, 0, 0)
    world = sidestep.World3D()
    lo, hi = np.array([0.0, 0.2, -0.05]), np.array([2.0, 1.5, 0.05])
    body = world.add_body(world.add_boxes([lo], [hi]))
    world.set_pose(body, 3.0 * np.array(t0), q0 / np.linalg.norm(q0))
    world.set_pose(body, 3.0 * np.array(t1), q1 / np.linalg.norm(q1))
    store = world._store
    table = carry3d.table(store)
    table.arrays(store)
    reach = table.reach[body]
    bodies = store.bodies
    axes, angles = bodies.turns()
    k, angle = axes[body], angles[body]
    r0, p0, p1 = bodies.previous_rotation[body], bodies.previous_position[body], \
        bodies.position[body]
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])
    for f in np.linspace(0.0, 1.0, 17):
        a = f * angle
        v = corners @ r0.T
        turned = v * math.cos(a) + np.cross(k, v) * math.sin(a) \
            + np.outer(v @ k, k) * (1.0 - math.cos(a))
        at = turned + p0 + f * (p1 - p0)
        assert np.all(at >= reach[0:3] - 1e-9) and np.all(at <= reach[3:6] + 1e-9), f


def _moved_bodies(moves):
    # Bodies (a door, a block, a bar of two boxes) each moved by one set_pose of `moves`
    # (position, quaternion offsets): the store with their reach boxes worked out.
    world = sidestep.World3D()
    parts = [([(0.0, 0.0, -0.05)], [(1.2, 2.0, 0.05)]), ([(-0.5, 0.0, -0.5)], [(0.5, 1.0, 0.5)]),
             ([(-1.0, 0.0, -0.1), (0.9, 0.0, -1.0)], [(1.0, 0.2, 0.1), (1.1, 0.2, 1.0)])]
    bodies = [world.add_body(world.add_boxes(lo, hi)) for lo, hi in parts]
    for b, (t, q) in zip(bodies, moves):
        q = np.array(q) + (1.5, 0, 0, 0)
        world.set_pose(b, 2.0 * np.array(t), q / np.linalg.norm(q), dt=DT)
    return world


_MOVE = st.tuples(st.tuples(_UNIT, _UNIT, _UNIT), st.tuples(_UNIT, _UNIT, _UNIT, _UNIT))


@settings(max_examples=60, deadline=None)
@given(st.lists(_MOVE, min_size=3, max_size=3), st.lists(_MOVE, min_size=3, max_size=3),
       st.lists(st.tuples(_UNIT, _UNIT, _UNIT, st.floats(0.0, 1.0)), min_size=1, max_size=20),
       st.integers(-1, 2))
def test_near_test_on_the_reach_grid_agrees_with_every_reach_box(first, second, points, skip):
    # The grid the near test reads (kernels3d.carry.reach_cells) finds a body near a point
    # exactly when one moved after `since` (but `skip`) has its reach box within `size`.
    world = _moved_bodies(first)
    since = world._store.bodies.count
    for b, (t, q) in enumerate(second[:2]):     # the third body moved before `since` only
        q = np.array(q) + (1.5, 0, 0, 0)
        world.set_pose(b, 3.0 * np.array(t), q / np.linalg.norm(q), dt=DT)
    store = world._store
    table = carry3d.table(store)
    table.arrays(store)
    reach, stamp = table.reach, store.bodies.stamp
    for x, y, z, size in points:
        p = 4.0 * np.array([x, y, z])
        within = np.all((reach[:, 0:3] - size <= p) & (p <= reach[:, 3:6] + size), axis=1)
        expected = bool(np.any(within & (stamp > since) & (np.arange(3) != skip)))
        assert table.near(store, since, skip, *p.tolist(), size) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(_MOVE, min_size=3, max_size=3), st.tuples(_UNIT, _UNIT, _UNIT),
       st.floats(0.05, 0.6))
def test_push_leaves_out_only_bodies_whose_sweep_never_meets_the_capsule(moves, at, radius):
    # push_from_bodies skips a body whose primitives are all farther than their growth
    # from the capsule; the sweep of each body alone (carry3d.swept) agrees on every body
    # that met it and on the sum of their pushes.
    world = _moved_bodies(moves)
    store = world._store
    packed = store.pack()
    centre = 2.0 * np.array(at) + (0.0, 1.0, 0.0)
    half = 0.5
    tol = world._tolerances()
    scratch = sidestep.kernels3d.world.scratch()
    table = carry3d.table(store)
    state = frame_state(packed, np.zeros(BODY_SIZE), *scratch, np.zeros((16, CONTACT_FIELDS)))
    dx, dy, dz, pushers = table.push(store, packed, state, 0, -1, False, *centre.tolist(),
                                     radius + half + 2.0 * tol[0], radius, half, 1,
                                     (*tol, world._max_iterations))
    if pushers is None:                     # no reach box near it
        pushers = np.zeros(0, dtype=np.int64)
    met, total = [], np.zeros(3)
    for b in range(3):
        end, hit = carry3d.swept(packed, store.bodies, b, centre, radius, half, 1, tol,
                                 world._max_iterations, scratch)
        if hit:
            met.append(b)
            total += end - centre
    assert sorted(pushers.tolist()) == met
    np.testing.assert_allclose([dx, dy, dz], total, atol=1e-12)


def test_a_door_on_a_layer_a_character_masks_out_sweeps_past_it_but_pushes_the_other():
    # Two characters share the frame's bodies table, each through its own mask.
    from sidestep import layers
    world = _ground()
    door = world.add_body(world.add_boxes([(-0.05, 0.0, -1.0)], [(0.05, 2.0, 1.0)], layer=3))
    ghost = sidestep.Character(world, (0.5, 0.0, -3.0), 0.3, 1.8,
                               mask=layers.ALL & ~layers.bits(3))
    hero = sidestep.Character(world, (0.5, 0.0, 3.0), 0.3, 1.8)
    for k in range(1, 31):                  # the door slides 1.5 m along +x through both
        world.set_pose(door, (0.05 * k, 0.0, 0.0), dt=DT)
        ghost.update((0.0, 0.0, 0.0), DT)
        hero.update((0.0, 0.0, 0.0), DT)
        if k == 5:                          # both now stand in the door's path
            ghost.position = (0.5, 0.0, 0.0)
            hero.position = (0.8, 0.0, 0.6)
    assert ghost.position[0] == pytest.approx(0.5)             # the door passed through it
    assert hero.position[0] > 1.5 + 0.05 + 0.3 - 1e-6          # pushed ahead of the door


def test_crowd3d_pushed_by_a_sliding_door_makes_way_on_its_floor_only():
    # A door slides into a file of agents on the ground; two agents stand on a floor
    # above the file (their capsules far over it): the file makes way, one pushing the
    # next, and the agents upstairs are not pushed by the ones below.
    world = _ground()
    world.add_boxes([(0.5, 3.0, -1.0)], [(6.0, 3.2, 1.0)])             # the floor above
    door = world.add_body(world.add_boxes([(-0.05, 0.0, -1.0)], [(0.05, 2.0, 1.0)]))
    file = [(0.3 + 0.41 * k, 0.9 + 1e-3, 0.0) for k in range(4)]
    upstairs = [(0.71, 4.1 + 1e-3, 0.0), (1.12, 4.1 + 1e-3, 0.0)]
    crowd = sidestep.Crowd3D(world, file + upstairs, 0.2, 1.8)
    for k in range(1, 6):
        world.set_pose(door, (0.1 * k, 0.0, 0.0), dt=DT)
        ends = crowd.step(np.zeros((6, 3))).positions
        ground = ends[:4, [0, 2]]
        gaps = np.linalg.norm(ground[1:] - ground[:-1], axis=1) - 0.4
        assert gaps.min() >= -1e-6                          # pushed on, never onto each other
    np.testing.assert_array_equal(ends[4:], upstairs)       # nothing pushed them
    assert ends[0, 0] >= 0.5 + 0.05 + 0.2 - 1e-6            # clear of the door
