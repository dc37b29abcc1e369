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
    push_plans(positions, radii, weights, asked, dmax, *grid, plans, carried)
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
