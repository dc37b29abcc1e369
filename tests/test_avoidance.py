"""Local avoidance (``avoid=`` of Crowd.step and Crowd3D.step): named scenes, the
promise kept with it on, properties, bad input."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sidestep import Avoidance, Crowd, Crowd3D, World2D, World3D
from test_crowd import assert_step_keeps_the_promise, pair_gaps


def crossing_groups(n_side=10, spacing=0.7, gap=12.0):
    """Two square groups ``n_side`` a side facing each other ``2 * gap`` apart, and each
    agent's goal (its start mirrored to the other side)."""
    g = np.arange(n_side) * spacing
    west = np.stack(np.meshgrid(g - gap, g - g[-1] / 2), axis=-1).reshape(-1, 2)
    start = np.vstack([west, west * (-1.0, 1.0)])
    return start, start * (-1.0, 1.0)


def toward(goals, positions, speed):
    dv = goals - positions
    length = np.linalg.norm(dv, axis=1, keepdims=True)
    return np.where(length > speed, dv / np.maximum(length, 1e-12) * speed, dv)


# ------------------------------------------------------------------ named scenes
def test_head_on_pair_passes_with_avoidance_and_meets_without():
    for avoid, passed in ((False, False), (True, True)):
        crowd = Crowd(World2D(), [(-3.0, 0.0), (3.0, 0.0)], 0.4)
        for _ in range(40):
            before = crowd.positions.copy()
            crowd.step([(0.2, 0.0), (-0.2, 0.0)], avoid=avoid)
            assert_step_keeps_the_promise(crowd, before, crowd.positions)
        a, b = crowd.positions
        assert (a[0] > b[0]) == passed


def _turns_aside_at(speed, avoid):
    """How far apart two agents meeting head-on at ``speed`` a step are when they start
    to turn aside."""
    crowd = Crowd(World2D(), [(-10.0, 0.0), (10.0, 0.0)], 0.4)
    for _ in range(int(20.0 / speed)):
        crowd.step([(speed, 0.0), (-speed, 0.0)], avoid=avoid)
        a, b = crowd.positions
        if abs(a[1]) > 1e-3:
            return b[0] - a[0]
    raise AssertionError("they never turned aside")


def test_agents_turn_aside_as_far_ahead_at_any_frame_rate():
    # Twice the frame rate, half the step: by default the horizon follows the pace, so the
    # pair starts to turn aside as far apart; a horizon fixed in steps sees half as far.
    by_default = _turns_aside_at(0.2, True), _turns_aside_at(0.1, True)
    assert by_default[1] == pytest.approx(by_default[0], rel=0.1)
    fixed = [_turns_aside_at(speed, Avoidance(horizon=20.0)) for speed in (0.2, 0.1)]
    assert fixed[1] < 0.7 * fixed[0]


def test_two_groups_crossing_open_ground_get_further_with_avoidance():
    start, goals = crossing_groups()
    side = np.r_[np.ones(100), -np.ones(100)]
    crossed = {}
    for avoid in (False, True):
        crowd = Crowd(World2D(), start, 0.25)
        for _ in range(600):
            before = crowd.positions.copy()
            crowd.step(toward(goals, crowd.positions, 0.08), avoid=avoid)
            assert_step_keeps_the_promise(crowd, before, crowd.positions)
        crossed[avoid] = float(np.mean(crowd.positions[:, 0] * side > 0.0))
    # Without avoidance the fronts meet and press: almost none get by.
    assert crossed[False] < 0.2
    assert crossed[True] > 0.6


def test_groups_meeting_head_on_in_a_corridor_two_agents_wide_pass():
    world = World2D()
    world.add_walls([(-20.0, -0.56), (-20.0, 0.56)], [(20.0, -0.56), (20.0, 0.56)])
    x = -3.0 - 0.7 * np.arange(10)
    start = np.vstack([np.c_[x, np.where(np.arange(10) % 2, 0.2, -0.2)],
                       np.c_[-x, np.where(np.arange(10) % 2, -0.2, 0.2)]])
    heading = np.r_[np.ones(10), -np.ones(10)]
    d = np.c_[0.08 * heading, np.zeros(20)]
    for avoid, passed in ((False, 0.0), (True, 1.0)):
        crowd = Crowd(world, start, 0.25)
        for _ in range(600):
            before = crowd.positions.copy()
            crowd.step(d, avoid=avoid)
            assert_step_keeps_the_promise(crowd, before, crowd.positions)
        assert np.mean(crowd.positions[:, 0] * heading > 3.0) == passed


