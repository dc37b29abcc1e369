"""Crowds: agents that collide with each other; named cases, properties, a real workload."""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numba.core import types

import sidestep
from sidestep import Crowd, World2D
from sidestep.tolerances import PROMISE, SKIN

W2 = Path(__file__).resolve().parents[2] / "shared" / "bench" / "worlds" / "w2_crowd.npz"


def pair_gaps(positions, radii):
    """``(n, n)`` gap of every pair (distance less both radii), an independent O(n^2) reference."""
    d = np.hypot(positions[:, None, 0] - positions[None, :, 0],
                 positions[:, None, 1] - positions[None, :, 1])
    gaps = d - radii[:, None] - radii[None, :]
    np.fill_diagonal(gaps, np.inf)
    return gaps


def assert_step_keeps_the_promise(crowd, before, after, start=None, end=None):
    """Pairs apart at the start stay apart (to the skin); nobody who started clear of the
    world enters an obstacle. ``start`` and ``end``: the pairs' gaps before and after
    (:func:`pair_gaps`), when the caller has them already."""
    r = crowd.radii
    start = pair_gaps(before, r) if start is None else start
    end = pair_gaps(after, r) if end is None else end
    apart = start >= -SKIN
    assert np.all(end[apart] >= -SKIN), end[apart].min()
    overlapping = ~apart & np.isfinite(start)
    assert np.all(end[overlapping] >= start[overlapping] - PROMISE)   # never closer
    world = crowd._world
    if world.bounds is not None:
        clear = world.clearance(before) >= r
        assert np.all(world.clearance(after)[clear] >= r[clear] - PROMISE)


def run(crowd, displacements, steps, mode="slide"):
    for _ in range(steps):
        before = crowd.positions.copy()
        done = crowd.step(displacements, mode)
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
    return done


# ------------------------------------------------------------------ named cases
@pytest.mark.parametrize("per_step", [1, 10, 100])
def test_head_on_pair_never_overlaps_nor_swaps(per_step):
    r = 0.5
    crowd = Crowd(World2D(), [(-3.0, 0.0), (3.0, 0.0)], r)
    d = np.array([(per_step * r, 0.0), (-per_step * r, 0.0)])
    done = run(crowd, d, 10)
    a, b = crowd.positions
    assert a[0] < b[0]                                     # never passed each other
    assert np.linalg.norm(b - a) == pytest.approx(2 * r, abs=1e-6)   # met and stopped
    assert done.touching.tolist() == [[0, 1]]


def test_corridor_one_agent_wide_two_meet_and_stop():
    world = World2D()
    world.add_walls([(-10.0, 0.51), (-10.0, -0.51)], [(10.0, 0.51), (10.0, -0.51)])
    crowd = Crowd(world, [(-5.0, 0.0), (5.0, 0.0)], 0.5)
    done = run(crowd, np.array([(0.7, 0.0), (-0.7, 0.0)]), 20)
    a, b = crowd.positions
    assert a[0] < b[0] and b[0] - a[0] == pytest.approx(1.0, abs=1e-6)
    assert set(done.stop) == {"blocked"}


def test_heavy_agent_passes_through_a_resting_block_of_400():
    g = np.arange(20) * 1.5                       # half a metre between neighbours
    block = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2) + (5.0, -g[-1] / 2)
    crowd = Crowd(World2D(), np.vstack([[(0.0, 0.0)], block]), 0.5,
                  weights=np.r_[np.inf, np.ones(400)])
    d = np.zeros((401, 2))
    d[0] = (0.25, 0.0)
    for _ in range(200):
        before = crowd.positions.copy()
        crowd.step(d)
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
    assert crowd.positions[0, 0] > 5.0 + g[-1] + 0.5      # out the far side
    assert crowd.positions[0, 1] == 0.0                   # never pushed off its line


def test_heavy_agent_gets_through_a_packed_block_with_room_to_spare():
    # 400 agents 5 cm apart in a corridor with 2 m to spare: the push travels through the
    # block within each step (kernels.push), the agents ahead make way in turn, and the
    # heavy agent walks out the far side on its line; nobody overlaps, nobody enters a wall.
    g = np.arange(20) * 1.05
    block = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2) + (5.0, -g[-1] / 2)
    half = g[-1] / 2 + 0.5 + 1.0
    world = World2D()
    world.add_walls([(-5.0, -half), (-5.0, half)], [(40.0, -half), (40.0, half)])
    crowd = Crowd(world, np.vstack([[(0.0, 0.0)], block]), 0.5,
                  weights=np.r_[np.inf, np.ones(400)])
    d = np.zeros((401, 2))
    d[0] = (0.25, 0.0)
    for _ in range(300):
        before = crowd.positions.copy()
        crowd.step(d)
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
    assert crowd.positions[0, 0] > 5.0 + g[-1] + 0.5      # out the far side
    assert abs(crowd.positions[0, 1]) < 1e-5              # on its line


