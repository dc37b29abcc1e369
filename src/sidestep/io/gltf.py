"""glTF 2.0 level geometry (``.glb`` binary or ``.gltf`` JSON): every mesh node, placed.

Read with the standard library and NumPy. trimesh reads the same files (the
tests check both give the same triangles), but its scene graph renames nodes
with random suffixes when names repeat or a mesh has several primitives, so
it cannot say which node a triangle came from; and a bad file surfaces as
its ``KeyError`` or ``IndexError``, where a level reader must name the
accessor, buffer or node at fault.

What is read: the default scene (``scene``, else the first; with no scenes,
every root node), each node's transform (``matrix`` or translation, rotation,
scale) composed down the tree, and each mesh primitive's ``POSITION`` and
``indices`` in modes triangles, strip and fan. Accessors may be sparse, and
positions quantized (``KHR_mesh_quantization``: integer, normalized or not).
Points and lines have no surface: skipped and reported. Compressed meshes
(Draco, meshopt) are refused. Skins and morph targets are ignored (the mesh
as stored, placed by its node).

**Spawns**: nodes without a mesh whose name starts with ``spawn``,
``start`` or ``player_start`` / ``playerstart`` / ``player start`` (any
case), such as an empty named ``Spawn.001`` placed in Blender; their
world-space origin is a spawn.

glTF is +y up, in metres (the specification's convention).
"""
import base64
import binascii
import json
import math
import re
import struct
from urllib.parse import unquote

import numpy as np

from ..level import LevelError
from ..tolerances import MAX_COORDINATE

#: ``componentType`` codes: their NumPy dtype (little-endian).
COMPONENTS = {5120: np.dtype("<i1"), 5121: np.dtype("<u1"), 5122: np.dtype("<i2"),
              5123: np.dtype("<u2"), 5125: np.dtype("<u4"), 5126: np.dtype("<f4")}
#: Numbers per element of each accessor ``type``.
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
#: Primitive modes: triangles, triangle strip, triangle fan. 0-3 are points and lines.
TRIANGLE_MODES = (4, 5, 6)
#: Required extensions that change how geometry is stored and are not read.
REFUSED_EXTENSIONS = ("KHR_draco_mesh_compression", "EXT_meshopt_compression")
#: Required extensions (prefixes) that leave the triangles as they are, or are read.
HARMLESS_EXTENSIONS = ("KHR_materials_", "KHR_texture_", "KHR_lights_punctual",
                       "KHR_mesh_quantization", "EXT_texture_")
#: Mesh-less nodes whose name matches are spawns.
SPAWN_NAME = re.compile(r"^(spawn|start|player[ _]?start)", re.IGNORECASE)
#: Elements an accessor without a bufferView (all zeros, or sparse) may hold; a
#: corrupt count must not ask for terabytes.
MAX_UNBACKED = 1 << 26

_GLB_MAGIC = b"glTF"
_CHUNK_JSON = 0x4E4F534A
_CHUNK_BIN = 0x004E4942


def parse_gltf(path):
    """Read a glTF or GLB file's triangles, placed by their nodes.

    Parameters
    ----------
    path : Path

    Returns
    -------
    vertices : (n, 3) float64
        In world space (node transforms applied); may hold NaN/inf where the
        file does.
    triangles : (m, 3) int64
    triangle_parts : (m,) int64
        Index into ``parts`` of each triangle.
    parts : tuple of str
        One per mesh node placed, ``"nodes[i] name"``, in scene order.
    spawns : (k, 3) float64
    problems : list of str

    Raises
    ------
    LevelError
        Naming the place: ``header``, ``JSON chunk``, ``buffers[i]``,
        ``bufferViews[i]``, ``accessors[i]``, ``meshes[i].primitives[j]``,
        ``nodes[i]``, ``scenes[i]``.
    """
    data = path.read_bytes()
    if path.suffix.lower() == ".glb" and data[:4] != _GLB_MAGIC:
        raise LevelError(path, "header", f"a GLB file starts with b'glTF', got {data[:4]!r}")
    if data[:4] == _GLB_MAGIC:
        doc, binary = _glb(path, data)
    else:
        doc, binary = _json(path, data, "JSON"), None
    return _Reader(path, doc, binary).read()


