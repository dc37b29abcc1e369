"""``Character.update_many``: many characters' frame in one kernel call, bit for bit as
``update`` one by one (riding, pushed, squeezed, jumping, masked), on any thread count."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import character as character_module
from sidestep import layers, threads

DT = 1 / 30


def _about_y(angle):
    return (math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0)


def _level():
    """A small living level: ground, a wall, a turntable, a lift, a swinging door and a
    box on layer 3; returns ``(world, poses)``, ``poses(k)`` setting frame ``k``'s."""
    world = sidestep.World3D()
    world.add_boxes([(-12, -1, -12)], [(12, 0, 12)])
    world.add_boxes([(-6, 0, 4.0)], [(6, 3, 4.3)])                       # a wall at z = 4
    world.add_boxes([(-4, 0, -4)], [(-3, 1, -3)], layer=3)
    table = world.add_body(world.add_boxes([(-2, 0, -2)], [(2, 0.3, 2)]))
    lift = world.add_body(world.add_boxes([(4, 0, -2)], [(6, 0.2, 0)]))
    door = world.add_body(world.add_boxes([(0, 0, -0.05)], [(3, 2.5, 0.05)]))

    def poses(k, turn=0.05, rise=0.03):
        world.set_pose(table, (0.0, 0.0, 0.0), _about_y(turn * k), dt=DT)
        world.set_pose(lift, (0.0, min(rise * k, 2.0), 0.0), dt=DT)
        world.set_pose(door, (-2.0, 0.0, 2.5), _about_y(-0.12 * k), dt=DT)   # towards +z

    return world, poses


def _cast(world, starts, masks, radii):
    return [sidestep.Character(world, s, r, 1.8, mask=m) for s, m, r in zip(starts, masks, radii)]


def _state(c):
    return (c.position.tolist(), c.velocity.tolist(), c.stop, c.facing.tolist(), c.on_floor,
            c.vertical_speed, c.floor_obstacle, len(c.contacts))


def _twins(starts, masks, radii):
    """The same level and characters twice (one to update one by one, one in a batch)."""
    one, poses_one = _level()
    many, poses_many = _level()
    return (_cast(one, starts, masks, radii), poses_one, _cast(many, starts, masks, radii),
            poses_many)


_SPOT = st.tuples(st.floats(-8, 8), st.sampled_from([0.0, 0.3, 0.2, 1.0]), st.floats(-8, 3.5))
_WISH = st.tuples(st.floats(-6, 6), st.sampled_from([0.0, 0.0, 3.0]), st.floats(-6, 6))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_SPOT, st.booleans(), st.sampled_from([0.25, 0.3, 0.4])),
                min_size=1, max_size=8),
       st.lists(st.lists(st.tuples(_WISH, st.booleans()), min_size=8, max_size=8),
                min_size=6, max_size=6),
       st.floats(-0.4, 0.4), st.floats(-0.1, 0.1))
def test_update_many_equals_update_one_by_one_bit_for_bit(people, frames, turn, rise):
    starts = [p[0] for p in people]
    masks = [layers.ALL & ~layers.bits(3) if p[1] else layers.ALL for p in people]
    radii = [p[2] for p in people]
    one, poses_one, many, poses_many = _twins(starts, masks, radii)
    for k, wishes in enumerate(frames, start=1):
        poses_one(k, turn, rise)
        poses_many(k, turn, rise)
        v = np.array([w[0] for w in wishes[:len(one)]])
        for c, d, (_, jump) in zip(one, many, wishes):
            if jump:
                assert c.jump(3.0) == d.jump(3.0)
        stops = [c.update(tuple(x), DT) for c, x in zip(one, v.tolist())]
        assert sidestep.Character.update_many(many, v, DT).tolist() == stops
        assert [_state(c) for c in many] == [_state(c) for c in one]
        assert [_touches(c) for c in many] == [_touches(c) for c in one]


def _touches(c):
    return [(t.obstacle, t.part, t.kind, t.point.tolist(), t.normal.tolist())
            for t in c.contacts]


def _crowd_on(world, n, seed):
    rng = np.random.default_rng(seed)
    spots = rng.uniform(-7, 7, (n, 2))
    return [sidestep.Character(world, (x, 0.0, min(z, 3.5)), 0.3, 1.8) for x, z in spots]


def test_update_many_gives_the_same_frames_on_one_thread_and_on_two(monkeypatch):
    monkeypatch.setattr(character_module, "_BATCH_SERIAL", 2)      # threads from 2 rows on
    runs = []
    for count in (1, 2):
        previous = threads.set_threads(count)
        try:
            world, poses = _level()
            team = _crowd_on(world, 40, 3)
            rng = np.random.default_rng(4)
            for k in range(1, 25):
                poses(k)
                sidestep.Character.update_many(team, rng.uniform(-4, 4, (40, 3)) * (1, 0, 1),
                                               DT)
            runs.append([_state(c) for c in team])
        finally:
            threads.set_threads(previous)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("in_python", [False, True], ids=["batch", "one_by_one"])
