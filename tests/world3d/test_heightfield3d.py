"""World3D heightfields: terrain as one mesh obstacle, no bumps on its edges, solid below."""
import numpy as np
import pytest

import sidestep
from sidestep.storage3d import heightfield_mesh
from sidestep.tolerances import PROMISE, SKIN

UPS = {"x": 0, "y": 1, "z": 2}


def gentle_heights(rows=21, cols=21, s=0.5):
    # A gently curved hill: slopes change by far less than the smooth-edge angle per cell.
    r, c = np.mgrid[0:rows, 0:cols] * s
    return 0.6 * np.sin(0.15 * c) + 0.4 * np.cos(0.12 * r)


def height_at(heights, s, u, v):
    """Height of the terrain at column coordinate u, row coordinate v, on its triangles."""
    c, r = int(u // s), int(v // s)
    fu, fv = u / s - c, v / s - r
    h00, h01 = heights[r, c], heights[r, c + 1]
    h10, h11 = heights[r + 1, c], heights[r + 1, c + 1]
    if fu >= fv:    # triangle (r, c), (r, c+1), (r+1, c+1)
        return h00 + fu * (h01 - h00) + fv * (h11 - h01)
    return h00 + fv * (h10 - h00) + fu * (h11 - h10)      # (r, c), (r+1, c+1), (r+1, c)


def largest_bend(heights, s):
    """Largest angle (radians) between the normals of two terrain triangles sharing an edge."""
    v, t = heightfield_mesh(heights, s, np.zeros(3), 1)
    n = np.cross(v[t[:, 1]] - v[t[:, 0]], v[t[:, 2]] - v[t[:, 0]])
    n /= np.linalg.norm(n, axis=1)[:, None]
    edges = {}
    for k, tri in enumerate(t):
        for i in range(3):
            edges.setdefault(frozenset((tri[i], tri[(i + 1) % 3])), []).append(k)
    pairs = np.array([e for e in edges.values() if len(e) == 2])
    return float(np.max(np.arccos(np.clip((n[pairs[:, 0]] * n[pairs[:, 1]]).sum(1), -1, 1))))


@pytest.mark.parametrize("up", ["y", "z", "x"])
def test_heightfield_corners_and_winding_follow_the_up_axis(up):
    h = gentle_heights(4, 5)
    v, t = heightfield_mesh(h, 0.5, np.array([1.0, 2.0, 3.0]), UPS[up])
    a = UPS[up]
    col, row = [x for x in range(3) if x != a]
    np.testing.assert_array_equal(v[7, [col, row, a]],
                                  [(1.0, 2.0, 3.0)[col] + 2 * 0.5, (1.0, 2.0, 3.0)[row] + 0.5,
                                   (1.0, 2.0, 3.0)[a] + h[1, 2]])
    normals = np.cross(v[t[:, 1]] - v[t[:, 0]], v[t[:, 2]] - v[t[:, 0]])
    assert np.all(normals[:, a] > 0)           # every triangle faces up


def test_slide_over_tilted_terrain_keeps_its_height_over_every_internal_edge():
    # A planar slope sampled on a grid: 2 x 19 x 19 coplanar triangles. Sliding
    # across their shared edges the agent keeps its distance from the plane
    # exactly (no bump), and moves as far as on a single plane.
    s = 0.5
    r, c = np.mgrid[0:20, 0:20] * s
    world = sidestep.World3D()
    world.add_heightfield(0.1 * c - 0.05 * r, cell_size=s)
    plane = sidestep.World3D()
    plane.add_panels([[(0, 0, 0), (0, -0.05 * 9.5, 9.5), (9.5, 0.1 * 9.5 - 0.05 * 9.5, 9.5),
                       (9.5, 0.1 * 9.5, 0)]])
    radius = 0.3
    p = np.array([1.0, 0.1 * 1.0 - 0.05 * 1.2, 1.2]) + radius * np.array([-0.1, 1.0, 0.05]) \
        / np.linalg.norm([-0.1, 1.0, 0.05]) * (1 + 1e-6)
    q = p.copy()
    for _ in range(60):
        m = world.move(p, (0.1, -0.05, 0.1), radius=radius)
        n = plane.move(q, (0.1, -0.05, 0.1), radius=radius)
        p, q = m.position, n.position
        assert world.clearance(p) >= radius - PROMISE
        assert abs(world.clearance(p) - plane.clearance(q)) < SKIN
    np.testing.assert_allclose(p, q, atol=1e-6)
    assert p[0] > 6.5 and p[2] > 6.5


def test_slide_over_gently_curved_terrain_never_sinks_or_snags():
    s = 0.5
    h = gentle_heights(s=s)
    world = sidestep.World3D()
    world.add_heightfield(h, cell_size=s)
    r = 0.3
    p = np.array([1.0, height_at(h, s, 1.0, 1.2) + r + 1e-6, 1.2])
    gaps = []
    for _ in range(70):
        m = world.move(p, (0.1, -0.05, 0.07), radius=r)
        p = m.position
        c = world.clearance(p)
        gaps.append(c - r)
        assert c >= r - PROMISE                                  # never below the surface
        assert m.stop == "slid"                                   # never stopped by an edge
    # Resting on the terrain all the way: over a convex bend the agent may
    # leave the ground by at most the bend's angle times the step (it slides
    # on along the plane it stood on), never by a bump off an internal edge.
    assert max(gaps) < largest_bend(h, s) * np.linalg.norm((0.1, -0.05, 0.07))
    assert p[0] > 0.9 * 7.0 + 1.0 and p[2] > 0.9 * 4.9 + 1.2


def test_raycast_hits_terrain_heights_exactly():
    s = 0.5
    h = gentle_heights(s=s)
    world = sidestep.World3D()
    oid = world.add_heightfield(h, cell_size=s, origin=(0.0, 0.0, 0.0))
    rng = np.random.default_rng(2)
    uv = rng.uniform(0.0, 9.99, (500, 2))
    o = np.column_stack([uv[:, 0], np.full(500, 10.0), uv[:, 1]])
    hits = world.raycast(o, np.tile((0.0, -1.0, 0.0), (500, 1)))
    assert np.all(hits.hit) and np.all(hits.obstacle == oid)
    want = np.array([height_at(h, s, u, v) for u, v in uv])
    np.testing.assert_allclose(hits.point[:, 1], want, rtol=0, atol=1e-12)
    # The part names the triangle: its cell is divmod(part // 2, cols - 1).
    cells = np.array([divmod(p // 2, h.shape[1] - 1) for p in hits.part])
    np.testing.assert_array_equal(cells, np.floor(uv[:, ::-1] / s).astype(int))


def test_points_below_the_terrain_have_negative_clearance_and_recover_up():
    s = 0.5
    h = gentle_heights(s=s)
    world = sidestep.World3D()
    world.add_heightfield(h, cell_size=s, origin=(0.0, 0.0, 0.0))
    rng = np.random.default_rng(4)
    uv = rng.uniform(0.0, 9.99, (300, 2))
    ground = np.array([height_at(h, s, u, v) for u, v in uv])
    depth = rng.uniform(0.01, 1.0, 300)
    below = np.column_stack([uv[:, 0], ground - depth, uv[:, 1]])
    c = world.clearance(below)
    assert np.all(c < 0.0)
    assert np.all(-c <= depth + 1e-12)       # at most the depth straight down
    above = np.column_stack([uv[:, 0], ground + depth, uv[:, 1]])
    assert np.all(world.clearance(above) > 0.0)
    m = world.move(below[0], (0.0, 0.0, 0.0), radius=0.2)
    assert m.recovered and m.position[1] > ground[0]
    assert world.clearance(m.position) >= 0.2 - PROMISE


def test_heightfield_for_z_up_worlds():
    h = gentle_heights(6, 8)
    world = sidestep.World3D(up="z")
    world.add_heightfield(h, cell_size=1.0, origin=(0.0, 0.0, -1.0))
    hit = world.raycast((2.5, 3.25, 5.0), (0.0, 0.0, -1.0))
    assert hit.point[2] == pytest.approx(-1.0 + height_at(h, 1.0, 2.5, 3.25), abs=1e-12)
    assert world.clearance((2.5, 3.25, -1.0 + height_at(h, 1.0, 2.5, 3.25) - 0.1)) < 0.0


def test_rays_meet_the_terrain_from_above_only():
    world = sidestep.World3D()
    world.add_heightfield(np.zeros((3, 3)))
    assert world.raycast((0.5, 1.0, 0.5), (0.0, -1.0, 0.0)).distance == 1.0
    assert not world.raycast((0.5, -1.0, 0.5), (0.0, 1.0, 0.0)).hit


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_slide_never_ends_inside_voxels_or_terrain(seed):
    rng = np.random.default_rng(seed)
    world = sidestep.World3D()
    # The terrain reaches well beyond every move: its sides are open (see
    # test_terrain_sides_are_open_below_the_surface).
    world.add_heightfield(rng.normal(0, 0.4, (31, 31)), cell_size=1.0, origin=(-15, -3, -15))
    world.add_voxels(rng.random((6, 4, 6)) < 0.3, cell_size=1.0, origin=(-3, -3, -3))
    p = rng.uniform(-5, 5, (48, 3))
    d = rng.normal(0, 3, (48, 3))
    r = rng.uniform(0, 0.6, 48)
    h = 0.0 if seed % 2 else 1.8
    for k in range(48):
        m = world.move(p[k], d[k], r[k], height=h)
        if m.stop == "stuck":
            continue
        half = max(0.0, 0.5 * h - r[k]) if h > 2 * r[k] else 0.0
        core = [m.position + (0, t, 0) for t in np.linspace(-half, half, 7)]
        assert world.clearance(np.array(core)).min() >= r[k] - PROMISE


def test_terrain_sides_are_open_below_the_surface():
    # Documented limit: the ground is solid below its surface only within the
    # grid's footprint, and nothing walls its sides, so an agent coming from
    # outside the footprint under the surface is not stopped there; its next
    # move starts overlapping and recovers up and out.
    world = sidestep.World3D()
    world.add_heightfield(np.ones((3, 3)), cell_size=1.0)
    m = world.move((-1.0, 0.5, 1.0), (1.5, 0.0, 0.0), radius=0.2)
    assert m.stop == "done" and world.clearance(m.position) < 0.0
    again = world.move(m.position, (0.0, 0.0, 0.0), radius=0.2)
    assert again.recovered and world.clearance(again.position) >= 0.2 - PROMISE
