"""The Gymnasium environments: the checker, seeds, safety, a scripted walk, vector = single."""
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import sidestep
from sidestep.gym import ENV_ID, NavigateEnv, NavigateVectorEnv
from sidestep.gym.picture import AGENT, GOAL, SOLID, Picture
from sidestep.scenes import demo_world

TOL = 1e-9


def open_field():
    """A 40 x 40 field with five small trees: straight lines to a goal are rarely blocked."""
    world = sidestep.World2D()
    world.add_circles([(-10, 5), (8, -12), (3, 3), (14, 10), (-6, -9)], 0.6)
    return world, (-20.0, -20.0, 20.0, 20.0)


def test_passes_gymnasium_env_checker_without_warnings():
    env = gymnasium.make(ENV_ID, render_mode="rgb_array").unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught] == []


def test_make_vec_through_the_registry_gives_the_vector_env():
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, NavigateVectorEnv)
    obs, info = envs.reset(seed=5)
    assert obs.shape == (3, 19) and envs.observation_space.contains(obs)
    assert np.all(info["distance"] >= 2.0)          # min_goal_distance


def test_import_sidestep_does_not_import_gymnasium():
    out = subprocess.run([sys.executable, "-c",
                          "import sys, sidestep; print('gymnasium' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_same_seed_same_episode_other_seed_another():
    def episode(seed):
        env = NavigateEnv()
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        frames = [obs]
        for _ in range(40):
            obs, reward, *_ = env.step(env.action_space.sample())
            frames.append(np.r_[obs, reward])
        return env.position, env.goal, frames

    a, b, c = episode(7), episode(7), episode(8)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert all(np.array_equal(x, y) for x, y in zip(a[2], b[2]))
    assert not np.array_equal(a[1], c[1])


def test_reset_without_seed_continues_the_generator():
    env = NavigateEnv()
    env.reset(seed=3)
    first = env.goal
    env.reset()
    assert not np.array_equal(first, env.goal)
    env.reset(seed=3)
    assert np.array_equal(first, env.goal)


def test_starts_and_goals_leave_room_for_the_agent():
    world, _ = demo_world()
    env = NavigateEnv(world, radius=0.8)
    for seed in range(30):
        env.reset(seed=seed)
        assert world.clearance(env.position) >= 0.8
        assert world.clearance(env.goal) >= 0.8
        assert np.hypot(*(env.goal - env.position)) >= 2.0


def test_agent_never_ends_inside_an_obstacle_under_random_actions():
    # Steps of 2 m, four times the wall article's wall thickness, and many
    # agents at once, in the house among the trees.
    world, _ = demo_world()
    envs = NavigateVectorEnv(24, world, radius=0.5, step_length=2.0, max_episode_steps=60)
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    worst = np.inf
    touched = 0
    for _ in range(250):
        envs.step(rng.uniform(-1, 1, (24, 2)))
        clearance = world.clearance(envs.positions)
        worst = min(worst, clearance.min())
        touched += int(np.sum(clearance < 0.5 + 1e-3))
    assert worst >= 0.5 - TOL
    assert touched > 100          # the agents did press against obstacles


def test_heading_for_the_goal_reaches_it_in_an_open_field():
    world, area = open_field()
    env = NavigateEnv(world, area=area, rays=8, min_goal_distance=10.0)
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        start_distance, total, steps = info["distance"], 0.0, 0
        terminated = truncated = False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, info = env.step(obs[8:10])   # the goal's direction
            total += reward
            steps += 1
        assert terminated and info["arrived"] and info["distance"] <= 1.0
        assert steps <= np.ceil((start_distance - 1.0) / 0.5) + 3
        # Progress over step_length, less the step cost, plus the bonus.
        expected = (start_distance - info["distance"]) / 0.5 - 0.01 * steps + 10.0
        assert total == pytest.approx(expected, abs=1e-9)


def test_range_finder_reads_the_distance_to_walls():
    world = sidestep.World2D()
    world.add_walls([(4.0, -10.0), (-10.0, -2.0)], [(4.0, 10.0), (10.0, -2.0)])
    env = NavigateEnv(world, area=(-3, -1, 3, 9), rays=4, max_range=10.0, radius=0.3)
    obs, _ = env.reset(options={"start": (1.0, 0.0), "goal": (1.0, 5.0)})
    assert obs[:4] == pytest.approx([0.3, 1.0, 1.0, 0.2])    # +x 3 m, +y, -x nothing, -y 2 m
    assert obs[4:7] == pytest.approx([0.0, 1.0, 5.0 / np.hypot(6, 10)])
    obs, *_ = env.step(np.array([1.0, 0.0]))                          # half a metre to the wall
    assert obs[0] == pytest.approx(0.25)


def test_vector_agents_equal_single_envs_through_autoresets():
    world, _ = demo_world()
    options = dict(step_length=1.0, goal_radius=2.0, max_episode_steps=25, rays=12)
    n, seed, steps = 5, 11, 120
    envs = NavigateVectorEnv(n, world, **options)
    noise = np.random.default_rng(4).normal(0.0, 0.6, (steps, n, 2))
    obs, info = envs.reset(seed=seed)
    vec = [(obs, np.zeros(n), np.zeros(n, bool), np.zeros(n, bool))]
    for t in range(steps):
        actions = obs[:, 12:14] + noise[t]
        obs, reward, terminated, truncated, info = envs.step(actions)
        vec.append((obs, reward, terminated, truncated))
    ends = sum(int(v[2].sum()) for v in vec), sum(int(v[3].sum()) for v in vec)
    assert ends[0] > 0 and ends[1] > 0            # arrivals and time-outs both happened

    for i in range(n):
        env = NavigateEnv(world, **options)
        obs, _ = env.reset(seed=seed + i)
        assert np.array_equal(obs, vec[0][0][i])
        done = False
        for t in range(steps):
            if done:                               # the vector env's autoreset step
                obs, _ = env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                obs, reward, terminated, truncated, _ = env.step(obs[12:14] + noise[t, i])
            done = terminated or truncated
            v_obs, v_reward, v_term, v_trunc = (x[i] for x in vec[t + 1])
            assert np.array_equal(obs, v_obs), (i, t)
            assert reward == v_reward and terminated == v_term and truncated == v_trunc, (i, t)


def test_default_level_is_the_house_and_trees():
    world, _ = demo_world()
    env = NavigateEnv()
    assert repr(env.world) == repr(world)
    assert np.array_equal(env.reset(seed=2)[0], NavigateEnv(world).reset(seed=2)[0])


def test_level_file_plays_as_the_world_it_holds(tmp_path):
    world, _ = demo_world()
    path = tmp_path / "house.json"
    world.save(path)
    from_file = NavigateEnv(str(path))
    from_world = NavigateEnv(world)
    assert np.array_equal(from_file.reset(seed=9)[0], from_world.reset(seed=9)[0])
    assert np.array_equal(from_file.step(np.array([0.3, -1.0]))[0],
                          from_world.step(np.array([0.3, -1.0]))[0])


def test_render_draws_agent_goal_and_walls():
    world = sidestep.World2D()
    world.add_boxes([(2.0, -1.0)], [(3.0, 1.0)])
    area = (-6.0, -4.0, 6.0, 4.0)
    env = NavigateEnv(world, area=area, render_mode="rgb_array", radius=0.5)
    env.reset(options={"start": (-4.0, 0.0), "goal": (4.5, 2.5)})
    frame = env.render()
    picture = Picture(world, np.array(area), 0.5, 1.0)
    assert frame.shape == (*picture.shape, 3) and frame.dtype == np.uint8

    def colour(point):
        row, col = picture.pixels(np.array([point]))
        return frame[row[0], col[0]].tolist()

    assert colour((-4.0, 0.0)) == list(AGENT)
    assert colour((4.5, 2.5)) == list(GOAL)
    assert colour((4.5 - 0.8, 2.5)) == list(GOAL)          # the arrival zone, goal_radius 1
    assert colour((2.5, 0.0)) == list(SOLID)
    assert colour((0.0, -3.0)) == [255, 255, 255]


@pytest.mark.parametrize("options, name", [
    ({"radius": -1.0}, "radius"),
    ({"step_length": 0.0}, "step_length"),
    ({"rays": 0}, "rays"),
    ({"max_range": float("nan")}, "max_range"),
    ({"goal_radius": -2.0}, "goal_radius"),
    ({"max_episode_steps": 0}, "max_episode_steps"),
    ({"arrival_bonus": float("inf")}, "arrival_bonus"),
    ({"area": (0.0, 0.0, 0.0, 5.0)}, "area"),
    ({"area": (0.0, 0.0, 5.0)}, "area"),
    ({"render_mode": "human"}, "render_mode"),
    ({"min_goal_distance": 1e4}, "min_goal_distance"),
    ({"radius": 30.0}, "radius"),
])
def test_bad_arguments_raise_value_errors_naming_them(options, name):
    for make in (NavigateEnv, lambda **kw: NavigateVectorEnv(2, **kw)):
        with pytest.raises(ValueError, match=name):
            make(**options)


def test_bad_calls_raise_errors_naming_the_argument(tmp_path):
    with pytest.raises(ValueError, match="area"):
        NavigateEnv(sidestep.World2D())                  # nothing to take bounds from
    with pytest.raises(TypeError, match="level"):
        NavigateEnv(42)
    with pytest.raises(TypeError, match="rays"):
        NavigateEnv(rays=2.5)
    flat = sidestep.World3D()
    flat.add_boxes([(0, 0, 0)], [(1, 1, 1)])
    flat.save(tmp_path / "cube.json")
    with pytest.raises(ValueError, match="level must be a 2D level"):
        NavigateEnv(tmp_path / "cube.json")
    with pytest.raises(ValueError, match="num_envs"):
        NavigateVectorEnv(0)
    env = NavigateEnv()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([np.nan, 0.0]))
    with pytest.raises(ValueError, match="action"):
        env.step(np.zeros(3))
    with pytest.raises(ValueError, match=r"options\['start'\]"):
        env.reset(options={"start": (0.0, 1.0)})          # inside a radial tree
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"speed": 2.0})
    envs = NavigateVectorEnv(2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        envs.step(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1, 2, 3])


def test_vector_seed_list_equals_int_seed_and_frames_show_each_agent():
    envs = NavigateVectorEnv(3, render_mode="rgb_array")
    by_int, _ = envs.reset(seed=20)
    by_list, _ = NavigateVectorEnv(3).reset(seed=[20, 21, 22])
    assert np.array_equal(by_int, by_list)
    frames = envs.render()
    assert len(frames) == 3
    picture = Picture(envs.world, envs.arena.area, 0.5, 1.0)
    for frame, position in zip(frames, envs.positions):
        row, col = picture.pixels(position[None])
        assert frame[row[0], col[0]].tolist() == list(AGENT)
    assert not np.array_equal(frames[0], frames[1])
