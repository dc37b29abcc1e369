"""World3D.cast and cast_many: the first contact of a swept sphere or capsule, no slide.

The property test holds the casts to an independent reference: sphere tracing
on an exact distance field of boxes, spheres, upright cylinders and triangles
written here in NumPy (no kernel code), never later than its time of impact
and no more than a skin earlier.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sidestep
from sidestep import demo3d
from sidestep.tolerances import PROMISE

seeds = st.integers(0, 2**32 - 1)


# ------------------------------------------------------------ reference field
def distance_box(p, lo, hi):
    """Signed distance of points ``p (n, 3)`` to the solid box ``lo..hi``."""
    c = 0.5 * (lo + hi)
    q = np.abs(p - c) - 0.5 * (hi - lo)
    outside = np.linalg.norm(np.maximum(q, 0.0), axis=1)
    return outside + np.minimum(q.max(axis=1), 0.0)


def distance_sphere(p, c, radius):
    return np.linalg.norm(p - c, axis=1) - radius


def distance_cylinder(p, base, radius, height, up=1):
    """Signed distance to a solid upright cylinder standing on ``base`` along axis ``up``."""
    j, k = [a for a in range(3) if a != up]
    radial = np.hypot(p[:, j] - base[j], p[:, k] - base[k]) - radius
    axial = np.maximum(base[up] - p[:, up], p[:, up] - base[up] - height)
    q = np.stack([radial, axial], axis=1)
    return np.linalg.norm(np.maximum(q, 0.0), axis=1) + np.minimum(q.max(axis=1), 0.0)


def _distance_segment(p, a, b):
    ab = b - a
    s = np.clip(((p - a) @ ab) / (ab @ ab), 0.0, 1.0)
    return np.linalg.norm(p - (a + s[:, None] * ab), axis=1)


def distance_triangle(p, a, b, c):
    """Distance of points to a (thin) triangle: to its plane over it, else to its edges."""
    n = np.cross(b - a, c - a)
    n = n / np.linalg.norm(n)
    h = (p - a) @ n
    foot = p - h[:, None] * n
    inside = np.ones(len(p), dtype=bool)
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= (np.cross(v - u, foot - u) @ n) >= 0.0
    edges = np.minimum(np.minimum(_distance_segment(p, a, b), _distance_segment(p, b, c)),
                       _distance_segment(p, c, a))
    return np.where(inside, np.abs(h), edges)


def field(p, scene):
    """``(n, k)``: the distance of every point to each of the scene's k obstacles."""
    return np.stack([f(p) for f in scene], axis=1)


def sphere_trace(p, d, radius, scene, eps=1e-10, steps=4000):
    """Reference times of impact by sphere tracing: ``(fraction, resolved)``.

    March ``t += (distance - radius) / |d|``: an exact distance never steps
    past a surface. Resolved where the gap falls under ``eps`` (then
    ``fraction`` is within about ``eps`` of the contact, never after it) or
    ``t`` passes 1 (a miss: fraction inf); an unresolved row's ``fraction``
    is a lower bound on the contact.
    """
    length = np.linalg.norm(d, axis=1)
    t = np.zeros(len(p))
    done = np.zeros(len(p), dtype=bool)
    for _ in range(steps):
        live = ~done
        if not live.any():
            break
        gap = field(p[live] + t[live, None] * d[live], scene).min(axis=1) - radius[live]
        rows = np.flatnonzero(live)
        touch = gap <= eps
        done[rows[touch]] = True
        go = rows[~touch]
        moving = length[go] > 0
        t[go[moving]] += gap[~touch][moving] / length[go[moving]]
        t[go[~moving]] = np.inf
        out = go[t[go] > 1.0]
        t[out] = np.inf
        done[out] = True
    return t, done


def random_scene(rng):
    """A World3D and its reference field: boxes, spheres, cylinders, a mesh of triangles."""
    world = sidestep.World3D()
    scene = []
    for _ in range(3):
        lo = rng.uniform(-5, 4, 3)
        hi = lo + rng.uniform(0.2, 2.5, 3)
        world.add_boxes([lo], [hi])
        scene.append(lambda p, lo=lo, hi=hi: distance_box(p, lo, hi))
    for _ in range(2):
        c, r = rng.uniform(-5, 5, 3), rng.uniform(0.2, 1.5)
        world.add_spheres([c], r)
        scene.append(lambda p, c=c, r=r: distance_sphere(p, c, r))
    base, r, h = rng.uniform(-5, 5, 3), rng.uniform(0.2, 1.0), rng.uniform(0.5, 3.0)
    world.add_cylinders([base], r, h)
    scene.append(lambda p: distance_cylinder(p, base, r, h))
    corners = rng.uniform(-6, 6, (4, 3, 3))
    world.add_mesh(corners.reshape(-1, 3), np.arange(12).reshape(4, 3))
    scene.append(lambda p: np.min([distance_triangle(p, *t) for t in corners], axis=0))
    return world, scene


