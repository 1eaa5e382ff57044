"""Invitations: the owner makes a link (with its QR code) or invites a user; the person opens it, signs in or
signs up, and accepts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import selectors, services
from games.errors import InvitationClosed
from games.forms import ConfirmForm, InvitationForm
from games.models import Invitation, display_name
from games.services.invitations import ROLE_WORDS

from .common import submitted
from .leagues import managed_league_or_404, visible_league_or_404
from .qr import qr_response

GONE = 410


def invitation_link(request, invitation: Invitation) -> str:
    return request.build_absolute_uri(reverse("invitation", args=[invitation.token]))


def owned_invitation_or_404(request, slug: str, pk: int):
    league = managed_league_or_404(request, slug)
    invitation = Invitation.objects.filter(league=league, pk=pk).select_related("league", "player").first()
    if invitation is None:
        raise Http404("No such invitation")
    return league, invitation


@login_required
@require_http_methods(["GET", "POST"])
def league_invitations(request, slug: str):
    """The league's invitations, and a form for a new link."""
    league = managed_league_or_404(request, slug)
    players = selectors.league_players(league=league)
    form = InvitationForm(request.POST or None, players=players)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            invitation = submitted(form, services.invitation_create, league=league, role=data["role"],
                                   days=data["days"], max_uses=data["max_uses"], player=form.chosen_player(),
                                   by=request.user, idempotency_key=data["idempotency_key"] or None)
            if invitation is not None:
                return redirect("league-invitation", slug=league.slug, pk=invitation.pk)
            status = form.status
    return render(request, "invitations/list.html", {
        "league": league, "form": form, "invitations": selectors.league_invitations(league=league),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def league_invitation(request, slug: str, pk: int):
    """One invitation for its owner: the link to share, its QR code, and withdrawing it."""
    league, invitation = owned_invitation_or_404(request, slug, pk)
    if request.method == "POST":
        form = ConfirmForm(request.POST)
        if form.is_valid() and submitted(form, services.invitation_revoke, invitation=invitation, by=request.user):
            messages.success(request, "The invitation was withdrawn: its link no longer works.")
            return redirect("league-invitations", slug=league.slug)
    return render(request, "invitations/detail.html", {
        "league": league, "invitation": invitation, "link": invitation_link(request, invitation),
    })


@login_required
@require_GET
def league_invitation_qr(request, slug: str, pk: int):
    """The invitation's link as a QR code (SVG), to show on a phone or print for the club's table."""
    _, invitation = owned_invitation_or_404(request, slug, pk)
    return qr_response(invitation_link(request, invitation), title="Invitation link")


def invitation_or_404(token: str) -> Invitation:
    invitation = (Invitation.objects.select_related("league", "player", "created_by", "invitee")
                  .filter(token=token[:64]).first())
    if invitation is None:
        raise Http404("No such invitation")
    return invitation


@require_http_methods(["GET", "POST"])
def invitation(request, token: str):
    """What the person who opened the link sees: who invites them to what, and a way to accept."""
    invitation = invitation_or_404(token)
    form = ConfirmForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        accepting = request.POST.get("action") != "decline"
        if accepting:
            membership = submitted(form, services.invitation_accept, token=token, by=request.user)
            if membership is not None:
                messages.success(request, f"Welcome to {invitation.league.name}: you are now "
                                          f"{ROLE_WORDS[membership.role]} of it.")
                return redirect("league", slug=invitation.league.slug)
        elif submitted(form, services.invitation_decline, token=token, by=request.user) is not None:
            messages.success(request, f"You declined the invitation to {invitation.league.name}.")
            return redirect("home")
        status = GONE if isinstance(form.refusal, InvitationClosed) else form.status
        invitation.refresh_from_db()
    elif not invitation.is_open:
        status = GONE
    user = request.user
    return render(request, "invitations/open.html", {
        "invitation": invitation, "form": form, "inviter": display_name(invitation.created_by),
        "for_someone_else": bool(invitation.is_addressed and user.is_authenticated and invitation.invitee_id != user.pk),
        "role_words": ROLE_WORDS[invitation.role],
    }, status=status)


@login_required
@require_POST
def league_leave(request, slug: str):
    """A member leaves a league (its last owner cannot)."""
    league = visible_league_or_404(request, slug)
    form = ConfirmForm(request.POST)
    submitted(form, services.league_set_member, league=league, user=request.user, role=None, by=request.user)
    if form.refusal is None:
        messages.success(request, f"You left {league.name}.")
        return redirect("home")
    messages.error(request, form.refusal.message)
    return redirect("league", slug=league.slug)
