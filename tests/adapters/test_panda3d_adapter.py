"""The Panda3D adapter, headless: worlds from a scene graph checked against Panda3D's own
collision rays, and the first-person controller walking into walls, on floors and up a step.
"""
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from panda3d.core import loadPrcFileData

loadPrcFileData("", "window-type offscreen\naudio-library-name null\nwin-size 64 48")

# The imports below come after the settings above (E402).
from direct.showbase.ShowBase import ShowBase  # noqa: E402
from panda3d.core import (CardMaker, CollisionBox, CollisionCapsule,  # noqa: E402
                          CollisionHandlerPusher, CollisionHandlerQueue, CollisionNode,
                          CollisionPolygon, CollisionRay, CollisionSphere, CollisionTraverser,
                          GeomNode, NodePath, Point3, Vec3)

import sidestep  # noqa: E402
from sidestep.adapters.panda3d import (FirstPersonController, FirstPersonTask,  # noqa: E402
                                       convert_nodepath, place_camera, world_from_nodepath)

FRAME = 1 / 60


@pytest.fixture(scope="module")
def base():
    app = ShowBase()
    yield app
    app.destroy()


def add_box(parent, loader, name, lo, hi, heading=0.0):
    """A box from ``lo`` to ``hi`` (its own axes, turned by ``heading`` about its ``lo``
    corner): Panda3D's unit box model scaled, with a unit CollisionBox under the same node."""
    node = parent.attach_new_node(name)
    node.set_pos(*lo)
    node.set_h(heading)
    node.set_scale(*(np.subtract(hi, lo)))
    loader.load_model("models/box").reparent_to(node)
    solid = node.attach_new_node(CollisionNode(name))
    solid.node().add_solid(CollisionBox(Point3(0, 0, 0), Point3(1, 1, 1)))
    return node


@pytest.fixture(scope="module")
def scene(base):
    """A 16 x 16 m room (floor, four walls 3 m high), a crate, a step 0.25 m high, a pillar
    turned 30 degrees, a ball and an upright capsule; the whole level moved and turned."""
    level = base.render.attach_new_node("level")
    level.set_pos(100.0, -50.0, 2.0)
    level.set_h(90.0)
    card = CardMaker("floor")
    card.set_frame(-10, 10, -10, 10)
    floor = level.attach_new_node(card.generate())
    floor.set_p(-90.0)                                   # the card lies flat, facing up
    solid = level.attach_new_node(CollisionNode("floor"))
    solid.node().add_solid(CollisionPolygon(Point3(-10, -10, 0), Point3(10, -10, 0),
                                            Point3(10, 10, 0), Point3(-10, 10, 0)))
    for name, lo, hi in [("north", (-10, 8, 0), (10, 8.5, 3)),
                         ("south", (-10, -8.5, 0), (10, -8, 3)),
                         ("east", (8, -8, 0), (8.5, 8, 3)),
                         ("west", (-8.5, -8, 0), (-8, 8, 3)),
                         ("crate", (2, 2, 0), (3, 3, 1)),
                         ("step", (-7, -8, 0), (-4, 8, 0.25))]:
        add_box(level, base.loader, name, lo, hi)
    add_box(level, base.loader, "pillar", (4, -5, 0), (4.6, -4.4, 3), heading=30.0)
    extras = level.attach_new_node(CollisionNode("extras"))
    extras.node().add_solid(CollisionSphere(Point3(5, 4, 1), 0.7))
    extras.node().add_solid(CollisionCapsule(Point3(-2, 4, 0.5), Point3(-2, 4, 2.0), 0.4))
    return level


def level_point(scene, x, y, z):
    return np.array(scene.get_top().get_relative_point(scene, Point3(x, y, z)))


def panda_raycast(root, origins, directions, mask):
    """Distance to the first surface along each ray by Panda3D's CollisionTraverser (inf: none)."""
    probe = root.get_top().attach_new_node(CollisionNode("probe"))
    ray = CollisionRay()
    probe.node().add_solid(ray)
    probe.node().set_from_collide_mask(mask)
    probe.node().set_into_collide_mask(0)
    queue = CollisionHandlerQueue()
    traverser = CollisionTraverser()
    traverser.add_collider(probe, queue)
    out = []
    for o, d in zip(origins, directions):
        ray.set_origin(Point3(*o))
        ray.set_direction(Vec3(*d))
        traverser.traverse(root)
        queue.sort_entries()
        if queue.get_num_entries():
            p = np.array(queue.get_entry(0).get_surface_point(root.get_top()))
            out.append(float(np.linalg.norm(p - o)))
        else:
            out.append(math.inf)
    probe.remove_node()
    return np.array(out)


