"""Panda3D and ursina: a :class:`~sidestep.World3D` from a scene graph, a first-person controller.

* :func:`world_from_nodepath` builds a world from a NodePath's collision
  solids (``CollisionPolygon`` -> panels, ``CollisionBox`` -> boxes,
  ``CollisionSphere`` -> spheres, ``CollisionCapsule`` -> an upright cylinder
  and two spheres, or a row of spheres) or from its visible geometry (every
  ``Geom``'s triangles, one mesh obstacle per ``GeomNode``), with net
  transforms applied; :func:`convert_nodepath` says which obstacle came from
  which node and what was approximated or skipped.
* :class:`NodePathBodies` makes the obstacles of animated nodes (a door, a
  lift) bodies that follow the nodes' net transforms with ``set_poses``.
* :class:`FirstPersonController` is :class:`~sidestep.adapters.first_person.FirstPerson`
  (WASD, mouse-look and jump on :class:`sidestep.Character`) with Panda3D's
  axes; :class:`FirstPersonTask` runs it as a Panda3D task that reads the
  keyboard and mouse and moves the camera. In ursina (a Panda3D ShowBase,
  its ``scene`` a NodePath) call the controller from ``update()`` and place
  the camera with :func:`place_camera`.

Panda3D's default axes are z up, right-handed; ursina's are y up,
left-handed (``coordinate-system y-up-left``): both are read from Panda3D's
default coordinate system, so the world's ``up`` and the controller's
forward follow whichever is in force.

>>> from panda3d.core import NodePath, CollisionNode, CollisionBox, Point3
>>> from sidestep.adapters.panda3d import convert_nodepath
>>> level = NodePath("level")
>>> crate = level.attach_new_node(CollisionNode("crate"))
>>> solid = crate.node().add_solid(CollisionBox(Point3(0, 0, 0), Point3(1, 1, 1)))
>>> crate.set_pos(5, 0, 0)
>>> built = convert_nodepath(level)
>>> built.world, built.world.up, built.sources[0].name
(World3D(1 obstacle: 1 box), 'z', 'crate')
>>> float(built.world.raycast([(0.0, 0.5, 0.5)], [(1.0, 0.0, 0.0)]).distance[0])
5.0
"""
import math
import warnings
from dataclasses import dataclass

import numpy as np
from panda3d.core import (CS_yup_left, CS_yup_right, ButtonRegistry, ClockObject,
                          CollisionBox, CollisionCapsule, CollisionNode, CollisionPolygon,
                          CollisionSphere, GeomNode, GeomTriangles, GeomVertexReader,
                          GraphicsWindow, LVector3f, NodePath, Point3, Vec3, WindowProperties,
                          get_default_coordinate_system)

from .. import validation
from ..degenerate import drop_degenerate
from ..world3d import World3D
from .first_person import FirstPerson

COLLISION_CHOICES = (True, False, "auto")
#: The collision solids that become obstacles (rays, segments, planes and the rest do not).
_OBSTACLE_SOLIDS = (CollisionPolygon, CollisionBox, CollisionSphere, CollisionCapsule)
#: How far (a fraction of its radius) the row of spheres standing in for a
#: slanted ``CollisionCapsule`` may fall inside the capsule's surface.
CAPSULE_TOLERANCE = 0.01
#: Relative size of the off-axis terms below which a transform counts as
#: keeping boxes axis-aligned and spheres round (float32 matrices).
AXIS_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Conversion:
    """A :class:`~sidestep.World3D` built from a NodePath, and how."""

    #: The world, in the coordinates of ``relative_to`` (the scene's top by default).
    world: World3D
    #: Obstacle id -> the NodePath (a ``CollisionNode`` or ``GeomNode``) it came from.
    sources: dict
    #: One line per solid or primitive approximated or left out, and why.
    notes: tuple
    #: Whether the world came from collision solids (True) or visible geometry (False).
    collision: bool


def up_axis():
    """``"z"`` or ``"y"``: the up axis of Panda3D's default coordinate system (ursina: y)."""
    return "y" if get_default_coordinate_system() in (CS_yup_right, CS_yup_left) else "z"


def panda_axes():
    """``forward, right``: ``(3,) float64``, level axes of Panda3D's default coordinate system."""
    return (np.array(LVector3f.forward(), dtype=float), np.array(LVector3f.right(), dtype=float))


