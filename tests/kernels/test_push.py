"""Pushes sent on through a crowd (kernels.push): the same, to the bit, in any order."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sidestep.kernels.crowd import grid_agents
from sidestep.kernels.push import push_plans


def plans_of(positions, radii, weights, asked):
    """``push_plans``' displacements and weights for the agents as given."""
    dmax = float(np.sqrt((asked ** 2).sum(axis=1)).max())
    grid = grid_agents(positions, 2.0 * radii.max() + 2.0 * dmax)
    plans = np.empty_like(asked)
    carried = np.empty(len(weights))
    level = np.zeros(len(weights))
    push_plans(positions, radii, weights, asked, dmax, *grid, positions, level, level, False,
               plans, carried)
    return plans, carried


def test_two_heavy_agents_pushing_one_add_their_pushes():
    positions = np.array([(0.0, 0.0), (-1.0, 0.0), (0.0, -1.0)])
    asked = np.array([(0.0, 0.0), (0.5, 0.0), (0.0, 0.25)])
    plans, carried = plans_of(positions, np.full(3, 0.5), np.array([1.0, np.inf, np.inf]),
                              asked)
    # Summed, then cut to the step's largest displacement (0.5).
    np.testing.assert_allclose(plans[0], np.array([0.5, 0.25]) * 0.5 / np.hypot(0.5, 0.25),
                               atol=1e-12)
    np.testing.assert_array_equal(plans[1:], 0.0)         # the heavy ones are not pushed
    assert carried[0] > 1.0 and np.all(np.isinf(carried[1:]))


@given(st.integers(0, 2 ** 32 - 1), st.integers(2, 6))
def test_pushes_from_several_heavy_agents_sum_the_same_in_any_order(seed, heavy):
    # Heavy agents walking into a small packed group from all sides: the agents they reach
    # sum several pushes, whose order (the agents' order) must not change a bit.
    rng = np.random.default_rng(seed)
    light = rng.uniform(-1.5, 1.5, (12, 2))
    light[0] = 0.0                      # the first heavy agent walks right through it
    angle = rng.uniform(0.0, 2.0 * np.pi, heavy)
    ring = np.c_[np.cos(angle), np.sin(angle)] * rng.uniform(1.5, 2.5, (heavy, 1))
    positions = np.vstack([light, ring])
    asked = np.vstack([np.zeros((12, 2)), -ring * rng.uniform(0.5, 1.0, (heavy, 1))])
    asked[12] = -ring[0]
    radii = rng.uniform(0.2, 0.5, len(positions))
    weights = np.r_[rng.choice([1.0, 2.0], 12), np.full(heavy, np.inf)]
    plans, carried = plans_of(positions, radii, weights, asked)
    assert np.any(plans[0])                                 # pushed
    order = rng.permutation(len(positions))
    again, lent = plans_of(positions[order], radii[order], weights[order], asked[order])
    np.testing.assert_array_equal(again, plans[order])
    np.testing.assert_array_equal(lent, carried[order])


@given(st.integers(0, 2 ** 32 - 1))
def test_pushes_a_carry_gives_sum_the_same_in_any_order(seed):
    # Agents carried (by a body) into a packed group: each new overlap is given to the
    # neighbour (shared when both were carried) and sent on, the same to the bit in any
    # order of the agents.
    rng = np.random.default_rng(seed)
    before = rng.uniform(-1.5, 1.5, (14, 2))
    after = before.copy()
    carried = rng.choice(14, 4, replace=False)
    after[carried] += rng.uniform(-0.3, 0.3, (4, 2))
    radii = rng.uniform(0.2, 0.4, 14)
    weights = rng.choice([1.0, 2.0], 14)
    dmax = float(np.linalg.norm(after - before, axis=1).max())
    level = np.zeros(14)

    def plans_for(order):
        grid = grid_agents(after[order], 2.0 * radii.max() + 2.0 * dmax)
        plans = np.empty((14, 2))
        lent = np.empty(14)
        push_plans(after[order], radii[order], weights[order], np.zeros((14, 2)), dmax, *grid,
                   before[order], level, level, True, plans, lent)
        return plans, lent

    plans, lent = plans_for(np.arange(14))
    order = rng.permutation(14)
    again, lent_again = plans_for(order)
    np.testing.assert_array_equal(again, plans[order])
    np.testing.assert_array_equal(lent_again, lent[order])


def test_a_carry_into_a_neighbour_pushes_it_out_of_the_overlap_and_on():
    # The first of three in a row is carried 0.3 into the second: the second is given the
    # new overlap (0.3 less the 0.1 gap they had), the third what the second then heads
    # into beyond their gap.
    before = np.array([(0.0, 0.0), (1.1, 0.0), (2.2, 0.0)])
    after = before.copy()
    after[0, 0] += 0.3
    radii = np.full(3, 0.5)
    level = np.zeros(3)
    grid = grid_agents(after, 2.0 + 0.6)
    plans = np.empty((3, 2))
    lent = np.empty(3)
    push_plans(after, radii, np.ones(3), np.zeros((3, 2)), 0.3, *grid, before, level, level,
               True, plans, lent)
    np.testing.assert_allclose(plans, [(0.0, 0.0), (0.2, 0.0), (0.1, 0.0)], atol=1e-12)
    assert lent[1] > lent[2] > 1.0 and lent[0] == 1.0
