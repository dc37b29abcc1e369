"""The check every round-trip test of tests/io makes: two worlds hold the same obstacles."""
import numpy as np

FAMILIES = ("circle", "wall", "box", "polygon", "grid")


def assert_same_obstacles(a, b, *, same_ids=True):
    """``b`` has ``a``'s obstacles in the same order, bit for bit.

    With ``same_ids=False``, ``b``'s ids are ``0 .. n-1`` (a saved world whose
    obstacles were removed comes back renumbered, in the same order).
    """
    if same_ids:
        np.testing.assert_array_equal(a.ids, b.ids)
    else:
        assert b.ids.tolist() == list(range(len(a)))
    assert [a.family(i) for i in a.ids] == [b.family(i) for i in b.ids]
    for family in FAMILIES:
        ga, gb = a.geometry(family), b.geometry(family)
        assert ga.keys() == gb.keys()
        for key in ga.keys() - {"ids"}:
            xs, ys = (ga[key], gb[key]) if isinstance(ga[key], list) else ([ga[key]], [gb[key]])
            assert len(xs) == len(ys), (family, key)
            for x, y in zip(xs, ys):
                np.testing.assert_array_equal(x, y)
                assert x.dtype == y.dtype, (family, key)
