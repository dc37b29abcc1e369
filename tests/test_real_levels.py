"""Agents walking through real game levels from ``../shared/data`` (skipped where absent).

The Moving AI grid maps are read here with a few lines of test code (the
project's own level loaders are a separate piece of work); each blocked cell
becomes a cell of a look-up-table grid, one metre per cell.
"""
import hashlib
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE

import oracle

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

PASSABLE = set(".GS")


def read_map(rel):
    """A Moving AI ``.map``: ``(rows, cols)`` bool table of blocked cells, checked against SHA256SUMS."""
    path = DATA / rel
    sums = dict(line.split()[::-1] for line in (DATA / "SHA256SUMS").read_text().splitlines())
    assert hashlib.sha256(path.read_bytes()).hexdigest() == sums[rel], f"{rel} is corrupted"
    lines = path.read_text().splitlines()
    height = int(lines[1].split()[1])
    width = int(lines[2].split()[1])
    rows = lines[4:4 + height]
    return np.array([[ch not in PASSABLE for ch in row[:width]] for row in rows])


def read_scen(rel, limit):
    """Start and goal cell centres ``(n, 2)`` each, as ``(x, y) = (column + 0.5, row + 0.5)``."""
    rows = [line.split() for line in (DATA / rel).read_text().splitlines()[1:] if line.strip()]
    pairs = np.array([[float(r[4]), float(r[5]), float(r[6]), float(r[7])] for r in rows[:limit]])
    return pairs[:, 0:2] + 0.5, pairs[:, 2:4] + 0.5


@pytest.mark.parametrize("level", ["dao/arena", "dao/den520d", "mazes/maze512-1-0",
                                   "rooms/32room_000"])
def test_agents_walk_a_real_grid_map_without_entering_a_wall(level):
    blocked = read_map(f"grid/{level}.map")
    world = sidestep.World2D()
    world.add_grid(blocked, 1.0)
    starts, goals = read_scen(f"grid/{level}.map.scen", 300)
    radius = 0.3
    # Scenario starts are passable cell centres: an agent of radius 0.3 fits.
    assert np.all(world.clearance(starts) >= 0.5 - 1e-12)
    p = starts.copy()
    travelled = np.zeros(len(p))
    for _ in range(60):
        heading = goals - p
        dist = np.hypot(*heading.T)[:, None]
        step = np.where(dist > 0, heading / np.maximum(dist, 1e-12) * np.minimum(dist, 0.4), 0.0)
        new = world.move_many(p, step, radius=radius)
        travelled += np.hypot(*(new - p).T)
        p = new
        assert world.clearance(p).min() >= radius - PROMISE
    # They got somewhere: sliding along the walls, not stuck on the first one.
    assert np.median(travelled) > 1.0
    for k in range(0, len(p), 37):
        single = world.move(p[k], (0.4, 0.3), radius=radius).position
        np.testing.assert_array_equal(world.move_many(p[k:k + 1], [(0.4, 0.3)], radius=radius)[0],
                                      single)


def test_clearance_on_a_real_map_matches_brute_force():
    blocked = read_map("grid/dao/arena.map")
    world = sidestep.World2D()
    world.add_grid(blocked, 1.0)
    pts = np.random.default_rng(0).uniform(-2, 51, (300, 2))
    np.testing.assert_allclose(world.clearance(pts), oracle.clearance(world, pts), atol=1e-9)


def test_largest_map_builds_and_answers_quickly():
    blocked = read_map("grid/dao/orz900d.map")
    world = sidestep.World2D()
    gid = world.add_grid(blocked, 1.0)
    free = np.argwhere(~blocked)[::997] + 0.5
    assert np.all(world.clearance(free[:, ::-1]) >= 0.5 - 1e-12)
    assert world.overlapping(tuple(np.argwhere(blocked)[0][::-1] + 0.5)).tolist() == [gid]
