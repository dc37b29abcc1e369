"""Rigid bodies in a World3D: obstacles that move and turn as one (``add_body``, ``set_pose``).

The promise: a world with a body at any pose answers every query as a world
built from the moved coordinates does (to rounding), and posing a body
writes only that body's parts and refits the hierarchy above them. The
references are built in NumPy: every corner, centre and normal turned and
added fresh. A box turned any way is compared with the closed mesh of its
corners from outside it (a mesh is hollow, a box solid), and turned by
quarter turns with the axis-aligned box it becomes, for every query; a
cylinder turned a quarter onto another axis is compared with the upright
cylinder of a world whose up axis that is (sphere agents, which no up axis
changes).
"""
import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import poses
from sidestep.volumes import Box, Sphere

close = {"rtol": 0.0, "atol": 1e-9}

#: The twelve triangles of a box's surface, over corners ``i`` at bits x = i & 1,
#: y = i & 2, z = i & 4, counter-clockwise seen from outside.
BOX_TRIANGLES = np.array([[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                          [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]])


def _corners(lo, hi):
    return np.array([[hi[0] if i & 1 else lo[0], hi[1] if i & 2 else lo[1],
                      hi[2] if i & 4 else lo[2]] for i in range(8)])


def _moved(points, R, t):
    return np.asarray(points, dtype=float) @ R.T + t


def _quaternion(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


#: The 24 turns that map the axes onto the axes (as matrices).
QUARTER_TURNS = [np.array(m, dtype=float) for m in
                 (np.eye(3)[list(p)] * np.array(s)[:, None]
                  for p in itertools.permutations(range(3))
                  for s in itertools.product((1, -1), repeat=3))
                 if np.linalg.det(m) > 0]


def _answers(world, reference, rng, n=48, moves=True, height=0.0, outside=False):
    """Compare every query of ``world`` with ``reference`` from random points."""
    p = rng.uniform(-6, 6, (n, 3))
    d = rng.uniform(-4, 4, (n, 3))
    if outside:
        keep = world.clearance(p) > 0.05
        p, d = p[keep], d[keep]
    np.testing.assert_allclose(world.clearance(p), reference.clearance(p), **close)
    got, ref = world.nearest(p), reference.nearest(p)
    np.testing.assert_allclose(got.distance, ref.distance, **close)
    ray, ray_ref = world.raycast(p, d), reference.raycast(p, d)
    np.testing.assert_array_equal(ray.hit, ray_ref.hit)
    np.testing.assert_allclose(ray.distance[ray.hit], ray_ref.distance[ray.hit], **close)
    np.testing.assert_allclose(ray.normal[ray.hit], ray_ref.normal[ray.hit], atol=1e-9)
    if moves:
        # Moves from starts clear of everything: one overlapping a two-sided
        # panel recovers to the side of it the core's middle is on, and a core
        # that straddles the plane goes one way or the other by rounding (seed
        # 1 of the mesh test: normals 3e-16 apart, ends 0.09 apart).
        clear = [len(reference.overlapping(q, 0.3 + 1e-6, height)) == 0 for q in p]
        np.testing.assert_allclose(world.move_many(p[clear], d[clear], 0.3, height=height),
                                   reference.move_many(p[clear], d[clear], 0.3, height=height),
                                   atol=1e-8)
    for k in range(6):
        assert np.array_equal(world.overlapping(p[k], 1.5), reference.overlapping(p[k], 1.5))
        for volume in (Box(p[k] - 1.5, p[k] + 1.5), Sphere(p[k], 1.7)):
            got_q, ref_q = world.query(volume), reference.query(volume)
            np.testing.assert_array_equal(got_q.obstacle, ref_q.obstacle)
            np.testing.assert_array_equal(got_q.state, ref_q.state)


def _floor(world):
    # Something that never moves, in both worlds.
    world.add_boxes([(-8.0, -9.0, -8.0)], [(8.0, -8.0, 8.0)])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.tuples(*[st.floats(-3, 3)] * 3))
@example(1, (0.9375, 0.75, -1.5))
def test_mesh_panel_sphere_body_answers_as_the_moved_world(seed, position):
    rng = np.random.default_rng(seed)
    R = poses.rotation(_quaternion(rng))
    t = np.asarray(position)
    tetra = rng.uniform(-1.5, 1.5, (4, 3))
    faces = np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])
    panel = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.5, 0.0], [0.0, 1.5, 0.0]]) + \
        rng.uniform(-2, 0, 3)
    centers, radii = rng.uniform(-2, 2, (2, 3)), rng.uniform(0.2, 0.7, 2)

    def build(world, R, t):
        ids = [world.add_mesh(_moved(tetra, R, t), faces)]
        ids += list(world.add_panels([_moved(panel, R, t)]))
        ids += list(world.add_spheres(_moved(centers, R, t), radii))
        return ids

    world, reference = sidestep.World3D(), sidestep.World3D()
    _floor(world)
    _floor(reference)
    body = world.add_body(build(world, np.eye(3), np.zeros(3)))
    world.set_pose(body, position=t, rotation=R)
    build(reference, R, t)
    _answers(world, reference, rng, height=1.2)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 23), st.tuples(*[st.floats(-3, 3)] * 3))
