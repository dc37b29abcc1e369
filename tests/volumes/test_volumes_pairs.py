"""Named cases for every pair of volumes, both ways round, 2D and 3D."""
import math

import pytest

from sidestep.volumes import Box, Capsule, Containment, Frustum, Point, Ray, Segment, Sphere

D, I, C = Containment.DISJOINT, Containment.INTERSECTS, Containment.CONTAINS

F3 = Frustum.perspective(eye=(0, 0, 5), target=(0, 0, 0), up=(0, 1, 0), fov_y=math.pi / 2,
                         aspect=1.0, near=1.0, far=10.0)      # z from 4 to -5, |x|,|y| <= 5 - z
W2 = Frustum.wedge(eye=(0, 0), heading=(1, 0), fov=math.pi / 2, near=1.0, far=10.0)

# (name, a, b, a.contains(b), b.contains(a))
CASES = [
    ("box holds box", Box((0, 0, 0), (4, 4, 4)), Box((1, 1, 1), (2, 2, 2)), C, I),
    ("box touches box at a face", Box((0, 0, 0), (1, 1, 1)), Box((1, 0, 0), (2, 1, 1)), I, I),
    ("boxes apart", Box((0, 0, 0), (1, 1, 1)), Box((1.1, 0, 0), (2, 1, 1)), D, D),
    ("box equals box", Box((0, 0), (1, 1)), Box((0, 0), (1, 1)), C, C),
    ("flat box in box", Box((0, 0, 0), (2, 2, 2)), Box((0, 0, 1), (2, 2, 1)), C, I),
    ("sphere in box", Box((0, 0, 0), (4, 4, 4)), Sphere((2, 2, 2), 2.0), C, I),
    ("sphere beside box corner", Box((0, 0, 0), (1, 1, 1)), Sphere((1.6, 1.6, 1.6), 1.0), D, D),
    ("sphere touching box corner", Box((0, 0), (1, 1)), Sphere((2, 1), 1.0), I, I),
    ("zero sphere on box face", Box((0, 0, 0), (1, 1, 1)), Sphere((1, 0.5, 0.5), 0.0), C, I),
    ("sphere holds box", Sphere((0, 0), 2.0), Box((-1, -1), (1, 1)), C, I),
    ("spheres touching", Sphere((0, 0, 0), 1.0), Sphere((2, 0, 0), 1.0), I, I),
    ("spheres apart", Sphere((0, 0), 1.0), Sphere((2.1, 0), 1.0), D, D),
    ("sphere in sphere", Sphere((0, 0, 0), 3.0), Sphere((1, 0, 0), 2.0), C, I),
    ("point in sphere", Sphere((0, 0), 1.0), Point((1, 0)), C, I),
    ("point outside", Sphere((0, 0), 1.0), Point((1.01, 0)), D, D),
    ("points equal", Point((1, 2, 3)), Point((1, 2, 3)), C, C),
    ("point on segment", Segment((0, 0), (2, 0)), Point((1, 0)), C, I),
    ("segments crossing", Segment((0, 0), (2, 2)), Segment((0, 2), (2, 0)), I, I),
    ("segments skew", Segment((0, 0, 0), (1, 0, 0)), Segment((0, 1, 1), (0, 2, 1)), D, D),
    ("segment in segment", Segment((0, 0), (4, 0)), Segment((1, 0), (2, 0)), C, I),
    ("capsules touching", Capsule((0, 0, 0), (1, 0, 0), 0.5), Capsule((0, 1, 0), (1, 1, 0), 0.5),
     I, I),
    ("capsule holds sphere", Capsule((0, 0), (4, 0), 1.0), Sphere((2, 0.5), 0.5), C, I),
    ("capsule crosses box", Capsule((-2, 0.5), (2, 0.5), 0.1), Box((0, 0), (1, 1)), I, I),
    ("capsule beside box edge", Capsule((3.8, -1, 0.5), (-1, 3.8, 0.5), 0.5), Box((0, 0, 0), (1, 1, 1)),
     D, D),
    ("capsule in box", Box((0, 0, 0), (4, 4, 4)), Capsule((1, 1, 1), (3, 3, 3), 1.0), C, I),
    # Regression: the line x + y = 2.3 passes 0.21 from the box's corner (1, 1).
    # The stadium reaches below x = 1 and below y = 1, so neither of the box's
    # sides sets them apart, and a flat box has no edge across its plane to
    # cross with the core: only the core's own normal (1, 1) does. The test
    # once missed it and answered INTERSECTS.
    ("stadium beside a box's corner", Box((0, 0), (1, 1)), Capsule((2.3, 0), (0, 2.3), 0.1),
     D, D),
    ("segment beside a wedge's corner", W2, Segment((9.7, 10.5), (10.7, 9.5)), D, D),
    ("ray through box", Ray((-5, 0.5, 0.5), (1, 0, 0)), Box((0, 0, 0), (1, 1, 1)), I, I),
    ("ray away from box", Ray((-5, 0.5), (-1, 0)), Box((0, 0), (1, 1)), D, D),
    ("ray along a face", Ray((-5, 1), (1, 0)), Box((0, 0), (1, 1)), I, I),
    ("ray starting inside", Ray((0.5, 0.5, 0.5), (0, 0, 1)), Box((0, 0, 0), (1, 1, 1)), I, I),
    ("ray holds point", Ray((0, 0), (1, 1)), Point((2, 2)), C, I),
    ("ray holds later ray", Ray((0, 0), (1, 0)), Ray((3, 0), (2, 0)), C, I),
    ("rays opposite, overlapping", Ray((0, 0), (1, 0)), Ray((3, 0), (-1, 0)), I, I),
    ("frustum holds box", F3, Box((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)), C, I),
    ("frustum beside box (planes alone say intersects)", F3,
     Box((5.5, 5.5, 0.2), (6.5, 6.5, 1.2)), D, D),
    ("frustum crosses box", F3, Box((-1, -1, 3), (1, 1, 6)), I, I),
    ("box far behind frustum", F3, Box((-1, -1, -20), (1, 1, -19)), D, D),
    ("frustum holds sphere", F3, Sphere((0, 0, 0), 1.0), C, I),
    ("sphere touching frustum far plane", F3, Sphere((0, 0, -6), 1.0), I, I),
    ("sphere beside frustum edge", F3, Sphere((6.5, 6.5, 0), 1.0), D, D),
    ("sphere near frustum edge, crossing", F3, Sphere((5.4, 5.4, 0), 0.8), I, I),
    ("frustum holds its own eye? no", F3, Point((0, 0, 5)), D, D),
    ("frustum holds segment", F3, Segment((0, 0, 3), (0, 0, -4)), C, I),
    ("ray into frustum", Ray((0, 0, 20), (0, 0, -1)), F3, I, I),
    ("frustum in box", Box((-20, -20, -20), (20, 20, 20)), F3, C, I),
    ("frustum vs frustum apart", F3, Frustum.perspective(eye=(50, 0, 5), target=(60, 0, 5),
                                                          up=(0, 1, 0), fov_y=1.0, aspect=1.0,
                                                          near=1.0, far=10.0), D, D),
    ("wedge holds circle", W2, Sphere((5, 0), 1.0), C, I),
    ("wedge beside circle", W2, Sphere((5, 7), 1.0), D, D),
    ("wedge crosses circle", W2, Sphere((10, 0), 1.0), I, I),
    ("wedge holds box", W2, Box((4, -1), (5, 1)), C, I),
    ("circle behind wedge eye", W2, Sphere((-2, 0), 1.0), D, D),
    ("wedge holds stadium", W2, Capsule((3, 0), (6, 0), 0.5), C, I),
]