def door_groups(per_group=200, seed=3):
    """Two groups of ``per_group`` agents (radius 0.25) either side of a wall across x = 0
    with one 3 m door, 0.8 m apart on jittered grids; each goal is its start mirrored."""
    rng = np.random.default_rng(seed)
    g = np.stack(np.meshgrid(np.arange(-11.0, -1.0, 0.8), np.arange(-6.0, 6.01, 0.8)),
                 axis=-1).reshape(-1, 2)
    west = g[rng.choice(len(g), per_group, replace=False)]
    east = g[rng.choice(len(g), per_group, replace=False)] * (-1.0, 1.0)
    start = np.vstack([west, east]) + rng.uniform(-0.05, 0.05, (2 * per_group, 2))
    world = World2D()
    world.add_walls([(0.0, -10.0), (0.0, 1.5)], [(0.0, -1.5), (0.0, 10.0)])
    return world, start, start * (-1.0, 1.0)


def through_the_door(world, start, goals, avoid, steps):
    """The part of the agents on their goals' side of the door after ``steps`` steps, each
    walking 0.1 a step to the door's far side until through it, then to its goal; the
    crowd's promise checked every 10th step."""
    heading = np.sign(goals[:, 0])
    crowd = Crowd(world, start, 0.25)
    for k in range(steps):
        here = crowd.positions
        through = here[:, 0] * heading > 0.25
        target = np.where(through[:, None], goals, np.c_[heading, np.zeros(len(here))])
        before = here.copy()
        crowd.step(toward(target, here, 0.1), avoid=avoid)
        if k % 10 == 0:
            assert_step_keeps_the_promise(crowd, before, crowd.positions)
    return float(np.mean(crowd.positions[:, 0] * heading > 0.0))


def test_two_groups_of_200_pass_through_one_3_m_door_in_opposite_directions():
    world, start, goals = door_groups()
    crossed = {avoid: through_the_door(world, start, goals, avoid, 1200)
               for avoid in (False, True)}
    # Without avoidance both fronts fill the door and press; with it they form two lanes.
    assert crossed[False] < 0.1
    assert crossed[True] > 0.75


def test_a_crowd_walking_one_way_drains_a_door_with_lanes_off():
    # The crowds page's advice: agents funnelling into a door from both sides read each
    # other as oncoming, so a crowd walking one way passes faster with lanes=0 (measured:
    # all 200 by step 400 with it, 142-147 with the default lanes; seeds 3, 1, 5).
    world, start, goals = door_groups()
    west = slice(0, 200)                                # the west group alone
    crossed = {lanes: through_the_door(world, start[west], goals[west],
                                       Avoidance(lanes=lanes), 400)
               for lanes in (Avoidance().lanes, 0.0)}
    assert crossed[0.0] == 1.0
    assert crossed[0.0] >= crossed[Avoidance().lanes]


def test_agents_at_rest_stay_at_rest_with_avoidance():
    g = np.arange(10) * 1.0
    packed = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    crowd = Crowd(World2D(), packed, 0.5)               # every neighbour touching
    for _ in range(20):
        done = crowd.step(np.zeros((100, 2)), avoid=True)
    np.testing.assert_array_equal(crowd.positions, packed)
    assert done.resting.all()


def test_a_walker_in_free_space_walks_as_asked():
    # Its wish keeps clear of everyone: avoidance leaves it to the bit.
    ends = []
    for avoid in (False, True):
        crowd = Crowd(World2D(), [(0.0, 0.0), (0.0, 10.0)], 0.3)
        for _ in range(10):
            crowd.step([(0.1, 0.0), (0.0, 0.0)], avoid=avoid)
        ends.append(crowd.positions.copy())
    np.testing.assert_array_equal(ends[0], ends[1])
    assert ends[1][0, 0] == pytest.approx(1.0)


def test_an_agent_standing_in_a_walkers_way_steps_aside_and_the_walker_passes():
    # A horizon of 20 steps: the walker turns late enough that the standing one must help
    # (the default's 34 steps for this size and pace see it round alone).
    crowd = Crowd(World2D(), [(-3.0, 0.0), (0.0, 0.0)], 0.4)
    moved = []
    for _ in range(60):
        before = crowd.positions[1].copy()
        crowd.step([(0.1, 0.0), (0.0, 0.0)], avoid=Avoidance(horizon=20.0))
        moved.append(np.linalg.norm(crowd.positions[1] - before))
    walker, standing = crowd.positions
    assert walker[0] > 1.0                              # went round it
    assert abs(standing[1]) > 0.02                      # it stepped aside, across the way
    assert np.linalg.norm(standing) < 0.4               # a step aside, not carried off
    assert max(moved) <= 0.1 + 1e-9                     # never faster than the walker asks
    # Once the walker has passed it stands still again, to the bit.
    assert moved[-1] == 0.0


