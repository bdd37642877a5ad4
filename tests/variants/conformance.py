"""The conformance suite's checks: what every declared variant must do for the server to serve it.

Each check takes a declaration and returns the problems it found, in words (an empty list when the
variant conforms), so that a test can show both that every declared variant passes and that a broken one
is caught, and by which check. The games are random but seeded and short, the perft depths those the
declaration states: the whole suite runs in seconds per variant.

Two checks look past what the variant says of itself. Every random game is played twice: once as it is, and
once reloaded from its own JSON before every event (as the server stores a game between two mails), the two
sent the same orders; every outcome, message and view must be the same, so a field that ``to_json`` drops
shows as soon as it matters. And at sampled positions the referee is offered every order that can be written
(every from-square to every to-square, with the promotions, in each board or world the variant has): exactly
the orders of ``legal_orders`` must be played, and in a variant with check none of them may leave the mover's
king attacked, as python-chess judges it on the true position.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess

from app.present.base import Ply, Standing
from app.present.declaration import Declaration, SampleGame
from app.present.text import figure_lines
from app.present.words import Names
from app.rules.base import COMMON_RESULTS, SIDES, Message, Outcome, Side, Variant, other

GAMES = 3  # random games per sample
PLIES = 40  # orders per random game at most
ORDERS_CHECKED = 40  # legal orders played on copies, per position looked at
PROMOTIONS = ("", "=Q", "=R", "=B", "=N")  # written after a move to the first or the last rank
WRITTEN_ORDERS = 40_000  # written orders offered per sample game, in positions of its random games
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
    reloaded: list[str] = field(default_factory=list)  # where the game reloaded before every event went otherwise

    @property
    def variant(self) -> Variant:
        return self.declaration.rules

    def states(self) -> list[dict[str, Any]]:
        """Every state the game passed through, as JSON, in order."""
        return [event.before for event in self.events] + [self.variant.to_json(self.state)]


def copy(variant: Variant, state: Any) -> Any:
    return variant.from_json(json.loads(json.dumps(variant.to_json(state))))


Happening = Callable[[Any, random.Random], Outcome | None]  # an event, made to happen to a given state


class Twin:
    """The same game reloaded from its own JSON before every event and sent the same events: where it goes
    otherwise than the original (an outcome, a message, a view, whose turn, the result, the legal orders), the
    state lost something on the way through JSON."""

    def __init__(self, variant: Variant, state: Any) -> None:
        self.variant, self.state, self.problems = variant, copy(variant, state), []

    def follow(self, happening: Happening, outcome: Outcome | None, original: Any, rng_state: Any,
               what: str) -> None:
        """Make ``happening`` happen to the reloaded game with the random source the original had, and compare."""
        if self.problems:
            return  # gone otherwise once: the rest would only repeat it
        variant, rng = self.variant, random.Random()
        rng.setstate(rng_state)
        self.state = copy(variant, self.state)
        theirs = happening(self.state, rng)
        told = (outcome.result, outcome.order, outcome.to) if outcome else None
        reloaded = (theirs.result, theirs.order, theirs.to) if theirs else None
        if reloaded != told:
            self.problems.append(f"{what} gave {told} in the game as played, {reloaded} in the game reloaded from "
                                 "its JSON at every event")
            return
        for side in SIDES:
            if variant.view(original, side) != variant.view(self.state, side):
                self.problems.append(f"after {what} {side} sees {variant.view(self.state, side)} in the reloaded "
                                     f"game, not {variant.view(original, side)}")
                return
        if (variant.orderer(original), variant.result(original)) != (variant.orderer(self.state),
                                                                      variant.result(self.state)):
            self.problems.append(f"after {what} the reloaded game has another player to order or another result")
        else:
            differ = set(variant.legal_orders(original)) ^ set(variant.legal_orders(self.state))
            if differ:
                self.problems.append(f"after {what} the reloaded game differs in the legal orders {sorted(differ)}")


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
            record(variant, state, events, side, order,
                   lambda now, chance: variant.play(now, side, order, chance), rng)  # noqa: B023
    return state, events


def record(variant: Variant, state: Any, events: list[Event], side: Side, order: str | None, happening: Happening,
           rng: random.Random, twin: Twin | None = None) -> None:
    """Make one event happen to ``state`` (and to the reloaded ``twin``) and keep it, with the state before and
    after."""
    before, rng_state = variant.to_json(state), rng.getstate()
    outcome = happening(state, rng)
    assert outcome is not None
    events.append(Event(side, order, outcome, before, variant.to_json(state)))
    if twin:
        twin.follow(happening, outcome, state, rng_state, repr(order) if order else "an event of its own")


def play(variant: Variant, state: Any, side: Side, order: str, rng: random.Random, events: list[Event],
         twin: Twin | None = None) -> None:
    """One order, then the referee's automatic events, each recorded."""
    record(variant, state, events, side, order, lambda now, chance: variant.play(now, side, order, chance), rng, twin)
    while True:
        before = variant.to_json(state)
        made = variant.automatic(state)
        if twin:  # with no automatic event, the reloaded game is only reloaded once more, and compared
            twin.follow(lambda now, _chance: (variant.automatic(now) or (None, None))[1], made and made[1], state,
                        rng.getstate(), "the referee's automatic event" if made else f"a reload after {order!r}")
        if made is None:
            break
        events.append(Event(made[0], None, made[1], before, variant.to_json(state)))