def test_heavy_agent_is_held_where_there_is_no_room():
    # A dead end one agent wide, ten agents 2 cm apart in it: the push closes the gaps and
    # then the heavy agent is held; nobody is pushed into the end wall or another agent.
    world = World2D()
    world.add_walls([(-3.0, -0.51), (-3.0, 0.51), (12.0, -0.51)],
                    [(12.0, -0.51), (12.0, 0.51), (12.0, 0.51)])
    line = np.column_stack([0.5 + 1.02 * np.arange(10), np.zeros(10)])   # to x = 9.68
    crowd = Crowd(world, np.vstack([[(-1.5, 0.0)], line]), 0.5,
                  weights=np.r_[np.inf, np.ones(10)])
    d = np.zeros((11, 2))
    d[0] = (0.2, 0.0)
    for _ in range(100):
        before = crowd.positions.copy()
        crowd.step(d)
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
    x = crowd.positions[:, 0]
    assert x.max() <= 11.5 + 1e-9                         # the last one at the end wall
    assert x[0] == pytest.approx(11.5 - 10.0, abs=0.01)   # held: ten diameters short of it


def test_equal_weights_share_the_way():
    crowd = Crowd(World2D(), [(0.0, 0.0), (1.0, 0.0)], 0.5)
    crowd.step([(0.4, 0.0), (0.0, 0.0)])         # the first one walks into the second
    done = crowd.step([(0.4, 0.0), (0.0, 0.0)])
    assert crowd.positions[1, 0] > 1.0             # the second made way
    assert done.positions[1, 0] - done.positions[0, 0] >= 1.0 - SKIN


def test_infinite_weight_is_never_pushed_and_pushes_along_walls_never_into_them():
    world = World2D()
    world.add_walls([(-5.0, -0.6)], [(5.0, -0.6)])
    crowd = Crowd(world, [(0.0, 0.0), (-2.0, -0.05)], 0.5, weights=[np.inf, 1.0])
    for _ in range(40):
        before = crowd.positions.copy()
        crowd.step([(0.0, 0.0), (0.3, 0.0)])       # the light one walks into the wall of a player
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
        assert crowd.positions[0].tolist() == [0.0, 0.0]
    crowd2 = Crowd(world, [(0.0, 0.0), (1.05, 0.0)], 0.5, weights=[np.inf, 1.0])
    for _ in range(40):
        before = crowd2.positions.copy()
        crowd2.step([(0.2, 0.0), (0.0, 0.0)])      # the player pushes the other along
        assert_step_keeps_the_promise(crowd2, before, crowd2.positions)
    assert crowd2.positions[1, 0] > crowd2.positions[0, 0] + 1.0 - SKIN
    assert crowd2.positions[0, 0] > 4.0


def test_a_walker_pushed_from_behind_goes_no_faster_than_the_fastest_plus_separation():
    # A player (infinite weight) 5 cm behind a walker, both going the same way at the
    # same pace: the walker is pushed (its push counts as walking away, so the player
    # follows it from the very first step and is never held), and makes way no faster
    # than the step's largest displacement (rounded up by at most a sixteenth) plus
    # separation.
    crowd = Crowd(World2D(), [(0.0, 0.0), (0.65, 0.0)], 0.3, weights=[np.inf, 1.0],
                  separation=0.05)
    most = 1.0625 * 0.2 + 0.05
    moves = []
    for _ in range(30):
        before = crowd.positions.copy()
        crowd.step([(0.2, 0.0), (0.2, 0.0)])
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
        moves.append(np.linalg.norm(crowd.positions - before, axis=1))
    moves = np.array(moves)
    np.testing.assert_allclose(moves[:, 0], 0.2, atol=1e-12)   # never held back
    assert np.all(moves[:, 1] <= most + 1e-12)                 # capped
    assert crowd.positions[1, 0] - crowd.positions[0, 0] >= 0.6 - SKIN


@pytest.mark.parametrize("weights", [[np.inf, 1.0], [1.0, 1.0]])
def test_pushing_along_a_wall_into_a_neighbour_never_stops_dead(weights):
    # An agent walks along a wall, pressing into it a little, into a neighbour ahead: the
    # world's slide turns its clipped motion along the wall and out of its cell, and the
    # retry clipped to the cell presses into the wall again. It goes on along the wall
    # as far as its cell allows (it stopped dead 17 and 20 steps of the 30, and got to
    # x = 2.2 and 1.5).
    world = World2D()
    world.add_walls([(-5.0, -0.6)], [(15.0, -0.6)])
    crowd = Crowd(world, [(0.0, 0.0), (1.05, 0.0)], 0.5, weights=weights)
    stops = []
    for _ in range(30):
        before = crowd.positions.copy()
        done = crowd.step([(0.2, -0.02), (0.0, 0.0)])
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
        stops.append(done.stop[0])
    assert "blocked" not in stops
    assert crowd.positions[0, 0] > 2.3


