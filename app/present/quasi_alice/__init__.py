"""QuasiAlicePresenter: its presenter and its rules page for players."""

from app.present.quasi_alice.presenter import QuasiAlicePresenter

__all__ = ["QuasiAlicePresenter"]