def random_rays(scene, world, n, seed):
    """Rays from free points inside the room (level coordinates), in random directions."""
    rng = np.random.default_rng(seed)
    local = rng.uniform((-7.8, -7.8, 0.05), (7.8, 7.8, 2.9), (4 * n, 3))
    origins = np.array([level_point(scene, *p) for p in local])
    origins = origins[world.clearance(origins) > 1e-3][:n]
    directions = rng.normal(size=(len(origins), 3))
    return origins, directions / np.linalg.norm(directions, axis=1)[:, None]


@pytest.mark.parametrize("collision, mask", [(True, CollisionNode.get_default_collide_mask()),
                                             (False, GeomNode.get_default_collide_mask())])
def test_raycasts_agree_with_panda_collision_rays(scene, collision, mask):
    world = world_from_nodepath(scene, collision=collision)
    origins, directions = random_rays(scene, world, 300, seed=int(collision))
    ours = world.raycast(origins, directions)
    theirs = panda_raycast(scene, origins, directions, mask)
    assert np.array_equal(np.isfinite(theirs), ours.hit)
    assert ours.hit.sum() > 150          # walls, floor, boxes (no ceiling: some rays escape)
    # Panda3D works in float32, 100 m from the origin here.
    assert np.allclose(ours.distance[ours.hit], theirs[ours.hit], atol=5e-5, rtol=1e-5)


def test_collision_solids_become_the_obstacles_they_are(scene):
    built = convert_nodepath(scene)                      # "auto": solids, since there are some
    world = built.world
    assert built.collision and world.up == "z"
    names = sorted(p.get_name() for p in built.sources.values())
    assert names == sorted(["floor", "north", "south", "east", "west", "crate", "step",
                            "pillar", "extras", "extras", "extras", "extras"])
    assert repr(world) == ("World3D(12 obstacles: 1 panel, 1 mesh, 6 boxes, 3 spheres, "
                           "1 cylinder)")
    assert len(built.notes) == 1 and "pillar" in built.notes[0]      # the turned box: a mesh
    # The crate after the level's turn and shift: its box in render coordinates.
    crate = next(i for i, p in built.sources.items() if p.get_name() == "crate")
    boxes = world.geometry("box")
    row = list(boxes["ids"]).index(crate)
    corners = np.array([level_point(scene, *c) for c in [(2, 2, 0), (3, 3, 1)]])
    assert np.allclose(boxes["mins"][row], corners.min(axis=0), atol=1e-5)
    assert np.allclose(boxes["maxs"][row], corners.max(axis=0), atol=1e-5)


def test_visible_geometry_is_one_mesh_per_geom_node(scene):
    built = convert_nodepath(scene, collision=False)
    assert not built.collision
    assert repr(built.world) == "World3D(8 obstacles: 8 meshes)"     # the floor card, 7 boxes
    assert sorted(p.get_name() for p in built.sources.values()) == sorted(
        ["floor", "box", "box", "box", "box", "box", "box", "box"])


def test_a_model_loaded_by_panda3d_gives_the_level_sidestep_reads(base):
    # The bundled dungeon (Recast's test level) through Panda3D's OBJ loader and the
    # adapter's GeomVertexReader, against sidestep's own OBJ reader: the same triangles.
    path = Path(sidestep.__file__).parent / "data" / "dungeon.obj"
    model = base.loader.load_model(str(path))
    model.reparent_to(base.render)
    ours = sidestep.load(path).world
    theirs = world_from_nodepath(model, collision=False)
    model.remove_node()
    shapes = [w.geometry("mesh")["triangles"][0].shape for w in (theirs, ours)]
    assert shapes[0] == shapes[1] == (10133, 3)
    lo, hi = np.array(ours.bounds[0]), np.array(ours.bounds[1])
    rng = np.random.default_rng(2)
    origins, directions = rng.uniform(lo, hi, (2000, 3)), rng.normal(size=(2000, 3))
    a, b = theirs.raycast(origins, directions), ours.raycast(origins, directions)
    assert np.array_equal(a.hit, b.hit) and a.hit.sum() > 300
    assert np.allclose(a.distance[a.hit], b.distance[b.hit], atol=1e-5)     # float32 corners


