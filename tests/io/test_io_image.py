"""Images as look-up tables: dark opaque pixels are blocked, row 0 is the top (y = row)."""
import numpy as np
import pytest

from sidestep.io import load
from sidestep.level import LevelError

Image = pytest.importorskip("PIL.Image")

# A small level: a dark wall along the top row, a dark pixel in the middle.
PIXELS = np.array([[0, 0, 0, 0],
                   [255, 255, 255, 255],
                   [255, 40, 200, 255]], dtype=np.uint8)


def test_dark_pixels_are_blocked_with_row_zero_on_top(tmp_path):
    Image.fromarray(PIXELS).save(tmp_path / "level.png")
    level = load(tmp_path / "level.png")
    g = level.world.geometry("grid")
    assert g["blocked"][0].astype(int).tolist() == [[1, 1, 1, 1], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert g["origin"].tolist() == [[0.0, 0.0]] and g["cell_size"].tolist() == [1.0]
    # Pixel (column 1, row 2) covers x in [1, 2], y in [2, 3].
    assert level.world.overlapping((1.5, 2.5)).tolist() == [0]
    assert level.name == "level" and level.problems == ()


def test_threshold_and_cell_size(tmp_path):
    Image.fromarray(PIXELS).save(tmp_path / "level.png")
    level = load(tmp_path / "level.png", threshold=201, cell_size=0.25)
    g = level.world.geometry("grid")
    assert g["blocked"][0][2].astype(int).tolist() == [0, 1, 1, 0]     # 200 < 201
    assert g["cell_size"].tolist() == [0.25]
    assert load(tmp_path / "level.png", threshold=0).world.geometry("grid")["blocked"][0].sum() == 0
    assert load(tmp_path / "level.png", threshold=256).world.geometry("grid")["blocked"][0].all()


def test_transparent_pixels_are_free_whatever_their_colour(tmp_path):
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)           # black everywhere
    rgba[..., 3] = [[255, 0], [1, 0]]                     # two pixels fully transparent
    Image.fromarray(rgba).save(tmp_path / "alpha.png")
    blocked = load(tmp_path / "alpha.png").world.geometry("grid")["blocked"][0]
    assert blocked.astype(int).tolist() == [[1, 0], [1, 0]]


def test_bmp_gif_and_sixteen_bit_images(tmp_path):
    rgb = np.stack([PIXELS] * 3, axis=-1)
    Image.fromarray(rgb).save(tmp_path / "level.bmp")
    Image.fromarray(PIXELS).convert("P").save(tmp_path / "level.gif")
    Image.fromarray(PIXELS.astype(np.uint16) * 257).save(tmp_path / "deep.png")   # I;16
    expected = (PIXELS < 128).tolist()
    for name in ("level.bmp", "level.gif", "deep.png"):
        assert load(tmp_path / name).world.geometry("grid")["blocked"][0].tolist() == expected


def test_an_animated_gif_reads_its_first_frame(tmp_path):
    frames = [Image.fromarray(PIXELS).convert("P"), Image.fromarray(255 - PIXELS).convert("P")]
    frames[0].save(tmp_path / "anim.gif", save_all=True, append_images=frames[1:])
    level = load(tmp_path / "anim.gif")
    assert level.world.geometry("grid")["blocked"][0].tolist() == (PIXELS < 128).tolist()
    assert level.problems == ("anim.gif has 2 frames; the first was read",)


def test_agents_walk_an_image_level(tmp_path):
    rng = np.random.default_rng(3)
    pixels = np.where(rng.random((64, 64)) < 0.15, 0, 255).astype(np.uint8)
    Image.fromarray(pixels).save(tmp_path / "maze.png")
    world = load(tmp_path / "maze.png", cell_size=0.5).world
    starts = rng.uniform(0, 32, (400, 2))
    starts = starts[world.clearance(starts) > 0.2][:100]
    ends = world.move_many(starts, rng.normal(0, 1.0, starts.shape), radius=0.2)
    assert np.all(world.clearance(ends) >= 0.2 - 1e-9)


def test_broken_images_are_refused_naming_the_file(tmp_path):
    noise = np.random.default_rng(0).integers(0, 256, (64, 64), dtype=np.uint8)
    Image.fromarray(noise).save(tmp_path / "level.png")
    data = (tmp_path / "level.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[:len(data) // 2])     # header whole, pixels cut
    (tmp_path / "text.png").write_text("not an image")
    with pytest.raises(LevelError) as info:
        load(tmp_path / "cut.png")
    assert info.value.place == "image data" and "cut.png" in str(info.value)
    with pytest.raises(LevelError, match="not an image Pillow can read"):
        load(tmp_path / "text.png")


def test_bad_options_are_the_caller_s_error(tmp_path):
    Image.fromarray(PIXELS).save(tmp_path / "level.png")
    with pytest.raises(ValueError, match="threshold"):
        load(tmp_path / "level.png", threshold=-1)
    with pytest.raises(ValueError, match="cell_size"):
        load(tmp_path / "level.png", cell_size=0)
    with pytest.raises(TypeError, match="map"):
        load(tmp_path / "level.png", map="E1M1")
