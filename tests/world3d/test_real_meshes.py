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
