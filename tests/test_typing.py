"""The type checker is clean on sidestep, and a game's strictly typed code checks against it.

mypy runs as the repository's configuration says (``[tool.mypy]`` in
pyproject.toml: strict on the public API, the Numba kernels seen as Any),
then ``--strict`` on a small game written to a temporary file, the way an
editor checks its user's code: every call there must resolve to an
annotated signature, and a misspelt mode, family or axis must be an error
before it is a ``ValueError`` at run time.
"""
import importlib.resources
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="the type checker is not installed (the test extra has it)")

ROOT = Path(__file__).resolve().parents[1]

#: A game's use of the public API, each result declared with the type an
#: editor should show for it.
GAME = '''
import math
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

import sidestep
from sidestep.volumes import Box, Containment, Frustum, Sphere, contains_spheres


def top_down(level_file: Path) -> float:
    world = sidestep.World2D()
    trees: NDArray[np.int64] = world.add_circles([(0.0, 1.0), (2.0, 0.0)], 0.5)
    walls: NDArray[np.int64] = world.add_walls([(-5.0, -3.0)], [(5.0, -3.0)], clearance=0.25)
    move: sidestep.Move = world.move((0.0, -2.0), (3.0, -3.0), radius=0.2)
    end: NDArray[np.float64] = move.position
    for contact in move.contacts:
        normal: NDArray[np.float64] = contact.normal
        fraction: float = contact.fraction
    gap: float = world.clearance((1.0, 2.0))
    field: NDArray[np.float64] = world.clearance([(0.0, 0.0), (1.0, 1.0)])
    ends: NDArray[np.float64] = world.move_many(np.zeros((4, 2)), np.ones((4, 2)),
                                                radius=0.1, mode="push")
    hits: sidestep.RayHits = world.raycast(np.zeros((2, 2)), [(1.0, 0.0), (0.0, 1.0)], 10.0)
    radii: NDArray[np.float64] = world.geometry("circle")["radii"]
    crowd = sidestep.Crowd(world, [(-1.0, 0.0), (1.0, 0.0)], radii=0.4)
    step: sidestep.CrowdStep = crowd.step([(0.3, 0.0), (-0.3, 0.0)], mode="slide")
    hero = sidestep.Agent(world, (0.0, 1.0), radius=0.5)
    x, y = hero.step(1.0, -2.0)
    level: sidestep.Level = sidestep.load(level_file, scenarios=None)
    saved: Path = sidestep.save(level.world, level_file.with_suffix(".json"))
    return gap + x + y + float(end[0]) + float(np.sum(field))


def first_person() -> str:
    world = sidestep.World3D(up="y")
    floor: NDArray[np.int64] = world.add_boxes([(-10.0, -1.0, -10.0)], [(10.0, 0.0, 10.0)])
    ramp: int = world.add_mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)], sides="front")
    move: sidestep.Move = world.move((0.0, 1.0, 0.0), (1.0, 0.0, 0.0), radius=0.25, height=1.8)
    hero = sidestep.Character(world, feet=(0.0, 0.0, 0.0), radius=0.3, height=1.8)
    stop: str = hero.update((2.0, 0.0, 0.0), 1 / 60)
    touches: tuple[sidestep.Touch, ...] = hero.contacts
    feet: NDArray[np.float64] = hero.position
    view = Frustum.perspective((0.0, 1.7, 0.0), (0.0, 1.7, -1.0), (0.0, 1.0, 0.0),
                               math.pi / 2, 16 / 9, 0.1, 100.0)
    seen: NDArray[np.int64] = world.query(view).obstacle
    states: NDArray[np.int8] = contains_spheres(view, [(0.0, 1.0, -5.0)], 1.0)
    held: bool = Box((0, 0, 0), (2, 2, 2)).contains(Sphere((1, 1, 1), 0.5)) is Containment.CONTAINS
    crowd = sidestep.Crowd3D(world, [(-1.0, 0.91, 0.0), (1.0, 0.91, 0.0)], radii=0.3,
                             heights=1.8)
    step: sidestep.CrowdStep = crowd.step([(0.3, 0.0, 0.0), (-0.3, 0.0, 0.0)], mode="slide")
    pairs: NDArray[np.int64] = step.touching
    return stop
'''

#: Misspelt options, one per line from line 3: each must be a type error there.
TYPOS = '''
import sidestep
sidestep.World2D().move((0.0, 0.0), (1.0, 0.0), mode="slid")
sidestep.World2D().geometry("circles")
sidestep.World3D(up="w")
sidestep.Crowd(sidestep.World2D(), [(0.0, 0.0)], 0.5).step([(1.0, 0.0)], mode="push")
sidestep.Crowd3D(sidestep.World3D(), [(0.0, 0.0, 0.0)], 0.5, 1.8).step([(1.0, 0.0, 0.0)], mode="push")
'''


def _mypy(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def test_mypy_is_clean_on_the_configured_modules():
    run = _mypy()                      # the files and the strictness pyproject.toml names
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("Success: no issues found"), run.stdout


def test_a_strictly_typed_game_checks_and_typos_do_not(tmp_path):
    game = tmp_path / "game.py"
    game.write_text(textwrap.dedent(GAME))
    typos = tmp_path / "typos.py"
    typos.write_text(textwrap.dedent(TYPOS))
    # Its own cache: the test may run beside the one above.
    run = _mypy("--strict", "--cache-dir", str(tmp_path / "cache"), str(game), str(typos))
    errors = re.findall(r"^(\S+?\.py):(\d+): error: (.*)$", run.stdout, flags=re.M)
    assert not [e for e in errors if e[0].endswith("game.py")], run.stdout
    wrong = {int(line): message for path, line, message in errors if path.endswith("typos.py")}
    assert sorted(wrong) == [3, 4, 5, 6, 7], run.stdout
    assert all("incompatible type" in m and "Literal" in m for m in wrong.values()), run.stdout
    assert len(errors) == 5, run.stdout


def test_the_package_is_marked_typed():
    # PEP 561: without py.typed beside the modules, a type checker treats an
    # installed sidestep as untyped.
    marker = importlib.resources.files("sidestep").joinpath("py.typed")
    assert marker.is_file()
    assert marker.read_bytes() == b""
