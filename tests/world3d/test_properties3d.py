"""World3D properties with Hypothesis: never penetrate, never tunnel, survive translation."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sidestep.tolerances import PROMISE
from test_moves3d import random_world

seeds = st.integers(0, 2**32 - 1)


@given(seeds)
def test_slide_never_ends_inside_anything(seed):
    rng = np.random.default_rng(seed)
    world = random_world(rng, 40)
    p = rng.uniform(-12, 12, (64, 3))
    d = rng.normal(0, 3, (64, 3))
    r = rng.uniform(0, 0.6, 64)
    h = 0.0 if seed % 2 else 1.8
    for k in range(64):
        m = world.move(p[k], d[k], r[k], height=h)
        if m.stop == "stuck":
            continue
        half = max(0.0, 0.5 * h - r[k]) if h > 2 * r[k] else 0.0
        core = [m.position + (0, t, 0) for t in np.linspace(-half, half, 7)]
        assert world.clearance(np.array(core)).min() >= r[k] - PROMISE


@given(seeds, st.sampled_from([10.0, 100.0, 1000.0]))
def test_fast_moves_never_cross_a_panel(seed, factor):
    rng = np.random.default_rng(seed)
    world = random_world(rng, 40)
    # A wall panel across the whole scene at x = 0.
    world.add_panels([[(0, -100, -100), (0, 100, -100), (0, 100, 100), (0, -100, 100)]])
    p = rng.uniform(-12, -0.5, (32, 3))
    r = rng.uniform(0.01, 0.3, 32)
    for k in range(32):
        m = world.move(p[k], (factor * r[k], 0.0, 0.0), r[k])
        if m.stop != "stuck" and world.clearance(p[k]) > r[k]:
            assert m.position[0] < 0.0


@given(seeds)
def test_results_survive_translating_the_world(seed):
    rng = np.random.default_rng(seed)
    shift = np.array([1e5, -1e5, 1e5])
    a = random_world(np.random.default_rng(seed), 30)
    b = random_world(np.random.default_rng(seed), 30, offset=shift)
    p = rng.uniform(-12, 12, (32, 3))
    d = rng.normal(0, 3, (32, 3))
    ea = a.move_many(p, d, 0.3)
    eb = b.move_many(p + shift, d, 0.3) - shift
    # At 1e5 a float64 step is 1.5e-11: results agree to rounding (measured:
    # 640 moves over 20 seeds, the largest difference 4.4e-10; the explore
    # profile found a slide over two contacts 1.0e-8 apart, seed 1628804370,
    # the rounding of each contact carried through the next). Rounding may
    # also decide whether a corner is grazed now and then (a discontinuity,
    # not an error), so one move of the 32 may differ by more.
    close = np.all(np.abs(ea - eb) < 1e-7, axis=1)
    assert (~close).sum() <= 1
