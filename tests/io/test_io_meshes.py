"""3D level meshes (``sidestep.io.meshes``): OBJ and glTF/GLB read as triangle soups.

trimesh is the independent reader the results are checked against: the same
triangles, corner for corner, on every mesh of ``../shared/data/meshes``
(skipped where that folder is absent) and on the small files written here.
"""
import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

from sidestep import validation
from sidestep.io.meshes import MeshLevel, read_mesh
from sidestep.level import LevelError

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")

#: Each shared mesh: triangles and zero-area triangles as SOURCES.md gives them.
SHARED = {
    "recast/dungeon.obj": (10133, 0),
    "recast/nav_test.obj": (1612, 0),
    "recast/undulating.obj": (5202, 0),
    "sauerbraten/pandora.obj": (60810, 116),
    "godot_demos/room.glb": (63720, 0),
    "godot_demos/living_room.glb": (5088, 3537),
    "kenney/platformer-diorama.glb": (5164, 4),
}


# ----------------------------------------------------------------- helpers
def corner_rows(vertices, triangles):
    """Each triangle as its 9 coordinates, rows sorted: a comparable triangle set.

    Each triangle starts at its smallest corner (x, then y, then z) and keeps
    its winding, so (a, b, c) and (b, c, a) compare equal and (a, c, b) not.
    """
    corners = np.asarray(vertices, dtype=np.float64)[np.asarray(triangles)].reshape(-1, 3, 3)
    rank = np.argsort(np.lexsort(corners.reshape(-1, 3).T[::-1])).reshape(-1, 3)
    start = np.argmin(rank, axis=1)
    turn = (start[:, None] + np.arange(3)) % 3
    rows = np.take_along_axis(corners, turn[:, :, None], axis=1).reshape(-1, 9)
    return rows[np.lexsort(rows.T[::-1])]


def trimesh_triangles(path):
    """Corners of every triangle of non-zero area, as trimesh reads the file (transforms applied).

    trimesh is in the ``test`` extra; only the cross-checks need it.
    """
    import trimesh
    kw = {"skip_materials": True} if path.suffix == ".obj" else {}
    scene = trimesh.load(str(path), force="scene", process=False, **kw)
    rows = []
    for node in scene.graph.nodes_geometry:
        transform, name = scene.graph[node]
        geometry = scene.geometry[name]
        placed = trimesh.transformations.transform_points(geometry.vertices, transform)
        rows.append(placed[geometry.faces[geometry.area_faces > 0]])
    return corner_rows(np.concatenate(rows).reshape(-1, 3),
                       np.arange(sum(len(r) for r in rows) * 3).reshape(-1, 3))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def refused(path, place, match=""):
    """``read_mesh(path)`` raises a LevelError naming the file and ``place``."""
    with pytest.raises(LevelError, match=match) as info:
        read_mesh(path)
    assert info.value.file == str(path)
    assert info.value.place == place, str(info.value)
    assert path.name in str(info.value)
    return info.value


def gltf_doc(positions, indices=None, nodes=None, mode=None, extra_nodes=()):
    """A glTF document with one mesh and its binary buffer.

    ``positions (p, 3)`` as float32, ``indices`` as uint16 (None: unindexed);
    ``nodes`` the node list (default: one node holding the mesh).
    """
    positions = np.asarray(positions, dtype="<f4").reshape(-1, 3)
    blob = positions.tobytes()
    views = [{"buffer": 0, "byteOffset": 0, "byteLength": len(blob)}]
    accessors = [{"bufferView": 0, "componentType": 5126, "count": len(positions),
                  "type": "VEC3"}]
    primitive = {"attributes": {"POSITION": 0}}
    if indices is not None:
        raw = np.asarray(indices, dtype="<u2").reshape(-1).tobytes()
        raw += b"\0" * (-len(raw) % 4)
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(raw)})
        accessors.append({"bufferView": 1, "componentType": 5123,
                          "count": int(np.size(indices)), "type": "SCALAR"})
        primitive["indices"] = 1
        blob += raw
    if mode is not None:
        primitive["mode"] = mode
    nodes = nodes if nodes is not None else [{"name": "thing", "mesh": 0}]
    nodes = list(nodes) + list(extra_nodes)
    doc = {"asset": {"version": "2.0"}, "scene": 0,
           "scenes": [{"nodes": [i for i, n in enumerate(nodes) if not n.get("_child")]}],
           "nodes": [{k: v for k, v in n.items() if k != "_child"} for n in nodes],
           "meshes": [{"name": "thing", "primitives": [primitive]}],
           "accessors": accessors, "bufferViews": views,
           "buffers": [{"byteLength": len(blob)}]}
    return doc, blob