def random_game(declaration: Declaration, sample: SampleGame, seed: int) -> Game:
    """The sample's opening, then random orders of the variant's own generator with a common command now and
    then (one out of turn), ended in one of three ways if it still runs; the same game reloaded from its JSON
    before every event played beside it (``Twin``)."""
    variant, rng = declaration.rules, random.Random(seed)
    state, events = started(declaration, sample, rng, "random")
    twin = Twin(variant, state)
    starts = [variant.to_json(state)]
    for order in sample.opening:
        play(variant, state, variant.orderer(state) or "white", order, rng, events, twin)
    for _ply in range(PLIES):
        side = variant.orderer(state)
        if side is None:
            break
        if rng.random() < 0.1:
            play(variant, state, rng.choice(SIDES), rng.choice(COMMANDS[:4]), rng, events, twin)
        else:
            play(variant, state, side, variant.random_order(state, side, rng), rng, events, twin)
        if len(starts) < 4 and rng.random() < 0.2:
            starts.append(variant.to_json(state))
    side = variant.orderer(state) or variant.army_to_move(state)
    if side is not None:
        ending = ENDINGS[seed % len(ENDINGS)]
        if ending == "time":
            record(variant, state, events, side, None, lambda now, _chance: variant.forfeit(now, side, "time"), rng,
                   twin)
        elif ending == "resign":
            play(variant, state, side, "I resign.", rng, events, twin)
        else:
            play(variant, state, side, "offer draw", rng, events, twin)
            play(variant, state, other(side), "accept draw", rng, events, twin)
    play(variant, state, "white", "e2-e4", rng, events, twin)  # after the end
    return Game(declaration, variant.parse_options(dict(sample.options)), events, state, starts, twin.problems)


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
        if not variant.completes_turn(outcome.result):
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
    if not variant.completes_turn(outcome.result):
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
                     event.outcome.to[event.side])
                 for event in game.events if variant.completes_turn(event.outcome.result)]
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


def reloaded_plays_alike(declaration: Declaration, played: list[Game]) -> list[str]:
    """Each random game reloaded from its JSON before every event went exactly as played (``Twin``)."""
    return [problem for game in played for problem in game.reloaded]


MOVE_WRITTEN = re.compile(r"(?<![a-z])[a-h][1-8]-[a-h][1-8](?:=[A-Z])?|O-O(?:-O)?")
SQUARE_NAMES = [f"{file}{rank}" for rank in "12345678" for file in "abcdefgh"]


