"""Scenario tests for the four movement modes, named by behaviour."""
import copy
import dataclasses
import math
import pickle

import numpy as np
import pytest

import sidestep
from sidestep.tolerances import PROMISE, SKIN

HOUSE = [((-24.4, -14.1), (18.9, -14.1)), ((-24.4, -14.1), (-24.4, 13.2)),
         ((-20.2, -0.1), (-4.8, -0.1)), ((-0.5, 0.7), (-0.5, -8.7)),
         ((19.4, 14.4), (-24.4, 14.4)), ((19.4, 14.4), (19.4, -14.4)),
         ((-17.5, 0.5), (-17.5, 11.0)), ((13.4, -0.15), (18.74, -0.15)),
         ((-0.43, -9.1), (12.4, -9.1))]


def house_world():
    world = sidestep.World2D()
    world.add_walls([a for a, _ in HOUSE], [b for _, b in HOUSE], 0.5)
    return world


def long_wall(clearance=0.0):
    world = sidestep.World2D()
    world.add_walls([(-100.0, 0.0)], [(100.0, 0.0)], clearance)
    return world


# ------------------------------------------------------------------ slide
@pytest.mark.parametrize("angle_deg", [10.0, 30.0, 45.0, 60.0, 80.0])
def test_slides_along_wall(angle_deg):
    # Into a long wall at angle a, the agent travels d cos(a) along it.
    world = long_wall()
    a = math.radians(angle_deg)
    d = 5.0
    m = world.move((0.0, 1.0), (d * math.cos(a), -d * math.sin(a)), radius=0.5)
    expected_x = d * math.cos(a)
    assert m.position[0] == pytest.approx(expected_x, abs=2 * SKIN)
    assert 0.5 <= m.position[1] <= 0.5 + SKIN
    assert m.stop == "slid" and len(m.contacts) == 1
    assert m.contacts[0].normal == pytest.approx((0.0, 1.0))


def test_walks_straight_into_wall_and_stops():
    m = long_wall(0.5).move((0.0, 3.0), (0.0, -10.0), radius=0.5)
    assert m.stop == "blocked"
    assert 1.0 <= m.position[1] <= 1.0 + 1.5 * SKIN
    assert m.contacts[0].fraction == pytest.approx(0.2, abs=SKIN)


def test_wedged_in_corner():
    # Two walls meeting at a right angle; pushing diagonally into the corner.
    world = sidestep.World2D()
    world.add_walls([(0.0, 0.0), (0.0, 0.0)], [(10.0, 0.0), (0.0, 10.0)])
    m = world.move((3.0, 3.0), (-10.0, -9.0), radius=1.0)
    assert m.position == pytest.approx((1.0, 1.0), abs=SKIN)
    assert m.stop == "blocked"
    assert {c.obstacle for c in m.contacts} == {0, 1}


def test_wedged_in_acute_corner_of_a_polygon():
    world = sidestep.World2D()
    # A V-shaped notch cut into a solid polygon, opening upwards.
    world.add_polygon([(-10, -10), (10, -10), (10, 10), (1, 10), (0, 0), (-1, 10), (-10, 10)])
    m = world.move((0.0, 12.0), (0.0, -20.0), radius=0.3)
    assert world.clearance(m.position) >= 0.3 - PROMISE
    assert m.position[1] > 0.0 and abs(m.position[0]) < 1e-6
    assert m.stop in ("blocked", "slid")


def test_tree_beside_wall_never_pushes_through_the_wall():
    # The radial article's question: a tree standing next to a wall.
    world = sidestep.World2D()
    world.add_walls([(-10.0, 0.0)], [(10.0, 0.0)])
    world.add_circles([(0.0, 1.2)], 1.0)
    for dx in np.linspace(-3, 3, 25):
        m = world.move((dx, 3.0), (-dx * 0.5, -5.0), radius=0.3)
        assert world.clearance(m.position) >= 0.3 - PROMISE
        assert m.position[1] > 0.0


def test_gap_narrower_than_agent_is_not_passed():
    world = sidestep.World2D()
    world.add_circles([(-1.0, 0.0), (1.0, 0.0)], 0.6)   # gap 0.8 wide
    m = world.move((0.0, -3.0), (0.0, 6.0), radius=0.5)
    assert m.position[1] < 0.0
    m = world.move((0.0, -3.0), (0.0, 6.0), radius=0.35)
    assert m.position == pytest.approx((0.0, 3.0))