@pytest.mark.parametrize("name, a, b, ab, ba", CASES, ids=[c[0] for c in CASES])
def test_pair(name, a, b, ab, ba):
    assert a.contains(b) is ab
    assert b.contains(a) is ba
    assert a.intersects(b) == (ab != D) == b.intersects(a)


def test_distance_along():
    box = Box((0, 0, 0), (1, 1, 1))
    assert Ray((-5, 0.5, 0.5), (1, 0, 0)).distance_along(box) == pytest.approx(5.0, abs=1e-8)
    assert Ray((0.5, 0.5, 0.5), (1, 0, 0)).distance_along(box) == 0.0
    assert Ray((-5, 0.5, 0.5), (-1, 0, 0)).distance_along(box) is None
    assert Ray((-5, 1), (1, 0)).distance_along(Box((0, 0), (1, 1))) == pytest.approx(5, abs=1e-8)
    assert Segment((-5, 0), (-1, 0)).distance_along(Sphere((0, 0), 0.5)) is None
    assert Segment((-5, 0), (5, 0)).distance_along(Sphere((0, 0), 0.5)) == pytest.approx(4.5)
    assert Segment((1, 1), (1, 1)).distance_along(Sphere((0, 0), 2)) == 0.0
    assert Ray((0, 0, 20), (0, 0, -1)).distance_along(F3) == pytest.approx(16.0, abs=1e-8)
    assert Ray((0, 0), (1, 1)).distance_along(Capsule((3, 0), (0, 3), 0.5)) == \
        pytest.approx(1.5 * math.sqrt(2) - 0.5, abs=1e-8)


@pytest.mark.parametrize("make, message", [
    (lambda: Sphere((0, 0), -1.0), "radius"),
    (lambda: Sphere((0, math.nan), 1.0), "center"),
    (lambda: Box((0, 0, 0), (1, -1, 1)), "min"),
    (lambda: Box((0, 0), (1, 1, 1)), "max"),
    (lambda: Ray((0, 0), (0, 0)), "direction"),
    (lambda: Capsule((0, 0), (1, 1), math.inf), "radius"),
    (lambda: Point((1, 2, 3, 4)), "position"),
    (lambda: Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), 1.0, 1.0, 5.0, 5.0), "near"),
    (lambda: Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 0, 1), 1.0, 1.0, 1.0, 5.0), "up"),
    (lambda: Frustum.perspective((0, 0, 0), (0, 0, 0), (0, 1, 0), 1.0, 1.0, 1.0, 5.0), "target"),
    (lambda: Frustum.perspective((0, 0, 0), (0, 0, -1), (0, 1, 0), 4.0, 1.0, 1.0, 5.0), "fov_y"),
    (lambda: Frustum.from_planes([(1, 0, 0, 1)] * 6), "degenerate"),
    (lambda: Frustum.from_matrix(((1, 0, 0, 0),) * 4, convention="vulkan"), "convention"),
    (lambda: Frustum.wedge((0, 0), (1, 0), 1.0, 2.0, 1.0), "near"),
    (lambda: Box((0, 0), (1, 1)).contains(Box((0, 0, 0), (1, 1, 1))), "3D"),
])
def test_bad_input_names_the_argument(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_box_enclosing_merge_grow():
    b = Box.enclosing([(0, 1), (2, -1), (1, 3)])
    assert (b.min, b.max) == ((0, -1), (2, 3))
    assert b.merge(Box((5, 5), (6, 6))) == Box((0, -1), (6, 6))
    assert b.grow(1) == Box((-1, -2), (3, 4))
    assert b.contains(Point((0, 3))) is C
