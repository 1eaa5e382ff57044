"""Every number in words through the API: each hand's ``explanation`` and the game's ``needs``, from the
game's rules, with the players named from the seats; wherever hands and games are read."""

from __future__ import annotations

import pytest

from games.services import game_abandon, game_start, hand_correct, hand_record

pytestmark = pytest.mark.django_db


def spades_hand(bids, tricks):
    return {"bids": dict(zip("NESW", bids, strict=True)), "tricks": dict(zip("NESW", tricks, strict=True))}


# NS bid 4 and take 6, EW bid 7 and take 7: NS 42 and 2 bags. Then NS bid 4 and take 5, EW bid 8 and take 8.
FIRST = spades_hand((2, 3, 2, 4), (3, 3, 3, 4))
SECOND = spades_hand((2, 4, 2, 4), (3, 4, 2, 4))
SPADES_SECOND = "NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 3 in all; EW bid 8 and took 8: 80"


@pytest.fixture
def spades_game(start_game, owner):
    game = start_game("spades")
    hand_record(game=game, record=FIRST, by=owner)
    hand_record(game=game, record=SECOND, by=owner)
    return game


def test_each_hand_of_a_game_says_its_score_in_words(as_owner, spades_game):
    hands = as_owner.get(f"/api/v1/games/{spades_game.pk}/").json()["hands"]
    assert hands[1]["explanation"]["text"] == SPADES_SECOND
    ns, ew = hands[1]["explanation"]["parts"]
    assert ns == {"side": "NS", "points": 41, "text": "NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 3 in all",
                  "terms": [{"rule": "contract", "points": 40, "words": "the bid of 4"},
                            {"rule": "overtricks", "points": 1, "words": "1 overtrick"}]}
    assert (ew["side"], ew["points"], [term["rule"] for term in ew["terms"]]) == ("EW", 80, ["contract"])
    assert hands[1]["delta"] == {"NS": ns["points"], "EW": ew["points"]}


def test_the_game_says_what_each_side_needs(as_owner, spades_game):
    body = as_owner.get(f"/api/v1/games/{spades_game.pk}/").json()
    assert body["needs"]["text"] == ("NS need 417 to reach 500; EW need 350 to reach 500; "
                                     "NS are 7 bags from a penalty")
    assert body["needs"]["parts"][2] == {"side": "NS", "what": "bags", "amount": 7,
                                         "text": "NS are 7 bags from a penalty"}
    listed = as_owner.get("/api/v1/games/").json()["results"]
    assert [game["needs"]["text"] for game in listed if game["id"] == spades_game.pk] == [body["needs"]["text"]]


def test_smudge_names_the_bidder_from_the_seats(as_owner, start_game, owner):
    game = start_game("smudge")
    hand_record(game=game, record={"bidder": "N", "bid": 3, "high": "NS", "low": "EW", "jack": "NS",
                                   "game": "EW", "all_tricks": False}, by=owner)
    body = as_owner.get(f"/api/v1/games/{game.pk}/").json()
    assert body["hands"][0]["explanation"]["text"] == (
        "NS bid 3 (Ann): High to NS, Low to EW, Jack to NS, Game to EW; NS made 2 of 3: set back 3; EW score 2")
    assert body["needs"]["text"] == ("NS need 24 more and must make a bid to win; "
                                     "EW need 19 more and must make a bid to win")


def test_a_game_over_needs_nothing(as_owner, start_game, owner, spades_game):
    short = start_game("thieving_stink", target=80)
    hand_record(game=short, record={"face_cards": {"NS": 9, "EW": 5}, "trump_stack": {"holder": "W", "size": 6}},
                by=owner)
    game_abandon(game=spades_game, by=owner)
    for game in (short, spades_game):
        assert as_owner.get(f"/api/v1/games/{game.pk}/").json()["needs"] == {"text": "", "parts": []}


