"""The pygame adapter: worlds from rect lists and Tiled maps, RectMover.move with Rect and FRect.

Every place a rect ends is checked with pygame's own ``colliderect`` against
the wall rects and with the independent plain-Python check (rect_overlap.py).
"""
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

import sidestep  # noqa: E402
from sidestep.adapters.pygame import RectMover, world_from_rects, world_from_tiled  # noqa: E402

from rect_overlap import rect_overlaps  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def overlapping(world, rect):
    """Ids of the world's obstacles the rect's interior meets (plain Python)."""
    return rect_overlaps(world, (rect.x, rect.y), (rect.x + rect.w, rect.y + rect.h))


def assert_clear(world, walls, rect):
    assert rect.collidelist(walls) == -1, (rect, walls[rect.collidelist(walls)])
    assert overlapping(world, rect) == [], rect


def room():
    """A 400 x 300 room with 20 px walls, a pillar and a thin wall (y down, as pygame)."""
    walls = [pygame.Rect(0, 0, 400, 20), pygame.Rect(0, 280, 400, 20),
             pygame.Rect(0, 0, 20, 300), pygame.Rect(380, 0, 20, 300),
             pygame.Rect(150, 100, 40, 60), pygame.Rect(300, 20, 2, 200)]
    return walls, world_from_rects(walls)


# ------------------------------------------------------------------ building
def test_world_from_rects_ids_are_list_indices():
    world = world_from_rects([pygame.Rect(0, 0, 10, 10), pygame.FRect(20.5, 0, 5, 2.5),
                              (40, 0, 1, 1)])
    assert world.ids.tolist() == [0, 1, 2]
    g = world.geometry("box")
    np.testing.assert_allclose(g["mins"], [(0, 0), (20.5, 0), (40, 0)])
    np.testing.assert_allclose(g["maxs"], [(10, 10), (25.5, 2.5), (41, 1)])
    assert len(world_from_rects([])) == 0


@pytest.mark.parametrize("bad, error, match", [
    ([pygame.Rect(0, 0, 0, 10)], ValueError, r"rects\[0\].*positive"),
    ([(0, 0, 5, 5), pygame.Rect(0, 0, -5, 5)], ValueError, r"rects\[1\].*positive"),
    ([(0, 0, 5)], ValueError, r"rects\[0\]"),
    ([(0, 0, "5", 5)], TypeError, r"rects\[0\]"),
    ([(0, 0, np.nan, 5)], ValueError, r"rects\[0\]"),
    ([3], TypeError, r"rects\[0\]"),
    (pygame.Rect(0, 0, 5, 5), TypeError, "rects"),
])
def test_world_from_rects_names_the_bad_rect(bad, error, match):
    with pytest.raises(error, match=match):
        world_from_rects(bad)


def test_move_names_bad_arguments():
    mover = RectMover(world_from_rects([(0, 0, 10, 10)]))
    with pytest.raises(ValueError, match="rect"):
        mover.move(pygame.Rect(0, 0, 0, 5), 1, 1)
    with pytest.raises(ValueError, match="dx"):
        mover.move(pygame.Rect(20, 0, 5, 5), np.inf, 1)
    with pytest.raises(TypeError, match="dy"):
        mover.move(pygame.Rect(20, 0, 5, 5), 1, "up")
    with pytest.raises(ValueError, match="mode"):
        RectMover(sidestep.World2D(), mode="fly")


# ------------------------------------------------------------- named scenes
def test_slides_along_wall_at_speed():
    walls, world = room()
    mover = RectMover(world)
    player = pygame.Rect(40, 200, 32, 32)
    player, info = mover.move(player, -500, 30)          # into the left wall, far, and down
    assert player.x == 20 and player.y == 230              # flush against it, slid 30 down
    assert info.stop == "slid" and info.contacts == (2,)
    assert_clear(world, walls, player)


def test_stops_in_corner():
    walls, world = room()
    mover = RectMover(world)
    player, info = mover.move(pygame.Rect(200, 150, 32, 32), 900, -900)
    assert (player.right, player.top) == (300, 20)         # the thin wall and the ceiling
    assert info.stop == "blocked" and sorted(info.contacts) == [0, 5]
    assert_clear(world, walls, player)


