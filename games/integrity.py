"""Checks that what is cached equals what the stored hands say."""

from __future__ import annotations

from collections.abc import Iterator

from games.models import Game
from games.rules import RulesError, get_ruleset
from games.services.hands import plain


def game_mismatches(game: Game) -> list[str]:
    """Every way the game's cached totals, status or hands differ from a fresh replay of its hands."""
    hands = sorted(game.hands.all(), key=lambda hand: hand.number)
    problems = []
    if [hand.number for hand in hands] != list(range(1, len(hands) + 1)):
        problems.append("hand numbers are not 1, 2, 3, ... without gaps")
    try:
        state = get_ruleset(game.game_type, game.options, rules_version=game.rules_version).replay(
            [hand.record for hand in hands])
    except RulesError as error:
        return [*problems, f"the stored hands no longer replay: {error}"]
    for hand, scored in zip(hands, state.hands, strict=True):
        for name in ("delta", "totals", "extras"):
            if getattr(hand, name) != plain(getattr(scored, name)):
                problems.append(f"hand {hand.number}: stored {name} {getattr(hand, name)} "
                                f"but a replay gives {plain(getattr(scored, name))}")
        if hand.dealer != scored.dealer:
            problems.append(f"hand {hand.number}: stored dealer {hand.dealer} but it was {scored.dealer}'s deal")
    if game.totals != plain(state.totals):
        problems.append(f"totals {game.totals} but a replay gives {plain(state.totals)}")
    if (game.extras or {}) != plain(state.extras):
        problems.append(f"extras {game.extras} but a replay gives {plain(state.extras)}")
    if game.hand_count != len(hands):
        problems.append(f"hand count {game.hand_count} but {len(hands)} hands are stored")
    if game.status != Game.Status.ABANDONED:
        expected = Game.Status.FINISHED if state.finished else Game.Status.IN_PROGRESS
        if game.status != expected or (game.winner or None) != state.winner:
            problems.append(f"status {game.status}/{game.winner or '-'} but a replay gives "
                            f"{expected}/{state.winner or '-'}")
    return problems


def verify_all(games=None) -> Iterator[tuple[Game, list[str]]]:
    games = games if games is not None else Game.objects.all()
    for game in games.prefetch_related("hands").order_by("id").iterator(chunk_size=200):
        yield game, game_mismatches(game)
