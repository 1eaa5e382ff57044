"""The shape every game's rules share.

A ruleset is built from a game's options (every default filled in). It validates
one hand record against the game so far, scores it, and folds hands into a
:class:`GameState`. States and scored hands are frozen values: a refused hand
cannot change anything, and replaying the same records always gives the same
state.

Each game overrides a few small hooks (``check_record``, ``score``, ``winner``);
the fold itself lives here once. Everything else that differs per game is a fact or a
hook on its class (its name, the figures it reports per player, the extras it shows,
whether it is played in matches, a sampler of plausible hands), so that nothing outside
this package needs to ask which game it holds.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from .errors import InvalidHand, InvalidOptions, shown
from .explaining import Explanation, Need, Needs, Part, Term, Who, listed, number, seat_name
from .reporting import Extra, Rate

# Bumped whenever a change to the rules could score a stored hand differently or refuse a hand it accepted;
# games record the version that scored them. The changes are listed in docs/rules.md ("Versions").
# 2: under Trumps' double_scope: contract_only, a double multiplies the set penalty too.
# 3: Thieving Stink refuses a stack of four held by anyone but the lead (games of earlier versions are not
#    checked for it, so their hands still replay).
RULES_VERSION = 3

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
PARTNERSHIPS: tuple[str, ...] = ("NS", "EW")


def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places to the left; play and the deal pass N -> E -> S -> W -> N."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


# The next dealer after each seat, read on every hand.
DEALER_AFTER: Mapping[str, str] = MappingProxyType({seat: next_seat(seat) for seat in SEATS})


def side_of(seat: str) -> str:
    """The partnership a seat belongs to: partners sit opposite."""
    return "NS" if seat in ("N", "S") else "EW"


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"


K = TypeVar("K")
V = TypeVar("V")


def frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy, so scored values cannot be changed after the fact."""
    return MappingProxyType(dict(mapping))


# --- options -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One house-rule option: its type, default, the values it takes, and a plain-words explanation."""

    name: str
    kind: str  # "int", "bool", "choice", "seat"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    # No house rule needs a number this large; a bigger one is a typo or an attack.
    limit: ClassVar[int] = 1_000_000

    def describe_valid(self) -> str:
        if self.kind == "bool":
            valid = "true or false"
        elif self.kind in ("choice", "seat"):
            valid = "one of " + ", ".join(self.choices)
        elif self.minimum is not None:
            valid = f"a whole number from {self.minimum} to {self.limit:,}"
        else:
            valid = f"a whole number from {-self.limit:,} to {self.limit:,}"
        return valid + (" (or null)" if self.nullable else "")

    def check(self, value: Any) -> Any:
        """Return the value if it fits this option, else raise :class:`InvalidOptions`."""
        if value is None and self.nullable:
            return None
        ok = False
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "int":
            ok = (is_int(value) and abs(value) <= self.limit
                  and (self.minimum is None or value >= self.minimum))
        elif self.kind in ("choice", "seat"):
            ok = isinstance(value, str) and value in self.choices
        if not ok:
            raise InvalidOptions(
                f"{self.name} must be {self.describe_valid()}, not {shown(value)}",
                field=self.name,
            )
        return value


FIRST_DEALER = Option(
    "first_dealer", "seat", "N", "Who deals the first hand; the deal then passes to the left.", choices=SEATS
)
# A game of so many hands (a club night's round, docs/rules.md "A game of a fixed number of hands"): after the
# last hand the side ahead wins, and sides level at the top draw. A side that wins by the game's own rules
# before then wins as always.
LAST_HAND = Option(
    "last_hand", "int", None,
    "The game ends after this many hands, won by the side ahead (a tie is a draw); empty: played to the target.",
    minimum=1, nullable=True,
)


def is_int(value: Any) -> bool:
    """A JSON whole number. ``True`` is not a number here, although Python says it is an int."""
    return isinstance(value, int) and not isinstance(value, bool)