@pytest.mark.parametrize("family", ["box", "wall", "circle"])
def test_doorway_a_skin_wider_than_the_agent_is_walked_through(family):
    # The jambs are 2r + 1.5 skins apart: room for the disc and the half skin
    # it keeps on each side. Walked through frame by frame, a little off
    # centre so it meets one jamb first and slides along it, it must not stop
    # (the planes of the two jambs are opposite; their corner must not be
    # mistaken for a wedge too tight to pass).
    r = 0.3
    gap = 2 * r + 1.5 * SKIN
    world = sidestep.World2D()
    if family == "box":
        world.add_boxes([(-1.0, -1.0), (gap, -1.0)], [(0.0, 1.0), (gap + 1.0, 1.0)])
    elif family == "wall":
        world.add_walls([(0.0, -1.0), (gap, -1.0)], [(0.0, 1.0), (gap, 1.0)])
    else:
        world.add_circles([(-1.0, 0.0), (gap + 1.0, 0.0)], 1.0)
    agent = sidestep.Agent(world, (gap / 2 + 0.1, -3.0), radius=r)
    for _ in range(200):
        agent.step(0.0, 0.05)
        assert world.clearance(agent.position) >= r - PROMISE
    assert agent.position[1] > 6.5          # through the doorway (y -1 to 1) and on


def test_pushing_into_the_crease_between_two_trees_comes_to_rest():
    # Two trees meeting in a crease, the agent pushed into it every frame. The
    # slide along one tree meets the other; the motion left over, turned along
    # the second tree, points back out of the crease. Taking it would send the
    # agent back and forth 3 mm every frame forever; it must rest instead.
    world = sidestep.World2D()
    world.add_circles([(8.273448, 5.038695), (7.756688, 6.771916)], [0.959977, 0.941330])
    r = 0.337002
    agent = sidestep.Agent(world, (7.131327, 5.656990), radius=r)
    path = [agent.step(0.198443, 0.024905) for _ in range(50)]
    assert all(world.clearance(p) >= r - PROMISE for p in path)
    assert len(set(path[2:])) == 1 and agent.stop == "blocked"
    # At rest touching both trees, a skin or so away.
    assert world.clearance(path[-1]) == pytest.approx(r, abs=2 * SKIN)


def test_slides_round_a_tree():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 1.0)
    m = world.move((-3.0, 0.2), (6.0, 0.0), radius=0.25)
    assert m.stop == "slid" and m.position[1] > 0.2
    assert world.clearance(m.position) >= 0.25 - PROMISE


def test_start_overlapping_recovers_to_free_spot():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 1.0)
    m = world.move((0.3, 0.0), (0.0, 0.0), radius=0.5)
    assert m.recovered and m.hit
    assert world.clearance(m.position) >= 0.5 - PROMISE
    # Pushed straight out along the centre-to-agent direction.
    assert m.position[1] == pytest.approx(0.0, abs=1e-9) and m.position[0] > 1.49


def test_start_inside_a_box_leaves_by_the_nearest_side():
    world = sidestep.World2D()
    world.add_boxes([(0.0, 0.0)], [(10.0, 4.0)])
    m = world.move((3.0, 3.5), (1.0, 0.0), radius=0.2)
    assert m.recovered and world.clearance(m.position) >= 0.2 - PROMISE
    assert m.position[1] >= 4.2 - 1e-9


def test_start_deep_inside_grid_block_escapes():
    world = sidestep.World2D()
    world.add_grid(np.ones((9, 9), bool), 1.0)
    m = world.move((4.5, 4.5), (0.0, 0.0), radius=0.4)
    assert m.recovered and world.clearance(m.position) >= 0.4 - PROMISE


def test_start_wedged_between_overlapping_circles_escapes():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0), (0.8, 0.0), (0.4, 0.7)], 0.7)
    m = world.move((0.4, 0.25), (0.1, 0.0), radius=0.3)
    assert m.recovered and world.clearance(m.position) >= 0.3 - PROMISE


