"""Correspondence-clock arithmetic: deadlines, reminders and vacations."""

from __future__ import annotations

from datetime import datetime, timedelta

from app.games.records import PlayerRecord

REMINDER_BEFORE = timedelta(hours=24)


def deadline_for(player: PlayerRecord, days: int, now: datetime) -> datetime:
    """When a player must have ordered, their clock paused while on vacation."""
    start = max(now, player.vacation_until) if player.vacation_until else now
    return start + timedelta(days=days)


def describe_deadline(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y, %H:%M UTC")
