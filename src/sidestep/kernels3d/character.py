"""One frame of an upright capsule character: walk, climb steps, stay on floors, fall.

Built on the 3D collide-and-slide (:func:`~sidestep.kernels3d.moves.slide`),
its first-contact sweep (:func:`~sidestep.kernels3d.moves._sweep`, a *cast*
here) and the per-primitive contacts of
:func:`~sidestep.kernels3d.world.penetrations`. A frame (:func:`update_character`):

1. **Carry**: the displacement of the obstacle the character stood on (a
   platform) or of obstacles that moved into it (a door) since the last
   frame, slid in a world without that obstacle, so a platform carries the
   character and a pusher never pushes it through a wall: if a wall stops
   the carry, or the carry leaves it inside one of those obstacles (two
   closing on it from two sides), the character stays squeezed
   (``STOP_SQUEEZED``).
2. **Walk**: on a floor the wish follows the floor's plane at the wish's
   speed; in the air gravity adds to the speed along ``up``. The move is a
   slide. A walk on a floor that ends higher than the floor's plane leads
   went up a slope too steep to stand on; it is walked again with that
   slope taken as an upright wall, so steep slopes are never climbed.
3. **Step**: a walk on a floor that a wall cut short is tried again as up
   by ``step``, along the wish, down onto a floor; kept if that floor
   supports the character and it got farther.
4. **Contacts**: the surfaces within ``reach`` of the capsule, per
   primitive: a *floor* supports it (its normal within ``max_slope`` of
   ``up``, or the edge of a face that is, below the bottom sphere's
   centre: the nose of a step), a *ceiling* faces down as steeply, the rest
   are *walls* (steep slopes included).
5. **Snap**: a character on a floor last frame, not jumping, that no floor
   touches now is cast down by up to ``snap``; it lands there if that is a
   floor (down stairs and slopes it stays on the floor; off a cliff it falls).

Everything is in the character's state row ``body`` (``B_*`` slots): the
kernel reads the feet, the vertical speed, the floor and the settings, and
writes the frame's outcome back. Units are the world's; angles as cosines.
"""
import math

import numpy as np
from numba import njit, types
from numba.experimental import structref

from ..kernels.borrow import borrow
from ..kernels.direct import registered
from ..kernels.row_queue import next_rows
from .carry import push_near, ride_row
from .moves import STOP_BLOCKED, STOP_DONE, STOP_SLID, STOP_STUCK, _sweep, recover, slide
from .world import (F_REMOVED, MAX_PLANES, S_NORMALS, S_OWNERS, S_PARTS, S_POINTS, S_PRIMS,
                    S_SEPARATIONS, SCRATCH_FLOATS, SCRATCH_INTS, Packed3D, borrowed,
                    penetrations, surface_normal_prim)

# The state row of one character (float64). Feet, velocity really moved
# with, speed along up (gravity and jumps), then the last frame's outcome.
B_FEET = 0                  # (3,)
B_VELOCITY = 3              # (3,)
B_VSPEED = 6
B_ON_FLOOR = 7
B_FLOOR_NORMAL = 8          # (3,)
B_FLOOR_OBSTACLE = 11
B_ON_WALL = 12
B_ON_CEILING = 13
B_STOP = 14
B_CONTACTS = 15
B_STEPPED = 16              # height climbed by a step this frame
B_SNAPPED = 17              # height dropped by the snap this frame
# Settings.
B_RADIUS = 18
B_HEIGHT = 19
B_COS_SLOPE = 20            # cos(max_slope)
B_STEP = 21
B_SNAP = 22
B_GRAVITY = 23
B_UP = 24                   # axis 0, 1, 2
B_SKIN = 25
B_MARGIN = 26
B_SLACK = 27
B_MIN_MOTION = 28
B_MAX_ITERATIONS = 29
B_REACH = 30                # contacts within this of the capsule count
# Inputs of the coming frame.
B_CARRY = 31                # (3,) displacement of the carrying or pushing obstacle
B_JUMP = 34                 # speed of a jump asked for (NaN: none)
# Kept between frames.
B_FACING = 35               # (3,) the level direction it faces (a body it rides turns it)
BODY_SIZE = 38

# Why a frame ended (beyond the slide's own STOP_* codes).
STOP_STEPPED = 10           # climbed a step
STOP_LANDED = 11            # came down onto a floor from the air
STOP_FELL = 12              # in the air at the end of the frame
STOP_SQUEEZED = 13          # a moving obstacle pushed it against a wall

# Contact kinds (column 8 of a contact row).
KIND_FLOOR = 0
KIND_WALL = 1
KIND_CEILING = 2

#: Rows of the contact buffer: [obstacle, part, point (3), normal (3), kind, separation].
CONTACT_FIELDS = 10


@njit(cache=True)
def _axis(up):
    ux = 1.0 if up == 0 else 0.0
    uy = 1.0 if up == 1 else 0.0
    uz = 1.0 if up == 2 else 0.0
    return ux, uy, uz


