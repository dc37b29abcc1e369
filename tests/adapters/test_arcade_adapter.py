"""sidestep's arcade engines beside arcade's own, on the same scenes, without a window.

arcade's physics engines need no window for ``SpriteSolidColor`` sprites (nor
do these tests). Overlaps are judged by arcade's own ``check_for_collision``
(separating axes on the hit boxes; touching is not colliding) and by the
plain-Python check (rect_overlap.py).
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

arcade = pytest.importorskip("arcade")

from sidestep.adapters import arcade as sidestep_arcade  # noqa: E402

ENGINES = {"arcade": arcade, "sidestep": sidestep_arcade}


def solid(w, h, x, y):
    return arcade.SpriteSolidColor(w, h, center_x=x, center_y=y)


def sprite_list(*sprites):
    out = arcade.SpriteList()
    for s in sprites:
        out.append(s)
    return out


def collisions(player, *lists):
    return [s for sl in lists for s in arcade.check_for_collision_with_list(player, sl)]


# ------------------------------------------------------------- the bug it fixes
@pytest.mark.parametrize("speed", [20, 60, 120, 400])
def test_thin_wall_at_speed_arcade_tunnels_sidestep_stops(speed):
    results = {}
    for name, engines in ENGINES.items():
        player = solid(32, 32, 0, 0)
        walls = sprite_list(solid(4, 400, 100, 0))           # x from 98 to 102
        engine = engines.PhysicsEngineSimple(player, walls)
        crossed = False
        for frame in range(10):
            player.change_x = speed
            engine.update()
            crossed |= player.left >= walls[0].right
            assert not collisions(player, walls)              # arcade resolves overlaps...
        results[name] = crossed
    # ...but at speed it jumps over the wall in one step: the bug (arcade #623, #89).
    assert results["arcade"] == (speed > 32 + 4)
    assert results["sidestep"] is False


def test_sidestep_stops_flush_and_reports_the_wall():
    player = solid(32, 32, 0, 0)
    walls = sprite_list(solid(4, 400, 100, 0))
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_x = 500
    assert engine.update() == [walls[0]]
    assert 98.0 - 0.1 < player.right < 98.0                   # its padding: 0.016 px


def test_one_line_switch_keeps_the_api():
    player = solid(32, 32, 0, 0)
    for name in ("PhysicsEngineSimple", "PhysicsEnginePlatformer"):
        ours = getattr(sidestep_arcade, name)
        assert issubclass(ours, getattr(arcade, name))
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=None,
                                                     gravity_constant=0.7, ladders=None,
                                                     walls=None)
    assert engine.gravity_constant == 0.7 and engine.walls == [] and engine.platforms == []
    with pytest.raises(TypeError):
        sidestep_arcade.PhysicsEnginePlatformer(arcade.BasicSprite(
            arcade.make_soft_square_texture(8, arcade.color.RED)))


def test_player_without_an_area_is_refused_by_name():
    player = solid(32, 32, 0, 0)
    player.hit_box = arcade.hitbox.HitBox([(0, 0), (0, 0), (0, 0)], position=player.position)
    engine = sidestep_arcade.PhysicsEngineSimple(player, sprite_list(solid(8, 8, 50, 0)))
    with pytest.raises(ValueError, match="player_sprite"):
        engine.update()


# --------------------------------------------------------------- top-down
def test_slides_along_wall_and_stops_in_corner():
    player = solid(30, 30, 0, 0)
    walls = sprite_list(solid(20, 400, 100, 0), solid(400, 20, 0, 100))
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_x, player.change_y = 7.0, 2.0
    for _ in range(15):
        hit = engine.update()
    assert walls[0] in hit and 90 - 0.1 < player.right < 90
    assert player.center_y == pytest.approx(30.0)             # kept its motion along the wall
    for _ in range(40):
        hit = engine.update()
    assert set(hit) == set(walls)                              # in the corner, against both
    assert 90 - 0.1 < player.right < 90 and 90 - 0.1 < player.top < 90
    assert not collisions(player, walls)


def test_walls_are_rebuilt_when_their_list_changes():
    player = solid(30, 30, 0, 0)
    walls = sprite_list(solid(20, 400, 300, 0))
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_x = 10
    engine.update()
    gate = solid(10, 400, 100, 0)
    walls.append(gate)                                         # a gate closes
    for _ in range(40):
        engine.update()
    assert 95 - 0.1 < player.right < 95
    gate.center_x = 500                                        # moves beyond the wall
    for _ in range(40):
        engine.update()
    assert 290 - 0.1 < player.right < 290
    walls[0].remove_from_sprite_lists()                        # the wall goes
    for _ in range(40):
        engine.update()
    assert 495 - 0.1 < player.right < 495                      # to the gate
    gate.remove_from_sprite_lists()
    for _ in range(5):
        assert engine.update() == []
    assert player.right > 500


def test_player_in_its_own_wall_list_is_not_a_wall():
    player = solid(30, 30, 0, 0)
    walls = sprite_list(player, solid(20, 400, 100, 0))
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_x = 10
    for _ in range(10):
        hit = engine.update()
    assert hit == [walls[1]] and 90 - 0.1 < player.right < 90


def test_turning_player_does_not_turn_into_a_wall():
    player = solid(60, 10, 0, 0)                               # a long thin player
    walls = sprite_list(solid(20, 20, 0, 20))                  # 5 px above its middle
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_angle = 45
    hit = engine.update()
    assert player.angle == 0 and hit == [walls[0]]
    assert not collisions(player, walls)


@given(st.lists(st.tuples(st.integers(-8, 8), st.integers(-8, 8), st.integers(1, 4),
                          st.integers(1, 4)), min_size=1, max_size=10),
       st.lists(st.tuples(st.floats(-70, 70), st.floats(-70, 70)), min_size=1, max_size=8))
def test_random_walls_never_overlapped(boxes, velocities):
    walls = sprite_list(*[solid(8 * w, 8 * h, 16 * x, 16 * y) for x, y, w, h in boxes])
    player = solid(20, 26, -1000, -1000)
    engine = sidestep_arcade.PhysicsEngineSimple(player, walls)
    player.change_x, player.change_y = 1000, 1000               # from outside, in among them
    engine.update()
    assert not collisions(player, walls)
    for vx, vy in velocities:
        player.change_x, player.change_y = vx, vy
        engine.update()
        assert not collisions(player, walls)


# --------------------------------------------------------------- platformer
def flat_floor(name, gravity=1.0):
    player = solid(32, 32, 0, 100)
    floor = sprite_list(*[solid(64, 64, -256 + 64 * i, -32) for i in range(9)])   # tiles
    return player, floor, ENGINES[name].PhysicsEnginePlatformer(player, walls=floor,
                                                               gravity_constant=gravity)


def test_gravity_lands_jumps_and_lands_like_arcade():
    trace = {}
    for name in ENGINES:
        player, floor, engine = flat_floor(name)
        rows = []
        for frame in range(80):
            if frame == 40:
                assert engine.can_jump()
                engine.jump(12)
            engine.update()
            rows.append((player.bottom, engine.can_jump()))
        trace[name] = rows
        assert not collisions(player, floor)
    ours, theirs = np.array(trace["sidestep"]), np.array(trace["arcade"])
    # The same fall, landing, jump and landing, frame by frame, within the padding.
    np.testing.assert_allclose(ours[:, 0], theirs[:, 0], atol=0.05)
    assert (ours[:, 1] == theirs[:, 1]).all()                  # can_jump agrees every frame
    assert ours[39, 1] and not ours[45, 1] and ours[79, 1]     # landed, in the air, landed


def test_lands_at_speed_instead_of_falling_through_a_thin_floor():
    for name, falls_through in (("arcade", True), ("sidestep", False)):
        player = solid(32, 32, 0, 300)
        floor = sprite_list(solid(400, 4, 0, 0))
        engine = ENGINES[name].PhysicsEnginePlatformer(player, walls=floor, gravity_constant=0)
        player.change_y = -80
        for _ in range(10):
            engine.update()
        assert (player.top < floor[0].bottom) == falls_through


def test_runs_over_tile_seams_without_bumps():
    player, floor, engine = flat_floor("sidestep")
    for _ in range(30):
        engine.update()
    rest = player.bottom
    heights = []
    for _ in range(50):
        player.change_x = 5
        engine.update()
        heights.append(player.bottom)
    assert player.center_x == pytest.approx(250.0)               # crossed four seams
    assert max(heights) - rest < 1e-6 and min(heights) - rest > -1e-6


def test_multi_jump_counts_like_arcade():
    counts = {}
    for name in ENGINES:
        player, floor, engine = flat_floor(name)
        for _ in range(30):
            engine.update()
        engine.enable_multi_jump(2)
        seen = []
        for frame in range(12):
            if engine.can_jump():
                engine.jump(6)
            engine.update()
            seen.append(engine.jumps_since_ground)
        engine.disable_multi_jump()
        counts[name] = seen
        assert engine.allowed_jumps == 1 and not engine.allow_multi_jump
    assert counts["sidestep"] == counts["arcade"]
    assert max(counts["sidestep"]) == 2


def test_ladder_turns_gravity_off():
    for name in ENGINES:
        player = solid(32, 32, 0, 100)
        ladder = sprite_list(solid(40, 400, 0, 100))
        engine = ENGINES[name].PhysicsEnginePlatformer(player, ladders=ladder, walls=None)
        for _ in range(10):
            engine.update()
        assert player.center_y == pytest.approx(100.0)
        player.change_y = 3
        engine.update()
        assert player.center_y == pytest.approx(103.0)


def test_walks_up_a_slope_polygon():
    player = solid(32, 32, -100, 40)
    floor = sprite_list(solid(400, 40, 0, 0))                  # top at y = 20
    ramp = solid(128, 128, 64, 84)                             # from y = 20 to 148
    ramp.hit_box = arcade.hitbox.HitBox([(-64, -64), (64, -64), (64, 64)], position=ramp.position)
    floor.append(ramp)
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, walls=floor)
    for _ in range(20):
        engine.update()
    assert player.bottom == pytest.approx(20.0, abs=0.05)
    for _ in range(40):
        player.change_x = 4
        engine.update()
        assert not collisions(player, floor)
    # Up the 45 degree slope at its walking speed: the ramp's surface under its corner.
    assert player.right > 20 and player.bottom > 20 + (player.right - 0) - 1.0
    assert player.bottom < 20 + (player.right - 0) + 1.0 and engine.can_jump()


def riding_scene(change_x=0.0, change_y=0.0, wall_x=None):
    player = solid(32, 32, 0, 60)
    platform = solid(96, 16, 0, 20)                             # top at y = 28
    platform.change_x, platform.change_y = change_x, change_y
    platforms = sprite_list(platform)
    walls = sprite_list(solid(400, 20, 0, -200))
    if wall_x is not None:
        walls.append(solid(20, 400, wall_x, 0))
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms, walls=walls)
    return player, platform, walls, platforms, engine


def test_rides_a_moving_platform():
    player, platform, walls, platforms, engine = riding_scene()
    for _ in range(30):
        engine.update()                                         # lands on it
    assert player.bottom == pytest.approx(28.0, abs=0.05)
    platform.change_x = 3
    platform.boundary_left, platform.boundary_right = -200, 200
    for _ in range(20):
        hit = engine.update()
        assert platform in hit
        assert player.center_x - platform.center_x == pytest.approx(0.0, abs=0.1)
        assert player.bottom == pytest.approx(platform.top, abs=0.05)
        assert not collisions(player, walls, platforms)
    platform.change_x, platform.change_y = 0, 2                 # now it lifts
    platform.boundary_top, platform.boundary_bottom = 300, -100
    for _ in range(20):
        engine.update()
        assert player.bottom == pytest.approx(platform.top, abs=0.05)
        assert not collisions(player, walls, platforms)


def test_platform_never_pushes_the_player_into_a_wall():
    # The platform carries the player right towards a wall: the player stops at the
    # wall and the platform slides on under it.
    player, platform, walls, platforms, engine = riding_scene(wall_x=100)
    for _ in range(30):
        engine.update()
    platform.change_x = 4
    for _ in range(40):
        engine.update()
        assert not collisions(player, walls, platforms)
    assert player.right == pytest.approx(90.0, abs=0.1)          # against the wall


def test_squeezing_platform_waits():
    # A platform moving left pushes the player along the floor into a wall: it
    # pushes until the player is against the wall, then waits where it was.
    player = solid(32, 32, 50, 16)
    floor = sprite_list(solid(800, 20, 0, -10))                   # top at y = 0
    floor.append(solid(20, 200, -100, 100))                       # a wall, right face at -90
    pusher = solid(40, 40, 120, 20)
    pusher.change_x = -5
    platforms = sprite_list(pusher)
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms, walls=floor)
    for _ in range(60):
        engine.update()
        assert not collisions(player, floor, platforms)
    assert player.left == pytest.approx(-90.0, abs=0.1)
    assert pusher.left == pytest.approx(player.right, abs=6.0)    # waiting beside it
    assert pusher.change_x == -5


def test_update_returns_what_arcade_returns_on_a_simple_scene():
    for name in ENGINES:
        player = solid(30, 30, 0, 0)
        walls = sprite_list(solid(20, 400, 100, 0), solid(20, 20, -300, 0))
        engine = ENGINES[name].PhysicsEngineSimple(player, walls)
        player.change_x = 10
        hits = [engine.update() for _ in range(12)]
        assert [len(h) for h in hits[:6]] == [0] * 6
        assert hits[-1] == [walls[0]], name


def test_lift_waits_below_a_ceiling_instead_of_crushing_the_player():
    player, platform, walls, platforms, engine = riding_scene()
    walls.append(solid(400, 20, 0, 150))                        # a ceiling, bottom at y = 140
    for _ in range(30):
        engine.update()
    platform.change_y = 3
    for _ in range(60):
        engine.update()
        assert not collisions(player, walls, platforms)
    # The lift stops less than one of its steps (3 px) short of squeezing the player.
    assert 140.0 - 32.0 - 3.0 <= platform.top <= 140.0 - 32.0
    assert 140.0 - 3.0 <= player.top <= 140.0


@given(st.lists(st.tuples(st.integers(-6, 6), st.integers(0, 5)), min_size=1, max_size=14),
       st.integers(-3, 3), st.integers(-3, 3),
       st.lists(st.tuples(st.sampled_from([-7, -3, 0, 3, 7]), st.booleans()), min_size=5,
                max_size=30))
def test_platformer_never_overlaps_walls_or_platforms(tiles, px, py, inputs):
    # A floor, random tiles above it, a platform moving along a diagonal, random inputs.
    walls = sprite_list(*[solid(32, 32, 32 * i, 32 * j + 16) for i, j in set(tiles)])
    walls.append(solid(640, 32, 0, -16))
    platform = solid(64, 12, 0, 220)
    platform.change_x, platform.change_y = px, py
    platform.boundary_left, platform.boundary_right = -200, 200
    platform.boundary_bottom, platform.boundary_top = 150, 300
    platforms = sprite_list(platform)
    player = solid(24, 30, 0, 400)
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms, walls=walls,
                                                     gravity_constant=1.0)
    for speed, jump in inputs:
        for _ in range(4):
            player.change_x = speed
            if jump and engine.can_jump():
                engine.jump(10)
            engine.update()
            assert not collisions(player, walls, platforms)


# ------------------------------------------------------ platforms as bodies
def test_moving_platform_is_posed_not_rebuilt():
    # The platform is a body made once: moving it adds nothing to the world nor to
    # the grown world the player moves in (no rebuild of their broadphase).
    player, platform, walls, platforms, engine = riding_scene()
    for _ in range(30):
        engine.update()
    platform.change_x = 3
    platform.boundary_left, platform.boundary_right = -200, 200
    rects = engine._scene.rects
    grown = rects.grown((16.0, 16.0))
    sizes = rects.world._store.alive.size, grown.smooth._store.alive.size
    for _ in range(40):
        engine.update()
        assert not collisions(player, walls, platforms)
    assert engine._scene.rects is rects and rects.grown((16.0, 16.0)) is grown
    assert (rects.world._store.alive.size, grown.smooth._store.alive.size) == sizes
    position, angle = rects.world.pose(engine._scene._platforms[0].body)
    assert position.tolist() == pytest.approx([platform.center_x, 0.0]) and angle == 0.0
    assert player.center_x - platform.center_x == pytest.approx(0.0, abs=0.1)


@pytest.mark.parametrize("degrees", [30.0, -30.0])
def test_turned_platform_clockwise_like_arcade(degrees):
    # arcade 3 turns sprites clockwise: at angle 30 a long platform's right end is
    # the low one. A player dropped over its right half lands on its slanted top.
    player = solid(20, 20, 60, 200)
    plank = solid(300, 10, 0, 0)
    platforms = sprite_list(plank)
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms,
                                                     gravity_constant=1.0)
    engine.update()                                     # the engine sees it level...
    plank.angle = degrees                               # ...then the game turns it
    for _ in range(60):
        engine.update()
        assert not collisions(player, platforms)
    slope = np.tan(np.radians(degrees))
    # The plank's top face: y = 5 / cos(a) - x tan(a); the player's box meets it at
    # the corner on the high side (its left corner when the right end is low).
    corner = player.left if degrees > 0 else player.right
    top = 5.0 / np.cos(np.radians(degrees)) - corner * slope
    assert player.bottom == pytest.approx(top, abs=0.05)
    assert engine.can_jump()


def test_rides_a_turning_platform_without_overlap():
    player = solid(20, 20, 0, 60)
    plank = solid(200, 10, 0, 0)
    platforms = sprite_list(plank)
    walls = sprite_list(solid(800, 20, 0, -300))
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms, walls=walls,
                                                     gravity_constant=1.0)
    for _ in range(30):
        engine.update()
    for frame in range(40):
        plank.angle = 0.5 * (frame + 1)                 # turns half a degree a frame
        engine.update()
        assert not collisions(player, walls, platforms)
        assert engine.can_jump()                        # stays on it
    assert engine._scene.rects.world.pose(engine._scene._platforms[0].body)[1] == \
        pytest.approx(-np.radians(20.0))


def test_wall_lists_on_layers_and_a_player_mask():
    from sidestep import layers
    player = solid(30, 30, 0, 0)
    walls = sprite_list(solid(20, 400, 200, 0))
    glass = sprite_list(solid(20, 400, 100, 0))
    engine = sidestep_arcade.PhysicsEngineSimple(player, [walls, glass], mask=layers.bits(0))
    engine.set_layer(glass, 1)
    assert engine.layer(glass) == 1 and engine.layer(walls) == 0
    player.change_x = 10
    for _ in range(30):
        hit = engine.update()
    assert hit == [walls[0]] and 190 - 0.1 < player.right < 190     # through the glass
    engine.mask = layers.ALL                                         # now the glass counts
    player.center_x = 0
    for _ in range(30):
        hit = engine.update()
    assert hit == [glass[0]] and 90 - 0.1 < player.right < 90
    with pytest.raises(ValueError):
        engine.set_layer(glass, 32)


def test_platform_on_a_masked_layer_is_not_stood_on():
    player = solid(32, 32, 0, 60)
    platforms = sprite_list(solid(96, 16, 0, 20))
    walls = sprite_list(solid(400, 20, 0, -200))                 # top at y = -190
    engine = sidestep_arcade.PhysicsEnginePlatformer(player, platforms=platforms, walls=walls,
                                                     mask=0b1)
    engine.set_layer(platforms, 3)
    for _ in range(40):
        engine.update()
    assert player.bottom == pytest.approx(-190.0, abs=0.05)       # fell through it