def test_box_body_at_quarter_turns_answers_as_axis_aligned_boxes(seed, turn, position):
    rng = np.random.default_rng(seed)
    R = QUARTER_TURNS[turn]
    t = np.asarray(position)
    lo = rng.uniform(-2, 0, (3, 3))
    hi = lo + rng.uniform(0.3, 2, (3, 3))
    world, reference = sidestep.World3D(), sidestep.World3D()
    _floor(world)
    _floor(reference)
    body = world.add_body(world.add_boxes(lo, hi))
    world.set_pose(body, position=t, rotation=R)
    a, b = _moved(lo, R, t), _moved(hi, R, t)
    reference.add_boxes(np.minimum(a, b), np.maximum(a, b))
    _answers(world, reference, rng, height=1.2)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.tuples(*[st.floats(-3, 3)] * 3))
def test_box_body_at_any_turn_answers_as_the_mesh_of_its_corners(seed, position):
    rng = np.random.default_rng(seed)
    R = poses.rotation(_quaternion(rng))
    t = np.asarray(position)
    lo = rng.uniform(-2, 0, 3)
    hi = lo + rng.uniform(0.3, 2, 3)
    world, reference = sidestep.World3D(), sidestep.World3D()
    body = world.add_body(world.add_boxes([lo], [hi]))
    world.set_pose(body, position=t, rotation=R)
    reference.add_mesh(_moved(_corners(lo, hi), R, t), BOX_TRIANGLES)
    _answers(world, reference, rng, moves=False, outside=True)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["x", "z"]),
       st.tuples(*[st.floats(-3, 3)] * 3))
def test_cylinder_turned_onto_another_axis_answers_as_upright_there(seed, axis, position):
    rng = np.random.default_rng(seed)
    t = np.asarray(position)
    # A quarter turn taking y (up) onto the axis: about z for x, about x for z.
    half = math.sqrt(0.5)
    q = (half, 0.0, 0.0, -half) if axis == "x" else (half, half, 0.0, 0.0)
    R = poses.rotation(q)
    bases, radii, heights = rng.uniform(-2, 2, (2, 3)), rng.uniform(0.2, 0.8, 2), \
        rng.uniform(0.5, 2.5, 2)
    world, reference = sidestep.World3D(), sidestep.World3D(up=axis)
    body = world.add_body(world.add_cylinders(bases, radii, heights))
    world.set_pose(body, position=t, rotation=R)
    reference.add_cylinders(_moved(bases, R, t), radii, heights)
    assert np.allclose(R @ (0.0, 1.0, 0.0), np.eye(3)["xyz".index(axis)])
    _answers(world, reference, rng)


def test_set_pose_turns_box_into_oriented_box():
    world = sidestep.World3D()
    box = world.add_boxes([(-1.0, -0.5, -0.25)], [(1.0, 0.5, 0.25)])
    body = world.add_body(box)
    angle = math.radians(30.0)
    world.set_pose(body, position=(10.0, 0.0, 0.0),
                   rotation=(math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0))   # about y
    # Along the box's turned long axis: its end face 1 away from the centre.
    u = np.array([math.cos(angle), 0.0, -math.sin(angle)])
    hit = world.raycast(np.array([10.0, 0.0, 0.0]) + 5 * u, -u)
    assert hit.hit and hit.distance == pytest.approx(4.0, abs=1e-12)
    np.testing.assert_allclose(hit.normal, u, atol=1e-12)
    # A corner of the axis-aligned box it was is now outside it...
    assert world.clearance((10.95, 0.0, 0.2)) > 0.0
    # ... and the turned corner's neighbourhood inside.
    corner = np.array([10.0, 0.0, 0.0]) + poses.rotation(
        (math.cos(angle / 2), 0.0, math.sin(angle / 2), 0.0)) @ (0.95, 0.45, 0.2)
    assert world.clearance(corner) == pytest.approx(-0.05, abs=1e-12)
    assert world.overlapping(corner).tolist() == [int(box[0])]
    # A capsule agent slides along the turned face, never inside.
    m = world.move((12.0, 0.0, -3.0), (-4.0, 0.0, 6.0), radius=0.3, height=1.5)
    assert world.clearance(m.position) >= 0.3 - 1e-6


