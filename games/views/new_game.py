"""Starting a game: pick the game and the league, then the seats, the house rules and the first dealer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import policy, selectors, services
from games.errors import NotFound
from games.forms import ChooseGameForm, NewGameForm
from games.forms.games import CASUAL
from games.models import League
from games.rules import RULESETS, ruleset_class

from .common import submitted


def chosen_league(request, slug: str) -> League | None:
    if not slug:
        return None
    league = League.objects.filter(slug=slug).first()
    if league is None or not policy.can_view_league(request.user, league):
        raise Http404("No such league")
    return league


def rematch_initial(request, game_type: str, league: League | None) -> dict:
    """Seats and house rules of an earlier game, for "play again"."""
    pk = request.GET.get("rematch", "")
    if not pk.isdigit():
        return {}
    try:
        game = selectors.game_for(request.user, int(pk), related=("league", *selectors.SEATED))
    except NotFound:  # none the user may see: a new game as any other
        return {}
    if game.game_type != game_type:
        return {}
    initial: dict[str, Any] = {f"seat_{seat}": str(player_id) for seat, player_id in game.seat_ids.items()}
    initial.update({f"opt_{name}": value for name, value in game.options.items()})
    for name, value in list(initial.items()):
        if isinstance(value, bool):
            initial[name] = "true" if value else "false"
    if game.match_id:
        initial["match"] = True
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request):
    game_type = request.GET.get("type", "")
    startable = selectors.startable_leagues(user=request.user)
    if game_type not in RULESETS:
        # Bound (and its errors shown) only once the choice was sent: ``?league=`` alone just preselects it.
        choose = ChooseGameForm(request.GET if "type" in request.GET else None, leagues=startable,
                                initial={"league": request.GET.get("league", CASUAL)})
        return render(request, "games/new_choose.html", {"form": choose})
    league = chosen_league(request, request.GET.get("league", ""))
    if not policy.can_start_game(request.user, league):
        raise PermissionDenied("Only the league's owners and scorekeepers can start its games.")
    defaults = dict((league.default_options or {}).get(game_type, {})) if league else {}
    players = selectors.players_to_seat(user=request.user, league=league)
    kwargs = {"game_type": game_type, "players": players, "defaults": defaults}
    status = 200
    if request.method == "POST":
        form = NewGameForm(request.POST, **kwargs)
        status = 400
        if form.is_valid():
            game = submitted(form, services.table_start, game_type=game_type, seats=form.seats(), by=request.user,
                             league=league, options=form.options(), as_match=form.as_match,
                             idempotency_key=form.cleaned_data["idempotency_key"] or None,
                             allow_similar=form.allow_similar)
            if game is not None:
                return redirect("table", game_id=game.pk)
            status = form.status
    else:
        form = NewGameForm(initial=rematch_initial(request, game_type, league), **kwargs)
    ruleset = ruleset_class(game_type)
    return render(request, "games/new.html", {
        "form": form, "game_type": game_type, "game_type_name": ruleset.name, "league": league,
        "rules_doc": ruleset.__doc__,
    }, status=status)
