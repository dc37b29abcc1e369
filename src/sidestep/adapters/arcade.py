"""sidestep for arcade games: ``PhysicsEngineSimple`` and ``PhysicsEnginePlatformer`` that never let the player sink into walls.

arcade's engines move the player along y, test for overlaps, back off in
steps, then along x with a bisection: a player faster than a wall is thick
passes through it (each test sees no overlap), and the step-back warps it on
platform edges (arcade issues #623, #89). These two engines keep arcade's
constructors, attributes and ``update()`` contract (the same arguments, the
list of sprites hit returned, ``can_jump``, ``jump``, multi-jump, gravity,
ladders, moving platforms) and move the player with sidestep's continuous
collide-and-slide instead; switching is one line::

    from sidestep.adapters.arcade import PhysicsEngineSimple   # was: from arcade import ...

What the player is, what the walls are
    The player is the axis-aligned box of its hit box (``sprite.left``,
    ``right``, ``bottom``, ``top``), moved as a rect
    (:mod:`sidestep.adapters.rects`). A wall or platform is its hit box: a box
    when the hit box is one (a tile, a ``SpriteSolidColor``), else the hit
    box polygon itself (a slope, a crate with cut corners), grown by the
    player's rect exactly. Positions stay arcade's: pixels, y up.
Walls that change
    The walls are rebuilt when a wall ``SpriteList`` changes (a sprite added,
    removed, moved, resized or turned), so keep walls still, as arcade asks.
Moving platforms
    Platforms move by arcade's rules (``change_x``/``change_y`` bounded by
    ``boundary_left``/``right``/``top``/``bottom``) or as the game moves
    and turns them (``position``, ``angle``: degrees, clockwise in arcade
    3). Each is a rigid body of the world (:meth:`sidestep.World2D.add_body`,
    its hit box where it was when the engine first saw it), posed each frame
    it moved: no rebuild of the walls' broadphase. A platform that turned is
    grown again for its new angle (the player's box does not turn with it),
    which rebuilds that broadphase once; one whose hit box or scale changed
    is built again. A player standing on one rides it (the point under it
    follows the platform, turns included; the player itself does not turn);
    one in its way is pushed along by the platform's motion at its centre
    and then out of the platform (the shortest way); both with that platform
    ignored, so walls stop the player. A platform that
    would squeeze the player into a wall (or another platform) does not move
    that frame: it goes back to where it was and tries again the next frame;
    the player never overlaps either.
Layers
    ``engine.set_layer(sprite_list, layer)`` puts a wall, platform list on
    a layer (0..31, 0 by default); the player collides with the layers of
    ``engine.mask`` (a keyword argument too; all by default), as
    :mod:`sidestep.layers` says: ``mask=sidestep.layers.bits(0, 2)``.
Walking (``PhysicsEnginePlatformer``)
    On a floor the player walks as arcade's ramp-up does: up by the frame's
    horizontal speed, across, then down onto the floor (so it climbs slopes
    up to 45 degrees and steps no higher than its speed, follows slopes down
    and stands still on them); in the air it moves along its velocity.
    Landing sets ``change_y`` to 0, a ceiling to ``min(0, ceiling's change_y)``.
Differences from arcade
    The player rests a thousandth of its smaller half size (0.016 px for a
    32 px player) off what it touches instead of on it, and passes a gap
    only if it is at least its width plus twice that;
    ``PhysicsEngineSimple.update`` leaves ``change_x``/``change_y`` as the
    game set them (arcade's zeroes ``change_y`` on a vertical hit, so a
    player holding "up" along a wall's end stops); a turning player
    (``change_angle``) whose new box would overlap something does not turn
    (arcade wiggles it free); a player whose hit box changes size (animation
    frames) has the world grown once per size (eight kept).
"""
import math

import arcade
import numpy as np

from .. import layers
from ..world import World2D
from .rects import RectWorld

#: How far (pixels) beyond the gap a slide leaves (``RectWorld.gap``) a floor may
#: lie below the player for it to count as standing on it.
STAND = 1e-4

