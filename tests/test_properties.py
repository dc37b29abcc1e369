"""Property tests (Hypothesis) for the promises of the design, on every family."""
import math

import numpy as np
from hypothesis import given, strategies as st

import sidestep
from sidestep.tolerances import PROMISE, SKIN
from worlds import FAMILIES, make_world

import oracle

FAMILY_SETS = [(f,) for f in FAMILIES] + [FAMILIES]
coordinate = st.floats(-5.0, 25.0, allow_nan=False)
radius = st.sampled_from([0.0, 0.05, 0.3, 0.8])
displacement = st.tuples(st.floats(-30, 30, allow_nan=False), st.floats(-30, 30, allow_nan=False))

_WORLDS = {}


def world_for(families, seed):
    # Worlds are built once per (families, seed): Hypothesis varies the moves.
    key = (families, seed)
    if key not in _WORLDS:
        _WORLDS[key] = make_world(families, seed, count=40)
    return _WORLDS[key]


@given(families=st.sampled_from(FAMILY_SETS), seed=st.integers(0, 3),
       start=st.tuples(coordinate, coordinate), radius=radius,
       moves=st.lists(displacement, min_size=1, max_size=6))
def test_slide_never_penetrates(families, seed, start, radius, moves):
    world = world_for(families, seed)
    p = np.array(start)
    for d in moves:
        m = world.move(p, d, radius=radius)
        p = m.position
        assert world.clearance(p) >= radius - PROMISE, (m, families)
    # The fast clearance agrees with the brute-force one at the end.
    assert oracle.clearance(world, p)[0] >= radius - PROMISE - 1e-12


@given(families=st.sampled_from(FAMILY_SETS), seed=st.integers(0, 3),
       start=st.tuples(coordinate, coordinate), radius=radius, d=displacement)
def test_slide_goes_no_farther_than_asked(families, seed, start, radius, d):
    # Contacts turn and shorten a move, never lengthen it: unless it first had
    # to recover from an overlap, the agent ends within |d| of the start (up
    # to the skin it may back off by), and every contact lies within the move.
    world = world_for(families, seed)
    m = world.move(start, d, radius=radius)
    if not m.recovered:
        assert np.hypot(*(m.position - start)) <= np.hypot(*d) + 4 * SKIN, m
    assert all(0.0 <= c.fraction <= 1.0 for c in m.contacts)


@given(angle=st.floats(0, 2 * math.pi), offset=st.floats(-50, 50), side=st.sampled_from([-1, 1]),
       radius=st.floats(0.0, 1.0), speed=st.floats(10.0, 1000.0),
       heading=st.floats(0, 2 * math.pi), clearance=st.floats(0.0, 0.5))
def test_fast_moves_never_cross_a_wall(angle, offset, side, radius, speed, heading, clearance):
    # One very long wall through the plane; the agent starts on one side and
    # moves 10 to 1000 times its radius (at least 10 units) in any direction.
    n = np.array([math.cos(angle), math.sin(angle)])
    t = np.array([-n[1], n[0]])
    centre = offset * t
    world = sidestep.World2D()
    world.add_walls([centre - 1e5 * t], [centre + 1e5 * t], clearance)
    start = centre + side * (clearance + radius + 1.0) * n
    step = max(radius, 0.01) * speed
    d = step * np.array([math.cos(heading), math.sin(heading)])
    m = world.move(start, d, radius=radius)
    assert side * float((m.position - centre) @ n) >= clearance + radius - PROMISE


@given(start=st.tuples(st.floats(1.0, 9.0), st.floats(1.0, 9.0)),
       moves=st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), min_size=1,
                      max_size=8),
       radius=st.sampled_from([0.0, 0.2, 0.9]),
       family=st.sampled_from(["wall", "box", "polygon", "grid"]))
def test_agent_never_leaves_a_closed_room(start, moves, radius, family):
    # A 10 x 10 room made of each family; huge moves in every direction.
    world = sidestep.World2D()
    if family == "wall":
        c = [(0, 0), (10, 0), (10, 10), (0, 10)]
        world.add_walls(c, c[1:] + c[:1])
    elif family == "box":
        world.add_boxes([(-1, -1), (-1, 10), (-1, 0), (10, 0)],
                        [(11, 0), (11, 11), (0, 10), (11, 10)])
    elif family == "polygon":
        # Four trapezoids, one per side, meeting at the corners' diagonals.
        world.add_polygon([(-1, -1), (11, -1), (10, 0), (0, 0)])
        world.add_polygon([(11, -1), (11, 11), (10, 10), (10, 0)])
        world.add_polygon([(11, 11), (-1, 11), (0, 10), (10, 10)])
        world.add_polygon([(-1, 11), (-1, -1), (0, 0), (0, 10)])
    else:
        table = np.ones((12, 12), bool)
        table[1:11, 1:11] = False
        world.add_grid(table, 1.0, (-1.0, -1.0))
    p = np.array(start)
    p = world.move(p, (0.0, 0.0), radius=radius).position   # recover if the start overlaps
    for d in moves:
        p = world.move(p, d, radius=radius).position
        assert -PROMISE <= p[0] - radius and p[0] + radius <= 10 + PROMISE
        assert -PROMISE <= p[1] - radius and p[1] + radius <= 10 + PROMISE


