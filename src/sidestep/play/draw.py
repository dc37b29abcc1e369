"""Drawing a frame: the level's tiles, its bodies, the crowd, the contacts, the character,
the text.

A living level's bodies (:mod:`sidestep.play.living`) are drawn every frame
where they are, from their posed outlines (``World2D.segments``: a turned
box is the polygon of its corners, not its bounding box), and its doors only
the crowd passes in the crowd's colour.

With the debug drawing on, the character's trail (its last :data:`TRAIL`
frames, as drawn) shows how it slid.

:class:`Renderer` reads a :class:`~sidestep.play.game.Game` and draws it on
any pygame ``Surface`` (the window, or an off-screen one in tests). The
crowd's agents are small discs blitted from a few pre-drawn sprites in one
``Surface.fblits`` call; agents outside the view are left out first.
"""
import math
from collections import deque

import numpy as np
import pygame

from . import palette
from .camera import Camera
from .tiles import LevelTiles, fill_capsules

#: Font size of the on-screen text (pixels).
FONT_SIZE = 18
#: A contact's normal is drawn this many pixels long at least (else
#: :data:`NORMAL_IN_RADII` of the character's radius), so it sticks out beyond the character.
NORMAL_PIXELS = 14
NORMAL_IN_RADII = 3.5
#: Radius of a contact point's dot, in pixels.
CONTACT_PIXELS = 3
#: Frames of the character's trail the debug drawing shows (3 s).
TRAIL = 180
#: Agents drawn at most this many pixels in radius from one sprite (bigger ones
#: are drawn as circles).
MAX_SPRITE_RADIUS = 40