@njit(cache=True)
def _cast(world, cx, cy, cz, half, up, radius, skin, dx, dy, dz, wi, cand):
    """How far (0..1 of ``d``) the capsule moves straight by ``d`` before touching, ``skin`` out."""
    world = borrowed(world)
    f, hit, _, _, _ = _sweep(world, cx, cy, cz, half, up, dx, dy, dz, radius, skin, 0, -1, wi,
                             cand)
    if hit < 0:
        return 1.0, False
    return max(0.0, min(f, 1.0)), True


@njit(cache=True)
def _slide(world, body, cx, cy, cz, dx, dy, dz, half, up, wf, wi, cand, scratch):
    world = borrowed(world)
    return slide(world, cx, cy, cz, dx, dy, dz, half, up, body[B_RADIUS], body[B_SKIN],
                 body[B_MARGIN], body[B_SLACK], body[B_MIN_MOTION],
                 int(body[B_MAX_ITERATIONS]), wf, wi, cand, scratch)


@njit(cache=True)
def _kind(world, body, t, bottom, base, up, wf, wi):
    """Contact row ``t`` of :func:`~.world.penetrations`: ``(kind, support, fx, fy, fz)``.

    ``support`` is how upright the contact stands under the character (the
    larger of its normal's and, for a point under the bottom sphere's
    centre ``bottom`` and no higher than a step over ``base``, its face's
    normal's part along up); ``f`` the normal that says so.
    """
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    nx = wf[S_NORMALS + 3 * t]
    ny = wf[S_NORMALS + 3 * t + 1]
    nz = wf[S_NORMALS + 3 * t + 2]
    qx = wf[S_POINTS + 3 * t]
    qy = wf[S_POINTS + 3 * t + 1]
    qz = wf[S_POINTS + 3 * t + 2]
    lift = nx * ux + ny * uy + nz * uz
    fx, fy, fz = nx, ny, nz
    if lift > 0.0 and qx * ux + qy * uy + qz * uz < bottom and \
            qx * ux + qy * uy + qz * uz <= base + body[B_STEP] + body[B_SKIN]:
        # Under the character, on a face or its edge: the face says whether it is a floor.
        fx, fy, fz = surface_normal_prim(world, wi[S_PRIMS + t], qx, qy, qz, nx, ny, nz, up)
    support = max(lift, fx * ux + fy * uy + fz * uz)
    if support >= body[B_COS_SLOPE]:
        return KIND_FLOOR, support, fx, fy, fz
    if lift <= -body[B_COS_SLOPE]:
        return KIND_CEILING, support, fx, fy, fz
    return KIND_WALL, support, fx, fy, fz


@njit(cache=True)
def _touching(world, body, cx, cy, cz, half, up, wf, wi, cand):
    """:func:`~.world.penetrations` of the capsule centred at ``c`` within its reach, per
    primitive; returns ``(count, bottom)``, ``bottom`` the height of its bottom sphere's centre."""
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    n = penetrations(world, cx, cy, cz, half, up, body[B_RADIUS], body[B_REACH], True, wf, wi,
                     cand)
    return n, (cx * ux + cy * uy + cz * uz) - half


@njit(cache=True)
def classify(world, body, cx, cy, cz, half, up, base, wf, wi, cand, contacts):
    """The surfaces touching the capsule centred at ``c``, by kind.

    Writes contact rows ``[obstacle, part, point (3), normal (3), kind,
    separation]`` (one per obstacle and kind: the nearest) to ``contacts``
    and returns ``(n_rows, floor_row, on_wall, on_ceiling, fx, fy, fz)``:
    ``floor_row`` is -1 off the floor, else the row of the floor that
    supports the character best (the most upright), and ``f`` that floor's
    own normal (a step's top where the contact is its nose). An edge higher
    than ``step`` over ``base`` (the height of the feet the frame started
    with) is a wall, not a step's nose. The kinds are told per primitive
    (:func:`_kind`): a mesh's triangles are each a floor, a wall or a
    ceiling, whichever of them is nearest.
    """
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    n, bottom = _touching(world, body, cx, cy, cz, half, up, wf, wi, cand)
    rows = 0
    best = -2.0
    floor_owner = -1
    on_wall = False
    on_ceiling = False
    bx = by = bz = 0.0
    for t in range(n):
        kind, support, fx, fy, fz = _kind(world, body, t, bottom, base, up, wf, wi)
        nx = wf[S_NORMALS + 3 * t]
        ny = wf[S_NORMALS + 3 * t + 1]
        nz = wf[S_NORMALS + 3 * t + 2]
        lift = nx * ux + ny * uy + nz * uz
        if kind == KIND_CEILING:
            on_ceiling = True
        elif kind == KIND_WALL:
            on_wall = True
        owner = wi[S_OWNERS + t]
        # The floor is the primitive that supports best, of every one
        # touching (not only the nearest of its obstacle: two triangles
        # meeting under the character are as near to a rounding step).
        if kind == KIND_FLOOR and support > best:
            best = support
            floor_owner = owner
            if lift >= fx * ux + fy * uy + fz * uz:
                bx, by, bz = nx, ny, nz
            else:
                bx, by, bz = fx, fy, fz
        row = -1
        for k in range(rows):
            if contacts[k, 0] == owner and contacts[k, 8] == kind:
                row = k
                break
        if row < 0:
            if rows == contacts.shape[0]:
                continue
            row = rows
            rows += 1
        elif not wf[S_SEPARATIONS + t] < contacts[row, 9]:
            continue
        contacts[row, 0] = owner
        contacts[row, 1] = wi[S_PARTS + t]
        contacts[row, 2] = wf[S_POINTS + 3 * t]
        contacts[row, 3] = wf[S_POINTS + 3 * t + 1]
        contacts[row, 4] = wf[S_POINTS + 3 * t + 2]
        contacts[row, 5] = nx
        contacts[row, 6] = ny
        contacts[row, 7] = nz
        contacts[row, 8] = kind
        contacts[row, 9] = wf[S_SEPARATIONS + t]
    floor_row = -1
    for k in range(rows):
        if contacts[k, 0] == floor_owner and contacts[k, 8] == KIND_FLOOR:
            floor_row = k
    return rows, floor_row, on_wall, on_ceiling, bx, by, bz


