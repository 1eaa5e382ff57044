"""Starting a game: pick the game and the league, then the seats, the house rules and the first dealer."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import policy, selectors, services
from games.errors import InvalidInput, NotAllowed
from games.forms import NewGameForm
from games.forms.games import CASUAL, ChooseGameForm
from games.models import GAME_TYPE_NAMES, Game, League
from games.rules import RulesError, ruleset_class


class Failed(Exception):
    pass


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
    game = Game.objects.select_related("league").filter(pk=int(pk)).first()
    if game is None or not policy.can_view_game(request.user, game) or game.game_type != game_type:
        return {}
    initial = {f"seat_{seat}": str(player_id) for seat, player_id in game.seat_ids.items()}
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
    if game_type not in GAME_TYPE_NAMES:
        choose = ChooseGameForm(request.GET or None, leagues=startable,
                                initial={"league": request.GET.get("league", CASUAL)})
        return render(request, "games/new_choose.html", {"form": choose})
    league = chosen_league(request, request.GET.get("league", ""))
    if not policy.can_start_game(request.user, league):
        raise PermissionDenied("Only the league's owners and scorekeepers can start its games.")
    defaults = dict((league.default_options or {}).get(game_type, {})) if league else {}
    players = selectors.players_to_seat()
    kwargs = {"game_type": game_type, "players": players, "defaults": defaults}
    status = 200
    if request.method == "POST":
        form = NewGameForm(request.POST, **kwargs)
        status = 400
        if form.is_valid():
            try:
                game = start(request, form, game_type, league)
            except Failed:
                pass
            else:
                return redirect("table", game_id=game.pk)
    else:
        form = NewGameForm(initial=rematch_initial(request, game_type, league), **kwargs)
    return render(request, "games/new.html", {
        "form": form, "game_type": game_type, "game_type_name": GAME_TYPE_NAMES[game_type], "league": league,
        "rules_doc": ruleset_class(game_type).__doc__,
    }, status=status)


def start(request, form: NewGameForm, game_type: str, league: League | None) -> Game:
    """New players, then the game (or a Trumps match), in one transaction: a refusal leaves nothing behind."""
    try:
        with transaction.atomic():
            seats = {}
            for seat in "NESW":
                pk, name = form.seat_choice(seat)
                seats[seat] = pk if pk is not None else services.player_create(name=name, by=request.user).pk
            options = form.options()
            if form.cleaned_data.get("match"):
                match = services.match_start(seats=seats, by=request.user, league=league, options=options)
                return match.games.get(match_game_number=1)
            return services.game_start(game_type=game_type, seats=seats, by=request.user, league=league,
                                       options=options)
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except (InvalidInput, RulesError) as error:
        field = error.field or ""
        target = (f"seat_{field.split('.')[1]}" if field.startswith("seats.")
                  else f"opt_{field}" if f"opt_{field}" in form.fields else None)
        form.add_error(target, error.message)
        raise Failed from None
