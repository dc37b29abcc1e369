"""The bodies of a scene file: which obstacles move as one, in the body's own frame.

A scene (version 2) lists its rigid bodies under ``"bodies"``::

    "bodies": [
     {"obstacles": [2, 3, 7], "position": [4.0, 1.5], "angle": 0.5}
    ]

- ``obstacles`` are ids of the file (or, in a file without ids, positions
  in the load order), at least one, each in one body at most.
- Those obstacles are written in the body's own frame (pose identity);
  ``position`` (default ``[0, 0]``) and ``angle`` (radians,
  counter-clockwise, default 0) put the body where the world had it:
  ``x_world = R(angle) x + position``. Loading adds the obstacles, makes the
  body (``World2D.add_body``) and sets its pose (``set_pose``), so the loaded
  world answers queries as the saved one did (to the rounding of ``angle``,
  which the world keeps as its cosine and sine).
- A body none of whose obstacles is left (all removed) is not written;
  later bodies are numbered down, as obstacle ids are.

A 3D scene (:mod:`sidestep.io.scene3d`) lists them the same way, the turn as a
unit quaternion ``(w, x, y, z)`` (default ``[1, 0, 0, 0]``)::

    "bodies": [
     {"obstacles": [0, 4], "position": [4.0, 0.0, 1.5], "rotation": [0.92, 0.0, 0.38, 0.0]}
    ]

``x_world = R(rotation) x + position``; the obstacles are written in the body's frame
(the coordinates the world keeps for it, so a round trip is exact but for the rotation,
which the world keeps as a matrix).

A body's velocity (its last ``set_pose``'s motion) is not kept: the loaded
body is at rest.
"""
import numpy as np

from ..level import LevelError

_BODY_KEYS = ({"obstacles"}, {"obstacles", "position", "angle"})
_BODY_KEYS_3D = ({"obstacles"}, {"obstacles", "position", "rotation"})


# ====================================================================== save
def body_frame_records(world, record):
    """``{obstacle id: record}`` of every live obstacle in a body of a ``World2D``, in its
    body's frame: ``record(family, geometry, 0)`` of a one-obstacle geometry dict.

    The coordinates are those the body was made from (kept by the world), not
    the posed ones turned back, so a round trip through a file is exact.
    """
    st = world._store
    parts = st._parts
    if not len(st.bodies):
        return {}
    items = {int(r): n for n, r in enumerate(parts.item_store)}
    corners = {int(r): n for n, r in enumerate(parts.vertex_store)}
    grids = {int(g): n for n, g in enumerate(parts.grid_store)}
    first = st.first_item.view()
    geometry = st.item_geometry.view()
    area_of = st.area_of.view()
    area_ref = st.area_ref.view()
    frame = st.grid_frame.view()
    out = {}
    for members in st.bodies.members:
        for oid in members[st.alive.view()[members] != 0].tolist():
            family = world.family(oid)
            row = geometry[first[oid]]
            local = parts.item_local[items[int(first[oid])]] if family in ("circle", "wall") \
                else None
            if family == "circle":
                g = {"centers": local[None, 0:2], "radii": row[4:5]}
            elif family == "wall":
                g = {"starts": local[None, 0:2], "ends": local[None, 2:4],
                     "clearance": row[4:5], "one_sided": np.zeros(1, bool)}
            elif family in ("box", "polygon"):
                start, count = area_ref[area_of[oid]]
                v = parts.vertex_local[[corners[int(r)] for r in range(start, start + count)]]
                # A body's box is kept as its corners (lo, lo), (hi, lo), (hi, hi), (lo, hi).
                g = {"mins": v[None, 0], "maxs": v[None, 2]} if family == "box" \
                    else {"vertices": [v]}
            else:
                grid = int(area_ref[area_of[oid], 0])
                g = {"blocked": [st.grid_tables[grid].astype(bool)],
                     "cell_size": frame[grid:grid + 1, 0],
                     "origin": parts.grid_local[None, grids[grid]]}
            out[oid] = record(family, g, 0)
    return out


