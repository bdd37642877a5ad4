"""The conformance suite's checks: what every declared variant must do for the server to serve it.

Each check takes a declaration and returns the problems it found, in words (an empty list when the
variant conforms), so that a test can show both that every declared variant passes and that a broken one
is caught, and by which check. The games are random but seeded and short, the perft depths those the
declaration states: the whole suite runs in seconds per variant.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chess

from app.present.base import Ply, Standing
from app.present.declaration import Declaration, SampleGame
from app.present.text import figure_lines
from app.present.words import Names
from app.rules.base import COMMON_RESULTS, MOVES, SIDES, Message, Outcome, Side, Variant, other

GAMES = 3  # random games per sample
PLIES = 40  # orders per random game at most
ORDERS_CHECKED = 40  # legal orders played on copies, per position looked at
ENDINGS = ("time", "resign", "agreement")  # how each random game is ended, if it still runs
COMMANDS = ("offer draw", "decline draw", "accept draw", "e2-e9 please", "I resign.")


@dataclass
class Event:
    """One event of a game: who, the line (None for an automatic event), what it did, and the states."""

    side: Side
    order: str | None
    outcome: Outcome
    before: dict[str, Any]  # the state before, as JSON
    after: dict[str, Any]  # the state after, as JSON


@dataclass
class Game:
    """A sample game played at random: its events in order, the options, and the state it ended in."""

    declaration: Declaration
    options: dict[str, Any]
    events: list[Event]
    state: Any
    starts: list[dict[str, Any]]  # the state (JSON) once play began, for the order-form and legality checks

    @property
    def variant(self) -> Variant:
        return self.declaration.rules

    def states(self) -> list[dict[str, Any]]:
        """Every state the game passed through, as JSON, in order."""
        return [event.before for event in self.events] + [self.variant.to_json(self.state)]


def copy(variant: Variant, state: Any) -> Any:
    return variant.from_json(json.loads(json.dumps(variant.to_json(state))))


def started(declaration: Declaration, sample: SampleGame, rng: random.Random,
            black_row: str = "518") -> tuple[Any, list[Event]]:
    """A new game with the sample's options, its setups sent through ``play`` where it has a setup phase (White
    the standard row)."""
    variant = declaration.rules
    state = variant.new_game(dict(sample.options), rng)
    events: list[Event] = []
    for side, row in (("white", "518"), ("black", black_row)):
        if variant.needs_setup(state, side):
            order = f"setup {row}"
            record(variant, state, events, side, order, lambda: variant.play(state, side, order, rng))  # noqa: B023
    return state, events


def record(variant: Variant, state: Any, events: list[Event], side: Side, order: str | None,
           event: Callable[[], Outcome]) -> None:
    """Make one event happen to ``state`` and keep it, with the state before and after."""
    before = variant.to_json(state)
    outcome = event()
    events.append(Event(side, order, outcome, before, variant.to_json(state)))


def play(variant: Variant, state: Any, side: Side, order: str, rng: random.Random, events: list[Event]) -> None:
    """One order, then the referee's automatic events, each recorded."""
    record(variant, state, events, side, order, lambda: variant.play(state, side, order, rng))
    while True:
        before = variant.to_json(state)
        made = variant.automatic(state)
        if made is None:
            break
        events.append(Event(made[0], None, made[1], before, variant.to_json(state)))


def random_game(declaration: Declaration, sample: SampleGame, seed: int) -> Game:
    """The sample's opening, then random orders of the variant's own generator with a common command now and
    then (one out of turn), ended in one of three ways if it still runs."""
    variant, rng = declaration.rules, random.Random(seed)
    state, events = started(declaration, sample, rng, "random")
    starts = [variant.to_json(state)]
    for order in sample.opening:
        play(variant, state, variant.orderer(state) or "white", order, rng, events)
    for _ply in range(PLIES):
        side = variant.orderer(state)
        if side is None:
            break
        if rng.random() < 0.1:
            play(variant, state, rng.choice(SIDES), rng.choice(COMMANDS[:4]), rng, events)
        else:
            play(variant, state, side, variant.random_order(state, side, rng), rng, events)
        if len(starts) < 4 and rng.random() < 0.2:
            starts.append(variant.to_json(state))
    side = variant.orderer(state) or variant.army_to_move(state)
    if side is not None:
        ending = ENDINGS[seed % len(ENDINGS)]
        if ending == "time":
            record(variant, state, events, side, None, lambda: variant.forfeit(state, side, "time"))
        elif ending == "resign":
            play(variant, state, side, "I resign.", rng, events)
        else:
            play(variant, state, side, "offer draw", rng, events)
            play(variant, state, other(side), "accept draw", rng, events)
    play(variant, state, "white", "e2-e4", rng, events)  # after the end
    return Game(declaration, variant.parse_options(dict(sample.options)), events, state, starts)


