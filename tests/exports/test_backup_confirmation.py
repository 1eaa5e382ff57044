"""A league whose hands the other side confirms is backed up with each hand's confirmation and its trail, and a
restore shows the same hands waiting, the same disputes and the same provisional results (docs/league-backup.md,
"Confirmation"). A backup written before confirmation was kept restores with every hand as confirmed."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Hand, HandCheck, League, Player, Standing
from games.services import (
    Confirmer,
    hand_confirm,
    hand_correct,
    hand_dispute,
    hand_keep,
    hand_record,
    league_update,
    provisional_release,
)
from games.services.restore import ImportRefused, league_restore
from games.services.transfer import league_export
from games.standings.services import league_standings_update

pytestmark = pytest.mark.django_db

HAND = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 4, "E": 1, "S": 5, "W": 3}}
# EW say East took one more trick and North one fewer.
EAST_SAYS = {"bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "tricks": {"N": 3, "E": 2, "S": 5, "W": 3}}
WINNING = {"bids": {"N": 6, "E": 1, "S": 6, "W": 0}, "tricks": {"N": 6, "E": 1, "S": 6, "W": 0}}


def handed(owner, seat: str) -> Confirmer:
    """The scorekeeper's phone, handed across to the player in ``seat``."""
    return Confirmer(user=owner, handed_seat=seat)


@pytest.fixture
def confirmed_league(league, owner, seats, start_game):
    """Thursday Club, where the other side confirms each hand (a window of 24 hours); Ann (N) keeps score.

    - G1, finished two days ago with its hand unconfirmed: its window has passed, so it counts;
    - G2, finished, its hand still waiting for EW: provisional;
    - G3, in progress: hand 1 confirmed by East, 2 disputed by West (still open), 3 disputed and kept with a
      note, 4 disputed and corrected to the disputed version, 5 waiting;
    - G4, finished, its hand confirmed: in the standings.
    """
    league_update(league=league, by=owner, confirmation="opponents", provisional_hours=24)
    Player.objects.filter(pk=seats["N"]).update(user=owner)
    released = start_game("spades", target=100)
    hand_record(game=released, record=WINNING, by=owner)
    two_days_ago = timezone.now() - timedelta(days=2)
    Game.objects.filter(pk=released.pk).update(started_at=two_days_ago - timedelta(hours=1),
                                                finished_at=two_days_ago)
    assert provisional_release() == [released.pk]

    waiting = start_game("spades", target=100)
    hand_record(game=waiting, record=WINNING, by=owner)

    playing = start_game("spades")
    for _ in range(5):
        hand_record(game=playing, record=HAND, by=owner)
    hand_confirm(game=playing, number=1, confirmer=handed(owner, "E"))
    hand_dispute(game=playing, number=2, confirmer=handed(owner, "W"), record=EAST_SAYS, note="East took the last")
    hand_dispute(game=playing, number=3, confirmer=handed(owner, "E"), record=EAST_SAYS)
    hand_keep(game=playing, number=3, by=owner, note="we counted the tricks again")
    hand_dispute(game=playing, number=4, confirmer=handed(owner, "E"), record=EAST_SAYS)
    hand_correct(game=playing, number=4, record=EAST_SAYS, by=owner, reason="as East says")

    counted = start_game("spades", target=100)
    hand_record(game=counted, record=WINNING, by=owner)
    hand_confirm(game=counted, number=1, confirmer=handed(owner, "W"))
    return league


def games_of(league: League) -> list[Game]:
    return list(Game.objects.filter(league=league).order_by("started_at", "id"))


def states(league: League) -> list[list[str]]:
    return [list(Hand.objects.filter(game=game).order_by("number").values_list("check_state", flat=True))
            for game in games_of(league)]


def trails(league: League) -> list[list[tuple]]:
    return [list(HandCheck.objects.filter(game=game).order_by("number", "at", "id").values_list(
        "number", "action", "seat", "via", "record", "note")) for game in games_of(league)]


def played_by_ann(league: League) -> int:
    league_standings_update(league_id=league.pk)
    return Standing.objects.filter(league=league, partner__isnull=True, player__name="Ann").values_list(
        "played", flat=True).first() or 0


def restored(document, owner) -> League:
    return league_restore(document=copy.deepcopy(document), by=owner, name="Thursday Club again").league


