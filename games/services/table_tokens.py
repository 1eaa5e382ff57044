"""A game's table token: the secret in the code the scorekeeper shows the table, which lets other phones
follow the game (``policy.game_access``). Only the game's scorekeepers see it and renew it."""

from __future__ import annotations

from games import policy
from games.errors import NotAllowed
from games.models import Game
from games.models.play import new_table_token


def table_token_issue(*, game: Game, by) -> str:
    """The game's table token, for its code on the scorekeeper's page; made now for a game that has none
    (one written by a bulk load). Two pages asking at once get the same one."""
    if not policy.can_score_game(by, game):
        raise NotAllowed("only the game's scorekeepers can show its table code")
    if not game.table_token:
        Game.objects.filter(pk=game.pk, table_token="").update(table_token=new_table_token())
        game.table_token = Game.objects.values_list("table_token", flat=True).get(pk=game.pk)
    return game.table_token


def table_token_renew(*, game: Game, by) -> str:
    """A new table token for the game: the old one opens nothing from now on (every phone that joined with
    it must scan the new code). The game's row is otherwise untouched: nothing it shows has changed."""
    if not policy.can_score_game(by, game):
        raise NotAllowed("only the game's scorekeepers can renew its table code")
    game.table_token = new_table_token()
    Game.objects.filter(pk=game.pk).update(table_token=game.table_token)
    return game.table_token
