"""checked again later: a message whose sender check could not be finished, for want of DNS, waits

A mail in a proven player's name (or from a domain publishing a strict DMARC policy) whose signature could not
be checked because its domain's DNS did not answer in time is no longer refused at once: it stays new, nothing
in it done, and is checked again from ``inbound_messages.retry_at`` on, until it is proven or has waited long
enough (then refused, as before). The sweep takes a new message up only once its ``retry_at`` has passed.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-29 03:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('inbound_messages', sa.Column('retry_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inbound_messages') as batch:
        batch.drop_column('retry_at')
