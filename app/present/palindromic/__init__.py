"""PalindromicPresenter: its presenter and its rules page for players."""

from app.present.palindromic.presenter import PalindromicPresenter

__all__ = ["PalindromicPresenter"]