def glb_bytes(doc, blob):
    """A GLB file: header, JSON chunk, BIN chunk (both padded to 4 bytes)."""
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    blob = blob + b"\0" * (-len(blob) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text
    if blob:
        body += struct.pack("<II", len(blob), 0x004E4942) + blob
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


TRIANGLE = [(0, 0, 0), (1, 0, 0), (0, 0, 1)]


# ------------------------------------------------------------- shared meshes
@needs_data
@pytest.mark.parametrize("rel", sorted(SHARED))
def test_every_shared_mesh_loads_with_the_triangles_trimesh_reads(rel):
    path = DATA / "meshes" / rel
    level = read_mesh(path)
    total, zero = SHARED[rel]
    assert isinstance(level, MeshLevel)
    assert len(level.triangles) == total - zero
    validation.mesh(level.vertices, level.triangles)     # finite, in range, right shapes
    assert level.triangle_parts.shape == (len(level.triangles),)
    assert 0 <= level.triangle_parts.min() and level.triangle_parts.max() < len(level.parts)
    assert level.up == "y" and level.name == path.stem
    assert (zero > 0) == any("zero-area" in p for p in level.problems)
    # The same triangles as trimesh's, to the last bit, transforms applied.
    mine = corner_rows(level.vertices, level.triangles)
    theirs = trimesh_triangles(path)
    assert mine.shape == theirs.shape
    np.testing.assert_array_equal(mine, theirs)


@needs_data
def test_living_room_reports_its_zero_area_triangles_by_node():
    level = read_mesh(DATA / "meshes/godot_demos/living_room.glb")
    assert level.problems == ("living_room.glb: 3537 zero-area triangles of 5088 dropped "
                              "(nodes[0] Cube: 3537)",)
    assert level.parts == ("nodes[0] Cube", "nodes[1] Cylinder")


@needs_data
def test_the_diorama_keeps_one_part_per_placed_node():
    level = read_mesh(DATA / "meshes/kenney/platformer-diorama.glb")
    assert len(level.parts) == 44
    assert level.parts[0] == "nodes[0] barrel"
    # The 44 pieces hang under the node "Level": each part is a distinct node.
    assert len(set(level.parts)) == 44
    assert len(np.unique(level.triangle_parts)) == 44


@needs_data
def test_sauerbraten_groups_are_parts_and_the_level_is_y_up():
    level = read_mesh(DATA / "meshes/sauerbraten/pandora.obj")
    assert len(level.parts) == 206 and all(p.startswith("slot") for p in level.parts)
    extent = level.vertices.max(axis=0) - level.vertices.min(axis=0)
    # /writeobj writes (-y, z, x): the engine's height is the file's y, the
    # smallest extent of this flat indoor level, and the floor starts at y = 0.
    np.testing.assert_allclose(extent, (1472, 448, 832), atol=1)
    assert level.vertices[:, 1].min() == 0.0


# ------------------------------------------------------------------ glTF
def test_node_transforms_place_the_triangles(tmp_path):
    # A parent with a matrix (translation 10 along x), a child with a
    # translation, a quarter turn about y and a scale of 2.
    half = math.sqrt(0.5)
    matrix = np.eye(4)
    matrix[:3, 3] = (10, 0, 0)
    nodes = [{"name": "root", "matrix": matrix.T.reshape(-1).tolist(), "children": [1]},
             {"name": "child", "mesh": 0, "translation": [0, 5, 0],
              "rotation": [0, half, 0, half], "scale": [2, 2, 2], "_child": True}]
    doc, blob = gltf_doc(TRIANGLE, nodes=nodes)
    path = write(tmp_path, "placed.glb", glb_bytes(doc, blob))
    level = read_mesh(path)
    # Rotating (x, z) by +90 degrees about y sends +x to -z and +z to +x.
    expected = [(10, 5, 0), (10, 5, -2), (12, 5, 0)]
    np.testing.assert_allclose(level.vertices, expected, atol=1e-12)
    assert level.parts == ("nodes[1] child",)
    np.testing.assert_allclose(corner_rows(level.vertices, level.triangles),
                               trimesh_triangles(path), atol=1e-6)


def test_a_mirroring_node_keeps_front_faces_counter_clockwise(tmp_path):
    # A mirror in x sends the front side's normal n to (-nx, ny, nz); the
    # corners as placed run clockwise seen from there, so the reader reverses them.
    corners = np.array([(1.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0.0, 0.0, 3.0)])
    front = np.cross(corners[1] - corners[0], corners[2] - corners[0])      # (6, 3, 2)
    nodes = [{"name": "mirror", "mesh": 0, "scale": [-1, 1, 1]}]
    doc, blob = gltf_doc(corners, nodes=nodes)
    level = read_mesh(write(tmp_path, "mirror.glb", glb_bytes(doc, blob)))
    a, b, c = level.vertices[level.triangles[0]]
    np.testing.assert_array_equal(np.cross(b - a, c - a), front * (-1, 1, 1))


def test_two_nodes_sharing_a_mesh_are_two_parts(tmp_path):
    nodes = [{"name": "a", "mesh": 0}, {"name": "a", "mesh": 0, "translation": [0, 3, 0]}]
    doc, blob = gltf_doc(TRIANGLE, nodes=nodes)
    level = read_mesh(write(tmp_path, "twice.glb", glb_bytes(doc, blob)))
    assert level.parts == ("nodes[0] a", "nodes[1] a")
    assert level.triangle_parts.tolist() == [0, 1]
    assert level.vertices[level.triangles[1], 1].tolist() == [3, 3, 3]


def test_gltf_zero_area_triangles_are_dropped_and_counted(tmp_path):
    corners = TRIANGLE + [(2, 0, 0)]
    doc, blob = gltf_doc(corners, indices=[0, 1, 2, 0, 1, 3, 1, 1, 2])
    level = read_mesh(write(tmp_path, "flat.glb", glb_bytes(doc, blob)))
    assert level.triangles.tolist() == [[0, 1, 2]]
    assert level.problems == ("flat.glb: 2 zero-area triangles of 3 dropped "
                              "(nodes[0] thing: 2)",)


def test_nan_corners_drop_their_triangles_and_leave_the_vertices(tmp_path):
    corners = TRIANGLE + [(np.nan, 0, 0)]
    doc, blob = gltf_doc(corners, indices=[0, 1, 2, 0, 1, 3])
    level = read_mesh(write(tmp_path, "nan.glb", glb_bytes(doc, blob)))
    assert level.triangles.tolist() == [[0, 1, 2]]
    assert np.isfinite(level.vertices).all() and len(level.vertices) == 3
    assert "1 NaN/inf-cornered triangle of 2 dropped" in level.problems[0]


def test_strips_and_fans_become_triangles(tmp_path):
    square = [(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)]
    doc, blob = gltf_doc(square, mode=5)
    strip = read_mesh(write(tmp_path, "strip.glb", glb_bytes(doc, blob)))
    # Triangle i of a strip is (i, i + 1 + i % 2, i + 2 - i % 2), keeping one
    # winding (glTF 2.0, section 3.7.2.1).
    assert strip.triangles.tolist() == [[0, 1, 2], [1, 3, 2]]
    doc, blob = gltf_doc([(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)], mode=6)
    fan = read_mesh(write(tmp_path, "fan.glb", glb_bytes(doc, blob)))
    assert fan.triangles.tolist() == [[0, 1, 2], [0, 2, 3]]


def test_points_and_lines_are_skipped_and_reported(tmp_path):
    doc, blob = gltf_doc(TRIANGLE, mode=1)
    level = read_mesh(write(tmp_path, "lines.glb", glb_bytes(doc, blob)))
    assert level.triangles.shape == (0, 3)
    assert "1 point or line primitives skipped" in level.problems[0]
    assert "holds no triangles" in level.problems[-1]


def test_gltf_spawns_are_empty_nodes_named_spawn_or_start(tmp_path):
    extra = [{"name": "Spawn.001", "translation": [1, 2, 3]},
             {"name": "player_start", "translation": [4, 5, 6]},
             {"name": "Camera", "translation": [7, 8, 9]}]
    doc, blob = gltf_doc(TRIANGLE, extra_nodes=extra)
    level = read_mesh(write(tmp_path, "spawns.glb", glb_bytes(doc, blob)))
    assert level.spawns.tolist() == [[1, 2, 3], [4, 5, 6]]


def test_required_extensions_not_applied_are_reported(tmp_path):
    doc, blob = gltf_doc(TRIANGLE)
    doc["extensionsRequired"] = ["KHR_materials_unlit", "EXT_mesh_gpu_instancing"]
    level = read_mesh(write(tmp_path, "instanced.glb", glb_bytes(doc, blob)))
    assert level.problems == ("instanced.glb: extensionsRequired lists EXT_mesh_gpu_instancing, "
                              "which this reader does not apply; the geometry is read as "
                              "stored",)


def test_a_gltf_with_its_buffer_beside_it_loads(tmp_path):
    doc, blob = gltf_doc(TRIANGLE)
    doc["buffers"][0]["uri"] = "mesh%20data.bin"
    write(tmp_path, "mesh data.bin", blob)
    level = read_mesh(write(tmp_path, "beside.gltf", json.dumps(doc)))
    np.testing.assert_array_equal(level.vertices, TRIANGLE)


def test_sparse_and_quantized_positions_are_read(tmp_path):
    # Positions as normalized uint8 (KHR_mesh_quantization), corner 2 replaced sparsely.
    raw = np.array([0, 0, 0, 255, 0, 0, 9, 9, 9], dtype="u1").tobytes() + b"\0" * 3
    sparse_index = np.array([2], dtype="<u2").tobytes() + b"\0\0"
    sparse_value = np.array([0, 0, 255], dtype="u1").tobytes() + b"\0"
    blob = raw + sparse_index + sparse_value
    doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
           "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
           "accessors": [{"bufferView": 0, "componentType": 5121, "normalized": True,
                          "count": 3, "type": "VEC3",
                          "sparse": {"count": 1, "indices": {"bufferView": 1,
                                                             "componentType": 5123},
                                     "values": {"bufferView": 2}}}],
           "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 12},
                           {"buffer": 0, "byteOffset": 12, "byteLength": 4},
                           {"buffer": 0, "byteOffset": 16, "byteLength": 4}],
           "buffers": [{"byteLength": len(blob)}]}
    level = read_mesh(write(tmp_path, "quantized.glb", glb_bytes(doc, blob)))
    np.testing.assert_array_equal(level.vertices, TRIANGLE)
    assert level.parts == ("nodes[0]",)