def same_bits(a, b):
    """Whether two CastHits are equal bit for bit (NaN points included)."""
    return all(np.asarray(x).tobytes() == np.asarray(y).tobytes()
               for x, y in zip((a.hit, a.fraction, a.obstacle, a.part, a.point, a.normal),
                               (b.hit, b.fraction, b.obstacle, b.part, b.point, b.normal)))


def row(hits, k):
    """Row ``k`` of a batch's CastHit, as :meth:`World3D.cast` gives it."""
    return sidestep.results.CastHit(bool(hits.hit[k]), float(hits.fraction[k]),
                                    int(hits.obstacle[k]), hits.point[k], hits.normal[k],
                                    int(hits.part[k]))


# ------------------------------------------------------------------ scenarios
def test_cast_sphere_hits_box_face():
    # A ball of radius 0.5 at the origin thrown 4 along x at a box whose face is
    # at x = 2: it touches at x = 1.5, fraction 1.5 / 4 = 0.375, and stops a
    # quarter skin before it, so 0.375 - skin / 4 / 4.
    world = sidestep.World3D()
    world.add_spheres([(0, 5, 0)], 0.5)                     # elsewhere: obstacle 0
    box = world.add_boxes([(2, -1, -1)], [(3, 1, 1)])[0]
    hit = world.cast((0, 0, 0), (4, 0, 0), radius=0.5)
    assert hit.hit and hit.obstacle == box and hit.part == -1
    assert hit.fraction == pytest.approx(0.375 - 0.25 * world.skin / 4, abs=1e-15)
    assert hit.fraction < 0.375
    np.testing.assert_allclose(hit.point, (2, 0, 0), atol=1e-12)
    np.testing.assert_allclose(hit.normal, (-1, 0, 0), atol=1e-12)
    assert world.clearance(hit.fraction * np.array([4.0, 0, 0])) >= 0.5


def test_cast_capsule_hits_floor_edge():
    # A capsule 1.8 m tall (radius 0.3: its core's lower end 0.6 below its centre)
    # moving down and back towards a floor slab whose edge runs along z at
    # x = y = 0. Its lower ball, at (1 - u, 0.9 - u) with u = 2 fraction,
    # touches the edge when (1 - u)^2 + (0.9 - u)^2 = 0.3^2:
    # u = (3.8 - sqrt(0.68)) / 4.
    world = sidestep.World3D()
    slab = world.add_boxes([(-5, -1, -5)], [(0, 0, 5)])[0]
    d = np.array([-2.0, -2.0, 0.0])
    hit = world.cast((1.0, 1.5, 0.0), d, radius=0.3, height=1.8)
    exact = (3.8 - np.sqrt(0.68)) / 8
    assert hit.hit and hit.obstacle == slab
    assert exact - world.skin / np.linalg.norm(d) - 1e-12 <= hit.fraction <= exact
    np.testing.assert_allclose(hit.point, (0, 0, 0), atol=1e-9)
    ball = np.array([1.0 - 2 * exact, 0.9 - 2 * exact, 0.0])
    np.testing.assert_allclose(hit.normal, ball / 0.3, atol=1e-9)
    # The same capsule as a sphere (height below 2 radius) gets past the edge lower down.
    assert world.cast((1.0, 1.5, 0.0), d, radius=0.3, height=0.5).fraction > hit.fraction


@pytest.mark.parametrize("up", ["x", "y", "z"])
def test_capsule_cast_stands_along_the_worlds_up_axis(up):
    # A capsule 1.8 tall centred 2 above a floor: its bottom, 1.1 above it,
    # lands after 1.1 of a 3 m drop (fraction 1.1 / 3, a quarter skin less).
    a = "xyz".index(up)
    world = sidestep.World3D(up=up)
    lo, hi = np.full(3, -5.0), np.full(3, 5.0)
    hi[a] = 0.0
    world.add_boxes([lo], [hi])
    p, d = np.zeros(3), np.zeros(3)
    p[a], d[a] = 2.0, -3.0
    hit = world.cast(p, d, radius=0.3, height=1.8)
    assert hit.fraction == pytest.approx(1.1 / 3 - 0.25 * world.skin / 3, abs=1e-14)
    assert hit.normal[a] == 1.0