@pytest.mark.parametrize("n, steps, left", [(50, 600, 0.01), (1000, 300, 0.1)])
def test_agents_spawned_on_one_point_separate(n, steps, left):
    crowd = Crowd(World2D(), np.zeros((n, 2)), 0.3, separation=0.05)
    overlapping = [n * (n - 1) // 2]
    gaps = pair_gaps(crowd.positions, crowd.radii)
    for _ in range(steps):
        before = crowd.positions.copy()
        crowd.step(np.zeros((n, 2)))
        after = pair_gaps(crowd.positions, crowd.radii)       # once a step (O(n^2))
        assert_step_keeps_the_promise(crowd, before, crowd.positions, gaps, after)
        assert np.linalg.norm(crowd.positions - before, axis=1).max() <= 0.05 + 1e-9
        overlapping.append(int((after < -SKIN).sum()) // 2)
        gaps = after
    assert overlapping[-1] <= left * overlapping[0]
    assert all(b <= a for a, b in zip(overlapping, overlapping[1:]))   # never more


def test_mixed_radii_through_a_doorway():
    world = World2D()
    world.add_walls([(0.0, -20.0), (0.0, 1.5)], [(0.0, -1.5), (0.0, 20.0)], clearance=0.1)
    rng = np.random.default_rng(3)
    radii = rng.uniform(0.2, 0.6, 60)
    rows = np.arange(60)
    start = np.column_stack([-2.0 - 1.4 * (rows // 6), -3.5 + 1.4 * (rows % 6)])
    crowd = Crowd(world, start, radii)
    goal = np.array([6.0, 0.0])
    for _ in range(300):
        gap = goal - crowd.positions
        step = 0.15 * gap / np.maximum(np.linalg.norm(gap, axis=1), 1e-9)[:, None]
        before = crowd.positions.copy()
        crowd.step(step)
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
    assert (crowd.positions[:, 0] > 0.0).sum() > 30           # most got through


def test_a_resting_group_does_not_jiggle():
    g = np.arange(10) * 1.0
    packed = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    crowd = Crowd(World2D(), packed, 0.5)           # every neighbour touching
    for _ in range(20):
        done = crowd.step(np.zeros((100, 2)))
    np.testing.assert_array_equal(crowd.positions, packed)
    assert set(done.stop) == {"done"}


def test_a_move_cut_short_within_the_skin_settles():
    # Pressed into a neighbour that a wall holds: each step takes half of what is left of
    # the gap (equal weights) until that half is within the skin; then the agent stays,
    # at rest to the bit, two skins at most off touching (unsettled, it crept on by ever
    # smaller halves, down to the least motion: moving still after 20 steps).
    world = World2D()
    world.add_walls([(2.0, -5.0)], [(2.0, 5.0)])
    crowd = Crowd(world, [(0.0, 0.0), (1.4, 0.0)], 0.5)
    d = np.array([(0.3, 0.0), (0.3, 0.0)])
    run(crowd, d, 20)
    gap = np.linalg.norm(crowd.positions[1] - crowd.positions[0]) - 1.0
    assert 0.0 <= gap <= 2.0 * SKIN
    settled = crowd.positions.copy()
    done = crowd.step(d)
    assert done.resting.all() and list(done.stop) == ["blocked", "blocked"]
    np.testing.assert_array_equal(crowd.positions, settled)


def test_a_move_within_the_skin_asked_for_is_taken():
    # Only a move cut short settles: one asked for, however short, is taken.
    crowd = Crowd(World2D(), [(0.0, 0.0), (5.0, 0.0)], 0.5)
    done = crowd.step([(0.3 * SKIN, 0.0), (0.0, -0.3 * SKIN)])
    np.testing.assert_array_equal(crowd.positions, [(0.3 * SKIN, 0.0), (5.0, -0.3 * SKIN)])
    assert list(done.stop) == ["done", "done"]


def test_block_mode_stays_when_the_move_would_take_more_than_its_share():
    crowd = Crowd(World2D(), [(0.0, 0.0), (1.2, 0.0)], 0.5)
    crowd.step([(0.08, 0.0), (0.0, 0.0)], mode="block")      # within its half of 0.2
    assert crowd.positions[0, 0] == pytest.approx(0.08)
    done = crowd.step([(0.08, 0.0), (0.0, 0.0)], mode="block")   # more than half of 0.12
    assert crowd.positions[0, 0] == pytest.approx(0.08) and done.stop[0] == "blocked"


def test_ghost_mode_is_move_many():
    world = World2D()
    world.add_circles([(2.0, 0.0)], 0.5)
    start = np.array([(0.0, 0.0), (0.5, 0.0)])
    d = np.array([(3.0, 0.1), (-1.0, 0.0)])
    crowd = Crowd(world, start, 0.3)
    done = crowd.step(d, mode="ghost")
    np.testing.assert_array_equal(done.positions, world.move_many(start, d, radius=0.3))


# ------------------------------------------------------------------- properties
agents = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.floats(-8, 8), st.floats(-8, 8)), min_size=n, max_size=n),
    st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=n, max_size=n),
    st.lists(st.floats(0.1, 1.0), min_size=n, max_size=n),
    st.lists(st.sampled_from([1.0, 1.0, 3.0, np.inf]), min_size=n, max_size=n)))


