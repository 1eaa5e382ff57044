"""The read side: queries for pages and the API, each a fixed number of queries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from games import policy
from games.errors import NotAllowed, NotFound
from games.idempotency import GAME_STARTS
from games.models import (
    Game,
    Hand,
    HandRevision,
    IdempotencyRecord,
    Invitation,
    League,
    Match,
    Membership,
    Player,
    PlayerClaim,
    Standing,
)
from games.standings.selectors import in_leagues

SEATED = ("north", "east", "south", "west")


def leagues_for(*, user) -> QuerySet[League]:
    return policy.visible_leagues(user).order_by("name")


# --- the web pages ---------------------------------------------------------------------------------
# Each function below runs a fixed number of queries whatever the size of the game, league or player.

GAME_RELATED = ("league", "match", *SEATED)


# The largest id a row can have (PostgreSQL's bigint): anything past it names no row.
MAX_ID = 2**63 - 1


def game_for(user, pk: Any, *, need: Literal["view", "score"] = "view",
             related: Sequence[str] = GAME_RELATED) -> Game:
    """The game with id ``pk``, as ``user`` may have it: the one lookup and permission check of every door.

    ``need``: ``"view"``, to see it; ``"score"``, to keep its score as well (record, correct, undo, abandon).
    A game the user may not see is :class:`NotFound`, worded as for a game that does not exist, so that a
    private game is not given away; one they see but may not score is :class:`NotAllowed`. Each door turns
    these into its own answer once (a 404 or 403 page; the API's error shape). One query (with ``related``
    joined), and the policy's own to score.
    """
    game = (policy.visible_games(user).select_related(*related).filter(pk=pk).first()
            if isinstance(pk, int) and not isinstance(pk, bool) and 0 < pk <= MAX_ID else None)
    if game is None:
        raise NotFound(f"there is no game {pk}")
    if need == "score" and not policy.can_score_game(user, game):
        raise NotAllowed("you cannot keep score in this game")
    return game


def game_hands(*, game: Game) -> list[Hand]:
    """Every hand of the game in order (one query)."""
    return list(Hand.objects.filter(game=game).order_by("number"))


def game_hands_with_people(*, game: Game) -> list[Hand]:
    """Every hand of the game in order, with who entered it (one query)."""
    return list(Hand.objects.filter(game=game).select_related("entered_by").order_by("number"))


def game_hand(*, game: Game, number: int) -> Hand | None:
    return Hand.objects.filter(game=game, number=number).first()


def game_revisions(*, game: Game) -> list[HandRevision]:
    """Every correction and undo of the game's hands, oldest first, with who made it (one query)."""
    return list(HandRevision.objects.filter(game=game).select_related("changed_by").order_by("changed_at", "id"))


def scorable_games(*, user, limit: int = 20) -> list[Game]:
    """Games in progress that ``user`` plays in or may keep score in, most recently active first."""
    if not user.is_authenticated:
        return []
    writer = Q(league__in=Membership.objects.filter(user=user, role__in=policy.WRITER_ROLES).values("league"))
    casual = Q(league__isnull=True) & (Q(created_by=user) | policy.scored_by(user))
    seated = policy.seated_user(user)
    ids = (
        policy.visible_games(user)
        .filter(Q(status=Game.Status.IN_PROGRESS) & (writer | casual | seated))
        .values("pk")
    )
    return list(
        Game.objects.filter(pk__in=ids).select_related(*GAME_RELATED).order_by("-updated_at", "-id")[:limit]
    )


def finished_games(*, user, limit: int = 10) -> list[Game]:
    ids = policy.visible_games(user).filter(status=Game.Status.FINISHED).values("pk")
    return list(
        Game.objects.filter(pk__in=ids).select_related(*GAME_RELATED).order_by("-finished_at", "-id")[:limit]
    )


def my_leagues(*, user) -> list[League]:
    if not user.is_authenticated:
        return []
    return list(League.objects.filter(memberships__user=user).distinct().order_by("name"))


