"""Argument types the command line shares: numbers checked as argparse parses them.

Each returns a parser for ``argparse``'s ``type=``: it turns the text into a
number or raises ``argparse.ArgumentTypeError`` with one line saying what was
expected, naming the option where given a name.

>>> number("radius", inclusive=True)("0.3")
0.3
>>> whole(1)("4")
4
"""
import argparse
import math


def number(name=None, *, minimum=0.0, inclusive=False):
    """A finite float above ``minimum`` (or at it, if ``inclusive``), named ``name`` in errors."""
    what = "expected" if name is None else f"{name} must be"
    bound = f"{'>=' if inclusive else '>'} {minimum:g}"

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{'expected a number' if name is None else f'{name} must be a number'}, "
                f"got {text!r}") from None
        if not (math.isfinite(value) and (value >= minimum if inclusive else value > minimum)):
            raise argparse.ArgumentTypeError(f"{what} a finite number {bound}, got {text}")
        return value
    return parse


def whole(minimum):
    """A whole number >= ``minimum``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text}")
        return value
    return parse
