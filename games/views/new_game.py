"""Starting a game: the game and the league (the ones last played, unless changed), then the seats, with the
league's house rules and the first dealer folded into one line until asked for.

The start form's idempotency key belongs to the entry, and the entry is the page's address: a visit
without one is sent on to the same address with a new ``entry`` (the key), so Back, the browser's page
cache, a reload or the browser filling in the form again all show the same key, with or without
JavaScript, and Start sent twice makes one game. A new visit (New game, Rematch, another game) is a new
entry.
"""

from __future__ import annotations

import re
import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games import policy, selectors, services
from games.errors import IdempotencyMismatch, NotFound
from games.forms import ChooseGameForm, NewGameForm
from games.forms.games import CASUAL
from games.models import League
from games.rules import RULESETS, ruleset_class, rulesets

from .common import game_title, submitted

ENTRY = re.compile(r"[0-9a-f]{32}")


def chosen_league(request, slug: str) -> League | None:
    if not slug:
        return None
    league = League.objects.filter(slug=slug).first()
    if league is None or not policy.can_view_league(request.user, league):
        raise Http404("No such league")
    return league


def new_entry() -> str:
    return uuid.uuid4().hex


def start_url(game_type: str, league: League | None, **more: str) -> str:
    """The start form of ``game_type`` in ``league``; without an ``entry`` the page makes one."""
    query = {"type": game_type, **({"league": league.slug} if league else {}), **more}
    return f"{reverse('new-game')}?{urlencode(query)}"


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


def likely_league(request) -> League | None:
    """The league asked for (``?league=``, empty: a casual game); else the one last played in; else the only
    league whose games the user may start."""
    if "league" in request.GET:
        return chosen_league(request, request.GET["league"])
    last = selectors.last_table(user=request.user)
    if last is not None:
        return last.league
    startable = selectors.startable_leagues(user=request.user)
    return startable[0] if len(startable) == 1 else None


def choose(request):
    """Step one: which game, in which league. Skipped for the game last played in the league, unless the
    person asked to choose (``?choose``) or sent the choice (``?type=``)."""
    startable = selectors.startable_leagues(user=request.user)
    league = likely_league(request)
    if "type" not in request.GET and "choose" not in request.GET and policy.can_start_game(request.user, league):
        usual = selectors.usual_game_type(user=request.user, league=league)
        if usual in RULESETS:
            return redirect(start_url(usual, league, entry=new_entry()))
    # Bound (and its errors shown) only once the choice was sent: a league alone just preselects it.
    form = ChooseGameForm(request.GET if "type" in request.GET else None, leagues=startable,
                          initial={"league": league.slug if league else CASUAL})
    return render(request, "games/new_choose.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request):
    game_type = request.GET.get("type", "")
    if game_type not in RULESETS:
        return choose(request)
    league = chosen_league(request, request.GET.get("league", ""))
    if not policy.can_start_game(request.user, league):
        raise PermissionDenied("Only the league's owners and scorekeepers can start its games.")
    entry = request.GET.get("entry", "")
    if request.method == "GET" and not ENTRY.fullmatch(entry):
        more = {name: request.GET[name] for name in ("rematch",) if name in request.GET}
        return redirect(start_url(game_type, league, **more, entry=new_entry()))
    defaults = dict((league.default_options or {}).get(game_type, {})) if league else {}
    players = selectors.players_to_seat(user=request.user, league=league)
    kwargs = {"game_type": game_type, "players": players, "defaults": defaults, "league": league}
    status = 200
    if request.method == "POST":
        form = NewGameForm(request.POST, **kwargs)
        status = 400
        if form.is_valid():
            game = submitted(form, services.table_start, game_type=game_type, seats=form.seats(), by=request.user,
                             league=league, options=form.options(), as_match=form.as_match,
                             idempotency_key=form.cleaned_data["idempotency_key"] or None,
                             allow_similar=form.allow_similar, confirmation=form.confirmation)
            if game is not None:
                return redirect("table", game_id=game.pk)
            status = form.status
            if isinstance(form.refusal, IdempotencyMismatch):
                form.errors["__all__"] = form.error_class([
                    "This page already started a game, with other seats or rules: open it, or start another."])
        key = request.POST.get("idempotency_key", "")
    else:
        form = NewGameForm(initial={**rematch_initial(request, game_type, league), "idempotency_key": entry},
                           **kwargs)
        key = entry
    started = selectors.game_started_with(user=request.user, key=key)
    ruleset = ruleset_class(game_type)
    return render(request, "games/new.html", {
        "form": form, "game_type": game_type, "game_type_name": ruleset.name, "league": league,
        "rules_doc": ruleset.__doc__,
        "games": [(other.game_type, other.name, start_url(other.game_type, league)) for other in rulesets()],
        "change_league_url": f"{reverse('new-game')}?{urlencode({'choose': 1, 'league': league.slug if league else ''})}",
        "started": started, "started_title": game_title(started) if started else "",
        "start_another_url": start_url(game_type, league),
    }, status=status)
