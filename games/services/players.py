"""Players: adding and renaming them, linking them to the people they are, merging duplicates.

A player belongs to one league (``League.players``; a unique index keeps a player on one roster), or to
none: someone for casual games. A player may be claimed by a user: the organiser links a player to a
member's account, or a member claims an unclaimed player and an owner approves. A user is at most one
player in a league; someone who plays in two leagues is a player in each, linked to their one account.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import events, policy, selectors
from games.errors import InvalidInput, NotAllowed, SimilarName
from games.idempotency import row_once
from games.models import (
    Game,
    Invitation,
    League,
    Match,
    Night,
    NightPlayer,
    NightRound,
    NightSubstitution,
    NightTable,
    Player,
    PlayerClaim,
    name_key,
)

from .invitations import check_linkable, check_one_player_per_league, user_named

MAX_NAME = 80


def checked_name(name: str, field: str = "name") -> str:
    """A player's name with its spacing tidied (``"  Ann   Lee "`` is ``"Ann Lee"``)."""
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("a player needs a name", field=field)
    if len(name) > MAX_NAME:
        raise InvalidInput(f"a player's name can be at most {MAX_NAME} characters", field=field)
    return name


def check_not_similar(name: str, *, by, league: League | None, field: str = "name") -> None:
    """Refuse a new player whose name differs only in case or spacing from one the user would seat.

    "ann" beside an existing "Ann" is almost always the same person typed again; a caller that
    knows better (the person confirmed it) passes ``allow_similar``.
    """
    key = name_key(name)
    for player in selectors.players_to_seat(user=by, league=league):
        if name_key(player.name) == key:
            where = f" in {league.name}" if league is not None else ""
            raise SimilarName(f"there is already a player called {player.name}{where} (player {player.pk}); "
                               "pick them, or confirm that this is someone else", field=field)


def player_create(*, name: str, by, league: League | None = None, allow_similar: bool = False,
                  idempotency_key: str | None = None) -> Player:
    """A new player: one of ``league``'s (its owners and scorekeepers add them), or someone for casual games.

    A retry with the same ``idempotency_key`` adds no second player.
    """
    request = {"name": name, "league": league.pk if league else None, "allow_similar": allow_similar}
    return row_once(
        user=by, scope="players", key=idempotency_key, request=request, rows=Player.objects.all(),
        write=lambda: create(name=name, by=by, league=league, allow_similar=allow_similar),
    )


@transaction.atomic
def create(*, name: str, by, league: League | None = None, allow_similar: bool = False,
           field: str = "name") -> Player:
    if not by.is_authenticated:
        raise NotAllowed("sign in to add players")
    if league is not None and not policy.can_add_league_player(by, league):
        raise NotAllowed("only the league's owners and scorekeepers can add its players")
    name = checked_name(name, field)
    if not allow_similar:
        check_not_similar(name, by=by, league=league, field=field)
    player = Player.objects.create(name=name, created_by=by)
    if league is not None:
        league.players.add(player)
    return player


def player_update(*, player: Player, by, name: str | None = None) -> Player:
    """Rename a player (``name=None`` changes nothing): see ``policy.can_edit_player``."""
    if not policy.can_edit_player(by, player):
        league = player.leagues.first()
        whose = f"{league.name}'s owners" if league is not None else "whoever added them"
        raise NotAllowed(f"only {whose} (or the player) can rename {player.name}")
    if name is None:
        return player
    player.name = checked_name(name)
    player.save(update_fields=["name", "updated_at"])
    return player