def test_pose_and_velocity_round_trip():
    world = sidestep.World3D()
    body = world.add_body(world.add_spheres([(0.0, 0.0, 0.0)], 1.0))
    position, q = world.pose(body)
    np.testing.assert_array_equal(position, 0.0)
    np.testing.assert_array_equal(q, (1.0, 0.0, 0.0, 0.0))
    linear, angular = world.velocity(body)
    np.testing.assert_array_equal(linear, 0.0)
    np.testing.assert_array_equal(angular, 0.0)
    turn = (math.cos(0.25), 0.0, 0.0, math.sin(0.25))          # 0.5 rad about z
    world.set_pose(body, position=(1.0, 2.0, 3.0), rotation=turn, dt=0.5)
    position, q = world.pose(body)
    np.testing.assert_allclose(position, (1.0, 2.0, 3.0), atol=0)
    np.testing.assert_allclose(q, turn, atol=1e-15)
    linear, angular = world.velocity(body)
    np.testing.assert_allclose(linear, (2.0, 4.0, 6.0), atol=1e-15)
    np.testing.assert_allclose(angular, (0.0, 0.0, 1.0), atol=1e-12)
    # A matrix gives the same pose; a negated quaternion is the same turn.
    world.set_pose(body, position=(1.0, 2.0, 3.0), rotation=-np.asarray(turn))
    np.testing.assert_allclose(world.pose(body)[1], turn, atol=1e-15)
    world.set_pose(body, position=(1.0, 2.0, 3.0), rotation=poses.rotation(turn))
    np.testing.assert_allclose(world.pose(body)[1], turn, atol=1e-15)
    np.testing.assert_allclose(world.velocity(body)[1], 0.0, atol=1e-12)


def test_translate_still_works():
    world = sidestep.World3D()
    free = world.add_boxes([(0.0, 0.0, 0.0)], [(1.0, 1.0, 1.0)])
    held = world.add_spheres([(5.0, 0.0, 0.0)], 0.5)
    world.add_body(held)
    world.translate(free, (0.0, 0.0, 3.0))
    assert world.clearance((0.5, 0.5, 3.5)) == pytest.approx(-0.5)
    np.testing.assert_array_equal(world.translated(free[0]), (0.0, 0.0, 3.0))
    with pytest.raises(ValueError, match="body 0"):
        world.translate(held, (1.0, 0.0, 0.0))
    assert world.clearance((5.0, 0.0, 0.0)) == pytest.approx(-0.5)


def test_set_poses_batch_equals_single():
    rng = np.random.default_rng(7)

    def build():
        world = sidestep.World3D()
        _floor(world)
        corners = rng.uniform(-5, 5, (4, 3))
        bodies = [world.add_body(world.add_boxes([c], [c + 1.0])) for c in corners]
        bodies.append(world.add_body(world.add_spheres([(0.0, 3.0, 0.0)], 0.5)))
        return world, bodies

    state = rng.bit_generator.state
    one, bodies = build()
    rng.bit_generator.state = state
    many, _ = build()
    positions = rng.uniform(-2, 2, (5, 3))
    quaternions = np.array([_quaternion(rng) for _ in range(5)])
    for b in bodies:
        one.set_pose(b, position=positions[b], rotation=quaternions[b], dt=0.1)
    many.set_poses(bodies, positions, quaternions, dt=0.1)
    for b in bodies:
        for got, ref in zip(many.pose(b) + many.velocity(b), one.pose(b) + one.velocity(b)):
            np.testing.assert_array_equal(got, ref)
    p = rng.uniform(-6, 6, (64, 3))
    np.testing.assert_array_equal(many.clearance(p), one.clearance(p))
    many.set_poses([], [], [])                      # nothing to pose: nothing changes
    np.testing.assert_array_equal(many.clearance(p), one.clearance(p))
    # Matrices as well as quaternions, and no rotation at all.
    many.set_poses(bodies, positions, [poses.rotation(q) for q in quaternions])
    one.set_poses(bodies, positions)
    np.testing.assert_array_equal(one.pose(0)[1], (1.0, 0.0, 0.0, 0.0))


