"""League standings, player ratings and player figures.

- ``results``: the facts they are computed from (finished games and Trumps matches) as values;
- ``tables``, ``ratings``, ``figures``: the arithmetic, pure functions over those values;
- ``services``: the one writer, recomputing a league's stored rows in one locked transaction;
- ``selectors``: the read side (``league_standings``, ``player_ratings``, ``player_figures``);
- ``records`` and ``head_to_head``: a player's partner and opponent records, the arithmetic (pure) and the
  read (counted from the finished games a viewer may see, not stored).

Tasks in ``games/tasks.py`` call the services; see docs/standings.md.
"""