def test_never_tunnels_the_thin_wall():
    walls, world = room()
    mover = RectMover(world)
    for speed in (30, 300, 3000, 3e6):
        player, info = mover.move(pygame.Rect(250, 50, 32, 32), speed, 0)
        assert player.right == 300 and info.contacts == (5,)
        assert_clear(world, walls, player)


@pytest.mark.parametrize("kind", [pygame.Rect, pygame.FRect])
def test_passes_a_gap_its_width_plus_a_hair(kind):
    # A slot in a floor; a 32 px rect over its middle falls into it. (A Rect's hair is
    # 2 px: one each side, integers; one flush with an edge meets that edge's corner
    # head-on and stands on it.)
    hair = 0.05 if kind is pygame.FRect else 2
    walls = [pygame.FRect(0, 100, 100, 20), pygame.FRect(132 + hair, 100, 100, 20)]
    world = world_from_rects(walls)
    player, _ = RectMover(world).move(kind(100 + hair / 2, 40, 32, 32), 0, 200)
    assert player.top > 120                                 # through the slot
    assert overlapping(world, player) == []


@pytest.mark.parametrize("narrower", [0.0, 0.02])
def test_does_not_pass_a_gap_not_wider_than_it(narrower):
    # Exactly its width does not do either: the rect keeps a thousandth of its half
    # size (0.016 px here) off everything, on both sides.
    walls = [pygame.FRect(0, 100, 100, 20), pygame.FRect(132 - narrower, 100, 100, 20)]
    world = world_from_rects(walls)
    player, info = RectMover(world).move(pygame.FRect(100 - narrower / 2, 40, 32, 32), 0, 200)
    assert player.bottom <= 100 and info.stop == "blocked"
    assert overlapping(world, player) == []


def test_integer_rect_rests_flush_and_keeps_integers():
    walls, world = room()
    mover = RectMover(world)
    player = pygame.Rect(100, 200, 32, 32)
    for _ in range(20):
        player, _ = mover.move(player, 7.3, 11.7)
        assert isinstance(player, pygame.Rect)
        assert_clear(world, walls, player)
    assert player.bottom == 280 and player.x > 100          # resting flush on the floor


def test_tuple_gives_an_frect():
    _, world = room()
    out, _ = RectMover(world).move((100.0, 200.0, 32.0, 32.0), 1.25, 0.5)
    assert isinstance(out, pygame.FRect) and (out.x, out.y) == (101.25, 200.5)


def test_sees_rects_added_to_the_world_later():
    walls, world = room()
    mover = RectMover(world)
    assert mover.move(pygame.Rect(40, 200, 32, 32), 50, 0).rect.x == 90
    world.add_boxes([(80.0, 0.0)], [(85.0, 300.0)])
    assert mover.move(pygame.Rect(40, 200, 32, 32), 50, 0).rect.right == 80


def test_ghost_mode_goes_through():
    walls, world = room()
    out, info = RectMover(world, mode="ghost").move(pygame.Rect(250, 50, 32, 32), 100, 0)
    assert out.x == 350 and info.stop == "done"


# ------------------------------------------------------------- rounding, property
@given(st.lists(st.tuples(st.integers(-60, 60), st.integers(-60, 60)), min_size=1, max_size=25),
       st.sampled_from([pygame.Rect, pygame.FRect]),
       st.lists(st.tuples(st.floats(-80, 80), st.floats(-80, 80)), min_size=1, max_size=12))
def test_rounding_never_overlaps(tiles, kind, moves):
    # Tiles of 16 px on a lattice, plus odd-sized walls off it; a 13 x 21 rect moves about.
    walls = [pygame.Rect(16 * i, 16 * j, 16, 16) for i, j in set(tiles)]
    walls += [pygame.FRect(3.3, 7.7, 0.4, 50.1), pygame.FRect(-40.25, 33.5, 60.5, 1.3)]
    world = world_from_rects(walls)
    mover = RectMover(world)
    player = kind(-500, -500, 13, 21)                     # outside everything
    player, _ = mover.move(player, 480, 470)              # in among the tiles
    assert_clear(world, walls, player)
    for dx, dy in moves:
        player, _ = mover.move(player, dx, dy)
        assert isinstance(player, kind)
        assert_clear(world, walls, player)