@given(agents, st.randoms(use_true_random=False))
def test_random_steps_keep_pairs_apart_and_do_not_depend_on_order(spec, rnd):
    positions, displacements, radii, weights = (np.array(v, float) for v in spec)
    world = World2D()
    world.add_boxes([(-2.0, -2.0)], [(-1.0, 2.0)])
    world.add_walls([(-12.0, -12.0)], [(12.0, -12.0)])
    crowd = Crowd(world, positions, radii, weights)
    before = crowd.positions.copy()
    done = crowd.step(displacements)
    assert_step_keeps_the_promise(crowd, before, done.positions)
    # No agent moves more than the largest displacement (rounded up by at most a
    # sixteenth) plus the separation (a quarter of the largest radius), but one leaving
    # an obstacle it started in.
    most = 1.0625 * np.linalg.norm(displacements, axis=1).max() + 0.25 * radii.max()
    clear = world.clearance(before) >= radii
    moved = np.linalg.norm(done.positions - before, axis=1)
    assert np.all(moved[clear] <= most + 1e-9), (moved[clear].max(), most)
    # Agents at the very same point leave along headings fixed by their
    # indices (module docs): order matters only for them.
    assume(pair_gaps(positions, np.zeros(len(positions))).min() > 1e-9)
    order = list(range(len(positions)))
    rnd.shuffle(order)
    shuffled = Crowd(world, positions[order], radii[order], weights[order])
    again = shuffled.step(displacements[order])
    np.testing.assert_allclose(again.positions, done.positions[order], atol=1e-9)


def test_the_answer_does_not_depend_on_the_number_of_threads(monkeypatch):
    from sidestep import threads

    rng = np.random.default_rng(5)
    start = rng.uniform(-30, 30, (3000, 2))
    d = rng.normal(0, 0.5, (3000, 2))
    world = World2D()
    world.add_circles(rng.uniform(-30, 30, (200, 2)), 0.7)
    parallel = Crowd(world, start, 0.3).step(d).positions
    monkeypatch.setattr(threads, "_workers", lambda: 1)
    serial = Crowd(world, start, 0.3).step(d).positions
    np.testing.assert_array_equal(parallel, serial)


# ------------------------------------------------------------------- bookkeeping
def test_ids_stay_with_agents_across_removals_and_views_are_read_only():
    crowd = Crowd(World2D(), [(0, 0), (3, 0), (6, 0)], 0.5)
    crowd.remove([1])
    assert crowd.ids.tolist() == [0, 2] and len(crowd) == 2
    assert crowd.add([(9, 0)], 0.5).tolist() == [3]
    with pytest.raises(ValueError):
        crowd.positions[0, 0] = 5.0
    with pytest.raises(KeyError, match="no agent with id 1"):
        crowd.remove([1, 2])
    assert crowd.ids.tolist() == [0, 2, 3]          # nothing removed after the error


def test_bad_input_is_refused_naming_it():
    world = World2D()
    with pytest.raises(TypeError, match="World2D"):
        Crowd(sidestep.World3D(), [(0, 0)], 0.5)
    with pytest.raises(ValueError, match="radii"):
        Crowd(world, [(0, 0)], -0.5)
    with pytest.raises(ValueError, match="weights"):
        Crowd(world, [(0, 0)], 0.5, weights=0.0)
    crowd = Crowd(world, [(0, 0), (2, 0)], 0.5)
    with pytest.raises(ValueError, match="displacements"):
        crowd.step([(0, 0)])
    with pytest.raises(ValueError, match="displacements"):
        crowd.step([(np.nan, 0), (0, 0)])
    with pytest.raises(ValueError, match="mode"):
        crowd.step([(0, 0), (0, 0)], mode="push")
    assert crowd.positions.tolist() == [[0, 0], [2, 0]]


def test_read_only_displacements_move_as_writable_ones_without_a_new_compile():
    from sidestep.kernels import crowd as kernels
    world = World2D()
    world.add_walls([(3.0, -5.0)], [(3.0, 5.0)])
    start = [(0.0, 0.0), (1.0, 0.2), (0.5, -1.0)]
    d = np.tile([0.4, 0.05], (3, 1))
    frozen = d.copy()
    frozen.flags.writeable = False
    ends = {}
    for name, wish in (("writable", d), ("read-only", frozen)):
        crowd = Crowd(world, start, 0.3)
        for _ in range(12):
            crowd.step(wish)
        ends[name] = crowd.positions.copy()
    assert np.array_equal(ends["writable"], ends["read-only"])
    assert ends["writable"][:, 0].max() <= 3.0 - 0.3 + PROMISE
    for kernel in (kernels.crowd_step, kernels.step_figures):     # no read-only version
        assert all(arg.mutable for sig in kernel.signatures for arg in sig
                   if isinstance(arg, types.Array))


