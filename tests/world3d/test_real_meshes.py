"""Agents walking the real 3D levels of ``../shared/data/meshes`` (skipped where absent)."""
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "meshes"
MESHES = sorted(p for p in DATA.glob("*/*") if p.suffix in (".obj", ".glb", ".gltf")) \
    if DATA.is_dir() else []
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


def free_points(world, n, radius, rng):
    """``n`` random points of the level's box where a sphere of ``radius`` fits."""
    lo, hi = world.bounds
    found = []
    while sum(len(f) for f in found) < n:
        p = rng.uniform(lo, hi, (4 * n, 3))
        found.append(p[world.clearance(p) > radius])
    return np.concatenate(found)[:n]


@needs_data
@pytest.mark.parametrize("path", MESHES, ids=lambda p: p.name)
def test_agents_walking_a_real_mesh_end_outside_every_surface(path):
    level = sidestep.load(path)
    world = level.world
    rng = np.random.default_rng(7)
    lo, hi = world.bounds
    size = float(np.max(hi - lo))
    radius = 0.004 * size
    p = free_points(world, 200, radius, rng)
    for step in range(15):
        # Walk with a pull downwards, as gravity would, so agents meet floors and slopes.
        d = rng.normal(0.0, 0.01 * size, p.shape)
        d[:, 1] -= 0.01 * size
        p = world.move_many(p, d, radius)
        assert world.clearance(p).min() >= radius - PROMISE
    for k in range(0, 200, 40):
        one = world.move(p[k], d[k], radius)
        np.testing.assert_array_equal(one.position, world.move_many(p[k:k + 1], d[k:k + 1],
                                                                    radius)[0])


@needs_data
def test_capsule_crossing_a_gentle_ridge_of_nav_test_never_enters_it():
    # Found by `check --sweep`: a capsule slid along one triangle over the
    # inactive (gently bent) edge of its neighbour, lower than that face's
    # plane, and ended 4.4 mm inside. Its last pass started exactly at the
    # reach (where the pass before left it) and the sweep's rounding saw it
    # outside; the contact's face normal also let it glide into the face.
    world = sidestep.load(DATA / "recast" / "nav_test.obj").world
    centre = np.array([37.93573272267789, 0.7789631079649704, -2.5119255517864603])
    move = world.move(centre, (0.04959079191810977, 0.006383835597408396, 0.0), radius=0.3,
                      height=1.8)
    axis = move.position + np.outer(np.linspace(-0.6, 0.6, 2401), (0.0, 1.0, 0.0))
    assert world.clearance(axis).min() >= 0.3 - PROMISE
    assert move.position[0] > centre[0] + 0.04              # over the ridge, not held at it
    hero = sidestep.Character(world, (37.7449408125, -0.18102394905490732, -2.511925437499997),
                              radius=0.3, height=1.8, step_height=0.3)
    for _ in range(12):
        hero.update((3.0, 0.0, 0.0), 1 / 60)
        axis = hero.position + np.outer(np.linspace(0.3, 1.5, 2401), (0.0, 1.0, 0.0))
        assert world.clearance(axis).min() >= 0.3 - PROMISE