#: Least upward part of a contact's unit normal for a floor (and of its downward
#: part for a ceiling): steeper than 60 degrees is a wall.
FLOOR = 0.5


def _points(sprite):
    """The sprite's hit box corners in the world, as a tuple of ``(x, y)`` tuples."""
    return tuple(tuple(p) for p in sprite.hit_box.get_adjusted_points())


def _shape(points):
    """A hit box as ``("box", mins, maxs)``, ``("polygon", vertices)`` or None (no area).

    A hit box that fills its bounding box (to rounding: a turned tile's corners
    are off by 1e-15) is that box, which contains it.
    """
    v = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(v) == 0:
        return None
    lo, hi = v.min(axis=0), v.max(axis=0)
    if not np.all(hi > lo):
        return None
    area = 0.5 * abs(float(np.dot(v[:, 0], np.roll(v[:, 1], -1))
                           - np.dot(v[:, 1], np.roll(v[:, 0], -1))))
    if len(v) < 3 or area >= (1.0 - 1e-9) * float(np.prod(hi - lo)):
        return ("box", lo, hi)
    return ("polygon", v)


def _player_rect(sprite):
    """The player's rect: ``(centre (2,), half size (2,), offset of the centre from
    the sprite's position)``, from its hit box bounds."""
    v = np.asarray(sprite.hit_box.get_adjusted_points(), dtype=np.float64)
    lo, hi = v.min(axis=0), v.max(axis=0)
    if not np.all(hi > lo):
        raise ValueError(f"player_sprite must have a hit box with an area, got corners "
                         f"{v.tolist()}")
    center = 0.5 * (lo + hi)
    half = (float(0.5 * (hi[0] - lo[0])), float(0.5 * (hi[1] - lo[1])))
    return center, half, center - np.asarray(sprite.position, dtype=np.float64)


def _list_key(sprites):
    """What a wall list holds and where: equal keys mean the same walls in the same places."""
    pos = getattr(sprites, "_sprite_pos_angle_data", None)
    size = getattr(sprites, "_sprite_size_data", None)
    if pos is not None and size is not None:
        # A SpriteList mirrors every sprite's position, angle and size in these
        # arrays (for the GPU): comparing their bytes sees any change, fast.
        return (id(sprites), tuple(map(id, sprites)), pos.tobytes(), size.tobytes())
    return (id(sprites), tuple((id(s), _points(s)) for s in sprites))


class _Platform:
    """A platform sprite as a body of the world: ``oid`` its obstacle (-1: no area),
    ``body`` its body, ``origin`` and ``angle0`` its position and angle when the
    body was made (its frame), ``last`` the ``(position, angle)`` it was posed at."""

    __slots__ = ("sprite", "oid", "body", "origin", "angle0", "last")

    def __init__(self, sprite, oid, body):
        self.sprite, self.oid, self.body = sprite, oid, body
        self.origin = tuple(map(float, sprite.position))
        self.angle0 = float(sprite.angle)
        self.last = (self.origin, self.angle0)

    def pose(self, place):
        """The body's pose ``(position, angle)`` for the sprite at ``place``, a
        ``(position, angle)``: the hit box turned about the sprite's position."""
        (x, y), degrees = place
        # arcade 3 turns clockwise: a counter-clockwise angle of -degrees. The frame's
        # point q goes to R(angle) (q - origin) + position.
        angle = -math.radians(degrees - self.angle0)
        c, s = math.cos(angle), math.sin(angle)
        ox, oy = self.origin
        return (x - (c * ox - s * oy), y - (s * ox + c * oy)), angle

    @staticmethod
    def carry(point, before, after):
        """Where ``point`` goes when the platform goes from place ``before`` to ``after``."""
        (bx, by), b = before
        (ax, ay), a = after
        angle = -math.radians(a - b)
        c, s = math.cos(angle), math.sin(angle)
        dx, dy = float(point[0]) - bx, float(point[1]) - by
        return np.array([c * dx - s * dy + ax, s * dx + c * dy + ay])