@pytest.mark.parametrize("radius", [0.0, 0.3])
def test_glides_past_a_corner_in_line_with_the_wall(radius):
    # Slide up the left side of a box, then on past its top corner: the corner
    # lies a skin away, in line with the wall, and must not turn the move.
    world = sidestep.World2D()
    world.add_boxes([(0.0, 0.0)], [(1.0, 1.0)])
    m = world.move((-radius - 0.1, 0.2), (0.2, 0.3), radius=radius)
    assert m.stop == "slid" and -radius - SKIN <= m.position[0] < -radius
    up = world.move(m.position, (0.0, 2.0), radius=radius)
    assert up.position[0] == pytest.approx(m.position[0], abs=SKIN)
    assert up.position[1] == pytest.approx(m.position[1] + 2.0, abs=SKIN)


@pytest.mark.parametrize("radius", [0.0, 0.3])
def test_glides_over_the_seam_between_two_boxes(radius):
    # Two boxes stacked into one flat side: the seam's corners lie in line
    # with the side (the "internal edge" that trips many engines' sliders).
    world = sidestep.World2D()
    world.add_boxes([(0.0, 0.0), (0.0, 2.0)], [(1.0, 2.0), (1.0, 4.0)])
    on = world.move((-radius - 0.3, 1.0), (0.5, 0.0), radius=radius)
    up = world.move(on.position, (0.0, 2.0), radius=radius)
    np.testing.assert_allclose(up.position, on.position + (0.0, 2.0), rtol=0, atol=2 * SKIN)


def _floors():
    # Three floors with seams every metre along y = 1: twenty boxes side by
    # side, twenty walls chained end to end, a polygon with a corner on each
    # seam of its top side.
    boxes = sidestep.World2D()
    boxes.add_boxes([(i, 0.0) for i in range(20)], [(i + 1.0, 1.0) for i in range(20)])
    walls = sidestep.World2D()
    walls.add_walls([(i, 1.0) for i in range(20)], [(i + 1.0, 1.0) for i in range(20)])
    polygon = sidestep.World2D()
    polygon.add_polygon([(0.0, 0.0), (20.0, 0.0)] + [(20.0 - i, 1.0) for i in range(21)])
    return {"boxes": boxes, "walls": walls, "polygon": polygon}


@pytest.mark.parametrize("family", ["boxes", "walls", "polygon"])
@pytest.mark.parametrize("radius", [0.0, 0.05, 0.25])
def test_slides_over_seams_pressing_down_without_climbing(family, radius):
    # Walking along a floor made of pieces while the wish presses into it
    # (gravity in a platformer, a top-down player hugging a wall): every seam
    # is a piece's end lying on the next piece's face. Its round end once
    # tilted the contact plane and threw the agent up (a point camera 2.6
    # units, radius 0.25 by 5 mm); the many seams also used up the passes.
    world = _floors()[family]
    m = world.move((0.5, 1.0 + radius + 1e-6), (15.0, -0.5), radius=radius)
    assert m.stop == "slid"
    assert m.position[0] == pytest.approx(15.5, abs=2 * SKIN)
    assert 1.0 + radius <= m.position[1] <= 1.0 + radius + SKIN
    assert world.clearance(m.position) >= radius - PROMISE


@pytest.mark.parametrize("radius", [0.0, 0.25])
def test_a_wall_standing_on_a_floor_is_still_a_corner(radius):
    # Not a seam: the wall's end lies on the floor, but the wall rises towards
    # the agent, so the agent stops at it and slides up it with the wish.
    world = sidestep.World2D()
    world.add_walls([(0.0, 1.0), (1.0, 1.0)], [(1.0, 1.0), (1.0, 3.0)])
    m = world.move((0.5, 1.0 + radius + 1e-6), (3.0, 0.5), radius=radius)
    assert m.position[0] == pytest.approx(1.0 - radius, abs=2 * SKIN)
    assert m.position[1] == pytest.approx(1.5 + radius, abs=2 * SKIN)
    stepped = sidestep.World2D()
    stepped.add_boxes([(0.0, 0.0), (1.0, 0.0)], [(1.0, 1.0), (2.0, 3.0)])
    m = stepped.move((0.5, 1.0 + radius + 1e-6), (3.0, -0.3), radius=radius)
    assert m.position[0] == pytest.approx(1.0 - radius, abs=2 * SKIN)    # in the corner
    assert m.position[1] == pytest.approx(1.0 + radius, abs=2 * SKIN)


