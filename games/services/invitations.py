"""Invitations: the one way into a league. An owner invites (a link, or a user by name); the person accepts.

Nobody becomes a member, scorekeeper or owner of a league without accepting. A link carries a
role (member or scorekeeper), an expiry and a number of uses; an invitation addressed to a user
may also make them an owner. An invitation may name one of the league's players: whoever accepts
it is linked to that player.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import policy
from games.errors import InvalidInput, InvitationClosed, NotAllowed
from games.idempotency import row_once
from games.models import Invitation, InvitationAcceptance, League, Membership, Player

# A role's rank: accepting an invitation never lowers anyone.
RANK: dict[str, int] = {str(Membership.Role.MEMBER): 1, str(Membership.Role.SCOREKEEPER): 2, str(Membership.Role.OWNER): 3}
LINK_ROLES: tuple[str, ...] = (str(Membership.Role.MEMBER), str(Membership.Role.SCOREKEEPER))
MAX_DAYS = 90
MAX_USES = 500
ROLE_WORDS = {"member": "a member", "scorekeeper": "a scorekeeper", "owner": "an owner"}


def invitation_by_token(token: str) -> Invitation:
    invitation = (Invitation.objects.select_related("league", "invitee", "player", "created_by")
                  .filter(token=str(token or "")[:64]).first())
    if invitation is None:
        raise InvalidInput("there is no such invitation; check the link", field="invitation")
    return invitation


def invitation_create(*, league: League, role: str, by, days: int = 7, max_uses: int = 1, invitee=None,
                      invitee_name: str | None = None, player: Player | None = None,
                      idempotency_key: str | None = None) -> Invitation:
    """An invitation to ``league`` as ``role``, open for ``days`` days and ``max_uses`` acceptances.

    With ``invitee`` (a user) or ``invitee_name`` (a login name) it is for that user alone (one use). A
    login name with no account is invited all the same, and the invitation reaches nobody: the answer
    never tells whether an account exists. Owners only. A retry with the same ``idempotency_key`` (a
    form sent twice) makes no second invitation.
    """
    request = {"league": league.pk, "role": role, "days": days, "max_uses": max_uses,
               "invitee": invitee.pk if invitee else None, "invitee_name": invitee_name,
               "player": player.pk if player else None}
    return row_once(
        user=by, scope=f"league:{league.pk}:invitations", key=idempotency_key, request=request,
        rows=Invitation.objects.select_related("league"),
        write=lambda: create(league=league, role=role, by=by, days=days, max_uses=max_uses, invitee=invitee,
                             invitee_name=invitee_name, player=player),
    )


def user_named(username: str):
    """The account with this login name, or None."""
    return get_user_model().objects.filter(username=username).first()


@transaction.atomic
def create(*, league, role, by, days, max_uses, invitee, invitee_name, player) -> Invitation:
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can invite people")
    if invitee is None and invitee_name is not None:
        invitee_name = invitee_name.strip()
        if not invitee_name:
            raise InvalidInput("give the login name of the person to invite", field="username")
        invitee = user_named(invitee_name)
    addressed = invitee is not None or bool(invitee_name)
    allowed: list[str] = list(Membership.Role.values) if addressed else list(LINK_ROLES)
    if role not in allowed:
        raise InvalidInput(f"an invitation {'' if addressed else 'link '}makes someone "
                           f"{' or '.join(ROLE_WORDS[name] for name in allowed)}", field="role")
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise InvalidInput(f"an invitation lasts from 1 to {MAX_DAYS} days", field="days")
    if addressed:
        max_uses = 1
    if invitee is not None:
        current = Membership.objects.filter(league=league, user=invitee).values_list("role", flat=True).first()
        if current and RANK[current] >= RANK[role]:
            raise InvalidInput(f"they are already {ROLE_WORDS[current]} of {league.name}", field="username")
    if isinstance(max_uses, bool) or not isinstance(max_uses, int) or not 1 <= max_uses <= MAX_USES:
        raise InvalidInput(f"an invitation can be used from 1 to {MAX_USES} times", field="max_uses")
    if player is not None:
        player = Player.objects.select_for_update().get(pk=player.pk)
        check_linkable(league=league, player=player)
        max_uses = 1  # one person is that player
    return Invitation.objects.create(
        token=secrets.token_urlsafe(24), league=league, role=role, invitee=invitee,
        invitee_name=invitee_name or (invitee.username if invitee is not None else ""), player=player,
        max_uses=max_uses, expires_at=timezone.now() + timedelta(days=days), created_by=by,
    )


def check_linkable(*, league: League, player: Player, user=None) -> None:
    """The player is one of the league's, and nobody (else) has claimed them."""
    if not league.players.filter(pk=player.pk).exists():
        raise InvalidInput(f"{player.name} is not one of {league.name}'s players", field="player")
    if player.user_id is not None and (user is None or player.user_id != user.pk):
        raise InvalidInput(f"{player.name} is already claimed by someone else", field="player")