@njit(cache=True)
def _supported(world, body, cx, cy, cz, half, up, base, wf, wi, cand, contacts):
    world = borrowed(world)
    _, floor_row, _, _, _, _, _ = classify(world, body, cx, cy, cz, half, up, base, wf, wi,
                                           cand, contacts)
    return floor_row >= 0


@njit(cache=True)
def _along_floor(dx, dy, dz, fx, fy, fz, ux, uy, uz):
    """The horizontal ``d`` turned into the floor's plane (normal ``f``), at the same length."""
    length = math.sqrt(dx * dx + dy * dy + dz * dz)
    lift = fx * ux + fy * uy + fz * uz
    if length == 0.0 or lift <= 0.0:
        return dx, dy, dz
    t = -(dx * fx + dy * fy + dz * fz) / lift
    ex = dx + t * ux
    ey = dy + t * uy
    ez = dz + t * uz
    k = length / math.sqrt(ex * ex + ey * ey + ez * ez)
    return ex * k, ey * k, ez * k


@njit(cache=True)
def _flatten_steep(world, body, cx, cy, cz, half, up, base, hx, hy, hz, wf, wi, cand):
    """The horizontal wish ``h`` less its parts into the walls and steep slopes touching ``c``.

    Each steep surface counts as the upright wall through it, so a walk
    along it stays level instead of climbing it. Every primitive touching
    counts (a mesh's steep triangle beside an upright one alike). Returns the
    new ``h`` and whether any part was taken away.
    """
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    n, bottom = _touching(world, body, cx, cy, cz, half, up, wf, wi, cand)
    changed = False
    for t in range(n):
        if _kind(world, body, t, bottom, base, up, wf, wi)[0] != KIND_WALL:
            continue
        nx = wf[S_NORMALS + 3 * t]
        ny = wf[S_NORMALS + 3 * t + 1]
        nz = wf[S_NORMALS + 3 * t + 2]
        lift = nx * ux + ny * uy + nz * uz
        if lift <= 0.0:
            continue
        wx = nx - lift * ux
        wy = ny - lift * uy
        wz = nz - lift * uz
        w = math.sqrt(wx * wx + wy * wy + wz * wz)
        if w == 0.0:
            continue
        wx /= w
        wy /= w
        wz /= w
        into = hx * wx + hy * wy + hz * wz
        # A part into the wall no longer than min_motion is none: a wish
        # flattened once is flattened, however rounding signs the rest.
        if into < -body[B_MIN_MOTION]:
            hx -= into * wx
            hy -= into * wy
            hz -= into * wz
            changed = True
    return hx, hy, hz, changed


@njit(cache=True)
def _steep_touching(world, body, cx, cy, cz, half, up, base, wf, wi, cand):
    """Whether a wall that faces up at all (a slope too steep to stand on) touches ``c``.

    Any primitive: not only the nearest of its obstacle (a mesh's steep
    triangle a rounding step farther than an upright one beside it).
    """
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    n, bottom = _touching(world, body, cx, cy, cz, half, up, wf, wi, cand)
    for t in range(n):
        if _kind(world, body, t, bottom, base, up, wf, wi)[0] == KIND_WALL and \
                wf[S_NORMALS + 3 * t] * ux + wf[S_NORMALS + 3 * t + 1] * uy + \
                wf[S_NORMALS + 3 * t + 2] * uz > 0.0:
            return True
    return False


