"""Triangle meshes: active-edge flags, and no bump on the seam of coplanar triangles."""
import math

import numpy as np
import pytest

import sidestep
from sidestep.kernels3d.mesh import active_edges, face_normals
from sidestep.kernels3d.polygon import (ALL_EDGES, separation_capsule_polygon,
                                        sweep_capsule_polygon)

# A flat 2 x 1 floor at z = 0 in two triangles sharing the edge (1,0)-(1,1)...
# made of a square [0, 2] x [0, 1] split along its diagonal from (0, 0) to (2, 1).
FLOOR = np.array([[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]], float)
FLOOR_TRIANGLES = np.array([[0, 1, 2], [0, 2, 3]])


def triangle_args(vertices, triangles, k):
    loop = triangles.ravel().astype(np.int64)
    normals, _ = face_normals(vertices, triangles.astype(np.int64))
    return vertices, loop, 3 * k, 3, *normals[k]


def test_shared_edge_of_coplanar_triangles_is_inactive_and_borders_active():
    flags = active_edges(FLOOR, FLOOR_TRIANGLES, math.radians(5))
    # Triangle 0: edges (0,1), (1,2) borders; (2,0) shared. Triangle 1: (0,2) shared.
    assert list(flags) == [0b011, 0b110]


def test_crease_steeper_than_the_threshold_is_active_convex_or_concave():
    for lift in (1.0, -1.0):       # a ridge and a valley, 45 degrees
        v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, lift], [2, 1, lift]], float)
        t = np.array([[0, 1, 2], [1, 3, 4], [1, 4, 2]])
        flags = active_edges(v, t, math.radians(10))
        assert flags[0] & 0b010          # edge (1, 2) of the crease
        assert not flags[1] & 0b100 and not flags[2] & 0b001   # the flat quad's own diagonal


def test_gently_curved_neighbours_are_inactive_below_the_threshold():
    bend = math.tan(math.radians(5))
    v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, bend], [2, 1, bend]], float)
    t = np.array([[0, 1, 2], [1, 3, 4], [1, 4, 2]])
    assert not active_edges(v, t, math.radians(10))[0] & 0b010
    assert active_edges(v, t, math.radians(4))[0] & 0b010


def test_flags_do_not_depend_on_winding():
    flipped = FLOOR_TRIANGLES.copy()
    flipped[1] = flipped[1, ::-1]           # the neighbour wound the other way
    flags = active_edges(FLOOR, flipped, math.radians(5))
    assert flags[0] == 0b011 and bin(flags[1]).count("1") == 2


def test_edges_of_zero_area_and_non_manifold_triangles_stay_active():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0], [0.5, 0, 0], [0, 0, 1]], float)
    fan = np.array([[0, 1, 2], [1, 0, 3], [0, 1, 5]])        # three share edge (0, 1)
    assert all(active_edges(v, fan, math.radians(5)) & 0b001)
    sliver = np.array([[0, 1, 2], [1, 0, 4]])                 # zero area neighbour
    assert active_edges(v, sliver, math.radians(5))[0] & 0b001


def test_face_normals_and_areas():
    normals, areas = face_normals(FLOOR, FLOOR_TRIANGLES)
    assert normals.tolist() == [[0, 0, 1], [0, 0, 1]] and areas.tolist() == [1.0, 1.0]


def _seam_sweep(flags_of, below=2e-15, level=-1.0, dz=0.0):
    # A ball resting ``below`` inside its radius on triangle 0 (a few ulps:
    # as rounding leaves it), sliding across the diagonal seam into triangle 1.
    r = 0.25
    start = np.array([1.2, 0.3, r - below])
    d = np.array([-0.6, 0.4, dz])
    hits = []
    for k in range(2):
        f, nx, ny, nz, *_ = sweep_capsule_polygon(*start, *start, *d, r,
                                                  *triangle_args(FLOOR, FLOOR_TRIANGLES, k),
                                                  flags_of(k), False, level)
        if f != math.inf:
            hits.append((f, (nx, ny, nz)))
    return hits


def test_sliding_over_the_seam_of_coplanar_triangles_never_bumps():
    flags = active_edges(FLOOR, FLOOR_TRIANGLES, math.radians(5))
    assert _seam_sweep(lambda k: flags[k]) == []


