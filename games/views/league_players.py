"""A league's players: who they are (and which accounts they belong to), adding them, linking them to
members, members' claims and the owners' decisions on them, and merging two records of one person."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import policy, selectors, services
from games.forms import ConfirmForm, MergeForm, PlayerAddForm, PlayerLinkForm
from games.models import League, Player, PlayerClaim, display_name

from .common import submitted
from .leagues import managed_league_or_404, visible_league_or_404


def players_context(request, league: League, **forms) -> dict:
    user = request.user
    players = selectors.league_players(league=league)
    can_manage = policy.can_manage_league(user, league)
    role = policy.league_role(user, league)
    mine = next((player for player in players if user.is_authenticated and player.user_id == user.pk), None)
    claimed = {claim.player_id for claim in selectors.my_claims(user=user) if claim.league_id == league.pk}
    members = selectors.league_members(league=league) if can_manage else []
    return {
        "league": league,
        "rows": [{"player": player, "claimed_by": display_name(player.user) if player.user_id else "",
                  "mine": player.user_id is not None and player.user_id == user.pk,
                  "asked": player.pk in claimed} for player in players],
        "can_add": policy.can_add_league_player(user, league),
        "can_claim": role is not None and mine is None,
        "can_manage": can_manage,
        "claims": selectors.league_claims(league=league) if can_manage else [],
        "add_form": forms.get("add_form") or PlayerAddForm(),
        "link_form": forms.get("link_form") or (PlayerLinkForm(players=players, members=members) if can_manage
                                                else None),
        "merge_form": forms.get("merge_form") or (MergeForm(players=players) if can_manage else None),
    }


def league_players(request, slug: str):
    league = visible_league_or_404(request, slug)
    context = players_context(request, league)
    added = request.GET.get("added", "")
    if added.isdigit() and context["can_add"]:
        # Back from adding a player: say so beside the form, and the name field is ready for the next one.
        context["added"] = next((row["player"] for row in context["rows"] if row["player"].pk == int(added)), None)
        context["add_form"].fields["name"].widget.attrs["autofocus"] = True
    return render(request, "leagues/players.html", context)


def again(request, league: League, status: int, **forms):
    return render(request, "leagues/players.html", players_context(request, league, **forms), status=status)


@login_required
@require_POST
def league_player_add(request, slug: str):
    league = visible_league_or_404(request, slug)
    if not policy.can_add_league_player(request.user, league):
        raise PermissionDenied("Only the league's owners and scorekeepers add its players.")
    form = PlayerAddForm(request.POST)
    if form.is_valid():
        player = submitted(form, services.player_create, name=form.cleaned_data["name"], league=league,
                           allow_similar=form.cleaned_data["allow_similar"], by=request.user,
                           idempotency_key=form.cleaned_data["idempotency_key"] or None)
        if player is not None:
            # No #fragment: a page opened at one skips autofocus, and the name field is what comes next.
            return redirect(reverse("league-players", args=[league.slug]) + f"?added={player.pk}")
    form.focus_first_error()
    return again(request, league, form.status, add_form=form)


@login_required
@require_POST
def league_player_link(request, slug: str):
    league = managed_league_or_404(request, slug)
    players = selectors.league_players(league=league)
    form = PlayerLinkForm(request.POST, players=players, members=selectors.league_members(league=league))
    if form.is_valid():
        player = form.players[form.cleaned_data["player"]]
        user = form.users[form.cleaned_data["user"]]
        if submitted(form, services.player_link, league=league, player=player, user=user, by=request.user):
            messages.success(request, f"{player.name} is now {display_name(user)}'s player.")
            return redirect("league-players", slug=league.slug)
    return again(request, league, form.status, link_form=form)


@login_required
@require_POST
def league_player_unlink(request, slug: str, player_id: int):
    league = managed_league_or_404(request, slug)
    player = league.players.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    form = ConfirmForm(request.POST)
    if submitted(form, services.player_link, league=league, player=player, user=None, by=request.user):
        messages.success(request, f"{player.name} is no longer linked to an account.")
    return redirect("league-players", slug=league.slug)


@login_required
@require_POST
def league_player_merge(request, slug: str):
    league = managed_league_or_404(request, slug)
    form = MergeForm(request.POST, players=selectors.league_players(league=league))
    if form.is_valid():
        keep, merge = form.chosen()
        name = merge.name
        if submitted(form, services.player_merge, league=league, keep=keep, merge=merge, by=request.user):
            messages.success(request, f"{name} merged into {keep.name}: their games are {keep.name}'s now. "
                                      "The standings are being updated.")
            return redirect("league-players", slug=league.slug)
    return again(request, league, form.status, merge_form=form)


@login_required
@require_POST
def league_player_claim(request, slug: str, player_id: int):
    league = visible_league_or_404(request, slug)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    form = ConfirmForm(request.POST)
    claim = submitted(form, services.player_claim, league=league, player=player, by=request.user)
    if claim is not None:
        messages.success(request, f"You asked to be {player.name}; an organiser of {league.name} will confirm it.")
    else:
        assert form.refusal is not None  # refused: submitted() put the reason on the form
        messages.error(request, form.refusal.message)
    return redirect("league-players", slug=league.slug)


@login_required
@require_POST
def league_claim_decide(request, slug: str, claim_id: int):
    league = managed_league_or_404(request, slug)
    claim = PlayerClaim.objects.filter(league=league, pk=claim_id).select_related("league", "player", "user").first()
    if claim is None:
        raise Http404("No such claim")
    approve = request.POST.get("decision") == "approve"
    form = ConfirmForm(request.POST)
    if submitted(form, services.player_claim_decide, claim=claim, approve=approve, by=request.user):
        who = display_name(claim.user)
        messages.success(request, f"{who} is now {claim.player.name}." if approve
                         else f"{who}'s claim to be {claim.player.name} was declined.")
    else:
        assert form.refusal is not None  # refused: submitted() put the reason on the form
        messages.error(request, form.refusal.message)
    return redirect("league-players", slug=league.slug)