@njit(cache=True)
def _steppable(world, body, cx, cy, cz, half, up, base, walk, wf, wi, cand):
    """Whether a walk of length ``walk`` cut short at ``c`` may have met a step: a
    surface within ``walk`` and two skins of the capsule there (whatever the walk
    touched: a round edge it slid up along is left below it) at a point higher than
    its feet (``base``, along up) by more than the skin but by no more than ``step``
    and two skins (a step's nose or side).

    A step is kept only if the character lands on a floor at most ``step`` above
    its feet. A walk stopped where nothing touches it that low (the side of a wall
    or a door: a character wider than its step touches an upright wall above its
    step height) is not tried as a step (a cast up, a raised slide and a cast down:
    a third of a blocked walker's frame). Everything lower counts, the floor it
    walks on included: a walk up a slope cut short by a wall is kept as a step onto
    the slope farther on (a level walk from higher up gets farther), as before.
    """
    world = borrowed(world)
    ux, uy, uz = _axis(up)
    skin = body[B_SKIN]
    n = penetrations(world, cx, cy, cz, half, up, body[B_RADIUS],
                     max(body[B_REACH], walk + 2.0 * skin), True, wf, wi, cand)
    if n == MAX_PLANES:
        return True         # maybe more than the buffer holds: tried as before
    low = base + skin
    top = base + body[B_STEP] + 2.0 * skin
    for t in range(n):
        h = wf[S_POINTS + 3 * t] * ux + wf[S_POINTS + 3 * t + 1] * uy + \
            wf[S_POINTS + 3 * t + 2] * uz
        if low < h <= top:
            return True
    return False


@njit(cache=True)
def _pinched(world, carry_alive, body, cx, cy, cz, half, up, wf, wi, cand):
    """Whether the capsule centred at ``c``, carried there past the obstacles
    ``carry_alive`` leaves out (a platform, the bodies that pushed it), overlaps one of
    them: two bodies closing on it from two sides each pushed it out of itself, and the
    pushes added up leave it inside the other. Such a character is squeezed, as one a
    body pushed against a wall."""
    world = borrowed(world)
    n = penetrations(world, cx, cy, cz, half, up, body[B_RADIUS], 0.0, True, wf, wi, cand)
    for t in range(n):
        # Deeper than the skin: a rider carried with its platform stays within a rounding
        # of it (the walk's slide pushes it out of that).
        if wf[S_SEPARATIONS + t] < -body[B_SKIN] and carry_alive[wi[S_OWNERS + t]] == 0:
            return True
    return False


@njit(cache=True)
def _progress(x0, y0, z0, x1, y1, z1, hx, hy, hz):
    """How far ``p1 - p0`` goes along the unit direction ``h``."""
    return (x1 - x0) * hx + (y1 - y0) * hy + (z1 - z0) * hz


