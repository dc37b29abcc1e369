"""Agents on a moving 2D level: a body's motion over a frame is swept, never teleported
(:mod:`sidestep.kernels.carry`): it pushes the agents it meets ahead of it, at any speed,
and one it would push into a wall is left clear of the wall, ``squeezed``."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sidestep

GAP = 1e-9          # how far inside anything an agent may end (rounding)


def _blade(length=3.0, thickness=0.05):
    world = sidestep.World2D()
    blade = world.add_body(world.add_walls([(0.0, 0.0)], [(length, 0.0)], thickness))
    return world, blade


def test_door_swinging_into_an_agent_at_rest_pushes_it():
    world = sidestep.World2D()
    door = world.add_body(world.add_boxes([(0.0, -0.05)], [(2.0, 0.05)]))
    agent = sidestep.Agent(world, (1.5, 0.5), radius=0.3)
    for k in range(1, 11):
        world.set_pose(door, (0.0, 0.0), 0.1 * k)
        x, y = agent.step(0.0, 0.0)
        assert world.clearance((x, y)) >= 0.3 - GAP
    angle = math.atan2(y, x)
    assert angle > 1.0                       # swept round ahead of the door (at 1.0 rad)
    assert agent.stop != "squeezed"


def test_windmill_blade_at_half_a_radian_a_frame_never_passes_through():
    world, blade = _blade()
    agent = sidestep.Agent(world, (2.0, 0.4), radius=0.2)
    for k in range(1, 40):
        world.set_pose(blade, (0.0, 0.0), 0.5 * k)
        x, y = agent.step(0.0, 0.0)
        assert world.clearance((x, y)) >= 0.2 - GAP
        if math.hypot(x, y) > 3.0:
            break           # swept out to the blade's end: it may roll round the end now
        ahead = (math.atan2(y, x) - 0.5 * k) % (2 * math.pi)
        assert 0.0 < ahead < math.pi           # always on the side the blade turns to
    else:
        pytest.fail("the blade never flung the agent off its end")


def test_blade_moving_away_leaves_the_agent_where_it_is():
    world, blade = _blade()
    agent = sidestep.Agent(world, (1.5, -0.3), radius=0.2)   # behind the blade's turn
    for k in range(1, 5):
        world.set_pose(blade, (0.0, 0.0), 0.2 * k)
        assert agent.step(0.0, 0.0) == (1.5, -0.3)


def test_door_squeezing_an_agent_into_a_wall_leaves_it_clear_of_both():
    world = sidestep.World2D()
    wall = world.add_walls([(-5.0, 1.0)], [(5.0, 1.0)])[0]
    door = world.add_body(world.add_boxes([(0.0, -0.05)], [(3.0, 0.05)]))
    agent = sidestep.Agent(world, (1.5, 0.5), radius=0.3)
    stops = []
    for k in range(1, 12):
        world.set_pose(door, (0.0, 0.0), 0.05 * k)
        x, y = agent.step(0.0, 0.0)
        stops.append(agent.stop)
        assert y <= 1.0 - 0.3 + GAP            # never into the wall
        assert world.clearance((x, y)) >= 0.3 - GAP     # nor left inside the door
        assert float(np.min(world.segments()[0][wall, 1])) == 1.0
    assert "squeezed" in stops


def test_crowd_is_swept_by_a_bar_and_never_inside_it():
    world = sidestep.World2D()
    bar = world.add_body(world.add_walls([(-1.2, 0.0)], [(1.2, 0.0)], 0.05))
    rng = np.random.default_rng(4)
    starts = rng.uniform(-3, 3, (60, 2))
    starts = starts[np.abs(starts[:, 1]) > 0.4]
    crowd = sidestep.Crowd(world, starts, 0.15)
    for k in range(1, 80):
        world.set_pose(bar, (0.03 * k, 0.0), 0.2 * k)
        ends = crowd.step(np.zeros((len(starts), 2))).positions
        assert np.all(world.clearance(ends) >= 0.15 - GAP)


def test_agent_made_after_a_pose_is_not_swept_by_that_pose():
    world, blade = _blade()
    world.set_pose(blade, (0.0, 0.0), 1.0)                  # swept over (2, 0.4) already
    agent = sidestep.Agent(world, (2.0, -0.4), radius=0.2)
    assert agent.step(0.0, 0.0) == (2.0, -0.4)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.05, 1.2), st.floats(-0.6, 0.6), st.integers(0, 1000))
def test_no_speed_lets_a_turning_body_through_an_agent(turn, shift, seed):
    world, blade = _blade(length=2.5, thickness=0.02)
    rng = np.random.default_rng(seed)
    starts = rng.uniform(-2.5, 2.5, (40, 2))
    starts = starts[world.clearance(starts) > 0.12]
    agents = [sidestep.Agent(world, p, radius=0.1) for p in starts]
    for k in range(1, 12):
        world.set_pose(blade, (shift * k, 0.0), turn * k)
        for a in agents:
            x, y = a.step(0.0, 0.0)
            assert world.clearance((x, y)) >= 0.1 - GAP


def test_agents_near_no_moved_bar_are_left_as_a_sweep_of_every_agent_leaves_them():
    # The cells near no moved body (hot_cells) let a crowd's carry leave most agents with
    # one look: the ends and squeezes must be those of sweeping every agent.
    from sidestep.kernels import carry as kernel
    from sidestep.kernels import world as packed
    from sidestep.kernels.row_queue import row_queue
    from sidestep.storage import split_blob
    rng = np.random.default_rng(29)
    world = sidestep.World2D()
    bars = [world.add_body(i) for i in world.add_walls([(-1.2, 0.0)] * 40,
                                                       [(1.2, 0.0)] * 40, 0.05)]
    homes = rng.uniform(-18, 18, (40, 2))
    spin = rng.uniform(-3, 3, 40)
    world.set_poses(bars, homes, np.zeros(40))
    crowd = sidestep.Crowd(world, rng.uniform(-20, 20, (3000, 2)), 0.25)
    skin, margin, slack, min_motion = world._tolerances()
    met = 0
    for frame in range(1, 8):
        # The last 20 bars turn and slide; the first 20 stand still from here.
        world.set_poses(bars[20:], homes[20:] + 0.1 * frame, spin[20:] * frame / 30)
        store = world._store
        blob, seen, n = store.pack(), store.live(crowd._mask), len(crowd)
        reference = np.empty((n, 2))
        flags = np.zeros(n, dtype=np.uint8)
        kernel.carry_agents(blob, seen, crowd._positions, crowd._radii, float(crowd._since),
                            skin, margin, slack, min_motion, world._max_iterations,
                            np.zeros(0, dtype=np.uint8), reference, flags, row_queue(0, n, n))
        nx, ny = split_blob(blob)[0][[packed.H_MOVING_NX, packed.H_MOVING_NY]]
        hot = np.zeros(kernel.HOT_SPLIT ** 2 * int(nx) * int(ny), dtype=np.uint8)
        assert kernel.hot_cells(blob, seen, float(crowd._since), 0.25, skin, margin, hot)
        assert 0 < hot.mean() < 0.5                 # most cells cold
        squeezed = crowd._carried()
        np.testing.assert_array_equal(crowd.positions, reference)
        np.testing.assert_array_equal(squeezed, flags == 2)
        met += int((flags > 0).sum())
    assert met > 0                                  # the bars met agents


def _closest_gap(positions, radius):
    """The smallest gap between two agents of ``radius`` (negative: overlapping)."""
    d = np.linalg.norm(positions[:, None] - positions[None], axis=2)
    return float((d + np.eye(len(positions)) * 1e9).min() - 2.0 * radius)


def test_bar_sweeping_a_file_of_agents_pushes_them_on_never_onto_each_other():
    # Four agents in a file ahead of a turning bar: the bar carries the first into the
    # second, which must make way, and so on down the file, within the frame (the step
    # alone let the bar pile them up 0.21 deep: 0.4 m discs half on top of each other).
    world, blade = _blade(thickness=0.05)
    starts = np.array([(1.5, 0.3 + 0.41 * k) for k in range(4)])
    crowd = sidestep.Crowd(world, starts, 0.2)
    for k in range(1, 8):
        world.set_pose(blade, (0.0, 0.0), 0.15 * k)
        ends = crowd.step(np.zeros((4, 2))).positions
        assert np.all(world.clearance(ends) >= 0.2 - GAP)
        # Pushed on along the file to contact (the pushes go straight along the lines
        # between centres, and a file bent by the turn leaves millimetres).
        assert _closest_gap(ends, 0.2) >= -0.005
    assert ends[3, 1] > starts[3, 1] + 0.3                 # the last was pushed on too


def test_crowd_swept_by_bars_keeps_apart_where_it_has_room():
    # Bars turning and sliding through a loose crowd in open space: every agent a bar
    # carries into a neighbour pushes it on, so no pair is left overlapping.
    rng = np.random.default_rng(11)
    world = sidestep.World2D()
    bars = [world.add_body(i) for i in world.add_walls([(-1.2, 0.0)] * 6, [(1.2, 0.0)] * 6,
                                                       0.05)]
    homes = rng.uniform(-6, 6, (6, 2))
    spin = rng.uniform(-0.3, 0.3, 6)
    world.set_poses(bars, homes, np.zeros(6))
    starts = rng.uniform(-8, 8, (400, 2))
    starts = starts[world.clearance(starts) > 0.3]
    keep = []
    for p in starts:
        if all(np.hypot(*(p - q)) > 0.45 for q in keep):
            keep.append(p)
    crowd = sidestep.Crowd(world, np.array(keep), 0.2)
    for frame in range(1, 40):
        world.set_poses(bars, homes + 0.05 * frame, spin * frame)
        st = crowd.step(np.zeros((len(keep), 2)))
        assert np.all(world.clearance(st.positions) >= 0.2 - GAP)
        assert _closest_gap(st.positions, 0.2) >= -0.01, frame


def test_agent_pushed_against_a_wall_by_a_carried_neighbour_is_squeezed():
    # A door slides into an agent, which pushes the one ahead of it against a wall: that one
    # cannot make way, is said to be squeezed, and stays clear of the wall (the two may be
    # left overlapping: there is no room).
    world = sidestep.World2D()
    world.add_walls([(2.0, -3.0)], [(2.0, 3.0)])
    door = world.add_body(world.add_boxes([(-0.1, -1.0)], [(0.0, 1.0)]))
    crowd = sidestep.Crowd(world, [(0.5, 0.0), (1.5, 0.0)], 0.2)
    stops = []
    for k in range(1, 11):              # the door stops 0.35 m short of the wall
        world.set_pose(door, (0.15 * k, 0.0), 0.0)
        st = crowd.step(np.zeros((2, 2)))
        stops.append(st.stop[1])
        assert np.all(world.clearance(st.positions) >= 0.2 - GAP)
        assert st.positions[1, 0] <= 2.0 - 0.2 + GAP
    assert stops[:7] == ["done"] * 7 and stops[7:] == ["squeezed"] * 3