def test_characters_ride_a_turning_platform_via_update_many(monkeypatch, in_python):
    world = sidestep.World3D()
    world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
    table = world.add_body(world.add_boxes([(-2, 0, -2)], [(2, 0.3, 2)]))
    riders = [sidestep.Character(world, (1.5, 0.3, 0.0), 0.3, 1.8),
              sidestep.Character(world, (-1.0, 0.3, 0.0), 0.3, 1.8)]
    walker = sidestep.Character(world, (6.0, 0.0, 0.0), 0.3, 1.8)
    for c in riders:
        c.facing = (1.0, 0.0, 0.0)
    team = riders + [walker]
    wishes = [(0, 0, 0), (0, 0, 0), (0, 0, 1.0)]
    if not in_python:
        # Riders ride in the batch kernel: no frame of update's own code.
        def refused(*args):
            raise AssertionError("a rider was finished one by one")
        monkeypatch.setattr(sidestep.Character, "_frame", refused)
    for k in range(1, 31):
        world.set_pose(table, (0, 0, 0), _about_y(0.05 * k), dt=DT)
        if in_python:
            stops = [c.update(w, DT) for c, w in zip(team, wishes)]
        else:
            stops = sidestep.Character.update_many(team, wishes, DT).tolist()
    assert stops == ["done", "done", "done"]
    for c, r in zip(riders, (1.5, -1.0)):
        x, _, z = c.position
        assert math.hypot(x, z) == pytest.approx(abs(r), abs=1e-6)
        assert math.atan2(-z * np.sign(r), x * np.sign(r)) == pytest.approx(1.5, abs=1e-6)
        np.testing.assert_allclose(c.facing, (math.cos(1.5), 0.0, -math.sin(1.5)), atol=1e-9)
        assert c.on_floor and c.floor_obstacle == 1
        # It keeps the platform's velocity: the chord of 0.05 rad about the centre a frame.
        speed = 2.0 * math.sin(0.025) * math.hypot(*c.position[[0, 2]]) / DT
        assert np.linalg.norm(c._inherited) == pytest.approx(speed, rel=1e-6)
    assert walker.position[2] == pytest.approx(1.0, abs=1e-9)     # walked 30 frames at 1 m/s


def test_characters_leaving_a_turntable_keep_its_velocity_in_the_batch(monkeypatch):
    # Riders jump off a turning platform and fly on with its velocity: those frames in the
    # air are walked in the batch kernel too (no frame of update's own code), and end bit
    # for bit where update one by one leaves its twins.
    def level():
        world = sidestep.World3D()
        world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
        table = world.add_body(world.add_boxes([(-2, 0, -2)], [(2, 0.3, 2)]))
        return world, table, [sidestep.Character(world, (x, 0.3, 0.0), 0.3, 1.8)
                              for x in (1.5, -1.0)]

    def refused(*args):
        raise AssertionError("a character in the air was finished one by one")

    one, table_one, riders_one = level()
    many, table_many, riders_many = level()
    asked = np.zeros((2, 3))
    for k in range(1, 31):
        for world, table in ((one, table_one), (many, table_many)):
            world.set_pose(table, (0, 0, 0), _about_y(0.2 * k), dt=DT)
        if k == 10:
            for c, d in zip(riders_one, riders_many):
                assert c.jump(4.0) and d.jump(4.0)
            left = [c.position[[0, 2]] for c in riders_many]
        if k >= 12:
            assert not any(c.on_floor for c in riders_many)
            monkeypatch.setattr(sidestep.Character, "_frame", refused)
        stops = sidestep.Character.update_many(riders_many, asked, DT).tolist()
        monkeypatch.undo()
        assert [c.update((0, 0, 0), DT) for c in riders_one] == stops
        assert [_state(c) for c in riders_many] == [_state(c) for c in riders_one]
        if k == 16:
            break
    for c, start in zip(riders_many, left):
        # Asking for nothing, flung on by the platform's velocity: 0.2 rad a frame at 1 to
        # 1.5 m from its centre is 6 to 9 m/s, 6 frames in the air (0.2 s).
        assert np.linalg.norm(c.position[[0, 2]] - start) > 1.0
    np.testing.assert_array_equal(asked, 0.0)       # the caller's array is left as it was


def test_characters_ride_a_lift_via_update_many():
    world = sidestep.World3D()
    world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
    lift = world.add_body(world.add_boxes([(-1.2, 0, -1.2)], [(1.2, 0.2, 1.2)]))
    team = [sidestep.Character(world, (x, 0.2, 0.0), 0.3, 1.8) for x in (-0.6, 0.6)]
    team.append(sidestep.Character(world, (5.0, 0.0, 0.0), 0.3, 1.8))   # beside it
    for k in range(1, 61):
        world.set_pose(lift, (0.0, 0.05 * k, 0.0), dt=DT)
        sidestep.Character.update_many(team, np.zeros((3, 3)), DT)
    for c in team[:2]:
        assert c.position[1] == pytest.approx(3.2, abs=1e-6) and c.on_floor
    assert team[2].position[1] == pytest.approx(0.0, abs=1e-6)