def in_every_board(text: str, boards: list[str]) -> set[str]:
    """A board's or world's name in ``text`` (``A:``, ``>B``, ``R:``) replaced by each of the variant's."""
    if len(boards) < 2:
        return {text}
    name = re.compile(r"\b(" + "|".join(map(re.escape, boards)) + r")\b")
    return {name.sub(board, text) for board in boards} if name.search(text) else {text}


def written_orders(variant: Variant, state: Any) -> list[str]:
    """Every order that can be written now: every from-square to every other square, with the promotions (from
    the ranks a pawn promotes from), and castling, bare and in the notation of each of the variant's boards or
    worlds as its legal orders write them (``R:e2-e4``, ``A:e2-e4>B``)."""
    boards = list(variant.position(state))
    contexts = {("", "")}
    for order in variant.legal_orders(state):
        found = MOVE_WRITTEN.search(order)
        if found:
            contexts |= {(before, after) for before in in_every_board(order[:found.start()], boards)
                         for after in in_every_board(order[found.end():], boards)}
    moves = [f"{start}-{end}" for start in SQUARE_NAMES for end in SQUARE_NAMES if start != end]
    moves += [f"{start}-{end}{letter}" for start in SQUARE_NAMES if start[1] in "27" for end in SQUARE_NAMES
              if end[1] in "18" for letter in PROMOTIONS[1:]]
    moves += ["O-O", "O-O-O"]
    return [f"{before}{move}{after}" for before, after in sorted(contexts) for move in moves]


def sampled_positions(variant: Variant, played: list[Game]) -> list[Any]:
    """Positions of the random games where a move is awaited, late ones first, as many as ``WRITTEN_ORDERS``
    written orders allow (at least one a sample): a variant with more boards is offered fewer positions."""
    positions, offered = [], {}
    for game in played:
        counts = offered.setdefault(json.dumps(game.options, sort_keys=True), [])  # by sample
        for data in game.states()[-2::-5]:
            state = variant.from_json(data)
            if variant.orderer(state) is None:
                continue
            count = len(written_orders(variant, state))
            if counts and sum(counts) + count > WRITTEN_ORDERS:
                break
            counts.append(count)
            positions.append(state)
    return positions


def written_orders_played(declaration: Declaration, played: list[Game]) -> list[str]:
    """At sampled positions (``sampled_positions``), every order that can be written (``written_orders``) is
    offered to the referee, each on the position as it stands: exactly the orders of ``legal_orders`` are played,
    and with check none leaves the mover's king attacked (python-chess on the true position, each board alone)."""
    variant, problems = declaration.rules, []
    for state in sampled_positions(variant, played):
        side, army = variant.orderer(state), variant.army_to_move(state)
        legal, work, reached = set(variant.legal_orders(state)), copy(variant, state), set()
        for text in written_orders(variant, state):
            outcome = variant.play(work, side, text)
            if variant.completes_turn(outcome.result):
                reached.add(outcome.order)
                if outcome.order not in legal:
                    problems.append(f"{text!r} was played as {outcome.order!r}, which legal_orders does not list")
                attacked = attacked_kings(variant.position(work), chess.WHITE if army == "white" else chess.BLACK)
                if variant.has_check and attacked:
                    problems.append(f"{text!r} was played and leaves {army}'s king attacked on {', '.join(attacked)}")
            if outcome.result not in ("rejected", "error"):
                work = copy(variant, state)
        if variant.to_json(work) != variant.to_json(state):
            problems.append(f"an order refused or not read changed the game at {variant.to_json(state)}")
        problems += [f"legal order {order!r} is not played when written" for order in sorted(legal - reached)]
    return problems


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
    "reloaded_plays_alike": reloaded_plays_alike,
    "written_orders_played": written_orders_played,
}


def conformance(declaration: Declaration) -> dict[str, list[str]]:
    """Every check on one declaration: the problems by check, only the checks that found some."""
    played = games(declaration)
    found = {name: check(declaration, played) for name, check in CHECKS.items()}
    found["perft_matches"] = perft_matches(declaration)
    return {name: problems for name, problems in found.items() if problems}
