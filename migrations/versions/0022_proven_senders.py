"""proven senders: what the sender checks found for each inbound message, and each player's proven mark

- ``inbound_messages.peer_address`` and ``helo``: the host that handed the message to the listener (SPF);
- ``inbound_messages.authentication``: the Authentication-Results of our own checks, for operators;
- ``players.proven_at``: when the player's mail was first proven (DKIM or SPF for their domain): from then on
  mail in their name that is not proven is refused; ``players.unsigned_ok``: they chose, signed in on the
  web, to have their unsigned mail accepted again.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 21:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('inbound_messages', sa.Column('peer_address', sa.String(length=64), nullable=True))
    op.add_column('inbound_messages', sa.Column('helo', sa.String(length=255), nullable=True))
    op.add_column('inbound_messages', sa.Column('authentication', sa.Text(), nullable=True))
    op.add_column('players', sa.Column('proven_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('players', sa.Column('unsigned_ok', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    op.drop_column('players', 'unsigned_ok')
    op.drop_column('players', 'proven_at')
    op.drop_column('inbound_messages', 'authentication')
    op.drop_column('inbound_messages', 'helo')
    op.drop_column('inbound_messages', 'peer_address')
