from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/new/", views.new_game, name="new-game"),
    path("games/<int:game_id>/", views.table, name="table"),
    path("games/<int:game_id>/scorekeepers/", views.game_scorekeepers, name="game-scorekeepers"),
    path("games/<int:game_id>/hands/", views.hand_record, name="hand-record"),
    path("games/<int:game_id>/hands/<int:number>/correct/", views.hand_correct, name="hand-correct"),
    path("games/<int:game_id>/undo/", views.hand_undo, name="hand-undo"),
    path("games/<int:game_id>/abandon/", views.game_abandon, name="game-abandon"),
    path("games/<int:game_id>/live/", views.live, name="live"),
    path("games/<int:game_id>/live/board/", views.live_board, name="live-board"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("leagues/<slug:slug>/members/", views.league_member, name="league-member"),
    path("leagues/<slug:slug>/standings/<str:game_type>/<str:table>/", views.league_table, name="league-table"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
]