def test_agents_at_rest_make_way_only_for_walkers_coming_at_them():
    # A walker passing at a distance, going away from them: the resting agents stay put.
    rest = [(0.0, 2.0), (1.0, 2.0), (2.0, 2.0)]
    crowd = Crowd(World2D(), [(-3.0, 0.0), *rest], 0.3)
    for _ in range(60):
        crowd.step([(0.1, 0.0)] + [(0.0, 0.0)] * 3, avoid=True)
    np.testing.assert_array_equal(crowd.positions[1:], rest)
    assert crowd.positions[0, 0] > 2.5                  # and it went on past them


def test_a_heavy_agent_does_not_avoid_and_light_ones_make_way_ahead_of_it():
    crowd = Crowd(World2D(), [(-3.0, 0.0), (3.0, 0.05)], 0.4, weights=[np.inf, 1.0])
    for _ in range(30):
        crowd.step([(0.2, 0.0), (-0.2, 0.0)], avoid=True)
    heavy, light = crowd.positions
    assert heavy[1] == 0.0 and heavy[0] == pytest.approx(3.0)   # straight on, never slowed
    assert light[0] < heavy[0]                                   # the light one went round


def test_crowd3d_avoids_in_the_ground_plane():
    world = World3D()
    world.add_boxes([(-10, -1, -10)], [(10, 0, 10)])
    y = 0.91
    for avoid, passed in ((False, False), (True, True)):
        crowd = Crowd3D(world, [(-3.0, y, 0.0), (3.0, y, 0.0)], 0.4, 1.8)
        for _ in range(40):
            crowd.step([(0.2, -0.05, 0.0), (-0.2, -0.05, 0.0)], avoid=avoid)
        a, b = crowd.positions
        assert (a[0] > b[0]) == passed
        assert np.linalg.norm(a - b) >= 0.8 - 1e-6


# ------------------------------------------------------------------- properties
agents = st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.floats(-6, 6), st.floats(-6, 6)), min_size=n, max_size=n),
    st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=n, max_size=n),
    st.lists(st.floats(0.1, 0.8), min_size=n, max_size=n),
    st.lists(st.sampled_from([1.0, 1.0, 3.0, np.inf]), min_size=n, max_size=n)))


@settings(max_examples=40, deadline=None)
@given(agents, st.randoms(use_true_random=False))
def test_avoiding_steps_keep_the_promise_and_do_not_depend_on_order(spec, rnd):
    positions, displacements, radii, weights = (np.array(v, float) for v in spec)
    world = World2D()
    world.add_boxes([(-2.0, -2.0)], [(-1.0, 2.0)])
    crowd = Crowd(world, positions, radii, weights)
    moves = [displacements, np.roll(displacements, 1, axis=0)]
    for d in moves:
        before = crowd.positions.copy()
        done = crowd.step(d, avoid=True)
        assert_step_keeps_the_promise(crowd, before, done.positions)
        # Avoidance turns a wish, never lengthens it.
        most = 1.0625 * np.linalg.norm(d, axis=1).max() + 0.25 * radii.max()
        clear = world.clearance(before) >= radii
        moved = np.linalg.norm(done.positions - before, axis=1)
        assert np.all(moved[clear] <= most + 1e-9)
    assume(pair_gaps(positions, np.zeros(len(positions))).min() > 1e-6)
    order = list(range(len(positions)))
    rnd.shuffle(order)
    shuffled = Crowd(world, positions[order], radii[order], weights[order])
    for d in moves:
        again = shuffled.step(d[order], avoid=True)
    np.testing.assert_allclose(again.positions, done.positions[order], atol=1e-9)


