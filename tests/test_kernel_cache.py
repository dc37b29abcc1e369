"""Compiling ahead of time: the entry kernels' signatures, warmup, and its worker processes."""
import json
import os
import subprocess
import sys

import pytest

import sidestep
from sidestep.kernel_cache import COMMANDS, KERNELS, PARTS, is_cached, kernel, warmup

# Every call path of the API and the commands, in a fresh interpreter; then
# the signatures each entry kernel was compiled or loaded for.
_USE_EVERY_KERNEL = """
import json, numpy as np, sidestep
from sidestep.commands.check import check
from sidestep.kernel_cache import KERNELS, kernel
from sidestep.level import Level
world = sidestep.World2D()
world.add_circles([(0, 1), (1, 0)], 1.0)
world.add_walls([(-6, -3)], [(6, -3)], clearance=0.5)
world.add_boxes([(3, 2)], [(4, 3)])
world.add_polygon([(-4, 2), (-3, 1.5), (-2.5, 3), (-3.5, 2.6)])
world.add_grid(np.eye(4, dtype=bool), cell_size=0.5, origin=(4, -2))
for mode in sidestep.MODES:
    world.move((0.0, -1.5), (3.0, -2.0), radius=0.25, mode=mode)
    world.move_many([(0.0, -1.5), (2.0, 5.0)], [(1.0, 0.0), (0.0, 1.0)], radius=0.25, mode=mode)
sidestep.Agent(world, (0.0, -1.5), radius=0.25).step(0.1, 0.0)
world.move_many(np.zeros((600, 2)) + (0.0, -1.5), np.ones((600, 2)), radius=[0.2] * 600)
world.clearance((0, 0)); world.clearance([(0, 0), (1, 1)]); world.nearest([(5, 5)])
world.raycast([(-5.0, 0.0)], [(1.0, 0.0)]); world.raycast((-5, 0), (1, 1), max_distance=3)
world.overlapping((3.5, 2.5), 0.1)
world.cast((0.0, -1.5), (3.0, -2.0), radius=0.25)
world.cast_many(np.zeros((600, 2)) + (0.0, -1.5), np.ones((600, 2)), radius=0.25)
world.remove([0]); world.move((0.0, -1.5), (3.0, -2.0), radius=0.25)
check(Level(world, np.array([[0.0, -1.5]])), 0.3)
crowd = sidestep.Crowd(world, [(-5.0, 5.0), (-3.0, 5.0)], 0.3)
crowd.step([(1.0, 0.0), (-1.0, 0.0)]).touching
crowd.step([(1.0, 0.0), (-1.0, 0.0)])         # a second step: agents at rest are told
bar = world.add_body(world.add_walls([(-4.0, 4.0)], [(-2.0, 4.0)], 0.1))
world.set_pose(bar, (0.0, 0.5), 0.3)
crowd.step([(1.0, 0.0), (-1.0, 0.0)])         # a body moved: it sweeps past the agents
crowd.step([(1.0, 0.0), (-1.0, 0.0)], avoid=True)   # avoiding its neighbours
heavy = sidestep.Crowd(world, [(-5.0, 7.0), (-4.35, 7.0)], 0.3, weights=[np.inf, 1.0])
heavy.step([(0.3, 0.0), (0.0, 0.0)])          # a player's push sent on ahead of it
queue = sidestep.Crowd(world, [(4.35, 2.5), (4.96, 2.5)], 0.3)
for _ in range(2):                            # following the one ahead; the box stops it
    queue.step(np.tile([(-0.2, 0.0)], (2, 1)))
walker = sidestep.Agent(world, (-3.0, 4.6), radius=0.25)
world.set_pose(bar, (0.0, 0.6), 0.4)
walker.step(0.0, 0.0)
w2 = sidestep.World2D()
blade = w2.add_body(w2.add_walls([(0.0, 0.0)], [(3.0, 0.0)], 0.05))
pushed = sidestep.Crowd(w2, [(1.5, 0.3), (1.5, 0.71)], 0.2)
w2.set_pose(blade, (0.0, 0.0), 0.15)
pushed.step(np.zeros((2, 2)))                 # the blade carries one into the other
w3 = sidestep.World3D()
w3.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
w3.add_mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), np.array([[0, 1, 2]]))
w3.add_spheres([(3, 3, 3)], 1.0)
w3.add_cylinders([(2, 0, 2)], 0.5, 2.0)
for mode in sidestep.MODES:
    w3.move((0, 1, 0), (1, 0, 0), radius=0.3, height=1.8, mode=mode)
w3.move_many(np.zeros((600, 3)) + (0, 1, 0), np.ones((600, 3)), radius=0.3, mode=mode)
w3.raycast([(0, 5, 0)], [(0, -1, 0)])
w3.raycast(np.zeros((5000, 3)) + (0, 5, 0), np.tile([0, -1.0, 0], (5000, 1)))
mesh_only = sidestep.World3D()
mesh_only.add_mesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), np.array([[0, 1, 2]]))
mesh_only.raycast([(0.2, 0.2, 1.0)], [(0, 0, -1.0)])
w3.nearest([(0, 5, 0)]); w3.clearance(np.zeros((600, 3))); w3.overlapping((0, 1, 0), 0.3, 1.8)
w3.cast((0, 5, 0), (0, -10, 0), radius=0.3); w3.cast_many(np.zeros((5000, 3)), np.ones((5000, 3)))
crowd3 = sidestep.Crowd3D(w3, [(-3.0, 1.0, 0.0), (-1.0, 1.0, 0.0)], 0.3, 1.8)
crowd3.step([(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0)]).touching
crowd3.step([(1.0, 0.0, 0.0), (-1.0, 0.0, 0.0)])
queue3 = sidestep.Crowd3D(w3, [(2.85, 1.0, 2.0), (3.46, 1.0, 2.0)], 0.3, 1.8)
for _ in range(2):                            # following the one ahead; a cylinder stops it
    queue3.step(np.tile([(-0.2, 0.0, 0.0)], (2, 1)))
hero = sidestep.Character(w3, (0, 0, 0), 0.3, 1.8)
hero.update((1, 0, 0), 0.1)
w3.translate([0], (0, 0.1, 0))
hero.update((1, 0, 0), 0.1)
door = w3.add_body(w3.add_boxes([(6, 0, 6)], [(7, 1, 7)]))
w3.clearance((0, 0, 0))
w3.set_pose(door, (0.1, 0, 0), (1, 0, 0, 0))
w3.set_poses([door], [(0.2, 0, 0)], [np.eye(3)])
hero.update((1, 0, 0), 0.1)                   # a body moved, far from it: bodies_near
w3.set_pose(door, (-6.2, 0, -6.5), (1, 0, 0, 0))
hero.update((1, 0, 0), 0.1)                   # one moved onto it: push_from_bodies
hall = sidestep.World3D()                     # untranslated: the batch frame's kernel
hall.add_boxes([(-5, -1, -5)], [(5, 0, 5)])
gate = hall.add_body(hall.add_boxes([(1.0, 0.0, -1.0)], [(1.1, 2.0, 1.0)]))
guards = [sidestep.Character(hall, (0.5, 0, 0), 0.3, 1.8)]
hall.set_pose(gate, (-0.3, 0, 0), (1, 0, 0, 0))
sidestep.Character.update_many(guards, [(1.0, 0, 0)], 0.1)   # pushed by the gate
lift = hall.add_body(hall.add_boxes([(-4, 0, -4)], [(-3, 0.2, -3)]))
rider = sidestep.Character(hall, (-3.5, 0.2, -3.5), 0.3, 1.8)
hall.set_pose(lift, (0, 0.05, 0), (1, 0, 0, 0))
rider.update((0, 0, 0), 0.1)                  # on a body that moved: ride_of
import math
from sidestep import volumes
from sidestep.volumes import Box, Capsule, Frustum, Point, Ray, Segment, Sphere
cam = Frustum.perspective((0, 0, 5), (0, 0, 0), (0, 1, 0), math.pi / 4, 1.0, 1.0, 100.0)
shapes = [Box((0, 0, 0), (1, 1, 1)), Sphere((0, 0, 0), 1.0), Point((0, 0, 0)),
          Segment((0, 0, 0), (1, 1, 1)), Ray((0, 0, 0), (1, 0, 0)),
          Capsule((0, 0, 0), (1, 0, 0), 0.5), cam]
for a in shapes:
    [(a.contains(b), a.intersects(b)) for b in shapes]
    Ray((0, 0, 9), (0, 0, -1)).distance_along(a)
    m = np.zeros((3, 3))
    volumes.contains_boxes(a, m, m + 1); volumes.contains_spheres(a, m, np.ones(3))
    volumes.contains_points(a, m); volumes.distances_along(a, m, m + 1); w3.query(a)
Sphere.enclosing(np.eye(3))
world.query(Frustum.wedge((0, 0), (1, 0), 1.0, 0.1, 10.0))
print(json.dumps({name: [str(s) for s in kernel(name)[0].signatures] for name in KERNELS}))
"""


