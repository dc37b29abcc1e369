"""``sidestep play --living`` headless: the door, the lift and the turnstile push the character
and the crowd, which are never inside anything after a frame; the crowd's door lets the
crowd through, not the character; the drawing shows the bodies where they are.

The level (:mod:`sidestep.play.living`): the character (radius 0.3 m, 4.5 m/s) starts at
(5, 18) in the west hall; the door is hinged at (14, 16) and swings through the doorway
above it (shut at 90 degrees, 77 degrees either way, every 4 s); the lift's car (2.2 m by
2 m) waits in the south room (centre y = 5) for 1.5 s, then runs up its shaft (x 21 to
23.4, y 6 to 12) into the east hall (centre y = 13) in 3 s; the turnstile's bars turn
about (30, 18) at 1.2 rad/s.
"""
import dataclasses
import math
import os

import numpy as np
import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"      # before pygame opens anything
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

import sidestep  # noqa: E402
from sidestep.play import Game, living_stage, palette  # noqa: E402
from sidestep.play import living  # noqa: E402
from sidestep.play.controls import parse_script  # noqa: E402
from sidestep.play.draw import Renderer  # noqa: E402
from sidestep.play.game import FRAME_SECONDS  # noqa: E402

from command_line import run  # noqa: E402

#: How far inside anything the character or an agent may end (rounding).
PROMISE = 1e-9
SIZE = (800, 600)


def play(game, script):
    """Play ``script``, checking after every frame that the character and every wanderer
    are clear of everything they collide with; returns the frames."""
    world, stage = game.world, game.stage
    frames = []
    for keys in parse_script(script):
        frame = game.step(keys)
        assert world.clearance(frame.position) >= game.radius - PROMISE, \
            f"frame {frame.index}: the character is inside something at {frame.position}"
        if game.wanderers is not None:
            crowd = game.wanderers
            room = world.clearance(crowd.positions, stage.crowd_mask)
            assert (room >= crowd.radii - PROMISE).all(), \
                f"frame {frame.index}: a wanderer is inside something"
        frames.append(frame)
    return frames


def pushed(frames, start):
    """Frames where the bodies moved the character (its ``carried`` is off its last place)."""
    before = [start] + [f.position for f in frames[:-1]]
    return [f for f, b in zip(frames, before) if np.hypot(*(f.carried - b)) > 1e-6]


def test_the_living_level_builds_with_its_bodies_at_their_first_poses():
    stage = living_stage()
    world = stage.world
    assert len(stage.living.bodies) == 3
    assert world.clearance(stage.start) >= 3 * stage.radius
    for body, (position, angle) in zip(stage.living.bodies, zip(*stage.living.poses(0.0))):
        where, turned = world.pose(int(body))
        np.testing.assert_allclose(where, position)
        assert turned == pytest.approx(angle)
    # The character's mask sees the crowd's door; the crowd's does not.
    gate = tuple(np.mean(living.CROWD_DOOR, axis=0))
    assert world.clearance(gate) < 0
    assert world.clearance(gate, stage.crowd_mask) > 0.5


def test_door_swinging_into_the_character_at_rest_pushes_it():
    # (12, 18.5) is 3.2 m from the hinge, in the door's sweep on the west side.
    stage = living_stage()
    start = np.array([12.0, 18.5])
    game = Game(dataclasses.replace(stage, start=start))
    frames = play(game, "idle*240")                   # one swing to and fro, standing still
    moved = pushed(frames, start)
    assert moved, "the door never moved the character"
    assert np.hypot(*(frames[-1].position - start)) > 0.5


def test_walking_into_the_swinging_door_never_enters_it():
    game = Game(living_stage())
    frames = play(game, "right*150 idle*60 right*120 left*100 right*200 up+right*60")
    assert pushed(frames, game.stage.start), "the door never moved the character"
    assert game.position[0] > 14.0                    # it got through into the east hall


def test_turnstile_sweeps_the_character_round_and_never_through_a_bar():
    stage = living_stage()
    start = np.array([27.0, 18.0])
    game = Game(dataclasses.replace(stage, start=start))
    frames = play(game, "right*240 idle*120 right*120")
    moved = pushed(frames, start)
    assert moved, "the turnstile never moved the character"
    assert {f.stop for f in frames} <= {"done", "slid", "blocked", "squeezed"}


def test_lift_carries_the_character_standing_in_its_shaft_out_into_the_east_hall():
    stage = living_stage()
    start = np.array([sum(living.SHAFT) / 2, 9.0])    # in the shaft, above the car
    game = Game(dataclasses.replace(stage, start=start))
    frames = play(game, "idle*300")                   # the car waits 1.5 s, runs 3 s
    assert pushed(frames, start)
    top = living.CAR_ENDS[1] + living.CAR_HALF[1]     # the car's north face, waiting
    assert game.position[1] >= top + game.radius - 1e-6
    np.testing.assert_allclose(game.position[0], start[0], atol=1e-6)   # straight up


def test_crowd_door_stops_the_character_and_lets_the_crowd_through():
    stage = living_stage()
    above = np.array([5.0, 11.0])
    game = Game(dataclasses.replace(stage, start=above))
    play(game, "down*60")
    top = living.CROWD_DOOR[1][1]
    assert game.position[1] == pytest.approx(top + game.radius, abs=1e-5)
    crowd = sidestep.Crowd(stage.world, [above], [0.3], mask=stage.crowd_mask)
    for _ in range(60):
        crowd.step([(0.0, -4.5 * FRAME_SECONDS)])
    assert crowd.positions[0, 1] < living.CROWD_DOOR[0][1] - 0.3


def test_crowd_of_60_on_the_living_level_is_never_inside_anything():
    game = Game(living_stage(), crowd=60, seed=2)
    start = game.wanderers.positions.copy()
    play(game, "right*150 idle*120 right*150 down*90 idle*90")
    walked = np.hypot(*(game.wanderers.positions - start).T)
    assert np.median(walked) > 1.0


def _pixel(surface, camera, point):
    x, y = np.rint(camera.to_screen(point)[0]).astype(int)
    assert 0 <= x < SIZE[0] and 0 <= y < SIZE[1], f"{point} is off the screen"
    return tuple(surface.get_at((int(x), int(y))))[:3]


def test_drawing_shows_the_turned_door_where_it_is_not_its_bounding_box():
    pygame.font.init()
    surface = pygame.Surface(SIZE)
    game = Game(living_stage())
    renderer = Renderer(game, SIZE)
    renderer.draw(surface)                            # the tiles are drawn with the door shut
    play(game, "idle*30")                             # 0.5 s: the door at 145 degrees
    renderer.draw(surface)
    camera = renderer.camera
    (hinge, *_), (angle, *_) = game.stage.living.poses(30 * FRAME_SECONDS)
    assert math.degrees(angle) == pytest.approx(144.7, abs=0.1)
    along = np.array([math.cos(angle), math.sin(angle)])
    assert _pixel(surface, camera, hinge + 2.0 * along) == palette.BODY
    # Within the door's bounding box but a metre off the door, and where it stood shut.
    assert _pixel(surface, camera, (13.0, 18.0)) == palette.BACKGROUND
    assert _pixel(surface, camera, (14.0, 18.5)) == palette.BACKGROUND
    assert _pixel(surface, camera, np.mean(living.CROWD_DOOR, axis=0)) == palette.CROWD_DOOR


def test_cli_plays_the_living_level(tmp_path, capsys):
    shot = tmp_path / "living.png"
    status, out, err = run(["play", "--living", "--crowd", "20", "--frames", "30", "--fps",
                            "0", "--screenshot", shot, "--size", "320x240"], capsys)
    assert status == 0, err
    assert "play the living level with a crowd of 20" in out
    assert pygame.image.load(str(shot)).get_size() == (320, 240)
    status, _, err = run(["play", "--living", "level.map"], capsys)
    assert status == 2 and "--living is a level of its own" in err
