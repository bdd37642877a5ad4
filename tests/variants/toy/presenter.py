"""How Toy Chess reads and looks: the moves in words, the whole board."""

from __future__ import annotations

from typing import Any

from app.present.base import Presenter
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, squares_of
from app.present.words import Names, capitalised
from app.rules.base import Message, View


class ToyPresenter(Presenter):
    def describe(self, message: Message, names: Names) -> str:
        if message["kind"] == "moved":
            return f"{capitalised(names.of(message['color']))} moved {message['order']}."
        return super().describe(message, names)

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        marks = Marks()
        for message in messages:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
        return Figure(((board_grid("The board", squares_of(view["board"]), side == "white", marks),),),
                      (PIECES_LEGEND,))

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        return Figure(((board_grid("The final position", squares_of(position["board"])),),), (PIECES_LEGEND,))

    def order_forms(self, view: View, side: str, names: Names, standing: Any) -> list[tuple[str, str]]:
        return [(example, "a move: from-square, to-square") for example in self.variant.example_orders(view, side)]