def test_cast_misses():
    world = sidestep.World3D()
    world.add_spheres([(0, 0, 0)], 1.0)
    for hit in (world.cast((3, 5, 0), (0, -10, 0), radius=0.5),
                world.cast((0, 5, 0), (0, 10, 0), radius=0.5),        # away from it
                world.cast((0, 5, 0), (0, 0, 0), radius=0.5),         # not moving, free
                sidestep.World3D().cast((0, 0, 0), (1, 2, 3), radius=1.0)):   # empty world
        assert hit.hit is False and hit.fraction == 1.0
        assert hit.obstacle == -1 and hit.part == -1
        assert np.isnan(hit.point).all() and hit.point.shape == (3,)
        assert np.array_equal(hit.normal, np.zeros(3))


def test_cast_starting_inside_is_fraction_zero():
    world = sidestep.World3D()
    world.add_boxes([(-1, -1, -1)], [(1, 1, 1)])
    # The centre 0.2 inside the +x face, moving away from it: still 0, out through +x.
    hit = world.cast((0.8, 0, 0), (5, 0, 0), radius=0.1)
    assert hit.hit and hit.fraction == 0.0 and hit.obstacle == 0
    np.testing.assert_allclose(hit.normal, (1, 0, 0))
    np.testing.assert_allclose(hit.point, (1, 0, 0))
    # Overlapping from outside, and exactly touching, moving away: 0 too.
    for start in ((1.25, 0, 0), (1.5, 0, 0)):
        hit = world.cast(start, (5, 0, 0), radius=0.5)
        assert hit.fraction == 0.0 and hit.obstacle == 0, start
        np.testing.assert_allclose(hit.normal, (1, 0, 0))
    # Not moving at all, overlapping: 0.
    assert world.cast((0, 0, 0), (0, 0, 0)).fraction == 0.0
    # A cast from where the last one stopped does not start overlapping.
    first = world.cast((5, 0, 0), (-10, 0, 0), radius=0.5)
    again = world.cast(np.array((5.0, 0, 0)) + first.fraction * np.array((-10.0, 0, 0)),
                       (0, 3, 0), radius=0.5)
    assert not again.hit


def test_cast_against_mesh_triangle_reports_part():
    # A floor of four triangles (two squares); a ball dropped on the third one.
    v = np.array([(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 1), (1, 0, 1), (2, 0, 1.0)])
    t = np.array([(0, 3, 4), (0, 4, 1), (1, 4, 5), (1, 5, 2)])
    world = sidestep.World3D()
    world.add_spheres([(9, 9, 9)], 1.0)
    mesh = world.add_mesh(v, t)
    hit = world.cast((1.2, 2.0, 0.7), (0, -4, 0), radius=0.25)
    assert hit.hit and hit.obstacle == mesh and hit.part == 2
    assert hit.fraction == pytest.approx((2.0 - 0.25) / 4 - 0.25 * world.skin / 4, abs=1e-15)
    np.testing.assert_allclose(hit.point, (1.2, 0, 0.7), atol=1e-12)
    np.testing.assert_allclose(hit.normal, (0, 1, 0), atol=1e-12)
    # A point cast (radius 0) is a ray that stops short of the surface.
    ray = world.cast((0.3, 2.0, 0.1), (0, -4, 0))
    assert ray.part == 1 and 0.5 - world.skin / 4 <= ray.fraction < 0.5


def test_camera_arm_pulled_in_by_pillar():
    # The 3D demo's corridor: the player stands past the pillar (boxes at x 4 to
    # 4.6, z 1.2 to 1.8); the camera's arm reaches 3 m back over the shoulder,
    # through the pillar. The camera is pulled in to just before it and never
    # shows its inside.
    world, parts = demo3d.corridor()
    pivot, arm, radius = demo3d.PIVOT, demo3d.ARM, demo3d.CAMERA_RADIUS
    camera, hit = demo3d.camera_arm(world)
    assert hit.hit and hit.obstacle in parts["pillar"]
    assert 4.6 + radius < camera[0] <= 4.6 + radius + 0.25 * world.skin
    assert world.clearance(camera) >= radius - PROMISE
    # Along the whole arm's way in, no camera position shows an inside.
    swing = pivot + np.linspace(0, hit.fraction, 50)[:, None] * arm
    assert world.clearance(swing).min() >= radius - PROMISE
    # The arm clear of the pillar (the camera swung aside) reaches out fully.
    free = world.cast(pivot, (-2.0, 0.4, -1.2), radius=radius)
    assert not free.hit and free.fraction == 1.0


