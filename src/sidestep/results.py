"""Small result records returned by the worlds' queries, 2D and 3D alike.

Shapes are given for 2D; in 3D every ``2`` is a ``3`` and the records carry a ``part``.
"""
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from ._types import BoolArray, FloatArray, IntArray, Stop

_new = object.__new__


@dataclass(frozen=True)
class Contact:
    """One obstacle that stopped or turned a move."""

    #: Id of the obstacle touched.
    obstacle: int
    #: ``(2,) float64``: the point of the obstacle's surface where it was touched.
    point: FloatArray
    #: ``(2,) float64``: unit normal at that point, from the obstacle towards the agent.
    normal: FloatArray
    #: Part of the requested displacement travelled when the contact was made, in [0, 1].
    fraction: float
    #: 3D: which part of the obstacle was touched (a mesh's triangle), -1 for a
    #: whole obstacle; None in 2D.
    part: int | None = None


def contacts_from_rows(rows: FloatArray) -> tuple[Contact, ...]:
    """Contact rows as the move kernels write them, as a tuple of :class:`Contact` records.

    ``rows : (n, 6) float64``, one ``[obstacle, point x, point y, normal x,
    normal y, fraction]`` per contact, in the order met.
    """
    return tuple(Contact(int(c[0]), c[1:3].copy(), c[3:5].copy(), float(c[5])) for c in rows)


class _LazyContacts:
    """:attr:`Move.contacts` of a record made by :func:`move_record`: built on first read.

    A game loop reads the position of most moves and the contacts of few; a
    record made by :func:`move_record` keeps the raw contact rows and turns
    them into :class:`Contact` records the first time ``contacts`` is read (then
    stores them: the same tuple on every read). A record made by ``Move(...)``
    holds its contacts from the start. Not a data descriptor, so a stored
    ``contacts`` wins over it.
    """

    @overload
    def __get__(self, move: None, owner: type | None = None) -> "_LazyContacts": ...

    @overload
    def __get__(self, move: "Move", owner: type | None = None) -> tuple[Contact, ...]: ...

    def __get__(self, move: "Move | None",
                owner: type | None = None) -> "tuple[Contact, ...] | _LazyContacts":
        if move is None:      # on the class: the field has no default
            raise AttributeError("contacts")
        state = move.__dict__
        rows = state.get("_rows")
        if rows is None:      # another thread built them meanwhile
            built: tuple[Contact, ...] = state["contacts"]
            return built
        # Stored before the rows go, and only if no other thread stored first:
        # every reader gets the same tuple.
        found: tuple[Contact, ...] = state.setdefault("contacts", contacts_from_rows(rows))
        state.pop("_rows", None)
        return found


@dataclass(frozen=True)
class Move:
    """What :meth:`World2D.move` did, and why it ended where it did."""

    #: ``(2,) float64``: where the agent ends.
    position: FloatArray
    #: Whether anything stopped, turned or pushed the agent.
    hit: bool
    #: The obstacles involved, one :class:`Contact` each, in the order met.
    #: (Not a default: ``dataclass`` sees none, as the descriptor refuses
    #: reads on the class; type checkers are shown the field alone.)
    if TYPE_CHECKING:
        contacts: tuple[Contact, ...]
    else:
        contacts: tuple = _LazyContacts()
    #: Why the move ended: ``"done"`` (reached the target untouched), ``"slid"``
    #: (contacts turned the move and it went on along them as far as they allow),
    #: ``"blocked"`` (it came to rest against contacts with no way along them:
    #: head-on into a wall, into a corner; block mode: the target collides),
    #: ``"pushed"`` (push mode pushed the agent out), ``"max_iterations"`` (slide
    #: ran out of passes with motion left) or ``"stuck"`` (started overlapping
    #: and found no free spot).
    stop: Stop
    #: Whether the agent started overlapping and was first moved to a free spot.
    recovered: bool = False

    def __getstate__(self) -> dict[str, Any]:
        # Copies and pickles hold the Contact records, never the raw rows.
        self.contacts      # builds them if not yet built
        return self.__dict__