@transaction.atomic
def invitation_accept(*, token: str, by) -> Membership:
    """Join the league (or take the invitation's higher role in it); link the invitation's player, if any."""
    if not by.is_authenticated:
        raise NotAllowed("sign in or sign up to accept the invitation")
    invitation = invitation_by_token(token)
    # Locked: two people taking the last use of a link wait for each other, and one of them is refused.
    invitation = Invitation.objects.select_for_update(of=("self",)).select_related("league", "player").get(
        pk=invitation.pk)
    if invitation.is_addressed and invitation.invitee_id != by.pk:
        raise NotAllowed("this invitation is for someone else")
    if InvitationAcceptance.objects.filter(invitation=invitation, user=by).exists():
        raise InvalidInput("you have already accepted this invitation", field="invitation")
    status = invitation.status
    if status != Invitation.Status.OPEN:
        raise InvitationClosed(closed_message(invitation))
    league = invitation.league
    membership = Membership.objects.select_for_update().filter(league=league, user=by).first()
    if membership is not None and RANK[membership.role] >= RANK[invitation.role]:
        raise InvalidInput(f"you are already {ROLE_WORDS[membership.role]} of {league.name}", field="invitation")
    if invitation.player_id is not None:
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        check_linkable(league=league, player=player, user=by)
        check_one_player_per_league(league=league, user=by, player=player)
        player.user = by
        player.save(update_fields=["user"])
    if membership is None:
        membership = Membership.objects.create(league=league, user=by, role=invitation.role)
    else:
        membership.role = invitation.role
        membership.save(update_fields=["role"])
    try:
        with transaction.atomic():
            InvitationAcceptance.objects.create(invitation=invitation, user=by)
    except IntegrityError:
        raise InvalidInput("you have already accepted this invitation", field="invitation") from None
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return membership


def check_one_player_per_league(*, league: League, user, player: Player) -> None:
    mine = league.players.filter(user=user).exclude(pk=player.pk).first()
    if mine is not None:
        raise InvalidInput(f"you are already {mine.name} in {league.name}", field="player")


def closed_message(invitation: Invitation) -> str:
    status = invitation.status
    if status == Invitation.Status.EXPIRED:
        return f"this invitation to {invitation.league.name} has expired; ask the organiser for a new one"
    if status == Invitation.Status.USED_UP:
        return (f"this invitation to {invitation.league.name} has been used as many times as it allows; "
                "ask the organiser for a new one")
    if status == Invitation.Status.DECLINED:
        return "this invitation was declined"
    return f"this invitation to {invitation.league.name} was withdrawn by the organiser"


@transaction.atomic
def invitation_decline(*, token: str, by) -> Invitation:
    """The user an invitation is addressed to says no."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation_by_token(token).pk)
    if invitation.invitee_id is None or invitation.invitee_id != by.pk:
        raise NotAllowed("only the person an invitation is addressed to can decline it")
    if invitation.status != Invitation.Status.OPEN:
        raise InvitationClosed(closed_message(invitation))
    invitation.declined_at = timezone.now()
    invitation.save(update_fields=["declined_at"])
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by) -> Invitation:
    """An owner withdraws an invitation: it can no longer be accepted (those who accepted stay)."""
    if not policy.can_manage_league(by, invitation.league):
        raise NotAllowed("only the league's owners can withdraw its invitations")
    invitation = Invitation.objects.select_for_update().select_related("league").get(pk=invitation.pk)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation
