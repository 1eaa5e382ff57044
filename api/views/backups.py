"""A league's backup: the owner's download of the whole league, and restoring one into a new league.

(The CSV tables are offered by the lists they are tables of: games, a game's hands, the standings.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.http import StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, UnsupportedMediaType, ValidationError
from rest_framework.response import Response

from api.exceptions import PayloadTooLarge
from api.serializers.exports import LeagueImportIn, LeagueImportOut, LeagueImportQuery, LeagueRestoreOut
from api.serializers.people import LeagueOut
from games import policy
from games.errors import NotAllowed
from games.models import LeagueRestore
from games.services.restore import ImportRefused, ImportReport, league_restore
from games.services.restore_uploads import (
    CHUNK_BYTES,
    BackupTooLarge,
    backup_accept,
    games_written,
    max_backup_bytes,
)
from games.services.transfer import backup_filename, league_backup

from .base import IDEMPOTENCY_KEY, ApiView, idempotency_key, one
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
        return Response(report_body(report), status=status.HTTP_201_CREATED)


def report_body(report: ImportReport) -> dict[str, Any]:
    return {"league": LeagueOut(report.league).data, "report": {**report.as_dict(), "summary": report.sentence()}}


def body_chunks(request) -> Iterator[bytes]:
    """The request body as it arrives, a chunk at a time (never read whole)."""
    while chunk := request._request.read(CHUNK_BYTES):
        yield chunk


def restore_body(restore: LeagueRestore) -> dict[str, Any]:
    done = restore.state == LeagueRestore.State.DONE
    report = None
    if done and restore.report is not None and restore.league is not None:  # (a league deleted since: no report)
        imported = ImportReport.from_answer(restore.report, league=restore.league)
        report = {**imported.as_dict(), "summary": imported.sentence()}
    return {
        "id": restore.pk, "url": reverse("api-league-restore", args=[restore.pk]), "state": restore.state,
        "progress": {"games": restore.games_total, "checked": restore.games_checked, "written": games_written(restore),
                     "bytes": restore.size, "bytes_checked": restore.bytes_read},
        "created_at": restore.created_at, "finished_at": restore.finished_at,
        "league": LeagueOut(restore.league).data if done and restore.league else None,
        "report": report,
        "problems": restore.problems if restore.state == LeagueRestore.State.REFUSED else None,
    }


class LeagueImports(ApiView):
    """Restore a backup of any size into a new league: the body is the backup file itself (`Content-Type:
    application/json`, read as it arrives, never whole), the new league's `name` and `slug` query parameters.

    Up to 2.5 MB it is restored in the request, as `leagues/import/` does: 201 with the new league and the report,
    or a 400 listing every problem under `document`. Larger (up to 1 GiB; more is a 413) it is stored and restored
    in the background: 202 with the restore, its address in `Location`; follow it there until it is `done` or
    `refused`. A backup whose beginning is not JSON or not a backup of this version is a 400 at once. Optional
    `Idempotency-Key` header: a retry gets the same answer (the same restore)."""

    error_statuses = (413, 415, 422)

    @extend_schema(
        request={"application/json": {"type": "object", "description": "A league backup, as downloaded "
                                                                       "(docs/league-backup.schema.json)."}},
        parameters=[LeagueImportQuery, IDEMPOTENCY_KEY,
                    OpenApiParameter("Location", OpenApiTypes.STR, OpenApiParameter.HEADER, response=[202],
                                     description="The restore, to follow (`leagues/imports/{id}/`).")],
        responses={201: LeagueImportOut,
                   202: OpenApiResponse(LeagueRestoreOut, description="Stored; restored in the background.")},
        tags=["leagues"])
    def post(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not request.content_type and (request.META.get("CONTENT_LENGTH") or "0") == "0":
            # Nothing sent at all: the body is missing, not of the wrong type.
            raise ValidationError({"document": ["no backup was sent: send the backup file itself as the body, with "
                                                "Content-Type: application/json"]})
        if request.content_type.split(";")[0].strip().lower() != "application/json":
            raise UnsupportedMediaType(request.content_type or "none",
                                       detail="send the backup file itself as the body, with Content-Type: "
                                              "application/json")
        query = self.parse(LeagueImportQuery, data=request.query_params)
        key = idempotency_key(request)
        length = request.META.get("CONTENT_LENGTH")
        if length and length.isdigit() and int(length) > max_backup_bytes():
            raise PayloadTooLarge(BackupTooLarge.too_large_message())
        try:
            result = backup_accept(body_chunks(request), by=request.user, name=query.get("name") or None,
                                   slug=query.get("slug") or None, idempotency_key=key)
        except BackupTooLarge as error:
            raise PayloadTooLarge(error.message) from None
        except ImportRefused as refused:
            raise ValidationError({"document": refused.problems}) from None
        if isinstance(result, ImportReport):
            return Response(report_body(result), status=status.HTTP_201_CREATED)
        return Response(restore_body(result), status=status.HTTP_202_ACCEPTED,
                        headers={"Location": reverse("api-league-restore", args=[result.pk])})


class LeagueImportProgress(ApiView):
    """A restore made in the background: its state, its progress and, at the end, the new league and the report,
    or every problem (as a 400 of `leagues/import/` lists them). Only whoever uploaded the backup sees it."""

    @extend_schema(responses={200: LeagueRestoreOut}, tags=["leagues"])
    def get(self, request, pk: int):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        restore = one(LeagueRestore.objects.filter(created_by=request.user).select_related("league"), pk, "restore")
        return Response(restore_body(restore))