# ------------------------------------------------------------------ a real workload
@pytest.mark.skipif(not W2.is_file(), reason="../shared/bench is not present")
def test_w2_crowd_with_agent_collisions_keeps_the_promise():
    w = np.load(W2)
    world = World2D()
    world.add_circles(w["circles"][:, :2], w["circles"][:, 2])
    world.add_walls(w["segments"][:, :2], w["segments"][:, 2:])
    radius = float(w["agent_radius"])
    start = w["agents"]
    free = world.clearance(start) >= radius
    crowd = Crowd(world, start[free], radius)
    before = crowd.positions.copy()
    crowd.step(w["disp"][free])
    r = crowd.radii
    # Pairs that started apart stay apart (a grid reference, as n^2 is too big).
    assert np.all(world.clearance(crowd.positions) >= radius - PROMISE)
    from sidestep.kernels.crowd import grid_agents, touching_pairs
    start_pairs = {tuple(p) for p in touching_pairs(before, r, *grid_agents(before, 4 * radius),
                                                    -SKIN)}
    end_pairs = touching_pairs(crowd.positions, r, *grid_agents(crowd.positions, 4 * radius),
                               -SKIN)
    assert all(tuple(p) in start_pairs for p in end_pairs)


# ------------------------------------------------------------------- sidestep walk --crowd
def test_walk_with_crowd_keeps_agents_apart_where_move_many_lets_them_overlap():
    from sidestep.commands.walk import walk

    world = World2D()
    world.add_walls([(-10, -3), (-10, 3)], [(10, -3), (10, 3)])
    starts = np.array([(-6.0, y) for y in (-1.5, 0.0, 1.5)] + [(6.0, y) for y in (-1.4, 0.1, 1.6)])
    goals = starts * (-1.0, 1.0)
    apart = walk(world, starts, goals=goals, radius=0.5, speed=0.3, steps=80, crowd=True)
    through = walk(world, starts, goals=goals, radius=0.5, speed=0.3, steps=80)
    assert apart.summary()["agent_overlaps"] == 0 and apart.summary()["crowd"]
    assert through.summary()["agent_overlaps"] > 0
    assert apart.walked_gaps.min() >= -PROMISE


def test_walk_crowd_command_draws_the_touching_agents(tmp_path, capsys):
    from sidestep import cli

    level = tmp_path / "hall.json"
    sidestep.save(_hall(), level, spawns=[(-6.0, 0.0), (6.0, 0.0)])
    gif = tmp_path / "walk.gif"
    assert cli.main(["walk", str(level), "--agents", "12", "--radius", "0.5", "--steps", "40",
                     "--crowd", "--gif", str(gif)]) == 0
    out = capsys.readouterr().out
    assert "a crowd: agents came to overlap 0 times" in out
    assert gif.read_bytes()[:6] == b"GIF89a"
    with pytest.raises(SystemExit):
        cli.main(["walk", str(level), "--crowd", "--mode", "push", "--radius", "0.5"])
    assert "mode" in capsys.readouterr().err


def _hall():
    world = World2D()
    world.add_walls([(-10, -4), (-10, 4), (-10, -4), (10, -4)],
                    [(10, -4), (10, 4), (-10, 4), (10, 4)])
    return world


def test_sliding_along_a_wall_into_a_resting_agent_never_creeps_past_the_skin():
    # One agent slides up a wall into another that stands still against it, step
    # after step: the world's slide ends a hair off the line it was asked for, and
    # that allowance must not add up over the steps.
    world = World2D()
    world.add_walls([(0.0, -50.0)], [(0.0, 50.0)])
    crowd = Crowd(world, [(0.5 + 2e-6, 0.0), (0.5 + 2e-6, 1.0 + 1e-7)], 0.5)
    for _ in range(2000):
        before = crowd.positions.copy()
        crowd.step([(-0.05, 0.1), (-0.05, 0.0)])
        assert_step_keeps_the_promise(crowd, before, crowd.positions)
        assert pair_gaps(crowd.positions, crowd.radii).min() >= -0.5 * SKIN


def test_an_overlapping_agent_is_not_refused_its_clipped_motion_for_rounding():
    # Agent 1 overlaps a neighbour (that pair's bound is 0); its wish clipped to its cell,
    # worked out apart, lands on that bound with v . n = 2e-16: rounding, not a way out of
    # the cell. It used to be refused, and the agent stayed.
    rng = np.random.default_rng(11)
    start = rng.uniform(-8, 8, (200, 2))
    d = rng.normal(0, 0.6, (200, 2))
    radii = rng.uniform(0.2, 0.5, 200)
    crowd = Crowd(World2D(), start, radii)
    done = crowd.step(d)
    assert_step_keeps_the_promise(crowd, start, done.positions)
    assert np.linalg.norm(done.positions[1] - start[1]) > 0.1      # it went (0.165 m)


def _pocket_jam(crowd_class=Crowd):
    """200 agents walking into a dead-end pocket 6 m wide: most come to rest in a jam."""
    world = World2D()
    world.add_walls([(0.0, -3.0), (0.0, -3.0), (0.0, 3.0)], [(0.0, 3.0), (-30.0, -3.0),
                                                             (-30.0, 3.0)])
    rng = np.random.default_rng(5)
    start = np.column_stack([rng.uniform(-29.0, -6.0, 200), rng.uniform(-2.5, 2.5, 200)])
    start = start[np.argsort(start[:, 0])]
    keep = np.ones(200, dtype=bool)            # drop starts that overlap
    for k in range(200):
        if keep[k] and np.any(np.linalg.norm(start[k + 1:] - start[k], axis=1) < 0.6):
            keep[k + 1:] &= np.linalg.norm(start[k + 1:] - start[k], axis=1) >= 0.6
    return world, start[keep]