def world_from_nodepath(nodepath, *, collision="auto", relative_to=None, sides="both",
                        exclude=()):
    """A :class:`~sidestep.World3D` holding a NodePath's obstacles.

    Parameters
    ----------
    nodepath : panda3d.core.NodePath
        The scene or level (``render``, a loaded model, ursina's ``scene``);
        its own node and everything below it, stashed nodes excepted.
    collision : True, False or "auto"
        True: its collision solids (``CollisionNode``s whose into-mask is not
        zero); False: its visible geometry (``GeomNode``s not hidden);
        ``"auto"``: the solids if there are any, else the geometry.
    relative_to : NodePath, optional
        Whose coordinates the world is in: the scene graph's top (``render``)
        by default, the frame a camera moves in.
    sides : {"both", "front"}
        Panels and meshes block from both sides (default: nothing gets
        through a wall from behind), or only from their front as Panda3D's
        ``CollisionPolygon`` does (counter-clockwise corners, right-handed).
    exclude : sequence of NodePath
        Subtrees to leave out: the player's own colliders, ursina's
        ``camera`` (its UI buttons have colliders too).

    Returns
    -------
    World3D
        ``up`` from Panda3D's coordinate system. A ``UserWarning`` lists
        what was approximated (:func:`convert_nodepath` returns it).
    """
    built = convert_nodepath(nodepath, collision=collision, relative_to=relative_to,
                             sides=sides, exclude=exclude)
    approximated = [n for n in built.notes if "approximated" in n]
    if approximated:
        warnings.warn("sidestep approximated some collision solids: " + "; ".join(approximated),
                      stacklevel=2)
    return built.world


def convert_nodepath(nodepath, *, collision="auto", relative_to=None, sides="both",
                     exclude=()):
    """:func:`world_from_nodepath`, answering with a :class:`Conversion` record."""
    if not hasattr(nodepath, "find_all_matches") or nodepath.is_empty():
        raise ValueError(f"nodepath must be a non-empty panda3d NodePath, got {nodepath!r}")
    if collision not in COLLISION_CHOICES or isinstance(collision, (int, float)) \
            and not isinstance(collision, bool):
        raise ValueError(f"collision must be True, False or 'auto'; got {collision!r}")
    validation.choice(sides, "sides", ("both", "front"))
    frame = nodepath.get_top() if relative_to is None else relative_to
    excluded = list(exclude)
    solids = [n for n in _nodes(nodepath, CollisionNode, "**/+CollisionNode", excluded)
              if not n.node().get_into_collide_mask().is_zero()]
    use_solids = any(isinstance(n.node().get_solid(i), _OBSTACLE_SOLIDS)
                     for n in solids for i in range(n.node().get_num_solids())) \
        if collision == "auto" else collision
    world = World3D(up=up_axis())
    sources, notes = {}, []
    if use_solids:
        for path in solids:
            _add_solids(world, path, _matrix(path, frame), sides, sources, notes)
    else:
        for path in _nodes(nodepath, GeomNode, "**/+GeomNode", excluded):
            if not path.is_hidden():
                _add_geometry(world, path, _matrix(path, frame), sides, sources, notes)
    return Conversion(world, sources, tuple(notes), use_solids)


