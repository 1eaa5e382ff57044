import pytest
from django.urls import reverse
from games.services import hand_record

@pytest.mark.django_db
def test_smoke(owner_client, start_game, league, players):
    for gt in ("spades","smudge","trumps","thieving_stink"):
        g = start_game(gt)
        r = owner_client.get(reverse("table", args=[g.pk])); assert r.status_code == 200, r.content[:3000]
        r = owner_client.get(reverse("live", args=[g.pk])); assert r.status_code == 200
        r = owner_client.get(reverse("new-game")+f"?type={gt}&league={league.slug}"); assert r.status_code == 200
    g = start_game("spades")
    hand_record(game=g, record={"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}}, by=league.created_by)
    for url in [reverse("home"), reverse("table", args=[g.pk]), reverse("live-board", args=[g.pk]), reverse("league", args=[league.slug]),
                reverse("player", args=[players[0].pk]), reverse("hand-correct", args=[g.pk, 1]), reverse("hand-undo", args=[g.pk]), reverse("new-game"), reverse("login")]:
        r = owner_client.get(url); assert r.status_code == 200, (url, r.content[:3000])