def test_slanted_capsule_is_approximated_within_its_tolerance(base):
    root = base.render.attach_new_node("capsule-level")
    node = root.attach_new_node(CollisionNode("slanted"))
    node.node().add_solid(CollisionCapsule(Point3(0, 0, 0), Point3(3, 0, 3), 0.5))
    with pytest.warns(UserWarning, match="approximated by .* spheres"):
        world = world_from_nodepath(root)
    # Rays across the axis at many points along it meet the surface within 1% of the radius.
    along = np.linspace(0.1, 0.9, 17)[:, None] * np.array([3.0, 0.0, 3.0])
    origins = along + np.array([0.0, -5.0, 0.0])
    hits = world.raycast(origins, np.tile([0.0, 1.0, 0.0], (17, 1)))
    assert np.all(hits.hit)
    assert np.all(hits.distance >= 4.5 - 1e-9) and np.all(hits.distance <= 4.5 + 0.005)
    root.remove_node()


def test_scaled_spheres_keep_their_size_or_say_they_grew(base):
    root = base.render.attach_new_node("balls")
    even = root.attach_new_node(CollisionNode("even"))
    even.node().add_solid(CollisionSphere(Point3(0, 0, 0), 1.0))
    even.set_scale(3.0)
    even.set_pos(10, 0, 0)
    squashed = root.attach_new_node(CollisionNode("squashed"))
    squashed.node().add_solid(CollisionSphere(Point3(0, 0, 0), 1.0))
    squashed.set_scale(1.0, 1.0, 2.0)
    built = convert_nodepath(root)
    spheres = built.world.geometry("sphere")
    by_name = {built.sources[int(i)].get_name(): (c, r) for i, c, r in
               zip(spheres["ids"], spheres["centers"], spheres["radii"])}
    assert by_name["even"][1] == pytest.approx(3.0)             # exactly, no note
    assert by_name["even"][0] == pytest.approx([10.0, 0.0, 0.0])
    assert by_name["squashed"][1] == pytest.approx(2.0)         # round the ellipsoid
    assert len(built.notes) == 1 and built.notes[0].startswith("squashed")
    with pytest.warns(UserWarning, match="sphere round its ellipsoid"):
        world_from_nodepath(root)
    root.remove_node()


def walker(base, scene, world, feet_local, heading_local, keys):
    """A controller at ``feet_local`` looking along the level direction ``heading_local``,
    driven by a FirstPersonTask reading ``keys()``; the camera is base.camera."""
    feet = level_point(scene, *feet_local)
    direction = np.array(scene.get_top().get_relative_vector(scene, Vec3(*heading_local)))
    player = FirstPersonController(world, feet, speed=4.0)
    player.face(direction)
    task = FirstPersonTask(base, player, keys=keys, dt=FRAME)
    return player, task


def capsule_overlaps(world, player):
    c = player.character
    center = c.position + 0.5 * c.height * player.up
    return world.overlapping(center, c.radius - 1e-6, c.height - 2e-6)


@pytest.mark.parametrize("collision", [True, False])
@pytest.mark.parametrize("angle", [0.0, 35.0])
def test_walks_into_a_wall_and_never_passes_through(base, scene, collision, angle):
    world = world_from_nodepath(scene, collision=collision)
    a = math.radians(angle)
    player, task = walker(base, scene, world, (0, 5, 0), (math.sin(a), math.cos(a), 0),
                          lambda: {"w"})
    wall_face = np.array(level_point(scene, 0, 8, 0))
    inward = np.array(scene.get_top().get_relative_vector(scene, Vec3(0, -1, 0)))
    try:
        depth = []
        for _ in range(300):                                # 5 s at 4 m/s, 3 m from the wall
            base.task_mgr.step()
            assert len(capsule_overlaps(world, player)) == 0
            depth.append((player.position - wall_face) @ inward)
        assert min(depth) >= 0.3 - 1e-6                    # the radius, never less
        assert depth[-1] == pytest.approx(0.3, abs=1e-5)    # pressed against it
        assert player.character.on_wall and player.character.on_floor
        camera = np.array(base.camera.get_pos(base.render))
        assert np.allclose(camera, player.eye, atol=1e-4)   # the task moved the camera
        if angle:                                           # slid along the wall
            along = np.array(scene.get_top().get_relative_vector(scene, Vec3(1, 0, 0)))
            assert (player.position - level_point(scene, 0, 5, 0)) @ along > 5.0
    finally:
        task.remove()


def test_stands_on_the_floor_and_climbs_the_step(base, scene):
    world = world_from_nodepath(scene)
    keys = set()
    player, task = walker(base, scene, world, (-2, 0, 0), (-1, 0, 0), lambda: keys)
    floor_height = level_point(scene, 0, 0, 0)[2]
    try:
        for _ in range(60):                                 # standing still
            base.task_mgr.step()
        assert player.character.on_floor
        assert player.position[2] == pytest.approx(floor_height, abs=2e-6)
        keys.add("w")
        stops = []
        for _ in range(75):                                 # 5 m at 4 m/s: onto the step
            base.task_mgr.step()
            stops.append(player.character.stop)
            assert len(capsule_overlaps(world, player)) == 0
        assert "stepped" in stops
        assert player.character.on_floor
        assert player.position[2] == pytest.approx(floor_height + 0.25, abs=2e-6)
        assert built_name(scene, world, player.character.floor_obstacle) == "step"
    finally:
        task.remove()


