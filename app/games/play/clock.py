"""Correspondence-clock arithmetic: deadlines, reminders and vacations."""

from __future__ import annotations

from datetime import datetime, timedelta

from app.games.records.rows import PlayerRecord
from app.rules.numbers import NumberError, whole_number

REMINDER_BEFORE = timedelta(hours=24)  # the longest a reminder comes before the deadline


def deadline_for(player: PlayerRecord, days: int, now: datetime) -> datetime:
    """When a player must have ordered, their clock paused while on vacation."""
    start = max(now, player.vacation_until) if player.vacation_until else now
    return start + timedelta(days=days)


def vacation_days(argument: str) -> int | None:
    """The days of ``vacation N`` (one at least), None when that is not a number (the allowance is the caller's)."""
    try:
        return whole_number(argument.strip(), 1)
    except NumberError:
        return None


def reminder_lead(days: int) -> timedelta:
    """How long before the deadline the player to move is reminded: 24 hours, or half the time of a move of two
    days or less, so that a reminder never comes with the move request itself. The one place this is chosen."""
    return min(REMINDER_BEFORE, timedelta(days=days) / 2)


def reminder_leads(days: int, chosen: list[int] | None) -> list[timedelta]:
    """The reminders of one turn, longest lead first: the hours the player chose (``remind 24h 2h``) that come
    after the move request (shorter than the time of a move), else the one default (``reminder_lead``). The
    last is the last warning before a loss on time."""
    move = timedelta(days=days)
    leads = sorted({timedelta(hours=hours) for hours in chosen or [] if timedelta(hours=hours) < move}, reverse=True)
    return leads or [reminder_lead(days)]


def lead_hours(lead: timedelta) -> int:
    return round(lead.total_seconds() / 3600)


def describe_lead(lead: timedelta) -> str:
    """``24 hours``, ``12 hours``."""
    hours = round(lead.total_seconds() / 3600)
    return f"{hours} hour{'s' if hours != 1 else ''}"


def hours_words(hours: list[int]) -> str:
    """``24 hours, 8 hours and 2 hours``."""
    words = [f"{hour} hour{'s' if hour != 1 else ''}" for hour in hours]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def describe_deadline(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y, %H:%M UTC")
