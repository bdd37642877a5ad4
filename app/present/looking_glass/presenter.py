"""Through the Looking-Glass in plain words and pictures: two worlds, a notebook, strikes (LG-1 .. LG-11)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.present.base import (
    Answer,
    Ply,
    Presenter,
    Standing,
    Tidings,
    VariantCommand,
    example_forms,
    promotion_form,
)
from app.present.diagram import PIECES_LEGEND, UNKNOWN, Figure, Marks, board_grid, piece_list, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name, tray_words
from app.rules.base import Message, View

WORLD_NAMES = {"R": "Real", "M": "Mirror"}
WORLDS_OF = {"white": ("R", "M"), "black": ("M", "R")}  # (home world, other world) by side
LG_REASONS = {
    **REASONS,
    "king captured": "the king was captured",
    "strikes": "too many strikes",
    "stalemate": "stalemate, no legal move in either world",
    "extinction": "a piece type was wiped out",
}


def square(where: str) -> str:
    """``"M:e4"`` -> ``"Mirror e4"``."""
    world, name = where.split(":")
    return f"{WORLD_NAMES[world]} {name}"


def _capture(captured: dict[str, str] | None, names: Names) -> str:
    if not captured:
        return ""
    what = f"{names.whose(captured['color'])} {piece_name(captured['piece'])}"
    return f", capturing {what} on {square(captured['square'])}"


def _portal(message: Message) -> str:
    world, name = message["final"].split(":")
    if message["through"]:
        return f" and passed through the portal to {WORLD_NAMES[world]} {name}"
    return f"; the portal was closed, so it stayed in the {WORLD_NAMES[message['world']]} world"


def marks_in(messages: list[Message], world: str) -> Marks:
    """The squares of ``world`` the messages name: the last move seen there, and reported squares."""
    marks = Marks()
    for message in messages:
        kind = message["kind"]
        if kind == "moved" and message["world"] == world:
            marks.last = {message["from"], message["to"]}
        elif kind in ("landed", "arrived"):
            where, name = message["square"].split(":")
            if where == world:
                marks.seen.add(name)
        if kind == "moved" and message["through"] and message["final"].startswith(world + ":"):
            marks.seen.add(message["final"].split(":")[1])
    return marks


def last_move_in(moves: list[Message], world: str) -> Marks:
    """The last move's squares in ``world``: where it was made, and where a piece came through its portal."""
    marks = Marks()
    for message in moves:
        if message["world"] == world:
            marks.last |= {message["from"], message["to"]}
        if message["through"] and message["final"].startswith(world + ":"):
            marks.last.add(message["final"].split(":")[1])
    return marks


def move_made(ply: Ply) -> str | None:
    """``R:e4xd5``, ``M:a1-a5`` (a shortened move where it stopped), ``O-O`` as ordered, promotions kept."""
    moved = next((message for message in ply.messages if message["kind"] == "moved"), None)
    if moved is None or moved.get("castle"):
        return ply.order
    promotion = f"={moved['promotion']}" if moved.get("promotion") else ""
    return f"{moved['world']}:{moved['from']}{'x' if moved.get('captured') else '-'}{moved['to']}{promotion}"


def own_pieces(pieces: dict[str, str], side: str) -> dict[str, str]:
    mine = str.isupper if side == "white" else str.islower
    return {name: letter for name, letter in pieces.items() if mine(letter)}


def toggle(argument: str) -> bool | None:
    word = argument.strip().lower()
    return True if word in ("on", "") else False if word == "off" else None


def notebook_command(view: View, argument: str, preferences: dict[str, Any], names: Names) -> Answer:
    shown = toggle(argument)
    if shown is None:
        return Answer("notebook", ["Write 'notebook on' or 'notebook off'."])
    return Answer(f"notebook {'on' if shown else 'off'}", [
        "Your notebook of the other world is now " + ("shown." if shown else
        "hidden: you will see your own world and the announcements only.")], {"notebook": shown})


