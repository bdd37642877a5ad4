"""addresses as A-labels: a player's address with a domain in other than ASCII letters is kept as its A-labels

The server now reads every address with its domain as UTS-46 A-labels (``app.outbound.idn``): ``m@faß.de`` is
``m@xn--fa-hia.de``, however it is written. A player stored before under the first spelling would meet their next
mail as a stranger, so each such address is rewritten, unless another player already holds the rewritten one
(then both are left as they are: two players are never merged) or the domain is no valid name. Going down leaves
the addresses as they are: both spellings name the same mailbox.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-29 01:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

from app.outbound.idn import ascii_name

revision = '0026'
down_revision = '0025'
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind()
    held = {row.email for row in connection.execute(sa.text("SELECT email FROM players"))}
    for email in sorted(held):
        local, _, domain = email.rpartition("@")
        if domain.isascii():
            continue
        name = ascii_name(domain)
        rewritten = f"{local}@{name}" if name else None
        if rewritten is None or rewritten in held:
            continue
        connection.execute(sa.text("UPDATE players SET email = :new WHERE email = :old"),
                           {"new": rewritten, "old": email})
        held.add(rewritten)


def downgrade() -> None:
    pass
