"""A league's seasons: everyone who may see the league browses them (each links to its standings); its owners
start the next season, add one with its dates, rename, re-date and close them here."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import policy, services
from games.forms import SeasonForm
from games.models import Season
from games.services.seasons import UNSET
from games.standings.selectors import SEASON_ID, league_seasons

from .common import submitted, visible_league_or_404

ACTIONS = ("next", "create", "rename", "dates", "close")


@require_http_methods(["GET", "POST"])
def league_seasons_page(request, slug: str):
    league = visible_league_or_404(request, slug)
    can_manage = policy.can_manage_league(request.user, league)
    form = SeasonForm()
    action = request.POST.get("action") if request.method == "POST" else None
    status = 200
    if request.method == "POST":
        if not can_manage:
            raise PermissionDenied("Only the league's owners manage its seasons.")
        if action not in ACTIONS:
            raise Http404("No such action")
        form = SeasonForm(request.POST)
        status = 400
        if form.is_valid():
            done = act(request, league, action, form)
            if done is not None:
                messages.success(request, done)
                return redirect("league-seasons", slug=league.slug)
            status = form.status
    return render(request, "leagues/seasons.html", {
        "league": league, "seasons": league_seasons(league=league), "can_manage": can_manage, "form": form,
        "action": action, "season_id": request.POST.get("season") if action else None,
    }, status=status)


def act(request, league, action: str, form: SeasonForm) -> str | None:
    """Do what the owner asked; the message to show, or None when the service refused (shown on the form)."""
    data = form.cleaned_data
    if action == "create" and data["starts_on"] is None:
        # Without its first day a season would be the next one, closing the current season: a different action.
        form.add_error("starts_on", "give the season's first day (to start the next season today, use "
                                    "\u201cStart the next season\u201d)")
        return None
    if action in ("next", "create"):
        season = submitted(form, services.season_create, league=league, name=data["name"], by=request.user,
                           starts_on=data["starts_on"] if action == "create" else None,
                           ends_on=data["ends_on"] if action == "create" else None,
                           close_previous_on=data["close_previous_on"] if action == "next" else None)
        return None if season is None else f"{season.name} starts on {season.starts_on:%-d %b %Y}."
    asked = request.POST.get("season", "")
    season = (Season.objects.filter(league=league, pk=int(asked)).select_related("league").first()
              if SEASON_ID.fullmatch(asked) else None)
    if season is None:
        raise Http404("No such season")
    if action == "rename":
        done = submitted(form, services.season_update, season=season, name=data["name"], by=request.user)
        return None if done is None else f"Renamed {done.name}."
    if action == "close":
        done = submitted(form, services.season_update, season=season, close=True,
                         ends_on=data["ends_on"] or UNSET, by=request.user)
        return None if done is None else f"{done.name} closed: its last day is {done.ends_on:%-d %b %Y}."
    done = submitted(form, services.season_update, season=season, starts_on=data["starts_on"] or UNSET,
                     ends_on=data["ends_on"], by=request.user)
    return None if done is None else f"{done.name}'s dates saved; its standings follow in a moment."