def built_name(scene, world, obstacle):
    return convert_nodepath(scene).sources[obstacle].get_name()


def test_jump_rises_and_lands_on_the_floor(base, scene):
    world = world_from_nodepath(scene)
    pressed = iter([{"space"}] + [set()] * 200)
    player, task = walker(base, scene, world, (0, -3, 0), (0, 1, 0), lambda: next(pressed))
    floor_height = level_point(scene, 0, 0, 0)[2]
    try:
        heights = []
        for _ in range(120):
            base.task_mgr.step()
            heights.append(player.position[2] - floor_height)
        assert max(heights) == pytest.approx(1.0, abs=0.1)      # jump_height 1 m
        assert min(heights) >= -1e-6 and player.character.on_floor
    finally:
        task.remove()


def test_panda3d_pusher_tunnels_where_the_controller_stops(base):
    # Panda3D's own way to walk: a from-sphere moved every frame and pushed out of what it
    # overlaps (CollisionHandlerPusher). At 30 m/s (0.5 m a frame) the sphere, 0.6 m across,
    # lands inside a wall 0.1 m thick and is pushed out of its far side.
    root = base.render.attach_new_node("corridor")
    ground = root.attach_new_node(CollisionNode("ground"))
    ground.node().add_solid(CollisionBox(Point3(-10, -5, -1), Point3(10, 5, 0)))
    wall = root.attach_new_node(CollisionNode("wall"))
    wall.node().add_solid(CollisionBox(Point3(0, -5, 0), Point3(0.1, 5, 3)))
    body = base.render.attach_new_node("body")
    collider = body.attach_new_node(CollisionNode("body"))
    collider.node().add_solid(CollisionSphere(Point3(0, 0, 0.9), 0.3))
    collider.node().set_into_collide_mask(0)
    pusher = CollisionHandlerPusher()
    pusher.add_collider(collider, body)
    traverser = CollisionTraverser()
    traverser.add_collider(collider, pusher)
    body.set_pos(-3.0, 0.0, 0.0)
    world = world_from_nodepath(root)
    player = FirstPersonController(world, (-3.0, 0.0, 0.0), speed=30.0)
    player.face((1.0, 0.0, 0.0))
    try:
        for _ in range(20):
            body.set_x(body.get_x() + 30.0 * FRAME)
            traverser.traverse(root)
            player.update(FRAME, {"w"})
        # Panda3D's body: at x = 0 (inside the wall) it was pushed out to 0.4, beyond it.
        assert body.get_x() == pytest.approx(-3.0 + 20 * 0.5 + 0.4, abs=1e-4)
        assert player.position[0] == pytest.approx(-0.3, abs=1e-5)   # sidestep's stopped
    finally:
        root.remove_node()
        body.remove_node()


def test_mouse_turns_the_view_and_the_camera_looks_along_it(base, scene):
    world = world_from_nodepath(scene)
    player = FirstPersonController(world, level_point(scene, 0, 0, 0))
    player.update(FRAME, (), mouse_delta=(0.5, 0.25))          # 20 degrees right, 10 up
    assert (player.yaw, player.pitch) == pytest.approx((20.0, 10.0))
    camera = base.render.attach_new_node("eye")
    place_camera(camera, player)
    forward = np.array(camera.get_quat(base.render).get_forward())
    assert np.allclose(forward, player.look, atol=1e-6)
    assert player.look[2] == pytest.approx(math.sin(math.radians(10.0)))
    camera.remove_node()


def test_without_keyboard_the_task_stands_still(base, scene):
    world = world_from_nodepath(scene)
    player = FirstPersonController(world, level_point(scene, 0, 0, 0))
    task = FirstPersonTask(base, player, dt=FRAME)             # offscreen: no keyboard, no mouse
    start = player.position
    try:
        for _ in range(10):
            base.task_mgr.step()
        assert task.held() == set() and task.mouse_delta() == (0.0, 0.0)
        assert np.allclose(player.position, start, atol=1e-6)
    finally:
        task.remove()


