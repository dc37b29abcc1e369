"""Checking a level in tiles: the findings of 1, 4 and 9 tiles are one pass's, none lost or doubled."""
from pathlib import Path

import numpy as np
import pytest

import sidestep
from sidestep.commands.check import check, check_part, merge_parts
from sidestep.commands.regions import EVERYWHERE, Region, tiles, tiles_for
from sidestep.level import Level

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not present")


def in_tiles(level, radius, per_side):
    world = getattr(level, "world", level)
    return merge_parts([check_part(level, radius, tile) for tile in tiles(world.bounds, per_side)])


def test_tiles_cover_the_plane_once():
    regions = tiles((0.0, 0.0, 9.0, 6.0), 3)
    points = np.random.default_rng(0).uniform(-20, 30, (2000, 2))
    points[:6] = [(3, 2), (6, 4), (3, 4), (-1e9, 1e9), (0, 0), (9, 6)]     # on cuts, far away
    owners = np.array([r.holds(points) for r in regions]).sum(axis=0)
    assert (owners == 1).all()
    assert tiles((0, 0, 1, 1), 1) == [EVERYWHERE]
    empty = tiles(None, 3)                                   # a level with nothing in it
    assert len(empty) == 9 and empty[0] == EVERYWHERE
    assert not any(r.holds(points).any() for r in empty[1:])


def test_tiles_for_a_size_and_bad_sizes():
    assert tiles_for((0, 0, 100, 40), 30) == 4
    assert tiles_for((0, 0, 100, 40), 200) == 1
    with pytest.raises(ValueError, match="tile size"):
        tiles_for((0, 0, 1, 1), 0)
    with pytest.raises(ValueError, match="per_side"):
        tiles((0, 0, 1, 1), 0)


def test_a_gap_across_a_tile_border_is_found_once():
    world = sidestep.World2D()
    world.add_walls([(0, 0), (0.5, 0)], [(0, -3), (0.5, -3)])          # a door 0.5 wide
    world.add_circles([(5, 5), (5, 5)], 1.0)                           # a duplicate
    world.add_boxes([(2, 2)], [(4, 4)])
    world.add_circles([(3, 3)], 0.2)                                   # inside the box
    level = Level(world, np.array([[3.0, 2.5], [-5.0, -5.0]]), name="yard")
    one = check(level, 0.3)
    assert [f.kind for f in one.findings] == ["duplicate", "overlap", "narrow_gap",
                                              "narrow_gap", "blocked_spawn"]
    assert one.findings[2].position == pytest.approx((0.25, -1.5))
    # Cuts through the door's middle, and through the box and the spawn in it.
    for cuts in [Region(0.25, -np.inf, np.inf, np.inf), Region(-np.inf, -1.5, np.inf, 3.0)]:
        inside = check_part(level, 0.3, cuts)
        rest = [check_part(level, 0.3, r) for r in _complement(cuts)]
        assert merge_parts([inside] + rest) == one
    for n in (2, 3, 4):
        assert in_tiles(level, 0.3, n) == one


def _complement(region):
    """Regions that, with ``region``, cover the plane once (region reaches to +inf in x or y)."""
    out = [Region(-np.inf, -np.inf, region.x0, np.inf)] if np.isfinite(region.x0) else []
    if np.isfinite(region.y0) or np.isfinite(region.y1):
        x0 = region.x0
        out += [Region(x0, -np.inf, np.inf, region.y0)] if np.isfinite(region.y0) else []
        out += [Region(x0, region.y1, np.inf, np.inf)] if np.isfinite(region.y1) else []
    return out


def test_parts_of_different_levels_or_radii_do_not_merge():
    world = sidestep.World2D()
    world.add_circles([(0, 0)], 1.0)
    with pytest.raises(ValueError, match="same level and radius"):
        merge_parts([check_part(world, 0.3), check_part(world, 0.4)])
    with pytest.raises(ValueError, match="at least one"):
        merge_parts([])


@needs_data
@pytest.mark.parametrize("rel, radius", [
    ("grid/dao/den520d.map", 0.6),          # narrow gaps, blocked scenario ends, closed gaps
    ("grid/rooms/32room_000.map", 0.6),     # hundreds of one-cell doors
    ("grid/sc1/TheFrozenSea.map", 0.6),
    ("grid/bg/AR0602SR.map", 0.6),
    ("polygons2d/freedoom/map12.wad", 19.2),
    ("tiled/sticker_knight/sandbox.tmx", 25.28),   # overlapping boxes
])
def test_real_levels_give_the_same_findings_in_1_4_and_9_tiles(rel, radius):
    level = sidestep.load(DATA / rel)
    one = in_tiles(level, radius, 1)
    assert one == check(level, radius)
    assert len(one.findings) > 0
    for n in (2, 3):
        tiled = in_tiles(level, radius, n)
        assert tiled == one, (rel, n)