def _towards(positions, goal, speed):
    gap = goal - positions
    return speed * gap / np.maximum(np.linalg.norm(gap, axis=1), speed)[:, None]


def step_kept_and_fresh(kept, fresh, d):
    """Step two crowds alike, the second forgetting its last step first (so it works every
    agent out); assert the answers are the same to the bit; return the share of the first
    one's agents kept at rest."""
    fresh._history = None
    a = kept.step(d)
    b = fresh.step(d)
    np.testing.assert_array_equal(a.positions, b.positions)
    np.testing.assert_array_equal(a.obstacle, b.obstacle)
    np.testing.assert_array_equal(a.stop, b.stop)
    np.testing.assert_array_equal(kept._pressure, fresh._pressure)
    assert not b.resting.any()
    return float(a.resting.mean())


def test_agents_at_rest_keep_the_answers_a_step_worked_out_again_gives():
    # Two crowds walk into a dead end; one forgets its last step before each step (so it
    # works every agent out), the other keeps agents at rest as they were. Every answer
    # must be the same to the bit, and most agents must end up at rest.
    world, start = _pocket_jam()
    kept = Crowd(world, start, 0.3)
    fresh = Crowd(world, start, 0.3)
    goal = np.array([0.0, 0.0])
    resting = []
    for _ in range(320):                       # settled by about step 270
        d = _towards(kept.positions, goal, 0.14)
        resting.append(step_kept_and_fresh(kept, fresh, d))
    assert np.mean(resting[-50:]) > 0.5        # most of the jam was at rest, kept


def test_calm_reads_every_busy_cell_within_a_search():
    # The busy grid marks an agent that is not still along its row (``spread`` cells
    # each way), so that calm reads one cell per row: it must still turn down every
    # search whose square holds the agent's own cell, wherever the two stand.
    from sidestep.kernels import crowd as kc
    rng = np.random.default_rng(5)
    ox, oy, size, nx, ny = -3.0, -2.0, 1.4, 16, 16
    fine = kc.BUSY_SPLIT / size         # the inverse of the busy grid's cell
    rmax, most, skin = 0.45, 0.2, 0.001
    spread = kc.busy_spread(rmax, most, skin, size)
    assert spread == 2                          # 1.86 of its cells
    widest = kc.search_reach(rmax, most, rmax, most, skin)
    for _ in range(300):
        # Agents on the grid (it is made over them, and over the last step's).
        here = rng.uniform((ox + 0.2, oy + 0.2), (ox + nx * size - 0.2, oy + ny * size - 0.2),
                           (1, 2))
        there = here + rng.uniform(-0.2, 0.2, (1, 2))        # not still: it moved
        busy = np.zeros(kc.BUSY_SPLIT ** 2 * nx * ny, dtype=np.uint8)
        nothing = np.zeros((1, 2))
        kc.still_rows(0, 1, here, nothing, nothing, there,
                      nothing, nothing, here, there, np.zeros(1, dtype=np.int64),
                      np.zeros(1, dtype=np.int64), ox, oy, size, nx, ny, spread,
                      np.zeros(1, dtype=np.uint8), busy, np.empty((1, 2)),
                      np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64),
                      np.empty((1, 2)))
        cells = {(int((x - ox) * fine), int((y - oy) * fine)) for x, y in (here[0], there[0])}
        for _ in range(20):
            p = np.clip(here[0] + rng.uniform(-2.5, 2.5, 2), (ox, oy),
                        (ox + nx * size - 1e-9, oy + ny * size - 1e-9))
            r = rng.uniform(0.3, 1.0) * widest
            lo = ((p - r - (ox, oy)) * fine).astype(int)
            hi = ((p + r - (ox, oy)) * fine).astype(int)
            seen = any(lo[0] <= i <= hi[0] and lo[1] <= j <= hi[1] for i, j in cells)
            if seen:
                assert not kc.calm(busy, p[0], p[1], r, ox, oy, size, nx, ny, spread)


def test_a_resting_group_is_kept_as_it_is():
    g = np.arange(10) * 1.0
    packed = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    crowd = Crowd(World2D(), packed, 0.5)
    first = crowd.step(np.zeros((100, 2)))
    second = crowd.step(np.zeros((100, 2)))
    assert not first.resting.any() and second.resting.all()
    np.testing.assert_array_equal(second.positions, packed)
    assert not second.resting.flags.writeable and not second.obstacle.flags.writeable


