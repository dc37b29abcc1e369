"""Point against an axis-aligned box: containment, distance, depth."""
from sidestep.kernels.box import contains_point_box, depth_point_box, distance_point_box


def test_contains_inside_edge_and_outside():
    assert contains_point_box(1.0, 1.0, 0.0, 0.0, 2.0, 3.0)
    assert contains_point_box(2.0, 3.0, 0.0, 0.0, 2.0, 3.0)      # on a corner: closed
    assert not contains_point_box(2.5, 1.0, 0.0, 0.0, 2.0, 3.0)


def test_distance_outside_corner_and_inside():
    assert distance_point_box(5.0, 7.0, 0.0, 0.0, 2.0, 3.0) == 5.0
    assert distance_point_box(1.0, 1.0, 0.0, 0.0, 2.0, 3.0) == 0.0


def test_depth_picks_nearest_side_with_outward_normal():
    depth, nx, ny, qx, qy = depth_point_box(1.8, 1.0, 0.0, 0.0, 2.0, 3.0)
    assert abs(depth - 0.2) < 1e-12 and (nx, ny) == (1.0, 0.0) and (qx, qy) == (2.0, 1.0)
    depth, nx, ny, _, _ = depth_point_box(1.0, 0.1, 0.0, 0.0, 2.0, 3.0)
    assert abs(depth - 0.1) < 1e-12 and (nx, ny) == (0.0, -1.0)