def games(declaration: Declaration) -> list[Game]:
    return [random_game(declaration, sample, seed) for sample in declaration.samples for seed in range(GAMES)]


# --------------------------------------------------------------------------- the checks


def round_trip(declaration: Declaration, played: list[Game]) -> list[str]:
    """The state survives its JSON round trip exactly: plain JSON, the same JSON again, the same views,
    orderer, result and legal orders."""
    variant, problems = declaration.rules, []
    for game in played:
        for data in game.states():
            if json.loads(json.dumps(data)) != data:
                problems.append(f"to_json is not plain JSON: {data}")
                continue
            state = variant.from_json(data)
            again = variant.from_json(variant.to_json(state))
            if variant.to_json(state) != data:
                problems.append(f"from_json then to_json changes the state: {data}")
            elif (variant.orderer(state), variant.result(state), variant.legal_orders(state)) != (
                    variant.orderer(again), variant.result(again), variant.legal_orders(again)):
                problems.append(f"a restored state plays differently: {data}")
            elif any(variant.view(state, side) != variant.view(again, side) for side in SIDES):
                problems.append(f"a restored state shows another view: {data}")
    return problems


def legal_orders_play(declaration: Declaration, played: list[Game]) -> list[str]:
    """Every legal order plays as a move, is read back by the order reader as a move and is written in the
    variant's canonical form (the form ``legal_orders`` gives); the sample's opening plays and its refused
    order is refused without changing the game."""
    variant, problems = declaration.rules, []
    for game in played:
        for data in game.starts:
            state = variant.from_json(data)
            side = variant.orderer(state)
            orders = variant.legal_orders(state)
            if len(set(orders)) != len(orders):
                problems.append(f"legal_orders repeats an order: {sorted(orders)}")
            if side is None:
                continue
            for order in random.Random(str(data)).sample(orders, min(ORDERS_CHECKED, len(orders))):
                problems += order_problems(variant, state, side, order)
    sample = declaration.sample
    state, _events = started(declaration, sample, random.Random(0))
    refused = copy(variant, state)
    outcome = variant.play(refused, variant.orderer(state) or "white", sample.refused)
    if outcome.result != "rejected" or variant.to_json(refused) != variant.to_json(state):
        problems.append(f"the sample's refused order {sample.refused!r} gave {outcome.result}, or changed the game")
    for order in sample.opening:
        outcome = variant.play(state, variant.orderer(state) or "white", order)
        if outcome.result not in MOVES:
            problems.append(f"the sample's opening order {order!r} gave {outcome.result}: {outcome.to}")
            break
    return problems


def order_problems(variant: Variant, state: Any, side: Side, order: str) -> list[str]:
    problems = []
    try:
        if not variant.is_order(order) or variant.order_kind(order) != "move" or variant.move_written(order) != order:
            problems.append(f"legal order {order!r} is not read back as a move in its own canonical form "
                            f"({variant.move_written(order)!r})")
    except ValueError as error:
        problems.append(f"legal order {order!r} cannot be read: {error}")
    outcome = variant.play(copy(variant, state), side, order)
    if outcome.result not in MOVES:
        problems.append(f"legal order {order!r} gave {outcome.result}: {outcome.to[side]}")
    elif outcome.order != order:
        problems.append(f"legal order {order!r} was recorded as {outcome.order!r}")
    return problems


def examples_play(declaration: Declaration, played: list[Game]) -> list[str]:
    """The player to order has order forms, and every example in them that is an order (not words, not one of
    the presenter's own commands) is read and adjudicated on a copy of the position: none is an error."""
    variant, presenter, problems = declaration.rules, declaration.presenter(declaration.rules), []
    own_commands = {command.name for command in presenter.commands()}
    for game in played:
        for data in game.starts:
            state = variant.from_json(data)
            side = variant.orderer(state)
            if side is None:
                continue
            view = variant.view(state, side)
            forms = presenter.order_forms(view, side, Names(side, "Alice", "Bob"), standing(variant, state, game))
            if not forms:
                problems.append(f"no order forms for {side} in {data}")
            for example, meaning in forms:
                if not meaning.strip():
                    problems.append(f"order form {example!r} says nothing of what it means")
                if variant.is_order(example) and example.split()[0] not in own_commands:
                    outcome = variant.play(copy(variant, state), side, example)
                    if outcome.result == "error":
                        problems.append(f"order-form example {example!r} cannot be read: {outcome.to[side]}")
    return problems