def move_record(position: FloatArray, hit: bool, rows: FloatArray | tuple[()], stop: Stop,
                recovered: bool) -> Move:
    """A :class:`Move` made without the dataclass ``__init__`` (a third of a move's cost).

    ``rows`` holds the contacts as :func:`contacts_from_rows` takes them (an
    ``(n, 6)`` array, which the record owns), or is ``()`` for none; they
    become :class:`Contact` records when ``contacts`` is first read. The record
    is the one ``Move(position, hit, contacts_from_rows(rows), stop,
    recovered)`` makes.
    """
    move = _new(Move)
    state = move.__dict__
    state["position"] = position
    state["hit"] = hit
    if len(rows):
        state["_rows"] = rows
    else:
        state["contacts"] = ()
    state["stop"] = stop
    state["recovered"] = recovered
    return move


@dataclass(frozen=True)
class Nearest:
    """Nearest obstacle surface to each query point (arrays of length n; one point: scalars)."""

    #: ``(n,) int64``: id of the nearest obstacle, -1 in an empty world.
    obstacle: IntArray | int
    #: ``(n,) float64``: signed distance to its surface, negative inside; inf if none.
    distance: FloatArray | float
    #: ``(n, 2) float64``: the nearest surface point (NaN if none).
    point: FloatArray
    #: ``(n, 2) float64``: unit normal there, out of the obstacle (NaN if none).
    normal: FloatArray
    #: 3D: ``(n,) int64``, the part of the obstacle nearest (a mesh's triangle,
    #: -1 for a whole obstacle); None in 2D.
    part: IntArray | int | None = None


@dataclass(frozen=True)
class RayHits:
    """First obstacle surface along each ray (arrays of length n; one ray: scalars)."""

    #: ``(n,) bool``: whether the ray hit within its ``max_distance``.
    hit: BoolArray | bool
    #: ``(n,) float64``: distance along the ray to the hit, inf on a miss.
    distance: FloatArray | float
    #: ``(n, 2) float64``: unit surface normal at the hit, towards the ray's origin side; 0 on a miss.
    normal: FloatArray
    #: ``(n,) int64``: id of the obstacle hit, -1 on a miss.
    obstacle: IntArray | int
    #: ``(n, 2) float64``: the hit point (NaN on a miss).
    point: FloatArray
    #: 3D: ``(n,) int64``, the part hit (a mesh's triangle; -1 for a whole
    #: obstacle or a miss); None in 2D.
    part: IntArray | int | None = None


@dataclass(frozen=True)
class CastHit:
    """First contact of a swept disc, sphere or capsule (arrays of length n; one cast: scalars).

    What ``cast`` and ``cast_many`` answer: the shape moved from ``position``
    along ``displacement`` with no slide, stopped at its first contact. The
    shape at ``position + fraction * displacement`` touches the obstacle,
    never overlaps it (it may stand off it by at most the world's skin).
    """

    #: ``(n,) bool``: whether anything is in the way within the displacement.
    hit: BoolArray | bool
    #: ``(n,) float64``: part of the displacement travelled before the contact, in [0, 1];
    #: 1.0 on a miss, 0.0 when the shape starts touching or overlapping an obstacle.
    fraction: FloatArray | float
    #: ``(n,) int64``: id of the obstacle met, -1 on a miss.
    obstacle: IntArray | int
    #: ``(n, 2) float64``: the point of the obstacle's surface touched (NaN on a miss).
    point: FloatArray
    #: ``(n, 2) float64``: unit normal there, from the obstacle towards the shape (0 on a miss).
    normal: FloatArray
    #: 3D: ``(n,) int64``, the part met (a mesh's triangle; -1 for a whole obstacle or a
    #: miss); None in 2D.
    part: IntArray | int | None = None
