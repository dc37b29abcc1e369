"""``sidestep play`` headless: scripted keys drive the character into walls, corners and trees.

The game runs with SDL's dummy video driver (no window). The house is the
articles' (``sidestep.scenes``): the character (radius 0.3 m, 4.5 m/s, so
0.075 m a frame) starts at (12, 4) in the big east room, whose east wall
(x = 19.4, clearance 0.5) stops its centre at x = 18.6 and whose north wall
(y = 14.4) at y = 13.6.
"""
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"      # before pygame opens anything
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

from sidestep import load, World2D  # noqa: E402
from sidestep.play import Game, Stage, default_stage, level_stage, palette  # noqa: E402
from sidestep.play.controls import parse_script  # noqa: E402
from sidestep.play.draw import Renderer  # noqa: E402
from sidestep.play.game import FRAME_SECONDS  # noqa: E402

from command_line import run  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")
DEN = DATA / "grid" / "dao" / "den520d.map"
#: The promise of a slide: the character's centre stays this close to its radius or farther.
PROMISE = 1e-9
EAST_STOP, NORTH_STOP = 18.6, 13.6
SIZE = (640, 480)


@pytest.fixture(scope="module")
def house():
    return default_stage()


@pytest.fixture(scope="module")
def window():
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode(SIZE)
    pygame.display.quit()


def drive(game, script):
    """Play ``script``: ``(positions (n, 2), frames)``, checking the promise every frame."""
    world, radius = game.world, game.radius
    positions, frames = [], []
    for keys in parse_script(script):
        frame = game.step(keys)
        if frame.mode in ("slide", "block"):
            assert world.clearance(frame.position) >= radius - PROMISE, \
                f"frame {frame.index}: the character overlaps an obstacle at {frame.position}"
        positions.append(frame.position)
        frames.append(frame)
    return np.array(positions), frames


def test_slides_along_the_east_wall_then_rests_in_the_corner(house):
    game = Game(house)
    stride = house.speed * FRAME_SECONDS / np.sqrt(2)      # each axis, walking diagonally
    path, frames = drive(game, "up+right*260")
    assert path[:, 0].max() <= EAST_STOP + 1e-6
    touching = np.flatnonzero(path[:, 0] > EAST_STOP - 1e-5)
    first = touching[0]
    # Along the wall it keeps the whole of the move's part along it, frame after frame.
    along = np.diff(path[first:first + 40, 1])
    assert along.min() > 0.99 * stride
    assert frames[first + 20].stop == "slid"
    # Then the north-east corner holds it, still: no jitter.
    np.testing.assert_allclose(path[-1], [EAST_STOP, NORTH_STOP], atol=1e-5)
    assert np.ptp(path[-30:], axis=0).max() == 0.0
    assert frames[-1].stop == "blocked"
    normals = sorted(tuple(np.round(c.normal, 6) + 0.0) for c in frames[-1].contacts)
    assert normals == [(-1.0, 0.0), (0.0, -1.0)]


def test_walks_round_a_tree_in_its_way(house):
    world = house.world
    trees = world.geometry("circle")
    game = Game(house)
    path, frames = drive(game, "left*180")
    met = {c.obstacle for f in frames for c in f.contacts}
    assert met & set(trees["ids"].tolist()), "never touched a tree on the way west"
    # It went round the grove tree at (5.6, 3.6) and on west, not stopping at it.
    assert path[-1, 0] < 5.6 - 2.0
    assert (np.diff(path[:, 0]) < 0).all()


def test_comes_to_rest_in_the_crease_between_two_radial_trees(house):
    # From the north-east, straight at the point between the trees at (0, 1) and (1, 0).
    game = Game(dataclasses.replace(house, start=np.array([4.0, 4.0])))
    path, frames = drive(game, "down+left*200")
    assert frames[-1].stop == "blocked"
    assert np.ptp(path[-20:], axis=0).max() == 0.0
    assert len({c.obstacle for c in frames[-1].contacts}) == 2
    # It rests against both trees: 1.3 from each centre.
    np.testing.assert_allclose(np.hypot(*(path[-1] - [0.0, 1.0])), 1.3, atol=1e-5)
    np.testing.assert_allclose(np.hypot(*(path[-1] - [1.0, 0.0])), 1.3, atol=1e-5)