@given(angle=st.floats(1.0, 89.0), length=st.floats(0.5, 20.0), radius=st.floats(0.0, 1.0))
def test_sliding_keeps_the_tangential_motion(angle, length, radius):
    world = sidestep.World2D()
    world.add_walls([(-1e3, 0.0)], [(1e3, 0.0)])
    a = math.radians(angle)
    start = np.array([0.0, radius + 0.25])
    m = world.move(start, (length * math.cos(a), -length * math.sin(a)), radius=radius)
    assert abs(m.position[0] - length * math.cos(a)) <= 2 * SKIN + 1e-12 * length
    assert radius - PROMISE <= m.position[1] <= max(radius + SKIN, start[1]) + 1e-12


@given(sides=st.integers(3, 8), turn=st.floats(0.0, 2 * math.pi), size=st.floats(0.5, 5.0),
       centre=st.tuples(st.floats(-50, 50), st.floats(-50, 50)), radius=radius,
       along=st.floats(0.2, 0.8), beyond=st.floats(0.1, 2.0))
def test_gliding_past_a_convex_corner_goes_straight(sides, turn, size, centre, radius, along,
                                                    beyond):
    # Press onto a side of a convex polygon, then move parallel to it on past
    # its end: the corner lies in line, a skin away, and must not turn the move.
    angles = turn + 2 * math.pi * np.arange(sides) / sides
    vertices = np.array(centre) + size * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    world = sidestep.World2D()
    world.add_polygon(vertices)
    a, b = vertices[0], vertices[1]
    side = np.linalg.norm(b - a)
    e = (b - a) / side
    out = np.array([e[1], -e[0]])                  # outward: the vertices run counter-clockwise
    on = world.move(a + along * (b - a) + out * (radius + 0.3), -0.5 * out, radius=radius)
    d = e * ((1.0 - along) * side + beyond)
    glide = world.move(on.position, d, radius=radius)
    np.testing.assert_allclose(glide.position, on.position + d, rtol=0, atol=2 * SKIN)


@given(families=st.sampled_from(FAMILY_SETS), seed=st.integers(0, 3),
       mode=st.sampled_from(sidestep.MODES), radius=radius,
       data=st.data())
def test_batch_equals_single(families, seed, mode, radius, data):
    world = world_for(families, seed)
    n = data.draw(st.integers(1, 12))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    starts = rng.uniform(-5, 25, (n, 2))
    disps = rng.normal(0, 3, (n, 2))
    batch = world.move_many(starts, disps, radius=radius, mode=mode)
    single = np.array([world.move(s, d, radius=radius, mode=mode).position
                       for s, d in zip(starts, disps)])
    np.testing.assert_array_equal(batch, single)


def test_batch_equals_single_on_many_agents_across_threads():
    world = world_for(FAMILIES, 0)
    rng = np.random.default_rng(11)
    starts = rng.uniform(-5, 25, (3000, 2))
    disps = rng.normal(0, 2, (3000, 2))
    batch = world.move_many(starts, disps, radius=0.3)
    single = np.array([world.move(s, d, radius=0.3).position for s, d in zip(starts, disps)])
    np.testing.assert_array_equal(batch, single)


@given(families=st.sampled_from(FAMILY_SETS), seed=st.integers(0, 3),
       shift=st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000)),
       start=st.tuples(coordinate, coordinate), d=displacement, radius=radius)
def test_results_survive_translation(families, seed, shift, start, d, radius):
    world = world_for(families, seed)
    moved = _translated(world, np.array(shift, float))
    a = world.move(start, d, radius=radius)
    b = moved.move(np.array(start) + shift, d, radius=radius)
    # Rounding differs between the two frames, by far less than the skin.
    np.testing.assert_allclose(b.position - shift, a.position, atol=10 * SKIN)
    assert a.stop == b.stop or abs(a.position - b.position + shift).max() < 10 * SKIN
    pts = np.array([start])
    np.testing.assert_allclose(moved.clearance(pts + shift), world.clearance(pts), atol=1e-9)


def _translated(world, shift):
    out = sidestep.World2D()
    g = world.geometry("circle")
    if len(g["ids"]):
        out.add_circles(g["centers"] + shift, g["radii"])
    g = world.geometry("wall")
    if len(g["ids"]):
        out.add_walls(g["starts"] + shift, g["ends"] + shift, g["clearance"])
    g = world.geometry("box")
    if len(g["ids"]):
        out.add_boxes(g["mins"] + shift, g["maxs"] + shift)
    for v in world.geometry("polygon")["vertices"]:
        out.add_polygon(v + shift)
    g = world.geometry("grid")
    for t, s, o in zip(g["blocked"], g["cell_size"], g["origin"]):
        out.add_grid(t, s, o + shift)
    return out
