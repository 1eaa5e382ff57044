"""A synthetic league for the benchmarks: finished games of every type with real hands, inserted in bulk.

The hands are real: a pool of games is played through the rules engine, then dealt out to random tables
of the league's players (some cutthroat Spades, Trumps matches of three games). Needs Django set up.
"""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection

from games.models import ChangedResult, Game, Hand, League, Match, Player
from games.rules import RULES_VERSION, RULESETS, InvalidHand, get_ruleset, ruleset_class
from games.services.hands import plain

SEATS = ("N", "E", "S", "W")
# A finished game played through the engine: options, final totals, winner, and each hand's (record, dealer,
# delta, totals, extras, details).
Template = tuple[dict[str, Any], dict[str, Any], Any, list[tuple[Any, ...]]]
# Games follow one another 20 to 60 minutes apart, a match's last game and the match one second apart.
MOST_MINUTES_APART = 61


# --- a pool of games played through the engine ------------------------------------------------------


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def spades_record(rng):
    bids = {seat: rng.choice([0, 1, 2, 3, 3, 4, 4, 5]) for seat in SEATS}
    return {"bids": bids, "tricks": dict(zip(SEATS, split(rng, 13, 4), strict=True))}


def smudge_record(rng):
    side = rng.choice(["NS", "EW"])
    points = {name: rng.choice(["NS", "EW", side]) for name in ("high", "low", "jack", "game")}
    return {"bidder": rng.choice(SEATS), "bid": rng.choice([2, 2, 3, 3, 4, 5]), **points, "all_tricks": False}


def trumps_record(rng):
    doubled = rng.random() < 0.15
    return {"declarer": rng.choice(SEATS), "bid": rng.randint(5, 10),
            "trump": rng.choice(["clubs", "diamonds", "hearts", "spades", "notrump"]),
            "doubled": doubled, "redoubled": doubled and rng.random() < 0.2, "tricks": rng.randint(4, 13)}


def stink_record(rng):
    size = rng.randint(4, 10)
    won = rng.randint(16 - size, 16)
    ns = rng.randint(0, won)
    return {"face_cards": {"NS": ns, "EW": won - ns}, "trump_stack": {"holder": rng.choice(SEATS), "size": size}}


TEMPLATES = {
    "spades": (spades_record, {"target": 300}),
    "spades_cutthroat": (spades_record, {"target": 200, "partnerships": False, "blind_nil_allowed": False}),
    "smudge": (smudge_record, {}),
    "trumps": (trumps_record, {}),
    "thieving_stink": (stink_record, {}),
}


def play_template(rng: random.Random, kind: str) -> Template | None:
    """One finished game of ``kind``: (options, totals, winner, [(record, dealer, delta, totals, extras, details)])."""
    make, options = TEMPLATES[kind]
    ruleset = get_ruleset("spades" if kind == "spades_cutthroat" else kind, options)
    state = ruleset.initial_state()
    while not state.finished and state.hands_played < 200:
        try:
            state = ruleset.play(state, make(rng))
        except InvalidHand:
            continue
    if not state.finished:
        return None
    hands = [(plain(h.record), h.dealer, plain(h.delta), plain(h.totals), plain(h.extras), plain(h.details))
             for h in state.hands]
    return dict(ruleset.options), plain(state.totals), state.winner, hands


def template_pool(rng: random.Random, per_kind: int = 40) -> dict[str, list[Template]]:
    pool = {}
    for kind in TEMPLATES:
        games: list[Template] = []
        while len(games) < per_kind:
            game = play_template(rng, kind)
            if game is not None:
                games.append(game)
        pool[kind] = games
    return pool


# --- the league ----------------------------------------------------------------------------------------