@pytest.mark.parametrize("radius", [0.0, 0.3])
def test_glides_along_a_tile_wall_past_its_corner(radius):
    world = sidestep.World2D()
    world.add_grid(np.ones((3, 2), bool), 1.0, (0.0, 0.0))
    on = world.move((-radius - 0.3, 1.2), (0.5, 0.0), radius=radius)
    up = world.move(on.position, (0.0, 3.0), radius=radius)
    np.testing.assert_allclose(up.position, on.position + (0.0, 3.0), rtol=0, atol=2 * SKIN)


def test_wedged_between_two_circles_escapes_sideways_to_the_nearest_spot():
    # On the line of centres both push-outs cancel; the nearest free spot is
    # straight up or down, where the disc just clears both circles.
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0), (1.0, 0.0)], 0.6)
    m = world.move((0.5, 0.0), (0.0, 0.0), radius=0.3)
    assert m.recovered and world.clearance(m.position) >= 0.3 - PROMISE
    assert m.position[0] == pytest.approx(0.5, abs=1e-9)
    assert abs(m.position[1]) == pytest.approx(math.sqrt(0.9 ** 2 - 0.5 ** 2), abs=1e-5)


def test_wedged_recovery_lands_near_the_nearest_free_spot():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0), (1.1, 0.0), (0.55, 0.9), (0.55, -0.9)], 0.65)
    start = np.array([0.55, 0.0])
    m = world.move(start, (0.0, 0.0), radius=0.25)
    assert m.recovered and world.clearance(m.position) >= 0.25 - PROMISE
    # The nearest free spot, by brute force on a fine polar grid.
    radii = np.arange(0.0, 2.0, 1e-3)
    angles = np.linspace(0.0, 2.0 * np.pi, 720, endpoint=False)
    rr, aa = np.meshgrid(radii, angles, indexing="ij")
    spots = start + np.stack([rr * np.cos(aa), rr * np.sin(aa)], axis=-1).reshape(-1, 2)
    free = (world.clearance(spots) >= 0.25).reshape(rr.shape).any(axis=1)
    nearest = radii[np.argmax(free)]
    # 32 headings find a spot a few per cent farther at most.
    assert 0.98 * nearest - 1e-3 <= np.hypot(*(m.position - start)) <= 1.05 * nearest + 1e-3


def _nearest_free_distance(world, start, radius, reach):
    """Distance from ``start`` to the nearest spot where the disc fits, on a fine polar grid."""
    radii = np.arange(0.0, reach, 1e-3)
    angles = np.linspace(0.0, 2.0 * np.pi, 720, endpoint=False)
    rr, aa = np.meshgrid(radii, angles, indexing="ij")
    spots = start + np.stack([rr * np.cos(aa), rr * np.sin(aa)], axis=-1).reshape(-1, 2)
    free = (world.clearance(spots) >= radius).reshape(rr.shape).any(axis=1)
    return radii[np.argmax(free)]


def test_wedged_in_a_corridor_that_narrows_is_not_flung_along_it():
    # Two walls 1.4 apart that diverge by 0.001 over 10 m: the disc (1.0)
    # overlaps both. Their push-out planes are nearly opposite and meet some
    # 6 km along the corridor; recovery must go to the nearest free spot instead.
    world = sidestep.World2D()
    world.add_walls([(0.0, -0.7), (0.0, 0.7)], [(10.0, -0.7), (10.0, 0.701)])
    start = np.array([5.0, 0.0])
    m = world.move(start, (0.0, 0.0), radius=1.0)
    assert m.recovered and world.clearance(m.position) >= 1.0 - PROMISE
    nearest = _nearest_free_distance(world, start, 1.0, 3.0)
    assert np.hypot(*(m.position - start)) <= 1.05 * nearest + 1e-3


def test_spawned_inside_an_acute_wedge_lands_next_to_it():
    # A wedge of 0.01 rad: 9.9 m from its apex it is 0.1 wide, too narrow for a
    # disc of 0.5. The planes of its two sides meet at the apex side, far away.
    angle = 0.01
    world = sidestep.World2D()
    world.add_walls([(0.0, 0.0), (0.0, 0.0)], [(10.0, 0.0), (10 * math.cos(angle),
                                                             10 * math.sin(angle))])
    start = 9.9 * np.array([math.cos(angle / 2), math.sin(angle / 2)])
    m = world.move(start, (0.0, 0.0), radius=0.5)
    assert m.recovered and world.clearance(m.position) >= 0.5 - PROMISE
    nearest = _nearest_free_distance(world, start, 0.5, 2.0)
    assert np.hypot(*(m.position - start)) <= 1.05 * nearest + 1e-3


