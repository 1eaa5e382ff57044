"""The table's code on the scorekeeper's page: the game's join link (``follow.join``) as a QR code for the
other phones, and a new code when the old one has gone where it should not (it ends the old one at once)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.forms import ConfirmForm
from games.models import Game

from .common import scorable_game_or_403, submitted
from .qr import qr_response


def join_link(request, game: Game, token: str) -> str:
    return request.build_absolute_uri(reverse("join", args=[game.pk, token]))


@login_required
@require_GET
def table_code_qr(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    token = services.table_token_issue(game=game, by=request.user)
    return qr_response(join_link(request, game, token), title="This game's table code")


@login_required
@require_POST
def table_code_renew(request, game_id: int):
    game = scorable_game_or_403(request, game_id)
    form = ConfirmForm(request.POST)
    if form.is_valid() and submitted(form, services.table_token_renew, game=game, by=request.user):
        messages.success(request, "This game has a new table code: the old one no longer opens it. "
                                  "The other phones scan the new one.")
    return redirect(reverse("table", args=[game.pk]) + "#table-code")
