"""Taking a league away: CSV tables (standings, games, a game's hands) and the owner's full backup; and
restoring a backup into a new league."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.response import Response

from api.renderers import OffersCSV
from api.serializers.exports import LeagueImportIn, LeagueImportOut, StandingsTableFilter
from api.serializers.games import HandOut
from api.serializers.people import LeagueOut
from api.serializers.standings import LeagueStandingsOut
from games import policy, selectors
from games.errors import NotAllowed
from games.exports import games_table, hands_table, standings_table
from games.models import HandRevision
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export
from games.standings.selectors import chosen_season

from .base import IF_NONE_MATCH, ApiView, one
from .hands import HandList
from .leagues import LeagueStandings, visible_league

# A CSV of more games than this is refused: narrow it by league or dates.
MAX_CSV_GAMES = 10_000


class LeagueStandingsTables(OffersCSV, LeagueStandings):
    __doc__ = LeagueStandings.__doc__ + (
        "\n\nAs CSV (`Accept: text/csv` or `?format=csv`): one line per player (or, with `table=partnerships`, per "
        "partnership), game type after game type.")

    @extend_schema(parameters=[StandingsTableFilter, IF_NONE_MATCH], responses={200: LeagueStandingsOut, 304: None},
                   tags=["leagues"])
    def get(self, request, pk: int):
        # Checked for JSON too: a ``table`` that is not one is a mistake in the query, whatever the format.
        filters = self.parse(StandingsTableFilter, data=request.query_params)
        if not self.wants_csv():
            return super().get(request, pk)
        league = visible_league(request.user, pk)
        season = chosen_season(league=league, season=filters.get("season"))
        return Response(standings_table(league=league, game_type=filters.get("game_type"),
                                        partnerships=filters["table"] == "partnerships", season=season))


def games_csv(request, games, filename: str) -> Response:
    if games.count() > MAX_CSV_GAMES:
        raise ValidationError({"non_field_errors": [f"more than {MAX_CSV_GAMES} games match; narrow the list "
                                                    "with league, started_after or started_before"]})
    return Response(games_table(games.order_by("started_at", "id"), filename=filename,
                                link=lambda game: request.build_absolute_uri(reverse("table", args=[game.pk]))))


class GameHands(OffersCSV, HandList):
    __doc__ = HandList.__doc__ + "\n\nAs CSV (`Accept: text/csv` or `?format=csv`): one line per hand."

    @extend_schema(responses=HandOut(many=True), tags=["hands"])
    def get(self, request, pk: int):
        if not self.wants_csv():
            return super().get(request, pk)
        game = one(policy.visible_games(request.user).select_related(*selectors.GAME_RELATED), pk, "game")
        corrected = set(HandRevision.objects.filter(game=game, action=HandRevision.Action.CORRECT)
                        .values_list("number", flat=True))
        hands = selectors.game_hands_with_people(game=game)
        return Response(hands_table(game, hands, corrected=corrected))


def backup_name(league) -> str:
    return f"{league.slug}-backup-{timezone.localdate():%Y-%m-%d}.json"


class LeagueBackup(ApiView):
    """The whole league as one document (docs/league-backup.md): settings, players, matches, games with their
    options, rules version and every hand. Owners only; restore it with `leagues/import/`."""

    @extend_schema(responses={200: {"type": "object", "description": "docs/league-backup.schema.json"}},
                   tags=["leagues"])
    def get(self, request, pk: int):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        league = visible_league(request.user, pk)
        if not policy.can_manage_league(request.user, league):
            raise NotAllowed("only the league's owners download its backup")
        response = Response(league_export(league=league))
        response["Content-Disposition"] = f'attachment; filename="{backup_name(league)}"'
        return response


class LeagueImport(ApiView):
    """Restore a backup into a new league (you become its owner), re-scoring every game. All or nothing: a
    400 lists every problem (under `document`) and nothing is stored. Optional `Idempotency-Key` header."""

    error_statuses = (422,)

    @extend_schema(request=LeagueImportIn, responses={201: LeagueImportOut}, tags=["leagues"])
    def post(self, request):
        data = self.parse(LeagueImportIn)
        try:
            report = league_restore(document=data["document"], by=request.user, name=data["name"] or None,
                                    slug=data["slug"] or None, idempotency_key=request.headers.get("Idempotency-Key"))
        except ImportRefused as refused:
            raise ValidationError({"document": refused.problems}) from None
        body = {"league": LeagueOut(report.league).data, "report": {**report.as_dict(), "summary": report.sentence()}}
        return Response(body, status=status.HTTP_201_CREATED)
