"""Who may do what: the one place every door (API, pages, admin actions) asks.

- Anyone may read public leagues and their games; private leagues only their members.
- A casual game (no league) is seen by its players (the users who claimed its players), its creator and
  the scorekeepers the creator added; by anyone once the creator makes it public.
- A player is seen by whoever may see one of the leagues or games they play in (and by whoever added
  them, and the user who is that player): a player of private leagues only is invisible to outsiders.
- League owners and scorekeepers record and correct hands in their league's games, and add players.
- A casual game: its creator and the users the creator added as scorekeepers keep its score.
- League owners manage the league: its settings, invitations, members and players (names, links, claims,
  merges). Nobody joins a league but by accepting an invitation.
- A player belongs to one league (or to none, for casual games): a league's game seats only its own
  players, so nobody can seat, rename, link, claim or merge a player another league holds. A person who
  plays in two leagues is a player in each, both linked to their one account.
- Login names are shown only to the members of a league (anyone else sees display names).
- A club night is seen as its league is; its owners and scorekeepers run it. Whoever holds a night's code (its
  check-in QR, its table cards) checks themselves in as one of the league's players and follows the night's
  tables, and nothing else.
- Whoever holds a game's table token (scanned from its code at the table) may follow that game, and
  nothing else: not another game, not its league, not a player's page, not the API. The one question a
  game's pages ask is ``game_access``: what may this person, with what their phone holds, do with it.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.rules import SEATS

from .models import Game, League, Match, Membership, Night, Player

WRITER_ROLES = (Membership.Role.OWNER, Membership.Role.SCOREKEEPER)


def league_role(user, league: League | None) -> str | None:
    if league is None or not user.is_authenticated:
        return None
    cached = getattr(league, "_roles", None)
    if cached is None:
        cached = league._roles = {}
    if user.pk not in cached:
        cached[user.pk] = (
            # One row at most (one membership a user and league): no ordering, so no join to the league to sort by.
            Membership.objects.filter(league=league, user=user).order_by().values_list("role", flat=True).first()
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
    if game.league_id is not None:
        return can_view_league(user, game.league)
    if game.is_public or user.is_superuser:
        return True
    if not user.is_authenticated:
        return False
    if game.created_by_id == user.pk or user.pk in {player.user_id for player in game.seats.values()}:
        return True
    return game.scorekeepers.filter(pk=user.pk).exists()


@dataclass(frozen=True)
class TablePass:
    """What a phone that opened a game's table code holds for that game: the game, the table token as
    it was in the code, and the seat its holder says is theirs (None: just watching)."""

    game_id: int
    token: str
    seat: str | None = None


def table_token_matches(game: Game, token: str) -> bool:
    """Whether ``token`` is the game's table token now (a renewed one no longer is), compared in constant
    time. A game without a token is opened by none."""
    return bool(game.table_token) and hmac.compare_digest(game.table_token.encode(), token.encode())


@dataclass(frozen=True)
class GameAccess:
    """What one person may do with one game, as its pages ask it.

    ``view``: see the game as it is played (its scoreboard, hands and totals; its live board). ``seat``:
    where they sit at its table: the seat of a player linked to their account, else the seat the holder of
    its table token chose (``seat_chosen``). ``holds_pass``: their phone holds the game's table token as it
    is now. ``by_token``: they see the game only because of it (so they are shown nothing beyond it: no
    league, no players' pages). ``pass_refused``: their phone holds a pass for this game that no longer
    opens it (the code was renewed).
    """

    user: Any
    game: Game
    view: bool
    seat: str | None = None
    seat_chosen: bool = False
    holds_pass: bool = False
    by_token: bool = False
    pass_refused: bool = False

    @property
    def score(self) -> bool:
        """Record, correct, undo and abandon: never by the token. (Asked only where needed: it may cost a query.)"""
        return can_score_game(self.user, self.game)

    @property
    def seated(self) -> bool:
        """A player linked to their account sits at the table."""
        return self.seat is not None and not self.seat_chosen

    @property
    def may_choose_seat(self) -> bool:
        """A token holder says which seat is theirs; a player linked to a seat has theirs already."""
        return self.holds_pass and not self.seated


def own_seat(user, game: Game) -> str | None:
    """The seat of the game's player linked to ``user``'s account, if one is (seats as loaded with the game)."""
    if not user.is_authenticated:
        return None
    return next((seat for seat, player in game.seats.items() if player.user_id == user.pk), None)


def game_access(user, game: Game, table_pass: TablePass | None = None) -> GameAccess:
    """What ``user`` (with ``table_pass``, what their phone holds for this game, if anything) may do with
    ``game``. The account's own rights first (``can_view_game``); a pass that matches the game's table
    token now adds following it, and the seat its holder chose. A pass for another game opens nothing."""
    by_account = can_view_game(user, game)
    valid = (table_pass is not None and table_pass.game_id == game.pk
             and table_token_matches(game, table_pass.token))
    seat = own_seat(user, game)
    chosen = False
    if seat is None and valid and table_pass is not None and table_pass.seat in SEATS:
        seat, chosen = table_pass.seat, True
    return GameAccess(user=user, game=game, view=by_account or valid, seat=seat, seat_chosen=chosen,
                      holds_pass=valid, by_token=valid and not by_account,
                      pass_refused=table_pass is not None and not valid)


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


def can_run_night(user, league: League) -> bool:
    """A club night of the league: its owners and scorekeepers start it, check players in, start its rounds,
    substitute, move tables and end it (as they start and score its games)."""
    return can_start_game(user, league)


def night_code_matches(night: Night, code: str) -> bool:
    """Whether ``code`` is the night's code now (its check-in QR, its table cards), compared in constant time."""
    return bool(night.code) and hmac.compare_digest(night.code.encode(), code.encode())


def can_view_match(user, match: Match) -> bool:
    """A league's match as its league; a casual match as its games (its table's, unless shared)."""
    if match.league_id is not None:
        return can_view_league(user, match.league)
    return visible_games(user).filter(match=match).exists()


def visible_matches(user) -> QuerySet[Match]:
    casual = visible_games(user).filter(league__isnull=True, match__isnull=False).values("match")
    return Match.objects.filter(Q(league__in=visible_leagues(user).values("pk")) | Q(league__isnull=True, pk__in=casual))


# The visibility querysets below use subqueries (``pk__in``), never joins to many-valued relations: no row
# comes twice, so no DISTINCT, and PostgreSQL plans each in a millisecond or two (joins through the seats and
# memberships took it 40 ms to plan, on every lookup of a player).


def visible_leagues(user) -> QuerySet[League]:
    leagues = League.objects.all()
    if user.is_superuser:
        return leagues
    if not user.is_authenticated:
        return leagues.filter(is_public=True)
    return leagues.filter(Q(is_public=True) | Q(pk__in=Membership.objects.filter(user=user).values("league")))


def seated_user(user) -> Q:
    """Games in which one of the user's players sat."""
    theirs = Player.objects.filter(user=user).values("pk")
    return Q(north__in=theirs) | Q(east__in=theirs) | Q(south__in=theirs) | Q(west__in=theirs)


def seated_in(games: QuerySet[Game]) -> Exists:
    """Players who sat at one of ``games`` (one EXISTS: cheaper to build and to plan than one test a seat)."""
    at_a_seat = Q(north=OuterRef("pk")) | Q(east=OuterRef("pk")) | Q(south=OuterRef("pk")) | Q(west=OuterRef("pk"))
    return Exists(games.filter(at_a_seat))


def scored_by(user) -> Q:
    """Games the user was added to as a scorekeeper."""
    return Q(pk__in=Game.scorekeepers.through.objects.filter(user=user).values("game"))


def casual_games_seen_by(user) -> Q:
    """Casual games the user may see: public ones, and those of their own table (created, scored, or sat at)."""
    if user.is_superuser:
        return Q()
    if not user.is_authenticated:
        return Q(is_public=True)
    return Q(is_public=True) | Q(created_by=user) | scored_by(user) | seated_user(user)


def visible_games(user) -> QuerySet[Game]:
    return Game.objects.filter(games_seen_by(user))


def games_seen_by(user) -> Q:
    """The condition on a game that ``user`` may see it (:func:`visible_games`), to add to another query of games
    rather than to join it to this one."""
    if user.is_superuser:
        return Q()
    in_leagues = Q(league__in=visible_leagues(user).values("pk"))
    return in_leagues | (Q(league__isnull=True) & casual_games_seen_by(user))


def visible_players(user) -> QuerySet[Player]:
    """Players of the leagues the user may see, of the casual games they may see, and their own."""
    players = Player.objects.all()
    if user.is_superuser:
        return players
    leagues = visible_leagues(user).values("pk")
    visible = Q(pk__in=League.players.through.objects.filter(league__in=leagues).values("player"))
    visible |= seated_in(Game.objects.filter(Q(league__isnull=True) & casual_games_seen_by(user)))
    if user.is_authenticated:
        visible |= Q(created_by=user) | Q(user=user)
    return players.filter(visible)


def can_view_player(user, player: Player) -> bool:
    return visible_players(user).filter(pk=player.pk).exists()


def can_see_usernames(user, league: League | None) -> bool:
    """Login names of a league's people: for its members; everyone else sees display names."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or (league is not None and league_role(user, league) is not None)


def can_add_league_player(user, league: League) -> bool:
    """Owners and scorekeepers add the league's players (they seat new ones at its tables)."""
    return user.is_authenticated and (user.is_superuser or league_role(user, league) in WRITER_ROLES)


def can_claim_player(user, league: League) -> bool:
    """A member of the league asks to be one of its players (the owners approve)."""
    return user.is_authenticated and league_role(user, league) is not None


def can_edit_player(user, player) -> bool:
    """A player's name: the user linked to it; for a league's player, the league's owners (whoever added it
    may have left); for a player of no league, whoever created it. A superuser too."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or user.pk == player.user_id:
        return True
    leagues = list(player.leagues.all())
    if leagues:
        return any(can_manage_league(user, league) for league in leagues)
    return user.pk == player.created_by_id