def _place(sprite):
    """A sprite's place: ``((x, y), angle)``."""
    x, y = sprite.position
    return (float(x), float(y)), float(sprite.angle)


def _rigid(sprite):
    """What must stay the same for a platform to stay the same rigid body."""
    box = sprite.hit_box
    return id(sprite), tuple(box.points), tuple(box.scale) if hasattr(box, "scale") else None


class _Scene:
    """An engine's walls and platforms as a :class:`RectWorld`, kept in step with the sprites."""

    def __init__(self):
        self.rects = None
        self._key = None
        self._sprite = {}          # obstacle id -> sprite
        self._platforms = []       # _Platform

    def sync(self, player, walls, platforms=(), layer_of=None):
        """Rebuild the world if a wall list, a list's layer or a platform's list,
        hit box or scale changed.

        The player is left out, should it be in a list too (arcade never
        collides a sprite with itself). ``layer_of`` maps ``id(list)`` to its layer.
        """
        layer_of = layer_of or {}
        key = (id(player), tuple((_list_key(w), layer_of.get(id(w), 0)) for w in walls),
               tuple((id(p), layer_of.get(id(p), 0), tuple(map(_rigid, p))) for p in platforms))
        if key != self._key:
            self._build(player, walls, platforms, layer_of)
            self._key = key

    def _build(self, player, walls, platforms, layer_of):
        world = World2D()
        self._sprite = {}
        for sprites in walls:
            boxes = []
            layer = layer_of.get(id(sprites), 0)
            for s in sprites:
                if s is player:
                    continue
                shape = _shape(_points(s))
                if shape is None:
                    continue
                if shape[0] == "box":
                    boxes.append((s, shape[1], shape[2]))
                else:
                    self._sprite[self._add_polygon(world, shape[1], layer)] = s
            if boxes:
                ids = world.add_boxes(np.array([b[1] for b in boxes]),
                                      np.array([b[2] for b in boxes]), layer=layer)
                self._sprite.update(zip(ids.tolist(), [b[0] for b in boxes]))
        self.rects = RectWorld(world)
        self._platforms = []
        for sprites in platforms:
            layer = layer_of.get(id(sprites), 0)
            for s in sprites:
                if s is not player:
                    self._platforms.append(self._add_platform(s, layer))

    @staticmethod
    def _add_polygon(target, vertices, layer, moving=False):
        """Add a hit box polygon; one that is not simple (it crosses itself) as its box."""
        extra = {"moving": True} if moving else {}
        try:
            return target.add_polygon(vertices, layer=layer, **extra)
        except ValueError:
            lo, hi = vertices.min(axis=0), vertices.max(axis=0)
            return int(target.add_boxes([lo], [hi], layer=layer, **extra)[0])

    def _add_platform(self, sprite, layer):
        """A platform where it is now, as a body of its own."""
        shape = _shape(_points(sprite))
        if shape is None:
            return _Platform(sprite, -1, -1)
        if shape[0] == "box":
            oid = int(self.rects.add_boxes([shape[1]], [shape[2]], moving=True,
                                           layer=layer)[0])
        else:
            oid = self._add_polygon(self.rects, shape[1], layer, moving=True)
        self._sprite[oid] = sprite
        return _Platform(sprite, oid, self.rects.add_body([oid]))

    def sprites(self, ids):
        """The sprites of obstacle ids, each once, in order."""
        out = []
        for i in ids:
            s = self._sprite.get(int(i))
            if s is not None and s not in out:
                out.append(s)
        return out

    def follow_platforms(self, center, half, carrier, mask):
        """Put the platforms where their sprites are now; the player rides or is pushed.

        ``carrier`` is the platform sprite the player stood on before they
        moved (or None). Every platform that moved is posed (a pose each,
        no rebuild). Returns the player's centre and the ids it touched.
        """
        moved = []
        for p in self._platforms:
            now = _place(p.sprite)
            if now != p.last and p.body >= 0:
                moved.append((p, p.last, now))
            p.last = now
        if not moved:
            return center, []
        poses = [p.pose(now) for p, _, now in moved]
        self.rects.set_poses([p.body for p, _, _ in moved], [q[0] for q in poses],
                             [q[1] for q in poses])
        rects, touched = self.rects, []
        by_id = {p.oid: (p, before, now) for p, before, now in moved}
        over = [o for o in rects.overlapping(center, half, mask=mask).tolist() if o in by_id]
        for p, before, now in moved:
            if p.sprite is carrier:
                # Ride it: the point under the player follows the platform, with it
                # (and those it moved into) ignored: walls stop the player.
                foot = np.array([center[0], center[1] - half[1]])
                step = p.carry(foot, before, now) - foot
                m = rects.move(center, half, step, mask=mask, ignore=[p.oid] + over)
                center = m.center
                touched += m.contacts
        over = [o for o in rects.overlapping(center, half, mask=mask).tolist() if o in by_id]
        for oid in over:
            p, before, now = by_id[oid]
            # In the player's way: pushed along by the platform's motion at its
            # centre, then out of it (a turn moves the platform's parts unevenly).
            step = p.carry(center, before, now) - center
            step = step + rects.escape(center + step, half, [oid])
            m = rects.move(center, half, step, mask=mask, ignore=[oid])
            if oid in rects.overlapping(m.center, half, mask=mask).tolist():
                # Squeezed against something: the platform waits where it was.
                (x, y), angle = before
                p.sprite.position = (x, y)
                if p.sprite.angle != angle:
                    p.sprite.angle = angle
                p.last = before
                position, turn = p.pose(before)
                rects.set_pose(p.body, position, turn)
            else:
                center = m.center
                touched += m.contacts
        return center, touched