def body_frame_records3d(world, record):
    """``{obstacle id: (family, record)}`` of the panels, meshes and spheres in a body of a
    ``World3D``, in their body's frame (the coordinates the world keeps for the body;
    ``record(family, geometry, 0)`` of a one-obstacle geometry dict). Its boxes,
    cylinders, voxels and heightfields the world already gives in their body's frame
    (``World3D.geometry``)."""
    st = world._store
    if not len(st.bodies):
        return {}
    parts = st._parts
    corner = {int(r): n for n, r in enumerate(parts.vertex_row)}
    prim = {int(r): n for n, r in enumerate(parts.prim_row)}
    members = np.concatenate(st.bodies.members)
    out = {}
    for family in ("panel", "mesh", "sphere"):
        g = world.geometry(family)
        for i, oid in enumerate(g["ids"].tolist()):
            if oid not in members:
                continue
            if family == "sphere":
                local = parts.prim_local[prim[int(st.first_prim.view()[oid])]]
                one = {"centers": local[None, 0:3], "radii": g["radii"][i:i + 1]}
            else:
                f, c = st.vertex_range.view()[oid]
                one = {"vertices": [parts.vertex_local[[corner[r] for r in range(f, f + c)]]],
                       "sides": g["sides"][i:i + 1]}
                if family == "mesh":
                    one["triangles"] = g["triangles"][i:i + 1]
            out[oid] = record(family, one, 0)
    return out


def body_records(world, rank):
    """The ``"bodies"`` records of a ``World2D`` or ``World3D``; ``rank`` maps a world id to
    its file id."""
    st = world._store
    out = []
    for body, members in enumerate(st.bodies.members):
        live = members[st.alive.view()[members] != 0]
        if not len(live):
            continue
        position, turn = world.pose(body)
        out.append({"obstacles": [rank[i] for i in live.tolist()],
                    "position": position.tolist(),
                    **({"rotation": turn.tolist()} if np.ndim(turn) else {"angle": turn})})
    return out


# ====================================================================== load
def read_bodies(doc, value, count, dim=2):
    """``[(ids, position, turn, place)]`` of a file's ``bodies`` (``count`` obstacles):
    the turn an angle (2D) or a quaternion ``[w, x, y, z]`` (``dim`` 3)."""
    owner = {}
    out = []
    for i, rec in enumerate(doc.sequence(value, "bodies")):
        place = f"bodies[{i}]"
        doc.record(rec, place, "bodies", *(_BODY_KEYS if dim == 2 else _BODY_KEYS_3D))
        ids = doc.sequence(rec["obstacles"], f"{place}.obstacles")
        if not ids:
            doc.fail(f"{place}.obstacles", "a body needs at least one obstacle")
        for j, oid in enumerate(ids):
            where = f"{place}.obstacles[{j}]"
            doc.integer(oid, where)
            if not 0 <= oid < count:
                doc.fail(where, f"no obstacle {oid}: the file has ids 0 .. {count - 1}")
            if oid in owner:
                doc.fail(where, f"obstacle {oid} is also in {owner[oid]}")
            owner[oid] = place
        if dim == 2:
            position = doc.point(rec.get("position", [0.0, 0.0]), place, "position")
            turn = doc.number(rec.get("angle", 0.0), place, "angle")
        else:
            position = doc.point3(rec.get("position", [0.0, 0.0, 0.0]), place, "position")
            quaternion = rec.get("rotation", [1.0, 0.0, 0.0, 0.0])
            if not isinstance(quaternion, list) or len(quaternion) != 4:
                doc.fail(f"{place}.rotation", "must be a unit quaternion [w, x, y, z]")
            turn = [doc.number(q, place, f"rotation[{a}]") for a, q in enumerate(quaternion)]
        out.append((ids, position, turn, place))
    return out


def make_bodies(world, bodies, path):
    """Make each of ``read_bodies``' bodies in the freshly loaded ``world`` and pose it."""
    for ids, position, turn, place in bodies:
        try:
            body = world.add_body(ids)
        except (ValueError, KeyError) as exc:     # a one-sided wall, say
            raise LevelError(path, f"{place}.obstacles", str(exc).strip("'\"")) from None
        try:
            world.set_pose(body, position, turn)
        except ValueError as exc:                 # not a unit quaternion, a tilted ground
            raise LevelError(path, place, str(exc)) from None
