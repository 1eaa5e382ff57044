"""Starting a game: choose game and league, then seats (picked or added), house rules, first dealer."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from games.models import Game, Match, Player
from games.services import game_start, league_create

pytestmark = pytest.mark.django_db

URL = reverse("new-game")


def seat_data(players, **extra):
    return {**{f"seat_{seat}": str(p.pk) for seat, p in zip("NESW", players, strict=True)}, **extra}


def spades_options(**overrides):
    options = {"opt_first_dealer": "N", "opt_target": "500", "opt_nil_value": "50", "opt_blind_nil_value": "100",
               "opt_failed_nil_tricks": "count", "opt_bag_mode": "cycle", "opt_bag_limit": "10",
               "opt_bag_penalty": "100", "opt_blind_nil_allowed": "true", "opt_blind_nil_deficit": "100",
               "opt_allow_double_nil": "false", "opt_lose_at": "", "opt_partnerships": "true"}
    options.update(overrides)
    return options


def test_step_one_offers_games_and_my_leagues(owner_client, league):
    page = owner_client.get(URL).content.decode()
    assert "Thieving Stink" in page and league.name in page and "Casual game" in page


def test_a_league_preselected_from_its_page_shows_no_error_before_a_choice(owner_client, league):
    response = owner_client.get(reverse("new-game") + f"?league={league.slug}")
    assert response.status_code == 200 and not response.context["form"].errors
    assert "This field is required" not in response.content.decode()
    chosen = owner_client.get(reverse("new-game") + f"?league={league.slug}&type=")
    assert chosen.context["form"].errors  # sent without a game: now it says so


def test_anonymous_is_sent_to_sign_in(client):
    assert reverse("login") in client.get(URL)["Location"]


def test_options_are_prefilled_from_the_league_and_explained(owner_client, owner):
    league = league_create(name="House", by=owner, default_options={"spades": {"target": 300}})
    response = owner_client.get(URL + f"?type=spades&league={league.slug}", follow=True)
    form = response.context["form"]
    assert form["opt_target"].value() == 300
    assert "Points a side needs to win" in response.content.decode()


def test_start_a_league_game(owner_client, league, players):
    response = owner_client.post(URL + f"?type=spades&league={league.slug}",
                                 seat_data(players, **spades_options(opt_target="200", opt_first_dealer="E")))
    game = Game.objects.get()
    assert response["Location"] == reverse("table", args=[game.pk])
    assert game.league == league and game.options["target"] == 200 and game.first_dealer == "E"
    assert game.options["lose_at"] is None and game.options["partnerships"] is True


def test_quick_add_a_new_player(owner_client, players):
    data = seat_data(players, **spades_options())
    data["seat_W"], data["new_W"] = "", "Eve"
    assert owner_client.post(URL + "?type=spades", data).status_code == 302
    assert Game.objects.get().west.name == "Eve"


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"seat_W": ""}, "seat_W", "Choose who sits West"),
    ({"new_W": "Eve"}, "new_W", "not both"),
    ("dup", "seat_S", "already has a seat"),
    ({"seat_N": "999999"}, "seat_N", "Select a valid choice"),
    ({"opt_target": "0"}, "opt_target", "greater than or equal to 1"),
    ({"opt_bag_mode": "lots"}, "opt_bag_mode", "Select a valid choice"),
])
def test_errors_show_beside_the_field(owner_client, players, change, field, message):
    data = seat_data(players, **spades_options())
    if change == "dup":
        data["seat_S"] = data["seat_N"]
    else:
        data.update(change)
    response = owner_client.post(URL + "?type=spades", data)
    assert response.status_code == 400
    assert any(message in error for error in response.context["form"].errors[field])
    assert not Game.objects.exists()


def test_a_refused_game_leaves_no_new_player_behind(owner_client, players, monkeypatch):
    from games.errors import InvalidInput
    def refuse(**kwargs):
        raise InvalidInput("a player can sit in only one seat", field="seats")

    monkeypatch.setattr("games.services.tables.game_start", refuse)
    data = seat_data(players, **spades_options())
    data["seat_W"], data["new_W"] = "", "Eve"
    response = owner_client.post(URL + "?type=spades", data)
    assert response.status_code == 400 and "only one seat" in response.content.decode()
    assert not Player.objects.filter(name="Eve").exists()


def test_member_may_not_start_a_league_game(signed_in, member, league):
    assert signed_in(member).get(URL + f"?type=spades&league={league.slug}").status_code == 403


def test_private_league_is_404_for_a_stranger(signed_in, stranger, owner):
    private = league_create(name="Secret", by=owner, is_public=False)
    assert signed_in(stranger).get(URL + f"?type=spades&league={private.slug}").status_code == 404


def test_trumps_offers_a_three_game_match(owner_client, players):
    data = seat_data(players, opt_first_dealer="N", opt_target="50", opt_double_scope="all",
                     opt_match_tiebreak="none", match="on")
    response = owner_client.post(URL + "?type=trumps", data)
    match = Match.objects.get()
    game = match.games.get()
    assert response["Location"] == reverse("table", args=[game.pk]) and game.match_game_number == 1


def test_rematch_prefills_seats_and_options(owner_client, owner, seats, players):
    old = game_start(game_type="spades", seats=seats, by=owner, options={"target": 250, "allow_double_nil": True})
    form = owner_client.get(URL + f"?type=spades&rematch={old.pk}", follow=True).context["form"]
    assert form["seat_E"].value() == str(players[1].pk)
    assert form["opt_target"].value() == 250 and form["opt_allow_double_nil"].value() == "true"


# --- the start form's key belongs to the entry: its address ---------------------------------------------

def entry_of(response) -> str:
    return parse_qs(urlsplit(response["Location"]).query)["entry"][0]


def test_a_visit_is_given_an_entry_and_the_entry_is_the_forms_key(owner_client, league):
    first = owner_client.get(URL + f"?type=spades&league={league.slug}&rematch=7")
    assert first.status_code == 302
    entry = entry_of(first)
    assert parse_qs(urlsplit(first["Location"]).query)["rematch"] == ["7"]
    # Shown again (Back, a reload, the page cache): the same key, however often.
    for _ in range(2):
        again = owner_client.get(first["Location"])
        assert again.status_code == 200 and again.context["form"]["idempotency_key"].value() == entry
    # A new visit is a new entry.
    assert entry_of(owner_client.get(URL + f"?type=spades&league={league.slug}")) != entry


def test_a_made_up_entry_is_replaced(owner_client):
    response = owner_client.get(URL + "?type=spades&entry=../../etc")
    assert response.status_code == 302 and len(entry_of(response)) == 32


def test_the_same_start_sent_twice_makes_one_game(owner_client, league, players):
    page = owner_client.get(URL + f"?type=spades&league={league.slug}", follow=True)
    key = page.context["form"]["idempotency_key"].value()
    address = page.redirect_chain[-1][0]
    data = seat_data(players, **spades_options(), idempotency_key=key)
    first, second = owner_client.post(address, data), owner_client.post(address, data)
    game = Game.objects.get()
    assert first["Location"] == second["Location"] == reverse("table", args=[game.pk])


def test_back_on_a_form_that_started_a_game_says_so(owner_client, league, players):
    page = owner_client.get(URL + f"?type=spades&league={league.slug}", follow=True)
    address = page.redirect_chain[-1][0]
    key = page.context["form"]["idempotency_key"].value()
    assert "already started" not in page.content.decode()
    owner_client.post(address, seat_data(players, **spades_options(), idempotency_key=key))
    game = Game.objects.get()
    back = owner_client.get(address).content.decode()
    assert "This page already started" in back and reverse("table", args=[game.pk]) in back
    # Other seats sent with that key start nothing, and say why.
    other = seat_data(list(reversed(players)), **spades_options(), idempotency_key=key)
    refused = owner_client.post(address, other)
    assert refused.status_code == 409 and Game.objects.count() == 1
    assert "This page already started a game, with other seats or rules" in refused.content.decode()
    assert "Start another game" in refused.content.decode()


# --- where a new game most likely belongs --------------------------------------------------------------

def test_new_game_goes_to_the_game_last_played_in_the_league_last_played_in(owner_client, owner, league, seats):
    league_create(name="Another Club", by=owner)
    game_start(game_type="smudge", seats=seats, by=owner, league=league)
    response = owner_client.get(URL)
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query["type"] == ["smudge"] and query["league"] == [league.slug] and query["entry"]


def test_a_league_page_new_game_goes_to_its_usual_game(signed_in, scorekeeper, owner, league, seats):
    # The scorekeeper never played here: the league's last game says what it plays.
    game_start(game_type="trumps", seats=seats, by=owner, league=league)
    response = signed_in(scorekeeper).get(URL + f"?league={league.slug}")
    assert parse_qs(urlsplit(response["Location"]).query)["type"] == ["trumps"]


def test_with_nothing_played_the_only_league_is_preselected(owner_client, league):
    response = owner_client.get(URL)
    assert response.status_code == 200 and response.context["form"]["league"].value() == league.slug


def test_asked_to_choose_the_choice_is_shown(owner_client, owner, league, seats):
    game_start(game_type="smudge", seats=seats, by=owner, league=league)
    response = owner_client.get(URL + f"?choose=1&league={league.slug}")
    assert response.status_code == 200 and response.context["form"]["league"].value() == league.slug
    assert 'name="type" value="thieving_stink"' in response.content.decode()


def test_a_casual_last_game_preselects_a_casual_game(owner_client, owner, league, seats):
    game_start(game_type="spades", seats=seats, by=owner, league=league)
    game_start(game_type="trumps", seats=seats, by=owner)
    query = parse_qs(urlsplit(owner_client.get(URL)["Location"]).query)
    assert query["type"] == ["trumps"] and "league" not in query


# --- the house rules in one line ------------------------------------------------------------------------

def test_the_house_rules_are_one_folded_line_with_what_differs(owner_client, owner):
    league = league_create(name="House", by=owner, default_options={"spades": {"target": 300, "nil_value": 100}})
    response = owner_client.get(URL + f"?type=spades&league={league.slug}", follow=True)
    assert response.context["form"].rules_line() == "to 300 · North deals first · Nil value: 100"
    page = response.content.decode()
    assert '<details class="rules-line">' in page  # folded until asked for


def test_a_refused_house_rule_unfolds_the_rules(owner_client, players):
    response = owner_client.post(URL + "?type=spades", seat_data(players, **spades_options(opt_target="0")))
    assert response.status_code == 400 and '<details class="rules-line" open>' in response.content.decode()