def test_block_mode_stops_short_of_the_wall_and_never_enters_it(house):
    game = Game(house)
    path, frames = drive(game, "3 right*150")
    assert frames[-1].mode == "block"
    assert path[:, 0].max() <= EAST_STOP + 1e-6
    assert path[-1, 0] > EAST_STOP - house.speed * FRAME_SECONDS   # within one stride
    assert frames[-1].stop == "blocked"


def test_ghost_mode_passes_through_the_wall_and_slide_brings_it_back_out(house):
    game = Game(house)
    path, frames = drive(game, "4 right*200")
    assert frames[-1].mode == "ghost"
    assert path[-1, 0] > 19.9 + house.radius + 1.0             # beyond the wall's band
    assert frames[-1].contacts == ()
    # Back to slide while standing inside the wall: the next move recovers out.
    game = Game(dataclasses.replace(house, start=np.array([19.4, 4.0])), mode="ghost")
    path, frames = drive(game, "1 idle*2")
    assert frames[-1].mode == "slide"
    assert house.world.clearance(path[-1]) >= house.radius - PROMISE


def test_command_keys_act_once_when_they_go_down(house):
    game = Game(house)
    drive(game, "g*5")
    assert game.debug
    drive(game, "idle g idle g")
    assert game.debug
    drive(game, "=*2 idle = - 2")             # held over two frames: one press
    assert game.zoom == pytest.approx(1.25 * 1.25 / 1.25)
    assert game.mode == "push"


def test_up_moves_up_the_screen_on_a_level_drawn_y_down():
    world = World2D()
    world.add_walls([(-10, -10)], [(10, -10)])
    stage = Stage(world, np.zeros(2), 0.3, 3.0, y_down=True)
    game = Game(stage)
    path, _ = drive(game, "up*10")
    assert path[-1, 1] == pytest.approx(-10 * 3.0 * FRAME_SECONDS)
    assert path[-1, 0] == 0.0


def test_camera_follows_a_ghost_out_of_the_level_and_stays_over_it_otherwise():
    from sidestep.play.camera import MARGIN_PIXELS, Camera
    camera = Camera(SIZE, (0, 0, 100, 100), radius=0.3)      # a level wider than the window
    camera.follow((1.0, 1.0))                                 # near a corner: the view stops
    x, y = camera.to_screen([(0.0, 0.0)])[0]                  # at the margin beyond the edge
    assert (x, y) == (MARGIN_PIXELS, SIZE[1] - MARGIN_PIXELS)
    camera.follow((150.0, 50.0))                              # a ghost far outside
    x, y = camera.to_screen([(150.0, 50.0)])[0]
    assert MARGIN_PIXELS <= x <= SIZE[0] - MARGIN_PIXELS and y == SIZE[1] / 2


def _pixel(surface, camera, point):
    x, y = np.rint(camera.to_screen(point)[0]).astype(int)
    assert 0 <= x < SIZE[0] and 0 <= y < SIZE[1], f"{point} is off the screen"
    return tuple(surface.get_at((int(x), int(y))))[:3]


def test_saved_frame_shows_the_character_the_wall_and_the_contact(house, window, tmp_path):
    game = Game(house, debug=True)
    renderer = Renderer(game, SIZE)
    drive(game, "right*150")                     # against the east wall at y = 4
    renderer.draw(window)
    picture = tmp_path / "frame.png"
    pygame.image.save(window, str(picture))
    saved = pygame.image.load(str(picture))
    camera = renderer.camera
    x, y = game.position
    assert _pixel(saved, camera, (x, y)) == palette.GEOMETRY      # debug: its centre
    assert _pixel(saved, camera, (x - game.radius / 2, y)) == palette.PLAYER
    assert _pixel(saved, camera, (19.4 + 0.3, y - 2.0)) == palette.WALL_BAND
    assert _pixel(saved, camera, (19.4 + 0.3, y + 2.0)) == palette.WALL_BAND
    assert _pixel(saved, camera, (18.75, y - 2.0)) == palette.HALO       # within 0.8 of the wall
    assert _pixel(saved, camera, (17.0, y - 2.0)) == palette.BACKGROUND
    # The contact: its point on the wall's surface (drawn as a dot, half under the
    # character) and its normal, out through the character and beyond it.
    contact = game.last.contacts[0]
    assert _pixel(saved, camera, contact.point + contact.normal * -2 / camera.scale) \
        == palette.CONTACT
    assert _pixel(saved, camera, contact.point + contact.normal * 2.2 * game.radius) \
        == palette.CONTACT
    # Without the debug drawing the halo is floor again.
    game.step({"g"})
    renderer.draw(window)
    assert _pixel(window, camera, (18.75, y - 2.0)) == palette.BACKGROUND
    assert _pixel(window, camera, (x, y)) == palette.PLAYER
    assert _pixel(window, camera, (0.0, 1.0)) == palette.TREE


