"""A club night's pages (docs/club-night.md): starting one from the league page, the night page, and checking in
with the night's code.

- ``night_new`` (``leagues/<slug>/nights/new/``): the organiser chooses the game, its house rules (as a new game
  has them), how a round ends, the rounds and the movement.
- ``night_page`` (``nights/<id>/``): for the league's owners and scorekeepers the director's view (check-in,
  pairs, the round's tables, starting the next round, substitutes, moving or ending a table, ending the night,
  the check-in code); for a player (their account's player, or the one their phone checked in as) their guide
  card; for everyone who sees it the round's tables and the night's standings. Every action posts to the page
  (``action`` says which) and is redirected back to it; a refusal shows beside its field and changes nothing.
  The page answers with an ETag (``night_version`` and whose view it is), so its script asks again every few
  seconds and an unchanged night costs a 304.
- ``night_check_in`` (``nights/<id>/check-in/?code=``, the address in the night's QR): the phone keeps the code
  (a signed cookie for the night's pages only, the night pass), the player taps their name and is checked in,
  and the phone then shows their guide card. Renewing the code ends every pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import condition, require_GET, require_http_methods

from games import policy, selectors, services
from games.errors import IdempotencyMismatch, NotAllowed, NotFound
from games.forms.nights import (
    CheckInForm,
    CodeForm,
    NightEndForm,
    NightForm,
    PairForm,
    PlayerForm,
    RoundForm,
    SelfCheckInForm,
    SubstituteForm,
    TableEndForm,
    TableMoveForm,
)
from games.models import Game, League, Night, Player
from games.nights import NightView, TableView, night_by_code, night_for, night_version, night_view
from games.rules import RULESETS, ruleset_class, rulesets
from games.rules.explaining import number
from games.standings.nights import DRAWN, LOST, PLAYING, SAT_OUT, WON, NightLine
from games.versions import etag

from .common import submitted, visible_league_or_404
from .follow import POLL_SECONDS
from .qr import qr_response

# --- the night pass: what a phone that scanned the night's QR keeps ------------------------------------------

PASS_SALT = "games.night-pass"
# A night and the day after (to look at the standings again).
PASS_MAX_AGE = 2 * 24 * 3600


@dataclass(frozen=True)
class NightPass:
    """The night's code as the phone scanned it, and the player its holder said they are (None: not yet)."""

    night_id: int
    code: str
    player_id: int | None = None


def pass_cookie(night_id: int) -> str:
    return f"night_{night_id}"


def night_pass(request, night_id: int) -> NightPass | None:
    """The pass this request carries for the night, if any (forged, expired or garbled ones: none)."""
    value = request.get_signed_cookie(pass_cookie(night_id), default=None, salt=PASS_SALT, max_age=PASS_MAX_AGE)
    parts = value.split(":") if value else []
    if len(parts) != 3 or parts[0] != str(night_id) or not parts[1]:
        return None
    return NightPass(night_id=night_id, code=parts[1], player_id=int(parts[2]) if parts[2].isdigit() else None)


def keep_night_pass(response, held: NightPass) -> None:
    """Give the phone ``held`` to keep, for the night's pages only."""
    response.set_signed_cookie(
        pass_cookie(held.night_id), f"{held.night_id}:{held.code}:{held.player_id or ''}", salt=PASS_SALT,
        max_age=PASS_MAX_AGE, path=reverse("night", args=[held.night_id]), secure=settings.SESSION_COOKIE_SECURE,
        httponly=True, samesite="Lax")


def refused(request, *, renewed: bool):
    """A code (or what a phone kept of one) that does not open the night, said the same way whether or not the
    night exists."""
    return render(request, "nights/code_refused.html", {"renewed": renewed}, status=403 if renewed else 404)


# --- who is looking -----------------------------------------------------------------------------------------


@dataclass
class Viewer:
    """The night as one request may have it: ``runs`` (the director), ``by_code`` (they see it only by the code
    their phone holds), ``held`` (their valid night pass, if any)."""

    night: Night
    runs: bool = False
    by_code: bool = False
    held: NightPass | None = None

    def etag(self, request) -> str:
        player = self.held.player_id if self.held else None
        return etag("night", *night_version(self.night), request.user.pk, self.runs, self.by_code, player)


