"""A player's games, their own history of each, orders from the page, and the reveal after the end."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response

from app.games.models import Game, Player
from app.games.records import history
from app.present.base import Ply
from app.present.diagram import MARK_MEANINGS, Figure, drawn_legend
from app.present.registry import presenter_for
from app.present.rules_pages import rules_html
from app.present.svg import DRAWN_LEGEND, grid_svg, mark_key
from app.present.words import RESULT_WORDS, SIDE_TITLE, Names
from app.rules.base import SIDES, other
from app.rules.registry import VARIANTS, get_variant
from app.service import Service
from app.tokens import ReplyToken
from app.web.auth import signed_in_player_id
from app.web.keyed import KeyRefused, open_by_key
from app.web.numbers import number_from
from app.web.svg_style import without_inline_style

blueprint = Blueprint("pages", __name__)


@blueprint.app_template_filter("sentence_end")
def sentence_end(name: str) -> str:
    """A name closing a sentence, with one full stop: "Ann L." stays "Ann L.", "Bob" becomes "Bob."."""
    return name if name.endswith(".") else f"{name}."


def server():
    return current_app.extensions["mirrorpost"]


def own_game(db_session, game_id: int) -> tuple[Game, Player, str]:
    """The game and the signed-in player's side in it; 404 for anyone else, whatever the id."""
    player_id = signed_in_player_id()
    game = db_session.get(Game, game_id)
    if player_id is None or game is None or player_id not in (game.white_id, game.black_id):
        abort(404)
    player = db_session.get(Player, player_id)
    return game, player, game.side_of(player)


def viewed_game(db_session, game_id: int) -> tuple[Game, Player, str, str | None]:
    """The game, the player whose view is shown, their side, and the history key if a link opened it (read
    only) rather than the session."""
    key = request.args.get("key")
    if key:
        opened = open_by_key(db_session, game_id, key)
        return opened.game, opened.player, opened.game.side_of(opened.player), key
    return *own_game(db_session, game_id), None


def deadline_words(game: Game) -> str:
    """By when the player must move; a game whose clock waits for the player's daily digest has none yet."""
    if game.deadline is None:
        return "your time starts with your next daily digest"
    return "by " + game.deadline.strftime("%a %d %b %Y, %H:%M UTC")


def turn_text(game: Game, side: str) -> tuple[str, bool]:
    """A few words on whose turn it is, and whether the player may order now."""
    if game.status == "invited":
        accepted = getattr(game, f"{side}_accepted")
        return ("waiting for your opponent to accept" if accepted else "accept or decline the invitation",
                not accepted)
    if game.status == "declined":
        return "declined", False
    if game.status == "over":
        return f"over: {RESULT_WORDS.get(game.result or '', game.result)}", False
    variant = get_variant(game.variant)
    state = variant.from_json(game.state)
    if game.status == "setup":
        waiting = variant.needs_setup(state, side)
        return ("send your setup" if waiting else "waiting for your opponent's setup"), waiting
    orderer = variant.orderer(state)
    if orderer == side:
        return "your move", True
    return f"{SIDE_TITLE[orderer]} to move" if orderer else "", False


def pictures(figure: Figure) -> list[list[tuple[str, str]]]:
    """Each row of a figure's grids as (caption, SVG) pairs."""
    return [[(grid.caption, without_inline_style(grid_svg(grid))) for grid in row] for row in figure.layout]


def marks_key(figure: Figure) -> list[tuple[Markup, str]]:
    """What each kind of mark on the figure's boards means, with a square drawn as they draw it."""
    return [(Markup(without_inline_style(mark_key(mark))), MARK_MEANINGS[mark]) for mark in figure.marks()]


@blueprint.get("/rules")
def rules_index() -> str:
    """Every game the referee plays, with a line on each and its rules."""
    games = [{"name": name, "title": variant.title, "summary": presenter_for(name).summary()}
             for name, variant in sorted(VARIANTS.items())]
    return render_template("web/rules_index.html", title="How to play", games=games)


