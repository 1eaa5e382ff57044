"""A casual game's creator makes it public (anyone with the link can follow it) or private again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import policy, services
from games.forms import ConfirmForm

from .common import submitted, visible_game_or_404


@login_required
@require_POST
def game_sharing(request, game_id: int):
    game = visible_game_or_404(request, game_id)
    if not policy.can_choose_scorekeepers(request.user, game):
        raise PermissionDenied("Only the player who started this casual game can share it.")
    public = request.POST.get("public") == "true"
    form = ConfirmForm(request.POST)
    if submitted(form, services.game_set_public, game=game, public=public, by=request.user):
        messages.success(request, "Anyone with the link can now follow this game." if public
                         else "Only this game's players and scorekeepers can see it now.")
    return redirect(reverse("table", args=[game.pk]) + "#scorekeepers")