class LookingGlassPresenter(Presenter):
    def summary(self) -> str:
        return ("Two boards, the Real world (White's) and the Mirror world (Black's): you see only your own. "
                "Pieces fall through portals into the other world, and you order moves there blind; an "
                "impossible order there costs a strike. Capture the enemy king to win.")

    def reason_words(self, reason: str | None) -> str:
        return LG_REASONS.get(reason or "", reason or "")

    # ----------------------------------------------------------------- messages

    def describe(self, message: Message, names: Names) -> str:
        kind = message["kind"]
        if kind == "moved":
            return self.moved(message, names)
        if kind == "landed":
            world, name = message["square"].split(":")
            other = "Mirror" if world == "R" else "Real"
            answer = "empty, so it came through into your world" if message["through"] else (
                f"occupied, so it stayed in the {WORLD_NAMES[world]} world")
            text = (f"{capitalised(names.of(message['color']))} moved in their own world; a piece stopped on "
                    f"{WORLD_NAMES[world]} {name} and asked about {other} {name}: {answer}.")
            if message.get("captured"):
                captured = message["captured"]
                text += f" It captured your {piece_name(captured['piece'])} on {square(captured['square'])}."
            return text
        if kind == "arrived":
            targets = ", ".join(
                f"{names.whose(target['color'])} {piece_name(target['piece'])} on {square(target['square'])}"
                for target in message["attacks"]) or "nothing"
            text = (f"{capitalised(names.whose(message['color']))} {piece_name(message['piece'])} arrived on "
                    f"{square(message['square'])} attacking {targets}")
            front = message["front"]
            if front == "empty":
                text += "; the square in front of it is empty"
            elif front:
                text += f"; in front of it stands {names.whose(front['color'])} {piece_name(front['piece'])}"
            return text + "."
        if kind == "strike":
            if message["color"] == names.me:
                return f"Your order was impossible: strike {message['count']}."
            who, count = capitalised(names.of(message["color"])), message["count"]
            return f"{who}'s order {message['order']} in your world was impossible: strike {count} for {who}."
        if kind == "forfeit":  # impossible=forfeit: the opponent orders one move for this army
            if message["color"] == names.me:
                return f"Your order was impossible: {names.opponent} now orders one move for your army."
            who, whose = capitalised(names.of(message["color"])), names.whose(message["color"])
            return f"{who}'s order {message['order']} was impossible: you now order one move for {whose} army."
        if kind == "impossible":
            return f"The proxy order {message['order']} was impossible: {names.of(message['color'])} orders again."
        if kind == "answer":
            yes = "yes" if message["legal_move"] else "no"
            return f"You asked whether you have any legal move in the {WORLD_NAMES[message['world']]} world: {yes}."
        if kind == "asked":
            return (f"{capitalised(names.of(message['color']))} asked whether they have any legal move in the "
                    f"{WORLD_NAMES[message['world']]} world.")
        return super().describe(message, names)

    def lines(self, messages: list[Message], names: Names) -> list[str]:
        """As ``describe``, but a castling reads as one move: the king's and the rook's messages joined."""
        lines: list[str] = []
        index = 0
        while index < len(messages):
            message, following = messages[index], messages[index + 1] if index + 1 < len(messages) else None
            if following and castling_pair(message, following):
                lines.append(self.castling(message, following, names))
                index += 2
                continue
            lines.append(self.describe(message, names))
            index += 1
        return lines

    def castling(self, first: Message, second: Message, names: Names) -> str:
        who = capitalised(names.of(first["color"]))
        if first["kind"] == "landed":  # seen from the other world: two pieces stopped in one move
            squares = " and ".join(f"{WORLD_NAMES[m['square'].split(':')[0]]} {m['square'].split(':')[1]}"
                                   for m in (first, second))
            through = "; ".join(
                f"{m['square'].split(':')[1]}: " + ("empty, so it came through into your world" if m["through"]
                                                    else "occupied, so it stayed")
                for m in (first, second))
            return (f"{who} castled in their own world: two pieces stopped, on {squares}, and asked about your "
                    f"world ({through}).")
        return f"{who} castled {first['castle']}: " + "; ".join(
            self.moved(m, names).split(": ", 1)[-1].rstrip(".") for m in (first, second)) + "."

    def moved(self, message: Message, names: Names) -> str:
        who = names.of(message["color"])
        lead = ""
        if message.get("proxy"):
            lead = f"Proxy order for {names.whose(message['color'])} army: "
        elif message["color"] != names.me:
            order = f"{message['world']} {message['from']}-{message['ordered']}"
            lead = f"{capitalised(who)} ordered in your world: {order}. "
        whose = names.whose(message["color"])
        world = WORLD_NAMES[message["world"]]
        went = f"{piece_name(message['piece'])} went {world} {message['from']} to {message['to']}"
        text = f"{lead}{capitalised(whose)} {went}"
        if message.get("castle"):
            text = f"{lead}{capitalised(who)} castled {message['castle']}: {whose} {went}"
        text += _capture(message["captured"], names)
        if message["en_passant"]:
            text += " (en passant)"
        if message["shortened"]:
            text += f" (shortened: {message['ordered']} was ordered)"
        if message["promotion"]:
            text += f", promoting to a {piece_name(message['promotion'])}"
        return text + _portal(message) + "."

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        home, _away = WORLDS_OF[side]
        limit = standing.options.get("strikes", 3)
        lines = [f"You see the {WORLD_NAMES[home]} world.",
                 f"Strikes: you {standing.public['strikes'][side]} of {limit}, "
                 f"{names.opponent} {standing.public['strikes'][other_side(side)]} of {limit}."]
        if standing.orderer == side and standing.army not in (None, side):
            lines.append(f"Your opponent's order was impossible: you now order one move for {names.opponent}'s army.")
        return lines

    # ----------------------------------------------------------------- pictures

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """The player's own world as it is, and their notebook of the other (LG-10), side by side."""
        if not view:
            return Figure()
        home, away = WORLDS_OF[side]
        white_below = side == "white"
        home_grid = board_grid(f"{WORLD_NAMES[home]} world (what you see)", squares_of(view["home"]), white_below,
                               marks_in(messages, home))
        notebook_on = preferences.get("notebook", True)
        pieces = squares_of(view["notebook"])
        marks = marks_in(messages, away)
        if notebook_on:
            for name in view["unknown"]:
                pieces[name] = UNKNOWN
            marks.seen_at = {name: number for name, number in view["marks"].items()}
            caption = f"{WORLD_NAMES[away]} world (your notebook)"
        else:
            pieces = own_pieces(pieces, side)
            caption = f"{WORLD_NAMES[away]} world (your pieces)"
        known = {name: letter for name, letter in pieces.items() if letter != UNKNOWN}
        away_grid = replace(board_grid(caption, pieces, white_below, marks),
                            description=piece_list(known, view["unknown"] if notebook_on else ()))
        legend = [PIECES_LEGEND]
        notes = []
        if notebook_on:
            legend.append("In the notebook, '?' is a piece of your opponent's of unknown type; every entry is "
                          "what you were last told of that square and may have changed since.")
            entries = self.notebook_entries(view, names)
            if entries:
                notes.append("Notebook: " + entries + ".")
        notes.append(tray_words(view["tray"]))
        return Figure(((home_grid, away_grid),), tuple(legend), tuple(notes))

    @staticmethod
    def notebook_entries(view: View, names: Names) -> str:
        """"knight on e5 seen at move 11; ? on g6 (a piece of Bob's) at move 11"."""
        pieces = squares_of(view["notebook"])
        notes = []
        for name, number in sorted(view["marks"].items(), key=lambda item: (item[1], item[0])):
            if name in view["unknown"]:
                notes.append(f"? on {name} (a piece of {names.opponent}'s) at move {number}")
            else:
                notes.append(f"{piece_name(pieces[name])} on {name} seen at move {number}")
        return "; ".join(notes)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """Both true worlds with the last move marked, then each player's notebook of the other world, all from
        ``names.me``'s side."""
        white_below = names.me == "white"
        moves = [message for message in last or [] if message["kind"] == "moved"]
        worlds = tuple(board_grid(f"{WORLD_NAMES[world]} world (true position)", squares_of(placement), white_below,
                                  last_move_in(moves, world))
                       for world, placement in position.items())
        books = []
        for side, (_home, away) in WORLDS_OF.items():
            view = views.get(side)
            if view:
                pieces = squares_of(view["notebook"])
                for name in view["unknown"]:
                    pieces[name] = UNKNOWN
                books.append(board_grid(f"{SIDE_TITLE[side]}'s notebook of the {WORLD_NAMES[away]} world", pieces,
                                        white_below, Marks(seen_at=dict(view["marks"]))))
        layout = (worlds, tuple(books)) if books else (worlds,)
        legend = (PIECES_LEGEND,) + (("In a notebook, m and a number beside a piece: the move it was reported at.",)
                                     if books else ())
        return Figure(layout, legend)

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves as made (a shortened move where it stopped), captures marked ``x``: shown only after the
        end, when all may be known."""
        return super().record([replace(ply, order=move_made(ply)) for ply in plies], names, result, options)

    # ----------------------------------------------------------------- orders

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        home, away = WORLDS_OF[side]
        examples = self.variant.example_orders(view, side) if view else []
        forms = [
            *example_forms([example for example in examples if example.startswith(home)],
                           f"move in the {WORLD_NAMES[home]} world (your world)"),
            *example_forms([example for example in examples if not example.startswith(home)],
                           f"move in the {WORLD_NAMES[away]} world: you cannot see it, and an impossible order "
                           "costs a strike"),
        ]
        if not any(example.startswith(away) for example in examples):
            forms.append((f"{away} e4-e5", f"the form of a move in the {WORLD_NAMES[away]} world (none of your "
                                           "pieces is there now): an impossible order costs a strike"))
        forms += [
            promotion_form(squares_of(view["home"]) if view else {}, side),
            ("O-O", "castle (O-O-O the other side), in your own world"),
            ("ask", f"do I have any legal move in the {WORLD_NAMES[away]} world?"),
        ]
        return forms

    def setup_request(self, side: str, names: Names, options: dict[str, Any]) -> list[str]:
        home, _away = WORLDS_OF[side]
        paragraphs = super().setup_request(side, names, options)
        paragraphs[0] = (f"The game is on. You play {SIDE_TITLE[side]}; your army stands in the "
                         f"{WORLD_NAMES[home]} world, pieces on rank {'1' if side == 'white' else '8'}. "
                         "Choose the order of your back rank, a-file to h-file, in private:")
        return paragraphs

    def commands(self) -> list[VariantCommand]:
        return [VariantCommand("notebook", "on|off", "show or hide your notebook of the other world",
                               notebook_command)]

    # ----------------------------------------------------------------- what to say at once

    def tell(self, result: str, messages: list[Message], actor: bool, order: str, names: Names,
             standing: Standing) -> Tidings | None:
        lines = self.lines(messages, names)
        limit = standing.options.get("strikes", 3)
        if result == "strike" and actor:
            count = standing.public["strikes"][names.me]
            return Tidings("notice", f"strike {count} of {limit}", [
                f"Your order {order} was impossible. That is strike {count} of {limit}: strike {limit} loses "
                "the game. The referee does not say why."])
        if result == "forfeit-order":
            if actor:
                return Tidings("notice", "impossible order - your opponent orders for you", [
                    f"Your order {order} was impossible. {names.opponent} now orders one move for your army; "
                    "you will hear what it was."])
            return Tidings("notice", "you order for their army, theirs was impossible", [])
        if result == "impossible":
            if actor:
                return Tidings("notice", "proxy order impossible", lines)
            return Tidings("notice", "the proxy order was impossible - your move again", [])
        if result in ("moved", "shortened") and not actor and any(m.get("proxy") for m in messages):
            return Tidings("proxy-move", f"{names.opponent} ordered a move for your army", lines, show_position=True)
        return super().tell(result, messages, actor, order, names, standing)


def castling_pair(first: Message, second: Message) -> bool:
    """Two messages of one castling: the king's and the rook's moves, or the two pieces that stopped in the
    other player's world (only castling moves two pieces at once)."""
    if first["kind"] == second["kind"] == "moved":
        return bool(first.get("castle")) and first.get("castle") == second.get("castle") and \
            first["color"] == second["color"]
    return first["kind"] == second["kind"] == "landed" and first["color"] == second["color"]


def other_side(side: str) -> str:
    return "black" if side == "white" else "white"
