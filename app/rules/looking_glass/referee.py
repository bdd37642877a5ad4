"""Adjudicating one order of Through the Looking-Glass (LG-2 .. LG-11).

``play`` reads an order, checks whose turn it is, executes it in the right
world, runs the portal checks, and returns what each player is told. The state
is changed in place only once an order is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

from app.rules import messages
from app.rules.base import Message, OrderError, Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.looking_glass import notebook
from app.rules.looking_glass.movement import (
    Execution,
    execute_blind,
    front_square,
    has_any_move,
    home_reason,
    last_rank,
)
from app.rules.looking_glass.orders import Castle, Move
from app.rules.looking_glass.state import COLOR, HOME, SIDE_OF, EnPassant, GameState, other_world
from app.rules.placement import board_placement, cells_of, placement

TYPE_LETTER = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}
SQUARE_INDEX = {name: index for index, name in enumerate(chess.SQUARE_NAMES)}


def color_name(color: chess.Color) -> Side:
    return SIDE_OF[color]


def piece_info(piece: chess.Piece, world: str, square: int) -> dict[str, str]:
    """A piece as messages name it: type letter, colour, and ``world:square``."""
    return {
        "piece": TYPE_LETTER[piece.piece_type],
        "color": color_name(piece.color),
        "square": f"{world}:{chess.square_name(square)}",
    }


@dataclass
class Step:
    """One piece's part of a completed move, filled in as it is carried out."""

    piece: chess.Piece
    world: str
    from_square: int
    ordered: int
    stop: int
    shortened: bool = False
    captured: dict[str, str] | None = None
    promotion: int | None = None
    through: bool = False
    en_passant: bool = False
    castle: str | None = None

    @property
    def final_world(self) -> str:
        return other_world(self.world) if self.through else self.world

    def moved_message(self, proxy: bool) -> Message:
        return messages.moved({
            "world": self.world,
            "from": chess.square_name(self.from_square),
            "to": chess.square_name(self.stop),
            "ordered": chess.square_name(self.ordered),
            "piece": TYPE_LETTER[self.piece.piece_type],
            "color": color_name(self.piece.color),
            "captured": self.captured,
            "shortened": self.shortened,
            "through": self.through,
            "final": f"{self.final_world}:{chess.square_name(self.stop)}",
            "promotion": TYPE_LETTER[self.promotion] if self.promotion else None,
            "en_passant": self.en_passant,
            "castle": self.castle,
            "proxy": proxy,
        })

    def landed_message(self) -> Message:
        return {
            "kind": "landed",
            "color": color_name(self.piece.color),
            "square": f"{self.world}:{chess.square_name(self.stop)}",
            "through": self.through,
            "captured": self.captured,
        }


# --------------------------------------------------------------------------- setup (LG-2)


def start_game(state: GameState) -> None:
    """Place both armies once both rows are in (LG-2) and open play."""
    for side, rank, pawn_rank in (("white", 0, 1), ("black", 7, 6)):
        row = state.rows[side]
        assert row is not None
        board = state.worlds[HOME[side]]
        color = COLOR[side]
        castling = []
        for file, letter in enumerate(row):
            square = chess.square(file, rank)
            board.set_piece_at(square, chess.Piece.from_symbol(letter if color else letter.lower()))
            board.set_piece_at(chess.square(file, pawn_rank), chess.Piece(chess.PAWN, color))
            if letter in "KR":
                castling.append(chess.square_name(square))
        state.castling[side] = castling
    state.phase = "play"


# --------------------------------------------------------------------------- helpers


def ep_square_in(state: GameState, world: str) -> int | None:
    return state.ep.square if state.ep and state.ep.world == world else None