def test_cast_onto_heightfield_stops_above_the_terrain():
    s = 0.5
    r, c = np.mgrid[0:21, 0:21] * s
    heights = 0.6 * np.sin(0.3 * c) + 0.4 * np.cos(0.25 * r)
    world = sidestep.World3D()
    terrain = world.add_heightfield(heights, cell_size=s)
    rng = np.random.default_rng(5)
    p = np.column_stack([rng.uniform(1, 9, 64), rng.uniform(1.5, 3, 64), rng.uniform(1, 9, 64)])
    d = np.column_stack([rng.uniform(-1, 1, 64), np.full(64, -5.0), rng.uniform(-1, 1, 64)])
    hits = world.cast_many(p, d, radius=0.3)
    assert hits.hit.all() and (hits.obstacle == terrain).all()
    ends = p + hits.fraction[:, None] * d
    gap = world.clearance(ends)
    assert gap.min() >= 0.3 - PROMISE and gap.max() <= 0.3 + 0.25 * world.skin + 1e-9
    # The part is the triangle holding the touched point: cell (row, col) = divmod(t // 2, 20).
    cell_row, cell_col = np.divmod(hits.part // 2, 20)
    assert np.all(np.abs(hits.point[:, 0] / s - cell_col - 0.5) <= 0.5 + 1e-9)
    assert np.all(np.abs(hits.point[:, 2] / s - cell_row - 0.5) <= 0.5 + 1e-9)
    # Below the surface (solid below): fraction 0, pushed out upwards.
    under = world.cast((5.0, -0.8, 5.0), (1, 0, 0), radius=0.1)
    assert under.fraction == 0.0 and under.obstacle == terrain and under.normal[1] > 0.5


def test_cast_many_takes_radius_and_height_per_row_and_equals_cast():
    world = sidestep.World3D()
    world.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
    world.add_cylinders([(1, 0, 1)], 0.5, 2.0)
    rng = np.random.default_rng(2)
    n = 5000              # on all cores, in the order of the starts' cells (RAY_ORDER_ROWS)
    p = rng.uniform(-3, 3, (n, 3)) + (0, 2, 0)
    d = rng.normal(0, 2, (n, 3))
    r = rng.uniform(0, 0.5, n)
    h = rng.uniform(0, 2, n)
    hits = world.cast_many(p, d, radius=r, height=h)
    assert hits.fraction.shape == (n,) and hits.point.shape == (n, 3)
    assert hits.obstacle.dtype == np.int64 and hits.hit.dtype == bool
    for k in range(0, n, 23):
        assert same_bits(world.cast(p[k], d[k], radius=r[k], height=h[k]), row(hits, k)), k
    previous = sidestep.threads.set_threads(1)
    try:
        alone = world.cast_many(p, d, radius=r, height=h)
    finally:
        sidestep.threads.set_threads(previous)
    assert same_bits(alone, hits)
    one = world.cast_many(p[0], d[0], radius=r[0], height=h[0])
    assert same_bits(one, world.cast(p[0], d[0], radius=r[0], height=h[0]))
    assert world.cast_many(np.zeros((0, 3)), np.zeros((0, 3))).fraction.shape == (0,)


def test_cast_refuses_bad_input():
    world = sidestep.World3D()
    world.add_boxes([(0, 0, 0)], [(1, 1, 1)])
    with pytest.raises(ValueError, match="position"):
        world.cast((0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match="displacement"):
        world.cast((0, 0, 0), (np.nan, 0, 0))
    with pytest.raises(ValueError, match="radius"):
        world.cast((0, 0, 0), (1, 0, 0), radius=-1.0)
    with pytest.raises(ValueError, match="height"):
        world.cast((0, 0, 0), (1, 0, 0), height=np.inf)
    with pytest.raises(ValueError, match="mask"):
        world.cast((0, 0, 0), (1, 0, 0), mask=-1)
    with pytest.raises(TypeError, match="mask"):
        world.cast((0, 0, 0), (1, 0, 0), mask=1.5)
    with pytest.raises(ValueError, match="positions and displacements"):
        world.cast_many(np.zeros((3, 3)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="radius"):
        world.cast_many(np.zeros((3, 3)), np.zeros((3, 3)), radius=[0.1, 0.2])
    with pytest.raises(ValueError, match="height"):
        world.cast_many(np.zeros((3, 3)), np.zeros((3, 3)), height=[-1.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="positions"):
        world.cast_many("here", np.zeros((3, 3)))


def test_cast_passes_through_layers_off_its_mask():
    # The camera's arm sees the wall but not the glass pane (layer 1) before it.
    world = sidestep.World3D()
    wall = world.add_boxes([(4, -1, -1)], [(5, 1, 1)])[0]
    world.add_boxes([(2, -1, -1)], [(2.1, 1, 1)], layer=1)
    hit = world.cast((0, 0, 0), (10, 0, 0), radius=0.2, mask=sidestep.layers.bits(0))
    assert hit.obstacle == wall
    assert world.cast((0, 0, 0), (10, 0, 0), radius=0.2).obstacle != wall
    assert not world.cast((0, 0, 0), (10, 0, 0), radius=0.2, mask=0).hit
    many = world.cast_many(np.zeros((2, 3)), [(10.0, 0, 0)] * 2, radius=0.2, mask=1)
    assert (many.obstacle == wall).all()


# ----------------------------------------------------------------- properties
@settings(max_examples=20)
@given(seeds)
def test_cast_is_exact_to_the_skin_and_never_late(seed):
    rng = np.random.default_rng(seed)
    world, scene = random_scene(rng)
    n = 48
    p = rng.uniform(-8, 8, (n, 3))
    d = rng.uniform(-12, 12, (n, 3))
    r = rng.uniform(0, 1.0, n)
    hits = world.cast_many(p, d, radius=r)
    ref, resolved = sphere_trace(p, d, r, scene)
    length = np.linalg.norm(d, axis=1)
    early = world.skin / length + 1e-9
    for k in range(n):
        if resolved[k] and ref[k] <= 1.0:
            assert hits.hit[k], (k, ref[k])
            assert ref[k] - early[k] <= hits.fraction[k] <= ref[k] + 1e-9, (k, ref[k])
            if ref[k] == 0.0:
                assert hits.fraction[k] == 0.0
        elif resolved[k]:
            assert not hits.hit[k] and hits.fraction[k] == 1.0, (k, hits.fraction[k])
        elif hits.hit[k]:
            assert hits.fraction[k] >= ref[k] - early[k]
    # Where it stops the ball overlaps nothing, and stands off at most a quarter skin
    # (a ball that starts overlapping stays where it is).
    ends = p + hits.fraction[:, None] * d
    free = field(p, scene).min(axis=1) > r
    gap = field(ends, scene).min(axis=1) - r
    assert gap[free].min(initial=0.0) >= -PROMISE
    assert (world.clearance(ends[free]) - r[free]).min(initial=0.0) >= -PROMISE
    moved = hits.hit & (hits.fraction > 0)
    assert np.all(gap[moved] <= 0.25 * world.skin + PROMISE)
    # The touched point lies on the obstacle met.
    met = hits.obstacle[hits.hit]
    on = field(hits.point[hits.hit], scene)[np.arange(len(met)), met]
    assert np.abs(on).max(initial=0.0) <= 1e-9
    # Each row is the single cast, bit for bit.
    for k in range(0, n, 6):
        assert same_bits(world.cast(p[k], d[k], radius=r[k]), row(hits, k)), k


@settings(max_examples=10)
@given(seeds)
def test_capsule_cast_never_ends_overlapping(seed):
    rng = np.random.default_rng(seed)
    world, scene = random_scene(rng)
    n = 32
    p = rng.uniform(-8, 8, (n, 3))
    d = rng.uniform(-12, 12, (n, 3))
    r = rng.uniform(0.05, 0.6, n)
    hits = world.cast_many(p, d, radius=r, height=1.8)
    half = np.where(1.8 > 2 * r, 0.9 - r, 0.0)
    ends = p + hits.fraction[:, None] * d
    for k in range(n):
        start = p[k] + np.outer(np.linspace(-half[k], half[k], 33), (0, 1, 0))
        if field(start, scene).min() <= r[k]:
            assert hits.fraction[k] == 0.0 and hits.hit[k], k
            continue
        core = ends[k] + np.outer(np.linspace(-half[k], half[k], 33), (0, 1, 0))
        assert field(core, scene).min() >= r[k] - PROMISE, k
        if not hits.hit[k]:
            # A miss: the core, sampled along the whole way, never came within the radius.
            way = (start[None] + np.linspace(0, 1, 64)[:, None, None] * d[k]).reshape(-1, 3)
            assert field(way, scene).min() >= r[k] - 1e-9, k
