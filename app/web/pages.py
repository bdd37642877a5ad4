"""A player's games, their own history of each, orders from the page, and the reveal after the end."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response

from app.games import history, present
from app.games.links import read_history_key
from app.games.models import Game, Player
from app.games.service import GameService
from app.rules.registry import get_variant
from app.tokens import ReplyToken
from app.web.auth import sign_in, signed_in_player_id

blueprint = Blueprint("pages", __name__)
SIDE_TITLE = {"white": "White", "black": "Black"}


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


def turn_text(game: Game, side: str) -> tuple[str, bool]:
    """A few words on whose turn it is, and whether the player may order now."""
    if game.status == "invited":
        accepted = getattr(game, f"{side}_accepted")
        return ("waiting for your opponent to accept" if accepted else "accept or decline the invitation",
                not accepted)
    if game.status == "declined":
        return "declined", False
    if game.status == "over":
        return f"over: {present.RESULT_WORDS.get(game.result or '', game.result)}", False
    variant = get_variant(game.variant)
    state = variant.from_json(game.state)
    if game.status == "setup":
        waiting = variant.needs_setup(state, side)
        return ("send your setup" if waiting else "waiting for your opponent's setup"), waiting
    orderer = variant.orderer(state)
    if orderer == side:
        return "your move", True
    return f"{SIDE_TITLE[orderer]} to move" if orderer else "", False


@blueprint.get("/")
def index() -> Response:
    return redirect(url_for("pages.games") if signed_in_player_id() else url_for("auth.login_form"))


@blueprint.get("/games")
def games() -> str | Response:
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("auth.login_form"))
    with server().db.sessions() as db_session:
        player = db_session.get(Player, player_id)
        if player is None:
            return redirect(url_for("auth.login_form"))
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
                "deadline": game.deadline.strftime("%a %d %b %Y, %H:%M UTC")
                if game.deadline and yours and game.status == "active" else None,
            })
        return render_template("web/games.html", title="Your games", name=player.name, groups=listed)


@blueprint.get("/games/<int:game_id>")
def game_history(game_id: int) -> str | Response:
    key = request.args.get("key")
    if key:  # the signed link of a move request: sign in as that player, then drop the key from the URL
        found = read_history_key(server().settings, key)
        if found is None or found[0] != game_id:
            abort(404)
        sign_in(found[1])
        return redirect(url_for("pages.game_history", game_id=game_id))
    if signed_in_player_id() is None:
        return redirect(url_for("auth.login_form"))
    with server().db.sessions() as db_session:
        game, player, side = own_game(db_session, game_id)
        steps = history.player_steps(db_session, game, side)
        number = request.args.get("step", type=int) or len(steps)
        if steps and not 1 <= number <= len(steps):
            abort(404)
        current = steps[number - 1] if steps else None
        turn, may_order = turn_text(game, side)
        opponent = game.black if side == "white" else game.white
        context = {
            "title": f"Game {game.id}",
            "game": {"id": game.id, "title": get_variant(game.variant).title, "side": SIDE_TITLE[side],
                     "opponent": opponent.name, "status": game.status, "turn": turn, "over": game.status == "over",
                     "result": game.result},
            "steps": steps,
            "current": current,
            "diagrams": history.step_diagrams(current, side, player.preferences.get("notebook", True))
            if current else [],
            "notes": present.notebook_notes(current.view, side, opponent.name) if current and current.view
            and player.preferences.get("notebook", True) else "",
            "tray": present.tray_words(current.view["tray"]) if current and current.view else "",
            "may_order": may_order,
            "examples": ["R e2-e4", "M d4-d5", "O-O", "ask"] if side == "white" else
            ["M e7-e5", "R d5-d4", "O-O", "ask"],
        }
        return render_template("web/history.html", **context)


@blueprint.get("/games/<int:game_id>.json")
def game_json(game_id: int) -> Response:
    with server().db.sessions() as db_session:
        game, _player, side = own_game(db_session, game_id)
        return jsonify(history.json_history(game, side, history.player_steps(db_session, game, side)))


@blueprint.post("/games/<int:game_id>/order")
def game_order(game_id: int) -> Response:
    text = (request.form.get("order") or "").strip()[:2000]
    with server().db.transaction() as db_session:
        game, _player, side = own_game(db_session, game_id)
        service = GameService(db_session.connection(), server().settings, server().signer)
        record = service.lock(game.id)
        if not text:
            flash("Write an order first.")
        else:
            status, outcome = service.submit_text(record, record.player(side), text,
                                                  ReplyToken(record.id, side, record.ply))
            flash(outcome if status == "done" else f"Not carried out: {outcome}")
    return redirect(url_for("pages.game_history", game_id=game_id))


@blueprint.get("/games/<int:game_id>/reveal")
def reveal(game_id: int) -> str:
    with server().db.sessions() as db_session:
        game = db_session.get(Game, game_id)
        if game is None or game.status != "over":
            abort(404)  # while a game runs nobody may see it
        player_id = signed_in_player_id()
        is_player = player_id in (game.white_id, game.black_id)
        if not is_player and not (game.public_white and game.public_black):
            abort(404)
        steps = history.reveal_steps(db_session, game)
        number = request.args.get("step", type=int) or len(steps)
        if not 1 <= number <= max(len(steps), 1):
            abort(404)
        current = steps[number - 1] if steps else None
        boards = []
        if current:
            for world, placement in current.position.items():
                boards.append((f"{present.WORLD_NAMES[world]} world (true position)",
                               history.svg_board(placement, "white", [], world, size=260)))
            for side, (_home, away) in present.WORLDS_OF.items():
                view = current.views.get(side)
                if view:
                    boards.append((f"{SIDE_TITLE[side]}'s notebook of the {present.WORLD_NAMES[away]} world",
                                   history.svg_board(view["notebook"], "white", [], away, view["unknown"], size=260)))
        context = {
            "title": f"Game {game.id}: the reveal",
            "game": {"id": game.id, "title": get_variant(game.variant).title, "white": game.white.name,
                     "black": game.black.name, "result": present.RESULT_WORDS.get(game.result or "", game.result),
                     "reason": present.REASONS.get(game.reason or "", game.reason),
                     "public": game.public_white and game.public_black},
            "steps": steps, "current": current, "number": number, "boards": boards,
            "is_player": is_player,
            "agrees": getattr(game, f"public_{game.side_of(db_session.get(Player, player_id))}")
            if is_player else None,
            "commitments": {side: game.commitments.get(side, {}) for side in ("white", "black")},
            "rows": game.state.get("rows", {}),
        }
        return render_template("web/reveal.html", **context)


@blueprint.post("/games/<int:game_id>/public")
def make_public(game_id: int) -> Response:
    with server().db.transaction() as db_session:
        game, _player, side = own_game(db_session, game_id)
        service = GameService(db_session.connection(), server().settings, server().signer)
        service.share_reveal(service.lock(game.id), side, request.form.get("agree") == "yes")
    return redirect(url_for("pages.reveal", game_id=game_id))
