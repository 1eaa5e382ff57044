"""A club night as its pages and the API read it: the one lookup (``night_for``), the night with its players,
rounds, tables and standings in a fixed number of queries (``night_view``), each player's guide card, and the
version the live pages compare (docs/club-night.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Literal

from django.db.models import Count, Max, Q
from django.utils import timezone

from games import policy
from games.errors import NotAllowed, NotFound
from games.models import Game, League, Night, NightPlayer, NightRound, NightSubstitution, NightTable, Player
from games.rules import SEATS, ruleset_class
from games.selectors import MAX_ID
from games.standings.nights import NightLine, RoundPlayed, TableResult, night_standings

SEATED = tuple(f"game__{name}" for name in Game.SEAT_FIELDS.values())
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def visible_nights(user):
    return Night.objects.filter(league__in=policy.visible_leagues(user).values("pk"))


def night_for(user, pk: Any, *, need: Literal["view", "run"] = "view") -> Night:
    """The night with id ``pk``, as ``user`` may have it: the one lookup and permission check of every door.

    A night of a league the user may not see is :class:`NotFound` (worded as for none at all); one they see but
    may not run (``need="run"``: check players in, start rounds...) is :class:`NotAllowed`. One query (and the
    user's role, when it is asked)."""
    night = (visible_nights(user).select_related("league").filter(pk=pk).first()
             if isinstance(pk, int) and not isinstance(pk, bool) and 0 < pk <= MAX_ID else None)
    if night is None:
        raise NotFound(f"there is no club night {pk}")
    if need == "run" and not policy.can_run_night(user, night.league):
        raise NotAllowed("only the league's owners and scorekeepers can run its club nights")
    return night


def night_by_code(pk: Any, code: str) -> Night | None:
    """The night whose code is ``code`` now (its check-in QR, a table card), whoever asks; None otherwise."""
    if not (isinstance(pk, int) and 0 < pk <= MAX_ID):
        return None
    night = Night.objects.select_related("league").filter(pk=pk).first()
    return night if night is not None and policy.night_code_matches(night, code) else None


def league_nights(league: League, limit: int = 10) -> list[Night]:
    """The league's latest nights, newest first, each with ``round_count`` (one query)."""
    return list(Night.objects.filter(league=league).annotate(round_count=Count("night_rounds"))
                .order_by("-created_at", "-id")[:limit])


def night_version(night: Night) -> tuple[Any, ...]:
    """What the night's live pages show changes with: the night's row, and its games' (their hands, their seats), and
    any player's name. One query, or none for a night read with its version (``versions.night_with_version``)."""
    known = getattr(night, "version", None)
    if known is not None:
        return known
    games = (Game.objects.filter(night_table__round__night=night)
             .aggregate(changed=Max("updated_at"), count=Count("pk")))
    renamed = Player.objects.order_by("-updated_at").values_list("updated_at", flat=True).first()
    return (night.pk, night.updated_at.isoformat(), games["changed"], games["count"], renamed)


# --- the night as a whole ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableView:
    """A table of a round, with its game as it stands (seats with their players)."""

    number: int
    game: Game
    substitutions: tuple[NightSubstitution, ...] = ()

    @property
    def playing(self) -> bool:
        return self.game.status == Game.Status.IN_PROGRESS

    @property
    def last_hand(self) -> int | None:
        return self.game.options.get("last_hand")

    def seat_of(self, player_id: int) -> str | None:
        return next((seat for seat, pk in self.game.seat_ids.items() if pk == player_id), None)

    def progress(self, now: datetime | None = None) -> str:
        """How far the table is, in words: "hand 5 of 8", "hand 3 (time is up: the last)", "finished", ..."""
        game = self.game
        if game.status == Game.Status.FINISHED:
            return "finished"
        if game.status == Game.Status.ABANDONED:
            return "abandoned"
        if game.time_is_up(now or timezone.now()):
            return f"hand {game.hand_count + 1}, the last: time is up"
        if self.last_hand:
            return f"hand {game.hand_count + 1} of {self.last_hand}"
        return f"hand {game.hand_count + 1}"


@dataclass(frozen=True)
class RoundView:
    round: NightRound
    tables: tuple[TableView, ...]
    sitting_out: tuple[Player, ...]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def playing(self) -> tuple[TableView, ...]:
        return tuple(table for table in self.tables if table.playing)

    @property
    def done(self) -> bool:
        return not self.playing


@dataclass(frozen=True)
class GuideCard:
    """Where one player sits in the latest round: "Round 2 · table 3 · you sit E · partner Ann · against Bob & Cid";
    or that they sit it out, or have not been seated yet (they arrived after it started)."""

    player: Player
    round: int | None
    table: TableView | None = None
    seat: str | None = None
    partners: tuple[Player, ...] = ()
    opponents: tuple[Player, ...] = ()
    sitting_out: bool = False
    left: bool = False

    @property
    def text(self) -> str:
        if self.left:
            return f"{self.player.name} has left the night"
        if self.round is None:
            return "The first round has not started yet"
        if self.table is None:
            return (f"Round {self.round} · you sit this round out" if self.sitting_out
                    else f"Round {self.round} · you play from the next round")
        parts = [f"Round {self.round}", f"table {self.table.number}", f"you sit {self.seat}"]
        if self.partners:
            parts.append("partner " + " & ".join(player.name for player in self.partners))
        parts.append("against " + " & ".join(player.name for player in self.opponents))
        return " · ".join(parts)


@dataclass
class NightView:
    night: Night
    entrants: list[NightPlayer]
    rounds: list[RoundView]
    players: dict[int, Player] = field(default_factory=dict)

    @property
    def present(self) -> list[NightPlayer]:
        return [entrant for entrant in self.entrants if entrant.present]

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        return self.night.status == Night.Status.FINISHED

    @property
    def ruleset_name(self) -> str:
        return ruleset_class(self.night.game_type).name

    @property
    def round_end_words(self) -> str:
        night = self.night
        if night.round_end == Night.RoundEnd.HANDS:
            return f"{night.hands} hand{'s' if night.hands != 1 else ''} a round"
        if night.round_end == Night.RoundEnd.TIME:
            return f"{night.minutes} minutes a round, the hand in play then the last"
        return f"each round a game to {night.options.get('target')}"

    @property
    def pairs(self) -> dict[int, tuple[int, ...]] | None:
        """A pairs night's pairs (number -> players, whoever played for it), in the order they came."""
        if self.night.movement != Night.Movement.PAIRS:
            return None
        out: dict[int, list[int]] = {}
        for entrant in self.entrants:
            if entrant.pair is not None:
                out.setdefault(entrant.pair, []).append(entrant.player_id)
        return {number: tuple(players) for number, players in out.items()}

    def partner_of(self, entrant: NightPlayer) -> Player | None:
        """A pairs night: the present player sharing ``entrant``'s pair."""
        if entrant.pair is None:
            return None
        return next((other.player for other in self.entrants if other.pair == entrant.pair and other.present
                     and other.pk != entrant.pk), None)

    @cached_property
    def standings(self) -> list[NightLine]:
        rounds = [RoundPlayed(number=view.number, sitting_out=tuple(view.round.sitting_out), tables=tuple(
            TableResult(round=view.number, table=table.number, game_id=table.game.pk,
                        sides={side: tuple(table.game.seat_ids[seat] for seat in table.game.ruleset.seats_of(side))
                               for side in table.game.ruleset.sides},
                        totals={side: int(total) for side, total in table.game.totals.items()},
                        status=table.game.status, winner=table.game.winner, ruleset=table.game.ruleset,
                        hands=table.game.hand_count)
            for table in view.tables)) for view in self.rounds]
        return night_standings(rounds, [entrant.player_id for entrant in self.entrants], pairs=self.pairs,
                               lower_wins=ruleset_class(self.night.game_type).lower_wins)

    def names(self, who: Sequence[int]) -> str:
        return " & ".join(self.players[pk].name for pk in who if pk in self.players)

    def card(self, player: Player) -> GuideCard:
        """``player``'s guide card for the latest round."""
        entrant = next((entrant for entrant in self.entrants if entrant.player_id == player.pk), None)
        current = self.current
        if entrant is not None and not entrant.present:
            return GuideCard(player=player, round=current.number if current else None, left=True)
        if current is None:
            return GuideCard(player=player, round=None)
        for table in current.tables:
            seat = table.seat_of(player.pk)
            if seat is None:
                continue
            seats = table.game.seats
            partner_seat = SEATS[(SEATS.index(seat) + 2) % 4]
            ruleset = table.game.ruleset
            partners = (seats[partner_seat],) if ruleset.partnerships else ()
            opponents = tuple(seats[other] for other in SEATS
                              if other != seat and (other != partner_seat or not ruleset.partnerships))
            return GuideCard(player=player, round=current.number, table=table, seat=seat, partners=partners,
                             opponents=opponents)
        return GuideCard(player=player, round=current.number,
                         sitting_out=player.pk in current.round.sitting_out)

    @property
    def next_step(self) -> str:
        """What the director does next, in words."""
        if self.finished:
            return "The night is over."
        current = self.current
        if current is None:
            count = len(self.present)
            return (f"{count} checked in: start round 1 when everyone is here" if count
                    else "Check players in, then start round 1")
        if current.playing:
            return f"Round {current.number}: {len(current.playing)} of {len(current.tables)} tables still playing"
        if current.number >= self.night.rounds:
            return f"All {self.night.rounds} rounds played: end the night, or play another round"
        return f"Round {current.number} is done: start round {current.number + 1}"


def night_view(night: Night) -> NightView:
    """The night with everyone checked in, every round with its tables' games (seated players loaded) and who sat
    out. Four queries, whatever the night's size."""
    entrants = list(NightPlayer.objects.filter(night=night).select_related("player").order_by("order"))
    rounds = list(NightRound.objects.filter(night=night).order_by("number"))
    tables = list(NightTable.objects.filter(round__night=night).select_related("game", *SEATED)
                  .order_by("round__number", "number"))
    substitutions = list(NightSubstitution.objects.filter(table__round__night=night)
                         .select_related("leaving", "arriving").order_by("at", "id"))
    players: dict[int, Player] = {entrant.player_id: entrant.player for entrant in entrants}
    for table in tables:
        table.game.league = night.league
        players.update({player.pk: player for player in table.game.seats.values()})
    by_round: dict[int, list[TableView]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(TableView(
            number=table.number, game=table.game,
            substitutions=tuple(change for change in substitutions if change.table_id == table.pk)))
    views = [RoundView(round=round_, tables=tuple(by_round.get(round_.pk, ())),
                       sitting_out=tuple(players[pk] for pk in round_.sitting_out if pk in players))
             for round_ in rounds]
    return NightView(night=night, entrants=entrants, rounds=views, players=players)


def player_nights(user) -> Q:
    """Nights the user's own players are checked in to."""
    return Q(entrants__player__user=user)


def nights_of(*, user, limit: int = 5) -> list[Night]:
    """Nights not yet over that ``user`` runs or is checked in to, newest first (for their home page)."""
    if not user.is_authenticated:
        return []
    running = Q(league__memberships__user=user, league__memberships__role__in=policy.WRITER_ROLES)
    found = (visible_nights(user).filter(running | player_nights(user)).exclude(status=Night.Status.FINISHED)
             .select_related("league").distinct().order_by("-created_at", "-id"))
    return list(found[:limit])