def test_bad_arguments_raise_errors_naming_them(base, scene):
    with pytest.raises(ValueError, match="collision"):
        world_from_nodepath(scene, collision="yes")
    with pytest.raises(ValueError, match="nodepath"):
        world_from_nodepath(NodePath())
    with pytest.raises(ValueError, match="sides"):
        world_from_nodepath(scene, sides="back")
    with pytest.raises(ValueError, match="world.up"):
        FirstPersonController(sidestep.World3D(up="y"), (0, 0, 0))
    world = world_from_nodepath(scene)
    with pytest.raises(ValueError, match="eye_height"):
        FirstPersonController(world, level_point(scene, 0, 0, 0), eye_height=2.5)
    with pytest.raises(ValueError, match="max_pitch"):
        FirstPersonController(world, level_point(scene, 0, 0, 0), max_pitch=90.0)
    player = FirstPersonController(world, level_point(scene, 0, 0, 0))
    with pytest.raises(ValueError, match="mouse_delta"):
        player.update(FRAME, (), mouse_delta=(math.nan, 0.0))


URSINA_GAME = textwrap.dedent("""
    import json
    from ursina import Ursina, Entity, scene, camera
    from sidestep.adapters.panda3d import FirstPersonController, place_camera, world_from_nodepath
    app = Ursina(window_type="offscreen", development_mode=False)
    ground = Entity(model="plane", scale=(20, 1, 20), collider="box")
    wall = Entity(model="cube", position=(0, 1.5, 5), scale=(20, 3, 1), collider="box")
    world = world_from_nodepath(scene, exclude=[camera])
    player = FirstPersonController(world, feet=(0, 0.01, 0))
    held_keys = {"w": 1}                                # ursina's held_keys: name -> 0 or 1
    for frame in range(240):
        player.update(1 / 60, held_keys, (0.0, 0.0))
        place_camera(camera, player)
    print(json.dumps({"up": world.up, "world": repr(world), "feet": player.position.tolist(),
                      "on_wall": player.character.on_wall,
                      "camera": list(camera.world_position)}))
""")


def test_ursina_scene_and_controller():
    pytest.importorskip("ursina")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", URSINA_GAME], capture_output=True, text=True,
                         timeout=120, env=env, cwd=os.path.dirname(__file__))
    assert out.returncode == 0, out.stderr[-2000:]
    game = json.loads(out.stdout.strip().splitlines()[-1])
    assert game["up"] == "y" and game["world"] == "World3D(2 obstacles: 2 boxes)"
    x, y, z = game["feet"]
    # ursina is y up and left-handed, forward is +z: stopped by the wall's face at z = 4.5,
    # standing on the top of the ground's collider (0.002 thick).
    assert z == pytest.approx(4.5 - 0.3, abs=1e-4) and game["on_wall"]
    assert y == pytest.approx(0.001, abs=1e-4) and x == pytest.approx(0.0, abs=1e-9)
    assert game["camera"] == pytest.approx([x, y + 1.6, z], abs=1e-3)


def test_bodies_follow_their_nodepaths_as_a_fresh_conversion_sees_them():
    """A door and a lift animated in Panda3D move their obstacles too (NodePathBodies):
    after any turn and shift of their nodes, the world answers as one converted anew."""
    from sidestep.adapters.panda3d import NodePathBodies
    level = NodePath("level")
    floor = level.attach_new_node(CollisionNode("floor"))
    floor.node().add_solid(CollisionBox(Point3(-10, -10, -1), Point3(10, 10, 0)))
    door = level.attach_new_node(CollisionNode("door"))
    door.node().add_solid(CollisionBox(Point3(0, 0, 0), Point3(1.2, 0.1, 2)))
    lift = level.attach_new_node("lift")
    car = lift.attach_new_node(CollisionNode("car"))
    car.node().add_solid(CollisionSphere(Point3(3, 3, 1), 0.8))
    built = convert_nodepath(level)
    bodies = NodePathBodies(built)
    bodies.follow(door)
    bodies.follow(lift)                       # the node above the car: its obstacles too
    rng = np.random.default_rng(2)
    points = rng.uniform(-5, 5, (300, 3))
    for heading, rise in [(30.0, 0.5), (125.0, 1.7), (-60.0, 0.0)]:
        door.set_h(heading)
        door.set_pos(0.5, -0.2, 0.0)
        lift.set_pos(0.0, 0.0, rise)
        bodies.update(dt=FRAME)
        fresh = convert_nodepath(level).world
        np.testing.assert_allclose(built.world.clearance(points), fresh.clearance(points),
                                   rtol=0, atol=1e-5)      # Panda3D's float32 matrices
    lift.set_scale(2.0)
    with pytest.raises(ValueError, match="scaled"):
        bodies.update()