def castle_plan(state: GameState, side: Side, long: bool) -> tuple[int, int, int, int] | str:
    """King from/to and rook from/to for a castling (LG-7), or why it is not possible."""
    board = state.worlds[HOME[side]]
    color = COLOR[side]
    unmoved = [chess.parse_square(name) for name in state.castling[side]]
    kings = [sq for sq in unmoved if board.piece_at(sq) == chess.Piece(chess.KING, color)]
    if not kings:
        return "your king has already moved or castled, so it can no longer castle"
    king = kings[0]
    rooks = [
        sq
        for sq in unmoved
        if board.piece_at(sq) == chess.Piece(chess.ROOK, color)
        and (chess.square_file(sq) < chess.square_file(king)) == long
    ]
    if not rooks:
        return f"the rook on the {'queen' if long else 'king'}'s side has already moved"
    rook = rooks[0]
    rank = chess.square_rank(king)
    king_to = chess.square(2 if long else 6, rank)
    rook_to = chess.square(3 if long else 5, rank)
    needed = chess.SquareSet(chess.between(king, king_to) | chess.between(rook, rook_to))
    needed |= chess.SquareSet(chess.BB_SQUARES[king_to] | chess.BB_SQUARES[rook_to])
    for square in needed:
        if square not in (king, rook) and board.piece_at(square) is not None:
            return f"castling needs {HOME[side]}:{chess.square_name(square)} to be empty"
    return king, king_to, rook, rook_to


def castle_pieces(state: GameState, side: Side, plan: tuple[int, int, int, int]) -> list[tuple[chess.Piece, int, int]]:
    """LG-7: king and rook to their castled squares in the home world; the pieces that moved, king first, with
    their from- and to-squares (a piece that stays put did not move, LG-6). Castling is a move of the king
    (FIDE 3.8.2), so ``side`` never castles again, even when its king stayed put."""
    king, king_to, rook, rook_to = plan
    board = state.worlds[HOME[side]]
    color = COLOR[side]
    board.remove_piece_at(king)
    board.remove_piece_at(rook)
    board.set_piece_at(king_to, chess.Piece(chess.KING, color))
    board.set_piece_at(rook_to, chess.Piece(chess.ROOK, color))
    state.castling[side] = []
    moved = [(chess.Piece(chess.KING, color), king, king_to), (chess.Piece(chess.ROOK, color), rook, rook_to)]
    return [(piece, start, stop) for piece, start, stop in moved if start != stop]


def forget_castling(state: GameState, world: str, from_square: int, stop: int) -> None:
    """LG-7: a piece leaving or landing on a start square in a home world ends castling with whatever stood there."""
    squares = {chess.square_name(from_square), chess.square_name(stop)}
    for owner in ("white", "black"):
        if HOME[owner] == world:
            state.castling[owner] = [sq for sq in state.castling[owner] if sq not in squares]


def pass_portal(state: GameState, world: str, square: int) -> bool:
    """LG-6: the piece that stopped on ``square`` of ``world`` passes through when that square of the other world is
    empty; whether it did."""
    target = state.worlds[other_world(world)]
    if target.piece_at(square) is not None:
        return False
    moving = state.worlds[world].remove_piece_at(square)
    assert moving is not None
    target.set_piece_at(square, moving)
    return True


def verdict(state: GameState, army: Side, king_captured: bool) -> tuple[str, str] | None:
    """LG-11: ``(result, reason)`` when the move ``army`` just completed decided the game on the board (a king
    captured, or under win=extinction a piece type gone), else None. Stalemate is the next player's to find."""
    opponent = other(army)
    if state.options["win"] == "extinction":
        if extinct_types(state, COLOR[opponent]):
            return win_for(army), "extinction"
        if extinct_types(state, COLOR[army]):
            return win_for(opponent), "extinction"
        return None
    return (win_for(army), "king captured") if king_captured else None


def has_legal_move(state: GameState, side: Side, world: str) -> bool:
    """Whether ``side`` has any LG-3 movement in ``world`` (castling counts at home)."""
    board = state.worlds[world]
    if has_any_move(board, COLOR[side], ep_square_in(state, world)):
        return True
    if world == HOME[side]:
        return any(not isinstance(castle_plan(state, side, long), str) for long in (False, True))
    return False