@njit(cache=True)
def update_character(world, carry_alive, carry_flags, body, wish_x, wish_y, wish_z, dt, wf,
                     wi, contacts):
    """One frame of the character whose state row is ``body`` (see the module).

    ``wish`` is the velocity asked for (m/s; its part along ``up`` adds to the
    vertical speed this frame, as a jetpack would), ``dt`` the frame's
    length (s). ``carry_alive`` and ``carry_flags`` are ``world.alive`` and
    ``world.flags`` of the world without the obstacles whose displacement
    ``body[B_CARRY:B_CARRY + 3]`` carries the character (``world``'s own
    when nothing carries it: one packed world crosses from Python, not two).
    Writes the outcome to ``body`` and the contacts at the end to
    ``contacts (k, CONTACT_FIELDS)``; returns the stop code (``body[B_STOP]``).
    """
    world = borrowed(world)
    carry_world = Packed3D(*world[:6], borrow(carry_alive), borrow(carry_flags), *world[8:])
    cand = np.empty(64, dtype=np.int64)
    scratch = np.empty((4, 9))
    up = int(body[B_UP])
    ux, uy, uz = _axis(up)
    radius = body[B_RADIUS]
    skin = body[B_SKIN]
    min_motion = body[B_MIN_MOTION]
    hh = 0.5 * body[B_HEIGHT]
    half = max(hh - radius, 0.0)
    cx = body[B_FEET] + hh * ux
    cy = body[B_FEET + 1] + hh * uy
    cz = body[B_FEET + 2] + hh * uz
    was_on_floor = body[B_ON_FLOOR] != 0.0
    stop = STOP_DONE
    # 1. Carried or pushed by a moving obstacle.
    kx = body[B_CARRY]
    ky = body[B_CARRY + 1]
    kz = body[B_CARRY + 2]
    squeezed = False
    if kx != 0.0 or ky != 0.0 or kz != 0.0:
        cx2, cy2, cz2, s, _, _ = _slide(carry_world, body, cx, cy, cz, kx, ky, kz, half, up,
                                        wf, wi, cand, scratch)
        gone = _progress(cx, cy, cz, cx2, cy2, cz2, kx, ky, kz)
        squeezed = gone < (kx * kx + ky * ky + kz * kz) - skin * math.sqrt(kx * kx + ky * ky
                                                                           + kz * kz)
        cx, cy, cz = cx2, cy2, cz2
    if not squeezed and carry_alive.ctypes.data != world.alive.ctypes.data:
        # Obstacles carried or pushed it (their pushes may add up to none).
        squeezed = _pinched(world, carry_alive, body, cx, cy, cz, half, up, wf, wi, cand)
    walk_world = carry_world if squeezed else world
    sx, sy, sz = cx, cy, cz
    base = cx * ux + cy * uy + cz * uz - hh
    # 2. Speed along up: a jump, gravity in the air, none on a floor.
    vspeed = body[B_VSPEED]
    jumped = False
    if not math.isnan(body[B_JUMP]):
        vspeed = body[B_JUMP]
        jumped = True
        was_on_floor = False
    elif was_on_floor and vspeed <= 0.0:
        vspeed = 0.0
    else:
        vspeed -= body[B_GRAVITY] * dt
    lift = wish_x * ux + wish_y * uy + wish_z * uz
    hx = (wish_x - lift * ux) * dt
    hy = (wish_y - lift * uy) * dt
    hz = (wish_z - lift * uz) * dt
    h_len = math.sqrt(hx * hx + hy * hy + hz * hz)
    rise = (vspeed + lift) * dt
    fx = body[B_FLOOR_NORMAL]
    fy = body[B_FLOOR_NORMAL + 1]
    fz = body[B_FLOOR_NORMAL + 2]
    # 3. Walk (a slide), never up a steep slope.
    x1 = cx
    y1 = cy
    z1 = cz
    ohx, ohy, ohz = hx, hy, hz
    if was_on_floor:
        ix, iy, iz = _along_floor(hx, hy, hz, fx, fy, fz, ux, uy, uz)
    else:
        ix, iy, iz = hx, hy, hz
    flattened = False
    pending = False
    for attempt in range(3):
        if was_on_floor:
            dx, dy, dz = _along_floor(hx, hy, hz, fx, fy, fz, ux, uy, uz)
        else:
            dx, dy, dz = hx, hy, hz
        dx += rise * ux
        dy += rise * uy
        dz += rise * uz
        x1, y1, z1, stop, _, _ = _slide(walk_world, body, cx, cy, cz, dx, dy, dz, half, up, wf,
                                        wi, cand, scratch)
        pending = False
        if stop == STOP_STUCK or not was_on_floor or h_len == 0.0:
            break
        climbed = _progress(cx, cy, cz, x1, y1, z1, ux, uy, uz) - (dx * ux + dy * uy + dz * uz)
        if climbed <= skin or not _steep_touching(walk_world, body, x1, y1, z1, half, up, base,
                                                  wf, wi, cand):
            break     # level, or higher only as a curved floor goes
        # Went up a steep slope: walk straight to it, then on along it as
        # along an upright wall.
        f, _ = _cast(walk_world, cx, cy, cz, half, up, radius, skin, dx, dy, dz, wi, cand)
        mx = cx + f * dx
        my = cy + f * dy
        mz = cz + f * dz
        gx, gy, gz, changed = _flatten_steep(walk_world, body, mx, my, mz, half, up, base,
                                             hx * (1.0 - f), hy * (1.0 - f), hz * (1.0 - f),
                                             wf, wi, cand)
        if not changed:
            break
        cx, cy, cz = mx, my, mz
        hx, hy, hz = gx, gy, gz
        flattened = True
        pending = True
        x1, y1, z1 = cx, cy, cz
        stop = STOP_BLOCKED
    if flattened:
        if pending and hx * hx + hy * hy + hz * hz > min_motion * min_motion:
            # Out of attempts with some walk left: slide it level, no higher.
            dx, dy, dz = _along_floor(hx, hy, hz, fx, fy, fz, ux, uy, uz)
            x2, y2, z2, stop, _, _ = _slide(walk_world, body, cx, cy, cz, dx, dy, dz, half, up,
                                            wf, wi, cand, scratch)
            if _progress(cx, cy, cz, x2, y2, z2, ux, uy, uz) <= (dx * ux + dy * uy + dz * uz) \
                    + skin:
                x1, y1, z1 = x2, y2, z2
        if stop == STOP_DONE:
            stop = STOP_SLID
    # 4. A step: up, along, down onto a floor, if the walk was cut short.
    stepped = 0.0
    if was_on_floor and h_len > min_motion and stop != STOP_STUCK and not squeezed:
        ex = ohx / h_len
        ey = ohy / h_len
        ez = ohz / h_len
        walked = _progress(sx, sy, sz, x1, y1, z1, ex, ey, ez)
        if walked < ix * ex + iy * ey + iz * ez - 2.0 * skin and body[B_STEP] > 0.0 and \
                (flattened or _steppable(world, body, x1, y1, z1, half, up, base,
                                         h_len + abs(rise), wf, wi, cand)):
            step = body[B_STEP]
            f, _ = _cast(world, sx, sy, sz, half, up, radius, skin, step * ux, step * uy,
                         step * uz, wi, cand)
            raised = f * step
            x2, y2, z2, s2, _, _ = _slide(world, body, sx + raised * ux, sy + raised * uy,
                                          sz + raised * uz, ohx, ohy, ohz, half, up, wf, wi,
                                          cand, scratch)
            # Kept only if it got farther along the (level) wish; the way down along up
            # leaves that progress as it is, so a raised walk a wall cut short too is
            # given up before the cast down (a blocked walker's every frame).
            farther = _progress(sx, sy, sz, x2, y2, z2, ex, ey, ez) > walked + skin
            down = raised + skin * 4.0
            hit = False
            if farther and s2 != STOP_STUCK:
                f, hit = _cast(world, x2, y2, z2, half, up, radius, skin, -down * ux,
                               -down * uy, -down * uz, wi, cand)
            if hit:
                x2 -= f * down * ux
                y2 -= f * down * uy
                z2 -= f * down * uz
                gained = _progress(sx, sy, sz, x2, y2, z2, ux, uy, uz)
                if (gained > skin and gained <= step + skin
                        and _supported(world, body, x2, y2, z2, half, up, base, wf, wi,
                                       cand, contacts)):
                    x1, y1, z1 = x2, y2, z2
                    stepped = gained
                    stop = STOP_STEPPED
    # 5. What touches it now; off the floor it was on, snap down onto one
    # (down stairs and slopes), unless jumping.
    rows, floor_row, on_wall, on_ceiling, bx, by, bz = classify(
        walk_world, body, x1, y1, z1, half, up, base, wf, wi, cand, contacts)
    snapped = 0.0
    if floor_row < 0 and was_on_floor and not jumped and vspeed <= 0.0 and stepped == 0.0 \
            and body[B_SNAP] > 0.0:
        snap = body[B_SNAP]
        f, hit = _cast(walk_world, x1, y1, z1, half, up, radius, skin, -snap * ux, -snap * uy,
                       -snap * uz, wi, cand)
        if hit and f > 0.0:
            x2 = x1 - f * snap * ux
            y2 = y1 - f * snap * uy
            z2 = z1 - f * snap * uz
            rows2, floor2, wall2, ceiling2, bx2, by2, bz2 = classify(
                walk_world, body, x2, y2, z2, half, up, base, wf, wi, cand, contacts)
            if floor2 >= 0:
                x1, y1, z1 = x2, y2, z2
                snapped = f * snap
                rows, floor_row, on_wall, on_ceiling, bx, by, bz = \
                    rows2, floor2, wall2, ceiling2, bx2, by2, bz2
            else:
                # Not a floor there: the contacts are those where it stays.
                rows, floor_row, on_wall, on_ceiling, bx, by, bz = classify(
                    walk_world, body, x1, y1, z1, half, up, base, wf, wi, cand, contacts)
    on_floor = floor_row >= 0 and vspeed <= 0.0
    if on_floor:
        if not was_on_floor and not jumped:
            stop = STOP_LANDED
        vspeed = 0.0
        body[B_FLOOR_NORMAL] = bx
        body[B_FLOOR_NORMAL + 1] = by
        body[B_FLOOR_NORMAL + 2] = bz
        body[B_FLOOR_OBSTACLE] = contacts[floor_row, 0]
    else:
        body[B_FLOOR_NORMAL] = 0.0
        body[B_FLOOR_NORMAL + 1] = 0.0
        body[B_FLOOR_NORMAL + 2] = 0.0
        body[B_FLOOR_OBSTACLE] = -1.0
        if stop == STOP_DONE or stop == STOP_SLID or stop == STOP_BLOCKED:
            stop = STOP_FELL
    if on_ceiling and vspeed > 0.0:
        vspeed = 0.0
    if squeezed:
        stop = STOP_SQUEEZED
    inv = 1.0 / dt if dt > 0.0 else 0.0
    body[B_VELOCITY] = (x1 - sx) * inv
    body[B_VELOCITY + 1] = (y1 - sy) * inv
    body[B_VELOCITY + 2] = (z1 - sz) * inv
    body[B_FEET] = x1 - hh * ux
    body[B_FEET + 1] = y1 - hh * uy
    body[B_FEET + 2] = z1 - hh * uz
    body[B_VSPEED] = vspeed
    body[B_ON_FLOOR] = 1.0 if on_floor else 0.0
    body[B_ON_WALL] = 1.0 if on_wall else 0.0
    body[B_ON_CEILING] = 1.0 if on_ceiling else 0.0
    body[B_STOP] = stop
    body[B_CONTACTS] = rows
    body[B_STEPPED] = stepped
    body[B_SNAPPED] = snapped
    body[B_CARRY] = 0.0
    body[B_CARRY + 1] = 0.0
    body[B_CARRY + 2] = 0.0
    body[B_JUMP] = math.nan
    return stop