def build_league(*, players: int, games: int, seed: int = 7) -> tuple[League, list[Player]]:
    """A league of ``players`` players and ``games`` finished games (Trumps partly in matches), with their hands."""
    rng = random.Random(seed)
    pool = template_pool(rng)
    league = League.objects.create(name=f"Bench league {int(time.time())}", slug=f"bench-{time.time_ns()}")
    people = Player.objects.bulk_create(Player(name=f"Bench player {n}") for n in range(players))
    league.players.add(*people)  # the league's roster: its players are seen where the league is
    kinds = ["spades"] * 30 + ["spades_cutthroat"] * 10 + ["smudge"] * 25 + ["thieving_stink"] * 20 + ["trumps"] * 15
    # (kind, seating, template, finished at, the match's index and the game's number in it, if in one)
    game_rows: list[tuple[str, dict[str, int], Template, datetime, int | None, int | None]] = []
    match_specs = []  # (match index, seating, first dealer, [template per game])
    # Played in the past, all of it: a game finished again today (a correction's undo and the hand recorded again)
    # comes after every other one, as in a league whose games were played over the years before.
    at = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=MOST_MINUTES_APART * (games + 1))
    made = 0
    while made < games:
        kind = rng.choice(kinds)
        in_matches = ruleset_class(kind).match_games if kind in RULESETS else 0
        if in_matches and games - made >= in_matches and rng.random() < 0.6:
            table = rng.sample(people, 4)
            seating = {seat: player.pk for seat, player in zip(SEATS, table, strict=True)}
            rules = get_ruleset(kind, {})
            seatings = rules.match_seatings(seating)
            games_of_match = [rng.choice(pool[kind]) for _ in range(in_matches)]
            result = rules.match_result(seatings, [template[1] for template in games_of_match])
            match = Match(game_type=kind, league=league, seating=seating, options=games_of_match[0][0], status="finished",
                          player_totals={str(p): t for p, t in result.player_totals.items()},
                          winners=list(result.winners), started_at=at)
            match_specs.append(match)
            for number, (template, game_seating) in enumerate(zip(games_of_match, seatings, strict=True), 1):
                at += timedelta(minutes=rng.randint(20, 60))
                game_rows.append((kind, game_seating, template, at, len(match_specs) - 1, number))
                made += 1
            match.finished_at = at + timedelta(seconds=1)
            continue
        at += timedelta(minutes=rng.randint(20, 60))
        table = rng.sample(people, 4)
        game_rows.append((kind, {seat: p.pk for seat, p in zip(SEATS, table, strict=True)},
                          rng.choice(pool[kind]), at, None, None))
        made += 1
    matches = Match.objects.bulk_create(match_specs, batch_size=2000)
    if connection.vendor == "postgresql":
        copy_games(league, game_rows, [match.pk for match in matches])
    else:
        create_games(league, game_rows, matches)
    return league, people