# ------------------------------------------------------------------- OBJ
def test_obj_polygons_are_fanned_and_groups_are_parts(tmp_path):
    text = ("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 0 1 0\n"
            "f 1 2 3 4\n"
            "o crate\ng lid\nf 1/1/1 2//1 5\n"
            "g\nf -5 -4 -1\n")
    path = write(tmp_path, "room.obj", "vt 0 0\nvn 0 1 0\n" + text)
    level = read_mesh(path)
    assert level.triangles.tolist() == [[0, 1, 2], [0, 2, 3], [0, 1, 4], [0, 1, 4]]
    assert level.parts == ("room", "lid", "default")
    assert level.triangle_parts.tolist() == [0, 0, 1, 2]
    assert level.spawns.shape == (0, 3) and level.problems == ()
    np.testing.assert_array_equal(corner_rows(level.vertices, level.triangles),
                                  trimesh_triangles(path))


def test_obj_zero_area_and_nan_triangles_are_dropped_and_counted(tmp_path):
    text = ("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 2 0 0\nv nan 0 0\n"
            "f 1 2 3\nf 1 2 4\nf 1 1 3\nf 1 2 5\n")
    level = read_mesh(write(tmp_path, "bad.obj", text))
    assert level.triangles.tolist() == [[0, 1, 2]]
    assert len(level.vertices) == 4 and np.isfinite(level.vertices).all()
    assert level.problems == (
        "bad.obj: 2 zero-area triangles of 4 dropped (bad: 2; first at line 7)",
        "bad.obj: 1 NaN/inf-cornered triangle of 4 dropped (bad: 1; first at line 9)")