def test_api_calls_each_entry_kernel_with_its_one_registered_signature():
    done = subprocess.run([sys.executable, "-c", _USE_EVERY_KERNEL], capture_output=True,
                          text=True, check=True)
    used = json.loads(done.stdout.splitlines()[-1])
    parts = {part for names in PARTS.values() for part in names}
    for name in set(KERNELS) - parts:
        assert used[name] == [str(kernel(name)[1])], name


@pytest.mark.parametrize("entries", [
    ("moves:move_packed", "world:nearest_points", "crowd:crowd_step", "cast:cast_points"),
    ("kernels3d.moves:move_agent", "kernels3d.world:nearest_points",
     "kernels3d.character:update_frame", "kernels3d.crowd:crowd_step")], ids=["2d", "3d"])
def test_each_part_is_compiled_for_its_registered_signature_by_what_calls_it(tmp_path,
                                                                              entries):
    # On an empty cache, the entry kernels compiled here compile their parts
    # here too: for the signature warmup compiles them for (else the entry
    # kernel would compile them again instead of loading them).
    script = ("import json, sys\n"
              "from sidestep.kernel_cache import PARTS, kernel, _with_parts\n"
              "for name in sys.argv[1:]:\n"
              "    dispatcher, signature = kernel(name)\n"
              "    dispatcher.compile(signature)\n"
              "parts = [p for p in _with_parts(sys.argv[1:]) if p not in sys.argv[1:]]\n"
              "print(json.dumps({p: [str(s) for s in kernel(p)[0].signatures] for p in parts}))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script, *entries], capture_output=True,
                          text=True, env=env, check=True)
    used = json.loads(done.stdout.splitlines()[-1])
    wrong = {part: sigs for part, sigs in used.items() if str(kernel(part)[1]) not in sigs}
    assert used and not wrong, wrong