# --- values --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False)
class ScoredHand:
    """One hand as scored: who dealt it, what each side gained or lost, and the totals after it.

    ``extras`` holds the game's running extras after this hand (Spades: bags per side);
    ``details`` says how the hand went in the players' terms (bids made, nils made, who held
    the trump stack...) for history pages and player figures.

    Each is shown as a read-only mapping over a dict the hand keeps to itself: a replay keeps every
    hand it scores, and a dict per value is fewer objects for Python's garbage collector to go over,
    again and again as a long game grows, than a read-only wrapper kept beside each.
    """

    number: int
    dealer: str
    _record: Mapping[str, Any]
    _delta: Mapping[str, int]
    _totals: Mapping[str, int]
    _extras: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    _details: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, number: int, dealer: str, _record: Mapping[str, Any], _delta: Mapping[str, int],
                 _totals: Mapping[str, int], _extras: Mapping[str, Mapping[str, int]] | None = None,
                 _details: Mapping[str, Any] | None = None) -> None:
        # Every hand scored builds one: see ``set_slots`` below for why the fields are set this way.
        _set_hand_number(self, number)
        _set_hand_dealer(self, dealer)
        _set_hand_record(self, _record)
        _set_hand_delta(self, _delta)
        _set_hand_totals(self, _totals)
        _set_hand_extras(self, {} if _extras is None else _extras)
        _set_hand_details(self, {} if _details is None else _details)

    @property
    def record(self) -> Mapping[str, Any]:
        return MappingProxyType(self._record)

    @property
    def delta(self) -> Mapping[str, int]:
        return MappingProxyType(self._delta)

    @property
    def totals(self) -> Mapping[str, int]:
        return MappingProxyType(self._totals)

    @property
    def extras(self) -> Mapping[str, Mapping[str, int]]:
        return MappingProxyType({name: MappingProxyType(values) for name, values in self._extras.items()})

    @property
    def details(self) -> Mapping[str, Any]:
        return MappingProxyType(self._details)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "delta": dict(self._delta),
            "totals": dict(self._totals),
        }
        for name, values in self._extras.items():
            out[name] = dict(values)
        return out


@dataclass(frozen=True, slots=True, init=False)
class GameState:
    """Where a game stands after some hands.

    ``hands`` holds the hands folded into this state by :meth:`Ruleset.replay`; a state resumed
    from stored totals (:meth:`Ruleset.resume`) starts with none, but ``hands_played`` always counts
    every hand of the game.
    """

    totals: Mapping[str, int]
    extras: Mapping[str, Mapping[str, int]]
    hands_played: int
    next_dealer: str
    finished: bool = False
    winner: str | None = None
    hands: tuple[ScoredHand, ...] = ()

    def __init__(self, totals: Mapping[str, int], extras: Mapping[str, Mapping[str, int]], hands_played: int,
                 next_dealer: str, finished: bool = False, winner: str | None = None,
                 hands: tuple[ScoredHand, ...] = ()) -> None:
        _set_state_totals(self, totals)
        _set_state_extras(self, extras)
        _set_state_hands_played(self, hands_played)
        _set_state_next_dealer(self, next_dealer)
        _set_state_finished(self, finished)
        _set_state_winner(self, winner)
        _set_state_hands(self, hands)

    @property
    def next_number(self) -> int:
        return self.hands_played + 1

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"totals": dict(self.totals)}
        for name, values in self.extras.items():
            out[name] = dict(values)
        out.update(
            finished=self.finished,
            winner=self.winner,
            next_dealer=self.next_dealer,
            hands=[hand.as_dict() for hand in self.hands],
        )
        return out