def locked(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def check_in_league(league: League, player: Player, field: str = "player") -> None:
    if not league.players.filter(pk=player.pk).exists():
        raise InvalidInput(f"{player.name} is not one of {league.name}'s players", field=field)


@transaction.atomic
def player_claim(*, league: League, player: Player, by) -> PlayerClaim:
    """A member asks to be one of the league's players; an owner approves. Asking again changes nothing."""
    if not policy.can_claim_player(by, league):
        raise NotAllowed("only the league's members can claim its players")
    player = locked(player)
    check_in_league(league, player)
    if player.user_id == by.pk:
        raise InvalidInput(f"you are already {player.name}", field="player")
    if player.user_id is not None:
        raise InvalidInput(f"{player.name} is already claimed by someone else", field="player")
    check_one_player_per_league(league=league, user=by, player=player)
    pending = PlayerClaim.objects.filter(player=player, user=by, status=PlayerClaim.Status.PENDING).first()
    return pending or PlayerClaim.objects.create(player=player, league=league, user=by)


@transaction.atomic
def player_claim_decide(*, claim: PlayerClaim, approve: bool, by) -> PlayerClaim:
    """An owner approves a claim (the user becomes that player) or declines it."""
    if not policy.can_manage_league(by, claim.league):
        raise NotAllowed("only the league's owners can decide who its players are")
    claim = PlayerClaim.objects.select_for_update().select_related("league", "player", "user").get(pk=claim.pk)
    if claim.status != PlayerClaim.Status.PENDING:
        raise InvalidInput(f"this claim was already {claim.get_status_display().lower()}", field="claim")
    if approve:
        player = locked(claim.player)
        check_linkable(league=claim.league, player=player, user=claim.user)
        check_one_player_per_league(league=claim.league, user=claim.user, player=player)
        player.user = claim.user
        player.save(update_fields=["user"])
        decline_other_claims(player, keep=claim, by=by)
    claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.DECLINED
    claim.decided_by, claim.decided_at = by, timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    return claim


def decline_other_claims(player: Player, *, keep: PlayerClaim | None, by) -> None:
    others = PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.PENDING)
    if keep is not None:
        others = others.exclude(pk=keep.pk)
    others.update(status=PlayerClaim.Status.DECLINED, decided_by=by, decided_at=timezone.now())


def check_can_link(by, league: League) -> None:
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can link players to people")


def not_joined(league: League, username: str) -> InvalidInput:
    return InvalidInput(f"“{username}” has not joined {league.name}; invite them first", field="username")


@transaction.atomic
def player_link(*, league: League, player: Player, user, by) -> Player:
    """An owner links one of the league's players to a member's account (``user=None`` unlinks it)."""
    check_can_link(by, league)
    player = locked(player)
    check_in_league(league, player)
    if user is None:
        player.user = None
    else:
        if policy.league_role(user, league) is None:
            raise not_joined(league, user.username)
        check_linkable(league=league, player=player, user=user)
        check_one_player_per_league(league=league, user=user, player=player)
        player.user = user
        decline_other_claims(player, keep=None, by=by)
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def player_link_named(*, league: League, player: Player, username: str | None, by) -> Player:
    """:func:`player_link` by login name (``None`` unlinks). A name with no account is refused exactly as the
    name of an account that has not joined the league: the answer never tells which login names exist."""
    if username is None:
        return player_link(league=league, player=player, user=None, by=by)
    username = username.strip()
    user = user_named(username)
    if user is None:
        check_can_link(by, league)
        check_in_league(league, player)
        raise not_joined(league, username)
    return player_link(league=league, player=player, user=user, by=by)


def seated(player: Player) -> Q:
    return Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)


@transaction.atomic
def player_merge(*, league: League, keep: Player, merge: Player, by) -> Player:
    """Two records of one person in a league become one: ``merge``'s games, matches, club nights and claim go to
    ``keep``.

    ``merge`` is deleted and the league's standings and ratings are recomputed (queued). Refused
    across leagues (both must be the league's players, and ``merge`` play nowhere else), for two
    players who sat at the same table or in one round of a club night, and for players claimed by two
    different people.
    """
    if not policy.can_manage_league(by, league):
        raise NotAllowed("only the league's owners can merge its players")
    League.lock(league.pk)
    if keep.pk == merge.pk:
        raise InvalidInput("choose two different players to merge", field="merge")
    keep, merge = locked(keep), locked(merge)
    check_in_league(league, keep, "keep")
    check_in_league(league, merge, "merge")
    if (merge.leagues.exclude(pk=league.pk).exists()
            or Game.objects.filter(seated(merge)).exclude(league=league).exists()):
        raise InvalidInput(f"{merge.name} also plays outside {league.name}, so cannot be merged here; "
                           f"merge the other way round, into {merge.name}", field="merge")
    together = Game.objects.filter(seated(keep)).filter(seated(merge)).order_by("pk").first()
    if together is not None:
        raise InvalidInput(f"{keep.name} and {merge.name} sat at the same table (game {together.pk}): "
                           "they are two people", field="merge")
    check_not_in_one_round(league, keep, merge)
    if keep.user_id and merge.user_id and keep.user_id != merge.user_id:
        raise InvalidInput(f"{keep.name} and {merge.name} are claimed by two different people", field="merge")
    now = timezone.now()
    for field in Game.SEAT_FIELDS.values():
        # updated_at marks the games changed, so the standings' catch-up sees them too.
        Game.objects.filter(league=league, **{field: merge}).update(**{field: keep}, updated_at=now)
    for match in Match.objects.select_for_update().filter(league=league):
        renumber_match(match, merge.pk, keep.pk)
    if merge.user_id and not keep.user_id:
        keep.user_id = merge.user_id
        keep.save(update_fields=["user"])
    merge_night_rows(league, merge.pk, keep.pk)
    Invitation.objects.filter(player=merge).update(player=keep)
    PlayerClaim.objects.filter(player=merge).delete()
    merge.delete()
    events.publish(events.LeaguePlayersChanged(league=league))
    return keep