@njit(cache=True, nogil=True)
def update_characters(world, table, bodies, contacts, rows, wishes, since, body_of, count, dt,
                      stops, rode, rides, queue):
    """One frame of the characters ``rows`` (int64 indices into ``bodies``) taken from
    ``queue``: what :meth:`sidestep.Character.update` does for each, in one call for all
    of them (the velocity one in the air keeps from a moving floor it left is in its wish
    already: :meth:`sidestep.Character.update_many` adds it).

    ``bodies (n, BODY_SIZE)`` are the characters' state rows, ``contacts (n, k,
    CONTACT_FIELDS)`` their contact buffers, ``wishes (n, 3)`` the velocities asked for
    (m/s), ``since (n,)`` the bodies' pose count each has seen, ``dt`` the frame (s).
    ``world`` is the packed world of the characters' mask, ``table`` the bodies' table
    (:class:`~sidestep.kernels3d.carry.BodyTableState`, read only: each call has its
    own buffers, so several threads may share one queue), ``body_of`` the body of each
    obstacle (-1: none) and ``count`` the bodies' pose count now.

    A row whose bodies moved since it last looked (``count > since[i]``) is first
    pushed by the bodies that swept into it (:func:`~.carry.push_near`, as
    :func:`~.carry.push_character` with this thread's buffers) and, standing on a body
    that moved, carried by it and its facing turned (:func:`~.carry.ride_row`: ``rode[i]``
    is how far, and ``rides[i]`` that body plus one; 0 for the others), then walks in the
    world without those bodies (:func:`update_character`). A row a body squeezed
    (``STOP_SQUEEZED``) goes to the nearest spot clear of everything (as
    :meth:`~sidestep.Character.update`). Writes each row's stop code to ``stops[i]``; the
    caller keeps a rider's floor velocity (:meth:`sidestep.Character._rode`).
    """
    wf = np.zeros(SCRATCH_FLOATS)
    wi = np.zeros(SCRATCH_INTS, dtype=np.int64)
    seen = np.zeros(world.alive.shape[0], dtype=np.uint8)
    mark = np.zeros(table.mark.shape[0], dtype=np.uint8)
    met = np.zeros(table.met.shape[0], dtype=np.int64)
    touch = np.zeros((1, table.contacts.shape[1]))
    cand = np.empty(64, dtype=np.int64)
    alive = world.alive.copy()
    flags = world.flags.copy()
    flags[F_REMOVED] = 1
    members = table.members
    member_first = table.member_first
    while True:
        first, stop = next_rows(queue)
        if first >= stop:
            break
        for k in range(first, stop):
            i = rows[k]
            body = bodies[i]
            n = -1
            dx = dy = dz = 0.0
            riding = -1
            rides[i] = 0
            if count > since[i]:
                floor = int(body[B_FLOOR_OBSTACLE]) if body[B_ON_FLOOR] != 0.0 else -1
                riding = body_of[floor] if 0 <= floor < body_of.shape[0] else -1
                on_moved = riding >= 0 and table.stamp[riding] > since[i]
                up = int(body[B_UP])
                hh = 0.5 * body[B_HEIGHT]
                r = body[B_RADIUS]
                half = max(hh - r, 0.0)
                ux, uy, uz = _axis(up)
                px = body[B_FEET] + hh * ux
                py = body[B_FEET + 1] + hh * uy
                pz = body[B_FEET + 2] + hh * uz
                skin = body[B_SKIN]
                dx, dy, dz, n = push_near(
                    world, table, seen, mark, touch, met, since[i], riding, on_moved, px, py,
                    pz, r + half + 2.0 * skin, r, half, up, skin, body[B_MARGIN],
                    body[B_SLACK], body[B_MIN_MOTION], int(body[B_MAX_ITERATIONS]), wf, wi)
                since[i] = count
                if on_moved:
                    rx, ry, rz = ride_row(table, riding, body, B_FEET, B_FACING, up)
                    rode[i, 0] = rx
                    rode[i, 1] = ry
                    rode[i, 2] = rz
                    rides[i] = riding + 1
                    dx = rx + dx
                    dy = ry + dy
                    dz = rz + dz
            if n > 0 or rides[i] != 0:
                # Pushed or carried: moved so in the world without those bodies.
                body[B_CARRY] = 0.0 + dx
                body[B_CARRY + 1] = 0.0 + dy
                body[B_CARRY + 2] = 0.0 + dz
                carrier = riding if rides[i] else -1
                _hide(alive, members, member_first, met, n, carrier, True, world.alive)
                stops[i] = update_character(world, alive, flags, body, wishes[i, 0],
                                            wishes[i, 1], wishes[i, 2], dt, wf, wi,
                                            contacts[i])
                _hide(alive, members, member_first, met, n, carrier, False, world.alive)
            else:
                stops[i] = update_character(world, world.alive, world.flags, body,
                                            wishes[i, 0], wishes[i, 1], wishes[i, 2], dt, wf,
                                            wi, contacts[i])
            if stops[i] == STOP_SQUEEZED:
                unsqueeze(world, body, wf, wi, cand)