def startable_leagues(*, user) -> list[League]:
    """Leagues whose games ``user`` may start (owner or scorekeeper)."""
    if not user.is_authenticated:
        return []
    leagues = League.objects.all() if user.is_superuser else League.objects.filter(
        memberships__user=user, memberships__role__in=policy.WRITER_ROLES
    ).distinct()
    return list(leagues.order_by("name"))


def tables_of(user) -> QuerySet[Game]:
    """The games at the user's own tables: started by them, kept score at, or sat at."""
    return Game.objects.filter(Q(created_by=user) | policy.scored_by(user) | policy.seated_user(user))


def last_table(*, user) -> Game | None:
    """The user's latest game in a league whose games they may still start, or a casual one (one query):
    where a new game most likely belongs."""
    if not user.is_authenticated:
        return None
    games = tables_of(user)
    if not user.is_superuser:
        writing = Membership.objects.filter(user=user, role__in=policy.WRITER_ROLES).values("league")
        games = games.filter(Q(league__isnull=True) | Q(league__in=writing))
    return games.select_related("league").order_by("-started_at", "-id").first()


def usual_game_type(*, user, league: League | None) -> str | None:
    """The game a new game in ``league`` (None: a casual one) most likely is: the one the user last played
    there, else the one last played in the league at all (two queries at most)."""
    if not user.is_authenticated:
        return None
    mine = tables_of(user).filter(league=league).order_by("-started_at", "-id").values_list("game_type", flat=True)
    found = mine.first()
    if found is None and league is not None:
        found = league.games.order_by("-started_at", "-id").values_list("game_type", flat=True).first()
    return found


def game_started_with(*, user, key: str) -> Game | None:
    """The game the user started with this idempotency key (from a page or the API), if any (one query)."""
    if not user.is_authenticated or not key:
        return None
    record = (IdempotencyRecord.objects.filter(user=user, scope=GAME_STARTS, key=key, game__isnull=False)
              .select_related("game__league", *(f"game__{seat}" for seat in SEATED)).first())
    return record.game if record else None


def players_to_seat(*, user, league: League | None = None, limit: int = 1000) -> list[Player]:
    """Whom ``user`` may seat, by name (one query, and one for the user's role in a private league): a league's players; for a casual game, the people they
    have played with (at tables they started, kept score at or sat at), those they added, and themselves.

    Never a player the user may not see.
    """
    if league is not None:
        if not policy.can_view_league(user, league):
            return []
        # A league's players are seen by whoever sees the league: no further check needed.
        return list(league.players.order_by("name", "id")[:limit])
    if not user.is_authenticated:
        return []  # someone not signed in has no table of their own
    chosen = Q(created_by=user) | Q(user=user) | policy.seated_in(tables_of(user))
    players = policy.visible_players(user).filter(chosen)
    return list(players.order_by("name", "id")[:limit])


def league_players(*, league: League) -> list[Player]:
    """The league's players by name, with the accounts claiming them (one query)."""
    return list(league.players.select_related("user").order_by("name", "id"))


def league_claims(*, league: League) -> list[PlayerClaim]:
    """Claims waiting for the league's owners (one query)."""
    return list(PlayerClaim.objects.filter(league=league, status=PlayerClaim.Status.PENDING)
                .select_related("player", "user").order_by("created_at", "id"))


def league_invitations(*, league: League, limit: int = 50) -> list[Invitation]:
    """The league's invitations, newest first, with whom each is for (one query)."""
    return list(Invitation.objects.filter(league=league).select_related("invitee", "player", "created_by")
                .order_by("-created_at", "-id")[:limit])


def invitations_for(*, user) -> list[Invitation]:
    """Open invitations addressed to ``user`` (one query)."""
    if not user.is_authenticated:
        return []
    rows = (Invitation.objects.filter(invitee=user, revoked_at__isnull=True, declined_at__isnull=True,
                                      expires_at__gt=timezone.now())
            .select_related("league", "created_by", "invitee").order_by("-created_at"))
    return [invitation for invitation in rows if invitation.is_open]


def my_players(*, user) -> list[Player]:
    """The players ``user`` is (claimed or linked), with the leagues they play in (two queries)."""
    if not user.is_authenticated:
        return []
    return list(Player.objects.filter(user=user).prefetch_related("leagues").order_by("name", "id"))


