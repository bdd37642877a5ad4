"""SideViewPresenter: its presenter and its rules page for players."""

from app.present.side_view.presenter import SideViewPresenter

__all__ = ["SideViewPresenter"]