@dataclass(frozen=True, slots=True, init=False)
class HandScore:
    """What a game's ``score`` hook returns: the change per side, extras after the hand, details."""

    delta: Mapping[str, int]
    extras: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, delta: Mapping[str, int], extras: Mapping[str, Mapping[str, int]] | None = None,
                 details: Mapping[str, Any] | None = None) -> None:
        _set_score_delta(self, delta)
        _set_score_extras(self, {} if extras is None else extras)
        _set_score_details(self, {} if details is None else details)


# The frozen values above are built once or twice for every hand scored. The ``__init__`` a frozen
# dataclass writes sets each field through ``object.__setattr__`` (its own ``__setattr__`` refuses),
# which costs more than the rest of building the value; their ``__init__`` set each slot through the
# slot's own descriptor instead, which is what ``object.__setattr__`` ends up calling. Once built they
# are as frozen as before: assigning a field raises ``FrozenInstanceError``.
# (Called only while this module is imported, before a test can run: mutation testing leaves it alone.)
def set_slots(cls: type, *names: str) -> tuple[Any, ...]:
    return tuple(getattr(cls, name).__set__ for name in names)  # pragma: no mutate


(_set_hand_number, _set_hand_dealer, _set_hand_record, _set_hand_delta, _set_hand_totals, _set_hand_extras,
 _set_hand_details) = set_slots(ScoredHand, "number", "dealer", "_record", "_delta", "_totals", "_extras",
                                "_details")
(_set_state_totals, _set_state_extras, _set_state_hands_played, _set_state_next_dealer, _set_state_finished,
 _set_state_winner, _set_state_hands) = set_slots(GameState, "totals", "extras", "hands_played", "next_dealer",
                                                  "finished", "winner", "hands")
_set_score_delta, _set_score_extras, _set_score_details = set_slots(HandScore, "delta", "extras", "details")


# --- the ruleset ---------------------------------------------------------------------------------


