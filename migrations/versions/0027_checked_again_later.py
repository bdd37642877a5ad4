"""checked again later, and copies known: a message whose sender check DNS left unfinished waits; a signature
proves one message only

A mail in a proven player's name (or from a domain publishing a strict DMARC policy) whose signature could not
be checked because its domain's DNS did not answer in time is no longer refused at once: it stays new, nothing
in it done, and is checked again from ``inbound_messages.retry_at`` on, until it is proven or has waited long
enough (then refused, as before). The sweep takes a new message up only once its ``retry_at`` has passed.

``inbound_messages.signature_key`` (unique) holds what the DKIM signature that proved a message pins of it (its
body as signed, its From, Message-ID and Date), written by the mark that ends its transaction: a copy of the mail,
changed so that it is not the same bytes yet still verifies, fails that mark, so everything it did is undone, and it
is not carried out again.

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
    with op.batch_alter_table('inbound_messages') as batch:
        batch.add_column(sa.Column('retry_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('signature_key', sa.String(length=80), nullable=True))
        batch.create_unique_constraint('uq_inbound_messages_signature_key', ['signature_key'])


def downgrade() -> None:
    with op.batch_alter_table('inbound_messages') as batch:
        batch.drop_constraint('uq_inbound_messages_signature_key', type_='unique')
        batch.drop_column('signature_key')
        batch.drop_column('retry_at')
