"""A league: its standings (stored tables per game type, sortable), live and recent games, members; creating
a league, editing it, and the owner's one form for a person (invite, lower a role, remove)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games import policy, selectors, services
from games.forms import LeagueForm, MemberForm
from games.models import Game, Invitation, League, display_name
from games.nights import league_nights
from games.standings.selectors import league_seasons

from .common import submitted, visible_league_or_404
from .home import game_rows
from .night_room import night_rows
from .standings import chosen_sort, season_or_404, standings_view


def managed_league_or_404(request, slug: str) -> League:
    """The league, if the user may manage it (a 404 if they may not even see it, else a 403)."""
    league = visible_league_or_404(request, slug)
    if not policy.can_manage_league(request.user, league):
        raise PermissionDenied("Only the league's owners can do that.")
    return league


def member_rows(request, league: League) -> list[dict]:
    """Each member by display name; their login name only for the league's own members."""
    usernames = policy.can_see_usernames(request.user, league)
    return [{"name": display_name(m.user), "username": m.user.username if usernames else None,
             "role": m.get_role_display(), "me": m.user_id == request.user.pk}
            for m in selectors.league_members(league=league)]


def league_context(request, league: League, *, member_form=None):
    sort = chosen_sort(request)
    can_manage = policy.can_manage_league(request.user, league)
    # (type: ignore: without type hints for Django, mypy reads a TextChoices member as its (value, label).)
    recent = selectors.league_games(league=league, status=Game.Status.FINISHED, limit=20)  # type: ignore[arg-type]
    in_progress = selectors.league_games(league=league, status=Game.Status.IN_PROGRESS,  # type: ignore[arg-type]
                                         limit=20)
    seasons = league_seasons(league=league)
    # A provisional game is not counted until confirmed: the standings are not "updating" for it meanwhile.
    provisional = sum(1 for game in recent if game.provisional)
    standings = standings_view(league=league, game_type=request.GET.get("type"), sort=sort,
                               latest_finish=next((game.finished_at for game in recent if not game.provisional), None),
                               season=season_or_404(request, league, seasons), seasons=seasons)
    return {
        "league": league,
        "sort": sort,
        "standings": standings,
        "live": game_rows(in_progress),
        "recent": game_rows(recent),
        "nights": night_rows(league_nights(league)),
        "provisional": provisional,
        "members": member_rows(request, league),
        "role": policy.league_role(request.user, league),
        "can_manage": can_manage,
        "can_start": policy.can_start_game(request.user, league),
        "member_form": (member_form or MemberForm()) if can_manage else None,
    }


def league_detail(request, slug: str):
    league = visible_league_or_404(request, slug)
    return render(request, "leagues/detail.html", league_context(request, league))


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request):
    form = LeagueForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            league = submitted(form, services.league_create, name=data["name"], slug=data["slug"] or None,
                               is_public=form.is_public, default_options=form.default_options(), by=request.user,
                               idempotency_key=data["idempotency_key"] or None)
            if league is not None:
                messages.success(request, f"{league.name} is ready. Invite your scorekeepers and members next.")
                return redirect("league", slug=league.slug)
            status = form.status
    return render(request, "leagues/form.html", {"form": form, "league": None}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def league_edit(request, slug: str):
    league = managed_league_or_404(request, slug)
    form = LeagueForm(request.POST or None, league=league)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid() and submitted(form, services.league_update, league=league, by=request.user,
                                         name=form.cleaned_data["name"], is_public=form.is_public,
                                         default_options=form.default_options(),
                                         # Left out of the form: as they are.
                                         confirmation=form.cleaned_data.get("confirmation") or None,
                                         provisional_hours=form.cleaned_data.get("provisional_hours")):
            messages.success(request, f"{league.name} saved.")
            return redirect("league", slug=league.slug)
        status = form.status if form.refusal else status
    return render(request, "leagues/form.html", {"form": form, "league": league}, status=status)


@login_required
@require_POST
def league_member(request, slug: str):
    league = managed_league_or_404(request, slug)
    form = MemberForm(request.POST)
    if form.is_valid():
        role = form.role_value()
        done = submitted(form, services.league_member_named, league=league, username=form.cleaned_data["username"],
                         role=role, by=request.user)
        if form.refusal is None:
            # The login name as typed, never the account's display name: the answer is the same whether or
            # not an account has that name.
            name = f"“{form.cleaned_data['username']}”"
            if isinstance(done, Invitation):
                messages.success(request, f"{name} is invited as {done.get_role_display().lower()}; "
                                          "they accept from their home page.")
            else:
                messages.success(request, f"{name} removed." if role is None else f"{name} is now a {role}.")
            return redirect("league", slug=league.slug)
    return render(request, "leagues/detail.html", league_context(request, league, member_form=form), status=400)