@blueprint.get("/rules/<name>")
def rules(name: str) -> str:
    """A variant's rules for players, from its presenter package's rules page."""
    if name not in VARIANTS:
        abort(404)
    return render_template("web/rules.html", title=f"How to play {VARIANTS[name].title}",
                           page=Markup(rules_html(name)))


@blueprint.get("/games")
def games() -> str | Response:
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("signin.login_form"))
    with server().db.sessions() as db_session:
        player = db_session.get(Player, player_id)
        if player is None:
            return redirect(url_for("signin.login_form"))
        rows = db_session.scalars(select(Game).where(  # both players of every game by primary key, in two statements
            (Game.white_id == player_id) | (Game.black_id == player_id)).order_by(Game.id.desc())
            .options(selectinload(Game.white), selectinload(Game.black))).all()
        listed: dict[str, list[dict[str, Any]]] = {"In progress": [], "Waiting to start": [], "Finished": []}
        for game in rows:
            side = game.side_of(player)
            turn, yours = turn_text(game, side)
            group = ("Finished" if game.status in ("over", "declined") else
                     "In progress" if game.status == "active" else "Waiting to start")
            opponent = game.black if side == "white" else game.white
            listed[group].append({
                "id": game.id, "title": get_variant(game.variant).title, "side": SIDE_TITLE[side],
                "opponent": opponent.name, "turn": turn, "yours": yours,
                "deadline": deadline_words(game) if yours and game.status == "active" else None,
            })
        return render_template("web/games.html", title="Your games", name=player.name, groups=listed)


def step_asked() -> int:
    """The step the address names (``?step=N``), 0 when it names none: a step that is not a number is a 400
    page (``number_from``), one past the history is not found."""
    written = request.args.get("step")
    return 0 if written is None else number_from(written, "Step", 0, 2**31 - 1, request.path)


@blueprint.get("/games/<id:game_id>")
def game_history(game_id: int) -> str | Response | tuple[str, int]:
    if not request.args.get("key") and signed_in_player_id() is None:
        return redirect(url_for("signin.login_form"))
    with server().db.sessions() as db_session:
        try:
            game, player, side, key = viewed_game(db_session, game_id)
        except KeyRefused as refusal:
            return refusal.page
        steps = history.player_steps(db_session, game, side)
        number = step_asked() or len(steps)
        if steps and not 1 <= number <= len(steps):
            abort(404)
        current = steps[number - 1] if steps else None
        turn, may_order = turn_text(game, side)
        may_order = may_order and key is None  # a history link shows; only a session orders
        opponent = game.black if side == "white" else game.white
        presenter = presenter_for(game.variant)
        names = Names(side, game.white.name, game.black.name)
        variant = get_variant(game.variant)
        if current:
            figure = presenter.figure(current.view, side, names, player.preferences, current.messages)
        elif game.status == "active":  # nothing has happened yet: the position as this player sees it now
            figure = presenter.figure(variant.view(variant.from_json(game.state), side), side, names,
                                      player.preferences, [])
        else:
            figure = Figure()
        context = {
            "title": f"Game {game.id}",
            "game": {"id": game.id, "title": variant.title, "variant": game.variant, "side": SIDE_TITLE[side],
                     "player": player.name,
                     "opponent": opponent.name, "status": game.status, "turn": turn, "over": game.status == "over",
                     "result": game.result, "reveal_open": key is None or (game.public_white and game.public_black)},
            "key": key,
            "keyed": key is not None,
            "steps": steps,
            "current": current,
            "figure": pictures(figure),
            "legend": drawn_legend(figure.legend, DRAWN_LEGEND),
            "marks": marks_key(figure),
            "notes": figure.notes,
            "may_order": may_order,
            "examples": variant.example_orders(variant.view(variant.from_json(game.state), side), side)
            if may_order and game.status == "active" else [],
        }
        return render_template("web/history.html", **context)


