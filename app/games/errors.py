"""The one error of the game service."""


class ServiceError(ValueError):
    """A request the service answers with a notice instead of carrying out.

    What it says (``str``) quotes nothing the sender wrote: it may go to the From address of a mail that proves
    nothing. ``quoting`` says the same with the sender's own word quoted (bounded), for a sender whose mail is
    proven to be theirs (``told``)."""

    def __init__(self, message: str, quoting: str | None = None) -> None:
        super().__init__(message)
        self.quoting = quoting

    def told(self, proven: bool) -> str:
        """What to tell the sender: their word quoted only when their mail is proven to be theirs."""
        return self.quoting if proven and self.quoting else str(self)