def test_recovery_from_deep_in_a_grid_prefers_the_nearest_spot_the_disc_fits():
    # A free room 14 x 19 cells in a solid table 60 x 60; a disc of radius 5.57
    # deep in the solid part. The room's corner is the nearest free point, but
    # the disc fits there only 19.1 away; past the table's right side it fits
    # 17.0 away. The push-out heads for the corner; the ring search finds the side.
    blocked = np.ones((60, 60), bool)
    blocked[25:44, 25:39] = False
    world = sidestep.World2D()
    world.add_grid(blocked, 1.0, (0.0, 0.0))
    start, r = np.array([48.58, 18.89]), 5.57
    m = world.move(start, (0.0, 0.0), radius=r)
    assert m.recovered and world.clearance(m.position) >= r - PROMISE
    assert np.hypot(*(m.position - start)) == pytest.approx(60.0 - 48.58 + r, rel=0.01)


def test_corridor_tighter_than_the_skin_does_not_launch_the_agent():
    # A corridor 5e-7 wider than the disc, its upper wall tilted by 1e-8: the
    # agent fits (clearance radius + 2.5e-7) but is closer than half a skin to
    # both walls. Backing off to half a skin from both is only possible 50 m
    # along the corridor; a tiny step must not go there.
    r, gap, tilt = 0.5, 1.0 + 5e-7, 1e-8
    world = sidestep.World2D()
    world.add_walls([(0.0, -gap / 2), (0.0, gap / 2 - 5 * tilt)],
                    [(10.0, -gap / 2), (10.0, gap / 2 + 5 * tilt)])
    start = np.array([5.0, 0.0])
    for d in [(0.0, 1e-4), (0.0, -1e-4), (-1e-3, 1e-3), (1e-3, 0.0), (0.3, 0.2)]:
        m = world.move(start, d, radius=r)
        assert not m.recovered and world.clearance(m.position) >= r - PROMISE
        assert np.hypot(*(m.position - start)) <= np.hypot(*d) + 4 * SKIN, (d, m)
        agent = sidestep.Agent(world, start, radius=r)
        assert agent.step(*d) == tuple(m.position)


def test_slide_path_is_never_longer_than_the_move():
    # Sliding down-right along a wall's top, the wall blocks the downward part
    # of the wish. A tree past the wall's end stops the slide; past the wall
    # the agent turns back down towards where it was going, but with only the
    # path that is left: the blocked part is not added on top. (Spending it
    # in full took the agent 6 m down, a path of 9.3 m for a move of 8.5.)
    world = sidestep.World2D()
    world.add_walls([(-10.0, 0.0)], [(2.0, 0.0)])
    world.add_circles([(4.0, 0.5)], 0.5)
    start = np.array([0.0, 0.3 + SKIN])
    d = np.array([6.0, -6.0])
    m = world.move(start, d, radius=0.3)
    assert m.hit and world.clearance(m.position) >= 0.3 - PROMISE
    assert all(0.0 <= c.fraction <= 1.0 for c in m.contacts)
    tree = next(c for c in m.contacts if world.family(c.obstacle) == "circle")
    met = tree.point + tree.normal * (0.3 + SKIN)
    assert np.hypot(*(m.position - met)) <= (1.0 - tree.fraction) * np.hypot(*d) + 4 * SKIN
    assert m.position[1] < -1.0                  # and it did turn back down


