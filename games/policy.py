"""Who may do what: the one place every door (API, pages, admin actions) asks.

- Anyone may read public leagues and their games; private leagues only their members.
- League owners and scorekeepers record and correct hands in their league's games.
- A casual game (no league): its creator and the users the creator added as scorekeepers.
- League owners manage the league: its settings and members.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from .models import Game, League, Match, Membership

WRITER_ROLES = (Membership.Role.OWNER, Membership.Role.SCOREKEEPER)


def league_role(user, league: League | None) -> str | None:
    if league is None or not user.is_authenticated:
        return None
    cached = getattr(league, "_roles", None)
    if cached is None:
        cached = league._roles = {}
    if user.pk not in cached:
        cached[user.pk] = (
            Membership.objects.filter(league=league, user=user).values_list("role", flat=True).first()
        )
    return cached[user.pk]


def remember_role(user, league: League | None, role: str | None) -> None:
    """Record the user's role in the league, read with something else (a write reads the game and the
    writer's role in one statement), so the checks below need no query of their own."""
    if league is None or not user.is_authenticated:
        return
    cached = getattr(league, "_roles", None)
    if cached is None:
        cached = league._roles = {}
    cached[user.pk] = role


def can_view_league(user, league: League | None) -> bool:
    if league is None or league.is_public or user.is_superuser:
        return True
    return league_role(user, league) is not None


def can_manage_league(user, league: League) -> bool:
    return user.is_authenticated and (user.is_superuser or league_role(user, league) == Membership.Role.OWNER)


def can_view_game(user, game: Game) -> bool:
    return can_view_league(user, game.league)


def can_score_game(user, game: Game) -> bool:
    """Record, correct, undo and abandon."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if game.league_id is not None:
        return league_role(user, game.league) in WRITER_ROLES
    return game.created_by_id == user.pk or game.scorekeepers.filter(pk=user.pk).exists()


def can_choose_scorekeepers(user, game: Game) -> bool:
    """A casual game's creator chooses who else keeps its score; a league game follows the league's roles."""
    if game.league_id is not None or not user.is_authenticated:
        return False
    return user.is_superuser or game.created_by_id == user.pk


def can_start_game(user, league: League | None) -> bool:
    if not user.is_authenticated:
        return False
    if league is None or user.is_superuser:
        return True
    return league_role(user, league) in WRITER_ROLES


def can_view_match(user, match: Match) -> bool:
    return can_view_league(user, match.league)


def visible_leagues(user) -> QuerySet[League]:
    leagues = League.objects.all()
    if user.is_superuser:
        return leagues
    if not user.is_authenticated:
        return leagues.filter(is_public=True)
    return leagues.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()


def visible_games(user) -> QuerySet[Game]:
    games = Game.objects.all()
    if user.is_superuser:
        return games
    public = Q(league__isnull=True) | Q(league__is_public=True)
    if not user.is_authenticated:
        return games.filter(public)
    return games.filter(public | Q(league__memberships__user=user)).distinct()


def can_edit_player(user, player) -> bool:
    """A player's name: whoever created the player, the user linked to it, or a superuser."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.pk in (player.created_by_id, player.user_id)
