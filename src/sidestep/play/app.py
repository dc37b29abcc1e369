"""The event loop: a window, keys from the keyboard or a script, a frame at a time.

:func:`play` opens the window (or, with ``SDL_VIDEODRIVER=dummy``, an
off-screen one), reads the keys held each frame, steps the
:class:`~sidestep.play.game.Game`, draws it, measures both, and saves the
last frame when asked. ``sidestep play`` calls it.
"""
import os
import time
from pathlib import Path

import pygame

from . import controls
from .draw import Renderer, frame_status
from .game import Game
from .timing import FrameTimes

#: The window's size in pixels when none is given.
WINDOW = (1024, 704)
#: Picture formats ``--screenshot`` writes (pygame's ``image.save``).
SCREENSHOT_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tga")
#: Zoom factor of one notch of the mouse wheel.
WHEEL_ZOOM = 1.1


def play(stage, *, mode="slide", crowd=0, seed=0, debug=False, zoom=1.0, size=WINDOW,
         frames=None, script=None, screenshot=None, fps=60):
    """Play ``stage`` in a window until it is closed (or Esc), or for ``frames`` frames.

    Parameters
    ----------
    stage : Stage
        What to play in (:mod:`sidestep.play.stage`).
    mode, crowd, seed, debug, zoom
        As :class:`~sidestep.play.game.Game` takes them.
    size : (int, int)
        The window's width and height in pixels.
    frames : int >= 1, optional
        Quit after this many frames.
    script : str, optional
        Key presses to play instead of (in addition to) the keyboard's, as
        :func:`~sidestep.play.controls.parse_script` reads them; the game
        quits when the script ends unless ``frames`` says otherwise.
    screenshot : str or path, optional
        Save the last frame there (.png, .jpg, .bmp or .tga).
    fps : int >= 0
        Frames per second at most; 0 runs as fast as it can.

    Returns
    -------
    Timing
        The run's frame times (:mod:`sidestep.play.timing`).
    """
    scripted = controls.parse_script(script) if script is not None else None
    if frames is not None and not (isinstance(frames, int) and frames >= 1):
        raise ValueError(f"frames must be a whole number >= 1, got {frames!r}")
    if not (isinstance(fps, int) and fps >= 0):
        raise ValueError(f"fps must be a whole number >= 0, got {fps!r}")
    if screenshot is not None:
        _check_picture(screenshot)
    width, height = size
    if not (isinstance(width, int) and isinstance(height, int) and width >= 64
            and height >= 64):
        raise ValueError(f"size must be two whole numbers >= 64, got {size!r}")
    game = Game(stage, mode=mode, crowd=crowd, seed=seed, debug=debug, zoom=zoom)
    try:
        pygame.display.init()
        pygame.font.init()
        window = pygame.display.set_mode(size)
    except pygame.error as exc:
        raise OSError(f"cannot open a window: {exc} (to run without one, set "
                      "SDL_VIDEODRIVER=dummy)") from None
    try:
        pygame.display.set_caption(f"sidestep play: {stage.name}")
        began = time.perf_counter()
        times = _loop(game, Renderer(game, size), window, frames, scripted, fps)
        seconds = time.perf_counter() - began
        if screenshot is not None:
            pygame.image.save(window, os.fspath(screenshot))
    finally:
        pygame.display.quit()
    return times.summary(seconds)


def _loop(game, renderer, window, frames, scripted, fps):
    """Run frames until the window closes, Esc, the script ends or ``frames`` are done."""
    polled = [(name, pygame.key.key_code(name)) for name in sorted(controls.KEYS)
              if name != "shift"]
    clock = pygame.time.Clock()
    times = FrameTimes()
    last = frames if frames is not None else (len(scripted) if scripted else None)
    while last is None or game.frames < last:
        tapped = set()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return times
            if event.type == pygame.KEYDOWN:
                if event.key == pygame.K_ESCAPE:
                    return times
                tapped.add(pygame.key.name(event.key))   # a tap shorter than a frame counts
            elif event.type == pygame.MOUSEWHEEL and event.y:
                game.zoom_by(WHEEL_ZOOM ** event.y)
        down = pygame.key.get_pressed()
        keys = {name for name, code in polled if down[code]} | tapped
        if scripted is not None and game.frames < len(scripted):
            keys |= scripted[game.frames]
        start = time.perf_counter()
        game.step(keys)
        stepped = time.perf_counter()
        update_ms, draw_ms = times.recent()
        renderer.draw(window, frame_status(update_ms, draw_ms,
                                           clock.get_fps() if fps else None))
        drawn = time.perf_counter()
        pygame.display.flip()
        times.add((stepped - start) * 1e3, (drawn - stepped) * 1e3)
        clock.tick(fps)
    return times


def _check_picture(path):
    """``screenshot``: a picture format pygame writes, in an existing folder."""
    path = Path(path)
    if path.suffix.lower() not in SCREENSHOT_SUFFIXES:
        raise ValueError(f"screenshot must be a {', '.join(SCREENSHOT_SUFFIXES)} file, "
                         f"got {path}")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise FileNotFoundError(f"cannot write {path}: no directory {folder}")