def test_gliding_within_the_level_band_over_a_seam_never_bumps():
    # A slide sweeps its agent grown by a skin and keeps it half a skin off
    # the floor: level with the face (``level`` a quarter skin over the
    # radius), even moving into the floor by a rounding step, it glides on.
    flags = active_edges(FLOOR, FLOOR_TRIANGLES, math.radians(5))
    skin = 1e-6
    grown = _seam_sweep(lambda k: flags[k], below=0.5 * skin, level=0.25 - 0.75 * skin,
                        dz=-1e-13)
    assert grown == []
    # Pressing a whole skin into the floor is not gliding: the face under it stops it.
    pressed = _seam_sweep(lambda k: flags[k], below=0.5 * skin, level=0.25 - 0.75 * skin,
                          dz=-skin)
    assert pressed[0] == (0.0, (0.0, 0.0, 1.0))
    # Judged as level only within rounding, the same start 10 ulps too deep is not.
    assert _seam_sweep(lambda k: flags[k], below=0.5 * skin, dz=-1e-13) != []


def test_without_edge_flags_the_seam_bumps():
    # The failure the flags prevent: the neighbour's edge normal tilts
    # against the motion, a contact that stops the slide on a flat floor.
    hits = _seam_sweep(lambda k: ALL_EDGES)
    assert hits and np.dot(hits[0][1], [-0.6, 0.4, 0.0]) < 0.0


def test_separation_beside_an_inactive_edge_reports_the_face_normal():
    flags = active_edges(FLOOR, FLOOR_TRIANGLES, math.radians(5))
    # Over triangle 0, 0.05 from the seam and 0.2 up: triangle 1 is nearest at its edge.
    p = np.array([1.0 + 0.05 / math.sqrt(5), 0.5 - 0.1 / math.sqrt(5), 0.2])
    sep, *n, _, _, _ = separation_capsule_polygon(*p, *p, *triangle_args(FLOOR, FLOOR_TRIANGLES, 1),
                                                  flags[1], False)
    assert sep == pytest.approx(math.hypot(0.05, 0.2)) and n == [0, 0, 1]
    sep, *n, _, _, _ = separation_capsule_polygon(*p, *p, *triangle_args(FLOOR, FLOOR_TRIANGLES, 1),
                                                  ALL_EDGES, False)
    assert n[2] < 0.98


def test_landing_on_a_vertex_inside_a_flat_fan_reports_the_face_normal():
    # Four coplanar triangles around the centre (0, 0, 0): its edges all inactive.
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]], float)
    t = np.array([[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]])
    flags = active_edges(v, t, math.radians(5))
    assert list(flags) == [0b010] * 4
    # A ball falling straight onto the centre vertex: triangle 0 alone meets it
    # with its face normal (every edge there inactive).
    a = np.array([0.0, 0.0, 1.0])
    d = np.array([0.0, 0.0, -1.0])
    f, *n, _, _, _ = sweep_capsule_polygon(*a, *a, *d, 0.1, *triangle_args(v, t, 0), flags[0],
                                           False)
    assert f == pytest.approx(0.9) and n == [0, 0, 1]
    # Falling at a slant onto the vertex from outside triangle 0's wedge, the
    # ball meets the face of the triangle under it first, level with the fan;
    # triangle 0 alone would meet it lower than its face's plane, at its
    # vertex, and answers with the vertex's own normal then (never the face's:
    # beyond a convex edge that would let it glide into the face).
    a = np.array([-0.3, -0.3, 1.0])
    d = np.array([0.3, 0.3, -1.0])
    world = sidestep.World3D(up="z")
    world.add_mesh(v, t)
    landed = world.move(a, d, radius=0.1)
    assert landed.position[2] == pytest.approx(0.1, abs=2e-6)
    np.testing.assert_allclose(landed.contacts[0].normal, (0.0, 0.0, 1.0))
    f, *n, _, _, _ = sweep_capsule_polygon(*a, *a, *d, 0.1, *triangle_args(v, t, 0), flags[0],
                                           False)
    assert f > 0.9 and n[2] < 1.0
