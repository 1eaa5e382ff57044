"""Every number in words: a scored hand read as a sentence, and what each side still needs.

Each ruleset says it its own way (``Ruleset.explain``, ``Ruleset.needs``); the values here are
the shape they all return, so that the pages and the API show the same words and programs can read
the same parts. The words follow the site's: a minus is written ``−`` (U+2212), as on the score pages.

An explanation is a few clauses (``Part``): what happened in the hand (no side), then each side's score
with the terms that add up to it (``Term``: a rule and the points it gave). The sentence is the clauses
joined by semicolons:

>>> part = Part("NS bid 4 and took 5: 40 + 1 overtrick = 41", side="NS", points=41,
...             terms=(Term("contract", 40, "the bid of 4"), Term("overtricks", 1, "1 overtrick")))
>>> Explanation((part, Part("EW bid 8 and took 8: 80", side="EW", points=80))).text
'NS bid 4 and took 5: 40 + 1 overtrick = 41; EW bid 8 and took 8: 80'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MINUS = "\u2212"


def number(points: int) -> str:
    """A number as the pages write it: ``41``, ``−90``."""
    return f"{MINUS}{-points}" if points < 0 else str(points)


def signed(points: int) -> str:
    """A change as the pages write it: ``+41``, ``−90``, ``0``."""
    return f"+{points}" if points > 0 else number(points)


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 bag``, ``3 bags``, ``0 bags``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def listed(words: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(words)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def possessive(name: str) -> str:
    """``Ann's``; ``N's`` for a seat."""
    return f"{name}'s"


def added(pieces: Iterable[tuple[int, str]]) -> str:
    """A sum as a player says it: each piece is its points and the words after them, the total last.

    >>> added([(40, ""), (1, "overtrick"), (-50, "for Ann's failed nil")])
    "40 + 1 overtrick − 50 for Ann's failed nil = −9"
    >>> added([(-90, "")])
    '−90'
    """
    pieces = list(pieces)
    out = []
    for index, (points, words) in enumerate(pieces):
        if index == 0:
            out.append(number(points))
        else:
            out.append(f"{'+' if points >= 0 else MINUS} {abs(points)}")
        if words:
            out.append(words)
    text = " ".join(out)
    if len(pieces) > 1:
        text += f" = {number(sum(points for points, _ in pieces))}"
    return text


@dataclass(frozen=True)
class Term:
    """One rule's share of a side's score on a hand: ``rule`` is a stable word for programs (``overtricks``,
    ``nil``, ``set``...), ``points`` what it gave (negative: took away), ``words`` what it was for."""

    rule: str
    points: int
    words: str

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "points": self.points, "words": self.words}


@dataclass(frozen=True)
class Part:
    """One clause: what happened in the hand (``side`` None), or one side's score on it, whose ``terms``
    add up to ``points``, the side's change."""

    text: str
    side: str | None = None
    points: int | None = None
    terms: tuple[Term, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"side": self.side, "points": self.points, "text": self.text,
                "terms": [term.as_dict() for term in self.terms]}


@dataclass(frozen=True)
class Need:
    """One thing a side needs, or is near, under the game's rules: ``what`` is a stable word (``target``,
    ``bags``...), ``amount`` how far away it is (points, bags), ``side`` None for the game as a whole."""

    what: str
    text: str
    side: str | None = None
    amount: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"side": self.side, "what": self.what, "amount": self.amount, "text": self.text}


class Sentence:
    """Clauses (``parts``, each with its ``text``) and the sentence they make, joined by semicolons."""

    parts: tuple[Part | Need, ...]

    @property
    def text(self) -> str:
        return "; ".join(part.text for part in self.parts)

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "parts": [part.as_dict() for part in self.parts]}


@dataclass(frozen=True)
class Explanation(Sentence):
    """A scored hand in words: its clauses, and the sentence they make."""

    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Needs(Sentence):
    """What each side needs, in the game as it stands: empty once the game is over."""

    parts: tuple[Need, ...] = ()


@dataclass(frozen=True)
class Who:
    """A side as a sentence names it: a partnership (``NS``, plural) or a player alone (``Ann``, singular)."""

    name: str
    plural: bool = True

    def verb(self, plural: str, singular: str) -> str:
        """``NS need``, ``Ann needs``."""
        return f"{self.name} {plural if self.plural else singular}"


def seat_name(names: Mapping[str, str] | None, seat: str) -> str:
    """The player in ``seat`` by name, or the seat when no names are given."""
    return (names or {}).get(seat) or seat