def copy_games(league: League, game_rows: list[tuple[Any, ...]], match_ids: list[int]) -> None:
    """The games and their hands through COPY, each hand's JSON written out once per template (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence('games_game', 'id')) FROM generate_series(1, %s)",
                       [len(game_rows)])
        ids = [row[0] for row in cursor.fetchall()]
    texts: dict[int, tuple[str, str, list[tuple[str, ...]]]] = {}  # id(template) -> its JSON, as text

    def text(template: Template) -> tuple[str, str, list[tuple[str, ...]]]:
        found = texts.get(id(template))
        if found is None:
            options, totals, _, hands = template
            found = texts[id(template)] = (json.dumps(options), json.dumps(totals), [
                (json.dumps(record), dealer, json.dumps(delta), json.dumps(hand_totals), json.dumps(extras),
                 json.dumps(details)) for record, dealer, delta, hand_totals, extras, details in hands])
        return found

    game_fields = ("id", "game_type", "league_id", "north_id", "east_id", "south_id", "west_id", "options",
                   "rules_version", "status", "winner", "totals", "extras", "hand_count", "match_id",
                   "match_game_number", "is_public", "started_at", "finished_at", "updated_at")
    hand_fields = ("game_id", "number", "record", "dealer", "delta", "totals", "extras", "details", "entered_at",
                   "updated_at")
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY games_game ({', '.join(game_fields)}) FROM STDIN") as copy:
        for game_id, (kind, seating, template, finished_at, match_index, number) in zip(ids, game_rows, strict=True):
            options, totals, hands = text(template)
            copy.write_row((game_id, "spades" if kind == "spades_cutthroat" else kind, league.pk, seating["N"],
                            seating["E"], seating["S"], seating["W"], options, RULES_VERSION, Game.Status.FINISHED,
                            template[2], totals, "{}", len(hands),
                            match_ids[match_index] if match_index is not None else None, number, False,
                            finished_at - timedelta(minutes=15), finished_at, finished_at))
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY games_hand ({', '.join(hand_fields)}) FROM STDIN") as copy:
        for game_id, (_, _, template, finished_at, _, _) in zip(ids, game_rows, strict=True):
            for number, hand in enumerate(text(template)[2], 1):
                copy.write_row((game_id, number, *hand, finished_at, finished_at))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")
        cursor.execute("ANALYZE games_hand")


def create_games(league: League, game_rows: list[tuple[Any, ...]], matches: list[Match]) -> None:
    """The games and their hands through the ORM (any database)."""
    objects, hand_rows = [], []
    for kind, seating, (options, totals, winner, hands), finished_at, match_index, number in game_rows:
        objects.append(Game(
            game_type="spades" if kind == "spades_cutthroat" else kind, league=league,
            north_id=seating["N"], east_id=seating["E"], south_id=seating["S"], west_id=seating["W"],
            options=options, rules_version=RULES_VERSION, status=Game.Status.FINISHED, winner=winner,
            totals=totals, hand_count=len(hands), match=matches[match_index] if match_index is not None else None,
            match_game_number=number, started_at=finished_at - timedelta(minutes=15), finished_at=finished_at,
        ))
    created = Game.objects.bulk_create(objects, batch_size=2000)
    for game, (_, _, (_, _, _, hands), finished_at, _, _) in zip(created, game_rows, strict=True):
        for number, (record, dealer, delta, totals, extras, details) in enumerate(hands, 1):
            hand_rows.append(Hand(game=game, number=number, record=record, dealer=dealer, delta=delta,
                                  totals=totals, extras=extras, details=details, entered_at=finished_at))
        if len(hand_rows) >= 20000:
            Hand.objects.bulk_create(hand_rows, batch_size=5000)
            hand_rows = []
    Hand.objects.bulk_create(hand_rows, batch_size=5000)


def finish_one_more_game(league: League, people: list[Player], seed: int = 99) -> Game:
    """One more finished Spades game with its hands, as if just recorded."""
    rng = random.Random(seed)
    played = None
    while played is None:  # a game of random hands that has not finished after 200 is left, and another played
        played = play_template(rng, "spades")
    options, totals, winner, hands = played
    table = rng.sample(people, 4)
    # After every game of the league, and not before today.
    last = Game.objects.filter(league=league).order_by("-finished_at").values_list("finished_at", flat=True).first()
    finished_at = max(filter(None, (last and last + timedelta(minutes=30), datetime.now(UTC))))
    game = Game.objects.create(
        game_type="spades", league=league, north=table[0], east=table[1], south=table[2], west=table[3],
        options=options, rules_version=RULES_VERSION, status=Game.Status.FINISHED, winner=winner, totals=totals,
        hand_count=len(hands), finished_at=finished_at,
    )
    Hand.objects.bulk_create(
        Hand(game=game, number=n, record=r, dealer=d, delta=dl, totals=t, extras=e, details=dt)
        for n, (r, d, dl, t, e, dt) in enumerate(hands, 1)
    )
    ChangedResult.objects.create(league=league, game_id=game.pk)  # as the service that finishes a game notes it
    return game
