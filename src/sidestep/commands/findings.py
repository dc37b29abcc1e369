"""What ``sidestep check`` reports: findings and the report of one level at one radius.

Shared by :mod:`sidestep.commands.check` (which finds them), the pair
search of :mod:`sidestep.commands.check_pairs` and the many-level reports of
:mod:`sidestep.distributed`.
"""
from dataclasses import dataclass, field

#: The kinds of finding, in the order a report lists them.
KINDS = ("degenerate", "duplicate", "overlap", "narrow_gap", "blocked_spawn")
#: The kinds a 3D level's check finds (:mod:`sidestep.commands.check3d`), in order.
KINDS_3D = ("degenerate", "blocked_spawn", "no_headroom")


@dataclass(frozen=True)
class Finding:
    """One thing a level designer should look at."""

    #: One of :data:`KINDS`.
    kind: str
    #: One line, for people.
    message: str
    #: ``(x, y)``, or ``(x, y, z)`` on a 3D level: where to look.
    position: tuple
    #: Ids of the obstacles involved (one id twice for an outline facing itself).
    obstacles: tuple = ()
    #: Their families, in the same order.
    families: tuple = ()
    #: Figures for machines: ``gap`` (narrow_gap), ``separation`` (overlap,
    #: negative), ``clearance``, ``point`` and ``index`` (blocked_spawn), ``size``
    #: (degenerate), ``headroom`` (no_headroom).
    details: dict = field(default_factory=dict)

    def as_dict(self):
        """The finding as JSON-ready plain types."""
        out = {"kind": self.kind, "obstacles": [int(i) for i in self.obstacles],
               "families": list(self.families),
               "position": [float(v) for v in self.position]}
        out.update(self.details)
        out["message"] = self.message
        return out


@dataclass(frozen=True)
class Report:
    """What :func:`check` found in a level."""

    #: The level's name.
    name: str
    #: The agent radius checked for.
    radius: float
    #: How many obstacles the world holds.
    obstacles: int
    #: Every :class:`Finding`, grouped by kind in :data:`KINDS` order.
    findings: tuple
    #: The loader's own non-fatal problems (``Level.problems``), one line each.
    problems: tuple = ()
    #: Narrow gaps left out of the findings: no room for the agent on one
    #: side (notches, shut doors' pockets, back-to-back walls), so no passage.
    closed_gaps: int = 0
    #: The kinds of finding this check looks for, in listing order
    #: (:data:`KINDS`; :data:`KINDS_3D` on a 3D level).
    kinds: tuple = KINDS
    #: The agent's height on a 3D level (an upright capsule); None in 2D.
    height: float | None = None

    @property
    def ok(self):
        """True when nothing was found (loader problems do not count)."""
        return not self.findings

    def counts(self):
        """``{kind: number of findings}`` for every kind in :data:`KINDS`."""
        return {kind: sum(f.kind == kind for f in self.findings) for kind in self.kinds}

    def as_dict(self):
        """The report as JSON-ready plain types."""
        out = {"level": self.name, "radius": self.radius, "obstacles": self.obstacles,
               "ok": self.ok, "counts": self.counts(),
               "findings": [f.as_dict() for f in self.findings],
               "problems": list(self.problems), "closed_gaps": self.closed_gaps}
        if self.height is not None:
            out["height"] = self.height
        return out

    def format(self, limit=20):
        """The report as text: at most ``limit`` lines per kind, then a summary line.

        Examples
        --------
        >>> print(Report("empty", 0.5, 0, ()).format())
        empty: 0 obstacles, agent radius 0.5
        no problems found
        """
        tall = f", height {self.height:g}" if self.height is not None else ""
        lines = [f"{self.name}: {self.obstacles} obstacles, agent radius {self.radius:g}{tall}"]
        for problem in self.problems:
            lines.append(f"{'file':<14}{problem}")
        counts = self.counts()
        for kind in self.kinds:
            found = [f for f in self.findings if f.kind == kind]
            lines += [f"{kind:<14}{f.message}" for f in found[:limit]]
            if len(found) > limit:
                lines.append(f"{kind:<14}... and {len(found) - limit} more (--json lists all)")
        if self.closed_gaps:
            lines.append(f"{'(not listed)':<14}{self.closed_gaps} narrow gap"
                         f"{'' if self.closed_gaps == 1 else 's'} with no room for the agent "
                         "on one side (notches, door pockets, back-to-back walls): no passage")
        if self.ok:
            lines.append("no problems found")
        else:
            parts = [f"{n} {kind.replace('_', ' ')}" for kind, n in counts.items() if n]
            n = len(self.findings)
            lines.append(f"{n} problem{'' if n == 1 else 's'}: {', '.join(parts)}")
        return "\n".join(lines)


def label(families, ids):
    """``"walls 3 and 7"``, ``"wall 3 and circle 7"``, ``"circles 1, 2 and 5"``.

    >>> label({3: "wall", 7: "wall", 9: "box"}, (3, 7)), label({3: "wall", 9: "box"}, (3, 9))
    ('walls 3 and 7', 'wall 3 and box 9')
    """
    fams = [families[i] for i in ids]
    if len(set(fams)) == 1 and len(ids) > 1:
        numbers = [str(i) for i in ids]
        plural = fams[0] + ("es" if fams[0].endswith("x") else "s")
        return f"{plural} {', '.join(numbers[:-1])} and {numbers[-1]}"
    return " and ".join(f"{fam} {i}" for fam, i in zip(fams, ids))


def at(point):
    """``"(x, y)"`` (or ``"(x, y, z)"``) with a few significant digits.

    >>> at((1.0, 2.123456)), at((0.5, 0.0, -3.25))
    ('(1, 2.123)', '(0.5, 0, -3.25)')
    """
    return "(" + ", ".join(f"{float(v):.4g}" for v in point) + ")"