def viewer_of(request, night_id: int) -> Viewer | None:
    """Who the request is to the night: by their account, else by their phone's night pass; None: nobody."""
    held = night_pass(request, night_id)
    try:
        night = night_for(request.user, night_id)
    except NotFound:
        shared = night_by_code(night_id, held.code) if held else None
        return Viewer(night=shared, by_code=True, held=held) if shared is not None else None
    valid = held if held is not None and policy.night_code_matches(night, held.code) else None
    return Viewer(night=night, runs=policy.can_run_night(request.user, night.league), held=valid)


def not_seen(request, night_id: int):
    if night_pass(request, night_id) is not None:
        return refused(request, renewed=True)
    raise Http404("No such club night")


def card_player(request, viewer: Viewer) -> Player | None:
    """Whose guide card the page shows: the player the phone checked in as, else the account's own player in the
    league."""
    league = viewer.night.league
    if viewer.held is not None and viewer.held.player_id is not None:
        return league.players.filter(pk=viewer.held.player_id).first()
    if viewer.by_code or not request.user.is_authenticated:
        return None
    return league.players.filter(user=request.user).order_by("pk").first()


# --- starting a night ---------------------------------------------------------------------------------------


def new_night_url(league: League, game_type: str) -> str:
    return f"{reverse('night-new', args=[league.slug])}?{urlencode({'type': game_type})}"


@login_required
@require_http_methods(["GET", "POST"])
def night_new(request, slug: str):
    league = visible_league_or_404(request, slug)
    if not policy.can_run_night(request.user, league):
        raise PermissionDenied("Only the league's owners and scorekeepers can run its club nights.")
    game_type = request.GET.get("type", "")
    if game_type not in RULESETS:
        usual = selectors.usual_game_type(user=request.user, league=league)
        return redirect(new_night_url(league, usual if usual in RULESETS else rulesets()[0].game_type))
    kwargs = {"game_type": game_type, "defaults": dict((league.default_options or {}).get(game_type, {}))}
    status = 200
    if request.method == "POST":
        form = NightForm(request.POST, **kwargs)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            night = submitted(form, services.night_start, league=league, by=request.user, game_type=game_type,
                              options=form.options(), movement=data["movement"], round_end=data["round_end"],
                              hands=data["hands"] if data["round_end"] == Night.RoundEnd.HANDS else None,
                              minutes=data["minutes"] if data["round_end"] == Night.RoundEnd.TIME else None,
                              rounds=data["rounds"], name=data["name"],
                              idempotency_key=data["idempotency_key"] or None)
            if night is not None:
                return redirect("night", night_id=night.pk)
            status = form.status
            if isinstance(form.refusal, IdempotencyMismatch):
                form.errors["__all__"] = form.error_class([
                    "This page already started a night with other settings: open the league to find it."])
        form.focus_first_error()
    else:
        form = NightForm(**kwargs)
    return render(request, "nights/new.html", {
        "form": form, "league": league, "game_type": game_type, "game_type_name": ruleset_class(game_type).name,
        "games": [(other.game_type, other.name, new_night_url(league, other.game_type)) for other in rulesets()],
    }, status=status)


# --- the night page -----------------------------------------------------------------------------------------


def page_version(request, night_id: int) -> str | None:
    """The page's ETag; the viewer is kept on the request for the answer."""
    viewer = viewer_of(request, night_id)
    request.night_viewer = viewer
    return viewer.etag(request) if viewer is not None else None


@require_http_methods(["GET", "HEAD", "POST"])
def night_page(request, night_id: int):
    if request.method == "POST":
        return night_action(request, night_id)
    return night_shown(request, night_id)


@condition(etag_func=page_version)
def night_shown(request, night_id: int):
    viewer = request.night_viewer
    if viewer is None:
        return not_seen(request, night_id)
    return page(request, viewer)


def page(request, viewer: Viewer, *, bound: tuple[str, Any] | None = None, status: int = 200):
    view = night_view(viewer.night)
    version = viewer.etag(request)
    context = night_context(request, viewer, view, version)
    if viewer.runs:
        context.update(director_context(request, view, bound))
    response = render(request, "nights/night.html", context, status=status)
    # Forms with their own keys, and a code in the QR: never kept by a browser or a proxy.
    response["Cache-Control"] = "private, no-store"
    response["ETag"] = version
    return response


RESULT_WORDS = {WON: ("W", "won"), LOST: ("L", "lost"), DRAWN: ("D", "drawn"), PLAYING: ("…", "still playing"),
                SAT_OUT: ("out", "sat out"), "abandoned": ("ab", "abandoned")}