class NodePathBodies:
    """Bodies of a world that follow NodePaths: a door or lift animated in Panda3D moves its
    obstacles too, with :meth:`sidestep.World3D.set_poses`.

    Parameters
    ----------
    conversion : Conversion
        What :func:`convert_nodepath` built; its ``sources`` say which obstacles came
        from which node.
    relative_to : NodePath, optional
        The frame the world is in, as given to :func:`convert_nodepath`.

    Examples
    --------
    >>> from panda3d.core import NodePath, CollisionNode, CollisionBox, Point3
    >>> from sidestep.adapters.panda3d import NodePathBodies, convert_nodepath
    >>> level = NodePath("level")
    >>> door = level.attach_new_node(CollisionNode("door"))
    >>> solid = door.node().add_solid(CollisionBox(Point3(0, 0, 0), Point3(1, 0.1, 2)))
    >>> built = convert_nodepath(level)
    >>> bodies = NodePathBodies(built)
    >>> body = bodies.follow(door)           # the door's obstacles move as one body
    >>> door.set_h(90)                       # Panda3D turns it a quarter turn about z...
    >>> bodies.update(dt=1 / 60)             # ...and the world follows
    >>> hit = built.world.raycast((0.5, 0.5, 1), (-1, 0, 0))   # it lies along y now, at x = 0
    >>> round(float(hit.distance), 6), hit.obstacle
    (0.5, 0)
    """

    def __init__(self, conversion, relative_to=None):
        self.world = conversion.world
        self._sources = conversion.sources
        self._relative_to = relative_to
        self._bodies = []
        self._paths = []
        self._start = []          # each node's net transform when it was followed

    def _frame(self, path):
        return path.get_top() if self._relative_to is None else self._relative_to

    def follow(self, nodepath, ids=None):
        """Make the obstacles that came from ``nodepath`` and the nodes below it (or
        ``ids``) one body that follows its net transform from now on; returns the body."""
        if ids is None:
            ids = [i for i, source in self._sources.items()
                   if source == nodepath or nodepath.is_ancestor_of(source)]
        if len(ids) == 0:
            raise ValueError(f"no obstacle came from {nodepath!r} or below it")
        body = self.world.add_body(ids)
        self._bodies.append(body)
        self._paths.append(nodepath)
        self._start.append(_matrix(nodepath, self._frame(nodepath)))
        return body

    def update(self, dt=1.0):
        """Put every followed body where its node's net transform is now (one
        :meth:`~sidestep.World3D.set_poses`); ``dt`` (s) since the last update.

        A node scaled since it was followed cannot be followed (bodies are rigid):
        ``ValueError``.
        """
        if not self._bodies:
            return
        k = len(self._bodies)
        positions = np.empty((k, 3))
        rotations = np.empty((k, 3, 3))
        for i, (path, start) in enumerate(zip(self._paths, self._start)):
            # Row vectors: x_now = x_start M0^-1 M; as a pose, R = (M0^-1 M)[:3, :3]^T.
            move = np.linalg.inv(start) @ _matrix(path, self._frame(path))
            turn = move[:3, :3].T
            if np.abs(turn @ turn.T - np.eye(3)).max() > 1e-5:
                raise ValueError(f"{path!r} was scaled since it was followed; a body is rigid")
            u, _, vt = np.linalg.svd(turn)
            rotations[i] = u @ vt
            positions[i] = move[3, :3]
        self.world.set_poses(self._bodies, positions, rotations, dt)


def _nodes(root, kind, pattern, excluded):
    """``root`` (if of ``kind``) and the nodes below it matching ``pattern``, less ``excluded``."""
    found = ([root] if isinstance(root.node(), kind) else []) + list(root.find_all_matches(pattern))
    return [n for n in found if not any(e == n or e.is_ancestor_of(n) for e in excluded)]


def _matrix(path, frame):
    """``(4, 4) float64``: the net transform, Panda3D's row-vector convention (p' = p M)."""
    m = path.get_mat(frame)
    return np.array([[m.get_cell(r, c) for c in range(4)] for r in range(4)])


def _apply(m, points):
    return np.asarray(points, dtype=float).reshape(-1, 3) @ m[:3, :3] + m[3, :3]


def _scale(m):
    """The transform's largest stretch (its largest singular value: a unit sphere's image
    fits in a sphere of that radius), and whether it stretches every way alike."""
    stretch = np.linalg.svd(m[:3, :3], compute_uv=False)
    return float(stretch[0]), bool(stretch[-1] >= stretch[0] * (1.0 - AXIS_TOLERANCE))


def _axis_aligned(m):
    """Whether the transform maps axis-aligned boxes to axis-aligned boxes."""
    a = np.abs(m[:3, :3])
    big = a > AXIS_TOLERANCE * a.max()
    return bool(np.all(big.sum(axis=1) == 1) and np.all(big.sum(axis=0) == 1))


def _add_solids(world, path, m, sides, sources, notes):
    node = path.node()
    name = path.get_name()
    up = "xyz".index(world.up)
    for i in range(node.get_num_solids()):
        solid = node.get_solid(i)
        label = f"{name}: solid {i} ({type(solid).__name__})"
        ids = []
        if isinstance(solid, CollisionPolygon):
            corners = _apply(m, [tuple(p) for p in solid.get_points()])
            ids = world.add_panels([corners], sides=sides)
        elif isinstance(solid, CollisionBox):
            ids = _add_box(world, m, np.array(solid.get_min(), dtype=float),
                           np.array(solid.get_max(), dtype=float), label, notes)
        elif isinstance(solid, CollisionSphere):
            scale, uniform = _scale(m)
            center = _apply(m, tuple(solid.get_center()))
            ids = world.add_spheres(center, solid.get_radius() * scale)
            if not uniform:
                notes.append(f"{label}: approximated by the sphere round its ellipsoid "
                             f"(the transform scales unevenly)")
        elif isinstance(solid, CollisionCapsule):
            ids = _add_capsule(world, m, solid, up, label, notes)
        else:
            notes.append(f"{label}: skipped (not an obstacle sidestep holds)")
        for oid in np.atleast_1d(ids):
            sources[int(oid)] = path


