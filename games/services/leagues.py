"""Players, leagues and their members."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.models import League, Membership, Player
from games.rules import ruleset_class, shown
from games.rules.errors import RulesError


def player_create(*, name: str, by, user=None) -> Player:
    name = (name or "").strip()
    if not name:
        raise InvalidInput("a player needs a name", field="name")
    if len(name) > 80:
        raise InvalidInput("a player's name can be at most 80 characters", field="name")
    return Player.objects.create(name=name, user=user, created_by=by if by.is_authenticated else None)


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


def unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "league"
    slug, n = base, 2
    while League.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def league_create(*, name: str, by, is_public: bool = True, slug: str | None = None,
                  default_options: Mapping[str, Any] | None = None) -> League:
    """Create a league; its creator becomes its first owner."""
    if not by.is_authenticated:
        raise NotAllowed("sign in to create a league")
    name = (name or "").strip()
    if not name:
        raise InvalidInput("a league needs a name", field="name")
    if slug is not None and League.objects.filter(slug=slug).exists():
        raise InvalidInput(f"the slug {shown(slug)} is taken", field="slug")
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
    """Add a member, change their role, or (``role=None``) remove them. Owners only.

    A league always keeps at least one owner.
    """
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can manage its members")
    if role is not None and role not in Membership.Role.values:
        raise InvalidInput(f"role must be one of {', '.join(Membership.Role.values)}", field="role")
    current = Membership.objects.select_for_update().filter(league=league, user=user).first()
    if current and current.role == Membership.Role.OWNER and role != Membership.Role.OWNER:
        owners = Membership.objects.filter(league=league, role=Membership.Role.OWNER).count()
        if owners == 1:
            raise InvalidInput("a league must keep at least one owner", field="role")
    if role is None:
        if current:
            current.delete()
        return None
    membership, _ = Membership.objects.update_or_create(league=league, user=user, defaults={"role": role})
    return membership


def player_update(*, player: Player, name: str, by) -> Player:
    if not policy.can_edit_player(by, player):
        raise NotAllowed("only whoever added this player (or the player) can rename them")
    name = (name or "").strip()
    if not name:
        raise InvalidInput("a player needs a name", field="name")
    if len(name) > 80:
        raise InvalidInput("a player's name can be at most 80 characters", field="name")
    player.name = name
    player.save(update_fields=["name", "updated_at"])
    return player


@transaction.atomic
def league_update(*, league: League, by, name: str | None = None, is_public: bool | None = None,
                  default_options: Mapping[str, Any] | None = None) -> League:
    """Rename a league, make it public or private, or change its house rules. Owners only."""
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
    if fields:
        league.save(update_fields=fields)
    return league
