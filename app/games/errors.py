"""The one error of the game service."""


class ServiceError(ValueError):
    """A request the service answers with a notice instead of carrying out."""
