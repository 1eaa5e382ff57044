"""A player belongs to one league: a player on the roster of several leagues, or seated in games of several,
is split into one player per league (the next migration's unique index keeps it so).

Starting a game once seated any player the caller could see and added that player to the caller's league,
so a player of one league could be taken into another. No game is lost: the player stays with the league
that holds it first (one whose owners or scorekeepers created it, else the roster it joined first), and each
other league gets a copy of the player (same name) with its games, matches, invitations and claims moved to
the copy. A link to an account is kept where it is legitimate: the account is a member of that league and
has no other player there. Each league given a copy has its standings worked out again (its watermarks are
dropped, so the next catch-up recomputes them).
"""

from django.db import migrations
from django.utils import timezone

SEATS = ("north", "east", "south", "west")
WRITERS = ("owner", "scorekeeper")


def players_to_repair(Game, Roster) -> list[int]:
    """The players in more than one league (by roster or by the games they sat in), or seated in a league's
    game but on no roster: a few queries over the whole database, so that the repair visits only them."""
    leagues: dict[int, set[int]] = {}
    for player_id, league_id in Roster.objects.values_list("player_id", "league_id").iterator():
        leagues.setdefault(player_id, set()).add(league_id)
    on_roster = set(leagues)
    for seat in SEATS:
        seated = Game.objects.filter(league__isnull=False).order_by().values_list(seat, "league_id").distinct()
        for player_id, league_id in seated.iterator():
            leagues.setdefault(player_id, set()).add(league_id)
    return sorted(pk for pk, ids in leagues.items() if len(ids) > 1 or pk not in on_roster)


def leagues_of(player, Game, Roster) -> dict[int, int]:
    """{league id: the order it came in}: rosters by when they were joined, then leagues of games only."""
    order: dict[int, int] = {}
    for row in Roster.objects.filter(player_id=player.pk).order_by("id"):
        order.setdefault(row.league_id, len(order))
    for seat in SEATS:
        for league_id in (Game.objects.filter(league__isnull=False, **{seat: player.pk}).order_by()
                          .values_list("league_id", flat=True).distinct()):
            order.setdefault(league_id, 10**9 + league_id)
    return order


def home_league(player, order, Membership) -> int:
    created_in = set(Membership.objects.filter(user_id=player.created_by_id, league_id__in=list(order),
                                               role__in=WRITERS).values_list("league_id", flat=True))
    return min(order, key=lambda league_id: (league_id not in created_in, order[league_id]))


def legitimate_link(user_id, league_id, keep_pk, Membership, Roster, Player) -> bool:
    if user_id is None or not Membership.objects.filter(user_id=user_id, league_id=league_id).exists():
        return False
    others = Roster.objects.filter(league_id=league_id).exclude(player_id=keep_pk).values("player_id")
    return not Player.objects.filter(pk__in=others, user_id=user_id).exists()


def move_to(player, copy, league_id, apps, now) -> None:
    Game, Match = apps.get_model("games", "Game"), apps.get_model("games", "Match")
    Invitation, PlayerClaim = apps.get_model("games", "Invitation"), apps.get_model("games", "PlayerClaim")
    for seat in SEATS:
        Game.objects.filter(league_id=league_id, **{seat: player.pk}).update(**{seat: copy.pk}, updated_at=now)
    for match in Match.objects.filter(league_id=league_id):
        seating = {seat: copy.pk if int(pk) == player.pk else pk for seat, pk in match.seating.items()}
        totals = {(str(copy.pk) if key == str(player.pk) else key): total for key, total in match.player_totals.items()}
        winners = [copy.pk if int(pk) == player.pk else pk for pk in match.winners]
        if (seating, totals, winners) != (match.seating, match.player_totals, match.winners):
            match.seating, match.player_totals, match.winners = seating, totals, winners
            match.save(update_fields=["seating", "player_totals", "winners"])
    Invitation.objects.filter(league_id=league_id, player_id=player.pk).update(player_id=copy.pk)
    PlayerClaim.objects.filter(league_id=league_id, player_id=player.pk).update(player_id=copy.pk)


def one_league_per_player(apps, schema_editor):
    Player, League = apps.get_model("games", "Player"), apps.get_model("games", "League")
    Game, Membership = apps.get_model("games", "Game"), apps.get_model("games", "Membership")
    Roster = League.players.through
    now = timezone.now()
    restale: set[int] = set()
    for player_id in players_to_repair(Game, Roster):
        player = Player.objects.get(pk=player_id)
        order = leagues_of(player, Game, Roster)
        if len(order) < 2:
            if order and not Roster.objects.filter(player_id=player.pk).exists():
                Roster.objects.create(league_id=next(iter(order)), player_id=player.pk)
            continue
        home = home_league(player, order, Membership)
        for league_id in sorted(order, key=lambda league_id: order[league_id]):
            if league_id == home:
                continue
            copy = Player.objects.create(name=player.name, created_by_id=player.created_by_id,
                                         created_at=player.created_at)
            if legitimate_link(player.user_id, league_id, player.pk, Membership, Roster, Player):
                copy.user_id = player.user_id
                copy.save(update_fields=["user"])
            move_to(player, copy, league_id, apps, now)
            Roster.objects.filter(league_id=league_id, player_id=player.pk).delete()
            Roster.objects.create(league_id=league_id, player_id=copy.pk)
            restale.add(league_id)
        Roster.objects.filter(player_id=player.pk).exclude(league_id=home).delete()
        if not Roster.objects.filter(league_id=home, player_id=player.pk).exists():
            Roster.objects.create(league_id=home, player_id=player.pk)
        if player.user_id is not None and not legitimate_link(player.user_id, home, player.pk, Membership, Roster,
                                                              Player):
            player.user_id = None
            player.save(update_fields=["user"])
    # Their standings name the players who moved: worked out again by the next catch-up.
    apps.get_model("games", "StandingsWatermark").objects.filter(league_id__in=restale).delete()
    apps.get_model("games", "SeasonWatermark").objects.filter(season__league_id__in=restale).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0014_invitations_addressed_by_name_and_the_accounts_they_make")]

    operations = [
        migrations.RunPython(one_league_per_player, migrations.RunPython.noop),
    ]