def test_obj_faces_of_fewer_than_three_corners_are_dropped_and_counted_with_their_line(
        tmp_path):
    # An edge ("f 1 2", as samurai_monastry.obj has) and a point ("f 3") among
    # good faces: the good ones load, the short ones go, named by their lines.
    text = ("o floor\nv 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\n"
            "f 1 2 3\nf 1/1 2/1\ng trim\nf 2 4 3\nf 3\nf 2 3 4\n")
    path = write(tmp_path, "short.obj", "vt 0 0\n" + text)
    level = read_mesh(path)
    assert level.triangles.tolist() == [[0, 1, 2], [1, 3, 2], [1, 2, 3]]
    assert level.parts == ("floor", "trim")
    assert level.problems == (
        "short.obj: 2 faces of fewer than three corners dropped (floor: 1, trim: 1; first at "
        "line 8)",)
    np.testing.assert_array_equal(corner_rows(level.vertices, level.triangles),
                                  trimesh_triangles(path))


@pytest.mark.parametrize("face, match", [
    ("f 1 9", "indexes corner 9, but the file has 4"),
    ("f 1 x", "whole number"),
    ("f -7", "before the first"),
    ("f 0", "start at 1"),
])
def test_a_short_face_that_cannot_be_read_is_still_refused(tmp_path, face, match):
    text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\n" + face + "\nf 2 4 3\n"
    refused(write(tmp_path, "short.obj", text), "line 6", match)


