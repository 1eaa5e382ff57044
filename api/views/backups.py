"""A league's backup: the owner's download of the whole league, and restoring one into a new league.

(The CSV tables are offered by the lists they are tables of: games, a game's hands, the standings.)"""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.response import Response

from api.serializers.exports import LeagueImportIn, LeagueImportOut
from api.serializers.people import LeagueOut
from games import policy
from games.errors import NotAllowed
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import backup_filename, league_backup

from .base import ApiView
from .leagues import visible_league


class LeagueBackup(ApiView):
    """The whole league as one document (docs/league-backup.md): settings, players, matches, games with their
    options, rules version and every hand. Owners only; restore it with `leagues/import/`. Sent as it is
    read, the games a few hundred at a time: the download starts at once, whatever the league's size."""

    @extend_schema(responses={200: {"type": "object", "description": "docs/league-backup.schema.json"}},
                   tags=["leagues"])
    def get(self, request, pk: int):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        league = visible_league(request.user, pk)
        if not policy.can_manage_league(request.user, league):
            raise NotAllowed("only the league's owners download its backup")
        response = StreamingHttpResponse(league_backup(league=league), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{backup_filename(league)}"'
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
