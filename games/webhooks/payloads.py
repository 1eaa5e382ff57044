"""What each webhook event says (docs/webhooks.md shows every one).

Every body is ``{"type", "timestamp", "data"}``; ``data`` always names the ``league``. People appear
by display name, never by login name, as everywhere outside a league's own member list.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Game, Hand, HandCheck, HandRevision, League, Night, NightRound, display_name
from games.summary import game_summary


def stamp(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def envelope(event: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": event, "timestamp": stamp(timezone.now()), "data": data}


def league_ref(league: League) -> dict[str, Any]:
    return {"id": league.pk, "slug": league.slug, "name": league.name}


def game_data(game: Game) -> dict[str, Any]:
    """The game as it stands: the same fields as the API's game (``GET games/{id}/``), without its hands."""
    summary = game_summary(game)
    return {
        "id": game.pk,
        "game_type": game.game_type,
        "match": game.match_id,
        "match_game_number": game.match_game_number,
        "seats": {seat: {"id": player.pk, "name": player.name} for seat, player in game.seats.items()},
        "status": summary.status,
        "totals": dict(summary.totals),
        "extras": {name: dict(values) for name, values in summary.extras.items()},
        "winner": summary.winner,
        "next_dealer": summary.next_dealer,
        "hand_count": summary.hand_count,
        "confirmation": game.confirmation,
        "unconfirmed": game.unconfirmed,
        "provisional": game.provisional,
        "started_at": stamp(game.started_at),
        "finished_at": stamp(game.finished_at),
        "updated_at": stamp(game.updated_at),
    }


def hand_data(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "record": hand.record,
        "delta": dict(hand.delta),
        "totals": dict(hand.totals),
        "extras": dict(hand.extras or {}),
        "entered_by": display_name(hand.entered_by) if hand.entered_by_id else None,
        "entered_at": stamp(hand.entered_at),
        "confirmation": hand.check_state or None,
    }


def hand_recorded(game: Game, hand: Hand) -> dict[str, Any]:
    return {"league": league_ref(game.league), "game": game_data(game), "hand": hand_data(hand)}


def hand_corrected(game: Game, revision: HandRevision) -> dict[str, Any]:
    """A correction (``action`` "correct") or the last hand taken back ("undo", ``record`` null)."""
    return {
        "league": league_ref(game.league),
        "game": game_data(game),
        "change": {
            "number": revision.number,
            "action": revision.action,
            "previous_record": revision.previous_record,
            "record": revision.new_record,
            "reason": revision.reason,
            "changed_by": display_name(revision.changed_by) if revision.changed_by_id else None,
            "changed_at": stamp(revision.changed_at),
        },
    }


def check_data(check: HandCheck) -> dict[str, Any]:
    """A confirmation or a dispute as the trail shows it: who (by seat), how, and for a dispute what they say."""
    return {
        "number": check.number,
        "action": check.action,
        "seat": check.seat or None,
        "via": check.via,
        "by": display_name(check.by) if check.by_id else None,
        "hand_version": check.hand_version,
        "record": check.record,
        "note": check.note,
        "at": stamp(check.at),
    }


def hand_checked(game: Game, hand: Hand, check: HandCheck) -> dict[str, Any]:
    """``hand.confirmed`` and ``hand.disputed``: the hand as it stands, and the confirmation or the dispute."""
    return {"league": league_ref(game.league), "game": game_data(game), "hand": hand_data(hand),
            "check": check_data(check)}


def game_finished(game: Game) -> dict[str, Any]:
    return {"league": league_ref(game.league), "game": game_data(game)}


def night_data(night: Night) -> dict[str, Any]:
    """A club night as the API's night (``GET nights/{id}/``) names it, without its players and rounds."""
    return {
        "id": night.pk,
        "name": night.name,
        "game_type": night.game_type,
        "movement": night.movement,
        "round_end": night.round_end,
        "hands": night.hands,
        "minutes": night.minutes,
        "rounds": night.rounds,
        "status": night.status,
        "created_at": stamp(night.created_at),
        "finished_at": stamp(night.finished_at),
    }


def night_event(night: Night) -> dict[str, Any]:
    """``night.started`` and ``night.finished``."""
    return {"league": league_ref(night.league), "night": night_data(night)}


def round_started(night: Night, round_: NightRound) -> dict[str, Any]:
    """The round's tables: each one's number, game id and seats (players by id and name), and who sits out."""
    tables = round_.tables.select_related("game", *(f"game__{name}" for name in Game.SEAT_FIELDS.values()))
    names = {player.pk: player.name for player in night.league.players.filter(pk__in=round_.sitting_out)}
    sitting_out = [{"id": pk, "name": names.get(pk, "")} for pk in round_.sitting_out]
    return {
        "league": league_ref(night.league),
        "night": night_data(night),
        "round": {
            "number": round_.number,
            "started_at": stamp(round_.started_at),
            "time_up_at": stamp(round_.time_up_at),
            "tables": [{"number": table.number, "game": table.game_id,
                        "seats": {seat: {"id": player.pk, "name": player.name}
                                  for seat, player in table.game.seats.items()}}
                       for table in tables.order_by("number")],
            "sitting_out": sitting_out,
        },
    }


def standings_updated(league: League, *, computed_at: datetime) -> dict[str, Any]:
    """Only that they changed: the tables themselves are at ``GET leagues/{id}/standings/``."""
    return {"league": league_ref(league), "computed_at": stamp(computed_at)}


def test_event(league: League, *, by) -> dict[str, Any]:
    return {"league": league_ref(league), "sent_by": display_name(by) if by else None,
            "message": "A test event from Scorekeeper: your endpoint receives and verifies this league's events."}
