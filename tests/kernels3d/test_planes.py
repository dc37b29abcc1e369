"""The 3D contact-plane solver, against named scenes and a brute-force QP."""
import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sidestep.kernels3d.planes import solve_planes, solve_planes_capped

SLACK = 1e-9


def pack(normals, bounds):
    # The solver reads normals (3 floats each) then bounds from one flat array.
    n = np.asarray(normals, float).reshape(-1, 3)
    b = np.asarray(bounds, float).reshape(-1)
    return np.concatenate([n.reshape(-1), b]), 0, n.size, len(b)


def solve(d, normals, bounds, slack=SLACK):
    w, i_n, i_b, count = pack(normals, bounds)
    vx, vy, vz, err = solve_planes(d[0], d[1], d[2], w, i_n, i_b, count, slack)
    return np.array([vx, vy, vz]), err


def solve_capped(d, normals, bounds, far, slack=SLACK):
    w, i_n, i_b, count = pack(normals, bounds)
    before = w.copy()
    vx, vy, vz, err, capped = solve_planes_capped(d[0], d[1], d[2], w, i_n, i_b, count,
                                                  slack, far)
    assert np.array_equal(w, before)
    return np.array([vx, vy, vz]), err, capped


def unit(*v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def brute_force(d, normals, bounds, tol=1e-9):
    """The point of {v : N v >= b} nearest d, by enumerating active sets (KKT).

    For each set S of at most three linearly independent constraints, the
    nearest point of their intersection is v = d + N_S^T lam with
    N_S N_S^T lam = b_S - N_S d; it is the optimum if lam >= 0 and v keeps
    every constraint. Returns None when no set qualifies (infeasible).
    """
    d = np.asarray(d, float)
    n = np.asarray(normals, float).reshape(-1, 3)
    b = np.asarray(bounds, float)
    best = None
    if np.all(n @ d >= b - tol):
        return d
    for size in (1, 2, 3):
        for s in itertools.combinations(range(len(b)), size):
            ns = n[list(s)]
            sv = np.linalg.svd(ns, compute_uv=False)
            if sv[-1] < 1e-6:
                continue
            lam = np.linalg.solve(ns @ ns.T, b[list(s)] - ns @ d)
            if np.any(lam < -tol):
                continue
            v = d + ns.T @ lam
            if np.all(n @ v >= b - tol):
                if best is None or np.sum((v - d) ** 2) < np.sum((best - d) ** 2):
                    best = v
    return best


def test_no_planes_keeps_the_wish():
    v, err = solve((1.0, 2.0, 3.0), np.zeros((0, 3)), [])
    assert tuple(v) == (1.0, 2.0, 3.0) and err == -math.inf


def test_floor_only_keeps_the_horizontal_part():
    v, err = solve((1.0, -2.0, 0.5), [(0, 1, 0)], [0.0])
    assert v == pytest.approx((1.0, 0.0, 0.5), abs=1e-15) and err <= SLACK


def test_wish_away_from_the_floor_is_untouched():
    v, _ = solve((1.0, 2.0, 0.5), [(0, 1, 0)], [0.0])
    assert tuple(v) == (1.0, 2.0, 0.5)


def test_floor_and_wall_slide_along_their_crease():
    # Floor y >= 0, wall x <= 0 (normal -x); a wish down and into the wall.
    v, err = solve((1.0, -1.0, 2.0), [(0, 1, 0), (-1, 0, 0)], [0.0, 0.0])
    assert v == pytest.approx((0.0, 0.0, 2.0), abs=1e-15) and err <= SLACK


def test_crease_of_two_slopes_runs_along_the_valley():
    # Two 30-degree slopes meeting in a valley along z; a wish straight down
    # and forward: only the forward part survives, none down or sideways.
    left = unit(math.sin(math.radians(30)), math.cos(math.radians(30)), 0)
    right = unit(-math.sin(math.radians(30)), math.cos(math.radians(30)), 0)
    v, err = solve((0.0, -1.0, 0.7), [left, right], [0.0, 0.0])
    assert v == pytest.approx((0.0, 0.0, 0.7), abs=1e-15) and err <= SLACK


def test_crease_solution_keeps_one_slope_when_the_other_is_not_pressed():
    left = unit(1, 1, 0)
    right = unit(-1, 1, 0)
    # Into the left slope and away from the right one: projection on the left only.
    d = np.array([-1.0, -0.2, 0.0])
    v, err = solve(d, [left, right], [0.0, 0.0])
    expected = d - np.dot(d, left) * left
    assert np.dot(expected, right) > 0.1
    assert v == pytest.approx(expected, abs=1e-15) and err <= SLACK


def test_corner_of_three_panels_brings_the_agent_to_rest():
    # Floor and two walls meeting at a corner; a wish into all three.
    normals = [(0, 1, 0), (-1, 0, 0), (0, 0, -1)]
    v, err = solve((1.0, -1.0, 1.0), normals, [0.0, 0.0, 0.0])
    assert tuple(v) == (0.0, 0.0, 0.0) and err <= SLACK


def test_corner_of_three_panels_backs_off_to_the_corner_point():
    # Overlapping each panel by a little: the motion to the corner point
    # (the only point keeping all three) is exact.
    normals = [(0, 1, 0), (-1, 0, 0), (0, 0, -1)]
    v, err = solve((0.0, 0.0, 0.0), normals, [0.01, 0.02, 0.03])
    assert v == pytest.approx((-0.02, 0.01, -0.03), abs=1e-15) and err <= SLACK


def test_corner_of_three_tilted_panels_is_the_solution_of_their_system():
    normals = np.array([unit(0.2, 1, 0.1), unit(-1, 0.3, 0.1), unit(0.1, 0.2, -1)])
    bounds = np.array([0.01, 0.02, 0.03])
    v, err = solve((0.0, 0.0, 0.0), normals, bounds)
    assert v == pytest.approx(np.linalg.solve(normals, bounds), abs=1e-14)
    assert err <= SLACK


def test_corridor_narrower_than_the_agent_reports_the_conflict():
    # Walls at x = -0.4 and x = 0.4, agent of radius 0.5 at x = 0: each wall
    # asks it to back off 0.1, in opposite directions: impossible.
    normals = [(1, 0, 0), (-1, 0, 0)]
    v, err = solve((0.0, 0.0, 1.0), normals, [0.1, 0.1])
    assert err == pytest.approx(0.1) and np.all(np.isfinite(v))


def test_corridor_narrower_than_the_agent_lets_it_go_along_when_capped():
    normals = [(1, 0, 0), (-1, 0, 0)]
    v, err, capped = solve_capped((0.3, 0.0, 1.0), normals, [0.1, 0.1], far=1.2)
    assert capped and err <= SLACK
    assert v == pytest.approx((0.0, 0.0, 1.0), abs=1e-15)


def test_nearly_opposite_walls_never_send_the_agent_far_away():
    # Two walls a hair from opposite, both to be backed off from: their
    # crease lies about 0.1 / sin(1e-3) = 100 away. Uncapped, the exact
    # answer goes there; capped, the agent comes no closer instead.
    tilt = 1e-3
    normals = [unit(1, math.sin(tilt), 0), unit(-1, math.sin(tilt), 0)]
    d = (0.0, 0.0, 0.5)
    v, err = solve(d, normals, [0.1, 0.1])
    assert err <= SLACK and np.linalg.norm(v) > 50.0
    v, err, capped = solve_capped(d, normals, [0.1, 0.1], far=0.5 + 4e-6)
    assert capped and err <= SLACK and np.linalg.norm(v) <= 0.5 + 1e-12
    assert v == pytest.approx((0.0, 0.0, 0.5), abs=1e-12)


def test_capped_solver_keeps_a_near_answer():
    v, err, capped = solve_capped((1.0, -1.0, 0.0), [(0, 1, 0)], [0.0], far=2.0)
    assert not capped and v == pytest.approx((1.0, 0.0, 0.0), abs=1e-15)


def test_duplicate_and_parallel_planes_are_solved():
    # The same floor twice and a second floor above it: the higher one wins.
    normals = [(0, 1, 0), (0, 1, 0), (0, 1, 0)]
    v, err = solve((1.0, -1.0, 0.0), normals, [0.0, 0.0, 0.05])
    assert v == pytest.approx((1.0, 0.05, 0.0), abs=1e-15) and err <= SLACK


def test_three_upright_walls_with_a_floor_pin_the_motion():
    # Three walls through one upright line (no corner of three) and a floor.
    normals = [(-1, 0, 0), (0, 0, -1), unit(-1, 0, -1), (0, 1, 0)]
    v, err = solve((1.0, -1.0, 1.0), normals, [0.0, 0.0, 0.0, 0.0])
    assert v == pytest.approx((0.0, 0.0, 0.0), abs=1e-15) and err <= SLACK


finite = st.floats(-2.0, 2.0, allow_nan=False)
vectors = st.tuples(finite, finite, finite).filter(lambda v: np.linalg.norm(v) > 1e-3)


@st.composite
def problems(draw, feasible):
    count = draw(st.integers(0, 5))
    normals = [unit(*draw(vectors)) for _ in range(count)]
    if feasible:
        bounds = [draw(st.floats(-1.0, 0.0)) for _ in range(count)]
    else:
        bounds = [draw(st.floats(-1.0, 1.0)) for _ in range(count)]
    d = draw(st.tuples(finite, finite, finite))
    return np.array(d), np.reshape(normals, (-1, 3)), np.array(bounds)


# Found by the explore profile, both with a plane given twice (bounds 0 and -1e-9), every
# answer on the slack's edge: the kernel's dot products keep the slack where NumPy's exceed it
# by 7e-18; and where the contacts leave only standing still, the solver's answer and the
# brute force's (each keeping the contacts to 1e-9) lie 1.4e-9 apart in distance from d.
_NEAREST_FOUND = [
    (np.array([1.0, 0.0, 0.0]),
     np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.7071067811865475, 0.0, -0.7071067811865475],
               [-0.8755776840267941, 0.0, 0.4830773429113347],
               [-0.8755776840267941, 0.0, 0.4830773429113347]]),
     np.array([0.0, 0.0, 0.0, 0.0, -1e-09])),
    (np.array([0.798828125, 0.23046875, 1.0]),
     np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [-0.9175556253099241, 0.0, 0.3976074376343004],
               [-0.29554023164452436, 0.6755205294731985, -0.6755205294731985],
               [-0.9175556253099241, 0.0, 0.3976074376343004]]),
     np.array([0.0, 0.0, 0.0, 0.0, -1e-09]))]