class Renderer:
    """Draws a :class:`~sidestep.play.game.Game` through a camera that follows its character.

    Parameters
    ----------
    game : Game
    size : (int, int)
        The window's width and height in pixels.
    """

    def __init__(self, game, size):
        stage = game.stage
        self.game = game
        self.camera = Camera(size, stage.world.bounds, stage.radius, stage.y_down)
        living = stage.living
        self._living = () if living is None else (
            (living.crowd_doors, palette.CROWD_DOOR), (living.moving, palette.BODY))
        self.tiles = LevelTiles(stage.world, stage.radius,
                                np.concatenate([ids for ids, _ in self._living])
                                if self._living else ())
        self._font = pygame.font.Font(None, FONT_SIZE)
        self._sprites = {}
        self._trail = deque(maxlen=TRAIL)

    def draw(self, surface, status=""):
        """Draw the game's current frame on ``surface``.

        Parameters
        ----------
        surface : pygame.Surface
            At least the renderer's size.
        status : str
            A line of text to add at the top (frame times, fps).
        """
        game = self.game
        camera = self.camera
        camera.set_zoom(game.zoom)
        camera.follow(game.position)
        self.tiles.blit(surface, camera, game.debug)
        if self._living:
            self._draw_living(surface, game.debug)
        self._trail.append(game.position)
        if game.debug and len(self._trail) > 1:
            pygame.draw.lines(surface, palette.PLAYER_EDGE, False,
                              np.rint(camera.to_screen(np.array(self._trail))), 1)
        if game.wanderers is not None:
            self._draw_crowd(surface, game.wanderers.positions, game.wanderers.radii)
        # The normals under the character (they start on its edge and stick out beyond
        # it: its centre stays visible), the contact points over it.
        self._draw_contacts(surface, game.last.contacts, normals=True)
        self._draw_player(surface)
        self._draw_contacts(surface, game.last.contacts, normals=False)
        self._draw_text(surface, status)

    def _draw_living(self, surface, debug):
        """The living level's bodies where they are now, and its crowd's doors."""
        camera = self.camera
        geometry, owner = self.game.world.segments()
        ends = np.rint(camera.to_screen(geometry[:, 0:4].reshape(-1, 2))).reshape(-1, 4)
        scale = camera.scale
        for ids, colour in self._living:
            rows = np.flatnonzero(np.isin(owner, ids))
            a, b, thickness = ends[rows, 0:2], ends[rows, 2:4], geometry[rows, 4]
            if debug:
                fill_capsules(surface, a, b, (thickness + self.game.radius) * scale, palette.HALO)
            # An obstacle's rows are consecutive: a box's or a polygon's outline (thickness
            # 0, each edge's start the next corner) is filled; walls and circles are capsules.
            cuts = np.flatnonzero(np.diff(owner[rows])) + 1
            for k in np.split(np.arange(len(rows)), cuts):
                if len(k) >= 3 and not thickness[k].any():
                    pygame.draw.polygon(surface, colour, a[k])
                else:
                    fill_capsules(surface, a[k], b[k], thickness[k] * scale, colour)
            if debug:
                for p, q in zip(a, b):
                    pygame.draw.line(surface, palette.GEOMETRY, p, q, 1)

    def _draw_crowd(self, surface, positions, radii):
        camera = self.camera
        screen = camera.to_screen(positions)
        r = radii * camera.scale
        width, height = camera.size
        seen = ((screen[:, 0] > -r) & (screen[:, 0] < width + r)
                & (screen[:, 1] > -r) & (screen[:, 1] < height + r))
        rows = np.flatnonzero(seen)
        pixels = np.maximum(np.rint(r[rows]).astype(np.int64), 1)
        if len(rows) and pixels.max() > MAX_SPRITE_RADIUS:
            for k, p in zip(rows, pixels):
                pygame.draw.circle(surface, palette.AGENTS[k % len(palette.AGENTS)],
                                   np.rint(screen[k]), int(p))
            return
        corners = np.rint(screen[rows] - pixels[:, None]).astype(np.int64).tolist()
        sprite = self._sprite
        surface.fblits([(sprite(int(p), k % len(palette.AGENTS)), c)
                        for k, p, c in zip(rows.tolist(), pixels.tolist(), corners)])

    def _sprite(self, radius, shade):
        key = (radius, shade)
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
            pygame.draw.circle(sprite, palette.AGENTS[shade], (radius, radius), radius)
            if radius >= 4:
                pygame.draw.circle(sprite, palette.SOLID, (radius, radius), radius, 1)
            self._sprites[key] = sprite = sprite.convert_alpha() \
                if pygame.display.get_surface() is not None else sprite
        return sprite

    def _draw_player(self, surface):
        game = self.game
        centre = np.rint(self.camera.to_screen(game.position)[0])
        r = max(game.radius * self.camera.scale, 2.0)
        pygame.draw.circle(surface, palette.PLAYER, centre, r)
        pygame.draw.circle(surface, palette.PLAYER_EDGE, centre, r, max(1, int(r / 6)))
        if game.debug:
            pygame.draw.circle(surface, palette.GEOMETRY, centre, 2)

    def _draw_contacts(self, surface, contacts, normals):
        if not contacts:
            return
        camera = self.camera
        length = max(NORMAL_PIXELS, NORMAL_IN_RADII * self.game.radius * camera.scale)
        points = np.rint(camera.to_screen([c.point for c in contacts]))
        if not normals:
            for p in points:
                pygame.draw.circle(surface, palette.CONTACT, p, CONTACT_PIXELS)
            return
        # Screen y runs down: a world normal's y flips unless the level is drawn y-down.
        ends = np.rint(points + np.array([c.normal for c in contacts]) * [1.0, camera.flip]
                       * length)
        for p, q in zip(points, ends):
            pygame.draw.line(surface, palette.CONTACT, p, q, 2)

    def _draw_text(self, surface, status):
        game = self.game
        frame = game.last
        lines = [f"{game.stage.name}   mode {game.mode} (1 slide 2 push 3 block 4 ghost)   "
                 f"G debug {'on' if game.debug else 'off'}   +/- zoom {game.zoom:.2g}x",
                 f"{frame.stop}, {len(frame.contacts)} contact"
                 f"{'' if len(frame.contacts) == 1 else 's'}"
                 + (f"   crowd of {len(game.wanderers)}" if game.wanderers is not None else "")]
        if status:
            lines.insert(0, status)
        rendered = [self._font.render(line, True, palette.TEXT) for line in lines]
        width = max(r.get_width() for r in rendered) + 12
        height = sum(r.get_height() + 2 for r in rendered) + 8
        panel = pygame.Surface((width, height), pygame.SRCALPHA)
        panel.fill(palette.PANEL)
        surface.blit(panel, (0, 0))
        y = 5
        for r in rendered:
            surface.blit(r, (6, y))
            y += r.get_height() + 2


def frame_status(update_ms, draw_ms, fps=None):
    """The text line of frame times: ``"frame 2.1 ms (update 0.4, draw 1.7)  60 fps"``.

    >>> frame_status(0.42, 1.7, 59.6)
    'frame 2.1 ms (update 0.42, draw 1.70)   60 fps'
    >>> frame_status(0.42, 1.7)
    'frame 2.1 ms (update 0.42, draw 1.70)   472 fps possible'
    """
    total = update_ms + draw_ms
    if fps is None:
        rate = f"{1000.0 / total:.0f} fps possible" if total > 0 else ""
    else:
        rate = f"{fps:.0f} fps" if math.isfinite(fps) else ""
    return f"frame {total:.1f} ms (update {update_ms:.2f}, draw {draw_ms:.2f})   {rate}"