def _add_box(world, m, lo, hi, label, notes):
    size = hi - lo                  # Panda3D refuses boxes without thickness: all positive
    if _axis_aligned(m):
        # The box round the turned box (exact for a turn by right angles; float32
        # matrices leave off-axis terms of 1e-8 that this keeps, never cuts).
        center = _apply(m, 0.5 * (lo + hi))[0]
        half = np.abs(m[:3, :3]).T @ (0.5 * size)
        return world.add_boxes([center - half], [center + half])
    notes.append(f"{label}: turned off the axes, so its six faces became a mesh "
                 f"(a surface: nothing inside it counts as inside)")
    return [world.add_mesh(_apply(m, _box_corners(lo, hi)), _BOX_TRIANGLES, sides="both")]


def _add_capsule(world, m, solid, up, label, notes):
    scale, uniform = _scale(m)
    ends = _apply(m, [tuple(solid.get_point_a()), tuple(solid.get_point_b())])
    r = solid.get_radius() * scale
    if not uniform:
        notes.append(f"{label}: approximated with the radius of its widest axis "
                     f"(the transform scales unevenly)")
    axis = ends[1] - ends[0]
    length = float(np.linalg.norm(axis))
    off_up = np.delete(axis, up)
    if length == 0.0:
        return world.add_spheres(ends[:1], r)
    if np.all(np.abs(off_up) <= AXIS_TOLERANCE * length):
        # Upright: exactly a cylinder between the two centres, capped by two spheres.
        low, high = ends[np.argsort(ends[:, up])]
        return np.concatenate([world.add_cylinders([low], r, high[up] - low[up]),
                               world.add_spheres(ends, r)])
    # Spheres a gap g apart leave a waist of sqrt(r^2 - (g/2)^2) >= (1 - tol) r.
    gap = 2.0 * r * math.sqrt(1.0 - (1.0 - CAPSULE_TOLERANCE) ** 2)
    count = max(2, int(math.ceil(length / gap)) + 1)
    notes.append(f"{label}: approximated by {count} spheres along its slanted axis "
                 f"(within {CAPSULE_TOLERANCE:.0%} of its radius)")
    along = np.linspace(0.0, 1.0, count)[:, None]
    return world.add_spheres(ends[0] + along * axis, r)


def _box_corners(lo, hi):
    return np.array([[(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[k][2]]
                     for i in (0, 1) for j in (0, 1) for k in (0, 1)])


#: ``(12, 3)``: the faces of the box :func:`_box_corners` lists (corner index i*4 + j*2 + k),
#: counter-clockwise seen from outside.
_BOX_TRIANGLES = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5],     # x low, x high
                           [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],     # y low, y high
                           [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])    # z low, z high


def _add_geometry(world, path, m, sides, sources, notes):
    node = path.node()
    vertices, triangles, offset = [], [], 0
    for g in range(node.get_num_geoms()):
        geom = node.get_geom(g)
        data = geom.get_vertex_data()
        if not data.has_column("vertex"):
            continue
        reader = GeomVertexReader(data, "vertex")
        corners = []
        while not reader.is_at_end():
            corners.append(tuple(reader.get_data3()))
        for p in range(geom.get_num_primitives()):
            primitive = geom.get_primitive(p).decompose()
            if not isinstance(primitive, GeomTriangles):
                notes.append(f"{path.get_name()}: geom {g} primitive {p} "
                             f"({type(primitive).__name__}) skipped: not triangles")
                continue
            index = np.array(primitive.get_vertex_list(), dtype=np.int64).reshape(-1, 3)
            triangles.append(index + offset)
        vertices.append(np.array(corners, dtype=float).reshape(-1, 3))
        offset += len(corners)
    if not triangles:
        return
    v = _apply(m, np.concatenate(vertices))
    t = np.concatenate(triangles)
    if np.linalg.det(m[:3, :3]) < 0.0:          # a mirroring transform: keep fronts in front
        t = t[:, ::-1]
    kept = drop_degenerate(v, t)
    if kept.dropped:
        notes.append(f"{path.get_name()}: {kept.dropped} triangles without area skipped")
    if len(kept.triangles):
        sources[int(world.add_mesh(v, kept.triangles, sides=sides))] = path