def test_obj_part_names_are_utf8_or_latin1(tmp_path):
    faces = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n"
    utf8 = write(tmp_path, "u.obj", ("g caf\u00e9\n" + faces).encode("utf-8"))
    latin = write(tmp_path, "l.obj", ("g caf\u00e9\n" + faces).encode("latin-1"))
    assert read_mesh(utf8).parts == read_mesh(latin).parts == ("caf\u00e9",)


def test_lines_and_points_in_an_obj_are_skipped_and_reported(tmp_path):
    text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nl 1 2\np 3\nf 1 2 3\n"
    level = read_mesh(write(tmp_path, "wire.obj", text))
    assert len(level.triangles) == 1
    assert any("1 line ('l') statements skipped" in p for p in level.problems)


def test_up_is_the_format_convention_unless_given(tmp_path):
    path = write(tmp_path, "t.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n")
    assert read_mesh(path).up == "y"
    level = read_mesh(path, up="z")
    assert level.up == "z"
    np.testing.assert_array_equal(level.vertices, TRIANGLE)     # nothing rotated
    with pytest.raises(ValueError, match="up must be"):
        read_mesh(path, up="x")


def test_missing_files_and_other_extensions_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_mesh(tmp_path / "nothing.obj")
    refused(write(tmp_path, "level.stl", "solid"), None, "unknown extension")


# --------------------------------------------------------- broken copies
OBJ = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n"


@pytest.mark.parametrize("text, place, match", [
    (OBJ + "f 1 2 7\n", "line 5", "indexes corner 7, but the file has 3"),
    ("v 0 0 0\nv 1 0.0.0 0\nv 0 0 1\nf 1 2 3\n", "line 2", "expected a number"),
    ("v 0 0 0\nv 1 0\nv 0 0 1\nf 1 2 3\n", "line 2", "needs three numbers"),
    (OBJ + "f 0 1 2\n", "line 5", "start at 1"),
    (OBJ + "f -4 1 2\n", "line 5", "before the first"),
    (OBJ + "f 1/9 2 3\n", "line 5", "indexes vt 9"),
    (OBJ + "f 1/x 2 3\n", "line 5", "whole number"),
    (OBJ + "v 1e300 0 0\n", "line 5", "beyond"),
    (OBJ + "vx 0 0 0\n", "line 5", "unknown statement 'vx'"),
])
def test_broken_obj_files_name_the_line(tmp_path, text, place, match):
    refused(write(tmp_path, "broken.obj", text), place, match)