def test_dash_glancing_off_a_crate_carries_on_along_the_floor():
    # One long move (a dash, a knockback) turned down the side of a crate that
    # stands clear of the floor: below the crate the agent turns back the way
    # it was going and carries on along the floor, as far as its path allows.
    world = sidestep.World2D()
    world.add_boxes([(0.0, 0.0)], [(2.0, 3.0)])
    world.add_walls([(-50.0, -1.0)], [(50.0, -1.0)])
    start, d = np.array([3.0, 2.5]), np.array([-40.0, -8.0])
    m = world.move(start, d, radius=0.2)
    assert world.clearance(m.position) >= 0.2 - PROMISE
    assert m.position[1] == pytest.approx(-0.8, abs=2 * SKIN)       # on the floor
    assert m.position[0] < -30.0                                       # well past the crate
    # Path: to the crate, down its side, then along the floor; no longer than |d|.
    crate = next(c for c in m.contacts if world.family(c.obstacle) == "box")
    met = crate.point + crate.normal * (0.2 + SKIN)
    path = np.hypot(*(met - start)) + (met[1] + 0.8) + (met[0] - m.position[0])
    assert path <= np.hypot(*d) + 4 * SKIN


def test_fast_ball_does_not_pass_the_bat():
    # The radial article's comment: bat radius 1 at x = 0, ball radius 0.5 at
    # x = -2 moving 5 units per frame.
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 1.0)
    m = world.move((-2.0, 0.0), (5.0, 0.0), radius=0.5)
    assert -1.5 - 1.5 * SKIN <= m.position[0] <= -1.5
    assert m.contacts[0].fraction == pytest.approx(0.1, abs=SKIN)
    # The article's methods do let it through.
    assert world.move((-2.0, 0.0), (5.0, 0.0), radius=0.5, mode="push").position[0] == 3.0
    assert world.move((-2.0, 0.0), (5.0, 0.0), radius=0.5, mode="block").position[0] == 3.0


def test_point_camera_cannot_slip_between_diagonal_grid_cells():
    world = sidestep.World2D()
    world.add_grid(np.array([[1, 0], [0, 1]], bool), 1.0)
    m = world.move((0.2, 1.8), (1.6, -1.6), radius=0.0)
    assert m.position[0] < 1.0 and m.position[1] > 1.0


def test_zero_displacement_is_done():
    m = house_world().move((0.0, 5.0), (0.0, 0.0), radius=0.3)
    assert m.stop == "done" and tuple(m.position) == (0.0, 5.0)


def test_contacts_explain_the_move():
    m = long_wall().move((0.0, 2.0), (3.0, -4.0), radius=0.5)
    (c,) = m.contacts
    assert c.obstacle == 0 and c.point == pytest.approx((0.75 * 1.5, 0.0), abs=1e-5)
    assert c.fraction == pytest.approx(1.5 / 4.0, abs=1e-5)


def corner_move(world, position=(0.5, 0.5)):
    # Into the corner of two walls: two contacts.
    return world.move(position, (-2.0, -1.0), radius=0.25)


def corner():
    world = sidestep.World2D()
    world.add_walls([(-5.0, 0.0), (0.0, -5.0)], [(5.0, 0.0), (0.0, 5.0)])
    return world


def test_contacts_read_after_later_moves_are_those_of_their_own_move():
    # A move's contacts become Contact records when first read; later moves
    # (which reuse the world's scratch buffers) must not change them.
    world = corner()
    first = corner_move(world)
    read_at_once = [(c.obstacle, c.point.tolist(), c.normal.tolist(), c.fraction)
                    for c in corner_move(world).contacts]
    for k in range(5):
        world.move((3.0, 3.0 + k), (0.1, -4.0), radius=0.5)      # other contacts
    assert len(read_at_once) == 2
    assert [(c.obstacle, c.point.tolist(), c.normal.tolist(), c.fraction)
            for c in first.contacts] == read_at_once
    assert first.contacts is first.contacts                     # built once


def test_move_record_holds_the_same_fields_as_one_built_by_hand():
    world = corner()
    m = corner_move(world)
    c = m.contacts[0]
    assert type(m.position) is np.ndarray and m.position.shape == (2,)
    assert m.position.dtype == np.float64 and type(m.contacts) is tuple
    assert type(c.obstacle) is int and type(c.fraction) is float
    assert c.point.shape == c.normal.shape == (2,) and c.point.dtype == np.float64
    by_hand = sidestep.Move(m.position, m.hit, m.contacts, m.stop, m.recovered)
    assert repr(corner_move(world)) == repr(by_hand)
    assert len(dataclasses.asdict(corner_move(world))["contacts"]) == 2
    assert [f.name for f in dataclasses.fields(m)] == ["position", "hit", "contacts", "stop",
                                                       "recovered"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.contacts = ()
    assert m == m and dataclasses.replace(m, stop="done").contacts is m.contacts


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy,
                                   lambda m: pickle.loads(pickle.dumps(m))])
