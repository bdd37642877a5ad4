"""LookingGlassPresenter: its presenter and its rules page for players."""

from app.present.looking_glass.presenter import LookingGlassPresenter

__all__ = ["LookingGlassPresenter"]
