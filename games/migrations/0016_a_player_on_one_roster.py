"""No player is on two leagues' rosters: a unique index on the roster's player.

A migration of its own, after the repair that makes it hold: on PostgreSQL the repair's roster rows leave
foreign-key checks pending until their transaction commits, and no index can be made on the table before.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0015_players_belong_to_one_league")]

    operations = [
        migrations.RunSQL("CREATE UNIQUE INDEX one_league_per_player ON games_league_players (player_id)",
                          "DROP INDEX one_league_per_player"),
    ]