def wins_words(line: NightLine) -> str:
    """Wins, a draw counting half: ``2``, ``1½``, ``½``."""
    whole, half = divmod(line.won * 2 + line.drawn, 2)
    return f"{whole or ''}½" if half else str(whole)


def standings_rows(view: NightView) -> list[dict[str, Any]]:
    return [{
        "place": line.place, "names": view.names(line.who), "who": line.who,
        "rounds": [{"short": RESULT_WORDS[entry.result][0] if entry.result else "",
                    "words": (f"round {entry.round}: {RESULT_WORDS[entry.result][1]}"
                              + (f", {number(entry.points)}" if entry.points is not None
                                 and entry.result in (WON, LOST, DRAWN) else "")) if entry.result
                    else f"round {entry.round}: not there",
                    "result": entry.result or "absent"} for entry in line.rounds],
        "wins": wins_words(line), "won": line.won, "drawn": line.drawn, "lost": line.lost,
        "points": number(line.points), "sat_out": line.sat_out,
    } for line in view.standings]


def table_rows(table: TableView) -> dict[str, Any]:
    game = table.game
    seats = game.seats
    return {"number": table.number, "game": game, "progress": table.progress(), "playing": table.playing,
            "seats": [(seat, seats[seat].name) for seat in seats],
            "totals": [(side, number(int(game.totals.get(side, 0)))) for side in game.ruleset.sides],
            "substitutions": [f"{change.arriving.name} for {change.leaving.name} after {change.after_hands} "
                              f"hand{'s' if change.after_hands != 1 else ''}" for change in table.substitutions]}


def game_link(request, viewer: Viewer, game: Game) -> str:
    """Where a player opens their table's game: the table page for whoever keeps its score, the player's view
    for whoever sees the league, and the table's own code for a phone that has only the night's."""
    if viewer.runs:
        return reverse("table", args=[game.pk])
    if viewer.by_code:
        return reverse("join", args=[game.pk, game.table_token]) if game.table_token else reverse("follow",
                                                                                                 args=[game.pk])
    return reverse("follow", args=[game.pk])


def night_context(request, viewer: Viewer, view: NightView, version: str) -> dict[str, Any]:
    night = viewer.night
    player = card_player(request, viewer)
    here = {entrant.player_id for entrant in view.entrants}
    card = view.card(player) if player is not None and player.pk in here else None
    current = view.current
    return {
        "night": night, "view": view, "viewer": viewer, "league": night.league, "card": card,
        # A player not (or not yet) checked in: their card's place, filled by the page's next update once they are.
        "card_awaited": player if card is None else None,
        "card_link": game_link(request, viewer, card.table.game) if card and card.table else "",
        "tables": [table_rows(table) for table in current.tables] if current else [],
        "sitting_out": [player.name for player in current.sitting_out] if current else [],
        "late": [(round_.number, table_rows(table)) for round_ in view.rounds[:-1] for table in round_.playing],
        "standings": standings_rows(view), "pairs_night": night.movement == Night.Movement.PAIRS,
        "round_numbers": [round_.number for round_ in view.rounds],
        "poll_seconds": POLL_SECONDS, "version": version,
        "check_in_url": reverse("night-check-in", args=[night.pk]),
    }


