"""Leagues, their house rules and their members."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from games import policy
from games.errors import InvalidInput, NotAllowed, StateConflict
from games.idempotency import row_once
from games.models import MAX_PROVISIONAL_HOURS, Confirmation, Invitation, League, Membership, display_name
from games.rules import ruleset_class, shown
from games.rules.errors import RulesError

from .invitations import RANK, ROLE_WORDS, invitation_create, user_named


def check_default_options(default_options: Any) -> dict[str, dict[str, Any]]:
    """League house rules: ``{game_type: {option: value}}``, each checked by that game's rules."""
    if not isinstance(default_options, Mapping):
        raise InvalidInput("default_options must be an object of game types to options", field="default_options")
    checked = {}
    for game_type, options in default_options.items():
        try:
            ruleset_class(game_type).complete_options(options)
        except RulesError as error:
            raise InvalidInput(error.message, field=f"default_options.{game_type}") from None
        checked[game_type] = dict(options)
    return checked


# Addresses the site's own pages use beside /leagues/<slug>/.
RESERVED_SLUGS = {"new", "restores"}


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "league"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or League.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def league_create(*, name: str, by, is_public: bool = True, slug: str | None = None,
                  default_options: Mapping[str, Any] | None = None, idempotency_key: str | None = None) -> League:
    """Create a league; its creator becomes its first owner.

    A retry with the same ``idempotency_key`` (the form sent twice) creates no second league.
    """
    request = {"name": name, "is_public": is_public, "slug": slug, "default_options": default_options}
    return row_once(
        user=by, scope="leagues", key=idempotency_key, request=request, rows=League.objects.all(),
        write=lambda: create(name=name, by=by, is_public=is_public, slug=slug, default_options=default_options),
    )


def checked_slug(slug: str) -> str:
    if not slug or slugify(slug) != slug or len(slug) > 80:
        raise InvalidInput("a league's address is lower-case letters, digits and hyphens, e.g. thursday-club",
                           field="slug")
    if slug in RESERVED_SLUGS or League.objects.filter(slug=slug).exists():
        raise InvalidInput(f"the address {shown(slug)} is taken by another league; choose another", field="slug")
    return slug


@transaction.atomic
def create(*, name, by, is_public, slug, default_options) -> League:
    if not by.is_authenticated:
        raise NotAllowed("sign in to create a league")
    name = (name or "").strip()
    if not name:
        raise InvalidInput("a league needs a name", field="name")
    if len(name) > 120:
        raise InvalidInput("a league's name can be at most 120 characters", field="name")
    if slug is not None:
        slug = checked_slug(slug)
    league = League.objects.create(
        name=name,
        slug=slug or unique_slug(name),
        is_public=is_public,
        default_options=check_default_options(default_options or {}),
        created_by=by,
    )
    Membership.objects.create(league=league, user=by, role=Membership.Role.OWNER)
    return league


@transaction.atomic
def league_set_member(*, league: League, user, role: str | None, by) -> Membership | None:
    """Give a member a lower role, or (``role=None``) remove them. Owners only; anyone may leave.

    Nobody is added or raised without their say: that is an invitation they accept
    (``invitation_create(invitee=...)``). A league always keeps at least one owner.
    """
    leaving = role is None and by.is_authenticated and by.pk == user.pk
    if not leaving and not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can manage its members")
    if role is not None and role not in Membership.Role.values:
        raise InvalidInput(f"role must be one of {', '.join(Membership.Role.values)}", field="role")
    current = Membership.objects.select_for_update().filter(league=league, user=user).first()
    if role is not None and (current is None or RANK[role] > RANK[current.role]):
        who = display_name(user)
        raise InvalidInput(f"{who} must accept an invitation to become {ROLE_WORDS[role]} of {league.name}",
                           field="role")
    if current and current.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
        owners = Membership.objects.filter(league=league, role=Membership.Role.OWNER).count()
        if owners == 1:
            raise StateConflict("a league must keep at least one owner", field="role")
    if role is None:
        if current:
            current.delete()
        return None
    current.role = role
    current.save(update_fields=["role"])
    return current


@transaction.atomic
def league_update(*, league: League, by, name: str | None = None, is_public: bool | None = None,
                  default_options: Mapping[str, Any] | None = None, confirmation: str | None = None,
                  provisional_hours: int | None = None) -> League:
    """Rename a league, make it public or private, or change its house rules (the game options, whether the
    other side confirms each hand, and for how many hours a finished game with unconfirmed hands stays
    provisional). Owners only. A new confirmation rule applies to games started from now on."""
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can change it")
    fields = []
    if name is not None:
        name = name.strip()
        if not name:
            raise InvalidInput("a league needs a name", field="name")
        league.name = name
        fields.append("name")
    if is_public is not None:
        league.is_public = is_public
        fields.append("is_public")
    if default_options is not None:
        league.default_options = check_default_options(default_options)
        fields.append("default_options")
    if confirmation is not None:
        if confirmation not in Confirmation.values:
            raise InvalidInput(f"confirmation must be one of {', '.join(Confirmation.values)}",
                               field="confirmation")
        league.confirmation = confirmation
        fields.append("confirmation")
    if provisional_hours is not None:
        if isinstance(provisional_hours, bool) or not isinstance(provisional_hours, int) \
                or not 0 <= provisional_hours <= MAX_PROVISIONAL_HOURS:
            raise InvalidInput(f"provisional_hours must be a whole number of hours from 0 to {MAX_PROVISIONAL_HOURS}",
                               field="provisional_hours")
        league.provisional_hours = provisional_hours
        fields.append("provisional_hours")
    if fields:
        league.save(update_fields=fields)
    return league


def league_member_change(*, league: League, user, role: str | None, by,
                         idempotency_key: str | None = None) -> Membership | Invitation | None:
    """The owner's one form for a person: a lower role or a removal takes effect at once; joining or a
    higher role becomes an invitation addressed to them, which they accept (the invitation is returned)."""
    current = Membership.objects.filter(league=league, user=user).values_list("role", flat=True).first()
    if role is not None and (current is None or RANK[role] > RANK[current]):
        return invitation_create(league=league, role=role, by=by, invitee=user, days=30,
                                 idempotency_key=idempotency_key)
    return league_set_member(league=league, user=user, role=role, by=by)


def league_member_named(*, league: League, username: str, role: str | None, by,
                        idempotency_key: str | None = None) -> Membership | Invitation | None:
    """:func:`league_member_change` for a login name as an owner typed it.

    A name with no account is answered as a name with one who is not a member: inviting it makes an
    invitation (which reaches nobody), removing it removes nobody. The owner learns nothing of which
    login names exist.
    """
    username = (username or "").strip()
    user = user_named(username) if username else None
    if user is not None:
        return league_member_change(league=league, user=user, role=role, by=by, idempotency_key=idempotency_key)
    if role is not None:
        return invitation_create(league=league, role=role, by=by, invitee_name=username, days=30,
                                 idempotency_key=idempotency_key)
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can manage its members")
    return None