class Ruleset:
    """The rules of one game type under one set of options.

    Subclasses set ``game_type``, ``name``, ``option_specs`` and ``record_fields`` and implement
    ``check_record``, ``score``, ``winner``, ``figures`` and ``sample_hand``. They may override
    ``sides``, ``side_of`` and ``initial_extras``, and set the facts below.
    """

    game_type: ClassVar[str]
    # The game's name as players write it.
    name: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]]
    # Field name -> required? ``dealer`` and ``note`` are accepted by every game.
    record_fields: ClassVar[Mapping[str, bool]]
    # A first hand as a scorekeeper enters it (the game's page, docs/rules/<game_type>.md, says every field).
    record_example: ClassVar[Mapping[str, Any]]
    # The extras shown beside the totals, in order; each is kept per side in ``GameState.extras``.
    extras_shown: ClassVar[tuple[Extra, ...]] = ()
    # What :meth:`figures` counts per player and hand (every game also counts ``hands``), and
    # the rates shown from those counts.
    figure_counts: ClassVar[tuple[str, ...]] = ()
    figure_rates: ClassVar[tuple[Rate, ...]] = ()
    # Whether :meth:`figures` reads the record (some games' details say all it needs): a league's rebuild
    # then leaves the records of those games' hands unread.
    figures_read_record: ClassVar[bool] = True
    # How many games make a match (0: the game is not played in matches). A game that forms
    # matches implements ``match_seatings`` and ``match_result``.
    match_games: ClassVar[int] = 0
    # Whether the lowest total is the best one (a game of penalty points); ranking a finished game
    # (``places``), the standings' margins, ratings and exports read it.
    lower_wins: ClassVar[bool] = False

    def __init__(self, options: Mapping[str, Any] | None = None, *, rules_version: int = RULES_VERSION):
        self.options: Mapping[str, Any] = frozen(self.complete_options(options or {}))
        # The rules version a game was started under: a check added later leaves its stored hands as they were.
        self.rules_version = rules_version
        # The hand after which the game ends whoever is ahead (None: played to the target), read on every hand.
        self.last_hand: int | None = self.options["last_hand"]
        # Worked out once from the hooks, since every hand reads them: the sides, each seat's
        # side, each side's seats, and the fields a record may and must have.
        self.side_list: tuple[str, ...] = tuple(self.sides)
        self.side_by_seat: Mapping[str, str] = MappingProxyType({seat: self.side_of(seat) for seat in SEATS})
        self.seats_by_side: Mapping[str, tuple[str, ...]] = MappingProxyType({
            side: tuple(seat for seat in SEATS if self.side_by_seat[seat] == side) for side in self.side_list
        })
        self.known_fields: Mapping[str, bool] = MappingProxyType({**self.record_fields, "dealer": False,
                                                                  "note": False})
        self.required_fields: tuple[str, ...] = tuple(name for name, required in self.known_fields.items()
                                                      if required)

    # options

    @classmethod
    def all_option_specs(cls) -> tuple[Option, ...]:
        return (FIRST_DEALER, *cls.option_specs, LAST_HAND)

    @classmethod
    def complete_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every option with its default filled in; unknown or ill-typed options are refused."""
        if not isinstance(options, Mapping):
            raise InvalidOptions("options must be an object of option names to values", field="options")
        specs = {spec.name: spec for spec in cls.all_option_specs()}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise InvalidOptions(
                f"unknown option {shown(unknown[0])} for {cls.game_type}; valid options: {', '.join(specs)}",
                field=unknown[0],
            )
        complete = {name: spec.check(options[name]) if name in options else spec.default
                    for name, spec in specs.items()}
        cls.check_options(complete)
        return complete

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Hook for rules that tie options together."""

    # sides

    @property
    def sides(self) -> tuple[str, ...]:
        return PARTNERSHIPS

    def side_of(self, seat: str) -> str:
        return side_of(seat)

    @property
    def partnerships(self) -> bool:
        """Whether the sides are partnerships (partners sitting opposite, scoring together) rather than
        players alone; the standings keep a table of partnerships only for these."""
        return tuple(self.sides) == PARTNERSHIPS

    def seats_of(self, side: str) -> tuple[str, ...]:
        """The seats that score for ``side``, in seat order."""
        return self.seats_by_side[side]

    def initial_extras(self) -> dict[str, dict[str, int]]:
        return {}

    @property
    def target(self) -> int:
        return self.options["target"]

    # the fold

    def initial_state(self) -> GameState:
        return GameState(
            totals=frozen({side: 0 for side in self.sides}),
            extras=frozen({name: frozen(v) for name, v in self.initial_extras().items()}),
            hands_played=0,
            next_dealer=self.options["first_dealer"],
        )

    def resume(
        self,
        *,
        totals: Mapping[str, int],
        extras: Mapping[str, Mapping[str, int]] | None,
        hands_played: int,
        finished: bool = False,
        winner: str | None = None,
    ) -> GameState:
        """A state rebuilt from stored totals, so a new hand can be checked without replaying the game."""
        extras = extras if extras is not None else self.initial_extras()
        return GameState(
            totals=frozen({side: int(totals.get(side, 0)) for side in self.sides}),
            extras=frozen({name: frozen(values) for name, values in extras.items()}),
            hands_played=hands_played,
            next_dealer=next_seat(self.options["first_dealer"], hands_played),
            finished=finished,
            winner=winner,
        )

    def play(self, state: GameState, record: Mapping[str, Any]) -> GameState:
        """Validate one hand against the game so far, score it and return the new state.

        Raises :class:`InvalidHand` (numbered with the hand's place in the game) and leaves
        ``state`` untouched.
        """
        hand, after = self.step(state, record)
        return replace(after, hands=(*state.hands, hand))

    def replay(self, records: Iterable[Mapping[str, Any]], start: GameState | None = None) -> GameState:
        """Fold hand records into a game state, from the start or from ``start``.

        >>> from games.rules import get_ruleset
        >>> rules = get_ruleset("thieving_stink", {})
        >>> rules.replay([{"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}}]).totals
        mappingproxy({'NS': 60, 'EW': 105})
        """
        state = start if start is not None else self.initial_state()
        scored = []
        for record in records:
            hand, state = self.step(state, record)
            scored.append(hand)
        # Hands are gathered in a list and frozen once: appending to a tuple per hand would copy
        # the game's whole history at every hand.
        return replace(state, hands=(*(start.hands if start else ()), *scored))

    def step(self, state: GameState, record: Mapping[str, Any]) -> tuple[ScoredHand, GameState]:
        """One hand scored, and the state after it (whose ``hands`` are left as they were)."""
        number = state.hands_played + 1
        if state.finished:
            won = f": {state.winner} won" if state.winner else ": a draw"
            raise InvalidHand(
                number,
                f"the game is already over{won}; no more hands can be added",
                field=None,
            )
        self.check_shape(number, record)
        dealer = state.next_dealer
        if "dealer" in record and record["dealer"] != dealer:
            # check_shape has made sure the dealer given is a seat, so it reads as one.
            raise InvalidHand(number, f"it is {dealer}'s deal, not {record['dealer']}'s", field="dealer")
        self.check_record(number, record, state, dealer)
        scored = self.score(record, state, dealer)
        change, before = scored.delta, state.totals
        delta, totals = {}, {}
        for side in self.side_list:
            delta[side] = gained = change.get(side, 0)
            totals[side] = before[side] + gained
        extras: Mapping[str, Mapping[str, int]]
        kept_extras: dict[str, Mapping[str, int]]
        if scored.extras:
            kept_extras = dict(scored.extras)
            extras = MappingProxyType({name: MappingProxyType(values) for name, values in kept_extras.items()})
        else:
            kept_extras = {name: dict(values) for name, values in state.extras.items()}
            extras = state.extras
        winner = self.winner(totals, record, state, scored)
        last_hand = self.last_hand
        finished = winner is not None or (last_hand is not None and number >= last_hand)
        if winner is None and finished:
            winner = self.sole_best(totals)
        # ``delta``, ``totals``, the extras and the details are made afresh for this hand, so the hand
        # keeps them without a copy; the record is the caller's, so it is copied.
        hand = ScoredHand(number, dealer, dict(record), delta, totals, kept_extras, scored.details)
        after = GameState(MappingProxyType(totals), extras, number, DEALER_AFTER[dealer], finished, winner,
                          state.hands)
        return hand, after

    # record checks shared by every game

    def check_shape(self, number: int, record: Any) -> None:
        if type(record) is not dict and not isinstance(record, Mapping):
            raise InvalidHand(number, "a hand must be an object of fields", field=None)
        known = self.known_fields
        for name in record:
            if name not in known:
                raise InvalidHand(
                    number,
                    f"unknown field {shown(name)}; a {self.game_type} hand has: {', '.join(known)}",
                    field=name,
                )
        for name in self.required_fields:
            if name not in record:
                raise InvalidHand(number, f"{name} is missing", field=name)
        if "dealer" in record and record["dealer"] not in SEATS:
            raise InvalidHand(number, f"dealer must be one of {', '.join(SEATS)}", field="dealer")
        if "note" in record and not isinstance(record["note"], str):
            raise InvalidHand(number, "a note must be text", field="note")

    # hooks

    def check_record(self, number: int, record: Mapping[str, Any], state: GameState, dealer: str) -> None:
        """Refuse a hand the rules do not allow, with :class:`InvalidHand`."""
        raise NotImplementedError

    def score(self, record: Mapping[str, Any], state: GameState, dealer: str) -> HandScore:
        """What each side gains or loses on a valid hand, and the extras after it."""
        raise NotImplementedError

    def winner(
        self, totals: Mapping[str, int], record: Mapping[str, Any], state: GameState, scored: HandScore
    ) -> str | None:
        """The side that has won at the end of this hand, or ``None`` to play on."""
        raise NotImplementedError

    def figures(self, record: Mapping[str, Any], details: Mapping[str, Any]) -> dict[str, dict[str, int]]:
        """What one scored hand adds to each seat's figures (named in ``figure_counts``).

        ``record`` and ``details`` are the hand as entered and as :meth:`score` described it (``record``
        may be empty where ``figures_read_record`` is false). Seats with nothing to count may be left out.
        """
        return {}

    @classmethod
    def rates(cls, counts: Mapping[str, int]) -> dict[str, float | None]:
        """Every rate of ``figure_rates`` from a player's counts (which include ``hands``)."""
        return {rate.name: rate.of(counts) for rate in cls.figure_rates}

    @classmethod
    def sample_hand(cls, rng: random.Random) -> dict[str, Any]:
        """A plausible hand, valid under the default options whatever the score (demo data,
        property tests and benchmarks)."""
        raise NotImplementedError

    # in words (``explaining``): what the pages show under a hand's score and under the totals

    def explain(self, hand: ScoredHand, names: Mapping[str, str] | None = None) -> Explanation:
        """The hand's score in words, from the rules that made it: what happened, then each side's
        change with the terms that add up to it. ``names`` are the players by seat (seats stand in
        for any left out).

        A game says it its own way; this one, for a game that does not, names each side's change.
        """
        parts = []
        for side in self.side_list:
            points = hand.delta.get(side, 0)
            who = self.who(side, names)
            parts.append(Part(f"{who.verb('score', 'scores')} {number(points)}", side=side, points=points,
                              terms=(Term("points", points, "points"),)))
        return Explanation(tuple(parts))

    def needs(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """What each side needs to win from here, under this game's rules and options (nothing once the
        game is over). A game that does not say has nothing to say: only its rules know what wins."""
        return Needs()

    def needs_now(self, state: GameState, names: Mapping[str, str] | None = None) -> Needs:
        """What the pages and the API say under the totals: in a game of a fixed number of hands, how many are
        left first, then what each side needs (:meth:`needs`)."""
        needs = self.needs(state, names)
        if self.last_hand is None or state.finished:
            return needs
        left = self.last_hand - state.hands_played
        text = ("This is the last hand: the side ahead after it wins, and sides level draw" if left <= 1 else
                f"{left} hands left: the side ahead after hand {self.last_hand} wins")
        return Needs((Need("hands_left", text, amount=max(left, 1)), *needs.parts))

    def who(self, side: str, names: Mapping[str, str] | None = None) -> Who:
        """A side as a sentence names it: a partnership by its seats (``NS``), a seat playing alone by
        its player."""
        if len(self.seats_of(side)) == 1:
            return Who(seat_name(names, self.seats_of(side)[0]), plural=False)
        return Who(side)

    def needs_to_reach_target(self, state: GameState, names: Mapping[str, str] | None = None) -> list[Need]:
        """The common ending (:meth:`highest_at_target`) in words: how far each side is from the target,
        or, when the leaders are level past it, that play goes on."""
        if state.finished:
            return []
        target, totals = self.target, state.totals
        out = [
            Need("target", f"{self.who(side, names).verb('need', 'needs')} {target - totals[side]} to reach {target}",
                 side=side, amount=target - totals[side])
            for side in self.side_list if totals[side] < target
        ]
        if max(totals.values()) >= target:
            out.insert(0, self.level_at_the_top(state, names))
        return out

    def level_at_the_top(self, state: GameState, names: Mapping[str, str] | None = None) -> Need:
        """A game that would have ended but for a tie at the top goes on."""
        best = max(state.totals.values())
        leaders = [self.who(side, names).name for side in self.side_list if state.totals[side] == best]
        return Need("level", f"{listed(leaders)} are level at {number(best)}: the game goes on until one is "
                             "ahead at the end of a hand", amount=0)

    # matches (games with ``match_games``)

    def match_seatings(self, seats: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        """The seating (seat -> player) of each game of a match that starts with ``seats``."""
        raise NotImplementedError(f"{self.game_type} is not played in matches")

    def match_result(self, seatings: Sequence[Mapping[str, Any]], game_totals: Sequence[Mapping[str, int]]) -> Any:
        """Each player's match total so far and, once every game is in, the winners."""
        raise NotImplementedError(f"{self.game_type} is not played in matches")

    # ranking a finished game

    @classmethod
    def places(cls, totals: Mapping[K, int], winners: Collection[K] = ()) -> dict[K, int]:
        """Where each side (or, in a match, each player) finished, 0 being first.

        The winners share first place whatever their totals (a rule may end a game with someone level on
        points, or ahead of a winner who made their bid); the others follow by their totals, the best
        first (the highest, or the lowest where ``lower_wins``), and equal totals share a place.

        >>> Ruleset.places({"N": 120, "E": 95, "S": 95, "W": 60}, ["N"])
        {'N': 0, 'E': 1, 'S': 1, 'W': 3}
        """
        first = sum(1 for key in totals if key in winners)
        others = [total for key, total in totals.items() if key not in winners]
        return {key: 0 if key in winners else first + sum(1 for other in others if cls.better(other, total))
                for key, total in totals.items()}

    @classmethod
    def better(cls, total: int, than: int) -> bool:
        """Whether ``total`` is a better final total than ``than`` (higher, or lower where ``lower_wins``)."""
        return total < than if cls.lower_wins else total > than

    @classmethod
    def best_total(cls, totals: Iterable[int]) -> int | None:
        """The best of these totals (None when there are none): what a side played against."""
        totals = list(totals)
        if not totals:
            return None
        return min(totals) if cls.lower_wins else max(totals)

    @classmethod
    def sole_best(cls, totals: Mapping[str, int]) -> str | None:
        """The side alone at the top (the highest total, or the lowest where ``lower_wins``); None when sides are
        level there: how a game of a fixed number of hands ends (``last_hand``).

        >>> Ruleset.sole_best({"NS": 120, "EW": 95}), Ruleset.sole_best({"NS": 95, "EW": 95})
        ('NS', None)
        """
        best = cls.best_total(totals.values())
        leaders = [side for side, total in totals.items() if total == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def can_draw(self) -> bool:
        """Whether a game under these options may end with no winner: one of a fixed number of hands whose
        sides are level after the last (``last_hand``). Any other finished game has a winner."""
        return self.last_hand is not None

    @classmethod
    def margin(cls, total: int, against: int) -> int:
        """How far ``total`` finished ahead of ``against``: positive when it is the better of the two."""
        return against - total if cls.lower_wins else total - against

    # helpers for the hooks

    def highest_at_target(self, totals: Mapping[str, int]) -> str | None:
        """The common ending: once a side reaches the target the highest score wins; a tie at the top plays on."""
        if max(totals.values()) < self.target:
            return None
        return sole_highest(totals)


def sole_highest(totals: Mapping[str, int]) -> str | None:
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def require_int(number: int, value: Any, field_name: str, low: int, high: int) -> int:
    """A whole number in ``low..high`` or an :class:`InvalidHand` naming the field."""
    if not is_int(value) or not low <= value <= high:
        raise InvalidHand(
            number,
            f"{field_name} must be a whole number from {low} to {high}, not {shown(value)}",
            field=field_name,
        )
    return value


def require_choice(number: int, value: Any, field_name: str, choices: Sequence[Any], *,
                   nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or value not in choices:
        valid = ", ".join(str(c) for c in choices) + (" or null" if nullable else "")
        raise InvalidHand(
            number,
            f"{field_name} must be one of {valid}, not {shown(value)}",
            field=field_name,
        )
    return value


def require_bool(number: int, value: Any, field_name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHand(number, f"{field_name} must be true or false, not {shown(value)}", field=field_name)
    return value