def director_context(request, view: NightView, bound: tuple[str, Any] | None) -> dict[str, Any]:
    """The director's forms (the one just refused, bound, in its place) and what they offer."""
    night = view.night
    league_players = list(night.league.players.order_by("name", "id"))
    present = {entrant.player_id for entrant in view.present}
    seated = {pk: player for round_ in view.rounds for table in round_.playing
              for pk, player in ((player.pk, player) for player in table.game.seats.values())}
    unpaired = [entrant.player for entrant in view.present if view.partner_of(entrant) is None]
    current = view.current
    # Who has a seat in the round (playing, or done at their table): no substitute elsewhere in it.
    in_round = {player.pk for table in (current.tables if current else ()) for player in table.game.seats.values()}

    def form(action: str, make):
        return bound[1] if bound is not None and bound[0] == action else make()

    numbers = [table.number for table in current.tables] if current else []
    playing = [table.number for table in current.playing] if current else []
    pairs = [(number_, view.names(who)) for number_, who in (view.pairs or {}).items()
             if any(pk in present for pk in who)]
    return {
        "director": True,
        "not_here": [player for player in league_players if player.pk not in present],
        "here": [(entrant, view.partner_of(entrant)) for entrant in view.present],
        "left": [entrant for entrant in view.entrants if not entrant.present],
        "pairs": pairs, "unpaired": unpaired,
        "move_form": form("move", lambda: TableMoveForm(tables=numbers)),
        "end_table_form": form("end-table", lambda: TableEndForm(tables=playing)),
        "next_round": (current.number + 1) if current else 1,
        "can_start": not view.finished and (current is None or current.done),
        "late_now": playing,
        "check_in_form": form("check-in", CheckInForm),
        "check_out_form": form("check-out", PlayerForm),
        "pair_form": form("pair", lambda: PairForm(players=unpaired)),
        "round_form": form("round", RoundForm),
        "move_on_form": form("move-on", lambda: RoundForm(initial={"move_on": True}, prefix="m")),
        "substitute_form": form("substitute", lambda: SubstituteForm(
            seated=sorted(seated.values(), key=lambda player: player.name),
            others=[player for player in league_players if player.pk not in seated and player.pk not in in_round])),
        "end_form": form("end", NightEndForm),
        "code_form": form("code", CodeForm),
        "check_in_link": request.build_absolute_uri(
            f"{reverse('night-check-in', args=[night.pk])}?{urlencode({'code': night.code})}"),
    }


# --- the director's actions ---------------------------------------------------------------------------------


def check_in(request, night, form, view):
    data = form.cleaned_data
    entrant = submitted(form, services.night_check_in, night=night, by=request.user,
                        player=data["player"], name=data["name"] or None,
                        allow_similar=bool(data.get("allow_similar")))
    return entrant and f"{entrant.player.name} is checked in."


def check_out(request, night, form, view):
    entrant = submitted(form, services.night_check_out, night=night, by=request.user, player=form.cleaned_data["player"])
    return entrant and f"{entrant.player.name} has left the night."


def pair(request, night, form, view):
    data = form.cleaned_data
    entrant = submitted(form, services.night_pair, night=night, by=request.user, player=data["player"],
                        partner=data["partner"])
    return entrant and "They are partners now."


def round_start(request, night, form, view):
    round_ = submitted(form, services.night_round_start, night=night, by=request.user,
                       move_on=bool(form.cleaned_data.get("move_on")),
                       idempotency_key=form.cleaned_data["idempotency_key"] or None)
    return round_ and f"Round {round_.number} has started: {round_.tables.count()} tables."


def substitute(request, night, form, view):
    data = form.cleaned_data
    change = submitted(form, services.night_substitute, night=night, by=request.user, leaving=data["leaving"],
                       arriving=data["arriving"])
    return change and f"{change.arriving.name} takes {change.leaving.name}'s seat from the next hand."


def table_move(request, night, form, view):
    data = form.cleaned_data
    table = submitted(form, services.night_table_move, night=night, by=request.user, number=data["table"],
                      to=data["to"])
    return table and f"Table {data['table']} is table {table.number} now."


def table_end(request, night, form, view):
    data = form.cleaned_data
    game = submitted(form, services.night_table_end, night=night, by=request.user, number=data["table"],
                     abandon_game=bool(data.get("abandon")))
    return game and f"Table {data['table']}'s game is {game.get_status_display().lower()}."


def night_end(request, night, form, view):
    ended = submitted(form, services.night_end, night=night, by=request.user,
                      end_tables=bool(form.cleaned_data.get("end_tables")))
    return ended and "The night is over."


def code_renew(request, night, form, view):
    code = submitted(form, services.night_code_renew, night=night, by=request.user)
    return code and "The night has a new code: the old QR opens nothing now."


# action: (the form, made from the post and the night's view; what it does; the table it concerns, if any)
ACTIONS = {
    "check-in": (lambda post, view: CheckInForm(post), check_in),
    "check-out": (lambda post, view: PlayerForm(post), check_out),
    "pair": (lambda post, view: PairForm(post, players=[entrant.player for entrant in view.present
                                                         if view.partner_of(entrant) is None]), pair),
    "round": (lambda post, view: RoundForm(post), round_start),
    "move-on": (lambda post, view: RoundForm(post, prefix="m"), round_start),
    "substitute": (lambda post, view: SubstituteForm(post, seated=seated_players(view),
                                                     others=list(view.night.league.players.all())), substitute),
    "move": (lambda post, view: TableMoveForm(post, tables=table_numbers(view)), table_move),
    "end-table": (lambda post, view: TableEndForm(post, tables=table_numbers(view, playing=True)), table_end),
    "end": (lambda post, view: NightEndForm(post), night_end),
    "code": (lambda post, view: CodeForm(post), code_renew),
}