def _step_platform(platform):
    """Move a platform one frame as arcade's engine does: bounce at its boundaries."""
    if platform.boundary_left is not None and platform.left <= platform.boundary_left:
        platform.left = platform.boundary_left
        if platform.change_x < 0:
            platform.change_x *= -1
    if platform.boundary_right is not None and platform.right >= platform.boundary_right:
        platform.right = platform.boundary_right
        if platform.change_x > 0:
            platform.change_x *= -1
    platform.center_x += platform.change_x
    if platform.boundary_top is not None and platform.top >= platform.boundary_top:
        platform.top = platform.boundary_top
        if platform.change_y > 0:
            platform.change_y *= -1
    if platform.boundary_bottom is not None and platform.bottom <= platform.boundary_bottom:
        platform.bottom = platform.boundary_bottom
        if platform.change_y < 0:
            platform.change_y *= -1
    platform.center_y += platform.change_y


def _turn(scene, player, mask):
    """Apply ``change_angle`` unless the turned player's box would overlap something."""
    if not player.change_angle:
        return []
    player.angle += player.change_angle
    center, half, _ = _player_rect(player)
    hit = scene.rects.overlapping(center, half, mask=mask)
    if len(hit):
        player.angle -= player.change_angle
    return scene.sprites(hit)


class _Layered:
    """Layers for an engine's sprite lists and the player's mask (see the module notes)."""

    def _layers_init(self, mask):
        self.mask = layers.mask(mask)
        self._layer_of = {}           # id(list) -> layer
        self._layered = {}            # id(list) -> the list (kept, so its id stays its own)

    def set_layer(self, sprites, layer):
        """Put a wall or platform ``SpriteList`` on ``layer`` (0..31; lists not set: 0).

        The player collides with it only if :attr:`mask` has that layer's bit.
        """
        self._layer_of[id(sprites)] = layers.layer(layer)
        self._layered[id(sprites)] = sprites

    def layer(self, sprites):
        """The layer of a wall or platform ``SpriteList``."""
        return self._layer_of.get(id(sprites), 0)