# ------------------------------------------------------------------ container
def _glb(path, data):
    """The JSON document and the BIN chunk (or None) of a GLB file."""
    if len(data) < 20:
        raise LevelError(path, "header", f"a GLB file starts with a 12-byte header and a "
                         f"chunk header; the file has {len(data)} bytes")
    version, length = struct.unpack_from("<II", data, 4)
    if version != 2:
        raise LevelError(path, "header", f"GLB version {version}; only glTF 2.0 is read")
    if length != len(data):
        raise LevelError(path, "header", f"the header says the file has {length} bytes, but it "
                         f"has {len(data)} (truncated or padded)")
    chunks, offset = [], 12
    while offset < len(data):
        if offset + 8 > len(data):
            raise LevelError(path, f"chunk {len(chunks)}", "the file ends inside a chunk header")
        size, kind = struct.unpack_from("<II", data, offset)
        if offset + 8 + size > len(data):
            raise LevelError(path, f"chunk {len(chunks)}", f"the chunk says it holds {size} "
                             f"bytes, but only {len(data) - offset - 8} follow")
        chunks.append((kind, data[offset + 8:offset + 8 + size]))
        offset += 8 + size
    if not chunks or chunks[0][0] != _CHUNK_JSON:
        raise LevelError(path, "chunk 0", "the first chunk of a GLB file must be JSON")
    binary = chunks[1][1] if len(chunks) > 1 and chunks[1][0] == _CHUNK_BIN else None
    return _json(path, chunks[0][1], "JSON chunk"), binary


