"""Club nights: starting one, checking players in and out, each round seated by the movement with its games
started, substitutes, moving a table, ending a table's game or the night (docs/club-night.md).

Every write locks the night's row first, so two phones of the night (the organiser's, and a player checking in
with the night's code) take turns: a round is started once, a player checked in once. A round's games are
ordinary games of the league: the table page, the outbox, confirmation by the other side, the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import events, policy
from games.errors import GameClosed, InvalidInput, NotAllowed, StateConflict
from games.idempotency import row_once
from games.models import Game, League, Night, NightPlayer, NightRound, NightSubstitution, NightTable, Player
from games.models.nights import new_night_code
from games.movements import MovementError, Round, Table, next_individual_round, next_pairs_round
from games.rules import SEATS, ruleset_class

from .games import abandon, league_options, new_game
from .hands import game_end_now
from .players import create as player_create

# What a night may be set to: a round of 1 to 50 hands, or of 5 minutes to 4 hours; 1 to 60 rounds.
HANDS_RANGE, MINUTES_RANGE, ROUNDS_RANGE = (1, 50), (5, 240), (1, 60)
MAX_TABLE_NUMBER = 99
# Beyond two hundred players a "night" is not a club night; the movements are computed for up to this many.
MAX_PLAYERS = 200


def whole_number(value: Any, field: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{what} must be a whole number from {low} to {high}", field=field)
    return value


# --- starting a night ----------------------------------------------------------------------------------


def night_start(*, league: League, by, game_type: str, options: dict[str, Any] | None = None,
                movement: str = "individual", round_end: str = "hands", hands: int | None = None,
                minutes: int | None = None, rounds: int = 3, name: str | None = None,
                idempotency_key: str | None = None) -> Night:
    """Start a club night of ``league``: its game and house rules (the league's, overridden by ``options``), how a
    round ends (``hands``: after ``hands`` hands; ``time``: the hand in play after ``minutes`` is the last;
    ``target``: each game played to its target), how many rounds, and the movement (``individual`` or ``pairs``).
    Players then check in. A retry with the same ``idempotency_key`` starts one night."""
    request = {"league": league.pk, "game_type": game_type, "options": options, "movement": movement,
               "round_end": round_end, "hands": hands, "minutes": minutes, "rounds": rounds, "name": name}
    return row_once(user=by, scope="nights", key=idempotency_key, request=request, rows=Night.objects.all(),
                    lock=lambda: League.lock(league.pk),
                    write=lambda: start(league=league, by=by, game_type=game_type, options=options,
                                        movement=movement, round_end=round_end, hands=hands, minutes=minutes,
                                        rounds=rounds, name=name))


@transaction.atomic
def start(*, league, by, game_type, options, movement, round_end, hands, minutes, rounds, name) -> Night:
    if not policy.can_run_night(by, league):
        raise NotAllowed("only the league's owners and scorekeepers can run its club nights")
    ruleset = ruleset_class(game_type)
    chosen = league_options(league, game_type, options)
    if chosen.get("last_hand") is not None:
        raise InvalidInput("a night's games end as its rounds do: say how a round ends (round_end) instead of "
                           "last_hand", field="options.last_hand")
    complete = ruleset.complete_options(chosen)
    if movement not in Night.Movement.values:
        raise InvalidInput(f"movement must be one of {', '.join(Night.Movement.values)}", field="movement")
    if round_end not in Night.RoundEnd.values:
        raise InvalidInput(f"round_end must be one of {', '.join(Night.RoundEnd.values)}", field="round_end")
    if round_end == Night.RoundEnd.HANDS:
        hands = whole_number(hands, "hands", *HANDS_RANGE, "a round's hands")
        minutes = None
    elif round_end == Night.RoundEnd.TIME:
        minutes = whole_number(minutes, "minutes", *MINUTES_RANGE, "a round's minutes")
        hands = None
    else:
        hands = minutes = None
    rounds = whole_number(rounds, "rounds", *ROUNDS_RANGE, "the number of rounds")
    name = " ".join((name or "").split()) or f"Club night, {timezone.localdate():%a %-d %b %Y}"
    if len(name) > 120:
        raise InvalidInput("a night's name can be at most 120 characters", field="name")
    night = Night.objects.create(
        league=league, name=name, game_type=game_type, options=complete, movement=movement, round_end=round_end,
        hands=hands, minutes=minutes, rounds=rounds, created_by=by if by.is_authenticated else None)
    events.publish(events.NightStarted(night=night))
    return night


def locked_night(night: Night) -> Night:
    """The night's row, locked until the transaction ends, with its league."""
    return Night.objects.select_for_update(of=("self",)).select_related("league").get(pk=night.pk)


def night_once(night: Night, *, by, what: str, key: str | None, request: dict[str, Any], rows, write):
    """A night's write done at most once per idempotency key (``games.idempotency.row_once``): the night's row is
    locked before the key is looked up, so a retry racing the first request waits for it and then gets its
    answer (the row it made or changed, as it is now) rather than doing the write again or being refused by
    what the first did."""
    return row_once(user=by, scope=f"night:{night.pk}:{what}", key=key, request=request, rows=rows, write=write,
                    lock=lambda: locked_night(night))


def ids(*values: Any) -> list[Any]:
    """Players named by row or id, as an idempotency key's request remembers them."""
    return [value.pk if isinstance(value, Player) else value for value in values]


def check_running(night: Night, by) -> None:
    if not policy.can_run_night(by, night.league):
        raise NotAllowed("only the league's owners and scorekeepers can run its club nights")


def check_not_over(night: Night) -> None:
    if night.status == Night.Status.FINISHED:
        raise StateConflict("the night is over: it was ended", field="night")


def touched(night: Night) -> None:
    """Something of the night changed: its ``updated_at`` moves, so the live pages answer afresh."""
    night.save(update_fields=["status", "finished_at", "updated_at"])


# --- who is here -----------------------------------------------------------------------------------------


def league_player(night: Night, player: Player | int | None, field: str) -> Player:
    pk = player.pk if isinstance(player, Player) else player
    if isinstance(pk, bool) or not isinstance(pk, int):
        raise InvalidInput("name a player of the league by id", field=field)
    found = night.league.players.filter(pk=pk).first()
    if found is None:
        raise InvalidInput(f"there is no player {pk} in {night.league.name}", field=field)
    return found


def entrant_of(night: Night, player: Player) -> NightPlayer | None:
    return NightPlayer.objects.filter(night=night, player=player).first()


def night_check_in(*, night: Night, by, player: Player | int | None = None, name: str | None = None,
                   partner: Player | int | None = None, code: str | None = None,
                   allow_similar: bool = False, idempotency_key: str | None = None) -> NightPlayer:
    """Check a player in: one of the league's (``player``), or a new one (``name``, the organiser only).

    The organiser (an owner or scorekeeper) checks anyone in; whoever holds the night's ``code`` checks
    themselves in by picking their name. In a pairs night ``partner`` checks the partner in with them, as a pair.
    A player who left and comes back is checked in again where they were. Arrivals after a round has started
    play from the next round. Refused: a player already here, a night that is over. A retry with the same
    ``idempotency_key`` checks in once.
    """
    request = {"player": ids(player)[0], "name": name, "partner": ids(partner)[0], "code": code,
               "allow_similar": allow_similar}
    return night_once(night, by=by, what="check-in", key=idempotency_key, request=request,
                      rows=NightPlayer.objects.all(),
                      write=lambda: check_in(night=night, by=by, player=player, name=name, partner=partner, code=code,
                                             allow_similar=allow_similar))


@transaction.atomic
def check_in(*, night: Night, by, player, name, partner, code, allow_similar) -> NightPlayer:
    night = locked_night(night)
    by_code = code is not None and not policy.can_run_night(by, night.league)
    if by_code:
        if not policy.night_code_matches(night, code or ""):
            raise NotAllowed("this night's code has been renewed: scan the new one")
        if name is not None:
            raise NotAllowed("only the organiser adds new players: pick your name from the list")
    else:
        check_running(night, by)
    check_not_over(night)
    if name is not None:
        if player is not None:
            raise InvalidInput("pick a player or type a new name, not both", field="name")
        player = player_create(name=name, by=by, league=night.league, allow_similar=allow_similar, field="name")
    chosen = league_player(night, player, "player")
    entrant = arrive(night, chosen, by=None if by_code else by)
    if partner is not None:
        if night.movement != Night.Movement.PAIRS:
            raise InvalidInput("partners are fixed only in a pairs night; an individual night changes them "
                               "every round", field="partner")
        other = league_player(night, partner, "partner")
        if other == chosen:
            raise InvalidInput(f"{chosen.name} cannot partner themselves", field="partner")
        pair_up(night, entrant, arrive(night, other, by=None if by_code else by, partner_of=chosen))
    touched(night)
    return entrant


def arrive(night: Night, player: Player, *, by, partner_of: Player | None = None) -> NightPlayer:
    entrant = entrant_of(night, player)
    if entrant is not None and entrant.present:
        if partner_of is not None and entrant.pair is None:
            return entrant  # here already, without a partner: the pair is made with them
        raise StateConflict(f"{player.name} is already checked in (since {timezone.localtime(entrant.arrived_at):%H:%M})",
                            field="partner" if partner_of is not None else "player")
    if entrant is not None:
        entrant.left_at = None
        entrant.arrived_at = timezone.now()
        entrant.pair = None
        entrant.save(update_fields=["left_at", "arrived_at", "pair"])
        return entrant
    last = NightPlayer.objects.filter(night=night).order_by("-order").values_list("order", flat=True).first() or 0
    return NightPlayer.objects.create(night=night, player=player, order=last + 1, checked_in_by=by)


def pair_up(night: Night, first: NightPlayer, second: NightPlayer) -> None:
    """Make two present players of a pairs night partners (their pair number: one more than the highest)."""
    for entrant in (first, second):
        if entrant.pair is not None:  # a partner who is still here keeps them
            partner = NightPlayer.objects.filter(night=night, pair=entrant.pair, left_at__isnull=True).exclude(
                pk=entrant.pk).select_related("player").first()
            if partner is not None:
                raise StateConflict(f"{entrant.player.name} already partners {partner.player.name}",
                                    field="partner")
    number = (NightPlayer.objects.filter(night=night).exclude(pair=None).order_by("-pair")
              .values_list("pair", flat=True).first() or 0) + 1
    NightPlayer.objects.filter(pk__in=[first.pk, second.pk]).update(pair=number)
    first.pair = second.pair = number


def night_pair(*, night: Night, by, player: Player | int, partner: Player | int,
               idempotency_key: str | None = None) -> NightPlayer:
    """Pair two players checked in to a pairs night who have no partner (a pair whose player left, say). A retry
    with the same ``idempotency_key`` pairs them once."""
    return night_once(night, by=by, what="pair", key=idempotency_key, request={"players": ids(player, partner)},
                      rows=NightPlayer.objects.all(), write=lambda: pair(night=night, by=by, player=player,
                                                                         partner=partner))


@transaction.atomic
def pair(*, night: Night, by, player, partner) -> NightPlayer:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    if night.movement != Night.Movement.PAIRS:
        raise InvalidInput("partners are fixed only in a pairs night", field="partner")
    first, second = (present_entrant(night, league_player(night, who, field), field)
                     for who, field in ((player, "player"), (partner, "partner")))
    if first.pk == second.pk:
        raise InvalidInput(f"{first.player.name} cannot partner themselves", field="partner")
    pair_up(night, first, second)
    touched(night)
    return first


def present_entrant(night: Night, player: Player, field: str) -> NightPlayer:
    entrant = entrant_of(night, player)
    if entrant is None or not entrant.present:
        raise StateConflict(f"{player.name} is not checked in", field=field)
    return entrant


def night_check_out(*, night: Night, by, player: Player | int, idempotency_key: str | None = None) -> NightPlayer:
    """A player leaves the night: they are seated in no later round. Refused while they play at a table of the
    round (a substitute takes their seat, or the table's game is ended first); a pairs night's partner stays,
    without a partner until paired again. A retry with the same ``idempotency_key`` gets the first answer."""
    return night_once(night, by=by, what="check-out", key=idempotency_key, request={"player": ids(player)[0]},
                      rows=NightPlayer.objects.all(), write=lambda: check_out(night=night, by=by, player=player))


@transaction.atomic
def check_out(*, night: Night, by, player) -> NightPlayer:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    chosen = league_player(night, player, "player")
    entrant = present_entrant(night, chosen, "player")
    playing = playing_table(night, chosen)
    if playing is not None:
        raise StateConflict(
            f"{chosen.name} is playing at table {playing.number} (hand {playing.game.hand_count + 1}): "
            "substitute someone for them, or end the table's game first", field="player")
    # A pairs night's leaver keeps their pair's number (the pair's results name them); the partner stays, and
    # needs a new partner before the next round.
    entrant.left_at = timezone.now()
    entrant.save(update_fields=["left_at"])
    touched(night)
    return entrant


# --- rounds ----------------------------------------------------------------------------------------------


def current_round(night: Night) -> NightRound | None:
    return NightRound.objects.filter(night=night).order_by("-number").first()


def round_tables(round_: NightRound) -> list[NightTable]:
    return list(round_.tables.select_related("game").order_by("number"))


def playing_table(night: Night, player: Player) -> NightTable | None:
    """The table of the night where ``player`` sits in a game still being played, if any."""
    seated = NightTable.objects.filter(round__night=night, game__status=Game.Status.IN_PROGRESS).select_related(
        "game")
    for table in seated:
        if player.pk in table.game.seat_ids.values():
            return table
    return None


def as_played(round_: NightRound) -> Round[int]:
    """A round as it was played, for the movement: each table's seats as its game has them now (a substitute in
    the seat they took), and who sat out."""
    tables = tuple(Table(*(table.game.seat_ids[seat] for seat in SEATS)) for table in round_tables(round_))
    return Round(tables, tuple(round_.sitting_out))


def still_playing(tables: Sequence[NightTable]) -> list[NightTable]:
    return [table for table in tables if table.game.status == Game.Status.IN_PROGRESS]


def in_words(tables: Sequence[NightTable]) -> str:
    described = [f"table {table.number} (hand {table.game.hand_count + 1})" for table in tables]
    return described[0] if len(described) == 1 else ", ".join(described[:-1]) + " and " + described[-1]


def night_round_start(*, night: Night, by, move_on: bool = False, idempotency_key: str | None = None) -> NightRound:
    """Seat the next round by the movement and start its tables' games.

    Everyone checked in and not gone plays or sits out; the movement (docs/club-night.md) plans from the rounds
    as they were played. Refused while a table of the last round is still playing, unless ``move_on``: that table
    finishes its game, and its players go to their new tables when it is done. A retry with the same
    ``idempotency_key`` starts one round.
    """
    return night_once(night, by=by, what="rounds", key=idempotency_key, request={"move_on": move_on},
                      rows=NightRound.objects.all(), write=lambda: round_start(night=night, by=by, move_on=move_on))


@transaction.atomic
def round_start(*, night: Night, by, move_on: bool) -> NightRound:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    played = list(NightRound.objects.filter(night=night).order_by("number"))
    if played and not move_on:
        late = still_playing(round_tables(played[-1]))
        if late:
            raise StateConflict(
                f"round {played[-1].number} is still being played at {in_words(late)}: wait for "
                f"{'it' if len(late) == 1 else 'them'} to finish, end {'its' if len(late) == 1 else 'their'} "
                "game, or move on and leave it to finish", field="move_on")
    entrants = list(NightPlayer.objects.filter(night=night, left_at__isnull=True).select_related("player")
                    .order_by("order"))
    history = [as_played(round_) for round_ in played]
    try:
        plan = planned(night, entrants, history)
    except MovementError as error:
        raise StateConflict(error.message, field="players") from None
    now = timezone.now()
    time_up = now + timedelta(minutes=night.minutes) if night.round_end == Night.RoundEnd.TIME else None
    round_ = NightRound.objects.create(night=night, number=len(played) + 1, started_at=now, time_up_at=time_up,
                                       sitting_out=list(plan.sitting_out))
    players = {entrant.player.pk: entrant.player for entrant in entrants}
    options = dict(night.options)
    if night.round_end == Night.RoundEnd.HANDS:
        options["last_hand"] = night.hands
    for number, table in enumerate(plan.tables, start=1):
        game = new_game(game_type=night.game_type, players={seat: players[pk] for seat, pk in table.seats.items()},
                        by=by, league=night.league, options=options)
        if time_up is not None:
            game.time_up_at = time_up
            game.save(update_fields=["time_up_at"])
        NightTable.objects.create(round=round_, number=number, game=game)
    night.status = Night.Status.PLAYING
    touched(night)
    events.publish(events.RoundStarted(night=night, round=round_))
    return round_


def planned(night: Night, entrants: Sequence[NightPlayer], history: Sequence[Round[int]]) -> Round[int]:
    """The movement's next round for the players here, in check-in order."""
    if len(entrants) > MAX_PLAYERS:
        raise MovementError(f"a night seats at most {MAX_PLAYERS} players")
    if night.movement == Night.Movement.INDIVIDUAL:
        if len(entrants) < 4:
            raise MovementError(f"a round needs at least four players; {len(entrants)} checked in")
        return next_individual_round([entrant.player.pk for entrant in entrants], history)
    pairs: dict[int, list[NightPlayer]] = {}
    for entrant in entrants:
        pairs.setdefault(entrant.pair or -entrant.pk, []).append(entrant)
    for pair in pairs.values():
        if len(pair) == 1:
            raise MovementError(f"{pair[0].player.name} has no partner: pair them with someone, or check them out")
    if len(pairs) < 2:
        raise MovementError(f"a round needs at least two pairs; {len(pairs)} checked in")
    return next_pairs_round([tuple(entrant.player.pk for entrant in pair) for pair in pairs.values()], history)


# --- during a round --------------------------------------------------------------------------------------


def round_table(night: Night, number: Any, field: str = "table", round_number: Any = None) -> NightTable:
    """Table ``number`` of the night's round ``round_number`` (by default its latest)."""
    round_ = current_round(night)
    if round_ is None:
        raise StateConflict("no round has started yet", field=field)
    if round_number is not None:
        if isinstance(round_number, bool) or not isinstance(round_number, int):
            raise InvalidInput("a round is named by its number", field="round")
        if not 0 < round_number <= round_.number:
            raise InvalidInput(f"the night has no round {round_number}: its rounds are 1 to {round_.number}",
                               field="round")
        round_ = NightRound.objects.get(night=night, number=round_number)
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidInput("a table is named by its number", field=field)
    table = round_.tables.select_related("game").filter(number=number).first()
    if table is None:
        raise InvalidInput(f"round {round_.number} has no table {number}", field=field)
    return table


def night_substitute(*, night: Night, by, leaving: Player | int, arriving: Player | int,
                     idempotency_key: str | None = None) -> NightSubstitution:
    """``arriving`` takes ``leaving``'s seat at their table of the round, from the next hand, and ``leaving`` leaves
    the night. The arriving player is checked in if they were not; one sitting the round out may take the seat,
    one playing at another table may not. The table's game counts for whoever sits in the seat when it ends (the
    trail keeps who left after how many hands). In a pairs night the substitute takes the pair's place. A retry
    with the same ``idempotency_key`` substitutes once."""
    return night_once(night, by=by, what="substitute", key=idempotency_key,
                      request={"leaving": ids(leaving)[0], "arriving": ids(arriving)[0]},
                      rows=NightSubstitution.objects.all(),
                      write=lambda: substitute(night=night, by=by, leaving=leaving, arriving=arriving))


@transaction.atomic
def substitute(*, night: Night, by, leaving, arriving) -> NightSubstitution:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    out, into = league_player(night, leaving, "leaving"), league_player(night, arriving, "arriving")
    if out == into:
        raise InvalidInput(f"{out.name} cannot take their own seat", field="arriving")
    table = playing_table(night, out)
    if table is None:
        raise StateConflict(f"{out.name} has no seat at a table still playing: check them out instead",
                            field="leaving")
    check_free_to_sit(night, table, into)
    entrant = entrant_of(night, into)
    if entrant is None or not entrant.present:
        entrant = arrive(night, into, by=by)
    leaver = present_entrant(night, out, "leaving")
    game = Game.objects.select_for_update().get(pk=table.game_id)
    seat = next(seat for seat, pk in game.seat_ids.items() if pk == out.pk)
    setattr(game, Game.SEAT_FIELDS[seat], into)
    game.save(update_fields=[Game.SEAT_FIELDS[seat], "updated_at"])
    round_ = table.round
    if into.pk in round_.sitting_out:
        round_.sitting_out = [pk for pk in round_.sitting_out if pk != into.pk]
        round_.save(update_fields=["sitting_out"])
    if night.movement == Night.Movement.PAIRS:
        NightPlayer.objects.filter(pk=entrant.pk).update(pair=leaver.pair)
    leaver.left_at = timezone.now()
    leaver.save(update_fields=["left_at"])
    touched(night)
    return NightSubstitution.objects.create(table=table, seat=seat, leaving=out, arriving=into,
                                            after_hands=game.hand_count, by=by)


def check_free_to_sit(night: Night, table: NightTable, player: Player) -> None:
    """A substitute has no other seat: not at a table still playing (of any round), and none in the round of the
    table they would join, even at a table that has finished; a round seats a player once, and the movement
    plans the next round from the rounds as they were played."""
    for other in round_tables(table.round):
        if player.pk not in other.game.seat_ids.values():
            continue
        if other.pk == table.pk:
            seat = next(seat for seat, pk in other.game.seat_ids.items() if pk == player.pk)
            raise StateConflict(f"{player.name} already sits at table {other.number}, in seat {seat}",
                                field="arriving")
        if other.game.status == Game.Status.IN_PROGRESS:
            raise StateConflict(f"{player.name} is playing at table {other.number}", field="arriving")
        raise StateConflict(f"{player.name} played at table {other.number} in round {table.round.number} (its game "
                            f"is {other.game.get_status_display().lower()}): a round seats a player once; pick "
                            "someone who sat it out or has not played in it", field="arriving")
    elsewhere = playing_table(night, player)
    if elsewhere is not None:
        raise StateConflict(f"{player.name} is playing at table {elsewhere.number} of round "
                            f"{elsewhere.round.number}", field="arriving")


def night_table_move(*, night: Night, by, number: int, to: int, idempotency_key: str | None = None) -> NightTable:
    """Give table ``number`` of the round another number in the room (``to``): its game, players and code go with
    it; a table already at ``to`` takes ``number`` in exchange. A retry with the same ``idempotency_key`` moves it
    once (sent again without one, the two tables would swap back)."""
    return night_once(night, by=by, what="table-move", key=idempotency_key, request={"number": number, "to": to},
                      rows=NightTable.objects.all(), write=lambda: table_move(night=night, by=by, number=number, to=to))


@transaction.atomic
def table_move(*, night: Night, by, number, to) -> NightTable:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    table = round_table(night, number)
    to = whole_number(to, "to", 1, MAX_TABLE_NUMBER, "a table's number")
    if to == table.number:
        raise InvalidInput(f"table {number} is table {to} already", field="to")
    other = table.round.tables.filter(number=to).first()
    if other is not None:
        # Three steps, so the (round, number) constraint holds after each.
        NightTable.objects.filter(pk=other.pk).update(number=0)
        NightTable.objects.filter(pk=table.pk).update(number=to)
        NightTable.objects.filter(pk=other.pk).update(number=table.number)
    else:
        NightTable.objects.filter(pk=table.pk).update(number=to)
    table.number = to
    touched(night)
    return table


def night_table_end(*, night: Night, by, number: int, abandon_game: bool = False, round_number: int | None = None,
                    idempotency_key: str | None = None) -> Game:
    """End the game at table ``number`` of the round now: with the hands played (the side ahead wins, sides level
    draw), or abandoned (``abandon_game``: it counts for nothing). A table that never played a hand is
    abandoned either way. ``round_number``: the table of that round (a late table after the director moved on;
    a retry sent after the next round started ends the table meant, not the new round's); without it, the
    latest round's. A retry with the same ``idempotency_key`` gets the first answer."""
    return night_once(night, by=by, what="table-end", key=idempotency_key,
                      request={"number": number, "abandon": abandon_game, "round": round_number},
                      rows=Game.objects.all(),
                      write=lambda: table_end(night=night, by=by, number=number, abandon_game=abandon_game,
                                              round_number=round_number))


@transaction.atomic
def table_end(*, night: Night, by, number, abandon_game, round_number) -> Game:
    night = locked_night(night)
    check_running(night, by)
    table = round_table(night, number, round_number=round_number)
    if table.game.status != Game.Status.IN_PROGRESS:
        raise GameClosed(f"table {table.number}'s game is already {table.game.get_status_display().lower()}")
    game = abandon(game=table.game, by=by) if abandon_game else game_end_now(game=table.game, by=by)
    touched(night)
    return game


def night_end(*, night: Night, by, end_tables: bool = False, idempotency_key: str | None = None) -> Night:
    """End the night: no more rounds. Tables still playing finish their games (their results count as they come),
    or with ``end_tables`` end now with the hands played (a table with none is abandoned). A retry with the same
    ``idempotency_key`` gets the night as it is (not a refusal for a night already over)."""
    return night_once(night, by=by, what="end", key=idempotency_key, request={"end_tables": end_tables},
                      rows=Night.objects.all(), write=lambda: end(night=night, by=by, end_tables=end_tables))


@transaction.atomic
def end(*, night: Night, by, end_tables) -> Night:
    night = locked_night(night)
    check_running(night, by)
    check_not_over(night)
    if end_tables:
        for table in NightTable.objects.filter(round__night=night, game__status=Game.Status.IN_PROGRESS).select_related(
                "game"):
            game_end_now(game=table.game, by=by)
    night.status = Night.Status.FINISHED
    night.finished_at = timezone.now()
    touched(night)
    events.publish(events.NightFinished(night=night))
    return night


def night_code_renew(*, night: Night, by, idempotency_key: str | None = None) -> str:
    """A new code for the night: the old check-in QR and table cards open nothing from now on. A retry with the
    same ``idempotency_key`` renews it once (and gets the code it made, unless renewed again since)."""
    renewed = night_once(night, by=by, what="code", key=idempotency_key, request={}, rows=Night.objects.all(),
                         write=lambda: code_renew(night=night, by=by))
    return renewed.code


@transaction.atomic
def code_renew(*, night: Night, by) -> Night:
    night = locked_night(night)
    check_running(night, by)
    night.code = new_night_code()
    night.save(update_fields=["code", "updated_at"])
    return night