@needs_data
def test_broken_copies_of_a_shared_obj_name_the_line(tmp_path):
    raw = (DATA / "meshes/recast/dungeon.obj").read_bytes()
    lines = raw.split(b"\n")
    first_face = next(i for i, line in enumerate(lines) if line.startswith(b"f "))
    # Truncated inside a face line: "f 12 13" and nothing more; that face is
    # an edge, dropped and named by its line, and the corners above it load.
    cut = raw[:raw.index(b"\n", raw.index(b"\nf ", len(raw) // 2) + 1)]
    cut = cut[:cut.rindex(b" ")]
    n = cut.count(b"\n") + 1
    level = read_mesh(write(tmp_path, "dungeon.obj", cut))
    assert len(level.vertices) == sum(line.startswith(b"v ") for line in cut.split(b"\n"))
    assert (f"dungeon.obj: 1 face of fewer than three corners dropped (dungeon: 1; first at "
            f"line {n})") in level.problems
    # The last 50 corners lost: the first face using one of them is named.
    kept = lines[:first_face - 50] + lines[first_face:]
    with pytest.raises(LevelError, match=r"indexes corner \d+, but the file has 5051") as info:
        read_mesh(write(tmp_path, "dungeon.obj", b"\n".join(kept)))
    assert info.value.place.startswith("line ")
    n = int(info.value.place.split()[1])
    assert kept[n - 1].startswith(b"f ")


def small_glb(**kw):
    doc, blob = gltf_doc(TRIANGLE + [(1, 0, 1)], indices=[0, 1, 2, 1, 3, 2], **kw)
    return doc, blob


def broken_glb(change):
    doc, blob = small_glb()
    change(doc)
    return glb_bytes(doc, blob)


@pytest.mark.parametrize("data, place, match", [
    (glb_bytes(*small_glb())[:-7], "header", "says the file has"),          # truncated
    (b"glTf" + glb_bytes(*small_glb())[4:], "header", "starts with"),
    (glb_bytes(*small_glb())[:16], "header", "12-byte header"),
    (glb_bytes(*small_glb()).replace(b'{"asset"', b'{{asset"', 1), "JSON chunk line 1 column 2",
     "not valid JSON"),
    (broken_glb(lambda d: d["accessors"][1].update(count=60)), "accessors[1]",
     "need 120 bytes; its bufferView holds 12"),
    (broken_glb(lambda d: d["meshes"][0]["primitives"][0].update(indices=7)),
     "meshes[0].primitives[0].indices", r"accessors\[7\]"),
    (broken_glb(lambda d: d["nodes"][0].update(mesh=3)), "nodes[0]", r"meshes\[3\]"),
    (broken_glb(lambda d: d["nodes"][0].update(children=[0])), "nodes[0]", "reached twice"),
    (broken_glb(lambda d: d["nodes"][0].update(translation=[0, "x", 0])), "nodes[0]",
     "3 finite numbers"),
    (broken_glb(lambda d: d["bufferViews"][0].update(byteLength=10 ** 6)), "bufferViews[0]",
     "beyond its buffer"),
    (broken_glb(lambda d: d["buffers"][0].update(byteLength=10 ** 6)), "buffers[0]",
     "its data holds"),
    (broken_glb(lambda d: d["accessors"][0].update(type="VEC2")), "accessors[0]",
     "type must be VEC3"),
    (broken_glb(lambda d: d.update(extensionsRequired=["KHR_draco_mesh_compression"])),
     "extensionsRequired", "compressed"),
    (broken_glb(lambda d: d.update(asset={"version": "1.0"})), "asset", "glTF 2"),
    (glb_bytes(small_glb()[0], b""), "buffers[0]", "no BIN chunk"),
])
def test_broken_glb_files_name_the_place(tmp_path, data, place, match):
    refused(write(tmp_path, "broken.glb", data), place, match)


def test_an_index_past_the_positions_names_the_accessor(tmp_path):
    doc, blob = gltf_doc(TRIANGLE, indices=[0, 1, 5])
    refused(write(tmp_path, "past.glb", glb_bytes(doc, blob)), "accessors[1]",
            r"index 5 .* past the 3 positions of accessors\[0\]")


def test_a_gltf_whose_buffer_file_is_missing_names_the_buffer(tmp_path):
    doc, _ = gltf_doc(TRIANGLE)
    doc["buffers"][0]["uri"] = "gone.bin"
    refused(write(tmp_path, "lost.gltf", json.dumps(doc)), "buffers[0]", "gone.bin")


@pytest.mark.parametrize("uri, words", [
    ("https://example.com/mesh.bin", "nothing is fetched"),
    ("mesh\u0000.bin", "cannot read its file"),
    (".", "cannot read its file"),
    ("data:application/octet-stream,abc", "must be base64"),
    ("data:application/octet-stream;base64,@@@", "not valid base64"),
])
def test_buffer_uris_that_are_no_readable_file_are_refused(tmp_path, uri, words):
    doc, _ = gltf_doc(TRIANGLE)
    doc["buffers"][0]["uri"] = uri
    refused(write(tmp_path, "uri.gltf", json.dumps(doc)), "buffers[0]", words)


@needs_data
def test_broken_copies_of_a_shared_glb_name_the_place(tmp_path):
    raw = (DATA / "meshes/godot_demos/room.glb").read_bytes()
    refused(write(tmp_path, "room.glb", raw[:len(raw) // 2]), "header", "says the file has")
    # One byte of the JSON chunk corrupted: a brace turned into a letter.
    corrupt = bytearray(raw)
    corrupt[20] = ord("x")
    refused(write(tmp_path, "room.glb", bytes(corrupt)), "JSON chunk line 1 column 1",
            "not valid JSON")
    # The BIN chunk cut short, with the header's length fixed to match.
    json_length = struct.unpack_from("<I", raw, 12)[0]
    bin_at = 20 + json_length
    short = bytearray(raw[:bin_at + 8 + 1000])
    struct.pack_into("<I", short, 8, len(short))
    struct.pack_into("<I", short, bin_at, 1000)
    refused(write(tmp_path, "room.glb", bytes(short)), "buffers[0]", "its data holds 1000")


# ------------------------------------------------------------------ fuzz
def mutations(data, rng, n):
    """``n`` copies of ``data`` with a few bytes changed, a cut, or a run of bytes repeated."""
    for _ in range(n):
        copy = bytearray(data)
        kind = rng.integers(3)
        if kind == 0:
            for _ in range(rng.integers(1, 4)):
                copy[rng.integers(len(copy))] = rng.integers(256)
        elif kind == 1:
            del copy[rng.integers(len(copy)):]
        else:
            at = rng.integers(len(copy))
            copy[at:at] = copy[at:at + rng.integers(1, 16)]
        yield bytes(copy)


def assert_read_or_refused(path):
    try:
        level = read_mesh(path)
    except LevelError as exc:
        assert exc.file == str(path)
        return "refused"
    validation.mesh(level.vertices, level.triangles)
    assert level.triangle_parts.shape == (len(level.triangles),)
    assert len(level.triangle_parts) == 0 or level.triangle_parts.max() < len(level.parts)
    assert np.isfinite(level.spawns).all()
    return "read"


@pytest.mark.parametrize("name, data", [
    ("fuzz.obj", ("o a\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nvt 0 0\nvn 0 1 0\n"
                  "g b\nf 1/1/1 2/1/1 3/1/1 4/1/1\nf -4 -3 -2\n").encode()),
    ("fuzz.glb", glb_bytes(*small_glb(extra_nodes=[{"name": "spawn", "translation": [1, 0, 0]}]))),
])
def test_mutated_files_are_read_or_refused_with_a_level_error(tmp_path, name, data):
    rng = np.random.default_rng(9)
    outcomes = []
    path = tmp_path / name
    for copy in mutations(data, rng, 400):
        path.write_bytes(copy)
        outcomes.append(assert_read_or_refused(path))
    # Both outcomes happen: the mutations reach past the first check.
    assert outcomes.count("read") >= 5 and outcomes.count("refused") >= 5


def json_leaves(value, path=()):
    """The path of every value inside a JSON document (dict keys and list indices)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_leaves(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from json_leaves(item, path + (i,))
    if path:
        yield path


def test_glb_documents_with_values_swapped_are_read_or_refused(tmp_path):
    # Byte mutations mostly break the JSON's syntax; swapping values reaches the
    # checks of every index, count, offset and type behind it.
    swaps = [-1, 0, 1, 2, 3, 5, 12, 2 ** 40, 1.5, "x", "VEC3", "SCALAR", 5121, 5126, None,
             [], {}, True, [0, 0], {"a": 1}]
    original, blob = small_glb(extra_nodes=[{"name": "spawn", "translation": [1, 0, 0]}])
    rng = np.random.default_rng(4)
    path = tmp_path / "swapped.glb"
    outcomes = []
    for _ in range(400):
        doc = json.loads(json.dumps(original))
        for _ in range(rng.integers(1, 4)):
            where = list(json_leaves(doc))
            *parents, last = where[rng.integers(len(where))]
            holder = doc
            for key in parents:
                holder = holder[key]
            holder[last] = json.loads(json.dumps(swaps[rng.integers(len(swaps))]))
        path.write_bytes(glb_bytes(doc, blob))
        outcomes.append(assert_read_or_refused(path))
    assert outcomes.count("read") >= 5 and outcomes.count("refused") >= 5