def test_avoiding_does_not_depend_on_the_number_of_threads(monkeypatch):
    from sidestep import threads

    rng = np.random.default_rng(5)
    start = rng.uniform(-30, 30, (3000, 2))
    d = rng.normal(0, 0.3, (3000, 2))

    def two_steps():
        crowd = Crowd(World2D(), start, 0.3)
        crowd.step(d, avoid=True)
        return crowd.step(d, avoid=True).positions

    parallel = two_steps()
    monkeypatch.setattr(threads, "_workers", lambda: 1)
    np.testing.assert_array_equal(parallel, two_steps())


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs, match", [
    ({"horizon": 0.0}, "horizon"), ({"horizon": float("nan")}, "horizon"),
    ({"lanes": -0.1}, "lanes"), ({"neighbours": 0}, "neighbours"),
    ({"neighbours": 2.5}, "neighbours")])
def test_bad_avoidance_settings_are_refused_naming_them(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Avoidance(**kwargs)


def test_more_neighbours_than_the_crowd_has_avoids_them_all():
    # A setting beyond the crowd's size is the whole crowd, not buffers that size (10**9
    # neighbours asked for 40 GB a thread: a MemoryError).
    start, goals = crossing_groups(n_side=3)
    ends = []
    for neighbours in (len(start) - 1, 10**9):
        crowd = Crowd(World2D(), start, 0.3)
        for _ in range(30):
            crowd.step(toward(goals, crowd.positions, 0.1),
                       avoid=Avoidance(neighbours=neighbours))
        ends.append(crowd.positions.copy())
    np.testing.assert_array_equal(ends[0], ends[1])
    assert not np.array_equal(ends[0], start)


def test_bad_avoid_is_refused_and_the_crowd_is_unchanged():
    crowd = Crowd(World2D(), [(0.0, 0.0), (2.0, 0.0)], 0.4)
    with pytest.raises(TypeError, match="avoid"):
        crowd.step([(0.1, 0.0), (0.0, 0.0)], avoid="yes")
    np.testing.assert_array_equal(crowd.positions, [(0.0, 0.0), (2.0, 0.0)])


def test_a_held_agent_closes_up_behind_a_held_one_heading_its_way():
    # Two agents 1.15 times the sum of their radii apart, both asking to walk +x. Walking,
    # the one behind keeps 1.2 times (it slows); held (no motion last step), it presses up
    # to 1.1 times (a waiting crowd packs closer and leaves room for those coming out
    # against it), but not towards one held that heads the other way.
    from sidestep.avoidance import avoided

    positions = np.array([[0.0, 0.0], [0.575, 0.0]])
    radii, weights = np.full(2, 0.25), np.ones(2)
    east = np.array([[0.08, 0.0], [0.08, 0.0]])
    held = avoided(Avoidance(), positions, radii, weights, np.zeros((2, 2)), east)
    assert 0.0 < held[0, 0] <= 0.575 - 1.1 * 0.5 + 1e-12 and held[0, 1] == 0.0
    walking = avoided(Avoidance(), positions, radii, weights, east.copy(), east)
    assert walking[0, 0] < 0.08                             # slowed by the one ahead
    facing = np.array([[0.08, 0.0], [-0.08, 0.0]])
    against = avoided(Avoidance(), positions, radii, weights, np.zeros((2, 2)), facing)
    assert against[0, 0] <= 0.0                            # keeps clear of it


def test_an_agent_waiting_in_a_queue_keeps_to_its_right():
    # A file of three heading +x, the middle one held (it went an eighth of its wish last
    # step) between two held ones heading its way: it keeps to the right (-y), where a
    # crowd waiting at a door leaves the left to those coming out. Not when it did not
    # move at all (a crowd starting off walks off straight), nor without lanes.
    from sidestep.avoidance import avoided

    positions = np.array([[-0.6, 0.0], [0.0, 0.0], [0.6, 0.0]])
    radii, weights = np.full(3, 0.25), np.ones(3)
    east = np.tile([0.08, 0.0], (3, 1))
    creeping = np.tile([0.01, 0.0], (3, 1))
    queued = avoided(Avoidance(), positions, radii, weights, creeping, east)
    assert queued[1, 1] < -0.01 and queued[1, 0] > 0.0
    starting = avoided(Avoidance(), positions, radii, weights, np.zeros((3, 2)), east)
    assert starting[1, 1] == 0.0
    plain = avoided(Avoidance(lanes=0.0), positions, radii, weights, creeping, east)
    assert plain[1, 1] == 0.0
    facing = east.copy()
    facing[2] = (-0.08, 0.0)                    # the one ahead comes the other way
    meeting = avoided(Avoidance(), positions, radii, weights, creeping, facing)
    assert meeting[1, 1] <= 0.0                 # the oncoming rule's tilt, not the queue's