@given(problems(feasible=True))
@example(problem=_NEAREST_FOUND[0])
@example(problem=_NEAREST_FOUND[1])
def test_solution_is_the_nearest_motion_keeping_every_contact(problem):
    # Bounds <= 0: standing still keeps every contact, so an optimum exists.
    d, normals, bounds = problem
    v, err = solve(d, normals, bounds)
    assert err <= SLACK
    rounding = 1e-15 * np.max(np.abs(normals) @ np.abs(v), initial=0.0)
    assert np.all(normals @ v >= bounds - SLACK - rounding)
    best = brute_force(d, normals, bounds)
    assert best is not None
    # The optimum is unique; any point keeping the constraints is at least as
    # far from d, and |v - best|^2 <= |v - d|^2 - |best - d|^2 (projection). Both keep
    # them to the slack only: as near to d as the brute force's, to a few slacks.
    assert np.linalg.norm(v - d) <= np.linalg.norm(best - d) + 4.0 * SLACK
    assert np.linalg.norm(v - best) <= 1e-4


@given(problems(feasible=False))
def test_solution_is_finite_and_never_worse_than_the_brute_force(problem):
    d, normals, bounds = problem
    v, err = solve(d, normals, bounds)
    assert np.all(np.isfinite(v)) and math.isfinite(err) or len(bounds) == 0
    if len(bounds):
        # err is the kernel's own dot products; NumPy's matmul rounds apart
        # by a few ulps of the terms: the explore profile found planes nearly
        # opposite (1 - 6e-8) whose answer is 1.7e7 long, 2.2e-10 apart.
        rounding = 1e-15 * np.max(np.abs(normals) @ np.abs(v))
        assert err == pytest.approx(np.max(bounds - normals @ v), abs=1e-12 + rounding)
    best = brute_force(d, normals, bounds)
    if best is not None and np.min(normals @ best - bounds, initial=1.0) > 1e-6:
        # Comfortably feasible: the solver finds the same optimum.
        assert err <= SLACK
        assert np.sum((v - d) ** 2) <= np.sum((best - d) ** 2) + 1e-9


# Found by the explore profile: two nearly identical walls (bounds 0 and -1e-9) answered on
# the looser one, the other kept to 0.99999997e-9 by the kernel's own dot products (within
# the slack) and to 1.0000000000116e-9 by NumPy's: a few ulps apart, as above.
_WALL = 0.7071067811865475


@given(problems(feasible=False), st.floats(0.0, 3.0))
@example(problem=(np.array([1.0, 0.75, 0.0]),
                  np.array([[0.0, 0.0, 1.0]] * 3 + [[-_WALL, _WALL, 0.0]] * 2),
                  np.array([0.0, 0.0, 0.0, 0.0, -1e-9])), far=0.0)
def test_capped_solution_keeps_the_capped_bounds_and_stays_near(problem, far):
    d, normals, bounds = problem
    v, err, capped = solve_capped(d, normals, bounds, far)
    assert np.all(np.isfinite(v))
    used = np.minimum(bounds, 0.0) if capped else bounds
    rounding = 1e-15 * np.max(np.abs(normals) @ np.abs(v), initial=0.0)
    assert np.all(normals @ v >= used - SLACK - rounding)
    assert np.linalg.norm(v) <= max(far, 2.0 * np.linalg.norm(d)) + 1e-12