def check_not_in_one_round(league: League, keep: Player, merge: Player) -> None:
    """Two players seated in one round of a club night (at two tables) are two people."""
    tables: dict[tuple[int, int], dict[int, int]] = {}
    seated_in = (NightTable.objects.filter(round__night__league=league).filter(
        seated_game(keep) | seated_game(merge)).select_related("game", "round__night").order_by("round_id", "number"))
    for table in seated_in:
        seats = table.game.seat_ids.values()
        where = tables.setdefault((table.round.night_id, table.round.number), {})
        for player in (keep, merge):
            if player.pk in seats:
                where.setdefault(player.pk, table.number)
        if len(where) == 2:
            raise InvalidInput(f"{keep.name} and {merge.name} played in round {table.round.number} of "
                               f"{table.round.night.name}, at tables {where[keep.pk]} and {where[merge.pk]}: they "
                               "are two people", field="merge")


def seated_game(player: Player) -> Q:
    return Q(game__north=player) | Q(game__east=player) | Q(game__south=player) | Q(game__west=player)


def merge_night_rows(league: League, old: int, new: int) -> None:
    """The league's club nights name ``old`` as ``new``: their check-ins, who sat out, the substitutions (the
    seats are the games', already changed). Checked in to one night as both (typed in twice), they become one
    check-in: the earlier place in the check-in order, here if either is still here, the pair number of either."""
    nights = list(Night.objects.select_for_update().filter(
        pk__in=NightPlayer.objects.filter(night__league=league, player_id=old).values("night_id")))
    now = timezone.now()
    for night in nights:
        entries = {entrant.player_id: entrant for entrant in
                   NightPlayer.objects.select_for_update().filter(night=night, player_id__in=[old, new])}
        merged, kept = entries.get(old), entries.get(new)
        if merged is not None and kept is not None:
            kept.order = min(kept.order, merged.order)
            kept.arrived_at = min(kept.arrived_at, merged.arrived_at)
            kept.left_at = None if None in (kept.left_at, merged.left_at) else max(kept.left_at, merged.left_at)
            kept.pair = kept.pair if kept.pair is not None else merged.pair
            merged.delete()
            kept.save(update_fields=["order", "arrived_at", "left_at", "pair"])
        elif merged is not None:
            merged.player_id = new
            merged.save(update_fields=["player"])
        Night.objects.filter(pk=night.pk).update(updated_at=now)
    # Only a night's entrants sit its rounds out. One who sat a round out and, as the other, played in it (a
    # substitute) played it.
    for round_ in NightRound.objects.select_for_update().filter(night__in=[night.pk for night in nights]):
        if old not in round_.sitting_out and new not in round_.sitting_out:
            continue
        seated = {pk for table in round_.tables.select_related("game") for pk in table.game.seat_ids.values()}
        sitting_out = list(dict.fromkeys(new if pk == old else pk for pk in round_.sitting_out))
        round_.sitting_out = [pk for pk in sitting_out if pk not in seated]
        round_.save(update_fields=["sitting_out"])
    NightSubstitution.objects.filter(table__round__night__league=league, leaving_id=old).update(leaving_id=new)
    NightSubstitution.objects.filter(table__round__night__league=league, arriving_id=old).update(arriving_id=new)


def renumber_match(match: Match, old: int, new: int) -> None:
    """A match names its players by id in its seating, totals and winners."""
    seating = {seat: new if int(pk) == old else pk for seat, pk in match.seating.items()}
    totals = {(str(new) if pk == str(old) else pk): total for pk, total in match.player_totals.items()}
    winners = [new if int(pk) == old else pk for pk in match.winners]
    if (seating, totals, winners) != (match.seating, match.player_totals, match.winners):
        match.seating, match.player_totals, match.winners = seating, totals, winners
        match.save(update_fields=["seating", "player_totals", "winners"])