class PhysicsEngineSimple(_Layered, arcade.PhysicsEngineSimple):
    """arcade's top-down engine, moving the player with sidestep's collide-and-slide.

    Same arguments and attributes as :class:`arcade.PhysicsEngineSimple`;
    :meth:`update` moves :attr:`player_sprite` by its ``change_x``,
    ``change_y`` and returns the sprites it touched. The player slides along
    walls, stops in corners and never ends overlapping a wall, at any speed.

    Examples
    --------
    >>> import arcade
    >>> from sidestep.adapters.arcade import PhysicsEngineSimple
    >>> player = arcade.SpriteSolidColor(32, 32, center_x=0, center_y=0)
    >>> walls = arcade.SpriteList()
    >>> walls.append(arcade.SpriteSolidColor(4, 400, center_x=100, center_y=0))
    >>> engine = PhysicsEngineSimple(player, walls)
    >>> player.change_x = 500                     # 500 px in one frame at a wall 4 px thick
    >>> hit = engine.update()
    >>> hit == [walls[0]], round(player.right, 1)   # stopped at its face, not through it
    (True, 98.0)

    Layers: glass on layer 1 stops the player only if its mask has layer 1.

    >>> glass = arcade.SpriteList()
    >>> glass.append(arcade.SpriteSolidColor(4, 400, center_x=150, center_y=0))
    >>> engine = PhysicsEngineSimple(player, [walls, glass], mask=0b01)   # layer 0 only
    >>> engine.set_layer(glass, 1)
    >>> player.position = (200, 0)
    >>> player.change_x = -100
    >>> hit = engine.update()
    >>> hit == [walls[0]], round(player.left, 1)    # through the glass, stopped by the wall
    (True, 102.0)
    """

    def __init__(self, player_sprite, walls=None, *, mask=layers.ALL):
        super().__init__(player_sprite, walls)
        self._layers_init(mask)
        self._scene = _Scene()

    def update(self):
        """Move :attr:`player_sprite` by its velocity; returns the sprites it touched."""
        scene = self._scene
        scene.sync(self.player_sprite, self.walls, (), self._layer_of)
        player = self.player_sprite
        hits = _turn(scene, player, self.mask)
        center, half, offset = _player_rect(player)
        m = scene.rects.move(center, half, (float(player.change_x), float(player.change_y)),
                             mask=self.mask)
        player.position = tuple((m.center - offset).tolist())
        return _merge(hits, scene.sprites(m.contacts))


