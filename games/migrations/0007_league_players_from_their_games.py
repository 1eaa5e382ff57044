"""Every player who sat in a league's game becomes one of the league's players."""

from django.db import migrations


def fill_rosters(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Roster = apps.get_model("games", "League").players.through
    pairs = set()
    for seat in ("north_id", "east_id", "south_id", "west_id"):
        pairs.update(Game.objects.filter(league__isnull=False).values_list("league_id", seat).distinct())
    Roster.objects.bulk_create([Roster(league_id=league, player_id=player) for league, player in sorted(pairs)],
                               batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_club_accounts_invitations_rosters")]

    operations = [migrations.RunPython(fill_rosters, migrations.RunPython.noop)]
