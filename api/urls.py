from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api.views import (
    accounts,
    auth,
    backups,
    games,
    hands,
    invitations,
    league_players,
    leagues,
    matches,
    players,
    seasons,
    webhooks,
)

# Swagger UI (from drf-spectacular-sidecar) loads its start-up script from the page's own address (the
# "split" view) and our page has no inline script or style (templates/api/docs.html), but Swagger UI
# draws its icons from data: URIs: the one page whose Content-Security-Policy allows those.
api_docs = csp_update({"img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"))

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", api_docs, name="api-docs"),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/signup/", accounts.SignupView.as_view(), name="api-signup"),
    path("me/", accounts.MeView.as_view(), name="api-me"),
    path("invitations/", invitations.MyInvitations.as_view(), name="api-my-invitations"),
    path("invitations/<str:token>/", invitations.InvitationView.as_view(), name="api-invitation"),
    path("invitations/<str:token>/accept/", invitations.InvitationAccept.as_view(), name="api-invitation-accept"),
    path("invitations/<str:token>/decline/", invitations.InvitationDecline.as_view(), name="api-invitation-decline"),
    path("players/", players.PlayerList.as_view(), name="api-players"),
    path("players/<int:pk>/", players.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:pk>/ratings/", players.PlayerRatings.as_view(), name="api-player-ratings"),
    path("players/<int:pk>/records/", players.PlayerRecords.as_view(), name="api-player-records"),
    path("leagues/", leagues.LeagueList.as_view(), name="api-leagues"),
    path("leagues/<int:pk>/", leagues.LeagueDetail.as_view(), name="api-league"),
    path("leagues/import/", backups.LeagueImport.as_view(), name="api-league-import"),
    path("leagues/<int:pk>/standings/", leagues.LeagueStandings.as_view(), name="api-standings"),
    path("leagues/<int:pk>/seasons/", seasons.SeasonList.as_view(), name="api-seasons"),
    path("leagues/<int:pk>/seasons/<int:season_id>/", seasons.SeasonDetail.as_view(), name="api-season"),
    path("leagues/<int:pk>/backup/", backups.LeagueBackup.as_view(), name="api-league-backup"),
    path("leagues/<int:pk>/webhooks/", webhooks.WebhookList.as_view(), name="api-webhooks"),
    path("leagues/<int:pk>/webhooks/<int:webhook_id>/", webhooks.WebhookDetail.as_view(), name="api-webhook"),
    path("leagues/<int:pk>/webhooks/<int:webhook_id>/test/", webhooks.WebhookTest.as_view(),
         name="api-webhook-test"),
    path("leagues/<int:pk>/webhooks/<int:webhook_id>/deliveries/", webhooks.WebhookDeliveries.as_view(),
         name="api-webhook-deliveries"),
    path("leagues/<int:pk>/members/", leagues.MemberList.as_view(), name="api-members"),
    path("leagues/<int:pk>/members/<str:username>/", leagues.MemberDetail.as_view(), name="api-member"),
    path("leagues/<int:pk>/invitations/", invitations.LeagueInvitations.as_view(), name="api-league-invitations"),
    path("leagues/<int:pk>/invitations/<int:invitation_id>/", invitations.LeagueInvitation.as_view(),
         name="api-league-invitation"),
    path("leagues/<int:pk>/players/", league_players.LeaguePlayers.as_view(), name="api-league-players"),
    path("leagues/<int:pk>/players/merge/", league_players.LeaguePlayerMerge.as_view(), name="api-league-merge"),
    path("leagues/<int:pk>/players/<int:player_id>/link/", league_players.LeaguePlayerLink.as_view(),
         name="api-league-player-link"),
    path("leagues/<int:pk>/players/<int:player_id>/claim/", league_players.LeaguePlayerClaim.as_view(),
         name="api-league-player-claim"),
    path("leagues/<int:pk>/claims/", league_players.LeagueClaims.as_view(), name="api-league-claims"),
    path("leagues/<int:pk>/claims/<int:claim_id>/", league_players.LeagueClaim.as_view(), name="api-league-claim"),
    path("games/", games.GameList.as_view(), name="api-games"),
    path("games/<int:pk>/", games.GameDetail.as_view(), name="api-game"),
    path("games/<int:pk>/abandon/", games.GameAbandon.as_view(), name="api-game-abandon"),
    path("games/<int:pk>/scorekeepers/", games.GameScorekeepers.as_view(), name="api-scorekeepers"),
    path("games/<int:pk>/scorekeepers/<str:username>/", games.GameScorekeeper.as_view(), name="api-scorekeeper"),
    path("games/<int:pk>/hands/", hands.HandList.as_view(), name="api-hands"),
    path("games/<int:pk>/hands/<int:number>/", hands.HandDetail.as_view(), name="api-hand"),
    path("games/<int:pk>/hands/<int:number>/revisions/", hands.HandRevisions.as_view(), name="api-hand-revisions"),
    path("hands/", hands.HandFeed.as_view(), name="api-hand-feed"),
    path("matches/", matches.MatchList.as_view(), name="api-matches"),
    path("matches/<int:pk>/", matches.MatchDetail.as_view(), name="api-match"),
]