class PhysicsEnginePlatformer(_Layered, arcade.PhysicsEnginePlatformer):
    """arcade's platformer engine (gravity, jumps, ladders, moving platforms) on sidestep.

    Same arguments and attributes as :class:`arcade.PhysicsEnginePlatformer`
    (``gravity_constant``, ``jump``, ``can_jump``, ``enable_multi_jump``,
    ``increment_jump_counter``, ``disable_multi_jump``, ``is_on_ladder``,
    ``walls``, ``platforms``, ``ladders``), and ``mask`` (the layers the
    player collides with) with :meth:`set_layer`. See the module notes for
    walking, platforms, layers and what differs.

    Examples
    --------
    >>> import arcade
    >>> from sidestep.adapters.arcade import PhysicsEnginePlatformer
    >>> player = arcade.SpriteSolidColor(32, 32, center_x=0, center_y=100)
    >>> floor = arcade.SpriteList()
    >>> floor.append(arcade.SpriteSolidColor(800, 20, center_x=0, center_y=0))
    >>> engine = PhysicsEnginePlatformer(player, walls=floor, gravity_constant=1.0)
    >>> for frame in range(30):
    ...     hit = engine.update()
    >>> round(player.bottom, 1), engine.can_jump(), player.change_y   # landed on the floor
    (10.0, True, 0)
    >>> engine.jump(12)
    >>> hit = engine.update()
    >>> player.bottom > 10.0, engine.can_jump()                      # in the air
    (True, False)
    """

    def __init__(self, player_sprite, platforms=None, gravity_constant=0.5, ladders=None,
                 walls=None, *, mask=layers.ALL):
        super().__init__(player_sprite, platforms=platforms, gravity_constant=gravity_constant,
                         ladders=ladders, walls=walls)
        self._layers_init(mask)
        self._scene = _Scene()

    def _below(self, center, half, distance):
        """What lies within ``distance`` below the player's rect: a :class:`Cast`."""
        return self._scene.rects.cast(center, half, (0.0, -float(distance)), mask=self.mask)

    def can_jump(self, y_distance=5):
        """Whether the player may jump: a wall or platform within ``y_distance`` below it,
        or a jump left of a multi-jump. Touching ground resets the jump count."""
        self._scene.sync(self.player_sprite, self.walls, self.platforms, self._layer_of)
        center, half, _ = _player_rect(self.player_sprite)
        grounded = self._below(center, half, y_distance).fraction < 1.0
        if grounded:
            self.jumps_since_ground = 0
        return grounded or (self.allow_multi_jump and self.jumps_since_ground < self.allowed_jumps)

    def update(self):
        """Gravity, platforms, then the player's move; returns the sprites it touched
        (walls and platforms, not ladders)."""
        player = self.player_sprite
        scene = self._scene
        if not self.is_on_ladder():
            player.change_y -= self.gravity_constant
        scene.sync(player, self.walls, self.platforms, self._layer_of)
        mask = self.mask
        hits = _turn(scene, player, mask)
        center, half, offset = _player_rect(player)
        rects = scene.rects

        # 1. The platform under the player, before the platforms move.
        stand = rects.gap(half) + STAND
        under = self._below(center, half, stand)
        found = scene.sprites([under.obstacle]) \
            if under.fraction < 1.0 and under.normal[1] >= FLOOR else []
        carrier = found[0] if found else None
        # 2. Platforms move; the player rides or is pushed.
        for sprites in self.platforms:
            for platform in sprites:
                if platform.change_x != 0 or platform.change_y != 0:
                    _step_platform(platform)
        center, touched = scene.follow_platforms(center, half, carrier, mask)
        hits = _merge(hits, scene.sprites(touched))

        # 3. The player's own move.
        dx, dy = float(player.change_x), float(player.change_y)
        floor = self._below(center, half, stand)
        if dy <= 0.0 and floor.fraction < 1.0 and floor.normal[1] >= FLOOR:
            # Walking, as arcade's ramp-up: up by the speed, across, down onto the floor.
            climb = abs(dx)
            up = rects.move(center, half, (0.0, climb), mask=mask)
            across = rects.move(up.center, half, (dx, 0.0), mask=mask)
            rise = float(up.center[1] - center[1])
            reach = rise + climb + stand
            down = self._below(across.center, half, reach)
            if down.fraction < 1.0 and down.normal[1] >= FLOOR:
                land = rects.move(across.center, half, (0.0, -reach * down.fraction),
                                  mask=mask)
            else:      # off a ledge: back to the height it walked at; it falls from there
                land = rects.move(across.center, half, (0.0, -rise), mask=mask)
            moves = (up, across, land)
            player.change_y = 0
        else:
            m = rects.move(center, half, (dx, dy), mask=mask)
            moves = (m,)
            for oid, normal in zip(m.contacts, m.normals):
                if dy < 0.0 and normal[1] >= FLOOR:
                    player.change_y = 0                        # landed
                elif dy > 0.0 and normal[1] <= -FLOOR:        # a ceiling
                    ceiling = scene.sprites([oid])
                    player.change_y = min(0.0, getattr(ceiling[0], "change_y", 0.0)
                                          if ceiling else 0.0)
        for m in moves:
            hits = _merge(hits, scene.sprites(m.contacts))
        player.position = tuple((moves[-1].center - offset).tolist())
        return hits


def _merge(first, more):
    """``first`` then the sprites of ``more`` not in it."""
    out = list(first)
    for s in more:
        if s not in out:
            out.append(s)
    return out