def test_a_door_swinging_into_characters_via_update_many_pushes_them_never_inside():
    world = sidestep.World3D()
    world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
    world.add_boxes([(-5, 0, 1.0)], [(5, 3, 1.3)])                       # a wall at z = 1
    door = world.add_body(world.add_boxes([(0, 0, -0.05)], [(3, 2.5, 0.05)]))
    team = [sidestep.Character(world, (x, 0.0, 0.6), 0.3, 1.8) for x in (1.0, 1.8, 2.6)]
    starts = [c.position for c in team]
    seen = set()
    for k in range(1, 12):
        world.set_pose(door, (0, 0, 0), _about_y(-0.05 * k), dt=DT)     # towards +z
        seen.update(sidestep.Character.update_many(team, np.zeros((3, 3)), DT).tolist())
        for c in team:
            assert c.position[2] <= 1.0 - 0.3 + 1e-6                    # never through the wall
            centre = c.position + (0.0, 0.9, 0.0)
            # Nothing within its radius (less a rounding): not the door, not the wall.
            assert world.overlapping(centre, 0.3 - 1e-6, 1.8 - 2e-6).tolist() == []
    assert "squeezed" in seen
    assert all(np.linalg.norm(c.position - s) > 0.05 for c, s in zip(team, starts))


def test_update_many_walks_characters_of_different_masks_each_through_its_own_world():
    world = sidestep.World3D()
    world.add_boxes([(-30, -1, -30)], [(30, 0, 30)])
    world.add_boxes([(1.0, 0.0, -5.0)], [(1.3, 3.0, 5.0)], layer=3)     # a wall on layer 3
    ghost = sidestep.Character(world, (0.0, 0.0, 0.0), 0.3, 1.8,
                               mask=layers.ALL & ~layers.bits(3))
    hero = sidestep.Character(world, (0.0, 0.0, 2.0), 0.3, 1.8)
    for _ in range(30):
        stops = sidestep.Character.update_many([ghost, hero], [(2.0, 0, 0), (2.0, 0, 0)], DT)
    assert ghost.position[0] == pytest.approx(2.0)                      # through the wall
    assert hero.position[0] == pytest.approx(1.0 - 0.3, abs=1e-3)       # stopped by it
    assert stops.tolist() == ["done", "blocked"]


def test_update_many_refuses_bad_input_and_moves_no_one():
    world, poses = _level()
    team = _crowd_on(world, 3, 1)
    other = sidestep.Character(sidestep.World3D(), (0, 0, 0), 0.3, 1.8)
    poses(1)
    before = [_state(c) for c in team]
    still = np.zeros((3, 3))
    cases = [((team[:2] + [other], still, DT), "characters"),
             ((team[:2] + [team[0]], still, DT), "characters"),
             ((team + ["hero"], np.zeros((4, 3)), DT), "characters"),
             ((team, np.zeros((2, 3)), DT), "velocities"),
             ((team, np.zeros((3, 2)), DT), "velocities"),
             ((team, np.zeros(3), DT), "velocities"),
             ((team, [(0, 0, 0), (0, math.nan, 0), (0, 0, 0)], DT), "velocities"),
             ((team, [(0, 0, 0), (math.inf, 0, 0), (0, 0, 0)], DT), "velocities"),
             ((team, still, -DT), "dt"), ((team, still, math.nan), "dt"),
             ((team, still, math.inf), "dt")]
    for args, name in cases:
        with pytest.raises(ValueError, match=name):
            sidestep.Character.update_many(*args)
        assert [_state(c) for c in team] == before
    assert sidestep.Character.update_many([], np.zeros((0, 3)), DT).shape == (0,)


def test_update_many_on_a_list_then_another_keeps_each_characters_state():
    # Characters moved from one call's stacked state to another's (and single updates
    # between) carry on as if updated one by one.
    one, poses_one = _level()
    many, poses_many = _level()
    a = _crowd_on(one, 6, 8)
    b = _crowd_on(many, 6, 8)
    rng = np.random.default_rng(2)
    for k in range(1, 16):
        poses_one(k)
        poses_many(k)
        v = rng.uniform(-3, 3, (6, 3)) * (1, 0, 1)
        pick = [0, 1, 2, 3, 4, 5] if k % 3 == 0 else [5, 3, 1] if k % 3 == 1 else [0, 2, 4]
        for i in pick:
            a[i].update(tuple(v[i]), DT)
        if k % 5 == 0:
            for i in pick:
                b[i].update(tuple(v[i]), DT)
        else:
            sidestep.Character.update_many([b[i] for i in pick], v[pick], DT)
        assert [_state(c) for c in b] == [_state(c) for c in a]
