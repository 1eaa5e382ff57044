"""Downloads a spreadsheet user can take away (standings, games, a game's hands, as CSV), the owner's league
backup, and restoring a backup into a new league."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games import selectors
from games.exports import Table, csv_chunks, games_table, hands_table, standings_table
from games.forms.exports import RestoreForm
from games.models import Game, HandRevision, LeagueRestore
from games.rules import RULESETS
from games.services import transfer
from games.services.restore import ImportRefused, ImportReport, league_restore
from games.services.restore_uploads import CHUNK_BYTES, games_written, upload_store

from .common import submitted, visible_game_or_404
from .leagues import managed_league_or_404, visible_league_or_404
from .standings import season_or_404


def csv_download(table: Table) -> StreamingHttpResponse:
    """The table as a CSV download, sent as its rows are read."""
    response = StreamingHttpResponse(csv_chunks(table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.filename}"'
    return response


@require_GET
def league_standings_csv(request, slug: str):
    """``?type=spades`` for one game type (else every one with results); ``?table=partnerships``; ``?season=``
    (the current season by default, as on the league page)."""
    league = visible_league_or_404(request, slug)
    game_type = request.GET.get("type")
    return csv_download(standings_table(league=league, game_type=game_type if game_type in RULESETS else None,
                                        partnerships=request.GET.get("table") == "partnerships",
                                        season=season_or_404(request, league)))


@require_GET
def league_games_csv(request, slug: str):
    league = visible_league_or_404(request, slug)
    games = (Game.objects.filter(league=league).select_related(*selectors.GAME_RELATED)
             .order_by("started_at", "id"))
    return csv_download(games_table(games, filename=f"{league.slug}-games.csv",
                                    link=lambda game: request.build_absolute_uri(reverse("table", args=[game.pk]))))


@require_GET
def game_hands_csv(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    corrected = set(HandRevision.objects.filter(game=game, action=HandRevision.Action.CORRECT)
                    .values_list("number", flat=True))
    return csv_download(hands_table(game, selectors.game_hands_with_people(game=game), corrected=corrected))


@login_required
@require_GET
def league_backup(request, slug: str):
    league = managed_league_or_404(request, slug)
    response = StreamingHttpResponse(transfer.league_backup(league=league),
                                     content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{transfer.backup_filename(league)}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def league_restore_page(request):
    form = RestoreForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    counted: list[int] = []
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            if form.upload is not None:  # too big to restore while the page waits: stored, restored in the background
                stored = submitted(form, upload_store, chunks=form.upload.chunks(CHUNK_BYTES), by=request.user,
                                   name=data["name"], slug=data["slug"], idempotency_key=data["idempotency_key"] or None)
                if stored is not None:
                    return redirect("league-restore-progress", pk=stored.pk)
                return render(request, "leagues/restore.html", {"form": form, "problems": problems}, status=400)

            def restore(**kwargs):
                try:
                    return league_restore(**kwargs)
                except ImportRefused as refused:  # every problem listed, not only the first
                    problems.extend(refused.problems)
                    counted.append(refused.total)
                    return None

            report = submitted(form, restore, document=data["backup"], by=request.user,
                               name=data["name"] or None, slug=data["slug"] or None,
                               idempotency_key=data["idempotency_key"] or None)
            if report is not None:
                messages.success(request, f"{report.league.name} is restored. {report.sentence()} "
                                          "Its standings are being computed.")
                return redirect("league", slug=report.league.slug)
    return render(request, "leagues/restore.html",
                  {"form": form, "problems": problems, "problem_count": sum(counted)}, status=status)


@login_required
@require_GET
def league_restore_progress(request, pk: int):
    """A restore made in the background, as it goes (the page refreshes itself until it ends): then the report
    and a link to the new league, or every problem. Only whoever uploaded the backup sees it."""
    restore = get_object_or_404(LeagueRestore.objects.select_related("league"), pk=pk, created_by=request.user)
    report = None
    if restore.state == LeagueRestore.State.DONE and restore.report is not None and restore.league is not None:
        report = ImportReport.from_answer(restore.report, league=restore.league).sentence()
    return render(request, "leagues/restore_progress.html", {
        "restore": restore, "written": games_written(restore), "report": report,
        "counts": {"checked": f"{restore.games_checked:,}", "total": f"{restore.games_total or 0:,}",
                   "written": f"{games_written(restore):,}"},
        "percent_read": 100 * restore.bytes_read // restore.size if restore.size else 0,
        "problems": restore.problems, "problem_count": restore.problem_count,
        "title": "Restoring a league"})