def test_outside_a_levels_edge_is_shaded_and_the_character_stays_inside(window):
    world = World2D()
    corners = np.array([(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)])
    world.add_walls(corners, np.roll(corners, -1, axis=0), one_sided=True)   # walkable inside
    game = Game(Stage(world, np.zeros(2), 0.3, 4.5, name="a room"))
    path, _ = drive(game, "right*100")
    assert path[-1, 0] == pytest.approx(5.0 - 0.3, abs=1e-5)
    renderer = Renderer(game, SIZE)
    renderer.draw(window)
    camera = renderer.camera
    assert _pixel(window, camera, (2.0, 3.0)) == palette.BACKGROUND
    assert _pixel(window, camera, (6.0, 3.0)) == palette.OUTSIDE
    assert _pixel(window, camera, (-6.0, -3.0)) == palette.OUTSIDE


def test_crowd_of_200_never_enters_an_obstacle_nor_each_other(house, window):
    game = Game(house, crowd=200, seed=3)
    crowd = game.wanderers
    world = house.world
    start = crowd.positions.copy()
    skin = world.skin
    renderer = Renderer(game, SIZE)
    for keys in parse_script("left*60 down*60"):
        game.step(keys)
        p, r = crowd.positions, crowd.radii
        assert (world.clearance(p) >= r - PROMISE).all()
        gap = np.sqrt(((p[:, None] - p[None]) ** 2).sum(axis=2)) - (r[:, None] + r[None])
        np.fill_diagonal(gap, np.inf)
        assert gap.min() >= -skin
    renderer.draw(window)
    assert len(crowd) == 200
    walked = np.hypot(*(crowd.positions - start).T)
    assert np.median(walked) > 1.0                  # they wander (0.4-0.8 of 4.5 m/s for 2 s)


def test_cli_plays_the_house_for_30_frames_and_saves_a_screenshot(tmp_path):
    # A real process, as a player starts it (with the dummy driver: no window here).
    shot = tmp_path / "x.png"
    done = subprocess.run([sys.executable, "-m", "sidestep", "play", "--frames", "30",
                           "--screenshot", str(shot), "--size", "320x240"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    assert "30 frames at" in done.stdout and "median" in done.stdout
    assert f"wrote {shot}" in done.stderr
    picture = pygame.image.load(str(shot))
    assert picture.get_size() == (320, 240)
    # The character stands still in the middle of the window (the house is wider).
    assert tuple(picture.get_at((160, 120)))[:3] == palette.PLAYER


@needs_data
def test_cli_plays_a_real_level_with_a_crowd(tmp_path, capsys):
    shot = tmp_path / "den.png"
    status, out, err = run(["play", DEN, "--crowd", "100", "--frames", "30",
                            "--screenshot", shot, "--fps", "0", "--size", "320x240"], capsys)
    assert status == 0, err
    assert "30 frames" in out and "crowd of 100" in out
    assert pygame.image.load(str(shot)).get_size() == (320, 240)


@needs_data
def test_level_stage_starts_the_character_where_it_fits():
    level = load(DEN)
    stage = level_stage(level, y_down=True)
    assert stage.radius == pytest.approx(0.3)
    assert level.world.clearance(stage.start) >= 3 * stage.radius
    game = Game(stage)
    path, _ = drive(game, "left*60 up*60 right*60")
    assert np.hypot(*(path[-1] - stage.start)) > 0.0


@pytest.mark.parametrize("argv, words", [
    (["--script", "jump*3"], "unknown key 'jump'"),
    (["--script", "right*x"], "bad repeat count"),
    (["--screenshot", "x.gif"], "screenshot must be"),
    (["--radius", "-1"], "radius must be"),
    (["--map", "E1M1"], "give one"),
    (["--crowd", "100000"], "the level has room for"),
    (["--size", "10x10"], "at least 64x64"),
])
def test_bad_input_ends_with_one_line(argv, words, capsys):
    status, _, err = run(["play", "--frames", "1", *argv], capsys)
    assert status == 2
    assert words in err and len(err.strip().splitlines()) == 1
