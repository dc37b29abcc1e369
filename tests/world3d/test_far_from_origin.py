"""A move does not depend on where the level is: the same level moved 10 km slides the same.

Rounding is relative: 1e4 m from the origin a coordinate's last bit is 2e-12 m. The
slide's decisions (level with a face or beyond its edge, a seam or a wall, a floor
or a steep slope) must not flip on differences that small, and a glide over a
floor's seams must not use up the iterations, wherever the floor is.
"""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sidestep
from sidestep import Character, World3D

DUNGEON = Path(__file__).resolve().parents[3] / "shared" / "data" / "meshes" / "recast" / \
    "dungeon.obj"
needs_data = pytest.mark.skipif(not DUNGEON.is_file(), reason="../shared/data is not present")
FAR = np.array([1e4, 1e4, -1e4])

# Two triangles of a quad bent 2.6 degrees (a convex ridge), from pybullet_data's duck.obj.
RIDGE = np.array([[-0.5206580003723502, 1.3699700003489852, 0.3779610004276037],
                  [-0.49902999959886074, 1.3598300004377961, 0.387555000372231],
                  [-0.5261960001662374, 1.354790000244975, 0.38019200041890144],
                  [-0.5076460000127554, 1.3460900001227856, 0.38782200030982494]])
RIDGE_TRIANGLES = np.array([[0, 2, 1], [1, 2, 3]])


def mesh_world(vertices, triangles, offset, up="y"):
    world = World3D(up=up)
    world.add_mesh(vertices + offset, triangles)
    return world


@pytest.mark.parametrize("offset", [1e2, 1e3, 1e4, 1e5])
def test_slide_over_a_bent_ridge_ends_the_same_far_from_the_origin(offset):
    start = np.array([-0.6560272490605712, 1.4164999797940254, 0.6616772646084428])
    d = np.array([0.49888980907994973, -0.18008006722834935, -0.8710777085159541])
    here = mesh_world(RIDGE, RIDGE_TRIANGLES, 0.0).move(start, d, radius=0.04)
    shift = np.full(3, offset)
    there = mesh_world(RIDGE, RIDGE_TRIANGLES, shift).move(start + shift, d, radius=0.04)
    # Before: from 1e4 on it stopped dead 0.15 m short at the ridge, on the
    # iteration cap (a face's normal taken for its neighbour's).
    assert here.stop == there.stop == "slid"
    assert np.abs((there.position - shift) - here.position).max() < 1e-6


def unwelded_floor(n, size):
    """A flat floor z = 0 of ``2 n^2`` triangles whose corners are all their own."""
    grid = np.linspace(-size, size, n + 1)
    vertices, triangles = [], []
    for i in range(n):
        for j in range(n):
            a, b = grid[i], grid[i + 1]
            c, e = grid[j], grid[j + 1]
            for tri in (((a, c), (b, c), (b, e)), ((a, c), (b, e), (a, e))):
                triangles.append(np.arange(len(vertices), len(vertices) + 3))
                vertices.extend((x, y, 0.0) for x, y in tri)
    return np.array(vertices, float), np.array(triangles, np.int64)


@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_glide_over_a_floor_of_unshared_corners_never_uses_up_the_iterations(offset):
    # 40 m over 2 m triangles pressing a little down, as a walk does: about
    # thirty seams. Corners at equal coordinates are one corner for the
    # edges, so the seams are inactive, and a glide level with the floor
    # never stops at one.
    vertices, triangles = unwelded_floor(40, 40.0)
    shift = np.array([offset, offset, -offset])
    world = mesh_world(vertices, triangles, shift, up="z")
    start = np.array([-20.3, 7.1, 0.4 + 5e-7]) + shift
    move = world.move(start, (30.0, -25.0, -0.3), radius=0.4)
    assert move.stop in ("done", "slid")
    assert np.allclose(move.position - shift, (9.7, -17.9, 0.4), atol=2e-6)
    assert move.position[2] - shift[2] >= 0.4 + 0.25e-6 - 1e-12