def table_numbers(view: NightView, *, playing: bool = False) -> list[int]:
    current = view.current
    if current is None:
        return []
    return [table.number for table in (current.playing if playing else current.tables)]


def seated_players(view: NightView) -> list[Player]:
    return [player for round_ in view.rounds for table in round_.playing for player in table.game.seats.values()]


def night_action(request, night_id: int):
    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in as one of the league's owners or scorekeepers to run its club night.")
    try:
        night = night_for(request.user, night_id, need="run")
    except NotFound:
        raise Http404("No such club night") from None
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        raise PermissionDenied("That is not something the night page does.")
    make, act = ACTIONS[action]
    view = night_view(night)
    form = make(request.POST, view)
    said = act(request, night, form, view) if form.is_valid() else None
    if said:
        messages.success(request, said)
        return redirect(reverse("night", args=[night.pk]) + ANCHORS.get(action, "#content"))
    bound = (action, form)
    return page(request, Viewer(night=night, runs=True), bound=bound, status=form.status)


# Where the page opens after an action: beside what it changed; else at the top of the page (the fragment is
# always given, or the browser would keep the one the form was sent from).
ANCHORS = {"check-in": "#check-in", "check-out": "#here", "pair": "#here", "substitute": "#tables",
           "move": "#tables", "end-table": "#tables", "code": "#code"}


@require_GET
def night_code_qr(request, night_id: int):
    """The night's check-in link as a QR code, for the director's phone to show or a sheet to print."""
    try:
        night = night_for(request.user, night_id, need="run")
    except NotFound:
        raise Http404("No such club night") from None
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    link = request.build_absolute_uri(f"{reverse('night-check-in', args=[night.pk])}?{urlencode({'code': night.code})}")
    return qr_response(link, title=f"Check in to {night.name}")


# --- checking in with the night's code ----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def night_check_in(request, night_id: int):
    code = request.GET.get("code")
    if code is not None:
        # The address in the QR: keep the code on the phone, and send it on without it in the address bar.
        night = night_by_code(night_id, code[:64])
        if night is None:
            return refused(request, renewed=False)
        response = redirect("night-check-in", night_id=night.pk)
        kept = night_pass(request, night.pk)
        keep_night_pass(response, NightPass(night_id=night.pk, code=code[:64],
                                            player_id=kept.player_id if kept and kept.code == code else None))
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "no-referrer"
        return response
    held = night_pass(request, night_id)
    night = night_by_code(night_id, held.code) if held else None
    if night is None or held is None:
        return refused(request, renewed=held is not None)
    view = night_view(night)
    present = {entrant.player_id for entrant in view.present}
    players = list(night.league.players.order_by("name", "id"))
    status = 200
    if request.method == "POST":
        form = SelfCheckInForm(request.POST)
        if form.is_valid():
            chosen = who_checks_in(form, players)
            if chosen is not None:
                if chosen.pk in present or submitted(form, services.night_check_in, night=night, by=request.user,
                                                     player=chosen.pk, code=held.code) is not None:
                    response = redirect("night", night_id=night.pk)
                    keep_night_pass(response, NightPass(night_id=night.pk, code=held.code, player_id=chosen.pk))
                    return response
        status = form.status
    else:
        form = SelfCheckInForm()
    return render(request, "nights/check_in.html", {
        "night": night, "view": view, "form": form, "present": present,
        "players": players, "finished": view.finished,
        "me": held.player_id if held else None,
    }, status=status)


def who_checks_in(form: SelfCheckInForm, players: list[Player]) -> Player | None:
    """The player tapped, or the one whose name was typed (as the league writes it, whatever the case and
    spacing); None with the form saying why."""
    data = form.cleaned_data
    if data["player"] is not None:
        chosen = next((player for player in players if player.pk == data["player"]), None)
        if chosen is None:
            form.add_error("name", "That name is not on the list: tap yours, or type it.")
        return chosen
    typed = data["name"].casefold()
    chosen = next((player for player in players if " ".join(player.name.split()).casefold() == typed), None)
    if chosen is None:
        form.add_error("name", f"There is no {data['name']} in the league yet: ask the organiser to add you.")
    return chosen
