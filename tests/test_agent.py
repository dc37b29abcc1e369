"""``Agent``: the per-frame fast path gives exactly what ``World2D.move`` gives."""
import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE
from worlds import FAMILIES, make_world


@pytest.mark.parametrize("mode", sidestep.MODES)
def test_steps_equal_world_moves(mode):
    world = make_world(FAMILIES, seed=3)
    rng = np.random.default_rng(0)
    agent = sidestep.Agent(world, (10.0, 10.0), radius=0.3, mode=mode)
    p = agent.position
    for d in rng.normal(0, 1.0, (300, 2)):
        m = world.move(p, d, radius=0.3, mode=mode)
        xy = agent.step(float(d[0]), float(d[1]))
        assert xy == (m.position[0], m.position[1])
        assert agent.stop == m.stop
        assert [c.obstacle for c in agent.contacts] == [c.obstacle for c in m.contacts]
        p = m.position
        if mode == "slide":
            assert world.clearance(p) >= 0.3 - PROMISE


def test_steps_take_any_real_numbers():
    # Python ints, NumPy scalars: the same move as the floats they stand for.
    world = sidestep.World2D()
    world.add_walls([(-5.0, 0.0)], [(5.0, 0.0)])
    a = sidestep.Agent(world, (0.0, 1.0), radius=0.5)
    b = sidestep.Agent(world, (0.0, 1.0), radius=0.5)
    for dx, dy in [(1, -2), (np.float32(0.5), np.int64(1)), (True, 0)]:
        assert a.step(dx, dy) == b.step(float(dx), float(dy))


def test_sees_obstacles_added_and_removed_after_it_was_made():
    world = sidestep.World2D()
    agent = sidestep.Agent(world, (0.0, 0.0), radius=0.5)
    wall = world.add_walls([(2.0, -5.0)], [(2.0, 5.0)])
    assert agent.step(5.0, 0.0)[0] == pytest.approx(1.5, abs=1e-5)
    world.remove(wall)
    assert agent.step(5.0, 0.0)[0] == pytest.approx(6.5, abs=1e-5)


def test_position_can_be_set_and_bad_steps_are_refused():
    world = sidestep.World2D()
    agent = sidestep.Agent(world, (0.0, 0.0))
    agent.position = (3.0, 4.0)
    assert agent.position.tolist() == [3.0, 4.0]
    with pytest.raises(ValueError, match="finite"):
        agent.step(float("nan"), 0.0)
    with pytest.raises(TypeError, match="displacement must be real numbers"):
        agent.step("left", 0.0)
    with pytest.raises(ValueError, match="displacement.*within"):
        agent.step(10 ** 400, 0.0)
    with pytest.raises(ValueError, match="displacement.*within"):
        agent.step(0.0, -1e300)
    with pytest.raises(TypeError, match="displacement must be real numbers"):
        agent.step(1 + 2j, 0.0)
    with pytest.raises(TypeError, match="displacement must be real numbers"):
        agent.step(np.complex128(0.5 + 9j), 0.0)
    with pytest.raises(ValueError, match="displacement must be finite"):
        agent.step(np.float16("inf"), 0.0)     # within range if compared as a float16
    with pytest.raises(ValueError, match="position"):
        agent.position = (1e13, 0.0)
    with pytest.raises(ValueError, match="radius"):
        sidestep.Agent(world, (0.0, 0.0), radius=-1.0)
    with pytest.raises(ValueError, match="mode"):
        sidestep.Agent(world, (0.0, 0.0), mode="fly")
    assert agent.position.tolist() == [3.0, 4.0]
