"""Polygons: inside test (concave too), depth, simplicity check, area."""
import numpy as np
import pytest

from sidestep.kernels.polygon import (contains_point_polygon, depth_point_polygon,
                                      first_crossing_polygon, signed_area_polygon)

# A "C" shape: concave, opening to the right.
C_SHAPE = np.array([[0, 0], [4, 0], [4, 1], [1, 1], [1, 3], [4, 3], [4, 4], [0, 4]], float)
C_FLAT = C_SHAPE.ravel()   # the kernels read vertices stored flat


def test_contains_reads_from_an_offset():
    # Two polygons stored one after the other: the second starts at 2 * 8.
    both = np.concatenate([C_FLAT, C_FLAT + 10.0])
    assert contains_point_polygon(10.5, 12.0, both, 2 * len(C_SHAPE), len(C_SHAPE))
    assert not contains_point_polygon(0.5, 2.0, both, 2 * len(C_SHAPE), len(C_SHAPE))


def test_contains_concave_inside_and_in_the_notch():
    assert contains_point_polygon(0.5, 2.0, C_FLAT, 0, len(C_SHAPE))
    assert not contains_point_polygon(2.5, 2.0, C_FLAT, 0, len(C_SHAPE))   # in the notch
    assert not contains_point_polygon(-1.0, 2.0, C_FLAT, 0, len(C_SHAPE))


def test_contains_either_winding():
    cw = C_SHAPE[::-1].ravel()
    assert contains_point_polygon(0.5, 2.0, cw, 0, len(C_SHAPE))


def test_depth_inside():
    depth, nx, ny, qx, qy = depth_point_polygon(0.3, 2.0, C_FLAT, 0, len(C_SHAPE))
    assert depth == pytest.approx(0.3) and (nx, ny) == pytest.approx((-1.0, 0.0))


@pytest.mark.parametrize("vertices, crossing", [
    ([[0, 0], [2, 0], [2, 2], [0, 2]], False),          # square
    ([[0, 0], [2, 2], [2, 0], [0, 2]], True),           # bow tie
    ([[0, 0], [2, 0], [1, 0], [1, 1]], True),           # folds back along an edge
    ([[0, 0], [4, 0], [4, 4], [2, 0.0], [0, 4]], True),  # vertex touching an edge
    (C_SHAPE, False),
])
def test_first_crossing(vertices, crossing):
    i, j = first_crossing_polygon(np.asarray(vertices, float))
    assert (i >= 0) == crossing


def test_signed_area_sign_follows_winding():
    square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], float)
    assert signed_area_polygon(square) == 4.0
    assert signed_area_polygon(square[::-1].copy()) == -4.0