def test_copied_and_pickled_moves_carry_their_contacts(clone):
    world = corner()
    m = corner_move(world)
    twin = clone(corner_move(world))           # cloned before its contacts were read
    assert repr(twin) == repr(m) and len(twin.contacts) == 2
    assert "_rows" not in vars(twin)


# ------------------------------------------------------------------ push
def test_push_reproduces_the_radial_formula_for_one_tree():
    world = sidestep.World2D()
    world.add_circles([(0.0, 1.0)], 1.0)
    cam = np.array([0.2, -0.5])
    d = np.array([0.0, 0.9])
    m = world.move(cam, d, radius=0.0, mode="push")
    v = cam + d - np.array([0.0, 1.0])
    expected = cam + d + (1.0 / np.linalg.norm(v) - 1.0) * v
    np.testing.assert_allclose(m.position, expected, rtol=0, atol=1e-12)
    assert m.stop == "pushed"


def test_push_contributions_add_up_over_the_articles_three_trees():
    world = sidestep.World2D()
    trees = np.array([(0.0, 1.0), (1.0, 0.0), (-1.0, 0.0)])
    world.add_circles(trees, 1.0)
    cam = np.array([0.3, 0.2])   # inside two of the three trees
    m = world.move(cam, (0.0, 0.0), radius=0.0, mode="push")
    delta = np.zeros(2)
    for t in trees:
        v = cam - t
        if np.linalg.norm(v) < 1.0:
            delta += (1.0 / np.linalg.norm(v) - 1.0) * v
    np.testing.assert_allclose(m.position, cam + delta, atol=1e-12)
    assert len(m.contacts) == 2


def test_push_with_agent_radius_uses_the_sum_of_radii():
    world = sidestep.World2D()
    world.add_circles([(0.0, 0.0)], 1.0)
    m = world.move((2.0, 0.0), (-0.8, 0.0), radius=0.5, mode="push")
    assert m.position == pytest.approx((1.5, 0.0))


# ------------------------------------------------------------------ block
def test_house_walls_refuse_a_move_into_them():
    world = house_world()
    # Inside the house, 1 m from the wall at y = -14.1: a step to 0.3 m collides.
    m = world.move((0.0, -13.1), (0.0, -0.7), mode="block")
    assert m.stop == "blocked" and tuple(m.position) == (0.0, -13.1)
    assert m.contacts[0].obstacle == 0
    # A step that stays 0.5 m or more away is allowed.
    m = world.move((0.0, -13.1), (0.0, -0.5), mode="block")
    assert m.stop == "done" and m.position == pytest.approx((0.0, -13.6))


def test_block_walks_the_house_without_entering_a_wall():
    world = house_world()
    p = np.array([5.0, 5.0])
    rng = np.random.default_rng(7)
    for _ in range(2000):
        m = world.move(p, rng.normal(0, 0.2, 2), mode="block")
        p = m.position
        assert world.clearance(p) >= 0.0


# ------------------------------------------------------------------ ghost
def test_ghost_ignores_everything():
    world = house_world()
    m = world.move((0.0, 5.0), (0.0, -30.0), radius=0.3, mode="ghost")
    assert tuple(m.position) == (0.0, -25.0) and not m.hit and m.stop == "done"


def test_move_takes_positions_in_any_numeric_form():
    # Tuples of floats and (2,) float64 arrays take fast paths; lists of ints,
    # float32 arrays and strided views take the general one. All agree.
    world = sidestep.World2D()
    world.add_walls([(1.0, -5.0)], [(1.0, 5.0)])
    expected = world.move((0.0, 0.0), (2.0, 0.5), 0.25).position
    pairs = np.array([[0.0, 2.0], [0.0, 0.5]])
    for position, displacement in [((0.0, 0.0), (2.0, 0.5)), ([0, 0], [2, 0.5]),
                                   (np.zeros(2), np.array([2.0, 0.5])),
                                   (np.zeros(2, np.float32), np.array([2.0, 0.5], np.float32)),
                                   (np.zeros((2, 2))[:, 0], pairs[:, 1]),
                                   (np.zeros(2, ">f8"), [2.0, 0.5])]:
        assert np.array_equal(world.move(position, displacement, 0.25).position, expected)
