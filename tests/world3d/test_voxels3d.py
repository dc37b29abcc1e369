"""World3D voxel tables: the panel article's 3D look-up table, one obstacle, solid."""
import numpy as np
import pytest

import sidestep
from sidestep.kernels3d.voxels import merge_cells, surface_squares
from sidestep.tolerances import PROMISE, SKIN


def stepped_table():
    # A 2 x 2 x 2 table (x, y, z) whose top layer (j = 1) is all blocked and
    # whose bottom layer holds one cell: the merge gives three boxes, and the
    # flat top y = 2 * cell is split by seams at x = cell and z = cell.
    b = np.zeros((2, 2, 2), bool)
    b[0, 0, 0] = True
    b[:, 1, :] = True
    return b


def test_merged_boxes_cover_exactly_the_blocked_cells():
    rng = np.random.default_rng(5)
    for _ in range(20):
        b = rng.random(tuple(rng.integers(1, 7, 3))) < 0.6
        cover = np.zeros(b.shape, np.int64)
        boxes = merge_cells(b.view(np.uint8))
        for i0, j0, k0, i1, j1, k1 in boxes:
            cover[i0:i1, j0:j1, k0:k1] += 1
        np.testing.assert_array_equal(cover, b.astype(np.int64))   # each cell once
        assert len(boxes) <= b.sum()
    full = np.ones((5, 6, 7), bool)
    assert merge_cells(full.view(np.uint8)).tolist() == [[0, 0, 0, 5, 6, 7]]


def test_surface_squares_face_out_of_the_blocks():
    rng = np.random.default_rng(6)
    b = rng.random((4, 3, 5)) < 0.5
    squares = surface_squares(b.view(np.uint8))
    for q in squares.astype(float):
        normal = np.cross(q[1] - q[0], q[2] - q[0])
        centre = q.mean(axis=0)
        inside = np.floor(centre - 0.5 * normal).astype(int)
        outside = np.floor(centre + 0.5 * normal).astype(int)
        assert b[tuple(inside)]
        in_table = np.all((outside >= 0) & (outside < b.shape))
        assert not in_table or not b[tuple(outside)]
    # One square per blocked cell face that meets a free cell or the outside.
    padded = np.pad(b, 1)
    faces = sum(np.sum(padded & ~np.roll(padded, s, axis=a)) for a in range(3) for s in (1, -1))
    assert len(squares) == faces


@pytest.mark.parametrize("radius", [0.0, 0.2, 0.5])
@pytest.mark.parametrize("heading", [(1, 0), (0, 1), (0.7, 0.7), (-1, -1)])
def test_glides_over_voxel_seam(radius, heading):
    # Sliding over the flat top of neighbouring merged boxes, pressed down
    # as by gravity, across the seams: the height never changes and the whole
    # horizontal move is kept.
    world = sidestep.World3D()
    world.add_voxels(stepped_table(), cell_size=2.0)
    step = 0.1 * np.array([heading[0], 0.0, heading[1]])
    down = np.array([0.0, -0.05, 0.0])
    p = np.array([2.0, 4.0 + radius + 0.5 * SKIN, 2.0]) - 15 * step
    heights = []
    for _ in range(30):
        m = world.move(p, step + down, radius=radius)
        p = m.position
        heights.append(p[1])
    assert max(heights) - min(heights) < 0.5 * SKIN
    np.testing.assert_allclose(p[[0, 2]], 2.0 + 15 * step[[0, 2]], atol=1e-9)


def test_clearance_inside_the_blocks_is_never_positive():
    rng = np.random.default_rng(7)
    b = rng.random((6, 5, 4)) < 0.55
    world = sidestep.World3D()
    world.add_voxels(b, cell_size=0.5, origin=(1.0, -2.0, 3.0))
    pts = rng.uniform(0, 1, (4000, 3)) * np.array(b.shape) * 0.5 + (1.0, -2.0, 3.0)
    cells = np.floor((pts - (1.0, -2.0, 3.0)) / 0.5).astype(int)
    inside = b[tuple(cells.T)]
    c = world.clearance(pts)
    assert np.all(c[inside] <= 0.0)
    assert np.all(c[~inside] >= 0.0)
    # Cell centres are deep in a box: at least the depth in their own cell.
    centres = (np.argwhere(b) + 0.5) * 0.5 + (1.0, -2.0, 3.0)
    assert np.all(world.clearance(centres) <= -0.25 + 1e-12)
    # Outside, the clearance is the distance to the nearest blocked cell.
    lo = np.argwhere(b) * 0.5 + (1.0, -2.0, 3.0)
    out = pts[~inside][:300]
    gap = np.maximum(np.maximum(lo[None] - out[:, None], out[:, None] - lo[None] - 0.5), 0.0)
    np.testing.assert_allclose(c[~inside][:300], np.sqrt((gap ** 2).sum(-1)).min(1),
                               atol=1e-12)


def test_agent_inside_the_blocks_recovers_to_the_nearest_face():
    world = sidestep.World3D()
    world.add_voxels(stepped_table(), cell_size=2.0)
    m = world.move((1.0, 1.0, 0.4), (0.0, 0.0, 0.0), radius=0.3)
    assert m.recovered
    np.testing.assert_allclose(m.position, (1.0, 1.0, -0.3), atol=4 * SKIN)
    assert world.clearance(m.position) >= 0.3 - PROMISE


def test_voxels_block_rays_and_fast_agents():
    world = sidestep.World3D()
    oid = world.add_voxels(stepped_table(), cell_size=2.0)
    hits = world.raycast([(-1.0, 1.0, 1.0), (-1.0, 1.0, 3.0), (1.0, 1.0, 1.0)],
                         [(1.0, 0.0, 0.0)] * 3)
    np.testing.assert_array_equal(hits.hit, [True, False, True])
    np.testing.assert_array_equal(hits.distance[[0, 2]], [1.0, 0.0])   # 0 from inside
    np.testing.assert_array_equal(hits.obstacle[[0, 2]], [oid, oid])
    for speed in (10.0, 100.0, 1000.0):
        m = world.move((1.0, 6.0, 1.0), (0.0, -speed, 0.0), radius=0.1)
        assert m.stop == "blocked" and m.position[1] == pytest.approx(4.1, abs=2 * SKIN)


def test_voxels_are_one_obstacle_that_moves_and_goes():
    world = sidestep.World3D()
    oid = world.add_voxels(stepped_table().astype(np.uint8), cell_size=2.0)
    assert world.family(oid) == "voxels" and len(world) == 1
    assert repr(world) == "World3D(1 obstacle: 1 voxel table)"
    world.translate(oid, (10.0, 0.0, 0.0))
    assert world.clearance((11.0, 1.0, 1.0)) < 0.0
    assert world.clearance((1.0, 1.0, 1.0)) > 0.0
    g = world.geometry("voxels")
    np.testing.assert_array_equal(g["blocked"][0], stepped_table())
    np.testing.assert_array_equal(g["origin"][0], (10.0, 0.0, 0.0))
    world.remove(oid)
    assert world.clearance((11.0, 1.0, 1.0)) == np.inf


def test_empty_voxel_table_blocks_nothing():
    world = sidestep.World3D()
    world.add_voxels(np.zeros((3, 3, 3), bool))
    assert world.move((0.5, 0.5, 0.5), (1.0, 0.0, 0.0), radius=0.2).stop == "done"
    assert world.clearance((0.5, 0.5, 0.5)) == np.inf