def test_voxels_and_heightfield_in_bodies():
    world = sidestep.World3D()
    voxels = world.add_voxels(np.ones((2, 2, 2), dtype=bool), 1.0)
    ground = world.add_heightfield(np.zeros((3, 3)), 1.0, origin=(10.0, 0.0, 0.0))
    cubes, land = world.add_body(voxels), world.add_body(ground)
    world.set_pose(cubes, position=(0.0, 5.0, 0.0),
                   rotation=(math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0))
    assert world.clearance((0.5, 4.5, 0.5)) < 0.0          # turned about x into y < 5
    assert world.clearance((0.5, 5.5, 0.5)) > 0.0
    # Ground turns only about the up axis (y): its solid stays below.
    turn = (math.sqrt(0.5), 0.0, math.sqrt(0.5), 0.0)
    world.set_pose(land, position=(0.0, 1.0, 0.0), rotation=turn)
    below, above = (poses.rotation(turn) @ np.array([(11.0, -0.5, 1.0), (11.0, 0.5, 1.0)]).T).T \
        + (0.0, 1.0, 0.0)
    assert world.clearance(below) == pytest.approx(-0.5)
    assert world.clearance(above) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="heightfield"):
        world.set_pose(land, rotation=(math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0))
    assert world.clearance(above) == pytest.approx(0.5)       # unchanged


def test_bad_input():
    world = sidestep.World3D()
    ids = world.add_boxes([(0.0, 0.0, 0.0), (2.0, 0.0, 0.0)], [(1.0, 1.0, 1.0), (3.0, 1.0, 1.0)])
    body = world.add_body(ids[:1])
    before = world.clearance(np.array([(0.5, 2.0, 0.5), (2.5, 2.0, 0.5)]))
    with pytest.raises(KeyError, match="no body with id 5"):
        world.set_pose(5, position=(0.0, 0.0, 0.0))
    with pytest.raises(KeyError, match="no body with id -1"):
        world.set_poses([body, -1], [(0.0, 0.0, 0.0)] * 2)
    with pytest.raises(ValueError, match="unit quaternion"):
        world.set_pose(body, position=(1.0, 0.0, 0.0), rotation=(1.0, 1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match=r"rotations\[1\] must be a unit quaternion"):
        world.set_poses([body, world.add_body(ids[1:])], [(1.0, 0.0, 0.0)] * 2,
                        [(1.0, 0.0, 0.0, 0.0), (0.5, 0.0, 0.0, 0.0)])
    with pytest.raises(ValueError, match="rotation matrix"):
        world.set_pose(body, rotation=2 * np.eye(3))
    with pytest.raises(ValueError, match="rotation"):
        world.set_pose(body, rotation=(1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="positions must be finite"):
        world.set_pose(body, position=(np.nan, 0.0, 0.0))
    with pytest.raises(ValueError, match="positions"):
        world.set_poses([0, 1], [(0.0, 0.0, 0.0)])
    with pytest.raises(ValueError, match="twice"):
        world.set_poses([0, 0], [(0.0, 0.0, 0.0)] * 2)
    with pytest.raises(ValueError, match="dt"):
        world.set_pose(body, position=(1.0, 0.0, 0.0), dt=0.0)
    with pytest.raises(ValueError, match="already in body 0"):
        world.add_body(ids[:1])
    with pytest.raises(ValueError, match="at least one obstacle"):
        world.add_body([])
    with pytest.raises(KeyError, match="no obstacle with id 9"):
        world.add_body([9])
    # Nothing moved.
    np.testing.assert_array_equal(world.clearance(np.array([(0.5, 2.0, 0.5),
                                                            (2.5, 2.0, 0.5)])), before)
    np.testing.assert_array_equal(world.pose(body)[0], 0.0)


def test_poses_refit_in_place_and_a_far_journey_rebuilds_lazily():
    rng = np.random.default_rng(3)
    world = sidestep.World3D()
    _floor(world)
    world.add_spheres(rng.uniform(-8, 8, (50, 3)), 0.3)
    lo = np.array([[-0.5, -0.5, -0.5]])
    body = world.add_body(world.add_boxes(lo, -lo))
    p = rng.uniform(-9, 9, (200, 3))
    world.clearance(p)
    packed = world._store.pack()
    for step, position in enumerate([(0.5, 0.0, 0.0), (1.0, 0.5, 0.0), (30.0, 0.0, 0.0),
                                     (1.0, 0.0, 2.0)]):
        q = _quaternion(rng)
        world.set_pose(body, position=position, rotation=q)
        reference = sidestep.World3D()
        _floor(reference)
        reference.add_spheres(world.geometry("sphere")["centers"][:50], 0.3)
        reference.add_mesh(_moved(_corners(lo[0], -lo[0]), poses.rotation(q), position),
                           BOX_TRIANGLES)
        outside = p[world.clearance(p) > 0.0]
        np.testing.assert_allclose(world.clearance(outside), reference.clearance(outside),
                                   **close)
        # Near poses refit the tree the world was packed with; the journey of
        # 30 (more than a quarter of the level) has it rebuilt at the next query.
        assert (world._store.pack() is packed) == (step < 2)
        packed = world._store.pack()


def test_many_poses_leave_no_rounding_behind():
    rng = np.random.default_rng(5)
    world = sidestep.World3D()
    vertices = rng.uniform(-1, 1, (4, 3))
    ids = [world.add_mesh(vertices, np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])),
           *world.add_boxes([(2.0, 0.0, 0.0)], [(3.0, 1.0, 0.5)]),
           *world.add_spheres([(0.0, 3.0, 0.0)], 0.5),
           *world.add_cylinders([(0.0, 0.0, 3.0)], 0.5, 1.0)]
    p = rng.uniform(-4, 4, (100, 3))
    before = world.clearance(p)
    body = world.add_body(ids)
    for _ in range(500):
        world.set_pose(body, position=rng.uniform(-1, 1, 3), rotation=_quaternion(rng))
    world.set_pose(body, position=(0.0, 0.0, 0.0))
    np.testing.assert_array_equal(world.clearance(p), before)
    np.testing.assert_array_equal(world.geometry("mesh")["vertices"][0], vertices)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_capsules_slide_clear_of_tilted_boxes_and_cylinders(seed):
    # In a tilted body's frame the upright agent's core is tilted: the
    # cylinder's separation searches it instead of its closed form, and no
    # slide may end inside (the promise of every move).
    from sidestep.tolerances import PROMISE
    rng = np.random.default_rng(seed)
    world = sidestep.World3D()
    ids = list(world.add_cylinders(rng.uniform(-2, 2, (3, 3)), rng.uniform(0.3, 1, 3),
                                   rng.uniform(0.5, 3, 3)))
    ids += list(world.add_boxes(rng.uniform(-2, 0, (2, 3)), rng.uniform(0.2, 2, (2, 3))))
    world.set_pose(world.add_body(ids), position=rng.uniform(-1, 1, 3),
                   rotation=_quaternion(rng))
    for k in range(24):
        p, d = rng.uniform(-5, 5, 3), rng.normal(0, 3, 3)
        m = world.move(p, d, 0.3, height=1.6)
        if m.stop == "stuck":
            continue
        core = [m.position + (0.0, s, 0.0) for s in np.linspace(-0.5, 0.5, 7)]
        assert world.clearance(np.array(core)).min() >= 0.3 - PROMISE