def test_frect_rounds_to_float32_on_the_safe_side():
    # A wall whose face is no float32 number: the exact end rounded to float32 could
    # land a rounding step inside it.
    face = 1000.0 + 1e-5
    walls = [pygame.FRect(0, 0, 1, 1)]                   # kept for colliderect's sake
    world = sidestep.World2D()
    world.add_boxes([(face, -100.0)], [(face + 10.0, 100.0)])
    mover = RectMover(world)
    player = pygame.FRect(900.0, 0.0, 32.0, 32.0)
    for step in (50.0, 30.0, 7.3, 0.1):
        player, _ = mover.move(player, step, 0.0)
        assert player.x + player.w <= face                # float64 sums of its float32 fields
        assert overlapping(world, player) == []
    assert face - (player.x + player.w) < 0.016 + 1e-4   # its padding (0.016) and a float32 step
    assert walls


# ------------------------------------------------------------------ Tiled
@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
@pytest.mark.parametrize("name", ["melonjs_platformer/map1.tmx", "tuxemon/maps/buddha_mountain.tmx"])
def test_walks_a_tiled_map_without_overlapping(name):
    world = world_from_tiled(DATA / "tiled" / name)
    assert len(world) > 10
    mover = RectMover(world)
    rng = np.random.default_rng(7)
    lo, _, hi_x, hi_y = world.bounds
    player = None
    while player is None:                                 # a free place to start
        x, y = rng.uniform(lo + 40, hi_x - 40), rng.uniform(40, hi_y - 40)
        candidate = pygame.Rect(int(x), int(y), 20, 28)
        if overlapping(world, candidate) == []:
            player = candidate
    touched = 0
    for frame in range(400):
        if frame % 25 == 0:
            heading = rng.uniform(0, 2 * np.pi)
        player, info = mover.move(player, 9 * np.cos(heading), 9 * np.sin(heading))
        touched += bool(info.contacts)
        assert overlapping(world, player) == [], (frame, player)
    assert touched > 20                                   # it did walk into things


# ------------------------------------------------------ moving rects, layers
def test_moving_rect_is_posed_and_ridden():
    floor = [pygame.Rect(0, 300, 800, 20)]
    mover = RectMover(world_from_rects(floor))
    lift = pygame.Rect(100, 200, 80, 10)
    body = mover.add_moving(lift)
    player = pygame.FRect(120, 168, 32, 32)                 # standing on it
    size = mover.rects.world._store.alive.size
    for _ in range(40):
        lift = lift.move(2, -1)
        mover.place(body, lift)                             # a pose, nothing added
        player = mover.move(player, 2, -1, ignore=[body]).rect
        player = mover.move(player, 0, 3).rect              # gravity: back onto the lift
        assert player.bottom == pytest.approx(lift.top, abs=0.05)
        assert not player.colliderect(lift)
    assert mover.rects.world._store.alive.size == size
    assert mover.world.pose(body)[0].tolist() == [80.0, -40.0]
    with pytest.raises(ValueError, match="size"):
        mover.place(body, pygame.Rect(0, 0, 10, 10))
    with pytest.raises(KeyError, match="add_moving"):
        mover.move(player, 1, 0, ignore=[99])


def test_rects_on_layers_and_the_movers_mask():
    walls = [pygame.Rect(100, 0, 20, 200), pygame.Rect(200, 0, 20, 200)]
    world = world_from_rects(walls, layer=[1, 0])
    assert world.layers([0, 1]).tolist() == [1, 0]
    player = pygame.Rect(0, 50, 32, 32)
    assert RectMover(world).move(player, 300, 0).rect.right == 100
    mover = RectMover(world, mask=sidestep.layers.bits(0))
    assert mover.move(player, 300, 0).rect.right == 200      # through the wall on layer 1