def my_games(*, user, limit: int = 20) -> list[Game]:
    """Games the user's players sat in, newest first (one query)."""
    if not user.is_authenticated:
        return []
    ids = policy.visible_games(user).filter(policy.seated_user(user)).values("pk")
    return list(Game.objects.filter(pk__in=ids).select_related(*GAME_RELATED).order_by("-started_at", "-id")[:limit])


def my_claims(*, user) -> list[PlayerClaim]:
    if not user.is_authenticated:
        return []
    return list(PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
                .select_related("player", "league"))


def league_games(*, league: League, status: str, limit: int = 20) -> list[Game]:
    order = "-finished_at" if status == Game.Status.FINISHED else "-updated_at"
    return list(
        Game.objects.filter(league=league, status=status).select_related(*GAME_RELATED).order_by(order, "-id")[:limit]
    )


def league_members(*, league: League) -> list[Membership]:
    return list(Membership.objects.filter(league=league).select_related("user")
                .order_by("role", "user__first_name", "user__username"))


def players_by_id(*, ids) -> dict[int, Player]:
    return Player.objects.in_bulk(list(ids))


def player_games(*, player: Player, user, limit: int = 50) -> list[Game]:
    """The games ``player`` sat in that ``user`` may see, newest first."""
    # The page's games first, then their players by id. PostgreSQL plans the join of the seven tables with the
    # player's games and the visibility test in one statement some tens of times slower than it runs either (64 ms
    # against 2 ms, and more as the league grows); joined to the fifty games by id it still plans three times longer
    # than it runs, and Django makes a player four times a game where a busy player's fifty games have a few dozen
    # players (at 100,000 games: 200 players made against 100, the page's games read in 13-14 ms against 22-27).
    games = list(Game.objects.filter(pk__in=newest_game_ids(player=player, user=user, limit=limit))
                 .select_related("league").order_by("-started_at", "-id"))
    return with_players(games)


def with_players(games: list[Game]) -> list[Game]:
    """``games`` with their seats' players, each read once (one query)."""
    players = Player.objects.in_bulk({pk for game in games for pk in game.seat_ids.values()})
    for game in games:
        for seat in SEATED:
            setattr(game, seat, players[getattr(game, f"{seat}_id")])
    return games


def newest_game_ids(*, player: Player, user, limit: int) -> list[int]:
    """The ids of the ``limit`` newest games ``player`` sat in that ``user`` may see.

    Asked as one question, PostgreSQL walks every game of the league newest first until it has found ``limit`` of
    the player's (46,000 games read for 50 at 100,000 games: 84 ms); asked seat by seat, each seat's games come
    from that seat's index, the newest ``limit`` of each, and the newest of those are the page's (a few ms)."""
    visible = policy.visible_games(user).order_by("-started_at", "-id").values_list("pk", "started_at")
    if not connection.features.supports_slicing_ordering_in_compound:  # SQLite: one question
        seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
        return [pk for pk, _ in visible.filter(seated)[:limit]]
    first, *others = (visible.filter(**{seat: player})[:limit] for seat in SEATED)
    newest = first.union(*others, all=True).order_by("-started_at", "-pk")[:limit]
    return [pk for pk, _ in newest]


def match_detail(*, match_id: int) -> Match:
    return Match.objects.select_related("league").get(pk=match_id)


def match_games(*, match: Match) -> list[Game]:
    return list(match.games.select_related(*SEATED).order_by("match_game_number"))


def match_game(*, match: Match, number: int) -> Game | None:
    return match.games.filter(match_game_number=number).first()


# --- the API's reads (each a fixed number of queries, however many games or hands) --------------


