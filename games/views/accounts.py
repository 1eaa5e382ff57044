"""Accounts: signing up (openly, or through an invitation), the profile page, and password reset only where
mail can be sent."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games import selectors, services
from games.forms import ProfileForm, SignupForm
from games.models import Invitation
from games.services.accounts import signup_open
from scorekeeper.errors import page
from scorekeeper.limits import address_over_limit, retry_after

from .common import submitted
from .home import game_rows

BACKEND = "scorekeeper.accounts.AccountBackend"


def invitation_from(request) -> Invitation | None:
    token = (request.POST.get("invitation") or request.GET.get("invitation") or "")[:64]
    return Invitation.objects.select_related("league").filter(token=token).first() if token else None


def after_signup(request, invitation: Invitation | None) -> str:
    """The invitation to accept next; else the page the visitor came from (``next``), if it is ours; else home."""
    if invitation is not None:
        return reverse("invitation", args=[invitation.token])
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return wanted
    return reverse("home")


@require_http_methods(["GET", "POST"])
def signup(request):
    invitation = invitation_from(request)
    if request.user.is_authenticated:
        return redirect(after_signup(request, invitation))
    if not signup_open() and (invitation is None or not invitation.can_make_account):
        return render(request, "accounts/signup_closed.html", {"invitation": invitation}, status=403)
    form = SignupForm(request.POST or None, initial={"invitation": invitation.token if invitation else ""},
                      with_email=settings.PASSWORD_RESET_BY_EMAIL)
    status = 200
    if request.method == "POST":
        # Counted with the API's sign-ups from the same address, before anything is checked.
        wait = address_over_limit(request, "signups")
        if wait is not None:
            return page(429, "Too many sign-ups from here. Wait a minute, then try again.",
                        {"Retry-After": retry_after(wait)})
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            user = submitted(form, services.account_signup, username=data["username"], password=data["password1"],
                             display_name=data["display_name"], email=data.get("email", ""),
                             invitation=data["invitation"] or None)
            if user is not None:
                login(request, user, backend=BACKEND)
                messages.success(request, f"Welcome, {user.first_name}! You are signed in.")
                return redirect(after_signup(request, invitation))
            status = form.status
    return render(request, "accounts/signup.html", {"form": form, "invitation": invitation,
                                                    "next": request.POST.get("next") or request.GET.get("next", "")},
                  status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    user = request.user
    form = ProfileForm(request.POST or None, initial={"display_name": user.first_name, "email": user.email})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid() and submitted(form, services.profile_update, user=user, by=user,
                                         display_name=form.cleaned_data["display_name"],
                                         email=form.cleaned_data["email"]):
            messages.success(request, "Profile saved.")
            return redirect("profile")
        status = form.status if form.refusal else status
    return render(request, "accounts/profile.html", {
        "form": form, "players": selectors.my_players(user=user), "claims": selectors.my_claims(user=user),
        "invitations": selectors.invitations_for(user=user), "leagues": selectors.my_leagues(user=user),
        "games": game_rows(selectors.my_games(user=user, limit=20)),
    }, status=status)


@require_http_methods(["GET", "POST"])
def password_reset(request):
    """Django's reset by email, where mail goes somewhere; otherwise a page saying whom to ask."""
    if not settings.PASSWORD_RESET_BY_EMAIL:
        return render(request, "registration/password_reset_unavailable.html", status=404)
    return auth_views.PasswordResetView.as_view()(request)