def test_long_glide_looks_ahead_a_span_at_a_time():
    # A 60 m glide costs passes in proportion to its length, not its
    # length times its contacts: the same end as ten 6 m glides.
    vertices, triangles = unwelded_floor(60, 60.0)
    world = mesh_world(vertices, triangles, 0.0, up="z")
    start = np.array([-30.0, -20.0, 0.5 + 5e-7])
    d = np.array([48.0, 36.0, -0.5])
    once = world.move(start, d, radius=0.5)
    p = start
    for _ in range(10):
        p = world.move(p, d / 10, radius=0.5).position
    assert once.stop in ("done", "slid")
    assert np.allclose(once.position[:2], start[:2] + d[:2], atol=1e-9)
    assert np.allclose(once.position, p, atol=1e-6)


def bumpy_terrain(rng, n=12, size=6.0):
    """A gently rolling mesh terrain (y up) with corners kept per triangle or shared."""
    xs = np.linspace(-size, size, n + 1)
    gx, gz = np.meshgrid(xs, xs, indexing="ij")
    gy = 0.3 * np.sin(gx * rng.uniform(0.3, 0.9)) * np.cos(gz * rng.uniform(0.3, 0.9))
    vertices = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], axis=1)
    triangles = []
    for i in range(n):
        for j in range(n):
            a, b, c, e = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, \
                i * (n + 1) + j + 1
            triangles += [(a, e, c), (a, c, b)]
    triangles = np.array(triangles, np.int64)
    if rng.integers(2):                     # each triangle its own corners
        vertices = vertices[triangles.ravel()]
        triangles = np.arange(len(vertices)).reshape(-1, 3)
    return vertices, triangles


@given(st.integers(0, 2**32 - 1))
def test_moves_over_a_mesh_terrain_survive_moving_it_10_km(seed):
    rng = np.random.default_rng(seed)
    vertices, triangles = bumpy_terrain(rng)
    here = mesh_world(vertices, triangles, 0.0)
    there = mesh_world(vertices, triangles, FAR)
    radius = rng.uniform(0.05, 0.6, 24)
    starts = np.column_stack([rng.uniform(-4, 4, 24), rng.uniform(0.5, 2.0, 24),
                              rng.uniform(-4, 4, 24)])
    # Half of them start resting on the terrain, as after a fall.
    for k in range(0, 24, 2):
        starts[k] = here.move(starts[k], (0.0, -5.0, 0.0), radius=radius[k]).position
    d = np.column_stack([rng.uniform(-4, 4, 24), rng.uniform(-0.5, 0.1, 24),
                         rng.uniform(-4, 4, 24)])
    parted = 0
    for k in range(24):
        a = here.move(starts[k], d[k], radius=radius[k])
        b = there.move(starts[k] + FAR, d[k], radius=radius[k])
        assert a.stop != "max_iterations" and b.stop != "max_iterations"
        parted += np.abs((b.position - FAR) - a.position).max() > 1e-6
    # A move that grazes an edge exactly may go either way (a threshold, not
    # an error): at most one of the 24.
    assert parted <= 1


@needs_data
def test_dungeon_legs_walk_the_same_in_a_level_moved_5_km():
    level = sidestep.load(DUNGEON)
    here = level.world
    vertices = here.geometry("mesh")["vertices"][0]
    triangles = here.geometry("mesh")["triangles"][0]
    shift = np.array([5000.0, 0.0, 5000.0])
    there = mesh_world(vertices, triangles, shift)
    rng = np.random.default_rng(3)
    feet = here.raycast((0.0, 12.0, -34.0), (0.0, -1.0, 0.0)).point + (0.0, 0.01, 0.0)
    for leg in range(12):
        angle = rng.uniform(0, 2 * np.pi)
        wish = 3.0 * np.array([np.cos(angle), 0.0, np.sin(angle)])
        a = Character(here, feet, radius=0.3, height=1.8, step_height=0.3)
        b = Character(there, feet + shift, radius=0.3, height=1.8, step_height=0.3)
        for _ in range(100):
            sa = a.update(wish, 1 / 60)
            sb = b.update(wish, 1 / 60)
            assert sa == sb
            assert sa != "max_iterations"
        assert np.abs((b.position - shift) - a.position).max() < 1e-6
        if a.position[1] > -5.0:
            feet = a.position.copy()