def test_a_restored_league_shows_the_same_hands_waiting_disputed_kept_and_confirmed(confirmed_league, owner):
    document = league_export(league=confirmed_league)
    playing = document["games"][2]
    assert playing["confirmation"] == "opponents"
    assert [hand["confirmation"] for hand in playing["hands"]] == ["confirmed", "disputed", "kept", "confirmed",
                                                                   "waiting"]
    assert playing["hands"][1]["checks"] == [{"action": "disputed", "seat": "W", "via": "handed",
                                              "at": playing["hands"][1]["checks"][0]["at"], "record": EAST_SAYS,
                                              "note": "East took the last"}]

    copy_of = restored(document, owner)

    assert copy_of.confirmation == "opponents" and copy_of.provisional_hours == 24
    assert states(copy_of) == states(confirmed_league)
    assert trails(copy_of) == trails(confirmed_league)
    assert [(game.unconfirmed, game.provisional) for game in games_of(copy_of)] == [
        (game.unconfirmed, game.provisional) for game in games_of(confirmed_league)] == [
        (1, False), (1, True), (2, False), (0, False)]
    # Backed up again, it is the same document.
    again = league_export(league=copy_of)
    assert again["games"] == document["games"]
    assert {key: again["league"][key] for key in ("confirmation", "provisional_hours")} == {
        "confirmation": "opponents", "provisional_hours": 24}


def test_a_restored_provisional_game_stays_out_of_the_standings_until_confirmed(confirmed_league, owner):
    copy_of = restored(league_export(league=confirmed_league), owner)
    # G1 and G4 count; G2 waits for EW.
    assert played_by_ann(copy_of) == played_by_ann(confirmed_league) == 2

    waiting = games_of(copy_of)[1]
    hand_confirm(game=waiting, number=1, confirmer=Confirmer(user=owner, handed_seat="E"))

    assert not Game.objects.get(pk=waiting.pk).provisional and played_by_ann(copy_of) == 3


def test_a_restored_dispute_is_settled_as_the_original_would_be(confirmed_league, owner):
    playing = games_of(restored(league_export(league=confirmed_league), owner))[2]

    # The scorekeeper corrects hand 2 to West's version: confirmed by West.
    hand_correct(game=playing, number=2, record=EAST_SAYS, by=owner, reason="as West says")
    # A confirmation of the kept hand is answered with the keeping; hand 5 is confirmed once.
    first = hand_confirm(game=playing, number=5, confirmer=handed(owner, "E"))
    again = hand_confirm(game=playing, number=5, confirmer=handed(owner, "W"))

    assert first.pk == again.pk
    assert list(Hand.objects.filter(game=playing).order_by("number").values_list("check_state", flat=True)) == [
        "confirmed", "confirmed", "kept", "confirmed", "confirmed"]
    assert HandCheck.objects.filter(game=playing, number=2).latest("at").via == "correction"


def test_a_backup_written_before_confirmation_restores_with_every_hand_confirmed(confirmed_league, owner):
    document = league_export(league=confirmed_league)
    for key in ("confirmation", "provisional_hours"):
        del document["league"][key]
    for game in document["games"]:
        del game["confirmation"]
        for hand in game["hands"]:
            for key in ("confirmation", "entered_side", "checks"):
                hand.pop(key, None)

    copy_of = restored(document, owner)

    assert copy_of.confirmation == "off" and copy_of.provisional_hours == 48
    assert {game.confirmation for game in games_of(copy_of)} == {"off"}
    assert not HandCheck.objects.filter(game__league=copy_of).exists()
    assert played_by_ann(copy_of) == 3


def test_hands_of_a_confirmed_game_that_say_nothing_of_it_are_confirmed(confirmed_league, owner):
    document = league_export(league=confirmed_league)
    for hand in document["games"][1]["hands"]:
        for key in ("confirmation", "entered_side", "checks"):
            hand.pop(key, None)

    first = games_of(restored(document, owner))[1]

    assert first.confirmation == "opponents" and (first.unconfirmed, first.provisional) == (0, False)
    assert list(Hand.objects.filter(game=first).values_list("check_state", flat=True)) == ["confirmed"]


@pytest.mark.parametrize(("change", "problem"), [
    (lambda game: game["hands"][1].update(confirmation="kept"),
     "game G3: hand 2: it is kept, but the last of its checks is \"disputed\""),
    (lambda game: game["hands"][1]["checks"][0].update(record={"bids": {"N": 3}}),
     "game G3: hand 2: check 1: the disputed record:"),
    (lambda game: game["hands"][0]["checks"][0].update(seat="S"),
     "game G3: hand 1: check 1: S is of NS, the side that entered the hand"),
    (lambda game: game["hands"][0].update(entered_side="NE"),
     "game G3: hand 1: entered_side is \"NE\", not one of the game's sides"),
    (lambda game: game.update(confirmation="off"),
     "game G3: hand 1: it has a checks/confirmation/entered_side, but the game's hands are not confirmed"),
    (lambda game: game["hands"][2]["checks"].pop(),
     "game G3: hand 3: it is kept, but the last of its checks is \"disputed\""),
])
def test_a_confirmation_that_does_not_hold_together_is_refused_and_nothing_is_stored(confirmed_league, owner,
                                                                                     change, problem):
    document = league_export(league=confirmed_league)
    change(document["games"][2])
    leagues = League.objects.count()

    with pytest.raises(ImportRefused) as refused:
        restored(document, owner)

    assert any(found.startswith(problem) for found in refused.value.problems), refused.value.problems
    assert League.objects.count() == leagues
