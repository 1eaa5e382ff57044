"""Django admin for organisers' bulk work.

Derived fields (totals, deltas, status) are read-only: they follow from the hands. A hand is
corrected through the same service as everywhere else, so the change is re-scored, checked
against later hands and kept in the revision history.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages

from games.errors import ServiceError
from games.integrity import game_mismatches
from games.models import Game, Hand, HandRevision, Invitation, League, Match, Membership, Player, PlayerClaim
from games.rules import RulesError
from games.services import game_abandon, hand_correct


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_by", "created_at"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    raw_id_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "created_at"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]
    readonly_fields = ["created_by", "created_at"]


class HandInline(admin.TabularInline):
    model = Hand
    fields = ["number", "dealer", "record", "delta", "totals", "entered_by", "entered_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ["number"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game_type", "league", "status", "winner", "hand_count", "started_at"]
    list_filter = ["game_type", "status", "league"]
    search_fields = ["north__name", "east__name", "south__name", "west__name", "league__name"]
    date_hierarchy = "started_at"
    list_select_related = ["league"]
    inlines = [HandInline]
    actions = ["abandon_games", "verify_games"]
    readonly_fields = [
        "game_type", "league", "north", "east", "south", "west", "options", "rules_version", "status",
        "winner", "totals", "extras", "hand_count", "match", "match_game_number", "created_by",
        "started_at", "finished_at",
    ]
    filter_horizontal = ["scorekeepers"]

    def has_add_permission(self, request):
        return False  # games are started at the table or through the API, with the engine checking options

    @admin.action(description="Abandon the selected games")
    def abandon_games(self, request, queryset):
        for game in queryset:
            try:
                game_abandon(game=game, by=request.user)
            except ServiceError as error:
                self.message_user(request, f"{game}: {error.message}", messages.WARNING)

    @admin.action(description="Check the selected games against their hands")
    def verify_games(self, request, queryset):
        for game in queryset.prefetch_related("hands"):
            problems = game_mismatches(game)
            level = messages.ERROR if problems else messages.SUCCESS
            self.message_user(request, f"{game}: " + ("; ".join(problems) or "matches its hands"), level)


class HandCorrectionForm(forms.ModelForm):
    """Correcting the record runs the correction service; a refusal is shown on the record field."""

    reason = forms.CharField(max_length=500, required=False, help_text="Kept in the hand's revision history.")
    user = None  # set by HandAdmin.get_form

    class Meta:
        model = Hand
        fields = ["record"]

    def clean(self):
        cleaned = super().clean()
        if "record" in cleaned and "record" in self.changed_data:
            try:
                hand_correct(game=self.instance.game, number=self.instance.number, record=cleaned["record"],
                             by=self.user, reason=cleaned.get("reason", ""))
            except (RulesError, ServiceError) as error:
                raise forms.ValidationError({"record": str(error)}) from None
        return cleaned


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    form = HandCorrectionForm
    list_display = ["game", "number", "dealer", "entered_by", "entered_at"]
    list_filter = ["game__game_type"]
    search_fields = ["game__id"]
    list_select_related = ["game"]
    readonly_fields = ["game", "number", "dealer", "delta", "totals", "extras", "details", "entered_by",
                       "entered_at"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # undo the last hand from the table page or the API, so history is kept

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        return type(form.__name__, (form,), {"user": request.user})

    def save_model(self, request, obj, form, change):
        """The correction service stored the change (and its history) when the form was cleaned."""


@admin.register(HandRevision)
class HandRevisionAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "action", "changed_by", "changed_at", "reason"]
    list_filter = ["action"]
    search_fields = ["reason", "game__id"]
    readonly_fields = [field.name for field in HandRevision._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "league", "status", "winners", "started_at"]
    list_filter = ["status", "league"]
    readonly_fields = [field.name for field in Match._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations are made and accepted on the league pages; here they can be looked up and withdrawn."""

    list_display = ["league", "role", "invitee", "uses", "max_uses", "expires_at", "revoked_at"]
    list_filter = ["role"]
    search_fields = ["league__name", "invitee__username"]
    readonly_fields = [field.name for field in Invitation._meta.fields if field.name != "revoked_at"]

    def has_add_permission(self, request):
        return False


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    list_display = ["player", "league", "user", "status", "created_at", "decided_by"]
    list_filter = ["status"]
    readonly_fields = [field.name for field in PlayerClaim._meta.fields]

    def has_add_permission(self, request):
        return False
