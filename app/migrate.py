"""How Alembic compares and renders our column types (used by migrations/env.py and the schema test)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import DateTime

from app.db import UTCDateTime


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Render our UTC timestamp type as a plain timezone-aware DateTime in migrations."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def compare_type(context: Any, inspected: Any, metadata: Any, inspected_type: Any, metadata_type: Any) -> bool | None:
    """A UTC timestamp column matches any DateTime in the database; other types as Alembic decides."""
    if isinstance(metadata_type, UTCDateTime):
        return not isinstance(inspected_type, DateTime)
    return None