_Q = st.tuples(*[st.floats(-1.0, 1.0)] * 4).filter(lambda q: sum(c * c for c in q) > 0.01)


@settings(max_examples=80, deadline=None)
@given(_Q, _Q, st.sampled_from([None, 0, 1, 2]))
@example((1.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), None)           # no turn: axis x
@example((1.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), 1)              # half a turn about y
@example((0.0, 0.0, 1.0, 0.0), (0.0, 1.1920929e-07, 1.0, 0.0), None)  # a tiny turn
def test_turns_are_the_axis_and_angle_of_the_angular_velocity(q0, q1, half):
    # Bodies.turns (kernels3d.poses.turns) against poses.angular_velocity, half turns too.
    world = sidestep.World3D()
    body = world.add_body(world.add_boxes([(0, 0, 0)], [(1, 1, 1)]))
    q0 = np.array(q0) / np.linalg.norm(q0)
    world.set_pose(body, (0, 0, 0), q0)
    if half is None:
        q1 = np.array(q1) / np.linalg.norm(q1)
    else:                               # q0 then half a turn about axis `half`
        w, v = q0[0], q0[1:]
        e = np.eye(3)[half]
        q1 = np.concatenate([[-np.dot(e, v)], w * e + np.cross(e, v)])
    world.set_pose(body, (0, 0, 0), q1)
    bodies = world._store.bodies
    axes, angles = bodies.turns()
    omega = poses.angular_velocity(bodies.previous_rotation[body], bodies.rotation[body], 1.0)
    assert angles[body] == pytest.approx(np.linalg.norm(omega), abs=1e-9)
    assert np.linalg.norm(axes[body]) == pytest.approx(1.0)
    # The turn itself (a tiny turn keeps its own axis); axis x for none at all.
    np.testing.assert_allclose(axes[body] * angles[body], omega, atol=1e-7)
    if angles[body] == 0.0:
        np.testing.assert_array_equal(axes[body], [1.0, 0.0, 0.0])
    if half is not None:
        assert angles[body] == pytest.approx(math.pi)