class FirstPersonController(FirstPerson):
    """:class:`~sidestep.adapters.first_person.FirstPerson` on Panda3D's (or ursina's) axes.

    ``forward`` and ``right`` default to Panda3D's default coordinate
    system's (+y and +x in Panda3D; +z and +x in ursina); all other
    parameters as :class:`~sidestep.adapters.first_person.FirstPerson`.
    ``world.up`` must be the coordinate system's up (as
    :func:`world_from_nodepath` makes it).
    """

    def __init__(self, world, feet, **options):
        if world.up != up_axis():
            raise ValueError(f"world.up must be Panda3D's up axis ({up_axis()!r}), got "
                             f"{world.up!r}")
        forward, right = panda_axes()
        options.setdefault("forward", forward)
        options.setdefault("right", right)
        super().__init__(world, feet, **options)


def place_camera(camera, controller):
    """Put ``camera`` (a NodePath: ``base.camera``, ursina's ``camera``) at the controller's eye.

    Positioned at :attr:`~FirstPerson.eye`, looking along
    :attr:`~FirstPerson.look` with the world's up; works in any of Panda3D's
    coordinate systems.
    """
    eye = controller.eye
    # NodePath's own methods: ursina's Entity overrides look_at with another signature.
    NodePath.set_pos(camera, *eye)
    NodePath.look_at(camera, Point3(*(eye + controller.look)), Vec3(*controller.up))


class FirstPersonTask:
    """Runs a :class:`FirstPersonController` every frame as a Panda3D task.

    Each frame it reads the held keys and the mouse's motion, calls
    ``controller.update(dt, keys, mouse_delta)`` and places the camera with
    :func:`place_camera`.

    Parameters
    ----------
    base : direct.showbase.ShowBase.ShowBase
        The application (ursina's ``Ursina()`` is one).
    controller : FirstPerson
    camera : NodePath, optional
        ``base.camera`` by default.
    keys : callable, optional
        Returns the keys held this frame (a set of names); by default the
        controller's keys are polled on ``base.mouseWatcherNode``.
    mouse : bool
        Turn with the mouse: the pointer is hidden and pulled back to the
        window's centre every frame (only in a window; a buffer has no mouse).
    pixels_per_unit : float
        Pointer pixels per unit of ``mouse_delta`` (so 40 degrees a unit
        with the default sensitivity turn 40 degrees per 400 pixels).
    dt : float, optional
        A fixed frame length (s); by default the clock's.
    sort : int
        The task's sort (it runs before the camera is drawn).
    """

    def __init__(self, base, controller, *, camera=None, keys=None, mouse=True,
                 pixels_per_unit=400.0, dt=None, sort=-10):
        self.base = base
        self.controller = controller
        self.camera = base.camera if camera is None else camera
        self._keys = keys
        self.pixels_per_unit = validation.length(pixels_per_unit, "pixels_per_unit",
                                                 allow_zero=False)
        self.dt = None if dt is None else validation.length(dt, "dt")
        self._buttons = {name: ButtonRegistry.ptr().find_button(name)
                         for names in controller.keys.values() for name in names}
        self._window = base.win if mouse and isinstance(base.win, GraphicsWindow) else None
        if self._window is not None:
            base.disable_mouse()               # ShowBase's own camera driver would fight ours
            hidden = WindowProperties()
            hidden.set_cursor_hidden(True)
            self._window.request_properties(hidden)
            self._center()
        self.task = base.task_mgr.add(self._frame, "sidestep-first-person", sort=sort)
        place_camera(self.camera, controller)

    def _center(self):
        w = self._window
        w.move_pointer(0, w.get_x_size() // 2, w.get_y_size() // 2)

    def held(self):
        """The controller's key names held this frame."""
        if self._keys is not None:
            return self._keys()
        watcher = getattr(self.base, "mouseWatcherNode", None)
        if watcher is None:
            return set()
        return {name for name, button in self._buttons.items()
                if button.get_index() != 0 and watcher.is_button_down(button)}

    def mouse_delta(self):
        """The pointer's motion since the last frame, ``(right, up)`` in units of the delta."""
        w = self._window
        if w is None or not w.get_pointer(0).get_in_window():
            return (0.0, 0.0)
        p = w.get_pointer(0)
        dx = p.get_x() - w.get_x_size() // 2
        dy = p.get_y() - w.get_y_size() // 2
        self._center()
        return (dx / self.pixels_per_unit, -dy / self.pixels_per_unit)

    def _frame(self, task):
        dt = self.dt if self.dt is not None else ClockObject.get_global_clock().get_dt()
        self.controller.update(dt, self.held(), self.mouse_delta())
        place_camera(self.camera, self.controller)
        return task.cont

    def remove(self):
        """Stop the task (and show the pointer again)."""
        self.task.remove()
        if self._window is not None:
            shown = WindowProperties()
            shown.set_cursor_hidden(False)
            self._window.request_properties(shown)