def messages_described(declaration: Declaration, played: list[Game]) -> list[str]:
    """Every result is common or the variant's own, and every message kind a game produced is described to
    each player in words, not by its kind name."""
    variant, presenter, problems = declaration.rules, declaration.presenter(declaration.rules), []
    known = COMMON_RESULTS | variant.own_results
    seen: set[tuple[str, str]] = set()
    for game in played:
        for event in game.events:
            if event.outcome.result not in known:
                problems.append(f"result {event.outcome.result!r} is neither common nor declared in own_results")
            for side in SIDES:
                for message in event.outcome.to[side]:
                    problem = undescribed(presenter.describe(message, Names(side, "Alice", "Bob")), message)
                    if problem and (message["kind"], side) not in seen:
                        seen.add((message["kind"], side))
                        problems.append(problem)
    return problems


def undescribed(text: str, message: Message) -> str | None:
    words = text.strip()
    if not words or words == message["kind"] or " " not in words:
        return f"message {message} is told as {text!r}, not in words"
    return None


def views_drawn(declaration: Declaration, played: list[Game]) -> list[str]:
    """Every view after every event draws a non-empty figure (and the text renderer draws it); the end draws a
    reveal; the record of the moves numbers every move played."""
    variant, presenter, problems = declaration.rules, declaration.presenter(declaration.rules), []
    for game in played:
        for event in game.events[::3] + game.events[-2:]:
            state = variant.from_json(event.after)
            for side in SIDES:
                view = variant.view(state, side)
                figure = presenter.figure(view, side, Names(side, "Alice", "Bob"), {}, event.outcome.to[side])
                if not figure or not any(line.strip() for line in figure_lines(figure)):
                    problems.append(f"no figure for {side}'s view {view}")
                    break
            if problems:
                break
        names = Names("white", "Alice", "Bob")
        views = {side: variant.view(game.state, side) for side in SIDES}
        last = [message for event in game.events[-1:] for side in SIDES for message in event.outcome.to[side]]
        if not presenter.reveal(variant.position(game.state), views, names, last):  # as the game-over mail asks
            problems.append("no reveal at the end of the game")
        plies = [Ply(variant.move_number(variant.from_json(event.before)), event.side, event.outcome.order,
                     event.outcome.to[event.side]) for event in game.events if event.outcome.result in MOVES]
        record = " ".join(presenter.record(plies, names, variant.result(game.state)[0], game.options)).split()
        missing = sorted({ply.move_number for ply in plies} - {int(word[:-1]) for word in record if word[:-1].isdigit()
                                                               and word.endswith(".")})
        if missing:
            problems.append(f"the record of the moves leaves out move {missing[0]}")
    return problems


def perft_matches(declaration: Declaration) -> list[str]:
    """The perft counts from the sample's start are those the declaration states."""
    state, _events = started(declaration, declaration.sample, random.Random(0))
    counted = tuple(sum(declaration.rules.perft(state, depth).values()) for depth in
                    range(1, len(declaration.perft) + 1))
    return [] if counted == declaration.perft and counted else [f"perft {counted}, declared {declaration.perft}"]


def kings_safe(declaration: Declaration, played: list[Game]) -> list[str]:
    """For a variant with check: no legal order leaves the mover's king attacked, judged by python-chess on the
    true position (each board alone), never by the variant."""
    variant, problems = declaration.rules, []
    if not variant.has_check:
        return []
    for game in played:
        for data in game.states()[::4]:
            state = variant.from_json(data)
            army = variant.army_to_move(state)
            if variant.orderer(state) is None or army is None:
                continue
            for order in variant.legal_orders(state)[:ORDERS_CHECKED * 2]:
                child = copy(variant, state)
                variant.play(child, variant.orderer(state), order)
                attacked = attacked_kings(variant.position(child), chess.WHITE if army == "white" else chess.BLACK)
                if attacked:
                    problems.append(f"legal order {order!r} leaves {army}'s king attacked on {', '.join(attacked)}")
                    return problems
    return problems


def attacked_kings(position: dict[str, str], color: chess.Color) -> list[str]:
    """The boards on which a king of ``color`` stands attacked by the other colour on that board."""
    found = []
    for name, placement in position.items():
        board = chess.BaseBoard(placement)
        for square in chess.scan_forward(board.kings & board.occupied_co[color]):
            if board.is_attacked_by(not color, square):
                found.append(f"{name}:{chess.square_name(square)}")
    return found


def standing(variant: Variant, state: Any, game: Game) -> Standing:
    return Standing(variant.move_number(state), variant.orderer(state), variant.army_to_move(state),
                    variant.public(state), game.options)


CHECKS = {
    "round_trip": round_trip,
    "legal_orders_play": legal_orders_play,
    "examples_play": examples_play,
    "messages_described": messages_described,
    "views_drawn": views_drawn,
    "kings_safe": kings_safe,
}


def conformance(declaration: Declaration) -> dict[str, list[str]]:
    """Every check on one declaration: the problems by check, only the checks that found some."""
    played = games(declaration)
    found = {name: check(declaration, played) for name, check in CHECKS.items()}
    found["perft_matches"] = perft_matches(declaration)
    return {name: problems for name, problems in found.items() if problems}