@blueprint.get("/games/<id:game_id>.json")
def game_json(game_id: int) -> Response | tuple[Response, int]:
    with server().db.sessions() as db_session:
        try:
            game, _player, side, _key = viewed_game(db_session, game_id)
        except KeyRefused:
            return jsonify({"error": "this history link no longer works"}), 410
        return jsonify(history.json_history(game, side, history.player_steps(db_session, game, side)))


@blueprint.post("/games/<id:game_id>/order")
def game_order(game_id: int) -> Response:
    text = (request.form.get("order") or "").strip()[:2000]
    with server().db.transaction() as db_session:
        game, _player, side = own_game(db_session, game_id)
        service = Service(db_session.connection(), server().settings, server().signer)
        record = service.lock(game.id)
        if not text:
            flash("Write an order first.")
        else:
            status, outcome = service.submit_text(record, record.player(side), text,
                                                  ReplyToken(record.id, side, record.ply))
            flash(outcome if status == "done" else f"Not carried out: {outcome}")
    return redirect(url_for("pages.game_history", game_id=game_id))


@blueprint.get("/games/<id:game_id>/reveal")
def reveal(game_id: int) -> str | Response:
    with server().db.sessions() as db_session:
        game = db_session.get(Game, game_id)
        player_id = signed_in_player_id()
        public = game is not None and game.status == "over" and game.public_white and game.public_black
        if player_id is None and not public:  # the game-over mail's link: its players sign in first
            return redirect(url_for("signin.login_form"))
        if game is None or game.status != "over":
            abort(404)  # while a game runs nobody may see it
        is_player = player_id in (game.white_id, game.black_id)
        if not is_player and not public:
            abort(404)
        steps = history.reveal_steps(db_session, game)
        number = step_asked() or len(steps)
        if not 1 <= number <= max(len(steps), 1):
            abort(404)
        current = steps[number - 1] if steps else None
        presenter = presenter_for(game.variant)
        viewer = game.side_of(db_session.get(Player, player_id)) if is_player else "white"
        names = Names(viewer, game.white.name, game.black.name)
        told_both = [message for side in SIDES for message in current.told.get(side, [])] if current else []
        figure = presenter.reveal(current.position, current.views, names, told_both) if current else Figure()
        variant = get_variant(game.variant)
        context = {
            "title": f"Game {game.id}: the reveal",
            "game": {"id": game.id, "title": variant.title, "white": game.white.name,
                     "black": game.black.name, "result": presenter.end_words(game.result, game.reason),
                     "public": game.public_white and game.public_black},
            "steps": steps, "current": current, "number": number, "figure": pictures(figure),
            "legend": drawn_legend(figure.legend, DRAWN_LEGEND), "marks": marks_key(figure), "is_player": is_player,
            "agrees": getattr(game, f"public_{game.side_of(db_session.get(Player, player_id))}")
            if is_player else None,
            "commitments": {side: game.commitments.get(side, {}) for side in ("white", "black")},
            "rows": variant.hidden_setups(variant.from_json(game.state)),
            "record": presenter.record([Ply(step.move_number, step.by, step.order or None,
                                            [*step.told.get(step.by, []), *step.told.get(other(step.by), [])])
                                        for step in steps if variant.completes_turn(step.result) and step.by],
                                       names, game.result, game.options),
        }
        return render_template("web/reveal.html", **context)


@blueprint.post("/games/<id:game_id>/public")
def make_public(game_id: int) -> Response:
    with server().db.transaction() as db_session:
        game, _player, side = own_game(db_session, game_id)
        service = Service(db_session.connection(), server().settings, server().signer)
        service.share_reveal(service.lock(game.id), side, request.form.get("agree") == "yes")
    return redirect(url_for("pages.reveal", game_id=game_id))
