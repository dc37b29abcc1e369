"""Seconds to read each mesh of ``../shared/data/meshes``: sidestep's readers beside trimesh.

sidestep's time is ``read_mesh`` in full (parse, place by node, drop and
report degenerate triangles); trimesh's is ``trimesh.load(force="scene",
process=False)`` plus placing every node's triangles in world space
(``skip_materials=True`` for OBJ), the nearest thing it does to the same job.
Both read the file from the page cache: the first of the repeats warms it.

Run: ``python benchmarks/mesh_load.py [--repeats R]`` (trimesh from the
``test`` extra). Prints the median and range over the repeats, per file.
"""
import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from sidestep.io.meshes import read_mesh

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "meshes"


def with_trimesh(path):
    """The file's triangles placed in world space, as trimesh reads them."""
    import trimesh
    kw = {"skip_materials": True} if path.suffix == ".obj" else {}
    scene = trimesh.load(str(path), force="scene", process=False, **kw)
    placed = []
    for node in scene.graph.nodes_geometry:
        transform, name = scene.graph[node]
        geometry = scene.geometry[name]
        placed.append(trimesh.transformations.transform_points(geometry.vertices,
                                                               transform)[geometry.faces])
    return np.concatenate(placed)


def timed(call, repeats):
    times = []
    for _ in range(repeats + 1):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times[1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"no meshes at {DATA}")
    print(f"{'file':34} {'triangles':>9}  {'sidestep s (range)':>24}  "
          f"{'trimesh s (range)':>24}  ratio")
    for path in sorted(p for p in DATA.glob("*/*") if p.suffix in (".obj", ".glb")):
        ours = timed(lambda: read_mesh(path), args.repeats)
        theirs = timed(lambda: with_trimesh(path), args.repeats)
        m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
        n = len(read_mesh(path).triangles)
        print(f"{path.parent.name + '/' + path.name:34} {n:9d}  "
              f"{m_ours:8.4f} ({min(ours):.4f}-{max(ours):.4f})  "
              f"{m_theirs:8.4f} ({min(theirs):.4f}-{max(theirs):.4f})  "
              f"{m_ours / m_theirs:5.2f}x")


if __name__ == "__main__":
    main()