def test_warmup_leaves_every_kernel_cached_and_a_second_one_compiles_nothing():
    warmup()          # all cores: compiling every kernel in one process takes minutes
    assert all(is_cached(name) for name in KERNELS)
    again = warmup()
    assert again.compiled == () and again.processes == 0
    assert set(again.cached) == set(KERNELS)


def test_warmup_compiles_in_worker_processes_into_the_cache(tmp_path):
    # A fresh, empty cache: two cheap kernels, one worker each; the parent
    # then finds both in the cache instead of compiling them.
    script = ("from sidestep.kernel_cache import warmup, is_cached\n"
              "names = ['polygon:signed_area_polygon', 'grid:pyramid_grid']\n"
              "done = warmup(names, processes=2)\n"
              "print(sorted(done.compiled) == sorted(names), done.processes,\n"
              "      all(is_cached(n) for n in names))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    assert done.stdout.split() == ["True", "2", "True"]
    assert any(name.endswith(".nbi") for _, _, files in os.walk(tmp_path) for name in files)


def test_the_demo_compiles_nothing_once_its_kernels_are_warmed_up(tmp_path):
    # COMMANDS["demo"] is what the demo calls, all of it (on an empty cache:
    # nothing else is there to load): the demo then compiles nothing itself.
    script = ("import io, matplotlib\n"
              "matplotlib.use('Agg')\n"
              "from sidestep.kernel_cache import COMMANDS, warmup\n"
              "from sidestep.commands.compile_notice import CompileNotice\n"
              "from sidestep.demo import run_demo\n"
              "warmup(COMMANDS['demo'])\n"
              "with CompileNotice(stream=io.StringIO()) as notice:\n"
              f"    run_demo(out={str(tmp_path / 'demo.png')!r})\n"
              "print('compiled here:', notice.shown)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    assert done.stdout.splitlines()[-1] == "compiled here: False"


def test_warmup_refuses_unknown_kernels_and_bad_process_counts():
    with pytest.raises(ValueError, match="unknown kernel 'moves:nothing'"):
        warmup(["moves:nothing"])
    with pytest.raises(ValueError, match="processes"):
        warmup(processes=0)


def test_every_command_lists_known_kernels_and_warmup_lists_them_all():
    assert all(set(names) <= set(KERNELS) for names in COMMANDS.values())
    assert set(COMMANDS["warmup"]) == set(KERNELS)
    assert sidestep.warmup is warmup


def test_warmup_command_says_what_it_compiled_and_where_the_cache_is():
    warmup()
    done = subprocess.run([sys.executable, "-m", "sidestep", "warmup"], capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("compiled 0 kernels in ")
    assert f"{len(KERNELS)} were cached; cache: " in done.stdout
    assert done.stderr == ""   # nothing compiled: no notice


def test_warmup_compiles_a_kernels_parts_before_it_in_worker_processes(tmp_path):
    # probe_point's parts (inside_areas, separation_item) compile first, in
    # parallel; probe_point then loads them from the cache.
    script = ("from sidestep.kernel_cache import warmup, is_cached\n"
              "done = warmup(['world:probe_point'], processes=2)\n"
              "print(*done.compiled, done.processes, is_cached('world:inside_areas'))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    *compiled, processes, cached = done.stdout.split()
    assert sorted(compiled[:2]) == ["world:inside_areas", "world:separation_item"]
    assert compiled[2:] == ["world:probe_point"]
    assert processes == "2" and cached == "True"


def test_every_part_is_a_known_kernel_compiled_before_whatever_needs_it():
    from sidestep.kernel_cache import _schedule, _with_parts

    assert all(set(parts) | {name} <= set(KERNELS) for name, parts in PARTS.items())
    order = _schedule(_with_parts(["moves:move_packed", "world:nearest_points"]))
    for name, parts in PARTS.items():
        if name in order:
            assert all(order.index(part) < order.index(name) for part in parts), name


def _workers(pid):
    """Process ids of the workers ``pid`` spawned (Linux: read from /proc).

    Its other child, multiprocessing's resource tracker, is left out.
    """
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    spawned = b"spawn_main" in f.read()
            except OSError:
                continue
            if parent == pid and spawned:
                found.append(int(entry))
    return found


def _alive(pid):
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_for(condition, seconds):
    import time

    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _kill_parent_and_see_workers_go(args, env, workers, ready):
    # Start Python with ``args``, wait for its ``workers`` child processes and until
    # ``ready(pid)`` holds for each, SIGKILL that process, and return
    # the workers still running 5 s later (killing them, to leave none behind).
    import signal

    parent = subprocess.Popen([sys.executable, *args], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    children = []
    try:
        assert _wait_for(lambda: len(_workers(parent.pid)) >= workers, 20), \
            parent.stderr.read() if parent.poll() is not None else "no workers started"
        children = _workers(parent.pid)
        assert _wait_for(lambda: all(ready(c) for c in children), 40)
        assert all(_alive(c) for c in children)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        _wait_for(lambda: not any(_alive(c) for c in children), 5)
        return [c for c in children if _alive(c)]
    finally:
        parent.kill()
        parent.wait()
        for c in children:
            if _alive(c):
                os.kill(c, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers in /proc")
def test_compile_workers_exit_when_their_parent_is_killed_mid_compile(tmp_path):
    # A first run killed with SIGKILL (a test runner's timeout, an IDE's stop
    # button) while its two workers compile the 2D move into an empty cache:
    # killed once a first kernel is in the cache (so the workers run tasks,
    # past their start) and each worker has compiled for two seconds.
    script = ("from sidestep.kernel_cache import warmup\n"
              "warmup(['moves:move_packed'], processes=2)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))

    def compiling(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                cpu = sum(map(int, f.read().rsplit(")", 1)[1].split()[11:13]))
        except OSError:
            return False
        return cpu > 2 * os.sysconf("SC_CLK_TCK") and any(tmp_path.rglob("*.nbi"))

    assert _kill_parent_and_see_workers_go(["-c", script], env, 2, compiling) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers in /proc")
def test_a_worker_without_the_linux_signal_still_exits_when_its_parent_is_killed(tmp_path):
    # The watchdog thread alone (what macOS and Windows have): a spawned
    # process that waits for nothing, as an idle pool worker does, killed
    # once it says it is set up.
    script = tmp_path / "parent.py"
    script.write_text("import multiprocessing, os, pathlib, sys, time\n"
                      "from sidestep.kernel_cache import _exit_with_parent\n"
                      "def idle(parent, ready):\n"
                      "    _exit_with_parent(parent, signal_on_linux=False)\n"
                      "    (pathlib.Path(ready) / str(os.getpid())).touch()\n"
                      "    time.sleep(120)\n"
                      "if __name__ == '__main__':\n"
                      "    context = multiprocessing.get_context('spawn')\n"
                      "    child = context.Process(target=idle, args=(os.getpid(), sys.argv[1]))\n"
                      "    child.start()\n"
                      "    child.join()\n")
    ready = tmp_path / "ready"
    ready.mkdir()
    assert _kill_parent_and_see_workers_go([str(script), str(ready)], dict(os.environ), 1,
                                           lambda pid: (ready / str(pid)).exists()) == []
