"""A league: its standings (stored tables per game type, sortable), live and recent games, members, adding members."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import policy, selectors, services
from games.forms import MemberForm
from games.models import Game, League

from .common import submitted, visible_league_or_404
from .home import game_rows
from .standings import chosen_sort, standings_view


def league_context(request, league: League, *, member_form=None):
    sort = chosen_sort(request)
    can_manage = policy.can_manage_league(request.user, league)
    recent = selectors.league_games(league=league, status=Game.Status.FINISHED, limit=20)
    standings = standings_view(league=league, game_type=request.GET.get("type"), sort=sort,
                               latest_finish=recent[0].finished_at if recent else None)
    return {
        "league": league,
        "sort": sort,
        "standings": standings,
        "live": game_rows(selectors.league_games(league=league, status=Game.Status.IN_PROGRESS, limit=20)),
        "recent": game_rows(recent),
        "members": selectors.league_members(league=league),
        "can_manage": can_manage,
        "can_start": policy.can_start_game(request.user, league),
        "member_form": (member_form or MemberForm()) if can_manage else None,
    }


def league_detail(request, slug: str):
    league = visible_league_or_404(request, slug)
    return render(request, "leagues/detail.html", league_context(request, league))


@login_required
@require_POST
def league_member(request, slug: str):
    league = visible_league_or_404(request, slug)
    if not policy.can_manage_league(request.user, league):
        raise PermissionDenied("Only the league's owners can manage its members.")
    form = MemberForm(request.POST)
    if form.is_valid():
        role = form.role_value()
        # Removing someone gives None: the form's refusal says whether the call was refused.
        submitted(form, services.league_set_member, league=league, user=form.user, role=role, by=request.user)
        if form.refusal is None:
            name = form.cleaned_data["username"]
            messages.success(request, f"{name} removed." if role is None else f"{name} is now a {role}.")
            return redirect("league", slug=league.slug)
    return render(request, "leagues/detail.html", league_context(request, league, member_form=form), status=400)