def _json(path, raw, place):
    """The glTF document (a dict) from JSON bytes."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise LevelError(path, place, f"not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise LevelError(path, f"{place} line {exc.lineno} column {exc.colno}",
                         f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise LevelError(path, place, "JSON nested too deeply") from None
    if not isinstance(doc, dict):
        raise LevelError(path, place, "a glTF document is a JSON object")
    return doc


# ---------------------------------------------------------------------- reader
class _Reader:
    """One glTF document read against its buffers; every look-up checked."""

    def __init__(self, path, doc, binary):
        self.path = path
        self.doc = doc
        self.binary = binary
        self.buffers = {}
        self.accessors = {}
        self.problems = []

    def fail(self, place, message):
        raise LevelError(self.path, place, message)

    # -- JSON look-ups ----------------------------------------------------
    def array(self, key):
        value = self.doc.get(key, [])
        if not isinstance(value, list):
            self.fail(key, "must be a JSON array")
        return value

    def item(self, key, index, place):
        """``doc[key][index]`` as a dict; ``index`` must be a whole number in range."""
        items = self.array(key)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(items):
            self.fail(place, f"refers to {key}[{index!r}], but the file has {len(items)} {key}")
        value = items[index]
        if not isinstance(value, dict):
            self.fail(f"{key}[{index}]", "must be a JSON object")
        return value

    def whole(self, obj, key, place, default=None, low=0):
        value = obj.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.fail(place, f"{key} must be a whole number >= {low}, got {value!r}")
        return value

    def numbers(self, obj, key, size, place):
        value = obj[key]
        if not isinstance(value, list) or len(value) != size or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in value):
            self.fail(place, f"{key} must be {size} finite numbers")
        return np.array(value, dtype=np.float64)

    # -- data ---------------------------------------------------------------
    def buffer(self, index, place):
        spec = self.item("buffers", index, place)      # checks index first
        if index in self.buffers:
            return self.buffers[index]
        where = f"buffers[{index}]"
        length = self.whole(spec, "byteLength", where, low=1)
        uri = spec.get("uri")
        if uri is None:
            if index != 0 or self.binary is None:
                self.fail(where, "has no uri, and only buffer 0 of a GLB file may (the BIN "
                          "chunk); this file has no BIN chunk" if self.binary is None
                          else "has no uri; only buffer 0 of a GLB file may")
            data = self.binary
        elif not isinstance(uri, str):
            self.fail(where, "uri must be a string")
        elif uri.startswith("data:"):
            head, _, payload = uri.partition(",")
            if not head.endswith(";base64"):
                self.fail(where, "a data uri must be base64 (data:...;base64,...)")
            try:
                data = base64.b64decode(payload, validate=True)
            except (binascii.Error, ValueError):
                self.fail(where, "the data uri is not valid base64")
        elif re.match(r"^[A-Za-z][A-Za-z0-9+.-]+:", uri):
            self.fail(where, f"uri {uri[:80]!r} is not a file beside the glTF file or a "
                      "data uri; nothing is fetched")
        else:
            file = self.path.parent / unquote(uri)
            try:
                data = file.read_bytes()
            except (OSError, ValueError) as exc:       # ValueError: a NUL in the name
                self.fail(where, f"cannot read its file {uri[:80]!r} beside the glTF file: "
                          f"{getattr(exc, 'strerror', None) or exc}")
        if len(data) < length:
            self.fail(where, f"byteLength is {length}, but its data holds {len(data)} bytes")
        self.buffers[index] = data[:length]
        return self.buffers[index]

    def view(self, index, place):
        """The bytes of ``bufferViews[index]`` and its stride (None: packed)."""
        spec = self.item("bufferViews", index, place)
        where = f"bufferViews[{index}]"
        data = self.buffer(spec.get("buffer"), where)
        offset = self.whole(spec, "byteOffset", where, default=0)
        length = self.whole(spec, "byteLength", where, low=1)
        if offset + length > len(data):
            self.fail(where, f"bytes {offset} to {offset + length} lie beyond its buffer's "
                      f"{len(data)}")
        stride = spec.get("byteStride")
        if stride is not None:
            stride = self.whole(spec, "byteStride", where, low=4)
            if stride > 252 or stride % 4:
                self.fail(where, f"byteStride must be a multiple of 4 from 4 to 252, got {stride}")
        return data[offset:offset + length], stride

    def accessor(self, index, place, types):
        """``accessors[index]`` as an ``(count, width)`` float64 array.

        ``types``: the accessor types allowed here.
        """
        key = (index, types)
        if isinstance(index, int) and key in self.accessors:
            return self.accessors[key]
        spec = self.item("accessors", index, place)
        where = f"accessors[{index}]"
        kind = spec.get("type")
        if kind not in types:
            self.fail(where, f"type must be {' or '.join(types)} here ({place}), got {kind!r}")
        dtype = _component(spec.get("componentType"))
        if dtype is None:
            self.fail(where, f"componentType {spec.get('componentType')!r} is not one of "
                      f"{sorted(COMPONENTS)}")
        width = WIDTHS[kind]
        count = self.whole(spec, "count", where, low=1)
        if "bufferView" in spec:
            raw, stride = self.view(spec["bufferView"], where)
            offset = self.whole(spec, "byteOffset", where, default=0)
            size = dtype.itemsize * width
            stride = stride or size
            end = offset + stride * (count - 1) + size
            if end > len(raw):
                self.fail(where, f"{count} {kind} elements from byte {offset} need {end} bytes; "
                          f"its bufferView holds {len(raw)}")
            values = np.ndarray((count, width), dtype=dtype, buffer=raw, offset=offset,
                                strides=(stride, dtype.itemsize)).astype(np.float64)
        else:
            if count > MAX_UNBACKED:
                self.fail(where, f"count {count} without a bufferView is beyond "
                          f"{MAX_UNBACKED}")
            values = np.zeros((count, width))
        if "sparse" in spec:
            self.sparse(spec["sparse"], values, dtype, width, where)
        if spec.get("normalized", False) is True and dtype.kind in "iu":
            scale = float(np.iinfo(dtype).max)
            values = np.maximum(values / scale, -1.0)
        self.accessors[key] = values
        return values

    def sparse(self, sparse, values, dtype, width, where):
        """Write a sparse accessor's substitutions into ``values``."""
        place = f"{where}.sparse"
        if not isinstance(sparse, dict) or not isinstance(sparse.get("indices"), dict) \
                or not isinstance(sparse.get("values"), dict):
            self.fail(place, "must hold count, indices and values")
        count = self.whole(sparse, "count", place, low=1)
        if count > len(values):
            self.fail(place, f"count {count} exceeds the accessor's {len(values)} elements")
        spec_i, spec_v = sparse["indices"], sparse["values"]
        index_type = _component(spec_i.get("componentType"))
        if index_type is None or index_type.kind != "u":
            self.fail(place, "indices.componentType must be 5121, 5123 or 5125")
        rows = self.packed(spec_i, count, index_type, 1, f"{place}.indices")[:, 0]
        if rows.max() >= len(values):
            self.fail(f"{place}.indices", f"index {int(rows.max())} is past the accessor's "
                      f"{len(values)} elements")
        values[rows.astype(np.int64)] = self.packed(spec_v, count, dtype, width,
                                                    f"{place}.values")

    def packed(self, spec, count, dtype, width, place):
        """``count`` tightly packed elements at ``spec``'s bufferView and byteOffset."""
        raw, _ = self.view(spec.get("bufferView"), place)
        offset = self.whole(spec, "byteOffset", place, default=0)
        end = offset + count * width * dtype.itemsize
        if end > len(raw):
            self.fail(place, f"{count} elements from byte {offset} need {end} bytes; its "
                      f"bufferView holds {len(raw)}")
        return np.frombuffer(raw, dtype=dtype, count=count * width,
                             offset=offset).reshape(count, width).astype(np.float64)

    # -- geometry -----------------------------------------------------------
    def primitive(self, mesh_index, k, spec):
        """``(positions (p, 3), triangles (t, 3))`` of one primitive; None if it has no surface."""
        where = f"meshes[{mesh_index}].primitives[{k}]"
        if not isinstance(spec, dict):
            self.fail(where, "must be a JSON object")
        mode = spec.get("mode", 4)
        if isinstance(mode, bool) or mode not in (0, 1, 2, 3, 4, 5, 6):
            self.fail(where, f"mode must be 0 to 6, got {mode!r}")
        attributes = spec.get("attributes")
        if not isinstance(attributes, dict) or "POSITION" not in attributes:
            self.fail(where, "has no attributes.POSITION")
        positions = self.accessor(attributes["POSITION"], f"{where}.attributes.POSITION",
                                  ("VEC3",))
        if mode not in TRIANGLE_MODES:
            return None
        if "indices" in spec:
            index = spec["indices"]
            values = self.accessor(index, f"{where}.indices", ("SCALAR",))
            component = self.item("accessors", index, where).get("componentType")
            if component not in (5121, 5123, 5125):
                self.fail(f"accessors[{index}]", f"indices ({where}) must be unsigned "
                          f"integers (componentType 5121, 5123 or 5125), got {component!r}")
            order = values[:, 0].astype(np.int64)
            if order.max() >= len(positions):
                self.fail(f"accessors[{index}]", f"index {int(order.max())} ({where}.indices) "
                          f"is past the {len(positions)} positions of accessors"
                          f"[{attributes['POSITION']}]")
        else:
            order = np.arange(len(positions), dtype=np.int64)
        if mode == 4 and len(order) % 3:
            source = f"accessors[{spec['indices']}]" if "indices" in spec else \
                f"accessors[{attributes['POSITION']}]"
            self.fail(source, f"{len(order)} corners for separate triangles ({where}, mode 4) "
                      "is not a multiple of 3")
        return positions, _triangulate(order, mode)

    def node_matrix(self, index, spec):
        where = f"nodes[{index}]"
        if "matrix" in spec:
            # Column-major, as glTF stores it.
            return self.numbers(spec, "matrix", 16, where).reshape(4, 4).T
        m = np.eye(4)
        if "scale" in spec:
            m = np.diag(np.append(self.numbers(spec, "scale", 3, where), 1.0))
        if "rotation" in spec:
            m = _rotation(self.numbers(spec, "rotation", 4, where)) @ m
        if "translation" in spec:
            m[:3, 3] += self.numbers(spec, "translation", 3, where)
        return m

    def roots(self):
        scenes = self.array("scenes")
        if not scenes:
            nodes = self.array("nodes")
            children = set()
            for i in range(len(nodes)):
                got = self.item("nodes", i, f"nodes[{i}]").get("children", [])
                if isinstance(got, list):
                    children.update(c for c in got if isinstance(c, int))
            return [i for i in range(len(nodes)) if i not in children], "nodes"
        default = self.doc.get("scene", 0)
        scene = self.item("scenes", default, "scene")
        roots = scene.get("nodes", [])
        if not isinstance(roots, list):
            self.fail(f"scenes[{default}]", "nodes must be a JSON array")
        return roots, f"scenes[{default}]"

    def read(self):
        required = self.doc.get("extensionsRequired", [])
        if not isinstance(required, list):
            self.fail("extensionsRequired", "must be a JSON array")
        refused = [e for e in required if e in REFUSED_EXTENSIONS]
        if refused:
            self.fail("extensionsRequired", f"{refused[0]} (compressed meshes) is not read; "
                      "export without compression")
        unknown = [str(e)[:60] for e in required if not str(e).startswith(HARMLESS_EXTENSIONS)]
        if unknown:
            self.problems.append(f"{self.path.name}: extensionsRequired lists "
                                 f"{', '.join(unknown)}, which this reader does not apply; "
                                 "the geometry is read as stored")
        asset = self.doc.get("asset")
        version = asset.get("version") if isinstance(asset, dict) else None
        if not isinstance(version, str) or not version.startswith("2."):
            self.fail("asset", f"asset.version must be '2.x' (glTF 2), got {version!r}")
        roots, place = self.roots()
        vertices, triangles, parts, triangle_parts, spawns = [], [], [], [], []
        n_vertices, skipped = 0, 0
        seen = set()
        stack = [(r, np.eye(4), place) for r in reversed(roots)]
        while stack:
            index, parent, place = stack.pop()
            spec = self.item("nodes", index, place)
            if index in seen:
                self.fail(f"nodes[{index}]", "is reached twice (a node has one parent and the "
                          "tree no cycle)")
            seen.add(index)
            world = parent @ self.node_matrix(index, spec)
            name = spec.get("name")
            name = name if isinstance(name, str) else ""
            children = spec.get("children", [])
            if not isinstance(children, list):
                self.fail(f"nodes[{index}]", "children must be a JSON array")
            stack.extend((c, world, f"nodes[{index}].children")
                         for c in reversed(children))
            if "mesh" not in spec:
                if SPAWN_NAME.match(name):
                    spawns.append(world[:3, 3].copy())
                continue
            mesh_index = spec["mesh"]
            mesh = self.item("meshes", mesh_index, f"nodes[{index}]")
            primitives = mesh.get("primitives")
            if not isinstance(primitives, list) or not primitives:
                self.fail(f"meshes[{mesh_index}]", "primitives must be a non-empty JSON array")
            part = len(parts)
            parts.append(f"nodes[{index}] {name}".rstrip())
            # A mirroring transform (negative determinant) turns front faces
            # clockwise (glTF 2.0, 3.7.4): reversed, they run counter-clockwise
            # seen from the front again, as World3D's sides="front" expects.
            mirrored = np.linalg.det(world[:3, :3]) < 0.0
            for k, primitive in enumerate(primitives):
                got = self.primitive(mesh_index, k, primitive)
                if got is None:
                    skipped += 1
                    continue
                positions, tris = got
                placed = positions @ world[:3, :3].T + world[:3, 3]
                vertices.append(placed)
                triangles.append((tris[:, ::-1] if mirrored else tris) + n_vertices)
                triangle_parts.append(np.full(len(tris), part, dtype=np.int64))
                n_vertices += len(placed)
        if skipped:
            self.problems.append(f"{self.path.name}: {skipped} point or line primitives "
                                 "skipped: they have no surface")
        vertices = np.concatenate(vertices) if vertices else np.zeros((0, 3))
        with np.errstate(invalid="ignore"):
            beyond = np.abs(vertices) > MAX_COORDINATE
        if np.any(beyond & np.isfinite(vertices)):
            self.fail("nodes", f"a placed corner lies beyond +-{MAX_COORDINATE:g}")
        return (vertices,
                np.concatenate(triangles) if triangles else np.zeros((0, 3), np.int64),
                np.concatenate(triangle_parts) if triangle_parts else np.zeros(0, np.int64),
                tuple(parts),
                np.array(spawns, dtype=np.float64).reshape(-1, 3),
                self.problems)


def _component(code):
    """The dtype of a ``componentType`` code, or None if it is not one."""
    if isinstance(code, bool) or not isinstance(code, int):
        return None
    return COMPONENTS.get(code)


def _triangulate(order, mode):
    """Triangles ``(t, 3)`` from the vertex order of a primitive in ``mode`` 4, 5 or 6."""
    if mode == 4:
        return order.reshape(-1, 3)
    if len(order) < 3:
        return np.zeros((0, 3), dtype=np.int64)
    i = np.arange(len(order) - 2)
    if mode == 5:
        # A strip flips every other triangle to keep one winding (glTF 2.0, 3.7.2.1).
        even = i % 2 == 0
        return np.column_stack([order[i], np.where(even, order[i + 1], order[i + 2]),
                                np.where(even, order[i + 2], order[i + 1])])
    return np.column_stack([np.full(len(i), order[0]), order[i + 1], order[i + 2]])


def _rotation(q):
    """The 4x4 matrix of the unit quaternion ``q = (x, y, z, w)`` (normalised first)."""
    norm = np.linalg.norm(q)
    x, y, z, w = q / norm if norm > 0 else (0.0, 0.0, 0.0, 1.0)
    m = np.eye(4)
    m[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                 [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                 [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return m