@njit(cache=True, forceinline=True)
def _hide(alive, members, member_first, met, n, riding, hide, was):
    # The obstacles of bodies met[:n] and of body `riding` (-1: none) out of `alive`
    # (hide) or back as `was` has them.
    for j in range(n + 1):
        b = met[j] if j < n else riding
        if b < 0:
            continue
        for t in range(member_first[b], member_first[b + 1]):
            alive[members[t]] = 0 if hide else was[members[t]]


@njit(cache=True)
def unsqueeze(world, body, wf, wi, cand):
    """The character of state row ``body`` that a body squeezed against something it
    could not pass (the body overlaps it now) goes to the nearest spot clear of
    everything (:func:`~.moves.recover`: round the door's edge, out of the pinch),
    never left inside: its feet are written in place. :func:`update_characters` and
    :meth:`sidestep.Character.update` both end a squeezed frame with it.

    A character on a floor that the nearest clear spot lifts (the spot is searched
    along headings all round, a level one the nearest only by luck) is cast back
    down by as much: on the floor again where it is clear, never inside (a door
    squeezing a walker lifted it some 2 cm, now and then 18, for a frame).
    """
    r = body[B_RADIUS]
    hh = 0.5 * body[B_HEIGHT]
    half = max(hh - r, 0.0)
    up = np.int64(body[B_UP])
    ux, uy, uz = _axis(up)
    cx = body[B_FEET] + hh * ux
    cy = body[B_FEET + 1] + hh * uy
    cz = body[B_FEET + 2] + hh * uz
    x, y, z, ok = recover(world, cx, cy, cz, half, up, r, body[B_SKIN], body[B_SLACK], wf, wi,
                          cand)
    if not ok:
        return
    skin = body[B_SKIN]
    rise = (x - cx) * ux + (y - cy) * uy + (z - cz) * uz
    if body[B_ON_FLOOR] != 0.0 and rise > skin:
        f, _ = _cast(world, x, y, z, half, up, r, skin, -rise * ux, -rise * uy, -rise * uz,
                     wi, cand)
        x -= f * rise * ux
        y -= f * rise * uy
        z -= f * rise * uz
    body[B_FEET] = x - hh * ux
    body[B_FEET + 1] = y - hh * uy
    body[B_FEET + 2] = z - hh * uz