def games_for(*, user, league=None, player=None, game_type=None, status=None,
              started_on=None, started_after=None, started_before=None,
              updated_after=None, finished_after=None) -> QuerySet[Game]:
    """Visible games, newest first, filtered; seats and league fetched in the same query.

    ``updated_after``, ``finished_after``: moments (exclusive), for clients that follow changes.
    """
    visible = policy.visible_games(user).values("pk")
    games = Game.objects.filter(pk__in=visible).select_related("league", *SEATED)
    if league is not None:
        games = games.filter(league_id=league)
    if player is not None:
        games = games.filter(Q(north_id=player) | Q(east_id=player) | Q(south_id=player) | Q(west_id=player))
    if game_type:
        games = games.filter(game_type=game_type)
    if status:
        games = games.filter(status=status)
    if started_on:
        games = games.filter(started_at__date=started_on)
    if started_after:
        games = games.filter(started_at__date__gte=started_after)
    if started_before:
        games = games.filter(started_at__date__lt=started_before)
    if updated_after:
        games = games.filter(updated_at__gt=updated_after)
    if finished_after:
        games = games.filter(finished_at__gt=finished_after)
    return games.order_by("-started_at", "-id")


def hands_with_authors() -> Prefetch:
    return Prefetch("hands", queryset=Hand.objects.select_related("entered_by").order_by("number"))


def hands_for(*, user, league=None, game=None, updated_after=None) -> QuerySet[Hand]:
    """Hands of the games ``user`` may see, with who entered them (one query a page), and their games with
    the players (one more: each hand's explanation names them)."""
    hands = (Hand.objects.filter(game__in=policy.visible_games(user).values("pk")).select_related("entered_by")
             .prefetch_related(Prefetch("game", queryset=Game.objects.select_related(*SEATED))))
    if league is not None:
        hands = hands.filter(game__league_id=league)
    if game is not None:
        hands = hands.filter(game_id=game)
    if updated_after:
        hands = hands.filter(updated_at__gt=updated_after)
    return hands


def game_with_hands(*, user, pk: int) -> Game | None:
    """One visible game with its seats, league and every hand (with who entered it): three queries."""
    visible = policy.visible_games(user).filter(pk=pk).values("pk")
    return (Game.objects.filter(pk__in=visible).select_related("league", *SEATED).prefetch_related(hands_with_authors())
            .first())


def add_hands(*, game: Game) -> Game:
    """Every hand of a game already read (with who entered it): one query."""
    prefetch_related_objects([game], hands_with_authors())
    return game


def matches_for(*, user):
    """Visible Trumps matches, newest first, each with its games and their seats prefetched."""
    games = Prefetch("games", queryset=Game.objects.select_related(*SEATED).order_by("match_game_number"))
    return (
        policy.visible_matches(user)
        .prefetch_related(games)
        .order_by("-started_at", "-id")
    )


def with_player_rows(matches) -> list:
    """Attach ``player_rows`` (id, name, total; highest first) to each match, in one query."""
    matches = list(matches)
    ids = {int(pk) for match in matches for pk in (*match.seating.values(), *match.player_totals)}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    for match in matches:
        totals = {int(pk): total for pk, total in match.player_totals.items()}
        rows = [{"id": pk, "name": names.get(pk, ""), "total": totals.get(pk, 0)}
                for pk in sorted({int(pk) for pk in match.seating.values()})]
        match.player_rows = sorted(rows, key=lambda row: (-row["total"], row["name"], row["id"]))
    return matches


# --- a player's lines in the stored league tables (games.standings) ---------------------------------


def player_standings(*, player: Player, leagues: QuerySet[League] | None = None, season=None) -> list[dict]:
    """The player's own lines (not their partnerships) in each league and game type, as stored by the
    standings task: one query. ``leagues``: only these (e.g. ``policy.visible_leagues(user)``); ``season``: a
    season's lines (all time without; ``"current"``: each league's current season). ::

        [{"league": {"id", "slug", "name"}, "game_type", "played", "won", "lost", "win_rate", "streak",
          "last_played"}, ...]
    """
    rows = in_leagues(Standing.objects.filter(player=player, partner__isnull=True), leagues, season)
    return [
        {"league": {"id": row.pop("league_id"), "slug": row.pop("league__slug"), "name": row.pop("league__name")},
         **row}
        for row in rows.values("league_id", "league__slug", "league__name", "game_type", "played", "won", "lost",
                               "win_rate", "streak", "last_played")
    ]