def pieces_known_to(orderer: Side, army: Side) -> list[str]:
    """Worlds where the orderer can see the army's pieces (all, for their own army)."""
    return ["R", "M"] if orderer == army else [HOME[orderer]]


def resolve_world(state: GameState, orderer: Side, army: Side, move: Move) -> str:
    """The world an order means (the rules, "Orders by email"); may raise OrderError."""
    if move.world:
        return move.world
    color = COLOR[army]
    worlds = [
        world
        for world in pieces_known_to(orderer, army)
        if (piece := state.worlds[world].piece_at(move.from_square)) is not None and piece.color == color
    ]
    if len(worlds) == 2:
        square = chess.square_name(move.from_square)
        raise OrderError(
            f"you have pieces on {square} in both worlds: name the world, as in "
            f"R {move.text()} or M {move.text()}"
        )
    return worlds[0] if worlds else other_world(HOME[orderer])


def extinct_types(state: GameState, color: chess.Color) -> bool:
    """Win=extinction: whether some piece type of ``color`` is gone from both worlds."""
    return any(
        not any(board.pieces_mask(kind, color) for board in state.worlds.values()) for kind in chess.PIECE_TYPES
    )


# --------------------------------------------------------------------------- the referee


class Referee:
    """Stateless: every method takes the game state it works on."""

    def remember(self, state: GameState, outcome: Outcome, number: int) -> None:
        """LG-10: each player's notebook takes in what the order just told them (reported at move ``number``)."""
        for reader in ("white", "black"):
            told = outcome.to[reader]
            if any(message["kind"] in notebook.REPORTS for message in told):
                away = other_world(HOME[reader])
                mask = state.worlds[away].occupied_co[COLOR[reader]]
                own = {chess.SQUARE_NAMES[square] for square in chess.scan_forward(mask)}
                notebook.update(state.notebooks[reader], reader, away, told, number, own)

    def ask(self, state: GameState, side: Side) -> Outcome:
        """LG-9: whether the asker has any legal move in the other world; the opponent hears it was asked."""
        world = other_world(HOME[side])
        outcome = Outcome("answered", order="ask")
        outcome.tell(side, {"kind": "answer", "world": world, "legal_move": has_legal_move(state, side, world)})
        outcome.tell(other(side), {"kind": "asked", "color": side, "world": world})
        return outcome

    def own_piece(self, state: GameState, side: Side, order: Move) -> str | None:
        """The letter of the orderer's own piece an order moves, in the world it means (LG-10: a player
        always knows their own pieces in both worlds); "?" where they cannot know (ordering for the opponent's
        army in the other world)."""
        army = state.to_move
        world = resolve_world(state, side, army, order)
        if world not in pieces_known_to(side, army):
            return "?"
        piece = state.worlds[world].piece_at(order.from_square)
        return TYPE_LETTER[piece.piece_type] if piece and piece.color == COLOR[army] else None

    # ----------------------------------------------------------------- moves

    def castle(self, state: GameState, side: Side, army: Side, order: Castle) -> Outcome:
        if side != army:
            reason = "castling cannot be ordered for your opponent's army"
            return Outcome.only("rejected", side, messages.rejected(reason))
        if order.world and order.world != HOME[side]:
            reason = "castling is only possible in your own world (LG-7)"
            return Outcome.only("rejected", side, messages.rejected(reason))
        plan = castle_plan(state, side, order.long)
        if isinstance(plan, str):
            return Outcome.only("rejected", side, messages.rejected(plan))
        world, label = HOME[side], order.text()
        moved = castle_pieces(state, side, plan)
        steps = [Step(piece, world, start, stop, stop, castle=label) for piece, start, stop in moved]
        outcome = self.complete(state, side, army, steps, set_ep=None)
        outcome.order = label  # the canonical form, as perft and the record write it
        return outcome

    def move(self, state: GameState, side: Side, army: Side, order: Move) -> Outcome:
        color = COLOR[army]
        try:
            world = resolve_world(state, side, army, order)
            self.check_promotion_suffix(state, army, order)
        except OrderError as error:
            return Outcome.only("error", side, messages.error(str(error)))
        board = state.worlds[world]
        ep_square = ep_square_in(state, world)
        visible = world == HOME[side]
        if visible:
            reason = home_reason(board, order.from_square, order.to_square, color, ep_square, world)
            piece = board.piece_at(order.from_square)
            if reason is None and order.promotion and piece is not None and piece.piece_type != chess.PAWN:
                reason = "only a pawn can be promoted"
            if reason:
                return Outcome.only("rejected", side, messages.rejected(reason))
            target = board.piece_at(order.to_square)
            en_passant = piece.piece_type == chess.PAWN and target is None and ep_square == order.to_square and (
                chess.square_file(order.from_square) != chess.square_file(order.to_square)
            )
            execution = Execution(
                "full", order.to_square, order.to_square if target else None, en_passant=en_passant
            )
        else:
            execution = execute_blind(board, order.from_square, order.to_square, color, ep_square)
            if execution.kind == "impossible":
                outcome = self.impossible(state, side, army, order.text(world))
                outcome.order = order.text(world)
                return outcome
        outcome = self.carry_out(state, side, army, world, order, execution)
        outcome.order = order.text(world)  # the canonical form, as perft and the record write it
        return outcome

    def check_promotion_suffix(self, state: GameState, army: Side, order: Move) -> None:
        if order.promotion is None:
            return
        if chess.square_rank(order.to_square) != last_rank(COLOR[army]):
            square = chess.square_name(order.to_square)
            raise OrderError(f"a promotion suffix belongs only on a move to the last rank, not to {square}")
        if order.promotion == chess.KING and state.options["win"] != "extinction":
            raise OrderError("a pawn may promote to Q, R, B or N (=K only with win=extinction)")

    def impossible(self, state: GameState, side: Side, army: Side, order_text: str) -> Outcome:
        """LG-5a: a strike, or under impossible=forfeit the proxy order or a turn back."""
        executor = other(side)
        if state.proxy:
            state.proxy = False
            outcome = Outcome("impossible")
            outcome.tell_both({"kind": "impossible", "color": army, "order": order_text, "proxy": True})
            return outcome
        if state.options["impossible"] == "forfeit":
            state.proxy = True
            outcome = Outcome("forfeit-order")
            outcome.tell(side, messages.news(messages.FORFEIT, side))
            outcome.tell(executor, {**messages.news(messages.FORFEIT, side), "order": order_text})
            return outcome
        state.strikes[side] += 1
        count = state.strikes[side]
        outcome = Outcome("strike")
        outcome.tell(side, {"kind": "strike", "color": side, "count": count})
        outcome.tell(executor, {"kind": "strike", "color": side, "count": count, "order": order_text})
        if count >= state.options["strikes"]:
            end_game(state, outcome, win_for(executor), "strikes")
        return outcome

    def carry_out(
        self, state: GameState, side: Side, army: Side, world: str, order: Move, execution: Execution
    ) -> Outcome:
        board = state.worlds[world]
        piece = board.remove_piece_at(order.from_square)
        assert piece is not None
        step = Step(piece, world, order.from_square, order.to_square, execution.stop)
        step.shortened = execution.kind == "shortened"
        if execution.en_passant:
            assert state.ep is not None
            victim_board = state.worlds[state.ep.victim_world]
            victim = victim_board.remove_piece_at(state.ep.victim)
            assert victim is not None
            step.captured = piece_info(victim, state.ep.victim_world, state.ep.victim)
            step.en_passant = True
            state.tray += victim.symbol()
        elif execution.captured is not None:
            victim = board.remove_piece_at(execution.captured)
            assert victim is not None
            step.captured = piece_info(victim, world, execution.captured)
            state.tray += victim.symbol()
        if piece.piece_type == chess.PAWN and chess.square_rank(step.stop) == last_rank(piece.color):
            step.promotion = order.promotion or chess.QUEEN  # LG-3: before the portal check
            piece = chess.Piece(step.promotion, piece.color)
        board.set_piece_at(step.stop, piece)
        set_ep = None
        if (
            step.piece.piece_type == chess.PAWN
            and abs(step.stop - step.from_square) == 16
        ):
            set_ep = (world, (step.from_square + step.stop) // 2)
        return self.complete(state, side, army, [step], set_ep)

    def complete(
        self, state: GameState, side: Side, army: Side, steps: list[Step], set_ep: tuple[str, int] | None
    ) -> Outcome:
        """Portal checks (LG-6), messages (LG-9), and the end of the turn (LG-11)."""
        for step in steps:
            forget_castling(state, step.world, step.from_square, step.stop)
            step.through = pass_portal(state, step.world, step.stop)
        state.ep = None
        if set_ep is not None:
            step = steps[0]
            state.ep = EnPassant(set_ep[0], set_ep[1], step.final_world, step.stop)
        proxy = state.proxy
        opponent = other(army)
        outcome = Outcome("shortened" if any(step.shortened for step in steps) else "moved")
        for step in steps:
            outcome.tell(army, step.moved_message(proxy))
            seen_in_full = proxy or step.world == HOME[opponent]
            outcome.tell(opponent, step.moved_message(proxy) if seen_in_full else step.landed_message())
        for step in steps:
            if step.through:
                outcome.tell_both(self.arrival(state, step))
        state.proxy = False
        self.after_move(state, outcome, army, steps)
        return outcome

    @staticmethod
    def arrival(state: GameState, step: Step) -> Message:
        """LG-9: what a piece that came through now attacks, and a pawn's front square."""
        world = step.final_world
        board = state.worlds[world]
        piece = board.piece_at(step.stop)
        assert piece is not None
        attacks = [
            piece_info(board.piece_at(square), world, square)  # type: ignore[arg-type]
            for square in chess.scan_forward(board.attacks_mask(step.stop) & board.occupied_co[not piece.color])
        ]
        front: Any = None
        if piece.piece_type == chess.PAWN:
            ahead = front_square(step.stop, piece.color)
            occupant = board.piece_at(ahead) if ahead is not None else None
            front = (
                "empty"
                if occupant is None
                else {"piece": TYPE_LETTER[occupant.piece_type], "color": color_name(occupant.color)}
            )
        return {
            "kind": "arrived",
            "piece": TYPE_LETTER[piece.piece_type],
            "color": color_name(piece.color),
            "square": f"{world}:{chess.square_name(step.stop)}",
            "attacks": attacks,
            "front": front,
        }

    def after_move(self, state: GameState, outcome: Outcome, army: Side, steps: list[Step]) -> None:
        opponent = other(army)
        decided = verdict(state, army, any(step.captured and step.captured["piece"] == "K" for step in steps))
        if decided is not None:
            end_game(state, outcome, *decided)
            return
        if army == "black":
            state.move_number += 1
        state.to_move = opponent
        if not any(has_legal_move(state, opponent, world) for world in ("R", "M")):
            end_game(state, outcome, "1/2-1/2", "stalemate")  # LG-11, checked before each turn

    # ----------------------------------------------------------------- views

    def view(self, state: GameState, side: Side) -> dict[str, Any]:
        """LG-9/LG-10: own world as it is, the notebook of the other, and the tray."""
        away = state.worlds[other_world(HOME[side])]
        entries = state.notebooks[side]
        unknown = []
        marks = {}
        known = None
        for name, (letter, number) in sorted(entries.items()):
            marks[name] = number
            if letter == notebook.UNKNOWN:
                unknown.append(name)
            else:
                if known is None:
                    known = cells_of(away, COLOR[side])
                known[SQUARE_INDEX[name]] = letter
        return {
            "home": board_placement(state.worlds[HOME[side]]),
            "notebook": board_placement(away, COLOR[side]) if known is None else placement(known),
            "unknown": unknown,
            "marks": marks,
            "tray": state.tray,
        }
