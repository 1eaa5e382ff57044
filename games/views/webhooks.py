"""A league's webhooks, for its owners: register an endpoint, see its secret and delivery log, send a test
event, pause, change or remove it (docs/webhooks.md)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import services
from games.forms.exports import WebhookForm
from games.models import WEBHOOK_EVENTS, WebhookEndpoint

from .common import submitted
from .leagues import managed_league_or_404

DELIVERIES_SHOWN = 50


@login_required
@require_http_methods(["GET", "POST"])
def league_webhooks(request, slug: str):
    league = managed_league_or_404(request, slug)
    form = WebhookForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            endpoint = submitted(form, services.webhook_create, league=league, url=data["url"],
                                 events=data["events"], description=data["description"], by=request.user)
            if endpoint is not None:
                messages.success(request, "Endpoint added. Copy its signing secret into your receiver, then "
                                          "send a test event.")
                return redirect("league-webhook", slug=league.slug, pk=endpoint.pk)
            status = form.status
    endpoints = list(WebhookEndpoint.objects.filter(league=league).order_by("created_at", "id"))
    return render(request, "leagues/webhooks.html",
                  {"league": league, "form": form, "endpoints": endpoints, "events": WEBHOOK_EVENTS}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def league_webhook(request, slug: str, pk: int):
    league = managed_league_or_404(request, slug)
    endpoint = WebhookEndpoint.objects.filter(league=league, pk=pk).select_related("league").first()
    if endpoint is None:
        raise Http404("No such webhook")
    action = request.POST.get("action")
    form = WebhookForm(request.POST if action == "save" else None,
                       initial={"url": endpoint.url, "events": endpoint.events, "description": endpoint.description})
    status = 200
    if action == "save":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            if submitted(form, services.webhook_update, endpoint=endpoint, by=request.user, url=data["url"],
                         events=data["events"], description=data["description"]) is not None:
                messages.success(request, "Endpoint saved.")
                return redirect("league-webhook", slug=league.slug, pk=endpoint.pk)
            status = form.status
    elif action in ("pause", "resume"):
        services.webhook_update(endpoint=endpoint, by=request.user, is_active=action == "resume")
        messages.success(request, "Endpoint paused: nothing is sent to it." if action == "pause"
                         else "Endpoint resumed: new events are sent to it.")
        return redirect("league-webhook", slug=league.slug, pk=endpoint.pk)
    elif action == "test":
        if endpoint.is_active:
            services.webhook_test(endpoint=endpoint, by=request.user)
            messages.success(request, "Test event sent; its delivery shows below in a moment (reload the page).")
        else:
            messages.error(request, "The endpoint is paused; resume it to send a test event.")
        return redirect("league-webhook", slug=league.slug, pk=endpoint.pk)
    elif action == "delete":
        services.webhook_delete(endpoint=endpoint, by=request.user)
        messages.success(request, f"Endpoint {endpoint.url} removed; nothing more is sent to it.")
        return redirect("league-webhooks", slug=league.slug)
    elif action is not None:
        status = 400
    deliveries = list(endpoint.deliveries.order_by("-created_at", "-id")[:DELIVERIES_SHOWN])
    return render(request, "leagues/webhook.html",
                  {"league": league, "endpoint": endpoint, "form": form, "deliveries": deliveries}, status=status)