def test_the_hand_list_one_hand_and_the_feed_carry_the_same_words(as_owner, spades_game):
    listed = as_owner.get(f"/api/v1/games/{spades_game.pk}/hands/").json()
    one = as_owner.get(f"/api/v1/games/{spades_game.pk}/hands/2/").json()
    feed = as_owner.get(f"/api/v1/hands/?game={spades_game.pk}").json()["results"]
    assert listed[1]["explanation"]["text"] == one["explanation"]["text"] == SPADES_SECOND
    assert [hand["explanation"]["text"] for hand in feed if hand["number"] == 2] == [SPADES_SECOND]


def test_a_correction_reads_anew(as_owner, spades_game, owner):
    hand_correct(game=spades_game, number=1, record=spades_hand((2, 3, 2, 4), (2, 3, 2, 6)), by=owner,
                 reason="tricks swapped")
    hands = as_owner.get(f"/api/v1/games/{spades_game.pk}/").json()["hands"]
    assert hands[0]["explanation"]["text"] == ("NS bid 4 and took 4: 40; EW bid 7 and took 9: 70 + 2 overtricks "
                                               "= 72; 2 bags, 2 in all")
    assert hands[1]["explanation"]["text"] == ("NS bid 4 and took 5: 40 + 1 overtrick = 41; 1 bag, 1 in all; "
                                               "EW bid 8 and took 8: 80")


def test_players_alone_are_named_in_the_needs(as_owner, seats, owner, league):
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"partnerships": False})
    hand_record(game=game, record=spades_hand(("nil", 4, 3, 5), (0, 5, 3, 5)), by=owner)
    body = as_owner.get(f"/api/v1/games/{game.pk}/").json()
    assert body["hands"][0]["explanation"]["text"].startswith("Ann bid nil and took 0: 50 for the nil; Ben bid 4 ")
    assert body["needs"]["text"].startswith("Ann needs 450 to reach 500; Ben needs 459 to reach 500")


@pytest.mark.parametrize("games", [1, 4])
def test_the_feed_reads_the_games_once_a_page(client_for, member, start_game, owner, games,
                                              django_assert_max_num_queries):
    for _ in range(games):
        game = start_game("spades")
        hand_record(game=game, record=FIRST, by=owner)
        hand_record(game=game, record=SECOND, by=owner)
    client = client_for(member)
    client.get("/api/v1/games/")  # warm up the token for a fair count
    # Token lookup, the count, the page of hands (with who entered them), their games (with the players).
    with django_assert_max_num_queries(4):
        feed = client.get("/api/v1/hands/").json()["results"]
    assert [hand["explanation"]["text"] for hand in feed if hand["number"] == 2] == [SPADES_SECOND] * games


def test_the_hand_list_reads_the_game_once(client_for, member, spades_game, django_assert_max_num_queries):
    client = client_for(member)
    client.get("/api/v1/games/")
    # Token lookup, the game (with its league and players), its hands.
    with django_assert_max_num_queries(3):
        assert len(client.get(f"/api/v1/games/{spades_game.pk}/hands/").json()) == 2


def test_the_schema_describes_the_words(anonymous):
    schemas = anonymous.get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    assert "explanation" in schemas["HandFeedOut"]["properties"]
    assert "needs" in schemas["GameDetailOut"]["properties"]
    assert schemas["HandOut"]["properties"]["explanation"]["allOf"] == [{"$ref": "#/components/schemas/ExplanationOut"}]
    assert schemas["GameOut"]["properties"]["needs"]["allOf"] == [{"$ref": "#/components/schemas/NeedsOut"}]
    assert set(schemas["ExplanationOut"]["required"]) == {"text", "parts"}
    assert set(schemas["ExplanationPartOut"]["required"]) == {"side", "points", "text", "terms"}
    assert set(schemas["TermOut"]["required"]) == {"rule", "points", "words"}
    assert set(schemas["NeedOut"]["required"]) == {"side", "what", "amount", "text"}
