"""Raw triangle meshes: ``validation.mesh`` refuses bad arrays, ``drop_degenerate`` cleans good ones."""
import numpy as np
import pytest

from sidestep import validation
from sidestep.degenerate import drop_degenerate, surface_kinds

CORNERS = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]


@pytest.mark.parametrize("vertices, triangles, error, words", [
    ([(0, 0), (1, 0), (0, 1)], [(0, 1, 2)], ValueError, r"vertices must have shape \(n, 3\)"),
    (CORNERS, [(0, 1)], ValueError, r"triangles must have shape \(m, 3\)"),
    (CORNERS, [0, 1, 2], ValueError, r"triangles must have shape \(m, 3\)"),
    (CORNERS, [(0, 1, 3)], ValueError, r"triangles\[0\] indexes corner 3, but vertices holds 3"),
    (CORNERS, [(0, 1, 2), (0, -1, 2)], ValueError, r"triangles\[1\] indexes corner -1"),
    (CORNERS, [(0, 1, 2.5)], ValueError, "whole corner indices; found 2.5"),
    (CORNERS, [(0, 1, np.nan)], ValueError, "whole corner indices; found nan"),
    (CORNERS, [(True, False, True)], TypeError, "integer corner indices, got dtype bool"),
    (CORNERS, [("0", "1", "2")], TypeError, "integer corner indices"),
    (CORNERS, "012", TypeError, "integer corner indices, got str"),
    ([(0, 0, 0), (np.nan, 0, 0), (0, 0, 1)], [(0, 1, 2)], ValueError,
     r"vertices must be finite; found nan at index \(1, 0\)"),
    ([(0, 0, 0), (np.inf, 0, 0), (0, 0, 1)], [(0, 1, 2)], ValueError, "vertices must be finite"),
    ([(0, 0, 0), (1e300, 0, 0), (0, 0, 1)], [(0, 1, 2)], ValueError, "vertices must be within"),
    ([("a", "b", "c")], [(0, 0, 0)], TypeError, "vertices must be numbers, got text"),
    (np.zeros((0, 3)), [(0, 1, 2)], ValueError, "but vertices is empty"),
])
def test_bad_mesh_arrays_are_refused_naming_the_argument(vertices, triangles, error, words):
    with pytest.raises(error, match=words):
        validation.mesh(vertices, triangles)


def test_good_mesh_arrays_come_back_as_float64_and_int64():
    v, t = validation.mesh(CORNERS, np.array([(0, 1, 2)], dtype=np.uint16))
    assert v.dtype == np.float64 and v.shape == (3, 3) and v.flags.c_contiguous
    assert t.dtype == np.int64 and t.tolist() == [[0, 1, 2]]
    v, t = validation.mesh(CORNERS, [(0.0, 1.0, 2.0)])          # whole floats are indices
    assert t.dtype == np.int64
    v, t = validation.mesh(np.zeros((0, 3)), [])                 # an empty mesh is a mesh
    assert t.shape == (0, 3)


def test_argument_names_can_be_given():
    with pytest.raises(ValueError, match=r"faces\[0\] indexes corner 9, but points holds 3"):
        validation.mesh(CORNERS, [(0, 1, 9)], names=("points", "faces"))


def test_zero_area_means_an_exactly_zero_cross_product():
    v = np.array([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1e-300, 0), (0, 0, 1)], dtype=float)
    t = np.array([(0, 1, 2),      # collinear: zero
                  (0, 0, 4),      # a repeated corner: zero
                  (0, 1, 3),      # a sliver of area 5e-301: kept, it has a plane
                  (0, 1, 4)])
    zero, non_finite = surface_kinds(v, t)
    assert zero.tolist() == [True, True, False, False]
    assert not non_finite.any()


def test_drop_degenerate_keeps_the_order_and_says_what_went():
    v = np.array(CORNERS + [(2.0, 0.0, 0.0), (np.inf, 0.0, 0.0)])
    t = np.array([(0, 1, 4), (0, 1, 2), (0, 1, 3), (2, 1, 0), (1, 1, 1)])
    kept = drop_degenerate(v, t)
    assert kept.triangles.tolist() == [[0, 1, 2], [2, 1, 0]]
    assert kept.kept.tolist() == [1, 3]
    assert (kept.zero_area, kept.non_finite, kept.dropped) == (2, 1, 3)


def test_drop_degenerate_on_a_clean_mesh_keeps_everything():
    rng = np.random.default_rng(3)
    v = rng.normal(size=(50, 3))
    t = np.array([rng.choice(50, 3, replace=False) for _ in range(40)])
    kept = drop_degenerate(v, t)
    assert kept.dropped == 0
    np.testing.assert_array_equal(kept.triangles, t)
