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

A body's velocity (its last ``set_pose``'s motion) is not kept: the loaded
body is at rest.
"""
import numpy as np

from ..level import LevelError

_BODY_KEYS = ({"obstacles"}, {"obstacles", "position", "angle"})


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


def body_records(world, rank):
    """The ``"bodies"`` records of a ``World2D``; ``rank`` maps a world id to its file id."""
    st = world._store
    out = []
    for body, members in enumerate(st.bodies.members):
        live = members[st.alive.view()[members] != 0]
        if not len(live):
            continue
        position, angle = world.pose(body)
        out.append({"obstacles": [rank[i] for i in live.tolist()],
                    "position": position.tolist(), "angle": angle})
    return out


# ====================================================================== load
def read_bodies(doc, value, count):
    """``[(ids, position, angle, place)]`` of a file's ``bodies`` (``count`` obstacles)."""
    owner = {}
    out = []
    for i, rec in enumerate(doc.sequence(value, "bodies")):
        place = f"bodies[{i}]"
        doc.record(rec, place, "bodies", *_BODY_KEYS)
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
        position = doc.point(rec.get("position", [0.0, 0.0]), place, "position")
        angle = doc.number(rec.get("angle", 0.0), place, "angle")
        out.append((ids, position, angle, place))
    return out


def make_bodies(world, bodies, path):
    """Make each of ``read_bodies``' bodies in the freshly loaded ``world`` and pose it."""
    for ids, position, angle, place in bodies:
        try:
            body = world.add_body(ids)
        except (ValueError, KeyError) as exc:     # a one-sided wall, say
            raise LevelError(path, f"{place}.obstacles", str(exc).strip("'\"")) from None
        world.set_pose(body, position, angle)
