"""League standings, player ratings and player figures.

- ``results``: the facts they are computed from (finished games and Trumps matches) as values;
- ``tables``, ``ratings``, ``figures``: the arithmetic, pure functions over those values;
- ``services``: the one writer, recomputing a league's stored rows in one locked transaction;
- ``selectors``: the read side (``league_standings``, ``player_ratings``, ``player_figures``).

Tasks in ``games/tasks.py`` call the services; see docs/standings.md.
"""