def _walled_room():
    """A room 40 x 20 with a wall across it (a gap in its middle) and a slanting one in
    its west half (at every distance from the cells of the agents' grid), 300 agents
    west of that; the walls as ``(k, 4)`` segments too."""
    walls = np.array([(-20, -10, 20, -10), (20, -10, 20, 10), (20, 10, -20, 10),
                      (-20, 10, -20, -10), (0, -10, 0, -1), (0, 1, 0, 10), (-7, -9, -4, 5)],
                     dtype=float)
    world = World2D()
    world.add_walls(walls[:, :2], walls[:, 2:])
    rng = np.random.default_rng(3)
    g = np.stack(np.meshgrid(np.arange(-19.2, -8.5, 0.8), np.arange(-8.4, 8.5, 0.8)), -1)
    start = g.reshape(-1, 2)[rng.choice(14 * 22, 300, replace=False)]
    return world, start + rng.uniform(-0.05, 0.05, (300, 2)), walls


def test_agents_in_open_cells_end_where_the_world_would_put_them():
    # Cells of the agents' grid with no wall near skip the world query: the ends, stops
    # and obstacles must be those of a crowd that asks the world for every agent.
    world, start, _ = _walled_room()
    fast = Crowd(world, start, 0.3)
    asking = Crowd(world, start, 0.3)
    goal = np.array([16.0, 0.0])
    told = []
    for k in range(60):
        d = _towards(fast.positions, goal, 0.3)
        if asking._history is not None:
            asking._history.open_cells[:] = 2          # every cell told: not open
        a = fast.step(d)
        b = asking.step(d)
        np.testing.assert_array_equal(a.positions, b.positions)
        np.testing.assert_array_equal(a.stop, b.stop)
        np.testing.assert_array_equal(a.obstacle, b.obstacle)
        cells = fast._history.open_cells
        told.append(np.bincount(cells[:len(cells) // 2], minlength=3))   # against walls
    told = np.array(told)
    assert told[-1, 1] > 0 and told[-1, 2] > 0         # open cells and walled ones both
    assert (a.obstacle >= 0).any()                     # some agents met the walls


def test_open_cells_have_no_wall_within_their_reach():
    # Against a NumPy reference: the distance from each open cell's centre to every wall
    # is more than its half diagonal plus the reach of any agent in it.
    world, start, walls = _walled_room()
    crowd = Crowd(world, start, 0.3)
    for _ in range(40):                        # the crowd spreads over the slanting wall
        crowd.step(_towards(crowd.positions, np.array([16.0, 0.0]), 0.3))
    past = crowd._history
    code, reach, dmax, separation = past.params[:4]
    ox, oy, size, nx, ny = past.params[-5:]
    skin, margin = world._tolerances()[:2]
    state = past.open_cells[:nx * ny].reshape(ny, nx)       # against what never moves
    assert (state == 1).sum() > 0 and (state == 2).sum() > 0
    for j, i in zip(*np.nonzero(state == 1)):
        c = np.array([ox + (i + 0.5) * size, oy + (j + 0.5) * size])
        ab = walls[:, 2:] - walls[:, :2]
        t = np.clip(((c - walls[:, :2]) * ab).sum(1) / (ab * ab).sum(1), 0, 1)
        gap = np.linalg.norm(c - (walls[:, :2] + t[:, None] * ab), axis=1).min()
        assert gap > np.sqrt(0.5) * size + reach + separation + dmax + skin


def _gap_to_segments(point, segments):
    """The distance from ``point (2,)`` to the nearest of ``segments (k, 4)``."""
    ab = segments[:, 2:] - segments[:, :2]
    t = np.clip(((point - segments[:, :2]) * ab).sum(1) / (ab * ab).sum(1), 0, 1)
    return np.linalg.norm(point - (segments[:, :2] + t[:, None] * ab), axis=1).min()


def test_open_cells_against_walls_outlive_the_bars_turning_among_the_agents():
    # Bars turn and slide among the agents every step: the cells told open against the
    # walls stay told from step to step (the bodies' half is told again), no cell told
    # open both ways has a wall or a bar within its reach (a NumPy reference), and the
    # ends, stops and obstacles are those of a crowd that asks the world for every agent.
    world, start, walls = _walled_room()
    homes = np.array([(-16, -6), (-13, 3), (-11, -2), (-15, 6), (-9, 5), (5, 0)], float)
    bars = [world.add_body(i) for i in world.add_walls([(-1.0, 0.0)] * 6, [(1.0, 0.0)] * 6,
                                                         0.1)]
    world.set_poses(bars, homes, np.zeros(6))
    fast = Crowd(world, start, 0.3)
    asking = Crowd(world, start, 0.3)
    goal = np.array([16.0, 0.0])
    kept = 0
    for k in range(1, 41):
        centres = homes + np.stack([np.sin(0.2 * k), np.cos(0.3 * k)]) * 0.8
        angles = np.full(6, 0.25 * k)
        world.set_poses(bars, centres, angles)
        d = _towards(fast.positions, goal, 0.3)
        if asking._history is not None:
            asking._history.open_cells[:] = 2          # every cell told: not open
        before = None if fast._history is None else fast._history.open_cells
        a = fast.step(d)
        b = asking.step(d)
        np.testing.assert_array_equal(a.positions, b.positions)
        np.testing.assert_array_equal(a.stop, b.stop)
        np.testing.assert_array_equal(a.obstacle, b.obstacle)
        past = fast._history
        kept += past.open_cells is before
        code, rmax, dmax, separation = past.params[:4]
        ox, oy, size, nx, ny = past.params[-5:]
        skin = world._tolerances()[0]
        ends = np.stack([np.cos(angles), np.sin(angles)], 1)
        rods = np.hstack([centres - ends, centres + ends])
        both = (past.open_cells[:nx * ny] == 1) & (past.open_cells[nx * ny:] == 1)
        assert both.any() and not both.all()
        reach = np.sqrt(0.5) * size + rmax + separation + dmax + skin
        for c in np.flatnonzero(both):
            centre = np.array([ox + (c % nx + 0.5) * size, oy + (c // nx + 0.5) * size])
            assert _gap_to_segments(centre, walls) > reach
            assert _gap_to_segments(centre, rods) > reach + 0.1
    assert kept >= 30                                  # the walls' half handed on
    assert (a.obstacle >= len(walls)).any()             # some agents met the bars


def test_agents_at_rest_wake_when_a_neighbour_or_the_world_changes():
    world = World2D()
    wall = world.add_walls([(1.0, -5.0)], [(1.0, 5.0)])
    crowd = Crowd(world, [(0.5, 0.0), (-0.1, 0.0), (0.5, 3.0)], 0.3)
    push = np.array([(0.1, 0.0), (0.0, 0.0), (0.1, 0.0)])      # into the wall
    for _ in range(10):
        done = crowd.step(push)
    assert done.resting.all()
    before = crowd.positions.copy()
    nudge = push.copy()
    nudge[1] = (0.1, 0.0)                       # the middle one walks into the first
    done = crowd.step(nudge)
    assert not done.resting[0] and not done.resting[1] and done.resting[2]
    for _ in range(3):
        done = crowd.step(push)
    world.remove(wall)                          # the wall goes: the agents walk on
    done = crowd.step(push)
    assert not done.resting.any()
    assert crowd.positions[2, 0] > before[2, 0] + 0.05


# ------------------------------------------------------------------- following
def test_an_agent_follows_one_walking_away_closer_than_its_share():
    # 2 cm behind a walker, both at 0.1 a step: from the second step (once the walker has
    # walked) the follower keeps the whole pace with a gap under 0.2, where its share of
    # the gap alone (half) held it back until the gap had grown to twice the pace.
    crowd = Crowd(World2D(), [(0.0, 0.0), (-1.02, 0.0)], 0.5)
    d = np.tile([(0.1, 0.0)], (2, 1))
    run(crowd, d, 1)
    for _ in range(6):
        before = crowd.positions.copy()
        run(crowd, d, 1)
        gap = before[0, 0] - before[1, 0] - 1.0
        assert gap < 0.2
        assert crowd.positions[1, 0] - before[1, 0] == pytest.approx(0.1, abs=1e-12)


def test_a_queue_stopped_by_a_wall_closes_up_and_never_overlaps():
    world = World2D()
    world.add_walls([(3.0, -5.0)], [(3.0, 5.0)])
    start = np.column_stack([np.arange(8) * -1.2, np.zeros(8)])
    crowd = Crowd(world, start, 0.5)
    run(crowd, np.tile([(0.15, 0.0)], (8, 1)), 120)    # the promise, every step
    x = np.sort(crowd.positions[:, 0])[::-1]
    assert x[0] == pytest.approx(2.5, abs=2 * SKIN)     # the front one at the wall
    np.testing.assert_allclose(-np.diff(x), 1.0, atol=1e-3)   # closed up, touching


def test_a_follower_whose_leader_stops_dead_is_worked_out_in_its_own_cell():
    # The leader meets a wall 5 cm ahead while the follower, 1 cm behind, follows it at
    # what it walked last step: the follow fails, and the follower is worked out again
    # within its own share of the gap.
    from sidestep.kernels import follow

    world = World2D()
    world.add_walls([(0.55, -5.0)], [(0.55, 5.0)])
    crowd = Crowd(world, [(0.0, 0.0), (-1.01, 0.0)], 0.5)
    d = np.tile([(0.2, 0.0)], (2, 1))
    run(crowd, d, 1)                              # the leader walks 5 cm, to the wall
    sent_back = []
    original = follow.failing_follows

    def spy(*args):
        back = original(*args)
        items = args[-1]                          # rows of the step's order -> agents
        sent_back.append(items[back].tolist())
        return back

    follow.failing_follows = spy
    try:
        before = crowd.positions.copy()
        run(crowd, d, 1)
    finally:
        follow.failing_follows = original
    assert sent_back == [[1]]
    gap = before[0, 0] - before[1, 0] - 1.0
    assert crowd.positions[0, 0] == pytest.approx(before[0, 0], abs=SKIN)   # held by the wall
    assert crowd.positions[1, 0] - before[1, 0] == pytest.approx(0.5 * gap, abs=1e-9)
