"""Who may do what: one policy, asked by every door."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games import policy
from games.errors import InvalidInput, NotAllowed
from games.models import Game
from games.services import game_start, league_create, league_set_member, player_create, table_token_renew
from tests.conftest import join, table_in


@pytest.fixture
def private_league(owner):
    return league_create(name="Back Room", by=owner, is_public=False)


@pytest.mark.parametrize(
    ("who", "view", "follow", "score", "manage"),
    [
        ("owner", True, True, True, True),
        ("scorekeeper", True, True, True, False),
        ("member", True, True, False, False),
        ("stranger", False, False, False, False),
        ("anonymous", False, False, False, False),
        # Someone who scanned the table's code: that game, followed from the seat they chose, and nothing else.
        ("code holder", False, True, False, False),
        ("holder of a renewed code", False, False, False, False),
    ],
)
def test_the_permission_matrix_in_a_private_league(private_league, owner, make_user, who, view, follow, score,
                                                   manage):
    seats = {seat: player_create(name=name, by=owner, league=private_league).pk
             for seat, name in zip("NESW", ("Ann", "Ben", "Cat", "Dan"), strict=True)}
    game = game_start(game_type="spades", seats=seats, by=owner, league=private_league)
    held = None
    if who in ("anonymous", "code holder", "holder of a renewed code"):
        user = AnonymousUser()
        if who != "anonymous":
            held = policy.TablePass(game_id=game.pk, token=game.table_token, seat="E")
        if who == "holder of a renewed code":
            table_token_renew(game=game, by=owner)
    elif who == "owner":
        user = owner
    else:
        user = make_user(who)
        if who in ("scorekeeper", "member"):
            join(private_league, user, who, owner)
    access = policy.game_access(user, game, held)
    assert policy.can_view_league(user, private_league) is view
    assert policy.can_view_game(user, game) is view
    assert access.view is follow
    assert access.score is score and policy.can_score_game(user, game) is score
    assert policy.can_manage_league(user, private_league) is manage
    assert (game in policy.visible_games(user)) is view
    assert access.seat == ("E" if who == "code holder" else None)
    assert access.pass_refused is (who == "holder of a renewed code")


def test_a_table_pass_opens_only_its_own_game_and_only_with_the_token_as_it_is(private_league, owner):
    seats = table_in(private_league, owner)
    game = game_start(game_type="spades", seats=seats, by=owner, league=private_league)
    other = game_start(game_type="spades", seats=seats, by=owner, league=private_league)
    anonymous = AnonymousUser()
    assert not policy.game_access(anonymous, other, policy.TablePass(other.pk, game.table_token)).view
    assert not policy.game_access(anonymous, other, policy.TablePass(game.pk, game.table_token)).view
    assert not policy.game_access(anonymous, game, policy.TablePass(game.pk, game.table_token.upper())).view
    assert not policy.game_access(anonymous, game, policy.TablePass(game.pk, "")).view
    assert policy.game_access(anonymous, game, policy.TablePass(game.pk, game.table_token)).view
    Game.objects.filter(pk=game.pk).update(table_token="")
    game.refresh_from_db()
    assert not policy.game_access(anonymous, game, policy.TablePass(game.pk, "")).view


def test_a_linked_player_sits_in_their_own_seat_whatever_a_pass_says(league, owner, seats, players, member):
    from games.services import player_link

    player_link(league=league, player=players[2], user=member, by=owner)
    game = game_start(game_type="spades", seats=seats, by=owner, league=league)
    game = Game.objects.select_related("north", "east", "south", "west").get(pk=game.pk)
    access = policy.game_access(member, game, policy.TablePass(game.pk, game.table_token, seat="N"))
    assert (access.seat, access.seated, access.may_choose_seat) == ("S", True, False)


def test_public_leagues_are_read_by_anyone_and_casual_games_by_their_table(league, owner, seats, players,
                                                                            make_user):
    from games.services import game_set_public, player_link
    from games.services.invitations import invitation_accept, invitation_create

    casual = game_start(game_type="spades", seats=seats, by=owner)
    stranger, ann = make_user("stranger"), make_user("ann")
    assert policy.can_view_league(AnonymousUser(), league)
    assert not policy.can_view_game(AnonymousUser(), casual) and not policy.can_view_game(stranger, casual)
    # Ann joins the league and is linked to her player: she sees the casual game she sat in.
    invitation_accept(token=invitation_create(league=league, role="member", by=owner, invitee=ann).token, by=ann)
    player_link(league=league, player=players[0], user=ann, by=owner)
    casual = Game.objects.select_related("north", "east", "south", "west").get(pk=casual.pk)
    assert policy.can_view_game(ann, casual) and casual in policy.visible_games(ann)
    assert not policy.can_score_game(ann, casual)
    game_set_public(game=casual, public=True, by=owner)
    assert policy.can_view_game(AnonymousUser(), casual) and policy.can_view_game(stranger, casual)


def test_members_cannot_start_league_games_but_anyone_signed_in_can_start_a_casual_one(league, member, seats):
    with pytest.raises(NotAllowed):
        game_start(game_type="spades", seats=seats, by=member, league=league)
    assert game_start(game_type="spades", seats=seats, by=member).created_by == member


def test_only_owners_manage_members_and_a_league_keeps_an_owner(league, owner, scorekeeper, stranger):
    with pytest.raises(NotAllowed):
        league_set_member(league=league, user=stranger, role="member", by=scorekeeper)
    with pytest.raises(InvalidInput, match="at least one owner"):
        league_set_member(league=league, user=owner, role="member", by=owner)


def test_league_house_rules_fill_a_new_games_options(owner):
    league = league_create(name="Short Games", by=owner, default_options={"spades": {"target": 300}})
    seats = {seat: player_create(name=name, by=owner, league=league).pk
             for seat, name in zip("NESW", ("Ann", "Ben", "Cat", "Dan"), strict=True)}
    game = game_start(game_type="spades", seats=seats, by=owner, league=league, options={"nil_value": 100})
    assert (game.options["target"], game.options["nil_value"], game.options["bag_limit"]) == (300, 100, 10)


def test_bad_house_rules_are_refused_naming_the_option(owner):
    with pytest.raises(InvalidInput) as refused:
        league_create(name="Typo", by=owner, default_options={"spades": {"targte": 300}})
    assert refused.value.field == "default_options.spades"


def test_bad_seats_are_refused(owner, players):
    ann, ben, cat, _ = players
    with pytest.raises(InvalidInput, match="only one seat"):
        game_start(game_type="spades", seats={"N": ann.pk, "E": ben.pk, "S": cat.pk, "W": ann.pk}, by=owner)
    with pytest.raises(InvalidInput, match="there is no player 999999"):
        game_start(game_type="spades", seats={"N": ann.pk, "E": ben.pk, "S": cat.pk, "W": 999999}, by=owner)
    with pytest.raises(InvalidInput, match="N, E, S and W"):
        game_start(game_type="spades", seats={"N": ann.pk}, by=owner)


def test_the_creator_of_a_casual_game_chooses_its_scorekeepers(owner, stranger, member, seats):
    from games.services import game_set_scorekeeper

    casual = game_start(game_type="spades", seats=seats, by=stranger)
    with pytest.raises(NotAllowed):
        game_set_scorekeeper(game=casual, user=member, allowed=True, by=member)
    game_set_scorekeeper(game=casual, user=member, allowed=True, by=stranger)
    assert policy.can_score_game(member, casual)
    game_set_scorekeeper(game=casual, user=member, allowed=False, by=stranger)
    assert not policy.can_score_game(member, casual)
