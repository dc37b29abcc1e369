"""The character on the real 3D levels of ``../shared/data/meshes`` and in random worlds."""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sidestep
from sidestep import Character, World3D
from sidestep.tolerances import PROMISE

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "meshes"
MESHES = sorted(p for p in DATA.glob("*/*") if p.suffix in (".obj", ".glb", ".gltf")) \
    if DATA.is_dir() else []
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
DT = 1.0 / 60.0


def clear_of_every_surface(hero):
    """The capsule's core is at least ``radius - PROMISE`` from every surface.

    Two checks: the exact capsule test (``overlapping`` of the capsule shrunk by
    the promise) and the clearance of points along the core, which uses
    another kernel (point queries).
    """
    world = hero._world
    up = np.array([0.0, 1.0, 0.0])
    centre = hero.position + 0.5 * hero.height * up
    if len(world.overlapping(centre, hero.radius - PROMISE, hero.height - 2 * PROMISE)):
        return False
    half = 0.5 * hero.height - hero.radius
    core = centre + np.linspace(-half, half, 7)[:, None] * up
    return bool(world.clearance(core).min() >= hero.radius - PROMISE)


def floor_spots(world, n, rng):
    """Points on upward-facing surfaces under free space inside the level's box.

    Rays cast down from random points of the box with a metre of room
    around them (so not from above a roof: the box ends there).
    """
    lo, hi = world.bounds
    m = 400 * n
    origins = rng.uniform(lo, hi, (m, 3))
    origins = origins[world.clearance(origins) > 1.0]
    m = len(origins)
    hits = world.raycast(origins, np.tile([0.0, -1.0, 0.0], (m, 1)))
    ok = hits.hit & (hits.normal[:, 1] > 0.8)
    return hits.point[ok][:n]


@needs_data
@pytest.mark.parametrize("path", MESHES, ids=lambda p: p.name)
def test_character_never_penetrates_a_real_level(path):
    world = sidestep.load(path).world
    rng = np.random.default_rng(11)
    spots = floor_spots(world, 8, rng)
    lo, _ = world.bounds
    frames = on_floor = spawns = 0
    hero = None
    while frames < 3000:
        if hero is None or hero.position[1] < lo[1] - 2.0:     # fell out: spawn again
            hero = Character(world, spots[spawns % len(spots)] + (0.0, 0.05, 0.0), 0.3, 1.8)
            spawns += 1
            assert clear_of_every_surface(hero)
        if frames % 40 == 0:
            wish = np.array([rng.normal(0.0, 3.0), 0.0, rng.normal(0.0, 3.0)])
        if frames % 97 == 0:
            hero.jump(4.0)
        hero.update(wish, DT)
        frames += 1
        on_floor += hero.on_floor
        assert clear_of_every_surface(hero), (frames, hero.position)
    assert on_floor > 600        # it walked, not only fell


def random_box_world(boxes, offset):
    world = World3D()
    world.add_boxes([offset + (-30.0, -1.0, -30.0)], [offset + (30.0, 0.0, 30.0)])
    lo = np.array([b[:3] for b in boxes]) + offset
    world.add_boxes(lo, lo + np.array([b[3:] for b in boxes]))
    return world


box = st.tuples(st.floats(-4, 4), st.floats(-0.5, 1.5), st.floats(-4, 4),
                st.floats(0.05, 3), st.floats(0.05, 1.0), st.floats(0.05, 3))
wish = st.tuples(st.floats(-8, 8), st.floats(-2, 2), st.floats(-8, 8), st.booleans())


@given(st.lists(box, min_size=1, max_size=8), st.lists(wish, min_size=1, max_size=12),
       st.tuples(st.floats(-1e4, 1e4), st.floats(-100, 100), st.floats(-1e4, 1e4)))
def test_random_frames_never_penetrate_and_survive_translation(boxes, wishes, offset):
    offset = np.array(offset)
    paths = []
    for shift in (np.zeros(3), offset):
        world = random_box_world(boxes, shift)
        hero = Character(world, shift + (0.0, 3.0, -6.0), 0.3, 1.8, step_height=0.3)
        path = []
        for vx, vy, vz, jump in wishes:
            if jump:
                hero.jump(3.0)
            for _ in range(10):
                hero.update((vx, vy, vz), DT)
                assert clear_of_every_surface(hero)
                path.append(hero.position - shift)
        paths.append(np.array(path))
    np.testing.assert_allclose(paths[1], paths[0], atol=1e-5)
