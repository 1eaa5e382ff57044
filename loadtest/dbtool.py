"""Look in (or set up) the load test's database, from a subprocess with that database's settings.

    DATABASE_URL=... [REDIS_URL=...] python -m loadtest.dbtool setup --players 40
    DATABASE_URL=... python -m loadtest.dbtool games 3 4 5
    DATABASE_URL=... python -m loadtest.dbtool standings LEAGUE_ID
    DATABASE_URL=... REDIS_URL=... python -m loadtest.dbtool catch-up
    DATABASE_URL=... python -m loadtest.dbtool user USERNAME
    DATABASE_URL=... python -m loadtest.dbtool club LEAGUE_ID

Each prints one JSON document. The harness runs this in a subprocess so that its own process
(a pytest run with its own test database, or ``make load``) never points Django elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

PASSWORD = "load-test-password-not-secret"


def setup(players: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.services import league_create, player_create

    user = get_user_model().objects.create_user(username=f"loadtest-{secrets.token_hex(4)}", password=PASSWORD)
    league = league_create(name=f"Load night {secrets.token_hex(3)}", by=user)
    people = [player_create(name=f"Load player {n}", by=user, league=league).pk for n in range(players)]
    token, _ = Token.objects.get_or_create(user=user)
    return {"username": user.username, "token": token.key, "league_id": league.pk, "players": people}


def games(ids: list[int]) -> dict[str, Any]:
    from games.integrity import game_mismatches
    from games.models import Game

    found = {}
    for game in Game.objects.filter(pk__in=ids).prefetch_related("hands"):
        hands = sorted(game.hands.all(), key=lambda hand: hand.number)
        found[str(game.pk)] = {
            "numbers": [hand.number for hand in hands],
            "records": [hand.record for hand in hands],
            "status": game.status,
            "hand_count": game.hand_count,
            "problems": game_mismatches(game),
        }
    return {"games": found, "missing": sorted(set(ids) - {int(pk) for pk in found})}


def rows(league_id: int) -> dict[str, list]:
    from games.models import PlayerFigures, PlayerRating, RatingChange, Standing

    def table(model, *exclude: str) -> list:
        skip = {"id", "computed_at", *exclude}
        return sorted(json.dumps({k: v for k, v in row.items() if k not in skip}, sort_keys=True, default=str)
                      for row in model.objects.filter(league_id=league_id).values())

    return {"standings": table(Standing), "ratings": table(PlayerRating), "rating_changes": table(RatingChange),
            "figures": table(PlayerFigures)}


def standings(league_id: int) -> dict[str, Any]:
    """The league's stored standings against a from-scratch recompute (rolled back, so nothing changes)."""
    from django.db import transaction

    from games.models import Game
    from games.standings.services import league_standings_recompute

    with transaction.atomic():
        stored = rows(league_id)
        league_standings_recompute(league_id=league_id)
        fresh = rows(league_id)
        transaction.set_rollback(True)
    differences = {name: {"stored_only": sorted(set(stored[name]) - set(fresh[name]))[:5],
                          "fresh_only": sorted(set(fresh[name]) - set(stored[name]))[:5]}
                   for name in stored if stored[name] != fresh[name]}
    return {
        "converged": not differences,
        "differences": differences,
        "standing_rows": len(stored["standings"]),
        "finished_games": Game.objects.filter(league_id=league_id, status=Game.Status.FINISHED).count(),
    }


def catch_up() -> dict[str, Any]:
    """Queue the catch-up task through the broker, as celery beat or an operator would after an outage."""
    from scorekeeper.celery import app

    result = app.send_task("games.standings_catch_up")
    return {"task_id": result.id}


def user(username: str) -> dict[str, Any]:
    """An account (with the load test's password) for a test to name: a member to add, a scorekeeper."""
    from django.contrib.auth import get_user_model

    made = get_user_model().objects.create_user(username=username, password=PASSWORD)
    return {"id": made.pk, "username": made.username}


def club(league_id: int) -> dict[str, Any]:
    """The league's people beside its owner: "member", who joined by accepting an invitation, "helper", who
    did not, one of the league's players that the member claims, and an open invitation link."""
    from django.contrib.auth import get_user_model

    from games.models import League
    from games.services import invitation_accept, invitation_create, player_claim, player_create

    league = League.objects.get(pk=league_id)
    owner = league.memberships.get(role="owner").user
    users = {name: get_user_model().objects.create_user(username=name, password=PASSWORD)
             for name in ("member", "helper")}
    invited = invitation_create(league=league, role="member", by=owner, invitee=users["member"])
    invitation_accept(token=invited.token, by=users["member"])
    extra = player_create(name="Extra player", by=owner, league=league)
    link = invitation_create(league=league, role="member", by=owner, max_uses=50)
    claim = player_claim(league=league, player=extra, by=users["member"])
    return {"player_id": extra.pk, "invitation_id": link.pk, "token": link.token, "claim_id": claim.pk}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("setup").add_argument("--players", type=int, default=40)
    commands.add_parser("games").add_argument("ids", type=int, nargs="*")
    commands.add_parser("standings").add_argument("league_id", type=int)
    commands.add_parser("catch-up")
    commands.add_parser("user").add_argument("username")
    commands.add_parser("club").add_argument("league_id", type=int)
    args = parser.parse_args()

    import django

    django.setup()
    if args.command == "setup":
        answer = setup(args.players)
    elif args.command == "games":
        answer = games(args.ids)
    elif args.command == "standings":
        answer = standings(args.league_id)
    elif args.command == "user":
        answer = user(args.username)
    elif args.command == "club":
        answer = club(args.league_id)
    else:
        answer = catch_up()
    json.dump(answer, sys.stdout, default=str)


if __name__ == "__main__":
    main()