@structref.register
class FrameStateType(types.StructRef):
    """The Numba type of a :class:`FrameState` (its fields' types, as given)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class FrameState(structref.StructRefProxy):
    """What a character's frame reads and writes but the wish: one object to pass.

    Fields ``world`` (the packed world), ``body (BODY_SIZE,)``, the scratch
    buffers ``wf`` and ``wi`` and ``contacts (k, CONTACT_FIELDS)``: the same
    arrays :class:`~sidestep.Character` holds, shared, not copied. Handing
    the kernel one object instead of twenty arrays spares it unpacking each
    from Python on every frame. Made by :func:`frame_state`.
    """


structref.define_proxy(FrameState, FrameStateType, ["world", "body", "wf", "wi", "contacts"])


def frame_state_type(world_type):
    """The Numba type of a :class:`FrameState` for a packed world of ``world_type``."""
    f1 = types.Array(types.float64, 1, "C")
    return FrameStateType([("world", world_type), ("body", f1), ("wf", f1),
                           ("wi", types.Array(types.int64, 1, "C")),
                           ("contacts", types.Array(types.float64, 2, "C"))])


@njit(cache=True)
def frame_state(world, body, wf, wi, contacts):
    """A :class:`FrameState` holding these (a new one whenever the world is packed anew)."""
    return FrameState(world, body, wf, wi, contacts)


@njit(cache=True)
def update_frame(state, wish_x, wish_y, wish_z, dt):
    """:func:`update_character` for the character of ``state`` (a :class:`FrameState`)
    when nothing carries it; returns the frame's stop code."""
    world = state.world
    return update_character(world, world.alive, world.flags, state.body, wish_x, wish_y,
                            wish_z, dt, state.wf, state.wi, state.contacts)


_DIRECT = None


def update_frame_direct():
    """:func:`update_frame`, and :func:`update_character` for the frames a moving
    obstacle carries the character in, each compiled for its one registered
    signature and called without the dispatcher (:mod:`sidestep.kernels.direct`):
    ``(frame, carried)``.

    :class:`~sidestep.Character` always passes these the same types: a
    :class:`FrameState`, or a packed world with its ``uint8`` and ``int64``
    flag arrays and float64 rows, and four Python floats.
    """
    global _DIRECT
    if _DIRECT is None:
        _DIRECT = (registered("kernels3d.character:update_frame"),
                   registered("kernels3d.character:update_character"))
    return _DIRECT
